/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-window-files.c — how files reach the window: opening a process
 * (the session loads it), the recent files, the bundled examples, and a
 * file dropped on the window. */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "winnow-window-private.h"

#define DEFAULT_EXAMPLE "order-fulfilment.process.json"

void
_winnow_window_rebuild_recent_menu (WinnowWindow *self)
{
  g_auto(GStrv) uris = NULL;
  guint n = 0;

  g_menu_remove_all (self->recent_menu);
  if (self->settings != NULL)
    uris = g_settings_get_strv (self->settings, "recent-files");
  else
    {
      GtkRecentManager *manager = gtk_recent_manager_get_default ();
      GList *items = gtk_recent_manager_get_items (manager);
      GPtrArray *found = g_ptr_array_new ();

      for (GList *l = items; l != NULL && found->len < MAX_RECENT; l = l->next)
        {
          const char *uri = gtk_recent_info_get_uri (l->data);

          if ((g_str_has_suffix (uri, ".process.json") || g_str_has_suffix (uri, ".bpmn")) &&
              gtk_recent_info_exists (l->data))
            g_ptr_array_add (found, g_strdup (uri));
        }
      g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
      g_ptr_array_add (found, NULL);
      uris = (GStrv) g_ptr_array_free (found, FALSE);
    }

  for (guint i = 0; uris != NULL && uris[i] != NULL && n < MAX_RECENT; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_uri (uris[i]);
      g_autofree char *name = g_file_get_basename (file);
      g_autoptr(GMenuItem) item = g_menu_item_new (name, NULL);

      g_menu_item_set_action_and_target_value (item, "win.open-recent", g_variant_new_string (uris[i]));
      g_menu_append_item (self->recent_menu, item);
      n++;
    }
  if (n == 0)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_("No recent processes"), "win.none");
      g_menu_append_item (self->recent_menu, item);
    }
}

static void
remember_file (WinnowWindow *self,
               GFile        *file)
{
  g_autofree char *uri = g_file_get_uri (file);
  g_autoptr(GFile) parent = g_file_get_parent (file);
  GtkRecentData recent = { 0 };

  recent.mime_type = (char *) (g_str_has_suffix (uri, ".bpmn") ? "application/xml" : "application/json");
  recent.app_name = (char *) (g_get_application_name () ? g_get_application_name () : "winnow");
  recent.app_exec = (char *) "winnow %u";
  gtk_recent_manager_add_full (gtk_recent_manager_get_default (), uri, &recent);
  if (self->settings != NULL)
    {
      g_auto(GStrv) old = g_settings_get_strv (self->settings, "recent-files");
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
      g_auto(GStrv) uris = NULL;
      guint n = 1;

      g_strv_builder_add (builder, uri);
      for (guint i = 0; old[i] != NULL && n < MAX_RECENT; i++)
        if (g_strcmp0 (old[i], uri) != 0)
          {
            g_strv_builder_add (builder, old[i]);
            n++;
          }
      uris = g_strv_builder_end (builder);
      g_settings_set_strv (self->settings, "recent-files", (const char * const *) uris);
      if (parent != NULL)
        {
          g_autofree char *folder = g_file_get_path (parent);
          if (folder != NULL)
            g_settings_set_string (self->settings, "last-folder", folder);
        }
    }
  _winnow_window_rebuild_recent_menu (self);
}

/* ---- a BPMN collaboration: which process ---- */

static void load_process (WinnowWindow *self, GFile *file, const char *process_id);

static void
process_chosen_cb (AdwMessageDialog *dialog,
                   const char       *response,
                   WinnowWindow     *self)
{
  GFile *file = g_object_get_data (G_OBJECT (dialog), "winnow-file");
  GStrv ids = g_object_get_data (G_OBJECT (dialog), "winnow-ids");
  GtkDropDown *list = GTK_DROP_DOWN (adw_message_dialog_get_extra_child (dialog));
  guint chosen = gtk_drop_down_get_selected (list);

  if (g_strcmp0 (response, "open") == 0 && chosen < g_strv_length (ids))
    load_process (self, file, ids[chosen]);
}

