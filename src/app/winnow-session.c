#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "winnow-session.h"
#include "winnow-event-row.h"
#include "winnow-instance-row.h"

#define DEFAULT_BATCH 250
/* While the clock runs, tables bigger than this are re-synced at most every
 * SNAPSHOT_INTERVAL of real time instead of every frame: a view pays for each
 * row that moves, and a Monte-Carlo run moves thousands per frame. */
#define BIG_TABLES 1000
#define SNAPSHOT_INTERVAL (G_USEC_PER_SEC / 4)

/* The journal as a list model (below). */
#define WINNOW_TYPE_EVENT_LOG (winnow_event_log_get_type ())
G_DECLARE_FINAL_TYPE (WinnowEventLog, winnow_event_log, WINNOW, EVENT_LOG, GObject)

struct _WinnowSession
{
  GObject          parent_instance;

  GFile           *file;
  WnProcess       *process;
  WnScenario      *scenario;        /* explicit scenario, or NULL: the embedded one */
  WnEngineOptions  options;
  WnEngine        *engine;
  guint            journal_id;
  guint            batch;
  double           speed;           /* 0: fast-forward */
  WnClockMode      last_mode;

  GPtrArray       *pending;         /* WnEvent*, copies queued by the journal callback */
  gboolean         flush_requested;
  gboolean         snapshots_dirty;
  gboolean         instances_dirty;

  WinnowEventLog  *events;
  GListStore      *jobs;
  GListStore      *tracks;
  GListStore      *instances;
  GHashTable      *job_index;       /* id → WinnowJobRow (ref) */
  GHashTable      *track_index;     /* id → WinnowTrackRow (ref) */
  GHashTable      *instance_index;  /* id → WinnowInstanceRow (ref) */
  WinnowNodeCounts *counts;         /* per process node */
  guint            generation;
  gint64           last_snapshot;   /* monotonic µs */
  guint64          n_dropped;
  guint            n_terminated;
  guint            n_incidents;
  guint            n_rejected;

  char            *selected_node;
};

enum {
  PROP_0,
  PROP_LOADED,
  PROP_MODE,
  PROP_SPEED,
  PROP_SELECTED_NODE,
  N_PROPS
};

enum {
  NEEDS_FLUSH,
  FLUSHED,
  ALERT,
  RUN_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (WinnowSession, winnow_session, G_TYPE_OBJECT)

/* ---- the journal as a list model ----
 * It stores shared events and makes a row object only when someone asks for
 * one (a bound list row, a filter pass): a fast-forward that journals 50 000
 * events a second costs a pointer per event, not an object. */

struct _WinnowEventLog
{
  GObject    parent_instance;

  GPtrArray *items;   /* WinnowEventData* */
};

static GType
event_log_get_item_type (GListModel *model)
{
  return WINNOW_TYPE_EVENT_ROW;
}

static guint
event_log_get_n_items (GListModel *model)
{
  return WINNOW_EVENT_LOG (model)->items->len;
}

static gpointer
event_log_get_item (GListModel *model,
                    guint       position)
{
  WinnowEventLog *self = WINNOW_EVENT_LOG (model);

  if (position >= self->items->len)
    return NULL;
  return winnow_event_row_new_for_data (g_ptr_array_index (self->items, position));
}

static void
event_log_model_init (GListModelInterface *iface)
{
  iface->get_item_type = event_log_get_item_type;
  iface->get_n_items = event_log_get_n_items;
  iface->get_item = event_log_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (WinnowEventLog, winnow_event_log, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, event_log_model_init))

static void
winnow_event_log_finalize (GObject *object)
{
  g_clear_pointer (&WINNOW_EVENT_LOG (object)->items, g_ptr_array_unref);
  G_OBJECT_CLASS (winnow_event_log_parent_class)->finalize (object);
}

static void
winnow_event_log_class_init (WinnowEventLogClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = winnow_event_log_finalize;
}

static void
winnow_event_log_init (WinnowEventLog *self)
{
  self->items = g_ptr_array_new_with_free_func ((GDestroyNotify) winnow_event_data_unref);
}

/* Takes the references in `items`. */
static void
event_log_append (WinnowEventLog   *self,
                  WinnowEventData **items,
                  guint             n)
{
  guint position = self->items->len;

  if (n == 0)
    return;
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (self->items, items[i]);
  g_list_model_items_changed (G_LIST_MODEL (self), position, 0, n);
}

static void
event_log_drop_front (WinnowEventLog *self,
                      guint           n)
{
  n = MIN (n, self->items->len);
  if (n == 0)
    return;
  g_ptr_array_remove_range (self->items, 0, n);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, n, 0);
}

