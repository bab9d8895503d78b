// SPDX-License-Identifier: GPL-2.0
/*
 * sym_kdebug.c - the DWARF vmlinux and module .ko files that give kernel
 * code file:line: found by build-id or by name, checked against the
 * trace's kernel symbols, with the KASLR offset worked out from them.
 * Part of the symbolizer (symbolize.c).
 */
#include "symbolize_int.h"

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

/*
 * What to say about kernel file:line, kept until the end (sym_kernel_say()):
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
	sym_say_once(key, "%s: not the traced [%s] (its functions are not where the trace has them) or no DWARF in it; its code has no file:line",
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
	sym_kmods_free(s);		/* they went with that vmlinux */
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
Dwfl_Module *sym_kernel_module(struct dcg_symbolizer *s, dcg_u64 addr,
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
void sym_kmods_free(struct dcg_symbolizer *s)
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
Dwfl_Module *sym_kmod_module(struct dcg_symbolizer *s,
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
	/* said at the end, if no line said why (sym_kernel_say()) */
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
void sym_kernel_say(struct dcg_symbolizer *s)
{
	if (!s->kd.wanted && !s->kd.module[0])
		return;
	kernel_locate(s);
	if (s->kd.msg[0])
		sym_say_once(s->kd.key, "%s", s->kd.msg);
	if (s->kd.mod && s->kd.module[0] && !s->opts.srcline_implied)
		sym_say_once("\1kmodule",
			     "kernel module code (%s) has no file:line: no NAME.ko with DWARF in lib/modules/VERSION/ of the vmlinux's package",
			     s->kd.module);
}
