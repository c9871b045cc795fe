# SPDX-License-Identifier: GPL-2.0
#
# vatom: build everything against Debian 12's 6.1 kernel headers.
#
#   make              module, libvatom, the vatom tool, selftests
#   make check        every test (host engine tests, VM selftests on the 6.1
#                     kernel and on the debug kernels, checkpatch)
#   make check-quick  the same without the debug kernels
#   make debug-kernel build the debug kernel (KASAN, lockdep, kmemleak, ...)
#                     once per machine: scripts/debug-kernel.sh; the 6.12
#                     one with KERNEL=debug-6.12
#   make module KERNEL=debug
#                     vatom.ko for the debug kernel, in build/debug-module/
#                     (KERNEL=debug-6.12: build/debug-6.12-module/)
#   make demo         boot the VM, load vatom.ko, run the demo
#   make bench        host engine and in-VM device benchmarks: bench/results.md
#   make bench-icount the per-job costs counted in guest instructions
#   make coverage     the engine's line and branch coverage by the host tests
#   make coverage-driver  the driver's, in the 6.12 debug kernel (gcov-kernel)
#   make install      vatom.ko for KVER (modules_install + depmod), libvatom,
#                     the vatom tool and the man pages; DESTDIR, PREFIX
#   make uninstall    the same files removed
#   make dkms-source  a clean source tree for DKMS with its dkms.conf, in
#                     DESTDIR/usr/src/vatom-VERSION (DKMS_SRC)
#   make deb          the Debian packages (vatom-dkms, libvatom0,
#                     libvatom-dev, vatom-tools, vatom-tests) in build/deb/,
#                     lintian-checked: scripts/build-debs.sh
#
# The target kernel is never the running one: KVER defaults to the newest
# installed 6.1 -amd64 headers.

KERNEL ?= default
PREFIX ?= /usr/local
VERSION := $(shell cat VERSION)
DKMS_SRC ?= $(DESTDIR)/usr/src/vatom-$(VERSION)
export PREFIX

DEBUG_KERNEL := $(filter debug debug-6.12,$(KERNEL))

ifneq ($(DEBUG_KERNEL),)
# scripts/env.sh computes the debug kernel's KVER and KDIR: do not pass ours.
unexport KVER KDIR
else
KVER ?= $(shell ls -d /usr/src/linux-headers-6.1.*-amd64 2>/dev/null | \
		sed 's|.*/linux-headers-||' | sort -V | tail -n 1)
KDIR ?= /usr/src/linux-headers-$(KVER)

export KVER KDIR
endif

.PHONY: all module userlib tools selftests shim demo-shim host-tests sparse checkpatch \
	check check-quick debug-kernel demo bench bench-icount coverage coverage-driver clean install uninstall \
	dkms-source deb

all: module userlib tools selftests shim

ifneq ($(DEBUG_KERNEL),)
module:
	+KERNEL=$(KERNEL) scripts/debug-kernel.sh module
else
module:
	@test -d "$(KDIR)" || { echo "no 6.1 kernel headers: run scripts/deps.sh"; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 modules
endif

sparse:
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 C=2 modules

debug-kernel:
	KERNEL=$(or $(DEBUG_KERNEL),debug) scripts/debug-kernel.sh build

userlib:
	$(MAKE) -C userlib

tools: userlib
	$(MAKE) -C tools

selftests:
	$(MAKE) -C selftests

# The device in-process (docs/shim.md), with the dynamically linked vatom
# and selftests it can be preloaded into.
shim: userlib
	$(MAKE) -C shim
	$(MAKE) -C tools shim
	$(MAKE) -C selftests shim

demo-shim:
	scripts/demo-shim.sh

host-tests:
	$(MAKE) -C tests check

checkpatch:
	scripts/checkpatch.sh

check:
	scripts/test.sh

check-quick:
	QUICK=1 scripts/test.sh

demo:
	scripts/demo.sh

bench: module
	$(MAKE) -C bench bench

bench-icount: module
	$(MAKE) -C bench vm-icount

coverage:
	$(MAKE) -C tests coverage

coverage-driver:
	scripts/coverage-driver.sh

# The module goes to lib/modules/$(KVER)/updates (DESTDIR first); depmod
# then indexes that tree (-b DESTDIR, when there is one).
install: module userlib tools
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_PATH=$(DESTDIR) \
		INSTALL_MOD_DIR=updates DEPMOD=true modules_install
	/sbin/depmod $(if $(DESTDIR),-b $(DESTDIR)) $(KVER)
	$(MAKE) -C userlib install
	$(MAKE) -C tools install
	$(MAKE) -C shim install

uninstall:
	rm -f $(DESTDIR)/lib/modules/$(KVER)/updates/vatom.ko*
	/sbin/depmod $(if $(DESTDIR),-b $(DESTDIR)) $(KVER)
	$(MAKE) -C userlib uninstall
	$(MAKE) -C tools uninstall
	$(MAKE) -C shim uninstall

dkms-source:
	rm -rf $(DKMS_SRC)
	install -d $(DKMS_SRC)
	cp Kbuild VERSION $(DKMS_SRC)/
	find driver uapi -name '*.[ch]' ! -name '*.mod.c' \
		-exec cp --parents {} $(DKMS_SRC)/ \;
	sed 's/@VERSION@/$(VERSION)/' dkms.conf.in > $(DKMS_SRC)/dkms.conf

deb:
	scripts/build-debs.sh

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	-$(MAKE) -C userlib clean
	-$(MAKE) -C tools clean
	-$(MAKE) -C selftests clean
	-$(MAKE) -C tests clean
	rm -rf build
