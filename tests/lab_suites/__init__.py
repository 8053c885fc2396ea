"""Each lab's own tests, one file a lab (lab_suites/labN.py), so that whoever works on a lab finds
them in one place:
- GPU (the image labs): its shapes, masks and mask sizes, of which gpu_suite.py makes the rows
  every image lab has, and what its kernels need there (racecheck, the peer-timed mask, the
  sanitizer's small mask);
- gpu_tests(): the GPU tests only it has, as gpu_suite.tests lists them (labs 5, 8 and 9: all
  of theirs);
- cli_tests(): the command-line tests only it has, as cli_tests.register runs them;
- documented_skip(row): the skips its solution may report (a kernel's mask limit);
- check_default_run(doc): what its default run must show beyond every lab's figures.
Its grading cases and known-bad submissions are grading/cases/labN.json and
grading/known-bad/labN.json; the grader's self-test grades them (make test-grader-gpu LAB=N)."""
import importlib
import os
import types


def has_own(n):
    return os.path.exists(os.path.join(os.path.dirname(os.path.abspath(__file__)), f"lab{n}.py"))


def of(n):
    """Lab n's module of tests; a lab without one has none (manifest_tests fails on it)."""
    return importlib.import_module(f"lab_suites.lab{n}") if has_own(n) else types.SimpleNamespace()
