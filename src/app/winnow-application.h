/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define WINNOW_TYPE_APPLICATION (winnow_application_get_type ())
G_DECLARE_FINAL_TYPE (WinnowApplication, winnow_application, WINNOW, APPLICATION, AdwApplication)

WinnowApplication *winnow_application_new (void);

G_END_DECLS
