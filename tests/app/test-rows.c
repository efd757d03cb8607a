/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The table rows (winnow-job-row.h, winnow-track-row.h, winnow-instance-row.h):
 * what a live table's display row shows after it takes on a source row, and
 * what it says. assign: every property equals the source's; when anything
 * shown differs every property notifies once, else none does (the clock alone
 * is copied silently). update: only the changed properties notify. No display. */
#include "config.h"

#include <glib-object.h>

#include "winnow.h"
#include "winnow-instance-row.h"
#include "winnow-job-row.h"
#include "winnow-track-row.h"

/* Which properties notified, and how often. */
typedef struct {
  GHashTable *counts;   /* name → times */
  guint       total;
} Heard;

static void
notify_cb (GObject    *object,
           GParamSpec *pspec,
           Heard      *heard)
{
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (heard->counts, pspec->name));

  g_hash_table_insert (heard->counts, (gpointer) pspec->name, GUINT_TO_POINTER (n + 1));
  heard->total++;
}

static void
heard_init (Heard   *heard,
            gpointer row)
{
  heard->counts = g_hash_table_new (g_str_hash, g_str_equal);
  heard->total = 0;
  g_signal_connect (row, "notify", G_CALLBACK (notify_cb), heard);
}

static void
heard_reset (Heard *heard)
{
  g_hash_table_remove_all (heard->counts);
  heard->total = 0;
}

static void
heard_clear (Heard   *heard,
             gpointer row)
{
  g_signal_handlers_disconnect_by_data (row, heard);
  g_hash_table_unref (heard->counts);
}

/* Every property notified, each exactly once. */
static void
assert_heard_all (Heard   *heard,
                  gpointer row)
{
  guint n_props;
  g_autofree GParamSpec **pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS (row), &n_props);

  g_assert_cmpuint (n_props, >, 0);
  for (guint i = 0; i < n_props; i++)
    {
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (heard->counts, pspecs[i]->name));

      if (n != 1)
        g_error ("“%s” notified %u times, not once", pspecs[i]->name, n);
    }
  g_assert_cmpuint (heard->total, ==, n_props);
}

/* Exactly the NULL-terminated `names` notified, each once. */
static void
assert_heard_only (Heard      *heard,
                   const char *const *names)
{
  guint n = 0;

  for (; names[n] != NULL; n++)
    {
      if (GPOINTER_TO_UINT (g_hash_table_lookup (heard->counts, names[n])) != 1)
        g_error ("“%s” notified %u times, not once", names[n],
                 GPOINTER_TO_UINT (g_hash_table_lookup (heard->counts, names[n])));
    }
  g_assert_cmpuint (heard->total, ==, n);
}

/* What the view reads: every property of `a` equals that of `b`. */
static void
assert_same_properties (gpointer a,
                        gpointer b)
{
  guint n_props;
  g_autofree GParamSpec **pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS (a), &n_props);

  g_assert_true (G_OBJECT_TYPE (a) == G_OBJECT_TYPE (b));
  for (guint i = 0; i < n_props; i++)
    {
      GValue va = G_VALUE_INIT, vb = G_VALUE_INIT;

      g_value_init (&va, pspecs[i]->value_type);
      g_value_init (&vb, pspecs[i]->value_type);
      g_object_get_property (a, pspecs[i]->name, &va);
      g_object_get_property (b, pspecs[i]->name, &vb);
      if (G_VALUE_HOLDS_STRING (&va))
        g_assert_cmpstr (g_value_get_string (&va), ==, g_value_get_string (&vb));
      else if (g_param_values_cmp (pspecs[i], &va, &vb) != 0)
        g_error ("“%s” differs", pspecs[i]->name);
      g_value_unset (&va);
      g_value_unset (&vb);
    }
}

