// SPDX-License-Identifier: GPL-2.0
/*
 * window.c - opening and closing a trace window of the current thread.
 *
 * A window opens in a uprobe handler (dynamic_call_graph(1)) and closes
 * in another one, usually the .return probe of the same function.  TF
 * cannot be set in the handler itself: uprobes then takes it for a
 * debugger's and sends SIGTRAP after running the probed instruction.
 * So the handler only records where the window starts and queues a task
 * work; task work runs on the way back to user mode after uprobes has
 * finished (TIF_UPROBE is handled before TIF_NOTIFY_RESUME), and sets TF
 * there.  If uprobes still has an out-of-line step to do, the work waits
 * for uprobes' own step trap and is queued once more (die_notifier.c).
 * The same work re-arms after a uprobe hit inside the window.
 *
 * The probed instruction itself runs without our trap, so when TF goes
 * on the engine is told that the last stop was the resume address (and
 * counts that instruction): the next trap then follows exactly one
 * instruction (or block) from there.
 */
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include <linux/elf.h>

static DECLARE_WAIT_QUEUE_HEAD(dcg_works_wq);

static void dcg_window_finish(struct dcg_slot *s);

static u64 dcg_now_ns(void)
{
	return ktime_get_mono_fast_ns();
}

/* Target memory for the engine: the current task's, never faulting. */
static int dcg_read_user(void *ctx, dcg_u64 addr, void *buf, unsigned int len)
{
	return dcg_read_nofault(addr, buf, len, false);
}

/* @len bytes of the traced process at @addr: 0, or -1 when unreadable. */
static int dcg_peek(u64 addr, void *buf, unsigned int len)
{
	return dcg_read_nofault(addr, buf, len, false) == (int)len ? 0 : -1;
}

/* The GNU extension tag; the kernel's elf.h does not define it. */
#define DCG_DT_GNU_HASH	0x6ffffef5

/*
 * DT_SYMTAB, DT_STRTAB and DT_GNU_HASH of the object loaded at @base,
 * from its dynamic section in the traced process (glibc relocates the
 * pointers in place; an unrelocated one is relative).  0 if incomplete.
 */
static int dcg_dyn_tables(u64 base, u64 *symtab, u64 *strtab, u64 *gnu)
{
	Elf64_Dyn d[8];
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	u64 dyn = 0, p;
	int i, j;

	if (dcg_peek(base, &eh, sizeof(eh)) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_phnum > 64)
		return 0;
	for (i = 0; i < eh.e_phnum && !dyn; i++)
		if (!dcg_peek(base + eh.e_phoff + i * sizeof(ph), &ph, sizeof(ph)) &&
		    ph.p_type == PT_DYNAMIC)
			dyn = base + ph.p_vaddr;
	*symtab = *strtab = *gnu = 0;
	for (i = 0; dyn && i < 8; i++, dyn += sizeof(d)) {
		if (dcg_peek(dyn, d, sizeof(d)))
			break;
		for (j = 0; j < 8; j++) {
			if (d[j].d_tag == DT_NULL)
				return *symtab && *strtab && *gnu;
			p = d[j].d_un.d_ptr < base ? base + d[j].d_un.d_ptr :
						     d[j].d_un.d_ptr;
			if (d[j].d_tag == DT_SYMTAB)
				*symtab = p;
			else if (d[j].d_tag == DT_STRTAB)
				*strtab = p;
			else if (d[j].d_tag == DCG_DT_GNU_HASH)
				*gnu = p;
		}
	}
	return *symtab && *strtab && *gnu;
}

/*
 * st_size of @name's dynamic symbol at @value (relative) in the object
 * loaded at @base, found through its GNU hash table as the dynamic
 * linker would; 0 if there is none.
 */
static u64 dcg_dynsym_size(u64 base, u64 value, const char *name)
{
	u64 symtab, strtab, gnu, buckets, chains;
	u32 h = 5381, hdr[4], idx, h2;
	char got[128];	/* longer names keep stap's size */
	size_t n = strlen(name) + 1;
	Elf64_Sym sym;
	const char *c;
	int i;

	if (n > sizeof(got) || !dcg_dyn_tables(base, &symtab, &strtab, &gnu) ||
	    dcg_peek(gnu, hdr, sizeof(hdr)) || !hdr[0])
		return 0;
	for (c = name; *c; c++)
		h = h * 33 + (unsigned char)*c;
	/* nbuckets, symoffset, bloom words (u64), then buckets and chains */
	buckets = gnu + sizeof(hdr) + (u64)hdr[2] * 8;
	chains = buckets + (u64)hdr[0] * 4;
	if (dcg_peek(buckets + (h % hdr[0]) * 4, &idx, 4) || idx < hdr[1])
		return 0;
	for (i = 0; i < 4096; i++, idx++) {
		if (dcg_peek(chains + (u64)(idx - hdr[1]) * 4, &h2, 4))
			return 0;
		if ((h2 | 1) == (h | 1) &&
		    !dcg_peek(symtab + (u64)idx * sizeof(sym), &sym, sizeof(sym)) &&
		    sym.st_value == value &&
		    !dcg_peek(strtab + sym.st_name, got, n) && !memcmp(got, name, n))
			return sym.st_size;
		if (h2 & 1)
			return 0;
	}
	return 0;
}

