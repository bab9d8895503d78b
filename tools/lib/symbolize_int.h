/* SPDX-License-Identifier: GPL-2.0 */
/*
 * symbolize_int.h - what the symbolizer's files (symbolize.c, sym_*.c)
 * share: its state and the functions one file calls in another.  Not
 * for the tools: they include symbolize.h.
 */
#ifndef DCG_SYMBOLIZE_INT_H
#define DCG_SYMBOLIZE_INT_H

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <glob.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/openat2.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <elfutils/libdwelf.h>
#include <gelf.h>
#include "dcg_plt.h"
#include "elf_util.h"
#include "symbolize.h"
#include "trace_read.h"
#include "util.h"

struct umap {
	char *path;
	dcg_u64 low, high;	/* load base, end of the last mapping */
	dcg_u8 build_id[24];
	dcg_u8 build_id_len;
	char problem[256];	/* why no file could be used */
	const struct dcg_symbolizer *owner;
	bool hinted;		/* the debug package line was considered */
};

struct ksym {
	dcg_u64 addr;
	dcg_u64 size;		/* 0 = up to the next symbol */
	char *name;
	bool text;		/* data symbols only bound the one before */
};

/*
 * The vmlinux used for kernel code: --vmlinux, or a DWARF vmlinux found
 * where distributions install it.  Its link addresses are the traced
 * kernel's minus @bias (KASLR).  Worked out on first use, again after
 * new KSYM records.
 */
struct kdebug {
	Dwfl *found;		/* a vmlinux found by kernel_search() */
	Dwfl_Module *found_mod;	/* its module */
	Dwfl_Module *mod;	/* NULL: none usable */
	dcg_u64 bias;		/* traced address - link address */
	bool done;		/* mod and bias are up to date */
	bool wanted;		/* a lookup wanted kernel DWARF */
	char module[64];	/* a module whose code was looked up */
	const char *key;	/* msg's, for sym_say_once() */
	char msg[1536];		/* why there is none, said at the end */
	char *path;		/* the vmlinux's file: its modules are in
				 * the same package, next to it */
	struct kmoddbg *mods;	/* modules' debug files, by name */
	size_t nmods;
	dcg_u8 build_id[24];	/* the traced kernel's, from its MAP */
	dcg_u8 build_id_len;	/* 0: the trace does not say */
};

/* The MAP record of the kernel's text (runtime/linux/kernel_syms.c). */
#define KERNEL_MAP_PATH	"[kernel.kallsyms]"

/* A kernel module's file with DWARF (NAME.ko of the -dbg package). */
struct kmoddbg {
	char *name;
	Dwfl *dwfl;		/* NULL: none found or not usable */
	Dwfl_Module *mod;
	bool said;		/* a line said why it is not used */
};

struct cache_ent {
	dcg_u64 addr;
	bool used;
	struct dcg_symbol sym;
};

struct ftype_ent {
	dcg_u64 addr;
	bool used;
	struct dcg_functype *ft;	/* NULL: no DWARF for it */
};

struct dcg_symbolizer {
	struct dcg_symopts opts;
	char *debuginfo_path;
	Dwfl_Callbacks cb;

	struct umap *maps;
	size_t nmaps, maps_cap;
	Dwfl *dwfl;
	bool dwfl_stale;

	Dwfl *kdwfl;		/* --vmlinux */
	Dwfl_Module *kvmod;	/* its module */
	struct kdebug kd;	/* the vmlinux that names kernel code */

	struct ksym *ksyms;
	size_t nksyms, ksyms_cap;
	bool ksyms_sorted;

	struct cache_ent *cache;
	size_t cache_cap, cache_used;

	struct ftype_ent *ftc;	/* dcg_sym_functype(), emptied with cache */
	size_t ftc_cap, ftc_used;

	int sysroot_fd;		/* --sysroot, or -1 */
};

/* symbolize.c */
void *sym_realloc(void *p, size_t n);
char *sym_strdup(const char *str);
bool sym_grow(void *arrp, size_t *cap, size_t n, size_t size, size_t first);
void sym_cache_clear(struct dcg_symbolizer *s);
void sym_build_dwfl(struct dcg_symbolizer *s);

/* sym_elf.c */
int sym_find_elf_by_path(Dwfl_Module *mod, void **userdata,
			 const char *modname, Dwarf_Addr base,
			 char **file_name, Elf **elfp);

/* sym_ksyms.c */
void sym_add_ksym(struct dcg_symbolizer *s, dcg_u64 addr, dcg_u64 size,
		  const char *name, bool text);
bool sym_is_text_type(int c);
int sym_load_kallsyms(struct dcg_symbolizer *s, const char *path,
		      char *err, size_t errlen);
int sym_load_vmlinux(struct dcg_symbolizer *s, const char *path,
		     char *err, size_t errlen);
void sym_resolve_kernel(struct dcg_symbolizer *s, dcg_u64 addr,
			struct dcg_symbol *y);

/* sym_names.c */
const char *sym_base_name(const char *path);
char *sym_dup_printf(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
void sym_add_srcline(Dwfl_Module *mod, Dwarf_Addr addr,
		     struct dcg_symbol *y);
void sym_add_inlines(Dwfl_Module *mod, Dwarf_Addr addr,
		     struct dcg_symbol *y);
char *sym_plt_name(Dwfl_Module *mod, Dwarf_Addr addr);
char *sym_symbol_name(const struct dcg_symbolizer *s, const char *name);
bool sym_covers(const GElf_Sym *sym, GElf_Off off);
bool sym_has_symtab(Elf *elf);
char *sym_plt_symbol_name(const struct dcg_symbolizer *s, char *stub);

/* sym_hints.c */
void sym_hint_package(struct umap *u, Dwfl_Module *mod);
void sym_say_unusable(struct umap *u);
/* One line on stderr, once per process for each @key. */
void sym_say_once(const char *key, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* sym_kdebug.c */
Dwfl_Module *sym_kernel_module(struct dcg_symbolizer *s, dcg_u64 addr,
			       Dwarf_Addr *rel);
void sym_kmods_free(struct dcg_symbolizer *s);
Dwfl_Module *sym_kmod_module(struct dcg_symbolizer *s,
			     const struct ksym *k, dcg_u64 addr,
			     Dwarf_Addr *rel);
void sym_kernel_say(struct dcg_symbolizer *s);

/* sym_types.c */
void sym_ftc_clear(struct dcg_symbolizer *s);

#endif /* DCG_SYMBOLIZE_INT_H */
