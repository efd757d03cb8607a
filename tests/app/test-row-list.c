/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The plain row store behind the session's tables (winnow-row-list.h): what
 * a list view is told when rows come and go must match what it then reads.
 * No display. */
#include "config.h"

#include <gio/gio.h>

#include "winnow-row-list.h"

/* A mirror kept only from items-changed: a view's idea of the model. */
typedef struct {
  GPtrArray *rows;
  guint      signals;
} Mirror;

static void
items_changed_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  Mirror     *mirror)
{
  g_assert_cmpuint (position + removed, <=, mirror->rows->len);
  g_ptr_array_remove_range (mirror->rows, position, removed);
  for (guint i = 0; i < added; i++)
    g_ptr_array_insert (mirror->rows, (int) (position + i),
                        winnow_row_list_peek (WINNOW_ROW_LIST (model), position + i));
  mirror->signals++;
}

static void
assert_mirrors (WinnowRowList *store,
                Mirror        *mirror)
{
  GListModel *model = G_LIST_MODEL (store);

  g_assert_cmpuint (g_list_model_get_n_items (model), ==, mirror->rows->len);
  for (guint i = 0; i < mirror->rows->len; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);

      g_assert_true (item == g_ptr_array_index (mirror->rows, i));
    }
  g_assert_null (g_list_model_get_item (model, mirror->rows->len));
}

/* One data pointer serves both callbacks of a filter. */
typedef struct {
  gpointer unwanted;   /* NULL: keep the even rows */
  guint    dropped;
} Filter;

static gboolean
keep_cb (gpointer row,
         gpointer data)
{
  Filter *filter = data;

  if (filter->unwanted != NULL)
    return row != filter->unwanted;
  return GPOINTER_TO_UINT (g_object_get_data (row, "n")) % 2 == 0;
}

static void
count_dropped_cb (gpointer row,
                  gpointer data)
{
  ((Filter *) data)->dropped++;
}

static void
test_append_filter (void)
{
  g_autoptr(WinnowRowList) store = winnow_row_list_new (G_TYPE_OBJECT);
  g_autoptr(GPtrArray) made = g_ptr_array_new_with_free_func (g_object_unref);
  Mirror mirror = { g_ptr_array_new (), 0 };
  Filter filter = { NULL, 0 };
  const guint unwanted[] = { 0, 500, 999 };

  g_signal_connect (store, "items-changed", G_CALLBACK (items_changed_cb), &mirror);
  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (store)) == G_TYPE_OBJECT);

  for (guint i = 0; i < 1000; i++)
    {
      GObject *row = g_object_new (G_TYPE_OBJECT, NULL);

      g_object_set_data (row, "n", GUINT_TO_POINTER (i));
      g_ptr_array_add (made, row);
    }
  /* one signal per append, however many rows */
  winnow_row_list_append (store, made->pdata, 600);
  winnow_row_list_append (store, made->pdata + 600, 400);
  winnow_row_list_append (store, NULL, 0);
  g_assert_cmpuint (mirror.signals, ==, 2);
  assert_mirrors (store, &mirror);

  /* a few rows dropped: what the view hears still adds up */
  for (guint i = 0; i < G_N_ELEMENTS (unwanted); i++)
    {
      filter.unwanted = g_ptr_array_index (made, unwanted[i]);
      winnow_row_list_filter (store, keep_cb, count_dropped_cb, &filter);
    }
  g_assert_cmpuint (filter.dropped, ==, 3);
  assert_mirrors (store, &mirror);

  /* half of them: order kept */
  filter.unwanted = NULL;
  winnow_row_list_filter (store, keep_cb, count_dropped_cb, &filter);
  g_assert_cmpuint (filter.dropped, ==, 3 + 499);
  assert_mirrors (store, &mirror);
  for (guint i = 1; i < mirror.rows->len; i++)
    g_assert_cmpuint (GPOINTER_TO_UINT (g_object_get_data (g_ptr_array_index (mirror.rows, i - 1), "n")), <,
                      GPOINTER_TO_UINT (g_object_get_data (g_ptr_array_index (mirror.rows, i), "n")));

  /* nothing to drop: nothing said */
  mirror.signals = 0;
  winnow_row_list_filter (store, keep_cb, NULL, &filter);
  g_assert_cmpuint (mirror.signals, ==, 0);

  winnow_row_list_remove_all (store);
  assert_mirrors (store, &mirror);
  g_assert_cmpuint (mirror.rows->len, ==, 0);

  g_ptr_array_unref (mirror.rows);
}

