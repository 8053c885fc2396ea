"""The correctness part of grading: the submission's hidden cases, each run once with every graded
variant, its raw results checked by the trusted checker (the reference build's --compare)."""
import concurrent.futures

from . import cases, sandbox, spec

MAX_TIMEOUTS = 2  # after this many hidden cases hit the time limit, the rest count as failed unrun
CASES_AT_ONCE = 4  # hidden cases run side by side (one at a time where the spec says gpu_to_itself)


def run_cases(session, sub):
    """Every hidden case of the submission, a wave of them side by side; each variant's tally of
    cases passed, with its first failure, into the result."""
    variants = session.spec["variants"]
    tally = {v["label"]: {"passed": 0, "total": 0, "first_failure": None, "refused": 0} for v in variants}
    timeouts = 0
    # The cases check results, they time nothing: a wave of them runs side by side.
    wave = spec.runs_at_once(session.spec, CASES_AT_ONCE)
    own = sub.cases
    for first in range(0, len(own), wave):
        indices = range(first, min(first + wave, len(own)))
        if timeouts >= MAX_TIMEOUTS:  # a hang costs a few limits, not one per case
            done = [(sandbox.Outcome.not_run(f"not run: {MAX_TIMEOUTS} earlier cases hit the time limit"), {}) for _ in indices]
        else:
            with concurrent.futures.ThreadPoolExecutor(max_workers=wave) as pool:
                done = list(pool.map(lambda index: run_case(session, sub, index), indices))
        for index, (ran, verdicts) in zip(indices, done):
            timeouts += ran.timed_out
            tally_case(session, sub, tally, index, ran, verdicts)
    # Refusing a mask beyond the limit is right only for a variant that computes the rest:
    # a kernel that writes nothing useful must not score on the cases it is excused from.
    for t in tally.values():
        if t["passed"]:
            t["passed"] += t["refused"]
        elif t["refused"] and t["first_failure"]:
            t["first_failure"] += f" (its {t['refused']} refused cases count only when the others pass)"
        del t["refused"]
    sub.result["variants"] = tally


def run_case(session, sub, index):
    """Runs hidden case `index` and checks its raw results; returns (outcome, verdicts)."""
    case = sub.cases[index]
    out = session.scratch(sub, f"case-{index}")
    args = cases.input_args(case) + session.spec.get("extra_args", [])
    names = sorted({v["name"] for v in session.spec["variants"]})
    ran = sandbox.run(session.isolation, [sub.binary, "--check-only", *args, "--variant", ",".join(names),
                                          "--raw-out", out, "--format", "json"], out, session.spec["time_limit_s"],
                      identity=sub.identity)
    verdicts = session.check(sub, out, f"case-{index}", args)
    return ran, verdicts


def tally_case(session, sub, tally, index, ran, verdicts):
    """Case `index`'s verdict for every graded variant, into the report and the tally."""
    case = sub.cases[index]
    own = sandbox.parse_json(ran.stdout) or {}
    # A variant with a documented size limit earns the case by refusing it, which the
    # program must say itself: a run that died, hung or wrote nothing refused nothing.
    reported = own.get("results", []) if isinstance(own, dict) else []
    skipped = {r.get("variant") for r in reported if isinstance(r, dict) and r.get("status") == "skipped"}
    row = {"case": index, **{k: value for k, value in case.items() if k != "seed"}, "run": ran.describe(), "variants": {}}
    for v in session.spec["variants"]:
        # Beyond its mask-size limit, or a mask it must not compute (lab 6's separable variants
        # and a mask of rank 2): the variant earns the case by refusing it.
        must_refuse = (v.get("max_k") and cases.mask_size(case["mask"]) > v["max_k"]) or case["mask"] in v.get("refuses", [])
        refused = must_refuse and v["name"] in skipped
        verdict = verdicts.get(v["raw"])
        if verdict is None:
            verdict = {"status": "pass" if refused else "no result", "message": "refused, as it must be" if refused
                       else why_no_result(ran, own, v["name"])}
        elif must_refuse and not refused:
            verdict = {"status": "fail", "message": f"computed mask {case['mask']}, which it must refuse"}
        row["variants"][v["label"]] = verdict
        t = tally[v["label"]]
        t["total"] += 1
        if refused:
            t["refused"] += 1
        elif verdict["status"] == "pass":
            t["passed"] += 1
        elif t["first_failure"] is None:
            t["first_failure"] = f"case {index} ({cases.describe(case)}): {verdict['status']}: {verdict['message']}"
    sub.result["cases"].append(row)


def why_no_result(ran, own, variant):
    """Why a run left no raw result for a variant: how it ended, or what its report says."""
    if ran.timed_out or ran.crashed:
        return ran.describe()
    for r in own.get("results", []) if isinstance(own, dict) else []:
        # "fail" without a raw result: the harness refused to write one (a GPU variant that launched no kernel)
        if r.get("variant") == variant and r.get("status") in ("not-implemented", "error", "skipped", "fail"):
            return f"{r['status']}: {r.get('message', '')}"[:300]
    return f"no result written ({ran.describe()}); {ran.stderr.strip()[-200:]}"
