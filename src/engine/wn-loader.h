/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-loader.h — load winnow.process/1 and winnow.scenario/1 files with precise errors.
 * The process loader is wn-process-loader.c, the scenario loader
 * wn-scenario-loader.c; they share a checker (wn-loader-private.h). */
#pragma once

#if !defined (WINNOW_INSIDE) && !defined (WINNOW_COMPILATION)
# error "Only winnow.h can be included directly"
#endif

#include <glib.h>
#include <json-glib/json-glib.h>
#include "wn-process.h"
#include "wn-scenario.h"

G_BEGIN_DECLS

#define WN_LOAD_ERROR (wn_load_error_quark ())
GQuark wn_load_error_quark (void);

typedef enum {
  WN_LOAD_ERROR_IO,          /* the file could not be read */
  WN_LOAD_ERROR_SYNTAX,      /* not well-formed JSON (loading stops there) */
  WN_LOAD_ERROR_INVALID,     /* one or more semantic errors */
  WN_LOAD_ERROR_TOO_LARGE,   /* the file is larger than the input limit */
} WnLoadError;

/* Files larger than this are not read (WN_LOAD_ERROR_TOO_LARGE): a process
 * of 300 000 nodes takes about 40 MiB. */
#define WN_LOAD_DEFAULT_MAX_SIZE ((gsize) 64 * 1024 * 1024)

/* One problem: FILE:LINE:COL: PATH: message. */
typedef struct {
  char  *file;
  guint  line;        /* 1-based */
  guint  column;      /* 1-based, in characters */
  char  *path;        /* JSON path, e.g. nodes[2].worker.retry.maxAttempts; "" for the root */
  char  *message;
} WnDiagnostic;

void        wn_diagnostic_free    (WnDiagnostic *d);
/* "FILE:LINE:COL: PATH: message" */
char       *wn_diagnostic_format  (const WnDiagnostic *d);

/* On failure: NULL, *diagnostics (when given) holds every problem found (a
 * GPtrArray of WnDiagnostic, owned by the caller), and the GError carries them
 * all, one per line, in the same format. Nothing is half-loaded. A process file's
 * embedded "scenario" is loaded into process->scenario.
 * Only regular files and pipes are read, up to WN_LOAD_DEFAULT_MAX_SIZE bytes
 * (the _full loaders take another limit): a device (/dev/zero, a terminal) or a
 * directory is refused with WN_LOAD_ERROR_IO without being read. A file that
 * is XML (wn_load_data_is_xml()) is imported as BPMN 2.0 (wn-bpmn.h). */
WnProcess  *wn_load_process_file  (const char *filename, GPtrArray **diagnostics, GError **error);
WnProcess  *wn_load_process_file_full (const char *filename, gsize max_size,
                                       GPtrArray **diagnostics, GError **error);
WnProcess  *wn_load_process_data  (const char *data, gssize length, const char *display_name,
                                   GPtrArray **diagnostics, GError **error);
WnScenario *wn_load_scenario_file (const char *filename, GPtrArray **diagnostics, GError **error);
WnScenario *wn_load_scenario_file_full (const char *filename, gsize max_size,
                                        GPtrArray **diagnostics, GError **error);
WnScenario *wn_load_scenario_data (const char *data, gssize length, const char *display_name,
                                   GPtrArray **diagnostics, GError **error);
/* Parse one JSON value as strictly as the loader reads files (UTF-8, no
 * comments, no trailing commas, no duplicate keys). On failure: NULL, a
 * WN_LOAD_ERROR_SYNTAX error, and *diagnostics (when given) holds the one
 * problem with its line and column. The value is the caller's. */
JsonNode   *wn_load_json_data     (const char *data, gssize length, const char *display_name,
                                   GPtrArray **diagnostics, GError **error);
/* Parse a single response object (the UI's fault-injection editor). */
WnResponse *wn_load_response_data (const char *data, gssize length, const char *display_name,
                                   GPtrArray **diagnostics, GError **error);

/* How many semantic errors are reported at most before loading gives up. */
#define WN_LOAD_MAX_ERRORS 50

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WnDiagnostic, wn_diagnostic_free)

G_END_DECLS
