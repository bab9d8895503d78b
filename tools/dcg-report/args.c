// SPDX-License-Identifier: GPL-2.0
/*
 * args.c - arguments and return values as the source would show them
 * (issue #17).  A call's register block holds rdi rsi rdx rcx r8 r9 as
 * the callee found them; the callee's DWARF (dcg_sym_functype) says
 * which parameter each register holds and its type:
 *   signed and unsigned integers of each width (the register truncated
 *   to the type's size), char as 'c', bool, enum by its enumerator's
 *   name (else the number), pointers in hex (NULL for 0), char * as a
 *   quoted C-escaped string when the trace carries its bytes ("..."
 *   after it when cut short, <unreadable> where the memory could not
 *   be read), structs and unions by value as {...}, floating point as
 *   <fp> (they travel in xmm registers, which are not recorded).
 * Without DWARF (or with --raw): arg1=0x.. in register order, and a
 * string after the value if the trace carries one.  A return shows rax
 * typed by the function's return type (none for void); without DWARF
 * rax in hex.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <stdarg.h>

#include "report.h"

/* A growable string (open_memstream per value cost more than the rest). */
struct sbuf {
	char *p;
	size_t len, cap;
};

static void sb_grow(struct sbuf *b, size_t more)
{
	if (b->p && b->len + more + 1 <= b->cap)
		return;
	while (b->len + more + 1 > b->cap)
		b->cap = b->cap ? 2 * b->cap : 64;
	b->p = xrealloc(b->p, b->cap);
}

static void sb_putc(struct sbuf *b, char c)
{
	sb_grow(b, 1);
	b->p[b->len++] = c;
	b->p[b->len] = '\0';
}

static void sb_puts(struct sbuf *b, const char *s)
{
	size_t n = strlen(s);

	sb_grow(b, n);
	memcpy(b->p + b->len, s, n + 1);
	b->len += n;
}

static void sb_printf(struct sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* numbers, and names up to a line */
static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	char tmp[1100];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n > 0)
		sb_puts(b, tmp);
}

