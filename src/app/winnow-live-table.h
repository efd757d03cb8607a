/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-live-table.h — the models behind one table, and how it follows a run.
 *
 * source → filter → sort → slots → selection: a GTK table with one more link.
 * The view shows slots (winnow-slot-list.h), display rows that stay at their
 * positions and take on the rows there, so a change that replaces rows (a
 * time travel replaces most of them) remakes no row widgets; the selection
 * stays with its row all the same.
 *
 * What this adds besides is the big run: GTK 4.8's column view rebinds every
 * realized row of a model that changes, and a filter or sort model pays for
 * every source row that moves, so a Monte-Carlo run that moves thousands of
 * rows a frame cannot feed them. While the clock runs and the table is big,
 * the table is *live*: its filter and sort models are cut from the source
 * (they see no change at all) and the slots show a preview instead: the
 * table's first rows — the ones the filter and the sort would put first —
 * recomputed with one pass over the source whenever the source changed. When
 * the clock stops, the chain is joined again and the slots show every row.
 * Either way the view keeps its row widgets: the switch, like a travel, is a
 * change of what the slots show and of their count.
 */
#pragma once

#include <gtk/gtk.h>

#include "winnow-slot-list.h"

G_BEGIN_DECLS

/* A table with more rows than this goes live while the clock runs: GTK 4.8's
 * list views keep up to 200 rows realized (GTK_LIST_VIEW_MAX_LIST_ITEMS), so
 * past it a changing table costs 200 rows of cells. */
#define WINNOW_LIVE_TABLE_BIG  200
/* How many rows a live table shows. */
#define WINNOW_LIVE_TABLE_ROWS 40

#define WINNOW_TYPE_LIVE_TABLE (winnow_live_table_get_type ())
G_DECLARE_FINAL_TYPE (WinnowLiveTable, winnow_live_table, WINNOW, LIVE_TABLE, GObject)

/* `filter` may be NULL; `sorter` is the column view's; `assign` copies one
 * row of the source's item type into another (a display row). */
WinnowLiveTable   *winnow_live_table_new            (GListModel       *source,
                                                     GtkFilter        *filter,
                                                     GtkSorter        *sorter,
                                                     WinnowAssignFunc  assign);
/* What the view shows (a GtkSingleSelection; borrowed). */
GtkSelectionModel *winnow_live_table_get_selection  (WinnowLiveTable *self);
/* The source row the view shows at `position` (a new reference), or NULL past
 * the table's end: the view's items are display rows, and a paced table may
 * not have told every position yet (winnow-slot-list.h). */
gpointer           winnow_live_table_get_row        (WinnowLiveTable *self,
                                                     guint            position);
/* Selects `position` (as winnow_live_table_get_row counts; telling it first
 * when the table is behind), or nothing (GTK_INVALID_LIST_POSITION). */
void               winnow_live_table_select         (WinnowLiveTable *self,
                                                     guint            position);
/* The slots the view shows (borrowed). */
WinnowSlotList    *winnow_live_table_get_slots      (WinnowLiveTable *self);
/* Rows that pass the filter, live or not. */
guint              winnow_live_table_get_n_matching (WinnowLiveTable *self);
gboolean           winnow_live_table_is_live        (WinnowLiveTable *self);
/* The clock runs (or stops). A big table goes live while it runs and stays
 * live until it stops: switching back and forth mid-run would cost more than
 * it shows. */
void               winnow_live_table_set_running    (WinnowLiveTable *self,
                                                     gboolean         running);
/* Called once a frame: a live table recomputes its preview when its source
 * changed since the last time, at least every so often when it is sorted or
 * filtered (rows change in place, and with them their order), or `now`. */
void               winnow_live_table_update         (WinnowLiveTable *self,
                                                     gboolean         now);
/* TRUE while the table itself moves the selection: to the same row at a new
 * place, or across a switch between preview and full table.
 * A selection handler ignores those; only the user's choices are news. */
gboolean           winnow_live_table_is_following   (WinnowLiveTable *self);

G_END_DECLS
