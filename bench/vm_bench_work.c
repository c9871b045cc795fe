// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * vm_bench: the workloads: the streams each row submits and the native loops
 * they are compared with.
 *
 * Part of vm_bench.c's one translation unit (its output, device and
 * summary helpers); not built alone.
 */

/* ---- workloads: streams and the equivalent native loops ---- */

enum kind { K_INT, K_INT_NODST, K_F32_V4, K_F32, K_CAS, K_NOC_INCR, K_NOC_ACC };

struct work {
	enum kind kind;
	u32 elems;		/* element operations */
	u32 per_packet;		/* elements per packet */
	u32 *offs;		/* byte offset of each element */
	u32 *src0, *src1;	/* operands */
	u8 *stream;
	u32 stream_size;	/* bytes of one packet * packets */
	u32 pkt_size;
	u64 res_size;		/* results of the whole stream */
};

static const char *kind_name(enum kind k)
{
	switch (k) {
	case K_INT: return "vISA DWORD_ATOMIC.ADD UD SIMD16, Dst";
	case K_INT_NODST: return "vISA DWORD_ATOMIC.ADD UD SIMD16, no Dst";
	case K_F32_V4: return "PTX atom.global.v4.f32.add (ftz)";
	case K_F32: return "PTX atom.shared.add.f32";
	case K_CAS: return "PTX atom.global.cas.b32";
	case K_NOC_INCR: return "NoC increment (posted unicast)";
	case K_NOC_ACC: return "NoC parallel add Fmt 0 (4 fp32, ftz)";
	}
	return "?";
}

static u32 packet_size(enum kind k)
{
	switch (k) {
	case K_INT:
	case K_INT_NODST:
		return sizeof(struct drm_vatom_visa) + 4 * LANES + 4 * LANES;
	case K_F32_V4:
	case K_F32:
	case K_CAS:
		return sizeof(struct drm_vatom_ptx);
	default:
		return sizeof(struct drm_vatom_noc);
	}
}

static u32 elems_per_packet(enum kind k)
{
	switch (k) {
	case K_INT:
	case K_INT_NODST:
		return LANES;
	case K_F32_V4:
	case K_NOC_ACC:
		return 4;
	default:
		return 1;
	}
}

static bool kind_float(enum kind k)
{
	return k == K_F32_V4 || k == K_F32 || k == K_NOC_ACC;
}

