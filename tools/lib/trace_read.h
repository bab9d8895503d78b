/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_read.h - the one streaming reader of dyncg traces.
 *
 * Every tool and view reads traces through this, and so does the fuzz
 * target, so it depends on nothing but libc (no libdw).  Memory use is
 * constant: one read buffer, whatever the size of the trace.
 *
 * dcg_reader_next() hands out one validated record at a time.  The
 * pointer stays valid until the next call.  A record is valid when:
 *   - the stream starts with a DCG_REC_HEADER with the right magic and a
 *     supported version (1 to 3; every header of the stream the same);
 *   - its size is a multiple of 8, at least sizeof(struct dcg_rec), at
 *     most DCG_REC_MAX_SIZE, and at least the minimum of its type;
 *   - its string fields (map path, ksym name) end in a NUL inside it;
 *   - every field holds what a tracer can write: header host, mode and
 *     flags; an event's kind, flags (no unknown bits, RET-only flags on
 *     a RET, ROOT on a CALL) and depth (>= 1 for CALL/ASYNC, 0 for an
 *     unmatched RET, < DCG_EVENT_DEPTH_MAX for a RET); a map's start below
 *     its end and its prot bits; a thread's what; a LOST's reason; a
 *     PROFILE's size (its nent entries, no more), flags, and entries
 *     (ninsns and count >= 1, start + ninsns not wrapping); every tid
 *     and pid below DCG_TID_LIMIT;
 *   - a version 3 event longer than 56 bytes holds exactly one register
 *     block (dcg_ev_argv_get() below): see check_args() in the .c.
 * Records of unknown types are skipped by their size and counted.
 * The first invalid record ends the stream: dcg_reader_next() returns
 * -1 and dcg_reader_error() gives "FILE: offset N: what is wrong".
 */
#ifndef DCG_TRACE_READ_H
#define DCG_TRACE_READ_H

#include <stddef.h>
#include <stdbool.h>
#include "dcg_event.h"

#define DCG_READER_BUFSIZE	(1u << 20)
/*
 * The newest version this reader reads: 3 adds register blocks to
 * events (issue #17).  Producers write DCG_TRACE_VERSION, never more.
 */
#define DCG_READ_VERSION_MAX	3
#if DCG_TRACE_VERSION > DCG_READ_VERSION_MAX
#error "the reader does not know this trace version yet"
#endif
#define DCG_REC_TYPES		(DCG_REC_PROFILE + 1)

/* One string of a register block: bytes point into the record. */
struct dcg_ev_strv {
	unsigned int argno;		/* index into regs[] */
	unsigned int flags;		/* DCG_STR_* */
	unsigned int len;
	const char *bytes;		/* len bytes, no NUL */
};

/* An event's register block, unpacked. */
struct dcg_ev_argv {
	bool present;			/* the event carried a block */
	unsigned int nregs, nstr;
	dcg_u64 regs[DCG_ARGS_MAX];
	struct dcg_ev_strv str[DCG_ARGS_MAX];	/* at most one per register */
};

struct dcg_reader {
	const char *name;		/* for messages */
	int fd;				/* -1 when reading memory */
	bool own_fd;
	const unsigned char *mem;	/* memory input (fuzzing, tests) */
	size_t mem_len, mem_pos;

	unsigned char *buf;		/* bufsize bytes */
	size_t bufsize;
	size_t pos, len;		/* unread bytes are buf[pos..len) */
	bool eof;

	dcg_u64 offset;			/* file offset of the current record */
	dcg_u64 next_offset;

	struct dcg_rec_header header;	/* the first header */
	bool have_header;
	/* a version 1 event, widened: insns 0 (dcg_reader_has_insns) */
	struct dcg_rec_event ev_v1;
	/* the last register block checked, for dcg_ev_argv_get() */
	const void *args_rec;
	struct dcg_ev_argv *args;

	/* What the stream held, for footers and --stats. */
	dcg_u64 count[DCG_REC_TYPES];	/* records by known type */
	dcg_u64 unknown;		/* records of unknown types, skipped */
	dcg_u64 lost;			/* sum of LOST counts */
	dcg_u64 lost_by_reason[4];	/* [0] = unknown reason */
	dcg_u64 profile_dropped;	/* sum of PROFILE dropped insns */
	dcg_u64 inexact;		/* events with DCG_EVF_INEXACT: their
					 * insns are lower bounds */
	bool have_stats;
	struct dcg_rec_stats stats;	/* the last STATS record */

	char err[512];
};

/* Open @path ("-" is stdin).  Returns 0, or -1 with the error set. */
int dcg_reader_open(struct dcg_reader *r, const char *path);

/* Read @len bytes at @data (not copied; must outlive the reader). */
int dcg_reader_open_mem(struct dcg_reader *r, const char *name,
			const void *data, size_t len);

/* Next record: 1 and *out set, 0 at a clean end, -1 on error. */
int dcg_reader_next(struct dcg_reader *r, const struct dcg_rec **out);

/* Start again from the top (regular files and memory only): 0 or -1. */
int dcg_reader_rewind(struct dcg_reader *r);

/* True when the input can be read twice (dcg_reader_rewind works). */
bool dcg_reader_seekable(const struct dcg_reader *r);

const char *dcg_reader_error(const struct dcg_reader *r);

/*
 * Do events carry instruction counts?  Version 1 traces do not: their
 * events are handed out widened to the current struct, insns 0.
 */
static inline bool dcg_reader_has_insns(const struct dcg_reader *r)
{
	return r->have_header && r->header.version >= 2;
}

void dcg_reader_close(struct dcg_reader *r);

/*
 * The register block of @ev, a validated event handed out by @r (a
 * version 3 event longer than 56 bytes); present false if none.  The
 * strings point into the record: valid as long as it is.
 */
void dcg_ev_argv_get(const struct dcg_reader *r,
		     const struct dcg_rec_event *ev, struct dcg_ev_argv *a);

/* The string read from register @argno, or NULL. */
const struct dcg_ev_strv *dcg_ev_argv_str(const struct dcg_ev_argv *a,
					  unsigned int argno);

/* Can this stream's events carry register blocks (version >= 3)? */
static inline bool dcg_reader_has_args(const struct dcg_reader *r)
{
	return r->have_header && r->header.version >= 3;
}

/* Strings inside validated records. */
const char *dcg_rec_map_path(const struct dcg_rec_map *m);
const char *dcg_rec_ksym_name(const struct dcg_rec_ksym *k);

/* The entries of a validated PROFILE record. */
const struct dcg_prof_ent *dcg_rec_profile_ent(const struct dcg_rec_profile *p);

/* Minimum size of a record of @type, 0 for unknown types. */
size_t dcg_rec_min_size(unsigned int type);

/* Names for messages and text output; never NULL. */
const char *dcg_ev_kind_name(unsigned int kind);
const char *dcg_lost_reason_name(unsigned int reason);
const char *dcg_mode_name(unsigned int mode);

#endif /* DCG_TRACE_READ_H */
