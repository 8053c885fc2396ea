"""Lab 11's own tests: lab 1's naive kernels in OpenCL, run through the kit's OpenCL back end on
PoCL where there is no GPU (lab_suites/opencl.py: the tests every OpenCL lab has). Lab 11 has no
CUDA GPU rows (no GPU dict): gpu_suite's rows are CUDA's (the sanitizer, peer timing). Its grading
spec is grading/cases/lab11.json (correctness, and safety under oclgrind); its known-bad submissions are graded
on PoCL by grader_tests (grade_opencl_batch)."""
import re

import os

from lab_suites import opencl
from testkit import ROOT, lab_json, run

LAB = opencl.ClLab(
    n=11,
    cl="conv2d_naive.cl",
    variants=["naive-2d-global", "naive-1d-global", "naive-2d-constant", "naive-2d-driver-groups"],
    # Awkward shapes: a pixel, a row, a column, smaller than a work-group, exactly one, just over
    # one, primes, several work-groups with partial ones on both edges.
    shapes=["1x1", "1x7", "7x1", "2x3", "16x16", "17x13", "31x37", "127x61", "257x255"],
    # Two masks a run (a sweep), cycled: asymmetric random masks of K 1 to 31, and named ones.
    masks=["random:3:1,random:31:5", "random:5:2,sobel-x", "random:7:3,random:1:4", "gauss:5:1,emboss", "random:9:6,random:15:7"],
    macros=("MAX_CHANNELS",),
    driver_chooses=("naive-2d-driver-groups",),
)


def driver_groups_are_named():
    """Given no work-group size, the driver picks one: the report's notes name the shape it ran
    (the kit's probe kernel over the same range), for each image size, a group no larger than
    the range; the variant passes its check."""
    for size in ("1x1", "40x30", "257x255"):
        doc = lab_json("lab11-solution", "--size", size, "--mask", "random:5:2", "--variant", "naive-2d-driver-groups", "--check-only")
        rows = [r for r in doc["results"] if r["kind"] == "gpu"]
        assert [(r["variant"], r["status"]) for r in rows] == [("naive-2d-driver-groups", "pass")], rows
        notes = [n for n in doc["notes"] if n.startswith("naive-2d-driver-groups: given no work-group size")]
        shape = re.search(r"driver ran (\d+)x(\d+) work-groups", notes[0]) if len(notes) == 1 else None
        assert shape, doc["notes"]
        width, height = (int(n) for n in size.split("x"))
        assert 1 <= int(shape[1]) <= width and 1 <= int(shape[2]) <= height, (size, shape[0])


def sass(*args):
    return run([os.path.join(ROOT, "common", "tools", "cl-sass.sh"), os.path.join(ROOT, "build", "bin", "lab11-solution"), *args])


def sass_needs_nvidias_driver():
    """make sass LAB=11 where the OpenCL device is not NVIDIA's (PoCL, chosen by name, as a GPU host
    has it too): one line that says it shows NVIDIA's machine code only, exit 1; a bad option for
    the lab is one line that gives the lab's own."""
    status, out, err = sass("--cl-device", "Portable Computing Language")
    assert status == 1 and not out and len(err.strip().splitlines()) == 1 and "not NVIDIA's" in err, f"exit {status}: {err}"
    status, out, err = sass("--border", "nowhere")
    assert status == 1 and "exited 2" in err and len(err.strip().splitlines()) == 1, f"exit {status}: {err}"


def sass_of_the_opencl_kernels():
    """make sass LAB=11 on NVIDIA's driver: each kernel of conv2d_naive.cl as the driver compiles it,
    in SASS (PTX from the driver, assembled by ptxas), with its fused multiply-adds."""
    status, out, err = sass()
    assert status == 0, f"exit {status}: {err}"
    functions = set(re.findall(r"Function : (\w+)", out))
    assert {"conv2d_naive_kernel", "conv2d_naive_1d_kernel", "conv2d_naive_const_kernel"} <= functions, functions
    assert "FFMA" in out or "FMUL" in out, out[:2000]


def cli_tests():
    # The compile error goes in front of TODO 3, in conv2d_naive_kernel: the file's three kernels
    # fail to build. The 16x16 groups exceed the kernel's limit, the 1-D group of 256 the device's.
    return opencl.cli_tests(LAB, compile_error=(3, LAB.variants),
                            work_group_limits={"naive-2d-global": "CL_KERNEL_WORK_GROUP_SIZE 128",
                                               "naive-1d-global": "CL_DEVICE_MAX_WORK_ITEM_SIZES 128x128"}) + [
        ("lab11 (OpenCL, PoCL): given no work-group size the driver picks one, and the notes name it", driver_groups_are_named),
        ("lab11 (OpenCL, PoCL): make sass shows NVIDIA's machine code only, and says so in one line", sass_needs_nvidias_driver)]


def gpu_tests():
    """make test-gpu: the tests above on the GPU's OpenCL driver, and the reference graded there."""
    found = [t for t in opencl.gpu_tests(LAB, cli_tests()) if "make sass" not in t[0]]
    return found + [("lab11 GPU (OpenCL, the GPU's driver): make sass shows the kernels as NVIDIA's OpenCL driver compiles them",
                     opencl.on_the_gpus_driver(LAB, sass_of_the_opencl_kernels), False)]
