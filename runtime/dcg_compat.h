/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcg_compat.h - the only header the freestanding core includes.
 *
 * The core (the .c files in runtime/) must compile unchanged inside a kernel module
 * and in user space, with no libc and no kernel headers.  Everything it
 * needs from its host (fixed-width types, bool, NULL) comes from here.
 * In the kernel the types come from <linux/types.h>, so that they are
 * the kernel's own; in user space from the compiler's freestanding
 * <stdint.h>/<stddef.h>/<stdbool.h>, which gcc ships with -ffreestanding.
 */
#ifndef DCG_COMPAT_H
#define DCG_COMPAT_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/stddef.h>
typedef s8  dcg_s8;
typedef s16 dcg_s16;
typedef s32 dcg_s32;
typedef s64 dcg_s64;
typedef u8  dcg_u8;
typedef u16 dcg_u16;
typedef u32 dcg_u32;
typedef u64 dcg_u64;
#else
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
typedef int8_t   dcg_s8;
typedef int16_t  dcg_s16;
typedef int32_t  dcg_s32;
typedef int64_t  dcg_s64;
typedef uint8_t  dcg_u8;
typedef uint16_t dcg_u16;
typedef uint32_t dcg_u32;
typedef uint64_t dcg_u64;
#endif

/*
 * The core is compiled into stap modules through the tapset's %{ %}
 * include, possibly next to other translation units: keep its external
 * symbols static there.  DCG_API marks the core's entry points.
 */
#ifndef DCG_API
#define DCG_API
#endif

#define DCG_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * A deliberate fall-through between switch cases.  Kernel builds use
 * -Wimplicit-fallthrough=5, which accepts the attribute, not a comment.
 */
#if defined(__has_attribute)
#if __has_attribute(__fallthrough__)
#define dcg_fallthrough __attribute__((__fallthrough__))
#endif
#endif
#ifndef dcg_fallthrough
#define dcg_fallthrough do { } while (0)
#endif

#if defined(__GNUC__)
#define dcg_likely(x)   __builtin_expect(!!(x), 1)
#define dcg_unlikely(x) __builtin_expect(!!(x), 0)
#else
#define dcg_likely(x)   (x)
#define dcg_unlikely(x) (x)
#endif

#endif /* DCG_COMPAT_H */
