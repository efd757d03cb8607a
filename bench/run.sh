#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Winnow's benchmarks, in one command: builds a release tree in bench/build,
# installs the peer (bpmn-engine, pinned in bench/peer/package-lock.json) and the
# JS external-task client (pinned in tests/interop/package-lock.json), runs
# wn-bench under Xvfb and prints the table (every section, the REST server's
# and the sweep's included). docs/performance.md explains it.
#
#   bench/run.sh [--runs N] [--quick] [--no-gui] [--no-peer] [--no-curves]
#
# --runs N      runs per measure (default 5; the table shows the median)
# --quick       smaller sizes, two runs: a smoke test, not a measurement
# --no-gui      skip the app (and its build)
# --no-peer     skip the bpmn-engine comparison and the JS client's REST row (and npm)
# --no-curves   skip the growth curves (bench/build/curves.csv and curves.svg)
set -eu

cd "$(dirname "$0")/.."
root=$(pwd)
build=bench/build
runs=5
quick=
gui=yes
peer=yes
curves=yes

while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --quick) quick=--quick; runs=2; shift ;;
    --no-gui) gui=; shift ;;
    --no-peer) peer=; shift ;;
    --no-curves) curves=; shift ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "bench/run.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

note () { echo "bench/run.sh: $*" >&2; }

# ---- build (release, its own tree) ----
if [ -n "$gui" ] && ! pkg-config --exists 'gtk4 >= 4.8' 'libadwaita-1 >= 1.2'; then
  note "GTK 4 or libadwaita not found: the GUI measures are skipped"
  gui=
fi
gui_option=false
[ -n "$gui" ] && gui_option=true
if [ -f "$build/build.ninja" ]; then
  meson configure "$build" --buildtype=release -Db_ndebug=true -Dgui=$gui_option >/dev/null
else
  meson setup "$build" --buildtype=release -Db_ndebug=true -Dgui=$gui_option >/dev/null
fi
ninja -C "$build" -j2 bench/wn-bench src/cli/winnow-run >/dev/null

app_args=
if [ -n "$gui" ]; then
  # the app is young and changes every day: if it does not build, say so and go on
  if ninja -C "$build" -j2 src/app/winnow bench/wn-frame-probe.so data/gschemas.compiled >"$build/app-build.log" 2>&1; then
    app_args="--app $build/src/app/winnow --probe $build/bench/wn-frame-probe.so --schemas $build/data"
  else
    note "the app does not build (see $build/app-build.log): the GUI rows say n/a"
  fi
fi

# ---- the peer ----
peer_args=
if [ -n "$peer" ]; then
  if command -v node >/dev/null && command -v npm >/dev/null; then
    if (cd bench/peer && npm ci --no-audit --no-fund --loglevel=error >/dev/null); then
      peer_args="--peer bench/peer"
    else
      note "npm ci failed in bench/peer: the peer rows say n/a"
    fi
  else
    note "node or npm not found: the peer rows say n/a"
  fi
fi

# ---- the JS external-task client, for the REST section's JS row ----
# camunda-external-task-client-js as tests/interop pins it, installed with the
# row's script into the build tree (not the source tree)
interop_args=
if [ -n "$peer" ]; then
  if command -v node >/dev/null && command -v npm >/dev/null; then
    mkdir -p "$build/interop"
    cp tests/interop/package.json tests/interop/package-lock.json bench/rest-js.mjs "$build/interop/"
    if (cd "$build/interop" && npm ci --no-audit --no-fund --loglevel=error >/dev/null); then
      interop_args="--interop $build/interop"
    else
      note "npm ci failed in $build/interop: the JS client's REST row says n/a"
    fi
  else
    note "node or npm not found: the JS client's REST row says n/a"
  fi
fi

# ---- run ----
curve_args=
[ -n "$curves" ] && curve_args="--csv $build/curves.csv"
set -- "$build/bench/wn-bench" --runs "$runs" $quick --winnow-run "$build/src/cli/winnow-run" \
  $peer_args $interop_args $app_args $curve_args
if [ -n "$app_args" ] && command -v xvfb-run >/dev/null; then
  xvfb-run -a -s "-screen 0 1280x800x24 -nolisten tcp" "$@"
else
  [ -n "$app_args" ] && note "xvfb-run not found (Debian: xvfb): the GUI rows need a display"
  "$@"
fi

if [ -n "$curves" ] && command -v python3 >/dev/null; then
  python3 bench/plot.py "$build/curves.csv" "$build/curves.svg"
  note "growth curves: $root/$build/curves.svg (docs/performance-curves.svg is a copy)"
fi
