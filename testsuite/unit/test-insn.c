// SPDX-License-Identifier: GPL-2.0
/*
 * test-insn - hand-checked x86-64 encodings against dcg_insn_decode().
 *
 * Every expected length, class and target below was worked out by hand
 * from the Intel SDM vol. 2 (and the AMD APM vol. 3 for XOP/3DNow!):
 * prefix bytes + opcode bytes + ModRM + SIB + displacement + immediate,
 * target = address of the next instruction + sign-extended rel.
 * Prints one "PASS: ..." or "FAIL: ..." line per check.
 */
#include <stdio.h>
#include <string.h>

#include "dcg_insn.h"

#define ANY	-1	/* field not checked */

struct tcase {
	const char *name;
	const char *hex;	/* the bytes, as "e8 00 00 00 00" */
	int avail;		/* bytes given to the decoder; 0 = all */
	unsigned long long ip;
	int ret;		/* expected length or error */
	int branch;
	int flags;		/* expected TARGET/BND/NOTRACK/REP bits */
	unsigned long long target;
	int ret_imm;
	int modrm_reg;
	int rsp_write;		/* 1, 0, or ANY */
	int skip;		/* EINVAL: expected resync length; 0 = any */
};

#define F_T	DCG_INSN_HAS_TARGET
#define F_BND	DCG_INSN_BND
#define F_NT	DCG_INSN_NOTRACK
#define F_REP	DCG_INSN_REP
#define CHECKED_FLAGS	(F_T | F_BND | F_NT | F_REP)

