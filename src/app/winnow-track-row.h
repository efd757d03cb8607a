/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-track-row.h — a row of the Tracks table (a WinnowRow: its id, marks and clock). */
#pragma once

#include "winnow-row.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_TRACK_ROW (winnow_track_row_get_type ())
G_DECLARE_FINAL_TYPE (WinnowTrackRow, winnow_track_row, WINNOW, TRACK_ROW, WinnowRow)

WinnowTrackRow *winnow_track_row_new            (const char        *id);
/* Copy a track snapshot; `node_name` is what people call the node. Notifies
 * the properties that changed. */
void            winnow_track_row_update         (WinnowTrackRow    *self,
                                                 const WnTrackInfo *info,
                                                 const char        *node_name,
                                                 WnTime             now);
const char     *winnow_track_row_get_instance   (WinnowTrackRow    *self);
/* The id "i<n>/t<m>" as the engine numbers it: n and m. */
guint           winnow_track_row_get_instance_number (WinnowTrackRow *self);
guint           winnow_track_row_get_number     (WinnowTrackRow    *self);
const char     *winnow_track_row_get_node       (WinnowTrackRow    *self);
const char     *winnow_track_row_get_node_name  (WinnowTrackRow    *self);
WnTrackState    winnow_track_row_get_state      (WinnowTrackRow    *self);
WnTime          winnow_track_row_get_since      (WinnowTrackRow    *self);
const char     *winnow_track_row_get_job        (WinnowTrackRow    *self);
const char     *winnow_track_row_get_error      (WinnowTrackRow    *self);

G_END_DECLS
