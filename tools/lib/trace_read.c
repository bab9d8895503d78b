// SPDX-License-Identifier: GPL-2.0
/*
 * trace_read.c - the one streaming reader of dyncg traces.
 *
 * Records are handed out as pointers into a single read buffer.  Every
 * record size is a multiple of 8 and the buffer is only ever compacted
 * from an 8-aligned position, so records stay 8-aligned in memory and
 * can be used through their struct types directly.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace_read.h"

static int fail(struct dcg_reader *r, dcg_u64 off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct dcg_reader *r, dcg_u64 off, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(r->err, sizeof(r->err), "%s: offset %llu: ", r->name,
		     (unsigned long long)off);
	if (n < 0 || (size_t)n >= sizeof(r->err))
		return -1;
	va_start(ap, fmt);
	vsnprintf(r->err + n, sizeof(r->err) - n, fmt, ap);
	va_end(ap);
	return -1;
}

static void reader_init(struct dcg_reader *r, const char *name)
{
	memset(r, 0, sizeof(*r));
	r->name = name;
	r->fd = -1;
}

static int alloc_buf(struct dcg_reader *r, size_t size)
{
	r->bufsize = size;
	r->buf = malloc(size);
	if (!r->buf) {
		snprintf(r->err, sizeof(r->err), "%s: out of memory", r->name);
		return -1;
	}
	return 0;
}

int dcg_reader_open(struct dcg_reader *r, const char *path)
{
	reader_init(r, path);
	if (strcmp(path, "-") == 0) {
		r->name = "<stdin>";
		r->fd = 0;
	} else {
		r->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (r->fd < 0) {
			snprintf(r->err, sizeof(r->err), "%s: %s", path,
				 strerror(errno));
			return -1;
		}
		r->own_fd = true;
	}
	if (alloc_buf(r, DCG_READER_BUFSIZE) < 0) {
		dcg_reader_close(r);
		return -1;
	}
	return 0;
}

int dcg_reader_open_mem(struct dcg_reader *r, const char *name,
			const void *data, size_t len)
{
	reader_init(r, name);
	r->mem = data;
	r->mem_len = len;
	/* Small: memory input is for tests, and refills get exercised. */
	return alloc_buf(r, 2 * DCG_REC_MAX_SIZE);
}

bool dcg_reader_seekable(const struct dcg_reader *r)
{
	struct stat st;

	if (r->fd < 0)
		return true;
	return fstat(r->fd, &st) == 0 && S_ISREG(st.st_mode) &&
	       lseek(r->fd, 0, SEEK_CUR) != (off_t)-1;
}

int dcg_reader_rewind(struct dcg_reader *r)
{
	if (!dcg_reader_seekable(r) ||
	    (r->fd >= 0 && lseek(r->fd, 0, SEEK_SET) != 0)) {
		snprintf(r->err, sizeof(r->err), "%s: cannot read it twice",
			 r->name);
		return -1;
	}
	r->mem_pos = 0;
	r->pos = r->len = 0;
	r->eof = false;
	r->offset = r->next_offset = 0;
	r->have_header = false;
	memset(r->count, 0, sizeof(r->count));
	r->unknown = 0;
	r->lost = 0;
	r->profile_dropped = 0;
	r->inexact = 0;
	memset(r->lost_by_reason, 0, sizeof(r->lost_by_reason));
	r->have_stats = false;
	r->args_rec = NULL;
	r->err[0] = '\0';
	return 0;
}

