// SPDX-License-Identifier: GPL-2.0
/*
 * test-classify.c - the classifier, shadow stack and engine on
 * hand-built code, in step mode and in block mode.
 *
 * The code below was assembled once with GNU as from the listing in the
 * comment; the addresses come from `objdump -d` of that object.  Each
 * scenario is the sequence of stops a CPU would produce running it
 * (every insn in step mode; the ones marked taken in block mode), and
 * the events it must give, worked out by hand from the listing.
 *
 * 401000 f1:  55              push %rbp
 * 401001      e8 0a 00 00 00  call 401010 <g1>
 * 401006      5d              pop %rbp
 * 401007      c3              ret
 * 401010 g1:  90              nop
 * 401011      c3              ret
 * 401020 f2:  e8 00 00 00 00  call 401025          (get-pc)
 * 401025      58              pop %rax
 * 401026      c3              ret
 * 401030 f3:  53              push %rbx
 * 401031      48 8d 05 03..   lea 40103b(%rip),%rax
 * 401038      50              push %rax
 * 401039      c3              ret                  (push+ret: a jump)
 * 40103b      5b              pop %rbx
 * 40103c      c3              ret
 * 401040 f4:  48 8d 05 09..   lea 401050(%rip),%rax
 * 401047      50              push %rax
 * 401048      c3              ret                  (push+ret at frame sp)
 * 401050 h4:  c3              ret
 * 401060 f5:  6a 01           push $1
 * 401062      6a 02           push $2
 * 401064      e8 07 00 00 00  call 401070 <g5>
 * 401069      c3              ret
 * 401070 g5:  c2 10 00        ret $16
 * 401080 f6:  e8 03 00 00 00  call 401088 <g6>
 * 401085      c3              ret
 * 401088 g6:  f2 c3           bnd ret
 * 401090 f7:  48 8d 05 04..   lea 40109b(%rip),%rax
 * 401097      3e ff e0        notrack jmp *%rax
 * 40109b      c3              ret
 * 4010a0 f8:  48 8d 05 03..   lea 4010aa(%rip),%rax
 * 4010a7      ff e0           jmp *%rax
 * 4010aa      c3              ret
 * 4010b0 hlow: c3             ret
 * 4010b8 hlow2: 5b            pop %rbx
 * 4010b9      c3              ret
 * 4010c0 f9:  55              push %rbp
 * 4010c1      e8 4a ff ff ff  call 401010 <g1>
 * 4010c6      5d              pop %rbp
 * 4010c7      eb e7           jmp 4010b0 <hlow>    (tail call)
 * 4010d0 f10: 55              push %rbp
 * 4010d1      48 89 e5        mov %rsp,%rbp
 * 4010d4      48 8d 05 d5..   lea 4010b0(%rip),%rax
 * 4010db      5d              pop %rbp
 * 4010dc      ff e0           jmp *%rax            (tail call)
 * 4010e0 f12: 53              push %rbx
 * 4010e1      eb d5           jmp 4010b8 <hlow2>   (frame still up)
 * 4010e8 f13: 85 ff           test %edi,%edi
 * 4010ea      75 c4           jne 4010b0 <hlow>    (conditional tail call)
 * 4010ec      c3              ret
 * 401100 ljf: 55              push %rbp
 * 401101      e8 0a 00 00 00  call 401110 <lja>
 * 401106      90              nop
 * 401107      5d              pop %rbp             (longjmp lands here)
 * 401108      c3              ret
 * 401110 lja: e8 03 00 00 00  call 401118 <ljb>
 * 401115      c3              ret
 * 401118 ljb: e8 03 00 00 00  call 401120 <ljc>
 * 40111d      c3              ret
 * 401120 ljc: 48 89 f4        mov %rsi,%rsp
 * 401123      ff e2           jmp *%rdx
 * 401140 sgf: 55              push %rbp
 * 401141      ff d0           call *%rax
 * 401143      5d              pop %rbp
 * 401144      c3              ret
 * 401148 sgh: e8 c3 fe ff ff  call 401010 <g1>     (signal handler)
 * 40114d      c3              ret
 * 401150 sgrr: b8 0f 00 00 00 mov $0xf,%eax        (restorer)
 * 401155      0f 05           syscall
 * 401158 sgh2: b8 0f 00 00 00 mov $0xf,%eax        (handler calling sigreturn)
 * 40115d      0f 05           syscall
 * 401180 rc:  85 ff           test %edi,%edi
 * 401182      74 07           je 40118b
 * 401184      ff cf           dec %edi
 * 401186      e8 f5 ff ff ff  call 401180 <rc>
 * 40118b      c3              ret
 * 401190 rep1: f3 a4          rep movsb
 * 401192      c3              ret
 * 401198 rtf: e8 03 00 00 00  call 4011a0 <thk>
 * 40119d      c3              ret
 * 4011a0 thk: e8 07 00 00 00  call 4011ac          (retpoline)
 * 4011a5      f3 90           pause
 * 4011a7      0f ae e8        lfence
 * 4011aa      eb f9           jmp 4011a5
 * 4011ac      48 89 04 24     mov %rax,(%rsp)
 * 4011b0      c3              ret
 * 4011c0 bad: 06              (bad)
 * 4011d0 rs:  85 ff           test %edi,%edi
 * 4011d2      74 08           je 4011dc
 * 4011d4      ff cf           dec %edi
 * 4011d6      e8 f5 ff ff ff  call 4011d0 <rs>
 * 4011db      c3              ret
 * 4011dc      48 83 c4 08     add $8,%rsp          (drop the return address)
 * 4011e0      c3              ret                  (returns for the caller)
 * 4011e8 bk:  ff c9           dec %ecx
 * 4011ea      74 09           je 4011f5
 * 4011ec      48 8d 05 f5..   lea 4011e8(%rip),%rax
 * 4011f3      ff e0           jmp *%rax            (loop through a register)
 * 4011f5      c3              ret
 * 4011fe tail: e8 00          call, cut short by the end of the region
 * 401160 lp1: ff c9           dec %ecx             (a loop of one block)
 * 401162      75 fc           jne 401160
 * 401164      c3              ret
 * 401168 lp2: 31 c0           xor %eax,%eax
 * 40116a      ff c0           inc %eax             (loop head)
 * 40116c      39 c8           cmp %ecx,%eax
 * 40116e      75 fa           jne 40116a
 * 401170      c3              ret
 * Everything else is int3 (cc).
 *
 * Lazy PLT binding and the 1 MiB function span have their own regions
 * further down (prog, libfoo, ldso, span_lo, span_hi), with listings.
 */
#include <stdio.h>
#include <string.h>
#include "dcg_core.h"

#define CODE_BASE	0x401000ULL
static const unsigned char code[512] = {
	/* 0x401000 */ 0x55, 0xe8, 0x0a, 0x00, 0x00, 0x00, 0x5d, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x401010 */ 0x90, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x401020 */ 0xe8, 0x00, 0x00, 0x00, 0x00, 0x58, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x401030 */ 0x53, 0x48, 0x8d, 0x05, 0x03, 0x00, 0x00, 0x00, 0x50, 0xc3, 0xcc, 0x5b, 0xc3, 0xcc, 0xcc, 0xcc,
	/* 0x401040 */ 0x48, 0x8d, 0x05, 0x09, 0x00, 0x00, 0x00, 0x50, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x401050 */ 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x401060 */ 0x6a, 0x01, 0x6a, 0x02, 0xe8, 0x07, 0x00, 0x00, 0x00, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x401070 */ 0xc2, 0x10, 0x00, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x401080 */ 0xe8, 0x03, 0x00, 0x00, 0x00, 0xc3, 0xcc, 0xcc, 0xf2, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x401090 */ 0x48, 0x8d, 0x05, 0x04, 0x00, 0x00, 0x00, 0x3e, 0xff, 0xe0, 0xcc, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x4010a0 */ 0x48, 0x8d, 0x05, 0x03, 0x00, 0x00, 0x00, 0xff, 0xe0, 0xcc, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x4010b0 */ 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0x5b, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x4010c0 */ 0x55, 0xe8, 0x4a, 0xff, 0xff, 0xff, 0x5d, 0xeb, 0xe7, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x4010d0 */ 0x55, 0x48, 0x89, 0xe5, 0x48, 0x8d, 0x05, 0xd5, 0xff, 0xff, 0xff, 0x5d, 0xff, 0xe0, 0xcc, 0xcc,
	/* 0x4010e0 */ 0x53, 0xeb, 0xd5, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0x85, 0xff, 0x75, 0xc4, 0xc3, 0xcc, 0xcc, 0xcc,
	/* 0x4010f0 */ 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x401100 */ 0x55, 0xe8, 0x0a, 0x00, 0x00, 0x00, 0x90, 0x5d, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x401110 */ 0xe8, 0x03, 0x00, 0x00, 0x00, 0xc3, 0xcc, 0xcc, 0xe8, 0x03, 0x00, 0x00, 0x00, 0xc3, 0xcc, 0xcc,
	/* 0x401120 */ 0x48, 0x89, 0xf4, 0xff, 0xe2, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x401130 */ 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x401140 */ 0x55, 0xff, 0xd0, 0x5d, 0xc3, 0xcc, 0xcc, 0xcc, 0xe8, 0xc3, 0xfe, 0xff, 0xff, 0xc3, 0xcc, 0xcc,
	/* 0x401150 */ 0xb8, 0x0f, 0x00, 0x00, 0x00, 0x0f, 0x05, 0xcc, 0xb8, 0x0f, 0x00, 0x00, 0x00, 0x0f, 0x05, 0xcc,
	/* 0x401160 */ 0xff, 0xc9, 0x75, 0xfc, 0xc3, 0xcc, 0xcc, 0xcc, 0x31, 0xc0, 0xff, 0xc0, 0x39, 0xc8, 0x75, 0xfa,
	/* 0x401170 */ 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x401180 */ 0x85, 0xff, 0x74, 0x07, 0xff, 0xcf, 0xe8, 0xf5, 0xff, 0xff, 0xff, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x401190 */ 0xf3, 0xa4, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xe8, 0x03, 0x00, 0x00, 0x00, 0xc3, 0xcc, 0xcc,
	/* 0x4011a0 */ 0xe8, 0x07, 0x00, 0x00, 0x00, 0xf3, 0x90, 0x0f, 0xae, 0xe8, 0xeb, 0xf9, 0x48, 0x89, 0x04, 0x24,
	/* 0x4011b0 */ 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x4011c0 */ 0x06, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x4011d0 */ 0x85, 0xff, 0x74, 0x08, 0xff, 0xcf, 0xe8, 0xf5, 0xff, 0xff, 0xff, 0xc3, 0x48, 0x83, 0xc4, 0x08,
	/* 0x4011e0 */ 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xff, 0xc9, 0x74, 0x09, 0x48, 0x8d, 0x05, 0xf5,
	/* 0x4011f0 */ 0xff, 0xff, 0xff, 0xff, 0xe0, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xe8, 0x00,
};

