/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-session-tables.c — the models the views show: the journal's events,
 * the jobs, tracks and instances as rows, the per-node counts behind the
 * diagram's badges, and the open incidents. Rows are made as the journal
 * announces them and brought up to date by snapshots, once per frame: a full
 * pass over the engine after a command or a change of the clock's mode, an
 * incremental one (only what the journal named) while the clock runs.
 */
#include "config.h"

#include <string.h>

#include "winnow-session-private.h"

/* While the clock runs, tables bigger than this get a full pass (after a
 * command) only when the time since the last one is SNAPSHOT_SPACING times
 * what that one cost, and at least every SNAPSHOT_INTERVAL: a full pass walks
 * every job and track, so a Monte-Carlo run of 10⁴ instances would otherwise
 * spend its frames walking. Incremental passes (below) run every frame.
 * (The views do not pay for the rows that move: winnow-live-table.h.) */
#define BIG_TABLES 1000
#define SNAPSHOT_SPACING 6
#define SNAPSHOT_INTERVAL (G_USEC_PER_SEC / 4)

/* While the clock runs, a snapshot is incremental: it looks up only the jobs
 * and tracks the journal named since the last one (the rows flagged
 * ROW_DIRTY), plus the jobs whose state the clock alone can change (a gate
 * opening, a lock expiring: no event says so; ROW_TIMED). A full pass — every
 * job and track — still follows every command and every change of the clock's
 * mode, so a stopped clock shows exactly what the engine holds. */
#define ROW_DIRTY (1u << 0)
#define ROW_TIMED (1u << 1)
/* A listed row the incremental pass found gone (its job done, its track
 * ended): the store drops it. */
#define GONE_GENERATION G_MAXUINT

typedef struct {
  WinnowSession *self;
  GPtrArray     *added;
  guint          seen;
  WnTime         now;
  GPtrArray     *all;       /* an exact pass: every row seen, in order (borrowed) */
} Pass;

typedef struct {
  GHashTable      *index;
  guint            generation;
} SyncData;


static void
incident_free (gpointer data)
{
  WinnowIncident *incident = data;

  g_free (incident->instance);
  g_free (incident->node);
  g_free (incident->track);
  g_free (incident->error);
  g_free (incident);
}

static void
announce_job (WinnowSession   *self,
              const WnJobInfo *info)
{
  WinnowJobRow *row;

  if (g_hash_table_contains (self->job_index, info->id))
    return;
  row = winnow_job_row_new (info->id);
  winnow_job_row_update (row, info, wn_engine_now (self->engine));
  g_hash_table_insert (self->job_index, (gpointer) winnow_row_get_id (WINNOW_ROW (row)), row);
  g_ptr_array_add (self->new_jobs, g_object_ref (row));
}

static void
announce_track (WinnowSession *self,
                const char    *id)
{
  WinnowTrackRow *row;

  if (g_hash_table_contains (self->track_index, id))
    return;
  row = winnow_track_row_new (id);
  g_hash_table_insert (self->track_index, (gpointer) winnow_row_get_id (WINNOW_ROW (row)), row);
  g_ptr_array_add (self->new_tracks, g_object_ref (row));
}

/* An instance event: its row is made, or marked for the next snapshot. */
static void
announce_instance (WinnowSession *self,
                   const char    *id)
{
  WinnowInstanceRow *row;

  if (id == NULL)
    {
      self->instances_dirty = TRUE;   /* a full pass finds it */
      return;
    }
  row = g_hash_table_lookup (self->instance_index, id);
  if (row == NULL)
    {
      row = winnow_instance_row_new (id);
      g_hash_table_insert (self->instance_index, (gpointer) winnow_row_get_id (WINNOW_ROW (row)), row);
      g_ptr_array_add (self->new_instances, g_object_ref (row));
    }
  g_ptr_array_add (self->changed_instances, g_object_ref (row));
}

/* The journal named a job or a track (`id` in `index`): the next incremental
 * snapshot looks it up (once, however many events named it). */
