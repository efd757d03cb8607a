/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-layout.c — the process diagram's layout: a small Sugiyama pipeline.
 *
 * Break cycles with a DFS from the start event, layer by longest path, insert
 * dummy nodes on long flows, order each layer with barycenter sweeps (keeping
 * the order with the fewest crossings), put nodes on a grid of rows
 * (graph_build); then measure the texts, size the columns to them, place the
 * shapes, route the flows orthogonally and move everything inside the margin
 * (winnow_layout_new). Boundary events are not layered: they sit on the
 * bottom border of their host, and their flows leave from there.
 *
 * Each scope is laid out on its own, innermost first (lay_out_scope): a
 * sub-process becomes a container as large as its laid-out content, a node
 * of its parent's graph that may span several rows, and its content moves
 * into it once the parent has placed it. Event sub-processes are not on the
 * flow: they line up below their scope's content. A scope's pass touches its
 * own members only (Work), so the layout stays linear in the process's size
 * however many scopes it has.
 *
 * Geometry is single precision where the shapes, points and rectangles are
 * kept (as graphene keeps them), with the same operations graphene's would
 * do, so that the drawing gets what it always got.
 *
 * Past 1,500 lines because it is one concept, a layout, in two sources of
 * geometry that share every placement helper: the automatic pipeline above
 * (now once per scope, with the containers it makes) and a BPMN model's own
 * diagram (BPMNDI shapes, waypoints, label bounds, its pools and lanes as
 * frames, its sub-processes open or closed).
 */
#include "config.h"

#include "winnow-layout.h"

#include <math.h>

#define MARGIN          32.0
#define TASK_W         140.0
#define TASK_H          80.0
#define TASK_HEADER     24.0
#define EVENT_R        WINNOW_LAYOUT_EVENT_RADIUS
#define GATEWAY_R      WINNOW_LAYOUT_GATEWAY_RADIUS
#define BOUNDARY_R      13.0
#define BOUNDARY_INSET  28.0
#define BOUNDARY_STEP   40.0
#define ROW_PITCH      136.0
#define COL_GAP         64.0
#define COL_GAP_MAX    230.0
#define LABEL_MAX_W    132.0
#define FLOW_LABEL_MAX 200.0
#define ESCAPE          24.0
#define LANE_ABOVE      18.0
#define LANE_BELOW      32.0
#define LANE_STEP        6.0
#define ARROW_LEN      WINNOW_LAYOUT_ARROW_LENGTH
#define CONTAINER_PAD   16.0    /* a container's content from its left, right and bottom edges */
#define CONTAINER_TOP   30.0    /* …and from its top edge, under its name */
#define EVENT_SUB_GAP   28.0    /* event sub-processes below their scope's content, and apart */
#define ROW_CLEAR       24.0    /* a container's edge from the next shape in its column */
#define N_SWEEPS         4
#define MAX_ROW_PASSES  12

/* ---- model helpers ---- */

/* The boundary's position among its host's boundaries (0 = rightmost). */
static int
boundary_rank (const WnProcess *process, const WnNode *boundary)
{
  const WnNode *host = &process->nodes[boundary->attached_to];

  for (guint i = 0; i < host->boundaries->len; i++)
    if (g_array_index (host->boundaries, guint, i) == boundary->index)
      return (int) i;
  return 0;
}

/* How far left of its host's right edge a boundary sits. */
static double
boundary_offset (const WnProcess *process, const WnNode *boundary)
{
  guint count = process->nodes[boundary->attached_to].boundaries->len;
  double step = count > 1 ? MIN (BOUNDARY_STEP, (TASK_W - 2 * BOUNDARY_INSET) / (count - 1)) : 0;

  return BOUNDARY_INSET + step * boundary_rank (process, boundary);
}

/* ---- texts, through the caller's functions ---- */

static gpointer
text_new (WinnowLayout *self,
          const char   *text,
          gboolean      small)
{
  return self->funcs->text_new (text, small, self->user_data);
}

static void
text_fit (WinnowLayout          *self,
          gpointer               text,
          double                 max_width,
          int                    max_lines,
          WinnowLayoutAlign      align,
          WinnowLayoutEllipsize  ellipsize)
{
  self->funcs->text_fit (text, max_width, max_lines, align, ellipsize, self->user_data);
}

static void
text_size (WinnowLayout *self,
           gpointer      text,
           double       *width,
           double       *height)
{
  self->funcs->text_size (text, width, height, self->user_data);
}

static void
text_clear (WinnowLayout *self,
            gpointer     *text)
{
  if (*text == NULL)
    return;
  self->funcs->text_free (*text);
  *text = NULL;
}

/* A text made and fitted at once. */
static gpointer
text_new_fitted (WinnowLayout          *self,
                 const char            *text,
                 gboolean               small,
                 double                 max_width,
                 int                    max_lines,
                 WinnowLayoutAlign      align,
                 WinnowLayoutEllipsize  ellipsize)
{
  gpointer made = text_new (self, text, small);

  text_fit (self, made, max_width, max_lines, align, ellipsize);
  return made;
}

/* ---- rectangles, as graphene's operations compute them ---- */

static WinnowLayoutRect
rect_init (double x, double y, double width, double height)
{
  WinnowLayoutRect r = { x, y, width, height };

  return r;
}

static void
rect_offset (WinnowLayoutRect *r, float dx, float dy)
{
  r->x += dx;
  r->y += dy;
}

/* `acc` grown to hold `r` (graphene_rect_union () on normalized rectangles). */
static void
rect_union (WinnowLayoutRect *acc, gboolean *any, const WinnowLayoutRect *r)
{
  float x, y;

  if (r->width <= 0 && r->height <= 0)
    return;
  if (!*any)
    {
      *acc = *r;
      *any = TRUE;
      return;
    }
  x = MIN (acc->x, r->x);
  y = MIN (acc->y, r->y);
  acc->width = MAX (acc->x + acc->width, r->x + r->width) - x;
  acc->height = MAX (acc->y + acc->height, r->y + r->height) - y;
  acc->x = x;
  acc->y = y;
}

/* ---- the layered graph ---- */

typedef struct {
  int    node;           /* process node index; -1 for a dummy */
  int    flow;           /* dummy: the flow it carries */
  int    layer;
  int    pos;            /* index within its layer */
  int    row;
  int    min_row;
  double key;
  GArray *in;            /* int: LEdge indices */
  GArray *out;
} LNode;

typedef struct {
  int from;
  int to;
  int flow;
  int rank;              /* first segment of a boundary's flow: its rank on the host; else -1 */
} LEdge;

/* Per node, how far it reaches from its row's line: a container as far as
 * its content made it, anything else as its shape's type says. */
typedef struct {
  double *half_w;
  double *up;
  double *down;
} Extents;

/* What the passes over the scopes share, made once per process: each
 * scope's members, and arrays by node or flow that a scope's pass uses for
 * its own members only and leaves as it found them, so that a scope costs
 * what it holds and not what the process holds (2 000 sub-processes of 5
 * nodes took 2 s, each pass clearing arrays for all 10 000). */
typedef struct {
  Extents           ext;
  GArray          **scope_nodes;  /* per scope + 1 (0: the process): guint node indices, document order */
  GArray          **scope_flows;  /* per scope + 1: guint flow indices whose source is in it */
  WinnowLayoutRect *content;      /* per container: what its content covers, in its own coordinates */
  /* by node: -1 (node_lnode) or zero between passes */
  int              *node_lnode;
  guint8           *state;
  guint            *next;
  GArray          **outs;
  int              *layer;
  int              *stack;
  gboolean         *top_used;
  gboolean         *bottom_used;
  /* by flow: zero between passes */
  gboolean         *back;
  gboolean         *flow_in;
  GArray          **chains;
  GArray          **bend_ids;
} Work;

typedef struct {
  const WnProcess *process;
  const Extents   *ext;
  Work            *work;
  GArray          *nodes;       /* guint: the scope's members (Work.scope_nodes) */
  GArray          *flows;       /* guint: its flows */
  int              scope;       /* the sub-process laid out (its index); -1: the process */
  gboolean        *flow_in;     /* per flow: one of this scope's */
  GArray          *lnodes;      /* LNode */
  GArray          *ledges;      /* LEdge */
  GPtrArray       *layers;      /* GArray of int: LNode indices in order */
  int             *node_lnode;  /* process node → LNode, -1 outside the graph (boundaries too) */
  gboolean        *back;        /* per flow: reversed or ignored for layering */
  GArray         **chains;      /* per flow: LNode indices from source to target, or NULL */
  /* (the three above and flow_in are the Work's) */
  int              n_layers;
} Graph;

#define LN(g, i) (&g_array_index ((g)->lnodes, LNode, (i)))
#define LE(g, i) (&g_array_index ((g)->ledges, LEdge, (i)))

static void
graph_free (Graph *g)
{
  for (guint i = 0; i < g->lnodes->len; i++)
    {
      g_array_unref (LN (g, i)->in);
      g_array_unref (LN (g, i)->out);
    }
  g_array_unref (g->lnodes);
  g_array_unref (g->ledges);
  g_ptr_array_unref (g->layers);
  for (guint k = 0; k < g->flows->len; k++)
    {
      guint f = g_array_index (g->flows, guint, k);

      g_clear_pointer (&g->chains[f], g_array_unref);
      g->back[f] = FALSE;
      g->flow_in[f] = FALSE;
    }
  for (guint k = 0; k < g->nodes->len; k++)
    g->node_lnode[g_array_index (g->nodes, guint, k)] = -1;
}

