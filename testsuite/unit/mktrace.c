// SPDX-License-Identifier: GPL-2.0
/*
 * mktrace - write a dyncg trace from a text description, so that test
 * traces are small reviewable text files and their expected outputs can
 * be worked out by hand.  It writes records itself (not through the
 * project's writer) so that it can also write broken ones.
 *
 *   mktrace [-o OUT] [--truncate N] [DESC]     (DESC default: stdin)
 *   mktrace --synthetic EVENTS [--leaves N] [--args N] [-o OUT]
 *                                               (benchmark)
 *
 * One record per line, "key=value" fields, '#' starts a comment:
 *   header [pid=N] [host=ptrace|stap] [mode=step|block|emu-block]
 *          [kernel] [start=NS] [comm=S] [magic=S] [version=N]
 *   map [pid=N] start=A end=A [pgoff=A] [prot=rwx] [buildid=HEX] path=P
 *   ksym addr=A [size=N] [type=C] name=S [module=M]
 *   thread tid=N ts=NS what=start|exit|exec [pid=N] [comm=S]
 *   call|ret|tail|async [tid=N] ts=NS [from=A] [to=A] [sp=A] [cpu=N]
 *          [depth=N] [flags=indirect,synthetic,unmatched,skipped,
 *          overflow,root,end] [insns=N|+N]
 *          [regs=V,V,..|none] [str=ARGNO:FLAGS:TEXT]...
 *          [nregs=N] [nstr=N] [apad=N] [slen=N] [spad=N] [sfill=N]
 *          [extra=N] [size=N]
 *   lost [tid=N] ts=NS count=N reason=budget|buffer|depth
 *   stats stops=N produced=N written=N dropped=N resyncs=N decode_errors=N
 *   edge caller=A callee=A count=N
 *   switch [tid=N] out=NS in=NS [at=A] [outcpu=N] [incpu=N]
 *   irq [tid=N] start=NS end=NS [ip=A] [cpu=N] [timer=N] [ipi=N]
 *       [device=N] [nmi=N] [other=N] [softirq=N] [faults=N]
 *   host=, mode=, what=, reason= and flags= also take numbers (any
 *   value, for out-of-range tests)
 *   raw type=N size=N [body=HEX]   a record header with any size; the
 *                                  body is HEX, zero-filled to size-8
 *   bytes HEX                      bytes written as they are
 *   let NAME=A                     a name for an address
 *   repeat N ... end               the lines between, N times
 * Addresses may be written NAME or NAME+OFF for names given by ksym or
 * let lines.  ts=+N means N after the previous record's ts.  insns is
 * the thread's instruction counter: +N adds N to its last event's, and
 * an event without it keeps that.
 * regs= gives an event a register block (version 3, issue #17): the
 * values in order (rdi.. for a call, rax rdx for a ret; "none" for an
 * empty block); each str= adds a string read from register ARGNO,
 * FLAGS "-" or any of t (truncated) f (fault), TEXT with %XX escapes
 * (%20 is a space).  To write broken blocks: nregs= and nstr= replace
 * the counts in the block's head, apad= its first pad byte, slen= and
 * spad= the first string's len and pad fields, sfill= the byte that
 * pads strings, extra= appends that many zero bytes, size= sets the
 * record's size (the body cut or zero-filled to it).
 * A header without version= is
 * version 1, whose events are 48 bytes and have no insns.
 * tid is sticky (a line without tid= uses the last one).  Without
 * depth=, depth is kept per thread as doc/trace-format.md defines it:
 * call/async carry the new frame's depth, ret the depth left behind
 * (one less), tail the same depth.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dcg_event.h"

static FILE *out;
static unsigned long lineno;
static const char *desc_name = "<stdin>";

#define MAX_TIDS 65536
static struct { dcg_u32 tid; dcg_u32 depth; dcg_u64 insns; } depths[MAX_TIDS];
static unsigned int ndepths;
static dcg_u32 cur_tid;

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "mktrace: %s:%lu: ", desc_name, lineno);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(1);
}

static void put(const void *p, size_t n)
{
	if (fwrite(p, 1, n, out) != n) {
		perror("mktrace: write");
		exit(1);
	}
}

/* The value of key= in the field list, or NULL. */
static const char *field(char **f, int n, const char *key)
{
	size_t k = strlen(key);
	int i;

	for (i = 0; i < n; i++)
		if (!strncmp(f[i], key, k) && f[i][k] == '=')
			return f[i] + k + 1;
	return NULL;
}

