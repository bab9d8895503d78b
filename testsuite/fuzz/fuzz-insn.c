// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-insn - libFuzzer target for dcg_insn_decode().
 *
 * The input is decoded from an exactly-sized heap copy, so that ASan
 * catches any read past avail.  Invariants checked (abort on failure):
 *  - the result is a length 1..15 that fits in avail, ESHORT, or EINVAL;
 *  - ESHORT only when avail < 15;
 *  - after EINVAL, len (the resync skip) is 1..min(avail, 15);
 *  - a valid decode is unchanged when more bytes follow, and turns into
 *    ESHORT when any of its own bytes are cut off;
 *  - only direct branches have a target; only branches carry bnd;
 *    only indirect call/jmp carry notrack.
 */
/* fuzz-sources: runtime/insn.c */
/* fuzz-options: -max_len=32 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcg_insn.h"

#define CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "fuzz-insn: invariant failed: %s\n", #cond); \
		abort();						\
	}								\
} while (0)

static int decode_copy(const uint8_t *data, size_t n, size_t pad,
		       uint8_t fill, struct dcg_insn *out)
{
	uint8_t *buf = malloc(n + pad ? n + pad : 1);
	int ret;

	CHECK(buf != NULL);
	memcpy(buf, data, n);
	memset(buf + n, fill, pad);
	ret = dcg_insn_decode(buf, n + pad, 0x7fff0000, out);
	free(buf);
	return ret;
}

static void check_flags(const struct dcg_insn *in)
{
	int direct = in->branch == DCG_BR_CALL || in->branch == DCG_BR_JMP ||
		     in->branch == DCG_BR_JCC || in->branch == DCG_BR_LOOP;

	CHECK(in->branch < DCG_BR_NR);
	CHECK(!!(in->flags & DCG_INSN_HAS_TARGET) == direct);
	if (in->flags & DCG_INSN_NOTRACK)
		CHECK(in->branch == DCG_BR_CALL_IND ||
		      in->branch == DCG_BR_JMP_IND);
	if (in->flags & DCG_INSN_BND)
		CHECK(in->branch != DCG_BR_OTHER);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dcg_insn in, more;
	size_t avail = size > 20 ? 20 : size;
	int ret, ret2;
	size_t cut;

	ret = decode_copy(data, avail, 0, 0, &in);
	CHECK(ret == DCG_INSN_ESHORT || ret == DCG_INSN_EINVAL ||
	      (ret >= 1 && ret <= DCG_INSN_MAX_LEN && (size_t)ret <= avail));
	if (ret == DCG_INSN_ESHORT) {
		CHECK(avail < DCG_INSN_MAX_LEN);
		return 0;
	}
	if (ret == DCG_INSN_EINVAL) {
		CHECK(in.len >= 1 && in.len <= avail &&
		      in.len <= DCG_INSN_MAX_LEN);
		ret2 = decode_copy(data, avail, 16, 0x66, &more);
		CHECK(ret2 == DCG_INSN_EINVAL && more.len == in.len);
		return 0;
	}
	CHECK(in.len == ret);
	check_flags(&in);

	/* more bytes after the instruction change nothing */
	ret2 = decode_copy(data, avail, 16, 0x0f, &more);
	CHECK(ret2 == ret && memcmp(&in, &more, sizeof(in)) == 0);

	/* any cut inside the instruction is short */
	for (cut = 0; cut < (size_t)ret; cut++)
		CHECK(decode_copy(data, cut, 0, 0, &more) == DCG_INSN_ESHORT);
	return 0;
}
