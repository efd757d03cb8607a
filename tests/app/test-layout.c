/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-layout.c — the process diagram's layout, without GTK or a display:
 * texts are measured by a rule of the test's own (a fixed advance per
 * character, a fixed line height), so the geometry is exact. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "winnow-layout.h"
#include "wn-test-util.h"

#define EPSILON 0.01

/* ---- texts: 7 units a character (6 in the small font), 16 a line (14) ---- */

typedef struct {
  char    *text;
  gboolean small;
  double   width;
  double   height;
  double   max_width;   /* as last fitted; 0: never */
  int      max_lines;
} FakeText;

typedef struct {
  guint live;           /* texts made and not freed */
  guint made;
} FakeTexts;

static FakeTexts *current_texts;

static gpointer
fake_text_new (const char *text,
               gboolean    small,
               gpointer    data)
{
  FakeTexts *texts = data;
  FakeText *t = g_new0 (FakeText, 1);

  t->text = g_strdup (text);
  t->small = small;
  t->width = strlen (text) * (small ? 6.0 : 7.0);
  t->height = small ? 14.0 : 16.0;
  texts->live++;
  texts->made++;
  return t;
}

static void
fake_text_fit (gpointer               text,
               double                 max_width,
               int                    max_lines,
               WinnowLayoutAlign      align,
               WinnowLayoutEllipsize  ellipsize,
               gpointer               data)
{
  FakeText *t = text;
  double natural = strlen (t->text) * (t->small ? 6.0 : 7.0);
  double line = t->small ? 14.0 : 16.0;

  g_assert_cmpfloat (max_width, >, 0);
  g_assert_cmpint (max_lines, >=, 1);
  t->max_width = max_width;
  t->max_lines = max_lines;
  if (natural <= max_width)
    {
      t->width = natural;
      t->height = line;
      return;
    }
  t->width = MAX (max_width, 8.0);
  t->height = line * MIN (max_lines, (int) ceil (natural / t->width));
}

static void
fake_text_size (gpointer  text,
                double   *width,
                double   *height,
                gpointer  data)
{
  FakeText *t = text;

  *width = t->width;
  *height = t->height;
}

static void
fake_text_free (gpointer text)
{
  FakeText *t = text;

  current_texts->live--;
  g_free (t->text);
  g_free (t);
}

static const WinnowLayoutTextFuncs fake_funcs = {
  fake_text_new,
  fake_text_fit,
  fake_text_size,
  fake_text_free,
};

static WinnowLayout *
lay_out (WnProcess *process,
         FakeTexts *texts)
{
  current_texts = texts;
  return winnow_layout_new (process, &fake_funcs, texts);
}

/* ---- processes ---- */

