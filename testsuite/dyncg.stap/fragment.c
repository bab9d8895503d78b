/*
 * fragment.c - fragments the guest's free memory, then runs threads
 * that each call work() once (stap-alloc.exp opens a window there).
 *
 * It maps nearly all available memory, touches it, and gives every
 * other page back: hundreds of MiB stay free, but in single pages, so
 * an allocation of high order that may not sleep (no compaction, no
 * reclaim) finds little or nothing.  The memory stays held until the
 * threads are done.  Prints "fragment N threads ok" at the end.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define NTHREADS 48

static volatile long sink;

__attribute__((noinline)) static long leaf(long x)
{
	sink += x;
	return x * 2;
}

__attribute__((noinline)) long work(long x)
{
	return leaf(x) + 1;
}

static void *thread_fn(void *arg)
{
	work((long)arg);
	return NULL;
}

/* MemAvailable in bytes, 0 if unknown. */
static long mem_available(void)
{
	char line[256];
	long kb = 0;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb * 1024;
}

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	long keep = (argc > 1 ? atol(argv[1]) : 24) << 20;
	long len = mem_available() - keep;
	pthread_t th[NTHREADS];
	char *p = MAP_FAILED;
	long off;
	int i;

	if (len > 0)
		p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, "fragment: cannot map %ld bytes\n", len);
		return 1;
	}
	madvise(p, len, MADV_NOHUGEPAGE);
	for (off = 0; off < len; off += page)
		p[off] = 1;
	for (off = 0; off < len; off += 2 * page)
		madvise(p + off, page, MADV_DONTNEED);
	if (argc > 2)	/* the free blocks per order the windows will find */
		system("cat /proc/buddyinfo");
	for (i = 0; i < NTHREADS; i++)
		if (pthread_create(&th[i], NULL, thread_fn, (void *)(long)i)) {
			fprintf(stderr, "fragment: pthread_create failed\n");
			return 1;
		}
	for (i = 0; i < NTHREADS; i++)
		pthread_join(th[i], NULL);
	printf("fragment %d threads ok\n", NTHREADS);
	return 0;
}
