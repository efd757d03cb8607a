/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-pool.c — fixed-size objects carved out of big chunks (see wn-pool.h). */
#include "config.h"

#include <string.h>

#include "wn-pool.h"

/* after glib.h, which says whether this is G_OS_UNIX */
#ifdef G_OS_UNIX
#include <sys/mman.h>
#endif

/* The first chunk is small and comes from malloc, so a run with a handful of
 * instances costs a page or two; every later chunk is 2 MiB, aligned to 2 MiB
 * so that the kernel can back it with one transparent huge page. */
#define FIRST_CHUNK_SIZE ((gsize) 64 * 1024)
#define HUGE_CHUNK_SIZE  ((gsize) 2 * 1024 * 1024)
#define ALIGNMENT        16

typedef struct _Chunk Chunk;

/* At the start of each chunk; the objects follow. */
struct _Chunk
{
  Chunk    *next;
  gsize     size;
  gboolean  mapped;    /* from mmap (else from g_malloc) */
};

#define CHUNK_HEADER_SIZE ((sizeof (Chunk) + ALIGNMENT - 1) & ~(gsize) (ALIGNMENT - 1))

struct _WnPool
{
  gsize     object_size;  /* rounded up to ALIGNMENT */
  gboolean  use_malloc;   /* G_SLICE=always-malloc: one g_malloc block per object */
  Chunk    *chunks;       /* newest first */
  char     *next;         /* the next unused byte of the newest chunk */
  char     *end;
  gpointer  free_list;    /* released objects, linked through their first word */
};

/* 2 MiB of fresh memory aligned to 2 MiB, advised for huge pages; NULL when the
 * system cannot map it (the caller falls back to malloc). */
static char *
map_huge_chunk (void)
{
#if defined(G_OS_UNIX) && defined(MAP_ANONYMOUS)
  gsize span = 2 * HUGE_CHUNK_SIZE;
  char *raw = mmap (NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  char *aligned;
  gsize head, tail;

  if (raw == MAP_FAILED)
    return NULL;
  /* map twice the size and give back what lies outside the aligned middle */
  aligned = (char *) (((guintptr) raw + HUGE_CHUNK_SIZE - 1) & ~(guintptr) (HUGE_CHUNK_SIZE - 1));
  head = (gsize) (aligned - raw);
  tail = span - head - HUGE_CHUNK_SIZE;
  if (head > 0)
    munmap (raw, head);
  if (tail > 0)
    munmap (aligned + HUGE_CHUNK_SIZE, tail);
#ifdef MADV_HUGEPAGE
  /* only a hint: where transparent huge pages are off this fails and the
   * chunk is faulted in 4 KiB pages like any other memory */
  madvise (aligned, HUGE_CHUNK_SIZE, MADV_HUGEPAGE);
#endif
  return aligned;
#else
  return NULL;
#endif
}

static void
add_chunk (WnPool *self)
{
  gsize size = self->chunks == NULL ? FIRST_CHUNK_SIZE : HUGE_CHUNK_SIZE;
  Chunk *chunk = NULL;
  gboolean mapped = FALSE;

  size = MAX (size, CHUNK_HEADER_SIZE + self->object_size);
  if (size == HUGE_CHUNK_SIZE)
    {
      chunk = (Chunk *) map_huge_chunk ();
      mapped = chunk != NULL;
    }
  if (chunk == NULL)
    chunk = g_malloc (size);
  chunk->next = self->chunks;
  chunk->size = size;
  chunk->mapped = mapped;
  self->chunks = chunk;
  self->next = (char *) chunk + CHUNK_HEADER_SIZE;
  self->end = (char *) chunk + size;
}

WnPool *
wn_pool_new (gsize object_size)
{
  /* read the way GLib reads it (any case, '_' for '-', "all"), so the pool
   * switches to malloc exactly when GLib's slice allocator does */
  static const GDebugKey slice_keys[] = {
    { "always-malloc", 1 << 0 },
    { "debug-blocks", 1 << 1 },
  };
  const char *slice = g_getenv ("G_SLICE");
  WnPool *self;

  g_return_val_if_fail (object_size > 0, NULL);

  self = g_new0 (WnPool, 1);
  self->object_size = (MAX (object_size, sizeof (gpointer)) + ALIGNMENT - 1) & ~(gsize) (ALIGNMENT - 1);
  self->use_malloc = slice != NULL &&
                     (g_parse_debug_string (slice, slice_keys, G_N_ELEMENTS (slice_keys)) & (1 << 0)) != 0;
  return self;
}

void
wn_pool_free (WnPool *self)
{
  if (self == NULL)
    return;
  while (self->chunks != NULL)
    {
      Chunk *chunk = self->chunks;

      self->chunks = chunk->next;
#ifdef G_OS_UNIX
      if (chunk->mapped)
        {
          munmap (chunk, chunk->size);
          continue;
        }
#endif
      g_free (chunk);
    }
  g_free (self);
}

gpointer
wn_pool_alloc0 (WnPool *self)
{
  gpointer object;

  if (self->use_malloc)
    return g_malloc0 (self->object_size);
  if (self->free_list != NULL)
    {
      object = self->free_list;
      self->free_list = *(gpointer *) object;
    }
  else
    {
      if ((gsize) (self->end - self->next) < self->object_size)
        add_chunk (self);
      object = self->next;
      self->next += self->object_size;
    }
  /* chunks are not zeroed up front: that would touch every page of a chunk
   * at once, used or not */
  return memset (object, 0, self->object_size);
}

void
wn_pool_release (WnPool   *self,
                 gpointer  object)
{
  if (object == NULL)
    return;
  if (self->use_malloc)
    {
      g_free (object);
      return;
    }
  *(gpointer *) object = self->free_list;
  self->free_list = object;
}
