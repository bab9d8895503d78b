// SPDX-License-Identifier: GPL-2.0
/*
 * sym_types.c - function types from DWARF (issue #17): each parameter
 * classified as the SysV x86-64 ABI passes it, cached per address.
 * Part of the symbolizer (symbolize.c).
 */
#include "symbolize_int.h"

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
void sym_ftc_clear(struct dcg_symbolizer *s)
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
		sym_build_dwfl(s);
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
