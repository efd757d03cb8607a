/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Durations: parsing (Go style, ISO-8601, milliseconds), errors, formatting. */
#include "wn-test-util.h"
#include <string.h>

#define MS(x)  ((WnTime) (x) * WN_USEC_PER_MSEC)
#define SEC(x) ((WnTime) (x) * WN_USEC_PER_SEC)

typedef struct {
  const char *text;
  WnTime      expected;
} ParseCase;

static void
check_parse_table (const ParseCase *cases,
                   guint            n_cases)
{
  guint i;

  for (i = 0; i < n_cases; i++)
    {
      g_autoptr(GError) error = NULL;
      WnTime us = -42;
      gboolean ok;

      g_test_message ("parsing “%s”", cases[i].text);
      ok = wn_duration_parse (cases[i].text, &us, &error);
      g_assert_no_error (error);
      g_assert_true (ok);
      g_assert_cmpint (us, ==, cases[i].expected);
    }
}

static void
check_parse_errors (const char * const *texts,
                    WnDurationError     code)
{
  guint i;

  for (i = 0; texts[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;
      WnTime us = -42;

      g_test_message ("parsing “%s”", texts[i]);
      g_assert_false (wn_duration_parse (texts[i], &us, &error));
      g_assert_error (error, WN_DURATION_ERROR, (gint) code);
      g_assert_nonnull (error->message);
      g_assert_cmpint (us, ==, -42);   /* untouched on error */
    }
}

static void
test_parse_go (void)
{
  static const ParseCase cases[] = {
    { "250ms", MS (250) },
    { "2s", SEC (2) },
    { "1m30s", SEC (90) },
    { "1h", SEC (3600) },
    { "10us", 10 },
    { "10\xc2\xb5s", 10 },           /* µs, MICRO SIGN */
    { "10\xce\xbcs", 10 },           /* μs, GREEK SMALL LETTER MU */
    { "1.5s", MS (1500) },
    { ".5s", MS (500) },
    { "5.s", SEC (5) },
    { "0s", 0 },
    { "0.25ms", 250 },
    { "1h2m3s4ms5us", SEC (3723) + MS (4) + 5 },
    { "1s1s", SEC (2) },
    { "1.5h", SEC (5400) },
    { "0.001s", MS (1) },
    { "1.0000001s", SEC (1) },        /* 100ns rounds down */
    { "1500ns", 2 },                 /* 1.5µs rounds half up */
    { "1499ns", 1 },
    { "999ns", 1 },
    { "400ns", 0 },
    { "+2s", SEC (2) },
    { "-0s", 0 },
    /* the longest: 2^63 − 1 µs is WN_TIME_NEVER, which never fires */
    { "9223372036854775806us", WN_TIME_MAX },
    { "2562047788h", (WnTime) 2562047788 * 3600 * WN_USEC_PER_SEC },
    { "2562047788h54.775806s", WN_TIME_MAX },
  };

  check_parse_table (cases, G_N_ELEMENTS (cases));
}

static void
test_parse_iso (void)
{
  static const ParseCase cases[] = {
    { "PT2S", SEC (2) },
    { "PT1M30S", SEC (90) },
    { "PT0.25S", MS (250) },
    { "PT0,25S", MS (250) },
    { "PT1H", SEC (3600) },
    { "PT1H30M", SEC (5400) },
    { "PT1H0M1S", SEC (3601) },
    { "PT1.5H", SEC (5400) },
    { "P1D", SEC (86400) },
    { "P1DT12H", SEC (86400 + 43200) },
    { "P106751991D", G_GINT64_CONSTANT (106751991) * 86400 * WN_USEC_PER_SEC },
    { "pt2s", SEC (2) },
    { "PT0S", 0 },
    { "-PT0S", 0 },
    { "PT0.000001S", 1 },
  };

  check_parse_table (cases, G_N_ELEMENTS (cases));
}

static void
test_parse_millis (void)
{
  static const ParseCase cases[] = {
    { "0", 0 },
    { "250", MS (250) },
    { "1500", MS (1500) },
    { "0.5", 500 },
    { "1.25", 1250 },
    { "+7", MS (7) },
  };

  check_parse_table (cases, G_N_ELEMENTS (cases));
}

static void
test_parse_malformed (void)
{
  static const char * const texts[] = {
    "", "+", "-", "s", "ms", ".", "2x", "1d", "1 s", " 1s", "1s ", "1e3",
    "1.2.3", "1.5.s", "abc", "--1s", "1s-", "1S", "10u", "1m3",
    "P", "PT", "P1DT", "PT1", "PTS", "P1Y", "P1M", "P1W", "P1H", "PT1D",
    "PT30S1M", "PT1H1H", "PT1.5M30S", "PT1HT1M", "PT-1S", "P T1S",
    NULL,
  };

  check_parse_errors (texts, WN_DURATION_ERROR_MALFORMED);
}

static void
test_parse_negative (void)
{
  static const char * const texts[] = {
    "-1s", "-250", "-0.5", "-PT2S", "-1m30s", "-1ns", NULL,
  };

  check_parse_errors (texts, WN_DURATION_ERROR_NEGATIVE);
}

static void
test_parse_overflow (void)
{
  static const char * const texts[] = {
    "9223372036854775807us",         /* WN_TIME_NEVER: a timer that never fires */
    "2562047788h54.775807s",
    "9223372036854775808us",
    "9223372036854775806us1us",
    "2562047789h",
    "99999999999999999999999s",
    "18446744073709551616ns",
    "9223372036854775807",           /* milliseconds */
    "PT2562047789H",
    "P106751992D",
    "2562047788h1h",
    NULL,
  };

  check_parse_errors (texts, WN_DURATION_ERROR_OVERFLOW);
}

/* The refusal names the allowed range. */
static void
test_parse_overflow_message (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) ms = json_node_new (JSON_NODE_VALUE);
  WnTime us;

  g_assert_false (wn_duration_parse ("9223372036854775807us", &us, &error));
  g_assert_error (error, WN_DURATION_ERROR, WN_DURATION_ERROR_OVERFLOW);
  g_assert_cmpstr (error->message, ==,
                   "duration “9223372036854775807us” is too long: the longest is 2562047788h00m54.775806s (2^63 − 2 µs)");
  g_clear_error (&error);
  json_node_set_int (ms, G_GINT64_CONSTANT (9223372036854776));
  g_assert_false (wn_duration_from_json (ms, &us, &error));
  g_assert_error (error, WN_DURATION_ERROR, WN_DURATION_ERROR_OVERFLOW);
  g_assert_nonnull (strstr (error->message, "the longest is 2562047788h00m54.775806s"));
}

