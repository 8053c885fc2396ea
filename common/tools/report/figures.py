"""The figures `make report` draws from a lab's report (schema convlab.report/2). A lab names the
kinds it wants in its manifest (`plots = mask-size roofline`); each kind is one function here, so a
lab declares its plots in one line and a new lab of an existing kind writes no plotting code."""
import matplotlib

matplotlib.use("Agg")  # no display on a server or in CI; the figures only go to files
import matplotlib.pyplot as plt  # noqa: E402

# A fixed salt makes the SVG's generated ids the same from run to run, so a report diffs cleanly.
matplotlib.rcParams["svg.hashsalt"] = "convlab"


def machine(doc):
    """What ran the lab, for every title: the GPU's name, or the CPU's core count for a CPU lab."""
    device = doc.get("device") or {}
    if device.get("name"):
        return device["name"]
    cores = (doc.get("timing") or {}).get("cpu_cores")
    return f"CPU, {cores} cores" if cores else "CPU"


def timed(doc):
    """The rows that have a measured time (a check-only run or a skipped variant has none)."""
    return [r for r in doc.get("results", []) if (r.get("time") or {}).get("median_ms")]


def series(rows, key):
    """{legend label: [(x, row), ...]} sorted by x, in the order the report lists the variants. A
    variant run at several thread counts (lab 0's openmp) is one series per count."""
    counts = {}
    for r in rows:
        counts.setdefault(r["variant"], set()).add(r.get("threads"))
    out = {}
    for r in rows:
        name = r["variant"]
        if len(counts[name]) > 1:
            name += f" ({r['threads']} thread{'s' if r['threads'] != 1 else ''})"
        out.setdefault(name, []).append((key(r), r))
    return {name: sorted(points, key=lambda p: p[0]) for name, points in out.items()}


def finish(fig, ax, doc, what, xlabel, ylabel):
    """Axes titled with units, the lab and the machine in the title, and the legend outside the plot,
    where a dozen variants' names cannot cover a line."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(f"lab {doc['lab']}: {what}, {machine(doc)}")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1))
    return fig


def floors(doc, rows):
    """The least time each GPU variant's work model allows at each mask size: its bytes at the measured
    copy bandwidth or its flops at the FP32 peak, whichever takes longer. Variants of one work model
    share one curve, {(variant, ...): [(K, ms), ...]}; none without the device's ceilings."""
    device, inp = doc.get("device") or {}, doc.get("input") or {}
    bandwidth, peak = device.get("copy_bandwidth_gbs"), device.get("fp32_peak_gflops")
    values = (inp.get("width") or 0) * (inp.get("height") or 0) * (inp.get("channels") or 1)
    if not (bandwidth and peak and values):
        return {}
    curves = {}
    for name, points in series([r for r in rows if r.get("kind") == "gpu"], lambda r: r["mask"]["size"]).items():
        curve = tuple((k, 1e3 * values * max(r["bytes_per_value"] / (bandwidth * 1e9), r["flops_per_value"] / (peak * 1e9)))
                      for k, r in points if r.get("bytes_per_value") and r.get("flops_per_value"))
        if curve:
            curves.setdefault(curve, []).append(name)
    return {tuple(names): curve for curve, names in curves.items()}


def time_vs_mask(doc):
    """Median time (log) against mask size, one line per variant, over the floor of each GPU work
    model: where tiling starts to pay, where the box filter stays flat, how far each is from its floor."""
    rows = [r for r in timed(doc) if (r.get("mask") or {}).get("size")]
    if not rows:
        return None
    fig, ax = plt.subplots(figsize=(8, 5))
    for name, points in series(rows, lambda r: r["mask"]["size"]).items():
        ax.plot([x for x, _ in points], [r["time"]["median_ms"] for _, r in points], marker="o", label=name)
    for names, curve in floors(doc, rows).items():
        shown = ", ".join(names[:2]) + (", ..." if len(names) > 2 else "")
        ax.plot([k for k, _ in curve], [ms for _, ms in curve], linestyle=":", color="grey", label=f"floor of {shown}")
    ax.set_yscale("log")
    ax.set_xticks(sorted({r["mask"]["size"] for r in rows}))
    return finish(fig, ax, doc, "time against mask size", "mask size K (K x K)", "median time (ms, log scale)")


