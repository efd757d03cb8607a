/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-diagram-pane.h — the diagram area: the process (WinnowDiagram)
 * with its badges, legend and zoom-to-fit button, or, with no process
 * open, a page that opens one or an example. */
#pragma once

#include <adwaita.h>

#include "winnow-diagram.h"
#include "winnow-panel.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_DIAGRAM_PANE (winnow_diagram_pane_get_type ())
G_DECLARE_FINAL_TYPE (WinnowDiagramPane, winnow_diagram_pane, WINNOW, DIAGRAM_PANE, WinnowPanel)

WinnowDiagram *winnow_diagram_pane_get_diagram (WinnowDiagramPane *self);
/* Catch up with the nodes' counts (the badges); cheap when none changed. */
void           winnow_diagram_pane_update      (WinnowDiagramPane *self);
/* A button on the empty page that opens the example at `path`
 * (win.open-example). */
void           winnow_diagram_pane_add_example (WinnowDiagramPane *self,
                                                const char        *label,
                                                const char        *path);

/* While a file is loaded off the GTK thread: the file's name, a spinner,
 * how far the load has come and a Cancel button (win.cancel-load) instead of
 * the diagram; NULL goes back to the diagram (or the empty page). */
void           winnow_diagram_pane_show_loading (WinnowDiagramPane *self,
                                                 const char        *name);
/* What the load does now, and how far it has come (0 to 1). */
void           winnow_diagram_pane_set_loading_stage (WinnowDiagramPane *self,
                                                      const char        *what,
                                                      double             fraction);

G_END_DECLS