static void
test_parse_out_optional (void)
{
  g_autoptr(GError) error = NULL;

  /* Validation only: out may be NULL. */
  g_assert_true (wn_duration_parse ("2s", NULL, &error));
  g_assert_no_error (error);
}

static void
test_from_json (void)
{
  static const struct {
    const char *json;
    WnTime      expected;
  } ok_cases[] = {
    { "250", MS (250) },
    { "0", 0 },
    { "1.5", 1500 },
    { "0.0004", 0 },
    { "\"2s\"", SEC (2) },
    { "\"PT1M30S\"", SEC (90) },
    { "\"250\"", MS (250) },
    { "9223372036854775", MS (G_GINT64_CONSTANT (9223372036854775)) },
  };
  static const struct {
    const char *json;
    WnDurationError code;
  } bad_cases[] = {
    { "-1", WN_DURATION_ERROR_NEGATIVE },
    { "-0.5", WN_DURATION_ERROR_NEGATIVE },
    { "\"-2s\"", WN_DURATION_ERROR_NEGATIVE },
    { "9223372036854776", WN_DURATION_ERROR_OVERFLOW },
    { "1e300", WN_DURATION_ERROR_OVERFLOW },
    { "\"2x\"", WN_DURATION_ERROR_MALFORMED },
    { "true", WN_DURATION_ERROR_MALFORMED },
    { "null", WN_DURATION_ERROR_MALFORMED },
    { "{\"s\": 2}", WN_DURATION_ERROR_MALFORMED },
    { "[2]", WN_DURATION_ERROR_MALFORMED },
  };
  g_autoptr(GError) error = NULL;
  WnTime us = -42;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (ok_cases); i++)
    {
      g_autoptr(JsonNode) node = wn_test_json (ok_cases[i].json);

      g_test_message ("from JSON %s", ok_cases[i].json);
      us = -42;
      g_assert_true (wn_duration_from_json (node, &us, &error));
      g_assert_no_error (error);
      g_assert_cmpint (us, ==, ok_cases[i].expected);
    }

  for (i = 0; i < G_N_ELEMENTS (bad_cases); i++)
    {
      g_autoptr(JsonNode) node = wn_test_json (bad_cases[i].json);

      g_test_message ("from JSON %s", bad_cases[i].json);
      g_assert_false (wn_duration_from_json (node, &us, &error));
      g_assert_error (error, WN_DURATION_ERROR, (gint) bad_cases[i].code);
      g_clear_error (&error);
    }

  /* No node at all. */
  g_assert_false (wn_duration_from_json (NULL, &us, &error));
  g_assert_error (error, WN_DURATION_ERROR, WN_DURATION_ERROR_MALFORMED);
}

