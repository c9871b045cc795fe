/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * vatom: a virtual atomic accelerator.
 *
 * Copyright (C) 2026 The vatom developers
 */
#ifndef _VATOM_DRM_H_
#define _VATOM_DRM_H_

#include "drm.h"

#if defined(__cplusplus)
extern "C" {
#endif

/**
 * DOC: vatom UAPI
 *
 * vatom is a DRM render-node driver that executes the atomic memory
 * operations of three accelerator ISAs bit-exactly: Intel vISA
 * (DWORD_ATOMIC, TYPED_ATOMIC, ADDC), NVIDIA PTX ``atom`` and Tenstorrent
 * NoC atomic requests. Memory is held in *surfaces* (GEM objects). Work is
 * submitted as a *command stream* of packets that carry the ISA's own
 * encodings, together with a *binding table* that maps the slot numbers used
 * by packets to surface handles.
 *
 * Extension rules: every structure is 64-bit aligned with explicit padding;
 * padding, reserved fields and unknown flag bits must be zero and are
 * rejected with -EINVAL otherwise; new fields are only ever appended and
 * zero keeps the old behaviour; features are discovered with
 * %DRM_IOCTL_VATOM_GET_PARAM, never by trial.
 *
 * Modifications to all structs in this header are subject to
 * backwards-compatibility constraints.
 */

#define DRM_VATOM_GET_PARAM		0x00
#define DRM_VATOM_SURFACE_CREATE	0x01
#define DRM_VATOM_SURFACE_MMAP_OFFSET	0x02
#define DRM_VATOM_SURFACE_INFO		0x03
#define DRM_VATOM_SUBMIT		0x04
#define DRM_VATOM_NOC_COUNTERS		0x05
#define DRM_VATOM_QUEUE_CREATE		0x06
#define DRM_VATOM_QUEUE_DESTROY		0x07
#define DRM_VATOM_QUEUE_KICK		0x08
#define DRM_VATOM_RESET_STATUS		0x09

#define DRM_IOCTL_VATOM_GET_PARAM \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VATOM_GET_PARAM, struct drm_vatom_get_param)
#define DRM_IOCTL_VATOM_SURFACE_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VATOM_SURFACE_CREATE, struct drm_vatom_surface_create)
#define DRM_IOCTL_VATOM_SURFACE_MMAP_OFFSET \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VATOM_SURFACE_MMAP_OFFSET, \
		 struct drm_vatom_surface_mmap_offset)
#define DRM_IOCTL_VATOM_SURFACE_INFO \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VATOM_SURFACE_INFO, struct drm_vatom_surface_info)
#define DRM_IOCTL_VATOM_SUBMIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VATOM_SUBMIT, struct drm_vatom_submit)
#define DRM_IOCTL_VATOM_NOC_COUNTERS \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VATOM_NOC_COUNTERS, \
		 struct drm_vatom_noc_counters)
#define DRM_IOCTL_VATOM_QUEUE_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VATOM_QUEUE_CREATE, \
		 struct drm_vatom_queue_create)
#define DRM_IOCTL_VATOM_QUEUE_DESTROY \
	DRM_IOW(DRM_COMMAND_BASE + DRM_VATOM_QUEUE_DESTROY, \
		struct drm_vatom_queue_destroy)
#define DRM_IOCTL_VATOM_QUEUE_KICK \
	DRM_IOW(DRM_COMMAND_BASE + DRM_VATOM_QUEUE_KICK, struct drm_vatom_queue_kick)
#define DRM_IOCTL_VATOM_RESET_STATUS \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VATOM_RESET_STATUS, \
		 struct drm_vatom_reset_status)

/** DRM_VATOM_UAPI_VERSION: bumped with every addition to this header. */
#define DRM_VATOM_UAPI_VERSION		10

/* ------------------------------------------------------------------------ */
/* GET_PARAM                                                                 */
/* ------------------------------------------------------------------------ */

/* Parameters; new ones are appended, none is ever removed. */
#define DRM_VATOM_PARAM_UAPI_VERSION		0	/* DRM_VATOM_UAPI_VERSION */
#define DRM_VATOM_PARAM_CAPS			1	/* DRM_VATOM_CAP_* bitmask */
#define DRM_VATOM_PARAM_MAX_SURFACE_SIZE	2	/* bytes */
#define DRM_VATOM_PARAM_MAX_STREAM_SIZE		3	/* bytes */
#define DRM_VATOM_PARAM_MAX_SLOTS		4	/* slots 0 .. n-1 */
#define DRM_VATOM_PARAM_MAX_RESULTS_SIZE	5	/* bytes */
#define DRM_VATOM_PARAM_VISA_OPS		6	/* index: DRM_VATOM_VISA_FORM_* */
#define DRM_VATOM_PARAM_PTX_OPS			7	/* index: DRM_VATOM_PTX_TYPE_* */
#define DRM_VATOM_PARAM_NOC_OPCODES		8	/* index: DRM_VATOM_NOC_PROFILE_* */
#define DRM_VATOM_PARAM_MAX_JOBS		9	/* jobs a file may have in flight */
#define DRM_VATOM_PARAM_FILE_MEM_CAP		10	/* bytes a file may have charged */
#define DRM_VATOM_PARAM_MAX_SYNCS		11	/* in_sync_count, out_sync_count */
/* element operations one submission may cost (struct drm_vatom_submit) */
#define DRM_VATOM_PARAM_MAX_SUBMIT_OPS		12
/* bytes charged to this file now, against DRM_VATOM_PARAM_FILE_MEM_CAP */
#define DRM_VATOM_PARAM_FILE_MEM_CHARGED	13
/* largest struct drm_vatom_queue_create.entries (a power of two) */
#define DRM_VATOM_PARAM_MAX_QUEUE_ENTRIES	14
/* queues a file may have at once */
#define DRM_VATOM_PARAM_MAX_QUEUES		15
/* polling queues (DRM_VATOM_QUEUE_CREATE_POLL) the device has at once */
#define DRM_VATOM_PARAM_MAX_POLL_QUEUES		16
/* largest struct drm_vatom_queue_create.poll_idle_us */
#define DRM_VATOM_PARAM_MAX_POLL_IDLE_US	17
/* ms a job may execute before it is stopped with -ETIMEDOUT (see resets) */
#define DRM_VATOM_PARAM_JOB_TIMEOUT_MS		18
/*
 * files of the device that may have asynchronous jobs at once: each has a
 * GPU scheduler (a kernel thread on kernels before 6.8); a file's first
 * asynchronous SUBMIT past it fails with -EBUSY (UAPI version 10)
 */
#define DRM_VATOM_PARAM_MAX_SCHEDULERS		19

/* Capability bits reported by DRM_VATOM_PARAM_CAPS. */
#define DRM_VATOM_CAP_VISA_DWORD_ATOMIC	(1ull << 0)
#define DRM_VATOM_CAP_VISA_TYPED_ATOMIC	(1ull << 1)
#define DRM_VATOM_CAP_VISA_ADDC		(1ull << 2)
#define DRM_VATOM_CAP_PTX_ATOM		(1ull << 3)
#define DRM_VATOM_CAP_NOC_ATOMIC	(1ull << 4)
#define DRM_VATOM_CAP_SUBMIT_ASYNC	(1ull << 5)
#define DRM_VATOM_CAP_RESULT_SURFACE	(1ull << 6)
#define DRM_VATOM_CAP_SYNCOBJ		(1ull << 7)
#define DRM_VATOM_CAP_NOC_COUNTERS	(1ull << 8) /* DRM_IOCTL_VATOM_NOC_COUNTERS */
#define DRM_VATOM_CAP_VALIDATE_ONLY	(1ull << 9) /* DRM_VATOM_SUBMIT_VALIDATE_ONLY */
#define DRM_VATOM_CAP_QUEUE		(1ull << 10) /* DRM_IOCTL_VATOM_QUEUE_* */
#define DRM_VATOM_CAP_QUEUE_POLL	(1ull << 11) /* DRM_VATOM_QUEUE_CREATE_POLL */
/* drm_vatom_queue_create.syncobj and DRM_VATOM_QUEUE_CREATE_EVENTFD */
#define DRM_VATOM_CAP_QUEUE_SIGNAL	(1ull << 12)
/* job timeouts stop jobs; DRM_IOCTL_VATOM_RESET_STATUS */
#define DRM_VATOM_CAP_RESET_STATUS	(1ull << 13)
/* DRM_VATOM_QUEUE_CREATE_POLL_CPU and drm_vatom_queue_create.poll_cpu */
#define DRM_VATOM_CAP_QUEUE_POLL_CPU	(1ull << 14)

/*
 * Indices of DRM_VATOM_PARAM_VISA_OPS: the value is a bitmask with bit n set
 * when Op n (DRM_VATOM_VISA_OP_*) is implemented for that form.
 */
#define DRM_VATOM_VISA_FORM_DWORD32	0	/* DWORD_ATOMIC, UD/D/F data */
#define DRM_VATOM_VISA_FORM_DWORD16	1	/* DWORD_ATOMIC.16 */
#define DRM_VATOM_VISA_FORM_DWORD64	2	/* DWORD_ATOMIC, UQ/Q data */
#define DRM_VATOM_VISA_FORM_TYPED32	3	/* TYPED_ATOMIC */
#define DRM_VATOM_VISA_FORM_TYPED16	4	/* TYPED_ATOMIC.16 */

