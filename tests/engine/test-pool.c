/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The engine's fixed-size object pool (wn-pool.c), in both of its modes. */
#include <string.h>

#include "wn-test-util.h"
#include "wn-pool.h"

/* Enough objects to fill the small first chunk and more than one 2 MiB chunk. */
#define N_OBJECTS 60000
#define OBJECT_SIZE 72

typedef struct {
  guint64 index;
  char    fill[OBJECT_SIZE - sizeof (guint64)];
} Object;

static gboolean
all_zero (const Object *object)
{
  const char *bytes = (const char *) object;

  for (gsize i = 0; i < sizeof *object; i++)
    if (bytes[i] != 0)
      return FALSE;
  return TRUE;
}

/* Objects come zeroed and aligned, never overlap, and a released one is handed
 * out again zeroed; the pool gives everything back when freed (the valgrind and
 * sanitizer runs check that last part). */
static void
exercise (void)
{
  WnPool *pool = wn_pool_new (sizeof (Object));
  Object **objects = g_new (Object *, N_OBJECTS);

  for (guint i = 0; i < N_OBJECTS; i++)
    {
      objects[i] = wn_pool_alloc0 (pool);
      g_assert_nonnull (objects[i]);
      g_assert_cmpuint ((guintptr) objects[i] % 16, ==, 0);
      g_assert_true (all_zero (objects[i]));
      objects[i]->index = i;
      memset (objects[i]->fill, (int) (i & 0x7f), sizeof objects[i]->fill);
    }
  for (guint i = 0; i < N_OBJECTS; i++)
    {
      g_assert_cmpuint (objects[i]->index, ==, i);
      g_assert_cmpint (objects[i]->fill[0], ==, (int) (i & 0x7f));
      g_assert_cmpint (objects[i]->fill[sizeof objects[i]->fill - 1], ==, (int) (i & 0x7f));
    }

  /* release every other one and take as many again */
  for (guint i = 0; i < N_OBJECTS; i += 2)
    {
      wn_pool_release (pool, objects[i]);
      objects[i] = NULL;
    }
  for (guint i = 0; i < N_OBJECTS; i += 2)
    {
      objects[i] = wn_pool_alloc0 (pool);
      g_assert_true (all_zero (objects[i]));
      objects[i]->index = i;
    }
  for (guint i = 1; i < N_OBJECTS; i += 2)
    g_assert_cmpuint (objects[i]->index, ==, i);

  wn_pool_release (pool, NULL);
  for (guint i = 0; i < N_OBJECTS; i++)
    wn_pool_release (pool, objects[i]);
  wn_pool_free (pool);
  g_free (objects);
}

static void
test_chunks (void)
{
  g_autofree char *saved = g_strdup (g_getenv ("G_SLICE"));

  g_unsetenv ("G_SLICE");
  exercise ();
  if (saved != NULL)
    g_setenv ("G_SLICE", saved, TRUE);
}

static void
test_always_malloc (void)
{
  g_autofree char *saved = g_strdup (g_getenv ("G_SLICE"));

  g_setenv ("G_SLICE", "always-malloc", TRUE);
  exercise ();
  if (saved != NULL)
    g_setenv ("G_SLICE", saved, TRUE);
  else
    g_unsetenv ("G_SLICE");
}

/* Two objects in a row from a new pool: next to each other when the pool
 * carves a chunk, apart (malloc's header, or a sanitizer's redzone) when every
 * object is its own malloc block. */
static gboolean
pool_carves_chunks (const char *slice)
{
  g_autofree char *saved = g_strdup (g_getenv ("G_SLICE"));
  WnPool *pool;
  char *a, *b;
  gboolean adjacent;

  if (slice != NULL)
    g_setenv ("G_SLICE", slice, TRUE);
  else
    g_unsetenv ("G_SLICE");
  pool = wn_pool_new (48);
  a = wn_pool_alloc0 (pool);
  b = wn_pool_alloc0 (pool);
  adjacent = b == a + 48;
  wn_pool_release (pool, a);
  wn_pool_release (pool, b);
  wn_pool_free (pool);
  if (saved != NULL)
    g_setenv ("G_SLICE", saved, TRUE);
  else
    g_unsetenv ("G_SLICE");
  return adjacent;
}

/* G_SLICE is read as GLib reads it: any case, '_' or '-', "all". */
static void
test_slice_spellings (void)
{
  g_assert_true (pool_carves_chunks (NULL));
  g_assert_true (pool_carves_chunks ("debug-blocks"));
  g_assert_true (pool_carves_chunks ("always-mallocx"));
  g_assert_false (pool_carves_chunks ("always-malloc"));
  g_assert_false (pool_carves_chunks ("ALWAYS_MALLOC"));
  g_assert_false (pool_carves_chunks ("all"));
  g_assert_false (pool_carves_chunks ("debug-blocks:always_malloc"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/engine/Pool/chunks", test_chunks);
  g_test_add_func ("/engine/Pool/always-malloc", test_always_malloc);
  g_test_add_func ("/engine/Pool/slice-spellings", test_slice_spellings);
  return g_test_run ();
}
