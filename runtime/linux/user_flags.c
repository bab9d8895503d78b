// SPDX-License-Identifier: GPL-2.0
/*
 * user_flags.c - a user window leaves the program's own EFLAGS.TF alone.
 *
 * While a user window is armed, TF in the task's EFLAGS is ours.  The
 * program must not see it, nor lose its own: a program may read TF
 * (pushf, the r11 that syscall saves, the flags of a signal frame) and
 * may set TF itself (popf, iret, sigreturn) to get a SIGTRAP after each
 * instruction.  So each traced task has a shadow of the program's own
 * TF, and in step mode, at each of our stops:
 *
 *  - the instruction that just ran is decoded (the one at the previous
 *    stop, or the one after it when that was a syscall: the CPU gives
 *    no trap right after a syscall).  After pushf/pushfw the pushed
 *    word gets the shadow TF (a nofault write: the page was just
 *    written).  After popf/iret the shadow takes the TF just loaded, and
 *    TF goes back on for us.  (A pushf that a uprobe ran out of line,
 *    with uprobes' own TF, is fixed when TF goes on: dcg_uf_resume().)
 *  - if the shadow was on when that instruction started, the CPU would
 *    have trapped here for the program too: the notifier returns
 *    NOTIFY_DONE for this one trap after the engine's stop, and the
 *    kernel's exc_debug_user() sends the SIGTRAP (TRAP_TRACE, at this
 *    ip) exactly as it does natively.  One exception: a ret into
 *    uprobes' return trampoline (a .return probe) would report the
 *    trampoline; that trap is sent from the task work instead, once
 *    uprobes has put the real return address back, which is where the
 *    CPU reports it natively.
 *  - before a syscall, the r11 it saves (the flags, for sysret) is
 *    marked to get the shadow TF at the syscall's exit (a sys_exit
 *    tracepoint probe, below); before rt_sigreturn of a frame we
 *    patched (below), the frame's TF becomes the shadow and TF is put
 *    in the frame for us.
 *
 * A signal delivered in the window (signal_setup_done(), user_window.c's
 * dcg_on_signal()) gets the shadow TF in its frame's saved flags, and
 * the shadow goes off for the handler, as the kernel clears TF for it.
 * When the window ends, TF is left as the program set it, not cleared;
 * a trap that comes after that is the program's and is let through.
 *
 * Trap context: no locks, no allocation, no printk; user memory only
 * through the nofault copies.  The shadow lives in a per-slot array
 * here, touched only by the slot's own task.
 *
 * Not covered (doc/kernel-mode.md): block mode (real hardware with
 * BTF: the pushf or popf inside a block is not a stop); a subtree run
 * unstepped by skip.c with the program's TF on; x32 signal frames;
 * the program's TF inherited by a child forked in the window (the
 * child's TF is cleared at its first trap, as before).
 */
#include <linux/signal.h>
#include <linux/sched/signal.h>
#include <linux/uprobes.h>
#include <linux/mutex.h>
#include <linux/tracepoint.h>
#include <linux/mm.h>
#include <linux/fs.h>
#include <linux/file.h>
#include <asm/sigframe.h>
#include <asm/unistd.h>

struct dcg_uflags {
	u8 tf;			/* the program's own TF, as it would be now */
	u8 r11;			/* 1 + TF for the r11 of the syscall under way */
	u8 trap_later;		/* the program's trap, at the real return */
	u8 ours_live;		/* our TF may be live: not yet given back */
	u32 frames;		/* signal frames that hold the shadow TF */
	u64 probe_ip;		/* a uprobe's insn runs out of line next */
	u64 trap_ip;		/* the trampoline of trap_later */
	u64 nip;		/* the last stop, and ... */
	u8 nbuf[DCG_INSN_MAX_LEN];	/* ... its code bytes, */
	u8 nlen;		/* 0 to DCG_INSN_MAX_LEN of them */
};

static struct dcg_uflags dcg_uflags[DCG_MAX_TASKS];

static void dcg_queue_work(struct dcg_slot *s);
static int dcg_stopping(void);

/* The slot's flags; NULL for a kernel window's slot (kernel_window.c). */
static struct dcg_uflags *dcg_uf(struct dcg_slot *s)
{
	if (s < dcg_slots || s >= dcg_slots + DCG_MAX_TASKS)
		return NULL;
	return &dcg_uflags[s - dcg_slots];
}

