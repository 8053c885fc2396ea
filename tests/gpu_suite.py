"""The GPU suite: every GPU lab's solution against the CPU reference on awkward shapes, every
border and channel count and every mask size the lab takes; skeletons fail cleanly; device-memory
limits; a timed run in every format; compute-sanitizer on a multi-tile case."""
import csv
import io
import json
import os

import gpu_lab5
import gpu_lab8
import gpu_lab9
from testkit import ROOT, Skip, lab, lab_json, peer_timed, sanitizer_clean

BORDERS = ["zero", "clamp", "wrap", "mirror"]

# Per lab: awkward shapes (1x1, single rows and columns, primes, exactly one block, just over a
# block or a tile, several tiles), the masks it cycles through, and its mask sizes.
LABS = {
    1: {"shapes": ["1x1", "1x7", "7x1", "2x3", "16x16", "17x13", "31x37", "127x61", "257x255", "1031x769"],
        "masks": ["random:3:1", "random:5:2", "sobel-x", "random:7:3", "random:1:4", "gauss:5:1", "emboss", "random:31:5"],
        "sizes": range(1, 32, 2)},
    2: {"shapes": ["1x1", "1x7", "7x1", "2x3", "14x14", "15x15", "16x16", "17x13", "29x43", "257x255", "1031x769"],
        "masks": ["random:3:1", "sobel-x", "sobel-y", "laplacian", "random:3:2", "emboss", "sharpen", "random:3:3"],
        "sizes": [3]},
    3: {"shapes": ["1x1", "1x7", "7x1", "2x3", "16x16", "17x13", "33x31", "127x61", "257x255", "1031x769"],
        "masks": ["random:3:1", "random:31:2", "sobel-x", "random:17:3", "random:1:4", "gauss:9:2", "random:5:5", "random:21:6"],
        "sizes": range(1, 32, 2)},
    4: {"shapes": ["1x1", "1x7", "7x1", "2x3", "17x13", "64x64", "129x65", "257x33", "300x77", "1031x769"],
        "masks": ["random:3:1", "random:31:2", "sobel-x", "random:17:3", "random:1:4", "gauss:9:2", "random:5:5", "random:21:6"],
        "sizes": range(1, 32, 2)},
    # Lab 6's separable variants take rank-1 masks: random ones are outer:K:S (column != row).
    6: {"shapes": ["1x1", "1x7", "7x1", "2x3", "17x13", "64x64", "65x63", "129x65", "300x77", "1031x769"],
        "masks": ["outer:3:1", "outer:63:2", "sobel-x", "outer:17:3", "outer:1:4", "gauss:9:2", "box:5", "outer:31:6"],
        "sizes": range(1, 64, 2), "random": "outer"},
    # Lab 7's box variants take box masks (the others are refused, skipped): its masks are mostly
    # boxes, with a general one now and then for the texture and direct kernels.
    7: {"shapes": ["1x1", "1x7", "7x1", "2x3", "17x13", "129x65", "257x255", "300x77", "1031x769", "300x1031"],
        "masks": ["box:3", "random:7:2", "box:31", "box:1", "sobel-x", "box:17", "box:5", "random:31:6"],
        "sizes": range(1, 32, 2), "random": "box"},
}


def random_mask(n, k, seed):
    """A random k x k mask of the kind the lab's variants all take."""
    kind = LABS.get(n, {}).get("random", "random")
    return f"box:{k}" if kind == "box" else f"{kind}:{k}:{seed}"


BOX_VARIANTS = ("running-sum", "summed-area", "openmp-box")


def documented_limit(r):
    """The skips a solution may report: lab 4's register kernel is compiled for k <= 9; lab 6 runs
    lab 3's kernel and the sequential K x K sum up to k = 31; lab 7's box variants refuse any mask
    but a box, and its run of lab 6's fused kernel any mask that is not separable."""
    k, spec, message = r["mask"]["size"], r["mask"]["spec"], r["message"]
    return r["status"] == "skipped" and ((r["variant"].startswith("register-") and k > 9) or
                                         (r["variant"] in ("lab3-tiled", "sequential-direct") and k > 31) or
                                         (r["variant"] in BOX_VARIANTS and not spec.startswith("box:") and "box:K masks" in message) or
                                         (r["variant"] == "lab6-fused" and "numerical rank" in message))


def all_pass(doc, where):
    bad = [f"{r['variant']} ({r['mask']['spec']}): {r['status']} {r['message']}" for r in doc["results"]
           if r["status"] != "pass" and not documented_limit(r)]
    assert not bad, f"{where}: " + "; ".join(bad)
    assert any(r["kind"] == "gpu" for r in doc["results"]), f"{where}: no GPU variant ran"


