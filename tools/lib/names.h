/* SPDX-License-Identifier: GPL-2.0 */
/*
 * names.h - what the tools print for an address: a function's name,
 * with +0xOFF when the address is not its entry, "[unknown]" for 0,
 * and hex when there is no symbolizer (--raw).  The caller gives the
 * buffer, so that any number of names can be live at once.
 */
#ifndef DCG_NAMES_H
#define DCG_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include "dcg_event.h"
#include "symbolize.h"

/* The longest name written, NUL included: longer ones are cut. */
#define DCG_NAME_LEN		1024

/*
 * The node that stands for the dynamic linker's lazy binding under a
 * folded PLT call (dcg-report's walk): no function lies at address 1,
 * and the name functions give "[lazy binding]" for it.
 */
#define DCG_LAZY_BINDING_ADDR	1

/* @s may be NULL (no symbolization); @buf holds at least DCG_NAME_LEN. */
const char *dcg_func_name(struct dcg_symbolizer *s, dcg_u64 addr, char *buf);
/* The same without +0xOFF; @buf is used only when @s is NULL. */
const char *dcg_func_base_name(struct dcg_symbolizer *s, dcg_u64 addr,
			       char *buf);
/*
 * A PLT stub (the symbolizer names it "func@plt" from the relocation it
 * jumps through).  Its own jump to the target comes next in a trace as
 * a tail call.
 */
bool dcg_func_is_plt_stub(struct dcg_symbolizer *s, dcg_u64 addr);

#endif /* DCG_NAMES_H */
