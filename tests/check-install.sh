#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Install the build into a temporary DESTDIR and check what a user gets.
#
# Usage: check-install.sh MESON BUILD_ROOT SOURCE_ROOT BINDIR DATADIR LOCALEDIR
#                         PKGDATADIR APP_ID VERSION GUI(true|false)
# The directories are the absolute ones of the configured prefix.
set -u

if [ $# -ne 10 ]; then
  echo "usage: $0 MESON BUILD_ROOT SOURCE_ROOT BINDIR DATADIR LOCALEDIR PKGDATADIR APP_ID VERSION GUI" >&2
  exit 2
fi
meson=$1 build_root=$2 source_root=$3 bindir=$4 datadir=$5 localedir=$6
pkgdatadir=$7 app_id=$8 version=$9 gui=${10}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/winnow-install.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
failures=0

fail () {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# One file that must exist.
expect () {
  if [ -f "$tmp$1" ]; then
    echo "ok: $1"
  else
    fail "$1 was not installed"
  fi
}

# The build is up to date: meson test built it before running us.
if ! "$meson" install -C "$build_root" --destdir "$tmp" --no-rebuild > "$tmp.log" 2>&1; then
  cat "$tmp.log"
  rm -f "$tmp.log"
  echo "FAIL: meson install"
  exit 1
fi
rm -f "$tmp.log"

expect "$bindir/winnow-run"
expect "$localedir/de/LC_MESSAGES/winnow.mo"

if [ "$gui" = true ]; then
  expect "$bindir/winnow"
  desktop=$datadir/applications/$app_id.desktop
  metainfo=$datadir/metainfo/$app_id.metainfo.xml
  expect "$desktop"
  expect "$metainfo"
  expect "$datadir/icons/hicolor/scalable/apps/$app_id.svg"
  expect "$datadir/icons/hicolor/symbolic/apps/$app_id-symbolic.svg"
  expect "$datadir/glib-2.0/schemas/$app_id.gschema.xml"

  # The files name the id they are installed under, and carry the translations.
  if [ -f "$tmp$desktop" ]; then
    grep -qx "Icon=$app_id" "$tmp$desktop" || fail "$desktop: Icon is not $app_id"
    grep -q '^Comment\[de\]=' "$tmp$desktop" || fail "$desktop: no German Comment (translations not merged)"
  fi
  if [ -f "$tmp$metainfo" ]; then
    grep -q "<id>$app_id</id>" "$tmp$metainfo" || fail "$metainfo: id is not $app_id"
    grep -q "<launchable type=\"desktop-id\">$app_id.desktop</launchable>" "$tmp$metainfo" \
      || fail "$metainfo: launchable is not $app_id.desktop"
    grep -q 'xml:lang="de"' "$tmp$metainfo" || fail "$metainfo: no German text (translations not merged)"
  fi
  schema=$tmp$datadir/glib-2.0/schemas/$app_id.gschema.xml
  if [ -f "$schema" ]; then
    grep -q "<schema id=\"$app_id\"" "$schema" || fail "$schema: schema id is not $app_id"
  fi
fi

# Every bundled example is installed.
n_examples=0
for example in "$source_root"/data/examples/*.json; do
  [ -e "$example" ] || continue
  n_examples=$((n_examples + 1))
  expect "$pkgdatadir/examples/$(basename "$example")"
done
if [ "$n_examples" -eq 0 ]; then
  echo "note: data/examples/ has no *.json yet; nothing to check there"
fi

# The installed programs start; --version needs no display.
check_version () {
  program=$tmp$bindir/$1
  [ -x "$program" ] || return
  out=$(env -u DISPLAY -u WAYLAND_DISPLAY "$program" --version 2>&1)
  status=$?
  if [ $status -ne 0 ]; then
    fail "$1 --version exited with $status: $out"
  elif [ "$out" != "$1 $version" ]; then
    fail "$1 --version printed '$out', expected '$1 $version'"
  else
    echo "ok: $1 --version: $out"
  fi
}
check_version winnow-run
if [ "$gui" = true ]; then
  check_version winnow
fi

if [ $failures -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "installed layout ok"
