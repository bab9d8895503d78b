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
 * snapshot (KSYM records, --kallsyms, --system-map) or a vmlinux; their
 * file:line comes from the traced kernel's DWARF vmlinux (--vmlinux, or
 * found where distributions install it), taken only if the snapshot's
 * symbols are all at one KASLR offset from it.
 * Every answer is cached by address.
 */
#ifndef DCG_SYMBOLIZE_H
#define DCG_SYMBOLIZE_H

#include <stdbool.h>
#include "dcg_event.h"

struct dcg_symopts {
	bool srcline;			/* fill dcg_symbol.srcline */
	bool srcline_implied;		/* by the view, not asked for: no line
					 * on stderr when kernel code has none */
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

/*
 * Has any symbolizer of this process run out of memory?  It does not
 * exit: what it could not keep is left out, and a name it could not
 * copy reads "[out of memory]".  The program says so and decides.
 */
bool dcg_sym_out_of_memory(void);

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

/*
 * Types of parameters and return values, from DWARF (issue #17): how a
 * value is shown and which SysV x86-64 integer registers hold it.
 */
enum dcg_vkind {
	DCG_V_VOID,		/* no value (a void return) */
	DCG_V_SINT,		/* signed integer of size bytes */
	DCG_V_UINT,
	DCG_V_CHAR,		/* char, signed char, unsigned char */
	DCG_V_BOOL,
	DCG_V_ENUM,
	DCG_V_PTR,		/* any pointer or reference */
	DCG_V_STR,		/* pointer to char: a string */
	DCG_V_AGG,		/* struct, union, class by value: {...} */
	DCG_V_FP,		/* float, double, long double: in xmm/x87 */
	DCG_V_UNKNOWN,		/* a type we do not know: hex */
};

struct dcg_enumerator {
	long long value;
	const char *name;
};

struct dcg_vtype {
	unsigned char kind;	/* enum dcg_vkind */
	unsigned char size;	/* bytes (0 if unknown) */
	unsigned char nregs;	/* integer registers it takes by value:
				 * 0 (memory or xmm), 1 or 2 */
	bool is_signed;		/* SINT, CHAR, ENUM */
	bool memory;		/* AGG of the ABI's MEMORY class: passed
				 * on the stack, returned through rdi */
	unsigned int nenum;
	const struct dcg_enumerator *enums;
};

struct dcg_param {
	const char *name;	/* "" if DWARF has none */
	struct dcg_vtype type;
	int reg;		/* index of its first register (0 = rdi),
				 * -1 when passed in memory or xmm */
};

struct dcg_functype {
	unsigned int nparams;
	const struct dcg_param *params;
	bool variadic;
	struct dcg_vtype ret;
	bool ret_memory;	/* returned through a hidden pointer in rdi */
};

/*
 * The parameters and return type of the function whose entry is @addr,
 * from its DWARF (a subprogram whose entry pc is @addr), cached per
 * address; NULL when there is none.  Valid as long as dcg_sym_lookup()'s
 * strings.
 */
const struct dcg_functype *dcg_sym_functype(struct dcg_symbolizer *s,
					    dcg_u64 addr);

static inline bool dcg_addr_is_kernel(dcg_u64 addr)
{
	return addr >= 0xffff800000000000ull;
}

#endif /* DCG_SYMBOLIZE_H */
