/* SPDX-License-Identifier: GPL-3.0-or-later */
/* winnow-row-util.h — what the table rows (job, track, instance) share when
 * they copy a snapshot or another row: replace a field only when it differs,
 * and notify properties by index into the class's pspec table; and the
 * session's marks on the rows it refreshes incrementally.
 *
 * winnow_row_assign_from() makes a row show what another row shows, and
 * says so: a live table's display row (winnow-live-table.h) keeps its place
 * in the view while the row it shows changes, so the view rebinds no widget.
 * Only the fields shown are copied (a display row is never updated nor
 * synced, so its marks and `filled` are never read), and the clock alone
 * (`now`) notifies nothing: the view re-reads the visible texts. When
 * anything shown changed, every property notifies, once; else none does, so
 * the view relays out nothing. */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* The session's bookkeeping on a job or track row (winnow-session-tables.c),
 * kept by the row and read by nobody else: the refresh pass that last saw
 * it, and free bits for which of the session's lists it is on. */
typedef struct {
  guint generation;
  guint flags;
} WinnowRowMarks;

/* Make `*field` a copy of `value`; TRUE if it differed (and was replaced). */
static inline gboolean
winnow_str_replace (char       **field,
                    const char  *value)
{
  if (g_strcmp0 (*field, value) == 0)
    return FALSE;
  g_free (*field);
  *field = g_strdup (value);
  return TRUE;
}

/* Set a plain (number or enum) field to `value`: an expression, TRUE if it
 * differed. `changed |= WINNOW_SET_FIELD (self->x, from->x);` */
#define WINNOW_SET_FIELD(field, value) \
  ((field) != (value) ? ((field) = (value), TRUE) : FALSE)

/* Notify the listed properties, in order: `pspecs` is the class's table,
 * the rest are indices into it. No freeze: a row nobody watches pays nothing. */
#define WINNOW_NOTIFY(object, pspecs, ...) \
  G_STMT_START { \
    const guint winnow_notify_props_[] = { __VA_ARGS__ }; \
    for (gsize winnow_notify_i_ = 0; winnow_notify_i_ < G_N_ELEMENTS (winnow_notify_props_); winnow_notify_i_++) \
      g_object_notify_by_pspec ((object), (pspecs)[winnow_notify_props_[winnow_notify_i_]]); \
  } G_STMT_END

/* Notify pspecs[first] .. pspecs[end - 1], in order, no freeze. */
static inline void
winnow_notify_range (GObject     *object,
                     GParamSpec **pspecs,
                     guint        first,
                     guint        end)
{
  for (guint i = first; i < end; i++)
    g_object_notify_by_pspec (object, pspecs[i]);
}

G_END_DECLS
