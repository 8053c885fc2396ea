"""The image filters' figures (labs 0 to 4, 6, 7; common/families/filters/): time against mask size,
speed-up against threads, the roofline, and lab 4's time against granularity and block shape. Each
returns a figure, or one line that says why the report has nothing for it."""
import re

from figures_base import ceilings, finish, floor_ms, label_axes, log_y, machine, ms, plt, series, timed
from matplotlib.ticker import FuncFormatter  # after figures_base, which picks the backend


def floors(doc, rows):
    """The least time each GPU variant's work model allows at each mask size (floor_ms). Variants of
    one work model share one curve, {(variant, ...): [(K, ms), ...]}; none without the ceilings."""
    curves = {}
    for name, points in series([r for r in rows if r.get("kind") == "gpu"], lambda r: r["mask"]["size"]).items():
        curve = tuple((k, floor_ms(doc, r)) for k, r in points if r.get("flops_per_value") and floor_ms(doc, r))
        if curve:
            curves.setdefault(curve, []).append(name)
    return {tuple(names): curve for curve, names in curves.items()}


def time_vs_mask(doc):
    """Median time (log) against mask size, one line per variant, over the floor of each GPU work
    model: where tiling starts to pay, where the box filter stays flat, how far each is from its floor."""
    rows = [r for r in timed(doc) if (r.get("mask") or {}).get("size")]
    if not rows:
        return "no timed row has a mask size (a check-only run?)"
    fig, ax = plt.subplots(figsize=(8, 5))
    for name, points in series(rows, lambda r: r["mask"]["size"]).items():
        ax.plot([x for x, _ in points], [ms(r) for _, r in points], marker="o", label=name)
    for names, curve in floors(doc, rows).items():
        shown = ", ".join(names[:2]) + (", ..." if len(names) > 2 else "")
        ax.plot([k for k, _ in curve], [t for _, t in curve], linestyle=":", color="grey", label=f"floor of {shown}")
    ax.set_yscale("log")
    ax.set_xticks(sorted({r["mask"]["size"] for r in rows}))
    return finish(fig, ax, doc, "time against mask size", "mask size K (K x K)", "median time (ms, log scale)")


def threads(doc):
    """Lab 0: speed-up over the one-thread run and parallel efficiency against threads, one line per
    mask, with the ideal (linear speed-up, 100%) drawn to read the gap against."""
    rows = [r for r in timed(doc) if r.get("variant") == "openmp" and r.get("threads")]
    if not rows:
        return "no timed openmp row with a thread count"
    fig, (speed, eff) = plt.subplots(1, 2, figsize=(11, 4.5))
    by_mask = {}
    for r in rows:
        by_mask.setdefault(r["mask"]["spec"], []).append(r)
    counts = sorted({r["threads"] for r in rows})
    for spec, runs in by_mask.items():
        runs.sort(key=lambda r: r["threads"])
        # Speed-up over this mask's own one-thread run when there is one (Amdahl's view), else the
        # report's speed-up over its baseline (the sequential version).
        one = next((ms(r) for r in runs if r["threads"] == 1), None)
        ups = [one / ms(r) if one else r.get("speedup_vs_baseline") for r in runs]
        speed.plot([r["threads"] for r in runs], ups, marker="o", label=spec)
        eff.plot([r["threads"] for r in runs], [u / r["threads"] * 100 if u else None for u, r in zip(ups, runs)],
                 marker="o", label=spec)
    speed.plot(counts, counts, "k--", linewidth=0.8, label="ideal")
    eff.axhline(100, color="k", linestyle="--", linewidth=0.8, label="ideal")
    # Efficiency lines run along the top (100%): its legend goes low, out of their way.
    # Thread counts double (1, 2, 4 ... 128): on a linear axis the first four share one tick's
    # room, so the axes go by powers of two where the counts span more than 8x; the speed-up too,
    # where the ideal is then a straight diagonal.
    doubling = counts[-1] > 8 * counts[0]
    for ax, what, where in ((speed, "speed-up over 1 thread (x" + (", log scale)" if doubling else ")"), "upper left"),
                            (eff, "parallel efficiency (%)", "lower left")):
        label_axes(ax, "OpenMP threads" + (" (log scale)" if doubling else ""), what)
        if doubling:
            ax.set_xscale("log", base=2)
        ax.set_xticks(counts)
        ax.set_xticklabels([str(c) for c in counts])
        ax.legend(fontsize="small", loc=where)
    if doubling:
        speed.set_yscale("log", base=2)
        speed.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    eff.set_ylim(bottom=0)
    fig.suptitle(f"lab {doc['lab']}: speed-up and efficiency against threads, {machine(doc)}")
    fig.tight_layout()
    return fig