/* A BPMN file with several executable processes (`ids`, taken, with their
 * `names`) asks which one (as winnow-run --process does); FALSE when the
 * file is not such a one. */
static gboolean
ask_process (WinnowWindow *self,
             GFile        *file,
             GStrv         ids,
             GStrv         names)
{
  g_autofree char *name = g_file_get_basename (file);
  g_autoptr(GtkStringList) labels = gtk_string_list_new (NULL);
  AdwMessageDialog *dialog;
  GtkWidget *list;

  if (ids == NULL || g_strv_length (ids) < 2)
    {
      g_strfreev (ids);
      return FALSE;
    }
  for (guint i = 0; ids[i] != NULL; i++)
    {
      g_autofree char *label = *names[i] != '\0' ? g_strdup_printf ("%s (%s)", names[i], ids[i]) : g_strdup (ids[i]);

      gtk_string_list_append (labels, label);
    }
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), _("Which Process?"), NULL));
  /* Translators: %s is a file name, %u the number of processes in it (2 or more) */
  adw_message_dialog_format_body (dialog, _("“%s” holds %u executable processes. Choose the one to simulate."),
                                  name, g_strv_length (ids));
  list = gtk_drop_down_new (G_LIST_MODEL (g_steal_pointer (&labels)), NULL);
  gtk_widget_set_name (list, "process-chooser");
  adw_message_dialog_set_extra_child (dialog, list);
  adw_message_dialog_add_responses (dialog, "cancel", _("_Cancel"), "open", _("_Open"), NULL);
  adw_message_dialog_set_response_appearance (dialog, "open", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (dialog, "open");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "winnow-file", g_object_ref (file), g_object_unref);
  g_object_set_data_full (G_OBJECT (dialog), "winnow-ids", ids, (GDestroyNotify) g_strfreev);
  g_signal_connect_object (dialog, "response", G_CALLBACK (process_chosen_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  return TRUE;
}

/* What follows a load that worked, here or on a thread. */
static void
show_opened (WinnowWindow *self,
             GFile        *file)
{
  winnow_load_errors_show_warnings (self->load_errors, file,
                                    winnow_session_get_process (self->session)->warnings);
  remember_file (self, file);
  /* what the process says of itself, once, as it opens (and in the title's tooltip) */
  if (winnow_session_get_process (self->session)->about != NULL)
    {
      AdwToast *toast = adw_toast_new (winnow_session_get_process (self->session)->about);

      adw_toast_set_timeout (toast, 10);
      winnow_toast_queue_add (self->toasts, toast);
    }
}

/* The engine options a newly opened file runs with (and the BPMN import's
 * flags, set on the session). */
static WnBpmnImportFlags
open_options (WinnowWindow    *self,
              WnEngineOptions *options)
{
  WnBpmnImportFlags flags;

  memset (options, 0, sizeof *options);
  options->instances = self->instances_option;
  /* a default: the session keeps the trust a process (or its embedded scenario) sets */
  if (self->settings != NULL)
    options->trust = (WnTrust) g_settings_get_enum (self->settings, "default-trust");
  /* how a BPMN file's conditions outside the translated subset are imported:
   * the setting's action (the setting itself when the schema is installed) */
  {
    g_autoptr(GVariant) undecidable = g_action_group_get_action_state (G_ACTION_GROUP (self),
                                                                       "undecidable-conditions");
    gboolean scenario = undecidable != NULL && g_strcmp0 (g_variant_get_string (undecidable, NULL), "scenario") == 0;

    flags = scenario ? WN_BPMN_IMPORT_SCENARIO_DECIDES : WN_BPMN_IMPORT_DEFAULT;
    winnow_session_set_bpmn_import_flags (self->session, flags);
  }
  return flags;
}

gboolean
winnow_window_open_file (WinnowWindow *self,
                         GFile        *file)
{
  return winnow_window_open_bpmn_process (self, file, NULL);
}

gboolean
winnow_window_open_bpmn_process (WinnowWindow *self,
                                 GFile        *file,
                                 const char   *process_id)
{
  g_autoptr(GPtrArray) diagnostics = NULL;
  g_autoptr(GError) error = NULL;
  WnEngineOptions options;

  g_return_val_if_fail (WINNOW_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  /* what the user opened last wins: a big file still loading is given up */
  _winnow_window_stop_loading (self);
  winnow_diagram_pane_show_loading (self->diagram_pane, NULL);
  open_options (self, &options);
  if (!winnow_session_load_bpmn_process (self->session, file, process_id, &options, &diagnostics, &error))
    {
      g_autofree char *path = g_file_get_path (file);
      g_auto(GStrv) names = NULL;
      GStrv ids = process_id == NULL && path != NULL ? wn_bpmn_file_processes (path, &names, NULL) : NULL;

      if (ask_process (self, file, ids, names))
        return FALSE;
      winnow_load_errors_show (self->load_errors, file, diagnostics, error);
      return FALSE;
    }
  show_opened (self, file);
  return TRUE;
}

/* ---- big files, loaded off the GTK thread ---- */

#define LOAD_IN_THREAD_BYTES (1024 * 1024)

typedef enum {
  STAGE_READ,      /* read, parse and check, or import the BPMN model */
  STAGE_ENGINE,    /* build the run */
  STAGE_LAYOUT,    /* lay out the diagram */
  N_STAGES
} Stage;

typedef struct {
  GFile            *file;
  char             *path;
  char             *process_id;   /* the BPMN process asked for, or NULL */
  WnBpmnImportFlags flags;
  WnEngineOptions   options;      /* as the window opens a file */
  PangoContext     *context;      /* the diagram's text settings, the thread's own */
  gboolean          reload;       /* Reload: the session's options, its scenario read again */
  char             *scenario_path; /* a reload: the scenario file to read again, or NULL */
  int               stage;        /* Stage, atomic: the thread sets it */

  /* what the thread made */
  WnProcess        *process;
  char             *json;         /* a BPMN import's winnow.process/1 document */
  WnEngineOptions   run;
  WnScenario       *scenario;     /* a reload: the scenario read again, or the current one */
  WnEngine         *engine;
  WinnowLayout     *layout;
  GStrv             ids;          /* a collaboration, no process asked for: its processes */
  GStrv             names;
  GPtrArray        *diagnostics;
  GError           *error;
} Load;

static void
load_clear_results (Load *load)
{
  g_clear_pointer (&load->layout, winnow_layout_free);
  g_clear_pointer (&load->engine, wn_engine_free);
  g_clear_pointer (&load->process, wn_process_unref);
  g_clear_pointer (&load->scenario, wn_scenario_unref);
  g_clear_pointer (&load->json, g_free);
  g_clear_pointer (&load->ids, g_strfreev);
  g_clear_pointer (&load->names, g_strfreev);
  g_clear_pointer (&load->diagnostics, g_ptr_array_unref);
  g_clear_error (&load->error);
}

static void
load_free (gpointer data)
{
  Load *load = data;

  load_clear_results (load);
  g_clear_object (&load->file);
  g_free (load->path);
  g_free (load->process_id);
  g_free (load->scenario_path);
  g_clear_object (&load->context);
  g_free (load);
}

/* Everything here touches only what the load makes: the engine is built
 * from the new process and attached to no main context (the session
 * attaches it on the GTK thread), the layout's texts are of the load's own
 * Pango context. A cancel frees it all here, not on the GTK thread. */
static void
load_thread (GTask        *task,
             gpointer      source,
             gpointer      data,
             GCancellable *cancellable)
{
  Load *load = data;

  load->process = wn_load_process_or_bpmn_file_with_flags (load->path, 0, load->process_id, load->flags,
                                                           &load->json, &load->diagnostics, &load->error);
  if (load->process != NULL && load->scenario_path != NULL)
    {
      /* as winnow_session_reload() does: the scenario file is read again */
      g_clear_pointer (&load->scenario, wn_scenario_unref);
      load->scenario = wn_load_scenario_file (load->scenario_path, &load->diagnostics, &load->error);
      if (load->scenario == NULL)
        g_clear_pointer (&load->process, wn_process_unref);
    }
  if (load->process == NULL && load->process_id == NULL && !load->reload)
    {
      load->ids = wn_bpmn_file_processes (load->path, &load->names, NULL);
      if (load->ids != NULL && g_strv_length (load->ids) < 2)
        {
          g_clear_pointer (&load->ids, g_strfreev);
          g_clear_pointer (&load->names, g_strfreev);
        }
    }
  if (load->process != NULL && !g_cancellable_is_cancelled (cancellable))
    {
      g_atomic_int_set (&load->stage, STAGE_ENGINE);
      if (load->reload)
        load->run = load->options;   /* a reload keeps the run's options as they are */
      else
        winnow_session_run_options (load->process, &load->options, &load->run);
      load->engine = wn_engine_new (load->process, load->scenario, &load->run);
    }
  if (load->engine != NULL && !g_cancellable_is_cancelled (cancellable))
    {
      g_atomic_int_set (&load->stage, STAGE_LAYOUT);
      load->layout = winnow_diagram_layout_with_context (load->process, load->context);
    }
  if (g_cancellable_is_cancelled (cancellable))
    load_clear_results (load);
  g_task_return_boolean (task, TRUE);
}

static gpointer
free_thread (gpointer data)
{
  load_free (data);
  return NULL;
}

/* What a superseded load made, freed on a thread of its own: a big run
 * takes a while to free. */
static void
load_free_elsewhere (Load *load)
{
  Load *rest = g_new0 (Load, 1);

  rest->layout = g_steal_pointer (&load->layout);
  rest->engine = g_steal_pointer (&load->engine);
  rest->process = g_steal_pointer (&load->process);
  rest->scenario = g_steal_pointer (&load->scenario);
  rest->json = g_steal_pointer (&load->json);
  rest->context = g_steal_pointer (&load->context);
  if (rest->layout == NULL && rest->engine == NULL && rest->process == NULL)
    {
      load_free (rest);
      return;
    }
  g_thread_unref (g_thread_new ("winnow: free a load", free_thread, rest));
}

static void
stop_loading (WinnowWindow *self)
{
  if (self->loading != NULL)
    g_cancellable_cancel (g_task_get_cancellable (self->loading));
  g_clear_object (&self->loading);   /* its result, when it comes, is dropped */
  g_clear_handle_id (&self->loading_poll, g_source_remove);
}

/* How far the load has come, on the loading page. */
static gboolean
loading_poll_cb (gpointer data)
{
  WinnowWindow *self = data;
  Load *load = self->loading != NULL ? g_task_get_task_data (self->loading) : NULL;
  const char *what;
  int stage;

  if (load == NULL)
    return G_SOURCE_CONTINUE;
  stage = CLAMP (g_atomic_int_get (&load->stage), 0, N_STAGES - 1);
  switch (stage)
    {
    case STAGE_ENGINE:
      what = _("Building the run");
      break;
    case STAGE_LAYOUT:
      what = _("Laying out the diagram");
      break;
    default:
      what = _("Reading and checking the process");
      break;
    }
  winnow_diagram_pane_set_loading_stage (self->diagram_pane, what, (double) stage / N_STAGES);
  return G_SOURCE_CONTINUE;
}

static void
load_done (GObject      *source,
           GAsyncResult *result,
           gpointer      data)
{
  WinnowWindow *self = WINNOW_WINDOW (source);
  Load *load = g_task_get_task_data (G_TASK (result));

  if (self->loading != G_TASK (result))
    {
      load_free_elsewhere (load);   /* canceled, or another open came after it */
      return;
    }
  stop_loading (self);
  winnow_diagram_pane_show_loading (self->diagram_pane, NULL);
  if (load->reload && load->process != NULL)
    {
      winnow_diagram_adopt_layout (winnow_diagram_pane_get_diagram (self->diagram_pane), load->process,
                                   g_steal_pointer (&load->layout));
      winnow_session_reload_prepared (self->session, load->process, load->scenario,
                                      g_steal_pointer (&load->engine), g_steal_pointer (&load->json));
      _winnow_window_reloaded (self);
      return;
    }
  if (load->process == NULL)
    {
      if (!ask_process (self, load->file, g_steal_pointer (&load->ids), load->names))
        winnow_load_errors_show (self->load_errors, load->file, load->diagnostics, load->error);
      return;
    }
  winnow_diagram_adopt_layout (winnow_diagram_pane_get_diagram (self->diagram_pane), load->process,
                               g_steal_pointer (&load->layout));
  winnow_session_open_prepared (self->session, load->process, g_steal_pointer (&load->engine), &load->run,
                                load->file, load->process_id, g_steal_pointer (&load->json));
  show_opened (self, load->file);
}

/* `file`, or the process `process_id` of a BPMN collaboration in it: a
 * small file (or one the loader refuses unread) at once, a big one on a
 * thread. */
static gboolean is_big (GFile *file);
static void start_load (WinnowWindow *self, Load *load);

static void
load_process (WinnowWindow *self,
              GFile        *file,
              const char   *process_id)
{
  Load *load;

  stop_loading (self);
  if (!is_big (file))
    {
      /* small (an example never flashes a loading page), or one the loader
       * refuses with its own message: at once */
      winnow_diagram_pane_show_loading (self->diagram_pane, NULL);
      winnow_window_open_bpmn_process (self, file, process_id);
      return;
    }
  load = g_new0 (Load, 1);
  load->file = g_object_ref (file);
  load->path = g_file_get_path (file);
  load->process_id = g_strdup (process_id);
  load->flags = open_options (self, &load->options);
  start_load (self, load);
}

/* A big file? (Not one the loader refuses unread with its own message.) */
static gboolean
is_big (GFile *file)
{
  g_autoptr(GFileInfo) info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE ","
                                                 G_FILE_ATTRIBUTE_STANDARD_TYPE, G_FILE_QUERY_INFO_NONE, NULL,
                                                 NULL);

  return info != NULL && g_file_info_get_file_type (info) == G_FILE_TYPE_REGULAR &&
         g_file_info_get_size (info) >= LOAD_IN_THREAD_BYTES && g_file_is_native (file);
}

/* `load` (taken) on its thread, the loading page up. */
static void
start_load (WinnowWindow *self,
            Load         *load)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autofree char *name = g_file_get_basename (load->file);

  load->context = winnow_diagram_create_text_context (winnow_diagram_pane_get_diagram (self->diagram_pane));
  self->loading = g_task_new (self, cancellable, load_done, NULL);
  g_task_set_task_data (self->loading, load, load_free);
  g_task_set_name (self->loading, "winnow: load a process");
  winnow_diagram_pane_show_loading (self->diagram_pane, name);
  loading_poll_cb (self);
  self->loading_poll = g_timeout_add (100, loading_poll_cb, self);
  g_task_run_in_thread (self->loading, load_thread);
}

