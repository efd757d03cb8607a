/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The live table behind the big tables (src/app/winnow-live-table.c): its
 * preview follows rows that change in place, the selection stays on its row
 * across play and pause and while the row moves, and those moves are told
 * apart from the user's; a travel that replaces the rows, and a switch
 * between preview and full table, reach the view as a count alone
 * (winnow-slot-list.h). Needs GTK (a sorter and list models),
 * no window. */
#include "config.h"

#include <gtk/gtk.h>

#include "winnow.h"
#include "winnow-live-table.h"
#include "winnow-row-list.h"
#include "winnow-slot-list.h"
#include "winnow-track-row.h"
#include "wn-test-util.h"

#define N_ROWS 300

typedef struct {
  WinnowRowList      *list;
  WinnowLiveTable    *table;
  GtkSingleSelection *selection;
  guint               user_changes;  /* selection notifies not marked as following */
} Fixture;

static void
set_track (WinnowTrackRow *row,
           guint           n,
           WnTrackState    state)
{
  g_autofree char *id = g_strdup_printf ("i%u/t1", n);
  g_autofree char *instance = g_strdup_printf ("i%u", n);
  WnTrackInfo info = { id, instance, "work", state, 0, NULL, NULL };

  winnow_track_row_update (row, &info, "Work", 0);
}

static void
selection_cb (GtkSingleSelection *selection,
              GParamSpec         *pspec,
              Fixture            *f)
{
  if (!winnow_live_table_is_following (f->table))
    f->user_changes++;
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  f->list = winnow_row_list_new (WINNOW_TYPE_TRACK_ROW);
  for (guint i = 0; i < N_ROWS; i++)
    {
      g_autofree char *id = g_strdup_printf ("i%u/t1", i + 1);
      WinnowTrackRow *row = winnow_track_row_new (id);
      gpointer p = row;

      set_track (row, i + 1, WN_TRACK_PARKED);
      winnow_row_list_append (f->list, &p, 1);
      g_object_unref (row);
    }
  /* no filter and no sort order: the preview is the first rows */
  f->table = winnow_live_table_new (G_LIST_MODEL (f->list), NULL, NULL,
                                    winnow_row_assign_from);
  f->selection = GTK_SINGLE_SELECTION (winnow_live_table_get_selection (f->table));
  g_signal_connect (f->selection, "notify::selected-item", G_CALLBACK (selection_cb), f);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_signal_handlers_disconnect_by_data (f->selection, f);
  g_clear_object (&f->table);
  g_clear_object (&f->list);
}

static const char *
selected_id (Fixture *f)
{
  WinnowTrackRow *row = gtk_single_selection_get_selected_item (f->selection);

  return row != NULL ? winnow_row_get_id (WINNOW_ROW (row)) : NULL;
}

/* A row that changes in place (the source says nothing) shows the change
 * in the preview at once: the item the view holds follows its row's
 * notifies. */
static void
test_in_place (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(WinnowTrackRow) shown = NULL;

  winnow_live_table_set_running (f->table, TRUE);
  g_assert_true (winnow_live_table_is_live (f->table));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f->selection)), ==, WINNOW_LIVE_TABLE_ROWS);
  shown = g_list_model_get_item (G_LIST_MODEL (f->selection), 2);
  g_assert_cmpint (winnow_track_row_get_state (shown), ==, WN_TRACK_PARKED);
  set_track (winnow_row_list_peek (f->list, 2), 3, WN_TRACK_DONE);
  g_assert_cmpstr (winnow_row_get_id (WINNOW_ROW (shown)), ==, "i3/t1");
  g_assert_cmpint (winnow_track_row_get_state (shown), ==, WN_TRACK_DONE);
}

/* Play and pause keep the selected row; neither is the user's choice. */
static void
test_selection_across_switches (Fixture       *f,
                                gconstpointer  data)
{
  gtk_single_selection_set_selected (f->selection, 5);
  g_assert_cmpstr (selected_id (f), ==, "i6/t1");
  f->user_changes = 0;

  winnow_live_table_set_running (f->table, TRUE);
  g_assert_true (winnow_live_table_is_live (f->table));
  g_assert_cmpstr (selected_id (f), ==, "i6/t1");

  gtk_single_selection_set_selected (f->selection, 7);
  g_assert_cmpuint (f->user_changes, ==, 1);
  f->user_changes = 0;

  winnow_live_table_set_running (f->table, FALSE);
  g_assert_false (winnow_live_table_is_live (f->table));
  g_assert_cmpstr (selected_id (f), ==, "i8/t1");
  g_assert_cmpuint (f->user_changes, ==, 0);
}

