"""Lab 0's own tests (a CPU lab: the solution on awkward shapes, its default run, the skeleton);
cli_tests.py runs them. Its grading cases: grading/cases/lab0.json and
grading/known-bad/lab0.json."""
from testkit import lab, lab_json

BORDERS = ["zero", "clamp", "wrap", "mirror"]
# Awkward shapes: single pixels, single rows and columns, primes, smaller than any mask.
LAB0_SHAPES = ["1x1", "1x9", "9x1", "2x3", "17x13", "61x37", "127x5"]


def lab0_solution_passes_everywhere():
    failures = []
    for shape in LAB0_SHAPES:
        for border in BORDERS:
            for channels in ("1", "3"):
                mask = "random:5:%d" % len(failures) if shape != "1x1" else "random:9:2"
                status, _, err = lab("lab0-solution", "--check-only", "--size", shape, "--border", border,
                                     "--channels", channels, "--mask", mask, "--threads", "1,3")
                if status != 0:
                    failures.append(f"{shape} {border} {channels}ch: exit {status} {err.strip()[:200]}")
    assert not failures, "\n".join(failures)


def lab0_solution_default_run():
    doc = lab_json("lab0-solution", "--cpu-reps", "1", "--threads", "1,2")
    runs = [(r["variant"], r["threads"], r["status"]) for r in doc["results"]]
    assert [(v, s) for v, _, s in runs] == [("openmp-reference", "pass"), ("sequential", "pass"), ("openmp", "pass"),
                                            ("openmp", "pass")], runs
    openmp2 = [r for r in doc["results"] if r["variant"] == "openmp" and r["threads"] == 2][0]
    assert openmp2["time"]["median_ms"] > 0 and openmp2["parallel_efficiency_pct"] > 0, openmp2


def lab0_skeleton_fails_cleanly():
    status, out, err = lab("lab0-student", "--check-only", "--size", "40x30")
    assert status == 1, f"exit {status}, expected 1\n{err}"
    assert "not implemented yet: conv2d_omp" in out, out


def cli_tests():
    """As cli_tests.register runs them: (name, fn, *args). The shape sweep is solution_sweeps()."""
    return [
        ("lab0: default run times every thread count", lab0_solution_default_run),
        ("lab0: untouched skeleton fails with 'not implemented yet'", lab0_skeleton_fails_cleanly),
    ]


def solution_sweeps():
    """The CPU lab's shape sweep, which make test-gpu runs too."""
    return [("lab0: solution passes on awkward shapes, every border, 1 and 3 channels", lab0_solution_passes_everywhere)]
