/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-tracks-page.h — the Tracks tab: every live track, or those at the
 * selected node. */
#pragma once

#include "winnow-panel.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_TRACKS_PAGE (winnow_tracks_page_get_type ())
G_DECLARE_FINAL_TYPE (WinnowTracksPage, winnow_tracks_page, WINNOW, TRACKS_PAGE, WinnowPanel)

/* On the frame that shows the tabs: the table and its empty state. */
void     winnow_tracks_page_update  (WinnowTracksPage *self);
/* The table shows its first rows while a big run plays (winnow-live-table.h). */
gboolean winnow_tracks_page_is_live (WinnowTracksPage *self);

G_END_DECLS
