// SPDX-License-Identifier: GPL-2.0
/*
 * dcg-insns - list every instruction of an ELF file's code, one line
 * each, as the runtime's decoder sees it:
 *
 *	ADDR LEN CLASS [TARGET] [bnd] [notrack] [rep]
 *
 * It exists so that the decoder can be checked against objdump on whole
 * binaries (testsuite/unit/objdump-compare) and so that a user can see
 * what the tracer will make of a piece of code.
 *
 * Exit status (the convention of all three tools, doc/dcg-insns.1): 0
 * done, 1 the work failed (writing the listing), 2 the command line or
 * the input is wrong (a file that cannot be read, is not x86-64 ELF, or
 * is malformed); every error is one line "dcg-insns: what is wrong".
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <getopt.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "cli.h"
#include "elf_util.h"
#include "dcg_insn.h"

static const char *prog = "dcg-insns";

struct opts {
	const char *file;
	const char *section;	/* NULL: .text, or all with all_exec */
	int all_exec;
	int stats;
	int sync_symbols;	/* restart at every symbol, as objdump -d */
};

/* Sorted start addresses where decoding restarts (--sync-symbols). */
struct syncs {
	uint64_t *addr;
	size_t n;
};

struct counts {
	unsigned long long insns;
	unsigned long long invalid;
	unsigned int sections;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s [--section NAME | --all-exec] [--sync-symbols] [--stats] FILE\n"
		"Lists each instruction of FILE's .text as\n"
		"  ADDR LEN CLASS [TARGET] [bnd] [notrack] [rep]\n"
		"  -s, --section NAME  that section instead of .text\n"
		"  -a, --all-exec      every executable section\n"
		"      --sync-symbols  restart decoding at every symbol\n"
		"      --stats         instruction and invalid byte counts\n"
		"  -h, --help          this text\n"
		"  -V, --version       the version\n"
		"exit status: 0 ok, 1 write error, 2 bad usage or input\n",
		prog);
}

static void print_insn(uint64_t addr, const struct dcg_insn *in)
{
	printf("%" PRIx64 " %u %s", addr, in->len,
	       dcg_branch_name(in->branch));
	if (in->flags & DCG_INSN_HAS_TARGET)
		printf(" %" PRIx64, in->target);
	if (in->flags & DCG_INSN_BND)
		fputs(" bnd", stdout);
	if (in->flags & DCG_INSN_NOTRACK)
		fputs(" notrack", stdout);
	if (in->flags & DCG_INSN_REP)
		fputs(" rep", stdout);
	putchar('\n');
}

/*
 * Decode [buf, buf + size) loaded at @addr.  Bytes that do not start a
 * valid instruction are listed as "ADDR N invalid", where N is what the
 * decoder examined up to and including the opcode (prefixes, escape
 * bytes, VEX/EVEX/XOP header, opcode); decoding resumes after them.
 * That is objdump's resync rule after "(bad)".  An instruction cut off
 * by the end of the section is listed as "ADDR 1 invalid" per byte.
 */
/* The end of the bytes that the instruction at @pc may use. */
static uint64_t code_limit(const struct syncs *sy, size_t *next, uint64_t pc,
			   uint64_t end)
{
	while (*next < sy->n && sy->addr[*next] <= pc)
		(*next)++;
	if (*next < sy->n && sy->addr[*next] < end)
		return sy->addr[*next];
	return end;
}

