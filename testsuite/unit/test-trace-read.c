// SPDX-License-Identifier: GPL-2.0
/*
 * test-trace-read - unit tests of the one trace reader, on records built
 * here in memory.  Prints PASS:/FAIL: lines for dcg_run_unit.
 */
#include <stdio.h>
#include <string.h>

#include "trace_read.h"

static int failures;

static void check(int ok, const char *what)
{
	printf("%s: %s\n", ok ? "PASS" : "FAIL", what);
	failures += !ok;
}

/* A little trace builder: records appended to one 8-aligned buffer. */
static union {
	dcg_u64 align;
	unsigned char b[8192];
} buf;
static size_t len;

static void *add(unsigned int type, size_t size, dcg_u32 tid)
{
	struct dcg_rec *r = (void *)(buf.b + len);

	memset(r, 0, size);
	dcg_rec_init(r, type, size, tid);
	len += size;
	return r;
}

static void add_header(void)
{
	struct dcg_rec_header *h = add(DCG_REC_HEADER, sizeof(*h), 0);

	dcg_rec_header_fill(h, DCG_HOST_PTRACE, DCG_MODE_STEP, 0, 0, 1000);
	memcpy(h->comm, "unit", 4);
}

static void add_event(unsigned int kind, dcg_u32 depth)
{
	struct dcg_rec_event *ev = add(DCG_REC_EVENT, sizeof(*ev), 7);

	dcg_rec_event_fill(ev, 7, kind, 0, 0, 0, 0);
	ev->depth = depth;
}

static void add_lost(dcg_u64 count, unsigned int reason)
{
	struct dcg_rec_lost *l = add(DCG_REC_LOST, sizeof(*l), 7);

	dcg_rec_lost_fill(l, 7, 0, count, reason);
}

static void add_map(const char *path)
{
	size_t size = (sizeof(struct dcg_rec_map) + strlen(path) + 1 + 7) & ~7ul;
	struct dcg_rec_map *m = add(DCG_REC_MAP, size, 7);

	dcg_rec_map_fill(m, 7, size, 0x400000, 0x401000, 0, 0);
	strcpy((char *)(m + 1), path);
}

/* Read everything; returns the count of records, *rc the last result. */
static int read_all(struct dcg_reader *r, int *rc)
{
	const struct dcg_rec *rec;
	int n = 0;

	while ((*rc = dcg_reader_next(r, &rec)) > 0)
		n++;
	return n;
}

static void test_good_trace(void)
{
	struct dcg_reader r;
	struct dcg_rec_stats *st;
	int n, rc;

	len = 0;
	add_header();
	add_map("/bin/true");
	add_event(DCG_EV_CALL, 1);
	add(99, 24, 0);			/* unknown type: skipped */
	add_event(DCG_EV_RET, 1);
	add_lost(3, DCG_LOST_BUFFER);
	add_lost(2, DCG_LOST_BUDGET);
	st = add(DCG_REC_STATS, sizeof(*st), 0);
	st->produced = 7;
	st->dropped = 5;

	check(dcg_reader_open_mem(&r, "mem", buf.b, len) == 0, "open memory");
	n = read_all(&r, &rc);
	check(n == 8 && rc == 0, "8 records and a clean end");
	check(r.count[DCG_REC_EVENT] == 2 && r.count[DCG_REC_MAP] == 1,
	      "records counted by type");
	check(r.unknown == 1, "unknown type skipped and counted");
	check(r.lost == 5 && r.lost_by_reason[DCG_LOST_BUFFER] == 3 &&
	      r.lost_by_reason[DCG_LOST_BUDGET] == 2, "LOST summed by reason");
	check(r.have_stats && r.stats.dropped == 5 && r.stats.produced == 7,
	      "STATS kept");
	check(r.have_header && r.header.start_ns == 1000, "header kept");
	check(dcg_reader_rewind(&r) == 0, "rewind memory input");
	n = read_all(&r, &rc);
	check(n == 8 && rc == 0 && r.lost == 5 && r.unknown == 1,
	      "second pass gives the same, counters restarted");
	dcg_reader_close(&r);
}

