/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-diagram.c — the process diagram widget: layout, state, rendering. */
#include "config.h"

#include <adwaita.h>
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "winnow-diagram.h"
#include "wn-test-util.h"

/* ---- processes built by hand -------------------------------------------- */

static WnNode *
add_named (WnProcess *process, const char *id, WnNodeType type, const char *name)
{
  WnNode *node = wn_process_add_node (process, id, type);

  node->name = g_strdup (name);
  return node;
}

/* start → reserve (service, boundary "payment-down") → check (exclusive) → shipped | held;
 * payment-down → failed (error end). */
static WnProcess *
build_order (void)
{
  WnProcess *process = wn_process_new ("order");
  g_autoptr(GError) error = NULL;
  WnNode *node;

  process->name = g_strdup ("Order");
  wn_process_add_node (process, "start", WN_NODE_START);
  node = add_named (process, "reserve", WN_NODE_SERVICE, "Reserve stock");
  node->worker = wn_worker_spec_new ("stock.reserve");
  node->worker->policy.has_retry = TRUE;
  node->worker->policy.retry = wn_retry_policy_fixed (3, 300 * WN_USEC_PER_MSEC);
  wn_process_add_node (process, "payment-down", WN_NODE_BOUNDARY)->error_code = g_strdup ("PaymentGatewayDown");
  wn_process_add_node (process, "check", WN_NODE_EXCLUSIVE);
  wn_process_add_node (process, "shipped", WN_NODE_END);
  wn_process_add_node (process, "held", WN_NODE_END);
  add_named (process, "failed", WN_NODE_END, "Payment failed")->error_code = g_strdup ("PaymentFailed");

  wn_process_add_flow (process, "f1", "start", "reserve", NULL);
  wn_process_add_flow (process, "f2", "reserve", "check", NULL);
  wn_process_add_flow (process, "to-shipped", "check", "shipped", "order.total <= 1000");
  wn_process_add_flow (process, "to-held", "check", "held", NULL);
  wn_process_add_flow (process, "caught", "payment-down", "failed", NULL);
  g_assert_true (wn_process_set_attached_to (process, "payment-down", "reserve"));
  g_assert_true (wn_process_set_default_flow (process, "check", "to-held"));

  g_assert_true (wn_process_finish (process, &error));
  g_assert_no_error (error);
  return process;
}

/* Timer, script, a three-way parallel split with a boundary on one branch,
 * a loop back over the whole split, and a flow that skips a layer. */
static WnProcess *
build_rich (void)
{
  WnProcess *process = wn_process_new ("fulfilment");
  g_autoptr(GError) error = NULL;
  WnNode *node;

  wn_process_add_node (process, "start", WN_NODE_START);
  add_named (process, "wait", WN_NODE_TIMER, "Cool-off")->duration = 10 * WN_USEC_PER_SEC;
  add_named (process, "prepare", WN_NODE_SCRIPT, "Prepare the order for shipping");
  wn_process_add_node (process, "fork", WN_NODE_PARALLEL);
  node = add_named (process, "pay", WN_NODE_SERVICE, "Charge card");
  node->worker = wn_worker_spec_new ("payment.charge");
  node->worker->policy.trust = WN_TRUST_ENGINE_AUTHORITATIVE;
  wn_process_add_node (process, "declined", WN_NODE_BOUNDARY)->error_code = g_strdup ("CardDeclined");
  add_named (process, "rejected", WN_NODE_END, "Rejected")->error_code = g_strdup ("Rejected");
  node = add_named (process, "pack", WN_NODE_SERVICE, "Pack parcel");
  node->worker = wn_worker_spec_new ("warehouse.pack");
  add_named (process, "notify", WN_NODE_TASK, "Notify customer");
  wn_process_add_node (process, "join", WN_NODE_PARALLEL);
  add_named (process, "retry", WN_NODE_EXCLUSIVE, "Again?");
  node = add_named (process, "archive", WN_NODE_SERVICE, "Archive");
  node->worker = wn_worker_spec_new ("archive.store");
  add_named (process, "done", WN_NODE_END, "Done");

  wn_process_add_flow (process, "f1", "start", "wait", NULL);
  wn_process_add_flow (process, "f2", "wait", "prepare", NULL);
  wn_process_add_flow (process, "f3", "prepare", "fork", NULL);
  wn_process_add_flow (process, "f4", "fork", "pay", NULL);
  wn_process_add_flow (process, "f5", "fork", "pack", NULL);
  wn_process_add_flow (process, "f6", "fork", "notify", NULL);
  wn_process_add_flow (process, "f7", "pay", "join", NULL);
  wn_process_add_flow (process, "f8", "pack", "join", NULL);
  wn_process_add_flow (process, "f9", "notify", "join", NULL);
  wn_process_add_flow (process, "caught", "declined", "rejected", NULL);
  wn_process_add_flow (process, "f10", "join", "retry", NULL);
  wn_process_add_flow (process, "again", "retry", "prepare", "attempts < 3");
  wn_process_add_flow (process, "to-archive", "retry", "archive", NULL);
  wn_process_add_flow (process, "express", "retry", "done", "order.express == true");
  wn_process_add_flow (process, "f11", "archive", "done", NULL);
  g_assert_true (wn_process_set_attached_to (process, "declined", "pay"));
  g_assert_true (wn_process_set_default_flow (process, "retry", "to-archive"));

  g_assert_true (wn_process_finish (process, &error));
  g_assert_no_error (error);
  return process;
}

/* ---- helpers --------------------------------------------------------------- */

static graphene_rect_t
bounds_of (WinnowDiagram *diagram, const char *id)
{
  graphene_rect_t r;

  g_assert_true (winnow_diagram_get_node_bounds (diagram, id, &r));
  g_assert_cmpfloat (r.size.width, >, 0);
  g_assert_cmpfloat (r.size.height, >, 0);
  return r;
}

static double
center_x (const graphene_rect_t *r)
{
  return r->origin.x + r->size.width / 2;
}

static double
center_y (const graphene_rect_t *r)
{
  return r->origin.y + r->size.height / 2;
}

/* No two shapes overlap, boundaries against their own host excepted. */
static void
assert_no_overlaps (WinnowDiagram *diagram, WnProcess *process)
{
  for (guint i = 0; i < process->n_nodes; i++)
    for (guint j = i + 1; j < process->n_nodes; j++)
      {
        const WnNode *a = &process->nodes[i], *b = &process->nodes[j];
        graphene_rect_t ra = bounds_of (diagram, a->id), rb = bounds_of (diagram, b->id);

        if (a->attached_to == (int) j || b->attached_to == (int) i)
          continue;
        if (graphene_rect_intersection (&ra, &rb, NULL))
          g_error ("%s overlaps %s", a->id, b->id);
      }
}

