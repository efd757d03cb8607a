/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-tracks-page.c — the Tracks tab: a table of the live tracks, only
 * those at the selected node while one is, and what to do when there is
 * none. A click on a track that waits on a job selects that job. The window
 * calls winnow_tracks_page_update() on the frame that shows the tabs. */
#include "config.h"

#include <glib/gi18n.h>

#include "winnow-tracks-page.h"
#include "winnow-table-view.h"
#include "winnow-track-row.h"

struct _WinnowTracksPage
{
  WinnowPanel      parent_instance;

  GtkStack        *stack;
  WinnowTableView *table;
  AdwStatusPage   *empty;

  GtkFilter       *filter;       /* update_filter */
};

G_DEFINE_FINAL_TYPE (WinnowTracksPage, winnow_tracks_page, WINNOW_TYPE_PANEL)

/* Sort keys read straight from the rows (WinnowSortKeyFunc). */
static const char *track_instance_key (gpointer row) { return winnow_track_row_get_instance (row); }
static const char *track_id_key (gpointer row) { return winnow_row_get_id (WINNOW_ROW (row)); }
static const char *track_node_key (gpointer row) { return winnow_track_row_get_node_name (row); }
static const char *track_state_key (gpointer row) { return wn_track_state_to_string (winnow_track_row_get_state (row)); }
static const char *track_job_key (gpointer row) { return winnow_track_row_get_job (row); }

static const WinnowColumnSpec track_columns[] = {
  { "instance", N_("Instance"), "instance", WINNOW_CELL_MONO, FALSE, WINNOW_SORT_NATURAL, NULL, track_instance_key, FALSE, 8 },
  { "track", N_("Track"), "id", WINNOW_CELL_MONO, FALSE, WINNOW_SORT_NATURAL, NULL, track_id_key, FALSE, 9 },
  { "node", N_("Node"), "node-name", WINNOW_CELL_TEXT, FALSE, WINNOW_SORT_NATURAL, NULL, track_node_key, TRUE, 18 },
  { "state", N_("State"), "state-name", WINNOW_CELL_STATE, FALSE, WINNOW_SORT_NATURAL, NULL, track_state_key, FALSE, 9 },
  { "since", N_("In this state since"), "since-text", WINNOW_CELL_MONO, TRUE, WINNOW_SORT_NUMERIC, "since", NULL, FALSE, 24 },
  { "job", N_("Waiting on job"), "job-text", WINNOW_CELL_MONO, FALSE, WINNOW_SORT_NATURAL, NULL, track_job_key, FALSE, 12 },
};

static gboolean
tracks_filter_func (gpointer item,
                    gpointer data)
{
  WinnowTracksPage *self = data;
  const char *node = winnow_session_get_selected_node (winnow_panel_get_session (WINNOW_PANEL (self)));

  return node == NULL || g_strcmp0 (winnow_track_row_get_node (item), node) == 0;
}

/* The tables' filters run their function only while it has something to
 * do: a custom filter without one matches every row and says so
 * (GTK_FILTER_MATCH_ALL), and the live previews then skip their pass over
 * every row, 10⁵ of them in a big run. */
static void
update_filter (WinnowTracksPage *self)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  gboolean node = session != NULL && winnow_session_get_selected_node (session) != NULL;
  GtkCustomFilterFunc func = node ? tracks_filter_func : NULL;

  gtk_custom_filter_set_filter_func (GTK_CUSTOM_FILTER (self->filter), func, func ? self : NULL, NULL);
}

static void
update_empty_state (WinnowTracksPage *self)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  gboolean loaded = winnow_session_is_loaded (session);
  gboolean node_filter = winnow_session_get_selected_node (session) != NULL;
  guint n_tracks = winnow_live_table_get_n_matching (winnow_table_view_get_table (self->table));
  gboolean pending = winnow_session_get_next_time (session) != WN_TIME_NEVER;

  gtk_stack_set_visible_child_name (self->stack, n_tracks ? "list" : "empty");

  if (!loaded)
    {
      adw_status_page_set_title (self->empty, _("No Process Open"));
      adw_status_page_set_description (self->empty, _("Open a process with Ctrl+O, or drop one on the window."));
    }
  else if (node_filter)
    {
      adw_status_page_set_title (self->empty, _("No Track Is Here"));
      adw_status_page_set_description (self->empty,
                                       _("No live track is at the selected node. Click it again, or the filter chip above, to see every track."));
    }
  else if (pending)
    {
      adw_status_page_set_title (self->empty, _("No Track Runs Yet"));
      adw_status_page_set_description (self->empty,
                                       _("Press F10 to run to the next event, or Space to play."));
    }
  else
    {
      adw_status_page_set_title (self->empty, _("Every Instance Has Finished"));
      adw_status_page_set_description (self->empty,
                                       _("Nothing is left to run. Press Ctrl+R to run it again from T+0, or start an instance from the inspector."));
    }
}

