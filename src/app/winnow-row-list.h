/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-row-list.h — a list model over an array of row objects.
 *
 * What GListStore does, for the session's snapshot tables, with O(1) access by
 * position and an O(n) pointer compaction instead of a sequence node per row:
 * a snapshot that drops half of 10⁴ rows moves 40 KiB of pointers, and a pass
 * that reads every row (a live table's preview) costs no tree walk.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define WINNOW_TYPE_ROW_LIST (winnow_row_list_get_type ())
G_DECLARE_FINAL_TYPE (WinnowRowList, winnow_row_list, WINNOW, ROW_LIST, GObject)

WinnowRowList *winnow_row_list_new          (GType          item_type);
/* Borrowed; position < n_items. */
gpointer       winnow_row_list_peek         (WinnowRowList *self,
                                             guint          position);
/* Appends `n` rows (references are taken); one items-changed. */
void           winnow_row_list_append       (WinnowRowList *self,
                                             gpointer      *rows,
                                             guint          n);
/* Drops every row for which `keep` is FALSE (calling `dropped` on it first,
 * when given), keeping the order of the rest; one items-changed for each run
 * of dropped rows when there are few, else one for the whole list. */
void           winnow_row_list_filter       (WinnowRowList *self,
                                             gboolean     (*keep) (gpointer row, gpointer data),
                                             void         (*dropped) (gpointer row, gpointer data),
                                             gpointer       data);
/* Drops `rows` (those in the list; the rest are ignored), calling `dropped` on
 * each first, keeping the order of the rest, with the same items-changed as
 * winnow_row_list_filter: O(n log N) to find them, no pass over every row. */
void           winnow_row_list_remove       (WinnowRowList *self,
                                             gpointer      *rows,
                                             guint          n,
                                             void         (*dropped) (gpointer row, gpointer data),
                                             gpointer       data);
void           winnow_row_list_remove_all   (WinnowRowList *self);
/* The list becomes `rows` (references are taken), in that order: one
 * items-changed for what lies between the rows it keeps in front and at the
 * back. */
void           winnow_row_list_set          (WinnowRowList *self,
                                             gpointer      *rows,
                                             guint          n);

G_END_DECLS
