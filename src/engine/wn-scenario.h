/* wn-scenario.h — the simulated world around a process (files.md, "Scenario"). */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include "wn-types.h"
#include "wn-lite.h"
#include "wn-process.h"

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

struct _WnScenario {
  gint            ref_count;
  char           *filename;
  gboolean        has_seed;
  guint64         seed;
  WnEngineConfig  engine;         /* overrides of the process's engine block */
  gboolean        has_start;
  GArray         *start;          /* WnStartSpec */
  GPtrArray      *workers;        /* WnWorkerConfig* */
  GArray         *faults;         /* WnFaultSpec */
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

G_END_DECLS