static void
event_log_clear (WinnowEventLog *self)
{
  event_log_drop_front (self, self->items->len);
}

/* ---- helpers ---- */

static void
request_flush (WinnowSession *self)
{
  if (self->flush_requested)
    return;
  self->flush_requested = TRUE;
  g_signal_emit (self, signals[NEEDS_FLUSH], 0);
}

static void
update_mode (WinnowSession *self)
{
  WnClockMode mode = winnow_session_get_mode (self);

  if (mode == self->last_mode)
    return;
  self->last_mode = mode;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODE]);
}

static void
emit_clock (WinnowSession *self,
            WnEventPhase   phase,
            const char    *action)
{
  WnEvent ev = WN_EVENT_INIT (WN_EV_CLOCK, phase);

  ev.action = action;
  wn_journal_emit (wn_engine_get_journal (self->engine), wn_engine_now (self->engine), &ev);
}

static void
journal_cb (const WnEvent *event,
            gpointer       data)
{
  WinnowSession *self = data;

  /* Keep the queue bounded: what would be dropped from the model anyway is
   * dropped here, before any row is made for it. */
  if (self->pending->len >= WINNOW_SESSION_MAX_EVENTS)
    {
      guint n = self->pending->len / 2;

      g_ptr_array_remove_range (self->pending, 0, n);
      self->n_dropped += n;
    }
  g_ptr_array_add (self->pending, wn_event_copy (event));
  request_flush (self);
}

static void
scheduler_notify_cb (WnScheduler *scheduler,
                     gpointer     data)
{
  WinnowSession *self = data;

  self->snapshots_dirty = TRUE;
  update_mode (self);
  request_flush (self);
}

static void
clear_store (GListStore *store)
{
  g_list_store_remove_all (store);
}

static void
detach_engine (WinnowSession *self)
{
  WnScheduler *scheduler;

  if (self->engine == NULL)
    return;
  scheduler = wn_engine_get_scheduler (self->engine);
  wn_scheduler_set_notify (scheduler, NULL, NULL);
  wn_scheduler_pause (scheduler);
  wn_scheduler_detach (scheduler);
  wn_journal_unsubscribe (wn_engine_get_journal (self->engine), self->journal_id);
  self->journal_id = 0;
  g_clear_pointer (&self->engine, wn_engine_free);
}

static void
reset_models (WinnowSession *self)
{
  g_ptr_array_set_size (self->pending, 0);
  g_hash_table_remove_all (self->job_index);
  g_hash_table_remove_all (self->track_index);
  g_hash_table_remove_all (self->instance_index);
  event_log_clear (self->events);
  clear_store (self->jobs);
  clear_store (self->tracks);
  clear_store (self->instances);
  g_clear_pointer (&self->counts, g_free);
  self->n_dropped = 0;
  self->n_terminated = 0;
  self->n_incidents = 0;
  self->n_rejected = 0;
}

static void
attach_engine (WinnowSession *self)
{
  WnScheduler *scheduler = wn_engine_get_scheduler (self->engine);
  GSource *source;
  guint id;

  wn_scheduler_set_batch (scheduler, self->batch);
  if (self->speed > 0)
    wn_scheduler_set_speed (scheduler, self->speed);
  wn_scheduler_set_notify (scheduler, scheduler_notify_cb, self);
  id = wn_scheduler_attach (scheduler, NULL);

  /* Below redraw and input: a fast-forward that always has work must not
   * starve the frame clock or the Pause button. */
  source = g_main_context_find_source_by_id (NULL, id);
  if (source != NULL)
    g_source_set_priority (source, G_PRIORITY_DEFAULT_IDLE);

  self->journal_id = wn_journal_subscribe (wn_engine_get_journal (self->engine),
                                           journal_cb, self, NULL);
}

static void
start_engine (WinnowSession *self)
{
  detach_engine (self);
  reset_models (self);

  self->engine = wn_engine_new (self->process, self->scenario, &self->options);
  self->counts = g_new0 (WinnowNodeCounts, self->process->n_nodes);
  attach_engine (self);

  self->snapshots_dirty = TRUE;
  self->instances_dirty = TRUE;
  self->last_mode = WN_CLOCK_PAUSED;
  winnow_session_flush (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADED]);
  g_signal_emit (self, signals[RUN_CHANGED], 0);
}

/* ---- snapshot refresh ---- */

typedef struct {
  WinnowSession *self;
  GPtrArray     *added;
  guint          seen;
  WnTime         now;
} Pass;