static void
assert_same_job (WinnowJobRow *a,
                 WinnowJobRow *b)
{
  assert_same_properties (a, b);
  g_assert_cmpstr (winnow_row_get_id (WINNOW_ROW (a)), ==, winnow_row_get_id (WINNOW_ROW (b)));
  g_assert_cmpstr (winnow_job_row_get_instance (a), ==, winnow_job_row_get_instance (b));
  g_assert_cmpstr (winnow_job_row_get_node (a), ==, winnow_job_row_get_node (b));
  g_assert_cmpstr (winnow_job_row_get_topic (a), ==, winnow_job_row_get_topic (b));
  g_assert_cmpstr (winnow_job_row_get_worker (a), ==, winnow_job_row_get_worker (b));
  g_assert_cmpint (winnow_job_row_get_state (a), ==, winnow_job_row_get_state (b));
  g_assert_cmpuint (winnow_job_row_get_attempt (a), ==, winnow_job_row_get_attempt (b));
  g_assert_cmpuint (winnow_job_row_get_executions (a), ==, winnow_job_row_get_executions (b));
  g_assert_cmpint (winnow_job_row_get_enqueued_at (a), ==, winnow_job_row_get_enqueued_at (b));
  g_assert_cmpint (winnow_job_row_get_not_before (a), ==, winnow_job_row_get_not_before (b));
  g_assert_cmpint (winnow_job_row_get_deadline (a), ==, winnow_job_row_get_deadline (b));
  g_assert_cmpint (winnow_job_row_get_trust (a), ==, winnow_job_row_get_trust (b));
  g_assert_true (winnow_job_row_get_policy (a) == winnow_job_row_get_policy (b));
}

static void
test_job (void)
{
  g_autoptr(WnPolicy) policy = wn_policy_resolve (NULL, NULL);
  g_autoptr(WinnowJobRow) source = winnow_job_row_new ("j1");
  g_autoptr(WinnowJobRow) other = winnow_job_row_new ("j2");
  g_autoptr(WinnowJobRow) display = g_object_new (WINNOW_TYPE_JOB_ROW, NULL);
  WnJobInfo info = {
    .id = "j1", .topic = "pay", .instance = "i1", .node = "charge",
    .policy = policy, .state = WN_JOB_LOCKED, .attempt = 1, .executions = 2,
    .enqueued_at = 100 * WN_USEC_PER_MSEC, .not_before = 2 * WN_USEC_PER_SEC,
    .worker = "w1", .first_lock = WN_USEC_PER_SEC, .deadline = 5 * WN_USEC_PER_SEC,
    .next_change = 5 * WN_USEC_PER_SEC + 1,
  };
  const char *const attempt[] = { "attempt", "attempt-text", NULL };
  const char *const worker[] = { "worker", "worker-text", NULL };
  const char *const deadline[] = { "deadline", "deadline-text", "not-before-text", NULL };
  Heard heard;

  winnow_job_row_update (source, &info, WN_USEC_PER_SEC);
  heard_init (&heard, display);

  winnow_row_assign_from (display, source);
  assert_heard_all (&heard, display);
  assert_same_job (display, source);
  g_assert_cmpint (winnow_job_row_get_next_change (display), ==, 5 * WN_USEC_PER_SEC + 1);

  /* nothing shown differs: nothing said */
  heard_reset (&heard);
  winnow_row_assign_from (display, source);
  g_assert_cmpuint (heard.total, ==, 0);
  winnow_row_assign_from (display, display);
  g_assert_cmpuint (heard.total, ==, 0);

  /* the clock alone: copied, not said (the view re-reads the countdowns) */
  winnow_row_set_now (WINNOW_ROW (source), 3 * WN_USEC_PER_SEC);
  winnow_row_assign_from (display, source);
  g_assert_cmpuint (heard.total, ==, 0);
  assert_same_job (display, source);

  /* the source's update says only what changed ... */
  g_signal_connect (source, "notify", G_CALLBACK (notify_cb), &heard);
  info.attempt = 2;
  winnow_job_row_update (source, &info, 3 * WN_USEC_PER_SEC);
  assert_heard_only (&heard, attempt);
  heard_reset (&heard);
  info.worker = "w2";
  winnow_job_row_update (source, &info, 3 * WN_USEC_PER_SEC);
  assert_heard_only (&heard, worker);
  heard_reset (&heard);
  info.deadline = 6 * WN_USEC_PER_SEC;
  winnow_job_row_update (source, &info, 3 * WN_USEC_PER_SEC);
  assert_heard_only (&heard, deadline);
  heard_reset (&heard);
  winnow_job_row_update (source, &info, 4 * WN_USEC_PER_SEC);
  g_assert_cmpuint (heard.total, ==, 0);
  g_signal_handlers_disconnect_by_data (source, &heard);

  /* ... and the display row taking it on says everything, once */
  winnow_row_assign_from (display, source);
  assert_heard_all (&heard, display);
  assert_same_job (display, source);

  /* another row, back to none at all (no worker, no policy) */
  info.id = "j2";
  info.worker = NULL;
  info.policy = NULL;
  info.deadline = -1;
  winnow_job_row_update (other, &info, 0);
  heard_reset (&heard);
  winnow_row_assign_from (display, other);
  assert_heard_all (&heard, display);
  assert_same_job (display, other);

  heard_clear (&heard, display);
}

