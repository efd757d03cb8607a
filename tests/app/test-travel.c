/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The session's time travel (winnow-session-travel.c): what the views read —
 * the journal, every row of the three tables with all its properties, the
 * diagram's counts, the open incidents, every job's trace — is the same
 * after stepping back and forward again as it was, and a past point reached
 * by a rerun reads as the live run read there. No display. */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "winnow.h"
#include "winnow-session.h"

static void
append_object (GString *out,
               GObject *object)
{
  guint n = 0;
  g_autofree GParamSpec **specs = g_object_class_list_properties (G_OBJECT_GET_CLASS (object), &n);

  for (guint i = 0; i < n; i++)
    {
      g_auto(GValue) value = G_VALUE_INIT;
      g_autofree char *text = NULL;

      if (!(specs[i]->flags & G_PARAM_READABLE))
        continue;
      g_value_init (&value, specs[i]->value_type);
      g_object_get_property (object, specs[i]->name, &value);
      /* objects by address say nothing about the state */
      if (G_VALUE_HOLDS_OBJECT (&value) || G_VALUE_HOLDS_POINTER (&value) || G_VALUE_HOLDS_BOXED (&value))
        continue;
      text = g_strdup_value_contents (&value);
      g_string_append_printf (out, " %s=%s", specs[i]->name, text);
    }
  g_string_append_c (out, '\n');
}

static void
append_model (GString    *out,
              const char *name,
              GListModel *model)
{
  guint n = g_list_model_get_n_items (model);

  g_string_append_printf (out, "%s: %u\n", name, n);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);

      append_object (out, item);
    }
}

/* A job's whole history, as the timeline and the inspector read it. */
static void
append_job_trace (GString              *out,
                  const WinnowJobTrace *job)
{
  g_string_append_printf (out, "lane %s: %s %s trust %d, enqueued %" G_GINT64_FORMAT ", ended %" G_GINT64_FORMAT
                          ", end %d %s, class %d %s %s, policy %d, v%u\n",
                          job->id, job->node, job->topic, job->trust, job->enqueued_at, job->ended_at, job->end,
                          job->end_text ? job->end_text : "-", job->class_seen, job->class_code ? job->class_code : "-",
                          job->class_text ? job->class_text : "-", job->policy ? (int) job->policy->trust : -1,
                          job->version);
  for (guint i = 0; i < job->executions->len; i++)
    {
      const WinnowExecution *e = &g_array_index (job->executions, WinnowExecution, i);

      g_string_append_printf (out, "  execution %" G_GINT64_FORMAT "–%" G_GINT64_FORMAT " #%u %s %d %s %s"
                              " backoff %" G_GINT64_FORMAT " gate %" G_GINT64_FORMAT " %d %d\n",
                              e->start, e->end, e->attempt, e->worker ? e->worker : "-", e->outcome,
                              e->code ? e->code : "-", e->detail ? e->detail : "-", e->backoff, e->gate,
                              e->mapper_error, e->in_worker);
    }
  for (guint i = 0; i < job->gates->len + job->locks->len; i++)
    {
      gboolean gate = i < job->gates->len;
      const WinnowSpan *span = gate ? &g_array_index (job->gates, WinnowSpan, i)
                                    : &g_array_index (job->locks, WinnowSpan, i - job->gates->len);

      g_string_append_printf (out, "  %s %" G_GINT64_FORMAT "–%" G_GINT64_FORMAT " deadline %" G_GINT64_FORMAT
                              " %s %d %d\n", gate ? "gate" : "lock", span->start, span->end, span->deadline,
                              span->worker ? span->worker : "-", span->open, span->in_worker);
    }
  for (guint i = 0; i < job->marks->len; i++)
    {
      const WinnowMark *m = &g_array_index (job->marks, WinnowMark, i);

      g_string_append_printf (out, "  mark %" G_GINT64_FORMAT " %d of %u: %s\n", m->t, m->kind, m->execution,
                              m->text ? m->text : "-");
    }
}

