/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-lab-error.c — the policy lab's error domain. */
#include "config.h"

#include "wn-lab-error.h"

G_DEFINE_QUARK (wn-lab-error-quark, wn_lab_error)