static int
flow_source (const WnProcess *process, const WnFlow *flow)
{
  const WnNode *from = &process->nodes[flow->from];

  return winnow_layout_is_attached (process, from) ? from->attached_to : (int) flow->from;
}

static gboolean
is_event_sub (const WnNode *node)
{
  return node->type == WN_NODE_SUBPROCESS && node->triggered_by_event;
}

/* Is the node one of the graph's: in its scope, on the flow (not an event
 * sub-process), not a boundary? */
static gboolean
in_graph (const Graph *g, guint i)
{
  const WnNode *node = &g->process->nodes[i];

  return node->scope == g->scope && !winnow_layout_is_attached (g->process, node) && !is_event_sub (node);
}

/* Rows a layered node takes below its own (a tall container), and above. */
static int
rows_below (const Graph *g, const LNode *ln)
{
  double down = ln->node >= 0 ? g->ext->down[ln->node] : 0;

  return MAX (0, (int) ceil ((down + ROW_CLEAR + TASK_H / 2) / ROW_PITCH) - 1);
}

static int
rows_above (const Graph *g, const LNode *ln)
{
  double up = ln->node >= 0 ? g->ext->up[ln->node] : 0;
  double room = ROW_PITCH - TASK_H / 2 - ROW_CLEAR;

  return up > room ? (int) ceil ((up - room) / ROW_PITCH) : 0;
}

static double
edge_bias (const LEdge *e)
{
  return e->rank >= 0 ? 0.5 + 0.1 * e->rank : 0.0;
}

/* Flows leaving a node for layering: its own, then its boundaries'. */
static GArray *
effective_outgoing (const WnProcess *process, const WnNode *node)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint));

  g_array_append_vals (out, node->outgoing->data, node->outgoing->len);
  for (guint i = 0; i < node->boundaries->len; i++)
    {
      const WnNode *b = &process->nodes[g_array_index (node->boundaries, guint, i)];

      g_array_append_vals (out, b->outgoing->data, b->outgoing->len);
    }
  return out;
}

static int
add_lnode (Graph *g, int node, int flow, int layer)
{
  LNode ln = { 0 };

  ln.node = node;
  ln.flow = flow;
  ln.layer = layer;
  ln.in = g_array_new (FALSE, FALSE, sizeof (int));
  ln.out = g_array_new (FALSE, FALSE, sizeof (int));
  g_array_append_val (g->lnodes, ln);
  return (int) g->lnodes->len - 1;
}

static void
add_ledge (Graph *g, int from, int to, int flow, int rank)
{
  LEdge e = { from, to, flow, rank };
  int index;

  g_array_append_val (g->ledges, e);
  index = (int) g->ledges->len - 1;
  g_array_append_val (LN (g, from)->out, index);
  g_array_append_val (LN (g, to)->in, index);
}

static int
compare_key (gconstpointer a, gconstpointer b, gpointer data)
{
  Graph *g = data;
  const LNode *x = LN (g, *(const int *) a);
  const LNode *y = LN (g, *(const int *) b);

  if (x->key < y->key)
    return -1;
  if (x->key > y->key)
    return 1;
  return x->pos - y->pos;
}

static void
renumber_layer (Graph *g, GArray *layer)
{
  for (guint i = 0; i < layer->len; i++)
    LN (g, g_array_index (layer, int, i))->pos = (int) i;
}

/* DFS from the start event (then from anything left, in document order):
 * marks back edges, then longest-path layering over the rest, into the
 * Work's layer (by node; the caller clears it). */
static int *
graph_layering (Graph *g)
{
  const WnProcess *p = g->process;
  guint8 *state = g->work->state;
  int *stack = g->work->stack;
  guint *next = g->work->next;
  g_autoptr(GArray) post = g_array_new (FALSE, FALSE, sizeof (int));
  GArray **outs = g->work->outs;
  int *layer = g->work->layer;
  int start = g->scope < 0 ? (int) p->start : p->nodes[g->scope].inner_start;

  for (guint k = 0; k < g->nodes->len; k++)
    {
      guint i = g_array_index (g->nodes, guint, k);

      if (in_graph (g, i))
        outs[i] = effective_outgoing (p, &p->nodes[i]);
    }

  for (guint k = 0; k <= g->nodes->len; k++)
    {
      int root = k == 0 ? start : (int) g_array_index (g->nodes, guint, k - 1);
      int depth = 0;

      if (root < 0 || (guint) root >= p->n_nodes || outs[root] == NULL || state[root] != 0)
        continue;
      state[root] = 1;
      stack[depth++] = root;
      while (depth > 0)
        {
          int v = stack[depth - 1];

          if (next[v] < outs[v]->len)
            {
              guint f = g_array_index (outs[v], guint, next[v]++);
              int w = (int) p->flows[f].to;

              if (outs[w] == NULL || state[w] == 1)
                g->back[f] = TRUE;      /* a cycle (or a flow into a boundary) */
              else if (state[w] == 0)
                {
                  state[w] = 1;
                  stack[depth++] = w;
                }
            }
          else
            {
              state[v] = 2;
              g_array_append_val (post, v);
              depth--;
            }
        }
    }

  for (guint k = post->len; k > 0; k--)
    {
      int v = g_array_index (post, int, k - 1);

      for (guint i = 0; i < outs[v]->len; i++)
        {
          guint f = g_array_index (outs[v], guint, i);

          if (!g->back[f])
            layer[p->flows[f].to] = MAX (layer[p->flows[f].to], layer[v] + 1);
        }
    }

  for (guint k = 0; k < g->nodes->len; k++)
    {
      guint i = g_array_index (g->nodes, guint, k);

      g_clear_pointer (&outs[i], g_array_unref);
      state[i] = 0;
      next[i] = 0;
    }
  return layer;
}

static guint
count_crossings (Graph *g)
{
  g_autoptr(GArray) edges = g_array_new (FALSE, FALSE, sizeof (int));
  guint crossings = 0;

  for (int l = 0; l + 1 < g->n_layers; l++)
    {
      GArray *layer = g_ptr_array_index (g->layers, l);

      g_array_set_size (edges, 0);
      for (guint i = 0; i < layer->len; i++)
        {
          const LNode *ln = LN (g, g_array_index (layer, int, i));

          g_array_append_vals (edges, ln->out->data, ln->out->len);
        }
      for (guint i = 0; i < edges->len; i++)
        for (guint j = i + 1; j < edges->len; j++)
          {
            const LEdge *a = LE (g, g_array_index (edges, int, i));
            const LEdge *b = LE (g, g_array_index (edges, int, j));
            double du = (LN (g, a->from)->pos + edge_bias (a)) - (LN (g, b->from)->pos + edge_bias (b));
            double dv = LN (g, a->to)->pos - LN (g, b->to)->pos;

            if (du * dv < 0)
              crossings++;
          }
    }
  return crossings;
}

static void
sweep_layer (Graph *g, int l, gboolean down)
{
  GArray *layer = g_ptr_array_index (g->layers, l);

  for (guint i = 0; i < layer->len; i++)
    {
      LNode *ln = LN (g, g_array_index (layer, int, i));
      GArray *edges = down ? ln->in : ln->out;
      double sum = 0;

      for (guint k = 0; k < edges->len; k++)
        {
          const LEdge *e = LE (g, g_array_index (edges, int, k));

          if (down)
            sum += LN (g, e->from)->pos + edge_bias (e);
          else
            sum += LN (g, e->to)->pos - edge_bias (e);
        }
      ln->key = edges->len > 0 ? sum / edges->len : ln->pos;
    }
  g_array_sort_with_data (layer, compare_key, g);
  renumber_layer (g, layer);
}

static void
graph_order (Graph *g)
{
  g_autofree int *best = g_new (int, g->lnodes->len);
  guint best_crossings;

  for (int l = 0; l < g->n_layers; l++)
    {
      GArray *layer = g_ptr_array_index (g->layers, l);

      g_array_sort_with_data (layer, compare_key, g);
      renumber_layer (g, layer);
    }

  for (guint i = 0; i < g->lnodes->len; i++)
    best[i] = LN (g, i)->pos;
  best_crossings = count_crossings (g);

  for (int sweep = 0; sweep < N_SWEEPS && best_crossings > 0; sweep++)
    {
      guint crossings;

      if (sweep % 2 == 0)
        for (int l = 1; l < g->n_layers; l++)
          sweep_layer (g, l, TRUE);
      else
        for (int l = g->n_layers - 2; l >= 0; l--)
          sweep_layer (g, l, FALSE);

      crossings = count_crossings (g);
      if (crossings < best_crossings)
        {
          best_crossings = crossings;
          for (guint i = 0; i < g->lnodes->len; i++)
            best[i] = LN (g, i)->pos;
        }
    }

  for (guint i = 0; i < g->lnodes->len; i++)
    {
      LN (g, i)->pos = best[i];
      LN (g, i)->key = best[i];
    }
  for (int l = 0; l < g->n_layers; l++)
    {
      GArray *layer = g_ptr_array_index (g->layers, l);

      g_array_sort_with_data (layer, compare_key, g);
    }
}

static int
compare_int (gconstpointer a, gconstpointer b)
{
  return *(const int *) a - *(const int *) b;
}

static gboolean
lnode_leaves_vertically (Graph *g, const LEdge *e)
{
  const LNode *from = LN (g, e->from);

  if (e->rank >= 0)
    return TRUE;
  return from->node >= 0 && winnow_layout_is_gateway (g->process->nodes[from->node].type);
}

