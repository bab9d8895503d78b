/* SPDX-License-Identifier: GPL-2.0 */
/*
 * elf_util.h - small ELF helpers the tools share, header-only:
 * dcg-insns links no tools/lib.
 */
#ifndef DCG_ELF_UTIL_H
#define DCG_ELF_UTIL_H

#include <gelf.h>

/* The first section of type @type (SHT_SYMTAB, SHT_DYNSYM...), or NULL. */
static inline Elf_Scn *dcg_elf_section_of_type(Elf *elf, GElf_Word type)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == type)
			return scn;
	return NULL;
}

#endif /* DCG_ELF_UTIL_H */