/* Bring `store` in line with a pass over the engine: rows not seen this
 * generation leave, new ones are appended — in as few items-changed as we can. */
static void
sync_store (GListStore *store,
            GHashTable *index,
            Pass       *pass,
            guint       generation,
            guint     (*get_generation) (gpointer row),
            const char *(*get_id) (gpointer row))
{
  guint n_old = g_list_model_get_n_items (G_LIST_MODEL (store));
  guint survivors = pass->seen - pass->added->len;
  guint dead = n_old - survivors;

  if (dead > 0 && dead <= 32)
    {
      /* a few leave: remove them run by run, from the end */
      guint i = n_old;

      while (i > 0)
        {
          guint end = i;

          while (i > 0)
            {
              g_autoptr(GObject) row = g_list_model_get_item (G_LIST_MODEL (store), i - 1);

              if (get_generation (row) == generation)
                break;
              g_hash_table_remove (index, get_id (row));
              i--;
            }
          if (end != i)
            g_list_store_splice (store, i, end - i, NULL, 0);
          else
            i--;
        }
    }
  else if (dead > 0)
    {
      /* many leave: replace everything at once */
      g_autoptr(GPtrArray) keep = g_ptr_array_new_full (survivors + pass->added->len, g_object_unref);

      for (guint i = 0; i < n_old; i++)
        {
          GObject *row = g_list_model_get_item (G_LIST_MODEL (store), i);

          if (get_generation (row) == generation)
            g_ptr_array_add (keep, row);
          else
            {
              g_hash_table_remove (index, get_id (row));
              g_object_unref (row);
            }
        }
      for (guint i = 0; i < pass->added->len; i++)
        g_ptr_array_add (keep, g_object_ref (g_ptr_array_index (pass->added, i)));
      g_list_store_splice (store, 0, n_old, keep->pdata, keep->len);
      return;
    }

  if (pass->added->len > 0)
    g_list_store_splice (store, g_list_model_get_n_items (G_LIST_MODEL (store)), 0,
                         pass->added->pdata, pass->added->len);
}

static guint
job_generation (gpointer row)
{
  return winnow_job_row_get_generation (row);
}

static const char *
job_id (gpointer row)
{
  return winnow_job_row_get_id (row);
}

static guint
track_generation (gpointer row)
{
  return winnow_track_row_get_generation (row);
}

static const char *
track_id (gpointer row)
{
  return winnow_track_row_get_id (row);
}

static void
job_cb (const WnJobInfo *info,
        gpointer         data)
{
  Pass *pass = data;
  WinnowSession *self = pass->self;
  WinnowJobRow *row = g_hash_table_lookup (self->job_index, info->id);

  if (row == NULL)
    {
      row = winnow_job_row_new (info->id);
      g_hash_table_insert (self->job_index, (gpointer) winnow_job_row_get_id (row), row);
      g_ptr_array_add (pass->added, g_object_ref (row));
    }
  winnow_job_row_update (row, info, pass->now);
  winnow_job_row_set_generation (row, self->generation);
  pass->seen++;
}

static void
refresh_jobs (WinnowSession *self,
              WnTime         now)
{
  Pass pass = { self, g_ptr_array_new_with_free_func (g_object_unref), 0, now };

  wn_dispatcher_foreach (wn_engine_get_dispatcher (self->engine), job_cb, &pass);
  sync_store (self->jobs, self->job_index, &pass, self->generation, job_generation, job_id);
  g_ptr_array_unref (pass.added);
}

static void
track_cb (const WnTrackInfo *info,
          gpointer           data)
{
  Pass *pass = data;
  WinnowSession *self = pass->self;
  WinnowTrackRow *row = g_hash_table_lookup (self->track_index, info->id);
  const WnNode *node = wn_process_find_node (self->process, info->node);

  if (row == NULL)
    {
      row = winnow_track_row_new (info->id);
      g_hash_table_insert (self->track_index, (gpointer) winnow_track_row_get_id (row), row);
      g_ptr_array_add (pass->added, g_object_ref (row));
    }
  winnow_track_row_update (row, info, node && node->name ? node->name : info->node, pass->now);
  winnow_track_row_set_generation (row, self->generation);
  pass->seen++;

  if (node != NULL)
    {
      WinnowNodeCounts *counts = &self->counts[node->index];

      switch (info->state)
        {
        case WN_TRACK_ACTIVE:
        case WN_TRACK_JOINING:
          counts->active++;
          break;
        case WN_TRACK_PARKED:
          counts->parked++;
          break;
        case WN_TRACK_INCIDENT:
          counts->incident++;
          break;
        case WN_TRACK_DONE:
        case WN_TRACK_CANCELED:
        case WN_TRACK_FAILED:
        default:
          break;
        }
    }
}

