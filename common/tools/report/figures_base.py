"""What every kind of figure shares (figures.py names the kinds; figures_<family>.py draw them):
matplotlib set up for files, the machine in every title, the timed rows, a legend's series, the
axes titled, and the least time a row's work model allows under the measured ceilings."""
import matplotlib

matplotlib.use("Agg")  # no display on a server or in CI; the figures only go to files
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter  # noqa: E402

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


def ms(row):
    return row["time"]["median_ms"]


def own(row):
    """A row's figures of its lab's own by name (lab 8's stage, lab 9's strips): common/README.md."""
    return {f["name"]: f.get("value") for f in row.get("figures") or [] if isinstance(f, dict) and "name" in f}


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


def label_axes(ax, xlabel, ylabel):
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_axisbelow(True)  # the grid behind bars, not striped across them
    ax.grid(True, which="both", alpha=0.3)


def finish(fig, ax, doc, what, xlabel, ylabel):
    """Axes titled with units, the lab and the machine in the title, and the legend outside the plot,
    where a dozen variants' names cannot cover a line."""
    label_axes(ax, xlabel, ylabel)
    ax.set_title(f"lab {doc['lab']}: {what}, {machine(doc)}")
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1))
    return fig


def log2_axis(ax, xs):
    """A log-2 x axis with a tick at each value the rows have (strides, sizes, counts)."""
    xs = sorted(set(xs))
    ax.set_xscale("log", base=2)
    ax.set_xticks(xs)
    ax.set_xticklabels([f"{x:g}" for x in xs])
    ax.minorticks_off()


def log_y(ax):
    """A log y axis whose ticks are labelled where the data span few decades (matplotlib then labels
    one power of ten, or none): a tick at every digit within one decade, at 1, 2 and 5 within three,
    each written as the number it is."""
    ax.set_yscale("log")
    low, high = ax.get_ylim()
    if high / low < 1000:
        ax.yaxis.set_major_locator(LogLocator(subs="all" if high / low < 10 else (1, 2, 5)))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:g}"))
        ax.yaxis.set_minor_formatter(NullFormatter())


def values(doc):
    """The input's values (width x height x channels): what a row's per-value models multiply."""
    inp = doc.get("input") or {}
    return (inp.get("width") or 0) * (inp.get("height") or 0) * (inp.get("channels") or 1)


def ceilings(doc):
    """(copy bandwidth GB/s, FP32 peak GFLOP/s) measured on the report's GPU; None where not."""
    device = doc.get("device") or {}
    return device.get("copy_bandwidth_gbs"), device.get("fp32_peak_gflops")


def floor_ms(doc, row):
    """The least time a GPU row's work model allows: its bytes at the measured copy bandwidth or its
    flops at the FP32 peak, whichever takes longer (a model without flops: its bytes alone); None
    for a CPU row, or without the ceilings or the model."""
    bandwidth, peak = ceilings(doc)
    if row.get("kind") != "gpu" or not (bandwidth and values(doc) and row.get("bytes_per_value")):
        return None
    flops = row.get("flops_per_value") or 0
    if flops and not peak:
        return None
    return 1e3 * values(doc) * max(row["bytes_per_value"] / (bandwidth * 1e9), flops / (peak * 1e9) if flops else 0)
