#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Quick start: install what is missing, build, and open the bundled example.
set -eu
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh
export GSETTINGS_SCHEMA_DIR="$PWD/build/data"
exec build/src/app/winnow "${1:-data/examples/order-fulfilment.process.json}"
