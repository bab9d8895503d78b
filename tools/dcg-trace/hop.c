// SPDX-License-Identifier: GPL-2.0
/*
 * hop.c - --mode hop: a trap per control transfer, not per instruction.
 *
 * Where BTF is ignored, stepping stops after every instruction.  In hop
 * mode a thread in a window that would be stepped is instead given a
 * plan (runtime/hop.c: the next instructions the engine must see run,
 * on every path through its function's own jumps), the plan's
 * addresses go into the thread's debug registers (execute breakpoints,
 * PTRACE_POKEUSER of u_debugreg, DR7 local enables), and the thread
 * runs with PTRACE_CONT.  At the hit (DR6 says which) the engine hears
 * that the thread got there natively (dcg_thread_hop), and the
 * instruction is single-stepped like any in step mode: the stop after
 * it goes to the engine as in step mode; most transfers are done by
 * the tracer instead (hop_emulate), and the registers stay as they are
 * for the next plan.  Any resume other than a native run first
 * disables them (hop_before_resume): a step with a breakpoint enabled
 * on its own instruction would count on RF, which the kernel sets at
 * the hit but which not every (emulated) CPU honours.
 *
 * Any other stop during a native run (a signal, a fault, an int3 of
 * ours, a PTRACE_INTERRUPT, another thread's exit_group) first settles
 * the run at the thread's rip (hop_settle): DR7 cleared, the engine
 * told, and the stop then handled as it would be in step mode.  A
 * signal is delivered with a step, so its handler's entry is seen.
 * Our DR7 bits are set only while a native run is under way; window
 * end, exit (the kernel's) and exec (the kernel's) clear them, detach
 * puts every register back as the program had it (debugreg.c), and so
 * does the guardian when dcg-trace dies.
 *
 * A thread whose DR7 is already nonzero when its first window opens (a
 * debugger that left breakpoints) is stepped, with one line saying so;
 * so is a thread whose debug registers cannot be written (perf holds
 * the slots), and one that has its own TF set (tracee_flags.c).
 */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include "dcg_trace.h"
#include "dcg_hop.h"

#ifndef TRAP_BRKPT
#define TRAP_BRKPT 1	/* x86: a stepped syscall's report at its exit */
#endif
#ifndef TRAP_TRACE
#define TRAP_TRACE 2
#endif
#ifndef TRAP_HWBKPT
#define TRAP_HWBKPT 4
#endif

#define DR_HITS	0xfu	/* DR6 B0..B3 */
#define DR_STEP	0x4000u	/* DR6 BS */

static struct {
	uint64_t plans_set, plans_next, plans_step;
	uint64_t hits, settles, inexact, other_traps, stale, emulated;
	bool refused_said;
	bool env_read;
	bool dr6_sticky;	/* DR6 showed bits of earlier traps */
	unsigned int flags;	/* DCG_TRACE_HOP=straight: DCG_HOP_STRAIGHT */
	bool step_transfers;	/* DCG_TRACE_HOP=stepped: never emulate */
} H;

/* The DR7 bits of every slot a plan may use. */
#define HOP_DR7_MASK	(DR7_SLOT(0) | DR7_SLOT(1) | DR7_SLOT(2) | DR7_SLOT(3))

/* Give up hopping on @t: it is stepped from now on. */
static void hop_refuse(struct task *t, const char *why, uint64_t val)
{
	t->hop.off = true;
	if (!H.refused_said)
		fprintf(stderr, PROG ": thread %d: %s (%#llx): stepping it "
			"instead of hop mode\n", t->tid, why,
			(unsigned long long)val);
	H.refused_said = true;
}

/* May @t run natively under debug registers? */
static bool hop_usable(struct task *t)
{
	uint64_t dr7 = 0;
	int r;

	if (t->hop.off)
		return false;
	if (t->hop.checked)
		return true;
	t->hop.checked = true;
	r = dr_own(t);
	if (r < 0) {
		hop_refuse(t, "cannot read debug registers, errno", (uint64_t)-r);
		return false;
	}
	if (dr_program_uses(t, &dr7)) {
		hop_refuse(t, "the program uses debug registers, DR7", dr7);
		return false;
	}
	return true;
}

