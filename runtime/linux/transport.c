// SPDX-License-Identifier: GPL-2.0
/*
 * transport.c - events into the SystemTap transport.
 *
 * Binary mode writes the exact records of runtime/dcg_event.h, so that
 * `stap -o FILE` (or stdout) is a trace dcg-report reads: a HEADER
 * first, THREAD and MAP records when a window opens, EVENTs, LOST when
 * the budget or the transport dropped some, EDGE and STATS at the end.
 * Text mode prints one indented `->` / `<-` line per event, symbolized
 * with stap's own tables (run stap with -d BINARY or --ldd).
 *
 * Records are copied into stap's per-CPU print buffer under its print
 * lock and flushed at once: the #DB handler is not a probe, so nobody
 * else would flush them.  Every flush holds whole records only.
 */
#include <linux/mm.h>
#include <linux/dcache.h>
#include <linux/relay.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/delay.h>
#include <linux/jiffies.h>

#define DCG_READ_WAIT_MS	1000	/* longest wait for stapio to make
					 * progress reading */
#define DCG_READ_WAIT_MAX_MS	20000	/* longest wait in all */

/* stap's print buffer and transport state: kcompat.h S3, S5 */

/*
 * Append whole records to this CPU's print buffer.  A probe handler's
 * epilogue flushes that buffer; elsewhere (the #DB handler, task work)
 * use dcg_out_commit(), or a slot's buffer and dcg_out_flush().
 */
static int dcg_out_raw(const void *rec, unsigned int len)
{
	unsigned long flags;
	void *p;

	if (!dcg_print_trylock(&flags))
		return -EBUSY;
	p = _stp_reserve_bytes(len);
	if (p)
		memcpy(p, rec, len);
	dcg_print_unlock(&flags);
	return p ? 0 : -ENOSPC;
}

/*
 * A workaround for the runtime's relay writer (print_flush.c): a message
 * starts with an 8-byte header that must fit in the current relay
 * sub-buffer, and when 1 to 8 bytes are left there the flush fails and
 * those bytes go to the reader as garbage, breaking the framing of what
 * follows ("transport failures").  A probe flushes rarely; we flush every
 * few KiB, so we would hit it within a few hundred KiB.  Around each of
 * our flushes, a sub-buffer with that little room left is closed now
 * (its tail becomes padding, which the reader skips).  The relay channel
 * is the runtime's; probe begin hands it over (dcg_g.rchan, kcompat.h
 * S4) because its definition comes after this file in the module source.
 */
static void dcg_relay_guard(void)
{
	struct rchan *chan = dcg_g.rchan;
	struct rchan_buf *buf;
	unsigned long flags;

	if (!chan || !dcg_print_trylock(&flags))
		return;
	buf = *per_cpu_ptr(chan->buf, raw_smp_processor_id());
	if (buf && buf->offset < chan->subbuf_size &&
	    chan->subbuf_size - buf->offset <= dcg_g.stp_hlen)
		relay_switch_subbuf(buf, 0);
	dcg_print_unlock(&flags);
}

/*
 * Has stapio left anything of the relay unread?  Its read path switches
 * out a sub-buffer holding data before reading, so "all read" is every
 * buffer at offset 0 with nothing produced that was not consumed.
 * @consumed (may be NULL) gets a sum of what has been consumed on all
 * CPUs (sub-buffers and bytes of the current one): it grows while
 * stapio reads.
 */
static bool dcg_relay_unread(size_t *consumed)
{
	struct rchan *chan = dcg_g.rchan;
	bool unread = false;
	size_t n = 0;
	int cpu;

	if (!chan)
		return false;
	for_each_online_cpu(cpu) {
		struct rchan_buf *buf = *per_cpu_ptr(chan->buf, cpu);

		if (!buf)
			continue;
		n += READ_ONCE(buf->subbufs_consumed) +
		     READ_ONCE(buf->bytes_consumed);
		if (READ_ONCE(buf->offset) ||
		    READ_ONCE(buf->subbufs_produced) !=
		    READ_ONCE(buf->subbufs_consumed))
			unread = true;
	}
	if (consumed)
		*consumed = n;
	return unread;
}

/* Set when stapio did not keep up once: do not hold anyone up again. */
static int dcg_reader_slow;

