"""Lab 3's own tests (its GPU rows' shapes and masks); gpu_suite.py makes the rows every image
lab has from GPU below. Its grading cases: grading/cases/lab3.json and
grading/known-bad/lab3.json."""

# The GPU suite's rows for this lab (gpu_suite.tests): awkward shapes (1x1, single rows and columns,
# primes, exactly one block, just over a block or a tile, several tiles), the masks it cycles
# through, its mask sizes.
GPU = {
    "shapes": ["1x1", "1x7", "7x1", "2x3", "16x16", "17x13", "33x31", "127x61", "257x255", "1031x769"],
    "masks": ["random:3:1", "random:31:2", "sobel-x", "random:17:3", "random:1:4", "gauss:9:2", "random:5:5", "random:21:6"],
    "sizes": range(1, 32, 2),
    "racecheck": True,
}
