/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-duration.c — parsing and formatting durations.
 *
 * Parsing (wn_duration_parse):
 *  - Go style: one or more <number><unit> pairs, e.g. "250ms", "1m30s", "1.5s",
 *    "1h", "10us". Units: ns, us, µs (U+00B5), μs (U+03BC), ms, s, m, h. A number
 *    is digits with an optional fraction ("1.5", ".5", "5."). Pairs may repeat and
 *    come in any order, as in Go ("1s1s" = 2s).
 *  - ISO-8601: "P" [n "D"] ["T" [n "H"] [n "M"] [n "S"]], e.g. "PT2S",
 *    "PT1M30S", "PT0.25S", "PT1H", "P1DT12H". Letters in either case; only the
 *    last component may carry a fraction ("." or ","). Years, months and weeks are
 *    refused: their length is not fixed.
 *  - A plain number of milliseconds, "250" or "0.5".
 *  - An optional leading "+"; a leading "-" on an otherwise valid duration
 *    that is not written as zero is WN_DURATION_ERROR_NEGATIVE (also for a
 *    negative one too long to represent). No surrounding whitespace.
 *  - Sub-microsecond parts are rounded to the nearest microsecond (halves up).
 *  - Anything beyond WN_TIME_MAX (2^63 − 2 µs) is WN_DURATION_ERROR_OVERFLOW,
 *    with the longest allowed in the message: 2^63 − 1 µs is WN_TIME_NEVER,
 *    and a timer that long would never fire.
 *
 * Formatting (wn_duration_format) is exact and parses back to the same value:
 *  - 0 → "0s"; below 1ms: "10us"; below 1s: "300ms" or "1.5ms";
 *  - below 1min: seconds with the decimals needed, "1.25s", "59s";
 *  - below 1h: "2m", "2m05s", "2m05.5s" (seconds two digits);
 *  - from 1h: "1h", "1h02m", "1h00m30s", "25h30m" (hours are not split into days);
 *  - negative values get a leading "-".
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "wn-duration.h"

#define USEC_PER_MIN  (60 * WN_USEC_PER_SEC)
#define USEC_PER_HOUR (60 * USEC_PER_MIN)
#define USEC_PER_DAY  (24 * USEC_PER_HOUR)

G_DEFINE_QUARK (wn-duration-error-quark, wn_duration_error)

/* Accumulates a duration as whole µs plus a sub-µs remainder in ns. */
typedef struct {
  guint64 us;
  guint64 sub_ns;
  gboolean overflow;
  gboolean nonzero;    /* some digit written is not 0 */
} Accum;

static void
accum_add_us (Accum  *acc,
              guint64 us)
{
  if (acc->overflow)
    return;
  if (us > (guint64) WN_TIME_MAX - acc->us)
    acc->overflow = TRUE;
  else
    acc->us += us;
}

static void
set_too_long (GError    **error,
              const char *what)
{
  g_autofree char *longest = wn_duration_format (WN_TIME_MAX);

  g_set_error (error, WN_DURATION_ERROR, WN_DURATION_ERROR_OVERFLOW,
               "duration %s is too long: the longest is %s (2^63 − 2 µs)", what, longest);
}

static void
accum_add_ns (Accum  *acc,
              guint64 ns)
{
  accum_add_us (acc, ns / 1000);
  acc->sub_ns += ns % 1000;
  if (acc->sub_ns >= 1000)
    {
      accum_add_us (acc, acc->sub_ns / 1000);
      acc->sub_ns %= 1000;
    }
}

static gboolean
accum_finish (Accum   *acc,
              guint64 *out)
{
  if (acc->sub_ns >= 500)
    accum_add_us (acc, 1);
  if (acc->overflow)
    return FALSE;
  *out = acc->us;
  return TRUE;
}

/* A decimal number as written: integer digits and fraction digits. */
typedef struct {
  const char *int_digits;
  gsize       n_int;
  const char *frac_digits;
  gsize       n_frac;
} Number;

/* Scan digits [. digits] at *p (with `,` also accepted as the separator when
 * allow_comma). At least one digit overall. */
static gboolean
scan_number (const char **p,
             gboolean     allow_comma,
             Number      *num)
{
  const char *s = *p;

  num->int_digits = s;
  while (g_ascii_isdigit (*s))
    s++;
  num->n_int = s - num->int_digits;
  num->frac_digits = s;
  num->n_frac = 0;
  if (*s == '.' || (allow_comma && *s == ','))
    {
      s++;
      num->frac_digits = s;
      while (g_ascii_isdigit (*s))
        s++;
      num->n_frac = s - num->frac_digits;
    }
  if (num->n_int == 0 && num->n_frac == 0)
    return FALSE;
  *p = s;
  return TRUE;
}

