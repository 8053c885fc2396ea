"""Grading one lab for a list of submissions: the session (reference build, template, secret),
then per submission: unpack, build, hidden cases, performance, sanitizer, score."""
import concurrent.futures
import json
import os
import shutil
import statistics
import subprocess
import time

from . import build, cases, sandbox, scoring, submission
from .spec import KIT, max_score

MAX_TIMEOUTS = 2  # after this many hidden cases hit the time limit, the rest count as failed unrun
CASES_AT_ONCE = 4  # hidden cases run side by side (a spec's cases_at_once overrides)


def raw_name(variant):
    """The file name the harness's --raw-out gives a variant (common/raw_result.cpp)."""
    return "".join(ch if ch.isalnum() or ch == "-" else "_" for ch in variant)


def timed_args(perf):
    """A timed case's arguments, "{cores}" replaced by this machine's core count (lab 0 is timed
    at the machine's core count, as its handout says)."""
    return [arg.replace("{cores}", str(os.cpu_count() or 1)) for arg in perf["args"]]


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
        self.cases = cases.hidden_cases(spec, secret)
        self.notes = list(isolation.notes)
        if self.do_sanitizer and not shutil.which("compute-sanitizer"):
            self.notes.append("compute-sanitizer is not installed: the safety points are not graded")
            self.do_sanitizer = False
        self.template = build.make_template(work, self.lab, isolation)

    # ---- one submission -------------------------------------------------------------------
    def prepare(self, name, path):
        """Unpacks and builds (safe to run in parallel). Returns the partial result."""
        result = {"student": name, "lab": self.lab, "source": path, "build": {"ok": False, "log": ""}, "missing": [],
                  "ignored": [], "cases": [], "variants": {}, "performance": None, "sanitizer": {}, "notes": []}
        folder = os.path.join(self.work, "submissions", _safe(name))
        try:
            tree = submission.unpack(path, os.path.join(folder, "handed-in"))
            found, missing, ignored = submission.find_student_files(tree, self.spec["student_files"])
        except (submission.SubmissionError, OSError) as why:
            result["build"]["log"] = f"the submission could not be read: {why}"
            return result
        result["missing"], result["ignored"] = missing, ignored
        started = time.time()
        made = build.build_submission(self.template, os.path.join(folder, "kit"), found, tree, self.lab, self.isolation,
                                      self.spec.get("build_time_limit_s", 600))
        result["build"] = {"ok": made.ok, "log": made.log if not made.ok else ""}
        result["seconds"] = {"build": round(time.time() - started, 1)}
        result["_binary"] = made.binary(self.lab)
        result["_folder"] = folder
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
        for first in range(0, len(self.cases), wave):
            indices = range(first, min(first + wave, len(self.cases)))
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
        case = self.cases[index]
        out = os.path.join(result["_folder"], f"case-{index}")
        os.makedirs(out)
        self.isolation.hand_over(out)
        args = cases.input_args(case) + self.spec.get("extra_args", [])
        names = sorted({v["name"] for v in self.spec["variants"]})
        ran = sandbox.run(self.isolation, [result["_binary"], "--check-only", *args, "--variant", ",".join(names),
                                           "--raw-out", out, "--format", "json"], out, self.spec["time_limit_s"])
        verdicts = self._compare(out, args)
        # The right answers of a hidden case must not outlive it: a later submission could copy them.
        shutil.rmtree(out, ignore_errors=True)
        return ran, verdicts

    def _tally_case(self, result, tally, index, ran, verdicts):
        """Case `index`'s verdict for every graded variant, into the report and the tally."""
        case = self.cases[index]
        own = parse_json(ran.stdout) or {}
        # A variant with a documented size limit earns the case by refusing it, which the
        # program must say itself: a run that died, hung or wrote nothing refused nothing.
        reported = own.get("results", []) if isinstance(own, dict) else []
        skipped = {r.get("variant") for r in reported if isinstance(r, dict) and r.get("status") == "skipped"}
        row = {"case": index, **{k: value for k, value in case.items() if k != "seed"}, "run": ran.describe(), "variants": {}}
        for v in self.spec["variants"]:
            refused = v.get("max_k") and cases.mask_size(case["mask"]) > v["max_k"] and v["name"] in skipped
            verdict = verdicts.get(raw_name(v["raw"]))
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
        """The trusted check: the reference solution's harness reads the raw results."""
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
            if r.get("variant") == variant and r.get("status") in ("not-implemented", "error", "skipped"):
                return f"{r['status']}: {r.get('message', '')}"[:300]
        return f"no result written ({ran.describe()}); {ran.stderr.strip()[-200:]}"

    def _timed_run(self, binary, out, perf, contained):
        os.makedirs(out, exist_ok=True)
        if contained:
            self.isolation.hand_over(out)
        # A lab that also times its CPU reference says in the spec how often (lab 5 has none).
        cpu = ["--cpu-reps", str(perf["cpu_reps"])] if "cpu_reps" in perf else []
        ran = sandbox.run(self.isolation, [binary, *timed_args(perf), "--variant", ",".join(perf["variants"]), "--reps",
                                           str(perf.get("reps", 15)), *cpu, "--format", "json", "--raw-out", out], out,
                          perf.get("time_limit_s", 300), contained=contained)
        doc = parse_json(ran.stdout) or {}
        times = {r["variant"]: r["time"]["median_ms"] for r in doc.get("results", [])
                 if isinstance(r, dict) and r.get("status") == "pass" and r.get("time")}
        return ran, times

    def _performance(self, result):
        """Submission and reference interleaved, runs x each; per case the best of its listed
        variants. Cases that differ only in their variants share each timed run (lab 5 times five
        variants at one length: one process per run instead of five)."""
        spec = self.spec["performance"]
        state = []
        for perf in spec["cases"]:
            all_right = all(result["variants"][label]["passed"] == result["variants"][label]["total"]
                            for label in perf.get("requires", []))
            state.append({"perf": perf, "sub": [], "ref": [], "done": not all_right,
                          "problem": None if all_right else "a variant it times failed a hidden case: no performance points"})
        for group_number, group in enumerate(timing_groups(spec["cases"])):
            for run in range(spec.get("runs", 3)):
                active = [state[i] for i in group if not state[i]["done"]]
                if not active:
                    break
                timed = dict(active[0]["perf"], variants=sorted({v for c in active for v in c["perf"]["variants"]}))
                out = os.path.join(result["_folder"], f"perf-{group_number}-{run}")
                ran, times = self._timed_run(result["_binary"], out, timed, True)
                verdicts = self._compare(out, timed_args(timed))
                right = {v for v, t in times.items() if verdicts.get(raw_name(v), {}).get("status") == "pass"}
                for c in active:
                    if not right & set(c["perf"]["variants"]):
                        c["problem"], c["done"] = f"no timed variant produced a right result ({ran.describe()})", True
                active = [c for c in active if not c["done"]]
                if not active:
                    continue
                _, ref_times = self._timed_run(self.reference, self._private(f"reference-{group_number}-{run}"), timed, False)
                for c in active:
                    mine = right & set(c["perf"]["variants"])
                    c["sub"].append(min(times[v] for v in mine))
                    c["ref"].append(min(ref_times[v] for v in c["perf"]["variants"]))
                    # Far past the curve's end: more runs cannot earn a point, only cost minutes.
                    c["done"] = c["sub"][-1] > 2 * spec["zero_at"] * c["ref"][-1]
        cases_done = []
        for c in state:
            ratio = None if c["problem"] else statistics.median(c["sub"]) / statistics.median(c["ref"])
            cases_done.append({"args": " ".join(timed_args(c["perf"])), "variants": c["perf"]["variants"],
                               "submission_ms": statistics.median(c["sub"]) if c["sub"] else None,
                               "reference_ms": statistics.median(c["ref"]) if c["ref"] else None, "ratio": ratio,
                               "fraction": scoring.performance_fraction(ratio, spec["slack"], spec["zero_at"]), "problem": c["problem"],
                               # every run, so that a reader (and the self-test) can see how noisy the machine was
                               "submission_runs_ms": c["sub"], "reference_runs_ms": c["ref"]})
        fractions = [c["fraction"] for c in cases_done]
        result["performance"] = {"cases": cases_done, "fraction": sum(fractions) / len(fractions) if fractions else 0.0}

    def _private(self, name):
        """A folder of the grader's own that no submission can read (when the grader is root)."""
        path = os.path.join(self.work, "private", name)
        os.makedirs(path, exist_ok=True)
        os.chmod(os.path.dirname(path), 0o700)
        return path

    def _sanitizer(self, result):
        """Each compute-sanitizer tool on the spec's case; the tools run side by side."""
        s = self.spec["sanitizer"]

        def one_tool(tool):
            out = os.path.join(result["_folder"], f"sanitizer-{tool}")
            os.makedirs(out)
            self.isolation.hand_over(out)
            ran = sandbox.run(self.isolation, ["compute-sanitizer", f"--tool={tool}", "--error-exitcode=99", "--print-limit=5",
                                               result["_binary"], "--check-only", *s["args"], "--variant", ",".join(s["variants"])],
                              out, s.get("time_limit_s", 180))
            text = ran.stdout + ran.stderr
            # --error-exitcode=99 marks the tool's findings; the lab's own exit 1 (its check) is not one.
            clean = not ran.timed_out and not ran.crashed and ran.status != 99
            found = [line.strip() for line in text.splitlines() if line.startswith("========= ") and
                     ("Invalid" in line or "hazard" in line.lower() or "error" in line.lower())][:4]
            return {"points": s["tools"][tool], "clean": clean, "run": ran.describe(), "findings": found}

        tools = list(s["tools"])
        with concurrent.futures.ThreadPoolExecutor(max_workers=len(tools)) as pool:
            for tool, verdict in zip(tools, pool.map(one_tool, tools)):
                result["sanitizer"][tool] = verdict

    def _score(self, result):
        rubric = self.spec["rubric"]
        parts = {}
        correctness = 0.0
        for v in self.spec["variants"]:
            t = result["variants"].setdefault(v["label"], {"passed": 0, "total": len(self.cases), "first_failure": "not built"})
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
