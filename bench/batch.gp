# SPDX-License-Identifier: GPL-2.0
#
# Throughput against packets per submission, from vm_bench's sweep.dat:
#   gnuplot -e "datafile='sweep.dat'; outfile='results-batch.png'" batch.gp
# Columns: packets, then median, min, max (M elements/s) per workload.

set terminal pngcairo size 1000,620 font ",11" noenhanced
set output outfile
set title "vatom device path in the QEMU TCG VM: throughput against batch size\n(synchronous submissions; median, bars min-max; TCG: compare shapes, not absolute values)"
set xlabel "packets per submission"
set ylabel "M element operations / s (emulated)"
set logscale xy
set format x "10^{%L}"
set format x "%.0s%c"
set key left top
set grid xtics ytics mxtics mytics
set xrange [0.7:150000]
plot datafile using 1:2:3:4 with yerrorlines lw 2 pt 7 title "int add: vISA DWORD_ATOMIC.ADD SIMD16 (16/packet)", \
     datafile using 1:5:6:7 with yerrorlines lw 2 pt 5 title "f32 add: PTX atom.global.v4.f32.add (4/packet)", \
     datafile using 1:8:9:10 with yerrorlines lw 2 pt 9 title "PTX atom.global.cas.b32 (1/packet)", \
     datafile using 1:11:12:13 with yerrorlines lw 2 pt 11 title "NoC increment, posted unicast (1/packet)"
