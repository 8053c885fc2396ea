#!/usr/bin/env bash
# Lab 7's performance bars (issue 16), on the GPU, in one run: the solution's box filters and
# texture kernel, its running sum's design tier and expert tier (solutions/lab7/expert/: the running
# sum's bars are that tier's, DESIGN.md §3), beside lab 3's tiled kernel at 8192x8192, 8-bit in, float out, one channel,
# clamped border, box K = 3 ... 31; NPP's nppiFilterBoxBorder (measurements/npp_box.cu) and CuPy's
# uniform_filter (measurements/cupy_box.py) on the same image size and border. Prints each bar
# with its figures and PASS or MISS; exits 1 if a bar is missed.
#   measurements/lab7_vs_peers.sh OUT_DIR        (after make all)
set -euo pipefail
out=${1:?usage: $0 OUT_DIR}
mkdir -p "$out"
masks=box:3,box:5,box:7,box:9,box:15,box:21,box:31
build/bin/lab7-solution --image random --size 8192 --channels 1 --border clamp --mask "$masks" \
    --variant lab3-tiled,lab6-fused,running-sum,summed-area,texture,running-sum-expert --cpu-reps 1 --format json > "$out/lab7-8192.json"
nvcc -O3 -arch=sm_90 -o "$out/npp_box" measurements/npp_box.cu -lnppif -lnppc
"$out/npp_box" > "$out/npp-8192.json"
python3 measurements/cupy_box.py > "$out/cupy-8192.json"
python3 - "$out" <<'PY'
import json, sys
sys.path.insert(0, "grading")
from convlab_grader.reports import read_file  # the kit's reader: report schema 2, or one line why not
out = sys.argv[1]
doc = read_file(f"{out}/lab7-8192.json")
npp = {c["k"]: c["median_ms"] for c in json.load(open(f"{out}/npp-8192.json"))["cases"]}
cupy = {c["k"]: c["median_ms"] for c in json.load(open(f"{out}/cupy-8192.json"))["cases"]}
dev = doc["device"]
copy = dev["copy_bandwidth_gbs"]
print(f"{dev['name']}: copy {copy:.0f} GB/s; 5 B a value at that rate: {8192 * 8192 * 5 / copy * 1e-6:.3f} ms")
rows = {}
for r in doc["results"]:
    if r["kind"] == "gpu":
        rows[(r["variant"], r["mask"]["size"])] = r
ks = sorted({k for _, k in rows})
variants = ["lab3-tiled", "lab6-fused", "running-sum", "summed-area", "texture", "running-sum-expert"]
print(f"{'k':>3} " + " ".join(f"{v:>12}" for v in variants) + f" {'NPP 8u':>8} {'CuPy':>8}")
def ms(v, k):
    r = rows.get((v, k))
    return r["time"]["median_ms"] if r and r["status"] == "pass" else None
for k in ks:
    cells = [ms(v, k) for v in variants]
    print(f"{k:3d} " + " ".join(f"{c:{max(12, len(v))}.3f}" if c else f"{'—':>{max(12, len(v))}}" for v, c in zip(variants, cells))
          + f" {npp[k]:8.3f} {cupy[k]:8.3f}")
misses = []
def bar(name, ok, figures):
    print(f"{'PASS' if ok else 'MISS'}  {name}: {figures}")
    if not ok:
        misses.append(name)
RS = "running-sum-expert"  # the tier that carries the kit's bars; the design's row is in the table above
run = [ms(RS, k) for k in ks]
bar("running sum flat within 10% from K = 3 to 31", max(run) <= 1.10 * min(run), f"{min(run):.3f} to {max(run):.3f} ms ({max(run) / min(run):.2f}x)")
pct = [rows[(RS, k)]["pct_copy_bandwidth"] for k in ks]
bar("running sum at 75% of copy bandwidth or more (5 B model)", min(pct) >= 75, f"{min(pct):.1f}% to {max(pct):.1f}%")
bar("running sum 25x CuPy uniform_filter at K = 31", cupy[31] / ms(RS, 31) >= 25, f"{cupy[31] / ms(RS, 31):.1f}x")
bar("running sum 100x NPP nppiFilterBoxBorder at K = 31", npp[31] / ms(RS, 31) >= 100, f"{npp[31] / ms(RS, 31):.1f}x")
tex = [ms("texture", k) / ms("lab3-tiled", k) for k in ks]
bar("texture within 1.3x of lab 3's tiled kernel at every K", max(tex) <= 1.3, ", ".join(f"K={k}: {t:.2f}x" for k, t in zip(ks, tex)))
sys.exit(1 if misses else 0)
PY
