// SPDX-License-Identifier: GPL-2.0
/*
 * symbolize.c - addresses to names with elfutils libdwfl.
 *
 * User space: the trace's MAP records say which object was mapped where.
 * Mappings of one object at one load base become one libdwfl module,
 * reported with dwfl_report_module() over [lowest start - pgoff, highest
 * end) together with the recorded build-id, the way libdwfl itself
 * reports /proc/PID/maps.  libdwfl then opens the object (our find_elf
 * callback: the recorded path under --sysroot, a build-id tree, the
 * recorded path here; a file is used only if its build-id is the
 * recorded one), and finds debuginfo with its standard callback.  Stubs
 * in .plt/.plt.sec, which have no symbols, are named "func@plt".  The Dwfl is built lazily
 * and rebuilt if maps arrive after lookups started (dlopen).
 *
 * Kernel: a sorted table of symbols (KSYM records, --kallsyms,
 * --system-map; only text symbols name code, the others bound the one
 * before them), or a vmlinux reported as an ELF module at its link
 * addresses; lookups in it subtract the KASLR offset worked out from
 * the symbol table (kernel_check()).  File:line comes from that vmlinux.
 */
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
	const char *key;	/* msg's, for say_once() */
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

/*
 * Out of memory, the symbolizer (a library) does not exit: what it
 * could not keep is left out (a map, a kernel symbol, a type, a hint
 * remembered), a name it could not copy reads nomem_name, and
 * dcg_sym_out_of_memory() tells the program, which decides.
 */
static const char nomem_name[] = "[out of memory]";
static const struct dcg_symbol nomem_sym = { .func = nomem_name };
static bool nomem;

static void *sym_realloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		nomem = true;
	return q;
}

static char *sym_strdup(const char *str)
{
	char *p = strdup(str);

	if (!p)
		nomem = true;
	return p;
}

/* A name of the cache: its own copy, or nomem_name. */
static void name_free(const char *name)
{
	if (name != nomem_name)
		free((char *)name);
}

bool dcg_sym_out_of_memory(void)
{
	return nomem;
}

/* Does the ELF file's build-id equal the one the trace recorded? */
static bool build_id_matches(Elf *elf, const struct umap *u)
{
	const void *bits;
	ssize_t len;

	if (!u || !u->build_id_len)
		return true;
	len = dwelf_elf_gnu_build_id(elf, &bits);
	return len == u->build_id_len && !memcmp(bits, u->build_id, len);
}

/* Append "; @where: @what" (or the first "@where: @what") to @u's problem. */
static void add_problem(struct umap *u, const char *where, const char *what)
{
	size_t n;

	if (!u)
		return;
	n = strlen(u->problem);
	snprintf(u->problem + n, sizeof(u->problem) - n, "%s%s%s",
		 n ? "; " : "", where, what);
}

/*
 * @path inside the --sysroot directory, as a process chrooted there
 * would open it: an absolute link in the tree (/lib64/ld-linux... ->
 * /lib/x86_64-linux-gnu/...) stays in the tree (RESOLVE_IN_ROOT),
 * where a plain open of DIR/path would follow it to this system's file.
 */
static int open_in_root(int rootfd, const char *path)
{
	struct open_how how = {
		.flags = O_RDONLY | O_CLOEXEC,
		.resolve = RESOLVE_IN_ROOT,
	};
	int fd = syscall(SYS_openat2, rootfd, path, &how, sizeof(how));

	/* before Linux 5.6: DIR/path, links as they are (still checked) */
	if (fd < 0 && errno == ENOSYS)
		fd = openat(rootfd, path + 1, O_RDONLY | O_CLOEXEC);
	return fd;
}

/*
 * The ELF file at @fd if its build-id is the recorded one; else close
 * @fd, say why in @u's problem (@where: which place) and return NULL.
 */
static Elf *checked_elf(int fd, struct umap *u, const char *where)
{
	Elf *elf;

	if (fd < 0) {
		char why[128];

		snprintf(why, sizeof(why), "cannot open (%s)", strerror(errno));
		add_problem(u, where, why);
		return NULL;
	}
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF && build_id_matches(elf, u))
		return elf;
	add_problem(u, where, elf && elf_kind(elf) == ELF_K_ELF ?
		    "build-id differs from the trace's" : "not an ELF file");
	if (elf)
		elf_end(elf);
	close(fd);
	return NULL;
}

/*
 * libdwfl find_elf.  The module's name is the path recorded in the
 * trace; *userdata is its struct umap.  In order: the recorded path
 * under --sysroot, a build-id tree of the debug directories, the
 * recorded path on this system.  Each file is used only if its
 * build-id is the recorded one, so that another build (a rebuilt
 * binary, the host's libc for a guest's trace) never puts its names on
 * the trace.  Without a recorded build-id nothing can be checked: with
 * --sysroot, the file under it is then the only candidate.
 */
static int find_elf_by_path(Dwfl_Module *mod, void **userdata,
			    const char *modname, Dwarf_Addr base,
			    char **file_name, Elf **elfp)
{
	struct umap *u = *userdata;
	int rootfd = u ? u->owner->sysroot_fd : -1;
	Elf *elf;
	int fd;

	if (u)
		u->problem[0] = '\0';
	if (modname[0] != '/')
		return dwfl_build_id_find_elf(mod, userdata, modname, base,
					      file_name, elfp);
	if (rootfd >= 0) {
		fd = open_in_root(rootfd, modname);
		elf = checked_elf(fd, u, "in --sysroot: ");
		if (elf) {
			*elfp = elf;
			*file_name = strdup(modname);
			return fd;
		}
	}
	fd = dwfl_build_id_find_elf(mod, userdata, modname, base, file_name,
				    elfp);
	if (fd >= 0 || *elfp)
		return fd;
	if (rootfd >= 0 && !(u && u->build_id_len))
		return -1;
	fd = open(modname, O_RDONLY | O_CLOEXEC);
	elf = checked_elf(fd, u, rootfd >= 0 ? "here: " : "");
	if (!elf)
		return -1;
	*elfp = elf;
	*file_name = strdup(modname);
	return fd;
}

static void ftc_clear(struct dcg_symbolizer *s);

static void cache_clear(struct dcg_symbolizer *s)
{
	size_t i;

	ftc_clear(s);

	for (i = 0; i < s->cache_cap; i++) {
		struct dcg_symbol *y = &s->cache[i].sym;

		if (!s->cache[i].used)
			continue;
		name_free(y->func);
		free((char *)y->srcline);
		free((char *)y->inlined);
	}
	memset(s->cache, 0, s->cache_cap * sizeof(*s->cache));
	s->cache_used = 0;
}

static int cmp_ksym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void add_ksym(struct dcg_symbolizer *s, dcg_u64 addr, dcg_u64 size,
		     const char *name, bool text)
{
	struct ksym *k;
	char *p, *copy;

	if (s->nksyms == s->ksyms_cap) {
		size_t cap = s->ksyms_cap ? 2 * s->ksyms_cap : 1024;

		k = sym_realloc(s->ksyms, cap * sizeof(*k));
		if (!k)
			return;
		s->ksyms = k;
		s->ksyms_cap = cap;
	}
	copy = sym_strdup(name);
	if (!copy)
		return;
	k = &s->ksyms[s->nksyms++];
	k->addr = addr;
	k->size = size;
	k->name = copy;
	k->text = text;
	/* "name\t[module]" reads better as "name [module]" */
	for (p = k->name; *p; p++)
		if (*p == '\t')
			*p = ' ';
	s->ksyms_sorted = false;
	s->kd.done = false;	/* check the vmlinux against it too */
	if (s->cache_used)
		cache_clear(s);
}

static bool is_text_type(int c)
{
	c = tolower(c);
	return c == 't' || c == 'w';
}

/* /proc/kallsyms or System.map: "addr type name [module]" per line. */
static int load_kallsyms(struct dcg_symbolizer *s, const char *path,
			 char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char line[1024], name[512], mod[256];
	unsigned long lineno = 0, nsyms = 0;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type;
		int n;

		lineno++;
		mod[0] = '\0';
		n = sscanf(line, "%llx %c %511s %255s", &addr, &type, name, mod);
		if (n < 3) {
			if (line[0] == '\n')
				continue;
			snprintf(err, errlen,
				 "%s: line %lu: not in kallsyms format (address type name)",
				 path, lineno);
			fclose(f);
			return -1;
		}
		if (mod[0]) {
			char full[800];

			snprintf(full, sizeof(full), "%s %s", name, mod);
			add_ksym(s, addr, 0, full, is_text_type(type));
		} else {
			add_ksym(s, addr, 0, name, is_text_type(type));
		}
		nsyms += is_text_type(type);
	}
	fclose(f);
	if (!nsyms) {
		snprintf(err, errlen, "%s: no text symbols in it", path);
		return -1;
	}
	return 0;
}

static int load_vmlinux(struct dcg_symbolizer *s, const char *path,
			char *err, size_t errlen)
{
	s->kdwfl = dwfl_begin(&s->cb);
	if (s->kdwfl)
		s->kvmod = dwfl_report_elf(s->kdwfl, "kernel", path, -1, 0,
					   false);
	if (!s->kvmod) {
		snprintf(err, errlen, "%s: %s", path, dwfl_errmsg(-1));
		return -1;
	}
	dwfl_report_end(s->kdwfl, NULL, NULL);
	return 0;
}