static void
test_format (void)
{
  static const struct {
    WnTime      us;
    const char *text;
  } cases[] = {
    { 0, "0s" },
    { 1, "1us" },
    { 10, "10us" },
    { 999, "999us" },
    { MS (1), "1ms" },
    { 1500, "1.5ms" },
    { 1001, "1.001ms" },
    { MS (300), "300ms" },
    { MS (999), "999ms" },
    { SEC (1), "1s" },
    { MS (1250), "1.25s" },
    { SEC (1) + 1, "1.000001s" },
    { MS (59999), "59.999s" },
    { SEC (60), "1m" },
    { SEC (90), "1m30s" },
    { SEC (125), "2m05s" },
    { MS (90500), "1m30.5s" },
    { SEC (3599), "59m59s" },
    { SEC (3600), "1h" },
    { SEC (3720), "1h02m" },
    { SEC (3630), "1h00m30s" },
    { SEC (3723), "1h02m03s" },
    { SEC (90000), "25h" },
    { -MS (1500), "-1.5s" },
    { -SEC (125), "-2m05s" },
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = wn_duration_format (cases[i].us);

      g_assert_cmpstr (text, ==, cases[i].text);
    }
}

static void
test_format_round_trip (void)
{
  static const WnTime values[] = {
    0, 1, 999, 1000, 1001, 123456, 999999, 1000000, 1234567, 59999999,
    60000000, 61000001, 3599999999, G_GINT64_CONSTANT (3600000000),
    G_GINT64_CONSTANT (3600000001), G_GINT64_CONSTANT (86400000000),
    G_GINT64_CONSTANT (123456789012345), WN_TIME_MAX,
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (values); i++)
    {
      g_autofree char *text = wn_duration_format (values[i]);
      g_autoptr(GError) error = NULL;
      WnTime back = -1;

      g_test_message ("%" G_GINT64_FORMAT " → %s", values[i], text);
      g_assert_true (wn_duration_parse (text, &back, &error));
      g_assert_no_error (error);
      g_assert_cmpint (back, ==, values[i]);
    }

  /* The most negative value formats without overflowing. */
  {
    g_autofree char *text = wn_duration_format (G_MININT64);

    g_assert_cmpstr (text, ==, "-2562047788h00m54.775808s");
  }
}

static void
test_format_clock (void)
{
  static const struct {
    WnTime      us;
    const char *text;
  } cases[] = {
    { 0, "T+00:00.000" },
    { MS (1250), "T+00:01.250" },
    { 1999, "T+00:00.001" },          /* truncated to the millisecond */
    { MS (61001), "T+01:01.001" },
    { G_GINT64_CONSTANT (3599999999), "T+59:59.999" },
    { SEC (3600), "T+1:00:00.000" },
    { SEC (3723) + MS (456), "T+1:02:03.456" },
    { SEC (360000), "T+100:00:00.000" },
    { -MS (1250), "T-00:01.250" },
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = wn_time_format_clock (cases[i].us);

      g_assert_cmpstr (text, ==, cases[i].text);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/engine/Duration/parse-go", test_parse_go);
  g_test_add_func ("/engine/Duration/parse-iso", test_parse_iso);
  g_test_add_func ("/engine/Duration/parse-millis", test_parse_millis);
  g_test_add_func ("/engine/Duration/parse-malformed", test_parse_malformed);
  g_test_add_func ("/engine/Duration/parse-negative", test_parse_negative);
  g_test_add_func ("/engine/Duration/parse-overflow", test_parse_overflow);
  g_test_add_func ("/engine/Duration/parse-overflow-message", test_parse_overflow_message);
  g_test_add_func ("/engine/Duration/parse-out-optional", test_parse_out_optional);
  g_test_add_func ("/engine/Duration/from-json", test_from_json);
  g_test_add_func ("/engine/Duration/format", test_format);
  g_test_add_func ("/engine/Duration/format-round-trip", test_format_round_trip);
  g_test_add_func ("/engine/Duration/format-clock", test_format_clock);

  return g_test_run ();
}
