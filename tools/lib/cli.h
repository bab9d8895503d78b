/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h - command-line helpers the three tools share (dcg-trace,
 * dcg-report, dcg-insns), header-only: dcg-insns links no tools/lib.
 */
#ifndef DCG_CLI_H
#define DCG_CLI_H

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The option getopt refused, as the user wrote it. */
static inline const char *bad_option(char **argv)
{
	static char shortopt[3] = "-?";
	const char *arg = argv[optind - 1];

	if (!optopt || !strncmp(arg, "--", 2))
		return arg;
	shortopt[1] = optopt;
	return shortopt;
}

/* "PROG: what (see PROG --help)", the line of every usage error. */
static inline void __attribute__((format(printf, 2, 0)))
cli_vusage_error(const char *prog, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", prog);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, " (see %s --help)\n", prog);
}

#endif
