// SPDX-License-Identifier: GPL-2.0
/*
 * trace_write.c - the one trace writer.
 *
 * Records are built on the stack, zero-padded to a multiple of 8 and
 * written with stdio; the buffering is what keeps a trace with millions
 * of events cheap.  Errors are sticky: the first one is kept and
 * returned from every later call and from close.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <gelf.h>
#include <elfutils/libdwelf.h>
#include "trace_write.h"

#define ALIGN8(n) (((n) + 7u) & ~7u)

static int put(struct dcg_writer *w, const void *rec, size_t size)
{
	if (w->error)
		return -w->error;
	if (fwrite(rec, 1, size, w->f) != size) {
		w->error = errno ? errno : EIO;
		return -w->error;
	}
	w->bytes += size;
	return 0;
}

static void rec_init(struct dcg_rec *r, unsigned int type, size_t size,
		     dcg_u32 tid)
{
	r->type = type;
	r->size = size;
	r->tid = tid;
}

int dcg_writer_open(struct dcg_writer *w, const char *path,
		    dcg_u64 max_events)
{
	memset(w, 0, sizeof(*w));
	w->max_events = max_events;
	if (strcmp(path, "-") == 0)
		w->f = stdout;
	else
		w->f = fopen(path, "wb");
	if (!w->f)
		return -errno;
	/* A big buffer: traces are written by the million. */
	setvbuf(w->f, NULL, _IOFBF, 1 << 20);
	return 0;
}

int dcg_write_header(struct dcg_writer *w, unsigned int host,
		     unsigned int mode, dcg_u32 pid, dcg_u32 flags,
		     dcg_u64 start_ns, const char *comm)
{
	struct dcg_rec_header h;

	memset(&h, 0, sizeof(h));
	rec_init(&h.r, DCG_REC_HEADER, sizeof(h), 0);
	memcpy(h.magic, DCG_TRACE_MAGIC, sizeof(h.magic));
	h.version = DCG_TRACE_VERSION;
	h.host = host;
	h.mode = mode;
	h.pid = pid;
	h.flags = flags;
	h.start_ns = start_ns;
	if (comm)
		strncpy(h.comm, comm, sizeof(h.comm) - 1);
	return put(w, &h, sizeof(h));
}

int dcg_write_event(struct dcg_writer *w, const struct dcg_rec_event *ev)
{
	struct dcg_rec_event e = *ev;
	int ret;

	w->produced++;
	if (w->max_events && w->written >= w->max_events) {
		w->dropped++;
		w->unreported++;
		return 0;
	}
	rec_init(&e.r, DCG_REC_EVENT, sizeof(e), ev->r.tid);
	ret = put(w, &e, sizeof(e));
	if (ret < 0) {
		/* an event we failed to write is a dropped one */
		w->dropped++;
		w->unreported++;
		return ret;
	}
	w->written++;
	return 1;
}

int dcg_write_map(struct dcg_writer *w, dcg_u32 pid, dcg_u64 start,
		  dcg_u64 end, dcg_u64 pgoff, unsigned int prot,
		  const char *path, const void *build_id,
		  unsigned int build_id_len)
{
	union {
		struct dcg_rec_map m;
		char buf[DCG_REC_MAX_SIZE];
	} u;
	size_t plen = strlen(path) + 1;
	size_t size;

	/* Paths longer than a record can hold are cut, not refused. */
	if (sizeof(u.m) + plen > DCG_REC_MAX_SIZE)
		plen = DCG_REC_MAX_SIZE - sizeof(u.m);
	size = ALIGN8(sizeof(u.m) + plen);
	memset(u.buf, 0, size);
	rec_init(&u.m.r, DCG_REC_MAP, size, pid);
	u.m.start = start;
	u.m.end = end;
	u.m.pgoff = pgoff;
	u.m.prot = prot;
	if (build_id && build_id_len) {
		if (build_id_len > sizeof(u.m.build_id))
			build_id_len = sizeof(u.m.build_id);
		memcpy(u.m.build_id, build_id, build_id_len);
		u.m.build_id_len = build_id_len;
	}
	memcpy(u.buf + sizeof(u.m), path, plen - 1);
	return put(w, u.buf, size);
}

int dcg_read_build_id(const char *path, void *buf, unsigned int size)
{
	const void *id;
	ssize_t len;
	Elf *elf;
	int fd;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		close(fd);
		return -ENOEXEC;
	}
	len = dwelf_elf_gnu_build_id(elf, &id);
	if (len > 0) {
		if ((size_t)len > size)
			len = size;
		memcpy(buf, id, len);
	} else {
		len = -ENOENT;
	}
	elf_end(elf);
	close(fd);
	return len;
}

int dcg_write_map_file(struct dcg_writer *w, dcg_u32 pid, dcg_u64 start,
		       dcg_u64 end, dcg_u64 pgoff, unsigned int prot,
		       const char *path)
{
	dcg_u8 id[24];
	int len = -1;

	if (path[0] == '/')
		len = dcg_read_build_id(path, id, sizeof(id));
	return dcg_write_map(w, pid, start, end, pgoff, prot, path,
			     len > 0 ? id : NULL, len > 0 ? len : 0);
}

int dcg_write_thread(struct dcg_writer *w, dcg_u32 tid, dcg_u64 ts,
		     unsigned int what, dcg_u32 pid, const char *comm)
{
	struct dcg_rec_thread t;

	memset(&t, 0, sizeof(t));
	rec_init(&t.r, DCG_REC_THREAD, sizeof(t), tid);
	t.ts = ts;
	t.what = what;
	t.pid = pid;
	if (comm)
		strncpy(t.comm, comm, sizeof(t.comm) - 1);
	return put(w, &t, sizeof(t));
}

int dcg_write_pending_lost(struct dcg_writer *w, dcg_u32 tid, dcg_u64 ts,
			   unsigned int reason)
{
	struct dcg_rec_lost l;
	int ret;

	if (!w->unreported)
		return 0;
	memset(&l, 0, sizeof(l));
	rec_init(&l.r, DCG_REC_LOST, sizeof(l), tid);
	l.ts = ts;
	l.count = w->unreported;
	l.reason = reason;
	ret = put(w, &l, sizeof(l));
	if (ret == 0)
		w->unreported = 0;
	return ret;
}

int dcg_write_stats(struct dcg_writer *w, dcg_u64 ts, dcg_u64 stops,
		    dcg_u64 resyncs, dcg_u64 decode_errors)
{
	struct dcg_rec_stats s;

	dcg_write_pending_lost(w, 0, ts, DCG_LOST_BUDGET);
	memset(&s, 0, sizeof(s));
	rec_init(&s.r, DCG_REC_STATS, sizeof(s), 0);
	s.stops = stops;
	s.produced = w->produced;
	s.written = w->written;
	s.dropped = w->dropped;
	s.resyncs = resyncs;
	s.decode_errors = decode_errors;
	return put(w, &s, sizeof(s));
}

int dcg_writer_close(struct dcg_writer *w)
{
	int err = w->error;

	if (!w->f)
		return -err;
	if (fflush(w->f) != 0 && !err)
		err = errno ? errno : EIO;
	if (w->f != stdout && fclose(w->f) != 0 && !err)
		err = errno ? errno : EIO;
	w->f = NULL;
	return -err;
}