/* Window armed for the first time: TF in @regs is the program's. */
static void dcg_uf_open(struct dcg_slot *s, struct pt_regs *regs)
{
	struct dcg_uflags *uf = dcg_uf(s);

	if (!uf)
		return;
	uf->tf = !!(regs->flags & X86_EFLAGS_TF);
	uf->r11 = 0;
	uf->trap_later = 0;
	uf->frames = 0;
	uf->ours_live = 1;
	uf->nlen = 0;
}

/* Window ends in @regs: TF as the program set it, BTF off. */
static void dcg_uf_disarm(struct dcg_slot *s, struct pt_regs *regs)
{
	struct dcg_uflags *uf = dcg_uf(s);

	dcg_tf_disarm_current(regs);
	if (!uf)
		return;
	if (uf->tf)
		regs->flags |= X86_EFLAGS_TF;
	uf->ours_live = 0;
}

/*
 * A trap of a task whose window is not armed: the program's own when TF
 * is the program's (window not armed yet, or its task gave TF back when
 * it ended), or when the program has TF on anyway.  Ours only after a
 * window was ended from elsewhere (probe end) with our TF live.
 */
static int dcg_uf_own_trap(struct dcg_slot *s, int state)
{
	struct dcg_uflags *uf = dcg_uf(s);

	return state == DCG_SLOT_OPENING || (uf && (!uf->ours_live || uf->tf));
}

/* Module teardown: leave TF of a task whose program has it on. */
static int dcg_uf_keeps_tf(struct dcg_slot *s)
{
	struct dcg_uflags *uf = dcg_uf(s);

	return uf && uf->tf;
}

static int dcg_uf_is_prefix(u8 b)
{
	return (b >= 0x40 && b <= 0x4f) || b == 0x66 || b == 0x67 ||
	       b == 0xf0 || b == 0xf2 || b == 0xf3 || b == 0x26 ||
	       b == 0x2e || b == 0x36 || b == 0x3e || b == 0x64 || b == 0x65;
}

/* @op (9c pushf, 9d popf) with nothing but prefixes before it. */
static int dcg_uf_is_op(const u8 *buf, const struct dcg_insn *in, u8 op)
{
	int i;

	if (in->branch != DCG_BR_OTHER || buf[in->len - 1] != op)
		return 0;
	for (i = 0; i < in->len - 1; i++)
		if (!dcg_uf_is_prefix(buf[i]))
			return 0;
	return 1;
}

static int dcg_uf_is_syscall(const u8 *buf, const struct dcg_insn *in)
{
	return in->len == 2 && buf[0] == 0x0f && buf[1] == 0x05;
}

/* Bit 8 of the word pushf just wrote at @sp: TF, in its second byte. */
static void dcg_uf_fix_pushed(u64 sp, int tf)
{
	u8 b;

	if (copy_from_user_nofault(&b, (const void __user *)(sp + 1), 1))
		return;
	b = tf ? (b | 1) : (b & ~1);
	copy_to_user_nofault((void __user *)(sp + 1), &b, 1);
}

/* The saved flags of the 64-bit signal frame at @frame. */
static void __user *dcg_uf_frame_flags(u64 frame)
{
	return (void __user *)(frame +
			       offsetof(struct rt_sigframe, uc.uc_mcontext.flags));
}

/*
 * A ret that landed on uprobes' return trampoline (a .return probe
 * hijacked the return address): natively it would have gone to the
 * original return address.
 */
static int dcg_uf_at_trampoline(struct pt_regs *regs)
{
#ifdef CONFIG_UPROBES
	struct uprobe_task *ut = current->utask;
	struct return_instance *ri = ut ? READ_ONCE(ut->return_instances) : NULL;
	u8 b;

	return ri && regs->sp > ri->stack &&
	       !copy_from_user_nofault(&b, (const void __user *)regs->ip, 1) &&
	       b == 0xcc;
#else
	return 0;
#endif
}

