/* The session's tables while the clock runs at fast-forward. Its snapshots
 * are then incremental: they look up only the jobs and tracks the journal
 * named (winnow-session.c). After every flush of a running clock, the tables,
 * the diagram's counts and the open incidents must still say exactly what a
 * walk over the engine says. No display. */
#include "config.h"

#include <string.h>

#include "winnow.h"
#include "winnow-job-row.h"
#include "winnow-session.h"
#include "winnow-track-row.h"

typedef struct {
  GHashTable *states;    /* id → state + 1 */
  WinnowNodeCounts *counts;
  WnProcess *process;
  GPtrArray *incidents;  /* track ids, in walk order */
} Walk;

static void
walk_job_cb (const WnJobInfo *info,
             gpointer         data)
{
  Walk *walk = data;

  g_hash_table_insert (walk->states, g_strdup (info->id), GINT_TO_POINTER (info->state + 1));
}

static void
walk_track_cb (const WnTrackInfo *info,
               gpointer           data)
{
  Walk *walk = data;
  const WnNode *node = wn_process_find_node (walk->process, info->node);

  g_hash_table_insert (walk->states, g_strdup (info->id), GINT_TO_POINTER (info->state + 1));
  g_assert_nonnull (node);
  if (info->state == WN_TRACK_ACTIVE || info->state == WN_TRACK_JOINING)
    walk->counts[node->index].active++;
  else if (info->state == WN_TRACK_PARKED)
    walk->counts[node->index].parked++;
  else if (info->state == WN_TRACK_INCIDENT)
    {
      walk->counts[node->index].incident++;
      g_ptr_array_add (walk->incidents, g_strdup (info->id));
    }
}

/* What the session lists is what the engine holds, row for row. */
static void
check_tables (WinnowSession *session)
{
  WnEngine *engine = winnow_session_get_engine (session);
  WnProcess *process = winnow_session_get_process (session);
  GListModel *jobs = winnow_session_get_jobs (session);
  GListModel *tracks = winnow_session_get_tracks (session);
  GPtrArray *incidents = winnow_session_get_incidents (session);   /* borrowed */
  Walk walk = { 0 };

  walk.process = process;
  walk.counts = g_new0 (WinnowNodeCounts, process->n_nodes);
  walk.incidents = g_ptr_array_new_with_free_func (g_free);

  walk.states = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  wn_dispatcher_foreach (wn_engine_get_dispatcher (engine), walk_job_cb, &walk);
  g_assert_cmpuint (g_list_model_get_n_items (jobs), ==, g_hash_table_size (walk.states));
  for (guint i = 0; i < g_list_model_get_n_items (jobs); i++)
    {
      g_autoptr(WinnowJobRow) row = g_list_model_get_item (jobs, i);
      gpointer state = g_hash_table_lookup (walk.states, winnow_job_row_get_id (row));

      g_assert_nonnull (state);
      g_assert_cmpint (winnow_job_row_get_state (row), ==, GPOINTER_TO_INT (state) - 1);
    }
  g_hash_table_unref (walk.states);

  walk.states = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  wn_engine_foreach_track (engine, FALSE, walk_track_cb, &walk);
  g_assert_cmpuint (g_list_model_get_n_items (tracks), ==, g_hash_table_size (walk.states));
  for (guint i = 0; i < g_list_model_get_n_items (tracks); i++)
    {
      g_autoptr(WinnowTrackRow) row = g_list_model_get_item (tracks, i);
      gpointer state = g_hash_table_lookup (walk.states, winnow_track_row_get_id (row));

      g_assert_nonnull (state);
      g_assert_cmpint (winnow_track_row_get_state (row), ==, GPOINTER_TO_INT (state) - 1);
    }
  g_hash_table_unref (walk.states);

  for (guint i = 0; i < process->n_nodes; i++)
    {
      WinnowNodeCounts counts = winnow_session_get_node_counts (session, process->nodes[i].id);

      g_assert_cmpuint (counts.active, ==, walk.counts[i].active);
      g_assert_cmpuint (counts.parked, ==, walk.counts[i].parked);
      g_assert_cmpuint (counts.incident, ==, walk.counts[i].incident);
    }

  g_assert_cmpuint (incidents->len, ==, walk.incidents->len);
  for (guint i = 0; i < incidents->len; i++)
    g_assert_cmpstr (((WinnowIncident *) g_ptr_array_index (incidents, i))->track, ==,
                     g_ptr_array_index (walk.incidents, i));

  g_ptr_array_unref (walk.incidents);
  g_free (walk.counts);
}

/* Plays `example` with `n` instances at fast-forward, flushing as a window
 * would, and checks the tables after every flush that left nothing pending;
 * returns how many checks ran while the clock was running. */
static guint
play_and_check (const char *example,
                guint       n)
{
  g_autofree char *path = g_build_filename (EXAMPLES_DIR, example, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(WinnowSession) session = winnow_session_new ();
  g_autoptr(GError) error = NULL;
  WnEngineOptions options = { 0 };
  guint checks = 0;
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  options.instances = n;
  options.has_seed = TRUE;
  options.seed = 7;
  g_assert_true (winnow_session_load_file (session, file, &options, NULL, &error));
  g_assert_no_error (error);
  winnow_session_set_speed (session, 0);
  winnow_session_play (session);
  while (winnow_session_is_playing (session) || winnow_session_has_pending (session))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, FALSE);
      if (!winnow_session_has_pending (session))
        continue;
      winnow_session_flush (session);
      if (winnow_session_is_playing (session) && !winnow_session_has_pending (session))
        {
          check_tables (session);
          checks++;
        }
    }
  /* stopped: the last full pass agrees too */
  check_tables (session);
  g_test_message ("%u checks while running", checks);
  return checks;
}

static void
test_flaky_service (void)
{
  /* retries, locks that expire, instances that end: rows come and go */
  g_assert_cmpuint (play_and_check ("flaky-service.process.json", 2000), >, 3);
}

static void
test_incidents (void)
{
  /* tracks that stop on an incident: counts and the incidents list */
  g_assert_cmpuint (play_and_check ("incident-on-exhaustion.process.json", 300), >, 0);
}

static void
test_parallel (void)
{
  /* instances with several tracks, some cancelled by a sibling's failure */
  g_assert_cmpuint (play_and_check ("parallel-branch-failure.process.json", 300), >, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/Session/incremental/flaky-service", test_flaky_service);
  g_test_add_func ("/app/Session/incremental/incidents", test_incidents);
  g_test_add_func ("/app/Session/incremental/parallel", test_parallel);
  return g_test_run ();
}
