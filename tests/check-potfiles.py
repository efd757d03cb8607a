#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Check po/POTFILES.in against the sources.

Fails when a file under src/, ui/ or data/ has translatable strings but is not
listed in po/POTFILES.in (its strings would silently never be translated), or
when POTFILES.in lists a file that does not exist (xgettext, and with it
`winnow-update-po`, would fail).

Usage: check-potfiles.py SOURCE_ROOT
"""

import os
import re
import sys

SCANNED_DIRS = ('src', 'ui', 'data')

# C and Blueprint: _("…"), N_("…"), C_("ctx", "…"), NC_(…), ngettext (…) and
# the g_d*gettext variants.
C_MARKERS = re.compile(
    r'(?<![\w])(?:_|N_|C_|NC_|Q_|ngettext|g_dgettext|g_dngettext|g_dpgettext2?)\s*\(')
C_COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)
# GtkBuilder: <property … translatable="yes">, also "true"/"1".
UI_MARKERS = re.compile(r'''\btranslatable\s*=\s*["'](?:yes|true|1)["']''', re.I)
# Files that always carry translatable text.
ALWAYS_TRANSLATABLE = ('.desktop.in', '.metainfo.xml.in', '.appdata.xml.in',
                       '.gschema.xml', '.gschema.xml.in')


def read_potfiles(path):
    listed = []
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith('#'):
                listed.append(line)
    return listed


def has_translatable_strings(path):
    name = os.path.basename(path)
    if name.endswith(ALWAYS_TRANSLATABLE):
        return True
    if name.endswith(('.c', '.h', '.blp')):
        with open(path, encoding='utf-8', errors='replace') as f:
            text = C_COMMENT.sub(' ', f.read())
        return C_MARKERS.search(text) is not None
    if name.endswith(('.ui', '.xml')):
        with open(path, encoding='utf-8', errors='replace') as f:
            return UI_MARKERS.search(f.read()) is not None
    return False


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    root = sys.argv[1]
    listed = read_potfiles(os.path.join(root, 'po', 'POTFILES.in'))
    failures = 0

    for entry in listed:
        if not os.path.isfile(os.path.join(root, entry)):
            print(f'po/POTFILES.in lists {entry}, which does not exist')
            failures += 1

    listed_set = set(listed)
    checked = 0
    for top in SCANNED_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames.sort()
            for name in sorted(filenames):
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root).replace(os.sep, '/')
                checked += 1
                if has_translatable_strings(path) and rel not in listed_set:
                    print(f'{rel} has translatable strings but is not in po/POTFILES.in')
                    failures += 1

    if failures:
        print(f'{failures} problem(s); add the files to po/POTFILES.in '
              '(keep it sorted) and run `meson compile -C BUILD winnow-update-po`')
        return 1
    print(f'po/POTFILES.in: {len(listed)} entries, {checked} files scanned, all listed')
    return 0


if __name__ == '__main__':
    sys.exit(main())