/* name, bytes, avail, ip, ret, branch, flags, target, ret_imm, reg, rsp */
static const struct tcase cases[] = {
	/* calls */
	{ "call rel32", "e8 00 00 00 00", 0, 0x1000, 5, DCG_BR_CALL, F_T,
	  0x1005, 0, 0xff, 0 },
	{ "call rel32 backwards", "e8 fb ff ff ff", 0, 0x1000, 5,
	  DCG_BR_CALL, F_T, 0x1000, 0, 0xff, 0 },
	{ "call rel32 wraps high", "e8 00 00 00 80", 0, 0xffffffff81000000ULL,
	  5, DCG_BR_CALL, F_T, 0xffffffff01000005ULL, 0, 0xff, 0 },
	{ "66 call: Intel ignores 66, rel32", "66 e8 10 00 00 00", 0, 0x100,
	  6, DCG_BR_CALL, F_T, 0x116, 0, 0xff, 0 },
	{ "bnd call", "f2 e8 00 00 00 00", 0, 0, 6, DCG_BR_CALL, F_T | F_BND,
	  6, 0, 0xff, 0 },
	{ "call *%rax", "ff d0", 0, 0, 2, DCG_BR_CALL_IND, 0, 0, 0, 2, 0 },
	{ "call *0x10(%rip)", "ff 15 10 00 00 00", 0, 0, 6, DCG_BR_CALL_IND,
	  0, 0, 0, 2, 0 },
	{ "call *0x8(%r12) (REX.B, SIB, disp8)", "41 ff 54 24 08", 0, 0, 5,
	  DCG_BR_CALL_IND, 0, 0, 0, 2, 0 },
	{ "call *0x0(,%rax,8) (SIB, no base: disp32)",
	  "ff 14 c5 00 00 00 00", 0, 0, 7, DCG_BR_CALL_IND, 0, 0, 0, 2, 0 },
	{ "notrack call *%rax", "3e ff d0", 0, 0, 3, DCG_BR_CALL_IND, F_NT, 0,
	  0, 2, 0 },
	{ "notrack call *%r11 (3E then REX)", "3e 41 ff d3", 0, 0, 4,
	  DCG_BR_CALL_IND, F_NT, 0, 0, 2, 0 },
	{ "lcall *(%rsp) (FF /3, SIB)", "ff 1c 24", 0, 0, 3, DCG_BR_CALL_FAR,
	  0, 0, 0, 3, 0 },
	{ "lcall reg form is invalid", "ff d8", 0, 0, DCG_INSN_EINVAL, ANY, 0,
	  0, 0, ANY, ANY },
	{ "9A (far call ptr) invalid in 64-bit", "9a 00 00 00 00 00 00", 0, 0,
	  DCG_INSN_EINVAL, ANY, 0, 0, 0, ANY, ANY },

	/* returns */
	{ "ret", "c3", 0, 0, 1, DCG_BR_RET, 0, 0, 0, 0xff, 0 },
	{ "ret $8", "c2 08 00", 0, 0, 3, DCG_BR_RET_IMM, 0, 0, 8, 0xff, 0 },
	{ "ret $0x1234", "c2 34 12", 0, 0, 3, DCG_BR_RET_IMM, 0, 0, 0x1234,
	  0xff, 0 },
	{ "bnd ret", "f2 c3", 0, 0, 2, DCG_BR_RET, F_BND, 0, 0, 0xff, 0 },
	{ "repz ret is not bnd", "f3 c3", 0, 0, 2, DCG_BR_RET, 0, 0, 0, 0xff,
	  0 },
	{ "lret", "cb", 0, 0, 1, DCG_BR_RET_FAR, 0, 0, 0, 0xff, 0 },
	{ "lret $0x10", "ca 10 00", 0, 0, 3, DCG_BR_RET_FAR, 0, 0, 0x10, 0xff,
	  0 },
	{ "iretq", "48 cf", 0, 0, 2, DCG_BR_IRET, 0, 0, 0, 0xff, 0 },

	/* jumps */
	{ "jmp rel8 to self", "eb fe", 0, 0x2000, 2, DCG_BR_JMP, F_T, 0x2000,
	  0, 0xff, 0 },
	{ "jmp rel32", "e9 00 01 00 00", 0, 0, 5, DCG_BR_JMP, F_T, 0x105, 0,
	  0xff, 0 },
	{ "bnd jmp rel32", "f2 e9 00 00 00 00", 0, 0, 6, DCG_BR_JMP,
	  F_T | F_BND, 6, 0, 0xff, 0 },
	{ "jmp *%rax", "ff e0", 0, 0, 2, DCG_BR_JMP_IND, 0, 0, 0, 4, 0 },
	{ "notrack jmp *%rax", "3e ff e0", 0, 0, 3, DCG_BR_JMP_IND, F_NT, 0,
	  0, 4, 0 },
	{ "bnd jmp *%rbx", "f2 ff e3", 0, 0, 3, DCG_BR_JMP_IND, F_BND, 0, 0, 4,
	  0 },
	{ "notrack bnd jmp *0x8(%rax,%rdx,8)", "3e f2 ff 64 d0 08", 0, 0, 6,
	  DCG_BR_JMP_IND, F_NT | F_BND, 0, 0, 4, 0 },
	{ "ds (3E) overridden by cs: no notrack", "3e 2e ff e0", 0, 0, 4,
	  DCG_BR_JMP_IND, 0, 0, 0, 4, 0 },
	{ "ljmp *(%rax) REX.W", "48 ff 28", 0, 0, 3, DCG_BR_JMP_FAR, 0, 0, 0,
	  5, 0 },
	{ "EA (far jmp ptr) invalid", "ea 00 00 00 00 00 00", 0, 0,
	  DCG_INSN_EINVAL, ANY, 0, 0, 0, ANY, ANY },
	{ "je rel8", "74 10", 0, 0x100, 2, DCG_BR_JCC, F_T, 0x112, 0, 0xff, 0 },
	{ "jg rel8 backwards", "7f 80", 0, 0x100, 2, DCG_BR_JCC, F_T, 0x82, 0,
	  0xff, 0 },
	{ "jne rel32", "0f 85 f0 ff ff ff", 0, 0x100, 6, DCG_BR_JCC, F_T, 0xf6,
	  0, 0xff, 0 },
	{ "bnd jae rel32", "f2 0f 83 00 00 00 00", 0, 0x10, 7, DCG_BR_JCC,
	  F_T | F_BND, 0x17, 0, 0xff, 0 },
	{ "loop", "e2 fe", 0, 0x40, 2, DCG_BR_LOOP, F_T, 0x40, 0, 0xff, 0 },
	{ "loopne", "e0 10", 0, 0x40, 2, DCG_BR_LOOP, F_T, 0x52, 0, 0xff, 0 },
	{ "jrcxz", "e3 05", 0, 0x40, 2, DCG_BR_LOOP, F_T, 0x47, 0, 0xff, 0 },
	{ "jecxz (67)", "67 e3 00", 0, 0x40, 3, DCG_BR_LOOP, F_T, 0x43, 0, 0xff,
	  0 },
	{ "xbegin rel32 is not a branch class", "c7 f8 00 00 00 00", 0, 0, 6,
	  DCG_BR_OTHER, 0, 0, 0, 7, 0 },

	/* system */
	{ "syscall", "0f 05", 0, 0, 2, DCG_BR_SYS, 0, 0, 0, 0xff, 0 },
	{ "sysret", "48 0f 07", 0, 0, 3, DCG_BR_SYS, 0, 0, 0, 0xff, 0 },
	{ "sysenter", "0f 34", 0, 0, 2, DCG_BR_SYS, 0, 0, 0, 0xff, 0 },
	{ "sysexit", "0f 35", 0, 0, 2, DCG_BR_SYS, 0, 0, 0, 0xff, 0 },
	{ "int3", "cc", 0, 0, 1, DCG_BR_SYS, 0, 0, 0, 0xff, 0 },
	{ "int $0x80", "cd 80", 0, 0, 2, DCG_BR_SYS, 0, 0, 0, 0xff, 0 },
	{ "int1", "f1", 0, 0, 1, DCG_BR_SYS, 0, 0, 0, 0xff, 0 },
	{ "into invalid in 64-bit", "ce", 0, 0, DCG_INSN_EINVAL, ANY, 0, 0, 0,
	  ANY, ANY },

	/* other invalid one-byte opcodes */
	{ "push %es invalid", "06", 0, 0, DCG_INSN_EINVAL, ANY, 0, 0, 0, ANY,
	  ANY },
	{ "pusha invalid", "60", 0, 0, DCG_INSN_EINVAL, ANY, 0, 0, 0, ANY,
	  ANY },
	{ "aam invalid", "d4 0a", 0, 0, DCG_INSN_EINVAL, ANY, 0, 0, 0, ANY,
	  ANY },
	{ "82 invalid", "82 c0 01", 0, 0, DCG_INSN_EINVAL, ANY, 0, 0, 0, ANY,
	  ANY },
	{ "salc (D6) invalid", "d6", 0, 0, DCG_INSN_EINVAL, ANY, 0, 0, 0, ANY,
	  ANY },
	{ "lea with register operand invalid", "8d c0", 0, 0, DCG_INSN_EINVAL,
	  ANY, 0, 0, 0, ANY, ANY },

	/* lengths of ordinary instructions */
	{ "nopw %cs:0x0(%rax,%rax,1)", "66 2e 0f 1f 84 00 00 00 00 00", 0, 0,
	  10, DCG_BR_OTHER, 0, 0, 0, 0, 0 },
	{ "movabs $imm64,%rax", "48 b8 01 02 03 04 05 06 07 08", 0, 0, 10,
	  DCG_BR_OTHER, 0, 0, 0, 0xff, 0 },
	{ "mov $imm16,%ax", "66 b8 34 12", 0, 0, 4, DCG_BR_OTHER, 0, 0, 0,
	  0xff, 0 },
	{ "mov $imm32,%eax", "b8 01 00 00 00", 0, 0, 5, DCG_BR_OTHER, 0, 0, 0,
	  0xff, 0 },
	{ "movabs moffs64,%eax", "a1 00 00 00 00 00 00 00 00", 0, 0, 9,
	  DCG_BR_OTHER, 0, 0, 0, 0xff, 0 },
	{ "mov moffs32,%eax (67)", "67 a1 00 00 00 00", 0, 0, 6, DCG_BR_OTHER,
	  0, 0, 0, 0xff, 0 },
	{ "add $imm32,%rax (REX.W keeps imm32)", "48 05 00 00 00 00", 0, 0, 6,
	  DCG_BR_OTHER, 0, 0, 0, 0xff, 0 },
	{ "add $imm16,%ax", "66 05 00 00", 0, 0, 4, DCG_BR_OTHER, 0, 0, 0, 0xff,
	  0 },
	{ "test $1,%al (F6 /0 has imm8)", "f6 c0 01", 0, 0, 3, DCG_BR_OTHER, 0,
	  0, 0, 0, 0 },
	{ "not %al (F6 /2 has none)", "f6 d0", 0, 0, 2, DCG_BR_OTHER, 0, 0, 0,
	  2, 0 },
	{ "test $imm32,%eax (F7 /0)", "f7 c0 00 00 00 00", 0, 0, 6,
	  DCG_BR_OTHER, 0, 0, 0, 0, 0 },
	{ "test $imm16,%ax (66 F7 /0)", "66 f7 c0 34 12", 0, 0, 5,
	  DCG_BR_OTHER, 0, 0, 0, 0, 0 },
	{ "mov $imm32,0x10(%rbp) (C7, disp8, imm32)", "c7 45 10 01 00 00 00",
	  0, 0, 7, DCG_BR_OTHER, 0, 0, 0, 0, 0 },
	{ "mov %cr0,%rax", "0f 20 c0", 0, 0, 3, DCG_BR_OTHER, 0, 0, 0, 0, 0 },
	{ "mov cr ignores mod: no displacement", "0f 20 80", 0, 0, 3,
	  DCG_BR_OTHER, 0, 0, 0, 0, 0 },
	{ "pshufb (0F 38)", "66 0f 38 00 c1", 0, 0, 5, DCG_BR_OTHER, 0, 0, 0,
	  0, 0 },
	{ "palignr $8 (0F 3A, imm8)", "66 0f 3a 0f c1 08", 0, 0, 6,
	  DCG_BR_OTHER, 0, 0, 0, 0, 0 },
	{ "pfmul (3DNow! 0F 0F /r suffix)", "0f 0f c1 b4", 0, 0, 4,
	  DCG_BR_OTHER, 0, 0, 0, 0, 0 },
	{ "3DNow! with unknown suffix invalid", "0f 0f c1 00", 0, 0,
	  DCG_INSN_EINVAL, ANY, 0, 0, 0, ANY, ANY },
	{ "extrq $2,$1 (66 0F 78 /0 ib ib)", "66 0f 78 c0 01 02", 0, 0, 6,
	  DCG_BR_OTHER, 0, 0, 0, 0, 0 },
	{ "vmread (0F 78 without prefix)", "0f 78 c0", 0, 0, 3, DCG_BR_OTHER, 0,
	  0, 0, 0, 0 },
	{ "enter $0x10,$0", "c8 10 00 00", 0, 0, 4, DCG_BR_OTHER, 0, 0, 0, 0xff,
	  1 },
	{ "lock cmpxchg %edx,(%rip)", "f0 0f b1 15 00 00 00 00", 0, 0, 8,
	  DCG_BR_OTHER, 0, 0, 0, 2, 0 },
	{ "fld1 (x87)", "d9 e8", 0, 0, 2, DCG_BR_OTHER, 0, 0, 0, 5, 0 },

	/* string instructions */
	{ "rep movsb", "f3 a4", 0, 0, 2, DCG_BR_OTHER, F_REP, 0, 0, 0xff, 0 },
	{ "rep stos %rax", "f3 48 ab", 0, 0, 3, DCG_BR_OTHER, F_REP, 0, 0,
	  0xff, 0 },
	{ "repnz scasb", "f2 ae", 0, 0, 2, DCG_BR_OTHER, F_REP, 0, 0, 0xff, 0 },
	{ "movsb without rep", "a4", 0, 0, 1, DCG_BR_OTHER, 0, 0, 0, 0xff, 0 },
	{ "rep insb", "f3 6c", 0, 0, 2, DCG_BR_OTHER, F_REP, 0, 0, 0xff, 0 },
	{ "pause (F3 90) is not rep", "f3 90", 0, 0, 2, DCG_BR_OTHER, 0, 0, 0,
	  0xff, 0 },

	/* rsp writes */
	{ "sub $8,%rsp", "48 83 ec 08", 0, 0, 4, DCG_BR_OTHER, 0, 0, 0, 5, 1 },
	{ "mov %rsp,%rbp writes rbp", "48 89 e5", 0, 0, 3, DCG_BR_OTHER, 0, 0,
	  0, 4, 0 },
	{ "mov %rbp,%rsp", "48 89 ec", 0, 0, 3, DCG_BR_OTHER, 0, 0, 0, 5, 1 },
	{ "mov %rsp,%r12 writes r12 (REX.B)", "49 89 e4", 0, 0, 3,
	  DCG_BR_OTHER, 0, 0, 0, 4, 0 },
	{ "lea 0x8(%rsp),%rsp", "48 8d 64 24 08", 0, 0, 5, DCG_BR_OTHER, 0, 0,
	  0, 4, 1 },
	{ "pop %rbp", "5d", 0, 0, 1, DCG_BR_OTHER, 0, 0, 0, 0xff, 1 },
	{ "push $imm32", "68 00 00 00 00", 0, 0, 5, DCG_BR_OTHER, 0, 0, 0,
	  0xff, 1 },
	{ "leave", "c9", 0, 0, 1, DCG_BR_OTHER, 0, 0, 0, 0xff, 1 },
	{ "pop (%rax) (8F /0)", "8f 00", 0, 0, 2, DCG_BR_OTHER, 0, 0, 0, 0, 1 },
	{ "push %fs (0F A0)", "0f a0", 0, 0, 2, DCG_BR_OTHER, 0, 0, 0, 0xff,
	  1 },
	{ "cmp $0,%rsp does not write", "48 83 fc 00", 0, 0, 4, DCG_BR_OTHER, 0,
	  0, 0, 7, 0 },

	/* VEX, EVEX, XOP */
	{ "vzeroupper (VEX2, no ModRM)", "c5 f8 77", 0, 0, 3, DCG_BR_OTHER, 0,
	  0, 0, 0xff, 0 },
	{ "vmovdqa (%rsp),%ymm0 (VEX2)", "c5 fd 6f 04 24", 0, 0, 5,
	  DCG_BR_OTHER, 0, 0, 0, 0, 0 },
	{ "vpshufd $0x1b (VEX2 map 1 imm8)", "c5 f9 70 c1 1b", 0, 0, 5,
	  DCG_BR_OTHER, 0, 0, 0, 0, 0 },
	{ "vinsertf128 $1 (VEX3 map 3 imm8)", "c4 e3 7d 18 c1 01", 0, 0, 6,
	  DCG_BR_OTHER, 0, 0, 0, 0, 0 },
	{ "vbroadcastss 0(%rip) (VEX3 map 2)", "c4 e2 79 18 05 00 00 00 00", 0,
	  0, 9, DCG_BR_OTHER, 0, 0, 0, 0, 0 },
	{ "VEX3 map 0 invalid", "c4 e0 79 18 c0", 0, 0, DCG_INSN_EINVAL, ANY,
	  0, 0, 0, ANY, ANY },
	{ "vmovups (%rax),%zmm0 (EVEX)", "62 f1 7c 48 10 00", 0, 0, 6,
	  DCG_BR_OTHER, 0, 0, 0, 0, 0 },
	{ "vmovdqa64 0x40(%rsp),%zmm0 (EVEX disp8*N)",
	  "62 f1 fd 48 6f 44 24 01", 0, 0, 8, DCG_BR_OTHER, 0, 0, 0, 0, 0 },
	{ "vextractf32x8 $1 (EVEX map 3 imm8)", "62 f3 7d 48 1b c1 01", 0, 0, 7,
	  DCG_BR_OTHER, 0, 0, 0, 0, 0 },
	{ "EVEX with P1 bit 2 clear invalid", "62 f1 78 48 10 00", 0, 0,
	  DCG_INSN_EINVAL, ANY, 0, 0, 0, ANY, ANY },
	{ "vprotb $5 (XOP map 8, imm8)", "8f e8 78 c0 c1 05", 0, 0, 6,
	  DCG_BR_OTHER, 0, 0, 0, 0, 0 },
	{ "vprotb reg (XOP map 9)", "8f e9 78 90 c1", 0, 0, 5, DCG_BR_OTHER, 0,
	  0, 0, 0, 0 },
	{ "bextr $imm32 (XOP map A)", "8f ea 78 10 c0 01 02 03 04", 0, 0, 9,
	  DCG_BR_OTHER, 0, 0, 0, 0, 0 },
	{ "pop %rax via 8F C0 (not XOP)", "8f c0", 0, 0, 2, DCG_BR_OTHER, 0, 0,
	  0, 0, 1 },

	/*
	 * Invalid encodings and how far a linear sweep skips them:
	 * prefixes + opcode bytes (x87: the whole instruction).
	 */
	{ "skip: 66 06 skips both", "66 06 90", 0, 0, DCG_INSN_EINVAL, ANY, 0,
	  0, 0, ANY, ANY, 2 },
	{ "skip: lea reg form skips the opcode only", "8d c0", 0, 0,
	  DCG_INSN_EINVAL, ANY, 0, 0, 0, ANY, ANY, 1 },
	{ "skip: x87 D9 /1 memory form skips ModRM+disp32",
	  "d9 0d 00 00 00 00", 0, 0, DCG_INSN_EINVAL, ANY, 0, 0, 0, ANY, ANY,
	  6 },
	{ "x87 D9 /1 cut short is short", "d9 0d 00 00", 0, 0,
	  DCG_INSN_ESHORT, ANY, 0, 0, 0, ANY, ANY, 0 },
	{ "skip: x87 DE D8 (no such register form)", "de d8", 0, 0,
	  DCG_INSN_EINVAL, ANY, 0, 0, 0, ANY, ANY, 2 },
	{ "fcompp (DE D9) is valid", "de d9", 0, 0, 2, DCG_BR_OTHER, 0, 0, 0,
	  3, 0, 0 },
	{ "skip: 0F 38 FF unknown", "0f 38 ff c0", 0, 0, DCG_INSN_EINVAL, ANY,
	  0, 0, 0, ANY, ANY, 3 },
	{ "skip: VEX3 map 0 skips the C4 only", "c4 e0 79 18 c0", 0, 0,
	  DCG_INSN_EINVAL, ANY, 0, 0, 0, ANY, ANY, 1 },
	{ "skip: vpand without VEX.66 (pp=0)", "c5 f8 db c0", 0, 0,
	  DCG_INSN_EINVAL, ANY, 0, 0, 0, ANY, ANY, 3 },
	{ "vpand with VEX.66", "c5 f9 db c0", 0, 0, 4, DCG_BR_OTHER, 0, 0, 0,
	  0, 0, 0 },
	{ "skip: vmovdqa with vvvv != 1111", "c5 f1 6f c0", 0, 0,
	  DCG_INSN_EINVAL, ANY, 0, 0, 0, ANY, ANY, 3 },
	{ "skip: kmovw k, r32 needs VEX.L0", "c5 fc 92 c0", 0, 0,
	  DCG_INSN_EINVAL, ANY, 0, 0, 0, ANY, ANY, 3 },
	{ "kmovw %eax,%k0", "c5 f8 92 c0", 0, 0, 4, DCG_BR_OTHER, 0, 0, 0, 0,
	  0, 0 },
	{ "skip: XOP map 8 opcode 45 does not exist", "8f e8 78 45 c0 00", 0,
	  0, DCG_INSN_EINVAL, ANY, 0, 0, 0, ANY, ANY, 4 },
	{ "skip: EVEX P1 bit 2 clear: 62 P0", "62 f1 78 48 10 00", 0, 0,
	  DCG_INSN_EINVAL, ANY, 0, 0, 0, ANY, ANY, 2 },
	{ "skip: EVEX map 1 opcode 77 does not exist", "62 f1 7c 48 77 c0", 0,
	  0, DCG_INSN_EINVAL, ANY, 0, 0, 0, ANY, ANY, 5 },
	{ "skip: 3DNow! bad suffix resumes after the first 0F",
	  "0f 0f c1 00", 0, 0, DCG_INSN_EINVAL, ANY, 0, 0, 0, ANY, ANY, 1 },
	{ "xstore-rng (PadLock 0F A7 C0)", "0f a7 c0", 0, 0, 3, DCG_BR_OTHER, 0,
	  0, 0, 0, 0, 0 },
	{ "skip: PadLock 0F A7 /5 with memory operand", "0f a7 2f", 0, 0,
	  DCG_INSN_EINVAL, ANY, 0, 0, 0, ANY, ANY, 1 },
	{ "skip: psrlw group with /0", "0f 71 c0 01", 0, 0, DCG_INSN_EINVAL,
	  ANY, 0, 0, 0, ANY, ANY, 2 },
	{ "lfence (0F AE E8)", "0f ae e8", 0, 0, 3, DCG_BR_OTHER, 0, 0, 0, 5,
	  0, 0 },

	/* the 15-byte limit */
	{ "14 prefixes + nop = 15 bytes",
	  "66 66 66 66 66 66 66 66 66 66 66 66 66 66 90", 0, 0, 15,
	  DCG_BR_OTHER, 0, 0, 0, 0xff, 0 },
	{ "15 prefixes + nop = 16 bytes invalid",
	  "66 66 66 66 66 66 66 66 66 66 66 66 66 66 66 90", 0, 0,
	  DCG_INSN_EINVAL, ANY, 0, 0, 0, ANY, ANY },
	{ "11 prefixes + add $imm32,%rax ModRM form = 18 bytes invalid",
	  "66 66 66 66 66 66 66 66 66 66 48 81 c0 00 00 00 00 90", 0, 0,
	  DCG_INSN_EINVAL, ANY, 0, 0, 0, ANY, ANY },

	/* truncated buffers */
	{ "call rel32 cut at 3 bytes", "e8 00 00 00 00", 3, 0, DCG_INSN_ESHORT,
	  ANY, 0, 0, 0, ANY, ANY },
	{ "lone 0F", "0f 85", 1, 0, DCG_INSN_ESHORT, ANY, 0, 0, 0, ANY, ANY },
	{ "lone prefix", "66 90", 1, 0, DCG_INSN_ESHORT, ANY, 0, 0, 0, ANY,
	  ANY },
	{ "VEX3 cut after 2 bytes", "c4 e2 79 18 c0", 2, 0, DCG_INSN_ESHORT,
	  ANY, 0, 0, 0, ANY, ANY },
	{ "SIB missing", "ff 14 c5", 2, 0, DCG_INSN_ESHORT, ANY, 0, 0, 0, ANY,
	  ANY },
	{ "empty buffer", "90", -1, 0, DCG_INSN_ESHORT, ANY, 0, 0, 0, ANY,
	  ANY },
};