/* Rows: each node as high as its order allows, aligned with the (lower) median
 * of its predecessors. A gateway or boundary leaving downwards owns the column
 * below it down to the target's row: whatever is there moves further down. */
static void
graph_rows (Graph *g)
{
  g_autoptr(GArray) wanted = g_array_new (FALSE, FALSE, sizeof (int));

  for (int pass = 0; pass < MAX_ROW_PASSES; pass++)
    {
      gboolean changed = FALSE;

      for (int l = 0; l < g->n_layers; l++)
        {
          GArray *layer = g_ptr_array_index (g->layers, l);
          int prev = -1;

          for (guint i = 0; i < layer->len; i++)
            {
              LNode *ln = LN (g, g_array_index (layer, int, i));
              int desired = 0;

              g_array_set_size (wanted, 0);
              for (guint k = 0; k < ln->in->len; k++)
                {
                  const LEdge *e = LE (g, g_array_index (ln->in, int, k));
                  const LNode *from = LN (g, e->from);
              int row = from->row + (e->rank >= 0 ? 1 + rows_below (g, from) + e->rank : 0);

                  g_array_append_val (wanted, row);
                }
              if (wanted->len > 0)
                {
                  g_array_sort (wanted, compare_int);
                  desired = g_array_index (wanted, int, (wanted->len - 1) / 2);
                }
              ln->row = MAX (MAX (desired, prev + 1 + rows_above (g, ln)), ln->min_row);
              prev = ln->row + rows_below (g, ln);
            }
        }

      for (guint i = 0; i < g->ledges->len; i++)
        {
          const LEdge *e = LE (g, i);
          const LNode *from = LN (g, e->from);
          const LNode *to = LN (g, e->to);
          GArray *layer;

          if (!lnode_leaves_vertically (g, e) || to->row <= from->row)
            continue;
          layer = g_ptr_array_index (g->layers, from->layer);
          for (guint k = (guint) from->pos + 1; k < layer->len; k++)
            {
              LNode *x = LN (g, g_array_index (layer, int, k));

              if (x->row <= to->row && x->min_row < to->row + 1)
                {
                  x->min_row = to->row + 1;
                  changed = TRUE;
                }
            }
        }
      if (!changed)
        break;
    }
}

static void
graph_build (Graph *g, const WnProcess *p, Work *work, int scope)
{
  int *layer;

  g->process = p;
  g->ext = &work->ext;
  g->work = work;
  g->nodes = work->scope_nodes[scope + 1];
  g->flows = work->scope_flows[scope + 1];
  g->scope = scope;
  g->flow_in = work->flow_in;
  g->lnodes = g_array_new (FALSE, TRUE, sizeof (LNode));
  g->ledges = g_array_new (FALSE, TRUE, sizeof (LEdge));
  g->layers = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g->node_lnode = work->node_lnode;
  g->back = work->back;
  g->chains = work->chains;
  g->n_layers = 0;

  layer = graph_layering (g);

  for (guint k = 0; k < g->nodes->len; k++)
    {
      guint i = g_array_index (g->nodes, guint, k);

      if (!in_graph (g, i))
        continue;
      g->node_lnode[i] = add_lnode (g, (int) i, -1, layer[i]);
      g->n_layers = MAX (g->n_layers, layer[i] + 1);
    }
  for (guint k = 0; k < g->nodes->len; k++)
    layer[g_array_index (g->nodes, guint, k)] = 0;

  for (guint k = 0; k < g->flows->len; k++)
    {
      guint f = g_array_index (g->flows, guint, k);
      const WnFlow *flow = &p->flows[f];
      const WnNode *from = &p->nodes[flow->from];
      int s, t, prev;
      int rank;

      g->flow_in[f] = in_graph (g, (guint) flow_source (p, flow));
      if (g->back[f] || !g->flow_in[f])
        continue;
      s = g->node_lnode[flow_source (p, flow)];
      t = g->node_lnode[flow->to];
      if (s < 0 || t < 0)
        {
          g->back[f] = TRUE;
          continue;
        }
      rank = winnow_layout_is_attached (p, from) ? boundary_rank (p, from) : -1;
      g->chains[f] = g_array_new (FALSE, FALSE, sizeof (int));
      g_array_append_val (g->chains[f], s);
      prev = s;
      for (int l = LN (g, s)->layer + 1; l < LN (g, t)->layer; l++)
        {
          int d = add_lnode (g, -1, (int) f, l);

          add_ledge (g, prev, d, (int) f, prev == s ? rank : -1);
          g_array_append_val (g->chains[f], d);
          prev = d;
        }
      add_ledge (g, prev, t, (int) f, prev == s ? rank : -1);
      g_array_append_val (g->chains[f], t);
    }

  for (int l = 0; l < g->n_layers; l++)
    g_ptr_array_add (g->layers, g_array_new (FALSE, FALSE, sizeof (int)));
  for (guint i = 0; i < g->lnodes->len; i++)
    {
      LNode *ln = LN (g, i);
      int index = (int) i;

      ln->key = ln->node >= 0 ? ln->node : (double) p->n_nodes + ln->flow;
      ln->pos = 0;
      g_array_append_val (g_ptr_array_index (g->layers, ln->layer), index);
    }

  graph_order (g);
  graph_rows (g);
}


/* ---- geometry and routing ---- */

typedef struct {
  int    gap;           /* between layer gap and gap + 1 */
  double y0;
  double y1;
  int    flow;
  gboolean split;
  double x;
} Bend;

typedef struct {
  Graph            *g;
  WinnowLayoutNode *nodes;
  WinnowLayoutFlow *flows;
  double           *col_left;    /* per layer: its column's extent and centre */
  double           *col_cx;
  double           *col_right;
  GArray           *bends;       /* Bend */
  GArray          **bend_ids;    /* per flow: int per point, -1 or a Bend index */
  gboolean         *top_used;    /* per node: a flow uses the top of the shape */
  gboolean         *bottom_used;
  int              *lanes_above; /* per row: back-flow lanes in the gap above it */
  int              *lanes_below;
  int              *lanes_gap;   /* per layer: back-flow channels in the gap right of it */
  double           *row_top;     /* per row: the highest top and lowest bottom of its shapes */
  double           *row_bottom;
} Router;

static void
router_clear (Router *r)
{
  /* the Work's arrays, as they were */
  for (guint k = 0; r->g != NULL && k < r->g->flows->len; k++)
    g_clear_pointer (&r->bend_ids[g_array_index (r->g->flows, guint, k)], g_array_unref);
  for (guint k = 0; r->g != NULL && k < r->g->nodes->len; k++)
    {
      guint i = g_array_index (r->g->nodes, guint, k);

      r->top_used[i] = FALSE;
      r->bottom_used[i] = FALSE;
    }
  g_clear_pointer (&r->bends, g_array_unref);
  g_clear_pointer (&r->col_left, g_free);
  g_clear_pointer (&r->col_cx, g_free);
  g_clear_pointer (&r->col_right, g_free);
  g_clear_pointer (&r->lanes_above, g_free);
  g_clear_pointer (&r->lanes_below, g_free);
  g_clear_pointer (&r->lanes_gap, g_free);
  g_clear_pointer (&r->row_top, g_free);
  g_clear_pointer (&r->row_bottom, g_free);
}

static double
row_y (int row)
{
  return row * ROW_PITCH;
}

static void
shape_half (const WnNode *node, double *hw, double *hh)
{
  if (winnow_layout_is_task (node->type))
    {
      *hw = TASK_W / 2;
      *hh = TASK_H / 2;
    }
  else if (winnow_layout_is_gateway (node->type))
    *hw = *hh = GATEWAY_R;
  else if (node->type == WN_NODE_BOUNDARY)
    *hw = *hh = BOUNDARY_R;
  else
    *hw = *hh = EVENT_R;
}

static void
add_point (Router *r, int flow, double x, double y, int bend)
{
  WinnowLayoutPoint pt = { x, y };
  GArray *points = r->flows[flow].points;

  if (points->len > 0)
    {
      const WinnowLayoutPoint *last = &g_array_index (points, WinnowLayoutPoint, points->len - 1);
      int last_bend = g_array_index (r->bend_ids[flow], int, points->len - 1);

      if (bend < 0 && last_bend < 0 && fabs (last->x - x) < 0.01 && fabs (last->y - y) < 0.01)
        return;
    }
  g_array_append_val (points, pt);
  g_array_append_val (r->bend_ids[flow], bend);
}

static void
add_bend (Router *r, int flow, int gap, double y0, double y1)
{
  Bend b = { gap, y0, y1, flow, FALSE, 0 };
  int index;

  g_array_append_val (r->bends, b);
  index = (int) r->bends->len - 1;
  add_point (r, flow, 0, y0, index);
  add_point (r, flow, 0, y1, index);
}

/* Is any node of the layer, other than `except`, in the band between y0 and y1? */
static gboolean
layer_blocked (Router *r, int l, int except, double from_y, double to_y)
{
  GArray *layer = g_ptr_array_index (r->g->layers, l);
  double lo = MIN (from_y, to_y), hi = MAX (from_y, to_y);

  for (guint i = 0; i < layer->len; i++)
    {
      int index = g_array_index (layer, int, i);
      const LNode *ln = LN (r->g, index);
      double y = row_y (ln->row);
      double top = y - TASK_H / 2, bottom = y + TASK_H / 2;

      if (index == except)
        continue;
      if (ln->node >= 0 && r->nodes[ln->node].container)
        {
          top = MIN (top, r->nodes[ln->node].box.y);
          bottom = MAX (bottom, r->nodes[ln->node].box.y + r->nodes[ln->node].box.height);
        }
      if (bottom + 6 > lo && top - 6 < hi)
        return TRUE;
    }
  return FALSE;
}

