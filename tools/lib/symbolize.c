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
 * before them), or a vmlinux reported as an ELF module.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
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

struct cache_ent {
	dcg_u64 addr;
	bool used;
	struct dcg_symbol sym;
};

struct dcg_symbolizer {
	struct dcg_symopts opts;
	char *debuginfo_path;
	Dwfl_Callbacks cb;

	struct umap *maps;
	size_t nmaps, maps_cap;
	Dwfl *dwfl;
	bool dwfl_stale;

	Dwfl *kdwfl;		/* vmlinux */

	struct ksym *ksyms;
	size_t nksyms, ksyms_cap;
	bool ksyms_sorted;

	struct cache_ent *cache;
	size_t cache_cap, cache_used;

	int sysroot_fd;		/* --sysroot, or -1 */
};

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		fputs("dcg-report: out of memory\n", stderr);
		exit(1);
	}
	return p;
}

static char *xstrdup(const char *s)
{
	return strcpy(xrealloc(NULL, strlen(s) + 1), s);
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

static void cache_clear(struct dcg_symbolizer *s)
{
	size_t i;

	for (i = 0; i < s->cache_cap; i++) {
		struct dcg_symbol *y = &s->cache[i].sym;

		if (!s->cache[i].used)
			continue;
		free((char *)y->func);
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
	char *p;

	if (s->nksyms == s->ksyms_cap) {
		s->ksyms_cap = s->ksyms_cap ? 2 * s->ksyms_cap : 1024;
		s->ksyms = xrealloc(s->ksyms, s->ksyms_cap * sizeof(*k));
	}
	k = &s->ksyms[s->nksyms++];
	k->addr = addr;
	k->size = size;
	k->name = xstrdup(name);
	k->text = text;
	/* "name\t[module]" reads better as "name [module]" */
	for (p = k->name; *p; p++)
		if (*p == '\t')
			*p = ' ';
	s->ksyms_sorted = false;
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
	if (!s->kdwfl || !dwfl_report_elf(s->kdwfl, "kernel", path, -1, 0,
					  false)) {
		snprintf(err, errlen, "%s: %s", path, dwfl_errmsg(-1));
		return -1;
	}
	dwfl_report_end(s->kdwfl, NULL, NULL);
	return 0;
}

struct dcg_symbolizer *dcg_sym_new(const struct dcg_symopts *opts,
				   char *err, size_t errlen)
{
	struct dcg_symbolizer *s = xrealloc(NULL, sizeof(*s));
	size_t n;

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
	s->debuginfo_path = xrealloc(NULL, n);
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
	s->cache = xrealloc(NULL, s->cache_cap * sizeof(*s->cache));
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

void dcg_sym_free(struct dcg_symbolizer *s)
{
	size_t i;

	if (!s)
		return;
	cache_clear(s);
	free(s->cache);
	if (s->dwfl)
		dwfl_end(s->dwfl);
	if (s->kdwfl)
		dwfl_end(s->kdwfl);
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
		s->maps_cap = s->maps_cap ? 2 * s->maps_cap : 16;
		s->maps = xrealloc(s->maps, s->maps_cap * sizeof(*u));
	}
	u = &s->maps[s->nmaps++];
	memset(u, 0, sizeof(*u));
	u->path = xstrdup(path);
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
	if (s->cache_used)
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
	return xstrdup(buf);
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
		y->inlined = xstrdup(buf);
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
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(paths[i], path))
			return true;
	paths = xrealloc(paths, (n + 1) * sizeof(*paths));
	paths[n++] = xstrdup(path);
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
	fprintf(stderr,
		"dcg-report: %s has no symbols for some of its code (shown as %s+0xOFF); package %s%s would name it\n",
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
	fprintf(stderr,
		"dcg-report: %s%s%s%s: %s; its code is shown as %s+0xOFF (--sysroot DIR or --debug-dir DIR: where the traced system's files are)\n",
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
	plain = dup_printf("%s@plt", name);
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

static void resolve_kernel(struct dcg_symbolizer *s, dcg_u64 addr,
			   struct dcg_symbol *y)
{
	const struct ksym *k = s->nksyms ? find_ksym(s, addr) : NULL;

	if (k) {
		y->func = xstrdup(k->name);
		y->offset = addr - k->addr;
		y->known = true;
		return;
	}
	if (s->kdwfl) {
		Dwfl_Module *mod = dwfl_addrmodule(s->kdwfl, addr);
		GElf_Off off = 0;
		GElf_Sym sym;
		const char *name = mod ? dwfl_module_addrinfo(mod, addr, &off,
							      &sym, NULL, NULL,
							      NULL) : NULL;
		if (name) {
			y->func = xstrdup(name);
			y->offset = off;
			y->known = true;
			if (s->opts.srcline)
				add_srcline(mod, addr, y);
			if (s->opts.inlines)
				add_inlines(mod, addr, y);
			return;
		}
	}
	y->func = dup_printf("0x%llx", (unsigned long long)addr);
}

static size_t hash_addr(dcg_u64 a)
{
	a ^= a >> 33;
	a *= 0xff51afd7ed558ccdull;
	a ^= a >> 33;
	return (size_t)a;
}

static void cache_grow(struct dcg_symbolizer *s)
{
	struct cache_ent *old = s->cache;
	size_t i, cap = s->cache_cap;

	s->cache_cap *= 2;
	s->cache = xrealloc(NULL, s->cache_cap * sizeof(*s->cache));
	memset(s->cache, 0, s->cache_cap * sizeof(*s->cache));
	for (i = 0; i < cap; i++) {
		size_t j;

		if (!old[i].used)
			continue;
		j = hash_addr(old[i].addr) & (s->cache_cap - 1);
		while (s->cache[j].used)
			j = (j + 1) & (s->cache_cap - 1);
		s->cache[j] = old[i];
	}
	free(old);
}

const struct dcg_symbol *dcg_sym_lookup(struct dcg_symbolizer *s,
					dcg_u64 addr)
{
	struct cache_ent *e;
	size_t j;

	if (s->dwfl_stale && !dcg_addr_is_kernel(addr))
		build_dwfl(s);
	if (2 * (s->cache_used + 1) > s->cache_cap)
		cache_grow(s);
	j = hash_addr(addr) & (s->cache_cap - 1);
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

	if (dcg_addr_is_kernel(addr))
		return 0;
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
