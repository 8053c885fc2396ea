"""Lab 8's own tests. Its part of the GPU suite: every stage of every pipeline exact on awkward
shapes and every border, the whole edge maps held to the reference's stages on their own
smoothing, the spiral's round count, a timed run with every figure, the grader's raw results and
trusted compare, the grader's peer timing of one stage at a time, the skeleton failing stage by
stage, compute-sanitizer. Its grading cases: grading/cases/lab8.json and
grading/known-bad/lab8.json."""
import json
import os
import re
import shutil
import tempfile

from testkit import ROOT, figures, lab, lab_json, make, peer_timed, run, sanitizer_clean

BORDERS = ["zero", "clamp", "wrap", "mirror"]
SHAPES = ["1x1", "1x7", "7x1", "2x3", "31x33", "33x31", "65x63", "300x77", "320x100", "264x70", "1031x769", "257x1025"]
MASKS = ["gauss:5:1.4", "gauss:3:0.8", "gauss:9:2", "gauss:1:1", "gauss:15:3", "gauss:7:1.2"]
PIPELINES = {"staged": ["smoothing", "gradients", "suppression", "thresholds", "hysteresis"],
             "fused": ["smoothing", "gradients+suppression", "thresholds", "hysteresis"],
             "union-find": ["smoothing", "gradients+suppression", "thresholds", "hysteresis"]}
# solutions/lab8/expert/: the reference solution's tuned pipelines, the same stages, after the design's
EXPERT = {f"{p}-expert": stages for p, stages in PIPELINES.items()}
SOLUTION = {**PIPELINES, **EXPERT}  # the rows of the reference solution's program


def rows_of(doc):
    """{(variant, stage or ""): row} of the GPU rows."""
    return {(r["variant"], figures(r).get("stage", "")): r for r in doc["results"] if r["kind"] == "gpu"}


def every_row_passes(doc, where):
    rows = rows_of(doc)
    want = {(p, s) for p, stages in SOLUTION.items() for s in stages + [""]}
    assert set(rows) == want, f"{where}: rows {sorted(rows)}"
    bad = [f"{p} {s}: {r['status']} {r['message']}" for (p, s), r in rows.items() if r["status"] != "pass"]
    assert not bad, f"{where}: " + "; ".join(bad)
    return rows


def shape_case(shape):
    for i, border in enumerate(BORDERS):
        image = ("random", "synthetic", "random", "lines")[i]
        mask = MASKS[(SHAPES.index(shape) + i) % len(MASKS)]
        doc = lab_json("lab8-solution", "--check-only", "--size", shape, "--border", border, "--mask", mask, "--image", image,
                       "--seed", str(i + 1), "--low", "0.1", "--high", "0.5")
        every_row_passes(doc, f"{shape} {border} {mask} {image}")


def spiral_rounds():
    """The spiral needs a global round for every tile its edge enters: thousands at 1024x1024, in
    both pipelines that use rounds, the same count for the expert tier's (on an H100 all its 128 blocks of a
    round resident at once); union-find reports 1; every edge found. The design's rounds are a
    block a tile, 1024 blocks in waves, and a block of a later wave may read in its frame the edges
    an earlier one wrote in the same round (handout, question 2): its two counts may differ."""
    doc = lab_json("lab8-solution", "--preset", "spiral", "--check-only")
    rows = every_row_passes(doc, "--preset spiral")
    for tier in ("", "-expert"):
        staged, fused = figures(rows[("staged" + tier, "hysteresis")])["rounds"], figures(rows[("fused" + tier, "hysteresis")])["rounds"]
        assert staged >= 1000 and fused >= 1000 and (staged == fused or not tier), (tier, staged, fused)
        assert figures(rows[("union-find" + tier, "hysteresis")])["rounds"] == 1, rows[("union-find" + tier, "hysteresis")]
    for p in SOLUTION:
        assert figures(rows[(p, "")])["pco"] == 1, rows[(p, "")]


