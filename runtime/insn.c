// SPDX-License-Identifier: GPL-2.0
/*
 * insn.c - x86-64 instruction length and branch-class decoder.
 *
 * Freestanding: included into stap modules and linked into the tools.
 * Only 64-bit mode is decoded.  The decoder answers "how long, what kind
 * of control transfer, where to" and nothing else, so the opcode tables
 * below only record what changes the length: a ModRM byte and the size
 * of the immediate.  Everything else about an opcode is irrelevant here.
 *
 * Sources: Intel SDM vol. 2 (opcode maps, appendix A), AMD APM vol. 3
 * and 4 (XOP, 3DNow!).  Where the manuals leave an encoding undefined,
 * the decoder reports it invalid.
 *
 * Validity matters twice.  The tracer must not misread real code, which
 * is always valid; but a linear sweep over data embedded in .text (as
 * the objdump comparison does) only stays in step with objdump if both
 * agree on what is invalid and on how far to skip it.  Hence the VEX,
 * EVEX, XOP, x87 and 0F-group validity tables below: they go down to
 * opcode, implied prefix (pp) and a few operand-form rules, not to
 * every reserved bit.  66-prefixed near branches are decoded the Intel
 * way (66 ignored, rel32); AMD CPUs use rel16, which compilers never
 * emit.
 */
#include "dcg_insn.h"

/* Length attributes of one opcode. */
#define M	0x01	/* has a ModRM byte */
#define IB	0x02	/* imm8 (or rel8) */
#define IW	0x04	/* imm16 */
#define IZ	0x06	/* imm16 with 66, else imm32 (and with REX.W) */
#define IV	0x08	/* imm16/32/64 by operand size (mov r, imm) */
#define IO	0x0a	/* moffs: 8 bytes, 4 with 67 */
#define IWB	0x0c	/* imm16 + imm8 (enter) */
#define IMASK	0x0e
#define GRP3	0x10	/* F6/F7: imm only for reg 0 and 1 (test) */
#define X	0x40	/* invalid in 64-bit mode */
#define P	0x80	/* prefix or escape: handled by the decoder itself */

/* The one-byte opcode map. */
static const dcg_u8 map1[256] = {
	/* 00-3F: ALU ops in groups of eight: r/m forms, AL/eAX imm forms */
	[0x00 ... 0x03] = M, [0x04] = IB, [0x05] = IZ, [0x06 ... 0x07] = X,
	[0x08 ... 0x0b] = M, [0x0c] = IB, [0x0d] = IZ, [0x0e] = X, [0x0f] = P,
	[0x10 ... 0x13] = M, [0x14] = IB, [0x15] = IZ, [0x16 ... 0x17] = X,
	[0x18 ... 0x1b] = M, [0x1c] = IB, [0x1d] = IZ, [0x1e ... 0x1f] = X,
	[0x20 ... 0x23] = M, [0x24] = IB, [0x25] = IZ, [0x26] = P, [0x27] = X,
	[0x28 ... 0x2b] = M, [0x2c] = IB, [0x2d] = IZ, [0x2e] = P, [0x2f] = X,
	[0x30 ... 0x33] = M, [0x34] = IB, [0x35] = IZ, [0x36] = P, [0x37] = X,
	[0x38 ... 0x3b] = M, [0x3c] = IB, [0x3d] = IZ, [0x3e] = P, [0x3f] = X,
	[0x40 ... 0x4f] = P,			/* REX */
	[0x50 ... 0x5f] = 0,			/* push/pop reg */
	[0x60 ... 0x61] = X, [0x62] = P,	/* 62 is EVEX in 64-bit mode */
	[0x63] = M,				/* movsxd */
	[0x64 ... 0x67] = P,
	[0x68] = IZ, [0x69] = M | IZ, [0x6a] = IB, [0x6b] = M | IB,
	[0x6c ... 0x6f] = 0,			/* ins/outs */
	[0x70 ... 0x7f] = IB,			/* jcc rel8 */
	[0x80] = M | IB, [0x81] = M | IZ, [0x82] = X, [0x83] = M | IB,
	[0x84 ... 0x8e] = M,
	[0x8f] = P,				/* pop r/m, or XOP */
	[0x90 ... 0x99] = 0, [0x9a] = X, [0x9b ... 0x9f] = 0,
	[0xa0 ... 0xa3] = IO,
	[0xa4 ... 0xa7] = 0, [0xa8] = IB, [0xa9] = IZ, [0xaa ... 0xaf] = 0,
	[0xb0 ... 0xb7] = IB, [0xb8 ... 0xbf] = IV,
	[0xc0 ... 0xc1] = M | IB, [0xc2] = IW, [0xc3] = 0,
	[0xc4 ... 0xc5] = P,			/* VEX in 64-bit mode */
	[0xc6] = M | IB, [0xc7] = M | IZ,
	[0xc8] = IWB, [0xc9] = 0, [0xca] = IW, [0xcb ... 0xcc] = 0,
	[0xcd] = IB, [0xce] = X, [0xcf] = 0,
	[0xd0 ... 0xd3] = M, [0xd4 ... 0xd6] = X, [0xd7] = 0,
	[0xd8 ... 0xdf] = M,			/* x87 */
	[0xe0 ... 0xe7] = IB,			/* loop/jrcxz rel8, in/out imm8 */
	[0xe8 ... 0xe9] = IZ,			/* call/jmp rel32 */
	[0xea] = X, [0xeb] = IB, [0xec ... 0xef] = 0,
	[0xf0] = P, [0xf1] = 0, [0xf2 ... 0xf3] = P, [0xf4 ... 0xf5] = 0,
	[0xf6] = M | IB | GRP3, [0xf7] = M | IZ | GRP3,
	[0xf8 ... 0xfd] = 0, [0xfe ... 0xff] = M,
};

