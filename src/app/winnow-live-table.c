/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "winnow-live-table.h"

/* A live preview is recomputed when its source changed (rows came or went).
 * Rows also change in place: the slots follow what a row shows (its
 * notifies), but not where the sort would put it now or whether the filter
 * still keeps it, which the source does not announce, so a sorted or filtered
 * preview is recomputed at least this often. One pass over 10⁴ rows costs
 * about a millisecond. */
#define PREVIEW_INTERVAL (G_USEC_PER_SEC / 4)

struct _WinnowLiveTable
{
  GObject             parent_instance;

  GListModel         *source;
  GtkFilter          *filter;       /* NULL: every row */
  GtkFilter          *chain_filter; /* the filter model's: asks `filter`, if any */
  GtkSorter          *sorter;
  GtkFilterListModel *filtered;     /* its model is NULL while live */
  GtkSortListModel   *sorted;
  WinnowSlotList     *slots;        /* what the view shows: over `sorted`, or `preview` while live */
  GListStore         *preview;      /* the first source rows, while live */
  GtkSingleSelection *selection;    /* over `slots` */
  gboolean            running;
  gboolean            live;
  guint               n_matching;   /* while live */
  gboolean            source_changed; /* since the preview was computed */
  gint64              last_preview; /* monotonic µs */
  gboolean            following;    /* the selection moves with its row, not by the user */
  GObject            *selected_row; /* the source row selected in the slots */
};

enum {
  PROP_0,
  PROP_LIVE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (WinnowLiveTable, winnow_live_table, G_TYPE_OBJECT)

static gboolean
is_sorted (WinnowLiveTable *self)
{
  return self->sorter != NULL && gtk_sorter_get_order (self->sorter) != GTK_SORTER_ORDER_NONE;
}

/* A filter that keeps every row (GTK_FILTER_MATCH_ALL) needs no pass. */
static gboolean
is_filtered (WinnowLiveTable *self)
{
  return self->filter != NULL && gtk_filter_get_strictness (self->filter) != GTK_FILTER_MATCH_ALL;
}

/* One pass over the source: count the rows the filter keeps and pick the
 * first WINNOW_LIVE_TABLE_ROWS of them in the sorter's order (a bounded
 * insertion: n log k comparisons, stable like GtkSortListModel). */
static void
compute_preview (WinnowLiveTable *self)
{
  g_autoptr(GPtrArray) top = g_ptr_array_new_full (WINNOW_LIVE_TABLE_ROWS + 1, g_object_unref);
  guint n = g_list_model_get_n_items (self->source);
  gboolean sorted = is_sorted (self);
  gboolean filtered = is_filtered (self);
  guint matching = 0;

  for (guint i = 0; i < n; i++)
    {
      GObject *item;
      guint lo, hi;

      if (!filtered && !sorted && top->len == WINNOW_LIVE_TABLE_ROWS)
        {
          matching = n;   /* nothing more to learn from the rest */
          break;
        }
      item = g_list_model_get_item (self->source, i);
      if (filtered && !gtk_filter_match (self->filter, item))
        {
          g_object_unref (item);
          continue;
        }
      matching++;
      if (!sorted)
        {
          if (top->len < WINNOW_LIVE_TABLE_ROWS)
            g_ptr_array_add (top, item);
          else
            g_object_unref (item);
          continue;
        }
      if (top->len == WINNOW_LIVE_TABLE_ROWS &&
          gtk_sorter_compare (self->sorter, item, g_ptr_array_index (top, top->len - 1)) != GTK_ORDERING_SMALLER)
        {
          g_object_unref (item);
          continue;
        }
      lo = 0;
      hi = top->len;
      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;

          if (gtk_sorter_compare (self->sorter, item, g_ptr_array_index (top, mid)) == GTK_ORDERING_SMALLER)
            hi = mid;
          else
            lo = mid + 1;
        }
      g_ptr_array_insert (top, (int) lo, item);
      if (top->len > WINNOW_LIVE_TABLE_ROWS)
        g_ptr_array_remove_index (top, top->len - 1);
    }
  self->n_matching = matching;
  self->source_changed = FALSE;
  self->last_preview = g_get_monotonic_time ();
  /* the slots take on the new first rows, the selection follows its row */
  g_list_store_splice (self->preview, 0, g_list_model_get_n_items (G_LIST_MODEL (self->preview)),
                       top->pdata, top->len);
}

/* The source row at the selection, kept to follow it through changes. */
static void
remember_selected_row (WinnowLiveTable *self)
{
  g_clear_object (&self->selected_row);
  self->selected_row = winnow_slot_list_get_source (self->slots, gtk_single_selection_get_selected (self->selection));
}

static void
selection_cb (GtkSingleSelection *selection,
              GParamSpec         *pspec,
              WinnowLiveTable    *self)
{
  if (!winnow_slot_list_is_changing (self->slots))
    remember_selected_row (self);
}

/* Selects `position` of what the view shows (told first, if the slots are
 * behind), or nothing (GTK_INVALID_LIST_POSITION, which is G_MAXUINT, what
 * winnow_slot_list_find says for none). */