/* Everything lies inside the layout's size. */
static void
assert_inside (WinnowDiagram *diagram, WnProcess *process)
{
  double w, h;

  winnow_diagram_get_layout_size (diagram, &w, &h);
  for (guint i = 0; i < process->n_nodes; i++)
    {
      graphene_rect_t r = bounds_of (diagram, process->nodes[i].id);

      g_assert_cmpfloat (r.origin.x, >=, 0);
      g_assert_cmpfloat (r.origin.y, >=, 0);
      g_assert_cmpfloat (r.origin.x + r.size.width, <=, w);
      g_assert_cmpfloat (r.origin.y + r.size.height, <=, h);
    }
}

static void
iterate (guint ms)
{
  gint64 until = g_get_monotonic_time () + ms * G_TIME_SPAN_MILLISECOND;

  while (g_get_monotonic_time () < until)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
}

static GtkWidget *
show_in_window (GtkWidget *diagram)
{
  GtkWidget *window = gtk_window_new ();
  gint64 deadline = g_get_monotonic_time () + 10 * G_TIME_SPAN_SECOND;

  gtk_window_set_default_size (GTK_WINDOW (window), 900, 500);
  gtk_window_set_child (GTK_WINDOW (window), diagram);
  gtk_window_present (GTK_WINDOW (window));
  while ((!gtk_widget_get_mapped (diagram) || gtk_widget_get_width (diagram) < 100) &&
         g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (gtk_widget_get_mapped (diagram));
  iterate (100);
  return window;
}

static GdkTexture *
render (GtkWidget *window, GtkWidget *diagram)
{
  g_autoptr(GdkPaintable) paintable = NULL;
  GtkSnapshot *snapshot;
  g_autoptr(GskRenderNode) node = NULL;
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (window));
  int w = gtk_widget_get_width (diagram), h = gtk_widget_get_height (diagram);
  GdkRGBA bg;

  /* Let pending style changes and redraws land first: the paintable copies
   * what the widget draws now. */
  iterate (50);
  paintable = gtk_widget_paintable_new (diagram);
  snapshot = gtk_snapshot_new ();
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  if (!gtk_style_context_lookup_color (gtk_widget_get_style_context (window), "window_bg_color", &bg))
    gdk_rgba_parse (&bg, "#fafafa");
  G_GNUC_END_IGNORE_DEPRECATIONS

  gtk_snapshot_append_color (snapshot, &bg, &GRAPHENE_RECT_INIT (0, 0, w, h));
  gdk_paintable_snapshot (paintable, snapshot, w, h);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  return gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, w, h));
}

static guchar *
pixels_of (GdkTexture *texture, gsize *stride)
{
  int w = gdk_texture_get_width (texture), h = gdk_texture_get_height (texture);
  guchar *data = g_malloc ((gsize) w * h * 4);

  *stride = (gsize) w * 4;
  gdk_texture_download (texture, data, *stride);
  return data;
}

/* Pixels that differ from the top-left one (the margin: background). */
static guint
count_ink (GdkTexture *texture)
{
  gsize stride;
  g_autofree guchar *data = pixels_of (texture, &stride);
  int w = gdk_texture_get_width (texture), h = gdk_texture_get_height (texture);
  guint ink = 0;

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      if (memcmp (data + y * stride + x * 4, data, 4) != 0)
        ink++;
  return ink;
}

static guint
count_differences (GdkTexture *a, GdkTexture *b)
{
  gsize stride_a, stride_b;
  g_autofree guchar *pa = pixels_of (a, &stride_a);
  g_autofree guchar *pb = pixels_of (b, &stride_b);
  int w = gdk_texture_get_width (a), h = gdk_texture_get_height (a);
  guint diff = 0;

  g_assert_cmpint (w, ==, gdk_texture_get_width (b));
  g_assert_cmpint (h, ==, gdk_texture_get_height (b));
  for (int y = 0; y < h; y++)
    if (memcmp (pa + y * stride_a, pb + y * stride_b, (gsize) w * 4) != 0)
      for (int x = 0; x < w; x++)
        if (memcmp (pa + y * stride_a + x * 4, pb + y * stride_b + x * 4, 4) != 0)
          diff++;
  return diff;
}

static void
save_png (GdkTexture *texture, const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_BUILT, name, NULL);

  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("wrote %s", path);
}

static void
notify_count_cb (GObject *object, GParamSpec *pspec, guint *count)
{
  (*count)++;
}

/* ---- tests ----------------------------------------------------------------- */

static void
test_layout (void)
{
  g_autoptr(WnProcess) process = build_order ();
  GtkWidget *diagram = g_object_ref_sink (winnow_diagram_new ());
  GtkWidget *again = g_object_ref_sink (winnow_diagram_new ());
  graphene_rect_t start, task, gateway, shipped, held, boundary, failed;
  const char *ids[] = { "start", "reserve", "payment-down", "check", "shipped", "held", "failed" };

  winnow_diagram_set_process (WINNOW_DIAGRAM (diagram), process);
  g_assert_true (winnow_diagram_get_process (WINNOW_DIAGRAM (diagram)) == process);
  g_assert_cmpint (process->ref_count, ==, 2);

  start = bounds_of (WINNOW_DIAGRAM (diagram), "start");
  task = bounds_of (WINNOW_DIAGRAM (diagram), "reserve");
  gateway = bounds_of (WINNOW_DIAGRAM (diagram), "check");
  shipped = bounds_of (WINNOW_DIAGRAM (diagram), "shipped");
  held = bounds_of (WINNOW_DIAGRAM (diagram), "held");
  boundary = bounds_of (WINNOW_DIAGRAM (diagram), "payment-down");
  failed = bounds_of (WINNOW_DIAGRAM (diagram), "failed");
  g_assert_false (winnow_diagram_get_node_bounds (WINNOW_DIAGRAM (diagram), "nope", NULL));

  /* Left to right along the flows. */
  g_assert_cmpfloat (start.origin.x + start.size.width, <, task.origin.x);
  g_assert_cmpfloat (task.origin.x + task.size.width, <, gateway.origin.x);
  g_assert_cmpfloat (gateway.origin.x + gateway.size.width, <, shipped.origin.x);
  g_assert_cmpfloat (gateway.origin.x + gateway.size.width, <, held.origin.x);
  /* The main path is a straight line. */
  g_assert_cmpfloat_with_epsilon (center_y (&start), center_y (&task), 0.01);
  g_assert_cmpfloat_with_epsilon (center_y (&task), center_y (&gateway), 0.01);
  /* Both ends in one layer, one above the other; the first flow stays straight. */
  g_assert_cmpfloat_with_epsilon (center_x (&shipped), center_x (&held), 0.01);
  g_assert_cmpfloat (fabs (center_y (&shipped) - center_y (&held)), >=, shipped.size.height);
  g_assert_cmpfloat_with_epsilon (center_y (&shipped), center_y (&gateway), 0.01);
  /* The boundary sits on the task's bottom edge; its target lies right of the
   * task and below the main line. */
  g_assert_cmpfloat_with_epsilon (center_y (&boundary), task.origin.y + task.size.height, 0.01);
  g_assert_cmpfloat (center_x (&boundary), >, task.origin.x);
  g_assert_cmpfloat (center_x (&boundary), <, task.origin.x + task.size.width);
  g_assert_cmpfloat (failed.origin.x, >, task.origin.x + task.size.width);
  g_assert_cmpfloat (center_y (&failed), >, center_y (&task));

  assert_no_overlaps (WINNOW_DIAGRAM (diagram), process);
  assert_inside (WINNOW_DIAGRAM (diagram), process);

  /* Deterministic. */
  winnow_diagram_set_process (WINNOW_DIAGRAM (again), process);
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      graphene_rect_t a = bounds_of (WINNOW_DIAGRAM (diagram), ids[i]);
      graphene_rect_t b = bounds_of (WINNOW_DIAGRAM (again), ids[i]);

      g_assert_true (graphene_rect_equal (&a, &b));
    }

  /* Clearing drops the layout and the ref. */
  winnow_diagram_set_process (WINNOW_DIAGRAM (diagram), NULL);
  g_assert_false (winnow_diagram_get_node_bounds (WINNOW_DIAGRAM (diagram), "start", NULL));
  g_assert_cmpint (process->ref_count, ==, 2);
  g_object_unref (again);
  g_assert_cmpint (process->ref_count, ==, 1);
  g_object_unref (diagram);
}

