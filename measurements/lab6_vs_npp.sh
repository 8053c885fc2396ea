#!/usr/bin/env bash
# Lab 6's performance bar (issue 15), on the GPU, in one run: the solution's two-pass and fused
# kernels, the design tier's and the expert tier's (solutions/lab6/expert/), and lab 3's tiled
# kernel at 8192x8192, 8-bit in, float out, one channel, clamped border,
# K = 3 ... 63, as ratios to the copy bandwidth and FP32 peak measured in that run; NPP's separable
# filter (measurements/npp_separable.cu) on the same side and weights; the CPU bar (OpenMP
# separable against the K x K sum on one core, K = 31, the default image).
#   measurements/lab6_vs_npp.sh OUT_DIR        (after make all)
set -euo pipefail
out=${1:?usage: $0 OUT_DIR}
mkdir -p "$out"
masks=gauss:3:1,gauss:5:1.5,gauss:7:2,gauss:9:2.5,gauss:15:4,gauss:31:8,gauss:63:16
build/bin/lab6-solution --size 8192 --channels 1 --border clamp --mask "$masks" --variant lab3-tiled,two-pass,fused,two-pass-expert,fused-expert \
    --cpu-reps 1 --format json > "$out/lab6-8192.json"
nvcc -O3 -arch=sm_90 -o "$out/npp_separable" measurements/npp_separable.cu -lnppif -lnppc
"$out/npp_separable" > "$out/npp-8192.json"
build/bin/lab6-solution --mask gauss:31:8 --cpu-reps 1 --variant sequential-direct --format json > "$out/lab6-cpu.json"
python3 - "$out" <<'PY'
import json, sys
sys.path.insert(0, "grading")
from convlab_grader.reports import read_file  # the kit's reader: report schema 2, or one line why not
out = sys.argv[1]
doc = read_file(f"{out}/lab6-8192.json")
npp = {c["k"]: c for c in json.load(open(f"{out}/npp-8192.json"))["cases"]}
dev = doc["device"]
print(f"{dev['name']}: copy {dev['copy_bandwidth_gbs']:.0f} GB/s, FP32 peak {dev['fp32_peak_gflops']:.0f} GFLOP/s")
print(f"{'k':>3} {'variant':15} {'ms':>8} {'% copy':>7} {'% fp32':>7} {'NPP ms':>8} {'x NPP':>6}")
for r in doc["results"]:
    if r["kind"] != "gpu":
        continue
    k = r["mask"]["size"]
    if r["status"] != "pass":
        print(f"{k:3d} {r['variant']:15} {r['status']}: {r['message'][:80]}")
        continue
    t = r["time"]["median_ms"]
    ratio = npp[k]["median_ms"] / t
    print(f"{k:3d} {r['variant']:15} {t:8.3f} {r['pct_copy_bandwidth']:6.1f}% {r['pct_fp32_peak']:6.1f}% {npp[k]['median_ms']:8.3f} {ratio:5.1f}x")
cpu = read_file(f"{out}/lab6-cpu.json")
rows = {r["variant"]: r for r in cpu["results"]}
omp, seq = rows["openmp-reference"]["time"]["median_ms"], rows["sequential-direct"]["time"]["median_ms"]
print(f"CPU, K=31, {cpu['input']['width']}x{cpu['input']['height']}, {cpu['timing']['cpu_cores']} cores: "
      f"OpenMP separable {omp:.1f} ms, sequential direct {seq:.1f} ms: {seq / omp:.1f}x")
PY
