/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Property tests: random valid processes under random scenarios, every journal
 * checked against the engine's invariants.
 *
 * A seed drives a generator of structured processes (service tasks with error
 * boundaries and policies, scripts, timers, exclusive splits with conditions
 * over `n` and a default, parallel fork/join pairs, bounded loops, early and
 * error ends, and Engine II constructs now and then: sub-processes with error and timer
 * boundaries, terminate and error ends inside them, user tasks finished by
 * the scenario's rules, receive tasks and event-based gateways fed by its
 * messages, multi-instance service tasks;
 * /engine/Properties/random-scoped-runs puts every process's body in a
 * sub-process) and of scenarios (workers that complete, fail with codes, report worker errors,
 * crash beside a second worker, hang; random choices; injections; lock
 * durations; both trust modes per task and engine-wide; both onExhausted
 * modes; retry policies) and an operator who, part-way (possibly inside an
 * instant) and at quiescence, changes trust, cancels, injects, starts, and
 * retries or resolves incidents. Each run is checked by
 * wn_test_check_invariants() and by the end-of-run properties below; the
 * session it leaves is saved and replayed to the same journal; and the whole
 * case runs twice to prove it deterministic.
 *
 * WINNOW_PROPERTY_SEEDS=N and WINNOW_PROPERTY_FIRST_SEED=S choose the seeds
 * (default 1000 from 1); WINNOW_PROPERTY_DUMP=DIR writes each case's process
 * and scenario there, for winnow-run. Under `meson test --setup valgrind` the
 * default is 200 seeds: memcheck makes each run some fifty times slower, and
 * 200 seeds still reach every behaviour the coverage check asks for. A failure
 * prints the seed and the generated documents.
 */
#include "wn-test-util.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

#define N_SEEDS          1000
#define N_SEEDS_VALGRIND 200
#define N_TOPICS_MAX     4
/* A virtual-time limit: every generated run that can end does so well before
 * it; one that cannot (a worker whose every execution outlasts its lock is
 * reclaimed forever, as in any engine with locks) stops there. The budget of
 * scheduler actions guards against a runaway within one instant. */
#define LIMIT            (10 * 60 * WN_USEC_PER_SEC)
#define BUDGET           200000
/* Seeds with this bit set generate processes whose body is a subProcess with
 * boundaries (/engine/Properties/random-scoped-runs), so that every one of them
 * uses scopes; the others use them now and then. */
#define SCOPED_SEED      0x80000000u

/* ---- the generator ---- */

typedef struct {
  GRand      *rand;
  JsonArray  *nodes;
  JsonArray  *flows;
  guint       next_id;
  guint       n_topics;
  guint       n_status;
  gboolean    scoped;     /* the whole process inside a subProcess (seeds with SCOPED_SEED set) */
  GPtrArray  *user_tasks; /* char*: the userTask ids, for the scenario's rules */
} Gen;

static gboolean
chance (Gen *g, double p)
{
  return g_rand_double (g->rand) < p;
}

static int
pick (Gen *g, int lo, int hi)
{
  return g_rand_int_range (g->rand, lo, hi + 1);
}

static const char *
one_of (Gen *g, const char * const *items, guint n)
{
  return items[g_rand_int_range (g->rand, 0, (gint32) n)];
}

#define ONE_OF(g, ...) \
  ({ static const char * const items_[] = { __VA_ARGS__ }; one_of ((g), items_, G_N_ELEMENTS (items_)); })

static void
set_ms (JsonObject *o, const char *key, int ms)
{
  g_autofree char *text = g_strdup_printf ("%dms", ms);

  json_object_set_string_member (o, key, text);
}

/* A new node of `type`; its id goes to *id (owned by the caller). */
static JsonObject *
add_node (Gen        *g,
          const char *prefix,
          const char *type,
          char      **id)
{
  JsonObject *node = json_object_new ();

  *id = g_strdup_printf ("%s%u", prefix, ++g->next_id);
  json_object_set_string_member (node, "id", *id);
  json_object_set_string_member (node, "type", type);
  json_array_add_object_element (g->nodes, node);
  return node;
}

static char *
add_flow (Gen        *g,
          const char *from,
          const char *to,
          const char *condition)
{
  JsonObject *flow = json_object_new ();
  char *id = g_strdup_printf ("f%u", ++g->next_id);

  json_object_set_string_member (flow, "id", id);
  json_object_set_string_member (flow, "from", from);
  json_object_set_string_member (flow, "to", to);
  if (condition != NULL)
    json_object_set_string_member (flow, "condition", condition);
  json_array_add_object_element (g->flows, flow);
  return id;
}

static void
connect (Gen *g, const char *from, const char *to)
{
  g_free (add_flow (g, from, to, NULL));
}

static JsonNode *
gen_retry (Gen *g)
{
  JsonObject *retry = json_object_new ();
  JsonNode *node;

  switch (pick (g, 0, 3))
    {
    case 0:
      json_object_set_string_member (retry, "policy", "none");
      break;
    case 1:
      json_object_set_string_member (retry, "policy", "fixed");
      json_object_set_int_member (retry, "maxAttempts", pick (g, 1, 4));
      set_ms (retry, "delay", pick (g, 0, 4) * 250);
      break;
    case 2:
      json_object_set_string_member (retry, "policy", "exponential");
      json_object_set_int_member (retry, "maxAttempts", pick (g, 1, 5));
      set_ms (retry, "base", pick (g, 1, 5) * 100);
      set_ms (retry, "max", pick (g, 1, 10) * 1000);
      json_object_set_boolean_member (retry, "jitter", chance (g, 0.5));
      break;
    default:
      json_object_unref (retry);
      return json_node_init_string (json_node_alloc (), "default");
    }
  node = json_node_init_object (json_node_alloc (), retry);
  json_object_unref (retry);
  return node;
}

static JsonObject *
bpmn_error (const char *code, const char *message)
{
  JsonObject *e = json_object_new ();

  json_object_set_string_member (e, "code", code);
  if (message != NULL)
    json_object_set_string_member (e, "message", message);
  return e;
}

/* An error mapper; status rules only where the task takes a status. */
static JsonArray *
gen_mapper (Gen *g, gboolean with_status)
{
  JsonArray *rules = json_array_new ();
  int n = pick (g, 0, 3);

  for (int i = 0; i < n; i++)
    {
      JsonObject *rule = json_object_new ();

      switch (pick (g, 0, 6))
        {
        case 0:
          json_object_set_string_member (rule, "code", "404");
          json_object_set_object_member (rule, "bpmnError", bpmn_error ("E1", "not found"));
          break;
        case 1:
          json_object_set_string_member (rule, "code", "500");
          json_object_set_boolean_member (rule, "technical", TRUE);
          break;
        case 2:
          json_object_set_string_member (rule, "when", "body.r == 'x'");
          json_object_set_object_member (rule, "bpmnError", bpmn_error ("E2", NULL));
          break;
        case 3:
          /* reads a path that is never there: a mapper error, so technical */
          json_object_set_string_member (rule, "when", "body.nope > 1");
          json_object_set_boolean_member (rule, "technical", TRUE);
          break;
        case 4:
          if (with_status)
            {
              json_object_set_string_member (rule, "code", "409");
              json_object_set_string_member (rule, "status", "CONFLICT");
            }
          else
            {
              json_object_set_string_member (rule, "code", "409");
              json_object_set_object_member (rule, "bpmnError", bpmn_error ("E3", "conflict"));
            }
          break;
        case 5:
          if (with_status)
            {
              json_object_set_string_member (rule, "when", "code == '503'");
              json_object_set_string_member (rule, "status", "LATER");
            }
          else
            json_object_set_object_member (rule, "bpmnError", bpmn_error ("E3", "catch-all"));
          break;
        default:
          json_object_set_string_member (rule, "code", "503");
          json_object_set_boolean_member (rule, "technical", TRUE);
          break;
        }
      json_array_add_object_element (rules, rule);
    }
  return rules;
}

static void gen_sequence (Gen *g, int depth, gboolean in_parallel, char **entry, char **exit);
static char *gen_condition (Gen *g);

/* `n` boundary events on `host` (which *entry and *exit become, or a merge
 * after it): error boundaries with a code or for any code, and timer ones,
 * interrupting (back to the merge) or not (to an end event of their own, so
 * that no second token goes on down the sequence). */
static void
gen_boundaries (Gen *g, char *host, int n, char **entry, char **exit)
{
  char *merge;
  int first = pick (g, 1, 3);

  if (n == 0)
    {
      *entry = host;
      *exit = g_strdup (host);
      return;
    }
  add_node (g, "merge", "exclusiveGateway", &merge);
  connect (g, host, merge);
  for (int i = 0; i < n; i++)
    {
      g_autofree char *boundary = NULL;
      g_autofree char *code = g_strdup_printf ("E%d", first + i);
      JsonObject *b = add_node (g, "catch", "boundaryEvent", &boundary);
      gboolean timer = chance (g, 0.3);

      json_object_set_string_member (b, "attachedTo", host);
      if (timer)
        {
          set_ms (b, "timer", pick (g, 1, 40) * 100);
          if (chance (g, 0.4))
            {
              g_autofree char *end = NULL;

              json_object_set_boolean_member (b, "interrupting", FALSE);
              if (chance (g, 0.5))
                json_object_set_int_member (b, "repeat", pick (g, 1, 3));
              add_node (g, "tend", "endEvent", &end);
              connect (g, boundary, end);
              continue;
            }
        }
      else if (chance (g, 0.2))
        json_object_set_boolean_member (b, "error", TRUE);
      else
        json_object_set_string_member (b, "error", code);
      if (chance (g, 0.5))
        {
          g_autofree char *script = NULL;
          JsonObject *s = add_node (g, "handle", "scriptTask", &script);
          JsonObject *set = json_object_new ();

          json_object_set_string_member (set, "caught", "n + 100");
          json_object_set_object_member (s, "set", set);
          connect (g, boundary, script);
          connect (g, script, merge);
        }
      else
        connect (g, boundary, merge);
    }
  *entry = host;
  *exit = merge;
}

static void gen_service (Gen *g, char **entry, char **exit);
static void gen_script (Gen *g, char **entry, char **exit);

/* An event sub-process in the scope being built: started by an error (a code
 * or any), a timer (interrupting, or not and maybe repeating) or a message (m1
 * or m2, maybe correlated by `n`, interrupting or not); its body a service
 * task, so that its jobs are canceled with everything else now and then, or a
 * script. */
