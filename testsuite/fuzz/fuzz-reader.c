// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-reader - libFuzzer target for the one trace reader.
 *
 * The input is read from an exactly-sized heap copy, so that ASan
 * catches any read past its end.  Invariants (abort on failure):
 *  - every record handed out lies inside the input, at the offset the
 *    reader says, with a size that is a multiple of 8 in [8, 4096];
 *  - the first record is a header with the magic and version;
 *  - records of known types are at least their minimum size, events
 *    have a known kind, map paths and ksym names end inside the record;
 *  - a clean end consumed the input exactly; an error names the input
 *    and an offset inside it, and the reader then stays in error;
 *  - reading again after a rewind gives the same records and result.
 */
/* fuzz-sources: tools/lib/trace_read.c */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_read.h"

#define CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "fuzz-reader: invariant failed: %s\n", #cond); \
		abort();						\
	}								\
} while (0)

static void check_record(const struct dcg_rec *rec, const unsigned char *data,
			 size_t len, dcg_u64 off, bool first)
{
	const unsigned char *p = (const unsigned char *)rec;

	CHECK(off + rec->size <= len);
	CHECK(memcmp(p, data + off, rec->size) == 0);
	CHECK(rec->size % 8 == 0 && rec->size >= 8 &&
	      rec->size <= DCG_REC_MAX_SIZE);
	if (first) {
		const struct dcg_rec_header *h = (const void *)rec;

		CHECK(rec->type == DCG_REC_HEADER);
		CHECK(memcmp(h->magic, DCG_TRACE_MAGIC, 8) == 0);
		CHECK(h->version == DCG_TRACE_VERSION);
	}
	if (dcg_rec_min_size(rec->type))
		CHECK(rec->size >= dcg_rec_min_size(rec->type));
	switch (rec->type) {
	case DCG_REC_EVENT: {
		const struct dcg_rec_event *ev = (const void *)rec;

		CHECK(ev->kind >= DCG_EV_CALL && ev->kind <= DCG_EV_ASYNC);
		break;
	}
	case DCG_REC_MAP:
		CHECK(strlen(dcg_rec_map_path((const void *)rec)) <
		      rec->size - sizeof(struct dcg_rec_map));
		break;
	case DCG_REC_KSYM:
		CHECK(strlen(dcg_rec_ksym_name((const void *)rec)) <
		      rec->size - sizeof(struct dcg_rec_ksym));
		break;
	}
}

/* Read everything; returns the number of records, sets *result. */
static dcg_u64 read_all(struct dcg_reader *r, const unsigned char *data,
			size_t len, int *result)
{
	const struct dcg_rec *rec;
	dcg_u64 n = 0, off = 0;
	int rc;

	while ((rc = dcg_reader_next(r, &rec)) > 0) {
		CHECK(r->offset == off);
		check_record(rec, data, len, off, n == 0);
		off += rec->size;
		n++;
	}
	if (rc == 0) {
		CHECK(off == len);
		CHECK(n > 0);
	} else {
		const char *e = dcg_reader_error(r);

		CHECK(rc == -1);
		CHECK(strncmp(e, "fuzz: offset ", 13) == 0);
		CHECK(strtoull(e + 13, NULL, 10) <= len);
		CHECK(dcg_reader_next(r, &rec) == -1);
	}
	*result = rc;
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *copy = malloc(size ? size : 1);
	struct dcg_reader r;
	dcg_u64 n1, n2;
	int rc1, rc2;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	CHECK(dcg_reader_open_mem(&r, "fuzz", copy, size) == 0);
	n1 = read_all(&r, copy, size, &rc1);
	CHECK(dcg_reader_rewind(&r) == 0);
	n2 = read_all(&r, copy, size, &rc2);
	CHECK(n1 == n2 && rc1 == rc2);
	dcg_reader_close(&r);
	free(copy);
	return 0;
}
