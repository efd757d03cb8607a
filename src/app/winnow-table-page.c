/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-table-page.c — the base of the one-table tabs (winnow-table-page.h).
 * A page subclasses WinnowTablePage, names its template and table in
 * class_init (winnow_table_page_class_set_table) and says which rows match
 * its filters and why none shows. */
#include "config.h"

#include "winnow-table-page.h"
#include "winnow-panel-util.h"
#include "winnow-row.h"

typedef struct
{
  GtkStack        *stack;
  WinnowTableView *table;
  AdwStatusPage   *empty;

  GtkFilter       *filter;   /* refilter(): a function only while the page filters */
  GListModel      *rows;     /* what the table shows, while a session is */
  char            *needle;   /* casefolded search, or NULL */
} WinnowTablePagePrivate;

/* What a page class shows (winnow_table_page_class_set_table), kept on its GType. */
typedef struct
{
  GType                   row_type;
  const WinnowColumnSpec *columns;
  guint                   n_columns;
} TableClass;

static GQuark table_quark;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (WinnowTablePage, winnow_table_page, WINNOW_TYPE_PANEL)

static const TableClass *
table_class (WinnowTablePage *self)
{
  for (GType type = G_OBJECT_TYPE (self); type != WINNOW_TYPE_TABLE_PAGE; type = g_type_parent (type))
    {
      const TableClass *table = g_type_get_qdata (type, table_quark);

      if (table != NULL)
        return table;
    }
  g_return_val_if_reached (NULL);
}

static gboolean
filter_func (gpointer item,
             gpointer data)
{
  return WINNOW_TABLE_PAGE_GET_CLASS (data)->match (data, item);
}

/* The filter runs its function only while it has something to do: a custom
 * filter without one matches every row and says so (GTK_FILTER_MATCH_ALL),
 * and the live previews then skip their pass over every row, 10⁵ of them in
 * a big run. */
static void
update_filter (WinnowTablePage *self)
{
  WinnowTablePagePrivate *priv = winnow_table_page_get_instance_private (self);
  WinnowTablePageClass *klass = WINNOW_TABLE_PAGE_GET_CLASS (self);
  gboolean filtering = winnow_panel_get_session (WINNOW_PANEL (self)) != NULL &&
                       klass->filtering != NULL && klass->filtering (self);
  GtkCustomFilterFunc func = filtering ? filter_func : NULL;

  gtk_custom_filter_set_filter_func (GTK_CUSTOM_FILTER (priv->filter), func, func ? self : NULL, NULL);
}

static void
selection_cb (GtkSingleSelection *selection,
              GParamSpec         *pspec,
              WinnowTablePage    *self)
{
  WinnowTablePagePrivate *priv = winnow_table_page_get_instance_private (self);
  gpointer row = gtk_single_selection_get_selected_item (selection);

  if (row != NULL && !winnow_live_table_is_following (winnow_table_view_get_table (priv->table)))
    WINNOW_TABLE_PAGE_GET_CLASS (self)->row_selected (self, row);
}

static void
search_changed_cb (GtkSearchEntry  *entry,
                   WinnowTablePage *self)
{
  WinnowTablePagePrivate *priv = winnow_table_page_get_instance_private (self);

  winnow_search_set_needle (GTK_EDITABLE (entry), &priv->needle);
  winnow_table_page_refilter (self);
}

/* A new run: other rows, and maybe other reasons for none. */
static void
run_changed_cb (WinnowSession   *session,
                WinnowTablePage *self)
{
  winnow_table_page_update_empty (self);
}

static void
winnow_table_page_session_changed (WinnowPanel   *panel,
                                   WinnowSession *old)
{
  WinnowTablePage *self = WINNOW_TABLE_PAGE (panel);
  WinnowTablePagePrivate *priv = winnow_table_page_get_instance_private (self);
  WinnowSession *session = winnow_panel_get_session (panel);
  const TableClass *table = table_class (self);

  g_clear_object (&priv->rows);
  update_filter (self);
  if (session == NULL)
    return;
  priv->rows = g_object_ref (WINNOW_TABLE_PAGE_GET_CLASS (self)->rows (self, session));
  winnow_table_view_set_model (priv->table, priv->rows, table->row_type, table->columns, table->n_columns,
                               priv->filter, winnow_row_assign_from);
  if (WINNOW_TABLE_PAGE_GET_CLASS (self)->row_selected != NULL)
    g_signal_connect_object (winnow_live_table_get_selection (winnow_table_view_get_table (priv->table)),
                             "notify::selected-item", G_CALLBACK (selection_cb), self, 0);
  winnow_table_page_update_empty (self);
}

static void
winnow_table_page_dispose (GObject *object)
{
  WinnowTablePagePrivate *priv = winnow_table_page_get_instance_private (WINNOW_TABLE_PAGE (object));

  /* the template first: the table's live table holds the filter */
  G_OBJECT_CLASS (winnow_table_page_parent_class)->dispose (object);
  g_clear_object (&priv->filter);
  g_clear_object (&priv->rows);
}