/**
 * struct drm_vatom_get_param - query a device parameter or capability
 *
 * Unknown @param values and a non-zero @index for a parameter that takes
 * none are rejected with -EINVAL.
 */
struct drm_vatom_get_param {
	/** @param: In. A DRM_VATOM_PARAM_* value. */
	__u32 param;
	/** @index: In. Sub-index for indexed parameters, else 0. */
	__u32 index;
	/** @value: Out. The parameter's value. */
	__u64 value;
};

/* ------------------------------------------------------------------------ */
/* Surfaces                                                                  */
/* ------------------------------------------------------------------------ */

#define DRM_VATOM_SURFACE_BUFFER	0	/* linear bytes */
#define DRM_VATOM_SURFACE_TYPED		1	/* texels for TYPED_ATOMIC */
#define DRM_VATOM_SURFACE_TILE_GRID	2	/* NoC tiles, each with an L1 */

/* Dimensionality of a typed surface (TYPED_ATOMIC's surface types). */
#define DRM_VATOM_TYPED_1D		0
#define DRM_VATOM_TYPED_1D_ARRAY	1
#define DRM_VATOM_TYPED_2D		2
#define DRM_VATOM_TYPED_2D_ARRAY	3
#define DRM_VATOM_TYPED_3D		4

/* Texel formats of a typed surface. */
#define DRM_VATOM_FORMAT_R32		0	/* one 32-bit word per texel */

/**
 * struct drm_vatom_typed_desc - shape of a %DRM_VATOM_SURFACE_TYPED surface
 */
struct drm_vatom_typed_desc {
	/** @dim: In. DRM_VATOM_TYPED_*. */
	__u32 dim;
	/** @format: In. DRM_VATOM_FORMAT_*. */
	__u32 format;
	/** @width: In. Texels in X at level 0, >= 1. */
	__u32 width;
	/** @height: In. Texels in Y at level 0; 1 for 1D forms. */
	__u32 height;
	/** @depth: In. Texels in Z at level 0; 1 unless 3D. */
	__u32 depth;
	/** @array_size: In. Array slices; 1 unless an array form. */
	__u32 array_size;
	/** @levels: In. Mip levels, >= 1. */
	__u32 levels;
	/** @flags: In. Must be zero. */
	__u32 flags;
};

/* NoC register profiles. */
#define DRM_VATOM_NOC_PROFILE_WORMHOLE	0
#define DRM_VATOM_NOC_PROFILE_BLACKHOLE	1

/* NoC tile types. */
#define DRM_VATOM_TILE_TENSIX		0
#define DRM_VATOM_TILE_ETHERNET		1
#define DRM_VATOM_TILE_DRAM		2
#define DRM_VATOM_TILE_PCIE		3
#define DRM_VATOM_TILE_TYPES		4

/**
 * struct drm_vatom_tile_grid_desc - shape of a %DRM_VATOM_SURFACE_TILE_GRID
 */
struct drm_vatom_tile_grid_desc {
	/** @profile: In. DRM_VATOM_NOC_PROFILE_*. */
	__u32 profile;
	/** @flags: In. Must be zero. */
	__u32 flags;
	/** @width: In. Tiles in X. */
	__u32 width;
	/** @height: In. Tiles in Y. */
	__u32 height;
	/**
	 * @l1_size: In. L1 bytes of each tile type, indexed by
	 * DRM_VATOM_TILE_*; 0 selects the profile's size. DRAM and PCIe tiles
	 * have no L1 and must be 0.
	 */
	__u32 l1_size[DRM_VATOM_TILE_TYPES];
	/** @tile_types: In. Pointer to __u8[width * height], row-major. */
	__u64 tile_types;
};

/**
 * struct drm_vatom_surface_create - create a surface
 *
 * Returns -EINVAL for an unknown @kind, non-zero @flags or a malformed
 * descriptor, -E2BIG when the surface exceeds
 * %DRM_VATOM_PARAM_MAX_SURFACE_SIZE or @desc_size exceeds 4096,
 * -EOPNOTSUPP for a kind this device does
 * not implement, -ENOSPC when the file's memory cap
 * (%DRM_VATOM_PARAM_FILE_MEM_CAP, see struct drm_vatom_submit) would be
 * exceeded and -ENOMEM when memory runs out.
 */
struct drm_vatom_surface_create {
	/** @kind: In. DRM_VATOM_SURFACE_*. */
	__u32 kind;
	/** @flags: In. Must be zero. */
	__u32 flags;
	/**
	 * @size: In: bytes of a %DRM_VATOM_SURFACE_BUFFER (>= 1); must be 0
	 * for other kinds. Out: the surface's size in bytes. The mapping is
	 * rounded up to whole pages; accesses past @size are out of bounds.
	 */
	__u64 size;
	/**
	 * @desc: In. Pointer to the kind's descriptor (struct
	 * drm_vatom_typed_desc, struct drm_vatom_tile_grid_desc); 0 for a
	 * buffer.
	 */
	__u64 desc;
	/**
	 * @desc_size: In. sizeof(*desc), at most 4096; bytes past what the
	 * kernel knows must be zero.
	 */
	__u32 desc_size;
	/** @handle: Out. GEM handle of the new surface. */
	__u32 handle;
};

/**
 * struct drm_vatom_surface_mmap_offset - get the fake offset to mmap a surface
 *
 * This does not map anything: pass @offset to mmap() on the DRM fd.
 * Returns -ENOENT for an unknown handle.
 */
struct drm_vatom_surface_mmap_offset {
	/** @handle: In. GEM handle. */
	__u32 handle;
	/** @flags: In. Must be zero. */
	__u32 flags;
	/** @offset: Out. Offset for mmap(). */
	__u64 offset;
};

/**
 * struct drm_vatom_surface_info - describe a surface
 *
 * Works on imported dma-bufs too (they are reported as buffers).
 * Returns -ENOENT for an unknown handle.
 */
struct drm_vatom_surface_info {
	/** @handle: In. GEM handle. */
	__u32 handle;
	/** @flags: In. Must be zero. */
	__u32 flags;
	/** @kind: Out. DRM_VATOM_SURFACE_*. */
	__u32 kind;
	/** @pad: In. Must be zero. */
	__u32 pad;
	/** @size: Out. Addressable bytes of the surface. */
	__u64 size;
	/** @mmap_size: Out. Bytes of the mapping (page-rounded). */
	__u64 mmap_size;
};

/* ------------------------------------------------------------------------ */
/* Command stream                                                            */
/* ------------------------------------------------------------------------ */

/**
 * DOC: command stream
 *
 * A command stream is a sequence of packets, each starting with a struct
 * drm_vatom_packet header whose @size covers the whole packet and is a
 * multiple of 8. Packets execute in stream order; within a packet, lanes
 * execute in ascending order. The kernel copies the stream once and
 * validates all of it before any packet executes: a rejected submission
 * changes no memory and reports the index of the first bad packet and a
 * DRM_VATOM_ERR_* reason.
 *
 * Results: each packet that returns values (see each packet type) owns a
 * region of the result destination; regions follow each other in packet
 * order, each a multiple of 8 bytes, the first at offset 0. Packets that
 * return nothing own no region.
 */

#define DRM_VATOM_PACKET_VISA		1	/* struct drm_vatom_visa */
#define DRM_VATOM_PACKET_PTX		2	/* struct drm_vatom_ptx */
#define DRM_VATOM_PACKET_NOC		3	/* struct drm_vatom_noc */

/**
 * struct drm_vatom_packet - header of every packet
 */
struct drm_vatom_packet {
	/** @type: DRM_VATOM_PACKET_*. */
	__u32 type;
	/** @size: Bytes of the packet including this header; multiple of 8. */
	__u32 size;
};

/* --- Intel vISA ---------------------------------------------------------- */

/* vISA opcodes (the instruction's opcode byte). */
#define DRM_VATOM_VISA_DWORD_ATOMIC	0x7d
#define DRM_VATOM_VISA_TYPED_ATOMIC	0x73
#define DRM_VATOM_VISA_ADDC		0x49

/* Op byte: bits 4..0 the operation, bit 5 the .16 form. */
#define DRM_VATOM_VISA_OP_MASK		0x1f
#define DRM_VATOM_VISA_OP_16		0x20
#define DRM_VATOM_VISA_OP_ADD		0x00
#define DRM_VATOM_VISA_OP_SUB		0x01
#define DRM_VATOM_VISA_OP_INC		0x02
#define DRM_VATOM_VISA_OP_DEC		0x03
#define DRM_VATOM_VISA_OP_MIN		0x04
#define DRM_VATOM_VISA_OP_MAX		0x05
#define DRM_VATOM_VISA_OP_XCHG		0x06
#define DRM_VATOM_VISA_OP_CMPXCHG	0x07
#define DRM_VATOM_VISA_OP_AND		0x08
#define DRM_VATOM_VISA_OP_OR		0x09
#define DRM_VATOM_VISA_OP_XOR		0x0a
#define DRM_VATOM_VISA_OP_IMIN		0x0b
#define DRM_VATOM_VISA_OP_IMAX		0x0c
#define DRM_VATOM_VISA_OP_PREDEC	0x0d
#define DRM_VATOM_VISA_OP_FMAX		0x10
#define DRM_VATOM_VISA_OP_FMIN		0x11
#define DRM_VATOM_VISA_OP_FCMPWR	0x12

