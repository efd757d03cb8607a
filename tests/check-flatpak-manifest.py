#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Check the Flatpak manifest against the build it packages.

Usage: check-flatpak-manifest.py MANIFEST MESON_OPTIONS_TXT APP_ID COMMAND [BUILD_ROOT]

- the manifest is valid JSON;
- its app id is the release application id and its command the GUI binary;
- it builds on a pinned GNOME runtime (not master/nightly) with the matching Sdk;
- finish-args grant no broad file system or device access: files come
  through the document portal;
- it does not rebuild what org.gnome.Platform already has (GTK, libadwaita,
  json-glib, GLib);
- the app module is built with meson from this repository, and every -D option
  in its config-opts is a project option (meson_options.txt) or a meson
  built-in, with a value the option accepts.
"""

import json
import os
import re
import sys

IN_RUNTIME = ('gtk', 'gtk4', 'libadwaita', 'json-glib', 'glib', 'gtk3')
BROAD_FILESYSTEMS = re.compile(r'^--filesystem=(home|host|host-os|host-etc|~)(/|:|$)')
FORBIDDEN_ARGS = ('--device=all', '--socket=x11', '--socket=session-bus',
                  '--socket=system-bus')
# Used when the build's introspection data is not at hand.
MESON_BUILTINS = {
    'prefix', 'bindir', 'datadir', 'includedir', 'infodir', 'libdir', 'libexecdir',
    'localedir', 'localstatedir', 'mandir', 'sbindir', 'sharedstatedir', 'sysconfdir',
    'auto_features', 'backend', 'buildtype', 'debug', 'default_library', 'errorlogs',
    'install_umask', 'layout', 'optimization', 'pkg_config_path', 'prefer_static',
    'stdsplit', 'strip', 'unity', 'unity_size', 'warning_level', 'werror', 'wrap_mode',
    'force_fallback_for', 'c_std', 'c_args', 'c_link_args', 'b_lto', 'b_ndebug',
    'b_pie', 'b_sanitize', 'b_coverage', 'b_pch', 'b_staticpic', 'b_asneeded',
    'b_lundef', 'b_colorout', 'b_vscrt', 'b_bitcode',
}

failures = []


def fail(message):
    failures.append(message)


def project_options(path):
    """name -> {'type': …, 'choices': […]} from meson_options.txt."""
    with open(path, encoding='utf-8') as f:
        text = f.read()
    options = {}
    for match in re.finditer(r"option\s*\(\s*'([^']+)'\s*,(.*?)\)\s*$", text, re.S | re.M):
        name, rest = match.group(1), match.group(2)
        kind = re.search(r"type\s*:\s*'([^']+)'", rest)
        choices = re.search(r"choices\s*:\s*\[([^\]]*)\]", rest)
        options[name] = {
            'type': kind.group(1) if kind else None,
            'choices': re.findall(r"'([^']*)'", choices.group(1)) if choices else None,
        }
    return options


def builtin_options(build_root):
    intro = os.path.join(build_root or '', 'meson-info', 'intro-buildoptions.json')
    if build_root and os.path.isfile(intro):
        with open(intro, encoding='utf-8') as f:
            return {o['name']: o for o in json.load(f) if o.get('section') != 'user'}
    return {name: {} for name in MESON_BUILTINS}


def check_value(name, value, option):
    kind = option.get('type')
    if kind == 'boolean' and value not in ('true', 'false'):
        fail(f'config-opts: -D{name}={value}: a boolean option takes true or false')
    elif kind == 'combo' and option.get('choices') and value not in option['choices']:
        fail(f'config-opts: -D{name}={value}: not one of {option["choices"]}')
    elif kind == 'feature' and value not in ('enabled', 'disabled', 'auto'):
        fail(f'config-opts: -D{name}={value}: a feature takes enabled, disabled or auto')


def walk_modules(modules):
    for module in modules:
        if isinstance(module, str):
            yield {'name': os.path.splitext(os.path.basename(module))[0]}
            continue
        yield module
        yield from walk_modules(module.get('modules', []))


def main():
    if len(sys.argv) not in (5, 6):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    manifest_path, options_path, app_id, command = sys.argv[1:5]
    build_root = sys.argv[5] if len(sys.argv) == 6 else None

    try:
        with open(manifest_path, encoding='utf-8') as f:
            manifest = json.load(f)
    except (OSError, ValueError) as e:
        print(f'{manifest_path}: not valid JSON: {e}')
        return 1

    manifest_id = manifest.get('app-id', manifest.get('id'))
    if manifest_id != app_id:
        fail(f'app-id is {manifest_id!r}, expected the release id {app_id!r}')
    if manifest.get('command') != command:
        fail(f'command is {manifest.get("command")!r}, expected {command!r}')

    if manifest.get('runtime') != 'org.gnome.Platform':
        fail(f'runtime is {manifest.get("runtime")!r}, expected org.gnome.Platform')
    if manifest.get('sdk') != 'org.gnome.Sdk':
        fail(f'sdk is {manifest.get("sdk")!r}, expected org.gnome.Sdk')
    version = str(manifest.get('runtime-version', ''))
    if not re.fullmatch(r'\d+(\.\d+)?', version):
        fail(f'runtime-version is {version!r}: pin a released GNOME runtime such as "47"')

    for arg in manifest.get('finish-args', []):
        if BROAD_FILESYSTEMS.match(arg):
            fail(f'finish-args: {arg} is too broad: open files through the portal')
        if arg in FORBIDDEN_ARGS:
            fail(f'finish-args: {arg} is not needed')

    modules = list(walk_modules(manifest.get('modules', [])))
    for module in modules:
        name = module.get('name', '').lower()
        urls = ' '.join(str(s.get('url', '')) for s in module.get('sources', [])
                        if isinstance(s, dict)).lower()
        for lib in IN_RUNTIME:
            if name == lib or re.search(rf'/{re.escape(lib)}[-/.]', urls):
                fail(f'module {module.get("name")!r} builds {lib}, which the runtime has')

    app = next((m for m in modules if m.get('name') == 'winnow'), None)
    if app is None:
        fail('no module named "winnow"')
        app = {}
    elif manifest.get('modules', [])[-1] is not app:
        fail('the winnow module is not the last one')
    if app and app.get('buildsystem') != 'meson':
        fail(f'the winnow module builds with {app.get("buildsystem")!r}, not meson')
    sources = [s for s in app.get('sources', []) if isinstance(s, dict)]
    if app and not any(s.get('type') == 'dir' and s.get('path') == '..' for s in sources):
        fail('the winnow module does not build this repository (a "dir" source with path "..")')

    project = project_options(options_path)
    builtins = builtin_options(build_root)
    for opt in app.get('config-opts', []):
        match = re.fullmatch(r'(?:-D|--)([A-Za-z0-9_.:-]+)(?:=(.*))?', opt)
        if not match:
            fail(f'config-opts: cannot read {opt!r}')
            continue
        name, value = match.group(1), match.group(2)
        if opt.startswith('--'):
            name = name.replace('-', '_')
        if name in project:
            check_value(name, value, project[name])
        elif name not in builtins:
            fail(f'config-opts: {opt}: no such option in meson_options.txt or meson')
    # A development build has the .Devel id, which this manifest does not export.
    if '-Ddevelopment=true' in app.get('config-opts', []):
        fail('config-opts: -Ddevelopment=true builds the .Devel id, not the manifest\'s')

    if failures:
        for message in failures:
            print(f'{manifest_path}: {message}')
        return 1
    print(f'{manifest_path}: {manifest_id} on {manifest["runtime"]}//{version}, '
          f'{len(modules)} module(s), {len(app.get("config-opts", []))} config option(s): ok')
    return 0


if __name__ == '__main__':
    sys.exit(main())