static void
mark_row (GHashTable *index,
          GPtrArray  *dirty,
          const char *id)
{
  WinnowRow *row = g_hash_table_lookup (index, id);

  if (row == NULL || (winnow_row_get_marks (row)->flags & ROW_DIRTY))
    return;
  winnow_row_get_marks (row)->flags |= ROW_DIRTY;
  g_ptr_array_add (dirty, g_object_ref (row));
}

/* Clear `flag` on the rows of `rows`, and empty it. */
static void
clear_flag (GPtrArray *rows,
            guint      flag)
{
  for (guint i = 0; i < rows->len; i++)
    winnow_row_get_marks (g_ptr_array_index (rows, i))->flags &= ~flag;
  g_ptr_array_set_size (rows, 0);
}

/* Forget what the incremental pass had queued (a full pass covers it). */
static void
clear_marks (WinnowSession *self)
{
  clear_flag (self->dirty_jobs, ROW_DIRTY);
  clear_flag (self->timed_jobs, ROW_TIMED);
  clear_flag (self->dirty_tracks, ROW_DIRTY);
}

static gboolean
row_seen (gpointer row,
          gpointer data)
{
  SyncData *sync = data;

  return winnow_row_get_marks (row)->generation == sync->generation;
}

static void
row_gone (gpointer row,
          gpointer data)
{
  SyncData *sync = data;

  g_hash_table_remove (sync->index, winnow_row_get_id (row));
}

/* Bring `store` in line with a pass over the engine: rows not seen this
 * generation leave, new ones are appended; or, after an exact pass, the
 * store lists every row seen, in the engine's order (a travel: a row
 * that was gone comes back where it was). */
static void
sync_store (WinnowRowList   *store,
            GHashTable      *index,
            Pass            *pass,
            guint            generation)
{
  SyncData sync = { index, generation };
  guint survivors = pass->seen - pass->added->len;

  if (pass->all != NULL)
    {
      g_autoptr(GPtrArray) gone = g_ptr_array_new_with_free_func (g_object_unref);
      guint n = g_list_model_get_n_items (G_LIST_MODEL (store));

      for (guint i = 0; i < n; i++)
        {
          gpointer row = winnow_row_list_peek (store, i);

          if (!row_seen (row, &sync))
            g_ptr_array_add (gone, g_object_ref (row));
        }
      winnow_row_list_set (store, pass->all->pdata, pass->all->len);
      for (guint i = 0; i < gone->len; i++)
        row_gone (g_ptr_array_index (gone, i), &sync);
      return;
    }
  if (g_list_model_get_n_items (G_LIST_MODEL (store)) != survivors)
    winnow_row_list_filter (store, row_seen, row_gone, &sync);
  winnow_row_list_append (store, pass->added->pdata, pass->added->len);
}

/* A gated or locked job changes state when the clock passes its gate or its
 * deadline, with no event to say so (the engine says when): keep it where
 * the next pass looks. */
static gboolean
is_timed (WinnowJobRow *row)
{
  return winnow_job_row_get_next_change (row) != WN_TIME_NEVER;
}

static void
note_timed (WinnowSession *self,
            WinnowJobRow  *row)
{
  WinnowRowMarks *marks = winnow_row_get_marks (WINNOW_ROW (row));

  if (is_timed (row) && !(marks->flags & ROW_TIMED))
    {
      marks->flags |= ROW_TIMED;
      g_ptr_array_add (self->timed_jobs, g_object_ref (row));
    }
}

/* What a listed job counts for at its node (delta +1), or no longer counts
 * for (-1): the diagram's gated and locked badges. */
static void
count_job (WinnowSession *self,
           WinnowJobRow  *row,
           int            delta)
{
  const WnNode *node = wn_process_find_node (self->process, winnow_job_row_get_node (row));

  if (node == NULL)
    return;
  switch (winnow_job_row_get_state (row))
    {
    case WN_JOB_GATED:
      self->counts[node->index].gated += delta;
      break;
    case WN_JOB_LOCKED:
      self->counts[node->index].locked += delta;
      break;
    case WN_JOB_AVAILABLE:
    case WN_JOB_EXPIRED:
    default:
      break;
    }
}