static bool has_word(char **f, int n, const char *word)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(f[i], word))
			return true;
	return false;
}

static struct name { char name[64]; dcg_u64 addr; } *names;
static unsigned int nnames, names_cap;
static dcg_u64 last_ts;
/*
 * Without version=, a header says version 1: the test descriptions'
 * offsets (badfiles, hostile) are worked out for its 48-byte events.
 * insns= on an event needs "header version=2".
 */
static unsigned int hdr_version = 1;

static void add_name(const char *name, dcg_u64 addr)
{
	if (nnames == names_cap) {
		names_cap = names_cap ? 2 * names_cap : 256;
		names = realloc(names, names_cap * sizeof(*names));
		if (!names)
			die("out of %s", "memory");
	}
	snprintf(names[nnames].name, sizeof(names[0].name), "%s", name);
	names[nnames++].addr = addr;
}

/* NAME or NAME+OFF */
static bool lookup_name(const char *v, unsigned long long *x)
{
	const char *plus = strchr(v, '+');
	size_t len = plus ? (size_t)(plus - v) : strlen(v);
	unsigned long long off = 0;
	unsigned int i;
	char *end;

	if (plus) {
		off = strtoull(plus + 1, &end, 0);
		if (end == plus + 1 || *end)
			return false;
	}
	for (i = 0; i < nnames; i++)
		if (strlen(names[i].name) == len && !strncmp(names[i].name, v, len)) {
			*x = names[i].addr + off;
			return true;
		}
	return false;
}

static unsigned long long num(char **f, int n, const char *key,
			      unsigned long long dflt)
{
	const char *v = field(f, n, key);
	char *end;
	unsigned long long x;

	if (!v)
		return dflt;
	if (!strcmp(key, "ts") && v[0] == '+') {
		x = strtoull(v + 1, &end, 0);
		if (end == v + 1 || *end)
			die("bad relative time '%s'", v);
		return last_ts + x;
	}
	errno = 0;
	x = strtoull(v, &end, 0);
	if (errno || end == v || *end) {
		if (lookup_name(v, &x))
			return x;
		die("bad number or unknown name '%s'", v);
	}
	return x;
}

static size_t hex_bytes(const char *hex, unsigned char *buf, size_t max)
{
	size_t n = 0;
	unsigned int b;

	while (hex[0] && hex[1]) {
		if (n == max || sscanf(hex, "%2x", &b) != 1)
			die("bad hex '%s'", hex);
		buf[n++] = b;
		hex += 2;
	}
	if (*hex)
		die("odd number of hex digits in '%s'", hex);
	return n;
}

/* The thread's slot in depths[]. */
static unsigned int thread_slot(dcg_u32 tid)
{
	unsigned int i;

	for (i = 0; i < ndepths; i++)
		if (depths[i].tid == tid)
			return i;
	if (ndepths == MAX_TIDS)
		die("more than %s threads", "65536");
	depths[ndepths].tid = tid;
	depths[ndepths].depth = 0;
	depths[ndepths].insns = 0;
	return ndepths++;
}

static dcg_u32 *depth_of(dcg_u32 tid)
{
	return &depths[thread_slot(tid)].depth;
}

/* The thread's instruction counter: the last event's insns. */
static dcg_u64 *insns_of(dcg_u32 tid)
{
	return &depths[thread_slot(tid)].insns;
}

