"""Hidden cases several to a process (grading/convlab_grader/case_lists.py, the program's
--case-list), without a GPU: a stand-in program that speaks the protocol and behaves, case by
case, as its arguments say (passes, fails its check, hangs, crashes, ends in a CUDA error, points
its report at a secret through a link), graded through hidden_cases.run_cases with the chunks and
the one-a-process cases after them. Lab 0's batch in make test runs the real thing."""
import json
import os
import shutil
import sys
import tempfile
import time

from testkit import ROOT

sys.path.insert(0, os.path.join(ROOT, "grading"))
from convlab_grader import gpu_pool, hidden_cases  # noqa: E402

# Speaks --case-list as common/cli/case_list.cpp does, and the one-case form. A case's arguments:
# --behave WHAT --raw-out DIR. Every start of it is a line in CALLS (the runs get no environment
# of the grader's: the paths are written into the program).
STAND_IN = r'''#!/usr/bin/env python3
import json, os, signal, sys, time
with open("CALLS", "a") as f:
    f.write(" ".join(sys.argv[1:]) + "\n")

def one(args):
    what, raw = args[args.index("--behave") + 1], args[args.index("--raw-out") + 1]
    if what == "hang":
        time.sleep(600)
    if what == "crash":
        os.kill(os.getpid(), signal.SIGSEGV)
    if what == "slow":
        time.sleep(0.8)
    if what in ("pass", "slow", "link"):
        with open(os.path.join(raw, "v.f32"), "w") as f:
            f.write("right")
    print(json.dumps({"results": [{"variant": "v", "status": "written"}]}))
    return {"pass": 0, "slow": 0, "link": 0, "fail": 1, "cuda": 4}[what]

argv = sys.argv[1:]
if "--case-list" not in argv:
    sys.exit(one(argv))
with open(argv[argv.index("--case-list") + 1]) as f:
    listed = json.load(f)["cases"]
for case in listed:
    log = case["log"]
    out, err = sys.stdout, sys.stderr
    with open(log + ".json", "w") as sys.stdout, open(log + ".err", "w") as sys.stderr:
        status = one(case["args"])
        print("case error output", file=sys.stderr)
    sys.stdout, sys.stderr = out, err
    if "--behave" in case["args"] and case["args"][case["args"].index("--behave") + 1] == "link":
        os.remove(log + ".json")
        os.symlink("SECRET", log + ".json")
    with open(log + ".status.partial", "w") as f:
        f.write(f"{status}\n")
    os.rename(log + ".status.partial", log + ".status")
    if status not in (0, 1):
        break
'''


class Session:
    """What run_cases asks of a grading session, for a spec of one variant `v`."""

    def __init__(self, tmp, limit):
        self.spec = {"variants": [{"name": "v", "raw": "v", "label": "v"}], "time_limit_s": limit, "cases_in_one_process": True}
        self.gpus = gpu_pool.GpuPool([gpu_pool.Gpu(None, "GPU")])
        self.isolation = type("NoIsolation", (), {"prefix": None, "hand_over": lambda self, path, identity: None})()
        self.tmp = tmp

    def scratch(self, sub, name):
        path = os.path.join(sub.folder, name)
        os.makedirs(path)
        return path

    def check(self, sub, out, name, args):  # the trusted side: a result is right when it says so; gone after
        path = os.path.join(out, "v.f32")
        right = os.path.isfile(path) and not os.path.islink(path) and open(path).read() == "right"
        verdicts = {"v": {"status": "pass" if right else "fail", "message": name}} if os.listdir(out) else {}
        shutil.rmtree(out)
        return verdicts


