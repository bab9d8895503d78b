/* symprog.c - a program to symbolize, for symbols.exp.  Not run: the
 * test builds it as a PIE and writes a trace of made-up events at the
 * addresses nm and objdump give for it. */
#include <stdio.h>

static int __attribute__((noinline)) hidden_helper(int x)
{
	return x * 3;	/* static: in .symtab only, not in .dynsym */
}

int __attribute__((noinline)) visible_work(int x)
{
	return hidden_helper(x) + 1;	/* exported: .dynsym with -rdynamic */
}

static inline __attribute__((always_inline)) int inlined_step(int x)
{
	return visible_work(x) + 2;	/* the call site lies in an inline */
}

int main(int argc, char **argv)
{
	puts("symprog");		/* a call through the PLT */
	return inlined_step(argc) & 1;
}