/* Everything the views show, as text. */
static char *
view_text (WinnowSession *session)
{
  GString *out = g_string_new (NULL);
  WnProcess *process = winnow_session_get_process (session);
  g_autofree char *journal = NULL;
  GPtrArray *incidents;
  WinnowTrace *trace = winnow_session_get_trace (session);

  winnow_session_flush (session);
  journal = winnow_session_get_journal_text (session, NULL);
  /* the flush may have swapped the array */
  incidents = winnow_session_get_incidents (session);
  g_string_append_printf (out, "now %" G_GINT64_FORMAT " next %" G_GINT64_FORMAT " trace end %" G_GINT64_FORMAT
                          ", %u jobs\n", winnow_session_get_now (session), winnow_session_get_next_time (session),
                          winnow_trace_get_end (trace), winnow_trace_get_n_jobs (trace));
  g_string_append (out, journal);
  append_model (out, "events", winnow_session_get_events (session));
  append_model (out, "jobs", winnow_session_get_jobs (session));
  append_model (out, "tracks", winnow_session_get_tracks (session));
  append_model (out, "instances", winnow_session_get_instances (session));
  for (guint i = 0; i < process->n_nodes; i++)
    {
      WinnowNodeCounts c = winnow_session_get_node_counts (session, process->nodes[i].id);

      g_string_append_printf (out, "%s %u %u %u\n", process->nodes[i].id, c.active, c.parked, c.incident);
    }
  for (guint i = 0; i < incidents->len; i++)
    {
      const WinnowIncident *incident = g_ptr_array_index (incidents, i);

      g_string_append_printf (out, "incident %s %s %s\n", incident->track, incident->node, incident->error);
    }
  {
    guint n_lanes = 0;
    const WinnowLane *lanes = winnow_trace_get_lanes (trace, &n_lanes);

    for (guint i = 0; i < n_lanes; i++)
      if (lanes[i].job != NULL)
        append_job_trace (out, lanes[i].job);
      else
        g_string_append_printf (out, "lane %s: created %" G_GINT64_FORMAT ", ended %" G_GINT64_FORMAT ", %s\n",
                                lanes[i].instance->id, lanes[i].instance->created_at,
                                lanes[i].instance->ended_at, lanes[i].instance->terminated ? "terminated" : "-");
  }
  return g_string_free (out, FALSE);
}

/* Fail naming the first line where two views part. */
static void
assert_same_view (const char *what,
                  guint       where,
                  const char *a,
                  const char *b)
{
  g_auto(GStrv) la = g_strsplit (a, "\n", -1);
  g_auto(GStrv) lb = g_strsplit (b, "\n", -1);

  for (guint i = 0; la[i] != NULL || lb[i] != NULL; i++)
    if (la[i] == NULL || lb[i] == NULL || strcmp (la[i], lb[i]) != 0)
      g_error ("%s %u: line %u: “%s” against “%s”", what, where, i + 1,
               la[i] ? la[i] : "(end)", lb[i] ? lb[i] : "(end)");
}

/* One step, run to its end: a step runs in slices of wall-clock time
 * (winnow-session-step.c), so on a loaded machine winnow_session_step_next()
 * can return with the rest of the instant left to an idle; the views read
 * here are the ones a finished step shows, as in the window, whose main loop
 * runs that idle. */
static gboolean
step_next (WinnowSession *session)
{
  gboolean stepped = winnow_session_step_next (session);

  while (winnow_session_is_stepping (session))
    g_main_context_iteration (NULL, TRUE);
  return stepped;
}

