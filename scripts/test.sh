#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Quick start: install what is missing, build, and run the whole test suite
# (GUI tests under a virtual display when there is no real one).
set -eu
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh "$@"
if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && command -v xvfb-run >/dev/null; then
  exec xvfb-run -a -s "-screen 0 1600x1000x24" meson test -C build --print-errorlogs
fi
exec meson test -C build --print-errorlogs
