/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-duration.h — durations: Go style ("1m30s"), ISO-8601 ("PT1M30S") or milliseconds. */
#pragma once

#if !defined (WINNOW_INSIDE) && !defined (WINNOW_COMPILATION)
# error "Only winnow.h can be included directly"
#endif

#include <glib.h>
#include <json-glib/json-glib.h>
#include "wn-types.h"

G_BEGIN_DECLS

#define WN_DURATION_ERROR (wn_duration_error_quark ())
GQuark wn_duration_error_quark (void);

typedef enum {
  WN_DURATION_ERROR_MALFORMED,
  WN_DURATION_ERROR_NEGATIVE,
  WN_DURATION_ERROR_OVERFLOW,
} WnDurationError;

/* Parse a duration string into µs. Accepts Go style ("250ms", "1m30s", "10us",
 * "1.5s", "1h"), ISO-8601 ("PT2S", "PT1M30S", "PT0.25S") and a plain number of
 * milliseconds ("250"). */
gboolean  wn_duration_parse       (const char *text, WnTime *out, GError **error);
/* A JSON string (as above) or a JSON number of milliseconds. */
gboolean  wn_duration_from_json   (JsonNode *node, WnTime *out, GError **error);
/* For people: "0s", "10us", "300ms", "1.25s", "2m05s", "1h02m". Exact (parses
 * back to the same value): below 1ms µs; below 1s ms with decimals as needed;
 * below 1min seconds with decimals; then "Mm[SSs]" and "Hh[MMm[SSs]]" with
 * two-digit minutes/seconds and zero tails dropped ("2m", "1h", "1h00m30s");
 * negative values get a leading "-". */
char     *wn_duration_format      (WnTime us);
/* A virtual instant as a clock: "T+00:01.250" (minutes:seconds.millis; hours when ≥ 1h). */
char     *wn_time_format_clock    (WnTime us);

G_END_DECLS