/* Exec_size byte: bits 2..0 the size, bits 7..4 the mask control. */
#define DRM_VATOM_VISA_EXEC_SIZE_MASK	0x07
#define DRM_VATOM_VISA_EXEC_1		0x0
#define DRM_VATOM_VISA_EXEC_2		0x1
#define DRM_VATOM_VISA_EXEC_4		0x2
#define DRM_VATOM_VISA_EXEC_8		0x3
#define DRM_VATOM_VISA_EXEC_16		0x4
#define DRM_VATOM_VISA_EXEC_32		0x5	/* ADDC only */
#define DRM_VATOM_VISA_EXEC_RESERVED	0x08	/* bit 3: must be zero */
#define DRM_VATOM_VISA_EXEC_MASK_SHIFT	4
#define DRM_VATOM_VISA_EXEC_M1		0x0	/* M1..M8: channel offset 4 * n */
#define DRM_VATOM_VISA_EXEC_NM		0x8	/* _NM: ignore the execution mask */

/* Operand data types (vISA type names). */
#define DRM_VATOM_VISA_TYPE_UD		0	/* unsigned dword */
#define DRM_VATOM_VISA_TYPE_D		1	/* signed dword */
#define DRM_VATOM_VISA_TYPE_F		2	/* float */
#define DRM_VATOM_VISA_TYPE_UQ		3	/* unsigned qword */
#define DRM_VATOM_VISA_TYPE_Q		4	/* signed qword */

/*
 * Operands present in a vISA packet. An absent operand is V0 (the null
 * variable). Present operand arrays follow the fixed part of the packet in
 * the order of these bits, each starting at an 8-byte boundary (zero padded).
 */
#define DRM_VATOM_VISA_OPND_ADDR	(1u << 0) /* Element_offset, or U */
#define DRM_VATOM_VISA_OPND_V		(1u << 1) /* TYPED_ATOMIC V */
#define DRM_VATOM_VISA_OPND_R		(1u << 2) /* TYPED_ATOMIC R */
#define DRM_VATOM_VISA_OPND_LOD		(1u << 3) /* TYPED_ATOMIC LOD */
#define DRM_VATOM_VISA_OPND_SRC0	(1u << 4)
#define DRM_VATOM_VISA_OPND_SRC1	(1u << 5)
#define DRM_VATOM_VISA_OPND_DST		(1u << 6) /* results are returned */
#define DRM_VATOM_VISA_OPND_SRC0_IMM	(1u << 7) /* ADDC: Src0 is one immediate */
#define DRM_VATOM_VISA_OPND_SRC1_IMM	(1u << 8) /* ADDC: Src1 is one immediate */

/* vISA packet flags. */
#define DRM_VATOM_VISA_PREDICATED	(1u << 0) /* @pred is the predicate */

/**
 * struct drm_vatom_visa - one vISA instruction (DWORD_ATOMIC, TYPED_ATOMIC, ADDC)
 *
 * Followed by the operand arrays named in @operands: address operands
 * (Element_offset in bytes, or U, V, R, LOD) are __u32 per lane; Src0 and Src1
 * are one element per lane of the data type's width (4 bytes for UD/D/F and
 * for the .16 forms, whose lower 16 bits are used; 8 bytes for UQ/Q), or a
 * single element with the _IMM bits (ADDC).
 *
 * Channel i is enabled when (mask control is _NM or bit (4 * M + i) of @emask
 * is set) and (the packet is not predicated or bit i of @pred is set).
 *
 * Results: with %DRM_VATOM_VISA_OPND_DST, one element per lane (the old
 * value; PREDEC returns the new value; 0 for an out-of-bounds read).
 * ADDC returns dst[n] followed by carry[n], each region rounded up to 8
 * bytes. Disabled channels leave their result element unchanged.
 */
struct drm_vatom_visa {
	/** @hdr: type %DRM_VATOM_PACKET_VISA. */
	struct drm_vatom_packet hdr;
	/** @opcode: DRM_VATOM_VISA_DWORD_ATOMIC, _TYPED_ATOMIC or _ADDC. */
	__u8 opcode;
	/** @op: The Op byte (0 for ADDC). */
	__u8 op;
	/** @exec_size: The Exec_size byte. */
	__u8 exec_size;
	/** @surface: Binding slot of the surface (0 for ADDC). */
	__u8 surface;
	/** @type: DRM_VATOM_VISA_TYPE_* of Src0, Src1 and Dst. */
	__u8 type;
	/** @pad: MBZ. */
	__u8 pad[3];
	/** @operands: DRM_VATOM_VISA_OPND_* bits. */
	__u32 operands;
	/** @emask: The 32-bit SIMD execution mask. */
	__u32 emask;
	/** @pred: Predicate lane mask; MBZ unless predicated. */
	__u32 pred;
	/** @flags: DRM_VATOM_VISA_PREDICATED. */
	__u32 flags;
};

/* --- NVIDIA PTX atom ----------------------------------------------------- */

#define DRM_VATOM_PTX_OP_AND		1
#define DRM_VATOM_PTX_OP_OR		2
#define DRM_VATOM_PTX_OP_XOR		3
#define DRM_VATOM_PTX_OP_CAS		4
#define DRM_VATOM_PTX_OP_EXCH		5
#define DRM_VATOM_PTX_OP_ADD		6
#define DRM_VATOM_PTX_OP_INC		7
#define DRM_VATOM_PTX_OP_DEC		8
#define DRM_VATOM_PTX_OP_MIN		9
#define DRM_VATOM_PTX_OP_MAX		10

#define DRM_VATOM_PTX_TYPE_B16		1
#define DRM_VATOM_PTX_TYPE_B32		2
#define DRM_VATOM_PTX_TYPE_B64		3
#define DRM_VATOM_PTX_TYPE_B128		4
#define DRM_VATOM_PTX_TYPE_U32		5
#define DRM_VATOM_PTX_TYPE_U64		6
#define DRM_VATOM_PTX_TYPE_S32		7
#define DRM_VATOM_PTX_TYPE_S64		8
#define DRM_VATOM_PTX_TYPE_F16		9
#define DRM_VATOM_PTX_TYPE_BF16		10
#define DRM_VATOM_PTX_TYPE_F16X2	11
#define DRM_VATOM_PTX_TYPE_BF16X2	12
#define DRM_VATOM_PTX_TYPE_F32		13
#define DRM_VATOM_PTX_TYPE_F64		14

#define DRM_VATOM_PTX_SPACE_GENERIC		0 /* resolves to .global */
#define DRM_VATOM_PTX_SPACE_GLOBAL		1
#define DRM_VATOM_PTX_SPACE_SHARED_CTA		2 /* .shared, .shared::cta */
#define DRM_VATOM_PTX_SPACE_SHARED_CLUSTER	3

#define DRM_VATOM_PTX_SEM_RELAXED	0 /* default */
#define DRM_VATOM_PTX_SEM_ACQUIRE	1
#define DRM_VATOM_PTX_SEM_RELEASE	2
#define DRM_VATOM_PTX_SEM_ACQ_REL	3

#define DRM_VATOM_PTX_SCOPE_GPU		0 /* default */
#define DRM_VATOM_PTX_SCOPE_CTA		1
#define DRM_VATOM_PTX_SCOPE_CLUSTER	2
#define DRM_VATOM_PTX_SCOPE_SYS		3

#define DRM_VATOM_PTX_NOFTZ		(1u << 0) /* .noftz */
#define DRM_VATOM_PTX_CACHE_HINT	(1u << 1) /* .L2::cache_hint */

/**
 * struct drm_vatom_ptx - one PTX atom instruction
 *
 * Addresses operand a as byte offset @addr into the surface bound at @slot;
 * it must be aligned to the access size and in bounds. Operands @b and @c hold
 * the scalar, packed or vector values little-endian, element 0 first.
 *
 * Results: the old value(s), as many bytes as the access, rounded up to 8.
 */
struct drm_vatom_ptx {
	/** @hdr: type %DRM_VATOM_PACKET_PTX, size 72. */
	struct drm_vatom_packet hdr;
	/** @op: DRM_VATOM_PTX_OP_*. */
	__u8 op;
	/** @type: DRM_VATOM_PTX_TYPE_*. */
	__u8 type;
	/** @vec: Vector length: 0 (scalar), 2, 4 or 8. */
	__u8 vec;
	/** @space: DRM_VATOM_PTX_SPACE_*. */
	__u8 space;
	/** @sem: DRM_VATOM_PTX_SEM_*. */
	__u8 sem;
	/** @scope: DRM_VATOM_PTX_SCOPE_*. */
	__u8 scope;
	/** @slot: Binding slot of the surface. */
	__u8 slot;
	/** @pad: MBZ. */
	__u8 pad;
	/** @flags: DRM_VATOM_PTX_NOFTZ, DRM_VATOM_PTX_CACHE_HINT. */
	__u32 flags;
	/** @pad2: MBZ. */
	__u32 pad2;
	/** @addr: Byte offset of a in the surface. */
	__u64 addr;
	/** @cache_policy: The 64-bit cache-policy operand; MBZ without CACHE_HINT. */
	__u64 cache_policy;
	/** @b: Operand b, up to 128 bits. */
	__u64 b[2];
	/** @c: Operand c (cas), up to 128 bits; MBZ otherwise. */
	__u64 c[2];
};

/* --- Tenstorrent NoC ----------------------------------------------------- */

