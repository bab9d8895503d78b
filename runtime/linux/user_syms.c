// SPDX-License-Identifier: GPL-2.0
/*
 * user_syms.c - the traced process's memory and function bounds, for
 * user windows: reads that never fault, and st_size of a shared
 * object's functions from its own .dynsym through the GNU hash table
 * (the user-space counterpart of kernel_syms.c).
 */
#include <linux/uaccess.h>
#include <linux/elf.h>

/* Target memory for the engine: the current task's, never faulting. */
static int dcg_read_user(void *ctx, dcg_u64 addr, void *buf, unsigned int len)
{
	return dcg_read_nofault(addr, buf, len, false);
}

/* @len bytes of the traced process at @addr: 0, or -1 when unreadable. */
static int dcg_peek(u64 addr, void *buf, unsigned int len)
{
	return dcg_read_nofault(addr, buf, len, false) == (int)len ? 0 : -1;
}

/* The GNU extension tag; the kernel's elf.h does not define it. */
#define DCG_DT_GNU_HASH	0x6ffffef5

/*
 * DT_SYMTAB, DT_STRTAB and DT_GNU_HASH of the object loaded at @base,
 * from its dynamic section in the traced process (glibc relocates the
 * pointers in place; an unrelocated one is relative).  0 if incomplete.
 */
static int dcg_dyn_tables(u64 base, u64 *symtab, u64 *strtab, u64 *gnu)
{
	Elf64_Dyn d[8];
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	u64 dyn = 0, p;
	int i, j;

	if (dcg_peek(base, &eh, sizeof(eh)) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_phnum > 64)
		return 0;
	for (i = 0; i < eh.e_phnum && !dyn; i++)
		if (!dcg_peek(base + eh.e_phoff + i * sizeof(ph), &ph, sizeof(ph)) &&
		    ph.p_type == PT_DYNAMIC)
			dyn = base + ph.p_vaddr;
	*symtab = *strtab = *gnu = 0;
	for (i = 0; dyn && i < 8; i++, dyn += sizeof(d)) {
		if (dcg_peek(dyn, d, sizeof(d)))
			break;
		for (j = 0; j < 8; j++) {
			if (d[j].d_tag == DT_NULL)
				return *symtab && *strtab && *gnu;
			p = d[j].d_un.d_ptr < base ? base + d[j].d_un.d_ptr :
						     d[j].d_un.d_ptr;
			if (d[j].d_tag == DT_SYMTAB)
				*symtab = p;
			else if (d[j].d_tag == DT_STRTAB)
				*strtab = p;
			else if (d[j].d_tag == DCG_DT_GNU_HASH)
				*gnu = p;
		}
	}
	return *symtab && *strtab && *gnu;
}

/*
 * st_size of @name's dynamic symbol at @value (relative) in the object
 * loaded at @base, found through its GNU hash table as the dynamic
 * linker would; 0 if there is none.
 */
static u64 dcg_dynsym_size(u64 base, u64 value, const char *name)
{
	u64 symtab, strtab, gnu, buckets, chains;
	u32 h = 5381, hdr[4], idx, h2;
	char got[128];	/* longer names keep stap's size */
	size_t n = strlen(name) + 1;
	Elf64_Sym sym;
	const char *c;
	int i;

	if (n > sizeof(got) || !dcg_dyn_tables(base, &symtab, &strtab, &gnu) ||
	    dcg_peek(gnu, hdr, sizeof(hdr)) || !hdr[0])
		return 0;
	for (c = name; *c; c++)
		h = h * 33 + (unsigned char)*c;
	/* nbuckets, symoffset, bloom words (u64), then buckets and chains */
	buckets = gnu + sizeof(hdr) + (u64)hdr[2] * 8;
	chains = buckets + (u64)hdr[0] * 4;
	if (dcg_peek(buckets + (h % hdr[0]) * 4, &idx, 4) || idx < hdr[1])
		return 0;
	for (i = 0; i < 4096; i++, idx++) {
		if (dcg_peek(chains + (u64)(idx - hdr[1]) * 4, &h2, 4))
			return 0;
		if ((h2 | 1) == (h | 1) &&
		    !dcg_peek(symtab + (u64)idx * sizeof(sym), &sym, sizeof(sym)) &&
		    sym.st_value == value &&
		    !dcg_peek(strtab + sym.st_name, got, n) && !memcmp(got, name, n))
			return sym.st_size;
		if (h2 & 1)
			return 0;
	}
	return 0;
}

/*
 * The last dcg_dynsym_size() answers, per CPU (the engine asks for the
 * same few functions over and over).  Keyed by the address space and the
 * symbol's run-time start; size 0 = not a dynamic symbol.
 */
struct dcg_dsize {
	const void *mm;
	u64 start;
	u64 size;
};
#define DCG_DSIZE_SLOTS	64
static DEFINE_PER_CPU(struct dcg_dsize [DCG_DSIZE_SLOTS], dcg_dsize_cache);

/*
 * Function bounds from stap's symbol tables (needs -d or --ldd).  Stap
 * keeps no symbol sizes: its "size" is the distance to the next symbol.
 * In a stripped library (.dynsym only) the static functions after an
 * exported one then look like part of it, so a call or a jump into them
 * looks like one inside it, and is no event; dcg-trace (libdwfl) uses
 * st_size and knows no bounds there.  So for a shared object's symbol,
 * take st_size from the object's own .dynsym in the traced process; past
 * it there are no bounds.  A symbol that is not dynamic (.symtab of an
 * unstripped program) keeps stap's distance.
 */
static int dcg_func_bounds(void *ctx, dcg_u64 addr, dcg_u64 *start,
			   dcg_u64 *end)
{
	unsigned long size = 0, off = 0, vm_start = 0, vm_end = 0, sect = 0;
	const char *mod = NULL, *name;
	struct _stp_module *m;
	struct dcg_dsize *c;
	u64 dsize;

	name = _stp_kallsyms_lookup(addr, &size, &off, &mod, current);
	if (!name || !size)
		return -1;
	*start = addr - off;
	*end = *start + size;
	c = get_cpu_ptr(&dcg_dsize_cache[0]);
	c += (*start >> 4) % DCG_DSIZE_SLOTS;
	if (c->mm == current->mm && c->start == *start) {
		dsize = c->size;
	} else {
		dsize = 0;
		m = DCG_STP_UMOD_LOOKUP(addr, current, &mod, &sect,
					&vm_start, &vm_end);	/* kcompat.h S2 */
		/* stap's relative addresses: addr - vm_start + sect */
		if (m && m->num_sections &&
		    !strcmp(m->sections[0].name, ".dynamic"))
			dsize = dcg_dynsym_size(vm_start - sect,
						*start - vm_start + sect, name);
		c->mm = current->mm;
		c->start = *start;
		c->size = dsize;
	}
	put_cpu_ptr(&dcg_dsize_cache[0]);
	if (dsize && *start + dsize <= addr)
		return -1;
	if (dsize)
		*end = *start + dsize;
	return 0;
}

/* Start of the function containing @ip from stap's symbols, or 0. */
static u64 dcg_func_start(u64 ip)
{
	unsigned long size = 0, off = 0;
	const char *mod = NULL;

	if (!_stp_kallsyms_lookup(ip, &size, &off, &mod, current) || off > ip)
		return 0;
	return ip - off;
}