def roofline(doc):
    """Each GPU variant's point (flops per byte under its byte model, GFLOP/s) under the measured copy
    bandwidth and FP32 peak: how far each kernel is from the ceiling that binds it."""
    rows = [r for r in timed(doc) if r.get("kind") == "gpu" and r.get("gflop_per_s") and r.get("bytes_per_value")]
    if not rows:
        return "no timed GPU row has a GFLOP/s figure (a run without a GPU?)"
    fig, ax = plt.subplots(figsize=(8, 5))
    intensities = []
    for name, points in series(rows, lambda r: r["flops_per_value"] / r["bytes_per_value"]).items():
        intensities += [x for x, _ in points]
        ax.plot([x for x, _ in points], [r["gflop_per_s"] for _, r in points], marker="o", linestyle="", label=name)
    bandwidth, peak = ceilings(doc)
    if bandwidth and peak:
        # The roof: bandwidth x intensity until the ridge point, the FP32 peak after it.
        low, high = min(intensities + [peak / bandwidth]) / 2, max(intensities + [peak / bandwidth]) * 2
        xs = [low, peak / bandwidth, high]
        ax.plot(xs, [min(peak, bandwidth * x) for x in xs], "k-", linewidth=1.2,
                label=f"roof: {bandwidth:.0f} GB/s copy, {peak:.0f} GFLOP/s FP32")
    ax.set_xscale("log")
    ax.set_yscale("log")
    return finish(fig, ax, doc, "roofline", "arithmetic intensity (flop per byte, the report's byte model)", "GFLOP/s (log scale)")


# Lab 4's rows carry their shape in the variant's name alone, as labs/lab4/main.cpp names them:
# "coarse-GXxGY-bBXxBY" (GX x GY outputs per thread, BX x BY threads per block), "window-8xGY" and
# "register-4xGY" (fixed blocks, lab4.hpp); an expert tier's row adds "-expert".
LAB4_SHAPE = re.compile(r"(coarse|window|register)-(\d+)x(\d+)(?:-b(\d+)x(\d+))?(-expert)?")


def lab4_shape(row):
    """(kernel, GX, GY, BX, BY, expert) of a lab 4 row (BX, BY None but for coarse), or None."""
    m = LAB4_SHAPE.fullmatch(row.get("variant", ""))
    if not m:
        return None
    kernel, gx, gy, bx, by, expert = m.groups()
    return kernel, int(gx), int(gy), int(bx) if bx else None, int(by) if by else None, bool(expert)


def granularity_point(row):
    """(line, G) of a lab 4 row: G the side of its outputs that grows, as the handout counts it (a
    coarse G x G square or a G x 1 row on its block; the window's 8 x G and the register kernel's
    4 x G, G its rows), the line its kernel, which side grows and its block."""
    kernel, gx, gy, bx, by, expert = lab4_shape(row)
    if kernel != "coarse":
        return f"{kernel} {gx} x G rows" + (" (expert)" if expert else ""), gy
    grows, g = ("G x G", gx) if gx == gy else ("G x 1", gx) if gy == 1 else ("1 x G", gy) if gx == 1 else (f"{gx} x G", gy)
    return f"coarse {grows}, {bx}x{by} threads", g


def by_mask(doc, rows):
    """{mask spec: rows} in the report's order of masks."""
    order = {spec: i for i, spec in enumerate(doc.get("masks") or [])}
    out = {}
    for r in sorted(rows, key=lambda r: order.get(r["mask"]["spec"], len(order))):
        out.setdefault(r["mask"]["spec"], []).append(r)
    return out


