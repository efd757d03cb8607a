#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Rebuild the fuzzers' seed corpora under tests/fuzz/corpus/ from the bundled
examples, the engine tests' data files and the expressions of the lite spec.

    tests/fuzz/make-corpus.py        (run from anywhere)
"""
import glob
import hashlib
import json
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
CORPUS = os.path.join(HERE, "corpus")

# The expressions and paths lite.md, files.md and semantics.md show, plus the
# corners they name (escapes, builtins, cross-kind comparisons, errors).
SPEC_EXPRESSIONS = [
    "order.total", "items[0]", 'rates["EUR"]', 'body.a[0]["k"]', 'order.items[0].price',
    'has("path")', "has(order.customer.name)", "len(x)", "len(arr)", 'len("h\u00e9llo")',
    'time("2026-01-02T03:04:05Z")', 'time("2026-01-02T03:04:05Z") < time("2027-01-01T00:00:00Z")',
    "body.reason == 'card_declined'", "order.total <= 1000", "input.order.total < 0",
    "code == '503' and body.status >= 500", "not (n > 3) and b or f", "10 % 3", "-x * 2 / 4",
    "1 / 0", "a < b < c", "5 == nil", "\"double\" + 'single'", "'esc\\'aped \\\\ \\\"q\\\"'",
    "(((n)))", "n != 5.0", "s + s == 'h\u00e9lloh\u00e9llo'", "attempt >= 2", "nil", "true",
    "arr[3].k * 2", 'rates["x y"] + rates[""]', "a..b", "foo(1)", "len(order, 2)", "n +",
]


def write(target, name, data):
    directory = os.path.join(CORPUS, target)
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode("utf-8"))


def short(text):
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]


def expressions(value, found):
    """Every lite text a process or scenario document carries."""
    if isinstance(value, dict):
        for key, member in value.items():
            if key in ("condition", "when", "path") and isinstance(member, str):
                found.add(member)
            elif key == "set" and isinstance(member, dict):
                found.update(v for v in member.values() if isinstance(v, str))
            elif key == "var" and isinstance(member, str):
                found.add(member)
            else:
                expressions(member, found)
    elif isinstance(value, list):
        for member in value:
            expressions(member, found)


def responses(scenario):
    for worker in scenario.get("workers", []):
        yield from worker.get("responses", [])
    for fault in scenario.get("faults", []):
        if "next" in fault:
            yield fault["next"]


def main():
    shutil.rmtree(CORPUS, ignore_errors=True)
    files = sorted(glob.glob(os.path.join(ROOT, "data", "examples", "*.json")) +
                   glob.glob(os.path.join(ROOT, "tests", "engine", "data", "*.json")))
    found = set(SPEC_EXPRESSIONS)
    seen_responses = set()
    for path in files:
        raw = open(path, "rb").read()
        doc = json.loads(raw)
        base = os.path.basename(path)
        prefix = "engine-data-" if os.sep + "tests" + os.sep in path else ""
        expressions(doc, found)
        if doc.get("format") == "winnow.process/1":
            write("process-loader", prefix + base, raw)
            scenario = doc.get("scenario")
            if scenario is not None:
                scenario = dict(scenario, format="winnow.scenario/1")
                write("scenario-loader", prefix + base.replace(".process.json", "") + ".scenario-of-process.json",
                      json.dumps(scenario, indent=1, ensure_ascii=False) + "\n")
        else:
            write("scenario-loader", prefix + base, raw)
            scenario = doc
        for response in responses(scenario or {}):
            text = json.dumps(response, ensure_ascii=False)
            if text not in seen_responses:
                seen_responses.add(text)
                write("scenario-loader", "response-" + short(text) + ".json", text + "\n")
    for text in sorted(found):
        write("lite", "expr-" + short(text), text)


if __name__ == "__main__":
    main()
