// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-reader - libFuzzer target for the one trace reader.
 *
 * The input is read from an exactly-sized heap copy, so that ASan
 * catches any read past its end.  Invariants (abort on failure):
 *  - every record handed out lies inside the input, at the offset the
 *    reader says, with a size that is a multiple of 8 in [8, 4096];
 *  - the first record is a header with the magic and a version the
 *    reader reads (1 to 3); a version 1 event is handed out widened,
 *    with insns 0 and its first 48 bytes those of the input;
 *  - records of known types are at least their minimum size, events
 *    have a known kind, known flags and a depth in range, maps start
 *    below their end, tids are below DCG_TID_LIMIT, map paths and ksym
 *    names end inside the record; a version 3 event's register block
 *    has its counts in range and its strings inside the record;
 *  - a clean end consumed the input exactly; an error names the input
 *    and an offset inside it, and the reader then stays in error;
 *  - reading again after a rewind gives the same records and result.
 * Then every view of dcg-report runs on the records (up to the first
 * bad one, as dcg-report does; diff, which reads a second file through
 * the same reader and walk, is the one left out) into a counting
 * sink: its output must
 * stay linear in the input (OUT_PER_RECORD bytes a record), and
 * libFuzzer's -timeout and -rss_limit_mb bound its time and memory.
 *
 * The mutator knows the format (LLVMFuzzerCustomMutator): it changes
 * one field of one record (a bit of depth, kind, flags, tid, an
 * address, a map's bounds, a count), or moves whole records (copy,
 * drop, swap, cut at a record boundary), or leaves it to libFuzzer's
 * byte mutations.  The corpus starts from the traces in
 * testsuite/fuzz/seeds (made from the fixtures and the report data).
 */
/* fuzz-sources: runtime/insn.c tools/lib/trace_read.c tools/lib/util.c tools/lib/names.c tools/dcg-report/main.c tools/dcg-report/walk.c tools/dcg-report/tree.c tools/dcg-report/func_table.c tools/dcg-report/edge_recs.c tools/dcg-report/view-trace.c tools/dcg-report/view-graph.c tools/dcg-report/view-hot.c tools/dcg-report/view-dot.c tools/dcg-report/view-folded.c tools/dcg-report/view-chrome.c tools/dcg-report/view-callgrind.c tools/dcg-report/view-csv.c tools/dcg-report/view-flame.c tools/dcg-report/view-diff.c tools/dcg-report/args.c */
/* fuzz-cflags: -Dmain=dcg_report_main -I tools/dcg-report */
/* fuzz-options: -max_len=65536 -timeout=10 -rss_limit_mb=2048 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_read.h"
#include "report.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

#define CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "fuzz-reader: invariant failed: %s\n", #cond); \
		abort();						\
	}								\
} while (0)

/*
 * A version 3 event longer than 56 bytes holds a register block that
 * fills it: counts in range, strings inside the record, one a register.
 */
static void check_args(const struct dcg_reader *r,
		       const struct dcg_rec_event *ev)
{
	const char *lo = (const char *)ev, *hi = lo + ev->r.size;
	struct dcg_ev_argv a;
	unsigned int i;

	dcg_ev_argv_get(r, ev, &a);
	CHECK(a.present == (r->header.version >= 3 &&
			    ev->r.size > sizeof(*ev)));
	if (!a.present)
		return;
	CHECK(ev->kind != DCG_EV_ASYNC &&
	      !(ev->flags & (DCG_EVF_SYNTHETIC | DCG_EVF_END)));
	CHECK(ev->kind == DCG_EV_RET ? a.nregs >= 1 && a.nregs <= DCG_RETS_MAX :
	      a.nregs <= DCG_ARGS_MAX);
	CHECK(a.nstr <= a.nregs);
	for (i = 0; i < a.nstr; i++) {
		CHECK(a.str[i].argno < a.nregs);
		CHECK(a.str[i].bytes >= lo && a.str[i].bytes + a.str[i].len <= hi);
		CHECK(dcg_ev_argv_str(&a, a.str[i].argno) == &a.str[i]);
	}
}

