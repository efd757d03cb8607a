/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wn-frame-probe — measures the Winnow app's frames with its own frame clock.
 *
 * Loaded into the app with LD_PRELOAD by wn-bench (bench/run.sh), so the app
 * needs no benchmark code of its own. Once the app's window has drawn its first
 * frame, the probe sets the clock to fast-forward and plays (the window's
 * win.set-speed and win.play-pause actions), records every frame for a few
 * seconds, prints one line and quits the app:
 *
 *   wn-frame-probe: first_frame_us=… frames=… work_p50_us=… work_p95_us=… interval_p50_us=… interval_p95_us=…
 *                   work_cpu_p50_us=… work_cpu_p95_us=…
 *
 * first_frame_us counts from WN_PROBE_SPAWN_US (the monotonic time at which the
 * bench spawned the app), or from the probe's load when it is not set.
 * WN_PROBE_SECONDS sets how long frames are recorded (default 5; 0 quits at the
 * first frame). WN_PROBE_TAB names a tab to show before playing (the
 * window's win.show-tab, e.g. "timeline"). A frame's
 * work is its frame clock cycle, from before-paint to after-paint (the app's
 * tick callbacks, layout and paint); the interval is the time between two
 * frames' after-paint, which the engine's own batches lengthen when they hog
 * the main loop. The work_cpu figures are the same frames' CPU time on the
 * GTK thread (CLOCK_THREAD_CPUTIME_ID): what the frame itself costs, which
 * other threads and processes on the cores lengthen far less than its wall
 * time.
 *
 * WN_PROBE_COMPARE=ORDERS keeps a comparison running off the GTK thread
 * while the frames are recorded (issue 21: the app stays responsive while
 * one runs): the Compare tab's Orders (its first spin button) is set to
 * ORDERS and its compare.run, with its own variants, is activated as the run
 * starts and again whenever the last one has ended; the line then ends with
 * compares=… (how many were started).
 *
 * WN_PROBE_TRAVEL=K measures time travel instead (issue 22): the run is
 * played at fast-forward to its end (the session's "alert" signal says
 * finished), then Step Back (win.step-back) is activated K times, and
 * win.go-to-event once for each seq of WN_PROBE_SCRUB ("900,500,…": a scrub),
 * each in turn once the window has drawn the last one and settled. Each
 * latency counts from just before the action to the after-paint of the first
 * frame after it: what the user waits between the key and the picture. The
 * first move comes WN_PROBE_TRAVEL_WAIT_MS (default 1000) after the run's
 * end, which the probe says on stderr (for a profiler to attach then).
 *
 *   wn-frame-probe: travel back_us=…;…;… scrub_us=…;… back_cpu_us=… scrub_cpu_us=…
 *
 * (the *_cpu_us: the process's CPU time over the same span, which a loaded
 * machine lengthens far less than the wall time).
 *
 * WN_PROBE_LOAD=FILE measures opening a file instead (issue 17.14): once the
 * window is up, a tick callback keeps its frame clock running and the probe
 * opens FILE as the Recent menu does (win.open-recent), then records every
 * frame until WN_PROBE_SECONDS (default 5) after the session's run-changed
 * signal says the file is open:
 *
 *   wn-frame-probe: load load_us=… frames=… max_gap_us=… gaps_over_100ms=…
 *
 * load_us: from the open to run-changed; max_gap_us: the longest time between
 * two frames from the open to the end (the longest the GTK thread was busy,
 * the first frames of the new diagram included); frames: how many frames
 * came while the file loaded.
 *
 * With WN_PROBE_RELOAD=1 as well, the same figures are of a Reload
 * (win.reload) of FILE 3 s after it opened: from the reload to the next
 * run-changed, the old run's teardown included.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/resource.h>
#include <gtk/gtk.h>

typedef struct {
  gint64      origin;          /* µs, monotonic */
  gint64      first_frame;     /* µs after origin, -1 until seen */
  gint64      measure_from;    /* monotonic µs: frames after this count */
  gint64      measure_until;
  gint64      duration;        /* µs of frames to record */
  gint64      frame_start;     /* before-paint of the frame in progress */
  gint64      frame_cpu_start; /* the GTK thread's CPU time then (µs) */
  gint64      last_after;      /* after-paint of the previous frame */
  gint64      layout_done;     /* WN_PROBE_DUMP: end of the frame's layout phase */
  gint64      paint_done;      /* WN_PROBE_DUMP: end of the frame's paint phase */
  long        frame_faults;    /* WN_PROBE_DUMP: minor page faults before the frame */
  GArray     *work;            /* gint64 µs */
  GArray     *work_cpu;        /* gint64 µs of the GTK thread's CPU time */
  GArray     *intervals;       /* gint64 µs */
  GtkWidget  *window;
  GdkFrameClock *clock;
  gboolean    started;
  gboolean    done;
  gboolean    dump;            /* WN_PROBE_DUMP: every measured frame to stderr */
  /* WN_PROBE_TRAVEL */
  guint       travel_backs;    /* step backs to measure; 0: not this mode */
  GArray     *travel_scrub;    /* guint64: the seqs to go to */
  guint       travel_done;     /* moves measured so far */
  gboolean    travel_armed;    /* the run reached its end */
  gint64      travel_t0;       /* > 0: a move waits for its frame */
  gint64      travel_cpu0;     /* the process's CPU time then (µs) */
  guint       travel_wait_ms;  /* WN_PROBE_TRAVEL_WAIT_MS: from the run's end to the first move */
  GArray     *back_us;         /* gint64 */
  GArray     *scrub_us;        /* gint64 */
  GArray     *back_cpu_us;     /* gint64: the CPU time the app spent on it (the machine's load aside) */
  GArray     *scrub_cpu_us;    /* gint64 */
  /* WN_PROBE_COMPARE */
  guint       compare;         /* WN_PROBE_COMPARE: the orders of a variant's seed; 0: none */
  GtkWidget  *compare_page;    /* the app's WinnowComparePage */
  guint       compares;        /* comparisons started */
  /* WN_PROBE_LOAD */
  const char *load_file;       /* NULL: not this mode */
  gint64      load_t0;         /* > 0: the open was asked for then */
  gint64      load_done;       /* > 0: run-changed came then */
  gint64      load_gap;        /* the longest time between two frames since load_t0 */
  guint       load_frames;     /* frames before load_done */
  guint       load_long;       /* gaps over 100 ms */
  gboolean    reload;          /* WN_PROBE_RELOAD: measure a reload after the open */
} Probe;

static Probe probe;

static int
compare_gint64 (gconstpointer a,
                gconstpointer b)
{
  gint64 x = *(const gint64 *) a;
  gint64 y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

/* Nearest rank. */
static gint64
percentile (GArray *values,
            double  p)
{
  guint rank;

  if (values->len == 0)
    return -1;
  g_array_sort (values, compare_gint64);
  rank = (guint) (p / 100.0 * values->len + 0.999999);
  rank = CLAMP (rank, 1, values->len);
  return g_array_index (values, gint64, rank - 1);
}

/* " back_us=12;15;11": each move's latency, in the order measured */
static void
print_series (const char *name,
              GArray     *values)
{
  printf (" %s_us=", name);
  for (guint i = 0; i < values->len; i++)
    printf ("%s%" G_GINT64_FORMAT, i ? ";" : "", g_array_index (values, gint64, i));
}

static gboolean
travelling (void)
{
  return probe.travel_backs > 0 || probe.travel_scrub->len > 0;
}

/* The report line (frames, or the travel's moves), then the app quits. */
static void
finish (void)
{
  GApplication *app = g_application_get_default ();

  if (probe.done)
    return;
  probe.done = TRUE;
  if (travelling ())
    {
      printf ("wn-frame-probe: travel");
      print_series ("back", probe.back_us);
      print_series ("scrub", probe.scrub_us);
      print_series ("back_cpu", probe.back_cpu_us);
      print_series ("scrub_cpu", probe.scrub_cpu_us);
      printf ("\n");
    }
  else if (probe.load_file != NULL)
    printf ("wn-frame-probe: load load_us=%" G_GINT64_FORMAT " frames=%u max_gap_us=%" G_GINT64_FORMAT
            " gaps_over_100ms=%u\n",
            probe.load_done > 0 ? probe.load_done - probe.load_t0 : -1, probe.load_frames, probe.load_gap,
            probe.load_long);
  else
    {
      printf ("wn-frame-probe: first_frame_us=%" G_GINT64_FORMAT " frames=%u"
              " work_p50_us=%" G_GINT64_FORMAT " work_p95_us=%" G_GINT64_FORMAT
              " interval_p50_us=%" G_GINT64_FORMAT " interval_p95_us=%" G_GINT64_FORMAT
              " work_cpu_p50_us=%" G_GINT64_FORMAT " work_cpu_p95_us=%" G_GINT64_FORMAT,
              probe.first_frame, probe.work->len,
              percentile (probe.work, 50), percentile (probe.work, 95),
              percentile (probe.intervals, 50), percentile (probe.intervals, 95),
              percentile (probe.work_cpu, 50), percentile (probe.work_cpu, 95));
      if (probe.compare)
        printf (" compares=%u", probe.compares);
      printf ("\n");
    }
  fflush (stdout);
  if (app != NULL)
    g_application_quit (app);
  else
    exit (0);
}

/* CPU time in µs, of the process or of the calling thread. */
static gint64
cpu_us (clockid_t clock)
{
  struct timespec ts;

  clock_gettime (clock, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

static gint64
cpu_now_us (void)
{
  return cpu_us (CLOCK_PROCESS_CPUTIME_ID);
}

/* The next move, or the report when all are measured. */
static gboolean
travel_next_cb (gpointer data)
{
  GActionGroup *actions = G_ACTION_GROUP (probe.window);
  guint i = probe.travel_done;

  if (i >= probe.travel_backs + probe.travel_scrub->len)
    {
      finish ();
      return G_SOURCE_REMOVE;
    }
  probe.travel_t0 = g_get_monotonic_time ();
  probe.travel_cpu0 = cpu_now_us ();
  if (i < probe.travel_backs)
    g_action_group_activate_action (actions, "step-back", NULL);
  else
    g_action_group_activate_action (actions, "go-to-event",
                                    g_variant_new_uint64 (g_array_index (probe.travel_scrub, guint64,
                                                                         i - probe.travel_backs)));
  /* the move changed what the window shows: a frame follows */
  gtk_widget_queue_draw (probe.window);
  return G_SOURCE_REMOVE;
}

static void
travel_alert_cb (GObject  *session,
                 int       alert,
                 guint     count,
                 gpointer  row,
                 gpointer  data)
{
  /* WINNOW_ALERT_FINISHED: the run has nothing left to do */
  if (alert != 3 || probe.travel_armed)
    return;
  probe.travel_armed = TRUE;
  /* on stderr, for a profiler to attach to the moves only */
  fprintf (stderr, "wn-frame-probe: travel: the run is at its end, moves in %u ms\n", probe.travel_wait_ms);
  g_timeout_add (probe.travel_wait_ms, travel_next_cb, NULL);
}

/* A frame came after a move: what it took, then the next move once the
 * window has had time to settle. */
static void
travel_frame (gint64 now)
{
  gint64 latency;

  if (probe.travel_t0 <= 0)
    return;
  latency = now - probe.travel_t0;
  probe.travel_t0 = 0;
  g_array_append_val (probe.travel_done < probe.travel_backs ? probe.back_us : probe.scrub_us, latency);
  latency = cpu_now_us () - probe.travel_cpu0;
  g_array_append_val (probe.travel_done < probe.travel_backs ? probe.back_cpu_us : probe.scrub_cpu_us, latency);
  probe.travel_done++;
  g_timeout_add (400, travel_next_cb, NULL);
}

static gboolean
travel_start_cb (gpointer data)
{
  GActionGroup *actions = G_ACTION_GROUP (probe.window);
  GObject *session = NULL;

  if (g_object_class_find_property (G_OBJECT_GET_CLASS (probe.window), "session") != NULL)
    g_object_get (probe.window, "session", &session, NULL);
  if (session == NULL || g_signal_lookup ("alert", G_OBJECT_TYPE (session)) == 0 ||
      !g_action_group_has_action (actions, "step-back"))
    {
      printf ("wn-frame-probe: error=the window has no session with an alert signal, or no step-back action\n");
      probe.first_frame = -1;
      finish ();
      return G_SOURCE_REMOVE;
    }
  g_signal_connect (session, "alert", G_CALLBACK (travel_alert_cb), NULL);
  g_object_unref (session);   /* the window keeps it */
  g_action_group_activate_action (actions, "set-speed", g_variant_new_string ("ff"));
  g_action_group_activate_action (actions, "play-pause", NULL);
  return G_SOURCE_REMOVE;
}

/* The first widget under `widget` (itself included) that `is` says is the one. */
static GtkWidget *
find_widget (GtkWidget *widget,
             gboolean (*is) (GtkWidget *widget, gconstpointer what),
             gconstpointer what)
{
  if (is (widget, what))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, is, what);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
is_compare_page (GtkWidget     *widget,
                 gconstpointer  what)
{
  return g_str_equal (G_OBJECT_TYPE_NAME (widget), "WinnowComparePage");
}

static gboolean
is_spin_button (GtkWidget     *widget,
                gconstpointer  what)
{
  return GTK_IS_SPIN_BUTTON (widget);
}

/* A button bound to the action named `what`. */
static gboolean
is_action_button (GtkWidget     *widget,
                  gconstpointer  what)
{
  return GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), what) == 0;
}

/* Start a comparison whenever none runs: the Run button is sensitive (its
 * action enabled) then. */
static gboolean
compare_cb (gpointer data)
{
  GtkWidget *run = find_widget (probe.compare_page, is_action_button, "compare.run");

  if (probe.done)
    return G_SOURCE_REMOVE;
  if (run != NULL && gtk_widget_get_sensitive (run) &&
      gtk_widget_activate_action (probe.compare_page, "compare.run", NULL))
    probe.compares++;
  return G_SOURCE_CONTINUE;
}

/* ---- WN_PROBE_LOAD ---- */

static gboolean
keep_ticking_cb (GtkWidget     *widget,
                 GdkFrameClock *clock,
                 gpointer       data)
{
  return G_SOURCE_CONTINUE;
}

static gboolean
load_end_cb (gpointer data)
{
  finish ();
  return G_SOURCE_REMOVE;
}

/* WN_PROBE_RELOAD: the measure starts again, at the reload. */
static gboolean
reload_start_cb (gpointer data)
{
  probe.load_t0 = g_get_monotonic_time ();
  probe.last_after = probe.load_t0;
  probe.load_done = 0;
  probe.load_gap = 0;
  probe.load_frames = 0;
  probe.load_long = 0;
  g_action_group_activate_action (G_ACTION_GROUP (probe.window), "reload", NULL);
  return G_SOURCE_REMOVE;
}

static void
load_run_changed_cb (GObject  *session,
                     gpointer  data)
{
  if (probe.load_done > 0 || probe.load_t0 <= 0)
    return;
  if (probe.reload)
    {
      probe.reload = FALSE;
      g_timeout_add (3000, reload_start_cb, NULL);
      return;
    }
  probe.load_done = g_get_monotonic_time ();
  g_timeout_add (MAX (probe.duration / 1000, 1), load_end_cb, NULL);
}

static gboolean
load_start_cb (gpointer data)
{
  GActionGroup *actions = G_ACTION_GROUP (probe.window);
  GObject *session = NULL;
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (probe.load_file);
  g_autofree char *uri = g_file_get_uri (file);

  if (g_object_class_find_property (G_OBJECT_GET_CLASS (probe.window), "session") != NULL)
    g_object_get (probe.window, "session", &session, NULL);
  if (session == NULL || g_signal_lookup ("run-changed", G_OBJECT_TYPE (session)) == 0 ||
      !g_action_group_has_action (actions, "open-recent"))
    {
      printf ("wn-frame-probe: error=the window has no session with a run-changed signal, or no open-recent action\n");
      probe.first_frame = -1;
      finish ();
      return G_SOURCE_REMOVE;
    }
  g_signal_connect (session, "run-changed", G_CALLBACK (load_run_changed_cb), NULL);
  g_object_unref (session);   /* the window keeps it */
  gtk_widget_add_tick_callback (probe.window, keep_ticking_cb, NULL, NULL);
  probe.load_t0 = g_get_monotonic_time ();
  probe.last_after = probe.load_t0;
  g_action_group_activate_action (actions, "open-recent", g_variant_new_string (uri));
  return G_SOURCE_REMOVE;
}

static void
load_frame (gint64 now)
{
  gint64 gap;

  if (probe.load_t0 <= 0)
    return;
  gap = now - probe.last_after;
  probe.load_gap = MAX (probe.load_gap, gap);
  if (gap > 100 * 1000)
    {
      probe.load_long++;
      /* on stderr, to tell where the load stalls */
      fprintf (stderr, "wn-frame-probe: load: %.0f ms without a frame, until %.3f s after the open%s\n",
               gap / 1e3, (now - probe.load_t0) / 1e6,
               probe.load_done == 0 ? "" : probe.load_done < probe.last_after ? " (after the run came)"
                                                                             : " (the run came in it)");
    }
  if (probe.load_done == 0)
    probe.load_frames++;
}

static gboolean
start_run_cb (gpointer data)
{
  GActionGroup *actions = G_ACTION_GROUP (probe.window);

  if (!g_action_group_has_action (actions, "set-speed") || !g_action_group_has_action (actions, "play-pause"))
    {
      printf ("wn-frame-probe: error=the window has no set-speed or play-pause action\n");
      probe.first_frame = -1;
      finish ();
      return G_SOURCE_REMOVE;
    }
  if (probe.compare)
    {
      GtkWidget *orders;

      probe.compare_page = find_widget (probe.window, is_compare_page, NULL);
      orders = probe.compare_page != NULL ? find_widget (probe.compare_page, is_spin_button, NULL) : NULL;
      if (orders == NULL)
        {
          printf ("wn-frame-probe: error=the window has no Compare tab (WinnowComparePage) with its Orders\n");
          probe.first_frame = -1;
          finish ();
          return G_SOURCE_REMOVE;
        }
      gtk_spin_button_set_value (GTK_SPIN_BUTTON (orders), probe.compare);
      g_timeout_add (50, compare_cb, NULL);
    }
  if (g_getenv ("WN_PROBE_TAB") != NULL && g_action_group_has_action (actions, "show-tab"))
    g_action_group_activate_action (actions, "show-tab", g_variant_new_string (g_getenv ("WN_PROBE_TAB")));
  g_action_group_activate_action (actions, "set-speed", g_variant_new_string ("ff"));
  g_action_group_activate_action (actions, "play-pause", NULL);
  probe.measure_from = g_get_monotonic_time () + 200 * 1000;
  probe.measure_until = probe.measure_from + probe.duration;
  return G_SOURCE_REMOVE;
}

static long
minor_faults (void)
{
  struct rusage usage;

  return getrusage (RUSAGE_SELF, &usage) == 0 ? usage.ru_minflt : 0;
}

static void
before_paint_cb (GdkFrameClock *clock,
                 gpointer       data)
{
  probe.frame_start = g_get_monotonic_time ();
  probe.frame_cpu_start = cpu_us (CLOCK_THREAD_CPUTIME_ID);
  if (probe.dump)
    probe.frame_faults = minor_faults ();
}

/* Connected after the window's own handlers: these mark where its layout and
 * paint phases end, to split a long frame in the dump. */
static void
layout_cb (GdkFrameClock *clock,
           gpointer       data)
{
  probe.layout_done = g_get_monotonic_time ();
}

static void
paint_cb (GdkFrameClock *clock,
          gpointer       data)
{
  probe.paint_done = g_get_monotonic_time ();
}

static void
after_paint_cb (GdkFrameClock *clock,
                gpointer       data)
{
  gint64 now = g_get_monotonic_time ();

  if (probe.first_frame < 0)
    {
      probe.first_frame = now - probe.origin;
      if (probe.duration == 0)
        {
          finish ();
          return;
        }
      /* let the window settle, then run */
      g_timeout_add (300, probe.load_file != NULL ? load_start_cb
                          : travelling () ? travel_start_cb : start_run_cb, NULL);
    }
  travel_frame (now);
  load_frame (now);
  if (probe.measure_from > 0 && now >= probe.measure_from && probe.frame_start > 0)
    {
      gint64 work = now - probe.frame_start;
      gint64 work_cpu = cpu_us (CLOCK_THREAD_CPUTIME_ID) - probe.frame_cpu_start;

      if (probe.dump)
        fprintf (stderr, "wn-frame-probe: frame at %.3f s: work %.1f ms (update+layout %.1f, paint %.1f),"
                 " since the last %.1f ms, %ld page faults\n",
                 (now - probe.origin) / 1e6, work / 1e3,
                 probe.layout_done > probe.frame_start ? (probe.layout_done - probe.frame_start) / 1e3 : 0.0,
                 probe.paint_done > probe.layout_done ? (probe.paint_done - MAX (probe.layout_done, probe.frame_start)) / 1e3 : 0.0,
                 probe.last_after > 0 ? (now - probe.last_after) / 1e3 : 0.0,
                 minor_faults () - probe.frame_faults);
      g_array_append_val (probe.work, work);
      g_array_append_val (probe.work_cpu, work_cpu);
      if (probe.last_after > 0)
        {
          gint64 interval = now - probe.last_after;
          g_array_append_val (probe.intervals, interval);
        }
    }
  probe.last_after = now;
  if (probe.measure_until > 0 && now >= probe.measure_until)
    finish ();
}

/* Poll until GTK is up and the app's window is realized; then follow its clock. */
static gboolean
watch_cb (gpointer data)
{
  GListModel *toplevels;

  if (probe.done)
    return G_SOURCE_REMOVE;
  if (probe.measure_until > 0 && g_get_monotonic_time () > probe.measure_until + G_USEC_PER_SEC)
    {
      finish ();   /* no frame came: the run is over or the window is idle */
      return G_SOURCE_REMOVE;
    }
  if (probe.clock != NULL || !gtk_is_initialized ())
    return G_SOURCE_CONTINUE;

  toplevels = gtk_window_get_toplevels ();
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) window = g_list_model_get_item (toplevels, i);
      GdkFrameClock *clock;

      if (!GTK_IS_APPLICATION_WINDOW (window) || !gtk_widget_get_realized (window))
        continue;
      clock = gtk_widget_get_frame_clock (window);
      if (clock == NULL)
        continue;
      probe.window = window;
      probe.clock = clock;
      g_signal_connect (clock, "before-paint", G_CALLBACK (before_paint_cb), NULL);
      g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), NULL);
      if (probe.dump)
        {
          g_signal_connect (clock, "layout", G_CALLBACK (layout_cb), NULL);
          g_signal_connect (clock, "paint", G_CALLBACK (paint_cb), NULL);
        }
      break;
    }
  return G_SOURCE_CONTINUE;
}

