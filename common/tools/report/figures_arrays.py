"""The array lab's figures (lab 5; common/families/arrays/): one a microbenchmark sweep, its median
time against the swept value, with the floor the measured ceiling gives its work model.

A lab 5 row is named "experiment/variant" (qualified_name, common/families/arrays/array_lab.cpp),
and the variant's name holds the swept value (labs/lab5/experiments.cu): "stride/stride 4",
"paths/8 paths, by warp", "blocksize/256 threads/block", "banks/B padded stride 4". The report
carries the value in no other field, and no row carries its work: the floors restate the models
each experiment's table states (experiments.cu), from the report's array length (input.elements)."""
import math
import re
from collections import namedtuple

from figures_base import ceilings, finish, log2_axis, log_y, ms, plt, timed

# key: the experiment; lines: (the variant's name, the lines a row of it is a point of); floor(n, x):
# the bytes (or, with flops, the flops) one launch does under the experiment's model (stated in
# `model`), or None.
Sweep = namedtuple("Sweep", "key what xlabel lines model floor flops log2")

IN_A_WARP, BY_WARP = "P paths in a warp (lane % P)", "P paths across warps (warp % P)"
SWEEPS = {
    "stride-sweep": Sweep("stride", "strided copy, out[i*s] = in[i*s]", "stride s (floats, log scale)",
                          [(r"stride (\d+)", ["strided copy"])], "8 B per element copied", lambda n, s: 8 * math.ceil(n / s), False, True),
    "offset-sweep": Sweep("offset", "misaligned copy, thread i copies element i + offset", "start offset (floats)",
                          [(r"offset (\d+)", ["misaligned copy"])], "8 B per element copied", lambda n, o: 8 * (n - o), False, False),
    "paths-sweep": Sweep("paths", "divergence, P paths of 64 dependent FMAs", "code paths P (log scale)",
                         [(r"(1) path", [IN_A_WARP, BY_WARP]), (r"(\d+) paths in a warp", [IN_A_WARP]), (r"(\d+) paths, by warp", [BY_WARP])],
                         "2 x 64 flops per element", lambda n, p: 2 * 64 * n, True, True),
    "block-size-sweep": Sweep("blocksize", "block size, out[i] = in[i] + 1", "threads per block (log scale)",
                              [(r"(\d+) threads/block", ["out[i] = in[i] + 1"])], "4 B read + 4 B written per element",
                              lambda n, b: 8 * n, False, True),
    # Its ceiling, the shared memory's 32 banks x 4 B a clock an SM, is computed from clocks, not
    # measured, and the report holds neither it nor the bytes: no floor.
    "bank-stride-sweep": Sweep("banks", "shared-memory bank conflicts", "stride between lanes' words (4-byte words, log scale)",
                               [(r"A stride (\d+)", ["A: rows of 32 words"]), (r"B padded stride (\d+)", ["B: rows padded to 33 words"])],
                               "", None, False, True),
}


def points(doc, sweep):
    """{line: [(x, row), ...]} sorted by x, from the timed rows of the sweep's experiment."""
    lines = {}
    for r in timed(doc):
        experiment, _, variant = r.get("variant", "").partition("/")
        if experiment != sweep.key:
            continue
        for pattern, names in sweep.lines:
            m = re.fullmatch(pattern, variant)
            for name in names if m else []:
                lines.setdefault(name, []).append((int(m.group(1)), r))
    return {name: sorted(p, key=lambda p: p[0]) for name, p in lines.items()}


def floor_line(doc, sweep, xs):
    """(label, [ms at each x]) of the sweep's floor, or None: its work at the measured ceiling."""
    n = (doc.get("input") or {}).get("elements")
    bandwidth, peak = ceilings(doc)
    rate = peak if sweep.flops else bandwidth
    if not (sweep.floor and n and rate):
        return None
    label = f"floor: {sweep.model} at " + (f"{peak:.0f} GFLOP/s FP32" if sweep.flops else f"{bandwidth:.0f} GB/s copy")
    return label, [1e3 * sweep.floor(n, x) / (rate * 1e9) for x in xs]


def sweep_figure(kind):
    sweep = SWEEPS[kind]

    def draw(doc):
        lines = points(doc, sweep)
        if not lines:
            return f"no timed {sweep.key}/ row (a run without a GPU, or --experiment without {sweep.key})"
        fig, ax = plt.subplots(figsize=(8, 5))
        for name, line in lines.items():
            ax.plot([x for x, _ in line], [ms(r) for _, r in line], marker="o", label=name)
        xs = sorted({x for line in lines.values() for x, _ in line})
        floor = floor_line(doc, sweep, xs)
        if floor:
            ax.plot(xs, floor[1], linestyle=":", color="grey", label=floor[0])
        log_y(ax)
        if sweep.log2:
            log2_axis(ax, xs)
        else:
            ax.set_xticks(xs)
        n = (doc.get("input") or {}).get("elements")
        return finish(fig, ax, doc, sweep.what + (f", {n:,} floats" if n else ""), sweep.xlabel,
                      "median time (ms, log scale)")

    draw.__doc__ = f"Lab 5's {sweep.key} sweep: median time against the swept value, a line a kind of variant."
    return draw


KINDS = {kind: sweep_figure(kind) for kind in SWEEPS}
