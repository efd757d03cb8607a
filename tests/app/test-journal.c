/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The app's record of a run's events (winnow-journal.c): what it gives back,
 * and its JSON-lines export, are the engine's own events and lines. No display. */
#include "config.h"

#include <string.h>

#include "winnow.h"
#include "winnow-journal.h"

typedef struct {
  WinnowJournal *journal;
  GString       *lines;   /* wn_event_append_json() of each event as it came */
} Recorder;

static void
record_cb (const WnEvent *event,
           gpointer       data)
{
  Recorder *recorder = data;

  winnow_journal_append (recorder->journal, event);
  wn_event_append_json (event, recorder->lines);
}

static void
assert_export_matches (Recorder *recorder)
{
  g_autoptr(GString) exported = g_string_new (NULL);

  winnow_journal_append_json (recorder->journal, 0, winnow_journal_get_n_events (recorder->journal), exported);
  g_assert_cmpuint (exported->len, ==, recorder->lines->len);
  g_assert_cmpstr (exported->str, ==, recorder->lines->str);
}

/* Whole runs of the bundled examples, both trust modes. */
static void
test_runs (void)
{
  const char *examples[] = { "flaky-service.process.json", "order-fulfilment.process.json", "error-mapper-showcase.process.json" };

  for (guint i = 0; i < G_N_ELEMENTS (examples); i++)
    for (WnTrust trust = WN_TRUST_WORKER_TRUSTED; trust <= WN_TRUST_ENGINE_AUTHORITATIVE; trust++)
      {
        g_autofree char *path = g_build_filename (EXAMPLES_DIR, examples[i], NULL);
        g_autoptr(GError) error = NULL;
        g_autoptr(WnProcess) process = wn_load_process_file (path, NULL, &error);
        WnEngineOptions options = { 0 };
        Recorder recorder = { winnow_journal_new (), g_string_new (NULL) };
        WnEngine *engine;

        g_assert_no_error (error);
        options.instances = 300;
        options.trust = trust;
        options.seed = 7;
        options.has_seed = TRUE;
        engine = wn_engine_new (process, NULL, &options);
        wn_journal_subscribe (wn_engine_get_journal (engine), record_cb, &recorder, NULL);
        wn_engine_run (engine, WN_TIME_NEVER);
        g_assert_cmpuint (winnow_journal_get_n_events (recorder.journal), >, 300);
        assert_export_matches (&recorder);
        wn_engine_free (engine);
        winnow_journal_unref (recorder.journal);
        g_string_free (recorder.lines, TRUE);
      }
}

/* Strings that come back after others: more distinct values in a row than
 * the record remembers, values of one field in another, a value and its
 * prefix, NULL between values. */
static void
test_recurring_strings (void)
{
  const char *values[] = { "i1", "i2", "i3", "i4", "i5", "i6", "i1", "i", "i10", "i1", "work", NULL, "i6", "" };
  Recorder recorder = { winnow_journal_new (), g_string_new (NULL) };

  for (guint round = 0; round < 3; round++)
    for (guint i = 0; i < G_N_ELEMENTS (values); i++)
      {
        WnEvent ev = WN_EVENT_INIT (WN_EV_JOB, WN_PH_LOCKED);
        guint j = (i + round) % G_N_ELEMENTS (values);

        ev.seq = round * 100 + i + 1;
        ev.instance = values[i];
        ev.node = values[j];
        ev.job = values[(i * 7 + round) % G_N_ELEMENTS (values)];
        ev.topic = "work";
        ev.worker = values[(G_N_ELEMENTS (values) - 1 - i)];
        ev.error = round == 1 ? values[j] : NULL;
        record_cb (&ev, &recorder);
      }
  for (guint i = 0; i < winnow_journal_get_n_events (recorder.journal); i++)
    {
      WnEvent ev;
      guint round = i / G_N_ELEMENTS (values);
      guint k = i % G_N_ELEMENTS (values);

      winnow_journal_get_event (recorder.journal, i, &ev);
      g_assert_cmpstr (ev.instance, ==, values[k]);
      g_assert_cmpstr (ev.node, ==, values[(k + round) % G_N_ELEMENTS (values)]);
    }
  assert_export_matches (&recorder);
  winnow_journal_unref (recorder.journal);
  g_string_free (recorder.lines, TRUE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/app/Journal/runs", test_runs);
  g_test_add_func ("/app/Journal/recurring-strings", test_recurring_strings);

  return g_test_run ();
}
