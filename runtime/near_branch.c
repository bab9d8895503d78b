// SPDX-License-Identifier: GPL-2.0
/*
 * near_branch.c - where a near call, jmp or ret takes the thread, so
 * that a host can do the transfer itself instead of stepping it.
 * Freestanding: see dcg_compat.h.
 *
 * In hop mode a thread reaches a call, jmp or ret natively and traps on
 * the debug register armed there.  Stepping the insn costs a second
 * trap; doing it in the trap costs none: the new rip and rsp come from
 * the insn, the registers and at most one read of memory, and a call
 * stores its return address.  Only the plain 64-bit near forms are
 * done here; anything that needs more of the CPU than that (an
 * operand-size, address-size or segment prefix, far and conditional
 * branches, a target that would fault) is left to a step, so that the
 * CPU itself raises whatever the program would see.
 */
#include "dcg_hop.h"

/* Prefixes a plain near branch may have: bnd, rep (rep ret), hints. */
static int nb_plain_prefix(dcg_u8 b)
{
	return b == 0xf2 || b == 0xf3 || b == 0x2e || b == 0x3e;
}

/* The little-endian nb_disp32 at @d. */
static dcg_s32 nb_disp32(const dcg_u8 *d)
{
	return (dcg_s32)((dcg_u32)d[0] | (dcg_u32)d[1] << 8 |
			 (dcg_u32)d[2] << 16 | (dcg_u32)d[3] << 24);
}

/*
 * The address of the ModRM memory operand at @m (ModRM, SIB, disp),
 * @end the insn's end (rip-relative is from there); 0 when the form is
 * not one this file does.
 */
static int nb_modrm_address(const dcg_u8 *m, const dcg_u8 *end, dcg_u8 rex,
			 dcg_u64 next_ip, const dcg_u64 *gpr, dcg_u64 *addr)
{
	unsigned int mod = m[0] >> 6, rm = m[0] & 7, base, index;
	const dcg_u8 *d = m + 1;
	dcg_u64 a = 0;
	int no_base = 0;

	if (mod == 0 && rm == 5) {		/* rip-relative */
		if (end - d != 4)
			return 0;
		*addr = next_ip + (dcg_s64)nb_disp32(d);
		return 1;
	}
	if (rm == 4) {				/* SIB */
		if (d >= end)
			return 0;
		base = (*d & 7) | ((rex & 1) << 3);
		index = ((*d >> 3) & 7) | ((rex & 2) << 2);
		if (index != 4)
			a += gpr[index] << (*d >> 6);
		no_base = mod == 0 && (base & 7) == 5;
		d++;
	} else {
		base = rm | ((rex & 1) << 3);
	}
	if (!no_base)
		a += gpr[base];
	if (mod == 1 && end - d == 1) {
		a += (dcg_s64)(dcg_s8)*d;
	} else if ((mod == 2 || no_base) && end - d == 4) {
		a += (dcg_s64)nb_disp32(d);
	} else if (!(mod == 0 && end == d)) {
		return 0;
	}
	*addr = a;
	return 1;
}

/* A user-space address a branch may go to without faulting on it. */
static int nb_user_target(dcg_u64 to)
{
	return (to >> 47) == 0;
}

/* 8 bytes at @addr through @read, or 0. */
static int nb_read_u64(dcg_read_fn read, void *ctx, dcg_u64 addr, dcg_u64 *v)
{
	return read && read(ctx, addr, v, sizeof(*v)) == (int)sizeof(*v);
}

DCG_API int dcg_near_branch(const dcg_u8 *buf, unsigned int avail,
			    dcg_u64 ip, dcg_u64 sp, const dcg_u64 *gpr,
			    dcg_read_fn read, void *ctx,
			    struct dcg_near_branch *out)
{
	struct dcg_insn in;
	const dcg_u8 *op = buf, *end;
	dcg_u8 rex = 0;
	dcg_u64 to = 0, at;
	int len = dcg_insn_decode(buf, avail, ip, &in);

	if (len <= 0)
		return 0;
	end = buf + len;
	while (op < end && nb_plain_prefix(*op))
		op++;
	if (op < end && (*op & 0xf0) == 0x40)
		rex = *op++;
	if (op >= end)
		return 0;
	out->push = 0;
	out->pushed = 0;
	out->sp = sp;
	switch (*op) {
	case 0xe8:				/* call rel32 */
		out->push = ip + len;
		out->pushed = 1;
		out->sp = sp - 8;
		dcg_fallthrough;
	case 0xe9:				/* jmp rel32 */
	case 0xeb:				/* jmp rel8 */
		if (!(in.flags & DCG_INSN_HAS_TARGET))
			return 0;
		to = in.target;
		break;
	case 0xc3:				/* ret */
	case 0xc2:				/* ret imm16 */
		if (!nb_read_u64(read, ctx, sp, &to))
			return 0;
		out->sp = sp + 8 + (*op == 0xc2 ? in.ret_imm : 0);
		break;
	case 0xff:				/* call / jmp r/m64 */
		if (op + 1 >= end || (in.modrm_reg != 2 && in.modrm_reg != 4))
			return 0;
		if ((op[1] >> 6) == 3) {
			to = gpr[(op[1] & 7) | ((rex & 1) << 3)];
		} else if (!nb_modrm_address(op + 1, end, rex, ip + len, gpr,
					  &at) ||
			   !nb_read_u64(read, ctx, at, &to)) {
			return 0;
		}
		if (in.modrm_reg == 2) {
			out->push = ip + len;
			out->pushed = 1;
			out->sp = sp - 8;
		}
		break;
	default:
		return 0;
	}
	if (!nb_user_target(to))
		return 0;	/* it faults there: the step shows where */
	out->ip = to;
	return 1;
}
