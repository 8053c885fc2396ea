"""The strips' figure (lab 9; common/families/strips/): time, host to host, against strips.

A lab 9 row is one variant from one host memory, with its figures of its median run
(common/families/strips/strip_lab.cpp): "host_memory", "gpus", "strips" (the kernels it
launched). The report's transfer_bandwidth holds the plain copies' rates measured in the same run.
The lab's stream timelines are pictures its --out writes (timeline_*.svg, from the driver's
records, common/families/strips/timeline.cpp); the report carries none of their spans, so no figure
here draws them."""
from figures_base import finish, log2_axis, log_y, ms, own, plt, timed, values

# The strip lab's byte model (strip_lab.cpp's byte_model_rule): 1 B in, 4 B out a value.
IN_BYTES, OUT_BYTES = 1, 4
MARKERS = ["o", "s", "^", "D", "v", "P"]


def copy_floors(doc):
    """[(label, ms)]: the image's copies at a plain pinned copy's rates, one after the other and the
    longer alone (what overlap at best leaves), for one GPU; none without the rates."""
    rates = doc.get("transfer_bandwidth") or {}
    h2d, d2h = rates.get("h2d_pinned_gbs"), rates.get("d2h_pinned_gbs")
    if not (h2d and d2h and values(doc)):
        return []
    copy_in, copy_out = 1e3 * values(doc) * IN_BYTES / (h2d * 1e9), 1e3 * values(doc) * OUT_BYTES / (d2h * 1e9)
    return [(f"copies in then out at plain pinned rates ({h2d:.1f}, {d2h:.1f} GB/s), one GPU", copy_in + copy_out),
            ("the longer copy alone: the most overlap hides, one GPU", max(copy_in, copy_out))]


def strips(doc):
    """Lab 9: each variant's median time against its strips, a marker a variant, filled from pinned
    memory and hollow from pageable, under the copies' floors."""
    rows = [r for r in timed(doc) if isinstance(own(r).get("strips"), (int, float)) and own(r)["strips"] > 0]
    if not rows:
        return "no timed row has the figure 'strips' (a run without a GPU, or check-only)"
    variants = list(dict.fromkeys(r["variant"] for r in rows))
    lines = {}
    for r in rows:
        figures = own(r)
        gpus = figures.get("gpus") or 1
        name = f"{r['variant']} ({figures.get('host_memory', '?')}" + (f", {gpus:g} GPUs)" if gpus > 1 else ")")
        lines.setdefault(name, []).append(r)
    fig, ax = plt.subplots(figsize=(8, 5))
    for n, (name, line) in enumerate(lines.items()):
        line.sort(key=lambda r: own(r)["strips"])
        pinned = own(line[0]).get("host_memory") != "pageable"
        ax.plot([own(r)["strips"] for r in line], [ms(r) for r in line], marker=MARKERS[variants.index(line[0]["variant"]) % len(MARKERS)],
                markersize=8, color=f"C{n % 10}", markerfacecolor=f"C{n % 10}" if pinned else "none", label=name)
    for (label, floor), style in zip(copy_floors(doc), ["--", ":"]):
        ax.axhline(floor, color="grey", linestyle=style, label=label)
    log_y(ax)
    log2_axis(ax, [own(r)["strips"] for r in rows])
    return finish(fig, ax, doc, "time against strips", "strips: the kernels of the median run, all GPUs (log scale)",
                  "median time, host to host (ms, log scale)")
