// SPDX-License-Identifier: GPL-2.0
// C++ exceptions thrown through several frames, caught at two levels.
#include <cstdio>
#include <stdexcept>
#include "fixture.h"

static NOINLINE int check(int x)
{
	if (x > 2)
		throw std::runtime_error("too big");
	return x;
}

static NOINLINE int level3(int x) { return check(x) + 1; }
static NOINLINE int level2(int x) { return level3(x) + 1; }

static NOINLINE int level1(int x)
{
	try {
		return level2(x + 2);
	} catch (const std::runtime_error &) {
		return -1;
	}
}

static NOINLINE int after(int x) { return x * 3; }

extern "C" NOINLINE int work(int x)
{
	int sum = 0;

	try {
		sum += level2(x);
	} catch (const std::exception &) {
		sum += 100;
	}
	sum += level1(x);
	return sum + after(x);
}

int main()
{
	std::printf("except %d %d\n", work(0), work(5));
	return 0;
}
