/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "winnow.h"
#include "winnow-journal.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_EVENT_ROW (winnow_event_row_get_type ())
G_DECLARE_FINAL_TYPE (WinnowEventRow, winnow_event_row, WINNOW, EVENT_ROW, GObject)

/* One journal event as a row object. Rows are made when someone asks for one
 * (a bound list row, a filter pass) and dropped after: the journal keeps the
 * events. */

/* Takes ownership of `event` (a wn_event_copy()). */
WinnowEventRow *winnow_event_row_new          (WnEvent         *event);
/* Event `index` of `journal` (a reference is taken on it). */
WinnowEventRow *winnow_event_row_new_for_journal (WinnowJournal *journal,
                                               guint            index);
const WnEvent  *winnow_event_row_get_event    (WinnowEventRow  *self);
/* The readable trace line (wn_event_append_text), built on first use. */
const char     *winnow_event_row_get_text     (WinnowEventRow  *self);
/* "failure", "retry", "inject", "clock", "success" or "" — a CSS class for the row. */
const char     *winnow_event_row_get_style    (WinnowEventRow  *self);
/* TRUE when the text contains `needle` (case-insensitive; needle must be casefolded). */
gboolean        winnow_event_row_matches      (WinnowEventRow  *self,
                                               const char      *folded_needle);

G_END_DECLS
