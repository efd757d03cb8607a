/* winnow-diagram.c — the process diagram.
 *
 * The layout is a small Sugiyama pipeline, computed once per process: break
 * cycles with a DFS from the start event, layer by longest path, insert dummy
 * nodes on long flows, order each layer with barycenter sweeps (keeping the
 * order with the fewest crossings), put nodes on a grid of rows, then route
 * flows orthogonally. Boundary events are not layered: they sit on the bottom
 * border of their host, and their flows leave from there.
 *
 * Everything is kept in diagram units (zoom 1); the view maps them to the
 * widget with a zoom factor and a pan offset.
 */
#include "config.h"

#include "winnow-diagram.h"
#include "winnow-paint.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>

#include "winnow.h"

#define MARGIN          32.0
#define TASK_W         140.0
#define TASK_H          80.0
#define TASK_RADIUS     10.0
#define TASK_HEADER     24.0
#define EVENT_R         18.0
#define GATEWAY_R       25.0
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
#define ARROW_LEN        9.0
#define ARROW_HALF       4.5
#define CORNER_R         8.0
#define CLICK_SLOP       3.0
#define DRAG_THRESHOLD   4.0
#define FIT_MAX_ZOOM     1.0
#define ZOOM_STEP        1.25
#define N_SWEEPS         4
#define MAX_ROW_PASSES  12

typedef struct {
  guint    active;
  guint    parked;
  guint    incident;
  gboolean breakpoint;
} NodeState;

typedef struct {
  graphene_rect_t box;         /* the shape */
  double          cx;
  double          cy;
  int             layer;       /* -1: an attached boundary event */
  int             row;
  PangoLayout    *label;       /* name (or id); NULL when drawn on a flow */
  graphene_rect_t label_rect;
  PangoLayout    *topic;       /* service tasks with a worker */
  graphene_rect_t topic_rect;
} NodeGeom;

typedef struct {
  GArray         *points;      /* graphene_point_t; empty: not drawn */
  PangoLayout    *label;       /* condition, or the error a boundary catches */
  graphene_rect_t label_rect;
  gboolean        is_default;
  gboolean        back;
} FlowGeom;

typedef struct {
  GdkRGBA  fg;
  GdkRGBA  fill;
  GdkRGBA  accent;
  GdkRGBA  start;
  GdkRGBA  error;
  GdkRGBA  active;
  GdkRGBA  parked;
  GdkRGBA  incident;
  GdkRGBA  badge_text;
  GdkRGBA  breakpoint;
} Palette;

struct _WinnowDiagram
{
  GtkWidget   parent_instance;

  WnProcess  *process;
  NodeState  *states;          /* per node */
  NodeGeom   *nodes;           /* per node */
  FlowGeom   *flows;           /* per flow */
  double      width;
  double      height;

  char       *selected;
  int         hover;

  double      zoom;
  double      off_x;           /* widget = diagram × zoom + offset */
  double      off_y;
  gboolean    auto_fit;
  gboolean    dragging;
  double      drag_start_x;
  double      drag_start_y;
  gboolean    has_pointer;
  double      pointer_x;
  double      pointer_y;

  /* The picture without its badges, kept between frames: a run changes only
   * the badges, and a node that is the same from one frame to the next costs
   * nothing to show, while one drawing of everything made GTK repaint the
   * whole diagram for every count that moved. Rebuilt when what it shows
   * changes (the key below); a new layout drops it. */
  GskRenderNode *scene;
  struct {
    double   w, h, zoom, off_x, off_y;
    int      hover, selected;
    Palette  pal;
  } scene_key;
};

enum {
  PROP_0,
  PROP_SELECTED_NODE,
  PROP_ZOOM,
  N_PROPS
};

enum {
  NODE_ACTIVATED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (WinnowDiagram, winnow_diagram, GTK_TYPE_WIDGET)

/* ------------------------------------------------------------------------- */
/* Model helpers                                                             */

static gboolean
type_is_task (WnNodeType type)
{
  return type == WN_NODE_TASK || type == WN_NODE_SCRIPT || type == WN_NODE_SERVICE;
}

static gboolean
type_is_gateway (WnNodeType type)
{
  return type == WN_NODE_EXCLUSIVE || type == WN_NODE_PARALLEL;
}

static gboolean
node_is_attached (const WnProcess *process, const WnNode *node)
{
  return node->type == WN_NODE_BOUNDARY &&
         node->attached_to >= 0 &&
         (guint) node->attached_to < process->n_nodes;
}

static int
node_index (const WnProcess *process, const char *id)
{
  const WnNode *node;

  if (process == NULL || id == NULL)
    return -1;
  node = wn_process_find_node (process, id);
  return node != NULL ? (int) node->index : -1;
}

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

static const char *
node_title (const WnNode *node)
{
  return node->name != NULL && node->name[0] != '\0' ? node->name : node->id;
}

static const char *
node_type_label (const WnNode *node)
{
  switch (node->type)
    {
    case WN_NODE_START:
      return _("Start event");
    case WN_NODE_END:
      return node->error_code != NULL ? _("Error end event") : _("End event");
    case WN_NODE_TASK:
      return _("Task");
    case WN_NODE_SCRIPT:
      return _("Script task");
    case WN_NODE_SERVICE:
      return _("Service task");
    case WN_NODE_BOUNDARY:
      return _("Error boundary event");
    case WN_NODE_EXCLUSIVE:
      return _("Exclusive gateway");
    case WN_NODE_PARALLEL:
      return _("Parallel gateway");
    case WN_NODE_TIMER:
      return _("Timer event");
    default:
      return _("Node");
    }
}

/* ------------------------------------------------------------------------- */
/* Text                                                                      */

static PangoLayout *
text_new (GtkWidget  *widget,
          const char *text,
          gboolean    small,
          gboolean    bold)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, text);
  PangoAttrList *attrs = pango_attr_list_new ();

  if (small)
    pango_attr_list_insert (attrs, pango_attr_scale_new (PANGO_SCALE_SMALL));
  if (bold)
    pango_attr_list_insert (attrs, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);
  return layout;
}

/* Wrap and ellipsize to max_width and max_lines when the text does not fit. */
static void
text_fit (PangoLayout        *layout,
          double              max_width,
          int                 max_lines,
          PangoAlignment      align,
          PangoEllipsizeMode  ellipsize)
{
  int w, h;

  pango_layout_set_alignment (layout, align);
  pango_layout_set_width (layout, -1);
  pango_layout_set_height (layout, -1);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_NONE);
  pango_layout_get_pixel_size (layout, &w, &h);
  if (w > max_width)
    {
      pango_layout_set_width (layout, (int) (MAX (max_width, 8.0) * PANGO_SCALE));
      pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
      pango_layout_set_ellipsize (layout, ellipsize);
      pango_layout_set_height (layout, -MAX (max_lines, 1));
    }
}

static void
text_size (PangoLayout *layout,
           double      *width,
           double      *height)
{
  PangoRectangle logical;

  pango_layout_get_pixel_extents (layout, NULL, &logical);
  *width = logical.width;
  *height = logical.height;
}

/* Draws the text so that its logical box's top-left corner is at x, y. */
static void
text_draw (cairo_t     *cr,
           PangoLayout *layout,
           double       x,
           double       y)
{
  PangoRectangle logical;

  pango_layout_get_pixel_extents (layout, NULL, &logical);
  cairo_move_to (cr, x - logical.x, y - logical.y);
  pango_cairo_show_layout (cr, layout);
}

/* ------------------------------------------------------------------------- */
/* Layout: the layered graph                                                 */

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

typedef struct {
  const WnProcess *process;
  GArray          *lnodes;      /* LNode */
  GArray          *ledges;      /* LEdge */
  GPtrArray       *layers;      /* GArray of int: LNode indices in order */
  int             *node_lnode;  /* process node → LNode, -1 for attached boundaries */
  gboolean        *back;        /* per flow: reversed or ignored for layering */
  GArray         **chains;      /* per flow: LNode indices from source to target, or NULL */
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
  for (guint f = 0; f < g->process->n_flows; f++)
    g_clear_pointer (&g->chains[f], g_array_unref);
  g_free (g->chains);
  g_free (g->node_lnode);
  g_free (g->back);
}