static void
gen_event_sub (Gen *g)
{
  JsonArray *outer_nodes = g->nodes;
  JsonArray *outer_flows = g->flows;
  g_autofree char *sub = NULL;
  JsonObject *node = add_node (g, "esub", "subProcess", &sub);
  g_autofree char *start = NULL;
  g_autofree char *first = NULL;
  g_autofree char *last = NULL;
  g_autofree char *end = NULL;
  JsonObject *trigger;

  json_object_set_boolean_member (node, "triggeredByEvent", TRUE);
  g->nodes = json_array_new ();
  g->flows = json_array_new ();
  trigger = add_node (g, "estart", "startEvent", &start);
  switch (pick (g, 0, 2))
    {
    case 0:
      if (chance (g, 0.3))
        json_object_set_boolean_member (trigger, "error", TRUE);
      else
        json_object_set_string_member (trigger, "error", ONE_OF (g, "E1", "E2", "EarlyError"));
      break;
    case 1:
      set_ms (trigger, "timer", pick (g, 1, 40) * 100);
      if (chance (g, 0.5))
        {
          json_object_set_boolean_member (trigger, "interrupting", FALSE);
          if (chance (g, 0.5))
            json_object_set_int_member (trigger, "repeat", pick (g, 1, 3));
        }
      break;
    default:
      json_object_set_string_member (trigger, "message", ONE_OF (g, "m1", "m2"));
      if (chance (g, 0.5))
        json_object_set_string_member (trigger, "correlation", "n");
      if (chance (g, 0.5))
        json_object_set_boolean_member (trigger, "interrupting", FALSE);
      break;
    }
  if (chance (g, 0.6))
    gen_service (g, &first, &last);
  else
    gen_script (g, &first, &last);
  add_node (g, "eend", "endEvent", &end);
  connect (g, start, first);
  connect (g, last, end);
  json_object_set_array_member (node, "nodes", g->nodes);
  json_object_set_array_member (node, "flows", g->flows);
  g->nodes = outer_nodes;
  g->flows = outer_flows;
}

/* A subProcess whose nodes and flows are its own: a sequence, then sometimes a
 * way out through an error end event (a code its boundaries or an outer
 * scope's may catch) or a terminate end event; with boundaries of its own. */
static void
gen_subprocess (Gen *g, int depth, gboolean in_parallel, char **entry, char **exit)
{
  JsonArray *outer_nodes = g->nodes;
  JsonArray *outer_flows = g->flows;
  char *sub;
  JsonObject *node = add_node (g, "sub", "subProcess", &sub);
  g_autofree char *start = NULL;
  g_autofree char *first = NULL;
  g_autofree char *last = NULL;
  g_autofree char *end = NULL;

  g->nodes = json_array_new ();
  g->flows = json_array_new ();
  add_node (g, "in", "startEvent", &start);
  gen_sequence (g, depth + 1, in_parallel, &first, &last);
  add_node (g, "out", "endEvent", &end);
  connect (g, start, first);
  if (chance (g, 0.4))
    {
      g_autofree char *split = NULL;
      g_autofree char *special = NULL;
      g_autofree char *condition = gen_condition (g);
      g_autofree char *flow = NULL;
      JsonObject *x = add_node (g, "xsub", "exclusiveGateway", &split);
      JsonObject *e = add_node (g, "send", "endEvent", &special);

      if (chance (g, 0.3))
        json_object_set_boolean_member (e, "terminate", TRUE);
      else
        json_object_set_string_member (e, "error", ONE_OF (g, "E1", "E2", "EarlyError"));
      connect (g, last, split);
      g_free (add_flow (g, split, special, condition));
      flow = add_flow (g, split, end, NULL);
      json_object_set_string_member (x, "default", flow);
    }
  else
    connect (g, last, end);
  if (chance (g, 0.3))
    gen_event_sub (g);
  json_object_set_array_member (node, "nodes", g->nodes);
  json_object_set_array_member (node, "flows", g->flows);
  g->nodes = outer_nodes;
  g->flows = outer_flows;
  gen_boundaries (g, sub, chance (g, 0.6) ? pick (g, 1, 2) : 0, entry, exit);
}

/* Waits the world ends: a user task (the scenario's people or the operator
 * finish it), a receive task for m1 or m2 (maybe correlated by `n`), or an
 * event-based gateway between a timer and a message; each with a timer
 * boundary now and then, so some give up on their own. */
static void
gen_world_wait (Gen *g, char **entry, char **exit)
{
  switch (pick (g, 0, 2))
    {
    case 0:
      {
        char *user;

        add_node (g, "user", "userTask", &user);
        g_ptr_array_add (g->user_tasks, g_strdup (user));
        gen_boundaries (g, user, chance (g, 0.5) ? 1 : 0, entry, exit);
      }
      break;
    case 1:
      {
        char *receive;
        JsonObject *r = add_node (g, "recv", "receiveTask", &receive);

        json_object_set_string_member (r, "message", ONE_OF (g, "m1", "m2"));
        if (chance (g, 0.5))
          json_object_set_string_member (r, "correlation", "n");
        gen_boundaries (g, receive, chance (g, 0.5) ? 1 : 0, entry, exit);
      }
      break;
    default:
      {
        g_autofree char *timer = NULL;
        g_autofree char *message = NULL;
        JsonObject *t;
        JsonObject *m;

        add_node (g, "xev", "eventBasedGateway", entry);
        add_node (g, "xevmerge", "exclusiveGateway", exit);
        t = add_node (g, "xevt", "timerEvent", &timer);
        set_ms (t, "duration", pick (g, 0, 40) * 100);
        m = add_node (g, "xevm", "messageEvent", &message);
        json_object_set_string_member (m, "message", ONE_OF (g, "m1", "m2"));
        connect (g, *entry, timer);
        connect (g, *entry, message);
        connect (g, timer, *exit);
        connect (g, message, *exit);
      }
      break;
    }
}

static void
gen_service (Gen *g, char **entry, char **exit)
{
  char *task;
  JsonObject *node = add_node (g, "svc", "serviceTask", &task);
  JsonObject *worker = json_object_new ();
  g_autofree char *topic = g_strdup_printf ("t%d", pick (g, 0, (int) g->n_topics - 1));
  gboolean with_status = chance (g, 0.3);

  json_object_set_string_member (worker, "topic", topic);
  if (chance (g, 0.4))
    json_object_set_string_member (worker, "trust", ONE_OF (g, "workerTrusted", "engineAuthoritative"));
  if (chance (g, 0.5))
    json_object_set_member (worker, "retry", gen_retry (g));
  if (with_status)
    {
      JsonObject *status = json_object_new ();
      g_autofree char *var = g_strdup_printf ("st%u", chance (g, 0.5) ? 0 : ++g->n_status);

      json_object_set_string_member (status, "var", var);
      if (chance (g, 0.5))
        json_object_set_boolean_member (status, "overwrite", chance (g, 0.5));
      json_object_set_object_member (worker, "status", status);
    }
  if (chance (g, 0.4))
    json_object_set_array_member (worker, "errorMapper", gen_mapper (g, with_status));
  if (chance (g, 0.3))
    {
      JsonArray *mapping = json_array_new ();
      JsonObject *rule = json_object_new ();

      json_object_set_string_member (rule, "path", "body.v");
      json_object_set_string_member (rule, "var", chance (g, 0.5) ? "v" : "result.v");
      if (chance (g, 0.5))
        json_object_set_boolean_member (rule, "required", chance (g, 0.5));
      json_array_add_object_element (mapping, rule);
      json_object_set_array_member (worker, "outputMapping", mapping);
    }
  else if (chance (g, 0.2))
    json_object_set_string_member (worker, "output", "out");
  if (chance (g, 0.2))
    {
      JsonArray *input = json_array_new ();

      json_array_add_string_element (input, "n");
      if (chance (g, 0.5))
        json_array_add_string_element (input, "order.total");
      json_object_set_array_member (worker, "input", input);
    }
  json_object_set_object_member (node, "worker", worker);
  if (chance (g, 0.08))
    {
      /* a multi-instance task: each iteration its own job */
      JsonObject *multi = json_object_new ();

      json_object_set_int_member (multi, "cardinality", pick (g, 1, 3));
      if (chance (g, 0.5))
        json_object_set_boolean_member (multi, "sequential", TRUE);
      if (chance (g, 0.3))
        json_object_set_string_member (multi, "completion", "nrOfCompletedInstances >= 1");
      if (chance (g, 0.4))
        {
          json_object_set_string_member (multi, "outputCollection", "collected");
          json_object_set_string_member (multi, "outputElement", chance (g, 0.8) ? "n" : "order.missing");
        }
      json_object_set_object_member (node, "multiInstance", multi);
    }

  gen_boundaries (g, task, chance (g, 0.5) ? pick (g, 1, 2) : 0, entry, exit);
}

static void
gen_script (Gen *g, char **entry, char **exit)
{
  JsonObject *node = add_node (g, "script", "scriptTask", entry);
  JsonObject *set = json_object_new ();

  switch (pick (g, 0, 3))
    {
    case 0:
      json_object_set_string_member (set, "n", "n + 1");
      break;
    case 1:
      json_object_set_string_member (set, "k", "n * 2");
      json_object_set_string_member (set, "flag", "n > 4 and order.total > 10");
      break;
    case 2:
      /* fails when n is 3: division by zero */
      json_object_set_string_member (set, "q", "10 / (n - 3)");
      break;
    default:
      json_object_set_string_member (set, "label", "'n=' + 'x'");
      break;
    }
  json_object_set_object_member (node, "set", set);
  if (chance (g, 0.3))
    set_ms (node, "duration", pick (g, 1, 20) * 50);
  *exit = g_strdup (*entry);
}

static void
gen_wait (Gen *g, char **entry, char **exit)
{
  JsonObject *node;

  switch (pick (g, 0, 2))
    {
    case 0:
      node = add_node (g, "timer", "timerEvent", entry);
      set_ms (node, "duration", pick (g, 0, 30) * 100);
      break;
    case 1:
      node = add_node (g, "task", "task", entry);
      if (chance (g, 0.7))
        set_ms (node, "duration", pick (g, 0, 10) * 100);
      break;
    default:
      node = add_node (g, "inproc", "serviceTask", entry);
      if (chance (g, 0.5))
        set_ms (node, "duration", pick (g, 1, 10) * 100);
      break;
    }
  *exit = g_strdup (*entry);
}

static char *
gen_condition (Gen *g)
{
  switch (pick (g, 0, 5))
    {
    case 0:
      return g_strdup_printf ("n < %d", pick (g, 0, 9));
    case 1:
      return g_strdup_printf ("n >= %d", pick (g, 0, 9));
    case 2:
      return g_strdup_printf ("n == %d", pick (g, 0, 9));
    case 3:
      return g_strdup ("n % 2 == 0");
    case 4:
      return g_strdup ("has(\"v\") and order.total > 10");
    default:
      /* a cross-kind comparison: an evaluation error fails the track */
      return g_strdup (chance (g, 0.2) ? "order.total > 'x'" : "not (n > 5)");
    }
}