static void
test_layout_rich (void)
{
  g_autoptr(WnProcess) process = build_rich ();
  GtkWidget *diagram = g_object_ref_sink (winnow_diagram_new ());
  graphene_rect_t prepare, fork, pay, pack, notify, join, retry, archive, done, declined, rejected;

  winnow_diagram_set_process (WINNOW_DIAGRAM (diagram), process);
  prepare = bounds_of (WINNOW_DIAGRAM (diagram), "prepare");
  fork = bounds_of (WINNOW_DIAGRAM (diagram), "fork");
  pay = bounds_of (WINNOW_DIAGRAM (diagram), "pay");
  pack = bounds_of (WINNOW_DIAGRAM (diagram), "pack");
  notify = bounds_of (WINNOW_DIAGRAM (diagram), "notify");
  join = bounds_of (WINNOW_DIAGRAM (diagram), "join");
  retry = bounds_of (WINNOW_DIAGRAM (diagram), "retry");
  archive = bounds_of (WINNOW_DIAGRAM (diagram), "archive");
  done = bounds_of (WINNOW_DIAGRAM (diagram), "done");
  declined = bounds_of (WINNOW_DIAGRAM (diagram), "declined");
  rejected = bounds_of (WINNOW_DIAGRAM (diagram), "rejected");

  /* The loop back to "prepare" does not drag it right of the gateway. */
  g_assert_cmpfloat (center_x (&prepare), <, center_x (&fork));
  g_assert_cmpfloat (center_x (&retry), >, center_x (&join));
  /* The three branches share a layer, in document order. */
  g_assert_cmpfloat_with_epsilon (center_x (&pay), center_x (&pack), 0.01);
  g_assert_cmpfloat_with_epsilon (center_x (&pay), center_x (&notify), 0.01);
  g_assert_cmpfloat (center_y (&pay), <, center_y (&pack));
  g_assert_cmpfloat (center_y (&pack), <, center_y (&notify));
  /* The flow skipping "archive" puts "done" in the next layer. */
  g_assert_cmpfloat (center_x (&archive), <, center_x (&done));
  /* The boundary's target lies between the boundary and the next branch. */
  g_assert_cmpfloat_with_epsilon (center_y (&declined), pay.origin.y + pay.size.height, 0.01);
  g_assert_cmpfloat (center_x (&rejected), >, center_x (&pay));
  g_assert_cmpfloat (center_y (&rejected), >, center_y (&pay));

  assert_no_overlaps (WINNOW_DIAGRAM (diagram), process);
  assert_inside (WINNOW_DIAGRAM (diagram), process);
  g_object_unref (diagram);
}

static void
test_selection (void)
{
  g_autoptr(WnProcess) process = build_order ();
  GtkWidget *diagram = g_object_ref_sink (winnow_diagram_new ());
  WinnowDiagram *d = WINNOW_DIAGRAM (diagram);
  g_autofree char *prop = NULL;
  guint notified = 0;

  g_signal_connect (diagram, "notify::selected-node", G_CALLBACK (notify_count_cb), &notified);
  winnow_diagram_set_process (d, process);
  g_assert_null (winnow_diagram_get_selected_node (d));

  winnow_diagram_set_selected_node (d, "check");
  g_assert_cmpstr (winnow_diagram_get_selected_node (d), ==, "check");
  g_assert_cmpuint (notified, ==, 1);
  g_object_get (diagram, "selected-node", &prop, NULL);
  g_assert_cmpstr (prop, ==, "check");

  /* Same value: no notification. */
  winnow_diagram_set_selected_node (d, "check");
  g_assert_cmpuint (notified, ==, 1);

  g_object_set (diagram, "selected-node", "reserve", NULL);
  g_assert_cmpstr (winnow_diagram_get_selected_node (d), ==, "reserve");
  g_assert_cmpuint (notified, ==, 2);

  /* A node that does not exist selects nothing. */
  winnow_diagram_set_selected_node (d, "no-such-node");
  g_assert_null (winnow_diagram_get_selected_node (d));
  g_assert_cmpuint (notified, ==, 3);
  winnow_diagram_set_selected_node (d, NULL);
  g_assert_cmpuint (notified, ==, 3);

  /* Clearing the process drops the selection. */
  winnow_diagram_set_selected_node (d, "held");
  g_assert_cmpuint (notified, ==, 4);
  winnow_diagram_set_process (d, NULL);
  g_assert_null (winnow_diagram_get_selected_node (d));
  g_assert_cmpuint (notified, ==, 5);

  g_object_unref (diagram);
}

