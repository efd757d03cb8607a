#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The app's command line: counts in decimal digits only, as winnow-run's -n
# (GLib's int options would read "010" as octal and "0x10" as hex). A bad
# value is refused before any window opens, so no display is needed.
app=$1
status=0
for bad in 0 -3 0x10 010x 10000001 ""; do
  out=$("$app" --instances "$bad" 2>&1)
  code=$?
  case "$out" in
    *"--instances takes a whole number from 1 to 10000000"*) ;;
    *) echo "not refused with the range: --instances '$bad': $out"; status=1 ;;
  esac
  [ "$code" -eq 2 ] || { echo "--instances '$bad' exited $code, not 2"; status=1; }
done
[ "$status" -eq 0 ] && echo "ok: bad --instances values refused"
exit $status
