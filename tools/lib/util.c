// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - the user-space tools' utility layer (util.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"

const char *dcg_progname = "dyncg";

/*
 * Standard output is block-buffered when it is a pipe and stderr is not:
 * without the flush, "cmd 2>&1 | ..." would get this line in the middle
 * of a line of output, at the next 4 KiB boundary.
 */
void dcg_vwarn(const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: ", dcg_progname);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void dcg_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	dcg_vwarn(fmt, ap);
	va_end(ap);
}

void dcg_die(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	dcg_vwarn(fmt, ap);
	va_end(ap);
	exit(code);
}

static void *nonnull(void *p)
{
	if (!p)
		dcg_die(1, "out of memory");
	return p;
}

void *xrealloc(void *p, size_t n)
{
	return nonnull(realloc(p, n ? n : 1));
}

void *xmalloc(size_t n)
{
	return xrealloc(NULL, n);
}

void *xcalloc(size_t n, size_t size)
{
	return nonnull(calloc(n ? n : 1, size ? size : 1));
}

char *xstrdup(const char *s)
{
	return strcpy(xmalloc(strlen(s) + 1), s);
}

bool dcg_parse_u64(const char *s, int base, dcg_u64 *out)
{
	unsigned long long v;
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return false;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

void dcg_put_json(FILE *f, const char *s)
{
	putc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			putc(c, f);
	}
	putc('"', f);
}

void dcg_put_csv(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	putc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			putc('"', f);
		putc(*s, f);
	}
	putc('"', f);
}

void dcg_put_dot(FILE *f, const char *s)
{
	putc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putc('\\', f);
		putc(*s, f);
	}
	putc('"', f);
}

void dcg_put_xml(FILE *f, const char *s, size_t max)
{
	size_t i;

	for (i = 0; s[i] && i < max; i++) {
		switch (s[i]) {
		case '<':	fputs("&lt;", f); break;
		case '>':	fputs("&gt;", f); break;
		case '&':	fputs("&amp;", f); break;
		case '"':	fputs("&quot;", f); break;
		default:
			if ((unsigned char)s[i] >= 0x20)
				putc(s[i], f);
		}
	}
}