static int failures;

static void result(int ok, const char *name, const char *detail)
{
	printf("%s: %s%s%s\n", ok ? "PASS" : "FAIL", name, detail ? ": " : "",
	       detail ? detail : "");
	if (!ok)
		failures++;
}

static int parse_hex(const char *s, unsigned char *buf, int max)
{
	int n = 0;
	unsigned int b;
	int used;

	while (n < max && sscanf(s, " %2x%n", &b, &used) == 1) {
		buf[n++] = b;
		s += used;
	}
	return n;
}

static int check_case(const struct tcase *t, char *why, size_t whylen)
{
	unsigned char bytes[32];
	struct dcg_insn in;
	int n = parse_hex(t->hex, bytes, sizeof(bytes));
	int avail = t->avail == 0 ? n : t->avail < 0 ? 0 : t->avail;
	int ret = dcg_insn_decode(bytes, avail, t->ip, &in);

	if (ret != t->ret) {
		snprintf(why, whylen, "returned %d, want %d", ret, t->ret);
		return 0;
	}
	if (ret == DCG_INSN_EINVAL && t->skip && in.len != t->skip) {
		snprintf(why, whylen, "resync length %u, want %d", in.len,
			 t->skip);
		return 0;
	}
	if (ret < 0)
		return 1;
	if (t->branch != ANY && in.branch != t->branch) {
		snprintf(why, whylen, "class %s, want %s",
			 dcg_branch_name(in.branch), dcg_branch_name(t->branch));
		return 0;
	}
	if ((in.flags & CHECKED_FLAGS) != t->flags) {
		snprintf(why, whylen, "flags %#x, want %#x",
			 in.flags & CHECKED_FLAGS, t->flags);
		return 0;
	}
	if ((t->flags & F_T) && in.target != t->target) {
		snprintf(why, whylen, "target %#llx, want %#llx",
			 (unsigned long long)in.target, t->target);
		return 0;
	}
	if (in.ret_imm != t->ret_imm) {
		snprintf(why, whylen, "ret_imm %u, want %d", in.ret_imm,
			 t->ret_imm);
		return 0;
	}
	if (t->modrm_reg != ANY && in.modrm_reg != t->modrm_reg) {
		snprintf(why, whylen, "modrm_reg %u, want %d", in.modrm_reg,
			 t->modrm_reg);
		return 0;
	}
	if (t->rsp_write != ANY &&
	    !!(in.flags & DCG_INSN_RSP_WRITE) != t->rsp_write) {
		snprintf(why, whylen, "rsp_write %d, want %d",
			 !!(in.flags & DCG_INSN_RSP_WRITE), t->rsp_write);
		return 0;
	}
	return 1;
}