/* insns=N, insns=+N (after the thread's last event), or unchanged. */
static dcg_u64 event_insns(char **f, int n, dcg_u32 tid)
{
	const char *v = field(f, n, "insns");
	dcg_u64 *last = insns_of(tid);
	char *end;

	if (v && v[0] == '+') {
		*last += strtoull(v + 1, &end, 0);
		if (end == v + 1 || *end)
			die("bad relative count '%s'", v);
	} else if (v) {
		*last = num(f, n, "insns", 0);
	}
	return *last;
}

static unsigned int ev_flags(const char *s)
{
	static const char *const names[] = {
		"synthetic", "indirect", "unmatched", "skipped",
		"overflow", "root", "end", "inexact",
	};
	unsigned int flags = 0, i;
	char buf[256], *tok, *save = NULL;

	if (!s)
		return 0;
	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (tok[0] >= '0' && tok[0] <= '9') {
			/* a number: any bits, for out-of-range tests */
			flags |= strtoul(tok, NULL, 0);
			continue;
		}
		for (i = 0; i < 8; i++)
			if (!strcmp(tok, names[i]))
				break;
		if (i == 8)
			die("unknown flag '%s'", tok);
		flags |= 1u << i;
	}
	return flags;
}

/* Named fields also take a number, to write values out of range. */
static bool isnum(const char *v)
{
	return v && v[0] >= '0' && v[0] <= '9';
}

static void write_header(char **f, int n)
{
	struct dcg_rec_header h;
	const char *v;

	dcg_rec_header_fill(&h, DCG_HOST_PTRACE, DCG_MODE_STEP,
			    num(f, n, "pid", 0),
			    has_word(f, n, "kernel") ? DCG_HDR_KERNEL : 0,
			    num(f, n, "start", 0));
	v = field(f, n, "magic");
	memcpy(h.magic, v ? v : DCG_TRACE_MAGIC, 8);
	h.version = num(f, n, "version", 1);
	hdr_version = h.version;
	v = field(f, n, "host");
	h.host = isnum(v) ? strtoul(v, NULL, 0) :
		 v && !strcmp(v, "stap") ? DCG_HOST_STAP : DCG_HOST_PTRACE;
	v = field(f, n, "mode");
	h.mode = isnum(v) ? strtoul(v, NULL, 0) :
		 !v || !strcmp(v, "step") ? DCG_MODE_STEP :
		 !strcmp(v, "block") ? DCG_MODE_BLOCK : DCG_MODE_EMU_BLOCK;
	v = field(f, n, "comm");
	if (v)
		memcpy(h.comm, v, strnlen(v, sizeof(h.comm)));
	put(&h, sizeof(h));
}

/* A fixed part followed by a NUL-terminated string, padded to 8. */
static void put_with_string(void *fixed, size_t flen, const char *s)
{
	size_t slen = strlen(s) + 1, size = (flen + slen + 7) & ~7ul;
	static const char zeros[8];

	((struct dcg_rec *)fixed)->size = size;
	put(fixed, flen);
	put(s, slen);
	put(zeros, size - flen - slen);
}

static void write_map(char **f, int n)
{
	struct dcg_rec_map m;
	const char *v = field(f, n, "prot"), *path = field(f, n, "path");

	dcg_rec_map_fill(&m, num(f, n, "pid", 0), 0, num(f, n, "start", 0),
			 num(f, n, "end", 0), num(f, n, "pgoff", 0), 0);
	m.prot = v ? ((strchr(v, 'r') ? 1 : 0) | (strchr(v, 'w') ? 2 : 0) |
		      (strchr(v, 'x') ? 4 : 0)) : 5;
	v = field(f, n, "buildid");
	if (v)
		m.build_id_len = hex_bytes(v, m.build_id, sizeof(m.build_id));
	if (!path)
		die("map needs %s", "path=");
	put_with_string(&m, sizeof(m), path);
}

