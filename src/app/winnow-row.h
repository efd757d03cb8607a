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

  /* Copy the fields `from` (of the same class) shows onto `self`; TRUE if
   * any differed (the id and the clock are the base class's). */
  gboolean     (*assign) (WinnowRow *self,
                          WinnowRow *from);

  /* set by winnow_row_class_set_pspecs(): what notifies after an assign */
  GParamSpec **pspecs;
  guint        n_pspecs;

  gpointer padding[2];
};

const char     *winnow_row_get_id    (WinnowRow *self);
/* The session's bookkeeping on the row (winnow-row-util.h). */
WinnowRowMarks *winnow_row_get_marks (WinnowRow *self);
/* The clock the row's texts count from (no notification: views that show
 * them re-read the visible ones). */
WnTime          winnow_row_get_now   (WinnowRow *self);
void            winnow_row_set_now   (WinnowRow *self,
                                      WnTime     now);

/* Make `self` show what `from` (a row of the same class) shows, and say
 * so (winnow-row-util.h says how): the id, then the class's assign(); when
 * anything shown differed, "id" and every property the class named
 * (winnow_row_class_set_pspecs) notify, in one freeze/thaw. A
 * WinnowAssignFunc. */
void            winnow_row_assign_from (gpointer self,
                                        gpointer from);

/* For the subclasses: their constructor sets the id; class_init names the
 * class's property table, pspecs[1] .. pspecs[n_props - 1] (kept: static). */
void            winnow_row_set_id    (WinnowRow  *self,
                                      const char *id);
void            winnow_row_class_set_pspecs (WinnowRowClass *klass,
                                             GParamSpec    **pspecs,
                                             guint           n_props);

G_END_DECLS