static void
route_forward (Router *r, int f)
{
  Graph *g = r->g;
  const WnProcess *p = g->process;
  const WnFlow *flow = &p->flows[f];
  const WnNode *from = &p->nodes[flow->from];
  GArray *chain = g->chains[f];
  int s = g_array_index (chain, int, 0);
  const LNode *src = LN (g, s);
  const LNode *first = LN (g, g_array_index (chain, int, 1));
  double cur_x, cur_y;

  if (winnow_layout_is_attached (p, from))
    {
      const WinnowLayoutNode *b = &r->nodes[from->index];
      double bottom = b->box.y + b->box.height;
      double ty = row_y (first->row);

      add_point (r, f, b->cx, bottom, -1);
      cur_x = b->cx;
      if (ty > bottom + 4 && !layer_blocked (r, src->layer, s, bottom, ty))
        cur_y = ty;
      else
        cur_y = bottom + ESCAPE - BOUNDARY_R;
      add_point (r, f, cur_x, cur_y, -1);
    }
  else
    {
      const WinnowLayoutNode *n = &r->nodes[flow->from];
      double ty = row_y (first->row);

      cur_x = n->box.x + n->box.width;
      cur_y = row_y (src->row);   /* the centre, or a container's row line */
      if (winnow_layout_is_gateway (from->type) && first->row != src->row &&
          !layer_blocked (r, src->layer, s, n->cy + (ty > n->cy ? GATEWAY_R : -GATEWAY_R), ty))
        {
          add_point (r, f, n->cx, ty > n->cy ? n->cy + GATEWAY_R : n->cy - GATEWAY_R, -1);
          if (ty > n->cy)
            r->bottom_used[flow->from] = TRUE;
          else
            r->top_used[flow->from] = TRUE;
          cur_x = n->cx;
          cur_y = ty;
        }
      else
        add_point (r, f, cur_x, cur_y, -1);
    }

  for (guint i = 1; i < chain->len; i++)
    {
      int t = g_array_index (chain, int, i);
      const LNode *ln = LN (g, t);
      double ty = row_y (ln->row);
      double entry_x;

      if (ln->node >= 0)
        entry_x = r->nodes[ln->node].box.x;
      else
        entry_x = r->col_left[ln->layer];

      if (fabs (cur_y - ty) < 0.5)
        add_point (r, f, cur_x, cur_y, -1);
      else if (ln->node >= 0 && winnow_layout_is_gateway (p->nodes[ln->node].type) &&
               !layer_blocked (r, ln->layer, t, cur_y, ty))
        {
          const WinnowLayoutNode *n = &r->nodes[ln->node];

          add_point (r, f, cur_x, cur_y, -1);
          add_point (r, f, n->cx, cur_y, -1);
          add_point (r, f, n->cx, cur_y < ty ? ty - GATEWAY_R : ty + GATEWAY_R, -1);
          if (cur_y < ty)
            r->top_used[ln->node] = TRUE;
          else
            r->bottom_used[ln->node] = TRUE;
          continue;
        }
      else
        {
          add_point (r, f, cur_x, cur_y, -1);
          add_bend (r, f, ln->layer - 1, cur_y, ty);
        }
      add_point (r, f, entry_x, ty, -1);

      if (ln->node < 0)
        {
          cur_x = r->col_right[ln->layer];
          cur_y = ty;
          add_point (r, f, cur_x, cur_y, -1);
        }
    }
}

static double
lane_above (Router *r, int row)
{
  return r->row_top[row] - LANE_ABOVE - LANE_STEP * r->lanes_above[row]++;
}

static double
lane_below (Router *r, int row)
{
  return r->row_bottom[row] + LANE_BELOW + LANE_STEP * r->lanes_below[row]++;
}

/* Does a flow touching this gateway leave or enter it through its bottom
 * rather than its top? Only when the top is taken and the bottom is free. */
static gboolean
use_bottom (Router *r, const WnNode *node)
{
  return winnow_layout_is_gateway (node->type) && r->top_used[node->index] && !r->bottom_used[node->index];
}

/* A flow against the layering (a loop): up (or down) into the gap between
 * rows, left along it, through the column gap right of the target's layer to
 * the gap above (or below) the target's row, and into the target from there. */
static void
route_back (Router *r, int f)
{
  const WnProcess *p = r->g->process;
  const WnFlow *flow = &p->flows[f];
  const WnNode *from = &p->nodes[flow->from];
  const WnNode *source = &p->nodes[flow_source (p, flow)];
  const WnNode *target = &p->nodes[flow->to];
  const WinnowLayoutNode *u = &r->nodes[source->index];
  const WinnowLayoutNode *v = &r->nodes[target->index];
  gboolean self_loop = source == target;
  gboolean down = use_bottom (r, target);
  double sx = self_loop ? u->cx + 14 : u->cx;
  double tx = self_loop ? v->cx - 14 : v->cx;
  double lane_u, lane_v;

  if (v->layer < 0)
    return;   /* a flow into a boundary: nothing sensible to draw */

  if (winnow_layout_is_attached (p, from))
    {
      const WinnowLayoutNode *b = &r->nodes[from->index];

      sx = b->cx;
      add_point (r, f, sx, b->box.y + b->box.height, -1);
      lane_u = lane_below (r, u->row);
    }
  else if (use_bottom (r, source))
    {
      add_point (r, f, sx, u->box.y + u->box.height, -1);
      r->bottom_used[source->index] = TRUE;
      lane_u = lane_below (r, u->row);
    }
  else
    {
      add_point (r, f, sx, u->box.y, -1);
      r->top_used[source->index] = TRUE;
      lane_u = lane_above (r, u->row);
    }
  add_point (r, f, sx, lane_u, -1);

  if (self_loop && !down && lane_u < u->cy)
    lane_v = lane_u;
  else if (down)
    lane_v = lane_below (r, v->row);
  else
    lane_v = lane_above (r, v->row);

  if (fabs (lane_u - lane_v) > 0.5)
    {
      double gx = r->col_right[v->layer] + 10 + LANE_STEP * r->lanes_gap[v->layer]++;

      add_point (r, f, gx, lane_u, -1);
      add_point (r, f, gx, lane_v, -1);
    }
  add_point (r, f, tx, lane_v, -1);
  if (down)
    {
      add_point (r, f, tx, v->box.y + v->box.height, -1);
      r->bottom_used[target->index] = TRUE;
    }
  else
    {
      add_point (r, f, tx, v->box.y, -1);
      r->top_used[target->index] = TRUE;
    }
}

static int
compare_bends (gconstpointer a, gconstpointer b)
{
  const Bend *x = a, *y = b;
  double kx = fabs (x->y1 - x->y0) * (x->split ? -1 : 1);
  double ky = fabs (y->y1 - y->y0) * (y->split ? -1 : 1);

  if (x->gap != y->gap)
    return x->gap - y->gap;
  if (kx != ky)
    return kx < ky ? -1 : 1;
  if (x->y0 != y->y0)
    return x->y0 < y->y0 ? -1 : 1;
  return x->flow - y->flow;
}

/* Spread the vertical segments sharing a gap over it, in an order that avoids
 * crossings for splits (longest drop leftmost) and merges (longest rightmost). */
static void
assign_bends (Router *r)
{
  g_autoptr(GArray) sorted = g_array_copy (r->bends);
  guint i = 0;

  for (guint a = 0; a < sorted->len; a++)
    for (guint b = 0; b < sorted->len; b++)
      {
        Bend *x = &g_array_index (sorted, Bend, a);
        const Bend *y = &g_array_index (sorted, Bend, b);

        if (a != b && x->gap == y->gap && fabs (x->y0 - y->y0) < 0.5 &&
            (x->y1 - x->y0) * (y->y1 - y->y0) > 0)
          x->split = TRUE;
      }
  for (guint a = 0; a < sorted->len; a++)
    g_array_index (sorted, Bend, a).x = a;   /* remember the original index */
  g_array_sort (sorted, compare_bends);

  while (i < sorted->len)
    {
      int gap = g_array_index (sorted, Bend, i).gap;
      guint j = i;
      double left = r->col_right[gap], right = r->col_left[gap + 1];

      while (j < sorted->len && g_array_index (sorted, Bend, j).gap == gap)
        j++;
      for (guint k = i; k < j; k++)
        {
          guint original = (guint) g_array_index (sorted, Bend, k).x;
          Bend *b = &g_array_index (r->bends, Bend, original);

          b->x = left + (right - left) * (k - i + 1) / (double) (j - i + 1);
        }
      i = j;
    }

  for (guint m = 0; m < r->g->flows->len; m++)
    {
      guint f = g_array_index (r->g->flows, guint, m);
      GArray *points = r->flows[f].points;

      if (!r->g->flow_in[f])
        continue;
      for (guint k = 0; k < points->len; k++)
        {
          int bend = g_array_index (r->bend_ids[f], int, k);

          if (bend >= 0)
            g_array_index (points, WinnowLayoutPoint, k).x = g_array_index (r->bends, Bend, bend).x;
        }
    }
}