static void
test_badges_and_breakpoints (void)
{
  g_autoptr(WnProcess) process = build_order ();
  GtkWidget *diagram = winnow_diagram_new ();
  WinnowDiagram *d = WINNOW_DIAGRAM (diagram);
  GtkWidget *window;
  g_autoptr(GdkTexture) plain = NULL;
  g_autoptr(GdkTexture) badged = NULL;
  g_autoptr(GdkTexture) cleared = NULL;
  g_autoptr(GdkTexture) marked = NULL;
  guint active = 99, parked = 99, incident = 99;

  winnow_diagram_set_process (d, process);
  window = show_in_window (diagram);
  plain = render (window, diagram);

  g_assert_true (winnow_diagram_get_badges (d, "reserve", &active, &parked, &incident));
  g_assert_cmpuint (active + parked + incident, ==, 0);
  winnow_diagram_set_badges (d, "reserve", 2, 3, 1);
  winnow_diagram_set_badges (d, "no-such-node", 1, 1, 1);
  g_assert_false (winnow_diagram_get_badges (d, "no-such-node", NULL, NULL, NULL));
  g_assert_true (winnow_diagram_get_badges (d, "reserve", &active, &parked, &incident));
  g_assert_cmpuint (active, ==, 2);
  g_assert_cmpuint (parked, ==, 3);
  g_assert_cmpuint (incident, ==, 1);
  badged = render (window, diagram);
  g_assert_cmpuint (count_differences (plain, badged), >, 200);
  save_png (badged, "diagram-badges.png");

  winnow_diagram_clear_badges (d);
  g_assert_true (winnow_diagram_get_badges (d, "reserve", &active, &parked, &incident));
  g_assert_cmpuint (active + parked + incident, ==, 0);
  cleared = render (window, diagram);
  g_assert_cmpuint (count_differences (plain, cleared), ==, 0);

  g_assert_false (winnow_diagram_get_breakpoint (d, "check"));
  winnow_diagram_set_breakpoint (d, "check", TRUE);
  g_assert_true (winnow_diagram_get_breakpoint (d, "check"));
  marked = render (window, diagram);
  g_assert_cmpuint (count_differences (plain, marked), >, 20);
  winnow_diagram_set_breakpoint (d, "check", FALSE);
  g_assert_false (winnow_diagram_get_breakpoint (d, "check"));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Pixels of `texture` within `tol` of `color` on every channel. */
static guint
count_colour (GdkTexture *texture, const char *color, int tol)
{
  gsize stride;
  g_autofree guchar *data = pixels_of (texture, &stride);
  int w = gdk_texture_get_width (texture), h = gdk_texture_get_height (texture);
  GdkRGBA c;
  int r, g, b;
  guint n = 0;

  g_assert_true (gdk_rgba_parse (&c, color));
  r = (int) (c.red * 255 + 0.5);
  g = (int) (c.green * 255 + 0.5);
  b = (int) (c.blue * 255 + 0.5);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        const guchar *p = data + y * stride + x * 4;   /* B G R A, opaque */

        if (ABS (p[2] - r) <= tol && ABS (p[1] - g) <= tol && ABS (p[0] - b) <= tol)
          n++;
      }
  return n;
}

/* Of a task's parked tokens, those whose job waits behind its gate and
 * those a worker holds get pills of their own, in the gated and locked
 * colours of the tables, in light and dark (issue 16, polish). */
static void
test_badges_gated_locked (void)
{
  const struct { gboolean dark; const char *gated, *locked; const char *name; } modes[] = {
    { FALSE, "#a87300", "#1c71d8", "diagram-badges-jobs.png" },
    { TRUE, "#f5c211", "#62a0ea", "diagram-badges-jobs-dark.png" },
  };
  AdwStyleManager *manager = adw_style_manager_get_default ();

  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    {
      g_autoptr(WnProcess) process = build_order ();
      GtkWidget *diagram = winnow_diagram_new ();
      WinnowDiagram *d = WINNOW_DIAGRAM (diagram);
      GtkWidget *window;
      g_autoptr(GdkTexture) parked = NULL;
      g_autoptr(GdkTexture) split = NULL;
      guint gated = 9, locked = 9;
      gint64 deadline = g_get_monotonic_time () + 5 * G_TIME_SPAN_SECOND;

      adw_style_manager_set_color_scheme (manager, modes[m].dark ? ADW_COLOR_SCHEME_FORCE_DARK
                                                                 : ADW_COLOR_SCHEME_FORCE_LIGHT);
      while (adw_style_manager_get_dark (manager) != modes[m].dark && g_get_monotonic_time () < deadline)
        g_main_context_iteration (NULL, FALSE);
      winnow_diagram_set_process (d, process);
      window = show_in_window (diagram);
      winnow_diagram_set_badges (d, "reserve", 0, 3, 0);
      parked = render (window, diagram);
      g_assert_true (winnow_diagram_get_job_badges (d, "reserve", &gated, &locked));
      g_assert_cmpuint (gated + locked, ==, 0);
      winnow_diagram_set_job_badges (d, "reserve", 1, 1);
      winnow_diagram_set_job_badges (d, "no-such-node", 1, 1);
      g_assert_false (winnow_diagram_get_job_badges (d, "no-such-node", NULL, NULL));
      g_assert_true (winnow_diagram_get_job_badges (d, "reserve", &gated, &locked));
      g_assert_cmpuint (gated, ==, 1);
      g_assert_cmpuint (locked, ==, 1);
      split = render (window, diagram);
      save_png (split, modes[m].name);
      g_test_message ("%s: gated %u px, locked %u px (all parked: %u, %u)", modes[m].name,
                      count_colour (split, modes[m].gated, 6), count_colour (split, modes[m].locked, 6),
                      count_colour (parked, modes[m].gated, 6), count_colour (parked, modes[m].locked, 6));
      /* one pill each, in its colour; none while all three just wait */
      g_assert_cmpuint (count_colour (split, modes[m].gated, 6), >, 60);
      g_assert_cmpuint (count_colour (split, modes[m].locked, 6), >, 60);
      g_assert_cmpuint (count_colour (parked, modes[m].gated, 6), <, 5);
      g_assert_cmpuint (count_colour (parked, modes[m].locked, 6), <, 5);
      winnow_diagram_clear_badges (d);
      g_assert_true (winnow_diagram_get_job_badges (d, "reserve", &gated, &locked));
      g_assert_cmpuint (gated + locked, ==, 0);
      gtk_window_destroy (GTK_WINDOW (window));
    }
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);
}

/* How many pixels the badges on "reserve" change, drawn in a diagram pane
 * `height` px tall (and fitted), and the zoom that gave. */
