/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "winnow-job-row.h"

struct _WinnowJobRow
{
  WinnowRow       parent_instance;

  char           *instance;
  char           *node;
  char           *topic;
  char           *worker;
  WnPolicy       *policy;
  WnJobState      state;
  guint           attempt;
  guint           executions;
  guint           lost;          /* executions cut off by a lock taken over: no attempts */
  WnTime          enqueued_at;
  WnTime          not_before;
  WnTime          deadline;
  WnTime          next_change;   /* the engine's: when the clock alone changes the state */
  gboolean        holder_gone;   /* the lock's holder crashed with it */
  gboolean        filled;
};

enum {
  PROP_0,
  PROP_INSTANCE,
  PROP_NODE,
  PROP_TOPIC,
  PROP_STATE,
  PROP_STATE_NAME,
  PROP_ATTEMPT,
  PROP_ATTEMPT_TEXT,
  PROP_EXECUTIONS,
  PROP_NOT_BEFORE,
  PROP_NOT_BEFORE_TEXT,
  PROP_WORKER,
  PROP_WORKER_TEXT,
  PROP_DEADLINE,
  PROP_DEADLINE_TEXT,
  PROP_TRUST,
  PROP_TRUST_TEXT,
  PROP_STYLE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static gboolean winnow_job_row_assign (WinnowRow *row, WinnowRow *other);

G_DEFINE_FINAL_TYPE (WinnowJobRow, winnow_job_row, WINNOW_TYPE_ROW)

/* A countdown needs no microseconds: ms below 1 s, 10 ms below 1 min, then s. */
static WnTime
round_remaining (WnTime us)
{
  WnTime unit = us < WN_USEC_PER_SEC ? WN_USEC_PER_MSEC
              : us < 60 * WN_USEC_PER_SEC ? 10 * WN_USEC_PER_MSEC
              : WN_USEC_PER_SEC;

  return MAX (unit, (us + unit / 2) / unit * unit);
}

/* "T+00:00.800 (in 300ms)": an instant, and how far it lies ahead, read the
 * way the tracks' "(1.2s ago)" and the trace's "next in 300ms" read. */
static char *
format_instant (WnTime when,
                WnTime now)
{
  g_autofree char *clock = wn_time_format_clock (when);

  if (when > now)
    {
      g_autofree char *left = wn_duration_format (round_remaining (when - now));

      /* Translators: an instant still to come, and how far ahead: "T+00:00.800 (in 300ms)" */
      return g_strdup_printf (_("%s (in %s)"), clock, left);
    }
  return g_steal_pointer (&clock);
}

static char *
not_before_text (WinnowJobRow *self)
{
  if (self->not_before <= 0)
    return g_strdup ("—");
  return format_instant (self->not_before, winnow_row_get_now (WINNOW_ROW (self)));
}

static char *
deadline_text (WinnowJobRow *self)
{
  if (self->deadline < 0)
    return g_strdup ("—");
  if (self->deadline < winnow_row_get_now (WINNOW_ROW (self)))
    {
      g_autofree char *clock = wn_time_format_clock (self->deadline);

      /* Translators: a lock deadline that has passed, e.g. "T+05:00.000 (expired)" */
      return g_strdup_printf (_("%s (expired)"), clock);
    }
  return format_instant (self->deadline, winnow_row_get_now (WINNOW_ROW (self)));
}

static void
winnow_job_row_finalize (GObject *object)
{
  WinnowJobRow *self = WINNOW_JOB_ROW (object);

  g_clear_pointer (&self->instance, g_free);
  g_clear_pointer (&self->node, g_free);
  g_clear_pointer (&self->topic, g_free);
  g_clear_pointer (&self->worker, g_free);
  g_clear_pointer (&self->policy, wn_policy_unref);

  G_OBJECT_CLASS (winnow_job_row_parent_class)->finalize (object);
}

/* The Attempt column: the 1-based number of the execution the job is on, as
 * the journal's `attempt` counts them, and of how many its retry policy
 * allows: "2 of 3". A locked (or lapsed) job is on the execution it runs; a
 * waiting one on the next. Executions a takeover cut off are no attempts. */
static guint
execution_number (WinnowJobRow *self)
{
  guint done = self->executions > self->lost ? self->executions - self->lost : 0;

  if (self->state == WN_JOB_LOCKED || self->state == WN_JOB_EXPIRED)
    return MAX (done, 1);
  return done + 1;
}

static char *
attempt_text (WinnowJobRow *self)
{
  const WnRetryPolicy *retry = self->policy ? &self->policy->retry : NULL;

  if (retry == NULL)
    return g_strdup_printf ("%u", execution_number (self));
  /* Translators: the Attempt column: execution 2 of the 3 the retry policy allows */
  return g_strdup_printf (_("%u of %u"), execution_number (self),
                          retry->kind == WN_RETRY_NONE ? 1 : retry->max_attempts);
}

static void
winnow_job_row_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  WinnowJobRow *self = WINNOW_JOB_ROW (object);

