#!/usr/bin/env bash
# The performance figures of issue 3 (DESIGN section 8), on the GPU: 8192x8192, 8-bit in, float
# out, one channel, every lab 4 variant and lab 3's kernel at K = 3, 5, 7, 15, 31, in one run, so
# that every ratio is against the copy bandwidth and FP32 peak measured in that same run.
#   measurements/perf_sweep.sh OUT_DIR
set -euo pipefail
out=${1:?usage: $0 OUT_DIR}
mkdir -p "$out"
build/bin/lab4-solution --size 8192 --channels 1 --mask box:1,box:3,box:5,gauss:7:2,gauss:15:4,gauss:31:8 \
    --cpu-reps 1 --format json > "$out/lab4-8192.json"
python3 - "$out/lab4-8192.json" <<'PY'
import json, sys
sys.path.insert(0, "grading")
from convlab_grader.reports import read_file  # the kit's reader: report schema 2, or one line why not
doc = read_file(sys.argv[1])
print(f"{doc['device']['name']}: copy {doc['device']['copy_bandwidth_gbs']:.0f} GB/s, FP32 peak {doc['device']['fp32_peak_gflops']:.0f} GFLOP/s")
best = {}
for r in doc["results"]:
    if r["kind"] != "gpu" or r["status"] != "pass":
        continue
    k = r["mask"]["size"]
    print(f"  k={k:2d} {r['variant']:24s} {r['time']['median_ms']:8.3f} ms  {r['pct_copy_bandwidth']:5.1f}% copy  {r['pct_fp32_peak']:5.1f}% fp32")
    if k not in best or r["time"]["median_ms"] < best[k]["time"]["median_ms"]:
        best[k] = r
print("best per mask:")
for k, r in sorted(best.items()):
    print(f"  k={k:2d} {r['variant']:24s} {r['time']['median_ms']:.3f} ms  {r['pct_copy_bandwidth']:.1f}% of copy bandwidth  {r['pct_fp32_peak']:.1f}% of FP32 peak")
bad = [f"{r['variant']} {r['mask']['spec']}: {r['status']}" for r in doc["results"] if r["status"] != "pass"]
print("not passing:", bad or "none")
PY