static guint
badge_ink (int height, double *zoom)
{
  g_autoptr(WnProcess) process = build_order ();
  GtkWidget *diagram = winnow_diagram_new ();
  WinnowDiagram *d = WINNOW_DIAGRAM (diagram);
  GtkWidget *window;
  g_autoptr(GdkTexture) plain = NULL;
  g_autoptr(GdkTexture) badged = NULL;
  g_autofree char *name = g_strdup_printf ("diagram-badges-%d.png", height);
  guint ink;

  winnow_diagram_set_process (d, process);
  window = show_in_window (diagram);
  gtk_window_set_default_size (GTK_WINDOW (window), 900, height);
  iterate (300);
  winnow_diagram_zoom_to_fit (d);
  plain = render (window, diagram);
  winnow_diagram_set_badges (d, "reserve", 0, 3, 0);
  badged = render (window, diagram);
  save_png (badged, name);
  ink = count_differences (plain, badged);
  *zoom = winnow_diagram_get_zoom (d);
  gtk_window_destroy (GTK_WINDOW (window));
  return ink;
}

/* A short diagram pane shrinks its badges with the diagram, and shows all of
 * each (issue 16.10: half a "3", or none at all, at 1024×640). */
static void
test_badges_short_pane (void)
{
  double full_zoom, short_zoom;
  guint full = badge_ink (500, &full_zoom);
  guint small = badge_ink (170, &short_zoom);
  double scale = short_zoom / full_zoom;

  g_test_message ("badge ink %u at zoom %.2f, %u at zoom %.2f", full, full_zoom, small, short_zoom);
  g_assert_cmpfloat (short_zoom, <, 0.8 * full_zoom);
  g_assert_cmpuint (full, >, 150);
  /* the same pill, scaled: its area goes with the square of the zoom */
  g_assert_cmpfloat (small, >, 0.6 * full * scale * scale);
}

static void
test_zoom (void)
{
  g_autoptr(WnProcess) process = build_rich ();
  GtkWidget *diagram = winnow_diagram_new ();
  WinnowDiagram *d = WINNOW_DIAGRAM (diagram);
  GtkWidget *window;
  guint notified = 0;
  double w, h, zoom;

  winnow_diagram_set_process (d, process);
  window = show_in_window (diagram);
  g_signal_connect (diagram, "notify::zoom", G_CALLBACK (notify_count_cb), &notified);

  /* A new process is fitted: all of it visible, never magnified. */
  winnow_diagram_get_layout_size (d, &w, &h);
  zoom = winnow_diagram_get_zoom (d);
  g_assert_cmpfloat (zoom, <=, 1.0);
  g_assert_cmpfloat (zoom, >=, WINNOW_DIAGRAM_MIN_ZOOM);
  g_assert_cmpfloat (w * zoom, <=, gtk_widget_get_width (diagram) + 0.5);
  g_assert_cmpfloat (h * zoom, <=, gtk_widget_get_height (diagram) + 0.5);

  winnow_diagram_zoom_in (d);
  g_assert_cmpfloat (winnow_diagram_get_zoom (d), >, zoom);
  g_assert_cmpuint (notified, ==, 1);
  for (int i = 0; i < 20; i++)
    winnow_diagram_zoom_in (d);
  g_assert_cmpfloat (winnow_diagram_get_zoom (d), ==, WINNOW_DIAGRAM_MAX_ZOOM);
  for (int i = 0; i < 40; i++)
    winnow_diagram_zoom_out (d);
  g_assert_cmpfloat (winnow_diagram_get_zoom (d), ==, WINNOW_DIAGRAM_MIN_ZOOM);

  winnow_diagram_zoom_to_fit (d);
  g_assert_cmpfloat_with_epsilon (winnow_diagram_get_zoom (d), zoom, 1e-9);

  gtk_window_destroy (GTK_WINDOW (window));
}

typedef struct {
  WnProcess    *process;
  PangoContext *context;
} OffThread;

static gpointer
layout_thread (gpointer data)
{
  OffThread *job = data;

  return winnow_diagram_layout_with_context (job->process, job->context);
}

/* A layout made on another thread, with the diagram's text context
 * (issue 17.14: a big file is laid out while it loads), is the one the
 * widget makes itself: every shape where the widget's own layout puts it;
 * and a diagram given it ahead shows it instead of laying out again. */
static void
test_layout_off_thread (void)
{
  g_autoptr(WnProcess) process = build_rich ();
  GtkWidget *own = winnow_diagram_new ();
  GtkWidget *ahead = winnow_diagram_new ();
  GtkWidget *own_window, *ahead_window;
  OffThread job = { process, NULL };
  WinnowLayout *layout;
  double w, h, ahead_w, ahead_h;

  winnow_diagram_set_process (WINNOW_DIAGRAM (own), process);
  own_window = show_in_window (own);
  ahead_window = show_in_window (ahead);

  job.context = winnow_diagram_create_text_context (WINNOW_DIAGRAM (ahead));
  layout = g_thread_join (g_thread_new ("layout", layout_thread, &job));
  g_object_unref (job.context);   /* the layout's texts keep it */
  g_assert_nonnull (layout);

  winnow_diagram_get_layout_size (WINNOW_DIAGRAM (own), &w, &h);
  g_assert_cmpfloat (layout->width, ==, w);
  g_assert_cmpfloat (layout->height, ==, h);
  for (guint i = 0; i < process->n_nodes; i++)
    {
      graphene_rect_t bounds;

      g_assert_true (winnow_diagram_get_node_bounds (WINNOW_DIAGRAM (own), process->nodes[i].id, &bounds));
      g_assert_cmpfloat (layout->nodes[i].box.x, ==, bounds.origin.x);
      g_assert_cmpfloat (layout->nodes[i].box.y, ==, bounds.origin.y);
      g_assert_cmpfloat (layout->nodes[i].box.width, ==, bounds.size.width);
      g_assert_cmpfloat (layout->nodes[i].box.height, ==, bounds.size.height);
    }

  /* marked, to tell it from one the widget would make */
  layout->width += 1000;
  winnow_diagram_adopt_layout (WINNOW_DIAGRAM (ahead), process, layout);
  winnow_diagram_set_process (WINNOW_DIAGRAM (ahead), process);
  winnow_diagram_get_layout_size (WINNOW_DIAGRAM (ahead), &ahead_w, &ahead_h);
  g_assert_cmpfloat (ahead_w, ==, w + 1000);
  g_assert_cmpfloat (ahead_h, ==, h);
  /* it draws */
  gtk_widget_queue_draw (ahead);
  while (g_main_context_pending (NULL))
    g_main_context_iteration (NULL, FALSE);

  /* a layout given for another process is not used */
  {
    g_autoptr(WnProcess) other = build_order ();
    g_autoptr(WnProcess) same = build_order ();   /* the same model, another process */

    job.process = other;
    job.context = winnow_diagram_create_text_context (WINNOW_DIAGRAM (ahead));
    layout = g_thread_join (g_thread_new ("layout", layout_thread, &job));
    g_object_unref (job.context);
    layout->width += 1000;
    winnow_diagram_adopt_layout (WINNOW_DIAGRAM (ahead), other, layout);
    winnow_diagram_set_process (WINNOW_DIAGRAM (own), same);
    winnow_diagram_set_process (WINNOW_DIAGRAM (ahead), same);
    winnow_diagram_get_layout_size (WINNOW_DIAGRAM (own), &w, &h);
    winnow_diagram_get_layout_size (WINNOW_DIAGRAM (ahead), &ahead_w, &ahead_h);
    g_assert_cmpfloat (ahead_w, ==, w);
  }

  gtk_window_destroy (GTK_WINDOW (own_window));
  gtk_window_destroy (GTK_WINDOW (ahead_window));
}

