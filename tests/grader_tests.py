"""The grader's own tests. Without a GPU: the scoring arithmetic, Gradescope's JSON, time limits,
archives, and lab 0 (a CPU lab) graded end to end: its solution gets full marks, its skeleton no
correctness points, and every known-bad submission loses exactly what its description says.
With a GPU (make test-grader-gpu): the same for the GPU labs' solutions, skeletons and known-bad sets."""
import contextlib
import csv
import io
import json
import os
import re
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import zipfile

from testkit import ROOT, Skip, make
from testkit import lab as lab_program

sys.path.insert(0, os.path.join(ROOT, "grading"))
from convlab_grader import batch_state, cases, gpu_pool, known_bad, manifest, performance, report, reports, sandbox, scoring, submission  # noqa: E402
from convlab_grader import spec as specs  # noqa: E402

GRADE = os.path.join(ROOT, "grading", "grade")


def scoring_arithmetic():
    f = scoring.performance_fraction
    assert f(0.5, 1.2, 3.0) == 1.0 and f(1.2, 1.2, 3.0) == 1.0, "within the slack: all the points"
    assert abs(f(2.1, 1.2, 3.0) - 0.5) < 1e-12, "half way down the line: half the points"
    assert f(3.0, 1.2, 3.0) == 0.0 and f(50, 1.2, 3.0) == 0.0 and f(None, 1.2, 3.0) == 0.0
    assert scoring.correctness_points(3, 4, 20) == 15 and scoring.correctness_points(0, 0, 20) == 0
    for lab in range(6):
        spec = specs.load(lab)
        assert specs.max_score(spec) + spec["rubric"].get("manual", 0) == 100, f"lab {lab}'s rubric does not add to 100"


def idle_threads_are_charged():
    """Lab 0's time: a run that used 1 of the 2 threads it was given counts twice its critical path."""
    f = performance.idle_threads_factor
    assert f({"threads": 2, "busy_threads": 1}) == 2.0
    assert f({"threads": 16, "busy_threads": 1}) == 16.0
    assert f({"threads": 16, "busy_threads": 16}) == 1.0
    assert f({"threads": 16, "busy_threads": 20}) == 1.0, "more threads than given (the harness's own) earn nothing"
    assert f({"threads": 8, "busy_threads": 0}) == 8.0
    assert f({"threads": 1, "busy_threads": 1}) == 1.0 and f({}) == 1.0 and f({"threads": 4}) == 1.0


def physical_floor():
    """The least time a correct run can take: bytes at the copy bandwidth or flops at the FP32
    peak, whichever is larger, times the margin, under the variant's own work model from the
    reference's report (a separable variant's K^2 floor would call it impossible); none without
    a GPU's figures."""
    ref = {"device": {"copy_bandwidth_gbs": 3000.0, "fp32_peak_gflops": 60000.0}}
    small_mask = performance.floor_ms(["--size", "4000x2000", "--channels", "1", "--mask", "box:3"], ref)
    assert abs(small_mask - performance.FLOOR_SHARE * 8e6 * 5 / 3e12 * 1e3) < 1e-12, small_mask  # bytes bound
    big_mask = performance.floor_ms(["--size", "4000x2000", "--channels", "3", "--mask", "gauss:31:8"], ref)
    assert abs(big_mask - performance.FLOOR_SHARE * 2 * 31 * 31 * 24e6 / 6e13 * 1e3) < 1e-9, big_mask  # flops bound
    # A separable variant's model, as the reference's report gives it: 13 B and 4 K flops per value
    two_pass = dict(ref, results=[{"variant": "two-pass", "bytes_per_value": 13, "flops_per_value": 4 * 31}])
    separable = performance.floor_ms(["--size", "4000x2000", "--channels", "3", "--mask", "gauss:31:8"], two_pass, "two-pass")
    assert abs(separable - performance.FLOOR_SHARE * 24e6 * 13 / 3e12 * 1e3) < 1e-9, separable  # bytes bound now
    assert performance.floor_ms(["--size", "4000x2000", "--channels", "3", "--mask", "gauss:31:8"], two_pass, "direct") == big_mask
    assert performance.floor_ms(["--size", "64", "--channels", "1", "--mask", "box:3"], {"device": None}) is None
    assert performance.floor_ms(["--elements", "1000"], ref) is None
    # Lab 9's strips, host to host: the image in and the result out at the reference's pinned
    # rates, the row's GPUs sharing them (its figures say which memory and how many GPUs).
    strips = dict(ref, transfer_bandwidth={"h2d_pinned_gbs": 50.0, "d2h_pinned_gbs": 40.0},
                  results=[{"variant": "multi-gpu", "figures": [{"name": "host_memory", "unit": "", "value": "pinned"},
                                                                {"name": "gpus", "unit": "", "value": 2}]}])
    bus = performance.floor_ms(["--size", "8192x4096", "--channels", "1", "--mask", "gauss:7:2"], strips, "multi-gpu")
    assert abs(bus - performance.FLOOR_SHARE * 4 * 8192 * 4096 / 40.0 * 1e-6 / 2) < 1e-9, bus


def contradicted_reports_are_timed_by_the_grader():
    """Peer timing: a program whose own report leaves out time the grader's process measured
    around its runs (beyond the overhead the reference's runs show, and the slack) is timed by the
    grader's clock less that overhead, or its share of the reference's time by the two clocks'
    ratio where that is more: slow is slow (issue 40: a launch function that allocates
    was called forged). Honest noise keeps the program's own time. Every GPU lab is peer-timed;
    lab 0 (CPU only) is not."""
    f = performance.time_that_counts
    ref, ref_peer = [1.0, 1.01, 0.99], [1.12, 1.13, 1.11]  # 0.12 ms of protocol overhead
    assert f([1.5, 1.5, 1.5], [1.63, 1.64, 1.62], ref, ref_peer) == (1.5, None), "the same overhead: honest"
    assert f([0.3, 0.3, 0.3], [0.44, 0.45, 0.43], ref, ref_peer) == (0.3, None), "a faster honest program"
    # Allowed beyond 1.5 ms reported: 0.12 + slack(P), P the peer time: P - 1.5 <= 0.12 + 0.05 + 0.1 P, P <= 1.8556.
    edge = (1.5 + 0.12 + performance.PEER_SLACK_MS) / (1 - performance.PEER_SLACK_SHARE)
    assert f([1.5] * 3, [edge - 0.001] * 3, ref, ref_peer) == (1.5, None), "within the slack"
    counted, why = f([1.5] * 3, [edge + 0.001] * 3, ref, ref_peer)
    assert abs(counted - (edge + 0.001 - 0.12)) < 1e-9 and "grader's clock" in why, (counted, why)
    counted, why = f([0.5, 0.5, 0.5], [1.62, 1.63, 1.61], ref, ref_peer)
    assert abs(counted - 1.5) < 1e-9 and "reported 0.5 ms" in why, "reports a third of what it took: timed at what it took"
    assert f([0.5], [], ref, ref_peer) == (0.5, None) and f([0.5], [1.6], ref, []) == (0.5, None), "no peer times: its own"
    # The reference's overhead was larger in its runs (13.4 ms on a busy host) than the
    # submission's (4): less that overhead, a forger reporting a third of its 44.4 ms would count
    # 35; the two clocks' ratio keeps it at its own clock's share of the reference's time, 39.1.
    counted, why = f([14.8] * 3, [48.4] * 3, [56.6] * 3, [70.0] * 3)
    assert abs(counted - 48.4 * 56.6 / 70.0) < 1e-9 and "grader's clock" in why, (counted, why)
    assert [lab for lab in range(6) if performance.peer_timed(specs.load(lab))] == [1, 2, 3, 4, 5]


def memory_held_before_the_timer_looked():
    """Lab 9's budget from outside the program: the grader's timer reports what the device had in
    use besides its own hold once the program was ready; a submission's more than the
    reference's by the slack is a buffer made before the budget was placed (a static allocation
    before main): the case earns nothing. Within the slack, or with either figure missing (a run
    that failed says so by itself), nothing is said."""
    def doc(*mibs):
        return {"results": [{"variant": "serial", "figures": [{"name": "device_mib_at_ready", "unit": "MiB", "value": m}]} for m in mibs]}
    f = performance.held_before_ready
    assert f(doc(1100), doc(1080)) is None, "two contexts differ a little"
    assert f(doc(1080 + performance.HELD_SLACK_MIB), doc(1080)) is None, "at the slack"
    why = f(doc(2104), doc(1080, 1080))
    assert why and "1024 MiB more" in why and "no performance points" in why, why
    assert f({"results": [{"variant": "serial", "figures": []}]}, doc(1080)) is None, "no figure: the run's own failure says why"
    assert f(doc(5000), {}) is None


STAND_IN_LAB9_REFERENCE = """#!/bin/sh
# A lab 9 reference's stand-in: a graded run (--raw-out, --format json) reports what its GPU had in
# use when it opened, MIB MiB; a run that is not graded reports no figure (the real one's too);
# --hold-outside says "held: 0.0 MiB in use" and holds until its input ends (HOLDS=no: it cannot), noting
# its arguments; --compare passes every graded result.
case "$*" in
  *--hold-outside*) echo "$*" > "$0.held"
    if [ HOLDS = no ]; then echo "lab9: error: a device has less free than the budget" >&2; exit 2; fi
    echo "held: 0.0 MiB in use"; cat > /dev/null ;;
  *--compare*) echo '{"schema": "convlab.report/2", "results": [{"variant": "serial pinned", "kind": "submitted", "status": "pass", "message": ""}, {"variant": "overlapped pinned", "kind": "submitted", "status": "pass", "message": ""}, {"variant": "multi-gpu pinned", "kind": "submitted", "status": "pass", "message": ""}]}' ;;
  *--raw-out*)  # as the harness: the folder must exist
    shift $(( $(printf '%s\n' "$@" | grep -n -x -e --raw-out | cut -d: -f1) ))
    if [ ! -d "$1" ]; then echo "lab9: error: --raw-out $1 is not a folder; accepted: an existing folder" >&2; exit 2; fi
    echo '{"schema": "convlab.report/2", "results": [{"variant": "serial", "figures": [{"name": "device_mib_at_start", "value": MIB}]}]}' ;;
  *) echo '{"schema": "convlab.report/2", "results": []}' ;;
esac
exit 0
"""


def memory_held_before_the_program_looked():
    """Lab 9's checked runs: the session's pre-flight takes what the reference's graded run had in
    use when its GPUs opened (the most over the session's GPUs; none said: nothing is graded), and
    the reference must pass under the hold beside it (memory_hold.py) with that allowance (a hold
    that cannot be placed: nothing is graded); a hidden case whose run had more by the slack fails
    every variant that passed it, with why; a run that says nothing (it failed) or a lab without
    the rule is left as it was."""
    from types import SimpleNamespace
    from convlab_grader import grader, hidden_cases
    with tempfile.TemporaryDirectory() as tmp:
        reference = os.path.join(tmp, "lab9-solution")
        pool = gpu_pool.GpuPool([gpu_pool.Gpu("0", "Stand-in GPU"), gpu_pool.Gpu("1", "Stand-in GPU")])
        for mib, holds, measured in (("530", "yes", 530.0), ("", "yes", None), ("530", "no", None)):
            with open(reference, "w") as f:
                f.write(STAND_IN_LAB9_REFERENCE.replace("MIB", mib or "null").replace("HOLDS", holds))
            os.chmod(reference, 0o755)
            session = SimpleNamespace(spec=specs.load(9), secret=5, gpus=pool, reference=reference, lab=9, work=tmp,
                                      private=lambda name: grader.Session.private(SimpleNamespace(work=tmp), name))
            session.measure_reference_start = lambda gpu, env, args, s=session: grader.Session.measure_reference_start(s, gpu, env, args)
            session.reference_passes_held_outside = \
                lambda gpu, env, args, s=session: grader.Session.reference_passes_held_outside(s, gpu, env, args)
            session._compare = lambda out, args, s=session: grader.Session._compare(s, out, args)
            session.reference_graded_run = lambda *a, s=session, **k: grader.Session.reference_graded_run(s, *a, **k)
            try:
                grader.Session.refuse_a_device_the_reference_fails_on(session)
                assert session.reference_start_mib == measured, (session.reference_start_mib, measured)
                with open(reference + ".held") as f:
                    held = f.read().split()
                assert held[-2:] == ["--hold-outside", "530"] and "--gpu-memory" in held, ("the reference was not checked under the hold", held)
            except RuntimeError as why:
                assert measured is None and ("did not say what its GPUs had in use" in str(why) if not mib else
                                             "could not hold the GPU's memory outside the run (lab9: error: a device has less free"
                                             in str(why) and "nothing is graded" in str(why)), why
    session = SimpleNamespace(reference_start_mib=530.0)
    own = {"results": [{"variant": "serial", "figures": [{"name": "device_mib_at_start", "value": 1554}]}]}
    held = hidden_cases.held_at_start(session, own)
    assert held and "1024 MiB more device memory than the reference's when its GPUs opened" in held, held
    # Under the grader's hold the run's figure counts the hold too, which the holder said: taken off.
    held = {"results": [{"variant": "serial", "figures": [{"name": "device_mib_at_start", "value": 78798}]}]}
    assert hidden_cases.held_at_start(session, held, 78268.0) is None, "the hold's own memory counted against the run"
    assert hidden_cases.held_at_start(session, held, 77000.0), "1268 MiB of the run's own beside the hold passed"
    own["results"][0]["figures"][0]["value"] = 560
    assert hidden_cases.held_at_start(session, own) is None, "within the slack"
    assert hidden_cases.held_at_start(session, {}) is None, "no report: the run's own failure says why"
    assert hidden_cases.held_at_start(SimpleNamespace(), own) is None, "a lab without the rule"