static void check_record(const struct dcg_rec *rec, const unsigned char *data,
			 size_t len, dcg_u64 off, bool first)
{
	const unsigned char *p = (const unsigned char *)rec;
	static unsigned int version;	/* the first header's */
	size_t same = rec->size;

	/* a version 1 event is handed out as a widened copy of its bytes */
	if (!first && version == 1 && rec->type == DCG_REC_EVENT)
		same = DCG_EVENT_SIZE_V1;
	CHECK(off + rec->size <= len);
	CHECK(memcmp(p, data + off, same) == 0);
	CHECK(rec->size % 8 == 0 && rec->size >= 8 &&
	      rec->size <= DCG_REC_MAX_SIZE);
	if (first) {
		const struct dcg_rec_header *h = (const void *)rec;

		CHECK(rec->type == DCG_REC_HEADER);
		CHECK(memcmp(h->magic, DCG_TRACE_MAGIC, 8) == 0);
		CHECK(h->version >= DCG_TRACE_VERSION_MIN &&
		      h->version <= DCG_READ_VERSION_MAX);
		version = h->version;
	}
	if (rec->type == DCG_REC_EVENT && version == 1) {
		/* handed out widened, insns 0; the stream's 48 bytes */
		CHECK(rec->size >= DCG_EVENT_SIZE_V1);
		CHECK(((const struct dcg_rec_event *)rec)->insns == 0);
	} else if (dcg_rec_min_size(rec->type)) {
		CHECK(rec->size >= dcg_rec_min_size(rec->type));
		CHECK(rec->tid < DCG_TID_LIMIT);
	}
	switch (rec->type) {
	case DCG_REC_EVENT: {
		const struct dcg_rec_event *ev = (const void *)rec;

		CHECK(ev->kind >= DCG_EV_CALL && ev->kind <= DCG_EV_ASYNC);
		CHECK(!(ev->flags & ~DCG_EVF_ALL));
		CHECK(ev->kind == DCG_EV_RET ? ev->depth < DCG_EVENT_DEPTH_MAX :
		      ev->kind == DCG_EV_TAILCALL || ev->depth >= 1);
		break;
	}
	case DCG_REC_MAP:
		CHECK(((const struct dcg_rec_map *)rec)->start <
		      ((const struct dcg_rec_map *)rec)->end);
		CHECK(strlen(dcg_rec_map_path((const void *)rec)) <
		      rec->size - sizeof(struct dcg_rec_map));
		break;
	case DCG_REC_KSYM:
		CHECK(strlen(dcg_rec_ksym_name((const void *)rec)) <
		      rec->size - sizeof(struct dcg_rec_ksym));
		break;
	}
}

/* Read everything; returns the number of records, sets *result. */
static dcg_u64 read_all(struct dcg_reader *r, const unsigned char *data,
			size_t len, int *result)
{
	const struct dcg_rec *rec;
	dcg_u64 n = 0, off = 0;
	int rc;

	while ((rc = dcg_reader_next(r, &rec)) > 0) {
		CHECK(r->offset == off);
		check_record(rec, data, len, off, n == 0);
		if (rec->type == DCG_REC_EVENT)
			check_args(r, (const void *)rec);
		off += rec->size;
		n++;
	}
	if (rc == 0) {
		CHECK(off == len);
		CHECK(n > 0);
	} else {
		const char *e = dcg_reader_error(r);

		CHECK(rc == -1);
		CHECK(strncmp(e, "fuzz: offset ", 13) == 0);
		CHECK(strtoull(e + 13, NULL, 10) <= len);
		CHECK(dcg_reader_next(r, &rec) == -1);
	}
	*result = rc;
	return n;
}

/* dcg-report runs with --raw here: no symbolizer, so these are never
 * called; they stand in for symbolize.c (which needs libdw). */
struct dcg_symbolizer *dcg_sym_new(const struct dcg_symopts *o, char *e,
				   size_t n) { return NULL; }
void dcg_sym_free(struct dcg_symbolizer *s) {}
bool dcg_sym_out_of_memory(void) { return false; }
void dcg_sym_add_record(struct dcg_symbolizer *s, const struct dcg_rec *r) {}
const struct dcg_symbol *dcg_sym_lookup(struct dcg_symbolizer *s,
					dcg_u64 a) { abort(); }
const char *dcg_sym_format(const struct dcg_symbol *s, char *b, size_t n)
{ abort(); }
const char *dcg_sym_object(struct dcg_symbolizer *s, dcg_u64 a) { abort(); }
const struct dcg_functype *dcg_sym_functype(struct dcg_symbolizer *s,
					    dcg_u64 a) { abort(); }
int dcg_sym_code(struct dcg_symbolizer *s, dcg_u64 a, void *b,
		 unsigned int n) { abort(); }

/*
 * Any view's output for one record: a version 3 event's string bytes
 * (up to 4 KB) print C-escaped, 4 characters a byte, and JSON-escaped
 * again in jsonl and chrome, so an event line can reach about 20 KB.
 */