/* Drop repeated and collinear points. */
static void
simplify_points (GArray *points)
{
  guint out = 0;

  for (guint i = 0; i < points->len; i++)
    {
      WinnowLayoutPoint *pts = (WinnowLayoutPoint *) (void *) points->data;
      WinnowLayoutPoint pt = pts[i];

      if (out > 0 && fabs (pts[out - 1].x - pt.x) < 0.01 && fabs (pts[out - 1].y - pt.y) < 0.01)
        continue;
      if (out >= 2)
        {
          const WinnowLayoutPoint *a = &pts[out - 2], *b = &pts[out - 1];
          double cross = (b->x - a->x) * (pt.y - b->y) - (b->y - a->y) * (pt.x - b->x);
          double dot = (b->x - a->x) * (pt.x - b->x) + (b->y - a->y) * (pt.y - b->y);

          if (fabs (cross) < 0.01 && dot > 0)
            out--;
        }
      pts[out++] = pt;
    }
  g_array_set_size (points, out);
}

/* The label sits above the first horizontal stretch of the flow, next to
 * where that stretch starts; without one, the flow has no label. */
static void
place_flow_label (WinnowLayout     *self,
                  WinnowLayoutFlow *fg)
{
  const WinnowLayoutPoint *pts = (const WinnowLayoutPoint *) (const void *) fg->points->data;
  double w, h;

  for (guint i = 0; i + 1 < fg->points->len; i++)
    {
      const WinnowLayoutPoint *a = &pts[i], *b = &pts[i + 1];
      double room;

      if (fabs (a->y - b->y) > 0.5 || fabs (b->x - a->x) < 24)
        continue;
      room = fabs (b->x - a->x) - 12 - (i + 2 == fg->points->len ? ARROW_LEN + 2 : 0);
      text_fit (self, fg->label, MAX (room, 24), 1, WINNOW_LAYOUT_ALIGN_LEFT, WINNOW_LAYOUT_ELLIPSIZE_END);
      text_size (self, fg->label, &w, &h);
      if (b->x > a->x)
        fg->label_rect = rect_init (a->x + 6, a->y - 2 - h, w, h);
      else
        fg->label_rect = rect_init (a->x - 6 - w, a->y - 2 - h, w, h);
      return;
    }
  text_clear (self, &fg->label);
}

/* ---- the steps of a layout ---- */

static void
init_flows (WinnowLayout    *self,
            const WnProcess *p)
{
  for (guint f = 0; f < p->n_flows; f++)
    {
      WinnowLayoutFlow *fg = &self->flows[f];

      fg->points = g_array_new (FALSE, FALSE, sizeof (WinnowLayoutPoint));
      fg->is_default = p->nodes[p->flows[f].from].default_flow == (int) f;
    }
}

/* Texts first: their sizes shape the columns. A boundary's text goes on the
 * flow leaving it, when it has one; a condition on its flow. */
static void
make_texts (WinnowLayout    *self,
            const WnProcess *p)
{
  for (guint i = 0; i < p->n_nodes; i++)
    {
      const WnNode *node = &p->nodes[i];
      WinnowLayoutNode *n = &self->nodes[i];

      if (winnow_layout_is_task (node->type))
        {
          gboolean glyph = node->type != WN_NODE_TASK;

          n->label = text_new_fitted (self, winnow_layout_node_title (node), FALSE, TASK_W - 20, glyph ? 2 : 3,
                                      WINNOW_LAYOUT_ALIGN_CENTER, WINNOW_LAYOUT_ELLIPSIZE_END);
          if (node->worker != NULL && node->worker->topic != NULL)
            n->topic = text_new_fitted (self, node->worker->topic, TRUE, TASK_W - 26 - 8, 1,
                                        WINNOW_LAYOUT_ALIGN_LEFT, WINNOW_LAYOUT_ELLIPSIZE_MIDDLE);
        }
      else if (winnow_layout_is_attached (p, node))
        {
          const char *text = node->name != NULL ? node->name :
                             node->error_code != NULL ? node->error_code : node->id;

          if (node->outgoing->len > 0)
            self->flows[g_array_index (node->outgoing, guint, 0)].label =
              text_new_fitted (self, text, TRUE, FLOW_LABEL_MAX, 1, WINNOW_LAYOUT_ALIGN_LEFT, WINNOW_LAYOUT_ELLIPSIZE_END);
          else
            n->label = text_new_fitted (self, text, TRUE, LABEL_MAX_W, 1, WINNOW_LAYOUT_ALIGN_LEFT, WINNOW_LAYOUT_ELLIPSIZE_END);
        }
      else
        {
          gboolean gateway = winnow_layout_is_gateway (node->type);

          n->label = text_new_fitted (self, winnow_layout_node_title (node), TRUE, LABEL_MAX_W, gateway ? 1 : 2,
                                      gateway ? WINNOW_LAYOUT_ALIGN_RIGHT : WINNOW_LAYOUT_ALIGN_CENTER,
                                      WINNOW_LAYOUT_ELLIPSIZE_END);
        }
    }
  for (guint f = 0; f < p->n_flows; f++)
    {
      const WnFlow *flow = &p->flows[f];
      WinnowLayoutFlow *fg = &self->flows[f];

      if (flow->condition != NULL && fg->label == NULL)
        fg->label = text_new_fitted (self, wn_lite_get_source (flow->condition), TRUE, FLOW_LABEL_MAX, 1,
                                     WINNOW_LAYOUT_ALIGN_LEFT, WINNOW_LAYOUT_ELLIPSIZE_END);
    }
}

/* Columns: each layer as wide as its widest shape and label, and the gap
 * right of it wide enough for the labels of the flows leaving it. */
static void
place_columns (WinnowLayout *self,
               const Graph  *g,
               Router       *r)
{
  const WnProcess *p = g->process;
  g_autofree double *left_ext = g_new0 (double, g->n_layers + 1);
  g_autofree double *right_ext = g_new0 (double, g->n_layers + 1);
  g_autofree double *gap = g_new0 (double, g->n_layers + 1);
  double x;

  for (guint i = 0; i < g->lnodes->len; i++)
    {
      const LNode *ln = LN (g, i);
      double hw = 0, lw = 0, lh = 0, left, right;

      if (ln->node < 0)
        continue;
      hw = g->ext->half_w[ln->node];
      left = right = hw;
      if (self->nodes[ln->node].label != NULL && !winnow_layout_is_task (p->nodes[ln->node].type))
        {
          text_size (self, self->nodes[ln->node].label, &lw, &lh);
          if (winnow_layout_is_gateway (p->nodes[ln->node].type))
            left = MAX (left, lw + 8);
          else
            left = right = MAX (hw, lw / 2 + 4);
        }
      left_ext[ln->layer] = MAX (left_ext[ln->layer], left);
      right_ext[ln->layer] = MAX (right_ext[ln->layer], right);
    }
  for (int l = 0; l < g->n_layers; l++)
    gap[l] = COL_GAP;
  for (guint k = 0; k < g->flows->len; k++)
    {
      guint f = g_array_index (g->flows, guint, k);
      const WnFlow *flow = &p->flows[f];
      const WnNode *from = &p->nodes[flow->from];
      const LNode *src;
      double lw, lh, start;

      if (self->flows[f].label == NULL || g->chains[f] == NULL)
        continue;
      src = LN (g, g_array_index (g->chains[f], int, 0));
      text_size (self, self->flows[f].label, &lw, &lh);
      if (winnow_layout_is_attached (p, from))
        start = g->ext->half_w[from->attached_to] - boundary_offset (p, from);
      else
        start = g->ext->half_w[from->index];
      gap[src->layer] = MAX (gap[src->layer], lw + 22 + ARROW_LEN - (right_ext[src->layer] - start));
    }
  x = 0;
  r->col_left = g_new0 (double, g->n_layers + 1);
  r->col_cx = g_new0 (double, g->n_layers + 1);
  r->col_right = g_new0 (double, g->n_layers + 1);
  for (int l = 0; l < g->n_layers; l++)
    {
      r->col_left[l] = x;
      r->col_cx[l] = x + left_ext[l];
      r->col_right[l] = r->col_cx[l] + right_ext[l];
      x = r->col_right[l] + CLAMP (gap[l], COL_GAP, COL_GAP_MAX);
    }
}

/* The layered shapes on their column and row, and their texts. */
static void
place_nodes (WinnowLayout *self,
             const Graph  *g,
             const Router *r)
{
  const WnProcess *p = g->process;

  for (guint k = 0; k < g->nodes->len; k++)
    {
      guint i = g_array_index (g->nodes, guint, k);
      const WnNode *node = &p->nodes[i];
      WinnowLayoutNode *n = &self->nodes[i];
      double hw, up, down, w, h;
      const LNode *ln;

      if (g->node_lnode[i] < 0)
        continue;
      ln = LN (g, g->node_lnode[i]);
      hw = g->ext->half_w[i];
      up = g->ext->up[i];
      down = g->ext->down[i];
      n->layer = ln->layer;
      n->row = ln->row;
      n->cx = r->col_cx[ln->layer];
      n->box = rect_init (n->cx - hw, row_y (ln->row) - up, 2 * hw, up + down);
      n->cy = n->box.y + n->box.height / 2;

      if (n->label == NULL)
        continue;
      if (n->container)
        text_fit (self, n->label, MAX (2 * hw - 20, 24), 1, WINNOW_LAYOUT_ALIGN_LEFT, WINNOW_LAYOUT_ELLIPSIZE_END);
      text_size (self, n->label, &w, &h);
      if (n->container)
        n->label_rect = rect_init (n->box.x + 10, n->box.y + 7, w, h);
      else if (winnow_layout_is_task (node->type))
        {
          double top = n->box.y + (node->type != WN_NODE_TASK ? TASK_HEADER : 8);
          double bottom = n->box.y + TASK_H - 8;

          n->label_rect = rect_init (n->cx - w / 2, (top + bottom) / 2 - h / 2, w, h);
          if (n->topic != NULL)
            {
              double tw, th;

              text_size (self, n->topic, &tw, &th);
              n->topic_rect = rect_init (n->box.x + 26, n->box.y + 15 - th / 2, tw, th);
            }
        }
      else if (winnow_layout_is_gateway (node->type))
        n->label_rect = rect_init (n->cx - 8 - w, n->cy - 18 - h, w, h);
      else
        n->label_rect = rect_init (n->cx - w / 2, n->cy + down + 4, w, h);
    }
}