  switch (prop_id)
    {
    case PROP_INSTANCE:
      g_value_set_string (value, self->instance);
      break;
    case PROP_NODE:
      g_value_set_string (value, self->node);
      break;
    case PROP_TOPIC:
      g_value_set_string (value, self->topic);
      break;
    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;
    case PROP_STATE_NAME:
    case PROP_STYLE:
      g_value_set_string (value, wn_job_state_to_string (self->state));
      break;
    case PROP_ATTEMPT:
      g_value_set_uint (value, self->attempt);
      break;
    case PROP_ATTEMPT_TEXT:
      g_value_take_string (value, attempt_text (self));
      break;
    case PROP_EXECUTIONS:
      g_value_set_uint (value, self->executions);
      break;
    case PROP_NOT_BEFORE:
      g_value_set_int64 (value, self->not_before);
      break;
    case PROP_NOT_BEFORE_TEXT:
      g_value_take_string (value, not_before_text (self));
      break;
    case PROP_WORKER:
      g_value_set_string (value, self->worker);
      break;
    case PROP_WORKER_TEXT:
      if (self->worker != NULL && self->holder_gone)
        /* Translators: the Dispatcher's worker column for a lock whose holder crashed with the job */
        g_value_take_string (value, g_strdup_printf (_("%s (crashed)"), self->worker));
      else
        g_value_set_string (value, self->worker ? self->worker : "—");
      break;
    case PROP_DEADLINE:
      g_value_set_int64 (value, self->deadline);
      break;
    case PROP_DEADLINE_TEXT:
      g_value_take_string (value, deadline_text (self));
      break;
    case PROP_TRUST:
      g_value_set_enum (value, winnow_job_row_get_trust (self));
      break;
    case PROP_TRUST_TEXT:
      g_value_set_string (value, self->policy ? winnow_trust_name (self->policy->trust) : "—");
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_job_row_class_init (WinnowJobRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->finalize = winnow_job_row_finalize;
  object_class->get_property = winnow_job_row_get_property;

  properties[PROP_INSTANCE] = g_param_spec_string ("instance", NULL, NULL, NULL, flags);
  properties[PROP_NODE] = g_param_spec_string ("node", NULL, NULL, NULL, flags);
  properties[PROP_TOPIC] = g_param_spec_string ("topic", NULL, NULL, NULL, flags);
  properties[PROP_STATE] = g_param_spec_enum ("state", NULL, NULL, WN_TYPE_JOB_STATE, WN_JOB_AVAILABLE, flags);
  properties[PROP_STATE_NAME] = g_param_spec_string ("state-name", NULL, NULL, NULL, flags);
  properties[PROP_ATTEMPT] = g_param_spec_uint ("attempt", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_ATTEMPT_TEXT] = g_param_spec_string ("attempt-text", NULL, NULL, NULL, flags);
  properties[PROP_EXECUTIONS] = g_param_spec_uint ("executions", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_NOT_BEFORE] = g_param_spec_int64 ("not-before", NULL, NULL, G_MININT64, G_MAXINT64, 0, flags);
  properties[PROP_NOT_BEFORE_TEXT] = g_param_spec_string ("not-before-text", NULL, NULL, NULL, flags);
  properties[PROP_WORKER] = g_param_spec_string ("worker", NULL, NULL, NULL, flags);
  properties[PROP_WORKER_TEXT] = g_param_spec_string ("worker-text", NULL, NULL, NULL, flags);
  properties[PROP_DEADLINE] = g_param_spec_int64 ("deadline", NULL, NULL, G_MININT64, G_MAXINT64, -1, flags);
  properties[PROP_DEADLINE_TEXT] = g_param_spec_string ("deadline-text", NULL, NULL, NULL, flags);
  properties[PROP_TRUST] = g_param_spec_enum ("trust", NULL, NULL, WN_TYPE_TRUST, WN_TRUST_UNSET, flags);
  properties[PROP_TRUST_TEXT] = g_param_spec_string ("trust-text", NULL, NULL, NULL, flags);
  properties[PROP_STYLE] = g_param_spec_string ("style", NULL, NULL, NULL, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  WINNOW_ROW_CLASS (klass)->assign = winnow_job_row_assign;
  winnow_row_class_set_pspecs (WINNOW_ROW_CLASS (klass), properties, N_PROPS);
}

static void
winnow_job_row_init (WinnowJobRow *self)
{
  self->deadline = -1;
  self->next_change = WN_TIME_NEVER;
}

WinnowJobRow *
winnow_job_row_new (const char *id)
{
  WinnowJobRow *self = g_object_new (WINNOW_TYPE_JOB_ROW, NULL);

  winnow_row_set_id (WINNOW_ROW (self), id);
  return self;
}

void
winnow_job_row_update (WinnowJobRow    *self,
                       const WnJobInfo *info,
                       WnTime           now)
{
  GObject *object;
  gboolean texts;
  guint shown;
  gboolean attempt_moved;

  g_return_if_fail (WINNOW_IS_JOB_ROW (self));
  g_return_if_fail (info != NULL);

  object = G_OBJECT (self);

  /* Static fields: set once, nobody is bound yet. */
  if (!self->filled)
    {
      self->instance = g_strdup (info->instance);
      self->node = g_strdup (info->node);
      self->topic = g_strdup (info->topic);
      self->enqueued_at = info->enqueued_at;
      self->policy = info->policy ? wn_policy_ref (info->policy) : NULL;
      self->state = info->state;
      self->attempt = info->attempt;
      self->executions = info->executions;
      self->lost = info->lost;
      self->not_before = info->not_before;
      self->deadline = info->deadline;
      self->next_change = info->next_change;
      self->worker = g_strdup (info->worker);
      self->holder_gone = info->holder_gone;
      winnow_row_set_now (WINNOW_ROW (self), now);
      self->filled = TRUE;
      return;
    }

  /* follows the state, the gate and the deadline: nothing shows it */
  self->next_change = info->next_change;
  /* the Attempt text follows the attempt, the state, the executions and the lost ones */
  shown = execution_number (self);
  attempt_moved = WINNOW_SET_FIELD (self->attempt, info->attempt);
  if (WINNOW_SET_FIELD (self->state, info->state))
    WINNOW_NOTIFY (object, properties, PROP_STATE, PROP_STATE_NAME, PROP_STYLE);
  if (attempt_moved)
    WINNOW_NOTIFY (object, properties, PROP_ATTEMPT);
  if (WINNOW_SET_FIELD (self->executions, info->executions))
    WINNOW_NOTIFY (object, properties, PROP_EXECUTIONS);
  self->lost = info->lost;
  if (attempt_moved || execution_number (self) != shown)
    WINNOW_NOTIFY (object, properties, PROP_ATTEMPT_TEXT);
  if (winnow_str_replace (&self->worker, info->worker))
    WINNOW_NOTIFY (object, properties, PROP_WORKER, PROP_WORKER_TEXT);
  if (WINNOW_SET_FIELD (self->holder_gone, info->holder_gone))
    WINNOW_NOTIFY (object, properties, PROP_WORKER_TEXT);

  /* The countdown texts also move with the clock; the view refreshes the
   * visible ones once per frame rather than every row notifying. */
  texts = FALSE;
  if (WINNOW_SET_FIELD (self->not_before, info->not_before))
    {
      WINNOW_NOTIFY (object, properties, PROP_NOT_BEFORE);
      texts = TRUE;
    }
  if (WINNOW_SET_FIELD (self->deadline, info->deadline))
    {
      WINNOW_NOTIFY (object, properties, PROP_DEADLINE);
      texts = TRUE;
    }
  winnow_row_set_now (WINNOW_ROW (self), now);
  if (texts)
    WINNOW_NOTIFY (object, properties, PROP_NOT_BEFORE_TEXT, PROP_DEADLINE_TEXT);
}


const char *
winnow_job_row_get_instance (WinnowJobRow *self)
{
  g_return_val_if_fail (WINNOW_IS_JOB_ROW (self), NULL);
  return self->instance;
}

const char *
winnow_job_row_get_node (WinnowJobRow *self)
{
  g_return_val_if_fail (WINNOW_IS_JOB_ROW (self), NULL);
  return self->node;
}

const char *
winnow_job_row_get_topic (WinnowJobRow *self)
{
  g_return_val_if_fail (WINNOW_IS_JOB_ROW (self), NULL);
  return self->topic;
}

WnJobState
winnow_job_row_get_state (WinnowJobRow *self)
{
  g_return_val_if_fail (WINNOW_IS_JOB_ROW (self), WN_JOB_AVAILABLE);
  return self->state;
}

guint
winnow_job_row_get_attempt (WinnowJobRow *self)
{
  g_return_val_if_fail (WINNOW_IS_JOB_ROW (self), 0);
  return self->attempt;
}

guint
winnow_job_row_get_executions (WinnowJobRow *self)
{
  g_return_val_if_fail (WINNOW_IS_JOB_ROW (self), 0);
  return self->executions;
}

WnTime
winnow_job_row_get_not_before (WinnowJobRow *self)
{
  g_return_val_if_fail (WINNOW_IS_JOB_ROW (self), 0);
  return self->not_before;
}

gboolean
winnow_job_row_get_holder_gone (WinnowJobRow *self)
{
  g_return_val_if_fail (WINNOW_IS_JOB_ROW (self), FALSE);
  return self->holder_gone;
}

const char *
winnow_job_row_get_worker (WinnowJobRow *self)
{
  g_return_val_if_fail (WINNOW_IS_JOB_ROW (self), NULL);
  return self->worker;
}

WnTime
winnow_job_row_get_next_change (WinnowJobRow *self)
{
  g_return_val_if_fail (WINNOW_IS_JOB_ROW (self), WN_TIME_NEVER);
  return self->next_change;
}

WnTime
winnow_job_row_get_deadline (WinnowJobRow *self)
{
  g_return_val_if_fail (WINNOW_IS_JOB_ROW (self), -1);
  return self->deadline;
}

WnTime
winnow_job_row_get_enqueued_at (WinnowJobRow *self)
{
  g_return_val_if_fail (WINNOW_IS_JOB_ROW (self), 0);
  return self->enqueued_at;
}

WnTrust
winnow_job_row_get_trust (WinnowJobRow *self)
{
  g_return_val_if_fail (WINNOW_IS_JOB_ROW (self), WN_TRUST_UNSET);
  return self->policy ? self->policy->trust : WN_TRUST_UNSET;
}

WnPolicy *
winnow_job_row_get_policy (WinnowJobRow *self)
{
  g_return_val_if_fail (WINNOW_IS_JOB_ROW (self), NULL);
  return self->policy;
}



/* The fields a display row copies (winnow_row_assign_from). */
static gboolean
winnow_job_row_assign (WinnowRow *row,
                       WinnowRow *other)
{
  WinnowJobRow *self = WINNOW_JOB_ROW (row);
  WinnowJobRow *from = WINNOW_JOB_ROW (other);
  gboolean changed = FALSE;

  changed |= winnow_str_replace (&self->instance, from->instance);
  changed |= winnow_str_replace (&self->node, from->node);
  changed |= winnow_str_replace (&self->topic, from->topic);
  changed |= winnow_str_replace (&self->worker, from->worker);
  changed |= WINNOW_SET_FIELD (self->holder_gone, from->holder_gone);
  changed |= WINNOW_SET_FIELD (self->state, from->state);
  changed |= WINNOW_SET_FIELD (self->attempt, from->attempt);
  changed |= WINNOW_SET_FIELD (self->executions, from->executions);
  changed |= WINNOW_SET_FIELD (self->lost, from->lost);
  changed |= WINNOW_SET_FIELD (self->enqueued_at, from->enqueued_at);
  changed |= WINNOW_SET_FIELD (self->not_before, from->not_before);
  changed |= WINNOW_SET_FIELD (self->deadline, from->deadline);
  self->next_change = from->next_change;
  if (self->policy != from->policy)
    {
      if (from->policy != NULL)
        wn_policy_ref (from->policy);
      g_clear_pointer (&self->policy, wn_policy_unref);
      self->policy = from->policy;
      changed = TRUE;
    }
  return changed;
}

const char *
winnow_trust_name (WnTrust trust)
{
  switch (trust)
    {
    case WN_TRUST_ENGINE_AUTHORITATIVE:
      return _("Engine authoritative");
    case WN_TRUST_WORKER_TRUSTED:
      return _("Worker trusted");
    case WN_TRUST_UNSET:
    default:
      return _("Inherited");
    }
}
