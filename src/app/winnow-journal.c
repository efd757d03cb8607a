/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "winnow-journal.h"

/* Records per block: 96 B each, so a block is 384 KiB. Blocks never move
 * (no copy when the journal grows) and are touched in order. */
#define BLOCK_SHIFT 12
#define BLOCK_SIZE  (1u << BLOCK_SHIFT)

enum {
  S_INSTANCE,
  S_NODE,
  S_TRACK,
  S_JOB,
  S_TOPIC,
  S_WORKER,
  S_CODE,
  S_ERROR,
  S_ACTION,
  S_SCOPE,
  S_BY,
  N_STRINGS
};

typedef struct {
  guint64 seq;
  gint64  t_us;
  gint64  backoff_us;
  gint64  not_before_us;
  gint64  deadline_us;
  guint32 strings[N_STRINGS];   /* interned: index + 1, 0 = NULL */
  guint32 attempt;
  guint32 attempts;
  guint32 loop;
  guint32 extra;                /* index + 1 into extras, 0 = none */
  guint8  kind;
  guint8  phase;
  gint8   trust;
} Record;

/* What few events carry: a status body, a gateway's flows. */
typedef struct {
  JsonNode *status;
  char    **flows;
} Extra;

/* The last N_RECENT strings a field interned, latest first: most events
 * repeat one of them (the instance, node, topic and worker of an event just
 * before), and a compare costs a tenth of a hash-table lookup. */
#define N_RECENT 4

typedef struct {
  const char *text;   /* in chunk */
  guint32     id;
} Recent;

struct _WinnowJournal
{
  gatomicrefcount ref_count;

  GPtrArray    *blocks;     /* Record[BLOCK_SIZE] */
  guint         n_events;
  GStringChunk *chunk;      /* the interned strings */
  GHashTable   *ids;        /* string (in chunk) → index + 1 */
  GPtrArray    *strings;    /* index → string (in chunk) */
  GArray       *extras;     /* Extra */
  Recent        recent[N_STRINGS][N_RECENT];
};

static void
extra_clear (gpointer data)
{
  Extra *extra = data;

  g_clear_pointer (&extra->status, json_node_unref);
  g_clear_pointer (&extra->flows, g_strfreev);
}

static guint32
intern (WinnowJournal *self,
        const char    *string)
{
  gpointer id;
  char *copy;

  if (string == NULL)
    return 0;
  id = g_hash_table_lookup (self->ids, string);
  if (id != NULL)
    return GPOINTER_TO_UINT (id);
  copy = g_string_chunk_insert (self->chunk, string);
  g_ptr_array_add (self->strings, copy);
  g_hash_table_insert (self->ids, copy, GUINT_TO_POINTER (self->strings->len));
  return self->strings->len;
}

static inline const char *
lookup (WinnowJournal *self,
        guint32        id)
{
  return id == 0 ? NULL : g_ptr_array_index (self->strings, id - 1);
}

/* intern() for one of the record's fields, through its recent strings. */
static G_NO_INLINE guint32
intern_recent (WinnowJournal *self,
               Recent        *recent,
               const char    *string)
{
  Recent found;
  guint i;

  for (i = 1; i < N_RECENT && recent[i].text != NULL && strcmp (string, recent[i].text) != 0; i++)
    ;
  if (i < N_RECENT && recent[i].text != NULL)
    found = recent[i];
  else
    {
      found.id = intern (self, string);
      found.text = lookup (self, found.id);
      i = N_RECENT - 1;
    }
  /* to the front */
  memmove (&recent[1], &recent[0], i * sizeof (Recent));
  recent[0] = found;
  return found.id;
}

static inline guint32
intern_field (WinnowJournal *self,
              guint          field,
              const char    *string)
{
  Recent *recent = self->recent[field];

  if (string == NULL)
    return 0;
  if (recent[0].text != NULL && strcmp (string, recent[0].text) == 0)
    return recent[0].id;
  return intern_recent (self, recent, string);
}

static inline Record *
record_at (WinnowJournal *self,
           guint          index)
{
  Record *block = g_ptr_array_index (self->blocks, index >> BLOCK_SHIFT);

  return &block[index & (BLOCK_SIZE - 1)];
}

