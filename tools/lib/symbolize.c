// SPDX-License-Identifier: GPL-2.0
/*
 * symbolize.c - addresses to names with elfutils libdwfl.  This file
 * holds the symbolizer's session: its options, the MAP records made
 * into libdwfl modules, the lookup cache, code bytes and object names;
 * sym_elf.c finds the files, sym_names.c names user code, sym_ksyms.c
 * and sym_kdebug.c kernel code, sym_hints.c says why a name is missing
 * and sym_types.c reads function types.
 *
 * User space: the trace's MAP records say which object was mapped where.
 * Mappings of one object at one load base become one libdwfl module,
 * reported with dwfl_report_module() over [lowest start - pgoff, highest
 * end) together with the recorded build-id, the way libdwfl itself
 * reports /proc/PID/maps.  libdwfl then opens the object (our find_elf
 * callback: the recorded path under --sysroot, a build-id tree, the
 * recorded path here; a file is used only if its build-id is the
 * recorded one), and finds debuginfo with its standard callback.  Stubs
 * in .plt/.plt.sec, which have no symbols, are named "func@plt".  The
 * Dwfl is built lazily and rebuilt if maps arrive after lookups started
 * (dlopen).
 *
 * Kernel: a sorted table of symbols (KSYM records, --kallsyms,
 * --system-map; only text symbols name code, the others bound the one
 * before them), or a vmlinux reported as an ELF module at its link
 * addresses; lookups in it subtract the KASLR offset worked out from
 * the symbol table (kernel_check()).  File:line comes from that vmlinux.
 */
#include "symbolize_int.h"

/*
 * Out of memory, the symbolizer (a library) does not exit: what it
 * could not keep is left out (a map, a kernel symbol, a type, a hint
 * remembered), a name it could not copy reads nomem_name, and
 * dcg_sym_out_of_memory() tells the program, which decides.
 */
static const char nomem_name[] = "[out of memory]";
static const struct dcg_symbol nomem_sym = { .func = nomem_name };
static bool nomem;

void *sym_realloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		nomem = true;
	return q;
}

char *sym_strdup(const char *str)
{
	char *p = strdup(str);

	if (!p)
		nomem = true;
	return p;
}

/*
 * Room for one more after the @n elements of @size at *@arrp: its
 * capacity *@cap doubled (from @first) when full; false, the array as
 * it was, when there is no memory.
 */
bool sym_grow(void *arrp, size_t *cap, size_t n, size_t size, size_t first)
{
	void **arr = arrp;
	size_t grown;
	void *p;

	if (n < *cap)
		return true;
	grown = *cap ? 2 * *cap : first;
	p = sym_realloc(*arr, grown * size);
	if (!p)
		return false;
	*arr = p;
	*cap = grown;
	return true;
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

void sym_cache_clear(struct dcg_symbolizer *s)
{
	size_t i;

	sym_ftc_clear(s);

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
	s->cb.find_elf = sym_find_elf_by_path;
	s->cb.find_debuginfo = dwfl_standard_find_debuginfo;
	s->cb.section_address = dwfl_offline_section_address;
	s->cb.debuginfo_path = &s->debuginfo_path;
	s->cache_cap = 4096;
	memset(s->cache, 0, s->cache_cap * sizeof(*s->cache));

	if ((opts->kallsyms && sym_load_kallsyms(s, opts->kallsyms, err, errlen)) ||
	    (opts->system_map &&
	     sym_load_kallsyms(s, opts->system_map, err, errlen)) ||
	    (opts->vmlinux && sym_load_vmlinux(s, opts->vmlinux, err, errlen))) {
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
	sym_kernel_say(s);
	sym_cache_clear(s);
	free(s->cache);
	free(s->ftc);
	if (s->dwfl)
		dwfl_end(s->dwfl);
	if (s->kdwfl)
		dwfl_end(s->kdwfl);
	if (s->kd.found)
		dwfl_end(s->kd.found);
	sym_kmods_free(s);
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
	if (!sym_grow(&s->maps, &s->maps_cap, s->nmaps, sizeof(*u), 16))
		return;
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

		sym_add_ksym(s, k->addr, k->size, dcg_rec_ksym_name(k),
			     sym_is_text_type(k->type));
	}
}

void sym_build_dwfl(struct dcg_symbolizer *s)
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
		sym_cache_clear(s);
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
		y->func = sym_dup_printf("0x%llx", (unsigned long long)addr);
		return;
	}
	modname = dwfl_module_info(mod, NULL, &low, NULL, NULL, NULL, NULL,
				   NULL);
	name = dwfl_module_addrinfo(mod, addr, &off, &sym, NULL, NULL, NULL);
	if (name && name[0] && sym_covers(&sym, off)) {
		y->func = sym_symbol_name(s, name);
		y->offset = off;
		y->known = true;
	} else if ((stub = sym_plt_name(mod, addr))) {
		y->func = sym_plt_symbol_name(s, stub);
		y->known = true;	/* offset 0: a stub is one "function" */
		y->plt = true;
	} else {
		rel = addr;
		if (dwfl_module_relocate_address(mod, &rel) < 0)
			rel = addr - low;
		y->func = sym_dup_printf("%s+0x%llx", sym_base_name(modname),
					 (unsigned long long)rel);
		if (dwfl_module_getelf(mod, &low)) {
			void **userdata;

			dwfl_module_info(mod, &userdata, NULL, NULL, NULL,
					 NULL, NULL, NULL);
			sym_hint_package(*userdata, mod);
		} else {
			void **userdata;

			dwfl_module_info(mod, &userdata, NULL, NULL, NULL,
					 NULL, NULL, NULL);
			sym_say_unusable(*userdata);
		}
	}
	if (s->opts.srcline)
		sym_add_srcline(mod, addr, y);
	if (s->opts.inlines)
		sym_add_inlines(mod, addr, y);
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
		sym_build_dwfl(s);
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
		sym_resolve_kernel(s, addr, &e->sym);
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
		m = sym_kernel_module(s, addr, &rel);
		elf = m ? dwfl_module_getelf(m, &bias) : NULL;
		return elf ? section_bytes(elf, rel - bias, buf, len) : 0;
	}
	if (s->dwfl_stale)
		sym_build_dwfl(s);
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
		/* a module's symbols are named "name [module]" (sym_add_ksym) */
		name = dcg_sym_lookup(s, addr)->func;
		mod = name ? strstr(name, " [") : NULL;
		return mod ? mod + 1 : "vmlinux";
	}
	if (s->dwfl_stale)
		sym_build_dwfl(s);
	m = s->dwfl ? dwfl_addrmodule(s->dwfl, addr) : NULL;
	name = m ? dwfl_module_info(m, NULL, NULL, NULL, NULL, NULL, NULL,
				    NULL) : NULL;
	return name ? sym_base_name(name) : NULL;
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