/*
 * Version 1 (events of 48 bytes, no insns) is still read: each event is
 * handed out whole, insns 0, and the reader says there are no counts.
 */
static void test_version1(void)
{
	struct dcg_rec_header *h;
	struct dcg_rec_event *ev;
	const struct dcg_rec *rec;
	struct dcg_reader r;
	int n = 0, ok = 1, rc;

	len = 0;
	add_header();
	((struct dcg_rec_header *)buf.b)->version = 1;
	ev = add(DCG_REC_EVENT, DCG_EVENT_SIZE_V1, 7);
	ev->kind = DCG_EV_CALL;
	ev->depth = 1;
	ev = add(DCG_REC_EVENT, DCG_EVENT_SIZE_V1, 7);
	ev->kind = DCG_EV_RET;
	ev->depth = 0;
	/* what would be insns of a 56-byte event is the next record */
	h = add(DCG_REC_HEADER, sizeof(*h), 0);
	memcpy(h->magic, DCG_TRACE_MAGIC, 8);
	h->version = 1;
	h->host = DCG_HOST_PTRACE;
	h->mode = DCG_MODE_STEP;
	check(dcg_reader_open_mem(&r, "mem", buf.b, len) == 0, "v1: open");
	while ((rc = dcg_reader_next(&r, &rec)) > 0) {
		const struct dcg_rec_event *e = (const void *)rec;

		if (rec->type != DCG_REC_EVENT)
			continue;
		if (e->insns != 0 || e->depth != (n ? 0u : 1u) ||
		    e->r.size != DCG_EVENT_SIZE_V1)
			ok = 0;
		n++;
	}
	check(rc == 0 && n == 2 && ok, "v1: 48-byte events read, insns 0");
	check(!dcg_reader_has_insns(&r), "v1: no instruction counts");
	dcg_reader_close(&r);

	len = 0;
	add_header();
	add_event(DCG_EV_CALL, 1);
	dcg_reader_open_mem(&r, "mem", buf.b, len);
	while (dcg_reader_next(&r, &rec) > 0)
		;
	check(dcg_reader_has_insns(&r), "v2: instruction counts");
	dcg_reader_close(&r);
}

/* A trace longer than the memory reader's buffer (2 x 4096 bytes). */
static void test_refill(void)
{
	struct dcg_reader r;
	const struct dcg_rec *rec;
	int i, n = 0, ok = 1, rc;

	len = 0;
	add_header();
	for (i = 0; i < 160; i++)	/* 160 x 56 = 8960 bytes of events */
		add_event(DCG_EV_CALL, i + 1);
	dcg_reader_open_mem(&r, "mem", buf.b, len);
	while ((rc = dcg_reader_next(&r, &rec)) > 0) {
		if (rec->type == DCG_REC_EVENT &&
		    ((const struct dcg_rec_event *)rec)->depth != (dcg_u32)n)
			ok = 0;
		if ((size_t)rec & 7)
			ok = 0;
		n++;
	}
	check(rc == 0 && n == 161 && ok,
	      "records across buffer refills: in order, 8-aligned");
	dcg_reader_close(&r);
}

static void expect_error(const char *what, const char *msg)
{
	struct dcg_reader r;
	const struct dcg_rec *rec;
	char name[256];
	int rc;

	dcg_reader_open_mem(&r, "mem", buf.b, len);
	read_all(&r, &rc);
	check(rc == -1 && strcmp(dcg_reader_error(&r), msg) == 0, what);
	if (rc != -1 || strcmp(dcg_reader_error(&r), msg))
		printf("INFO: got '%s'\n", dcg_reader_error(&r));
	snprintf(name, sizeof(name), "%s: error is sticky", what);
	check(dcg_reader_next(&r, &rec) == -1, name);
	dcg_reader_close(&r);
}

