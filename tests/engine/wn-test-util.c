#include "wn-test-util.h"

char *
wn_test_source_path (const char *relative)
{
  const char *srcdir = g_getenv ("G_TEST_SRCDIR");

  /* G_TEST_SRCDIR points at tests/ */
  return g_build_filename (srcdir ? srcdir : ".", relative, NULL);
}

WnProcess *
wn_test_load_process (const char *json)
{
  g_autoptr(GError) error = NULL;
  WnProcess *process = wn_load_process_data (json, -1, "test.process.json", NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (process);
  return process;
}

WnScenario *
wn_test_load_scenario (const char *json)
{
  g_autoptr(GError) error = NULL;
  WnScenario *scenario = wn_load_scenario_data (json, -1, "test.scenario.json", NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (scenario);
  return scenario;
}

static void
record_cb (const WnEvent *event,
           gpointer       data)
{
  WnTestRun *run = data;

  g_ptr_array_add (run->events, wn_event_copy (event));
}

WnTestRun *
wn_test_run_new (const char            *process_json,
                 const char            *scenario_json,
                 const WnEngineOptions *options)
{
  WnTestRun *run = g_new0 (WnTestRun, 1);

  run->process = wn_test_load_process (process_json);
  if (scenario_json != NULL)
    run->scenario = wn_test_load_scenario (scenario_json);
  run->engine = wn_engine_new (run->process, run->scenario, options);
  run->events = g_ptr_array_new_with_free_func ((GDestroyNotify) wn_event_free);
  wn_journal_subscribe (wn_engine_get_journal (run->engine), record_cb, run, NULL);
  return run;
}

void
wn_test_run_free (WnTestRun *run)
{
  wn_engine_free (run->engine);
  g_clear_pointer (&run->scenario, wn_scenario_unref);
  wn_process_unref (run->process);
  g_ptr_array_unref (run->events);
  g_free (run);
}

WnStopReason
wn_test_run_until (WnTestRun *run,
                   WnTime     limit)
{
  WnStopReason reason = wn_engine_run (run->engine, limit);

  wn_test_check_invariants (run);
  return reason;
}

static gboolean
matches (const WnEvent *ev,
         WnEventKind    kind,
         WnEventPhase   phase,
         const char    *node)
{
  return ev->kind == kind && ev->phase == phase && (node == NULL || g_strcmp0 (ev->node, node) == 0);
}

guint
wn_test_count (WnTestRun    *run,
               WnEventKind   kind,
               WnEventPhase  phase,
               const char   *node)
{
  guint n = 0;

  for (guint i = 0; i < run->events->len; i++)
    if (matches (g_ptr_array_index (run->events, i), kind, phase, node))
      n++;
  return n;
}

const WnEvent *
wn_test_find (WnTestRun    *run,
              WnEventKind   kind,
              WnEventPhase  phase,
              const char   *node,
              guint         nth)
{
  for (guint i = 0; i < run->events->len; i++)
    {
      const WnEvent *ev = g_ptr_array_index (run->events, i);
      if (matches (ev, kind, phase, node) && nth-- == 0)
        return ev;
    }
  return NULL;
}

static gboolean
is_terminal (WnEventPhase phase)
{
  return phase == WN_PH_COMPLETED || phase == WN_PH_BPMN_ERROR || phase == WN_PH_STATUS || phase == WN_PH_FAULT;
}

void
wn_test_check_invariants (WnTestRun *run)
{
  g_autoptr(GHashTable) terminals = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) job_trust = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) job_track = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) parked = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) canceled = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTableIter iter;
  gpointer key, value;
  guint64 last_seq = 0;
  WnTime last_t = 0;

  for (guint i = 0; i < run->events->len; i++)
    {
      const WnEvent *ev = g_ptr_array_index (run->events, i);

      g_assert_cmpuint (ev->seq, >, last_seq);
      g_assert_cmpint (ev->t_us, >=, last_t);
      last_seq = ev->seq;
      last_t = ev->t_us;

      if (ev->kind == WN_EV_JOB)
        {
          if (ev->trust != WN_TRUST_UNSET)
            g_hash_table_insert (job_trust, (gpointer) ev->job, GINT_TO_POINTER (ev->trust));
          if (is_terminal (ev->phase))
            g_hash_table_insert (terminals, (gpointer) ev->job,
                                 GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (terminals, ev->job)) + 1));
          if (ev->phase == WN_PH_RETRY_SCHEDULED)
            g_assert_cmpint (ev->trust, ==, WN_TRUST_ENGINE_AUTHORITATIVE);
          if (ev->phase == WN_PH_WORKER_RETRY_SCHEDULED)
            g_assert_cmpint (ev->trust, ==, WN_TRUST_WORKER_TRUSTED);
        }
      else if (ev->kind == WN_EV_NODE && ev->track != NULL)
        {
          if (ev->phase == WN_PH_ENTERED)
            g_hash_table_remove (parked, ev->track);
          else if (ev->phase == WN_PH_PARKED)
            {
              /* parks once per visit */
              g_assert_false (g_hash_table_contains (parked, ev->track));
              g_hash_table_add (parked, (gpointer) ev->track);
              if (ev->job != NULL)
                g_hash_table_insert (job_track, (gpointer) ev->job, (gpointer) ev->track);
            }
          else if (ev->phase == WN_PH_CANCELED)
            g_hash_table_add (canceled, (gpointer) ev->track);
        }
    }

  g_hash_table_iter_init (&iter, job_track);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (terminals, key));
      WnJobInfo info;

      g_assert_cmpuint (n, <=, 1);
      if (n == 0 && !g_hash_table_contains (canceled, value) &&
          !wn_dispatcher_lookup (wn_engine_get_dispatcher (run->engine), key, &info))
        g_error ("job %s left the store without a terminal outcome", (char *) key);
    }
}

char *
wn_test_variable (WnTestRun  *run,
                  const char *instance,
                  const char *name)
{
  WnInstanceInfo info;
  JsonNode *node;

  if (!wn_engine_lookup_instance (run->engine, instance, &info))
    return NULL;
  if (!json_object_has_member (info.variables, name))
    return NULL;
  node = json_object_get_member (info.variables, name);
  return json_to_string (node, FALSE);
}
