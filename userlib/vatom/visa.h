/* SPDX-License-Identifier: MIT */
/*
 * libvatom: Intel vISA: DWORD_ATOMIC, TYPED_ATOMIC, ADDC.
 * One area of the library's interface: programs include <vatom.h>,
 * which includes them all; this header also compiles alone.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_VISA_H_
#define _VATOM_VISA_H_

#include <vatom/common.h>

#if defined(__cplusplus)
extern "C" {
#endif

/* vISA surface indices of the two predefined surfaces (binding slots). */
enum {
	VATOM_T0 = 0,		/* T0: shared local memory */
	VATOM_T255 = 5,		/* T255: stateless */
};

/* The Op of DWORD_ATOMIC / TYPED_ATOMIC (bits 4..0 of the Op byte). */
enum vatom_visa_op {
	VATOM_VISA_ADD = DRM_VATOM_VISA_OP_ADD,
	VATOM_VISA_SUB = DRM_VATOM_VISA_OP_SUB,
	VATOM_VISA_INC = DRM_VATOM_VISA_OP_INC,
	VATOM_VISA_DEC = DRM_VATOM_VISA_OP_DEC,
	VATOM_VISA_MIN = DRM_VATOM_VISA_OP_MIN,
	VATOM_VISA_MAX = DRM_VATOM_VISA_OP_MAX,
	VATOM_VISA_XCHG = DRM_VATOM_VISA_OP_XCHG,
	VATOM_VISA_CMPXCHG = DRM_VATOM_VISA_OP_CMPXCHG,
	VATOM_VISA_AND = DRM_VATOM_VISA_OP_AND,
	VATOM_VISA_OR = DRM_VATOM_VISA_OP_OR,
	VATOM_VISA_XOR = DRM_VATOM_VISA_OP_XOR,
	VATOM_VISA_IMIN = DRM_VATOM_VISA_OP_IMIN,
	VATOM_VISA_IMAX = DRM_VATOM_VISA_OP_IMAX,
	VATOM_VISA_PREDEC = DRM_VATOM_VISA_OP_PREDEC,
	VATOM_VISA_FMAX = DRM_VATOM_VISA_OP_FMAX,
	VATOM_VISA_FMIN = DRM_VATOM_VISA_OP_FMIN,
	VATOM_VISA_FCMPWR = DRM_VATOM_VISA_OP_FCMPWR,
};

/*
 * Mask control (bits 7..4 of the Exec_size byte): M1..M8 select channel
 * offset 4 * (n - 1) into the execution mask; _NM ignores the mask.
 */
enum vatom_mask_ctrl {
	VATOM_M1 = 0, VATOM_M2, VATOM_M3, VATOM_M4,
	VATOM_M5, VATOM_M6, VATOM_M7, VATOM_M8,
	VATOM_NM = DRM_VATOM_VISA_EXEC_NM,
	VATOM_M1_NM = VATOM_NM | VATOM_M1, VATOM_M2_NM = VATOM_NM | VATOM_M2,
	VATOM_M3_NM = VATOM_NM | VATOM_M3, VATOM_M4_NM = VATOM_NM | VATOM_M4,
	VATOM_M5_NM = VATOM_NM | VATOM_M5, VATOM_M6_NM = VATOM_NM | VATOM_M6,
	VATOM_M7_NM = VATOM_NM | VATOM_M7, VATOM_M8_NM = VATOM_NM | VATOM_M8,
};

/**
 * struct vatom_visa_exec - execution controls of one vISA instruction
 * @size: Exec_size in lanes: 1, 2, 4, 8, 16 (32 for ADDC only)
 * @mask_ctrl: enum vatom_mask_ctrl
 * @emask: the 32-bit SIMD execution mask
 * @predicated: the instruction has a predicate, given by @pred
 * @pred: predicate lane mask (bit i enables lane i)
 *
 * Lane i runs when (@mask_ctrl has _NM or bit 4 * M + i of @emask is set)
 * and (not @predicated or bit i of @pred is set).
 */
