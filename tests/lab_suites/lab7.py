"""Lab 7's own tests (its GPU rows' shapes and masks, the box variants' refusals, a summed-area
table past 2^32, end-to-end timing); gpu_suite.py makes the rows every image lab has from GPU
below. Its grading cases: grading/cases/lab7.json and grading/known-bad/lab7.json."""
from gpu_suite import all_pass
from testkit import lab_json

# The GPU suite's rows for this lab (gpu_suite.tests): awkward shapes (1x1, single rows and columns,
# primes, exactly one block, just over a block or a tile, several tiles), the masks it cycles
# through, its mask sizes; its box variants take box masks (the others are refused, skipped): its
# masks are mostly boxes, with a general one now and then for the texture and direct kernels.
GPU = {
    "shapes": ["1x1", "1x7", "7x1", "2x3", "17x13", "129x65", "257x255", "300x77", "1031x769", "300x1031"],
    "masks": ["box:3", "random:7:2", "box:31", "box:1", "sobel-x", "box:17", "box:5", "random:31:6"],
    "sizes": range(1, 32, 2),
    "random": "box",
    "racecheck": True,
    "peer_mask": "box:7",
}

EXPERT = ["running-sum-expert"]  # solutions/lab7/expert/: the reference's tuned row
BOX_VARIANTS = ("running-sum", "summed-area", "openmp-box", *EXPERT)  # the expert row only in the reference's program


def documented_skip(r):
    """The box variants refuse any mask but a box, and lab 6's fused kernel any mask that is not
    separable."""
    spec, message = r["mask"]["spec"], r["message"]
    return r["status"] == "skipped" and ((r["variant"] in BOX_VARIANTS and not spec.startswith("box:") and "box:K masks" in message)
                                         or (r["variant"] == "lab6-fused" and "numerical rank" in message))


def refuses_other_masks(n):
    """Lab 7: a mask that is not a box is refused by the box variants, the expert tier's included
    (skipped, in one line), never computed wrong; the general kernels (texture, lab 1's, lab 3's)
    still run and pass."""
    doc = lab_json(f"lab{n}-solution", "--check-only", "--size", "131x67", "--mask", "random:7:3", "--image", "random")
    rows = {r["variant"]: r for r in doc["results"]}
    for name in BOX_VARIANTS:
        assert rows[name]["status"] == "skipped" and "box:K masks" in rows[name]["message"], rows[name]
    for name in ("texture", "lab1-naive", "lab3-tiled"):
        assert rows[name]["status"] == "pass", rows[name]


def bright_image_past_two_to_the_32(n):
    """Lab 7: on a bright 4700x4000 image (bytes 224..255, about 4.5e9 in all) the summed-area
    table's entries pass 2^32; the box from it is still exact, and so are the running sums."""
    doc = lab_json(f"lab{n}-solution", "--check-only", "--image", "bright", "--size", "4700x4000", "--channels", "1",
                   "--mask", "box:3,box:31", "--border", "clamp", "--variant", ",".join(["summed-area", "running-sum", "openmp-box", *EXPERT]))
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


def gpu_tests():
    """As gpu_suite.tests: (name, fn, *args, alone), after the rows every image lab has."""
    return [
        ("lab7 GPU: a mask that is not a box is refused by the box variants, the others run", refuses_other_masks, 7, False),
        ("lab7 GPU: a bright image whose summed-area table passes 2^32 still gets exact boxes", bright_image_past_two_to_the_32, 7,
         False),
        ("lab7 GPU: every variant timed end to end, pageable and pinned, with the copies' GB/s", transfers_timed, 7, True),
    ]
