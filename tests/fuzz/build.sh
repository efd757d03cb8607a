#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Build the libFuzzer targets with clang against the engine sources.
#
#   tests/fuzz/build.sh [OUTDIR]        (default: build-fuzz)
#
# Produces OUTDIR/fuzz-process-loader, OUTDIR/fuzz-scenario-loader,
# OUTDIR/fuzz-lite, OUTDIR/fuzz-rest-body and OUTDIR/fuzz-bpmn, instrumented with libFuzzer, ASan and UBSan (UBSan aborts).
# Needs clang and libclang-rt-14-dev (Debian 12). Run one with, e.g.:
#
#   build-fuzz/fuzz-lite -dict=tests/fuzz/lite.dict -max_total_time=600 \
#       -rss_limit_mb=2048 -timeout=10 build-fuzz/corpus-lite tests/fuzz/corpus/lite
set -eu
cd "$(dirname "$0")/../.."
out=${1:-build-fuzz}
cc=${CC:-clang}

mkdir -p "$out/obj"
# The engine includes config.h; the fuzzers need only these.
cat > "$out/config.h" <<'H'
#pragma once
#define PACKAGE_VERSION "fuzz"
#define GETTEXT_PACKAGE "winnow"
#define LOCALEDIR "/usr/share/locale"
#define PKGDATADIR "/usr/share/winnow"
#define APPLICATION_ID "io.github.winnow.Winnow"
#define RESOURCE_BASE "/io/github/winnow/Winnow"
#define DEVELOPMENT_BUILD 0
H

deps="glib-2.0 gobject-2.0 gio-2.0 json-glib-1.0 libxml-2.0"
# shellcheck disable=SC2086  # $deps is a list
cflags="-g -O1 -fno-omit-frame-pointer -std=gnu11 -Wall -Wno-unused-parameter
  -fsanitize=address,undefined -fno-sanitize-recover=undefined
  -DGLIB_VERSION_MIN_REQUIRED=GLIB_VERSION_2_74 -DGLIB_VERSION_MAX_ALLOWED=GLIB_VERSION_2_74
  -DJSON_VERSION_MIN_REQUIRED=JSON_VERSION_1_6 -DJSON_VERSION_MAX_ALLOWED=JSON_VERSION_1_6
  -I$out -Isrc/engine $(pkg-config --cflags $deps)"
# shellcheck disable=SC2086
libs="$(pkg-config --libs $deps) -lm"

# The enums' GTypes, as meson's gnome.mkenums_simple makes them for the build
# (src/engine/meson.build lists the same headers).
enum_headers="src/engine/wn-types.h src/engine/wn-scheduler.h src/engine/wn-journal.h
  src/engine/wn-dispatcher.h src/engine/wn-process.h src/engine/wn-scenario.h src/engine/wn-engine.h"
# shellcheck disable=SC2086
glib-mkenums \
  --fhead '#pragma once\n#include <glib-object.h>\nG_BEGIN_DECLS\n' \
  --eprod 'GType @enum_name@_get_type (void) G_GNUC_CONST;\n#define @ENUMPREFIX@_TYPE_@ENUMSHORT@ (@enum_name@_get_type ())\n' \
  --ftail 'G_END_DECLS\n' \
  $enum_headers > "$out/wn-enum-types.h"
# shellcheck disable=SC2086
glib-mkenums \
  --fhead '#include "wn-enum-types.h"\n' \
  --fprod '#include "@basename@"\n' \
  --vhead 'GType\n@enum_name@_get_type (void)\n{\n  static gsize type = 0;\n  static const G@Type@Value values[] = {' \
  --vprod '    { @VALUENAME@, "@VALUENAME@", "@valuenick@" },' \
  --vtail '    { 0, NULL, NULL }\n  };\n  if (g_once_init_enter (&type))\n    g_once_init_leave (&type, g_@type@_register_static (g_intern_static_string ("@EnumName@"), values));\n  return (GType) type;\n}\n' \
  $enum_headers > "$out/wn-enum-types.c"

# The engine: every module, instrumented for coverage without libFuzzer's main.
objects=""
for src in src/engine/*.c "$out/wn-enum-types.c" tests/fuzz/fuzz-sim.c; do
  obj="$out/obj/$(basename "$src" .c).o"
  # shellcheck disable=SC2086
  $cc $cflags -fsanitize=fuzzer-no-link -DG_LOG_DOMAIN='"Winnow"' -DWINNOW_COMPILATION -c "$src" -o "$obj"
  objects="$objects $obj"
done

for target in process-loader scenario-loader lite bpmn; do
  # shellcheck disable=SC2086
  $cc $cflags -fsanitize=fuzzer -DG_LOG_DOMAIN='"Winnow"' \
    "tests/fuzz/fuzz-$target.c" $objects $libs -o "$out/fuzz-$target"
  echo "built $out/fuzz-$target"
done

# The REST API's request bodies: the server library too, with libsoup.
# shellcheck disable=SC2086
soup_cflags="$(pkg-config --cflags libsoup-3.0) -DSOUP_VERSION_MIN_REQUIRED=SOUP_VERSION_3_2 -DSOUP_VERSION_MAX_ALLOWED=SOUP_VERSION_3_2"
server_objects=""
for src in src/server/*.c; do
  obj="$out/obj/$(basename "$src" .c).o"
  # shellcheck disable=SC2086
  $cc $cflags $soup_cflags -Isrc/server -fsanitize=fuzzer-no-link -DG_LOG_DOMAIN='"Winnow"' -c "$src" -o "$obj"
  server_objects="$server_objects $obj"
done
# shellcheck disable=SC2086
$cc $cflags $soup_cflags -Isrc/server -fsanitize=fuzzer -DG_LOG_DOMAIN='"Winnow"' \
  tests/fuzz/fuzz-rest-body.c $server_objects $objects $libs $(pkg-config --libs libsoup-3.0) -o "$out/fuzz-rest-body"
echo "built $out/fuzz-rest-body"