static void
refresh_tracks (WinnowSession *self,
                WnTime         now)
{
  Pass pass = { self, g_ptr_array_new_with_free_func (g_object_unref), 0, now };

  memset (self->counts, 0, sizeof (WinnowNodeCounts) * self->process->n_nodes);
  wn_engine_foreach_track (self->engine, FALSE, track_cb, &pass);
  sync_store (self->tracks, self->track_index, &pass, self->generation, track_generation, track_id);
  g_ptr_array_unref (pass.added);
}

static void
instance_cb (const WnInstanceInfo *info,
             gpointer              data)
{
  Pass *pass = data;
  WinnowSession *self = pass->self;
  WinnowInstanceRow *row = g_hash_table_lookup (self->instance_index, info->id);

  if (row == NULL)
    {
      row = winnow_instance_row_new (info->id);
      g_hash_table_insert (self->instance_index, (gpointer) winnow_instance_row_get_id (row), row);
      g_ptr_array_add (pass->added, g_object_ref (row));
    }
  winnow_instance_row_update (row, info);
}

static void
refresh_instances (WinnowSession *self)
{
  Pass pass = { self, g_ptr_array_new_with_free_func (g_object_unref), 0, 0 };

  wn_engine_foreach_instance (self->engine, instance_cb, &pass);
  if (pass.added->len > 0)
    g_list_store_splice (self->instances, g_list_model_get_n_items (G_LIST_MODEL (self->instances)), 0,
                         pass.added->pdata, pass.added->len);
  g_ptr_array_unref (pass.added);
}

/* ---- GObject ---- */

static void
winnow_session_dispose (GObject *object)
{
  WinnowSession *self = WINNOW_SESSION (object);

  detach_engine (self);
  if (self->pending != NULL)
    reset_models (self);

  G_OBJECT_CLASS (winnow_session_parent_class)->dispose (object);
}

static void
winnow_session_finalize (GObject *object)
{
  WinnowSession *self = WINNOW_SESSION (object);

  g_clear_object (&self->file);
  g_clear_pointer (&self->process, wn_process_unref);
  g_clear_pointer (&self->scenario, wn_scenario_unref);
  g_clear_pointer (&self->pending, g_ptr_array_unref);
  g_clear_object (&self->events);
  g_clear_object (&self->jobs);
  g_clear_object (&self->tracks);
  g_clear_object (&self->instances);
  g_clear_pointer (&self->job_index, g_hash_table_unref);
  g_clear_pointer (&self->track_index, g_hash_table_unref);
  g_clear_pointer (&self->instance_index, g_hash_table_unref);
  g_clear_pointer (&self->counts, g_free);
  g_clear_pointer (&self->selected_node, g_free);

  G_OBJECT_CLASS (winnow_session_parent_class)->finalize (object);
}

