// SPDX-License-Identifier: GPL-2.0
/*
 * sym_ksyms.c - the kernel's symbol table: KSYM records, --kallsyms,
 * --system-map, --vmlinux, and kernel addresses named from it.
 * Part of the symbolizer (symbolize.c).
 */
#include "symbolize_int.h"

static int cmp_ksym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
}

void sym_add_ksym(struct dcg_symbolizer *s, dcg_u64 addr, dcg_u64 size,
		  const char *name, bool text)
{
	struct ksym *k;
	char *p, *copy;

	if (!sym_grow(&s->ksyms, &s->ksyms_cap, s->nksyms, sizeof(*k), 1024))
		return;
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
		sym_cache_clear(s);
}

bool sym_is_text_type(int c)
{
	c = tolower(c);
	return c == 't' || c == 'w';
}

/* /proc/kallsyms or System.map: "addr type name [module]" per line. */
int sym_load_kallsyms(struct dcg_symbolizer *s, const char *path,
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
			sym_add_ksym(s, addr, 0, full, sym_is_text_type(type));
		} else {
			sym_add_ksym(s, addr, 0, name, sym_is_text_type(type));
		}
		nsyms += sym_is_text_type(type);
	}
	fclose(f);
	if (!nsyms) {
		snprintf(err, errlen, "%s: no text symbols in it", path);
		return -1;
	}
	return 0;
}

int sym_load_vmlinux(struct dcg_symbolizer *s, const char *path,
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

void sym_resolve_kernel(struct dcg_symbolizer *s, dcg_u64 addr,
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
		mod = sym_kmod_module(s, k, addr, &rel);
	} else if (!kmod && (dwarf || (!k && s->kvmod))) {
		mod = sym_kernel_module(s, addr, &rel);
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
		y->func = sym_dup_printf("0x%llx", (unsigned long long)addr);
	}
	if (mod && s->opts.srcline)
		sym_add_srcline(mod, rel, y);
	if (mod && s->opts.inlines)
		sym_add_inlines(mod, rel, y);
}