void dcg_reader_close(struct dcg_reader *r)
{
	if (r->own_fd && r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	r->own_fd = false;
	free(r->buf);
	r->buf = NULL;
	free(r->args);
	r->args = NULL;
	r->args_rec = NULL;
}

const char *dcg_reader_error(const struct dcg_reader *r)
{
	return r->err[0] ? r->err : "no error";
}

/* Pull more input so that at least @want bytes are buffered, if any. */
static int fill(struct dcg_reader *r, size_t want)
{
	if (r->len - r->pos >= want || r->eof)
		return 0;
	if (r->pos) {
		memmove(r->buf, r->buf + r->pos, r->len - r->pos);
		r->len -= r->pos;
		r->pos = 0;
	}
	while (r->len < want && !r->eof) {
		size_t room = r->bufsize - r->len;
		ssize_t n;

		if (r->fd < 0) {
			n = r->mem_len - r->mem_pos;
			if ((size_t)n > room)
				n = room;
			memcpy(r->buf + r->len, r->mem + r->mem_pos, n);
			r->mem_pos += n;
		} else {
			n = read(r->fd, r->buf + r->len, room);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				return fail(r, r->next_offset, "read error: %s",
					    strerror(errno));
		}
		if (n == 0)
			r->eof = true;
		r->len += n;
	}
	return 0;
}

size_t dcg_rec_min_size(unsigned int type)
{
	/* String-carrying records need at least one 8-byte chunk of it. */
	switch (type) {
	case DCG_REC_HEADER:	return sizeof(struct dcg_rec_header);
	case DCG_REC_EVENT:	return sizeof(struct dcg_rec_event);
	case DCG_REC_MAP:	return sizeof(struct dcg_rec_map) + 8;
	case DCG_REC_KSYM:	return sizeof(struct dcg_rec_ksym) + 8;
	case DCG_REC_THREAD:	return sizeof(struct dcg_rec_thread);
	case DCG_REC_LOST:	return sizeof(struct dcg_rec_lost);
	case DCG_REC_STATS:	return sizeof(struct dcg_rec_stats);
	case DCG_REC_EDGE:	return sizeof(struct dcg_rec_edge);
	case DCG_REC_SWITCH:	return sizeof(struct dcg_rec_switch);
	case DCG_REC_IRQ:	return sizeof(struct dcg_rec_irq);
	case DCG_REC_PROFILE:	return sizeof(struct dcg_rec_profile);
	}
	return 0;
}

/* Version 1 events lack the insns field. */
static size_t rec_min_size(const struct dcg_reader *r, unsigned int type)
{
	if (type == DCG_REC_EVENT && r->have_header && r->header.version < 2)
		return DCG_EVENT_SIZE_V1;
	return dcg_rec_min_size(type);
}

static const char *const rec_names[DCG_REC_TYPES] = {
	[DCG_REC_HEADER] = "header", [DCG_REC_EVENT] = "event",
	[DCG_REC_MAP] = "map", [DCG_REC_KSYM] = "ksym",
	[DCG_REC_THREAD] = "thread", [DCG_REC_LOST] = "lost",
	[DCG_REC_STATS] = "stats", [DCG_REC_EDGE] = "edge",
	[DCG_REC_SWITCH] = "switch", [DCG_REC_IRQ] = "irq",
	[DCG_REC_PROFILE] = "profile",
};

static bool has_nul(const void *p, size_t len)
{
	return memchr(p, '\0', len) != NULL;
}

static int check_header(struct dcg_reader *r, const struct dcg_rec_header *h)
{
	if (memcmp(h->magic, DCG_TRACE_MAGIC, 8) != 0)
		return fail(r, r->offset, "bad magic, not a dyncg trace");
	if (h->version < DCG_TRACE_VERSION_MIN || h->version > DCG_READ_VERSION_MAX)
		return fail(r, r->offset,
			    "unsupported trace version %u (this reader reads versions %u to %u)",
			    h->version, DCG_TRACE_VERSION_MIN, DCG_READ_VERSION_MAX);
	/* the event size depends on it: one stream, one version */
	if (r->have_header && h->version != r->header.version)
		return fail(r, r->offset,
			    "header record: version %u differs from the first header's %u",
			    h->version, r->header.version);
	if (h->host != DCG_HOST_PTRACE && h->host != DCG_HOST_STAP)
		return fail(r, r->offset, "header record: host %u is unknown",
			    h->host);
	if (h->mode < DCG_MODE_STEP || h->mode > DCG_MODE_HOP)
		return fail(r, r->offset, "header record: mode %u is unknown",
			    h->mode);
	if (h->pid >= DCG_TID_LIMIT)
		return fail(r, r->offset, "header record: pid %u is above the limit %u",
			    h->pid, DCG_TID_LIMIT - 1);
	if (h->flags & ~DCG_HDR_KERNEL)
		return fail(r, r->offset, "header record: flags 0x%x unknown",
			    h->flags & ~DCG_HDR_KERNEL);
	if (!r->have_header) {
		r->header = *h;
		r->have_header = true;
	}
	return 0;
}

static bool all_zero(const void *p, size_t len)
{
	const unsigned char *b = p;

	while (len--)
		if (*b++)
			return false;
	return true;
}

/* The block's 8-byte head @h: NULL if its counts fit @ev, else why. */
static const char *check_args_head(const struct dcg_rec_event *ev,
				   const struct dcg_ev_args *h, char *why,
				   size_t whylen)
{
	bool is_ret = ev->kind == DCG_EV_RET;

	if (ev->kind == DCG_EV_ASYNC)
		return "register block on an async event (only calls and rets carry one)";
	if (ev->flags & (DCG_EVF_SYNTHETIC | DCG_EVF_END))
		return "register block on a synthetic or end ret (only real rets carry one)";
	if (!is_ret && h->nregs > DCG_ARGS_MAX) {
		snprintf(why, whylen, "register block: %u values on a %s, at most %u",
			 h->nregs, dcg_ev_kind_name(ev->kind), DCG_ARGS_MAX);
		return why;
	}
	if (is_ret && (h->nregs < 1 || h->nregs > DCG_RETS_MAX)) {
		snprintf(why, whylen, "register block: %u values on a ret, must be 1 or %u",
			 h->nregs, DCG_RETS_MAX);
		return why;
	}
	if (h->nstr > h->nregs) {
		snprintf(why, whylen, "register block: %u strings for %u values",
			 h->nstr, h->nregs);
		return why;
	}
	if (!all_zero(h->pad, sizeof(h->pad)))
		return "register block: padding not zero";
	return NULL;
}

/* The head of string @i at *@pos: NULL if it is a good one, else why. */
static const char *check_str_head(const struct dcg_ev_str *s,
				  const struct dcg_ev_args *h,
				  const struct dcg_ev_argv *a, unsigned int i,
				  char *why, size_t whylen)
{
	unsigned int j;

	if (s->argno >= h->nregs) {
		snprintf(why, whylen, "register block: string of register %u, past the %u values",
			 s->argno, h->nregs);
		return why;
	}
	for (j = 0; j < i; j++)
		if (a->str[j].argno == s->argno) {
			snprintf(why, whylen, "register block: two strings of register %u",
				 s->argno);
			return why;
		}
	if (s->flags & ~(DCG_STR_TRUNC | DCG_STR_FAULT)) {
		snprintf(why, whylen, "register block: string flags 0x%x unknown",
			 s->flags & ~(DCG_STR_TRUNC | DCG_STR_FAULT));
		return why;
	}
	if (s->pad)
		return "register block: string head padding not zero";
	return NULL;
}

/*
 * String @i of the block at *@pos into a->str[i], *@pos moved past it;
 * NULL, or what is wrong with *@at where.
 */
static const char *parse_str(const unsigned char *rec, size_t size,
			     const struct dcg_ev_args *h,
			     struct dcg_ev_argv *a, unsigned int i,
			     size_t *pos, size_t *at, char *why, size_t whylen)
{
	const struct dcg_ev_str *s = (const void *)(rec + *pos);
	const char *bad;
	size_t padded;

	*at = *pos;
	if (size - *pos < sizeof(*s))
		return "register block: string head past the record's end";
	bad = check_str_head(s, h, a, i, why, whylen);
	if (bad)
		return bad;
	*pos += sizeof(*s);
	padded = (s->len + 7u) & ~7u;
	if (size - *pos < padded) {
		snprintf(why, whylen, "register block: string of %u bytes past the record's end",
			 s->len);
		return why;
	}
	if (!all_zero(rec + *pos + s->len, padded - s->len)) {
		*at = *pos + s->len;
		return "register block: string padding not zero";
	}
	a->str[i].argno = s->argno;
	a->str[i].flags = s->flags;
	a->str[i].len = s->len;
	a->str[i].bytes = (const char *)rec + *pos;
	*pos += padded;
	return NULL;
}

/*
 * Unpack the register block after @ev's 56 bytes into @a.  NULL if it
 * is what a producer can write, else what is wrong, with *@at the
 * offset of the bad field from the record's start.  The block must
 * fill the record exactly: struct dcg_ev_args, nregs values, nstr
 * strings each padded to 8 with zeros, all pad fields zero.
 */
static const char *parse_args(const struct dcg_rec_event *ev,
			      struct dcg_ev_argv *a, size_t *at, char *why,
			      size_t whylen)
{
	const unsigned char *rec = (const void *)ev;
	const struct dcg_ev_args *h;
	size_t size = ev->r.size, pos = sizeof(*ev);
	const char *bad;
	unsigned int i;

	memset(a, 0, sizeof(*a));
	*at = pos;
	if (size - pos < sizeof(*h))
		return "register block shorter than its 8-byte head";
	h = (const void *)(rec + pos);
	bad = check_args_head(ev, h, why, whylen);
	if (bad)
		return bad;
	pos += sizeof(*h);
	*at = pos;
	if (size - pos < 8u * h->nregs) {
		snprintf(why, whylen, "register block: %u values do not fit in the record",
			 h->nregs);
		return why;
	}
	a->present = true;
	a->nregs = h->nregs;
	memcpy(a->regs, rec + pos, 8u * h->nregs);
	pos += 8u * h->nregs;
	for (i = 0; i < h->nstr; i++) {
		bad = parse_str(rec, size, h, a, i, &pos, at, why, whylen);
		if (bad)
			return bad;
	}
	a->nstr = h->nstr;
	*at = pos;
	if (pos != size) {
		snprintf(why, whylen, "register block: %zu bytes after it, up to the record's end",
			 size - pos);
		return why;
	}
	return NULL;
}

void dcg_ev_argv_get(const struct dcg_reader *r,
		     const struct dcg_rec_event *ev, struct dcg_ev_argv *a)
{
	char why[160];
	size_t at;

	if (!dcg_reader_has_args(r) || ev->r.size <= sizeof(*ev)) {
		a->present = false;
		a->nregs = a->nstr = 0;
		return;
	}
	/* the record just handed out: unpacked when it was checked */
	if ((const void *)ev == r->args_rec && r->args) {
		*a = *r->args;
		return;
	}
	if (parse_args(ev, a, &at, why, sizeof(why)))
		memset(a, 0, sizeof(*a));
}

const struct dcg_ev_strv *dcg_ev_argv_str(const struct dcg_ev_argv *a,
					  unsigned int argno)
{
	unsigned int i;

	for (i = 0; i < a->nstr; i++)
		if (a->str[i].argno == argno)
			return &a->str[i];
	return NULL;
}

/* A version 3 event longer than its 56 bytes: its register block. */
static int check_args(struct dcg_reader *r, const struct dcg_rec_event *ev)
{
	const char *what;
	char why[160];
	size_t at;

	if (!dcg_reader_has_args(r) || ev->r.size <= sizeof(*ev))
		return 0;
	if (!r->args) {
		r->args = malloc(sizeof(*r->args));
		if (!r->args)
			return fail(r, r->offset, "out of memory");
	}
	r->args_rec = NULL;
	what = parse_args(ev, r->args, &at, why, sizeof(why));
	if (!what) {
		r->args_rec = ev;
		return 0;
	}
	return fail(r, r->offset + at, "event record at %llu: %s",
		    (unsigned long long)r->offset, what);
}

/* Flags only the engine's RETs carry (runtime/thread.c). */
#define RET_ONLY_FLAGS	(DCG_EVF_SYNTHETIC | DCG_EVF_UNMATCHED | DCG_EVF_END)

/*
 * What the engine can write: a CALL or ASYNC pushes a frame (depth >=
 * 1), a RET leaves one less than its frame's depth, an unmatched RET
 * leaves 0.  The views trust depth, so it is checked here.
 */
static int check_event(struct dcg_reader *r, const struct dcg_rec_event *ev)
{
	const dcg_u64 off = r->offset;

	if (ev->kind < DCG_EV_CALL || ev->kind > DCG_EV_ASYNC)
		return fail(r, off, "event of unknown kind %u", ev->kind);
	if (ev->flags & ~DCG_EVF_ALL)
		return fail(r, off, "event record: flags 0x%x unknown",
			    ev->flags & ~DCG_EVF_ALL);
	if (ev->kind != DCG_EV_RET && (ev->flags & RET_ONLY_FLAGS))
		return fail(r, off, "event record: flags 0x%x on a %s (only a ret has them)",
			    ev->flags & RET_ONLY_FLAGS, dcg_ev_kind_name(ev->kind));
	if (ev->kind != DCG_EV_CALL && (ev->flags & DCG_EVF_ROOT))
		return fail(r, off, "event record: root flag on a %s (only a call has it)",
			    dcg_ev_kind_name(ev->kind));
	if ((ev->kind == DCG_EV_CALL || ev->kind == DCG_EV_ASYNC) &&
	    ev->depth == 0)
		return fail(r, off, "event record: depth 0 on a %s (a new frame is at least 1)",
			    dcg_ev_kind_name(ev->kind));
	if (ev->kind == DCG_EV_RET && ev->depth >= DCG_EVENT_DEPTH_MAX)
		return fail(r, off, "event record: depth %u on a ret, the limit is %u",
			    ev->depth, DCG_EVENT_DEPTH_MAX - 1);
	if ((ev->flags & DCG_EVF_UNMATCHED) && ev->depth)
		return fail(r, off, "event record: depth %u on an unmatched ret (must be 0)",
			    ev->depth);
	if (ev->flags & DCG_EVF_INEXACT)
		r->inexact++;
	return check_args(r, ev);
}

static int check_map(struct dcg_reader *r, const struct dcg_rec_map *m)
{
	if (!has_nul(m + 1, m->r.size - sizeof(*m)))
		return fail(r, r->offset, "map record: path not NUL-terminated");
	if (m->build_id_len > sizeof(m->build_id))
		return fail(r, r->offset, "map record: build-id length %u > 24",
			    m->build_id_len);
	if (m->start >= m->end)
		return fail(r, r->offset,
			    "map record: start 0x%llx is not below end 0x%llx",
			    (unsigned long long)m->start,
			    (unsigned long long)m->end);
	if (m->prot & ~7u)
		return fail(r, r->offset, "map record: prot 0x%x unknown",
			    m->prot);
	return 0;
}

const struct dcg_prof_ent *dcg_rec_profile_ent(const struct dcg_rec_profile *p)
{
	return (const void *)(p + 1);
}

/* The views sum count * ninsns: each entry is what a tracer can write. */
static int check_profile(struct dcg_reader *r, const struct dcg_rec_profile *p)
{
	const struct dcg_prof_ent *e = dcg_rec_profile_ent(p);
	dcg_u32 i;

	if (p->r.size != sizeof(*p) + (size_t)p->nent * sizeof(*e))
		return fail(r, r->offset,
			    "profile record: size %u does not hold its %u entries (needs %zu)",
			    p->r.size, p->nent,
			    sizeof(*p) + (size_t)p->nent * sizeof(*e));
	if (p->flags & ~DCG_PROF_ALL)
		return fail(r, r->offset, "profile record: flags 0x%x unknown",
			    p->flags & ~DCG_PROF_ALL);
	for (i = 0; i < p->nent; i++) {
		if (!e[i].ninsns || !e[i].count)
			return fail(r, r->offset,
				    "profile record: entry %u has %u insns run %llu times (both must be >= 1)",
				    i, e[i].ninsns,
				    (unsigned long long)e[i].count);
		if (e[i].start + e[i].ninsns < e[i].start)
			return fail(r, r->offset,
				    "profile record: entry %u at 0x%llx wraps around the address space",
				    i, (unsigned long long)e[i].start);
	}
	return 0;
}

/* Type-specific checks of a record whose size is already sane. */
static int check_thread(struct dcg_reader *r, const struct dcg_rec_thread *t)
{
	if (t->what < DCG_THREAD_START || t->what > DCG_THREAD_EXEC)
		return fail(r, r->offset,
			    "thread record: what %u is unknown", t->what);
	if (t->pid >= DCG_TID_LIMIT)
		return fail(r, r->offset,
			    "thread record: pid %u is above the limit %u",
			    t->pid, DCG_TID_LIMIT - 1);
	return 0;
}

static int check_switch(struct dcg_reader *r, const struct dcg_rec_switch *w)
{
	if (w->in_ts < w->out_ts)
		return fail(r, r->offset,
			    "switch record: back in (%llu) before out (%llu)",
			    (unsigned long long)w->in_ts,
			    (unsigned long long)w->out_ts);
	return 0;
}

static int check_irq(struct dcg_reader *r, const struct dcg_rec_irq *q)
{
	if (q->end_ts < q->start_ts)
		return fail(r, r->offset,
			    "irq record: ends (%llu) before it starts (%llu)",
			    (unsigned long long)q->end_ts,
			    (unsigned long long)q->start_ts);
	if (!dcg_irq_hard(q) && !q->faults)
		return fail(r, r->offset,
			    "irq record: no interrupt or exception counted");
	return 0;
}

static int check_lost(struct dcg_reader *r, const struct dcg_rec_lost *l)
{
	if (l->reason < DCG_LOST_BUDGET || l->reason > DCG_LOST_DEPTH)
		return fail(r, r->offset,
			    "lost record: reason %u is unknown", l->reason);
	return 0;
}

static int check_ksym(struct dcg_reader *r, const struct dcg_rec *rec)
{
	const unsigned char *p = (const unsigned char *)rec;

	if (!has_nul(p + sizeof(struct dcg_rec_ksym),
		     rec->size - sizeof(struct dcg_rec_ksym)))
		return fail(r, r->offset, "ksym record: name not NUL-terminated");
	return 0;
}

static int check_record(struct dcg_reader *r, const struct dcg_rec *rec)
{
	unsigned int type = rec->type;

	if (rec->size < rec_min_size(r, type))
		return fail(r, r->offset,
			    "%s record too small: size %u, needs at least %zu",
			    rec_names[type], rec->size, rec_min_size(r, type));
	if (rec->tid >= DCG_TID_LIMIT)
		return fail(r, r->offset, "%s record: tid %u is above the limit %u",
			    rec_names[type], rec->tid, DCG_TID_LIMIT - 1);
	switch (type) {
	case DCG_REC_PROFILE:	return check_profile(r, (const void *)rec);
	case DCG_REC_HEADER:	return check_header(r, (const void *)rec);
	case DCG_REC_EVENT:	return check_event(r, (const void *)rec);
	case DCG_REC_MAP:	return check_map(r, (const void *)rec);
	case DCG_REC_KSYM:	return check_ksym(r, rec);
	case DCG_REC_THREAD:	return check_thread(r, (const void *)rec);
	case DCG_REC_SWITCH:	return check_switch(r, (const void *)rec);
	case DCG_REC_IRQ:	return check_irq(r, (const void *)rec);
	case DCG_REC_LOST:	return check_lost(r, (const void *)rec);
	}
	return 0;
}

static void account(struct dcg_reader *r, const struct dcg_rec *rec)
{
	if (!dcg_rec_min_size(rec->type)) {
		r->unknown++;
		return;
	}
	r->count[rec->type]++;
	if (rec->type == DCG_REC_LOST) {
		const struct dcg_rec_lost *l = (const void *)rec;

		r->lost += l->count;
		r->lost_by_reason[l->reason < 4 ? l->reason : 0] += l->count;
	} else if (rec->type == DCG_REC_PROFILE) {
		const struct dcg_rec_profile *p = (const void *)rec;

		r->profile_dropped += p->dropped;
	} else if (rec->type == DCG_REC_STATS) {
		memcpy(&r->stats, rec, sizeof(r->stats));
		r->have_stats = true;
	}
}

int dcg_reader_next(struct dcg_reader *r, const struct dcg_rec **out)
{
	const struct dcg_rec *rec;
	size_t avail;

	if (r->err[0])
		return -1;
	r->offset = r->next_offset;
	if (fill(r, sizeof(struct dcg_rec)) < 0)
		return -1;
	avail = r->len - r->pos;
	if (avail == 0) {
		if (!r->have_header)
			return fail(r, 0, "empty file, not a dyncg trace");
		return 0;
	}
	if (avail < sizeof(struct dcg_rec))
		return fail(r, r->offset,
			    "truncated record: %zu bytes left, a record header needs 8",
			    avail);
	rec = (const void *)(r->buf + r->pos);
	if (!r->have_header && (rec->type != DCG_REC_HEADER ||
				rec->size < sizeof(struct dcg_rec_header) ||
				rec->size > DCG_REC_MAX_SIZE))
		return fail(r, r->offset,
			    "not a dyncg trace (does not start with a header record)");
	if (rec->size < sizeof(struct dcg_rec))
		return fail(r, r->offset, "record size %u is too small (type %u)",
			    rec->size, rec->type);
	if (rec->size % 8)
		return fail(r, r->offset,
			    "record size %u is not a multiple of 8 (type %u)",
			    rec->size, rec->type);
	if (rec->size > DCG_REC_MAX_SIZE)
		return fail(r, r->offset,
			    "record size %u exceeds the maximum %u (type %u)",
			    rec->size, DCG_REC_MAX_SIZE, rec->type);
	if (fill(r, rec->size) < 0)
		return -1;
	rec = (const void *)(r->buf + r->pos);
	avail = r->len - r->pos;
	if (avail < rec->size)
		return fail(r, r->offset,
			    "truncated record: %zu of %u bytes (type %u)",
			    avail, rec->size, rec->type);
	if (dcg_rec_min_size(rec->type) && check_record(r, rec) < 0)
		return -1;
	r->pos += rec->size;
	r->next_offset += rec->size;
	account(r, rec);
	*out = rec;
	if (rec->type == DCG_REC_EVENT && r->header.version < 2) {
		/*
		 * Hand out a whole event, instruction count unknown (0);
		 * r.size stays what the stream holds.
		 */
		memset(&r->ev_v1, 0, sizeof(r->ev_v1));
		memcpy(&r->ev_v1, rec, DCG_EVENT_SIZE_V1);
		*out = &r->ev_v1.r;
	}
	return 1;
}

const char *dcg_rec_map_path(const struct dcg_rec_map *m)
{
	return (const char *)(m + 1);
}

const char *dcg_rec_ksym_name(const struct dcg_rec_ksym *k)
{
	return (const char *)(k + 1);
}

const char *dcg_ev_kind_name(unsigned int kind)
{
	switch (kind) {
	case DCG_EV_CALL:	return "call";
	case DCG_EV_RET:	return "ret";
	case DCG_EV_TAILCALL:	return "tailcall";
	case DCG_EV_ASYNC:	return "async";
	}
	return "unknown";
}

const char *dcg_lost_reason_name(unsigned int reason)
{
	switch (reason) {
	case DCG_LOST_BUDGET:	return "budget";
	case DCG_LOST_BUFFER:	return "buffer";
	case DCG_LOST_DEPTH:	return "depth";
	}
	return "unknown";
}

const char *dcg_mode_name(unsigned int mode)
{
	switch (mode) {
	case DCG_MODE_STEP:		return "step";
	case DCG_MODE_BLOCK:		return "block";
	case DCG_MODE_EMU_BLOCK:	return "emu-block";
	case DCG_MODE_HOP:		return "hop";
	}
	return "unknown";
}
