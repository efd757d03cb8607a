#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""winnow-run through the built binary: examples, determinism, errors, options (TAP)."""
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time

RUNNER = sys.argv[1]
SRC = sys.argv[2]
EXAMPLES = os.path.join(SRC, "data", "examples")

# `meson test --setup valgrind` puts every winnow-run under memcheck: the command
# comes one argument per line, and its own exit code marks a memcheck report.
WRAPPER = [a for a in os.environ.get("WINNOW_RUN_WRAPPER", "").split("\n") if a]
WRAPPER_ERROR = 97

# A runner built with AddressSanitizer reserves terabytes of address space at
# start, so it cannot run under an address-space cap: the caps (a guard that
# turns a runaway into a quick failure) are left off there, as under memcheck.
SANITIZED = "libasan" in subprocess.run(["ldd", RUNNER], capture_output=True, text=True).stdout

results = []


def run(*args, env=None, timeout=600, memory=None):
    """memory: a cap on the address space in bytes (not under memcheck), so that a
    run that would take the machine fails quickly instead."""
    full_env = dict(os.environ)
    full_env.update(env or {})

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    p = subprocess.run([*WRAPPER, RUNNER, *args], capture_output=True, text=True, env=full_env,
                       timeout=timeout * (20 if WRAPPER else 1),
                       preexec_fn=cap if memory and not WRAPPER and not SANITIZED else None)
    if WRAPPER and p.returncode == WRAPPER_ERROR:
        raise AssertionError(f"memcheck reported errors for winnow-run {' '.join(args)}:\n{p.stderr[-4000:]}")
    if WRAPPER:
        # keep the runner's own stderr: drop memcheck's lines
        stderr = "".join(l for l in p.stderr.splitlines(True) if not l.startswith("=="))
        return p.returncode, p.stdout, stderr
    return p.returncode, p.stdout, p.stderr


def run_with(args, **popen):
    """winnow-run with the given stdout / preexec_fn …; returns (code, stdout or None, stderr)."""
    popen.setdefault("stdout", subprocess.PIPE)
    p = subprocess.run([*WRAPPER, RUNNER, *args], stderr=subprocess.PIPE, text=True,
                       timeout=600 * (20 if WRAPPER else 1), **popen)
    stderr = "".join(l for l in p.stderr.splitlines(True) if not l.startswith("=="))
    check(p.returncode != WRAPPER_ERROR or not WRAPPER, f"memcheck reported errors:\n{p.stderr[-4000:]}")
    return p.returncode, p.stdout, stderr


def example(name):
    return os.path.join(EXAMPLES, name)


def summary(stdout):
    return json.loads(stdout.strip().splitlines()[-1])


def case(fn):
    results.append(fn)
    return fn


def check(cond, message):
    if not cond:
        raise AssertionError(message)


@case
def worked_example_ends():
    code, out, err = run(example("order-fulfilment.process.json"), "--summary", "json")
    s = summary(out)
    check(code == 0, f"exit {code}: {err}")
    check(s["instances"] == 3 and s["completed"] == 3, s)
    check(s["ends"] == {"shipped": 1, "held": 1, "payment-failed": 1}, s["ends"])
    # reserve-stock: three executions per order (two failures), one authorize each
    check(s["executions"] == 12 and s["retries"] == 6 and s["exhausted"] == 0, s)


@case
def worked_example_trace_shows_retries():
    code, out, err = run(example("order-fulfilment.process.json"))
    check(code == 0, err)
    lines = out.splitlines()
    check(any("workerRetryScheduled" in l and "next in 300ms" in l for l in lines), "no in-process retry in trace")
    check("3 instances: 3 completed" in out, out[-400:])


@case
def authoritative_example_exhausts():
    code, out, err = run(example("order-fulfilment-authoritative.process.json"), "--summary", "json")
    s = summary(out)
    check(code == 1, f"exit {code}")
    check(s["terminated"] == 3 and s["exhausted"] == 3, s)
    check(s["ends"] == {}, s)


@case
def trust_flag_overrides():
    code, out, err = run(example("order-fulfilment.process.json"), "--trust", "engineAuthoritative",
                         "--summary", "json", "-q")
    check(code == 1 and summary(out)["exhausted"] == 3, out)


@case
def showcase_outcomes():
    code, out, err = run(example("error-mapper-showcase.process.json"), "--summary", "json")
    s = summary(out)
    check(s["ends"] == {"charged": 1, "unknown-account": 1, "card-declined": 1}, s)
    check(s["retries"] == 2 and code == 0, s)


@case
def crashed_worker_reclaimed():
    code, out, err = run(example("crashed-worker.process.json"), "--jsonl")
    events = [json.loads(l) for l in out.splitlines()]
    reclaimed = [e for e in events if e["phase"] == "lockReclaimed"]
    check(code == 0, err)
    check(len(reclaimed) == 1 and reclaimed[0]["worker"] == "printer-1", reclaimed)
    check(reclaimed[0]["t_us"] == 5_000_001, reclaimed[0])


@case
def incident_holds():
    code, out, err = run(example("incident-on-exhaustion.process.json"), "--summary", "json", "-q")
    s = summary(out)
    check(code == 1, f"exit {code}")
    check(s["incidents"] == 1 and s["active"] == 1, s)


@case
def parallel_failure_terminates():
    code, out, err = run(example("parallel-branch-failure.process.json"), "--jsonl", "--summary", "json")
    lines = out.splitlines()
    s = json.loads(lines[-1])
    events = [json.loads(l) for l in lines[:-1]]
    check(code == 1 and s["terminated"] == 1, s)
    check(any(e["phase"] == "canceled" and e.get("node") == "pack" for e in events), "pack not canceled")
    check(any(e["phase"] == "reportRejected" for e in events), "no rejected late report")


@case
def monte_carlo_policies():
    base = run(example("flaky-service.process.json"), "-n", "10000", "--summary", "json", "-q")
    fixed = run(example("flaky-service.process.json"), "-n", "10000", "--summary", "json", "-q",
                "--scenario", example("flaky-service.fixed.scenario.json"))
    none = run(example("flaky-service.process.json"), "-n", "10000", "--summary", "json", "-q",
               "--scenario", example("flaky-service.none.scenario.json"))
    sb, sf, sn = summary(base[1]), summary(fixed[1]), summary(none[1])
    for s in (sb, sf, sn):
        check(s["instances"] == 10000 and s["completed"] + s["terminated"] == 10000, s)
        check(set(s["completion_us"]) == {"p50", "p90", "p99", "max"}, s)
    # without retries about 30% fail; with 4 attempts under 1%
    check(2500 < sn["terminated"] < 3500, sn)
    check(sb["terminated"] < 150 and sf["terminated"] < 150, (sb, sf))
    check(sb["completion_us"]["p99"] > sb["completion_us"]["p50"], sb)


