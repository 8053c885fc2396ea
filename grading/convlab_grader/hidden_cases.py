"""The correctness part of grading: the submission's hidden cases, each run once with every graded
variant, its raw results checked by the trusted checker (the reference build's --compare). A lab
graded stage by stage (lab 8, "stages" in its spec) runs each graded stage in a process of its
own, on inputs the trusted side wrote for that stage alone (--write-stage-inputs): no run holds
another stage's answer, and nothing one stage leaves on the device reaches another."""
import concurrent.futures
import os
import secrets
import shutil
import tempfile
import time

from . import case_lists, cases, memory_hold, performance, reports, sandbox, sanitizer_tools, spec
from .phase_seconds import add_seconds, checked

MAX_TIMEOUTS = 2  # after this many hidden cases hit the time limit, the rest count as failed unrun
CASES_AT_ONCE = 4  # hidden cases run side by side (one at a time where the spec says gpu_to_itself)


def run_cases(session, sub):
    """Every hidden case of the submission, a wave of them side by side; each variant's tally of
    cases passed, with its first failure, into the result."""
    variants = session.spec["variants"]
    tally = {v["label"]: {"passed": 0, "total": 0, "first_failure": None, "refused": 0} for v in variants}
    # The cases check results, they time nothing: a wave of them runs side by side.
    # With several GPUs (grade --gpus) a wave is as wide as they are, each case on a slot of one.
    per_gpu = spec.runs_at_once(session.spec, CASES_AT_ONCE)
    wave = per_gpu * session.gpus.count
    own = sub.cases
    done = {}
    if session.spec.get("cases_in_one_process") and not session.spec.get("stages"):
        # a chunk of cases a process (case_lists.py); what the chunks did not get to, one a process below
        done = case_lists.run_in_chunks(session, sub, per_gpu, case_args)
    timeouts = sum(ran.timed_out for ran, _ in done.values())
    left = [index for index in range(len(own)) if index not in done]
    for first in range(0, len(left), wave):
        indices = left[first:first + wave]
        if timeouts >= MAX_TIMEOUTS:  # a hang costs a few limits, not one per case
            ran = [(sandbox.Outcome.not_run(f"not run: {MAX_TIMEOUTS} earlier cases hit the time limit"), {}) for _ in indices]
        else:
            with concurrent.futures.ThreadPoolExecutor(max_workers=wave) as pool:
                ran = list(pool.map(lambda index: run_case(session, sub, index), indices))
        done.update(zip(indices, ran))
        timeouts += sum(outcome.timed_out for outcome, _ in ran)
    for index in range(len(own)):
        tally_case(session, sub, tally, index, *done[index])
    # Refusing a mask is right only for a variant that computes the rest: each refused case counts
    # as much as the variant's share of the cases it had to compute, so a kernel that writes
    # nothing useful earns next to nothing for the cases it is excused from.
    for t in tally.values():
        t["passed"] = refusal_weighted(t["passed"], t["total"], t["refused"])
        if t["refused"] and t["passed"] < t["total"] and t["first_failure"]:
            t["first_failure"] += (f" (its {t['refused']} refused cases count as much as its share of the others passed)")
        del t["refused"]
    sub.result["variants"] = tally


def refusal_weighted(passed, total, refused):
    """Cases passed, the `refused` ones weighted by the share of the other cases passed."""
    computed = total - refused
    if not computed:
        return 0
    if passed == computed:
        return total
    return passed if not refused or not passed else round(passed + refused * passed / computed, 2)


def run_case(session, sub, index):
    """Runs hidden case `index` and checks its raw results; returns (outcome, verdicts)."""
    case = sub.cases[index]
    names = sorted({v["name"] for v in session.spec["variants"]})
    with session.gpus.slot(spec.runs_at_once(session.spec, CASES_AT_ONCE)):  # as many to a GPU as on one GPU
        return graded_run(session, sub, case, f"case-{index}", names, session.spec["time_limit_s"])


def case_args(session, case):
    return cases.input_args(case) + session.spec.get("extra_args", [])


