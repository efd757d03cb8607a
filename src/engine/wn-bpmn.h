/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-bpmn.h — import BPMN 2.0 XML (Camunda 7 and 8, bpmn.io, Activiti,
 * Flowable) into the process model the JSON loader builds (wn-loader.h),
 * with the same validation. The mapping is docs/user-guide.md's "BPMN import". */
#pragma once

#if !defined (WINNOW_INSIDE) && !defined (WINNOW_COMPILATION)
# error "Only winnow.h can be included directly"
#endif

#include <glib.h>
#include "wn-process.h"

G_BEGIN_DECLS

/* What the user asked the import to do beyond the mapping. */
typedef enum {
  WN_BPMN_IMPORT_DEFAULT           = 0,
  /* A sequence flow whose condition is outside what the importer translates
   * to lite does not refuse the model: its exclusive gateway becomes one the
   * scenario decides ("decidedBy": "scenario", weighed by the scenario's
   * `decisions`), each such condition listed in process->warnings
   * (winnow-run --undecidable-conditions=scenario). */
  WN_BPMN_IMPORT_SCENARIO_DECIDES  = 1 << 0,
} WnBpmnImportFlags;

/* TRUE when `data` is XML (its first character, after a byte order mark and
 * blanks, is `<`): what wn_load_process_file() hands to the importer. */
gboolean    wn_load_data_is_xml   (const char *data, gsize length);

/* Import the BPMN process `process_id` of the document (NULL: its only
 * executable process; a collaboration with several is refused, naming
 * them). Problems are WN_LOAD_ERROR_SYNTAX (not well-formed XML, or a DOCTYPE:
 * no DTD is loaded and no entity expanded) or WN_LOAD_ERROR_INVALID, every one
 * in *diagnostics as FILE:LINE:COL: element-id (kind): message; nothing is
 * half-loaded. What the import ignored is in process->warnings. With
 * `json_out`, the equivalent winnow.process/1 document (--export-json). */
WnProcess  *wn_load_bpmn_data     (const char  *data,
                                   gssize       length,
                                   const char  *display_name,
                                   const char  *process_id,
                                   char       **json_out,
                                   GPtrArray  **diagnostics,
                                   GError     **error);
WnProcess  *wn_load_bpmn_file     (const char  *filename,
                                   gsize        max_size,
                                   const char  *process_id,
                                   char       **json_out,
                                   GPtrArray  **diagnostics,
                                   GError     **error);

/* wn_load_bpmn_data() and wn_load_bpmn_file() with `flags`. */
WnProcess  *wn_load_bpmn_data_with_flags (const char        *data,
                                          gssize             length,
                                          const char        *display_name,
                                          const char        *process_id,
                                          WnBpmnImportFlags  flags,
                                          char             **json_out,
                                          GPtrArray        **diagnostics,
                                          GError           **error);
WnProcess  *wn_load_bpmn_file_with_flags (const char        *filename,
                                          gsize              max_size,
                                          const char        *process_id,
                                          WnBpmnImportFlags  flags,
                                          char             **json_out,
                                          GPtrArray        **diagnostics,
                                          GError           **error);

/* A process file as wn_load_process_file() reads it (BPMN when it is XML, else
 * winnow.process/1), with `process_id` chosen for BPMN and, with `json_out`,
 * *json_out the imported winnow.process/1 document (NULL for a JSON file):
 * what the app's Open and Save as Winnow Process… use. */
WnProcess  *wn_load_process_or_bpmn_file (const char  *filename,
                                          const char  *process_id,
                                          char       **json_out,
                                          GPtrArray  **diagnostics,
                                          GError     **error);
/* The same with the import `flags` (for a BPMN file; a JSON one ignores them)
 * and files of up to `max_size` bytes (0: WN_LOAD_DEFAULT_MAX_SIZE). */
WnProcess  *wn_load_process_or_bpmn_file_with_flags (const char        *filename,
                                                     gsize              max_size,
                                                     const char        *process_id,
                                                     WnBpmnImportFlags  flags,
                                                     char             **json_out,
                                                     GPtrArray        **diagnostics,
                                                     GError           **error);

/* The ids of the executable processes of a BPMN file, in document order, and
 * with `names` their names ("" for none); NULL and an error when the file
 * cannot be read or is not BPMN. For a chooser when a file has several. */
GStrv       wn_bpmn_file_processes   (const char  *filename,
                                      GStrv       *names,
                                      GError     **error);

G_END_DECLS