/* The two-byte map (0F xx). */
static const dcg_u8 map0f[256] = {
	[0x00 ... 0x03] = M, [0x04] = X, [0x05 ... 0x09] = 0, [0x0a] = X,
	[0x0b] = 0, [0x0c] = X, [0x0d] = M, [0x0e] = 0,
	[0x0f] = M | IB,			/* 3DNow!: imm8 is the opcode */
	[0x10 ... 0x1f] = M,
	[0x20 ... 0x23] = M,			/* mov cr/dr: see decode_0f */
	[0x24 ... 0x27] = X,
	[0x28 ... 0x2f] = M,
	[0x30 ... 0x35] = 0, [0x36] = X, [0x37] = 0,
	[0x38] = P, [0x39] = X, [0x3a] = P, [0x3b ... 0x3f] = X,
	[0x40 ... 0x6f] = M,
	[0x70 ... 0x73] = M | IB,
	[0x74 ... 0x76] = M, [0x77] = 0,
	[0x78 ... 0x79] = M,			/* extrq/insertq: see below */
	[0x7a ... 0x7b] = X,
	[0x7c ... 0x7f] = M,
	[0x80 ... 0x8f] = IZ,			/* jcc rel32 */
	[0x90 ... 0x9f] = M,
	[0xa0 ... 0xa2] = 0, [0xa3] = M, [0xa4] = M | IB, [0xa5] = M,
	[0xa6 ... 0xa7] = M,			/* VIA PadLock: see below */
	[0xa8 ... 0xaa] = 0, [0xab] = M,
	[0xac] = M | IB, [0xad ... 0xaf] = M,
	[0xb0 ... 0xb9] = M, [0xba] = M | IB, [0xbb ... 0xbf] = M,
	[0xc0 ... 0xc1] = M, [0xc2] = M | IB, [0xc3] = M,
	[0xc4 ... 0xc6] = M | IB, [0xc7] = M,
	[0xc8 ... 0xcf] = 0,			/* bswap */
	[0xd0 ... 0xff] = M,
};

/*
 * Opcode sets as 256-bit maps: bit (op & 63) of word (op >> 6).  Built
 * from inclusive ranges so that they read like the manuals' tables.
 */
#define R64(a, b)	((~0ULL >> (63 - (b))) & (~0ULL << (a)))
#define B64(a)		(1ULL << (a))

static int in_set(const dcg_u64 set[4], dcg_u8 op)
{
	return (set[op >> 6] >> (op & 63)) & 1;
}

/*
 * x87 (D8-DF).  Register forms (mod 3) that do not exist, by ModRM - C0,
 * one word per opcode; memory forms that do not exist, by ModRM.reg.
 * Unlike other invalid opcodes, objdump's "(bad)" for these spans the
 * whole ModRM operand, so a sweep resumes after it.
 */
static const dcg_u64 x87_bad_reg[8] = {
	[1] = R64(0x11, 0x1f) | R64(0x22, 0x23) | R64(0x26, 0x27) | B64(0x2f),
	[2] = R64(0x20, 0x28) | R64(0x2a, 0x3f),
	[3] = R64(0x26, 0x27) | R64(0x38, 0x3f),
	[4] = R64(0x10, 0x1f),
	[5] = R64(0x08, 0x0f) | R64(0x30, 0x3f),
	[6] = R64(0x10, 0x18) | R64(0x1a, 0x1f),
	[7] = R64(0x08, 0x1f) | R64(0x21, 0x27) | R64(0x38, 0x3f),
};
static const dcg_u8 x87_bad_mem[8] = {
	[1] = 1 << 1, [3] = (1 << 4) | (1 << 6), [5] = 1 << 5,
};

/* VEX-encodable opcodes per map (SDM vol. 2 appendix A, AMX, AVX-VNNI). */
static const dcg_u64 vex_ops[4][4] = {
	[1] = {	/* 0F */
		R64(0x10, 0x17) | R64(0x28, 0x2f),
		R64(0x01, 0x02) | R64(0x04, 0x07) | R64(0x0a, 0x0b) |
		R64(0x10, 0x37) | R64(0x3c, 0x3f),	/* 41-4B k ops, 50-77, 7C-7F */
		R64(0x10, 0x13) | R64(0x18, 0x19) | B64(0x2e),
		B64(0x02) | R64(0x04, 0x06) | R64(0x10, 0x3e),
	},
	[2] = {	/* 0F38 */
		R64(0x00, 0x0f) | B64(0x13) | R64(0x16, 0x1a) |
		R64(0x1c, 0x1e) | R64(0x20, 0x25) | R64(0x28, 0x2f) |
		R64(0x30, 0x3f),
		R64(0x00, 0x01) | R64(0x05, 0x07) | B64(0x09) | B64(0x0b) |
		R64(0x10, 0x13) | R64(0x18, 0x1a) | B64(0x1c) | B64(0x1e) |
		R64(0x38, 0x39),
		B64(0x0c) | B64(0x0e) | R64(0x10, 0x13) | R64(0x16, 0x1f) |
		R64(0x26, 0x2f) | R64(0x36, 0x3f),
		B64(0x0f) | R64(0x1b, 0x1f) | R64(0x32, 0x37),
	},
	[3] = {	/* 0F3A */
		R64(0x00, 0x02) | R64(0x04, 0x06) | R64(0x08, 0x0f) |
		R64(0x14, 0x19) | B64(0x1d) | R64(0x20, 0x22) |
		R64(0x30, 0x33) | R64(0x38, 0x39),
		R64(0x00, 0x02) | B64(0x04) | B64(0x06) | R64(0x08, 0x0c) |
		R64(0x1c, 0x1f) | R64(0x20, 0x23) | R64(0x28, 0x2f) |
		R64(0x38, 0x3f),
		0,
		R64(0x0e, 0x0f) | B64(0x1f) | B64(0x30),
	},
};

/*
 * VEX map 1 (0F): which implied prefixes (VEX.pp) each opcode exists
 * with, as a mask of 1 << pp: bit 0 none, 1 66, 2 F3, 3 F2.
 */
#define PN	0x1
#define P66	0x2
#define PF3	0x4
#define PF2	0x8
#define PALL	0xf
static const dcg_u8 vex0f_pp[256] = {
	[0x10 ... 0x12] = PALL, [0x13 ... 0x15] = PN | P66,
	[0x16] = PN | P66 | PF3, [0x17] = PN | P66,
	[0x28 ... 0x29] = PN | P66, [0x2a] = PF3 | PF2, [0x2b] = PN | P66,
	[0x2c ... 0x2d] = PF3 | PF2, [0x2e ... 0x2f] = PN | P66,
	[0x41 ... 0x42] = PN | P66, [0x44 ... 0x47] = PN | P66,
	[0x4a ... 0x4b] = PN | P66,
	[0x50] = PN | P66, [0x51] = PALL, [0x52 ... 0x53] = PN | PF3,
	[0x54 ... 0x57] = PN | P66, [0x58 ... 0x5a] = PALL,
	[0x5b] = PN | P66 | PF3, [0x5c ... 0x5f] = PALL,
	[0x60 ... 0x6e] = P66, [0x6f] = P66 | PF3,
	[0x70] = P66 | PF3 | PF2, [0x71 ... 0x76] = P66, [0x77] = PN,
	[0x7c ... 0x7d] = P66 | PF2, [0x7e ... 0x7f] = P66 | PF3,
	[0x90 ... 0x91] = PN | P66, [0x92 ... 0x93] = PN | P66 | PF2,
	[0x98 ... 0x99] = PN | P66, [0xae] = PN,
	[0xc2] = PALL, [0xc4 ... 0xc5] = P66, [0xc6] = PN | P66,
	[0xd0] = P66 | PF2, [0xd1 ... 0xe5] = P66, [0xe6] = P66 | PF3 | PF2,
	[0xe7 ... 0xef] = P66, [0xf0] = PF2, [0xf1 ... 0xfe] = P66,
};