struct dcg_symbolizer *dcg_sym_new(const struct dcg_symopts *opts,
				   char *err, size_t errlen)
{
	struct dcg_symbolizer *s = sym_realloc(NULL, sizeof(*s));
	size_t n;

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	memset(s, 0, sizeof(*s));
	s->opts = *opts;
	s->sysroot_fd = -1;
	if (opts->sysroot) {
		s->sysroot_fd = open(opts->sysroot,
				     O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (s->sysroot_fd < 0) {
			snprintf(err, errlen, "--sysroot: %s: %s",
				 opts->sysroot, strerror(errno));
			free(s);
			return NULL;
		}
	}
	/*
	 * "-": no CRC check of .gnu_debuglink targets, as addr2line does.
	 * The traced system's debug tree comes before this one's.
	 */
	n = 64 + (opts->sysroot ? strlen(opts->sysroot) : 0) +
	    (opts->debuginfo_path ? strlen(opts->debuginfo_path) : 0);
	s->debuginfo_path = sym_realloc(NULL, n);
	s->cache = sym_realloc(NULL, 4096 * sizeof(*s->cache));
	if (!s->debuginfo_path || !s->cache) {
		snprintf(err, errlen, "out of memory");
		dcg_sym_free(s);
		return NULL;
	}
	snprintf(s->debuginfo_path, n, "-:.debug%s%s%s%s%s:/usr/lib/debug",
		 opts->debuginfo_path ? ":" : "",
		 opts->debuginfo_path ? opts->debuginfo_path : "",
		 opts->sysroot ? ":" : "",
		 opts->sysroot ? opts->sysroot : "",
		 opts->sysroot ? "/usr/lib/debug" : "");
	s->cb.find_elf = find_elf_by_path;
	s->cb.find_debuginfo = dwfl_standard_find_debuginfo;
	s->cb.section_address = dwfl_offline_section_address;
	s->cb.debuginfo_path = &s->debuginfo_path;
	s->cache_cap = 4096;
	memset(s->cache, 0, s->cache_cap * sizeof(*s->cache));

	if ((opts->kallsyms && load_kallsyms(s, opts->kallsyms, err, errlen)) ||
	    (opts->system_map &&
	     load_kallsyms(s, opts->system_map, err, errlen)) ||
	    (opts->vmlinux && load_vmlinux(s, opts->vmlinux, err, errlen))) {
		dcg_sym_free(s);
		return NULL;
	}
	return s;
}

static void kernel_say(struct dcg_symbolizer *s);
static void kmods_free(struct dcg_symbolizer *s);

void dcg_sym_free(struct dcg_symbolizer *s)
{
	size_t i;

	if (!s)
		return;
	kernel_say(s);
	cache_clear(s);
	free(s->cache);
	free(s->ftc);
	if (s->dwfl)
		dwfl_end(s->dwfl);
	if (s->kdwfl)
		dwfl_end(s->kdwfl);
	if (s->kd.found)
		dwfl_end(s->kd.found);
	kmods_free(s);
	free(s->kd.path);
	for (i = 0; i < s->nmaps; i++)
		free(s->maps[i].path);
	free(s->maps);
	for (i = 0; i < s->nksyms; i++)
		free(s->ksyms[i].name);
	free(s->ksyms);
	free(s->debuginfo_path);
	if (s->sysroot_fd >= 0)
		close(s->sysroot_fd);
	free(s);
}

static void add_map(struct dcg_symbolizer *s, const struct dcg_rec_map *m)
{
	const char *path = dcg_rec_map_path(m);
	dcg_u64 base = m->start - m->pgoff;
	struct umap *u;
	size_t i;

	if (!m->r.tid && !strcmp(path, KERNEL_MAP_PATH)) {
		s->kd.build_id_len = m->build_id_len;
		memcpy(s->kd.build_id, m->build_id, m->build_id_len);
		s->kd.done = false;	/* look for that build */
		return;
	}
	/* Only files can be opened: skip [vdso], [heap], anonymous. */
	if (path[0] != '/' || m->end <= m->start || m->pgoff > m->start)
		return;
	for (i = 0; i < s->nmaps; i++) {
		u = &s->maps[i];
		/* within 1 GiB of the same file: another segment of it */
		if (strcmp(u->path, path) == 0 &&
		    m->start < u->high + (1ull << 30) && m->end > u->low) {
			if (base < u->low)
				u->low = base;
			if (m->end > u->high)
				u->high = m->end;
			if (!u->build_id_len && m->build_id_len) {
				memcpy(u->build_id, m->build_id, m->build_id_len);
				u->build_id_len = m->build_id_len;
			}
			s->dwfl_stale = true;
			return;
		}
	}
	if (s->nmaps == s->maps_cap) {
		size_t cap = s->maps_cap ? 2 * s->maps_cap : 16;

		u = sym_realloc(s->maps, cap * sizeof(*u));
		if (!u)
			return;
		s->maps = u;
		s->maps_cap = cap;
	}
	u = &s->maps[s->nmaps];
	memset(u, 0, sizeof(*u));
	u->path = sym_strdup(path);
	if (!u->path)
		return;
	s->nmaps++;
	u->owner = s;
	u->low = base;
	u->high = m->end;
	u->build_id_len = m->build_id_len;
	memcpy(u->build_id, m->build_id, m->build_id_len);
	s->dwfl_stale = true;
}

void dcg_sym_add_record(struct dcg_symbolizer *s, const struct dcg_rec *rec)
{
	if (rec->type == DCG_REC_MAP) {
		add_map(s, (const void *)rec);
	} else if (rec->type == DCG_REC_KSYM) {
		const struct dcg_rec_ksym *k = (const void *)rec;

		add_ksym(s, k->addr, k->size, dcg_rec_ksym_name(k),
			 is_text_type(k->type));
	}
}

static void build_dwfl(struct dcg_symbolizer *s)
{
	size_t i;

	if (s->dwfl)
		dwfl_end(s->dwfl);
	s->dwfl = dwfl_begin(&s->cb);
	s->dwfl_stale = false;
	if (!s->dwfl)
		return;
	dwfl_report_begin(s->dwfl);
	for (i = 0; i < s->nmaps; i++) {
		struct umap *u = &s->maps[i];
		Dwfl_Module *mod;
		void **userdata;

		/* maps[] does not move until the next rebuild */

		mod = dwfl_report_module(s->dwfl, u->path, u->low, u->high);
		if (!mod)
			continue;
		dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL,
				 NULL);
		*userdata = u;
		if (u->build_id_len)
			dwfl_module_report_build_id(mod, u->build_id,
						    u->build_id_len, 0);
	}
	dwfl_report_end(s->dwfl, NULL, NULL);
	if (s->cache_used || s->ftc_used)
		cache_clear(s);
}

static const char *base_name(const char *path)
{
	const char *p = strrchr(path, '/');

	return p ? p + 1 : path;
}

static char *dup_printf(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static char *dup_printf(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return sym_strdup(buf);
}

static void add_srcline(Dwfl_Module *mod, Dwarf_Addr addr,
			struct dcg_symbol *y)
{
	Dwfl_Line *line = dwfl_module_getsrc(mod, addr);
	const char *file;
	int lineno = 0;

	if (!line)
		return;
	file = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL);
	if (file)
		y->srcline = dup_printf("%s:%d", file, lineno);
}

static bool is_func_scope(Dwarf_Die *die)
{
	int tag = dwarf_tag(die);

	return tag == DW_TAG_inlined_subroutine || tag == DW_TAG_subprogram;
}

/*
 * The chain of functions at @addr when it lies in inlined code,
 * innermost first, as addr2line -i gives it.  dwarf_getscopes() follows
 * the abstract origin above an inlined instance, so the concrete
 * caller of each instance is found with dwarf_getscopes_die().
 */
static void add_inlines(Dwfl_Module *mod, Dwarf_Addr addr,
			struct dcg_symbol *y)
{
	Dwarf_Addr bias = 0;
	Dwarf_Die *cu = dwfl_module_addrdie(mod, addr, &bias);
	Dwarf_Die *scopes = NULL, cur;
	char buf[1024];
	size_t len = 0;
	int n, i, hops;

	if (!cu)
		return;
	n = dwarf_getscopes(cu, addr - bias, &scopes);
	for (i = 0; i < n && !is_func_scope(&scopes[i]); i++)
		;
	if (i >= n || dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine) {
		free(scopes);
		return;
	}
	cur = scopes[i];
	free(scopes);
	buf[0] = '\0';
	for (hops = 0; hops < 64; hops++) {
		const char *name = dwarf_diename(&cur);

		if (len < sizeof(buf))
			len += snprintf(buf + len, sizeof(buf) - len, "%s%s",
					len ? " <- " : "", name ? name : "??");
		if (dwarf_tag(&cur) != DW_TAG_inlined_subroutine)
			break;
		n = dwarf_getscopes_die(&cur, &scopes);
		for (i = 1; i < n && !is_func_scope(&scopes[i]); i++)
			;
		if (i >= n) {
			free(scopes);
			break;
		}
		cur = scopes[i];
		free(scopes);
	}
	if (strstr(buf, " <- "))
		y->inlined = sym_strdup(buf);
}

static Elf_Scn *section_named(Elf *elf, size_t shstrndx, const char *want,
			      GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh->sh_name);
		if (name && !strcmp(name, want))
			return scn;
	}
	return NULL;
}

/* The relocation in section @rscn (RELA) that patches GOT slot @slot. */
static bool rela_for_slot(Elf_Scn *rscn, const GElf_Shdr *rsh,
			  GElf_Addr slot, GElf_Rela *rela)
{
	Elf_Data *data = rscn ? elf_getdata(rscn, NULL) : NULL;
	size_t i, n = rsh->sh_entsize ? rsh->sh_size / rsh->sh_entsize : 0;

	if (!data || rsh->sh_type != SHT_RELA)
		return false;
	for (i = 0; i < n; i++)
		if (gelf_getrela(data, i, rela) && rela->r_offset == slot)
			return true;
	return false;
}

/*
 * The GOT slot a stub at @entry jumps through, read from its code in
 * the file (dcg_plt.h).  An IBT .plt's entries push and jump to PLT0
 * instead (their jump through the GOT is in .plt.sec): false.
 */
static bool stub_slot(Elf_Scn *scn, const GElf_Shdr *sh, GElf_Addr entry,
		      GElf_Addr *slot)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t off = entry - sh->sh_addr;
	dcg_u64 s;

	if (!d || !d->d_buf || off >= d->d_size ||
	    !dcg_plt_slot((const dcg_u8 *)d->d_buf + off, d->d_size - off,
			  entry, &s))
		return false;
	*slot = s;
	return true;
}