static void
gen_exclusive (Gen *g, int depth, gboolean in_parallel, char **entry, char **exit)
{
  JsonObject *split = add_node (g, "xor", "exclusiveGateway", entry);
  int n = pick (g, 2, 3);
  gboolean with_default = chance (g, 0.85);
  gboolean had_empty = FALSE;
  gboolean had_end = FALSE;
  char *merge;

  add_node (g, "xmerge", "exclusiveGateway", &merge);
  for (int i = 0; i < n; i++)
    {
      gboolean is_default = with_default && i == n - 1;
      g_autofree char *condition = is_default ? NULL : gen_condition (g);
      g_autofree char *target = NULL;
      g_autofree char *target_exit = NULL;
      g_autofree char *flow = NULL;

      if (!in_parallel && depth == 0 && !had_end && i > 0 && chance (g, 0.2))
        {
          /* an early way out: a plain end or an error end event */
          JsonObject *end = add_node (g, "end", "endEvent", &target);

          if (chance (g, 0.3))
            json_object_set_string_member (end, "error", "EarlyError");
          else if (chance (g, 0.2))
            json_object_set_boolean_member (end, "terminate", TRUE);
          had_end = TRUE;
        }
      else if (!had_empty && chance (g, 0.3))
        {
          target = g_strdup (merge);
          had_empty = TRUE;
        }
      else
        gen_sequence (g, depth + 1, in_parallel, &target, &target_exit);

      flow = add_flow (g, *entry, target, condition);
      if (is_default)
        json_object_set_string_member (split, "default", flow);
      if (target_exit != NULL)
        connect (g, target_exit, merge);
    }
  *exit = merge;
}

static void
gen_parallel (Gen *g, int depth, char **entry, char **exit)
{
  int n = pick (g, 2, 3);
  gboolean had_empty = FALSE;
  char *join;

  add_node (g, "fork", "parallelGateway", entry);
  add_node (g, "join", "parallelGateway", &join);
  for (int i = 0; i < n; i++)
    {
      g_autofree char *first = NULL;
      g_autofree char *last = NULL;

      if (!had_empty && chance (g, 0.2))
        {
          connect (g, *entry, join);
          had_empty = TRUE;
          continue;
        }
      gen_sequence (g, depth + 1, TRUE, &first, &last);
      connect (g, *entry, first);
      connect (g, last, join);
    }
  *exit = join;
}

/* A loop: the body runs again while the `loops` counter, which each pass
 * raises, stays under a bound (every node of the body is entered anew). */
static void
gen_loop (Gen *g, int depth, gboolean in_parallel, char **entry, char **exit)
{
  g_autofree char *first = NULL;
  g_autofree char *last = NULL;
  g_autofree char *count = NULL;
  g_autofree char *again = NULL;
  g_autofree char *condition = g_strdup_printf ("loops < %d", pick (g, 1, 4));
  g_autofree char *forward = NULL;
  JsonObject *counter;
  JsonObject *set = json_object_new ();
  JsonObject *split;

  add_node (g, "loop", "exclusiveGateway", entry);
  gen_sequence (g, depth + 1, in_parallel, &first, &last);
  counter = add_node (g, "count", "scriptTask", &count);
  json_object_set_string_member (set, "loops", "loops + 1");
  json_object_set_object_member (counter, "set", set);
  split = add_node (g, "again", "exclusiveGateway", &again);
  add_node (g, "after", "task", exit);

  connect (g, *entry, first);
  connect (g, last, count);
  connect (g, count, again);
  g_free (add_flow (g, again, *entry, condition));
  forward = add_flow (g, again, *exit, NULL);
  json_object_set_string_member (split, "default", forward);
}

static void
gen_element (Gen *g, int depth, gboolean in_parallel, char **entry, char **exit)
{
  int roll = pick (g, 0, 99);

  if (depth >= 2 && roll >= 66)
    roll = pick (g, 0, 65);
  if (roll < 40 && depth < 3 && chance (g, 0.12))
    gen_subprocess (g, depth, in_parallel, entry, exit);
  else if (roll < 40 && chance (g, 0.08))
    gen_world_wait (g, entry, exit);
  else if (roll < 40)
    gen_service (g, entry, exit);
  else if (roll < 52)
    gen_script (g, entry, exit);
  else if (roll < 66)
    gen_wait (g, entry, exit);
  else if (roll < 73)
    gen_loop (g, depth, in_parallel, entry, exit);
  else if (roll < 86)
    gen_exclusive (g, depth, in_parallel, entry, exit);
  else
    gen_parallel (g, depth, entry, exit);
}

static void
gen_sequence (Gen *g, int depth, gboolean in_parallel, char **entry, char **exit)
{
  int n = pick (g, 1, depth == 0 ? 4 : 2);
  char *last = NULL;

  for (int i = 0; i < n; i++)
    {
      char *first;
      char *end;

      gen_element (g, depth, in_parallel, &first, &end);
      if (last == NULL)
        *entry = first;
      else
        {
          connect (g, last, first);
          g_free (first);
        }
      g_free (last);
      last = end;
    }
  *exit = last;
}

static char *
to_text (JsonObject *root)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), root);

  return json_to_string (node, TRUE);
}

static JsonObject *
gen_engine_block (Gen *g, gboolean scenario)
{
  JsonObject *engine = json_object_new ();

  if (chance (g, 0.5))
    json_object_set_string_member (engine, "trust", ONE_OF (g, "workerTrusted", "engineAuthoritative"));
  if (chance (g, 0.5))
    json_object_set_string_member (engine, "onExhausted", ONE_OF (g, "fail", "incident"));
  if (!scenario && chance (g, 0.4))
    json_object_set_member (engine, "retry", gen_retry (g));
  if (!scenario && chance (g, 0.3))
    set_ms (engine, "maxLock", pick (g, 1, 60) * 1000);
  if (!scenario && chance (g, 0.2))
    {
      /* engine-wide rules never yield a status: not every task takes one */
      JsonArray *rules = json_array_new ();
      JsonObject *rule = json_object_new ();

      json_object_set_string_member (rule, "code", "404");
      json_object_set_object_member (rule, "bpmnError", bpmn_error ("E1", "engine-wide"));
      json_array_add_object_element (rules, rule);
      json_object_set_array_member (engine, "errorMapper", rules);
    }
  return engine;
}

static char *
gen_process (Gen *g)
{
  JsonObject *root = json_object_new ();
  JsonObject *variables = json_object_new ();
  JsonObject *order = json_object_new ();
  g_autofree char *start = NULL;
  g_autofree char *done = NULL;
  g_autofree char *first = NULL;
  g_autofree char *last = NULL;

  g->nodes = json_array_new ();
  g->flows = json_array_new ();
  json_object_set_string_member (root, "format", "winnow.process/1");
  json_object_set_string_member (root, "id", "generated");
  json_object_set_int_member (variables, "n", pick (g, 0, 9));
  json_object_set_int_member (variables, "loops", 0);
  json_object_set_int_member (order, "total", pick (g, 0, 100));
  json_object_set_object_member (variables, "order", order);
  json_object_set_object_member (root, "variables", variables);
  if (chance (g, 0.7))
    json_object_set_object_member (root, "engine", gen_engine_block (g, FALSE));

  add_node (g, "start", "startEvent", &start);
  if (g->scoped)
    gen_subprocess (g, -1, FALSE, &first, &last);
  else
    gen_sequence (g, 0, FALSE, &first, &last);
  add_node (g, "done", "endEvent", &done);
  connect (g, start, first);
  connect (g, last, done);
  if (chance (g, 0.15))
    gen_event_sub (g);

  json_object_set_array_member (root, "nodes", g->nodes);
  json_object_set_array_member (root, "flows", g->flows);
  {
    char *text = to_text (root);
    json_object_unref (root);
    return text;
  }
}

static JsonObject *
gen_body (Gen *g)
{
  JsonObject *body = json_object_new ();

  if (chance (g, 0.6))
    json_object_set_int_member (body, "v", pick (g, 0, 9));
  if (chance (g, 0.5))
    json_object_set_string_member (body, "r", ONE_OF (g, "x", "y"));
  return body;
}

/* One response; `scripted` allows selectors, `nested` forbids random. */
static JsonObject *
gen_response (Gen *g, gboolean scripted, gboolean nested, gboolean last)
{
  JsonObject *r = json_object_new ();
  int kind = pick (g, 0, nested ? 88 : 99);

  if (scripted && !last && chance (g, 0.4))
    json_object_set_string_member (r, "attempts", ONE_OF (g, "1", "1-2", "2", "2+", "3+"));
  if (scripted && chance (g, 0.15))
    json_object_set_string_member (r, "when", ONE_OF (g, "attempt > 1", "input.n > 4", "has(input.v)"));
  if (kind < 89 && chance (g, 0.8))
    set_ms (r, "after", pick (g, 0, 20) * 100);

  if (kind < 35)
    json_object_set_object_member (r, "complete", gen_body (g));
  else if (kind < 60)
    {
      JsonObject *fail = json_object_new ();

      if (chance (g, 0.8))
        json_object_set_string_member (fail, "code", ONE_OF (g, "500", "503", "404", "409"));
      if (chance (g, 0.4))
        json_object_set_object_member (fail, "body", gen_body (g));
      if (chance (g, 0.5))
        json_object_set_string_member (fail, "message", "it failed");
      json_object_set_object_member (r, "fail", fail);
    }
  else if (kind < 78)
    {
      JsonObject *e = json_object_new ();

      switch (pick (g, 0, 2))
        {
        case 0:
          json_object_set_string_member (e, "bpmnErrorCode", ONE_OF (g, "E1", "E2", "E3", "E4"));
          break;
        case 1:
          json_object_set_string_member (e, "status", ONE_OF (g, "OK", "DECLINED"));
          break;
        default:
          json_object_set_string_member (e, "cause", "boom");
          break;
        }
      if (chance (g, 0.5))
        json_object_set_string_member (e, "message", "self-classified");
      json_object_set_object_member (r, "workerError", e);
    }
  else if (kind < 83)
    json_object_set_boolean_member (r, "crash", TRUE);
  else if (kind < 89)
    {
      if (chance (g, 0.5))
        json_object_set_object_member (r, "hang", gen_body (g));
      else
        json_object_set_boolean_member (r, "hang", TRUE);
    }
  else
    {
      JsonArray *choices = json_array_new ();
      int n = pick (g, 2, 3);

      for (int i = 0; i < n; i++)
        {
          JsonObject *choice = gen_response (g, FALSE, TRUE, FALSE);

          json_object_set_double_member (choice, "p", pick (g, 1, 9) / 10.0);
          json_array_add_object_element (choices, choice);
        }
      json_object_set_array_member (r, "random", choices);
    }
  return r;
}

