/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-journal.h — the engine's one observation surface (journal-and-cli.md).
 *
 * Every state change is one WnEvent, stamped with a sequence number and the
 * virtual time, handed synchronously and in order to each subscriber. Events
 * live on the emitter's stack: their strings are borrowed and valid only during
 * the callback; a subscriber copies what it keeps (wn_event_copy()).
 */
#pragma once

#if !defined (WINNOW_INSIDE) && !defined (WINNOW_COMPILATION)
# error "Only winnow.h can be included directly"
#endif

#include <glib.h>
#include <json-glib/json-glib.h>
#include "wn-types.h"

G_BEGIN_DECLS

typedef enum {
  WN_EV_INSTANCE,
  WN_EV_NODE,
  WN_EV_JOB,
  WN_EV_FAULT,
  WN_EV_INCIDENT,
  WN_EV_GATEWAY,
  WN_EV_INJECT,
  WN_EV_CLOCK,
  WN_EV_SCOPE,     /* a sub-process's scope: entered, completed, canceled */
  WN_EV_TIMER,     /* a timer boundary event: fired */
  WN_EV_USER_TASK, /*< nick=userTask >*/ /* a user task: created (waits for a person), assigned (a
                    * person of a pool took it), completed */
  WN_EV_MESSAGE,   /* a message: correlated (to a waiting node or boundary), lost (nobody waited),
                    * buffered (kept for its time to live), expired (kept in vain) */
  WN_EV_N_KINDS  /*< skip >*/
} WnEventKind;

typedef enum {
  /* instance */
  WN_PH_CREATED,
  WN_PH_COMPLETED,          /* instance, node, job */
  WN_PH_TERMINATED,
  /* node */
  WN_PH_ENTERED,
  WN_PH_PARKED,
  WN_PH_CANCELED,
  WN_PH_FAILED,
  WN_PH_INCIDENT,
  /* job */
  WN_PH_ENQUEUED,
  WN_PH_LOCKED,
  WN_PH_LOCK_RECLAIMED,          /*< nick=lockReclaimed >*/
  WN_PH_LOCK_EXTENDED,           /*< nick=lockExtended >*/
  WN_PH_EXECUTING,
  WN_PH_RETRY_SCHEDULED,         /*< nick=retryScheduled >*/
  WN_PH_WORKER_RETRY_SCHEDULED,  /*< nick=workerRetryScheduled >*/
  WN_PH_RETRIES_EXHAUSTED,       /*< nick=retriesExhausted >*/
  WN_PH_MAPPER_ERROR,            /*< nick=mapperError >*/
  WN_PH_BPMN_ERROR,              /*< nick=bpmnError >*/
  WN_PH_STATUS,
  WN_PH_FAULT,
  WN_PH_REPORT_REJECTED,         /*< nick=reportRejected >*/
  /* fault */
  WN_PH_THROWN,
  WN_PH_CAUGHT,
  WN_PH_UNCAUGHT,
  /* incident */
  WN_PH_RAISED,
  WN_PH_RETRIED,
  WN_PH_RESOLVED,
  /* gateway */
  WN_PH_DECIDED,
  /* inject */
  WN_PH_APPLIED,
  /* clock */
  WN_PH_PAUSED,
  WN_PH_RESUMED,
  WN_PH_STEPPED,
  /* job, from outside workers (wn-external.h); after the v1 phases */
  WN_PH_UNLOCKED,
  WN_PH_WORKER_REARMED,          /*< nick=workerRearmed >*/
  WN_PH_RETRIES_SET,             /*< nick=retriesSet >*/
  WN_PH_WORKER_POLICY_IGNORED,   /*< nick=workerPolicyIgnored >*/
  /* timer */
  WN_PH_FIRED,
  /* message */
  WN_PH_CORRELATED,
  WN_PH_LOST,
  /* userTask, from a pool of the scenario's people */
  WN_PH_ASSIGNED,
  /* message, kept for a time to live */
  WN_PH_BUFFERED,
  WN_PH_EXPIRED,
  WN_PH_N_PHASES                 /*< skip >*/
} WnEventPhase;

const char *wn_event_kind_to_string  (WnEventKind kind);
const char *wn_event_phase_to_string (WnEventPhase phase);
gboolean    wn_event_kind_from_string  (const char *text, WnEventKind *out);
gboolean    wn_event_phase_from_string (const char *text, WnEventPhase *out);
/* Whether events of `kind` come with `phase` ("node.entered" yes, "job.entered"
 * never). */
