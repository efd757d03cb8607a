/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "winnow-row-list.h"

/* At most this many separate items-changed for the rows one filter drops; past
 * it, one for the whole list costs a listener less than many small ones. */
#define MAX_RUNS 32

struct _WinnowRowList
{
  GObject     parent_instance;

  GType       item_type;
  GPtrArray  *rows;      /* GObject*, owned */
  /* Each row's append number, in the rows' order, so ascending: where a row
   * is, by binary search (winnow_row_list_remove). */
  GArray     *seqs;      /* gsize */
  GHashTable *seq_of;    /* row → its append number */
  gsize       next_seq;
};

static GType
row_list_get_item_type (GListModel *model)
{
  return WINNOW_ROW_LIST (model)->item_type;
}

static guint
row_list_get_n_items (GListModel *model)
{
  return WINNOW_ROW_LIST (model)->rows->len;
}

static gpointer
row_list_get_item (GListModel *model,
                   guint       position)
{
  WinnowRowList *self = WINNOW_ROW_LIST (model);

  if (position >= self->rows->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->rows, position));
}

static void
row_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = row_list_get_item_type;
  iface->get_n_items = row_list_get_n_items;
  iface->get_item = row_list_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (WinnowRowList, winnow_row_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, row_list_model_init))

static void
release_row (gpointer row)
{
  if (row != NULL)
    g_object_unref (row);
}

static void
winnow_row_list_finalize (GObject *object)
{
  WinnowRowList *self = WINNOW_ROW_LIST (object);

  g_clear_pointer (&self->seq_of, g_hash_table_unref);
  g_clear_pointer (&self->seqs, g_array_unref);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  G_OBJECT_CLASS (winnow_row_list_parent_class)->finalize (object);
}

static void
winnow_row_list_class_init (WinnowRowListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = winnow_row_list_finalize;
}

static void
winnow_row_list_init (WinnowRowList *self)
{
  self->rows = g_ptr_array_new_with_free_func (release_row);
  self->seqs = g_array_new (FALSE, FALSE, sizeof (gsize));
  self->seq_of = g_hash_table_new (NULL, NULL);
}

WinnowRowList *
winnow_row_list_new (GType item_type)
{
  WinnowRowList *self;

  g_return_val_if_fail (g_type_is_a (item_type, G_TYPE_OBJECT), NULL);

  self = g_object_new (WINNOW_TYPE_ROW_LIST, NULL);
  self->item_type = item_type;
  return self;
}

gpointer
winnow_row_list_peek (WinnowRowList *self,
                      guint          position)
{
  g_return_val_if_fail (WINNOW_IS_ROW_LIST (self), NULL);
  g_return_val_if_fail (position < self->rows->len, NULL);
  return g_ptr_array_index (self->rows, position);
}

void
winnow_row_list_append (WinnowRowList *self,
                        gpointer      *rows,
                        guint          n)
{
  guint position;

  g_return_if_fail (WINNOW_IS_ROW_LIST (self));

  if (n == 0)
    return;
  position = self->rows->len;
  for (guint i = 0; i < n; i++)
    {
      gsize seq = self->next_seq++;

      g_ptr_array_add (self->rows, g_object_ref (rows[i]));
      g_array_append_val (self->seqs, seq);
      g_hash_table_insert (self->seq_of, rows[i], GSIZE_TO_POINTER (seq));
    }
  g_list_model_items_changed (G_LIST_MODEL (self), position, 0, n);
}

/* Drop the rows `kept` marks 0, which `runs` (guint pairs: position, length,
 * ascending) lists; see winnow_row_list_filter for the items-changed. */
static void
drop_marked (WinnowRowList *self,
             const guint8  *kept,
             GArray        *runs,
             void         (*dropped) (gpointer row, gpointer data),
             gpointer       data)
{
  guint n_old = self->rows->len, out = 0;

  if (runs->len <= MAX_RUNS)
    {
      /* from the back, so the positions before each run hold; every
       * items-changed describes the list as it then is */
      for (guint r = runs->len; r > 0; r--)
        {
          guint position = g_array_index (runs, guint, r * 2 - 2);
          guint length = g_array_index (runs, guint, r * 2 - 1);

          for (guint i = position; i < position + length; i++)
            {
              gpointer row = g_ptr_array_index (self->rows, i);

              if (dropped != NULL)
                dropped (row, data);
              g_hash_table_remove (self->seq_of, row);
            }
          g_ptr_array_remove_range (self->rows, position, length);
          g_array_remove_range (self->seqs, position, length);
          g_list_model_items_changed (G_LIST_MODEL (self), position, length, 0);
        }
      return;
    }

  /* many runs: compact in place, one items-changed for the whole list */
  for (guint i = 0; i < n_old; i++)
    {
      gpointer row = g_ptr_array_index (self->rows, i);

      if (kept[i])
        {
          g_array_index (self->seqs, gsize, out) = g_array_index (self->seqs, gsize, i);
          g_ptr_array_index (self->rows, out++) = row;
          continue;
        }
      if (dropped != NULL)
        dropped (row, data);
      g_hash_table_remove (self->seq_of, row);
      g_object_unref (row);
    }
  for (guint i = out; i < n_old; i++)
    g_ptr_array_index (self->rows, i) = NULL;   /* moved or released above */
  g_ptr_array_set_size (self->rows, out);
  g_array_set_size (self->seqs, out);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, n_old, out);
}

/* Add position `i` to `runs` (ascending). */
static void
add_to_runs (GArray *runs,
             guint   i)
{
  if (runs->len > 0 && g_array_index (runs, guint, runs->len * 2 - 2) +
                       g_array_index (runs, guint, runs->len * 2 - 1) == i)
    g_array_index (runs, guint, runs->len * 2 - 1)++;
  else
    {
      guint run[2] = { i, 1 };
      g_array_append_vals (runs, run, 1);
    }
}

