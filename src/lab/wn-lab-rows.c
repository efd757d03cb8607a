/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-lab-rows.c — summary rows read back and merged per variant. */
#include "config.h"

#include <inttypes.h>
#include <glib/gi18n-lib.h>

#include "wn-lab-rows.h"

struct _WnLabRows {
  GHashTable *by_variant;   /* variant + 1 → WnLabSummary* */
  char       *sweep;        /* the sweep of the rows so far, or NULL */
};

WnLabRows *
wn_lab_rows_new (void)
{
  WnLabRows *self = g_new0 (WnLabRows, 1);

  self->by_variant = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) wn_lab_summary_free);
  return self;
}

void
wn_lab_rows_free (WnLabRows *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->by_variant);
  g_free (self->sweep);
  g_free (self);
}

gboolean
wn_lab_rows_add_data (WnLabRows   *self,
                      const char  *data,
                      gsize        length,
                      const char  *display_name,
                      GError     **error)
{
  g_autofree char *text = g_strndup (data, length);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(GPtrArray) diagnostics = NULL;
      g_autoptr(JsonNode) node = NULL;
      g_autoptr(WnLabSummary) row = NULL;
      g_autoptr(GError) local = NULL;
      WnLabSummary *known;
      guint key;

      if (*g_strstrip (lines[i]) == '\0')
        continue;
      node = wn_load_json_data (lines[i], -1, display_name, &diagnostics, &local);
      if (node == NULL)
        {
          WnDiagnostic *d = diagnostics != NULL && diagnostics->len > 0 ? g_ptr_array_index (diagnostics, 0) : NULL;

          g_set_error (error, WN_LAB_ERROR, WN_LAB_ERROR_INVALID, "%s:%u:%u: %s", display_name, i + 1,
                       d != NULL ? d->column : 1, d != NULL ? d->message : local->message);
          return FALSE;
        }
      row = wn_lab_summary_from_json (node, &local);
      if (row == NULL)
        {
          g_set_error (error, WN_LAB_ERROR, local->code, "%s:%u:1: %s", display_name, i + 1, local->message);
          return FALSE;
        }
      /* every row of a merge is of one sweep */
      if (self->sweep != NULL && !g_str_equal (self->sweep, wn_lab_summary_get_sweep (row)))
        {
          g_set_error (error, WN_LAB_ERROR, WN_LAB_ERROR_MISMATCH,
                       _("%s:%u:1: a row of sweep %s among rows of sweep %s: the sweep file, the process "
                         "or the scenario changed between the shards"),
                       display_name, i + 1, wn_lab_summary_get_sweep (row), self->sweep);
          return FALSE;
        }
      if (self->sweep == NULL)
        self->sweep = g_strdup (wn_lab_summary_get_sweep (row));
      key = wn_lab_summary_get_variant (row) + 1;
      known = g_hash_table_lookup (self->by_variant, GUINT_TO_POINTER (key));
      if (known == NULL)
        g_hash_table_insert (self->by_variant, GUINT_TO_POINTER (key), g_steal_pointer (&row));
      else if (!wn_lab_summary_merge (known, row, &local))
        {
          g_set_error (error, WN_LAB_ERROR, local->code, "%s:%u:1: %s", display_name, i + 1, local->message);
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
wn_lab_rows_add_file (WnLabRows   *self,
                      const char  *filename,
                      gsize        max_size,
                      GError     **error)
{
  g_autofree char *data = NULL;
  gsize length;

  if (!g_file_get_contents (filename, &data, &length, error))
    return FALSE;
  if (length > max_size)
    {
      g_set_error (error, WN_LAB_ERROR, WN_LAB_ERROR_INVALID,
                   _("%s: the file is larger than the input limit of %" PRIu64 " bytes"), filename, (guint64) max_size);
      return FALSE;
    }
  return wn_lab_rows_add_data (self, data, length, filename, error);
}

static int
compare_variants (gconstpointer a,
                  gconstpointer b)
{
  guint va = wn_lab_summary_get_variant (*(WnLabSummary **) a);
  guint vb = wn_lab_summary_get_variant (*(WnLabSummary **) b);

  return va < vb ? -1 : va > vb;
}

GPtrArray *
wn_lab_rows_steal_summaries (WnLabRows *self)
{
  GPtrArray *summaries = g_ptr_array_new_with_free_func ((GDestroyNotify) wn_lab_summary_free);
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->by_variant);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      g_ptr_array_add (summaries, value);
      g_hash_table_iter_steal (&iter);
    }
  g_ptr_array_sort (summaries, compare_variants);
  return summaries;
}
