"""Grading one lab for a list of submissions: the session (reference build, template, secret),
then per submission: unpack, build, hidden cases, performance, sanitizer, score."""
import concurrent.futures
import json
import os
import shutil
import socket
import statistics
import subprocess
import time

from . import build, cases, sandbox, scoring, submission
from .spec import KIT, max_score

MAX_TIMEOUTS = 2  # after this many hidden cases hit the time limit, the rest count as failed unrun
CASES_AT_ONCE = 4  # hidden cases run side by side (a spec's cases_at_once overrides)
SANITIZER_AT_ONCE = 8  # compute-sanitizer runs side by side (one per border and channel count)
RAW_LIMIT = 1 << 31  # bytes of one raw result file the checker takes (an 8192x8192x3 float image is 805 MB)
FLOOR_SHARE = 0.7  # a time under 70% of the byte or flop model's minimum is impossible, not fast
# Peer timing: what the grader's timer measures around a repetition exceeds the program's own
# event time by the protocol's overhead (fresh input, L2 flush, two messages, the read-back),
# about the same for every program. A submission's overhead beyond the reference's by more than
# this is time its report left out: the report is forged.
PEER_SLACK_MS = 0.05
PEER_SLACK_SHARE = 0.10  # of the time measured from outside


def timed_args(perf):
    """A timed case's arguments, "{cores}" replaced by this machine's core count (lab 0 is timed
    at the machine's core count, as its handout says)."""
    return [arg.replace("{cores}", str(os.cpu_count() or 1)) for arg in perf["args"]]


def checked_seed(spec, perf):
    """The input seed of the timed repetition whose result is checked: the harness gives each
    timed run of a variant (a GPU variant's warm-ups included) a fresh random input, seed + 1 + its
    number, and keeps the last one's result (--fresh-input-each-rep). A CPU lab's variants are
    timed --cpu-reps times with no warm-up."""
    args = perf["args"]
    runs = perf["cpu_reps"] if spec.get("cpu_only") else perf.get("warmup", 2) + perf.get("reps", 15)
    return int(args[args.index("--seed") + 1]) + runs


def cpu_outside_program(ran, doc):
    """Why a CPU lab's timed run cannot be timed by its critical path, or None: the jail counted
    more CPU time for the run's processes than the program used itself (a helper process it
    never waited for). Without a jail there is no count to compare (the guide says so)."""
    own = (doc or {}).get("process_cpu_ms")
    if ran.cpu_ms is None or not isinstance(own, (int, float)):
        return None
    # An honest run differs by what the program does after its report (about 2 ms on lab 0's
    # timed case); a helper that did the work shows as a third of the total or more.
    if ran.cpu_ms - own <= max(20.0, 0.05 * ran.cpu_ms):
        return None
    return (f"{ran.cpu_ms - own:.0f} ms of CPU time went to processes the program did not wait for "
            f"({ran.cpu_ms:.0f} ms for the run, {own:.0f} ms its own): work outside the timed program")


def idle_threads_factor(row):
    """A CPU run that left threads it was given idle is charged as if they had worked at its pace:
    threads given over threads that worked. Where two threads are no faster than one (cores
    that share their units, a VM's stolen time), the critical path alone cannot tell a one-thread
    program from a parallel one; the count of threads that worked can (lab 0 one-thread)."""
    given, worked = row.get("threads"), row.get("busy_threads")
    if not isinstance(given, int) or not isinstance(worked, int) or given <= 1:
        return 1.0
    return given / min(given, max(worked, 1))


def fresh_inputs(spec):
    """Lab 5's own driver does not vary its input between repetitions yet (issue 14 folds it
    into the common harness); every image lab does."""
    return "elements" not in spec


def peer_timed(spec):
    """A GPU image lab is timed by the grader's own process (--timer-of, common/peer_timer.hpp):
    the program's report of its own time is checked against it. Lab 0 has no GPU work; lab 5's
    driver is not on the common harness yet."""
    return fresh_inputs(spec) and not spec.get("cpu_only")


