// SPDX-License-Identifier: GPL-2.0
/*
 * names.c - the names the tools print for addresses (names.h).
 */
#include <stdio.h>
#include "names.h"

const char *dcg_func_name(struct dcg_symbolizer *s, dcg_u64 addr, char *buf)
{
	if (!addr)
		return "[unknown]";
	if (addr == DCG_LAZY_BINDING_ADDR)
		return "[lazy binding]";
	if (!s) {
		snprintf(buf, DCG_NAME_LEN, "0x%llx", (unsigned long long)addr);
		return buf;
	}
	return dcg_sym_format(dcg_sym_lookup(s, addr), buf, DCG_NAME_LEN);
}

const char *dcg_func_base_name(struct dcg_symbolizer *s, dcg_u64 addr,
			       char *buf)
{
	if (!addr)
		return "[unknown]";
	if (!s || addr == DCG_LAZY_BINDING_ADDR)
		return dcg_func_name(s, addr, buf);
	return dcg_sym_lookup(s, addr)->func;
}

bool dcg_func_is_plt_stub(struct dcg_symbolizer *s, dcg_u64 addr)
{
	if (!s || addr <= DCG_LAZY_BINDING_ADDR)
		return false;
	return dcg_sym_lookup(s, addr)->plt;
}