/* "func@plt" from the relocation of @slot (.rela.plt, else .rela.dyn). */
static char *slot_name(Dwfl_Module *mod, Elf *elf, size_t shstrndx,
		       Dwarf_Addr bias, GElf_Addr slot)
{
	static const char *const relas[] = { ".rela.plt", ".rela.dyn" };
	GElf_Shdr rsh, symsh;
	Elf_Scn *rscn = NULL, *symscn;
	GElf_Rela rela;
	GElf_Sym sym;
	const char *name = NULL;
	size_t i;

	for (i = 0; i < DCG_ARRAY_SIZE(relas); i++) {
		rscn = section_named(elf, shstrndx, relas[i], &rsh);
		if (rscn && rela_for_slot(rscn, &rsh, slot, &rela))
			break;
	}
	if (i == DCG_ARRAY_SIZE(relas))
		return NULL;
	symscn = elf_getscn(elf, rsh.sh_link);
	if (GELF_R_SYM(rela.r_info) && symscn && gelf_getshdr(symscn, &symsh) &&
	    gelf_getsym(elf_getdata(symscn, NULL), GELF_R_SYM(rela.r_info),
			&sym))
		name = elf_strptr(elf, symsh.sh_link, sym.st_name);
	else if (rela.r_addend)
		name = dwfl_module_addrname(mod, bias + rela.r_addend);
	if (!name || !name[0])
		return NULL;
	/* "memcpy@@GLIBC_2.14" -> "memcpy" */
	return dup_printf("%.*s@plt", (int)strcspn(name, "@"), name);
}

/*
 * PLT stubs have no symbols; objdump names them "func@plt".  Do the
 * same with libelf: the stub's own jump gives its GOT slot, and the
 * relocation of that slot names the function (for IRELATIVE, its
 * addend is the ifunc).  Where the stub does not jump through the GOT
 * itself (an IBT .plt), the x86-64 psABI layout gives the slot: .plt
 * entry k (k >= 1, after the PLT0 trampoline) uses .got.plt slot
 * k + 2.  A library linked -z now may have no .got.plt at all (its
 * slots are in .got): the decoded jump still finds them.  NULL when
 * @addr is not in a stub.
 */
static char *plt_name(Dwfl_Module *mod, Dwarf_Addr addr)
{
	static const char *const plts[] = { ".plt.sec", ".plt", ".plt.got" };
	GElf_Shdr sh, gsh;
	Dwarf_Addr bias, rel;
	Elf_Scn *scn;
	size_t shstrndx, i, k, esz;
	GElf_Addr entry, slot;
	Elf *elf = dwfl_module_getelf(mod, &bias);

	if (!elf || elf_getshdrstrndx(elf, &shstrndx) < 0)
		return NULL;
	rel = addr - bias;
	for (i = 0; i < DCG_ARRAY_SIZE(plts); i++) {
		scn = section_named(elf, shstrndx, plts[i], &sh);
		if (!scn || rel < sh.sh_addr || rel >= sh.sh_addr + sh.sh_size)
			continue;
		esz = sh.sh_entsize ? sh.sh_entsize : 16;
		k = (rel - sh.sh_addr) / esz;
		if (i == 1 && k == 0)
			return NULL;	/* PLT0 */
		entry = sh.sh_addr + k * esz;
		if (!stub_slot(scn, &sh, entry, &slot)) {
			if (i != 1 ||
			    !section_named(elf, shstrndx, ".got.plt", &gsh))
				return NULL;
			slot = gsh.sh_addr + 8 * (k + 2);
		}
		return slot_name(mod, elf, shstrndx, bias, slot);
	}
	return NULL;
}

/*
 * The C++ ABI's demangler, from libstdc++: elfutils has none of its own,
 * and every C++ program on the system already links this one.
 */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len,
			    int *status);

/*
 * A malloc'ed copy of @name without its symbol version (glibc's .symtab
 * has "dladdr@@GLIBC_2.34": the version is not part of the function's
 * name), demangled when it is a C++ name.
 */
static char *symbol_name(const struct dcg_symbolizer *s, const char *name)
{
	char *bare = dup_printf("%.*s", (int)strcspn(name, "@"), name);
	char *plain;
	int status = -1;

	if (!bare)
		return NULL;
	if (s->opts.mangled || strncmp(bare, "_Z", 2))
		return bare;
	plain = __cxa_demangle(bare, NULL, NULL, &status);
	if (status == 0 && plain) {
		free(bare);
		return plain;
	}
	free(plain);
	return bare;
}

/*
 * Does the symbol libdwfl found name the code at @off past it?  A
 * function does, a sized one only up to its end: past it lies another
 * function that has no symbol, and "name+0xoff" would send the reader
 * into the wrong one.  A sizeless function symbol (assembly) keeps
 * libdwfl's bound, the next symbol.  A label with no type (ld.so's
 * _start, a marker such as _etext) names its own address only, and
 * data (a table in .text) names no code.
 */
static bool sym_covers(const GElf_Sym *sym, GElf_Off off)
{
	int type = GELF_ST_TYPE(sym->st_info);

	if (type == STT_NOTYPE)
		return off == 0;
	if (type != STT_FUNC && type != STT_GNU_IFUNC)
		return false;
	return !sym->st_size || off < sym->st_size;
}

/* Does the ELF file have a .symtab (not only .dynsym)? */
static bool has_symtab(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			return true;
	return false;
}

/*
 * The Debian package that owns @path, into @pkg: dpkg-query -S, run
 * without a shell (the path comes from the trace).  false if none.
 */
static bool owning_package(const char *path, char *pkg, size_t len)
{
	int fd[2], status;
	ssize_t n;
	pid_t pid;

	if (path[0] != '/' || strpbrk(path, "*?[]\\\n") || pipe(fd) < 0)
		return false;
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return false;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(fd[1], 1);
		if (null >= 0)
			dup2(null, 2);
		close(fd[0]);
		execlp("dpkg-query", "dpkg-query", "-S", path, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	n = read(fd[0], pkg, len - 1);
	close(fd[0]);
	waitpid(pid, &status, 0);
	if (n <= 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return false;
	pkg[n] = '\0';
	/* "zlib1g:amd64: /lib/..." or "libc6: /lib/..." */
	pkg[strcspn(pkg, ":, \n")] = '\0';
	return pkg[0] != '\0';
}

/*
 * Try @path as recorded, then across the /usr merge (dpkg knows
 * /lib/x86_64-linux-gnu/libc.so.6, processes map /usr/lib/...), then
 * the file it links to.
 */
static bool find_package(const char *path, char *pkg, size_t len)
{
	char alt[4096], *real;
	bool ok = false;
	int i;

	for (i = 0; i < 2 && !ok; i++) {
		const char *p = path;

		real = i ? realpath(path, NULL) : NULL;
		if (i && !real)
			break;
		if (real)
			p = real;
		if (owning_package(p, pkg, len))
			ok = true;
		else if (!strncmp(p, "/usr/", 5))
			ok = owning_package(p + 4, pkg, len);
		else if (snprintf(alt, sizeof(alt), "/usr%s", p) < (int)sizeof(alt))
			ok = owning_package(alt, pkg, len);
		free(real);
	}
	return ok;
}

/*
 * Has the line for @path been printed by this process?  Per process,
 * not per symbolizer: dcg-report diff has one symbolizer per trace.
 */
static bool hinted_before(const char *path)
{
	static char **paths;
	static size_t n;
	char **more, *copy;
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(paths[i], path))
			return true;
	more = sym_realloc(paths, (n + 1) * sizeof(*paths));
	if (!more)
		return false;
	paths = more;
	copy = sym_strdup(path);
	if (copy)
		paths[n++] = copy;
	return false;
}

/*
 * Once per object: an object of a Debian package with no symbol table
 * and no debuginfo found gets one line on stderr naming the package
 * that would name its functions.
 */
static void hint_package(struct umap *u, Dwfl_Module *mod)
{
	const char *debugfile = NULL;
	char pkg[256];
	Dwarf_Addr bias;
	Elf *elf;

	if (!u || u->hinted)
		return;
	u->hinted = true;
	if (hinted_before(u->path))
		return;
	elf = dwfl_module_getelf(mod, &bias);
	dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, &debugfile);
	if (!elf || has_symtab(elf) || debugfile ||
	    !find_package(u->path, pkg, sizeof(pkg)))
		return;
	dcg_warn(
		"%s has no symbols for some of its code (shown as %s+0xOFF); package %s%s would name it",
		base_name(u->path), base_name(u->path), pkg,
		strcmp(pkg, "libc6") ? "-dbgsym" : "-dbg");
}

/* "ab12..." of a recorded build-id, into @buf. */
static const char *build_id_hex(const struct umap *u, char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < u->build_id_len && n + 3 <= len; i++)
		n += snprintf(buf + n, len - n, "%02x", u->build_id[i]);
	return buf;
}

/*
 * Once per object: no file could name its code (its addresses are
 * shown as object+0xOFF).  One line on stderr, so that machine views
 * keep their output clean: which object, why each candidate failed,
 * and the options that point at the traced system's files.
 */
static void say_unusable(struct umap *u)
{
	char id[64];

	if (!u || u->hinted)
		return;
	u->hinted = true;
	if (hinted_before(u->path))
		return;
	dcg_warn(
		"%s%s%s%s: %s; its code is shown as %s+0xOFF (--sysroot DIR or --debug-dir DIR: where the traced system's files are)",
		u->path, u->build_id_len ? " (build-id " : "",
		build_id_hex(u, id, sizeof(id)), u->build_id_len ? ")" : "",
		u->problem[0] ? u->problem : "no file with its build-id",
		base_name(u->path));
}

