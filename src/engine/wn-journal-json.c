/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-journal-json.c — an event as one JSON line (journal-and-cli.md:
 * `{"seq":17,"t_us":1250000,"kind":"job",…}\n`, keys in the journal's order,
 * absent values omitted).
 *
 * This runs for every event of every journalled run, so it is written for
 * speed (docs/performance.md, "Cheap journal"):
 *
 * - Bytes go straight into the GString's buffer through a cursor. Room is
 *   checked once per event (RESERVE bytes) and by each string every eight
 *   bytes, never per fixed piece: every piece written between two strings is
 *   far smaller than RESERVE, and a string returns with most of RESERVE left.
 * - What every line repeats is a constant: each key with its punctuation
 *   (`,"instance":"`) is a literal copied with a compile-time length; each
 *   kind and phase with its key (`,"phase":"retryScheduled"`), and each trust
 *   mode, is a Fragment copied as one fixed-size block (a few moves, no
 *   length loop) after which the cursor advances by the fragment's length.
 * - Numbers are written two digits at a time; strings are scanned once, with
 *   a table of the bytes that need escaping.
 * - No allocation, no printf, no JSON generator: only a status body (a job's
 *   status report, rare) goes through json-glib, as before.
 *
 * The bytes are exactly those of the generic writer this replaced
 * (tests/engine/test-journal.c keeps that writer as its reference and compares
 * the two on edge cases and random events).
 *
 * Adding an event:
 * - A new kind or phase: its enum value in wn-journal.h and its name in
 *   WN_EVENT_KIND_NAMES / WN_EVENT_PHASE_NAMES (wn-journal-private.h), at the
 *   same place; its fragment here is built from that list. Nothing else.
 * - A new field: in WnEvent and WN_EVENT_INIT (wn-journal.h, absent = NULL, 0
 *   or -1 as for its neighbours), in wn_event_copy()/wn_event_free(), then one
 *   line below at its place in the journal's key order: STRING_FIELD for a
 *   string, INT_FIELD for a number (with its absence test), and the same in
 *   the reference writer of tests/engine/test-journal.c and in its random
 *   events. A field with many distinct values per run needs nothing more; one
 *   that takes a few fixed values (as trust) can be a Fragment table.
 * - The readable trace (wn_event_append_text(), wn-journal.c) and the app's
 *   record (src/app/winnow-journal.c) list the fields too.
 */
#include "config.h"

#include <string.h>

#include "wn-journal-private.h"

/* Room made at the start of an event and kept by every string (less the 56
 * bytes a string may write past its last look): more than all the fixed
 * pieces between two strings (at most five numbers with their keys, about 200
 * bytes) with the overrun of a fixed-size copy. */
#define RESERVE 512

/* Fragments are copied whole: FRAGMENT_SIZE bytes, whatever their length. */
#define FRAGMENT_SIZE 48

typedef struct {
  char  text[FRAGMENT_SIZE];
  gsize len;
} Fragment;

#define FRAGMENT(literal) { literal, sizeof (literal) - 1 },
#define KIND_FRAGMENT(name) FRAGMENT (",\"kind\":\"" name "\"")
#define PHASE_FRAGMENT(name) FRAGMENT (",\"phase\":\"" name "\"")

static const Fragment kind_fragments[] = { WN_EVENT_KIND_NAMES (KIND_FRAGMENT) };
static const Fragment phase_fragments[] = { WN_EVENT_PHASE_NAMES (PHASE_FRAGMENT) };
G_STATIC_ASSERT (G_N_ELEMENTS (kind_fragments) == WN_EV_N_KINDS);
G_STATIC_ASSERT (G_N_ELEMENTS (phase_fragments) == WN_PH_N_PHASES);

static const Fragment trust_fragments[] = {
  FRAGMENT (",\"trust\":\"workerTrusted\"")
  FRAGMENT (",\"trust\":\"engineAuthoritative\"")
};

/* 1 for the bytes a JSON string cannot hold as they are, and for the terminator. */
static const guint8 needs_escape[256] = {
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  0, 0, 1 /* " */, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 /* \ */, 0, 0, 0,
  /* the rest, 0x60 … 0xff (non-ASCII bytes go as they are), are 0 */
};

static const char digit_pairs[] =
  "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
  "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
  "8081828384858687888990919293949596979899";

/* ---- the cursor ---- */

typedef struct {
  GString *out;
  char    *p;     /* where the next byte goes, in out->str */
  char    *end;   /* the last byte of the allocation, kept for the terminator */
} Cursor;

static G_NO_INLINE void
cursor_grow (Cursor *c,
             gsize   room)
{
  gsize len = (gsize) (c->p - c->out->str);

  /* g_string_set_size() makes room (doubling); the length is ours again */
  g_string_set_size (c->out, len + room);
  c->out->len = len;
  c->p = c->out->str + len;
  c->end = c->out->str + c->out->allocated_len - 1;
}

static inline void
cursor_begin (Cursor  *c,
              GString *out)
{
  c->out = out;
  c->p = out->str + out->len;
  c->end = out->str + out->allocated_len - 1;
  if (G_UNLIKELY ((gsize) (c->end - c->p) < RESERVE))
    cursor_grow (c, 2 * RESERVE);
}

