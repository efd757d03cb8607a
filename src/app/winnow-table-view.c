/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-table-view.c — one table of the tabs (winnow-table-view.h): the
 * columns and their cells, the sorters, the live table behind them, and the
 * cells that show the clock. */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "winnow-table-view.h"
#include "winnow-job-row.h"
#include "winnow-track-row.h"

struct _WinnowTableView
{
  WinnowPanel      parent_instance;

  GtkColumnView   *view;

  WinnowLiveTable *table;
  GHashTable      *live_cells;      /* bound cells showing clock-dependent text */
  guint            catch_up_id;     /* tick: the slots tell a pace more rows a frame */
};

enum {
  PROP_0,
  PROP_REORDERABLE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (WinnowTableView, winnow_table_view, WINNOW_TYPE_PANEL)

static int
natural_compare (const char *a,
                 const char *b)
{
  if (a == NULL || b == NULL)
    return a == b ? 0 : a == NULL ? -1 : 1;

  while (*a != '\0' && *b != '\0')
    {
      if (g_ascii_isdigit (*a) && g_ascii_isdigit (*b))
        {
          const char *sa = a;
          const char *sb = b;
          gsize la, lb;
          int c;

          while (*sa == '0' && g_ascii_isdigit (sa[1]))
            sa++;
          while (*sb == '0' && g_ascii_isdigit (sb[1]))
            sb++;
          a = sa;
          b = sb;
          while (g_ascii_isdigit (*a))
            a++;
          while (g_ascii_isdigit (*b))
            b++;
          la = (gsize) (a - sa);
          lb = (gsize) (b - sb);
          if (la != lb)
            return la < lb ? -1 : 1;
          c = strncmp (sa, sb, la);
          if (c != 0)
            return c < 0 ? -1 : 1;
        }
      else
        {
          if (*a != *b)
            return (guchar) *a < (guchar) *b ? -1 : 1;
          a++;
          b++;
        }
    }
  return *a != '\0' ? 1 : *b != '\0' ? -1 : 0;
}

static int
natural_sort_cb (gconstpointer a,
                 gconstpointer b,
                 gpointer      data)
{
  const WinnowColumnSpec *spec = data;

  return natural_compare (spec->sort_key ((gpointer) a), spec->sort_key ((gpointer) b));
}

/* ---- table cells ---- */

typedef struct {
  WinnowTableView        *view;
  const WinnowColumnSpec *spec;
} ColumnData;

typedef struct {
  const WinnowColumnSpec *spec;
  GtkWidget              *text;       /* GtkInscription, or the state pill */
  GObject                *item;       /* while bound */
  gulong                  text_handler;
  gulong                  style_handler;
  char                   *style;
} Cell;

static void
cell_free (gpointer data)
{
  Cell *cell = data;

  g_free (cell->style);
  g_free (cell);
}

static void
cell_update_text (GtkWidget *widget)
{
  Cell *cell = g_object_get_data (G_OBJECT (widget), "winnow-cell");
  GValue value = G_VALUE_INIT;
  GValue text = G_VALUE_INIT;
  const char *str;

  if (cell == NULL || cell->item == NULL)
    return;
  g_object_get_property (cell->item, cell->spec->property, &value);
  g_value_init (&text, G_TYPE_STRING);
  if (!g_value_transform (&value, &text))
    g_value_set_static_string (&text, "");
  str = g_value_get_string (&text);
  if (GTK_IS_INSCRIPTION (cell->text))
    gtk_inscription_set_text (GTK_INSCRIPTION (cell->text), str);
  else
    gtk_label_set_text (GTK_LABEL (cell->text), str ? str : "");
  g_value_unset (&text);
  g_value_unset (&value);
}

static void
cell_update_style (GtkWidget *widget)
{
  Cell *cell = g_object_get_data (G_OBJECT (widget), "winnow-cell");
  g_autofree char *style = NULL;
  g_autofree char *row_class = NULL;
  g_autofree char *state_class = NULL;

  if (cell == NULL)
    return;
  if (cell->item != NULL)
    g_object_get (cell->item, "style", &style, NULL);
  if (g_strcmp0 (style, cell->style) == 0)
    return;

  if (cell->style != NULL)
    {
      row_class = g_strconcat ("row-", cell->style, NULL);
      state_class = g_strconcat ("state-", cell->style, NULL);
      gtk_widget_remove_css_class (widget, row_class);
      gtk_widget_remove_css_class (cell->text, state_class);
      g_clear_pointer (&row_class, g_free);
      g_clear_pointer (&state_class, g_free);
    }
  g_free (cell->style);
  cell->style = g_steal_pointer (&style);
  if (cell->style != NULL && *cell->style != '\0')
    {
      row_class = g_strconcat ("row-", cell->style, NULL);
      gtk_widget_add_css_class (widget, row_class);
      if (cell->spec->kind == WINNOW_CELL_STATE)
        {
          state_class = g_strconcat ("state-", cell->style, NULL);
          gtk_widget_add_css_class (cell->text, state_class);
        }
    }
}

static void
cell_setup_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               ColumnData               *data)
{
  Cell *cell = g_new0 (Cell, 1);
  GtkWidget *outer;

  cell->spec = data->spec;
  if (data->spec->kind == WINNOW_CELL_STATE)
    {
      outer = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
      cell->text = gtk_label_new (NULL);
      gtk_widget_set_valign (cell->text, GTK_ALIGN_CENTER);
      gtk_widget_add_css_class (cell->text, "state-pill");
      gtk_box_append (GTK_BOX (outer), cell->text);
    }
  else
    {
      outer = gtk_inscription_new (NULL);
      cell->text = outer;
      gtk_inscription_set_nat_chars (GTK_INSCRIPTION (outer), (guint) data->spec->chars);
      gtk_inscription_set_min_chars (GTK_INSCRIPTION (outer), (guint) MIN (data->spec->chars, 4));
      gtk_inscription_set_text_overflow (GTK_INSCRIPTION (outer), GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END);
      if (data->spec->kind == WINNOW_CELL_MONO)
        gtk_widget_add_css_class (outer, "monospace");
      if (data->spec->kind == WINNOW_CELL_NUMBER)
        {
          gtk_widget_add_css_class (outer, "numeric");
          gtk_inscription_set_xalign (GTK_INSCRIPTION (outer), 1.0);
        }
    }
  gtk_widget_add_css_class (outer, "cell");
  g_object_set_data_full (G_OBJECT (outer), "winnow-cell", cell, cell_free);
  gtk_list_item_set_child (item, outer);
}