/* Is @addr already placed in @slot[] (bits of @used)? */
static bool hop_placed(const uint64_t *slot, unsigned int used, uint64_t addr)
{
	int j;

	for (j = 0; j < DCG_HOP_MAX; j++)
		if ((used & (1u << j)) && slot[j] == addr)
			return true;
	return false;
}

/*
 * Which slot each address of @p goes in (@slot[], bits of the return
 * value).  A debug register that holds the address already keeps it;
 * the others go first in slots enabled now, so that DR7 stays as it
 * is.  Each write is a ptrace call, and plans often repeat (a loop
 * that calls, the return to it).
 */
static unsigned int hop_place(const struct task *t,
			      const struct dcg_hop_plan *p, uint64_t *slot)
{
	unsigned int used = 0, have = t->hop.dr_valid, pass;
	int i, j;

	for (i = 0; i < p->n; i++)
		for (j = 0; j < DCG_HOP_MAX; j++)
			if ((have & ~used & (1u << j)) &&
			    t->hop.dr[j] == p->addr[i] &&
			    !hop_placed(slot, used, p->addr[i])) {
				slot[j] = p->addr[i];
				used |= 1u << j;
			}
	for (i = 0; i < p->n; i++) {
		if (hop_placed(slot, used, p->addr[i]))
			continue;
		for (pass = 0; pass < 2; pass++) {
			unsigned int pref = pass ? ~0u : t->hop.on;

			for (j = 0; j < DCG_HOP_MAX; j++)
				if ((pref & ~used & (1u << j)))
					break;
			if (j < DCG_HOP_MAX)
				break;
		}
		if (j == DCG_HOP_MAX)	/* more addresses than slots */
			break;
		slot[j] = p->addr[i];
		used |= 1u << j;
	}
	return used;
}

/* Write the plan's addresses and enable them; <0 on failure. */
static int hop_arm(struct task *t, const struct dcg_hop_plan *p)
{
	uint64_t dr7 = 0, slot[DCG_HOP_MAX] = { 0 };
	unsigned int used = hop_place(t, p, slot);
	int i, r;

	for (i = 0; i < DCG_HOP_MAX; i++) {
		if (!(used & (1u << i)))
			continue;
		if (!(t->hop.dr_valid & (1u << i)) || t->hop.dr[i] != slot[i]) {
			r = dr_set_addr(t, i, slot[i]);
			if (r < 0)
				return r;
			t->hop.dr[i] = slot[i];
			t->hop.dr_valid |= 1u << i;
			/* skip.c caches what it wrote in its slot */
			t->sk.dr_addr = 0;
		}
		/* execute breakpoint: R/W 00, LEN 00, local enable */
		dr7 |= 1ull << (2 * i);
	}
	r = dr7_update(t, HOP_DR7_MASK, dr7);
	if (r < 0)
		return r;
	t->hop.on = used;
	/* unused slots hold 0 here: no rip is 0 */
	t->hop.n = DCG_HOP_MAX;
	memcpy(t->hop.addr, slot, sizeof(t->hop.addr));
	return 0;
}

/* Our DR7 enables off (no write when none is on). */
static void hop_dr7_off(struct task *t)
{
	uint64_t mask = 0;
	int i;

	for (i = 0; i < DCG_HOP_MAX; i++)
		if (t->hop.on & (1u << i))
			mask |= DR7_SLOT(i);
	t->hop.on = 0;
	if (mask)
		dr7_update(t, mask, 0);
}

/* skip.c wrote debug register @i for its return breakpoint. */
void hop_dr_written(struct task *t, int i)
{
	if (i >= 0 && i < DCG_HOP_MAX) {
		t->hop.dr_valid &= ~(1u << i);
		t->hop.on &= ~(1u << i);	/* skip's slot now */
	}
}

/*
 * Instead of a single step: run @t natively to its next transfers.
 * True when it was resumed so; false when it must be stepped.
 */