static gboolean
keep_all_but_first (gpointer row,
                    gpointer data)
{
  return g_strcmp0 (winnow_row_get_id (WINNOW_ROW (row)), "i1/t1") != 0;
}

/* When rows before it leave, the selection moves with its row, and the move
 * is marked as the table's own. */
static void
test_selection_follows_row (Fixture       *f,
                            gconstpointer  data)
{
  winnow_live_table_set_running (f->table, TRUE);
  gtk_single_selection_set_selected (f->selection, 3);
  g_assert_cmpstr (selected_id (f), ==, "i4/t1");
  f->user_changes = 0;

  winnow_row_list_filter (f->list, keep_all_but_first, NULL, NULL);
  winnow_live_table_update (f->table, FALSE);
  g_assert_cmpuint (gtk_single_selection_get_selected (f->selection), ==, 2);
  g_assert_cmpstr (selected_id (f), ==, "i4/t1");
  g_assert_cmpuint (f->user_changes, ==, 0);
}

typedef struct {
  guint n;         /* the selection's count as its items-changed tell it */
  guint mismatches;
} Tally;

static void
tally_cb (GListModel *model,
          guint       position,
          guint       removed,
          guint       added,
          Tally      *tally)
{
  if (position + removed > tally->n)
    tally->mismatches++;
  tally->n = tally->n - removed + added;
  if (tally->n != g_list_model_get_n_items (model))
    tally->mismatches++;
}

static gboolean
odd_instances (gpointer row,
               gpointer data)
{
  const char *id = winnow_row_get_id (WINNOW_ROW (row));

  return (g_ascii_strtoull (id + 1, NULL, 10) % 2) == 1;
}

/* A filter that keeps every row says so (GTK_FILTER_MATCH_ALL, as a custom
 * filter without a function does), and so does no filter at all: a table
 * under either that outgrows the limit mid-run goes live with every count
 * its view is told in step (GTK's views crash otherwise), and the preview
 * follows the filter as it comes and goes. */
static void
test_filter_keeps_all (gconstpointer data)
{
  gboolean with_filter = GPOINTER_TO_INT (data);
  g_autoptr(WinnowRowList) list = winnow_row_list_new (WINNOW_TYPE_TRACK_ROW);
  g_autoptr(GtkFilter) filter = with_filter ? GTK_FILTER (gtk_custom_filter_new (NULL, NULL, NULL)) : NULL;
  g_autoptr(WinnowLiveTable) table = NULL;
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  GListModel *selection;
  Tally tally = { 0, 0 };

  if (filter != NULL)
    g_assert_cmpint (gtk_filter_get_strictness (filter), ==, GTK_FILTER_MATCH_ALL);
  table = winnow_live_table_new (G_LIST_MODEL (list), filter, NULL, winnow_row_assign_from);
  selection = G_LIST_MODEL (winnow_live_table_get_selection (table));
  g_signal_connect (selection, "items-changed", G_CALLBACK (tally_cb), &tally);
  winnow_live_table_set_running (table, TRUE);
  g_assert_false (winnow_live_table_is_live (table));

  for (guint i = 0; i < N_ROWS; i++)
    {
      g_autofree char *id = g_strdup_printf ("i%u/t1", i + 1);
      WinnowTrackRow *row = winnow_track_row_new (id);

      set_track (row, i + 1, WN_TRACK_PARKED);
      g_ptr_array_add (rows, row);
    }
  winnow_row_list_append (list, rows->pdata, rows->len);
  g_assert_true (winnow_live_table_is_live (table));
  g_assert_cmpuint (tally.mismatches, ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (selection), ==, WINNOW_LIVE_TABLE_ROWS);
  g_assert_cmpuint (winnow_live_table_get_n_matching (table), ==, N_ROWS);
  if (filter == NULL)
    {
      winnow_live_table_set_running (table, FALSE);
      g_assert_cmpuint (g_list_model_get_n_items (selection), ==, N_ROWS);
      g_assert_cmpuint (tally.mismatches, ==, 0);
      g_signal_handlers_disconnect_by_data (selection, &tally);
      return;
    }

  gtk_custom_filter_set_filter_func (GTK_CUSTOM_FILTER (filter), odd_instances, NULL, NULL);
  g_assert_cmpuint (winnow_live_table_get_n_matching (table), ==, N_ROWS / 2);
  winnow_live_table_set_running (table, FALSE);
  g_assert_false (winnow_live_table_is_live (table));
  g_assert_cmpuint (g_list_model_get_n_items (selection), ==, N_ROWS / 2);

  gtk_custom_filter_set_filter_func (GTK_CUSTOM_FILTER (filter), NULL, NULL, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (selection), ==, N_ROWS);
  g_assert_cmpuint (tally.mismatches, ==, 0);
  g_signal_handlers_disconnect_by_data (selection, &tally);
}

