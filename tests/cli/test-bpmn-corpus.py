#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The BPMN corpus (tests/data/bpmn, PROVENANCE.md) through winnow-run (TAP).

Every file is either refused with the expected first message, or imports with
the expected node count, topics and retry policies (read back from
--export-json) and runs, with implicit workers and a person finishing each
user task a minute after it is created, to the expected end: the
summary's completed/active counts and exit status. tests/data/bpmn/expected.json
holds the expectations; `--update` rewrites it from what the runner does now
(review the diff before committing it)."""
import json
import os
import subprocess
import sys
import tempfile

RUNNER = sys.argv[1]
SRC = sys.argv[2]
UPDATE = "--update" in sys.argv
DATA = os.path.join(SRC, "tests", "data", "bpmn")
EXPECTED = os.path.join(DATA, "expected.json")


def run(*args):
    return subprocess.run([RUNNER, *args], capture_output=True, text=True, timeout=120)


def walk(nodes, out):
    for n in nodes:
        out.append(n)
        walk(n.get("nodes", []), out)
    return out


def observe(path):
    p = run("--export-json", "-", path)
    if p.returncode != 0:
        lines = p.stderr.strip().splitlines()
        first = lines[0].split(": ", 1)[1] if lines else ""
        return {"refused": first, "errors": len(lines)}
    model = json.loads(p.stdout)
    nodes = walk(model["nodes"], [])
    tasks = [n for n in nodes if "worker" in n]
    got = {
        "nodes": len(nodes),
        "topics": sorted({n["worker"]["topic"] for n in tasks}),
        "retries": {n["id"]: n["worker"]["retry"] for n in tasks if "retry" in n["worker"]},
    }
    people = [{"node": n["id"], "after": "1m", "complete": {}} for n in nodes if n["type"] == "userTask"]
    with tempfile.NamedTemporaryFile("w", suffix=".scenario.json", delete=False) as s:
        json.dump({"format": "winnow.scenario/1", "userTasks": people}, s)
    try:
        r = run("--summary", "json", "-q", "--scenario", s.name, path)
    finally:
        os.unlink(s.name)
    summary = json.loads(r.stdout) if r.stdout.strip().startswith("{") else {}
    got["run"] = {"exit": r.returncode, "completed": summary.get("completed"), "active": summary.get("active")}
    return got


def main():
    files = sorted(os.path.join(root, f) for root, _, fs in os.walk(DATA) for f in fs if f.endswith(".bpmn"))
    expected = {} if UPDATE else json.load(open(EXPECTED))
    observed = {}
    failures = 0
    print(f"1..{len(files) + 1}")
    for i, path in enumerate(files, 1):
        name = os.path.relpath(path, DATA)
        got = observe(path)
        observed[name] = got
        want = expected.get(name)
        ok = UPDATE or got == want
        if not ok:
            failures += 1
            print(f"# {name}:\n#   want {json.dumps(want)}\n#   got  {json.dumps(got)}")
        print(f"{'ok' if ok else 'not ok'} {i} {name}")
    missing = sorted(set(expected) - set(observed))
    print(f"{'ok' if not missing else 'not ok'} {len(files) + 1} every expectation has its file{': ' + ', '.join(missing) if missing else ''}")
    if UPDATE:
        with open(EXPECTED, "w") as f:
            json.dump(observed, f, indent=1, sort_keys=True)
            f.write("\n")
    return 1 if failures or missing else 0


sys.exit(main())
