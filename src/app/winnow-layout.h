/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-layout.h — where the process diagram puts its shapes, flows and
 * texts: a layered layout, computed once per process, without GTK (GLib and
 * the engine only), so that it is tested without a display.
 *
 * Texts are the caller's: the layout asks it to make, fit and measure them
 * (WinnowLayoutTextFuncs) and keeps the opaque handles it gets, which the
 * caller then draws. Everything is in diagram units (zoom 1), with the origin
 * at the top-left corner of the margin.
 */
#pragma once

#include <glib.h>

#include "winnow.h"

G_BEGIN_DECLS

/* Sizes the drawing shares with the layout, in diagram units. */
#define WINNOW_LAYOUT_EVENT_RADIUS    18.0
#define WINNOW_LAYOUT_GATEWAY_RADIUS  25.0
#define WINNOW_LAYOUT_ARROW_LENGTH     9.0

typedef enum {
  WINNOW_LAYOUT_ALIGN_LEFT,
  WINNOW_LAYOUT_ALIGN_CENTER,
  WINNOW_LAYOUT_ALIGN_RIGHT,
} WinnowLayoutAlign;

typedef enum {
  WINNOW_LAYOUT_ELLIPSIZE_MIDDLE,
  WINNOW_LAYOUT_ELLIPSIZE_END,
} WinnowLayoutEllipsize;

/* How the layout makes and measures its texts. */
typedef struct {
  /* A text in the body font (a task's name) or the small one (the rest). */
  gpointer (*text_new)  (const char            *text,
                         gboolean               small,
                         gpointer               user_data);
  /* Wrap and ellipsize to `max_width` and `max_lines` when it does not fit
   * (and lay it out whole again when it does). */
  void     (*text_fit)  (gpointer               text,
                         double                 max_width,
                         int                    max_lines,
                         WinnowLayoutAlign      align,
                         WinnowLayoutEllipsize  ellipsize,
                         gpointer               user_data);
  /* Its size, as laid out now. */
  void     (*text_size) (gpointer               text,
                         double                *width,
                         double                *height,
                         gpointer               user_data);
  GDestroyNotify text_free;
} WinnowLayoutTextFuncs;

/* Single precision, like graphene's types, which the widget hands them to. */
typedef struct {
  float x;
  float y;
} WinnowLayoutPoint;

typedef struct {
  float x;
  float y;
  float width;
  float height;
} WinnowLayoutRect;

typedef struct {
  WinnowLayoutRect box;        /* the shape */
  double           cx;
  double           cy;
  int              layer;      /* -1: an attached boundary event */
  int              row;
  gpointer         label;      /* name (or id); NULL when drawn on a flow */
  WinnowLayoutRect label_rect;
  gpointer         topic;      /* service tasks with a worker */
  WinnowLayoutRect topic_rect;
  gboolean         container;  /* an expanded sub-process: a frame its children are drawn inside,
                                * its name (label) at the frame's top-left corner */
  gboolean         hidden;     /* inside a collapsed sub-process (BPMN): not drawn */
  int              depth;      /* how many containers hold it (0: the process's own) */
} WinnowLayoutNode;

typedef struct {
  GArray          *points;     /* WinnowLayoutPoint, source to target; empty: not drawn */
  gpointer         label;      /* the condition, or the error a boundary catches */
  WinnowLayoutRect label_rect;
  gboolean         is_default;
  gboolean         back;       /* against the layering (a loop): drawn dashed */
} WinnowLayoutFlow;

/* A BPMN pool or lane (drawn under everything else). */
typedef struct {
  WinnowLayoutRect box;
  WinnowLayoutRect band;       /* where the name goes: the left edge, or the top when vertical */
  gpointer         label;      /* the name, to be drawn along the band (turned for a horizontal frame); or NULL */
  gboolean         lane;
  gboolean         vertical;
} WinnowLayoutFrame;

typedef struct {
  WinnowLayoutNode *nodes;     /* per process node, by index */
  WinnowLayoutFlow *flows;     /* per process flow, by index */
  guint             n_nodes;
  guint             n_flows;
  WinnowLayoutFrame *frames;   /* a BPMN diagram's pool, then its lanes */
  guint             n_frames;
  double            width;     /* margins included */
  double            height;

  /*< private >*/
  const WinnowLayoutTextFuncs *funcs;
  gpointer                     user_data;
} WinnowLayout;

/* Lays out a finished process (as its BPMN diagram says when it has one);
 * `funcs` must outlive the layout. */
WinnowLayout *winnow_layout_new            (const WnProcess             *process,
                                            const WinnowLayoutTextFuncs *funcs,
                                            gpointer                     user_data);
void          winnow_layout_free           (WinnowLayout                *layout);

/* What the layout and the drawing both go by. */
gboolean      winnow_layout_is_task        (WnNodeType                   type);
gboolean      winnow_layout_is_gateway     (WnNodeType                   type);
/* A boundary event on a host (drawn on its border, not laid out itself). */
gboolean      winnow_layout_is_attached    (const WnProcess             *process,
                                            const WnNode                *node);
/* The nearest node that is drawn: `index` itself, or the collapsed
 * sub-process that holds it. */
guint         winnow_layout_shown_as       (const WinnowLayout          *layout,
                                            const WnProcess             *process,
                                            guint                        index);
/* The node's name, or its id when it has none. */
const char   *winnow_layout_node_title     (const WnNode                *node);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WinnowLayout, winnow_layout_free)

G_END_DECLS