/* The store holds its own references: a row outlives the caller's. */
static void
test_references (void)
{
  g_autoptr(WinnowRowList) store = winnow_row_list_new (G_TYPE_OBJECT);
  GObject *row = g_object_new (G_TYPE_OBJECT, NULL);
  GObject *weak = row;

  g_object_add_weak_pointer (row, (gpointer *) &weak);
  winnow_row_list_append (store, (gpointer *) &row, 1);
  g_object_unref (row);
  g_assert_nonnull (weak);
  g_assert_true (winnow_row_list_peek (store, 0) == weak);
  winnow_row_list_remove_all (store);
  g_assert_null (weak);
}

static guint
row_number (gpointer row)
{
  return GPOINTER_TO_UINT (g_object_get_data (row, "n"));
}

/* Rows dropped by identity: the same list as a filter would leave, after a
 * filter, a removal and appends have moved rows about, whether few runs go
 * (one items-changed each) or many (one for the whole list). */
static void
test_remove (void)
{
  g_autoptr(WinnowRowList) store = winnow_row_list_new (G_TYPE_OBJECT);
  g_autoptr(GPtrArray) made = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) doomed = g_ptr_array_new ();
  g_autoptr(GObject) stranger = g_object_new (G_TYPE_OBJECT, NULL);
  Mirror mirror = { g_ptr_array_new (), 0 };
  Filter filter = { NULL, 0 };

  g_signal_connect (store, "items-changed", G_CALLBACK (items_changed_cb), &mirror);
  for (guint i = 0; i < 1200; i++)
    {
      GObject *row = g_object_new (G_TYPE_OBJECT, NULL);

      g_object_set_data (row, "n", GUINT_TO_POINTER (i));
      g_ptr_array_add (made, row);
    }
  winnow_row_list_append (store, made->pdata, 1000);

  /* few runs: rows 10–14 and 700, listed out of order, one twice, and a
   * row the list never had */
  for (guint i = 14; i >= 10; i--)
    g_ptr_array_add (doomed, g_ptr_array_index (made, i));
  g_ptr_array_add (doomed, g_ptr_array_index (made, 700));
  g_ptr_array_add (doomed, g_ptr_array_index (made, 12));
  g_ptr_array_add (doomed, stranger);
  mirror.signals = 0;
  winnow_row_list_remove (store, doomed->pdata, doomed->len, count_dropped_cb, &filter);
  g_assert_cmpuint (filter.dropped, ==, 6);
  g_assert_cmpuint (mirror.signals, ==, 2);
  assert_mirrors (store, &mirror);
  g_assert_cmpuint (mirror.rows->len, ==, 994);

  /* the odd rows go by a filter, more rows come, then many runs by identity */
  winnow_row_list_filter (store, keep_cb, NULL, &filter);
  winnow_row_list_append (store, made->pdata + 1000, 200);
  g_ptr_array_set_size (doomed, 0);
  for (guint i = 0; i < 1200; i += 6)
    g_ptr_array_add (doomed, g_ptr_array_index (made, i));
  filter.dropped = 0;
  mirror.signals = 0;
  winnow_row_list_remove (store, doomed->pdata, doomed->len, count_dropped_cb, &filter);
  /* every 6th row: those of 0…999 that were still there (even, not 10–14
   * or 700), and all of 1000…1199 */
  g_assert_cmpuint (filter.dropped, ==, 166 + 33);
  g_assert_cmpuint (mirror.signals, ==, 1);
  assert_mirrors (store, &mirror);
  for (guint i = 0; i < mirror.rows->len; i++)
    {
      guint n = row_number (g_ptr_array_index (mirror.rows, i));

      g_assert_cmpuint (n % 6, !=, 0);
      g_assert_true (n >= 1000 || n % 2 == 0);
      if (i > 0)
        g_assert_cmpuint (row_number (g_ptr_array_index (mirror.rows, i - 1)), <, n);
    }

  /* nothing of the list's: nothing said */
  mirror.signals = 0;
  winnow_row_list_remove (store, (gpointer *) &stranger, 1, NULL, NULL);
  winnow_row_list_remove (store, NULL, 0, NULL, NULL);
  g_assert_cmpuint (mirror.signals, ==, 0);

  /* after remove_all, rows come back and go again */
  winnow_row_list_remove_all (store);
  winnow_row_list_append (store, made->pdata, 3);
  winnow_row_list_remove (store, made->pdata + 1, 1, NULL, NULL);
  assert_mirrors (store, &mirror);
  g_assert_cmpuint (mirror.rows->len, ==, 2);
  g_assert_cmpuint (row_number (g_ptr_array_index (mirror.rows, 1)), ==, 2);

  g_ptr_array_unref (mirror.rows);
}