def default_timed_run():
    """The default run: every stage timed with its share, each pipeline timed kernels-only and end
    to end, the reference's stages beside them; the solution's edge maps equal the reference's
    (Pco 1, Pnd and Pfa 0), as the issue asks."""
    doc = lab_json("lab8-solution")
    rows = every_row_passes(doc, "default run")
    assert doc["device"] and doc["device"]["copy_bandwidth_gbs"] > 0, doc["device"]
    for (p, s), r in rows.items():
        assert r["time"] and r["time"]["median_ms"] > 0 and r["time"]["samples"] == doc["timing"]["reps"], (p, s, r["time"])
        assert r["gb_per_s"] > 0, (p, s)
        f = figures(r)
        if s:
            assert f["share_pct"] > 0, (p, s)
            if s == "hysteresis":
                assert abs(f["ms_per_round"] * f["rounds"] - r["time"]["median_ms"]) < 1e-9, (p, f)
        else:
            assert r["end_to_end"]["median_ms"] > r["time"]["median_ms"], (p, r["end_to_end"])
            assert {k: f[k] for k in ("pco", "pnd", "pfa")} == {"pco": 1, "pnd": 0, "pfa": 0}, (p, f)
            assert f["rounds"] >= 1, (p, f)
    cpu = [r for r in doc["results"] if r["variant"] == "openmp-reference"]
    assert len(cpu) == 6 and all(r["time"]["median_ms"] > 0 for r in cpu), cpu


def raw_results_and_compare():
    """The grader's path: the trusted side writes each stage's inputs, a folder a stage holding
    what that stage reads and nothing more (--write-stage-inputs); a graded run of each stage alone
    (--raw-out --stage --stage-inputs, no reference computed) writes that stage's buffers; the
    reference's --compare passes them all, and fails a stage whose one byte of direction was
    changed; a stage given another stage's folder stops with one line. The expert tier is never
    graded: no stage inputs are written for it, a graded run of it is refused with one line, and its
    results are no results the compare knows."""
    folder, inputs = tempfile.mkdtemp(), tempfile.mkdtemp()
    try:
        args = ["--size", "131x67", "--image", "random", "--seed", "5", "--border", "wrap", "--mask", "gauss:7:1.5", "--check-only",
                "--low", "0.12", "--high", "0.37"]
        status, _, err = lab("lab8-solution", *args, "--write-stage-inputs", inputs)
        assert status == 0, err
        assert not [f for f in os.listdir(inputs) if "expert" in f], sorted(os.listdir(inputs))
        status, _, err = lab("lab8-solution", *args, "--variant", "staged-expert", "--stage", "gradients", "--stage-inputs",
                             os.path.join(inputs, "staged_gradients"), "--raw-out", tempfile.mkdtemp())
        assert status == 2 and "is no stage of the pipelines run" in err and err.count("\n") == 1, (status, err)
        for p, stages in PIPELINES.items():
            for s in stages:
                given = os.path.join(inputs, re.sub(r"[^A-Za-z0-9-]", "_", f"{p} {s}"))  # raw_file_name, less .f32
                doc = lab_json("lab8-solution", *args, "--variant", p, "--stage", s, "--stage-inputs", given, "--raw-out", folder)
                assert [(r["variant"], figures(r)["stage"], r["status"]) for r in doc["results"]] == [(p, s, "written")], doc["results"]
        status, _, err = lab("lab8-solution", *args, "--variant", "staged", "--stage", "suppression", "--stage-inputs",
                             os.path.join(inputs, "staged_gradients"), "--raw-out", tempfile.mkdtemp())
        assert status == 2 and "holds no" in err and err.count("\n") == 1, (status, err)
        doc = lab_json("lab8-solution", *args, "--compare", folder)
        verdicts = {r["variant"]: r["status"] for r in doc["results"] if r["kind"] == "submitted"}
        want = {f"{p} {s}" for p, stages in PIPELINES.items() for s in stages}
        assert set(verdicts) == want and set(verdicts.values()) == {"pass"}, verdicts
        path = os.path.join(folder, "staged_gradients_direction.f32")
        with open(path, "r+b") as f:
            values = bytearray(f.read())
            values[4 * 100 + 3] ^= 0x01  # the float 2.0, 3.0 or 0.0 of pixel 100 changed in its top byte
            f.seek(0)
            f.write(values)
        doc = lab_json("lab8-solution", *args, "--compare", folder, expect=1)
        verdicts = {r["variant"]: r["status"] for r in doc["results"] if r["kind"] == "submitted"}
        assert verdicts["staged gradients"] == "fail" and verdicts["fused gradients+suppression"] == "pass", verdicts
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        shutil.rmtree(inputs, ignore_errors=True)


def skeleton_fails_cleanly():
    """The untouched skeleton: every stage not implemented, each reported alone (lab 6's smoothing
    is the skeleton's too in a student build), and each whole pipeline not run."""
    status, out, err = lab("lab8-student", "--size", "64x48", "--format", "json")
    assert status == 1, f"exit {status}, expected 1\n{err[-2000:]}"
    rows = rows_of(json.loads(out))
    assert set(rows) == {(p, s) for p, stages in PIPELINES.items() for s in stages + [""]}, sorted(rows)
    for (p, s), r in rows.items():
        assert r["status"] == "not-implemented" and "not implemented yet" in r["message"], (p, s, r["message"])