static WnProcess *
load_example (const char *name)
{
  const char *dir = g_getenv ("WINNOW_EXAMPLES_DIR");
  g_autofree char *path = dir != NULL ? g_build_filename (dir, name, NULL) :
                          g_test_build_filename (G_TEST_DIST, "..", "..", "data", "examples", name, NULL);
  g_autoptr(GError) error = NULL;
  WnProcess *process = wn_load_process_file (path, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (process);
  return process;
}

/* start → work → check; check loops back to work ("again"), or ends. */
static const char loop_process[] =
  "{\"format\": \"winnow.process/1\", \"id\": \"loop\","
  " \"nodes\": ["
  "  {\"id\": \"start\", \"type\": \"startEvent\"},"
  "  {\"id\": \"work\", \"type\": \"task\", \"name\": \"Do the work, which takes a name long enough to wrap\"},"
  "  {\"id\": \"check\", \"type\": \"exclusiveGateway\", \"default\": \"out\"},"
  "  {\"id\": \"end\", \"type\": \"endEvent\"}],"
  " \"flows\": ["
  "  {\"id\": \"f1\", \"from\": \"start\", \"to\": \"work\"},"
  "  {\"id\": \"f2\", \"from\": \"work\", \"to\": \"check\"},"
  "  {\"id\": \"again\", \"from\": \"check\", \"to\": \"work\", \"condition\": \"attempts < 3\"},"
  "  {\"id\": \"out\", \"from\": \"check\", \"to\": \"end\"}]}";

/* ---- checks ---- */

static const WinnowLayoutNode *
node_of (WinnowLayout    *layout,
         const WnProcess *process,
         const char      *id)
{
  const WnNode *node = wn_process_find_node (process, id);

  g_assert_nonnull (node);
  return &layout->nodes[node->index];
}

static gboolean
rects_overlap (const WinnowLayoutRect *a,
               const WinnowLayoutRect *b)
{
  return a->x < b->x + b->width && b->x < a->x + a->width &&
         a->y < b->y + b->height && b->y < a->y + a->height;
}

static void
assert_inside (const WinnowLayout     *layout,
               const WinnowLayoutRect *r)
{
  g_assert_cmpfloat (r->x, >=, 0);
  g_assert_cmpfloat (r->y, >=, 0);
  g_assert_cmpfloat (r->x + r->width, <=, layout->width);
  g_assert_cmpfloat (r->y + r->height, <=, layout->height);
}

/* On the rectangle's outline (within EPSILON). */
static gboolean
on_border (const WinnowLayoutRect  *r,
           const WinnowLayoutPoint *p)
{
  gboolean inside = p->x >= r->x - EPSILON && p->x <= r->x + r->width + EPSILON &&
                    p->y >= r->y - EPSILON && p->y <= r->y + r->height + EPSILON;

  return inside && (fabs (p->x - r->x) < EPSILON || fabs (p->x - (r->x + r->width)) < EPSILON ||
                    fabs (p->y - r->y) < EPSILON || fabs (p->y - (r->y + r->height)) < EPSILON);
}

/* Is `node` inside the sub-process `scope`, at any depth? */
static gboolean
is_inside (const WnProcess *process,
           const WnNode    *node,
           guint            scope)
{
  for (int s = node->scope; s >= 0; s = process->nodes[s].scope)
    if (s == (int) scope)
      return TRUE;
  return FALSE;
}

/* `inner` lies inside `outer`, at least `pad` from its edges. */
static void
assert_within (const WinnowLayoutRect *outer,
               const WinnowLayoutRect *inner,
               double                  pad)
{
  g_assert_cmpfloat (inner->x, >=, outer->x + pad - EPSILON);
  g_assert_cmpfloat (inner->y, >=, outer->y + pad - EPSILON);
  g_assert_cmpfloat (inner->x + inner->width, <=, outer->x + outer->width - pad + EPSILON);
  g_assert_cmpfloat (inner->y + inner->height, <=, outer->y + outer->height - pad + EPSILON);
}

/* What holds for every layout: shapes apart and inside the size, every flow
 * that is drawn a run of horizontal and vertical stretches from the border of
 * its source to the border of its target, texts within their limits. */
static void
assert_well_formed (WinnowLayout    *layout,
                    const WnProcess *process)
{
  g_assert_cmpuint (layout->n_nodes, ==, process->n_nodes);
  g_assert_cmpuint (layout->n_flows, ==, process->n_flows);
  g_assert_cmpfloat (layout->width, >, 0);
  g_assert_cmpfloat (layout->height, >, 0);

  for (guint i = 0; i < process->n_nodes; i++)
    {
      const WnNode *a = &process->nodes[i];
      const WinnowLayoutNode *n = &layout->nodes[i];

      if (n->hidden)
        continue;
      g_assert_cmpfloat (n->box.width, >, 0);
      g_assert_cmpfloat (n->box.height, >, 0);
      g_assert_cmpfloat_with_epsilon (n->cx, n->box.x + n->box.width / 2, EPSILON);
      g_assert_cmpfloat_with_epsilon (n->cy, n->box.y + n->box.height / 2, EPSILON);
      assert_inside (layout, &n->box);
      if (n->label != NULL)
        {
          const FakeText *label = n->label;

          assert_inside (layout, &n->label_rect);
          g_assert_cmpfloat (n->label_rect.width, <=, MAX (label->max_width, 8.0) + EPSILON);
        }
      g_assert_cmpint (n->layer, ==, winnow_layout_is_attached (process, a) ? -1 : n->layer);
      for (guint j = i + 1; j < process->n_nodes; j++)
        {
          const WnNode *b = &process->nodes[j];

          if (a->attached_to == (int) j || b->attached_to == (int) i || layout->nodes[j].hidden)
            continue;
          /* a container holds its content, which lies inside it */
          if (is_inside (process, a, j) || is_inside (process, b, i))
            {
              const WinnowLayoutRect *outer = is_inside (process, a, j) ? &layout->nodes[j].box : &n->box;
              const WinnowLayoutRect *inner = is_inside (process, a, j) ? &n->box : &layout->nodes[j].box;

              g_assert_true (layout->nodes[is_inside (process, a, j) ? j : i].container);
              assert_within (outer, inner, 8);
              continue;
            }
          if (rects_overlap (&n->box, &layout->nodes[j].box))
            g_error ("%s overlaps %s", a->id, b->id);
        }
    }

  for (guint f = 0; f < process->n_flows; f++)
    {
      const WnFlow *flow = &process->flows[f];
      const WinnowLayoutFlow *fg = &layout->flows[f];
      const WinnowLayoutPoint *pts = (const WinnowLayoutPoint *) (const void *) fg->points->data;
      guint n = fg->points->len;

      g_assert_true (n == 0 || n >= 2);
      if (n == 0)
        {
          g_assert_null (fg->label);
          continue;
        }
      for (guint k = 0; k + 1 < n; k++)
        if (fabs (pts[k].x - pts[k + 1].x) > EPSILON && fabs (pts[k].y - pts[k + 1].y) > EPSILON)
          g_error ("flow %s bends off the grid at point %u", flow->id, k);
      if (!on_border (&layout->nodes[flow->from].box, &pts[0]))
        g_error ("flow %s does not start on %s", flow->id, process->nodes[flow->from].id);
      if (!on_border (&layout->nodes[flow->to].box, &pts[n - 1]))
        g_error ("flow %s does not end on %s", flow->id, process->nodes[flow->to].id);
      if (fg->label != NULL)
        assert_inside (layout, &fg->label_rect);
      g_assert_true (fg->is_default == (process->nodes[flow->from].default_flow == (int) f));
    }
}

static void
assert_same_layout (const WinnowLayout *a,
                    const WinnowLayout *b)
{
  g_assert_cmpfloat (a->width, ==, b->width);
  g_assert_cmpfloat (a->height, ==, b->height);
  for (guint i = 0; i < a->n_nodes; i++)
    g_assert_cmpmem (&a->nodes[i].box, sizeof (WinnowLayoutRect), &b->nodes[i].box, sizeof (WinnowLayoutRect));
  for (guint f = 0; f < a->n_flows; f++)
    g_assert_cmpmem (a->flows[f].points->data, a->flows[f].points->len * sizeof (WinnowLayoutPoint),
                     b->flows[f].points->data, b->flows[f].points->len * sizeof (WinnowLayoutPoint));
}

/* ---- tests ---- */

static void
test_examples (void)
{
  static const char * const names[] = {
    "batch-payments.process.json",
    "crashed-worker.process.json",
    "error-mapper-showcase.process.json",
    "flaky-service.process.json",
    "incident-on-exhaustion.process.json",
    "order-fulfilment-authoritative.process.json",
    "order-fulfilment.process.json",
    "order-cancellation.process.json",
    "order-terminate.process.json",
    "parallel-branch-failure.process.json",
    "payment-messages.process.json",
    "payment-timeout.process.json",
    "reminder-cycle.process.json",
    "manual-approval.process.json",
    "invoice-reminder.process.json",
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(WnProcess) process = load_example (names[i]);
      FakeTexts texts = { 0 };
      WinnowLayout *layout, *again;

      g_test_message ("%s", names[i]);
      layout = lay_out (process, &texts);
      assert_well_formed (layout, process);
      g_assert_cmpuint (texts.made, >, 0);

      /* the same process, the same layout */
      again = lay_out (process, &texts);
      assert_same_layout (layout, again);

      /* every text it made goes with it */
      winnow_layout_free (again);
      winnow_layout_free (layout);
      g_assert_cmpuint (texts.live, ==, 0);
    }
}

static void
test_order (void)
{
  g_autoptr(WnProcess) process = load_example ("order-fulfilment.process.json");
  FakeTexts texts = { 0 };
  g_autoptr(WinnowLayout) layout = lay_out (process, &texts);
  const WinnowLayoutNode *start = node_of (layout, process, "start");
  const WinnowLayoutNode *reserve = node_of (layout, process, "reserve-stock");
  const WinnowLayoutNode *authorize = node_of (layout, process, "authorize-payment");
  const WinnowLayoutNode *boundary = node_of (layout, process, "gateway-down");
  const WinnowLayoutNode *status = node_of (layout, process, "status");
  const WinnowLayoutNode *shipped = node_of (layout, process, "shipped");
  const WinnowLayoutNode *held = node_of (layout, process, "held");
  const WinnowLayoutNode *failed = node_of (layout, process, "payment-failed");

  /* left to right along the flows, one layer each */
  g_assert_cmpint (start->layer, ==, 0);
  g_assert_cmpint (reserve->layer, ==, 1);
  g_assert_cmpint (authorize->layer, ==, 2);
  g_assert_cmpint (status->layer, ==, 3);
  g_assert_cmpint (shipped->layer, ==, 4);
  g_assert_cmpint (held->layer, ==, 4);
  g_assert_cmpfloat (start->box.x + start->box.width, <, reserve->box.x);
  g_assert_cmpfloat (reserve->box.x + reserve->box.width, <, authorize->box.x);
  g_assert_cmpfloat (authorize->box.x + authorize->box.width, <, status->box.x);
  g_assert_cmpfloat (status->box.x + status->box.width, <, shipped->box.x);
  /* the main path is a straight line, and so is the first way out of the gateway */
  g_assert_cmpfloat_with_epsilon (start->cy, reserve->cy, EPSILON);
  g_assert_cmpfloat_with_epsilon (reserve->cy, authorize->cy, EPSILON);
  g_assert_cmpfloat_with_epsilon (authorize->cy, status->cy, EPSILON);
  g_assert_cmpfloat_with_epsilon (status->cy, shipped->cy, EPSILON);
  /* both ends in one column, one above the other */
  g_assert_cmpfloat_with_epsilon (shipped->cx, held->cx, EPSILON);
  g_assert_cmpfloat (held->cy - shipped->cy, >=, shipped->box.height);
  /* the boundary sits on its host's bottom edge, within it; its target lies
   * right of the host and below the main line */
  g_assert_cmpint (boundary->layer, ==, -1);
  g_assert_cmpfloat_with_epsilon (boundary->cy, authorize->box.y + authorize->box.height, EPSILON);
  g_assert_cmpfloat (boundary->cx, >, authorize->box.x);
  g_assert_cmpfloat (boundary->cx, <, authorize->box.x + authorize->box.width);
  g_assert_cmpfloat (failed->box.x, >, authorize->box.x + authorize->box.width);
  g_assert_cmpfloat (failed->cy, >, authorize->cy);
  /* a task's name inside its box, its topic on the header */
  g_assert_nonnull (reserve->label);
  g_assert_nonnull (reserve->topic);
  g_assert_cmpstr (((FakeText *) reserve->topic)->text, ==, "reserve");
  g_assert_cmpfloat (reserve->label_rect.x, >=, reserve->box.x);
  g_assert_cmpfloat (reserve->label_rect.x + reserve->label_rect.width, <=, reserve->box.x + reserve->box.width);
  g_assert_cmpfloat (reserve->topic_rect.y, <, reserve->label_rect.y);
  /* the condition is written on its flow; the boundary's error on the flow leaving it */
  g_assert_nonnull (layout->flows[wn_process_find_flow (process, "to-shipped")->index].label);
  g_assert_null (layout->flows[wn_process_find_flow (process, "to-held")->index].label);
  g_assert_true (layout->flows[wn_process_find_flow (process, "to-held")->index].is_default);
  g_assert_null (boundary->label);
  g_assert_cmpstr (((FakeText *) layout->flows[wn_process_find_flow (process, "f4")->index].label)->text, ==,
                   "PaymentGatewayDown");
}

static const WinnowLayoutPoint *
flow_points (WinnowLayout    *layout,
             const WnProcess *process,
             const char      *id,
             guint           *n)
{
  const WinnowLayoutFlow *fg = &layout->flows[wn_process_find_flow (process, id)->index];

  *n = fg->points->len;
  g_assert_cmpuint (*n, >=, 2);
  return (const WinnowLayoutPoint *) (const void *) fg->points->data;
}

/* A sub-process is a container: a frame around its content, laid out inside
 * it, its name at the top-left above the content, its boundaries on its
 * bottom border, the flow into it reaching its left border on the line of its
 * start event, the flow out of it leaving its right border (issue 18, point
 * 8: it was a marked box with its children laid out beside it). */
static void
test_containers (void)
{
  g_autoptr(WnProcess) process = load_example ("payment-timeout.process.json");
  FakeTexts texts = { 0 };
  g_autoptr(WinnowLayout) layout = lay_out (process, &texts);
  const WinnowLayoutNode *payment = node_of (layout, process, "payment");
  const WinnowLayoutNode *inner_start = node_of (layout, process, "payment-start");
  const WinnowLayoutNode *charge = node_of (layout, process, "charge");
  const WinnowLayoutNode *ship = node_of (layout, process, "ship");
  const WinnowLayoutPoint *in, *out;
  guint n_in, n_out;
  const char *inside[] = { "payment-start", "charge", "paid" };
  const char *boundaries[] = { "payment-timeout", "declined" };

  assert_well_formed (layout, process);
  g_assert_true (payment->container);
  g_assert_false (charge->container);
  g_assert_cmpint (payment->depth, ==, 0);
  g_assert_cmpint (charge->depth, ==, 1);
  for (guint i = 0; i < G_N_ELEMENTS (inside); i++)
    {
      const WinnowLayoutNode *n = node_of (layout, process, inside[i]);

      assert_within (&payment->box, &n->box, 8);
      if (n->label != NULL)
        assert_within (&payment->box, &n->label_rect, 4);
      /* under the container's name */
      g_assert_cmpfloat (n->box.y, >, payment->label_rect.y + payment->label_rect.height);
    }
  assert_within (&payment->box, &payment->label_rect, 4);
  g_assert_cmpfloat (payment->label_rect.x, <, payment->box.x + 20);
  g_assert_cmpstr (((FakeText *) payment->label)->text, ==, "Payment");
  for (guint i = 0; i < G_N_ELEMENTS (boundaries); i++)
    {
      const WinnowLayoutNode *b = node_of (layout, process, boundaries[i]);

      g_assert_cmpfloat_with_epsilon (b->cy, payment->box.y + payment->box.height, EPSILON);
      g_assert_cmpfloat (b->cx, >, payment->box.x);
      g_assert_cmpfloat (b->cx, <, payment->box.x + payment->box.width);
    }
  in = flow_points (layout, process, "f1", &n_in);
  g_assert_cmpfloat_with_epsilon (in[n_in - 1].x, payment->box.x, EPSILON);
  g_assert_cmpfloat_with_epsilon (in[n_in - 1].y, inner_start->cy, EPSILON);
  out = flow_points (layout, process, "f2", &n_out);
  g_assert_cmpfloat_with_epsilon (out[0].x, payment->box.x + payment->box.width, EPSILON);
  g_assert_cmpfloat_with_epsilon (out[0].y, inner_start->cy, EPSILON);
  g_assert_cmpfloat (ship->box.x, >, payment->box.x + payment->box.width);
  /* the flows inside stay inside */
  for (guint f = 0; f < process->n_flows; f++)
    {
      const WinnowLayoutFlow *fg = &layout->flows[f];

      if (!is_inside (process, &process->nodes[process->flows[f].from], wn_process_find_node (process, "payment")->index))
        continue;
      for (guint k = 0; k < fg->points->len; k++)
        {
          const WinnowLayoutPoint *pt = &g_array_index (fg->points, WinnowLayoutPoint, k);
          WinnowLayoutRect r = { pt->x, pt->y, 0, 0 };

          assert_within (&payment->box, &r, 8);
        }
    }
}

/* Event sub-processes are containers too, off the flow: lined up below their
 * scope's content, left to right, inside the sub-process that holds them. */
static void
test_event_subprocesses (void)
{
  g_autoptr(WnProcess) process = load_example ("order-cancellation.process.json");
  FakeTexts texts = { 0 };
  g_autoptr(WinnowLayout) layout = lay_out (process, &texts);
  const WinnowLayoutNode *fulfil = node_of (layout, process, "fulfil");
  const WinnowLayoutNode *progress = node_of (layout, process, "progress");
  const WinnowLayoutNode *declined = node_of (layout, process, "declined");
  const WinnowLayoutNode *cancel = node_of (layout, process, "cancel");
  const char *main_line[] = { "start", "fulfil", "ship", "shipped" };
  const char *fulfil_line[] = { "fulfil-start", "charge", "pack", "fulfilled" };

  assert_well_formed (layout, process);
  g_assert_true (fulfil->container);
  g_assert_true (progress->container);
  g_assert_true (declined->container);
  g_assert_true (cancel->container);
  g_assert_cmpint (progress->depth, ==, 1);
  assert_within (&fulfil->box, &progress->box, 8);
  assert_within (&progress->box, &node_of (layout, process, "mail-progress")->box, 8);
  for (guint i = 0; i < G_N_ELEMENTS (fulfil_line); i++)
    {
      const WinnowLayoutNode *n = node_of (layout, process, fulfil_line[i]);

      g_assert_cmpfloat (progress->box.y, >, n->box.y + n->box.height);
    }
  for (guint i = 0; i < G_N_ELEMENTS (main_line); i++)
    {
      const WinnowLayoutNode *n = node_of (layout, process, main_line[i]);

      g_assert_cmpfloat (declined->box.y, >, n->box.y + n->box.height);
      g_assert_cmpfloat (cancel->box.y, >, n->box.y + n->box.height);
    }
  g_assert_cmpfloat_with_epsilon (declined->box.y, cancel->box.y, EPSILON);
  g_assert_cmpfloat (declined->box.x + declined->box.width, <, cancel->box.x);
}

/* ---- random processes with nested scopes ----
 *
 * Sequences of tasks, service tasks with boundaries, exclusive and parallel
 * blocks, loops and sub-processes (nested up to three deep, with boundaries
 * and event sub-processes of their own), for the layout's invariants. */

typedef struct {
  GRand *rand;
  guint  next_id;
} LayoutGen;

typedef struct {
  JsonArray *nodes;
  JsonArray *flows;
} GenScope;

static char *
gen_node (LayoutGen *g, GenScope *sc, const char *prefix, const char *type)
{
  JsonObject *o = json_object_new ();
  char *id = g_strdup_printf ("%s%u", prefix, ++g->next_id);

  json_object_set_string_member (o, "id", id);
  json_object_set_string_member (o, "type", type);
  json_array_add_object_element (sc->nodes, o);
  return id;
}

static JsonObject *
gen_flow (LayoutGen *g, GenScope *sc, const char *from, const char *to)
{
  JsonObject *o = json_object_new ();
  g_autofree char *id = g_strdup_printf ("f%u", ++g->next_id);

  json_object_set_string_member (o, "id", id);
  json_object_set_string_member (o, "from", from);
  json_object_set_string_member (o, "to", to);
  json_array_add_object_element (sc->flows, o);
  return o;
}

static JsonObject *
last_node (GenScope *sc)
{
  return json_array_get_object_element (sc->nodes, json_array_get_length (sc->nodes) - 1);
}

static void gen_block (LayoutGen *g, GenScope *sc, int depth, char **entry, char **exit);

/* a boundary on `host` and the end event its flow leads to */
static void
gen_boundary (LayoutGen *g, GenScope *sc, const char *host)
{
  g_autofree char *b = gen_node (g, sc, "b", "boundaryEvent");
  g_autofree char *end = NULL;

  json_object_set_string_member (last_node (sc), "attachedTo", host);
  if (g_rand_boolean (g->rand))
    json_object_set_string_member (last_node (sc), "timer", "1m");
  else
    json_object_set_string_member (last_node (sc), "error", "E");
  end = gen_node (g, sc, "x", "endEvent");
  gen_flow (g, sc, b, end);
}

/* a scope's content: start → block → end, and now and then an event sub-process */
static void
gen_scope_content (LayoutGen *g, GenScope *sc, int depth)
{
  g_autofree char *start = gen_node (g, sc, "s", "startEvent");
  g_autofree char *end = NULL;
  char *entry, *exit;

  gen_block (g, sc, depth, &entry, &exit);
  end = gen_node (g, sc, "e", "endEvent");
  gen_flow (g, sc, start, entry);
  gen_flow (g, sc, exit, end);
  g_free (entry);
  g_free (exit);
  if (depth < 3 && g_rand_int_range (g->rand, 0, 4) == 0)
    {
      GenScope inner = { json_array_new (), json_array_new () };
      g_autofree char *esp = gen_node (g, sc, "v", "subProcess");
      JsonObject *o = last_node (sc);
      g_autofree char *s = gen_node (g, &inner, "s", "startEvent");
      g_autofree char *e = NULL;
      char *in, *out;

      json_object_set_boolean_member (json_array_get_object_element (inner.nodes, 0), "interrupting", FALSE);
      json_object_set_string_member (json_array_get_object_element (inner.nodes, 0), "timer", "30s");
      json_object_set_boolean_member (o, "triggeredByEvent", TRUE);
      gen_block (g, &inner, depth + 2, &in, &out);
      e = gen_node (g, &inner, "e", "endEvent");
      gen_flow (g, &inner, s, in);
      gen_flow (g, &inner, out, e);
      g_free (in);
      g_free (out);
      json_object_set_array_member (o, "nodes", inner.nodes);
      json_object_set_array_member (o, "flows", inner.flows);
    }
}

static void
gen_step (LayoutGen *g, GenScope *sc, int depth, char **entry, char **exit)
{
  int kind = g_rand_int_range (g->rand, 0, depth < 3 ? 6 : 3);

  switch (kind)
    {
    case 0:
      *entry = gen_node (g, sc, "t", "task");
      *exit = g_strdup (*entry);
      break;
    case 1:
    case 2:
      *entry = gen_node (g, sc, "w", "serviceTask");
      json_object_set_object_member (last_node (sc), "worker", json_object_new ());
      json_object_set_string_member (json_object_get_object_member (last_node (sc), "worker"), "topic", "topic");
      *exit = g_strdup (*entry);
      for (int n = g_rand_int_range (g->rand, 0, 3); n > 0; n--)
        gen_boundary (g, sc, *entry);
      break;
    case 3:
      {
        GenScope inner = { json_array_new (), json_array_new () };
        JsonObject *o;

        *entry = gen_node (g, sc, "p", "subProcess");
        o = last_node (sc);
        json_object_set_string_member (o, "name", "A sub-process with a long name");
        gen_scope_content (g, &inner, depth + 1);
        json_object_set_array_member (o, "nodes", inner.nodes);
        json_object_set_array_member (o, "flows", inner.flows);
        *exit = g_strdup (*entry);
        for (int n = g_rand_int_range (g->rand, 0, 3); n > 0; n--)
          gen_boundary (g, sc, *entry);
        break;
      }
    default:
      {
        gboolean parallel = kind == 4;
        g_autofree char *split = gen_node (g, sc, "g", parallel ? "parallelGateway" : "exclusiveGateway");
        JsonObject *split_node = last_node (sc);
        g_autofree char *join = NULL;
        int branches = g_rand_int_range (g->rand, 2, 4);
        g_autoptr(GPtrArray) ins = g_ptr_array_new_with_free_func (g_free);
        g_autoptr(GPtrArray) outs = g_ptr_array_new_with_free_func (g_free);

        for (int b = 0; b < branches; b++)
          {
            char *in, *out;

            gen_block (g, sc, depth + 1, &in, &out);
            g_ptr_array_add (ins, in);
            g_ptr_array_add (outs, out);
          }
        join = gen_node (g, sc, "j", parallel ? "parallelGateway" : "exclusiveGateway");
        for (int b = 0; b < branches; b++)
          {
            JsonObject *f = gen_flow (g, sc, split, g_ptr_array_index (ins, b));

            if (!parallel && b == 0)
              json_object_set_string_member (split_node, "default", json_object_get_string_member (f, "id"));
            else if (!parallel)
              json_object_set_string_member (f, "condition", "n < 3");
            gen_flow (g, sc, g_ptr_array_index (outs, b), join);
          }
        if (!parallel && g_rand_int_range (g->rand, 0, 3) == 0)
          {
            /* a loop back from the join to the split */
            g_autofree char *again = gen_node (g, sc, "g", "exclusiveGateway");
            JsonObject *again_node = last_node (sc);
            JsonObject *out = gen_flow (g, sc, join, again);
            JsonObject *back = gen_flow (g, sc, again, split);

            (void) out;
            json_object_set_string_member (back, "condition", "n < 1");
            *entry = g_strdup (split);
            *exit = g_strdup (again);
            /* the gateway's default: the flow the caller adds next is not known
             * here, so the loop's way on is its own task */
            {
              g_autofree char *on = gen_node (g, sc, "t", "task");
              JsonObject *f = gen_flow (g, sc, again, on);

              json_object_set_string_member (again_node, "default", json_object_get_string_member (f, "id"));
              g_free (*exit);
              *exit = g_strdup (on);
            }
            break;
          }
        *entry = g_strdup (split);
        *exit = g_strdup (join);
        break;
      }
    }
}

/* one to three steps in a row */
static void
gen_block (LayoutGen *g, GenScope *sc, int depth, char **entry, char **exit)
{
  int n = g_rand_int_range (g->rand, 1, depth < 2 ? 4 : 3);
  char *prev_exit = NULL;

  for (int i = 0; i < n; i++)
    {
      char *in, *out;

      gen_step (g, sc, depth, &in, &out);
      if (prev_exit == NULL)
        *entry = in;
      else
        {
          gen_flow (g, sc, prev_exit, in);
          g_free (prev_exit);
          g_free (in);
        }
      prev_exit = out;
    }
  *exit = prev_exit;
}

static char *
gen_layout_process (guint32 seed)
{
  LayoutGen g = { g_rand_new_with_seed (seed), 0 };
  GenScope top = { json_array_new (), json_array_new () };
  g_autoptr(JsonNode) root = json_node_new (JSON_NODE_OBJECT);
  JsonObject *o = json_object_new ();
  JsonObject *vars = json_object_new ();
  char *text;

  gen_scope_content (&g, &top, 0);
  json_object_set_string_member (o, "format", "winnow.process/1");
  json_object_set_string_member (o, "id", "random");
  json_object_set_int_member (vars, "n", 0);
  json_object_set_object_member (o, "variables", vars);
  json_object_set_array_member (o, "nodes", top.nodes);
  json_object_set_array_member (o, "flows", top.flows);
  json_node_take_object (root, o);
  text = json_to_string (root, TRUE);
  g_rand_free (g.rand);
  return text;
}

/* Over random processes with nested sub-processes, boundaries on them and
 * event sub-processes: the invariants of every layout hold, a container's
 * content (shapes, texts, flows) lies inside it, and a container's boundaries
 * sit on its bottom border. */
static void
test_random_containers (void)
{
  guint containers = 0;

  for (guint32 seed = 1; seed <= 300; seed++)
    {
      g_autofree char *json = gen_layout_process (seed);
      g_autoptr(GError) error = NULL;
      g_autoptr(WnProcess) process = wn_load_process_data (json, -1, "random.json", NULL, &error);
      FakeTexts texts = { 0 };
      WinnowLayout *layout;

      if (process == NULL)
        g_error ("seed %u: %s\n%s", seed, error->message, json);
      layout = lay_out (process, &texts);
      assert_well_formed (layout, process);
      for (guint i = 0; i < process->n_nodes; i++)
        {
          const WnNode *node = &process->nodes[i];
          const WinnowLayoutNode *n = &layout->nodes[i];

          if (winnow_layout_is_attached (process, node) && layout->nodes[node->attached_to].container)
            g_assert_cmpfloat_with_epsilon (n->cy, layout->nodes[node->attached_to].box.y +
                                                   layout->nodes[node->attached_to].box.height, EPSILON);
          if (!n->container)
            continue;
          containers++;
          for (guint j = 0; j < process->n_nodes; j++)
            if (is_inside (process, &process->nodes[j], i) && layout->nodes[j].label != NULL)
              assert_within (&n->box, &layout->nodes[j].label_rect, 2);
          for (guint f = 0; f < process->n_flows; f++)
            {
              const WinnowLayoutFlow *fg = &layout->flows[f];

              if (!is_inside (process, &process->nodes[process->flows[f].from], i))
                continue;
              for (guint k = 0; k < fg->points->len; k++)
                {
                  const WinnowLayoutPoint *pt = &g_array_index (fg->points, WinnowLayoutPoint, k);
                  WinnowLayoutRect r = { pt->x, pt->y, 0, 0 };

                  assert_within (&n->box, &r, 2);
                }
              if (fg->label != NULL)
                assert_within (&n->box, &fg->label_rect, 2);
            }
        }
      winnow_layout_free (layout);
      g_assert_cmpuint (texts.live, ==, 0);
    }
  g_test_message ("%u containers", containers);
  g_assert_cmpuint (containers, >, 300);
}

static void
test_loop (void)
{
  g_autoptr(WnProcess) process = wn_test_load_process (loop_process);
  FakeTexts texts = { 0 };
  g_autoptr(WinnowLayout) layout = lay_out (process, &texts);
  const WinnowLayoutNode *work = node_of (layout, process, "work");
  const WinnowLayoutNode *check = node_of (layout, process, "check");
  const WinnowLayoutFlow *again = &layout->flows[wn_process_find_flow (process, "again")->index];
  const WinnowLayoutFlow *out = &layout->flows[wn_process_find_flow (process, "out")->index];
  const WinnowLayoutPoint *pts = (const WinnowLayoutPoint *) (const void *) again->points->data;
  const FakeText *name = work->label;

  assert_well_formed (layout, process);
  /* the loop does not drag its target right of the gateway: it is drawn
   * against the layering, leaving the gateway's top and entering the task's */
  g_assert_cmpint (work->layer, <, check->layer);
  g_assert_true (again->back);
  g_assert_false (out->back);
  g_assert_cmpuint (again->points->len, >=, 4);
  g_assert_cmpfloat_with_epsilon (pts[0].y, check->box.y, EPSILON);
  g_assert_cmpfloat_with_epsilon (pts[again->points->len - 1].y, work->box.y, EPSILON);
  for (guint k = 1; k + 1 < again->points->len; k++)
    g_assert_cmpfloat (pts[k].y, <, work->box.y);
  /* a long name wraps inside the task, on at most three lines */
  g_assert_cmpfloat (name->max_width, <, work->box.width);
  g_assert_cmpint (name->max_lines, ==, 3);
  g_assert_cmpfloat (work->label_rect.width, <=, name->max_width);
  g_assert_cmpfloat (work->label_rect.height, ==, 3 * 16.0);
  g_assert_cmpfloat (work->label_rect.y, >=, work->box.y);
  g_assert_cmpfloat (work->label_rect.y + work->label_rect.height, <=, work->box.y + work->box.height);
}

/* A model of tests/data/bpmn/winnow, loaded. */
static WnProcess *
load_bpmn (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "bpmn", "winnow", name, NULL);
  g_autoptr(GError) error = NULL;
  WnProcess *process = wn_load_process_file (path, NULL, &error);

  g_assert_no_error (error);
  return process;
}