static char *
gen_scenario (Gen *g, guint32 seed, GPtrArray *worker_ids)
{
  JsonObject *root = json_object_new ();
  JsonArray *starts = json_array_new ();
  JsonArray *workers = json_array_new ();
  JsonArray *faults = json_array_new ();
  int n_starts = pick (g, 1, 3);

  json_object_set_string_member (root, "format", "winnow.scenario/1");
  json_object_set_int_member (root, "seed", seed);
  if (chance (g, 0.3))
    json_object_set_object_member (root, "engine", gen_engine_block (g, TRUE));

  for (int i = 0; i < n_starts; i++)
    {
      JsonObject *start = json_object_new ();
      JsonObject *variables = json_object_new ();

      set_ms (start, "at", pick (g, 0, 4) * 500);
      if (chance (g, 0.5))
        json_object_set_int_member (start, "count", pick (g, 1, 3));
      json_object_set_int_member (variables, "n", pick (g, 0, 9));
      json_object_set_object_member (start, "variables", variables);
      json_array_add_object_element (starts, start);
    }
  json_object_set_array_member (root, "start", starts);

  for (guint t = 0; t < g->n_topics; t++)
    {
      /* none (an implicit worker), one, or two so that a crash gets reclaimed */
      int n = pick (g, 0, 9) < 1 ? 0 : pick (g, 1, 2);

      for (int i = 0; i < n; i++)
        {
          JsonObject *worker = json_object_new ();
          JsonArray *responses = json_array_new ();
          char *id = g_strdup_printf ("w%u-%d", t, i);
          g_autofree char *topic = g_strdup_printf ("t%u", t);
          int n_responses = pick (g, 1, 3);

          json_object_set_string_member (worker, "id", id);
          json_object_set_string_member (worker, "topic", topic);
          /* short locks lapse under slow responses and backoffs; long ones do not */
          if (chance (g, 0.6))
            set_ms (worker, "lockDuration", chance (g, 0.5) ? pick (g, 1, 10) * 50 : pick (g, 1, 20) * 1000);
          if (chance (g, 0.3))
            json_object_set_int_member (worker, "concurrency", pick (g, 1, 3));
          for (int r = 0; r < n_responses; r++)
            json_array_add_object_element (responses, gen_response (g, TRUE, FALSE, r == n_responses - 1));
          json_object_set_array_member (worker, "responses", responses);
          json_array_add_object_element (workers, worker);
          g_ptr_array_add (worker_ids, id);
        }
    }
  json_object_set_array_member (root, "workers", workers);

  for (int i = pick (g, 0, 9) < 7 ? 0 : pick (g, 1, 2); i > 0; i--)
    {
      JsonObject *fault = json_object_new ();

      set_ms (fault, "at", pick (g, 0, 40) * 100);
      if (worker_ids->len > 0 && chance (g, 0.5))
        json_object_set_string_member (fault, "worker",
                                       g_ptr_array_index (worker_ids, pick (g, 0, (int) worker_ids->len - 1)));
      else
        {
          g_autofree char *topic = g_strdup_printf ("t%d", pick (g, 0, (int) g->n_topics - 1));
          json_object_set_string_member (fault, "topic", topic);
        }
      json_object_set_object_member (fault, "next", gen_response (g, FALSE, FALSE, FALSE));
      json_array_add_object_element (faults, fault);
    }
  json_object_set_array_member (root, "faults", faults);
  if (g->user_tasks->len > 0 && chance (g, 0.7))
    {
      JsonArray *rules = json_array_new ();
      gboolean pool = chance (g, 0.5);

      if (pool)
        {
          /* a few people, busy enough that tasks wait for them */
          JsonArray *people = json_array_new ();
          JsonObject *desk = json_object_new ();
          JsonObject *duration = json_object_new ();

          json_object_set_string_member (desk, "id", "desk");
          json_object_set_int_member (desk, "count", pick (g, 1, 2));
          switch (pick (g, 0, 2))
            {
            case 0:
              {
                JsonArray *bounds = json_array_new ();

                json_array_add_int_element (bounds, pick (g, 0, 10) * 100);
                json_array_add_int_element (bounds, pick (g, 10, 30) * 100);
                json_object_set_array_member (duration, "uniform", bounds);
              }
              break;
            case 1:
              json_object_set_int_member (duration, "exponential", pick (g, 1, 20) * 100);
              break;
            default:
              {
                JsonObject *lognormal = json_object_new ();

                json_object_set_int_member (lognormal, "median", pick (g, 1, 20) * 100);
                json_object_set_double_member (lognormal, "sigma", pick (g, 0, 10) / 10.0);
                json_object_set_object_member (duration, "lognormal", lognormal);
              }
              break;
            }
          json_object_set_object_member (desk, "duration", duration);
          json_array_add_object_element (people, desk);
          json_object_set_array_member (root, "people", people);
        }
      for (guint i = 0; i < g->user_tasks->len; i++)
        {
          JsonObject *rule = json_object_new ();

          json_object_set_string_member (rule, "node", g_ptr_array_index (g->user_tasks, i));
          if (chance (g, 0.3))
            json_object_set_string_member (rule, "when", "n > 4");
          if (pool && chance (g, 0.8))
            json_object_set_string_member (rule, "by", "desk");
          else
            set_ms (rule, "after", pick (g, 0, 30) * 100);
          if (chance (g, 0.3))
            json_object_set_object_member (rule, "bpmnError", bpmn_error (ONE_OF (g, "E1", "E2", "E9"), NULL));
          else
            json_object_set_object_member (rule, "complete", json_object_new ());
          json_array_add_object_element (rules, rule);
        }
      json_object_set_array_member (root, "userTasks", rules);
    }
  if (chance (g, 0.5))
    {
      JsonArray *messages = json_array_new ();
      int n = pick (g, 1, 6);

      for (int i = 0; i < n; i++)
        {
          JsonObject *message = json_object_new ();

          set_ms (message, "at", pick (g, 0, 60) * 100);
          json_object_set_string_member (message, "name", ONE_OF (g, "m1", "m2"));
          if (chance (g, 0.5))
            json_object_set_int_member (message, "key", pick (g, 0, 9));
          if (chance (g, 0.4))
            set_ms (message, "ttl", pick (g, 1, 60) * 100);
          json_array_add_object_element (messages, message);
        }
      json_object_set_array_member (root, "messages", messages);
    }
  {
    char *text = to_text (root);
    json_object_unref (root);
    return text;
  }
}

/* ---- a case: the documents and what the operator does ---- */

static const struct {
  WnEventKind  kind;
  WnEventPhase phase;
} breakpoints[] = {
  { WN_EV_JOB, WN_PH_LOCKED },
  { WN_EV_JOB, WN_PH_RETRY_SCHEDULED },
  { WN_EV_JOB, WN_PH_LOCK_RECLAIMED },
  { WN_EV_NODE, WN_PH_PARKED },
  { WN_EV_INCIDENT, WN_PH_RAISED },
  { WN_EV_GATEWAY, WN_PH_DECIDED },
};

typedef struct {
  guint32    seed;
  char      *process;
  char      *scenario;
  GPtrArray *worker_ids;
  WnEngineOptions options;
  /* The operator part-way: after `pause_after` scheduler actions (0: never),
   * possibly in the middle of an instant, as a breakpoint or a step stops. */
  guint      pause_after;
  WnTime     pause_by;       /* > 0 instead: step the clock by this much (as the app does) */
  int        break_on;       /* > 0 instead: at the first hit of breakpoints[break_on - 1] */
  gboolean   flip;           /* change trust: engine-wide, or of the first worker task */
  WnTrust    flip_trust;
  gboolean   flip_task;
  gboolean   mid_cancel;     /* cancel an active instance */
  gboolean   mid_inject;     /* inject a failure for a topic */
  gboolean   mid_start;      /* start one more instance */
} Case;

static void
case_clear (Case *c)
{
  g_clear_pointer (&c->process, g_free);
  g_clear_pointer (&c->scenario, g_free);
  g_clear_pointer (&c->worker_ids, g_ptr_array_unref);
}

static void
generate (guint32 seed, Case *c)
{
  Gen g = { 0 };

  memset (c, 0, sizeof *c);
  c->seed = seed;
  g.rand = g_rand_new_with_seed (seed);
  g.scoped = (seed & SCOPED_SEED) != 0;
  g.user_tasks = g_ptr_array_new_with_free_func (g_free);
  g.n_topics = (guint) pick (&g, 1, N_TOPICS_MAX);
  c->process = gen_process (&g);
  c->worker_ids = g_ptr_array_new_with_free_func (g_free);
  c->scenario = gen_scenario (&g, seed, c->worker_ids);
  if (chance (&g, 0.2))
    c->options.trust = chance (&g, 0.5) ? WN_TRUST_WORKER_TRUSTED : WN_TRUST_ENGINE_AUTHORITATIVE;
  if (chance (&g, 0.2))
    c->options.on_exhausted = chance (&g, 0.5) ? WN_ON_EXHAUSTED_FAIL : WN_ON_EXHAUSTED_INCIDENT;
  if (chance (&g, 0.5))
    {
      switch (pick (&g, 0, 2))
        {
        case 0:
          c->pause_after = (guint) pick (&g, 1, 400);
          break;
        case 1:
          c->pause_by = pick (&g, 1, 5000) * WN_USEC_PER_MSEC;
          break;
        default:
          c->break_on = pick (&g, 1, G_N_ELEMENTS (breakpoints));
          break;
        }
      c->flip = chance (&g, 0.5);
      c->flip_trust = chance (&g, 0.5) ? WN_TRUST_WORKER_TRUSTED : WN_TRUST_ENGINE_AUTHORITATIVE;
      c->flip_task = chance (&g, 0.5);
      c->mid_cancel = chance (&g, 0.3);
      c->mid_inject = chance (&g, 0.3);
      c->mid_start = chance (&g, 0.3);
    }
  g_rand_free (g.rand);
  g_ptr_array_unref (g.user_tasks);
}

/* ---- what a failure prints ---- */

static const Case *current;

static void
write_text (const char *text)
{
  ssize_t ignored = write (STDERR_FILENO, text, strlen (text));
  (void) ignored;
}

static void
report_case_cb (int signum)
{
  static char line[160];

  if (current != NULL)
    {
      g_snprintf (line, sizeof line,
                  "\nproperty case failed: seed %u (rerun: WINNOW_PROPERTY_FIRST_SEED=%u WINNOW_PROPERTY_SEEDS=1)\n",
                  current->seed, current->seed);
      write_text (line);
      write_text ("--- process ---\n");
      write_text (current->process);
      write_text ("\n--- scenario ---\n");
      write_text (current->scenario);
      write_text ("\n");
    }
  signal (signum, SIG_DFL);
  raise (signum);
}

/* ---- running and checking ---- */

typedef struct {
  guint phases[WN_EV_N_KINDS][WN_PH_N_PHASES];
  guint quiescent_active;
  guint limited;
  guint completed;
  guint terminated;
  guint operator_commands;
  guint event_subs[3];      /* event sub-processes started by an error, a timer, a message */
} Coverage;

