/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-sim.h — what the loader targets do with a document that loaded. */
#pragma once

#include "winnow.h"

G_BEGIN_DECLS

/* Make GLib criticals and warnings fatal, so a broken precondition inside the
 * engine counts as a crash, and keep the fuzzers quiet otherwise. */
void fuzz_init     (void);

/* Run `process` with `scenario` (NULL: its embedded one) in a bounded way:
 * at most a small number of instances, a budget of scheduler actions and a
 * virtual-time limit. Then exercise the snapshot getters, the incident
 * commands, the session export and its replay. Aborts on a broken contract:
 * an exported session that does not load, or a replay that differs. */
void fuzz_simulate (WnProcess *process, WnScenario *scenario);

/* What a process loader's target does with its result: a refusal explains
 * itself in the documented form; what loads is simulated. */
void fuzz_loaded   (WnProcess *process, GPtrArray *diagnostics, const GError *error);

G_END_DECLS
