// SPDX-License-Identifier: GPL-2.0
/*
 * hook.c - the -finstrument-functions oracle.
 *
 * Fixtures are built with -finstrument-functions and linked with this
 * (built without it).  Each hook appends one record to a static array;
 * the array is written, as text, to the file named by $DCG_HOOK_LOG
 * when the process exits.  Records:
 *
 *   self ADDR                    runtime address of __cyg_profile_func_enter
 *   enter TID FN CALLSITE CFA    (hex)
 *   exit  TID FN CALLSITE CFA
 *   dropped N                    records that did not fit
 *
 * CFA is the instrumented function's canonical frame address: rsp
 * before its call instruction pushed the return address.  It is what
 * tells a live frame from a dead one: a frame is dead once a new frame
 * starts at or above its CFA (longjmp and C++ unwinding skip exit
 * hooks).  The hook's own frame address would not do: it sits below
 * the caller's locals by an amount that differs per function.  The CFA
 * is read through the frame pointer chain, so fixtures are built with
 * -fno-omit-frame-pointer: the hook's saved rbp is the caller's rbp,
 * and the caller's CFA is that plus 16.
 *
 * Cheap and async-signal-safe enough: a slot is reserved with one
 * atomic add and then filled, no locks, no allocation, no I/O until
 * exit; a signal handler that interrupts a hook takes the next slot.
 * Threads share the array; each thread's records keep its own order,
 * which is all the comparison needs.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#define NI __attribute__((no_instrument_function))
#define MAX_RECORDS (1u << 20)

struct hook_rec {
	uint32_t kind;		/* 1 enter, 2 exit */
	uint32_t tid;
	uintptr_t fn;
	uintptr_t site;
	uintptr_t cfa;
};

static struct hook_rec records[MAX_RECORDS];
static unsigned long nrecords;
static __thread uint32_t my_tid;
static pid_t owner;

void __cyg_profile_func_enter(void *fn, void *site) NI;
void __cyg_profile_func_exit(void *fn, void *site) NI;

static NI __attribute__((always_inline)) inline void
add(uint32_t kind, void *fn, void *site, uintptr_t cfa)
{
	unsigned long i = __atomic_fetch_add(&nrecords, 1, __ATOMIC_RELAXED);
	struct hook_rec *r;

	if (i >= MAX_RECORDS)
		return;
	if (!my_tid)
		my_tid = syscall(SYS_gettid);
	r = &records[i];
	r->kind = kind;
	r->tid = my_tid;
	r->fn = (uintptr_t)fn;
	r->site = (uintptr_t)site;
	r->cfa = cfa;
}

NI __attribute__((noinline)) void __cyg_profile_func_enter(void *fn, void *site)
{
	add(1, fn, site, (uintptr_t)__builtin_frame_address(1) + 16);
}

NI __attribute__((noinline)) void __cyg_profile_func_exit(void *fn, void *site)
{
	add(2, fn, site, (uintptr_t)__builtin_frame_address(1) + 16);
}

static NI __attribute__((constructor)) void hook_init(void)
{
	owner = getpid();
}

static NI void put(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n <= 0)
			return;
		buf += n;
		len -= n;
	}
}

/* Forked children share the records up to the fork: only the owner writes. */
static NI __attribute__((destructor)) void hook_write(void)
{
	const char *path = getenv("DCG_HOOK_LOG");
	unsigned long i, n = nrecords;
	char line[160];
	int fd, len;

	if (!path || getpid() != owner)
		return;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	len = snprintf(line, sizeof(line), "self %lx\n",
		       (unsigned long)(uintptr_t)__cyg_profile_func_enter);
	put(fd, line, len);
	for (i = 0; i < n && i < MAX_RECORDS; i++) {
		const struct hook_rec *r = &records[i];

		len = snprintf(line, sizeof(line), "%s %u %lx %lx %lx\n",
			       r->kind == 1 ? "enter" : "exit", r->tid,
			       (unsigned long)r->fn, (unsigned long)r->site,
			       (unsigned long)r->cfa);
		put(fd, line, len);
	}
	if (n > MAX_RECORDS) {
		len = snprintf(line, sizeof(line), "dropped %lu\n",
			       n - MAX_RECORDS);
		put(fd, line, len);
	}
	close(fd);
}