static const WnNode *
first_service_task (WnProcess *process)
{
  for (guint i = 0; i < process->n_nodes; i++)
    if (process->nodes[i].worker != NULL)
      return &process->nodes[i];
  return NULL;
}

static WnStopReason
run_bounded (WnTestRun *run, WnTime limit)
{
  WnScheduler *scheduler = wn_engine_get_scheduler (run->engine);
  guint64 before = wn_scheduler_get_n_run (scheduler);
  WnStopReason reason = wn_scheduler_run_budget (scheduler, limit, BUDGET);

  /* a generated run is short: hitting a guard means something keeps itself alive */
  g_assert_cmpint (reason, !=, WN_STOP_BUDGET);
  g_assert_cmpuint (wn_scheduler_get_n_run (scheduler) - before, <, BUDGET);
  return reason;
}

typedef struct {
  WnTestRun *run;
  GPtrArray *lines;
  gboolean   quiescent;
  guint      active;
  guint      completed;
  guint      terminated;
  guint      incidents;    /* active instances holding an open incident */
} EndCheck;

static void
check_instance_cb (const WnInstanceInfo *info,
                   gpointer              data)
{
  EndCheck *check = data;
  gboolean explained = info->n_incidents > 0;

  switch (info->state)
    {
    case WN_INSTANCE_COMPLETED:
      check->completed++;
      g_assert_cmpint (info->ended_at, >=, info->started_at);
      return;
    case WN_INSTANCE_TERMINATED:
      check->terminated++;
      g_assert_nonnull (info->reason);
      return;
    case WN_INSTANCE_ACTIVE:
    default:
      check->active++;
      if (info->n_incidents > 0)
        check->incidents++;
      break;
    }
  if (!check->quiescent)
    return;
  /* quiescent and still active: an open incident, or a job nobody live can take */
  for (guint i = 0; i < check->lines->len && !explained; i++)
    {
      const char *line = g_ptr_array_index (check->lines, i);
      gsize len = strlen (info->id);

      explained = strncmp (line, info->id, len) == 0 && line[len] == ' ' &&
                  (strstr (line, "no live worker serves the topic") != NULL ||
                   strstr (line, "waits for a person") != NULL || strstr (line, "waits for message") != NULL);
    }
  if (!explained)
    {
      for (guint i = 0; i < check->lines->len; i++)
        g_printerr ("waiting: %s\n", (char *) g_ptr_array_index (check->lines, i));
      g_error ("instance %s is active at quiescence without an incident or a stranded job", info->id);
    }
}

static void
check_job_cb (const WnJobInfo *job,
              gpointer         data)
{
  EndCheck *check = data;
  WnInstanceInfo info;

  /* no job outlives its instance */
  g_assert_true (wn_engine_lookup_instance (check->run->engine, job->instance, &info));
  g_assert_cmpint (info.state, ==, WN_INSTANCE_ACTIVE);
}

static guint
count_phase (WnTestRun *run, WnEventKind kind, WnEventPhase phase)
{
  return wn_test_count (run, kind, phase, NULL);
}

/* The properties of a run that stopped: quiescent, or at the time limit. */
static void
check_end (WnTestRun *run, WnStopReason reason, Coverage *coverage)
{
  g_autoptr(GPtrArray) lines = wn_engine_describe_waiting (run->engine);
  EndCheck check = { run, lines, reason == WN_STOP_QUIESCENT, 0, 0, 0, 0 };
  WnRunStats stats;

  wn_test_check_invariants (run);
  /* seq counts every event from 1 */
  for (guint i = 0; i < run->events->len; i++)
    g_assert_cmpuint (((WnEvent *) g_ptr_array_index (run->events, i))->seq, ==, i + 1);

  wn_engine_foreach_instance (run->engine, check_instance_cb, &check);
  wn_dispatcher_foreach (wn_engine_get_dispatcher (run->engine), check_job_cb, &check);

  /* the summary agrees with the journal */
  wn_engine_get_stats (run->engine, &stats);
  g_assert_cmpuint (stats.completed, ==, check.completed);
  g_assert_cmpuint (stats.terminated, ==, check.terminated);
  g_assert_cmpuint (stats.active, ==, check.active);
  /* kept incrementally by the engine: it must agree with the instances */
  g_assert_cmpuint (stats.incidents, ==, check.incidents);
  g_assert_cmpuint (stats.completed, ==, count_phase (run, WN_EV_INSTANCE, WN_PH_COMPLETED));
  g_assert_cmpuint (stats.terminated, ==, count_phase (run, WN_EV_INSTANCE, WN_PH_TERMINATED));
  g_assert_cmpuint (stats.instances, ==, count_phase (run, WN_EV_INSTANCE, WN_PH_CREATED));
  g_assert_cmpuint (stats.executions, ==, count_phase (run, WN_EV_JOB, WN_PH_EXECUTING));
  g_assert_cmpuint (stats.retries, ==, count_phase (run, WN_EV_JOB, WN_PH_RETRY_SCHEDULED) +
                                       count_phase (run, WN_EV_JOB, WN_PH_WORKER_RETRY_SCHEDULED));
  g_assert_cmpuint (stats.exhausted, ==, count_phase (run, WN_EV_JOB, WN_PH_RETRIES_EXHAUSTED));
  g_assert_cmpuint (stats.events, ==, run->events->len);

  if (coverage != NULL)
    {
      if (check.quiescent)
        coverage->quiescent_active += check.active;
      else
        coverage->limited++;
      coverage->completed += check.completed;
      coverage->terminated += check.terminated;
    }
}

static void
collect_incidents_cb (const WnTrackInfo *track,
                      gpointer           data)
{
  GPtrArray *tracks = data;

  if (track->state == WN_TRACK_INCIDENT)
    {
      g_ptr_array_add (tracks, g_strdup (track->instance));
      g_ptr_array_add (tracks, g_strdup (track->node));
    }
}

typedef struct {
  const char *instance;
  const char *node;
  gboolean    found;
} IncidentLookup;

static void
find_incident_cb (const WnTrackInfo *track,
                  gpointer           data)
{
  IncidentLookup *lookup = data;

  if (track->state == WN_TRACK_INCIDENT && g_strcmp0 (track->instance, lookup->instance) == 0 &&
      g_strcmp0 (track->node, lookup->node) == 0)
    lookup->found = TRUE;
}

/* Whether the instance still holds an incident at the node. */
static gboolean
has_incident (WnTestRun *run, const char *instance, const char *node)
{
  IncidentLookup lookup = { instance, node, FALSE };

  wn_engine_foreach_track (run->engine, FALSE, find_incident_cb, &lookup);
  return lookup.found;
}

/* An operator clears the incidents a little at a time: retry, resolve or cancel. */
static guint
operate (WnTestRun *run, GRand *rand)
{
  g_autoptr(GPtrArray) incidents = g_ptr_array_new_with_free_func (g_free);
  guint done = 0;

  wn_engine_foreach_track (run->engine, FALSE, collect_incidents_cb, incidents);
  for (guint i = 0; i + 1 < incidents->len; i += 2)
    {
      const char *instance = g_ptr_array_index (incidents, i);
      const char *node = g_ptr_array_index (incidents, i + 1);
      const WnNode *n = wn_process_find_node (run->process, node);
      WnInstanceInfo info;
      g_autoptr(GError) error = NULL;
      double roll = g_rand_double (rand);

      /* an earlier command may have ended the instance, or canceled the
       * incident's track (a retried task's error caught by an event
       * sub-process or a boundary around both) */
      if (!wn_engine_lookup_instance (run->engine, instance, &info) || info.state != WN_INSTANCE_ACTIVE)
        continue;
      if (!has_incident (run, instance, node))
        {
          if (g_getenv ("WINNOW_PROPERTY_DEBUG"))
            g_printerr ("incident of %s at %s gone\n", instance, node);
          continue;
        }
      if (roll < 0.55)
        g_assert_true (wn_engine_incident_retry (run->engine, instance, node, &error));
      else if (roll < 0.85)
        {
          if (!wn_engine_incident_resolve (run->engine, instance, node, &error))
            {
              /* an exclusive gateway resolves onto its default flow only */
              g_assert_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_INVALID);
              g_assert_true (n->type == WN_NODE_EXCLUSIVE && n->default_flow < 0);
              g_clear_error (&error);
              g_assert_true (wn_engine_incident_retry (run->engine, instance, node, &error));
            }
        }
      else
        g_assert_true (wn_engine_cancel_instance (run->engine, instance, &error));
      g_assert_no_error (error);
      done++;
    }
  return done;
}

static void
collect_active_cb (const WnInstanceInfo *info,
                   gpointer              data)
{
  if (info->state == WN_INSTANCE_ACTIVE)
    g_ptr_array_add (data, (gpointer) info->id);
}

/* What the operator does part-way through the run. */
static void
operate_midway (WnTestRun *run, const Case *c, GRand *rand, Coverage *coverage)
{
  g_autoptr(GError) error = NULL;

  if (c->flip)
    {
      const WnNode *task = first_service_task (run->process);

      /* jobs already enqueued keep the policy they have */
      if (c->flip_task && task != NULL)
        {
          g_assert_true (wn_engine_set_task_trust (run->engine, task->id, c->flip_trust, &error));
          g_assert_no_error (error);
        }
      else
        wn_engine_set_trust_default (run->engine, c->flip_trust);
    }
  if (c->mid_cancel)
    {
      g_autoptr(GPtrArray) active = g_ptr_array_new ();

      wn_engine_foreach_instance (run->engine, collect_active_cb, active);
      if (active->len > 0)
        {
          const char *id = g_ptr_array_index (active, g_rand_int_range (rand, 0, (gint32) active->len));

          g_assert_true (wn_engine_cancel_instance (run->engine, id, &error));
          g_assert_no_error (error);
        }
    }
  if (c->mid_inject)
    {
      g_autofree char *topic = g_strdup_printf ("t%d", g_rand_int_range (rand, 0, N_TOPICS_MAX));
      g_autoptr(WnResponse) fail = wn_response_new (WN_RESPONSE_FAIL);

      fail->code = g_strdup ("503");
      /* a topic only an implicit worker serves, or none, is refused */
      if (!wn_engine_inject (run->engine, topic, NULL, fail, &error))
        {
          g_assert_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_NO_SUCH_TOPIC);
          g_clear_error (&error);
        }
    }
  if (c->mid_start)
    {
      g_autoptr(JsonObject) variables = json_object_new ();

      json_object_set_int_member (variables, "n", g_rand_int_range (rand, 0, 10));
      g_assert_nonnull (wn_engine_start_instance (run->engine, variables, &error));
      g_assert_no_error (error);
    }
  if (coverage != NULL)
    coverage->operator_commands += c->flip + c->mid_cancel + c->mid_inject + c->mid_start;
}

