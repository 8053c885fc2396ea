"""Grading one lab for a list of submissions: the session (reference build, template, secret),
then per submission: unpack and build (prepare), then its hidden cases (hidden_cases.py), its
performance (performance.py), its sanitizer runs (sanitizer_runs.py) and its score (scoring.py)."""
import dataclasses
import os
import re
import shutil
import subprocess
import time

from . import build, cases, gpu_pool, hidden_cases, memory_hold, performance, reports, sandbox, sanitizer_runs, sanitizer_tools, scoring, spec as specs, submission
from .spec import KIT

RAW_LIMIT = 1 << 31  # bytes of one raw result file the checker takes (an 8192x8192x3 float image is 805 MB)


@dataclasses.dataclass
class Submission:
    """One submission between its build and its grade: what the grader keeps for it (its identity,
    its folder, its own cases, its binary) and `result`, what the reports show, which each part
    of the grading fills in."""
    name: str
    folder: str
    identity: object
    cases: list
    timed: list
    sanitizer_runs: list
    result: dict
    binary: str = None

    @property
    def safe_name(self):
        return safe_name(self.name)


class Session:
    """What every submission of one grading run shares."""

    def __init__(self, spec, work, secret, isolation, timed=True, sanitized=True, log=print, gpus=None, build_reference=True):
        """gpus: the GPUs to spread the runs over (gpu_pool.Gpu, grade --gpus); None: the machine's
        default GPU, as a plain session. build_reference=False: the reference is built already and
        must not be rebuilt here (a Slurm task: the kit is shared by every node, and a build there
        for this node's GPU would rewrite it under the other tasks)."""
        self.spec = spec
        self.lab = spec["lab"]
        self.work = work
        self.secret = secret
        self.isolation = isolation
        self.do_performance = timed and bool(spec.get("performance"))
        self.do_sanitizer = sanitized and bool(spec.get("sanitizer"))
        self.log = log
        self.reference = build_reference_solution(self.lab) if build_reference else os.path.join(KIT, "build", "bin",
                                                                                                   f"lab{self.lab}-solution")
        if not os.access(self.reference, os.X_OK):
            raise RuntimeError(f"the reference solution of lab {self.lab} is not built ({self.reference})")
        self.case_count = len(cases.hidden_cases(spec, secret))
        self.notes = list(isolation.notes)
        self.gpus = gpu_pool.GpuPool(gpus or [gpu_pool.Gpu(None, "the machine's default GPU")])
        if self.gpus.mixed_note():
            self.notes.append(self.gpus.mixed_note())
        tool = sanitizer_tools.runner(spec)
        if self.do_sanitizer and not shutil.which(tool):
            # Fails closed: what cannot be measured earns nothing (scoring.score gives safety 0).
            self.notes.append(f"{tool} is not installed: the safety points are not graded"
                              + (" (Debian and Ubuntu's package oclgrind)" if tool == "oclgrind" else ""))
            self.do_sanitizer = False
        self.refuse_a_device_the_reference_fails_on()
        self.template = build.make_template(work, self.lab, isolation)
        self.peer = self.do_performance and performance.peer_timed(spec) and performance.peer_timing_works(self)
        # An OpenCL lab's kernels are timed on a GPU alone: elsewhere no timed run is made.
        self.untimed_device = performance.default_device_not_a_gpu(self) if self.do_performance else None
        self.experts = performance.expert_tier(self.reference) if self.do_performance else {}

    def refuse_a_device_the_reference_fails_on(self):
        """Fails closed before anything is graded: the reference solution must pass the first hidden
        case (--check-only) on each GPU of the session. A GPU that nvidia-smi lists but CUDA cannot
        use (a driver that does not match, a GPU that fell off the bus: on a cluster's node, say)
        would otherwise give every submission zero, each recorded as graded. RuntimeError with
        the reference's own last line; a CPU lab has nothing to check. (An OpenCL lab's device is
        whatever its default is, PoCL where there is no GPU.)"""
        self.reference_start_mib = None  # lab 9's yardstick for hidden_cases.held_at_start
        if self.spec.get("cpu_only"):
            return
        args = hidden_cases.case_args(self, cases.hidden_cases(self.spec, self.secret)[0])
        for gpu in self.gpus.gpus:
            env = dict(os.environ, **gpu_pool.environment_of(gpu))
            status, said = reference_checks(self.reference, args, env)
            if status != 0:
                raise RuntimeError(f"the reference solution of lab {self.lab} does not pass a hidden case on {gpu.describe()} "
                                   f"(exit status {status}: {said[:300]}): nothing is graded on a device it fails on")
            if self.spec.get("gpu_to_itself"):
                self.measure_reference_start(gpu, env, args)
                self.reference_passes_held_outside(gpu, env, args)

    def measure_reference_start(self, gpu, env, args):
        """Lab 9 (a GPU to itself): the device memory the reference's graded run has in use when its
        GPUs open, before any variant runs (its rows' device_mib_at_start), the most over the
        session's GPUs: what a submission's graded runs are held to (hidden_cases.held_at_start).
        Fails closed: without it no hidden case could be judged so."""
        done, _ = self.reference_graded_run(gpu, env, args)
        mib = performance.largest_figure(reports.parse(done.stdout) if done and done.returncode == 0 else None, "device_mib_at_start")
        if mib is None:
            raise RuntimeError(f"the reference solution of lab {self.lab} did not say what its GPUs had in use on {gpu.describe()} "
                               f"({last_line(done)}): nothing is graded without it")
        self.reference_start_mib = max(self.reference_start_mib or 0.0, mib)

    def reference_passes_held_outside(self, gpu, env, args):
        """Lab 9: the reference's graded run of the first hidden case, as a submission's is made
        (its graded variants, --raw-out, the trusted compare) with its budget held from outside its
        process (memory_hold.py), passes every graded result and, the hold's memory taken off, has
        no more in use at start than without the hold (hidden_cases.held_at_start): a hold that
        does not fit this GPU would otherwise fail every submission. RuntimeError: nothing is graded."""
        names = sorted({v["name"] for v in self.spec["variants"]})
        with memory_hold.OutsideHold(self, args, env=env) as hold:
            if hold.problem:
                raise RuntimeError(f"lab {self.lab} on {gpu.describe()}: {hold.problem}: nothing is graded without it")
            done, verdicts = self.reference_graded_run(gpu, env, args, ["--variant", ",".join(names)], compare=True)
        wrong = [v["raw"] for v in self.spec["variants"] if verdicts.get(v["raw"], {}).get("status") != "pass"]
        problem = hold.lost or (f"{', '.join(wrong)} did not pass" if wrong else None) or \
            hidden_cases.held_at_start(self, reports.parse(done.stdout) or {}, hold.in_use_mib)
        if problem:
            raise RuntimeError(f"the reference solution of lab {self.lab} does not pass a hidden case on {gpu.describe()} with its "
                               f"budget held from outside its process ({problem}; {last_line(done)}): nothing is graded")

    def reference_graded_run(self, gpu, env, args, extra=(), compare=False):
        """The reference build's graded run of a case (args, and `extra` options of the run alone) on
        `gpu` for the pre-flight (--raw-out into a folder of the grader's own, --format json): (the
        finished process, or None past 600 s; with `compare`, the trusted check's verdicts of what
        it wrote, else {})."""
        out = os.path.join(self.private("reference-runs"), re.sub(r"[^A-Za-z0-9_-]+", "-", gpu.describe()))
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)  # --raw-out takes an existing folder
        try:
            try:
                done = subprocess.run([self.reference, "--check-only", *args, *extra, "--raw-out", out, "--format", "json"],
                                      capture_output=True, text=True, timeout=600, env=env)
            except subprocess.TimeoutExpired:
                done = None
            return done, self._compare(out, args) if compare and done and done.returncode == 0 else {}
        finally:
            shutil.rmtree(out, ignore_errors=True)

    # ---- one submission -------------------------------------------------------------------
    def prepare(self, index, name, path):
        """Unpacks and builds (safe to run in parallel). The index-th submission of the session
        gets an identity of its own, its cases a secret of their own."""
        result = {"student": name, "lab": self.lab, "source": path, "build": {"ok": False, "log": ""}, "missing": [],
                  "ignored": [], "cases": [], "variants": {}, "performance": None, "sanitizer": {}, "notes": [], "seconds": {}}
        folder = os.path.join(self.work, "submissions", safe_name(name))
        own_secret = cases.student_secret(self.secret, name)
        sub = Submission(name=name, folder=folder, identity=self.isolation.identity(index, folder),
                         cases=cases.hidden_cases(self.spec, own_secret), timed=cases.timed_cases(self.spec, own_secret),
                         sanitizer_runs=cases.sanitizer_runs(self.spec, own_secret) if self.do_sanitizer else [], result=result)
        try:
            tree = submission.unpack(path, os.path.join(folder, "handed-in"))
            found, missing, ignored = submission.find_student_files(tree, self.spec["student_files"])
        except (submission.SubmissionError, OSError) as why:
            result["build"]["log"] = f"the submission could not be read: {why}"
            return sub
        result["missing"], result["ignored"] = missing, ignored
        started = time.time()
        made = build.build_submission(self.template, os.path.join(folder, "kit"), found, tree, self.lab, self.isolation,
                                      sub.identity, self.spec.get("build_time_limit_s", 600))
        result["build"] = {"ok": made.ok, "log": made.log if not made.ok else ""}
        result["seconds"]["build"] = round(time.time() - started, 1)
        sub.binary = made.binary(self.lab)
        return sub

    def grade(self, sub):
        """The GPU part, one submission at a time: cases, performance, sanitizer, score. Returns
        the result the reports show."""
        result = sub.result
        if result["build"]["ok"]:
            for phase, run in (("cases", hidden_cases.run_cases),
                               ("performance", performance.measure if self.do_performance else None),
                               ("sanitizer", sanitizer_runs.run_sanitizer if self.do_sanitizer else None)):
                # Safety points need some correctness (scoring.score): with none, the sanitizer runs are skipped.
                nothing_right = all(t["passed"] == 0 for t in result["variants"].values())
                if run and not (phase == "sanitizer" and nothing_right):
                    started = time.time()
                    run(self, sub)
                    result["seconds"][phase] = round(time.time() - started, 1)
        scoring.score(self.spec, result, self.case_count)
        if self.gpus.mixed_note():
            result["machine_note"] = self.gpus.mixed_note()
        self.isolation.take_back(sub.folder)
        return result

    # ---- what the parts share -------------------------------------------------------------
    def scratch(self, sub, name):
        """A fresh folder in the submission's own, where its run may write."""
        out = os.path.join(sub.folder, name)
        os.makedirs(out)
        self.isolation.hand_over(out, sub.identity)
        return out

    def private(self, name):
        """A folder of the grader's own that no submission can read (when the grader is root)."""
        path = os.path.join(self.work, "private", name)
        os.makedirs(path, exist_ok=True)
        os.chmod(os.path.dirname(path), 0o700)
        return path

    def check(self, sub, out, name, args):
        """The raw results a run left in `out`, moved into the grader's own folder (plain files
        only) and checked there; neither copy outlives the check: the right answers of one case
        must not reach a later run."""
        private = self.private(f"{sub.safe_name}-{name}")
        sandbox.collect_files(out, private, RAW_LIMIT)
        shutil.rmtree(out, ignore_errors=True)
        try:
            return self._compare(private, args)
        finally:
            shutil.rmtree(private, ignore_errors=True)

    def write_stage_inputs(self, folder, args):
        """A lab graded stage by stage: the reference build writes, for each stage, the reference's
        values of exactly the buffers it reads, into a folder a stage under `folder` (the grader's
        own: each graded run is given a copy of its stage's folder alone)."""
        done = subprocess.run([self.reference, "--check-only", *args, "--write-stage-inputs", folder], capture_output=True, text=True,
                              timeout=600, env=gpu_pool.child_environment())
        if done.returncode != 0:
            raise RuntimeError(f"the reference could not write the stage inputs of {' '.join(args)}: {done.stderr.strip()[-500:]}")

    def _compare(self, out, args):
        """The trusted check: the reference solution's harness reads the raw results and names
        each verdict by the result it checked (common/grading/raw_check.hpp), the name the spec's "raw"
        gives; which file holds which result is the harness's business alone."""
        done = subprocess.run([self.reference, "--check-only", *args, "--compare", out, "--format", "json"],
                              capture_output=True, text=True, timeout=600, env=gpu_pool.child_environment())
        doc = reports.parse(done.stdout)
        if not doc:
            return {}
        verdicts = {}
        for r in doc["results"]:
            if r["kind"] != "submitted":
                continue
            first = [f"(x={m['x']}, y={m['y']}, channel {m['channel']}): got {m['got']}, expected {m['expected']}"
                     for m in r.get("check", {}).get("first_mismatches", [])[:3]]
            verdicts[r["variant"]] = {"status": "pass" if r["status"] == "pass" else "wrong",
                                      "message": r["message"] + ("; " + "; ".join(first) if first else "")}
        return verdicts