static void
winnow_session_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  WinnowSession *self = WINNOW_SESSION (object);

  switch (prop_id)
    {
    case PROP_LOADED:
      g_value_set_boolean (value, self->engine != NULL);
      break;
    case PROP_MODE:
      g_value_set_int (value, winnow_session_get_mode (self));
      break;
    case PROP_SPEED:
      g_value_set_double (value, self->speed);
      break;
    case PROP_SELECTED_NODE:
      g_value_set_string (value, self->selected_node);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_session_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  WinnowSession *self = WINNOW_SESSION (object);

  switch (prop_id)
    {
    case PROP_SPEED:
      winnow_session_set_speed (self, g_value_get_double (value));
      break;
    case PROP_SELECTED_NODE:
      winnow_session_set_selected_node (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
winnow_session_class_init (WinnowSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = winnow_session_dispose;
  object_class->finalize = winnow_session_finalize;
  object_class->get_property = winnow_session_get_property;
  object_class->set_property = winnow_session_set_property;

  properties[PROP_LOADED] =
    g_param_spec_boolean ("loaded", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_MODE] =
    g_param_spec_int ("mode", NULL, NULL, 0, G_MAXINT, WN_CLOCK_PAUSED,
                      G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SPEED] =
    g_param_spec_double ("speed", NULL, NULL, 0.0, G_MAXDOUBLE, 1.0,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SELECTED_NODE] =
    g_param_spec_string ("selected-node", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* Something waits to be applied: the view should flush on its next frame. */
  signals[NEEDS_FLUSH] = g_signal_new ("needs-flush", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                       0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* The models have been brought up to date. */
  signals[FLUSHED] = g_signal_new ("flushed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* (WinnowAlert kind, count in this batch, the first such event's row or NULL) */
  signals[ALERT] = g_signal_new ("alert", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                 0, NULL, NULL, NULL, G_TYPE_NONE, 3,
                                 G_TYPE_INT, G_TYPE_UINT, WINNOW_TYPE_EVENT_ROW);
  /* A new run replaced the previous one (load, restart, reload). */
  signals[RUN_CHANGED] = g_signal_new ("run-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                       0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
winnow_session_init (WinnowSession *self)
{
  self->batch = DEFAULT_BATCH;
  self->speed = 1.0;
  self->pending = g_ptr_array_new_with_free_func ((GDestroyNotify) wn_event_free);
  self->events = g_object_new (WINNOW_TYPE_EVENT_LOG, NULL);
  self->jobs = g_list_store_new (WINNOW_TYPE_JOB_ROW);
  self->tracks = g_list_store_new (WINNOW_TYPE_TRACK_ROW);
  self->instances = g_list_store_new (WINNOW_TYPE_INSTANCE_ROW);
  self->job_index = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_object_unref);
  self->track_index = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_object_unref);
  self->instance_index = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_object_unref);
}

/* ---- public API ---- */

WinnowSession *
winnow_session_new (void)
{
  return g_object_new (WINNOW_TYPE_SESSION, NULL);
}

gboolean
winnow_session_load_file (WinnowSession          *self,
                          GFile                  *file,
                          const WnEngineOptions  *options,
                          GPtrArray             **diagnostics,
                          GError                **error)
{
  g_autofree char *path = NULL;
  g_autoptr(WnProcess) process = NULL;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  path = g_file_get_path (file);
  if (path == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("Only local files can be opened"));
      return FALSE;
    }
  process = wn_load_process_file (path, diagnostics, error);
  if (process == NULL)
    return FALSE;
  winnow_session_set_process (self, process, NULL, options, file);
  return TRUE;
}

void
winnow_session_set_process (WinnowSession         *self,
                            WnProcess             *process,
                            WnScenario            *scenario,
                            const WnEngineOptions *options,
                            GFile                 *file)
{
  g_return_if_fail (WINNOW_IS_SESSION (self));
  g_return_if_fail (process != NULL);

  wn_process_ref (process);
  g_clear_pointer (&self->process, wn_process_unref);
  self->process = process;
  if (scenario != NULL)
    wn_scenario_ref (scenario);
  g_clear_pointer (&self->scenario, wn_scenario_unref);
  self->scenario = scenario;
  if (options != NULL)
    self->options = *options;
  else
    memset (&self->options, 0, sizeof self->options);
  g_set_object (&self->file, file);

  start_engine (self);
}

void
winnow_session_restart (WinnowSession *self)
{
  g_return_if_fail (WINNOW_IS_SESSION (self));

  if (self->process == NULL)
    return;
  start_engine (self);
}

gboolean
winnow_session_reload (WinnowSession  *self,
                       GPtrArray     **diagnostics,
                       GError        **error)
{
  g_autofree char *path = NULL;
  g_autoptr(WnProcess) process = NULL;
  g_autoptr(WnScenario) scenario = NULL;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);

  if (self->file == NULL || (path = g_file_get_path (self->file)) == NULL)
    {
      winnow_session_restart (self);
      return TRUE;
    }
  process = wn_load_process_file (path, diagnostics, error);
  if (process == NULL)
    return FALSE;
  if (self->scenario != NULL && self->scenario->filename != NULL)
    {
      scenario = wn_load_scenario_file (self->scenario->filename, diagnostics, error);
      if (scenario == NULL)
        return FALSE;
    }
  g_clear_pointer (&self->process, wn_process_unref);
  self->process = g_steal_pointer (&process);
  if (scenario != NULL)
    {
      g_clear_pointer (&self->scenario, wn_scenario_unref);
      self->scenario = g_steal_pointer (&scenario);
    }
  start_engine (self);
  return TRUE;
}

gboolean
winnow_session_is_loaded (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);
  return self->engine != NULL;
}

WnEngine *
winnow_session_get_engine (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return self->engine;
}

WnProcess *
winnow_session_get_process (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return self->process;
}

GFile *
winnow_session_get_file (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return self->file;
}

const WnEngineOptions *
winnow_session_get_options (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return &self->options;
}

const char *
winnow_session_get_title (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);

  if (self->process == NULL)
    return NULL;
  return self->process->name ? self->process->name : self->process->id;
}

WnClockMode
winnow_session_get_mode (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), WN_CLOCK_PAUSED);

  if (self->engine == NULL)
    return WN_CLOCK_PAUSED;
  return wn_scheduler_get_mode (wn_engine_get_scheduler (self->engine));
}