@case
def byte_identical_journals():
    with tempfile.TemporaryDirectory() as tmp:
        a, b, c = (os.path.join(tmp, n) for n in ("a", "b", "c"))
        run(example("error-mapper-showcase.process.json"), "-q", "--journal", a)
        run(example("error-mapper-showcase.process.json"), "-q", "--journal", b)
        run(example("error-mapper-showcase.process.json"), "-q", "--journal", c, "--seed", "99")
        ja, jb, jc = (open(p, "rb").read() for p in (a, b, c))
        check(len(ja) > 0 and ja == jb, "same seed, different journals")
        # another seed draws other jitter
        check(ja != jc, "another seed gave the same journal")
        check(b"retryScheduled" in ja, "no retry in the journal")


@case
def jsonl_is_the_journal():
    code, out, err = run(example("order-fulfilment.process.json"), "--jsonl")
    lines = out.splitlines()
    events = [json.loads(l) for l in lines]
    check([e["seq"] for e in events] == list(range(1, len(events) + 1)), "seq not 1, 2, 3 …")
    first = events[0]
    check(list(first)[:4] == ["seq", "t_us", "kind", "phase"], list(first))


@case
def until_stops_active():
    code, out, err = run(example("order-fulfilment.process.json"), "--until", "200ms", "--summary", "json", "-q")
    s = summary(out)
    check(code == 3 and s["active"] == 3, (code, s))
    check("time limit" in err, err)


@case
def until_reports_the_limit():
    # a job still running at the limit: the run stopped at the limit, not at T+0
    with tempfile.TemporaryDirectory() as tmp:
        long_job = write(tmp, "long.process.json", LONG_JOB_PROCESS)
        code, out, err = run(long_job, "--until", "10m", "--summary", "json", "-q")
        s = summary(out)
        check(code == 3 and s["active"] == 1, (code, s))
        check(s["virtual_time_us"] == 600_000_000, s)
        check("stopped at the time limit T+10:00.000 with 1 instance active" in err, err)


@case
def break_stops_headless():
    code, out, err = run(example("order-fulfilment-authoritative.process.json"), "-q",
                         "--break", "job.retriesExhausted@authorize-payment", "--summary", "json")
    check(code == 3, f"exit {code}")
    check("Stopped at T+00:02.157: breakpoint job.retriesExhausted@authorize-payment (hit 1)" in out, out)
    check("Jobs in the dispatcher:" in out and "gated" in out, out)
    check(summary(out)["exhausted"] == 1, out)
    code, out, err = run(example("order-fulfilment.process.json"), "--break", "job.bogus")
    check(code == 2 and "unknown phase" in err, err)
    code, out, err = run(example("order-fulfilment.process.json"), "--break", "node.entered@nowhere")
    check(code == 2 and "nowhere" in err, err)
    # a phase its kind never has could never stop the run
    code, out, err = run(example("order-fulfilment.process.json"), "--break", "job.entered")
    check(code == 2 and "is not a phase of job events" in err and out == "", (code, out, err))


@case
def validate_only():
    code, out, err = run(example("order-fulfilment.process.json"), "--validate")
    check(code == 0 and out == "" and err == "", (code, out, err))


@case
def help_and_version():
    code, out, err = run("--help")
    check(code == 0 and "--scenario" in out and "--on-exhausted" in out and "Exit status" in out, out)
    code, out, err = run("--version")
    check(code == 0 and out.startswith("winnow-run "), out)


@case
def usage_errors():
    for args in (["--trust", "bogus", example("crashed-worker.process.json")],
                 ["--summary", "xml", example("crashed-worker.process.json")],
                 ["--until", "-5s", example("crashed-worker.process.json")],
                 []):
        code, out, err = run(*args)
        check(code == 2 and out == "" and err != "", (args, code, out, err))


# one task on topic t whose worker takes an hour
LONG_JOB_PROCESS = """{
  "format": "winnow.process/1", "id": "long", "engine": { "maxLock": "2h" },
  "nodes": [ { "id": "start", "type": "startEvent" },
             { "id": "task", "type": "serviceTask", "worker": { "topic": "t" } },
             { "id": "done", "type": "endEvent" } ],
  "flows": [ { "id": "f1", "from": "start", "to": "task" }, { "id": "f2", "from": "task", "to": "done" } ],
  "scenario": { "workers": [ { "id": "w", "topic": "t", "responses": [ { "after": "1h", "complete": {} } ] } ] }
}
"""


@case
def numbers_are_decimal():
    # -n and --seed read decimal digits only: "010" is ten, not eight; "0x10" is refused
    process = example("crashed-worker.process.json")
    code, out, err = run(process, "-n", "010", "-q", "--summary", "json")
    check(code == 0 and summary(out)["instances"] == 10, (code, out, err))
    for args in (["-n", "0x10"], ["-n", "+3"], ["-n", "1e2"], ["--seed", "0x10"], ["--seed", "-1"]):
        code, out, err = run(process, *args, "-q")
        check(code == 2 and out == "" and args[1] in err, (args, code, out, err))
    _, ten, _ = run(process, "--seed", "10", "--jsonl")
    _, zero_ten, _ = run(process, "--seed", "010", "--jsonl")
    check(ten == zero_ten, "--seed 010 is not --seed 10")


@case
def longest_duration_refused():
    # 2^63 - 1 us is the engine's "never": a timer that long never fired and the
    # run ended stuck; it is refused at load with the allowed range
    with tempfile.TemporaryDirectory() as tmp:
        process = write(tmp, "timer.process.json", TIMER_PROCESS.replace("DURATION", "9223372036854775807us"))
        code, out, err = run(process, "-q")
        check(code == 2 and out == "", (code, out, err))
        check(err.startswith(process + ":4:") and "nodes[1].duration: duration “9223372036854775807us” is too long: "
              "the longest is 2562047788h00m54.775806s (2^63 − 2 µs)" in err, err)
        # the longest allowed fires, at the end of virtual time
        process = write(tmp, "timer.process.json", TIMER_PROCESS.replace("DURATION", "9223372036854775806us"))
        code, out, err = run(process, "-q", "--summary", "json")
        check(code == 0 and summary(out)["virtual_time_us"] == 9223372036854775806, (code, out, err))


@case
def seed_range_agrees():
    # --seed and a scenario's seed take the same range, 0 to 2^63 - 1 (a JSON
    # integer, which a saved session writes back)
    process = example("crashed-worker.process.json")
    code, out, err = run(process, "--seed", "9223372036854775807", "-q")
    check(code == 0, (code, err))
    code, out, err = run(process, "--seed", "9223372036854775808", "-q")
    check(code == 2 and "--seed takes a whole number from 0 to 9223372036854775807" in err, (code, err))
    with tempfile.TemporaryDirectory() as tmp:
        for seed, expect in (("9223372036854775807", 0), ("9223372036854775808", 2)):
            scenario = write(tmp, "seed.scenario.json", '{ "format": "winnow.scenario/1", "seed": %s }\n' % seed)
            code, out, err = run(process, "--scenario", scenario, "-q")
            check(code == expect, (seed, code, err))
        check(err.startswith(scenario + ":1:42: seed: must be a whole number from 0 to 9223372036854775807"), err)


