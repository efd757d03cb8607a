/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-lab.h — the policy lab: sweeps, statistics, shards and merges over
 * the engine's public API (winnow.h), without GTK, for winnow-run and the app. */
#pragma once

#include "wn-lab-error.h"
#include "wn-lab-histogram.h"
#include "wn-lab-stats.h"
#include "wn-lab-summary.h"
#include "wn-lab-rows.h"
#include "wn-lab-sweep.h"
#include "wn-lab-runner.h"