static WinnowSession *
load (const char *example)
{
  g_autofree char *path = g_build_filename (EXAMPLES_DIR, example, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  WinnowSession *session = winnow_session_new ();

  g_assert_true (winnow_session_load_file (session, file, NULL, NULL, &error));
  g_assert_no_error (error);
  return session;
}

static void
count_cb (WinnowSession *session,
          int            alert,
          guint          count,
          gpointer       row,
          guint         *alerts)
{
  (*alerts)++;
}

/* Step through a run as a user does, then back to its start and forward to
 * its end again: every point reads the same both ways. */
static void
check_back_and_forth (const char *example)
{
  g_autoptr(WinnowSession) session = load (example);
  g_autoptr(GPtrArray) views = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *end = NULL;
  g_autofree char *again = NULL;
  guint alerts = 0;
  guint steps = 0;

  while (step_next (session))
    g_assert_cmpuint (steps++, <, 10000);
  winnow_session_flush (session);
  end = view_text (session);
  g_assert_false (winnow_session_is_in_past (session));
  g_signal_connect (session, "alert", G_CALLBACK (count_cb), &alerts);

  /* back, one step at a time, to the first */
  g_ptr_array_add (views, view_text (session));
  while (winnow_session_step_back (session))
    {
      g_assert_true (winnow_session_is_in_past (session));
      g_ptr_array_add (views, view_text (session));
      g_assert_cmpuint (views->len, <, 10000);
    }
  g_assert_cmpuint (views->len, >, steps);
  /* the past's terminations and incidents were said when they happened */
  g_assert_cmpuint (alerts, ==, 0);

  /* and forward again through the same points */
  for (guint i = views->len - 1; i > 0; i--)
    {
      g_autofree char *view = NULL;

      g_assert_true (step_next (session));
      view = view_text (session);
      assert_same_view ("forward again, point", i - 1, view, g_ptr_array_index (views, i - 1));
    }
  again = view_text (session);
  assert_same_view ("the end again", 0, again, end);
  g_assert_false (winnow_session_is_in_past (session));
  g_assert_cmpuint (winnow_session_get_travel_end (session), ==,
                    wn_journal_get_n_events (wn_engine_get_journal (winnow_session_get_engine (session))));
}

static void
test_back_and_forth (void)
{
  check_back_and_forth ("order-fulfilment.process.json");
  check_back_and_forth ("incident-on-exhaustion.process.json");
  check_back_and_forth ("parallel-branch-failure.process.json");
}

/* A point of the past, reached by a rerun, reads as the live run read when
 * it stood there (stopped by a breakpoint on that very event). */
static void
test_past_reads_as_live (void)
{
  g_autoptr(WinnowSession) live = load ("order-fulfilment.process.json");
  g_autoptr(WinnowSession) later = load ("order-fulfilment.process.json");
  g_autofree char *then = NULL;
  g_autofree char *now = NULL;
  guint64 seq;

  /* live: stopped right after the third job.retryScheduled's step */
  for (int i = 0; i < 3; i++)
    g_assert_true (winnow_session_run_to_event (live, WN_EV_JOB, WN_PH_WORKER_RETRY_SCHEDULED, NULL));
  seq = wn_journal_get_n_events (wn_engine_get_journal (winnow_session_get_engine (live)));
  then = view_text (live);

  /* the same run played to its end, then taken back to that event */
  for (int i = 0; i < 3; i++)
    g_assert_true (winnow_session_run_to_event (later, WN_EV_JOB, WN_PH_WORKER_RETRY_SCHEDULED, NULL));
  while (step_next (later))
    ;
  g_assert_true (winnow_session_go_to_event (later, seq));
  g_assert_true (winnow_session_is_in_past (later));
  now = view_text (later);
  assert_same_view ("the past", 0, now, then);

  /* an instant: everything due by then has run, the clock stands there */
  winnow_session_go_to_time (later, 350 * WN_USEC_PER_MSEC);
  g_assert_cmpint (winnow_session_get_now (later), ==, 350 * WN_USEC_PER_MSEC);
  g_assert_true (winnow_session_is_in_past (later));
  g_assert_cmpuint (winnow_session_get_travel_end (later), >, seq);
}

/* A command given in the past starts a branch: the old future is kept as
 * the parent, the two share the journal up to the fork, switching brings
 * each back as it was, and a comparison shows both outcomes and where the
 * journals part; Save Session saves the current one. */
static void
test_command_in_the_past (void)
{
  g_autoptr(WinnowSession) session = load ("order-fulfilment.process.json");
  g_autoptr(WnResponse) crash = wn_response_new_crash ();
  g_autoptr(GError) error = NULL;
  g_autofree char *saved = NULL;
  g_autofree char *parent_end = NULL;
  g_autofree char *child_end = NULL;
  g_autofree char *parent_journal = NULL;
  g_autofree char *child_journal = NULL;
  g_autofree char *again = NULL;
  g_autofree char *comparison = NULL;
  const WinnowBranch *child;
  guint64 fork;

  while (step_next (session))
    ;
  parent_end = view_text (session);
  parent_journal = winnow_session_get_journal_text (session, NULL);
  g_assert_cmpuint (winnow_session_get_n_branches (session), ==, 0);
  for (int i = 0; i < 12; i++)
    g_assert_true (winnow_session_step_back (session));
  g_assert_true (winnow_session_is_in_past (session));
  fork = wn_journal_get_n_events (wn_engine_get_journal (winnow_session_get_engine (session)));
  g_assert_true (winnow_session_inject (session, NULL, "inventory", crash, &error));
  g_assert_no_error (error);
  g_assert_false (winnow_session_is_in_past (session));
  winnow_session_flush (session);
  g_assert_cmpuint (winnow_session_get_n_branches (session), ==, 2);
  g_assert_cmpuint (winnow_session_get_current_branch (session), ==, 1);
  child = winnow_session_get_branch (session, 1);
  g_assert_cmpuint (child->parent, ==, 0);
  g_assert_cmpuint (child->fork, ==, fork);
  g_assert_cmpuint (winnow_session_get_branch (session, 0)->parent, ==, G_MAXUINT);
  saved = winnow_session_export_session (session);
  g_assert_nonnull (strstr (saved, "\"crash\""));

  /* the new branch runs on to its own end */
  while (step_next (session))
    ;
  child_end = view_text (session);
  child_journal = winnow_session_get_journal_text (session, NULL);
  g_assert_cmpstr (child_end, !=, parent_end);
  /* up to the fork the branch's journal is its parent's */
  {
    const char *a = parent_journal, *b = child_journal;

    for (guint64 i = 0; i < fork; i++)
      {
        const char *na = strchr (a, '\n');
        const char *nb = strchr (b, '\n');

        g_assert_nonnull (na);
        g_assert_nonnull (nb);
        g_assert_cmpint (na - a, ==, nb - b);
        g_assert_cmpint (memcmp (a, b, (size_t) (na - a)), ==, 0);
        a = na + 1;
        b = nb + 1;
      }
    g_assert_cmpint (strncmp (a, b, 40), !=, 0);
  }

  /* switching: each branch as it was */
  g_assert_true (winnow_session_switch_branch (session, 0));
  g_assert_cmpuint (winnow_session_get_current_branch (session), ==, 0);
  again = view_text (session);
  assert_same_view ("the parent again", 0, again, parent_end);
  g_clear_pointer (&again, g_free);
  g_assert_true (winnow_session_switch_branch (session, 1));
  again = view_text (session);
  assert_same_view ("the branch again", 1, again, child_end);

  comparison = winnow_session_compare_branches (session, 0, 1);
  g_assert_nonnull (strstr (comparison, "Branch 1: 3 instances, 3 completed"));
  g_assert_nonnull (strstr (comparison, "Branch 2: "));
  g_assert_nonnull (strstr (comparison, "\"inject\""));
  g_test_message ("%s", comparison);
}

/* Every example stepped to its end (or 400 steps) as a user does, each step's
 * view kept; then, from the end, jumps in a seeded random order — Step Back
 * once or several times, to an event (a journal row), earlier or later, and
 * back to the end — each reading as the live run read after the step it
 * lands after. A travel keeps the models and changes them by what differs
 * between the two points (winnow-session-travel.c): this holds that the
 * result is what a fresh run shows there. */
typedef struct {
  guint64  events;   /* the journal's length after the step */
  char    *view;
} Point;

static void
point_clear (gpointer data)
{
  g_free (((Point *) data)->view);
}

/* The live view after the step that left `events` in the journal, or NULL
 * when no live step ended there (Step Back goes back by the engine's steps:
 * a live step's actions, then its clock event, are two). */
static const char *
live_view (GArray  *points,
           guint64  events)
{
  for (guint i = 0; i < points->len; i++)
    if (g_array_index (points, Point, i).events == events)
      return g_array_index (points, Point, i).view;
  return NULL;
}

static guint64
journal_length (WinnowSession *session)
{
  return wn_journal_get_n_events (wn_engine_get_journal (winnow_session_get_engine (session)));
}

/* The checkpoints made while the main loop is idle: all of them, or (a
 * user who does not wait) only a few slices' worth. */
static void
idle_checkpoints (GRand *rand)
{
  guint turns = g_rand_int_range (rand, 0, 4) == 0 ? (guint) g_rand_int_range (rand, 1, 4) : G_MAXUINT;

  for (guint i = 0; i < turns && g_main_context_iteration (NULL, FALSE); i++)
    ;
}

/* The engines' whole states (winnow.state/1) are the same. */
static void
assert_same_state (const char    *what,
                   guint          where,
                   WinnowSession *a,
                   WinnowSession *b)
{
  g_autofree char *x = wn_engine_dump_state (winnow_session_get_engine (a));
  g_autofree char *y = wn_engine_dump_state (winnow_session_get_engine (b));

  if (strcmp (x, y) != 0)
    g_error ("%s %u: the states part:\n%s\n%s", what, where, x, y);
}

/* Returns how many jumps back ran on from a checkpoint. */
static guint
check_jumps (const char *example,
             GRand      *rand)
{
  g_autoptr(WinnowSession) session = load (example);
  /* the same jumps with models emptied and fed the whole rerun each time */
  g_autoptr(WinnowSession) reference = load (example);
  g_autoptr(GArray) points = g_array_new (FALSE, TRUE, sizeof (Point));
  guint64 end;
  guint compared_live = 0, from_checkpoints = 0;

  winnow_session_set_travel_rebuilds (reference, TRUE);
  /* checkpoints however small the run: a travel runs on from the nearest */
  winnow_session_set_checkpoints (session, 4, 1);
  g_array_set_clear_func (points, point_clear);
  {
    Point start = { 0, view_text (session) };

    g_array_append_val (points, start);
  }
  for (guint i = 0; i < 400 && step_next (session); i++)
    {
      Point p;

      g_assert_true (step_next (reference));
      winnow_session_flush (session);
      p.events = journal_length (session);
      p.view = view_text (session);
      g_array_append_val (points, p);
    }
  if (step_next (reference))
    g_assert_true (step_next (session));
  end = journal_length (session);
  if (points->len < 3)
    return 0;

  for (guint jump = 0; jump < 24; jump++)
    {
      guint how = g_rand_int_range (rand, 0, 5);
      g_autofree char *view = NULL;
      g_autofree char *expected = NULL;
      const char *live;
      guint64 before;

      idle_checkpoints (rand);
      before = journal_length (session);

      if (how == 0)
        {
          guint k = (guint) g_rand_int_range (rand, 1, 4);

          for (guint i = 0; i < k; i++)
            g_assert_cmpint (winnow_session_step_back (session), ==, winnow_session_step_back (reference));
        }
      else if (how == 1)
        {
          /* forward through the record's future, or back to the end */
          g_assert_true (winnow_session_go_to_event (session, end));
          g_assert_true (winnow_session_go_to_event (reference, end));
        }
      else if (how == 2)
        {
          /* a live step's end: the view as it was live */
          guint64 seq = g_array_index (points, Point, g_rand_int_range (rand, 1, (gint32) points->len)).events;

          g_assert_true (winnow_session_go_to_event (session, seq));
          g_assert_true (winnow_session_go_to_event (reference, seq));
        }
      else
        {
          /* any event of the run, earlier or later */
          guint64 seq = (guint64) g_rand_int_range (rand, 1, (gint32) end + 1);

          g_assert_true (winnow_session_go_to_event (session, seq));
          g_assert_true (winnow_session_go_to_event (reference, seq));
        }
      g_assert_cmpuint (journal_length (session), ==, journal_length (reference));
      view = view_text (session);
      expected = view_text (reference);
      assert_same_view (example, jump, view, expected);
      assert_same_state (example, jump, session, reference);
      if (journal_length (session) < before && winnow_session_get_travel_start (session) > 0)
        from_checkpoints++;
      if ((live = live_view (points, journal_length (session))) != NULL &&
          winnow_session_is_in_past (session))
        {
          assert_same_view (example, jump, view, live);
          compared_live++;
        }
    }
  g_test_message ("%s: %u of 24 jumps compared with the live run too, %u back from a checkpoint", example,
                  compared_live, from_checkpoints);
  return from_checkpoints;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static void
test_jumps (void)
{
  const char *seed_text = g_getenv ("WINNOW_TRAVEL_SEED");
  guint32 seed = seed_text != NULL ? (guint32) g_ascii_strtoull (seed_text, NULL, 10) : g_random_int ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr(GDir) dir = g_dir_open (EXAMPLES_DIR, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  guint from_checkpoints = 0;

  /* a failure names the seed: WINNOW_TRAVEL_SEED=… repeats it */
  g_test_message ("WINNOW_TRAVEL_SEED=%u", seed);
  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".process.json"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  g_assert_cmpuint (names->len, >=, 10);
  for (guint i = 0; i < names->len; i++)
    from_checkpoints += check_jumps (g_ptr_array_index (names, i), rand);
  /* the checkpoints served (the rest ran from T+0: nothing stood before) */
  g_assert_cmpuint (from_checkpoints, >, 10);
}

/* A session saved into a temporary file and opened by a new session of the
 * same process, stood at the saved position (the replay runs in slices). */
static WinnowSession *
save_and_reopen (WinnowSession *session,
                 const char    *example,
                 char         **saved)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("winnow-branches-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "saved.scenario.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  WinnowSession *reopened = load (example);

  g_assert_no_error (error);
  *saved = winnow_session_export_session (session);
  g_assert_true (g_file_set_contents (path, *saved, -1, &error));
  g_assert_true (winnow_session_load_scenario (reopened, file, NULL, &error));
  g_assert_no_error (error);
  while (winnow_session_is_stepping (reopened))
    g_main_context_iteration (NULL, TRUE);
  winnow_session_flush (reopened);
  g_unlink (path);
  g_rmdir (dir);
  return reopened;
}

/* Saved with two branches, in the past of the shown one: reopening brings
 * the branch tree back (names, parents, forks, reach, records), shows the
 * same branch at the same point with the same future, and each branch
 * switched to reads as it did before the save. A file without branches
 * (saved before they were kept) opens with none. */
static void
test_saved_branches (void)
{
  g_autoptr(WinnowSession) session = load ("order-fulfilment.process.json");
  g_autoptr(WinnowSession) reopened = NULL;
  g_autoptr(WinnowSession) plain = NULL;
  g_autoptr(WnResponse) crash = wn_response_new_crash ();
  g_autoptr(GError) error = NULL;
  g_autofree char *saved = NULL;
  g_autofree char *plain_saved = NULL;
  g_autofree char *parent_end = NULL;
  g_autofree char *child_end = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  guint64 here;

  while (step_next (session))
    ;
  parent_end = view_text (session);
  for (int i = 0; i < 12; i++)
    g_assert_true (winnow_session_step_back (session));
  g_assert_true (winnow_session_inject (session, NULL, "inventory", crash, &error));
  g_assert_no_error (error);
  while (step_next (session))
    ;
  child_end = view_text (session);
  /* the shown branch, in its own past */
  for (int i = 0; i < 5; i++)
    g_assert_true (winnow_session_step_back (session));
  g_assert_true (winnow_session_is_in_past (session));
  here = journal_length (session);
  before = view_text (session);

  reopened = save_and_reopen (session, "order-fulfilment.process.json", &saved);
  g_assert_nonnull (strstr (saved, "\"branches\""));
  g_assert_cmpuint (winnow_session_get_n_branches (reopened), ==, 2);
  g_assert_cmpuint (winnow_session_get_current_branch (reopened), ==, 1);
  for (guint i = 0; i < 2; i++)
    {
      const WinnowBranch *a = winnow_session_get_branch (session, i);
      const WinnowBranch *b = winnow_session_get_branch (reopened, i);

      g_assert_cmpstr (a->name, ==, b->name);
      g_assert_cmpuint (a->parent, ==, b->parent);
      g_assert_cmpuint (a->fork, ==, b->fork);
      g_assert_cmpuint (a->end, ==, b->end);
      g_assert_cmpuint (a->record->len, ==, b->record->len);
      for (guint k = 0; k < a->record->len; k++)
        {
          g_autoptr(JsonNode) x = wn_command_to_json (g_ptr_array_index (a->record, k));
          g_autoptr(JsonNode) y = wn_command_to_json (g_ptr_array_index (b->record, k));

          g_assert_true (json_node_equal (x, y));
        }
    }
  /* the same point of the same branch, its future kept */
  g_assert_cmpuint (journal_length (reopened), ==, here);
  g_assert_true (winnow_session_is_in_past (reopened));
  after = view_text (reopened);
  assert_same_view ("reopened", 0, after, before);
  g_assert_true (winnow_session_go_to_event (reopened, winnow_session_get_branch (reopened, 1)->end));
  g_clear_pointer (&after, g_free);
  after = view_text (reopened);
  assert_same_view ("the reopened branch's end", 1, after, child_end);
  /* the other branch, as it was */
  g_assert_true (winnow_session_switch_branch (reopened, 0));
  g_clear_pointer (&after, g_free);
  after = view_text (reopened);
  assert_same_view ("the reopened parent", 0, after, parent_end);

  /* no branches: none come back, and the file says none */
  plain = load ("order-fulfilment.process.json");
  g_assert_true (step_next (plain));
  {
    g_autoptr(WinnowSession) again = save_and_reopen (plain, "order-fulfilment.process.json", &plain_saved);

    g_assert_null (strstr (plain_saved, "\"branches\""));
    g_assert_cmpuint (winnow_session_get_n_branches (again), ==, 0);
  }
}

/* `text` as a session file opened over `session`: refused, with the file's
 * name and a line:column in the message, and the run the session had kept
 * as it was (the same engine, the same views). */
static void
assert_refused (WinnowSession *session,
                const char    *what,
                const char    *text,
                gssize         length,
                const char    *expected)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("winnow-hostile-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "edited.scenario.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GRegex) positioned = g_regex_new ("edited\\.scenario\\.json:[0-9]+:[0-9]+: ", 0, 0, NULL);
  WnEngine *engine = winnow_session_get_engine (session);
  g_autofree char *before = view_text (session);
  g_autofree char *after = NULL;

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, text, length, &error));
  if (winnow_session_load_scenario (session, file, NULL, &error))
    g_error ("%s: opened", what);
  g_assert_nonnull (error);
  if (!g_regex_match (positioned, error->message, 0, NULL))
    g_error ("%s: no position in “%s”", what, error->message);
  if (expected != NULL && strstr (error->message, expected) == NULL)
    g_error ("%s: “%s” does not say “%s”", what, error->message, expected);
  g_assert_true (winnow_session_get_engine (session) == engine);
  after = view_text (session);
  assert_same_view (what, 0, after, before);
  g_unlink (path);
  g_rmdir (dir);
}

