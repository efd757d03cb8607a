/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-heap.c — an indexed binary min-heap with counted comparisons. */

#include "wn-heap.h"

#define POS(heap, item) G_STRUCT_MEMBER (guint, (item), (heap)->pos_offset)

static inline gboolean
heap_less (WnHeap  *heap,
           gpointer a,
           gpointer b)
{
  heap->n_comparisons++;
  if (heap->shared_counter != NULL)
    (*heap->shared_counter)++;
  return heap->less (a, b);
}

static inline void
heap_place (WnHeap  *heap,
            guint    i,
            gpointer item)
{
  heap->items[i] = item;
  POS (heap, item) = i;
}

/* Move the item at i towards the root; returns its final index. */
static guint
sift_up (WnHeap *heap,
         guint   i)
{
  gpointer item = heap->items[i];

  while (i > 0)
    {
      guint parent = (i - 1) / 2;
      gpointer p = heap->items[parent];

      if (!heap_less (heap, item, p))
        break;
      heap_place (heap, i, p);
      i = parent;
    }
  heap_place (heap, i, item);
  return i;
}

static void
sift_down (WnHeap *heap,
           guint   i)
{
  gpointer item = heap->items[i];
  guint len = heap->len;

  for (;;)
    {
      guint left = 2 * i + 1;
      guint best;
      gpointer child;

      if (left >= len)
        break;
      best = left;
      child = heap->items[left];
      if (left + 1 < len && heap_less (heap, heap->items[left + 1], child))
        {
          best = left + 1;
          child = heap->items[best];
        }
      if (!heap_less (heap, child, item))
        break;
      heap_place (heap, i, child);
      i = best;
    }
  heap_place (heap, i, item);
}

/* Take the item at index i out, filling the hole with the last item. */
static void
heap_take (WnHeap *heap,
           guint   i)
{
  gpointer item = heap->items[i];
  guint last = --heap->len;
  gpointer moved = heap->items[last];

  heap->items[last] = NULL;
  POS (heap, item) = WN_HEAP_NO_POS;
  if (i == last)
    return;
  heap_place (heap, i, moved);
  if (sift_up (heap, i) == i)
    sift_down (heap, i);
}

void
wn_heap_init (WnHeap        *heap,
              WnHeapLessFunc less,
              gsize          pos_offset,
              guint64       *shared_counter)
{
  g_return_if_fail (heap != NULL);
  g_return_if_fail (less != NULL);

  heap->items = NULL;
  heap->len = 0;
  heap->alloc = 0;
  heap->less = less;
  heap->pos_offset = pos_offset;
  heap->shared_counter = shared_counter;
  heap->n_comparisons = 0;
}

void
wn_heap_clear (WnHeap *heap)
{
  g_return_if_fail (heap != NULL);

  g_clear_pointer (&heap->items, g_free);
  heap->len = 0;
  heap->alloc = 0;
}

WnHeap *
wn_heap_new (WnHeapLessFunc less,
             gsize          pos_offset,
             guint64       *shared_counter)
{
  WnHeap *heap = g_new0 (WnHeap, 1);

  wn_heap_init (heap, less, pos_offset, shared_counter);
  return heap;
}

void
wn_heap_free (WnHeap *heap)
{
  if (heap == NULL)
    return;
  wn_heap_clear (heap);
  g_free (heap);
}

void
wn_heap_push (WnHeap  *heap,
              gpointer item)
{
  g_return_if_fail (heap != NULL);
  g_return_if_fail (item != NULL);

  if (heap->len == heap->alloc)
    {
      heap->alloc = heap->alloc < 8 ? 8 : heap->alloc * 2;
      heap->items = g_renew (gpointer, heap->items, heap->alloc);
    }
  heap_place (heap, heap->len, item);
  heap->len++;
  sift_up (heap, heap->len - 1);
}

gpointer
wn_heap_pop (WnHeap *heap)
{
  gpointer top;

  g_return_val_if_fail (heap != NULL, NULL);

  if (heap->len == 0)
    return NULL;
  top = heap->items[0];
  heap_take (heap, 0);
  return top;
}

void
wn_heap_remove (WnHeap  *heap,
                gpointer item)
{
  g_return_if_fail (heap != NULL);
  g_return_if_fail (wn_heap_contains (heap, item));

  heap_take (heap, POS (heap, item));
}

void
wn_heap_update (WnHeap  *heap,
                gpointer item)
{
  guint i;

  g_return_if_fail (heap != NULL);
  g_return_if_fail (wn_heap_contains (heap, item));

  i = POS (heap, item);
  if (sift_up (heap, i) == i)
    sift_down (heap, i);
}

gboolean
wn_heap_contains (const WnHeap *heap,
                  gconstpointer item)
{
  guint i;

  if (heap == NULL || item == NULL)
    return FALSE;
  i = G_STRUCT_MEMBER (guint, item, heap->pos_offset);
  return i < heap->len && heap->items[i] == item;
}

gpointer
wn_heap_get (const WnHeap *heap,
             guint         i)
{
  g_return_val_if_fail (heap != NULL, NULL);
  g_return_val_if_fail (i < heap->len, NULL);

  return heap->items[i];
}

guint64
wn_heap_get_n_comparisons (const WnHeap *heap)
{
  g_return_val_if_fail (heap != NULL, 0);

  return heap->n_comparisons;
}

gboolean
wn_heap_is_valid (const WnHeap *heap)
{
  g_return_val_if_fail (heap != NULL, FALSE);

  for (guint i = 0; i < heap->len; i++)
    {
      gpointer item = heap->items[i];

      if (G_STRUCT_MEMBER (guint, item, heap->pos_offset) != i)
        return FALSE;
      if (i > 0 && heap->less (item, heap->items[(i - 1) / 2]))
        return FALSE;
    }
  return TRUE;
}
