// SPDX-License-Identifier: GPL-2.0
/*
 * dcg_core_static.c - the runtime core inside a kernel module with
 * DCG_API static, as the tapset includes it.  Only built, never loaded.
 */
#define DCG_API static __maybe_unused
#include "dcg_core_kmod.h"