static void
cell_bind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              ColumnData               *data)
{
  GtkWidget *widget = gtk_list_item_get_child (item);
  Cell *cell = g_object_get_data (G_OBJECT (widget), "winnow-cell");
  g_autofree char *detailed = g_strconcat ("notify::", data->spec->property, NULL);

  cell->item = gtk_list_item_get_item (item);
  cell->text_handler = g_signal_connect_swapped (cell->item, detailed, G_CALLBACK (cell_update_text), widget);
  cell->style_handler = g_signal_connect_swapped (cell->item, "notify::style", G_CALLBACK (cell_update_style), widget);
  cell_update_text (widget);
  cell_update_style (widget);
  if (data->spec->live && data->view->live_cells != NULL)
    g_hash_table_add (data->view->live_cells, widget);
}

static void
cell_unbind_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *item,
                ColumnData               *data)
{
  GtkWidget *widget = gtk_list_item_get_child (item);
  Cell *cell = g_object_get_data (G_OBJECT (widget), "winnow-cell");

  if (cell->item != NULL)
    {
      g_clear_signal_handler (&cell->text_handler, cell->item);
      g_clear_signal_handler (&cell->style_handler, cell->item);
    }
  cell->item = NULL;
  if (data->view->live_cells != NULL)
    g_hash_table_remove (data->view->live_cells, widget);
}

static void
add_columns (WinnowTableView        *self,
             GType                   row_type,
             const WinnowColumnSpec *specs,
             guint                   n_specs)
{
  for (guint i = 0; i < n_specs; i++)
    {
      const WinnowColumnSpec *spec = &specs[i];
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      ColumnData *data = g_new0 (ColumnData, 1);
      g_autoptr(GtkColumnViewColumn) column = NULL;

      data->view = self;
      data->spec = spec;
      g_signal_connect_data (factory, "setup", G_CALLBACK (cell_setup_cb), data,
                             (GClosureNotify) (void (*) (void)) g_free, 0);
      g_signal_connect (factory, "bind", G_CALLBACK (cell_bind_cb), data);
      g_signal_connect (factory, "unbind", G_CALLBACK (cell_unbind_cb), data);

      column = gtk_column_view_column_new (_(spec->title), factory);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_column_set_expand (column, spec->expand);
      if (spec->sort == WINNOW_SORT_NATURAL)
        {
          GtkSorter *sorter = GTK_SORTER (gtk_custom_sorter_new (natural_sort_cb, (gpointer) spec, NULL));

          gtk_column_view_column_set_sorter (column, sorter);
          g_object_unref (sorter);
        }
      else if (spec->sort == WINNOW_SORT_NUMERIC)
        {
          GtkExpression *expression = gtk_property_expression_new (row_type, NULL, spec->sort_property);
          GtkSorter *sorter = GTK_SORTER (gtk_numeric_sorter_new (expression));

          gtk_column_view_column_set_sorter (column, sorter);
          g_object_unref (sorter);
        }
      gtk_column_view_append_column (self->view, column);
    }
}

