/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "winnow-application.h"
#include "winnow-window.h"

struct _WinnowApplication
{
  AdwApplication parent_instance;

  guint          instances;
};

G_DEFINE_FINAL_TYPE (WinnowApplication, winnow_application, ADW_TYPE_APPLICATION)

static WinnowWindow *
get_window (WinnowApplication *self,
            gboolean          *created)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  *created = FALSE;
  if (WINNOW_IS_WINDOW (window))
    return WINNOW_WINDOW (window);
  *created = TRUE;
  window = GTK_WINDOW (winnow_window_new (GTK_APPLICATION (self)));
  winnow_window_set_instances (WINNOW_WINDOW (window), self->instances);
  return WINNOW_WINDOW (window);
}

static void
about_action (GSimpleAction *action,
              GVariant      *param,
              gpointer       data)
{
  WinnowApplication *self = data;
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  const char *developers[] = { _("The Winnow contributors"), NULL };
  AdwAboutWindow *about;

  about = ADW_ABOUT_WINDOW (adw_about_window_new ());
  gtk_window_set_transient_for (GTK_WINDOW (about), parent);
  adw_about_window_set_application_name (about, _("Winnow"));
  adw_about_window_set_application_icon (about, APPLICATION_ID);
  adw_about_window_set_version (about, PACKAGE_VERSION);
  adw_about_window_set_comments (about, _("Simulate and debug service-task workflows on a virtual clock: "
                                          "see every job, retry and lock, step through time and inject faults."));
  adw_about_window_set_developers (about, developers);
  adw_about_window_set_license_type (about, GTK_LICENSE_GPL_3_0);
  /* Translators: put your name here to be credited */
  adw_about_window_set_translator_credits (about, _("translator-credits"));
  gtk_window_present (GTK_WINDOW (about));
}

static void
quit_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       data)
{
  GApplication *app = data;
  g_autoptr(GList) windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (app)));

  /* each window may ask to save first (and may stay): the application ends
   * with its last window */
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (l->data);
}

static const GActionEntry app_entries[] = {
  { "about", about_action, NULL, NULL, NULL },
  { "quit", quit_action, NULL, NULL, NULL },
};

static int
winnow_application_handle_local_options (GApplication *app,
                                         GVariantDict *options)
{
  WinnowApplication *self = WINNOW_APPLICATION (app);
  const char *instances = NULL;

  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("winnow %s\n", PACKAGE_VERSION);
      return 0;
    }
  /* decimal digits only, as winnow-run reads -n: GLib's int options take
   * "010" as octal and "0x10" as hex */
  if (g_variant_dict_lookup (options, "instances", "&s", &instances))
    {
      guint64 n;

      if (!g_ascii_string_to_unsigned (instances, 10, 1, WN_MAX_INSTANCES, &n, NULL))
        {
          g_autofree char *max = g_strdup_printf ("%u", (guint) WN_MAX_INSTANCES);
          /* Translators: "--instances takes a whole number from 1 to 10000000, not “0x10”" */
          g_autofree char *message = g_strdup_printf (_("--instances takes a whole number from 1 to %s, not “%s”"),
                                                      max, instances);

          g_printerr ("winnow: %s\n", message);
          return 2;
        }
      self->instances = (guint) n;
    }
  return -1;
}

static void
winnow_application_startup (GApplication *app)
{
  GtkApplication *gtk_app = GTK_APPLICATION (app);
  const struct {
    const char *action;
    const char *accels[3];
  } accels[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "window.close", { "<Control>w", NULL } },
    { "win.open", { "<Control>o", NULL } },
    { "win.restart", { "<Control>r", NULL } },
    { "win.reload", { "<Control><Shift>r", NULL } },
    /* F10 steps (a debugger's key); the primary menu has Ctrl+F10 */
    { "win.step-next", { "F10", NULL } },
    { "win.show-primary-menu", { "<Control>F10", NULL } },
    { "win.step-back", { "<Shift>F10", NULL } },
    { "win.step-by", { "F11", NULL } },
    { "win.find", { "<Control>f", NULL } },
    { "win.zoom-to-fit", { "<Control>0", NULL } },
    { "win.show-side-panel", { "F9", NULL } },
    { "win.show-tab::tracks", { "<Control>1", NULL } },
    { "win.show-tab::dispatcher", { "<Control>2", NULL } },
    { "win.show-tab::journal", { "<Control>3", NULL } },
    { "win.show-tab::instances", { "<Control>4", NULL } },
    { "win.show-tab::timeline", { "<Control>5", NULL } },
    { "win.show-tab::incidents", { "<Control>6", NULL } },
    { "win.show-tab::breakpoints", { "<Control>7", NULL } },
    { "win.show-tab::compare", { "<Control>8", NULL } },
    { "win.show-tab::summary", { "<Control>9", NULL } },
    { "win.save-session", { "<Control>s", NULL } },
    { "win.export-journal", { "<Control><Shift>e", NULL } },
  };

  G_APPLICATION_CLASS (winnow_application_parent_class)->startup (app);

  g_set_application_name (_("Winnow"));
  gtk_window_set_default_icon_name (APPLICATION_ID);

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_entries, G_N_ELEMENTS (app_entries), app);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (gtk_app, accels[i].action, accels[i].accels);
}

static void
winnow_application_activate (GApplication *app)
{
  WinnowApplication *self = WINNOW_APPLICATION (app);
  gboolean created;
  WinnowWindow *window = get_window (self, &created);

  /* With no file: the bundled example, paused at T+0. */
  if (created)
    winnow_window_open_default (window);
  gtk_window_present (GTK_WINDOW (window));
}

static void
winnow_application_open (GApplication  *app,
                         GFile        **files,
                         int            n_files,
                         const char    *hint)
{
  WinnowApplication *self = WINNOW_APPLICATION (app);
  gboolean created;
  WinnowWindow *window = get_window (self, &created);

  /* present first: a big file loads with the window showing it does */
  gtk_window_present (GTK_WINDOW (window));
  if (n_files > 0)
    winnow_window_load_file (window, files[0]);
}

static void
winnow_application_class_init (WinnowApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->handle_local_options = winnow_application_handle_local_options;
  app_class->startup = winnow_application_startup;
  app_class->activate = winnow_application_activate;
  app_class->open = winnow_application_open;
}

static void
winnow_application_init (WinnowApplication *self)
{
  const GOptionEntry entries[] = {
    { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Print the version and exit"), NULL },
    { "instances", 'n', 0, G_OPTION_ARG_STRING, NULL, N_("Start N instances at t = 0 (overrides the scenario’s “start”)"), N_("N") },
    { NULL }
  };

  g_application_add_main_option_entries (G_APPLICATION (self), entries);
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[FILE]"));
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            _("Simulate a Winnow process on a virtual clock. "
                                              "With no file, the bundled example opens."));
}

WinnowApplication *
winnow_application_new (void)
{
  return g_object_new (WINNOW_TYPE_APPLICATION,
                       "application-id", APPLICATION_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE,
                       "resource-base-path", RESOURCE_BASE,
                       NULL);
}