/*
 * The last dcg_dynsym_size() answers, per CPU (the engine asks for the
 * same few functions over and over).  Keyed by the address space and the
 * symbol's run-time start; size 0 = not a dynamic symbol.
 */
struct dcg_dsize {
	const void *mm;
	u64 start;
	u64 size;
};
#define DCG_DSIZE_SLOTS	64
static DEFINE_PER_CPU(struct dcg_dsize [DCG_DSIZE_SLOTS], dcg_dsize_cache);

/*
 * Function bounds from stap's symbol tables (needs -d or --ldd).  Stap
 * keeps no symbol sizes: its "size" is the distance to the next symbol.
 * In a stripped library (.dynsym only) the static functions after an
 * exported one then look like part of it, so a call or a jump into them
 * looks like one inside it, and is no event; dcg-trace (libdwfl) uses
 * st_size and knows no bounds there.  So for a shared object's symbol,
 * take st_size from the object's own .dynsym in the traced process; past
 * it there are no bounds.  A symbol that is not dynamic (.symtab of an
 * unstripped program) keeps stap's distance.
 */
static int dcg_func_bounds(void *ctx, dcg_u64 addr, dcg_u64 *start,
			   dcg_u64 *end)
{
	unsigned long size = 0, off = 0, vm_start = 0, vm_end = 0, sect = 0;
	const char *mod = NULL, *name;
	struct _stp_module *m;
	struct dcg_dsize *c;
	u64 dsize;

	name = _stp_kallsyms_lookup(addr, &size, &off, &mod, current);
	if (!name || !size)
		return -1;
	*start = addr - off;
	*end = *start + size;
	c = get_cpu_ptr(&dcg_dsize_cache[0]);
	c += (*start >> 4) % DCG_DSIZE_SLOTS;
	if (c->mm == current->mm && c->start == *start) {
		dsize = c->size;
	} else {
		dsize = 0;
		m = DCG_STP_UMOD_LOOKUP(addr, current, &mod, &sect,
					&vm_start, &vm_end);	/* kcompat.h S2 */
		/* stap's relative addresses: addr - vm_start + sect */
		if (m && m->num_sections &&
		    !strcmp(m->sections[0].name, ".dynamic"))
			dsize = dcg_dynsym_size(vm_start - sect,
						*start - vm_start + sect, name);
		c->mm = current->mm;
		c->start = *start;
		c->size = dsize;
	}
	put_cpu_ptr(&dcg_dsize_cache[0]);
	if (dsize && *start + dsize <= addr)
		return -1;
	if (dsize)
		*end = *start + dsize;
	return 0;
}

/* Function of the frame at @depth (1 = root): 0 if outside the stack. */
static u64 dcg_frame_func(struct dcg_slot *s, u32 depth)
{
	if (depth < 1 || depth - 1 >= s->engine.shadow.cap)
		return 0;
	return s->engine.shadow.frames[depth - 1].func;
}

/*
 * The edge an event adds to the table: a CALL's caller is the frame
 * below the new one; a tail call's is the frame it replaces, which the
 * core still names when it emits (runtime/thread.c), so the callee
 * nests under the function that jumped, as in ftrace and dcg-report.
 */
static u64 dcg_edge_caller(struct dcg_slot *s, const struct dcg_rec_event *e)
{
	if (e->kind == DCG_EV_TAILCALL)
		return dcg_frame_func(s, e->depth);
	return e->depth ? dcg_frame_func(s, e->depth - 1) : 0;
}

/*
 * The registers of a stop, for the events the engine emits during it
 * (runtime/args.c decides which take them).  Both window kinds set
 * them before every call into the engine that can emit.
 */
static void dcg_regs_from(struct dcg_regs *r, const struct pt_regs *regs)
{
	r->ip = regs->ip;
	r->arg[0] = regs->di;
	r->arg[1] = regs->si;
	r->arg[2] = regs->dx;
	r->arg[3] = regs->cx;
	r->arg[4] = regs->r8;
	r->arg[5] = regs->r9;
	r->ret[0] = regs->ax;
	r->ret[1] = regs->dx;
}

/*
 * Strings are read in user memory only, whatever the window: a kernel
 * pointer may lead to device memory, where a read is not harmless; the
 * user one is the "char __user *" the issue is about.  No fault, no
 * sleep (nofault.c).
 */