/*
 * EVEX (AVX-512, AVX512-FP16 maps 5 and 6): the implied prefixes each
 * opcode exists with, as for VEX map 1 above.  Index: map 1, 2, 3, 5, 6.
 * Mod-only or ModRM.reg-only restrictions (memory-only forms, groups)
 * are not modelled; neither are the Xeon Phi 4FMAPS/4VNNIW forms, which
 * current objdump no longer knows.
 */
static const dcg_u8 evex_pp[5][256] = {
	[0] = {	/* 0F */
		[0x10 ... 0x12] = PALL, [0x13 ... 0x15] = PN | P66,
		[0x16] = PN | P66 | PF3, [0x17] = PN | P66,
		[0x28 ... 0x29] = PN | P66, [0x2a] = PF3 | PF2,
		[0x2b] = PN | P66, [0x2c ... 0x2d] = PF3 | PF2,
		[0x2e ... 0x2f] = PN | P66, [0x51] = PALL,
		[0x54 ... 0x57] = PN | P66, [0x58 ... 0x5a] = PALL,
		[0x5b] = PN | P66 | PF3, [0x5c ... 0x5f] = PALL,
		[0x60 ... 0x6e] = P66, [0x6f ... 0x70] = P66 | PF3 | PF2,
		[0x71 ... 0x76] = P66, [0x78 ... 0x79] = PALL,
		[0x7a ... 0x7b] = P66 | PF3 | PF2, [0x7e] = P66 | PF3,
		[0x7f] = P66 | PF3 | PF2, [0xc2] = PALL,
		[0xc4 ... 0xc5] = P66, [0xc6] = PN | P66,
		[0xd1 ... 0xd6] = P66, [0xd8 ... 0xe5] = P66,
		[0xe6] = P66 | PF3 | PF2, [0xe7 ... 0xef] = P66,
		[0xf1 ... 0xf6] = P66, [0xf8 ... 0xfe] = P66,
	},
	[1] = {	/* 0F38 */
		[0x00] = P66, [0x04] = P66, [0x0b ... 0x0d] = P66,
		[0x10 ... 0x15] = P66 | PF3, [0x16] = P66,
		[0x18 ... 0x1f] = P66, [0x20 ... 0x2a] = P66 | PF3,
		[0x2b ... 0x2d] = P66, [0x30 ... 0x35] = P66 | PF3,
		[0x36 ... 0x37] = P66, [0x38 ... 0x3a] = P66 | PF3,
		[0x3b ... 0x40] = P66, [0x42 ... 0x47] = P66,
		[0x4c ... 0x4d] = P66, [0x4e] = PALL, [0x4f] = P66,
		[0x50 ... 0x51] = PALL, [0x52] = P66 | PF3,
		[0x53 ... 0x55] = P66, [0x58 ... 0x5b] = P66,
		[0x62 ... 0x66] = P66, [0x68] = PF2, [0x70 ... 0x71] = P66,
		[0x72] = P66 | PF3 | PF2, [0x73] = P66, [0x75 ... 0x7f] = P66,
		[0x83] = P66, [0x88 ... 0x8b] = P66, [0x8d] = P66,
		[0x8f ... 0x93] = P66, [0x96 ... 0xa3] = P66,
		[0xa6 ... 0xaf] = P66, [0xb4 ... 0xbf] = P66, [0xc4] = P66,
		[0xc6 ... 0xc8] = P66, [0xca ... 0xcd] = P66, [0xcf] = P66,
		[0xdc ... 0xdf] = P66,
	},
	[2] = {	/* 0F3A */
		[0x00 ... 0x01] = P66, [0x03 ... 0x05] = P66,
		[0x08] = PN | P66, [0x09] = P66, [0x0a] = PN | P66,
		[0x0b] = P66, [0x0f] = P66, [0x14 ... 0x1b] = P66,
		[0x1d ... 0x23] = P66, [0x25] = P66,
		[0x26 ... 0x27] = PN | P66, [0x38 ... 0x3b] = P66,
		[0x3e ... 0x3f] = P66, [0x42] = PALL, [0x43 ... 0x44] = P66,
		[0x50 ... 0x51] = P66, [0x54 ... 0x55] = P66,
		[0x56 ... 0x57] = PN | P66, [0x66 ... 0x67] = PN | P66,
		[0x70] = PALL, [0x71] = P66, [0x72] = PALL, [0x73] = P66,
		[0xc2] = PN | PF3, [0xce ... 0xcf] = P66,
	},
	[3] = {	/* map 5 */
		[0x10 ... 0x11] = PF3, [0x1d] = PN | P66, [0x2a] = PF3,
		[0x2c ... 0x2d] = PF3, [0x2e ... 0x2f] = PN,
		[0x51] = PN | PF3, [0x58 ... 0x59] = PN | PF3, [0x5a] = PALL,
		[0x5b] = PN | P66 | PF3, [0x5c ... 0x5f] = PN | PF3,
		[0x6e] = P66, [0x78 ... 0x79] = PN | P66 | PF3,
		[0x7a] = P66 | PF2, [0x7b] = P66 | PF3, [0x7c] = PN | P66,
		[0x7d] = PALL, [0x7e] = P66,
	},
	[4] = {	/* map 6 */
		[0x13] = PN | P66, [0x2c ... 0x2d] = P66,
		[0x42 ... 0x43] = P66, [0x4c ... 0x4f] = P66,
		[0x56 ... 0x57] = PF3 | PF2, [0x96 ... 0x9f] = P66,
		[0xa6 ... 0xaf] = P66, [0xb6 ... 0xbf] = P66,
		[0xd6 ... 0xd7] = PF3 | PF2,
	},
};

static int evex_opcode_valid(unsigned int map, dcg_u8 op, unsigned int pp)
{
	static const dcg_s8 index[8] = { -1, 0, 1, 2, -1, 3, 4, -1 };

	return index[map] >= 0 && ((evex_pp[index[map]][op] >> pp) & 1);
}

