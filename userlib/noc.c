// SPDX-License-Identifier: MIT
/*
 * libvatom: NOC_AT_LEN_BE builders for each documented NoC atomic variant
 * (shared/spec/noc-atomics.md section 1.2).
 *
 * Copyright (C) 2026 The vatom developers
 */
#include "internal.h"

/*
 * PRIVATE: NOC_AT_LEN_BE field layout. The UAPI does not carry NoC register
 * constants yet; once it grows DRM_VATOM_NOC_* equivalents these go away in
 * favour of them. Only what the builders below need.
 */
#define NOC_AT_OPCODE_SHIFT	12	/* [15:12] */
#define NOC_AT_INCREMENT	0x1
#define NOC_AT_SWAP_MASK	0x3
#define NOC_AT_CAS		0x4
#define NOC_AT_SWAP_INDEX6	0x6
#define NOC_AT_SWAP_INDEX7	0x7
#define NOC_AT_ACC		0x9
#define NOC_AT_RISCV		0xa	/* SwapIndex10 and Zaamo */

static uint32_t at_op(uint32_t opcode)
{
	return opcode << NOC_AT_OPCODE_SHIFT;
}

VATOM_API uint32_t vatom_noc_at_increment(unsigned int ofs,
					  unsigned int int_width)
{
	/* Ofs [1:0], IntWidth [6:2]. */
	if (ofs > 3 || int_width > 31)
		return 0;
	return at_op(NOC_AT_INCREMENT) | int_width << 2 | ofs;
}

VATOM_API uint32_t vatom_noc_at_cas(unsigned int ofs, unsigned int cmp,
				    unsigned int set)
{
	/* Ofs [1:0], CmpVal [5:2], SetVal [9:6]. */
	if (ofs > 3 || cmp > 15 || set > 15)
		return 0;
	return at_op(NOC_AT_CAS) | set << 6 | cmp << 2 | ofs;
}

VATOM_API uint32_t vatom_noc_at_swap_mask(unsigned int mask)
{
	/* Mask [9:2]; [1:0] unused. */
	if (mask > 0xff)
		return 0;
	return at_op(NOC_AT_SWAP_MASK) | mask << 2;
}

VATOM_API uint32_t vatom_noc_at_swap_index6(unsigned int ofs)
{
	/* Ofs [1:0], bit 2 fixed at 1. */
	if (ofs > 3)
		return 0;
	return at_op(NOC_AT_SWAP_INDEX6) | 1u << 2 | ofs;
}

VATOM_API uint32_t vatom_noc_at_swap_index7(unsigned int ofs)
{
	/* Ofs [3:2] (not [1:0]); [1:0] unused. */
	if (ofs > 3)
		return 0;
	return at_op(NOC_AT_SWAP_INDEX7) | ofs << 2;
}

VATOM_API uint32_t vatom_noc_at_swap_index10(unsigned int ofs)
{
	/* Ofs [1:0], [11:8] fixed at 0b0011. */
	if (ofs > 3)
		return 0;
	return at_op(NOC_AT_RISCV) | 3u << 8 | ofs;
}

VATOM_API uint32_t vatom_noc_at_zaamo(unsigned int op, unsigned int ofs)
{
	/* Ofs [1:0], Op [10:8], bit 11 set. */
	if (op > 7 || ofs > 3)
		return 0;
	return at_op(NOC_AT_RISCV) | 1u << 11 | op << 8 | ofs;
}

VATOM_API uint32_t vatom_noc_at_acc(unsigned int fmt)
{
	/* Fmt [3:0]. */
	if (fmt > 15)
		return 0;
	return at_op(NOC_AT_ACC) | fmt;
}