/* @packets packets of @k; offsets walk the 64 KiB word by word. */
static void work_build(struct work *w, enum kind k, u32 packets)
{
	static const float fv[] = { 0.5f, 1.25f, -3.0f, 1e-3f, 7.75f,
				    -0.1f, 1024.0f, 3.0e-5f };
	u32 per = elems_per_packet(k), n = packets * per, i, p;

	memset(w, 0, sizeof(*w));
	w->kind = k;
	w->elems = n;
	w->per_packet = per;
	w->pkt_size = packet_size(k);
	w->offs = xmalloc(4 * (size_t)n);
	w->src0 = xmalloc(4 * (size_t)n);
	w->src1 = xmalloc(4 * (size_t)n);
	for (i = 0; i < n; i++) {
		u64 r = rng();

		w->offs[i] = (i % (BUF_BYTES / 4)) * 4;
		if (k == K_NOC_ACC && i % 4) {
			w->src0[i] = w->src0[i - i % 4];	/* one D a packet */
		} else if (kind_float(k)) {
			memcpy(&w->src0[i], &fv[r % 8], 4);
		} else {
			w->src0[i] = (u32)(r >> 20);
			w->src1[i] = (u32)(r & 3);	/* cas: compare 0..3 */
		}
	}
	w->stream_size = packets * w->pkt_size;
	w->stream = xmalloc(w->stream_size);
	for (p = 0; p < packets; p++) {
		u8 *q = w->stream + (size_t)p * w->pkt_size;
		u32 e = p * per;

		switch (k) {
		case K_INT:
		case K_INT_NODST: {
			struct drm_vatom_visa *v = (void *)q;

			v->hdr.type = DRM_VATOM_PACKET_VISA;
			v->hdr.size = w->pkt_size;
			v->opcode = DRM_VATOM_VISA_DWORD_ATOMIC;
			v->op = DRM_VATOM_VISA_OP_ADD;
			v->exec_size = DRM_VATOM_VISA_EXEC_16;
			v->surface = SLOT;
			v->type = DRM_VATOM_VISA_TYPE_UD;
			v->operands = DRM_VATOM_VISA_OPND_ADDR |
				      DRM_VATOM_VISA_OPND_SRC0 |
				      (k == K_INT ? DRM_VATOM_VISA_OPND_DST : 0);
			v->emask = 0xffff;
			memcpy(v + 1, &w->offs[e], 4 * LANES);
			memcpy((u8 *)(v + 1) + 4 * LANES, &w->src0[e],
			       4 * LANES);
			break;
		}
		case K_F32_V4:
		case K_F32:
		case K_CAS: {
			struct drm_vatom_ptx *x = (void *)q;

			x->hdr.type = DRM_VATOM_PACKET_PTX;
			x->hdr.size = w->pkt_size;
			x->slot = SLOT;
			x->addr = w->offs[e];
			if (k == K_CAS) {
				x->op = DRM_VATOM_PTX_OP_CAS;
				x->type = DRM_VATOM_PTX_TYPE_B32;
				x->space = DRM_VATOM_PTX_SPACE_GLOBAL;
				x->b[0] = w->src1[e];	/* compare */
				x->c[0] = w->src0[e];	/* new */
			} else {
				x->op = DRM_VATOM_PTX_OP_ADD;
				x->type = DRM_VATOM_PTX_TYPE_F32;
				x->vec = k == K_F32_V4 ? 4 : 0;
				x->space = k == K_F32_V4 ?
					   DRM_VATOM_PTX_SPACE_GLOBAL :
					   DRM_VATOM_PTX_SPACE_SHARED_CTA;
				memcpy(x->b, &w->src0[e], 4 * per);
			}
			break;
		}
		default: {
			struct drm_vatom_noc *x = (void *)q;

			x->hdr.type = DRM_VATOM_PACKET_NOC;
			x->hdr.size = w->pkt_size;
			x->slot = SLOT;
			/* from tile (0, 0) to tile (1, 0) */
			x->targ_addr_lo = w->offs[e] & ~15u;
			x->targ_addr_hi = 1;
			x->ctrl = DRM_VATOM_NOC_CTRL_REQ_ATOMIC;
			if (k == K_NOC_ACC) {
				x->at_len_be = DRM_VATOM_NOC_AT_ACC <<
					       DRM_VATOM_NOC_AT_OPCODE_SHIFT |
					       DRM_VATOM_NOC_ACC_FP32;
			} else {
				/* IntWidth 31 (a plain 32-bit add), Ofs 0 */
				x->at_len_be = DRM_VATOM_NOC_AT_INCR <<
					       DRM_VATOM_NOC_AT_OPCODE_SHIFT |
					       31 << DRM_VATOM_NOC_AT_INT_WIDTH_SHIFT;
			}
			x->at_data = w->src0[e];
			break;
		}
		}
	}
	switch (k) {
	case K_INT:
		w->res_size = 4 * (u64)n;
		break;
	case K_F32_V4:
		w->res_size = 16 * (u64)packets;
		break;
	case K_F32:
	case K_CAS:
		w->res_size = 8 * (u64)packets;
		break;
	default:
		w->res_size = 0;
	}
}

static void work_free(struct work *w)
{
	free(w->offs);
	free(w->src0);
	free(w->src1);
	free(w->stream);
}

/*
 * Native loops: the same element operations on the same surface memory,
 * with their addresses and operands read from the very stream the device
 * is given (packet by packet, as the device reads them) and their old
 * values stored where the device stores them, so that both sides touch the
 * same bytes.
 */