static void list_code(const unsigned char *buf, size_t size, uint64_t addr,
		      const struct syncs *sy, struct counts *c)
{
	struct dcg_insn in;
	size_t off = 0, next = 0;

	while (off < size) {
		uint64_t left = code_limit(sy, &next, addr + off, addr + size) -
				(addr + off);
		unsigned int avail = left > 64 ? 64 : left;
		int n = dcg_insn_decode(buf + off, avail, addr + off, &in);

		if (n <= 0) {
			unsigned int skip = n == DCG_INSN_EINVAL ? in.len : 1;

			printf("%" PRIx64 " %u invalid\n", addr + off, skip);
			c->invalid += skip;
			off += skip;
			continue;
		}
		print_insn(addr + off, &in);
		c->insns++;
		off += n;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * objdump -d disassembles symbol by symbol: it restarts at every symbol
 * of the section (from .symtab, else .dynsym), and cuts an instruction
 * that would run into the next one.  Collect those restart points.
 * In a relocatable file the symbol's section decides; elsewhere its
 * address.
 */
static int collect_syncs(Elf *elf, size_t shndx, const GElf_Shdr *sh,
			 int relocatable, struct syncs *sy)
{
	Elf_Scn *symscn = dcg_elf_section_of_type(elf, SHT_SYMTAB);
	GElf_Shdr symsh;
	Elf_Data *data;
	size_t i, n;

	sy->n = 0;
	if (!symscn)
		symscn = dcg_elf_section_of_type(elf, SHT_DYNSYM);
	if (!symscn || !gelf_getshdr(symscn, &symsh) || !symsh.sh_entsize)
		return 0;
	data = elf_getdata(symscn, NULL);
	if (!data)
		return -1;
	n = symsh.sh_size / symsh.sh_entsize;
	free(sy->addr);
	sy->addr = calloc(n ? n : 1, sizeof(*sy->addr));
	if (!sy->addr)
		return -1;
	for (i = 0; i < n; i++) {
		GElf_Sym sym;
		int type;

		if (!gelf_getsym(data, i, &sym))
			return -1;
		type = GELF_ST_TYPE(sym.st_info);
		if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE ||
		    type == STT_SECTION || type == STT_FILE)
			continue;
		if (relocatable ? sym.st_shndx != shndx :
		    sym.st_value < sh->sh_addr ||
		    sym.st_value >= sh->sh_addr + sh->sh_size)
			continue;
		sy->addr[sy->n++] = sym.st_value;
	}
	qsort(sy->addr, sy->n, sizeof(*sy->addr), cmp_u64);
	return 0;
}

static int want_section(const struct opts *o, const char *name,
			const GElf_Shdr *sh)
{
	if (sh->sh_type == SHT_NOBITS || sh->sh_size == 0)
		return 0;
	if (o->section)
		return strcmp(name, o->section) == 0;
	if (o->all_exec)
		return (sh->sh_flags & SHF_EXECINSTR) != 0;
	return strcmp(name, ".text") == 0;
}

static int fail(const struct opts *o, const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", prog, o->file, what);
	return 2;
}

/* One section, if it is one asked for: 0, or fail()'s status. */
static int list_section(const struct opts *o, Elf *elf, Elf_Scn *scn,
			size_t shstrndx, bool rel, struct syncs *sy,
			struct counts *c)
{
	GElf_Shdr sh;
	const char *name;
	Elf_Data *data;
	char msg[128];

	if (!gelf_getshdr(scn, &sh))
		return fail(o, elf_errmsg(-1));
	name = elf_strptr(elf, shstrndx, sh.sh_name);
	/*
	 * A section whose name cannot be read may be the one asked for (or
	 * an executable one): skipping it would drop its code from the
	 * listing without a word.
	 */
	if (!name) {
		snprintf(msg, sizeof(msg), "section %zu: unreadable name: %s",
			 elf_ndxscn(scn), elf_errmsg(-1));
		return fail(o, msg);
	}
	if (!want_section(o, name, &sh))
		return 0;
	data = elf_rawdata(scn, NULL);
	if (!data || !data->d_buf || data->d_size != sh.sh_size) {
		snprintf(msg, sizeof(msg), "section %s: unreadable: %s",
			 name, elf_errmsg(-1));
		return fail(o, msg);
	}
	if (o->sync_symbols &&
	    collect_syncs(elf, elf_ndxscn(scn), &sh, rel, sy) < 0)
		return fail(o, "unreadable symbol table");
	if (o->all_exec)
		printf("# section %s %" PRIx64 " %" PRIx64 "\n", name,
		       (uint64_t)sh.sh_addr, (uint64_t)sh.sh_size);
	list_code(data->d_buf, data->d_size, sh.sh_addr, sy, c);
	c->sections++;
	return 0;
}

static int list_elf(const struct opts *o, Elf *elf, struct counts *c)
{
	GElf_Ehdr eh;
	struct syncs sy = { NULL, 0 };
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	char msg[128];
	int ret = 0;

	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh))
		return fail(o, "not an ELF file");
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_X86_64)
		return fail(o, "not an x86-64 ELF file");
	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return fail(o, "no section name table");
	while (!ret && (scn = elf_nextscn(elf, scn)))
		ret = list_section(o, elf, scn, shstrndx, eh.e_type == ET_REL,
				   &sy, c);
	free(sy.addr);
	if (ret)
		return ret;
	if (c->sections == 0) {
		if (o->section)
			snprintf(msg, sizeof(msg), "no section %s", o->section);
		else if (o->all_exec)
			snprintf(msg, sizeof(msg), "no executable section");
		else
			snprintf(msg, sizeof(msg), "no .text section");
		return fail(o, msg);
	}
	return 0;
}

/* One line, as every error: "dcg-insns: what (see dcg-insns --help)". */
static int __attribute__((format(printf, 1, 2))) usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_vusage_error(prog, fmt, ap);
	va_end(ap);
	return -1;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "section", required_argument, NULL, 's' },
		{ "all-exec", no_argument, NULL, 'a' },
		{ "stats", no_argument, NULL, 'S' },
		{ "sync-symbols", no_argument, NULL, 'y' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int ch;

	opterr = 0;	/* one line of our own instead of getopt's */
	while ((ch = getopt_long(argc, argv, ":s:ahV", longopts, NULL)) != -1) {
		switch (ch) {
		case 's':
			o->section = optarg;
			break;
		case 'a':
			o->all_exec = 1;
			break;
		case 'S':
			o->stats = 1;
			break;
		case 'y':
			o->sync_symbols = 1;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			printf("%s %s\n", prog, PACKAGE_VERSION);
			exit(0);
		case ':':
			return usage_error("option '%s' needs a value",
					   bad_option(argv));
		default:
			return usage_error("unknown option '%s'",
					   bad_option(argv));
		}
	}
	if (o->section && o->all_exec)
		return usage_error("--section and --all-exec exclude each other");
	if (optind == argc)
		return usage_error("no file given");
	if (optind != argc - 1)
		return usage_error("one file at a time ('%s' is extra)",
				   argv[optind + 1]);
	o->file = argv[optind];
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	struct counts c = { 0 };
	static char obuf[1 << 16];
	Elf *elf;
	int fd, rc;

	if (parse_args(argc, argv, &o))
		return 2;
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	elf_version(EV_CURRENT);
	fd = open(o.file, O_RDONLY);
	if (fd < 0)
		return fail(&o, strerror(errno));
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		rc = fail(&o, "not an ELF file");
		close(fd);
		return rc;
	}
	rc = list_elf(&o, elf, &c);
	elf_end(elf);
	close(fd);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: write error: %s\n", prog, strerror(errno));
		return 1;
	}
	if (rc)
		return rc;
	/* Never drop bytes silently: say how many did not decode. */
	if (o.stats || c.invalid)
		fprintf(stderr, "%s: %s: %llu instructions, %llu invalid bytes\n",
			prog, o.file, c.insns, c.invalid);
	return 0;
}