/* Ctrl+0 fits a diagram of 2 000 nodes too (issue 17.14: it stopped at the
 * smallest zoom, 0.25, which showed a sliver of the chain), and zooming out
 * goes as far as the fit, no further. */
static void
test_zoom_fits_big (void)
{
  g_autoptr(WnProcess) process = wn_process_new ("chain");
  g_autoptr(GError) error = NULL;
  GtkWidget *diagram = winnow_diagram_new ();
  WinnowDiagram *d = WINNOW_DIAGRAM (diagram);
  GtkWidget *window;
  double w, h, fit;
  char prev[16] = "start";

  wn_process_add_node (process, "start", WN_NODE_START);
  for (guint i = 0; i < 1998; i++)
    {
      char id[16], flow[16];

      g_snprintf (id, sizeof id, "s%u", i);
      g_snprintf (flow, sizeof flow, "f%u", i);
      wn_process_add_node (process, id, WN_NODE_SERVICE)->worker = wn_worker_spec_new ("work");
      wn_process_add_flow (process, flow, prev, id, NULL);
      g_strlcpy (prev, id, sizeof prev);
    }
  wn_process_add_node (process, "end", WN_NODE_END);
  wn_process_add_flow (process, "last", prev, "end", NULL);
  g_assert_true (wn_process_finish (process, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (process->n_nodes, ==, 2000);

  winnow_diagram_set_process (d, process);
  window = show_in_window (diagram);
  winnow_diagram_get_layout_size (d, &w, &h);
  g_test_message ("layout %.0f × %.0f in %d × %d", w, h, gtk_widget_get_width (diagram), gtk_widget_get_height (diagram));
  g_assert_cmpfloat (w * WINNOW_DIAGRAM_MIN_ZOOM, >, gtk_widget_get_width (diagram));

  /* away from the fit, then Ctrl+0 */
  winnow_diagram_zoom_in (d);
  g_assert_true (gtk_widget_activate_action (diagram, "diagram.zoom-fit", NULL));
  fit = winnow_diagram_get_zoom (d);
  g_assert_cmpfloat (w * fit, <=, gtk_widget_get_width (diagram) + 0.5);
  g_assert_cmpfloat (h * fit, <=, gtk_widget_get_height (diagram) + 0.5);
  /* and it fills the pane one way */
  g_assert_cmpfloat (MAX (w * fit / gtk_widget_get_width (diagram), h * fit / gtk_widget_get_height (diagram)), >, 0.99);

  for (int i = 0; i < 5; i++)
    winnow_diagram_zoom_in (d);
  for (int i = 0; i < 200; i++)
    winnow_diagram_zoom_out (d);
  g_assert_cmpfloat_with_epsilon (winnow_diagram_get_zoom (d), fit, 1e-9);

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
render_to_png (WnProcess *process, const char *name, gboolean dark, const char *selected)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();
  GtkWidget *diagram = winnow_diagram_new ();
  GtkWidget *window;
  g_autoptr(GdkTexture) texture = NULL;
  gint64 deadline = g_get_monotonic_time () + 5 * G_TIME_SPAN_SECOND;

  adw_style_manager_set_color_scheme (manager, dark ? ADW_COLOR_SCHEME_FORCE_DARK : ADW_COLOR_SCHEME_FORCE_LIGHT);
  while (adw_style_manager_get_dark (manager) != dark && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  g_assert_true (adw_style_manager_get_dark (manager) == dark);
  winnow_diagram_set_process (WINNOW_DIAGRAM (diagram), process);
  winnow_diagram_set_selected_node (WINNOW_DIAGRAM (diagram), selected);
  window = show_in_window (diagram);
  g_assert_cmpint (gtk_widget_get_width (diagram), >, 100);

  texture = render (window, diagram);
  g_assert_cmpint (gdk_texture_get_width (texture), ==, gtk_widget_get_width (diagram));
  /* Not blank: shapes, flows and labels cover a fair share of it. */
  g_assert_cmpuint (count_ink (texture), >, 2000);
  save_png (texture, name);

  gtk_window_destroy (GTK_WINDOW (window));
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);
}

static void
test_render (void)
{
  g_autoptr(WnProcess) order = build_order ();
  g_autoptr(WnProcess) rich = build_rich ();

  render_to_png (order, "diagram.png", FALSE, NULL);
  render_to_png (order, "diagram-dark.png", TRUE, "reserve");
  render_to_png (rich, "diagram-rich.png", FALSE, "retry");
  render_to_png (rich, "diagram-rich-dark.png", TRUE, NULL);
}

static guint
ink_of (WnProcess *process)
{
  GtkWidget *diagram = winnow_diagram_new ();
  GtkWidget *window;
  g_autoptr(GdkTexture) texture = NULL;
  guint ink;

  winnow_diagram_set_process (WINNOW_DIAGRAM (diagram), process);
  window = show_in_window (diagram);
  texture = render (window, diagram);
  ink = count_ink (texture);
  gtk_window_destroy (GTK_WINDOW (window));
  return ink;
}

/* A BPMN model's pool and lanes are drawn (as frames: more ink than without
 * them); a date timer's tooltip says when it fires. */
static void
test_render_bpmn (void)
{
  g_autofree char *lanes_path = g_test_build_filename (G_TEST_DIST, "data", "bpmn", "winnow", "lanes-c7.bpmn", NULL);
  g_autofree char *dates_path = g_test_build_filename (G_TEST_DIST, "data", "bpmn", "winnow", "dates-c7.bpmn", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(WnProcess) lanes = wn_load_process_file (lanes_path, NULL, &error);
  g_autoptr(WnProcess) dates = NULL;
  GtkWidget *diagram;
  guint with_frames, without;
  guint n_frames;

  g_assert_no_error (error);
  render_to_png (lanes, "diagram-bpmn-lanes.png", FALSE, "charge");
  with_frames = ink_of (lanes);
  n_frames = lanes->diagram->n_frames;
  lanes->diagram->n_frames = 0;
  without = ink_of (lanes);
  lanes->diagram->n_frames = n_frames;
  g_assert_cmpuint (with_frames, >, without + 500);

  dates = wn_load_process_file (dates_path, NULL, &error);
  g_assert_no_error (error);
  diagram = g_object_ref_sink (winnow_diagram_new ());
  winnow_diagram_set_process (WINNOW_DIAGRAM (diagram), dates);
  for (guint i = 0; i < 2; i++)
    {
      graphene_rect_t r = bounds_of (WINNOW_DIAGRAM (diagram), i == 0 ? "opens" : "closes");
      GtkTooltip *tooltip = g_object_new (GTK_TYPE_TOOLTIP, NULL);
      gboolean shown = FALSE;

      g_signal_emit_by_name (diagram, "query-tooltip", (int) center_x (&r), (int) center_y (&r), FALSE, tooltip, &shown);
      g_assert_true (shown);
      g_object_unref (tooltip);
    }
  g_object_unref (diagram);
}

static gboolean
query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard)
{
  GtkTooltip *tooltip = g_object_new (GTK_TYPE_TOOLTIP, NULL);
  gboolean shown = FALSE;

  g_signal_emit_by_name (widget, "query-tooltip", x, y, keyboard, tooltip, &shown);
  g_object_unref (tooltip);
  return shown;
}

static void
test_tooltips (void)
{
  g_autoptr(WnProcess) process = build_rich ();
  GtkWidget *diagram = g_object_ref_sink (winnow_diagram_new ());
  WinnowDiagram *d = WINNOW_DIAGRAM (diagram);
  const char *ids[] = { "start", "wait", "prepare", "fork", "pay", "declined", "rejected", "notify", "retry", "done" };

  winnow_diagram_set_process (d, process);
  winnow_diagram_set_badges (d, "pay", 1, 2, 3);
  winnow_diagram_set_breakpoint (d, "pay", TRUE);

  /* Unallocated, the view is the identity: widget and layout coordinates agree.
   * Every kind of node has a tooltip (its markup must parse: a bad one warns). */
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      graphene_rect_t r = bounds_of (d, ids[i]);

      g_assert_true (query_tooltip (diagram, (int) center_x (&r), (int) center_y (&r), FALSE));
    }
  g_assert_false (query_tooltip (diagram, 1, 1, FALSE));

  /* From the keyboard: the selected node's. */
  g_assert_false (query_tooltip (diagram, 0, 0, TRUE));
  winnow_diagram_set_selected_node (d, "archive");
  g_assert_true (query_tooltip (diagram, 0, 0, TRUE));

  winnow_diagram_set_process (d, NULL);
  g_assert_false (query_tooltip (diagram, 0, 0, TRUE));
  g_object_unref (diagram);
}

static WnProcess *
load_model (const char *dir, const char *name)
{
  g_autofree char *path = g_strcmp0 (dir, "examples") == 0 ?
                          g_test_build_filename (G_TEST_DIST, "..", "data", "examples", name, NULL) :
                          g_test_build_filename (G_TEST_DIST, "data", "bpmn", "winnow", name, NULL);
  g_autoptr(GError) error = NULL;
  WnProcess *process = wn_load_process_or_bpmn_file (path, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return process;
}

/* A click at (x, y), in widget coordinates, through the diagram's own gesture. */
static void
click_at (GtkWidget *diagram, double x, double y)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (diagram);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_GESTURE_CLICK (controller))
        {
          g_signal_emit_by_name (controller, "released", 1, x, y);
          return;
        }
    }
  g_error ("the diagram has no click gesture");
}

