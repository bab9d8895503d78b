// SPDX-License-Identifier: GPL-2.0
/*
 * tracee_flags.c - the program's own EFLAGS.TF, kept apart from ours.
 *
 * Stepping a thread sets TF in its flags.  The kernel hides that TF
 * from PTRACE_GETREGS (TIF_FORCED_TF) and clears it when stepping
 * stops, but the program itself can still see it, and a program that
 * sets TF itself (popf, iret, sigreturn) must get its single-step
 * traps where the CPU would have raised them.  So each thread has a
 * shadow of the TF the program would have, and after each step:
 *
 *  - pushf/pushfq/pushfw: the pushed word gets the program's TF;
 *  - syscall: r11 (the flags at the syscall) gets the program's TF;
 *  - popf/iret: the kernel does not force TF over an instruction that
 *    sets it (is_setting_trap_flag() in arch/x86/kernel/step.c), so
 *    the flags after the step are the program's own;
 *  - rt_sigreturn: the flags come from the frame, which the kernel
 *    restored under a forced TF that GETREGS hides: read the frame;
 *  - an instruction that started with the program's TF set ends in the
 *    program's own single-step trap: the SIGTRAP of this very stop
 *    (TRAP_TRACE, rip past the instruction) is delivered to it.
 *
 * A signal delivered to a stepped thread is not a problem: the kernel
 * drops a forced TF before it saves the flags in the frame
 * (handle_signal(), arch/x86/kernel/signal.c), and the handler starts
 * with TF clear.
 *
 * After a free run (PTRACE_CONT), GETREGS shows the true TF, and the
 * shadow is read from it.  A TF that the program set stays set when
 * stepping ends: PTRACE_SETREGS with TF clears TIF_FORCED_TF, and the
 * kernel then leaves it alone.
 *
 * Block mode (PTRACE_SINGLEBLOCK) stops only at branches: a pushf in
 * the middle of a block is not seen, and neither is the program's TF.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include "dcg_trace.h"

#define X86_TF 0x100ULL

/* x86-64 rt signal frame: pretcode, then struct ucontext. */
#define UC_MCONTEXT 40			/* uc_flags, uc_link, uc_stack */
#define SC_EFLAGS (17 * 8)		/* r8..r15, rdi..rsp, rip, eflags */
#define UC_EFLAGS (UC_MCONTEXT + SC_EFLAGS)

enum flags_insn {
	FI_OTHER,
	FI_PUSHF,
	FI_POPF,
	FI_IRET,
	FI_SYSCALL,
	FI_INT,		/* int3, int n, int1: raise their own exception */
};

static bool is_prefix(uint8_t b)
{
	return b == 0x66 || b == 0x67 || b == 0xf0 || b == 0xf2 ||
	       b == 0xf3 || b == 0x2e || b == 0x36 || b == 0x3e ||
	       b == 0x26 || b == 0x64 || b == 0x65 || (b & 0xf0) == 0x40;
}

/*
 * What kind of instruction is at @ip, as far as flags go; *@size is the
 * operand size of pushf/popf.  The core decoder gives the length; the
 * instructions asked about have no ModRM, so their opcode is the last
 * byte (or two) after prefixes only.
 */
static enum flags_insn classify(uint64_t ip, unsigned int *size)
{
	uint8_t buf[DCG_INSN_MAX_LEN], op;
	struct dcg_insn insn;
	bool o16 = false, rexw = false;
	int n, len, i;

	n = code_read(ip, buf, sizeof(buf));
	len = n > 0 ? dcg_insn_decode(buf, n, ip, &insn) : -1;
	if (len <= 0)
		return FI_OTHER;
	if (insn.branch == DCG_BR_SYS) {
		if (len >= 2 && buf[len - 2] == 0x0f && buf[len - 1] == 0x05)
			return FI_SYSCALL;
		op = buf[len - 1];
		if (op == 0xcc || op == 0xf1 || (len >= 2 && buf[len - 2] == 0xcd))
			return FI_INT;
		return FI_OTHER;
	}
	if (insn.branch == DCG_BR_IRET)
		return FI_IRET;
	op = buf[len - 1];
	if (op != 0x9c && op != 0x9d)
		return FI_OTHER;
	for (i = 0; i < len - 1; i++) {
		if (!is_prefix(buf[i]))
			return FI_OTHER;
		if (buf[i] == 0x66)
			o16 = true;
		if ((buf[i] & 0xf8) == 0x48)
			rexw = true;
	}
	*size = o16 && !rexw ? 2 : 8;
	return op == 0x9c ? FI_PUSHF : FI_POPF;
}

