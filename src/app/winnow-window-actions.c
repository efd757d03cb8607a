/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-window-actions.c — the window's actions (win.*): files, the clock,
 * settings, tabs. The menus, the keyboard shortcuts, the toasts' buttons and
 * the tests all reach the window through them. */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include "winnow-window-private.h"

static double
target_to_speed (const char *target)
{
  if (g_strcmp0 (target, "ff") == 0)
    return 0;
  return g_ascii_strtod (target, NULL);
}

static void
clear_job_selection_action (GSimpleAction *action,
                            GVariant      *param,
                            gpointer       data)
{
  WinnowWindow *self = data;

  winnow_session_set_selected_job (self->session, NULL);
}

static void
timeline_zoom_action (GSimpleAction *action,
                      GVariant      *param,
                      gpointer       data)
{
  WinnowWindow *self = data;

  winnow_timeline_page_zoom (self->timeline, g_variant_get_int32 (param));
}

static void
add_breakpoint_action (GSimpleAction *action,
                       GVariant      *param,
                       gpointer       data)
{
  WinnowWindow *self = data;

  winnow_breakpoints_page_add (self->breakpoints);
}

static void
add_breakpoint_spec_action (GSimpleAction *action,
                            GVariant      *param,
                            gpointer       data)
{
  WinnowWindow *self = data;

  winnow_breakpoints_page_add_spec (self->breakpoints, g_variant_get_string (param, NULL));
}

/* Every write checked, and the old file kept until the new one is whole: GIO's
 * replace renamed a half-written file over it when the disk was full. */
static gboolean
write_file (GFile       *file,
            const char  *data,
            gsize        length,
            const char  *what,
            GError     **error)
{
  g_autofree char *path = g_file_get_path (file);

  if (path == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "%s%s", what,
                   _("only local files can be written"));
      return FALSE;
    }
  if (!wn_output_write_file (path, data, length, error))
    {
      g_prefix_error (error, "%s", what);
      return FALSE;
    }
  return TRUE;
}

gboolean
winnow_window_save_session (WinnowWindow  *self,
                            GFile         *file,
                            GError       **error)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (WINNOW_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  text = winnow_session_export_session (self->session);
  if (text == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("No process is loaded"));
      return FALSE;
    }
  if (!write_file (file, text, strlen (text), _("Could not save the session: "), error))
    return FALSE;
  winnow_session_mark_saved (self->session);
  return TRUE;
}

gboolean
winnow_window_export_journal (WinnowWindow  *self,
                              GFile         *file,
                              GError       **error)
{
  gsize length = 0;
  g_autofree char *text = NULL;

  g_return_val_if_fail (WINNOW_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  /* what is queued belongs in the file too */
  winnow_session_flush (self->session);
  text = winnow_session_get_journal_text (self->session, &length);
  return write_file (file, text, length, _("Could not export the journal: "), error);
}

gboolean
winnow_window_save_process (WinnowWindow  *self,
                            GFile         *file,
                            GError       **error)
{
  const char *json;
  GFile *model;
  g_autofree char *text = NULL;

  g_return_val_if_fail (WINNOW_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  json = winnow_session_get_imported_json (self->session);
  model = winnow_session_get_file (self->session);
  if (json == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Only a process imported from BPMN is saved as a Winnow process"));
      return FALSE;
    }
  if (model != NULL && g_file_equal (file, model))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                   _("Could not save the process: that is the BPMN model it came from; choose another file"));
      return FALSE;
    }
  text = g_strconcat (json, "\n", NULL);
  return write_file (file, text, strlen (text), _("Could not save the process: "), error);
}

