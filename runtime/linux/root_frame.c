// SPDX-License-Identifier: GPL-2.0
/*
 * root_frame.c - where a user window's root frame is: the probed
 * function's entry, its return slot and return address, found at the
 * probe or, for a probe after the prologue, through the frame pointer
 * or the first stack word that returns just after a call of it.
 */

/*
 * At a function's entry [sp] holds the return address, so a near call
 * ends just before it.  A probe after the prologue (stap may put
 * .function probes there) fails this and the window opens "here"
 * instead of at a root.
 */
static int dcg_looks_like_return(struct dcg_slot *s, u64 ret)
{
	u8 b[DCG_CALL_BEFORE_LEN];
	struct dcg_insn insn;

	if (ret < sizeof(b) ||
	    dcg_read_user(s, ret - sizeof(b), b, sizeof(b)) != sizeof(b))
		return 0;
	return dcg_insn_call_ending(b, ret, &insn) != 0;
}

/* The call that ends just before @ret is an e8 rel32 of @func. */
static int dcg_called_directly(struct dcg_slot *s, u64 ret, u64 func)
{
	u8 b[DCG_CALL_BEFORE_LEN];
	struct dcg_insn insn;

	if (ret < sizeof(b) ||
	    dcg_read_user(s, ret - sizeof(b), b, sizeof(b)) != sizeof(b))
		return 0;
	return dcg_insn_call_ending(b, ret, &insn) &&
	       insn.branch == DCG_BR_CALL && insn.target == func;
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
