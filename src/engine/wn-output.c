/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-output.c — checked, atomically replaced output files (wn-output.h). */
#include "config.h"

#include "wn-output.h"
#include "wn-journal-private.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>

/* Bytes gathered before a write(2): a journal line is far smaller. The buffer
 * holds twice that, so a journal line formatted in place past the mark (then
 * written out) does not make it grow. */
#define OUTPUT_BUFFER 65536

struct _WnOutput {
  /* first, together, what every journal line reads (wn_output_journal_func()):
   * the engine's work between two events pushes them out of the nearest cache */
  GError          *error;       /* the first failure */
  gboolean         by_line;     /* a terminal: each write goes out at once */
  gboolean         done;
  GString         *buffer;      /* &buffer_data */
  GString          buffer_data; /* the GString itself, not a block of its own */
  WnJsonLineState  json;        /* what wn_output_write_event() carries from line to line */
  int              fd;
  char            *name;        /* for messages */
  char            *target;      /* what a temporary file replaces, or NULL */
  char            *temporary;   /* NULL when written directly */
};

static WnOutput *
output_new (int fd, const char *name)
{
  WnOutput *self = g_new0 (WnOutput, 1);

  self->fd = fd;
  self->name = g_strdup (name);
  /* a GString of our own (g_string_* reallocate its str, never the struct) */
  self->buffer_data.str = g_malloc (2 * OUTPUT_BUFFER);
  self->buffer_data.str[0] = '\0';
  self->buffer_data.len = 0;
  self->buffer_data.allocated_len = 2 * OUTPUT_BUFFER;
  self->buffer = &self->buffer_data;
  return self;
}

static void
set_errno_error (GError **error, int errsv, const char *what, const char *name)
{
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv), "%s %s: %s", what, name,
               g_strerror (errsv));
}

static void
fail (WnOutput *self, int errsv, const char *what)
{
  if (self->error == NULL)
    set_errno_error (&self->error, errsv, what, self->name);
}

/* The regular file a path names, through symbolic links, or NULL when it names
 * nothing (yet) — or something else, reported in *st. */
static char *
resolve_target (const char *filename, struct stat *st, gboolean *exists, GError **error)
{
  struct stat link_st;

  *exists = g_stat (filename, st) == 0;
  if (!*exists)
    {
      if (errno != ENOENT)
        {
          set_errno_error (error, errno, "cannot write", filename);
          return NULL;
        }
      return g_strdup (filename);
    }
  if (g_lstat (filename, &link_st) == 0 && S_ISLNK (link_st.st_mode) && S_ISREG (st->st_mode))
    {
      /* replace the file the link points to, not the link */
      char *real = realpath (filename, NULL);
      char *copy;

      if (real == NULL)
        {
          set_errno_error (error, errno, "cannot write", filename);
          return NULL;
        }
      copy = g_strdup (real);
      free (real);
      return copy;
    }
  return g_strdup (filename);
}

static int
open_temporary (const char *target, const struct stat *st, gboolean exists, char **temporary)
{
  g_autofree char *dir = g_path_get_dirname (target);
  g_autofree char *base = g_path_get_basename (target);
  g_autofree char *template = g_strdup_printf ("%s/.%s.XXXXXX", dir, base);
  int fd;

  /* 0666 less the umask, as a new file would get */
  fd = g_mkstemp_full (template, O_WRONLY | O_CLOEXEC, 0666);
  if (fd < 0)
    return -1;
  /* a replaced file keeps its permissions */
  if (exists && fchmod (fd, st->st_mode & 07777) != 0)
    {
      int errsv = errno;

      close (fd);
      g_unlink (template);
      errno = errsv;
      return -1;
    }
  *temporary = g_steal_pointer (&template);
  return fd;
}

