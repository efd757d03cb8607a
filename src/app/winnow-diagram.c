/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-diagram.c — the process diagram: draws the layout of its process
 * (winnow-layout.c, computed once per process, with the texts made here with
 * Pango), the live badges and breakpoints on it, and lets the user select,
 * hover, pan and zoom. Past 1,500 lines because every node type's shape,
 * glyph and tooltip, the badges (gated, locked, parked, incident), a BPMN
 * model's pool and lane frames and the sub-process containers (drawn under
 * their content, outer ones first; a closed one counts its content's tokens)
 * are drawn here on one shared geometry: one widget, one concept.
 *
 * Everything is kept in diagram units (zoom 1); the view maps them to the
 * widget with a zoom factor and a pan offset. A scene draws only what is in
 * view, leaves texts out below 10 % zoom and, below 5 %, is an overview in
 * device pixels (big files: a 50 000-node chain zoomed to fit).
 */
#include "config.h"

#include "winnow-diagram.h"
#include "winnow-layout.h"
#include "winnow-paint.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>

#include "winnow.h"

#define TASK_RADIUS     10.0
#define EVENT_R        WINNOW_LAYOUT_EVENT_RADIUS
#define GATEWAY_R      WINNOW_LAYOUT_GATEWAY_RADIUS
#define ARROW_LEN      WINNOW_LAYOUT_ARROW_LENGTH
#define ARROW_HALF       4.5
#define CORNER_R         8.0
#define CLICK_SLOP       3.0
#define DRAG_THRESHOLD   4.0
#define FIT_MAX_ZOOM     1.0
#define ZOOM_STEP        1.25

typedef struct {
  guint    active;
  guint    parked;
  guint    gated;      /* of the parked, the jobs behind their notBefore gate */
  guint    locked;     /* of the parked, the jobs a worker holds */
  guint    incident;
  gboolean breakpoint;
} NodeState;

typedef struct {
  GdkRGBA  fg;
  GdkRGBA  fill;
  GdkRGBA  accent;
  GdkRGBA  start;
  GdkRGBA  error;
  GdkRGBA  active;
  GdkRGBA  parked;
  GdkRGBA  gated;
  GdkRGBA  locked;
  GdkRGBA  incident;
  GdkRGBA  badge_text;
  GdkRGBA  breakpoint;
} Palette;

struct _WinnowDiagram
{
  GtkWidget   parent_instance;

