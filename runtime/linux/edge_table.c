// SPDX-License-Identifier: GPL-2.0
/*
 * edge_table.c - in-module call counts: (caller, callee) -> count.
 *
 * Filled from the #DB handler of any CPU, so it is a fixed-size open
 * addressing table claimed with cmpxchg: no lock, no allocation.  An
 * entry is claimed (EMPTY -> WRITING), its key written, then published
 * (READY); a reader of a WRITING entry waits, which is a few stores on
 * another CPU.  Calls that find no room within a short probe sequence
 * are counted in dcg_edge_overflow and reported with the table.
 *
 * The caller is the function entry of the parent frame (0 for the root
 * of a window), the callee the entry the call went to.  Names are
 * looked up once, when an edge is first seen, while the task that made
 * it is still alive: at probe end its process may be gone.
 */
#ifndef DCG_EDGE_BITS
#define DCG_EDGE_BITS	12
#endif
#define DCG_EDGE_SIZE	(1u << DCG_EDGE_BITS)
#define DCG_EDGE_PROBES	32

enum { DCG_EDGE_EMPTY, DCG_EDGE_WRITING, DCG_EDGE_READY };

struct dcg_edge {
	atomic_t state;
	u64 caller;
	u64 callee;
	const char *caller_name;	/* stap symbol table, or NULL */
	const char *callee_name;
	atomic64_t count;
};

static struct dcg_edge dcg_edges[DCG_EDGE_SIZE];
static atomic64_t dcg_edge_overflow;

static u32 dcg_edge_hash(u64 caller, u64 callee)
{
	u64 h = caller * 0x9e3779b97f4a7c15ULL ^ callee * 0xc2b2ae3d27d4eb4fULL;

	return (u32)(h >> 32) & (DCG_EDGE_SIZE - 1);
}

static const char *dcg_sym_name(u64 addr)
{
	unsigned long size = 0, off = 0;
	const char *mod = NULL;

	if (!addr)
		return NULL;
	return _stp_kallsyms_lookup(addr, &size, &off, &mod, current);
}

static int dcg_edge_match(struct dcg_edge *e, u64 caller, u64 callee)
{
	int spins = 0;

	while (atomic_read(&e->state) == DCG_EDGE_WRITING && spins++ < 10000)
		cpu_relax();
	smp_rmb();
	return atomic_read(&e->state) == DCG_EDGE_READY &&
	       e->caller == caller && e->callee == callee;
}

static void dcg_edge_add(u64 caller, u64 callee)
{
	u32 i = dcg_edge_hash(caller, callee);
	int n;

	for (n = 0; n < DCG_EDGE_PROBES; n++, i = (i + 1) & (DCG_EDGE_SIZE - 1)) {
		struct dcg_edge *e = &dcg_edges[i];

		if (atomic_read(&e->state) == DCG_EDGE_EMPTY &&
		    atomic_cmpxchg(&e->state, DCG_EDGE_EMPTY,
				   DCG_EDGE_WRITING) == DCG_EDGE_EMPTY) {
			e->caller = caller;
			e->callee = callee;
			e->caller_name = dcg_sym_name(caller);
			e->callee_name = dcg_sym_name(callee);
			smp_wmb();
			atomic_set(&e->state, DCG_EDGE_READY);
			atomic64_inc(&e->count);
			return;
		}
		if (dcg_edge_match(e, caller, callee)) {
			atomic64_inc(&e->count);
			return;
		}
	}
	atomic64_inc(&dcg_edge_overflow);
}

/* Binary mode: one EDGE record per entry.  Text mode: a table. */
static void dcg_edge_print(void)
{
	u32 i, n = 0, unwritten = 0;
	int text = dcg_g.output != DCG_OUT_BINARY;

	for (i = 0; i < DCG_EDGE_SIZE; i++)
		n += atomic_read(&dcg_edges[i].state) == DCG_EDGE_READY;
	if (!text)
		dcg_out_header(NULL);
	if (text)
		_stp_printf("dynamic call graph: %u edges, %lld calls not counted (table full)\n",
			    n, (long long)atomic64_read(&dcg_edge_overflow));
	for (i = 0; i < DCG_EDGE_SIZE; i++) {
		struct dcg_edge *e = &dcg_edges[i];

		if (atomic_read(&e->state) != DCG_EDGE_READY)
			continue;
		if (text) {
			/* dyncg kernel mode: kernel names from kallsyms */
			char kr[128], ke[128];
			const char *rn = e->caller_name ?:
					 dcg_ksym_text(e->caller, kr, sizeof(kr));
			const char *en = e->callee_name ?:
					 dcg_ksym_text(e->callee, ke, sizeof(ke));

			_stp_printf("edge %#llx %s -> %#llx %s %lld\n",
				    e->caller, rn ?: (e->caller ? "?" : "(root)"),
				    e->callee, en ?: "?",
				    (long long)atomic64_read(&e->count));
		} else {
			struct dcg_rec_edge r;

			memset(&r, 0, sizeof(r));
			r.r.type = DCG_REC_EDGE;
			r.r.size = sizeof(r);
			r.caller = e->caller;
			r.callee = e->callee;
			r.count = atomic64_read(&e->count);
			/*
			 * Committed one by one: the print buffer of the end
			 * probe holds only a few hundred records.
			 */
			if (dcg_out_commit(&r, sizeof(r)))
				unwritten++;
		}
	}
	if (text)
		_stp_print_flush();
	/* Nothing is lost silently: say what the table could not write. */
	if (unwritten)
		_stp_warn("dynamic call graph: %u of %u edge records not written (transport full)",
			  unwritten, n);
}
