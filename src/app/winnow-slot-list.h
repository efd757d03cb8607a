/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-slot-list.h — a list model whose items stay at their positions.
 *
 * GTK 4.8's list views destroy the row widgets of every item that leaves
 * their model and make new ones for every item that enters it (they reuse
 * only an item that comes back). A time travel replaces most of a table's
 * rows by others at once, so a view over the rows themselves pays for a few
 * hundred rows of widgets each way. A slot list stands in front of such a
 * model: its item at position i is a display row (a slot) that shows what
 * the model's item at i shows, through an assign function. When the model
 * changes, the slots take on their new rows in place and only the count
 * changes, at the end; the views rebind nothing, their cells follow the
 * slots' notifies.
 *
 * A slot exists while someone holds it (the view's realized rows, the
 * selection): the list keeps a weak pointer to each, so a change costs what
 * the view shows, not the model's size. A slot also follows its row's own
 * changes (the row's notifies), as the row's widgets would.
 *
 * Growth can be paced: GTK 4.8's list views make widgets for up to 200 rows
 * around their anchor as soon as the rows exist, though a window shows some
 * thirty, so a table that goes from none to hundreds (a scrub back from a
 * run's end, where every job is done) would pay for 200 rows before its first
 * frame. With a pace, the list tells that many more rows at once and the
 * rest as its view asks (winnow_slot_list_catch_up, once a frame): the first
 * frame shows the first rows, each later one adds a pace more.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Makes display row `self` show what source row `from` shows. */
typedef void (*WinnowAssignFunc) (gpointer self, gpointer from);

#define WINNOW_TYPE_SLOT_LIST (winnow_slot_list_get_type ())
G_DECLARE_FINAL_TYPE (WinnowSlotList, winnow_slot_list, WINNOW, SLOT_LIST, GObject)

/* Slots over `model` (referenced), of `item_type` (GTK 4.8's filter and
 * sort models say only G_TYPE_OBJECT), made with g_object_new() and filled
 * by `assign`. */
WinnowSlotList *winnow_slot_list_new        (GListModel       *model,
                                             GType             item_type,
                                             WinnowAssignFunc  assign);
/* Shows `model` (referenced) instead: the held slots take on its rows and
 * the views hear of the count alone, as for a change of the model. */
void            winnow_slot_list_set_model  (WinnowSlotList   *self,
                                             GListModel       *model);
/* The model's item at `position` (a new reference), or NULL past its end:
 * what the slot there shows (or will, once told), without making the slot. */
gpointer        winnow_slot_list_get_source (WinnowSlotList   *self,
                                             guint             position);
/* The model's position of `row`, or G_MAXUINT. */
guint           winnow_slot_list_find       (WinnowSlotList   *self,
                                             gpointer          row);
/* At most `rows` more positions told at once when the model grows (0, the
 * default: all at once; setting 0 tells the rest now). */
void            winnow_slot_list_set_pace   (WinnowSlotList   *self,
                                             guint             rows);
/* The model has rows not told yet. */
gboolean        winnow_slot_list_is_behind  (WinnowSlotList   *self);
/* Tells a pace more rows, and at least up to `position` when it is one of
 * the model's (G_MAXUINT: none). */
void            winnow_slot_list_catch_up   (WinnowSlotList   *self,
                                             guint             position);
/* TRUE while the list takes on a change of its model: a selection that moves
 * meanwhile moves with the change, not by the user. */
gboolean        winnow_slot_list_is_changing (WinnowSlotList  *self);
/* How many slots exist now (held by someone): for tests and benches. */
guint           winnow_slot_list_get_n_slots (WinnowSlotList  *self);

G_END_DECLS