static void test_errors(void)
{
	struct dcg_rec_header *h;

	len = 0;
	expect_error("empty input", "mem: offset 0: empty file, not a dyncg trace");

	len = 0;
	add_header();
	add_event(DCG_EV_CALL, 1);
	len -= 8;
	expect_error("truncated event",
		     "mem: offset 56: truncated record: 48 of 56 bytes (type 2)");

	len = 0;
	add_header();
	add_event(7, 1);
	expect_error("event kind 7", "mem: offset 56: event of unknown kind 7");

	len = 0;
	add_event(DCG_EV_CALL, 1);
	expect_error("event before the header",
		     "mem: offset 0: not a dyncg trace (does not start with a header record)");

	len = 0;
	h = add(DCG_REC_HEADER, sizeof(*h), 0);
	memcpy(h->magic, DCG_TRACE_MAGIC, 8);
	h->version = 9;
	expect_error("version 9",
		     "mem: offset 0: unsupported trace version 9 (this reader reads versions 1 to 3)");

	/* version 2 events are 56 bytes: a 48-byte one is too small */
	len = 0;
	add_header();
	add(DCG_REC_EVENT, DCG_EVENT_SIZE_V1, 7);
	expect_error("version 2 event of the version 1 size",
		     "mem: offset 56: event record too small: size 48, needs at least 56");

	/* one stream, one event size */
	len = 0;
	add_header();
	h = add(DCG_REC_HEADER, sizeof(*h), 0);
	memcpy(h->magic, DCG_TRACE_MAGIC, 8);
	h->version = 1;
	h->host = DCG_HOST_PTRACE;
	h->mode = DCG_MODE_STEP;
	expect_error("a version 1 header after a version 2 one",
		     "mem: offset 56: header record: version 1 differs from the first header's 3");

	len = 0;
	add_header();
	add_map("/x");
	((struct dcg_rec *)(buf.b + 56))->size = 64;	/* no room for path */
	len = 56 + 64;
	expect_error("map without a path",
		     "mem: offset 56: map record too small: size 64, needs at least 72");
}

/*
 * Version 3: an event longer than 56 bytes carries a register block;
 * dcg_ev_argv_get() unpacks it, strings pointing into the record.  In
 * a version 2 trace the same bytes are no block.
 */
static void add_args_event(unsigned int kind, dcg_u32 depth)
{
	/* 56 + head 8 + 3 values 24 + string head 8 + "hello" padded 8 */
	struct dcg_rec_event *ev = add(DCG_REC_EVENT, 104, 7);
	unsigned char *p = (unsigned char *)(ev + 1);
	struct dcg_ev_args *a = (void *)p;
	dcg_u64 v[3] = { 0x11, 0xfffffffffffffffeull, 0x7ffc0000a000ull };
	struct dcg_ev_str *s = (void *)(p + 8 + 24);

	ev->kind = kind;
	ev->depth = depth;
	a->nregs = 3;
	a->nstr = 1;
	memcpy(p + 8, v, sizeof(v));
	s->argno = 2;
	s->flags = DCG_STR_TRUNC;
	s->len = 5;
	memcpy(s + 1, "hello", 5);
}

static void test_args(void)
{
	const struct dcg_rec *rec;
	struct dcg_ev_argv a;
	struct dcg_reader r;
	const struct dcg_ev_strv *sv;
	int n = 0;

	len = 0;
	add_header();
	((struct dcg_rec_header *)buf.b)->version = 3;
	add_args_event(DCG_EV_CALL, 1);
	add_event(DCG_EV_RET, 0);
	check(dcg_reader_open_mem(&r, "mem", buf.b, len) == 0, "open v3");
	while (dcg_reader_next(&r, &rec) > 0) {
		if (rec->type != DCG_REC_EVENT)
			continue;
		dcg_ev_argv_get(&r, (const void *)rec, &a);
		if (n++ == 0) {
			sv = dcg_ev_argv_str(&a, 2);
			check(a.present && a.nregs == 3 && a.nstr == 1 &&
			      a.regs[0] == 0x11 &&
			      a.regs[1] == 0xfffffffffffffffeull &&
			      a.regs[2] == 0x7ffc0000a000ull, "v3: the values");
			check(sv && sv->len == 5 && !memcmp(sv->bytes, "hello", 5) &&
			      sv->flags == DCG_STR_TRUNC && !dcg_ev_argv_str(&a, 0),
			      "v3: the string of register 2");
		} else {
			check(!a.present, "v3: a 56-byte event has no block");
		}
	}
	check(n == 2 && !r.err[0], "v3: both events read");
	dcg_reader_close(&r);

	len = 0;
	add_header();
	((struct dcg_rec_header *)buf.b)->version = 2;
	add_args_event(DCG_EV_CALL, 1);
	check(dcg_reader_open_mem(&r, "mem", buf.b, len) == 0, "open v2");
	n = 0;
	while (dcg_reader_next(&r, &rec) > 0)
		if (rec->type == DCG_REC_EVENT) {
			dcg_ev_argv_get(&r, (const void *)rec, &a);
			check(!a.present, "v2: bytes after an event are no block");
			n++;
		}
	check(n == 1 && !r.err[0], "v2: the long event read");
	dcg_reader_close(&r);
}