static WnTestRun *
case_run_new (const Case *c, const char *scenario_json, const WnEngineOptions *options)
{
  g_autoptr(GError) error = NULL;
  WnTestRun *run = g_new0 (WnTestRun, 1);

  run->process = wn_load_process_data (c->process, -1, "generated.process.json", NULL, &error);
  g_assert_no_error (error);
  run->scenario = wn_load_scenario_data (scenario_json, -1, "generated.scenario.json", NULL, &error);
  g_assert_no_error (error);
  run->engine = wn_engine_new (run->process, run->scenario, options);
  run->events = wn_test_record (run->engine);
  return run;
}

/* The scenario's people work on one task at a time: a person is assigned a
 * task only when free, and is free again once that task's track has left the
 * task (completed, threw, was canceled or its instance ended). */
static void
check_people (WnTestRun *run)
{
  g_autoptr(GHashTable) busy = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);  /* person → track */
  g_autoptr(GHashTable) working = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free); /* track → person */

  for (guint i = 0; i < run->events->len; i++)
    {
      const WnEvent *ev = g_ptr_array_index (run->events, i);
      const char *person;

      if (ev->kind == WN_EV_USER_TASK && ev->phase == WN_PH_ASSIGNED)
        {
          if (g_hash_table_contains (busy, ev->action))
            g_error ("event %" G_GUINT64_FORMAT ": %s is assigned a task while still working on %s's", ev->seq,
                     ev->action, (const char *) g_hash_table_lookup (busy, ev->action));
          if (g_hash_table_contains (working, ev->track))
            g_error ("event %" G_GUINT64_FORMAT ": track %s is assigned twice", ev->seq, ev->track);
          g_hash_table_insert (busy, g_strdup (ev->action), g_strdup (ev->track));
          g_hash_table_insert (working, g_strdup (ev->track), g_strdup (ev->action));
          continue;
        }
      if (ev->track == NULL || (person = g_hash_table_lookup (working, ev->track)) == NULL)
        continue;
      if ((ev->kind == WN_EV_USER_TASK && ev->phase == WN_PH_COMPLETED) ||
          (ev->kind == WN_EV_FAULT && ev->phase == WN_PH_THROWN) ||
          (ev->kind == WN_EV_NODE && (ev->phase == WN_PH_CANCELED || ev->phase == WN_PH_FAILED)))
        {
          if ((ev->kind == WN_EV_USER_TASK || ev->kind == WN_EV_FAULT) && g_strcmp0 (ev->action, person) != 0 &&
              g_strcmp0 (ev->action, "operator") != 0)
            g_error ("event %" G_GUINT64_FORMAT ": %s's task finished by %s", ev->seq, person, ev->action);
          g_hash_table_remove (busy, person);
          g_hash_table_remove (working, ev->track);
        }
    }
}

/* Fail, naming the first line where two journals part. */
static void
assert_same_journal (const char *what,
                     const char *a,
                     const char *b,
                     const char *context)
{
  gsize at = 0;

  if (g_strcmp0 (a, b) == 0)
    return;
  while (a[at] != '\0' && a[at] == b[at])
    at++;
  while (at > 0 && a[at - 1] != '\n')
    at--;
  if (context != NULL)
    g_printerr ("%s\n", context);
  g_error ("%s: the journals part at\n  %.400s\n  %.400s", what, a + at, b + at);
}

static char *
journal_text (WnTestRun *run)
{
  return g_string_free (wn_test_journal_of (run->events), FALSE);
}

/* ---- time travel (wn-travel.h): reruns of a finished case ---- */

/* A rerun with its journal and the steps it journalled: the position right
 * after the step of its last event, and after the step before that one. */
typedef struct {
  WnEngine   *engine;
  GPtrArray  *events;
  WnSteps     steps;
} Travel;

static void
travel_cb (const WnEvent *event,
           gpointer       data)
{
  Travel *t = data;

  g_ptr_array_add (t->events, wn_event_copy (event));
  wn_steps_note (&t->steps, t->engine, event);
}

static Travel *
travel_new (WnEngine *from)
{
  Travel *t = g_new0 (Travel, 1);

  t->engine = wn_engine_new_rerun (from);
  t->events = g_ptr_array_new_with_free_func ((GDestroyNotify) wn_event_free);
  wn_journal_subscribe (wn_engine_get_journal (t->engine), travel_cb, t, NULL);
  return t;
}

static void
travel_free (Travel *t)
{
  wn_engine_free (t->engine);
  g_ptr_array_unref (t->events);
  g_free (t);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Travel, travel_free)

static char *
travel_journal (Travel *t)
{
  WnTestRun view = { .events = t->events };

  return journal_text (&view);
}

/* One step back: a rerun taken to the position after the step before the
 * last; it equals a rerun taken there event by event. */
static Travel *
travel_back (Travel *t)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(Travel) by_event = NULL;
  Travel *back;
  g_autofree char *dump = NULL;
  g_autofree char *dump_by_event = NULL;

  if (t->steps.previous.events == 0)
    return NULL;
  back = travel_new (t->engine);
  g_assert_true (wn_engine_run_to_position (back->engine, &t->steps.previous, G_MAXUINT, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (wn_journal_get_n_events (wn_engine_get_journal (back->engine)), ==, t->steps.last_first - 1);

  by_event = travel_new (t->engine);
  g_assert_cmpint (wn_engine_run_to_event (by_event->engine, t->steps.last_first - 1, WN_TIME_NEVER, G_MAXUINT),
                   ==, WN_STOP_REQUESTED);
  dump = wn_engine_dump_state (back->engine);
  dump_by_event = wn_engine_dump_state (by_event->engine);
  g_assert_cmpstr (dump, ==, dump_by_event);
  return back;
}

/* Step back k events and forward k again: the same states and journals;
 * a rerun to an instant is a fresh run of the saved session stopped there. */
static void
check_travel (const Case *c, WnTestRun *run, const char *text, GRand *rand)
{
  guint64 total = wn_journal_get_n_events (wn_engine_get_journal (run->engine));
  g_autoptr(GPtrArray) dumps = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) journals = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(Travel) here = NULL;
  g_autofree char *session = NULL;
  guint k = (guint) g_rand_int_range (rand, 1, 6);
  WnTime instant;

  if (total == 0)
    return;
  here = travel_new (run->engine);
  g_assert_cmpint (wn_engine_run_to_event (here->engine, (guint64) g_rand_int_range (rand, 1, (gint32) MIN (total, G_MAXINT32 - 1) + 1),
                                           WN_TIME_NEVER, G_MAXUINT), ==, WN_STOP_REQUESTED);
  for (guint i = 0; i <= k; i++)
    {
      Travel *back;
      char *journal = travel_journal (here);

      /* a rerun journals what the run did, event for event */
      g_assert_true (g_str_has_prefix (text, journal));
      g_ptr_array_add (journals, journal);
      g_ptr_array_add (dumps, wn_engine_dump_state (here->engine));
      if (i == k || (back = travel_back (here)) == NULL)
        break;
      travel_free (g_steal_pointer (&here));
      here = back;
    }
  /* forward again, one event's step at a time, through the same states */
  for (guint i = dumps->len - 1; i > 0; i--)
    {
      g_autofree char *dump = NULL;
      g_autofree char *journal = NULL;

      g_assert_cmpint (wn_engine_run_to_event (here->engine, wn_journal_get_n_events (wn_engine_get_journal (here->engine)) + 1,
                                               WN_TIME_NEVER, G_MAXUINT), ==, WN_STOP_REQUESTED);
      dump = wn_engine_dump_state (here->engine);
      journal = travel_journal (here);
      g_assert_cmpstr (dump, ==, g_ptr_array_index (dumps, i - 1));
      g_assert_cmpstr (journal, ==, g_ptr_array_index (journals, i - 1));
    }

  /* a branch: a command in the past drops the rest of the record; up to
   * there its journal is the parent's, and a rerun of its own record gives
   * its journal again */
  {
    guint64 fork = wn_journal_get_n_events (wn_engine_get_journal (here->engine));
    g_autofree char *branch = NULL;
    g_autofree char *again = NULL;
    g_autoptr(GPtrArray) record = NULL;
    g_autoptr(Travel) rerun = NULL;
    const char *cut = text;
    g_autofree char *prefix = NULL;

    wn_engine_note_clock (here->engine, WN_PH_PAUSED, "branch");
    g_assert_cmpuint (wn_engine_get_n_future (here->engine), ==, 0);
    wn_engine_run_budget (here->engine, LIMIT, BUDGET);
    branch = travel_journal (here);
    /* the parent's first `fork` lines */
    for (guint64 i = 0; i < fork && cut != NULL; i++)
      cut = (cut = strchr (cut, '\n')) != NULL ? cut + 1 : NULL;
    g_assert_nonnull (cut);
    prefix = g_strndup (text, (gsize) (cut - text));
    g_assert_true (g_str_has_prefix (branch, prefix));
    record = wn_engine_dup_record (here->engine);
    rerun = g_new0 (Travel, 1);
    rerun->engine = wn_engine_new_rerun_of (run->engine, record);
    rerun->events = g_ptr_array_new_with_free_func ((GDestroyNotify) wn_event_free);
    wn_journal_subscribe (wn_engine_get_journal (rerun->engine), travel_cb, rerun, NULL);
    wn_engine_run_budget (rerun->engine, LIMIT, BUDGET);
    again = travel_journal (rerun);
    g_assert_cmpstr (again, ==, branch);
  }

  /* an instant: the rerun and a fresh run of the saved session, stopped there */
  instant = (WnTime) (g_rand_double (rand) * (double) wn_engine_now (run->engine));
  session = wn_engine_export_session (run->engine);
  {
    g_autoptr(Travel) rerun = travel_new (run->engine);
    g_autoptr(WnTestRun) fresh = case_run_new (c, session, NULL);
    g_autofree char *a = NULL;
    g_autofree char *b = NULL;
    g_autofree char *ja = NULL;
    g_autofree char *jb = NULL;

    wn_engine_run (rerun->engine, instant);
    wn_engine_run (fresh->engine, instant);
    a = wn_engine_dump_state (rerun->engine);
    b = wn_engine_dump_state (fresh->engine);
    ja = travel_journal (rerun);
    jb = journal_text (fresh);
    g_assert_cmpstr (a, ==, b);
    g_assert_cmpstr (ja, ==, jb);
  }
}

/* One run of a case: the journal as JSON lines. Also proves that the session
 * it leaves, saved and replayed, gives the same journal. */
