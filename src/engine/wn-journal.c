/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-journal.c — events, their names and text form, and subscribers (the
 * JSON-lines form is wn-journal-json.c). */
#include "config.h"

#include <string.h>

#include "wn-journal-private.h"
#include "wn-duration.h"

#define NAME(name) name,

static const char *kind_names[] = { WN_EVENT_KIND_NAMES (NAME) };
static const char *phase_names[] = { WN_EVENT_PHASE_NAMES (NAME) };
G_STATIC_ASSERT (G_N_ELEMENTS (kind_names) == WN_EV_N_KINDS);
G_STATIC_ASSERT (G_N_ELEMENTS (phase_names) == WN_PH_N_PHASES);

const char *
wn_event_kind_to_string (WnEventKind kind)
{
  g_return_val_if_fail (kind < WN_EV_N_KINDS, "?");
  return kind_names[kind];
}

const char *
wn_event_phase_to_string (WnEventPhase phase)
{
  g_return_val_if_fail (phase < WN_PH_N_PHASES, "?");
  return phase_names[phase];
}

gboolean
wn_event_kind_from_string (const char  *text,
                           WnEventKind *out)
{
  for (guint i = 0; i < WN_EV_N_KINDS; i++)
    if (g_strcmp0 (text, kind_names[i]) == 0)
      {
        *out = i;
        return TRUE;
      }
  return FALSE;
}

gboolean
wn_event_phase_from_string (const char   *text,
                            WnEventPhase *out)
{
  for (guint i = 0; i < WN_PH_N_PHASES; i++)
    if (g_strcmp0 (text, phase_names[i]) == 0)
      {
        *out = i;
        return TRUE;
      }
  return FALSE;
}

/* Which phases each kind of event has (journal-and-cli.md). */
gboolean
wn_event_phase_belongs (WnEventKind  kind,
                        WnEventPhase phase)
{
  switch (kind)
    {
    case WN_EV_INSTANCE:
      return phase == WN_PH_CREATED || phase == WN_PH_COMPLETED || phase == WN_PH_TERMINATED;
    case WN_EV_NODE:
      return phase == WN_PH_ENTERED || phase == WN_PH_PARKED || phase == WN_PH_COMPLETED ||
             phase == WN_PH_CANCELED || phase == WN_PH_FAILED || phase == WN_PH_INCIDENT;
    case WN_EV_JOB:
      return phase == WN_PH_COMPLETED || phase == WN_PH_CANCELED ||
             (phase >= WN_PH_ENQUEUED && phase <= WN_PH_REPORT_REJECTED) ||
             phase == WN_PH_UNLOCKED || phase == WN_PH_WORKER_REARMED || phase == WN_PH_RETRIES_SET || phase == WN_PH_WORKER_POLICY_IGNORED;
    case WN_EV_FAULT:
      return phase == WN_PH_THROWN || phase == WN_PH_CAUGHT || phase == WN_PH_UNCAUGHT;
    case WN_EV_INCIDENT:
      return phase == WN_PH_RAISED || phase == WN_PH_RETRIED || phase == WN_PH_RESOLVED;
    case WN_EV_GATEWAY:
      return phase == WN_PH_DECIDED;
    case WN_EV_INJECT:
      return phase == WN_PH_APPLIED || phase == WN_PH_CANCELED;
    case WN_EV_CLOCK:
      return phase == WN_PH_PAUSED || phase == WN_PH_RESUMED || phase == WN_PH_STEPPED;
    case WN_EV_SCOPE:
      return phase == WN_PH_ENTERED || phase == WN_PH_COMPLETED || phase == WN_PH_CANCELED;
    case WN_EV_TIMER:
      return phase == WN_PH_FIRED;
    case WN_EV_USER_TASK:
      return phase == WN_PH_CREATED || phase == WN_PH_ASSIGNED || phase == WN_PH_COMPLETED;
    case WN_EV_MESSAGE:
      return phase == WN_PH_CORRELATED || phase == WN_PH_LOST || phase == WN_PH_BUFFERED || phase == WN_PH_EXPIRED;
    case WN_EV_N_KINDS:
    default:
      return FALSE;
    }
}

/* ---- copies ---- */

WnEvent *
wn_event_copy (const WnEvent *event)
{
  WnEvent *copy = g_new (WnEvent, 1);

  *copy = *event;
  copy->instance = g_strdup (event->instance);
  copy->node = g_strdup (event->node);
  copy->track = g_strdup (event->track);
  copy->job = g_strdup (event->job);
  copy->topic = g_strdup (event->topic);
  copy->worker = g_strdup (event->worker);
  copy->code = g_strdup (event->code);
  copy->status = event->status ? json_node_copy (event->status) : NULL;
  copy->error = g_strdup (event->error);
  copy->flows = (const char **) g_strdupv ((char **) event->flows);
  copy->action = g_strdup (event->action);
  copy->scope = g_strdup (event->scope);
  copy->by = g_strdup (event->by);
  return copy;
}

void
wn_event_free (WnEvent *event)
{
  if (event == NULL)
    return;
  g_free ((char *) event->instance);
  g_free ((char *) event->node);
  g_free ((char *) event->track);
  g_free ((char *) event->job);
  g_free ((char *) event->topic);
  g_free ((char *) event->worker);
  g_free ((char *) event->code);
  g_clear_pointer (&event->status, json_node_unref);
  g_free ((char *) event->error);
  g_strfreev ((char **) event->flows);
  g_free ((char *) event->action);
  g_free ((char *) event->scope);
  g_free ((char *) event->by);
  g_free (event);
}

/* ---- status bodies ---- */

void
_wn_event_append_status (GString  *out,
                         JsonNode *status)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();

  json_generator_set_root (generator, status);
  json_generator_to_gstring (generator, out);
}

