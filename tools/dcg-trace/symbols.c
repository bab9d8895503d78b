// SPDX-License-Identifier: GPL-2.0
/*
 * symbols.c - function names to addresses, function bounds, and the
 * executable mappings of the traced process.
 *
 * libdwfl reports the modules of the live process from /proc/PID/maps
 * (dwfl_linux_proc_report) and reads their symbol tables.  Libraries
 * loaded later with dlopen() are found by re-reporting: dcg-trace puts
 * an internal breakpoint on the dynamic linker's _dl_debug_state(),
 * the function glibc calls (r_debug.r_brk) before and after every
 * change of the link map, and rescans the maps there.  Stopping at
 * every mmap syscall would find more (code mapped by hand) but costs a
 * syscall stop for every allocation; the link-map hook costs two stops
 * per dlopen.  Each trace window also rescans at its start.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdwfl.h>
#include "dcg_trace.h"
#include "elf_util.h"

static Dwfl *dwfl;
static pid_t sym_pid;
static bool dwfl_stale;

#define DEBUG_DIR "/usr/lib/debug"

/* Is there a file @dir/@sub/@name (@sub may be empty)? */
static bool file_there(const char *dir, const char *sub, const char *name)
{
	char path[4096];

	if (snprintf(path, sizeof(path), "%s%s%s/%s", dir, *sub ? "/" : "",
		     sub, name) >= (int)sizeof(path))
		return true;	/* cannot tell: let libdw look */
	return access(path, F_OK) == 0;
}

/*
 * Could a separate debug file of @mod (at @file, with debug link
 * @link) be on this machine?  The places libdw's own search looks
 * (its default path ":.debug:/usr/lib/debug"): by build ID under
 * /usr/lib/debug/.build-id, and by name next to the file, in .debug
 * next to it, and under /usr/lib/debug.
 */
static bool local_debuginfo(Dwfl_Module *mod, const char *file,
			    const char *link)
{
	const unsigned char *id;
	char dir[4096], name[4096], hex[2 * 64 + 1];
	GElf_Addr vaddr;
	const char *slash;
	int i, n = dwfl_module_build_id(mod, &id, &vaddr);

	for (i = 0; i < n && i < 64; i++)
		sprintf(hex + 2 * i, "%02x", id[i]);
	if (n > 1 && n <= 64) {
		snprintf(name, sizeof(name), "%s.debug", hex + 2);
		hex[2] = 0;
		if (file_there(DEBUG_DIR "/.build-id", hex, name))
			return true;
	}
	if (!file)
		return false;	/* the vdso: libdw has no name to look by */
	slash = strrchr(file, '/');
	if (!slash)
		return true;	/* a relative name: let libdw look */
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - file), file);
	if (link)
		snprintf(name, sizeof(name), "%s", link);
	else
		snprintf(name, sizeof(name), "%s.debug", slash + 1);
	return file_there(dir, "", name) || file_there(dir, ".debug", name) ||
	       file_there(DEBUG_DIR, dir, name);
}

/*
 * libdw's standard search, unless it can only end in the debuginfod
 * client: with no local file and no server configured, libdw 0.188
 * still dlopens libdebuginfod (and with it libcurl, gnutls, kerberos,
 * ldap: 30 libraries, 4 to 9 ms here) before it looks at
 * DEBUGINFOD_URLS.  A file found through a symlink's target is looked
 * for under the target's name: the realpath is tried too.
 */
static int find_debuginfo(Dwfl_Module *mod, void **userdata,
			  const char *modname, Dwarf_Addr base,
			  const char *file, const char *link,
			  GElf_Word crc, char **debugfile)
{
	const char *urls = getenv("DEBUGINFOD_URLS");
	char *canon = file ? realpath(file, NULL) : NULL;
	bool local = local_debuginfo(mod, file, link) ||
		     (canon && local_debuginfo(mod, canon, link));

	free(canon);
	if (!local && !(urls && *urls)) {
		errno = 0;	/* nothing found, no error */
		return -1;
	}
	return dwfl_standard_find_debuginfo(mod, userdata, modname, base,
					    file, link, crc, debugfile);
}