/*
 * Wait (sleeping, bounded) until stapio has read everything.  Stap 4.8's
 * stapio reads the relay one message per loop and, once it is told to
 * exit (close_relayfs), ends after the message in hand: whatever is
 * still unread is lost without a word, stap's own end-of-run output
 * included.  A window is written while its task holds the CPU in the
 * kernel, so stapio typically still has most of it to read when the
 * traced program exits, and the session's end then races stapio's
 * reader.  Called in the traced task on its way back to user mode, or
 * in its exit_task_work() (task work of a user-mode window that closed,
 * window.c, and a kernel window's guard, kernel_window.c): the program
 * goes on, or ends, only once its window has been read.  Never in
 * stapio itself, which would wait for its own reader thread.
 *
 * A stapio that reads slowly (a loaded machine: the stress test lost
 * 42 of 6371 events at load 10 when the wait gave up after 1 s) is
 * waited for as long as it makes progress, up to DCG_READ_WAIT_MAX_MS;
 * one that reads nothing for DCG_READ_WAIT_MS is taken as stuck, and
 * nobody waits for it again.
 */
static void dcg_out_wait_read(void)
{
	unsigned long start = jiffies;
	unsigned long until = start + msecs_to_jiffies(DCG_READ_WAIT_MS);
	unsigned long cap = start + msecs_to_jiffies(DCG_READ_WAIT_MAX_MS);
	size_t seen = 0, now;

	if (!dcg_g.rchan || READ_ONCE(dcg_reader_slow) ||
	    current->tgid == _stp_pid)
		return;
	dcg_relay_unread(&seen);
	while (dcg_relay_unread(&now)) {
		if (now != seen) {	/* stapio read something */
			seen = now;
			until = jiffies + msecs_to_jiffies(DCG_READ_WAIT_MS);
		}
		if (time_after(jiffies, until) || time_after(jiffies, cap)) {
			WRITE_ONCE(dcg_reader_slow, 1);
			return;
		}
		/* exiting: stapio stops reading, teardown waits for us */
		if (fatal_signal_pending(current) ||
		    READ_ONCE(_stp_exit_flag) || READ_ONCE(dcg_g.stopping))
			return;
		msleep(1);
	}
}

/* Append and hand to the transport now, as one message. */
static int dcg_out_commit(const void *rec, unsigned int len)
{
	unsigned long flags;
	int rc;

	dcg_print_section_begin(flags);	/* stap 4.4: kcompat.h S5 */
	rc = dcg_out_raw(rec, len);
	if (!rc) {
		dcg_relay_guard();
		_stp_print_flush();
		dcg_relay_guard();
	}
	dcg_print_section_end(flags);
	return rc;
}

/*
 * A slot collects its records and sends them a few KiB at a time: the
 * transport spends a buffer slot per message, so one message per event
 * fills it within a few hundred events under a slow consumer.  Records
 * of one thread stay in order, whichever CPUs it runs on.
 */
static void dcg_out_flush(struct dcg_slot *s)
{
	if (!s->obuf_len)
		return;
	if (dcg_out_commit(s->obuf, s->obuf_len)) {
		s->lost_buffer += s->obuf_events;
		atomic64_add(s->obuf_events, &dcg_g.dropped);
		s->prof_carry += s->obuf_prof_insns;	/* said in the next */
	} else {
		atomic64_add(s->obuf_events, &dcg_g.written);
	}
	s->obuf_len = 0;
	s->obuf_events = 0;
	s->obuf_prof_insns = 0;
}

static void dcg_out_slot(struct dcg_slot *s, const void *rec,
			 unsigned int len, int events)
{
	if (s->obuf && s->obuf_len + len > DCG_OBUF_SIZE)
		dcg_out_flush(s);
	if (!s->obuf || len > DCG_OBUF_SIZE) {
		if (dcg_out_commit(rec, len)) {
			s->lost_buffer += events;
			atomic64_add(events, &dcg_g.dropped);
		} else {
			atomic64_add(events, &dcg_g.written);
		}
		return;
	}
	memcpy(s->obuf + s->obuf_len, rec, len);
	s->obuf_len += len;
	s->obuf_events += events;
}

/*
 * The stream header, once, before any other record of ours.  Its pid
 * and comm are those of the first traced process (@t, may be NULL).
 */
