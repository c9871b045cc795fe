// SPDX-License-Identifier: GPL-2.0
/*
 * A QEMU TCG plugin that counts the guest instructions each translation
 * block executes between two marks, for scripts/vm-profile.sh: where one
 * call's instructions go, by kernel function, as exactly as the counted
 * bench measures its total (make bench-icount).
 *
 *   -plugin build/bench/iprof.so,arg=out=FILE,arg=start=ADDR,arg=stop=ADDR
 *
 * The guest executing the block at ADDR start (vm_bench's
 * vm_bench_profile_start(), a static binary's fixed address) snapshots
 * every block's count; at stop, what each block executed since is added
 * to its total. At exit FILE gets one line per block that ran inside the
 * marks: "VADDR INSNS EXECUTIONS" (hex, decimal, decimal), after a line
 * "# windows N" (how many start-stop windows closed). A block left early
 * (an interrupt, a fault) counts whole: blocks end at every branch, so
 * the error is a few instructions per interrupt.
 *
 * QEMU installs no header for its plugin API (Debian's qemu-system-x86
 * loads plugins but ships no qemu-plugin.h): the few calls used are
 * declared below, as the API of QEMU_PLUGIN_VERSION 1 (QEMU 4.2 to 8.x)
 * defines them.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;
typedef struct {
	const char *target_name;
	struct {
		int min, cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus, max_vcpus;
		} system;
	};
} qemu_info_t;
struct qemu_plugin_tb;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
		void (*cb)(qemu_plugin_id_t, struct qemu_plugin_tb *));
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
		enum qemu_plugin_op op, void *ptr, uint64_t imm);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
		void (*cb)(unsigned int, void *),
		enum qemu_plugin_cb_flags flags, void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
		void (*cb)(qemu_plugin_id_t, void *), void *userdata);

EXPORT int qemu_plugin_version = 1;

/* One translation of a block; a block translated again gets another. */
struct block {
	uint64_t vaddr, insns;
	uint64_t count;		/* executions, by the inline add */
	uint64_t snap;		/* count at the last start mark */
	uint64_t inside;	/* executions between marks */
	struct block *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct block *blocks;
static uint64_t start_addr, stop_addr;
static const char *out_path;
static int windows;

/* At a mark: @start snapshots every count, the stop adds what ran since. */
static void mark(unsigned int vcpu, void *start)
{
	struct block *b;

	pthread_mutex_lock(&lock);
	for (b = blocks; b; b = b->next) {
		if (start)
			b->snap = b->count;
		else
			b->inside += b->count - b->snap;
	}
	if (!start)
		windows++;
	pthread_mutex_unlock(&lock);
}

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	struct block *b = calloc(1, sizeof(*b));

	if (!b)
		abort();
	b->vaddr = qemu_plugin_tb_vaddr(tb);
	b->insns = qemu_plugin_tb_n_insns(tb);
	pthread_mutex_lock(&lock);
	b->next = blocks;
	blocks = b;
	pthread_mutex_unlock(&lock);
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &b->count, 1);
	if (b->vaddr == start_addr || b->vaddr == stop_addr)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, mark,
			QEMU_PLUGIN_CB_NO_REGS,
			b->vaddr == start_addr ? (void *)1 : NULL);
}

static void write_out(qemu_plugin_id_t id, void *unused)
{
	FILE *f = fopen(out_path, "w");
	struct block *b;

	if (!f) {
		perror(out_path);
		return;
	}
	fprintf(f, "# windows %d\n", windows);
	for (b = blocks; b; b = b->next)
		if (b->inside)
			fprintf(f, "%" PRIx64 " %" PRIu64 " %" PRIu64 "\n",
				b->vaddr, b->insns, b->inside);
	fclose(f);
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
			       int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4))
			out_path = argv[i] + 4;
		else if (!strncmp(argv[i], "start=", 6))
			start_addr = strtoull(argv[i] + 6, NULL, 16);
		else if (!strncmp(argv[i], "stop=", 5))
			stop_addr = strtoull(argv[i] + 5, NULL, 16);
	}
	if (!out_path || !start_addr || !stop_addr) {
		fprintf(stderr, "iprof: needs out=FILE,start=ADDR,stop=ADDR\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
	qemu_plugin_register_atexit_cb(id, write_out, NULL);
	return 0;
}
