// SPDX-License-Identifier: GPL-2.0
/*
 * blocking.c - a traced window that sleeps in read(2).
 *
 * work() calls two helpers around a read of stdin, so that a test can
 * unload the tapset module while the traced thread is blocked inside
 * the window.  Prints "blocking: N bytes, sum S" (S = 2 * 21 + N): a
 * stray trap left armed would kill it with SIGTRAP instead.
 */
#include <stdio.h>
#include <unistd.h>

static __attribute__((noinline)) int before(int x) { return x * 21; }
static __attribute__((noinline)) int after(int x) { return x + 1 - 1; }

__attribute__((noinline)) int work(int k)
{
	char buf[64];
	int s = before(k);
	ssize_t n = read(0, buf, sizeof(buf));

	return after(s + (n > 0 ? (int)n : 0));
}

int main(void)
{
	int s = work(2);

	printf("blocking: %d bytes, sum %d\n", s - 42, s);
	return 0;
}