static void
job_cb (const WnJobInfo *info,
        gpointer         data)
{
  Pass *pass = data;
  WinnowSession *self = pass->self;
  WinnowJobRow *row = g_hash_table_lookup (self->job_index, info->id);

  if (row == NULL)
    {
      row = winnow_job_row_new (info->id);
      g_hash_table_insert (self->job_index, (gpointer) winnow_row_get_id (WINNOW_ROW (row)), row);
      g_ptr_array_add (pass->added, g_object_ref (row));
    }
  else if (winnow_row_get_marks (WINNOW_ROW (row))->generation == 0)
    g_ptr_array_add (pass->added, g_object_ref (row));   /* announced, listed now */
  winnow_job_row_update (row, info, pass->now);
  winnow_row_get_marks (WINNOW_ROW (row))->generation = self->generation;
  note_timed (self, row);
  count_job (self, row, +1);
  pass->seen++;
  if (pass->all != NULL)
    g_ptr_array_add (pass->all, row);
}

static void
refresh_jobs (WinnowSession *self,
              WnTime         now)
{
  Pass pass = { self, g_ptr_array_new_with_free_func (g_object_unref), 0, now,
                self->snapshots_exact ? g_ptr_array_new () : NULL };

  for (guint i = 0; i < self->process->n_nodes; i++)
    self->counts[i].gated = self->counts[i].locked = 0;
  wn_dispatcher_foreach (wn_engine_get_dispatcher (self->engine), job_cb, &pass);
  sync_store (self->jobs, self->job_index, &pass, self->generation);
  g_ptr_array_unref (pass.added);
  g_clear_pointer (&pass.all, g_ptr_array_unref);
  /* announced and gone before this pass: never listed */
  for (guint i = 0; i < self->new_jobs->len; i++)
    {
      WinnowJobRow *row = g_ptr_array_index (self->new_jobs, i);

      if (winnow_row_get_marks (WINNOW_ROW (row))->generation == 0)
        g_hash_table_remove (self->job_index, winnow_row_get_id (WINNOW_ROW (row)));
    }
  g_ptr_array_set_size (self->new_jobs, 0);
}

static gboolean
incidents_equal (GPtrArray *a,
                 GPtrArray *b)
{
  if (a->len != b->len)
    return FALSE;
  for (guint i = 0; i < a->len; i++)
    {
      WinnowIncident *x = g_ptr_array_index (a, i);
      WinnowIncident *y = g_ptr_array_index (b, i);

      if (g_strcmp0 (x->track, y->track) != 0 || x->since != y->since || g_strcmp0 (x->error, y->error) != 0)
        return FALSE;
    }
  return TRUE;
}

/* What a track at `node` in `state` counts for there (delta +1), or no
 * longer counts for (-1). */
static void
count_track (WinnowSession *self,
             const WnNode  *node,
             WnTrackState   state,
             int            delta)
{
  WinnowNodeCounts *counts;

  if (node == NULL)
    return;
  counts = &self->counts[node->index];
  switch (state)
    {
    case WN_TRACK_ACTIVE:
    case WN_TRACK_JOINING:
      counts->active += delta;
      break;
    case WN_TRACK_PARKED:
      counts->parked += delta;
      break;
    case WN_TRACK_INCIDENT:
      counts->incident += delta;
      break;
    case WN_TRACK_DONE:
    case WN_TRACK_CANCELED:
    case WN_TRACK_FAILED:
    default:
      break;
    }
}

/* By track, in the order wn_engine_foreach_track() walks in. */
static int
compare_incidents (gconstpointer a,
                   gconstpointer b)
{
  const WinnowIncident *x = *(WinnowIncident * const *) a;
  const WinnowIncident *y = *(WinnowIncident * const *) b;

  if (x->instance_number != y->instance_number)
    return x->instance_number < y->instance_number ? -1 : 1;
  return (x->track_number > y->track_number) - (x->track_number < y->track_number);
}