gboolean
winnow_session_is_playing (WinnowSession *self)
{
  return winnow_session_get_mode (self) != WN_CLOCK_PAUSED;
}

void
winnow_session_play (WinnowSession *self)
{
  WnScheduler *scheduler;
  gboolean was_paused;

  g_return_if_fail (WINNOW_IS_SESSION (self));

  if (self->engine == NULL)
    return;
  scheduler = wn_engine_get_scheduler (self->engine);
  was_paused = wn_scheduler_get_mode (scheduler) == WN_CLOCK_PAUSED;
  if (self->speed <= 0)
    wn_scheduler_fast_forward (scheduler);
  else
    {
      wn_scheduler_set_speed (scheduler, self->speed);
      wn_scheduler_resume (scheduler);
    }
  if (was_paused)
    emit_clock (self, WN_PH_RESUMED, NULL);
  update_mode (self);
  request_flush (self);
}

void
winnow_session_pause (WinnowSession *self)
{
  WnScheduler *scheduler;

  g_return_if_fail (WINNOW_IS_SESSION (self));

  if (self->engine == NULL)
    return;
  scheduler = wn_engine_get_scheduler (self->engine);
  if (wn_scheduler_get_mode (scheduler) == WN_CLOCK_PAUSED)
    return;
  wn_scheduler_pause (scheduler);
  emit_clock (self, WN_PH_PAUSED, NULL);
  update_mode (self);
  request_flush (self);
}

void
winnow_session_play_pause (WinnowSession *self)
{
  if (winnow_session_is_playing (self))
    winnow_session_pause (self);
  else
    winnow_session_play (self);
}

void
winnow_session_set_speed (WinnowSession *self,
                          double         speed)
{
  g_return_if_fail (WINNOW_IS_SESSION (self));

  speed = MAX (speed, 0.0);
  if (speed == self->speed)
    return;
  self->speed = speed;
  if (winnow_session_is_playing (self))
    {
      WnScheduler *scheduler = wn_engine_get_scheduler (self->engine);

      if (speed <= 0)
        wn_scheduler_fast_forward (scheduler);
      else
        {
          wn_scheduler_set_speed (scheduler, speed);
          wn_scheduler_resume (scheduler);
        }
      update_mode (self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SPEED]);
}

double
winnow_session_get_speed (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), 1.0);
  return self->speed;
}

gboolean
winnow_session_step_next (WinnowSession *self)
{
  gboolean ran;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);

  if (self->engine == NULL)
    return FALSE;
  winnow_session_pause (self);
  ran = wn_scheduler_step_next (wn_engine_get_scheduler (self->engine));
  if (ran)
    emit_clock (self, WN_PH_STEPPED, _("to the next event"));
  self->snapshots_dirty = TRUE;
  self->instances_dirty = TRUE;
  request_flush (self);
  return ran;
}

void
winnow_session_step_by (WinnowSession *self,
                        WnTime         delta)
{
  g_autofree char *text = NULL;
  g_autofree char *action = NULL;

  g_return_if_fail (WINNOW_IS_SESSION (self));
  g_return_if_fail (delta >= 0);

  if (self->engine == NULL)
    return;
  winnow_session_pause (self);
  wn_scheduler_step_by (wn_engine_get_scheduler (self->engine), delta);
  text = wn_duration_format (delta);
  /* Translators: a clock step, e.g. "by 100ms" */
  action = g_strdup_printf (_("by %s"), text);
  emit_clock (self, WN_PH_STEPPED, action);
  self->snapshots_dirty = TRUE;
  self->instances_dirty = TRUE;
  request_flush (self);
}

WnTime
winnow_session_get_now (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), 0);
  return self->engine ? wn_engine_now (self->engine) : 0;
}

WnTime
winnow_session_get_next_time (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), WN_TIME_NEVER);
  return self->engine ? wn_scheduler_get_next_time (wn_engine_get_scheduler (self->engine)) : WN_TIME_NEVER;
}

void
winnow_session_set_batch (WinnowSession *self,
                          guint          actions)
{
  g_return_if_fail (WINNOW_IS_SESSION (self));

  self->batch = MAX (actions, 1);
  if (self->engine != NULL)
    wn_scheduler_set_batch (wn_engine_get_scheduler (self->engine), self->batch);
}

