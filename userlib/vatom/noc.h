/* SPDX-License-Identifier: MIT */
/*
 * libvatom: Tenstorrent NoC atomics.
 * One area of the library's interface: programs include <vatom.h>,
 * which includes them all; this header also compiles alone.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_NOC_H_
#define _VATOM_NOC_H_

#include <vatom/common.h>

#if defined(__cplusplus)
extern "C" {
#endif

/**
 * struct vatom_noc_req - one NoC atomic request: the initiator's register
 * image, exactly as software writes it to the NIU
 * @slot: binding slot of the tile grid
 * @noc: NoC 0 or 1
 * @x: initiator tile X
 * @y: initiator tile Y
 * @targ_addr_lo: NOC_TARG_ADDR_LO
 * @targ_addr_mid: NOC_TARG_ADDR_MID
 * @targ_addr_hi: NOC_TARG_ADDR_HI (Blackhole; 0 on Wormhole)
 * @ret_addr_lo: NOC_RET_ADDR_LO
 * @ret_addr_mid: NOC_RET_ADDR_MID
 * @ret_addr_hi: NOC_RET_ADDR_HI (Blackhole; 0 on Wormhole)
 * @packet_tag: NOC_PACKET_TAG
 * @ctrl: NOC_CTRL
 * @at_len_be: NOC_AT_LEN_BE, e.g. from vatom_noc_at_cas()
 * @at_data: NOC_AT_DATA
 */
struct vatom_noc_req {
	uint8_t slot;
	uint8_t noc;
	uint8_t x;
	uint8_t y;
	uint32_t targ_addr_lo;
	uint32_t targ_addr_mid;
	uint32_t targ_addr_hi;
	uint32_t ret_addr_lo;
	uint32_t ret_addr_mid;
	uint32_t ret_addr_hi;
	uint32_t packet_tag;
	uint32_t ctrl;
	uint32_t at_len_be;
	uint32_t at_data;
};

/**
 * vatom_prep_noc() - append one NoC atomic request
 * @b: the batch
 * @req: the register image
 *
 * NoC requests return nothing in the result destination: responses land
 * in the return tile's L1 and NIU counters.
 *
 * Return: the packet index; -EINVAL for a NULL @req; -E2BIG; -ENOMEM.
 */
VATOM_API int vatom_prep_noc(struct vatom_batch *b,
			     const struct vatom_noc_req *req);

/*
 * NOC_AT_LEN_BE builders, one per documented variant. Each returns the
 * register value, or 0 when an argument does not fit its field: 0 is the
 * reserved opcode 0, which the kernel rejects, so a bad argument surfaces
 * as a rejected packet rather than as a silently truncated field.
 */

/**
 * vatom_noc_at_increment() - NOC_AT_LEN_BE of an atomic increment
 * @ofs: the word (0..3) of the 16 bytes at the target address
 * @int_width: 0..31: increment within the low @int_width + 1 bits
 *
 * Return: the register value (opcode 1), or 0 for an argument out of range.
 */
VATOM_API uint32_t vatom_noc_at_increment(unsigned int ofs,
					  unsigned int int_width);

/**
 * vatom_noc_at_cas() - NOC_AT_LEN_BE of an atomic compare and swap
 * @ofs: the word (0..3)
 * @cmp: the 4-bit value compared with the word
 * @set: the 4-bit value stored when they are equal
 *
 * Return: the register value (opcode 4), or 0 for an argument out of range.
 */
VATOM_API uint32_t vatom_noc_at_cas(unsigned int ofs, unsigned int cmp,
				    unsigned int set);

/**
 * vatom_noc_at_swap_mask() - NOC_AT_LEN_BE of a swap, mask variant
 * @mask: 8 bits: half word i of the 16 bytes receives half (i & 1) of
 *	NOC_AT_DATA when bit i is set
 *
 * Return: the register value (opcode 3), or 0 for a mask above 0xff.
 */
VATOM_API uint32_t vatom_noc_at_swap_mask(unsigned int mask);

/**
 * vatom_noc_at_swap_index6() - NOC_AT_LEN_BE of a swap, index variant (opcode 6)
 * @ofs: the word (0..3) that receives NOC_AT_DATA
 *
 * Return: the register value, or 0 for @ofs above 3.
 */