@case
def zero_instances_refused():
    # -n 0 was ignored (the scenario's instances ran); it is refused like -n -1
    for n in ("0", "-1", "10000001"):
        code, out, err = run(example("crashed-worker.process.json"), "-n", n, "-q")
        check(code == 2 and out == "", (n, code, out, err))
        check("--instances takes a whole number from 1 to 10000000" in err and f"“{n}”" in err, err)
    code, out, err = run("--help")
    check("N ≥ 1" in out, out)


# start -> a timer of DURATION -> end
TIMER_PROCESS = """{
  "format": "winnow.process/1", "id": "timer",
  "nodes": [ { "id": "start", "type": "startEvent" },
             { "id": "wait", "type": "timerEvent", "duration": "DURATION" },
             { "id": "done", "type": "endEvent" } ],
  "flows": [ { "id": "f1", "from": "start", "to": "wait" }, { "id": "f2", "from": "wait", "to": "done" } ]
}
"""


def write(tmp, name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


@case
def input_errors_have_locations():
    with tempfile.TemporaryDirectory() as tmp:
        syntax = write(tmp, "syntax.process.json", '{\n  "format": "winnow.process/1",\n  "id": "x",\n  "nodes": [ }\n')
        code, out, err = run(syntax)
        check(code == 2 and out == "", (code, out))
        check(err.startswith(syntax + ":4:"), err)

        semantic = write(tmp, "bad.process.json", """{
  "format": "winnow.process/1",
  "id": "bad",
  "nodes": [
    { "id": "start", "type": "startEvent" },
    { "id": "t", "type": "serviceTask", "worker": { "topic": "x", "retry": { "policy": "fixed", "maxAttempts": 0, "delay": "1s" } } },
    { "id": "end", "type": "endEvent", "colour": "red" }
  ],
  "flows": [ { "id": "f1", "from": "start", "to": "t" }, { "id": "f2", "from": "t", "to": "end" } ]
}
""")
        code, out, err = run(semantic)
        lines = err.strip().splitlines()
        check(code == 2, code)
        check(any(l.startswith(semantic + ":6:") and "nodes[1].worker.retry.maxAttempts" in l for l in lines), err)
        check(any(l.startswith(semantic + ":7:") and "nodes[2].colour" in l for l in lines), err)

        scenario = write(tmp, "bad.scenario.json", '{ "format": "winnow.scenario/1",\n  "seed": -1 }\n')
        code, out, err = run(example("crashed-worker.process.json"), "--scenario", scenario)
        check(code == 2 and err.startswith(scenario + ":2:") and "seed" in err, err)


@case
def zero_time_retry_loop_stops():
    # always failing, retried at once 4294967295 times: before the fix this ran at
    # t = 0 forever, --until or not; the timeout makes that fail quickly
    with tempfile.TemporaryDirectory() as tmp:
        process = write(tmp, "loop.process.json", """{
  "format": "winnow.process/1", "id": "loop",
  "nodes": [
    { "id": "start", "type": "startEvent" },
    { "id": "call", "type": "serviceTask",
      "worker": { "topic": "svc", "retry": { "policy": "fixed", "maxAttempts": 4294967295, "delay": 0 } } },
    { "id": "done", "type": "endEvent" } ],
  "flows": [ { "id": "f1", "from": "start", "to": "call" }, { "id": "f2", "from": "call", "to": "done" } ],
  "scenario": { "workers": [ { "id": "w", "topic": "svc", "responses": [ { "fail": { "code": "500" } } ] } ] }
}
""")
        for trust in ("workerTrusted", "engineAuthoritative"):
            code, out, err = run(process, "--trust", trust, "--until", "1s", "--summary", "json", timeout=60)
            s = summary(out)
            check(code == 1 and s["terminated"] == 1 and s["executions"] == 10000, (trust, code, s, err))
            check("job i1/j1 (topic svc, node call) executed 10000 times without virtual time passing" in out,
                  out[-2000:])


@case
def doubling_string_stops():
    # a string doubled each virtual second: before the fix it grew until the
    # allocation failed (here at the 1 GiB cap, an abort); now lite refuses it
    with tempfile.TemporaryDirectory() as tmp:
        process = write(tmp, "grow.process.json", """{
  "format": "winnow.process/1", "id": "grow", "variables": { "s": "x" },
  "nodes": [
    { "id": "start", "type": "startEvent" },
    { "id": "twice", "type": "scriptTask", "set": { "s": "s + s" } },
    { "id": "tick", "type": "timerEvent", "duration": "1s" },
    { "id": "end", "type": "endEvent" } ],
  "flows": [ { "id": "f1", "from": "start", "to": "twice" }, { "id": "f2", "from": "twice", "to": "tick" },
             { "id": "f3", "from": "tick", "to": "twice" }, { "id": "f4", "from": "tick", "to": "end" } ]
}
""")
        code, out, err = run(process, "--summary", "json", timeout=60, memory=1 << 30)
        check(code == 1, (code, err[-1000:]))
        s = summary(out)
        check(s["terminated"] == 1 and s["virtual_time_us"] == 20000000, (code, s, err))
        check("script twice: s: at 2: '+' would make a string of 2097152 bytes, over the limit of 1048576" in out,
              out[-2000:])


@case
def sizes_a_run_cannot_hold():
    # each aborted in GLib before: concurrency 4294967295 at once (378 GB), a start
    # count of 4294967295 and -n 100000000 when memory ran out
    with tempfile.TemporaryDirectory() as tmp:
        flaky = json.load(open(example("flaky-service.process.json")))
        flaky["scenario"]["workers"][0]["concurrency"] = 4294967295
        wide = write(tmp, "wide.process.json", json.dumps(flaky, indent=1))
        flaky["scenario"]["workers"][0]["concurrency"] = 50
        flaky["scenario"]["start"] = [{"count": 4294967295}]
        many = write(tmp, "many.process.json", json.dumps(flaky, indent=1))
        for args, message in (([wide], ": scenario.workers[0].concurrency: must be at most 10000"),
                              ([many], ": scenario.start[0].count: would start 4294967295 instances in all, "
                                       "more than the 10000000 a run can hold"),
                              ([example("flaky-service.process.json"), "-n", "100000000"],
                               "--instances takes a whole number from 1 to 10000000, not “100000000”")):
            code, out, err = run(*args, "-q", timeout=60, memory=1 << 30)
            check(code == 2 and out == "" and message in err, (args, code, err[-1000:]))
        check(err.count("\n") == 1, err)


@case
def out_of_memory_stops_with_a_summary():
    if WRAPPER:
        return "skip ten million instances under memcheck"
    if SANITIZED:
        return "skip a memory cap under AddressSanitizer"
    # within the limits, but more than the 512 MiB this run may have: it stops
    # starting instances, says why and prints the summary (exit 3) instead of
    # aborting inside GLib
    code, out, err = run(os.path.join(SRC, "bench", "data", "instant.process.json"), "-n", "10000000",
                         "-q", "--summary", "json", timeout=120, memory=512 << 20)
    check(code == 3, (code, err[-1000:]))
    check("winnow-run: not enough memory for more than " in err and " of the 10000000 of this start were started"
          in err, err[-1000:])
    s = summary(out)
    check(0 < s["instances"] < 10000000 and s["active"] <= s["instances"], s)


@case
def translated_messages():
    localedir = os.environ.get("WINNOW_TEST_LOCALEDIR")
    if not localedir or not os.path.isdir(os.path.join(localedir, "de")):
        return "skip no compiled German catalog in the build"
    code, out, err = run("--help", env={"LANGUAGE": "de", "LC_ALL": "C.UTF-8", "LANG": "de_DE.UTF-8",
                                        "WINNOW_LOCALEDIR": localedir})
    check("Szenario" in out or "Ausgang" in out or "Prozess" in out, out)


EXIT_OUTPUT = 4


@case
def journal_write_error_reported():
    code, out, err = run_with([example("flaky-service.process.json"), "-n", "1000", "-q", "--journal", "/dev/full"])
    check(code == EXIT_OUTPUT, (code, err))
    check("/dev/full" in err and os.strerror(28) in err, err)
    # the summary of a run cut short is not printed
    check(out == "", out)


@case
def stdout_write_errors_reported():
    with open("/dev/full", "w") as full:
        code, _, err = run_with([example("flaky-service.process.json"), "-n", "100", "--jsonl"], stdout=full)
    check(code == EXIT_OUTPUT and "standard output" in err and os.strerror(28) in err, (code, err))
    # the summary alone is written too
    with open("/dev/full", "w") as full:
        code, _, err = run_with([example("order-fulfilment.process.json"), "-q"], stdout=full)
    check(code == EXIT_OUTPUT and "standard output" in err, (code, err))
    # a closed stdout
    code, _, err = run_with([example("order-fulfilment.process.json")], stdout=None,
                            preexec_fn=lambda: os.close(1))
    check(code == EXIT_OUTPUT and os.strerror(9) in err, (code, err))
    # a reader that goes away: a broken pipe, not a silent death by SIGPIPE
    p = subprocess.Popen([*WRAPPER, RUNNER, example("flaky-service.process.json"), "-n", "100000"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read()
    code = p.wait(timeout=600)
    check(code == EXIT_OUTPUT and os.strerror(32) in err, (code, err))


@case
def closed_stdout_keeps_the_journal_clean():
    with tempfile.TemporaryDirectory() as tmp:
        a, b = os.path.join(tmp, "a.jsonl"), os.path.join(tmp, "b.jsonl")
        run_with([example("order-fulfilment.process.json"), "--journal", a])
        # with fd 1 closed the journal must not become stdout
        code, _, err = run_with([example("order-fulfilment.process.json"), "--journal", b], stdout=None,
                                preexec_fn=lambda: os.close(1))
        check(code == EXIT_OUTPUT, (code, err))
        with open(b, "rb") as f:
            journal = f.read()
        with open(a, "rb") as f:
            check(journal == f.read(), journal[:300])


def limit_file_size():
    # writes past 64 KiB fail with EFBIG, as on a full disk
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (65536, 65536))


def check_full_disk_keeps_old_journal(tmp, errno_text, preexec=None):
    journal = os.path.join(tmp, "run.jsonl")
    with open(journal, "w") as f:
        f.write("the previous journal\n")
    code, out, err = run_with([example("flaky-service.process.json"), "-n", "1000", "-q", "--journal", journal],
                              preexec_fn=preexec)
    check(code == EXIT_OUTPUT, (code, err))
    check(journal in err and errno_text in err, err)
    with open(journal) as f:
        check(f.read() == "the previous journal\n", "the old journal was destroyed")
    check(os.listdir(tmp) == ["run.jsonl"], os.listdir(tmp))


@case
def full_disk_keeps_the_old_journal():
    with tempfile.TemporaryDirectory() as tmp:
        check_full_disk_keeps_old_journal(tmp, os.strerror(27), preexec=limit_file_size)


@case
def full_tmpfs_keeps_the_old_journal():
    if os.geteuid() != 0:
        return "skip mounting a tmpfs needs root"
    with tempfile.TemporaryDirectory() as tmp:
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", tmp],
                          capture_output=True).returncode != 0:
            return "skip cannot mount a tmpfs here"
        try:
            check_full_disk_keeps_old_journal(tmp, os.strerror(28))
        finally:
            subprocess.run(["umount", tmp], check=True)


@case
def journal_replaces_atomically():
    with tempfile.TemporaryDirectory() as tmp:
        journal = os.path.join(tmp, "run.jsonl")
        with open(journal, "w") as f:
            f.write("old\n")
        os.chmod(journal, 0o640)
        code, out, err = run_with([example("order-fulfilment.process.json"), "-q", "--journal", journal])
        check(code == 0, err)
        with open(journal) as f:
            lines = f.read().splitlines()
        check(lines[0].startswith('{"seq":1,') and len(lines) > 10, lines[:2])
        check(os.stat(journal).st_mode & 0o777 == 0o640, oct(os.stat(journal).st_mode))
        check(os.listdir(tmp) == ["run.jsonl"], os.listdir(tmp))
        # through a symbolic link: the file it names is replaced, the link stays
        link = os.path.join(tmp, "link.jsonl")
        os.symlink("run.jsonl", link)
        code, out, err = run_with([example("crashed-worker.process.json"), "-q", "--journal", link])
        check(code == 0 and os.path.islink(link), err)
        with open(journal) as f:
            check("lockReclaimed" in f.read(), "the link's file was not written")
        # what cannot be renamed over is written directly
        code, out, err = run_with([example("order-fulfilment.process.json"), "-q", "--journal", "/dev/null"])
        check(code == 0 and err == "", (code, err))
        fifo = os.path.join(tmp, "fifo")
        os.mkfifo(fifo)
        p = subprocess.Popen([*WRAPPER, RUNNER, example("order-fulfilment.process.json"), "-q", "--journal", fifo],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        with open(fifo) as f:
            streamed = f.read().splitlines()
        check(p.wait(timeout=600) == 0 and streamed == lines, streamed[:2])


@case
def output_over_an_input_refused():
    with tempfile.TemporaryDirectory() as tmp:
        process = os.path.join(tmp, "p.json")
        scenario = os.path.join(tmp, "s.json")
        with open(example("flaky-service.process.json")) as f:
            text = f.read()
        with open(process, "w") as f:
            f.write(text)
        with open(example("flaky-service.fixed.scenario.json")) as f:
            scenario_text = f.read()
        with open(scenario, "w") as f:
            f.write(scenario_text)
        os.link(process, os.path.join(tmp, "same.json"))
        for journal in (process, scenario, os.path.join(tmp, "same.json")):
            code, out, err = run_with([process, "-s", scenario, "--journal", journal])
            check(code == 2 and "refusing" in err and journal in err, (journal, code, err))
        with open(process, "a") as f:
            code, out, err = run_with([process, "--jsonl"], stdout=f)
        check(code == 2 and "standard output" in err, (code, err))
        with open(process) as f:
            check(f.read() == text, "the process file was changed")
        with open(scenario) as f:
            check(f.read() == scenario_text, "the scenario file was changed")


FOREVER = """{
  "format": "winnow.process/1",
  "id": "forever",
  "nodes": [
    { "id": "start", "type": "startEvent" },
    { "id": "wait", "type": "timerEvent", "duration": "1s" },
    { "id": "again", "type": "exclusiveGateway", "default": "back" },
    { "id": "end", "type": "endEvent" }
  ],
  "flows": [
    { "id": "f1", "from": "start", "to": "wait" },
    { "id": "f2", "from": "wait", "to": "again" },
    { "id": "back", "from": "again", "to": "wait" },
    { "id": "out", "from": "again", "to": "end", "condition": "1 == 2" }
  ]
}
"""


@case
def signal_ends_the_run_cleanly():
    with tempfile.TemporaryDirectory() as tmp:
        process = write(tmp, "forever.process.json", FOREVER)
        for sig in (signal.SIGINT, signal.SIGTERM):
            journal = os.path.join(tmp, "run.jsonl")
            p = subprocess.Popen([*WRAPPER, RUNNER, process, "-n", "10", "-q", "--summary", "json",
                                  "--journal", journal],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            # the run is under way once its journal (a temporary file until the end) has lines
            deadline = time.monotonic() + 60 * (20 if WRAPPER else 1)
            while time.monotonic() < deadline and p.poll() is None:
                if any(os.path.getsize(os.path.join(tmp, n)) > 10000 for n in os.listdir(tmp) if n != "forever.process.json"):
                    break
                time.sleep(0.01)
            p.send_signal(sig)
            out, err = p.communicate(timeout=600)
            check(p.returncode == 3, (sig, p.returncode, err))
            check("interrupted by " + sig.name in err, err)
            s = summary(out)
            check(s["instances"] == 10 and s["active"] == 10, s)
            with open(journal, "rb") as f:
                data = f.read()
            check(data.endswith(b"\n"), data[-200:])
            events = [json.loads(l) for l in data.splitlines()]
            check([e["seq"] for e in events] == list(range(1, len(events) + 1)), "seq not 1, 2, 3 …")
            check(events[-1]["t_us"] == s["virtual_time_us"], (events[-1], s))
            os.unlink(journal)
            check(os.listdir(tmp) == ["forever.process.json"], os.listdir(tmp))


@case
def input_files_bounded():
    process = example("flaky-service.process.json")
    for args in ([ "/dev/zero"], [process, "--scenario", "/dev/zero"]):
        # a runner that read /dev/zero without end stops at the cap rather than take the machine
        code, out, err = run(*args, memory=2 << 30, timeout=60)
        check(code == 2 and err.startswith("/dev/zero: ") and "character device" in err, (args, code, err))
    code, out, err = run_with([os.path.dirname(process)])
    check(code == 2 and "directory" in err, (code, err))
    size = os.path.getsize(process)
    code, out, err = run_with([process, "--max-input-size", str(size - 1)])
    check(code == 2 and err.startswith(process + ": ") and "larger than the input limit" in err
          and "--max-input-size" in err, (code, err))
    code, out, err = run_with([process, "--max-input-size", str(size), "-q"])
    check(code == 0, (code, err))
    # the default: 64 MiB
    with tempfile.TemporaryDirectory() as tmp:
        big = os.path.join(tmp, "big.process.json")
        with open(big, "w") as f:
            f.truncate(64 * 1024 * 1024 + 1)
        code, out, err = run_with([big])
        check(code == 2 and "larger than the input limit of 64 MiB" in err, (code, err))
    # a pipe is read, within the limit too
    with open(process) as f:
        code, out, err = run_with(["/dev/stdin", "-q", "--summary", "json"], stdin=f)
    check(code == 0 and summary(out)["completed"] == 1, (code, err))
    with open(process) as f:
        code, out, err = run_with(["/dev/stdin", "--max-input-size", "1K"], stdin=f)
    check(code == 2 and "larger than the input limit of 1 KiB" in err, (code, err))
    for bad in ("0", "-1", "1x", "K", "0x10", "99999999999G"):
        code, out, err = run_with([process, "--max-input-size", bad])
        check(code == 2 and "--max-input-size" in err, (bad, code, err))



@case
def saved_commands_that_name_nothing():
    # a hand-edited session: commands that name nothing the run has were taken
    # silently; each is now a notice on stderr (the journal is unchanged: they
    # change nothing, as the operator's own command would not have)
    with tempfile.TemporaryDirectory() as tmp:
        scenario = json.load(open(os.path.join(EXAMPLES, "flaky-service.fixed.scenario.json")))
        scenario["x-winnow"] = {"commands": [
            {"after": 0, "at": "0s", "op": "taskTrust", "node": "nowhere", "trust": "workerTrusted"},
            {"after": 0, "at": "0s", "op": "cancel", "instance": "i999"},
            {"after": 0, "at": "0s", "op": "incidentRetry", "instance": "i1", "node": "quote"},
            {"after": 0, "at": "0s", "op": "inject", "topic": "no.such.topic", "next": {"crash": True}},
            {"after": 99999999, "at": "100h", "op": "cancel", "instance": "i1"},
        ]}
        path = write(tmp, "edited.scenario.json", json.dumps(scenario))
        code, out, err = run(example("flaky-service.process.json"), "--scenario", path, "-q", "--summary", "json")
        notices = [l for l in err.splitlines() if l.startswith("winnow-run: notice: ")]
        check(len(notices) == 5, (code, err))
        check("saved command 1 (taskTrust at T+00:00.000) did not apply: " in notices[0] and "nowhere" in notices[0],
              notices)
        check("i999" in notices[1] and "no.such.topic" in notices[3], notices)
        check("saved command 5 (cancel at " in notices[4] and "the run had ended before it" in notices[4], notices)
        # the journal is the one the scenario alone gives
        _, plain, _ = run(example("flaky-service.process.json"), "--scenario",
                          os.path.join(EXAMPLES, "flaky-service.fixed.scenario.json"), "-q", "--summary", "json")
        check(summary(out) == summary(plain), (summary(out), summary(plain)))

# ---- the policy lab: sweeps, shards, merges (docs/sweeps.md) ----

def lab_sweep(tmp, name="s.sweep.json", **over):
    doc = {"format": "winnow.sweep/1", "process": os.path.abspath(example("flaky-service.process.json")),
           "instances": 300, "seeds": 3,
           "grid": [{"param": "engine.retry.maxAttempts", "values": [2, 4]},
                    {"param": "engine.retry.jitter", "values": [False, True]}]}
    doc.update(over)
    return write(tmp, name, json.dumps(doc, indent=2))


def rows(out):
    return [json.loads(l) for l in out.splitlines() if l.strip()]


@case
def sweep_rows_per_variant():
    with tempfile.TemporaryDirectory() as tmp:
        code, out, err = run("--sweep", lab_sweep(tmp))
        check(code == 1, f"exit {code} (orders fail): {err}")
        r = rows(out)
        check([x["variant"] for x in r] == [0, 1, 2, 3], out[:400])
        check(r[1]["name"] == "engine.retry.maxAttempts=2 engine.retry.jitter=true", r[1]["name"])
        for x in r:
            check(x["instances"] == 900 and x["seeds"] == [1, 2, 3], x)
            check(x["completed"] + x["terminated"] == 900, x)
            check(sum(x["ends"].values()) == x["completed"], x)
            iv = x["rates"]["failed"]
            check(iv["lo"] <= iv["value"] <= iv["hi"], iv)
            check(x["completion_us"]["relative_error"] <= 0.01, x["completion_us"])
        check("compare" not in r[0] and "sentence" in r[2]["compare"], r[2].get("compare"))
        # 4 attempts fail far fewer orders than 2, and the sentence says so
        check(r[2]["compare"]["failed"]["distinguishable"] and "differs from" in r[2]["compare"]["sentence"],
              r[2]["compare"])


@case
def sweep_until_exits_3():
    # runs stopped by the time limit leave instances active: exit 3, as a run
    with tempfile.TemporaryDirectory() as tmp:
        code, out, err = run("--sweep", lab_sweep(tmp, until="300ms", seeds=2))
        check(code == 3, (code, err))
        for x in rows(out):
            check(x["active"] > 0 and x["completed"] + x["terminated"] + x["active"] + x["incidents"] == 600, x)
            check(x["virtual_time_us"] == 300000, x["virtual_time_us"])


@case
def sweep_interrupted_prints_finished_rows():
    # a signal stops the runs in progress; the rows hold the runs that finished
    with tempfile.TemporaryDirectory() as tmp:
        sweep = lab_sweep(tmp, instances=100, seeds=50000,
                          grid=[{"param": "engine.retry.maxAttempts", "values": [2, 4]}])
        for sig, jobs in ((signal.SIGINT, "1"), (signal.SIGTERM, "2")):
            p = subprocess.Popen([*WRAPPER, RUNNER, "--sweep", sweep, "-j", jobs],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            time.sleep(1.5 * (20 if WRAPPER else 1))
            p.send_signal(sig)
            sent = time.monotonic()
            out, err = p.communicate(timeout=600)
            check(time.monotonic() - sent < 10 * (20 if WRAPPER else 1), "the runs went on after the signal")
            check(p.returncode == 3, (sig, p.returncode, err))
            said = [l for l in err.splitlines() if "interrupted by " + sig.name in l]
            check(len(said) == 1, err)
            finished, cells = (int(w) for w in said[0].split(" after ")[1].split(" runs")[0].split(" of "))
            check(0 < finished < cells == 100000, said[0])
            r = rows(out)
            check([x["variant"] for x in r] == [0, 1], out[:400])
            check(sum(len(x["seeds"]) for x in r) == finished, (finished, [len(x["seeds"]) for x in r]))
            for x in r:
                # whole runs only: a run stopped half-way adds nothing
                check(x["seeds_planned"] == 50000 and x["instances"] == 100 * len(x["seeds"]), x["instances"])
                check(x["completed"] + x["terminated"] + x["incidents"] + x["active"] == x["instances"], x)


@case
def sweep_csv():
    import csv
    import io
    with tempfile.TemporaryDirectory() as tmp:
        code, out, err = run("--sweep", lab_sweep(tmp), "--format", "csv")
        table = list(csv.DictReader(io.StringIO(out)))
        check(len(table) == 4, out[:400])
        check(table[3]["engine.retry.maxAttempts"] == "4" and table[3]["engine.retry.jitter"] == "true", table[3])
        _, jl, _ = run("--sweep", lab_sweep(tmp))
        for row, js in zip(table, rows(jl)):
            check(int(row["terminated"]) == js["terminated"] and int(row["p99_us"]) == js["completion_us"]["p99"]["value"],
                  (row, js["completion_us"]))


@case
def shards_merge_to_the_whole_sweep():
    with tempfile.TemporaryDirectory() as tmp:
        sweep = lab_sweep(tmp)
        _, whole, _ = run("--sweep", sweep)
        _, threaded, _ = run("--sweep", sweep, "-j", "2")
        check(threaded == whole, "-j 2 changed the rows")
        parts = []
        for k in (1, 2, 3):
            code, out, err = run("--sweep", sweep, "--shard", f"{k}/3")
            check(code in (0, 1), err)
            check(all("compare" not in x for x in rows(out)), "a shard's rows compare")
            parts.append(write(tmp, f"part-{k}.jsonl", out))
        code, merged, err = run("--merge", *parts)
        check(code == 1 and err == "", (code, err))
        # counts exactly, percentiles too: the histograms merge bucket by bucket
        check(merged == whole, "merged rows differ from the unsharded sweep")
        # a missing shard merges, with a notice
        code, partial, err = run("--merge", parts[0], parts[2])
        check("has 2 of its 3 seeds" in err or "has 1 of its 3 seeds" in err, err)


@case
def merge_refuses_what_does_not_belong():
    with tempfile.TemporaryDirectory() as tmp:
        a = write(tmp, "a.jsonl", run("--sweep", lab_sweep(tmp), "--shard", "1/2")[1])
        other = write(tmp, "b.jsonl", run("--sweep", lab_sweep(tmp, "t.sweep.json", instances=200))[1])
        code, out, err = run("--merge", a, a)
        check(code == 2 and "a.jsonl:1:1: " in err and "is in two rows" in err, err)
        code, out, err = run("--merge", a, other)
        check(code == 2 and "b.jsonl:1:1: a row of sweep " in err, err)
        bad = write(tmp, "bad.jsonl", "\n" + open(a).read().splitlines()[0][:-5] + "\n")
        code, out, err = run("--merge", bad)
        check(code == 2 and err.startswith(f"{bad}:2:"), err)
        code, out, err = run("--merge", write(tmp, "empty.jsonl", "\n"))
        check(code == 2 and "the files hold no rows" in err, (code, err))
        code, out, err = run("--merge", write(tmp, "c.jsonl", '{"format":"nope"}\n'))
        check(code == 2 and "c.jsonl:1:1: format: must be" in err, err)


@case
def sweep_input_errors():
    with tempfile.TemporaryDirectory() as tmp:
        path = write(tmp, "bad.sweep.json", '{\n  "format": "winnow.sweep/1",\n  "process": "%s",\n'
                     '  "grid": [ { "param": "engine.retry.maxAttempt", "values": [3] } ]\n}\n'
                     % os.path.abspath(example("flaky-service.process.json")))
        code, out, err = run("--sweep", path)
        check(code == 2 and out == "", (code, out))
        check(err.startswith(f"{path}:4:62: grid[0].values[0]: unknown parameter engine.retry.maxAttempt"), err)
        # the process a sweep names reports in its own positions
        proc = write(tmp, "p.process.json", '{"format": "winnow.process/1", "id": "p", "nodes": []}')
        code, out, err = run("--sweep", lab_sweep(tmp, process=proc))
        check(code == 2 and err.startswith(proc + ":"), err)
        for args, says in ((["--sweep", lab_sweep(tmp), "--shard", "4/3"], "--shard takes K/N"),
                           (["--sweep", lab_sweep(tmp), example("flaky-service.process.json")], "give no process file"),
                           (["--sweep", lab_sweep(tmp), "--jsonl"], "--jsonl is for a single run"),
                           (["--sweep", lab_sweep(tmp), "--seed", "3"], "set in the sweep file"),
                           (["--sweep", lab_sweep(tmp), "--format", "xml"], "--format takes jsonl or csv"),
                           (["--sweep", lab_sweep(tmp), "-j", "0"], "--jobs takes a whole number from 1"),
                           (["--merge"], "--merge needs the files")):
            code, out, err = run(*args)
            check(code == 2 and says in err, (args, code, err))
        code, out, err = run("--sweep", lab_sweep(tmp), "--validate")
        check(code == 0 and out == "" and err == "", (code, out, err))


@case
def run_sharded_by_seeds():
    with tempfile.TemporaryDirectory() as tmp:
        base = [example("flaky-service.process.json"), "-n", "200", "--seeds", "4", "--trust", "workerTrusted"]
        _, whole, _ = run(*base)
        r = rows(whole)
        check(len(r) == 1 and r[0]["seeds"] == [11, 12, 13, 14] and r[0]["instances"] == 800, r)
        check(r[0]["settings"] == {"engine.trust": "workerTrusted"}, r[0]["settings"])
        parts = [write(tmp, f"p{k}.jsonl", run(*base, "--shard", f"{k}/2")[1]) for k in (1, 2)]
        check(run("--merge", *parts)[1] == whole, "merged seeds differ")
        # one seed of the lab is the plain run with that seed
        _, one, _ = run(example("flaky-service.process.json"), "-n", "200", "--seed", "12", "--trust",
                        "workerTrusted", "-q", "--summary", "json")
        s = summary(one)
        seed12 = [x for x in r[0]["per_seed"] if x["seed"] == 12][0]
        for key in ("completed", "terminated", "executions", "retries", "exhausted"):
            check(seed12[key] == s[key], (key, seed12, s))
        check(seed12["p99"] == s["completion_us"]["p99"], (seed12, s))


@case
def gnu_parallel_recipe():
    # docs/sweeps.md, "On many cores or machines": the recipe as written
    import shutil
    if shutil.which("parallel") is None:
        return "skip GNU parallel is not installed"
    if WRAPPER:
        return "skip not under memcheck"
    with tempfile.TemporaryDirectory() as tmp:
        sweep = lab_sweep(tmp)
        p = subprocess.run(["parallel", "--will-cite", RUNNER, "--sweep", sweep, "--shard", "{}/4", ">",
                            os.path.join(tmp, "part-{}.jsonl"), ":::", "1", "2", "3", "4"],
                           capture_output=True, text=True, timeout=600)
        # parallel exits with the number of failed jobs: the runner's 1 (orders failed) counts
        check(p.returncode <= 4 and p.stderr == "", (p.returncode, p.stderr))
        parts = sorted(os.path.join(tmp, f) for f in os.listdir(tmp) if f.startswith("part-"))
        check(len(parts) == 4, parts)
        check(run("--merge", *parts)[1] == run("--sweep", sweep)[1], "parallel's merge differs")

SLOW = os.path.join(SRC, "tests", "interop", "slow.process.json")


def serve_env():
    """Under AddressSanitizer, libsoup 3.2's own leak of each accepted socket is
    suppressed (tests/lsan.supp), which needs full stacks to be recognised."""
    env = dict(os.environ)
    if SANITIZED:
        env["LSAN_OPTIONS"] = "suppressions=" + os.path.join(SRC, "tests", "lsan.supp") + ":print_suppressions=0"
        env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":fast_unwind_on_malloc=0"
    return env


def serve(*args):
    """winnow-run --serve on a free port; returns (process, base URL)."""
    p = subprocess.Popen([*WRAPPER, RUNNER, SLOW, "--serve", "127.0.0.1:0", *args],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=serve_env())
    line = ""
    while "serving" not in line:
        line = p.stderr.readline()
        check(line, "winnow-run --serve said nothing")
    return p, line.split(" at ")[1].split(" ")[0]


def post(url, body):
    import urllib.request
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        text = response.read()
        return response.status, json.loads(text) if text else None


@case
def serve_usage_errors():
    for args, text in ((["--speed", "2"], "need --serve"),
                       (["--external-topic", "slow"], "need --serve"),
                       (["--serve", "eighty"], "is not [ADDR:]PORT"),
                       (["--serve", "127.0.0.1:99999"], "is not [ADDR:]PORT"),
                       (["--serve", "8080", "--speed", "0"], "--speed takes"),
                       (["--serve", "8080", "--external-topic", "slow"], "no simulated worker serves topic slow"),
                       (["--serve", "8080", "--basic-auth", "nocolon"], "USER:PASSWORD")):
        code, out, err = run(SLOW, *args)
        check(code == 2 and text in err, (args, code, err))


@case
def serve_until_every_instance_ended():
    p, url = serve("--jsonl", "--summary", "json")
    try:
        status, tasks = post(url + "/external-task/fetchAndLock",
                             {"workerId": "py", "maxTasks": 1, "asyncResponseTimeout": 10000,
                              "topics": [{"topicName": "slow", "lockDuration": 5000}]})
        check(status == 200 and tasks[0]["id"] == "i1/j1", tasks)
        status, _ = post(url + "/external-task/i1/j1/complete", {"workerId": "py"})
        check(status == 204, status)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    check(p.returncode == 0, (p.returncode, err))
    lines = out.splitlines()
    check(summary(out)["completed"] == 1, lines[-1])
    events = [json.loads(l) for l in lines[:-1]]
    check([e.get("worker") for e in events if e["phase"] in ("locked", "executing", "completed")
           and e["kind"] == "job"] == ["py", "py", "py"], events)


@case
def serve_interrupted_cleanly():
    p, url = serve("-q", "--summary", "json", "--speed", "10")
    time.sleep(0.3)
    p.send_signal(signal.SIGTERM)
    out, err = p.communicate(timeout=60)
    check(p.returncode == 3 and "interrupted by SIGTERM" in err, (p.returncode, err))
    s = summary(out)
    check(s["active"] == 1 and s["virtual_time_us"] > 1_000_000, s)


@case
def serve_warns_beyond_loopback():
    p = subprocess.Popen([*WRAPPER, RUNNER, SLOW, "--serve", "0.0.0.0:0", "-q"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=serve_env())
    first = p.stderr.readline()
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    check("warning: listening on 0.0.0.0" in first + err, first + err)


BPMN = os.path.join(SRC, "tests", "data", "bpmn", "winnow")


@case
def bpmn_runs_like_its_export():
    """A BPMN model and the winnow.process/1 file it exports give the same journal."""
    model = os.path.join(BPMN, "payment-c7.bpmn")
    scenario = os.path.join(BPMN, "payment-c7.scenario.json")
    with tempfile.TemporaryDirectory() as tmp:
        exported = os.path.join(tmp, "payment.process.json")
        code, _, err = run("--export-json", exported, model)
        check(code == 0 and "payment (process): ignored: documentation" in err, (code, err))
        check(json.load(open(exported))["format"] == "winnow.process/1", exported)
        code_a, out_a, err_a = run("--jsonl", "--scenario", scenario, model)
        code_b, out_b, err_b = run("--jsonl", "--scenario", scenario, exported)
        check(code_a == 0 and code_b == 0, (code_a, code_b, err_a, err_b))
        check(out_a == out_b and '"workerRetryScheduled"' in out_a, "the journals differ")
        code, _, err = run("--export-json", model, model)
        check(code == 2 and "is the input file" in err, (code, err))


@case
def bpmn_process_option():
    """--process picks one of several executable processes; a wrong id lists them."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "two.bpmn")
        with open(path, "w") as f:
            f.write('<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL">'
                    '<process id="a" isExecutable="true"><startEvent id="s1"/><endEvent id="e1"/>'
                    '<sequenceFlow id="f1" sourceRef="s1" targetRef="e1"/></process>'
                    '<process id="b" isExecutable="true"><startEvent id="s2"/><endEvent id="e2"/>'
                    '<sequenceFlow id="f2" sourceRef="s2" targetRef="e2"/></process></definitions>')
        code, _, err = run("--validate", path)
        check(code == 2 and "2 executable processes (a, b): choose one" in err, err)
        code, out, err = run("-q", "--process", "b", path)
        check(code == 0 and "1 completed" in out, (code, out, err))
        code, _, err = run("--validate", "--process", "c", path)
        check(code == 2 and 'no process "c" (the processes are: a, b)' in err, err)


@case
def bpmn_error_rules_run():
    """Camunda 7 error event definitions classify an engine-owned failure as the BPMN error its boundary catches."""
    model = os.path.join(BPMN, "mapped-c7.bpmn")
    scenario = os.path.join(BPMN, "mapped-c7.scenario.json")
    code, out, err = run("--scenario", scenario, model)
    check(code == 0 and "ends: paid 1, refused 1, blocked 1" in out, (code, out, err))
    code, out, _ = run("-q", "--scenario", scenario, model, "--at", "46")
    state = json.loads(out)
    done = [i for i in state["instances"] if i["id"] == "i3"]
    check(done and done[0]["variables"].get("receipt") == "R-1" and done[0]["variables"].get("chargeState") == "captured", done)


@case
def bpmn_time_date_from_epoch():
    """timeDate timers fire at their date counted from the scenario's epoch; without one, the runner says so."""
    model = os.path.join(BPMN, "dates-c7.bpmn")
    code, out, err = run("--jsonl", "--scenario", os.path.join(BPMN, "dates-c7.scenario.json"), model)
    events = [json.loads(line) for line in out.splitlines()]
    opened = [e["t_us"] for e in events if e.get("node") == "opens" and e["phase"] == "completed"]
    fired = [(e["instance"], e["t_us"]) for e in events if e["kind"] == "timer" and e["phase"] == "fired"]
    # epoch 09:00Z: opens at 10:00Z (1 h), or at once for the instance started after it; closes at 11:30+01:00 (1 h 30 min)
    check(code == 0 and opened == [3_600_000_000, 5_340_000_001], (code, opened, err))
    check(fired == [("i2", 5_400_000_000)], fired)
    code, out, err = run("-q", model)
    check(code == 0 and "notice: the timer opens waits for a date, but the scenario sets no epoch" in err, (code, err))


@case
def bpmn_unsupported_listed():
    code, _, err = run("--validate", os.path.join(BPMN, "unsupported.bpmn"))
    lines = err.strip().splitlines()
    check(code == 2 and len(lines) == 4, err)
    check(":5:5: fork (inclusiveGateway): inclusive gateways are not supported yet" in lines[0], lines[0])


@case
def at_prints_the_state():
    # --at N: the journal up to the step that journals event N, then the state as one JSON line
    process = example("order-fulfilment.process.json")
    _, full, _ = run(process, "--jsonl")
    journal = full.splitlines()
    last_seq = 0
    for n in range(1, len(journal) + 1):
        code, out, err = run(process, "--jsonl", "--at", str(n))
        lines = out.splitlines()
        state = json.loads(lines[-1])
        check(code == 0 and err == "", (n, code, err))
        check(state["format"] == "winnow.state/1" and state["seq"] >= n and state["seq"] >= last_seq, (n, state))
        check(lines[:-1] == journal[:state["seq"]], f"--at {n}: not the journal's first {state['seq']} lines")
        check(state["t_us"] == json.loads(journal[state["seq"] - 1])["t_us"], (n, state["t_us"]))
        last_seq = state["seq"]
    code, out, err = run(process, "-q", "--at", "30")
    state = json.loads(out)
    check(code == 0 and len(out.splitlines()) == 1, (code, out))
    check(list(state)[:5] == ["format", "seq", "t_us", "actions", "commands"], list(state))
    check([i["id"] for i in state["instances"]] == ["i1", "i2", "i3"], state["instances"])
    check(all("attempt" not in j and "retries" in j and "executions" in j for j in state["jobs"]), state["jobs"])
    code, out, err = run(process, "-q", "--at", str(len(journal) + 1))
    check(code == 2 and out == "" and f"no event {len(journal) + 1}" in err, (code, out, err))
    code, out, err = run(process, "-q", "--at", "0")
    check(code == 2 and "--at takes a whole number" in err, (code, err))
    code, out, err = run(process, "-q", "--at", "3", "--break", "job.locked")
    check(code == 2 and "cannot be combined" in err, (code, err))
    code, out, err = run("--help")
    check("--at" in out and "EVENT_SEQ" in out, out)


@case
def at_replays_saved_commands():
    # a session's commands replay on the way: the state after an injection shows it
    with tempfile.TemporaryDirectory() as tmp:
        scenario = {"format": "winnow.scenario/1", "x-winnow": {"commands": [
            {"after": 3, "at": "0ms", "op": "clock", "phase": "paused"},
            {"after": 3, "at": "0ms", "op": "start", "variables": {"order": {"id": "late", "amount": 7}}},
        ]}}
        path = write(tmp, "s.scenario.json", json.dumps(scenario))
        process = example("order-fulfilment.process.json")
        _, full, _ = run(process, "--scenario", path, "--jsonl")
        journal = [json.loads(l) for l in full.splitlines()]
        paused = next(e["seq"] for e in journal if e["kind"] == "clock")
        code, out, err = run(process, "--scenario", path, "-q", "--at", str(paused))
        state = json.loads(out)
        # the step of the clock command is that command alone: the start comes after it
        check(code == 0 and state["seq"] == paused and state["commands"] == 1, (code, state))
        check(len(state["instances"]) == 1, state["instances"])
        code, out, err = run(process, "--scenario", path, "-q", "--at", str(paused + 1))
        state = json.loads(out)
        check(state["commands"] == 2 and len(state["instances"]) == 2, state)
        check(state["instances"][1]["variables"]["order"]["id"] == "late", state["instances"])

print(f"1..{len(results)}")
failed = 0
for i, fn in enumerate(results, 1):
    try:
        outcome = fn()
        if isinstance(outcome, str) and outcome.startswith("skip"):
            print(f"ok {i} {fn.__name__} # SKIP {outcome[5:]}")
        else:
            print(f"ok {i} {fn.__name__}")
    except Exception as e:  # noqa: BLE001 - report every failure as TAP
        failed += 1
        print(f"not ok {i} {fn.__name__}")
        for line in str(e).splitlines():
            print(f"# {line}")
sys.exit(1 if failed else 0)
