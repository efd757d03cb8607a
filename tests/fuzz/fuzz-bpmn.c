/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-bpmn.c — wn_load_bpmn_data() (the BPMN importer) on arbitrary bytes; what loads
 * is run (fuzz-sim.c). */
#include "fuzz-target.h"
#include "fuzz-sim.h"

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  fuzz_init ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GPtrArray) diagnostics = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(WnProcess) process = NULL;

  process = wn_load_bpmn_data ((const char *) data, (gssize) size, "fuzz.bpmn", NULL, NULL, &diagnostics, &error);
  fuzz_loaded (process, diagnostics, error);
  return 0;
}
