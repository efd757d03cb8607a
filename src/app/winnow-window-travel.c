/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-window-travel.c — the window's time-travel actions (issue 22):
 * win.step-back (Shift+F10), win.go-to-time (a duration, "2.3s"),
 * win.go-to-time-dialog (asks for one), win.go-to-event (a journal seq) and
 * win.run-to ("job": the next event of the selected job, or "KIND.PHASE"),
 * win.show-branches (the Branches dialog) and win.switch-branch (an index).
 * Each asks the session (winnow-session-travel.c); the views follow on the
 * next frame as after any step. Step Back is enabled while there is a step
 * to go back to. */
#include "config.h"

#include <inttypes.h>
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
switch_branch_action (GSimpleAction *action,
                      GVariant      *param,
                      gpointer       data)
{
  WinnowWindow *self = data;

  if (!winnow_session_switch_branch (self->session, g_variant_get_uint32 (param)))
    _winnow_window_show_toast (self, _("No such branch"));
  _winnow_window_ensure_tick (self);
}

/* The branches, each with a button that switches to it, and the current
 * one compared with its parent (or the first with the second). */
static GtkWidget *
branches_content (WinnowWindow *self)
{
  guint n = winnow_session_get_n_branches (self->session);
  guint current = winnow_session_get_current_branch (self->session);
  const WinnowBranch *here = winnow_session_get_branch (self->session, current);
  guint other = here->parent != G_MAXUINT ? here->parent : (n > 1 ? 1 : 0);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *list = gtk_list_box_new ();
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *text = gtk_text_view_new ();
  g_autofree char *comparison = winnow_session_compare_branches (self->session, MIN (current, other),
                                                                 MAX (current, other));

  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  for (guint i = 0; i < n; i++)
    {
      const WinnowBranch *branch = winnow_session_get_branch (self->session, i);
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *button = gtk_button_new_with_label (i == current ? _("Shown") : _("Switch"));
      g_autofree char *subtitle = NULL;

      if (branch->parent == G_MAXUINT)
        /* Translators: a branch's line in the Branches dialog */
        subtitle = g_strdup_printf (_("the run as it first went, %" PRIu64 " events"), branch->end);
      else
        subtitle = g_strdup_printf (_("from %s after event %" PRIu64 ", %" PRIu64 " events"),
                                    ((const WinnowBranch *) winnow_session_get_branch (self->session, branch->parent))->name,
                                    branch->fork, branch->end);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), branch->name);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
      gtk_widget_set_sensitive (button, i != current);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.switch-branch");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "u", i);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);
      gtk_list_box_append (GTK_LIST_BOX (list), row);
    }
  gtk_box_append (GTK_BOX (box), list);

  gtk_text_view_set_editable (GTK_TEXT_VIEW (text), FALSE);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (text), TRUE);
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (text), GTK_WRAP_WORD_CHAR);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (text)), comparison ? comparison : "", -1);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), text);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scroller), 260);
  gtk_scrolled_window_set_min_content_width (GTK_SCROLLED_WINDOW (scroller), 640);
  gtk_box_append (GTK_BOX (box), scroller);
  return box;
}

static void
show_branches_action (GSimpleAction *action,
                      GVariant      *param,
                      gpointer       data)
{
  WinnowWindow *self = data;
  AdwMessageDialog *dialog;

  if (winnow_session_get_n_branches (self->session) == 0)
    {
      _winnow_window_show_toast (self, _("No branches yet: go back, change something and run on"));
      return;
    }
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), _("Branches"),
                                                       _("A change made in the past keeps the old future "
                                                         "as a branch. The shown branch against the one it "
                                                         "came from:")));
  adw_message_dialog_set_extra_child (dialog, branches_content (self));
  /* its Switch buttons are the window's actions */
  gtk_widget_insert_action_group (GTK_WIDGET (dialog), "win", G_ACTION_GROUP (self));
  adw_message_dialog_add_responses (dialog, "close", _("_Close"), NULL);
  adw_message_dialog_set_close_response (dialog, "close");
  /* a switch closes it: the views show the branch */
  g_signal_connect_object (self->session, "branches-changed", G_CALLBACK (gtk_window_close), dialog,
                           G_CONNECT_SWAPPED);
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
  { "switch-branch", switch_branch_action, "u", NULL, NULL },
  { "show-branches", show_branches_action, NULL, NULL, NULL },
};

void
_winnow_window_add_travel_actions (WinnowWindow *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), travel_entries, G_N_ELEMENTS (travel_entries), self);
  g_signal_connect_object (self->session, "flushed", G_CALLBACK (flushed_cb), self, 0);
  flushed_cb (self->session, self);
}
