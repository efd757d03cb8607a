/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-workers-page.h — the Workers tab: outside workers (issue 20). */
#pragma once

#include "winnow-panel.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_WORKERS_PAGE (winnow_workers_page_get_type ())
G_DECLARE_FINAL_TYPE (WinnowWorkersPage, winnow_workers_page, WINNOW, WORKERS_PAGE, WinnowPanel)

void winnow_workers_page_update (WinnowWorkersPage *self);

G_END_DECLS
