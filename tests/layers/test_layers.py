#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The layers the build enforces (harness/meson.build): for every library of the project and
every layer's own header, compile a one-line file that includes that header with exactly the
flags the build compiles that library's sources with (build/compile_commands.json). A header
of the library's own layer or of one below must compile; one of a layer above (a back-edge,
e.g. analysis including harness/cmd's cmd.h) must fail with "file not found". Both halves are
checked, so the test fails if the layers leak and also if the check itself stops compiling.

usage: test_layers.py SOURCE_DIR BUILD_DIR
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

# layer -> (the library's output prefix in compile_commands.json, a header only it exports)
LAYERS = {
    'lib': ('harness/lib/libcbutil.a', 'util.h'),
    'workloads': ('workloads/libwlinfo.a', 'wl_info.h'),
    'collector': ('harness/libcbcollector.a', 'collector.h'),
    'core': ('harness/libcbcore.a', 'config.h'),
    'agent': ('harness/libcbagent.a', 'agent.h'),
    'target': ('harness/libcbtarget.a', 'target.h'),
    'analysis': ('analysis/core/libcbanalysis.a', 'analyze.h'),
    'compare': ('analysis/compare/libcbcompare.a', 'compare.h'),
    'cmd': ('harness/cmd/libcbcmd.a', 'cmd.h'),
}
# what each layer may use, itself included (the transitive closure of harness/meson.build's
# and analysis/meson.build's dependencies)
BELOW = {
    'lib': {'lib'},
    'workloads': {'lib', 'workloads'},
    'collector': {'lib', 'collector'},
    'core': {'lib', 'workloads', 'core'},
    'agent': {'lib', 'workloads', 'collector', 'core', 'agent'},
    'target': {'lib', 'workloads', 'collector', 'core', 'agent', 'target'},
    'analysis': {'lib', 'analysis'},
    'compare': {'lib', 'analysis', 'compare'},
    'cmd': set(LAYERS),
}


def flags_of(entries, prefix):
    """The compiler argv of one source of library @prefix, minus its input and outputs."""
    for e in entries:
        if e['output'].startswith(prefix + '.p/'):
            argv = shlex.split(e['command'])
            out, skip = [], False
            for a in argv:
                if skip:
                    skip = False
                    continue
                if a in ('-o', '-MF', '-MQ', '-MT'):
                    skip = True
                    continue
                if a in ('-c', '-MD') or a == e['file'] or a.endswith('.c'):
                    continue
                out.append(a)
            return out, e['directory']
    sys.exit(f'test_layers: no source of {prefix} in compile_commands.json (renamed library?)')


def path_includes(root):
    """#include "dir/x.h" or "../x.h" in the layers' sources: a path reaches any header by way
    of the including file's own folder, past every include directory, so the layers forbid it."""
    found = []
    for top in ('harness', 'analysis', 'workloads'):
        for d, _, files in os.walk(os.path.join(root, top)):
            for name in files:
                if not name.endswith(('.c', '.h')):
                    continue
                path = os.path.join(d, name)
                with open(path, errors='replace') as f:
                    for ln, line in enumerate(f, 1):
                        m = re.match(r'\s*#\s*include\s*"([^"]*)"', line)
                        if m and '/' in m.group(1):
                            found.append(f'{os.path.relpath(path, root)}:{ln}: {line.strip()}')
    return found


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(os.path.join(sys.argv[2], 'compile_commands.json')) as f:
        entries = json.load(f)
    bad = 0
    checks = 1
    for hit in path_includes(sys.argv[1]):
        bad += 1
        print(f'FAIL: an include by path, past the layers: {hit}')
    with tempfile.TemporaryDirectory() as tmp:
        for user, (prefix, _) in LAYERS.items():
            argv, cwd = flags_of(entries, prefix)
            for owner, (_, header) in LAYERS.items():
                src = os.path.join(tmp, f'{user}-includes-{owner}.c')
                with open(src, 'w') as f:
                    f.write(f'#include "{header}"\nint layer_probe;\n')
                r = subprocess.run(argv + ['-fsyntax-only', src], cwd=cwd, capture_output=True,
                                   text=True)
                allowed = owner in BELOW[user]
                checks += 1
                if allowed and r.returncode != 0:
                    bad += 1
                    print(f'FAIL: {user} cannot include {owner}\'s {header}:\n{r.stderr}')
                elif not allowed and r.returncode == 0:
                    bad += 1
                    print(f'FAIL: {user} can include {owner}\'s {header}: a back-edge compiles')
                elif not allowed and 'No such file' not in r.stderr and 'not found' not in r.stderr:
                    bad += 1
                    print(f'FAIL: {user} including {owner}\'s {header} failed, but not for a '
                          f'missing header:\n{r.stderr}')
                else:
                    print(f'ok: {user} {"may" if allowed else "may not"} include {owner}\'s {header}')
    print(f'{checks} checks, {bad} failed')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
