/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow.h — the engine's public API, for the runner, the app and the tests. */
#pragma once

#define WINNOW_INSIDE

#include "wn-types.h"
#include "wn-scheduler.h"
#include "wn-journal.h"
#include "wn-duration.h"
#include "wn-rng.h"
#include "wn-lite.h"
#include "wn-retry-policy.h"
#include "wn-error-mapper.h"
#include "wn-output-mapping.h"
#include "wn-policy.h"
#include "wn-dispatcher.h"
#include "wn-process.h"
#include "wn-scenario.h"
#include "wn-loader.h"
#include "wn-bpmn.h"
#include "wn-output.h"
#include "wn-breakpoint-item.h"
#include "wn-engine.h"
#include "wn-external.h"
#include "wn-travel.h"
#include "wn-enum-types.h"

#undef WINNOW_INSIDE