gboolean
winnow_window_open_scenario (WinnowWindow *self,
                             GFile        *file)
{
  g_autoptr(GPtrArray) diagnostics = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *done = NULL;

  g_return_val_if_fail (WINNOW_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (!winnow_session_load_scenario (self->session, file, &diagnostics, &error))
    {
      winnow_load_errors_show (self->load_errors, file, diagnostics, error);
      return FALSE;
    }
  winnow_load_errors_clear (self->load_errors);
  name = g_file_get_basename (file);
  /* Translators: %s is a file name */
  done = g_strdup_printf (_("Running with “%s” from T+0"), name);
  _winnow_window_show_toast (self, done);
  return TRUE;
}

typedef enum {
  CHOOSE_PROCESS,
  CHOOSE_SCENARIO,
  CHOOSE_SESSION,
  CHOOSE_JOURNAL,
  CHOOSE_PROCESS_EXPORT,
} ChooserPurpose;

static gboolean
close_cb (gpointer data)
{
  gtk_window_close (data);
  return G_SOURCE_REMOVE;
}

/* Close once the dialog that decided it is gone: it is transient for the
 * window and still busy with its response. */
static void
close_later (WinnowWindow *self)
{
  self->close_confirmed = TRUE;
  g_idle_add_full (G_PRIORITY_DEFAULT, close_cb, g_object_ref (self), g_object_unref);
}

static void
chooser_response_cb (GtkNativeDialog *dialog,
                     int              response,
                     WinnowWindow    *self)
{
  ChooserPurpose purpose = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (dialog), "winnow-purpose"));

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autoptr(GError) error = NULL;
      g_autofree char *name = file ? g_file_get_basename (file) : NULL;
      g_autofree char *done = NULL;

      if (file != NULL)
        switch (purpose)
          {
          case CHOOSE_PROCESS:
            winnow_window_load_file (self, file);
            break;
          case CHOOSE_SCENARIO:
            winnow_window_open_scenario (self, file);
            break;
          case CHOOSE_SESSION:
            if (winnow_window_save_session (self, file, &error))
              /* Translators: %s is a file name */
              done = g_strdup_printf (_("Session saved to “%s”: replay it with winnow-run --scenario"), name);
            break;
          case CHOOSE_PROCESS_EXPORT:
            if (winnow_window_save_process (self, file, &error))
              /* Translators: %s is a file name */
              done = g_strdup_printf (_("Process saved to “%s”: add Winnow detail there and open it"), name);
            break;
          case CHOOSE_JOURNAL:
          default:
            if (winnow_window_export_journal (self, file, &error))
              /* Translators: %s is a file name */
              done = g_strdup_printf (_("Journal exported to “%s”"), name);
            break;
          }
      if (purpose == CHOOSE_SESSION && error == NULL && self->close_after_save)
        close_later (self);   /* Save… in the close prompt: saved, so the window goes */
      if (error != NULL)
        {
          /* a failed save stays until dismissed; the run is kept as it was */
          AdwToast *toast = adw_toast_new (error->message);

          adw_toast_set_timeout (toast, 0);
          winnow_toast_queue_add (self->toasts, toast);
        }
      else if (done != NULL)
        _winnow_window_show_toast (self, done);
    }
  if (purpose == CHOOSE_SESSION)
    self->close_after_save = FALSE;
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

/* Where a file dialog opens: the folder of the last file opened; but a save
 * goes where the user can write, so not into a read-only folder such as the
 * installed examples' (then Documents, else home). */
char *
_winnow_window_chooser_folder (WinnowWindow *self,
                               gboolean      saving)
{
  g_autofree char *folder = self->settings ? g_settings_get_string (self->settings, "last-folder") : NULL;
  const char *documents;

  if (folder != NULL && *folder != '\0' && g_file_test (folder, G_FILE_TEST_IS_DIR) &&
      (!saving || g_access (folder, W_OK) == 0))
    return g_steal_pointer (&folder);
  if (!saving)
    return NULL;
  documents = g_get_user_special_dir (G_USER_DIRECTORY_DOCUMENTS);
  if (documents != NULL && g_file_test (documents, G_FILE_TEST_IS_DIR) && g_access (documents, W_OK) == 0)
    return g_strdup (documents);
  return g_strdup (g_get_home_dir ());
}