static void
assert_same_track (WinnowTrackRow *a,
                   WinnowTrackRow *b)
{
  assert_same_properties (a, b);
  g_assert_cmpstr (winnow_row_get_id (WINNOW_ROW (a)), ==, winnow_row_get_id (WINNOW_ROW (b)));
  g_assert_cmpstr (winnow_track_row_get_instance (a), ==, winnow_track_row_get_instance (b));
  g_assert_cmpstr (winnow_track_row_get_node (a), ==, winnow_track_row_get_node (b));
  g_assert_cmpstr (winnow_track_row_get_node_name (a), ==, winnow_track_row_get_node_name (b));
  g_assert_cmpint (winnow_track_row_get_state (a), ==, winnow_track_row_get_state (b));
  g_assert_cmpint (winnow_track_row_get_since (a), ==, winnow_track_row_get_since (b));
  g_assert_cmpstr (winnow_track_row_get_job (a), ==, winnow_track_row_get_job (b));
  g_assert_cmpstr (winnow_track_row_get_error (a), ==, winnow_track_row_get_error (b));
}

static void
test_track (void)
{
  g_autoptr(WinnowTrackRow) source = winnow_track_row_new ("i1/t1");
  g_autoptr(WinnowTrackRow) display = g_object_new (WINNOW_TYPE_TRACK_ROW, NULL);
  WnTrackInfo info = { "i1/t1", "i1", "work", WN_TRACK_PARKED, WN_USEC_PER_SEC, "j1", NULL, 1, 1, 1 };
  const char *const job[] = { "job", "job-text", NULL };
  const char *const node[] = { "node", "node-name", NULL };
  const char *const since[] = { "since", "since-text", NULL };
  Heard heard;

  winnow_track_row_update (source, &info, "Work", 2 * WN_USEC_PER_SEC);
  heard_init (&heard, display);

  winnow_row_assign_from (display, source);
  assert_heard_all (&heard, display);
  assert_same_track (display, source);
  g_assert_cmpuint (winnow_track_row_get_instance_number (display), ==, 1);
  g_assert_cmpuint (winnow_track_row_get_number (display), ==, 1);

  heard_reset (&heard);
  winnow_row_assign_from (display, source);
  winnow_row_assign_from (display, display);
  g_assert_cmpuint (heard.total, ==, 0);

  /* "(1.2s ago)" moves with the clock: copied, not said */
  winnow_row_set_now (WINNOW_ROW (source), 5 * WN_USEC_PER_SEC);
  winnow_row_assign_from (display, source);
  g_assert_cmpuint (heard.total, ==, 0);
  assert_same_track (display, source);

  g_signal_connect (source, "notify", G_CALLBACK (notify_cb), &heard);
  info.job = NULL;
  winnow_track_row_update (source, &info, "Work", 5 * WN_USEC_PER_SEC);
  assert_heard_only (&heard, job);
  heard_reset (&heard);
  info.node = "ship";
  winnow_track_row_update (source, &info, "Ship", 5 * WN_USEC_PER_SEC);
  assert_heard_only (&heard, node);
  heard_reset (&heard);
  info.since = 4 * WN_USEC_PER_SEC;
  winnow_track_row_update (source, &info, "Ship", 5 * WN_USEC_PER_SEC);
  assert_heard_only (&heard, since);
  heard_reset (&heard);
  winnow_track_row_update (source, &info, "Ship", 6 * WN_USEC_PER_SEC);
  g_assert_cmpuint (heard.total, ==, 0);
  g_signal_handlers_disconnect_by_data (source, &heard);

  info.state = WN_TRACK_FAILED;
  info.error = "boom";
  winnow_track_row_update (source, &info, "Ship", 6 * WN_USEC_PER_SEC);
  winnow_row_assign_from (display, source);
  assert_heard_all (&heard, display);
  assert_same_track (display, source);

  heard_clear (&heard, display);
}

