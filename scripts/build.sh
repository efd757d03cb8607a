#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Configure (once) and build into ./build. Extra arguments go to `meson setup`.
set -eu
cd "$(dirname "$0")/.."
if [ ! -f build/build.ninja ]; then
  meson setup build "$@"
elif [ $# -gt 0 ]; then
  meson configure build "$@"
fi
ninja -C build