def spec_mistakes_are_refused():
    """A spec whose points do not add up, whose variant name --variant's list would split, whose
    timed case does not require its own variants (or requires one nobody grades), or whose
    variant refuses a mask the hidden cases never draw, or whose fixed case lacks a key or names
    no built-in image, whose sanitizer fixes its arguments, names a runner the grader does not
    know or a tool its runner lacks (or oclgrind in a lab graded stage by stage), or whose drawn
    option's range is upside down, or whose timer is unknown or lets a CUDA lab's program time
    itself, or whose runs have the GPU to themselves several cases a process (no hold beside
    them), is refused with its file named, before any submission is graded."""
    with open(os.path.join(specs.CASES, "lab5.json")) as f:
        good = json.load(f)
    comma = json.loads(json.dumps(good))
    comma["variants"][0]["name"] = "banks/B padded, stride 1"
    points = json.loads(json.dumps(good))
    points["variants"][0]["points"] += 1
    with open(os.path.join(specs.CASES, "lab4.json")) as f:
        lab4 = json.load(f)
    free_time = json.loads(json.dumps(lab4))
    free_time["performance"]["cases"][0]["requires"] = []
    unknown = json.loads(json.dumps(lab4))
    unknown["performance"]["cases"][0]["requires"].append("no such variant")
    pinned = json.loads(json.dumps(lab4))
    pinned["sanitizer"]["args"] = ["--size", "300x77"]
    low_high = json.loads(json.dumps(lab4))
    low_high["drawn_options"] = {"--low": [0.5, 0.1]}
    unknown_kind = json.loads(json.dumps(lab4))
    unknown_kind["random_masks"] = "symmetric"
    with open(os.path.join(specs.CASES, "lab6.json")) as f:
        undrawn = json.load(f)
    undrawn["variants"][0]["refuses"] = ["sharpen"]
    with open(os.path.join(specs.CASES, "lab7.json")) as f:
        dim = json.load(f)
    del dim["bright_cases"][0]["mask"]
    with open(os.path.join(specs.CASES, "lab8.json")) as f:
        lab8 = json.load(f)
    imageless = json.loads(json.dumps(lab8))
    del imageless["image_cases"][0]["image"]
    unknown_image = json.loads(json.dumps(lab8))
    unknown_image["image_cases"][0]["image"] = "photo.png"
    with open(os.path.join(specs.CASES, "lab9.json")) as f:
        lab9 = json.load(f)
    rowless = json.loads(json.dumps(lab9))
    rowless["budget_rows"] = [4, 0]
    shy = json.loads(json.dumps(lab9))
    shy["gpu_to_itself"] = "yes"
    chunked = json.loads(json.dumps(lab9))
    chunked["cases_in_one_process"] = True
    with open(os.path.join(specs.CASES, "lab11.json")) as f:
        lab11 = json.load(f)
    cuda_tool = json.loads(json.dumps(lab11))
    cuda_tool["sanitizer"]["tools"]["synccheck"] = 1  # oclgrind has no synccheck of that name
    cuda_tool["rubric"]["safety"] = 15
    unknown_runner = json.loads(json.dumps(lab11))
    unknown_runner["sanitizer"]["runner"] = "valgrind"
    unknown_timer = json.loads(json.dumps(lab11))
    unknown_timer["performance"]["timer"] = "wall clock"
    with open(os.path.join(specs.CASES, "lab3.json")) as f:
        cuda_timing_itself = json.load(f)
    cuda_timing_itself["performance"]["timer"] = "program"
    staged_oclgrind = json.loads(json.dumps(lab8))
    staged_oclgrind["sanitizer"]["runner"] = "oclgrind"
    staged_oclgrind["sanitizer"]["tools"] = {"memcheck": 10, "racecheck": 5}
    staged_oclgrind["sanitizer"].pop("max_taps", None)
    saved = specs.CASES
    try:
        with tempfile.TemporaryDirectory() as tmp:
            specs.CASES = tmp
            for lab, broken, why in ((5, comma, "has a comma"), (5, points, "points add to"),
                                     (4, free_time, "must require the variants it times"),
                                     (4, unknown, "which no graded variant is labelled"),
                                     (4, pinned, "the sanitizer's cases are drawn from the secret"),
                                     (4, low_high, "drawn option '--low' is [0.5, 0.1]"),
                                     (4, unknown_kind, "random_masks is 'symmetric'"),
                                     (6, undrawn, "which 'named_masks' does not list"),
                                     (7, dim, "a bright case lacks ['mask']"),
                                     (8, imageless, "an image case lacks ['image']"),
                                     (8, unknown_image, "an image case's image is 'photo.png'"),
                                     (9, rowless, "budget_rows is [4, 0]"),
                                     (9, shy, "gpu_to_itself is 'yes'"),
                                     (9, chunked, "without cases_in_one_process"),
                                     (11, cuda_tool, "the sanitizer runs 'oclgrind' with tools ['memcheck', 'racecheck', 'synccheck']"),
                                     (11, unknown_runner, "the sanitizer runs 'valgrind'"),
                                     (11, unknown_timer, "the performance timer is 'wall clock'"),
                                     (3, cuda_timing_itself, "the performance timer is 'program'"),
                                     (8, staged_oclgrind, "oclgrind's log is read a run at a time")):
                with open(os.path.join(tmp, f"lab{lab}.json"), "w") as f:
                    json.dump(broken, f)
                try:
                    specs.load(lab)
                    raise AssertionError(f"a spec where {why} was accepted")
                except specs.SpecError as e:
                    assert why in str(e) and f"lab{lab}.json" in str(e), str(e)
    finally:
        specs.CASES = saved


def why_nothing_passed_is_one_line():
    """A submission that passed no hidden case gets one line in the batch's log saying why (its
    build, or the first failure of its first variant with one); one that passed a case, none."""
    from convlab_grader import local_batch
    failing = {"build": {"ok": True}, "variants": {"tiled": {"passed": 0, "total": 20, "first_failure": "case 0 (17x13): fail: 3 of 663 wrong"}}}
    assert local_batch.why_nothing_passed(failing) == "no case passed; tiled's first failure: case 0 (17x13): fail: 3 of 663 wrong"
    unbuilt = {"build": {"ok": False}, "variants": {"tiled": {"passed": 0, "first_failure": "not built"}},
               "deductions": ["the submission does not build: no points"]}
    assert local_batch.why_nothing_passed(unbuilt) == "no case passed: the submission does not build: no points"
    some = {"build": {"ok": True}, "variants": {"a": {"passed": 0, "first_failure": "x"}, "b": {"passed": 1, "first_failure": None}}}
    assert local_batch.why_nothing_passed(some) is None
    assert len(local_batch.why_nothing_passed({"variants": {"a": {"passed": 0, "first_failure": "y" * 1000}}})) == 300


class StandInSession:
    """What hidden_cases.graded_run asks of a grading session, for tests that stand in for its runs:
    the spec, and a scratch folder a run under `tmp`."""
    isolation = None

    def __init__(self, spec, tmp):
        self.spec, self.tmp = spec, tmp

    def scratch(self, sub, name):
        path = os.path.join(self.tmp, "sub", name)
        os.makedirs(path)
        return path


def stage_inputs_reach_each_run_alone():
    """Lab 8 graded stage by stage: the trusted side's inputs of each stage reach that stage's run
    alone, as a folder the grader made (not the submission's to write, readable by it) under a name
    no run can foresee, moved into the submission's folder whole (the grader writes through no path
    a run could plant) and removed after the run; the verdict kept is the run's own stage's."""
    from convlab_grader import hidden_cases, sandbox
    with tempfile.TemporaryDirectory() as tmp:
        spec = specs.load(8)
        seen = []

        class Session(StandInSession):
            def private(self, name):
                path = os.path.join(tmp, "private", name)
                os.makedirs(path, exist_ok=True)
                return path

            def write_stage_inputs(self, folder, args):  # the reference's folders, a stage each
                for v in spec["variants"]:
                    label = re.sub(r"[^A-Za-z0-9-]", "_", v["raw"])  # as the harness names them
                    os.makedirs(os.path.join(folder, label))
                    with open(os.path.join(folder, label, f"input-of-{label}.f32"), "wb") as f:
                        f.write(b"\0" * 8)

            def check(self, sub, out, name, args):  # every stage "passes" in every run: only its own may count
                return {v["raw"]: {"status": "pass", "message": name} for v in spec["variants"]}

        class Sub:
            identity, binary, folder, safe_name = None, "lab8-stand-in", os.path.join(tmp, "sub"), "s"
            result = {}

        def stand_in(_isolation, argv, *_args, **_kwargs):
            given = argv[argv.index("--stage-inputs") + 1]
            mode = os.stat(given).st_mode & 0o777
            files = sorted(os.listdir(given))
            seen.append((argv[argv.index("--variant") + 1], argv[argv.index("--stage") + 1], os.path.basename(given), mode, files,
                         [os.stat(os.path.join(given, f)).st_mode & 0o777 for f in files]))
            return sandbox.Outcome(0, json.dumps({"schema": reports.SCHEMA, "results": []}), "", 0.1, False)

        os.makedirs(Sub.folder)
        saved = sandbox.run
        try:
            sandbox.run = stand_in
            ran, verdicts = hidden_cases.graded_run(Session(spec, tmp), Sub(), cases.hidden_cases(spec, 3)[5], "case-5", ["staged", "fused", "union-find"], 30)
        finally:
            sandbox.run = saved
        assert len(seen) == len(spec["variants"]), seen
        for (pipeline, stage, folder, mode, files, file_modes), v in zip(seen, spec["variants"]):
            label = re.sub(r"[^A-Za-z0-9-]", "_", v["raw"])
            assert (pipeline, stage) == (v["name"], v["raw"][len(v["name"]) + 1:]), (pipeline, stage, v)
            assert re.fullmatch(rf"case-5-{re.escape(label)}-in-[0-9a-f]{{16}}", folder), folder
            assert mode == 0o755 and files == [f"input-of-{label}.f32"] and file_modes == [0o644], (folder, mode, files, file_modes)
        assert not [f for f in os.listdir(Sub.folder) if "-in-" in f], "each run's inputs are removed after it"
        assert {raw: v["message"] for raw, v in verdicts.items()} == \
            {v["raw"]: "case-5-" + re.sub(r"[^A-Za-z0-9-]", "_", v["raw"]) for v in spec["variants"]}, verdicts
        # Where the case's time went (phase_seconds.py): six runs of 0.1 s each, the checks and the inputs timed too.
        spent = Sub.result["seconds_within"]["cases"]
        assert set(spent) == {"its runs", "checks", "stage inputs"} and abs(spent["its runs"] - 0.6) < 1e-6, spent


def lab9_checked_runs_are_held_from_outside():
    """Lab 9 (a GPU to itself): every checked run goes with the reference's --hold-outside beside
    it, for the case's arguments and the reference's own memory at start, placed before the run
    and let go after it; none under a sanitizer tool; where the hold cannot be placed the run is
    not made and its outcome says why (memory_hold.py). With stand-ins for the holder and the run."""
    from convlab_grader import hidden_cases, sandbox
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "holder.log")
        open(log, "w").close()
        holder = os.path.join(tmp, "holder")
        with open(holder, "w") as f:
            f.write("#!" + sys.executable + "\nimport os, sys\n"
                    "open(os.environ['HOLD_LOG'], 'a').write(' '.join(sys.argv[1:]) + '\\n')\n"
                    "if os.environ.get('HOLD_FAILS'):\n    print('lab9: error: no room', file=sys.stderr); sys.exit(2)\n"
                    "print('held: 700.0 MiB in use', flush=True)\n"
                    "if os.environ.get('HOLD_DIES'):\n    os._exit(9)\n"
                    "sys.stdin.read()\nopen(os.environ['HOLD_LOG'], 'a').write('let go\\n')\n"
                    "sys.exit(4 if os.environ.get('HOLD_LOST') else 0)\n")
        os.chmod(holder, 0o755)
        spec = specs.load(9)
        case = cases.hidden_cases(spec, 5)[3]
        seen = []

        class Session(StandInSession):
            reference, reference_start_mib = holder, 612.3

            def check(self, sub, out, name, args):
                return {}

        class Sub:
            identity, binary, folder, safe_name, result = None, "lab9-stand-in", os.path.join(tmp, "sub"), "s", {}

        def stand_in(_isolation, argv, *_args, **_kwargs):
            with open(log) as f:
                seen.append((argv[0], f.read()))
            return sandbox.Outcome(0, "", "", 0.1, False)

        saved_run, saved_env = sandbox.run, dict(os.environ)
        try:
            sandbox.run, os.environ["HOLD_LOG"] = stand_in, log
            hidden_cases.graded_run(Session(spec, tmp), Sub(), case, "case-3", ["serial"], 30)
            with open(log) as f:
                after = f.read()
            hidden_cases.graded_run(Session(spec, tmp), Sub(), case, "sanitizer-0", ["serial"], 90, "memcheck", None)
            with open(log) as f:
                assert f.read() == after, "a run under a sanitizer tool is held from outside: the tool's memory would count"
            held_ran, _ = hidden_cases.graded_run(Session(spec, tmp), Sub(), case, "case-5", ["serial"], 30)
            os.environ["HOLD_LOST"] = "1"  # the holder finds its hold gone when its input ends
            lost_at_end, _ = hidden_cases.graded_run(Session(spec, tmp), Sub(), case, "case-6", ["serial"], 30)
            del os.environ["HOLD_LOST"]
            os.environ["HOLD_DIES"] = "1"  # the holder ends during the run
            died, _ = hidden_cases.graded_run(Session(spec, tmp), Sub(), case, "case-7", ["serial"], 30)
            del os.environ["HOLD_DIES"]
            os.environ["HOLD_FAILS"] = "1"
            ran, _ = hidden_cases.graded_run(Session(spec, tmp), Sub(), case, "case-4", ["serial"], 30)
        finally:
            sandbox.run = saved_run
            os.environ.clear()
            os.environ.update(saved_env)
        args = hidden_cases.case_args(Session(spec, tmp), case)
        assert len(seen) == 5 and seen[0][0] == "lab9-stand-in", seen
        assert held_ran.status == 0 and held_ran.held_in_use_mib == 700.0, (held_ran.describe(), held_ran.held_in_use_mib)
        assert "did not last the run" in lost_at_end.describe() and lost_at_end.status != 0, lost_at_end.describe()
        assert ("ended during the run" in died.describe() or "did not last the run" in died.describe()) and died.status != 0, \
            died.describe()
        held_for = seen[0][1].splitlines()
        assert held_for == [" ".join(["--check-only", *args, "--hold-outside", "613"])], ("the hold was not in place for the run", held_for)
        assert "--gpu-memory" in args, args
        assert after.splitlines()[-1] == "let go", ("the hold was not let go after the run", after)
        assert seen[1][0] == "compute-sanitizer", seen[1]
        assert len(seen) == 5 and not ran.timed_out and ran.status != 0, ("a case the grader could not hold was run", seen, ran.describe())
        assert ran.describe() == "not run: the grader could not hold the GPU's memory outside the run (lab9: error: no room)", \
            ran.describe()