def grade(behaviours, limit=2):
    """run_cases over one case a behaviour; (the tally, each case's row, the program's starts, seconds)."""
    with tempfile.TemporaryDirectory() as tmp:
        secret, calls, program = (os.path.join(tmp, name) for name in ("secret", "calls", "stand-in"))
        with open(secret, "w") as f:
            f.write("THE-SECRET")
        with open(program, "w") as f:
            f.write(STAND_IN.replace('"CALLS"', repr(calls)).replace('"SECRET"', repr(secret)))
        os.chmod(program, 0o755)

        class Sub:
            identity, binary, folder, safe_name, name = None, program, os.path.join(tmp, "sub"), "s", "s"
            cases = [{"behave": b, "size": "7x5", "channels": 1, "border": "zero", "mask": "box:3"} for b in behaviours]
            result = {"cases": []}

        os.makedirs(Sub.folder)
        saved = hidden_cases.case_args
        hidden_cases.case_args = lambda session, case: ["--behave", case["behave"]]
        started = time.monotonic()
        try:
            hidden_cases.run_cases(Session(tmp, limit), Sub)
        finally:
            hidden_cases.case_args = saved
        seconds = time.monotonic() - started
        with open(calls) as f:
            starts = f.read().splitlines()
        leftovers = [entry for entry in os.listdir(Sub.folder)]
        assert not leftovers, f"the chunks' folders are removed: {leftovers}"
        return Sub.result["variants"]["v"], Sub.result["cases"], starts, seconds


def cases_share_processes():
    """Twelve passing cases: four processes (a chunk for each of the 4 slots of one GPU), every
    case passed, each case's report and error output its own."""
    tally, rows, starts, _ = grade(["pass"] * 12)
    assert tally["passed"] == 12 and tally["total"] == 12, tally
    assert len(starts) == 4 and all("--case-list" in s for s in starts), starts
    assert all(r["run"] == "exit status 0" and r["variants"]["v"]["status"] == "pass" for r in rows), rows


def a_hang_costs_one_limit():
    """A case that hangs is killed once its time limit (2 s) passes without another case ending,
    not at its chunk's 8 s; the cases of its chunk after it run one a process and pass. A chunk of
    slow cases (0.8 s each, 3.2 s in all) is not killed, as its cases keep ending."""
    behaviours = ["hang", "slow"] + ["pass"] * 14
    behaviours[5] = behaviours[9] = behaviours[13] = "slow"  # chunk 1 (cases 1, 5, 9, 13): slow
    tally, rows, starts, seconds = grade(behaviours)
    assert "killed after the 2 s time limit" in rows[0]["run"], rows[0]
    assert not [r for r in rows[1:] if "killed" in r["run"]], [r["run"] for r in rows]
    assert tally["passed"] == 15, tally
    singles = sorted(os.path.basename(s.split("--raw-out ")[1].split()[0]) for s in starts if "--case-list" not in s)
    assert len(starts) == 7 and singles == ["case-12", "case-4", "case-8"], starts
    assert seconds < 6.5, f"the hang cost {seconds:.1f} s: its chunk's whole limit, not one case's"


def a_crash_or_cuda_error_ends_the_chunk():
    """A case that crashes its chunk's process, or ends in a CUDA error (exit 4), ends the chunk:
    it and the cases after it run one a process (its own outcome is its own run's), and pass
    where they pass."""
    tally, rows, starts, _ = grade(["pass", "cuda", "crash", "pass", "pass", "pass", "pass", "pass", "pass", "pass", "pass", "pass"])
    assert rows[1]["run"] == "exit status 4", rows[1]
    assert rows[2]["run"].startswith("crashed"), rows[2]
    assert tally["passed"] == 10, tally
    singles = sorted(os.path.basename(s.split("--raw-out ")[1].split()[0]) for s in starts if "--case-list" not in s)
    assert singles == ["case-1", "case-10", "case-2", "case-5", "case-6", "case-9"], starts


def reports_are_read_as_plain_files():
    """A case's report made a link to another file is read as no report, never through the link;
    a failed check is the case's own."""
    tally, rows, _, _ = grade(["link", "fail", "pass", "pass"])
    assert all("THE-SECRET" not in json.dumps(r) for r in rows), rows
    assert rows[1]["variants"]["v"]["status"] != "pass", rows[1]
    assert tally["passed"] == 3, tally


def register(results):
    results.run("grader: hidden cases several to a process (--case-list): four processes for twelve cases, each case its own "
                "report", cases_share_processes)
    results.run("grader: --case-list: a hang costs one case's time limit, the cases after it run alone, slow cases that keep "
                "ending are not killed", a_hang_costs_one_limit)
    results.run("grader: --case-list: a crash or a CUDA error ends the chunk; that case and the rest run alone",
                a_crash_or_cuda_error_ends_the_chunk)
    results.run("grader: --case-list: a case's report is read as a plain file, never through a link", reports_are_read_as_plain_files)
