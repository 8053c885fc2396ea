"""Lab 6's own tests (its GPU rows' shapes and masks, masks of rank 2 refused); gpu_suite.py's
rows every image lab shares are made of GPU below. Its grading cases: grading/cases/lab6.json
and grading/known-bad/lab6.json."""
from testkit import lab_json

EXPERT = ["two-pass-expert", "fused-expert"]  # solutions/lab6/expert/: the reference's tuned rows

# The GPU suite's rows for this lab (gpu_suite.tests): awkward shapes (1x1, single rows and columns,
# primes, exactly one block, just over a block or a tile, several tiles), the masks it cycles
# through, its mask sizes; its separable variants take rank-1 masks, so its random ones are
# outer:K:S (column != row).
GPU = {
    "shapes": ["1x1", "1x7", "7x1", "2x3", "17x13", "64x64", "65x63", "129x65", "300x77", "1031x769"],
    "masks": ["outer:3:1", "outer:63:2", "sobel-x", "outer:17:3", "outer:1:4", "gauss:9:2", "box:5", "outer:31:6"],
    "sizes": range(1, 64, 2),
    "random": "outer",
    "racecheck": True,
}


def documented_skip(r):
    """Lab 3's kernel and the sequential K x K sum run masks up to 31x31: they skip larger ones."""
    return r["status"] == "skipped" and r["variant"] in ("lab3-tiled", "sequential-direct") and r["mask"]["size"] > 31


def refuses_rank_two(n):
    """Lab 6: a mask that is not rank 1 is refused by every separable variant (skipped, its rank in
    one line), never computed wrong; the direct variants still run and pass."""
    doc = lab_json(f"lab{n}-solution", "--check-only", "--size", "131x67", "--mask", "random:7:3", "--image", "random")
    rows = {r["variant"]: r for r in doc["results"]}
    for name in ("two-pass", "fused", *EXPERT, "sequential-separable"):
        assert rows[name]["status"] == "skipped" and "numerical rank is" in rows[name]["message"], rows[name]
    for name in ("lab3-tiled", "sequential-direct"):
        assert rows[name]["status"] == "pass", rows[name]


def gpu_tests():
    """As gpu_suite.tests: (name, fn, *args, alone), after the rows every image lab has."""
    return [("lab6 GPU: a mask of rank 2 is refused by the separable variants, the direct ones run", refuses_rank_two, 6, False)]
