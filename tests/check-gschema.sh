#!/bin/sh
# The compiled settings schema has the id the app opens (APPLICATION_ID) and
# every key the app binds.
#
# Usage: check-gschema.sh SCHEMA_DIR APP_ID
set -u
schemadir=$1 app_id=$2

if ! command -v gsettings > /dev/null; then
  echo "gsettings not found (libglib2.0-bin): skipped"
  exit 77
fi

keys=$(GSETTINGS_BACKEND=memory gsettings --schemadir "$schemadir" list-keys "$app_id" 2>&1) || {
  echo "FAIL: no schema $app_id in $schemadir: $keys"
  exit 1
}

failures=0
for key in window-width window-height window-maximized main-pane-position \
           side-pane-position column-layout speed step-delta-ms default-trust \
           last-folder recent-files; do
  if ! printf '%s\n' "$keys" | grep -qx "$key"; then
    echo "FAIL: $app_id has no key $key"
    failures=$((failures + 1))
  fi
done

range=$(GSETTINGS_BACKEND=memory gsettings --schemadir "$schemadir" range "$app_id" default-trust)
expected=$(printf "enum\n'workerTrusted'\n'engineAuthoritative'")
if [ "$range" != "$expected" ]; then
  echo "FAIL: default-trust takes: $range"
  failures=$((failures + 1))
fi

[ $failures -eq 0 ] || exit 1
echo "$app_id: $(printf '%s\n' "$keys" | wc -l) keys, all present"