bool hop_resume(struct task *t)
{
	struct dcg_host_ops ops;
	struct dcg_hop_plan p;
	int r;

	if (T.mode != DCG_MODE_HOP || !t->in_window || t->own_tf ||
	    t->foreign || dcg_thread_skipping(&t->eng) || t->eng.thunk.kind ||
	    !t->regs_valid || !hop_usable(t))
		return false;
	if (!H.env_read) {
		const char *how = getenv("DCG_TRACE_HOP");

		H.env_read = true;
		/*
		 * --annotate counts per line: runs through jumps would be
		 * lower bounds there, so they stop at every branch.
		 */
		if ((how && !strcmp(how, "straight")) || T.opt.annotate)
			H.flags = DCG_HOP_STRAIGHT;
		H.step_transfers = how && !strcmp(how, "stepped");
	}
	window_ops(t, &ops);
	switch (dcg_hop_plan(t->regs.rip, DCG_HOP_MAX, H.flags, &ops, &p)) {
	case DCG_HOP_SET:
		H.plans_set++;
		break;
	case DCG_HOP_NEXT:
		H.plans_next++;
		break;
	default:
		H.plans_step++;
		return false;
	}
	r = hop_arm(t, &p);
	if (r < 0) {
		dr7_update(t, HOP_DR7_MASK, 0);
		t->hop.on = 0;
		hop_refuse(t, "cannot write debug registers, errno", -r);
		return false;
	}
	t->hop.armed = true;
	t->hop.start = t->regs.rip;
	if (task_resume(t, RH_HOP, 0) != 0) {
		/* not resumed (gone, or another stop came first): no run */
		hop_end(t);
	}
	return true;
}

/* A native run of @t ended at @ip (regs valid): the engine is told. */
static void hop_ran_to(struct task *t, uint64_t ip)
{
	struct dcg_host_ops ops;

	t->hop.armed = false;
	H.settles++;
	if (!t->in_window)
		return;
	window_ops(t, &ops);
	if (!dcg_thread_hop(&t->eng, ip, t->regs.rsp, &ops))
		H.inexact++;
}

/*
 * A native run of @t ended at @ip (regs valid): registers off, and the
 * engine told how far the thread got.  Harmless when none was on.
 */
void hop_settle(struct task *t, uint64_t ip)
{
	if (!t->hop.armed)
		return;
	hop_dr7_off(t);
	hop_ran_to(t, ip);
}

/*
 * Before any resume of @t (task_resume): our DR7 bits off, unless it
 * is a native run that armed its own.  Nothing to write when they are
 * off already.
 */
void hop_before_resume(struct task *t, enum resume_how how)
{
	if (how != RH_HOP)
		hop_dr7_off(t);
}

/* Is @addr in @t's plan (a native run under way)? */
bool hop_armed_at(const struct task *t, uint64_t addr)
{
	int i;

	for (i = 0; t->hop.armed && i < t->hop.n; i++)
		if (t->hop.addr[i] == addr)
			return true;
	return false;
}

/*
 * Is the SIGTRAP that stopped @t (regs valid) a hit of its plan?  A hit
 * stops before the instruction, with rip on an armed address and the
 * register's bit in DR6.
 */
/* The DR6 bits of the armed slots that hold @addr. */
static uint64_t hop_slots_at(const struct task *t, uint64_t addr)
{
	uint64_t bits = 0;
	int i;

	for (i = 0; i < t->hop.n; i++)
		if (t->hop.addr[i] == addr)
			bits |= 1u << i;
	return bits;
}

static int hop_hit_slot(struct task *t, uint64_t *dr6)
{
	int i;

	*dr6 = 0;
	if (!t->hop.armed || dr_peek(t->tid, 6, dr6) < 0)
		return -1;
	for (i = 0; i < t->hop.n; i++)
		if ((*dr6 & (1u << i)) && t->hop.addr[i] == t->regs.rip)
			return i;
	return -1;
}

bool hop_is_hit(struct task *t)
{
	uint64_t dr6;

	return hop_hit_slot(t, &dr6) >= 0;
}

/*
 * The SIGTRAP of a thread in a native run.  Returns true when it was
 * the plan's hit, told to the engine; DR7 stays as it is for the step
 * of the transfer (hop_before_resume).
 */