/* A run of nops, longer than the block walk may go. */
#define NOPS_BASE	0x500000ULL
#define NOPS_SIZE	(DCG_WALK_MAX_BYTES + 64)
static unsigned char nops[NOPS_SIZE];

/*
 * The listings below were checked by assembling them with GNU as,
 * linking each region at its address and comparing `objdump -d`.
 *
 * A program calling foo() in a shared library through its PLT, the way
 * GNU ld lays out a lazy-binding .plt (the same bytes as `objdump -d -j
 * .plt` of any gcc-built program here), with .got.plt at 0x404000:
 * GOT[1] = the link_map, GOT[2] = ld.so's resolver, GOT[3] = foo's slot
 * (foo@plt+6 until bound, then foo).
 *
 * 403000 main:    e8 1b 00 00 00     call 403020 <foo@plt>
 * 403005          c3                 ret
 * 403010 PLT0:    ff 35 f2 0f 00 00  push 0xff2(%rip)   # 404008 GOT[1]
 * 403016          ff 25 f4 0f 00 00  jmp *0xff4(%rip)   # 404010 GOT[2]
 * 40301c          0f 1f 40 00        nopl 0x0(%rax)
 * 403020 foo@plt: ff 25 f2 0f 00 00  jmp *0xff2(%rip)   # 404018 GOT[3]
 * 403026          68 00 00 00 00     push $0x0          (reloc index)
 * 40302b          e9 e0 ff ff ff     jmp 403010 <PLT0>
 */
#define MAIN		0x403000ULL
#define PLT0		0x403010ULL
#define PLT_FOO		0x403020ULL
static const unsigned char prog[48] = {
	/* 0x403000 */ 0xe8, 0x1b, 0x00, 0x00, 0x00, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x403010 */ 0xff, 0x35, 0xf2, 0x0f, 0x00, 0x00, 0xff, 0x25, 0xf4, 0x0f, 0x00, 0x00, 0x0f, 0x1f, 0x40, 0x00,
	/* 0x403020 */ 0xff, 0x25, 0xf2, 0x0f, 0x00, 0x00, 0x68, 0x00, 0x00, 0x00, 0x00, 0xe9, 0xe0, 0xff, 0xff, 0xff,
};

/* 7f0000100000 foo: 89 f8  mov %edi,%eax;  7f0000100002: c3  ret */
#define FOO		0x7f0000100000ULL
static const unsigned char libfoo[16] = {
	0x89, 0xf8, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
};

/*
 * ld.so, 1 MiB above libfoo as the kernel and ld.so map them (ld.so
 * first, at the top; the libraries below it), so that foo lies between
 * foo@plt and the resolver's jump.  The resolver is
 * _dl_runtime_resolve_xsavec cut down to what moves rsp or control;
 * each insn here is one of Debian 12's ld.so (whose .symtab is
 * stripped: no func_bounds there), except the sub, which there takes
 * the xsave area's size from memory.  _dl_fixup is cut down to finding
 * foo (the real one also stores it into GOT[3]).
 *
 * 7f0000200000 resolve: 53           push %rbx
 * 7f0000200001  48 89 e3             mov %rsp,%rbx
 * 7f0000200004  48 83 e4 c0          and $-64,%rsp
 * 7f0000200008  48 83 ec 40          sub $0x40,%rsp
 * 7f000020000c  48 8b 73 10          mov 0x10(%rbx),%rsi  (reloc index)
 * 7f0000200010  48 8b 7b 08          mov 0x8(%rbx),%rdi   (link_map)
 * 7f0000200014  e8 27 00 00 00       call 7f0000200040 <fixup>
 * 7f0000200019  49 89 c3             mov %rax,%r11
 * 7f000020001c  48 89 dc             mov %rbx,%rsp
 * 7f000020001f  48 8b 1c 24          mov (%rsp),%rbx
 * 7f0000200023  48 83 c4 18          add $0x18,%rsp  (rbx, link_map, index)
 * 7f0000200027  41 ff e3             jmp *%r11            (to foo)
 * 7f0000200040 fixup:  48 8d 05 b9 ff ef ff  lea -0x100047(%rip),%rax # foo
 * 7f0000200047  c3                   ret
 */
#define LDSO		0x7f0000200000ULL
#define LINK_MAP	0x7f0000230000ULL	/* a value PLT0 pushes */
/* The resolver and _dl_fixup; d0..d3: the lea's disp32 (where foo is) */
#define LDSO_CODE(d0, d1, d2, d3) { \
	/* +0x00 */ 0x53, 0x48, 0x89, 0xe3, 0x48, 0x83, 0xe4, 0xc0, 0x48, 0x83, 0xec, 0x40, 0x48, 0x8b, 0x73, 0x10, \
	/* +0x10 */ 0x48, 0x8b, 0x7b, 0x08, 0xe8, 0x27, 0x00, 0x00, 0x00, 0x49, 0x89, 0xc3, 0x48, 0x89, 0xdc, 0x48, \
	/* +0x20 */ 0x8b, 0x1c, 0x24, 0x48, 0x83, 0xc4, 0x18, 0x41, 0xff, 0xe3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, \
	/* +0x30 */ 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, \
	/* +0x40 */ 0x48, 0x8d, 0x05, d0, d1, d2, d3, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, \
}
static const unsigned char ldso[80] = LDSO_CODE(0xb9, 0xff, 0xef, 0xff);

/*
 * The same three mapped close together, as a small library's are when
 * it is loaded before libc (DT_NEEDED order; ld.so maps each one below
 * the last): the caller's library lowest, foo's library above it, ld.so
 * 0x20000 above the caller.  Measured on such a pair of libraries (a
 * program printing its /proc/self/maps): foo@plt at 7fd2e94de030, foo
 * at 7fd2e94e30f9, the resolver's jmp *%r11 at 7fd2e9503346.
 * The prog and libfoo bytes are the same; in ld.so only _dl_fixup's
 * lea differs: 7f0000520040: 48 8d 05 b9 4f fe ff  lea -0x1b047(%rip)
 * (foo at 7f0000505000).
 */
#define NEAR_MAIN	0x7f0000500000ULL
#define NEAR_FOO	0x7f0000505000ULL
#define NEAR_LDSO	0x7f0000520000ULL
static const unsigned char ldso_near[80] = LDSO_CODE(0xb9, 0x4f, 0xfe, 0xff);

/*
 * Functions whose code spans about 1 MiB, with no symbols: each jumps
 * forward to a jmp *%rax placed (entry + span) and back to its ret.
 *
 * 600000 f1: e9 fb ff 0f 00  jmp 700000   (span 0x100000: exactly 1 MiB)
 * 600005     c3              ret
 * 600010 f2: e9 fc ff 0f 00  jmp 700011   (span 0x100001: 1 MiB + 1)
 * 600015     c3              ret
 * 600020 f3: e9 fa ff 0f 00  jmp 70001f   (span 0xfffff: 1 MiB - 1)
 * 600025     c3              ret
 * 700000     ff e0           jmp *%rax    (to 600005)
 * 700011     ff e0           jmp *%rax    (to 600015)
 * 70001f     ff e0           jmp *%rax    (to 600025)
 */
#define SPAN_LO		0x600000ULL
#define SPAN_HI		0x700000ULL
static const unsigned char span_lo[48] = {
	/* 0x600000 */ 0xe9, 0xfb, 0xff, 0x0f, 0x00, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x600010 */ 0xe9, 0xfc, 0xff, 0x0f, 0x00, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x600020 */ 0xe9, 0xfa, 0xff, 0x0f, 0x00, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
};
static const unsigned char span_hi[48] = {
	/* 0x700000 */ 0xff, 0xe0, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	/* 0x700010 */ 0xcc, 0xff, 0xe0, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xff,
	/* 0x700020 */ 0xe0, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
};

#define STK_BASE	0x7fff0000ULL
#define STK_SIZE	0x2000
static unsigned char stack[STK_SIZE];

#define S0	(STK_BASE + 0x1800)	/* rsp at the entry of the root
					 * (64-byte aligned) */
#define HS	(S0 - 0x408)		/* rsp at a signal handler's entry */
#define R0	0x402000ULL		/* the root's return address */

static int failures;

/* Everything readable; all else is unmapped. */
static const struct region {
	dcg_u64 base;
	const unsigned char *mem;
	dcg_u64 size;
} regions[] = {
	{ CODE_BASE, code, sizeof(code) },
	{ NOPS_BASE, nops, NOPS_SIZE },
	{ MAIN, prog, sizeof(prog) },
	{ FOO, libfoo, sizeof(libfoo) },
	{ LDSO, ldso, sizeof(ldso) },
	{ NEAR_MAIN, prog, sizeof(prog) },
	{ NEAR_FOO, libfoo, sizeof(libfoo) },
	{ NEAR_LDSO, ldso_near, sizeof(ldso_near) },
	{ SPAN_LO, span_lo, sizeof(span_lo) },
	{ SPAN_HI, span_hi, sizeof(span_hi) },
	{ STK_BASE, stack, STK_SIZE },
};

static int fake_read(void *ctx, dcg_u64 addr, void *buf, unsigned int len)
{
	const struct region *r;
	unsigned int i;
	dcg_u64 n;

	for (i = 0; i < sizeof(regions) / sizeof(regions[0]); i++) {
		r = &regions[i];
		if (addr < r->base || addr >= r->base + r->size)
			continue;
		n = r->base + r->size - addr;
		if (n > len)
			n = len;
		memcpy(buf, r->mem + (addr - r->base), n);
		return (int)n;
	}
	return 0;
}

static void stack_write(dcg_u64 addr, dcg_u64 val)
{
	int i;

	if (addr < STK_BASE || addr + 8 > STK_BASE + STK_SIZE) {
		printf("FAIL: test bug: stack write at %#llx\n",
		       (unsigned long long)addr);
		failures++;
		return;
	}
	for (i = 0; i < 8; i++)
		stack[addr - STK_BASE + i] = (unsigned char)(val >> (8 * i));
}

struct range {
	dcg_u64 start, end;
};

/* A host's symbol table: what its func_bounds callback knows. */
struct symtab {
	const struct range *r;
	unsigned int n;
};

/*
 * Function bounds from the listings above, as an ELF .symtab gives them:
 * main and foo have symbols; the PLT and ld.so have none.
 */
