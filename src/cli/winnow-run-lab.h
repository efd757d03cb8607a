/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-run-lab.h — winnow-run's policy-lab options: --sweep, --shard,
 * --merge, -j, --format, --seeds (docs/sweeps.md). Kept apart from the v1
 * runner so that its options and outputs stay as they are. */
#pragma once

#include <glib.h>
#include "winnow.h"

G_BEGIN_DECLS

typedef struct {
  char     *sweep;
  gboolean  merge;
  char     *shard;
  guint     jobs;
  char     *format;
  guint     seeds;
} WinnowRunLab;

/* What the v1 options said, for a run sharded without a sweep file. */
typedef struct {
  const char *scenario;
  gboolean    has_seed;
  guint64     seed;
  guint       instances;
  const char *until;
  const char *trust;
  const char *on_exhausted;
  gsize       max_input;
  gboolean    validate;
  /* a v1-only output was asked for (--jsonl, --journal, --summary, --break) */
  const char *v1_output;
} WinnowRunBase;

void     winnow_run_lab_add_entries (GOptionGroup *group, WinnowRunLab *lab);
gboolean winnow_run_lab_requested   (const WinnowRunLab *lab);
/* The exit status (journal-and-cli.md's codes). */
int      winnow_run_lab_main        (WinnowRunLab *lab, char **files, const WinnowRunBase *base,
                                     WnOutput *out);
void     winnow_run_lab_clear       (WinnowRunLab *lab);

/* From winnow-run.c: shared by both. */
gboolean parse_decimal     (const char *option, const char *value, guint64 min, guint64 max,
                            guint64 *out, GError **error);
void     print_diagnostics (GPtrArray *diagnostics, GError *error);
/* The first SIGINT or SIGTERM is caught (its number kept for stopped_by,
 * seen when the main context is iterated); a second acts at once. */
void     stop_on_signals   (void);
int      stopped_by        (void);

G_END_DECLS