static void
remove_columns (WinnowTableView *self)
{
  GListModel *columns = gtk_column_view_get_columns (self->view);
  guint n;

  while ((n = g_list_model_get_n_items (columns)) > 0)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, n - 1);

      gtk_column_view_remove_column (self->view, column);
    }
}

static void
refresh_live_cells (WinnowTableView *self)
{
  WnTime now = winnow_session_get_now (winnow_panel_get_session (WINNOW_PANEL (self)));
  GHashTableIter iter;
  gpointer widget;

  g_hash_table_iter_init (&iter, self->live_cells);
  while (g_hash_table_iter_next (&iter, &widget, NULL))
    {
      Cell *cell = g_object_get_data (G_OBJECT (widget), "winnow-cell");

      if (cell != NULL && WINNOW_IS_ROW (cell->item))
        winnow_row_set_now (WINNOW_ROW (cell->item), now);
      cell_update_text (widget);
    }
}

/* How many rows a shown table tells at once: what its view has room for
 * (rows are at least ROW_MIN_HEIGHT pixels), and a few more; a view not laid
 * out yet gets the preview's count. Every row told before the first frame is
 * a row of cells to make and measure for it, whether it shows or not. */
#define ROW_MIN_HEIGHT 24

static guint
shown_pace (WinnowTableView *self)
{
  int height = gtk_widget_get_height (GTK_WIDGET (self->view));

  if (height <= 0)
    return WINNOW_LIVE_TABLE_ROWS;
  return (guint) CLAMP (height / ROW_MIN_HEIGHT + 4, 10, WINNOW_LIVE_TABLE_ROWS);
}

static gboolean
catch_up_cb (GtkWidget     *widget,
             GdkFrameClock *clock,
             gpointer       data)
{
  WinnowTableView *self = data;
  WinnowSlotList *slots = self->table ? winnow_live_table_get_slots (self->table) : NULL;

  if (slots != NULL)
    winnow_slot_list_catch_up (slots, G_MAXUINT);
  if (slots != NULL && winnow_slot_list_is_behind (slots))
    return G_SOURCE_CONTINUE;
  self->catch_up_id = 0;
  return G_SOURCE_REMOVE;
}

/* The slots grew by more than a pace: the rest comes a pace a frame, after
 * the first frame has shown the first rows (winnow-slot-list.h). */
static void
slots_changed_cb (WinnowSlotList  *slots,
                  WinnowTableView *self)
{
  if (self->catch_up_id == 0 && winnow_slot_list_is_behind (slots) && gtk_widget_get_mapped (GTK_WIDGET (self)))
    self->catch_up_id = gtk_widget_add_tick_callback (GTK_WIDGET (self->view), catch_up_cb, self, NULL);
}

static void
stop_catching_up (WinnowTableView *self)
{
  if (self->catch_up_id != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->view), self->catch_up_id);
  self->catch_up_id = 0;
}

/* The selection is attached to the view only while it shows: a hidden table
 * costs nothing. A shown one grows at a pace (winnow-slot-list.h); a hidden
 * one tells every row, for whoever reads the selection. */
static void
winnow_table_view_attach (WinnowPanel *panel,
                          gboolean     shown)
{
  WinnowTableView *self = WINNOW_TABLE_VIEW (panel);
  GtkSelectionModel *want = shown && self->table ? winnow_live_table_get_selection (self->table) : NULL;

  if (self->table != NULL)
    {
      if (!shown)
        stop_catching_up (self);
      winnow_slot_list_set_pace (winnow_live_table_get_slots (self->table), shown ? shown_pace (self) : 0);
    }
  if (gtk_column_view_get_model (self->view) != want)
    gtk_column_view_set_model (self->view, want);
}

/* A big table goes live as soon as the clock runs, before the run's rows
 * reach it; one that leaves live mode re-sorts every row, on the frame of
 * the views below (winnow_table_view_update). */
static void
mode_cb (WinnowSession   *session,
         GParamSpec      *pspec,
         WinnowTableView *self)
{
  if (self->table != NULL && winnow_session_is_playing (session))
    winnow_live_table_set_running (self->table, TRUE);
}

static void
winnow_table_view_dispose (GObject *object)
{
  WinnowTableView *self = WINNOW_TABLE_VIEW (object);

  if (self->table != NULL)
    g_signal_handlers_disconnect_by_data (winnow_live_table_get_slots (self->table), self);
  /* the template first: its cells unbind from the live table's rows */
  G_OBJECT_CLASS (winnow_table_view_parent_class)->dispose (object);
  g_clear_object (&self->table);
}