def granularity(doc):
    """Lab 4: time against G, the outputs per thread a shape grows by, a panel a mask, a line a kernel,
    shape and block, the baseline (lab 3's kernel, one output per thread) and the work model's floor
    across each."""
    rows = [r for r in timed(doc) if lab4_shape(r) and (r.get("mask") or {}).get("spec")]
    if not rows:
        return "no timed coarse-GXxGY-bBXxBY, window-8xGY or register-4xGY row (a run without a GPU?)"
    masks = by_mask(doc, rows)
    columns = min(len(masks), 3)
    panel_rows = (len(masks) + columns - 1) // columns
    fig, axes = plt.subplots(panel_rows, columns, figsize=(4.6 * columns, 4.2 * panel_rows), squeeze=False)
    names = list(dict.fromkeys(granularity_point(r)[0] for r in rows))
    legend = {}  # label: a handle, once for every panel
    for ax, (spec, mask_rows) in zip(axes.flat, masks.items()):
        lines = {}
        for r in sorted(mask_rows, key=lambda r: granularity_point(r)[1]):
            name, g = granularity_point(r)
            lines.setdefault(name, []).append((g, r))
        for name, points in lines.items():
            legend[name] = ax.plot([x for x, _ in points], [ms(r) for _, r in points], marker="o", color=f"C{names.index(name) % 10}",
                                   label=name)[0]
        base = [r for r in timed(doc) if r["variant"] == doc.get("baseline") and r["mask"]["spec"] == spec]
        if base:
            name = f"{base[0]['variant']}, the baseline"
            legend[name] = ax.axhline(ms(base[0]), color="k", linestyle="--", linewidth=0.9, label=name)
        for floor in {floor_ms(doc, r) for r in mask_rows} - {None}:
            name = "floor: its bytes at the copy bandwidth or flops at the FP32 peak"
            legend[name] = ax.axhline(floor, color="grey", linestyle=":", label=name)
        log_y(ax)
        ax.set_xticks(sorted({granularity_point(r)[1] for r in mask_rows}))
        label_axes(ax, "G: outputs per thread G x G, G x 1, 8 x G or 4 x G", "median time (ms, log scale)")
        ax.set_title(spec, fontsize="medium")
    for ax in list(axes.flat)[len(masks):]:
        ax.set_visible(False)
    legend = {**{name: legend[name] for name in names if name in legend}, **legend}  # the lines in the report's order first
    fig.suptitle(f"lab {doc['lab']}: time against granularity G, {machine(doc)}")
    fig.tight_layout()
    fig.legend(legend.values(), legend.keys(), fontsize="small", loc="upper left", bbox_to_anchor=(1.0, 0.93))
    return fig


def block_shape(doc):
    """Lab 4: time against block shape for each outputs-per-thread shape timed on several blocks (the
    coarse kernel's 4 x 4), a line a shape and mask, each mask's floor dotted in its line's colour."""
    shaped = [(lab4_shape(r), r) for r in timed(doc) if lab4_shape(r) and lab4_shape(r)[0] == "coarse"]
    blocks_of = {}
    for (_, gx, gy, bx, by, _), r in shaped:
        blocks_of.setdefault((gx, gy), set()).add((bx, by))
    shaped = [(s, r) for s, r in shaped if len(blocks_of[s[1:3]]) > 1]
    if not shaped:
        return "no outputs-per-thread shape was timed on two block shapes or more (coarse-GXxGY-bBXxBY rows)"
    blocks = sorted({s[3:5] for s, _ in shaped}, key=lambda b: (b[0] * b[1], b))
    masks = list(by_mask(doc, [r for _, r in shaped]))
    outputs = sorted({s[1:3] for s, _ in shaped})
    fig, ax = plt.subplots(figsize=(8, 5))
    for n, (gx, gy) in enumerate(outputs):
        for spec in masks:
            points = sorted(((blocks.index(s[3:5]), r) for s, r in shaped if s[1:3] == (gx, gy) and r["mask"]["spec"] == spec),
                            key=lambda p: p[0])
            if not points:
                continue
            colour = f"C{masks.index(spec) % 10}"
            ax.plot([i for i, _ in points], [ms(r) for _, r in points], marker="o", color=colour, linestyle=["-", "--", "-."][n % 3],
                    label=f"coarse {gx}x{gy} outputs per thread, {spec}")
            if n == 0 and floor_ms(doc, points[0][1]):
                ax.axhline(floor_ms(doc, points[0][1]), color=colour, linestyle=":", linewidth=1, label=f"floor at {spec}")
    log_y(ax)
    ax.set_xticks(range(len(blocks)))
    ax.set_xticklabels([f"{bx}x{by}\n({bx * by})" for bx, by in blocks])
    return finish(fig, ax, doc, "time against block shape", "threads per block, BX x BY (their count)", "median time (ms, log scale)")