/*
 * VEX maps 2 and 3 need pp = 66, but for the GPR (BMI) and AMX
 * instructions, which use the other prefixes too.
 */
static unsigned int vex_pp_mask(unsigned int map, dcg_u8 op)
{
	if (map == 1)
		return vex0f_pp[op];
	if (map == 3)
		return op == 0xf0 ? PF2 : P66;
	switch (op) {
	case 0xf2:
	case 0xf3:
		return PN;
	case 0xf5:
		return PN | PF3 | PF2;
	case 0xf6:
		return PF2;
	case 0xf7:
	case 0x5e:
		return PALL;
	case 0x49:
		return PN | P66 | PF2;
	case 0x4b:
		return P66 | PF3 | PF2;
	case 0x5c:
		return PF3;
	}
	return P66;
}

/*
 * VEX map 1 opcodes with one source operand: VEX.vvvv must be 1111b
 * (#UD otherwise).  51-53 and 5A only in their packed (pp 0/66) forms.
 */
static const dcg_u64 vex0f_unary[4] = {
	R64(0x28, 0x29) | R64(0x2b, 0x2f),
	B64(0x10) | B64(0x1b) | R64(0x2e, 0x30) | R64(0x3e, 0x3f),
	0,
	R64(0x16, 0x17) | R64(0x26, 0x27) | B64(0x30) | B64(0x37),
};

static int vex_vvvv_unused(unsigned int map, dcg_u8 op, unsigned int pp)
{
	if (map != 1)
		return 0;
	if ((op >= 0x51 && op <= 0x53) || op == 0x5a)
		return pp <= 1;
	return in_set(vex0f_unary, op);
}

/*
 * VEX map 1 operand-form rules that need the ModRM: the mask-register
 * (k) instructions exist only with a fixed VEX.L and register or memory
 * operands, and vmovups/vmovss and the like take no vvvv in their
 * unary forms.  @v is the VEX byte holding vvvv, L and pp.
 */
static int vex0f_form_valid(dcg_u8 op, dcg_u8 v, dcg_u8 modrm)
{
	int ones = (v & 0x78) == 0x78, l = (v >> 2) & 1, pp = v & 3;
	int reg = (modrm >> 6) == 3;

	switch (op) {
	case 0x10:
	case 0x11:
		return (pp >= 2 && reg) || ones;
	case 0x41: case 0x42: case 0x45: case 0x46: case 0x47:
	case 0x4a: case 0x4b:
		return l && reg;
	case 0x44:
	case 0x92: case 0x93: case 0x98: case 0x99:
		return !l && reg && ones;
	case 0x90:
		return !l && ones;
	case 0x91:
		return !l && !reg && ones;
	}
	return !vex_vvvv_unused(1, op, pp) || ones;
}

/* Legacy 0F38 and 0F3A opcodes (SSSE3, SSE4, AES, SHA, GFNI, ...). */
static const dcg_u64 ops_0f38[4] = {
	R64(0x00, 0x0b) | B64(0x10) | R64(0x14, 0x15) | B64(0x17) |
	R64(0x1c, 0x1e) | R64(0x20, 0x25) | R64(0x28, 0x2b) |
	R64(0x30, 0x35) | R64(0x37, 0x3f),
	R64(0x00, 0x01),
	R64(0x00, 0x02),
	R64(0x08, 0x0d) | B64(0x0f) | R64(0x1b, 0x1f) | R64(0x30, 0x31) |
	R64(0x35, 0x36) | R64(0x38, 0x39),
};
static const dcg_u64 ops_0f3a[4] = {
	R64(0x08, 0x0f) | R64(0x14, 0x17) | R64(0x20, 0x22),
	R64(0x00, 0x02) | B64(0x04) | R64(0x20, 0x23),
	0,
	B64(0x0c) | R64(0x0e, 0x0f) | B64(0x1f),
};

/* XOP opcodes per map 8, 9, A (AMD APM vol. 4). */
static const dcg_u64 xop_ops[3][4] = {
	{	/* map 8: all take imm8 */
		0,
		0,
		R64(0x05, 0x07) | R64(0x0e, 0x0f) | R64(0x15, 0x17) |
		R64(0x1e, 0x1f) | R64(0x22, 0x23) | B64(0x26) | B64(0x36),
		R64(0x00, 0x03) | R64(0x0c, 0x0f) | R64(0x2c, 0x2f),
	},
	{	/* map 9 */
		R64(0x01, 0x02) | B64(0x12),
		0,
		R64(0x00, 0x03) | R64(0x10, 0x1b),
		R64(0x01, 0x03) | R64(0x06, 0x07) | B64(0x0b) |
		R64(0x11, 0x13) | R64(0x16, 0x17) | B64(0x1b) |
		R64(0x21, 0x23),
	},
	{	/* map A: imm32 */
		B64(0x10) | B64(0x12),
	},
};

/* Decoder state for one instruction. */
struct dec {
	const dcg_u8 *buf;
	unsigned int avail;
	unsigned int pos;	/* next byte to look at */
	dcg_u8 rex;		/* REX byte in effect, or 0 */
	dcg_u8 opsize16;	/* 66 */
	dcg_u8 addr32;		/* 67 */
	dcg_u8 rep;		/* last of F2/F3, or 0 */
	dcg_u8 seg_ds;		/* 3E was given (notrack) */
	dcg_u8 lock;		/* F0 */
	dcg_u8 modrm;
	dcg_u8 has_modrm;
	dcg_u8 opcode_end;	/* bytes up to and including the opcode */
};

/*
 * Fetch the next byte.  An instruction that would need a 16th byte is
 * invalid whatever follows; one that runs past the buffer is short.
 */
static int next_byte(struct dec *d, dcg_u8 *b)
{
	if (d->pos >= DCG_INSN_MAX_LEN)
		return DCG_INSN_EINVAL;
	if (d->pos >= d->avail)
		return DCG_INSN_ESHORT;
	*b = d->buf[d->pos++];
	return 0;
}

/* Skip a ModRM byte's SIB and displacement.  The ModRM is already read. */
static int skip_modrm_operand(struct dec *d)
{
	dcg_u8 mod = d->modrm >> 6, rm = d->modrm & 7, sib;
	int err;

	if (mod == 3)
		return 0;
	if (rm == 4) {
		err = next_byte(d, &sib);
		if (err)
			return err;
		if (mod == 0 && (sib & 7) == 5)
			d->pos += 4;
	} else if (mod == 0 && rm == 5) {
		d->pos += 4;		/* rip-relative disp32 */
	}
	if (mod == 1)
		d->pos += 1;
	else if (mod == 2)
		d->pos += 4;
	return 0;
}