def last_line(done):
    """A finished reference run's last line of stderr (the reason it gives), or that it ran past its limit."""
    return (done.stderr.strip().splitlines() or [""])[-1][:300] if done else "it ran past 600 s"


def reference_checks(reference, args, env):
    """The reference's own checked run of a case (--check-only, its CPU reference in its own
    process): (exit status, or None past 600 s; its last line)."""
    try:
        done = subprocess.run([reference, "--check-only", *args], capture_output=True, text=True, timeout=600, env=env)
    except subprocess.TimeoutExpired:
        return None, "it ran past 600 s"
    return done.returncode, ((done.stderr.strip() or done.stdout.strip()).splitlines()[-1:] or [""])[0]


def build_reference_solution(lab):
    """Builds the kit's reference solution of the lab (as the kit's own build: its architecture
    is the machine's, or CUDA_ARCH's); RuntimeError with the build's end when it fails."""
    done = subprocess.run(["make", "--no-print-directory", build.kit_build_jobs(), f"build/bin/lab{lab}-solution"], cwd=KIT,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"the reference solution of lab {lab} does not build:\n{(done.stdout + done.stderr)[-3000:]}")
    return os.path.join(KIT, "build", "bin", f"lab{lab}-solution")


def safe_name(name):
    """A name as a file name: letters, digits and -_. kept, anything else an underscore."""
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name) or "submission"
