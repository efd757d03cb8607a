/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-target.h — the libFuzzer entry points every target defines. The same
 * targets link into replay drivers (replay.c, built with the project's compiler)
 * that run the committed inputs as ordinary tests. */
#pragma once

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerInitialize   (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);
