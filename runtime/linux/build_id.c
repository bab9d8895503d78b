// SPDX-License-Identifier: GPL-2.0
/*
 * build_id.c - the GNU build-id of a mapped file, for MAP records.
 *
 * dcg-report names an object's code only from a file whose build-id is
 * the one the tracer recorded (issue #16): the machine that reads the
 * trace may hold another build at the same path (the host's libc for a
 * guest's trace).  The id is found as the ELF loader would see it: the
 * ELF header, the program headers, then the notes of each PT_NOTE
 * segment, read with kernel_read().  That may sleep (a page cache
 * miss), so only from task work and without mmap_lock held (the caller
 * holds a reference on the file instead); never from the trap.
 *
 * The running kernel's own id (issue #15: dcg-report finds the DWARF
 * vmlinux by it) is in its notes, [__start_notes, __stop_notes), read
 * in memory with the no-fault copy at probe end.
 *
 * Every offset and size comes from the file, so each is bounded before
 * use: the program headers that fit in a page, notes inside their
 * segment and the file, at most DCG_BID_MAX_NOTES per segment.  The only
 * buffer is the caller's page.  64-bit little-endian ELF only (x86-64
 * processes); anything else, or a file without the note, gives length 0
 * ("unknown"), which the MAP record already means.
 */
#include <linux/elf.h>
#include <linux/file.h>	/* get_file(), fput() for the callers */
#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/uaccess.h>
#include <linux/string.h>

#define DCG_NT_GNU_BUILD_ID	3	/* not in the kernel's uapi elf.h */
#define DCG_BID_MAX_NOTES	32	/* per PT_NOTE segment */
#define DCG_BID_MAX_SEG		(64u << 10)	/* note bytes per segment */
#define DCG_BID_MAX_LEN		24	/* struct dcg_rec_map.build_id */

/* Reads exactly @len bytes at @pos into @buf: 0, or -EIO. */
typedef int (*dcg_bid_read_fn)(void *ctx, void *buf, size_t len, u64 pos);

/* From a file (@ctx); a short file is a bad one. */
static int dcg_bid_read(void *ctx, void *buf, size_t len, u64 pos)
{
	loff_t off = pos;
	ssize_t n = kernel_read(ctx, buf, len, &off);

	return n == (ssize_t)len ? 0 : -EIO;
}

/* From kernel memory (@pos is the address), never faulting. */
static int dcg_bid_read_kernel(void *ctx, void *buf, size_t len, u64 pos)
{
	return copy_from_kernel_nofault(buf, (const void *)pos, len) ? -EIO : 0;
}

/*
 * The build-id note among the notes at [@off, @end) that @rd reads,
 * notes aligned to @align (4, or 8 for a segment of 8-aligned notes such
 * as .note.gnu.property): copied to @id, its length returned; 0 if none.
 */
static unsigned int dcg_bid_notes(dcg_bid_read_fn rd, void *ctx, u64 off,
				  u64 end, u64 align, u8 *id)
{
	Elf64_Nhdr nh;
	unsigned int i;
	char name[4];
	u64 desc, next;

	for (i = 0; i < DCG_BID_MAX_NOTES && off + sizeof(nh) <= end; i++) {
		if (rd(ctx, &nh, sizeof(nh), off))
			return 0;
		/* u32 sizes added to an offset below 2^63: no overflow */
		desc = ALIGN(off + sizeof(nh) + nh.n_namesz, align);
		next = ALIGN(desc + nh.n_descsz, align);
		if (next > end && desc + nh.n_descsz > end)
			return 0;
		if (nh.n_type == DCG_NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    nh.n_descsz && nh.n_descsz <= DCG_BID_MAX_LEN &&
		    !rd(ctx, name, sizeof(name), off + sizeof(nh)) &&
		    !memcmp(name, "GNU", 4) &&
		    !rd(ctx, id, nh.n_descsz, desc))
			return nh.n_descsz;
		off = next;
	}
	return 0;
}

/*
 * The build-id of @f into @id (DCG_BID_MAX_LEN bytes); returns its
 * length, 0 if unknown.  @page: a scratch buffer of PAGE_SIZE bytes.
 * Task work only (may sleep); the caller holds a reference on @f.
 */
static unsigned int dcg_build_id(struct file *f, u8 *id, void *page)
{
	Elf64_Ehdr *eh = page;
	Elf64_Phdr *ph = page;
	u64 isize = i_size_read(file_inode(f));
	u64 phoff, off, end;
	unsigned int i, n, len;

	if (dcg_bid_read(f, eh, sizeof(*eh), 0) ||
	    memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh->e_phentsize != sizeof(*ph))
		return 0;
	/* the headers that fit in the page: a normal object has ~14 */
	n = min_t(unsigned int, eh->e_phnum, PAGE_SIZE / sizeof(*ph));
	phoff = eh->e_phoff;
	if (!n || phoff >= isize ||
	    dcg_bid_read(f, ph, n * sizeof(*ph), phoff))
		return 0;
	for (i = 0; i < n; i++) {
		if (ph[i].p_type != PT_NOTE || ph[i].p_offset >= isize)
			continue;
		off = ph[i].p_offset;
		end = off + min3(ph[i].p_filesz, isize - off,
				 (u64)DCG_BID_MAX_SEG);
		len = dcg_bid_notes(dcg_bid_read, f, off, end,
				    ph[i].p_align == 8 ? 8 : 4, id);
		if (len)
			return len;
	}
	return 0;
}

/*
 * The running kernel's build-id into @id (DCG_BID_MAX_LEN bytes); its
 * length, 0 if unknown (no __start_notes in kallsyms: a kernel without
 * CONFIG_KALLSYMS_ALL).  Its notes are 4-aligned, as in vmlinux.
 */
static unsigned int dcg_kernel_build_id(u8 *id)
{
	u64 start = kallsyms_lookup_name("__start_notes");
	u64 end = kallsyms_lookup_name("__stop_notes");

	if (!start || end <= start || end - start > DCG_BID_MAX_SEG)
		return 0;
	return dcg_bid_notes(dcg_bid_read_kernel, NULL, start, end, 4, id);
}
