// SPDX-License-Identifier: GPL-2.0
/*
 * kernel-readfault FILE PAGES - two read()s of PAGES pages of FILE into
 * a fresh anonymous mapping, for the kernel window's exception count
 * (dyncg.kernel/ftrace-oracle.exp): the first read's copy_to_user
 * touches every page for the first time, so it takes one page fault
 * per page (transparent huge pages are off for the mapping, so a fault
 * maps one page); the second read, into the same pages, takes none.
 * Prints what each read returned and the thread's own fault counts
 * (getrusage) around it:
 *     kernel-readfault: pages=P read=N minflt=F majflt=M
 *     kernel-readfault: again read=N minflt=F majflt=M
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>

static int counted_read(int fd, char *buf, size_t len, const char *what)
{
	struct rusage before, after;
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET) < 0 || getrusage(RUSAGE_THREAD, &before)) {
		fprintf(stderr, "kernel-readfault: %s\n", strerror(errno));
		return 1;
	}
	n = read(fd, buf, len);
	getrusage(RUSAGE_THREAD, &after);
	printf("kernel-readfault: %s read=%zd minflt=%ld majflt=%ld\n", what, n,
	       after.ru_minflt - before.ru_minflt,
	       after.ru_majflt - before.ru_majflt);
	return n < 0;
}

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE), pages;
	char first[32], *end, *buf;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: kernel-readfault FILE PAGES\n");
		return 2;
	}
	errno = 0;
	pages = strtol(argv[2], &end, 10);
	if (errno || *end || pages < 1 || pages > 1024) {
		fprintf(stderr, "kernel-readfault: bad page count '%s' (1..1024)\n", argv[2]);
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "kernel-readfault: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	buf = mmap(NULL, pages * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		fprintf(stderr, "kernel-readfault: mmap: %s\n", strerror(errno));
		return 1;
	}
	/* a huge page would take every page's fault in one */
	madvise(buf, pages * page, MADV_NOHUGEPAGE);
	snprintf(first, sizeof(first), "pages=%ld", pages);
	if (counted_read(fd, buf, pages * page, first) ||
	    counted_read(fd, buf, pages * page, "again"))
		return 1;
	return 0;
}
