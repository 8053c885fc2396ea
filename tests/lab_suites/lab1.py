"""Lab 1's own tests (its GPU rows' shapes and masks, a run without a GPU); gpu_suite.py makes
the rows every image lab has from GPU below. Its grading cases: grading/cases/lab1.json and
grading/known-bad/lab1.json."""
from testkit import Skip, gpu_available, lab

# The GPU suite's rows for this lab (gpu_suite.tests): awkward shapes (1x1, single rows and columns,
# primes, exactly one block, just over a block or a tile, several tiles), the masks it cycles
# through and its mask sizes.
GPU = {
    "shapes": ["1x1", "1x7", "7x1", "2x3", "16x16", "17x13", "31x37", "127x61", "257x255", "1031x769"],
    "masks": ["random:3:1", "random:5:2", "sobel-x", "random:7:3", "random:1:4", "gauss:5:1", "emboss", "random:31:5"],
    "sizes": range(1, 32, 2),
    "racecheck": False,
}


def check_default_run(doc):
    """Lab 1's default run times its naive kernel end to end as well (copies and all)."""
    naive = [r for r in doc["results"] if r["variant"] == "naive-2d-global"][0]
    assert naive["end_to_end"] and naive["end_to_end"]["median_ms"] > naive["time"]["median_ms"], naive


def lab1_without_gpu_says_skipped():
    if gpu_available():
        raise Skip("this machine has a GPU")
    status, out, err = lab("lab1-solution", "--size", "64x48", "--cpu-reps", "1")
    assert status == 3, f"exit {status}, expected 3"
    lines = [l for l in err.splitlines() if l.strip()]
    assert len(lines) == 1 and "GPU variants skipped" in lines[0], err
    assert "openmp-reference" in out, out
    # One line for the GPU rows that did not run, not one row each (lab 4 would print 66).
    assert " skipped " not in out and "GPU variant runs left out of the table: no usable GPU" in out, out


def cli_tests():
    return [("lab1: without a GPU, one line and exit status 3", lab1_without_gpu_says_skipped)]