void
winnow_session_set_trust_default (WinnowSession *self,
                                  WnTrust        trust)
{
  g_return_if_fail (WINNOW_IS_SESSION (self));
  g_return_if_fail (trust == WN_TRUST_WORKER_TRUSTED || trust == WN_TRUST_ENGINE_AUTHORITATIVE);

  if (self->engine != NULL)
    wn_engine_set_trust_default (self->engine, trust);
}

WnTrust
winnow_session_get_trust_default (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), WN_TRUST_UNSET);
  return self->engine ? wn_engine_get_trust_default (self->engine) : WN_TRUST_UNSET;
}

gboolean
winnow_session_set_task_trust (WinnowSession  *self,
                               const char     *node,
                               WnTrust         trust,
                               GError        **error)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);

  if (self->engine == NULL)
    {
      g_set_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_INVALID, _("No process is loaded"));
      return FALSE;
    }
  return wn_engine_set_task_trust (self->engine, node, trust, error);
}

gboolean
winnow_session_inject (WinnowSession  *self,
                       const char     *topic,
                       const char     *worker,
                       WnResponse     *response,
                       GError        **error)
{
  gboolean ok;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);

  if (self->engine == NULL)
    {
      g_set_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_INVALID, _("No process is loaded"));
      return FALSE;
    }
  ok = wn_engine_inject (self->engine, topic, worker, response, error);
  self->snapshots_dirty = TRUE;
  request_flush (self);
  return ok;
}

const char *
winnow_session_start_instance (WinnowSession  *self,
                               JsonObject     *variables,
                               GError        **error)
{
  const char *id;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);

  if (self->engine == NULL)
    {
      g_set_error (error, WN_ENGINE_ERROR, WN_ENGINE_ERROR_INVALID, _("No process is loaded"));
      return NULL;
    }
  id = wn_engine_start_instance (self->engine, variables, error);
  self->snapshots_dirty = TRUE;
  self->instances_dirty = TRUE;
  request_flush (self);
  return id;
}

GListModel *
winnow_session_get_events (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return G_LIST_MODEL (self->events);
}

GListModel *
winnow_session_get_jobs (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return G_LIST_MODEL (self->jobs);
}

GListModel *
winnow_session_get_tracks (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return G_LIST_MODEL (self->tracks);
}

GListModel *
winnow_session_get_instances (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return G_LIST_MODEL (self->instances);
}

WinnowJobRow *
winnow_session_lookup_job (WinnowSession *self,
                           const char    *id)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return id ? g_hash_table_lookup (self->job_index, id) : NULL;
}

guint64
winnow_session_get_n_dropped (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), 0);
  return self->n_dropped;
}

WinnowNodeCounts
winnow_session_get_node_counts (WinnowSession *self,
                                const char    *node)
{
  WinnowNodeCounts none = { 0, 0, 0 };
  const WnNode *n;

  g_return_val_if_fail (WINNOW_IS_SESSION (self), none);

  if (self->process == NULL || self->counts == NULL || node == NULL)
    return none;
  n = wn_process_find_node (self->process, node);
  return n ? self->counts[n->index] : none;
}

guint
winnow_session_get_n_terminated (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), 0);
  return self->n_terminated;
}

guint
winnow_session_get_n_incidents (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), 0);
  return self->n_incidents;
}

guint
winnow_session_get_n_rejected (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), 0);
  return self->n_rejected;
}

gboolean
winnow_session_has_pending (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), FALSE);
  return self->flush_requested || self->pending->len > 0 ||
         (self->engine != NULL && (self->snapshots_dirty || self->instances_dirty));
}

typedef struct {
  guint          count;
  WinnowEventRow *first;
} AlertTally;

static gboolean
snapshots_due (WinnowSession *self)
{
  guint rows;

  if (!winnow_session_is_playing (self))
    return TRUE;
  rows = g_list_model_get_n_items (G_LIST_MODEL (self->jobs)) +
         g_list_model_get_n_items (G_LIST_MODEL (self->tracks)) +
         wn_dispatcher_get_n_jobs (wn_engine_get_dispatcher (self->engine));
  if (rows < BIG_TABLES)
    return TRUE;
  return g_get_monotonic_time () - self->last_snapshot >= SNAPSHOT_INTERVAL;
}