  WnProcess    *process;
  WnEngine     *engine;        /* the run of it, borrowed (winnow_diagram_set_engine), or NULL */
  NodeState    *states;        /* per node */
  WinnowLayout *layout;        /* with a process */
  WinnowLayout *adopted;       /* laid out ahead for adopted_for, or NULL */
  WnProcess    *adopted_for;

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

static int
node_index (const WnProcess *process, const char *id)
{
  const WnNode *node;

  if (process == NULL || id == NULL)
    return -1;
  node = wn_process_find_node (process, id);
  return node != NULL ? (int) node->index : -1;
}

static const char *
node_type_label (const WnNode *node)
{
  switch (node->type)
    {
    case WN_NODE_START:
      return _("Start event");
    case WN_NODE_END:
      return node->error_code != NULL ? _("Error end event") :
             node->terminate ? _("Terminate end event") : _("End event");
    case WN_NODE_TASK:
      return _("Task");
    case WN_NODE_SCRIPT:
      return _("Script task");
    case WN_NODE_SERVICE:
      return _("Service task");
    case WN_NODE_BOUNDARY:
      if (node->timer > 0)
        return node->non_interrupting ? _("Non-interrupting timer boundary event") : _("Timer boundary event");
      if (node->message != NULL)
        return node->non_interrupting ? _("Non-interrupting message boundary event") : _("Message boundary event");
      return _("Error boundary event");
    case WN_NODE_SUBPROCESS:
      return _("Sub-process");
    case WN_NODE_MANUAL:
      return _("Manual task");
    case WN_NODE_USER:
      return _("User task");
    case WN_NODE_RECEIVE:
      return _("Receive task");
    case WN_NODE_EVENT_GATEWAY:
      return _("Event-based gateway");
    case WN_NODE_MESSAGE:
      return _("Message catch event");
    case WN_NODE_THROW:
      return _("Intermediate throw event");
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

/* The small and bold variants of a text of the body font. */
static PangoLayout *
text_style (PangoLayout *layout,
            gboolean     small,
            gboolean     bold)
{
  PangoAttrList *attrs = pango_attr_list_new ();

  if (small)
    pango_attr_list_insert (attrs, pango_attr_scale_new (PANGO_SCALE_SMALL));
  if (bold)
    pango_attr_list_insert (attrs, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);
  return layout;
}

static PangoLayout *
text_new (GtkWidget  *widget,
          const char *text,
          gboolean    small,
          gboolean    bold)
{
  return text_style (gtk_widget_create_pango_layout (widget, text), small, bold);
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

/* The layout's texts are PangoLayouts of this widget. */
static gpointer
layout_text_new (const char *text,
                 gboolean    small,
                 gpointer    data)
{
  return text_new (GTK_WIDGET (data), text, small, FALSE);
}

static void
layout_text_fit (gpointer               text,
                 double                 max_width,
                 int                    max_lines,
                 WinnowLayoutAlign      align,
                 WinnowLayoutEllipsize  ellipsize,
                 gpointer               data)
{
  static const PangoAlignment aligns[] = {
    [WINNOW_LAYOUT_ALIGN_LEFT] = PANGO_ALIGN_LEFT,
    [WINNOW_LAYOUT_ALIGN_CENTER] = PANGO_ALIGN_CENTER,
    [WINNOW_LAYOUT_ALIGN_RIGHT] = PANGO_ALIGN_RIGHT,
  };

  text_fit (text, max_width, max_lines, aligns[align],
            ellipsize == WINNOW_LAYOUT_ELLIPSIZE_MIDDLE ? PANGO_ELLIPSIZE_MIDDLE : PANGO_ELLIPSIZE_END);
}

static void
layout_text_size (gpointer  text,
                  double   *width,
                  double   *height,
                  gpointer  data)
{
  text_size (text, width, height);
}

static const WinnowLayoutTextFuncs layout_text_funcs = {
  layout_text_new,
  layout_text_fit,
  layout_text_size,
  g_object_unref,
};

/* A layout made on another thread: its texts are PangoLayouts of a context
 * of its own (winnow_diagram_create_text_context), the same as the widget's
 * own but for the font map. */
static gpointer
context_text_new (const char *text,
                  gboolean    small,
                  gpointer    data)
{
  PangoLayout *layout = pango_layout_new (data);

  pango_layout_set_text (layout, text, -1);
  return text_style (layout, small, FALSE);
}

static const WinnowLayoutTextFuncs context_text_funcs = {
  context_text_new,
  layout_text_fit,
  layout_text_size,
  g_object_unref,
};

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
/* Layout                                                                    */

static graphene_rect_t
to_graphene (const WinnowLayoutRect *r)
{
  return GRAPHENE_RECT_INIT (r->x, r->y, r->width, r->height);
}

static gboolean
rect_contains (const WinnowLayoutRect *r,
               double                  x,
               double                  y)
{
  graphene_rect_t rect = to_graphene (r);

  return graphene_rect_contains_point (&rect, &GRAPHENE_POINT_INIT (x, y));
}

static void
layout_process (WinnowDiagram *self)
{
  g_clear_pointer (&self->scene, gsk_render_node_unref);   /* stale */
  g_clear_pointer (&self->layout, winnow_layout_free);
  /* made ahead, off the GTK thread (winnow_diagram_adopt_layout) */
  if (self->adopted != NULL && self->adopted_for == self->process)
    self->layout = g_steal_pointer (&self->adopted);
  else
    self->layout = winnow_layout_new (self->process, &layout_text_funcs, self);
  g_clear_pointer (&self->adopted, winnow_layout_free);
  g_clear_pointer (&self->adopted_for, wn_process_unref);
}

/* ------------------------------------------------------------------------- */
/* View                                                                      */

/* The zoom that shows the whole diagram in the widget, or 0 when there is
 * nothing to fit yet. */
static double
fit_zoom (WinnowDiagram *self)
{
  double w = gtk_widget_get_width (GTK_WIDGET (self));
  double h = gtk_widget_get_height (GTK_WIDGET (self));

  if (self->process == NULL || w <= 0 || h <= 0 || self->layout->width <= 0 || self->layout->height <= 0)
    return 0;
  return MIN (w / self->layout->width, h / self->layout->height);
}

/* How far out the view may go: WINNOW_DIAGRAM_MIN_ZOOM, or what fits a
 * diagram too big to fit at it. */
static double
min_zoom (WinnowDiagram *self)
{
  double fit = fit_zoom (self);

  if (fit <= 0 || fit >= WINNOW_DIAGRAM_MIN_ZOOM)
    return WINNOW_DIAGRAM_MIN_ZOOM;
  return MAX (fit, WINNOW_DIAGRAM_FLOOR_ZOOM);
}

static void
set_view (WinnowDiagram *self, double zoom, double off_x, double off_y)
{
  double w = gtk_widget_get_width (GTK_WIDGET (self));
  double h = gtk_widget_get_height (GTK_WIDGET (self));
  gboolean zoom_changed;

  zoom = CLAMP (zoom, min_zoom (self), WINNOW_DIAGRAM_MAX_ZOOM);
  if (self->process != NULL && w > 0 && h > 0)
    {
      double cw = self->layout->width * zoom, ch = self->layout->height * zoom;
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

  zoom = CLAMP (zoom, min_zoom (self), WINNOW_DIAGRAM_MAX_ZOOM);
  set_view (self, zoom, px - mx * zoom, py - my * zoom);
}

static void
apply_fit (WinnowDiagram *self)
{
  double w = gtk_widget_get_width (GTK_WIDGET (self));
  double h = gtk_widget_get_height (GTK_WIDGET (self));
  double zoom = fit_zoom (self);

  if (zoom <= 0)
    return;
  zoom = CLAMP (zoom, min_zoom (self), FIT_MAX_ZOOM);
  set_view (self, zoom, (w - self->layout->width * zoom) / 2, (h - self->layout->height * zoom) / 2);
}

static void
to_model (WinnowDiagram *self, double wx, double wy, double *mx, double *my)
{
  *mx = (wx - self->off_x) / self->zoom;
  *my = (wy - self->off_y) / self->zoom;
}

static gboolean
shape_contains (const WnNode *node, const WinnowLayoutNode *n, double x, double y, double slop)
{
  double dx = x - n->cx, dy = y - n->cy;

  if (winnow_layout_is_task (node->type))
    return x >= n->box.x - slop && x <= n->box.x + n->box.width + slop &&
           y >= n->box.y - slop && y <= n->box.y + n->box.height + slop;
  if (winnow_layout_is_gateway (node->type))
    return fabs (dx) + fabs (dy) <= GATEWAY_R + slop;
  return sqrt (dx * dx + dy * dy) <= n->box.width / 2 + slop;
}

static int
hit_node (WinnowDiagram *self, double wx, double wy)
{
  const WnProcess *p = self->process;
  double x, y, slop;
  int best = -1;

  if (p == NULL)
    return -1;
  to_model (self, wx, wy, &x, &y);
  slop = CLICK_SLOP / self->zoom;

  for (guint i = 0; i < p->n_nodes; i++)
    if (winnow_layout_is_attached (p, &p->nodes[i]) && !self->layout->nodes[i].hidden &&
        shape_contains (&p->nodes[i], &self->layout->nodes[i], x, y, slop))
      return (int) i;
  for (guint i = 0; i < p->n_nodes; i++)
    {
      const WinnowLayoutNode *n = &self->layout->nodes[i];

      if (winnow_layout_is_attached (p, &p->nodes[i]) || n->container || n->hidden)
        continue;
      if (shape_contains (&p->nodes[i], n, x, y, slop))
        return (int) i;
      if (n->label != NULL && !winnow_layout_is_task (p->nodes[i].type) &&
          rect_contains (&n->label_rect, x, y))
        return (int) i;
    }
  /* inside a container but on none of its children: the innermost container */
  for (guint i = 0; i < p->n_nodes; i++)
    {
      const WinnowLayoutNode *n = &self->layout->nodes[i];

      if (n->container && !n->hidden && shape_contains (&p->nodes[i], n, x, y, slop) &&
          (best < 0 || n->depth > self->layout->nodes[best].depth))
        best = (int) i;
    }
  return best;
}

static int
hit_flow_label (WinnowDiagram *self, double wx, double wy)
{
  double x, y;

  if (self->process == NULL)
    return -1;
  to_model (self, wx, wy, &x, &y);
  for (guint f = 0; f < self->process->n_flows; f++)
    if (self->layout->flows[f].label != NULL && rect_contains (&self->layout->flows[f].label_rect, x, y))
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
  winnow_paint_lookup_color (widget, "winnow_gated", &pal->gated);
  winnow_paint_lookup_color (widget, "winnow_locked", &pal->locked);
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
path_node_outline (cairo_t *cr, const WnNode *node, const WinnowLayoutNode *n, double grow)
{
  if (winnow_layout_is_task (node->type))
    winnow_paint_rounded_rect (cr, n->box.x - grow, n->box.y - grow,
                               n->box.width + 2 * grow, n->box.height + 2 * grow,
                               TASK_RADIUS + grow);
  else if (winnow_layout_is_gateway (node->type))
    path_diamond (cr, n->cx, n->cy, GATEWAY_R + grow * G_SQRT2);
  else
    path_circle (cr, n->cx, n->cy, n->box.width / 2 + grow);
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

/* A manual task's hand, reduced to a palm and four fingers. */
static void
draw_hand_glyph (cairo_t *cr, const Palette *pal, double cx, double cy)
{
  cairo_set_line_width (cr, 1.3);
  winnow_paint_set_color (cr, &pal->fg, 0.7);
  winnow_paint_rounded_rect (cr, cx - 5, cy - 1, 10, 7, 2);
  for (int i = 0; i < 4; i++)
    {
      cairo_move_to (cr, cx - 3.75 + i * 2.5, cy - 1);
      cairo_line_to (cr, cx - 3.75 + i * 2.5, cy - 6 + (i == 0 || i == 3 ? 1.5 : 0));
    }
  cairo_stroke (cr);
}

/* A user task's person: a head and shoulders. */
static void
draw_person_glyph (cairo_t *cr, const Palette *pal, double cx, double cy)
{
  cairo_set_line_width (cr, 1.3);
  winnow_paint_set_color (cr, &pal->fg, 0.7);
  cairo_new_sub_path (cr);
  cairo_arc (cr, cx, cy - 3, 3, 0, 2 * G_PI);
  cairo_new_sub_path (cr);
  cairo_arc (cr, cx, cy + 7, 6, G_PI, 2 * G_PI);
  cairo_close_path (cr);
  cairo_stroke (cr);
}

/* A message's envelope, `r` half wide. */
static void
draw_envelope (cairo_t *cr, const Palette *pal, double cx, double cy, double r)
{
  double h = r * 0.7;

  cairo_set_line_width (cr, 1.2);
  winnow_paint_set_color (cr, &pal->fg, 0.75);
  cairo_rectangle (cr, cx - r, cy - h, 2 * r, 2 * h);
  cairo_move_to (cr, cx - r, cy - h);
  cairo_line_to (cr, cx, cy + h * 0.2);
  cairo_line_to (cr, cx + r, cy - h);
  cairo_stroke (cr);
}

/* A multi-instance activity's three bars: upright for parallel, lying for
 * sequential. */
static void
draw_multi_marker (cairo_t *cr, const Palette *pal, double cx, double cy, gboolean sequential)
{
  cairo_set_line_width (cr, 1.6);
  winnow_paint_set_color (cr, &pal->fg, 0.7);
  for (int i = -1; i <= 1; i++)
    {
      if (sequential)
        {
          cairo_move_to (cr, cx - 5, cy + i * 3.5);
          cairo_line_to (cr, cx + 5, cy + i * 3.5);
        }
      else
        {
          cairo_move_to (cr, cx + i * 3.5, cy - 5);
          cairo_line_to (cr, cx + i * 3.5, cy + 5);
        }
    }
  cairo_stroke (cr);
}

/* The [+] of a sub-process (drawn collapsed: its nodes are laid out beside it). */
static void
draw_expand_marker (cairo_t *cr, const Palette *pal, double cx, double cy)
{
  cairo_set_line_width (cr, 1.2);
  winnow_paint_set_color (cr, &pal->fg, 0.7);
  cairo_rectangle (cr, cx - 5, cy - 5, 10, 10);
  cairo_move_to (cr, cx - 3, cy);
  cairo_line_to (cr, cx + 3, cy);
  cairo_move_to (cr, cx, cy - 3);
  cairo_line_to (cr, cx, cy + 3);
  cairo_stroke (cr);
}

/* An intermediate or boundary event's double ring, filled, the inner one
 * `gap` inside and dashed on an event that does not interrupt. */
static void
draw_event_rings (cairo_t       *cr,
                  const Palette *pal,
                  double         cx,
                  double         cy,
                  double         r,
                  double         gap,
                  gboolean       dashed)
{
  static const double dash[] = { 3.0, 2.0 };

  path_circle (cr, cx, cy, r);
  winnow_paint_fill_and_stroke (cr, &pal->fill, &pal->fg, 0.8, 1.5);
  path_circle (cr, cx, cy, r - gap);
  if (dashed)
    cairo_set_dash (cr, dash, G_N_ELEMENTS (dash), 0);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
}

/* An expanded sub-process: a frame with a light wash, its children drawn
 * over it; dashed for an event sub-process, as BPMN draws one. */
static void
draw_container (cairo_t                *cr,
                const Palette          *pal,
                const WnNode           *node,
                const WinnowLayoutNode *n)
{
  static const double dash[] = { 5, 3 };

  winnow_paint_rounded_rect (cr, n->box.x, n->box.y, n->box.width, n->box.height, TASK_RADIUS);
  winnow_paint_set_color (cr, &pal->fill, 0.55);
  cairo_fill_preserve (cr);
  if (node->triggered_by_event)
    cairo_set_dash (cr, dash, G_N_ELEMENTS (dash), 0);
  winnow_paint_set_color (cr, &pal->fg, 0.6);
  cairo_set_line_width (cr, 1.6);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
  if (node->multi != NULL)
    draw_multi_marker (cr, pal, n->box.x + n->box.width / 2, n->box.y + n->box.height - 9, node->multi->sequential);
}

static void
draw_node (cairo_t       *cr,
           const Palette *pal,
           const WnNode  *node,
           const WinnowLayoutNode *n)
{
  double x = n->box.x, y = n->box.y;

  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  if (n->container)
    {
      draw_container (cr, pal, node, n);
      return;
    }
  switch (node->type)
    {
    case WN_NODE_TASK:
    case WN_NODE_SCRIPT:
    case WN_NODE_SERVICE:
    case WN_NODE_MANUAL:
    case WN_NODE_USER:
    case WN_NODE_RECEIVE:
    case WN_NODE_SUBPROCESS:
      winnow_paint_rounded_rect (cr, x, y, n->box.width, n->box.height, TASK_RADIUS);
      winnow_paint_fill_and_stroke (cr, &pal->fill, &pal->fg, 0.72, node->type == WN_NODE_SUBPROCESS ? 2.5 : 1.5);
      if (node->type == WN_NODE_SERVICE)
        draw_gear (cr, pal, x + 15, y + 15, 7);
      else if (node->type == WN_NODE_SCRIPT)
        draw_script_glyph (cr, pal, x + 9, y + 8);
      else if (node->type == WN_NODE_MANUAL)
        draw_hand_glyph (cr, pal, x + 15, y + 15);
      else if (node->type == WN_NODE_USER)
        draw_person_glyph (cr, pal, x + 15, y + 15);
      else if (node->type == WN_NODE_RECEIVE)
        draw_envelope (cr, pal, x + 15, y + 15, 6);
      if (node->type == WN_NODE_SUBPROCESS)
        draw_expand_marker (cr, pal, x + n->box.width / 2 - (node->multi != NULL ? 9 : 0), y + n->box.height - 9);
      if (node->multi != NULL)
        draw_multi_marker (cr, pal, x + n->box.width / 2 + (node->type == WN_NODE_SUBPROCESS ? 9 : 0),
                           y + n->box.height - 9, node->multi->sequential);
      break;

    case WN_NODE_START:
      path_circle (cr, n->cx, n->cy, EVENT_R);
      winnow_paint_fill_and_stroke (cr, &pal->fill, &pal->start, 1, 2.0);
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
      else if (node->terminate)
        {
          path_circle (cr, n->cx, n->cy, EVENT_R - 8);
          cairo_fill (cr);
        }
      break;

    case WN_NODE_TIMER:
    case WN_NODE_THROW:
    case WN_NODE_MESSAGE:
      /* intermediate events: a double ring, and what they wait for */
      draw_event_rings (cr, pal, n->cx, n->cy, EVENT_R, 3.5, FALSE);
      if (node->type == WN_NODE_TIMER)
        draw_clock (cr, pal, n->cx, n->cy, EVENT_R - 7);
      else if (node->type == WN_NODE_MESSAGE)
        draw_envelope (cr, pal, n->cx, n->cy, EVENT_R - 8);
      break;

    case WN_NODE_BOUNDARY:
      draw_event_rings (cr, pal, n->cx, n->cy, n->box.width / 2, 3, node->non_interrupting);
      if (node->timer > 0)
        {
          draw_clock (cr, pal, n->cx, n->cy, n->box.width / 2 - 5);
          break;
        }
      if (node->message != NULL)
        {
          draw_envelope (cr, pal, n->cx, n->cy, n->box.width / 2 - 5);
          break;
        }
      path_bolt (cr, n->cx, n->cy, n->box.width / 2 - 1);
      cairo_set_line_width (cr, 1.2);
      cairo_stroke (cr);
      break;

    case WN_NODE_EXCLUSIVE:
    case WN_NODE_PARALLEL:
    case WN_NODE_EVENT_GATEWAY:
      path_diamond (cr, n->cx, n->cy, GATEWAY_R);
      winnow_paint_fill_and_stroke (cr, &pal->fill, &pal->fg, 0.72, 1.5);
      cairo_set_line_width (cr, 3.5);
      cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
      winnow_paint_set_color (cr, &pal->fg, 0.85);
      if (node->type == WN_NODE_EVENT_GATEWAY)
        {
          /* a double ring around a pentagon, drawn as BPMN does */
          cairo_set_line_width (cr, 1.2);
          path_circle (cr, n->cx, n->cy, 12);
          cairo_stroke (cr);
          path_circle (cr, n->cx, n->cy, 9.5);
          cairo_stroke (cr);
          for (int k = 0; k < 5; k++)
            {
              double a = -G_PI / 2 + k * 2 * G_PI / 5;

              if (k == 0)
                cairo_move_to (cr, n->cx + 6 * cos (a), n->cy + 6 * sin (a));
              else
                cairo_line_to (cr, n->cx + 6 * cos (a), n->cy + 6 * sin (a));
            }
          cairo_close_path (cr);
        }
      else if (node->type == WN_NODE_EXCLUSIVE)
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
      path_circle (cr, n->cx, n->cy, n->box.width / 2);
      winnow_paint_set_color (cr, &pal->fg, 0.8);
      cairo_stroke (cr);
      break;
    }
}

static void
draw_node_texts (cairo_t        *cr,
                 const Palette  *pal,
                 const WnNode   *node,
                 const WinnowLayoutNode *n)
{
  if (n->label != NULL)
    {
      winnow_paint_set_color (cr, &pal->fg, winnow_layout_is_task (node->type) ? 1.0 : 0.75);
      text_draw (cr, n->label, n->label_rect.x, n->label_rect.y);
    }
  if (n->topic != NULL)
    {
      winnow_paint_set_color (cr, &pal->fg, 0.6);
      text_draw (cr, n->topic, n->topic_rect.x, n->topic_rect.y);
    }
}

/* A polyline with rounded corners. */
static void
path_polyline (cairo_t *cr, const WinnowLayoutPoint *pts, guint n)
{
  cairo_move_to (cr, pts[0].x, pts[0].y);
  for (guint i = 1; i + 1 < n; i++)
    {
      const WinnowLayoutPoint *a = &pts[i - 1], *b = &pts[i], *c = &pts[i + 1];
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
           const WinnowLayoutFlow *fg,
           const GdkRGBA  *color,
           double          alpha,
           double          width)
{
  g_autofree WinnowLayoutPoint *pts = NULL;
  guint n = fg->points->len;
  WinnowLayoutPoint tip;
  double dx, dy, len;

  if (n < 2)
    return;
  pts = g_memdup2 (fg->points->data, n * sizeof (WinnowLayoutPoint));
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
      const WinnowLayoutPoint *a = &pts[k], *b = &pts[k + 1];
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
  BADGE_PARKED,     /* waiting: for a worker, a person, a message, a timer */
  BADGE_GATED,      /* a job behind its retry gate */
  BADGE_LOCKED,     /* a job a worker holds */
  BADGE_INCIDENT,
  N_BADGES
} BadgeKind;

/* The count of each badge, in drawing order: the parked tokens whose job is
 * gated or locked get their own pills. */
static void
badge_counts (const NodeState *st, guint counts[N_BADGES])
{
  guint jobs = st->gated + st->locked;

  counts[BADGE_ACTIVE] = st->active;
  counts[BADGE_PARKED] = st->parked > jobs ? st->parked - jobs : 0;
  counts[BADGE_GATED] = st->gated;
  counts[BADGE_LOCKED] = st->locked;
  counts[BADGE_INCIDENT] = st->incident;
}

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
                         kind == BADGE_GATED ? &pal->gated :
                         kind == BADGE_LOCKED ? &pal->locked :
                         kind == BADGE_INCIDENT ? &pal->incident : &pal->active;
  double h = kind == BADGE_ACTIVE || kind == BADGE_INCIDENT ? 18 : 20;
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
    case BADGE_GATED:
      /* an hourglass: waiting for a time */
      cairo_move_to (cr, gx + 0.5, cy - 5.5);
      cairo_line_to (cr, gx + 8.5, cy - 5.5);
      cairo_line_to (cr, gx + 4.5, cy);
      cairo_close_path (cr);
      cairo_move_to (cr, gx + 4.5, cy);
      cairo_line_to (cr, gx + 8.5, cy + 5.5);
      cairo_line_to (cr, gx + 0.5, cy + 5.5);
      cairo_close_path (cr);
      cairo_fill (cr);
      break;
    case BADGE_LOCKED:
      /* a padlock: held by a worker */
      cairo_rectangle (cr, gx + 0.5, cy - 1.5, 8, 7);
      cairo_fill (cr);
      cairo_new_sub_path (cr);
      cairo_arc (cr, gx + 4.5, cy - 2.5, 2.6, G_PI, 2 * G_PI);
      cairo_line_to (cr, gx + 7.1, cy - 1.5);
      cairo_move_to (cr, gx + 1.9, cy - 1.5);
      cairo_line_to (cr, gx + 1.9, cy - 2.5);
      cairo_set_line_width (cr, 1.6);
      cairo_stroke (cr);
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
  guint counts[N_BADGES];
  double total = 0;

  badge_counts (st, counts);
  for (guint i = 0; i < N_BADGES; i++)
    if (counts[i] > 0)
      total += badge_width (badge_layout, counts[i]) + 3;
  return total;
}

/* Where badges `total` wide start (x) and their centre line (cy): at the
 * top-right corner, growing left on tasks, right on the small shapes, whose
 * labels sit to their left. */
static void
badge_anchor (const WnNode *node, const WinnowLayoutNode *n, double total, double *x, double *cy)
{
  if (winnow_layout_is_task (node->type))
    {
      *x = n->box.x + n->box.width + 8 - total;
      *cy = n->box.y;
    }
  else if (winnow_layout_is_gateway (node->type))
    {
      *x = n->cx + 6;
      *cy = n->box.y + 2;
    }
  else
    {
      *x = n->cx + n->box.width * 0.25;
      *cy = n->box.y + 1;
    }
}

/* The badges (badges_width() gives `total`) and the breakpoint, at the top-left. */
static void
draw_decorations (cairo_t         *cr,
                  const Palette   *pal,
                  PangoLayout     *badge_layout,
                  const WnNode    *node,
                  const WinnowLayoutNode  *n,
                  const NodeState *st,
                  double           total)
{
  guint counts[N_BADGES];
  gboolean task = winnow_layout_is_task (node->type);
  double x, cy;

  badge_counts (st, counts);
  if (total > 0)
    {
      badge_anchor (node, n, total, &x, &cy);
      for (guint i = 0; i < N_BADGES; i++)
        if (counts[i] > 0)
          x = draw_badge (cr, pal, badge_layout, x, cy, (BadgeKind) i, counts[i]);
    }

  if (st->breakpoint)
    {
      double bx, by;

      if (task)
        {
          bx = n->box.x + 1;
          by = n->box.y + 1;
        }
      else if (winnow_layout_is_gateway (node->type))
        {
          bx = n->cx - GATEWAY_R / 2 - 1;
          by = n->cy - GATEWAY_R / 2 - 1;
        }
      else
        {
          bx = n->cx - n->box.width / 2 * G_SQRT2 / 2;
          by = n->cy - n->box.height / 2 * G_SQRT2 / 2;
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
                    const WinnowLayoutNode  *n,
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
      x0 = MIN (x0, n->box.x - 12);
      y0 = MIN (y0, n->box.y - 12);
      x1 = MAX (x1, n->cx + 12);
      y1 = MAX (y1, n->cy + 12);
    }
  if (x0 >= x1)
    return FALSE;
  graphene_rect_init (bounds, x0, y0, x1 - x0, y1 - y0);
  return TRUE;
}

/* A BPMN pool or lane: its frame, the line along a pool's name band, and the name
 * turned to read bottom to top (or level, in the band at the top of a
 * vertical one). */
static void
draw_frame (cairo_t                 *cr,
            const Palette           *pal,
            const WinnowLayoutFrame *fr)
{
  cairo_rectangle (cr, fr->box.x, fr->box.y, fr->box.width, fr->box.height);
  winnow_paint_set_color (cr, &pal->fg, fr->lane ? 0.35 : 0.55);
  cairo_set_line_width (cr, fr->lane ? 1.0 : 1.4);
  cairo_stroke (cr);
  /* a pool's band is set off by a line; a lane's name sits at its edge */
  if (fr->lane)
    ;
  else if (fr->vertical)
    {
      cairo_move_to (cr, fr->band.x, fr->band.y + fr->band.height);
      cairo_line_to (cr, fr->band.x + fr->band.width, fr->band.y + fr->band.height);
    }
  else
    {
      cairo_move_to (cr, fr->band.x + fr->band.width, fr->band.y);
      cairo_line_to (cr, fr->band.x + fr->band.width, fr->band.y + fr->band.height);
    }
  cairo_stroke (cr);
  if (fr->label != NULL)
    {
      double w, h;

      text_size (fr->label, &w, &h);
      cairo_save (cr);
      cairo_translate (cr, fr->band.x + fr->band.width / 2, fr->band.y + fr->band.height / 2);
      if (!fr->vertical)
        cairo_rotate (cr, -G_PI / 2);
      winnow_paint_set_color (cr, &pal->fg, 0.8);
      text_draw (cr, fr->label, -w / 2, -h / 2);
      cairo_restore (cr);
    }
}

/* Below this zoom a text is a few pixels high: the scene leaves texts out
 * (only diagrams too big to fit at WINNOW_DIAGRAM_MIN_ZOOM get there). */
#define TEXT_MIN_ZOOM 0.1
/* Below this one a task is a few pixels wide: the scene draws an overview
 * (draw_overview) instead of every shape with its glyphs. */
#define DETAIL_MIN_ZOOM 0.05
/* Outlines, arrows and glyphs reach this far out of their boxes. */
#define DRAW_SLOP     16.0

/* The part of the diagram in view, in diagram units, with DRAW_SLOP. */
typedef struct {
  double x0, y0, x1, y1;
} View;

static gboolean
view_meets (const View             *view,
            const WinnowLayoutRect *r)
{
  return r->x <= view->x1 && r->y <= view->y1 && r->x + r->width >= view->x0 && r->y + r->height >= view->y0;
}

static gboolean
view_meets_node (const View             *view,
                 const WinnowLayoutNode *n)
{
  return view_meets (view, &n->box) || (n->label != NULL && view_meets (view, &n->label_rect)) ||
         (n->topic != NULL && view_meets (view, &n->topic_rect));
}

static gboolean
view_meets_flow (const View             *view,
                 const WinnowLayoutFlow *flow)
{
  WinnowLayoutRect bounds;
  float x1, y1;

  if (flow->label != NULL && view_meets (view, &flow->label_rect))
    return TRUE;
  if (flow->points->len == 0)
    return FALSE;
  bounds.x = x1 = g_array_index (flow->points, WinnowLayoutPoint, 0).x;
  bounds.y = y1 = g_array_index (flow->points, WinnowLayoutPoint, 0).y;
  for (guint i = 1; i < flow->points->len; i++)
    {
      const WinnowLayoutPoint *pt = &g_array_index (flow->points, WinnowLayoutPoint, i);

      bounds.x = MIN (bounds.x, pt->x);
      bounds.y = MIN (bounds.y, pt->y);
      x1 = MAX (x1, pt->x);
      y1 = MAX (y1, pt->y);
    }
  bounds.width = x1 - bounds.x;
  bounds.height = y1 - bounds.y;
  return view_meets (view, &bounds);
}

/* A node with its texts (when they can be read), and its hover or selection ring. */
static void
draw_one_node (cairo_t                *cr,
               const Palette          *pal,
               const WnNode           *node,
               const WinnowLayoutNode *n,
               gboolean                hover,
               gboolean                selected,
               gboolean                texts)
{
  if (hover && !selected)
    {
      path_node_outline (cr, node, n, 3);
      winnow_paint_set_color (cr, &pal->accent, 0.4);
      cairo_set_line_width (cr, 2);
      cairo_stroke (cr);
    }
  draw_node (cr, pal, node, n);
  if (texts)
    draw_node_texts (cr, pal, node, n);
  if (selected)
    {
      path_node_outline (cr, node, n, 3.5);
      winnow_paint_set_color (cr, &pal->accent, 1);
      cairo_set_line_width (cr, 2.5);
      cairo_stroke (cr);
    }
}

/* Which device pixels the overview has drawn into: a shape or a flow of a
 * pixel or less is drawn once per pixel, however many fall there. */
typedef struct {
  guint8 *bits;
  int     w, h;
} Pixels;

/* TRUE the first time (x, y) is asked for (and for points outside). */
static gboolean
pixel_first (Pixels *pixels,
             double  x,
             double  y)
{
  int px = (int) floor (x), py = (int) floor (y);
  gsize bit;

  if (px < 0 || py < 0 || px >= pixels->w || py >= pixels->h)
    return TRUE;
  bit = (gsize) py * (gsize) pixels->w + (gsize) px;
  if (pixels->bits[bit / 8] & (1u << (bit % 8)))
    return FALSE;
  pixels->bits[bit / 8] |= (guint8) (1u << (bit % 8));
  return TRUE;
}

/* A diagram seen from far, in device pixels: the flows in view as one
 * hairline path, the shapes as boxes of one fill and one outline, those of a
 * pixel or less as one dot per pixel, the selection on top. Drawn shape by
 * shape, glyphs and all, a 50 000-node chain took 0.6 s to record, and its
 * sub-pixel shapes seconds more to rasterize (cairo_paint of the scene). */
static void
draw_overview (WinnowDiagram *self,
               cairo_t       *cr,
               const Palette *pal,
               const View    *view,
               int            selected,
               double         w,
               double         h)
{
  const WnProcess *p = self->process;
  double z = self->zoom, ox = self->off_x, oy = self->off_y;
  Pixels pixels = { NULL, (int) ceil (w), (int) ceil (h) };

  pixels.bits = g_new0 (guint8, ((gsize) pixels.w * (gsize) pixels.h + 7) / 8);
  cairo_save (cr);
  cairo_identity_matrix (cr);
  cairo_set_line_width (cr, 1);

  for (guint f = 0; f < p->n_flows; f++)
    {
      const WinnowLayoutFlow *flow = &self->layout->flows[f];
      GArray *pts = flow->points;
      double lx, ly;

      if (pts->len < 2 || !view_meets_flow (view, flow))
        continue;
      lx = floor (ox + g_array_index (pts, WinnowLayoutPoint, 0).x * z);
      ly = floor (oy + g_array_index (pts, WinnowLayoutPoint, 0).y * z);
      cairo_move_to (cr, lx + 0.5, ly + 0.5);
      for (guint i = 1; i < pts->len; i++)
        {
          double x = floor (ox + g_array_index (pts, WinnowLayoutPoint, i).x * z);
          double y = floor (oy + g_array_index (pts, WinnowLayoutPoint, i).y * z);

          if (x == lx && y == ly)
            continue;
          cairo_line_to (cr, x + 0.5, y + 0.5);
          lx = x;
          ly = y;
        }
    }
  winnow_paint_set_color (cr, &pal->fg, 0.5);
  cairo_stroke (cr);

  /* shapes of more than a pixel: a fill and an outline */
  for (guint i = 0; i < p->n_nodes; i++)
    {
      const WinnowLayoutNode *n = &self->layout->nodes[i];

      if (!n->hidden && n->box.width * z > 1.5 && view_meets (view, &n->box))
        cairo_rectangle (cr, ox + n->box.x * z, oy + n->box.y * z, n->box.width * z, n->box.height * z);
    }
  winnow_paint_set_color (cr, &pal->fill, 1);
  cairo_fill_preserve (cr);
  winnow_paint_set_color (cr, &pal->fg, 0.72);
  cairo_stroke (cr);
  /* and the others, a dot per pixel */
  for (guint i = 0; i < p->n_nodes; i++)
    {
      const WinnowLayoutNode *n = &self->layout->nodes[i];
      double x = ox + (n->box.x + n->box.width / 2) * z, y = oy + (n->box.y + n->box.height / 2) * z;

      if (!n->hidden && n->box.width * z <= 1.5 && view_meets (view, &n->box) && pixel_first (&pixels, x, y))
        cairo_rectangle (cr, floor (x), floor (y), 1, 1);
    }
  cairo_fill (cr);

  if (selected >= 0)
    {
      const WinnowLayoutNode *n = &self->layout->nodes[selected];

      cairo_rectangle (cr, ox + n->box.x * z - 2, oy + n->box.y * z - 2, n->box.width * z + 4, n->box.height * z + 4);
      winnow_paint_set_color (cr, &pal->accent, 1);
      cairo_set_line_width (cr, 2);
      cairo_stroke (cr);
    }
  cairo_restore (cr);
  g_free (pixels.bits);
}

/* The diagram without its badges, in widget coordinates: what is in view
 * (a big diagram zoomed in costs what it shows), its texts when they can
 * be read. */
static GskRenderNode *
make_scene (WinnowDiagram *self,
            const Palette *pal,
            int            selected,
            double         w,
            double         h)
{
  const WnProcess *p = self->process;
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  gboolean texts = self->zoom >= TEXT_MIN_ZOOM;
  View view = {
    -self->off_x / self->zoom - DRAW_SLOP, -self->off_y / self->zoom - DRAW_SLOP,
    (w - self->off_x) / self->zoom + DRAW_SLOP, (h - self->off_y) / self->zoom + DRAW_SLOP,
  };
  int max_depth = 0;
  cairo_t *cr;

  for (guint i = 0; i < p->n_nodes; i++)
    max_depth = MAX (max_depth, self->layout->nodes[i].depth);

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
  cairo_translate (cr, self->off_x, self->off_y);
  cairo_scale (cr, self->zoom, self->zoom);

  /* Pools and lanes under everything, then the containers, outer ones first */
  for (guint k = 0; k < self->layout->n_frames; k++)
    draw_frame (cr, pal, &self->layout->frames[k]);
  if (self->zoom < DETAIL_MIN_ZOOM)
    {
      draw_overview (self, cr, pal, &view, selected, w, h);
      cairo_destroy (cr);
      return gtk_snapshot_free_to_node (snapshot);
    }
  for (int depth = 0; depth <= max_depth; depth++)
    for (guint i = 0; i < p->n_nodes; i++)
      {
        const WinnowLayoutNode *n = &self->layout->nodes[i];

        if (n->container && !n->hidden && n->depth == depth && view_meets_node (&view, n))
          draw_one_node (cr, pal, &p->nodes[i], n, (int) i == self->hover, (int) i == selected, texts);
      }
  /* Flows under the nodes; the selected node's on top of the others. */
  for (guint f = 0; f < p->n_flows; f++)
    if (!flow_touches (p, f, selected) && view_meets_flow (&view, &self->layout->flows[f]))
      draw_flow (cr, &self->layout->flows[f], &pal->fg, 0.5, 1.4);
  for (guint f = 0; f < p->n_flows; f++)
    if (flow_touches (p, f, selected) && view_meets_flow (&view, &self->layout->flows[f]))
      draw_flow (cr, &self->layout->flows[f], &pal->accent, 1.0, 2.0);
  for (guint f = 0; f < p->n_flows && texts; f++)
    {
      const WinnowLayoutFlow *fg = &self->layout->flows[f];

      if (fg->label == NULL || !view_meets (&view, &fg->label_rect))
        continue;
      if (flow_touches (p, f, selected))
        winnow_paint_set_color (cr, &pal->accent, 1);
      else
        winnow_paint_set_color (cr, &pal->fg, 0.7);
      text_draw (cr, fg->label, fg->label_rect.x, fg->label_rect.y);
    }

  for (int pass = 0; pass < 2; pass++)
    for (guint i = 0; i < p->n_nodes; i++)
      {
        const WnNode *node = &p->nodes[i];
        const WinnowLayoutNode *n = &self->layout->nodes[i];

        if (n->container || n->hidden || winnow_layout_is_attached (p, node) != (pass == 1) ||
            !view_meets_node (&view, n))
          continue;
        draw_one_node (cr, pal, node, n, (int) i == self->hover, (int) i == selected, texts);
      }
  cairo_destroy (cr);
  return gtk_snapshot_free_to_node (snapshot);
}

/* The states as drawn when a closed sub-process hides some nodes: each hidden
 * node's tokens and jobs counted on the sub-process that shows it; NULL when
 * nothing is hidden. */
static NodeState *
shown_states (WinnowDiagram *self)
{
  const WnProcess *p = self->process;
  NodeState *shown = NULL;

  for (guint i = 0; i < p->n_nodes; i++)
    {
      const NodeState *st = &self->states[i];
      NodeState *to;

      if (!self->layout->nodes[i].hidden)
        continue;
      if (shown == NULL)
        shown = g_memdup2 (self->states, sizeof (NodeState) * p->n_nodes);
      to = &shown[winnow_layout_shown_as (self->layout, p, i)];
      to->active += st->active;
      to->parked += st->parked;
      to->gated += st->gated;
      to->locked += st->locked;
      to->incident += st->incident;
    }
  return shown;
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
  g_autofree NodeState *shown = NULL;
  int selected;
  Palette pal;

  if (p == NULL || self->layout == NULL || w <= 0 || h <= 0)
    return;

  memset (&pal, 0, sizeof pal);
  palette_init (self, &pal);
  selected = node_index (p, self->selected);
  if (selected >= 0)   /* a node a closed sub-process hides: the ring goes round the sub-process */
    selected = (int) winnow_layout_shown_as (self->layout, p, (guint) selected);

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

  /* Each node's badges apart: when a count moves, only its pills are new.
   * Their bounds are in widget coordinates and the zoom is cairo's, as for
   * the scene: GTK 4.8 draws a cairo node appended under a snapshot scale
   * below 1 shifted within its bounds, so a short pane (a fit zoom under 1)
   * showed a sliver of each badge, or nothing. */
  badge_layout = text_new (widget, "", TRUE, TRUE);
  shown = shown_states (self);
  for (guint i = 0; i < p->n_nodes; i++)
    {
      const NodeState *st = shown != NULL ? &shown[i] : &self->states[i];
      double total = badges_width (badge_layout, st);
      graphene_rect_t bounds;
      double x0, y0, x1, y1;
      cairo_t *cr;

      if (self->layout->nodes[i].hidden ||
          !decorations_bounds (&p->nodes[i], &self->layout->nodes[i], st, total, &bounds))
        continue;
      x0 = floor (self->off_x + bounds.origin.x * self->zoom);
      y0 = floor (self->off_y + bounds.origin.y * self->zoom);
      x1 = ceil (self->off_x + (bounds.origin.x + bounds.size.width) * self->zoom);
      y1 = ceil (self->off_y + (bounds.origin.y + bounds.size.height) * self->zoom);
      cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (x0, y0, x1 - x0, y1 - y0));
      cairo_translate (cr, self->off_x, self->off_y);
      cairo_scale (cr, self->zoom, self->zoom);
      draw_decorations (cr, &pal, badge_layout, &p->nodes[i], &self->layout->nodes[i], st, total);
      cairo_destroy (cr);
    }
}

/* ------------------------------------------------------------------------- */
/* Tooltips                                                                  */

/* The task's policy as a job enqueued now gets it: from the run's engine when
 * the diagram shows one (scenario and operator included), else from the
 * process alone. */
static void
append_policy (GString *text, WinnowDiagram *self, const WnNode *node)
{
  const WnProcess *p = self->process;
  const WnWorkerSpec *worker = node->worker;
  WnPolicyOrigin retry_from, trust_from;
  g_autoptr(WnPolicy) own = NULL;
  WnPolicy *policy = self->engine ? wn_engine_get_task_policy (self->engine, node->id, &retry_from, &trust_from) : NULL;
  g_autofree char *retry = NULL;
  g_autofree char *line = NULL;
  const char *engine_note = self->engine ? _(" (engine-wide)") : _(" (process)");

  if (policy == NULL)
    {
      policy = own = wn_policy_resolve (&worker->policy, &p->engine.policy);
      retry_from = worker->policy.has_retry ? WN_POLICY_FROM_TASK :
                   p->engine.policy.has_retry ? WN_POLICY_FROM_ENGINE : WN_POLICY_FROM_DEFAULT;
      trust_from = worker->policy.trust != WN_TRUST_UNSET ? WN_POLICY_FROM_TASK :
                   p->engine.policy.trust != WN_TRUST_UNSET ? WN_POLICY_FROM_ENGINE : WN_POLICY_FROM_DEFAULT;
    }
  retry = wn_retry_policy_describe (&policy->retry);
  line = g_markup_printf_escaped (_("\nTrust: %s%s\nRetry: %s%s"),
                                  wn_trust_to_string (policy->trust),
                                  trust_from == WN_POLICY_FROM_TASK ? "" :
                                  trust_from == WN_POLICY_FROM_ENGINE ? engine_note : _(" (default)"),
                                  retry,
                                  retry_from == WN_POLICY_FROM_TASK ? "" :
                                  retry_from == WN_POLICY_FROM_ENGINE ? engine_note : _(" (default)"));
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
                                  winnow_layout_node_title (node), node_type_label (node), node->id);
  g_string_append (text, head);

  if (node->worker != NULL)
    {
      g_autofree char *topic = g_markup_printf_escaped (_("\nTopic: <tt>%s</tt>"), node->worker->topic);

      g_string_append (text, topic);
      append_policy (text, self, node);
    }
  if (node->has_date)
    {
      g_autoptr(GDateTime) at = g_date_time_new_from_unix_utc (node->date_us / G_USEC_PER_SEC);
      g_autofree char *date = at != NULL ? g_date_time_format_iso8601 (at) : g_strdup ("?");
      /* Translators: %s is an RFC 3339 instant */
      g_autofree char *line = g_markup_printf_escaped (_("\nFires at %s, counted from the scenario’s epoch"), date);

      g_string_append (text, line);
    }
  else if (node->type == WN_NODE_BOUNDARY && (node->timer > 0 || node->catch_all))
    {
      g_autofree char *duration = wn_duration_format (node->timer);
      g_autofree char *line = node->catch_all
        ? g_markup_printf_escaped (_("\nCatches any error on %s"),
                                   winnow_layout_node_title (&p->nodes[node->attached_to]))
        : g_markup_printf_escaped (ngettext ("\nFires %2$s after %1$s is entered",
                                             "\nFires every %2$s after %1$s is entered, %3$u times at most",
                                             node->repeat),
                                   winnow_layout_node_title (&p->nodes[node->attached_to]), duration,
                                   node->repeat);

      g_string_append (text, line);
    }
  if (node->type == WN_NODE_BOUNDARY && node->error_code != NULL)
    {
      g_autofree char *line = NULL;

      if (winnow_layout_is_attached (p, node))
        line = g_markup_printf_escaped (_("\nCatches error <tt>%s</tt> on %s"),
                                        node->error_code, winnow_layout_node_title (&p->nodes[node->attached_to]));
      else
        line = g_markup_printf_escaped (_("\nCatches error <tt>%s</tt>"), node->error_code);
      g_string_append (text, line);
    }
  if (node->type == WN_NODE_END && node->error_code != NULL)
    {
      g_autofree char *line = g_markup_printf_escaped (_("\nThrows error <tt>%s</tt>"), node->error_code);

      g_string_append (text, line);
    }
  if (node->duration > 0 && !node->has_date &&
      (node->type == WN_NODE_TIMER || (winnow_layout_is_task (node->type) && node->worker == NULL)))
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
  if (st->gated > 0)
    {
      g_string_append_c (text, '\n');
      /* Translators: of the parked tokens, those whose job waits for its retry time */
      g_string_append_printf (text, ngettext ("%u gated: its job waits for its retry time",
                                              "%u gated: their jobs wait for their retry time", st->gated),
                              st->gated);
    }
  if (st->locked > 0)
    {
      g_string_append_c (text, '\n');
      /* Translators: of the parked tokens, those whose job a worker holds */
      g_string_append_printf (text, ngettext ("%u locked: a worker holds its job",
                                              "%u locked: workers hold their jobs", st->locked),
                              st->locked);
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
      area = to_graphene (&self->layout->nodes[node].box);
    }
  else if (flow >= 0)
    {
      const WnFlow *f = &p->flows[flow];

      if (f->condition != NULL)
        markup = g_markup_printf_escaped (_("Flow <tt>%s</tt>\nCondition: <tt>%s</tt>"),
                                          f->id, wn_lite_get_source (f->condition));
      else
        markup = g_markup_printf_escaped (_("Flow <tt>%s</tt> from %s"),
                                          f->id, winnow_layout_node_title (&p->nodes[f->from]));
      area = to_graphene (&self->layout->flows[flow].label_rect);
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

  *minimum = 0;
  *natural = 0;
  if (self->process != NULL)
    *natural = (int) ceil (orientation == GTK_ORIENTATION_HORIZONTAL ? self->layout->width : self->layout->height);
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

  g_clear_pointer (&self->layout, winnow_layout_free);
  g_clear_pointer (&self->adopted, winnow_layout_free);
  g_clear_pointer (&self->adopted_for, wn_process_unref);
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
                         WINNOW_DIAGRAM_FLOOR_ZOOM, WINNOW_DIAGRAM_MAX_ZOOM, 1.0,
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

  self->engine = NULL;   /* it ran the old process */

  if (process == self->process)
    return;
  if (process != NULL)
    wn_process_ref (process);

  g_clear_pointer (&self->layout, winnow_layout_free);
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

PangoContext *
winnow_diagram_create_text_context (WinnowDiagram *self)
{
  PangoContext *widget = gtk_widget_get_pango_context (GTK_WIDGET (self));
  PangoFontMap *shared = pango_context_get_font_map (widget);
  g_autoptr(PangoFontMap) map = pango_cairo_font_map_new ();
  PangoContext *context;
  const cairo_font_options_t *options = pango_cairo_context_get_font_options (widget);

  g_return_val_if_fail (WINNOW_IS_DIAGRAM (self), NULL);

  if (PANGO_IS_CAIRO_FONT_MAP (shared))
    pango_cairo_font_map_set_resolution (PANGO_CAIRO_FONT_MAP (map),
                                         pango_cairo_font_map_get_resolution (PANGO_CAIRO_FONT_MAP (shared)));
  context = pango_font_map_create_context (map);
  pango_context_set_font_description (context, pango_context_get_font_description (widget));
  pango_context_set_language (context, pango_context_get_language (widget));
  pango_context_set_base_dir (context, pango_context_get_base_dir (widget));
  pango_context_set_gravity_hint (context, pango_context_get_gravity_hint (widget));
  pango_context_set_matrix (context, pango_context_get_matrix (widget));
  pango_context_set_round_glyph_positions (context, pango_context_get_round_glyph_positions (widget));
  pango_cairo_context_set_resolution (context, pango_cairo_context_get_resolution (widget));
  if (options != NULL)
    pango_cairo_context_set_font_options (context, options);
  return context;
}

WinnowLayout *
winnow_diagram_layout_with_context (const WnProcess *process,
                                    PangoContext    *context)
{
  g_return_val_if_fail (process != NULL, NULL);
  g_return_val_if_fail (PANGO_IS_CONTEXT (context), NULL);

  return winnow_layout_new (process, &context_text_funcs, context);
}

void
winnow_diagram_adopt_layout (WinnowDiagram *self,
                             WnProcess     *process,
                             WinnowLayout  *layout)
{
  g_return_if_fail (WINNOW_IS_DIAGRAM (self));
  g_return_if_fail (layout == NULL || process != NULL);

  g_clear_pointer (&self->adopted, winnow_layout_free);
  g_clear_pointer (&self->adopted_for, wn_process_unref);
  self->adopted = layout;
  self->adopted_for = layout != NULL ? wn_process_ref (process) : NULL;
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
  /* a node a closed sub-process hides: where that sub-process is */
  index = (int) winnow_layout_shown_as (self->layout, self->process, (guint) index);
  if (out != NULL)
    *out = to_graphene (&self->layout->nodes[index].box);
  return TRUE;
}

void
winnow_diagram_get_layout_size (WinnowDiagram *self,
                                double        *width,
                                double        *height)
{
  g_return_if_fail (WINNOW_IS_DIAGRAM (self));

  if (width != NULL)
    *width = self->process != NULL ? self->layout->width : 0;
  if (height != NULL)
    *height = self->process != NULL ? self->layout->height : 0;
}

/* The live state of the node `node_id`, NULL when the process has none. */
static NodeState *
state_of (WinnowDiagram *self,
          const char    *node_id)
{
  int index = node_index (self->process, node_id);

  return index < 0 ? NULL : &self->states[index];
}

void
winnow_diagram_set_badges (WinnowDiagram *self,
                           const char    *node_id,
                           guint          active,
                           guint          parked,
                           guint          incident)
{
  NodeState *st;

  g_return_if_fail (WINNOW_IS_DIAGRAM (self));
  g_return_if_fail (node_id != NULL);

  if ((st = state_of (self, node_id)) == NULL)
    return;
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

  g_return_val_if_fail (WINNOW_IS_DIAGRAM (self), FALSE);
  g_return_val_if_fail (node_id != NULL, FALSE);

  if ((st = state_of (self, node_id)) == NULL)
    return FALSE;
  if (active != NULL)
    *active = st->active;
  if (parked != NULL)
    *parked = st->parked;
  if (incident != NULL)
    *incident = st->incident;
  return TRUE;
}

void
winnow_diagram_set_job_badges (WinnowDiagram *self,
                               const char    *node_id,
                               guint          gated,
                               guint          locked)
{
  NodeState *st;

  g_return_if_fail (WINNOW_IS_DIAGRAM (self));
  g_return_if_fail (node_id != NULL);

  if ((st = state_of (self, node_id)) == NULL)
    return;
  if (st->gated == gated && st->locked == locked)
    return;
  st->gated = gated;
  st->locked = locked;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
winnow_diagram_get_job_badges (WinnowDiagram *self,
                               const char    *node_id,
                               guint         *gated,
                               guint         *locked)
{
  const NodeState *st;

  g_return_val_if_fail (WINNOW_IS_DIAGRAM (self), FALSE);
  g_return_val_if_fail (node_id != NULL, FALSE);

  if ((st = state_of (self, node_id)) == NULL)
    return FALSE;
  if (gated != NULL)
    *gated = st->gated;
  if (locked != NULL)
    *locked = st->locked;
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

      if (st->active != 0 || st->parked != 0 || st->incident != 0 || st->gated != 0 || st->locked != 0)
        {
          st->active = st->parked = st->incident = st->gated = st->locked = 0;
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


void
winnow_diagram_set_engine (WinnowDiagram *self,
                           WnEngine      *engine)
{
  g_return_if_fail (WINNOW_IS_DIAGRAM (self));
  self->engine = engine;
}

char *
winnow_diagram_dup_tooltip (WinnowDiagram *self,
                            const char    *node_id)
{
  g_return_val_if_fail (WINNOW_IS_DIAGRAM (self), NULL);

  if (self->process == NULL || node_id == NULL)
    return NULL;
  for (guint i = 0; i < self->process->n_nodes; i++)
    if (g_strcmp0 (self->process->nodes[i].id, node_id) == 0)
      return node_tooltip (self, i);
  return NULL;
}