/* "_Znwm@plt" -> "operator new(unsigned long)@plt"; frees @stub. */
static char *plt_symbol_name(const struct dcg_symbolizer *s, char *stub)
{
	size_t len = strlen(stub) - strlen("@plt");
	char *name, *plain;

	if (s->opts.mangled || strncmp(stub, "_Z", 2))
		return stub;
	stub[len] = '\0';
	name = symbol_name(s, stub);
	plain = name ? dup_printf("%s@plt", name) : NULL;
	free(name);
	free(stub);
	return plain;
}

static void resolve_user(struct dcg_symbolizer *s, dcg_u64 addr,
			 struct dcg_symbol *y)
{
	Dwfl_Module *mod;
	GElf_Off off = 0;
	GElf_Sym sym;
	const char *name, *modname;
	char *stub;
	Dwarf_Addr low, rel;

	mod = s->dwfl ? dwfl_addrmodule(s->dwfl, addr) : NULL;
	if (!mod) {
		y->func = dup_printf("0x%llx", (unsigned long long)addr);
		return;
	}
	modname = dwfl_module_info(mod, NULL, &low, NULL, NULL, NULL, NULL,
				   NULL);
	name = dwfl_module_addrinfo(mod, addr, &off, &sym, NULL, NULL, NULL);
	if (name && name[0] && sym_covers(&sym, off)) {
		y->func = symbol_name(s, name);
		y->offset = off;
		y->known = true;
	} else if ((stub = plt_name(mod, addr))) {
		y->func = plt_symbol_name(s, stub);
		y->known = true;	/* offset 0: a stub is one "function" */
		y->plt = true;
	} else {
		rel = addr;
		if (dwfl_module_relocate_address(mod, &rel) < 0)
			rel = addr - low;
		y->func = dup_printf("%s+0x%llx", base_name(modname),
				     (unsigned long long)rel);
		if (dwfl_module_getelf(mod, &low)) {
			void **userdata;

			dwfl_module_info(mod, &userdata, NULL, NULL, NULL,
					 NULL, NULL, NULL);
			hint_package(*userdata, mod);
		} else {
			void **userdata;

			dwfl_module_info(mod, &userdata, NULL, NULL, NULL,
					 NULL, NULL, NULL);
			say_unusable(*userdata);
		}
	}
	if (s->opts.srcline)
		add_srcline(mod, addr, y);
	if (s->opts.inlines)
		add_inlines(mod, addr, y);
}