static void
tally_removals_cb (GListModel *model,
                   guint       position,
                   guint       removed,
                   guint       added,
                   Tally      *tally)
{
  /* a change that is not the count's alone, at the end */
  if (removed > 0 && added > 0)
    tally->mismatches++;
  if (removed > 0 && position + removed != tally->n)
    tally->mismatches++;
  if (added > 0 && position != tally->n)
    tally->mismatches++;
  tally->n = tally->n - removed + added;
}

static WinnowTrackRow *
new_track (guint n)
{
  g_autofree char *id = g_strdup_printf ("i%u/t1", n);
  WinnowTrackRow *row = winnow_track_row_new (id);

  set_track (row, n, WN_TRACK_PARKED);
  return row;
}

/* A travel: the list becomes other objects, some for the same entities. The
 * view's items stay where they were (no change reaches it but the count's, at
 * the end), the ones it holds show the rows now at their places, the
 * selection stays on its entity's row wherever that went, none of it the
 * user's, and only the held items exist. */
static void
test_travel_in_place (Fixture       *f,
                      gconstpointer  data)
{
  GListModel *model = G_LIST_MODEL (f->selection);
  g_autoptr(GPtrArray) held = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(WinnowTrackRow) kept = NULL;
  g_autoptr(GObject) item = NULL;
  Tally tally = { N_ROWS, 0 };

  g_assert_false (winnow_live_table_is_live (f->table));
  for (guint i = 0; i < 20; i++)
    g_ptr_array_add (held, g_list_model_get_item (model, i));
  gtk_single_selection_set_selected (f->selection, 5);
  g_assert_cmpstr (selected_id (f), ==, "i6/t1");
  f->user_changes = 0;
  g_signal_connect (model, "items-changed", G_CALLBACK (tally_removals_cb), &tally);

  /* i6 keeps its object and moves to position 2; every other row is new;
   * the list shrinks by half */
  kept = g_object_ref (winnow_row_list_peek (f->list, 5));
  for (guint n = 101; n <= 102; n++)
    g_ptr_array_add (rows, new_track (n));
  g_ptr_array_add (rows, g_object_ref (kept));
  for (guint n = 103; n < 103 + N_ROWS / 2 - 3; n++)
    g_ptr_array_add (rows, new_track (n));
  winnow_row_list_set (f->list, rows->pdata, rows->len);

  g_assert_cmpuint (tally.mismatches, ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, N_ROWS / 2);
  g_assert_cmpstr (winnow_row_get_id (g_ptr_array_index (held, 0)), ==, "i101/t1");
  g_assert_cmpstr (winnow_row_get_id (g_ptr_array_index (held, 2)), ==, "i6/t1");
  g_assert_cmpstr (winnow_row_get_id (g_ptr_array_index (held, 19)), ==, "i119/t1");
  item = g_list_model_get_item (model, 19);
  g_assert_true (item == g_ptr_array_index (held, 19));   /* the same item, in place */
  g_assert_cmpuint (gtk_single_selection_get_selected (f->selection), ==, 2);
  g_assert_cmpstr (selected_id (f), ==, "i6/t1");
  g_assert_cmpuint (f->user_changes, ==, 0);

  /* a held item follows its row's own changes */
  set_track (g_ptr_array_index (rows, 0), 101, WN_TRACK_INCIDENT);
  g_assert_cmpint (winnow_track_row_get_state (g_ptr_array_index (held, 0)), ==, WN_TRACK_INCIDENT);

  /* the selected row leaves: nothing is selected, and that is not the user's either */
  g_ptr_array_remove_index (rows, 2);
  winnow_row_list_set (f->list, rows->pdata, rows->len);
  g_assert_cmpuint (tally.mismatches, ==, 0);
  g_assert_cmpuint (gtk_single_selection_get_selected (f->selection), ==, GTK_INVALID_LIST_POSITION);
  g_assert_cmpstr (winnow_row_get_id (g_ptr_array_index (held, 2)), ==, "i103/t1");
  g_assert_cmpuint (f->user_changes, ==, 0);

  /* let the items go: no item is kept for a view that holds none */
  g_signal_handlers_disconnect_by_data (model, &tally);
  g_clear_object (&item);
  g_ptr_array_set_size (held, 0);
  winnow_row_list_remove_all (f->list);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 0);
}

