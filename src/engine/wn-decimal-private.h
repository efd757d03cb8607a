/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-decimal-private.h — the decimal writer the engine's ids, the journal and
 * the loader's paths share. */
#pragma once

#ifndef WINNOW_COMPILATION
# error "wn-decimal-private.h is internal to the engine: include winnow.h"
#endif

#include <glib.h>

G_BEGIN_DECLS

/* Room for a guint64 in decimal (20 digits), as _wn_format_decimal() writes it. */
#define WN_DECIMAL_SIZE 24

/* Writes `n` in decimal at the start of `out`, without a terminator, and
 * returns the number of digits. Ids and the journal's numbers are written for
 * every event, so they skip printf. */
static inline gsize
_wn_format_decimal (char    out[WN_DECIMAL_SIZE],
                    guint64 n)
{
  gsize len = 1;

  for (guint64 rest = n / 10; rest > 0; rest /= 10)
    len++;
  for (char *p = out + len; p > out; n /= 10)
    *--p = (char) ('0' + n % 10);
  return len;
}

G_END_DECLS