/* The list set to another sequence (a travel's exact pass): what a view is
 * told matches what it reads, one items-changed spans only what differs
 * between the rows kept in front and at the back, and a removal by identity
 * afterwards still finds every row (the append numbers stay ordered). */
static void
test_set (void)
{
  g_autoptr(WinnowRowList) store = winnow_row_list_new (G_TYPE_OBJECT);
  g_autoptr(GPtrArray) made = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) next = g_ptr_array_new ();
  Mirror mirror = { g_ptr_array_new (), 0 };

  g_signal_connect (store, "items-changed", G_CALLBACK (items_changed_cb), &mirror);
  for (guint i = 0; i < 20; i++)
    {
      GObject *row = g_object_new (G_TYPE_OBJECT, NULL);

      g_object_set_data (row, "n", GUINT_TO_POINTER (i));
      g_ptr_array_add (made, row);
    }
  winnow_row_list_append (store, made->pdata, 10);

  /* 0–3 kept, 4–6 go, 12 and 11 come, 7–9 kept */
  for (guint i = 0; i < 4; i++)
    g_ptr_array_add (next, g_ptr_array_index (made, i));
  g_ptr_array_add (next, g_ptr_array_index (made, 12));
  g_ptr_array_add (next, g_ptr_array_index (made, 11));
  for (guint i = 7; i < 10; i++)
    g_ptr_array_add (next, g_ptr_array_index (made, i));
  mirror.signals = 0;
  winnow_row_list_set (store, next->pdata, next->len);
  g_assert_cmpuint (mirror.signals, ==, 1);
  assert_mirrors (store, &mirror);

  /* the same sequence again: nothing said */
  winnow_row_list_set (store, next->pdata, next->len);
  g_assert_cmpuint (mirror.signals, ==, 1);

  /* a row moves to the front, one that was gone comes back at the end */
  g_ptr_array_remove (next, g_ptr_array_index (made, 8));
  g_ptr_array_insert (next, 0, g_ptr_array_index (made, 8));
  g_ptr_array_add (next, g_ptr_array_index (made, 5));
  winnow_row_list_set (store, next->pdata, next->len);
  assert_mirrors (store, &mirror);
  /* by identity, wherever they are now */
  winnow_row_list_remove (store, (gpointer *) &g_ptr_array_index (made, 5), 1, NULL, NULL);
  winnow_row_list_remove (store, (gpointer *) &g_ptr_array_index (made, 8), 1, NULL, NULL);
  winnow_row_list_remove (store, (gpointer *) &g_ptr_array_index (made, 0), 1, NULL, NULL);
  assert_mirrors (store, &mirror);
  g_assert_cmpuint (mirror.rows->len, ==, next->len - 3);

  /* to nothing, and back */
  winnow_row_list_set (store, NULL, 0);
  assert_mirrors (store, &mirror);
  winnow_row_list_set (store, made->pdata, 20);
  assert_mirrors (store, &mirror);
  g_ptr_array_unref (mirror.rows);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/RowList/append-filter", test_append_filter);
  g_test_add_func ("/app/RowList/references", test_references);
  g_test_add_func ("/app/RowList/remove", test_remove);
  g_test_add_func ("/app/RowList/set", test_set);
  return g_test_run ();
}