#define OUT_PER_RECORD	32768

static size_t sink_bytes;

static ssize_t sink_write(void *c, const char *buf, size_t n)
{
	sink_bytes += n;
	return n;
}

static FILE *sink(void)
{
	static FILE *f;
	static char fbuf[1 << 16];

	if (!f) {
		cookie_io_functions_t io = { .write = sink_write };

		f = fopencookie(NULL, "w", io);
		CHECK(f != NULL);
		setvbuf(f, fbuf, _IOFBF, sizeof(fbuf));
	}
	return f;
}

/* dcg-report VIEW --raw on the input, as its main() does. */
static void run_view(const struct view *v, struct options *o,
		     const unsigned char *data, size_t size, dcg_u64 nrec)
{
	struct report rp;
	const struct dcg_rec *rec;
	FILE *err = stderr;

	memset(&rp, 0, sizeof(rp));
	rp.o = o;
	rp.view = v;
	rp.out = sink();
	if (dcg_reader_open_mem(&rp.rd, "fuzz", data, size) < 0)
		return;
	if (dcg_reader_next(&rp.rd, &rec) <= 0) {
		dcg_reader_close(&rp.rd);
		return;
	}
	rp.start_ns = rp.rd.header.start_ns;
	if (v->aggregate)
		tree_init(&rp.tree);
	sink_bytes = 0;
	stderr = sink();		/* the notes of machine formats */
	if (!v->start || v->start(&rp) == 0) {
		while (dcg_reader_next(&rp.rd, &rec) > 0) {
			if (rec->type == DCG_REC_EVENT)
				walk_event(&rp, (const void *)rec);
			else if (rec->type == DCG_REC_EDGE)
				edge_recs_add(&rp.edges, (const void *)rec);
			else if (rec->type == DCG_REC_SWITCH)
				walk_switch(&rp, (const void *)rec);
			else if (rec->type == DCG_REC_IRQ)
				walk_irq(&rp, (const void *)rec);
		}
		walk_finish(&rp);
		edge_recs_finish(&rp.edges);
		if (v->finish)
			v->finish(&rp);
	}
	fflush(rp.out);
	stderr = err;
	if (sink_bytes > OUT_PER_RECORD * (nrec + 8)) {
		fprintf(stderr, "fuzz-reader: view %s wrote %zu bytes for %llu records\n",
			v->name, sink_bytes, (unsigned long long)nrec);
		abort();
	}
	walk_free(&rp);
	free(rp.edges.e);
	if (v->aggregate)
		tree_free(&rp.tree);
	dcg_reader_close(&rp.rd);
}

static void run_views(const unsigned char *data, size_t size, dcg_u64 nrec)
{
	static const struct view *const views[] = {
		&view_trace, &view_graph, &view_hot, &view_dot, &view_folded,
		&view_chrome, &view_callgrind, &view_csv, &view_jsonl,
		&view_flame,
	};
	struct options o;
	size_t i;

	memset(&o, 0, sizeof(o));
	o.raw = true;
	o.threshold = 100;
	o.input = "fuzz";
	for (i = 0; i < sizeof(views) / sizeof(views[0]); i++)
		run_view(views[i], &o, data, size, nrec);
	o.speedscope = true;
	run_view(&view_folded, &o, data, size, nrec);
	/* the filters take other paths through the walker */
	o.speedscope = false;
	o.max_depth = 3;
	o.min_duration = 2;
	run_view(&view_trace, &o, data, size, nrec);
	run_view(&view_graph, &o, data, size, nrec);
}

/* --- the structure-aware mutator --- */

static uint64_t rng;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Offsets of the records of @data (header included), at most @max. */
static size_t record_offsets(const uint8_t *data, size_t size, size_t *off,
			     size_t max)
{
	size_t n = 0, pos = 0;

	while (n < max && pos + 8 <= size) {
		const struct dcg_rec *r = (const void *)(data + pos);

		if (r->size < 8 || r->size % 8 || pos + r->size > size)
			break;
		off[n++] = pos;
		pos += r->size;
	}
	return n;
}

static void flip(void *field, size_t bytes)
{
	((uint8_t *)field)[rnd() % bytes] ^= 1u << (rnd() % 8);
}

