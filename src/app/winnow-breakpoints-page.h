/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-breakpoints-page.h — the Breakpoints tab: every breakpoint with its
 * hits, a switch and a remove button, and the fields that add one. */
#pragma once

#include "winnow-panel.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_BREAKPOINTS_PAGE (winnow_breakpoints_page_get_type ())
G_DECLARE_FINAL_TYPE (WinnowBreakpointsPage, winnow_breakpoints_page, WINNOW, BREAKPOINTS_PAGE, WinnowPanel)

/* Add the breakpoint the kind dropdown shows (on the selected node for
 * node.entered), or say in the page why not. */
void winnow_breakpoints_page_add      (WinnowBreakpointsPage *self);
/* Add the breakpoint `spec` (kind.phase[@node]) names, or say in the
 * page's error label why not. */
void winnow_breakpoints_page_add_spec (WinnowBreakpointsPage *self,
                                       const char            *spec);

G_END_DECLS
