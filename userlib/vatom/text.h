/* SPDX-License-Identifier: MIT */
/*
 * libvatom: ISA text (since 0.3).
 * One area of the library's interface: programs include <vatom.h>,
 * which includes them all; this header also compiles alone.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_TEXT_H_
#define _VATOM_TEXT_H_

#include <vatom/common.h>

#if defined(__cplusplus)
extern "C" {
#endif

/*
 * An assembler turns one line of ISA text into one packet with the prep
 * helpers above, and vatom_disasm() turns a packet back into text that
 * assembles to the same bytes. The syntax of each family (docs/vatom-run.md
 * has all of it):
 *
 *   [(<P>)] DWORD_ATOMIC.ADD (M1, 16) T255 offs src V0 old [type=UD] [emask=..]
 *   [(<P>)] TYPED_ATOMIC.<op>[.16] (<n>) <surf> <u> <v> <r> <lod> <s0> <s1> <dst>
 *   [(<P>)] ADDC (<n>) <dst> <carry> <src0> <src1>
 *   [@p] atom.global.v8.f16.max.noftz {d0, ...}, [sym+0x10], {1.0, ...};
 *   noc.incr T3 (0,0) -> (1,0)+0x100 data=5 ret=(0,0)+0x200 txn=3
 *   noc T3 (0,0) NOC_TARG_ADDR_LO=0x100 ... NOC_AT_LEN_BE=0x107c NOC_AT_DATA=5
 *
 * Operand values come from literals ({0, 4, 8}, 1.5, 0f3f800000) or from
 * symbols the caller defines: values (operand vectors, predicates),
 * addresses (a slot and an offset: vISA surfaces, PTX [a]) and tile grids
 * (a slot and a register profile).
 */

struct vatom_asm;

/* Elements a value symbol holds at most. */
#define VATOM_ASM_MAX_VALUES	32

/**
 * vatom_asm_create() - create an assembler (an empty symbol table)
 * @flags: must be 0
 * @ap: out, the assembler
 *
 * Return: 0; -EINVAL; -ENOMEM.
 */
VATOM_API int vatom_asm_create(unsigned int flags, struct vatom_asm **ap);

/**
 * vatom_asm_destroy() - free an assembler
 * @a: the assembler, or NULL
 */
VATOM_API void vatom_asm_destroy(struct vatom_asm *a);

/**
 * vatom_asm_define_values() - define (or redefine) a value symbol
 * @a: the assembler
 * @name: a PTX identifier, [A-Za-z][A-Za-z0-9_$]* or [_$%][A-Za-z0-9_$]+
 *	('-' may join words), e.g. "offs", "%r0", "P1"
 * @values: the elements (one per lane, vector element, or one scalar)
 * @count: 1 .. %VATOM_ASM_MAX_VALUES
 *
 * Used for vISA operand vectors and predicates, PTX operands, predicates
 * (@p: non-zero is true) and cache policies.
 *
 * Return: 0; -EINVAL for a bad name or count; -ENOMEM.
 */
VATOM_API int vatom_asm_define_values(struct vatom_asm *a, const char *name,
				      const uint64_t *values, unsigned int count);

/**
 * vatom_asm_define_address() - define an address symbol: a slot and offset
 * @a: the assembler
 * @name: the symbol
 * @slot: binding slot of the surface
 * @offset: byte offset in it (0 for a vISA surface name)
 *
 * A vISA Surface operand or a PTX [name+off] address.
 *
 * Return: 0; -EINVAL; -ENOMEM.
 */
VATOM_API int vatom_asm_define_address(struct vatom_asm *a, const char *name,
				       unsigned int slot, uint64_t offset);

/**
 * vatom_asm_define_grid() - define a tile grid symbol for NoC lines
 * @a: the assembler
 * @name: the symbol
 * @slot: binding slot of the grid
 * @profile: DRM_VATOM_NOC_PROFILE_* (the register layout of its requests)
 *
 * Return: 0; -EINVAL; -ENOMEM.
 */
VATOM_API int vatom_asm_define_grid(struct vatom_asm *a, const char *name,
				    unsigned int slot, unsigned int profile);

/**
 * vatom_asm_set_noc_profile() - the profile of grids named T<slot>
 * @a: the assembler
 * @profile: DRM_VATOM_NOC_PROFILE_* (Blackhole by default)
 *
 * Return: 0; -EINVAL.
 */
VATOM_API int vatom_asm_set_noc_profile(struct vatom_asm *a,
					unsigned int profile);

/**
 * vatom_asm_line() - assemble one line into one packet of @b
 * @a: the assembler
 * @b: the batch receiving the packet
 * @line: one instruction (vISA, PTX or NoC, told apart by its first word),
 *	optionally followed by a // or # comment
 *
 * On failure the batch is unchanged and vatom_asm_error() says where and
 * why; vatom_asm_result_name() names the line's results (vISA Dst, ADDC
 * Dst then Carry, PTX d or each element of {d0, d1, ...}).
 *
 * Return: the packet's index (its result handle); -ENODATA for a line
 * that makes no packet (blank, a comment, a PTX atom whose @p guard is
 * false); -EINVAL for a syntax error; -E2BIG or -ENOMEM from the batch.
 */
VATOM_API int vatom_asm_line(struct vatom_asm *a, struct vatom_batch *b,
			     const char *line);

/**
 * vatom_asm_error() - why the last vatom_asm_line() failed
 * @a: the assembler
 * @col: out (optional), the 1-based column the message is about
 *
 * Return: the message ("expected ',' or '}', found 'x'"), or NULL when
 * the last line was accepted.
 */
VATOM_API const char *vatom_asm_error(const struct vatom_asm *a,
				      unsigned int *col);

/**
 * vatom_asm_result_name() - the @i-th result name of the last line
 * @a: the assembler
 * @i: from 0
 *
 * Return: the name, or NULL past the last one (or for Dst V0).
 */
VATOM_API const char *vatom_asm_result_name(const struct vatom_asm *a,
					    unsigned int i);

/**
 * vatom_disasm() - the text of one encoded packet
 * @pkt: the packet (e.g. from vatom_batch_packet())
 * @size: its bytes
 * @buf: destination, or NULL to measure
 * @len: room at @buf
 *
 * The syntax vatom_asm_line() reads, every value written out in hex, so
 * that assembling the text gives the same bytes (given the same symbols
 * for nothing: the text uses none). Malformed packets are described in a
 * comment.
 *
 * Return: the length of the whole text, as snprintf() counts it.
 */
VATOM_API int vatom_disasm(const void *pkt, size_t size, char *buf, size_t len);

#if defined(__cplusplus)
}
#endif

#endif /* _VATOM_TEXT_H_ */