static void write_ksym(char **f, int n)
{
	struct dcg_rec_ksym k;
	const char *name = field(f, n, "name"), *mod = field(f, n, "module");
	const char *type = field(f, n, "type");
	char full[600];

	dcg_rec_ksym_fill(&k, 0, num(f, n, "addr", 0), num(f, n, "size", 0),
			  type ? type[0] : 'T');
	if (!name)
		die("ksym needs %s", "name=");
	add_name(name, k.addr);
	if (mod)
		snprintf(full, sizeof(full), "%s\t[%s]", name, mod);
	else
		snprintf(full, sizeof(full), "%s", name);
	put_with_string(&k, sizeof(k), full);
}

static size_t event_args(char **f, int n, unsigned char *buf, size_t max);

/* The 56 bytes, then the register block if any, at size= if given. */
static void write_event_body(struct dcg_rec_event *ev, char **f, int n)
{
	static unsigned char rec[DCG_REC_MAX_SIZE * 2];
	size_t len = sizeof(*ev), size;

	memset(rec, 0, sizeof(rec));
	len += event_args(f, n, rec + len, sizeof(rec) - 2 * sizeof(*ev));
	size = num(f, n, "size", len);
	if (size > sizeof(rec))
		die("size= too large: %s", field(f, n, "size"));
	ev->r.size = size;
	memcpy(rec, ev, sizeof(*ev));
	put(rec, size);
}

static void write_event(const char *kind, char **f, int n)
{
	struct dcg_rec_event ev;
	dcg_u32 *d;

	cur_tid = num(f, n, "tid", cur_tid);
	last_ts = num(f, n, "ts", last_ts);
	dcg_rec_event_fill(&ev, cur_tid, 0, ev_flags(field(f, n, "flags")),
			   last_ts, num(f, n, "from", 0), num(f, n, "to", 0));
	ev.sp = num(f, n, "sp", 0);
	ev.cpu = num(f, n, "cpu", 0);
	d = depth_of(cur_tid);
	if (!strcmp(kind, "call") || !strcmp(kind, "async")) {
		ev.kind = kind[0] == 'c' ? DCG_EV_CALL : DCG_EV_ASYNC;
		*d = num(f, n, "depth", *d + 1);
		ev.depth = *d;
	} else if (!strcmp(kind, "ret")) {
		ev.kind = DCG_EV_RET;
		*d = num(f, n, "depth", *d ? *d - 1 : 0);
		ev.depth = *d;
	} else {
		ev.kind = DCG_EV_TAILCALL;
		*d = num(f, n, "depth", *d);
		ev.depth = *d;
	}
	ev.kind = num(f, n, "kind", ev.kind);
	ev.insns = event_insns(f, n, cur_tid);
	if (hdr_version == 1 && field(f, n, "insns"))
		die("insns= in a version %s trace", "1");
	if (hdr_version == 1) {		/* version 1 events end at depth */
		ev.r.size = DCG_EVENT_SIZE_V1;
		put(&ev, DCG_EVENT_SIZE_V1);
		return;
	}
	write_event_body(&ev, f, n);
}

/* %XX escapes of a str= TEXT, in place; returns the length. */
static size_t unescape(char *t)
{
	char *w = t, *r = t;
	unsigned int b;

	while (*r) {
		if (r[0] == '%' && r[1] && r[2] && sscanf(r + 1, "%2x", &b) == 1) {
			*w++ = b;
			r += 3;
		} else {
			*w++ = *r++;
		}
	}
	return w - t;
}