/* The open incidents, from the listed tracks, in the full pass's order. */
static void
collect_incidents (WinnowSession *self)
{
  GListModel *tracks = G_LIST_MODEL (self->tracks);
  guint n = g_list_model_get_n_items (tracks);

  g_ptr_array_set_size (self->incidents_next, 0);
  for (guint i = 0; i < n; i++)
    {
      WinnowTrackRow *row = winnow_row_list_peek (self->tracks, i);
      WinnowIncident *incident;

      if (winnow_track_row_get_state (row) != WN_TRACK_INCIDENT)
        continue;
      incident = g_new0 (WinnowIncident, 1);
      incident->instance = g_strdup (winnow_track_row_get_instance (row));
      incident->node = g_strdup (winnow_track_row_get_node (row));
      incident->track = g_strdup (winnow_row_get_id (WINNOW_ROW (row)));
      incident->error = g_strdup (winnow_track_row_get_error (row));
      incident->since = winnow_track_row_get_since (row);
      incident->instance_number = winnow_track_row_get_instance_number (row);
      incident->track_number = winnow_track_row_get_number (row);
      g_ptr_array_add (self->incidents_next, incident);
    }
  g_ptr_array_sort (self->incidents_next, compare_incidents);
  if (!incidents_equal (self->incidents, self->incidents_next))
    {
      GPtrArray *swap = self->incidents;

      self->incidents = self->incidents_next;
      self->incidents_next = swap;
      self->incidents_version++;
    }
  g_ptr_array_set_size (self->incidents_next, 0);
}

static void
track_cb (const WnTrackInfo *info,
          gpointer           data)
{
  Pass *pass = data;
  WinnowSession *self = pass->self;
  WinnowTrackRow *row = g_hash_table_lookup (self->track_index, info->id);
  const WnNode *node = wn_process_find_node (self->process, info->node);

  if (row == NULL)
    {
      row = winnow_track_row_new (info->id);
      g_hash_table_insert (self->track_index, (gpointer) winnow_row_get_id (WINNOW_ROW (row)), row);
      g_ptr_array_add (pass->added, g_object_ref (row));
    }
  else if (winnow_row_get_marks (WINNOW_ROW (row))->generation == 0)
    g_ptr_array_add (pass->added, g_object_ref (row));   /* announced, listed now */
  winnow_track_row_update (row, info, node && node->name ? node->name : info->node, pass->now);
  winnow_row_get_marks (WINNOW_ROW (row))->generation = self->generation;
  pass->seen++;
  if (pass->all != NULL)
    g_ptr_array_add (pass->all, row);

  count_track (self, node, info->state, +1);
}

static void
refresh_tracks (WinnowSession *self,
                WnTime         now)
{
  /* Every full pass lists the tracks in the engine's order (by instance,
   * then by track), not only an exact one: appended, a track an instance
   * makes later (an event sub-process's) would land after the other
   * instances' tracks or before them depending on which frame first saw it,
   * and a travel to that point, listing the engine's order, would read
   * otherwise than the live run did. */
  Pass pass = { self, g_ptr_array_new_with_free_func (g_object_unref), 0, now, g_ptr_array_new () };

  for (guint i = 0; i < self->process->n_nodes; i++)
    self->counts[i].active = self->counts[i].parked = self->counts[i].incident = 0;
  wn_engine_foreach_track (self->engine, FALSE, track_cb, &pass);
  sync_store (self->tracks, self->track_index, &pass, self->generation);
  g_ptr_array_unref (pass.added);
  g_clear_pointer (&pass.all, g_ptr_array_unref);
  for (guint i = 0; i < self->new_tracks->len; i++)
    {
      WinnowTrackRow *row = g_ptr_array_index (self->new_tracks, i);

      if (winnow_row_get_marks (WINNOW_ROW (row))->generation == 0)
        g_hash_table_remove (self->track_index, winnow_row_get_id (WINNOW_ROW (row)));
    }
  g_ptr_array_set_size (self->new_tracks, 0);
  collect_incidents (self);
}

static void
instance_cb (const WnInstanceInfo *info,
             gpointer              data)
{
  Pass *pass = data;
  WinnowSession *self = pass->self;
  WinnowInstanceRow *row = g_hash_table_lookup (self->instance_index, info->id);

  if (row == NULL)
    {
      row = winnow_instance_row_new (info->id);
      g_hash_table_insert (self->instance_index, (gpointer) winnow_row_get_id (WINNOW_ROW (row)), row);
      g_ptr_array_add (pass->added, g_object_ref (row));
    }
  winnow_instance_row_update (row, info);
  winnow_row_get_marks (WINNOW_ROW (row))->generation = self->generation;
  if (pass->all != NULL)
    g_ptr_array_add (pass->all, row);
}