static const Dwfl_Callbacks proc_callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = find_debuginfo,
};

#define BOUNDS_SLOTS 1024

struct bounds {
	uint64_t addr;		/* 0 = empty */
	uint64_t start, end;	/* end == 0: unknown */
};

static struct bounds bounds_cache[BOUNDS_SLOTS];

/*
 * The functions found last, by range: hop mode and the classifier ask
 * about every stop, each at another address inside the same few
 * functions, and dwfl_module_addrinfo() searches the module's whole
 * symbol table each time (42% of dcg-trace's time on bench job 4 in hop
 * mode, perf record).  A range is kept only if no other symbol starts
 * inside it (range_add).
 */
#define RANGE_SLOTS 32

static struct bounds range_cache[RANGE_SLOTS];	/* addr: unused */
static unsigned int range_next;

static int report(void)
{
	int ret;

	dwfl_report_begin(dwfl);
	ret = dwfl_linux_proc_report(dwfl, sym_pid);
	if (dwfl_report_end(dwfl, NULL, NULL) != 0 && ret == 0)
		ret = -1;
	memset(bounds_cache, 0, sizeof(bounds_cache));
	memset(range_cache, 0, sizeof(range_cache));
	dwfl_stale = false;
	return ret;
}

int sym_init(pid_t pid)
{
	sym_fini();
	dwfl = dwfl_begin(&proc_callbacks);
	if (!dwfl)
		return -1;
	sym_pid = pid;
	return report();
}

void sym_fini(void)
{
	if (dwfl)
		dwfl_end(dwfl);
	dwfl = NULL;
}

int sym_refresh(void)
{
	if (!dwfl)
		return -1;
	return report();
}

struct resolve_ctx {
	const char *name;
	uint64_t *addrs;
	int n, max;
	bool glob;		/* name is an fnmatch(3) pattern */
};

static void add_unique(struct resolve_ctx *c, uint64_t addr)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (c->addrs[i] == addr)
			return;
	if (c->n < c->max)
		c->addrs[c->n++] = addr;
}

/* Symbol @i of @mod's table if it is a function defined there, else NULL. */
static const char *func_sym(Dwfl_Module *mod, int i, GElf_Addr *addr)
{
	GElf_Sym sym;
	GElf_Word shndx;
	const char *s;

	s = dwfl_module_getsym_info(mod, i, &sym, addr, &shndx, NULL, NULL);
	if (!s || GELF_ST_TYPE(sym.st_info) != STT_FUNC || shndx == SHN_UNDEF)
		return NULL;
	return s;
}

/* @fn on each function defined in @mod's symbol table. */
static void each_func(Dwfl_Module *mod,
		      void (*fn)(void *arg, const char *name, GElf_Addr addr),
		      void *arg)
{
	int i, n = dwfl_module_getsymtab(mod);

	for (i = 1; i < n; i++) {
		GElf_Addr addr;
		const char *s = func_sym(mod, i, &addr);

		if (s)
			fn(arg, s, addr);
	}
}

static void resolve_one(void *arg, const char *name, GElf_Addr addr)
{
	struct resolve_ctx *c = arg;

	if (c->glob ? fnmatch(c->name, name, 0) == 0 :
		      strcmp(name, c->name) == 0)
		add_unique(c, addr);
}

static int resolve_module(Dwfl_Module *mod, void **ud, const char *mname,
			  Dwarf_Addr base, void *arg)
{
	each_func(mod, resolve_one, arg);
	return DWARF_CB_OK;
}

/* Functions named @pattern (a glob if @glob), in any module. */
static int resolve(const char *pattern, bool glob, uint64_t *addrs, int max)
{
	struct resolve_ctx c = { pattern, addrs, 0, max, glob };

	if (!dwfl)
		return 0;
	if (dwfl_stale)
		report();
	dwfl_getmodules(dwfl, resolve_module, &c, 0);
	return c.n;
}

