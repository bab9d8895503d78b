/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcg_core_kmod.h - the body shared by the two test modules: the core's
 * .c files included as the tapset includes them, and an init function
 * that uses the engine so that nothing is optimized away unchecked.
 */
#include <linux/module.h>
#include <linux/init.h>

#include "insn.c"
#include "classify.c"
#include "shadow.c"
#include "thread.c"
#include "args.c"

static int dcg_kmod_read(void *ctx, dcg_u64 addr, void *buf, unsigned int len)
{
	static const dcg_u8 ret_insn = 0xc3;

	if (addr != (unsigned long)&ret_insn || len == 0)
		return 0;
	*(dcg_u8 *)buf = ret_insn;
	return 1;
}

static void dcg_kmod_emit(void *ctx, const struct dcg_rec_event *ev)
{
}

static int __init dcg_kmod_init(void)
{
	static struct dcg_frame frames[4];
	struct dcg_thread t;
	struct dcg_host_ops ops = {
		.read = dcg_kmod_read,
		.emit = dcg_kmod_emit,
	};

	dcg_thread_init(&t, DCG_MODE_STEP, frames, DCG_ARRAY_SIZE(frames));
	dcg_thread_begin_here(&t, 0, 0, 0);
	dcg_thread_stop(&t, 8, 8, 1, &ops);
	dcg_thread_end(&t, 2, &ops);
	return 0;
}

static void __exit dcg_kmod_exit(void)
{
}

module_init(dcg_kmod_init);
module_exit(dcg_kmod_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("dyncg runtime core build check");
