/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Breakpoints as a list model over the engine's own, and carried to a new run. */
#include "wn-test-util.h"

/* start → a (a worker task) → b (another) → end */
static const char *process_json =
  "{\"format\": \"winnow.process/1\", \"id\": \"p\", \"nodes\": ["
  "{\"id\": \"s\", \"type\": \"startEvent\"},"
  "{\"id\": \"a\", \"type\": \"serviceTask\", \"worker\": {\"topic\": \"ta\"}},"
  "{\"id\": \"b\", \"type\": \"serviceTask\", \"worker\": {\"topic\": \"tb\"}},"
  "{\"id\": \"e\", \"type\": \"endEvent\"}],"
  "\"flows\": [{\"id\": \"f1\", \"from\": \"s\", \"to\": \"a\"}, {\"id\": \"f2\", \"from\": \"a\", \"to\": \"b\"},"
  "{\"id\": \"f3\", \"from\": \"b\", \"to\": \"e\"}]}";

typedef struct {
  guint position;
  guint removed;
  guint added;
  guint n_signals;
} Changes;

static void
items_changed_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  gpointer    data)
{
  Changes *changes = data;

  changes->position = position;
  changes->removed = removed;
  changes->added = added;
  changes->n_signals++;
}

static void
count_notify_cb (GObject    *object,
                 GParamSpec *pspec,
                 gpointer    data)
{
  (*(guint *) data)++;
}

static WnBreakpointItem *
item_at (GListModel *model,
         guint       position)
{
  WnBreakpointItem *item = g_list_model_get_item (model, position);

  g_assert_nonnull (item);
  g_object_unref (item);   /* the model keeps it */
  return item;
}

/* The model shows the engine's breakpoints, in order, as they come, change and go. */
static void
test_model_follows_engine (void)
{
  g_autoptr(WnTestRun) run = wn_test_run_new (process_json, NULL, NULL);
  GListModel *model = wn_engine_get_breakpoint_model (run->engine);
  g_autoptr(GError) error = NULL;
  g_autofree char *spec = NULL;
  Changes changes = { 0 };
  guint n_enabled = 0;
  guint n_hits = 0;
  WnBreakpointItem *item;
  WnEventKind kind;
  WnEventPhase phase;
  guint first, second;

  g_assert_true (g_type_is_a (g_list_model_get_item_type (model), WN_TYPE_BREAKPOINT_ITEM));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 0);
  g_signal_connect (model, "items-changed", G_CALLBACK (items_changed_cb), &changes);

  first = wn_engine_add_breakpoint (run->engine, WN_EV_NODE, WN_PH_ENTERED, "b");
  second = wn_engine_add_breakpoint (run->engine, WN_EV_JOB, WN_PH_LOCKED, NULL);
  g_assert_cmpuint (changes.n_signals, ==, 2);
  g_assert_cmpuint (changes.position, ==, 1);
  g_assert_cmpuint (changes.added, ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2);

  item = item_at (model, 0);
  g_assert_cmpuint (wn_breakpoint_item_get_id (item), ==, first);
  g_assert_cmpint (wn_breakpoint_item_get_kind (item), ==, WN_EV_NODE);
  g_assert_cmpint (wn_breakpoint_item_get_phase (item), ==, WN_PH_ENTERED);
  g_assert_cmpstr (wn_breakpoint_item_get_node (item), ==, "b");
  g_assert_true (wn_breakpoint_item_get_enabled (item));
  g_assert_cmpuint (wn_breakpoint_item_get_hits (item), ==, 0);
  spec = wn_breakpoint_item_dup_spec (item);
  g_assert_cmpstr (spec, ==, "node.entered@b");
  g_clear_pointer (&spec, g_free);
  g_object_get (item_at (model, 1), "spec", &spec, NULL);
  g_assert_cmpstr (spec, ==, "job.locked");

  /* enabling notifies (once, only on a change); a hit counts and notifies */
  g_signal_connect (item, "notify::enabled", G_CALLBACK (count_notify_cb), &n_enabled);
  g_signal_connect (item, "notify::hits", G_CALLBACK (count_notify_cb), &n_hits);
  g_assert_true (wn_engine_enable_breakpoint (run->engine, first, FALSE));
  g_assert_true (wn_engine_enable_breakpoint (run->engine, first, FALSE));
  g_assert_false (wn_breakpoint_item_get_enabled (item));
  g_assert_cmpuint (n_enabled, ==, 1);
  g_assert_true (wn_engine_enable_breakpoint (run->engine, first, TRUE));
  g_assert_cmpuint (n_enabled, ==, 2);

  g_assert_true (wn_engine_remove_breakpoint (run->engine, second));
  g_assert_cmpuint (changes.position, ==, 1);
  g_assert_cmpuint (changes.removed, ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);

  /* the run starts an instance at t = 0; it enters "b" once "a"'s job is done */
  g_assert_cmpint (wn_engine_run (run->engine, WN_TIME_NEVER), ==, WN_STOP_REQUESTED);
  g_assert_cmpuint (wn_engine_get_last_hit (run->engine, NULL), ==, first);
  g_assert_cmpuint (wn_breakpoint_item_get_hits (item), ==, 1);
  g_assert_cmpuint (n_hits, ==, 1);

  /* the spec reads back */
  {
    g_autofree char *node = NULL;
    g_autofree char *written = wn_breakpoint_to_spec (WN_EV_JOB, WN_PH_RETRIES_EXHAUSTED, "a");

    g_assert_cmpstr (written, ==, "job.retriesExhausted@a");
    g_assert_true (wn_breakpoint_parse (written, &kind, &phase, &node, &error));
    g_assert_no_error (error);
    g_assert_cmpint (kind, ==, WN_EV_JOB);
    g_assert_cmpint (phase, ==, WN_PH_RETRIES_EXHAUSTED);
    g_assert_cmpstr (node, ==, "a");
  }

  /* the model may outlive the engine */
  g_object_ref (model);
  g_clear_pointer (&run, wn_test_run_free);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);
  g_signal_handlers_disconnect_by_data (model, &changes);
  g_object_unref (model);
}

