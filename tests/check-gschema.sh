#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The compiled settings schema has the id the app opens (APPLICATION_ID), and
# its keys are exactly the keys the code reads: every key some source under
# SOURCE_DIR gets, binds or makes an action of, and no key that none does.
#
# Usage: check-gschema.sh SCHEMA_DIR APP_ID SOURCE_DIR
set -u
schemadir=$1 app_id=$2 srcdir=$3

if ! command -v gsettings > /dev/null; then
  echo "gsettings not found (libglib2.0-bin): skipped"
  exit 77
fi

keys=$(GSETTINGS_BACKEND=memory gsettings --schemadir "$schemadir" list-keys "$app_id" 2>&1) || {
  echo "FAIL: no schema $app_id in $schemadir: $keys"
  exit 1
}

# The keys read: g_settings_get_*(settings, "key"), g_settings_get (…),
# g_settings_bind (…) and g_settings_bind_with_mapping (…),
# g_settings_create_action (…), with the call spread over lines or not.
read_keys=$(find "$srcdir" -name '*.c' -exec cat {} + | tr '\n' ' ' |
  grep -o 'g_settings_\(get_[a-z]*\|get\|bind\|bind_with_mapping\|create_action\) *([^,()]*, *"[A-Za-z0-9-]*"' |
  sed 's/.*"\([A-Za-z0-9-]*\)"$/\1/' | sort -u)
if [ -z "$read_keys" ]; then
  echo "FAIL: no settings read under $srcdir"
  exit 1
fi

failures=0
for key in $keys; do
  if ! printf '%s\n' "$read_keys" | grep -qx "$key"; then
    echo "FAIL: $app_id has a key $key that nothing under $srcdir reads"
    failures=$((failures + 1))
  fi
done
for key in $read_keys; do
  if ! printf '%s\n' "$keys" | grep -qx "$key"; then
    echo "FAIL: $srcdir reads a key $key that $app_id does not have"
    failures=$((failures + 1))
  fi
done

# The settings-backed actions (win.set-speed, win.set-step-delta,
# win.default-trust) take exactly the targets their menus offer.
for key in set-speed set-step-delta default-trust; do
  range=$(GSETTINGS_BACKEND=memory gsettings --schemadir "$schemadir" range "$app_id" "$key" | sed 1d | tr -d "'" | sort)
  targets=$(cat "$srcdir"/../ui/*.ui | grep -A1 ">win.$key<" | sed -n 's/.*"target">\([^<]*\)<.*/\1/p' | sort -u)
  if [ -z "$targets" ] || [ "$range" != "$targets" ]; then
    echo "FAIL: $key takes $(echo $range), its menu offers $(echo $targets)"
    failures=$((failures + 1))
  fi
done

[ $failures -eq 0 ] || exit 1
echo "$app_id: $(printf '%s\n' "$keys" | wc -l) keys, each read by the code"