static int read_modrm(struct dec *d)
{
	int err = next_byte(d, &d->modrm);

	if (err)
		return err;
	d->has_modrm = 1;
	return 0;
}

static unsigned int imm_size(const struct dec *d, dcg_u8 attr)
{
	switch (attr & IMASK) {
	case IB:
		return 1;
	case IW:
		return 2;
	case IZ:
		return (d->opsize16 && !(d->rex & 8)) ? 2 : 4;
	case IV:
		if (d->rex & 8)
			return 8;
		return d->opsize16 ? 2 : 4;
	case IO:
		return d->addr32 ? 4 : 8;
	case IWB:
		return 3;
	}
	return 0;
}

static dcg_u64 read_le(const dcg_u8 *p, unsigned int n)
{
	dcg_u64 v = 0;

	while (n--)
		v = (v << 8) | p[n];
	return v;
}

static dcg_s64 read_rel(const dcg_u8 *p, unsigned int n)
{
	if (n == 1)
		return (dcg_s8)p[0];
	if (n == 2)
		return (dcg_s16)read_le(p, 2);
	return (dcg_s32)read_le(p, 4);
}

/* Is @op (one-byte map) a string instruction that F2/F3 repeat? */
static int is_string_op(dcg_u8 op)
{
	return (op >= 0x6c && op <= 0x6f) || (op >= 0xa4 && op <= 0xa7) ||
	       (op >= 0xaa && op <= 0xaf);
}

/* Does a write to the r/m operand (mod 3) or to reg hit rsp? */
static int rm_is_rsp(const struct dec *d)
{
	return d->has_modrm && (d->modrm >> 6) == 3 && (d->modrm & 7) == 4 &&
	       !(d->rex & 1);
}

static int reg_is_rsp(const struct dec *d)
{
	return d->has_modrm && ((d->modrm >> 3) & 7) == 4 && !(d->rex & 4);
}

/*
 * Best effort: does this one-byte-map instruction write rsp explicitly
 * (push/pop/enter/leave, or rsp as the destination of mov/add/sub/lea/
 * and/or/xor/xchg/inc/dec)?  Calls and returns are not flagged: their
 * branch class already says what they do to rsp.
 */
static int writes_rsp_map1(const struct dec *d, dcg_u8 op)
{
	dcg_u8 reg = (d->modrm >> 3) & 7;

	if ((op >= 0x50 && op <= 0x5f) || op == 0x68 || op == 0x6a ||
	    op == 0x9c || op == 0x9d || op == 0xc8 || op == 0xc9)
		return 1;
	if (op == 0x8f)
		return 1;			/* pop r/m */
	if (op == 0xff)
		return reg == 6 || (reg <= 1 && rm_is_rsp(d));
	if (op < 0x40 && (op & 7) == 1 && op != 0x39)
		return rm_is_rsp(d);		/* op r/m, reg */
	if (op < 0x40 && (op & 7) == 3 && op != 0x3b)
		return reg_is_rsp(d);		/* op reg, r/m */
	switch (op) {
	case 0x81:
	case 0x83:
		return reg != 7 && rm_is_rsp(d);
	case 0x89:
	case 0xc7:
		return rm_is_rsp(d);
	case 0x8b:
	case 0x8d:
	case 0x63:
		return reg_is_rsp(d);
	case 0x87:
		return rm_is_rsp(d) || reg_is_rsp(d);
	case 0x94:
	case 0xbc:
		return !(d->rex & 1);
	}
	return 0;
}

/* The one-byte map's control transfers. */
static void classify_map1(const struct dec *d, dcg_u8 op, struct dcg_insn *out)
{
	dcg_u8 reg = (d->modrm >> 3) & 7;

	switch (op) {
	case 0x70 ... 0x7f:
		out->branch = DCG_BR_JCC;
		break;
	case 0xe0 ... 0xe3:
		out->branch = DCG_BR_LOOP;
		break;
	case 0xe8:
		out->branch = DCG_BR_CALL;
		break;
	case 0xe9:
	case 0xeb:
		out->branch = DCG_BR_JMP;
		break;
	case 0xc2:
		out->branch = DCG_BR_RET_IMM;
		break;
	case 0xc3:
		out->branch = DCG_BR_RET;
		break;
	case 0xca:
	case 0xcb:
		out->branch = DCG_BR_RET_FAR;
		break;
	case 0xcf:
		out->branch = DCG_BR_IRET;
		break;
	case 0xcc:
	case 0xcd:
	case 0xf1:
		out->branch = DCG_BR_SYS;
		break;
	case 0xff:
		if (reg == 2)
			out->branch = DCG_BR_CALL_IND;
		else if (reg == 3)
			out->branch = DCG_BR_CALL_FAR;
		else if (reg == 4)
			out->branch = DCG_BR_JMP_IND;
		else if (reg == 5)
			out->branch = DCG_BR_JMP_FAR;
		break;
	}
}

static void classify_map0f(dcg_u8 op, struct dcg_insn *out)
{
	if (op >= 0x80 && op <= 0x8f)
		out->branch = DCG_BR_JCC;
	else if (op == 0x05 || op == 0x07 || op == 0x34 || op == 0x35)
		out->branch = DCG_BR_SYS;
}

/*
 * Reject ModRM encodings the SDM leaves undefined in the groups whose
 * length or branch class we report.
 */
static int modrm_valid_map1(const struct dec *d, dcg_u8 op)
{
	dcg_u8 reg = (d->modrm >> 3) & 7, mod = d->modrm >> 6;

	switch (op) {
	case 0xfe:
		return reg <= 1;
	case 0xff:
		if (reg == 7)
			return 0;
		if (reg == 3 || reg == 5)
			return mod != 3;	/* far: memory only */
		return 1;
	case 0x8f:
		return reg == 0;
	case 0xc6:
	case 0xc7:
		/* mov r/m, imm; xabort/xbegin are C6 F8 / C7 F8 */
		return reg == 0 || d->modrm == 0xf8;
	case 0x8d:
		return mod != 3;		/* lea needs memory */
	}
	return 1;
}

static int x87_valid(const struct dec *d, dcg_u8 op)
{
	unsigned int i = op - 0xd8;

	if ((d->modrm >> 6) == 3)
		return !((x87_bad_reg[i] >> (d->modrm - 0xc0)) & 1);
	return !((x87_bad_mem[i] >> ((d->modrm >> 3) & 7)) & 1);
}

