/* SPDX-License-Identifier: MIT */
/*
 * libvatom: Strings.
 * One area of the library's interface: programs include <vatom.h>,
 * which includes them all; this header also compiles alone.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_STRINGS_H_
#define _VATOM_STRINGS_H_

#include <vatom/common.h>

#if defined(__cplusplus)
extern "C" {
#endif

/**
 * vatom_strreason() - describe a DRM_VATOM_ERR_* reason
 * @reason: the reason
 *
 * Return: a static string ("unknown reason" for values this library does
 * not know).
 */
VATOM_API const char *vatom_strreason(uint32_t reason);

/**
 * vatom_strerror() - describe a negative errno a libvatom call returned
 * @err: the error (a positive errno is read as its negation)
 *
 * The outcomes of jobs have meanings of their own that strerror()'s
 * generic texts miss ("Connection timed out", "Input/output error"):
 * -ETIMEDOUT (the job timeout stopped the job), -EIO (the device's
 * context was reset: see vatom_device_reset_status()), -ECANCELED (the
 * job did not run to its end) and -ETIME (a wait's deadline passed; the
 * job goes on) are described as libvatom means them; any other error as
 * strerror() describes it.
 *
 * Return: a static string for the four; strerror()'s for the others.
 */
VATOM_API const char *vatom_strerror(int err);

/**
 * vatom_reset_status_name() - the name of a reset status ("guilty")
 * @status: enum vatom_reset (struct vatom_reset_status.status)
 *
 * Return: "none", "guilty" or "innocent"; NULL for an unknown @status.
 */
VATOM_API const char *vatom_reset_status_name(unsigned int status);

/**
 * vatom_visa_op_name() - the vISA text name of an Op ("ADD", "CMPXCHG")
 * @op: enum vatom_visa_op
 *
 * Return: a static string, or NULL for a reserved encoding.
 */
VATOM_API const char *vatom_visa_op_name(unsigned int op);

/**
 * vatom_visa_type_name() - the vISA name of a data type ("UD", "HF")
 * @type: DRM_VATOM_VISA_TYPE_*
 * @is16: the .16 form: the 16-bit name (UW, W, HF) of the same type
 *
 * Return: a static string, or NULL (no such type, or no 16-bit form).
 */
VATOM_API const char *vatom_visa_type_name(unsigned int type, bool is16);

/**
 * vatom_ptx_op_name() - the PTX name of an atom operation ("cas")
 * @op: DRM_VATOM_PTX_OP_*
 *
 * Return: a static string, or NULL for an unknown @op.
 */
VATOM_API const char *vatom_ptx_op_name(unsigned int op);

/**
 * vatom_ptx_type_name() - the PTX name of an atom type ("f16x2")
 * @type: DRM_VATOM_PTX_TYPE_*
 *
 * Return: a static string, or NULL for an unknown @type.
 */
VATOM_API const char *vatom_ptx_type_name(unsigned int type);

/* Qualifier kinds of vatom_ptx_qualifier_name(). */
enum vatom_ptx_qualifier {
	VATOM_PTX_SPACE,	/* DRM_VATOM_PTX_SPACE_* */
	VATOM_PTX_SEM,		/* DRM_VATOM_PTX_SEM_* */
	VATOM_PTX_SCOPE,	/* DRM_VATOM_PTX_SCOPE_* */
};

/**
 * vatom_ptx_qualifier_name() - the PTX name of a space, sem or scope
 * @kind: enum vatom_ptx_qualifier
 * @value: the DRM_VATOM_PTX_SPACE_*, _SEM_* or _SCOPE_* value
 *
 * The defaults (generic space, .relaxed, .gpu) are "": PTX writes nothing.
 *
 * Return: a static string without the dot ("shared::cluster"), or NULL.
 */
VATOM_API const char *vatom_ptx_qualifier_name(unsigned int kind,
					       unsigned int value);

/* The documented NoC atomic variants (vatom_noc_variant()). */
enum vatom_noc_variant {
	VATOM_NOC_VAR_INCREMENT,
	VATOM_NOC_VAR_CAS,
	VATOM_NOC_VAR_SWAP_MASK,
	VATOM_NOC_VAR_SWAP_INDEX6,
	VATOM_NOC_VAR_SWAP_INDEX7,
	VATOM_NOC_VAR_SWAP_INDEX10,
	VATOM_NOC_VAR_ACC,
	VATOM_NOC_VAR_AMOADD,	/* the Zaamo ops, in their Op order */
	VATOM_NOC_VAR_AMOXOR,
	VATOM_NOC_VAR_AMOOR,
	VATOM_NOC_VAR_AMOAND,
	VATOM_NOC_VAR_AMOMIN,
	VATOM_NOC_VAR_AMOMAX,
	VATOM_NOC_VAR_AMOMINU,
	VATOM_NOC_VAR_AMOMAXU,
	VATOM_NOC_VARIANTS
};

/**
 * vatom_noc_variant() - which documented variant a NOC_AT_LEN_BE encodes
 * @at_len_be: the register value
 *
 * Return: enum vatom_noc_variant; -EINVAL for a reserved opcode.
 */
VATOM_API int vatom_noc_variant(uint32_t at_len_be);

/**
 * vatom_noc_variant_name() - the text name of a NoC variant ("incr", "amoadd")
 * @variant: enum vatom_noc_variant
 *
 * These are the names of the symbolic NoC syntax (noc.<name>).
 *
 * Return: a static string, or NULL.
 */
VATOM_API const char *vatom_noc_variant_name(unsigned int variant);

#if defined(__cplusplus)
}
#endif

#endif /* _VATOM_STRINGS_H_ */