static const struct range funcs[] = {
	{ 0x401000, 0x401008 }, { 0x401010, 0x401012 }, { 0x401020, 0x401027 },
	{ 0x401030, 0x40103d }, { 0x401040, 0x401049 }, { 0x401050, 0x401051 },
	{ 0x401060, 0x40106a }, { 0x401070, 0x401073 }, { 0x401080, 0x401086 },
	{ 0x401088, 0x40108a }, { 0x401090, 0x40109c }, { 0x4010a0, 0x4010ab },
	{ 0x4010b0, 0x4010b1 }, { 0x4010b8, 0x4010ba }, { 0x4010c0, 0x4010c9 },
	{ 0x4010d0, 0x4010de }, { 0x4010e0, 0x4010e3 }, { 0x4010e8, 0x4010ed },
	{ 0x401100, 0x401109 }, { 0x401110, 0x401116 }, { 0x401118, 0x40111e },
	{ 0x401120, 0x401125 }, { 0x401140, 0x401145 }, { 0x401148, 0x40114e },
	{ 0x401150, 0x401157 }, { 0x401158, 0x40115f }, { 0x401180, 0x40118c },
	{ 0x401190, 0x401193 }, { 0x401198, 0x40119e }, { 0x4011a0, 0x4011b1 },
	{ 0x4011d0, 0x4011e1 }, { 0x4011e8, 0x4011f6 },
	{ MAIN, MAIN + 6 }, { FOO, FOO + 3 },
	{ NEAR_MAIN, NEAR_MAIN + 6 }, { NEAR_FOO, NEAR_FOO + 3 },
};
static const struct symtab syms_funcs = { funcs, sizeof(funcs) / sizeof(funcs[0]) };

/* The other way round: ld.so with symbols (a debug build), foo without */
static const struct range ldso_funcs[] = {
	{ LDSO, LDSO + 0x2a }, { LDSO + 0x40, LDSO + 0x48 },
};
static const struct symtab syms_ldso = { ldso_funcs, 2 };

/* f2 with symbols: one function from 600010 to past its jmp at 700011 */
static const struct range big_funcs[] = {
	{ SPAN_LO + 0x10, SPAN_HI + 0x13 },
};
static const struct symtab syms_big = { big_funcs, 1 };

static int fake_bounds(void *ctx, dcg_u64 addr, dcg_u64 *start, dcg_u64 *end)
{
	const struct symtab *tab = ctx;
	unsigned int i;

	for (i = 0; i < tab->n; i++) {
		if (addr >= tab->r[i].start && addr < tab->r[i].end) {
			*start = tab->r[i].start;
			*end = tab->r[i].end;
			return 0;
		}
	}
	return -1;
}

#define MAX_EVENTS 64
static struct dcg_rec_event events[MAX_EVENTS];
static int nevents;

static void record(void *ctx, const struct dcg_rec_event *ev)
{
	if (nevents < MAX_EVENTS)
		events[nevents] = *ev;
	nevents++;
}

static const struct dcg_host_ops ops_plain = {
	.read = fake_read, .emit = record,
};
static const struct dcg_host_ops ops_bounds = {
	.read = fake_read, .func_bounds = fake_bounds, .emit = record,
	.ctx = (void *)&syms_funcs,
};
static const struct dcg_host_ops ops_ldso = {
	.read = fake_read, .func_bounds = fake_bounds, .emit = record,
	.ctx = (void *)&syms_ldso,
};
static const struct dcg_host_ops ops_big = {
	.read = fake_read, .func_bounds = fake_bounds, .emit = record,
	.ctx = (void *)&syms_big,
};

/*
 * One step of a scenario: a stop (ip != 0), a stack write (waddr != 0)
 * done before it, or both.  Block mode sees only the taken stops.
 */
struct step {
	dcg_u64 waddr, wval;
	dcg_u64 ip, sp;
	int taken;
};

#define WR(a, v)	{ (a), (v), 0, 0, 0 }
#define ST(i, s)	{ 0, 0, (i), (s), 0 }	/* falls through: step only */
#define TK(i, s)	{ 0, 0, (i), (s), 1 }	/* taken branch or async */
#define WTK(a, v, i, s)	{ (a), (v), (i), (s), 1 }

/* An expected event; bfrom/bto/bsp, when set, are block mode's. */
struct want {
	int kind, flags;
	dcg_u64 from, to, sp;
	unsigned int depth;
	dcg_u64 bfrom, bto, bsp;
};

#define E(k, f, fr, t, s, d)		{ k, f, fr, t, s, d, 0, 0, 0 }
#define EB(k, f, fr, t, s, d, bf, bt)	{ k, f, fr, t, s, d, bf, bt, 0 }
#define EBS(k, f, fr, t, s, d, bf, bt, bs) { k, f, fr, t, s, d, bf, bt, bs }

#define CALL	DCG_EV_CALL
#define RET	DCG_EV_RET
#define TAIL	DCG_EV_TAILCALL
#define ASYNC	DCG_EV_ASYNC
#define SYN	DCG_EVF_SYNTHETIC
#define IND	DCG_EVF_INDIRECT
#define OVF	DCG_EVF_OVERFLOW

struct scenario {
	const char *name;
	dcg_u64 entry, sp, ret_addr;	/* dcg_thread_begin() */
	int here;			/* dcg_thread_begin_here() instead */
	int bounds;			/* host provides func_bounds */
	const struct dcg_host_ops *ops;	/* other bounds than funcs[] */
	int end;			/* call dcg_thread_end() afterwards */
	unsigned int cap, max_depth;
	const struct step *steps;
	int nsteps;
	const struct want *want;
	int nwant;
};

static const char *mode_name(unsigned int mode)
{
	if (mode == DCG_MODE_STEP)
		return "step";
	return mode == DCG_MODE_BLOCK ? "block" : "emulated block";
}

static int check_event(const struct scenario *sc, unsigned int mode, int i,
		       const struct dcg_rec_event *ev, const struct want *w)
{
	dcg_u64 from = w->from, to = w->to, sp = w->sp;

	if (mode != DCG_MODE_STEP && w->bfrom)
		from = w->bfrom;
	if (mode != DCG_MODE_STEP && w->bto)
		to = w->bto;
	if (mode != DCG_MODE_STEP && w->bsp)
		sp = w->bsp;
	if (ev->r.type == DCG_REC_EVENT && ev->r.size == sizeof(*ev) &&
	    ev->kind == w->kind && ev->flags == w->flags && ev->from == from &&
	    ev->to == to && ev->sp == sp && ev->depth == w->depth)
		return 1;
	printf("INFO: %s/%s: event %d: got kind %u flags %#x from %#llx to %#llx sp %#llx depth %u (type %u size %u)\n",
	       sc->name, mode_name(mode), i, ev->kind, ev->flags,
	       (unsigned long long)ev->from, (unsigned long long)ev->to,
	       (unsigned long long)ev->sp, ev->depth, ev->r.type, ev->r.size);
	printf("INFO: %s/%s: event %d: want kind %d flags %#x from %#llx to %#llx sp %#llx depth %u\n",
	       sc->name, mode_name(mode), i, w->kind, w->flags,
	       (unsigned long long)from, (unsigned long long)to,
	       (unsigned long long)sp, w->depth);
	return 0;
}

static void result(int ok, const char *fmt, const char *a, const char *b)
{
	printf("%s: ", ok ? "PASS" : "FAIL");
	printf(fmt, a, b);
	printf("\n");
	if (!ok)
		failures++;
}

#define MAX_FRAMES 16
static struct dcg_frame frames[MAX_FRAMES];
static struct dcg_thread thread;

/*
 * The profile table (dcg_profile): when prof_cap is set, run() counts
 * runs in a table of that many slots; the host's flush adds what it
 * is given to prof_flushed (count * ninsns, and dropped), or refuses
 * when prof_refuse is set.
 */
static struct dcg_prof_ent prof_slots[64];
static struct dcg_profile prof;
static dcg_u32 prof_cap;
static int prof_refuse;
static dcg_u64 prof_flushed;

static dcg_u64 prof_sum(const struct dcg_profile *p)
{
	dcg_u64 sum = p->dropped;
	dcg_u32 i;

	for (i = 0; i < p->cap; i++)
		sum += p->slots[i].count * p->slots[i].ninsns;
	return sum;
}

static int prof_flush(void *ctx, const struct dcg_profile *p,
		      unsigned int flags)
{
	if (prof_refuse)
		return -1;
	prof_flushed += prof_sum(p);
	return 0;
}

/* Run a scenario's steps in @mode into events[]; returns the thread. */
static struct dcg_thread *run(const struct scenario *sc, unsigned int mode)
{
	const struct dcg_host_ops *ops = sc->ops ? sc->ops :
		sc->bounds ? &ops_bounds : &ops_plain;
	struct dcg_thread *t = &thread;
	struct dcg_host_ops pops;
	dcg_u64 ts = 1;
	int i;

	memset(stack, 0, sizeof(stack));
	nevents = 0;
	dcg_thread_init(t, mode, frames, sc->cap ? sc->cap : MAX_FRAMES);
	t->max_depth = sc->max_depth;
	if (prof_cap) {
		pops = *ops;
		pops.profile_flush = prof_flush;
		ops = &pops;
		dcg_profile_init(&prof, prof_slots, prof_cap);
		prof_flushed = 0;
		t->prof = &prof;
	}
	if (sc->here) {
		dcg_thread_begin_here(t, sc->entry, sc->sp, ts);
	} else {
		stack_write(sc->sp, sc->ret_addr);
		dcg_thread_begin(t, sc->entry, sc->sp, sc->ret_addr, ts, ops);
	}
	for (i = 0; i < sc->nsteps; i++) {
		const struct step *s = &sc->steps[i];

		if (s->waddr)
			stack_write(s->waddr, s->wval);
		if (!s->ip || (mode != DCG_MODE_STEP && !s->taken))
			continue;
		dcg_thread_stop(t, s->ip, s->sp, ++ts, ops);
	}
	if (sc->end)
		dcg_thread_end(t, ++ts, ops);
	return t;
}

static void run_scenario(const struct scenario *sc, unsigned int mode)
{
	struct dcg_thread *t = run(sc, mode);
	int i, ok = nevents == sc->nwant;

	if (!ok)
		printf("INFO: %s/%s: %d events, want %d\n", sc->name,
		       mode_name(mode), nevents, sc->nwant);
	for (i = 0; i < nevents && i < sc->nwant && i < MAX_EVENTS; i++)
		ok &= check_event(sc, mode, i, &events[i], &sc->want[i]);
	if (t->stats.events != (dcg_u64)nevents) {
		printf("INFO: stats.events %llu, emitted %d\n",
		       (unsigned long long)t->stats.events, nevents);
		ok = 0;
	}
	result(ok, "%s: %s mode events", sc->name, mode_name(mode));
}

/*
 * Instruction counts: every mode counts what ran, so a block mode's
 * events carry the counts of step mode's (the scenarios have no rep
 * iterations, which the modes count differently).
 */
