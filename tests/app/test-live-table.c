/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The live table behind the big tables (src/app/winnow-live-table.c): its
 * preview follows rows that change in place, the selection stays on its row
 * across play and pause and while the row moves, and those moves are told
 * apart from the user's. Needs GTK (a sorter and list models), no window. */
#include "config.h"

#include <gtk/gtk.h>

#include "winnow.h"
#include "winnow-live-table.h"
#include "winnow-row-list.h"
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

/* A row that changes in place (the source says nothing) shows the change at
 * the next update. */
static void
test_in_place (Fixture       *f,
               gconstpointer  data)
{
  WinnowTrackRow *shown;

  winnow_live_table_set_running (f->table, TRUE);
  g_assert_true (winnow_live_table_is_live (f->table));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f->selection)), ==, WINNOW_LIVE_TABLE_ROWS);
  set_track (winnow_row_list_peek (f->list, 2), 3, WN_TRACK_DONE);
  winnow_live_table_update (f->table, FALSE);
  shown = g_list_model_get_item (G_LIST_MODEL (f->selection), 2);
  g_assert_cmpstr (winnow_row_get_id (WINNOW_ROW (shown)), ==, "i3/t1");
  g_assert_cmpint (winnow_track_row_get_state (shown), ==, WN_TRACK_DONE);
  g_object_unref (shown);
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
  g_test_add_data_func ("/app/LiveTable/filter-keeps-all", GINT_TO_POINTER (TRUE), test_filter_keeps_all);
  g_test_add_data_func ("/app/LiveTable/no-filter", GINT_TO_POINTER (FALSE), test_filter_keeps_all);
  return g_test_run ();
}