/* A BPMN model with a diagram is drawn as its author drew it: the shapes'
 * places (shifted together to the margin) and the edges' waypoints. */
static void
test_bpmn_diagram (void)
{
  g_autoptr(WnProcess) process = load_bpmn ("payment-c7.bpmn");
  FakeTexts texts = { 0 };
  g_autoptr(WinnowLayout) layout = NULL;
  const WinnowLayoutNode *start, *charge, *notify;
  const WinnowLayoutFlow *big;
  const WinnowLayoutPoint *pts;
  double dx, dy;

  layout = lay_out (process, &texts);
  start = node_of (layout, process, "StartEvent_1");
  charge = node_of (layout, process, "charge");
  notify = node_of (layout, process, "notify");
  /* StartEvent_1 is drawn at (152, 102) 36×36, charge at (240, 80) 100×80,
   * notify at (500, 200) 100×80 */
  dx = charge->cx - 290;
  dy = charge->cy - 120;
  g_assert_cmpfloat_with_epsilon (start->cx - dx, 170, EPSILON);
  g_assert_cmpfloat_with_epsilon (start->cy - dy, 120, EPSILON);
  g_assert_cmpfloat_with_epsilon (notify->cx - dx, 550, EPSILON);
  g_assert_cmpfloat_with_epsilon (notify->cy - dy, 240, EPSILON);
  g_assert_cmpfloat_with_epsilon (charge->box.width, 100, EPSILON);
  g_assert_cmpfloat_with_epsilon (charge->box.height, 80, EPSILON);
  big = &layout->flows[wn_process_find_flow (process, "Flow_big")->index];
  g_assert_cmpuint (big->points->len, ==, 3);
  pts = (const WinnowLayoutPoint *) (const void *) big->points->data;
  g_assert_cmpfloat_with_epsilon (pts[1].x - dx, 420, EPSILON);
  g_assert_cmpfloat_with_epsilon (pts[1].y - dy, 240, EPSILON);
  g_assert_cmpfloat_with_epsilon (pts[2].x - dx, 500, EPSILON);
}