void
winnow_session_flush (WinnowSession *self)
{
  AlertTally tally[3] = { { 0, NULL }, { 0, NULL }, { 0, NULL } };
  gboolean had_events;
  guint n_events;
  gint64 started, events_done, snapshots_done = 0;
  WnTime now;

  g_return_if_fail (WINNOW_IS_SESSION (self));

  self->flush_requested = FALSE;
  if (self->engine == NULL)
    {
      g_ptr_array_set_size (self->pending, 0);
      return;
    }
  now = wn_engine_now (self->engine);
  n_events = self->pending->len;
  had_events = n_events > 0;
  started = g_get_monotonic_time ();

  /* 1. the journal: one batch, appended with one items-changed */
  if (had_events)
    {
      guint n_old = g_list_model_get_n_items (G_LIST_MODEL (self->events));
      gsize n_taken = 0;
      gpointer *taken = g_ptr_array_steal (self->pending, &n_taken);
      WinnowEventData **items = g_new (WinnowEventData *, n_taken);
      guint first = 0;

      for (gsize i = 0; i < n_taken; i++)
        {
          WnEvent *event = taken[i];
          int alert = -1;

          items[i] = winnow_event_data_new (event);
          if (event->kind == WN_EV_INSTANCE || event->kind == WN_EV_INCIDENT)
            self->instances_dirty = TRUE;
          if (event->kind == WN_EV_INSTANCE && event->phase == WN_PH_TERMINATED)
            {
              self->n_terminated++;
              alert = WINNOW_ALERT_TERMINATED;
            }
          else if (event->kind == WN_EV_INCIDENT && event->phase == WN_PH_RAISED)
            {
              self->n_incidents++;
              alert = WINNOW_ALERT_INCIDENT;
            }
          else if (event->kind == WN_EV_JOB && event->phase == WN_PH_REPORT_REJECTED)
            {
              self->n_rejected++;
              alert = WINNOW_ALERT_REJECTED;
            }
          if (alert >= 0 && tally[alert].count++ == 0)
            tally[alert].first = winnow_event_row_new_for_data (items[i]);
        }
      g_free (taken);

      /* keep the newest WINNOW_SESSION_MAX_EVENTS */
      if (n_old + n_taken > WINNOW_SESSION_MAX_EVENTS)
        {
          guint excess = n_old + n_taken - WINNOW_SESSION_MAX_EVENTS;
          guint from_model = MIN (excess, n_old);

          event_log_drop_front (self->events, from_model);
          for (; first < excess - from_model; first++)
            winnow_event_data_unref (items[first]);
          self->n_dropped += excess;
        }
      event_log_append (self->events, items + first, n_taken - first);
      g_free (items);
    }

  events_done = g_get_monotonic_time ();

  /* 2. snapshots of what is now: jobs, tracks (and the badges), instances */
  if (had_events)
    self->snapshots_dirty = TRUE;
  if ((self->snapshots_dirty || self->instances_dirty) && snapshots_due (self))
    {
      if (self->snapshots_dirty)
        {
          self->generation++;
          refresh_jobs (self, now);
          refresh_tracks (self, now);
          self->snapshots_dirty = FALSE;
        }
      if (self->instances_dirty)
        {
          refresh_instances (self);
          self->instances_dirty = FALSE;
        }
      self->last_snapshot = snapshots_done = g_get_monotonic_time ();
    }

  /* 3. a run that has nothing left to do stops the clock */
  if (winnow_session_is_playing (self) && wn_scheduler_get_n_pending (wn_engine_get_scheduler (self->engine)) == 0)
    {
      winnow_session_pause (self);
      g_signal_emit (self, signals[ALERT], 0, WINNOW_ALERT_FINISHED, 0, NULL);
      /* the pause queued a clock event: apply it on the next frame */
    }

  for (guint i = 0; i < G_N_ELEMENTS (tally); i++)
    if (tally[i].count > 0)
      {
        g_signal_emit (self, signals[ALERT], 0, (int) i, tally[i].count, tally[i].first);
        g_object_unref (tally[i].first);
      }

  g_signal_emit (self, signals[FLUSHED], 0);
  g_debug ("flush: %u events in %" G_GINT64_FORMAT " µs, snapshots %" G_GINT64_FORMAT
           " µs, views %" G_GINT64_FORMAT " µs",
           n_events, events_done - started, snapshots_done ? snapshots_done - events_done : 0,
           g_get_monotonic_time () - MAX (events_done, snapshots_done));
}

const char *
winnow_session_get_selected_node (WinnowSession *self)
{
  g_return_val_if_fail (WINNOW_IS_SESSION (self), NULL);
  return self->selected_node;
}

void
winnow_session_set_selected_node (WinnowSession *self,
                                  const char    *node)
{
  g_return_if_fail (WINNOW_IS_SESSION (self));

  if (node != NULL && *node == '\0')
    node = NULL;
  if (g_strcmp0 (self->selected_node, node) == 0)
    return;
  g_free (self->selected_node);
  self->selected_node = g_strdup (node);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_NODE]);
}