/* Reload: a big file read again on a thread (the current run stays until
 * it is done, and when it is canceled or fails), a small one at once. */
void
_winnow_window_reload (WinnowWindow *self)
{
  GFile *file = winnow_session_get_file (self->session);
  WnScenario *scenario = winnow_session_get_scenario (self->session);
  g_autoptr(GPtrArray) diagnostics = NULL;
  g_autoptr(GError) error = NULL;
  Load *load;

  stop_loading (self);
  if (file == NULL || !is_big (file))
    {
      winnow_diagram_pane_show_loading (self->diagram_pane, NULL);
      if (!winnow_session_reload (self->session, &diagnostics, &error))
        {
          if (file != NULL)
            winnow_load_errors_show (self->load_errors, file, diagnostics, error);
          return;
        }
      _winnow_window_reloaded (self);
      return;
    }
  load = g_new0 (Load, 1);
  load->reload = TRUE;
  load->file = g_object_ref (file);
  load->path = g_file_get_path (file);
  load->process_id = g_strdup (winnow_session_get_bpmn_process_id (self->session));
  load->flags = winnow_session_get_bpmn_import_flags (self->session);
  load->options = *winnow_session_get_options (self->session);
  if (scenario != NULL && scenario->filename != NULL)
    load->scenario_path = g_strdup (scenario->filename);
  else if (scenario != NULL)
    load->scenario = wn_scenario_ref (scenario);   /* read only, on the thread too */
  start_load (self, load);
}

