/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-table-view.h — one table of the tabs: a column view over a
 * WinnowLiveTable, its columns described by WinnowColumnSpec. The view shows
 * its rows only while it is mapped (its tab shows): a hidden table costs
 * nothing. Cells whose text depends on the clock are refreshed by
 * winnow_table_view_update(), once a frame; the session (a WinnowPanel's)
 * is the clock. */
#pragma once

#include <adwaita.h>

#include "winnow-live-table.h"
#include "winnow-panel.h"

G_BEGIN_DECLS

typedef enum {
  WINNOW_CELL_TEXT,
  WINNOW_CELL_MONO,
  WINNOW_CELL_NUMBER,
  WINNOW_CELL_STATE,
} WinnowCellKind;

typedef enum {
  WINNOW_SORT_NONE,
  WINNOW_SORT_NATURAL,
  WINNOW_SORT_NUMERIC,
} WinnowSortKind;

/* Sort keys read straight from the rows: a table of 10 000 rows sorts in
 * milliseconds without a property lookup per comparison. */
typedef const char *(*WinnowSortKeyFunc) (gpointer row);

typedef struct {
  const char        *id;
  const char        *title;          /* N_(): translated when shown */
  const char        *property;       /* shown; any type that converts to a string */
  WinnowCellKind     kind;
  gboolean           live;           /* depends on the clock: refreshed every frame */
  WinnowSortKind     sort;
  const char        *sort_property;  /* WINNOW_SORT_NUMERIC */
  WinnowSortKeyFunc  sort_key;       /* WINNOW_SORT_NATURAL */
  gboolean           expand;
  int                chars;
} WinnowColumnSpec;

#define WINNOW_TYPE_TABLE_VIEW (winnow_table_view_get_type ())
G_DECLARE_FINAL_TYPE (WinnowTableView, winnow_table_view, WINNOW, TABLE_VIEW, WinnowPanel)

/* Show `source` (rows of `row_type`) through `filter` (may be NULL) in the
 * columns `specs` (kept: static data); `assign` copies a row onto a display
 * row of the live preview. Replaces what the view showed. */
void             winnow_table_view_set_model   (WinnowTableView        *self,
                                                GListModel             *source,
                                                GType                   row_type,
                                                const WinnowColumnSpec *specs,
                                                guint                   n_specs,
                                                GtkFilter              *filter,
                                                WinnowAssignFunc        assign);
/* The models behind the view (borrowed; NULL before set_model). */
WinnowLiveTable *winnow_table_view_get_table   (WinnowTableView        *self);
/* The table shows its first rows while a big run plays (winnow-live-table.h). */
gboolean         winnow_table_view_is_live     (WinnowTableView        *self);
/* On the frame that shows the tabs: the live table follows the clock's mode
 * and its source, and the cells that show the clock are written anew. */
void             winnow_table_view_update      (WinnowTableView        *self);

G_END_DECLS
