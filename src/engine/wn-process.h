/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-process.h — a loaded, validated process model (files.md, "Process").
 *
 * Plain, immutable-after-load structs: front ends read them directly. Build one
 * with the loader (wn-loader.h) or by hand in tests with wn_process_new() and
 * wn_process_finish().
 */
#pragma once

#if !defined (WINNOW_INSIDE) && !defined (WINNOW_COMPILATION)
# error "Only winnow.h can be included directly"
#endif

#include <glib.h>
#include <json-glib/json-glib.h>
#include "wn-types.h"
#include "wn-lite.h"
#include "wn-policy.h"

G_BEGIN_DECLS

typedef struct _WnScenario WnScenario;

typedef enum {
  WN_NODE_START,      /*< nick=startEvent >*/
  WN_NODE_END,        /*< nick=endEvent >*/
  WN_NODE_TASK,
  WN_NODE_SCRIPT,     /*< nick=scriptTask >*/
  WN_NODE_SERVICE,    /*< nick=serviceTask >*/
  WN_NODE_BOUNDARY,   /*< nick=boundaryEvent >*/
  WN_NODE_EXCLUSIVE,  /*< nick=exclusiveGateway >*/
  WN_NODE_PARALLEL,   /*< nick=parallelGateway >*/
  WN_NODE_TIMER,      /*< nick=timerEvent >*/
  /* Engine II */
  WN_NODE_SUBPROCESS, /*< nick=subProcess >*/
  WN_NODE_MANUAL,     /*< nick=manualTask >*/
  WN_NODE_THROW,      /*< nick=intermediateThrowEvent >*/
  WN_NODE_USER,       /*< nick=userTask >*/
  WN_NODE_MESSAGE,    /*< nick=messageEvent >*/
  WN_NODE_RECEIVE,    /*< nick=receiveTask >*/
  WN_NODE_EVENT_GATEWAY, /*< nick=eventBasedGateway >*/
} WnNodeType;

/* "startEvent", "endEvent", "task", "scriptTask", "serviceTask", "boundaryEvent",
 * "exclusiveGateway", "parallelGateway", "timerEvent", "subProcess", "manualTask",
 * "intermediateThrowEvent", "userTask", "messageEvent", "receiveTask", "eventBasedGateway". */
const char *wn_node_type_to_string   (WnNodeType type);
gboolean    wn_node_type_from_string (const char *text, WnNodeType *out);

typedef struct {
  char   *var;
  WnLite *expr;
} WnAssignment;

typedef struct {
  char          *topic;
  guint8         topic_plain;      /* its plain length for the journal (WnEvent.plain_len),
                                    * set by wn_process_finish(); 0: not known */
  GPtrArray     *input;            /* WnPath*; NULL = all instance variables */
  WnPolicyLevel  policy;           /* trust, retry, errorMapper, outputMapping */
  char          *output_var;       /* where the raw output goes without a mapping */
  char          *status_var;       /* NULL: the task takes no status */
  gboolean       status_overwrite;
} WnWorkerSpec;

/* `multiInstance` on an activity: it runs once per item, in parallel or one
 * after the other. */
typedef struct {
  gboolean  sequential;
  guint     cardinality;           /* > 0: this many times */
  WnPath   *collection;            /* else: once per element of this array variable */
  char     *element;               /* the variable each iteration's element goes to, or NULL */
  WnLite   *completion;            /* optional: checked after each iteration; true ends the rest */
  char     *output_collection;     /* optional: the array variable collecting each iteration's */
  WnLite   *output_element;        /* …outputElement, evaluated as the iteration completes */
} WnMultiInstance;