/* A new run takes the last one's breakpoints: same ids, enabled state, no
 * hits; those on nodes the new process lacks are left out; new ids follow. */
static void
test_copy_to_new_run (void)
{
  const char *other_json =
    "{\"format\": \"winnow.process/1\", \"id\": \"q\", \"nodes\": ["
    "{\"id\": \"s\", \"type\": \"startEvent\"},"
    "{\"id\": \"a\", \"type\": \"serviceTask\", \"worker\": {\"topic\": \"ta\"}},"
    "{\"id\": \"e\", \"type\": \"endEvent\"}],"
    "\"flows\": [{\"id\": \"f1\", \"from\": \"s\", \"to\": \"a\"}, {\"id\": \"f2\", \"from\": \"a\", \"to\": \"e\"}]}";
  g_autoptr(WnTestRun) run = wn_test_run_new (process_json, NULL, NULL);
  g_autoptr(WnTestRun) again = wn_test_run_new (process_json, NULL, NULL);
  g_autoptr(WnTestRun) other = wn_test_run_new (other_json, NULL, NULL);
  const WnBreakpoint *bps;
  guint on_a, on_b, any, next;
  guint n = 0;

  on_a = wn_engine_add_breakpoint (run->engine, WN_EV_NODE, WN_PH_ENTERED, "a");
  on_b = wn_engine_add_breakpoint (run->engine, WN_EV_NODE, WN_PH_ENTERED, "b");
  any = wn_engine_add_breakpoint (run->engine, WN_EV_JOB, WN_PH_COMPLETED, NULL);
  g_assert_true (wn_engine_remove_breakpoint (run->engine, any));
  any = wn_engine_add_breakpoint (run->engine, WN_EV_JOB, WN_PH_COMPLETED, NULL);
  wn_engine_enable_breakpoint (run->engine, on_b, FALSE);
  g_assert_cmpint (wn_engine_run (run->engine, WN_TIME_NEVER), ==, WN_STOP_REQUESTED);
  g_assert_cmpuint (wn_engine_get_breakpoints (run->engine, &n)[0].hits, ==, 1);

  g_assert_cmpuint (wn_engine_copy_breakpoints (again->engine, run->engine), ==, 0);
  bps = wn_engine_get_breakpoints (again->engine, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpuint (g_list_model_get_n_items (wn_engine_get_breakpoint_model (again->engine)), ==, 3);
  g_assert_cmpuint (bps[0].id, ==, on_a);
  g_assert_cmpstr (bps[0].node, ==, "a");
  g_assert_cmpuint (bps[0].hits, ==, 0);
  g_assert_true (bps[0].enabled);
  g_assert_cmpuint (bps[1].id, ==, on_b);
  g_assert_false (bps[1].enabled);
  g_assert_false (wn_breakpoint_item_get_enabled (item_at (wn_engine_get_breakpoint_model (again->engine), 1)));
  g_assert_cmpuint (bps[2].id, ==, any);

  /* they stop the new run as they stopped the old (the run starts an
   * instance at t = 0, which enters "a") */
  g_assert_cmpint (wn_engine_run (again->engine, WN_TIME_NEVER), ==, WN_STOP_REQUESTED);
  g_assert_cmpuint (wn_engine_get_last_hit (again->engine, NULL), ==, on_a);
  g_assert_cmpuint (wn_breakpoint_item_get_hits (item_at (wn_engine_get_breakpoint_model (again->engine), 0)), ==, 1);
  next = wn_engine_add_breakpoint (again->engine, WN_EV_NODE, WN_PH_COMPLETED, NULL);
  g_assert_cmpuint (next, ==, any + 1);

  /* the other process has no "b" */
  g_assert_cmpuint (wn_engine_copy_breakpoints (other->engine, run->engine), ==, 1);
  bps = wn_engine_get_breakpoints (other->engine, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (bps[0].id, ==, on_a);
  g_assert_cmpuint (bps[1].id, ==, any);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/engine/Breakpoints/model-follows-engine", test_model_follows_engine);
  g_test_add_func ("/engine/Breakpoints/copy-to-new-run", test_copy_to_new_run);

  return g_test_run ();
}
