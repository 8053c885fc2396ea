"""Lab 9's own tests. Its part of the GPU suite: every strip variant exact on awkward shapes,
every border, 1 and 3 channels, budgets that force strips of a few rows and a mask taller than a
strip; the budget held to (the driver's peak within it, a budget too small refused); the default
timed run with every figure; the overlap bar of issue 18 at 32768x32768; the grader's raw
results and trusted compare; the grader's peer timing on shared host memory; the skeleton
failing variant by variant; compute-sanitizer; its own options refused in one line. Its grading
cases: grading/cases/lab9.json and grading/known-bad/lab9.json."""
import json
import math
import os
import shutil
import struct
import subprocess
import tempfile

from cli_tests import refusal_problems
from testkit import ROOT, figures, lab, lab_json, peer_timed, sanitizer_clean
from convlab_grader import performance  # noqa: E402  (testkit puts the grader on the path)

BORDERS = ["zero", "clamp", "wrap", "mirror"]
SHAPES = ["1x1", "7x3", "3x40", "257x129", "1031x769"]
ROWS = {("whole", "pinned"), ("serial", "pageable"), ("serial", "pinned"), ("overlapped", "pageable"), ("overlapped", "pinned"),
        ("multi-gpu", "pinned")}
MIB = 1024 * 1024


def rows_of(doc):
    """{(variant, host memory): row} of the GPU rows."""
    return {(r["variant"], figures(r)["host_memory"]): r for r in doc["results"] if r["kind"] == "gpu"}


def every_row_passes(doc, where):
    rows = rows_of(doc)
    assert set(rows) == ROWS, f"{where}: rows {sorted(rows)}"
    bad = [f"{v} {m}: {r['status']} {r['message']}" for (v, m), r in rows.items() if r["status"] != "pass"]
    assert not bad, f"{where}: " + "; ".join(bad)
    return rows


def shape_case(shape):
    """Grey with a 7x7 mask under 64 KiB (a few rows a strip), colour with a 31x31 mask under
    1 MiB (strips thinner than the mask's 15-row halo), every border; timed once, so the
    figures and the peak are there too."""
    for channels, mask, budget in (("1", "gauss:7:2", "64KiB"), ("3", "box:31", "1MiB")):
        for i, border in enumerate(BORDERS):
            doc = lab_json("lab9-solution", "--size", shape, "--channels", channels, "--border", border, "--mask", mask,
                           "--gpu-memory", budget, "--image", ("random", "synthetic")[i % 2], "--seed", str(i + 1),
                           "--reps", "1", "--warmup", "0")
            rows = every_row_passes(doc, f"{shape} {channels} {border} {mask} {budget}")
            limit = int(budget[:-3]) * (1024 if budget.endswith("KiB") else MIB)
            for (v, m), r in rows.items():
                if v != "whole":
                    assert figures(r)["peak_device_mib"] * MIB <= limit, (shape, v, m, figures(r))


def default_timed_run():
    """The default run: every row timed, with its copy rates, kernel time, overlap and peak within
    the 256 MiB budget; several strips; the overlapped rows from pinned memory faster than the
    serial ones and overlapping better."""
    doc = lab_json("lab9-solution")
    rows = every_row_passes(doc, "default run")
    assert doc["transfer_bandwidth"]["h2d_pinned_gbs"] > 0, doc["transfer_bandwidth"]
    for key, r in rows.items():
        s = figures(r)
        assert r["time"]["median_ms"] > 0, key
        for figure in ("h2d_gbs", "d2h_gbs", "kernel_ms", "overlap_efficiency", "peak_device_mib"):
            assert s[figure] and s[figure] > 0, (key, figure, s)
        assert s["overlap_efficiency"] <= 1.0 + 1e-9, (key, s)
        if key[0] != "whole":
            assert s["peak_device_mib"] <= 256, (key, s)
            assert s["strips"] > 1, (key, s)
    # The overlapped rows faster than the serial ones, compared on the fastest repetitions: beside
    # other GPU jobs on one host (make test-grader-gpu GPUS=all) the copies share the host's memory
    # bandwidth, and an H100 run's median of the overlapped row once came out at 30 ms with its
    # fastest at 9.7 ms against the serial row's 13.6 ms. Once (four suites side by side on one
    # host) even the fastest was disturbed (17.0 ms against 13.3, the overlapped row's cv 0.95):
    # a disturbed run is run again, twice at most, and the order must hold in one of the three.
    seen = []
    for attempt in range(3):
        if attempt:
            rows = every_row_passes(lab_json("lab9-solution"), f"default run, attempt {attempt + 1}")
        pinned, serial = rows[("overlapped", "pinned")], rows[("serial", "pinned")]
        if (pinned["time"]["min_ms"] < serial["time"]["min_ms"]
                and figures(pinned)["overlap_efficiency"] > figures(serial)["overlap_efficiency"]):
            return
        seen.append((pinned["time"], serial["time"], figures(pinned)["overlap_efficiency"], figures(serial)["overlap_efficiency"]))
    raise AssertionError(f"the overlapped pinned row was not faster than the serial one in 3 runs: {seen}")


