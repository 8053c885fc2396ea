"""A small test collector shared by convlab's Python tests: each test is a named check that
passes, fails with a reason, or is skipped with a reason; the run ends with one summary line."""
import glob
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "grading"))
from convlab_grader import reports  # noqa: E402  (the grader's reader of reports: one schema check, one figures())

figures = reports.figures


def labs():
    """The kit's labs, by the manifests in labs/."""
    return sorted(int(os.path.basename(os.path.dirname(p))[3:]) for p in glob.glob(os.path.join(ROOT, "labs", "lab*", "manifest")))


class Skip(Exception):
    """Raised by a test that cannot run on this machine (no GPU, no compute-sanitizer...)."""


def outcome_of(fn, *args):
    """Runs one test; returns (outcome, detail, seconds). A broken test is a failed test, not a crashed runner."""
    started = time.time()
    try:
        fn(*args)
    except Skip as why:
        return "skip", str(why), time.time() - started
    except AssertionError as why:
        return "fail", str(why) or "assertion failed", time.time() - started
    except Exception as why:
        return "fail", f"{type(why).__name__}: {why}", time.time() - started
    return "pass", "", time.time() - started


class Results:
    def __init__(self):
        self.passed = self.failed = self.skipped = 0
        self.failures = []

    def record(self, name, outcome, detail="", seconds=None):
        if outcome == "pass":
            self.passed += 1
        elif outcome == "skip":
            self.skipped += 1
        else:
            self.failed += 1
            self.failures.append(f"{name}: {detail}")
        mark = {"pass": "PASS", "skip": "SKIP", "fail": "FAIL"}[outcome]
        line = f"{mark}  {name}"
        if seconds is not None and seconds >= 1:
            line += f"  [{seconds:.0f} s]"  # so a slow test shows itself
        if detail and outcome != "pass":
            line += f"  ({detail.splitlines()[0][:300]})" if outcome == "skip" else "\n      " + detail.replace("\n", "\n      ")
        print(line, flush=True)

    def run(self, name, fn, *args):
        self.record(name, *outcome_of(fn, *args))

    def run_side_by_side(self, tests, workers=None):
        """Runs independent tests (name, fn, *args) at the same time and records them in their order.
        For the GPU suite's check-only runs, whose time goes mostly to the CPU reference: on a 16-core
        machine this is what keeps make test-gpu well inside a 10-minute slot."""
        workers = workers or max(1, min(8, (os.cpu_count() or 2) // 2))
        with ThreadPoolExecutor(workers) as pool:
            started = [(name, pool.submit(outcome_of, fn, *args)) for name, fn, *args in tests]
            for name, future in started:
                self.record(name, *future.result())

    def skip_all(self, names, why):
        for name in names:
            self.record(name, "skip", why)

    def summary_line(self):
        return f"{self.passed} passed, {self.failed} failed, {self.skipped} skipped"


def run(cmd, timeout=300, env=None, cwd=ROOT):
    """Runs a command; returns (exit status, stdout, stderr). A signal shows as a negative status."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    proc = subprocess.run(cmd, cwd=cwd, env=full_env, capture_output=True, text=True, timeout=timeout)
    return proc.returncode, proc.stdout, proc.stderr


def make(*targets, timeout=1800, keep_going=False):
    jobs = f"-j{os.cpu_count() or 2}"
    status, out, err = run(["make", "--no-print-directory", jobs, *(["-k"] if keep_going else []), *targets], timeout=timeout)
    assert status == 0, f"make {' '.join(targets)} failed:\n{(out + err)[-3000:]}"


def lab(binary, *args, env=None, timeout=300):
    return run([os.path.join(ROOT, "build", "bin", binary), *args], env=env, timeout=timeout)


def lab_json(binary, *args, env=None, expect=0):
    status, out, err = lab(binary, *args, "--format", "json", env=env)
    assert status == expect, f"{binary} {' '.join(args)}: exit {status}, expected {expect}\n{err[-2000:]}"
    return reports.load(out, binary)


def peer_timed(timer, worker, args):
    """The reference build as the grader's timer of `worker` (common/grading/peer_timer.hpp), as the grader
    runs them: (timer's JSON, worker's exit status)."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    with ours, theirs:
        bins = os.path.join(ROOT, "build", "bin")
        proc = subprocess.Popen([os.path.join(bins, timer), *args, "--timer-of", str(ours.fileno())], pass_fds=[ours.fileno()],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        ours.close()  # the timer's end is the timer's alone: if it dies, the program sees the socket close
        done = subprocess.run([os.path.join(bins, worker), *args, "--timed-by", str(theirs.fileno())], pass_fds=[theirs.fileno()],
                              capture_output=True, text=True, timeout=300)
    out, err = proc.communicate(timeout=300)
    assert out.strip().startswith("{"), f"the timer wrote no report (exit {proc.returncode}): {err[-2000:]}"
    return reports.load(out, timer), done.returncode


def is_convolution_lab(n):
    """The image labs (common/runner/lab.hpp: image, mask, border options); an array lab's manifest says
    input = arrays (lab 5, common/families/arrays/array_lab.hpp)."""
    sys.path.insert(0, os.path.join(ROOT, "grading"))
    from convlab_grader import manifest
    return manifest.load(n)["input"] == "images"


def gpu_available():
    """True when the lab programs find a usable CUDA device (they exit 3 when they do not)."""
    make("build/bin/lab1-solution")
    status, _, err = lab("lab1-solution", "--check-only", "--size", "8x8", "--variant", "naive-2d-global")
    if status == 3:
        return False
    assert status == 0, f"GPU probe failed with exit {status}: {err[-1000:]}"
    return True



def main_exit(results):
    print(results.summary_line(), flush=True)
    sys.exit(1 if results.failed else 0)


def sanitizer_clean(tool, command, timeout=900):
    """compute-sanitizer's `tool` on a command: it must exit 0 and report no error or hazard."""
    if not shutil.which("compute-sanitizer"):
        raise Skip("compute-sanitizer is not installed")
    status, out, err = run(["compute-sanitizer", f"--tool={tool}", "--error-exitcode=99", *command], timeout=timeout)
    assert status == 0, f"compute-sanitizer {tool}: exit {status}\n{(out + err)[-3000:]}"
    summary = "RACECHECK SUMMARY: 0 hazards" if tool == "racecheck" else "ERROR SUMMARY: 0 errors"
    assert summary in out + err, (out + err)[-2000:]