static dcg_u64 step_insns[MAX_EVENTS];
static int step_nevents;

static void save_insns(void)
{
	int i;

	step_nevents = nevents;
	for (i = 0; i < nevents && i < MAX_EVENTS; i++)
		step_insns[i] = events[i].insns;
}

static void same_insns(const struct scenario *sc, unsigned int mode)
{
	int i, ok = nevents == step_nevents;

	for (i = 0; ok && i < nevents && i < MAX_EVENTS; i++) {
		if (events[i].insns == step_insns[i])
			continue;
		printf("INFO: %s/%s: event %d: %llu insns, step mode %llu\n",
		       sc->name, mode_name(mode), i,
		       (unsigned long long)events[i].insns,
		       (unsigned long long)step_insns[i]);
		ok = 0;
	}
	result(ok, "%s: %s mode counts the insns step mode does", sc->name,
	       mode_name(mode));
}

/*
 * Every scenario in @mode with a profile table of @cap slots: the runs'
 * counts (written out, still in the table, or dropped) add up to the
 * thread's insns, exactly; the window's end leaves the table empty
 * when the host takes it.  @flushes: how many scenarios flushed early,
 * so that the caller knows that path ran.
 */
static int profile_scenarios(unsigned int mode, dcg_u32 cap, int *flushes);
#define N(a) (int)(sizeof(a) / sizeof((a)[0]))
#define SCEN(nm, e, ...) \
	{ .name = #nm, .entry = e, .sp = S0, .ret_addr = R0, \
	  .steps = nm##_steps, .nsteps = N(nm##_steps), \
	  .want = nm##_want, .nwant = N(nm##_want), __VA_ARGS__ }

/* call, ret */
static const struct step callret_steps[] = {
	ST(0x401001, S0 - 8),
	WTK(S0 - 16, 0x401006, 0x401010, S0 - 16),
	ST(0x401011, S0 - 16),
	TK(0x401006, S0 - 8),
	ST(0x401007, S0),
	TK(R0, S0 + 8),
};
static const struct want callret_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401000, S0, 1),
	E(CALL, 0, 0x401001, 0x401010, S0 - 16, 2),
	E(RET, 0, 0x401011, 0x401006, S0 - 8, 1),
	E(RET, 0, 0x401007, R0, S0 + 8, 0),
};

/* call to the next insn, then pop: no call */
static const struct step getpc_steps[] = {
	WTK(S0 - 8, 0x401025, 0x401025, S0 - 8),
	ST(0x401026, S0),
	TK(R0, S0 + 8),
};
static const struct want getpc_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401020, S0, 1),
	E(RET, 0, 0x401026, R0, S0 + 8, 0),
};

/* push addr; ret inside the function: a jump, not a return */
static const struct step pushret_steps[] = {
	ST(0x401031, S0 - 8),
	ST(0x401038, S0 - 8),
	WR(S0 - 16, 0x40103b),
	ST(0x401039, S0 - 16),
	TK(0x40103b, S0 - 8),
	ST(0x40103c, S0),
	TK(R0, S0 + 8),
};
static const struct want pushret_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401030, S0, 1),
	E(RET, 0, 0x40103c, R0, S0 + 8, 0),
};

/* push addr; ret with the frame torn down, to another function */
static const struct step pushret_tail_steps[] = {
	ST(0x401047, S0),
	WR(S0 - 8, 0x401050),
	ST(0x401048, S0 - 8),
	TK(0x401050, S0),
	TK(R0, S0 + 8),
};
static const struct want pushret_tail_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401040, S0, 1),
	E(TAIL, IND, 0x401048, 0x401050, S0, 1),
	E(RET, 0, 0x401050, R0, S0 + 8, 0),
};

/* ret $16 pops 24 bytes */
static const struct step retimm_steps[] = {
	ST(0x401062, S0 - 8),
	ST(0x401064, S0 - 16),
	WTK(S0 - 24, 0x401069, 0x401070, S0 - 24),
	TK(0x401069, S0),
	TK(R0, S0 + 8),
};
static const struct want retimm_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401060, S0, 1),
	E(CALL, 0, 0x401064, 0x401070, S0 - 24, 2),
	E(RET, 0, 0x401070, 0x401069, S0, 1),
	E(RET, 0, 0x401069, R0, S0 + 8, 0),
};

/* bnd ret */
static const struct step bndret_steps[] = {
	WTK(S0 - 8, 0x401085, 0x401088, S0 - 8),
	TK(0x401085, S0),
	TK(R0, S0 + 8),
};
static const struct want bndret_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401080, S0, 1),
	E(CALL, 0, 0x401080, 0x401088, S0 - 8, 2),
	E(RET, 0, 0x401088, 0x401085, S0, 1),
	E(RET, 0, 0x401085, R0, S0 + 8, 0),
};

/* notrack jmp * at frame sp, no symbols: a switch, not a tail call */
static const struct step notrack_steps[] = {
	ST(0x401097, S0),
	TK(0x40109b, S0),
	TK(R0, S0 + 8),
};
static const struct want notrack_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401090, S0, 1),
	E(RET, 0, 0x40109b, R0, S0 + 8, 0),
};

/* jmp * inside the function at frame sp, with symbols: no tail call */
static const struct step jmpind_steps[] = {
	ST(0x4010a7, S0),
	TK(0x4010aa, S0),
	TK(R0, S0 + 8),
};
static const struct want jmpind_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x4010a0, S0, 1),
	E(RET, 0, 0x4010aa, R0, S0 + 8, 0),
};

/*
 * The same without symbols: a forward jmp * at frame sp is taken for a
 * tail call (the documented cost of having no function bounds).
 */
#define jmpind_nosym_steps jmpind_steps
static const struct want jmpind_nosym_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x4010a0, S0, 1),
	E(TAIL, IND, 0x4010a7, 0x4010aa, S0, 1),
	E(RET, 0, 0x4010aa, R0, S0 + 8, 0),
};

/* call g1, then jmp to a function below: a direct tail call */
static const struct step tail_steps[] = {
	ST(0x4010c1, S0 - 8),
	WTK(S0 - 16, 0x4010c6, 0x401010, S0 - 16),
	ST(0x401011, S0 - 16),
	TK(0x4010c6, S0 - 8),
	ST(0x4010c7, S0),
	TK(0x4010b0, S0),
	TK(R0, S0 + 8),
};
static const struct want tail_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x4010c0, S0, 1),
	E(CALL, 0, 0x4010c1, 0x401010, S0 - 16, 2),
	E(RET, 0, 0x401011, 0x4010c6, S0 - 8, 1),
	E(TAIL, 0, 0x4010c7, 0x4010b0, S0, 1),
	E(RET, 0, 0x4010b0, R0, S0 + 8, 0),
};

/* leave the frame, then jmp *%rax */
static const struct step tail_ind_steps[] = {
	ST(0x4010d1, S0 - 8),
	ST(0x4010d4, S0 - 8),
	ST(0x4010db, S0 - 8),
	ST(0x4010dc, S0),
	TK(0x4010b0, S0),
	TK(R0, S0 + 8),
};
static const struct want tail_ind_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x4010d0, S0, 1),
	E(TAIL, IND, 0x4010dc, 0x4010b0, S0, 1),
	E(RET, 0, 0x4010b0, R0, S0 + 8, 0),
};

/* jmp out of the function with the frame still up: not a tail call */
static const struct step jmp_out_steps[] = {
	ST(0x4010e1, S0 - 8),
	TK(0x4010b8, S0 - 8),
	ST(0x4010b9, S0),
	TK(R0, S0 + 8),
};
static const struct want jmp_out_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x4010e0, S0, 1),
	E(RET, 0, 0x4010b9, R0, S0 + 8, 0),
};

/* jne to another function at frame sp: a conditional tail call */
static const struct step tail_jcc_steps[] = {
	ST(0x4010ea, S0),
	TK(0x4010b0, S0),
	TK(R0, S0 + 8),
};
static const struct want tail_jcc_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x4010e8, S0, 1),
	E(TAIL, 0, 0x4010ea, 0x4010b0, S0, 1),
	E(RET, 0, 0x4010b0, R0, S0 + 8, 0),
};

/*
 * longjmp: three frames down, rsp goes back up to ljf's and a jmp *
 * lands in ljf.  Step mode sees rsp move at the mov, block mode only
 * after the jmp; frames end at a control transfer (the jmp) in both,
 * so that a straight-line insn that lifts rsp for a moment (see
 * retmoved.c) ends none.
 */
static const struct step longjmp_steps[] = {
	ST(0x401101, S0 - 8),
	WTK(S0 - 16, 0x401106, 0x401110, S0 - 16),
	WTK(S0 - 24, 0x401115, 0x401118, S0 - 24),
	WTK(S0 - 32, 0x40111d, 0x401120, S0 - 32),
	ST(0x401123, S0 - 8),
	TK(0x401107, S0 - 8),
	ST(0x401108, S0),
	TK(R0, S0 + 8),
};
static const struct want longjmp_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401100, S0, 1),
	E(CALL, 0, 0x401101, 0x401110, S0 - 16, 2),
	E(CALL, 0, 0x401110, 0x401118, S0 - 24, 3),
	E(CALL, 0, 0x401118, 0x401120, S0 - 32, 4),
	E(RET, SYN, 0x401123, 0x401107, S0 - 8, 3),
	E(RET, SYN, 0x401123, 0x401107, S0 - 8, 2),
	E(RET, SYN, 0x401123, 0x401107, S0 - 8, 1),
	E(RET, 0, 0x401108, R0, S0 + 8, 0),
};

/*
 * A signal arrives at the stop before `call *%rax` (which has not run):
 * the handler is entered with a signal frame below, the restorer's
 * address at [sp].  It calls g1, returns to the restorer, whose
 * sigreturn puts the thread back at the call, which then runs.
 */
static const struct step signal_steps[] = {
	ST(0x401141, S0 - 8),
	WTK(HS, 0x401150, 0x401148, HS),
	WTK(HS - 8, 0x40114d, 0x401010, HS - 8),
	ST(0x401011, HS - 8),
	TK(0x40114d, HS),
	TK(0x401150, HS + 8),
	ST(0x401155, HS + 8),
	TK(0x401141, S0 - 8),
	WTK(S0 - 16, 0x401143, 0x401010, S0 - 16),
	ST(0x401011, S0 - 16),
	TK(0x401143, S0 - 8),
	ST(0x401144, S0),
	TK(R0, S0 + 8),
};
static const struct want signal_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401140, S0, 1),
	EB(ASYNC, 0, 0x401141, 0x401148, HS, 2, 0x401140, 0),
	E(CALL, 0, 0x401148, 0x401010, HS - 8, 3),
	E(RET, 0, 0x401011, 0x40114d, HS, 2),
	E(RET, 0, 0x40114d, 0x401150, HS + 8, 1),
	E(CALL, IND, 0x401141, 0x401010, S0 - 16, 2),
	E(RET, 0, 0x401011, 0x401143, S0 - 8, 1),
	E(RET, 0, 0x401144, R0, S0 + 8, 0),
};

