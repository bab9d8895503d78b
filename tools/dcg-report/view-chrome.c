// SPDX-License-Identifier: GPL-2.0
/*
 * view-chrome.c - Trace Event Format JSON, for Perfetto and
 * chrome://tracing.  Each call becomes one complete event ("ph":"X")
 * written when it returns, so memory stays flat and every file is a
 * whole JSON document even when --max-size splits the output: with
 * -o NAME.json the files are NAME.1.json, NAME.2.json, ...  Times are
 * microseconds (the format's unit) with ns precision, and include
 * tracing overhead (otherData says so); args carry the depth and the
 * call's inclusive instructions, and in a version 3 trace the call's
 * arguments ("args": {name: value text}) and "retval" (args.c).  Returns that match no call become
 * instant events ("ph":"i").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

struct chrome {
	FILE *f;
	unsigned int fileno;
	dcg_u64 bytes;
	bool first;
	char *base;			/* output name without .json */
};

static void open_part(struct report *rp, struct chrome *c)
{
	char comm[17];
	long n;

	memcpy(comm, rp->rd.header.comm, 16);
	comm[16] = '\0';
	if (rp->o->max_size) {
		char name[4096];

		snprintf(name, sizeof(name), "%s.%u.json", c->base, ++c->fileno);
		c->f = fopen(name, "w");
		if (!c->f) {
			dcg_warn("%s: %s", name,
				strerror(errno));
			exit(1);
		}
	} else {
		c->f = rp->out;
	}
	fprintf(c->f, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"pid\":%u,\"comm\":",
		rp->rd.header.pid);
	dcg_put_json(c->f, comm);
	fputs(",\"note\":\"times include tracing overhead\"},\"traceEvents\":[",
	      c->f);
	n = ftell(c->f);
	c->bytes = n > 0 ? n : 200;
	c->first = true;
}

/* One metadata event ("ph":"M") naming the process or a thread. */
static void put_name(struct chrome *c, const char *what, dcg_u32 pid,
		     dcg_u32 tid, const char *comm16)
{
	char name[17];

	memcpy(name, comm16, 16);
	name[16] = '\0';
	fprintf(c->f, "%s{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%u,",
		c->first ? "\n" : ",\n", what, pid);
	if (tid)
		fprintf(c->f, "\"tid\":%u,", tid);
	fputs("\"args\":{\"name\":", c->f);
	dcg_put_json(c->f, name);
	fputs("}}", c->f);
	c->first = false;
}

/*
 * Every file names the process and the threads known so far, so that
 * each part of a split trace opens with names in Perfetto: a thread by
 * its THREAD record, else the main thread by the header's comm.
 */
static void put_names(struct report *rp, struct chrome *c)
{
	const struct dcg_rec_header *h = &rp->rd.header;
	dcg_u32 i;

	put_name(c, "process_name", h->pid, 0, h->comm);
	for (i = 0; i < rp->nthreads; i++) {
		const struct thread *t = &rp->threads[i];

		if (t->named)
			put_name(c, "thread_name", h->pid, t->tid, t->comm);
		else if (t->tid == h->pid)
			put_name(c, "thread_name", h->pid, t->tid, h->comm);
	}
}

static void close_part(struct report *rp, struct chrome *c)
{
	put_names(rp, c);
	fputs("\n]}\n", c->f);
	if (c->f != rp->out && fclose(c->f)) {
		dcg_warn("write error: %s", strerror(errno));
		exit(1);
	}
}

static int start(struct report *rp)
{
	struct chrome *c = xcalloc(1, sizeof(*c));
	const char *o = rp->o->output;
	size_t n;

	if (rp->o->max_size) {
		if (!o) {
			dcg_warn("--max-size needs -o FILE");
			return -1;
		}
		n = strlen(o);
		c->base = xstrdup(o);
		if (n > 5 && !strcmp(o + n - 5, ".json"))
			c->base[n - 5] = '\0';
	}
	rp->view_data = c;
	open_part(rp, c);
	return 0;
}

/* At most this many bytes per name put_names() writes. */
#define NAME_EVENT_MAX	200

static dcg_u64 names_size(const struct report *rp)
{
	dcg_u64 n = 1;
	dcg_u32 i;

	for (i = 0; i < rp->nthreads; i++)
		n += rp->threads[i].named ||
		     rp->threads[i].tid == rp->rd.header.pid;
	return n * NAME_EVENT_MAX;
}

/*
 * Start an event of at most @need bytes, in a new file when it, the
 * names and the closing "]}" would not fit under --max-size.  Every
 * event is measured before it is written; only an event bigger than the
 * limit on its own gets a file that exceeds it.
 */