/* An exact pass over the instances (a travel): the store lists every one
 * the engine has, in its order (instances come in creation order), and the
 * rows of those it does not have go. */
static void
refresh_instances_exact (WinnowSession *self)
{
  Pass pass = { self, g_ptr_array_new_with_free_func (g_object_unref), 0, 0, g_ptr_array_new () };

  wn_engine_foreach_instance (self->engine, instance_cb, &pass);
  pass.seen = pass.all->len;
  sync_store (self->instances, self->instance_index, &pass, self->generation);
  /* announced rows the engine does not have (yet) were never listed */
  for (guint i = 0; i < self->new_instances->len; i++)
    {
      WinnowRow *row = g_ptr_array_index (self->new_instances, i);

      if (winnow_row_get_marks (row)->generation != self->generation)
        g_hash_table_remove (self->instance_index, winnow_row_get_id (row));
    }
  g_ptr_array_set_size (self->new_instances, 0);
  g_ptr_array_set_size (self->changed_instances, 0);
  g_ptr_array_unref (pass.added);
  g_ptr_array_unref (pass.all);
}

/* `all`: a pass over every instance (after a command); else only the ones
 * the journal named since the last snapshot. */
static void
refresh_instances (WinnowSession *self,
                   gboolean       all)
{
  Pass pass = { self, g_ptr_array_new_with_free_func (g_object_unref), 0, 0, NULL };

  if (self->snapshots_exact)
    {
      g_ptr_array_unref (pass.added);
      refresh_instances_exact (self);
      return;
    }
  if (all)
    wn_engine_foreach_instance (self->engine, instance_cb, &pass);
  else
    for (guint i = 0; i < self->changed_instances->len; i++)
      {
        WinnowInstanceRow *row = g_ptr_array_index (self->changed_instances, i);
        WnInstanceInfo info;

        if (wn_engine_lookup_instance (self->engine, winnow_row_get_id (WINNOW_ROW (row)), &info))
          winnow_instance_row_update (row, &info);
      }
  g_ptr_array_set_size (self->changed_instances, 0);
  /* instances never leave: every announced one is listed, in creation order */
  winnow_row_list_append (self->instances, self->new_instances->pdata, self->new_instances->len);
  g_ptr_array_set_size (self->new_instances, 0);
  winnow_row_list_append (self->instances, pass.added->pdata, pass.added->len);
  g_ptr_array_unref (pass.added);
}

/* ---- incremental snapshot (the clock runs) ---- */

/* Look one job up again: update its row, list it if it is new, or mark it
 * gone. Returns FALSE when it is gone from a listed row. */
static gboolean
refresh_job_row (WinnowSession *self,
                 WinnowJobRow  *row,
                 WnTime         now,
                 GPtrArray     *added)
{
  WnJobInfo info;
  guint generation = winnow_row_get_marks (WINNOW_ROW (row))->generation;

  if (generation == GONE_GENERATION)
    return TRUE;
  if (wn_dispatcher_lookup (wn_engine_get_dispatcher (self->engine), winnow_row_get_id (WINNOW_ROW (row)), &info))
    {
      if (generation != 0)
        count_job (self, row, -1);   /* listed: it counted as it was */
      winnow_job_row_update (row, &info, now);
      count_job (self, row, +1);
      if (generation == 0)
        {
          winnow_row_get_marks (WINNOW_ROW (row))->generation = self->generation;
          g_ptr_array_add (added, g_object_ref (row));
        }
      note_timed (self, row);
      return TRUE;
    }
  if (generation == 0)
    {
      /* announced and gone before it was listed */
      g_hash_table_remove (self->job_index, winnow_row_get_id (WINNOW_ROW (row)));
      return TRUE;
    }
  count_job (self, row, -1);
  winnow_row_get_marks (WINNOW_ROW (row))->generation = GONE_GENERATION;
  return FALSE;
}

