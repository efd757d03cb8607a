/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-heap.h — an indexed binary min-heap.
 *
 * Items are caller-owned structs that embed a `guint` position field; the heap
 * keeps it up to date, so any item can be removed or re-keyed in O(log n)
 * without a search. An item sits in at most one heap through a given position
 * field (WN_HEAP_NO_POS while outside). Every comparison is counted, for the
 * tests that prove the dispatcher's costs stay logarithmic.
 *
 * The struct is public so that it can be embedded; treat its fields as private.
 */
#pragma once

#ifndef WINNOW_COMPILATION
# error "wn-heap.h is internal to the engine: include winnow.h"
#endif

#include <glib.h>

G_BEGIN_DECLS

#define WN_HEAP_NO_POS G_MAXUINT

/* TRUE when `a` must come out before `b`. Must be a strict weak order; give the
 * heap a total order (a tie-breaking sequence) when the pop order matters. */
typedef gboolean (*WnHeapLessFunc) (gconstpointer a, gconstpointer b);

typedef struct {
  gpointer       *items;
  guint           len;
  guint           alloc;
  WnHeapLessFunc  less;
  gsize           pos_offset;      /* offset of the item's guint position field */
  guint64        *shared_counter;  /* also counts here when not NULL */
  guint64         n_comparisons;
} WnHeap;

/* `pos_offset` is G_STRUCT_OFFSET (Item, field) of a guint inside each item.
 * `shared_counter` (may be NULL) lets several heaps add up their comparisons. */
void      wn_heap_init              (WnHeap        *heap,
                                     WnHeapLessFunc less,
                                     gsize          pos_offset,
                                     guint64       *shared_counter);
/* Releases the storage; the items are not touched (their positions go stale). */
void      wn_heap_clear             (WnHeap *heap);

WnHeap   *wn_heap_new               (WnHeapLessFunc less,
                                     gsize          pos_offset,
                                     guint64       *shared_counter);
void      wn_heap_free              (WnHeap *heap);

void      wn_heap_push              (WnHeap *heap, gpointer item);
/* The minimum, or NULL when empty. */
gpointer  wn_heap_pop               (WnHeap *heap);
/* Remove an item that is in this heap. */
void      wn_heap_remove            (WnHeap *heap, gpointer item);
/* Restore the order after the item's key changed (either direction). */
void      wn_heap_update            (WnHeap *heap, gpointer item);
gboolean  wn_heap_contains          (const WnHeap *heap, gconstpointer item);

/* For iteration (in heap order, not sorted order); 0 ≤ i < size. */
gpointer  wn_heap_get               (const WnHeap *heap, guint i);
guint64   wn_heap_get_n_comparisons (const WnHeap *heap);
/* Checks the heap property and every position field; for tests. Counts nothing. */
gboolean  wn_heap_is_valid          (const WnHeap *heap);

static inline guint
wn_heap_size (const WnHeap *heap)
{
  return heap->len;
}

static inline gpointer
wn_heap_peek (const WnHeap *heap)
{
  return heap->len > 0 ? heap->items[0] : NULL;
}

G_END_DECLS