VATOM_API uint32_t vatom_noc_at_swap_index6(unsigned int ofs);

/**
 * vatom_noc_at_swap_index7() - NOC_AT_LEN_BE of a swap, index variant (opcode 7)
 * @ofs: the word (0..3), kept at bits [3:2] in this encoding
 *
 * Return: the register value, or 0 for @ofs above 3.
 */
VATOM_API uint32_t vatom_noc_at_swap_index7(unsigned int ofs);

/**
 * vatom_noc_at_swap_index10() - NOC_AT_LEN_BE of a swap, index variant (0xA)
 * @ofs: the word (0..3)
 *
 * Blackhole's opcode 0xA with [11:8] = 3.
 *
 * Return: the register value, or 0 for @ofs above 3.
 */
VATOM_API uint32_t vatom_noc_at_swap_index10(unsigned int ofs);

/* Zaamo operations (Blackhole), Op field of vatom_noc_at_zaamo(). */
enum vatom_noc_zaamo {
	VATOM_NOC_AMOADD = DRM_VATOM_NOC_ZAAMO_ADD,
	VATOM_NOC_AMOXOR = DRM_VATOM_NOC_ZAAMO_XOR,
	VATOM_NOC_AMOOR = DRM_VATOM_NOC_ZAAMO_OR,
	VATOM_NOC_AMOAND = DRM_VATOM_NOC_ZAAMO_AND,
	VATOM_NOC_AMOMIN = DRM_VATOM_NOC_ZAAMO_MIN,	/* signed */
	VATOM_NOC_AMOMAX = DRM_VATOM_NOC_ZAAMO_MAX,	/* signed */
	VATOM_NOC_AMOMINU = DRM_VATOM_NOC_ZAAMO_MINU,
	VATOM_NOC_AMOMAXU = DRM_VATOM_NOC_ZAAMO_MAXU,
};

/**
 * vatom_noc_at_zaamo() - NOC_AT_LEN_BE of a Zaamo operation (Blackhole)
 * @op: enum vatom_noc_zaamo
 * @ofs: the word (0..3) operated on with NOC_AT_DATA
 *
 * Return: the register value (opcode 0xA), or 0 for an argument out of range.
 */
VATOM_API uint32_t vatom_noc_at_zaamo(unsigned int op, unsigned int ofs);

/**
 * vatom_noc_at_acc() - NOC_AT_LEN_BE of a parallel addition (Blackhole)
 * @fmt: DRM_VATOM_NOC_ACC_* (0..15): how the 16 bytes and NOC_AT_DATA read
 *
 * Return: the register value (opcode 9), or 0 for @fmt above 15.
 */
VATOM_API uint32_t vatom_noc_at_acc(unsigned int fmt);

/**
 * vatom_prep_raw() - append a packet encoded by the caller
 * @b: the batch
 * @pkt: the packet, starting with struct drm_vatom_packet
 * @size: bytes at @pkt, a multiple of 8 (copied verbatim, header included)
 * @result_bytes: bytes of results the packet returns (its region is
 *	rounded up to 8); 0 for none
 *
 * An escape hatch for packet kinds or encodings the prep helpers do not
 * cover (new UAPI additions, deliberately malformed packets in tests).
 *
 * Return: the result handle; -EINVAL for a NULL @pkt or a @size that is
 * not a multiple of 8 or smaller than the header; -E2BIG; -ENOMEM.
 */
VATOM_API int vatom_prep_raw(struct vatom_batch *b, const void *pkt,
			     size_t size, uint32_t result_bytes);

/**
 * vatom_noc_target() - address a unicast request
 * @req: the register image to fill in
 * @profile: DRM_VATOM_NOC_PROFILE_WORMHOLE or _BLACKHOLE (register layout)
 * @x: target tile X (0..63)
 * @y: target tile Y (0..63)
 * @addr: the address in the target tile (Wormhole: 36 bits)
 *
 * Sets NOC_TARG_ADDR_LO/MID/HI: Wormhole packs the coordinates into MID
 * above address bits 35..32; Blackhole keeps MID for address bits 63..32
 * and puts the coordinates into HI.
 *
 * Return: 0; -EINVAL for a NULL @req, an unknown profile, a coordinate
 * above 63 or an address the profile cannot express.
 */