/* A saved session with branches, cut short anywhere or edited by hand, is
 * refused with a position; the run on screen stays (issue 17, item 17). */
static void
test_hostile_sessions (void)
{
  g_autoptr(WinnowSession) saver = load ("order-fulfilment.process.json");
  g_autoptr(WinnowSession) session = load ("order-fulfilment.process.json");
  g_autoptr(WnResponse) crash = wn_response_new_crash ();
  g_autoptr(GError) error = NULL;
  g_autofree char *saved = NULL;
  gsize length;
  const struct {
    const char *from;
    const char *to;
    const char *says;
  } edits[] = {
    { "\"shown\" : 1", "\"shown\" : 7", "x-winnow.branches.shown" },
    { "\"parent\" : 0", "\"parent\" : 1", "x-winnow.branches.list[1].parent" },
    { "\"parent\" : null", "\"parent\" : 0", "x-winnow.branches.list[0].parent" },
    { "\"fork\" : ", "\"fork\" : -1", "fork" },
    { "\"name\" : \"Branch 2\"", "\"name\" : 2", "x-winnow.branches.list[1].name" },
    { "\"op\" : \"inject\"", "\"op\" : \"explode\"", "unknown command" },
    { "\"list\" : [", "\"list\" : {", NULL },
    { "\"after\" : ", "\"after\" : \"many\", \"x\" : ", "after" },
  };

  while (step_next (saver))
    ;
  for (int i = 0; i < 12; i++)
    g_assert_true (winnow_session_step_back (saver));
  g_assert_true (winnow_session_inject (saver, NULL, "inventory", crash, &error));
  g_assert_no_error (error);
  while (step_next (saver))
    ;
  for (int i = 0; i < 3; i++)
    g_assert_true (winnow_session_step_back (saver));
  saved = winnow_session_export_session (saver);
  length = strlen (saved);
  if (strstr (saved, "\"branches\"") == NULL || strstr (saved, "\"fork\"") == NULL)
    g_error ("no branches saved:\n%s", saved);

  /* the run the file is opened over: some steps in */
  for (int i = 0; i < 6; i++)
    g_assert_true (step_next (session));
  winnow_session_flush (session);

  /* cut short: inside the header, a string, a number, the branches, at
   * the last byte */
  {
    const gsize cuts[] = { 1, 9, length / 7, length / 3, length / 2,
                           (gsize) (strstr (saved, "\"branches\"") - saved) + 5,
                           (gsize) (strstr (saved, "\"fork\"") - saved) + 10,
                           length * 9 / 10, length - 2 };

    for (guint i = 0; i < G_N_ELEMENTS (cuts); i++)
      {
        g_autofree char *what = g_strdup_printf ("cut at byte %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT,
                                                 cuts[i], length);

        assert_refused (session, what, saved, (gssize) cuts[i], NULL);
      }
  }
  /* edited by hand */
  for (guint i = 0; i < G_N_ELEMENTS (edits); i++)
    {
      const char *at = strstr (saved, edits[i].from);
      g_autofree char *edited = NULL;

      if (at == NULL)
        g_error ("the saved session has no “%s”:\n%s", edits[i].from, saved);
      edited = g_strdup_printf ("%.*s%s%s", (int) (at - saved), saved, edits[i].to, at + strlen (edits[i].from));
      assert_refused (session, edits[i].to, edited, -1, edits[i].says);
    }
  /* and the file as saved opens */
  {
    g_autofree char *again = NULL;
    g_autoptr(WinnowSession) reopened = save_and_reopen (saver, "order-fulfilment.process.json", &again);

    g_assert_cmpuint (winnow_session_get_n_branches (reopened), ==, 2);
  }
}

