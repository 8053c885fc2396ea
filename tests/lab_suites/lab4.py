"""Lab 4's own tests (its GPU rows' shapes and masks, a large colour image, the register
kernel's limit); gpu_suite.py makes the rows every image lab has from GPU below. Its grading
cases: grading/cases/lab4.json and grading/known-bad/lab4.json."""
import os
import tempfile

from gpu_suite import all_pass
from testkit import lab_json

# The GPU suite's rows for this lab (gpu_suite.tests): awkward shapes (1x1, single rows and columns,
# primes, exactly one block, just over a block or a tile, several tiles), the masks it cycles
# through, its mask sizes.
GPU = {
    "shapes": ["1x1", "1x7", "7x1", "2x3", "17x13", "64x64", "129x65", "257x33", "300x77", "1031x769"],
    "masks": ["random:3:1", "random:31:2", "sobel-x", "random:17:3", "random:1:4", "gauss:9:2", "random:5:5", "random:21:6"],
    "sizes": range(1, 32, 2),
    "racecheck": True,
}


def documented_skip(r):
    """The register kernels are compiled for k <= 9: they skip larger masks."""
    return r["status"] == "skipped" and r["variant"].startswith("register-") and r["mask"]["size"] > 9


def large_image(n):
    """A large colour image (the register kernel's grid spans more than 65535 blocks of frame)."""
    for channels, mask in (("3", "random:3:4"), ("1", "random:5:9")):
        doc = lab_json(f"lab{n}-solution", "--check-only", "--size", "4099x4101", "--channels", channels, "--mask", mask,
                       "--border", "clamp", "--image", "random")
        all_pass(doc, f"4099x4101 {channels}ch {mask}")


def demo_pictures():
    """--demo saves what a lecture shows (filter_run.cpp's keep_picture): for each mask the fastest
    GPU variant that passed, with its difference, beside the input and the references; --out alone
    saves every variant's."""
    args = ["--size", "200x150", "--mask", "gauss:3:1,gauss:7:2", "--reps", "3", "--warmup", "1"]
    with tempfile.TemporaryDirectory() as tmp:
        doc = lab_json("lab4-solution", "--demo", *args, "--out", tmp)
        gpu = [r for r in doc["results"] if r["kind"] == "gpu" and r["status"] == "pass"]
        fastest = {k: min((r for r in gpu if r["mask"]["size"] == k), key=lambda r: r["time"]["median_ms"])["variant"] for k in (3, 7)}
        expected = {"input.png", "report.json", "reference-k3.png", "reference-k7.png"} | \
            {f"{fastest[k]}-k{k}{diff}.png" for k in (3, 7) for diff in ("", "-diff")}
        cpu = {f"{r['variant']}-k{r['mask']['size']}{diff}.png" for r in doc["results"] if r["kind"] == "cpu" for diff in ("", "-diff")}
        assert set(os.listdir(tmp)) == expected | cpu, (sorted(os.listdir(tmp)), sorted(expected | cpu))
        assert any("fastest GPU variant that passed" in n for n in doc["notes"]), doc["notes"]
    with tempfile.TemporaryDirectory() as tmp:
        doc = lab_json("lab4-solution", *args, "--out", tmp)
        every = {f"{r['variant']}-k{r['mask']['size']}.png" for r in doc["results"] if r["kind"] in ("gpu", "cpu")}
        assert len(every) > 4 and every <= set(os.listdir(tmp)), sorted(every - set(os.listdir(tmp)))


def gpu_tests():
    """As gpu_suite.tests: (name, fn, *args, alone), after the rows every image lab has."""
    return [("lab4 GPU: solution passes on a large colour image", large_image, 4, False),
            ("lab4 GPU: --demo saves the fastest passing GPU variant's pictures for each mask, --out every variant's", demo_pictures,
             False)]