static void dcg_out_header(struct task_struct *t)
{
	struct dcg_rec_header h;
	int spins = 0;

	if (dcg_g.output != DCG_OUT_BINARY)
		return;
	if (atomic_cmpxchg(&dcg_g.header_done, 0, 1) != 0) {
		while (atomic_read(&dcg_g.header_done) == 1 && spins++ < 100000)
			cpu_relax();
		return;
	}
	memset(&h, 0, sizeof(h));
	h.r.type = DCG_REC_HEADER;
	h.r.size = sizeof(h);
	memcpy(h.magic, DCG_TRACE_MAGIC, sizeof(h.magic));
	h.version = DCG_TRACE_VERSION;
	h.host = DCG_HOST_STAP;
	h.mode = dcg_hop_trace_mode();
	h.start_ns = dcg_g.start_ns;
	if (dcg_g.kernel)		/* dyncg kernel mode */
		h.flags |= DCG_HDR_KERNEL;
	if (t) {
		h.pid = t->tgid;
		memcpy(h.comm, t->comm, sizeof(h.comm));
	}
	dcg_out_commit(&h, sizeof(h));
	atomic_set(&dcg_g.header_done, 2);
}

static const char *dcg_kind_arrow(const struct dcg_rec_event *e)
{
	switch (e->kind) {
	case DCG_EV_CALL:	return "->";
	case DCG_EV_RET:	return "<-";
	case DCG_EV_TAILCALL:	return "=>";
	default:		return "~>";
	}
}

/*
 * A user address's name from stap's tables.  A bound PLT stub is named
 * by its target, "target@plt" (plt_stub.c), when stap knows the target
 * (its object was given with -d or --ldd); an unbound one "[plt,
 * unbound]"; never by the symbol before .plt, stap's name for it.
 */
static void dcg_user_sym(struct dcg_slot *s, const struct dcg_rec_event *e,
			 unsigned long at, char *sym, size_t len)
{
	int stub = DCG_PLT_NONE;
	u64 target = 0;
	size_t n;

	/*
	 * Another task's address (probe end closing its window, in
	 * stapio): no stap look-up.  At module exit stap 4.4's vma map can
	 * be gone: stap_find_vma_map_info() walked freed memory there (a
	 * general protection fault, bullseye, stap-skip.exp's unload while
	 * blocked in a skipped read, 2 runs of 3).  The raw address; the
	 * binary trace's MAP records name it in dcg-report.
	 */
	if (s->task != current) {
		snprintf(sym, len, "0x%lx", at);
		return;
	}
	if (e->kind != DCG_EV_RET)
		stub = dcg_plt_stub(at, &target);
	if (stub == DCG_PLT_UNBOUND) {
		strscpy(sym, "[plt, unbound]", len);
		return;
	}
	if (stub == DCG_PLT_BOUND) {
		DCG_STP_SNPRINT_ADDR(sym, len, target, _STP_SYM_SYMBOL,
				     s->task);	/* kcompat.h S1 */
		n = strnlen(sym, len);
		if (strncmp(sym, "0x", 2) && n + sizeof("@plt") <= len) {
			memcpy(sym + n, "@plt", sizeof("@plt"));
			return;
		}
	}
	DCG_STP_SNPRINT_ADDR(sym, len, at, _STP_SYM_SYMBOL, s->task);
}

/* Printable bytes as they are, the rest (and " \\) escaped. */
static int dcg_text_str(char *p, int room, const u8 *b, unsigned int len)
{
	unsigned int i;
	int n = 0;

	for (i = 0; i < len && n < room; i++) {
		if (b[i] >= 0x20 && b[i] < 0x7f && b[i] != '"' && b[i] != '\\')
			p[n++] = b[i];
		else
			n += scnprintf(p + n, room - n, "\\x%02x", b[i]);
	}
	return n;
}

/*
 * The registers after the event, para-callgraph's way: raw hex in
 * register order (" arg1=0x... arg2=0x..."), a string read at an
 * argument after its value (:"text", ... when cut, ?! when memory ended
 * first), " return=0x..." after a ret (and return2= for rdx).
 */