/*
 * Every valid case cut short at each length below its own must give
 * ESHORT, never a different valid answer, and must not look past the
 * cut: the bytes after it are 0x0f, which would change the result if
 * they were read.
 */
static int check_truncations(const struct tcase *t, char *why, size_t whylen)
{
	unsigned char bytes[32], poisoned[64];
	struct dcg_insn in;
	int n = parse_hex(t->hex, bytes, sizeof(bytes));
	int cut, ret;

	for (cut = 0; cut < t->ret; cut++) {
		memset(poisoned, 0x0f, sizeof(poisoned));
		memcpy(poisoned, bytes, n);
		ret = dcg_insn_decode(poisoned, cut, t->ip, &in);
		if (ret != DCG_INSN_ESHORT) {
			snprintf(why, whylen, "cut at %d returned %d", cut, ret);
			return 0;
		}
	}
	/* more bytes than needed change nothing */
	memset(poisoned, 0x90, sizeof(poisoned));
	memcpy(poisoned, bytes, n);
	ret = dcg_insn_decode(poisoned, sizeof(poisoned), t->ip, &in);
	if (ret != t->ret) {
		snprintf(why, whylen, "with 64 bytes returned %d", ret);
		return 0;
	}
	return 1;
}

static void check_names(void)
{
	unsigned int b;
	int ok = 1;

	for (b = 0; b < DCG_BR_NR; b++)
		if (!dcg_branch_name(b) || !*dcg_branch_name(b) ||
		    !strcmp(dcg_branch_name(b), "?"))
			ok = 0;
	if (strcmp(dcg_branch_name(DCG_BR_NR), "?"))
		ok = 0;
	result(ok, "every branch class has a name", NULL);
}

