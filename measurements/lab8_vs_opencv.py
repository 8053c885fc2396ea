"""OpenCV's CPU Canny, the peer issue 17 names for lab 8: cv2.GaussianBlur (5x5, sigma 1.4,
replicated border: the kit's clamp) then cv2.Canny (3x3 Sobel, L2 magnitude) on every core, on
the image lab 8 times, with the same absolute thresholds. Prints one JSON object: OpenCV's median
time, lab 8's pipelines (kernels only and end to end, from the same run: the design tier's fused and
union-find, and the expert tier's fused-expert and union-find-expert), the ratios, and the
agreement of each pipeline's edge map with OpenCV's as Pco, Pnd, Pfa (for information: OpenCV
blurs to 8 bits and rounds otherwise, so the maps differ by rule, not by mistake).
After make all build/bin/imagegen, on the GPU machine:
    python3 measurements/lab8_vs_opencv.py OUT_DIR [SIDE]        (SIDE 8192 by default)"""
import json
import os
import statistics
import subprocess
import sys
import time

import cv2
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "grading"))
from convlab_grader import reports  # noqa: E402  (the kit's reader: report schema 2, or one line why not)
LOW, HIGH = 40.0, 80.0  # Sobel magnitudes (gx, gy of the 3x3 Sobel; the L2 norm), the same for both
REPS = 7


def run(*command):
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{command[0]} exited {done.returncode}: {done.stderr[-2000:]}")
    return done.stdout


def agreement(tested, reference):
    """Lourenço's measures of `tested` against `reference` (each nonzero an edge)."""
    t, r = tested != 0, reference != 0
    tp, fn, fp = int(np.sum(t & r)), int(np.sum(r & ~t)), int(np.sum(t & ~r))
    most = max(int(t.sum()), int(r.sum()))
    return {"pco": tp / most if most else 1.0, "pnd": fn / most if most else 0.0, "pfa": fp / most if most else 0.0}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else sys.exit(__doc__)
    side = int(sys.argv[2]) if len(sys.argv) > 2 else 8192
    pictures = os.path.join(out, "pictures")  # each pipeline's edge map, NAME-edges.png (255 an edge)
    os.makedirs(pictures, exist_ok=True)
    picture = os.path.join(out, "input.png")
    bins = os.path.join(ROOT, "build", "bin")
    run(os.path.join(bins, "imagegen"), "--size", f"{side}x{side}", "--channels", "1", "--seed", "1", "--out", picture)
    lab = reports.load_or_exit(run(os.path.join(bins, "lab8-solution"), "--image", picture, "--channels", "1", "--border", "clamp",
                         "--mask", "gauss:5:1.4", "--absolute", "--low", str(LOW), "--high", str(HIGH), "--cpu-reps", "1",
                         "--variant", "fused,union-find,fused-expert,union-find-expert", "--out", pictures, "--format", "json"),
                              "lab8")

    image = cv2.imread(picture, cv2.IMREAD_GRAYSCALE)
    assert image is not None and image.shape == (side, side), picture
    cv2.setNumThreads(os.cpu_count() or 1)

    def opencv_canny():
        blurred = cv2.GaussianBlur(image, (5, 5), 1.4, borderType=cv2.BORDER_REPLICATE)
        return cv2.Canny(blurred, LOW, HIGH, apertureSize=3, L2gradient=True)

    opencv_canny()  # warm-up: the thread pool, the pages of the result
    times = []
    for _ in range(REPS):
        started = time.perf_counter()
        edges = opencv_canny()
        times.append(1000 * (time.perf_counter() - started))
    opencv_ms = statistics.median(times)

    pipelines = {}
    for r in lab["results"]:
        own = reports.figures(r)  # the lab's own figures
        if r["kind"] != "gpu" or "stage" in own:
            continue
        name = r["variant"]
        mine = cv2.imread(os.path.join(pictures, f"{name}-edges.png"), cv2.IMREAD_GRAYSCALE)
        assert mine is not None and mine.shape == (side, side), name
        kernels, e2e = r["time"]["median_ms"], r["end_to_end"]["median_ms"]
        pipelines[name] = {"status": r["status"], "kernels_ms": kernels, "end_to_end_ms": e2e,
                           "opencv_over_kernels": opencv_ms / kernels, "opencv_over_end_to_end": opencv_ms / e2e,
                           "against_opencv": agreement(mine, edges), "against_reference": {k: own[k] for k in ("pco", "pnd", "pfa")}}
    print(json.dumps({"gpu": lab["device"]["name"], "image": f"synthetic seed 1, {side}x{side}, grey",
                      "thresholds": {"low": LOW, "high": HIGH}, "cpu_threads": cv2.getNumThreads(),
                      "opencv": {"version": cv2.__version__, "median_ms": opencv_ms, "runs_ms": times},
                      "lab8": pipelines}, indent=1))


if __name__ == "__main__":
    main()
