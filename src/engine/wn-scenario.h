/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-scenario.h — the simulated world around a process (files.md, "Scenario"). */
#pragma once

#if !defined (WINNOW_INSIDE) && !defined (WINNOW_COMPILATION)
# error "Only winnow.h can be included directly"
#endif

#include <glib.h>
#include <json-glib/json-glib.h>
#include "wn-types.h"
#include "wn-lite.h"
#include "wn-process.h"
#include "wn-rng.h"

G_BEGIN_DECLS

typedef enum {
  WN_RESPONSE_COMPLETE,
  WN_RESPONSE_FAIL,
  WN_RESPONSE_WORKER_ERROR,
  WN_RESPONSE_CRASH,
  WN_RESPONSE_HANG,
  WN_RESPONSE_RANDOM,
} WnResponseKind;

typedef struct _WnResponse WnResponse;

/* The most a run can hold: instances started by one scenario's `start` entries
 * together (or `--instances`), and execution slots of one worker (`concurrency`).
 * Every slot fetches at t = 0 and every waiting slot is woken by each new job of
 * its topic, so slots cost memory and time whether or not jobs come. */
#define WN_MAX_INSTANCES   10000000
#define WN_MAX_CONCURRENCY 10000

typedef struct {
  double      p;
  WnResponse *response;
} WnChoice;

/* One scripted execution result. */
struct _WnResponse {
  gint           ref_count;
  guint          attempts_lo;     /* 0 = any execution */
  guint          attempts_hi;     /* G_MAXUINT for "N+" */
  WnLite        *when;            /* over `input`, `attempt`; NULL = always */
  WnTime         after;           /* virtual time the execution takes */
  WnResponseKind kind;
  JsonNode      *body;            /* complete: output; fail: body; hang: output */
  char          *code;            /* fail */
  char          *message;         /* fail, workerError */
  char          *bpmn_code;       /* workerError {bpmnErrorCode} */
  JsonNode      *status;          /* workerError {status} */
  char          *cause;           /* workerError {cause} */
  WnChoice      *choices;         /* random */
  guint          n_choices;
};

WnResponse *wn_response_new   (WnResponseKind kind);
WnResponse *wn_response_ref   (WnResponse *response);
void        wn_response_unref (WnResponse *response);

/* Building a response by hand (the app's fault injection) under the rules a
 * scenario file's response follows; the loader builds its responses with
 * these too, so a built response is one a file could hold, and the session
 * saves and reloads it as it is. Each returns a new response (the caller's)
 * that takes no time (after = 0); values are copied. */
#define WN_RESPONSE_ERROR (wn_response_error_quark ())
GQuark wn_response_error_quark (void);

typedef enum {
  WN_RESPONSE_ERROR_NO_CODE,       /* a BPMN error without a code (NULL or "") */
  WN_RESPONSE_ERROR_NO_STATUS,     /* a status outcome without a value */
  WN_RESPONSE_ERROR_NOT_OBJECT,    /* a hang's late body that is not an object */
  WN_RESPONSE_ERROR_NEGATIVE,      /* a negative after (or hang duration) */
  WN_RESPONSE_ERROR_NO_AFTER,      /* an after for a random response (each choice has its own) */
} WnResponseError;

/* {"complete": output}: NULL is {}. */
WnResponse *wn_response_new_complete   (JsonNode *output);
/* {"fail": {"code", "body", "message"}}: a technical failure; each may be NULL. */
WnResponse *wn_response_new_fail       (const char *code, JsonNode *body, const char *message);
/* {"workerError": {"bpmnErrorCode": code, "message"}}: the worker's own BPMN
 * error verdict; message may be NULL. */
WnResponse *wn_response_new_bpmn_error (const char *code, const char *message, GError **error);
/* {"workerError": {"status": status, "message"}}: the worker's own status
 * verdict (any JSON value); message may be NULL. */
WnResponse *wn_response_new_status     (JsonNode *status, const char *message, GError **error);
/* {"workerError": {"cause": cause, "message"}}: a worker error that is
 * neither; message may be NULL. */
WnResponse *wn_response_new_cause      (const char *cause, const char *message);
/* {"crash": true}: the worker dies with the job in hand. */
WnResponse *wn_response_new_crash      (void);
/* {"hang": late_body, "after": duration}: the worker holds the job for
 * `duration`, then reports complete with `late_body` (an object; NULL is
 * {"hang": true}, which completes with {}). */
WnResponse *wn_response_new_hang       (WnTime duration, JsonNode *late_body, GError **error);
/* {"after": after}: the time the execution takes (≥ 0); not for a random
 * response. */
gboolean    wn_response_set_after      (WnResponse *response, WnTime after, GError **error);
/* One line for people: "fail 503 after 200ms", "crash", "complete after 100ms". */
char       *wn_response_describe (const WnResponse *response);

