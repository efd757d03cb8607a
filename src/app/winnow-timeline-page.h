/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-timeline-page.h — the Timeline tab: a lane per job on the virtual
 * clock (WinnowTimeline), its legend and its zoom buttons. */
#pragma once

#include "winnow-panel.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_TIMELINE_PAGE (winnow_timeline_page_get_type ())
G_DECLARE_FINAL_TYPE (WinnowTimelinePage, winnow_timeline_page, WINNOW, TIMELINE_PAGE, WinnowPanel)

/* Catch up with the session's clock and trace. */
void winnow_timeline_page_update (WinnowTimelinePage *self);
/* In (direction > 0), out (< 0), or fit the whole run (0). */
void winnow_timeline_page_zoom   (WinnowTimelinePage *self,
                                  int                 direction);

G_END_DECLS
