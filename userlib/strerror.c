// SPDX-License-Identifier: MIT
/*
 * libvatom: human-readable names for reasons, job errors, reset statuses,
 * operations, types and the NoC atomic variants (the names the ISA text
 * front end reads and writes).
 *
 * Copyright (C) 2026 The vatom developers
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

static const char *const reasons[] = {
	[DRM_VATOM_ERR_NONE] = "no error",
	[DRM_VATOM_ERR_PACKET_TYPE] = "unknown packet type",
	[DRM_VATOM_ERR_PACKET_SIZE] = "bad packet size",
	[DRM_VATOM_ERR_RESERVED] = "non-zero reserved field, padding or flag",
	[DRM_VATOM_ERR_OPCODE] = "unknown instruction opcode",
	[DRM_VATOM_ERR_OP] = "reserved operation encoding",
	[DRM_VATOM_ERR_EXEC_SIZE] = "reserved exec size, or mask offset + size > 32",
	[DRM_VATOM_ERR_TYPE] = "data type not allowed for the operation",
	[DRM_VATOM_ERR_OPERANDS] = "operand present that must be V0, or missing",
	[DRM_VATOM_ERR_SLOT] = "slot not bound",
	[DRM_VATOM_ERR_SURFACE_KIND] = "surface of the wrong kind",
	[DRM_VATOM_ERR_ALIGN] = "misaligned offset or address",
	[DRM_VATOM_ERR_BOUNDS] = "address out of bounds",
	[DRM_VATOM_ERR_RESULTS] = "result destination too small",
	[DRM_VATOM_ERR_QUALIFIER] = "space, sem, scope or vector not allowed",
	[DRM_VATOM_ERR_TARGET] = "NoC target or return is not a Tensix/Ethernet L1",
	[DRM_VATOM_ERR_UNSUPPORTED] = "valid encoding not implemented by this device",
	[DRM_VATOM_ERR_OPS_LIMIT] = "stream costs more element operations than a submission may",
	[DRM_VATOM_ERR_RESULTS_FAULT] = "executed, but the results could not be written back",
	[DRM_VATOM_ERR_DESCRIPTOR] = "malformed queue job descriptor",
};

VATOM_API const char *vatom_strreason(uint32_t reason)
{
	if (reason < ARRAY_SIZE(reasons) && reasons[reason])
		return reasons[reason];
	return "unknown reason";
}

/*
 * Job outcomes, as the UAPI's "job timeouts and resets" defines them;
 * strerror()'s texts are a network's or a disk's.
 */
VATOM_API const char *vatom_strerror(int err)
{
	/* unsigned: INT_MIN has no negation */
	unsigned int e = err < 0 ? 0u - (unsigned int)err : (unsigned int)err;

	switch (e) {
	case ETIMEDOUT:
		return "job timed out: stopped by the job timeout; the context is guilty until it acknowledges the reset";
	case EIO:
		return "context lost: a job of this device (its open file) timed out or faulted; acknowledge with vatom_device_reset_status(..., VATOM_RESET_ACK)";
	case ECANCELED:
		return "job cancelled: it did not run, or not to its end (its context was reset or closed, its queue destroyed, or its submitter killed)";
	case ETIME:
		return "wait timed out: the deadline passed before the job completed (the job goes on)";
	}
	return strerror((int)e);
}

static const char *const reset_statuses[] = {
	[DRM_VATOM_RESET_NONE] = "none",
	[DRM_VATOM_RESET_GUILTY] = "guilty",
	[DRM_VATOM_RESET_INNOCENT] = "innocent",
};

VATOM_API const char *vatom_reset_status_name(unsigned int status)
{
	return status < ARRAY_SIZE(reset_statuses) ? reset_statuses[status] : NULL;
}

static const char *const visa_ops[] = {
	[DRM_VATOM_VISA_OP_ADD] = "ADD",
	[DRM_VATOM_VISA_OP_SUB] = "SUB",
	[DRM_VATOM_VISA_OP_INC] = "INC",
	[DRM_VATOM_VISA_OP_DEC] = "DEC",
	[DRM_VATOM_VISA_OP_MIN] = "MIN",
	[DRM_VATOM_VISA_OP_MAX] = "MAX",
	[DRM_VATOM_VISA_OP_XCHG] = "XCHG",
	[DRM_VATOM_VISA_OP_CMPXCHG] = "CMPXCHG",
	[DRM_VATOM_VISA_OP_AND] = "AND",
	[DRM_VATOM_VISA_OP_OR] = "OR",
	[DRM_VATOM_VISA_OP_XOR] = "XOR",
	[DRM_VATOM_VISA_OP_IMIN] = "IMIN",
	[DRM_VATOM_VISA_OP_IMAX] = "IMAX",
	[DRM_VATOM_VISA_OP_PREDEC] = "PREDEC",
	[DRM_VATOM_VISA_OP_FMAX] = "FMAX",
	[DRM_VATOM_VISA_OP_FMIN] = "FMIN",
	[DRM_VATOM_VISA_OP_FCMPWR] = "FCMPWR",
};

VATOM_API const char *vatom_visa_op_name(unsigned int op)
{
	if (op < ARRAY_SIZE(visa_ops))
		return visa_ops[op];
	return NULL;
}

static const char *const visa_type_names[2][5] = {
	{ "UD", "D", "F", "UQ", "Q" },
	{ "UW", "W", "HF", NULL, NULL },	/* the .16 forms */
};

VATOM_API const char *vatom_visa_type_name(unsigned int type, bool is16)
{
	if (type < ARRAY_SIZE(visa_type_names[0]))
		return visa_type_names[is16][type];
	return NULL;
}

