// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-classify.c - libFuzzer target for the classifier, shadow stack
 * and engine: random code and stack memory, random stop sequences.
 * Checks that the engine neither crashes nor reads out of bounds, that
 * every event is well-formed, and that event depths follow the shadow
 * stack exactly.
 *
 * Input: [0] options, [1] max_depth, 256 bytes of code, 256 bytes of
 * stack, then 4 bytes per stop (ip offset, sp offset; offsets past the
 * regions land in unmapped memory).
 */
/* fuzz-sources: runtime/insn.c runtime/classify.c runtime/shadow.c runtime/thread.c */
/* fuzz-options: -max_len=1500 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "dcg_core.h"

#define CODE_BASE	0x10000ULL
#define STK_BASE	0x7f000000ULL
#define REGION		256

static uint8_t code[REGION];
static uint8_t stack[REGION];

static int fz_read(void *ctx, dcg_u64 addr, void *buf, unsigned int len)
{
	const uint8_t *mem;
	dcg_u64 base, n;

	if (addr >= CODE_BASE && addr < CODE_BASE + REGION) {
		mem = code;
		base = CODE_BASE;
	} else if (addr >= STK_BASE && addr < STK_BASE + REGION) {
		mem = stack;
		base = STK_BASE;
	} else {
		return 0;
	}
	n = base + REGION - addr;
	if (n > len)
		n = len;
	memcpy(buf, mem + (addr - base), n);
	return (int)n;
}

/* Functions are the 32-byte pieces of the code region. */
static int fz_bounds(void *ctx, dcg_u64 addr, dcg_u64 *start, dcg_u64 *end)
{
	if (addr < CODE_BASE || addr >= CODE_BASE + REGION)
		return -1;
	*start = addr & ~31ULL;
	*end = *start + 32;
	return 0;
}

struct check {
	dcg_u32 depth;		/* what the events say the depth is */
	dcg_u32 cap;
	dcg_u64 ts;
	dcg_u64 seen;
	int in_end;
	int in_begin;
};

static struct check ck;

#define must(x) do { if (!(x)) abort(); } while (0)

static void fz_emit(void *ctx, const struct dcg_rec_event *ev)
{
	const unsigned int known = DCG_EVF_SYNTHETIC | DCG_EVF_INDIRECT |
		DCG_EVF_UNMATCHED | DCG_EVF_SKIPPED | DCG_EVF_OVERFLOW |
		DCG_EVF_ROOT | DCG_EVF_END;

	ck.seen++;
	must(ev->r.type == DCG_REC_EVENT);
	must(ev->r.size == sizeof(*ev) && ev->r.size % 8 == 0);
	must(ev->r.tid == 0 && ev->cpu == 0);
	must(ev->ts == ck.ts);
	must((ev->flags & ~known) == 0);
	must(!(ev->flags & DCG_EVF_ROOT) == !ck.in_begin);
	must(!(ev->flags & DCG_EVF_END) == !ck.in_end);
	switch (ev->kind) {
	case DCG_EV_CALL:
	case DCG_EV_ASYNC:
		must(ev->depth == ck.depth + 1);
		must(!(ev->flags & DCG_EVF_OVERFLOW) == !(ev->depth > ck.cap));
		must(!(ev->flags & (DCG_EVF_SYNTHETIC | DCG_EVF_UNMATCHED |
				    DCG_EVF_END)));
		break;
	case DCG_EV_RET:
		if (ev->flags & DCG_EVF_UNMATCHED) {
			must(ck.depth == 0 && ev->depth == 0);
			must(ev->flags == DCG_EVF_UNMATCHED);
		} else {
			must(ev->depth + 1 == ck.depth);
			must(!(ev->flags & DCG_EVF_OVERFLOW) ==
			     !(ck.depth > ck.cap));
		}
		must(!((ev->flags & DCG_EVF_SYNTHETIC) &&
		       (ev->flags & DCG_EVF_END)));
		must(!(ev->flags & (DCG_EVF_INDIRECT | DCG_EVF_SKIPPED |
				    DCG_EVF_ROOT)));
		break;
	case DCG_EV_TAILCALL:
		must(ck.depth > 0 && ev->depth == ck.depth);
		must(ck.depth <= ck.cap);
		must(!(ev->flags & ~DCG_EVF_INDIRECT));
		break;
	default:
		abort();
	}
	ck.depth = ev->depth;
}

static dcg_u64 pick(const uint8_t *p, dcg_u64 base)
{
	unsigned int off = p[0] | (p[1] & 0x01) << 8;

	return base + off - (p[1] & 0x02 ? 8 : 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct dcg_frame frames[8];
	struct dcg_host_ops ops = { .read = fz_read, .emit = fz_emit };
	struct dcg_thread t;
	unsigned int opt, cap;
	dcg_u64 events0;
	size_t i;
	int n;

	if (size < 2 + 2 * REGION)
		return 0;
	opt = data[0];
	memcpy(code, data + 2, REGION);
	memcpy(stack, data + 2 + REGION, REGION);
	cap = 1 + ((opt >> 2) & 7);
	if (opt & 2)
		ops.func_bounds = fz_bounds;
	dcg_thread_init(&t, opt & 1 ? DCG_MODE_BLOCK : DCG_MODE_STEP, frames,
			cap);
	t.max_depth = data[1] & 7;
	ck.depth = 0;
	ck.cap = cap;
	ck.seen = 0;
	ck.ts = 1;
	ck.in_end = 0;
	if (opt & 0x20) {
		dcg_thread_begin_here(&t, CODE_BASE, STK_BASE + REGION / 2, 1);
	} else {
		ck.in_begin = 1;
		dcg_thread_begin(&t, CODE_BASE, STK_BASE + REGION / 2,
				 CODE_BASE + REGION + 1, 1, &ops);
		ck.in_begin = 0;
		must(ck.seen == 1);
	}
	must(ck.depth == t.shadow.depth);
	for (i = 2 + 2 * REGION; i + 4 <= size; i += 4) {
		ck.ts++;
		events0 = ck.seen;
		n = dcg_thread_stop(&t, pick(data + i, CODE_BASE),
				    pick(data + i + 2, STK_BASE), ck.ts, &ops);
		must(n >= 0 && (dcg_u64)n == ck.seen - events0);
		must(ck.depth == t.shadow.depth);
		must(t.shadow.depth <= cap || t.shadow.overflow > 0);
	}
	ck.ts++;
	ck.in_end = 1;
	dcg_thread_end(&t, ck.ts, &ops);
	must(t.shadow.depth == 0 && ck.depth == 0);
	must(t.stats.events == ck.seen);
	must(t.stats.stops == (size - 2 - 2 * REGION) / 4);
	must(t.stats.read_errors >= 0);
	return 0;
}