static void native_int(u8 *mem, const struct work *w, u32 *res, bool dst)
{
	const u8 *p = w->stream, *end = w->stream + w->stream_size;

	for (; p < end; p += w->pkt_size, res += LANES) {
		const u32 *addr = (const u32 *)(p + sizeof(struct drm_vatom_visa));
		const u32 *src0 = addr + LANES;

		for (u32 i = 0; i < LANES; i++) {
			u32 old = __atomic_fetch_add((u32 *)(mem + addr[i]),
						     src0[i], SEQ);

			if (dst)
				res[i] = old;
		}
	}
}

/* Hardware-float CAS loop on one element. */
static inline u32 native_fadd1(u32 *p, u32 bits)
{
	u32 old = __atomic_load_n(p, __ATOMIC_RELAXED), nw;
	float f, b;

	memcpy(&b, &bits, 4);
	do {
		memcpy(&f, &old, 4);
		f += b;
		memcpy(&nw, &f, 4);
	} while (!__atomic_compare_exchange_n(p, &old, nw, false, SEQ, SEQ));
	return old;
}

/* PTX add.f32, scalar (8-byte result regions) or .v4 (16-byte ones). */
static void native_ptx_fadd(u8 *mem, const struct work *w, u32 *res)
{
	const u8 *p = w->stream, *end = w->stream + w->stream_size;

	for (; p < end; p += w->pkt_size) {
		const struct drm_vatom_ptx *x = (const void *)p;
		u32 *a = (u32 *)(mem + x->addr);

		res[0] = native_fadd1(&a[0], (u32)x->b[0]);
		if (!x->vec) {
			res += 2;
			continue;
		}
		res[1] = native_fadd1(&a[1], (u32)(x->b[0] >> 32));
		res[2] = native_fadd1(&a[2], (u32)x->b[1]);
		res[3] = native_fadd1(&a[3], (u32)(x->b[1] >> 32));
		res += 4;
	}
}

/* NoC parallel add: D onto the 4 fp32 of the target block, no result. */
static void native_noc_fadd(u8 *mem, const struct work *w)
{
	const u8 *p = w->stream, *end = w->stream + w->stream_size;

	for (; p < end; p += w->pkt_size) {
		const struct drm_vatom_noc *x = (const void *)p;
		u32 *a = (u32 *)(mem + x->targ_addr_lo);

		for (u32 i = 0; i < 4; i++)
			native_fadd1(&a[i], x->at_data);
	}
}

static void native_run(u8 *mem, const struct work *w, u32 *res)
{
	unsigned int csr = _mm_getcsr();

	switch (w->kind) {
	case K_INT:
	case K_INT_NODST:
		native_int(mem, w, res, w->kind == K_INT);
		break;
	case K_F32:
		native_ptx_fadd(mem, w, res);
		break;
	case K_F32_V4:
	case K_NOC_ACC:
		/* both flush subnormals: the hardware does too */
		_mm_setcsr(csr | MXCSR_FTZ_DAZ);
		if (w->kind == K_F32_V4)
			native_ptx_fadd(mem, w, res);
		else
			native_noc_fadd(mem, w);
		_mm_setcsr(csr);
		break;
	default:
		break;
	}
}

static void init_memory(u8 *mem, bool is_float)
{
	u64 save = rng_state;

	rng_state = 0x1234567;
	for (u32 i = 0; i < BUF_BYTES / 4; i++) {
		u32 v = (u32)(rng() & 3);

		if (is_float) {
			float f = (float)(i % 100) * 0.75f;

			memcpy(&v, &f, 4);
		}
		memcpy(mem + 4 * i, &v, 4);
	}
	rng_state = save;
}

/*
 * Device vs native on the same mapped memory, @reps times alternating;
 * element operations per second. Returns false if a check failed.
 */
struct ratio_row {
	struct summary dev, nat, ratio;
	bool same;
};

