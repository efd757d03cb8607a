/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-breakpoint-item.h — one of an engine's breakpoints as a list-model item
 * (wn_engine_get_breakpoint_model()). */
#pragma once

#if !defined (WINNOW_INSIDE) && !defined (WINNOW_COMPILATION)
# error "Only winnow.h can be included directly"
#endif

#include <glib-object.h>
#include "wn-journal.h"

G_BEGIN_DECLS

#define WN_TYPE_BREAKPOINT_ITEM (wn_breakpoint_item_get_type ())
G_DECLARE_FINAL_TYPE (WnBreakpointItem, wn_breakpoint_item, WN, BREAKPOINT_ITEM, GObject)

/* Read-only properties: "id" (guint), "kind" (WnEventKind), "phase"
 * (WnEventPhase), "node" (NULL: any node), "spec" (as wn_breakpoint_to_spec()
 * writes it), "enabled" and "hits" (this run's), which notify when the engine
 * changes them: "hits" from inside the run, as the event that hit is emitted
 * (a handler may show it, not drive the engine). */
guint         wn_breakpoint_item_get_id      (WnBreakpointItem *self);
WnEventKind   wn_breakpoint_item_get_kind    (WnBreakpointItem *self);
WnEventPhase  wn_breakpoint_item_get_phase   (WnBreakpointItem *self);
const char   *wn_breakpoint_item_get_node    (WnBreakpointItem *self);
gboolean      wn_breakpoint_item_get_enabled (WnBreakpointItem *self);
guint         wn_breakpoint_item_get_hits    (WnBreakpointItem *self);
/* "job.retriesExhausted", "node.entered@reserve" */
char         *wn_breakpoint_item_dup_spec    (WnBreakpointItem *self);

/* The spec wn_breakpoint_parse() reads: "KIND.PHASE" or "KIND.PHASE@NODE". */
char         *wn_breakpoint_to_spec          (WnEventKind kind, WnEventPhase phase, const char *node);

G_END_DECLS
