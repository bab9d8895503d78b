// SPDX-License-Identifier: GPL-2.0
/*
 * args.c - argument and return registers after an event (format
 * version 3, issue #17).  Freestanding; both hosts call it from their
 * emit callback, in trap context in the kernel: it allocates nothing,
 * takes no locks, and reaches memory only through the host's read
 * callback, whose reads never fault and never sleep.
 */
#include "dcg_core.h"

/* Strings are read in pieces this big, so that a NUL stops early. */
#define STR_CHUNK	64

DCG_API int dcg_ev_regs_kind(const struct dcg_rec_event *ev, dcg_u64 ip)
{
	/*
	 * Only an event that explains this very stop may take its
	 * registers: a CALL rebuilt from the stack on resume ends where
	 * the thread no longer is (its to is a function entry, ip lies
	 * further on), synthetic returns happened before this stop.
	 */
	if (ev->to != ip)
		return DCG_EV_REGS_NONE;
	switch (ev->kind) {
	case DCG_EV_CALL:
	case DCG_EV_TAILCALL:
		return DCG_EV_REGS_ARGS;
	case DCG_EV_RET:
		if (ev->flags & (DCG_EVF_SYNTHETIC | DCG_EVF_END))
			return DCG_EV_REGS_NONE;
		return DCG_EV_REGS_RET;
	default:
		return DCG_EV_REGS_NONE;
	}
}

static void zero(void *p, unsigned int n)
{
	dcg_u8 *b = p;

	while (n--)
		*b++ = 0;
}

static void put_u64(dcg_u8 *p, dcg_u64 v)
{
	int i;

	for (i = 0; i < 8; i++, v >>= 8)
		p[i] = (dcg_u8)v;
}

/*
 * Read the string at @addr into @dst, at most @max bytes and without
 * its NUL.  Sets DCG_STR_TRUNC when it goes on past @max, DCG_STR_FAULT
 * when memory ended before a NUL.  Returns the length.
 */
static unsigned int read_str(dcg_u64 addr, dcg_u8 *dst, unsigned int max,
			     dcg_read_fn read, void *ctx, dcg_u8 *flags)
{
	unsigned int len = 0, want, i;
	dcg_u8 probe;
	int n;

	while (len < max) {
		want = max - len < STR_CHUNK ? max - len : STR_CHUNK;
		n = read(ctx, addr + len, dst + len, want);
		if (n < 0)
			n = 0;
		for (i = 0; i < (unsigned int)n; i++)
			if (!dst[len + i])
				return len + i;
		len += n;
		if ((unsigned int)n < want) {
			*flags |= DCG_STR_FAULT;
			return len;
		}
	}
	/* max bytes and no NUL: is there more, or does it end here? */
	n = read(ctx, addr + len, &probe, 1);
	if (n == 1 && probe)
		*flags |= DCG_STR_TRUNC;
	else if (n != 1)
		*flags |= DCG_STR_FAULT;
	return len;
}

/* Append one string entry at @p (room: @room bytes); returns its size. */
static unsigned int put_str(dcg_u8 *p, unsigned int room, unsigned int argno,
			    dcg_u64 addr, const struct dcg_args_cfg *cfg,
			    dcg_read_fn read, void *ctx)
{
	struct dcg_ev_str *s = (struct dcg_ev_str *)p;
	unsigned int max = cfg->str_len, len, size;
	dcg_u8 flags = 0;

	if (room < sizeof(*s) + 8)
		return 0;
	if (max > ((room - sizeof(*s)) & ~7u))
		max = (room - sizeof(*s)) & ~7u;
	len = read_str(addr, p + sizeof(*s), max, read, ctx, &flags);
	size = sizeof(*s) + ((len + 7) & ~7u);
	zero(p + sizeof(*s) + len, size - sizeof(*s) - len);
	s->argno = argno;
	s->flags = flags;
	s->len = len;
	s->pad = 0;
	return size;
}

DCG_API unsigned int dcg_ev_regs_append(struct dcg_rec_event *ev,
					unsigned int cap,
					const struct dcg_args_cfg *cfg,
					const struct dcg_regs *regs,
					dcg_read_fn read, void *ctx)
{
	dcg_u8 *base = (dcg_u8 *)ev;
	struct dcg_ev_args *a;
	const dcg_u64 *vals;
	unsigned int n, i, off, size;
	int kind = dcg_ev_regs_kind(ev, regs->ip);

	ev->r.size = sizeof(*ev);
	if (cap > DCG_REC_MAX_SIZE)
		cap = DCG_REC_MAX_SIZE;
	cap &= ~7u;
	if (kind == DCG_EV_REGS_ARGS) {
		n = cfg->nargs < DCG_ARGS_MAX ? cfg->nargs : DCG_ARGS_MAX;
		vals = regs->arg;
	} else if (kind == DCG_EV_REGS_RET) {
		n = cfg->nrets < DCG_RETS_MAX ? cfg->nrets : DCG_RETS_MAX;
		vals = regs->ret;
	} else {
		return ev->r.size;
	}
	off = sizeof(*ev);
	if (!n || cap < off + sizeof(*a) + 8 * n)
		return ev->r.size;
	a = (struct dcg_ev_args *)(base + off);
	zero(a, sizeof(*a));
	a->nregs = n;
	off += sizeof(*a);
	for (i = 0; i < n; i++, off += 8)
		put_u64(base + off, vals[i]);
	if (kind == DCG_EV_REGS_ARGS && cfg->str_len && read) {
		for (i = 0; i < n; i++) {
			if (!(cfg->str_mask & (1u << i)) ||
			    vals[i] < cfg->str_min || vals[i] >= cfg->str_max)
				continue;
			size = put_str(base + off, cap - off, i, vals[i], cfg,
				       read, ctx);
			if (!size)
				break;
			off += size;
			a->nstr++;
		}
	}
	ev->r.size = off;
	return off;
}
