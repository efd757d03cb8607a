/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-lab-attempts.h — the Compare page's attempts per job: for each
 * number of executions a job took (1, 2, 3 …), one bar per variant giving
 * the share of its jobs that took that many, side by side in the variants'
 * colours; the tooltip gives every variant's share and count there. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define WINNOW_TYPE_LAB_ATTEMPTS (winnow_lab_attempts_get_type ())
G_DECLARE_FINAL_TYPE (WinnowLabAttempts, winnow_lab_attempts, WINNOW, LAB_ATTEMPTS, GtkWidget)

/* At most this many groups: jobs that took more are counted in the last. */
#define WINNOW_LAB_ATTEMPTS_MAX 20

/* summaries: WnLabSummary* (a reference is kept), or NULL for none. */
void     winnow_lab_attempts_set_summaries (WinnowLabAttempts *self, GPtrArray *summaries);
/* Groups shown: the most attempts any job took (up to the maximum). */
guint    winnow_lab_attempts_get_n_groups  (WinnowLabAttempts *self);
/* Jobs of variant v that took `attempts` executions (the last group: or more). */
guint64  winnow_lab_attempts_get_count     (WinnowLabAttempts *self, guint v, guint attempts);
/* The tooltip's text at x (widget coordinates), or NULL off the groups. */
char    *winnow_lab_attempts_describe_at   (WinnowLabAttempts *self, double x);
/* As SVG or PNG: winnow_lab_chart_render(). */

G_END_DECLS
