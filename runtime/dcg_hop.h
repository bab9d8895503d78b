/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcg_hop.h - hop mode: a trap per control transfer, not per insn.
 *
 * Where BTF is ignored (every KVM, Xen, Hyper-V guest), stepping costs
 * a trap per instruction.  At a stop, the code ahead is known: the
 * host arms execute breakpoints (debug registers) on the next
 * instructions the engine must see run, lets the thread go natively,
 * and on a hit does that instruction itself (dcg_near_branch(), below)
 * or single-steps it, and hands the engine the
 * stop after it, as in step mode.  This file decides where to arm; the
 * arming itself is the host's (PTRACE_POKEUSER, or the kernel's own
 * debug register access).  doc/classifier.md, "Hop mode", has the rules.
 */
#ifndef DCG_HOP_H
#define DCG_HOP_H

#include "dcg_core.h"

/* Debug registers of x86: the most addresses one plan can arm. */
#define DCG_HOP_MAX		4

/* Decoded insns one plan may look at, over all paths. */
#define DCG_HOP_MAX_INSNS	512

/* dcg_hop_plan.kind */
#define DCG_HOP_STEP	0	/* single-step the insn at ip */
#define DCG_HOP_NEXT	1	/* one address: the next transfer on the
				 * straight line from ip */
#define DCG_HOP_SET	2	/* the interesting insns on every path
				 * through the function's own jumps */

/* dcg_hop_plan() flags */
#define DCG_HOP_STRAIGHT	0x1	/* only DCG_HOP_NEXT: never explore jumps,
					 * so that every count stays exact */

struct dcg_hop_plan {
	dcg_u8  kind;		/* DCG_HOP_* */
	dcg_u8  n;		/* addresses in addr[], 0 for STEP */
	dcg_u16 pad;
	dcg_u32 walked;		/* insns decoded to make the plan */
	dcg_u64 addr[DCG_HOP_MAX];
};

/*
 * Where to arm at a stop at @ip, with @nregs (0..DCG_HOP_MAX) debug
 * registers free.  An interesting insn is one the engine must see run,
 * stepped: a call, a ret, an indirect jump, a direct jump leaving the
 * function of @ip (or to its entry: a tail call), syscall/int/iret,
 * ud0/1/2 and popf, code that cannot
 * be read or decoded, and any address the walk reaches outside the
 * function.  The plan is the set of interesting insns reachable from
 * @ip through direct jumps inside the function when it fits in
 * @nregs (DCG_HOP_SET, needs ops->func_bounds to know @ip's
 * function); else the first branch of any kind on the straight line
 * (DCG_HOP_NEXT); else, when that is the insn at @ip itself, DCG_HOP_STEP.
 * @flags: DCG_HOP_STRAIGHT.
 * Never reads more than DCG_HOP_MAX_INSNS insns.  Returns plan->kind.
 */
DCG_API int dcg_hop_plan(dcg_u64 ip, unsigned int nregs, unsigned int flags,
			 const struct dcg_host_ops *ops,
			 struct dcg_hop_plan *plan);

/*
 * Instructions run from a stop at @from to @to, natively, under a hop
 * plan made at @from: when @to is on the straight line from @from, the
 * exact count; else (the path went through a jump) the straight-line
 * insns up to and including the first branch, a lower bound.  *exact
 * says which.  Bounded by DCG_WALK_MAX_INSNS.
 */
DCG_API dcg_u32 dcg_hop_count(dcg_u64 from, dcg_u64 to,
			      const struct dcg_host_ops *ops, int *exact);

/*
 * The thread ran natively from its previous stop to @ip (rsp @sp)
 * under a hop plan: no insn there needs the engine (only straight-line
 * code and jumps inside the function).  The insns are counted
 * (dcg_hop_count) and @ip becomes the previous stop; the host then
 * steps the insn at @ip and calls dcg_thread_stop() as in step mode.
 * The engine must be in DCG_MODE_STEP.  Returns *exact of the count.
 */
DCG_API int dcg_thread_hop(struct dcg_thread *t, dcg_u64 ip, dcg_u64 sp,
			   const struct dcg_host_ops *ops);

/* dcg_near_branch(): where the branch takes the thread. */
struct dcg_near_branch {
	dcg_u64 ip, sp;		/* rip and rsp after it */
	dcg_u64 push;		/* a call's return address, to store at sp */
	dcg_u8  pushed;		/* 1: a call, the host stores push at sp */
};

/*
 * The near call, jmp or ret at @ip (@avail code bytes in @buf), done
 * by the host instead of stepped (runtime/near_branch.c): with rsp @sp
 * and the general registers @gpr (ModRM order: rax, rcx, rdx, rbx, rsp,
 * rbp, rsi, rdi, r8..r15), reading a return address or a branch's
 * memory operand through @read.  Returns 1 with *out filled; the host
 * stores out->push first when out->pushed, and steps the insn after
 * all if that fails.  Returns 0 for anything to step: not a near call,
 * jmp or ret; an operand-size, address-size or segment prefix; memory
 * that cannot be read; a target outside user space.
 */
DCG_API int dcg_near_branch(const dcg_u8 *buf, unsigned int avail,
			    dcg_u64 ip, dcg_u64 sp, const dcg_u64 *gpr,
			    dcg_read_fn read, void *ctx,
			    struct dcg_near_branch *out);

#endif /* DCG_HOP_H */