static void
winnow_table_view_finalize (GObject *object)
{
  WinnowTableView *self = WINNOW_TABLE_VIEW (object);

  g_clear_pointer (&self->live_cells, g_hash_table_unref);
  G_OBJECT_CLASS (winnow_table_view_parent_class)->finalize (object);
}

static void
winnow_table_view_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  WinnowTableView *self = WINNOW_TABLE_VIEW (object);

  switch (prop_id)
    {
    case PROP_REORDERABLE:
      g_value_set_boolean (value, gtk_column_view_get_reorderable (self->view));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_table_view_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  WinnowTableView *self = WINNOW_TABLE_VIEW (object);

  switch (prop_id)
    {
    case PROP_REORDERABLE:
      if (gtk_column_view_get_reorderable (self->view) != g_value_get_boolean (value))
        {
          gtk_column_view_set_reorderable (self->view, g_value_get_boolean (value));
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* The session is the clock: its mode and the time the live cells show. */

static void
winnow_table_view_class_init (WinnowTableViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  WinnowPanelClass *panel_class = WINNOW_PANEL_CLASS (klass);

  object_class->dispose = winnow_table_view_dispose;
  object_class->finalize = winnow_table_view_finalize;
  object_class->get_property = winnow_table_view_get_property;
  object_class->set_property = winnow_table_view_set_property;
  WINNOW_PANEL_CLASS (klass)->attach = winnow_table_view_attach;
  winnow_panel_class_follow (panel_class, "notify::mode", G_CALLBACK (mode_cb));

  /* whether columns can be dragged to another place (the column view's) */
  properties[PROP_REORDERABLE] =
    g_param_spec_boolean ("reorderable", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/winnow-table-view.ui");
  gtk_widget_class_bind_template_child_full (widget_class, "scroller", FALSE, 0);   /* disposed with the template */
  gtk_widget_class_bind_template_child (widget_class, WinnowTableView, view);
}

static void
winnow_table_view_init (WinnowTableView *self)
{
  self->live_cells = g_hash_table_new (NULL, NULL);
  gtk_widget_init_template (GTK_WIDGET (self));
}

void
winnow_table_view_set_model (WinnowTableView        *self,
                             GListModel             *source,
                             GType                   row_type,
                             const WinnowColumnSpec *specs,
                             guint                   n_specs,
                             GtkFilter              *filter,
                             WinnowAssignFunc        assign)
{
  g_return_if_fail (WINNOW_IS_TABLE_VIEW (self));
  g_return_if_fail (G_IS_LIST_MODEL (source));
  g_return_if_fail (filter == NULL || GTK_IS_FILTER (filter));

  winnow_table_view_attach (WINNOW_PANEL (self), FALSE);
  remove_columns (self);
  if (self->table != NULL)
    g_signal_handlers_disconnect_by_data (winnow_live_table_get_slots (self->table), self);
  g_clear_object (&self->table);
  add_columns (self, row_type, specs, n_specs);
  self->table = winnow_live_table_new (source, filter, gtk_column_view_get_sorter (self->view), assign);
  g_signal_connect (winnow_live_table_get_slots (self->table), "changed", G_CALLBACK (slots_changed_cb), self);
  winnow_table_view_attach (WINNOW_PANEL (self), gtk_widget_get_mapped (GTK_WIDGET (self)));
}

WinnowLiveTable *
winnow_table_view_get_table (WinnowTableView *self)
{
  g_return_val_if_fail (WINNOW_IS_TABLE_VIEW (self), NULL);
  return self->table;
}

gboolean
winnow_table_view_is_live (WinnowTableView *self)
{
  g_return_val_if_fail (WINNOW_IS_TABLE_VIEW (self), FALSE);
  return self->table != NULL && winnow_live_table_is_live (self->table);
}

void
winnow_table_view_update (WinnowTableView *self)
{
  WinnowSession *session;

  g_return_if_fail (WINNOW_IS_TABLE_VIEW (self));

  session = winnow_panel_get_session (WINNOW_PANEL (self));
  if (self->table == NULL || session == NULL)
    return;
  winnow_live_table_set_running (self->table, winnow_session_is_playing (session));
  winnow_live_table_update (self->table, FALSE);
  refresh_live_cells (self);
  /* the view may have grown or shrunk since it was shown */
  if (gtk_column_view_get_model (self->view) != NULL)
    winnow_slot_list_set_pace (winnow_live_table_get_slots (self->table), shown_pace (self));
}