/*
 * dcg_insn_call_ending(): the 8 bytes before a return address, worked
 * out by hand from the SDM encodings (90 is a one-byte nop filler).
 */
static const struct {
	const char *name, *hex;
	unsigned int len;		/* call length, 0 = no call ends there */
	unsigned int branch;
	unsigned long long target;	/* of a direct call, at ret 0x2000 */
} call_ending_cases[] = {
	{ "call rel32 before ret", "90 90 90 e8 10 00 00 00", 5, DCG_BR_CALL,
	  0x2010 },
	{ "call *%rax before ret", "90 90 90 90 90 90 ff d0", 2,
	  DCG_BR_CALL_IND, 0 },
	{ "call *disp32(%rip) before ret", "90 90 ff 15 00 10 00 00", 6,
	  DCG_BR_CALL_IND, 0 },
	{ "call *disp32(,%rax,8) before ret", "90 ff 14 c5 00 10 00 00", 7,
	  DCG_BR_CALL_IND, 0 },
	{ "nops before ret", "90 90 90 90 90 90 90 90", 0, 0, 0 },
	{ "mov before ret", "90 90 90 90 90 48 89 c7", 0, 0, 0 },
	{ "jmp *%rax before ret", "90 90 90 90 90 90 ff e0", 0, 0, 0 },
	{ "lcall *(%rax) before ret (not near)", "90 90 90 90 90 90 ff 18", 0,
	  0, 0 },
};

