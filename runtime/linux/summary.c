// SPDX-License-Identifier: GPL-2.0
/*
 * summary.c - the end-of-session counters, as tables of (name, text,
 * counter).  Each summary line is printed from its table: the text of
 * every entry (a fragment with one %lld, separators included) in order,
 * for the live text at probe end; and the same counters as
 * "name=value ..." for a script function that returns them
 * (dynamic_call_graph_skip_stats()).  One list per line, so a counter
 * cannot be in one form and missing from the other.
 */

struct dcg_counter {
	const char *name;	/* name=value form */
	const char *text;	/* printf fragment with one %lld */
	atomic64_t *v;
};

/* The fragments of @n counters, into the print buffer (no newline). */
static void dcg_counters_print(const struct dcg_counter *c, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		_stp_printf(c[i].text, (long long)atomic64_read(c[i].v));
}

/* "name=value name=value ..." of @n counters into @buf. */
static void dcg_counters_format(char *buf, size_t len,
				const struct dcg_counter *c, unsigned int n)
{
	unsigned int i;
	size_t at = 0;

	if (len)
		buf[0] = 0;
	for (i = 0; i < n && at < len; i++)
		at += scnprintf(buf + at, len - at, "%s%s=%lld", i ? " " : "",
				c[i].name, (long long)atomic64_read(c[i].v));
}

/* User windows, all of them (dcg_g). */
static const struct dcg_counter dcg_user_counters[] = {
	{ "windows", ", %lld windows", &dcg_g.windows },
	{ "traps", ", %lld traps", &dcg_g.stops },
	{ "events", ", %lld events", &dcg_g.events },
	{ "written", " (%lld written", &dcg_g.written },
	{ "dropped", ", %lld dropped)", &dcg_g.dropped },
	{ "aborted", ", %lld aborted", &dcg_g.aborted },
	{ "tail_traps", ", %lld tail traps", &dcg_g.tail_traps },
	{ "inherited", ", %lld inherited traps", &dcg_g.foreign_claimed },
};

/*
 * probe end, live text: the summary line of user windows, and with
 * output "none" how many events were counted but not written by
 * request, so that produced = written + dropped + not output adds up.
 */
static void dcg_user_summary(void)
{
	if (dcg_g.output == DCG_OUT_BINARY || !atomic64_read(&dcg_g.windows))
		return;
	_stp_printf("dynamic call graph: mode %s", dcg_hop_mode_name());
	dcg_counters_print(dcg_user_counters, ARRAY_SIZE(dcg_user_counters));
	_stp_printf("\n");
	if (dcg_g.output == DCG_OUT_NONE)
		_stp_printf("dynamic call graph: output none: %lld events counted, not written\n",
			    (long long)(atomic64_read(&dcg_g.events) -
					atomic64_read(&dcg_g.written) -
					atomic64_read(&dcg_g.dropped)));
}