static void
refresh_jobs_incremental (WinnowSession *self,
                          WnTime         now)
{
  g_autoptr(GPtrArray) added = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) dirty = g_steal_pointer (&self->dirty_jobs);
  g_autoptr(GPtrArray) gone = g_ptr_array_new ();   /* listed rows, borrowed from the list */
  guint kept = 0;

  self->dirty_jobs = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < dirty->len; i++)
    {
      WinnowJobRow *row = g_ptr_array_index (dirty, i);

      winnow_row_get_marks (WINNOW_ROW (row))->flags &= ~ROW_DIRTY;
      if (!refresh_job_row (self, row, now, added))
        g_ptr_array_add (gone, row);
    }
  /* every announced job was named by its enqueue event, so looked up above */
  g_ptr_array_set_size (self->new_jobs, 0);

  /* the clock may have opened gates and expired locks */
  for (guint i = 0; i < self->timed_jobs->len; i++)
    {
      WinnowJobRow *row = g_ptr_array_index (self->timed_jobs, i);
      gboolean due = winnow_job_row_get_next_change (row) <= now;

      if (due && !refresh_job_row (self, row, now, added))
        g_ptr_array_add (gone, row);
      if (winnow_row_get_marks (WINNOW_ROW (row))->generation != GONE_GENERATION &&
          g_hash_table_lookup (self->job_index, winnow_row_get_id (WINNOW_ROW (row))) == row &&
          is_timed (row))
        self->timed_jobs->pdata[kept++] = row;
      else
        {
          winnow_row_get_marks (WINNOW_ROW (row))->flags &= ~ROW_TIMED;
          g_object_unref (row);
        }
    }
  self->timed_jobs->len = kept;   /* the dropped ones were unreferenced above */

  if (gone->len > 0)
    {
      SyncData sync = { self->job_index, 0 };

      winnow_row_list_remove (self->jobs, gone->pdata, gone->len, row_gone, &sync);
    }
  winnow_row_list_append (self->jobs, added->pdata, added->len);
}

static void
refresh_tracks_incremental (WinnowSession *self,
                            WnTime         now)
{
  g_autoptr(GPtrArray) added = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) dirty = g_steal_pointer (&self->dirty_tracks);
  g_autoptr(GPtrArray) gone = g_ptr_array_new ();   /* listed rows, borrowed from the list */
  gboolean incidents_changed = FALSE;

  self->dirty_tracks = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < dirty->len; i++)
    {
      WinnowTrackRow *row = g_ptr_array_index (dirty, i);
      guint generation = winnow_row_get_marks (WINNOW_ROW (row))->generation;
      gboolean listed = generation != 0 && generation != GONE_GENERATION;
      WnTrackInfo info;

      winnow_row_get_marks (WINNOW_ROW (row))->flags &= ~ROW_DIRTY;
      if (generation == GONE_GENERATION)
        continue;
      /* A cancelled track takes its job out of the dispatcher, and the event
       * names the track only: the job it was parked on is looked up too (the
       * jobs' pass runs after this one). */
      if (winnow_track_row_get_job (row) != NULL)
        mark_row (self->job_index, self->dirty_jobs, winnow_track_row_get_job (row));
      if (listed)
        {
          /* what it counted for until now */
          count_track (self, wn_process_find_node (self->process, winnow_track_row_get_node (row)),
                       winnow_track_row_get_state (row), -1);
          incidents_changed |= winnow_track_row_get_state (row) == WN_TRACK_INCIDENT;
        }
      /* listed as wn_engine_foreach_track (…, FALSE, …) lists them: a live
       * track (an ended instance has none) */
      if (wn_engine_lookup_track (self->engine, winnow_row_get_id (WINNOW_ROW (row)), &info) &&
          wn_track_state_is_live (info.state))
        {
          const WnNode *node = wn_process_find_node (self->process, info.node);

          winnow_track_row_update (row, &info, node && node->name ? node->name : info.node, now);
          if (!listed)
            {
              winnow_row_get_marks (WINNOW_ROW (row))->generation = self->generation;
              g_ptr_array_add (added, g_object_ref (row));
            }
          count_track (self, node, info.state, +1);
          incidents_changed |= info.state == WN_TRACK_INCIDENT;
        }
      else if (!listed)
        g_hash_table_remove (self->track_index, winnow_row_get_id (WINNOW_ROW (row)));
      else
        {
          winnow_row_get_marks (WINNOW_ROW (row))->generation = GONE_GENERATION;
          g_ptr_array_add (gone, row);
        }
    }
  /* every announced track was named by the event that announced it */
  g_ptr_array_set_size (self->new_tracks, 0);

  if (gone->len > 0)
    {
      SyncData sync = { self->track_index, 0 };

      winnow_row_list_remove (self->tracks, gone->pdata, gone->len, row_gone, &sync);
    }
  winnow_row_list_append (self->tracks, added->pdata, added->len);
  if (incidents_changed)
    collect_incidents (self);
}