static void
test_instance (void)
{
  g_autoptr(WinnowInstanceRow) source = winnow_instance_row_new ("i1");
  g_autoptr(WinnowInstanceRow) display = g_object_new (WINNOW_TYPE_INSTANCE_ROW, NULL);
  WnInstanceInfo info = { "i1", WN_INSTANCE_ACTIVE, WN_USEC_PER_SEC, -1, NULL, NULL, 0, NULL };
  /* an instance row says all it shows but its id when anything changed */
  const char *const shown[] = { "state", "state-name", "started-text", "ended-text",
                                "outcome", "incidents", "style", "duration", "duration-text", NULL };
  Heard heard;

  winnow_instance_row_update (source, &info);
  heard_init (&heard, display);

  winnow_row_assign_from (display, source);
  assert_heard_all (&heard, display);
  assert_same_properties (display, source);
  g_assert_cmpstr (winnow_row_get_id (WINNOW_ROW (display)), ==, "i1");

  heard_reset (&heard);
  winnow_row_assign_from (display, source);
  winnow_row_assign_from (display, display);
  g_assert_cmpuint (heard.total, ==, 0);

  g_signal_connect (source, "notify", G_CALLBACK (notify_cb), &heard);
  winnow_instance_row_update (source, &info);
  g_assert_cmpuint (heard.total, ==, 0);
  info.n_incidents = 2;
  winnow_instance_row_update (source, &info);
  assert_heard_only (&heard, shown);
  g_signal_handlers_disconnect_by_data (source, &heard);

  heard_reset (&heard);
  winnow_row_assign_from (display, source);
  assert_heard_all (&heard, display);
  assert_same_properties (display, source);
  g_assert_cmpuint (winnow_instance_row_get_incidents (display), ==, 2);

  info.state = WN_INSTANCE_COMPLETED;
  info.ended_at = 3 * WN_USEC_PER_SEC;
  info.end_node = "shipped";
  info.n_incidents = 0;
  winnow_instance_row_update (source, &info);
  heard_reset (&heard);
  winnow_row_assign_from (display, source);
  assert_heard_all (&heard, display);
  assert_same_properties (display, source);
  g_assert_cmpint (winnow_instance_row_get_state (display), ==, WN_INSTANCE_COMPLETED);

  heard_clear (&heard, display);
}

/* `object`'s property `name` is an enum of `type` and reads `expected`. */
static void
assert_enum_property (gpointer    object,
                      const char *name,
                      GType       type,
                      int         expected)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (object), name);
  GValue value = G_VALUE_INIT;

  g_assert_nonnull (pspec);
  g_assert_cmpstr (g_type_name (pspec->value_type), ==, g_type_name (type));
  g_value_init (&value, type);
  g_object_get_property (object, name, &value);
  g_assert_cmpint (g_value_get_enum (&value), ==, expected);
  g_value_unset (&value);
}

/* The engine's enums cross the rows' properties as their own GTypes. */
static void
test_enum_properties (void)
{
  g_autoptr(WnPolicy) policy = wn_policy_resolve (NULL, NULL);
  g_autoptr(WinnowJobRow) job = winnow_job_row_new ("j1");
  g_autoptr(WinnowTrackRow) track = winnow_track_row_new ("i1/t1");
  g_autoptr(WinnowInstanceRow) instance = winnow_instance_row_new ("i1");
  WnJobInfo job_info = { .id = "j1", .topic = "pay", .policy = policy, .state = WN_JOB_LOCKED };
  WnTrackInfo track_info = { .id = "i1/t1", .instance = "i1", .node = "ship", .state = WN_TRACK_PARKED };
  WnInstanceInfo instance_info = { "i1", WN_INSTANCE_TERMINATED, WN_USEC_PER_SEC, -1, NULL, NULL, 0, NULL };

  assert_enum_property (job, "state", WN_TYPE_JOB_STATE, WN_JOB_AVAILABLE);
  assert_enum_property (job, "trust", WN_TYPE_TRUST, WN_TRUST_UNSET);
  winnow_job_row_update (job, &job_info, 0);
  assert_enum_property (job, "state", WN_TYPE_JOB_STATE, WN_JOB_LOCKED);
  assert_enum_property (job, "trust", WN_TYPE_TRUST, WN_TRUST_WORKER_TRUSTED);

  winnow_track_row_update (track, &track_info, "Ship", 0);
  assert_enum_property (track, "state", WN_TYPE_TRACK_STATE, WN_TRACK_PARKED);

  winnow_instance_row_update (instance, &instance_info);
  assert_enum_property (instance, "state", WN_TYPE_INSTANCE_STATE, WN_INSTANCE_TERMINATED);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/Rows/job", test_job);
  g_test_add_func ("/app/Rows/track", test_track);
  g_test_add_func ("/app/Rows/instance", test_instance);
  g_test_add_func ("/app/Rows/enum-properties", test_enum_properties);
  return g_test_run ();
}
