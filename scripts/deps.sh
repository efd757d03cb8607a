#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Install the Debian 12 packages Winnow needs to build, run and test, if missing.
set -eu

packages="gcc meson ninja-build pkg-config gettext python3
libglib2.0-dev libglib2.0-bin libjson-glib-dev libsoup-3.0-dev libxml2-dev libgtk-4-dev libadwaita-1-dev
desktop-file-utils appstream xvfb xauth parallel"

missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
# Node.js and npm (the interop tests' workers) count as present as commands:
# a machine may carry another build of Node.js whose package bundles npm and
# conflicts with Debian's npm package.
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
[ -z "$missing" ] && exit 0

echo "Installing:$missing"
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
$sudo apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
