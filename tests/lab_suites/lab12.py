"""Lab 12's own tests: lab 3's tiled kernel in OpenCL (the tile in local memory sized at run time,
loaded in passes) beside the student's lab 11 kernels, run through the kit's OpenCL back end on
PoCL where there is no GPU (lab_suites/opencl.py: the tests every OpenCL lab has). Lab 12 has no
CUDA GPU rows (no GPU dict), as lab 11. Its grading spec is grading/cases/lab12.json (correctness
alone for now, as lab 11's); its known-bad submissions are graded on PoCL by grader_tests."""
from lab_suites import opencl

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


def cli_tests():
    # The compile error goes in front of TODO 1, in conv2d_tiled_kernel: that file's one kernel
    # fails to build, the lab 11 kernels still run. Every group is 16x16: the kernel's limit.
    return opencl.cli_tests(LAB, compile_error=(1, ["tiled"]),
                            work_group_limits={v: "CL_KERNEL_WORK_GROUP_SIZE 128" for v in LAB.variants})


def gpu_tests():
    """make test-gpu: the tests above on the GPU's OpenCL driver, and the reference graded there."""
    return opencl.gpu_tests(LAB, cli_tests())
