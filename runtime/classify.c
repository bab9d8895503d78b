// SPDX-License-Identifier: GPL-2.0
/*
 * classify.c - which control transfer took a traced thread from one
 * stop to the next.  Freestanding: see dcg_compat.h.
 *
 * The classifier only looks at code.  It does not know the shadow stack
 * or the stack pointer; the engine (thread.c) checks its answer against
 * rsp and the stack contents, and decides tail calls.  The rules are
 * written down in doc/classifier.md.
 */
#include "dcg_core.h"

/* Bytes fetched per read: one insn in step mode, a run in block mode. */
#define STEP_FETCH	DCG_INSN_MAX_LEN
#define BLOCK_FETCH	64

/*
 * A window of target code.  The block walk moves forward through it and
 * refills it, so that most insns cost no callback.
 */
struct code_buf {
	const struct dcg_host_ops *ops;
	unsigned int fetch;	/* bytes to ask for per read */
	unsigned int avail;	/* valid bytes in buf[] */
	int short_read;		/* the bytes after buf[avail] are unreadable */
	dcg_u64 base;		/* address of buf[0] */
	dcg_u8 buf[BLOCK_FETCH];
};

static void code_buf_init(struct code_buf *cb, const struct dcg_host_ops *ops,
			  unsigned int fetch)
{
	cb->ops = ops;
	cb->fetch = fetch;
	cb->avail = 0;
	cb->short_read = 0;
	cb->base = 0;
}

static int code_buf_holds(const struct code_buf *cb, dcg_u64 addr)
{
	dcg_u64 off = addr - cb->base;

	if (addr < cb->base || off >= cb->avail)
		return 0;
	/* Enough for any insn, or everything there is to read. */
	return cb->avail - off >= DCG_INSN_MAX_LEN || cb->short_read;
}

static void code_buf_fill(struct code_buf *cb, dcg_u64 addr)
{
	int n = 0;

	if (cb->ops && cb->ops->read)
		n = cb->ops->read(cb->ops->ctx, addr, cb->buf, cb->fetch);
	if (n < 0)
		n = 0;
	if ((unsigned int)n > cb->fetch)
		n = cb->fetch;
	cb->base = addr;
	cb->avail = n;
	cb->short_read = (unsigned int)n < cb->fetch;
}

/* Decode the insn at @addr; 0 or a DCG_CLASSIFY_E* error. */
static int decode_at(struct code_buf *cb, dcg_u64 addr, struct dcg_insn *insn)
{
	unsigned int off;
	int r;

	if (!code_buf_holds(cb, addr))
		code_buf_fill(cb, addr);
	off = addr - cb->base;
	if (off >= cb->avail)
		return DCG_CLASSIFY_EREAD;
	r = dcg_insn_decode(cb->buf + off, cb->avail - off, addr, insn);
	if (r == DCG_INSN_ESHORT)
		return DCG_CLASSIFY_EREAD;	/* runs into unreadable bytes */
	if (r <= 0)
		return DCG_CLASSIFY_EDECODE;
	return 0;
}

/* What one insn says about a stop at @ip. */
enum verdict {
	FALLS,		/* control went on to the next insn */
	EXPLAINS,	/* this insn can have put the thread at @ip */
	MISSES,		/* this insn always goes elsewhere: @ip is unreachable */
};

static void set_result(struct dcg_transfer *out, unsigned int kind,
		       unsigned int flags, dcg_u64 at,
		       const struct dcg_insn *insn)
{
	out->kind = kind;
	out->branch = insn->branch;
	out->flags = flags;
	out->from = at;
	out->insn = *insn;
}

/*
 * Judge the insn at @at against a stop at @ip.  On EXPLAINS, @out holds
 * the transfer: kind CALL or RET, or 0 for a jump (the engine decides
 * about tail calls), a system transfer (branch SYS/IRET: syscall return,
 * sigreturn), or an insn that did not leave the straight line (rep
 * iteration, call to the next insn).
 */
static enum verdict judge(const struct dcg_insn *in, dcg_u64 at, dcg_u64 ip,
			  struct dcg_transfer *out)
{
	dcg_u64 fall = at + in->len;
	int hit_target = (in->flags & DCG_INSN_HAS_TARGET) && in->target == ip;

	switch (in->branch) {
	case DCG_BR_CALL:
		if (!hit_target)
			return MISSES;
		/* call to the next insn is the get-pc idiom, not a call */
		set_result(out, ip == fall ? 0 : DCG_EV_CALL, 0, at, in);
		return EXPLAINS;
	case DCG_BR_CALL_IND:
	case DCG_BR_CALL_FAR:
		set_result(out, ip == fall ? 0 : DCG_EV_CALL,
			   DCG_EVF_INDIRECT, at, in);
		return EXPLAINS;
	case DCG_BR_RET:
	case DCG_BR_RET_IMM:
	case DCG_BR_RET_FAR:
		set_result(out, DCG_EV_RET, 0, at, in);
		return EXPLAINS;
	case DCG_BR_IRET:
		set_result(out, 0, 0, at, in);
		return EXPLAINS;
	case DCG_BR_JMP:
		if (!hit_target)
			return MISSES;
		set_result(out, 0, 0, at, in);
		return EXPLAINS;
	case DCG_BR_JMP_IND:
	case DCG_BR_JMP_FAR:
		set_result(out, 0, DCG_EVF_INDIRECT, at, in);
		return EXPLAINS;
	case DCG_BR_JCC:
	case DCG_BR_LOOP:
		if (!hit_target)
			return FALLS;	/* not taken */
		set_result(out, 0, 0, at, in);
		return EXPLAINS;
	case DCG_BR_SYS:
		/*
		 * Linux reports a stop after every syscall when stepping,
		 * in block mode too, so a syscall always ends a block.
		 */
		set_result(out, 0, 0, at, in);
		return EXPLAINS;
	default:
		/* A rep string insn traps per iteration; ip stays put. */
		if ((in->flags & DCG_INSN_REP) && ip == at) {
			set_result(out, 0, 0, at, in);
			return EXPLAINS;
		}
		return FALLS;
	}
}