/* Every defined function called @name, in any module: how many found. */
int sym_resolve(const char *name, uint64_t *addrs, int max)
{
	return resolve(name, false, addrs, max);
}

/* Every defined function whose name matches @glob (skip.c, -N). */
int sym_resolve_glob(const char *glob, uint64_t *addrs, int max)
{
	return resolve(glob, true, addrs, max);
}

/*
 * Near misses for a name found nowhere: the function names within a
 * small edit distance (as stap's own "did you mean"), best first.
 */
#define HINT_MAX 3

struct hint_ctx {
	const char *name;
	size_t len;
	unsigned int limit;		/* largest distance worth a hint */
	char best[HINT_MAX][128];
	unsigned int dist[HINT_MAX];
	int n;
};

/* Levenshtein distance of @a and @b, or @limit + 1 if above @limit. */
static unsigned int edit_distance(const char *a, size_t la, const char *b,
				  unsigned int limit)
{
	unsigned int row[128], i, j, prev, tmp, best;
	size_t lb = strlen(b);

	if (la >= DCG_ARRAY_SIZE(row) || lb >= DCG_ARRAY_SIZE(row) ||
	    (la > lb ? la - lb : lb - la) > limit)
		return limit + 1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		best = row[0];
		for (j = 1; j <= lb; j++) {
			tmp = row[j];
			row[j] = prev + (a[i - 1] != b[j - 1]);
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			if (tmp + 1 < row[j])
				row[j] = tmp + 1;
			prev = tmp;
			if (row[j] < best)
				best = row[j];
		}
		if (best > limit)
			return limit + 1;
	}
	return row[lb];
}

static void hint_add(struct hint_ctx *c, const char *s, unsigned int d)
{
	int i, at;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->best[i], s))
			return;
	for (at = 0; at < c->n && c->dist[at] <= d; at++)
		;
	if (at == HINT_MAX)
		return;
	if (c->n < HINT_MAX)
		c->n++;
	for (i = c->n - 1; i > at; i--) {
		memcpy(c->best[i], c->best[i - 1], sizeof(c->best[i]));
		c->dist[i] = c->dist[i - 1];
	}
	snprintf(c->best[at], sizeof(c->best[at]), "%s", s);
	c->dist[at] = d;
}

/* Does the module's own file, or its debug file, hold a .symtab? */
static bool module_has_symtab(Dwfl_Module *mod)
{
	const char *mainfile = NULL, *debugfile = NULL;
	GElf_Addr bias;
	Elf *elf;

	dwfl_module_getsymtab(mod);	/* finds the debug file, if any */
	dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, &mainfile,
			 &debugfile);
	if (debugfile)
		return true;
	elf = dwfl_module_getelf(mod, &bias);
	return elf && dcg_elf_section_of_type(elf, SHT_SYMTAB);
}

static void hint_one(void *arg, const char *name, GElf_Addr addr)
{
	struct hint_ctx *c = arg;
	unsigned int d = edit_distance(c->name, c->len, name, c->limit);

	if (d <= c->limit)
		hint_add(c, name, d);
}

static int hint_module(Dwfl_Module *mod, void **ud, const char *mname,
		       Dwarf_Addr base, void *arg)
{
	each_func(mod, hint_one, arg);
	return DWARF_CB_OK;
}

/*
 * @name was found nowhere: say why in one line when we can.  A program
 * with no symbol table (stripped, and no debug file found) has no name
 * to find but its exports: that is the cause, whatever the spelling.
 * Otherwise offer the near misses.
 */