/*
 * An x87 encoding that does not exist: a sweep skips its ModRM operand
 * too (objdump does), so the skip needs the whole operand in the buffer.
 */
static int x87_invalid(struct dec *d)
{
	if (d->pos <= DCG_INSN_MAX_LEN) {
		if (d->pos > d->avail)
			return DCG_INSN_ESHORT;
		d->opcode_end = d->pos;
	}
	return DCG_INSN_EINVAL;
}

/*
 * VEX (C4/C5), EVEX (62) and XOP (8F) share a shape: a fixed-size
 * prefix that names the opcode map, then opcode, ModRM, the usual
 * SIB/displacement, and an immediate that depends on map and opcode.
 */
static int vex_imm(unsigned int map, dcg_u8 op)
{
	switch (map) {
	case 1:		/* 0F map: pshuf*, shifts by imm, cmpps, pinsrw... */
		return (map0f[op] & IMASK) == IB ? 1 : 0;
	case 3:		/* 0F3A map: always imm8 */
		return 1;
	}
	return 0;
}

/* A VEX (C4/C5), EVEX (62) or XOP (8F) prefix, and the opcode after it. */
struct vex {
	dcg_u8 kind;		/* C4, C5, 62 or 8F */
	dcg_u8 b1, b2, b3;	/* its bytes after @kind, as many as it has */
	dcg_u8 op;
	unsigned int map;	/* the opcode map it names */
	unsigned int pp;	/* its implied 66/F3/F2 */
};

/*
 * EVEX: P0 names map 1-3, or 5-6 (AVX512-FP16); P0 bit 3 is 0 and P1
 * bit 2 is 1.
 */
static int read_evex_prefix(struct dec *d, struct vex *v)
{
	int err;

	v->map = v->b1 & 7;
	if ((v->b1 & 0x08) || v->map == 0 || v->map == 4 || v->map == 7)
		return DCG_INSN_EINVAL;
	err = next_byte(d, &v->b2);
	if (!err)
		err = next_byte(d, &v->b3);
	if (err)
		return err;
	if (!(v->b2 & 0x04)) {
		d->opcode_end++;	/* objdump: 62 P0 (bad) */
		return DCG_INSN_EINVAL;
	}
	return 0;
}

/*
 * The prefix's bytes after its first, and the map they name.  VEX/EVEX/XOP
 * after 66, F2, F3, F0 or REX raise #UD, but the length is still well
 * defined; objdump decodes them too ("data16 vpshufb"), so they are
 * accepted here.
 */
static int read_vex_prefix(struct dec *d, struct vex *v)
{
	int err = next_byte(d, &v->b1);

	if (err)
		return err;
	switch (v->kind) {
	case 0xc5:
		v->map = 1;
		return 0;
	case 0xc4:
		v->map = v->b1 & 0x1f;
		if (v->map < 1 || v->map > 3)
			return DCG_INSN_EINVAL;
		return next_byte(d, &v->b2);
	case 0x62:
		return read_evex_prefix(d, v);
	}
	v->map = v->b1 & 0x1f;		/* 0x8f, XOP: maps 8-10 */
	if (v->map < 8 || v->map > 10)
		return DCG_INSN_EINVAL;
	return next_byte(d, &v->b2);
}

/* An XOP opcode that exists, and its immediate's size. */
static int xop_opcode_check(const struct vex *v, unsigned int *imm)
{
	if (!in_set(xop_ops[v->map - 8], v->op) || v->pp != 0)
		return DCG_INSN_EINVAL;
	/* 256-bit (L=1) only for vpcmov and vfrczps/pd */
	if ((v->b2 & 0x04) && !(v->map == 8 && v->op == 0xa2) &&
	    !(v->map == 9 && (v->op == 0x80 || v->op == 0x81)))
		return DCG_INSN_EINVAL;
	*imm = v->map == 8 ? 1 : v->map == 10 ? 4 : 0;
	return 0;
}

/*
 * A VEX or EVEX opcode that exists with its implied prefix, and its
 * immediate's size.
 */
static int vex_opcode_check(const struct vex *v, unsigned int *imm)
{
	if (v->kind != 0x62 && (!in_set(vex_ops[v->map], v->op) ||
				!((vex_pp_mask(v->map, v->op) >> v->pp) & 1)))
		return DCG_INSN_EINVAL;
	if (v->kind == 0x62 && !evex_opcode_valid(v->map, v->op, v->pp))
		return DCG_INSN_EINVAL;
	*imm = vex_imm(v->map, v->op);
	return 0;
}

/* The operand-form rules that need the ModRM (#UD otherwise). */
static int vex_form_valid(const struct dec *d, const struct vex *v)
{
	if (v->kind == 0xc4 || v->kind == 0xc5)
		return v->map != 1 ||
		       vex0f_form_valid(v->op, v->kind == 0xc5 ? v->b1 : v->b2,
					d->modrm);
	if (v->kind != 0x62)
		return 1;
	/* unary EVEX forms: vvvv = 1111b and V' = 1 */
	if (v->map == 1 && vex_vvvv_unused(1, v->op, v->pp) &&
	    ((v->b2 & 0x78) != 0x78 || !(v->b3 & 0x08)))
		return 0;
	/* EVEX.L'L = 3 is reserved, except as rounding control (reg, b=1) */
	return ((v->b3 >> 5) & 3) != 3 ||
	       ((d->modrm >> 6) == 3 && (v->b3 & 0x10));
}

static int decode_vex(struct dec *d, dcg_u8 kind, struct dcg_insn *out)
{
	struct vex v = { .kind = kind };
	unsigned int imm;
	int err;

	err = read_vex_prefix(d, &v);
	if (!err)
		err = next_byte(d, &v.op);
	if (err)
		return err;
	d->opcode_end = d->pos;
	if (d->lock)
		return DCG_INSN_EINVAL;	/* objdump too: "lock (bad)" */
	/* the implied prefix: last byte of VEX/XOP, P1 of EVEX */
	v.pp = (kind == 0xc5 ? v.b1 : v.b2) & 3;
	err = kind == 0x8f ? xop_opcode_check(&v, &imm) :
			     vex_opcode_check(&v, &imm);
	if (err)
		return err;
	out->branch = DCG_BR_OTHER;
	if (kind != 0x62 && v.map == 1 && v.op == 0x77)
		return 0;	/* vzeroupper/vzeroall: no ModRM */
	err = read_modrm(d);
	if (!err)
		err = skip_modrm_operand(d);
	if (err)
		return err;
	if (!vex_form_valid(d, &v))
		return DCG_INSN_EINVAL;
	d->pos += imm;
	return 0;
}