/* ---- private API ---- */

void
_winnow_session_tables_init (WinnowSession *self)
{
  self->events = winnow_event_log_new (WINNOW_SESSION_MAX_EVENTS);
  self->jobs = winnow_row_list_new (WINNOW_TYPE_JOB_ROW);
  self->tracks = winnow_row_list_new (WINNOW_TYPE_TRACK_ROW);
  self->instances = winnow_row_list_new (WINNOW_TYPE_INSTANCE_ROW);
  self->job_index = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_object_unref);
  self->track_index = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_object_unref);
  self->instance_index = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_object_unref);
  self->new_jobs = g_ptr_array_new_with_free_func (g_object_unref);
  self->new_tracks = g_ptr_array_new_with_free_func (g_object_unref);
  self->new_instances = g_ptr_array_new_with_free_func (g_object_unref);
  self->changed_instances = g_ptr_array_new_with_free_func (g_object_unref);
  self->dirty_jobs = g_ptr_array_new_with_free_func (g_object_unref);
  self->dirty_tracks = g_ptr_array_new_with_free_func (g_object_unref);
  self->timed_jobs = g_ptr_array_new_with_free_func (g_object_unref);
  self->incidents = g_ptr_array_new_with_free_func (incident_free);
  self->incidents_next = g_ptr_array_new_with_free_func (incident_free);
}

void
_winnow_session_tables_finalize (WinnowSession *self)
{
  g_clear_object (&self->events);
  g_clear_object (&self->jobs);
  g_clear_object (&self->tracks);
  g_clear_object (&self->instances);
  g_clear_pointer (&self->job_index, g_hash_table_unref);
  g_clear_pointer (&self->track_index, g_hash_table_unref);
  g_clear_pointer (&self->instance_index, g_hash_table_unref);
  g_clear_pointer (&self->new_jobs, g_ptr_array_unref);
  g_clear_pointer (&self->new_tracks, g_ptr_array_unref);
  g_clear_pointer (&self->new_instances, g_ptr_array_unref);
  g_clear_pointer (&self->changed_instances, g_ptr_array_unref);
  g_clear_pointer (&self->dirty_jobs, g_ptr_array_unref);
  g_clear_pointer (&self->dirty_tracks, g_ptr_array_unref);
  g_clear_pointer (&self->timed_jobs, g_ptr_array_unref);
  g_clear_pointer (&self->counts, g_free);
  g_clear_pointer (&self->incidents, g_ptr_array_unref);
  g_clear_pointer (&self->incidents_next, g_ptr_array_unref);
}

void
_winnow_session_tables_reset (WinnowSession *self)
{
  g_autoptr(WinnowJournal) journal = winnow_journal_new ();

  g_ptr_array_set_size (self->new_jobs, 0);
  g_ptr_array_set_size (self->new_tracks, 0);
  g_ptr_array_set_size (self->new_instances, 0);
  g_ptr_array_set_size (self->changed_instances, 0);
  clear_marks (self);
  g_hash_table_remove_all (self->job_index);
  g_hash_table_remove_all (self->track_index);
  g_hash_table_remove_all (self->instance_index);
  /* rows made from the old run's journal keep it alive as long as they need it */
  winnow_event_log_set_journal (self->events, journal);
  winnow_row_list_remove_all (self->jobs);
  winnow_row_list_remove_all (self->tracks);
  winnow_row_list_remove_all (self->instances);
  g_clear_pointer (&self->counts, g_free);
  winnow_trace_clear (self->trace);
  g_ptr_array_set_size (self->incidents, 0);
  self->incidents_version++;
}