/* A BPMN model's sub-processes as its author left them: an open one a
 * container around its content (as drawn), a closed one a marked box whose
 * content is not drawn (its tokens count on the box), an open event
 * sub-process a container. */
static void
test_bpmn_subprocesses (void)
{
  g_autoptr(WnProcess) process = load_bpmn ("subprocesses-c7.bpmn");
  FakeTexts texts = { 0 };
  g_autoptr(WinnowLayout) layout = lay_out (process, &texts);
  const WinnowLayoutNode *pay = node_of (layout, process, "pay");
  const WinnowLayoutNode *ship = node_of (layout, process, "ship");
  const WinnowLayoutNode *audit = node_of (layout, process, "audit");
  const WinnowLayoutNode *charge = node_of (layout, process, "charge");
  const char *closed[] = { "ship-start", "book", "booked" };
  guint n;

  g_assert_true (pay->container);
  g_assert_true (audit->container);
  g_assert_false (ship->container);
  g_assert_false (pay->hidden || ship->hidden || charge->hidden);
  /* pay at (240, 100) 400×160, charge at (380, 140): as drawn, inside it */
  g_assert_cmpfloat_with_epsilon (pay->box.width, 400, EPSILON);
  g_assert_cmpfloat_with_epsilon (charge->box.x - pay->box.x, 140, EPSILON);
  assert_within (&pay->box, &charge->box, 8);
  assert_within (&audit->box, &node_of (layout, process, "note")->box, 8);
  assert_within (&pay->box, &pay->label_rect, 4);
  g_assert_cmpfloat (pay->label_rect.y + pay->label_rect.height, <=, charge->box.y);
  /* a closed one's name in its box, as a task's */
  g_assert_cmpfloat (ship->label_rect.y, >, ship->box.y + 8);
  for (guint i = 0; i < G_N_ELEMENTS (closed); i++)
    {
      const WinnowLayoutNode *c = node_of (layout, process, closed[i]);

      g_assert_true (c->hidden);
      g_assert_null (c->label);
      g_assert_cmpuint (winnow_layout_shown_as (layout, process, wn_process_find_node (process, closed[i])->index), ==,
                        wn_process_find_node (process, "ship")->index);
    }
  g_assert_cmpuint (winnow_layout_shown_as (layout, process, wn_process_find_node (process, "charge")->index), ==,
                    wn_process_find_node (process, "charge")->index);
  g_assert_cmpuint (layout->flows[wn_process_find_flow (process, "s1")->index].points->len, ==, 0);
  flow_points (layout, process, "p1", &n);
  /* the hidden content (no shape read: at 0, 0) does not widen the drawing:
   * it spans the main plane's shapes (x 152…898), their labels, the margins */
  g_assert_cmpfloat (layout->width, <=, 898 - 152 + 2 * 32 + 60);
}