VATOM_API int vatom_noc_target(struct vatom_noc_req *req, unsigned int profile,
			       unsigned int x, unsigned int y, uint64_t addr);

/**
 * vatom_noc_broadcast() - address a broadcast to a rectangle of tiles
 * @req: the register image to fill in
 * @profile: DRM_VATOM_NOC_PROFILE_*
 * @x_start: StartX
 * @y_start: StartY
 * @x_end: EndX
 * @y_end: EndY (a start above its end wraps around the torus)
 * @addr: the address in each recipient
 *
 * Sets the target registers like vatom_noc_target() plus the start
 * coordinates, and DRM_VATOM_NOC_CTRL_BRCST_PACKET in @req->ctrl.
 *
 * Return: as vatom_noc_target().
 */
VATOM_API int vatom_noc_broadcast(struct vatom_noc_req *req,
				  unsigned int profile, unsigned int x_start,
				  unsigned int y_start, unsigned int x_end,
				  unsigned int y_end, uint64_t addr);

/**
 * vatom_noc_return() - where the response goes (NOC_RET_ADDR_LO/MID/HI)
 * @req: the register image to fill in
 * @profile: DRM_VATOM_NOC_PROFILE_*
 * @x: return tile X
 * @y: return tile Y
 * @addr: 4-byte aligned L1 address of the result word
 *
 * A response is only sent with DRM_VATOM_NOC_CTRL_RESP_MARKED in
 * @req->ctrl, which this does not set.
 *
 * Return: as vatom_noc_target().
 */
VATOM_API int vatom_noc_return(struct vatom_noc_req *req, unsigned int profile,
			       unsigned int x, unsigned int y, uint64_t addr);

/**
 * vatom_noc_response() - where the response goes, and ask for one
 * @req: the register image to fill in
 * @profile: DRM_VATOM_NOC_PROFILE_*
 * @x: return tile X
 * @y: return tile Y
 * @addr: 4-byte aligned L1 address of the result word
 *
 * vatom_noc_return() plus %DRM_VATOM_NOC_CTRL_RESP_MARKED in @req->ctrl
 * (since 0.3).
 *
 * Return: as vatom_noc_target().
 */
VATOM_API int vatom_noc_response(struct vatom_noc_req *req,
				 unsigned int profile, unsigned int x,
				 unsigned int y, uint64_t addr);

/**
 * vatom_noc_l1() - where byte @addr of a tile's L1 lies in the grid's mapping
 * @grid: a tile grid made by vatom_surface_create_tile_grid()
 * @x: a Tensix or Ethernet tile's X
 * @y: its Y
 * @addr: the L1 address, below the tile's L1 size
 * @ptr: out, the byte in this process's mapping of @grid (mapped first with
 *	vatom_surface_map()); the L1 continues to the tile's L1 size
 *
 * The library keeps the grid's layout (docs/semantics-noc.md) from the
 * descriptor. CPU atomics there are atomic with respect to NoC requests.
 *
 * Return: 0; -EINVAL for NULL arguments, a surface that is not a tile grid,
 * a tile outside the grid or without an L1 (DRAM, PCIe) or @addr past its
 * L1; -EPROTO when the library's layout disagrees with the kernel's size
 * (or the grid was imported); the errors of vatom_surface_map().
 */
VATOM_API int vatom_noc_l1(struct vatom_surface *grid, unsigned int x,
			   unsigned int y, uint32_t addr, void **ptr);

/**
 * vatom_noc_l1_read32() - atomically read the 32-bit L1 word at @addr
 * @grid: a tile grid made by vatom_surface_create_tile_grid()
 * @x: tile X
 * @y: tile Y
 * @addr: 4-byte aligned L1 address
 * @value: out, the little-endian word
 *
 * Return: as vatom_noc_l1(); -EINVAL also for a misaligned @addr or a
 * NULL @value.
 */
VATOM_API int vatom_noc_l1_read32(struct vatom_surface *grid, unsigned int x,
				  unsigned int y, uint32_t addr, uint32_t *value);

/**
 * vatom_noc_l1_write32() - atomically store @value at L1 address @addr
 * @grid: a tile grid made by vatom_surface_create_tile_grid()
 * @x: tile X
 * @y: tile Y
 * @addr: 4-byte aligned L1 address
 * @value: the word
 *
 * Return: as vatom_noc_l1_read32().
 */
