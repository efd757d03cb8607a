/* winnow-run — the headless runner (journal-and-cli.md). */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <glib/gi18n.h>

#include "winnow.h"

int
main (int argc, char **argv)
{
  gboolean version = FALSE;
  GOptionEntry entries[] = {
    { "version", 0, 0, G_OPTION_ARG_NONE, &version, N_("Print the version and exit"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  context = g_option_context_new (_("PROCESS.json"));
  g_option_context_set_summary (context, _("Run a Winnow process headless, in fast-forward."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("winnow-run: %s\n", error->message);
      return 2;
    }
  if (version)
    {
      g_print ("winnow-run %s\n", PACKAGE_VERSION);
      return 0;
    }
  g_printerr ("winnow-run: %s\n", _("no process file given (see --help)"));
  return 2;
}