def shape_case(n, shape):
    masks = LABS[n]["masks"]
    m = 0
    for border in BORDERS:
        for channels in ("1", "3"):
            mask = masks[m % len(masks)]
            m += 1
            doc = lab_json(f"lab{n}-solution", "--check-only", "--size", shape, "--border", border, "--channels", channels,
                           "--mask", mask, "--image", "random", "--seed", str(m))
            all_pass(doc, f"{shape} {border} {channels}ch {mask}")


def large_image(n):
    """A large colour image (the register kernel's grid spans more than 65535 blocks of frame)."""
    for channels, mask in (("3", "random:3:4"), ("1", "random:5:9")):
        doc = lab_json(f"lab{n}-solution", "--check-only", "--size", "4099x4101", "--channels", channels, "--mask", mask,
                       "--border", "clamp", "--image", "random")
        all_pass(doc, f"4099x4101 {channels}ch {mask}")


def every_mask_size(n):
    for k in LABS[n]["sizes"]:
        border = BORDERS[k % 4]
        doc = lab_json(f"lab{n}-solution", "--check-only", "--size", "67x45", "--channels", str(1 + 2 * (k % 2 == 1 and k % 4 == 1)),
                       "--border", border, "--mask", random_mask(n, k, k), "--image", "random", "--seed", str(k))
        all_pass(doc, f"k={k} {border}")


def default_timed_run(n):
    doc = lab_json(f"lab{n}-solution")
    all_pass(doc, "default run")
    assert doc["device"] and doc["device"]["copy_bandwidth_gbs"] > 0, doc["device"]
    for r in doc["results"]:
        if documented_limit(r):
            continue
        assert r["time"] and r["time"]["median_ms"] > 0, r
        if r["kind"] == "gpu":
            assert r["time"]["samples"] == doc["timing"]["reps"], r
            assert r["gb_per_s"] > 0 and r["pct_fp32_peak"] > 0 and r["speedup_vs_omp"] > 0, r
    if n == 1:
        naive = [r for r in doc["results"] if r["variant"] == "naive-2d-global"][0]
        assert naive["end_to_end"] and naive["end_to_end"]["median_ms"] > naive["time"]["median_ms"], naive


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
    mask = "sobel-x" if n == 2 else "box:7" if n == 7 else "gauss:7:2"  # lab 7's box variants take boxes only
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


def presets_run(n):
    """Each preset of the lab (a source's experiment) runs and passes at a reduced size, timed."""
    import cli_tests  # its reader of --help's preset list
    presets = cli_tests.presets_of(n)
    if not presets:
        raise Skip(f"lab {n} has no presets")
    for name in presets:
        doc = lab_json(f"lab{n}-solution", "--preset", name, "--size", "256x192", "--reps", "2", "--warmup", "1", "--cpu-reps", "1")
        all_pass(doc, f"--preset {name}")


def refuses_rank_two(n):
    """Lab 6: a mask that is not rank 1 is refused by every separable variant (skipped, its rank in
    one line), never computed wrong; the direct variants still run and pass."""
    doc = lab_json(f"lab{n}-solution", "--check-only", "--size", "131x67", "--mask", "random:7:3", "--image", "random")
    rows = {r["variant"]: r for r in doc["results"]}
    for name in ("two-pass", "fused", "sequential-separable"):
        assert rows[name]["status"] == "skipped" and "numerical rank is" in rows[name]["message"], rows[name]
    for name in ("lab3-tiled", "sequential-direct"):
        assert rows[name]["status"] == "pass", rows[name]


def refuses_other_masks(n):
    """Lab 7: a mask that is not a box is refused by the box variants (skipped, in one line), never
    computed wrong; the general kernels (texture, lab 1's, lab 3's) still run and pass."""
    doc = lab_json(f"lab{n}-solution", "--check-only", "--size", "131x67", "--mask", "random:7:3", "--image", "random")
    rows = {r["variant"]: r for r in doc["results"]}
    for name in BOX_VARIANTS:
        assert rows[name]["status"] == "skipped" and "box:K masks" in rows[name]["message"], rows[name]
    for name in ("texture", "lab1-naive", "lab3-tiled"):
        assert rows[name]["status"] == "pass", rows[name]


