/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-trace.h — what each job went through, built from journal events.
 *
 * The session feeds every event to a trace as it comes. The trace keeps, per
 * job, its executions (worker busy spans), backoff gates, locks and outcome
 * marks, in time order, and keeps them after the job has left the dispatcher.
 * The timeline draws it; the job inspector reads a job's history from it.
 * Plain data, no GTK: tests drive it with hand-made events.
 */
#pragma once

#include <glib.h>

#include "winnow.h"
#include "winnow-journal.h"

G_BEGIN_DECLS

typedef enum {
  WINNOW_MARK_COMPLETED,
  WINNOW_MARK_BPMN_ERROR,
  WINNOW_MARK_STATUS,
  WINNOW_MARK_FAULT,          /* a technical fault: retried, or terminal */
  WINNOW_MARK_EXHAUSTED,      /* retries exhausted */
  WINNOW_MARK_RECLAIMED,      /* the lock lapsed and another worker took the job */
  WINNOW_MARK_REJECTED,       /* a late report was rejected */
  WINNOW_N_MARKS
} WinnowMarkKind;

/* How one execution ended. */
typedef enum {
  WINNOW_OUTCOME_RUNNING,
  WINNOW_OUTCOME_COMPLETED,
  WINNOW_OUTCOME_BPMN_ERROR,
  WINNOW_OUTCOME_STATUS,
  WINNOW_OUTCOME_RETRY,       /* technical, retried after a backoff */
  WINNOW_OUTCOME_EXHAUSTED,   /* technical, no retry left */
  WINNOW_OUTCOME_FAULT,       /* a terminal technical fault (e.g. a mapping error) */
  WINNOW_OUTCOME_REJECTED,    /* its report came too late */
  WINNOW_OUTCOME_LOST,        /* its lock lapsed and the job was taken over */
  WINNOW_OUTCOME_CANCELED,    /* the job was removed while it ran */
} WinnowOutcome;

typedef struct {
  WnTime         start;
  WnTime         end;         /* -1 while it runs */
  guint          attempt;     /* 1-based execution number */
  const char    *worker;      /* interned */
  WinnowOutcome  outcome;
  char          *code;        /* fault code, or the BPMN error code */
  char          *detail;      /* error text, or the status as JSON */
  WnTime         backoff;     /* RETRY: the backoff drawn, else -1 */
  WnTime         gate;        /* RETRY: the not-before it set, else -1 */
  gboolean       mapper_error;
  gboolean       in_worker;   /* RETRY: the worker waits in-process (WorkerTrusted), no dispatcher gate */
} WinnowExecution;

/* A backoff gate or a lock. */
typedef struct {
  WnTime      start;
  WnTime      end;            /* gate: not_before; lock: its release (the deadline while held) */
  WnTime      deadline;       /* locks: the last deadline it had */
  const char *worker;         /* locks: the holder (interned) */
  gboolean    open;           /* lock still held */
  gboolean    in_worker;      /* gates: the worker waits in-process (WorkerTrusted) */
} WinnowSpan;

typedef struct {
  WnTime         t;
  WinnowMarkKind kind;
  guint          execution;   /* index + 1 of the execution it ends, 0 = none */
  char          *text;        /* for people */
} WinnowMark;

/* What the job's last classification said, for matching it to a mapper rule. */
typedef enum {
  WINNOW_CLASS_NONE,
  WINNOW_CLASS_TECHNICAL,
  WINNOW_CLASS_BPMN_ERROR,
  WINNOW_CLASS_STATUS,
  WINNOW_CLASS_MAPPER_ERROR,
} WinnowClassSeen;

typedef enum {
  WINNOW_JOB_LIVE,
  WINNOW_JOB_COMPLETED,
  WINNOW_JOB_BPMN_ERROR,
  WINNOW_JOB_STATUS,
  WINNOW_JOB_FAILED,
  WINNOW_JOB_REMOVED,
} WinnowJobEnd;

typedef struct _WinnowTraceInstance WinnowTraceInstance;

typedef struct {
  char                *id;
  char                *node;
  char                *topic;
  WinnowTraceInstance *instance;
  WnTrust              trust;
  WnPolicy            *policy;      /* resolved at enqueue, when known (owned ref) */
  WnTime               enqueued_at;
  WnTime               ended_at;    /* -1 while in the store */
  WinnowJobEnd         end;
  char                *end_text;
  GArray              *executions;  /* WinnowExecution, by start */
  GArray              *gates;       /* WinnowSpan, by start */
  GArray              *locks;       /* WinnowSpan, by start */
  GArray              *marks;       /* WinnowMark, by t */
  /* the last classification seen */
  WinnowClassSeen      class_seen;
  char                *class_code;  /* TECHNICAL: the raw fault code; BPMN_ERROR: the error code */
  char                *class_text;  /* BPMN_ERROR: its message; MAPPER_ERROR: why */
  JsonNode            *class_status;
  guint                version;     /* bumped on every change */
  guint                lane;        /* index into the lanes (valid after winnow_trace_get_lanes) */
  /* the trace's own, for winnow_trace_truncate(): the event (numbered from 1
   * as fed) that made the job, and every one that changed it */
  guint                created;
  GArray              *events;      /* guint */
} WinnowJobTrace;