static int dcg_text_regs(char *p, int room, const struct dcg_rec_event *e)
{
	const struct dcg_ev_args *a = (const void *)(e + 1);
	const u64 *v = (const void *)(a + 1);
	const struct dcg_ev_str *str = (const void *)(v + a->nregs);
	unsigned int i, k, nstr = 0;
	int n = 0;

	if (!dcg_g.text_regs || e->r.size <= sizeof(*e))
		return 0;
	for (i = 0; i < a->nregs && n < room; i++) {
		if (e->kind == DCG_EV_RET && !i)
			n += scnprintf(p + n, room - n, " return=0x%llx", v[i]);
		else if (e->kind == DCG_EV_RET)
			n += scnprintf(p + n, room - n, " return%u=0x%llx",
				       i + 1, v[i]);
		else
			n += scnprintf(p + n, room - n, " arg%u=0x%llx", i + 1,
				       v[i]);
		/* the strings come in argument order */
		if (nstr < a->nstr && str->argno == i) {
			n += scnprintf(p + n, room - n, ":\"");
			k = room - n > 5 ? room - n - 5 : 0;	/* "...  */
			n += dcg_text_str(p + n, k, (const u8 *)(str + 1),
					  str->len);
			n += scnprintf(p + n, room - n, "\"%s",
				       (str->flags & DCG_STR_TRUNC) ? "..." :
				       (str->flags & DCG_STR_FAULT) ? "?!" : "");
			str = (const void *)((const u8 *)(str + 1) +
					     ((str->len + 7) & ~7u));
			nstr++;
		}
	}
	return n;
}

static void dcg_out_text_event(struct dcg_slot *s,
			       const struct dcg_rec_event *e)
{
	char sym[128], *line = s->tline;
	/* the binary trace's clock: ns since the trace start */
	u64 ns = e->ts > dcg_g.start_ns ? e->ts - dcg_g.start_ns : 0;
	unsigned long at = e->kind == DCG_EV_RET ? e->from : e->to;
	int indent = e->depth > 40 ? 40 : e->depth;
	int n;

	if (!atomic_cmpxchg(&dcg_g.text_unit_done, 0, 1)) {
		static const char unit[] =
			"dynamic call graph: times in ns since the trace start\n";

		dcg_out_slot(s, unit, sizeof(unit) - 1, 0);
	}

	if (!dcg_ksym_text(at, sym, sizeof(sym)))	/* dyncg kernel mode */
		dcg_user_sym(s, e, at, sym, sizeof(sym));
	n = scnprintf(line, DCG_TEXT_LINE - 1, "%12llu %s(%d):%*s%s %s",
		      ns, s->task->comm, s->tid, indent, "",
		      dcg_kind_arrow(e), sym);
	n += dcg_text_regs(line + n, DCG_TEXT_LINE - 1 - n, e);
	n += scnprintf(line + n, DCG_TEXT_LINE - 1 - n, "%s%s%s",
		       (e->flags & DCG_EVF_SYNTHETIC) ? " (resync)" : "",
		       (e->flags & DCG_EVF_UNMATCHED) ? " (unmatched)" : "",
		       (e->flags & DCG_EVF_END) ? " (window end)" : "");
	line[n++] = '\n';
	dcg_out_slot(s, line, n, 1);
}

static void dcg_out_event(struct dcg_slot *s, const struct dcg_rec_event *e)
{
	switch (dcg_g.output) {
	case DCG_OUT_BINARY:
		dcg_out_slot(s, e, e->r.size, 1);	/* with its registers */
		break;
	case DCG_OUT_TEXT:
		dcg_out_text_event(s, e);
		break;
	default:
		break;
	}
}

static void dcg_out_thread(struct dcg_slot *s, u32 what)
{
	struct dcg_rec_thread r;

	if (dcg_g.output != DCG_OUT_BINARY)
		return;
	dcg_out_header(s->task);
	memset(&r, 0, sizeof(r));
	r.r.type = DCG_REC_THREAD;
	r.r.size = sizeof(r);
	r.r.tid = s->tid;
	r.ts = dcg_now_ns();
	r.what = what;
	r.pid = s->pid;
	memcpy(r.comm, s->task->comm, sizeof(r.comm));
	dcg_out_slot(s, &r, sizeof(r), 0);
}