/* Submit all of @w in chunks of at most max_stream bytes. */
static void submit_all(int fd, const struct work *w, u32 packets, u32 handle,
		       u8 *res, const struct surface *rs)
{
	u32 chunk = (u32)(max_stream / w->pkt_size) * w->pkt_size, done;

	for (done = 0; done < w->stream_size; done += chunk) {
		u32 len = w->stream_size - done < chunk ?
			  w->stream_size - done : chunk;
		u64 roff = w->res_size ? (u64)done / w->pkt_size *
			   (w->res_size / packets) : 0;

		if (submit_to(fd, w->stream + done, len, handle,
			      w->res_size ? res + roff : NULL,
			      w->res_size ? w->res_size - roff : 0,
			      rs ? rs->handle : 0, roff))
			exit(1);
	}
}

static bool compare_run(int fd, enum kind k, u32 packets, bool rsurf,
			struct ratio_row *row)
{
	struct work w;
	struct surface s, rs;
	u8 *mem, *init = xmalloc(BUF_BYTES);
	u32 *res_dev, *res_nat;
	double td[MAX_REPS], tn[MAX_REPS], tr[MAX_REPS], t0;
	u32 i;

	work_build(&w, k, packets);
	if (k == K_NOC_ACC)
		s = grid_create(fd, &mem);
	else
		s = buffer_create(fd, BUF_BYTES), mem = s.map;
	if (rsurf) {
		/* results straight into a mapped surface */
		rs = buffer_create(fd, w.res_size);
		res_dev = (u32 *)rs.map;
	} else {
		res_dev = xmalloc(w.res_size + 8);
	}
	res_nat = xmalloc(w.res_size + 8);
	init_memory(init, kind_float(k));

	/* Same memory, same results (native into a zeroed copy here). */
	memcpy(mem, init, BUF_BYTES);
	memset(res_dev, 0, w.res_size);
	submit_all(fd, &w, packets, s.handle, (u8 *)res_dev,
		   rsurf ? &rs : NULL);
	{
		u8 *copy = xmalloc(BUF_BYTES);

		memcpy(copy, mem, BUF_BYTES);
		memcpy(mem, init, BUF_BYTES);
		native_run(mem, &w, res_nat);
		row->same = !memcmp(copy, mem, BUF_BYTES) &&
			    !memcmp(res_dev, res_nat, w.res_size);
		free(copy);
	}

	for (i = 0; i < (u32)reps; i++) {
		memcpy(mem, init, BUF_BYTES);
		t0 = vt_now_s();
		submit_all(fd, &w, packets, s.handle, (u8 *)res_dev,
			   rsurf ? &rs : NULL);
		td[i] = w.elems / (vt_now_s() - t0);

		memcpy(mem, init, BUF_BYTES);
		t0 = vt_now_s();
		native_run(mem, &w, res_dev);
		tn[i] = w.elems / (vt_now_s() - t0);
		tr[i] = td[i] / tn[i];
	}
	row->dev = summarize(td, reps);
	row->nat = summarize(tn, reps);
	row->ratio = summarize(tr, reps);
	munmap(s.map, s.size);
	if (rsurf)
		munmap(rs.map, rs.size);
	else
		free(res_dev);
	free(init);
	free(res_nat);
	work_free(&w);
	return row->same;
}

static void print_ratio_row(const char *what, const char *native,
			    const struct ratio_row *r, const char *target,
			    bool met)
{
	out("| %s | %s | %.2f (%.2f-%.2f) | %.2f (%.2f-%.2f) | **%.2f** "
	    "(%.2f-%.2f) | %s%s | %s |\n", what, native, r->dev.med / 1e6,
	    r->dev.min / 1e6, r->dev.max / 1e6, r->nat.med / 1e6,
	    r->nat.min / 1e6, r->nat.max / 1e6, r->ratio.med, r->ratio.min,
	    r->ratio.max, target, *target ? (met ? " met" : " **missed**") : "",
	    r->same ? "yes" : "**NO**");
}