static int
flow_source (const WnProcess *process, const WnFlow *flow)
{
  const WnNode *from = &process->nodes[flow->from];

  return node_is_attached (process, from) ? from->attached_to : (int) flow->from;
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
 * marks back edges, then longest-path layering over the rest. */
static int *
graph_layering (Graph *g)
{
  const WnProcess *p = g->process;
  g_autofree guint8 *state = g_new0 (guint8, p->n_nodes);
  g_autofree int *stack = g_new (int, p->n_nodes + 1);
  g_autofree guint *next = g_new0 (guint, p->n_nodes);
  g_autoptr(GArray) post = g_array_new (FALSE, FALSE, sizeof (int));
  GArray **outs = g_new0 (GArray *, p->n_nodes);
  int *layer = g_new0 (int, p->n_nodes);

  for (guint i = 0; i < p->n_nodes; i++)
    if (!node_is_attached (p, &p->nodes[i]))
      outs[i] = effective_outgoing (p, &p->nodes[i]);

  for (guint k = 0; k <= p->n_nodes; k++)
    {
      int root = k == 0 ? (int) p->start : (int) k - 1;
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

  for (guint i = 0; i < p->n_nodes; i++)
    g_clear_pointer (&outs[i], g_array_unref);
  g_free (outs);
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
  return from->node >= 0 && type_is_gateway (g->process->nodes[from->node].type);
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
                  int row = LN (g, e->from)->row + (e->rank >= 0 ? 1 + e->rank : 0);

                  g_array_append_val (wanted, row);
                }
              if (wanted->len > 0)
                {
                  g_array_sort (wanted, compare_int);
                  desired = g_array_index (wanted, int, (wanted->len - 1) / 2);
                }
              ln->row = MAX (MAX (desired, prev + 1), ln->min_row);
              prev = ln->row;
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
graph_build (Graph *g, const WnProcess *p)
{
  g_autofree int *layer = NULL;

  g->process = p;
  g->lnodes = g_array_new (FALSE, TRUE, sizeof (LNode));
  g->ledges = g_array_new (FALSE, TRUE, sizeof (LEdge));
  g->layers = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g->node_lnode = g_new (int, p->n_nodes);
  g->back = g_new0 (gboolean, p->n_flows);
  g->chains = g_new0 (GArray *, p->n_flows);
  g->n_layers = 0;

  layer = graph_layering (g);

  for (guint i = 0; i < p->n_nodes; i++)
    {
      g->node_lnode[i] = -1;
      if (node_is_attached (p, &p->nodes[i]))
        continue;
      g->node_lnode[i] = add_lnode (g, (int) i, -1, layer[i]);
      g->n_layers = MAX (g->n_layers, layer[i] + 1);
    }

  for (guint f = 0; f < p->n_flows; f++)
    {
      const WnFlow *flow = &p->flows[f];
      const WnNode *from = &p->nodes[flow->from];
      int s, t, prev;
      int rank;

      if (g->back[f])
        continue;
      s = g->node_lnode[flow_source (p, flow)];
      t = g->node_lnode[flow->to];
      if (s < 0 || t < 0)
        {
          g->back[f] = TRUE;
          continue;
        }
      rank = node_is_attached (p, from) ? boundary_rank (p, from) : -1;
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

/* ------------------------------------------------------------------------- */
/* Layout: geometry and routing                                              */

typedef struct {
  int    gap;           /* between layer gap and gap + 1 */
  double y0;
  double y1;
  int    flow;
  gboolean split;
  double x;
} Bend;

typedef struct {
  Graph   *g;
  NodeGeom *nodes;
  FlowGeom *flows;
  double  *col_left;
  double  *col_cx;
  double  *col_right;
  GArray  *bends;       /* Bend */
  GArray **bend_ids;    /* per flow: int per point, -1 or a Bend index */
  gboolean *top_used;   /* per node: a flow uses the top of the shape */
  gboolean *bottom_used;
  int     *lanes_above; /* per row: back-flow lanes in the gap above it */
  int     *lanes_below;
  int     *lanes_gap;   /* per layer: back-flow channels in the gap right of it */
} Router;

static double
row_y (int row)
{
  return row * ROW_PITCH;
}

static void
shape_half (const WnNode *node, double *hw, double *hh)
{
  if (type_is_task (node->type))
    {
      *hw = TASK_W / 2;
      *hh = TASK_H / 2;
    }
  else if (type_is_gateway (node->type))
    *hw = *hh = GATEWAY_R;
  else if (node->type == WN_NODE_BOUNDARY)
    *hw = *hh = BOUNDARY_R;
  else
    *hw = *hh = EVENT_R;
}

static void
add_point (Router *r, int flow, double x, double y, int bend)
{
  graphene_point_t pt = GRAPHENE_POINT_INIT (x, y);
  GArray *points = r->flows[flow].points;

  if (points->len > 0)
    {
      const graphene_point_t *last = &g_array_index (points, graphene_point_t, points->len - 1);
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

      if (index == except)
        continue;
      if (y + TASK_H / 2 + 6 > lo && y - TASK_H / 2 - 6 < hi)
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

  if (node_is_attached (p, from))
    {
      const NodeGeom *b = &r->nodes[from->index];
      double bottom = b->box.origin.y + b->box.size.height;
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
      const NodeGeom *n = &r->nodes[flow->from];
      double ty = row_y (first->row);

      cur_x = n->box.origin.x + n->box.size.width;
      cur_y = n->cy;
      if (type_is_gateway (from->type) && first->row != src->row &&
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
        entry_x = r->nodes[ln->node].box.origin.x;
      else
        entry_x = r->col_left[ln->layer];

      if (fabs (cur_y - ty) < 0.5)
        add_point (r, f, cur_x, cur_y, -1);
      else if (ln->node >= 0 && type_is_gateway (p->nodes[ln->node].type) &&
               !layer_blocked (r, ln->layer, t, cur_y, ty))
        {
          const NodeGeom *n = &r->nodes[ln->node];

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
  return row_y (row) - TASK_H / 2 - LANE_ABOVE - LANE_STEP * r->lanes_above[row]++;
}

static double
lane_below (Router *r, int row)
{
  return row_y (row) + TASK_H / 2 + LANE_BELOW + LANE_STEP * r->lanes_below[row]++;
}

/* Does a flow touching this gateway leave or enter it through its bottom
 * rather than its top? Only when the top is taken and the bottom is free. */
static gboolean
use_bottom (Router *r, const WnNode *node)
{
  return type_is_gateway (node->type) && r->top_used[node->index] && !r->bottom_used[node->index];
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
  const NodeGeom *u = &r->nodes[source->index];
  const NodeGeom *v = &r->nodes[target->index];
  gboolean self_loop = source == target;
  gboolean down = use_bottom (r, target);
  double sx = self_loop ? u->cx + 14 : u->cx;
  double tx = self_loop ? v->cx - 14 : v->cx;
  double lane_u, lane_v;

  if (v->layer < 0)
    return;   /* a flow into a boundary: nothing sensible to draw */

  if (node_is_attached (p, from))
    {
      const NodeGeom *b = &r->nodes[from->index];

      sx = b->cx;
      add_point (r, f, sx, b->box.origin.y + b->box.size.height, -1);
      lane_u = lane_below (r, u->row);
    }
  else if (use_bottom (r, source))
    {
      add_point (r, f, sx, u->box.origin.y + u->box.size.height, -1);
      r->bottom_used[source->index] = TRUE;
      lane_u = lane_below (r, u->row);
    }
  else
    {
      add_point (r, f, sx, u->box.origin.y, -1);
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
      add_point (r, f, tx, v->box.origin.y + v->box.size.height, -1);
      r->bottom_used[target->index] = TRUE;
    }
  else
    {
      add_point (r, f, tx, v->box.origin.y, -1);
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

  for (guint f = 0; f < r->g->process->n_flows; f++)
    {
      GArray *points = r->flows[f].points;

      for (guint k = 0; k < points->len; k++)
        {
          int bend = g_array_index (r->bend_ids[f], int, k);

          if (bend >= 0)
            g_array_index (points, graphene_point_t, k).x = g_array_index (r->bends, Bend, bend).x;
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
      graphene_point_t *pts = (graphene_point_t *) (void *) points->data;
      graphene_point_t pt = pts[i];

      if (out > 0 && fabs (pts[out - 1].x - pt.x) < 0.01 && fabs (pts[out - 1].y - pt.y) < 0.01)
        continue;
      if (out >= 2)
        {
          const graphene_point_t *a = &pts[out - 2], *b = &pts[out - 1];
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
 * where that stretch starts. */
static void
place_flow_label (FlowGeom *fg)
{
  const graphene_point_t *pts = (const graphene_point_t *) (const void *) fg->points->data;
  double w, h;

  for (guint i = 0; i + 1 < fg->points->len; i++)
    {
      const graphene_point_t *a = &pts[i], *b = &pts[i + 1];
      double room;

      if (fabs (a->y - b->y) > 0.5 || fabs (b->x - a->x) < 24)
        continue;
      room = fabs (b->x - a->x) - 12 - (i + 2 == fg->points->len ? ARROW_LEN + 2 : 0);
      text_fit (fg->label, MAX (room, 24), 1, PANGO_ALIGN_LEFT, PANGO_ELLIPSIZE_END);
      text_size (fg->label, &w, &h);
      if (b->x > a->x)
        fg->label_rect = GRAPHENE_RECT_INIT (a->x + 6, a->y - 2 - h, w, h);
      else
        fg->label_rect = GRAPHENE_RECT_INIT (a->x - 6 - w, a->y - 2 - h, w, h);
      return;
    }
  g_clear_object (&fg->label);
}

static void
rect_union (graphene_rect_t *acc, gboolean *any, const graphene_rect_t *r)
{
  if (r->size.width <= 0 && r->size.height <= 0)
    return;
  if (!*any)
    *acc = *r;
  else
    graphene_rect_union (acc, r, acc);
  *any = TRUE;
}

static void
layout_clear (WinnowDiagram *self, guint n_nodes, guint n_flows)
{
  if (self->nodes != NULL)
    {
      for (guint i = 0; i < n_nodes; i++)
        {
          g_clear_object (&self->nodes[i].label);
          g_clear_object (&self->nodes[i].topic);
        }
      g_clear_pointer (&self->nodes, g_free);
    }
  if (self->flows != NULL)
    {
      for (guint f = 0; f < n_flows; f++)
        {
          g_clear_pointer (&self->flows[f].points, g_array_unref);
          g_clear_object (&self->flows[f].label);
        }
      g_clear_pointer (&self->flows, g_free);
    }
  self->width = 0;
  self->height = 0;
}

static void
layout_process (WinnowDiagram *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  const WnProcess *p = self->process;
  Graph graph = { 0 };
  Graph *g = &graph;
  Router router = { 0 };
  g_autofree double *left_ext = NULL;
  g_autofree double *right_ext = NULL;
  g_autofree double *gap = NULL;
  graphene_rect_t bounds = GRAPHENE_RECT_INIT (0, 0, 0, 0);
  gboolean any = FALSE;
  int max_row = 0;
  double x, dx, dy;

  g_clear_pointer (&self->scene, gsk_render_node_unref);   /* stale */
  layout_clear (self, p->n_nodes, p->n_flows);
  self->nodes = g_new0 (NodeGeom, p->n_nodes);
  self->flows = g_new0 (FlowGeom, p->n_flows);

  graph_build (g, p);

  /* Texts first: their sizes shape the columns. */
  for (guint i = 0; i < p->n_nodes; i++)
    {
      const WnNode *node = &p->nodes[i];
      NodeGeom *n = &self->nodes[i];

      if (type_is_task (node->type))
        {
          gboolean glyph = node->type != WN_NODE_TASK;

          n->label = text_new (widget, node_title (node), FALSE, FALSE);
          text_fit (n->label, TASK_W - 20, glyph ? 2 : 3, PANGO_ALIGN_CENTER, PANGO_ELLIPSIZE_END);
          if (node->worker != NULL && node->worker->topic != NULL)
            {
              n->topic = text_new (widget, node->worker->topic, TRUE, FALSE);
              text_fit (n->topic, TASK_W - 26 - 8, 1, PANGO_ALIGN_LEFT, PANGO_ELLIPSIZE_MIDDLE);
            }
        }
      else if (node_is_attached (p, node))
        {
          const char *text = node->name != NULL ? node->name :
                             node->error_code != NULL ? node->error_code : node->id;

          if (node->outgoing->len > 0)
            {
              FlowGeom *fg = &self->flows[g_array_index (node->outgoing, guint, 0)];

              fg->label = text_new (widget, text, TRUE, FALSE);
              text_fit (fg->label, FLOW_LABEL_MAX, 1, PANGO_ALIGN_LEFT, PANGO_ELLIPSIZE_END);
            }
          else
            {
              n->label = text_new (widget, text, TRUE, FALSE);
              text_fit (n->label, LABEL_MAX_W, 1, PANGO_ALIGN_LEFT, PANGO_ELLIPSIZE_END);
            }
        }
      else
        {
          n->label = text_new (widget, node_title (node), TRUE, FALSE);
          text_fit (n->label, LABEL_MAX_W, type_is_gateway (node->type) ? 1 : 2,
                    type_is_gateway (node->type) ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_CENTER,
                    PANGO_ELLIPSIZE_END);
        }
    }
  for (guint f = 0; f < p->n_flows; f++)
    {
      const WnFlow *flow = &p->flows[f];
      FlowGeom *fg = &self->flows[f];

      fg->points = g_array_new (FALSE, FALSE, sizeof (graphene_point_t));
      fg->back = g->back[f];
      fg->is_default = p->nodes[flow->from].default_flow == (int) f;
      if (flow->condition != NULL && fg->label == NULL)
        {
          fg->label = text_new (widget, wn_lite_get_source (flow->condition), TRUE, FALSE);
          text_fit (fg->label, FLOW_LABEL_MAX, 1, PANGO_ALIGN_LEFT, PANGO_ELLIPSIZE_END);
        }
    }

  /* Columns. */
  left_ext = g_new0 (double, g->n_layers + 1);
  right_ext = g_new0 (double, g->n_layers + 1);
  gap = g_new0 (double, g->n_layers + 1);
  for (guint i = 0; i < g->lnodes->len; i++)
    {
      const LNode *ln = LN (g, i);
      double hw = 0, hh = 0, lw = 0, lh = 0, left, right;

      max_row = MAX (max_row, ln->row);
      if (ln->node < 0)
        continue;
      shape_half (&p->nodes[ln->node], &hw, &hh);
      left = right = hw;
      if (self->nodes[ln->node].label != NULL && !type_is_task (p->nodes[ln->node].type))
        {
          text_size (self->nodes[ln->node].label, &lw, &lh);
          if (type_is_gateway (p->nodes[ln->node].type))
            left = MAX (left, lw + 8);
          else
            left = right = MAX (hw, lw / 2 + 4);
        }
      left_ext[ln->layer] = MAX (left_ext[ln->layer], left);
      right_ext[ln->layer] = MAX (right_ext[ln->layer], right);
    }
  for (int l = 0; l < g->n_layers; l++)
    gap[l] = COL_GAP;
  for (guint f = 0; f < p->n_flows; f++)
    {
      const WnFlow *flow = &p->flows[f];
      const WnNode *from = &p->nodes[flow->from];
      const LNode *src;
      double lw, lh, start;

      if (self->flows[f].label == NULL || g->chains[f] == NULL)
        continue;
      src = LN (g, g_array_index (g->chains[f], int, 0));
      text_size (self->flows[f].label, &lw, &lh);
      if (node_is_attached (p, from))
        start = TASK_W / 2 - boundary_offset (p, from);
      else
        {
          double hw, hh;

          shape_half (from, &hw, &hh);
          start = hw;
        }
      gap[src->layer] = MAX (gap[src->layer], lw + 22 + ARROW_LEN - (right_ext[src->layer] - start));
    }
  x = 0;
  router.col_left = g_new0 (double, g->n_layers + 1);
  router.col_cx = g_new0 (double, g->n_layers + 1);
  router.col_right = g_new0 (double, g->n_layers + 1);
  for (int l = 0; l < g->n_layers; l++)
    {
      router.col_left[l] = x;
      router.col_cx[l] = x + left_ext[l];
      router.col_right[l] = router.col_cx[l] + right_ext[l];
      x = router.col_right[l] + CLAMP (gap[l], COL_GAP, COL_GAP_MAX);
    }

  /* Shapes and their texts. */
  for (guint i = 0; i < p->n_nodes; i++)
    {
      const WnNode *node = &p->nodes[i];
      NodeGeom *n = &self->nodes[i];
      double hw, hh, w, h;
      const LNode *ln;

      if (node_is_attached (p, node))
        continue;
      ln = LN (g, g->node_lnode[i]);
      shape_half (node, &hw, &hh);
      n->layer = ln->layer;
      n->row = ln->row;
      n->cx = router.col_cx[ln->layer];
      n->cy = row_y (ln->row);
      n->box = GRAPHENE_RECT_INIT (n->cx - hw, n->cy - hh, 2 * hw, 2 * hh);

      if (n->label == NULL)
        continue;
      text_size (n->label, &w, &h);
      if (type_is_task (node->type))
        {
          double top = n->box.origin.y + (node->type != WN_NODE_TASK ? TASK_HEADER : 8);
          double bottom = n->box.origin.y + TASK_H - 8;

          n->label_rect = GRAPHENE_RECT_INIT (n->cx - w / 2, (top + bottom) / 2 - h / 2, w, h);
          if (n->topic != NULL)
            {
              double tw, th;

              text_size (n->topic, &tw, &th);
              n->topic_rect = GRAPHENE_RECT_INIT (n->box.origin.x + 26, n->box.origin.y + 15 - th / 2, tw, th);
            }
        }
      else if (type_is_gateway (node->type))
        n->label_rect = GRAPHENE_RECT_INIT (n->cx - 8 - w, n->cy - 18 - h, w, h);
      else
        n->label_rect = GRAPHENE_RECT_INIT (n->cx - w / 2, n->cy + hh + 4, w, h);
    }
  for (guint i = 0; i < p->n_nodes; i++)
    {
      const WnNode *node = &p->nodes[i];
      NodeGeom *n = &self->nodes[i];
      const NodeGeom *host;

      if (!node_is_attached (p, node))
        continue;
      host = &self->nodes[node->attached_to];
      n->layer = -1;
      n->row = host->row;
      n->cx = host->box.origin.x + host->box.size.width - boundary_offset (p, node);
      n->cy = host->box.origin.y + host->box.size.height;
      n->box = GRAPHENE_RECT_INIT (n->cx - BOUNDARY_R, n->cy - BOUNDARY_R, 2 * BOUNDARY_R, 2 * BOUNDARY_R);
      if (n->label != NULL)
        {
          double w, h;

          text_size (n->label, &w, &h);
          n->label_rect = GRAPHENE_RECT_INIT (n->cx + BOUNDARY_R + 3, n->cy + 2, w, h);
        }
    }

  /* Flows. */
  router.g = g;
  router.nodes = self->nodes;
  router.flows = self->flows;
  router.bends = g_array_new (FALSE, TRUE, sizeof (Bend));
  router.bend_ids = g_new0 (GArray *, p->n_flows);
  router.top_used = g_new0 (gboolean, p->n_nodes);
  router.bottom_used = g_new0 (gboolean, p->n_nodes);
  router.lanes_above = g_new0 (int, max_row + 1);
  router.lanes_below = g_new0 (int, max_row + 1);
  router.lanes_gap = g_new0 (int, g->n_layers + 1);
  for (guint f = 0; f < p->n_flows; f++)
    {
      router.bend_ids[f] = g_array_new (FALSE, FALSE, sizeof (int));
      if (g->chains[f] != NULL)
        route_forward (&router, (int) f);
    }
  for (guint f = 0; f < p->n_flows; f++)
    if (g->chains[f] == NULL)
      route_back (&router, (int) f);
  assign_bends (&router);
  for (guint f = 0; f < p->n_flows; f++)
    {
      simplify_points (self->flows[f].points);
      if (self->flows[f].label != NULL)
        {
          if (self->flows[f].points->len >= 2)
            place_flow_label (&self->flows[f]);
          else
            g_clear_object (&self->flows[f].label);
        }
      g_array_unref (router.bend_ids[f]);
    }
  g_free (router.bend_ids);
  g_array_unref (router.bends);
  g_free (router.col_left);
  g_free (router.col_cx);
  g_free (router.col_right);
  g_free (router.top_used);
  g_free (router.bottom_used);
  g_free (router.lanes_above);
  g_free (router.lanes_below);
  g_free (router.lanes_gap);

  /* Bounds, then move everything to the margin. */
  for (guint i = 0; i < p->n_nodes; i++)
    {
      NodeGeom *n = &self->nodes[i];
      graphene_rect_t decorated;

      graphene_rect_inset_r (&n->box, -10, -12, &decorated);
      rect_union (&bounds, &any, &decorated);
      if (n->label != NULL)
        rect_union (&bounds, &any, &n->label_rect);
    }
  for (guint f = 0; f < p->n_flows; f++)
    {
      FlowGeom *fg = &self->flows[f];

      for (guint k = 0; k < fg->points->len; k++)
        {
          const graphene_point_t *pt = &g_array_index (fg->points, graphene_point_t, k);
          graphene_rect_t r = GRAPHENE_RECT_INIT (pt->x - 1, pt->y - 1, 2, 2);

          rect_union (&bounds, &any, &r);
        }
      if (fg->label != NULL)
        rect_union (&bounds, &any, &fg->label_rect);
    }

  dx = MARGIN - bounds.origin.x;
  dy = MARGIN - bounds.origin.y;
  for (guint i = 0; i < p->n_nodes; i++)
    {
      NodeGeom *n = &self->nodes[i];

      n->cx += dx;
      n->cy += dy;
      graphene_rect_offset (&n->box, dx, dy);
      graphene_rect_offset (&n->label_rect, dx, dy);
      graphene_rect_offset (&n->topic_rect, dx, dy);
    }
  for (guint f = 0; f < p->n_flows; f++)
    {
      FlowGeom *fg = &self->flows[f];

      for (guint k = 0; k < fg->points->len; k++)
        {
          graphene_point_t *pt = &g_array_index (fg->points, graphene_point_t, k);

          pt->x += dx;
          pt->y += dy;
        }
      graphene_rect_offset (&fg->label_rect, dx, dy);
    }
  self->width = ceil (bounds.size.width + 2 * MARGIN);
  self->height = ceil (bounds.size.height + 2 * MARGIN);

  graph_free (g);
}

/* ------------------------------------------------------------------------- */
/* View                                                                      */

static void
set_view (WinnowDiagram *self, double zoom, double off_x, double off_y)
{
  double w = gtk_widget_get_width (GTK_WIDGET (self));
  double h = gtk_widget_get_height (GTK_WIDGET (self));
  gboolean zoom_changed;

  zoom = CLAMP (zoom, WINNOW_DIAGRAM_MIN_ZOOM, WINNOW_DIAGRAM_MAX_ZOOM);
  if (self->process != NULL && w > 0 && h > 0)
    {
      double cw = self->width * zoom, ch = self->height * zoom;
      double keep_x = MIN (64.0, MIN (cw, w)), keep_y = MIN (64.0, MIN (ch, h));

      off_x = CLAMP (off_x, keep_x - cw, w - keep_x);
      off_y = CLAMP (off_y, keep_y - ch, h - keep_y);
    }

  zoom_changed = zoom != self->zoom;
  if (!zoom_changed && off_x == self->off_x && off_y == self->off_y)
    return;
  self->zoom = zoom;
  self->off_x = off_x;
  self->off_y = off_y;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (zoom_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
}

static void
zoom_at (WinnowDiagram *self, double zoom, double px, double py)
{
  double mx = (px - self->off_x) / self->zoom;
  double my = (py - self->off_y) / self->zoom;

  zoom = CLAMP (zoom, WINNOW_DIAGRAM_MIN_ZOOM, WINNOW_DIAGRAM_MAX_ZOOM);
  set_view (self, zoom, px - mx * zoom, py - my * zoom);
}

static void
apply_fit (WinnowDiagram *self)
{
  double w = gtk_widget_get_width (GTK_WIDGET (self));
  double h = gtk_widget_get_height (GTK_WIDGET (self));
  double zoom;

  if (self->process == NULL || w <= 0 || h <= 0 || self->width <= 0 || self->height <= 0)
    return;
  zoom = MIN (w / self->width, h / self->height);
  zoom = CLAMP (zoom, WINNOW_DIAGRAM_MIN_ZOOM, FIT_MAX_ZOOM);
  set_view (self, zoom, (w - self->width * zoom) / 2, (h - self->height * zoom) / 2);
}

static void
to_model (WinnowDiagram *self, double wx, double wy, double *mx, double *my)
{
  *mx = (wx - self->off_x) / self->zoom;
  *my = (wy - self->off_y) / self->zoom;
}

static gboolean
shape_contains (const WnNode *node, const NodeGeom *n, double x, double y, double slop)
{
  double dx = x - n->cx, dy = y - n->cy;

  if (type_is_task (node->type))
    return x >= n->box.origin.x - slop && x <= n->box.origin.x + n->box.size.width + slop &&
           y >= n->box.origin.y - slop && y <= n->box.origin.y + n->box.size.height + slop;
  if (type_is_gateway (node->type))
    return fabs (dx) + fabs (dy) <= GATEWAY_R + slop;
  return sqrt (dx * dx + dy * dy) <= n->box.size.width / 2 + slop;
}

static int
hit_node (WinnowDiagram *self, double wx, double wy)
{
  const WnProcess *p = self->process;
  double x, y, slop;

  if (p == NULL)
    return -1;
  to_model (self, wx, wy, &x, &y);
  slop = CLICK_SLOP / self->zoom;

  for (guint i = 0; i < p->n_nodes; i++)
    if (node_is_attached (p, &p->nodes[i]) && shape_contains (&p->nodes[i], &self->nodes[i], x, y, slop))
      return (int) i;
  for (guint i = 0; i < p->n_nodes; i++)
    {
      const NodeGeom *n = &self->nodes[i];

      if (node_is_attached (p, &p->nodes[i]))
        continue;
      if (shape_contains (&p->nodes[i], n, x, y, slop))
        return (int) i;
      if (n->label != NULL && !type_is_task (p->nodes[i].type) &&
          graphene_rect_contains_point (&n->label_rect, &GRAPHENE_POINT_INIT (x, y)))
        return (int) i;
    }
  return -1;
}

static int
hit_flow_label (WinnowDiagram *self, double wx, double wy)
{
  double x, y;

  if (self->process == NULL)
    return -1;
  to_model (self, wx, wy, &x, &y);
  for (guint f = 0; f < self->process->n_flows; f++)
    if (self->flows[f].label != NULL &&
        graphene_rect_contains_point (&self->flows[f].label_rect, &GRAPHENE_POINT_INIT (x, y)))
      return (int) f;
  return -1;
}

static void
update_cursor (WinnowDiagram *self)
{
  const char *name = NULL;

  if (self->dragging)
    name = "grabbing";
  else if (self->hover >= 0)
    name = "pointer";
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), name);
}

static void
set_hover (WinnowDiagram *self, int hover)
{
  if (self->hover == hover)
    return;
  self->hover = hover;
  update_cursor (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ------------------------------------------------------------------------- */
/* Drawing                                                                   */

static void
palette_init (WinnowDiagram *self, Palette *pal)
{
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());

  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &pal->fg);
  gdk_rgba_parse (&pal->fill, dark ? "#333338" : "#ffffff");
  winnow_paint_lookup_color (widget, "accent_bg_color", &pal->accent);
  winnow_paint_lookup_color (widget, "success_color", &pal->start);
  winnow_paint_lookup_color (widget, "error_color", &pal->error);
  /* The state colours of the app's stylesheet, when it is loaded. */
  winnow_paint_lookup_color (widget, "winnow_active", &pal->active);
  winnow_paint_lookup_color (widget, "winnow_parked", &pal->parked);
  winnow_paint_lookup_color (widget, "winnow_incident", &pal->incident);
  gdk_rgba_parse (&pal->badge_text, dark ? "rgba(0,0,0,0.85)" : "#ffffff");
  gdk_rgba_parse (&pal->breakpoint, dark ? "#ff4d4d" : "#e01b24");
}

static void
path_diamond (cairo_t *cr, double cx, double cy, double r)
{
  cairo_move_to (cr, cx, cy - r);
  cairo_line_to (cr, cx + r, cy);
  cairo_line_to (cr, cx, cy + r);
  cairo_line_to (cr, cx - r, cy);
  cairo_close_path (cr);
}

static void
path_circle (cairo_t *cr, double cx, double cy, double r)
{
  cairo_new_sub_path (cr);
  cairo_arc (cr, cx, cy, r, 0, 2 * G_PI);
  cairo_close_path (cr);
}

/* The outline of a node grown by `grow`, for selection and hover rings. */
static void
path_node_outline (cairo_t *cr, const WnNode *node, const NodeGeom *n, double grow)
{
  if (type_is_task (node->type))
    winnow_paint_rounded_rect (cr, n->box.origin.x - grow, n->box.origin.y - grow,
                               n->box.size.width + 2 * grow, n->box.size.height + 2 * grow,
                               TASK_RADIUS + grow);
  else if (type_is_gateway (node->type))
    path_diamond (cr, n->cx, n->cy, GATEWAY_R + grow * G_SQRT2);
  else
    path_circle (cr, n->cx, n->cy, n->box.size.width / 2 + grow);
}

static void
path_bolt (cairo_t *cr, double cx, double cy, double s)
{
  static const double pts[][2] = {
    {  0.22, -0.68 }, { -0.38,  0.10 }, { -0.02,  0.10 },
    { -0.22,  0.68 }, {  0.38, -0.10 }, {  0.02, -0.10 },
  };

  cairo_move_to (cr, cx + pts[0][0] * s, cy + pts[0][1] * s);
  for (guint i = 1; i < G_N_ELEMENTS (pts); i++)
    cairo_line_to (cr, cx + pts[i][0] * s, cy + pts[i][1] * s);
  cairo_close_path (cr);
}

static void
draw_gear (cairo_t *cr, const Palette *pal, double cx, double cy, double r)
{
  const int teeth = 8;
  const double step = 2 * G_PI / teeth;
  const double inner = r * 0.74;

  for (int i = 0; i < teeth; i++)
    {
      double a = i * step - G_PI / 2;

      if (i == 0)
        cairo_move_to (cr, cx + inner * cos (a - 0.5 * step), cy + inner * sin (a - 0.5 * step));
      cairo_line_to (cr, cx + inner * cos (a - 0.26 * step), cy + inner * sin (a - 0.26 * step));
      cairo_line_to (cr, cx + r * cos (a - 0.16 * step), cy + r * sin (a - 0.16 * step));
      cairo_line_to (cr, cx + r * cos (a + 0.16 * step), cy + r * sin (a + 0.16 * step));
      cairo_line_to (cr, cx + inner * cos (a + 0.26 * step), cy + inner * sin (a + 0.26 * step));
      cairo_line_to (cr, cx + inner * cos (a + 0.5 * step), cy + inner * sin (a + 0.5 * step));
    }
  cairo_close_path (cr);
  path_circle (cr, cx, cy, r * 0.32);
  cairo_set_line_width (cr, 1.2);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  winnow_paint_set_color (cr, &pal->fg, 0.7);
  cairo_stroke (cr);
}

static void
draw_script_glyph (cairo_t *cr, const Palette *pal, double x, double y)
{
  winnow_paint_rounded_rect (cr, x, y, 11, 14, 1.5);
  for (int i = 0; i < 3; i++)
    {
      cairo_move_to (cr, x + 2.5, y + 4 + 3 * i);
      cairo_line_to (cr, x + 8.5, y + 4 + 3 * i);
    }
  cairo_set_line_width (cr, 1.1);
  winnow_paint_set_color (cr, &pal->fg, 0.7);
  cairo_stroke (cr);
}

static void
draw_clock (cairo_t *cr, const Palette *pal, double cx, double cy, double r)
{
  path_circle (cr, cx, cy, r);
  for (int i = 0; i < 12; i++)
    {
      double a = i * G_PI / 6;

      cairo_move_to (cr, cx + (r - 2.2) * cos (a), cy + (r - 2.2) * sin (a));
      cairo_line_to (cr, cx + r * cos (a), cy + r * sin (a));
    }
  cairo_set_line_width (cr, 1.0);
  winnow_paint_set_color (cr, &pal->fg, 0.75);
  cairo_stroke (cr);

  cairo_move_to (cr, cx, cy - r * 0.7);
  cairo_line_to (cr, cx, cy);
  cairo_line_to (cr, cx + r * 0.5, cy + r * 0.1);
  cairo_set_line_width (cr, 1.4);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  cairo_stroke (cr);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_BUTT);
}

static void
draw_node (cairo_t       *cr,
           const Palette *pal,
           const WnNode  *node,
           const NodeGeom *n)
{
  double x = n->box.origin.x, y = n->box.origin.y;

  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  switch (node->type)
    {
    case WN_NODE_TASK:
    case WN_NODE_SCRIPT:
    case WN_NODE_SERVICE:
      winnow_paint_rounded_rect (cr, x, y, n->box.size.width, n->box.size.height, TASK_RADIUS);
      winnow_paint_set_color (cr, &pal->fill, 1);
      cairo_fill_preserve (cr);
      cairo_set_line_width (cr, 1.5);
      winnow_paint_set_color (cr, &pal->fg, 0.72);
      cairo_stroke (cr);
      if (node->type == WN_NODE_SERVICE)
        draw_gear (cr, pal, x + 15, y + 15, 7);
      else if (node->type == WN_NODE_SCRIPT)
        draw_script_glyph (cr, pal, x + 9, y + 8);
      break;

    case WN_NODE_START:
      path_circle (cr, n->cx, n->cy, EVENT_R);
      winnow_paint_set_color (cr, &pal->fill, 1);
      cairo_fill_preserve (cr);
      cairo_set_line_width (cr, 2.0);
      winnow_paint_set_color (cr, &pal->start, 1);
      cairo_stroke (cr);
      break;

    case WN_NODE_END:
      path_circle (cr, n->cx, n->cy, EVENT_R - 1.75);
      winnow_paint_set_color (cr, &pal->fill, 1);
      cairo_fill_preserve (cr);
      cairo_set_line_width (cr, 3.5);
      if (node->error_code != NULL)
        winnow_paint_set_color (cr, &pal->error, 1);
      else
        winnow_paint_set_color (cr, &pal->fg, 0.85);
      cairo_stroke (cr);
      if (node->error_code != NULL)
        {
          path_bolt (cr, n->cx, n->cy, 17);
          winnow_paint_set_color (cr, &pal->error, 1);
          cairo_fill (cr);
        }
      break;

    case WN_NODE_TIMER:
      path_circle (cr, n->cx, n->cy, EVENT_R);
      winnow_paint_set_color (cr, &pal->fill, 1);
      cairo_fill_preserve (cr);
      cairo_set_line_width (cr, 1.5);
      winnow_paint_set_color (cr, &pal->fg, 0.8);
      cairo_stroke (cr);
      path_circle (cr, n->cx, n->cy, EVENT_R - 3.5);
      cairo_stroke (cr);
      draw_clock (cr, pal, n->cx, n->cy, EVENT_R - 7);
      break;

    case WN_NODE_BOUNDARY:
      path_circle (cr, n->cx, n->cy, n->box.size.width / 2);
      winnow_paint_set_color (cr, &pal->fill, 1);
      cairo_fill_preserve (cr);
      cairo_set_line_width (cr, 1.5);
      winnow_paint_set_color (cr, &pal->fg, 0.8);
      cairo_stroke (cr);
      path_circle (cr, n->cx, n->cy, n->box.size.width / 2 - 3);
      cairo_stroke (cr);
      path_bolt (cr, n->cx, n->cy, n->box.size.width / 2 - 1);
      cairo_set_line_width (cr, 1.2);
      cairo_stroke (cr);
      break;

    case WN_NODE_EXCLUSIVE:
    case WN_NODE_PARALLEL:
      path_diamond (cr, n->cx, n->cy, GATEWAY_R);
      winnow_paint_set_color (cr, &pal->fill, 1);
      cairo_fill_preserve (cr);
      cairo_set_line_width (cr, 1.5);
      winnow_paint_set_color (cr, &pal->fg, 0.72);
      cairo_stroke (cr);
      cairo_set_line_width (cr, 3.5);
      cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
      winnow_paint_set_color (cr, &pal->fg, 0.85);
      if (node->type == WN_NODE_EXCLUSIVE)
        {
          cairo_move_to (cr, n->cx - 7, n->cy - 7);
          cairo_line_to (cr, n->cx + 7, n->cy + 7);
          cairo_move_to (cr, n->cx + 7, n->cy - 7);
          cairo_line_to (cr, n->cx - 7, n->cy + 7);
        }
      else
        {
          cairo_move_to (cr, n->cx, n->cy - 10);
          cairo_line_to (cr, n->cx, n->cy + 10);
          cairo_move_to (cr, n->cx - 10, n->cy);
          cairo_line_to (cr, n->cx + 10, n->cy);
        }
      cairo_stroke (cr);
      cairo_set_line_cap (cr, CAIRO_LINE_CAP_BUTT);
      break;

    default:
      path_circle (cr, n->cx, n->cy, n->box.size.width / 2);
      winnow_paint_set_color (cr, &pal->fg, 0.8);
      cairo_stroke (cr);
      break;
    }
}

static void
draw_node_texts (cairo_t        *cr,
                 const Palette  *pal,
                 const WnNode   *node,
                 const NodeGeom *n)
{
  if (n->label != NULL)
    {
      winnow_paint_set_color (cr, &pal->fg, type_is_task (node->type) ? 1.0 : 0.75);
      text_draw (cr, n->label, n->label_rect.origin.x, n->label_rect.origin.y);
    }
  if (n->topic != NULL)
    {
      winnow_paint_set_color (cr, &pal->fg, 0.6);
      text_draw (cr, n->topic, n->topic_rect.origin.x, n->topic_rect.origin.y);
    }
}

/* A polyline with rounded corners. */
static void
path_polyline (cairo_t *cr, const graphene_point_t *pts, guint n)
{
  cairo_move_to (cr, pts[0].x, pts[0].y);
  for (guint i = 1; i + 1 < n; i++)
    {
      const graphene_point_t *a = &pts[i - 1], *b = &pts[i], *c = &pts[i + 1];
      double d1 = hypot (b->x - a->x, b->y - a->y);
      double d2 = hypot (c->x - b->x, c->y - b->y);
      double r = MIN (CORNER_R, MIN (d1, d2) / 2);
      double ax, ay, cx, cy;

      if (r < 0.5 || d1 < 0.01 || d2 < 0.01)
        {
          cairo_line_to (cr, b->x, b->y);
          continue;
        }
      ax = b->x - (b->x - a->x) / d1 * r;
      ay = b->y - (b->y - a->y) / d1 * r;
      cx = b->x + (c->x - b->x) / d2 * r;
      cy = b->y + (c->y - b->y) / d2 * r;
      cairo_line_to (cr, ax, ay);
      cairo_curve_to (cr,
                      ax + (b->x - ax) * 0.55, ay + (b->y - ay) * 0.55,
                      cx + (b->x - cx) * 0.55, cy + (b->y - cy) * 0.55,
                      cx, cy);
    }
  cairo_line_to (cr, pts[n - 1].x, pts[n - 1].y);
}

static void
draw_flow (cairo_t        *cr,
           const FlowGeom *fg,
           const GdkRGBA  *color,
           double          alpha,
           double          width)
{
  g_autofree graphene_point_t *pts = NULL;
  guint n = fg->points->len;
  graphene_point_t tip;
  double dx, dy, len;

  if (n < 2)
    return;
  pts = g_memdup2 (fg->points->data, n * sizeof (graphene_point_t));
  tip = pts[n - 1];
  dx = tip.x - pts[n - 2].x;
  dy = tip.y - pts[n - 2].y;
  len = hypot (dx, dy);
  if (len < 0.01)
    return;
  dx /= len;
  dy /= len;
  pts[n - 1].x = tip.x - dx * (ARROW_LEN - 1);
  pts[n - 1].y = tip.y - dy * (ARROW_LEN - 1);

  winnow_paint_set_color (cr, color, alpha);
  cairo_set_line_width (cr, width);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  if (fg->back)
    {
      static const double dashes[] = { 5.0, 3.0 };

      cairo_set_dash (cr, dashes, G_N_ELEMENTS (dashes), 0);
    }
  path_polyline (cr, pts, n);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);

  cairo_move_to (cr, tip.x, tip.y);
  cairo_line_to (cr, tip.x - dx * ARROW_LEN - dy * ARROW_HALF, tip.y - dy * ARROW_LEN + dx * ARROW_HALF);
  cairo_line_to (cr, tip.x - dx * ARROW_LEN + dy * ARROW_HALF, tip.y - dy * ARROW_LEN - dx * ARROW_HALF);
  cairo_close_path (cr);
  cairo_fill (cr);

  if (fg->is_default)
    {
      /* On the flow's own stretch: a vertical start may be shared. */
      guint k = n > 2 && fabs (pts[0].x - pts[1].x) < 0.5 ? 1 : 0;
      const graphene_point_t *a = &pts[k], *b = &pts[k + 1];
      double sl = hypot (b->x - a->x, b->y - a->y);
      double ux, uy, qx, qy;

      if (sl > 20)
        {
          ux = (b->x - a->x) / sl;
          uy = (b->y - a->y) / sl;
          qx = a->x + ux * (k == 1 ? 14 : 10);
          qy = a->y + uy * (k == 1 ? 14 : 10);
          cairo_move_to (cr, qx - ux * 3 + uy * 6, qy - uy * 3 - ux * 6);
          cairo_line_to (cr, qx + ux * 3 - uy * 6, qy + uy * 3 + ux * 6);
          cairo_set_line_width (cr, 1.5);
          cairo_stroke (cr);
        }
    }
}

typedef enum {
  BADGE_ACTIVE,
  BADGE_PARKED,
  BADGE_INCIDENT,
} BadgeKind;

static double
badge_width (PangoLayout *layout, guint count)
{
  char text[16];
  double tw, th;

  g_snprintf (text, sizeof text, "%u", count);
  pango_layout_set_text (layout, text, -1);
  text_size (layout, &tw, &th);
  return 6 + 9 + 4 + tw + 7;
}

/* Draws a pill starting at `x`, centred on `cy`; returns where the next one goes. */
static double
draw_badge (cairo_t       *cr,
            const Palette *pal,
            PangoLayout   *layout,
            double         x,
            double         cy,
            BadgeKind      kind,
            guint          count)
{
  const GdkRGBA *color = kind == BADGE_PARKED ? &pal->parked :
                         kind == BADGE_INCIDENT ? &pal->incident : &pal->active;
  double h = kind == BADGE_PARKED ? 20 : 18;
  double w = badge_width (layout, count);   /* and sets its text */
  double tw, th, gx;

  text_size (layout, &tw, &th);
  winnow_paint_rounded_rect (cr, x, cy - h / 2, w, h, h / 2);
  winnow_paint_set_color (cr, &pal->fill, 1);
  cairo_set_line_width (cr, 3);
  cairo_stroke_preserve (cr);
  winnow_paint_set_color (cr, color, 1);
  cairo_fill (cr);

  gx = x + 6;
  winnow_paint_set_color (cr, &pal->badge_text, 1);
  switch (kind)
    {
    case BADGE_ACTIVE:
      path_circle (cr, gx + 4.5, cy, 3.5);
      cairo_fill (cr);
      break;
    case BADGE_PARKED:
      cairo_rectangle (cr, gx + 1.5, cy - 5, 2.4, 10);
      cairo_rectangle (cr, gx + 5.5, cy - 5, 2.4, 10);
      cairo_fill (cr);
      break;
    case BADGE_INCIDENT:
      cairo_move_to (cr, gx + 4.5, cy - 5.5);
      cairo_line_to (cr, gx + 9.5, cy + 4.5);
      cairo_line_to (cr, gx - 0.5, cy + 4.5);
      cairo_close_path (cr);
      cairo_fill (cr);
      winnow_paint_set_color (cr, color, 1);
      cairo_rectangle (cr, gx + 3.8, cy - 2.2, 1.4, 3.6);
      cairo_rectangle (cr, gx + 3.8, cy + 2.2, 1.4, 1.3);
      cairo_fill (cr);
      winnow_paint_set_color (cr, &pal->badge_text, 1);
      break;
    default:
      break;
    }
  text_draw (cr, layout, gx + 9 + 4, cy - th / 2);
  return x + w + 3;
}

/* The width of a node's badges, each pill and the gap after it; 0 without any. */
static double
badges_width (PangoLayout *badge_layout, const NodeState *st)
{
  const guint counts[] = { st->active, st->parked, st->incident };
  double total = 0;

  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    if (counts[i] > 0)
      total += badge_width (badge_layout, counts[i]) + 3;
  return total;
}

/* Where badges `total` wide start (x) and their centre line (cy): at the
 * top-right corner, growing left on tasks, right on the small shapes, whose
 * labels sit to their left. */
static void
badge_anchor (const WnNode *node, const NodeGeom *n, double total, double *x, double *cy)
{
  if (type_is_task (node->type))
    {
      *x = n->box.origin.x + n->box.size.width + 8 - total;
      *cy = n->box.origin.y;
    }
  else if (type_is_gateway (node->type))
    {
      *x = n->cx + 6;
      *cy = n->box.origin.y + 2;
    }
  else
    {
      *x = n->cx + n->box.size.width * 0.25;
      *cy = n->box.origin.y + 1;
    }
}

/* The badges (badges_width() gives `total`) and the breakpoint, at the top-left. */
static void
draw_decorations (cairo_t         *cr,
                  const Palette   *pal,
                  PangoLayout     *badge_layout,
                  const WnNode    *node,
                  const NodeGeom  *n,
                  const NodeState *st,
                  double           total)
{
  const guint counts[] = { st->active, st->parked, st->incident };
  const BadgeKind kinds[] = { BADGE_ACTIVE, BADGE_PARKED, BADGE_INCIDENT };
  gboolean task = type_is_task (node->type);
  double x, cy;

  if (total > 0)
    {
      badge_anchor (node, n, total, &x, &cy);
      for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
        if (counts[i] > 0)
          x = draw_badge (cr, pal, badge_layout, x, cy, kinds[i], counts[i]);
    }

  if (st->breakpoint)
    {
      double bx, by;

      if (task)
        {
          bx = n->box.origin.x + 1;
          by = n->box.origin.y + 1;
        }
      else if (type_is_gateway (node->type))
        {
          bx = n->cx - GATEWAY_R / 2 - 1;
          by = n->cy - GATEWAY_R / 2 - 1;
        }
      else
        {
          bx = n->cx - n->box.size.width / 2 * G_SQRT2 / 2;
          by = n->cy - n->box.size.height / 2 * G_SQRT2 / 2;
        }
      path_circle (cr, bx, by, 6);
      winnow_paint_set_color (cr, &pal->fill, 1);
      cairo_set_line_width (cr, 2.5);
      cairo_stroke_preserve (cr);
      winnow_paint_set_color (cr, &pal->breakpoint, 1);
      cairo_fill (cr);
    }
}

static gboolean
flow_touches (const WnProcess *p, guint f, int node)
{
  const WnFlow *flow = &p->flows[f];

  return node >= 0 && ((int) flow->from == node || (int) flow->to == node);
}

/* Where a node's badges (`total` wide) and breakpoint are drawn (diagram
 * coordinates), as draw_decorations() places them; FALSE when it has none. */
static gboolean
decorations_bounds (const WnNode    *node,
                    const NodeGeom  *n,
                    const NodeState *st,
                    double           total,
                    graphene_rect_t *bounds)
{
  double x, cy;
  double x0 = G_MAXDOUBLE, y0 = G_MAXDOUBLE, x1 = -G_MAXDOUBLE, y1 = -G_MAXDOUBLE;

  if (total > 0)
    {
      badge_anchor (node, n, total, &x, &cy);
      /* pills up to 20 high, stroked 3 wide */
      x0 = x - 2;
      x1 = x + total + 2;
      y0 = cy - 12;
      y1 = cy + 12;
    }
  if (st->breakpoint)
    {
      /* a circle of radius 6 (stroked 2.5) around a point inside the box's corner */
      x0 = MIN (x0, n->box.origin.x - 12);
      y0 = MIN (y0, n->box.origin.y - 12);
      x1 = MAX (x1, n->cx + 12);
      y1 = MAX (y1, n->cy + 12);
    }
  if (x0 >= x1)
    return FALSE;
  graphene_rect_init (bounds, x0, y0, x1 - x0, y1 - y0);
  return TRUE;
}

/* The diagram without its badges, in widget coordinates. */
static GskRenderNode *
make_scene (WinnowDiagram *self,
            const Palette *pal,
            int            selected,
            double         w,
            double         h)
{
  const WnProcess *p = self->process;
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  cairo_t *cr;

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
  cairo_translate (cr, self->off_x, self->off_y);
  cairo_scale (cr, self->zoom, self->zoom);

  /* Flows under the nodes; the selected node's on top of the others. */
  for (guint f = 0; f < p->n_flows; f++)
    if (!flow_touches (p, f, selected))
      draw_flow (cr, &self->flows[f], &pal->fg, 0.5, 1.4);
  for (guint f = 0; f < p->n_flows; f++)
    if (flow_touches (p, f, selected))
      draw_flow (cr, &self->flows[f], &pal->accent, 1.0, 2.0);
  for (guint f = 0; f < p->n_flows; f++)
    {
      const FlowGeom *fg = &self->flows[f];

      if (fg->label == NULL)
        continue;
      if (flow_touches (p, f, selected))
        winnow_paint_set_color (cr, &pal->accent, 1);
      else
        winnow_paint_set_color (cr, &pal->fg, 0.7);
      text_draw (cr, fg->label, fg->label_rect.origin.x, fg->label_rect.origin.y);
    }

  for (int pass = 0; pass < 2; pass++)
    for (guint i = 0; i < p->n_nodes; i++)
      {
        const WnNode *node = &p->nodes[i];

        if (node_is_attached (p, node) != (pass == 1))
          continue;
        if ((int) i == self->hover && (int) i != selected)
          {
            path_node_outline (cr, node, &self->nodes[i], 3);
            winnow_paint_set_color (cr, &pal->accent, 0.4);
            cairo_set_line_width (cr, 2);
            cairo_stroke (cr);
          }
        draw_node (cr, pal, node, &self->nodes[i]);
        draw_node_texts (cr, pal, node, &self->nodes[i]);
        if ((int) i == selected)
          {
            path_node_outline (cr, node, &self->nodes[i], 3.5);
            winnow_paint_set_color (cr, &pal->accent, 1);
            cairo_set_line_width (cr, 2.5);
            cairo_stroke (cr);
          }
      }
  cairo_destroy (cr);
  return gtk_snapshot_free_to_node (snapshot);
}

static void
winnow_diagram_snapshot (GtkWidget   *widget,
                         GtkSnapshot *snapshot)
{
  WinnowDiagram *self = WINNOW_DIAGRAM (widget);
  const WnProcess *p = self->process;
  double w = gtk_widget_get_width (widget);
  double h = gtk_widget_get_height (widget);
  g_autoptr(PangoLayout) badge_layout = NULL;
  int selected;
  Palette pal;

  if (p == NULL || self->nodes == NULL || w <= 0 || h <= 0)
    return;

  memset (&pal, 0, sizeof pal);
  palette_init (self, &pal);
  selected = node_index (p, self->selected);

  if (self->scene == NULL || self->scene_key.w != w || self->scene_key.h != h ||
      self->scene_key.zoom != self->zoom || self->scene_key.off_x != self->off_x ||
      self->scene_key.off_y != self->off_y || self->scene_key.hover != self->hover ||
      self->scene_key.selected != selected ||
      memcmp (&self->scene_key.pal, &pal, sizeof pal) != 0)
    {
      g_clear_pointer (&self->scene, gsk_render_node_unref);
      self->scene = make_scene (self, &pal, selected, w, h);
      self->scene_key.w = w;
      self->scene_key.h = h;
      self->scene_key.zoom = self->zoom;
      self->scene_key.off_x = self->off_x;
      self->scene_key.off_y = self->off_y;
      self->scene_key.hover = self->hover;
      self->scene_key.selected = selected;
      self->scene_key.pal = pal;
    }
  if (self->scene != NULL)
    gtk_snapshot_append_node (snapshot, self->scene);

  /* Each node's badges apart: when a count moves, only its pills are new. */
  badge_layout = text_new (widget, "", TRUE, TRUE);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (self->off_x, self->off_y));
  gtk_snapshot_scale (snapshot, self->zoom, self->zoom);
  for (guint i = 0; i < p->n_nodes; i++)
    {
      double total = badges_width (badge_layout, &self->states[i]);
      graphene_rect_t bounds;
      cairo_t *cr;

      if (!decorations_bounds (&p->nodes[i], &self->nodes[i], &self->states[i], total, &bounds))
        continue;
      cr = gtk_snapshot_append_cairo (snapshot, &bounds);
      draw_decorations (cr, &pal, badge_layout, &p->nodes[i], &self->nodes[i], &self->states[i], total);
      cairo_destroy (cr);
    }
  gtk_snapshot_restore (snapshot);
}

/* ------------------------------------------------------------------------- */
/* Tooltips                                                                  */

static void
append_policy (GString *text, const WnProcess *p, const WnWorkerSpec *worker)
{
  g_autoptr(WnPolicy) policy = wn_policy_resolve (&worker->policy, &p->engine.policy);
  g_autofree char *retry = wn_retry_policy_describe (&policy->retry);
  const char *trust_note = worker->policy.trust != WN_TRUST_UNSET ? "" :
                           p->engine.policy.trust != WN_TRUST_UNSET ? _(" (process)") : _(" (default)");
  const char *retry_note = worker->policy.has_retry ? "" :
                           p->engine.policy.has_retry ? _(" (process)") : _(" (default)");
  g_autofree char *line = NULL;

  line = g_markup_printf_escaped (_("\nTrust: %s%s\nRetry: %s%s"),
                                  wn_trust_to_string (policy->trust), trust_note,
                                  retry, retry_note);
  g_string_append (text, line);
}

static char *
node_tooltip (WinnowDiagram *self, guint index)
{
  const WnProcess *p = self->process;
  const WnNode *node = &p->nodes[index];
  const NodeState *st = &self->states[index];
  GString *text = g_string_new (NULL);
  g_autofree char *head = NULL;

  head = g_markup_printf_escaped ("<b>%s</b>\n%s · <tt>%s</tt>",
                                  node_title (node), node_type_label (node), node->id);
  g_string_append (text, head);

  if (node->worker != NULL)
    {
      g_autofree char *topic = g_markup_printf_escaped (_("\nTopic: <tt>%s</tt>"), node->worker->topic);

      g_string_append (text, topic);
      append_policy (text, p, node->worker);
    }
  if (node->type == WN_NODE_BOUNDARY && node->error_code != NULL)
    {
      g_autofree char *line = NULL;

      if (node_is_attached (p, node))
        line = g_markup_printf_escaped (_("\nCatches error <tt>%s</tt> on %s"),
                                        node->error_code, node_title (&p->nodes[node->attached_to]));
      else
        line = g_markup_printf_escaped (_("\nCatches error <tt>%s</tt>"), node->error_code);
      g_string_append (text, line);
    }
  if (node->type == WN_NODE_END && node->error_code != NULL)
    {
      g_autofree char *line = g_markup_printf_escaped (_("\nThrows error <tt>%s</tt>"), node->error_code);

      g_string_append (text, line);
    }
  if (node->duration > 0 &&
      (node->type == WN_NODE_TIMER || (type_is_task (node->type) && node->worker == NULL)))
    {
      g_autofree char *duration = wn_duration_format (node->duration);
      g_autofree char *line = g_markup_printf_escaped (_("\nDuration: %s"), duration);

      g_string_append (text, line);
    }
  if (node->type == WN_NODE_EXCLUSIVE && node->default_flow >= 0)
    {
      g_autofree char *line = g_markup_printf_escaped (_("\nDefault flow: <tt>%s</tt>"),
                                                       p->flows[node->default_flow].id);

      g_string_append (text, line);
    }
  if (st->active > 0)
    {
      g_string_append_c (text, '\n');
      g_string_append_printf (text, ngettext ("● %u active token", "● %u active tokens", st->active),
                              st->active);
    }
  if (st->parked > 0)
    {
      g_string_append_c (text, '\n');
      g_string_append_printf (text, ngettext ("‖ %u parked token", "‖ %u parked tokens", st->parked),
                              st->parked);
    }
  if (st->incident > 0)
    {
      g_string_append_c (text, '\n');
      g_string_append_printf (text, ngettext ("⚠ %u incident", "⚠ %u incidents", st->incident),
                              st->incident);
    }
  if (st->breakpoint)
    {
      g_string_append_c (text, '\n');
      g_string_append (text, _("Breakpoint"));
    }

  return g_string_free (text, FALSE);
}

static gboolean
winnow_diagram_query_tooltip (GtkWidget  *widget,
                              int         x,
                              int         y,
                              gboolean    keyboard_mode,
                              GtkTooltip *tooltip)
{
  WinnowDiagram *self = WINNOW_DIAGRAM (widget);
  const WnProcess *p = self->process;
  g_autofree char *markup = NULL;
  graphene_rect_t area;
  GdkRectangle tip;
  int node, flow = -1;

  if (p == NULL)
    return FALSE;

  node = keyboard_mode ? node_index (p, self->selected) : hit_node (self, x, y);
  if (node < 0 && !keyboard_mode)
    flow = hit_flow_label (self, x, y);

  if (node >= 0)
    {
      markup = node_tooltip (self, (guint) node);
      area = self->nodes[node].box;
    }
  else if (flow >= 0)
    {
      const WnFlow *f = &p->flows[flow];

      if (f->condition != NULL)
        markup = g_markup_printf_escaped (_("Flow <tt>%s</tt>\nCondition: <tt>%s</tt>"),
                                          f->id, wn_lite_get_source (f->condition));
      else
        markup = g_markup_printf_escaped (_("Flow <tt>%s</tt> from %s"),
                                          f->id, node_title (&p->nodes[f->from]));
      area = self->flows[flow].label_rect;
    }
  else
    return FALSE;

  gtk_tooltip_set_markup (tooltip, markup);
  tip.x = (int) floor (area.origin.x * self->zoom + self->off_x);
  tip.y = (int) floor (area.origin.y * self->zoom + self->off_y);
  tip.width = (int) ceil (area.size.width * self->zoom);
  tip.height = (int) ceil (area.size.height * self->zoom);
  gtk_tooltip_set_tip_area (tooltip, &tip);
  return TRUE;
}

/* ------------------------------------------------------------------------- */
/* Callbacks                                                                 */

static void
motion_cb (GtkEventControllerMotion *motion,
           double                    x,
           double                    y,
           WinnowDiagram            *self)
{
  self->has_pointer = TRUE;
  self->pointer_x = x;
  self->pointer_y = y;
  if (!self->dragging)
    set_hover (self, hit_node (self, x, y));
}

static void
leave_cb (GtkEventControllerMotion *motion,
          WinnowDiagram            *self)
{
  self->has_pointer = FALSE;
  set_hover (self, -1);
}

static gboolean
scroll_cb (GtkEventControllerScroll *scroll,
           double                    dx,
           double                    dy,
           WinnowDiagram            *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (scroll));
  gboolean wheel = gtk_event_controller_scroll_get_unit (scroll) == GDK_SCROLL_UNIT_WHEEL;

  if (self->process == NULL)
    return FALSE;

  self->auto_fit = FALSE;
  if (state & GDK_CONTROL_MASK)
    {
      double factor = wheel ? pow (1.15, -dy) : exp (-dy * 0.01);
      double px = self->has_pointer ? self->pointer_x : gtk_widget_get_width (GTK_WIDGET (self)) / 2.0;
      double py = self->has_pointer ? self->pointer_y : gtk_widget_get_height (GTK_WIDGET (self)) / 2.0;

      zoom_at (self, self->zoom * factor, px, py);
      return TRUE;
    }

  if ((state & GDK_SHIFT_MASK) && dx == 0)
    {
      dx = dy;
      dy = 0;
    }
  if (wheel)
    {
      dx *= 48;
      dy *= 48;
    }
  set_view (self, self->zoom, self->off_x - dx, self->off_y - dy);
  return TRUE;
}

static void
drag_begin_cb (GtkGestureDrag *gesture,
               double          x,
               double          y,
               WinnowDiagram  *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));

  if (self->process == NULL ||
      (button == GDK_BUTTON_PRIMARY && hit_node (self, x, y) >= 0))
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  self->drag_start_x = self->off_x;
  self->drag_start_y = self->off_y;
  self->dragging = FALSE;
}

static void
drag_update_cb (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                WinnowDiagram  *self)
{
  if (!self->dragging)
    {
      if (hypot (dx, dy) < DRAG_THRESHOLD)
        return;
      self->dragging = TRUE;
      self->auto_fit = FALSE;
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
      update_cursor (self);
    }
  set_view (self, self->zoom, self->drag_start_x + dx, self->drag_start_y + dy);
}

static void
drag_end_cb (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             WinnowDiagram  *self)
{
  if (!self->dragging)
    return;
  self->dragging = FALSE;
  update_cursor (self);
}

static void
click_released_cb (GtkGestureClick *gesture,
                   int              n_press,
                   double           x,
                   double           y,
                   WinnowDiagram   *self)
{
  int node;

  if (self->process == NULL || self->dragging)
    return;
  node = hit_node (self, x, y);
  if (gtk_widget_get_focusable (GTK_WIDGET (self)))
    gtk_widget_grab_focus (GTK_WIDGET (self));
  if (n_press == 1)
    winnow_diagram_set_selected_node (self, node >= 0 ? self->process->nodes[node].id : NULL);
  else if (n_press == 2 && node >= 0)
    g_signal_emit (self, signals[NODE_ACTIVATED], 0, self->process->nodes[node].id);
}

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  WinnowDiagram *self = WINNOW_DIAGRAM (widget);

  if (g_str_equal (action_name, "diagram.zoom-in"))
    winnow_diagram_zoom_in (self);
  else if (g_str_equal (action_name, "diagram.zoom-out"))
    winnow_diagram_zoom_out (self);
  else
    winnow_diagram_zoom_to_fit (self);
}

/* ------------------------------------------------------------------------- */
/* GtkWidget                                                                 */

static void
winnow_diagram_measure (GtkWidget      *widget,
                        GtkOrientation  orientation,
                        int             for_size,
                        int            *minimum,
                        int            *natural,
                        int            *minimum_baseline,
                        int            *natural_baseline)
{
  WinnowDiagram *self = WINNOW_DIAGRAM (widget);
  double size = orientation == GTK_ORIENTATION_HORIZONTAL ? self->width : self->height;

  *minimum = 0;
  *natural = self->process != NULL ? (int) ceil (size) : 0;
}

static void
winnow_diagram_size_allocate (GtkWidget *widget,
                              int        width,
                              int        height,
                              int        baseline)
{
  WinnowDiagram *self = WINNOW_DIAGRAM (widget);

  if (self->auto_fit)
    apply_fit (self);
  else
    set_view (self, self->zoom, self->off_x, self->off_y);
}

static void
winnow_diagram_root (GtkWidget *widget)
{
  WinnowDiagram *self = WINNOW_DIAGRAM (widget);

  GTK_WIDGET_CLASS (winnow_diagram_parent_class)->root (widget);

  /* Text sizes may differ now that the widget has its final style. */
  if (self->process != NULL)
    {
      layout_process (self);
      gtk_widget_queue_resize (widget);
    }
}

static void
winnow_diagram_dispose (GObject *object)
{
  WinnowDiagram *self = WINNOW_DIAGRAM (object);

  if (self->process != NULL)
    layout_clear (self, self->process->n_nodes, self->process->n_flows);
  g_clear_pointer (&self->states, g_free);
  g_clear_pointer (&self->process, wn_process_unref);
  g_clear_pointer (&self->selected, g_free);
  g_clear_pointer (&self->scene, gsk_render_node_unref);

  G_OBJECT_CLASS (winnow_diagram_parent_class)->dispose (object);
}

static void
winnow_diagram_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  WinnowDiagram *self = WINNOW_DIAGRAM (object);

  switch (prop_id)
    {
    case PROP_SELECTED_NODE:
      g_value_set_string (value, self->selected);
      break;
    case PROP_ZOOM:
      g_value_set_double (value, self->zoom);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_diagram_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  WinnowDiagram *self = WINNOW_DIAGRAM (object);

  switch (prop_id)
    {
    case PROP_SELECTED_NODE:
      winnow_diagram_set_selected_node (self, g_value_get_string (value));
      break;
    case PROP_ZOOM:
      winnow_diagram_set_zoom (self, g_value_get_double (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_diagram_class_init (WinnowDiagramClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = winnow_diagram_dispose;
  object_class->get_property = winnow_diagram_get_property;
  object_class->set_property = winnow_diagram_set_property;

  widget_class->snapshot = winnow_diagram_snapshot;
  widget_class->measure = winnow_diagram_measure;
  widget_class->size_allocate = winnow_diagram_size_allocate;
  widget_class->root = winnow_diagram_root;
  widget_class->query_tooltip = winnow_diagram_query_tooltip;

  properties[PROP_SELECTED_NODE] =
    g_param_spec_string ("selected-node", NULL, NULL,
                         NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ZOOM] =
    g_param_spec_double ("zoom", NULL, NULL,
                         WINNOW_DIAGRAM_MIN_ZOOM, WINNOW_DIAGRAM_MAX_ZOOM, 1.0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[NODE_ACTIVATED] =
    g_signal_new ("node-activated",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_install_action (widget_class, "diagram.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "diagram.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "diagram.zoom-fit", NULL, zoom_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, GDK_CONTROL_MASK, "diagram.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, GDK_CONTROL_MASK, "diagram.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, GDK_CONTROL_MASK, "diagram.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, GDK_CONTROL_MASK, "diagram.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, GDK_CONTROL_MASK, "diagram.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, GDK_CONTROL_MASK, "diagram.zoom-fit", NULL);

  gtk_widget_class_set_css_name (widget_class, "diagram");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
winnow_diagram_init (WinnowDiagram *self)
{
  GtkEventController *controller;
  GtkGesture *gesture;

  self->zoom = 1.0;
  self->hover = -1;
  self->auto_fit = TRUE;

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "enter", G_CALLBACK (motion_cb), self);
  g_signal_connect (controller, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (controller, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (controller, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  gesture = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), 0);
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_click_new ();
  g_signal_connect (gesture, "released", G_CALLBACK (click_released_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (gtk_widget_queue_draw), self, G_CONNECT_SWAPPED);
}

/* ------------------------------------------------------------------------- */
/* Public API                                                                */

GtkWidget *
winnow_diagram_new (void)
{
  return g_object_new (WINNOW_TYPE_DIAGRAM, NULL);
}

void
winnow_diagram_set_process (WinnowDiagram *self,
                            WnProcess     *process)
{
  g_return_if_fail (WINNOW_IS_DIAGRAM (self));
  g_return_if_fail (process == NULL || process->builder == NULL);   /* finished */

  if (process == self->process)
    return;
  if (process != NULL)
    wn_process_ref (process);

  if (self->process != NULL)
    layout_clear (self, self->process->n_nodes, self->process->n_flows);
  g_clear_pointer (&self->states, g_free);
  g_clear_pointer (&self->process, wn_process_unref);
  self->process = process;
  self->hover = -1;
  self->dragging = FALSE;
  self->auto_fit = TRUE;

  if (process != NULL)
    {
      self->states = g_new0 (NodeState, process->n_nodes);
      layout_process (self);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      process->name != NULL ? process->name : process->id,
                                      -1);
    }
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL);

  if (self->selected != NULL && node_index (process, self->selected) < 0)
    winnow_diagram_set_selected_node (self, NULL);

  update_cursor (self);
  apply_fit (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

WnProcess *
winnow_diagram_get_process (WinnowDiagram *self)
{
  g_return_val_if_fail (WINNOW_IS_DIAGRAM (self), NULL);

  return self->process;
}

gboolean
winnow_diagram_get_node_bounds (WinnowDiagram   *self,
                                const char      *node_id,
                                graphene_rect_t *out)
{
  int index;

  g_return_val_if_fail (WINNOW_IS_DIAGRAM (self), FALSE);
  g_return_val_if_fail (node_id != NULL, FALSE);

  index = node_index (self->process, node_id);
  if (index < 0)
    return FALSE;
  if (out != NULL)
    *out = self->nodes[index].box;
  return TRUE;
}

void
winnow_diagram_get_layout_size (WinnowDiagram *self,
                                double        *width,
                                double        *height)
{
  g_return_if_fail (WINNOW_IS_DIAGRAM (self));

  if (width != NULL)
    *width = self->process != NULL ? self->width : 0;
  if (height != NULL)
    *height = self->process != NULL ? self->height : 0;
}

void
winnow_diagram_set_badges (WinnowDiagram *self,
                           const char    *node_id,
                           guint          active,
                           guint          parked,
                           guint          incident)
{
  NodeState *st;
  int index;

  g_return_if_fail (WINNOW_IS_DIAGRAM (self));
  g_return_if_fail (node_id != NULL);

  index = node_index (self->process, node_id);
  if (index < 0)
    return;
  st = &self->states[index];
  if (st->active == active && st->parked == parked && st->incident == incident)
    return;
  st->active = active;
  st->parked = parked;
  st->incident = incident;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
winnow_diagram_get_badges (WinnowDiagram *self,
                           const char    *node_id,
                           guint         *active,
                           guint         *parked,
                           guint         *incident)
{
  const NodeState *st;
  int index;

  g_return_val_if_fail (WINNOW_IS_DIAGRAM (self), FALSE);
  g_return_val_if_fail (node_id != NULL, FALSE);

  index = node_index (self->process, node_id);
  if (index < 0)
    return FALSE;
  st = &self->states[index];
  if (active != NULL)
    *active = st->active;
  if (parked != NULL)
    *parked = st->parked;
  if (incident != NULL)
    *incident = st->incident;
  return TRUE;
}

void
winnow_diagram_clear_badges (WinnowDiagram *self)
{
  gboolean changed = FALSE;

  g_return_if_fail (WINNOW_IS_DIAGRAM (self));

  if (self->process == NULL)
    return;
  for (guint i = 0; i < self->process->n_nodes; i++)
    {
      NodeState *st = &self->states[i];

      if (st->active != 0 || st->parked != 0 || st->incident != 0)
        {
          st->active = st->parked = st->incident = 0;
          changed = TRUE;
        }
    }
  if (changed)
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
winnow_diagram_set_selected_node (WinnowDiagram *self,
                                  const char    *node_id)
{
  g_return_if_fail (WINNOW_IS_DIAGRAM (self));

  if (node_id != NULL && node_index (self->process, node_id) < 0)
    node_id = NULL;
  if (g_strcmp0 (self->selected, node_id) == 0)
    return;
  g_free (self->selected);
  self->selected = g_strdup (node_id);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_NODE]);
}

const char *
winnow_diagram_get_selected_node (WinnowDiagram *self)
{
  g_return_val_if_fail (WINNOW_IS_DIAGRAM (self), NULL);

  return self->selected;
}

void
winnow_diagram_set_breakpoint (WinnowDiagram *self,
                               const char    *node_id,
                               gboolean       enabled)
{
  int index;

  g_return_if_fail (WINNOW_IS_DIAGRAM (self));
  g_return_if_fail (node_id != NULL);

  index = node_index (self->process, node_id);
  if (index < 0 || self->states[index].breakpoint == !!enabled)
    return;
  self->states[index].breakpoint = !!enabled;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
winnow_diagram_get_breakpoint (WinnowDiagram *self,
                               const char    *node_id)
{
  int index;

  g_return_val_if_fail (WINNOW_IS_DIAGRAM (self), FALSE);
  g_return_val_if_fail (node_id != NULL, FALSE);

  index = node_index (self->process, node_id);
  return index >= 0 && self->states[index].breakpoint;
}

double
winnow_diagram_get_zoom (WinnowDiagram *self)
{
  g_return_val_if_fail (WINNOW_IS_DIAGRAM (self), 1.0);

  return self->zoom;
}

void
winnow_diagram_set_zoom (WinnowDiagram *self,
                         double         zoom)
{
  g_return_if_fail (WINNOW_IS_DIAGRAM (self));

  self->auto_fit = FALSE;
  zoom_at (self, zoom,
           gtk_widget_get_width (GTK_WIDGET (self)) / 2.0,
           gtk_widget_get_height (GTK_WIDGET (self)) / 2.0);
}

void
winnow_diagram_zoom_in (WinnowDiagram *self)
{
  g_return_if_fail (WINNOW_IS_DIAGRAM (self));

  winnow_diagram_set_zoom (self, self->zoom * ZOOM_STEP);
}

void
winnow_diagram_zoom_out (WinnowDiagram *self)
{
  g_return_if_fail (WINNOW_IS_DIAGRAM (self));

  winnow_diagram_set_zoom (self, self->zoom / ZOOM_STEP);
}

void
winnow_diagram_zoom_to_fit (WinnowDiagram *self)
{
  g_return_if_fail (WINNOW_IS_DIAGRAM (self));

  self->auto_fit = TRUE;
  apply_fit (self);
}