/*
 * A context switch inside a kernel window (sched_hooks.c), written at
 * the first stop after it, before the events that follow.  Live text:
 * one line in the manner of ftrace's "=>" switch lines, at the time the
 * thread came back; it matches no event line.
 */
static void dcg_out_switch(struct dcg_slot *s, u64 out_ts, u16 out_cpu,
			   u64 in_ts, u16 in_cpu, u64 at)
{
	struct dcg_rec_switch r;
	char line[160];
	int n;

	if (in_ts < out_ts)
		in_ts = out_ts;
	if (dcg_g.output == DCG_OUT_TEXT) {
		n = snprintf(line, sizeof(line),
			     "%12llu %s(%d): ==> switch: out on CPU %u at %llu ns, in on CPU %u, %llu ns off CPU\n",
			     in_ts > dcg_g.start_ns ? in_ts - dcg_g.start_ns : 0,
			     s->task->comm, s->tid, out_cpu,
			     out_ts > dcg_g.start_ns ? out_ts - dcg_g.start_ns : 0,
			     in_cpu, in_ts - out_ts);
		dcg_out_slot(s, line, min_t(int, n, sizeof(line) - 1), 0);
		return;
	}
	if (dcg_g.output != DCG_OUT_BINARY)
		return;
	dcg_rec_switch_fill(&r, s->tid, out_ts, out_cpu, in_ts, in_cpu, at);
	dcg_out_slot(s, &r, sizeof(r), 0);
}

/*
 * The engine's profile table (dynamic_call_graph_annotate), from the
 * #DB handler when it is full or at the window's end: PROFILE records
 * built in place in the slot's buffer (no stack buffer, no allocation),
 * as many entries a record as fill it.  What the transport refuses is
 * counted and said in the thread's next PROFILE (dropped).
 */
#define DCG_KPROF_ENT	((DCG_OBUF_SIZE - sizeof(struct dcg_rec_profile)) / \
			 sizeof(struct dcg_prof_ent))

static struct dcg_rec_profile *dcg_prof_rec(struct dcg_slot *s, u64 dropped)
{
	struct dcg_rec_profile *r;

	if (s->obuf_len + sizeof(*r) + sizeof(struct dcg_prof_ent) >
	    DCG_OBUF_SIZE)
		dcg_out_flush(s);
	r = (void *)(s->obuf + s->obuf_len);
	memset(r, 0, sizeof(*r));
	r->r.type = DCG_REC_PROFILE;
	r->r.size = sizeof(*r);
	r->r.tid = s->tid;
	r->ts = dcg_now_ns();
	r->dropped = dropped;
	s->obuf_len += sizeof(*r);
	s->obuf_prof_insns += dropped;
	return r;
}

static int dcg_out_profile(void *ctx, const struct dcg_profile *p,
			   unsigned int flags)
{
	struct dcg_slot *s = ctx;
	struct dcg_rec_profile *r;
	u32 i;

	if (dcg_g.output != DCG_OUT_BINARY || !s->obuf)
		return -1;
	r = dcg_prof_rec(s, p->dropped + s->prof_carry);
	s->prof_carry = 0;
	for (i = 0; i < p->cap; i++) {
		const struct dcg_prof_ent *e = &p->slots[i];

		if (!e->count)
			continue;
		if (r->nent == DCG_KPROF_ENT ||
		    s->obuf_len + sizeof(*e) > DCG_OBUF_SIZE)
			r = dcg_prof_rec(s, 0);
		memcpy(s->obuf + s->obuf_len, e, sizeof(*e));
		s->obuf_len += sizeof(*e);
		s->obuf_prof_insns += e->count * e->ninsns;
		r->nent++;
		r->r.size += sizeof(*e);
	}
	r->flags = flags;
	return 0;
}

/* Append to a text line, clamped: returns the new length (< @len). */
static int dcg_line_add(char *line, int n, int len, const char *fmt, ...)
{
	va_list ap;

	if (n >= len - 1)
		return len - 1;
	va_start(ap, fmt);
	n += vsnprintf(line + n, len - n, fmt, ap);
	va_end(ap);
	return min(n, len - 1);
}