static void
run_chooser (WinnowWindow   *self,
             ChooserPurpose  purpose)
{
  WnProcess *process = winnow_session_get_process (self->session);
  GtkFileChooserNative *chooser;
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) all = gtk_file_filter_new ();

  if (process == NULL && purpose != CHOOSE_PROCESS)
    return;
  switch (purpose)
    {
    case CHOOSE_PROCESS:
      chooser = gtk_file_chooser_native_new (_("Open Process"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN,
                                             _("_Open"), _("_Cancel"));
      gtk_file_filter_set_name (filter, _("Processes (Winnow JSON, BPMN 2.0)"));
      gtk_file_filter_add_pattern (filter, "*.json");
      gtk_file_filter_add_mime_type (filter, "application/json");
      gtk_file_filter_add_pattern (filter, "*.bpmn");
      gtk_file_filter_add_pattern (filter, "*.bpmn2");
      break;
    case CHOOSE_SCENARIO:
      chooser = gtk_file_chooser_native_new (_("Open Scenario"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN,
                                             _("_Open"), _("_Cancel"));
      gtk_file_filter_set_name (filter, _("Winnow scenarios and sessions (JSON)"));
      gtk_file_filter_add_pattern (filter, "*.json");
      break;
    case CHOOSE_SESSION:
      {
        g_autofree char *name = g_strdup_printf ("%s-session.scenario.json", process->id);

        chooser = gtk_file_chooser_native_new (_("Save Session"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                               _("_Save"), _("_Cancel"));
        gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
        gtk_file_filter_set_name (filter, _("Winnow scenarios (JSON)"));
        gtk_file_filter_add_pattern (filter, "*.json");
      }
      break;
    case CHOOSE_PROCESS_EXPORT:
      {
        g_autofree char *name = g_strdup_printf ("%s.process.json", process->id);

        chooser = gtk_file_chooser_native_new (_("Save as Winnow Process"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
        gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
        gtk_file_filter_set_name (filter, _("Winnow processes (JSON)"));
        gtk_file_filter_add_pattern (filter, "*.json");
      }
      break;
    case CHOOSE_JOURNAL:
    default:
      {
        g_autofree char *name = g_strdup_printf ("%s.journal.jsonl", process->id);

        chooser = gtk_file_chooser_native_new (_("Export Journal"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                               _("_Export"), _("_Cancel"));
        gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
        gtk_file_filter_set_name (filter, _("JSON lines"));
        gtk_file_filter_add_pattern (filter, "*.jsonl");
      }
      break;
    }
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  gtk_file_filter_set_name (all, _("All files"));
  gtk_file_filter_add_pattern (all, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), all);
  gtk_file_chooser_set_filter (GTK_FILE_CHOOSER (chooser), filter);
  {
    g_autofree char *folder = _winnow_window_chooser_folder (self, purpose != CHOOSE_PROCESS && purpose != CHOOSE_SCENARIO);

    if (folder != NULL)
      {
        g_autoptr(GFile) dir = g_file_new_for_path (folder);
        gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), dir, NULL);
      }
  }
  g_object_set_data (G_OBJECT (chooser), "winnow-purpose", GINT_TO_POINTER (purpose));
  g_signal_connect (chooser, "response", G_CALLBACK (chooser_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
close_prompt_response_cb (AdwMessageDialog *dialog,
                          const char       *response,
                          WinnowWindow     *self)
{
  if (g_strcmp0 (response, "discard") == 0)
    close_later (self);
  else if (g_strcmp0 (response, "save") == 0)
    {
      self->close_after_save = TRUE;
      run_chooser (self, CHOOSE_SESSION);
    }
}

gboolean
_winnow_window_ask_before_close (WinnowWindow *self)
{
  GtkWidget *dialog;

  if (self->close_confirmed || !winnow_session_has_unsaved_actions (self->session))
    return FALSE;
  dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Save the Session?"),
                                   _("What you did in this run — started instances, injected faults, trust "
                                     "changes, incident operations — is not saved. A saved session replays it "
                                     "exactly, in the app and with winnow-run."));
  gtk_widget_set_name (dialog, "close-prompt");
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "discard", _("_Discard"),
                                    "save", _("_Save…"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "discard", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "save", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "save");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (close_prompt_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  return TRUE;
}

static void
open_scenario_action (GSimpleAction *action,
                      GVariant      *param,
                      gpointer       data)
{
  run_chooser (data, CHOOSE_SCENARIO);
}

static void
save_process_action (GSimpleAction *action,
                     GVariant      *param,
                     gpointer       data)
{
  run_chooser (data, CHOOSE_PROCESS_EXPORT);
}

static void
save_session_action (GSimpleAction *action,
                     GVariant      *param,
                     gpointer       data)
{
  run_chooser (data, CHOOSE_SESSION);
}

static void
export_journal_action (GSimpleAction *action,
                       GVariant      *param,
                       gpointer       data)
{
  run_chooser (data, CHOOSE_JOURNAL);
}

/* ---- actions ---- */

static void
open_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       data)
{
  run_chooser (data, CHOOSE_PROCESS);
}

static void
open_uri_action (GSimpleAction *action,
                 GVariant      *param,
                 gpointer       data)
{
  WinnowWindow *self = data;
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (param, NULL));

  winnow_window_load_file (self, file);
}

static void
open_example_action (GSimpleAction *action,
                     GVariant      *param,
                     gpointer       data)
{
  WinnowWindow *self = data;
  g_autoptr(GFile) file = g_file_new_for_path (g_variant_get_string (param, NULL));

  winnow_window_open_file (self, file);
}

static void
reload_action (GSimpleAction *action,
               GVariant      *param,
               gpointer       data)
{
  _winnow_window_reload (data);
}

/* What follows a reload that worked, here or on a thread. */
void
_winnow_window_reloaded (WinnowWindow *self)
{
  winnow_load_errors_clear (self->load_errors);
  _winnow_window_show_toast (self, _("Reloaded from disk"));
}

static void
restart_action (GSimpleAction *action,
                GVariant      *param,
                gpointer       data)
{
  WinnowWindow *self = data;

  winnow_session_restart (self->session);
}

static void
play_pause_action (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       data)
{
  WinnowWindow *self = data;

  winnow_session_play_pause (self->session);
  _winnow_window_ensure_tick (self);
}

static void
step_next_action (GSimpleAction *action,
                  GVariant      *param,
                  gpointer       data)
{
  WinnowWindow *self = data;

  if (!winnow_session_step_next (self->session))
    _winnow_window_show_toast (self, _("Nothing is left to run"));
  _winnow_window_ensure_tick (self);
}

static void
step_by_action (GSimpleAction *action,
                GVariant      *param,
                gpointer       data)
{
  WinnowWindow *self = data;

  winnow_session_step_by (self->session, self->step_delta);
  _winnow_window_ensure_tick (self);
}

/* ---- settings-backed actions ----
 * win.set-speed, win.set-step-delta, win.default-trust and
 * win.undecidable-conditions are the settings of
 * the same names (g_settings_create_action()) when the schema is installed,
 * plain stateful actions that check their target otherwise. Either way the
 * window follows the speed's and the step's state, not the code that changed
 * it; the default trust is a preference, read when a file opens (the run's
 * own trust is the run panel's). */

static void
speed_state_cb (GAction      *action,
                GParamSpec   *pspec,
                WinnowWindow *self)
{
  g_autoptr(GVariant) state = g_action_get_state (action);
  double speed = target_to_speed (g_variant_get_string (state, NULL));
  g_autofree char *label = NULL;

  if (self->session == NULL)   /* disposed: the setting outlives the window */
    return;
  winnow_session_set_speed (self->session, speed);
  /* Translators: the speed button shows this for fast-forward */
  label = speed <= 0 ? g_strdup (C_("speed", "FF")) : winnow_transport_describe_speed (speed);
  winnow_transport_set_speed_label (self->transport, label);
  winnow_transport_update (self->transport);
  _winnow_window_ensure_tick (self);
}

static void
step_delta_state_cb (GAction      *action,
                     GParamSpec   *pspec,
                     WinnowWindow *self)
{
  g_autoptr(GVariant) state = g_action_get_state (action);
  WnTime delta = WN_USEC_PER_SEC;
  g_autofree char *text = NULL;
  g_autofree char *label = NULL;

  if (self->session == NULL)
    return;
  if (!wn_duration_parse (g_variant_get_string (state, NULL), &delta, NULL) || delta <= 0)
    delta = WN_USEC_PER_SEC;
  self->step_delta = delta;
  text = wn_duration_format (delta);
  label = g_strdup_printf ("+%s", text);
  winnow_transport_set_step_label (self->transport, label);
}

static gboolean
valid_speed (const char *target)
{
  return g_strcmp0 (target, "ff") == 0 || target_to_speed (target) > 0;
}

static gboolean
valid_step_delta (const char *target)
{
  WnTime delta;

  return wn_duration_parse (target, &delta, NULL) && delta > 0;
}

static gboolean
valid_trust (const char *target)
{
  WnTrust trust;

  return wn_trust_from_string (target, &trust);
}

static gboolean
valid_undecidable (const char *target)
{
  return g_strcmp0 (target, "refuse") == 0 || g_strcmp0 (target, "scenario") == 0;
}

static const struct {
  const char *name;
  const char *fallback;
  gboolean  (*valid) (const char *target);
  void      (*state_cb) (GAction *action, GParamSpec *pspec, WinnowWindow *self);
} setting_actions[] = {
  { "set-speed", "1", valid_speed, speed_state_cb },
  { "set-step-delta", "1s", valid_step_delta, step_delta_state_cb },
  /* the preference for a file that sets none, read when one opens */
  { "default-trust", "workerTrusted", valid_trust, NULL },
  /* what a BPMN condition outside lite's subset becomes, read when one opens */
  { "undecidable-conditions", "refuse", valid_undecidable, NULL },
};

/* Without the schema: take a target only if it is one the setting would. */
static void
change_checked_state (GSimpleAction *action,
                      GVariant      *value,
                      gpointer       data)
{
  guint i = GPOINTER_TO_UINT (data);

  if (setting_actions[i].valid (g_variant_get_string (value, NULL)))
    g_simple_action_set_state (action, value);
}

static void
add_setting_actions (WinnowWindow *self)
{
  GAction *backed[G_N_ELEMENTS (setting_actions)] = { NULL };

  /* the keys by name, in the table's order, where the schema test finds them */
  if (self->settings != NULL)
    {
      backed[0] = g_settings_create_action (self->settings, "set-speed");
      backed[1] = g_settings_create_action (self->settings, "set-step-delta");
      backed[2] = g_settings_create_action (self->settings, "default-trust");
      backed[3] = g_settings_create_action (self->settings, "undecidable-conditions");
    }
  for (guint i = 0; i < G_N_ELEMENTS (setting_actions); i++)
    {
      g_autoptr(GAction) action = backed[i];

      if (action == NULL)
        {
          GSimpleAction *simple = g_simple_action_new_stateful (setting_actions[i].name, G_VARIANT_TYPE_STRING,
                                                                g_variant_new_string (setting_actions[i].fallback));

          g_signal_connect (simple, "change-state", G_CALLBACK (change_checked_state), GUINT_TO_POINTER (i));
          action = G_ACTION (simple);
        }
      g_action_map_add_action (G_ACTION_MAP (self), action);
      if (setting_actions[i].state_cb == NULL)
        continue;
      g_signal_connect_object (action, "notify::state", G_CALLBACK (setting_actions[i].state_cb), self, 0);
      setting_actions[i].state_cb (action, NULL, self);
    }
}

static void
show_tab_action (GSimpleAction *action,
                 GVariant      *param,
                 gpointer       data)
{
  WinnowWindow *self = data;

  adw_view_stack_set_visible_child_name (self->view_stack, g_variant_get_string (param, NULL));
}

static void
find_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       data)
{
  WinnowWindow *self = data;

  adw_view_stack_set_visible_child_name (self->view_stack, "journal");
  winnow_journal_page_focus_search (self->journal);
}

static void
zoom_to_fit_action (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       data)
{
  WinnowWindow *self = data;

  winnow_diagram_zoom_to_fit (winnow_diagram_pane_get_diagram (self->diagram_pane));
}

static void
clear_node_filter_action (GSimpleAction *action,
                          GVariant      *param,
                          gpointer       data)
{
  WinnowWindow *self = data;

  winnow_session_set_selected_node (self->session, NULL);
}

/* win.show-primary-menu (Ctrl+F10): F10 steps, so the primary menu has a
 * key of its own. */
static void
show_primary_menu_action (GSimpleAction *action,
                          GVariant      *param,
                          gpointer       data)
{
  WinnowWindow *self = data;

  gtk_menu_button_popup (self->primary_menu_button);
}

/* win.inject-fault: the fault panel's Inject button. */
static void
inject_fault_action (GSimpleAction *action,
                     GVariant      *param,
                     gpointer       data)
{
  WinnowWindow *self = data;

  if (winnow_fault_panel_inject (winnow_inspector_get_fault_panel (self->inspector)))
    _winnow_window_ensure_tick (self);
}

/* win.cancel-injection(id): a pending injection's Cancel button. */
static void
cancel_injection_action (GSimpleAction *action,
                         GVariant      *param,
                         gpointer       data)
{
  WinnowWindow *self = data;
  guint id = g_variant_get_uint32 (param);
  GPtrArray *injections = winnow_session_get_injections (self->session);
  g_autofree char *what = NULL;
  g_autofree char *where = NULL;
  g_autofree char *done = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; injections != NULL && i < injections->len && what == NULL; i++)
    {
      const WnInjection *injection = g_ptr_array_index (injections, i);

      if (injection->id == id)
        {
          what = wn_response_describe (injection->response);
          where = g_strdup (injection->worker ? injection->worker : injection->topic);
        }
    }
  if (!winnow_session_cancel_injection (self->session, id, &error))
    {
      _winnow_window_show_toast (self, error->message);
      return;
    }
  /* Translators: "Cancelled the injected crash on authorize" (a topic or a worker) */
  done = g_strdup_printf (_("Cancelled the injected %s on %s"), what, where);
  _winnow_window_show_toast (self, done);
}

/* win.show-side-panel (F9, boolean state): the inspector away, the diagram
 * taking its room, for a small window; and back. */
static void
show_side_panel_change (GSimpleAction *action,
                        GVariant      *state,
                        gpointer       data)
{
  WinnowWindow *self = data;

  gtk_widget_set_visible (GTK_WIDGET (self->inspector), g_variant_get_boolean (state));
  g_simple_action_set_state (action, state);
}

/* win.start-instance: the run panel's Start Instance button. */
static void
start_instance_action (GSimpleAction *action,
                       GVariant      *param,
                       gpointer       data)
{
  WinnowWindow *self = data;

  if (winnow_run_panel_start_instance (winnow_inspector_get_run_panel (self->inspector)))
    _winnow_window_ensure_tick (self);
}

/* win.toast: how a panel says something short (winnow_panel_toast). */
static void
toast_action (GSimpleAction *action,
              GVariant      *param,
              gpointer       data)
{
  _winnow_window_show_toast (data, g_variant_get_string (param, NULL));
}

static void
cancel_load_action (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       data)
{
  winnow_window_cancel_load (data);
}

static const GActionEntry win_entries[] = {
  { "toast", toast_action, "s", NULL, NULL },
  { "open", open_action, NULL, NULL, NULL },
  { "open-recent", open_uri_action, "s", NULL, NULL },
  { "open-example", open_example_action, "s", NULL, NULL },
  { "cancel-load", cancel_load_action, NULL, NULL, NULL },
  { "reload", reload_action, NULL, NULL, NULL },
  { "restart", restart_action, NULL, NULL, NULL },
  { "play-pause", play_pause_action, NULL, NULL, NULL },
  { "step-next", step_next_action, NULL, NULL, NULL },
  { "step-by", step_by_action, NULL, NULL, NULL },
  { "show-tab", show_tab_action, "s", NULL, NULL },
  { "find", find_action, NULL, NULL, NULL },
  { "zoom-to-fit", zoom_to_fit_action, NULL, NULL, NULL },
  { "clear-node-filter", clear_node_filter_action, NULL, NULL, NULL },
  { "open-scenario", open_scenario_action, NULL, NULL, NULL },
  { "save-session", save_session_action, NULL, NULL, NULL },
  { "export-journal", export_journal_action, NULL, NULL, NULL },
  { "save-process", save_process_action, NULL, NULL, NULL },
  { "clear-job-selection", clear_job_selection_action, NULL, NULL, NULL },
  { "timeline-zoom", timeline_zoom_action, "i", NULL, NULL },
  { "add-breakpoint", add_breakpoint_action, NULL, NULL, NULL },
  { "add-breakpoint-spec", add_breakpoint_spec_action, "s", NULL, NULL },
  { "inject-fault", inject_fault_action, NULL, NULL, NULL },
  { "cancel-injection", cancel_injection_action, "u", NULL, NULL },
  { "show-side-panel", NULL, NULL, "true", show_side_panel_change },
  { "show-primary-menu", show_primary_menu_action, NULL, NULL, NULL },
  { "start-instance", start_instance_action, NULL, NULL, NULL },
};


/* The settings keep a settings-backed action alive after the window's action
 * group is gone, and the group does not disconnect from what it still holds:
 * take them out while it can. */
void
_winnow_window_remove_setting_actions (WinnowWindow *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (setting_actions); i++)
    g_action_map_remove_action (G_ACTION_MAP (self), setting_actions[i].name);
}

void
_winnow_window_add_actions (WinnowWindow *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), win_entries, G_N_ELEMENTS (win_entries), self);
  add_setting_actions (self);
  _winnow_window_add_travel_actions (self);
}