/* Nodes inside a container are nodes like any other: a click selects the
 * child under it, the container where none is (a boundary on its border
 * before either), each has its tooltip, and a badge on a child is drawn. */
static void
test_containers (void)
{
  g_autoptr(WnProcess) process = load_model ("examples", "payment-timeout.process.json");
  GtkWidget *diagram = winnow_diagram_new ();
  WinnowDiagram *d = WINNOW_DIAGRAM (diagram);
  graphene_rect_t payment, charge, declined;
  double w, h;
  g_autoptr(GdkTexture) plain = NULL;
  g_autoptr(GdkTexture) badged = NULL;
  GtkWidget *window;

  g_object_ref_sink (diagram);
  winnow_diagram_set_process (d, process);
  /* unallocated, widget and layout coordinates agree */
  payment = bounds_of (d, "payment");
  charge = bounds_of (d, "charge");
  declined = bounds_of (d, "declined");
  g_assert_true (graphene_rect_contains_rect (&payment, &charge));
  click_at (diagram, center_x (&charge), center_y (&charge));
  g_assert_cmpstr (winnow_diagram_get_selected_node (d), ==, "charge");
  click_at (diagram, payment.origin.x + 6, center_y (&payment));
  g_assert_cmpstr (winnow_diagram_get_selected_node (d), ==, "payment");
  click_at (diagram, center_x (&declined), center_y (&declined));
  g_assert_cmpstr (winnow_diagram_get_selected_node (d), ==, "declined");
  click_at (diagram, 1, 1);
  g_assert_null (winnow_diagram_get_selected_node (d));
  g_assert_true (query_tooltip (diagram, (int) center_x (&charge), (int) center_y (&charge), FALSE));
  g_assert_true (query_tooltip (diagram, (int) payment.origin.x + 6, (int) center_y (&payment), FALSE));
  g_object_unref (diagram);

  diagram = winnow_diagram_new ();
  d = WINNOW_DIAGRAM (diagram);
  winnow_diagram_set_process (d, process);
  window = show_in_window (diagram);
  /* zoom to fit takes in every container with its content and boundaries */
  winnow_diagram_zoom_in (d);
  winnow_diagram_zoom_to_fit (d);
  winnow_diagram_get_layout_size (d, &w, &h);
  payment = bounds_of (d, "payment");
  declined = bounds_of (d, "declined");
  g_assert_cmpfloat (payment.origin.x + payment.size.width, <=, w);
  g_assert_cmpfloat (declined.origin.y + declined.size.height, <=, h);
  g_assert_cmpfloat (w * winnow_diagram_get_zoom (d), <=, gtk_widget_get_width (diagram) + 0.5);
  g_assert_cmpfloat (h * winnow_diagram_get_zoom (d), <=, gtk_widget_get_height (diagram) + 0.5);
  plain = render (window, diagram);
  winnow_diagram_set_badges (d, "charge", 1, 2, 0);
  badged = render (window, diagram);
  g_assert_cmpuint (count_differences (plain, badged), >, 100);
  gtk_window_destroy (GTK_WINDOW (window));

  render_to_png (process, "diagram-containers.png", FALSE, "charge");
  render_to_png (process, "diagram-containers-dark.png", TRUE, "payment");
}