/* A register block (regs=, str=, and the knobs that break it). */
static size_t event_args(char **f, int n, unsigned char *buf, size_t max)
{
	const char *v = field(f, n, "regs");
	struct dcg_ev_args h;
	size_t pos = sizeof(h);
	unsigned int nregs = 0, nstr = 0, i;
	bool first_str = true;
	char list[1024], *tok, *save = NULL;

	if (!v && !field(f, n, "nregs") && !field(f, n, "str"))
		return 0;
	memset(&h, 0, sizeof(h));
	snprintf(list, sizeof(list), "%s", v && strcmp(v, "none") ? v : "");
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *one[1];
		dcg_u64 x;
		char kv[300];

		snprintf(kv, sizeof(kv), "v=%s", tok);
		one[0] = kv;
		x = num(one, 1, "v", 0);
		if (pos + 8 > max)
			die("too many values in '%s'", v);
		memcpy(buf + pos, &x, 8);
		pos += 8;
		nregs++;
	}
	for (i = 0; i < (unsigned int)n; i++) {
		struct dcg_ev_str s;
		char text[4096], *c1, *c2;
		size_t len, padded;

		if (strncmp(f[i], "str=", 4))
			continue;
		snprintf(text, sizeof(text), "%s", f[i] + 4);
		c1 = strchr(text, ':');
		c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			die("str= needs ARGNO:FLAGS:TEXT, not '%s'", f[i]);
		*c1 = *c2 = '\0';
		memset(&s, 0, sizeof(s));
		s.argno = strtoul(text, NULL, 0);
		s.flags = isnum(c1 + 1) ? strtoul(c1 + 1, NULL, 0) :
			  (strchr(c1 + 1, 't') ? DCG_STR_TRUNC : 0) |
			  (strchr(c1 + 1, 'f') ? DCG_STR_FAULT : 0);
		len = unescape(c2 + 1);
		s.len = len;
		if (first_str) {
			s.len = num(f, n, "slen", len);
			s.pad = num(f, n, "spad", 0);
			first_str = false;
		}
		padded = (len + 7) & ~7ul;
		if (pos + sizeof(s) + padded > max)
			die("strings too long in '%s'", f[i]);
		memcpy(buf + pos, &s, sizeof(s));
		pos += sizeof(s);
		memset(buf + pos, num(f, n, "sfill", 0), padded);
		memcpy(buf + pos, c2 + 1, len);
		pos += padded;
		nstr++;
	}
	h.nregs = num(f, n, "nregs", nregs);
	h.nstr = num(f, n, "nstr", nstr);
	h.pad[0] = num(f, n, "apad", 0);
	memcpy(buf, &h, sizeof(h));
	i = num(f, n, "extra", 0);
	if (pos + i > max)
		die("extra= too large: %s", field(f, n, "extra"));
	memset(buf + pos, 0, i);
	return pos + i;
}

static void write_thread(char **f, int n)
{
	struct dcg_rec_thread t;
	const char *what = field(f, n, "what"), *comm = field(f, n, "comm");

	cur_tid = num(f, n, "tid", cur_tid);
	last_ts = num(f, n, "ts", last_ts);
	dcg_rec_thread_fill(&t, cur_tid, last_ts,
			    isnum(what) ? strtoul(what, NULL, 0) :
			    !what || !strcmp(what, "start") ? DCG_THREAD_START :
			    !strcmp(what, "exit") ? DCG_THREAD_EXIT :
			    DCG_THREAD_EXEC, num(f, n, "pid", 0));
	if (comm)
		memcpy(t.comm, comm, strnlen(comm, sizeof(t.comm)));
	put(&t, sizeof(t));
}

static void write_lost(char **f, int n)
{
	struct dcg_rec_lost l;
	const char *why = field(f, n, "reason");

	cur_tid = num(f, n, "tid", cur_tid);
	last_ts = num(f, n, "ts", last_ts);
	dcg_rec_lost_fill(&l, cur_tid, last_ts, num(f, n, "count", 0),
			  isnum(why) ? strtoul(why, NULL, 0) :
			  !why || !strcmp(why, "budget") ? DCG_LOST_BUDGET :
			  !strcmp(why, "buffer") ? DCG_LOST_BUFFER :
			  DCG_LOST_DEPTH);
	put(&l, sizeof(l));
}