static void
select_position (WinnowLiveTable *self,
                 guint            position)
{
  if (position != GTK_INVALID_LIST_POSITION)
    winnow_slot_list_catch_up (self->slots, position);
  gtk_single_selection_set_selected (self->selection, position);
}

/* The same, as the table's move, not the user's. */
static void
select_slot (WinnowLiveTable *self,
             guint            position)
{
  gboolean was_following = self->following;

  self->following = TRUE;
  select_position (self, position);
  self->following = was_following;
}

/* After the slots took on a change (of their rows, or from the full table to
 * the preview and back): the selection goes back to its row, wherever that
 * is now, or to none when it is not shown, as it would over the rows
 * themselves. */
static void
slots_changed_cb (WinnowSlotList  *slots,
                  WinnowLiveTable *self)
{
  g_autoptr(GObject) shown = NULL;
  guint selected = gtk_single_selection_get_selected (self->selection);

  if (selected < g_list_model_get_n_items (G_LIST_MODEL (slots)))
    shown = winnow_slot_list_get_source (slots, selected);
  if (self->selected_row != NULL && shown != self->selected_row)
    select_slot (self, winnow_slot_list_find (slots, self->selected_row));
  else if (self->selected_row == NULL && selected != GTK_INVALID_LIST_POSITION)
    select_slot (self, GTK_INVALID_LIST_POSITION);
  /* also when nothing moved: a row that is not shown is not kept */
  remember_selected_row (self);
}

/* The view keeps its slots across the switch: they take on the preview's
 * rows or the full table's, and the selection stays on its row if it is
 * shown (slots_changed_cb). */
static void
set_live (WinnowLiveTable *self,
          gboolean         live)
{
  if (live == self->live)
    return;
  self->live = live;
  if (live)
    {
      /* the slots leave the full chain first, so cutting it costs nothing */
      compute_preview (self);
      winnow_slot_list_set_model (self->slots, G_LIST_MODEL (self->preview));
      gtk_filter_list_model_set_model (self->filtered, NULL);
    }
  else
    {
      /* one full filter and sort, then the slots show every row */
      gtk_filter_list_model_set_model (self->filtered, self->source);
      winnow_slot_list_set_model (self->slots, G_LIST_MODEL (self->sorted));
      g_list_store_remove_all (self->preview);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LIVE]);
}

/* Runs before the filter model hears of the change (it is connected first): a
 * table that outgrows the limit mid-run goes live before the change reaches
 * the chain, so the chain never sees thousands of rows arrive (GTK 4.8's
 * views would make a few hundred rows' widgets for them). */
static void
source_items_changed_cb (GListModel      *source,
                         guint            position,
                         guint            removed,
                         guint            added,
                         WinnowLiveTable *self)
{
  self->source_changed = TRUE;
  if (self->running && !self->live && g_list_model_get_n_items (source) > WINNOW_LIVE_TABLE_BIG)
    set_live (self, TRUE);
}

/* The filter model asks the table's filter through a filter of its own, which
 * never says it keeps every row: a filter model that keeps every row passes
 * a change straight through and counts the new rows before the chain has
 * heard of them, which leaves no moment to go live in (see
 * source_items_changed_cb). */
static gboolean
chain_match (gpointer item,
             gpointer filter)
{
  return filter == NULL || gtk_filter_match (filter, item);
}

static void
criteria_changed_cb (WinnowLiveTable *self)
{
  /* a new filter or sort order shows at once, live or not */
  if (self->live)
    compute_preview (self);
}

static void
filter_changed_cb (GtkFilter       *filter,
                   GtkFilterChange  change,
                   WinnowLiveTable *self)
{
  gtk_filter_changed (self->chain_filter, change);
  criteria_changed_cb (self);
}

static void
winnow_live_table_dispose (GObject *object)
{
  WinnowLiveTable *self = WINNOW_LIVE_TABLE (object);

  if (self->source != NULL)
    g_signal_handlers_disconnect_by_data (self->source, self);
  if (self->filter != NULL)
    g_signal_handlers_disconnect_by_data (self->filter, self);
  if (self->sorter != NULL)
    g_signal_handlers_disconnect_by_data (self->sorter, self);
  if (self->slots != NULL)
    g_signal_handlers_disconnect_by_data (self->slots, self);
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  g_clear_object (&self->selection);
  g_clear_object (&self->selected_row);
  g_clear_object (&self->slots);
  g_clear_object (&self->sorted);
  g_clear_object (&self->filtered);
  g_clear_object (&self->preview);
  g_clear_object (&self->filter);
  g_clear_object (&self->chain_filter);
  g_clear_object (&self->sorter);
  g_clear_object (&self->source);

  G_OBJECT_CLASS (winnow_live_table_parent_class)->dispose (object);
}