static gboolean
give_up_cb (gpointer data)
{
  if (!probe.done)
    {
      printf ("wn-frame-probe: error=no frame within the time limit\n");
      finish ();
    }
  return G_SOURCE_REMOVE;
}

__attribute__ ((constructor))
static void
probe_init (void)
{
  const char *spawn = g_getenv ("WN_PROBE_SPAWN_US");
  const char *seconds = g_getenv ("WN_PROBE_SECONDS");
  const char *travel = g_getenv ("WN_PROBE_TRAVEL");
  const char *scrub = g_getenv ("WN_PROBE_SCRUB");

  probe.dump = g_getenv ("WN_PROBE_DUMP") != NULL;
  probe.compare = g_getenv ("WN_PROBE_COMPARE") != NULL
                  ? (guint) g_ascii_strtoull (g_getenv ("WN_PROBE_COMPARE"), NULL, 10) : 0;
  probe.load_file = g_getenv ("WN_PROBE_LOAD");
  probe.reload = g_strcmp0 (g_getenv ("WN_PROBE_RELOAD"), "1") == 0;
  probe.origin = spawn != NULL ? g_ascii_strtoll (spawn, NULL, 10) : g_get_monotonic_time ();
  probe.first_frame = -1;
  probe.duration = (gint64) ((seconds != NULL ? g_ascii_strtod (seconds, NULL) : 5.0) * G_USEC_PER_SEC);
  probe.work = g_array_new (FALSE, FALSE, sizeof (gint64));
  probe.work_cpu = g_array_new (FALSE, FALSE, sizeof (gint64));
  probe.intervals = g_array_new (FALSE, FALSE, sizeof (gint64));
  probe.travel_backs = travel != NULL ? (guint) g_ascii_strtoull (travel, NULL, 10) : 0;
  probe.travel_scrub = g_array_new (FALSE, FALSE, sizeof (guint64));
  probe.travel_wait_ms = g_getenv ("WN_PROBE_TRAVEL_WAIT_MS") != NULL
                         ? (guint) g_ascii_strtoull (g_getenv ("WN_PROBE_TRAVEL_WAIT_MS"), NULL, 10) : 1000;
  if (scrub != NULL)
    {
      g_auto(GStrv) seqs = g_strsplit (scrub, ",", -1);

      for (guint i = 0; seqs[i] != NULL; i++)
        {
          guint64 seq = g_ascii_strtoull (seqs[i], NULL, 10);

          if (seq > 0)
            g_array_append_val (probe.travel_scrub, seq);
        }
    }
  probe.back_us = g_array_new (FALSE, FALSE, sizeof (gint64));
  probe.scrub_us = g_array_new (FALSE, FALSE, sizeof (gint64));
  probe.back_cpu_us = g_array_new (FALSE, FALSE, sizeof (gint64));
  probe.scrub_cpu_us = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_timeout_add (2, watch_cb, NULL);
  /* a travel bench plays a long run to its end first */
  g_timeout_add_seconds (travelling () || probe.load_file != NULL ? 900 : 60, give_up_cb, NULL);
}