static char *
run_case (const Case *c, Coverage *coverage)
{
  g_autoptr(WnTestRun) run = case_run_new (c, c->scenario, &c->options);
  g_autoptr(GRand) rand = g_rand_new_with_seed (c->seed ^ 0x5eed);
  g_autofree char *session = NULL;
  char *text;

  if (c->pause_after > 0 || c->pause_by > 0 || c->break_on > 0)
    {
      WnScheduler *scheduler = wn_engine_get_scheduler (run->engine);

      if (c->pause_after > 0)
        wn_scheduler_run_budget (scheduler, LIMIT, c->pause_after);
      else if (c->pause_by > 0)
        {
          wn_scheduler_step_by (scheduler, c->pause_by);
          wn_engine_note_clock (run->engine, WN_PH_STEPPED, "step by");
        }
      else
        {
          guint id = wn_engine_add_breakpoint (run->engine, breakpoints[c->break_on - 1].kind,
                                               breakpoints[c->break_on - 1].phase, NULL);
          WnStopReason reason = wn_scheduler_run_budget (scheduler, LIMIT, BUDGET);
          const WnEvent *hit = NULL;

          /* stopped right after the action whose event matched, or never hit */
          if (reason == WN_STOP_REQUESTED)
            {
              g_assert_cmpuint (wn_engine_get_last_hit (run->engine, &hit), ==, id);
              g_assert_cmpint (hit->kind, ==, breakpoints[c->break_on - 1].kind);
              g_assert_cmpint (hit->phase, ==, breakpoints[c->break_on - 1].phase);
            }
          else
            g_assert_cmpint (reason, !=, WN_STOP_BUDGET);
          g_assert_true (wn_engine_remove_breakpoint (run->engine, id));
          wn_engine_clear_hit (run->engine);
        }
      wn_engine_note_clock (run->engine, WN_PH_PAUSED, NULL);
      operate_midway (run, c, rand, coverage);
      wn_engine_note_clock (run->engine, WN_PH_RESUMED, NULL);
    }
  check_end (run, run_bounded (run, LIMIT), coverage);

  /* the operator clears incidents, twice at most; each time the run goes on */
  for (int round = 0; round < 2; round++)
    {
      guint n = operate (run, rand);

      if (n == 0)
        break;
      if (coverage != NULL)
        coverage->operator_commands += n;
      check_end (run, run_bounded (run, LIMIT), coverage);
    }

  if (coverage != NULL)
    for (guint i = 0; i < run->events->len; i++)
      {
        const WnEvent *ev = g_ptr_array_index (run->events, i);
        const WnNode *node = ev->node != NULL ? wn_process_find_node (run->process, ev->node) : NULL;

        coverage->phases[ev->kind][ev->phase]++;
        /* a start event's fault.caught, timer.fired or message.correlated starts its event sub-process */
        if (node != NULL && node->type == WN_NODE_START && node->scope >= 0 &&
            (ev->phase == WN_PH_CAUGHT || ev->phase == WN_PH_FIRED || ev->phase == WN_PH_CORRELATED))
          coverage->event_subs[ev->phase == WN_PH_CAUGHT ? 0 : ev->phase == WN_PH_FIRED ? 1 : 2]++;
      }
  check_people (run);
  text = journal_text (run);

  /* the saved session replays to the same journal */
  session = wn_engine_export_session (run->engine);
  {
    g_autoptr(WnTestRun) replay = case_run_new (c, session, NULL);
    g_autofree char *replayed = NULL;

    run_bounded (replay, LIMIT);
    wn_test_check_invariants (replay);
    replayed = journal_text (replay);
    assert_same_journal ("the saved session replayed", text, replayed, session);
  }
  /* the first of the two runs goes back in time too */
  if (coverage != NULL)
    check_travel (c, run, text, rand);
  return text;
}

/* A case as one JSON document: what the regression files under
 * tests/engine/data/properties/ hold, so that they keep reproducing what they
 * were kept for whatever becomes of the generator. */
static char *
case_to_json (const Case *c)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) process = json_from_string (c->process, NULL);
  g_autoptr(JsonNode) scenario = json_from_string (c->scenario, NULL);
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "seed");
  json_builder_add_int_value (b, c->seed);
  json_builder_set_member_name (b, "trust");
  json_builder_add_int_value (b, c->options.trust);
  json_builder_set_member_name (b, "onExhausted");
  json_builder_add_int_value (b, c->options.on_exhausted);
  json_builder_set_member_name (b, "pauseAfter");
  json_builder_add_int_value (b, c->pause_after);
  json_builder_set_member_name (b, "pauseBy");
  json_builder_add_int_value (b, c->pause_by);
  json_builder_set_member_name (b, "breakOn");
  json_builder_add_int_value (b, c->break_on);
  json_builder_set_member_name (b, "flip");
  json_builder_add_boolean_value (b, c->flip);
  json_builder_set_member_name (b, "flipTrust");
  json_builder_add_int_value (b, c->flip_trust);
  json_builder_set_member_name (b, "flipTask");
  json_builder_add_boolean_value (b, c->flip_task);
  json_builder_set_member_name (b, "midCancel");
  json_builder_add_boolean_value (b, c->mid_cancel);
  json_builder_set_member_name (b, "midInject");
  json_builder_add_boolean_value (b, c->mid_inject);
  json_builder_set_member_name (b, "midStart");
  json_builder_add_boolean_value (b, c->mid_start);
  json_builder_set_member_name (b, "process");
  json_builder_add_value (b, g_steal_pointer (&process));
  json_builder_set_member_name (b, "scenario");
  json_builder_add_value (b, g_steal_pointer (&scenario));
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  return json_to_string (root, TRUE);
}

static void
case_load (const char *path, Case *c)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *o;

  g_assert_true (json_parser_load_from_file (parser, path, &error));
  g_assert_no_error (error);
  o = json_node_get_object (json_parser_get_root (parser));
  memset (c, 0, sizeof *c);
  c->seed = (guint32) json_object_get_int_member (o, "seed");
  c->options.trust = (WnTrust) json_object_get_int_member (o, "trust");
  c->options.on_exhausted = (WnOnExhausted) json_object_get_int_member (o, "onExhausted");
  c->pause_after = (guint) json_object_get_int_member (o, "pauseAfter");
  c->pause_by = json_object_get_int_member_with_default (o, "pauseBy", 0);
  c->break_on = (int) json_object_get_int_member_with_default (o, "breakOn", 0);
  c->flip = json_object_get_boolean_member (o, "flip");
  c->flip_trust = (WnTrust) json_object_get_int_member (o, "flipTrust");
  c->flip_task = json_object_get_boolean_member (o, "flipTask");
  c->mid_cancel = json_object_get_boolean_member (o, "midCancel");
  c->mid_inject = json_object_get_boolean_member (o, "midInject");
  c->mid_start = json_object_get_boolean_member (o, "midStart");
  c->process = json_to_string (json_object_get_member (o, "process"), TRUE);
  c->scenario = json_to_string (json_object_get_member (o, "scenario"), TRUE);
  c->worker_ids = g_ptr_array_new_with_free_func (g_free);
}

static void
check_case (Case *c, Coverage *coverage)
{
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;

  current = c;
  if (g_getenv ("WINNOW_PROPERTY_DUMP") != NULL)
    {
      /* keep the documents for a look with winnow-run, and the whole case */
      g_autofree char *base = g_strdup_printf ("%s/seed-%u", g_getenv ("WINNOW_PROPERTY_DUMP"), c->seed);
      g_autofree char *process = g_strconcat (base, ".process.json", NULL);
      g_autofree char *scenario = g_strconcat (base, ".scenario.json", NULL);
      g_autofree char *whole = g_strconcat (base, ".case.json", NULL);
      g_autofree char *text = case_to_json (c);

      g_assert_true (g_file_set_contents (process, c->process, -1, NULL));
      g_assert_true (g_file_set_contents (scenario, c->scenario, -1, NULL));
      g_assert_true (g_file_set_contents (whole, text, -1, NULL));
    }
  first = run_case (c, coverage);
  second = run_case (c, NULL);
  /* the same case gives the same journal, byte for byte */
  assert_same_journal ("the same case run twice", first, second, NULL);
  current = NULL;
}

static void
check_seed (guint32 seed, Coverage *coverage)
{
  Case c;

  generate (seed, &c);
  check_case (&c, coverage);
  case_clear (&c);
}

static guint
env_uint (const char *name, guint fallback)
{
  const char *text = g_getenv (name);
  guint64 value;

  if (text != NULL && g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT, &value, NULL))
    return (guint) value;
  return fallback;
}

static void
test_random_runs (gconstpointer data)
{
  guint32 family = GPOINTER_TO_UINT (data);
  guint n = env_uint ("WINNOW_PROPERTY_SEEDS", g_getenv ("WINNOW_TEST_VALGRIND") ? N_SEEDS_VALGRIND : N_SEEDS);
  guint first = env_uint ("WINNOW_PROPERTY_FIRST_SEED", 1);
  Coverage coverage = { 0 };
  struct {
    WnEventKind  kind;
    WnEventPhase phase;
  } wanted[] = {
    { WN_EV_JOB, WN_PH_RETRY_SCHEDULED },
    { WN_EV_JOB, WN_PH_WORKER_RETRY_SCHEDULED },
    { WN_EV_JOB, WN_PH_RETRIES_EXHAUSTED },
    { WN_EV_JOB, WN_PH_LOCK_RECLAIMED },
    { WN_EV_JOB, WN_PH_REPORT_REJECTED },
    { WN_EV_JOB, WN_PH_MAPPER_ERROR },
    { WN_EV_JOB, WN_PH_BPMN_ERROR },
    { WN_EV_JOB, WN_PH_STATUS },
    { WN_EV_JOB, WN_PH_FAULT },
    { WN_EV_FAULT, WN_PH_CAUGHT },
    { WN_EV_FAULT, WN_PH_UNCAUGHT },
    { WN_EV_INCIDENT, WN_PH_RAISED },
    { WN_EV_INCIDENT, WN_PH_RETRIED },
    { WN_EV_INCIDENT, WN_PH_RESOLVED },
    { WN_EV_NODE, WN_PH_CANCELED },
    { WN_EV_GATEWAY, WN_PH_DECIDED },
    { WN_EV_INJECT, WN_PH_APPLIED },
    { WN_EV_INSTANCE, WN_PH_TERMINATED },
    { WN_EV_JOB, WN_PH_CANCELED },
    { WN_EV_SCOPE, WN_PH_COMPLETED },
    { WN_EV_SCOPE, WN_PH_CANCELED },
    { WN_EV_TIMER, WN_PH_FIRED },
    { WN_EV_USER_TASK, WN_PH_COMPLETED },
    { WN_EV_USER_TASK, WN_PH_ASSIGNED },
    { WN_EV_MESSAGE, WN_PH_BUFFERED },
    { WN_EV_MESSAGE, WN_PH_EXPIRED },
    { WN_EV_MESSAGE, WN_PH_CORRELATED },
    { WN_EV_MESSAGE, WN_PH_LOST },
  };

  for (guint seed = first; seed < first + n; seed++)
    check_seed ((seed & ~SCOPED_SEED) | family, &coverage);

  g_test_message ("%u cases: %u instances completed, %u terminated, %u left active at quiescence, "
                  "%u operator commands, %u stops at the time limit; event sub-processes started by "
                  "%u errors, %u timers, %u messages", n, coverage.completed,
                  coverage.terminated, coverage.quiescent_active, coverage.operator_commands, coverage.limited,
                  coverage.event_subs[0], coverage.event_subs[1], coverage.event_subs[2]);
  /* the generator reaches every behaviour the properties are about */
  if (n >= N_SEEDS_VALGRIND)
    {
      for (guint i = 0; i < G_N_ELEMENTS (wanted); i++)
        {
          guint count = coverage.phases[wanted[i].kind][wanted[i].phase];

          if (count == 0)
            g_error ("no generated run journaled %s.%s", wn_event_kind_to_string (wanted[i].kind),
                     wn_event_phase_to_string (wanted[i].phase));
        }
      g_assert_cmpuint (coverage.completed, >, 0);
      g_assert_cmpuint (coverage.quiescent_active, >, 0);
      for (guint i = 0; i < G_N_ELEMENTS (coverage.event_subs); i++)
        if (coverage.event_subs[i] == 0)
          g_error ("no generated run started an event sub-process by %s", i == 0 ? "an error" : i == 1 ? "a timer" : "a message");
      g_assert_cmpuint (coverage.operator_commands, >, 0);
    }
}

