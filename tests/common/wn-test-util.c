/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "wn-test-util.h"

#include <stdlib.h>

char *
wn_test_source_path (const char *relative)
{
  const char *srcdir = g_getenv ("G_TEST_SRCDIR");

  /* G_TEST_SRCDIR points at tests/ */
  return g_build_filename (srcdir ? srcdir : ".", relative, NULL);
}

JsonNode *
wn_test_json (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

void
wn_test_require_display (const char *test_name)
{
  if (g_getenv ("DISPLAY") != NULL || g_getenv ("WAYLAND_DISPLAY") != NULL)
    return;
  g_printerr ("%s: no display (neither DISPLAY nor WAYLAND_DISPLAY set): skipped\n", test_name);
  exit (77);
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
  g_ptr_array_add (data, wn_event_copy (event));
}

GPtrArray *
wn_test_record (WnEngine *engine)
{
  GPtrArray *events = g_ptr_array_new_with_free_func ((GDestroyNotify) wn_event_free);

  wn_journal_subscribe (wn_engine_get_journal (engine), record_cb, events, NULL);
  return events;
}

GString *
wn_test_journal_of (GPtrArray *events)
{
  GString *journal = g_string_new (NULL);

  for (guint i = 0; i < events->len; i++)
    wn_event_append_json (g_ptr_array_index (events, i), journal);
  return journal;
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
  run->events = wn_test_record (run->engine);
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

/* What a simulated worker may still journal about a job after its terminal
 * outcome: a stale holder finishing its own execution and being refused. */
static gboolean
is_stale_worker_phase (WnEventPhase phase)
{
  return phase == WN_PH_REPORT_REJECTED || phase == WN_PH_MAPPER_ERROR ||
         phase == WN_PH_WORKER_RETRY_SCHEDULED || phase == WN_PH_RETRIES_EXHAUSTED;
}

static void G_GNUC_NORETURN G_GNUC_PRINTF (2, 3)
invariant_failed (const WnEvent *ev,
                  const char    *format,
                  ...)
{
  g_autoptr(GString) line = g_string_new (NULL);
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  if (ev != NULL)
    wn_event_append_json (ev, line);
  g_error ("journal invariant broken: %s%s%s", message, ev != NULL ? "\n  at: " : "", line->str);
}

/* A job's lock as the journal tells it. */
typedef struct {
  const char *holder;       /* NULL: unlocked */
  WnTime      deadline;
  WnTime      gate;         /* not_before of the last re-arm */
  guint       executions;
  gboolean    reclaimed;    /* lockReclaimed seen, job.locked expected */
} JobLock;

/* The dispatcher's contract, event by event: a gated job is not locked before
 * its gate; a lock is taken over only once it expired, and the takeover is
 * journaled; executions, re-arms, in-process retries and terminal outcomes come
 * from the holder of an unexpired lock; execution numbers count up by one; an
 * in-process retry waits strictly inside the lock. */
static void
check_lock (GHashTable    *locks,
            const WnEvent *ev,
            gboolean       terminal)
{
  JobLock *lock = g_hash_table_lookup (locks, ev->job);
  gboolean holds;

  if (lock == NULL)
    {
      lock = g_new0 (JobLock, 1);
      g_hash_table_insert (locks, (gpointer) ev->job, lock);
    }
  holds = lock->holder != NULL && g_strcmp0 (lock->holder, ev->worker) == 0 && ev->t_us <= lock->deadline;

  switch (ev->phase)
    {
    case WN_PH_LOCK_RECLAIMED:
      if (lock->holder == NULL || g_strcmp0 (lock->holder, ev->worker) != 0 || ev->t_us <= lock->deadline)
        invariant_failed (ev, "job %s reclaimed from %s, which holds no expired lock", ev->job, ev->worker);
      lock->reclaimed = TRUE;
      break;

    case WN_PH_LOCKED:
      if (ev->t_us < lock->gate)
        invariant_failed (ev, "job %s locked before its gate", ev->job);
      if (lock->holder != NULL && ev->t_us <= lock->deadline)
        invariant_failed (ev, "job %s locked while %s holds a valid lock", ev->job, lock->holder);
      if (lock->holder != NULL && !lock->reclaimed)
        invariant_failed (ev, "job %s taken over from %s without job.lockReclaimed", ev->job, lock->holder);
      if (ev->attempt != lock->executions + 1)
        invariant_failed (ev, "job %s locked for execution %u after %u", ev->job, ev->attempt, lock->executions);
      lock->holder = ev->worker;
      lock->deadline = ev->deadline_us;
      lock->gate = 0;
      lock->reclaimed = FALSE;
      break;

    case WN_PH_EXECUTING:
      if (!holds)
        invariant_failed (ev, "job %s executed by %s without a valid lock", ev->job, ev->worker);
      if (ev->attempt != ++lock->executions)
        invariant_failed (ev, "job %s execution %u is not number %u", ev->job, ev->attempt, lock->executions);
      break;

    case WN_PH_LOCK_EXTENDED:
      if (!holds)
        invariant_failed (ev, "job %s extended by %s without a valid lock", ev->job, ev->worker);
      lock->deadline = ev->deadline_us;
      break;

    case WN_PH_UNLOCKED:
      if (lock->holder == NULL || g_strcmp0 (lock->holder, ev->worker) != 0)
        invariant_failed (ev, "job %s unlocked from %s, which holds no lock", ev->job, ev->worker);
      lock->holder = NULL;
      break;

    case WN_PH_WORKER_REARMED:
    case WN_PH_RETRY_SCHEDULED:
      if (!holds)
        invariant_failed (ev, "job %s re-armed on a report from %s without a valid lock", ev->job, ev->worker);
      lock->holder = NULL;
      lock->gate = ev->not_before_us;
      break;

    case WN_PH_WORKER_RETRY_SCHEDULED:
      if (!holds || ev->not_before_us >= lock->deadline)
        invariant_failed (ev, "job %s retried in-process by %s outside its lock", ev->job, ev->worker);
      break;

    default:
      if (terminal)
        {
          if (!holds)
            invariant_failed (ev, "job %s got a terminal outcome from %s without a valid lock", ev->job, ev->worker);
          lock->holder = NULL;
        }
      break;
    }
}

void
wn_test_check_invariants (WnTestRun *run)
{
  g_autoptr(GHashTable) locks = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autoptr(GHashTable) terminals = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) enqueued_trust = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) job_track = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) parked = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) waiting_on = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) canceled = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) ended = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) job_canceled = g_hash_table_new (g_str_hash, g_str_equal);   /* job → count */
  g_autoptr(GHashTable) canceled_on = g_hash_table_new (g_str_hash, g_str_equal);    /* job → its track's cancel */
  gboolean extended = run->process->extended;
  GHashTableIter iter;
  gpointer key, value;
  guint64 last_seq = 0;
  WnTime last_t = 0;

  for (guint i = 0; i < run->events->len; i++)
    {
      const WnEvent *ev = g_ptr_array_index (run->events, i);

      if (ev->seq <= last_seq)
        invariant_failed (ev, "seq %" G_GUINT64_FORMAT " after %" G_GUINT64_FORMAT, ev->seq, last_seq);
      if (ev->t_us < last_t)
        invariant_failed (ev, "virtual time went back from %" G_GINT64_FORMAT, last_t);
      last_seq = ev->seq;
      last_t = ev->t_us;

      if (ev->kind == WN_EV_JOB)
        {
          gboolean done = ev->job != NULL && (g_hash_table_contains (terminals, ev->job) ||
                                              g_hash_table_contains (job_canceled, ev->job));
          WnTrust trust = ev->job != NULL
            ? GPOINTER_TO_INT (g_hash_table_lookup (enqueued_trust, ev->job)) : WN_TRUST_UNSET;

          if (ev->phase == WN_PH_ENQUEUED && ev->job != NULL)
            g_hash_table_insert (enqueued_trust, (gpointer) ev->job, GINT_TO_POINTER (ev->trust));
          if (done && !(ev->worker != NULL && is_stale_worker_phase (ev->phase)))
            invariant_failed (ev, "job %s journals %s after its terminal outcome", ev->job,
                              wn_event_phase_to_string (ev->phase));
          if (ev->phase == WN_PH_CANCELED)
            {
              /* a job leaves on a cancellation once (a second one, or one after its
               * terminal, is caught above), and only from its canceled track (below) */
              if (!extended)
                invariant_failed (ev, "job.canceled in a v1 journal");
              g_hash_table_insert (job_canceled, (gpointer) ev->job, GUINT_TO_POINTER (1));
              continue;
            }
          if (!done && ev->job != NULL && !is_stale_worker_phase (ev->phase))
            check_lock (locks, ev, is_terminal (ev->phase));
          if (is_terminal (ev->phase))
            g_hash_table_insert (terminals, (gpointer) ev->job,
                                 GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (terminals, ev->job)) + 1));
          /* retry ownership: the trust the job was enqueued with, and the one it reports */
          if (ev->phase == WN_PH_RETRY_SCHEDULED &&
              (ev->trust != WN_TRUST_ENGINE_AUTHORITATIVE || trust == WN_TRUST_WORKER_TRUSTED))
            invariant_failed (ev, "a workerTrusted job was re-armed by the dispatcher");
          if ((ev->phase == WN_PH_WORKER_RETRY_SCHEDULED || ev->phase == WN_PH_WORKER_REARMED) &&
              (ev->trust != WN_TRUST_WORKER_TRUSTED || trust == WN_TRUST_ENGINE_AUTHORITATIVE))
            invariant_failed (ev, "an engineAuthoritative job was retried by its worker");
          if (ev->trust != WN_TRUST_UNSET && trust != WN_TRUST_UNSET && ev->trust != trust)
            invariant_failed (ev, "job %s changed trust after enqueue", ev->job);
        }
      else if (ev->track != NULL)
        {
          const char *job = g_hash_table_lookup (waiting_on, ev->track);

          if (ev->instance != NULL && g_hash_table_contains (ended, ev->instance))
            invariant_failed (ev, "track %s moves after its instance ended", ev->track);
          /* a parked track wakes only on its job's terminal outcome (or is canceled);
           * a timer boundary firing on its host does not wake it */
          if (job != NULL && ev->kind != WN_EV_TIMER)
            {
              gboolean cancel = ev->kind == WN_EV_NODE && ev->phase == WN_PH_CANCELED;

              if (!cancel && !g_hash_table_contains (terminals, job))
                invariant_failed (ev, "track %s woke before job %s delivered a terminal outcome",
                                  ev->track, job);
              /* no job outlives its canceled track: it delivered, or it was canceled just before */
              if (cancel && !g_hash_table_contains (terminals, job))
                {
                  if (extended && !g_hash_table_contains (job_canceled, job))
                    invariant_failed (ev, "track %s canceled while job %s is still in the dispatcher "
                                      "(no job.canceled)", ev->track, job);
                  g_hash_table_insert (canceled_on, (gpointer) job, (gpointer) ev->track);
                }
              g_hash_table_remove (waiting_on, ev->track);
            }
          if (ev->kind != WN_EV_NODE)
            continue;
          if (ev->phase == WN_PH_ENTERED)
            g_hash_table_remove (parked, ev->track);
          else if (ev->phase == WN_PH_PARKED)
            {
              /* parks once per visit */
              if (g_hash_table_contains (parked, ev->track))
                invariant_failed (ev, "track %s parked twice on one visit", ev->track);
              g_hash_table_add (parked, (gpointer) ev->track);
              if (ev->job != NULL)
                {
                  if (!g_hash_table_contains (enqueued_trust, ev->job) || g_hash_table_contains (job_track, ev->job))
                    invariant_failed (ev, "track %s parked on job %s that was not just enqueued",
                                      ev->track, ev->job);
                  g_hash_table_insert (job_track, (gpointer) ev->job, (gpointer) ev->track);
                  g_hash_table_insert (waiting_on, (gpointer) ev->track, (gpointer) ev->job);
                }
            }
          else if (ev->phase == WN_PH_CANCELED)
            g_hash_table_add (canceled, (gpointer) ev->track);
        }
      else if (ev->kind == WN_EV_INSTANCE && ev->instance != NULL)
        {
          if (g_hash_table_contains (ended, ev->instance))
            invariant_failed (ev, "instance %s journals %s after it ended", ev->instance,
                              wn_event_phase_to_string (ev->phase));
          if (ev->phase == WN_PH_COMPLETED || ev->phase == WN_PH_TERMINATED)
            g_hash_table_add (ended, (gpointer) ev->instance);
        }
    }

  /* every job a track parked on: exactly one terminal outcome, or still in the
   * store, or its track was canceled */
  g_hash_table_iter_init (&iter, job_track);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (terminals, key));
      WnJobInfo info;

      if (n > 1)
        invariant_failed (NULL, "job %s has %u terminal outcomes", (char *) key, n);
      if (n == 0 && !g_hash_table_contains (canceled, value) && !g_hash_table_contains (job_canceled, key) &&
          !wn_dispatcher_lookup (wn_engine_get_dispatcher (run->engine), key, &info))
        invariant_failed (NULL, "job %s left the store without a terminal outcome", (char *) key);
      if (g_hash_table_contains (canceled_on, key) &&
          wn_dispatcher_lookup (wn_engine_get_dispatcher (run->engine), key, &info))
        invariant_failed (NULL, "job %s outlives its canceled track", (char *) key);
      if (n > 0 && g_hash_table_contains (job_canceled, key))
        invariant_failed (NULL, "job %s has a terminal outcome and was canceled", (char *) key);
    }
  /* every job.canceled is of a job whose track was canceled (one leaving event each) */
  g_hash_table_iter_init (&iter, job_canceled);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (!g_hash_table_contains (canceled_on, key))
      invariant_failed (NULL, "job %s canceled but its track was not", (char *) key);
  /* and every job enqueued was parked on */
  g_hash_table_iter_init (&iter, enqueued_trust);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (!g_hash_table_contains (job_track, key))
      invariant_failed (NULL, "job %s was enqueued but no track parked on it", (char *) key);
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
