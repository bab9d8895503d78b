// SPDX-License-Identifier: GPL-2.0
/*
 * kernel-readfile FILE [COUNT] - read FILE to its end COUNT times
 * (default 1) with 4096-byte read()s, for the kernel-mode tests: each
 * read() is one vfs_read of this task.  Prints what it read, so a test
 * can tell how many vfs_read calls it made:
 *     kernel-readfile: reads=N bytes=M
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long parse_count(const char *s)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || *end || n < 1 || n > 10000000)
		return -1;
	return n;
}

int main(int argc, char **argv)
{
	static char buf[4096];
	long count = 1, i, reads = 0, bytes = 0;
	ssize_t n;
	int fd;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: kernel-readfile FILE [COUNT]\n");
		return 2;
	}
	if (argc == 3 && (count = parse_count(argv[2])) < 0) {
		fprintf(stderr, "kernel-readfile: bad count '%s' (1..10000000)\n", argv[2]);
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "kernel-readfile: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	for (i = 0; i < count; i++) {
		if (lseek(fd, 0, SEEK_SET) < 0) {
			fprintf(stderr, "kernel-readfile: lseek: %s\n", strerror(errno));
			return 1;
		}
		do {
			n = read(fd, buf, sizeof(buf));
			if (n < 0) {
				fprintf(stderr, "kernel-readfile: read: %s\n", strerror(errno));
				return 1;
			}
			reads++;
			bytes += n;
		} while (n > 0);
	}
	printf("kernel-readfile: reads=%ld bytes=%ld\n", reads, bytes);
	return 0;
}