static void check_call_ending(void)
{
	unsigned char b[DCG_CALL_BEFORE_LEN];
	struct dcg_insn in;
	char why[96];
	unsigned int i, l;

	for (i = 0; i < DCG_ARRAY_SIZE(call_ending_cases); i++) {
		const char *name = call_ending_cases[i].name;
		unsigned int want = call_ending_cases[i].len;

		why[0] = 0;
		if (parse_hex(call_ending_cases[i].hex, b, sizeof(b)) != sizeof(b)) {
			result(0, name, "bad test bytes");
			continue;
		}
		l = dcg_insn_call_ending(b, 0x2000, &in);
		if (l != want)
			snprintf(why, sizeof(why), "length %u, want %u", l, want);
		else if (want && in.branch != call_ending_cases[i].branch)
			snprintf(why, sizeof(why), "branch %u, want %u",
				 in.branch, call_ending_cases[i].branch);
		else if (want && call_ending_cases[i].target &&
			 in.target != call_ending_cases[i].target)
			snprintf(why, sizeof(why), "target %#llx, want %#llx",
				 (unsigned long long)in.target,
				 call_ending_cases[i].target);
		result(!why[0], name, why[0] ? why : NULL);
	}
}

int main(void)
{
	char why[128], name[160];
	unsigned int i;

	for (i = 0; i < DCG_ARRAY_SIZE(cases); i++) {
		const struct tcase *t = &cases[i];

		why[0] = 0;
		result(check_case(t, why, sizeof(why)), t->name,
		       why[0] ? why : NULL);
		if (t->ret > 0 && t->avail == 0) {
			why[0] = 0;
			snprintf(name, sizeof(name), "%s: truncated", t->name);
			result(check_truncations(t, why, sizeof(why)), name,
			       why[0] ? why : NULL);
		}
	}
	check_names();
	check_call_ending();
	printf("INFO: %u cases, %d failures\n",
	       (unsigned int)DCG_ARRAY_SIZE(cases), failures);
	return failures ? 1 : 0;
}
