/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-lab-histogram.h — a completion-time distribution drawn with cairo
 * through GtkSnapshot: the policy lab's log-bucket histogram regrouped into
 * bars of equal width on a logarithmic time axis, with p50, p90, p99 and the
 * maximum marked. A tooltip gives the bar under the pointer and the marks. */
#pragma once

#include <gtk/gtk.h>

#include "wn-lab-histogram.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_LAB_HISTOGRAM (winnow_lab_histogram_get_type ())
G_DECLARE_FINAL_TYPE (WinnowLabHistogram, winnow_lab_histogram, WINNOW, LAB_HISTOGRAM, GtkWidget)

/* The bars on a log axis: this many per decade. */
#define WINNOW_LAB_HISTOGRAM_BARS_PER_DECADE 10

/* histogram: copied; NULL or empty for none. */
void     winnow_lab_histogram_set_histogram (WinnowLabHistogram *self, const WnLabHistogram *histogram);
/* The values the bars hold, all together (the histogram's count). */
guint64  winnow_lab_histogram_get_total     (WinnowLabHistogram *self);
guint    winnow_lab_histogram_get_n_bars    (WinnowLabHistogram *self);
/* The tooltip's text at x (widget coordinates), or NULL off the bars. */
char    *winnow_lab_histogram_describe_at   (WinnowLabHistogram *self, double x);

G_END_DECLS
