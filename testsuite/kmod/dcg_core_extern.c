// SPDX-License-Identifier: GPL-2.0
/*
 * dcg_core_extern.c - the runtime core inside a kernel module, its entry
 * points global.  Only built, never loaded, by the test suite.
 */
#include "dcg_core_kmod.h"