static int dcg_read_str(void *ctx, dcg_u64 addr, void *buf, unsigned int len)
{
	return dcg_read_nofault(addr, buf, len, false);
}

static void dcg_emit(void *ctx, const struct dcg_rec_event *ev)
{
	struct dcg_slot *s = ctx;
	struct dcg_rec_event *e = (struct dcg_rec_event *)s->evbuf;

	*e = *ev;
	e->r.type = DCG_REC_EVENT;
	e->r.size = sizeof(*e);
	e->r.tid = s->tid;
	e->cpu = raw_smp_processor_id();
	s->produced++;
	atomic64_inc(&dcg_g.events);
	if (e->kind == DCG_EV_CALL || e->kind == DCG_EV_TAILCALL)
		dcg_edge_add(dcg_edge_caller(s, e), e->to);
	if (s->produced > s->budget) {
		s->dropped++;
		atomic64_inc(&dcg_g.dropped);
		return;
	}
	if (dcg_g.args.nargs || dcg_g.args.nrets)
		dcg_ev_regs_append(e, sizeof(s->evbuf), &dcg_g.args, &s->regs,
				   dcg_read_str, s);
	dcg_out_event(s, e);
}

static void dcg_work_fn(struct callback_head *cb);

static void dcg_queue_work(struct dcg_slot *s)
{
	if (atomic_cmpxchg(&s->work_queued, 0, 1))
		return;
	atomic_inc(&dcg_g.works_pending);
	init_task_work(&s->work, dcg_work_fn);
	if (task_work_add(current, &s->work, TWA_RESUME)) {
		atomic_set(&s->work_queued, 0);
		if (atomic_dec_and_test(&dcg_g.works_pending))
			wake_up(&dcg_works_wq);
	}
}

static void dcg_hooks_wait(void);

static void dcg_window_start(struct dcg_slot *s)
{
	dcg_hooks_wait();	/* exit and exec hooks in place: EXIT, EXEC */
	if (!s->thread_started)	/* once per task, as dcg-trace does */
		dcg_out_thread(s, DCG_THREAD_START);
	s->thread_started = 1;
	dcg_out_maps(s);
	s->regs = s->entry_regs;	/* the ROOT's: those at the probe */
	if (s->at_entry)
		dcg_thread_begin(&s->engine, s->entry_ip, s->entry_sp,
				 s->entry_ret, s->entry_ts, &s->ops);
	else
		dcg_thread_begin_here(&s->engine, s->entry_ip, s->entry_sp,
				      s->entry_ts);
	s->opened = 1;
	dcg_skip_window_start(s);	/* skip.c: may sleep, task work */
}

/*
 * TF goes (back) on: the next trap follows the instruction at the
 * resume address.  uretprobes replace a return address on the stack
 * after the entry probe's handlers ran, so the innermost frame's return
 * slot is read again: a ret to the trampoline then matches its frame.
 */
static void dcg_resume(struct dcg_slot *s, struct pt_regs *regs, int from)
{
	struct dcg_thread *t = &s->engine;
	u32 d = t->shadow.depth;
	u64 ra, ran = t->have_prev ? t->prev_ip : regs->ip;

	if (d && d <= t->shadow.cap) {
		struct dcg_frame *f = &t->shadow.frames[d - 1];

		if (dcg_read_user(s, f->sp, &ra, sizeof(ra)) == sizeof(ra))
			f->ret_addr = ra;
	}
	/*
	 * One instruction ran unstepped since the last stop (or the ROOT
	 * call at 0): the probed one, out of line or emulated by uprobes,
	 * or the program's own int3, at the last stop.
	 */
	dcg_thread_count(t, ran, 1, &s->ops);
	t->prev_ip = regs->ip;
	t->prev_sp = regs->sp;
	t->have_prev = 1;
	if (from == DCG_SLOT_OPENING)
		dcg_uf_open(s, regs);	/* user_flags.c: the program's TF */
	dcg_uf_resume(s, regs);		/* user_flags.c: a probed pushf */
	if (atomic_cmpxchg(&s->state, from, DCG_SLOT_ARMED) == from)
		dcg_tf_arm_current(s, regs);
}

/*
 * TF goes back on in a signal handler's frame.  Unlike after a uprobe,
 * control did not get here by the instruction at the last stop: the
 * engine sees this as a stop of its own, reached by no branch, and
 * reports the handler as an async transfer (its frame ends at
 * sigreturn, when the engine resyncs on the restored stack).
 */
static void dcg_resume_in_handler(struct dcg_slot *s, struct pt_regs *regs)
{
	s->signalled = 0;
	dcg_regs_from(&s->regs, regs);
	dcg_thread_stop(&s->engine, regs->ip, regs->sp, dcg_now_ns(), &s->ops);
	if (atomic_cmpxchg(&s->state, DCG_SLOT_PAUSED,
			   DCG_SLOT_ARMED) == DCG_SLOT_PAUSED)
		dcg_tf_arm_current(s, regs);
}