/* Add num × (unit_ns nanoseconds) to acc. unit_ns ≥ 1. */
static void
accum_add_number (Accum        *acc,
                  const Number *num,
                  guint64       unit_ns)
{
  guint64 whole = 0;
  guint64 scale = unit_ns;
  gsize i;

  for (i = 0; i < num->n_int && !acc->nonzero; i++)
    acc->nonzero = num->int_digits[i] != '0';
  for (i = 0; i < num->n_frac && !acc->nonzero; i++)
    acc->nonzero = num->frac_digits[i] != '0';

  for (i = 0; i < num->n_int; i++)
    {
      guint digit = num->int_digits[i] - '0';

      if (whole > (G_MAXUINT64 - digit) / 10)
        {
          acc->overflow = TRUE;
          return;
        }
      whole = whole * 10 + digit;
    }

  if (unit_ns % 1000 == 0)
    {
      guint64 unit_us = unit_ns / 1000;

      if (whole != 0 && whole > (guint64) G_MAXINT64 / unit_us)
        acc->overflow = TRUE;
      else
        accum_add_us (acc, whole * unit_us);
    }
  else
    {
      /* nanoseconds (unit_ns == 1): no multiplication needed */
      accum_add_ns (acc, whole * unit_ns);
    }

  /* The fraction, digit by digit: each digit is worth unit/10^k. unit_ns is at
   * most a day (8.64e13 ns), so every product fits. */
  for (i = 0; i < num->n_frac && scale > 0; i++)
    {
      guint digit = num->frac_digits[i] - '0';

      scale /= 10;
      accum_add_ns (acc, digit * scale);
    }
}

typedef struct {
  const char *name;
  gsize       len;
  guint64     unit_ns;
} GoUnit;

/* Longest names first where one is a prefix of another ("ms" before "m"). */
static const GoUnit go_units[] = {
  { "ns", 2, 1 },
  { "us", 2, 1000 },
  { "\xc2\xb5s", 3, 1000 },   /* µs, MICRO SIGN */
  { "\xce\xbcs", 3, 1000 },   /* μs, GREEK SMALL LETTER MU */
  { "ms", 2, 1000000 },
  { "s", 1, G_GUINT64_CONSTANT (1000000000) },
  { "m", 1, G_GUINT64_CONSTANT (60000000000) },
  { "h", 1, G_GUINT64_CONSTANT (3600000000000) },
};

static gboolean
parse_go (const char *s,
          Accum      *acc)
{
  while (*s != '\0')
    {
      Number num;
      const GoUnit *unit = NULL;
      guint i;

      if (!scan_number (&s, FALSE, &num))
        return FALSE;
      for (i = 0; i < G_N_ELEMENTS (go_units); i++)
        {
          if (strncmp (s, go_units[i].name, go_units[i].len) == 0)
            {
              unit = &go_units[i];
              break;
            }
        }
      if (unit == NULL)
        return FALSE;
      s += unit->len;
      accum_add_number (acc, &num, unit->unit_ns);
    }
  return TRUE;
}

static gboolean
parse_iso (const char *s,
           Accum      *acc)
{
  /* Designators in the order they may appear; `rank` enforces that order. */
  gboolean in_time = FALSE;
  gboolean any = FALSE;
  gboolean had_fraction = FALSE;
  int rank = 0;

  g_assert (*s == 'P' || *s == 'p');
  s++;

  while (*s != '\0')
    {
      Number num;
      char designator;
      guint64 unit_ns;
      int this_rank;

      if (*s == 'T' || *s == 't')
        {
          if (in_time)
            return FALSE;
          in_time = TRUE;
          s++;
          if (*s == '\0')
            return FALSE;     /* "PT" or "P1DT" with nothing after */
          continue;
        }

      if (had_fraction)
        return FALSE;          /* only the last component may have a fraction */
      if (!scan_number (&s, TRUE, &num))
        return FALSE;
      designator = g_ascii_toupper (*s);
      if (designator == '\0')
        return FALSE;
      s++;

      if (!in_time && designator == 'D')
        {
          unit_ns = (guint64) USEC_PER_DAY * 1000;
          this_rank = 1;
        }
      else if (in_time && designator == 'H')
        {
          unit_ns = (guint64) USEC_PER_HOUR * 1000;
          this_rank = 2;
        }
      else if (in_time && designator == 'M')
        {
          unit_ns = (guint64) USEC_PER_MIN * 1000;
          this_rank = 3;
        }
      else if (in_time && designator == 'S')
        {
          unit_ns = (guint64) WN_USEC_PER_SEC * 1000;
          this_rank = 4;
        }
      else
        {
          return FALSE;          /* Y, W, month M, or junk */
        }

      if (this_rank <= rank)
        return FALSE;
      rank = this_rank;
      any = TRUE;
      had_fraction = num.n_frac > 0;
      accum_add_number (acc, &num, unit_ns);
    }

  return any;
}

