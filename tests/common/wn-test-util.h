/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers shared by the test suites (GLib and the engine only: no display). */
#pragma once

#include <glib.h>
#include "winnow.h"

G_BEGIN_DECLS

/* Path of a file under tests/ in the source tree. */
char *wn_test_source_path (const char *relative);
/* A JSON document from text; fails the test when it does not parse. */
JsonNode *wn_test_json (const char *text);
/* For a test that needs a display (it calls gtk_test_init): exits with 77,
 * meson's "skipped", when there is none. Call it first thing in main(). */
void  wn_test_require_display (const char *test_name);

/* A run of an engine with every journal event recorded. */
typedef struct {
  WnProcess  *process;
  WnScenario *scenario;
  WnEngine   *engine;
  GPtrArray  *events;     /* WnEvent* copies, in order */
} WnTestRun;

/* Every event `engine` journals from now on, copied (WnEvent*); free it
 * after the engine. */
GPtrArray     *wn_test_record        (WnEngine *engine);
/* Recorded events as the JSON-lines journal. */
GString       *wn_test_journal_of    (GPtrArray *events);

/* Load a process (and optionally a scenario) from JSON text; fails the test on a load error. */
WnProcess     *wn_test_load_process  (const char *json);
WnScenario    *wn_test_load_scenario (const char *json);
WnTestRun     *wn_test_run_new       (const char *process_json, const char *scenario_json,
                                      const WnEngineOptions *options);
void           wn_test_run_free      (WnTestRun *run);
/* Run to quiescence (or `limit`), then check the invariants. */
WnStopReason   wn_test_run_until     (WnTestRun *run, WnTime limit);
guint          wn_test_count         (WnTestRun *run, WnEventKind kind, WnEventPhase phase, const char *node);
/* The nth (0-based) event of that kind and phase (and node, when given), or NULL. */
const WnEvent *wn_test_find          (WnTestRun *run, WnEventKind kind, WnEventPhase phase,
                                      const char *node, guint nth);
/* The journal's invariants: seq strictly increasing, t_us never decreasing; each job at
 * most one terminal, and one unless it is still in the store or was canceled; nothing
 * but a stale worker's refused report follows a terminal; a track parks at most once
 * per visit, on a job just enqueued, and wakes only on that job's terminal outcome;
 * nothing moves in an ended instance; retries are owned by the trust mode the job was
 * enqueued with. A broken invariant aborts with the offending event. */
void           wn_test_check_invariants (WnTestRun *run);
/* A variable of an instance, as compact JSON text (NULL when unset). */
char          *wn_test_variable      (WnTestRun *run, const char *instance, const char *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WnTestRun, wn_test_run_free)

/* A process whose job loops without virtual time passing: an always-failing
 * worker, a retry budget that never runs out and no delay; each instance's
 * job executes 10 000 times at T+0 before the engine stops it (issue 17.2). */
#define WN_TEST_LOOP_PROCESS \
  "{\"format\": \"winnow.process/1\", \"id\": \"loop\", \"name\": \"Zero-time loop\"," \
  " \"engine\": {\"onExhausted\": \"fail\"}," \
  " \"nodes\": [{\"id\": \"start\", \"type\": \"startEvent\"}," \
  "  {\"id\": \"call\", \"type\": \"serviceTask\", \"name\": \"Call service\", \"worker\": {\"topic\": \"svc\"," \
  "   \"retry\": {\"policy\": \"fixed\", \"maxAttempts\": 4294967295, \"delay\": \"0s\"}}}," \
  "  {\"id\": \"done\", \"type\": \"endEvent\"}]," \
  " \"flows\": [{\"id\": \"f1\", \"from\": \"start\", \"to\": \"call\"}, {\"id\": \"f2\", \"from\": \"call\", \"to\": \"done\"}]," \
  " \"scenario\": {\"format\": \"winnow.scenario/1\", \"workers\": [{\"id\": \"w\", \"topic\": \"svc\"," \
  "  \"responses\": [{\"after\": \"0s\", \"fail\": {\"code\": \"503\"}}]}]}}"

G_END_DECLS