static struct dcg_rec_profile *add_profile(dcg_u32 nent)
{
	struct dcg_rec_profile *p;
	struct dcg_prof_ent *e;
	dcg_u32 i;

	p = add(DCG_REC_PROFILE, sizeof(*p) + nent * sizeof(*e), 7);
	p->nent = nent;
	p->flags = DCG_PROF_LAST;
	p->dropped = 5;
	e = (void *)(p + 1);
	for (i = 0; i < nent; i++) {
		e[i].start = 0x401000 + 16 * i;
		e[i].ninsns = 1 + i;
		e[i].count = 3;
	}
	return p;
}

/* PROFILE records (dcg-trace --annotate): what a tracer can write. */
static void test_profile(void)
{
	const struct dcg_rec *rec;
	struct dcg_rec_profile *p;
	struct dcg_prof_ent *e;
	struct dcg_reader r;
	int rc, n = 0, ok = 0;

	len = 0;
	add_header();
	add_profile(2);
	add_profile(0);
	dcg_reader_open_mem(&r, "mem", buf.b, len);
	while ((rc = dcg_reader_next(&r, &rec)) > 0) {
		n++;
		if (rec->type == DCG_REC_PROFILE &&
		    ((const struct dcg_rec_profile *)rec)->nent == 2)
			ok = dcg_rec_profile_ent((const void *)rec)[1].ninsns == 2;
	}
	check(rc == 0 && n == 3 && ok && r.profile_dropped == 10 &&
	      r.count[DCG_REC_PROFILE] == 2,
	      "profile records: read, entries and dropped");
	rc = dcg_reader_rewind(&r);
	while (rc == 0 && dcg_reader_next(&r, &rec) > 0)
		;	/* read it all a second time */
	check(rc == 0 && r.profile_dropped == 10 &&
	      r.count[DCG_REC_PROFILE] == 2,
	      "profile records: a second pass counts them once");
	dcg_reader_close(&r);

	len = 0;
	add_header();
	p = add_profile(2);
	p->nent = 3;
	expect_error("profile: nent beyond its size",
		     "mem: offset 56: profile record: size 80 does not hold its 3 entries (needs 104)");

	len = 0;
	add_header();
	p = add_profile(2);
	p->flags = 0x6;
	expect_error("profile: unknown flags",
		     "mem: offset 56: profile record: flags 0x6 unknown");

	len = 0;
	add_header();
	p = add_profile(2);
	e = (void *)(p + 1);
	e[1].count = 0;
	expect_error("profile: an entry that never ran",
		     "mem: offset 56: profile record: entry 1 has 2 insns run 0 times (both must be >= 1)");

	len = 0;
	add_header();
	p = add_profile(1);
	e = (void *)(p + 1);
	e[0].start = ~0ull - 1;
	e[0].ninsns = 4;
	expect_error("profile: a run that wraps",
		     "mem: offset 56: profile record: entry 0 at 0xfffffffffffffffe wraps around the address space");

	len = 0;
	add_header();
	add(DCG_REC_PROFILE, 24, 7);
	expect_error("profile: too small",
		     "mem: offset 56: profile record too small: size 24, needs at least 32");
}

int main(void)
{
	test_profile();
	test_good_trace();
	test_args();
	test_refill();
	test_version1();
	test_errors();
	return failures ? 1 : 0;
}