static void write_switch(char **f, int n)
{
	struct dcg_rec_switch w;
	dcg_u64 out_ts;

	cur_tid = num(f, n, "tid", cur_tid);
	out_ts = num(f, n, "out", last_ts);
	last_ts = num(f, n, "in", out_ts);
	dcg_rec_switch_fill(&w, cur_tid, out_ts, num(f, n, "outcpu", 0),
			    last_ts, num(f, n, "incpu", 0), num(f, n, "at", 0));
	put(&w, sizeof(w));
}

static void write_irq(char **f, int n)
{
	struct dcg_rec_irq q;
	dcg_u64 start_ts;

	cur_tid = num(f, n, "tid", cur_tid);
	start_ts = num(f, n, "start", last_ts);
	last_ts = num(f, n, "end", start_ts);
	dcg_rec_irq_fill(&q, cur_tid, start_ts, last_ts, num(f, n, "ip", 0),
			 num(f, n, "cpu", 0));
	q.timer = num(f, n, "timer", 0);
	q.ipi = num(f, n, "ipi", 0);
	q.device = num(f, n, "device", 0);
	q.nmi = num(f, n, "nmi", 0);
	q.other = num(f, n, "other", 0);
	q.softirq = num(f, n, "softirq", 0);
	q.faults = num(f, n, "faults", 0);
	put(&q, sizeof(q));
}

static void write_stats(char **f, int n)
{
	struct dcg_rec_stats s;

	dcg_rec_stats_fill(&s);
	s.stops = num(f, n, "stops", 0);
	s.produced = num(f, n, "produced", 0);
	s.written = num(f, n, "written", 0);
	s.dropped = num(f, n, "dropped", 0);
	s.resyncs = num(f, n, "resyncs", 0);
	s.decode_errors = num(f, n, "decode_errors", 0);
	put(&s, sizeof(s));
}

static void write_edge(char **f, int n)
{
	struct dcg_rec_edge e;

	dcg_rec_edge_fill(&e, num(f, n, "caller", 0), num(f, n, "callee", 0),
			  num(f, n, "count", 0));
	put(&e, sizeof(e));
}

static void write_raw(char **f, int n)
{
	unsigned char body[65536];
	struct dcg_rec r;
	size_t size = num(f, n, "size", 8), blen = 0, pad;
	const char *hex = field(f, n, "body");

	memset(body, 0, sizeof(body));
	if (hex)
		blen = hex_bytes(hex, body, sizeof(body));
	dcg_rec_init(&r, num(f, n, "type", 0), size, num(f, n, "tid", 0));
	put(&r, sizeof(r));
	pad = size > 8 ? size - 8 : 0;
	if (pad > sizeof(body))
		pad = sizeof(body);
	put(body, pad > blen ? pad : blen);
}

static void one_line(char *line)
{
	char *f[64], *save = NULL, *tok, *hash = strchr(line, '#');
	int n = 0;

	if (hash)
		*hash = '\0';
	tok = strtok_r(line, " \t\n", &save);
	if (!tok)
		return;
	while (n < 64 && (f[n] = strtok_r(NULL, " \t\n", &save)))
		n++;
	if (!strcmp(tok, "header"))
		write_header(f, n);
	else if (!strcmp(tok, "map"))
		write_map(f, n);
	else if (!strcmp(tok, "ksym"))
		write_ksym(f, n);
	else if (!strcmp(tok, "thread"))
		write_thread(f, n);
	else if (!strcmp(tok, "call") || !strcmp(tok, "ret") ||
		 !strcmp(tok, "tail") || !strcmp(tok, "async"))
		write_event(tok, f, n);
	else if (!strcmp(tok, "lost"))
		write_lost(f, n);
	else if (!strcmp(tok, "stats"))
		write_stats(f, n);
	else if (!strcmp(tok, "switch"))
		write_switch(f, n);
	else if (!strcmp(tok, "irq"))
		write_irq(f, n);
	else if (!strcmp(tok, "edge"))
		write_edge(f, n);
	else if (!strcmp(tok, "raw"))
		write_raw(f, n);
	else if (!strcmp(tok, "let")) {
		char name[64], *eq = n ? strchr(f[0], '=') : NULL;

		if (!eq || eq - f[0] >= (long)sizeof(name))
			die("let needs %s", "NAME=ADDR");
		snprintf(name, sizeof(name), "%.*s", (int)(eq - f[0]), f[0]);
		add_name(name, num(f, 1, name, 0));
	} else if (!strcmp(tok, "bytes")) {
		unsigned char buf[4096];

		put(buf, hex_bytes(n ? f[0] : "", buf, sizeof(buf)));
	} else
		die("unknown record '%s'", tok);
}

