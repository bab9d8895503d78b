/* namesprog.c - built with -rdynamic and stripped by names.exp, so that
 * only .dynsym names its code: exported_work() is there, hidden_work()
 * (static) is not, and text_marker is a label with no type and no size
 * (a marker, no function) followed by code that no symbol names. */
#include <stdio.h>

int __attribute__((noinline)) exported_work(int x)
{
	return x * 3 + 1;
}

static int __attribute__((noinline)) hidden_work(int x)
{
	return x - 7;
}

__asm__(".text\n"
	".globl text_marker\n"
	"text_marker:\n"
	"\tnop\n"
	"\tnop\n"
	"\tret\n");

int main(int argc, char **argv)
{
	printf("%d\n", exported_work(argc) + hidden_work(argc));
	return 0;
}
