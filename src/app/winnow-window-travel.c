/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-window-travel.c — the window's time-travel actions (issue 22):
 * win.step-back (Shift+F10), win.go-to-time (a duration, "2.3s"),
 * win.go-to-time-dialog (asks for one), win.go-to-event (a journal seq) and
 * win.run-to ("job": the next event of the selected job, or "KIND.PHASE").
 * Each asks the session (winnow-session-travel.c); the views follow on the
 * next frame as after any step. Step Back is enabled while there is a step
 * to go back to. */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "winnow-window-private.h"

static void
step_back_action (GSimpleAction *action,
                  GVariant      *param,
                  gpointer       data)
{
  WinnowWindow *self = data;

  if (!winnow_session_step_back (self->session))
    _winnow_window_show_toast (self, _("Nothing to step back to"));
  _winnow_window_ensure_tick (self);
}

/* An instant as the clock shows it ("T+01:02.250", "1:00:00.000", the "T+"
 * optional) or as a duration ("2.3s", "1m30s"). */
static gboolean
parse_instant (const char *text,
               WnTime     *instant,
               GError    **error)
{
  g_auto(GStrv) parts = NULL;
  g_autofree char *duration = NULL;
  guint n;

  if (g_str_has_prefix (text, "T+"))
    text += 2;
  if (strchr (text, ':') == NULL)
    return wn_duration_parse (text, instant, error);
  parts = g_strsplit (text, ":", -1);
  n = g_strv_length (parts);
  if (n > 3)
    return wn_duration_parse (text, instant, error);
  /* [hours:]minutes:seconds, as a duration the engine reads */
  duration = n == 3 ? g_strdup_printf ("%sh%sm%ss", parts[0], parts[1], parts[2])
                    : g_strdup_printf ("%sm%ss", parts[0], parts[1]);
  return wn_duration_parse (duration, instant, error);
}

static void
go_to_time_action (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       data)
{
  WinnowWindow *self = data;
  const char *text = g_variant_get_string (param, NULL);
  g_autoptr(GError) error = NULL;
  WnTime instant;

  if (!parse_instant (text, &instant, &error))
    {
      g_autofree char *message = g_strdup_printf (_("Not a time: %s"), error->message);

      _winnow_window_show_toast (self, message);
      return;
    }
  winnow_session_go_to_time (self->session, instant);
  _winnow_window_ensure_tick (self);
}

static void
go_to_event_action (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       data)
{
  WinnowWindow *self = data;

  if (!winnow_session_go_to_event (self->session, g_variant_get_uint64 (param)))
    _winnow_window_show_toast (self, _("The run ends before that event"));
  _winnow_window_ensure_tick (self);
}

static void
run_to_action (GSimpleAction *action,
               GVariant      *param,
               gpointer       data)
{
  WinnowWindow *self = data;
  const char *spec = g_variant_get_string (param, NULL);
  const char *job = winnow_session_get_selected_job (self->session);
  WnEventKind kind;
  WnEventPhase phase;
  g_autofree char *node = NULL;
  gboolean found;

  if (g_str_equal (spec, "job"))
    {
      if (job == NULL)
        {
          _winnow_window_show_toast (self, _("Select a job first"));
          return;
        }
      found = winnow_session_run_to_event (self->session, -1, -1, job);
    }
  else if (wn_breakpoint_parse (spec, &kind, &phase, &node, NULL) && node == NULL)
    found = winnow_session_run_to_event (self->session, (int) kind, (int) phase, NULL);
  else
    {
      g_warning ("win.run-to: not KIND.PHASE or job: %s", spec);
      return;
    }
  if (!found)
    _winnow_window_show_toast (self, _("The run ended before such an event"));
  _winnow_window_ensure_tick (self);
}

static void
go_to_time_response_cb (AdwMessageDialog *dialog,
                        const char       *response,
                        WinnowWindow     *self)
{
  GtkEditable *entry = GTK_EDITABLE (adw_message_dialog_get_extra_child (dialog));

  if (g_str_equal (response, "go"))
    g_action_group_activate_action (G_ACTION_GROUP (self), "go-to-time",
                                    g_variant_new_string (gtk_editable_get_text (entry)));
}

static void
go_to_time_dialog_action (GSimpleAction *action,
                          GVariant      *param,
                          gpointer       data)
{
  WinnowWindow *self = data;
  GtkWidget *entry = gtk_entry_new ();
  g_autofree char *now = wn_time_format_clock (winnow_session_get_now (self->session));
  AdwMessageDialog *dialog;

  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), _("Go to Time"),
                                                       _("The run goes to that instant, earlier or later: "
                                                         "everything due by then has run.")));
  gtk_editable_set_text (GTK_EDITABLE (entry), now);
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  adw_message_dialog_set_extra_child (dialog, entry);
  adw_message_dialog_add_responses (dialog, "cancel", _("_Cancel"), "go", _("_Go"), NULL);
  adw_message_dialog_set_response_appearance (dialog, "go", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (dialog, "go");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (go_to_time_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
flushed_cb (WinnowSession *session,
            WinnowWindow  *self)
{
  GAction *back = g_action_map_lookup_action (G_ACTION_MAP (self), "step-back");

  g_simple_action_set_enabled (G_SIMPLE_ACTION (back), winnow_session_can_step_back (session));
}

static const GActionEntry travel_entries[] = {
  { "step-back", step_back_action, NULL, NULL, NULL },
  { "go-to-time", go_to_time_action, "s", NULL, NULL },
  { "go-to-time-dialog", go_to_time_dialog_action, NULL, NULL, NULL },
  { "go-to-event", go_to_event_action, "t", NULL, NULL },
  { "run-to", run_to_action, "s", NULL, NULL },
};

void
_winnow_window_add_travel_actions (WinnowWindow *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), travel_entries, G_N_ELEMENTS (travel_entries), self);
  g_signal_connect_object (self->session, "flushed", G_CALLBACK (flushed_cb), self, 0);
  flushed_cb (self->session, self);
}