typedef struct {
  char       *id;
  char       *topic;
  gboolean    has_lock_duration;
  WnTime      lock_duration;
  guint       concurrency;        /* ≥ 1 */
  GPtrArray  *responses;          /* WnResponse* */
} WnWorkerConfig;

typedef struct {
  WnTime      at;
  guint       count;              /* ≥ 1 */
  JsonObject *variables;          /* NULL = none */
} WnStartSpec;

typedef struct {
  WnTime      at;
  char       *topic;              /* one of topic / worker */
  char       *worker;
  WnResponse *next;
} WnFaultSpec;

/* A distribution of durations, drawn from the run's PRNG. */
typedef enum {
  WN_DISTRIBUTION_FIXED,        /* a */
  WN_DISTRIBUTION_UNIFORM,      /* uniform in [a, b] */
  WN_DISTRIBUTION_EXPONENTIAL,  /* mean a */
  WN_DISTRIBUTION_LOGNORMAL,    /* median a, sigma (the log's standard deviation) */
} WnDistributionKind;

typedef struct {
  WnDistributionKind kind;
  WnTime             a;
  WnTime             b;
  double             sigma;
} WnDistribution;

/* One draw, in whole µs within [0, WN_TIME_NEVER - 1]; a fixed one draws
 * nothing from the generator, the others one or two numbers. */
WnTime      wn_distribution_draw     (const WnDistribution *distribution, WnRng *rng);
/* "5m", "uniform 2m–10m", "exponential, mean 5m", "lognormal, median 5m, σ 0.5" */
char       *wn_distribution_describe (const WnDistribution *distribution);

/* A pool of `count` simulated people (the scenario's `people`): each takes
 * one user task at a time, the tasks waiting for them first come first
 * served, and spends a `duration` drawn for each task. */
typedef struct {
  char          *id;
  guint          count;           /* 1 … 10 000 */
  WnDistribution duration;
} WnPeopleSpec;

/* How the scenario's people finish a user task (its `userTasks`): the first
 * rule for the node whose `when` (lite over the instance's variables; NULL:
 * always) is true applies; `after` the task is entered — or, with `by`, when
 * one of that pool's people has taken it and spent the pool's duration on it
 * — it completes it with `variables` (merged into the instance's) or throws
 * the BPMN error `code`. */
typedef struct {
  char       *node;
  WnLite     *when;
  WnTime      after;
  char       *by;                 /* a WnPeopleSpec's id, or NULL */
  JsonObject *variables;          /* complete: NULL = none */
  char       *code;               /* NULL: complete */
  char       *message;
} WnUserTaskSpec;

/* A message the scenario sends at `at`: correlated by `name` and, when
 * given, `key`, with `variables` for the instance that takes it. */
typedef struct {
  WnTime      at;
  WnTime      ttl;                /* > 0: kept this long for a wait that begins later; 0: lost at once */
  char       *name;
  JsonNode   *key;                /* NULL: any waiting node of that name */
  JsonObject *variables;          /* NULL: none */
} WnMessageSpec;

/* An operator's command recorded during an interactive run, replayed exactly:
 * after `after` scheduler actions, at virtual time `at` (journal-and-cli.md has
 * no such thing: a saved session keeps them under the scenario's "x-winnow" key). */
/* `decisions`: the weights a gateway the scenario decides draws its flow by. */
typedef struct {
  char       *flow;
  guint       weight;             /* ≥ 0 */
} WnDecisionWeight;

typedef struct {
  char       *gateway;
  GArray     *weights;            /* WnDecisionWeight, in the scenario's order; their sum > 0 */
} WnDecisionSpec;

typedef enum {
  WN_COMMAND_START,                                          /* variables */
  WN_COMMAND_INJECT,                                         /* topic or worker, response */
  WN_COMMAND_TRUST_DEFAULT,     /*< nick=trustDefault >*/    /* trust */
  WN_COMMAND_TASK_TRUST,        /*< nick=taskTrust >*/       /* node, trust (UNSET = inherit) */
  WN_COMMAND_INCIDENT_RETRY,    /*< nick=incidentRetry >*/   /* instance, node (NULL = any) */
  WN_COMMAND_INCIDENT_RESOLVE,  /*< nick=incidentResolve >*/ /* instance, node (NULL = any) */
  WN_COMMAND_CANCEL,                                         /* instance */
  WN_COMMAND_CLOCK,                                          /* phase (paused/resumed/stepped), action */
  WN_COMMAND_USER_COMPLETE,     /*< nick=userTaskComplete >*/ /* instance, node (NULL = any), variables */
  WN_COMMAND_USER_ERROR,        /*< nick=userTaskError >*/    /* instance, node (NULL = any), code, message */
  WN_COMMAND_CORRELATE,                                      /* message (the name), key, variables */
  WN_COMMAND_EXTERNAL,                                       /* call: an outside worker's (wn-external.h) */
  WN_COMMAND_TOPIC_SIMULATED,   /*< nick=topicSimulated >*/  /* topic, on */
  WN_COMMAND_CANCEL_INJECTION,  /*< nick=cancelInjection >*/ /* injection (its id) */
} WnCommandKind;