void sym_hint(const char *name)
{
	struct hint_ctx c = { .name = name, .len = strlen(name) };
	uint64_t entry = sym_pid ? auxv_entry(sym_pid) : 0;
	Dwfl_Module *prog = dwfl && entry ? dwfl_addrmodule(dwfl, entry) : NULL;
	const char *path = NULL;
	int i;

	if (!dwfl)
		return;
	/* a third of the name, at least 1: "handle_reqest" is 1 away */
	c.limit = c.len / 3 ? c.len / 3 : 1;
	if (prog && !module_has_symtab(prog)) {
		dwfl_module_info(prog, NULL, NULL, NULL, NULL, NULL, &path,
				 NULL);
		fprintf(stderr, PROG ": %s is stripped (no symbol table, no "
			"debug file found): only its exported functions have "
			"names; trace an unstripped build\n",
			path ? path : "the program");
		return;
	}
	dwfl_getmodules(dwfl, hint_module, &c, 0);
	if (!c.n)
		return;
	fprintf(stderr, PROG ": did you mean %s", c.best[0]);
	for (i = 1; i < c.n; i++)
		fprintf(stderr, "%s%s", i == c.n - 1 ? " or " : ", ",
			c.best[i]);
	fputs("?\n", stderr);
}

int sym_lookup_dldebug(uint64_t *addr)
{
	return sym_resolve("_dl_debug_state", addr, 1) == 1 ? 0 : -1;
}

/* The symbol containing @addr, from libdwfl; 0 if none (or no size). */
static int addr_symbol(uint64_t addr, uint64_t *start, uint64_t *end)
{
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, addr);
	const char *name;
	GElf_Off off;
	GElf_Sym sym;

	name = mod ? dwfl_module_addrinfo(mod, addr, &off, &sym, NULL, NULL,
					  NULL) : NULL;
	if (!name || !sym.st_size)
		return -1;
	*start = addr - off;
	*end = *start + sym.st_size;
	return 0;
}

static const struct bounds *range_find(uint64_t addr)
{
	unsigned int i;

	for (i = 0; i < RANGE_SLOTS; i++)
		if (addr >= range_cache[i].start && addr < range_cache[i].end)
			return &range_cache[i];
	return NULL;
}

/*
 * Keep [@start, @end) if no other symbol starts inside it: then every
 * address in it is that symbol's for libdwfl too.  One pass over the
 * module's symbols per function kept, not one per stop.
 */
static void range_add(uint64_t start, uint64_t end)
{
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, start);
	GElf_Addr value;
	GElf_Sym sym;
	GElf_Word shndx;
	int i, n;

	n = mod ? dwfl_module_getsymtab(mod) : -1;
	if (n < 0)
		return;
	for (i = 1; i < n; i++) {
		if (!dwfl_module_getsym_info(mod, i, &sym, &value, &shndx,
					     NULL, NULL))
			continue;
		if (shndx != SHN_UNDEF && value > start && value < end)
			return;
	}
	range_cache[range_next].start = start;
	range_cache[range_next].end = end;
	range_next = (range_next + 1) % RANGE_SLOTS;
}

/* The engine's func_bounds callback: the symbol containing @addr. */
int sym_func_bounds(uint64_t addr, uint64_t *start, uint64_t *end)
{
	struct bounds *b = &bounds_cache[(addr >> 4) % BOUNDS_SLOTS];
	const struct bounds *r;

	if (!dwfl)
		return -1;
	if (dwfl_stale)
		report();
	if (b->addr != addr) {
		b->addr = addr;
		b->start = b->end = 0;
		r = range_find(addr);
		if (r) {
			b->start = r->start;
			b->end = r->end;
		} else if (addr_symbol(addr, &b->start, &b->end) == 0) {
			range_add(b->start, b->end);
		} else {
			b->start = b->end = 0;
		}
	}
	if (!b->end)
		return -1;
	*start = b->start;
	*end = b->end;
	return 0;
}

/* Program entry point (AT_ENTRY), 0 if unknown. */
uint64_t auxv_entry(pid_t pid)
{
	uint64_t av[2], entry = 0;
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/auxv", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	while (read(fd, av, sizeof(av)) == sizeof(av) && av[0] != AT_NULL)
		if (av[0] == AT_ENTRY)
			entry = av[1];
	close(fd);
	return entry;
}

/* Executable mappings already described by a MAP record. */
struct xmap {
	uint64_t start, end, pgoff;
	char *path;
};

