"""How the grader reads a safety run (grading/convlab_grader/sanitizer_tools.py): compute-sanitizer's
exit code, and oclgrind's log for the OpenCL labs, which must fail closed when the run was not
watched (its report names another device), when the log is missing or is a link, and which counts
races alone as racecheck's. The last test runs lab 11's solution and a kernel with a read past
its mask under the real oclgrind, where it is installed."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from testkit import ROOT, Skip, make

sys.path.insert(0, os.path.join(ROOT, "grading"))
from convlab_grader import sanitizer_tools  # noqa: E402

OPENCL = {"sanitizer": {"runner": "oclgrind", "tools": {"memcheck": 8, "racecheck": 7}}}
CUDA = {"sanitizer": {"tools": {"memcheck": 10}}}


class Ran:
    def __init__(self, stdout="", stderr="", status=0):
        self.stdout, self.stderr, self.status = stdout, stderr, status


def report(device):
    return json.dumps({"device": {"name": device}, "results": []})


def oclgrind_log_decides(tmp, log, tool, device=sanitizer_tools.OCLGRIND_DEVICE):
    folder = tempfile.mkdtemp(dir=tmp)
    if log is not None:
        with open(os.path.join(folder, sanitizer_tools.OCLGRIND_LOG), "w") as f:
            f.write(log)
    return sanitizer_tools.findings(OPENCL, tool, Ran(report(device)), folder)


def reading_fails_closed():
    race = "\nWrite-write data race at local memory address 0x1000\n\tKernel: k\n\tEntity: Global(1,0,0)\n"
    invalid = "\nInvalid read of size 4 at global memory address 0x5000\n\tKernel: k\n\tAt line 3 of x.cl:\n"
    with tempfile.TemporaryDirectory() as tmp:
        assert oclgrind_log_decides(tmp, "", "memcheck") == (True, [])
        clean, found = oclgrind_log_decides(tmp, invalid, "memcheck")
        assert not clean and found == ["Invalid read of size 4 at global memory address 0x5000"], found
        # racecheck judges races alone; memcheck whatever the log holds
        assert oclgrind_log_decides(tmp, invalid, "racecheck") == (True, [])
        assert oclgrind_log_decides(tmp, race, "racecheck")[0] is False
        assert oclgrind_log_decides(tmp, race, "memcheck")[0] is False
        # not watched: no log, a log that is a link, a report that names another device or none
        clean, found = oclgrind_log_decides(tmp, None, "memcheck")
        assert not clean and "not measured" in found[0], found
        clean, found = oclgrind_log_decides(tmp, "", "memcheck", device="pthread-Intel(R) Xeon(R)")
        assert not clean and "not measured" in found[0], found
        folder = tempfile.mkdtemp(dir=tmp)
        empty = os.path.join(tmp, "empty.log")
        open(empty, "w").close()
        os.symlink(empty, os.path.join(folder, sanitizer_tools.OCLGRIND_LOG))
        assert sanitizer_tools.findings(OPENCL, "memcheck", Ran(report(sanitizer_tools.OCLGRIND_DEVICE)), folder)[0] is False
        assert sanitizer_tools.findings(OPENCL, "memcheck", Ran("not json"), folder)[0] is False
        # compute-sanitizer: its --error-exitcode marks a finding, the lab's own exit 1 does not
        assert sanitizer_tools.findings(CUDA, "memcheck", Ran(status=1), tmp)[0] is True
        clean, found = sanitizer_tools.findings(CUDA, "memcheck", Ran(stderr="========= Invalid __global__ write of size 4\n", status=99), tmp)
        assert not clean and found == ["========= Invalid __global__ write of size 4"], found
        assert sanitizer_tools.command(CUDA, "racecheck", tmp)[:2] == ["compute-sanitizer", "--tool=racecheck"]
        assert sanitizer_tools.command(OPENCL, "racecheck", tmp)[:2] == ["oclgrind", "--data-races"]


def oclgrind_finds_a_read_past_the_mask():
    """Lab 11's solution clean under oclgrind; the same kernel reading one float past its mask
    (the known-bad reads-one-past-the-mask) named by memcheck, and clean for racecheck."""
    if not shutil.which("oclgrind"):
        raise Skip("oclgrind is not installed (make deps installs it)")
    make("build/bin/lab11-solution")
    binary = os.path.join(ROOT, "build", "bin", "lab11-solution")
    source = open(os.path.join(ROOT, "solutions", "lab11", "conv2d_naive.cl")).read()
    marker = "    global float* o = out + ((size_t)y * width + x) * channels;\n"
    assert source.count(marker) == 2, "the solution's pixel loop changed: move this test's edit"
    bad = source.replace(marker, "    if (mask[k * k] == 12345.0f) sum[0] += 1.0f;\n" + marker, 1)
    verdicts = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in (("good", source), ("bad", bad)):
            folder = os.path.join(tmp, name)
            os.makedirs(folder)
            with open(os.path.join(folder, "conv2d_naive.cl"), "w") as f:
                f.write(text)
            for tool in ("memcheck", "racecheck"):
                logs = tempfile.mkdtemp(dir=tmp)
                done = subprocess.run([*sanitizer_tools.command(OPENCL, tool, logs), binary, "--size", "23x9", "--channels", "3",
                                       "--mask", "random:5:3", "--check-only", "--format", "json"], capture_output=True, text=True,
                                      timeout=300, env=dict(os.environ, CONVLAB_CL_DIR=folder))
                assert done.returncode == 0, (done.stdout + done.stderr)[-2000:]
                verdicts[name, tool] = sanitizer_tools.findings(OPENCL, tool, Ran(done.stdout, done.stderr, done.returncode), logs)
    assert verdicts["good", "memcheck"] == (True, []) and verdicts["good", "racecheck"] == (True, []), verdicts
    assert verdicts["bad", "racecheck"] == (True, []), verdicts
    clean, found = verdicts["bad", "memcheck"]
    assert not clean and found and found[0].startswith("Invalid read"), found


def register(results):
    results.run("grader: a safety run's verdict (compute-sanitizer's exit code, oclgrind's log): fails closed when the run was "
                "not watched or the log is missing or a link; racecheck counts races alone", reading_fails_closed)
    results.run("grader: oclgrind (labs 11 and 12's safety runs): lab 11's solution clean, a read one past the mask named by "
                "memcheck alone", oclgrind_finds_a_read_past_the_mask)