def refusals_are_weighted():
    """Lab 7's box variants refuse 11 of 24 cases: one that copies its input and passes one case
    must not earn the 11 (it earned them all before, issue 40); one that passes all it computes
    earns every case; one that passes none earns none."""
    from convlab_grader import hidden_cases
    weighted = hidden_cases.refusal_weighted
    assert weighted(1, 24, 11) < 2, weighted(1, 24, 11)
    assert weighted(13, 24, 11) == 24 and weighted(0, 24, 11) == 0 and weighted(7, 10, 0) == 7
    assert weighted(6, 24, 11) == round(6 + 11 * 6 / 13, 2)
    assert weighted(0, 3, 3) == 0, "a variant that only refuses computes nothing"


def a_mask_that_must_be_refused_is_graded():
    """Lab 6's separable variants must refuse a mask of rank 2: a variant that said "skipped" on
    such a case earns it (once its other cases pass); one that wrote a result for it fails it,
    however right the result."""
    from convlab_grader import hidden_cases

    class Ran:
        timed_out = crashed = False
        stderr = ""

        def __init__(self, statuses):
            self.stdout = json.dumps({"schema": reports.SCHEMA,
                                      "results": [{"variant": v, "status": st, "message": ""} for v, st in statuses.items()]})

        def describe(self):
            return "exit 0"

    class Session:
        spec = {"variants": [{"name": "fused", "raw": "fused", "label": "fused", "refuses": ["laplacian"]},
                             {"name": "two-pass", "raw": "two-pass", "label": "two passes", "refuses": ["laplacian"]}]}

    class Sub:
        cases = [{"size": "9x9", "channels": 1, "border": "zero", "mask": "laplacian", "seed": 1},
                 {"size": "9x9", "channels": 1, "border": "zero", "mask": "outer:5:2", "seed": 2}]
        result = {"cases": []}

    tally = {"fused": {"passed": 0, "total": 0, "first_failure": None, "refused": 0},
             "two passes": {"passed": 0, "total": 0, "first_failure": None, "refused": 0}}
    right = {"status": "pass", "message": "PASS"}
    hidden_cases.tally_case(Session, Sub, tally, 0, Ran({"fused": "skipped", "two-pass": "pass"}), {"two-pass": right})
    hidden_cases.tally_case(Session, Sub, tally, 1, Ran({"fused": "pass", "two-pass": "pass"}), {"fused": right, "two-pass": right})
    assert tally["fused"]["refused"] == 1 and tally["fused"]["passed"] == 1, tally
    assert tally["two passes"]["passed"] == 1 and "which it must refuse" in tally["two passes"]["first_failure"], tally
    assert Sub.result["cases"][0]["variants"]["fused"]["message"] == "refused, as it must be", Sub.result


def lab9_runs_have_the_gpu_to_themselves():
    """Lab 9's runs hold the rest of the GPU (--gpu-memory): its spec says gpu_to_itself, and the
    grader then runs a submission's hidden cases and sanitizer runs one at a time, where other
    labs run them side by side."""
    from convlab_grader import hidden_cases, sandbox, sanitizer_runs

    lock, running, most = threading.Lock(), [0], [0]

    def occupy(*_args, **_kwargs):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.05)
        with lock:
            running[0] -= 1
        return sandbox.Outcome(0, "", "", 0.05, False)  # a clean run: nothing is cut short

    scratch_root = tempfile.TemporaryDirectory()  # every stand-in run's folder, removed at the end

    class Session:
        gpus = gpu_pool.GpuPool([gpu_pool.Gpu(None, "the machine's default GPU")])

        def scratch(self, sub, name):
            return tempfile.mkdtemp(dir=scratch_root.name)

        def check(self, *_args):
            return {}

    class Sub:
        identity, binary = None, "lab-stand-in"

    saved = hidden_cases.run_case, sandbox.run, hidden_cases.tally_case
    try:
        hidden_cases.run_case = lambda session, sub, index: (occupy(), {})
        hidden_cases.tally_case = lambda *_args: None
        sandbox.run = occupy
        for lab, expected in ((9, 1), (3, 4)):
            session, sub = Session(), Sub()
            # A case a process, as lab 9 runs them: how a lab with cases_in_one_process spreads
            # its chunks is case_list_tests' to check.
            session.spec = {k: v for k, v in specs.load(lab).items() if k != "cases_in_one_process"}
            session.isolation = None
            sub.cases = cases.hidden_cases(session.spec, 1)[:8]
            sub.sanitizer_runs = cases.sanitizer_runs(session.spec, 1)
            sub.result = {"cases": [], "sanitizer": {}}
            most[0] = 0
            hidden_cases.run_cases(session, sub)
            assert most[0] == expected, (lab, "hidden cases at once", most[0])
            most[0] = 0
            sanitizer_runs.run_sanitizer(session, sub)
            assert most[0] == (1 if lab == 9 else min(8, len(sub.sanitizer_runs))), (lab, "sanitizer runs at once", most[0])
    finally:
        hidden_cases.run_case, sandbox.run, hidden_cases.tally_case = saved
        scratch_root.cleanup()


class StandInSanitizerSession:
    """What sanitizer_runs.run_sanitizer asks of a grading session, for tests that stand in for its
    runs: the spec, one default GPU, a fresh scratch folder a run under `root`, and `check` (the
    trusted verdicts of a run's results: none unless given)."""
    isolation = None
    gpus = gpu_pool.GpuPool([gpu_pool.Gpu(None, "the machine's default GPU")])

    def __init__(self, spec, root, check=lambda *_args: {}):
        self.spec, self.root, self.check = spec, root, check

    def scratch(self, sub, name):
        return tempfile.mkdtemp(dir=self.root)


def a_tool_found_dirty_makes_no_more_runs():
    """A sanitizer tool is clean only when all its runs are: once one run of it hangs (or finds
    something), its runs not yet started are not made, the tools are taken in turn so each meets a
    hang in the first wave, and the verdicts are the same as with every run made."""
    from convlab_grader import sandbox, sanitizer_runs

    made, lock = [], threading.Lock()

    scratch_root = tempfile.TemporaryDirectory()  # every stand-in run's folder, removed at the end

    class Sub:
        identity, binary = None, "lab-stand-in"

    def stand_in(_isolation, argv, *_args, **_kwargs):
        if argv[0] != "compute-sanitizer":  # the same case without the tool: quick and clean
            return sandbox.Outcome(0, "", "", 0.0, False)
        tool = argv[1].split("=")[1]
        with lock:
            made.append(tool)
        if tool == "memcheck":  # its verdict comes back at once, before any clean run ends and frees a worker
            return sandbox.Outcome(-9, "", "", 180.0, True)
        time.sleep(0.2)
        return sandbox.Outcome(0, "", "", 0.2, False)

    saved = sandbox.run
    try:
        sandbox.run = stand_in
        for lab, most_memchecks in ((9, 1), (3, 3)):  # one at a time; eight at once (m r s m r s m r, then the rest)
            session, sub = StandInSanitizerSession(specs.load(lab), scratch_root.name), Sub()
            sub.sanitizer_runs = cases.sanitizer_runs(session.spec, 1)
            sub.result = {"sanitizer": {}}
            made.clear()
            sanitizer_runs.run_sanitizer(session, sub)
            verdicts = sub.result["sanitizer"]
            assert 1 <= made.count("memcheck") <= most_memchecks, (lab, made)
            assert not verdicts["memcheck"]["clean"] and "time limit" in verdicts["memcheck"]["run"], verdicts["memcheck"]
            for tool in ("racecheck", "synccheck"):
                assert made.count(tool) == 4 and verdicts[tool]["clean"] and verdicts[tool]["runs"] == 4, (lab, tool, made, verdicts)
    finally:
        sandbox.run = saved
        scratch_root.cleanup()


def a_twin_run_has_the_tools_time():
    """A sanitizer run's twin without the tool (whose verdicts it is compared with) has the tool's
    time limit, not a hidden case's: on a loaded host a twin cut short made the tool dirty for the
    host's sake. A tool made dirty by a difference says how its twin ended."""
    from convlab_grader import sandbox, sanitizer_runs
    spec = specs.load(3)
    twin_limits = []
    scratch_root = tempfile.TemporaryDirectory()

    def check(sub, out, name, args):  # every result right under the tool, none without it
        return {} if name.endswith("-without") else {v["raw"]: {"status": "pass", "message": ""} for v in spec["variants"]}

    class Sub:
        identity, binary, result = None, "lab-stand-in", {"sanitizer": {}}

    def stand_in(_isolation, argv, _cwd, limit, *_args, **_kwargs):
        if argv[0] == "compute-sanitizer":
            return sandbox.Outcome(0, "", "", 0.1, False)
        twin_limits.append(limit)
        return sandbox.Outcome(-9, "", "", limit, True)  # the twin ran out of time

    saved = sandbox.run
    try:
        sandbox.run = stand_in
        sub = Sub()
        sub.sanitizer_runs = cases.sanitizer_runs(spec, 1)
        sanitizer_runs.run_sanitizer(StandInSanitizerSession(spec, scratch_root.name, check), sub)
    finally:
        sandbox.run = saved
        scratch_root.cleanup()
    limit = max(spec["time_limit_s"], spec["sanitizer"].get("time_limit_s", 180))
    assert twin_limits and set(twin_limits) == {limit} and limit > spec["time_limit_s"], (twin_limits, limit)
    memcheck = sub.result["sanitizer"]["memcheck"]
    assert not memcheck["clean"] and f"(that run: killed after the {limit} s time limit)" in memcheck["findings"][0], memcheck


