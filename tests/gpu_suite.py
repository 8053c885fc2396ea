"""The GPU suite: every lab's solution against the CPU reference on awkward shapes, every border
and channel count and every mask size; skeletons fail cleanly; device-memory limits; a timed run
in every format; compute-sanitizer on a multi-tile case."""
import csv
import io
import os
import shutil

from testkit import ROOT, Skip, lab, lab_json, run

BORDERS = ["zero", "clamp", "wrap", "mirror"]
# 1x1, single rows and columns, primes, exactly one 16x16 block, non-multiples of the block.
LAB1_SHAPES = ["1x1", "1x7", "7x1", "2x3", "16x16", "17x13", "31x37", "127x61", "257x255", "1031x769"]
LAB1_VARIANTS = ["naive-2d-global", "naive-1d-global", "naive-2d-constant"]


def all_pass(doc, where):
    bad = [f"{r['variant']}: {r['status']} {r['message']}" for r in doc["results"] if r["status"] != "pass"]
    assert not bad, f"{where}: " + "; ".join(bad)
    gpu = [r["variant"] for r in doc["results"] if r["kind"] == "gpu"]
    assert gpu == LAB1_VARIANTS, f"{where}: GPU variants run: {gpu}"


def lab1_shape(shape):
    masks = ["random:3:1", "random:5:2", "sobel-x", "random:7:3", "random:1:4", "gauss:5:1", "emboss", "random:31:5"]
    m = 0
    for border in BORDERS:
        for channels in ("1", "3"):
            mask = masks[m % len(masks)]
            m += 1
            doc = lab_json("lab1-solution", "--check-only", "--size", shape, "--border", border, "--channels", channels,
                           "--mask", mask, "--image", "random", "--seed", str(m))
            all_pass(doc, f"{shape} {border} {channels}ch {mask}")


def lab1_every_mask_size():
    for k in range(1, 32, 2):
        border = BORDERS[k % 4]
        doc = lab_json("lab1-solution", "--check-only", "--size", "67x45", "--channels", "3", "--border", border,
                       "--mask", f"random:{k}:{k}", "--image", "random", "--seed", str(k))
        all_pass(doc, f"k={k} {border}")


def lab1_default_timed_run():
    doc = lab_json("lab1-solution")
    all_pass(doc, "default run")
    assert doc["device"] and doc["device"]["copy_bandwidth_gbs"] > 0, doc["device"]
    for r in doc["results"]:
        assert r["time"] and r["time"]["median_ms"] > 0, r
        if r["kind"] == "gpu":
            assert r["time"]["samples"] == doc["timing"]["reps"], r
            assert r["gb_per_s"] > 0 and r["pct_fp32_peak"] > 0 and r["speedup_vs_omp"] > 0, r
    e2e = [r for r in doc["results"] if r["variant"] == "naive-2d-global"][0]["end_to_end"]
    kernel = [r for r in doc["results"] if r["variant"] == "naive-2d-global"][0]["time"]
    assert e2e and e2e["median_ms"] > kernel["median_ms"], (e2e, kernel)


def lab1_formats():
    base = ["--size", "300x200", "--reps", "3", "--warmup", "1", "--cpu-reps", "1"]
    all_pass(lab_json("lab1-solution", *base), "json")
    status, out, err = lab("lab1-solution", *base, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert status == 0 and [r["variant"] for r in rows] == ["openmp-reference"] + LAB1_VARIANTS, out + err
    assert all(float(r["gb_per_s"]) > 0 for r in rows[1:]), out
    status, out, err = lab("lab1-solution", *base, "--format", "md")
    assert status == 0 and "| naive-2d-constant" in out and "NVIDIA" in out, out + err
    status, out, err = lab("lab1-solution", *base)
    assert status == 0 and "naive-1d-global" in out and "GB/s" in out, out + err


def lab1_skeleton_fails_cleanly():
    doc = lab_json("lab1-student", "--size", "64x48", expect=1)
    gpu = {r["variant"]: r for r in doc["results"] if r["kind"] == "gpu"}
    assert sorted(gpu) == sorted(LAB1_VARIANTS), gpu
    for name, r in gpu.items():
        assert r["status"] == "not-implemented" and "not implemented yet" in r["message"], (name, r["message"])


def image_too_large_for_the_device():
    status, out, err = lab("lab1-solution", "--size", "1000x1000", "--check-only",
                           env={"CONVLAB_DEVICE_MEMORY_LIMIT": "4000000"})
    lines = [l for l in err.splitlines() if l.strip()]
    assert status == 2 and len(lines) == 1 and "of device memory" in lines[0] and not out.strip(), (status, out, err)


def sanitizer(n, tool):
    if not shutil.which("compute-sanitizer"):
        raise Skip("compute-sanitizer is not installed")
    status, out, err = run(["compute-sanitizer", f"--tool={tool}", "--error-exitcode=99",
                            os.path.join(ROOT, "build", "bin", f"lab{n}-solution"), "--check-only", "--size", "203x157",
                            "--channels", "3", "--mask", "random:5:1", "--border", "mirror"], timeout=600)
    assert status == 0, f"compute-sanitizer {tool}: exit {status}\n{(out + err)[-3000:]}"
    assert "ERROR SUMMARY: 0 errors" in out + err, (out + err)[-2000:]


TESTS = [(f"lab1 GPU: solution passes at {s}, every border, 1 and 3 channels", lab1_shape, s) for s in LAB1_SHAPES] + [
    ("lab1 GPU: solution passes at every mask size 1..31", lab1_every_mask_size),
    ("lab1 GPU: default timed run, every figure present", lab1_default_timed_run),
    ("lab1 GPU: text, md, csv and json reports", lab1_formats),
    ("lab1 GPU: untouched skeleton reports every variant not implemented", lab1_skeleton_fails_cleanly),
    ("lab1 GPU: an image too large for device memory is bad input", image_too_large_for_the_device),
    ("lab1 GPU: compute-sanitizer memcheck finds nothing", sanitizer, 1, "memcheck"),
]


def names(labs):
    return [t[0] for t in TESTS]


def register(results, labs):
    for name, fn, *args in TESTS:
        results.run(name, fn, *args)
