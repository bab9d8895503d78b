/* mapfiles.c - maps each file named on the command line (read-only,
 * private), then calls work(): a window opened there writes the MAP
 * records of every mapping, these files' included (stap-binary.exp,
 * the build-id reader against hostile ELF files). */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int __attribute__((noinline)) work(int n)
{
	return n + 1;
}

int main(int argc, char **argv)
{
	int i, mapped = 0;

	for (i = 1; i < argc; i++) {
		struct stat st;
		int fd = open(argv[i], O_RDONLY);

		if (fd < 0 || fstat(fd, &st) || !st.st_size ||
		    mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0) ==
		    MAP_FAILED) {
			perror(argv[i]);
			return 1;
		}
		close(fd);
		mapped++;
	}
	printf("mapped %d\n", work(mapped) - 1);
	return 0;
}