/**
 * struct drm_vatom_noc - one NoC atomic request
 *
 * The initiator register image exactly as software writes it to the NIU of
 * tile (@x, @y) of the tile grid bound at @slot. Responses are written into
 * the return tile's L1 and its NIU counters, not into the result destination.
 */
struct drm_vatom_noc {
	/** @hdr: type %DRM_VATOM_PACKET_NOC, size 64. */
	struct drm_vatom_packet hdr;
	/** @slot: Binding slot of the tile grid. */
	__u8 slot;
	/** @noc: NoC 0 or 1. */
	__u8 noc;
	/** @x: Initiator tile X. */
	__u8 x;
	/** @y: Initiator tile Y. */
	__u8 y;
	/** @targ_addr_lo: NOC_TARG_ADDR_LO. */
	__u32 targ_addr_lo;
	/** @targ_addr_mid: NOC_TARG_ADDR_MID. */
	__u32 targ_addr_mid;
	/** @targ_addr_hi: NOC_TARG_ADDR_HI (Blackhole); MBZ on Wormhole. */
	__u32 targ_addr_hi;
	/** @ret_addr_lo: NOC_RET_ADDR_LO. */
	__u32 ret_addr_lo;
	/** @ret_addr_mid: NOC_RET_ADDR_MID. */
	__u32 ret_addr_mid;
	/** @ret_addr_hi: NOC_RET_ADDR_HI (Blackhole); MBZ on Wormhole. */
	__u32 ret_addr_hi;
	/** @packet_tag: NOC_PACKET_TAG. */
	__u32 packet_tag;
	/** @ctrl: NOC_CTRL. */
	__u32 ctrl;
	/** @at_len_be: NOC_AT_LEN_BE. */
	__u32 at_len_be;
	/** @at_data: NOC_AT_DATA. */
	__u32 at_data;
	/** @flags: MBZ. */
	__u32 flags;
	/** @pad: MBZ. */
	__u32 pad[2];
};

/**
 * DOC: NoC register fields
 *
 * Field constants of the NoC initiator registers carried in struct
 * drm_vatom_noc and of the NIU counter block, as the Tenstorrent ISA
 * documents define them (docs/semantics-noc.md has the details and the
 * device's choices). Kernel, library and tests share these.
 *
 * NOC_CTRL: bits not named here are reserved and must be zero; the VC,
 * path-reserve, broadcast-axis and priority fields are accepted and have no
 * effect on the result. %DRM_VATOM_NOC_CTRL_L1_ACC_AT_EN must be zero.
 */
#define DRM_VATOM_NOC_CTRL_REQ_MASK		0x3u	/* request type [1:0] */
#define DRM_VATOM_NOC_CTRL_REQ_ATOMIC		0x1u	/* the only type accepted */
#define DRM_VATOM_NOC_CTRL_RESP_MARKED		(1u << 4)  /* send a response */
#define DRM_VATOM_NOC_CTRL_BRCST_PACKET		(1u << 5)  /* broadcast to a rectangle */
#define DRM_VATOM_NOC_CTRL_VC_LINKED		(1u << 6)
#define DRM_VATOM_NOC_CTRL_VC_STATIC		(1u << 7)
#define DRM_VATOM_NOC_CTRL_PATH_RESERVE		(1u << 8)
#define DRM_VATOM_NOC_CTRL_STATIC_VC_SHIFT	13
#define DRM_VATOM_NOC_CTRL_STATIC_VC_MASK	(0x7u << 13)
#define DRM_VATOM_NOC_CTRL_BRCST_XY		(1u << 16) /* broadcast major axis */
#define DRM_VATOM_NOC_CTRL_BRCST_SRC_INCLUDE	(1u << 17) /* initiator receives it too */
#define DRM_VATOM_NOC_CTRL_ARB_PRIORITY_SHIFT	27
#define DRM_VATOM_NOC_CTRL_ARB_PRIORITY_MASK	(0xfu << 27)
#define DRM_VATOM_NOC_CTRL_L1_ACC_AT_EN		(1u << 31) /* Blackhole; broken, MBZ */
/* Every NOC_CTRL bit an atomic request may set. */
#define DRM_VATOM_NOC_CTRL_VALID \
	(DRM_VATOM_NOC_CTRL_REQ_MASK | DRM_VATOM_NOC_CTRL_RESP_MARKED | \
	 DRM_VATOM_NOC_CTRL_BRCST_PACKET | DRM_VATOM_NOC_CTRL_VC_LINKED | \
	 DRM_VATOM_NOC_CTRL_VC_STATIC | DRM_VATOM_NOC_CTRL_PATH_RESERVE | \
	 DRM_VATOM_NOC_CTRL_STATIC_VC_MASK | DRM_VATOM_NOC_CTRL_BRCST_XY | \
	 DRM_VATOM_NOC_CTRL_BRCST_SRC_INCLUDE | \
	 DRM_VATOM_NOC_CTRL_ARB_PRIORITY_MASK)

/* NOC_PACKET_TAG: the transaction id [13:10]; other bits must be zero. */
#define DRM_VATOM_NOC_TAG_TXN_ID_SHIFT		10
#define DRM_VATOM_NOC_TAG_TXN_ID_MASK		(0xfu << 10)
#define DRM_VATOM_NOC_TXN_IDS			16

/*
 * Tile coordinates are 6 bits. Wormhole: in NOC_TARG_ADDR_MID (and
 * NOC_RET_ADDR_MID) bits [3:0] are address bits 35..32 (must be 0), X (or
 * the broadcast EndX) is [9:4], Y (EndY) [15:10], StartX [21:16], StartY
 * [27:22]. Blackhole: NOC_TARG_ADDR_MID / NOC_RET_ADDR_MID are address bits
 * 63..32 (must be 0) and NOC_TARG_ADDR_HI / NOC_RET_ADDR_HI hold X (EndX)
 * [5:0], Y (EndY) [11:6], StartX [17:12], StartY [23:18].
 */
#define DRM_VATOM_NOC_COORD_MASK		0x3fu
#define DRM_VATOM_NOC_WH_MID_ADDR_MASK		0xfu
#define DRM_VATOM_NOC_WH_MID_X_SHIFT		4
#define DRM_VATOM_NOC_WH_MID_Y_SHIFT		10
#define DRM_VATOM_NOC_WH_MID_START_X_SHIFT	16
#define DRM_VATOM_NOC_WH_MID_START_Y_SHIFT	22
#define DRM_VATOM_NOC_BH_HI_X_SHIFT		0
#define DRM_VATOM_NOC_BH_HI_Y_SHIFT		6
#define DRM_VATOM_NOC_BH_HI_START_X_SHIFT	12
#define DRM_VATOM_NOC_BH_HI_START_Y_SHIFT	18

/*
 * NOC_AT_LEN_BE: the opcode is [15:12]; bits outside the fields of the
 * opcode's layout are ignored.
 */
#define DRM_VATOM_NOC_AT_OPCODE_SHIFT		12
#define DRM_VATOM_NOC_AT_OPCODE_MASK		(0xfu << 12)
#define DRM_VATOM_NOC_AT_INCR			0x1 /* increment: Ofs, IntWidth */
#define DRM_VATOM_NOC_AT_SWAP_MASK		0x3 /* swap, mask variant: Mask */
#define DRM_VATOM_NOC_AT_CAS			0x4 /* compare and swap: Ofs, CmpVal, SetVal */
#define DRM_VATOM_NOC_AT_SWAP_IDX6		0x6 /* swap, index: Ofs; bit 2 must be 1 */
#define DRM_VATOM_NOC_AT_SWAP_IDX7		0x7 /* swap, index: Ofs at [3:2] */
#define DRM_VATOM_NOC_AT_ACC			0x9 /* Blackhole parallel add: Fmt */
#define DRM_VATOM_NOC_AT_RISCV			0xa /* Blackhole swap index 10 or Zaamo */
#define DRM_VATOM_NOC_AT_OFS_MASK		0x3u	  /* Ofs [1:0] */
#define DRM_VATOM_NOC_AT_OFS7_SHIFT		2	  /* Ofs [3:2] of opcode 7 */
#define DRM_VATOM_NOC_AT_INT_WIDTH_SHIFT	2	  /* IntWidth [6:2] */
#define DRM_VATOM_NOC_AT_INT_WIDTH_MASK		(0x1fu << 2)
#define DRM_VATOM_NOC_AT_CAS_CMP_SHIFT		2	  /* CmpVal [5:2] */
#define DRM_VATOM_NOC_AT_CAS_SET_SHIFT		6	  /* SetVal [9:6] */
#define DRM_VATOM_NOC_AT_CAS_VAL_MASK		0xfu
#define DRM_VATOM_NOC_AT_SWAP_MASK_SHIFT	2	  /* Mask [9:2] */
#define DRM_VATOM_NOC_AT_SWAP_MASK_MASK		(0xffu << 2)
#define DRM_VATOM_NOC_AT_SWAP6_ONE		(1u << 2) /* fixed 1 of opcode 6 */
#define DRM_VATOM_NOC_AT_RISCV_SEL_SHIFT	8	  /* [11:8] of opcode 0xa */
#define DRM_VATOM_NOC_AT_RISCV_SEL_MASK		(0xfu << 8)
#define DRM_VATOM_NOC_AT_RISCV_SWAP		0x3	  /* [11:8] = 3: swap index 10 */
#define DRM_VATOM_NOC_AT_ZAAMO			(1u << 11) /* Zaamo, Op [10:8] */
#define DRM_VATOM_NOC_AT_ZAAMO_OP_SHIFT		8
#define DRM_VATOM_NOC_AT_ZAAMO_OP_MASK		(0x7u << 8)
#define DRM_VATOM_NOC_ZAAMO_ADD			0
#define DRM_VATOM_NOC_ZAAMO_XOR			1
#define DRM_VATOM_NOC_ZAAMO_OR			2
#define DRM_VATOM_NOC_ZAAMO_AND			3
#define DRM_VATOM_NOC_ZAAMO_MIN			4 /* signed */
#define DRM_VATOM_NOC_ZAAMO_MAX			5 /* signed */
#define DRM_VATOM_NOC_ZAAMO_MINU		6
#define DRM_VATOM_NOC_ZAAMO_MAXU		7
#define DRM_VATOM_NOC_AT_ACC_FMT_MASK		0xfu	  /* Fmt [3:0] */
#define DRM_VATOM_NOC_ACC_FP32			0  /* 4x fp32, ftz */
#define DRM_VATOM_NOC_ACC_FP16			1  /* 8x fp16, ftz */
#define DRM_VATOM_NOC_ACC_BF16			2  /* 8x bf16, ftz */
#define DRM_VATOM_NOC_ACC_U32			4  /* 4x u32, wrapping */
#define DRM_VATOM_NOC_ACC_U8_SAT		7  /* 16x u8, saturating */
#define DRM_VATOM_NOC_ACC_FP32_B		8  /* as 0 */
#define DRM_VATOM_NOC_ACC_FP16_B		9  /* as 1 */
#define DRM_VATOM_NOC_ACC_BF16_B		10 /* as 2 */
#define DRM_VATOM_NOC_ACC_U32_B			12 /* as 4 */
#define DRM_VATOM_NOC_ACC_U32_C			13 /* as 4 */
#define DRM_VATOM_NOC_ACC_U8			15 /* 16x u8, wrapping */