static void
tracks_selection_cb (GtkSingleSelection *selection,
                     GParamSpec         *pspec,
                     WinnowTracksPage   *self)
{
  WinnowTrackRow *row = gtk_single_selection_get_selected_item (selection);

  if (row != NULL && !winnow_live_table_is_following (winnow_table_view_get_table (self->table)) &&
      winnow_track_row_get_job (row) != NULL)
    winnow_session_set_selected_job (winnow_panel_get_session (WINNOW_PANEL (self)), winnow_track_row_get_job (row));
}

static void
selected_node_cb (WinnowSession    *session,
                  GParamSpec       *pspec,
                  WinnowTracksPage *self)
{
  update_filter (self);
  update_empty_state (self);
}

static void
run_changed_cb (WinnowSession    *session,
                WinnowTracksPage *self)
{
  update_empty_state (self);
}

static void
winnow_tracks_page_dispose (GObject *object)
{
  WinnowTracksPage *self = WINNOW_TRACKS_PAGE (object);

  /* the template first: the table's live table holds the filter */
  G_OBJECT_CLASS (winnow_tracks_page_parent_class)->dispose (object);
  g_clear_object (&self->filter);
}

static void
winnow_tracks_page_session_changed (WinnowPanel   *panel,
                                    WinnowSession *old)
{
  WinnowTracksPage *self = WINNOW_TRACKS_PAGE (panel);
  WinnowSession *session = winnow_panel_get_session (panel);

  update_filter (self);
  if (session == NULL)
    return;
  winnow_table_view_set_model (self->table, winnow_session_get_tracks (session), WINNOW_TYPE_TRACK_ROW,
                               track_columns, G_N_ELEMENTS (track_columns),
                               self->filter, (WinnowAssignFunc) winnow_track_row_assign);
  g_signal_connect_object (winnow_live_table_get_selection (winnow_table_view_get_table (self->table)),
                           "notify::selected-item", G_CALLBACK (tracks_selection_cb), self, 0);
  update_empty_state (self);
}

static void
winnow_tracks_page_class_init (WinnowTracksPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  WinnowPanelClass *panel_class = WINNOW_PANEL_CLASS (klass);

  object_class->dispose = winnow_tracks_page_dispose;
  panel_class->session_changed = winnow_tracks_page_session_changed;
  winnow_panel_class_follow (panel_class, "notify::selected-node", G_CALLBACK (selected_node_cb));
  winnow_panel_class_follow (panel_class, "run-changed", G_CALLBACK (run_changed_cb));

  g_type_ensure (WINNOW_TYPE_TABLE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/winnow-tracks-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WinnowTracksPage, stack);
  gtk_widget_class_bind_template_child (widget_class, WinnowTracksPage, table);
  gtk_widget_class_bind_template_child (widget_class, WinnowTracksPage, empty);
}

static void
winnow_tracks_page_init (WinnowTracksPage *self)
{
  self->filter = GTK_FILTER (gtk_custom_filter_new (NULL, NULL, NULL));
  gtk_widget_init_template (GTK_WIDGET (self));
}

void
winnow_tracks_page_update (WinnowTracksPage *self)
{
  g_return_if_fail (WINNOW_IS_TRACKS_PAGE (self));

  if (winnow_panel_get_session (WINNOW_PANEL (self)) == NULL)
    return;
  winnow_table_view_update (self->table);
  update_empty_state (self);
}

gboolean
winnow_tracks_page_is_live (WinnowTracksPage *self)
{
  g_return_val_if_fail (WINNOW_IS_TRACKS_PAGE (self), FALSE);
  return winnow_table_view_is_live (self->table);
}
