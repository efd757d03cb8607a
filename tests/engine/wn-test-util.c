#include "wn-test-util.h"

char *
wn_test_source_path (const char *relative)
{
  const char *srcdir = g_getenv ("G_TEST_SRCDIR");

  /* G_TEST_SRCDIR points at tests/ */
  return g_build_filename (srcdir ? srcdir : ".", relative, NULL);
}
