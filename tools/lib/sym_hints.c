// SPDX-License-Identifier: GPL-2.0
/*
 * sym_hints.c - the lines on stderr that say why code has no name: the
 * Debian package whose debug symbols would name it, the object no file
 * could stand for; each said once per process.
 * Part of the symbolizer (symbolize.c).
 */
#include "symbolize_int.h"

/*
 * The Debian package that owns @path, into @pkg: dpkg-query -S, run
 * without a shell (the path comes from the trace).  false if none.
 */
static bool owning_package(const char *path, char *pkg, size_t len)
{
	int fd[2], status;
	ssize_t n;
	pid_t pid;

	if (path[0] != '/' || strpbrk(path, "*?[]\\\n") || pipe(fd) < 0)
		return false;
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return false;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(fd[1], 1);
		if (null >= 0)
			dup2(null, 2);
		close(fd[0]);
		execlp("dpkg-query", "dpkg-query", "-S", path, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	n = read(fd[0], pkg, len - 1);
	close(fd[0]);
	waitpid(pid, &status, 0);
	if (n <= 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return false;
	pkg[n] = '\0';
	/* "zlib1g:amd64: /lib/..." or "libc6: /lib/..." */
	pkg[strcspn(pkg, ":, \n")] = '\0';
	return pkg[0] != '\0';
}

/*
 * Try @path as recorded, then across the /usr merge (dpkg knows
 * /lib/x86_64-linux-gnu/libc.so.6, processes map /usr/lib/...), then
 * the file it links to.
 */
static bool find_package(const char *path, char *pkg, size_t len)
{
	char alt[4096], *real;
	bool ok = false;
	int i;

	for (i = 0; i < 2 && !ok; i++) {
		const char *p = path;

		real = i ? realpath(path, NULL) : NULL;
		if (i && !real)
			break;
		if (real)
			p = real;
		if (owning_package(p, pkg, len))
			ok = true;
		else if (!strncmp(p, "/usr/", 5))
			ok = owning_package(p + 4, pkg, len);
		else if (snprintf(alt, sizeof(alt), "/usr%s", p) < (int)sizeof(alt))
			ok = owning_package(alt, pkg, len);
		free(real);
	}
	return ok;
}

/*
 * Has the line for @path been printed by this process?  Per process,
 * not per symbolizer: dcg-report diff has one symbolizer per trace.
 */
static bool hinted_before(const char *path)
{
	static char **paths;
	static size_t n;
	char **more, *copy;
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(paths[i], path))
			return true;
	more = sym_realloc(paths, (n + 1) * sizeof(*paths));
	if (!more)
		return false;
	paths = more;
	copy = sym_strdup(path);
	if (copy)
		paths[n++] = copy;
	return false;
}

/*
 * Once per object: an object of a Debian package with no symbol table
 * and no debuginfo found gets one line on stderr naming the package
 * that would name its functions.
 */
void sym_hint_package(struct umap *u, Dwfl_Module *mod)
{
	const char *debugfile = NULL;
	char pkg[256];
	Dwarf_Addr bias;
	Elf *elf;

	if (!u || u->hinted)
		return;
	u->hinted = true;
	if (hinted_before(u->path))
		return;
	elf = dwfl_module_getelf(mod, &bias);
	dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, &debugfile);
	if (!elf || sym_has_symtab(elf) || debugfile ||
	    !find_package(u->path, pkg, sizeof(pkg)))
		return;
	dcg_warn(
		"%s has no symbols for some of its code (shown as %s+0xOFF); package %s%s would name it",
		sym_base_name(u->path), sym_base_name(u->path), pkg,
		strcmp(pkg, "libc6") ? "-dbgsym" : "-dbg");
}

/* "ab12..." of a recorded build-id, into @buf. */
static const char *build_id_hex(const struct umap *u, char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < u->build_id_len && n + 3 <= len; i++)
		n += snprintf(buf + n, len - n, "%02x", u->build_id[i]);
	return buf;
}

/*
 * Once per object: no file could name its code (its addresses are
 * shown as object+0xOFF).  One line on stderr, so that machine views
 * keep their output clean: which object, why each candidate failed,
 * and the options that point at the traced system's files.
 */
void sym_say_unusable(struct umap *u)
{
	char id[64];

	if (!u || u->hinted)
		return;
	u->hinted = true;
	if (hinted_before(u->path))
		return;
	dcg_warn(
		"%s%s%s%s: %s; its code is shown as %s+0xOFF (--sysroot DIR or --debug-dir DIR: where the traced system's files are)",
		u->path, u->build_id_len ? " (build-id " : "",
		build_id_hex(u, id, sizeof(id)), u->build_id_len ? ")" : "",
		u->problem[0] ? u->problem : "no file with its build-id",
		sym_base_name(u->path));
}

void sym_say_once(const char *key, const char *fmt, ...)
{
	va_list ap;

	if (hinted_before(key))
		return;
	va_start(ap, fmt);
	dcg_vwarn(fmt, ap);
	va_end(ap);
}
