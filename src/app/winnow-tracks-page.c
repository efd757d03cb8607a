/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-tracks-page.c — the Tracks tab: a table of the live tracks, only
 * those at the selected node while one is, and what to do when there is
 * none. A click on a track that waits on a job selects that job. The window
 * calls winnow_tracks_page_update() on the frame that shows the tabs. */
#include "config.h"

#include <glib/gi18n.h>

#include "winnow-tracks-page.h"
#include "winnow-table-page.h"
#include "winnow-track-row.h"

struct _WinnowTracksPage
{
  WinnowTablePage parent_instance;
};

G_DEFINE_FINAL_TYPE (WinnowTracksPage, winnow_tracks_page, WINNOW_TYPE_TABLE_PAGE)

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

static GListModel *
winnow_tracks_page_rows (WinnowTablePage *page,
                         WinnowSession   *session)
{
  return winnow_session_get_tracks (session);
}

static gboolean
winnow_tracks_page_filtering (WinnowTablePage *page)
{
  return winnow_session_get_selected_node (winnow_panel_get_session (WINNOW_PANEL (page))) != NULL;
}

static gboolean
winnow_tracks_page_match (WinnowTablePage *page,
                          gpointer         row)
{
  const char *node = winnow_session_get_selected_node (winnow_panel_get_session (WINNOW_PANEL (page)));

  return node == NULL || g_strcmp0 (winnow_track_row_get_node (row), node) == 0;
}

static void
winnow_tracks_page_update_empty (WinnowTablePage *page,
                                 guint            n_shown,
                                 guint            n_rows)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (page));

  if (!winnow_session_is_loaded (session))
    winnow_table_page_set_empty (page, _("No Process Open"),
                                 _("Open a process with Ctrl+O, or drop one on the window."));
  else if (winnow_session_get_selected_node (session) != NULL)
    winnow_table_page_set_empty (page, _("No Track Is Here"),
                                 _("No live track is at the selected node. Click it again, or the filter chip above, to see every track."));
  else if (winnow_session_get_next_time (session) != WN_TIME_NEVER)
    winnow_table_page_set_empty (page, _("No Track Runs Yet"),
                                 _("Press F10 to run to the next event, or Space to play."));
  else
    winnow_table_page_set_empty (page, _("Every Instance Has Finished"),
                                 _("Nothing is left to run. Press Ctrl+R to run it again from T+0, or start an instance from the inspector."));
}

/* A click on a track that waits on a job selects the job. */
static void
winnow_tracks_page_row_selected (WinnowTablePage *page,
                                 gpointer         row)
{
  if (winnow_track_row_get_job (row) != NULL)
    winnow_session_set_selected_job (winnow_panel_get_session (WINNOW_PANEL (page)), winnow_track_row_get_job (row));
}

static void
selected_node_cb (WinnowSession    *session,
                  GParamSpec       *pspec,
                  WinnowTracksPage *self)
{
  winnow_table_page_refilter (WINNOW_TABLE_PAGE (self));
}

static void
winnow_tracks_page_class_init (WinnowTracksPageClass *klass)
{
  WinnowPanelClass *panel_class = WINNOW_PANEL_CLASS (klass);
  WinnowTablePageClass *page_class = WINNOW_TABLE_PAGE_CLASS (klass);

  page_class->rows = winnow_tracks_page_rows;
  page_class->filtering = winnow_tracks_page_filtering;
  page_class->match = winnow_tracks_page_match;
  page_class->update_empty = winnow_tracks_page_update_empty;
  page_class->row_selected = winnow_tracks_page_row_selected;
  winnow_panel_class_follow (panel_class, "notify::selected-node", G_CALLBACK (selected_node_cb));
  winnow_table_page_class_set_table (page_class, RESOURCE_BASE "/winnow-tracks-page.ui", WINNOW_TYPE_TRACK_ROW,
                                     track_columns, G_N_ELEMENTS (track_columns));
}

static void
winnow_tracks_page_init (WinnowTracksPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