/* Change one field of the record at @p (unaligned: copied in and out). */
static void mutate_field(uint8_t *p, size_t len, const uint8_t *other)
{
	struct dcg_rec r;

	memcpy(&r, p, sizeof(r));
	if (r.type == DCG_REC_EVENT && len >= DCG_EVENT_SIZE_V1) {
		/* version 1 events are 48 bytes: no insns to change */
		size_t n = len < sizeof(struct dcg_rec_event) ?
			   DCG_EVENT_SIZE_V1 : sizeof(struct dcg_rec_event);
		struct dcg_rec_event ev;

		memset(&ev, 0, sizeof(ev));
		memcpy(&ev, p, n);
		switch (rnd() % 9) {
		case 8:
			if (n == sizeof(ev))	/* the counter going back */
				ev.insns = rnd() % 2 ? ev.insns ^ (1ull << (rnd() % 64)) : 0;
			break;
		case 0: case 1: flip(&ev.depth, 4); break;
		case 2: ev.depth += (dcg_u32)(rnd() % 5) - 2; break;
		case 3: ev.kind = rnd() % 6; break;
		case 4: ev.flags ^= 1u << (rnd() % 8); break;
		case 5: ev.r.tid = rnd() % 4 ? ev.r.tid ^ 1 : (dcg_u32)rnd(); break;
		case 6: flip(rnd() % 2 ? &ev.to : &ev.from, 8); break;
		case 7:
			if (other)	/* another event's target */
				memcpy(&ev.to, other + offsetof(struct dcg_rec_event, to), 8);
			else
				ev.ts = rnd() % 2 ? ev.ts ^ (1ull << (rnd() % 64)) : 0;
			break;
		}
		memcpy(p, &ev, n);
	} else if (r.type == DCG_REC_MAP && len >= sizeof(struct dcg_rec_map)) {
		struct dcg_rec_map m;

		memcpy(&m, p, sizeof(m));
		if (rnd() % 2) {
			dcg_u64 t = m.start;

			m.start = m.end;
			m.end = t;
		} else {
			flip(rnd() % 2 ? &m.start : &m.end, 8);
		}
		memcpy(p, &m, sizeof(m));
	} else if (len > 8) {
		/* any other record: a bit of its body (counts, reasons...) */
		p[8 + rnd() % (len - 8)] ^= 1u << (rnd() % 8);
	} else {
		flip(p, len);
	}
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed)
{
	static size_t off[4096];
	size_t n, i, j, len;

	rng = seed * 0x9e3779b97f4a7c15ull + 1;
	n = record_offsets(data, size, off, 4096);
	if (n < 2 || rnd() % 8 == 0)
		return LLVMFuzzerMutate(data, size, max_size);
	i = 1 + rnd() % (n - 1);	/* not the header */
	len = (i + 1 < n ? off[i + 1] : size) - off[i];
	if (i + 1 == n && off[i] + ((struct dcg_rec *)(data + off[i]))->size <= size)
		len = ((struct dcg_rec *)(data + off[i]))->size;
	switch (rnd() % 10) {
	default: {	/* one field */
		const uint8_t *other = NULL;

		j = 1 + rnd() % (n - 1);
		if (((struct dcg_rec *)(data + off[j]))->type == DCG_REC_EVENT)
			other = data + off[j];
		mutate_field(data + off[i], len, other);
		return size;
	}
	case 6:		/* copy a record after itself */
		if (size + len > max_size)
			return size;
		memmove(data + off[i] + len, data + off[i], size - off[i]);
		return size + len;
	case 7:		/* drop it */
		memmove(data + off[i], data + off[i] + len, size - off[i] - len);
		return size - len;
	case 8:		/* cut the trace there (a record boundary) */
		return off[i];
	case 9: {	/* swap it with the next one of the same size */
		uint8_t tmp[DCG_REC_MAX_SIZE];

		if (i + 1 >= n || len > sizeof(tmp) ||
		    off[i] + 2 * len > size ||
		    ((struct dcg_rec *)(data + off[i] + len))->size != len)
			return size;
		memcpy(tmp, data + off[i], len);
		memmove(data + off[i], data + off[i] + len, len);
		memcpy(data + off[i] + len, tmp, len);
		return size;
	}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *copy = malloc(size ? size : 1);
	struct dcg_reader r;
	dcg_u64 n1, n2;
	int rc1, rc2;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	CHECK(dcg_reader_open_mem(&r, "fuzz", copy, size) == 0);
	n1 = read_all(&r, copy, size, &rc1);
	CHECK(dcg_reader_rewind(&r) == 0);
	n2 = read_all(&r, copy, size, &rc2);
	CHECK(n1 == n2 && rc1 == rc2);
	dcg_reader_close(&r);
	run_views(copy, size, n1);
	free(copy);
	return 0;
}
