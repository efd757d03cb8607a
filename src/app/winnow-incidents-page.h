/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-incidents-page.h — the Incidents tab: every open incident, with
 * its Retry, Resolve and Cancel Instance buttons. */
#pragma once

#include "winnow-panel.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_INCIDENTS_PAGE (winnow_incidents_page_get_type ())
G_DECLARE_FINAL_TYPE (WinnowIncidentsPage, winnow_incidents_page, WINNOW, INCIDENTS_PAGE, WinnowPanel)

/* Catch up with the session's incidents; cheap when none changed. */
void           winnow_incidents_page_update      (WinnowIncidentsPage *self);

G_END_DECLS
