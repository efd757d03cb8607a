/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The journal: sequence, subscribers, the JSON-lines and text forms. */
#include <string.h>
#include <glib/gstdio.h>

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

/* ---- the JSON writer against its reference ----
 *
 * The reference is the generic writer wn_event_append_json() was before it was
 * made fast (GString appends, json-glib for a status), kept as it was: the
 * journal's bytes must not change (journal-and-cli.md). */

static void
ref_append_json_string (GString    *out,
                        const char *text)
{
  const guchar *run = (const guchar *) text;
  const guchar *p;

  g_string_append_c (out, '"');
  for (p = run; *p != '\0'; p++)
    {
      if (*p >= 0x20 && *p != '"' && *p != '\\')
        continue;
      g_string_append_len (out, (const char *) run, p - run);
      run = p + 1;
      switch (*p)
        {
        case '"':  g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        default:    g_string_append_printf (out, "\\u%04x", *p); break;
        }
    }
  g_string_append_len (out, (const char *) run, p - run);
  g_string_append_c (out, '"');
}

static void
ref_append_str_field (GString    *out,
                      const char *key,
                      const char *value)
{
  if (value == NULL)
    return;
  g_string_append_printf (out, ",\"%s\":", key);
  ref_append_json_string (out, value);
}

static void
ref_append_int_field (GString    *out,
                      const char *key,
                      gint64      value)
{
  g_string_append_printf (out, ",\"%s\":%" G_GINT64_FORMAT, key, value);
}

static void
ref_append_json (const WnEvent *ev,
                 GString       *out)
{
  g_string_append_printf (out, "{\"seq\":%" G_GUINT64_FORMAT ",\"t_us\":%" G_GINT64_FORMAT, ev->seq, ev->t_us);
  ref_append_str_field (out, "kind", wn_event_kind_to_string (ev->kind));
  ref_append_str_field (out, "phase", wn_event_phase_to_string (ev->phase));
  ref_append_str_field (out, "instance", ev->instance);
  ref_append_str_field (out, "node", ev->node);
  ref_append_str_field (out, "track", ev->track);
  ref_append_str_field (out, "scope", ev->scope);
  if (ev->loop > 0)
    g_string_append_printf (out, ",\"loop\":%u", ev->loop);
  ref_append_str_field (out, "job", ev->job);
  ref_append_str_field (out, "topic", ev->topic);
  ref_append_str_field (out, "worker", ev->worker);
  if (ev->attempt > 0)
    ref_append_int_field (out, "attempt", ev->attempt);
  if (ev->attempts > 0)
    ref_append_int_field (out, "attempts", ev->attempts);
  if (ev->backoff_us >= 0)
    ref_append_int_field (out, "backoff_us", ev->backoff_us);
  if (ev->not_before_us >= 0)
    ref_append_int_field (out, "not_before_us", ev->not_before_us);
  if (ev->deadline_us >= 0)
    ref_append_int_field (out, "deadline_us", ev->deadline_us);
  ref_append_str_field (out, "code", ev->code);
  if (ev->status != NULL)
    {
      g_autoptr(JsonGenerator) generator = json_generator_new ();
      g_autofree char *text = NULL;

      json_generator_set_root (generator, ev->status);
      text = json_generator_to_data (generator, NULL);
      g_string_append_printf (out, ",\"status\":%s", text);
    }
  ref_append_str_field (out, "error", ev->error);
  if (ev->flows != NULL)
    {
      g_string_append (out, ",\"flows\":[");
      for (guint i = 0; ev->flows[i] != NULL; i++)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          ref_append_json_string (out, ev->flows[i]);
        }
      g_string_append_c (out, ']');
    }
  ref_append_str_field (out, "action", ev->action);
  if (ev->trust != WN_TRUST_UNSET)
    ref_append_str_field (out, "trust", ev->trust == WN_TRUST_WORKER_TRUSTED ? "workerTrusted" : "engineAuthoritative");
  g_string_append (out, "}\n");
}