def graded_run(session, sub, case, name, variants, limit, tool=None, log_folder=None, phase=None):
    """The submission's graded binary on one case (under the spec's sanitizer's `tool` if given,
    sanitizer_tools.command, writing its log in `log_folder` where it keeps one),
    its raw results checked by the trusted side. Returns (outcome, verdicts by raw name); in a lab
    graded stage by stage, of one run a graded stage, the outcome that tells most
    (sandbox.Outcome.combined), with the reports of them all. In a lab whose runs have the GPU to
    themselves (lab 9) the run goes with the grader's hold beside it (memory_hold.py), and the
    outcome carries what the hold had in use (held_in_use_mib, for held_at_start). `phase` names
    the part of the grading whose time it is (phase_seconds.py): the sanitizer's, with a tool or
    as a twin without one, else the hidden cases'."""
    args = case_args(session, case)
    phase = phase or ("sanitizer" if tool else "cases")
    extra = ["--sanitized"] if tool else []
    wrap = sanitizer_tools.command(session.spec, tool, log_folder) if tool else []
    if not session.spec.get("stages"):
        out = session.scratch(sub, name)
        with memory_hold.OutsideHold(session, args, tool) as hold:  # lab 9: its budget held from outside
            ran = sandbox.Outcome.not_held(hold.problem) if hold.problem else \
                sandbox.run(session.isolation, [*wrap, sub.binary, "--check-only", *args, "--variant", ",".join(variants),
                                                "--raw-out", out, *extra, "--format", "json"], out, limit, identity=sub.identity)
        if hold.lost:
            ran = sandbox.Outcome.not_held(hold.lost)
        ran.held_in_use_mib = hold.in_use_mib
        add_seconds(sub, phase, "its runs", ran.seconds)
        return ran, checked(session, sub, phase, out, name, args)
    inputs = session.private(f"{sub.safe_name}-{name}-inputs")
    try:
        started = time.monotonic()
        session.write_stage_inputs(inputs, args)
        add_seconds(sub, phase, "stage inputs", time.monotonic() - started)
        outcomes, verdicts = [], {}
        for v in session.spec["variants"]:
            if v["name"] not in variants:
                continue
            stage = spec.stage_of(session.spec, v)
            label = cases.raw_file_stem(v["raw"])  # the folder --write-stage-inputs made for it
            # The stage's inputs are copied in the grader's own folder, then moved whole into the
            # submission's under a name no run can foresee, readable and not the submission's:
            # the grader never writes through a path that a run could have planted (a link).
            staged = tempfile.mkdtemp(prefix="stage-", dir=inputs)
            for entry in os.listdir(os.path.join(inputs, label)):
                shutil.copyfile(os.path.join(inputs, label, entry), os.path.join(staged, entry))
                os.chmod(os.path.join(staged, entry), 0o644)  # whatever the grader's umask: the run reads it
            os.chmod(staged, 0o755)
            given = os.path.join(sub.folder, f"{name}-{label}-in-{secrets.token_hex(8)}")
            os.rename(staged, given)
            out = session.scratch(sub, f"{name}-{label}")
            ran = sandbox.run(session.isolation, [*wrap, sub.binary, "--check-only", *args, "--variant", v["name"], "--stage", stage,
                                                  "--stage-inputs", given, "--raw-out", out, *extra, "--format", "json"], out, limit,
                              identity=sub.identity)
            add_seconds(sub, phase, "its runs", ran.seconds)
            shutil.rmtree(given, ignore_errors=True)
            # Only this run's own stage counts: whatever else it wrote is no result of it.
            found = checked(session, sub, phase, out, f"{name}-{label}", args).get(v["raw"])
            if found:
                verdicts[v["raw"]] = found
            outcomes.append(ran)
            if ran.timed_out:
                break  # a hang costs one limit a case, not one a stage
        return sandbox.Outcome.combined(outcomes), verdicts
    finally:
        shutil.rmtree(inputs, ignore_errors=True)


def tally_case(session, sub, tally, index, ran, verdicts):
    """Case `index`'s verdict for every graded variant, into the report and the tally."""
    case = sub.cases[index]
    own = reports.parse(ran.stdout) or {}
    # A variant with a documented size limit earns the case by refusing it, which the
    # program must say itself: a run that died, hung or wrote nothing refused nothing.
    reported = own.get("results", []) if isinstance(own, dict) else []
    skipped = {r.get("variant") for r in reported if isinstance(r, dict) and r.get("status") == "skipped"}
    held = held_at_start(session, own, getattr(ran, "held_in_use_mib", None))
    row = {"case": index, **{k: value for k, value in case.items() if k != "seed"}, "run": ran.describe(), "variants": {}}
    for v in session.spec["variants"]:
        # Beyond its mask-size limit, or a mask it must not compute (lab 6's separable variants
        # and a mask of rank 2): the variant earns the case by refusing it.
        mask = case.get("mask")  # none for an array lab's case (lab 5)
        must_refuse = mask is not None and ((v.get("max_k") and cases.mask_size(mask) > v["max_k"]) or mask in v.get("refuses", []))
        refused = must_refuse and v["name"] in skipped
        verdict = verdicts.get(v["raw"])
        if verdict is None:
            verdict = {"status": "pass" if refused else "no result", "message": "refused, as it must be" if refused
                       else why_no_result(ran, own, v["name"], spec.stage_of(session.spec, v))}
        elif must_refuse and not refused:
            verdict = {"status": "fail", "message": f"computed mask {case['mask']}, which it must refuse"}
        elif held and verdict["status"] == "pass":
            verdict = {"status": "fail", "message": held}
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


def held_at_start(session, own, hold_mib=None):
    """Lab 9: a graded run's rows say what its GPUs had in use when they opened, before any variant
    ran (common/families/strips/strip_lab.cpp), which on a GPU it has to itself is its context and
    whatever it allocated before (a buffer made before main, which neither its cap nor its records
    see), with the grader's hold beside it (hold_mib: what the holder said its GPUs had in use, taken
    off). More than the reference's graded run at the same moment (the session's pre-flight,
    grader.Session.measure_reference_start) is a problem for every variant of the case; else
    None. The figure is the program's own word, which the hold makes worth nothing to forge; the
    timed runs measure it from the timer's process (performance.held_before_ready)."""
    if getattr(session, "reference_start_mib", None) is None:
        return None
    figure = performance.largest_figure(own, "device_mib_at_start")
    if figure is not None and hold_mib is not None:
        figure -= hold_mib
    return performance.held_more(figure, session.reference_start_mib, "when its GPUs opened, before any variant ran")


def why_no_result(ran, own, variant, stage=None):
    """Why a run left no raw result for a variant (of a stage, where the lab is graded stage by
    stage): how it ended, or what its report says."""
    if ran.timed_out or ran.crashed:
        return ran.describe()
    for r in own.get("results", []) if isinstance(own, dict) else []:
        # "fail" without a raw result: the harness refused to write one (a GPU variant that launched no kernel)
        if r.get("variant") == variant and (stage is None or reports.figures(r).get("stage") == stage) and \
                r.get("status") in ("not-implemented", "error", "skipped", "fail"):
            return f"{r['status']}: {r.get('message', '')}"[:300]
    return f"no result written ({ran.describe()}); {ran.stderr.strip()[-200:]}"