/* The boundary events on their host's bottom border, right to left. */
static void
place_boundaries (WinnowLayout *self,
                  const Graph  *g)
{
  const WnProcess *p = g->process;

  for (guint k = 0; k < g->nodes->len; k++)
    {
      guint i = g_array_index (g->nodes, guint, k);
      const WnNode *node = &p->nodes[i];
      WinnowLayoutNode *n = &self->nodes[i];
      const WinnowLayoutNode *host;

      if (!winnow_layout_is_attached (p, node) || !in_graph (g, (guint) node->attached_to))
        continue;
      host = &self->nodes[node->attached_to];
      n->layer = -1;
      n->row = host->row;
      n->cx = host->box.x + host->box.width - boundary_offset (p, node);
      n->cy = host->box.y + host->box.height;
      n->box = rect_init (n->cx - BOUNDARY_R, n->cy - BOUNDARY_R, 2 * BOUNDARY_R, 2 * BOUNDARY_R);
      if (n->label != NULL)
        {
          double w, h;

          text_size (self, n->label, &w, &h);
          n->label_rect = rect_init (n->cx + BOUNDARY_R + 3, n->cy + 2, w, h);
        }
    }
}

/* The flows along the layering first, then the loops against it; then the
 * vertical stretches spread over their gaps, and the labels placed. */
static void
route_flows (WinnowLayout *self,
             Graph        *g,
             Router       *r)
{
  int max_row = 0;

  for (guint i = 0; i < g->lnodes->len; i++)
    max_row = MAX (max_row, LN (g, i)->row);
  r->g = g;
  r->nodes = self->nodes;
  r->flows = self->flows;
  r->bends = g_array_new (FALSE, TRUE, sizeof (Bend));
  r->bend_ids = g->work->bend_ids;
  r->top_used = g->work->top_used;
  r->bottom_used = g->work->bottom_used;
  r->lanes_above = g_new0 (int, max_row + 1);
  r->lanes_below = g_new0 (int, max_row + 1);
  r->lanes_gap = g_new0 (int, g->n_layers + 1);
  r->row_top = g_new (double, max_row + 1);
  r->row_bottom = g_new (double, max_row + 1);
  for (int row = 0; row <= max_row; row++)
    {
      r->row_top[row] = row_y (row) - TASK_H / 2;
      r->row_bottom[row] = row_y (row) + TASK_H / 2;
    }
  for (guint k = 0; k < g->nodes->len; k++)
    {
      guint i = g_array_index (g->nodes, guint, k);
      const WinnowLayoutNode *n = &self->nodes[i];

      if (g->node_lnode[i] < 0 || !n->container)
        continue;
      r->row_top[n->row] = MIN (r->row_top[n->row], n->box.y);
      r->row_bottom[n->row] = MAX (r->row_bottom[n->row], n->box.y + n->box.height);
    }
  for (guint k = 0; k < g->flows->len; k++)
    {
      guint f = g_array_index (g->flows, guint, k);

      r->bend_ids[f] = g_array_new (FALSE, FALSE, sizeof (int));
      if (g->chains[f] != NULL)
        route_forward (r, (int) f);
    }
  for (guint k = 0; k < g->flows->len; k++)
    {
      guint f = g_array_index (g->flows, guint, k);

      if (g->flow_in[f] && g->chains[f] == NULL)
        route_back (r, (int) f);
    }
  assign_bends (r);
  for (guint k = 0; k < g->flows->len; k++)
    {
      guint f = g_array_index (g->flows, guint, k);
      WinnowLayoutFlow *fg = &self->flows[f];

      if (!g->flow_in[f])
        continue;
      simplify_points (fg->points);
      if (fg->label == NULL)
        continue;
      if (fg->points->len >= 2)
        place_flow_label (self, fg);
      else
        text_clear (self, &fg->label);
    }
}

/* A BPMN model's texts where its author put them: a label with BPMNLabel
 * bounds centred on them, an event's or gateway's without them centred below
 * it (as modellers place them), a task's name and topic fitted to the drawn
 * box; and its pool and lanes as frames, the name along the band. */
#define FRAME_BAND 30.0

static void
apply_diagram_texts (WinnowLayout    *self,
                     const WnProcess *process)
{
  const WnDiagram *d = process->diagram;
  double w, h;

  for (guint i = 0; i < self->n_nodes; i++)
    {
      WinnowLayoutNode *n = &self->nodes[i];
      const WnNode *node = &process->nodes[i];
      const WnDiagramShape *lb = d->node_labels != NULL ? &d->node_labels[i] : NULL;

      if (n->hidden)
        {
          text_clear (self, &n->label);
          text_clear (self, &n->topic);
          continue;
        }
      if (n->container && n->label != NULL)
        {
          text_fit (self, n->label, MAX (n->box.width - 20, 24), 1, WINNOW_LAYOUT_ALIGN_LEFT,
                    WINNOW_LAYOUT_ELLIPSIZE_END);
          text_size (self, n->label, &w, &h);
          n->label_rect = rect_init (n->box.x + 10, n->box.y + 7, w, h);
          continue;
        }
      if (winnow_layout_is_task (node->type))
        {
          if (n->topic != NULL)
            {
              text_fit (self, n->topic, MAX (n->box.width - 30, 24), 1, WINNOW_LAYOUT_ALIGN_LEFT,
                        WINNOW_LAYOUT_ELLIPSIZE_END);
              text_size (self, n->topic, &w, &h);
              n->topic_rect = rect_init (n->box.x + 26, n->box.y + 15 - h / 2, w, h);
            }
          if (n->label != NULL)
            {
              double top = n->box.y + (node->type != WN_NODE_TASK ? TASK_HEADER : 8);
              double bottom = n->box.y + n->box.height - 8;

              text_fit (self, n->label, MAX (n->box.width - 12, 24), node->type != WN_NODE_TASK ? 2 : 3,
                        WINNOW_LAYOUT_ALIGN_CENTER, WINNOW_LAYOUT_ELLIPSIZE_END);
              text_size (self, n->label, &w, &h);
              n->label_rect = rect_init (n->cx - w / 2, (top + bottom) / 2 - h / 2, w, h);
            }
          continue;
        }
      if (n->label == NULL || winnow_layout_is_attached (process, node))
        continue;
      if (lb != NULL && lb->width > 0)
        {
          text_fit (self, n->label, MAX (lb->width + 24, 90), 3, WINNOW_LAYOUT_ALIGN_CENTER,
                    WINNOW_LAYOUT_ELLIPSIZE_END);
          text_size (self, n->label, &w, &h);
          n->label_rect = rect_init (lb->x + lb->width / 2 - w / 2, lb->y + lb->height / 2 - h / 2, w, h);
        }
      else
        {
          text_fit (self, n->label, 90, 2, WINNOW_LAYOUT_ALIGN_CENTER, WINNOW_LAYOUT_ELLIPSIZE_END);
          text_size (self, n->label, &w, &h);
          n->label_rect = rect_init (n->cx - w / 2, n->box.y + n->box.height + 4, w, h);
        }
    }
  for (guint f = 0; f < self->n_flows && d->flow_labels != NULL; f++)
    {
      WinnowLayoutFlow *fg = &self->flows[f];
      const WnDiagramShape *lb = &d->flow_labels[f];

      if (fg->label == NULL || lb->width <= 0)
        continue;
      /* the bounds were drawn for the flow's name; the condition shown may be longer */
      text_fit (self, fg->label, MAX (lb->width + 16, 40), 1, WINNOW_LAYOUT_ALIGN_LEFT, WINNOW_LAYOUT_ELLIPSIZE_END);
      text_size (self, fg->label, &w, &h);
      fg->label_rect = rect_init (lb->x, lb->y + lb->height / 2 - h / 2, w, h);
    }

  self->n_frames = d->n_frames;
  self->frames = g_new0 (WinnowLayoutFrame, d->n_frames);
  for (guint k = 0; k < d->n_frames; k++)
    {
      const WnDiagramFrame *frame = &d->frames[k];
      WinnowLayoutFrame *fr = &self->frames[k];
      double along;

      fr->box = rect_init (frame->bounds.x, frame->bounds.y, frame->bounds.width, frame->bounds.height);
      fr->lane = frame->lane;
      fr->vertical = frame->vertical;
      fr->band = frame->vertical ? rect_init (fr->box.x, fr->box.y, fr->box.width, MIN (FRAME_BAND, fr->box.height))
                                 : rect_init (fr->box.x, fr->box.y, MIN (FRAME_BAND, fr->box.width), fr->box.height);
      if (frame->name == NULL)
        continue;
      along = frame->vertical ? fr->band.width : fr->band.height;
      fr->label = text_new (self, frame->name, FALSE);
      text_fit (self, fr->label, MAX (along - 12, 24), 1, WINNOW_LAYOUT_ALIGN_CENTER, WINNOW_LAYOUT_ELLIPSIZE_END);
    }
}