bool hop_sigtrap(struct task *t)
{
	uint64_t dr6;
	int i = hop_hit_slot(t, &dr6);

	if (i < 0)
		return false;
	H.hits++;
	/*
	 * The next hit must be told apart from this one.  The kernels
	 * seen so far (6.x) build the DR6 that ptrace shows afresh at
	 * each debug trap (the hit's bits, BS for a step); a kernel
	 * that keeps bits shows more than this hit (BS of the step
	 * since, at least) and gets DR6 cleared at every hit from then
	 * on, as it always was.  A plan may arm one address in two
	 * slots: both bits are this hit.
	 */
	if ((dr6 & (DR_HITS | DR_STEP)) & ~hop_slots_at(t, t->regs.rip))
		H.dr6_sticky = true;
	if (H.dr6_sticky)
		dr6_clear(t);
	hop_ran_to(t, t->regs.rip);
	return true;
}

/*
 * Is the SIGTRAP that stopped @t (regs valid) in a native run a trap of
 * ours from before the run began?  A step's trap (or a hit's) that was
 * queued when a PTRACE_INTERRUPT or a group-stop was reported first
 * (they come before queued signals) is delivered after the next resume,
 * before any instruction runs: rip is still where the run began.  No
 * hit is ever there (a plan never arms its own start), and a program's
 * own SIGTRAP (kill, raise, int3: SI_USER, SI_TKILL, SI_KERNEL) has
 * another si_code.  A stepped syscall reports its step at its exit as
 * TRAP_BRKPT (threadexit died of one, blocked in futex while stepped).  Seen as a foreign trap
 * it killed sigflood one round in twenty under SIGSTOP/SIGCONT; behind
 * a group-stop that settled the run, at the detach one round in thirty.
 */
bool hop_stale_trap(struct task *t)
{
	siginfo_t si;

	/*
	 * Not armed but last resumed for a native run: a group-stop (or
	 * an interrupt) settled the run and the thread was let listen,
	 * not resumed; the trap is from before that stop.
	 */
	if (t->how != RH_HOP || (t->hop.armed && t->regs.rip != t->hop.start) ||
	    ptrace(PTRACE_GETSIGINFO, t->tid, 0, &si) < 0)
		return false;
	return si.si_code == TRAP_TRACE || si.si_code == TRAP_HWBKPT ||
	       si.si_code == TRAP_BRKPT;
}

/* The stale trap of hop_stale_trap(): nothing ran; plan again. */
void hop_stale_settle(struct task *t)
{
	H.stale++;
	dr6_clear(t);
	hop_settle(t, t->regs.rip);
}

/*
 * A SIGTRAP in a native run of @t that is neither a hit nor an int3 of
 * ours goes to the program (its own, sent by kill()): counted, and with
 * -v described, so that a trap of ours misjudged would show.  Before
 * hop_settle() (the plan is still there).
 */
void hop_foreign_trap(struct task *t)
{
	uint64_t dr6 = 0;
	siginfo_t si;

	H.other_traps++;
	if (!T.opt.verbose)
		return;
	dr_peek(t->tid, 6, &dr6);
	si.si_code = 0;
	ptrace(PTRACE_GETSIGINFO, t->tid, 0, &si);
	dcg_warn("thread %d: SIGTRAP at %#llx in a native run from %#llx is "
	       "no hit: DR6 %#llx si_code %d, slots %#x armed: %#llx %#llx %#llx "
	       "%#llx", t->tid, (unsigned long long)t->regs.rip,
	       (unsigned long long)t->hop.start, (unsigned long long)dr6,
	       si.si_code, t->hop.on, (unsigned long long)t->hop.addr[0],
	       (unsigned long long)t->hop.addr[1],
	       (unsigned long long)t->hop.addr[2],
	       (unsigned long long)t->hop.addr[3]);
}

/* Window end, detach, exec: no debug register of ours stays enabled. */
void hop_end(struct task *t)
{
	t->hop.armed = false;
	hop_dr7_off(t);
}

/* exec emptied the debug registers. */
void hop_exec(struct task *t)
{
	t->hop.armed = false;
	t->hop.on = 0;
	t->hop.dr_valid = 0;
	t->hop.checked = false;
	t->hop.shstk_known = false;
}

