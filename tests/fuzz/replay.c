/* SPDX-License-Identifier: GPL-3.0-or-later */
/* replay.c — run a fuzz target's entry point on every file of the directories
 * given, as a plain test built with the project's compiler (no libFuzzer).
 * A missing directory is skipped; a crash or an abort fails the test. */
#include <stdio.h>
#include <stdlib.h>
#include <glib.h>

#include "fuzz-target.h"

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(char * const *) a, *(char * const *) b);
}

int
main (int    argc,
      char **argv)
{
  guint total = 0;

  LLVMFuzzerInitialize (&argc, &argv);
  for (int i = 1; i < argc; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GDir) dir = g_dir_open (argv[i], 0, &error);
      g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
      const char *name;

      if (dir == NULL)
        {
          printf ("skipping %s: %s\n", argv[i], error->message);
          continue;
        }
      while ((name = g_dir_read_name (dir)) != NULL)
        g_ptr_array_add (names, g_build_filename (argv[i], name, NULL));
      g_ptr_array_sort (names, compare_names);

      for (guint j = 0; j < names->len; j++)
        {
          const char *path = g_ptr_array_index (names, j);
          g_autofree char *data = NULL;
          gsize length = 0;

          if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
            continue;
          if (!g_file_get_contents (path, &data, &length, &error))
            {
              fprintf (stderr, "%s\n", error->message);
              return EXIT_FAILURE;
            }
          /* named before it runs: a crash leaves the culprit as the last line */
          printf ("%s\n", path);
          fflush (stdout);
          LLVMFuzzerTestOneInput ((const uint8_t *) data, length);
          total++;
        }
    }
  printf ("replayed %u inputs\n", total);
  return EXIT_SUCCESS;
}
