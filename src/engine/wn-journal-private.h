/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-journal-private.h — the journal's names, listed once for the name
 * functions (wn-journal.c) and the JSON-lines writer (wn-journal-json.c).
 *
 * Each list is in the order of its enum in wn-journal.h (both files check the
 * counts at compile time): a new kind or phase goes into the enum and here, at
 * the same place. */
#pragma once

#ifndef WINNOW_COMPILATION
# error "wn-journal-private.h is internal to the engine: include winnow.h"
#endif

#include "wn-journal.h"

G_BEGIN_DECLS

/* X (name) for each WnEventKind, in order. */
#define WN_EVENT_KIND_NAMES(X) \
  X ("instance") X ("node") X ("job") X ("fault") X ("incident") X ("gateway") X ("inject") X ("clock") \
  X ("scope") X ("timer") X ("userTask") X ("message")

/* X (name) for each WnEventPhase, in order. */
#define WN_EVENT_PHASE_NAMES(X) \
  X ("created") X ("completed") X ("terminated") \
  X ("entered") X ("parked") X ("canceled") X ("failed") X ("incident") \
  X ("enqueued") X ("locked") X ("lockReclaimed") X ("lockExtended") X ("executing") \
  X ("retryScheduled") X ("workerRetryScheduled") X ("retriesExhausted") X ("mapperError") \
  X ("bpmnError") X ("status") X ("fault") X ("reportRejected") \
  X ("thrown") X ("caught") X ("uncaught") \
  X ("raised") X ("retried") X ("resolved") \
  X ("decided") \
  X ("applied") \
  X ("paused") X ("resumed") X ("stepped") \
  X ("unlocked") X ("workerRearmed") X ("retriesSet") X ("workerPolicyIgnored") \
  X ("fired") \
  X ("correlated") X ("lost") \
  X ("assigned") \
  X ("buffered") X ("expired")

typedef struct {
  guint          id;
  WnJournalFunc  func;
  gpointer       data;
  GDestroyNotify destroy;
} WnSubscriber;

struct _WnJournal
{
  /* what every event reads, in one cache line: the engine's own work between
   * two events pushes the journal's memory out of the nearest cache, and each
   * line read again costs more than formatting a short string */
  guint64        seq;
  guint          n_subscribers;  /* subscribers->len */
  WnJournalFunc  one_func;       /* with one subscriber: its function and data */
  gpointer       one_data;
  GArray        *subscribers;    /* WnSubscriber */
  guint          next_id;
};

void _wn_journal_emit_each (WnJournal *journal, WnEvent *event);

/* WN_EVENT_INIT by hand, one store per field: for an event filled on every
 * step of a run, where the compiler clears a WN_EVENT_INIT declaration with
 * `rep stos`, whose start-up cost more than the rest of building the event. */
static inline void
_wn_event_init (WnEvent      *event,
                WnEventKind   kind,
                WnEventPhase  phase)
{
  event->seq = 0;
  event->t_us = 0;
  event->kind = kind;
  event->phase = phase;
  event->instance = NULL;
  event->node = NULL;
  event->track = NULL;
  event->job = NULL;
  event->topic = NULL;
  event->worker = NULL;
  event->attempt = 0;
  event->attempts = 0;
  event->backoff_us = -1;
  event->not_before_us = -1;
  event->deadline_us = -1;
  event->code = NULL;
  event->status = NULL;
  event->error = NULL;
  event->flows = NULL;
  event->action = NULL;
  event->trust = WN_TRUST_UNSET;
  event->scope = NULL;
  event->loop = 0;
  event->by = NULL;
  for (guint i = 0; i < WN_PLAIN_N; i++)
    event->plain_len[i] = 0;
}
/* A field added to WnEvent goes into _wn_event_init() too: this stops the
 * build until it does (and then needs the new size). */
#if GLIB_SIZEOF_VOID_P == 8
G_STATIC_ASSERT (sizeof (WnEvent) == 184);
#endif

/* wn_journal_emit() in the emitter's body: the engine's emitters call this
 * for every event, and a call less per event is a tenth of what handing an
 * event out costs. */
static inline void
_wn_journal_emit (WnJournal *self,
                  WnTime     now,
                  WnEvent   *event)
{
  event->seq = ++self->seq;
  event->t_us = now;
  /* one subscriber (winnow-run's journal, the app's record): one call */
  if (G_LIKELY (self->n_subscribers == 1))
    {
      self->one_func (event, self->one_data);
      return;
    }
  _wn_journal_emit_each (self, event);
}

/* The length of `text` when it is plain (WnEvent.plain_len: 1 to 255 bytes,
 * none of them '"', '\\' or below 0x20), else 0; NULL is 0. For the strings
 * the engine checks once and names in many events. */
guint8 _wn_plain_length (const char *text);

/* What a writer of one journal's lines remembers from line to line: the last
 * seq and t_us as text (seq goes up by one, t_us often stays). All zeros is
 * "nothing yet". */
typedef struct {
  guint64 seq;
  gint64  t_us;
  guint   seq_len;      /* 0: nothing yet */
  guint   seq_last;     /* seq % 100: the text's last two bytes may be stale */
  guint   t_us_len;     /* 0: nothing yet */
  char    seq_text[24];
  char    t_us_text[24];
} WnJsonLineState;

/* wn_event_append_json() for consecutive events of one journal, by `state`. */
void _wn_event_append_json_line (const WnEvent   *event,
                                 GString         *out,
                                 WnJsonLineState *state);

/* A status body as the journal writes it (json-glib's compact form). */
void _wn_event_append_status (GString  *out,
                              JsonNode *status);

G_END_DECLS