def overlap_bar():
    """Issue 18's bar on the H100: 32768x32768 grey, K = 7, a 2 GiB budget: the overlapped strips
    from pinned memory keep the busiest engine busy 85% of the run, and copy at 80% or more of a
    plain pinned copy's rate each way, measured in the same run."""
    doc = lab_json("lab9-solution", "--preset", "overlap-32768", "--variant", "overlapped", "--reps", "3")
    r = rows_of(doc)[("overlapped", "pinned")]
    assert r["status"] == "pass", r["message"]
    s, t = figures(r), doc["transfer_bandwidth"]
    assert s["overlap_efficiency"] >= 0.85, s
    assert s["h2d_gbs"] >= 0.8 * t["h2d_pinned_gbs"] and s["d2h_gbs"] >= 0.8 * t["d2h_pinned_gbs"], (s, t)
    assert s["peak_device_mib"] <= 2048, s


def budget_too_small_is_bad_input():
    status, _, err = lab("lab9-solution", "--size", "4000x100", "--gpu-memory", "1KiB")
    assert status == 2, (status, err)
    assert "holds less than three strips of one row" in err and err.count("\n") == 1, err


def raw_results_and_compare():
    """--raw-out writes a result a row; the trusted compare passes them and fails a copy with one
    value changed and any stray file."""
    args = ["--size", "301x211", "--channels", "3", "--border", "mirror", "--mask", "gauss:9:2", "--gpu-memory", "256KiB",
            "--reps", "1", "--warmup", "0"]
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, "raw")
        os.mkdir(raw)
        lab_json("lab9-solution", *args, "--raw-out", raw)
        names = sorted(os.listdir(raw))
        assert names == sorted(f"{v}_{m}.f32" for v, m in ROWS), names
        doc = lab_json("lab9-solution", *args, "--compare", raw)
        assert len(doc["results"]) == 6 and all(r["status"] == "pass" for r in doc["results"]), doc["results"]
        with open(os.path.join(ROOT, "grading", "cases", "lab9.json")) as f:  # the names the grader looks its verdicts up by
            graded = {v["raw"] for v in json.load(f)["variants"]}
        assert graded <= {r["variant"] for r in doc["results"]}, (sorted(graded), [r["variant"] for r in doc["results"]])
        with open(os.path.join(raw, "overlapped_pinned.f32"), "r+b") as f:
            f.seek(4 * 1000)
            value = struct.unpack("f", f.read(4))[0]
            f.seek(4 * 1000)
            f.write(struct.pack("f", value + 1.0))
        shutil.copy(os.path.join(raw, "serial_pinned.f32"), os.path.join(raw, "serial_pinned_copy.f32"))
        doc = lab_json("lab9-solution", *args, "--compare", raw, expect=1)
        failed = sorted(r["variant"] for r in doc["results"] if r["status"] != "pass")
        assert failed == ["overlapped pinned", "serial_pinned_copy.f32"], failed
        passed = {r["variant"] for r in doc["results"] if r["status"] == "pass"}
        assert passed == {f"{v} {m}" for v, m in ROWS} - {"overlapped pinned"}, sorted(passed)