/*
 * Interrupts or page faults between two stops of a kernel window
 * (kernel_trap.c), written at the stop after, before its event.  Live
 * text: one line in the manner of ftrace's "==========>" marks, at the
 * time of the stop before: the non-zero kinds, where it hit and the
 * gap.  One buffer (stap's -Wframe-larger-than=512 on 5.10), and not
 * inlined: it must not add to the trap's frame on the #DB stack when
 * nothing is written.
 */
static noinline_for_stack void dcg_out_irq(struct dcg_slot *s, u64 start_ts,
					   u64 end_ts, u64 ip, u16 cpu,
					   const struct dcg_rec_irq *d)
{
	struct dcg_rec_irq r;

	if (end_ts < start_ts)
		end_ts = start_ts;
	if (dcg_g.output == DCG_OUT_TEXT) {
		char line[256];
		unsigned int k;
		dcg_u32 v;
		int n;

		n = dcg_line_add(line, 0, sizeof(line),
				 "%12llu %s(%d): ==========> %s: ",
				 start_ts > dcg_g.start_ns ? start_ts - dcg_g.start_ns : 0,
				 s->task->comm, s->tid,
				 dcg_irq_hard(d) ? "irq" : "exception");
		for (k = 0; k < DCG_IRQ_KINDS; k++) {
			const char *name = dcg_irq_kind(d, k, &v);

			if (v)
				n = dcg_line_add(line, n, sizeof(line),
						 "%s %u, ", name, v);
		}
		n = dcg_line_add(line, n, sizeof(line), "at ");
		if (dcg_ksym_text_off(ip, line + n, sizeof(line) - n))
			n += strlen(line + n);
		else
			n = dcg_line_add(line, n, sizeof(line), "0x%llx", ip);
		n = dcg_line_add(line, n, sizeof(line), ", %llu ns\n",
				 end_ts - start_ts);
		dcg_out_slot(s, line, n, 0);
		return;
	}
	if (dcg_g.output != DCG_OUT_BINARY)
		return;
	dcg_rec_irq_fill(&r, s->tid, start_ts, end_ts, ip, cpu);
	r.timer = d->timer;
	r.ipi = d->ipi;
	r.device = d->device;
	r.nmi = d->nmi;
	r.other = d->other;
	r.softirq = d->softirq;
	r.faults = d->faults;
	dcg_ksym_note(ip);	/* its function gets a KSYM record */
	dcg_out_slot(s, &r, sizeof(r), 0);
}

static void dcg_out_lost(struct dcg_slot *s, u64 count, u32 reason)
{
	struct dcg_rec_lost r;

	if (dcg_g.output == DCG_OUT_TEXT) {
		char line[128];
		int n = snprintf(line, sizeof(line),
				 "dynamic_call_graph: %s(%d): %llu events dropped (%s)\n",
				 s->task->comm, s->tid, count,
				 reason == DCG_LOST_BUDGET ? "budget" : "buffer");

		dcg_out_slot(s, line, min_t(int, n, sizeof(line) - 1), 0);
		return;
	}
	if (dcg_g.output != DCG_OUT_BINARY)
		return;
	dcg_rec_lost_fill(&r, s->tid, dcg_now_ns(), count, reason);
	dcg_out_slot(s, &r, sizeof(r), 0);
}

/* Processes whose maps were written already (an mm is not re-used
 * while its task holds our reference, so a pointer is enough). */
static struct mm_struct *dcg_maps_done[16];
static unsigned int dcg_maps_next;

/* One file mapping, as copied out of its vma under mmap_lock. */
struct dcg_map_vma {
	struct file *file;	/* a reference of ours */
	u64 start, end, pgoff;
	u8 prot;
};

/* The build-id of the last file read: a library's 4-5 mappings are adjacent. */
struct dcg_map_bid {
	struct file *file;	/* a reference of ours, or NULL */
	u8 len;
	u8 id[DCG_BID_MAX_LEN];
};