/*
 * NIU counters: each tile has one block of %DRM_VATOM_NOC_NIU_COUNTERS
 * 32-bit counters per NoC (NIU_BASE + 0x200 + 4 * index on the device),
 * readable through the tile grid's mapping (docs/semantics-noc.md gives
 * where). REQS_OUTSTANDING_ID(i) are 8-bit counters in 32-bit words.
 */
#define DRM_VATOM_NOC_NIU_COUNTERS		64
#define DRM_VATOM_NOC_MST_ATOMIC_RESP_RECEIVED		0
#define DRM_VATOM_NOC_MST_CMD_ACCEPTED			4
#define DRM_VATOM_NOC_MST_NONPOSTED_ATOMIC_SENT		6
#define DRM_VATOM_NOC_MST_POSTED_ATOMIC_SENT		7
#define DRM_VATOM_NOC_MST_NONPOSTED_ATOMIC_STARTED	15
#define DRM_VATOM_NOC_MST_REQS_OUTSTANDING_ID(i)	(16 + (i))
#define DRM_VATOM_NOC_SLV_ATOMIC_RESP_SENT		48
#define DRM_VATOM_NOC_SLV_REQ_ACCEPTED			52
#define DRM_VATOM_NOC_SLV_NONPOSTED_ATOMIC_RECEIVED	54
#define DRM_VATOM_NOC_SLV_POSTED_ATOMIC_RECEIVED	55

/* Flags of struct drm_vatom_noc_counters. */
#define DRM_VATOM_NOC_COUNTERS_READ		(1u << 0)
#define DRM_VATOM_NOC_COUNTERS_CLEAR_OUTSTANDING	(1u << 1)
#define DRM_VATOM_NOC_COUNTERS_CLEAR_ALL	(1u << 2)
#define DRM_VATOM_NOC_COUNTERS_FLAGS \
	(DRM_VATOM_NOC_COUNTERS_READ | \
	 DRM_VATOM_NOC_COUNTERS_CLEAR_OUTSTANDING | \
	 DRM_VATOM_NOC_COUNTERS_CLEAR_ALL)

/**
 * struct drm_vatom_noc_counters - read and clear the NIU counters of a tile
 *
 * Acts on the %DRM_VATOM_NOC_NIU_COUNTERS counters of tile (@x, @y)'s NIU on
 * NoC @noc of the tile grid @handle: the same words the grid's mapping shows
 * (docs/semantics-noc.md gives where), which a process may also read there.
 * Every tile of the grid has them; those of DRAM and PCIe tiles stay 0.
 *
 * @flags (at least one bit):
 *
 * - %DRM_VATOM_NOC_COUNTERS_READ: copy counters 0 .. @count - 1 to
 *   @counters.
 * - %DRM_VATOM_NOC_COUNTERS_CLEAR_OUTSTANDING: zero
 *   REQS_OUTSTANDING_ID(i) for each bit i set in @id_mask, as the write of
 *   @id_mask to the NIU's per-ID clear register (NIU_BASE + 0x50 on
 *   Wormhole, + 0x60 on Blackhole) does. @id_mask 0 clears nothing.
 * - %DRM_VATOM_NOC_COUNTERS_CLEAR_ALL: zero all the counters (no hardware
 *   register does this; a reset of the NIU does). Not together with
 *   CLEAR_OUTSTANDING.
 *
 * Each counter is read and each one cleared with a single atomic access,
 * so the call is atomic per counter with respect to concurrent submissions,
 * not across counters (it is not a snapshot). With READ and a CLEAR, a
 * cleared counter is read and zeroed by one atomic exchange: every update
 * of a concurrent submission is either in the value read or counted after
 * the clear, never lost.
 *
 * Returns 0; -ENOENT for an unknown @handle; -EINVAL for unknown or no
 * @flags, both CLEARs, a non-zero @pad, @id_mask bits above 15 or an
 * @id_mask without CLEAR_OUTSTANDING, a @count outside 1 ..
 * %DRM_VATOM_NOC_NIU_COUNTERS with READ or non-zero @count/@counters
 * without it, a surface that is not a tile grid, a tile outside the grid or
 * @noc > 1; -EFAULT when @counters cannot be written (checked before
 * anything is cleared).
 */
struct drm_vatom_noc_counters {
	/** @handle: In. GEM handle of a %DRM_VATOM_SURFACE_TILE_GRID. */
	__u32 handle;
	/** @flags: In. DRM_VATOM_NOC_COUNTERS_*. */
	__u32 flags;
	/** @x: In. Tile X, < the grid's width. */
	__u32 x;
	/** @y: In. Tile Y, < the grid's height. */
	__u32 y;
	/** @noc: In. NoC 0 or 1. */
	__u32 noc;
	/**
	 * @id_mask: In. CLEAR_OUTSTANDING: bit i clears
	 * REQS_OUTSTANDING_ID(i), bits 16..31 MBZ; else MBZ.
	 */
	__u32 id_mask;
	/** @count: In. READ: counters to copy, from index 0; else MBZ. */
	__u32 count;
	/** @pad: MBZ. */
	__u32 pad;
	/**
	 * @counters: In. READ: pointer to __u32[@count] receiving counters
	 * 0 .. @count - 1 (before the clear, for cleared ones); else MBZ.
	 */
	__u64 counters;
};

/* --- Validation errors --------------------------------------------------- */

/* Reasons reported in drm_vatom_submit.error_reason. */
#define DRM_VATOM_ERR_NONE		0
#define DRM_VATOM_ERR_PACKET_TYPE	1  /* unknown packet type */
/* size not a multiple of 8, past the stream, or wrong for the contents */
#define DRM_VATOM_ERR_PACKET_SIZE	2
#define DRM_VATOM_ERR_RESERVED		3  /* non-zero padding, reserved field or unknown flag */
#define DRM_VATOM_ERR_OPCODE		4  /* unknown instruction opcode */
#define DRM_VATOM_ERR_OP		5  /* reserved operation encoding */
#define DRM_VATOM_ERR_EXEC_SIZE		6  /* reserved exec size, or mask offset + size > 32 */
#define DRM_VATOM_ERR_TYPE		7  /* data type not allowed for the operation */
#define DRM_VATOM_ERR_OPERANDS		8  /* operand present that must be V0, or missing */
#define DRM_VATOM_ERR_SLOT		9  /* slot not bound */
#define DRM_VATOM_ERR_SURFACE_KIND	10 /* surface of the wrong kind */
#define DRM_VATOM_ERR_ALIGN		11 /* misaligned offset or address */
#define DRM_VATOM_ERR_BOUNDS		12 /* address out of bounds where the ISA has no OOB rule */
#define DRM_VATOM_ERR_RESULTS		13 /* result destination too small */
#define DRM_VATOM_ERR_QUALIFIER		14 /* space, sem, scope or vector not allowed */
#define DRM_VATOM_ERR_TARGET		15 /* NoC target or return is not a Tensix/Ethernet L1 */
#define DRM_VATOM_ERR_UNSUPPORTED	16 /* valid encoding not implemented (-EOPNOTSUPP) */
/* the stream costs more than DRM_VATOM_PARAM_MAX_SUBMIT_OPS (-E2BIG) */
#define DRM_VATOM_ERR_OPS_LIMIT		17
/*
 * Not a validation error: with -EFAULT, the stream *executed* but its results
 * could not be copied to @results, which stopped being writable during the
 * call (another thread unmapped or write-protected it). Any other -EFAULT
 * executed nothing.
 */
