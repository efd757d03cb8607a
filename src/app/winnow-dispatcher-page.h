/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-dispatcher-page.h — the Dispatcher tab: the jobs in the
 * dispatcher's store, filtered by topic, state and the selected node. */
#pragma once

#include "winnow-panel.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_DISPATCHER_PAGE (winnow_dispatcher_page_get_type ())
G_DECLARE_FINAL_TYPE (WinnowDispatcherPage, winnow_dispatcher_page, WINNOW, DISPATCHER_PAGE, WinnowPanel)

/* On the frame that shows the tabs: the table, its count and empty state. */
void     winnow_dispatcher_page_update  (WinnowDispatcherPage *self);
/* The table shows its first rows while a big run plays (winnow-live-table.h). */
gboolean winnow_dispatcher_page_is_live (WinnowDispatcherPage *self);

G_END_DECLS