static gboolean
parse_plain_ms (const char *s,
                Accum      *acc)
{
  Number num;

  if (!scan_number (&s, FALSE, &num) || *s != '\0')
    return FALSE;
  accum_add_number (acc, &num, 1000000);
  return TRUE;
}

static gboolean
is_plain_number (const char *s)
{
  for (; *s != '\0'; s++)
    if (!g_ascii_isdigit (*s) && *s != '.')
      return FALSE;
  return TRUE;
}

static void
set_malformed (GError    **error,
               const char *text)
{
  g_set_error (error, WN_DURATION_ERROR, WN_DURATION_ERROR_MALFORMED,
               "“%s” is not a duration (expected e.g. “250ms”, “1m30s”, “PT2S” "
               "or a number of milliseconds)", text);
}

gboolean
wn_duration_parse (const char *text,
                   WnTime     *out,
                   GError    **error)
{
  const char *s;
  gboolean negative = FALSE;
  gboolean ok;
  Accum acc = { 0, 0, FALSE, FALSE };
  guint64 us;

  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  s = text;
  if (*s == '-' || *s == '+')
    {
      negative = *s == '-';
      s++;
    }

  if (*s == '\0')
    ok = FALSE;
  else if (*s == 'P' || *s == 'p')
    ok = parse_iso (s, &acc);
  else if (is_plain_number (s))
    ok = parse_plain_ms (s, &acc);
  else
    ok = parse_go (s, &acc);

  if (!ok)
    {
      set_malformed (error, text);
      return FALSE;
    }

  /* "-0s" is zero; "-1ns" is negative even though it rounds to 0µs. */
  if (negative && acc.nonzero)
    {
      g_set_error (error, WN_DURATION_ERROR, WN_DURATION_ERROR_NEGATIVE,
                   "duration “%s” is negative", text);
      return FALSE;
    }

  if (!accum_finish (&acc, &us))
    {
      g_autofree char *what = g_strdup_printf ("“%s”", text);

      set_too_long (error, what);
      return FALSE;
    }

  if (out != NULL)
    *out = (WnTime) us;
  return TRUE;
}

gboolean
wn_duration_from_json (JsonNode *node,
                       WnTime   *out,
                       GError  **error)
{
  GType type;

  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    {
      g_set_error (error, WN_DURATION_ERROR, WN_DURATION_ERROR_MALFORMED,
                   "expected a duration string (e.g. “250ms”, “PT2S”) "
                   "or a number of milliseconds");
      return FALSE;
    }

  type = json_node_get_value_type (node);
  if (type == G_TYPE_STRING)
    return wn_duration_parse (json_node_get_string (node), out, error);

  if (type == G_TYPE_INT64)
    {
      gint64 ms = json_node_get_int (node);

      if (ms < 0)
        {
          g_set_error (error, WN_DURATION_ERROR, WN_DURATION_ERROR_NEGATIVE,
                       "duration %" G_GINT64_FORMAT "ms is negative", ms);
          return FALSE;
        }
      if (ms > WN_TIME_MAX / WN_USEC_PER_MSEC)
        {
          g_autofree char *what = g_strdup_printf ("%" G_GINT64_FORMAT "ms", ms);

          set_too_long (error, what);
          return FALSE;
        }
      if (out != NULL)
        *out = ms * WN_USEC_PER_MSEC;
      return TRUE;
    }

  if (type == G_TYPE_DOUBLE)
    {
      double ms = json_node_get_double (node);
      double us;

      if (isnan (ms))
        {
          g_set_error (error, WN_DURATION_ERROR, WN_DURATION_ERROR_MALFORMED,
                       "duration is not a number");
          return FALSE;
        }
      if (ms < 0)
        {
          g_set_error (error, WN_DURATION_ERROR, WN_DURATION_ERROR_NEGATIVE,
                       "duration %gms is negative", ms);
          return FALSE;
        }
      us = round (ms * 1000.0);
      /* 2^63 is the first double that does not fit; the one below it,
       * 2^63 − 1024, is within WN_TIME_MAX. */
      if (us >= 9223372036854775808.0)
        {
          g_autofree char *what = g_strdup_printf ("%gms", ms);

          set_too_long (error, what);
          return FALSE;
        }
      if (out != NULL)
        *out = (WnTime) us;
      return TRUE;
    }

  g_set_error (error, WN_DURATION_ERROR, WN_DURATION_ERROR_MALFORMED,
               "expected a duration string (e.g. “250ms”, “PT2S”) "
               "or a number of milliseconds");
  return FALSE;
}