/* The handler calls sigreturn itself: the resync pops it; then end() */
static const struct step sigreturn_steps[] = {
	ST(0x401141, S0 - 8),
	WTK(HS, 0x401150, 0x401158, HS),
	ST(0x40115d, HS),
	TK(0x401141, S0 - 8),
};
static const struct want sigreturn_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401140, S0, 1),
	EB(ASYNC, 0, 0x401141, 0x401158, HS, 2, 0x401140, 0),
	E(RET, SYN, 0x40115d, 0x401141, S0 - 8, 1),
	E(RET, DCG_EVF_END, 0x401141, R0, S0 - 8, 0),
};

/* rc(2): rc -> rc -> rc, the same return address three times */
#define RC_LEVEL(sp, next) \
	ST(0x401182, sp), ST(0x401184, sp), ST(0x401186, sp), \
	WTK((sp) - 8, 0x40118b, 0x401180, (sp) - 8)
static const struct step recursion_steps[] = {
	RC_LEVEL(S0, 1),
	RC_LEVEL(S0 - 8, 2),
	ST(0x401182, S0 - 16),
	TK(0x40118b, S0 - 16),
	TK(0x40118b, S0 - 8),
	TK(0x40118b, S0),
	TK(R0, S0 + 8),
};
static const struct want recursion_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401180, S0, 1),
	E(CALL, 0, 0x401186, 0x401180, S0 - 8, 2),
	E(CALL, 0, 0x401186, 0x401180, S0 - 16, 3),
	E(RET, 0, 0x40118b, 0x40118b, S0 - 8, 2),
	E(RET, 0, 0x40118b, 0x40118b, S0, 1),
	E(RET, 0, 0x40118b, R0, S0 + 8, 0),
};

/* rc(5) with room for 3 frames: depths 4..6 overflow, returns balance */
static const struct step overflow_steps[] = {
	RC_LEVEL(S0, 1), RC_LEVEL(S0 - 8, 2), RC_LEVEL(S0 - 16, 3),
	RC_LEVEL(S0 - 24, 4), RC_LEVEL(S0 - 32, 5),
	ST(0x401182, S0 - 40),
	TK(0x40118b, S0 - 40),
	TK(0x40118b, S0 - 32), TK(0x40118b, S0 - 24), TK(0x40118b, S0 - 16),
	TK(0x40118b, S0 - 8), TK(0x40118b, S0),
	TK(R0, S0 + 8),
};
static const struct want overflow_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401180, S0, 1),
	E(CALL, 0, 0x401186, 0x401180, S0 - 8, 2),
	E(CALL, 0, 0x401186, 0x401180, S0 - 16, 3),
	E(CALL, OVF, 0x401186, 0x401180, S0 - 24, 4),
	E(CALL, OVF, 0x401186, 0x401180, S0 - 32, 5),
	E(CALL, OVF, 0x401186, 0x401180, S0 - 40, 6),
	E(RET, OVF, 0x40118b, 0x40118b, S0 - 32, 5),
	E(RET, OVF, 0x40118b, 0x40118b, S0 - 24, 4),
	E(RET, OVF, 0x40118b, 0x40118b, S0 - 16, 3),
	E(RET, 0, 0x40118b, 0x40118b, S0 - 8, 2),
	E(RET, 0, 0x40118b, 0x40118b, S0, 1),
	E(RET, 0, 0x40118b, R0, S0 + 8, 0),
};

/* rc(3) with max_depth 2, the host still stepping the skipped subtree */
static const struct step skip_steps[] = {
	RC_LEVEL(S0, 1), RC_LEVEL(S0 - 8, 2), RC_LEVEL(S0 - 16, 3),
	ST(0x401182, S0 - 24),
	TK(0x40118b, S0 - 24),
	TK(0x40118b, S0 - 16),
	TK(0x40118b, S0 - 8),
	TK(0x40118b, S0),
	TK(R0, S0 + 8),
};
static const struct want skip_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401180, S0, 1),
	E(CALL, 0, 0x401186, 0x401180, S0 - 8, 2),
	E(CALL, DCG_EVF_SKIPPED, 0x401186, 0x401180, S0 - 16, 3),
	E(RET, 0, 0x40118b, 0x40118b, S0 - 8, 2),
	E(RET, 0, 0x40118b, 0x40118b, S0, 1),
	E(RET, 0, 0x40118b, R0, S0 + 8, 0),
};

/* The same with a host that skips: next stop is back at the return */
static const struct step skip_host_steps[] = {
	RC_LEVEL(S0, 1), RC_LEVEL(S0 - 8, 2),
	TK(0x40118b, S0 - 8),
	TK(0x40118b, S0),
	TK(R0, S0 + 8),
};
static const struct want skip_host_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401180, S0, 1),
	E(CALL, 0, 0x401186, 0x401180, S0 - 8, 2),
	E(CALL, DCG_EVF_SKIPPED, 0x401186, 0x401180, S0 - 16, 3),
	E(RET, 0, 0x401180, 0x40118b, S0 - 8, 2),
	E(RET, 0, 0x40118b, 0x40118b, S0, 1),
	E(RET, 0, 0x40118b, R0, S0 + 8, 0),
};

/*
 * Window opened inside g1: its ret goes above the window (UNMATCHED),
 * then f6 runs from its entry, calls g6 and returns above again.
 */
static const struct step here_steps[] = {
	WR(S0, 0x401080),
	ST(0x401011, S0),
	TK(0x401080, S0 + 8),
	WR(S0 + 8, 0x402100),
	WTK(S0, 0x401085, 0x401088, S0),
	TK(0x401085, S0 + 8),
	TK(0x402100, S0 + 16),
};
static const struct want here_want[] = {
	E(RET, DCG_EVF_UNMATCHED, 0x401011, 0x401080, S0 + 8, 0),
	E(CALL, 0, 0x401080, 0x401088, S0, 1),
	E(RET, 0, 0x401088, 0x401085, S0 + 8, 0),
	E(RET, DCG_EVF_UNMATCHED, 0x401085, 0x402100, S0 + 16, 0),
};

/*
 * A retpoline: call thk; thk calls its own label, overwrites the return
 * address with %rax (hlow) and rets to it with thk's frame torn down.
 * With symbols: the inner call is no call, the ret a tail call.
 */
static const struct step retpoline_steps[] = {
	WTK(S0 - 8, 0x40119d, 0x4011a0, S0 - 8),
	WTK(S0 - 16, 0x4011a5, 0x4011ac, S0 - 16),
	WR(S0 - 16, 0x4010b0),
	ST(0x4011b0, S0 - 16),
	TK(0x4010b0, S0 - 8),
	TK(0x40119d, S0),
	TK(R0, S0 + 8),
};
static const struct want retpoline_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401198, S0, 1),
	E(CALL, 0, 0x401198, 0x4011a0, S0 - 8, 2),
	E(TAIL, IND, 0x4011b0, 0x4010b0, S0 - 8, 2),
	E(RET, 0, 0x4010b0, 0x40119d, S0, 1),
	E(RET, 0, 0x40119d, R0, S0 + 8, 0),
};

/* Without symbols the inner call is a call, and its ret a return */
#define retpoline_nosym_steps retpoline_steps
static const struct want retpoline_nosym_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401198, S0, 1),
	E(CALL, 0, 0x401198, 0x4011a0, S0 - 8, 2),
	E(CALL, 0, 0x4011a0, 0x4011ac, S0 - 16, 3),
	E(RET, 0, 0x4011b0, 0x4010b0, S0 - 8, 2),
	E(RET, 0, 0x4010b0, 0x40119d, S0, 1),
	E(RET, 0, 0x40119d, R0, S0 + 8, 0),
};

/*
 * rs(2): the innermost activation drops its own return address and its
 * ret pops the slot of the frame above: that frame returns, the
 * innermost is popped as synthetic, at the ret in every mode (not at
 * the add that moves rsp: see longjmp).
 */
static const struct step ret_past_steps[] = {
	ST(0x4011d2, S0), ST(0x4011d4, S0), ST(0x4011d6, S0),
	WTK(S0 - 8, 0x4011db, 0x4011d0, S0 - 8),
	ST(0x4011d2, S0 - 8), ST(0x4011d4, S0 - 8), ST(0x4011d6, S0 - 8),
	WTK(S0 - 16, 0x4011db, 0x4011d0, S0 - 16),
	ST(0x4011d2, S0 - 16),
	TK(0x4011dc, S0 - 16),
	ST(0x4011e0, S0 - 8),
	TK(0x4011db, S0),
	TK(R0, S0 + 8),
};
static const struct want ret_past_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x4011d0, S0, 1),
	E(CALL, 0, 0x4011d6, 0x4011d0, S0 - 8, 2),
	E(CALL, 0, 0x4011d6, 0x4011d0, S0 - 16, 3),
	E(RET, SYN, 0x4011e0, 0x4011db, S0, 2),
	E(RET, 0, 0x4011e0, 0x4011db, S0, 1),
	E(RET, 0, 0x4011db, R0, S0 + 8, 0),
};

/*
 * A signal interrupts the syscall in sgh2 (as if a read() got EINTR):
 * the handler runs on a frame far below, returns to the restorer, and
 * sigreturn resumes after the syscall.  Then end().
 */
static const struct step sys_signal_steps[] = {
	ST(0x40115d, S0),
	WTK(HS, 0x401150, 0x401148, HS),
	WTK(HS - 8, 0x40114d, 0x401010, HS - 8),
	ST(0x401011, HS - 8),
	TK(0x40114d, HS),
	TK(0x401150, HS + 8),
	ST(0x401155, HS + 8),
	TK(0x40115f, S0),
};
static const struct want sys_signal_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401158, S0, 1),
	EB(ASYNC, 0, 0x40115d, 0x401148, HS, 2, 0x401158, 0),
	E(CALL, 0, 0x401148, 0x401010, HS - 8, 3),
	E(RET, 0, 0x401011, 0x40114d, HS, 2),
	E(RET, 0, 0x40114d, 0x401150, HS + 8, 1),
	E(RET, DCG_EVF_END, 0x40115f, R0, S0, 0),
};

/* jmp * back to the entry at frame sp, no symbols: a loop */
static const struct step loop_ind_steps[] = {
	ST(0x4011ea, S0), ST(0x4011ec, S0), ST(0x4011f3, S0),
	TK(0x4011e8, S0),
	ST(0x4011ea, S0),
	TK(0x4011f5, S0),
	TK(R0, S0 + 8),
};
static const struct want loop_ind_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x4011e8, S0, 1),
	E(RET, 0, 0x4011f5, R0, S0 + 8, 0),
};