static inline void
cursor_finish (Cursor *c)
{
  c->out->len = (gsize) (c->p - c->out->str);
  *c->p = '\0';
}

/* A literal, copied with its compile-time length. */
#define PUT(c, literal) \
  G_STMT_START { memcpy ((c)->p, literal, sizeof (literal) - 1); (c)->p += sizeof (literal) - 1; } G_STMT_END

static inline void
put_fragment (Cursor         *c,
              const Fragment *fragment)
{
  memcpy (c->p, fragment->text, FRAGMENT_SIZE);
  c->p += fragment->len;
}

/* ---- numbers ---- */

/* The number of decimal digits of `value` (> 0). */
static inline guint
decimal_digits (guint64 value)
{
  static const guint64 powers[20] = {
    G_GUINT64_CONSTANT (1), G_GUINT64_CONSTANT (10), G_GUINT64_CONSTANT (100), G_GUINT64_CONSTANT (1000),
    G_GUINT64_CONSTANT (10000), G_GUINT64_CONSTANT (100000), G_GUINT64_CONSTANT (1000000),
    G_GUINT64_CONSTANT (10000000), G_GUINT64_CONSTANT (100000000), G_GUINT64_CONSTANT (1000000000),
    G_GUINT64_CONSTANT (10000000000), G_GUINT64_CONSTANT (100000000000), G_GUINT64_CONSTANT (1000000000000),
    G_GUINT64_CONSTANT (10000000000000), G_GUINT64_CONSTANT (100000000000000),
    G_GUINT64_CONSTANT (1000000000000000), G_GUINT64_CONSTANT (10000000000000000),
    G_GUINT64_CONSTANT (100000000000000000), G_GUINT64_CONSTANT (1000000000000000000),
    G_GUINT64_CONSTANT (10000000000000000000),
  };
#if defined (__GNUC__)
  /* log10 from log2: bits × 1233 / 4096 is ⌊log10 (2^bits)⌋, one short at most */
  guint bits = 64 - (guint) __builtin_clzll (value);
  guint guess = (bits * 1233) >> 12;

  return guess + (value >= powers[guess]);
#else
  guint n = 1;

  while (n < 20 && value >= powers[n])
    n++;
  return n;
#endif
}

/* Written backwards from the last digit, two at a time. */
static inline void
put_uint (Cursor  *c,
          guint64  value)
{
  char *end;
  char *q;

  if (value < 10)
    {
      *c->p++ = (char) ('0' + value);
      return;
    }
  end = c->p + decimal_digits (value);
  q = end;
  while (value >= 100)
    {
      guint pair = (guint) (value % 100);

      value /= 100;
      q -= 2;
      memcpy (q, digit_pairs + 2 * pair, 2);
    }
  if (value >= 10)
    memcpy (q - 2, digit_pairs + 2 * value, 2);
  else
    q[-1] = (char) ('0' + value);
  c->p = end;
}

static inline void
put_int (Cursor *c,
         gint64  value)
{
  if (value < 0)
    {
      *c->p++ = '-';
      put_uint (c, -(guint64) value);
    }
  else
    put_uint (c, (guint64) value);
}

/* seq as text: the last one plus one, counted up in the text, or written anew. */
static inline void
put_seq (Cursor          *c,
         WnJsonLineState *state,
         guint64          seq)
{
  char *text = state->seq_text;

  if (G_LIKELY (state->seq_len > 0 && seq == state->seq + 1))
    {
      guint i = state->seq_len;

      while (i > 0 && text[i - 1] == '9')
        text[--i] = '0';
      if (i > 0)
        text[i - 1]++;
      else
        {
          /* 99 → 100 (20 digits hold any guint64: this never overflows) */
          memmove (text + 1, text, state->seq_len);
          text[0] = '1';
          state->seq_len++;
        }
    }
  else
    {
      char *start = c->p;

      put_uint (c, seq);
      state->seq_len = (guint) (c->p - start);
      memcpy (text, start, state->seq_len);
      c->p = start;
    }
  state->seq = seq;
  memcpy (c->p, text, sizeof state->seq_text);
  c->p += state->seq_len;
}

/* t_us as text: the last one again, or written anew. */
static inline void
put_time (Cursor          *c,
          WnJsonLineState *state,
          gint64           t_us)
{
  if (G_UNLIKELY (state->t_us_len == 0 || t_us != state->t_us))
    {
      char *start = c->p;

      put_int (c, t_us);
      state->t_us = t_us;
      state->t_us_len = (guint) (c->p - start);
      memcpy (state->t_us_text, start, state->t_us_len);
      return;
    }
  memcpy (c->p, state->t_us_text, sizeof state->t_us_text);
  c->p += state->t_us_len;
}

/* ---- strings ---- */