def peer_timing():
    """The grader's timer (the reference build, --timer-of) times the solution's strips in another
    process on host memory they share: the serial and overlapped strips pass every repetition's
    spot check and the last one's whole check, each timed run kept the lab's rules, the timer's
    clock is never shorter than the program's own. The skeleton's variants come back not
    implemented. (Which variant is faster is overlap_bar's to check, at a size where it shows:
    strips of this 1 MiB budget are so short that on one H100 host the overlapped ones took
    1.27 ms against the serial 1.48 ms in one run and 1.48 against 1.47 in another.)"""
    args = ["--size", "1031x769", "--image", "random", "--seed", "3", "--channels", "3", "--border", "wrap", "--mask", "gauss:7:2",
            "--gpu-memory", "1MiB", "--variant", "serial,overlapped", "--warmup", "1", "--reps", "5", "--format", "json"]
    doc, worker = peer_timed("lab9-solution", "lab9-solution", args)
    assert worker == 0, f"the timed program exited {worker}"
    rows = {r["variant"]: r for r in doc["results"]}
    assert set(rows) == {"serial", "overlapped"}, sorted(rows)
    for name, r in rows.items():
        assert r["status"] == "pass", (name, r["status"], r["message"])
        assert r["spot_checks"]["runs"] == 6 and r["spot_checks"]["failed_runs"] == 0, (name, r["spot_checks"])
        assert r["peer_time"]["samples"] == 5 and r["time"]["samples"] == 5, (name, r["peer_time"], r["time"])
        assert r["peer_time"]["median_ms"] >= r["time"]["median_ms"], (name, r["peer_time"], r["time"])
    assert doc["transfer_bandwidth"]["d2h_pinned_gbs"] > 0, doc["transfer_bandwidth"]
    # The timer held the device but the budget from its own process once the program was ready,
    # and says what was in use besides its hold then: two contexts, about the same for any build
    # of the lab (the grader sets a submission's against the reference's: performance.py).
    solution_mib = {figures(r).get("device_mib_at_ready") for r in doc["results"]}
    doc, _ = peer_timed("lab9-solution", "lab9-student", args)
    assert doc["results"] and all(r["status"] == "not-implemented" for r in doc["results"]), \
        [(r["variant"], r["status"], r["message"]) for r in doc["results"]]
    skeleton_mib = {figures(r).get("device_mib_at_ready") for r in doc["results"]}
    assert len(solution_mib) == 1 and len(skeleton_mib) == 1, (solution_mib, skeleton_mib)
    solution_mib, skeleton_mib = solution_mib.pop(), skeleton_mib.pop()
    assert isinstance(solution_mib, (int, float)) and solution_mib > 0, solution_mib
    assert performance.held_before_ready({"results": [{"figures": [{"name": "device_mib_at_ready", "value": skeleton_mib}]}]},
                                         {"results": [{"figures": [{"name": "device_mib_at_ready", "value": solution_mib}]}]}) is None, \
        ("an honest build held more than the reference's when ready", skeleton_mib, solution_mib)