/* jmp * at frame sp, but [sp] no longer holds the return address */
static const struct step slot_changed_steps[] = {
	ST(0x4010d1, S0 - 8),
	ST(0x4010d4, S0 - 8),
	ST(0x4010db, S0 - 8),
	ST(0x4010dc, S0),
	WR(S0, 0x401234),
	TK(0x4010b0, S0),
	TK(0x401234, S0 + 8),
};
static const struct want slot_changed_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x4010d0, S0, 1),
	E(RET, 0, 0x4010b0, 0x401234, S0 + 8, 0),
};

/*
 * A signal arrives just before a ret (block mode: the walk ends at that
 * ret, which did not run); the handler calls sigreturn itself.
 */
static const struct step signal_at_ret_steps[] = {
	ST(0x401011, S0),
	WTK(HS, 0x401150, 0x401158, HS),
	ST(0x40115d, HS),
	TK(0x401011, S0),
	TK(R0, S0 + 8),
};
static const struct want signal_at_ret_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x401010, S0, 1),
	EB(ASYNC, 0, 0x401011, 0x401158, HS, 2, 0x401010, 0),
	E(RET, SYN, 0x40115d, 0x401011, S0, 1),
	E(RET, 0, 0x401011, R0, S0 + 8, 0),
};

/*
 * Lazy PLT binding.  main (the root, at depth 1) calls foo@plt; GOT[3]
 * still points back into the stub, so its jmp *GOT[3] goes to the next
 * insn: no tail call (a jump to the next insn never is one).  The stub
 * pushes the reloc index and jumps to PLT0, which pushes the link_map
 * and jumps into ld.so: rsp is below foo@plt's frame (S0 - 8), so
 * neither jump can be a tail call.  The resolver calls _dl_fixup (a
 * plain call and return, depth 3), pops all it pushed, and jumps to
 * foo with rsp = S0 - 8 and [S0 - 8] = main+5: foo@plt's frame, torn
 * down, so a tail-call candidate.  ld.so has no symbols, so the
 * no-bounds rule decides: the jump site is 0x7f0000200027 - 0x403020,
 * far more than 1 MiB, past foo@plt's entry: it is not in foo@plt, so
 * the jump is a TAILCALL (INDIRECT) to foo, at depth 2.  Without that
 * rule foo (0x7f0000100000) lies between the frame's entry and the
 * jump site and would be taken for a loop: no TAILCALL, and foo's work
 * charged to foo@plt.  foo's ret then matches foo@plt's frame by its
 * slot: RET to main+5, depth 1, and main returns to depth 0.  Every
 * stop in block mode is after a branch, so the events are the same.
 * The stops for main at m, ld.so at l and foo, with rsp after each
 * insn (S0 is 64-byte aligned, so and $-64 takes S0 - 32 to S0 - 64):
 */
#define PLT_LAZY_STEPS(m, l, foo)					\
	WTK(S0 - 8, (m) + 5, (m) + 0x20, S0 - 8),	/* call foo@plt */ \
	TK((m) + 0x26, S0 - 8),			/* jmp *GOT[3]: next insn */ \
	WR(S0 - 16, 0),							\
	ST((m) + 0x2b, S0 - 16),		/* push $0 */		\
	TK((m) + 0x10, S0 - 16),		/* jmp PLT0 */		\
	WR(S0 - 24, LINK_MAP),						\
	ST((m) + 0x16, S0 - 24),		/* push GOT[1] */	\
	TK((l), S0 - 24),			/* jmp *GOT[2] */	\
	WR(S0 - 32, 0),							\
	ST((l) + 0x01, S0 - 32),		/* push %rbx */		\
	ST((l) + 0x04, S0 - 32),		/* mov %rsp,%rbx */	\
	ST((l) + 0x08, S0 - 64),		/* and $-64,%rsp */	\
	ST((l) + 0x0c, S0 - 128),		/* sub $0x40,%rsp */	\
	ST((l) + 0x10, S0 - 128),					\
	ST((l) + 0x14, S0 - 128),					\
	WTK(S0 - 136, (l) + 0x19, (l) + 0x40, S0 - 136), /* call fixup */ \
	ST((l) + 0x47, S0 - 136),		/* lea foo */		\
	TK((l) + 0x19, S0 - 128),		/* ret */		\
	ST((l) + 0x1c, S0 - 128),		/* mov %rax,%r11 */	\
	ST((l) + 0x1f, S0 - 32),		/* mov %rbx,%rsp */	\
	ST((l) + 0x23, S0 - 32),		/* mov (%rsp),%rbx */	\
	ST((l) + 0x27, S0 - 8),			/* add $0x18,%rsp */	\
	TK((foo), S0 - 8),			/* jmp *%r11 */		\
	ST((foo) + 2, S0 - 8),			/* mov %edi,%eax */	\
	TK((m) + 5, S0),			/* foo: ret */		\
	TK(R0, S0 + 8)				/* main: ret */
#define PLT_LAZY_WANT(m, l, foo)					\
	E(CALL, DCG_EVF_ROOT, R0, (m), S0, 1),				\
	E(CALL, 0, (m), (m) + 0x20, S0 - 8, 2),				\
	E(CALL, 0, (l) + 0x14, (l) + 0x40, S0 - 136, 3),		\
	E(RET, 0, (l) + 0x47, (l) + 0x19, S0 - 128, 2),			\
	E(TAIL, IND, (l) + 0x27, (foo), S0 - 8, 2),			\
	E(RET, 0, (foo) + 2, (m) + 5, S0, 1),				\
	E(RET, 0, (m) + 5, R0, S0 + 8, 0)
static const struct step plt_lazy_steps[] = {
	PLT_LAZY_STEPS(MAIN, LDSO, FOO),
};
static const struct want plt_lazy_want[] = {
	PLT_LAZY_WANT(MAIN, LDSO, FOO),
};

/*
 * With foo's bounds, the jump site (no bounds) lies outside them: a
 * TAILCALL.  Without any symbols (foo unknown too) the 1 MiB rule gives
 * the same events ...
 */
#define plt_lazy_nosym_steps plt_lazy_steps
#define plt_lazy_nosym_want plt_lazy_want

/*
 * ... and with ld.so's symbols but none for foo or main: the resolver's
 * bounds [7f0000200000, 7f000020002a) decide, foo lies below them, so
 * the jmp *%r11 is a TAILCALL by the bounds rule, not the 1 MiB one.
 * call fixup lands outside the resolver: a call.
 */
#define plt_lazy_ldsyms_steps plt_lazy_steps
#define plt_lazy_ldsyms_want plt_lazy_want

/*
 * The same call once GOT[3] holds foo: foo@plt's jmp *GOT[3] goes
 * straight to foo with foo@plt's frame torn down.  The PLT has no
 * symbols; the site is foo@plt's entry itself (span 0) and foo lies
 * above it, outside [entry, site]: a TAILCALL (INDIRECT), depth 2.
 */
static const struct step plt_bound_steps[] = {
	WTK(S0 - 8, MAIN + 5, PLT_FOO, S0 - 8),	/* call foo@plt */
	TK(FOO, S0 - 8),			/* jmp *GOT[3] */
	ST(FOO + 2, S0 - 8),
	TK(MAIN + 5, S0),
	TK(R0, S0 + 8),
};
static const struct want plt_bound_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, MAIN, S0, 1),
	E(CALL, 0, MAIN, PLT_FOO, S0 - 8, 2),
	E(TAIL, IND, PLT_FOO, FOO, S0 - 8, 2),
	E(RET, 0, FOO + 2, MAIN + 5, S0, 1),
	E(RET, 0, MAIN + 5, R0, S0 + 8, 0),
};
#define plt_bound_nosym_steps plt_bound_steps
#define plt_bound_nosym_want plt_bound_want

/*
 * The 1 MiB rule's edge.  No symbols; the root fN jumps forward to its
 * far jmp *%rax (a forward direct jump is never a tail call without
 * bounds), which jumps back to fN's ret with the frame torn down: the
 * target lies in [entry, site], a loop, unless the site is more than
 * FUNC_SPAN_MAX (0x100000) bytes past the entry (thread.c:
 * from - top->func > FUNC_SPAN_MAX).
 * span_under: site - entry = 0xfffff: a loop, no event.
 */
static const struct step span_under_steps[] = {
	TK(SPAN_HI + 0x1f, S0),			/* jmp 70001f */
	TK(SPAN_LO + 0x25, S0),			/* jmp *%rax */
	TK(R0, S0 + 8),
};
static const struct want span_under_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, SPAN_LO + 0x20, S0, 1),
	E(RET, 0, SPAN_LO + 0x25, R0, S0 + 8, 0),
};

/* span_at: site - entry = 0x100000, exactly 1 MiB: still a loop */
static const struct step span_at_steps[] = {
	TK(SPAN_HI, S0),			/* jmp 700000 */
	TK(SPAN_LO + 0x05, S0),			/* jmp *%rax */
	TK(R0, S0 + 8),
};
static const struct want span_at_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, SPAN_LO, S0, 1),
	E(RET, 0, SPAN_LO + 0x05, R0, S0 + 8, 0),
};

/*
 * span_past: site - entry = 0x100001: the site is in another function,
 * so the jump back is a TAILCALL (INDIRECT), and fN's ret then returns
 * from the new top frame.
 */
static const struct step span_past_steps[] = {
	TK(SPAN_HI + 0x11, S0),			/* jmp 700011 */
	TK(SPAN_LO + 0x15, S0),			/* jmp *%rax */
	TK(R0, S0 + 8),
};
static const struct want span_past_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, SPAN_LO + 0x10, S0, 1),
	E(TAIL, IND, SPAN_HI + 0x11, SPAN_LO + 0x15, S0, 1),
	E(RET, 0, SPAN_LO + 0x15, R0, S0 + 8, 0),
};

/*
 * The same with symbols saying f2 spans [600010, 700013): the bounds
 * decide before the 1 MiB rule is asked, and the target is inside (not
 * the entry): a loop, no event.
 */
#define span_past_sym_steps span_past_steps
static const struct want span_past_sym_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, SPAN_LO + 0x10, S0, 1),
	E(RET, 0, SPAN_LO + 0x15, R0, S0 + 8, 0),
};

/*
 * When the jump site has bounds, only they count: f10 with its
 * frame torn down jumps (jmp *%rax) into the middle of f3, at its ret
 * 40103c.  40103c lies outside f10 [4010d0, 4010de): a TAILCALL
 * (INDIRECT), though the target is no function's entry; f3's ret then
 * returns for f10's frame.
 */