static void dcg_out_one_map(struct dcg_slot *s, const struct dcg_map_vma *v,
			    const struct dcg_map_bid *b, char *pathbuf,
			    void *rec)
{
	struct dcg_rec_map *m = rec;
	const char *path = d_path(&v->file->f_path, pathbuf, PATH_MAX);
	size_t len, size;

	if (IS_ERR(path))
		return;
	len = strlen(path) + 1;
	size = ALIGN(sizeof(*m) + len, 8);
	if (size > DCG_REC_MAX_SIZE)
		return;
	memset(m, 0, size);
	m->r.type = DCG_REC_MAP;
	m->r.size = size;
	m->r.tid = s->pid;
	m->start = v->start;
	m->end = v->end;
	m->pgoff = v->pgoff;
	m->prot = v->prot;
	m->build_id_len = b->len;
	memcpy(m->build_id, b->id, b->len);
	memcpy(m + 1, path, len);
	dcg_out_slot(s, m, size, 0);
}

/*
 * The first file mapping at or above @addr, copied with a reference on
 * its file, so that the file can be read after mmap_lock is dropped.
 * false when there is none.
 */
static bool dcg_next_file_vma(struct mm_struct *mm, unsigned long addr,
			      struct dcg_map_vma *v)
{
	struct vm_area_struct *vma;

	mmap_read_lock(mm);
	for (vma = find_vma(mm, addr); vma && !vma->vm_file;
	     vma = find_vma(mm, vma->vm_end))
		;
	if (vma) {
		v->file = get_file(vma->vm_file);
		v->start = vma->vm_start;
		v->end = vma->vm_end;
		v->pgoff = (u64)vma->vm_pgoff << PAGE_SHIFT;
		v->prot = ((vma->vm_flags & VM_READ) ? 1 : 0) |
			  ((vma->vm_flags & VM_WRITE) ? 2 : 0) |
			  ((vma->vm_flags & VM_EXEC) ? 4 : 0);
	}
	mmap_read_unlock(mm);
	return vma != NULL;
}

/*
 * From task work (may sleep): the file mappings of the current process,
 * each with its file's build-id (build_id.c).  The file is read without
 * mmap_lock (a read can sleep on I/O, and other threads of the process
 * would wait for their page faults meanwhile), so the walk takes the
 * lock once per mapping and goes on from the end of the last one.
 */
static void dcg_out_maps(struct dcg_slot *s)
{
	struct mm_struct *mm = current->mm;
	struct dcg_map_bid bid = { .file = NULL };
	struct dcg_map_vma v;
	unsigned long addr = 0;
	char *pathbuf, *rec;
	unsigned int i;

	if (dcg_g.output != DCG_OUT_BINARY || !mm)
		return;
	for (i = 0; i < ARRAY_SIZE(dcg_maps_done); i++)
		if (dcg_maps_done[i] == mm)
			return;
	dcg_maps_done[dcg_maps_next++ % ARRAY_SIZE(dcg_maps_done)] = mm;
	pathbuf = kmalloc(PATH_MAX, GFP_KERNEL);
	rec = kmalloc(DCG_REC_MAX_SIZE, GFP_KERNEL);	/* a page, also the
							 * build-id scratch */
	BUILD_BUG_ON(DCG_REC_MAX_SIZE < PAGE_SIZE);
	while (pathbuf && rec && dcg_next_file_vma(mm, addr, &v)) {
		addr = v.end;
		if (v.file != bid.file) {
			if (bid.file)
				fput(bid.file);
			bid.file = get_file(v.file);
			bid.len = dcg_build_id(v.file, bid.id, rec);
		}
		dcg_out_one_map(s, &v, &bid, pathbuf, rec);
		fput(v.file);
	}
	if (bid.file)
		fput(bid.file);
	kfree(pathbuf);
	kfree(rec);
}

static void dcg_out_stats(void)
{
	struct dcg_rec_stats r;

	if (dcg_g.output != DCG_OUT_BINARY)
		return;
	dcg_out_header(NULL);
	memset(&r, 0, sizeof(r));
	r.r.type = DCG_REC_STATS;
	r.r.size = sizeof(r);
	r.stops = atomic64_read(&dcg_g.stops);
	r.produced = atomic64_read(&dcg_g.events);
	r.written = atomic64_read(&dcg_g.written);
	r.dropped = atomic64_read(&dcg_g.dropped);
	r.resyncs = atomic64_read(&dcg_g.resyncs);
	r.decode_errors = atomic64_read(&dcg_g.decode_errors);
	if (dcg_out_raw(&r, sizeof(r)))
		_stp_warn("dynamic call graph: the STATS end record not written (transport full): readers will call the trace incomplete");
}