typedef struct {
  guint64        after;
  WnTime         at;
  WnCommandKind  kind;
  JsonObject    *variables;
  char          *topic;
  char          *worker;
  WnResponse    *response;
  WnTrust        trust;
  char          *node;
  char          *instance;
  int            phase;          /* WnEventPhase, for WN_COMMAND_CLOCK */
  char          *action;
  char          *code;           /* WN_COMMAND_USER_ERROR */
  char          *message;        /* WN_COMMAND_USER_ERROR's message; WN_COMMAND_CORRELATE's name */
  JsonNode      *key;            /* WN_COMMAND_CORRELATE */
  JsonObject    *call;           /* WN_COMMAND_EXTERNAL: the call, as docs/rest-api.md records it */
  gboolean       on;             /* WN_COMMAND_TOPIC_SIMULATED: the topic's simulated workers on */
  guint          injection;      /* WN_COMMAND_CANCEL_INJECTION: the pending injection's id */
} WnCommand;

WnCommand  *wn_command_new   (WnCommandKind kind, guint64 after, WnTime at);
/* "start", "inject", "trustDefault", "taskTrust", "incidentRetry", "incidentResolve", "cancel", "clock",
 * "userTaskComplete", "userTaskError", "correlate", "external", "topicSimulated", "cancelInjection" */
const char *wn_command_kind_to_string   (WnCommandKind kind);
gboolean    wn_command_kind_from_string (const char *text, WnCommandKind *out);
void        wn_command_free  (WnCommand *command);
/* A deep copy: every field (a rerun replays copies; wn-travel.c). */
WnCommand  *wn_command_copy  (const WnCommand *command);
/* The command as a JSON object node, as the loader reads it back. */
JsonNode   *wn_command_to_json (const WnCommand *command);
/* A response as a JSON object node, as the loader reads it back. */
JsonNode   *wn_response_to_json (const WnResponse *response);

/* A what-if branch of a saved session ("x-winnow".branches, the app's). */
typedef struct {
  char      *name;
  int        parent;     /* an earlier branch's index; -1: the first */
  guint64    fork;       /* the parent's events it shares */
  guint64    end;        /* the furthest event it reached */
  GPtrArray *commands;   /* WnCommand*: its record */
} WnScenarioBranch;

struct _WnScenario {
  gint            ref_count;
  char           *filename;
  gboolean        has_seed;
  guint64         seed;
  gboolean        has_epoch;      /* `epoch`: the instant t = 0 stands for (date timers) */
  gint64          epoch_us;       /* µs since the Unix epoch */
  WnEngineConfig  engine;         /* overrides of the process's engine block */
  gboolean        has_start;
  GArray         *start;          /* WnStartSpec */
  GPtrArray      *workers;        /* WnWorkerConfig* */
  GArray         *faults;         /* WnFaultSpec */
  GPtrArray      *commands;       /* WnCommand*, in order ("x-winnow".commands) */
  GPtrArray      *branches;       /* WnScenarioBranch* ("x-winnow".branches.list); empty: none */
  guint           branch_shown;   /* "x-winnow".branches.shown */
  GArray         *user_tasks;     /* WnUserTaskSpec, in order: the first for a node applies */
  GArray         *messages;       /* WnMessageSpec */
  GArray         *people;         /* WnPeopleSpec */
  GArray         *decisions;      /* WnDecisionSpec */
  JsonNode       *source;         /* the scenario object as loaded, or NULL */
  gboolean        outside_workers;/* a served run's session ("x-winnow".outsideWorkers): no
                                   * implicit workers, as WnEngineOptions.no_implicit_workers */
};

WnScenario *wn_scenario_new   (void);
WnScenario *wn_scenario_ref   (WnScenario *scenario);
void        wn_scenario_unref (WnScenario *scenario);
WnWorkerConfig *wn_scenario_add_worker (WnScenario *scenario, const char *id, const char *topic);
void        wn_scenario_add_start  (WnScenario *scenario, WnTime at, guint count, JsonObject *variables);
void        wn_scenario_add_fault  (WnScenario *scenario, WnTime at, const char *topic,
                                    const char *worker, WnResponse *next);

/* Whether response `r` applies to execution `n` with the given input. An evaluation
 * error counts as "does not apply" and is reported in *error when given. */
gboolean    wn_response_matches    (const WnResponse *r, guint n, JsonNode *input, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WnScenario, wn_scenario_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WnResponse, wn_response_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WnCommand, wn_command_free)

G_END_DECLS