def forged_report(sub_reported, sub_peer, ref_reported, ref_peer):
    """Why the submission's reported times cannot be what its kernels took, or None: the
    time the grader's timer measured around them exceeds them by more than the reference's
    runs show the protocol adds (medians over the runs, so one slow run does not decide)."""
    if not sub_peer or not ref_peer:
        return None
    sub_over = statistics.median(sub_peer) - statistics.median(sub_reported)
    ref_over = statistics.median(ref_peer) - statistics.median(ref_reported)
    allowed = ref_over + PEER_SLACK_MS + PEER_SLACK_SHARE * statistics.median(sub_peer)
    if sub_over <= allowed:
        return None
    return (f"forged time: the program reported {statistics.median(sub_reported):.4g} ms, but the grader's own process "
            f"measured {statistics.median(sub_peer):.4g} ms around it, {sub_over:.4g} ms more where the reference's runs "
            f"show {ref_over:.4g} ms of overhead: no performance points")


def public_args(args):
    """A run's arguments as a report shows them: the input's secret seed left out."""
    shown, skip = [], False
    for arg in args:
        if skip:
            skip = False
        elif arg == "--seed":
            skip = True
        else:
            shown.append(arg)
    return " ".join(shown)


def floor_ms(args, reference_doc):
    """The least time a correct GPU run of this case can take, with FLOOR_SHARE of margin: its
    bytes (one read per input byte, one float written per output value) at the copy bandwidth the
    reference measured, or its flops (2 K^2 per value) at the FP32 peak. None for a case without
    an image (lab 5) or a run without a GPU (lab 0)."""
    device = (reference_doc.get("device") if isinstance(reference_doc, dict) else None) or {}
    bandwidth, peak = device.get("copy_bandwidth_gbs"), device.get("fp32_peak_gflops")
    if not bandwidth or "--size" not in args or "--channels" not in args or "--mask" not in args:
        return None
    w, _, h = args[args.index("--size") + 1].partition("x")
    values = int(w) * int(h or w) * int(args[args.index("--channels") + 1])
    k = cases.mask_size(args[args.index("--mask") + 1])
    bytes_ms = values * 5 / (bandwidth * 1e9) * 1e3
    flops_ms = 2 * k * k * values / (peak * 1e9) * 1e3 if peak else 0.0
    return FLOOR_SHARE * max(bytes_ms, flops_ms)


def run_failure(ran, doc):
    """How a run ended, with the first error its own report gives (a CUDA error such as an illegal
    memory access names itself there)."""
    errors = [r.get("message", "") for r in (doc or {}).get("results", []) if isinstance(r, dict) and r.get("status") == "error"]
    return ran.describe() + (f": {str(errors[0])[:200]}" if errors else "")


def parse_json(text):
    try:
        return json.loads(text)
    except ValueError:
        return None


def timing_groups(perf_cases):
    """The indices of the performance cases, grouped so that cases differing only in the variants
    they time (and the labels they require) share one timed process per run."""
    groups = {}
    for index, perf in enumerate(perf_cases):
        key = json.dumps({k: v for k, v in perf.items() if k not in ("variants", "requires")}, sort_keys=True)
        groups.setdefault(key, []).append(index)
    return list(groups.values())