static gboolean
diagram_collapsed (const WnDiagram *d, guint index)
{
  return d->collapsed != NULL && index < d->n_shapes && d->collapsed[index];
}

/* A BPMN model's own diagram replaces the layered layout: each node centred
 * where its author drew it (tasks and sub-processes at their drawn size,
 * events and gateways at the drawing's), each flow along its waypoints (a
 * straight line between the centres when the file has none). */
static void
apply_diagram (WinnowLayout    *self,
               const WnProcess *process)
{
  const WnDiagram *d = process->diagram;

  for (guint i = 0; i < self->n_nodes && i < d->n_shapes; i++)
    {
      WinnowLayoutNode *n = &self->nodes[i];
      const WnDiagramShape *s = &d->shapes[i];
      double cx = s->x + s->width / 2;
      double cy = s->y + s->height / 2;
      float dx = (float) (cx - n->cx);
      float dy = (float) (cy - n->cy);

      /* a sub-process as its author left it: open (a container) or closed;
       * what a closed one holds is not drawn */
      n->container = process->nodes[i].type == WN_NODE_SUBPROCESS && !diagram_collapsed (d, i);
      for (int sc = process->nodes[i].scope; sc >= 0; sc = process->nodes[sc].scope)
        n->hidden |= diagram_collapsed (d, (guint) sc);
      n->cx = cx;
      n->cy = cy;
      rect_offset (&n->label_rect, dx, dy);
      if (winnow_layout_is_task (process->nodes[i].type))
        {
          /* the topic keeps its place at the box's top-left corner */
          rect_offset (&n->topic_rect, (float) s->x - n->box.x, (float) s->y - n->box.y);
          n->box = rect_init (s->x, s->y, s->width, s->height);
        }
      else
        {
          rect_offset (&n->box, dx, dy);
          rect_offset (&n->topic_rect, dx, dy);
        }
    }
  for (guint f = 0; f < self->n_flows && f < d->n_edges; f++)
    {
      WinnowLayoutFlow *fg = &self->flows[f];
      const WnDiagramEdge *e = &d->edges[f];
      const WnFlow *flow = &process->flows[f];

      g_array_set_size (fg->points, 0);
      fg->back = FALSE;
      if (self->nodes[flow->from].hidden)
        {
          text_clear (self, &fg->label);
          continue;
        }
      if (e->n_points >= 2)
        for (guint k = 0; k < e->n_points; k++)
          {
            WinnowLayoutPoint pt = { (float) e->points[k].x, (float) e->points[k].y };

            g_array_append_val (fg->points, pt);
          }
      else
        {
          WinnowLayoutPoint a = { (float) self->nodes[flow->from].cx, (float) self->nodes[flow->from].cy };
          WinnowLayoutPoint b = { (float) self->nodes[flow->to].cx, (float) self->nodes[flow->to].cy };

          g_array_append_val (fg->points, a);
          g_array_append_val (fg->points, b);
        }
      if (fg->label != NULL)
        place_flow_label (self, fg);
    }
  apply_diagram_texts (self, process);
}

/* ---- scopes: containers, innermost first ---- */

static void
move_node (WinnowLayoutNode *n, double dx, double dy)
{
  n->cx += dx;
  n->cy += dy;
  rect_offset (&n->box, dx, dy);
  rect_offset (&n->label_rect, dx, dy);
  rect_offset (&n->topic_rect, dx, dy);
}

static void
move_flow (WinnowLayoutFlow *fg, double dx, double dy)
{
  for (guint k = 0; k < fg->points->len; k++)
    {
      WinnowLayoutPoint *pt = &g_array_index (fg->points, WinnowLayoutPoint, k);

      pt->x += dx;
      pt->y += dy;
    }
  rect_offset (&fg->label_rect, dx, dy);
}

static void
work_init (Work            *work,
           const WnProcess *p)
{
  Extents *ext = &work->ext;

  ext->half_w = g_new (double, p->n_nodes);
  ext->up = g_new (double, p->n_nodes);
  ext->down = g_new (double, p->n_nodes);
  work->scope_nodes = g_new (GArray *, p->n_nodes + 1);
  work->scope_flows = g_new (GArray *, p->n_nodes + 1);
  for (guint s = 0; s <= p->n_nodes; s++)
    {
      work->scope_nodes[s] = NULL;
      work->scope_flows[s] = NULL;
    }
  work->scope_nodes[0] = g_array_new (FALSE, FALSE, sizeof (guint));
  work->scope_flows[0] = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; i < p->n_nodes; i++)
    if (p->nodes[i].type == WN_NODE_SUBPROCESS)
      {
        work->scope_nodes[i + 1] = g_array_new (FALSE, FALSE, sizeof (guint));
        work->scope_flows[i + 1] = g_array_new (FALSE, FALSE, sizeof (guint));
      }
  for (guint i = 0; i < p->n_nodes; i++)
    {
      double hw, hh;

      shape_half (&p->nodes[i], &hw, &hh);
      ext->half_w[i] = hw;
      ext->up[i] = ext->down[i] = hh;
      g_array_append_val (work->scope_nodes[p->nodes[i].scope + 1], i);
    }
  for (guint f = 0; f < p->n_flows; f++)
    g_array_append_val (work->scope_flows[p->nodes[p->flows[f].from].scope + 1], f);

  work->content = g_new0 (WinnowLayoutRect, p->n_nodes);
  work->node_lnode = g_new (int, p->n_nodes);
  for (guint i = 0; i < p->n_nodes; i++)
    work->node_lnode[i] = -1;
  work->state = g_new0 (guint8, p->n_nodes);
  work->next = g_new0 (guint, p->n_nodes);
  work->outs = g_new0 (GArray *, p->n_nodes);
  work->layer = g_new0 (int, p->n_nodes);
  work->stack = g_new (int, p->n_nodes + 1);
  work->top_used = g_new0 (gboolean, p->n_nodes);
  work->bottom_used = g_new0 (gboolean, p->n_nodes);
  work->back = g_new0 (gboolean, p->n_flows);
  work->flow_in = g_new0 (gboolean, p->n_flows);
  work->chains = g_new0 (GArray *, p->n_flows);
  work->bend_ids = g_new0 (GArray *, p->n_flows);
}

static void
work_clear (Work            *work,
            const WnProcess *p)
{
  for (guint s = 0; s <= p->n_nodes; s++)
    {
      g_clear_pointer (&work->scope_nodes[s], g_array_unref);
      g_clear_pointer (&work->scope_flows[s], g_array_unref);
    }
  g_clear_pointer (&work->scope_nodes, g_free);
  g_clear_pointer (&work->scope_flows, g_free);
  g_clear_pointer (&work->ext.half_w, g_free);
  g_clear_pointer (&work->ext.up, g_free);
  g_clear_pointer (&work->ext.down, g_free);
  g_clear_pointer (&work->content, g_free);
  g_clear_pointer (&work->node_lnode, g_free);
  g_clear_pointer (&work->state, g_free);
  g_clear_pointer (&work->next, g_free);
  g_clear_pointer (&work->outs, g_free);
  g_clear_pointer (&work->layer, g_free);
  g_clear_pointer (&work->stack, g_free);
  g_clear_pointer (&work->top_used, g_free);
  g_clear_pointer (&work->bottom_used, g_free);
  g_clear_pointer (&work->back, g_free);
  g_clear_pointer (&work->flow_in, g_free);
  g_clear_pointer (&work->chains, g_free);
  g_clear_pointer (&work->bend_ids, g_free);
}

/* Everything inside the container `scope` (its shapes, texts and flows, and
 * those of the containers in it), moved. */
static void
move_inside (WinnowLayout *self,
             const Work   *work,
             guint         scope,
             float         dx,
             float         dy)
{
  const GArray *nodes = work->scope_nodes[scope + 1];
  const GArray *flows = work->scope_flows[scope + 1];

  for (guint k = 0; k < nodes->len; k++)
    {
      guint i = g_array_index (nodes, guint, k);

      move_node (&self->nodes[i], dx, dy);
      if (work->scope_nodes[i + 1] != NULL)
        move_inside (self, work, i, dx, dy);
    }
  for (guint k = 0; k < flows->len; k++)
    move_flow (&self->flows[g_array_index (flows, guint, k)], dx, dy);
}

/* What the scope's own shapes, texts and flows cover (a container covers
 * its content); FALSE when it has none. */
static gboolean
scope_bounds (const WinnowLayout *self,
              const Work         *work,
              int                 scope,
              WinnowLayoutRect   *bounds)
{
  const GArray *nodes = work->scope_nodes[scope + 1];
  const GArray *flows = work->scope_flows[scope + 1];
  gboolean any = FALSE;

  for (guint k = 0; k < nodes->len; k++)
    {
      const WinnowLayoutNode *n = &self->nodes[g_array_index (nodes, guint, k)];

      rect_union (bounds, &any, &n->box);
      if (n->label != NULL)
        rect_union (bounds, &any, &n->label_rect);
    }
  for (guint k = 0; k < flows->len; k++)
    {
      const WinnowLayoutFlow *fg = &self->flows[g_array_index (flows, guint, k)];

      for (guint j = 0; j < fg->points->len; j++)
        {
          const WinnowLayoutPoint *pt = &g_array_index (fg->points, WinnowLayoutPoint, j);
          WinnowLayoutRect r = rect_init (pt->x - 1, pt->y - 1, 2, 2);

          rect_union (bounds, &any, &r);
        }
      if (fg->label != NULL)
        rect_union (bounds, &any, &fg->label_rect);
    }
  return any;
}

