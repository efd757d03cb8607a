/* Helpers shared by the engine suites. */
#pragma once

#include <glib.h>
#include "winnow.h"

G_BEGIN_DECLS

/* Path of a file under tests/ in the source tree. */
char *wn_test_source_path (const char *relative);

G_END_DECLS
