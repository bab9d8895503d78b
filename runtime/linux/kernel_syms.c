// SPDX-License-Identifier: GPL-2.0
/*
 * kernel_syms.c - what the kernel host knows about kernel code.
 *
 * Function bounds.  The engine asks for the bounds of the function that
 * holds an address when it must tell a tail call from a jump inside a
 * function, and a call to a label inside the caller (the retpoline
 * thunks do that) from a call that starts a function.  It asks from the
 * #DB handler, which runs NMI-like.  kallsyms_lookup_size_offset() is
 * fit for that: for core kernel text it is a binary search over the
 * kallsyms tables (read-only after boot); for module text it takes
 * preempt_disable() and walks the module latch tree and the module's
 * RCU-published symbol table, and for BPF the BPF latch tree, which
 * were made lockless so that perf can symbolize from NMI.  It takes no
 * lock, allocates nothing, prints nothing and never sleeps.  It is not
 * exported, so its address comes from stap's kallsyms_lookup_name() at
 * probe begin; without it the engine runs without bounds (doc).
 *
 * Kernel memory (code and the kernel stack) is read with
 * copy_from_kernel_nofault(), which fails cleanly on an unmapped
 * address instead of faulting.
 *
 * KSYM records.  A binary trace carries the kernel symbols it needs, so
 * that dcg-report can name them without the guest's /proc/kallsyms: at
 * probe end one DCG_REC_KSYM per function the edge table saw (callers
 * and callees, module functions included, named "name\t[module]") plus
 * the callers of the window roots.  Names come from sprint_symbol(),
 * exported, the same lookup as printk's %pS.
 */
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/uaccess.h>
#include <linux/string.h>

static dcg_ksize_fn dcg_ksize_offset;	/* kcompat.h K5 */

/*
 * Thunks (dcg_core.h, struct dcg_thunks): the compiler's retpolines and
 * return thunks are no functions of the traced code.  They are found by
 * name at probe begin; a release that lacks a family simply has no
 * symbol of that name.  Each name covers its kallsyms extent (to the
 * next symbol).  Call thunks leave by a jump to the target:
 * retpolines (__x86_indirect_thunk_REG, in __x86_indirect_thunk_array),
 * the call-depth-tracking and ITS variants of newer kernels.  Return
 * thunks end in the ret of the slot on top: __x86_return_thunk, the
 * retbleed/SRSO/ITS ones with the helpers they run (srso_safe_ret),
 * call depth tracking's __x86_return_skl and __ret.
 */
static const char *const dcg_kthunk_call_names[] = {
	"__x86_indirect_thunk_array", "__x86_indirect_call_thunk_array",
	"__x86_indirect_jump_thunk_array", "__x86_indirect_its_thunk_array",
	"__x86_indirect_thunk_rax", "__x86_indirect_thunk_rbx",
	"__x86_indirect_thunk_rcx", "__x86_indirect_thunk_rdx",
	"__x86_indirect_thunk_rsi", "__x86_indirect_thunk_rdi",
	"__x86_indirect_thunk_rbp", "__x86_indirect_thunk_r8",
	"__x86_indirect_thunk_r9", "__x86_indirect_thunk_r10",
	"__x86_indirect_thunk_r11", "__x86_indirect_thunk_r12",
	"__x86_indirect_thunk_r13", "__x86_indirect_thunk_r14",
	"__x86_indirect_thunk_r15",
};
static const char *const dcg_kthunk_ret_names[] = {
	"__x86_return_thunk", "retbleed_return_thunk", "retbleed_untrain_ret",
	"zen_untrain_ret", "srso_return_thunk", "srso_alias_return_thunk",
	"srso_safe_ret", "srso_alias_safe_ret", "srso_untrain_ret",
	"srso_alias_untrain_ret", "its_return_thunk", "__x86_return_skl",
	"call_depth_return_thunk", "__ret",
};
static struct dcg_range dcg_kthunk_call[ARRAY_SIZE(dcg_kthunk_call_names)];
static struct dcg_range dcg_kthunk_ret[ARRAY_SIZE(dcg_kthunk_ret_names)];
static struct dcg_thunks dcg_kthunks = {
	.call = dcg_kthunk_call, .ret = dcg_kthunk_ret,
};

static u32 dcg_kthunk_find(const char *const *names, u32 n,
			   struct dcg_range *out)
{
	unsigned long addr, size, off;
	u32 i, got = 0;