static const struct ksym *find_ksym(struct dcg_symbolizer *s, dcg_u64 addr)
{
	size_t lo = 0, hi = s->nksyms;
	const struct ksym *k;
	dcg_u64 end;

	if (!s->ksyms_sorted) {
		qsort(s->ksyms, s->nksyms, sizeof(*s->ksyms), cmp_ksym);
		s->ksyms_sorted = true;
	}
	while (lo < hi) {		/* first symbol above addr */
		size_t mid = lo + (hi - lo) / 2;

		if (s->ksyms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	k = &s->ksyms[lo - 1];
	/* aliases at one address: the first text symbol, by name */
	while (k > s->ksyms && k[-1].addr == k->addr)
		k--;
	while (!k->text && k + 1 < s->ksyms + s->nksyms &&
	       k[1].addr == k->addr)
		k++;
	if (k->size)
		end = k->addr + k->size;
	else if (lo < s->nksyms)
		end = s->ksyms[lo].addr;
	else
		end = k->addr + 0x100000;	/* last one: assume 1 MiB at most */
	return addr < end && k->text ? k : NULL;
}

/*
 * Kernel file:line (issue #15).  A kernel trace has kernel code at the
 * addresses the traced kernel ran it at, which KASLR moved from the
 * vmlinux's link addresses by one offset, and it carries no kernel
 * build-id.  So a vmlinux is checked against the trace's own symbols
 * (KSYM records, --kallsyms, --system-map): every core-kernel symbol
 * whose name the vmlinux has exactly once must lie at one and the same
 * offset from it, and that offset is the bias.  KASLR moves the kernel
 * by a multiple of CONFIG_PHYSICAL_ALIGN, which x86-64 requires to be
 * a multiple of 2 MiB, so any other offset is another build too.
 * Another build fails (its functions are elsewhere, or all moved by a
 * few bytes) and names nothing.
 */
#define KASLR_ALIGN	0x200000ull
struct kname {
	const char *name;
	dcg_u64 addr;		/* in the trace */
	dcg_u64 link;		/* in the vmlinux */
	unsigned int hits;	/* vmlinux symbols of that name */
};

static int cmp_kname(const void *a, const void *b)
{
	return strcmp(((const struct kname *)a)->name,
		      ((const struct kname *)b)->name);
}

static int cmp_u64(const void *a, const void *b)
{
	dcg_u64 x = *(const dcg_u64 *)a, y = *(const dcg_u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * The trace's core-kernel text symbols, sorted by name.  A name it has
 * at two addresses (static functions of two files) says nothing.
 */
static struct kname *trace_knames(const struct dcg_symbolizer *s, size_t *n)
{
	struct kname *v = sym_realloc(NULL, (s->nksyms + 1) * sizeof(*v));
	size_t i, j, e, m = 0;
	bool one;

	*n = 0;
	if (!v)
		return NULL;

	for (i = 0; i < s->nksyms; i++) {
		const struct ksym *k = &s->ksyms[i];

		if (!k->text || strchr(k->name, ' '))	/* "name [module]" */
			continue;
		memset(&v[m], 0, sizeof(v[m]));
		v[m].name = k->name;
		v[m++].addr = k->addr;
	}
	qsort(v, m, sizeof(*v), cmp_kname);
	for (i = j = 0; i < m; i = e) {
		one = true;
		for (e = i + 1; e < m && !strcmp(v[e].name, v[i].name); e++)
			one &= v[e].addr == v[i].addr;
		if (one)
			v[j++] = v[i];
	}
	*n = j;
	return v;
}

/* Note in @v each symbol of @mod that has a name of @v. */
static void knames_match(Dwfl_Module *mod, struct kname *v, size_t n)
{
	int i, nsym = dwfl_module_getsymtab(mod);

	for (i = 1; i < nsym; i++) {
		struct kname key, *k;
		GElf_Addr addr;
		GElf_Sym sym;
		int type;

		key.name = dwfl_module_getsym_info(mod, i, &sym, &addr, NULL,
						   NULL, NULL);
		type = GELF_ST_TYPE(sym.st_info);
		if (!key.name || !key.name[0] || type == STT_SECTION ||
		    type == STT_FILE || sym.st_shndx == SHN_UNDEF)
			continue;
		k = bsearch(&key, v, n, sizeof(*v), cmp_kname);
		if (k) {
			k->hits++;
			k->link = addr;
		}
	}
}

/*
 * Does @mod's build-id say it is another build than the traced kernel?
 * Only when both are known; why in @why.
 */
static bool kernel_other_build(const struct dcg_symbolizer *s,
			       Dwfl_Module *mod, char *why, size_t len)
{
	const unsigned char *bits;
	char have[64], want[64];
	GElf_Addr vaddr;
	int n, i;

	if (!s->kd.build_id_len)
		return false;
	n = dwfl_module_build_id(mod, &bits, &vaddr);
	if (n <= 0 || (n == s->kd.build_id_len &&
		       !memcmp(bits, s->kd.build_id, n)))
		return false;
	have[0] = want[0] = '\0';
	for (i = 0; i < n && i < 24; i++)
		sprintf(have + 2 * i, "%02x", bits[i]);
	for (i = 0; i < s->kd.build_id_len; i++)
		sprintf(want + 2 * i, "%02x", s->kd.build_id[i]);
	snprintf(why, len, "its build-id is %s, the traced kernel's %s",
		 have, want);
	return true;
}

/*
 * Is @mod the traced kernel?  0 with the offset in @bias if its
 * build-id is not another one and all the trace's kernel symbols it
 * has once are at one offset from it; -1 if not, why in @why; 1 if the
 * trace has no kernel symbols to tell.
 */
static int kernel_check(const struct dcg_symbolizer *s, Dwfl_Module *mod,
			dcg_u64 *bias, char *why, size_t len)
{
	size_t n, i, m = 0, best = 0, run;
	struct kname *v;
	dcg_u64 *delta;

	if (kernel_other_build(s, mod, why, len))
		return -1;
	v = trace_knames(s, &n);
	if (!v) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	if (!n) {
		free(v);
		snprintf(why, len, "the trace has no kernel symbols to check it against");
		return 1;
	}
	knames_match(mod, v, n);
	delta = sym_realloc(NULL, n * sizeof(*delta));
	if (!delta) {
		free(v);
		snprintf(why, len, "out of memory");
		return -1;
	}
	for (i = 0; i < n; i++)
		if (v[i].hits == 1)
			delta[m++] = v[i].addr - v[i].link;
	qsort(delta, m, sizeof(*delta), cmp_u64);
	for (i = 0; i < m; i += run) {
		for (run = 1; i + run < m && delta[i + run] == delta[i]; run++)
			;
		if (run > best) {
			best = run;
			*bias = delta[i];
		}
	}
	free(delta);
	free(v);
	if (m && best == m && !(*bias % KASLR_ALIGN))
		return 0;
	if (m && best == m)
		snprintf(why, len, "its symbols are 0x%llx bytes off the trace's, not a KASLR offset",
			 (unsigned long long)*bias);
	else if (m)
		snprintf(why, len, "%zu of the %zu trace symbols it has are not where the trace has them",
			 m - best, m);
	else
		snprintf(why, len, "it has none of the trace's %zu kernel symbols", n);
	return -1;
}

/* One line on stderr, once per process for each @key. */
static void say_once(const char *key, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say_once(const char *key, const char *fmt, ...)
{
	va_list ap;

	if (hinted_before(key))
		return;
	va_start(ap, fmt);
	dcg_vwarn(fmt, ap);
	va_end(ap);
}

/*
 * What to say about kernel file:line, kept until the end (kernel_say()):
 * KSYM records may come after the lookups (a binary kernel trace has
 * them last), and the line must describe how it ended.
 */
static void kd_note(struct dcg_symbolizer *s, const char *key,
		    const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void kd_note(struct dcg_symbolizer *s, const char *key,
		    const char *fmt, ...)
{
	va_list ap;

	s->kd.key = key;
	va_start(ap, fmt);
	vsnprintf(s->kd.msg, sizeof(s->kd.msg), fmt, ap);
	va_end(ap);
}

/* A module's .ko that is not of the traced kernel's build. */
static void kd_note_module(struct dcg_symbolizer *s, const char *module,
			   const char *path)
{
	char key[300];

	snprintf(key, sizeof(key), "\1kmod %s", module);
	say_once(key, "%s: not the traced [%s] (its functions are not where the trace has them) or no DWARF in it; its code has no file:line",
		 path, module);
}

static bool has_dwarf(Dwfl_Module *mod)
{
	Dwarf_Addr bias;

	return dwfl_module_getdwarf(mod, &bias) != NULL;
}

static Dwfl *kernel_open(struct dcg_symbolizer *s, const char *path,
			 Dwfl_Module **mod)
{
	Dwfl *d = dwfl_begin(&s->cb);

	if (!d)
		return NULL;
	*mod = dwfl_report_elf(d, "kernel", path, -1, 0, false);
	dwfl_report_end(d, NULL, NULL);
	if (!*mod) {
		dwfl_end(d);
		return NULL;
	}
	return d;
}

/* Where distributions install the DWARF vmlinux, under a debug dir. */
static const char *const kernel_places[] = {
	"boot/vmlinux-*",		/* Debian, Ubuntu: linux-image-*-dbg */
	"lib/modules/*/vmlinux",	/* Fedora: kernel-debuginfo */
	"vmlinux-*", "vmlinux",		/* a directory of them */
};

/*
 * Try the files at @pattern under @dir: the first one with DWARF that
 * is the traced kernel becomes s->kd's.  The first failure is kept in
 * @first for the message.  true when found.
 */
static bool kernel_try(struct dcg_symbolizer *s, const char *dir,
		       const char *pattern, char *first, size_t len,
		       unsigned int *tried)
{
	char path[4096], why[256];
	Dwfl_Module *mod;
	glob_t g;
	size_t i;
	Dwfl *d;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", dir, pattern);
	if (glob(path, 0, NULL, &g))
		return false;
	for (i = 0; i < g.gl_pathc; i++) {
		d = kernel_open(s, g.gl_pathv[i], &mod);
		if (!d)
			continue;
		(*tried)++;
		rc = kernel_check(s, mod, &s->kd.bias, why, sizeof(why));
		if (!rc && has_dwarf(mod)) {
			s->kd.found = d;
			s->kd.found_mod = mod;
			s->kd.mod = mod;
			free(s->kd.path);
			s->kd.path = sym_strdup(g.gl_pathv[i]);
			globfree(&g);
			return true;
		}
		if (!first[0])
			snprintf(first, len, "%s: %s", g.gl_pathv[i],
				 rc ? why : "no DWARF in it");
		dwfl_end(d);
	}
	globfree(&g);
	return false;
}

/*
 * In each debug dir, the traced kernel's build-id path comes first
 * (.build-id/xx/rest.debug, as Fedora's kernel-debuginfo installs
 * vmlinux; Debian's -dbg package has only boot/vmlinux-VERSION).
 */
static bool kernel_try_build_id(struct dcg_symbolizer *s, const char *dir,
				char *first, size_t len, unsigned int *tried)
{
	char pat[128];
	int i, n;

	if (!s->kd.build_id_len)
		return false;
	n = snprintf(pat, sizeof(pat), ".build-id/%02x/", s->kd.build_id[0]);
	for (i = 1; i < s->kd.build_id_len; i++)
		n += snprintf(pat + n, sizeof(pat) - n, "%02x",
			      s->kd.build_id[i]);
	snprintf(pat + n, sizeof(pat) - n, ".debug");
	if (kernel_try(s, dir, pat, first, len, tried))
		return true;
	pat[n] = '\0';
	return kernel_try(s, dir, pat, first, len, tried);
}

/*
 * The DWARF vmlinux of the traced kernel where distributions install
 * it: under each --debug-dir, under --sysroot's /usr/lib/debug, under
 * /usr/lib/debug; by the build-id the trace's kernel MAP gives, then
 * by name.  Every candidate must pass kernel_check(): its build-id, if
 * the trace has one, and the trace's kernel symbols.
 */
static void kernel_search(struct dcg_symbolizer *s)
{
	char *dirs, *dir, *save = NULL, first[1024] = "";
	unsigned int tried = 0;
	size_t i, n;

	/* new KSYMs: the one found before, if they agree with it too */
	if (s->kd.found && !kernel_check(s, s->kd.found_mod, &s->kd.bias,
					 first, sizeof(first))) {
		s->kd.mod = s->kd.found_mod;
		return;
	}
	first[0] = '\0';
	if (s->kd.found)
		dwfl_end(s->kd.found);
	s->kd.found = NULL;
	kmods_free(s);		/* they went with that vmlinux */
	free(s->kd.path);
	s->kd.path = NULL;
	n = 64 + (s->opts.debuginfo_path ? strlen(s->opts.debuginfo_path) : 0) +
	    (s->opts.sysroot ? strlen(s->opts.sysroot) : 0);
	dirs = sym_realloc(NULL, n);
	if (!dirs)
		return;
	snprintf(dirs, n, "%s%s%s%s/usr/lib/debug",
		 s->opts.debuginfo_path ? s->opts.debuginfo_path : "",
		 s->opts.debuginfo_path ? ":" : "",
		 s->opts.sysroot ? s->opts.sysroot : "",
		 s->opts.sysroot ? "/usr/lib/debug:" : "");
	for (dir = strtok_r(dirs, ":", &save); dir;
	     dir = strtok_r(NULL, ":", &save)) {
		if (kernel_try_build_id(s, dir, first, sizeof(first), &tried)) {
			free(dirs);
			return;
		}
		for (i = 0; i < DCG_ARRAY_SIZE(kernel_places); i++)
			if (kernel_try(s, dir, kernel_places[i], first,
				       sizeof(first), &tried)) {
				free(dirs);
				return;
			}
	}
	free(dirs);
	if (s->opts.srcline_implied && !s->opts.inlines)
		return;		/* not asked for: nothing to say */
	if (tried)
		kd_note(s, "\1ksearch",
			"no DWARF vmlinux of the traced kernel (%u tried; %s); kernel code has no file:line (--vmlinux FILE, --debug-dir DIR)",
			tried, first);
	else
		kd_note(s, "\1ksearch",
			"no DWARF vmlinux found (boot/vmlinux-VERSION, lib/modules/VERSION/vmlinux under /usr/lib/debug%s%s); kernel code has no file:line (--vmlinux FILE, --debug-dir DIR)",
			s->opts.debuginfo_path || s->opts.sysroot ? " and " : "",
			s->opts.debuginfo_path || s->opts.sysroot ?
			"the --debug-dir/--sysroot dirs" : "");
}

/* --vmlinux FILE: that one, if it is the traced kernel's. */
static void kernel_given(struct dcg_symbolizer *s)
{
	char why[256];
	int rc;

	if (dwfl_module_getsymtab(s->kvmod) <= 0) {
		kd_note(s, "\1kgiven",
			"--vmlinux %s: no symbol table in it or in debuginfo found for it (a stripped vmlinux? the -dbg package's /usr/lib/debug/boot/vmlinux-VERSION has both); no names or file:line from it",
			s->opts.vmlinux);
		return;
	}
	rc = kernel_check(s, s->kvmod, &s->kd.bias, why, sizeof(why));
	if (rc < 0) {
		kd_note(s, "\1kgiven",
			"--vmlinux %s: not the traced kernel (%s); no names or file:line from it",
			s->opts.vmlinux, why);
		return;
	}
	if (rc > 0) {	/* nothing to check it against: as it is */
		s->kd.bias = 0;
		kd_note(s, "\1kunchecked",
			"--vmlinux %s: the trace has no kernel symbols to check it against; its addresses are taken as they are (no KASLR offset)",
			s->opts.vmlinux);
	}
	s->kd.mod = s->kvmod;
	if (!s->kd.path)
		s->kd.path = sym_strdup(s->opts.vmlinux);
	if ((s->opts.srcline || s->opts.inlines) && !has_dwarf(s->kvmod))
		kd_note(s, "\1kdwarf",
			"--vmlinux %s: no DWARF in it (the -dbg package's /usr/lib/debug/boot/vmlinux-VERSION has it); kernel code has no file:line",
			s->opts.vmlinux);
}

/* s->kd for the KSYMs known so far. */
static void kernel_locate(struct dcg_symbolizer *s)
{
	if (s->kd.done)
		return;
	s->kd.done = true;
	s->kd.mod = NULL;
	s->kd.msg[0] = '\0';
	if (s->kvmod)
		kernel_given(s);
	else
		kernel_search(s);
}

/*
 * The vmlinux module that holds kernel address @addr, and the address
 * in it (@rel); NULL if none.
 */
static Dwfl_Module *kernel_module(struct dcg_symbolizer *s, dcg_u64 addr,
				  Dwarf_Addr *rel)
{
	Dwarf_Addr low, high;

	s->kd.wanted = true;
	kernel_locate(s);
	if (!s->kd.mod)
		return NULL;
	*rel = addr - s->kd.bias;
	dwfl_module_info(s->kd.mod, NULL, &low, &high, NULL, NULL, NULL,
			 NULL);
	return *rel >= low && *rel < high ? s->kd.mod : NULL;
}

/*
 * Kernel modules.  A module's code has file:line from its NAME.ko with
 * DWARF in the same package as the vmlinux (Debian's -dbg package has
 * them under lib/modules/VERSION/ next to boot/vmlinux-VERSION; Fedora
 * puts the vmlinux in that directory), so that it is of the same build.
 * Module code is placed per section by the loader: an address is taken
 * relative to the function its KSYM record names, and that function's
 * symbol in the .ko gives the place in its DWARF.  The .ko is used only
 * if every two of the trace's functions of the module that share a
 * section are as far apart in the .ko as in the trace.
 */
static void kmods_free(struct dcg_symbolizer *s)
{
	size_t i;

	for (i = 0; i < s->kd.nmods; i++) {
		if (s->kd.mods[i].dwfl)
			dwfl_end(s->kd.mods[i].dwfl);
		free(s->kd.mods[i].name);
	}
	free(s->kd.mods);
	s->kd.mods = NULL;
	s->kd.nmods = 0;
}

/* The modules' directory of the package the vmlinux at @path is in. */
static bool kmods_dir(const char *path, char *dir, size_t len)
{
	const char *b = strstr(path, "/boot/vmlinux-");
	size_t n = strlen(path);

	if (b && !strchr(b + strlen("/boot/vmlinux-"), '/'))
		return snprintf(dir, len, "%.*s/lib/modules/%s", (int)(b - path),
				path, b + strlen("/boot/vmlinux-")) < (int)len;
	if (n > strlen("/vmlinux") && !strcmp(path + n - 8, "/vmlinux") &&
	    strstr(path, "/lib/modules/"))
		return snprintf(dir, len, "%.*s", (int)(n - 8), path) <
		       (int)len;
	return false;
}

/* "ext4" and "ext4.ko" or "ext4.ko.debug"; '-' and '_' are one. */
static bool ko_named(const char *file, const char *name)
{
	size_t i, n = strlen(name);

	for (i = 0; i < n; i++) {
		char a = file[i] == '-' ? '_' : file[i];
		char b = name[i] == '-' ? '_' : name[i];

		if (!a || a != b)
			return false;
	}
	return !strcmp(file + n, ".ko") || !strcmp(file + n, ".ko.debug");
}

/*
 * The first file under @dir (down to @depth levels) named for @module;
 * malloc'ed, or NULL.  The -dbg package has them at kernel/fs/ext4/.
 */
static char *ko_find(const char *dir, const char *module, int depth)
{
	char path[4096], *found = NULL;
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d)
		return NULL;
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] == '.' ||
		    snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >=
		    (int)sizeof(path))
			continue;
		if (e->d_type != DT_DIR && ko_named(e->d_name, module))
			found = sym_strdup(path);
		else if ((e->d_type == DT_DIR || e->d_type == DT_UNKNOWN) &&
			 depth > 0)
			found = ko_find(path, module, depth - 1);
	}
	closedir(d);
	return found;
}

/* The symbol @name of @mod, once: its address, and its section. */
static bool ko_symbol(Dwfl_Module *mod, const char *name, GElf_Addr *addr,
		      GElf_Sym *sym)
{
	int i, hits = 0, n = dwfl_module_getsymtab(mod);
	GElf_Addr a;
	GElf_Sym y;

	for (i = 1; i < n; i++) {
		const char *nm = dwfl_module_getsym_info(mod, i, &y, &a, NULL,
							 NULL, NULL);

		if (nm && !strcmp(nm, name) && GELF_ST_TYPE(y.st_info) ==
		    STT_FUNC && y.st_shndx != SHN_UNDEF) {
			*addr = a;
			*sym = y;
			hits++;
		}
	}
	return hits == 1;
}

/* "func [module]" -> "func" into @buf, if it is @module's. */
static bool ksym_of(const struct ksym *k, const char *module, char *buf,
		    size_t len)
{
	const char *sp = strchr(k->name, ' ');
	size_t n = strlen(module);

	if (!sp || strncmp(sp + 2, module, n) || strcmp(sp + 2 + n, "]") ||
	    (size_t)(sp - k->name) >= len)
		return false;
	memcpy(buf, k->name, sp - k->name);
	buf[sp - k->name] = '\0';
	return true;
}

/*
 * Do the trace's functions of @module lie in the .ko as they do in the
 * trace, section by section?  Each section's first one found sets the
 * offset; every other one of that section must have it.
 */
static bool kmod_check(const struct dcg_symbolizer *s, const char *module,
		       Dwfl_Module *mod)
{
	struct { GElf_Half shndx; dcg_u64 delta; } seen[64];
	size_t i, j, nseen = 0;
	char name[512];
	GElf_Addr a;
	GElf_Sym y;

	for (i = 0; i < s->nksyms; i++) {
		const struct ksym *k = &s->ksyms[i];

		if (!k->text || !ksym_of(k, module, name, sizeof(name)) ||
		    !ko_symbol(mod, name, &a, &y))
			continue;
		for (j = 0; j < nseen && seen[j].shndx != y.st_shndx; j++)
			;
		if (j == nseen && nseen < DCG_ARRAY_SIZE(seen)) {
			seen[nseen].shndx = y.st_shndx;
			seen[nseen++].delta = k->addr - a;
		} else if (j < nseen && seen[j].delta != k->addr - a) {
			return false;
		}
	}
	return nseen > 0;
}

/*
 * @module's debug file, found and checked on first use; NULL if none
 * (@said: a line said why).
 */
static Dwfl_Module *kmod_get(struct dcg_symbolizer *s, const char *module,
			     bool *said)
{
	struct kmoddbg *m;
	char dir[4096], *ko;
	size_t i;

	for (i = 0; i < s->kd.nmods; i++)
		if (!strcmp(s->kd.mods[i].name, module)) {
			*said = s->kd.mods[i].said;
			return s->kd.mods[i].mod;
		}
	*said = false;
	m = sym_realloc(s->kd.mods, (s->kd.nmods + 1) * sizeof(*m));
	if (!m)
		return NULL;
	s->kd.mods = m;
	m = &s->kd.mods[s->kd.nmods];
	memset(m, 0, sizeof(*m));
	m->name = sym_strdup(module);
	if (!m->name)
		return NULL;
	s->kd.nmods++;
	if (!s->kd.path || !kmods_dir(s->kd.path, dir, sizeof(dir)))
		return NULL;
	ko = ko_find(dir, module, 8);
	if (!ko)
		return NULL;
	m->dwfl = dwfl_begin(&s->cb);
	if (m->dwfl) {
		m->mod = dwfl_report_offline(m->dwfl, module, ko, -1);
		dwfl_report_end(m->dwfl, NULL, NULL);
	}
	if (m->mod && (!kmod_check(s, module, m->mod) || !has_dwarf(m->mod))) {
		kd_note_module(s, module, ko);
		m->mod = NULL;
		m->said = *said = true;
	}
	free(ko);
	return m->mod;
}

/*
 * The module debug file for kernel address @addr in the function that
 * KSYM @k names ("func [module]"), and the address in it; NULL if none.
 */
static Dwfl_Module *kmod_module(struct dcg_symbolizer *s,
				const struct ksym *k, dcg_u64 addr,
				Dwarf_Addr *rel)
{
	char module[256], name[512];
	const char *sp = strchr(k->name, ' ');
	Dwfl_Module *mod;
	bool said;
	GElf_Addr a;
	GElf_Sym y;

	if (!sp || sp[1] != '[' || strlen(sp + 2) >= sizeof(module) ||
	    (size_t)(sp - k->name) >= sizeof(name))
		return NULL;
	snprintf(module, sizeof(module), "%.*s", (int)strlen(sp + 2) - 1,
		 sp + 2);
	snprintf(name, sizeof(name), "%.*s", (int)(sp - k->name), k->name);
	kernel_locate(s);
	if (!s->kd.mod)
		return NULL;
	mod = kmod_get(s, module, &said);
	/* said at the end, if no line said why (kernel_say()) */
	if (!mod && !said && !s->kd.module[0])
		snprintf(s->kd.module, sizeof(s->kd.module), "[%s]", module);
	if (!mod || !ko_symbol(mod, name, &a, &y) ||
	    (y.st_size && addr - k->addr >= y.st_size))
		return NULL;
	*rel = a + (addr - k->addr);
	return mod;
}

/*
 * At the end: one line on why kernel code had no file:line, for the
 * vmlinux as the whole trace's KSYM records found it; and that modules'
 * code has none, when the vmlinux's code had it.
 */
static void kernel_say(struct dcg_symbolizer *s)
{
	if (!s->kd.wanted && !s->kd.module[0])
		return;
	kernel_locate(s);
	if (s->kd.msg[0])
		say_once(s->kd.key, "%s", s->kd.msg);
	if (s->kd.mod && s->kd.module[0] && !s->opts.srcline_implied)
		say_once("\1kmodule",
			 "kernel module code (%s) has no file:line: no NAME.ko with DWARF in lib/modules/VERSION/ of the vmlinux's package",
			 s->kd.module);
}

static void resolve_kernel(struct dcg_symbolizer *s, dcg_u64 addr,
			   struct dcg_symbol *y)
{
	const struct ksym *k = s->nksyms ? find_ksym(s, addr) : NULL;
	bool dwarf = s->opts.srcline || s->opts.inlines;
	const char *name = NULL, *kmod = k ? strchr(k->name, ' ') : NULL;
	Dwfl_Module *mod = NULL;
	Dwarf_Addr rel = 0;
	GElf_Off off = 0;
	GElf_Sym sym;

	if (kmod && dwarf) {
		mod = kmod_module(s, k, addr, &rel);
	} else if (!kmod && (dwarf || (!k && s->kvmod))) {
		mod = kernel_module(s, addr, &rel);
	}
	if (k) {
		y->func = sym_strdup(k->name);
		y->offset = addr - k->addr;
		y->known = true;
	} else if (mod && (name = dwfl_module_addrinfo(mod, rel, &off, &sym,
							NULL, NULL, NULL))) {
		y->func = sym_strdup(name);
		y->offset = off;
		y->known = true;
	} else {
		y->func = dup_printf("0x%llx", (unsigned long long)addr);
	}
	if (mod && s->opts.srcline)
		add_srcline(mod, rel, y);
	if (mod && s->opts.inlines)
		add_inlines(mod, rel, y);
}

/* Twice the room, or false (the cache as it was) when there is none. */
static bool cache_grow(struct dcg_symbolizer *s)
{
	struct cache_ent *old = s->cache;
	size_t i, cap = s->cache_cap;
	struct cache_ent *grown = sym_realloc(NULL, 2 * cap * sizeof(*grown));

	if (!grown)
		return false;
	s->cache = grown;
	s->cache_cap *= 2;
	memset(s->cache, 0, s->cache_cap * sizeof(*s->cache));
	for (i = 0; i < cap; i++) {
		size_t j;

		if (!old[i].used)
			continue;
		j = (size_t)dcg_hash64(old[i].addr) & (s->cache_cap - 1);
		while (s->cache[j].used)
			j = (j + 1) & (s->cache_cap - 1);
		s->cache[j] = old[i];
	}
	free(old);
	return true;
}

const struct dcg_symbol *dcg_sym_lookup(struct dcg_symbolizer *s,
					dcg_u64 addr)
{
	struct cache_ent *e;
	size_t j;

	if (s->dwfl_stale && !dcg_addr_is_kernel(addr))
		build_dwfl(s);
	if (2 * (s->cache_used + 1) > s->cache_cap && !cache_grow(s))
		return &nomem_sym;	/* not cached: no earlier one is freed */
	j = (size_t)dcg_hash64(addr) & (s->cache_cap - 1);
	while (s->cache[j].used) {
		if (s->cache[j].addr == addr)
			return &s->cache[j].sym;
		j = (j + 1) & (s->cache_cap - 1);
	}
	e = &s->cache[j];
	e->used = true;
	e->addr = addr;
	s->cache_used++;
	if (dcg_addr_is_kernel(addr))
		resolve_kernel(s, addr, &e->sym);
	else
		resolve_user(s, addr, &e->sym);
	if (!e->sym.func)
		e->sym.func = nomem_name;
	return &e->sym;
}

/* Up to @len bytes of the section of @elf that holds @rel (file-relative). */
static int section_bytes(Elf *elf, GElf_Addr rel, void *buf, unsigned int len)
{
	Elf_Scn *scn = NULL;
	Elf_Data *d;
	GElf_Shdr sh;
	size_t n;

	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS ||
		    !(sh.sh_flags & SHF_ALLOC) ||
		    rel < sh.sh_addr || rel >= sh.sh_addr + sh.sh_size)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || rel - sh.sh_addr >= d->d_size)
			return 0;
		n = d->d_size - (rel - sh.sh_addr);
		n = n < len ? n : len;
		memcpy(buf, (const char *)d->d_buf + (rel - sh.sh_addr), n);
		return n;
	}
	return 0;
}