static void
winnow_live_table_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  WinnowLiveTable *self = WINNOW_LIVE_TABLE (object);

  switch (prop_id)
    {
    case PROP_LIVE:
      g_value_set_boolean (value, self->live);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_live_table_class_init (WinnowLiveTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = winnow_live_table_dispose;
  object_class->get_property = winnow_live_table_get_property;

  /* The slots show the preview, not the full table. */
  properties[PROP_LIVE] =
    g_param_spec_boolean ("live", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
winnow_live_table_init (WinnowLiveTable *self)
{
}

WinnowLiveTable *
winnow_live_table_new (GListModel       *source,
                       GtkFilter        *filter,
                       GtkSorter        *sorter,
                       WinnowAssignFunc  assign)
{
  WinnowLiveTable *self;

  g_return_val_if_fail (G_IS_LIST_MODEL (source), NULL);
  g_return_val_if_fail (filter == NULL || GTK_IS_FILTER (filter), NULL);
  g_return_val_if_fail (sorter == NULL || GTK_IS_SORTER (sorter), NULL);
  g_return_val_if_fail (assign != NULL, NULL);

  self = g_object_new (WINNOW_TYPE_LIVE_TABLE, NULL);
  self->source = g_object_ref (source);
  self->filter = filter ? g_object_ref (filter) : NULL;
  self->sorter = sorter ? g_object_ref (sorter) : NULL;
  /* ours first: see source_items_changed_cb */
  g_signal_connect (source, "items-changed", G_CALLBACK (source_items_changed_cb), self);
  self->chain_filter = GTK_FILTER (gtk_custom_filter_new (chain_match, filter ? g_object_ref (filter) : NULL,
                                                          filter ? g_object_unref : NULL));
  self->filtered = gtk_filter_list_model_new (NULL, g_object_ref (self->chain_filter));
  gtk_filter_list_model_set_model (self->filtered, source);
  self->sorted = gtk_sort_list_model_new (g_object_ref (G_LIST_MODEL (self->filtered)),
                                          sorter ? g_object_ref (sorter) : NULL);
  self->slots = winnow_slot_list_new (G_LIST_MODEL (self->sorted), g_list_model_get_item_type (source), assign);
  g_signal_connect (self->slots, "changed", G_CALLBACK (slots_changed_cb), self);
  self->preview = g_list_store_new (g_list_model_get_item_type (source));
  self->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->slots)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  g_signal_connect (self->selection, "notify::selected", G_CALLBACK (selection_cb), self);
  if (filter != NULL)
    g_signal_connect (filter, "changed", G_CALLBACK (filter_changed_cb), self);
  if (sorter != NULL)
    g_signal_connect_swapped (sorter, "changed", G_CALLBACK (criteria_changed_cb), self);
  return self;
}

GtkSelectionModel *
winnow_live_table_get_selection (WinnowLiveTable *self)
{
  g_return_val_if_fail (WINNOW_IS_LIVE_TABLE (self), NULL);
  return GTK_SELECTION_MODEL (self->selection);
}

guint
winnow_live_table_get_n_matching (WinnowLiveTable *self)
{
  g_return_val_if_fail (WINNOW_IS_LIVE_TABLE (self), 0);

  if (self->live)
    return self->n_matching;
  return g_list_model_get_n_items (G_LIST_MODEL (self->filtered));
}

gboolean
winnow_live_table_is_live (WinnowLiveTable *self)
{
  g_return_val_if_fail (WINNOW_IS_LIVE_TABLE (self), FALSE);
  return self->live;
}

void
winnow_live_table_set_running (WinnowLiveTable *self,
                               gboolean         running)
{
  g_return_if_fail (WINNOW_IS_LIVE_TABLE (self));

  self->running = !!running;
  if (!self->running)
    set_live (self, FALSE);
  else if (g_list_model_get_n_items (self->source) > WINNOW_LIVE_TABLE_BIG)
    set_live (self, TRUE);
}

void
winnow_live_table_update (WinnowLiveTable *self,
                          gboolean         now)
{
  g_return_if_fail (WINNOW_IS_LIVE_TABLE (self));

  if (!self->live)
    return;
  if (now || self->source_changed ||
      ((is_filtered (self) || is_sorted (self)) &&
       g_get_monotonic_time () - self->last_preview >= PREVIEW_INTERVAL))
    compute_preview (self);
}

gpointer
winnow_live_table_get_row (WinnowLiveTable *self,
                           guint            position)
{
  g_return_val_if_fail (WINNOW_IS_LIVE_TABLE (self), NULL);
  return winnow_slot_list_get_source (self->slots, position);
}

void
winnow_live_table_select (WinnowLiveTable *self,
                          guint            position)
{
  g_return_if_fail (WINNOW_IS_LIVE_TABLE (self));
  select_position (self, position);
}

WinnowSlotList *
winnow_live_table_get_slots (WinnowLiveTable *self)
{
  g_return_val_if_fail (WINNOW_IS_LIVE_TABLE (self), NULL);
  return self->slots;
}

gboolean
winnow_live_table_is_following (WinnowLiveTable *self)
{
  g_return_val_if_fail (WINNOW_IS_LIVE_TABLE (self), FALSE);
  return self->following || winnow_slot_list_is_changing (self->slots);
}
