/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-row.h — what the rows of the session's tables (jobs, tracks,
 * instances) share: the id the engine gave the thing they show (the "id"
 * property), the session's marks on them, and the clock their texts count
 * from. */
#pragma once

#include <glib-object.h>

#include "winnow.h"
#include "winnow-row-util.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_ROW (winnow_row_get_type ())
G_DECLARE_DERIVABLE_TYPE (WinnowRow, winnow_row, WINNOW, ROW, GObject)

struct _WinnowRowClass
{
  GObjectClass parent_class;

  gpointer padding[4];
};

const char     *winnow_row_get_id    (WinnowRow *self);
/* The session's bookkeeping on the row (winnow-row-util.h). */
WinnowRowMarks *winnow_row_get_marks (WinnowRow *self);
/* The clock the row's texts count from (no notification: views that show
 * them re-read the visible ones). */
WnTime          winnow_row_get_now   (WinnowRow *self);
void            winnow_row_set_now   (WinnowRow *self,
                                      WnTime     now);

/* For the subclasses: their constructor sets the id; _assign() takes on
 * another row's id and clock (TRUE if the id differed); _notify_all()
 * notifies "id" and then pspecs[1] .. pspecs[n_props - 1], in one
 * freeze/thaw (winnow-row-util.h says when). */
void            winnow_row_set_id    (WinnowRow  *self,
                                      const char *id);
gboolean        winnow_row_assign    (WinnowRow  *self,
                                      WinnowRow  *from);
void            winnow_row_notify_all (WinnowRow   *self,
                                       GParamSpec **pspecs,
                                       guint        n_props);

G_END_DECLS
