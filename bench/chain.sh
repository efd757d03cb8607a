#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Long chains: how validating and running a chain of N worker tasks grows
# with N (docs/performance.md, "Long chains"). bench/chain.py writes each
# chain; every job takes every variable and every task writes one, so an
# engine that copies the variables per job is quadratic here.
#
#   bench/chain.sh [--runs N] [--sizes "10000 100000 300000 1000000"] [WINNOW_RUN]
#
# Prints, per size, the median (min – max) of N runs of `winnow-run
# --validate` and of the whole run (`-q`), in CPU seconds (user + system,
# from /usr/bin/time) and per node, with the peak RSS. WINNOW_RUN defaults to
# bench/build/src/cli/winnow-run (bench/run.sh builds it).
set -eu

cd "$(dirname "$0")/.."
runs=3
sizes="10000 100000 300000 1000000"
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    -*) echo "bench/chain.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) break ;;
  esac
done
run=${1:-bench/build/src/cli/winnow-run}
[ -x "$run" ] || { echo "bench/chain.sh: $run not found (run bench/run.sh first, or give the runner)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench/chain.sh: /usr/bin/time not found (Debian: time)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# one measure: prints "CPU_SECONDS PEAK_KIB"
measure () {
  /usr/bin/time -f "%U %S %M" -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" ||
    { echo "bench/chain.sh: failed: $*" >&2; cat "$tmp/err" >&2; exit 1; }
  awk '{ printf "%.3f %d\n", $1 + $2, $3 }' "$tmp/time"
}

# median (min – max) of the first column of stdin, and the largest second
summary () {
  sort -n | awk -v n="$1" '{ v[NR] = $1; if ($2 > m) m = $2 }
    END { med = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
          printf "%8.2f s  %6.2f – %-6.2f %7.2f µs/node  %6d MiB", med, v[1], v[NR], med / n * 1e6, m / 1024 }'
}

echo "Long chains — $(nproc) CPUs online, load average $(cut -d' ' -f1-3 /proc/loadavg); median of $runs runs (min – max), CPU time"
printf '\n%-9s  %-58s  %s\n' "nodes" "validate (--validate)" "run (-q: load, run, summary)"
for n in $sizes; do
  python3 bench/chain.py "$n" -o "$tmp/chain.json"
  : > "$tmp/v"; : > "$tmp/r"
  i=0
  while [ $i -lt "$runs" ]; do
    measure "$run" --max-input-size=2G --validate "$tmp/chain.json" >> "$tmp/v"
    measure "$run" --max-input-size=2G -q "$tmp/chain.json" >> "$tmp/r"
    i=$((i + 1))
  done
  printf '%-9s  %s    %s\n' "$n" "$(summary "$n" < "$tmp/v")" "$(summary "$n" < "$tmp/r")"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
