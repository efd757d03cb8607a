/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-run-panel.c — the side panel's run section. Its trust row shows the
 * run's engine-wide trust (winnow_run_panel_set_trust_default()) and sets it
 * for this run; the preference for the next file is win.default-trust. Its
 * Start Instance button is win.start-instance, which calls
 * winnow_run_panel_start_instance(). The window calls
 * winnow_run_panel_update() on the frame that shows the views above the tabs. */
#include "config.h"

#include <glib/gi18n.h>

#include "winnow-run-panel.h"
#include "winnow-panel-util.h"

struct _WinnowRunPanel
{
  WinnowPanel   parent_instance;

  /* template children */
  GtkWidget    *box;
  AdwComboRow  *trust_default_row;
  AdwActionRow *run_stats_row;
  GtkTextView  *variables_view;
  GtkLabel     *start_error;

  gboolean      updating;
};

G_DEFINE_FINAL_TYPE (WinnowRunPanel, winnow_run_panel, WINNOW_TYPE_PANEL)

static void
update_run_stats (WinnowRunPanel *self)
{
  WnEngine *engine = winnow_session_get_engine (winnow_panel_get_session (WINNOW_PANEL (self)));
  WnRunStats stats;
  g_autofree char *text = NULL;

  if (engine == NULL)
    {
      winnow_row_set_subtitle (self->run_stats_row, "—");
      return;
    }
  wn_engine_get_stats (engine, &stats);
  /* Two lines whatever the counts: a line that grows a digit never wraps anew
   * and moves the inspector below it while the run plays.
   * Translators: run totals in the inspector; keep the line break */
  text = g_strdup_printf (_("%u started · %u active\n%u completed · %u terminated"),
                          stats.instances, stats.active, stats.completed, stats.terminated);
  winnow_row_set_subtitle (self->run_stats_row, text);
}

/* The row shows the run's effective engine-wide trust, whoever set it (the
 * row, Restart, a command a loaded session replays). */
static void
update_trust (WinnowRunPanel *self)
{
  WnTrust trust = winnow_session_get_trust_default (winnow_panel_get_session (WINNOW_PANEL (self)));

  if (trust != WN_TRUST_UNSET)
    winnow_run_panel_set_trust_default (self, trust);
}

static void
run_changed_cb (WinnowSession  *session,
                WinnowRunPanel *self)
{
  /* with nothing open there is no run to set or start instances in */
  gtk_widget_set_visible (GTK_WIDGET (self), winnow_session_is_loaded (session));
  update_run_stats (self);
  update_trust (self);
}

static void
trust_default_selected_cb (AdwComboRow    *row,
                           GParamSpec     *pspec,
                           WinnowRunPanel *self)
{
  WinnowSession *session = winnow_panel_get_session (WINNOW_PANEL (self));
  guint selected = adw_combo_row_get_selected (row);

  if (self->updating || session == NULL || selected == GTK_INVALID_LIST_POSITION)
    return;
  winnow_session_set_trust_default (session, selected == 1 ? WN_TRUST_ENGINE_AUTHORITATIVE : WN_TRUST_WORKER_TRUSTED);
}

static void
winnow_run_panel_session_changed (WinnowPanel   *panel,
                                  WinnowSession *old)
{
  WinnowSession *session = winnow_panel_get_session (panel);

  if (session != NULL)
    run_changed_cb (session, WINNOW_RUN_PANEL (panel));
}

static void
winnow_run_panel_class_init (WinnowRunPanelClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  WinnowPanelClass *panel_class = WINNOW_PANEL_CLASS (klass);

  panel_class->session_changed = winnow_run_panel_session_changed;
  winnow_panel_class_follow (panel_class, "run-changed", G_CALLBACK (run_changed_cb));

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/winnow-run-panel.ui");
#define BIND(name) gtk_widget_class_bind_template_child (widget_class, WinnowRunPanel, name)
  BIND (box);
  BIND (trust_default_row);
  BIND (run_stats_row);
  BIND (variables_view);
  BIND (start_error);
#undef BIND
}

/* A message about the variables goes as soon as the user edits them. */
static void
variables_changed_cb (WinnowRunPanel *self)
{
  winnow_field_set_error (self->start_error, NULL);
}

static void
winnow_run_panel_init (WinnowRunPanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect_swapped (gtk_text_view_get_buffer (self->variables_view), "changed",
                            G_CALLBACK (variables_changed_cb), self);
  g_signal_connect (self->trust_default_row, "notify::selected", G_CALLBACK (trust_default_selected_cb), self);
}

void
winnow_run_panel_update (WinnowRunPanel *self)
{
  g_return_if_fail (WINNOW_IS_RUN_PANEL (self));

  if (winnow_panel_get_session (WINNOW_PANEL (self)) != NULL)
    {
      update_run_stats (self);
      update_trust (self);
    }
}

void
winnow_run_panel_set_trust_default (WinnowRunPanel *self,
                                    WnTrust         trust)
{
  guint selected = trust == WN_TRUST_ENGINE_AUTHORITATIVE ? 1 : 0;

  g_return_if_fail (WINNOW_IS_RUN_PANEL (self));

  if (adw_combo_row_get_selected (self->trust_default_row) == selected)
    return;
  self->updating = TRUE;
  adw_combo_row_set_selected (self->trust_default_row, selected);
  self->updating = FALSE;
}

gboolean
winnow_run_panel_start_instance (WinnowRunPanel *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter start, end;
  g_autofree char *text = NULL;
  g_autofree char *message = NULL;
  g_autofree char *done = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  const char *id;

  g_return_val_if_fail (WINNOW_IS_RUN_PANEL (self), FALSE);

  buffer = gtk_text_view_get_buffer (self->variables_view);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  text = g_strstrip (gtk_text_buffer_get_text (buffer, &start, &end, FALSE));
  if (*text != '\0')
    {
      node = winnow_parse_json (text, &message);
      if (node == NULL)
        {
          winnow_field_set_error (self->start_error, message);
          return FALSE;
        }
      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          winnow_field_set_error (self->start_error, _("Variables must be a JSON object, e.g. {\"order\": {\"amount\": 5}}"));
          return FALSE;
        }
    }
  id = winnow_session_start_instance (winnow_panel_get_session (WINNOW_PANEL (self)), node ? json_node_get_object (node) : NULL, &error);
  if (id == NULL)
    {
      winnow_field_set_error (self->start_error, error ? error->message : _("The instance could not start"));
      return FALSE;
    }
  winnow_field_set_error (self->start_error, NULL);
  /* Translators: %s is an instance id */
  done = g_strdup_printf (_("Started instance %s"), id);
  winnow_panel_toast (GTK_WIDGET (self), done);
  return TRUE;
}