/*
 * The task work: arms or re-arms the window, or, once the window has
 * closed (dynamic_call_graph(0), the root's return, the thread's exit),
 * lets stapio read it before the thread goes on: a program that exits
 * right after a busy window would otherwise end the session while most
 * of the window is unread (transport.c, dcg_out_wait_read()).
 */
static void dcg_work_fn(struct callback_head *cb)
{
	struct dcg_slot *s = container_of(cb, struct dcg_slot, work);
	int st = atomic_read(&s->state);

	dcg_uf_work(s);		/* user_flags.c: a deferred trap, the r11 probe */
	if (current == s->task && !dcg_stopping() && st == DCG_SLOT_CLOSED) {
		dcg_out_wait_read();
	} else if (current == s->task && !dcg_stopping() &&
		   (st == DCG_SLOT_OPENING || st == DCG_SLOT_PAUSED)) {
		if (dcg_in_uprobe_xol()) {
			s->wait_xol = 1;
		} else if (s->signalled && s->opened) {
			dcg_resume_in_handler(s, task_pt_regs(current));
		} else {
			s->wait_xol = 0;
			s->signalled = 0;
			if (!s->opened && dcg_slot_frames(s)) {
				/* no shadow stack: the window ends unopened */
				atomic64_inc(&dcg_g.nomem);
				atomic64_inc(&dcg_g.aborted);
				atomic_cmpxchg(&s->state, st, DCG_SLOT_CLOSED);
				goto out;
			}
			if (!s->opened)
				dcg_window_start(s);
			dcg_resume(s, task_pt_regs(current), st);
			dcg_skip_after_resume(s, task_pt_regs(current));
		}
	}
out:
	atomic_set(&s->work_queued, 0);
	if (atomic_dec_and_test(&dcg_g.works_pending))
		wake_up(&dcg_works_wq);
}

static void dcg_trap_step(struct dcg_slot *s, struct pt_regs *regs)
{
	s->stops++;
	atomic64_inc(&dcg_g.stops);
	dcg_regs_from(&s->regs, regs);
	dcg_thread_stop(&s->engine, regs->ip, regs->sp, dcg_now_ns(), &s->ops);
	if (s->at_entry && s->opened && !s->engine.shadow.depth) {
		/*
		 * The root frame is gone: returned, or unwound past by
		 * longjmp or an exception, which skips the .return probe
		 * that would close the window.  Close it here.
		 */
		dcg_uf_disarm(s, regs);	/* TF as the program set it */
		s->nest = 0;
		dcg_window_finish(s);
		s->state_after_trap = DCG_SLOT_CLOSED;
		dcg_queue_work(s);	/* the closed window: wait for stapio */
		return;
	}
	if (dcg_skip_after_stop(s, regs))
		return;				/* skip.c: a subtree runs native */
	if (s->mode == DCG_MODE_BLOCK)
		dcg_tf_arm_current(s, regs);	/* the CPU cleared BTF */
}

/*
 * A signal is being delivered to the current task: handle_signal() has
 * built the handler's frame and cleared TF in it (so that a SIGTRAP
 * handler does not trap).  Called from a kprobe on signal_setup_done(),
 * on the way back to user mode: the task work that re-arms runs next in
 * the same exit loop, in the handler's frame.  Without the kprobe (no
 * symbol) handlers run unstepped and sigreturn resumes the stepping.
 */
static void dcg_on_signal(void)
{
	struct dcg_slot *s = dcg_slot_find(current);

	if (!s || dcg_stopping() || !user_mode(task_pt_regs(current)))
		return;
	if (dcg_skip_native(s))
		return;		/* skip.c: the handler runs native with its subtree */
	if (atomic_cmpxchg(&s->state, DCG_SLOT_ARMED,
			   DCG_SLOT_PAUSED) != DCG_SLOT_ARMED)
		return;
	dcg_uf_signal(s, task_pt_regs(current));	/* the frame's TF */
	s->signalled = 1;
	dcg_queue_work(s);
}

/*
 * At a function's entry [sp] holds the return address, so the bytes
 * before it end in a call: e8 rel32, or ff /2 with 0 to 5 bytes of
 * ModRM tail.  A probe after the prologue (stap may put .function probes
 * there) fails this and the window opens "here" instead of at a root.
 */
static int dcg_looks_like_return(struct dcg_slot *s, u64 ret)
{
	u8 b[8];
	int i;

	if (ret < 8 || dcg_read_user(s, ret - 8, b, 8) != 8)
		return 0;
	if (b[3] == 0xe8)
		return 1;
	for (i = 2; i <= 7; i++)
		if (b[8 - i] == 0xff && ((b[8 - i + 1] >> 3) & 7) == 2)
			return 1;
	return 0;
}