/*
 * A benchmark trace of about @events events: one root activation that
 * calls two middle functions in turn, each calling one of @leaves leaf
 * functions, so that the graph has 2 x @leaves distinct paths however
 * many events there are.
 */
/*
 * --synthetic with --args N: calls carry N argument registers and rets
 * rax, as a version 3 producer writes them (for measuring the cost).
 */
static unsigned int synth_args;

static void put_synth(struct dcg_rec_event *ev)
{
	unsigned char rec[sizeof(*ev) + 8 + 8 * DCG_ARGS_MAX];
	struct dcg_ev_args *a = (void *)(rec + sizeof(*ev));
	unsigned int n = ev->kind == DCG_EV_RET ? 1 : synth_args, i;
	dcg_u64 v;

	if (!synth_args) {
		put(ev, sizeof(*ev));
		return;
	}
	memset(rec, 0, sizeof(rec));
	a->nregs = n;
	for (i = 0; i < n; i++) {
		v = ev->ts * 7 + i;
		memcpy(rec + sizeof(*ev) + 8 + 8 * i, &v, 8);
	}
	ev->r.size = sizeof(*ev) + 8 + 8 * n;
	memcpy(rec, ev, sizeof(*ev));
	put(rec, ev->r.size);
	ev->r.size = sizeof(*ev);
}

static void synthetic(unsigned long long events, unsigned int leaves)
{
	static const char *names[] = { "root", "mid_a", "mid_b" };
	struct dcg_rec_event ev;
	unsigned long long i, ts = 0;
	dcg_u64 base = 0xffffffff81000000ull;
	char line[128];
	unsigned int k;

	snprintf(line, sizeof(line), "header version=%u pid=1 mode=step kernel comm=bench",
		 synth_args ? 3 : 2);
	one_line(line);
	for (k = 0; k < 3 + leaves; k++) {
		char leaf[32];

		snprintf(leaf, sizeof(leaf), "leaf_%u", k - 3);
		snprintf(line, sizeof(line), "ksym addr=0x%llx size=256 name=%s",
			 (unsigned long long)(base + 0x1000ull * k),
			 k < 3 ? names[k] : leaf);
		one_line(line);
	}
	memset(&ev, 0, sizeof(ev));
	dcg_rec_init(&ev.r, DCG_REC_EVENT, sizeof(ev), 1);
	/* root stays open; each round: mid -> leaf -> ret -> ret (4 events) */
	ev.kind = DCG_EV_CALL;
	ev.flags = DCG_EVF_ROOT;
	ev.to = base;
	ev.depth = 1;
	put_synth(&ev);
	for (i = 0; i + 5 <= events; i += 4) {
		dcg_u64 mid = base + 0x1000 * (1 + (i / 4) % 2);
		dcg_u64 leaf = base + 0x1000ull * (3 + (i / 8) % leaves);

		ev.flags = 0;
		ev.kind = DCG_EV_CALL;
		ev.from = base + 0x10;
		ev.to = mid;
		ev.depth = 2;
		ev.ts = ts += 3;
		put_synth(&ev);
		ev.from = mid + 0x10;
		ev.to = leaf;
		ev.depth = 3;
		ev.ts = ts += 5;
		put_synth(&ev);
		ev.kind = DCG_EV_RET;
		ev.depth = 2;		/* left behind */
		ev.from = leaf + 0x20;
		ev.to = mid + 0x15;
		ev.ts = ts += 7;
		put_synth(&ev);
		ev.from = mid + 0x20;
		ev.to = base + 0x15;
		ev.depth = 1;
		ev.ts = ts += 2;
		put_synth(&ev);
	}
	ev.kind = DCG_EV_RET;
	ev.flags = DCG_EVF_END;
	ev.from = base + 0x40;
	ev.to = 0x401000;
	ev.depth = 0;
	ev.ts = ts + 1;
	put(&ev, sizeof(ev));
	/* a complete trace ends with its totals */
	snprintf(line, sizeof(line), "stats produced=%llu written=%llu",
		 (unsigned long long)(2 + (i / 4) * 4),
		 (unsigned long long)(2 + (i / 4) * 4));
	one_line(line);
}

