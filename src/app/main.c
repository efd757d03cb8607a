#include "config.h"

#include <locale.h>
#include <glib/gi18n.h>

#include "winnow-application.h"

int
main (int argc, char **argv)
{
  g_autoptr(WinnowApplication) app = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, g_getenv ("WINNOW_LOCALEDIR") ? g_getenv ("WINNOW_LOCALEDIR") : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = winnow_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