static gboolean
keep_past_five (gpointer row,
                gpointer data)
{
  const char *id = winnow_row_get_id (WINNOW_ROW (row));

  return g_ascii_strtoull (id + 1, NULL, 10) > 5;
}

/* Play and pause keep the view's items too: the preview and the full table
 * are two things the same slots show, so the switch reaches the view as a
 * count at the end, and the items it held show the rows now at their
 * places. */
static void
test_switch_in_place (Fixture       *f,
                      gconstpointer  data)
{
  GListModel *model = G_LIST_MODEL (f->selection);
  g_autoptr(GPtrArray) held = g_ptr_array_new_with_free_func (g_object_unref);
  Tally tally = { N_ROWS, 0 };

  for (guint i = 0; i < 20; i++)
    g_ptr_array_add (held, g_list_model_get_item (model, i));
  g_signal_connect (model, "items-changed", G_CALLBACK (tally_removals_cb), &tally);

  winnow_live_table_set_running (f->table, TRUE);
  g_assert_true (winnow_live_table_is_live (f->table));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, WINNOW_LIVE_TABLE_ROWS);

  /* rows leave while live: the held items show the preview's new first rows */
  winnow_row_list_filter (f->list, keep_past_five, NULL, NULL);
  winnow_live_table_update (f->table, FALSE);
  g_assert_cmpstr (winnow_row_get_id (g_ptr_array_index (held, 0)), ==, "i6/t1");
  g_assert_cmpuint (winnow_live_table_get_n_matching (f->table), ==, N_ROWS - 5);

  winnow_live_table_set_running (f->table, FALSE);
  g_assert_false (winnow_live_table_is_live (f->table));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, N_ROWS - 5);
  g_assert_cmpuint (tally.mismatches, ==, 0);
  for (guint i = 0; i < held->len; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);
      g_autofree char *id = g_strdup_printf ("i%u/t1", i + 6);

      g_assert_true (item == g_ptr_array_index (held, i));
      g_assert_cmpstr (winnow_row_get_id (WINNOW_ROW (item)), ==, id);
    }
  g_signal_handlers_disconnect_by_data (model, &tally);
}

/* The sort key of a row in the sorted test: twice its instance number,
 * unless the test moved it. */
static int
sort_key (gpointer row)
{
  gpointer moved = g_object_get_data (G_OBJECT (row), "test-key");
  const char *id = winnow_row_get_id (WINNOW_ROW (row));

  return moved != NULL ? GPOINTER_TO_INT (moved) - 1000 : 2 * (int) g_ascii_strtoull (id + 1, NULL, 10);
}

static int
by_key (gconstpointer a,
        gconstpointer b,
        gpointer      data)
{
  return sort_key ((gpointer) a) - sort_key ((gpointer) b);
}

static void
move_key (gpointer row,
          int      key)
{
  g_object_set_data (G_OBJECT (row), "test-key", GINT_TO_POINTER (key + 1000));
}

