// SPDX-License-Identifier: GPL-2.0
/*
 * root_frame.c - where a user window's root frame is: the probed
 * function's entry, its return slot and return address, found at the
 * probe or, for a probe after the prologue, through the frame pointer
 * or the first stack word that returns just after a call of it.
 */

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
