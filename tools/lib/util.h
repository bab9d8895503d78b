/* SPDX-License-Identifier: GPL-2.0 */
/*
 * util.h - the user-space tools' utility layer: the program's name in
 * its messages, allocation that ends the program, number parsing and
 * the escaping of text for the output formats.
 *
 * Who may exit: the x*() allocators and dcg_die() end the program, so
 * only a program's own code calls them (dcg-report, dcg-trace), never
 * a library function of tools/lib, which returns its errors instead.
 */
#ifndef DCG_UTIL_H
#define DCG_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "dcg_event.h"

/* Set once by main(), first thing; every message starts with it. */
extern const char *dcg_progname;

/* "PROG: what\n" on stderr. */
void dcg_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void dcg_vwarn(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0)));
/* The same, then exit(@code). */
void dcg_die(int code, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 2, 3)));

/* "PROG: out of memory" and exit(1) when there is none. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/*
 * An unsigned number that is all of @s: digits first (no sign, no
 * space), in @base (0: 0x hex, 0 octal, else decimal), in range.
 * False when it is not one.
 */
bool dcg_parse_u64(const char *s, int base, dcg_u64 *out);

/* A 64-bit mix for hash tables (murmur3's finalizer). */
static inline dcg_u64 dcg_hash64(dcg_u64 a)
{
	a ^= a >> 33;
	a *= 0xff51afd7ed558ccdull;
	a ^= a >> 33;
	a *= 0xc4ceb9fe1a85ec53ull;
	a ^= a >> 33;
	return a;
}

/* @s as output formats quote it, written to @f. */
void dcg_put_json(FILE *f, const char *s);	/* "..." with \" \\ \u00XX */
void dcg_put_csv(FILE *f, const char *s);	/* RFC 4180, quoted if needed */
void dcg_put_dot(FILE *f, const char *s);	/* Graphviz "..." */
void dcg_put_xml(FILE *f, const char *s, size_t max);	/* text or
					 * attribute; controls dropped */

#endif /* DCG_UTIL_H */