def sanitizer(tool, size):
    sanitizer_clean(tool, [os.path.join(ROOT, "build", "bin", "lab8-solution"), "--check-only", "--size", size,
                           "--mask", "gauss:5:1.4", "--border", "mirror", "--image", "synthetic"])


def exact_sqrt():
    """The expert tier's kernels take their roots by common/families/pipelines/exact_sqrt.cuh's fast path where it holds:
    it must give sqrtf's bits on every float in its range, on this GPU."""
    make("build/bin/gpu_exact_sqrt")
    status, out, err = run([os.path.join(ROOT, "build", "bin", "gpu_exact_sqrt")], timeout=120)
    assert status == 0 and " 0 differ" in out, f"exit {status}: {out}{err[-2000:]}"


def peer_timing():
    """The grader's timer (the reference build, --timer-of) times one stage of each pipeline in
    the solution's own process, on buffers it shares, each repetition on the CPU reference's values
    of a fresh image: every stage the grader times passes every repetition's spot check and the
    last one's whole check, and the timer's clock is never shorter than the program's own. The
    skeleton's stages come back not implemented. The expert tier's stages are timed the same way
    (the grader times them beside the design's, for the report)."""
    base = ["--size", "517x389", "--image", "random", "--border", "mirror", "--mask", "gauss:5:1.4", "--low", "0.1", "--high", "0.3",
            "--warmup", "1", "--reps", "4", "--format", "json"]
    for stage, pipelines in (("gradients", ["staged", "staged-expert"]), ("gradients+suppression", ["fused", "union-find-expert"]),
                             ("thresholds", ["staged", "fused-expert"]), ("hysteresis", ["staged", "union-find", "staged-expert", "union-find-expert"])):
        args = base + ["--stage", stage, "--variant", ",".join(pipelines)]
        doc, worker = peer_timed("lab8-solution", "lab8-solution", args)
        assert worker == 0, f"{stage}: the timed program exited {worker}"
        rows = {r["variant"]: r for r in doc["results"]}
        assert sorted(rows) == sorted(pipelines), (stage, sorted(rows))
        for name, r in rows.items():
            assert r["status"] == "pass" and figures(r)["stage"] == stage, (stage, name, r["status"], r["message"])
            assert r["spot_checks"]["runs"] == 5 and r["spot_checks"]["failed_runs"] == 0, (stage, name, r["spot_checks"])
            assert r["peer_time"]["median_ms"] >= r["time"]["median_ms"], (stage, name, r["peer_time"], r["time"])
    doc, _ = peer_timed("lab8-solution", "lab8-student", base + ["--stage", "hysteresis", "--variant", "staged,union-find"])
    assert doc["results"] and all(r["status"] == "not-implemented" for r in doc["results"]), \
        [(r["variant"], r["status"], r["message"]) for r in doc["results"]]


def gpu_tests():
    """As gpu_suite.tests: (name, fn, *args, alone)."""
    found = [(f"lab8 GPU: every stage exact at {s}, every border", shape_case, s, False) for s in SHAPES]
    found += [
        ("lab8 GPU: the spiral takes thousands of hysteresis rounds, the same in both pipelines that use them",
         spiral_rounds, True),
        ("lab8 GPU: default timed run, every figure present, edge maps equal to the reference's", default_timed_run, True),
        ("lab8 GPU: the grader's raw results and trusted compare, which catches one changed direction",
         raw_results_and_compare, False),
        ("lab8 GPU: the grader's timer times one stage at a time on fresh inputs, every repetition checked", peer_timing, False),
        ("lab8 GPU: untouched skeleton reports every stage not implemented", skeleton_fails_cleanly, False),
        ("lab8 GPU: exact_sqrt.cuh's fast path gives sqrtf's bits on every float in its range", exact_sqrt, True),
    ]
    found += [(f"lab8 GPU: compute-sanitizer {tool} finds nothing", sanitizer, tool, "300x77", False)
              for tool in ("memcheck", "racecheck", "synccheck")]
    # The expert tier's rounds read whole rows of a tile in 16-, 8- or 4-byte words as the width
    # allows (300: 4), else a byte a lane: memcheck on each (every pipeline runs, both tiers).
    found += [(f"lab8 GPU: compute-sanitizer memcheck finds nothing at {size}", sanitizer, "memcheck", size, False)
              for size in ("320x77", "264x77", "301x77")]
    return found
