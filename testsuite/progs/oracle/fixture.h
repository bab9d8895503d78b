/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fixture.h - shared by the oracle fixtures.  Each fixture's traced
 * function is called work(); its results are printed so that a traced
 * run can be checked against an untraced one.
 */
#ifndef FIXTURE_H
#define FIXTURE_H

#define NOINLINE __attribute__((noinline))
/* Kept out of line and out of interprocedural analysis, so that a call
 * in the source is a call (or a tail jump) in the binary. */
#define OPAQUE __attribute__((noinline, noipa))
#define NO_HOOK __attribute__((no_instrument_function))

#endif