/* Where the preview's order is not the full table's (a row's sort key
 * changed in place, which the sort model does not hear of), the switch
 * moves the selection to its row in what is shown next, both ways, as the
 * table's move. */
static void
test_switch_sorted (void)
{
  g_autoptr(WinnowRowList) list = winnow_row_list_new (WINNOW_TYPE_TRACK_ROW);
  g_autoptr(GtkSorter) sorter = GTK_SORTER (gtk_custom_sorter_new (by_key, NULL, NULL));
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(WinnowLiveTable) table = NULL;
  Fixture f = { 0 };
  GListModel *model;
  Tally tally = { N_ROWS, 0 };
  gpointer row;

  for (guint n = 1; n <= N_ROWS; n++)
    g_ptr_array_add (rows, new_track (n));
  winnow_row_list_append (list, rows->pdata, rows->len);
  table = winnow_live_table_new (G_LIST_MODEL (list), NULL, sorter, winnow_row_assign_from);
  f.table = table;
  f.selection = GTK_SINGLE_SELECTION (winnow_live_table_get_selection (table));
  model = G_LIST_MODEL (f.selection);
  g_signal_connect (f.selection, "notify::selected-item", G_CALLBACK (selection_cb), &f);
  g_signal_connect (model, "items-changed", G_CALLBACK (tally_removals_cb), &tally);

  gtk_single_selection_set_selected (f.selection, 50);
  g_assert_cmpstr (selected_id (&f), ==, "i51/t1");
  f.user_changes = 0;
  row = g_ptr_array_index (rows, 50);

  /* first in the preview, though still 50th in the full table */
  move_key (row, -1);
  winnow_live_table_set_running (table, TRUE);
  g_assert_true (winnow_live_table_is_live (table));
  g_assert_cmpuint (gtk_single_selection_get_selected (f.selection), ==, 0);
  g_assert_cmpstr (selected_id (&f), ==, "i51/t1");

  /* between i32 and i33, told */
  move_key (row, 65);
  gtk_sorter_changed (sorter, GTK_SORTER_CHANGE_DIFFERENT);
  g_assert_cmpuint (gtk_single_selection_get_selected (f.selection), ==, 32);
  g_assert_cmpstr (selected_id (&f), ==, "i51/t1");

  /* the full table, sorted again, has it there too */
  winnow_live_table_set_running (table, FALSE);
  g_assert_false (winnow_live_table_is_live (table));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, N_ROWS);
  g_assert_cmpuint (gtk_single_selection_get_selected (f.selection), ==, 32);
  g_assert_cmpstr (selected_id (&f), ==, "i51/t1");
  g_assert_cmpuint (f.user_changes, ==, 0);
  g_assert_cmpuint (tally.mismatches, ==, 0);
  g_signal_handlers_disconnect_by_data (model, &tally);
  g_signal_handlers_disconnect_by_data (f.selection, &f);
}

/* An item the view held past the new end keeps what it last showed and
 * follows no row: a shrink leaves nothing behind. */
static void
test_slots_past_the_end (void)
{
  g_autoptr(WinnowRowList) list = winnow_row_list_new (WINNOW_TYPE_TRACK_ROW);
  g_autoptr(WinnowSlotList) slots = winnow_slot_list_new (G_LIST_MODEL (list), WINNOW_TYPE_TRACK_ROW,
                                                          winnow_row_assign_from);
  g_autoptr(WinnowTrackRow) a = new_track (1);
  g_autoptr(WinnowTrackRow) b = new_track (2);
  g_autoptr(WinnowTrackRow) shown = NULL;
  g_autoptr(WinnowTrackRow) source = NULL;
  gpointer both[] = { a, b };

  winnow_row_list_append (list, both, 2);
  shown = g_list_model_get_item (G_LIST_MODEL (slots), 1);
  g_assert_cmpuint (winnow_slot_list_get_n_slots (slots), ==, 1);
  g_assert_cmpstr (winnow_row_get_id (WINNOW_ROW (shown)), ==, "i2/t1");
  source = winnow_slot_list_get_source (slots, 1);
  g_assert_true (source == b);

  winnow_row_list_set (list, both, 1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (slots)), ==, 1);
  g_assert_cmpuint (winnow_slot_list_get_n_slots (slots), ==, 0);
  set_track (b, 2, WN_TRACK_DONE);
  g_assert_cmpint (winnow_track_row_get_state (shown), ==, WN_TRACK_PARKED);
  g_assert_null (winnow_slot_list_get_source (slots, 1));
}

