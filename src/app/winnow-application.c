#include "config.h"

#include <glib/gi18n.h>

#include "winnow-application.h"

struct _WinnowApplication
{
  AdwApplication parent_instance;
};

G_DEFINE_FINAL_TYPE (WinnowApplication, winnow_application, ADW_TYPE_APPLICATION)

static int
winnow_application_handle_local_options (GApplication *app,
                                         GVariantDict *options)
{
  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("winnow %s\n", PACKAGE_VERSION);
      return 0;
    }
  return -1;
}

static void
winnow_application_activate (GApplication *app)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (window == NULL)
    {
      window = GTK_WINDOW (adw_application_window_new (GTK_APPLICATION (app)));
      gtk_window_set_title (window, _("Winnow"));
      gtk_window_set_default_size (window, 1200, 800);
    }
  gtk_window_present (window);
}

static void
winnow_application_class_init (WinnowApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->handle_local_options = winnow_application_handle_local_options;
  app_class->activate = winnow_application_activate;
}

static void
winnow_application_init (WinnowApplication *self)
{
  const GOptionEntry entries[] = {
    { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Print the version and exit"), NULL },
    { NULL }
  };

  g_application_add_main_option_entries (G_APPLICATION (self), entries);
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
