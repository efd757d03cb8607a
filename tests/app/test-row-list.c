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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/RowList/append-filter", test_append_filter);
  g_test_add_func ("/app/RowList/references", test_references);
  return g_test_run ();
}