/* A paced list tells a pace more rows at once and the rest as asked; a
 * selection beyond what it told is told first; no pace tells everything. */
static void
test_slots_paced (Fixture       *f,
                  gconstpointer  data)
{
  WinnowSlotList *slots = winnow_live_table_get_slots (f->table);
  GListModel *model = G_LIST_MODEL (f->selection);
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  gpointer selected;
  guint at;

  winnow_row_list_remove_all (f->list);
  winnow_slot_list_set_pace (slots, 10);
  for (guint n = 1; n <= N_ROWS; n++)
    g_ptr_array_add (rows, new_track (n));
  winnow_row_list_append (f->list, rows->pdata, rows->len);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 10);
  g_assert_true (winnow_slot_list_is_behind (slots));
  winnow_slot_list_catch_up (slots, G_MAXUINT);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 20);

  /* the rows themselves are all there to be found, told or not */
  {
    g_autoptr(WinnowTrackRow) last = winnow_live_table_get_row (f->table, N_ROWS - 1);

    g_assert_cmpstr (winnow_row_get_id (WINNOW_ROW (last)), ==, "i300/t1");
  }
  winnow_live_table_select (f->table, 150);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 151);
  g_assert_cmpstr (selected_id (f), ==, "i151/t1");

  /* its row moves past what was told: the selection follows it there */
  f->user_changes = 0;
  selected = g_ptr_array_index (rows, 150);
  g_ptr_array_insert (rows, 0, new_track (1000));
  g_ptr_array_insert (rows, 0, new_track (1001));
  g_ptr_array_remove_index (rows, 151);   /* i150 */
  g_ptr_array_remove_index (rows, 10);    /* i9 */
  g_assert_true (g_ptr_array_find (rows, selected, &at));
  g_ptr_array_add (rows, g_ptr_array_steal_index (rows, at));   /* i151 to the end */
  winnow_row_list_set (f->list, rows->pdata, rows->len);
  g_assert_cmpuint (gtk_single_selection_get_selected (f->selection), ==, N_ROWS - 1);
  g_assert_cmpstr (selected_id (f), ==, "i151/t1");
  g_assert_cmpuint (f->user_changes, ==, 0);

  winnow_slot_list_set_pace (slots, 0);
  g_assert_false (winnow_slot_list_is_behind (slots));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, N_ROWS);
}

int
main (int argc, char **argv)
{
  wn_test_require_display ("test-live-table");
  gtk_test_init (&argc, &argv, NULL);
  g_test_add ("/app/LiveTable/in-place", Fixture, NULL, fixture_set_up, test_in_place, fixture_tear_down);
  g_test_add ("/app/LiveTable/selection-across-switches", Fixture, NULL,
              fixture_set_up, test_selection_across_switches, fixture_tear_down);
  g_test_add ("/app/LiveTable/selection-follows-row", Fixture, NULL,
              fixture_set_up, test_selection_follows_row, fixture_tear_down);
  g_test_add ("/app/LiveTable/travel-in-place", Fixture, NULL,
              fixture_set_up, test_travel_in_place, fixture_tear_down);
  g_test_add ("/app/LiveTable/switch-in-place", Fixture, NULL,
              fixture_set_up, test_switch_in_place, fixture_tear_down);
  g_test_add_func ("/app/LiveTable/switch-sorted", test_switch_sorted);
  g_test_add_func ("/app/LiveTable/slots-past-the-end", test_slots_past_the_end);
  g_test_add ("/app/LiveTable/slots-paced", Fixture, NULL, fixture_set_up, test_slots_paced, fixture_tear_down);
  g_test_add_data_func ("/app/LiveTable/filter-keeps-all", GINT_TO_POINTER (TRUE), test_filter_keeps_all);
  g_test_add_data_func ("/app/LiveTable/no-filter", GINT_TO_POINTER (FALSE), test_filter_keeps_all);
  return g_test_run ();
}
