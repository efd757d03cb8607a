/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The journal: sequence, subscribers, the JSON-lines and text forms. */
#include "wn-test-util.h"

static void
count_cb (const WnEvent *event,
          gpointer       data)
{
  GArray *seqs = data;

  g_array_append_val (seqs, event->seq);
}

static void
test_subscribers (void)
{
  WnJournal *journal = wn_journal_new ();
  g_autoptr(GArray) a = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GArray) b = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint id_a, id_b;

  g_assert_false (wn_journal_is_active (journal));
  wn_journal_skip (journal);
  id_a = wn_journal_subscribe (journal, count_cb, a, NULL);
  id_b = wn_journal_subscribe (journal, count_cb, b, NULL);
  g_assert_cmpuint (id_a, !=, id_b);
  g_assert_true (wn_journal_is_active (journal));
  for (int i = 0; i < 3; i++)
    {
      WnEvent ev = WN_EVENT_INIT (WN_EV_NODE, WN_PH_ENTERED);
      wn_journal_emit (journal, 100 * i, &ev);
      g_assert_cmpint (ev.t_us, ==, 100 * i);
    }
  wn_journal_unsubscribe (journal, id_a);
  {
    WnEvent ev = WN_EVENT_INIT (WN_EV_NODE, WN_PH_COMPLETED);
    wn_journal_emit (journal, 500, &ev);
  }
  /* the skipped event still took a number */
  g_assert_cmpuint (a->len, ==, 3);
  g_assert_cmpuint (g_array_index (a, guint64, 0), ==, 2);
  g_assert_cmpuint (g_array_index (a, guint64, 2), ==, 4);
  g_assert_cmpuint (b->len, ==, 4);
  g_assert_cmpuint (g_array_index (b, guint64, 3), ==, 5);
  g_assert_cmpuint (wn_journal_get_n_events (journal), ==, 5);
  wn_journal_free (journal);
}

static void
test_json_line (void)
{
  WnEvent ev = WN_EVENT_INIT (WN_EV_JOB, WN_PH_RETRY_SCHEDULED);
  g_autoptr(GString) out = g_string_new (NULL);

  ev.seq = 17;
  ev.t_us = 1250000;
  ev.instance = "i1";
  ev.node = "reserve";
  ev.job = "i3";
  ev.job = "i1/j3";
  ev.topic = "stock.reserve";
  ev.worker = "stock-1";
  ev.attempt = 1;
  ev.backoff_us = 300000;
  ev.not_before_us = 1550000;
  ev.code = "503";
  ev.error = "503: \"unavailable\"\n";
  ev.trust = WN_TRUST_ENGINE_AUTHORITATIVE;
  wn_event_append_json (&ev, out);
  g_assert_cmpstr (out->str, ==,
    "{\"seq\":17,\"t_us\":1250000,\"kind\":\"job\",\"phase\":\"retryScheduled\",\"instance\":\"i1\","
    "\"node\":\"reserve\",\"job\":\"i1/j3\",\"topic\":\"stock.reserve\",\"worker\":\"stock-1\",\"attempt\":1,"
    "\"backoff_us\":300000,\"not_before_us\":1550000,\"code\":\"503\",\"error\":\"503: \\\"unavailable\\\"\\n\","
    "\"trust\":\"engineAuthoritative\"}\n");
}

static void
test_json_flows_status (void)
{
  WnEvent ev = WN_EVENT_INIT (WN_EV_GATEWAY, WN_PH_DECIDED);
  const char *flows[] = { "a", "b", NULL };
  g_autoptr(JsonNode) status = json_from_string ("{\"s\":[1,true]}", NULL);
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(WnEvent) copy = NULL;

  ev.seq = 1;
  ev.flows = flows;
  ev.status = status;
  ev.backoff_us = 0;   /* zero is a value, not absence */
  wn_event_append_json (&ev, out);
  g_assert_cmpstr (out->str, ==,
    "{\"seq\":1,\"t_us\":0,\"kind\":\"gateway\",\"phase\":\"decided\",\"backoff_us\":0,"
    "\"status\":{\"s\":[1,true]},\"flows\":[\"a\",\"b\"]}\n");

  copy = wn_event_copy (&ev);
  g_string_truncate (out, 0);
  wn_event_append_json (copy, out);
  g_assert_nonnull (strstr (out->str, "\"flows\":[\"a\",\"b\"]"));
}

static void
test_text_line (void)
{
  WnEvent ev = WN_EVENT_INIT (WN_EV_JOB, WN_PH_RETRY_SCHEDULED);
  g_autoptr(GString) out = g_string_new (NULL);

  ev.t_us = 1250000;
  ev.instance = "i1";
  ev.node = "reserve";
  ev.attempt = 1;
  ev.backoff_us = 300000;
  wn_event_append_text (&ev, out);
  g_assert_cmpstr (out->str, ==, "   1.250s  job      retryScheduled       i1 reserve  attempt 1, next in 300ms");
}

static void
test_names (void)
{
  WnEventKind kind;
  WnEventPhase phase;

  for (guint k = 0; k < WN_EV_N_KINDS; k++)
    {
      g_assert_true (wn_event_kind_from_string (wn_event_kind_to_string (k), &kind));
      g_assert_cmpint (kind, ==, k);
    }
  for (guint p = 0; p < WN_PH_N_PHASES; p++)
    {
      g_assert_true (wn_event_phase_from_string (wn_event_phase_to_string (p), &phase));
      g_assert_cmpint (phase, ==, p);
    }
  g_assert_cmpstr (wn_event_phase_to_string (WN_PH_WORKER_RETRY_SCHEDULED), ==, "workerRetryScheduled");
  g_assert_false (wn_event_kind_from_string ("jobs", &kind));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/engine/Journal/subscribers", test_subscribers);
  g_test_add_func ("/engine/Journal/json-line", test_json_line);
  g_test_add_func ("/engine/Journal/json-flows-status", test_json_flows_status);
  g_test_add_func ("/engine/Journal/text-line", test_text_line);
  g_test_add_func ("/engine/Journal/names", test_names);

  return g_test_run ();
}