struct _WinnowTraceInstance {
  char      *id;
  guint      index;                 /* creation order */
  WnTime     created_at;
  WnTime     ended_at;              /* -1 while active */
  gboolean   terminated;
  GPtrArray *jobs;                  /* WinnowJobTrace*, borrowed, in enqueue order */
  /* the trace's own: the event that made it, those that ended it (NULL: none) */
  guint      created;
  GArray    *ends;                  /* guint */
};

/* One row of the timeline: an instance header, or one job. */
typedef struct {
  WinnowTraceInstance *instance;
  WinnowJobTrace      *job;         /* NULL: the instance's header */
} WinnowLane;

typedef struct _WinnowTrace WinnowTrace;

WinnowTrace     *winnow_trace_new            (void);
WinnowTrace     *winnow_trace_ref            (WinnowTrace    *trace);
void             winnow_trace_unref          (WinnowTrace    *trace);
void             winnow_trace_clear          (WinnowTrace    *trace);

/* Apply one journal event (in journal order). */
void             winnow_trace_add_event      (WinnowTrace    *trace,
                                              const WnEvent  *event);
/* Forget every event after the first `n_events` fed, as if they had never
 * come (a travel back, winnow-session-travel.c): `journal` holds the events
 * fed so far, in the order fed (it is read, not changed). What the kept
 * events made stays the same objects; a job or an instance the dropped ones
 * made goes, and one they changed is made again from its own kept events. */
void             winnow_trace_truncate       (WinnowTrace    *trace,
                                              WinnowJournal  *journal,
                                              guint           n_events);
/* Events fed since the last clear. */
guint            winnow_trace_get_n_events   (WinnowTrace    *trace);
/* The policy a job was enqueued with (a reference is taken), after its
 * enqueued event; ignored for a job the trace has not seen. */
void             winnow_trace_set_policy     (WinnowTrace    *trace,
                                              const char     *job,
                                              WnPolicy       *policy);

WinnowJobTrace  *winnow_trace_lookup_job     (WinnowTrace    *trace,
                                              const char     *id);
guint            winnow_trace_get_n_jobs     (WinnowTrace    *trace);
/* Instance headers and job lanes in order (instances by creation, jobs by
 * enqueue); rebuilt only when a job or an instance was added. */
const WinnowLane *winnow_trace_get_lanes     (WinnowTrace    *trace,
                                              guint          *n_lanes);
/* Changes whenever the trace does (an event added, a clear). */
guint64          winnow_trace_get_stamp      (WinnowTrace    *trace);

/* What one event changed: an instance, and the job it changed, if any (a
 * job's first change may have made its instance too). */
typedef struct {
  WinnowTraceInstance *instance;
  WinnowJobTrace      *job;         /* NULL: the instance alone */
} WinnowTraceChange;

/* The changes of the events fed since the trace's generation began, one per
 * event that changed a job or an instance, in the order fed: what a reader
 * that keeps a position in them (the timeline's aggregate) folds since it
 * last read. A clear or a cut back (winnow_trace_truncate) begins a new
 * generation with no changes: a reader that saw the old one reads the trace
 * again whole (the objects it knew may be gone). */
const WinnowTraceChange *winnow_trace_get_changes (WinnowTrace *trace,
                                                   guint       *n_changes,
                                                   guint64     *generation);
/* The latest time any event carried (0 when none). */
WnTime           winnow_trace_get_end        (WinnowTrace    *trace);

/* Spans of `spans` (WinnowSpan or WinnowExecution, both start with start/end,
 * ordered by start with ends not decreasing) that meet [t0, t1]: sets *first and
 * *last (exclusive); `now` stands for open ends. O(log n). */
void             winnow_trace_span_range     (const GArray   *spans,
                                              gsize           element_size,
                                              WnTime          t0,
                                              WnTime          t1,
                                              WnTime          now,
                                              guint          *first,
                                              guint          *last);
/* Marks within [t0, t1]. */
void             winnow_trace_mark_range     (const GArray   *marks,
                                              WnTime          t0,
                                              WnTime          t1,
                                              guint          *first,
                                              guint          *last);

/* Which rule of `mapper` classified the job's last fault. The journal names
 * the outcome (and, for technical faults, the raw code) but not the fault's
 * body, so the rule is inferred: the rules whose outcome differs cannot have
 * matched (first match wins). */
typedef enum {
  WINNOW_RULE_MATCHED,      /* *rule is the rule */
  WINNOW_RULE_AMBIGUOUS,    /* *rule is the first of several that could have */
  WINNOW_RULE_NONE,         /* no rule matched: technical by default */
  WINNOW_RULE_UNKNOWN,      /* no fault classified yet, or a clause failed */
} WinnowRuleMatch;

WinnowRuleMatch  winnow_job_trace_match_rule (const WinnowJobTrace *job,
                                              const WnErrorMapper  *mapper,
                                              int                  *rule);


G_DEFINE_AUTOPTR_CLEANUP_FUNC (WinnowTrace, winnow_trace_unref)

G_END_DECLS