/* 0x and the hex digits of @v: vsnprintf was most of the time. */
static void sb_hex(struct sbuf *b, unsigned long long v)
{
	char tmp[20], *e = tmp + sizeof(tmp), *p = e;

	do {
		*--p = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	*--p = 'x';
	*--p = '0';
	sb_grow(b, e - p);
	memcpy(b->p + b->len, p, e - p);
	b->len += e - p;
	b->p[b->len] = '\0';
}

static void sb_dec(struct sbuf *b, long long v, bool sgn)
{
	unsigned long long u = sgn && v < 0 ? 0 - (unsigned long long)v :
			       (unsigned long long)v;
	char tmp[24], *e = tmp + sizeof(tmp), *p = e;

	do {
		*--p = '0' + u % 10;
		u /= 10;
	} while (u);
	if (sgn && v < 0)
		*--p = '-';
	sb_grow(b, e - p);
	memcpy(b->p + b->len, p, e - p);
	b->len += e - p;
	b->p[b->len] = '\0';
}

/* The text (never NULL), the caller's to free; @b is empty again. */
static char *sb_take(struct sbuf *b)
{
	char *p;

	sb_grow(b, 0);
	p = b->p;
	b->p = NULL;
	b->len = b->cap = 0;
	return p;
}

bool show_args(const struct report *rp)
{
	return rp->o->args != 0 && dcg_reader_has_args(&rp->rd);
}

bool show_retval(const struct report *rp)
{
	return rp->o->retval != 0 && dcg_reader_has_args(&rp->rd);
}

static const struct dcg_functype *functype(struct report *rp, dcg_u64 addr)
{
	if (!rp->sym || addr <= LAZY_BINDING_ADDR)
		return NULL;
	return dcg_sym_functype(rp->sym, addr);
}

/* The register truncated to @size bytes, sign-extended if @sgn. */
static long long reg_value(dcg_u64 v, unsigned int size, bool sgn)
{
	unsigned int bits = size && size < 8 ? 8 * size : 64;

	if (bits < 64) {
		v &= (1ull << bits) - 1;
		if (sgn && (v >> (bits - 1)))
			v |= ~0ull << bits;
	}
	return (long long)v;
}

/* C-escaped, quoted; at most @max bytes of the string shown. */
static void put_quoted(struct sbuf *f, const char *s, unsigned int len)
{
	unsigned int i;

	sb_putc(f, '"');
	for (i = 0; i < len; i++) {
		unsigned char c = s[i];

		switch (c) {
		case '"':	sb_puts(f, "\\\""); break;
		case '\\':	sb_puts(f, "\\\\"); break;
		case '\n':	sb_puts(f, "\\n"); break;
		case '\t':	sb_puts(f, "\\t"); break;
		case '\r':	sb_puts(f, "\\r"); break;
		case '\0':	sb_puts(f, "\\0"); break;
		default:
			if (c < 0x20 || c >= 0x7f)
				sb_printf(f, "\\x%02x", c);
			else
				sb_putc(f, c);
		}
	}
	sb_putc(f, '"');
}

static void put_string(struct sbuf *f, dcg_u64 addr, const struct dcg_ev_strv *s)
{
	if ((s->flags & DCG_STR_FAULT) && !s->len) {
		sb_printf(f, "0x%llx <unreadable>", (unsigned long long)addr);
		return;
	}
	put_quoted(f, s->bytes, s->len);
	if (s->flags & DCG_STR_TRUNC)
		sb_puts(f, "...");
	if (s->flags & DCG_STR_FAULT)
		sb_puts(f, " <unreadable>");
}

static void put_enum(struct sbuf *f, const struct dcg_vtype *t, long long v)
{
	unsigned int i;

	for (i = 0; i < t->nenum; i++)
		if (t->enums[i].value == v) {
			sb_puts(f, t->enums[i].name);
			return;
		}
	sb_dec(f, v, t->is_signed);
}

static void put_char(struct sbuf *f, const struct dcg_vtype *t, dcg_u64 r)
{
	long long v = reg_value(r, 1, t->is_signed);
	char c = (char)v;

	if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\')
		sb_printf(f, "'%c'", c);
	else
		sb_printf(f, "%lld", v);
}

/* One value of type @t whose first register is regs[@i]. */
static void put_value(struct sbuf *f, const struct dcg_vtype *t,
		      const dcg_u64 *regs, unsigned int nregs, unsigned int i,
		      const struct dcg_ev_strv *s)
{
	dcg_u64 r = regs[i];

	switch (t->kind) {
	case DCG_V_SINT:
	case DCG_V_UINT:
		if (t->nregs == 2) {	/* __int128: rdx:rax, or two regs */
			if (i + 1 < nregs)
				sb_printf(f, "0x%llx%016llx",
					(unsigned long long)regs[i + 1],
					(unsigned long long)r);
			else
				sb_hex(f, r);
			return;
		}
		sb_dec(f, reg_value(r, t->size, t->kind == DCG_V_SINT),
		       t->kind == DCG_V_SINT);
		return;
	case DCG_V_CHAR:
		put_char(f, t, r);
		return;
	case DCG_V_BOOL:
		sb_puts(f, reg_value(r, t->size ? t->size : 1, false) ? "true" :
			"false");
		return;
	case DCG_V_ENUM:
		put_enum(f, t, reg_value(r, t->size, t->is_signed));
		return;
	case DCG_V_STR:
		if (r && s) {
			put_string(f, r, s);
			return;
		}
		dcg_fallthrough;
	case DCG_V_PTR:
		if (!r)
			sb_puts(f, "NULL");
		else
			sb_hex(f, r);
		return;
	case DCG_V_AGG:
		sb_puts(f, "{...}");
		return;
	case DCG_V_FP:
		sb_puts(f, "<fp>");
		return;
	}
	sb_hex(f, r);
}

/*
 * Values go into one buffer, NUL-separated (value_off: where each
 * starts); args_done() points them there.  One allocation a call.
 */
static void arg_add(struct arg_text **a, unsigned int *n, const char *name,
		    struct sbuf *vals, size_t start)
{
	struct arg_text *t;

	*a = xrealloc(*a, (*n + 1) * sizeof(**a));
	t = &(*a)[(*n)++];
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->value = (char *)start;	/* an offset until args_done() */
	sb_putc(vals, '\0');
}

static unsigned int args_done(struct arg_text *a, unsigned int n,
			      struct sbuf *vals)
{
	char *base = sb_take(vals);
	unsigned int i;

	for (i = 0; i < n; i++)
		a[i].value = base + (size_t)a[i].value;
	if (!n)
		free(base);
	return n;
}

/* No DWARF: every register in order, a string after its value. */
static unsigned int args_raw(const struct dcg_ev_argv *a,
			     struct arg_text **out)
{
	struct sbuf vals = { 0 };
	unsigned int i, n = 0;

	for (i = 0; i < a->nregs; i++) {
		const struct dcg_ev_strv *s = dcg_ev_argv_str(a, i);
		size_t start = vals.len;
		char name[16] = "arg";

		name[3] = '1' + i;	/* at most 6 */
		name[4] = '\0';
		sb_hex(&vals, a->regs[i]);
		if (s && (s->len || !(s->flags & DCG_STR_FAULT))) {
			sb_putc(&vals, ' ');
			put_string(&vals, a->regs[i], s);
		} else if (s) {
			sb_puts(&vals, " <unreadable>");
		}
		arg_add(out, &n, name, &vals, start);
	}
	return args_done(*out, n, &vals);
}

unsigned int args_get(struct report *rp, const struct frame *f,
		      struct arg_text **out, bool *more)
{
	const struct dcg_ev_argv *a = f->args ? &f->args->a : NULL;
	const struct dcg_functype *ft;
	struct sbuf vals = { 0 };
	unsigned int i, n = 0;

	*out = NULL;
	*more = false;
	if (!a || f->placeholder)
		return 0;
	ft = functype(rp, f->ev.to);
	if (!ft)
		return args_raw(a, out);
	for (i = 0; i < ft->nparams; i++) {
		const struct dcg_param *p = &ft->params[i];
		size_t start = vals.len;
		char name[24];

		/* a register the trace did not record: stop there */
		if (p->reg >= 0 && (unsigned int)p->reg + p->type.nregs > a->nregs &&
		    !(p->type.nregs == 2 && (unsigned int)p->reg < a->nregs)) {
			*more = true;
			break;
		}
		snprintf(name, sizeof(name), "arg%u", i + 1);
		if (p->reg >= 0)
			put_value(&vals, &p->type, a->regs, a->nregs, p->reg,
				  dcg_ev_argv_str(a, p->reg));
		else if (p->type.kind == DCG_V_AGG)
			sb_puts(&vals, "{...}");	/* in memory */
		else if (p->type.kind == DCG_V_FP)
			sb_puts(&vals, "<fp>");	/* in xmm */
		else
			sb_puts(&vals, "?");		/* on the stack */
		arg_add(out, &n, p->name[0] ? p->name : name, &vals, start);
	}
	if (ft->variadic)
		*more = true;
	return args_done(*out, n, &vals);
}

void args_free(struct arg_text *a, unsigned int n)
{
	if (n)
		free(a[0].value);	/* the block all values are in */
	free(a);
}

char *args_paren(struct report *rp, const struct frame *f)
{
	struct arg_text *a;
	unsigned int n, i;
	bool more;
	struct sbuf sb = { 0 }, *fp = &sb;

	if (!show_args(rp) || !f->args || f->placeholder)
		return xstrdup("");
	n = args_get(rp, f, &a, &more);
	sb_putc(fp, '(');
	for (i = 0; i < n; i++) {
		if (i)
			sb_puts(fp, ", ");
		sb_puts(fp, a[i].name);
		sb_putc(fp, '=');
		sb_puts(fp, a[i].value);
	}
	if (more)
		sb_puts(fp, n ? ", ..." : "...");
	sb_putc(fp, ')');
	args_free(a, n);
	return sb_take(fp);
}

bool retval_text(struct report *rp, const struct frame *f, char *out,
		 size_t outlen)
{
	const struct dcg_functype *ft;
	struct sbuf sb = { 0 }, *fp = &sb;
	char *buf;

	if (!show_retval(rp) || !f->has_ret || f->placeholder)
		return false;
	ft = functype(rp, f->ev.to);
	if (ft && ft->ret.kind == DCG_V_VOID)
		return false;
	if (!ft)
		sb_hex(fp, f->ret[0]);
	else if (ft->ret_memory)
		sb_puts(fp, "{...}");
	else
		put_value(fp, &ft->ret, f->ret, f->nret, 0, NULL);
	buf = sb_take(fp);
	snprintf(out, outlen, "%s", buf);
	free(buf);
	return true;
}

/*
 * The return value compared as the function's return type has it:
 * signed types sign-extended from their width, the others zero-
 * extended; without DWARF, rax as a signed 64-bit number.  Nothing
 * matches a void, floating-point or struct return, nor a call whose
 * return was not recorded.
 */
bool retval_matches(struct report *rp, const struct frame *f)
{
	const struct dcg_functype *ft;
	__int128 v, n = rp->o->ret_val;

	if (!f->has_ret || f->placeholder)
		return false;
	ft = functype(rp, f->ev.to);
	if (!ft) {
		v = (long long)f->ret[0];
	} else {
		const struct dcg_vtype *t = &ft->ret;

		if (ft->ret_memory || t->kind == DCG_V_VOID ||
		    t->kind == DCG_V_FP || t->kind == DCG_V_AGG || t->nregs > 1)
			return false;
		if (t->is_signed)
			v = reg_value(f->ret[0], t->size, true);
		else
			v = (unsigned long long)reg_value(f->ret[0], t->size, false);
	}
	switch (rp->o->ret_op) {
	case RET_LT:	return v < n;
	case RET_LE:	return v <= n;
	case RET_GT:	return v > n;
	case RET_GE:	return v >= n;
	case RET_EQ:	return v == n;
	case RET_NE:	return v != n;
	}
	return false;
}

/* "<0", "<=N", ">N", ">=N", "==N", "!=N"; N decimal (signed) or 0xhex. */
bool retval_parse(struct options *o, const char *pred)
{
	static const struct { const char *op; int code; } ops[] = {
		{ "<=", RET_LE }, { ">=", RET_GE }, { "==", RET_EQ },
		{ "!=", RET_NE }, { "<", RET_LT }, { ">", RET_GT },
	};
	unsigned int i;
	const char *p;
	char *end;
	bool neg;
	unsigned long long x;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strncmp(pred, ops[i].op, strlen(ops[i].op)))
			break;
	if (i == sizeof(ops) / sizeof(ops[0]))
		return false;
	p = pred + strlen(ops[i].op);
	while (*p == ' ')
		p++;
	neg = *p == '-';
	if (neg || *p == '+')
		p++;
	if (!(*p >= '0' && *p <= '9'))
		return false;
	errno = 0;
	x = strtoull(p, &end, p[0] == '0' && (p[1] == 'x' || p[1] == 'X') ? 16 : 10);
	if (errno || *end || end == p)
		return false;
	/* decimal must fit a signed 64-bit; hex gives its 64 bits */
	if (p[1] != 'x' && p[1] != 'X' && x > (neg ? 1ull << 63 : (1ull << 63) - 1))
		return false;
	o->ret_op = ops[i].code;
	o->ret_val = neg ? (long long)(0 - x) : (long long)x;
	o->ret_filter = true;
	return true;
}
