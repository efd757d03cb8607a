/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-lab-runner.c — cells on threads, each merged into its variant's summary
 * as it finishes (the merge is exact and does not depend on the order). */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "wn-lab-runner.h"

typedef struct {
  WnLabSweep   *sweep;
  GArray       *cells;      /* guint: the shard's cells */
  GPtrArray    *summaries;  /* one per variant (under lock) */
  GError       *error;      /* the first cell's failure (under lock) */
  GCancellable *cancellable;
  gint          next;       /* the next cell to take (atomic) */
  gint          done;       /* cells finished (atomic) */
  guint         merged;     /* cells in the summaries (under lock) */
  GMutex        lock;
  GCond         finished;
} Work;

gboolean
wn_lab_shard_parse (const char  *spec,
                    guint       *k,
                    guint       *n,
                    GError     **error)
{
  g_auto(GStrv) parts = g_strsplit (spec, "/", 3);
  guint64 kk, nn;

  if (g_strv_length (parts) == 2 &&
      g_ascii_string_to_unsigned (parts[0], 10, 1, G_MAXUINT, &kk, NULL) &&
      g_ascii_string_to_unsigned (parts[1], 10, 1, G_MAXUINT, &nn, NULL) && kk <= nn)
    {
      *k = (guint) kk;
      *n = (guint) nn;
      return TRUE;
    }
  g_set_error (error, WN_LAB_ERROR, WN_LAB_ERROR_SHARD,
               _("--shard takes K/N with 1 ≤ K ≤ N (e.g. 2/4), not “%s”"), spec);
  return FALSE;
}

gboolean
wn_lab_shard_has (guint k,
                  guint n,
                  guint cell)
{
  return cell % n == k - 1;
}

static void
run_cells (Work *work)
{
  for (;;)
    {
      guint i = (guint) g_atomic_int_add (&work->next, 1);
      g_autoptr(WnLabSummary) result = NULL;
      g_autoptr(GError) error = NULL;
      guint cell, variant;

      if (i >= work->cells->len || g_cancellable_is_cancelled (work->cancellable))
        break;
      cell = g_array_index (work->cells, guint, i);
      variant = cell / wn_lab_sweep_get_n_seeds (work->sweep);
      result = wn_lab_sweep_new_summary (work->sweep, variant);
      if (wn_lab_sweep_run_cell (work->sweep, cell, result, work->cancellable, &error))
        {
          g_mutex_lock (&work->lock);
          /* cannot fail: one variant's summary, a seed of its own */
          wn_lab_summary_merge (g_ptr_array_index (work->summaries, variant), result, NULL);
          work->merged++;
          g_mutex_unlock (&work->lock);
        }
      /* a cell stopped by the cancellable is only left out */
      else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_mutex_lock (&work->lock);
          if (work->error == NULL)
            work->error = g_steal_pointer (&error);
          g_mutex_unlock (&work->lock);
        }
      g_atomic_int_inc (&work->done);
      g_mutex_lock (&work->lock);
      g_cond_signal (&work->finished);
      g_mutex_unlock (&work->lock);
    }
}

static gpointer
thread_cb (gpointer data)
{
  run_cells (data);
  return NULL;
}

GPtrArray *
wn_lab_sweep_run (WnLabSweep        *sweep,
                  guint              shard_k,
                  guint              shard_n,
                  guint              jobs,
                  GCancellable      *cancellable,
                  WnLabProgressFunc  progress,
                  gpointer           data,
                  GError           **error)
{
  guint finished, cells;
  GPtrArray *summaries = wn_lab_sweep_run_partial (sweep, shard_k, shard_n, jobs, cancellable, progress, data,
                                                   &finished, &cells, error);

  if (summaries != NULL && finished < cells)
    {
      g_ptr_array_unref (summaries);
      /* only a cancelled run returns summaries with cells missing */
      g_cancellable_set_error_if_cancelled (cancellable, error);
      return NULL;
    }
  return summaries;
}

GPtrArray *
wn_lab_sweep_run_partial (WnLabSweep        *sweep,
                          guint              shard_k,
                          guint              shard_n,
                          guint              jobs,
                          GCancellable      *cancellable,
                          WnLabProgressFunc  progress,
                          gpointer           data,
                          guint             *finished,
                          guint             *cells,
                          GError           **error)
{
  g_autoptr(GPtrArray) summaries = g_ptr_array_new_with_free_func ((GDestroyNotify) wn_lab_summary_free);
  g_autoptr(GPtrArray) threads = g_ptr_array_new ();
  Work work = { 0 };
  guint total = wn_lab_sweep_get_n_cells (sweep);
  gboolean ok = TRUE;

  g_return_val_if_fail (shard_k >= 1 && shard_k <= shard_n, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  work.sweep = sweep;
  work.cells = g_array_new (FALSE, FALSE, sizeof (guint));
  work.cancellable = cancellable;
  g_mutex_init (&work.lock);
  g_cond_init (&work.finished);
  for (guint c = 0; c < total; c++)
    if (wn_lab_shard_has (shard_k, shard_n, c))
      g_array_append_val (work.cells, c);
  work.summaries = summaries;
  for (guint v = 0; v < wn_lab_sweep_get_n_variants (sweep); v++)
    g_ptr_array_add (summaries, wn_lab_sweep_new_summary (sweep, v));

  jobs = CLAMP (jobs, 1, MAX (work.cells->len, 1));
  /* with a progress function this thread only reports; else it runs cells too */
  for (guint j = progress != NULL ? 0 : 1; j < jobs; j++)
    g_ptr_array_add (threads, g_thread_new ("wn-lab", thread_cb, &work));
  if (progress == NULL)
    run_cells (&work);
  else
    {
      g_mutex_lock (&work.lock);
      while ((guint) g_atomic_int_get (&work.done) < work.cells->len && !g_cancellable_is_cancelled (cancellable))
        {
          guint done = (guint) g_atomic_int_get (&work.done);

          g_mutex_unlock (&work.lock);
          progress (done, work.cells->len, data);
          g_mutex_lock (&work.lock);
          if ((guint) g_atomic_int_get (&work.done) == done)
            g_cond_wait_until (&work.finished, &work.lock, g_get_monotonic_time () + G_USEC_PER_SEC / 4);
        }
      g_mutex_unlock (&work.lock);
      progress ((guint) g_atomic_int_get (&work.done), work.cells->len, data);
    }
  for (guint j = 0; j < threads->len; j++)
    g_thread_join (g_ptr_array_index (threads, j));

  if (work.error != NULL)
    {
      g_propagate_error (error, work.error);
      ok = FALSE;
    }
  if (finished != NULL)
    *finished = work.merged;
  if (cells != NULL)
    *cells = work.cells->len;
  g_array_unref (work.cells);
  g_mutex_clear (&work.lock);
  g_cond_clear (&work.finished);
  return ok ? g_steal_pointer (&summaries) : NULL;
}