void
winnow_window_load_file (WinnowWindow *self,
                         GFile        *file)
{
  g_return_if_fail (WINNOW_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  load_process (self, file, NULL);
}

gboolean
winnow_window_is_loading (WinnowWindow *self)
{
  g_return_val_if_fail (WINNOW_IS_WINDOW (self), FALSE);
  return self->loading != NULL;
}

void
winnow_window_cancel_load (WinnowWindow *self)
{
  g_return_if_fail (WINNOW_IS_WINDOW (self));

  if (self->loading == NULL)
    return;
  stop_loading (self);
  winnow_diagram_pane_show_loading (self->diagram_pane, NULL);
}

void
_winnow_window_stop_loading (WinnowWindow *self)
{
  stop_loading (self);
}

char *
winnow_find_examples_dir (void)
{
  const char *env = g_getenv ("WINNOW_EXAMPLES_DIR");
  g_autofree char *installed = NULL;

  if (env != NULL && *env != '\0' && g_file_test (env, G_FILE_TEST_IS_DIR))
    return g_strdup (env);
  installed = g_build_filename (PKGDATADIR, "examples", NULL);
  if (g_file_test (installed, G_FILE_TEST_IS_DIR))
    return g_steal_pointer (&installed);
  return NULL;
}

gboolean
winnow_window_open_default (WinnowWindow *self)
{
  g_autofree char *dir = winnow_find_examples_dir ();
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;

  g_return_val_if_fail (WINNOW_IS_WINDOW (self), FALSE);

  if (dir == NULL)
    return FALSE;
  path = g_build_filename (dir, DEFAULT_EXAMPLE, NULL);
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return FALSE;
  file = g_file_new_for_path (path);
  return winnow_window_open_file (self, file);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

void
_winnow_window_populate_examples (WinnowWindow *self)
{
  g_autofree char *dir = winnow_find_examples_dir ();
  g_autoptr(GDir) handle = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (dir == NULL || (handle = g_dir_open (dir, 0, NULL)) == NULL)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_("No examples installed"), "win.none");
      g_menu_append_item (self->examples_menu, item);
      return;
    }
  while ((name = g_dir_read_name (handle)) != NULL)
    if (g_str_has_suffix (name, ".process.json"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);

  for (guint i = 0; i < names->len; i++)
    {
      const char *file = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename (dir, file, NULL);
      g_autofree char *label = g_strndup (file, strlen (file) - strlen (".process.json"));
      g_autoptr(GMenuItem) item = g_menu_item_new (label, NULL);

      g_menu_item_set_action_and_target_value (item, "win.open-example", g_variant_new_string (path));
      g_menu_append_item (self->examples_menu, item);
      winnow_diagram_pane_add_example (self->diagram_pane, label, path);
    }
}

static gboolean
drop_cb (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         WinnowWindow  *self)
{
  GFile *file = NULL;

  if (G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    {
      GSList *files = gdk_file_list_get_files (g_value_get_boxed (value));

      if (files != NULL)
        file = files->data;
      g_slist_free (files);
    }
  else if (G_VALUE_HOLDS (value, G_TYPE_FILE))
    file = g_value_get_object (value);

  if (file == NULL)
    return FALSE;
  winnow_window_load_file (self, file);
  return TRUE;
}

void
_winnow_window_setup_drop (WinnowWindow *self)
{
  GType types[] = { GDK_TYPE_FILE_LIST, G_TYPE_FILE };
  GtkDropTarget *drop = gtk_drop_target_new (G_TYPE_INVALID, GDK_ACTION_COPY);

  gtk_drop_target_set_gtypes (drop, types, G_N_ELEMENTS (types));
  g_signal_connect (drop, "drop", G_CALLBACK (drop_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
}
