// SPDX-License-Identifier: GPL-2.0
// Calls through function pointers and through a C++ vtable.
#include <cstdio>
#include "fixture.h"

struct shape {
	virtual int area() const = 0;
	virtual ~shape() {}
};

struct square : shape {
	int s;
	explicit square(int s) : s(s) {}
	int area() const override { return s * s; }
};

struct rect : shape {
	int w, h;
	rect(int w, int h) : w(w), h(h) {}
	int area() const override { return w * h; }
};

static NOINLINE int add_one(int x) { return x + 1; }
static NOINLINE int twice(int x) { return 2 * x; }
static NOINLINE int apply(int (*op)(int), int x) { return op(x); }

extern "C" NOINLINE int work(int n)
{
	shape *shapes[3] = { new square(n), new rect(n, 2), new square(n + 1) };
	int (*ops[2])(int) = { add_one, twice };
	int sum = 0;

	for (shape *s : shapes)
		sum += s->area();
	for (int i = 0; i < 4; i++)
		sum = apply(ops[i & 1], sum);
	for (shape *s : shapes)
		delete s;
	return sum;
}

int main()
{
	int sum = 0;

	for (int i = 1; i <= 3; i++)
		sum += work(i);
	std::printf("fptr %d\n", sum);
	return 0;
}