static struct xmap *known;
static int nknown, capknown;

static bool map_known(uint64_t start, uint64_t end, uint64_t pgoff,
		      const char *path)
{
	int i;

	for (i = 0; i < nknown; i++)
		if (known[i].start == start && known[i].end == end &&
		    known[i].pgoff == pgoff && !strcmp(known[i].path, path))
			return true;
	return false;
}

static void map_remember(uint64_t start, uint64_t end, uint64_t pgoff,
			 const char *path)
{
	if (nknown == capknown) {
		int cap = capknown ? 2 * capknown : 32;
		struct xmap *n = realloc(known, cap * sizeof(*n));

		if (!n)
			return;
		known = n;
		capknown = cap;
	}
	known[nknown].start = start;
	known[nknown].end = end;
	known[nknown].pgoff = pgoff;
	known[nknown].path = strdup(path);
	if (known[nknown].path)
		nknown++;
}

void maps_forget(void)
{
	int i;

	for (i = 0; i < nknown; i++)
		free(known[i].path);
	nknown = 0;
	code_ranges_set(NULL, 0, NULL, 0);
}

static unsigned int prot_bits(const char *perms)
{
	return (perms[0] == 'r' ? 1 : 0) | (perms[1] == 'w' ? 2 : 0) |
	       (perms[2] == 'x' ? 4 : 0);
}

/*
 * Read /proc/PID/maps.  Executable mappings not seen before get a MAP
 * record (when @write_new); any change refreshes the code ranges that
 * memory.c may cache and marks the libdwfl view stale.  Returns the
 * number of new mappings.
 */
/* Address ranges, grown as /proc/PID/maps is read. */
struct range_list {
	uint64_t (*r)[2];
	int n, cap;
};

static bool range_push(struct range_list *l, uint64_t start, uint64_t end,
		       int first_cap)
{
	if (l->n == l->cap) {
		void *p;

		l->cap = l->cap ? 2 * l->cap : first_cap;
		p = realloc(l->r, l->cap * sizeof(*l->r));
		if (!p)
			return false;
		l->r = p;
	}
	l->r[l->n][0] = start;
	l->r[l->n][1] = end;
	l->n++;
	return true;
}

/*
 * One line of /proc/PID/maps: every mapping into @all, read-only code
 * into @code, a mapping not seen before remembered (and written).  1
 * for a new executable mapping, 0 for others, -1 out of memory.
 */
static int maps_line(const char *line, struct range_list *all,
		     struct range_list *code, bool write_new)
{
	unsigned long long start, end, pgoff;
	char perms[8], file[4096];
	unsigned int prot;

	file[0] = 0;
	if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095[^\n]",
		   &start, &end, perms, &pgoff, file) < 4)
		return 0;
	prot = prot_bits(perms);
	if (!range_push(all, start, end, 64))
		return -1;
	if (!(prot & 4))
		return 0;
	if (!(prot & 2) && !range_push(code, start, end, 32))
		return -1;
	if (map_known(start, end, pgoff, file))
		return 0;
	map_remember(start, end, pgoff, file);
	if (write_new) {
		dcg_write_map_file(&T.w, T.pid, start, end, pgoff, prot,
				   file[0] ? file : "[anon]");
		T.maps_written++;
	}
	return 1;
}

int maps_scan(bool write_new)
{
	struct range_list code = { 0 }, all = { 0 };
	char path[64], line[4096 + 128];
	int nnew = 0, n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", T.pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		n = maps_line(line, &all, &code, write_new);
		if (n < 0)
			break;
		nnew += n;
	}
	fclose(f);
	if (nnew) {
		dwfl_stale = true;
		code_ranges_set((const uint64_t (*)[2])code.r, code.n,
				(const uint64_t (*)[2])all.r, all.n);
	} else {
		/* new data mappings do not touch the code cache */
		code_ranges_set_all((const uint64_t (*)[2])all.r, all.n);
	}
	free(code.r);
	free(all.r);
	return nnew;
}
