/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "winnow-event-row.h"

struct _WinnowEventRow
{
  GObject        parent_instance;

  WnEvent       *event;     /* &view, or an owned copy */
  WnEvent        view;      /* strings borrowed from `journal` */
  WinnowJournal *journal;   /* NULL when the event is owned */
  char          *text;      /* built on first use */
  char          *folded;    /* casefolded text, for searches */
};

enum {
  PROP_0,
  PROP_SEQ,
  PROP_TIME,
  PROP_KIND,
  PROP_PHASE,
  PROP_INSTANCE,
  PROP_NODE,
  PROP_JOB,
  PROP_TEXT,
  PROP_STYLE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (WinnowEventRow, winnow_event_row, G_TYPE_OBJECT)

static void
winnow_event_row_finalize (GObject *object)
{
  WinnowEventRow *self = WINNOW_EVENT_ROW (object);

  if (self->journal != NULL)
    g_clear_pointer (&self->journal, winnow_journal_unref);
  else
    g_clear_pointer (&self->event, wn_event_free);
  self->event = NULL;
  g_clear_pointer (&self->text, g_free);
  g_clear_pointer (&self->folded, g_free);

  G_OBJECT_CLASS (winnow_event_row_parent_class)->finalize (object);
}

static void
winnow_event_row_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  WinnowEventRow *self = WINNOW_EVENT_ROW (object);

  switch (prop_id)
    {
    case PROP_SEQ:
      g_value_set_uint64 (value, self->event->seq);
      break;
    case PROP_TIME:
      g_value_set_int64 (value, self->event->t_us);
      break;
    case PROP_KIND:
      g_value_set_string (value, wn_event_kind_to_string (self->event->kind));
      break;
    case PROP_PHASE:
      g_value_set_string (value, wn_event_phase_to_string (self->event->phase));
      break;
    case PROP_INSTANCE:
      g_value_set_string (value, self->event->instance);
      break;
    case PROP_NODE:
      g_value_set_string (value, self->event->node);
      break;
    case PROP_JOB:
      g_value_set_string (value, self->event->job);
      break;
    case PROP_TEXT:
      g_value_set_string (value, winnow_event_row_get_text (self));
      break;
    case PROP_STYLE:
      g_value_set_string (value, winnow_event_row_get_style (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_event_row_class_init (WinnowEventRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->finalize = winnow_event_row_finalize;
  object_class->get_property = winnow_event_row_get_property;

  properties[PROP_SEQ] = g_param_spec_uint64 ("seq", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_TIME] = g_param_spec_int64 ("time", NULL, NULL, G_MININT64, G_MAXINT64, 0, flags);
  properties[PROP_KIND] = g_param_spec_string ("kind", NULL, NULL, NULL, flags);
  properties[PROP_PHASE] = g_param_spec_string ("phase", NULL, NULL, NULL, flags);
  properties[PROP_INSTANCE] = g_param_spec_string ("instance", NULL, NULL, NULL, flags);
  properties[PROP_NODE] = g_param_spec_string ("node", NULL, NULL, NULL, flags);
  properties[PROP_JOB] = g_param_spec_string ("job", NULL, NULL, NULL, flags);
  properties[PROP_TEXT] = g_param_spec_string ("text", NULL, NULL, NULL, flags);
  properties[PROP_STYLE] = g_param_spec_string ("style", NULL, NULL, NULL, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
winnow_event_row_init (WinnowEventRow *self)
{
}

WinnowEventRow *
winnow_event_row_new_for_journal (WinnowJournal *journal,
                                  guint          index)
{
  WinnowEventRow *self;

  g_return_val_if_fail (journal != NULL, NULL);
  g_return_val_if_fail (index < winnow_journal_get_n_events (journal), NULL);

  self = g_object_new (WINNOW_TYPE_EVENT_ROW, NULL);
  self->journal = winnow_journal_ref (journal);
  winnow_journal_get_event (journal, index, &self->view);
  self->event = &self->view;
  return self;
}

WinnowEventRow *
winnow_event_row_new (WnEvent *event)
{
  WinnowEventRow *self;

  g_return_val_if_fail (event != NULL, NULL);

  self = g_object_new (WINNOW_TYPE_EVENT_ROW, NULL);
  self->event = event;
  return self;
}

const WnEvent *
winnow_event_row_get_event (WinnowEventRow *self)
{
  g_return_val_if_fail (WINNOW_IS_EVENT_ROW (self), NULL);

  return self->event;
}

const char *
winnow_event_row_get_text (WinnowEventRow *self)
{
  g_return_val_if_fail (WINNOW_IS_EVENT_ROW (self), NULL);

  if (self->text == NULL)
    {
      GString *out = g_string_new (NULL);

      wn_event_append_text (self->event, out);
      self->text = g_string_free (out, FALSE);
    }
  return self->text;
}

const char *
winnow_event_row_get_style (WinnowEventRow *self)
{
  g_return_val_if_fail (WINNOW_IS_EVENT_ROW (self), NULL);

  switch (self->event->phase)
    {
    case WN_PH_TERMINATED:
    case WN_PH_FAILED:
    case WN_PH_INCIDENT:
    case WN_PH_RETRIES_EXHAUSTED:
    case WN_PH_MAPPER_ERROR:
    case WN_PH_FAULT:
    case WN_PH_REPORT_REJECTED:
    case WN_PH_UNCAUGHT:
    case WN_PH_RAISED:
      return "failure";
    case WN_PH_RETRY_SCHEDULED:
    case WN_PH_WORKER_RETRY_SCHEDULED:
    case WN_PH_LOCK_RECLAIMED:
    case WN_PH_THROWN:
      return "retry";
    case WN_PH_APPLIED:
      return "inject";
    case WN_PH_PAUSED:
    case WN_PH_RESUMED:
    case WN_PH_STEPPED:
      return "clock";
    case WN_PH_COMPLETED:
      return self->event->kind == WN_EV_INSTANCE ? "success" : "";
    default:
      return "";
    }
}

gboolean
winnow_event_row_matches (WinnowEventRow *self,
                          const char     *folded_needle)
{
  g_return_val_if_fail (WINNOW_IS_EVENT_ROW (self), FALSE);

  if (folded_needle == NULL || *folded_needle == '\0')
    return TRUE;
  if (self->folded == NULL)
    self->folded = g_utf8_casefold (winnow_event_row_get_text (self), -1);
  return strstr (self->folded, folded_needle) != NULL;
}
