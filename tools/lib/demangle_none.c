// SPDX-License-Identifier: GPL-2.0
/*
 * demangle_none.c - the C++ ABI's demangler entry point for a build
 * without libstdc++ (configure found no __cxa_demangle, or was given
 * --disable-demangle): it answers every name with status -2, "not a
 * valid mangled name", so the symbolizer keeps each name as the symbol
 * table spells it.  Built in place of linking libstdc++ (tools/lib/lib.am).
 */
#include <stddef.h>

char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status)
{
	if (status)
		*status = -2;
	return NULL;
}