int dcg_sym_code(struct dcg_symbolizer *s, dcg_u64 addr, void *buf,
		 unsigned int len)
{
	Dwfl_Module *m;
	Dwarf_Addr bias;
	Elf *elf;

	Dwarf_Addr rel;

	/*
	 * Kernel code from the traced kernel's vmlinux: the bytes as built,
	 * before the kernel patched its alternatives and static keys in
	 * place (a patched site keeps its length, so only the instructions
	 * inside it may be split otherwise; they share its line).
	 */
	if (dcg_addr_is_kernel(addr)) {
		m = kernel_module(s, addr, &rel);
		elf = m ? dwfl_module_getelf(m, &bias) : NULL;
		return elf ? section_bytes(elf, rel - bias, buf, len) : 0;
	}
	if (s->dwfl_stale)
		build_dwfl(s);
	m = s->dwfl ? dwfl_addrmodule(s->dwfl, addr) : NULL;
	elf = m ? dwfl_module_getelf(m, &bias) : NULL;
	if (!elf)
		return 0;
	return section_bytes(elf, addr - bias, buf, len);
}

const char *dcg_sym_object(struct dcg_symbolizer *s, dcg_u64 addr)
{
	const char *name, *mod;
	Dwfl_Module *m;

	if (dcg_addr_is_kernel(addr)) {
		/* a module's symbols are named "name [module]" (add_ksym) */
		name = dcg_sym_lookup(s, addr)->func;
		mod = name ? strstr(name, " [") : NULL;
		return mod ? mod + 1 : "vmlinux";
	}
	if (s->dwfl_stale)
		build_dwfl(s);
	m = s->dwfl ? dwfl_addrmodule(s->dwfl, addr) : NULL;
	name = m ? dwfl_module_info(m, NULL, NULL, NULL, NULL, NULL, NULL,
				    NULL) : NULL;
	return name ? base_name(name) : NULL;
}

