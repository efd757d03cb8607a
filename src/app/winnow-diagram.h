/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-diagram.h — the process diagram: layered BPMN drawing with live token badges. */
#pragma once

#include <gtk/gtk.h>

#include "winnow.h"
#include "winnow-layout.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_DIAGRAM (winnow_diagram_get_type ())

G_DECLARE_FINAL_TYPE (WinnowDiagram, winnow_diagram, WINNOW, DIAGRAM, GtkWidget)

/* The smallest zoom, unless the whole diagram needs less to fit: then the
 * zoom that fits it is the smallest (a 2 000-node chain fits at 0.003). */
#define WINNOW_DIAGRAM_MIN_ZOOM 0.25
/* The smallest zoom of any diagram (the property's range). */
#define WINNOW_DIAGRAM_FLOOR_ZOOM 1e-4
#define WINNOW_DIAGRAM_MAX_ZOOM 4.0

GtkWidget  *winnow_diagram_new               (void);

/* Takes a ref and lays the process out once; NULL clears the diagram. Badges,
 * breakpoints and a selection that does not exist in the new process are dropped. */
void        winnow_diagram_set_process       (WinnowDiagram   *self,
                                              WnProcess       *process);
WnProcess  *winnow_diagram_get_process       (WinnowDiagram   *self);

/* Laying a process out off the GTK thread (a big file, issue 17.14). The
 * context has the widget's text settings (font, language, direction,
 * resolution, font options) on a font map of its own: make it on the GTK
 * thread, then use it on one other thread only. The layout's texts are
 * PangoLayouts of it, which the diagram draws as it draws its own. */
PangoContext *winnow_diagram_create_text_context (WinnowDiagram   *self);
WinnowLayout *winnow_diagram_layout_with_context (const WnProcess *process,
                                                  PangoContext    *context);
/* The layout (taken) to show when `process` is next set, instead of laying
 * it out then; another one, or NULL, drops it. */
void        winnow_diagram_adopt_layout      (WinnowDiagram   *self,
                                              WnProcess       *process,
                                              WinnowLayout    *layout);

/* The computed layout, in diagram units (zoom 1, origin at the top-left corner of
 * the diagram including its margin). Boundary events report their small circle. */
gboolean    winnow_diagram_get_node_bounds   (WinnowDiagram   *self,
                                              const char      *node_id,
                                              graphene_rect_t *out);
/* The layout's size at zoom 1, margins included; 0×0 without a process. */
void        winnow_diagram_get_layout_size   (WinnowDiagram   *self,
                                              double          *width,
                                              double          *height);

/* Live token counts drawn as pills at a node's top-right corner. */
void        winnow_diagram_set_badges        (WinnowDiagram   *self,
                                              const char      *node_id,
                                              guint            active,
                                              guint            parked,
                                              guint            incident);
gboolean    winnow_diagram_get_badges        (WinnowDiagram   *self,
                                              const char      *node_id,
                                              guint           *active,
                                              guint           *parked,
                                              guint           *incident);
/* Of a node's parked tokens, how many wait on a job behind its notBefore
 * gate and how many on a job a worker holds: each gets a pill of its own
 * (hourglass, padlock), the rest stay "parked". */
void        winnow_diagram_set_job_badges    (WinnowDiagram   *self,
                                              const char      *node_id,
                                              guint            gated,
                                              guint            locked);
gboolean    winnow_diagram_get_job_badges    (WinnowDiagram   *self,
                                              const char      *node_id,
                                              guint           *gated,
                                              guint           *locked);
void        winnow_diagram_clear_badges      (WinnowDiagram   *self);

/* "selected-node": the id of the selected node, or NULL. */
void        winnow_diagram_set_selected_node (WinnowDiagram   *self,
                                              const char      *node_id);
const char *winnow_diagram_get_selected_node (WinnowDiagram   *self);

/* A red dot at the node's top-left corner. */
void        winnow_diagram_set_breakpoint    (WinnowDiagram   *self,
                                              const char      *node_id,
                                              gboolean         enabled);
gboolean    winnow_diagram_get_breakpoint    (WinnowDiagram   *self,
                                              const char      *node_id);

/* "zoom": 0.25…4. Fitting (also what a new process starts with) keeps the whole
 * diagram visible, never magnified beyond 1, until the user zooms or pans. */
double      winnow_diagram_get_zoom          (WinnowDiagram   *self);
void        winnow_diagram_set_zoom          (WinnowDiagram   *self,
                                              double           zoom);
void        winnow_diagram_zoom_in           (WinnowDiagram   *self);
void        winnow_diagram_zoom_out          (WinnowDiagram   *self);
void        winnow_diagram_zoom_to_fit       (WinnowDiagram   *self);

/* The run of the process shown (borrowed: set it again, or NULL, whenever the
 * run changes; winnow_diagram_set_process() clears it): the tooltips then
 * show each task's policy as the run resolves it. */
void        winnow_diagram_set_engine        (WinnowDiagram   *self,
                                              WnEngine        *engine);

/* A node's tooltip (Pango markup), as hovering it shows; NULL: no such node. */
char       *winnow_diagram_dup_tooltip       (WinnowDiagram   *self,
                                              const char      *node);

G_END_DECLS