typedef struct {
  guint          index;
  guint8         id_plain;         /* the id's plain length for the journal (WnEvent.plain_len),
                                    * set by wn_process_finish(); 0: not known */
  char          *id;
  char          *name;             /* NULL: show the id */
  WnNodeType     type;
  WnTime         duration;         /* task, scriptTask, in-process serviceTask, timerEvent */
  WnAssignment  *set;              /* scriptTask */
  guint          n_set;
  WnWorkerSpec  *worker;           /* serviceTask with a worker, else NULL */
  char          *error_code;       /* boundaryEvent: the caught code; endEvent: the thrown code or NULL */
  int            attached_to;      /* boundaryEvent: host node index; else -1 */
  int            default_flow;     /* exclusiveGateway: flow index or -1 */
  gboolean       scenario_decides; /* exclusiveGateway `"decidedBy": "scenario"`: the flow taken is
                                    * drawn by the scenario's `decisions` weights (no conditions) */
  GArray        *outgoing;         /* guint flow indices, document order */
  GArray        *incoming;         /* guint flow indices */
  GArray        *boundaries;       /* guint node indices of boundaries attached here */
  /* Engine II */
  int            scope;            /* the subProcess this node is inside (its index); -1: the process */
  int            inner_start;      /* subProcess: its start event's index; else -1 */
  gboolean       terminate;        /* endEvent: a terminate end event */
  gboolean       catch_all;        /* boundaryEvent: catches every BPMN error code (error_code NULL) */
  WnTime         timer;            /* boundaryEvent: a timer boundary firing this long after its
                                    * host is entered; 0: an error boundary */
  guint          repeat;           /* timer boundary: how often it fires in all (≥ 1; > 1 only
                                    * when not interrupting), every `timer` */
  gboolean       non_interrupting; /* timer or message boundary: the host goes on when it fires */
  /* A date timer (`"date"`, BPMN's timeDate): the timerEvent or timer boundary
   * fires at this instant (µs since the Unix epoch), as long after t = 0 as
   * it is after the scenario's `epoch`; `timer` (a boundary) or `duration`
   * (a timerEvent) is then 1 µs, a marker: the wait is reckoned when armed. */
  gboolean       has_date;
  gint64         date_us;
  char          *message;          /* messageEvent, receiveTask, message boundary: the name it waits for */
  WnLite        *correlation;      /* optional: its correlation key, over the variables when it starts to wait */
  WnMultiInstance *multi;          /* an activity's multiInstance, or NULL */
  /* Event sub-processes (a subProcess with triggeredByEvent). Its startEvent
   * holds the trigger in the boundary fields: error_code / catch_all, timer
   * with repeat, or message with correlation; non_interrupting. */
  gboolean       triggered_by_event; /* subProcess: an event sub-process */
  GArray        *event_subs;       /* subProcess: guint indices of the event sub-processes
                                    * directly inside it, or NULL when none */
} WnNode;

typedef struct {
  guint   index;
  char   *id;
  guint   from;
  guint   to;
  WnLite *condition;               /* NULL: unconditional */
} WnFlow;

/* The `engine` block: engine-wide defaults. */
typedef struct {
  WnPolicyLevel  policy;           /* trust, retry, errorMapper (mapping unused) */
  gboolean       has_max_lock;
  WnTime         max_lock;
  WnOnExhausted  on_exhausted;     /* UNSET = not given */
} WnEngineConfig;

void wn_engine_config_clear (WnEngineConfig *config);
/* Fields set in `over` replace those in `base`. */
void wn_engine_config_merge (WnEngineConfig *base, const WnEngineConfig *over);

/* A BPMN model's diagram (BPMNDI), in its own units (pixels in the modeller). */
typedef struct {
  double x, y, width, height;
} WnDiagramShape;

typedef struct {
  double x, y;
} WnDiagramPoint;

typedef struct {
  WnDiagramPoint *points;          /* source to target */
  guint           n_points;        /* 0: the file has no edge for the flow */
} WnDiagramEdge;