static gboolean
rects_meet (const WinnowLayoutRect *a,
            const WinnowLayoutRect *b)
{
  return a->x < b->x + b->width && b->x < a->x + a->width && a->y < b->y + b->height && b->y < a->y + a->height;
}

/* The texts of a BPMN diagram stay clear of each other: a task's topic within
 * its drawn box, a gateway's name below it (the bundled model's topic ran
 * into the gateway's name before). */
static void
test_bpmn_labels_clear (void)
{
  g_autoptr(WnProcess) process = load_bpmn ("payment-c7.bpmn");
  FakeTexts texts = { 0 };
  g_autoptr(WinnowLayout) layout = NULL;
  g_autoptr(GArray) rects = g_array_new (FALSE, FALSE, sizeof (WinnowLayoutRect));
  const WinnowLayoutNode *charge, *big;

  layout = lay_out (process, &texts);
  charge = node_of (layout, process, "charge");
  big = node_of (layout, process, "big");
  g_assert_cmpfloat (charge->topic_rect.x + charge->topic_rect.width, <=, charge->box.x + charge->box.width);
  g_assert_cmpfloat (big->label_rect.y, >=, big->box.y + big->box.height);
  g_assert_cmpfloat_with_epsilon (big->label_rect.x + big->label_rect.width / 2, big->cx, EPSILON);
  for (guint i = 0; i < layout->n_nodes; i++)
    {
      if (layout->nodes[i].label != NULL)
        g_array_append_val (rects, layout->nodes[i].label_rect);
      if (layout->nodes[i].topic != NULL)
        g_array_append_val (rects, layout->nodes[i].topic_rect);
    }
  for (guint a = 0; a < rects->len; a++)
    for (guint b = a + 1; b < rects->len; b++)
      g_assert_false (rects_meet (&g_array_index (rects, WinnowLayoutRect, a), &g_array_index (rects, WinnowLayoutRect, b)));
  g_assert_cmpuint (layout->n_frames, ==, 0);
}