#define DRM_VATOM_ERR_RESULTS_FAULT	18
/*
 * A queue job's descriptor (struct drm_vatom_queue_job) is malformed: a
 * non-zero @flags or @pad, an unbound slot, a region outside its surface
 * or misaligned. Reported in the descriptor, with -EINVAL and index 0.
 */
#define DRM_VATOM_ERR_DESCRIPTOR	19

/* ------------------------------------------------------------------------ */
/* SUBMIT                                                                    */
/* ------------------------------------------------------------------------ */

/* Largest slot number + 1. */
#define DRM_VATOM_MAX_SLOTS		256

/**
 * struct drm_vatom_binding - binds a surface to a slot for one submission
 */
struct drm_vatom_binding {
	/** @slot: Slot number, < %DRM_VATOM_MAX_SLOTS; each at most once. */
	__u32 slot;
	/** @handle: GEM handle of the surface. */
	__u32 handle;
	/** @flags: Must be zero. */
	__u32 flags;
	/** @pad: MBZ. */
	__u32 pad;
};

/**
 * struct drm_vatom_sync - a syncobj to wait on or signal
 *
 * In-syncobjs are resolved to fences when the submission is made, as the
 * DRM core does: a syncobj without a fence (nothing submitted to it yet),
 * a non-zero @point on a binary syncobj or a point past a timeline's last
 * one is -EINVAL. Out-syncobjs get the job's fence: replacing the binary
 * syncobj's fence (@point 0) or adding @point to a timeline.
 */
struct drm_vatom_sync {
	/** @handle: In. Syncobj handle; -ENOENT when unknown. */
	__u32 handle;
	/** @flags: In. Must be zero. */
	__u32 flags;
	/** @point: In. Timeline point, or 0 for a binary syncobj. */
	__u64 point;
};

#define DRM_VATOM_SUBMIT_ASYNC		(1u << 0) /* return before execution */
/* check everything, report as usual, execute and signal nothing */
#define DRM_VATOM_SUBMIT_VALIDATE_ONLY	(1u << 1)
#define DRM_VATOM_SUBMIT_FLAGS		(DRM_VATOM_SUBMIT_ASYNC | \
					 DRM_VATOM_SUBMIT_VALIDATE_ONLY)

/**
 * struct drm_vatom_submit - validate and execute a command stream
 *
 * Results go either to user memory (@results, synchronous submissions only)
 * or to a surface (@result_handle at @result_offset), never both.
 *
 * Every submission is a *job* of the file (the context) it is made on. The
 * whole submission is checked before anything happens; a rejected one has
 * changed no memory and no syncobj. Jobs of one file execute in submission
 * order, synchronous and asynchronous alike; each also waits for the fences
 * of its @in_syncs. When it has executed, its fence signals and is what the
 * @out_syncs then hold.
 *
 * Synchronous (no %DRM_VATOM_SUBMIT_ASYNC): the call waits, interruptibly,
 * for the in-syncobjs and the file's earlier jobs, executes the stream and
 * then installs the (signalled) fence in the out-syncobjs. Interrupted
 * before execution began, it returns -EINTR/-ERESTARTSYS having executed
 * nothing, and may be restarted with the same arguments.
 *
 * Asynchronous (%DRM_VATOM_SUBMIT_ASYNC, %DRM_VATOM_CAP_SUBMIT_ASYNC): the
 * call returns once the job is queued, with its (unsignalled) fence already
 * in the out-syncobjs; results must go to a result surface. A job whose
 * in-syncobj fence fails does not execute and its fence carries that error;
 * a job still waiting for an in-syncobj when its file is closed (or its
 * process dies) is cancelled: it does not execute and its fence signals
 * with -ECANCELED. Errors are read from the fence (e.g. the status of a
 * sync_file exported from an out-syncobj).
 *
 * Validate-only (%DRM_VATOM_SUBMIT_VALIDATE_ONLY, %DRM_VATOM_CAP_VALIDATE_ONLY):
 * the submission is checked exactly as it would be (arguments, handles,
 * syncobjs, the stream, its cost, the result destination and its
 * writability, the limits) and the call returns what it would have
 * returned before execution: 0 with @results_needed, or the error with
 * @error_index and @error_reason. Nothing executes, no memory or syncobj
 * changes, no job is created (the file's jobs are not waited for).
 *
 * Closing a file gives its remaining jobs half a second, then cancels
 * them; a synchronous submitter that is killed stops its job. A job
 * cancelled while executing stops between two packets: the packets before
 * ran, each whole, in stream order; none after. Its fence signals
 * -ECANCELED.
 *
 * Limits per file: %DRM_VATOM_PARAM_MAX_JOBS jobs in flight (submitted and
 * not yet signalled; a synchronous one while its call runs), and
 * %DRM_VATOM_PARAM_FILE_MEM_CAP bytes charged for what the file makes the
 * kernel hold (%DRM_VATOM_PARAM_FILE_MEM_CHARGED): surfaces it owns for as
 * long as they live, other surfaces while it holds handles to them, its
 * stream buffers, its jobs in flight and their copies of user-memory
 * results. Per submission: %DRM_VATOM_PARAM_MAX_SUBMIT_OPS element
 * operations (a vISA packet costs its lanes, a PTX packet its vector
 * elements, a NoC unicast 1, a NoC broadcast every tile of its grid).
 *
 * Returns 0 on success; -EINVAL for a malformed submission (for stream
 * errors @error_index and @error_reason say which packet and why), also for
 * %DRM_VATOM_SUBMIT_ASYNC with @results, non-zero sync @flags or an
 * in-syncobj without a fence for the @point; -EOPNOTSUPP for a valid
 * encoding this device does not implement; -ENOENT for an unknown surface
 * or syncobj handle; -E2BIG when @stream_size, @binding_count,
 * @in_sync_count or @out_sync_count exceed the device limits, or the
 * stream costs more than %DRM_VATOM_PARAM_MAX_SUBMIT_OPS
 * (%DRM_VATOM_ERR_OPS_LIMIT at @error_index); -EBUSY when
 * the file has %DRM_VATOM_PARAM_MAX_JOBS jobs in flight, or for a file's
 * first asynchronous job while %DRM_VATOM_PARAM_MAX_SCHEDULERS files of
 * the device have had theirs and are open; -ENOSPC past the
 * file's memory cap; -ECANCELED (synchronous only) when an in-syncobj fence
 * failed, nothing executed; -EFAULT for bad pointers, @results included
 * (checked writable before execution), nothing executed, except with
 * @error_reason %DRM_VATOM_ERR_RESULTS_FAULT: executed, but @results became
 * unwritable during the call; -ENOMEM; -EINTR/-ERESTARTSYS when
 * interrupted before execution began.
 */
struct drm_vatom_submit {
	/** @stream: In. Pointer to the command stream. */
	__u64 stream;
	/** @bindings: In. Pointer to struct drm_vatom_binding[@binding_count]. */
	__u64 bindings;
	/** @results: In. User pointer receiving results, or 0. */
	__u64 results;
	/** @results_size: In. Bytes available for results. */
	__u64 results_size;
	/** @result_offset: In. Byte offset of the results in @result_handle. */
	__u64 result_offset;
	/** @in_syncs: In. Pointer to struct drm_vatom_sync[@in_sync_count]: wait for these. */
	__u64 in_syncs;
	/** @out_syncs: In. Pointer to struct drm_vatom_sync[@out_sync_count]: signal these. */
	__u64 out_syncs;
	/** @stream_size: In. Bytes of the stream; multiple of 8. */
	__u32 stream_size;
	/** @binding_count: In. Entries at @bindings. */
	__u32 binding_count;
	/** @in_sync_count: In. Entries at @in_syncs, <= %DRM_VATOM_PARAM_MAX_SYNCS. */
	__u32 in_sync_count;
	/** @out_sync_count: In. Entries at @out_syncs, <= %DRM_VATOM_PARAM_MAX_SYNCS. */
	__u32 out_sync_count;
	/** @result_handle: In. GEM handle of a result surface, or 0. */
	__u32 result_handle;
	/** @flags: In. DRM_VATOM_SUBMIT_*. */
	__u32 flags;
	/** @error_index: Out. Index of the packet that failed validation. */
	__u32 error_index;
	/** @error_reason: Out. DRM_VATOM_ERR_*; DRM_VATOM_ERR_NONE on success. */
	__u32 error_reason;
	/** @results_needed: Out. Bytes of results the stream produces. */
	__u64 results_needed;
};

/* ------------------------------------------------------------------------ */
/* User-mode queues                                                          */
/* ------------------------------------------------------------------------ */

