/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-bench-ideal.h — the limit row's ideal engine (wn-bench-ideal.c). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Sizes of what the ideal engine allocates per execution, as Winnow's engine
 * does for (a): an instance (kept to the end of the run), a job and its
 * delivery (freed when the execution ends). */
#define WN_IDEAL_RECORD_SIZE   176
#define WN_IDEAL_JOB_SIZE      224
#define WN_IDEAL_DELIVERY_SIZE 80

/* `executions` executions, one after the other; returns a checksum of what
 * went through (so nothing is optimised away; it is `executions` × (executions
 * + 1) / 2 when every job came back). */
guint64 wn_bench_ideal_run (guint executions);

G_END_DECLS
