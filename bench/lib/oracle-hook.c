// SPDX-License-Identifier: GPL-2.0
/*
 * oracle-hook.c - the -finstrument-functions ground truth for bench/run.
 *
 * Linked into the "oracle" build of each job.  The compiler calls these
 * hooks at every entry and exit of an instrumented function, so the
 * hooks see every call of the job's own functions, however it was made
 * (direct, through a pointer, from inside libc).  They count each
 * (innermost instrumented caller, callee) pair and write the counts to
 * $BENCH_ORACLE at exit, one "CALLER CALLEE COUNT" line each, addresses
 * in hex.  The jobs are linked -no-pie, so the addresses are the ones
 * nm prints; the caller of the outermost call is 0.
 *
 * Single-threaded jobs only; deeper than MAX_DEPTH or more distinct
 * pairs than MAX_EDGES is counted and reported, never silently dropped.
 */
#include <stdio.h>
#include <stdlib.h>

#define NOHOOK __attribute__((no_instrument_function))
#define MAX_DEPTH 65536
#define MAX_EDGES 4096

struct edge {
	void *caller, *callee;
	unsigned long count;
};

static void *stack[MAX_DEPTH];
static unsigned long depth, too_deep;
static struct edge edges[MAX_EDGES];
static unsigned long nedges, too_many;

void __cyg_profile_func_enter(void *fn, void *site) NOHOOK;
void __cyg_profile_func_exit(void *fn, void *site) NOHOOK;

static NOHOOK void count_edge(void *caller, void *callee)
{
	unsigned long i;

	/* a handful of distinct pairs per job: a linear scan is enough */
	for (i = 0; i < nedges; i++) {
		if (edges[i].caller == caller && edges[i].callee == callee) {
			edges[i].count++;
			return;
		}
	}
	if (nedges == MAX_EDGES) {
		too_many++;
		return;
	}
	edges[nedges++] = (struct edge){ caller, callee, 1 };
}

void __cyg_profile_func_enter(void *fn, void *site)
{
	void *caller = NULL;

	/* past MAX_DEPTH the edge is still counted, by the deepest caller kept */
	if (depth)
		caller = stack[(depth <= MAX_DEPTH ? depth : MAX_DEPTH) - 1];
	count_edge(caller, fn);
	if (depth < MAX_DEPTH)
		stack[depth] = fn;
	else
		too_deep++;
	depth++;
}

void __cyg_profile_func_exit(void *fn, void *site)
{
	if (depth)
		depth--;
}

static NOHOOK __attribute__((destructor)) void write_edges(void)
{
	const char *path = getenv("BENCH_ORACLE");
	unsigned long i;
	FILE *f;

	if (!path)
		return;
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		return;
	}
	for (i = 0; i < nedges; i++)
		fprintf(f, "%lx %lx %lu\n", (unsigned long)edges[i].caller,
			(unsigned long)edges[i].callee, edges[i].count);
	fprintf(f, "dropped %lu %lu\n", too_deep, too_many);
	fclose(f);
}