/* A container's box at (x, y) (its row's line y + up when on the flow), and
 * its content moved into it. */
static void
place_container (WinnowLayout *self,
                 const Work   *work,
                 guint         index,
                 double        x,
                 double        y)
{
  WinnowLayoutNode *n = &self->nodes[index];
  const WinnowLayoutRect *content = &work->content[index];
  double width = 2 * work->ext.half_w[index];

  n->box = rect_init (x, y, width, work->ext.up[index] + work->ext.down[index]);
  n->cx = x + width / 2;
  n->cy = y + n->box.height / 2;
  move_inside (self, work, index,
               (float) (x + (width - content->width) / 2 - content->x),
               (float) (y + work->ext.up[index]));
}

/* The scope's layered graph, in its own coordinates (its first row's line at
 * y = 0); then its containers' contents moved into them, and its event
 * sub-processes lined up below, left to right. */
static void
lay_out_scope (WinnowLayout    *self,
               const WnProcess *p,
               Work            *work,
               int              scope)
{
  const GArray *members = work->scope_nodes[scope + 1];
  Extents *ext = &work->ext;
  Graph graph = { 0 };
  Router router = { 0 };
  WinnowLayoutRect bounds;
  double x;

  for (guint k = 0; k < members->len; k++)
    {
      guint i = g_array_index (members, guint, k);
      WinnowLayoutRect *content = &work->content[i];

      if (p->nodes[i].type != WN_NODE_SUBPROCESS)
        continue;
      lay_out_scope (self, p, work, (int) i);
      if (!scope_bounds (self, work, (int) i, content))
        continue;   /* nothing inside: a plain box */
      self->nodes[i].container = TRUE;
      ext->half_w[i] = MAX (content->width / 2 + CONTAINER_PAD, TASK_W / 2);
      ext->up[i] = CONTAINER_TOP - content->y;
      ext->down[i] = content->y + content->height + CONTAINER_PAD;
    }

  graph_build (&graph, p, work, scope);
  for (guint k = 0; k < graph.flows->len; k++)
    {
      guint f = g_array_index (graph.flows, guint, k);

      if (graph.flow_in[f])
        self->flows[f].back = graph.back[f];
    }
  place_columns (self, &graph, &router);
  place_nodes (self, &graph, &router);
  place_boundaries (self, &graph);
  route_flows (self, &graph, &router);
  router_clear (&router);

  for (guint k = 0; k < members->len; k++)
    {
      guint i = g_array_index (members, guint, k);

      if (graph.node_lnode[i] >= 0 && self->nodes[i].container)
        place_container (self, work, i, self->nodes[i].box.x, self->nodes[i].box.y);
    }
  graph_free (&graph);

  if (!scope_bounds (self, work, scope, &bounds))
    bounds = rect_init (0, 0, 0, 0);
  x = bounds.x;
  for (guint k = 0; k < members->len; k++)
    {
      guint i = g_array_index (members, guint, k);
      WinnowLayoutNode *n = &self->nodes[i];

      if (!is_event_sub (&p->nodes[i]))
        continue;
      if (!n->container)
        {
          double hw = ext->half_w[i], hh = ext->up[i];

          n->box = rect_init (x, bounds.y + bounds.height + EVENT_SUB_GAP, 2 * hw, 2 * hh);
          n->cx = x + hw;
          n->cy = n->box.y + hh;
        }
      else
        place_container (self, work, i, x, bounds.y + bounds.height + EVENT_SUB_GAP);
      if (n->label != NULL)
        {
          double w, h;

          text_fit (self, n->label, MAX (n->box.width - 20, 24), 1, WINNOW_LAYOUT_ALIGN_LEFT,
                    WINNOW_LAYOUT_ELLIPSIZE_END);
          text_size (self, n->label, &w, &h);
          n->label_rect = rect_init (n->box.x + 10, n->box.y + 7, w, h);
        }
      x += n->box.width + EVENT_SUB_GAP;
    }
}

/* Bounds, then move everything to the margin. */
static void
fit_margin (WinnowLayout *self)
{
  WinnowLayoutRect bounds = { 0, 0, 0, 0 };
  gboolean any = FALSE;
  double dx, dy;

  for (guint i = 0; i < self->n_nodes; i++)
    {
      const WinnowLayoutNode *n = &self->nodes[i];
      /* graphene_rect_inset_r (box, -10, -12) */
      WinnowLayoutRect decorated = { n->box.x - 10.f, n->box.y - 12.f, n->box.width + 20.f, n->box.height + 24.f };

      if (n->hidden)
        continue;
      rect_union (&bounds, &any, &decorated);
      if (n->label != NULL)
        rect_union (&bounds, &any, &n->label_rect);
    }
  for (guint f = 0; f < self->n_flows; f++)
    {
      const WinnowLayoutFlow *fg = &self->flows[f];

      for (guint k = 0; k < fg->points->len; k++)
        {
          const WinnowLayoutPoint *pt = &g_array_index (fg->points, WinnowLayoutPoint, k);
          WinnowLayoutRect r = rect_init (pt->x - 1, pt->y - 1, 2, 2);

          rect_union (&bounds, &any, &r);
        }
      if (fg->label != NULL)
        rect_union (&bounds, &any, &fg->label_rect);
    }

  for (guint k = 0; k < self->n_frames; k++)
    rect_union (&bounds, &any, &self->frames[k].box);

  dx = MARGIN - bounds.x;
  dy = MARGIN - bounds.y;
  for (guint k = 0; k < self->n_frames; k++)
    {
      rect_offset (&self->frames[k].box, dx, dy);
      rect_offset (&self->frames[k].band, dx, dy);
    }
  for (guint i = 0; i < self->n_nodes; i++)
    move_node (&self->nodes[i], dx, dy);
  for (guint f = 0; f < self->n_flows; f++)
    move_flow (&self->flows[f], dx, dy);
  self->width = ceil (bounds.width + 2 * MARGIN);
  self->height = ceil (bounds.height + 2 * MARGIN);
}

/* ---- public API ---- */

gboolean
winnow_layout_is_task (WnNodeType type)
{
  return type == WN_NODE_TASK || type == WN_NODE_SCRIPT || type == WN_NODE_SERVICE ||
         type == WN_NODE_MANUAL || type == WN_NODE_SUBPROCESS || type == WN_NODE_USER ||
         type == WN_NODE_RECEIVE;
}

gboolean
winnow_layout_is_gateway (WnNodeType type)
{
  return type == WN_NODE_EXCLUSIVE || type == WN_NODE_PARALLEL || type == WN_NODE_EVENT_GATEWAY;
}

gboolean
winnow_layout_is_attached (const WnProcess *process,
                           const WnNode    *node)
{
  return node->type == WN_NODE_BOUNDARY &&
         node->attached_to >= 0 &&
         (guint) node->attached_to < process->n_nodes;
}

guint
winnow_layout_shown_as (const WinnowLayout *layout,
                        const WnProcess    *process,
                        guint               index)
{
  g_return_val_if_fail (index < process->n_nodes, index);

  while (layout->nodes[index].hidden && process->nodes[index].scope >= 0)
    index = (guint) process->nodes[index].scope;
  return index;
}

const char *
winnow_layout_node_title (const WnNode *node)
{
  return node->name != NULL && node->name[0] != '\0' ? node->name : node->id;
}

WinnowLayout *
winnow_layout_new (const WnProcess             *process,
                   const WinnowLayoutTextFuncs *funcs,
                   gpointer                     user_data)
{
  WinnowLayout *self;
  Work work = { 0 };

  g_return_val_if_fail (process != NULL, NULL);
  g_return_val_if_fail (process->builder == NULL, NULL);   /* finished */
  g_return_val_if_fail (funcs != NULL, NULL);

  self = g_new0 (WinnowLayout, 1);
  self->funcs = funcs;
  self->user_data = user_data;
  self->n_nodes = process->n_nodes;
  self->n_flows = process->n_flows;
  self->nodes = g_new0 (WinnowLayoutNode, process->n_nodes);
  self->flows = g_new0 (WinnowLayoutFlow, process->n_flows);

  init_flows (self, process);
  make_texts (self, process);
  work_init (&work, process);
  lay_out_scope (self, process, &work, -1);
  work_clear (&work, process);
  for (guint i = 0; i < process->n_nodes; i++)
    for (int s = process->nodes[i].scope; s >= 0; s = process->nodes[s].scope)
      self->nodes[i].depth++;
  if (process->diagram != NULL)
    apply_diagram (self, process);
  fit_margin (self);
  return self;
}

void
winnow_layout_free (WinnowLayout *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->n_nodes; i++)
    {
      text_clear (self, &self->nodes[i].label);
      text_clear (self, &self->nodes[i].topic);
    }
  for (guint f = 0; f < self->n_flows; f++)
    {
      g_clear_pointer (&self->flows[f].points, g_array_unref);
      text_clear (self, &self->flows[f].label);
    }
  for (guint k = 0; k < self->n_frames; k++)
    text_clear (self, &self->frames[k].label);
  g_free (self->frames);
  g_free (self->nodes);
  g_free (self->flows);
  g_free (self);
}
