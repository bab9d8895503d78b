#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""mkelf.py DIR - hostile and odd ELF files for the kernel's build-id
reader (runtime/linux/build_id.c), written into DIR.  Prints one line
per file, "NAME WANT": WANT is the build-id the reader must record, by
construction ("-": none).

  trunc      an ELF64 header cut at 40 bytes
  phoff      e_phoff far past the end of the file
  phnum      e_phnum 0xffff (PN_XNUM): the headers that fit in a page
             are read (73, all PT_NULL but the first: the build-id's
             PT_NOTE, after them), the rest of the count is not
  bignote    a note whose n_namesz is 0xffffffff
  pastend    a PT_NOTE segment whose p_filesz runs past the file's end,
             and a note inside it that does too
  elf32      an ELF32 file with a build-id note (64-bit ELF only)
  align8     a PT_NOTE of 8-aligned notes: a property note with a name
             of 4 bytes (its desc then starts at 16, not 12 + 4 + pad
             to 8 = 20), then the build-id
  plain      a well-formed one: PT_NOTE with the ABI tag, then the
             build-id (24 bytes, the most a MAP record holds)
  toolong    a build-id of 32 bytes: more than a MAP record holds
"""
import os
import struct
import sys

EH = struct.Struct("<16sHHIQQQIHHHHHH")   # Elf64_Ehdr, 64 bytes
PH = struct.Struct("<IIQQQQQQ")          # Elf64_Phdr, 56 bytes
PT_NOTE = 4


def ident(cls=2):
    return b"\x7fELF" + bytes([cls, 1, 1]) + bytes(9)


def ehdr(phoff, phnum, cls=2):
    return EH.pack(ident(cls), 3, 62, 1, 0, phoff, 0, 0, 64, 56, phnum,
                   64, 0, 0)


def note(ntype, name, desc, align=4):
    nh = struct.pack("<III", len(name), len(desc), ntype)
    body = nh + name
    body += bytes((-len(body)) % align)
    body += desc
    body += bytes((-len(body)) % align)
    return body


def one_segment(notes, align=4, filesz=None, phnum=1, extra=b""):
    """An ELF64 header, one PT_NOTE header, the notes."""
    off = 64 + 56
    seg = b"".join(notes)
    ph = PH.pack(PT_NOTE, 4, off, 0, 0,
                 len(seg) if filesz is None else filesz, len(seg), align)
    return ehdr(64, phnum) + ph + seg + extra


def main(out):
    bid24 = bytes(range(0xa0, 0xa0 + 24))
    bid20 = bytes(range(0x10, 0x10 + 20))
    files = {}
    files["trunc"] = (one_segment([note(3, b"GNU\0", bid20)])[:40], "-")
    files["phoff"] = (ehdr(1 << 62, 1) + bytes(200), "-")
    n = note(3, b"GNU\0", bid20)
    off = 64 + 73 * 56
    files["phnum"] = (ehdr(64, 0xffff) +
                      PH.pack(PT_NOTE, 4, off, 0, 0, len(n), len(n), 4) +
                      bytes(72 * 56) + n, bid20.hex())
    big = struct.pack("<III", 0xffffffff, 20, 3) + b"GNU\0" + bid20
    files["bignote"] = (one_segment([big]), "-")
    files["pastend"] = (one_segment([note(3, b"GNU\0", bid20)[:-8]],
                                    filesz=1 << 40), "-")
    e32 = struct.pack("<16sHHIIIIIHHHHHH", ident(1), 3, 3, 1, 0, 52, 0, 0,
                      52, 32, 1, 40, 0, 0)
    n32 = note(3, b"GNU\0", bid20)
    ph32 = struct.pack("<IIIIIIII", PT_NOTE, 84, 0, 0, len(n32), len(n32),
                       4, 4)
    files["elf32"] = (e32 + ph32 + n32, "-")
    prop = note(5, b"GNU\0", bytes(16), align=8)
    files["align8"] = (one_segment([prop, note(3, b"GNU\0", bid20, align=8)],
                                   align=8), bid20.hex())
    abi = note(1, b"GNU\0", struct.pack("<IIII", 0, 3, 2, 0))
    files["plain"] = (one_segment([abi, note(3, b"GNU\0", bid24)]),
                      bid24.hex())
    files["toolong"] = (one_segment([note(3, b"GNU\0", bytes(32))]), "-")
    for name, (data, want) in files.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
        print(name, want)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: mkelf.py DIR")
    main(sys.argv[1])
