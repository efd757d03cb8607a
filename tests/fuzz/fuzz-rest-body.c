/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-rest-body.c — the REST API's request bodies (src/server) on a small
 * run: the first byte picks the endpoint, the rest is the body, read and
 * applied as the HTTP side does (wn_rest_server_apply_body). One job of
 * each trust mode is locked by worker "w" first, so bodies that name it
 * reach the engine; the run then goes on, and its journal must keep the
 * dispatcher's invariants (a broken one aborts through the engine's own
 * checks, and GLib criticals are fatal). */
#include "fuzz-target.h"
#include "fuzz-sim.h"
#include "wn-rest-server.h"

static const char process_json[] =
  "{ \"format\": \"winnow.process/1\", \"id\": \"p\","
  "  \"variables\": { \"order\": { \"id\": \"A-1\", \"total\": 50 } },"
  "  \"engine\": { \"maxLock\": \"1m\", \"onExhausted\": \"incident\" },"
  "  \"nodes\": ["
  "    { \"id\": \"start\", \"type\": \"startEvent\" },"
  "    { \"id\": \"trusted\", \"type\": \"serviceTask\", \"worker\": { \"topic\": \"t\" } },"
  "    { \"id\": \"raw\", \"type\": \"serviceTask\", \"worker\": { \"topic\": \"r\","
  "        \"trust\": \"engineAuthoritative\","
  "        \"errorMapper\": [ { \"code\": \"Oops\", \"bpmnError\": { \"code\": \"Oops\" } } ],"
  "        \"outputMapping\": [ { \"path\": \"body.x\", \"var\": \"x\" } ] } },"
  "    { \"id\": \"oops\", \"type\": \"boundaryEvent\", \"attachedTo\": \"trusted\", \"error\": \"Oops\" },"
  "    { \"id\": \"done\", \"type\": \"endEvent\" } ],"
  "  \"flows\": ["
  "    { \"id\": \"f1\", \"from\": \"start\", \"to\": \"trusted\" },"
  "    { \"id\": \"f2\", \"from\": \"start\", \"to\": \"raw\" },"
  "    { \"id\": \"f3\", \"from\": \"trusted\", \"to\": \"done\" },"
  "    { \"id\": \"f4\", \"from\": \"raw\", \"to\": \"done\" },"
  "    { \"id\": \"f5\", \"from\": \"oops\", \"to\": \"done\" } ] }";

static const char *const endpoints[] = {
  "fetchAndLock", "complete", "failure", "bpmnError", "extendLock", "lock", "unlock", "retries",
};

static WnProcess *process;

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  g_autoptr(GError) error = NULL;

  fuzz_init ();
  process = wn_load_process_data (process_json, -1, "fuzz.process.json", NULL, &error);
  if (process == NULL)
    g_error ("the fixed process does not load: %s", error->message);
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static const char lock_both[] =
    "{\"workerId\": \"w\", \"maxTasks\": 5, \"topics\": [{\"topicName\": \"t\", \"lockDuration\": 10000},"
    " {\"topicName\": \"r\", \"lockDuration\": 10000}]}";
  WnEngineOptions options = { 0 };
  g_autoptr(WnEngine) engine = NULL;
  g_autoptr(WnRestServer) server = NULL;
  const char *endpoint;

  if (size == 0)
    return 0;
  options.no_implicit_workers = TRUE;
  engine = wn_engine_new (process, NULL, &options);
  wn_engine_run (engine, 0);
  server = wn_rest_server_new (engine);
  if (!wn_rest_server_apply_body (server, "fetchAndLock", NULL, lock_both, sizeof lock_both - 1, NULL))
    g_error ("the fixed fetch was refused");

  endpoint = endpoints[data[0] % G_N_ELEMENTS (endpoints)];
  for (const char *id = "i1/j1"; id != NULL; id = g_str_equal (id, "i1/j1") ? "i1/j2" : NULL)
    {
      g_autoptr(GError) error = NULL;

      if (!wn_rest_server_apply_body (server, endpoint, id, (const char *) data + 1, size - 1, &error) &&
          error == NULL)
        g_error ("a refusal without an error");
      wn_engine_run (engine, wn_engine_now (engine) + WN_USEC_PER_SEC);
    }
  /* whatever the body did, the run goes on to its end */
  wn_engine_run (engine, 120 * WN_USEC_PER_SEC);
  return 0;
}