void
winnow_row_list_filter (WinnowRowList *self,
                        gboolean     (*keep) (gpointer row, gpointer data),
                        void         (*dropped) (gpointer row, gpointer data),
                        gpointer       data)
{
  g_autoptr(GArray) runs = NULL;       /* guint pairs: position, length */
  g_autofree guint8 *kept = NULL;
  guint n_old;

  g_return_if_fail (WINNOW_IS_ROW_LIST (self));
  g_return_if_fail (keep != NULL);

  n_old = self->rows->len;
  if (n_old == 0)
    return;
  kept = g_new (guint8, n_old);
  runs = g_array_new (FALSE, FALSE, sizeof (guint) * 2);
  for (guint i = 0; i < n_old; i++)
    {
      kept[i] = keep (g_ptr_array_index (self->rows, i), data) ? 1 : 0;
      if (!kept[i])
        add_to_runs (runs, i);
    }
  if (runs->len > 0)
    drop_marked (self, kept, runs, dropped, data);
}

static int
compare_positions (gconstpointer a,
                   gconstpointer b)
{
  guint x = *(const guint *) a;
  guint y = *(const guint *) b;

  return (x > y) - (x < y);
}

/* Where the row numbered `seq` is, or -1. */
static int
find_seq (WinnowRowList *self,
          gsize          seq)
{
  guint lo = 0, hi = self->seqs->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      gsize at = g_array_index (self->seqs, gsize, mid);

      if (at == seq)
        return (int) mid;
      if (at < seq)
        lo = mid + 1;
      else
        hi = mid;
    }
  return -1;
}

void
winnow_row_list_remove (WinnowRowList *self,
                        gpointer      *rows,
                        guint          n,
                        void         (*dropped) (gpointer row, gpointer data),
                        gpointer       data)
{
  g_autoptr(GArray) positions = NULL;
  g_autoptr(GArray) runs = NULL;
  g_autofree guint8 *kept = NULL;

  g_return_if_fail (WINNOW_IS_ROW_LIST (self));

  positions = g_array_sized_new (FALSE, FALSE, sizeof (guint), n);
  for (guint i = 0; i < n; i++)
    {
      gpointer seq;
      int position;

      if (!g_hash_table_lookup_extended (self->seq_of, rows[i], NULL, &seq))
        continue;
      position = find_seq (self, GPOINTER_TO_SIZE (seq));
      g_assert (position >= 0);
      g_array_append_val (positions, position);
    }
  if (positions->len == 0)
    return;
  g_array_sort (positions, compare_positions);

  kept = g_malloc (self->rows->len);
  memset (kept, 1, self->rows->len);
  runs = g_array_new (FALSE, FALSE, sizeof (guint) * 2);
  for (guint i = 0; i < positions->len; i++)
    {
      guint position = g_array_index (positions, guint, i);

      if (!kept[position])
        continue;   /* listed twice */
      kept[position] = 0;
      add_to_runs (runs, position);
    }
  drop_marked (self, kept, runs, dropped, data);
}

void
winnow_row_list_remove_all (WinnowRowList *self)
{
  guint n;

  g_return_if_fail (WINNOW_IS_ROW_LIST (self));

  n = self->rows->len;
  if (n == 0)
    return;
  g_ptr_array_set_size (self->rows, 0);
  g_array_set_size (self->seqs, 0);
  g_hash_table_remove_all (self->seq_of);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, n, 0);
}

void
winnow_row_list_set (WinnowRowList *self,
                     gpointer      *rows,
                     guint          n)
{
  guint n_old, prefix = 0, suffix = 0, removed, added;

  g_return_if_fail (WINNOW_IS_ROW_LIST (self));
  g_return_if_fail (rows != NULL || n == 0);

  n_old = self->rows->len;
  while (prefix < n && prefix < n_old && g_ptr_array_index (self->rows, prefix) == rows[prefix])
    prefix++;
  while (suffix < n - prefix && suffix < n_old - prefix &&
         g_ptr_array_index (self->rows, n_old - 1 - suffix) == rows[n - 1 - suffix])
    suffix++;
  removed = n_old - prefix - suffix;
  added = n - prefix - suffix;
  if (removed == 0 && added == 0)
    return;

  /* the new rows are referenced before the old ones go (a row may be both) */
  for (guint i = prefix; i < prefix + added; i++)
    g_object_ref (rows[i]);
  for (guint i = prefix; i < prefix + removed; i++)
    {
      gpointer row = g_ptr_array_index (self->rows, i);

      g_hash_table_remove (self->seq_of, row);
      g_object_unref (row);
      g_ptr_array_index (self->rows, i) = NULL;
    }
  /* the suffix moves to its new place */
  {
    gpointer *suffix_rows = g_memdup2 (self->rows->pdata + prefix + removed, suffix * sizeof (gpointer));

    self->rows->len = prefix;   /* the middle and the suffix were moved out or released */
    for (guint i = 0; i < added; i++)
      g_ptr_array_add (self->rows, rows[prefix + i]);
    for (guint i = 0; i < suffix; i++)
      g_ptr_array_add (self->rows, suffix_rows[i]);
    g_free (suffix_rows);
  }
  /* append numbers ascend: the rows from the change on are numbered anew */
  g_array_set_size (self->seqs, n);
  for (guint i = prefix; i < n; i++)
    {
      gsize seq = self->next_seq++;

      g_array_index (self->seqs, gsize, i) = seq;
      g_hash_table_insert (self->seq_of, g_ptr_array_index (self->rows, i), GSIZE_TO_POINTER (seq));
    }
  g_list_model_items_changed (G_LIST_MODEL (self), prefix, removed, added);
}
