/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-tracks-page.h — the Tracks tab: every live track, or those at the
 * selected node. */
#pragma once

#include "winnow-table-page.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_TRACKS_PAGE (winnow_tracks_page_get_type ())
G_DECLARE_FINAL_TYPE (WinnowTracksPage, winnow_tracks_page, WINNOW, TRACKS_PAGE, WinnowTablePage)

G_END_DECLS