/* A pool (the participant that holds the process) or one of its lanes. */
typedef struct {
  WnDiagramShape  bounds;
  char           *name;            /* NULL: none */
  gboolean        lane;            /* a lane, else the pool */
  gboolean        vertical;        /* isHorizontal="false": the name band is at the top */
} WnDiagramFrame;

typedef struct {
  WnDiagramShape *shapes;          /* per node, by index (every node has one) */
  WnDiagramEdge  *edges;           /* per flow, by index */
  guint           n_shapes;
  guint           n_edges;
  /* BPMNLabel bounds, per node and per flow (width 0: the file has none) */
  WnDiagramShape *node_labels;
  WnDiagramShape *flow_labels;
  WnDiagramFrame *frames;          /* the pool first, then its lanes (outer before inner) */
  guint           n_frames;
  /* Per node: a subProcess drawn closed (isExpanded="false", or without
   * isExpanded and none of its content drawn beside it, in its plane): its
   * content is not part of this diagram (no shape needed). */
  gboolean       *collapsed;
} WnDiagram;

void wn_diagram_free (WnDiagram *diagram);

typedef struct {
  gint           ref_count;
  char          *filename;         /* where it was loaded from, or NULL */
  char          *id;
  char          *name;
  char          *about;            /* x-about, or NULL */
  JsonObject    *variables;        /* never NULL */
  WnEngineConfig engine;
  WnNode        *nodes;
  guint          n_nodes;
  WnFlow        *flows;
  guint          n_flows;
  guint          start;            /* index of the start event */
  WnScenario    *scenario;         /* embedded scenario, or NULL */
  GHashTable    *node_index;       /* id → GUINT_TO_POINTER (index + 1) */
  WnDiagram     *diagram;          /* as its author drew it (BPMN import), or NULL */
  GPtrArray     *warnings;         /* char*: what an import (BPMN) ignored, as FILE:LINE:COL: lines; or NULL */
  GArray        *event_subs;       /* guint indices of the event sub-processes directly in
                                    * the process, or NULL when none */
  gboolean       extended;         /* uses an Engine II construct: its journal names scopes and
                                    * each job a cancellation removes (docs/user-guide.md §6) */
  gpointer       builder;          /* private: pending builder state until wn_process_finish() */
} WnProcess;

WnProcess  *wn_process_ref          (WnProcess *process);
void        wn_process_unref        (WnProcess *process);
/* NULL when there is no such node. */
const WnNode *wn_process_find_node  (const WnProcess *process, const char *id);
const WnFlow *wn_process_find_flow  (const WnProcess *process, const char *id);

/* Building by hand (tests, generators): add nodes and flows, then finish. The
 * builder does no validation beyond what wn_process_finish() checks; the loader
 * validates files fully. Returned pointers are valid until the next add. */
WnProcess  *wn_process_new          (const char *id);
WnNode     *wn_process_add_node     (WnProcess *process, const char *id, WnNodeType type);
WnFlow     *wn_process_add_flow     (WnProcess *process, const char *id, const char *from,
                                     const char *to, const char *condition);
WnWorkerSpec *wn_worker_spec_new    (const char *topic);
void        wn_worker_spec_free     (WnWorkerSpec *spec);
void        wn_multi_instance_free  (WnMultiInstance *multi);
/* Resolves indices (start, incoming/outgoing, boundaries, defaults given by id via
 * wn_process_set_default_flow); FALSE + error when the graph is inconsistent. */
gboolean    wn_process_set_default_flow (WnProcess *process, const char *gateway, const char *flow);
gboolean    wn_process_set_attached_to  (WnProcess *process, const char *boundary, const char *host);
/* Put `node` inside the subProcess `parent` (both by id). */
gboolean    wn_process_set_scope        (WnProcess *process, const char *node, const char *parent);
gboolean    wn_process_finish       (WnProcess *process, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WnProcess, wn_process_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WnWorkerSpec, wn_worker_spec_free)
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (WnEngineConfig, wn_engine_config_clear)

G_END_DECLS