static const struct step tail_mid_steps[] = {
	ST(0x4010d1, S0 - 8),
	ST(0x4010d4, S0 - 8),
	ST(0x4010db, S0 - 8),
	ST(0x4010dc, S0),
	TK(0x40103c, S0),
	TK(R0, S0 + 8),
};
static const struct want tail_mid_want[] = {
	E(CALL, DCG_EVF_ROOT, R0, 0x4010d0, S0, 1),
	E(TAIL, IND, 0x4010dc, 0x40103c, S0, 1),
	E(RET, 0, 0x40103c, R0, S0 + 8, 0),
};

/*
 * The same lazy binding with the three mapped close together (NEAR_*),
 * as small libraries loaded before libc are: the resolver's jump site
 * is 0x20007 bytes past foo@plt's entry, under FUNC_SPAN_MAX, and foo
 * lies between the two, so the 1 MiB rule does not apply and the loop
 * rule alone would take the jmp *%r11 for a loop inside foo@plt (no
 * TAILCALL, foo's work charged to foo@plt: what the engine did before,
 * seen with dcg-trace on real libraries).  foo has bounds, and the
 * jump site is not in them: another function, so a TAILCALL.
 */
static const struct step plt_lazy_near_steps[] = {
	PLT_LAZY_STEPS(NEAR_MAIN, NEAR_LDSO, NEAR_FOO),
};
static const struct want plt_lazy_near_want[] = {
	PLT_LAZY_WANT(NEAR_MAIN, NEAR_LDSO, NEAR_FOO),
};

static const struct scenario scenarios[] = {
	SCEN(callret, 0x401000),
	SCEN(getpc, 0x401020),
	SCEN(pushret, 0x401030),
	SCEN(pushret_tail, 0x401040),
	SCEN(retimm, 0x401060),
	SCEN(bndret, 0x401080),
	SCEN(notrack, 0x401090),
	SCEN(jmpind, 0x4010a0, .bounds = 1),
	SCEN(jmpind_nosym, 0x4010a0),
	SCEN(tail, 0x4010c0),
	SCEN(tail_ind, 0x4010d0),
	SCEN(jmp_out, 0x4010e0, .bounds = 1),
	SCEN(tail_jcc, 0x4010e8, .bounds = 1),
	SCEN(longjmp, 0x401100),
	SCEN(signal, 0x401140),
	SCEN(sigreturn, 0x401140, .end = 1),
	SCEN(recursion, 0x401180),
	SCEN(overflow, 0x401180, .cap = 3),
	SCEN(skip, 0x401180, .max_depth = 2),
	SCEN(skip_host, 0x401180, .max_depth = 2),
	SCEN(here, 0x401010, .here = 1),
	SCEN(retpoline, 0x401198, .bounds = 1),
	SCEN(retpoline_nosym, 0x401198),
	SCEN(ret_past, 0x4011d0),
	SCEN(sys_signal, 0x401158, .end = 1),
	SCEN(loop_ind, 0x4011e8),
	SCEN(slot_changed, 0x4010d0),
	SCEN(signal_at_ret, 0x401010),
	SCEN(plt_lazy, MAIN, .bounds = 1),
	SCEN(plt_lazy_nosym, MAIN),
	SCEN(plt_lazy_ldsyms, MAIN, .ops = &ops_ldso),
	SCEN(plt_bound, MAIN, .bounds = 1),
	SCEN(plt_bound_nosym, MAIN),
	SCEN(span_under, SPAN_LO + 0x20),
	SCEN(span_at, SPAN_LO),
	SCEN(span_past, SPAN_LO + 0x10),
	SCEN(span_past_sym, SPAN_LO + 0x10, .ops = &ops_big),
	SCEN(tail_mid, 0x4010d0, .bounds = 1),
	SCEN(plt_lazy_near, NEAR_MAIN, .bounds = 1),
};

static const struct scenario *scenario(const char *name)
{
	unsigned int i;

	for (i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++)
		if (!strcmp(scenarios[i].name, name))
			return &scenarios[i];
	printf("FAIL: test bug: no scenario %s\n", name);
	return &scenarios[0];
}

static void check(int ok, const char *what)
{
	result(ok, "%s%s", what, "");
}

/* Stats and side results that the event lists do not show. */
static void test_counters(void)
{
	const struct scenario *sc;
	struct dcg_thread *t;
	unsigned int m;

	for (m = DCG_MODE_STEP; m <= DCG_MODE_BLOCK; m++) {
		sc = scenario("overflow");
		t = run(sc, m);
		result(t->shadow.overflow == 3 && t->shadow.depth == 0,
		       "%s: %s mode: 3 pushes overflowed, depth back to 0",
		       sc->name, mode_name(m));
		sc = scenario("signal");
		t = run(sc, m);
		result(t->stats.resyncs == 0 && t->stats.decode_errors == 0,
		       "%s: %s mode: no resync, no decode error",
		       sc->name, mode_name(m));
		sc = scenario("longjmp");
		t = run(sc, m);
		result(t->stats.resyncs == 3, "%s: %s mode: 3 resyncs counted",
		       sc->name, mode_name(m));
		sc = scenario("here");
		t = run(sc, m);
		result(t->stats.unmatched == 2, "%s: %s mode: 2 unmatched",
		       sc->name, mode_name(m));
	}
}

/* The host learns from dcg_thread_skipping() where to break. */
static void test_skipping(void)
{
	const struct scenario *sc = scenario("skip_host");
	struct scenario cut = *sc;
	const struct dcg_frame *f;
	struct dcg_thread *t;

	cut.nsteps = 8;		/* up to the skipped call */
	t = run(&cut, DCG_MODE_STEP);
	f = dcg_thread_skipping(t);
	check(f && f->ret_addr == 0x40118b && f->sp == S0 - 16 &&
	      t->shadow.depth == 3,
	      "skip: dcg_thread_skipping() gives the return address and slot");
	cut.nsteps = 7;
	t = run(&cut, DCG_MODE_STEP);
	check(dcg_thread_skipping(t) == NULL,
	      "skip: dcg_thread_skipping() is NULL above max_depth");
}

/*
 * Lazy binding: right after the resolver's jmp *%r11 the top frame is
 * foo's (func replaced, return slot and address still foo@plt's), at
 * the depth the call made; at the end nothing was resynced, unmatched
 * or unreadable (every byte the engine needs is mapped).
 */
static void test_plt(void)
{
	static const char *const names[] = {
		"plt_lazy", "plt_lazy_nosym", "plt_lazy_ldsyms",
	};
	const struct dcg_frame *f;
	struct dcg_thread *t;
	struct scenario cut;
	unsigned int i, m;

	for (i = 0; i < N(names); i++) {
		const struct scenario *sc = scenario(names[i]);

		cut = *sc;
		for (cut.nsteps = 0; cut.nsteps < sc->nsteps; cut.nsteps++)
			if (sc->steps[cut.nsteps].ip == FOO)
				break;
		cut.nsteps++;
		for (m = DCG_MODE_STEP; m <= DCG_MODE_EMU_BLOCK; m++) {
			t = run(&cut, m);
			f = dcg_shadow_top(&t->shadow);
			result(f && t->shadow.depth == 2 && f->func == FOO &&
			       f->ret_addr == MAIN + 5 && f->sp == S0 - 8,
			       "%s: %s mode: at foo, the top frame is foo's",
			       sc->name, mode_name(m));
			t = run(sc, m);
			result(t->shadow.depth == 0 && t->stats.resyncs == 0 &&
			       t->stats.unmatched == 0 &&
			       t->stats.decode_errors == 0 &&
			       t->stats.read_errors == 0,
			       "%s: %s mode: no resync, unmatched ret or error",
			       sc->name, mode_name(m));
		}
	}
}

/* Stops whose code cannot be read or decoded: counted, no event. */
static void test_bad_code(void)
{
	static const struct {
		dcg_u64 ip, next;
		int read_error;
		const char *what;
	} cases[] = {
		{ 0x300000, 0x300002, 1, "unmapped code" },
		{ 0x4011fe, 0x401203, 1, "insn cut by the end of the mapping" },
		{ 0x4011c0, 0x4011c1, 0, "invalid opcode" },
	};
	char name[128];
	unsigned int i, m;

	for (m = DCG_MODE_STEP; m <= DCG_MODE_BLOCK; m++) {
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			struct dcg_thread *t = &thread;
			int n;

			nevents = 0;
			dcg_thread_init(t, m, frames, MAX_FRAMES);
			dcg_thread_begin_here(t, cases[i].ip, S0, 1);
			n = dcg_thread_stop(t, cases[i].next, S0, 2,
					    &ops_plain);
			snprintf(name, sizeof(name), "%s: %%s mode, %s",
				 cases[i].what, "counted, no event");
			result(n == 0 && nevents == 0 &&
			       t->stats.decode_errors == 1 &&
			       (t->stats.read_errors != 0) ==
			       cases[i].read_error,
			       name, mode_name(m), "");
		}
	}
}

static int classify(unsigned int mode, dcg_u64 prev, dcg_u64 ip,
		    struct dcg_transfer *x)
{
	return dcg_classify(mode, prev, ip, &ops_plain, x);
}

