/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <locale.h>
#include <string.h>
#include <glib/gi18n.h>

#include "winnow-application.h"

/* GTK 4.8's X11 backend starts OpenGL (Mesa, and LLVM where it renders in
 * software) to choose the window's visual, whichever renderer then draws:
 * 150–250 ms of start under Xvfb (docs/performance.md). Told to draw with
 * cairo (GSK_RENDERER=cairo), the app uses none of it, and tells GDK so. */
static void
skip_unused_gl (void)
{
  const char *debug = g_getenv ("GDK_DEBUG");
  g_autofree char *flags = NULL;

  if (g_strcmp0 (g_getenv ("GSK_RENDERER"), "cairo") != 0)
    return;
  if (debug == NULL || *debug == '\0')
    flags = g_strdup ("gl-disable");
  else if (strstr (debug, "gl-disable") == NULL)
    flags = g_strconcat (debug, ",gl-disable", NULL);
  if (flags != NULL)
    g_setenv ("GDK_DEBUG", flags, TRUE);
}

int
main (int argc, char **argv)
{
  g_autoptr(WinnowApplication) app = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, g_getenv ("WINNOW_LOCALEDIR") ? g_getenv ("WINNOW_LOCALEDIR") : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  skip_unused_gl ();

  app = winnow_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