/*
 * The r11 of a syscall.  syscall saves RFLAGS, our TF included, in r11
 * and the kernel gives it back; the instruction after the syscall runs
 * before our next stop, so r11 is fixed at the syscall's exit, by a
 * probe on the sys_exit tracepoint.  Registering it sleeps and puts
 * every task of the system on the syscall tracepoint path, so it is
 * registered only once a window meets a syscall: by the task work
 * queued at that stop, which runs on the way back from the trap, before
 * the syscall does.  It goes at teardown.
 */
static DEFINE_MUTEX(dcg_uf_tp_lock);
static struct tracepoint *dcg_uf_tp;
static int dcg_uf_tp_state;		/* 0 not yet, 1 registered, -1 never */
static atomic_t dcg_uf_pending;		/* tasks with an r11 to fix */

static void dcg_uf_set_r11(struct pt_regs *regs, u8 r11)
{
	if (r11 > 1)
		regs->r11 |= X86_EFLAGS_TF;
	else
		regs->r11 &= ~X86_EFLAGS_TF;
}

static void dcg_uf_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	struct dcg_slot *s;
	struct dcg_uflags *uf;

	if (!atomic_read(&dcg_uf_pending))
		return;
	s = dcg_slot_find(current);
	uf = s ? dcg_uf(s) : NULL;
	if (!uf || !uf->r11 || regs != task_pt_regs(current))
		return;
	dcg_uf_set_r11(regs, uf->r11);
	uf->r11 = 0;
	atomic_dec(&dcg_uf_pending);
}

static void dcg_uf_tp_find(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sys_exit"))
		dcg_uf_tp = tp;
}

/* Task work (process context): the probe, once. */
static void dcg_uf_tp_register(void)
{
	mutex_lock(&dcg_uf_tp_lock);
	if (!dcg_uf_tp_state && !dcg_stopping()) {
		for_each_kernel_tracepoint(dcg_uf_tp_find, NULL);
		if (dcg_uf_tp &&
		    !tracepoint_probe_register(dcg_uf_tp, dcg_uf_sys_exit, NULL))
			dcg_uf_tp_state = 1;
		else
			dcg_uf_tp_state = -1;	/* r11 keeps our TF */
	}
	mutex_unlock(&dcg_uf_tp_lock);
}

/* Teardown, process context, after the last window closed. */
static void dcg_uf_teardown(void)
{
	mutex_lock(&dcg_uf_tp_lock);
	if (dcg_uf_tp_state == 1) {
		tracepoint_probe_unregister(dcg_uf_tp, dcg_uf_sys_exit, NULL);
		tracepoint_synchronize_unregister();
	}
	dcg_uf_tp_state = -1;
	mutex_unlock(&dcg_uf_tp_lock);
}

/* Stopped before a syscall (not sigreturn or exec). */
static void dcg_uf_syscall(struct dcg_slot *s, struct dcg_uflags *uf)
{
	if (!uf->r11)
		atomic_inc(&dcg_uf_pending);
	uf->r11 = 1 + uf->tf;
	if (!READ_ONCE(dcg_uf_tp_state))
		dcg_queue_work(s);
}

/* The opcode byte after the prefixes (its index in *at), or -1. */
static int dcg_uf_opcode(const u8 *buf, int n, int *at)
{
	int i = 0;

	while (i < n && dcg_uf_is_prefix(buf[i]))
		i++;
	*at = i;
	return i < n ? buf[i] : -1;
}

/*
 * Worth a full decode: pushf, popf, iret, syscall, and ret when a trap
 * of the program is due.  A byte test, so that the common stop costs
 * no decoding at all.
 */
static int dcg_uf_interesting(const u8 *buf, int n, int want_ret)
{
	int at, op = dcg_uf_opcode(buf, n, &at);

	switch (op) {
	case 0x9c: case 0x9d: case 0xcf:
		return 1;
	case 0x0f:
		return at + 1 < n && buf[at + 1] == 0x05;
	case 0xc3: case 0xc2: case 0xcb: case 0xca:
		return want_ret;
	}
	return 0;
}

/*
 * The instruction at the next stop, before it runs (its bytes are kept
 * for the next stop, where it is the one that ran): a syscall gets its
 * r11 fixed on the way back; rt_sigreturn of a frame we patched takes
 * the program's TF from it and leaves ours in it.
 */
