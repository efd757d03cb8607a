/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-journal-json.c — an event as one JSON line (journal-and-cli.md:
 * `{"seq":17,"t_us":1250000,"kind":"job",…}\n`, keys in the journal's order,
 * absent values omitted).
 *
 * This runs for every event of every journalled run, so it is written for
 * speed (docs/performance.md, "Cheap journal"):
 *
 * - Bytes go straight into the GString's buffer. The write position is a
 *   local that each piece takes and returns (`p = put_uint (p, …)`), never
 *   a field behind a pointer: a char store may alias any memory, so a
 *   position kept in a struct would be stored and loaded again around every
 *   byte. Room is checked once per event (RESERVE bytes) and by each string
 *   every eight bytes, never per fixed piece: every piece written between two
 *   strings is far smaller than RESERVE, and a string returns with most of
 *   RESERVE left.
 * - What every line repeats is a constant: each key with its punctuation
 *   (`,"instance":"`) is a literal copied with a compile-time length; each
 *   kind and phase with its key (`,"phase":"retryScheduled"`), and each trust
 *   mode, is a Fragment copied as one fixed-size block (a few moves, no
 *   length loop) after which the position advances by the fragment's length.
 * - Numbers are written two digits at a time. A name that comes with its
 *   plain length (WnEvent.plain_len: the engine's ids and checked names) is
 *   copied in two fixed-size moves; other strings are scanned once, with a
 *   table of the bytes that need escaping, out of line.
 * - The fields most lines lack are tested in groups, and the rare ones are
 *   written out of line (append_rare()), so a line's straight path is short.
 * - seq and t_us are kept from line to line as text (WnJsonLineState).
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
 *   or -1 as for its neighbours) and _wn_event_init() (wn-journal-private.h),
 *   in wn_event_copy()/wn_event_free(), then one
 *   line below at its place in the journal's key order: STRING_FIELD for a
 *   string, INT_FIELD for a number (with its absence test), and the same in
 *   the reference writer of tests/engine/test-journal.c and in its random
 *   events. A field with many distinct values per run needs nothing more; one
 *   that takes a few fixed values (as trust) can be a Fragment table.
 *   A kind or phase whose fragment is longer than FRAGMENT_SIZE stops the
 *   build (a static assertion): raise FRAGMENT_SIZE then.
 * - The readable trace (wn_event_append_text(), wn-journal.c) and the app's
 *   record (src/app/winnow-journal.c) list the fields too.
 */
#include "config.h"

#include <string.h>

#include "wn-journal-private.h"

/* Room made at the start of an event and kept by every string it scans (less
 * the 56 bytes a scan may write past its last look): more than all the pieces
 * written without a look between two scanned strings — the fixed ones (at
 * most five numbers with their keys, about 200 bytes, with the overrun of a
 * fixed-size copy) and the plain strings, whose length the event gives (at
 * most six of 255 bytes with their keys and quotes, 1 626 bytes). */
#define RESERVE 2048

/* What most lines never run: its calls are laid out away from the line's
 * straight path. */
#if defined (__GNUC__)
# define COLD __attribute__ ((cold))
#else
# define COLD
#endif

/* Fragments are copied whole: FRAGMENT_SIZE bytes (two 16-byte moves),
 * whatever their length. The longest, `,"phase":"workerRetryScheduled"`, is 31. */
#define FRAGMENT_SIZE 32

typedef struct {
  char  text[FRAGMENT_SIZE];
  gsize len;
} Fragment;

#define FRAGMENT(literal) { literal, sizeof (literal) - 1 },
#define KIND_FRAGMENT(name) FRAGMENT (",\"kind\":\"" name "\"")
#define PHASE_FRAGMENT(name) FRAGMENT (",\"phase\":\"" name "\"")

/* A name too long for its fragment stops the build (a char array initialised
 * from a longer literal would only warn, and cut it). */
#define FRAGMENT_FITS(literal) G_STATIC_ASSERT (sizeof (literal) - 1 <= FRAGMENT_SIZE);
#define KIND_FITS(name) FRAGMENT_FITS (",\"kind\":\"" name "\"")
#define PHASE_FITS(name) FRAGMENT_FITS (",\"phase\":\"" name "\"")
WN_EVENT_KIND_NAMES (KIND_FITS)
WN_EVENT_PHASE_NAMES (PHASE_FITS)

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