struct vatom_visa_exec {
	unsigned int size;
	unsigned int mask_ctrl;
	uint32_t emask;
	bool predicated;
	uint32_t pred;
};

/* All lanes of an n-wide instruction, M1, no predicate. */
#define VATOM_VISA_EXEC(n) \
	((struct vatom_visa_exec){ .size = (n), .mask_ctrl = VATOM_M1, \
				   .emask = 0xffffffffu })

/* Flags of vatom_prep_dword_atomic*() and vatom_prep_typed_atomic(). */
#define VATOM_VISA_DST		(1u << 0)	/* return values (Dst is not V0) */
#define VATOM_VISA_16		(1u << 1)	/* the .16 form (Op bit 5) */
/*
 * Data type override, DRM_VATOM_VISA_TYPE_*. Without it the type follows
 * the ISA's notes: D for IMIN/IMAX, F for FMAX/FMIN/FCMPWR, UD otherwise
 * (Q, UQ for the 64-bit form).
 */
#define VATOM_VISA_TYPE(t)	((((unsigned int)(t)) + 1) << 8)

/*
 * The 16-bit types of the DWORD_ATOMIC op table, as flags: the .16 form
 * with the 32-bit type its Notes say the operands keep (since 0.3).
 */
#define VATOM_VISA_UW	(VATOM_VISA_16 | VATOM_VISA_TYPE(DRM_VATOM_VISA_TYPE_UD))
#define VATOM_VISA_W	(VATOM_VISA_16 | VATOM_VISA_TYPE(DRM_VATOM_VISA_TYPE_D))
#define VATOM_VISA_HF	(VATOM_VISA_16 | VATOM_VISA_TYPE(DRM_VATOM_VISA_TYPE_F))

/**
 * vatom_visa_exec_lanes() - execution controls for any lane count
 * @ex: out, the controls (no predicate)
 * @lanes: 1 .. 32 lanes that should run
 * @mask_ctrl: enum vatom_mask_ctrl (M1..M8, with or without _NM)
 *
 * The Exec_size is @lanes rounded up to a power of two; when that adds
 * lanes, the execution mask enables lanes 0 .. @lanes - 1 only (bits
 * 4 * M .. 4 * M + @lanes - 1), which is why a partial count cannot be
 * combined with _NM. A full count gives the all-ones mask of
 * VATOM_VISA_EXEC(). Whether the device accepts the mask window (4 * M +
 * size <= 32) is the kernel's decision.
 *
 * Return: 0; -EINVAL for a NULL @ex, 0 or more than 32 lanes, a mask
 * control above 15 or a partial lane count with _NM.
 */
VATOM_API int vatom_visa_exec_lanes(struct vatom_visa_exec *ex,
				    unsigned int lanes, unsigned int mask_ctrl);

/**
 * vatom_prep_dword_atomic() - append DWORD_ATOMIC (32-bit and .16 data)
 * @b: the batch
 * @ex: execution controls
 * @op: enum vatom_visa_op
 * @flags: VATOM_VISA_DST, VATOM_VISA_16, VATOM_VISA_TYPE()
 * @surface: binding slot (%VATOM_T0, %VATOM_T255 or any bound slot)
 * @offsets: Element_offset, in bytes, @ex->size entries
 * @src0: @ex->size entries, or NULL for V0 (.16: low 16 bits used)
 * @src1: @ex->size entries, or NULL for V0
 *
 * Text form: [(P)] DWORD_ATOMIC.<op>[.16] (<M>, <size>) <surface>
 * <offsets> <src0> <src1> <dst>. With VATOM_VISA_DST the packet returns
 * one 32-bit element per lane (the old value; PREDEC: the new one; 0 for
 * an out-of-bounds read): vatom_result_u32(b, res, lane).
 *
 * Return: the result handle (packet index, >= 0); -EINVAL for a lane
 * count that is not 1, 2, 4, 8 or 16, a mask control above 15, an op
 * above 31, a slot above 255, unknown flags or NULL @offsets; -E2BIG;
 * -ENOMEM.
 */
