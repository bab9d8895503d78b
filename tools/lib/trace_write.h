/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_write.h - the one trace writer (format: runtime/dcg_event.h).
 *
 * Every user-space producer writes traces through this; the event
 * budget (--max-events) lives here too so that produced = written +
 * dropped holds by construction, and dropped events always end up in a
 * LOST record before the STATS record closes the file.
 */
#ifndef TRACE_WRITE_H
#define TRACE_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include "dcg_event.h"

struct dcg_writer {
	int fd;
	bool own_fd;		/* opened here (not standard output) */
	unsigned char *buf;
	size_t len;		/* bytes in buf */
	int error;		/* first errno seen, 0 if none */
	dcg_u64 max_events;	/* 0 = no budget */
	dcg_u64 produced;
	dcg_u64 written;	/* events the file took (write() succeeded) */
	dcg_u64 buffered;	/* events in buf, not written yet */
	dcg_u64 dropped;	/* budget, or lost with a failed write */
	dcg_u64 unreported;	/* dropped but not yet in a LOST record */
	dcg_u64 bytes;
};

/* Open @path for writing ("-" = stdout).  Returns 0 or -errno. */
int dcg_writer_open(struct dcg_writer *w, const char *path,
		    dcg_u64 max_events);

/*
 * Write out what is buffered now (e.g. the header: a file that cannot
 * take the trace is found before the tracing starts).  0 or -errno.
 */
int dcg_writer_flush(struct dcg_writer *w);

int dcg_write_header(struct dcg_writer *w, unsigned int host,
		     unsigned int mode, dcg_u32 pid, dcg_u32 flags,
		     dcg_u64 start_ns, const char *comm);

/*
 * Write one event, or drop and count it when the budget is spent.
 * Returns 1 if written, 0 if dropped, <0 on I/O error.
 */
int dcg_write_event(struct dcg_writer *w, const struct dcg_rec_event *ev);

/*
 * A MAP record.  @build_id may be NULL; dcg_write_map_file() reads the
 * build-id of the ELF file at @path itself (libelf/libdwelf).
 */
int dcg_write_map(struct dcg_writer *w, dcg_u32 pid, dcg_u64 start,
		  dcg_u64 end, dcg_u64 pgoff, unsigned int prot,
		  const char *path, const void *build_id,
		  unsigned int build_id_len);
int dcg_write_map_file(struct dcg_writer *w, dcg_u32 pid, dcg_u64 start,
		       dcg_u64 end, dcg_u64 pgoff, unsigned int prot,
		       const char *path);

/* Build-id of the ELF file at @path into @buf; returns its length or <0. */
int dcg_read_build_id(const char *path, void *buf, unsigned int size);

int dcg_write_thread(struct dcg_writer *w, dcg_u32 tid, dcg_u64 ts,
		     unsigned int what, dcg_u32 pid, const char *comm);

/*
 * The used entries (count != 0) of @slots[0..nslots) as PROFILE
 * records of @tid, DCG_PROF_MAX_ENT entries a record; the first
 * carries @dropped, the last @flags.  A table with no entries still
 * gives one record (a window that ran nothing, or only dropped).
 * Returns 0 or -errno.
 */
int dcg_write_profile(struct dcg_writer *w, dcg_u32 tid, dcg_u64 ts,
		      const struct dcg_prof_ent *slots, dcg_u32 nslots,
		      dcg_u64 dropped, unsigned int flags);

/* Write a LOST record for events dropped since the last one, if any. */
int dcg_write_pending_lost(struct dcg_writer *w, dcg_u32 tid, dcg_u64 ts,
			   unsigned int reason);

/*
 * Flush pending LOST, then the STATS record; produced/written/dropped
 * come from the writer's own counts.
 */
int dcg_write_stats(struct dcg_writer *w, dcg_u64 ts, dcg_u64 stops,
		    dcg_u64 resyncs, dcg_u64 decode_errors);

/*
 * Write out what is buffered and close; returns 0 or the first error
 * (-errno).  After it, written and dropped are final.
 */
int dcg_writer_close(struct dcg_writer *w);

#endif /* TRACE_WRITE_H */