/**
 * DOC: user-mode queues
 *
 * A queue (%DRM_VATOM_CAP_QUEUE) submits jobs without one ioctl each: its
 * ring of job descriptors (struct drm_vatom_queue_job) and its control
 * page (struct drm_vatom_queue_ctl) are GEM objects userspace maps; each
 * descriptor names its command stream and its results by slot of the
 * queue's binding table (fixed at creation) and byte offset. Userspace
 * fills descriptors at ring positions @tail, @tail + 1, ... (position p
 * is entry p & (entries - 1); positions are free-running __u32), then
 * stores the new @tail with release semantics and, when
 * %DRM_VATOM_QUEUE_CTL_NEED_WAKEUP is set, calls %DRM_IOCTL_VATOM_QUEUE_KICK.
 *
 * The kernel consumes the positions from its head to the @tail it reads
 * (once, with acquire semantics): for each it copies the descriptor and
 * then the stream into kernel memory, validates the stream exactly as
 * SUBMIT does (same limits, same errors, memory charged to the file),
 * executes it with results written to the results surface, writes the
 * descriptor's @status, @error_index and @error_reason, then @head and
 * finally @completed (release), the number of jobs the queue has
 * completed since its creation: the job at the n-th position filled
 * (counting from 1) is complete when @completed >= n. A job that fails
 * changes no memory and does not stop the jobs after it.
 *
 * The ring and the streams are user memory that may change at any time;
 * what the kernel uses is its own copy of each, so a rewritten descriptor
 * or stream at worst fails its own job. A queue's jobs execute in ring
 * order, in the thread that kicks or the poller; they are not ordered with
 * the file's SUBMIT jobs (use atomics, or wait, across the two).
 *
 * Doorbells. In kick mode (the default) %DRM_VATOM_QUEUE_CTL_NEED_WAKEUP
 * is always set and each KICK consumes, in the calling thread. In polling
 * mode (%DRM_VATOM_QUEUE_CREATE_POLL, %DRM_VATOM_CAP_QUEUE_POLL) a kernel
 * thread, the poller, consumes the ring as @tail moves, with no system
 * call. A process has one poller per device, which serves all its polling
 * queues in turn; after the longest @poll_idle_us of those without work
 * it sets %DRM_VATOM_QUEUE_CTL_NEED_WAKEUP on each and sleeps until a KICK
 * wakes it. The
 * producer must order its store of @tail before its load of @flags (a
 * full barrier, as with io_uring's SQPOLL), and kick when the flag is set.
 * A KICK while the poller is awake consumes in the calling thread, as in
 * kick mode. When such KICKs do jobs of the process's queues, the poller
 * steps aside (0.016 to 4 ms, doubling while they go on) and sets
 * %DRM_VATOM_QUEUE_CTL_KICK_TO_WAIT meanwhile: a producer waiting for
 * completions should then KICK at once rather than spin (since UAPI
 * version 6); one that only spins waits at most 4 ms for the poller.
 * A poller that shares its CPU with the producer gives way to it on every
 * turn, which costs each job two context switches: a queue can pin the
 * process's poller to a CPU (%DRM_VATOM_QUEUE_CREATE_POLL_CPU, since UAPI
 * version 9), as io_uring's IORING_SETUP_SQ_AFF does, and the producer
 * keep to others.
 *
 * Completion. Besides @completed, a queue may signal a timeline syncobj
 * (@syncobj: each batch of jobs consumed adds point n, signalled, where n
 * is @completed, so a wait for point n ends once job n is complete) and
 * an eventfd (%DRM_VATOM_QUEUE_CREATE_EVENTFD: signalled once per batch),
 * %DRM_VATOM_CAP_QUEUE_SIGNAL. A batch is what one KICK, or one visit
 * of the poller, finds published.
 */

/* Largest struct drm_vatom_queue_create.entries. */
#define DRM_VATOM_QUEUE_MAX_ENTRIES	4096

/**
 * struct drm_vatom_queue_job - one job descriptor of a queue's ring (64 bytes)
 *
 * The stream is @stream_size bytes at @stream_offset of the surface bound
 * at @stream_slot; the results, if the stream returns any, go to
 * @results_size bytes at @results_offset of the surface at @results_slot
 * (both 0 when there are none). Offsets are multiples of 8. Userspace must
 * not rewrite a descriptor, or its stream, before the job is complete, or
 * its job may fail (it cannot affect other jobs or memory).
 */
struct drm_vatom_queue_job {
	/** @stream_offset: In. Byte offset of the stream, multiple of 8. */
	__u64 stream_offset;
	/** @results_offset: In. Byte offset of the results, multiple of 8. */
	__u64 results_offset;
	/** @results_size: In. Bytes available for results (0: none). */
	__u64 results_size;
	/** @user_data: In. Not used by the kernel. */
	__u64 user_data;
	/** @stream_size: In. Bytes of the stream, multiple of 8. */
	__u32 stream_size;
	/** @stream_slot: In. Slot of the stream's surface. */
	__u32 stream_slot;
	/** @results_slot: In. Slot of the results' surface (0 without results). */
	__u32 results_slot;
	/** @flags: In. Must be zero. */
	__u32 flags;
	/**
	 * @status: Out. 0 when the job executed, else the -errno SUBMIT
	 * would return (-EINVAL, -EOPNOTSUPP, -E2BIG, -ENOSPC, -ENOMEM;
	 * -EINTR when the kicking process was killed, or a polling queue
	 * destroyed, while the stream was validated, -ECANCELED while it
	 * executed: a prefix of it ran); -ETIMEDOUT or -EIO when the job
	 * timed out or faulted (a prefix ran, and the file is guilty), -EIO
	 * without executing while the file is guilty (see "job timeouts and
	 * resets"); -ENODEV when the device went away (unbound) before or
	 * while the job ran (a prefix of it may have run): every job of a
	 * batch under way then completes so.
	 */
	__s32 status;
	/** @error_index: Out. Index of the packet that failed validation. */
	__u32 error_index;
	/** @error_reason: Out. DRM_VATOM_ERR_*; %DRM_VATOM_ERR_NONE on success. */
	__u32 error_reason;
	/** @pad: In. MBZ. */
	__u32 pad;
};

/* Bits of struct drm_vatom_queue_ctl.flags. */
#define DRM_VATOM_QUEUE_CTL_NEED_WAKEUP	(1u << 0) /* KICK to have jobs consumed */
#define DRM_VATOM_QUEUE_CTL_KICK_TO_WAIT (1u << 1) /* poller aside: waiters KICK */

/* Bytes of a queue's control page: its GEM buffer, what to mmap() */
#define DRM_VATOM_QUEUE_CTL_SIZE	4096

/**
 * struct drm_vatom_queue_ctl - a queue's control page (the first bytes of it)
 *
 * The producer's and the consumer's words are on separate cache lines.
 * The kernel never reads @head, @flags or @completed back: writing them
 * only misleads the writer.
 */
struct drm_vatom_queue_ctl {
	/** @tail: In. Producer position: one past the last descriptor filled. */
	__u32 tail;
	/** @pad0: Unused. */
	__u32 pad0[15];
	/** @head: Out. Consumer position: the next descriptor to consume. */
	__u32 head;
	/** @flags: Out. DRM_VATOM_QUEUE_CTL_*. */
	__u32 flags;
	/**
	 * @completed: Out. Jobs completed since the queue was created; its
	 * low 32 bits are @head.
	 */
	__u64 completed;
	/** @pad1: Unused. */
	__u32 pad1[12];
};

/* Flags of struct drm_vatom_queue_create. */
#define DRM_VATOM_QUEUE_CREATE_POLL	(1u << 0) /* a kernel thread consumes */
#define DRM_VATOM_QUEUE_CREATE_EVENTFD	(1u << 1) /* signal @eventfd */
#define DRM_VATOM_QUEUE_CREATE_POLL_CPU	(1u << 2) /* the poller on @poll_cpu */
#define DRM_VATOM_QUEUE_CREATE_FLAGS	(DRM_VATOM_QUEUE_CREATE_POLL | \
					 DRM_VATOM_QUEUE_CREATE_EVENTFD | \
					 DRM_VATOM_QUEUE_CREATE_POLL_CPU)

/* drm_vatom_queue_create.poll_idle_us when it is 0 */
#define DRM_VATOM_QUEUE_POLL_IDLE_US_DEFAULT	1000

/**
 * struct drm_vatom_queue_create - create a user-mode queue
 *
 * Creates a ring of @entries descriptors (a GEM buffer of @entries * 64
 * bytes, zeroed) and a control page (a GEM buffer of
 * %DRM_VATOM_QUEUE_CTL_SIZE bytes, zeroed but for
 * %DRM_VATOM_QUEUE_CTL_NEED_WAKEUP), returning a handle to each
 * for SURFACE_MMAP_OFFSET and mmap(); they are charged to the file like
 * any surface. The binding table is @binding_count struct
 * drm_vatom_binding, as SUBMIT's: the queue holds a reference to each
 * surface until it is destroyed, so closing a handle does not unbind it.
 *
 * With %DRM_VATOM_QUEUE_CREATE_POLL a kernel thread consumes the queue:
 * the poller of the calling process on this device, which serves all its
 * polling queues (the creator's nice value and cgroups; its allocations
 * charged to each queue's creator's memory cgroup and to the file), and
 * polls for the longest @poll_idle_us of its queues after its last job
 * before it sleeps. With %DRM_VATOM_QUEUE_CREATE_POLL_CPU as well
 * (%DRM_VATOM_CAP_QUEUE_POLL_CPU) the poller runs on CPU @poll_cpu only:
 * the first queue that names a CPU pins the poller there for its life,
 * and a later queue of the process may name that CPU or none.
 * @syncobj and %DRM_VATOM_QUEUE_CREATE_EVENTFD with @eventfd name what
 * the queue signals as jobs complete (DOC: user-mode queues); the queue
 * holds references to them until it is destroyed.
 *
 * Returns 0; -EINVAL for unknown @flags, @entries 0 or not a power of two,
 * %DRM_VATOM_QUEUE_CREATE_POLL_CPU without %DRM_VATOM_QUEUE_CREATE_POLL,
 * @poll_cpu non-zero without %DRM_VATOM_QUEUE_CREATE_POLL_CPU, a @poll_cpu
 * that is not an online CPU the caller may run on (its affinity and
 * cpuset), or one other than the CPU the process's poller is pinned to,
 * a binding with non-zero @flags or @pad, a slot >=
 * %DRM_VATOM_MAX_SLOTS or bound twice, @bindings without
 * @binding_count, @poll_idle_us without %DRM_VATOM_QUEUE_CREATE_POLL or
 * above %DRM_VATOM_PARAM_MAX_POLL_IDLE_US, @eventfd non-zero without
 * %DRM_VATOM_QUEUE_CREATE_EVENTFD, or an @eventfd that is not an eventfd;
 * -EBADF for an @eventfd that is not open; -E2BIG for @entries above
 * %DRM_VATOM_PARAM_MAX_QUEUE_ENTRIES or @binding_count above
 * %DRM_VATOM_MAX_SLOTS; -ENOENT for an unknown handle or @syncobj;
 * -EFAULT for a bad @bindings; -EBUSY when the file has
 * %DRM_VATOM_PARAM_MAX_QUEUES queues, or the device
 * %DRM_VATOM_PARAM_MAX_POLL_QUEUES polling ones; -ENOSPC past the file's
 * memory cap; -ENOMEM.
 */