def drawn_cases_differ_by_student():
    """Each student's hidden and timed cases come from the secret mixed with the name; a lab's
    timed cases get different borders; cases sharing arguments (lab 5) still share one draw;
    a spec's random masks are separable ones (outer:K:S) when it says so, Gaussians with a drawn
    sigma and drawn thresholds for lab 8; the sanitizer covers every border and channel count on
    drawn shapes, wide and tall ones among them."""
    lab3 = specs.load(3)
    a, b = cases.student_secret(7, "alice"), cases.student_secret(7, "bob")
    assert a != b and cases.student_secret(7, "alice") == a
    assert cases.hidden_cases(lab3, a) != cases.hidden_cases(lab3, b)
    timed = cases.timed_cases(lab3, a)
    border = lambda case: case["args"][case["args"].index("--border") + 1]  # noqa: E731
    for secret in range(50):  # the borders are taken in turn over a lab's cases, whatever the draw
        both = cases.timed_cases(lab3, secret)
        assert len(both) == 2 and border(both[0]) != border(both[1]), [c["args"] for c in both]
    assert timed[0]["args"] != cases.timed_cases(lab3, b)[0]["args"]
    for case in timed:
        w, h = case["args"][case["args"].index("--size") + 1].split("x")
        assert "--seed" in case["args"] and int(w) <= 4096 and int(h) <= 4096, case["args"]
    lab5 = cases.timed_cases(specs.load(5), a)
    assert performance.timing_groups(lab5) == [list(range(len(lab5)))], [c["args"] for c in lab5]
    drawn = [c["mask"] for c in cases.hidden_cases(lab3, a)]
    assert any(m.startswith("random:") for m in drawn) and not any(m.startswith("outer:") for m in drawn), drawn
    separable = [c["mask"] for c in cases.hidden_cases(dict(lab3, random_masks="outer"), a)]
    assert any(m.startswith("outer:") for m in separable) and not any(m.startswith("random:") for m in separable), separable
    assert [cases.mask_size(m) for m in separable] == [cases.mask_size(m) for m in drawn], "the same sizes, another kind"
    # Lab 7: its drawn masks are boxes (no seed to draw), and its bright cases run on --image bright
    # with a seed of their own, after the ordinary cases.
    lab7 = specs.load(7)
    boxes = cases.hidden_cases(lab7, a)
    assert all(c["mask"] in lab7["named_masks"] or re.fullmatch(r"box:\d+", c["mask"]) for c in boxes), boxes
    assert any(c["mask"].startswith("box:") for c in boxes), boxes
    bright = [c for c in boxes if c.get("image") == "bright"]
    assert len(bright) == len(lab7["bright_cases"]) and boxes[-len(bright):] == bright, bright
    args = cases.input_args(bright[0])
    assert args[args.index("--image") + 1] == "bright" and "--seed" in args, args
    assert "bright image" in cases.describe(bright[0]), cases.describe(bright[0])
    assert bright[0]["seed"] != cases.hidden_cases(lab7, b)[-len(bright)]["seed"], "each student's own bright input"
    # Lab 8: Gaussians with a drawn sigma (0.5 to K/3, the spec's sizes), then its fixed images,
    # each with a seed of its own; the thresholds every case takes.
    lab8 = specs.load(8)
    canny = cases.hidden_cases(lab8, a)
    gauss = [re.fullmatch(r"gauss:(\d+):(\d+\.\d\d)", c["mask"]) for c in canny[:-len(lab8["image_cases"])]]
    assert all(gauss) and {int(m[1]) for m in gauss} == set(lab8["mask_sizes"]), [c["mask"] for c in canny]
    assert all(0.5 <= float(m[2]) <= max(0.5, int(m[1]) / 3) + 0.005 for m in gauss), [m[0] for m in gauss]
    assert len({m[2] for m in gauss}) > len(gauss) // 2, "sigmas drawn, not fixed"
    fixed = canny[-len(lab8["image_cases"]):]
    assert [c["image"] for c in fixed] == [c["image"] for c in lab8["image_cases"]], fixed
    assert fixed[0]["seed"] != cases.hidden_cases(lab8, b)[-len(fixed)]["seed"], "each student's own seed"
    assert "spiral image" in cases.describe(fixed[0]) and "extra_args" not in lab8
    # Its thresholds are drawn a case, within the spec's ranges (the spiral's and the lines' own).
    for c, holder in zip(canny, [lab8] * (len(canny) - len(fixed)) + lab8["image_cases"]):
        ranges = holder.get("drawn_options", lab8["drawn_options"])
        drawn_values = dict(zip(c["options"][::2], map(float, c["options"][1::2])))
        assert set(drawn_values) == set(ranges) and all(lo <= drawn_values[n] <= hi for n, (lo, hi) in ranges.items()), (c, ranges)
    assert len({tuple(c["options"]) for c in canny}) == len(canny), "thresholds drawn, not fixed"
    # Lab 9: each shape's case under a budget of three strips of the spec's rows, in turn, of its
    # own width, channels and mask (common/families/strips/strips.hpp's strip_device_bytes); its image cases' own.
    lab9 = specs.load(9)
    strips = cases.hidden_cases(lab9, a)
    shaped = strips[:-len(lab9["image_cases"])]
    for n, c in enumerate(shaped):
        width, rows, k = int(c["size"].split("x")[0]), lab9["budget_rows"][n % len(lab9["budget_rows"])], cases.mask_size(c["mask"])
        assert int(c["gpu_memory"]) == 3 * ((rows + k - 1) * width * c["channels"] + rows * width * c["channels"] * 4), c
    assert [c["gpu_memory"] for c in strips[-len(lab9["image_cases"]):]] == [c["gpu_memory"] for c in lab9["image_cases"]]
    args = cases.input_args(shaped[0])
    assert args[args.index("--gpu-memory") + 1] == shaped[0]["gpu_memory"], args
    assert "B of device memory" in cases.describe(shaped[0]) and "--gpu-memory" not in cases.input_args(canny[0])
    runs = cases.sanitizer_runs(lab3, a)
    seen = {(tool, case["border"], case["channels"]) for tool, case in runs}
    for tool in lab3["sanitizer"]["tools"]:
        assert {b for t, b, _ in seen if t == tool} == set(lab3["borders"]), (tool, seen)
        assert {c for t, _, c in seen if t == tool} == set(lab3["channels"]), (tool, seen)
    # The sanitizer's shapes are drawn: wide, tall and blocks within its pixels, none the same for
    # another student; its masks of the spec's sizes and kind; lab 9's under a strip budget.
    sides = [tuple(map(int, case["size"].split("x"))) for _, case in runs]
    pixels = lab3["sanitizer"].get("pixels", cases.SANITIZER_PIXELS)
    assert all(w * h <= pixels for w, h in sides), sides
    assert any(w > 256 and h <= 12 for w, h in sides) and any(h > 256 and w <= 12 for w, h in sides), sides
    assert [c["size"] for _, c in runs] != [c["size"] for _, c in cases.sanitizer_runs(lab3, b)], "each student's own shapes"
    assert all(cases.mask_size(c["mask"]) in lab3["sanitizer"]["mask_sizes"] and c["mask"].startswith("random:") for _, c in runs)
    assert all("--gpu-memory" in cases.input_args(c) for _, c in cases.sanitizer_runs(lab9, a))
    # Lab 9's sanitizer runs hold at most max_strips strips (a tool's time is per launch), the
    # last of them short where the drawn height left a remainder, and its racecheck runs at most
    # max_taps taps (racecheck's time is per shared-memory read); its other tools' are not cut.
    cap, taps, tall, uncut = lab9["sanitizer"]["max_strips"], lab9["sanitizer"]["max_taps"]["racecheck"], 0, 0
    for secret in range(40):
        for tool, c in cases.sanitizer_runs(lab9, secret):
            width, height = map(int, c["size"].split("x"))
            k, row = cases.mask_size(c["mask"]), width * c["channels"]
            assert tool != "racecheck" or width * height * c["channels"] * k * k <= taps, c
            uncut += tool != "racecheck" and width * height * c["channels"] * k * k > taps
            rows = (int(c["gpu_memory"]) // 3 - (k - 1) * row) // (5 * row)
            assert int(c["gpu_memory"]) == cases.strip_budget(c, rows), c
            assert -(-height // rows) <= cap, (c, rows)
            tall += height > 12 and width <= 12
    assert tall > 50 and uncut > 50, (tall, uncut)
    assert cases.within_taps("7x2759", 3, 31, 1500000) == "7x74" and cases.within_taps("2759x7", 1, 7, 49 * 700) == "100x7"
    assert cases.within_taps("600x600", 1, 1, 500) == "500x1" and cases.within_taps("9x9", 3, 31, None) == "9x9"
    assert cases.within_strips("7x2759", 1, 64) == "7x64" and cases.within_strips("7x2759", 16, 64) == "7x1016"
    assert cases.within_strips("7x2759", 64, 64) == "7x2759" and cases.within_strips("7x50", 1, None) == "7x50"


def reports_of_another_schema_are_refused():
    """The grader reads report schema 2 alone: a report of schema 1 (a program built with an older
    kit, or one that forges its report) is refused with one line and read as no report, so a
    refusal it claims earns nothing; a row's own figures are read by name."""
    old = json.dumps({"schema": "convlab.report/1", "results": [{"variant": "tiled", "status": "skipped"}]})
    try:
        reports.load(old, "lab3")
        raise AssertionError("a report of schema 1 was read")
    except reports.ReportError as why:
        assert "'convlab.report/1'" in str(why) and reports.SCHEMA in str(why) and "\n" not in str(why), why
    assert reports.parse(old) is None and reports.parse("[1, 2]") is None and reports.parse("garbage") is None
    assert reports.parse(json.dumps({"schema": reports.SCHEMA, "results": []})) == {"schema": reports.SCHEMA, "results": []}
    row = {"figures": [{"name": "stage", "unit": "", "value": "hysteresis"}, {"name": "rounds", "unit": "", "value": 3}]}
    assert reports.figures(row) == {"stage": "hysteresis", "rounds": 3} and reports.figures({"figures": None}) == {}


def gradescope_json():
    result = {"student": "s", "lab": 3, "score": 70.5, "max_score": 100, "manual": 0, "missing": [], "ignored": [],
              "build": {"ok": True, "log": ""}, "cases": [], "deductions": [],
              "variants": {"tiled": {"passed": 20, "total": 24, "first_failure": "case 3: wrong", "points": 55, "score": 45.83}},
              "performance": {"cases": [{"args": "--size 4096", "variants": ["tiled"], "ratio": 1.5, "fraction": 0.83, "problem": None, "submission_ms": 1.5, "reference_ms": 1.0}], "fraction": 0.833},
              "sanitizer": {"memcheck": {"points": 6, "clean": True, "run": "exit status 0", "findings": []}},
              "scores": {"correctness": 45.83, "performance": 24.99, "safety": 0.0},
              "rubric": {"correctness": 55, "performance": 30, "safety": 15}}
    doc = json.loads(json.dumps(report.gradescope(result)))
    assert doc["score"] == 70.5 and isinstance(doc["tests"], list), doc
    assert sum(t["max_score"] for t in doc["tests"]) == 100, doc["tests"]
    for t in doc["tests"]:
        assert set(t) >= {"name", "score", "max_score", "output", "visibility"}, t
    assert "20 of 24" in doc["tests"][0]["output"]
    assert "tiled at --size 4096: 1.50x" in doc["tests"][1]["output"], doc["tests"][1]


def timed_cases_share_runs():
    """Performance cases that differ only in the variants they time share a process per run;
    any other difference keeps them apart."""
    lab5 = specs.load(5)["performance"]["cases"]
    assert performance.timing_groups(lab5) == [list(range(len(lab5)))], performance.timing_groups(lab5)
    a = {"args": ["--size", "64"], "variants": ["x"], "requires": ["X"]}
    cases = [a, dict(a, variants=["y"], requires=["Y"]), dict(a, args=["--size", "65"]), dict(a, reps=3)]
    assert performance.timing_groups(cases) == [[0, 1], [2], [3]], performance.timing_groups(cases)


def time_limit_kills_the_whole_group():
    iso = sandbox.Isolation()
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o777)
        # A duration of this run's own, so that another test run on the machine (its sleepers are
        # the same command) is not taken for a survivor of this one.
        token = f"60.{random.randrange(10**6):06d}"
        started = time.time()
        out = sandbox.run(iso, ["sh", "-c", f"sleep {token} & sleep {token}"], tmp, 1)
        assert out.timed_out and time.time() - started < 10, out.describe()
        # The background sleep is gone too: nothing of the process group outlives the limit. A
        # killed process still shows in /proc until the kernel has run its exit, which on a busy
        # machine takes a moment: up to 15 s are allowed, not the sleep's 60 (5 s was once too few
        # on a 2-core machine compiling beside the tests).
        def sleepers():
            left = []
            for pid in filter(str.isdigit, os.listdir("/proc")):
                try:
                    with open(f"/proc/{pid}/cmdline", "rb") as f:
                        if f.read().split(b"\0")[:2] == [b"sleep", token.encode()]:
                            left.append(pid)
                except OSError:
                    pass
            return left
        deadline = time.time() + 15
        while sleepers() and time.time() < deadline:
            time.sleep(0.1)
        assert not sleepers(), f"left running: {sleepers()}"
        crash = sandbox.run(iso, ["sh", "-c", "kill -SEGV $$"], tmp, 10)
        assert crash.crashed and "SIGSEGV" in crash.describe(), crash.describe()


def other_gpus_device_files_are_covered():
    """Under a lease on one GPU of several, a jailed run cannot open the other GPUs' device files
    (gpu_pool.device_files_to_cover, by the driver's UUID and minor numbers): each is covered inside
    the jail by a file its user may not read, and stays as it was outside. Stand-ins here: a fake
    driver folder, and a file of the submission's own in place of /dev/nvidiaN."""
    with tempfile.TemporaryDirectory() as tmp:
        driver = os.path.join(tmp, "gpus")
        for bus, uuid, minor in (("0000:18:00.0", "GPU-aaaa", 0), ("0000:2a:00.0", "GPU-bbbb", 1), ("0000:3a:00.0", "GPU-cccc", 2)):
            os.makedirs(os.path.join(driver, bus))
            with open(os.path.join(driver, bus, "information"), "w") as f:
                f.write(f"Model: \t\t NVIDIA H100 80GB HBM3\nIRQ:   \t\t 1\nGPU UUID: \t GPU-{uuid[4:]}\nDevice Minor: \t {minor}\n")
        assert gpu_pool.device_minors.__wrapped__(driver) == {"GPU-aaaa": 0, "GPU-bbbb": 1, "GPU-cccc": 2}
        saved_minors, saved_held = gpu_pool.device_minors, getattr(gpu_pool._held, "gpu", None)
        try:
            gpu_pool.device_minors = lambda: saved_minors.__wrapped__(driver)
            gpu_pool._held.gpu = gpu_pool.Gpu("1", "H100", "GPU-bbbb")
            assert gpu_pool.device_files_to_cover() == ["/dev/nvidia0", "/dev/nvidia2"], gpu_pool.device_files_to_cover()
            gpu_pool._held.gpu = gpu_pool.Gpu("1", "H100", "GPU-unknown")
            assert gpu_pool.device_files_to_cover() == []
            gpu_pool._held.gpu = None
            assert gpu_pool.device_files_to_cover() == []
        finally:
            gpu_pool.device_minors, gpu_pool._held.gpu = saved_minors, saved_held
        iso = sandbox.Isolation([os.path.join(tmp, "work")])
        if iso.prefix is None or not iso.root:
            raise Skip("the jail part needs root and unshare (mount, PID and network namespaces): " + "; ".join(iso.notes))
        alice = iso.identity(0, os.path.join(tmp, "work", "submissions", "alice"))
        device, other = os.path.join(alice.folder, "nvidia1"), os.path.join(alice.folder, "nvidia0")
        for path in (device, other):
            with open(path, "w") as f:
                f.write("a GPU\n")
            os.chmod(path, 0o666)
        saved = gpu_pool.device_files_to_cover
        try:
            gpu_pool.device_files_to_cover = lambda: [device]
            seen = sandbox.run(iso, ["sh", "-c", f"cat {device} 2>&1; echo; cat {other}; echo changed > {device} 2>&1; echo"],
                               alice.folder, 20, identity=alice)
        finally:
            gpu_pool.device_files_to_cover = saved
        assert "a GPU" not in seen.stdout.split("\n")[0] and "ermission denied" in seen.stdout, seen.stdout + seen.stderr
        assert seen.stdout.count("a GPU") == 1, seen.stdout  # the file not covered reads as before
        with open(device) as f:
            assert f.read() == "a GPU\n", "the covered file changed outside the jail"


def jailed_runs_are_isolated():
    """Two submissions' identities, as the grader gives them: each run sees a private /tmp and
    /dev/shm, its own processes only, none of the hidden paths nor a stray copy of the kit, has no
    capabilities and cannot gain any (no_new_privs), and cannot write into the other's folder; a daemon it starts (setsid, holding the output pipe) neither survives the run nor
    holds the grader past the limit; a crash inside the jail is still a crash."""
    with tempfile.TemporaryDirectory() as tmp:
        secret_dir = os.path.join(tmp, "kit")
        os.makedirs(os.path.join(secret_dir, "solutions"))
        with open(os.path.join(secret_dir, "solutions", "answer.txt"), "w") as f:
            f.write("the reference solution\n")
        iso = sandbox.Isolation([secret_dir, os.path.join(tmp, "work")])
        if iso.prefix is None or not iso.root:
            raise Skip("needs root and unshare (mount, PID and network namespaces): " + "; ".join(iso.notes))
        alice = iso.identity(0, os.path.join(tmp, "work", "submissions", "alice"))
        bob = iso.identity(1, os.path.join(tmp, "work", "submissions", "bob"))
        assert alice.uid != bob.uid and alice.uid not in (0, None), (alice.uid, bob.uid)

        def jailed(who, script, limit=20):
            return sandbox.run(iso, ["sh", "-c", script], who.folder, limit, identity=who)

        # Another copy of the kit that nobody named as hidden: outside the system's trees, so unseen.
        stray = tempfile.mkdtemp(prefix="convlab-test-", dir="/var" if os.access("/var", os.W_OK) else None)
        with open(os.path.join(stray, "answer.txt"), "w") as f:
            f.write("the reference solution\n")
        os.chmod(stray, 0o755)
        os.chmod(os.path.join(stray, "answer.txt"), 0o644)
        seen = jailed(alice, f"id -u; ls -A /tmp | tr '\\n' ' '; echo; ls /proc | grep -c '^[0-9]'; "
                             f"cat {secret_dir}/solutions/answer.txt {stray}/answer.txt 2>&1; "
                             f"ls {tmp}/work/submissions | tr '\\n' ' '; echo; "
                             f"echo kept > /tmp/note; echo kept > /dev/shm/note; touch {bob.folder}/planted 2>&1; "
                             f"touch {alice.folder}/mine && echo wrote-own")
        lines = seen.stdout.split("\n")
        assert seen.status == 0 and lines[0] == str(alice.uid), seen.stdout + seen.stderr
        # Only the way to its own folder (which sits under /tmp here) is in the private /tmp.
        own_path = [os.path.relpath(alice.folder, "/tmp").split("/")[0]] if alice.folder.startswith("/tmp/") else []
        assert lines[1].split() == own_path, f"/tmp holds {lines[1]!r}, expected only {own_path}"
        assert int(lines[2]) <= 4, f"the jail sees {lines[2]} processes: not a PID namespace of its own"
        shutil.rmtree(stray, ignore_errors=True)
        assert "the reference solution" not in seen.stdout, "a hidden path, or a copy of the kit elsewhere, was readable"
        assert lines[5].split() == ["alice"], f"other submissions' folders are visible: {lines[5]!r}"
        assert "planted" not in os.listdir(bob.folder), "a submission wrote into another's folder"
        assert "wrote-own" in seen.stdout, seen.stdout + seen.stderr
        privileges = jailed(alice, "grep -E '^(CapEff|NoNewPrivs)' /proc/self/status | tr -s '\\t' ' '")
        assert privileges.stdout.split("\n")[:2] == ["CapEff: 0000000000000000", "NoNewPrivs: 1"], privileges.stdout
        later = jailed(bob, "cat /tmp/note /dev/shm/note 2>/dev/null; echo end")
        assert later.stdout.strip() == "end", f"a file from the earlier run survived: {later.stdout}"

        started = time.time()
        daemon = jailed(alice, "setsid sh -c 'sleep 300' & sleep 300 & echo started", limit=30)
        assert daemon.status == 0 and "started" in daemon.stdout and time.time() - started < 10, \
            f"background processes holding the output kept the run going: {daemon.describe()}"
        started = time.time()
        hung = jailed(alice, "setsid sh -c 'sleep 300' & sleep 300", limit=2)
        assert hung.timed_out and time.time() - started < 2 + sandbox.DRAIN_SECONDS, hung.describe()
        escaped = jailed(alice, "setsid sh -c 'exec sleep 300' </dev/null >/dev/null 2>&1 & echo left")
        assert escaped.status == 0 and "left" in escaped.stdout, escaped.describe()
        time.sleep(0.2)
        alive = sandbox.pids_of(alice.uid)
        assert not alive, f"processes of the submission outlived its run: {alive}"
        crash = jailed(alice, "kill -SEGV $$")
        assert crash.crashed and "SIGSEGV" in crash.describe(), crash.describe()


def peer_socket_reaches_a_jailed_run():
    """Peer timing's plumbing without a GPU: the socket the grader passes (pass_fds) reaches a
    jailed run under the same number, through unshare and the jail, and carries a descriptor
    both ways (SCM_RIGHTS, as the shared buffers travel), while the run has no network."""
    with tempfile.TemporaryDirectory() as tmp:
        iso = sandbox.Isolation([os.path.join(tmp, "work")])
        if iso.prefix is None:
            raise Skip("needs unshare (namespaces): " + "; ".join(iso.notes))
        if not os.path.exists("/usr/bin/python3"):
            raise Skip("needs /usr/bin/python3 to run inside the jail")
        who = iso.identity(0, os.path.join(tmp, "work", "submissions", "alice"))
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        with ours:
            with open(os.path.join(tmp, "grader-only.txt"), "w") as f:
                f.write("passed by descriptor")
            readable = os.open(os.path.join(tmp, "grader-only.txt"), os.O_RDONLY)
            socket.send_fds(ours, [b"hello"], [readable])
            os.close(readable)
            script = ("import os, socket\n"
                      f"s = socket.socket(fileno={theirs.fileno()})\n"
                      "msg, fds, _, _ = socket.recv_fds(s, 100, 4)\n"
                      "text = os.read(fds[0], 100)\n"
                      "r, w = os.pipe()\n"
                      "os.write(w, b'from the jail')\n"
                      "socket.send_fds(s, [msg + b' ' + text], [r])\n")
            # The system's python3: the jail shows the system's trees only, not a python under /root.
            ran = sandbox.run(iso, ["/usr/bin/python3", "-c", script], who.folder, 20, identity=who, pass_fds=[theirs.fileno()])
            theirs.close()
            assert ran.status == 0, ran.describe() + ran.stderr
            msg, fds, _, _ = socket.recv_fds(ours, 100, 4)
            assert msg == b"hello passed by descriptor" and len(fds) == 1, (msg, fds)
            assert os.read(fds[0], 100) == b"from the jail"
            os.close(fds[0])


# A stand-in for the reference build as the grader's timer and for a program it times, so that the
# grader's side of peer timing runs without a GPU: the timer says "go" per repetition over the
# socket, the program answers with the time it claims, and the timer reports both clocks.
FAKE_PEER = """#!/usr/bin/python3
import json, socket, sys, time
args = sys.argv[1:]
if "--timed-by" in args:  # the program: 20 ms of work per "go", reported divided by DIVIDE
    link = socket.socket(fileno=int(args[args.index("--timed-by") + 1]))
    while link.recv(100):
        start = time.monotonic()
        time.sleep(0.02)
        link.send(str((time.monotonic() - start) * 1e3 / DIVIDE).encode())
    sys.exit(0)
link = socket.socket(fileno=int(args[args.index("--timer-of") + 1]))
reps = int(args[args.index("--reps") + 1])
results = []
for v in args[args.index("--variant") + 1].split(","):
    claimed, measured = [], []
    for rep in range(reps):
        start = time.monotonic()
        link.send(b"go")
        answer = link.recv(100)
        measured.append((time.monotonic() - start) * 1e3)
        claimed.append(float(answer))
    med = lambda xs: sorted(xs)[len(xs) // 2]
    results.append({"variant": v, "status": "pass", "time": {"median_ms": med(claimed)}, "peer_time": {"median_ms": med(measured)}})
print(json.dumps({"schema": "SCHEMA", "results": results, "device": {}}))
"""


class FakeSession:
    """What performance.measure uses of a grading session: its spec, jail and reference, and the
    real session's scratch and private folders."""
    from convlab_grader.grader import Session
    scratch, private = Session.scratch, Session.private

    def __init__(self, spec, iso, tmp, reference, experts=None):
        self.spec, self.isolation, self.reference, self.peer, self.notes = spec, iso, reference, True, []
        self.untimed_device = None  # performance.default_device_not_a_gpu: an OpenCL lab's device
        self.work = tmp
        self.experts = experts or {}  # performance.expert_tier: the reference's NAME-expert variants
        self.gpus = gpu_pool.GpuPool([gpu_pool.Gpu("0", "Stand-in GPU"), gpu_pool.Gpu("1", "Stand-in GPU")])  # grade --gpus 0,1


def peer_timing_plumbing():
    """The grader's side of peer timing without a GPU, with stand-in programs: the socket reaches
    the jailed program and the timer, both clocks come back, an honest program is timed, and one
    that reports a third of its time is timed by the grader's clock: no faster than it is."""
    from convlab_grader import grader
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)
        iso = sandbox.Isolation([os.path.join(tmp, "private")])
        if not os.path.exists("/usr/bin/python3"):
            raise Skip("needs /usr/bin/python3 to run inside the jail")
        timer = os.path.join(tmp, "timer")  # the reference build: timer, and the honest program it times
        with open(timer, "w") as f:
            f.write(FAKE_PEER.replace("DIVIDE", "1").replace("SCHEMA", reports.SCHEMA))
        os.chmod(timer, 0o755)
        spec = json.loads(json.dumps(specs.load(3)))
        spec["performance"]["runs"] = 2
        for case in spec["performance"]["cases"]:
            case["reps"] = 5
        fraction = {}
        for name, divide in (("honest", 1), ("forger", 3)):
            folder = os.path.join(tmp, "work", name)
            os.makedirs(folder)
            program = os.path.join(folder, "program")
            with open(program, "w") as f:
                f.write(FAKE_PEER.replace("DIVIDE", str(divide)).replace("SCHEMA", reports.SCHEMA))
            os.chmod(program, 0o755)
            identity = iso.identity(0 if name == "honest" else 1, folder)
            iso.hand_over(folder, identity)
            sub = grader.Submission(name=name, folder=folder, identity=identity, cases=[], sanitizer_runs=[], binary=program,
                                    timed=cases.timed_cases(spec, 7), result={"variants": {"tiled": {"passed": 1, "total": 1}}})
            # The reference's expert tier is timed in its runs, for the report: lab 3's has none,
            # so the stand-in plays one.
            session = FakeSession(spec, iso, tmp, timer, {"tiled": ["tiled-expert"]})
            performance.measure(session, sub)
            perf = sub.result["performance"]
            fraction[name] = perf["fraction"]
            for c in perf["cases"]:
                assert c["expert_ms"] and c["expert_ms"] >= 20, c  # the stand-in's 20 ms of work
            assert "expert tier" in report.text_report(dict(lab=3, student=name, score=0, max_score=100, missing=[], ignored=[],
                                                            build={"ok": True}, performance=perf)), perf
            for c in perf["cases"]:
                assert len(c["submission_peer_runs_ms"]) == 2 and all(p >= 20 for p in c["submission_peer_runs_ms"]), c
                # each pair of runs had a GPU to itself, and the report names it
                assert c["gpus"] and set(c["gpus"]) <= {"GPU 0 (Stand-in GPU)", "GPU 1 (Stand-in GPU)"}, c
            if name == "forger":  # timed at what it took, by the grader's clock: no faster than the honest one
                assert all("grader's clock" in (c["clock"] or "") and not c["problem"] for c in perf["cases"]), perf["cases"]
                assert all(c["submission_ms"] >= 0.8 * c["reference_ms"] for c in perf["cases"]), perf["cases"]
            else:
                assert not any(c["clock"] for c in perf["cases"]), perf["cases"]
        # The honest stand-in is timed against a reference that is the same stand-in: no problem.
        assert fraction["honest"] > 0 and fraction["forger"] <= fraction["honest"], fraction