static void dcg_uf_before(struct dcg_slot *s, struct dcg_uflags *uf,
			  struct pt_regs *regs)
{
	int n = dcg_read_nofault(regs->ip, uf->nbuf, DCG_INSN_MAX_LEN, false);
	int at;
	u64 fl;
	void __user *p;

	uf->nip = regs->ip;
	uf->nlen = n > 0 ? n : 0;
	if (dcg_uf_opcode(uf->nbuf, uf->nlen, &at) != 0x0f ||
	    at + 1 >= uf->nlen || uf->nbuf[at + 1] != 0x05)
		return;
	if ((u32)regs->ax == __NR_rt_sigreturn) {
		p = dcg_uf_frame_flags(regs->sp - sizeof(long));
		if (!uf->frames || copy_from_user_nofault(&fl, p, sizeof(fl)))
			return;
		uf->frames--;
		uf->tf = !!(fl & X86_EFLAGS_TF);
		fl |= X86_EFLAGS_TF;
		copy_to_user_nofault(p, &fl, sizeof(fl));
		return;
	}
	if ((u32)regs->ax == __NR_execve || (u32)regs->ax == __NR_execveat)
		return;
	dcg_uf_syscall(s, uf);
}

/*
 * The instruction at @x (@buf, @n bytes) ran: pushf, popf, iret, ret,
 * or a syscall, after which the next instruction ran too (the CPU gives
 * no trap right after a syscall).  Updates *due.
 */
static void dcg_uf_after(struct dcg_uflags *uf, struct pt_regs *regs,
			 u64 x, const u8 *buf, int n, int *due)
{
	struct dcg_insn in;
	u8 next[DCG_INSN_MAX_LEN];

	if (dcg_insn_decode(buf, n, x, &in) <= 0)
		return;
	if (dcg_uf_is_syscall(buf, &in)) {
		x += in.len;
		n = dcg_read_nofault(x, next, sizeof(next), false);
		if (n <= 0 || !dcg_uf_interesting(next, n, *due) ||
		    dcg_insn_decode(next, n, x, &in) <= 0)
			return;
		buf = next;
	}
	if (dcg_uf_is_op(buf, &in, 0x9c) && regs->ip == x + in.len) {
		dcg_uf_fix_pushed(regs->sp, uf->tf);
	} else if ((dcg_uf_is_op(buf, &in, 0x9d) && regs->ip == x + in.len) ||
		   in.branch == DCG_BR_IRET) {
		uf->tf = !!(regs->flags & X86_EFLAGS_TF);
		regs->flags |= X86_EFLAGS_TF;
	} else if (*due && dcg_branch_is_ret(in.branch) &&
		   dcg_uf_at_trampoline(regs)) {
		/* sent once uprobes is past its int3 (dcg_uf_int3) */
		uf->trap_later = 1;
		uf->trap_ip = regs->ip;
		*due = 0;
	}
}

/*
 * One armed stop, before the engine sees it (t->prev_ip is still the
 * previous stop).  Returns 1 when the program's own trap is due here.
 * One read of user memory per stop: the bytes at the previous stop were
 * read there.
 */
static int dcg_uf_stop(struct dcg_slot *s, struct pt_regs *regs)
{
	struct dcg_uflags *uf = dcg_uf(s);
	struct dcg_thread *t = &s->engine;
	u8 buf[DCG_INSN_MAX_LEN];
	const u8 *b = buf;
	int due, n;

	if (!uf || s->mode != DCG_MODE_STEP)
		return 0;
	due = uf->tf;
	if (t->have_prev) {
		if (uf->nlen && uf->nip == t->prev_ip) {
			b = uf->nbuf;
			n = uf->nlen;
		} else {
			n = dcg_read_nofault(t->prev_ip, buf, sizeof(buf), false);
		}
		if (n > 0 && dcg_uf_interesting(b, n, due))
			dcg_uf_after(uf, regs, t->prev_ip, b, n, &due);
	}
	dcg_uf_before(s, uf, regs);
	return due;
}

/*
 * A signal handler's frame was just built in the window: its saved
 * flags get the program's TF, and the handler starts with TF off.
 */
