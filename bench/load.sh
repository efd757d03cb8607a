#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Opening a big file in the app: how long the GTK thread stalls while a long
# chain (bench/chain.py) opens, as JSON and as BPMN (docs/performance.md,
# "Long chains", the app). Each run starts the app with the frame probe
# (bench/wn-frame-probe.c, WN_PROBE_LOAD), which keeps the window's frame
# clock ticking, opens the file as the Recent menu does and reports the
# longest time between two frames from the open until 3 s after the run came.
#
#   bench/load.sh [--runs N] [--sizes "50000 250000"] [--bpmn-sizes "50000"] [--app APP] [--reload] [BUILD]
#
# BUILD is a meson build directory with the app, the probe and the compiled
# schemas (default bench/build, which bench/run.sh makes); --app measures
# another build's app (an older one, for a before/after). Needs a display:
# run it under xvfb-run. Prints, per file, the median (min – max) over N runs
# of the load's wall time, the longest stall and the frames drawn during the
# load. --reload measures a Reload of each file instead, 3 s after it opened
# (the old run's teardown included).
set -eu

cd "$(dirname "$0")/.."
runs=3
sizes="50000 250000"
bpmn_sizes="50000"
app=""
reload=0
what=Opening
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    --bpmn-sizes) bpmn_sizes=$2; shift 2 ;;
    --app) app=$2; shift 2 ;;
    --reload) reload=1; what=Reloading; shift ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    -*) echo "bench/load.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) break ;;
  esac
done
build=${1:-bench/build}
app=${app:-$build/src/app/winnow}
probe=$build/bench/wn-frame-probe.so
for f in "$app" "$probe" "$build/data/gschemas.compiled"; do
  [ -e "$f" ] || { echo "bench/load.sh: $f not found (build the app, the probe and the schemas)" >&2; exit 2; }
done
[ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] || { echo "bench/load.sh: no display (run it under xvfb-run)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# one open: prints "LOAD_S MAX_GAP_MS FRAMES"
measure () {
  GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR="$build/data" GSK_RENDERER=cairo \
  LD_PRELOAD="$probe" WN_PROBE_LOAD="$1" WN_PROBE_RELOAD=$reload WN_PROBE_SECONDS=3 \
    "$app" > "$tmp/out" 2> "$tmp/err" ||
    { echo "bench/load.sh: the app failed on $1" >&2; tail -n 20 "$tmp/err" >&2; exit 1; }
  line=$(grep '^wn-frame-probe: load ' "$tmp/out") ||
    { echo "bench/load.sh: no report on $1:" >&2; cat "$tmp/out" >&2; exit 1; }
  echo "$line" | awk '{ for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
    if (v["load_us"] < 0) { print "the file did not open" > "/dev/stderr"; exit 1 }
    printf "%.3f %.1f %d\n", v["load_us"] / 1e6, v["max_gap_us"] / 1e3, v["frames"] }'
}

# median (min – max) of column $1 of stdin
summary () {
  cut -d' ' -f"$1" | sort -n | awk -v fmt="$2" '{ v[NR] = $1 }
    END { med = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
          printf fmt, med, v[1], v[NR] }'
}

row () {
  : > "$tmp/m"
  i=0
  while [ $i -lt "$runs" ]; do
    measure "$2" >> "$tmp/m"
    i=$((i + 1))
  done
  printf '%-20s %s   %s   %s\n' "$1" "$(summary 1 '%6.2f s %6.2f – %-6.2f' < "$tmp/m")" \
    "$(summary 2 '%8.0f ms %6.0f – %-6.0f' < "$tmp/m")" "$(summary 3 '%5d %5d – %-5d' < "$tmp/m")"
}

echo "$what a chain in $app — $(nproc) CPUs online, load average $(cut -d' ' -f1-3 /proc/loadavg); median of $runs runs (min – max)"
printf '\n%-20s %-26s   %-28s   %s\n' "file" "open (wall)" "longest GTK-thread stall" "frames while loading"
for n in $sizes; do
  python3 bench/chain.py "$n" -o "$tmp/chain-$n.process.json"
  row "$n nodes, JSON" "$tmp/chain-$n.process.json"
done
for n in $bpmn_sizes; do
  python3 bench/chain.py "$n" --bpmn -o "$tmp/chain-$n.bpmn"
  row "$n nodes, BPMN" "$tmp/chain-$n.bpmn"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
