/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-memory.c — whether memory is left (see wn-memory.h). */
#include "config.h"

#include "wn-memory.h"

/* after glib.h, which says whether this is G_OS_UNIX */
#ifdef G_OS_UNIX
#include <sys/mman.h>
#endif

gboolean
wn_memory_has_room (gsize bytes)
{
#if defined(G_OS_UNIX) && defined(MAP_ANONYMOUS)
  void *space = mmap (NULL, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

  if (space == MAP_FAILED)
    return FALSE;
  munmap (space, bytes);
  return TRUE;
#else
  gpointer space = g_try_malloc (bytes);

  g_free (space);
  return space != NULL;
#endif
}