/* ---- readable trace ---- */

static void
detail (GString    *details,
        const char *format,
        ...) G_GNUC_PRINTF (2, 3);

static void
detail (GString    *details,
        const char *format,
        ...)
{
  va_list args;

  if (details->len > 0)
    g_string_append (details, ", ");
  va_start (args, format);
  g_string_append_vprintf (details, format, args);
  va_end (args);
}

void
wn_event_append_text (const WnEvent *ev,
                      GString       *out)
{
  g_autoptr(GString) details = g_string_new (NULL);
  gint64 ms = ev->t_us / 1000;

  g_string_append_printf (out, "%4" G_GINT64_FORMAT ".%03ds  %-8s %-20s ",
                          ms / 1000, (int) (ms % 1000),
                          wn_event_kind_to_string (ev->kind),
                          wn_event_phase_to_string (ev->phase));
  if (ev->instance != NULL)
    g_string_append (out, ev->instance);
  if (ev->node != NULL)
    g_string_append_printf (out, "%s%s", ev->instance ? " " : "", ev->node);

  if (ev->job != NULL && ev->kind == WN_EV_JOB)
    detail (details, "%s", ev->job);
  if (ev->scope != NULL)
    detail (details, "in %s", ev->scope);
  if (ev->loop > 0)
    detail (details, "loop %u", ev->loop);
  if (ev->topic != NULL && ev->kind == WN_EV_INJECT)
    detail (details, "topic %s", ev->topic);
  if (ev->worker != NULL)
    detail (details, ev->phase == WN_PH_LOCK_RECLAIMED ? "from %s" : ev->kind == WN_EV_INJECT ? "worker %s" : "by %s",
            ev->worker);
  if (ev->attempt > 0)
    detail (details, "attempt %u", ev->attempt);
  if (ev->attempts > 0)
    detail (details, "%u attempts", ev->attempts);
  if (ev->backoff_us >= 0)
    {
      g_autofree char *text = wn_duration_format (ev->backoff_us);
      detail (details, "next in %s", text);
    }
  if (ev->deadline_us >= 0)
    {
      g_autofree char *text = wn_time_format_clock (ev->deadline_us);
      detail (details, "lock until %s", text);
    }
  if (ev->code != NULL)
    detail (details, "code %s", ev->code);
  if (ev->status != NULL)
    {
      g_autoptr(GString) status = g_string_new (NULL);
      _wn_event_append_status (status, ev->status);
      detail (details, "status %s", status->str);
    }
  if (ev->flows != NULL)
    {
      g_autofree char *flows = g_strjoinv (", ", (char **) ev->flows);
      detail (details, "→ %s", flows);
    }
  if (ev->by != NULL)
    detail (details, "drawn by the %s", ev->by);
  if (ev->action != NULL)
    detail (details, "%s", ev->action);
  if (ev->error != NULL)
    detail (details, "%s", ev->error);
  if (details->len > 0)
    g_string_append_printf (out, "  %s", details->str);
}

/* ---- journal ----
 * The struct and the inline emit are in wn-journal-private.h (the engine's
 * emitters hand events out without a call). */

WnJournal *
wn_journal_new (void)
{
  WnJournal *self = g_new0 (WnJournal, 1);

  self->subscribers = g_array_new (FALSE, FALSE, sizeof (WnSubscriber));
  self->next_id = 1;
  return self;
}

void
wn_journal_free (WnJournal *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->subscribers->len; i++)
    {
      WnSubscriber *sub = &g_array_index (self->subscribers, WnSubscriber, i);
      if (sub->destroy != NULL)
        sub->destroy (sub->data);
    }
  g_array_unref (self->subscribers);
  g_free (self);
}

static void
subscribers_changed (WnJournal *self)
{
  self->n_subscribers = self->subscribers->len;
  self->one_func = NULL;
  self->one_data = NULL;
  if (self->n_subscribers == 1)
    {
      WnSubscriber *sub = &g_array_index (self->subscribers, WnSubscriber, 0);

      self->one_func = sub->func;
      self->one_data = sub->data;
    }
}

guint
wn_journal_subscribe (WnJournal      *self,
                      WnJournalFunc   func,
                      gpointer        data,
                      GDestroyNotify  destroy)
{
  WnSubscriber sub = { self->next_id++, func, data, destroy };

  g_array_append_val (self->subscribers, sub);
  subscribers_changed (self);
  return sub.id;
}

void
wn_journal_unsubscribe (WnJournal *self,
                        guint      id)
{
  for (guint i = 0; i < self->subscribers->len; i++)
    {
      WnSubscriber sub = g_array_index (self->subscribers, WnSubscriber, i);
      if (sub.id == id)
        {
          g_array_remove_index (self->subscribers, i);
          subscribers_changed (self);
          if (sub.destroy != NULL)
            sub.destroy (sub.data);
          return;
        }
    }
}

gboolean
wn_journal_is_active (const WnJournal *self)
{
  return self->n_subscribers > 0;
}

void
wn_journal_emit (WnJournal *self,
                 WnTime     now,
                 WnEvent   *event)
{
  _wn_journal_emit (self, now, event);
}

void
_wn_journal_emit_each (WnJournal *self,
                       WnEvent   *event)
{
  /* index loop: a subscriber may unsubscribe itself */
  for (guint i = 0; i < self->subscribers->len; i++)
    {
      WnSubscriber *sub = &g_array_index (self->subscribers, WnSubscriber, i);
      sub->func (event, sub->data);
    }
}

void
wn_journal_skip (WnJournal *self)
{
  self->seq++;
}

guint64
wn_journal_get_n_events (const WnJournal *self)
{
  return self->seq;
}