/* ---- the buffer ---- */

/* Where the next byte goes, and the last byte of the allocation (kept for the
 * terminator). Both live in locals of append_json() (a struct returned by
 * value comes back in registers), never behind a pointer that escapes. */
typedef struct {
  char *p;
  char *end;
} Room;

static inline Room
room_of (GString *out)
{
  Room room = { out->str + out->len, out->str + out->allocated_len - 1 };

  return room;
}

/* Room for `more` bytes after p. */
static G_NO_INLINE Room
grow (GString *out,
      char    *p,
      gsize    more)
{
  gsize len = (gsize) (p - out->str);

  /* g_string_set_size() makes room (doubling); the length is ours again */
  g_string_set_size (out, len + more);
  out->len = len;
  return room_of (out);
}

static inline Room
begin (GString *out)
{
  Room room = room_of (out);

  if (G_UNLIKELY ((gsize) (room.end - room.p) < RESERVE))
    room = grow (out, room.p, 2 * RESERVE);
  return room;
}

static inline void
finish (GString *out,
        char    *p)
{
  out->len = (gsize) (p - out->str);
  *p = '\0';
}

/* A literal, copied with its compile-time length. */
#define PUT(p, literal) \
  G_STMT_START { memcpy (p, literal, sizeof (literal) - 1); p += sizeof (literal) - 1; } G_STMT_END