VATOM_API int vatom_prep_dword_atomic(struct vatom_batch *b,
				      const struct vatom_visa_exec *ex,
				      enum vatom_visa_op op, unsigned int flags,
				      unsigned int surface, const uint32_t *offsets,
				      const uint32_t *src0, const uint32_t *src1);

/**
 * vatom_prep_dword_atomic64() - append DWORD_ATOMIC on 64-bit data (UQ/Q)
 * @b: the batch
 * @ex: execution controls
 * @op: enum vatom_visa_op
 * @flags: VATOM_VISA_DST, VATOM_VISA_TYPE()
 * @surface: binding slot
 * @offsets: Element_offset, in bytes, @ex->size entries
 * @src0: @ex->size entries, or NULL for V0
 * @src1: @ex->size entries, or NULL for V0
 *
 * Results: one 64-bit element per lane, vatom_result_u64(b, res, lane).
 *
 * Return: as vatom_prep_dword_atomic() (VATOM_VISA_16 is -EINVAL).
 */
VATOM_API int vatom_prep_dword_atomic64(struct vatom_batch *b,
					const struct vatom_visa_exec *ex,
					enum vatom_visa_op op, unsigned int flags,
					unsigned int surface, const uint32_t *offsets,
					const uint64_t *src0, const uint64_t *src1);

/**
 * vatom_prep_typed_atomic() - append TYPED_ATOMIC
 * @b: the batch
 * @ex: execution controls
 * @op: enum vatom_visa_op
 * @flags: VATOM_VISA_DST, VATOM_VISA_16, VATOM_VISA_TYPE()
 * @surface: binding slot of a typed surface
 * @u: U (X) coordinates, @ex->size entries; required
 * @v: V (Y or array index), or NULL for V0
 * @r: R (Z or array index), or NULL for V0
 * @lod: LOD, or NULL for V0
 * @src0: @ex->size entries, or NULL for V0
 * @src1: @ex->size entries, or NULL for V0
 *
 * Results: one 32-bit element per lane, vatom_result_u32(b, res, lane).
 *
 * Return: as vatom_prep_dword_atomic() (NULL @u is -EINVAL).
 */
VATOM_API int vatom_prep_typed_atomic(struct vatom_batch *b,
				      const struct vatom_visa_exec *ex,
				      enum vatom_visa_op op, unsigned int flags,
				      unsigned int surface, const uint32_t *u,
				      const uint32_t *v, const uint32_t *r,
				      const uint32_t *lod, const uint32_t *src0,
				      const uint32_t *src1);

/* Flags of vatom_prep_addc(). */
#define VATOM_ADDC_SRC0_IMM	(1u << 0)	/* src0 points to one immediate */
#define VATOM_ADDC_SRC1_IMM	(1u << 1)	/* src1 points to one immediate */

/**
 * vatom_prep_addc() - append ADDC: dst = src0 + src1, carry = carry-out
 * @b: the batch
 * @ex: execution controls (size up to 32)
 * @flags: VATOM_ADDC_SRC0_IMM, VATOM_ADDC_SRC1_IMM
 * @src0: @ex->size UD values, or one with VATOM_ADDC_SRC0_IMM
 * @src1: @ex->size UD values, or one with VATOM_ADDC_SRC1_IMM
 *
 * Results: vatom_result_addc_dst(b, res, lane) and
 * vatom_result_addc_carry(b, res, lane).
 *
 * Return: the result handle; -EINVAL for a bad lane count or mask control,
 * unknown flags or a NULL source; -E2BIG; -ENOMEM.
 */
VATOM_API int vatom_prep_addc(struct vatom_batch *b,
			      const struct vatom_visa_exec *ex,
			      unsigned int flags, const uint32_t *src0,
			      const uint32_t *src1);

#if defined(__cplusplus)
}
#endif

#endif /* _VATOM_VISA_H_ */
