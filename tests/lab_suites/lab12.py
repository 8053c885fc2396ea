"""Lab 12's own tests: lab 3's tiled kernel in OpenCL (the tile in local memory sized at run time,
loaded in passes) beside the student's lab 11 kernels, run through the kit's OpenCL back end on
PoCL where there is no GPU (lab_suites/opencl.py: the tests every OpenCL lab has). Lab 12 has no
CUDA GPU rows (no GPU dict), as lab 11. Its grading spec is grading/cases/lab12.json (correctness,
and safety under oclgrind, as lab 11's); its known-bad submissions are graded on PoCL by grader_tests."""
import json

from lab_suites import opencl
from testkit import Skip, gpu_available, lab, make

LAB = opencl.ClLab(
    n=12,
    cl="conv2d_tiled.cl",
    variants=["lab11-naive", "lab11-naive-const", "tiled"],
    # Awkward shapes: a pixel, a row, a column, smaller than a work-group, exactly one, just over
    # one, primes, several work-groups with partial ones on both edges.
    shapes=["1x1", "37x1", "1x53", "2x3", "16x16", "17x13", "31x37", "127x61", "257x129"],
    # Every run has K = 1 (a tile as big as the work-group), 3, 7 and 31 (a 46x46 tile: nine
    # passes of 256 work-items), asymmetric random masks, and one more mask in turn.
    masks=[f"random:1:2,random:3:1,random:7:3,random:31:5,{m}" for m in ("random:5:2", "sobel-x", "random:9:6", "gauss:15:4", "emboss")],
    uses=("lab11/conv2d_naive.cl",),
    macros=("TILE",),  # the work-group's side, which the skeleton gives too
)


DESIGNS = ("naive, mask in global memory", "naive, mask in constant memory", "tiled 16x16, (16+k-1)^2 tile")


def cuda_vs_opencl_refuses_and_skips():
    """build/bin/cuda-vs-opencl (measurements/cuda_vs_opencl.cpp, make cuda-vs-opencl) builds; a lab
    option it does not honour is refused in one line (exit 2), not ignored; without a CUDA GPU it
    says so in one line and exits 3."""
    make("build/bin/cuda-vs-opencl")
    status, out, err = lab("cuda-vs-opencl", "--demo")
    assert status == 2 and len(err.strip().splitlines()) == 1 and "--demo is not an option of this comparison" in err, (status, err)
    status, out, err = lab("cuda-vs-opencl", "--format", "md")
    assert status == 2 and "accepted: --format text, --format json" in err, (status, err)
    status, out, err = lab("cuda-vs-opencl", "--rounds", "0")
    assert status == 2 and "--rounds 0" in err, (status, err)
    if gpu_available():
        raise Skip("a CUDA GPU is here: make test-gpu runs the comparison")
    status, out, err = lab("cuda-vs-opencl", "--size", "40x30")
    assert status == 3 and len(err.strip().splitlines()) == 1 and "needs a CUDA GPU" in err, (status, out, err)


def cuda_vs_opencl_on_one_gpu():
    """On a CUDA GPU with an OpenCL device: every design at two masks checked on both sides before
    and after timing, and a row of times, ratio and % copy each."""
    make("build/bin/cuda-vs-opencl")
    args = ["--size", "301x203", "--channels", "3", "--mask", "gauss:3:1,gauss:31:8", "--rounds", "2", "--reps", "3", "--warmup", "1"]
    status, out, err = lab("cuda-vs-opencl", *args, "--format", "json")
    assert status == 0, (status, out[-2000:], err[-2000:])
    doc = json.loads(out)
    rows = [(r["design"], r["mask"], r["status"]) for r in doc["rows"]]
    assert rows == [(d, m, "pass") for m in ("gauss:3:1", "gauss:31:8") for d in DESIGNS], rows
    figures = ("cuda_ms", "opencl_ms", "opencl_over_cuda", "cuda_pct_copy", "opencl_pct_copy", "cuda_pct_fp32")
    assert all(r[f] > 0 for r in doc["rows"] for f in figures), doc["rows"]
    status, text, err = lab("cuda-vs-opencl", *args)  # the same rows as a table
    assert status == 0 and sum(line.startswith(DESIGNS) for line in text.splitlines()) == 6, text


def cli_tests():
    # The compile error goes in front of TODO 1, in conv2d_tiled_kernel: that file's one kernel
    # fails to build, the lab 11 kernels still run. Every group is 16x16: the kernel's limit.
    return opencl.cli_tests(LAB, compile_error=(1, ["tiled"]),
                            work_group_limits={v: "CL_KERNEL_WORK_GROUP_SIZE 128" for v in LAB.variants}) + [
        ("cuda-vs-opencl: builds, refuses an option it does not honour, says it needs a CUDA GPU where there is none",
         cuda_vs_opencl_refuses_and_skips)]


def gpu_tests():
    """make test-gpu: the tests above on the GPU's OpenCL driver, the reference graded there, and
    CUDA against OpenCL in one process."""
    return opencl.gpu_tests(LAB, cli_tests()) + [
        ("lab12 GPU: cuda-vs-opencl, labs 1 and 3 against 11 and 12 in one process: every design checked and timed",
         cuda_vs_opencl_on_one_gpu, True)]