FAKE_CL_LIST = """#!/bin/sh
echo "OpenCL devices (--cl-device takes the index or a part of the name):"
echo "  0  cpu-stand-in; platform Portable Computing Language (OpenCL 3.0 PoCL); driver 5.0; 2 compute units, 1 GiB FIRST"
echo "  1  NVIDIA Stand-in (GPU); platform NVIDIA CUDA (OpenCL 3.0 CUDA 13.0); driver 580; 132 compute units, 79 GiB SECOND"
"""


def opencl_labs_timed_on_a_gpu_alone():
    """An OpenCL lab ("timer": "program") is timed by its program's own report, which a kernel
    running inside that program (PoCL, on the CPU) could rewrite: its times count on a GPU alone.
    The session's device is the reference's default (--cl-list): where it is not a GPU no timed run
    is made (the submission's program is never started) and every timed case earns nothing, saying
    why; a run whose report names a device other than a GPU does not count either. A CUDA lab is
    peer-timed, whatever its report says of its device (spec_mistakes_are_refused: nor may its spec
    let it time itself)."""
    from convlab_grader import grader
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)
        iso = sandbox.Isolation([os.path.join(tmp, "private")])
        spec = json.loads(json.dumps(specs.load(12)))
        assert performance.timed_by_the_program(spec) and not performance.peer_timed(spec)
        assert performance.peer_timed(specs.load(3)) and not performance.timed_by_the_program(specs.load(3))
        reference = os.path.join(tmp, "reference")
        for default, says in (("FIRST", "cpu-stand-in"), ("SECOND", None)):
            with open(reference, "w") as f:
                f.write(FAKE_CL_LIST.replace(default, "[the default]"))
            os.chmod(reference, 0o755)
            session = FakeSession(spec, iso, tmp, reference)
            session.peer = False
            why = performance.default_device_not_a_gpu(session)
            assert (why is None) == (says is None) and (says is None or f"device is {says}," in why and "no performance points" in why), why
            assert session.notes == ([why] if why else []), session.notes
        # The session's device is not a GPU: the submission's program is never run.
        session = FakeSession(spec, iso, tmp, reference)
        session.peer, session.untimed_device = False, "timed on a GPU alone: stand-in"
        folder = os.path.join(tmp, "work", "student")
        os.makedirs(folder)
        sub = grader.Submission(name="student", folder=folder, identity=None, cases=[], sanitizer_runs=[],
                                binary=os.path.join(tmp, "never-run"), timed=cases.timed_cases(spec, 7),
                                result={"variants": {"tiled": {"passed": 1, "total": 1}}})
        performance.measure(session, sub)
        perf = sub.result["performance"]
        assert perf["fraction"] == 0 and perf["cases"] and all(c["problem"] == "timed on a GPU alone: stand-in" and c["fraction"] == 0
                                                                and not c["submission_runs_ms"] for c in perf["cases"]), perf
    for device, counts in (({"type": "GPU", "name": "NVIDIA H100"}, True), ({"type": "CPU", "name": "pthread"}, False), ({}, False)):
        why = performance.not_on_a_gpu(spec, {"device": device})
        assert (why is None) == counts and (counts or "timed on a GPU alone" in why), (device, why)
    assert performance.not_on_a_gpu(specs.load(3), {"device": {"type": "CPU"}}) is None  # peer-timed: the grader's clock