/* Start of the function containing @ip from stap's symbols, or 0. */
static u64 dcg_func_start(u64 ip)
{
	unsigned long size = 0, off = 0;
	const char *mod = NULL;

	if (!_stp_kallsyms_lookup(ip, &size, &off, &mod, current) || off > ip)
		return 0;
	return ip - off;
}

/* The e8 rel32 that ends just before @ret calls @func. */
static int dcg_called_directly(struct dcg_slot *s, u64 ret, u64 func)
{
	u8 b[5];
	s32 rel;

	if (dcg_read_user(s, ret - 5, b, 5) != 5 || b[0] != 0xe8)
		return 0;
	memcpy(&rel, b + 1, 4);
	return ret + rel == func;
}

/*
 * stap puts a .function() probe of unoptimized code after the prologue,
 * where [sp] is no longer the return address.  Find the return slot:
 * [rbp + 8] if the prologue set up a frame pointer (push %rbp; mov
 * %rsp,%rbp, maybe after endbr64), else the first stack word above sp
 * that returns just after a direct call of this very function.  0 when
 * neither works: the window then opens "here", without a root frame.
 * A .return probe has replaced the return address by uprobes'
 * trampoline by now, so the frame-pointer slot is taken unchecked
 * (*sure = 1): the prologue proves where it is.
 */
static u64 dcg_find_ret_slot(struct dcg_slot *s, struct pt_regs *regs,
			     u64 func, int *sure)
{
	static const u8 endbr[4] = { 0xf3, 0x0f, 0x1e, 0xfa };
	static const u8 fp[4] = { 0x55, 0x48, 0x89, 0xe5 };	/* push %rbp;
								 * mov %rsp,%rbp */
	u8 code[8];
	u64 slot, v;
	int skip;

	if (dcg_read_user(s, func, code, 8) == 8) {
		skip = memcmp(code, endbr, 4) ? 0 : 4;
		/* the .return probe's uprobe has put an int3 on the entry */
		if (code[skip] == 0xcc)
			code[skip] = fp[0];
		if (!memcmp(code + skip, fp, 4) &&
		    regs->ip >= func + skip + 4) {
			*sure = 1;
			return regs->bp + 8;
		}
	}
	for (slot = regs->sp; slot < regs->sp + 1024; slot += 8) {
		if (dcg_read_user(s, slot, &v, 8) != 8)
			break;
		if (dcg_called_directly(s, v, func)) {
			*sure = 1;
			return slot;
		}
	}
	return 0;
}

/*
 * Where the window's root frame is: function entry, return slot and
 * return address.  Returns 0 when the probe is not at (or just after
 * the prologue of) a function entry that can be checked.
 */
static int dcg_find_root(struct dcg_slot *s, struct pt_regs *regs,
			 u64 probe_ip)
{
	u64 func = dcg_func_start(probe_ip);
	u64 slot = regs->sp;

	int checked = 0;

	if (func && func != probe_ip) {
		slot = dcg_find_ret_slot(s, regs, func, &checked);
	} else if (!func) {
		func = probe_ip;	/* no symbols: trust the probe point */
	}
	if (!slot || dcg_read_user(s, slot, &s->entry_ret, 8) != 8)
		return 0;
	if (!checked && !dcg_looks_like_return(s, s->entry_ret))
		return 0;
	s->entry_ip = func;
	s->entry_sp = slot;
	return 1;
}

/*
 * dynamic_call_graph(1).  @regs are the probed user registers; @at_entry
 * says the probe sits on the first instruction of function @entry_ip,
 * so [sp] is the return address.  Returns NULL or a message for error().
 */
