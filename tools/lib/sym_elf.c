// SPDX-License-Identifier: GPL-2.0
/*
 * sym_elf.c - which file names a traced object: the recorded path under
 * --sysroot, a build-id tree, the recorded path here, each used only if
 * its build-id is the recorded one (libdwfl's find_elf callback).
 * Part of the symbolizer (symbolize.c).
 */
#include "symbolize_int.h"

/* Does the ELF file's build-id equal the one the trace recorded? */
static bool build_id_matches(Elf *elf, const struct umap *u)
{
	const void *bits;
	ssize_t len;

	if (!u || !u->build_id_len)
		return true;
	len = dwelf_elf_gnu_build_id(elf, &bits);
	return len == u->build_id_len && !memcmp(bits, u->build_id, len);
}

/* Append "; @where: @what" (or the first "@where: @what") to @u's problem. */
static void add_problem(struct umap *u, const char *where, const char *what)
{
	size_t n;

	if (!u)
		return;
	n = strlen(u->problem);
	snprintf(u->problem + n, sizeof(u->problem) - n, "%s%s%s",
		 n ? "; " : "", where, what);
}

/*
 * @path inside the --sysroot directory, as a process chrooted there
 * would open it: an absolute link in the tree (/lib64/ld-linux... ->
 * /lib/x86_64-linux-gnu/...) stays in the tree (RESOLVE_IN_ROOT),
 * where a plain open of DIR/path would follow it to this system's file.
 */
static int open_in_root(int rootfd, const char *path)
{
	struct open_how how = {
		.flags = O_RDONLY | O_CLOEXEC,
		.resolve = RESOLVE_IN_ROOT,
	};
	int fd = syscall(SYS_openat2, rootfd, path, &how, sizeof(how));

	/* before Linux 5.6: DIR/path, links as they are (still checked) */
	if (fd < 0 && errno == ENOSYS)
		fd = openat(rootfd, path + 1, O_RDONLY | O_CLOEXEC);
	return fd;
}

/*
 * The ELF file at @fd if its build-id is the recorded one; else close
 * @fd, say why in @u's problem (@where: which place) and return NULL.
 */
static Elf *checked_elf(int fd, struct umap *u, const char *where)
{
	Elf *elf;

	if (fd < 0) {
		char why[128];

		snprintf(why, sizeof(why), "cannot open (%s)", strerror(errno));
		add_problem(u, where, why);
		return NULL;
	}
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF && build_id_matches(elf, u))
		return elf;
	add_problem(u, where, elf && elf_kind(elf) == ELF_K_ELF ?
		    "build-id differs from the trace's" : "not an ELF file");
	if (elf)
		elf_end(elf);
	close(fd);
	return NULL;
}

/*
 * libdwfl find_elf.  The module's name is the path recorded in the
 * trace; *userdata is its struct umap.  In order: the recorded path
 * under --sysroot, a build-id tree of the debug directories, the
 * recorded path on this system.  Each file is used only if its
 * build-id is the recorded one, so that another build (a rebuilt
 * binary, the host's libc for a guest's trace) never puts its names on
 * the trace.  Without a recorded build-id nothing can be checked: with
 * --sysroot, the file under it is then the only candidate.
 */
int sym_find_elf_by_path(Dwfl_Module *mod, void **userdata,
			 const char *modname, Dwarf_Addr base,
			 char **file_name, Elf **elfp)
{
	struct umap *u = *userdata;
	int rootfd = u ? u->owner->sysroot_fd : -1;
	Elf *elf;
	int fd;

	if (u)
		u->problem[0] = '\0';
	if (modname[0] != '/')
		return dwfl_build_id_find_elf(mod, userdata, modname, base,
					      file_name, elfp);
	if (rootfd >= 0) {
		fd = open_in_root(rootfd, modname);
		elf = checked_elf(fd, u, "in --sysroot: ");
		if (elf) {
			*elfp = elf;
			*file_name = strdup(modname);
			return fd;
		}
	}
	fd = dwfl_build_id_find_elf(mod, userdata, modname, base, file_name,
				    elfp);
	if (fd >= 0 || *elfp)
		return fd;
	if (rootfd >= 0 && !(u && u->build_id_len))
		return -1;
	fd = open(modname, O_RDONLY | O_CLOEXEC);
	elf = checked_elf(fd, u, rootfd >= 0 ? "here: " : "");
	if (!elf)
		return -1;
	*elfp = elf;
	*file_name = strdup(modname);
	return fd;
}