static void event_start(struct report *rp, struct chrome *c, size_t need)
{
	if (rp->o->max_size && !c->first &&
	    c->bytes + 2 + need + names_size(rp) + 4 > rp->o->max_size) {
		close_part(rp, c);
		open_part(rp, c);
	}
	fputs(c->first ? "\n" : ",\n", c->f);
	c->bytes += c->first ? 1 : 2;
	c->first = false;
}

static void put_us(FILE *f, const char *key, dcg_u64 ns)
{
	fprintf(f, ",\"%s\":%llu.%03llu", key, (unsigned long long)(ns / 1000),
		(unsigned long long)(ns % 1000));
}

/* The arguments as an object of name: value text, and the retval. */
static void put_args(struct report *rp, FILE *f, const struct frame *fr)
{
	struct arg_text *a;
	unsigned int n, i;
	bool more;
	char rv[8192];

	if (show_args(rp) && fr->args) {
		n = args_get(rp, fr, &a, &more);
		fputs(",\"args\":{", f);
		for (i = 0; i < n; i++) {
			if (i)
				putc(',', f);
			dcg_put_json(f, a[i].name);
			putc(':', f);
			dcg_put_json(f, a[i].value);
		}
		putc('}', f);
		args_free(a, n);
	}
	if (retval_text(rp, fr, rv, sizeof(rv))) {
		fputs(",\"retval\":", f);
		dcg_put_json(f, rv);
	}
}

static void leave(struct report *rp, struct thread *t, struct frame *fr,
		  const struct dcg_rec_event *ret, dcg_u64 end_ts,
		  dcg_u64 insns)
{
	struct chrome *c = rp->view_data;
	dcg_u64 dur = end_ts >= fr->ev.ts ? end_ts - fr->ev.ts : 0;
	struct name_buf nb;
	const char *name = fr->placeholder ? "[unknown]" :
			   func_name(rp, fr->ev.to, &nb);
	long pos;
	FILE *f;

	/* the fixed part is < 250 bytes; a name escapes to <= 6 x its size */
	event_start(rp, c, 250 + 6 * strlen(name));
	f = c->f;
	pos = ftell(f);
	fputs("{\"name\":", f);
	dcg_put_json(f, name);
	fprintf(f, ",\"cat\":\"%s\",\"ph\":\"X\"",
		fr->ev.kind == DCG_EV_ASYNC ? "async" :
		fr->ev.kind == DCG_EV_TAILCALL ? "tailcall" : "call");
	put_us(f, "ts", rel_ts(rp, fr->ev.ts));
	put_us(f, "dur", dur);
	fprintf(f, ",\"pid\":%u,\"tid\":%u,\"args\":{\"depth\":%u",
		rp->rd.header.pid, t->tid, fr->ev.depth);
	if (have_insns(rp))	/* inclusive instructions */
		fprintf(f, ",\"insns\":%llu", (unsigned long long)insns);
	put_args(rp, f, fr);
	fprintf(f, "%s}}", !ret ? ",\"end\":\"no return seen\"" :
		ret->flags & DCG_EVF_SYNTHETIC ? ",\"end\":\"synthetic\"" : "");
	c->bytes += pos >= 0 ? ftell(f) - pos : 250 + 6 * strlen(name);
}

static void orphan(struct report *rp, struct thread *t,
		   const struct dcg_rec_event *ev)
{
	struct chrome *c = rp->view_data;
	struct name_buf nb;
	const char *name = func_base_name(rp, ev->from, &nb);
	long pos;

	event_start(rp, c, 250 + 6 * strlen(name));
	pos = ftell(c->f);
	fputs("{\"name\":", c->f);
	dcg_put_json(c->f, name);
	fputs(",\"cat\":\"unmatched\",\"ph\":\"i\",\"s\":\"t\"", c->f);
	put_us(c->f, "ts", rel_ts(rp, ev->ts));
	fprintf(c->f, ",\"pid\":%u,\"tid\":%u}", rp->rd.header.pid, t->tid);
	c->bytes += pos >= 0 ? ftell(c->f) - pos : 250 + 6 * strlen(name);
}

static int finish(struct report *rp)
{
	struct chrome *c = rp->view_data;

	close_part(rp, c);
	note_dropped(rp);
	free(c->base);
	free(c);
	return 0;
}

const struct view view_chrome = {
	.name = "chrome", .start = start, .leave = leave, .orphan = orphan,
	.finish = finish,
};
