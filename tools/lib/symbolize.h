/* SPDX-License-Identifier: GPL-2.0 */
/*
 * symbolize.h - the one symbolizer of dyncg (elfutils libdwfl).
 *
 * User addresses are resolved through the MAP records of the trace: each
 * mapped object is reported to libdwfl at the address it was loaded at,
 * so symbolization works after the process exited and with PIE/ASLR.
 * An object's file is the one with the build-id the tracer recorded:
 * under --sysroot, in a .build-id tree, or at the recorded path.
 * libdwfl's standard callbacks find separate debuginfo (build-id and
 * .gnu_debuglink); stripped objects fall back to .dynsym, then to
 * "object+0xoffset", and an object with no such file is all
 * "object+0xoffset", said once on stderr.  Kernel addresses are resolved through a kallsyms
 * snapshot (KSYM records, --kallsyms, --system-map) or a vmlinux.
 * Every answer is cached by address.
 */
#ifndef DCG_SYMBOLIZE_H
#define DCG_SYMBOLIZE_H

#include <stdbool.h>
#include "dcg_event.h"

struct dcg_symopts {
	bool srcline;			/* fill dcg_symbol.srcline */
	bool inlines;			/* fill dcg_symbol.inlined */
	bool mangled;			/* keep C++ names mangled */
	const char *debuginfo_path;	/* extra dirs, ':'-separated */
	const char *sysroot;		/* the traced system's files, or NULL */
	const char *kallsyms;		/* /proc/kallsyms format file */
	const char *system_map;		/* System.map format file */
	const char *vmlinux;		/* kernel ELF with symbols */
};

struct dcg_symbol {
	const char *func;	/* function name; "obj+0xN" or "0xN" if none */
	dcg_u64 offset;		/* address - function start (0 if no func) */
	bool known;		/* a symbol was found */
	bool plt;		/* a PLT stub, named "func@plt" */
	const char *srcline;	/* "file:line", or NULL */
	const char *inlined;	/* "f <- g <- h" innermost first, or NULL */
};

struct dcg_symbolizer;

/* NULL with a message in @err (one line) when an option file is bad. */
struct dcg_symbolizer *dcg_sym_new(const struct dcg_symopts *opts,
				   char *err, size_t errlen);
void dcg_sym_free(struct dcg_symbolizer *s);

/* Feed MAP and KSYM records (any time; lookups see them afterwards). */
void dcg_sym_add_record(struct dcg_symbolizer *s, const struct dcg_rec *rec);

/*
 * Resolve @addr.  The strings stay valid until the next MAP or KSYM
 * record is added (that empties the cache); the struct itself only
 * until the next lookup.
 */
const struct dcg_symbol *dcg_sym_lookup(struct dcg_symbolizer *s,
					dcg_u64 addr);

/*
 * The object @addr lies in: a user mapping's file name ("libc.so.6"),
 * "[module]" for a kernel module, "vmlinux" for the rest of the
 * kernel, or NULL when unknown.  Valid as long as dcg_sym_lookup()'s strings.
 */
const char *dcg_sym_object(struct dcg_symbolizer *s, dcg_u64 addr);

/*
 * Up to @len bytes of code at user address @addr, from the object's
 * file (the one the lookups use); returns how many, 0 when unknown
 * (kernel addresses, no file).  For per-instruction views that need
 * the instructions of a straight-line run.
 */
int dcg_sym_code(struct dcg_symbolizer *s, dcg_u64 addr, void *buf,
		 unsigned int len);

/* "func" or "func+0xN" into @buf; returns @buf. */
const char *dcg_sym_format(const struct dcg_symbol *sym, char *buf,
			   size_t len);

static inline bool dcg_addr_is_kernel(dcg_u64 addr)
{
	return addr >= 0xffff800000000000ull;
}

#endif /* DCG_SYMBOLIZE_H */