/* A closed BPMN sub-process hides its content: the tokens of a node inside
 * it are counted on it, and the node's bounds are its. */
static void
test_collapsed (void)
{
  g_autoptr(WnProcess) process = load_model ("bpmn", "subprocesses-c7.bpmn");
  GtkWidget *diagram = winnow_diagram_new ();
  WinnowDiagram *d = WINNOW_DIAGRAM (diagram);
  g_autoptr(GdkTexture) plain = NULL;
  g_autoptr(GdkTexture) badged = NULL;
  g_autoptr(GdkTexture) with_book = NULL;
  g_autoptr(GdkTexture) with_ship = NULL;
  graphene_rect_t ship, book;
  guint active = 0;
  GtkWidget *window;

  winnow_diagram_set_process (d, process);
  ship = bounds_of (d, "ship");
  book = bounds_of (d, "book");
  g_assert_true (graphene_rect_equal (&ship, &book));
  window = show_in_window (diagram);
  plain = render (window, diagram);
  winnow_diagram_set_badges (d, "book", 1, 0, 0);
  g_assert_true (winnow_diagram_get_badges (d, "book", &active, NULL, NULL));
  g_assert_cmpuint (active, ==, 1);
  badged = render (window, diagram);
  g_assert_cmpuint (count_differences (plain, badged), >, 100);
  /* selecting a hidden node (from a table) rings the closed box */
  winnow_diagram_clear_badges (d);
  winnow_diagram_set_selected_node (d, "book");
  with_book = render (window, diagram);
  g_assert_cmpuint (count_differences (plain, with_book), >, 100);
  winnow_diagram_set_selected_node (d, "ship");
  with_ship = render (window, diagram);
  g_assert_cmpuint (count_differences (with_book, with_ship), ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));
  render_to_png (process, "diagram-bpmn-subprocesses.png", FALSE, NULL);
}

static void
test_empty (void)
{
  GtkWidget *diagram = winnow_diagram_new ();
  WinnowDiagram *d = WINNOW_DIAGRAM (diagram);
  GtkWidget *window;
  g_autoptr(GdkTexture) texture = NULL;
  double w = -1, h = -1;
  int natural = -1;

  winnow_diagram_get_layout_size (d, &w, &h);
  g_assert_cmpfloat (w, ==, 0);
  g_assert_cmpfloat (h, ==, 0);
  gtk_widget_measure (diagram, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
  g_assert_cmpint (natural, ==, 0);
  winnow_diagram_set_badges (d, "start", 1, 1, 1);
  winnow_diagram_clear_badges (d);
  winnow_diagram_set_selected_node (d, "start");
  g_assert_null (winnow_diagram_get_selected_node (d));

  gtk_widget_set_size_request (diagram, 300, 200);
  window = show_in_window (diagram);
  texture = render (window, diagram);
  g_assert_cmpuint (count_ink (texture), ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A task's tooltip shows its policy as the run resolves it: the scenario's
 * engine block counts (flaky-service sets its retry there), and an operator's
 * trust change shows at once. */
static void
test_tooltip_policy (void)
{
  const char *dir = g_getenv ("WINNOW_EXAMPLES_DIR");
  g_autofree char *path = g_build_filename (dir ? dir : "data/examples", "flaky-service.process.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(WnProcess) process = wn_load_process_file (path, NULL, &error);
  WnEngineOptions options = { 0 };
  g_autoptr(WnEngine) engine = NULL;
  GtkWidget *diagram = g_object_ref_sink (winnow_diagram_new ());
  g_autofree char *tip = NULL;
  g_autofree char *again = NULL;

  g_assert_no_error (error);
  engine = wn_engine_new (process, NULL, &options);
  winnow_diagram_set_process (WINNOW_DIAGRAM (diagram), process);
  winnow_diagram_set_engine (WINNOW_DIAGRAM (diagram), engine);
  tip = winnow_diagram_dup_tooltip (WINNOW_DIAGRAM (diagram), "quote");
  g_assert_nonnull (tip);
  g_assert_nonnull (strstr (tip, "×4"));
  g_assert_nonnull (strstr (tip, "(engine-wide)"));
  g_assert_nonnull (strstr (tip, "engineAuthoritative"));
  g_assert_true (wn_engine_set_task_trust (engine, "quote", WN_TRUST_WORKER_TRUSTED, NULL));
  again = winnow_diagram_dup_tooltip (WINNOW_DIAGRAM (diagram), "quote");
  g_assert_nonnull (strstr (again, "workerTrusted"));
  winnow_diagram_set_process (WINNOW_DIAGRAM (diagram), NULL);
  g_object_unref (diagram);
}

int
main (int argc, char *argv[])
{
  wn_test_require_display ("test-diagram");

  /* No accessibility bus under a bare test display: its warning would be fatal. */
  g_setenv ("GTK_A11Y", "none", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/app/Diagram/layout", test_layout);
  g_test_add_func ("/app/Diagram/render-bpmn", test_render_bpmn);
  g_test_add_func ("/app/Diagram/layout-rich", test_layout_rich);
  g_test_add_func ("/app/Diagram/selection", test_selection);
  g_test_add_func ("/app/Diagram/badges-and-breakpoints", test_badges_and_breakpoints);
  g_test_add_func ("/app/Diagram/badges-short-pane", test_badges_short_pane);
  g_test_add_func ("/app/Diagram/badges-gated-locked", test_badges_gated_locked);
  g_test_add_func ("/app/Diagram/zoom", test_zoom);
  g_test_add_func ("/app/Diagram/zoom-fits-big", test_zoom_fits_big);
  g_test_add_func ("/app/Diagram/tooltips", test_tooltips);
  g_test_add_func ("/app/Diagram/tooltip-policy", test_tooltip_policy);
  g_test_add_func ("/app/Diagram/render", test_render);
  g_test_add_func ("/app/Diagram/layout-off-thread", test_layout_off_thread);
  g_test_add_func ("/app/Diagram/empty", test_empty);
  g_test_add_func ("/app/Diagram/containers", test_containers);
  g_test_add_func ("/app/Diagram/collapsed", test_collapsed);

  return g_test_run ();
}