/* Legacy prefixes and REX, in any order; only a REX right before the
 * opcode counts. */
static int read_prefixes(struct dec *d, dcg_u8 *op)
{
	int err;

	for (;;) {
		err = next_byte(d, op);
		if (err)
			return err;
		switch (*op) {
		case 0x66:
			d->opsize16 = 1;
			break;
		case 0x67:
			d->addr32 = 1;
			break;
		case 0xf2:
		case 0xf3:
			d->rep = *op;
			break;
		case 0xf0:
			d->lock = 1;
			break;
		case 0x3e:
			d->seg_ds = 1;
			break;
		case 0x26:
		case 0x2e:
		case 0x36:
		case 0x64:
		case 0x65:
			/* a later segment override replaces 3E */
			d->seg_ds = 0;
			break;
		case 0x40 ... 0x4f:
			d->rex = *op;
			continue;	/* keep it only if the opcode follows */
		default:
			d->opcode_end = d->pos;
			return 0;
		}
		d->rex = 0;
	}
}

/* 3DNow! opcodes that exist, by their imm8 suffix (AMD APM vol. 3). */
static const dcg_u8 suffix_3dnow[] = {
	0x0c, 0x0d, 0x1c, 0x1d, 0x8a, 0x8e, 0x90, 0x94, 0x96, 0x97, 0x9a,
	0x9e, 0xa0, 0xa4, 0xa6, 0xa7, 0xaa, 0xae, 0xb0, 0xb4, 0xb6, 0xb7,
	0xbb, 0xbf,
};

/*
 * 0F 0F: the real opcode is the last byte.  An unknown one is invalid,
 * and a sweep resumes right after the first 0F, as objdump does.
 */
static int check_3dnow(struct dec *d)
{
	unsigned int i;

	if (d->pos >= DCG_INSN_MAX_LEN)
		return DCG_INSN_EINVAL;
	if (d->pos >= d->avail)
		return DCG_INSN_ESHORT;
	for (i = 0; i < DCG_ARRAY_SIZE(suffix_3dnow); i++)
		if (d->buf[d->pos] == suffix_3dnow[i])
			return 0;
	return DCG_INSN_EINVAL;
}

/*
 * Two-byte-map groups whose missing ModRM.reg values a disassembler
 * must refuse: 6 (sldt ... verw), 12-14 (MMX/SSE shifts by imm8,
 * register operand only), 15 without prefix in register form (only
 * lfence/mfence/sfence).  punpck[lh]qdq exist only with 66.
 */
static int group_0f_valid(const struct dec *d, dcg_u8 op)
{
	unsigned int reg = (d->modrm >> 3) & 7, mod = d->modrm >> 6;

	switch (op) {
	case 0x00:
		return reg < 6;
	case 0x71:
	case 0x72:
		return mod == 3 && (reg == 2 || reg == 4 || reg == 6);
	case 0x73:
		return mod == 3 && (reg == 2 || reg == 6 ||
				    (d->opsize16 && (reg == 3 || reg == 7)));
	case 0xae:
		return mod != 3 || d->opsize16 || d->rep || reg >= 5;
	case 0x6c:
	case 0x6d:
		return d->opsize16;
	}
	return 1;
}

/*
 * VIA PadLock: 0F A6 C0/C8/D0 (montmul, xsha1, xsha256) and 0F A7
 * C0-E8 (xstore, xcrypt-*), ModRM fixed.  Anything else is invalid.
 * objdump resumes after the 0F when ModRM.reg names one of them, else
 * after the opcode.
 */
static int check_padlock(struct dec *d, dcg_u8 op)
{
	unsigned int last = op == 0xa6 ? 2 : 5;
	dcg_u8 m = d->modrm;

	if (m >= 0xc0 && !(m & 7) && ((m >> 3) & 7) <= last)
		return 0;
	if (((m >> 3) & 7) <= last)
		d->opcode_end -= 1;
	return DCG_INSN_EINVAL;
}

static int decode_0f(struct dec *d, struct dcg_insn *out, dcg_u8 *attrp)
{
	dcg_u8 op, op3, attr;
	int err;

	err = next_byte(d, &op);
	if (err)
		return err;
	if (op != 0x0f)
		d->opcode_end = d->pos;
	if (op == 0x38 || op == 0x3a) {
		err = next_byte(d, &op3);
		if (err)
			return err;
		d->opcode_end = d->pos;
		if (!in_set(op == 0x38 ? ops_0f38 : ops_0f3a, op3))
			return DCG_INSN_EINVAL;
		attr = op == 0x38 ? M : M | IB;
	} else {
		attr = map0f[op];
		if (attr & X)
			return DCG_INSN_EINVAL;
		/* lddqu is F2 0F F0; popcnt F3 0F B8 (plain 0F B8 is IA-64's jmpe) */
		if ((op == 0xf0 && d->rep != 0xf2) ||
		    (op == 0xb8 && d->rep != 0xf3))
			return DCG_INSN_EINVAL;
		/* SSE4a extrq/insertq with imm8, imm8 */
		if (op == 0x78 && (d->opsize16 || d->rep == 0xf2))
			attr = M | IW;
		classify_map0f(op, out);
		/* push/pop %fs/%gs */
		if (op == 0xa0 || op == 0xa1 || op == 0xa8 || op == 0xa9)
			out->flags |= DCG_INSN_RSP_WRITE;
		if (op >= 0x80 && op <= 0x8f)
			attr = IZ;
	}
	*attrp = attr;
	if (attr & M) {
		err = read_modrm(d);
		if (err)
			return err;
		/*
		 * mov to/from control and debug registers ignores mod: the
		 * operand is always a register, so no SIB or displacement.
		 */
		if (op >= 0x20 && op <= 0x23)
			return 0;
		if (op == 0xa6 || op == 0xa7)
			return check_padlock(d, op);
		if (!group_0f_valid(d, op))
			return DCG_INSN_EINVAL;
		err = skip_modrm_operand(d);
	}
	if (!err && op == 0x0f)
		err = check_3dnow(d);
	return err;
}

/* Finish: check the length, fill the target of direct branches. */
static int finish(struct dec *d, dcg_u64 ip, unsigned int immsz,
		  struct dcg_insn *out)
{
	unsigned int len = d->pos;

