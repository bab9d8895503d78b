// SPDX-License-Identifier: GPL-2.0
/*
 * memory.c - reading and writing the traced process's memory.
 *
 * Reads go through /proc/PID/mem (one pread, any length, works on any
 * thread of the process).  The engine decodes the instruction at every
 * stop; a syscall per stop for that would be the largest cost after
 * the context switches themselves.  So pages of read-only executable
 * mappings are cached: code that cannot be written cannot change
 * without an munmap/mmap, and those show up as a changed mapping at the
 * next maps scan, which flushes the cache.  Writable or unknown memory
 * (stacks, JIT code) is always read fresh.  Cached pages hold the
 * ORIGINAL bytes under our breakpoints, never the int3.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/uio.h>
#include "dcg_trace.h"

#define PAGE 4096u
#define CACHE_SLOTS 256		/* direct-mapped, by page number */

struct page {
	uint64_t base;		/* 0 = empty */
	uint8_t bytes[PAGE];
};

static int memfd = -1;
static pid_t mem_pid;
static struct page *cache;
static uint64_t (*ranges)[2];
static int nranges;
static uint64_t (*mapped)[2];	/* every mapping, for "is this new?" */
static int nmapped;
static uint64_t last_rescan_stop = UINT64_MAX;

int mem_open(pid_t pid)
{
	char path[64];

	mem_close();
	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	memfd = open(path, O_RDWR | O_CLOEXEC);
	if (memfd < 0)
		return -errno;
	mem_pid = pid;
	if (!cache)
		cache = calloc(CACHE_SLOTS, sizeof(*cache));
	code_cache_flush();
	return 0;
}

void mem_close(void)
{
	if (memfd >= 0)
		close(memfd);
	memfd = -1;
}

/* Bytes readable at @addr, up to @len; 0 when nothing is mapped. */
int mem_read(uint64_t addr, void *buf, unsigned int len)
{
	ssize_t n;
	unsigned int got = 0;

	if (memfd < 0)
		return 0;
	n = pread(memfd, buf, len, (off_t)addr);
	if (n == (ssize_t)len)
		return len;
	/* A read across the end of a mapping: take what is there. */
	while (got < len) {
		unsigned int chunk = PAGE - ((addr + got) & (PAGE - 1));

		if (chunk > len - got)
			chunk = len - got;
		n = pread(memfd, (char *)buf + got, chunk, (off_t)(addr + got));
		if (n <= 0)
			break;
		got += n;
		if ((unsigned int)n < chunk)
			break;
	}
	return got;
}

int mem_write(pid_t pid, uint64_t addr, const void *buf, unsigned int len)
{
	char path[64];
	ssize_t n;
	int fd = memfd;

	if (pid != mem_pid || fd < 0) {
		snprintf(path, sizeof(path), "/proc/%d/mem", pid);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			return -errno;
	}
	n = pwrite(fd, buf, len, (off_t)addr);
	if (fd != memfd)
		close(fd);
	if (n != (ssize_t)len)
		return n < 0 ? -errno : -EIO;
	return 0;
}

/*
 * A store the program itself makes (the push of a call the tracer does
 * for it).  /proc/PID/mem writes with FOLL_FORCE, so it would succeed
 * on a read-only page where the CPU's push faults; process_vm_writev()
 * honours the page protections, so the store fails where the
 * program's would, and the caller lets the CPU do it (and fault).
 */
int mem_store(pid_t pid, uint64_t addr, const void *buf, unsigned int len)
{
	struct iovec local = { (void *)buf, len };
	struct iovec remote = { (void *)(uintptr_t)addr, len };
	ssize_t n = process_vm_writev(pid, &local, 1, &remote, 1, 0);

	if (n != (ssize_t)len)
		return n < 0 ? -errno : -EIO;
	return 0;
}

/*
 * Only the bases: a slot's bytes count only under its base.  Clearing
 * the whole megabyte touched every page of it at each maps change
 * (several while the program starts) for nothing.
 */
void code_cache_flush(void)
{
	unsigned int i;

	for (i = 0; cache && i < CACHE_SLOTS; i++)
		cache[i].base = 0;
}

static void set_ranges(uint64_t (**dst)[2], int *ndst,
		       const uint64_t (*r)[2], int n)
{
	free(*dst);
	*dst = NULL;
	*ndst = 0;
	if (n > 0) {
		*dst = malloc(n * sizeof(**dst));
		if (!*dst)
			return;
		memcpy(*dst, r, n * sizeof(**dst));
		*ndst = n;
	}
}

/*
 * From the last maps scan: the read-only executable ranges (@r), which
 * may be cached, and all mappings (@all).
 */
void code_ranges_set(const uint64_t (*r)[2], int n,
		     const uint64_t (*all)[2], int nall)
{
	set_ranges(&ranges, &nranges, r, n);
	set_ranges(&mapped, &nmapped, all, nall);
	code_cache_flush();
}

/* Only the list of all mappings changed. */
void code_ranges_set_all(const uint64_t (*all)[2], int nall)
{
	set_ranges(&mapped, &nmapped, all, nall);
}

static bool in_list(uint64_t (*list)[2], int n, uint64_t addr)
{
	int i;

	for (i = 0; i < n; i++)
		if (addr >= list[i][0] && addr < list[i][1])
			return true;
	return false;
}

/*
 * An address in no known mapping: something was mapped since the last
 * scan (a library loaded by the dynamic linker, in --all mode, before
 * any link-map breakpoint exists).  Rescan, at most once per stop, so
 * that a bad address cannot make every read a scan.
 */
static void maybe_rescan(uint64_t addr)
{
	if (in_list(mapped, nmapped, addr) || last_rescan_stop == T.stops)
		return;
	last_rescan_stop = T.stops;
	maps_scan(true);
}

static bool in_code_range(uint64_t base)
{
	int i;

	for (i = 0; i < nranges; i++)
		if (base >= ranges[i][0] && base + PAGE <= ranges[i][1])
			return true;
	return false;
}

static struct page *cached_page(uint64_t base)
{
	struct page *p = &cache[(base / PAGE) % CACHE_SLOTS];

	if (p->base == base)
		return p;
	if (!in_code_range(base)) {
		maybe_rescan(base);
		if (!in_code_range(base))
			return NULL;
	}
	if (mem_read(base, p->bytes, PAGE) != PAGE) {
		p->base = 0;
		return NULL;
	}
	bp_patch_orig(base, p->bytes, PAGE);
	p->base = base;
	return p;
}

/*
 * Read code as the program sees it without our breakpoints: the
 * engine's read callback.
 */
int code_read(uint64_t addr, void *buf, unsigned int len)
{
	unsigned int got = 0;
	int n;

	while (got < len) {
		uint64_t a = addr + got;
		uint64_t base = a & ~(uint64_t)(PAGE - 1);
		unsigned int off = a - base;
		unsigned int chunk = PAGE - off;
		struct page *p = cache ? cached_page(base) : NULL;

		if (chunk > len - got)
			chunk = len - got;
		if (p) {
			memcpy((char *)buf + got, p->bytes + off, chunk);
			got += chunk;
			continue;
		}
		n = mem_read(a, (char *)buf + got, len - got);
		if (n > 0)
			bp_patch_orig(a, (uint8_t *)buf + got, n);
		return got + (n > 0 ? n : 0);
	}
	return got;
}