def held_from_outside():
    """The grader's hold beside a checked run (--hold-outside; grading/convlab_grader/memory_hold.py):
    with what the solution's own graded run had in use when its GPU opened as its allowance, the
    solution's graded run beside it writes every graded result, and its figure of memory at start,
    less what the holder said it had in use, is within the grader's slack of its figure alone; a
    run with a budget the hold does not leave writes none (its variants cannot have the memory,
    whatever they do); the holder lets go and exits 0 when its input ends."""
    args = ["--check-only", "--size", "301x211", "--channels", "3", "--border", "mirror", "--mask", "gauss:9:2",
            "--variant", "serial,overlapped,multi-gpu"]
    graded = [f"{v}_{m}.f32" for v, m in ROWS if v != "whole"]  # the graded variants, from each host memory they take
    with tempfile.TemporaryDirectory() as tmp:
        folders = {name: os.path.join(tmp, name) for name in ("alone", "held", "too-big")}
        for folder in folders.values():
            os.mkdir(folder)
        doc = lab_json("lab9-solution", *args, "--gpu-memory", "256KiB", "--raw-out", folders["alone"])
        start = max(figures(r).get("device_mib_at_start", 0) for r in doc["results"])
        assert start > 0, "a graded run says what its GPU had in use when it opened"
        holder = subprocess.Popen([os.path.join(ROOT, "build", "bin", "lab9-solution"), *args, "--gpu-memory", "256KiB",
                                   "--hold-outside", str(math.ceil(start))], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        try:
            said = holder.stdout.readline()
            assert said.startswith("held: ") and said.split()[2:] == ["MiB", "in", "use"], \
                (said, holder.stderr.read() if holder.poll() is not None else "")
            status, out, err = lab("lab9-solution", *args, "--gpu-memory", "256KiB", "--raw-out", folders["held"], "--format", "json")
            assert status == 0 and sorted(os.listdir(folders["held"])) == sorted(graded), (status, os.listdir(folders["held"]), err[-500:])
            beside = max(figures(r).get("device_mib_at_start", 0) for r in json.loads(out)["results"]) - float(said.split()[1])
            assert performance.held_more(beside, start, "when its GPUs opened") is None, (beside, start, said)
            status, out, err = lab("lab9-solution", *args, "--gpu-memory", "1GiB", "--raw-out", folders["too-big"], "--format", "json")
            assert not os.listdir(folders["too-big"]), ("a budget past the hold's room wrote results", os.listdir(folders["too-big"]))
            rows = [r for r in json.loads(out)["results"]] if out.strip() else []
            assert status != 0 and all(r["status"] != "pass" for r in rows), (status, [(r["variant"], r["status"]) for r in rows], err[-300:])
        finally:
            holder.stdin.close()
            assert holder.wait(timeout=60) == 0, holder.stderr.read()


def skeleton_fails_cleanly():
    doc = lab_json("lab9-student", "--size", "64x48", "--reps", "1", "--warmup", "0", expect=1)
    rows = rows_of(doc)
    assert set(rows) == ROWS, sorted(rows)
    assert all(r["status"] == "not-implemented" for r in rows.values()), [(k, r["status"]) for k, r in rows.items()]


def sanitizer(tool):
    """A case like the grader's drawn sanitizer cases (grading/cases/lab9.json): strips thinner than box:31's halo."""
    sanitizer_clean(tool, [os.path.join(ROOT, "build", "bin", "lab9-solution"),
                           "--size", "131x67", "--channels", "3", "--border", "wrap", "--mask", "box:31", "--gpu-memory", "64KiB",
                           "--reps", "1", "--warmup", "0"])


def gpu_tests():
    """(name, fn, *args, alone) as gpu_suite.tests() lists them. Every lab 9 run holds the rest of
    the GPU's memory while a variant runs (common/families/strips/device_memory_cap.hpp), so none can share the GPU
    with another: all of them run alone."""
    found = [(f"lab9 GPU: every strip variant exact at {s}, every border, 1 and 3 channels, strips thinner than the halo",
              shape_case, s) for s in SHAPES]
    found += [
        ("lab9 GPU: a budget that holds no strip is bad input", budget_too_small_is_bad_input),
        ("lab9 GPU: the grader's raw results and trusted compare, which catches one changed value", raw_results_and_compare),
        ("lab9 GPU: the grader's timer times the strips on shared host memory, every repetition checked", peer_timing),
        ("lab9 GPU: the grader's hold beside a checked run: the solution passes under it, a budget past it gets no memory",
         held_from_outside),
        ("lab9 GPU: untouched skeleton reports every variant not implemented", skeleton_fails_cleanly),
        ("lab9 GPU: compute-sanitizer memcheck finds nothing", sanitizer, "memcheck"),
        ("lab9 GPU: compute-sanitizer racecheck finds nothing", sanitizer, "racecheck"),
        ("lab9 GPU: compute-sanitizer synccheck finds nothing", sanitizer, "synccheck"),
        ("lab9 GPU: default timed run, every figure present, the budget held", default_timed_run),
        ("lab9 GPU: 32768x32768 under 2 GiB: overlap efficiency 0.85 and copies at 80% of a plain pinned copy", overlap_bar),
    ]
    return [(*t, True) for t in found]


LAB9_BAD_INPUT = {
    "a budget that is no size": (["--gpu-memory", "3XB"], "a share of the GPU's memory"),
    "a budget of no bytes": (["--gpu-memory", "0%"], "--gpu-memory"),
    "a share of more than all": (["--gpu-memory", "101%"], "more than all of it"),
    "no GPUs": (["--gpus", "0"], "--gpus 0 is out of range"),
    "GPUs that are no count": (["--gpus", "two"], "--gpus"),
    "a sweep of masks": (["--mask", "box:3,box:5"], "convolves with one mask, not a sweep of 2"),
    "fresh inputs": (["--image", "random", "--fresh-input-each-rep"], "no fresh inputs for each repetition"),
    "a mask past the strip kernel's": (["--mask", "box:33"], "1 to 31"),
    "the grader's hold with no room of its own": (["--hold-outside", "-5"], "--hold-outside -5 is out of range"),
    "the grader's hold beside a check of its own": (["--hold-outside", "600", "--compare", "."], "runs nothing itself"),
}


def lab9_bad_input_is_one_line():
    """Lab 9's own options are checked before any GPU is looked for: one line, exit 2, nothing
    written (on this machine too, without a GPU)."""
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, (args, expected) in LAB9_BAD_INPUT.items():
            out_dir = os.path.join(tmp, "out-" + name.replace(" ", "-"))
            problems = refusal_problems("lab9-solution", ["--out", out_dir, "--size", "64x48", *args], expected, out_dir)
            if problems:
                failures.append(f"{name}: " + "; ".join(problems))
    assert not failures, "\n".join(failures)


def cli_tests():
    """As cli_tests.register runs them: (name, fn, *args)."""
    return [(f"lab9: bad input: one line, exit 2 ({len(LAB9_BAD_INPUT)} cases)", lab9_bad_input_is_one_line)]