/* ---- cases that once broke a property, kept as found ---- */

/* tests/engine/data/properties/NAME.case.json, each with an "x-why". */
static void
test_regression_case (gconstpointer data)
{
  g_autofree char *file = g_strconcat ((const char *) data, ".case.json", NULL);
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "engine", "data", "properties", file, NULL);
  Case c;

  case_load (path, &c);
  check_case (&c, NULL);
  case_clear (&c);
}

/* ---- the checker itself: each broken journal is caught ---- */

static const char tiny_process[] =
  "{ \"format\": \"winnow.process/1\", \"id\": \"tiny\","
  "  \"nodes\": [ { \"id\": \"s\", \"type\": \"startEvent\" },"
  "               { \"id\": \"t\", \"type\": \"serviceTask\", \"worker\": { \"topic\": \"x\" } },"
  "               { \"id\": \"e\", \"type\": \"endEvent\" } ],"
  "  \"flows\": [ { \"id\": \"f1\", \"from\": \"s\", \"to\": \"t\" },"
  "               { \"id\": \"f2\", \"from\": \"t\", \"to\": \"e\" } ] }";
/* The same with an Engine II construct: its journal names each canceled job. */
static const char tiny_extended_process[] =
  "{ \"format\": \"winnow.process/1\", \"id\": \"tiny\","
  "  \"nodes\": [ { \"id\": \"s\", \"type\": \"startEvent\" },"
  "               { \"id\": \"t\", \"type\": \"serviceTask\", \"worker\": { \"topic\": \"x\" } },"
  "               { \"id\": \"e\", \"type\": \"endEvent\", \"terminate\": true } ],"
  "  \"flows\": [ { \"id\": \"f1\", \"from\": \"s\", \"to\": \"t\" },"
  "               { \"id\": \"f2\", \"from\": \"t\", \"to\": \"e\" } ] }";

static void
push (WnTestRun    *run,
      WnEventKind   kind,
      WnEventPhase  phase,
      WnTime        t,
      const char   *worker,
      WnTrust       trust)
{
  WnEvent ev = WN_EVENT_INIT (kind, phase);

  ev.seq = run->events->len + 1;
  ev.t_us = t;
  ev.instance = "i1";
  ev.node = "t";
  if (kind == WN_EV_JOB)
    {
      ev.job = "i1/j1";
      ev.topic = "x";
      ev.worker = worker;
      ev.trust = trust;
    }
  else
    ev.track = "i1/t1";
  if (kind == WN_EV_NODE && phase == WN_PH_PARKED)
    ev.job = "i1/j1";
  g_ptr_array_add (run->events, wn_event_copy (&ev));
}

/* A job enqueued, parked on, locked by w1 until 10s and executed once. */
static WnTestRun *
synthetic_run (WnTrust trust, gboolean extended)
{
  WnTestRun *run = wn_test_run_new (extended ? tiny_extended_process : tiny_process, NULL, NULL);
  WnEvent *locked;

  push (run, WN_EV_JOB, WN_PH_ENQUEUED, 0, NULL, trust);
  push (run, WN_EV_NODE, WN_PH_PARKED, 0, NULL, trust);
  push (run, WN_EV_JOB, WN_PH_LOCKED, 0, "w1", trust);
  locked = g_ptr_array_index (run->events, 2);
  locked->attempt = 1;
  locked->deadline_us = 10 * WN_USEC_PER_SEC;
  push (run, WN_EV_JOB, WN_PH_EXECUTING, 0, "w1", trust);
  ((WnEvent *) g_ptr_array_index (run->events, 3))->attempt = 1;
  return run;
}

static void
test_checker_catches (void)
{
  if (g_test_subprocess ())
    {
      const char *which = g_getenv ("WINNOW_CHECKER_CASE");
      g_autoptr(WnTestRun) run = synthetic_run (g_str_equal (which, "ownership")
                                                ? WN_TRUST_WORKER_TRUSTED : WN_TRUST_ENGINE_AUTHORITATIVE,
                                                g_str_has_prefix (which, "extended-"));

      if (g_str_equal (which, "gate"))
        {
          WnEvent *ev;

          push (run, WN_EV_JOB, WN_PH_RETRY_SCHEDULED, WN_USEC_PER_SEC, "w1", WN_TRUST_ENGINE_AUTHORITATIVE);
          ev = g_ptr_array_index (run->events, run->events->len - 1);
          ev->not_before_us = 5 * WN_USEC_PER_SEC;
          push (run, WN_EV_JOB, WN_PH_LOCKED, 2 * WN_USEC_PER_SEC, "w2", WN_TRUST_ENGINE_AUTHORITATIVE);
          ev = g_ptr_array_index (run->events, run->events->len - 1);
          ev->attempt = 2;
          ev->deadline_us = 12 * WN_USEC_PER_SEC;
        }
      else if (g_str_equal (which, "wake"))
        push (run, WN_EV_NODE, WN_PH_COMPLETED, WN_USEC_PER_SEC, NULL, WN_TRUST_UNSET);
      else if (g_str_equal (which, "v1-canceled"))
        push (run, WN_EV_JOB, WN_PH_CANCELED, WN_USEC_PER_SEC, "w1", WN_TRUST_ENGINE_AUTHORITATIVE);
      else if (g_str_equal (which, "extended-silent"))
        push (run, WN_EV_NODE, WN_PH_CANCELED, WN_USEC_PER_SEC, NULL, WN_TRUST_UNSET);
      else if (g_str_has_prefix (which, "extended-twice"))
        {
          push (run, WN_EV_JOB, WN_PH_CANCELED, WN_USEC_PER_SEC, "w1", WN_TRUST_ENGINE_AUTHORITATIVE);
          push (run, WN_EV_JOB, WN_PH_CANCELED, WN_USEC_PER_SEC, "w1", WN_TRUST_ENGINE_AUTHORITATIVE);
        }
      else if (g_str_equal (which, "extended-orphan"))
        push (run, WN_EV_JOB, WN_PH_CANCELED, WN_USEC_PER_SEC, "w1", WN_TRUST_ENGINE_AUTHORITATIVE);
      else if (g_str_equal (which, "takeover"))
        {
          WnEvent *ev;

          push (run, WN_EV_JOB, WN_PH_LOCKED, 5 * WN_USEC_PER_SEC, "w2", WN_TRUST_ENGINE_AUTHORITATIVE);
          ev = g_ptr_array_index (run->events, run->events->len - 1);
          ev->attempt = 2;
          ev->deadline_us = 15 * WN_USEC_PER_SEC;
        }
      else
        push (run, WN_EV_JOB, WN_PH_RETRY_SCHEDULED, WN_USEC_PER_SEC, "w1", WN_TRUST_ENGINE_AUTHORITATIVE);
      wn_test_check_invariants (run);
      return;
    }

  {
    const struct { const char *name; const char *message; } cases[] = {
      { "gate", "*locked before its gate*" },
      { "wake", "*woke before job i1/j1 delivered a terminal outcome*" },
      { "takeover", "*locked while w1 holds a valid lock*" },
      { "ownership", "*a workerTrusted job was re-armed by the dispatcher*" },
      { "v1-canceled", "*job.canceled in a v1 journal*" },
      { "extended-silent", "*canceled while job i1/j1 is still in the dispatcher (no job.canceled)*" },
      { "extended-twice", "*job i1/j1 journals canceled after its terminal outcome*" },
      { "extended-orphan", "*job i1/j1 canceled but its track was not*" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        /* the child inherits the environment */
        g_setenv ("WINNOW_CHECKER_CASE", cases[i].name, TRUE);
        g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
        g_test_trap_assert_failed ();
        g_test_trap_assert_stderr (cases[i].message);
      }
    g_unsetenv ("WINNOW_CHECKER_CASE");
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  signal (SIGABRT, report_case_cb);
  signal (SIGTRAP, report_case_cb);

  g_test_add_data_func ("/engine/Properties/random-runs", GUINT_TO_POINTER (0), test_random_runs);
  g_test_add_data_func ("/engine/Properties/random-scoped-runs", GUINT_TO_POINTER (SCOPED_SEED), test_random_runs);
  /* A session saved while a run stood out of budget between two instants was
   * replayed in another order: wn_scheduler_run_budget() had moved the clock
   * and queued the next instant's timers before noticing the budget was
   * spent, so the live commands ran after those timers, the replayed before. */
  g_test_add_data_func ("/engine/Properties/regression/seed-69-budget-stop-replay",
                        "seed-69-budget-stop-replay", test_regression_case);
  /* Two tasks committed a worker's raw output under one variable, the second
   * time the very node the variable already held: json-glib ignores that, and
   * the reference taken for it leaked (caught under ASan and memcheck, which
   * run this suite). */
  g_test_add_data_func ("/engine/Properties/regression/seed-86-output-committed-twice",
                        "seed-86-output-committed-twice", test_regression_case);
  /* Resolving an incident at an exclusive gateway left it along every flow:
   * each branch of the choice ran, and a parallel join downstream completed
   * early, then waited forever for a token already spent. */
  g_test_add_data_func ("/engine/Properties/regression/seed-236-gateway-resolve",
                        "seed-236-gateway-resolve", test_regression_case);
  g_test_add_func ("/engine/Properties/checker-catches", test_checker_catches);

  return g_test_run ();
}