static void set_async(struct dcg_transfer *out, dcg_u64 prev_ip,
		      const struct dcg_insn *insn)
{
	set_result(out, DCG_EV_ASYNC, 0, prev_ip, insn);
}

/* Step mode: the insn at @prev_ip is the one that ran. */
static int classify_step(dcg_u64 prev_ip, dcg_u64 ip,
			 const struct dcg_host_ops *ops,
			 struct dcg_transfer *out)
{
	struct code_buf cb;
	struct dcg_insn insn;
	int r;

	code_buf_init(&cb, ops, STEP_FETCH);
	r = decode_at(&cb, prev_ip, &insn);
	if (r < 0)
		return r;
	switch (judge(&insn, prev_ip, ip, out)) {
	case EXPLAINS:
		break;
	case FALLS:
		if (ip == prev_ip + insn.len)
			set_result(out, 0, 0, prev_ip, &insn);
		else
			set_async(out, prev_ip, &insn);
		break;
	case MISSES:
		set_async(out, prev_ip, &insn);
		break;
	}
	/*
	 * One stop, one insn; but a stop where the insn at @prev_ip could
	 * not have sent the thread is the kernel's doing (a signal frame),
	 * with no insn run.
	 */
	out->ninsns = out->kind == DCG_EV_ASYNC ? 0 : 1;
	return 0;
}

/* A direct jump back to @ip: a loop of one block going round. */
static int loops_back(const struct dcg_insn *insn, dcg_u64 ip)
{
	return (insn->branch == DCG_BR_JMP || insn->branch == DCG_BR_JCC ||
		insn->branch == DCG_BR_LOOP) &&
	       (insn->flags & DCG_INSN_HAS_TARGET) && insn->target == ip;
}

/* The stop came from an interrupt after @n straight-line insns. */
static int interrupted(struct dcg_transfer *out, dcg_u64 prev_ip,
		       unsigned int n)
{
	out->kind = 0;
	out->branch = DCG_BR_OTHER;
	out->flags = 0;
	out->from = prev_ip;
	out->insn.len = 0;
	out->insn.branch = DCG_BR_OTHER;
	out->insn.flags = 0;
	out->ninsns = n;
	return 0;
}

/*
 * Block mode: the stop came after the first taken branch from @prev_ip,
 * or after an interrupt or exception somewhere on the straight line.
 * When the straight line passes @ip and then jumps back to it, the loop
 * went round once more: that, not an interrupt, is what a host that
 * stops only after branches sees (the count differs by the loop body).
 */
static int classify_block(dcg_u64 prev_ip, dcg_u64 ip,
			  const struct dcg_host_ops *ops,
			  struct dcg_transfer *out)
{
	struct code_buf cb;
	struct dcg_insn insn;
	dcg_u64 at = prev_ip;
	unsigned int n, passed = 0;
	int r;

	code_buf_init(&cb, ops, BLOCK_FETCH);
	for (n = 0; n < DCG_WALK_MAX_INSNS; n++) {
		/* the straight-line insns before @at have run */
		out->ninsns = n;
		if (n > 0 && at == ip && !passed)
			passed = n;	/* an interrupt here, or a loop */
		if (at - prev_ip >= DCG_WALK_MAX_BYTES)
			break;
		r = decode_at(&cb, at, &insn);
		if (r < 0)
			return passed ? interrupted(out, prev_ip, passed) : r;
		switch (judge(&insn, at, ip, out)) {
		case EXPLAINS:
			if (passed && !loops_back(&insn, ip))
				return interrupted(out, prev_ip, passed);
			out->ninsns = n + 1;	/* and the branch */
			return 0;
		case MISSES:
			if (passed)
				return interrupted(out, prev_ip, passed);
			/*
			 * The kernel put the thread there: how far it got
			 * on the straight line first is unknown, and after
			 * a syscall (a signal delivered on its way out,
			 * the usual case) it is nowhere.  Count none.
			 */
			set_async(out, prev_ip, &insn);
			out->ninsns = 0;
			return 0;
		case FALLS:
			at += insn.len;
			break;
		}
	}
	if (passed)
		return interrupted(out, prev_ip, passed);
	return DCG_CLASSIFY_ELIMIT;
}

DCG_API int dcg_classify(unsigned int mode, dcg_u64 prev_ip, dcg_u64 ip,
			 const struct dcg_host_ops *ops,
			 struct dcg_transfer *out)
{
	int r;

	out->kind = 0;
	out->branch = DCG_BR_OTHER;
	out->flags = 0;
	out->pad = 0;
	out->ninsns = 0;
	out->pad2 = 0;
	out->from = prev_ip;
	out->to = ip;
	out->insn.len = 0;
	out->insn.branch = DCG_BR_OTHER;
	out->insn.flags = 0;
	out->insn.modrm_reg = 0xff;
	out->insn.ret_imm = 0;
	out->insn.pad = 0;
	out->insn.target = 0;

	if (mode == DCG_MODE_STEP)
		r = classify_step(prev_ip, ip, ops, out);
	else
		r = classify_block(prev_ip, ip, ops, out);
	if (r < 0) {
		out->kind = 0;
		out->from = prev_ip;
		out->insn.len = 0;
	}
	return r;
}