const char *dcg_sym_format(const struct dcg_symbol *sym, char *buf,
			   size_t len)
{
	if (sym->known && sym->offset)
		snprintf(buf, len, "%s+0x%llx", sym->func,
			 (unsigned long long)sym->offset);
	else
		snprintf(buf, len, "%s", sym->func);
	return buf;
}

/*
 * Function types from DWARF (issue #17).  A function's parameters are
 * the DW_TAG_formal_parameter children of the subprogram whose entry pc
 * is the called address; each is classified as the SysV x86-64 ABI
 * passes it, so that the views know which integer register holds it.
 * Cached per address in a table of its own, emptied with the names.
 */

/* typedef, const, volatile, restrict, atomic: the type under them. */
static bool peel_type(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute at;
	int hops;

	*out = *die;
	for (hops = 0; hops < 64; hops++) {
		int tag = dwarf_tag(out);

		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type &&
		    tag != DW_TAG_volatile_type && tag != DW_TAG_restrict_type &&
		    tag != DW_TAG_atomic_type)
			return true;
		if (!dwarf_attr_integrate(out, DW_AT_type, &at) ||
		    !dwarf_formref_die(&at, out))
			return false;	/* const void */
	}
	return false;
}

/* The (peeled) type of @die's DW_AT_type; false for void. */
static bool type_of(Dwarf_Die *die, Dwarf_Die *type)
{
	Dwarf_Attribute at;
	Dwarf_Die t;

	if (!dwarf_attr_integrate(die, DW_AT_type, &at) ||
	    !dwarf_formref_die(&at, &t))
		return false;
	return peel_type(&t, type);
}

static unsigned int die_size(Dwarf_Die *die)
{
	Dwarf_Word w;
	Dwarf_Attribute at;

	if (dwarf_attr_integrate(die, DW_AT_byte_size, &at) &&
	    !dwarf_formudata(&at, &w))
		return w < 256 ? w : 255;
	return 0;
}

static int die_encoding(Dwarf_Die *die)
{
	Dwarf_Attribute at;
	Dwarf_Word w;

	if (dwarf_attr_integrate(die, DW_AT_encoding, &at) &&
	    !dwarf_formudata(&at, &w))
		return w;
	return -1;
}

/* SysV eightbyte classes, merged as the ABI merges them. */
#define CL_NONE		0
#define CL_SSE		1
#define CL_INT		2
#define CL_MEM		3

static void class_merge(int *cl, int add)
{
	if (add > *cl)
		*cl = add;
}

static void classify_at(Dwarf_Die *type, unsigned int off, int cl[2],
			int depth);

/* Each member of a struct or union at its offset. */
static void classify_members(Dwarf_Die *agg, unsigned int off, int cl[2],
			     int depth)
{
	Dwarf_Die child, mt;
	Dwarf_Attribute at;
	Dwarf_Word moff;

	if (dwarf_child(agg, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);

		/* members, and the base classes of a C++ class */
		if ((tag != DW_TAG_member && tag != DW_TAG_inheritance) ||
		    dwarf_hasattr(&child, DW_AT_external))
			continue;
		moff = 0;
		if (dwarf_attr(&child, DW_AT_data_member_location, &at))
			dwarf_formudata(&at, &moff);
		if (dwarf_hasattr(&child, DW_AT_bit_size)) {
			Dwarf_Word bit = 0;

			/* a bit-field is integer class where it starts */
			if (dwarf_attr(&child, DW_AT_data_bit_offset, &at) &&
			    !dwarf_formudata(&at, &bit))
				moff = bit / 8;
			class_merge(&cl[(off + moff) / 8 > 1 ? 1 : (off + moff) / 8],
				    CL_INT);
			continue;
		}
		if (type_of(&child, &mt))
			classify_at(&mt, off + moff, cl, depth + 1);
	} while (dwarf_siblingof(&child, &child) == 0);
}

/*
 * The class of each eightbyte a value of @type at byte @off covers:
 * float and double are SSE, long double is memory (x87), the rest
 * integer; a misaligned field makes it all memory.
 */
static void classify_at(Dwarf_Die *type, unsigned int off, int cl[2],
			int depth)
{
	unsigned int size = die_size(type), i;
	int tag = dwarf_tag(type);
	Dwarf_Die et;

	if (depth > 16 || off >= 16) {
		cl[0] = cl[1] = CL_MEM;
		return;
	}
	switch (tag) {
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
		classify_members(type, off, cl, depth);
		return;
	case DW_TAG_array_type:
		if (type_of(type, &et) && die_size(&et)) {
			unsigned int es = die_size(&et);

			for (i = 0; es && i + es <= size && off + i < 16; i += es)
				classify_at(&et, off + i, cl, depth + 1);
		}
		return;
	case DW_TAG_base_type:
		if (die_encoding(type) == DW_ATE_float) {
			class_merge(&cl[off / 8], size > 8 ? CL_MEM : CL_SSE);
			return;
		}
		break;
	}
	if (size && off % size) {
		cl[0] = cl[1] = CL_MEM;
		return;
	}
	for (i = off / 8; i < 2 && i * 8 < off + (size ? size : 8); i++)
		class_merge(&cl[i], CL_INT);
}