static const char *dcg_open(struct pt_regs *regs, u64 entry_ip, int at_entry)
{
	struct dcg_slot *s;
	const char *why = NULL;
	int st;

	if (!current->mm || (current->flags & PF_KTHREAD) || !regs ||
	    !user_mode(regs))
		return "dynamic_call_graph: called from a context without a user task (use it in a process(...) probe)";
	if (current->ptrace)
		return "dynamic_call_graph: refusing to trace a ptraced task";
	if (!dcg_g.registered)
		return "dynamic_call_graph: trap handler not registered";
	if (dcg_stopping())
		return NULL;
	s = dcg_slot_find(current);
	st = s ? atomic_read(&s->state) : DCG_SLOT_FREE;
	if (s && st != DCG_SLOT_CLOSED && s->mm != current->mm &&
	    atomic_cmpxchg(&s->state, st, DCG_SLOT_BUSY) == st) {
		/* a window of the image this task exec'd away from */
		atomic64_inc(&dcg_g.aborted);
		dcg_window_finish(s);
		atomic_set(&s->state, DCG_SLOT_CLOSED);
		st = DCG_SLOT_CLOSED;
	}
	if (s && st != DCG_SLOT_CLOSED) {
		/*
		 * Recursion into the probed function, from a frame below the
		 * one that opened the window: one window, closed by the (0)
		 * that matches the outermost (1).  From that frame or above
		 * it is the script turning tracing on twice.
		 */
		if (regs->sp >= s->open_sp)
			return "dynamic_call_graph(1): tracing is already on for this thread (turned on twice; only recursion, from a deeper frame, may nest)";
		s->nest++;
		atomic64_inc(&dcg_g.nested);
		return NULL;
	}
	s = dcg_slot_claim(current, &why);
	if (!s)
		return why;
	s->open_sp = regs->sp;
	s->closed_by_user = 0;
	s->mode = dcg_g.btf_works ? DCG_MODE_BLOCK : DCG_MODE_STEP;
	dcg_thread_init(&s->engine, s->mode, s->frames, s->cap);
	s->ops.read = dcg_read_user;
	s->ops.func_bounds = dcg_func_bounds;
	s->ops.emit = dcg_emit;
	s->ops.thunks = NULL;
	s->ops.ctx = s;
	dcg_slot_profile(s);	/* task_slots.c: annotate */
	dcg_skip_open(s);	/* skip.c: depth limit, exclusions */
	s->budget = READ_ONCE(dcg_g.budget);
	s->produced = s->dropped = s->lost_buffer = s->stops = 0;
	s->wait_xol = 0;
	s->opened = 0;
	s->entry_ret = 0;
	s->at_entry = at_entry && dcg_find_root(s, regs, entry_ip);
	if (!s->at_entry) {
		s->entry_ip = regs->ip;
		s->entry_sp = regs->sp;
	}
	s->entry_ts = dcg_now_ns();
	dcg_regs_from(&s->entry_regs, regs);
	s->entry_regs.ip = s->entry_ip;
	dcg_uf_probe_at(s, entry_ip);	/* user_flags.c: the probed insn */
	atomic64_inc(&dcg_g.windows);
	dcg_out_header(current);
	atomic_set(&s->state, DCG_SLOT_OPENING);
	dcg_queue_work(s);
	return NULL;
}

/* Emit what closes a window: END returns, and what was lost. */
/*
 * The end of any window, user or kernel (kernel_window.c): the engine's
 * END returns, LOST records for what the window dropped, one flush, and
 * its counters folded into the totals.
 */
static void dcg_slot_end_window(struct dcg_slot *s)
{
	struct dcg_stats *st = &s->engine.stats;

	if (s->opened)
		dcg_thread_end(&s->engine, dcg_now_ns(), &s->ops);
	s->opened = 0;
	atomic64_add(st->resyncs, &dcg_g.resyncs);
	atomic64_add(st->decode_errors + st->read_errors,
		     &dcg_g.decode_errors);
	st->resyncs = st->decode_errors = st->read_errors = 0;
	if (s->dropped)
		dcg_out_lost(s, s->dropped, DCG_LOST_BUDGET);
	if (s->lost_buffer)
		dcg_out_lost(s, s->lost_buffer, DCG_LOST_BUFFER);
	dcg_out_flush(s);
	s->dropped = s->lost_buffer = 0;
}

static void dcg_window_finish(struct dcg_slot *s)
{
	dcg_skip_window_end(s);		/* skip.c: breakpoints off */
	dcg_slot_end_window(s);
}

/*
 * dynamic_call_graph(0) in a probe of the traced thread.  Returns NULL
 * or a message for error(): no user task here, or off again after the
 * (0) that closed its window.  A window that ended by itself (its root
 * returned before the .return probe ran, exec, a debugger) takes one
 * (0) quietly: the script could not know.
 *
 * A (0) in a thread that never had a window is counted, not an error:
 * a .return probe fires for a call whose entry probe did not, when the
 * thread was already in the function as the session's uprobes went in
 * (staprun attaching to a running program registers the return and the
 * entry consumer one after the other).  The script cannot tell that
 * case from its own mistake, so dcg_window_warn() says both at the end.
 */
static const char *dcg_close(struct pt_regs *regs)
{
	struct dcg_slot *s;
	int st;

	if (!current->mm || (current->flags & PF_KTHREAD) || !regs ||
	    !user_mode(regs))
		return "dynamic_call_graph(0): called from a context without a user task (use it in a process(...) probe)";
	if (dcg_stopping())	/* its (1) may have come too late to open */
		return NULL;
	s = dcg_slot_find(current);
	if (!s) {
		atomic64_inc(&dcg_g.off_unopened);
		return NULL;
	}
	st = atomic_read(&s->state);
	if (st == DCG_SLOT_CLOSED) {
		if (s->closed_by_user)
			return "dynamic_call_graph(0): tracing is already off for this thread (one (0) per (1))";
		/* ended by itself, e.g. at the root's ret: this (0) is its own */
		s->closed_by_user = 1;
		return NULL;
	}
	if (st == DCG_SLOT_INTRAP)
		return NULL;
	if (s->nest) {
		s->nest--;
		return NULL;
	}
	if (atomic_cmpxchg(&s->state, st, DCG_SLOT_BUSY) != st)
		return NULL;
	s->closed_by_user = 1;
	dcg_uf_disarm(s, regs);		/* TF as the program set it */
	dcg_uf_disarm(s, task_pt_regs(current));
	dcg_window_finish(s);
	atomic_set(&s->state, DCG_SLOT_CLOSED);
	if (!dcg_stopping())
		dcg_queue_work(s);	/* wait for stapio on the way out */
	return NULL;
}