static char *
put_escape (char   *p,
            guchar  byte)
{
  static const char hex[] = "0123456789abcdef";

  p[0] = '\\';
  switch (byte)
    {
    case '"':  p[1] = '"'; return p + 2;
    case '\\': p[1] = '\\'; return p + 2;
    case '\n': p[1] = 'n'; return p + 2;
    case '\r': p[1] = 'r'; return p + 2;
    case '\t': p[1] = 't'; return p + 2;
    default:
      memcpy (p + 1, "u00", 3);
      p[4] = hex[byte >> 4];
      p[5] = hex[byte & 0xf];
      return p + 6;
    }
}

/* The text of a string and its closing quote (the key wrote the opening one).
 * Eight bytes at a time (at most 48 out) between two looks at the room; the
 * bytes that need escaping and the terminator leave the run. Returns with at
 * least RESERVE - 56 bytes of room. */
static inline void
put_string (Cursor     *c,
            const char *text)
{
  const guchar *s = (const guchar *) text;
  char *p = c->p;

  for (;;)
    {
      if (G_UNLIKELY (p >= c->end - RESERVE))
        {
          c->p = p;
          cursor_grow (c, 2 * RESERVE);
          p = c->p;
        }
#define STEP(i) \
      if (G_UNLIKELY (needs_escape[s[i]])) \
        { \
          s += i; \
          p += i; \
          goto special; \
        } \
      p[i] = (char) s[i];
      STEP (0) STEP (1) STEP (2) STEP (3) STEP (4) STEP (5) STEP (6) STEP (7)
#undef STEP
      s += 8;
      p += 8;
      continue;

    special:
      if (*s == '\0')
        {
          *p++ = '"';
          c->p = p;
          return;
        }
      p = put_escape (p, *s++);
    }
}

/* ---- fields ---- */

#define STRING_FIELD(c, key, value) \
  G_STMT_START { \
    if ((value) != NULL) \
      { \
        PUT (c, ",\"" key "\":\""); \
        put_string (c, value); \
      } \
  } G_STMT_END

#define INT_FIELD(c, key, value) \
  G_STMT_START { PUT (c, ",\"" key "\":"); put_int (c, value); } G_STMT_END

/* The line; `state` NULL for an event on its own. */
static inline void
append_json (const WnEvent   *ev,
             GString         *out,
             WnJsonLineState *state)
{
  Cursor cursor;
  Cursor *c = &cursor;

  cursor_begin (c, out);
  PUT (c, "{\"seq\":");
  if (state != NULL)
    put_seq (c, state, ev->seq);
  else
    put_uint (c, ev->seq);
  PUT (c, ",\"t_us\":");
  if (state != NULL)
    put_time (c, state, ev->t_us);
  else
    put_int (c, ev->t_us);
  if (G_LIKELY (ev->kind < WN_EV_N_KINDS))
    put_fragment (c, &kind_fragments[ev->kind]);
  else
    STRING_FIELD (c, "kind", wn_event_kind_to_string (ev->kind));   /* "?", with a critical */
  if (G_LIKELY (ev->phase < WN_PH_N_PHASES))
    put_fragment (c, &phase_fragments[ev->phase]);
  else
    STRING_FIELD (c, "phase", wn_event_phase_to_string (ev->phase));
  STRING_FIELD (c, "instance", ev->instance);
  STRING_FIELD (c, "node", ev->node);
  STRING_FIELD (c, "track", ev->track);
  STRING_FIELD (c, "job", ev->job);
  STRING_FIELD (c, "topic", ev->topic);
  STRING_FIELD (c, "worker", ev->worker);
  if (ev->attempt > 0)
    INT_FIELD (c, "attempt", ev->attempt);
  if (ev->attempts > 0)
    INT_FIELD (c, "attempts", ev->attempts);
  if (ev->backoff_us >= 0)
    INT_FIELD (c, "backoff_us", ev->backoff_us);
  if (ev->not_before_us >= 0)
    INT_FIELD (c, "not_before_us", ev->not_before_us);
  if (ev->deadline_us >= 0)
    INT_FIELD (c, "deadline_us", ev->deadline_us);
  STRING_FIELD (c, "code", ev->code);
  if (ev->status != NULL)
    {
      PUT (c, ",\"status\":");
      cursor_finish (c);
      _wn_event_append_status (out, ev->status);
      cursor_begin (c, out);
    }
  STRING_FIELD (c, "error", ev->error);
  if (ev->flows != NULL)
    {
      PUT (c, ",\"flows\":[");
      for (guint i = 0; ev->flows[i] != NULL; i++)
        {
          if (i > 0)
            *c->p++ = ',';
          *c->p++ = '"';
          put_string (c, ev->flows[i]);
        }
      *c->p++ = ']';
    }
  STRING_FIELD (c, "action", ev->action);
  if (ev->trust != WN_TRUST_UNSET)
    put_fragment (c, &trust_fragments[ev->trust == WN_TRUST_WORKER_TRUSTED ? 0 : 1]);
  PUT (c, "}\n");
  cursor_finish (c);
}

void
wn_event_append_json (const WnEvent *event,
                      GString       *out)
{
  append_json (event, out, NULL);
}

void
_wn_event_append_json_line (const WnEvent   *event,
                            GString         *out,
                            WnJsonLineState *state)
{
  append_json (event, out, state);
}