/* A struct or union by value: in 0, 1 or 2 integer registers. */
static void classify_agg(Dwarf_Die *type, struct dcg_vtype *vt)
{
	int cl[2] = { CL_NONE, CL_NONE };

	Dwarf_Attribute at;
	Dwarf_Word cc;

	vt->kind = DCG_V_AGG;
	vt->size = die_size(type);
	vt->nregs = 0;
	/* C++ objects not trivially copyable go by invisible reference */
	if (dwarf_attr_integrate(type, DW_AT_calling_convention, &at) &&
	    !dwarf_formudata(&at, &cc) && cc == DW_CC_pass_by_reference) {
		vt->nregs = 1;
		vt->memory = true;	/* and come back through rdi */
		return;
	}
	if (vt->size > 16) {
		vt->memory = true;
		return;
	}
	if (!vt->size)
		return;			/* an empty struct: nothing at all */
	classify_members(type, 0, cl, 0);
	if (cl[0] == CL_MEM || cl[1] == CL_MEM) {
		vt->memory = true;
		return;
	}
	vt->nregs = (cl[0] == CL_INT) + (vt->size > 8 && cl[1] == CL_INT);
}

static void enum_values(Dwarf_Die *type, struct dcg_vtype *vt)
{
	struct dcg_enumerator *e = NULL, *more;
	Dwarf_Attribute at;
	Dwarf_Die child;
	unsigned int n = 0;

	if (dwarf_child(type, &child) != 0)
		return;
	do {
		Dwarf_Sword v;
		const char *name = dwarf_diename(&child);

		if (dwarf_tag(&child) != DW_TAG_enumerator || !name ||
		    !dwarf_attr(&child, DW_AT_const_value, &at) ||
		    dwarf_formsdata(&at, &v))
			continue;
		more = sym_realloc(e, (n + 1) * sizeof(*e));
		if (!more)
			break;
		e = more;
		e[n].name = sym_strdup(name);
		if (!e[n].name)
			break;
		e[n++].value = v;
		if (v < 0)
			vt->is_signed = true;
	} while (dwarf_siblingof(&child, &child) == 0);
	vt->nenum = n;
	vt->enums = e;
}

static void classify_type(Dwarf_Die *die, bool have, struct dcg_vtype *vt)
{
	Dwarf_Die type = *die, pt;
	int enc;

	memset(vt, 0, sizeof(*vt));
	if (!have) {
		vt->kind = DCG_V_VOID;
		return;
	}
	vt->size = die_size(&type);
	vt->nregs = 1;
	switch (dwarf_tag(&type)) {
	case DW_TAG_base_type:
		enc = die_encoding(&type);
		if (enc == DW_ATE_float || enc == DW_ATE_complex_float) {
			vt->kind = DCG_V_FP;
			vt->nregs = 0;
		} else if (enc == DW_ATE_boolean) {
			vt->kind = DCG_V_BOOL;
		} else if (enc == DW_ATE_signed_char ||
			   enc == DW_ATE_unsigned_char) {
			vt->kind = vt->size == 1 ? DCG_V_CHAR :
				   enc == DW_ATE_signed_char ? DCG_V_SINT :
				   DCG_V_UINT;
			vt->is_signed = enc == DW_ATE_signed_char;
		} else if (enc == DW_ATE_signed) {
			vt->kind = DCG_V_SINT;
			vt->is_signed = true;
		} else if (enc == DW_ATE_unsigned || enc == DW_ATE_UTF) {
			vt->kind = DCG_V_UINT;
		} else {
			vt->kind = DCG_V_UNKNOWN;
		}
		if (vt->size > 8 && vt->kind != DCG_V_FP)
			vt->nregs = 2;	/* __int128 */
		return;
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		vt->kind = DCG_V_PTR;
		vt->size = 8;
		if (dwarf_tag(&type) == DW_TAG_pointer_type &&
		    type_of(&type, &pt) && dwarf_tag(&pt) == DW_TAG_base_type &&
		    die_size(&pt) == 1 &&
		    (die_encoding(&pt) == DW_ATE_signed_char ||
		     die_encoding(&pt) == DW_ATE_unsigned_char))
			vt->kind = DCG_V_STR;
		return;
	case DW_TAG_enumeration_type:
		vt->kind = DCG_V_ENUM;
		if (type_of(&type, &pt) && die_encoding(&pt) == DW_ATE_signed)
			vt->is_signed = true;
		enum_values(&type, vt);
		return;
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
		classify_agg(&type, vt);
		return;
	}
	vt->kind = DCG_V_UNKNOWN;
}

/* The subprogram DIE whose entry is @addr in @mod. */
static bool func_die(Dwfl_Module *mod, dcg_u64 addr, Dwarf_Die *out)
{
	Dwarf_Addr bias = 0, entry;
	Dwarf_Die *cu = mod ? dwfl_module_addrdie(mod, addr, &bias) : NULL;
	Dwarf_Die *scopes = NULL;
	int n, i;
	bool ok = false;

	if (!cu)
		return false;
	n = dwarf_getscopes(cu, addr - bias, &scopes);
	for (i = 0; i < n; i++)
		if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram)
			break;
	if (i < n && dwarf_entrypc(&scopes[i], &entry) == 0 &&
	    entry + bias == addr) {
		*out = scopes[i];
		ok = true;
	}
	free(scopes);
	return ok;
}

static void free_functype(struct dcg_functype *ft);

static struct dcg_functype *build_functype(Dwarf_Die *fn)
{
	struct dcg_functype *ft = sym_realloc(NULL, sizeof(*ft));
	struct dcg_param *p = NULL;
	Dwarf_Die child, type;
	Dwarf_Attribute at;
	unsigned int next = 0;

	if (!ft)
		return NULL;
	memset(ft, 0, sizeof(*ft));
	classify_type(&type, type_of(fn, &type), &ft->ret);
	/* a struct returned in memory: its address goes in rdi first */
	ft->ret_memory = ft->ret.kind == DCG_V_AGG && ft->ret.memory;
	next = ft->ret_memory;
	if (dwarf_child(fn, &child) == 0) {
		do {
			struct dcg_param *q;
			const char *name;

			if (dwarf_tag(&child) == DW_TAG_unspecified_parameters)
				ft->variadic = true;
			if (dwarf_tag(&child) != DW_TAG_formal_parameter)
				continue;
			q = sym_realloc(p, (ft->nparams + 1) * sizeof(*p));
			if (!q)
				goto nomem;
			ft->params = p = q;
			q = &p[ft->nparams++];
			memset(q, 0, sizeof(*q));
			name = dwarf_attr_integrate(&child, DW_AT_name, &at) ?
			       dwarf_formstring(&at) : NULL;
			q->name = sym_strdup(name ? name : "");
			if (!q->name)
				goto nomem;
			classify_type(&type, type_of(&child, &type), &q->type);
			q->reg = -1;
			/* all its eightbytes in registers, or all in memory */
			if (q->type.nregs && next + q->type.nregs <= DCG_ARGS_MAX) {
				q->reg = next;
				next += q->type.nregs;
			}
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	return ft;
nomem:
	free_functype(ft);
	return NULL;
}

static void free_vtype(const struct dcg_vtype *vt)
{
	unsigned int i;

	for (i = 0; i < vt->nenum; i++)
		free((char *)vt->enums[i].name);
	free((void *)vt->enums);
}

static void free_functype(struct dcg_functype *ft)
{
	unsigned int i;

	if (!ft)
		return;
	for (i = 0; i < ft->nparams; i++) {
		free((char *)ft->params[i].name);
		free_vtype(&ft->params[i].type);
	}
	free((void *)ft->params);
	free_vtype(&ft->ret);
	free(ft);
}

/* The cache: open addressing by address, as the names' cache. */
static void ftc_clear(struct dcg_symbolizer *s)
{
	size_t i;

	for (i = 0; i < s->ftc_cap; i++)
		if (s->ftc[i].used)
			free_functype(s->ftc[i].ft);
	if (s->ftc)
		memset(s->ftc, 0, s->ftc_cap * sizeof(*s->ftc));
	s->ftc_used = 0;
}

static struct ftype_ent *ftc_slot(struct dcg_symbolizer *s, dcg_u64 addr)
{
	size_t j;

	if (2 * (s->ftc_used + 1) > s->ftc_cap) {
		struct ftype_ent *old = s->ftc;
		size_t i, cap = s->ftc_cap;
		size_t grown = cap ? 2 * cap : 256;

		s->ftc = sym_realloc(NULL, grown * sizeof(*s->ftc));
		if (!s->ftc) {
			s->ftc = old;
			return NULL;	/* no room: not cached */
		}
		s->ftc_cap = grown;
		memset(s->ftc, 0, s->ftc_cap * sizeof(*s->ftc));
		for (i = 0; i < cap; i++) {
			if (!old[i].used)
				continue;
			j = (size_t)dcg_hash64(old[i].addr) & (s->ftc_cap - 1);
			while (s->ftc[j].used)
				j = (j + 1) & (s->ftc_cap - 1);
			s->ftc[j] = old[i];
		}
		free(old);
	}
	j = (size_t)dcg_hash64(addr) & (s->ftc_cap - 1);
	while (s->ftc[j].used && s->ftc[j].addr != addr)
		j = (j + 1) & (s->ftc_cap - 1);
	return &s->ftc[j];
}

const struct dcg_functype *dcg_sym_functype(struct dcg_symbolizer *s,
					    dcg_u64 addr)
{
	struct ftype_ent *e;
	Dwfl_Module *mod;
	Dwarf_Die fn;

	if (s->dwfl_stale && !dcg_addr_is_kernel(addr))
		build_dwfl(s);
	e = ftc_slot(s, addr);
	if (!e)
		return NULL;
	if (e->used)
		return e->ft;
	e->used = true;
	e->addr = addr;
	e->ft = NULL;
	s->ftc_used++;
	if (dcg_addr_is_kernel(addr))
		mod = s->kdwfl ? dwfl_addrmodule(s->kdwfl, addr) : NULL;
	else
		mod = s->dwfl ? dwfl_addrmodule(s->dwfl, addr) : NULL;
	if (mod && func_die(mod, addr, &fn))
		e->ft = build_functype(&fn);
	return e->ft;
}
