// SPDX-License-Identifier: GPL-2.0
/*
 * trace_write.c - the one trace writer.
 *
 * Records are built on the stack, zero-padded to a multiple of 8 and
 * gathered in a buffer of our own, written out with write() when full
 * and at close; the buffering is what keeps a trace with millions of
 * events cheap.  Not stdio: an event counts as written only once its
 * bytes are in the file (the kernel took them), not when it entered a
 * buffer, so that "events written" stays true when the file cannot
 * take them (a full disk, /dev/full, a reader gone): events lost with
 * a failed write count as dropped.  Errors are sticky: the first one
 * is kept and returned from every later call and from close.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gelf.h>
#include <elfutils/libdwelf.h>
#include "trace_write.h"

#define ALIGN8(n) (((n) + 7u) & ~7u)
#define BUF_SIZE (1u << 20)	/* traces are written by the million */

/* Whole event records in the first @n bytes of the buffer. */
static dcg_u64 events_in(const struct dcg_writer *w, size_t n)
{
	struct dcg_rec r;
	dcg_u64 count = 0;
	size_t pos = 0;

	while (pos + sizeof(r) <= n) {
		memcpy(&r, w->buf + pos, sizeof(r));
		if (r.size < sizeof(r) || pos + r.size > n)
			break;
		if (r.type == DCG_REC_EVENT)
			count++;
		pos += r.size;
	}
	return count;
}

/*
 * Write the buffer out.  The events it holds become written; after a
 * failure, those the file did take (a short write) are written, the
 * others dropped.
 */
static int flush_buf(struct dcg_writer *w)
{
	size_t off = 0;
	dcg_u64 done;
	ssize_t n;

	while (off < w->len) {
		n = write(w->fd, w->buf + off, w->len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			w->error = n < 0 && errno ? errno : EIO;
			break;
		}
		off += n;
	}
	done = off == w->len ? w->buffered : events_in(w, off);
	w->written += done;
	w->dropped += w->buffered - done;
	w->buffered = 0;
	w->len = 0;
	return -w->error;
}

int dcg_writer_flush(struct dcg_writer *w)
{
	if (w->error)
		return -w->error;
	return flush_buf(w);
}

static int put(struct dcg_writer *w, const void *rec, size_t size)
{
	if (w->error)
		return -w->error;
	if (w->len + size > BUF_SIZE && flush_buf(w) < 0)
		return -w->error;
	memcpy(w->buf + w->len, rec, size);
	w->len += size;
	w->bytes += size;
	return 0;
}

int dcg_writer_open(struct dcg_writer *w, const char *path,
		    dcg_u64 max_events)
{
	memset(w, 0, sizeof(*w));
	w->max_events = max_events;
	w->buf = malloc(BUF_SIZE);
	if (!w->buf)
		return -ENOMEM;
	if (strcmp(path, "-") == 0) {
		w->fd = 1;
		return 0;
	}
	w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (w->fd < 0) {
		int err = errno;

		free(w->buf);
		w->buf = NULL;
		return -err;
	}
	w->own_fd = true;
	return 0;
}

int dcg_write_header(struct dcg_writer *w, unsigned int host,
		     unsigned int mode, dcg_u32 pid, dcg_u32 flags,
		     dcg_u64 start_ns, const char *comm)
{
	struct dcg_rec_header h;

	dcg_rec_header_fill(&h, host, mode, pid, flags, start_ns);
	if (comm)
		strncpy(h.comm, comm, sizeof(h.comm) - 1);
	return put(w, &h, sizeof(h));
}

