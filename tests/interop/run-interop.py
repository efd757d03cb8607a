#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Interop: Node workers on camunda-external-task-client-js (pinned in
package-lock.json, installed with `npm ci`) against `winnow-run --serve`.
The assertions read Winnow's journal: attempts, gates, outcomes, and who
held each lock. TAP output, one test per scenario; exit 77 (skipped) when
Node or npm is missing.

usage: run-interop.py WINNOW_RUN EXAMPLES_DIR WORK_DIR
"""
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
WINNOW_RUN, EXAMPLES, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
EXAMPLE = os.path.join(EXAMPLES, "order-fulfilment.process.json")
SLOW = os.path.join(HERE, "slow.process.json")
NODE = shutil.which("node") or shutil.which("nodejs")
NPM = shutil.which("npm")


def prepare():
    """The client, installed from the lockfile into WORK (not the source tree)."""
    os.makedirs(WORK, exist_ok=True)
    for name in ("package.json", "package-lock.json", "worker.mjs"):
        shutil.copy(os.path.join(HERE, name), os.path.join(WORK, name))
    stamp = os.path.join(WORK, "node_modules", ".winnow-lock")
    lock = open(os.path.join(HERE, "package-lock.json")).read()
    if os.path.exists(stamp) and open(stamp).read() == lock:
        return
    subprocess.run([NPM, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=WORK, check=True,
                   stdout=sys.stderr)
    with open(stamp, "w") as f:
        f.write(lock)


class Server:
    def __init__(self, process, *args):
        self.journal = os.path.join(WORK, "journal-%d.jsonl" % time.monotonic_ns())
        self.proc = subprocess.Popen(
            [WINNOW_RUN, process, "--serve", "127.0.0.1:0", "--journal", self.journal, "-q",
             "--summary", "json", *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stderr.readline()
        match = re.search(r"at (http://\S+)", line)
        if not match:
            self.proc.kill()
            raise RuntimeError("winnow-run did not say where it listens: %r" % line)
        self.url = match.group(1)

    def wait(self, timeout=60):
        out, err = self.proc.communicate(timeout=timeout)
        self.status = self.proc.returncode
        self.summary = json.loads(out.strip().splitlines()[-1])
        self.stderr = err
        with open(self.journal, "rb") as f:
            self.journal_bytes = f.read()
        self.events = [json.loads(l) for l in self.journal_bytes.decode().splitlines()]
        os.unlink(self.journal)
        return self

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


class Worker:
    def __init__(self, mode, url, worker_id):
        self.proc = subprocess.Popen([NODE, os.path.join(WORK, "worker.mjs"), mode, url, worker_id],
                                     cwd=WORK, stdout=subprocess.PIPE, text=True)
        self.lines = []

    def expect(self, event, timeout=30):
        """Wait for the worker to say `event`; returns the line."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            record = json.loads(line)
            self.lines.append(record)
            if record["event"] == event:
                return record
        raise AssertionError("worker never said %s (said %s)" % (event, self.lines))

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
        self.proc.wait()


def jobs(events, node, phase):
    return [e for e in events if e["kind"] == "job" and e.get("node") == node and e["phase"] == phase]


def ends(events):
    return {e["instance"]: e.get("node") for e in events if e["kind"] == "node" and e["phase"] == "completed"
            and e.get("node") in ("shipped", "held", "payment-failed", "done")}


def check(condition, what):
    if not condition:
        raise AssertionError(what)


def worked_example_trusted():
    server = Server(EXAMPLE, "--external-topic", "reserve")
    worker = Worker("inventory", server.url, "js-inventory")
    try:
        server.wait()
    finally:
        worker.stop()
        server.kill()
    ev = server.events
    check(server.status == 0, "exit status %s: %s" % (server.status, server.stderr))
    check(ends(ev) == {"i1": "shipped", "i2": "held", "i3": "payment-failed"}, "ends %s" % ends(ev))
    locked = jobs(ev, "reserve-stock", "locked")
    check({e["worker"] for e in locked} == {"js-inventory"}, "lock holders %s" % locked)
    check(len(locked) == 9, "3 locks per order, got %d" % len(locked))
    rearmed = jobs(ev, "reserve-stock", "workerRearmed")
    check(len(rearmed) == 6 and all(e["backoff_us"] == 300000 for e in rearmed),
          "the worker's own retryTimeout of 300ms, twice per order: %s" % rearmed)
    check(all(e["not_before_us"] - e["t_us"] == 300000 for e in rearmed), "gates at +300ms")
    check(not jobs(ev, "reserve-stock", "retryScheduled"), "no retry of Winnow's own under WorkerTrusted")
    completed = jobs(ev, "reserve-stock", "completed")
    check(len(completed) == 3 and all(e["attempt"] == 3 and e["worker"] == "js-inventory" for e in completed),
          "completed on attempt 3 by the JS worker: %s" % completed)
    check(not [e for e in ev if e["kind"] == "job" and e.get("node") == "authorize-payment"
               and e.get("worker") == "js-inventory"], "the simulated payments worker kept its topic")