void
_winnow_session_tables_note_event (WinnowSession   *self,
                                   const WnEvent   *event,
                                   const WnJobInfo *enqueued)
{
  if (enqueued != NULL)
    announce_job (self, enqueued);
  else if (event->kind == WN_EV_NODE && event->track != NULL)
    announce_track (self, event->track);
  if (event->job != NULL)
    mark_row (self->job_index, self->dirty_jobs, event->job);
  if (event->track != NULL)
    mark_row (self->track_index, self->dirty_tracks, event->track);

  if (event->kind == WN_EV_INSTANCE || event->kind == WN_EV_INCIDENT)
    announce_instance (self, event->instance);
}

gboolean
_winnow_session_snapshots_wanted (WinnowSession *self)
{
  return self->snapshots_dirty || self->rows_dirty || self->instances_dirty ||
         self->changed_instances->len > 0;
}

gboolean
_winnow_session_snapshots_due (WinnowSession *self)
{
  guint rows;

  if (!winnow_session_is_playing (self))
    return TRUE;
  /* an incremental pass costs what the journal named: every frame, so the
   * cost spreads evenly instead of piling up for the next one */
  if (!self->snapshots_dirty)
    return TRUE;
  rows = g_list_model_get_n_items (G_LIST_MODEL (self->jobs)) +
         g_list_model_get_n_items (G_LIST_MODEL (self->tracks)) +
         wn_dispatcher_get_n_jobs (wn_engine_get_dispatcher (self->engine));
  if (rows < BIG_TABLES)
    return TRUE;
  return g_get_monotonic_time () - self->last_snapshot >=
         MIN (SNAPSHOT_INTERVAL, SNAPSHOT_SPACING * self->snapshot_cost);
}

gint64
_winnow_session_take_snapshots (WinnowSession *self,
                WnTime         now)
{
  gint64 started = g_get_monotonic_time ();

  if (self->snapshots_dirty || self->snapshots_exact)
    {
      clear_marks (self);   /* the full pass sees them all */
      self->generation++;
      refresh_jobs (self, now);
      refresh_tracks (self, now);
      self->snapshots_dirty = FALSE;
    }
  else if (self->rows_dirty)
    {
      refresh_tracks_incremental (self, now);   /* first: it can name jobs */
      refresh_jobs_incremental (self, now);
    }
  self->rows_dirty = FALSE;
  if (self->instances_dirty || self->changed_instances->len > 0 || self->snapshots_exact)
    {
      refresh_instances (self, self->instances_dirty);
      self->instances_dirty = FALSE;
    }
  self->snapshots_exact = FALSE;
  self->last_snapshot = g_get_monotonic_time ();
  self->snapshot_cost = self->last_snapshot - started;
  return self->last_snapshot;
}

/* ---- public API ---- */

GListModel *
winnow_session_get_events (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return G_LIST_MODEL (self->events);
}

GListModel *
winnow_session_get_jobs (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return G_LIST_MODEL (self->jobs);
}

GListModel *
winnow_session_get_tracks (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return G_LIST_MODEL (self->tracks);
}

GListModel *
winnow_session_get_instances (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return G_LIST_MODEL (self->instances);
}

WinnowJobRow *
winnow_session_lookup_job (WinnowSession *self,
                           const char    *id)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return id ? g_hash_table_lookup (self->job_index, id) : NULL;
}

guint64
winnow_session_get_n_dropped (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), 0);
  return winnow_event_log_get_n_dropped (self->events);
}

WinnowNodeCounts
winnow_session_get_node_counts (WinnowSession *self,
                                const char    *node)
{
  WinnowNodeCounts none = { 0, 0, 0, 0, 0 };
  const WnNode *n;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), none);

  if (self->process == NULL || self->counts == NULL || node == NULL)
    return none;
  n = wn_process_find_node (self->process, node);
  return n ? self->counts[n->index] : none;
}

GPtrArray *
winnow_session_get_incidents (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return self->incidents;
}

guint
winnow_session_get_incidents_version (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), 0);
  return self->incidents_version;
}
