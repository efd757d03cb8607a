/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-dispatcher-page.h — the Dispatcher tab: the jobs in the
 * dispatcher's store, filtered by topic, state and the selected node. */
#pragma once

#include "winnow-table-page.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_DISPATCHER_PAGE (winnow_dispatcher_page_get_type ())
G_DECLARE_FINAL_TYPE (WinnowDispatcherPage, winnow_dispatcher_page, WINNOW, DISPATCHER_PAGE, WinnowTablePage)

G_END_DECLS