/* Both writers on one event, appended after `prefix`: the same bytes. */
static void
assert_same_json (const WnEvent *ev,
                  const char    *prefix)
{
  g_autoptr(GString) fast = g_string_new (prefix);
  g_autoptr(GString) ref = g_string_new (prefix);

  wn_event_append_json (ev, fast);
  ref_append_json (ev, ref);
  g_assert_cmpuint (fast->len, ==, ref->len);
  g_assert_cmpuint (strlen (fast->str), ==, fast->len);   /* terminated, no NUL inside */
  g_assert_cmpstr (fast->str, ==, ref->str);
}

/* What a line reads back as with json-glib (strings that are valid UTF-8 only). */
static void
assert_round_trip (const WnEvent *ev)
{
  g_autoptr(GString) line = g_string_new (NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  struct { const char *key; const char *value; } strings[] = {
    { "instance", ev->instance }, { "node", ev->node }, { "track", ev->track }, { "job", ev->job },
    { "topic", ev->topic }, { "worker", ev->worker }, { "code", ev->code }, { "error", ev->error },
    { "action", ev->action }, { "scope", ev->scope },
  };
  JsonObject *object;

  wn_event_append_json (ev, line);
  g_assert_true (g_str_has_suffix (line->str, "}\n"));
  g_assert_true (strchr (line->str, '\n') == line->str + line->len - 1);   /* one line */
  json_parser_load_from_data (parser, line->str, (gssize) line->len, &error);
  g_assert_no_error (error);
  object = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpuint ((guint64) json_object_get_int_member (object, "seq"), ==, ev->seq);
  g_assert_cmpint (json_object_get_int_member (object, "t_us"), ==, ev->t_us);
  g_assert_cmpstr (json_object_get_string_member (object, "kind"), ==, wn_event_kind_to_string (ev->kind));
  g_assert_cmpstr (json_object_get_string_member (object, "phase"), ==, wn_event_phase_to_string (ev->phase));
  for (guint i = 0; i < G_N_ELEMENTS (strings); i++)
    {
      g_assert_cmpint (json_object_has_member (object, strings[i].key), ==, strings[i].value != NULL);
      if (strings[i].value != NULL)
        g_assert_cmpstr (json_object_get_string_member (object, strings[i].key), ==, strings[i].value);
    }
  if (ev->backoff_us >= 0)
    g_assert_cmpint (json_object_get_int_member (object, "backoff_us"), ==, ev->backoff_us);
  if (ev->not_before_us >= 0)
    g_assert_cmpint (json_object_get_int_member (object, "not_before_us"), ==, ev->not_before_us);
  if (ev->deadline_us >= 0)
    g_assert_cmpint (json_object_get_int_member (object, "deadline_us"), ==, ev->deadline_us);
  if (ev->flows != NULL)
    {
      JsonArray *flows = json_object_get_array_member (object, "flows");

      g_assert_cmpuint (json_array_get_length (flows), ==, g_strv_length ((char **) ev->flows));
      for (guint i = 0; ev->flows[i] != NULL; i++)
        g_assert_cmpstr (json_array_get_string_element (flows, i), ==, ev->flows[i]);
    }
}

static void
test_json_escapes (void)
{
  const char *strings[] = {
    "", "\"", "\\", "\\\"", "\"\\\"", "a\"b\\c", "/", "</script>", "\x7f", "\t\n\r", "\b\f\v",
    "\x01", "\x1f", " ", "~", "caf\xc3\xa9", "\xe6\x97\xa5\xe6\x9c\xac", "\xf0\x9f\x98\x80",
    "\xe2\x80\xa8\xe2\x80\xa9", "\xef\xbb\xbf" "bom", "\xc3\xa9\"\x01\xc3\xa9",
  };
  const char *invalid_utf8[] = { "\xff\xfe", "\xc3", "a\x80z", "\xed\xa0\x80", "\xc0\xaf" };
  char controls[32];
  g_autofree char *long_plain = g_strnfill (100000, 'x');
  g_autofree char *long_quotes = g_strnfill (70000, '"');
  g_autofree char *long_controls = g_strnfill (30000, '\x02');

  for (guint i = 1; i < 32; i++)
    controls[i - 1] = (char) i;
  controls[31] = '\0';

  for (guint i = 0; i < G_N_ELEMENTS (strings) + G_N_ELEMENTS (invalid_utf8) + 4; i++)
    {
      WnEvent ev = WN_EVENT_INIT (WN_EV_JOB, WN_PH_REPORT_REJECTED);
      const char *flows[] = { NULL, "b", NULL };
      const char *text;
      gboolean valid;

      if (i < G_N_ELEMENTS (strings))
        text = strings[i];
      else if (i < G_N_ELEMENTS (strings) + G_N_ELEMENTS (invalid_utf8))
        text = invalid_utf8[i - G_N_ELEMENTS (strings)];
      else
        text = (const char *[]) { controls, long_plain, long_quotes, long_controls }[i - G_N_ELEMENTS (strings) -
                                                                                      G_N_ELEMENTS (invalid_utf8)];
      valid = g_utf8_validate (text, -1, NULL);
      flows[0] = text;
      ev.seq = i;
      ev.instance = ev.node = ev.track = ev.job = ev.topic = ev.worker = ev.code = ev.error = ev.action = text;
      ev.scope = text;
      ev.flows = flows;
      assert_same_json (&ev, NULL);
      assert_same_json (&ev, "prefix ");
      if (valid)
        assert_round_trip (&ev);
    }
}

static void
test_json_numbers (void)
{
  const guint64 unsigned_values[] = {
    0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 9999, 10000, 99999, 100000, 999999, 1000000,
    12345678, 123456789, 4294967295u, 4294967296u, G_GUINT64_CONSTANT (999999999999999999),
    G_GUINT64_CONSTANT (1000000000000000000), G_GUINT64_CONSTANT (9999999999999999999),
    G_GUINT64_CONSTANT (10000000000000000000), G_MAXINT64, (guint64) G_MAXINT64 + 1, G_MAXUINT64,
  };
  const gint64 signed_values[] = { G_MININT64, G_MININT64 + 1, -1000000, -100, -10, -9, -1, 0, 1, G_MAXINT64 };
  const char *statuses[] = {
    "0.1", "-0.0", "3.0", "1e300", "-2.5e-308", "123456789012345678", "-9223372036854775808",
    "\"a\\\"b\\\\c\\u0001\\u00e9\\u2028\"", "[1,2.5,true,false,null,{\"k\\\"\":\"v\\n\"}]",
    "{\"a\":{\"b\":[{}]},\"\\u00e9\":\"\\ud83d\\ude00\"}", "[]", "{}", "null",
  };

  for (guint i = 0; i < G_N_ELEMENTS (unsigned_values); i++)
    for (guint j = 0; j < G_N_ELEMENTS (signed_values); j++)
      {
        WnEvent ev = WN_EVENT_INIT (WN_EV_JOB, WN_PH_RETRY_SCHEDULED);

        ev.seq = unsigned_values[i];
        ev.t_us = signed_values[j];
        ev.attempt = (guint) MIN (unsigned_values[i], G_MAXUINT);
        ev.attempts = (guint) (unsigned_values[i] & G_MAXUINT);
        ev.backoff_us = signed_values[j];
        ev.not_before_us = (gint64) (unsigned_values[i] & G_MAXINT64);
        ev.deadline_us = signed_values[(j + 3) % G_N_ELEMENTS (signed_values)];
        assert_same_json (&ev, NULL);
      }
  for (guint i = 0; i < G_N_ELEMENTS (statuses); i++)
    {
      WnEvent ev = WN_EVENT_INIT (WN_EV_JOB, WN_PH_STATUS);
      g_autoptr(JsonNode) status = wn_test_json (statuses[i]);

      ev.status = status;
      ev.code = "x\"y";
      ev.error = "after the status";
      assert_same_json (&ev, NULL);
    }
}

static void
test_json_every_kind (void)
{
  for (guint k = 0; k < WN_EV_N_KINDS; k++)
    for (guint p = 0; p < WN_PH_N_PHASES; p++)
      for (guint t = WN_TRUST_UNSET; t <= WN_TRUST_ENGINE_AUTHORITATIVE; t++)
        {
          WnEvent ev = WN_EVENT_INIT (k, p);

          ev.trust = t;
          ev.instance = "i1";
          assert_same_json (&ev, NULL);
        }
}

/* A string of random bytes (1 … 255, any encoding) and random length, often
 * short as ids are, sometimes long enough to make the buffer grow mid-string. */
static char *
random_string (void)
{
  guint len;
  char *text;

  switch (g_test_rand_int_range (0, 8))
    {
    case 0: len = 0; break;
    case 1: len = (guint) g_test_rand_int_range (400, 1600); break;
    default: len = (guint) g_test_rand_int_range (1, 24); break;
    }
  text = g_malloc (len + 1);
  for (guint i = 0; i < len; i++)
    {
      /* mostly printable, then everything else */
      int r = g_test_rand_int_range (0, 10);

      text[i] = (char) (r < 7 ? g_test_rand_int_range (0x20, 0x7f) : g_test_rand_int_range (1, 256));
    }
  text[len] = '\0';
  return text;
}

static gint64
random_time (void)
{
  switch (g_test_rand_int_range (0, 4))
    {
    case 0: return -1;   /* absent */
    case 1: return g_test_rand_int_range (0, 10);
    case 2: return g_test_rand_int_range (0, G_MAXINT32);
    default: return (gint64) (((guint64) (guint32) g_test_rand_int () << 32) ^ (guint32) g_test_rand_int ());
    }
}

/* Many random events into one growing GString, as a subscriber writes them. */
static void
test_json_random (void)
{
  g_autoptr(GString) fast = g_string_new (NULL);
  g_autoptr(GString) ref = g_string_new (NULL);

  for (guint n = 0; n < 3000; n++)
    {
      WnEvent ev = WN_EVENT_INIT ((WnEventKind) g_test_rand_int_range (0, WN_EV_N_KINDS),
                                  (WnEventPhase) g_test_rand_int_range (0, WN_PH_N_PHASES));
      g_autoptr(GPtrArray) owned = g_ptr_array_new_with_free_func (g_free);
      const char **fields[] = { &ev.instance, &ev.node, &ev.track, &ev.job, &ev.topic, &ev.worker,
                                &ev.code, &ev.error, &ev.action, &ev.scope };
      const char *flows[4] = { NULL };

      ev.seq = ((guint64) g_test_rand_int () << 32) ^ g_test_rand_int () ^ n;
      ev.t_us = random_time ();
      for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
        if (g_test_rand_bit ())
          {
            char *text = random_string ();

            g_ptr_array_add (owned, text);
            *fields[i] = text;
          }
      ev.attempt = g_test_rand_bit () ? 0 : (guint) g_test_rand_int ();
      ev.attempts = g_test_rand_bit () ? 0 : (guint) g_test_rand_int_range (1, 100);
      ev.loop = g_test_rand_bit () ? 0 : (guint) g_test_rand_int ();
      ev.backoff_us = random_time ();
      ev.not_before_us = random_time ();
      ev.deadline_us = random_time ();
      ev.trust = (WnTrust) g_test_rand_int_range (WN_TRUST_UNSET, WN_TRUST_ENGINE_AUTHORITATIVE + 1);
      if (g_test_rand_int_range (0, 4) == 0)
        {
          guint n_flows = (guint) g_test_rand_int_range (0, 4);

          for (guint i = 0; i < n_flows; i++)
            {
              char *text = random_string ();

              g_ptr_array_add (owned, text);
              flows[i] = text;
            }
          ev.flows = flows;
        }
      wn_event_append_json (&ev, fast);
      ref_append_json (&ev, ref);
      g_assert_cmpuint (fast->len, ==, ref->len);
      /* the line just written, not only the total: a difference says which event */
      if (memcmp (fast->str, ref->str, ref->len) != 0)
        g_assert_cmpstr (fast->str, ==, ref->str);
    }
  g_assert_cmpuint (strlen (fast->str), ==, fast->len);
}

/* Commit `output` (on `path` in the temporary `dir`), check it holds
 * `expected`, and remove both. */
static void
assert_written (WnOutput   *output,
                const char *dir,
                const char *path,
                const char *expected)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *written = NULL;

  g_assert_true (wn_output_commit (output, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &written, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (written, ==, expected);
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* Lines written through a WnOutput, which carries seq and t_us from line to
 * line as text: carries (9 → 10, 1199 → 1200, 12399999 → 12400000, 999 →
 * 1000), gaps, a time that stays or goes back. */
static void
test_json_output_lines (void)
{
  g_autofree char *dir = g_dir_make_tmp ("wn-journal-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "journal.jsonl", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(WnOutput) output = wn_output_open (path, &error);
  g_autoptr(GString) expected = g_string_new (NULL);
  const guint64 starts[] = { 1, 95, 1190, 9990, 12399990, 99999995, G_GUINT64_CONSTANT (9999999999999999990) };
  const gint64 times[] = { 0, 0, 7, 7, 7, 1000000, -5, -5, G_MAXINT64, G_MAXINT64, 7, 0 };
  guint n = 0;

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (starts); i++)
    for (guint64 seq = starts[i]; seq < starts[i] + 20; seq++)
      {
        WnEvent ev = WN_EVENT_INIT (WN_EV_NODE, WN_PH_ENTERED);

        ev.seq = seq;
        ev.t_us = times[n++ % G_N_ELEMENTS (times)];
        ev.instance = "i1";
        g_assert_true (wn_output_write_event (output, &ev));
        ref_append_json (&ev, expected);
      }
  assert_written (output, dir, path, expected->str);
}

/* A random plain string (WnEvent.plain_len: no '"', '\\' or byte below
 * 0x20; non-ASCII bytes are plain), mostly id-sized, up to 255 bytes. */
static char *
random_plain_string (void)
{
  guint len = g_test_rand_int_range (0, 6) == 0 ? (guint) g_test_rand_int_range (17, 256)
                                                 : (guint) g_test_rand_int_range (1, 17);
  char *text = g_malloc (len + 1);

  for (guint i = 0; i < len; i++)
    {
      char c;

      do
        c = (char) g_test_rand_int_range (0x20, 256);
      while (c == '"' || c == '\\');
      text[i] = c;
    }
  text[len] = '\0';
  return text;
}

/* Strings that come with their plain length are written as the ones the
 * writer reads and escapes; a length short of the string's end is not
 * believed, whatever the string holds. Every length 1 … 16 (the writer copies
 * those in fixed-size moves), longer ones, and through a WnOutput. */
static void
test_json_plain_lengths (void)
{
  g_autoptr(GString) fast = g_string_new (NULL);
  g_autoptr(GString) ref = g_string_new (NULL);
  g_autoptr(GString) lines = g_string_new (NULL);
  g_autofree char *dir = g_dir_make_tmp ("wn-journal-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "journal.jsonl", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(WnOutput) output = wn_output_open (path, &error);

  g_assert_no_error (error);
  for (guint n = 0; n < 3000; n++)
    {
      WnEvent ev = WN_EVENT_INIT (WN_EV_JOB, (WnEventPhase) g_test_rand_int_range (0, WN_PH_N_PHASES));
      g_autoptr(GPtrArray) owned = g_ptr_array_new_with_free_func (g_free);
      const char **fields[WN_PLAIN_N] = { &ev.instance, &ev.node, &ev.track, &ev.job, &ev.topic, &ev.worker };

      ev.seq = n + 1;
      ev.attempt = (guint) g_test_rand_int_range (0, 3);
      ev.trust = (WnTrust) g_test_rand_int_range (WN_TRUST_UNSET, WN_TRUST_ENGINE_AUTHORITATIVE + 1);
      for (guint i = 0; i < WN_PLAIN_N; i++)
        {
          char *text;

          if (g_test_rand_int_range (0, 5) == 0)
            continue;   /* absent */
          switch (g_test_rand_int_range (0, 4))
            {
            case 0:   /* not plain, or not known: no length */
              text = random_string ();
              break;
            case 1:   /* a length short of the end, on any string */
              text = g_test_rand_bit () ? random_string () : random_plain_string ();
              if (strlen (text) > 1)
                ev.plain_len[i] = (guint8) g_test_rand_int_range (1, MIN ((int) strlen (text), 256));
              break;
            default:  /* plain, and its length */
              text = random_plain_string ();
              ev.plain_len[i] = (guint8) strlen (text);
              break;
            }
          if (n < 16 && i == WN_PLAIN_NODE)
            {
              /* each short length once for sure */
              g_free (text);
              text = g_strnfill (n + 1, 'a' + (char) n);
              ev.plain_len[i] = (guint8) (n + 1);
            }
          g_ptr_array_add (owned, text);
          *fields[i] = text;
        }
      wn_event_append_json (&ev, fast);
      ref_append_json (&ev, ref);
      g_assert_cmpuint (fast->len, ==, ref->len);
      if (memcmp (fast->str, ref->str, ref->len) != 0)
        g_assert_cmpstr (fast->str, ==, ref->str);
      g_assert_true (wn_output_write_event (output, &ev));
    }
  assert_written (output, dir, path, ref->str);
}

static void
plain_lengths_cb (const WnEvent *event,
                  gpointer       data)
{
  guint *given = data;
  const char *fields[WN_PLAIN_N] = { event->instance, event->node, event->track, event->job,
                                     event->topic, event->worker };

  for (guint i = 0; i < WN_PLAIN_N; i++)
    {
      if (event->plain_len[i] == 0)
        continue;
      g_assert_nonnull (fields[i]);
      g_assert_cmpuint (strlen (fields[i]), ==, event->plain_len[i]);
      g_assert_null (strpbrk (fields[i], "\"\\"));
      given[i]++;
    }
}

/* The engine gives the plain length of the strings its events name most
 * (the lengths are right, and given for ids, node ids, topics and worker
 * names it checked), so the writer copies them instead of reading them byte
 * by byte. */
static void
test_engine_plain_lengths (void)
{
  static const char process_json[] =
    "{ \"format\": \"winnow.process/1\", \"id\": \"p\","
    "  \"nodes\": ["
    "    { \"id\": \"start\", \"type\": \"startEvent\" },"
    "    { \"id\": \"work\", \"type\": \"serviceTask\", \"worker\": { \"topic\": \"the.topic\" } },"
    "    { \"id\": \"done\", \"type\": \"endEvent\" } ],"
    "  \"flows\": [ { \"id\": \"f1\", \"from\": \"start\", \"to\": \"work\" },"
    "               { \"id\": \"f2\", \"from\": \"work\", \"to\": \"done\" } ],"
    "  \"scenario\": { \"workers\": [ { \"id\": \"w-1\", \"topic\": \"the.topic\","
    "                                  \"responses\": [ { \"complete\": {} } ] } ] } }";
  g_autoptr(GError) error = NULL;
  g_autoptr(WnProcess) process = wn_load_process_data (process_json, -1, "plain.process.json", NULL, &error);
  WnEngineOptions options = { 0 };
  g_autoptr(WnEngine) engine = NULL;
  guint given[WN_PLAIN_N] = { 0 };

  g_assert_no_error (error);
  options.instances = 20;
  engine = wn_engine_new (process, NULL, &options);
  wn_journal_subscribe (wn_engine_get_journal (engine), plain_lengths_cb, given, NULL);
  wn_engine_run (engine, WN_TIME_NEVER);
  /* 20 instances: created and completed; 7 node events, 4 job events */
  g_assert_cmpuint (given[WN_PLAIN_INSTANCE], ==, 20 * 13);
  g_assert_cmpuint (given[WN_PLAIN_NODE], ==, 20 * 11);
  g_assert_cmpuint (given[WN_PLAIN_TRACK], ==, 20 * 7);
  g_assert_cmpuint (given[WN_PLAIN_JOB], ==, 20 * 5);
  g_assert_cmpuint (given[WN_PLAIN_TOPIC], ==, 20 * 5);
  g_assert_cmpuint (given[WN_PLAIN_WORKER], ==, 20 * 3);
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
  g_test_add_func ("/engine/Journal/json-escapes", test_json_escapes);
  g_test_add_func ("/engine/Journal/json-numbers", test_json_numbers);
  g_test_add_func ("/engine/Journal/json-every-kind", test_json_every_kind);
  g_test_add_func ("/engine/Journal/json-random", test_json_random);
  g_test_add_func ("/engine/Journal/json-output-lines", test_json_output_lines);
  g_test_add_func ("/engine/Journal/json-plain-lengths", test_json_plain_lengths);
  g_test_add_func ("/engine/Journal/engine-plain-lengths", test_engine_plain_lengths);
  g_test_add_func ("/engine/Journal/text-line", test_text_line);
  g_test_add_func ("/engine/Journal/names", test_names);

  return g_test_run ();
}