/* A pool with lanes: frames where the modeller drew them, named; BPMNLabel
 * bounds place the names of events, gateways and flows. */
static void
test_bpmn_pools_and_labels (void)
{
  g_autoptr(WnProcess) process = load_bpmn ("lanes-c7.bpmn");
  FakeTexts texts = { 0 };
  g_autoptr(WinnowLayout) layout = NULL;
  const WinnowLayoutNode *charge, *big;
  const WinnowLayoutFlow *flow;
  const WinnowLayoutFrame *pool, *finance;
  double dx, dy;

  g_assert_cmpuint (process->diagram->n_frames, ==, 3);
  g_assert_cmpstr (process->diagram->frames[0].name, ==, "Payments");
  g_assert_false (process->diagram->frames[0].lane);
  g_assert_true (process->diagram->frames[2].lane);
  layout = lay_out (process, &texts);
  charge = node_of (layout, process, "charge");
  dx = charge->box.x - 290;
  dy = charge->box.y - 110;
  g_assert_cmpuint (layout->n_frames, ==, 3);
  pool = &layout->frames[0];
  g_assert_false (pool->lane);
  g_assert_cmpfloat_with_epsilon (pool->box.x - dx, 130, EPSILON);
  g_assert_cmpfloat_with_epsilon (pool->box.y - dy, 60, EPSILON);
  g_assert_cmpfloat_with_epsilon (pool->box.width, 700, EPSILON);
  g_assert_cmpfloat_with_epsilon (pool->band.width, 30, EPSILON);
  g_assert_cmpfloat_with_epsilon (pool->band.height, 360, EPSILON);
  g_assert_cmpstr (((FakeText *) pool->label)->text, ==, "Payments");
  finance = &layout->frames[2];
  g_assert_true (finance->lane);
  g_assert_cmpfloat_with_epsilon (finance->box.y - dy, 240, EPSILON);
  g_assert_cmpstr (((FakeText *) finance->label)->text, ==, "Finance");
  /* the pool is the diagram's extent: at the margin */
  g_assert_cmpfloat_with_epsilon (pool->box.x, 32, EPSILON);
  /* "Large amount?" centred on its label bounds (434, 95) 72×14, above the gateway */
  big = node_of (layout, process, "big");
  g_assert_cmpfloat_with_epsilon (big->label_rect.x + big->label_rect.width / 2 - dx, 470, EPSILON);
  g_assert_cmpfloat_with_epsilon (big->label_rect.y + big->label_rect.height / 2 - dy, 102, EPSILON);
  g_assert_cmpfloat (big->label_rect.y + big->label_rect.height, <=, big->box.y);
  /* the condition at its label bounds (478, 300) */
  flow = &layout->flows[wn_process_find_flow (process, "Flow_big")->index];
  g_assert_cmpfloat_with_epsilon (flow->label_rect.x - dx, 478, EPSILON);
  g_assert_cmpfloat_with_epsilon (flow->label_rect.y + flow->label_rect.height / 2 - dy, 307, EPSILON);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/Layout/bpmn-diagram", test_bpmn_diagram);
  g_test_add_func ("/app/Layout/bpmn-labels-clear", test_bpmn_labels_clear);
  g_test_add_func ("/app/Layout/bpmn-pools-and-labels", test_bpmn_pools_and_labels);
  g_test_add_func ("/app/Layout/examples", test_examples);
  g_test_add_func ("/app/Layout/order-fulfilment", test_order);
  g_test_add_func ("/app/Layout/loop", test_loop);
  g_test_add_func ("/app/Layout/containers", test_containers);
  g_test_add_func ("/app/Layout/event-subprocesses", test_event_subprocesses);
  g_test_add_func ("/app/Layout/bpmn-subprocesses", test_bpmn_subprocesses);
  g_test_add_func ("/app/Layout/random-containers", test_random_containers);
  return g_test_run ();
}