	for (i = 0; i < n; i++) {
		addr = kallsyms_lookup_name(names[i]);
		size = off = 0;
		if (!addr || !dcg_ksize_offset ||
		    !dcg_ksize_offset(addr, &size, &off) || off || !size)
			continue;
		out[got].start = addr;
		out[got].end = addr + size;
		got++;
	}
	return got;
}

static void dcg_ksyms_init(void)
{
	if (!dcg_ksize_offset)
		dcg_ksize_offset = (dcg_ksize_fn)
			kallsyms_lookup_name("kallsyms_lookup_size_offset");
	/* written once, before any window opens; read-only in the trap */
	dcg_kthunks.ncall = dcg_kthunk_find(dcg_kthunk_call_names,
					    ARRAY_SIZE(dcg_kthunk_call_names),
					    dcg_kthunk_call);
	dcg_kthunks.nret = dcg_kthunk_find(dcg_kthunk_ret_names,
					   ARRAY_SIZE(dcg_kthunk_ret_names),
					   dcg_kthunk_ret);
}

/* Only kernel addresses: a kernel window never reads user memory. */
static int dcg_kread(void *ctx, dcg_u64 addr, void *buf, unsigned int len)
{
	if (addr < TASK_SIZE_MAX)
		return 0;
	return dcg_read_nofault(addr, buf, len, true);
}

static int dcg_kfunc_bounds(void *ctx, dcg_u64 addr, dcg_u64 *start,
			    dcg_u64 *end)
{
	unsigned long size = 0, off = 0;

	if (!dcg_ksize_offset || addr < TASK_SIZE_MAX ||
	    !dcg_ksize_offset(addr, &size, &off) || !size)
		return -1;
	*start = addr - off;
	*end = *start + size;
	return 0;
}

/*
 * Text output: "name" or "name [module]" of a kernel address, from the
 * kernel's kallsyms (stap has no kernel symbol table without the -dbg
 * package).  NULL for a user address or an unknown one.  The scratch
 * buffer is per CPU: sprint_symbol() wants KSYM_SYMBOL_LEN bytes, too
 * many for the #DB stack.
 */
static DEFINE_PER_CPU(char [KSYM_SYMBOL_LEN], dcg_ksym_scratch);

/*
 * sprint_symbol() writes "name+0x1c/0x80 [module]": keep the name and
 * the module, and with @with_off the offset too, except at the entry
 * ("name", as dcg-report names an address).
 */
static const char *dcg_ksym_format(u64 addr, char *out, size_t len,
				   bool with_off)
{
	char *b, *plus, *slash, *mod;
	int found;

	if (addr < TASK_SIZE_MAX || !len)
		return NULL;
	b = get_cpu_ptr(dcg_ksym_scratch);
	sprint_symbol(b, addr);
	plus = strchr(b, '+');
	slash = plus ? strchr(plus, '/') : NULL;
	found = with_off ? slash != NULL : plus != NULL;
	if (found) {
		mod = strchr(plus, ' ');
		*(with_off && strncmp(plus, "+0x0/", 5) ? slash : plus) = 0;
		snprintf(out, len, "%s%s", b, mod ? mod : "");
	}
	put_cpu_ptr(dcg_ksym_scratch);
	return found ? out : NULL;
}

static const char *dcg_ksym_text(u64 addr, char *out, size_t len)
{
	return dcg_ksym_format(addr, out, len, false);
}

/* "name+0x1c [module]", or "name" at the entry. */
static const char *dcg_ksym_text_off(u64 addr, char *out, size_t len)
{
	return dcg_ksym_format(addr, out, len, true);
}

/* This module's own code: probe handlers, our notifiers and works. */
static int dcg_kaddr_is_own(unsigned long ip)
{
	return within_module(ip, THIS_MODULE);
}

/*
 * Addresses to name in the KSYM records: a small lock-free set (slots
 * claimed with cmpxchg), filled from probe handlers and at the end.
 */
#define DCG_KSYM_SET	8192
static u64 dcg_ksym_set[DCG_KSYM_SET];
static atomic64_t dcg_ksym_overflow;

static void dcg_ksym_note(u64 addr)
{
	u32 i = (u32)((addr * 0x9e3779b97f4a7c15ULL) >> 51) &
		(DCG_KSYM_SET - 1);
	int n;

	if (addr < TASK_SIZE_MAX)
		return;
	for (n = 0; n < 64; n++, i = (i + 1) & (DCG_KSYM_SET - 1)) {
		u64 old = READ_ONCE(dcg_ksym_set[i]);

		if (old == addr)
			return;
		if (!old && cmpxchg64(&dcg_ksym_set[i], 0, addr) == 0)
			return;
		if (READ_ONCE(dcg_ksym_set[i]) == addr)
			return;
	}
	atomic64_inc(&dcg_ksym_overflow);
}