VATOM_API int vatom_noc_l1_write32(struct vatom_surface *grid, unsigned int x,
				   unsigned int y, uint32_t addr, uint32_t value);

/**
 * vatom_noc_l1_read() - read @len bytes of a tile's L1, a word at a time
 * @grid: a tile grid made by vatom_surface_create_tile_grid()
 * @x: tile X
 * @y: tile Y
 * @addr: 4-byte aligned L1 address
 * @buf: out, @len bytes
 * @len: a multiple of 4 (16 for the block a parallel add works on)
 *
 * Each 32-bit word is read atomically; the block is not a snapshot
 * (since 0.3).
 *
 * Return: as vatom_noc_l1(); -EINVAL also for a misaligned @addr, a @len
 * that is 0 or not a multiple of 4, or a NULL @buf.
 */
VATOM_API int vatom_noc_l1_read(struct vatom_surface *grid, unsigned int x,
				unsigned int y, uint32_t addr, void *buf,
				size_t len);

/**
 * vatom_noc_l1_write() - store @len bytes into a tile's L1, a word at a time
 * @grid: a tile grid made by vatom_surface_create_tile_grid()
 * @x: tile X
 * @y: tile Y
 * @addr: 4-byte aligned L1 address
 * @buf: the bytes
 * @len: a multiple of 4
 *
 * Each 32-bit word is stored atomically (since 0.3).
 *
 * Return: as vatom_noc_l1_read().
 */
VATOM_API int vatom_noc_l1_write(struct vatom_surface *grid, unsigned int x,
				 unsigned int y, uint32_t addr, const void *buf,
				 size_t len);

/**
 * vatom_noc_counters_read() - read a tile's NIU counters (NOC_COUNTERS)
 * @grid: a tile grid surface
 * @x: tile X
 * @y: tile Y
 * @noc: NoC 0 or 1
 * @counters: out, counters 0 .. @count - 1, indexed by DRM_VATOM_NOC_MST_*
 *	and DRM_VATOM_NOC_SLV_*
 * @count: 1 .. %DRM_VATOM_NOC_NIU_COUNTERS
 *
 * Each counter is read atomically; the set is not a snapshot. The same
 * words are visible in the grid's mapping (docs/semantics-noc.md).
 *
 * Return: 0; -EINVAL for a NULL argument, a @count out of range, a surface
 * that is not a tile grid, a tile outside the grid or @noc > 1; -ENOENT
 * when the surface is gone; -EFAULT.
 */
VATOM_API int vatom_noc_counters_read(struct vatom_surface *grid,
				      unsigned int x, unsigned int y,
				      unsigned int noc, uint32_t *counters,
				      unsigned int count);

/* Flags of vatom_noc_counters_clear(). */
#define VATOM_NOC_CLEAR_ALL	(1u << 0)	/* every counter, @id_mask 0 */

/**
 * vatom_noc_counters_clear() - clear a tile's NIU counters (NOC_COUNTERS)
 * @grid: a tile grid surface
 * @x: tile X
 * @y: tile Y
 * @noc: NoC 0 or 1
 * @id_mask: bit i (0..15) zeroes REQS_OUTSTANDING_ID(i), as a write to the
 *	NIU's per-ID clear register (NIU_BASE + 0x50 / + 0x60) does
 * @flags: 0, or %VATOM_NOC_CLEAR_ALL to zero all the counters instead
 * @old: optional, receives all %DRM_VATOM_NOC_NIU_COUNTERS counters; the
 *	cleared ones as they were when cleared
 *
 * Each counter is cleared with one atomic exchange, so no update of a
 * concurrent submission is lost: it lands in @old or after the clear.
 *
 * Return: 0; -EINVAL for unknown @flags, @id_mask bits above 15, an
 * @id_mask with %VATOM_NOC_CLEAR_ALL, a surface that is not a tile grid, a
 * tile outside the grid or @noc > 1; -ENOENT; -EFAULT.
 */
VATOM_API int vatom_noc_counters_clear(struct vatom_surface *grid,
				       unsigned int x, unsigned int y,
				       unsigned int noc, uint32_t id_mask,
				       unsigned int flags, uint32_t *old);

#if defined(__cplusplus)
}
#endif

#endif /* _VATOM_NOC_H_ */