/* probe end: the (0) calls that found no window (dcg_close()). */
static void dcg_window_warn(void)
{
	long long n = atomic64_read(&dcg_g.off_unopened);

	if (n)
		_stp_warn("dynamic_call_graph(0): %lld call(s) in threads that were never turned on, ignored (a .return probe whose entry probe did not fire, as when the thread was already inside the function when the session started; or a (0) without its (1))",
			  n);
}

/*
 * probe end: close every window still open (threads still inside the
 * traced function, or exited in it) so the trace is complete.  Their
 * TF goes in the teardown work; until then the notifier clears it at
 * their next trap.  A slot in INTRAP belongs to a #DB handler running
 * on another CPU right now, for a few microseconds.
 */
static void dcg_close_all(void)
{
	int i, spins;

	for (i = 0; i < DCG_MAX_TASKS; i++) {
		struct dcg_slot *s = &dcg_slots[i];
		int st;

		for (spins = 0; spins < 1000000; spins++) {
			st = atomic_read(&s->state);
			if (st != DCG_SLOT_INTRAP)
				break;
			cpu_relax();
		}
		if (st < DCG_SLOT_OPENING || st == DCG_SLOT_CLOSED ||
		    st == DCG_SLOT_INTRAP ||
		    atomic_cmpxchg(&s->state, st, DCG_SLOT_BUSY) != st)
			continue;
		atomic64_inc(&dcg_g.aborted);
		dcg_window_finish(s);
		atomic_set(&s->state, DCG_SLOT_CLOSED);
	}
}

/*
 * Thread exit and exec: one THREAD record each, for every task that has
 * had a window (its slot keeps the task until the module goes), like
 * dcg-trace's.  A window still open ends first, with the END returns of
 * its open frames: the thread leaves it without a .return probe
 * (exit_group or a fatal signal while it is inside, or an exec, whose
 * new image has none of the old frames).  Tasks with no window are
 * unknown to us and get no record.
 *
 * The hooks are the kernel's sched_process_exit and sched_process_exec
 * tracepoints, called in the task itself, in process context with
 * preemption off, after the point of no return: exit before exit_mm()
 * and exit_task_work(), exec with the new image installed, its comm
 * set and, for a thread that exec'd, the thread group leader's pid
 * taken over.  So the task is in the kernel, none of its traps can be
 * running, and a task work queued here still runs (exit_task_work()
 * on exit, the return to user mode after exec).  Registering takes a
 * mutex, so it runs in a work queued at probe begin; every window
 * start waits for it.
 */
static int dcg_slot_take_own(struct dcg_slot *s)
{
	int st, spins;

	for (spins = 0; spins < 1000000; spins++) {
		st = atomic_read(&s->state);
		if (st == DCG_SLOT_BUSY) {	/* probe end, on another CPU */
			cpu_relax();
			continue;
		}
		if (st < DCG_SLOT_OPENING)
			return -1;
		if (atomic_cmpxchg(&s->state, st, DCG_SLOT_BUSY) == st)
			return st;
	}
	return -1;
}

/* End the window of the current task if it is open; s is BUSY. */
static void dcg_window_abort_own(struct dcg_slot *s, int st)
{
	if (st == DCG_SLOT_CLOSED)
		return;
	dcg_tf_disarm_current(task_pt_regs(current));
	s->nest = 0;
	atomic64_inc(&dcg_g.aborted);
	dcg_window_finish(s);
}

/* The current task's slot, BUSY, its window ended; NULL if it has none. */
static struct dcg_slot *dcg_hook_take_own(void)
{
	struct dcg_slot *s;
	int st;

	if (dcg_stopping())
		return NULL;
	s = dcg_slot_find(current);
	if (!s || (st = dcg_slot_take_own(s)) < 0)
		return NULL;
	dcg_window_abort_own(s, st);
	return s;
}

static void dcg_on_task_exit(void *data, struct task_struct *p)
{
	struct dcg_slot *s;

	if (p != current || !(s = dcg_hook_take_own()))
		return;
	if (s->thread_started)	/* not if no window ever armed */
		dcg_out_thread(s, DCG_THREAD_EXIT);
	dcg_out_flush(s);
	atomic_set(&s->state, DCG_SLOT_CLOSED);
	dcg_queue_work(s);	/* exit_task_work() waits for stapio */
}

