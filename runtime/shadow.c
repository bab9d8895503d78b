// SPDX-License-Identifier: GPL-2.0
/*
 * shadow.c - the bounded shadow call stack.  Freestanding.
 *
 * The host owns the frame array.  Past its end the stack keeps counting
 * depth without storing frames, so that returns still balance; the
 * engine (thread.c) flags those frames DCG_EVF_OVERFLOW.
 */
#include "dcg_core.h"

DCG_API void dcg_shadow_init(struct dcg_shadow *s, struct dcg_frame *frames,
			     dcg_u32 cap)
{
	s->frames = frames;
	s->cap = frames ? cap : 0;
	s->depth = 0;
	s->overflow = 0;
}

DCG_API struct dcg_frame *dcg_shadow_push(struct dcg_shadow *s,
					  const struct dcg_frame *f)
{
	struct dcg_frame *slot;

	if (s->depth >= s->cap) {
		s->overflow++;
		/* Saturate rather than wrap to 0 and lose every frame. */
		if (s->depth != (dcg_u32)-1)
			s->depth++;
		return NULL;
	}
	slot = &s->frames[s->depth++];
	slot->func = f->func;
	slot->ret_addr = f->ret_addr;
	slot->sp = f->sp;
	slot->ts = f->ts;
	slot->flags = f->flags;
	slot->pad = 0;
	return slot;
}

DCG_API void dcg_shadow_pop(struct dcg_shadow *s)
{
	if (s->depth > 0)
		s->depth--;
}

DCG_API struct dcg_frame *dcg_shadow_top(struct dcg_shadow *s)
{
	if (s->depth == 0 || s->depth > s->cap)
		return NULL;
	return &s->frames[s->depth - 1];
}
