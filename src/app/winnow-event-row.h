#pragma once

#include <glib-object.h>

#include "winnow.h"

G_BEGIN_DECLS

/* One journal event, shared by the session's log and the rows made for it:
 * the log stores these (cheap), a row object exists only while a view or a
 * caller holds it. */
typedef struct _WinnowEventData WinnowEventData;

WinnowEventData *winnow_event_data_new        (WnEvent         *event);
WinnowEventData *winnow_event_data_ref        (WinnowEventData *data);
void             winnow_event_data_unref      (WinnowEventData *data);
const WnEvent   *winnow_event_data_get_event  (WinnowEventData *data);

#define WINNOW_TYPE_EVENT_ROW (winnow_event_row_get_type ())
G_DECLARE_FINAL_TYPE (WinnowEventRow, winnow_event_row, WINNOW, EVENT_ROW, GObject)

/* Takes ownership of `event` (a wn_event_copy()). */
WinnowEventRow *winnow_event_row_new          (WnEvent         *event);
/* Takes a reference on `data`. */
WinnowEventRow *winnow_event_row_new_for_data (WinnowEventData *data);
const WnEvent  *winnow_event_row_get_event    (WinnowEventRow  *self);
/* The readable trace line (wn_event_append_text), built on first use. */
const char     *winnow_event_row_get_text     (WinnowEventRow  *self);
/* "failure", "retry", "inject", "clock", "success" or "" — a CSS class for the row. */
const char     *winnow_event_row_get_style    (WinnowEventRow  *self);
/* TRUE when the text contains `needle` (case-insensitive; needle must be casefolded). */
gboolean        winnow_event_row_matches      (WinnowEventRow  *self,
                                               const char      *folded_needle);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WinnowEventData, winnow_event_data_unref)

G_END_DECLS
