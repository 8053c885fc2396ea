"""The GPU suite: every GPU lab's solution against the CPU reference on awkward shapes, every
border and channel count and every mask size the lab takes; skeletons fail cleanly; device-memory
limits; a timed run in every format; compute-sanitizer on a multi-tile case."""
import csv
import io
import json
import os

import lab_suites
from testkit import ROOT, Skip, lab, lab_json, peer_timed, sanitizer_clean
from convlab_grader import performance  # noqa: E402  (testkit puts grading/ on the path)

BORDERS = ["zero", "clamp", "wrap", "mirror"]

def image_lab(n):
    """Lab n's shapes, masks and sizes for the rows every image lab has (lab_suites/labN.py's GPU),
    or None for a lab of another family."""
    return getattr(lab_suites.of(n), "GPU", None)


def random_mask(n, k, seed):
    """A random k x k mask of the kind the lab's variants all take."""
    kind = (image_lab(n) or {}).get("random", "random")
    return f"box:{k}" if kind == "box" else f"{kind}:{k}:{seed}"


def documented_limit(n, r):
    """A skip lab n's solution may report (its lab_suites module's documented_skip: lab 4's
    register kernel is compiled for k <= 9, lab 6 runs lab 3's kernel and the sequential K x K sum
    up to k = 31, lab 7's box variants refuse any mask but a box)."""
    skip = getattr(lab_suites.of(n), "documented_skip", None)
    return bool(skip and skip(r))


def all_pass(doc, where):
    bad = [f"{r['variant']} ({r['mask']['spec']}): {r['status']} {r['message']}" for r in doc["results"]
           if r["status"] != "pass" and not documented_limit(doc["lab"], r)]
    assert not bad, f"{where}: " + "; ".join(bad)
    assert any(r["kind"] == "gpu" for r in doc["results"]), f"{where}: no GPU variant ran"


def shape_case(n, shape):
    masks = image_lab(n)["masks"]
    m = 0
    for border in BORDERS:
        for channels in ("1", "3"):
            mask = masks[m % len(masks)]
            m += 1
            doc = lab_json(f"lab{n}-solution", "--check-only", "--size", shape, "--border", border, "--channels", channels,
                           "--mask", mask, "--image", "random", "--seed", str(m))
            all_pass(doc, f"{shape} {border} {channels}ch {mask}")


def every_mask_size(n):
    for k in image_lab(n)["sizes"]:
        border = BORDERS[k % 4]
        doc = lab_json(f"lab{n}-solution", "--check-only", "--size", "67x45", "--channels", str(1 + 2 * (k % 2 == 1 and k % 4 == 1)),
                       "--border", border, "--mask", random_mask(n, k, k), "--image", "random", "--seed", str(k))
        all_pass(doc, f"k={k} {border}")


def default_timed_run(n):
    doc = lab_json(f"lab{n}-solution")
    all_pass(doc, "default run")
    assert doc["device"] and doc["device"]["copy_bandwidth_gbs"] > 0, doc["device"]
    for r in doc["results"]:
        if documented_limit(n, r):
            continue
        assert r["time"] and r["time"]["median_ms"] > 0, r
        if r["kind"] == "gpu":
            assert r["time"]["samples"] == doc["timing"]["reps"], r
            assert r["gb_per_s"] > 0 and r["pct_fp32_peak"] > 0 and r["speedup_vs_omp"] > 0, r
    check = getattr(lab_suites.of(n), "check_default_run", None)
    if check:
        check(doc)


