/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-node-inspector.h — the side panel's node section: the selected
 * node's type, topic, retry policy and live tracks, its breakpoint switch
 * and its task's trust. */
#pragma once

#include "winnow-panel.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_NODE_INSPECTOR (winnow_node_inspector_get_type ())
G_DECLARE_FINAL_TYPE (WinnowNodeInspector, winnow_node_inspector, WINNOW, NODE_INSPECTOR, WinnowPanel)

/* Catch up with the tracks at the selected node (the live counts). */
void winnow_node_inspector_update         (WinnowNodeInspector *self);

G_END_DECLS