/* dcg_classify() on its own. */
static void test_classify(void)
{
	struct dcg_transfer x;
	int r;

	r = classify(DCG_MODE_STEP, 0x401001, 0x401010, &x);
	check(r == 0 && x.kind == DCG_EV_CALL && x.branch == DCG_BR_CALL &&
	      x.from == 0x401001 && x.to == 0x401010 && x.insn.len == 5,
	      "classify: step: call rel32");
	r = classify(DCG_MODE_STEP, 0x401020, 0x401025, &x);
	check(r == 0 && x.kind == 0 && x.branch == DCG_BR_CALL,
	      "classify: step: call to the next insn is no call");
	r = classify(DCG_MODE_STEP, 0x401010, 0x401050, &x);
	check(r == 0 && x.kind == DCG_EV_ASYNC && x.from == 0x401010,
	      "classify: step: nop landing elsewhere is async");
	r = classify(DCG_MODE_STEP, 0x401190, 0x401190, &x);
	check(r == 0 && x.kind == 0, "classify: step: rep movsb iteration");
	r = classify(DCG_MODE_STEP, 0x401070, 0x401069, &x);
	check(r == 0 && x.kind == DCG_EV_RET && x.insn.ret_imm == 16,
	      "classify: step: ret imm16");
	r = classify(DCG_MODE_STEP, 0x401182, 0x401184, &x);
	check(r == 0 && x.kind == 0 && x.branch == DCG_BR_JCC,
	      "classify: step: jcc not taken");
	r = classify(DCG_MODE_STEP, 0x401182, 0x401186, &x);
	check(r == 0 && x.kind == DCG_EV_ASYNC,
	      "classify: step: jcc to neither target nor next is async");
	r = classify(DCG_MODE_BLOCK, 0x401180, 0x40118b, &x);
	check(r == 0 && x.kind == 0 && x.branch == DCG_BR_JCC &&
	      x.from == 0x401182, "classify: block: taken jcc ends the walk");
	r = classify(DCG_MODE_BLOCK, 0x401180, 0x401180, &x);
	check(r == 0 && x.kind == DCG_EV_CALL && x.from == 0x401186,
	      "classify: block: walk passes a not-taken jcc to the call");
	r = classify(DCG_MODE_BLOCK, 0x401180, 0x401184, &x);
	check(r == 0 && x.kind == 0 && x.insn.len == 0 && x.from == 0x401180,
	      "classify: block: stop on the straight line (interrupt)");
	r = classify(DCG_MODE_BLOCK, 0x4010c6, 0x401234, &x);
	check(r == 0 && x.kind == DCG_EV_ASYNC && x.from == 0x4010c6,
	      "classify: block: direct jmp elsewhere makes the stop async");
	r = classify(DCG_MODE_BLOCK, 0x401150, 0x401141, &x);
	check(r == 0 && x.kind == 0 && x.branch == DCG_BR_SYS &&
	      x.from == 0x401155, "classify: block: syscall ends the walk");
	r = classify(DCG_MODE_EMU_BLOCK, 0x401180, 0x401180, &x);
	check(r == 0 && x.kind == DCG_EV_CALL && x.from == 0x401186,
	      "classify: emulated block mode walks as block mode");
	r = classify(DCG_MODE_BLOCK, 0x401190, 0x401190, &x);
	check(r == 0 && x.kind == 0, "classify: block: rep movsb interrupted");
	/* instruction counts: what ran from the previous stop to this one */
	r = classify(DCG_MODE_STEP, 0x401001, 0x401010, &x);
	check(r == 0 && x.ninsns == 1, "classify: insns: step: the call is one");
	r = classify(DCG_MODE_STEP, 0x401010, 0x401050, &x);
	check(r == 0 && x.ninsns == 0,
	      "classify: insns: step: an async landing ran nothing");
	r = classify(DCG_MODE_BLOCK, 0x401180, 0x40118b, &x);
	check(r == 0 && x.ninsns == 2,
	      "classify: insns: block: the walk and the taken jcc");
	r = classify(DCG_MODE_BLOCK, 0x401150, 0x401141, &x);
	check(r == 0 && x.ninsns == 2, "classify: insns: block: mov, syscall");
	r = classify(DCG_MODE_BLOCK, 0x401180, 0x401184, &x);
	check(r == 0 && x.insn.len == 0 && x.ninsns == 2,
	      "classify: insns: block: interrupt after two insns");
	r = classify(DCG_MODE_BLOCK, 0x401160, 0x401160, &x);
	check(r == 0 && x.kind == 0 && x.branch == DCG_BR_JCC &&
	      x.from == 0x401162 && x.ninsns == 2,
	      "classify: block: a loop of one block went round");
	r = classify(DCG_MODE_BLOCK, 0x401168, 0x40116a, &x);
	check(r == 0 && x.kind == 0 && x.branch == DCG_BR_JCC &&
	      x.from == 0x40116e && x.ninsns == 4,
	      "classify: block: the straight line passes the loop head and jumps back");
	r = classify(DCG_MODE_BLOCK, 0x4010c6, 0x401234, &x);
	check(r == 0 && x.kind == DCG_EV_ASYNC && x.ninsns == 0,
	      "classify: insns: block: an async landing counts none (as in step mode)");
	r = classify(DCG_MODE_BLOCK, 0x401168, 0x40116c, &x);
	check(r == 0 && x.insn.len == 0 && x.from == 0x401168 && x.ninsns == 2,
	      "classify: block: passed, and no jump back to it: an interrupt");
	r = classify(DCG_MODE_BLOCK, NOPS_BASE, NOPS_BASE + NOPS_SIZE - 1, &x);
	check(r == DCG_CLASSIFY_ELIMIT && x.kind == 0,
	      "classify: block: walk is bounded");
	r = classify(DCG_MODE_STEP, 0x300000, 0x300001, &x);
	check(r == DCG_CLASSIFY_EREAD && x.kind == 0,
	      "classify: unmapped code is a read error");
	r = classify(DCG_MODE_STEP, 0x4011fe, 0x401203, &x);
	check(r == DCG_CLASSIFY_EREAD && x.kind == 0,
	      "classify: insn cut short by unmapped bytes is a read error");
	r = classify(DCG_MODE_BLOCK, 0x4011c0, 0x4011c1, &x);
	check(r == DCG_CLASSIFY_EDECODE && x.kind == 0,
	      "classify: invalid opcode is a decode error");
}

/* The bounded array on its own. */
static void test_shadow(void)
{
	struct dcg_frame arr[2], f = { .func = 1, .ret_addr = 2, .sp = 3 };
	struct dcg_shadow sh;
	int ok;

	dcg_shadow_init(&sh, arr, 2);
	dcg_shadow_pop(&sh);
	ok = sh.depth == 0 && dcg_shadow_top(&sh) == NULL;
	ok &= dcg_shadow_push(&sh, &f) == &arr[0];
	ok &= dcg_shadow_push(&sh, &f) == &arr[1];
	ok &= dcg_shadow_push(&sh, &f) == NULL;
	ok &= sh.depth == 3 && sh.overflow == 1 && dcg_shadow_top(&sh) == NULL;
	ok &= dcg_shadow_stored(&sh) == 2 && dcg_shadow_top_overflowed(&sh);
	dcg_shadow_pop(&sh);
	ok &= dcg_shadow_top(&sh) == &arr[1] && arr[1].ret_addr == 2;
	dcg_shadow_pop(&sh);
	dcg_shadow_pop(&sh);
	dcg_shadow_pop(&sh);
	ok &= sh.depth == 0;
	check(ok, "shadow: push past the array counts depth, pop balances");
	dcg_shadow_init(&sh, NULL, 5);
	ok = dcg_shadow_push(&sh, &f) == NULL && sh.cap == 0 && sh.depth == 1;
	check(ok, "shadow: no array means every frame overflows");
}

/*
 * callret by hand: push (1), call (2: CALL), nop (3), ret (4: RET),
 * pop (5), ret (6: RET); the root CALL opens the window at 0.
 */
static void test_insns(void)
{
	static const dcg_u64 want[] = { 0, 2, 4, 6 };
	unsigned int m, i;
	int ok;

	for (m = DCG_MODE_STEP; m <= DCG_MODE_EMU_BLOCK; m++) {
		run(&scenarios[0], m);
		ok = nevents == N(want);
		for (i = 0; ok && i < N(want); i++)
			ok = events[i].insns == want[i];
		result(ok, "insns: callret: 0, 2, 4, 6 in %s mode%s",
		       mode_name(m), "");
	}
}

static int profile_scenarios(unsigned int mode, dcg_u32 cap, int *flushes)
{
	dcg_u64 total, want;
	unsigned int i;
	int ok = 1;

	*flushes = 0;
	prof_cap = cap;
	prof_refuse = 0;
	for (i = 0; i < N(scenarios); i++) {
		struct dcg_thread *t = run(&scenarios[i], mode);

		want = t->insns;
		total = prof_flushed + prof_sum(&prof);
		*flushes += prof.flushes > 0;
		if (total != want || (scenarios[i].end && prof.used)) {
			printf("INFO: %s/%s/%u slots: profile %llu insns, events %llu\n",
			       scenarios[i].name, mode_name(mode), cap,
			       (unsigned long long)total,
			       (unsigned long long)want);
			ok = 0;
		}
	}
	prof_cap = 0;
	return ok;
}

static void test_profile(void)
{
	static const unsigned int modes[] = {
		DCG_MODE_STEP, DCG_MODE_BLOCK, DCG_MODE_EMU_BLOCK,
	};
	struct dcg_profile p;
	int ok, fl, any_fl = 0, any_dr = 0;
	unsigned int m;

	for (m = 0; m < N(modes); m++) {
		ok = profile_scenarios(modes[m], 64, &fl);
		result(ok, "profile: %s mode: the runs add up to the insns (%s)",
		       mode_name(modes[m]), "64 slots");
		ok = profile_scenarios(modes[m], 4, &fl);
		any_fl += fl;
		result(ok, "profile: %s mode: the runs add up to the insns (%s)",
		       mode_name(modes[m]), "4 slots, flushed when full");
	}
	/*
	 * A host that takes no table: the scenarios that end no window
	 * (an end clears the table; the host counts what it lost).
	 */
	prof_cap = 4;
	prof_refuse = 1;
	ok = 1;
	for (m = 0; m < N(scenarios); m++) {
		struct dcg_thread *t;

		if (scenarios[m].end)
			continue;
		t = run(&scenarios[m], DCG_MODE_STEP);
		any_dr += prof.dropped > 0;
		if (prof_sum(&prof) == t->insns)
			continue;
		printf("INFO: %s: refused: %llu counted + dropped, %llu insns\n",
		       scenarios[m].name, (unsigned long long)prof_sum(&prof),
		       (unsigned long long)t->insns);
		ok = 0;
	}
	prof_cap = 0;
	result(ok, "profile: %s: a full table the host cannot take drops, counted%s",
	       "step mode", "");
	result(any_fl > 0, "profile: some scenario filled 4 slots (%s)%s",
	       "flushed early", "");
	result(any_dr > 0, "profile: some scenario filled 4 slots (%s)%s",
	       "dropped", "");
	result(dcg_profile_init(&p, prof_slots, 2) < 0 &&
	       dcg_profile_init(&p, prof_slots, 12) < 0 &&
	       dcg_profile_init(&p, prof_slots, 8) == 0,
	       "profile: a table is a power of two >= 4 slots%s%s", "", "");
}

int main(int argc, char **argv)
{
	unsigned int i;

	memset(nops, 0x90, sizeof(nops));
	if (argc != 1) {
		fprintf(stderr, "test-classify: unknown argument '%s' (it takes none)\n",
			argv[1]);
		return 2;
	}
	for (i = 0; i < N(scenarios); i++) {
		run_scenario(&scenarios[i], DCG_MODE_STEP);
		save_insns();
		run_scenario(&scenarios[i], DCG_MODE_BLOCK);
		same_insns(&scenarios[i], DCG_MODE_BLOCK);
		run_scenario(&scenarios[i], DCG_MODE_EMU_BLOCK);
		same_insns(&scenarios[i], DCG_MODE_EMU_BLOCK);
	}
	test_shadow();
	test_counters();
	test_skipping();
	test_plt();
	test_bad_code();
	test_classify();
	test_insns();
	test_profile();
	printf("INFO: %d failures\n", failures);
	return 0;
}