def expert_tier_read_from_the_reference():
    """The grader learns the reference's expert tier from its --help: lab 6's reference has
    two-pass-expert and fused-expert, a student build none."""
    make("build/bin/lab6-solution", "build/bin/lab6-student")
    bins = os.path.join(ROOT, "build", "bin")
    tier = performance.expert_tier(os.path.join(bins, "lab6-solution"))
    assert tier == {"two-pass": ["two-pass-expert"], "fused": ["fused-expert"]}, tier
    assert performance.expert_tier(os.path.join(bins, "lab6-student")) == {}


STAND_IN_REFERENCE = """#!/bin/sh
# A reference solution's stand-in: fails as a GPU CUDA cannot use does, on the GPUs named in DEAD.
for dead in DEAD; do
  if [ "$CUDA_VISIBLE_DEVICES" = "$dead" ]; then echo "lab3: no usable GPU (CUDA error: no CUDA-capable device is detected)" >&2; exit 3; fi
done
echo "$@" > "$0.args"
exit 0
"""


def a_device_the_reference_fails_on_grades_nothing():
    """Before anything is graded, the reference solution runs the first hidden case (--check-only)
    on each of the session's GPUs: one it fails on (listed by nvidia-smi, unusable by CUDA) stops
    the session with the reference's own line and the GPU named, rather than giving every
    submission zero; a lab on the CPU runs nothing."""
    from types import SimpleNamespace
    from convlab_grader import grader
    with tempfile.TemporaryDirectory() as tmp:
        reference = os.path.join(tmp, "lab3-solution")
        spec = specs.load(3)
        pool = gpu_pool.GpuPool([gpu_pool.Gpu("0", "Stand-in GPU"), gpu_pool.Gpu("1", "Stand-in GPU")])
        for dead, fails_on in (("none", None), ("1", "GPU 1 (Stand-in GPU)"), ("0 1", "GPU 0 (Stand-in GPU)")):
            with open(reference, "w") as f:
                f.write(STAND_IN_REFERENCE.replace("DEAD", dead))
            os.chmod(reference, 0o755)
            session = SimpleNamespace(spec=spec, secret=5, gpus=pool, reference=reference, lab=3)
            try:
                grader.Session.refuse_a_device_the_reference_fails_on(session)
                assert fails_on is None, f"a reference failing on {fails_on} was not refused"
            except RuntimeError as why:
                assert fails_on and f"on {fails_on} (exit status 3: lab3: no usable GPU" in str(why) and "nothing is graded" in str(why), why
        with open(reference + ".args") as f:
            ran = f.read().split()
        assert ran[0] == "--check-only" and "--seed" in ran and "--size" in ran, ran  # a hidden case, checked
        cpu = SimpleNamespace(spec=specs.load(0), secret=5, gpus=pool, reference=os.path.join(tmp, "never-run"), lab=0)
        grader.Session.refuse_a_device_the_reference_fails_on(cpu)