def bright_image_past_two_to_the_32(n):
    """Lab 7: on a bright 4700x4000 image (bytes 224..255, about 4.5e9 in all) the summed-area
    table's entries pass 2^32; the box from it is still exact."""
    doc = lab_json(f"lab{n}-solution", "--check-only", "--image", "bright", "--size", "4700x4000", "--channels", "1",
                   "--mask", "box:3,box:31", "--border", "clamp", "--variant", "summed-area,running-sum,openmp-box")
    all_pass(doc, "bright 4700x4000")
    assert doc["input"]["source"].startswith("bright"), doc["input"]


def transfers_timed(n):
    """Lab 7: each passing GPU variant is timed end to end from pageable and from pinned memory,
    the copies' GB/s are reported, and end to end is never shorter than the kernel alone."""
    doc = lab_json(f"lab{n}-solution", "--size", "1024x768", "--mask", "box:7", "--reps", "3", "--warmup", "1", "--cpu-reps", "1")
    all_pass(doc, "transfers")
    t = doc["transfer_bandwidth"]
    assert t and all(t[key] > 0 for key in ("h2d_pageable_gbs", "d2h_pageable_gbs", "h2d_pinned_gbs", "d2h_pinned_gbs")), t
    for r in doc["results"]:
        if r["kind"] != "gpu":
            continue
        for key in ("end_to_end", "end_to_end_pinned"):
            assert r[key] and r[key]["median_ms"] > r["time"]["median_ms"], (r["variant"], key, r[key], r["time"])


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
    widest = max(k for k in LABS[n]["sizes"] if k <= 31)
    for channels, k in ((3, 3 if n == 2 else 7), (1, widest)):
        sanitizer_clean(tool, [binary, "--check-only", "--size", "300x77", "--channels", str(channels),
                               "--mask", random_mask(n, k, 1), "--border", "mirror"])


def tests(labs):
    """Every GPU test as (name, fn, *args, alone): alone marks the runs that time at full size and
    so must have the GPU and the CPU to themselves; the rest run side by side."""
    found = []
    for n in sorted(LABS):
        if n not in labs:
            continue
        found += [(f"lab{n} GPU: solution passes at {s}, every border, 1 and 3 channels", shape_case, n, s, False)
                  for s in LABS[n]["shapes"]]
        found += [
            (f"lab{n} GPU: solution passes at every mask size the lab takes", every_mask_size, n, False),
            (f"lab{n} GPU: default timed run, every figure present", default_timed_run, n, True),
            (f"lab{n} GPU: peer timing: timed by the reference build in another process, checked there", peer_timing, n, True),
            (f"lab{n} GPU: every preset runs and passes at a reduced size", presets_run, n, True),
            (f"lab{n} GPU: text, md, csv and json reports", formats, n, False),
            (f"lab{n} GPU: untouched skeleton reports its variants not implemented", skeleton_fails_cleanly, n, False),
            (f"lab{n} GPU: compute-sanitizer memcheck finds nothing", sanitizer, n, "memcheck", False),
        ]
        if n == 4:
            found.append((f"lab{n} GPU: solution passes on a large colour image", large_image, n, False))
        if n == 6:
            found.append((f"lab{n} GPU: a mask of rank 2 is refused by the separable variants, the direct ones run",
                          refuses_rank_two, n, False))
        if n == 7:
            found += [
                (f"lab{n} GPU: a mask that is not a box is refused by the box variants, the others run", refuses_other_masks, n,
                 False),
                (f"lab{n} GPU: a bright image whose summed-area table passes 2^32 still gets exact boxes",
                 bright_image_past_two_to_the_32, n, False),
                (f"lab{n} GPU: every variant timed end to end, pageable and pinned, with the copies' GB/s", transfers_timed, n,
                 True),
            ]
        if n >= 2:  # the labs with shared memory
            found.append((f"lab{n} GPU: compute-sanitizer racecheck finds nothing", sanitizer, n, "racecheck", False))
            found.append((f"lab{n} GPU: compute-sanitizer synccheck finds nothing", sanitizer, n, "synccheck", False))
    if 5 in labs:
        found += gpu_lab5.tests()
    if 8 in labs:
        found += gpu_lab8.tests()
    if 9 in labs:
        found += gpu_lab9.tests()
    found.append(("GPU: an image too large for device memory is bad input", image_too_large_for_the_device, False))
    return found


def names(labs):
    return [t[0] for t in tests(labs)]


def register(results, labs):
    found = tests(labs)
    results.run_side_by_side([t[:-1] for t in found if not t[-1]])
    for name, fn, *args in (t[:-1] for t in found if t[-1]):
        results.run(name, fn, *args)