static void dcg_on_task_exec(void *data, struct task_struct *p,
			     pid_t old_pid, struct linux_binprm *bprm)
{
	struct dcg_slot *s;

	if (p != current || !(s = dcg_hook_take_own()))
		return;
	s->tid = current->pid;		/* a thread that exec'd is the leader now */
	s->pid = current->tgid;
	s->mm = current->mm;
	if (s->thread_started)
		dcg_out_thread(s, DCG_THREAD_EXEC);
	dcg_out_flush(s);
	atomic_set(&s->state, DCG_SLOT_CLOSED);
}

static struct dcg_hook {
	const char *name;
	void *probe;
	struct tracepoint *tp;
	int registered;
} dcg_hooks[] = {
	{ "sched_process_exit", dcg_on_task_exit },
	{ "sched_process_exec", dcg_on_task_exec },
	{ NULL }
};

static void dcg_hook_find(struct tracepoint *tp, void *priv)
{
	struct dcg_hook *h;

	for (h = priv; h->name; h++)
		if (!strcmp(tp->name, h->name))
			h->tp = tp;
}

static void dcg_hooks_register_fn(struct work_struct *w)
{
	struct dcg_hook *h;

	if (READ_ONCE(dcg_g.stopping))
		return;
	for_each_kernel_tracepoint(dcg_hook_find, dcg_hooks);
	for (h = dcg_hooks; h->name; h++) {
		if (h->registered)
			continue;
		if (!h->tp || tracepoint_probe_register(h->tp, h->probe, NULL))
			pr_warn("dyncg: no %s tracepoint: no THREAD records for it\n",
				h->name);
		else
			h->registered = 1;
	}
	WRITE_ONCE(dcg_thread_hooks, dcg_hooks[0].registered);
}

static DECLARE_WORK(dcg_hooks_work, dcg_hooks_register_fn);

/* From task work: a window starts only once the hooks are in place. */
static void dcg_hooks_wait(void)
{
	if (!READ_ONCE(dcg_thread_hooks))
		flush_work(&dcg_hooks_work);
}

/* Teardown, before works are waited for: no new ones from the hooks. */
static void dcg_hooks_unregister(void)
{
	struct dcg_hook *h;
	int any = 0;

	flush_work(&dcg_hooks_work);
	for (h = dcg_hooks; h->name; h++) {
		if (!h->registered)
			continue;
		tracepoint_probe_unregister(h->tp, h->probe, NULL);
		h->registered = 0;
		any = 1;
	}
	WRITE_ONCE(dcg_thread_hooks, 0);
	if (any)
		tracepoint_synchronize_unregister();
}

/*
 * Teardown, in process context: system_wq work queued by probe end.
 * The runtime's stp_synchronize_sched() after the end probes flushes
 * system_wq, so this has finished before the module goes away.
 */
static void dcg_teardown_fn(struct work_struct *w)
{
	int i;

	WRITE_ONCE(dcg_g.stopping, 1);
	smp_mb();
	dcg_hooks_unregister();	/* exit and exec hooks queue works */
	dcg_uf_teardown();	/* user_flags.c: the sys_exit probe */
	dcg_kernel_teardown();	/* dyncg kernel mode, before the notifier goes */
	/* works check 'stopping' and do nothing; let the queued ones run */
	wait_event(dcg_works_wq, atomic_read(&dcg_g.works_pending) == 0);
	for (i = 0; i < DCG_MAX_TASKS; i++) {
		struct task_struct *t = READ_ONCE(dcg_slots[i].task);

		if (t && atomic_read(&dcg_slots[i].state) != DCG_SLOT_FREE &&
		    !dcg_uf_keeps_tf(&dcg_slots[i]))	/* the program's TF */
			dcg_tf_disarm_task(t);
	}
	dcg_tf_resync_btf();	/* trap_flag.c: BTF of the CPUs they ran on */
	dcg_notifier_unregister();
	for (i = 0; i < DCG_MAX_TASKS; i++)
		if (dcg_slots[i].task || dcg_slots[i].frames)
			dcg_slot_release(&dcg_slots[i]);
}

static DECLARE_WORK(dcg_teardown_work, dcg_teardown_fn);

static void dcg_begin(void)
{
	dcg_g.start_ns = dcg_now_ns();
	dcg_tf_detect_btf();
	schedule_work(&dcg_hooks_work);	/* exit and exec hooks: may sleep */
}

static void dcg_end(void)
{
	dcg_close_all();
	if (dcg_g.registered && !dcg_g.teardown_queued) {
		dcg_g.teardown_queued = 1;
		schedule_work(&dcg_teardown_work);
	}
}