static void dcg_uf_signal(struct dcg_slot *s, struct pt_regs *regs)
{
	struct dcg_uflags *uf = dcg_uf(s);
	void __user *p = dcg_uf_frame_flags(regs->sp);
	u64 fl;

	if (!uf || !user_64bit_mode(regs) ||
	    copy_from_user_nofault(&fl, p, sizeof(fl)))
		return;
	fl = uf->tf ? (fl | X86_EFLAGS_TF) : (fl & ~X86_EFLAGS_TF);
	if (copy_to_user_nofault(p, &fl, sizeof(fl)))
		return;
	uf->frames++;
	uf->tf = 0;
}

/*
 * A uprobe in or at the start of the window (@ip: the probed insn).
 * uprobes runs that insn out of line with TF set for its own step, so a
 * probed pushf pushes TF = 1 (a plain uprobe does that too).
 */
static void dcg_uf_probe_at(struct dcg_slot *s, u64 ip)
{
	struct dcg_uflags *uf = dcg_uf(s);

	if (uf)
		uf->probe_ip = ip;
}

/*
 * The probed insn's own bytes: the page the task maps has uprobes'
 * int3 on it, the file has the original.  Task work: may sleep.
 */
static int dcg_uf_file_insn(u64 ip, u8 *buf, unsigned int len)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	struct file *f = NULL;
	loff_t pos = 0;
	int n;

	if (!mm)
		return -1;
	mmap_read_lock(mm);
	vma = find_vma(mm, ip);
	if (vma && vma->vm_start <= ip && vma->vm_file) {
		f = get_file(vma->vm_file);
		pos = ((loff_t)vma->vm_pgoff << PAGE_SHIFT) + ip - vma->vm_start;
	}
	mmap_read_unlock(mm);
	if (!f)
		return -1;
	n = kernel_read(f, buf, len, &pos);
	fput(f);
	return n;
}

/* Task work, TF about to go (back) on after the probed insn ran. */
static void dcg_uf_resume(struct dcg_slot *s, struct pt_regs *regs)
{
	struct dcg_uflags *uf = dcg_uf(s);
	struct dcg_insn in;
	u8 buf[DCG_INSN_MAX_LEN];
	u64 ip;
	int n;

	if (!uf || !uf->probe_ip)
		return;
	ip = uf->probe_ip;
	uf->probe_ip = 0;
	n = dcg_uf_file_insn(ip, buf, sizeof(buf));
	if (n > 0 && dcg_insn_decode(buf, n, ip, &in) > 0 &&
	    dcg_uf_is_op(buf, &in, 0x9c) && regs->ip == ip + in.len)
		dcg_uf_fix_pushed(regs->sp, uf->tf);
}

/* The program's trap, sent from task work (a ret into the trampoline). */
static void dcg_uf_send_trap(struct pt_regs *regs)
{
	struct kernel_siginfo info;

	/* a blocked SIGTRAP is forced through, as for the CPU's trap */
	if (sigismember(&current->blocked, SIGTRAP)) {
		force_sig(SIGTRAP);
		return;
	}
	clear_siginfo(&info);
	info.si_signo = SIGTRAP;
	info.si_code = TRAP_TRACE;
	info.si_addr = (void __user *)regs->ip;
	send_sig_info(SIGTRAP, &info, current);
}

/*
 * An int3 of the task (DIE_INT3, before uprobes): with a trap waiting
 * for the trampoline, queue the task work that sends it.  It runs after
 * uprobes' own work on the same way out, with the return address back.
 */
static void dcg_uf_int3(struct dcg_slot *s)
{
	struct dcg_uflags *uf = dcg_uf(s);

	if (uf && uf->trap_later && !dcg_stopping())
		dcg_queue_work(s);
}

/* Task work of the slot's own task, on its way back to user mode. */
static void dcg_uf_work(struct dcg_slot *s)
{
	struct dcg_uflags *uf = dcg_uf(s);
	struct pt_regs *regs = task_pt_regs(current);

	if (!uf || current != s->task)
		return;
	if (uf->r11 && !READ_ONCE(dcg_uf_tp_state))
		dcg_uf_tp_register();	/* before the syscall runs */
	if (uf->trap_later && regs->ip != uf->trap_ip) {
		uf->trap_later = 0;
		dcg_uf_send_trap(regs);
	}
}