/* "repeat N" ... "end": the lines between, N times (no nesting). */
static void repeat(FILE *desc, unsigned long long times)
{
	static char body[256][512];
	char line[512];
	unsigned int n = 0, i;
	unsigned long first = lineno;

	while (fgets(line, sizeof(line), desc)) {
		lineno++;
		if (!strncmp(line, "end", 3) && strspn(line + 3, " \t\r\n") ==
		    strlen(line + 3))
			break;
		if (n == 256)
			die("repeat body longer than %s lines", "256");
		snprintf(body[n++], sizeof(body[0]), "%s", line);
	}
	if (feof(desc))
		die("repeat without end (%s)", "missing 'end' line");
	for (; times; times--)
		for (i = 0; i < n; i++) {
			memcpy(line, body[i], sizeof(line));
			lineno = first + 1 + i;
			one_line(line);
		}
}

static void usage(void)
{
	fputs("usage: mktrace [-o OUT] [--truncate N] [DESC]\n"
	      "       mktrace --synthetic EVENTS [--leaves N] [--args N] [-o OUT]\n", stderr);
	exit(1);
}

int main(int argc, char **argv)
{
	const char *outname = NULL, *in = NULL;
	unsigned long long synth = 0, truncate = 0, leaves = 8;
	char line[8192];
	FILE *desc = stdin;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			outname = argv[++i];
		else if (!strcmp(argv[i], "--truncate") && i + 1 < argc)
			truncate = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--synthetic") && i + 1 < argc)
			synth = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--args") && i + 1 < argc)
			synth_args = strtoul(argv[++i], NULL, 0) % (DCG_ARGS_MAX + 1);
		else if (!strcmp(argv[i], "--leaves") && i + 1 < argc)
			leaves = strtoull(argv[++i], NULL, 0);
		else if (argv[i][0] == '-' && argv[i][1])
			usage();
		else
			in = argv[i];
	}
	out = outname ? fopen(outname, "w+") : stdout;
	if (!out) {
		perror(outname);
		return 1;
	}
	if (synth) {
		synthetic(synth, leaves ? leaves : 1);
	} else {
		if (in) {
			desc_name = in;
			desc = fopen(in, "r");
			if (!desc) {
				perror(in);
				return 1;
			}
		}
		while (fgets(line, sizeof(line), desc)) {
			lineno++;
			if (!strncmp(line, "repeat ", 7))
				repeat(desc, strtoull(line + 7, NULL, 0));
			else
				one_line(line);
		}
	}
	if (fflush(out)) {
		perror("mktrace: write");
		return 1;
	}
	if (truncate) {
		long size;

		if (!outname)
			usage();
		fseek(out, 0, SEEK_END);
		size = ftell(out);
		if (ftruncate(fileno(out), size > (long)truncate ?
			      size - (long)truncate : 0)) {
			perror("mktrace: truncate");
			return 1;
		}
	}
	return fclose(out) ? 1 : 0;
}