/*
 * Parse sprint_symbol()'s "name+0xoff/0xsize [module]" into a KSYM
 * record at @rec (DCG_REC_MAX_SIZE bytes).  Returns its size, 0 if the
 * address has no symbol.
 */
static unsigned int dcg_ksym_record(u64 addr, char *text, void *rec)
{
	struct dcg_rec_ksym *k = rec;
	char *plus, *slash, *mod, *name = (char *)(k + 1);
	unsigned long off, size;
	int len;

	sprint_symbol(text, addr);
	plus = strchr(text, '+');
	slash = plus ? strchr(plus, '/') : NULL;
	if (!plus || !slash)
		return 0;
	*plus = 0;
	*slash = 0;
	mod = strchr(slash + 1, ' ');
	if (mod)
		*mod++ = 0;
	if (kstrtoul(plus + 1, 16, &off) || kstrtoul(slash + 1, 16, &size))
		return 0;
	memset(k, 0, sizeof(*k));
	if (mod && *mod == '[')
		len = snprintf(name, 512, "%s\t%s", text, mod);
	else
		len = snprintf(name, 512, "%s", text);
	if (len >= 512)
		return 0;
	name[len++] = 0;
	k->r.type = DCG_REC_KSYM;
	k->r.size = ALIGN(sizeof(*k) + len, 8);
	memset(name + len, 0, k->r.size - sizeof(*k) - len);
	k->addr = addr - off;
	k->size = size;
	k->type = 't';
	return k->r.size;
}

/*
 * The kernel's text as a MAP record (tid 0, "[kernel.kallsyms]", the
 * name perf gives it) with the kernel's build-id: dcg-report finds the
 * DWARF vmlinux of this very build by it.  Readers open only MAP paths
 * that start with '/', so older ones skip it.
 */
static void dcg_kernel_map_write(void *rec)
{
	static const char path[] = "[kernel.kallsyms]";
	struct dcg_rec_map *m = rec;
	u64 start = kallsyms_lookup_name("_stext");
	u64 end = kallsyms_lookup_name("_etext");
	unsigned int size = ALIGN(sizeof(*m) + sizeof(path), 8);

	if (!start || end <= start)
		return;
	memset(m, 0, size);
	m->r.type = DCG_REC_MAP;
	m->r.size = size;
	m->start = start;
	m->end = end;
	m->prot = 5;		/* r-x */
	m->build_id_len = dcg_kernel_build_id(m->build_id);
	memcpy(m + 1, path, sizeof(path));
	dcg_out_commit(m, size);
}

/* Probe end, binary output: one KSYM per noted function. */
static void dcg_ksyms_write(void)
{
	static char text[KSYM_SYMBOL_LEN];
	static u64 rec[DCG_REC_MAX_SIZE / 8];
	u32 i, noted = 0, unwritten = 0;
	s64 overflow;

	if (dcg_g.output != DCG_OUT_BINARY)
		return;
	dcg_kernel_map_write(rec);
	for (i = 0; i < DCG_EDGE_SIZE; i++) {
		struct dcg_edge *e = &dcg_edges[i];

		if (atomic_read(&e->state) != DCG_EDGE_READY)
			continue;
		if (e->caller)
			dcg_ksym_note(e->caller);
		dcg_ksym_note(e->callee);
	}
	for (i = 0; i < DCG_KSYM_SET; i++) {
		u64 a = READ_ONCE(dcg_ksym_set[i]);
		unsigned int n;

		if (!a)
			continue;
		noted++;
		n = dcg_ksym_record(a, text, rec);
		if (!n)
			continue;
		if (dcg_out_commit(rec, n))
			unwritten++;
		else
			atomic64_inc(&dcg_k.ksyms);
	}
	/* Nothing is lost silently: a name missing here is a bare address. */
	overflow = atomic64_read(&dcg_ksym_overflow);
	if (unwritten || overflow)
		_stp_warn("dynamic call graph: %u of %u KSYM records not written (transport full), %lld addresses not noted (set full); dcg-report --kallsyms FILE (a copy of /proc/kallsyms) names them",
			  unwritten, noted, (long long)overflow);
}
