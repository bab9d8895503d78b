/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcg_insn.h - x86-64 instruction length and branch-class decoder.
 *
 * The decoder answers three questions about one instruction: how long
 * it is, what kind of control transfer it is, and where a direct
 * branch goes.  It never reads outside [buf, buf + avail).  It decodes
 * 64-bit mode only.
 */
#ifndef DCG_INSN_H
#define DCG_INSN_H

#include "dcg_compat.h"

/* Longest legal x86 instruction. */
#define DCG_INSN_MAX_LEN 15

enum dcg_branch {
	DCG_BR_OTHER = 0,	/* not a control transfer */
	DCG_BR_CALL,		/* call rel32 */
	DCG_BR_CALL_IND,	/* call r/m64 (FF /2) */
	DCG_BR_CALL_FAR,	/* call m16:64 (FF /3); 9A is invalid in 64-bit */
	DCG_BR_RET,		/* ret (C3) */
	DCG_BR_RET_IMM,		/* ret imm16 (C2) */
	DCG_BR_RET_FAR,		/* lret, lret imm16 (CB, CA) */
	DCG_BR_IRET,		/* iret/iretq (CF) */
	DCG_BR_JMP,		/* jmp rel8/rel32 (EB, E9) */
	DCG_BR_JMP_IND,		/* jmp r/m64 (FF /4) */
	DCG_BR_JMP_FAR,		/* ljmp m16:64 (FF /5) */
	DCG_BR_JCC,		/* jcc rel8/rel32 (7x, 0F 8x) */
	DCG_BR_LOOP,		/* loop/loope/loopne/jrcxz (E0-E3) */
	DCG_BR_SYS,		/* syscall, sysenter, sysexit, sysret, int n,
				 * int3, int1, into (invalid in 64-bit) */
	DCG_BR_NR
};

/* dcg_insn.flags */
#define DCG_INSN_HAS_TARGET	0x01	/* target is valid (direct branch) */
#define DCG_INSN_REP		0x02	/* F3/F2 string insn: TF traps per iteration */
#define DCG_INSN_BND		0x04	/* F2 (bnd) prefix on a branch */
#define DCG_INSN_NOTRACK	0x08	/* 3E (notrack) prefix on an indirect branch */
#define DCG_INSN_RSP_WRITE	0x10	/* pop/push/leave/mov/add/sub/lea that writes rsp
					 * (best effort; for the classifier's sp checks) */

struct dcg_insn {
	dcg_u8  len;		/* 1..15 */
	dcg_u8  branch;		/* enum dcg_branch */
	dcg_u8  flags;		/* DCG_INSN_* */
	dcg_u8  modrm_reg;	/* ModRM.reg when present, else 0xff */
	dcg_u16 ret_imm;	/* imm16 of ret/lret imm16 */
	dcg_u16 pad;
	dcg_u64 target;		/* direct branch target, if HAS_TARGET */
};

/* Return values of dcg_insn_decode() below zero. */
#define DCG_INSN_EINVAL	(-1)	/* bytes are not a valid instruction */
#define DCG_INSN_ESHORT	(-2)	/* avail too small to finish decoding */

/*
 * Decode the instruction at @buf (which was read from address @ip) into
 * @out.  Returns its length (1..15), DCG_INSN_ESHORT when the buffer
 * ends before the instruction does (and avail < 15), or DCG_INSN_EINVAL.
 * After DCG_INSN_EINVAL, out->len (1..avail) is how many bytes a linear
 * sweep should skip: the prefixes and opcode bytes, as objdump does
 * after "(bad)".
 */
DCG_API int dcg_insn_decode(const dcg_u8 *buf, unsigned int avail, dcg_u64 ip,
			    struct dcg_insn *out);

/*
 * Is @ret a return address, that is, does a near call (e8, or ff /2)
 * end right before it?  @b holds the DCG_CALL_BEFORE_LEN bytes that end
 * at @ret.  Returns the call's length, with *out its decoding (the
 * direct target for e8), or 0.  One answer for every host: the root
 * frame of a user window, a skip's end, the classifier's rebuilt calls.
 */
#define DCG_CALL_BEFORE_LEN	8
DCG_API unsigned int dcg_insn_call_ending(const dcg_u8 b[DCG_CALL_BEFORE_LEN],
					  dcg_u64 ret, struct dcg_insn *out);

/* Short stable name of a branch class ("call", "jmp*", ...). */
DCG_API const char *dcg_branch_name(unsigned int branch);

static inline int dcg_branch_is_call(unsigned int b)
{
	return b == DCG_BR_CALL || b == DCG_BR_CALL_IND || b == DCG_BR_CALL_FAR;
}

static inline int dcg_branch_is_ret(unsigned int b)
{
	return b == DCG_BR_RET || b == DCG_BR_RET_IMM || b == DCG_BR_RET_FAR;
}

static inline int dcg_branch_is_jmp(unsigned int b)
{
	return b == DCG_BR_JMP || b == DCG_BR_JMP_IND || b == DCG_BR_JMP_FAR;
}

#endif /* DCG_INSN_H */