gboolean    wn_event_phase_belongs     (WnEventKind kind, WnEventPhase phase);

/* The strings of a WnEvent that may come with their plain length. */
typedef enum {
  WN_PLAIN_INSTANCE,
  WN_PLAIN_NODE,
  WN_PLAIN_TRACK,
  WN_PLAIN_JOB,
  WN_PLAIN_TOPIC,
  WN_PLAIN_WORKER,
  WN_PLAIN_N                     /*< skip >*/
} WnPlainField;

/* Absent values: NULL strings and nodes, 0 for attempt/attempts (they are
 * 1-based), -1 for the times, WN_TRUST_UNSET for trust. */
typedef struct {
  guint64       seq;
  WnTime        t_us;
  WnEventKind   kind;
  WnEventPhase  phase;
  const char   *instance;
  const char   *node;
  const char   *track;
  const char   *job;
  const char   *topic;
  const char   *worker;
  guint         attempt;
  guint         attempts;
  WnTime        backoff_us;
  WnTime        not_before_us;
  WnTime        deadline_us;
  const char   *code;
  JsonNode     *status;
  const char   *error;
  const char  **flows;       /* NULL-terminated */
  const char   *action;
  WnTrust       trust;
  /* Engine II constructs only (absent in every v1 journal): the scope of a
   * sub-process the event happens in, "i1/s2". */
  const char   *scope;
  guint         loop;        /* an iteration of a multi-instance activity, from 1; 0: absent */
  /* gateway.decided at a gateway the scenario decides: "scenario" (the flow
   * was drawn from the seeded PRNG by the scenario's weights); NULL otherwise. */
  const char   *by;
  /* For the journal's writers: plain_len[WN_PLAIN_NODE] is the length of
   * `node` when the emitter knows the string is plain — 1 to 255 bytes, none
   * of them '"', '\\' or below 0x20, so it goes into a JSON string as it is —
   * and 0 when it does not know (the writer then reads and escapes the string
   * as any other). The engine sets them for the strings it makes or checked
   * once (ids, node ids, topics, its workers' names); an event filled by hand
   * leaves them 0 (WN_EVENT_INIT), and whoever points a field elsewhere sets
   * its length to 0. A length is never past its string's end; one short of it
   * is not believed (the string is read as any other). A copy keeps them (the
   * same bytes). */
  guint8        plain_len[WN_PLAIN_N];
} WnEvent;

/* An event with every field absent. */
#define WN_EVENT_INIT(k, p) { 0, 0, (k), (p), NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, -1, -1, -1, NULL, NULL, NULL, NULL, NULL, WN_TRUST_UNSET, NULL, 0, NULL, { 0 } }

/* A heap copy that owns its strings (for subscribers that keep events). */
WnEvent    *wn_event_copy            (const WnEvent *event);
void        wn_event_free            (WnEvent *event);

/* One JSON object, keys in the journal's order, absent values omitted; a newline ends it. */
void        wn_event_append_json     (const WnEvent *event, GString *out);
/* The readable trace line (no newline):
 * "   1.250s  job      retryScheduled  i1 reserve  attempt 1, next in 300ms" */
void        wn_event_append_text     (const WnEvent *event, GString *out);

typedef struct _WnJournal WnJournal;
typedef void (*WnJournalFunc) (const WnEvent *event, gpointer data);

WnJournal  *wn_journal_new           (void);
void        wn_journal_free          (WnJournal *journal);
guint       wn_journal_subscribe     (WnJournal *journal, WnJournalFunc func, gpointer data, GDestroyNotify destroy);
void        wn_journal_unsubscribe   (WnJournal *journal, guint id);
/* FALSE when nobody listens: emitters may then skip building the event. The
 * sequence counter still advances so seq stays the same with and without subscribers. */
gboolean    wn_journal_is_active     (const WnJournal *journal);
/* Stamps seq and t_us (the caller passes the current virtual time) and delivers. */
void        wn_journal_emit          (WnJournal *journal, WnTime now, WnEvent *event);
/* Count an event without building it (when not active). */
void        wn_journal_skip          (WnJournal *journal);
guint64     wn_journal_get_n_events  (const WnJournal *journal);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WnEvent, wn_event_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WnJournal, wn_journal_free)

G_END_DECLS
