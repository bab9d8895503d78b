// SPDX-License-Identifier: GPL-2.0
/*
 * script_api.c - what the tapset calls (tapset/dynamic_callgraph.stp):
 * one function per script function, so that the tapset reaches no
 * runtime global itself.  A function that can refuse returns NULL or
 * the message for the script's error(); one whose message has numbers
 * in it writes it into @err (the probe context's error buffer).
 */

/*
 * probe begin: BTF, the hooks, the notifier.  (The transport's part,
 * dcg_stp_transport_init(), is expanded in the tapset: kcompat.h S4.)
 */
static const char *dcg_script_begin(void)
{
	dcg_begin();
	if (dcg_notifier_register())
		return "dynamic_call_graph: cannot register the die notifier";
	dcg_kernel_begin();	/* dyncg kernel mode: needs the teardown */
	return NULL;
}

/* probe end and error: close, summarize, queue the teardown. */
static void dcg_script_end(void)
{
	dcg_close_all();
	dcg_kernel_end();	/* dyncg kernel mode: summary, KSYM records */
	dcg_user_summary();	/* summary.c */
	dcg_slots_warn();	/* task_slots.c */
	dcg_window_warn();	/* user_window.c */
	if (dcg_g.output != DCG_OUT_BINARY) {
		dcg_skip_print();	/* skip.c */
		dcg_hop_print();	/* hop_breakpoints.c */
	}
	if (dcg_g.print_edges)
		dcg_edge_print();
	dcg_out_stats();
	dcg_end();
}

/*
 * "block", "step" or "hop" (dynamic_call_graph_set_mode()); detects
 * BTF if probe begin has not run yet.
 */
static const char *dcg_script_mode(void)
{
	if (!dcg_g.start_ns)
		dcg_begin();
	return dcg_hop_mode_name();
}

static const char *dcg_script_max_depth(s64 n, char *err, size_t len)
{
	u32 cap;

	if (n < 1 || n > DCG_SCRIPT_DEPTH_LIMIT) {
		snprintf(err, len,
			 "dynamic_call_graph_max_depth: absurd depth %lld (1..%d)",
			 (long long)n, DCG_SCRIPT_DEPTH_LIMIT);
		return err;
	}
	/* skip.c: the skipped frame (depth n + 1) must fit the stack */
	cap = n < DCG_SCRIPT_DEPTH_LIMIT ? (u32)n + 1 : DCG_SCRIPT_DEPTH_LIMIT;
	WRITE_ONCE(dcg_g.max_depth, max_t(u32, cap, DCG_DEFAULT_DEPTH));
	WRITE_ONCE(dcg_skip_g.depth, (u32)n);
	return NULL;
}

static const char *dcg_script_budget(s64 n)
{
	if (n < 0)
		return "dynamic_call_graph_budget: negative budget";
	WRITE_ONCE(dcg_g.budget, n ? (u64)n : ~0ULL);
	return NULL;
}

static const char *dcg_script_output(const char *how)
{
	int out;

	if (!strcmp(how, "binary"))
		out = DCG_OUT_BINARY;
	else if (!strcmp(how, "text"))
		out = DCG_OUT_TEXT;
	else if (!strcmp(how, "none"))
		out = DCG_OUT_NONE;
	else
		return "dynamic_call_graph_output: expected \"text\", \"binary\" or \"none\"";
	if (atomic64_read(&dcg_g.windows) && out != dcg_g.output)
		return "dynamic_call_graph_output: too late, a window is open already";
	dcg_g.output = out;
	return NULL;
}

/* "NAME: expected LO to HI" when @n is outside [lo, hi]; else NULL. */
static const char *dcg_script_range(const char *name, s64 n, int lo, int hi,
				    char *err, size_t len)
{
	if (n >= lo && n <= hi)
		return NULL;
	snprintf(err, len, "%s: expected %d to %d", name, lo, hi);
	return err;
}

static const char *dcg_script_args(s64 n, char *err, size_t len)
{
	const char *why = dcg_script_range("dynamic_call_graph_args", n, 0,
					   DCG_ARGS_MAX, err, len);

	if (why)
		return why;
	dcg_g.args.nargs = n;
	dcg_g.text_regs = 1;
	return NULL;
}

static const char *dcg_script_arg_strings(s64 n, char *err, size_t len)
{
	const char *why = dcg_script_range("dynamic_call_graph_arg_strings", n,
					   0, DCG_KSTR_MAX, err, len);

	if (why)
		return why;
	dcg_g.args.str_len = n;
	dcg_g.args.str_mask = (1u << DCG_ARGS_MAX) - 1;
	dcg_g.args.str_min = 0x10000;
	dcg_g.args.str_max = TASK_SIZE_MAX;
	dcg_g.text_regs = 1;
	return NULL;
}

static const char *dcg_script_retval(s64 n, char *err, size_t len)
{
	const char *why = dcg_script_range("dynamic_call_graph_retval", n, 0,
					   DCG_RETS_MAX, err, len);

	if (why)
		return why;
	dcg_g.args.nrets = n;
	dcg_g.text_regs = 1;
	return NULL;
}

static void dcg_script_annotate(s64 on)
{
	WRITE_ONCE(dcg_g.annotate, !!on);
}

static void dcg_script_edges(s64 on)
{
	dcg_g.print_edges = !!on;
}

static s64 dcg_script_events(void)
{
	return atomic64_read(&dcg_g.events);
}

static s64 dcg_script_dropped(void)
{
	return atomic64_read(&dcg_g.dropped);
}

static s64 dcg_script_traps(void)
{
	return atomic64_read(&dcg_g.stops);
}