static void
winnow_table_page_finalize (GObject *object)
{
  WinnowTablePagePrivate *priv = winnow_table_page_get_instance_private (WINNOW_TABLE_PAGE (object));

  g_clear_pointer (&priv->needle, g_free);
  G_OBJECT_CLASS (winnow_table_page_parent_class)->finalize (object);
}

static void
winnow_table_page_class_init (WinnowTablePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = winnow_table_page_dispose;
  object_class->finalize = winnow_table_page_finalize;
  WINNOW_PANEL_CLASS (klass)->session_changed = winnow_table_page_session_changed;
  winnow_panel_class_follow (WINNOW_PANEL_CLASS (klass), "run-changed", G_CALLBACK (run_changed_cb));
  table_quark = g_quark_from_static_string ("winnow-table-page-table");
}

static void
winnow_table_page_init (WinnowTablePage *self)
{
  WinnowTablePagePrivate *priv = winnow_table_page_get_instance_private (self);

  priv->filter = GTK_FILTER (gtk_custom_filter_new (NULL, NULL, NULL));
}

void
winnow_table_page_class_set_table (WinnowTablePageClass   *klass,
                                   const char             *resource,
                                   GType                   row_type,
                                   const WinnowColumnSpec *columns,
                                   guint                   n_columns)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  TableClass *table = g_new (TableClass, 1);   /* kept as long as the class: the process */

  g_return_if_fail (WINNOW_IS_TABLE_PAGE_CLASS (klass));

  table->row_type = row_type;
  table->columns = columns;
  table->n_columns = n_columns;
  g_type_set_qdata (G_TYPE_FROM_CLASS (klass), table_quark, table);

  g_type_ensure (WINNOW_TYPE_TABLE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, resource);
  gtk_widget_class_bind_template_child_private (widget_class, WinnowTablePage, stack);
  gtk_widget_class_bind_template_child_private (widget_class, WinnowTablePage, table);
  gtk_widget_class_bind_template_child_private (widget_class, WinnowTablePage, empty);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
}

WinnowLiveTable *
winnow_table_page_get_table (WinnowTablePage *self)
{
  WinnowTablePagePrivate *priv = winnow_table_page_get_instance_private (self);

  g_return_val_if_fail (WINNOW_IS_TABLE_PAGE (self), NULL);
  return winnow_table_view_get_table (priv->table);
}

const char *
winnow_table_page_get_needle (WinnowTablePage *self)
{
  WinnowTablePagePrivate *priv = winnow_table_page_get_instance_private (self);

  g_return_val_if_fail (WINNOW_IS_TABLE_PAGE (self), NULL);
  return priv->needle;
}

void
winnow_table_page_refilter (WinnowTablePage *self)
{
  g_return_if_fail (WINNOW_IS_TABLE_PAGE (self));

  update_filter (self);
  winnow_table_page_update_empty (self);
}

void
winnow_table_page_rows_changed (WinnowTablePage *self)
{
  WinnowTablePagePrivate *priv = winnow_table_page_get_instance_private (self);

  g_return_if_fail (WINNOW_IS_TABLE_PAGE (self));

  gtk_filter_changed (priv->filter, GTK_FILTER_CHANGE_DIFFERENT);
}

void
winnow_table_page_set_empty (WinnowTablePage *self,
                             const char      *title,
                             const char      *description)
{
  WinnowTablePagePrivate *priv = winnow_table_page_get_instance_private (self);

  g_return_if_fail (WINNOW_IS_TABLE_PAGE (self));

  adw_status_page_set_title (priv->empty, title);
  adw_status_page_set_description (priv->empty, description);
}

void
winnow_table_page_update_empty (WinnowTablePage *self)
{
  WinnowTablePagePrivate *priv = winnow_table_page_get_instance_private (self);
  WinnowLiveTable *table;
  guint n_shown;

  g_return_if_fail (WINNOW_IS_TABLE_PAGE (self));

  table = winnow_table_view_get_table (priv->table);
  if (priv->rows == NULL || table == NULL)
    return;
  n_shown = winnow_live_table_get_n_matching (table);
  gtk_stack_set_visible_child_name (priv->stack, n_shown ? "list" : "empty");
  WINNOW_TABLE_PAGE_GET_CLASS (self)->update_empty (self, n_shown, g_list_model_get_n_items (priv->rows));
}

void
winnow_table_page_update (WinnowTablePage *self)
{
  WinnowTablePagePrivate *priv = winnow_table_page_get_instance_private (self);

  g_return_if_fail (WINNOW_IS_TABLE_PAGE (self));

  if (winnow_panel_get_session (WINNOW_PANEL (self)) == NULL)
    return;
  if (WINNOW_TABLE_PAGE_GET_CLASS (self)->update != NULL)
    WINNOW_TABLE_PAGE_GET_CLASS (self)->update (self);
  winnow_table_view_update (priv->table);
  winnow_table_page_update_empty (self);
}

gboolean
winnow_table_page_is_live (WinnowTablePage *self)
{
  WinnowTablePagePrivate *priv = winnow_table_page_get_instance_private (self);

  g_return_val_if_fail (WINNOW_IS_TABLE_PAGE (self), FALSE);
  return winnow_table_view_is_live (priv->table);
}