def worked_example_authoritative():
    server = Server(EXAMPLE, "--external-topic", "reserve", "--trust", "engineAuthoritative")
    worker = Worker("inventory", server.url, "js-inventory")
    try:
        server.wait()
    finally:
        worker.stop()
        server.kill()
    ev = server.events
    ignored = jobs(ev, "reserve-stock", "workerPolicyIgnored")
    check(len(ignored) == 6 and all(e["worker"] == "js-inventory" for e in ignored),
          "the worker's retries ignored, journalled: %s" % ignored)
    retries = jobs(ev, "reserve-stock", "retryScheduled")
    check(len(retries) == 6 and all(e["backoff_us"] == 300000 for e in retries),
          "Winnow's fixed(3, 300ms) re-arms: %s" % retries)
    check(not jobs(ev, "reserve-stock", "workerRearmed"), "no worker-owned retry under EngineAuthoritative")
    completed = jobs(ev, "reserve-stock", "completed")
    check(len(completed) == 3 and all(e["attempt"] == 3 for e in completed), "reserve completed on attempt 3")
    mapped = [e for e in ev if e["kind"] == "node" and e["phase"] == "completed" and e.get("node") == "reserve-stock"]
    check(len(mapped) == 3, "reserve-stock done for every order")
    # the simulated payments worker's verdicts are raw faults here: every order fails (as the bundled
    # order-fulfilment-authoritative example shows)
    check(server.summary["terminated"] == 3, "summary %s" % server.summary)


def extends_its_lock():
    server = Server(SLOW)
    worker = Worker("extender", server.url, "js-slow")
    try:
        worker.expect("complete")
        server.wait()
    finally:
        worker.stop()
        server.kill()
    ev = server.events
    check(server.status == 0, "exit %s: %s" % (server.status, server.stderr))
    extended = jobs(ev, "work", "lockExtended")
    check(len(extended) == 1 and extended[0]["worker"] == "js-slow", "extended %s" % extended)
    check(extended[0]["deadline_us"] - extended[0]["t_us"] == 3000000, "to 3s from then")
    locked = jobs(ev, "work", "locked")
    check(len(locked) == 1 and locked[0]["deadline_us"] == locked[0]["t_us"] + 1000000, "a 1s lock first")
    done = jobs(ev, "work", "completed")
    check(len(done) == 1 and done[0]["t_us"] > locked[0]["deadline_us"], "completed past the first deadline")
    check(not jobs(ev, "work", "lockReclaimed") and not jobs(ev, "work", "reportRejected"), "no takeover")


def crashes_mid_lock():
    server = Server(SLOW)
    crasher = Worker("crasher", server.url, "js-crasher")
    completer = None
    try:
        crasher.expect("locked")
        crasher.proc.wait(timeout=10)
        completer = Worker("completer", server.url, "js-rescuer")
        server.wait()
    finally:
        crasher.stop()
        if completer:
            completer.stop()
        server.kill()
    ev = server.events
    check(server.status == 0, "exit %s: %s" % (server.status, server.stderr))
    locked = jobs(ev, "work", "locked")
    check([e["worker"] for e in locked] == ["js-crasher", "js-rescuer"], "holders %s" % locked)
    reclaimed = jobs(ev, "work", "lockReclaimed")
    check(len(reclaimed) == 1 and reclaimed[0]["worker"] == "js-crasher", "reclaimed from the crasher")
    check(reclaimed[0]["t_us"] > locked[0]["deadline_us"], "only once its lock had expired")
    done = jobs(ev, "work", "completed")
    check(len(done) == 1 and done[0]["worker"] == "js-rescuer", "completed by the rescuer")