def sweep_leaves_nothing_running():
    """What the grader counts as a submission's process left running: a zombie (ended, its status
    not yet read) is not one; a live process of the submission's user is, and sweep kills it and
    returns once it is gone, counting it once however many times it was signalled."""
    if os.geteuid() != 0 or not shutil.which("setpriv"):
        raise Skip("needs root and setpriv to run a process as another user")
    ended = subprocess.Popen(["true"])
    time.sleep(0.3)  # a zombie until waited for
    try:
        assert ended.pid not in [pid for pid, _ in sandbox.processes()], "a zombie was listed as running"
    finally:
        ended.wait()
    uid = sandbox.UID_BASE + 100 * sandbox.UID_BLOCK + 7  # past every session's block
    sleepers = [subprocess.Popen(["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "sleep", "60"]) for _ in range(2)]
    try:
        deadline = time.time() + 10
        while len(sandbox.pids_of(uid)) < 2 and time.time() < deadline:
            time.sleep(0.05)
        assert len(sandbox.pids_of(uid)) == 2, sandbox.pids_of(uid)
        assert sandbox.sweep(uid, wait_s=10) == 2
        assert sandbox.pids_of(uid) == [], "sweep returned with the user's processes still running"
    finally:
        for p in sleepers:
            p.kill()
            p.wait()


def result_files_are_collected_safely():
    """The trusted checker reads copies of plain files only: a link to a file the grader can read,
    a fifo or a folder left in a result folder is not followed."""
    with tempfile.TemporaryDirectory() as tmp:
        src, dest = os.path.join(tmp, "src"), os.path.join(tmp, "dest")
        os.makedirs(src)
        with open(os.path.join(src, "good.f32"), "wb") as f:
            f.write(b"\0" * 16)
        with open(os.path.join(tmp, "private.txt"), "w") as f:
            f.write("not the submission's")
        os.symlink(os.path.join(tmp, "private.txt"), os.path.join(src, "link.f32"))
        os.link(os.path.join(tmp, "private.txt"), os.path.join(src, "hard.f32"))
        os.mkfifo(os.path.join(src, "fifo.f32"))
        os.makedirs(os.path.join(src, "folder.f32"))
        with open(os.path.join(src, "big.f32"), "wb") as f:
            f.write(b"\0" * 100)
        sandbox.collect_files(src, dest, 64)
        assert sorted(os.listdir(dest)) == ["good.f32"], os.listdir(dest)


def archives_are_read_safely():
    spec = specs.load(3)
    with tempfile.TemporaryDirectory() as tmp:
        good = os.path.join(tmp, "alice.zip")
        with zipfile.ZipFile(good, "w") as z:
            z.writestr("alice-lab3/src/conv2d_tiled.cu", "// mine\n")
            z.writestr("alice-lab3/notes.txt", "hello")
        tree = submission.unpack(good, os.path.join(tmp, "a"))
        found, missing, ignored = submission.find_student_files(tree, spec["student_files"])
        assert found == {"labs/lab3/conv2d_tiled.cu": "alice-lab3/src/conv2d_tiled.cu"} and not missing, found
        assert ignored == ["alice-lab3/notes.txt"], ignored
        evil = os.path.join(tmp, "mallory.zip")
        with zipfile.ZipFile(evil, "w") as z:
            z.writestr("../../escape.cu", "x")
        try:
            submission.unpack(evil, os.path.join(tmp, "m"))
            raise AssertionError("an archive member with '..' was accepted")
        except submission.SubmissionError:
            pass
        assert not os.path.exists(os.path.join(tmp, "..", "escape.cu"))


def known_bad_sets_apply():
    """Every known-bad entry of every lab applies to today's solution, carries all of the lab's
    student files (a missing one would be graded as the skeleton's), changes what it names, and,
    where it says it launches no kernel, leaves no launch."""
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        for lab in range(10):
            entries = known_bad.load(lab)
            if not entries:
                continue
            spec = specs.load(lab)
            for entry in entries:
                dest = os.path.join(tmp, f"lab{lab}", entry["name"])
                try:
                    known_bad.materialize(lab, entry, dest)
                except known_bad.KnownBadError as why:
                    problems.append(str(why))
                    continue
                wanted = sorted(os.path.basename(f) for f in spec["student_files"])
                if sorted(os.listdir(dest)) != wanted:
                    problems.append(f"lab {lab} {entry['name']}: wrote {sorted(os.listdir(dest))}, not {wanted}")
                for path in entry["files"]:
                    with open(os.path.join(ROOT, "solutions", os.path.relpath(path, "labs"))) as f, \
                            open(os.path.join(dest, os.path.basename(path))) as g:
                        if f.read() == g.read():
                            problems.append(f"lab {lab} {entry['name']}: {path} is the solution unchanged")
                if entry.get("launches") == "none":
                    for name in sorted(os.listdir(dest)):
                        with open(os.path.join(dest, name)) as f:
                            left = f.read().count("<<<")
                        if left:
                            problems.append(f"lab {lab} {entry['name']}: {name} still has {left} kernel launch(es), "
                                            "and the entry says it launches none: cover the new launch site")
                if not entry.get("description") or not entry.get("expect"):
                    problems.append(f"lab {lab} {entry['name']}: no description or expect")
    assert not problems, "\n".join(problems)


def grade_batch(lab, part=(1, 1), extra_args=(), only=None):
    """Grades the lab's solution, skeleton and every known-bad submission: in one grade command, or
    in up to three, each entry without the sanitizer's runs or the timed cases where its expectations
    read neither. part
    (i, n) with n > 1 grades a piece instead, so that a batch can be checked where a GPU is lent for
    minutes at a time: i = 0 the solution and the skeleton alone (in labs 8 and 9 they take minutes
    each), i = 1 to n the i-th of n slices of the known-bad set. `only` (names) grades those
    known-bad submissions alone, with the solution and the skeleton."""
    spec = specs.load(lab)
    index, count = part
    with_reference = count == 1 or index == 0
    bad = known_bad.load(lab)[index - 1::count] if index else []
    if only:
        unknown = sorted(set(only) - {e["name"] for e in known_bad.load(lab)})
        assert not unknown, f"lab {lab} has no known-bad submission {unknown}"
        bad = [e for e in bad if e["name"] in only]
    probe = sandbox.Isolation()
    isolated, notes = probe.root and probe.prefix, probe.notes
    del probe  # its block of user numbers goes back before the grader claims one
    if not isolated:
        left_out = [e["name"] for e in bad if e.get("needs") == "isolation"]
        bad = [e for e in bad if e.get("needs") != "isolation"]
        if left_out:
            print(f"    note: not graded here, the grader cannot isolate submissions ({'; '.join(notes)}): "
                  f"{', '.join(left_out)}", flush=True)
    # The sanitizer's runs are most of a GPU batch's time, and only the reference solution (full
    # marks) and the entries that expect a tool's verdict need them; the timed cases are much of the
    # rest, and only the reference and the entries whose expectations read performance need those.
    # So each entry is graded in the command whose options its expectations allow: the full one
    # with the reference, one without the sanitizer, one without the sanitizer or the timed cases.
    # An attack on other submissions stays with the reference: its grade is what the attack is judged by.
    groups = {}
    for entry in bad:
        beside_reference = entry.get("needs") == "isolation"
        dropped = tuple(flag for flag, read in (("--no-sanitizer", "safety" in entry["expect"] or not spec.get("sanitizer")),
                                                ("--no-performance", reads_performance(entry) or not spec.get("performance")))
                        if not read and not beside_reference)
        groups.setdefault(dropped, []).append(entry)
    if with_reference:
        groups.setdefault((), [])
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        started = time.time()
        for number, (dropped, entries) in enumerate(sorted(groups.items())):
            batch = os.path.join(tmp, f"group-{number}")  # the submissions alone: whatever else lies here is graded as one
            make_batch(lab, entries, batch, with_reference and not dropped)
            if os.path.isdir(batch):
                # A GPU lab's batch keeps its session and says each verdict as it comes (a device call may
                # cut it); lab 0's goes the plain way, which the resume test does not (the state folder
                # needs the runs kept from it: root, or namespaces).
                kept = isolated and not spec.get("cpu_only")
                results.update(grade_folder(lab, batch, os.path.join(tmp, f"group-{number}-grading"), [*extra_args, *dropped],
                                            (lambda name, result: say_verdict(bad, name, result)) if kept else None))
        without = {flag: sum(len(entries) for dropped, entries in groups.items() if flag in dropped)
                   for flag in ("--no-sanitizer", "--no-performance")}
        print(f"    lab {lab}: {len(results)} submissions graded in {time.time() - started:.0f} s ({without['--no-sanitizer']} without "
              f"the sanitizer, {without['--no-performance']} without the timed cases, whose verdicts do not read them)", flush=True)
    return judge_batch(lab, results, bad, with_reference)


def say_verdict(bad, name, result):
    """A known-bad entry's verdict the moment it is graded (judge_batch gives the batch's at its end).
    An attack on other submissions is judged by their grades too, which may come later: for it,
    only its own result is said."""
    for entry in bad:
        if entry["name"] == name:
            wrong = known_bad.verdict_problems(entry, result)
            verdict = "concluded as described" if entry.get("needs") != "isolation" else \
                "its own result as described (the others' grades judge it at the batch's end)"
            print(f"        {name}: " + (verdict if not wrong else "NOT as described: " + "; ".join(wrong)[:400]), flush=True)


def reads_performance(entry):
    """Whether a known-bad entry's expectations read its timed cases (known_bad.verdict_problems)."""
    return any(key in entry["expect"] for key in ("performance", "performance_problem", "time_ratio_at_least"))


def make_batch(lab, entries, batch, with_reference):
    """A folder of submissions: the known-bad `entries`, and the reference solution and the
    untouched skeleton when asked."""
    for entry in entries:
        known_bad.materialize(lab, entry, os.path.join(batch, entry["name"]))
    for flavour in ("solutions", "labs") if with_reference else ():
        dest = os.path.join(batch, "reference-solution" if flavour == "solutions" else "untouched-skeleton")
        os.makedirs(dest)
        for path in specs.load(lab)["student_files"]:
            shutil.copy(os.path.join(ROOT, flavour, os.path.relpath(path, "labs")), dest)


def judge_batch(lab, results, bad, with_reference):
    """AssertionError naming every result that is not as described: the reference solution's full
    marks (unless the machine is too noisy to time it), the skeleton's zero correctness, each
    known-bad entry's expectations. Returns the results by student."""
    spec = specs.load(lab)
    problems = []
    if with_reference:
        solution = results["reference-solution"]
        if solution["score"] != solution["max_score"] and not too_noisy_to_time(solution, spec) and not timed_on_a_gpu_alone(solution):
            problems.append(f"the reference solution got {solution['score']} of {solution['max_score']}: {solution['scores']}")
        if results["untouched-skeleton"]["scores"]["correctness"] != 0:
            problems.append(f"the skeleton got correctness points: {results['untouched-skeleton']['scores']}")
    caught = 0
    for entry in bad:
        wrong = known_bad.verdict_problems(entry, results[entry["name"]])
        problems += [f"{entry['name']} ({entry['description']}): {w}" for w in wrong]
        caught += not wrong
    print(f"    lab {lab}: {caught} of {len(bad)} known-bad submissions concluded as described", flush=True)
    assert not problems, "\n".join(problems)
    return results


def grade_folder(lab, batch, scratch, extra_args, as_graded=None):
    """One grade command over a folder of submissions, as an instructor runs it; its results by
    student. With as_graded(name, result) the session is kept in a state folder (grade --state) and
    as_graded is called as each submission's result is kept, so that a batch cut short (a GPU lent
    for minutes) still says what it graded. No process of a graded submission may be left running
    after it."""
    os.makedirs(scratch, exist_ok=True)
    out, state = os.path.join(scratch, "results.json"), os.path.join(scratch, "state")
    jobs = str(max(2, min(8, (os.cpu_count() or 2) // 2)))
    with open(os.path.join(scratch, "stdout.txt"), "w+") as stdout:
        grading = subprocess.Popen([GRADE, "--lab", str(lab), batch, *(["--state", state] if as_graded else []), "--json", out,
                                    "--gradebook", os.path.join(scratch, "book.csv"), "--jobs", jobs, *extra_args],
                                   stdout=stdout, stderr=subprocess.PIPE, text=True)
        log = []
        for line in grading.stderr:  # each submission's score and grading time as it comes
            log.append(line)
            if line.startswith(("grade:   ", "grade: note:")):  # notes: peer timing off, say
                print("    " + line[len("grade: "):].rstrip(), flush=True)
            scored = re.match(r"grade:   (\S+): \S+ / \S+ \(graded in", line)
            if scored and as_graded and batch_state.has_result(state, scored.group(1)):  # kept before its line is logged
                with open(batch_state.result_path(state, scored.group(1))) as f:
                    as_graded(scored.group(1), json.load(f))
        status = grading.wait()
        stdout.seek(0)
        assert status == 0, (stdout.read() + "".join(log))[-3000:]
    # Each submission's start says which of how many it is (and, after the first, the time so far).
    starts = [re.match(r"grade: grading \S+ \((\d+) of (\d+)(, \d+ (s|min \d\d s) so far)?\)$", line) for line in log
              if line.startswith("grade: grading ")]
    assert starts and all(starts) and [int(m.group(1)) for m in starts] == list(range(1, len(starts) + 1)), "".join(log)[-2000:]
    assert all(int(m.group(2)) == len(starts) and bool(m.group(3)) == (m.group(1) != "1") for m in starts), "".join(log)[-2000:]
    left = [pid for pid, uid in sandbox.processes()
            if sandbox.UID_BASE <= uid < sandbox.UID_BASE + 100 * sandbox.UID_BLOCK and not sandbox.uid_block_held(uid)]
    assert not left, f"processes of graded submissions still run after the batch: {left}"
    assert os.path.getsize(os.path.join(scratch, "book.csv")) > 0
    return results_of(out)


def timed_on_a_gpu_alone(solution):
    """True when the reference solution lost only performance points, and every timed case says it
    was not timed because this machine's OpenCL device is not a GPU (an OpenCL lab on PoCL:
    performance.default_device_not_a_gpu): nothing here could earn them. It says so; everything
    else about the batch is still checked."""
    scores, rubric = solution["scores"], solution["rubric"]
    if any(scores.get(part, 0) != rubric[part] for part in rubric if part not in ("performance", "manual")):
        return False
    timed = (solution.get("performance") or {}).get("cases") or []
    if not timed or not all((c.get("problem") or "").startswith("timed on a GPU alone") for c in timed):
        return False
    print(f"    note: the reference solution was not timed here ({timed[0]['problem'][:120]}...)", flush=True)
    return True


def too_noisy_to_time(solution, spec):
    """True when the reference solution lost only performance points, and in every case where it
    lost them its own runs (it is timed against itself) spread wider than the slack: the machine
    cannot resolve the rubric's 1.2x there (a 2-core CI VM timing CPU code), which is not the
    grader's fault. It says so; everything else about the batch is still checked."""
    scores, rubric = solution["scores"], solution["rubric"]
    if any(scores.get(part, 0) != rubric[part] for part in rubric if part not in ("performance", "manual")):
        return False
    slack = spec["performance"]["slack"]
    for case in solution["performance"]["cases"]:
        if case["fraction"] == 1:
            continue
        runs = case["submission_runs_ms"] + case["reference_runs_ms"]
        if not runs or max(runs) / min(runs) <= slack:
            return False
        print(f"    note: the reference solution timed against itself spread {max(runs) / min(runs):.2f}x over "
              f"{len(runs)} runs ({case['args']}): too noisy here to check its performance points", flush=True)
    return True


def noise_excuses_only_performance():
    spec = {"performance": {"slack": 1.2}}
    rubric = {"correctness": 60, "performance": 30}
    case = lambda fraction, runs: {"fraction": fraction, "args": "x", "submission_runs_ms": runs, "reference_runs_ms": runs}  # noqa: E731
    solution = lambda correctness, cases: {"scores": {"correctness": correctness, "performance": 20}, "rubric": rubric,  # noqa: E731
                                           "performance": {"cases": cases}}
    assert too_noisy_to_time(solution(60, [case(0.7, [10.0, 15.0])]), spec), "runs 1.5x apart: too noisy"
    assert not too_noisy_to_time(solution(60, [case(0.7, [10.0, 11.0])]), spec), "runs 1.1x apart resolve the slack"
    assert not too_noisy_to_time(solution(50, [case(0.7, [10.0, 15.0])]), spec), "lost correctness is never excused"
    assert not too_noisy_to_time(solution(60, [case(1.0, [10.0, 15.0]), case(0.5, [10.0, 10.5])]), spec)


def known_bad_verdicts_can_fail():
    """A known-bad entry's expectations are checked, and a result that does not meet them is
    named: among them, a performance_problem that no timed case was refused for."""
    entry = {"name": "slow-and-forges-time", "expect": {"correctness": "full", "performance": "reduced", "performance_problem": "forged time"}}
    rubric = {"correctness": 60, "performance": 25}
    caught_case = {"args": ["--elements", "8"], "problem": "forged time: the program reported 0.04 ms, ...", "submission_ms": None}
    honest_case = {"args": ["--elements", "8"], "problem": None, "submission_ms": 0.1, "reference_ms": 0.1}
    def result(performance, cases):
        return {"build": {"ok": True}, "scores": {"correctness": 60, "performance": performance}, "rubric": rubric,
                "performance": {"cases": cases}}
    assert known_bad.verdict_problems(entry, result(20, [honest_case, caught_case])) == [], "caught as described"
    missed = known_bad.verdict_problems(entry, result(25, [honest_case, honest_case]))
    assert any("expected reduced" in p for p in missed) and any("no timed case was refused for 'forged time'" in p for p in missed), missed
    other = known_bad.verdict_problems(entry, result(20, [honest_case, dict(caught_case, problem="impossible time: ...")]))
    assert any("'forged time'" in p for p in other), "refused for another reason is not what the entry says"
    capped = {"name": "box-copies-input", "expect": {"correctness": "not-full", "variants_at_most": {"running sum": 0.2}}}
    def graded(passed):
        return dict(result(20, []), scores={"correctness": 40}, variants={"running sum": {"passed": passed, "total": 24}})
    assert known_bad.verdict_problems(capped, graded(3.7)) == [], "next to nothing, as described"
    assert any("more than the 20%" in p for p in known_bad.verdict_problems(capped, graded(13))), "refused cases paid in full"
    slow = {"name": "slow-and-forges-time", "expect": {"correctness": "full", "time_ratio_at_least": 1.5,
                                                       "time_ratio_variants": ["blocks/B yours"]}}
    honest = dict(honest_case, variants=["memory/B read-swapped"])
    def timed(ms):
        return result(20, [honest, dict(honest_case, variants=["blocks/B yours"], submission_ms=ms)])
    assert known_bad.verdict_problems(slow, timed(0.5)) == [], "the honest variants' cases are not held to the slow one's ratio"
    assert any("faster than it can be" in p for p in known_bad.verdict_problems(slow, timed(0.1))), "the cheating variant is"


def results_of(path):
    with open(path) as f:
        return {r["student"]: r for r in json.load(f)["results"]}


def spreading_over_gpus():
    """make test-grader-gpu GPUS=...: which GPUs --gpus names, how batches are cut into pieces, and
    the pieces of two labs shared by two workers, each graded once on one GPU, a failing piece
    recorded as failed with its output (a stand-in grades: PART=i/n itself is grade_batch's,
    which lab 0's batch tests)."""
    import contextlib
    import io
    import subprocess as sp
    import grader_spread
    saved = os.environ.get("CUDA_VISIBLE_DEVICES")
    try:
        os.environ["CUDA_VISIBLE_DEVICES"] = "0,2,3"
        assert grader_spread.gpus_of("all") == ["0", "2", "3"] and grader_spread.gpus_of("2") == ["0", "2"]
        assert grader_spread.gpus_of("3,2") == ["3", "2"]
        for bad in ("0,5", "4", ""):
            try:
                grader_spread.gpus_of(bad)
                raise AssertionError(f"--gpus {bad!r} was accepted")
            except ValueError:
                pass
    finally:
        if saved is None:
            os.environ.pop("CUDA_VISIBLE_DEVICES", None)
        else:
            os.environ["CUDA_VISIBLE_DEVICES"] = saved
    entries = len(known_bad.load(0))
    half = -(-entries // 2)  # two slices of lab 0's known-bad set, whatever its size
    assert grader_spread.pieces([0], half) == [(0, (i, 2)) for i in range(3)] and grader_spread.pieces([0], entries) == [(0, (1, 1))]
    assert [lab for lab, _ in grader_spread.pieces([1, 9, 5], 100)] == [9, 5, 1], "the slowest labs first"

    class Recorded:
        def __init__(self):
            self.rows = []

        def record(self, name, outcome, detail="", seconds=None):
            self.rows.append((name, outcome, detail))

    graded, lock = [], threading.Lock()

    def stand_in(lab, part, gpu):
        time.sleep(0.05)  # long enough for both workers to take pieces
        with lock:
            graded.append((lab, part, gpu))
        failing = lab == 1 and part[0] == 2
        return sp.CompletedProcess([], 1 if failing else 0, f"    lab {lab}: part {part[0]} graded\n", "the batch went wrong" if failing else "")

    got, printed = Recorded(), io.StringIO()
    with contextlib.redirect_stdout(printed):
        grader_spread.spread(got, [0, 1], ["a", "b"], slice_size=10, grade=stand_in)
    want = grader_spread.pieces([0, 1], 10)
    assert sorted((lab, part) for lab, part, _ in graded) == sorted(want), graded  # each piece once
    assert {gpu for _, _, gpu in graded} == {"a", "b"}, graded  # both workers took pieces
    assert len(got.rows) == len(want) and printed.getvalue().count("graded\n") == len(want), (got.rows, printed.getvalue())
    failed = [(name, detail) for name, outcome, detail in got.rows if outcome == "fail"]
    assert len(failed) == 1 and "lab 1 batch, part 2 of" in failed[0][0] and "the batch went wrong" in failed[0][1], got.rows


def leaderboard_ranks_full_correctness_under_aliases():
    """grade --leaderboard on a lab 0 batch: the solution twice and the honest one-thread submission are
    ranked, by their time over the reference's on their own drawn case, lowest first, under aliases (no name on the board; each one's report says its alias); the
    skeleton (correctness 0) and skips-work-between-checks (full correctness, its timed case refused)
    are not. The aliases are the same for a name and secret, and --leaderboard-names shows names."""
    from convlab_grader import leaderboard
    with tempfile.TemporaryDirectory() as tmp:
        batch = os.path.join(tmp, "batch")
        for student, flavour in (("alice", "solutions"), ("bob", "solutions"), ("carol", "labs")):
            os.makedirs(os.path.join(batch, student))
            shutil.copy(os.path.join(ROOT, flavour, "lab0", "conv2d_omp.cpp"), os.path.join(batch, student))
        entries = {e["name"]: e for e in known_bad.load(0)}
        known_bad.materialize(0, entries["one-thread"], os.path.join(batch, "dave"))
        known_bad.materialize(0, entries["skips-work-between-checks"], os.path.join(batch, "erin"))
        board, reports_dir = os.path.join(tmp, "board"), os.path.join(tmp, "reports")
        done = subprocess.run([GRADE, "--lab", "0", batch, "--leaderboard", board, "--reports", reports_dir, "--jobs", "2"],
                              capture_output=True, text=True, timeout=1800)
        assert done.returncode == 0, done.stderr[-2000:]
        aliases = {}
        for student in ("alice", "bob", "carol", "dave", "erin"):
            with open(os.path.join(reports_dir, f"{student}.txt")) as f:
                found = re.search(r"your name on the class leaderboard: (\S+)", f.read())
            assert found, f"{student}'s report gives no alias"
            aliases[student] = found.group(1)
        assert len(set(aliases.values())) == 5, aliases
        with open(os.path.join(board, "leaderboard.csv")) as f:
            rows = list(csv.DictReader(f))
        assert rows, "the board ranks no one"
        for case in {r["timed case"] for r in rows}:
            ranked = [r for r in rows if r["timed case"] == case]
            assert sorted(r["student"] for r in ranked) == sorted(aliases[s] for s in ("alice", "bob", "dave")), (case, ranked)
            assert [int(r["rank"]) for r in ranked] == list(range(1, len(ranked) + 1)), ranked
            ratios = [float(r["ratio to the reference"]) for r in ranked]
            assert ratios == sorted(ratios), ranked
        with open(os.path.join(board, "leaderboard.html")) as f:
            page = f.read()
        assert not any(name in page for name in ("alice", "bob", "carol", "dave", "erin")), "a name is on the board"
        assert all(aliases[s] in page for s in ("alice", "bob", "dave")) and aliases["erin"] not in page, page[-1500:]
        assert re.search(r"src=|href=|url\(", page) is None, "the page fetches something"
    assert leaderboard.aliases(["alice", "bob"], 5) == leaderboard.aliases(["bob", "alice"], 5) != leaderboard.aliases(["alice", "bob"], 6)
    result = {"student": "alice", "scores": {"correctness": 60}, "rubric": {"correctness": 60},
              "performance": {"cases": [{"args": "--size 8", "variants": ["v"], "submission_ms": 2.0, "ratio": 1.5, "problem": None}]}}
    faster = dict(result, student="bob", performance={"cases": [dict(result["performance"]["cases"][0], args="--size 9", ratio=0.5,
                                                                     submission_ms=3.0)]})
    assert leaderboard.boards([result, faster], {"alice": "alice", "bob": "bob"}) == [
        ("1. v", [(1, "bob", 0.5, 3.0, "--size 9"), (2, "alice", 1.5, 2.0, "--size 8")])], "the board ranks by the ratio"


def register(results):
    results.run("grader: scoring arithmetic and every lab's rubric", scoring_arithmetic)
    results.run("grader: a spec with a comma in a variant name, points that do not add up, a timed case that requires no "
                "correctness or an unknown variant, a fixed sanitizer case or an upside-down drawn option is refused",
                spec_mistakes_are_refused)
    results.run("grader: lab 9's checked runs have the reference's hold beside them (none under a sanitizer tool); a run it cannot "
                "hold is not made", lab9_checked_runs_are_held_from_outside)
    results.run("grader: a refused case counts as much as the variant's share of the cases it computed", refusals_are_weighted)
    results.run("grader: a submission that passed no hidden case gets one line in the log saying why", why_nothing_passed_is_one_line)
    results.run("grader: under a lease on one GPU of several a jailed run cannot open the other GPUs' device files",
                other_gpus_device_files_are_covered)
    results.run("grader: lab 8's stage inputs reach each stage's run alone, in a folder the grader made and moved in whole; "
                "the case's time is split into its runs, the checks and the inputs",
                stage_inputs_reach_each_run_alone)
    results.run("grader: a mask a variant must refuse earns the case when refused and fails it when computed",
                a_mask_that_must_be_refused_is_graded)
    results.run("grader: each student's hidden, timed and sanitizer cases drawn from the secret and the name", drawn_cases_differ_by_student)
    results.run("grader: a sanitizer tool found dirty makes no more runs; its verdict is the same", a_tool_found_dirty_makes_no_more_runs)
    results.run("grader: a sanitizer run's twin without the tool has the tool's time limit, and a difference says how the twin ended",
                a_twin_run_has_the_tools_time)
    results.run("grader: lab 9's hidden cases and sanitizer runs go one at a time (each holds the GPU), other labs' side by side",
                lab9_runs_have_the_gpu_to_themselves)
    results.run("grader: the physical floor under which a time is impossible", physical_floor)
    results.run("grader: a CPU run that leaves threads it was given idle is charged for them", idle_threads_are_charged)
    results.run("grader: a time report the grader's own process contradicts is replaced by the grader's clock; honest overhead is not",
                contradicted_reports_are_timed_by_the_grader)
    results.run("grader: lab 9: device memory a program held before the timer's hold, beyond the reference's, costs the case",
                memory_held_before_the_timer_looked)
    results.run("grader: lab 9: device memory a graded run held when its GPUs opened, beyond the reference's, fails its cases; "
                "nothing is graded unless the reference passes under the hold beside it", memory_held_before_the_program_looked)
    results.run("grader: a report of another schema is refused in one line and read as none", reports_of_another_schema_are_refused)
    results.run("grader: Gradescope results.json", gradescope_json)
    results.run("grader: timed cases that differ only in their variants share each run", timed_cases_share_runs)
    results.run("grader: a time limit kills the whole process group; a crash is recorded", time_limit_kills_the_whole_group)
    results.run("grader: jailed runs: private /tmp, own processes only, hidden kit, no daemon survives", jailed_runs_are_isolated)
    results.run("grader: the peer timer's socket reaches a jailed run and carries descriptors both ways", peer_socket_reaches_a_jailed_run)
    results.run("grader: peer timing's plumbing with stand-in programs: clocks come back, a forged report gains nothing, "
                "the reference's expert tier is timed for the report", peer_timing_plumbing)
    results.run("grader: an OpenCL lab is timed by its program on a GPU alone: on another device no run, no performance points",
                opencl_labs_timed_on_a_gpu_alone)
    results.run("grader: the reference's expert tier is read from its --help (lab 6: two, a student build: none)",
                expert_tier_read_from_the_reference)
    results.run("grader: result files reach the checker as plain copies (no links, fifos, hard links)", result_files_are_collected_safely)
    results.run("grader: sweep kills a submission's user's processes and returns once they are gone; a zombie is not running",
                sweep_leaves_nothing_running)
    results.run("grader: a GPU the reference solution fails on (listed, unusable) grades nothing, the GPU named",
                a_device_the_reference_fails_on_grades_nothing)
    results.run("grader: archives are unpacked safely and only the student files are used", archives_are_read_safely)
    results.run("grader: every known-bad submission applies to the solution and carries all student files", known_bad_sets_apply)
    results.run("grader: a known-bad verdict names each expectation its result misses", known_bad_verdicts_can_fail)
    results.run("grader: a noisy machine excuses only the reference's own performance points", noise_excuses_only_performance)
    results.run("grader: lab 0 batch: solution full marks, skeleton none, every known-bad as described", grade_batch, 0)
    for lab in opencl_labs():
        results.run(f"grader: lab {lab} batch on an OpenCL device (PoCL where there is no GPU): solution full marks, skeleton none, "
                    "every known-bad as described", grade_opencl_batch, lab)
    results.run("grader: an OpenCL lab's timed runs end to end on this machine's OpenCL device (the GPU-only rule lifted here "
                "alone): a kernel that sniffs the timed case earns nothing there, a slow one is scored slow", opencl_timing_path_on_pocl)
    results.run("grader: --leaderboard ranks full correctness only, fastest first, under aliases each report gives",
                leaderboard_ranks_full_correctness_under_aliases)
    results.run("grader: the self-test spread over GPUs (--gpus): the GPUs named, the batches cut, each piece graded once by one "
                "of the workers, a failure recorded", spreading_over_gpus)


def opencl_labs():
    """The labs whose kernels are OpenCL (their manifest links OpenCL) with known-bad submissions:
    their batches run on any OpenCL device, PoCL's on the CPU included, so make test grades them."""
    return [lab for lab in manifest.labs() if known_bad.load(lab) and "OpenCL" in manifest.load(lab)["libraries"]]


def grade_opencl_batch(lab):
    status, out, err = lab_program(f"lab{lab}-solution", "--cl-list")
    if status != 0:
        raise Skip(f"no OpenCL device here: {(err or out).strip()[:200]}")
    grade_batch(lab)


def opencl_timing_path_on_pocl():
    """An OpenCL lab's timed runs ("timer": "program") end to end on whatever OpenCL device this
    machine has, the rule that times them on a GPU alone lifted in this test alone (on PoCL, a
    kernel could rewrite the program's report: the grader makes no timed run there), at a size
    CI affords (2100x64, wider than 2048): the reference is timed; skips-rows-when-timed's
    results in its timed case are wrong (each run's spot record, the last run's result), so that
    case earns nothing; sums-every-pixel-four-times is timed at about four times the reference in
    the case of its slow kernel, at about the reference's in the other."""
    status, out, err = lab_program("lab11-solution", "--cl-list")
    if status != 0:
        raise Skip(f"no OpenCL device here: {(err or out).strip()[:200]}")
    from convlab_grader import cli
    real = (performance.default_device_not_a_gpu, performance.not_on_a_gpu, specs.load, cli.specs.load)

    def small(lab):
        spec = real[2](lab)
        spec["performance"]["runs"] = 1
        for case in spec["performance"]["cases"]:
            case["args"] = cases.with_option(case["args"], "--size", "2100x64")
            case["reps"], case["warmup"] = 5, 1
        return spec
    names = ("skips-rows-when-timed", "sums-every-pixel-four-times")
    with tempfile.TemporaryDirectory() as tmp:
        make_batch(11, [e for e in known_bad.load(11) if e["name"] in names], os.path.join(tmp, "batch"), True)
        performance.default_device_not_a_gpu, performance.not_on_a_gpu = (lambda session: None), (lambda spec, doc: None)
        specs.load = cli.specs.load = small
        said = io.StringIO()  # the grader's table and log, shown only when something is wrong
        try:
            with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
                status = cli.main(["--lab", "11", os.path.join(tmp, "batch"), "--no-sanitizer", "--json", os.path.join(tmp, "results.json"),
                                   "--work", os.path.join(tmp, "work")])
        finally:
            performance.default_device_not_a_gpu, performance.not_on_a_gpu, specs.load, cli.specs.load = real
        assert status in (0, None), said.getvalue()[-3000:]
        with open(os.path.join(tmp, "results.json")) as f:
            doc = json.load(f)
    results = {r["student"]: r for r in (doc if isinstance(doc, list) else doc["results"])}
    timed = {name: {tuple(c["variants"]): c for c in results[name]["performance"]["cases"]} for name in (*names, "reference-solution")}
    assert all(c["ratio"] is not None and not c["problem"] for c in timed["reference-solution"].values()), timed["reference-solution"]
    sniffs = timed["skips-rows-when-timed"][("naive-2d-global",)]
    assert sniffs["fraction"] == 0 and "no timed variant produced a right result" in (sniffs["problem"] or ""), sniffs
    slow = timed["sums-every-pixel-four-times"]
    assert slow[("naive-2d-constant",)]["ratio"] > 2.5 and slow[("naive-2d-constant",)]["fraction"] < 0.5, slow
    assert slow[("naive-2d-global",)]["ratio"] < 2, slow


def gpu_labs():
    """The GPU labs with known-bad submissions: the batches make test-grader-gpu grades."""
    return [lab for lab in range(1, 10) if known_bad.load(lab)]


def batches_need_a_gpu(labs=None):
    """Whether any of these batches (make test-grader-gpu's, by default) grades a lab with GPU
    variants: lab 0's batch runs anywhere."""
    return any(not specs.load(lab).get("cpu_only") for lab in (labs or gpu_labs()))


def register_gpu(results, labs=None, part=(1, 1), only=None):
    which = f" ({', '.join(only)})" if only else ""
    if part[1] == 1:
        what = f"solution full marks, skeleton none, every known-bad{which} as described"
    elif part[0] == 0:
        what = "solution full marks, skeleton none (part 0)"
    else:
        what = f"known-bad{which} of slice {part[0]} of {part[1]} as described"
    for lab in labs or gpu_labs():
        results.run(f"grader GPU: lab {lab} batch: {what}", grade_batch, lab, part, (), only)