WnOutput *
wn_output_open (const char  *filename,
                GError     **error)
{
  struct stat st;
  gboolean exists;
  g_autofree char *target = NULL;
  char *temporary = NULL;
  WnOutput *self;
  int fd;

  g_return_val_if_fail (filename != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  target = resolve_target (filename, &st, &exists, error);
  if (target == NULL)
    return NULL;

  if (exists && !S_ISREG (st.st_mode))
    {
      /* a FIFO, a device: there is nothing to rename over */
      fd = g_open (filename, O_WRONLY | O_CLOEXEC | O_NOCTTY, 0);
      if (fd < 0)
        {
          set_errno_error (error, errno, "cannot write", filename);
          return NULL;
        }
      return output_new (fd, filename);
    }

  fd = open_temporary (target, &st, exists, &temporary);
  if (fd < 0 && errno == EACCES)
    {
      /* a writable file in a directory we may not add to: the old way, in place */
      fd = g_open (filename, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0666);
      if (fd < 0)
        {
          set_errno_error (error, errno, "cannot write", filename);
          return NULL;
        }
      return output_new (fd, filename);
    }
  if (fd < 0)
    {
      set_errno_error (error, errno, "cannot create a temporary file beside", filename);
      return NULL;
    }
  self = output_new (fd, filename);
  self->target = g_steal_pointer (&target);
  self->temporary = temporary;
  return self;
}

WnOutput *
wn_output_new_for_fd (int         fd,
                      const char *name)
{
  WnOutput *self;

  g_return_val_if_fail (fd >= 0, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  self = output_new (fd, name);
  self->by_line = isatty (fd);
  return self;
}

static void
discard (WnOutput *self)
{
  if (self->fd >= 0)
    close (self->fd);
  self->fd = -1;
  if (self->temporary != NULL)
    g_unlink (self->temporary);
  g_clear_pointer (&self->temporary, g_free);
}

void
wn_output_free (WnOutput *self)
{
  if (self == NULL)
    return;
  if (!self->done)
    discard (self);
  g_free (self->name);
  g_free (self->target);
  g_free (self->temporary);
  g_free (self->buffer_data.str);
  g_clear_error (&self->error);
  g_free (self);
}

static gboolean
write_all (WnOutput *self, const char *data, gsize length)
{
  while (length > 0)
    {
      gssize n = write (self->fd, data, length);

      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          fail (self, errno, "cannot write");
          return FALSE;
        }
      data += n;
      length -= (gsize) n;
    }
  return TRUE;
}

gboolean
wn_output_flush (WnOutput *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (self->error != NULL || self->done)
    return self->error == NULL;
  if (!write_all (self, self->buffer->str, self->buffer->len))
    return FALSE;
  g_string_truncate (self->buffer, 0);
  return TRUE;
}

gboolean
wn_output_write (WnOutput   *self,
                 const char *data,
                 gsize       length)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (!self->done, FALSE);

  if (self->error != NULL)
    return FALSE;
  if (self->buffer->len + length > OUTPUT_BUFFER && !wn_output_flush (self))
    return FALSE;
  if (length >= OUTPUT_BUFFER)
    return write_all (self, data, length);
  g_string_append_len (self->buffer, data, length);
  return !self->by_line || wn_output_flush (self);
}

/* The journal subscriber's whole work, in its own body (one call fewer per
 * event than through wn_output_write_event()). */
static inline gboolean
write_event (WnOutput      *self,
             const WnEvent *event)
{
  if (G_UNLIKELY (self->error != NULL || self->done))
    {
      g_return_val_if_fail (!self->done, FALSE);
      return FALSE;
    }
  _wn_event_append_json_line (event, self->buffer, &self->json);
  if (G_LIKELY (self->buffer->len < OUTPUT_BUFFER && !self->by_line))
    return TRUE;
  return wn_output_flush (self);
}

gboolean
wn_output_write_event (WnOutput      *self,
                       const WnEvent *event)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return write_event (self, event);
}

void
wn_output_journal_func (const WnEvent *event,
                        gpointer       output)
{
  write_event (output, event);
}

gboolean
wn_output_has_failed (const WnOutput *self)
{
  g_return_val_if_fail (self != NULL, TRUE);

  return self->error != NULL;
}

gboolean
wn_output_commit (WnOutput  *self,
                  GError   **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (!self->done, FALSE);

  if (wn_output_flush (self) && self->temporary != NULL && fsync (self->fd) != 0)
    fail (self, errno, "cannot write");
  if (self->error == NULL && close (self->fd) != 0)
    fail (self, errno, "cannot write");
  else if (self->error != NULL)
    close (self->fd);
  self->fd = -1;
  if (self->error == NULL && self->temporary != NULL && g_rename (self->temporary, self->target) != 0)
    fail (self, errno, "cannot replace");
  if (self->error != NULL)
    {
      discard (self);
      self->done = TRUE;
      g_propagate_error (error, g_steal_pointer (&self->error));
      return FALSE;
    }
  g_clear_pointer (&self->temporary, g_free);
  self->done = TRUE;
  return TRUE;
}

gboolean
wn_output_write_file (const char  *filename,
                      const char  *data,
                      gsize        length,
                      GError     **error)
{
  g_autoptr(WnOutput) output = wn_output_open (filename, error);

  if (output == NULL)
    return FALSE;
  wn_output_write (output, data, length);
  return wn_output_commit (output, error);
}