int dcg_write_event(struct dcg_writer *w, const struct dcg_rec_event *ev)
{
	struct dcg_rec_event e = *ev;
	unsigned int size = ev->r.size;
	int ret;

	w->produced++;
	if (w->max_events && w->written + w->buffered >= w->max_events) {
		w->dropped++;
		w->unreported++;
		return 0;
	}
	/*
	 * Version 3: registers may follow the 56 bytes (dcg_ev_regs_append
	 * sized them); anything else is the fixed event.
	 */
	if (size <= sizeof(e) || size > DCG_REC_MAX_SIZE || size % 8)
		size = sizeof(e);
	dcg_rec_init(&e.r, DCG_REC_EVENT, size, ev->r.tid);
	ret = put(w, &e, sizeof(e));
	if (ret >= 0 && size > sizeof(e))
		ret = put(w, ev + 1, size - sizeof(e));
	if (ret < 0) {
		/* an event we failed to write is a dropped one */
		w->dropped++;
		w->unreported++;
		return ret;
	}
	w->buffered++;
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
	dcg_rec_map_fill(&u.m, pid, size, start, end, pgoff, prot);
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

	dcg_rec_thread_fill(&t, tid, ts, what, pid);
	if (comm)
		strncpy(t.comm, comm, sizeof(t.comm) - 1);
	return put(w, &t, sizeof(t));
}

_Static_assert(sizeof(struct dcg_rec_profile) +
	       DCG_PROF_MAX_ENT * sizeof(struct dcg_prof_ent) <=
	       DCG_REC_MAX_SIZE && sizeof(struct dcg_rec_profile) +
	       (DCG_PROF_MAX_ENT + 1) * sizeof(struct dcg_prof_ent) >
	       DCG_REC_MAX_SIZE, "DCG_PROF_MAX_ENT fills a record");

static int put_profile(struct dcg_writer *w, dcg_u32 tid, dcg_u64 ts,
		       const struct dcg_prof_ent *ent, dcg_u32 n,
		       dcg_u64 dropped, unsigned int flags)
{
	unsigned char rec[DCG_REC_MAX_SIZE];
	struct dcg_rec_profile p;

	dcg_rec_profile_fill(&p, tid, ts, dropped, n, flags);
	memcpy(rec, &p, sizeof(p));
	memcpy(rec + sizeof(p), ent, n * sizeof(*ent));
	return put(w, rec, p.r.size);
}

int dcg_write_profile(struct dcg_writer *w, dcg_u32 tid, dcg_u64 ts,
		      const struct dcg_prof_ent *slots, dcg_u32 nslots,
		      dcg_u64 dropped, unsigned int flags)
{
	struct dcg_prof_ent ent[DCG_PROF_MAX_ENT];
	dcg_u32 i, n = 0;
	int r;

	for (i = 0; i < nslots; i++) {
		if (!slots[i].count)
			continue;
		if (n == DCG_PROF_MAX_ENT) {
			r = put_profile(w, tid, ts, ent, n, dropped, 0);
			if (r < 0)
				return r;
			dropped = 0;
			n = 0;
		}
		ent[n++] = slots[i];
	}
	return put_profile(w, tid, ts, ent, n, dropped, flags);
}

int dcg_write_pending_lost(struct dcg_writer *w, dcg_u32 tid, dcg_u64 ts,
			   unsigned int reason)
{
	struct dcg_rec_lost l;
	int ret;

	if (!w->unreported)
		return 0;
	dcg_rec_lost_fill(&l, tid, ts, w->unreported, reason);
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
	dcg_rec_stats_fill(&s);
	s.stops = stops;
	s.produced = w->produced;
	/* what the file holds once the buffer, this record's, is out */
	s.written = w->written + w->buffered;
	s.dropped = w->dropped;
	s.resyncs = resyncs;
	s.decode_errors = decode_errors;
	return put(w, &s, sizeof(s));
}

int dcg_writer_close(struct dcg_writer *w)
{
	int err;

	if (!w->buf)
		return -w->error;
	if (!w->error)
		flush_buf(w);
	/* whatever a failed write left in the buffer is lost */
	w->dropped += w->buffered;
	w->buffered = 0;
	err = w->error;
	if (w->own_fd && close(w->fd) != 0 && !err)
		err = errno ? errno : EIO;
	free(w->buf);
	w->buf = NULL;
	w->error = err;
	return -err;
}
