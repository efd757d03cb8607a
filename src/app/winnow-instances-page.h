/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-instances-page.h — the Instances tab: every instance of the run,
 * its state, times and outcome. */
#pragma once

#include "winnow-table-page.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_INSTANCES_PAGE (winnow_instances_page_get_type ())
G_DECLARE_FINAL_TYPE (WinnowInstancesPage, winnow_instances_page, WINNOW, INSTANCES_PAGE, WinnowTablePage)

G_END_DECLS