struct drm_vatom_queue_create {
	/** @entries: In. Descriptors in the ring, a power of two. */
	__u32 entries;
	/**
	 * @flags: In. DRM_VATOM_QUEUE_CREATE_*: %DRM_VATOM_QUEUE_CREATE_POLL
	 * (a kernel thread consumes; %DRM_VATOM_CAP_QUEUE_POLL),
	 * %DRM_VATOM_QUEUE_CREATE_EVENTFD (signal @eventfd;
	 * %DRM_VATOM_CAP_QUEUE_SIGNAL); other bits must be zero.
	 */
	__u32 flags;
	/** @bindings: In. Pointer to struct drm_vatom_binding[@binding_count]. */
	__u64 bindings;
	/** @binding_count: In. Entries at @bindings. */
	__u32 binding_count;
	/** @queue_id: Out. The queue's id in this file, never 0. */
	__u32 queue_id;
	/** @ring_handle: Out. GEM handle of the ring. */
	__u32 ring_handle;
	/** @ctl_handle: Out. GEM handle of the control page. */
	__u32 ctl_handle;
	/**
	 * @poll_idle_us: In. With %DRM_VATOM_QUEUE_CREATE_POLL: how long the
	 * poller polls an empty ring before it sleeps (0: the default,
	 * %DRM_VATOM_QUEUE_POLL_IDLE_US_DEFAULT). 0 otherwise.
	 */
	__u32 poll_idle_us;
	/** @syncobj: In. Syncobj to add a point to per batch, or 0. */
	__u32 syncobj;
	/** @eventfd: In. With %DRM_VATOM_QUEUE_CREATE_EVENTFD: the eventfd. */
	__s32 eventfd;
	/**
	 * @poll_cpu: In. With %DRM_VATOM_QUEUE_CREATE_POLL_CPU: the CPU the
	 * process's poller runs on. 0 otherwise. (Before UAPI version 9: pad,
	 * zero.)
	 */
	__u32 poll_cpu;
};

/**
 * struct drm_vatom_queue_destroy - destroy a queue
 *
 * A KICK running in another thread stops after its current job. The ring
 * and control page stay as long as handles or mappings to them do.
 * Closing the file destroys its queues. Returns 0, -EINVAL for non-zero
 * @pad, -ENOENT for an unknown @queue_id.
 */
struct drm_vatom_queue_destroy {
	/** @queue_id: In. The queue. */
	__u32 queue_id;
	/** @pad: In. MBZ. */
	__u32 pad;
};

/**
 * struct drm_vatom_queue_kick - consume a queue's ring
 *
 * Kick mode: consumes every descriptor from the queue's head to the @tail
 * read at the start of the call, in the calling thread; returns when they
 * are all complete. Kicks of one queue run one at a time (a second
 * waits). Polling mode: wakes a sleeping poller and returns at once (the
 * poller clears %DRM_VATOM_QUEUE_CTL_NEED_WAKEUP and consumes); while the
 * poller is awake (it may be serving the process's other queues), consumes
 * as in kick mode, after the batch the poller may be running on this
 * queue, so a producer that asks does its own jobs rather than wait.
 *
 * Returns 0 (each job's outcome is in its descriptor); -EINVAL for
 * non-zero @pad, or when @tail is more than the ring's entries ahead of
 * @head (nothing is consumed, and the poller passes the queue by);
 * -ENOENT for an unknown @queue_id; -ENOMEM (when it consumes, with a
 * @syncobj, nothing consumed); -ENODEV when the device is gone: before
 * the call, or during it, once every job of the batch has completed
 * (those it did not execute with @status -ENODEV); -EINTR when the
 * caller was killed (the jobs completed so far are in @completed; one
 * cut short has @status -ECANCELED) or interrupted waiting for another
 * kick of the queue, or its poller.
 */
struct drm_vatom_queue_kick {
	/** @queue_id: In. The queue. */
	__u32 queue_id;
	/** @pad: In. MBZ. */
	__u32 pad;
};

/* ------------------------------------------------------------------------ */
/* Job timeouts and resets                                                   */
/* ------------------------------------------------------------------------ */

/**
 * DOC: job timeouts and resets
 *
 * A job that has not completed %DRM_VATOM_PARAM_JOB_TIMEOUT_MS after it
 * began executing is stopped at its next checkpoint, between two packets:
 * the packets before ran, each whole, none after. Its fence signals with
 * -ETIMEDOUT; a synchronous SUBMIT returns -ETIMEDOUT, a queue job's
 * @status is -ETIMEDOUT. Every door times its jobs the same way, from the
 * start of their execution.
 *
 * A job that timed out, or that failed with an engine fault (-EIO, only
 * ever injected: docs/robustness.md), *resets* its file (the context): the
 * file is *guilty* until it acknowledges the reset. Meanwhile its jobs
 * submitted before the reset that had not started do not execute (their
 * fences signal -ECANCELED), its submissions fail with -EIO (changing
 * nothing), and its queues complete each job with @status -EIO without
 * executing it. Every other file is *innocent*: its jobs go on, unaffected.
 * This is amdgpu's guilty context, with a way back: a file that
 * acknowledges (%DRM_VATOM_RESET_ACK) submits again, its memory as the
 * jobs left it.
 *
 * Every reset leaves a devcoredump of the job as it stopped
 * (/sys/class/devcoredump/devcdN/data, its failing_device the vatom
 * device): the client, the door and reason, the stream, the bindings, the
 * packets completed and the surfaces' bytes, as versioned text
 * (docs/robustness.md, "Reading a hang"; the module parameters coredump
 * and coredump_max_kb). `vatom dump` decodes it, `vatom replay` runs the
 * rest of the job.
 *
 * Fault injection (debugfs, CONFIG_FAULT_INJECTION_DEBUG_FS) makes jobs
 * hang, fault or start late, and pollers stall, on demand.
 */

/**
 * DOC: device loss
 *
 * A device can go away under its open files: its platform driver unbound
 * (/sys/bus/platform/drivers/vatom/unbind), as a hot-unplugged card
 * would. From then on every ioctl on its files, vatom's and the DRM
 * core's, fails with -ENODEV, and so does mmap(); existing mappings are
 * revoked, and an access raises SIGBUS. Its jobs stop: one executing at
 * its next checkpoint (a prefix of whole packets ran), the others without
 * executing, all with their fences signalled -ENODEV (a synchronous SUBMIT
 * in progress returns -ENODEV; a queue job's @status is -ENODEV). Fences
 * and sync_files exported before stay valid. Closing the files frees
 * what they held. Binding the driver again creates a new device, with a
 * render node of its own (a new minor while old files are still open).
 */

/* drm_vatom_reset_status.status */
#define DRM_VATOM_RESET_NONE		0	/* no reset since the last ACK */
#define DRM_VATOM_RESET_GUILTY		1	/* this file's job timed out or faulted */
#define DRM_VATOM_RESET_INNOCENT	2	/* another file's did; nothing lost here */

/* drm_vatom_reset_status.flags */
#define DRM_VATOM_RESET_ACK		(1u << 0)

/**
 * struct drm_vatom_reset_status - a file's reset status, as
 * GL_ARB_robustness's GetGraphicsResetStatus reports it
 * (%DRM_VATOM_CAP_RESET_STATUS)
 *
 * Reports the file's status since it was opened or last acknowledged; with
 * %DRM_VATOM_RESET_ACK it then acknowledges: the file is no longer guilty,
 * and the next call reports %DRM_VATOM_RESET_NONE until another reset.
 *
 * Returns 0; -EINVAL for unknown @flags or non-zero @pad; -EINTR/-ERESTARTSYS
 * when interrupted waiting for a synchronous job of the file that is
 * executing (it holds the file up to the job timeout).
 */
struct drm_vatom_reset_status {
	/** @flags: In. DRM_VATOM_RESET_ACK or 0. */
	__u32 flags;
	/** @status: Out. DRM_VATOM_RESET_*, before any acknowledgment. */
	__u32 status;
	/** @guilty: Out. Resets this file caused since it was opened. */
	__u64 guilty;
	/** @innocent: Out. Resets other files caused since this file was opened. */
	__u64 innocent;
	/** @pad: In. MBZ. */
	__u64 pad;
};

#if defined(__cplusplus)
}
#endif

#endif /* _VATOM_DRM_H_ */
