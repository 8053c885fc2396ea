"""Lab 2's own tests (its GPU rows' shapes and masks); gpu_suite.py makes the rows every image
lab has from GPU below. Its grading cases: grading/cases/lab2.json and
grading/known-bad/lab2.json."""

# The GPU suite's rows for this lab (gpu_suite.tests): awkward shapes (1x1, single rows and columns,
# primes, exactly one block, just over a block or a tile, several tiles), the masks it cycles
# through, its mask sizes; its kernels take 3x3 masks, so a 3x3 one is its sanitizer's small case
# and sobel-x its peer-timed mask.
GPU = {
    "shapes": ["1x1", "1x7", "7x1", "2x3", "14x14", "15x15", "16x16", "17x13", "29x43", "257x255", "1031x769"],
    "masks": ["random:3:1", "sobel-x", "sobel-y", "laplacian", "random:3:2", "emboss", "sharpen", "random:3:3"],
    "sizes": [3],
    "racecheck": True,
    "peer_mask": "sobel-x",
    "sanitizer_k": 3,
}