/* A session of the bench's fail-twice with `instances`, played to its end. */
static WinnowSession *
load_played (guint instances)
{
  g_autofree char *path = g_build_filename (BENCH_DATA_DIR, "fail-twice.process.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  WinnowSession *session = winnow_session_new ();
  g_autoptr(GError) error = NULL;
  WnEngineOptions options = { 0 };

  options.instances = instances;
  g_assert_true (winnow_session_load_file (session, file, &options, NULL, &error));
  g_assert_no_error (error);
  wn_scheduler_run_until (wn_engine_get_scheduler (winnow_session_get_engine (session)), WN_TIME_NEVER);
  winnow_session_flush (session);
  return session;
}

static void
fill_checkpoints (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* Both read the same: every view, the engine's state, the breakpoints' hits. */
static void
assert_same_sessions (const char    *what,
                      WinnowSession *a,
                      WinnowSession *b)
{
  g_autofree char *x = view_text (a);
  g_autofree char *y = view_text (b);
  GListModel *ba = winnow_session_get_breakpoints (a);
  GListModel *bb = winnow_session_get_breakpoints (b);

  g_assert_cmpuint (journal_length (a), ==, journal_length (b));
  assert_same_view (what, 0, x, y);
  assert_same_state (what, 0, a, b);
  g_assert_cmpuint (g_list_model_get_n_items (ba), ==, g_list_model_get_n_items (bb));
  for (guint i = 0; i < g_list_model_get_n_items (ba); i++)
    {
      g_autoptr(WnBreakpointItem) p = g_list_model_get_item (ba, i);
      g_autoptr(WnBreakpointItem) q = g_list_model_get_item (bb, i);

      g_assert_cmpuint (wn_breakpoint_item_get_hits (p), ==, wn_breakpoint_item_get_hits (q));
    }
}

/* Scrubs served from checkpoints read as scrubs rerun from T+0 (the
 * reference empties its models and feeds them the whole rerun); a
 * checkpoint whose breakpoints or record no longer are the run's is not
 * used, and the pool is made again for them. */
static void
test_checkpoints (void)
{
  g_autoptr(WinnowSession) session = load_played (200);
  g_autoptr(WinnowSession) reference = load_played (200);
  g_autoptr(WnResponse) crash = wn_response_new_crash ();
  g_autoptr(GError) error = NULL;
  guint64 end = journal_length (session), fork;
  guint64 targets[] = { end * 9 / 10, end / 2, end / 3, end / 4 };

  winnow_session_set_travel_rebuilds (reference, TRUE);
  winnow_session_set_checkpoints (session, 4, 100);
  fill_checkpoints ();
  g_assert_cmpuint (winnow_session_get_n_checkpoints (session), ==, 4);

  /* back and forth, each from the nearest checkpoint before it */
  for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
    {
      g_assert_true (winnow_session_go_to_event (session, targets[i]));
      g_assert_true (winnow_session_go_to_event (reference, targets[i]));
      g_assert_cmpuint (winnow_session_get_travel_start (session), >, 0);
      g_assert_cmpuint (winnow_session_get_travel_start (session), <, targets[i]);
      assert_same_sessions ("a scrub from a checkpoint", session, reference);
      fill_checkpoints ();
    }
  g_assert_true (winnow_session_go_to_event (session, end));
  g_assert_true (winnow_session_go_to_event (reference, end));
  fill_checkpoints ();
  g_assert_true (winnow_session_step_back (session));
  g_assert_true (winnow_session_step_back (reference));
  g_assert_cmpuint (winnow_session_get_travel_start (session), >, end / 2);
  assert_same_sessions ("Step Back from a checkpoint", session, reference);
  winnow_session_go_to_time (session, winnow_session_get_now (session) / 2);
  winnow_session_go_to_time (reference, winnow_session_get_now (reference) / 2);
  g_assert_cmpuint (winnow_session_get_travel_start (session), >, 0);
  assert_same_sessions ("an instant from a checkpoint", session, reference);

  /* a new breakpoint: no checkpoint counted its hits, none serves … */
  g_assert_true (winnow_session_go_to_event (session, end));
  g_assert_true (winnow_session_go_to_event (reference, end));
  fill_checkpoints ();
  g_assert_cmpuint (winnow_session_add_breakpoint (session, WN_EV_JOB, WN_PH_WORKER_RETRY_SCHEDULED, NULL), >, 0);
  g_assert_cmpuint (winnow_session_add_breakpoint (reference, WN_EV_JOB, WN_PH_WORKER_RETRY_SCHEDULED, NULL), >, 0);
  g_assert_true (winnow_session_go_to_event (session, end / 2));
  g_assert_true (winnow_session_go_to_event (reference, end / 2));
  g_assert_cmpuint (winnow_session_get_travel_start (session), ==, 0);
  assert_same_sessions ("a scrub with a new breakpoint", session, reference);
  /* … until they are made again with it */
  fill_checkpoints ();
  g_assert_true (winnow_session_go_to_event (session, end / 3));
  g_assert_true (winnow_session_go_to_event (reference, end / 3));
  g_assert_cmpuint (winnow_session_get_travel_start (session), >, 0);
  assert_same_sessions ("a scrub from a checkpoint with the breakpoint", session, reference);

  /* a command in the past: the checkpoints after it were of the old future */
  fork = journal_length (session);
  g_assert_true (winnow_session_inject (session, NULL, "flaky", crash, &error));
  g_assert_no_error (error);
  g_assert_true (winnow_session_inject (reference, NULL, "flaky", crash, &error));
  g_assert_no_error (error);
  for (int i = 0; i < 40; i++)
    {
      g_assert_cmpint (step_next (session), ==, step_next (reference));
      fill_checkpoints ();
    }
  g_assert_true (winnow_session_go_to_event (session, fork + 30));
  g_assert_true (winnow_session_go_to_event (reference, fork + 30));
  g_assert_cmpuint (winnow_session_get_travel_start (session), <=, fork);
  assert_same_sessions ("a scrub after a fork", session, reference);
}

/* WINNOW_TRAVEL_MEASURE=INSTANCES: what Step Back costs the session (rerun
 * and models) at the end of a fast-forwarded run of the bench's fail-twice
 * process (17 events an instance), printed, not judged (docs/performance.md). */
static void
test_measure (void)
{
  const char *text = g_getenv ("WINNOW_TRAVEL_MEASURE");
  g_autofree char *path = g_build_filename (BENCH_DATA_DIR, "fail-twice.process.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(WinnowSession) session = winnow_session_new ();
  g_autoptr(GError) error = NULL;
  WnEngineOptions options = { 0 };
  WnScheduler *scheduler;

  if (text == NULL)
    {
      g_test_skip ("set WINNOW_TRAVEL_MEASURE=INSTANCES to measure");
      return;
    }
  options.instances = (guint) g_ascii_strtoull (text, NULL, 10);
  g_assert_true (winnow_session_load_file (session, file, &options, NULL, &error));
  g_assert_no_error (error);
  scheduler = wn_engine_get_scheduler (winnow_session_get_engine (session));
  wn_scheduler_run_until (scheduler, WN_TIME_NEVER);
  winnow_session_flush (session);
  for (int i = 0; i < 3; i++)
    {
      g_assert_true (winnow_session_step_back (session));
      g_test_message ("%u instances, %" G_GUINT64_FORMAT " events: Step Back took %.1f ms",
                      options.instances, winnow_session_get_travel_end (session),
                      winnow_session_get_travel_cost (session) / 1000.0);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/Travel/back-and-forth", test_back_and_forth);
  g_test_add_func ("/app/Travel/past-reads-as-live", test_past_reads_as_live);
  g_test_add_func ("/app/Travel/jumps", test_jumps);
  g_test_add_func ("/app/Travel/command-in-the-past", test_command_in_the_past);
  g_test_add_func ("/app/Travel/saved-branches", test_saved_branches);
  g_test_add_func ("/app/Travel/hostile-sessions", test_hostile_sessions);
  g_test_add_func ("/app/Travel/checkpoints", test_checkpoints);
  g_test_add_func ("/app/Travel/measure", test_measure);
  return g_test_run ();
}