/* Regs were read after a free run: their TF is the program's. */
void tflags_from_regs(struct task *t)
{
	t->own_tf = (t->regs.eflags & X86_TF) != 0;
}

/* @t is about to be stepped from t->regs.rip. */
void tflags_before_step(struct task *t)
{
	t->step_rsp = t->regs.rsp;
}

/* Set TF in @t's registers as the program's: the kernel stops forcing it. */
static void keep_own_tf(struct task *t)
{
	t->regs.eflags |= X86_TF;
	if (task_setregs(t) < 0)
		dcg_warn("thread %d: cannot keep its own trap flag", t->tid);
}

static void fix_pushed(struct task *t, unsigned int size, bool tf)
{
	uint64_t word = 0;

	if (mem_read(t->regs.rsp, &word, size) != (int)size)
		goto fail;
	if (((word & X86_TF) != 0) == tf)
		return;
	word ^= X86_TF;
	if (mem_write(T.pid, t->regs.rsp, &word, size) == 0)
		return;
fail:
	dcg_warn("thread %d: cannot hide the trap flag from pushf at %#llx",
	       t->tid, (unsigned long long)t->step_from);
}

static void after_sigreturn(struct task *t)
{
	uint64_t fl = 0;

	/* rsp pointed at the ucontext when rt_sigreturn ran */
	if (mem_read(t->step_rsp + UC_EFLAGS, &fl, sizeof(fl)) != sizeof(fl)) {
		dcg_warn("thread %d: cannot read the flags sigreturn restored",
		       t->tid);
		return;
	}
	t->own_tf = (fl & X86_TF) != 0;
	if (t->own_tf)
		keep_own_tf(t);
}

static void after_syscall(struct task *t, bool tf)
{
	pin_after_syscall(t);	/* the program's own CPU mask */
	if (t->regs.orig_rax == SYS_rt_sigreturn) {
		after_sigreturn(t);
		return;
	}
	if (t->regs.orig_rax == SYS_execve || t->regs.orig_rax == SYS_execveat)
		return;
	if (((t->regs.r11 & X86_TF) != 0) == tf)
		return;
	t->regs.r11 ^= X86_TF;
	if (task_setregs(t) < 0)
		dcg_warn("thread %d: cannot hide the trap flag from r11", t->tid);
}

/*
 * @t stopped after a single step from t->step_from (regs valid).
 * Returns true when the program's own single-step trap is due here.
 */
bool tflags_after_step(struct task *t)
{
	unsigned int size = 8;
	enum flags_insn k;
	bool tf = t->own_tf;

	if (t->how != RH_STEP)
		return false;
	k = classify(t->step_from, &size);
	if (t->regs.rip == t->step_from && k != FI_OTHER)
		return false;	/* it did not run: a signal came first */
	switch (k) {
	case FI_PUSHF:
		fix_pushed(t, size, tf);
		break;
	case FI_POPF:
	case FI_IRET:
		/* not forced over these: GETREGS shows what they set */
		t->own_tf = (t->regs.eflags & X86_TF) != 0;
		break;
	case FI_SYSCALL:
		after_syscall(t, tf);
		return false;	/* the kernel returns with TF; no trap */
	case FI_INT:
		return false;	/* its own exception, no step trap */
	case FI_OTHER:
		break;
	}
	return tf;
}

/* A signal goes to stepped thread @t: its handler may start next. */
void tflags_signal_sent(struct task *t)
{
	t->frame_fix = true;
}

/*
 * First stop after a signal was sent with a step.  When it is the stop
 * at the handler's entry (reported with si_code SIGTRAP), the handler
 * runs with TF clear, whatever the interrupted code had.  The frame
 * needs nothing: handle_signal() drops a forced TF before it saves the
 * flags.  Returns true for that stop.
 */
bool tflags_handler_entry(struct task *t)
{
	siginfo_t si;

	if (!t->frame_fix)
		return false;
	t->frame_fix = false;
	if (ptrace(PTRACE_GETSIGINFO, t->tid, 0, &si) < 0 ||
	    si.si_signo != SIGTRAP || si.si_code != SIGTRAP)
		return false;
	t->own_tf = false;
	return true;
}