/* Append ".ddd" for a fraction `frac` of `scale` (scale a power of ten),
 * without trailing zeros; nothing when frac is 0. */
static void
append_fraction (GString *str,
                 guint64  frac,
                 guint64  scale)
{
  if (frac == 0)
    return;

  g_string_append_c (str, '.');
  while (frac != 0)
    {
      scale /= 10;
      g_string_append_c (str, (char) ('0' + frac / scale));
      frac %= scale;
    }
}

char *
wn_duration_format (WnTime us)
{
  GString *str = g_string_new (NULL);
  guint64 v;

  if (us < 0)
    {
      g_string_append_c (str, '-');
      v = (guint64) (-(us + 1)) + 1;   /* safe for G_MININT64 */
    }
  else
    {
      v = (guint64) us;
    }

  if (v == 0)
    {
      g_string_append (str, "0s");
    }
  else if (v < (guint64) WN_USEC_PER_MSEC)
    {
      g_string_append_printf (str, "%" G_GUINT64_FORMAT "us", v);
    }
  else if (v < (guint64) WN_USEC_PER_SEC)
    {
      g_string_append_printf (str, "%" G_GUINT64_FORMAT, v / WN_USEC_PER_MSEC);
      append_fraction (str, v % WN_USEC_PER_MSEC, WN_USEC_PER_MSEC);
      g_string_append (str, "ms");
    }
  else if (v < (guint64) USEC_PER_MIN)
    {
      g_string_append_printf (str, "%" G_GUINT64_FORMAT, v / WN_USEC_PER_SEC);
      append_fraction (str, v % WN_USEC_PER_SEC, WN_USEC_PER_SEC);
      g_string_append_c (str, 's');
    }
  else
    {
      guint64 hours = v / USEC_PER_HOUR;
      guint64 minutes = (v % USEC_PER_HOUR) / USEC_PER_MIN;
      guint64 rest = v % USEC_PER_MIN;   /* seconds and below, in µs */

      if (hours > 0)
        {
          g_string_append_printf (str, "%" G_GUINT64_FORMAT "h", hours);
          if (minutes > 0 || rest > 0)
            g_string_append_printf (str, "%02" G_GUINT64_FORMAT "m", minutes);
        }
      else
        {
          g_string_append_printf (str, "%" G_GUINT64_FORMAT "m", minutes);
        }

      if (rest > 0)
        {
          g_string_append_printf (str, "%02" G_GUINT64_FORMAT, rest / WN_USEC_PER_SEC);
          append_fraction (str, rest % WN_USEC_PER_SEC, WN_USEC_PER_SEC);
          g_string_append_c (str, 's');
        }
    }

  return g_string_free (str, FALSE);
}

char *
wn_time_format_clock (WnTime us)
{
  const char *sign = "+";
  guint64 v;
  guint64 ms;
  guint64 hours;
  guint minutes;
  guint seconds;
  guint millis;

  if (us < 0)
    {
      sign = "-";
      v = (guint64) (-(us + 1)) + 1;
    }
  else
    {
      v = (guint64) us;
    }

  /* Truncated to the millisecond (toward zero). */
  ms = v / WN_USEC_PER_MSEC;
  millis = ms % 1000;
  seconds = (ms / 1000) % 60;
  minutes = (ms / 60000) % 60;
  hours = ms / 3600000;

  if (hours > 0)
    return g_strdup_printf ("T%s%" G_GUINT64_FORMAT ":%02u:%02u.%03u",
                            sign, hours, minutes, seconds, millis);
  return g_strdup_printf ("T%s%02u:%02u.%03u", sign, minutes, seconds, millis);
}
