#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The policy lab's benchmark: a sweep of 20 variants × 10⁵ instances
# (bench/data/sweep-20.sweep.json) with -j 1 and with -j 2, wall time, median
# of N runs each, and the speed-up. docs/performance.md ("Sweeps") explains it.
#
#   bench/sweep.sh [--runs N] [--build DIR]
#
# --runs N     runs per measure (default 3)
# --build DIR  a build tree with src/cli/winnow-run (default: bench/build,
#              configured as bench/run.sh does, release)
set -eu

cd "$(dirname "$0")/.."
build=bench/build
runs=3

while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "bench/sweep.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" --buildtype=release -Db_ndebug=true -Dgui=false >/dev/null
fi
ninja -C "$build" -j2 src/cli/winnow-run >/dev/null

exec python3 - "$build/src/cli/winnow-run" bench/data/sweep-20.sweep.json "$runs" <<'PY'
import json, os, resource, statistics, subprocess, sys, time

runner, sweep, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])

def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime

def once(jobs):
    start, cpu0 = time.monotonic(), cpu()
    p = subprocess.run([runner, "--sweep", sweep, "-j", str(jobs)], capture_output=True, text=True)
    wall = time.monotonic() - start
    cpu_times[jobs].append(cpu() - cpu0)
    if p.returncode not in (0, 1):
        sys.exit(f"bench/sweep.sh: winnow-run exited {p.returncode}: {p.stderr}")
    rows = [json.loads(l) for l in p.stdout.splitlines()]
    if len(rows) != 20 or any(r["instances"] != 100000 for r in rows):
        sys.exit("bench/sweep.sh: the sweep did not run 20 variants × 10⁵ instances")
    return wall, p.stdout

times = {1: [], 2: []}
cpu_times = {1: [], 2: []}
load_before = os.getloadavg()[0]
outputs = set()
for _ in range(runs):
    for jobs in (1, 2):
        wall, out = once(jobs)
        times[jobs].append(wall)
        outputs.add(out)
if len(outputs) != 1:
    sys.exit("bench/sweep.sh: -j 1 and -j 2 gave different rows")
one, two = statistics.median(times[1]), statistics.median(times[2])
ratios = [a / b for a, b in zip(times[1], times[2])]
print(f"Winnow sweep benchmark — {os.cpu_count()} CPUs online; median of {runs} runs (min – max);"
      f" load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after\n")
print(f"{'measure':<58}{'median':>10}  {'min – max':<20}{'target':<10}")
print("-" * 100)
print("sweep: 20 variants × 10⁵ instances (2·10⁶ orders), wall time")
print(f"  {'-j 1':<56}{one:>9.2f}s  {min(times[1]):.2f} – {max(times[1]):.2f}")
print(f"  {'-j 2':<56}{two:>9.2f}s  {min(times[2]):.2f} – {max(times[2]):.2f}")
print(f"  {'orders per wall second, -j 2':<56}{2e6 / two:>10,.0f}".replace(",", " "))
ok = "ok" if one / two >= 1.8 else "MISSED"
print(f"  {'speed-up -j 2 over -j 1':<56}{one / two:>9.2f}×  {min(ratios):.2f} – {max(ratios):.2f}{'':8}≥ 1.8     {ok}")
# CPU time (user + system): what the work costs, whoever else runs on the machine
c1, c2 = statistics.median(cpu_times[1]), statistics.median(cpu_times[2])
print(f"  {'CPU time, -j 1':<56}{c1:>9.2f}s  {min(cpu_times[1]):.2f} – {max(cpu_times[1]):.2f}")
print(f"  {'CPU time, -j 2 (both threads)':<56}{c2:>9.2f}s  {min(cpu_times[2]):.2f} – {max(cpu_times[2]):.2f}")
print(f"  {'speed-up with two idle cores (2 × CPU -j 1 / CPU -j 2)':<56}{2 * c1 / c2:>9.2f}×")
PY
