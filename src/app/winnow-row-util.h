/* winnow-row-util.h — what the table rows (job, track, instance) share when
 * they copy a snapshot or another row: replace a field only when it differs,
 * and notify properties by index into the class's pspec table. */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

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

/* Every property (pspecs[1] .. pspecs[n_props - 1]) in one freeze/thaw: a
 * display row that took on another row says so once. */
static inline void
winnow_notify_all (GObject     *object,
                   GParamSpec **pspecs,
                   guint        n_props)
{
  g_object_freeze_notify (object);
  winnow_notify_range (object, pspecs, 1, n_props);
  g_object_thaw_notify (object);
}

G_END_DECLS
