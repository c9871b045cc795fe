// SPDX-License-Identifier: MIT
/*
 * libvatom: human-readable names for reasons and operations.
 *
 * Copyright (C) 2026 The vatom developers
 */
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
};

VATOM_API const char *vatom_strreason(uint32_t reason)
{
	if (reason < ARRAY_SIZE(reasons) && reasons[reason])
		return reasons[reason];
	return "unknown reason";
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