/*
 * Emulating the transfer hit.  Its single step costs a stop, as much
 * as the native run before it: the thread traps, the tracer wakes, and
 * both switch back.  A near call, jmp or ret only moves rip and rsp (a
 * call also writes its return address): the tracer does it itself
 * (runtime/near_branch.c says where it goes, for both hosts), the
 * engine then sees the very stop the step would have shown
 * (step_trap), and the thread goes on under the next plan.  Everything
 * else is stepped: far transfers, jcc, syscalls, a branch with an
 * operand-size, address-size or segment prefix, one whose memory
 * cannot be read.  So is a thread with a shadow stack (CET): the
 * kernel keeps that one.
 */

/* Does the thread keep a shadow stack (/proc: x86_Thread_features)? */
static bool hop_shstk(struct task *t)
{
	char path[64], line[256];
	bool on = false;
	FILE *f;

	if (t->hop.shstk_known)
		return t->hop.shstk;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", t->tgid,
		 t->tid);
	f = fopen(path, "re");
	if (!f)
		return true;	/* cannot tell: step */
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "x86_Thread_features:", 20))
			on = strstr(line, "shstk") != NULL;
	fclose(f);
	t->hop.shstk = on;
	t->hop.shstk_known = true;
	return on;
}

/* Memory of the thread: a return address, a GOT slot (never cached). */
static int hop_read_data(void *ctx, dcg_u64 addr, void *buf,
			 unsigned int len)
{
	return mem_read(addr, buf, len);
}

/* rip and rsp after the transfer at @t's rip; false: step it. */
static bool hop_emulated_regs(struct task *t, uint64_t *rip, uint64_t *rsp)
{
	const struct user_regs_struct *g = &t->regs;
	const dcg_u64 gpr[16] = {
		g->rax, g->rcx, g->rdx, g->rbx, g->rsp, g->rbp, g->rsi, g->rdi,
		g->r8, g->r9, g->r10, g->r11, g->r12, g->r13, g->r14, g->r15,
	};
	uint8_t buf[DCG_INSN_MAX_LEN];
	struct dcg_near_branch nb;
	struct dcg_insn in;
	int n = code_read(g->rip, buf, sizeof(buf));

	if (n <= 0)
		return false;
	if (!dcg_near_branch(buf, n, g->rip, g->rsp, gpr, hop_read_data, t,
			     &nb)) {
		/* arch_prctl may turn a shadow stack on: look again */
		if (g->rax == 158 && dcg_insn_decode(buf, n, g->rip, &in) > 0 &&
		    in.branch == DCG_BR_SYS)
			t->hop.shstk_known = false;
		return false;
	}
	if (nb.pushed && mem_store(T.pid, nb.sp, &nb.push,
				   sizeof(nb.push)) < 0)
		return false;
	*rip = nb.ip;
	*rsp = nb.sp;
	return true;
}

/*
 * At a hit (regs valid): do the transfer instead of stepping it.  True
 * when done: @t's registers are those after it, as after a step.
 */
bool hop_emulate(struct task *t)
{
	uint64_t rip, rsp, ip = t->regs.rip, sp = t->regs.rsp;

	if (H.step_transfers || hop_shstk(t) ||
	    !hop_emulated_regs(t, &rip, &rsp))
		return false;
	t->regs.rip = rip;
	t->regs.rsp = rsp;
	if (task_setregs(t) < 0) {
		t->regs.rip = ip;
		t->regs.rsp = sp;
		return false;
	}
	t->step_from = ip;
	t->step_rsp = sp;	/* tflags_before_step() */
	t->how = RH_STEP;	/* step_trap() judges the stop */
	H.emulated++;
	return true;
}

void hop_report(void)
{
	if (T.mode != DCG_MODE_HOP)
		return;
	fprintf(stderr, PROG ": hop: %llu plans over jumps, %llu to the next "
		"transfer, %llu steps; %llu hits (%llu transfers done by the "
		"tracer), %llu other stops in native "
		"runs (%llu SIGTRAPs passed on, %llu stale traps of ours), %llu "
		"counts a lower bound\n",
		(unsigned long long)H.plans_set,
		(unsigned long long)H.plans_next,
		(unsigned long long)H.plans_step, (unsigned long long)H.hits,
		(unsigned long long)H.emulated,
		(unsigned long long)(H.settles - H.hits),
		(unsigned long long)H.other_traps,
		(unsigned long long)H.stale, (unsigned long long)H.inexact);
}
