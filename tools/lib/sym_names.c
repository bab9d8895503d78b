// SPDX-License-Identifier: GPL-2.0
/*
 * sym_names.c - what a user-space address is called: a symbol, demangled
 * and without its version, a PLT stub's "func@plt", file:line and the
 * inlined frames at an address.
 * Part of the symbolizer (symbolize.c).
 */
#include "symbolize_int.h"

const char *sym_base_name(const char *path)
{
	const char *p = strrchr(path, '/');

	return p ? p + 1 : path;
}

char *sym_dup_printf(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return sym_strdup(buf);
}

void sym_add_srcline(Dwfl_Module *mod, Dwarf_Addr addr,
		     struct dcg_symbol *y)
{
	Dwfl_Line *line = dwfl_module_getsrc(mod, addr);
	const char *file;
	int lineno = 0;

	if (!line)
		return;
	file = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL);
	if (file)
		y->srcline = sym_dup_printf("%s:%d", file, lineno);
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
void sym_add_inlines(Dwfl_Module *mod, Dwarf_Addr addr,
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
	return sym_dup_printf("%.*s@plt", (int)strcspn(name, "@"), name);
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
char *sym_plt_name(Dwfl_Module *mod, Dwarf_Addr addr)
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
char *sym_symbol_name(const struct dcg_symbolizer *s, const char *name)
{
	char *bare = sym_dup_printf("%.*s", (int)strcspn(name, "@"), name);
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
bool sym_covers(const GElf_Sym *sym, GElf_Off off)
{
	int type = GELF_ST_TYPE(sym->st_info);

	if (type == STT_NOTYPE)
		return off == 0;
	if (type != STT_FUNC && type != STT_GNU_IFUNC)
		return false;
	return !sym->st_size || off < sym->st_size;
}

/* Does the ELF file have a .symtab (not only .dynsym)? */
bool sym_has_symtab(Elf *elf)
{
	return dcg_elf_section_of_type(elf, SHT_SYMTAB) != NULL;
}

/* "_Znwm@plt" -> "operator new(unsigned long)@plt"; frees @stub. */
char *sym_plt_symbol_name(const struct dcg_symbolizer *s, char *stub)
{
	size_t len = strlen(stub) - strlen("@plt");
	char *name, *plain;

	if (s->opts.mangled || strncmp(stub, "_Z", 2))
		return stub;
	stub[len] = '\0';
	name = sym_symbol_name(s, stub);
	plain = name ? sym_dup_printf("%s@plt", name) : NULL;
	free(name);
	free(stub);
	return plain;
}