	if (len > DCG_INSN_MAX_LEN)
		return DCG_INSN_EINVAL;
	if (len > d->avail)
		return DCG_INSN_ESHORT;
	out->len = len;
	switch (out->branch) {
	case DCG_BR_CALL:
	case DCG_BR_JMP:
	case DCG_BR_JCC:
	case DCG_BR_LOOP:
		out->target = ip + len + read_rel(d->buf + len - immsz, immsz);
		out->flags |= DCG_INSN_HAS_TARGET;
		break;
	case DCG_BR_RET_IMM:
		out->ret_imm = read_le(d->buf + len - 2, 2);
		break;
	case DCG_BR_RET_FAR:
		if (immsz == 2)
			out->ret_imm = read_le(d->buf + len - 2, 2);
		break;
	}
	return len;
}

/* Prefix-derived flags once the branch class is known. */
static void set_prefix_flags(const struct dec *d, struct dcg_insn *out)
{
	unsigned int b = out->branch;
	int indirect = b == DCG_BR_CALL_IND || b == DCG_BR_JMP_IND;

	if (indirect && d->seg_ds)
		out->flags |= DCG_INSN_NOTRACK;
	if (d->rep == 0xf2 &&
	    (indirect || b == DCG_BR_CALL || b == DCG_BR_JMP ||
	     b == DCG_BR_JCC || b == DCG_BR_RET || b == DCG_BR_RET_IMM))
		out->flags |= DCG_INSN_BND;
}

/* A clean record: no length yet, no branch, no flags. */
static void clear_insn(struct dcg_insn *out)
{
	out->len = 0;
	out->branch = DCG_BR_OTHER;
	out->flags = 0;
	out->modrm_reg = 0xff;
	out->ret_imm = 0;
	out->pad = 0;
	out->target = 0;
}

/* The two-byte map (0F, 0F38, 0F3A) and the size of its immediate. */
static int decode_two_byte(struct dec *d, struct dcg_insn *out,
			   unsigned int *immsz)
{
	dcg_u8 attr;
	int err = decode_0f(d, out, &attr);

	if (err)
		return err;
	*immsz = imm_size(d, attr);
	/* near jcc rel32 ignores 66 in 64-bit mode (Intel) */
	if (out->branch == DCG_BR_JCC)
		*immsz = 4;
	return 0;
}

/* The one-byte map: ModRM and its checks, immediate, class, flags. */
static int decode_one_byte(struct dec *d, dcg_u8 op, struct dcg_insn *out,
			   unsigned int *immsz)
{
	dcg_u8 attr = map1[op];
	int err;

	if (attr & X)
		return DCG_INSN_EINVAL;
	if (op == 0x8f)
		attr = M;
	if (attr & M) {
		err = read_modrm(d);
		if (err)
			return err;
		if (!modrm_valid_map1(d, op))
			return DCG_INSN_EINVAL;
		err = skip_modrm_operand(d);
		if (err)
			return err;
		if (op >= 0xd8 && op <= 0xdf && !x87_valid(d, op))
			return x87_invalid(d);
	}
	*immsz = imm_size(d, attr);
	if ((attr & GRP3) && ((d->modrm >> 3) & 7) > 1)
		*immsz = 0;
	classify_map1(d, op, out);
	/* near call/jmp rel32 ignore 66 in 64-bit mode (Intel) */
	if (op == 0xe8 || op == 0xe9)
		*immsz = 4;
	if (is_string_op(op) && d->rep)
		out->flags |= DCG_INSN_REP;
	if (writes_rsp_map1(d, op))
		out->flags |= DCG_INSN_RSP_WRITE;
	return 0;
}

/* 8F is XOP when its next byte names map 8 or more, else pop r/m64. */
static int is_vex_prefix(const struct dec *d, dcg_u8 op)
{
	if (op == 0xc4 || op == 0xc5 || op == 0x62)
		return 1;
	return op == 0x8f && (d->buf[d->pos] & 0x1f) >= 8;
}

static int decode(struct dec *d, dcg_u64 ip, struct dcg_insn *out)
{
	unsigned int immsz = 0;
	dcg_u8 op;
	int err, vex;

	clear_insn(out);
	err = read_prefixes(d, &op);
	if (err)
		return err;
	if (op == 0x8f && d->pos >= d->avail)	/* XOP or pop: unknown yet */
		return d->pos >= DCG_INSN_MAX_LEN ? DCG_INSN_EINVAL :
						  DCG_INSN_ESHORT;
	vex = is_vex_prefix(d, op);
	if (vex)
		err = decode_vex(d, op, out);
	else if (op == 0x0f)
		err = decode_two_byte(d, out, &immsz);
	else
		err = decode_one_byte(d, op, out, &immsz);
	if (err)
		return err;
	if (!vex) {
		d->pos += immsz;
		set_prefix_flags(d, out);
	}
	if (d->has_modrm)
		out->modrm_reg = (d->modrm >> 3) & 7;
	return finish(d, ip, immsz, out);
}

DCG_API int dcg_insn_decode(const dcg_u8 *buf, unsigned int avail, dcg_u64 ip,
			    struct dcg_insn *out)
{
	struct dec d = { .buf = buf, .avail = avail };
	int ret = decode(&d, ip, out);

	/*
	 * For invalid bytes, len says how far a linear sweep should skip:
	 * the prefixes and opcode bytes, which is where objdump resumes
	 * after "(bad)".
	 */
	if (ret == DCG_INSN_EINVAL) {
		out->len = d.opcode_end ? d.opcode_end : 1;
		if (out->len > avail)
			out->len = avail;
		out->branch = DCG_BR_OTHER;
		out->flags = 0;
	}
	return ret;
}

static const char *const branch_names[DCG_BR_NR] = {
	[DCG_BR_OTHER]		= "-",
	[DCG_BR_CALL]		= "call",
	[DCG_BR_CALL_IND]	= "call*",
	[DCG_BR_CALL_FAR]	= "lcall",
	[DCG_BR_RET]		= "ret",
	[DCG_BR_RET_IMM]	= "ret$",
	[DCG_BR_RET_FAR]	= "lret",
	[DCG_BR_IRET]		= "iret",
	[DCG_BR_JMP]		= "jmp",
	[DCG_BR_JMP_IND]	= "jmp*",
	[DCG_BR_JMP_FAR]	= "ljmp",
	[DCG_BR_JCC]		= "jcc",
	[DCG_BR_LOOP]		= "loop",
	[DCG_BR_SYS]		= "sys",
};

DCG_API const char *dcg_branch_name(unsigned int branch)
{
	if (branch >= DCG_BR_NR)
		return "?";
	return branch_names[branch];
}
