/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-instances-page.h — the Instances tab: every instance of the run,
 * its state, times and outcome. */
#pragma once

#include "winnow-panel.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_INSTANCES_PAGE (winnow_instances_page_get_type ())
G_DECLARE_FINAL_TYPE (WinnowInstancesPage, winnow_instances_page, WINNOW, INSTANCES_PAGE, WinnowPanel)

/* On the frame that shows the tabs: the table and its empty state. */
void     winnow_instances_page_update  (WinnowInstancesPage *self);
/* The table shows its first rows while a big run plays (winnow-live-table.h). */
gboolean winnow_instances_page_is_live (WinnowInstancesPage *self);

G_END_DECLS