def formats(n):
    base = ["--size", "300x200", "--reps", "3", "--warmup", "1", "--cpu-reps", "1"]
    doc = lab_json(f"lab{n}-solution", *base)
    all_pass(doc, "json")
    gpu = [r["variant"] for r in doc["results"] if r["kind"] == "gpu"]
    status, out, err = lab(f"lab{n}-solution", *base, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert status == 0 and [r["variant"] for r in rows if r["kind"] == "gpu"] == gpu, out + err
    assert all(float(r["gb_per_s"]) > 0 for r in rows if r["status"] == "pass"), out
    status, out, err = lab(f"lab{n}-solution", *base, "--format", "md")
    assert status == 0 and f"| {gpu[-1]}" in out and "NVIDIA" in out, out + err
    status, out, err = lab(f"lab{n}-solution", *base)
    assert status == 0 and gpu[-1] in out and "GB/s" in out, out + err


def skeleton_fails_cleanly(n):
    status, out, err = lab(f"lab{n}-student", "--size", "64x48", "--format", "json", "--mask", random_mask(n, 3, 1))
    assert status == 1, f"exit {status}, expected 1\n{err[-2000:]}"
    doc = json.loads(out)
    own = [r for r in doc["results"] if r["kind"] == "gpu" and "(lab" not in r["variant"]]
    assert own, doc["results"]
    for r in own:
        assert r["status"] == "not-implemented" and "not implemented yet" in r["message"], (r["variant"], r["message"])


def peer_timing(n):
    """Peer timing: the solution, timed by the reference build in another process on its shared
    buffers, passes every repetition's spot check and the last one's full check; the timer's clock
    around each repetition is never shorter than the program's own events; a skeleton's variants
    come back not implemented."""
    mask = image_lab(n).get("peer_mask", "gauss:7:2")  # lab 7's box variants take boxes only, lab 2's kernels 3x3
    args = ["--size", "1031x769", "--image", "random", "--seed", "3", "--channels", "3", "--border", "wrap", "--mask", mask,
            "--warmup", "1", "--reps", "5", "--format", "json"]
    doc, worker = peer_timed(f"lab{n}-solution", f"lab{n}-solution", args)
    assert worker == 0, f"the timed program exited {worker}"
    all_pass(doc, "peer-timed solution")
    for r in doc["results"]:
        assert r["spot_checks"]["runs"] == 6 and r["spot_checks"]["failed_runs"] == 0, (r["variant"], r["spot_checks"])
        assert r["peer_time"]["samples"] == 5 and r["time"]["samples"] == 5, (r["variant"], r["peer_time"], r["time"])
        assert r["peer_time"]["median_ms"] >= r["time"]["median_ms"], (r["variant"], r["peer_time"], r["time"])
    doc, _ = peer_timed(f"lab{n}-solution", f"lab{n}-student", args)
    own = [r for r in doc["results"] if "(lab" not in r["variant"]]
    assert own and all(r["status"] == "not-implemented" for r in own), [(r["variant"], r["status"], r["message"]) for r in own]
    # The expert tier is timed only where --variant names it, as the grader's reference runs do;
    # the runs above, which name none, left it out (a student's build has none of it).
    experts = performance.expert_tier(os.path.join(ROOT, "build", "bin", f"lab{n}-solution"))
    if experts:
        design = sorted(experts)[0]
        named = [design, *experts[design]]
        doc, worker = peer_timed(f"lab{n}-solution", f"lab{n}-solution", [*args, "--variant", ",".join(named)])
        assert worker == 0 and sorted(r["variant"] for r in doc["results"]) == sorted(named), [r["variant"] for r in doc["results"]]
        all_pass(doc, "peer-timed expert tier")


def presets_run(n):
    """Each preset of the lab (a source's experiment) runs and passes at a reduced size, timed."""
    import cli_tests  # its reader of --help's preset list
    presets = cli_tests.presets_of(n)
    if not presets:
        raise Skip(f"lab {n} has no presets")
    for name in presets:
        doc = lab_json(f"lab{n}-solution", "--preset", name, "--size", "256x192", "--reps", "2", "--warmup", "1", "--cpu-reps", "1")
        all_pass(doc, f"--preset {name}")


def image_too_large_for_the_device():
    status, out, err = lab("lab1-solution", "--size", "1000x1000", "--check-only",
                           env={"CONVLAB_DEVICE_MEMORY_LIMIT": "4000000"})
    lines = [l for l in err.splitlines() if l.strip()]
    assert status == 2 and len(lines) == 1 and "of device memory" in lines[0] and not out.strip(), (status, out, err)


def sanitizer(n, tool):
    """Three channels and a middling mask, then one channel and the lab's largest mask to 31: a
    solution may have a path of its own for one channel (lab 6's strip walk, which lab 8 reuses),
    and its widest halo is where an index goes astray."""
    binary = os.path.join(ROOT, "build", "bin", f"lab{n}-solution")
    widest = max(k for k in image_lab(n)["sizes"] if k <= 31)
    for channels, k in ((3, image_lab(n).get("sanitizer_k", 7)), (1, widest)):
        sanitizer_clean(tool, [binary, "--check-only", "--size", "300x77", "--channels", str(channels),
                               "--mask", random_mask(n, k, 1), "--border", "mirror"])


def tests(labs):
    """Every GPU test as (name, fn, *args, alone): alone marks the runs that time at full size and
    so must have the GPU and the CPU to themselves; the rest run side by side. The image labs'
    rows first (the ones every image lab has, from its GPU shapes and masks, then its own), then
    the other families' labs' own."""
    found = []
    for n in sorted(labs):
        if not image_lab(n):
            continue
        found += [(f"lab{n} GPU: solution passes at {s}, every border, 1 and 3 channels", shape_case, n, s, False)
                  for s in image_lab(n)["shapes"]]
        found += [
            (f"lab{n} GPU: solution passes at every mask size the lab takes", every_mask_size, n, False),
            (f"lab{n} GPU: default timed run, every figure present", default_timed_run, n, True),
            (f"lab{n} GPU: peer timing: timed by the reference build in another process, checked there", peer_timing, n, True),
            (f"lab{n} GPU: every preset runs and passes at a reduced size", presets_run, n, True),
            (f"lab{n} GPU: text, md, csv and json reports", formats, n, False),
            (f"lab{n} GPU: untouched skeleton reports its variants not implemented", skeleton_fails_cleanly, n, False),
            (f"lab{n} GPU: compute-sanitizer memcheck finds nothing", sanitizer, n, "memcheck", False),
        ]
        found += own_gpu_tests(n)
        if image_lab(n)["racecheck"]:  # the labs with shared memory
            found.append((f"lab{n} GPU: compute-sanitizer racecheck finds nothing", sanitizer, n, "racecheck", False))
            found.append((f"lab{n} GPU: compute-sanitizer synccheck finds nothing", sanitizer, n, "synccheck", False))
    for n in sorted(labs):
        if not image_lab(n):
            found += own_gpu_tests(n)
    found.append(("GPU: an image too large for device memory is bad input", image_too_large_for_the_device, False))
    return found


def own_gpu_tests(n):
    """Lab n's GPU tests of its own (lab_suites/labN.py's gpu_tests), if any."""
    own = getattr(lab_suites.of(n), "gpu_tests", None)
    return own() if own else []


def names(labs):
    return [t[0] for t in tests(labs)]


def register(results, labs, part=(1, 1)):
    """Part (i, n) runs every n-th test from the i-th on: a lab's suite cut into n pieces of
    about equal length, for machines lent in short slots."""
    i, n = part
    found = tests(labs)[i - 1::n]
    results.run_side_by_side([t[:-1] for t in found if not t[-1]])
    for name, fn, *args in (t[:-1] for t in found if t[-1]):
        results.run(name, fn, *args)