def threads(doc):
    """Lab 0: speed-up over the one-thread run and parallel efficiency against threads, one line per
    mask, with the ideal (linear speed-up, 100%) drawn to read the gap against."""
    rows = [r for r in timed(doc) if r.get("variant") == "openmp" and r.get("threads")]
    if not rows:
        return None
    fig, (speed, eff) = plt.subplots(1, 2, figsize=(11, 4.5))
    by_mask = {}
    for r in rows:
        by_mask.setdefault(r["mask"]["spec"], []).append(r)
    counts = sorted({r["threads"] for r in rows})
    for spec, runs in by_mask.items():
        runs.sort(key=lambda r: r["threads"])
        # Speed-up over this mask's own one-thread run when there is one (Amdahl's view), else the
        # report's speed-up over its baseline (the sequential version).
        one = next((r["time"]["median_ms"] for r in runs if r["threads"] == 1), None)
        ups = [one / r["time"]["median_ms"] if one else r.get("speedup_vs_baseline") for r in runs]
        speed.plot([r["threads"] for r in runs], ups, marker="o", label=spec)
        eff.plot([r["threads"] for r in runs], [u / r["threads"] * 100 if u else None for u, r in zip(ups, runs)],
                 marker="o", label=spec)
    speed.plot(counts, counts, "k--", linewidth=0.8, label="ideal")
    eff.axhline(100, color="k", linestyle="--", linewidth=0.8, label="ideal")
    # Efficiency lines run along the top (100%): its legend goes low, out of their way.
    for ax, what, where in ((speed, "speed-up over 1 thread (x)", "upper left"), (eff, "parallel efficiency (%)", "lower left")):
        ax.set_xlabel("OpenMP threads")
        ax.set_ylabel(what)
        ax.set_xticks(counts)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="small", loc=where)
    eff.set_ylim(bottom=0)
    fig.suptitle(f"lab {doc['lab']}: speed-up and efficiency against threads, {machine(doc)}")
    fig.tight_layout()
    return fig


def roofline(doc):
    """Each GPU variant's point (flops per byte under its byte model, GFLOP/s) under the measured copy
    bandwidth and FP32 peak: how far each kernel is from the ceiling that binds it."""
    rows = [r for r in timed(doc) if r.get("kind") == "gpu" and r.get("gflop_per_s") and r.get("bytes_per_value")]
    if not rows:
        return None
    fig, ax = plt.subplots(figsize=(8, 5))
    intensities = []
    for name, points in series(rows, lambda r: r["flops_per_value"] / r["bytes_per_value"]).items():
        intensities += [x for x, _ in points]
        ax.plot([x for x, _ in points], [r["gflop_per_s"] for _, r in points], marker="o", linestyle="", label=name)
    device = doc.get("device") or {}
    bandwidth, peak = device.get("copy_bandwidth_gbs"), device.get("fp32_peak_gflops")
    if bandwidth and peak:
        # The roof: bandwidth x intensity until the ridge point, the FP32 peak after it.
        low, high = min(intensities + [peak / bandwidth]) / 2, max(intensities + [peak / bandwidth]) * 2
        xs = [low, peak / bandwidth, high]
        ax.plot(xs, [min(peak, bandwidth * x) for x in xs], "k-", linewidth=1.2,
                label=f"roof: {bandwidth:.0f} GB/s copy, {peak:.0f} GFLOP/s FP32")
    ax.set_xscale("log")
    ax.set_yscale("log")
    return finish(fig, ax, doc, "roofline", "arithmetic intensity (flop per byte, the report's byte model)", "GFLOP/s (log scale)")


KINDS = {"mask-size": time_vs_mask, "threads": threads, "roofline": roofline}


def draw(doc, kinds):
    """[(kind, figure)] for the kinds a lab declares (each one of KINDS); a kind the report has
    nothing for (a check-only run, a run without a GPU) is left out rather than drawn empty."""
    drawn = [(kind, KINDS[kind](doc)) for kind in kinds]
    return [(kind, fig) for kind, fig in drawn if fig is not None]