WinnowJournal *
winnow_journal_new (void)
{
  WinnowJournal *self = g_new0 (WinnowJournal, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->blocks = g_ptr_array_new_with_free_func (g_free);
  self->chunk = g_string_chunk_new (16 * 1024);
  self->ids = g_hash_table_new (g_str_hash, g_str_equal);
  self->strings = g_ptr_array_new ();
  self->extras = g_array_new (FALSE, TRUE, sizeof (Extra));
  g_array_set_clear_func (self->extras, extra_clear);
  return self;
}

WinnowJournal *
winnow_journal_ref (WinnowJournal *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
winnow_journal_unref (WinnowJournal *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_ptr_array_unref (self->blocks);
  g_hash_table_unref (self->ids);
  g_ptr_array_unref (self->strings);
  g_string_chunk_free (self->chunk);
  g_array_unref (self->extras);
  g_free (self);
}

void
winnow_journal_append (WinnowJournal *self,
                       const WnEvent *event)
{
  Record *r;

  g_return_if_fail (self != NULL);
  g_return_if_fail (event != NULL);

  if ((self->n_events & (BLOCK_SIZE - 1)) == 0)
    g_ptr_array_add (self->blocks, g_new (Record, BLOCK_SIZE));
  r = record_at (self, self->n_events);
  r->seq = event->seq;
  r->t_us = event->t_us;
  r->backoff_us = event->backoff_us;
  r->not_before_us = event->not_before_us;
  r->deadline_us = event->deadline_us;
  r->strings[S_INSTANCE] = intern_field (self, S_INSTANCE, event->instance);
  r->strings[S_NODE] = intern_field (self, S_NODE, event->node);
  r->strings[S_TRACK] = intern_field (self, S_TRACK, event->track);
  r->strings[S_JOB] = intern_field (self, S_JOB, event->job);
  r->strings[S_TOPIC] = intern_field (self, S_TOPIC, event->topic);
  r->strings[S_WORKER] = intern_field (self, S_WORKER, event->worker);
  r->strings[S_CODE] = intern_field (self, S_CODE, event->code);
  r->strings[S_ERROR] = intern_field (self, S_ERROR, event->error);
  r->strings[S_ACTION] = intern_field (self, S_ACTION, event->action);
  r->strings[S_SCOPE] = intern_field (self, S_SCOPE, event->scope);
  r->strings[S_BY] = intern_field (self, S_BY, event->by);
  r->attempt = event->attempt;
  r->attempts = event->attempts;
  r->kind = (guint8) event->kind;
  r->phase = (guint8) event->phase;
  r->trust = (gint8) event->trust;
  r->loop = event->loop;
  r->extra = 0;
  if (event->status != NULL || event->flows != NULL)
    {
      Extra extra = { event->status ? json_node_copy (event->status) : NULL,
                      g_strdupv ((char **) event->flows) };

      g_array_append_val (self->extras, extra);
      r->extra = self->extras->len;
    }
  self->n_events++;
}

guint
winnow_journal_get_n_events (WinnowJournal *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_events;
}

void
winnow_journal_get_event (WinnowJournal *self,
                          guint          index,
                          WnEvent       *out)
{
  const Record *r;

  g_return_if_fail (self != NULL);
  g_return_if_fail (index < self->n_events);
  g_return_if_fail (out != NULL);

  r = record_at (self, index);
  out->seq = r->seq;
  out->t_us = r->t_us;
  out->kind = (WnEventKind) r->kind;
  out->phase = (WnEventPhase) r->phase;
  out->instance = lookup (self, r->strings[S_INSTANCE]);
  out->node = lookup (self, r->strings[S_NODE]);
  out->track = lookup (self, r->strings[S_TRACK]);
  out->job = lookup (self, r->strings[S_JOB]);
  out->topic = lookup (self, r->strings[S_TOPIC]);
  out->worker = lookup (self, r->strings[S_WORKER]);
  out->attempt = r->attempt;
  out->attempts = r->attempts;
  out->backoff_us = r->backoff_us;
  out->not_before_us = r->not_before_us;
  out->deadline_us = r->deadline_us;
  out->code = lookup (self, r->strings[S_CODE]);
  out->error = lookup (self, r->strings[S_ERROR]);
  out->action = lookup (self, r->strings[S_ACTION]);
  out->scope = lookup (self, r->strings[S_SCOPE]);
  out->by = lookup (self, r->strings[S_BY]);
  out->trust = (WnTrust) r->trust;
  out->loop = r->loop;
  out->status = NULL;
  out->flows = NULL;
  memset (out->plain_len, 0, sizeof out->plain_len);   /* not known: the writers measure */
  if (r->extra != 0)
    {
      const Extra *extra = &g_array_index (self->extras, Extra, r->extra - 1);

      out->status = extra->status;
      out->flows = (const char **) extra->flows;
    }
}

/* A field added to WnEvent must be kept by a record, read back by
 * winnow_journal_get_event() and compared by winnow_journal_event_equal():
 * this stops the build until it is. (plain_len is no content, only what the
 * emitter knew of its strings: get_event() leaves it 0.) */
#if GLIB_SIZEOF_VOID_P == 8
G_STATIC_ASSERT (sizeof (WnEvent) == 184);
#endif

/* A record's string against one of the event's: the interned copy or NULL. */
static inline gboolean
same_string (WinnowJournal *self,
             guint32        id,
             const char    *string)
{
  const char *mine = lookup (self, id);

  return mine == string || (mine != NULL && string != NULL && strcmp (mine, string) == 0);
}

gboolean
winnow_journal_event_equal (WinnowJournal *self,
                            guint          index,
                            const WnEvent *event,
                            gboolean       whole)
{
  const Record *r;
  const Extra *extra;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (event != NULL, FALSE);

  if (index >= self->n_events)
    return FALSE;
  r = record_at (self, index);
  if (r->seq != event->seq || r->t_us != event->t_us || r->kind != (guint8) event->kind ||
      r->phase != (guint8) event->phase || r->trust != (gint8) event->trust ||
      r->attempt != event->attempt || r->attempts != event->attempts || r->loop != event->loop ||
      r->backoff_us != event->backoff_us || r->not_before_us != event->not_before_us ||
      r->deadline_us != event->deadline_us)
    return FALSE;
  if (!whole)
    return TRUE;
  if (!same_string (self, r->strings[S_INSTANCE], event->instance) ||
      !same_string (self, r->strings[S_NODE], event->node) ||
      !same_string (self, r->strings[S_TRACK], event->track) ||
      !same_string (self, r->strings[S_JOB], event->job) ||
      !same_string (self, r->strings[S_TOPIC], event->topic) ||
      !same_string (self, r->strings[S_WORKER], event->worker) ||
      !same_string (self, r->strings[S_CODE], event->code) ||
      !same_string (self, r->strings[S_ERROR], event->error) ||
      !same_string (self, r->strings[S_ACTION], event->action) ||
      !same_string (self, r->strings[S_SCOPE], event->scope) ||
      !same_string (self, r->strings[S_BY], event->by))
    return FALSE;
  if (r->extra == 0)
    return event->status == NULL && event->flows == NULL;
  extra = &g_array_index (self->extras, Extra, r->extra - 1);
  if ((extra->status == NULL) != (event->status == NULL) ||
      (extra->status != NULL && !json_node_equal (extra->status, event->status)))
    return FALSE;
  if ((extra->flows == NULL) != (event->flows == NULL))
    return FALSE;
  return extra->flows == NULL ||
         g_strv_equal ((const char * const *) extra->flows, (const char * const *) event->flows);
}

void
winnow_journal_truncate (WinnowJournal *self,
                         guint          n_events)
{
  g_return_if_fail (self != NULL);

  if (n_events >= self->n_events)
    return;
  /* the blocks past the last kept record go; the strings and the extras
   * stay (rows may point at them), and the next appends go after them */
  g_ptr_array_set_size (self->blocks, (n_events + BLOCK_SIZE - 1) >> BLOCK_SHIFT);
  self->n_events = n_events;
}

void
winnow_journal_append_json (WinnowJournal *self,
                            guint          from,
                            guint          to,
                            GString       *out)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (out != NULL);

  to = MIN (to, self->n_events);
  for (guint i = from; i < to; i++)
    {
      WnEvent event;

      winnow_journal_get_event (self, i, &event);
      wn_event_append_json (&event, out);
    }
}