static inline char *
put_fragment (char           *p,
              const Fragment *fragment)
{
  memcpy (p, fragment->text, FRAGMENT_SIZE);
  return p + fragment->len;
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
static inline char *
put_uint (char    *p,
          guint64  value)
{
  char *end;

  if (value < 10)
    {
      *p = (char) ('0' + value);
      return p + 1;
    }
  end = p + decimal_digits (value);
  p = end;
  while (value >= 100)
    {
      guint pair = (guint) (value % 100);

      value /= 100;
      p -= 2;
      memcpy (p, digit_pairs + 2 * pair, 2);
    }
  if (value >= 10)
    memcpy (p - 2, digit_pairs + 2 * value, 2);
  else
    p[-1] = (char) ('0' + value);
  return end;
}

static inline char *
put_int (char   *p,
         gint64  value)
{
  if (value < 0)
    {
      *p = '-';
      return put_uint (p + 1, -(guint64) value);
    }
  return put_uint (p, (guint64) value);
}

/* seq as text: the last one plus one, or written anew. The digits but the
 * last two are copied into the line whole from the state's text, and the
 * last two, kept aside as a number, are written over them: a line stores
 * nothing into the text but once in a hundred (the carry). That matters: a
 * wide load right after narrow stores to the same bytes stalls (store-to-load
 * forwarding fails), and counting up in the text itself did that on every
 * line. */
static inline char *
put_seq (char            *p,
         WnJsonLineState *state,
         guint64          seq)
{
  char *text = state->seq_text;
  guint len = state->seq_len;
  char *end;

  if (G_LIKELY (len > 2 && seq == state->seq + 1))
    {
      guint last = state->seq_last + 1;

      if (G_UNLIKELY (last == 100))
        {
          /* …99 → …00: carry into the digits before the last two */
          guint i = len - 2;

          while (i > 0 && text[i - 1] == '9')
            text[--i] = '0';
          if (i == 0)
            goto anew;   /* one digit more */
          text[i - 1]++;
          last = 0;
        }
      memcpy (p, text, sizeof state->seq_text);
      memcpy (p + len - 2, digit_pairs + 2 * last, 2);
      state->seq_last = last;
      state->seq = seq;
      return p + len;
    }
  /* the first line, a gap, one digit more (999 → 1000), or below 100 */
anew:
  end = put_uint (p, seq);
  state->seq = seq;
  state->seq_len = (guint) (end - p);
  state->seq_last = (guint) (seq % 100);
  memcpy (text, p, sizeof state->seq_text);
  return end;
}

/* t_us as text: the last one again, or written anew. */
static inline char *
put_time (char            *p,
          WnJsonLineState *state,
          gint64           t_us)
{
  char *end;

  if (G_LIKELY (state->t_us_len > 0 && t_us == state->t_us))
    {
      memcpy (p, state->t_us_text, sizeof state->t_us_text);
      return p + state->t_us_len;
    }
  end = put_int (p, t_us);
  state->t_us = t_us;
  state->t_us_len = (guint) (end - p);
  memcpy (state->t_us_text, p, state->t_us_len);
  return end;
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
 * least RESERVE - 56 bytes of room. Out of line: the strings of most events
 * come with their plain length (put_plain()), and one copy of this loop keeps
 * the writer small enough to stay in the instruction cache beside the
 * engine. */
static G_NO_INLINE COLD char *
put_string (GString     *out,
            char       **end,
            char        *p,
            const char  *text)
{
  const guchar *s = (const guchar *) text;

  for (;;)
    {
      if (G_UNLIKELY (p >= *end - RESERVE))
        {
          Room room = grow (out, p, 2 * RESERVE);

          p = room.p;
          *end = room.end;
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
          *p = '"';
          return p + 1;
        }
      p = put_escape (p, *s++);
    }
}

/* The `len` bytes of a plain string (WnEvent.plain_len: 1 to 255, nothing to
 * escape) and its closing quote, in fixed-size moves that read and write
 * nothing outside the string and its place: two that overlap in the middle. */
static inline char *
put_plain (char       *p,
           const char *text,
           guint       len)
{
  if (G_LIKELY (len <= 16))
    {
      if (len >= 8)
        {
          guint64 head, tail;

          memcpy (&head, text, 8);
          memcpy (&tail, text + len - 8, 8);
          memcpy (p, &head, 8);
          memcpy (p + len - 8, &tail, 8);
        }
      else if (len >= 4)
        {
          guint32 head, tail;

          memcpy (&head, text, 4);
          memcpy (&tail, text + len - 4, 4);
          memcpy (p, &head, 4);
          memcpy (p + len - 4, &tail, 4);
        }
      else
        {
          p[0] = text[0];
          p[len >> 1] = text[len >> 1];
          p[len - 1] = text[len - 1];
        }
    }
  else
    memcpy (p, text, len);
  p[len] = '"';
  return p + len + 1;
}

guint8
_wn_plain_length (const char *text)
{
  gsize len = 0;

  if (text == NULL)
    return 0;
  while (!needs_escape[(guchar) text[len]])
    len++;
  if (text[len] != '\0' || len > G_MAXUINT8)
    return 0;
  return (guint8) len;
}

#ifndef NDEBUG
/* What an emitter says is plain is (checked in every build with assertions:
 * the tests run the writer on every event the engine emits). */
static void
check_plain (const char *text,
             guint8      len)
{
  if (len != 0)
    g_assert_cmpuint (_wn_plain_length (text), ==, len);
}
#else
# define check_plain(text, len) ((void) 0)
#endif

/* ---- fields ---- */

#define STRING_FIELD(key, value) \
  G_STMT_START { \
    const char *value_ = (value); \
    if (value_ != NULL) \
      { \
        PUT (p, ",\"" key "\":\""); \
        p = put_string (out, &end, p, value_); \
      } \
  } G_STMT_END

/* A string that may come with its plain length: copied then, else scanned.
 * A length short of where the string ends (an emitter that pointed the field
 * at a longer string and kept the old length) is not believed; one past its
 * end is the emitter's bug (WnEvent.plain_len), as is a string of that length
 * that is not plain (builds with assertions stop there). */
#define NAME_FIELD(key, field, which) \
  G_STMT_START { \
    const char *value_ = ev->field; \
    if (value_ != NULL) \
      { \
        guint len_ = ev->plain_len[which]; \
        PUT (p, ",\"" key "\":\""); \
        if (G_LIKELY (len_ != 0 && value_[len_] == '\0')) \
          { \
            check_plain (value_, len_); \
            p = put_plain (p, value_, len_); \
          } \
        else \
          p = put_string (out, &end, p, value_); \
      } \
  } G_STMT_END

#define INT_FIELD(p, key, value) \
  G_STMT_START { PUT (p, ",\"" key "\":"); p = put_int (p, value); } G_STMT_END

/* code, status, error, flows, by and action: what few events have, out of
 * line. Returns where the line goes on. */
static G_NO_INLINE COLD Room
append_rare (const WnEvent *ev,
             GString       *out,
             char          *p,
             char          *end)
{
  Room room;

  STRING_FIELD ("code", ev->code);
  if (ev->status != NULL)
    {
      PUT (p, ",\"status\":");
      finish (out, p);
      _wn_event_append_status (out, ev->status);
      room = begin (out);
      p = room.p;
      end = room.end;
    }
  STRING_FIELD ("error", ev->error);
  if (ev->flows != NULL)
    {
      PUT (p, ",\"flows\":[");
      for (guint i = 0; ev->flows[i] != NULL; i++)
        {
          if (i > 0)
            *p++ = ',';
          *p++ = '"';
          p = put_string (out, &end, p, ev->flows[i]);
        }
      *p++ = ']';
    }
  STRING_FIELD ("by", ev->by);
  STRING_FIELD ("action", ev->action);
  room.p = p;
  room.end = end;
  return room;
}

/* The line; `state` NULL for an event on its own (the two callers each get
 * their own copy, with the tests on `state` folded away). */
static G_ALWAYS_INLINE inline void
append_json (const WnEvent   *ev,
             GString         *out,
             WnJsonLineState *state)
{
  Room room = begin (out);
  char *p = room.p;
  char *end = room.end;

  PUT (p, "{\"seq\":");
  p = state != NULL ? put_seq (p, state, ev->seq) : put_uint (p, ev->seq);
  PUT (p, ",\"t_us\":");
  p = state != NULL ? put_time (p, state, ev->t_us) : put_int (p, ev->t_us);
  if (G_LIKELY (ev->kind < WN_EV_N_KINDS))
    p = put_fragment (p, &kind_fragments[ev->kind]);
  else
    STRING_FIELD ("kind", wn_event_kind_to_string (ev->kind));   /* "?", with a critical */
  if (G_LIKELY (ev->phase < WN_PH_N_PHASES))
    p = put_fragment (p, &phase_fragments[ev->phase]);
  else
    STRING_FIELD ("phase", wn_event_phase_to_string (ev->phase));
  NAME_FIELD ("instance", instance, WN_PLAIN_INSTANCE);
  NAME_FIELD ("node", node, WN_PLAIN_NODE);
  NAME_FIELD ("track", track, WN_PLAIN_TRACK);
  /* the fields most events lack are looked at in groups: one test each for
   * most lines */
  if (G_UNLIKELY (((guintptr) ev->scope | ev->loop) != 0))
    {
      STRING_FIELD ("scope", ev->scope);
      if (ev->loop > 0)
        INT_FIELD (p, "loop", ev->loop);
    }
  NAME_FIELD ("job", job, WN_PLAIN_JOB);
  NAME_FIELD ("topic", topic, WN_PLAIN_TOPIC);
  NAME_FIELD ("worker", worker, WN_PLAIN_WORKER);
  /* absent times are negative: their AND is negative when all three are */
  if ((ev->attempt | ev->attempts) != 0 || (ev->backoff_us & ev->not_before_us & ev->deadline_us) >= 0)
    {
      if (ev->attempt > 0)
        INT_FIELD (p, "attempt", ev->attempt);
      if (ev->attempts > 0)
        INT_FIELD (p, "attempts", ev->attempts);
      if (ev->backoff_us >= 0)
        INT_FIELD (p, "backoff_us", ev->backoff_us);
      if (ev->not_before_us >= 0)
        INT_FIELD (p, "not_before_us", ev->not_before_us);
      if (ev->deadline_us >= 0)
        INT_FIELD (p, "deadline_us", ev->deadline_us);
    }
  if (G_UNLIKELY (((guintptr) ev->code | (guintptr) ev->status | (guintptr) ev->error |
                   (guintptr) ev->flows | (guintptr) ev->by | (guintptr) ev->action) != 0))
    {
      room = append_rare (ev, out, p, end);
      p = room.p;
      end = room.end;
    }
  if (ev->trust != WN_TRUST_UNSET)
    p = put_fragment (p, &trust_fragments[ev->trust == WN_TRUST_WORKER_TRUSTED ? 0 : 1]);
  PUT (p, "}\n");
  finish (out, p);
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