static const char *const ptx_ops[] = {
	[DRM_VATOM_PTX_OP_AND] = "and", [DRM_VATOM_PTX_OP_OR] = "or",
	[DRM_VATOM_PTX_OP_XOR] = "xor", [DRM_VATOM_PTX_OP_CAS] = "cas",
	[DRM_VATOM_PTX_OP_EXCH] = "exch", [DRM_VATOM_PTX_OP_ADD] = "add",
	[DRM_VATOM_PTX_OP_INC] = "inc", [DRM_VATOM_PTX_OP_DEC] = "dec",
	[DRM_VATOM_PTX_OP_MIN] = "min", [DRM_VATOM_PTX_OP_MAX] = "max",
};

VATOM_API const char *vatom_ptx_op_name(unsigned int op)
{
	return op < ARRAY_SIZE(ptx_ops) ? ptx_ops[op] : NULL;
}

static const char *const ptx_types[] = {
	[DRM_VATOM_PTX_TYPE_B16] = "b16", [DRM_VATOM_PTX_TYPE_B32] = "b32",
	[DRM_VATOM_PTX_TYPE_B64] = "b64", [DRM_VATOM_PTX_TYPE_B128] = "b128",
	[DRM_VATOM_PTX_TYPE_U32] = "u32", [DRM_VATOM_PTX_TYPE_U64] = "u64",
	[DRM_VATOM_PTX_TYPE_S32] = "s32", [DRM_VATOM_PTX_TYPE_S64] = "s64",
	[DRM_VATOM_PTX_TYPE_F16] = "f16", [DRM_VATOM_PTX_TYPE_BF16] = "bf16",
	[DRM_VATOM_PTX_TYPE_F16X2] = "f16x2",
	[DRM_VATOM_PTX_TYPE_BF16X2] = "bf16x2",
	[DRM_VATOM_PTX_TYPE_F32] = "f32", [DRM_VATOM_PTX_TYPE_F64] = "f64",
};

VATOM_API const char *vatom_ptx_type_name(unsigned int type)
{
	return type < ARRAY_SIZE(ptx_types) ? ptx_types[type] : NULL;
}

static const char *const ptx_spaces[] = {
	"", "global", "shared::cta", "shared::cluster",
};
static const char *const ptx_sems[] = {
	"", "acquire", "release", "acq_rel",
};
static const char *const ptx_scopes[] = {
	"", "cta", "cluster", "sys",
};

VATOM_API const char *vatom_ptx_qualifier_name(unsigned int kind,
					       unsigned int value)
{
	const char *const *tab;

	switch (kind) {
	case VATOM_PTX_SPACE:
		tab = ptx_spaces;
		break;
	case VATOM_PTX_SEM:
		tab = ptx_sems;
		break;
	case VATOM_PTX_SCOPE:
		tab = ptx_scopes;
		break;
	default:
		return NULL;
	}
	return value < 4 ? tab[value] : NULL;
}

static const char *const noc_variants[VATOM_NOC_VARIANTS] = {
	[VATOM_NOC_VAR_INCREMENT] = "incr", [VATOM_NOC_VAR_CAS] = "cas",
	[VATOM_NOC_VAR_SWAP_MASK] = "swap", [VATOM_NOC_VAR_SWAP_INDEX6] = "swap6",
	[VATOM_NOC_VAR_SWAP_INDEX7] = "swap7", [VATOM_NOC_VAR_SWAP_INDEX10] = "swap10",
	[VATOM_NOC_VAR_ACC] = "acc",
	[VATOM_NOC_VAR_AMOADD] = "amoadd", [VATOM_NOC_VAR_AMOXOR] = "amoxor",
	[VATOM_NOC_VAR_AMOOR] = "amoor", [VATOM_NOC_VAR_AMOAND] = "amoand",
	[VATOM_NOC_VAR_AMOMIN] = "amomin", [VATOM_NOC_VAR_AMOMAX] = "amomax",
	[VATOM_NOC_VAR_AMOMINU] = "amominu", [VATOM_NOC_VAR_AMOMAXU] = "amomaxu",
};

VATOM_API const char *vatom_noc_variant_name(unsigned int variant)
{
	return variant < VATOM_NOC_VARIANTS ? noc_variants[variant] : NULL;
}

VATOM_API int vatom_noc_variant(uint32_t at_len_be)
{
	switch ((at_len_be & DRM_VATOM_NOC_AT_OPCODE_MASK) >>
		DRM_VATOM_NOC_AT_OPCODE_SHIFT) {
	case DRM_VATOM_NOC_AT_INCR:
		return VATOM_NOC_VAR_INCREMENT;
	case DRM_VATOM_NOC_AT_SWAP_MASK:
		return VATOM_NOC_VAR_SWAP_MASK;
	case DRM_VATOM_NOC_AT_CAS:
		return VATOM_NOC_VAR_CAS;
	case DRM_VATOM_NOC_AT_SWAP_IDX6:
		return VATOM_NOC_VAR_SWAP_INDEX6;
	case DRM_VATOM_NOC_AT_SWAP_IDX7:
		return VATOM_NOC_VAR_SWAP_INDEX7;
	case DRM_VATOM_NOC_AT_ACC:
		return VATOM_NOC_VAR_ACC;
	case DRM_VATOM_NOC_AT_RISCV:
		if (at_len_be & DRM_VATOM_NOC_AT_ZAAMO)
			return VATOM_NOC_VAR_AMOADD +
			       (int)((at_len_be & DRM_VATOM_NOC_AT_ZAAMO_OP_MASK) >>
				     DRM_VATOM_NOC_AT_ZAAMO_OP_SHIFT);
		return VATOM_NOC_VAR_SWAP_INDEX10;
	}
	return -EINVAL;
}