def reports_after_expiry():
    server = Server(SLOW)
    late = Worker("late", server.url, "js-late")
    rescuer = None
    try:
        refused = late.expect("refused")
        rescuer = Worker("completer", server.url, "js-rescuer")
        server.wait()
    finally:
        late.stop()
        if rescuer:
            rescuer.stop()
        server.kill()
    ev = server.events
    check(refused["status"] == 400, "Camunda's 400 for the late complete: %s" % refused)
    check("lock expired" in refused["message"], "the message says why: %s" % refused)
    rejected = jobs(ev, "work", "reportRejected")
    check(len(rejected) == 1 and rejected[0]["worker"] == "js-late", "journalled: %s" % rejected)
    locked = jobs(ev, "work", "locked")
    check(rejected[0]["t_us"] > locked[0]["deadline_us"], "after the deadline")
    done = jobs(ev, "work", "completed")
    check(len(done) == 1 and done[0]["worker"] == "js-rescuer", "then another worker completed it")


def replay_headless(process, session, served):
    """Replay a served run's saved session without a server or a worker: the
    journal must be the served run's, byte for byte."""
    journal = os.path.join(WORK, "replay-%d.jsonl" % time.monotonic_ns())
    done = subprocess.run([WINNOW_RUN, process, "--scenario", session, "--journal", journal, "-q"],
                          capture_output=True, text=True, timeout=60)
    with open(journal, "rb") as f:
        replayed = f.read()
    os.unlink(journal)
    check("notice" not in done.stderr, "the replay applied every recorded call: %s" % done.stderr)
    if replayed != served.journal_bytes:
        a, b = served.journal_bytes.decode().splitlines(), replayed.decode().splitlines()
        first = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
        raise AssertionError("replayed journal differs at line %d (%d vs %d lines):\n  served:   %s\n  replayed: %s"
                             % (first + 1, len(a), len(b), a[first] if first < len(a) else "-",
                                b[first] if first < len(b) else "-"))
    return json.load(open(session))


def recorded_and_replayed():
    """The worked example served to the JS worker (trusted; and one that crashes mid-lock on the
    slow process), saved with --save-session, replays headless to the same journal."""
    for process, args, modes in ((EXAMPLE, ["--external-topic", "reserve"], [("inventory", "js-inventory")]),
                                 (SLOW, [], [("crasher", "js-crasher"), ("completer", "js-rescuer")])):
        session = os.path.join(WORK, "session-%d.json" % time.monotonic_ns())
        server = Server(process, "--save-session", session, *args)
        workers = []
        try:
            for i, (mode, worker_id) in enumerate(modes):
                workers.append(Worker(mode, server.url, worker_id))
                if mode == "crasher":
                    workers[-1].expect("locked")
                    workers[-1].proc.wait(timeout=10)
            server.wait()
        finally:
            for w in workers:
                w.stop()
            server.kill()
        check(server.status == 0, "exit status %s: %s" % (server.status, server.stderr))
        saved = replay_headless(process, session, server)
        os.unlink(session)
        calls = [c["call"] for c in saved["x-winnow"]["commands"] if c["op"] == "external"]
        check(saved["x-winnow"].get("outsideWorkers") is True, "the session says outside workers served it")
        check(calls and all(c["workerId"] in {w for _, w in modes} for c in calls if "workerId" in c),
              "the outside calls are recorded with their worker ids: %s" % calls[:3])
        check({c["endpoint"] for c in calls} >= {"fetchAndLock", "complete"}, "fetches and reports recorded")


TESTS = [worked_example_trusted, worked_example_authoritative, extends_its_lock, crashes_mid_lock,
         reports_after_expiry, recorded_and_replayed]


def main():
    if NODE is None or NPM is None:
        print("1..0 # SKIP node or npm is missing (scripts/deps.sh installs them)")
        return 77
    print("1..%d" % len(TESTS))
    try:
        prepare()
    except (subprocess.CalledProcessError, OSError) as e:
        print("Bail out! npm ci failed: %s" % e)
        return 1
    failed = 0
    for i, test in enumerate(TESTS, 1):
        try:
            test()
            print("ok %d %s" % (i, test.__name__))
        except Exception as e:  # a failed check, a timeout, a worker that never spoke
            failed += 1
            print("not ok %d %s" % (i, test.__name__))
            for line in str(e).splitlines():
                print("# " + line)
        sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