class Session:
    """What every submission of one grading run shares."""

    def __init__(self, spec, work, secret, isolation, performance=True, sanitizer=True, log=print):
        self.spec = spec
        self.lab = spec["lab"]
        self.work = work
        self.secret = secret
        self.isolation = isolation
        self.do_performance = performance and bool(spec.get("performance"))
        self.do_sanitizer = sanitizer and bool(spec.get("sanitizer"))
        self.log = log
        self.reference = os.path.join(KIT, "build", "bin", f"lab{self.lab}-solution")
        done = subprocess.run(["make", "--no-print-directory", "-j4", f"build/bin/lab{self.lab}-solution"], cwd=KIT,
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"the reference solution of lab {self.lab} does not build:\n{(done.stdout + done.stderr)[-3000:]}")
        self.case_count = len(cases.hidden_cases(spec, secret))
        self.notes = list(isolation.notes)
        if self.do_sanitizer and not shutil.which("compute-sanitizer"):
            self.notes.append("compute-sanitizer is not installed: the safety points are not graded")
            self.do_sanitizer = False
        self.template = build.make_template(work, self.lab, isolation)
        self.peer = self.do_performance and peer_timed(spec) and self._peer_timing_works()

    def _peer_timing_works(self):
        """Peer timing needs two processes on the GPU at once (a GPU in exclusive-process compute
        mode refuses the second) and memory one can export to the other. One small run of the
        reference timing itself tells; without it, a program's report of its own time is trusted
        and the grader's notes say so."""
        perf = {"args": ["--size", "64x64", "--image", "random", "--seed", "1"], "variants": [self.spec["performance"]["cases"][0]["variants"][0]],
                "reps": 1, "warmup": 0, "time_limit_s": 60}
        out = self._private("peer-timing-probe")
        try:
            _, doc, times, _ = self._peer_timed_run(self.reference, out, perf, None)
            works, why = bool(times), str(doc.get("results"))[:300]
        except RuntimeError as e:
            works, why = False, str(e)[:300]
        shutil.rmtree(out, ignore_errors=True)
        if not works:
            self.notes.append("peer timing does not work on this machine (" + why + "): each program's report of its own "
                              "time is trusted, so a forged report above the physical floor is not caught")
        return works

    # ---- one submission -------------------------------------------------------------------
    def prepare(self, index, name, path):
        """Unpacks and builds (safe to run in parallel). Returns the partial result. The index-th
        submission of the session gets an identity of its own, its cases a secret of their own."""
        result = {"student": name, "lab": self.lab, "source": path, "build": {"ok": False, "log": ""}, "missing": [],
                  "ignored": [], "cases": [], "variants": {}, "performance": None, "sanitizer": {}, "notes": []}
        folder = os.path.join(self.work, "submissions", _safe(name))
        identity = self.isolation.identity(index, folder)
        own_secret = cases.student_secret(self.secret, name)
        result["_identity"], result["_folder"] = identity, folder
        result["_cases"] = cases.hidden_cases(self.spec, own_secret)
        result["_timed"] = cases.timed_cases(self.spec, own_secret)
        result["_sanitizer"] = cases.sanitizer_runs(self.spec, own_secret) if self.do_sanitizer else []
        try:
            tree = submission.unpack(path, os.path.join(folder, "handed-in"))
            found, missing, ignored = submission.find_student_files(tree, self.spec["student_files"])
        except (submission.SubmissionError, OSError) as why:
            result["build"]["log"] = f"the submission could not be read: {why}"
            return result
        result["missing"], result["ignored"] = missing, ignored
        started = time.time()
        made = build.build_submission(self.template, os.path.join(folder, "kit"), found, tree, self.lab, self.isolation,
                                      identity, self.spec.get("build_time_limit_s", 600))
        result["build"] = {"ok": made.ok, "log": made.log if not made.ok else ""}
        result["seconds"] = {"build": round(time.time() - started, 1)}
        result["_binary"] = made.binary(self.lab)
        return result

    def grade(self, result):
        """The GPU part, one submission at a time: cases, performance, sanitizer, score."""
        seconds = result.setdefault("seconds", {})
        if result["build"]["ok"]:
            for phase, run in (("cases", self._run_cases), ("performance", self._performance if self.do_performance else None),
                               ("sanitizer", self._sanitizer if self.do_sanitizer else None)):
                # Safety points need some correctness (see _score): with none, the sanitizer runs are skipped.
                nothing_right = all(t["passed"] == 0 for t in result.get("variants", {}).values())
                if run and not (phase == "sanitizer" and nothing_right):
                    started = time.time()
                    run(result)
                    seconds[phase] = round(time.time() - started, 1)
        self._score(result)
        if "_folder" in result:
            self.isolation.take_back(result["_folder"])
        for key in [k for k in result if k.startswith("_")]:
            del result[key]
        return result

    def _run_cases(self, result):
        variants = self.spec["variants"]
        tally = {v["label"]: {"passed": 0, "total": 0, "first_failure": None, "refused": 0} for v in variants}
        timeouts = 0
        # The cases check results, they time nothing: a wave of them runs side by side.
        wave = max(1, int(self.spec.get("cases_at_once", CASES_AT_ONCE)))
        own = result["_cases"]
        for first in range(0, len(own), wave):
            indices = range(first, min(first + wave, len(own)))
            if timeouts >= MAX_TIMEOUTS:  # a hang costs a few limits, not one per case
                done = [(sandbox.Outcome.not_run(f"not run: {MAX_TIMEOUTS} earlier cases hit the time limit"), {}) for _ in indices]
            else:
                with concurrent.futures.ThreadPoolExecutor(max_workers=wave) as pool:
                    done = list(pool.map(lambda index: self._run_case(result, index), indices))
            for index, (ran, verdicts) in zip(indices, done):
                timeouts += ran.timed_out
                self._tally_case(result, tally, index, ran, verdicts)
        # Refusing a mask beyond the limit is right only for a variant that computes the rest:
        # a kernel that writes nothing useful must not score on the cases it is excused from.
        for t in tally.values():
            if t["passed"]:
                t["passed"] += t["refused"]
            elif t["refused"] and t["first_failure"]:
                t["first_failure"] += f" (its {t['refused']} refused cases count only when the others pass)"
            del t["refused"]
        result["variants"] = tally

    def _run_case(self, result, index):
        """Runs hidden case `index` and checks its raw results; returns (outcome, verdicts)."""
        case = result["_cases"][index]
        out = self._scratch(result, f"case-{index}")
        args = cases.input_args(case) + self.spec.get("extra_args", [])
        names = sorted({v["name"] for v in self.spec["variants"]})
        ran = sandbox.run(self.isolation, [result["_binary"], "--check-only", *args, "--variant", ",".join(names),
                                           "--raw-out", out, "--format", "json"], out, self.spec["time_limit_s"],
                          identity=result["_identity"])
        verdicts = self._check(result, out, f"case-{index}", args)
        return ran, verdicts

    def _scratch(self, result, name):
        """A fresh folder in the submission's own, where its run may write."""
        out = os.path.join(result["_folder"], name)
        os.makedirs(out)
        self.isolation.hand_over(out, result["_identity"])
        return out

    def _check(self, result, out, name, args):
        """The raw results a run left in `out`, moved into the grader's own folder (plain files
        only) and checked there; neither copy outlives the check: the right answers of one case
        must not reach a later run."""
        private = self._private(f"{_safe(result['student'])}-{name}")
        sandbox.collect_files(out, private, RAW_LIMIT)
        shutil.rmtree(out, ignore_errors=True)
        try:
            return self._compare(private, args)
        finally:
            shutil.rmtree(private, ignore_errors=True)

    def _tally_case(self, result, tally, index, ran, verdicts):
        """Case `index`'s verdict for every graded variant, into the report and the tally."""
        case = result["_cases"][index]
        own = parse_json(ran.stdout) or {}
        # A variant with a documented size limit earns the case by refusing it, which the
        # program must say itself: a run that died, hung or wrote nothing refused nothing.
        reported = own.get("results", []) if isinstance(own, dict) else []
        skipped = {r.get("variant") for r in reported if isinstance(r, dict) and r.get("status") == "skipped"}
        row = {"case": index, **{k: value for k, value in case.items() if k != "seed"}, "run": ran.describe(), "variants": {}}
        for v in self.spec["variants"]:
            refused = v.get("max_k") and cases.mask_size(case["mask"]) > v["max_k"] and v["name"] in skipped
            verdict = verdicts.get(v["raw"])
            if verdict is None:
                verdict = {"status": "pass" if refused else "no result", "message": "refused, as it must be" if refused
                           else self._why_no_result(ran, own, v["name"])}
            row["variants"][v["label"]] = verdict
            t = tally[v["label"]]
            t["total"] += 1
            if refused:
                t["refused"] += 1
            elif verdict["status"] == "pass":
                t["passed"] += 1
            elif t["first_failure"] is None:
                t["first_failure"] = f"case {index} ({cases.describe(case)}): {verdict['status']}: {verdict['message']}"
        result["cases"].append(row)

    def _compare(self, out, args):
        """The trusted check: the reference solution's harness reads the raw results and names
        each verdict by the result it checked (common/raw_check.hpp), the name the spec's "raw"
        gives; which file holds which result is the harness's business alone."""
        done = subprocess.run([self.reference, "--check-only", *args, "--compare", out, "--format", "json"],
                              capture_output=True, text=True, timeout=600)
        doc = parse_json(done.stdout)
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

    @staticmethod
    def _why_no_result(ran, own, variant):
        if ran.timed_out or ran.crashed:
            return ran.describe()
        for r in own.get("results", []) if isinstance(own, dict) else []:
            # "fail" without a raw result: the harness refused to write one (a GPU variant that launched no kernel)
            if r.get("variant") == variant and r.get("status") in ("not-implemented", "error", "skipped", "fail"):
                return f"{r['status']}: {r.get('message', '')}"[:300]
        return f"no result written ({ran.describe()}); {ran.stderr.strip()[-200:]}"

    def _timed_run(self, binary, out, perf, identity):
        """One timed process: the submission's (with its identity, jailed) or the reference's
        (identity None). Returns (outcome, its JSON, median ms per variant that reports a pass)."""
        # A lab that also times its CPU reference says in the spec how often (lab 5 has none).
        cpu = ["--cpu-reps", str(perf["cpu_reps"])] if "cpu_reps" in perf else []
        fresh = ["--warmup", str(perf.get("warmup", 2)), "--fresh-input-each-rep"] if fresh_inputs(self.spec) else []
        # A CPU lab is timed by its critical path (the busiest thread's CPU time, common/cpu_work.hpp),
        # which another program on the machine does not stretch as it does the wall clock; OpenMP's
        # threads must sleep, not spin, while they wait for that to hold.
        cpu_lab = bool(self.spec.get("cpu_only"))
        ran = sandbox.run(self.isolation, [binary, *timed_args(perf), "--variant", ",".join(perf["variants"]), "--reps",
                                           str(perf.get("reps", 15)), *cpu, *fresh, "--format", "json", "--raw-out", out], out,
                          perf.get("time_limit_s", 300), identity=identity, env={"OMP_WAIT_POLICY": "passive"} if cpu_lab else None)
        doc = parse_json(ran.stdout) or {}
        outside = cpu_outside_program(ran, doc) if cpu_lab else None
        if outside:  # its critical path missed that work: no time counts from this run
            return ran, {"results": [{"status": "error", "message": outside}]}, {}
        clock = "critical_path" if cpu_lab else "time"
        times = {r["variant"]: r[clock]["median_ms"] * (idle_threads_factor(r) if cpu_lab else 1) for r in doc.get("results", [])
                 if isinstance(r, dict) and r.get("status") == "pass" and isinstance(r.get(clock), dict)
                 and isinstance(r[clock].get("median_ms"), (int, float))}
        return ran, doc, times

    def _peer_timed_run(self, binary, out, perf, identity):
        """One timed run of a GPU lab: the program (the submission's, jailed, or the reference's)
        serves the grader's timer, the reference build run as `--timer-of` by the grader, which
        makes the inputs, reads and checks the results, and reports. Returns (the program's
        outcome, the timer's JSON, the program's own median ms per variant the timer passed, the
        timer's median ms for the same variants)."""
        args = [*timed_args(perf), "--variant", ",".join(perf["variants"]), "--reps", str(perf.get("reps", 15)),
                "--warmup", str(perf.get("warmup", 2)), "--format", "json"]
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        limit = perf.get("time_limit_s", 300)
        try:
            timer = subprocess.Popen([self.reference, *args, "--timer-of", str(ours.fileno())], pass_fds=[ours.fileno()],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            ours.close()
            ran = sandbox.run(self.isolation, [binary, *args, "--timed-by", str(theirs.fileno())], out, limit,
                              identity=identity, pass_fds=[theirs.fileno()])
        finally:
            ours.close()
            theirs.close()  # the timer sees the end of the conversation, whatever the program left running
        try:
            stdout, stderr = timer.communicate(timeout=limit + 60)
        except subprocess.TimeoutExpired:
            timer.kill()
            stdout, stderr = timer.communicate()
        doc = parse_json(stdout) or {}
        if not doc and identity is None:
            raise RuntimeError(f"the grader's timer failed: {stderr.strip()[-500:]}")
        times, peer = {}, {}
        for r in doc.get("results", []):
            if r.get("status") == "pass" and r.get("time") and r.get("peer_time"):
                times[r["variant"]] = r["time"]["median_ms"]
                peer[r["variant"]] = r["peer_time"]["median_ms"]
        return ran, doc, times, peer

    def _may_earn(self, result, perf):
        """Performance is paid for correct work only: a timed case may earn points when every label
        it requires (spec.py checks that those are its variants' labels) passed every hidden case."""
        def passed_all(label):
            t = result["variants"].get(label, {})
            return bool(t.get("total")) and t["passed"] == t["total"]
        return all(passed_all(label) for label in perf["requires"])

    def _performance(self, result):
        """Submission and reference interleaved, runs x each; per case the best of its listed
        variants, when they all passed every hidden case. Each timed run's result is checked by the
        trusted checker too (the result of its last repetition, on an input of its own): a variant counts
        in a run only when that result is right. Cases that differ only in their variants share
        each timed run (lab 5 times five variants at one length: one process per run, not five)."""
        spec = self.spec["performance"]
        state = []
        for perf in result["_timed"]:
            may = self._may_earn(result, perf)
            state.append({"perf": perf, "sub": [], "ref": [], "sub_peer": [], "ref_peer": [], "done": not may, "floor": [],
                          "problem": None if may else "a variant it times failed a hidden case: no performance points"})
        for group_number, group in enumerate(timing_groups(result["_timed"])):
            for run in range(spec.get("runs", 3)):
                active = [state[i] for i in group if not state[i]["done"]]
                if not active:
                    break
                timed = dict(active[0]["perf"], variants=sorted({v for c in active for v in c["perf"]["variants"]}))
                name = f"perf-{group_number}-{run}"
                out = self._scratch(result, name)
                peer = self.peer
                if peer:  # the timer checked every repetition itself
                    ran, doc, times, peer_times = self._peer_timed_run(result["_binary"], out, timed, result["_identity"])
                    shutil.rmtree(out, ignore_errors=True)
                    right = set(times)
                else:
                    ran, doc, times = self._timed_run(result["_binary"], out, timed, result["_identity"])
                    compare_args = cases.with_seed(timed_args(timed), checked_seed(self.spec, timed)) if fresh_inputs(self.spec) else timed_args(timed)
                    verdicts = self._check(result, out, name, compare_args)
                    right = {v for v, t in times.items() if verdicts.get(v, {}).get("status") == "pass"}
                for c in active:
                    if not right & set(c["perf"]["variants"]):
                        c["problem"], c["done"] = f"no timed variant produced a right result ({run_failure(ran, doc)})", True
                active = [c for c in active if not c["done"]]
                if not active:
                    continue
                # The reference's results are right answers: none is kept once its times are read.
                ref_out = self._private(f"reference-{_safe(result['student'])}-{group_number}-{run}")
                if peer:
                    _, ref_doc, ref_times, ref_peer = self._peer_timed_run(self.reference, ref_out, timed, None)
                else:
                    _, ref_doc, ref_times = self._timed_run(self.reference, ref_out, timed, None)
                shutil.rmtree(ref_out, ignore_errors=True)
                for c in active:
                    mine = min(right & set(c["perf"]["variants"]), key=lambda v: times[v])
                    theirs = [v for v in c["perf"]["variants"] if v in ref_times]
                    if not theirs:
                        raise RuntimeError(f"the reference solution did not time {c['perf']['variants']}: {ref_doc.get('results')}")
                    best = min(theirs, key=lambda v: ref_times[v])
                    c["sub"].append(times[mine])
                    c["ref"].append(ref_times[best])
                    if peer:
                        c["sub_peer"].append(peer_times[mine])
                        c["ref_peer"].append(ref_peer[best])
                    c["floor"].append(floor_ms(timed_args(c["perf"]), ref_doc))
                    # Far past the curve's end: more runs cannot earn a point, only cost minutes.
                    c["done"] = c["sub"][-1] > 2 * spec["zero_at"] * c["ref"][-1]
        cases_done = []
        for c in state:
            ratio = None if c["problem"] else statistics.median(c["sub"]) / statistics.median(c["ref"])
            floors = [f for f in c["floor"] if f]
            floor = max(floors) if floors else None
            forged = forged_report(c["sub"], c["sub_peer"], c["ref"], c["ref_peer"]) if ratio is not None else None
            if forged:
                c["problem"], ratio = forged, None
            if ratio is not None and floor and min(c["sub"]) < floor:
                c["problem"] = (f"impossible time: {min(c['sub']):.4g} ms is faster than the physical floor of {floor:.4g} ms "
                                "(the byte model at the measured copy bandwidth, or the flops at the FP32 peak): no performance points")
                ratio = None
            cases_done.append({"args": public_args(timed_args(c["perf"])), "variants": c["perf"]["variants"],
                               "submission_ms": statistics.median(c["sub"]) if c["sub"] else None,
                               "reference_ms": statistics.median(c["ref"]) if c["ref"] else None, "ratio": ratio,
                               "fraction": scoring.performance_fraction(ratio, spec["slack"], spec["zero_at"]), "problem": c["problem"],
                               "floor_ms": floor,
                               # every run, so that a reader (and the self-test) can see how noisy the machine was
                               "submission_runs_ms": c["sub"], "reference_runs_ms": c["ref"],
                               # the grader's timer around the same runs (peer timing; empty for labs 0 and 5)
                               "submission_peer_runs_ms": c["sub_peer"], "reference_peer_runs_ms": c["ref_peer"]})
        fractions = [c["fraction"] for c in cases_done]
        result["performance"] = {"cases": cases_done, "fraction": sum(fractions) / len(fractions) if fractions else 0.0}

    def _private(self, name):
        """A folder of the grader's own that no submission can read (when the grader is root)."""
        path = os.path.join(self.work, "private", name)
        os.makedirs(path, exist_ok=True)
        os.chmod(os.path.dirname(path), 0o700)
        return path

    def _sanitizer(self, result):
        """compute-sanitizer on every border and channel count (cases.sanitizer_runs), the runs
        side by side. A tool is clean when every one of its runs is."""
        s = self.spec["sanitizer"]
        runs = result["_sanitizer"]

        def one_run(numbered):
            number, (tool, args) = numbered
            out = self._scratch(result, f"sanitizer-{number}")
            ran = sandbox.run(self.isolation, ["compute-sanitizer", f"--tool={tool}", "--error-exitcode=99", "--print-limit=5",
                                               result["_binary"], "--check-only", *args, "--variant", ",".join(s["variants"])],
                              out, s.get("time_limit_s", 180), identity=result["_identity"])
            shutil.rmtree(out, ignore_errors=True)
            text = ran.stdout + ran.stderr
            # --error-exitcode=99 marks the tool's findings; the lab's own exit 1 (its check) is not one.
            clean = not ran.timed_out and not ran.crashed and ran.status != 99
            found = [line.strip() for line in text.splitlines() if line.startswith("========= ") and
                     ("Invalid" in line or "hazard" in line.lower() or "error" in line.lower())][:4]
            return tool, args, clean, ran, found

        with concurrent.futures.ThreadPoolExecutor(max_workers=SANITIZER_AT_ONCE) as pool:
            done = list(pool.map(one_run, enumerate(runs)))
        for tool in s["tools"]:
            mine = [d for d in done if d[0] == tool]
            dirty = [d for d in mine if not d[2]]
            verdict = {"points": s["tools"][tool], "clean": not dirty, "runs": len(mine)}
            if dirty:
                _, args, _, ran, found = dirty[0]
                verdict["run"] = f"{ran.describe()} with {public_args(args)}"
                verdict["findings"] = found
            else:
                verdict["run"] = f"clean in all {len(mine)} runs"
                verdict["findings"] = []
            result["sanitizer"][tool] = verdict

    def _score(self, result):
        rubric = self.spec["rubric"]
        parts = {}
        correctness = 0.0
        for v in self.spec["variants"]:
            t = result["variants"].setdefault(v["label"], {"passed": 0, "total": self.case_count, "first_failure": "not built"})
            t["points"] = v["points"]
            t["score"] = scoring.round_points(scoring.correctness_points(t["passed"], t["total"], v["points"]))
            correctness += t["score"]
        parts["correctness"] = correctness
        perf = result["performance"]
        parts["performance"] = rubric.get("performance", 0) * (perf["fraction"] if perf else 0.0)
        if "safety" in rubric:
            # A kernel that computes nothing is trivially clean: safety counts only with some correctness.
            if result["sanitizer"] and correctness > 0:
                parts["safety"] = sum(t["points"] for t in result["sanitizer"].values() if t["clean"])
                parts["safety"] *= rubric["safety"] / sum(self.spec["sanitizer"]["tools"].values())
            else:
                parts["safety"] = 0.0
        result["deductions"] = []
        if not result["build"]["ok"]:
            result["deductions"].append("the submission does not build: no points")
        for tool, t in result["sanitizer"].items():
            if not t["clean"]:
                result["deductions"].append(f"compute-sanitizer {tool}: {t['run']}; {'; '.join(t['findings']) or 'errors reported'}")
        result["scores"] = {k: scoring.round_points(v) for k, v in parts.items()}
        result["score"] = scoring.round_points(sum(parts.values()))
        result["max_score"] = max_score(self.spec)
        result["manual"] = rubric.get("manual", 0)
        result["rubric"] = rubric


def _safe(name):
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name) or "submission"
