#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The engine's boundary holds: from outside the engine only winnow.h compiles.

usage: check-engine-boundary.py BUILD_ROOT ENGINE_SOURCE_DIR

Compiles tiny sources with the flags the CLI is built with (from the build's
compile_commands.json): winnow.h must compile; each public header included on
its own must fail with the guard's message; each private header must fail even
with WINNOW_INSIDE defined. No front-end source (src/app, src/cli) may be built
with WINNOW_COMPILATION. TAP output.
"""
import json
import os
import re
import shlex
import subprocess
import sys

build_root, engine_dir = sys.argv[1], sys.argv[2]
commands_path = os.path.join(build_root, 'compile_commands.json')
if not os.path.exists(commands_path):
    print('1..0 # SKIP no compile_commands.json (not a ninja build)')
    sys.exit(0)
with open(commands_path, encoding='utf-8') as f:
    commands = json.load(f)

cli = [c for c in commands if c['file'].endswith('src/cli/winnow-run.c')]
if not cli:
    print('Bail out! winnow-run.c is not in compile_commands.json')
    sys.exit(1)
directory = cli[0]['directory']
argv = shlex.split(cli[0]['command'])
# Drop the source, the object and the dependency files: keep the compiler and flags.
flags = []
skip = False
for i, arg in enumerate(argv):
    if skip:
        skip = False
        continue
    if arg in ('-o', '-c', '-MQ', '-MF', '-MT'):
        skip = True
        continue
    if arg in ('-MD', '-MMD'):
        continue
    flags.append(arg)
flags += ['-fsyntax-only', '-x', 'c', '-']

with open(os.path.join(engine_dir, 'winnow.h'), encoding='utf-8') as f:
    public = re.findall(r'^#include "(wn-[^"]+\.h)"', f.read(), re.M)
private = sorted(h for h in os.listdir(engine_dir)
                 if h.startswith('wn-') and h.endswith('.h') and h not in public)

cases = [('winnow.h compiles from outside', '#include "winnow.h"\n', None)]
for h in public:
    cases.append((f'{h} alone is refused', f'#include "{h}"\n',
                  'Only winnow.h can be included directly'))
for h in private:
    cases.append((f'{h} is refused even beside winnow.h',
                  f'#define WINNOW_INSIDE\n#include "{h}"\n',
                  f'{h} is internal to the engine'))

front_ends = [c['file'] for c in commands
              if re.search(r'(^|/)src/(app|cli)/', c['file'])
              and re.search(r'-DWINNOW_COMPILATION\b', c['command'])]

print(f'1..{len(cases) + 1}')
failed = 0
for n, (name, source, expected) in enumerate(cases, 1):
    run = subprocess.run(flags, input=source, cwd=directory, capture_output=True, text=True)
    if expected is None:
        ok = run.returncode == 0
    else:
        ok = run.returncode != 0 and expected in run.stderr
    if not ok:
        failed += 1
        print(f'not ok {n} - {name}')
        for line in (run.stderr or '(no message, exit 0)').splitlines()[:5]:
            print(f'# {line}')
    else:
        print(f'ok {n} - {name}')
n = len(cases) + 1
if front_ends:
    failed += 1
    print(f'not ok {n} - no front-end source is built with WINNOW_COMPILATION')
    for f in front_ends:
        print(f'# {f}')
else:
    print(f'ok {n} - no front-end source is built with WINNOW_COMPILATION')
sys.exit(1 if failed else 0)
