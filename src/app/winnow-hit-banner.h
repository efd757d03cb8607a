/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-hit-banner.h — the banner that says which breakpoint stopped the
 * clock, and on which event, with Step, Continue and Dismiss buttons. */
#pragma once

#include "winnow-panel.h"

G_BEGIN_DECLS

#define WINNOW_TYPE_HIT_BANNER (winnow_hit_banner_get_type ())
G_DECLARE_FINAL_TYPE (WinnowHitBanner, winnow_hit_banner, WINNOW, HIT_BANNER, WinnowPanel)

/* Hide the banner once the clock runs again or the hit is gone. */
void winnow_hit_banner_update (WinnowHitBanner *self);

G_END_DECLS
