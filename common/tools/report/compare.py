#!/usr/bin/env python3
"""make compare REPORTS="a.json b.json ..." [OUT=folder]: runs of one lab side by side (several
students, or several GPUs: a T4, an A100 and an H100) in one folder: compare.html (self-contained),
compare.md, and the plot as PNG and SVG. One table, a row for each variant, mask and thread count
and a column for each run (its median time); one plot, time against mask size with a colour a
variant and a line style a run, or, where the runs sweep no mask, each variant's time as a group of
bars, a bar a run. Each run is named by its GPU (the CPU's cores for a CPU lab), with its file's
name where two runs share a machine. Reports of different labs, or of one lab run on different
masks, image sizes or channels, are refused in one line that says which: their times do not
compare. Like make report, the folder is written whole or not at all."""
import argparse
import html
import os
import sys

import make_report  # noqa: F401  (first: says in one line when matplotlib is missing)
from make_report import save_figure, shown_path, write_folder
from convlab_grader import reports

import figures
import pages
import tables

LINE_STYLES = ["-", "--", ":", "-."]
MARKERS = ["o", "s", "^", "D", "v", "P"]


def fail(line):
    sys.exit(f"convlab compare: {line}")


def load(path):
    try:
        with open(path) as f:
            text = f.read()
    except OSError as why:
        fail(f"cannot read {path}: {why.strerror}")
    try:
        return reports.load(text, path)
    except reports.ReportError as why:
        fail(str(why))


def problem_shape(doc):
    """What must be the same for two runs' times to compare: the masks, and the image's size and channels."""
    inp = doc.get("input") or {}
    return doc.get("masks"), (inp.get("width"), inp.get("height"), inp.get("channels"), inp.get("elements"))


def refuse_mixed(paths, docs):
    first, first_doc = paths[0], docs[0]
    for path, doc in zip(paths[1:], docs[1:]):
        if doc.get("lab") != first_doc.get("lab"):
            fail(f"{path} is a report of lab {doc.get('lab')} and {first} of lab {first_doc.get('lab')}: compare runs of one lab")
        (masks, size), (first_masks, first_size) = problem_shape(doc), problem_shape(first_doc)
        if masks != first_masks:
            fail(f"{path} ran the masks {','.join(masks or [])} and {first} {','.join(first_masks or [])}: "
                 "compare runs of the same masks")
        if size != first_size:
            fail(f"{path} ran a {describe(size)} input and {first} a {describe(first_size)} one: compare runs of the same input size")


def describe(size):
    width, height, channels, elements = size
    return f"{elements}-element" if elements else f"{width}x{height}, {channels}-channel"


def run_names(paths, docs):
    """Each run's name: its machine, with its file's name where another run has the same machine."""
    machines = [figures.machine(doc) for doc in docs]
    return [f"{m} ({os.path.basename(p)})" if machines.count(m) > 1 else m for m, p in zip(machines, paths)]


def row_key(r):
    return r["variant"], (r.get("mask") or {}).get("spec") or "", r.get("threads")


def table(docs, names):
    """One row a variant, mask and thread count (in the first report's order, then any the others
    add), a column a run: its median time, or "-" where that run has no time for it."""
    keys, times = [], []
    for doc in docs:
        mine = {}
        for r in figures.timed(doc):
            key = row_key(r)
            mine[key] = r["time"]["median_ms"]
            if key not in keys:
                keys.append(key)
        times.append(mine)
    threads = any(k[2] not in (None, 0) for k in keys)
    headings = ["variant", "mask"] + (["threads"] if threads else []) + [f"{n}: median ms" for n in names]
    rows = [[variant, mask] + ([str(t or "")] if threads else []) + [tables.number(t_of[(variant, mask, t)]) if (variant, mask, t) in t_of else "-" for t_of in times]
            for variant, mask, t in keys]
    return headings, rows


def plot(docs, names):
    """Time against mask size where the runs sweep masks, else grouped bars; None when no run has a time."""
    lab = docs[0]["lab"]
    runs = [(name, figures.series(figures.timed(doc), lambda r: (r.get("mask") or {}).get("size") or 0)) for doc, name in zip(docs, names)]
    if not any(series for _, series in runs):
        return None
    sizes = {x for _, series in runs for points in series.values() for x, _ in points}
    fig, ax = figures.plt.subplots(figsize=(9, 5.5))
    variants = list(dict.fromkeys(v for _, series in runs for v in series))
    colours = {v: f"C{i % 10}" for i, v in enumerate(variants)}
    if len(sizes) > 1:
        for n, (name, series) in enumerate(runs):
            for variant, points in series.items():
                ax.plot([x for x, _ in points], [r["time"]["median_ms"] for _, r in points], color=colours[variant],
                        linestyle=LINE_STYLES[n % len(LINE_STYLES)], marker=MARKERS[n % len(MARKERS)], label=f"{variant}, {name}")
        ax.set_xticks(sorted(sizes))
        xlabel = "mask size K (K x K)"
    else:
        width = 0.8 / len(runs)
        for n, (name, series) in enumerate(runs):
            xs = [i + (n - (len(runs) - 1) / 2) * width for i, v in enumerate(variants) if v in series]
            ys = [series[v][0][1]["time"]["median_ms"] for v in variants if v in series]
            ax.bar(xs, ys, width=width, label=name, hatch=["", "//", "..", "xx"][n % 4], edgecolor="black")
        ax.set_xticks(range(len(variants)))
        ax.set_xticklabels(variants, rotation=30, ha="right")
        xlabel = "variant"
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("median time (ms, log scale)")
    masks = docs[0].get("masks") or []
    ax.set_title(f"lab {lab}: {len(runs)} runs side by side" + (f", mask {masks[0]}" if len(sizes) <= 1 and len(masks) == 1 else ""))
    ax.set_axisbelow(True)  # the grid behind bars, not striped across them
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1))
    return fig


def write_pages(folder, docs, names, paths, stem, svg):
    lab = docs[0]["lab"]
    title = f"convlab lab {lab}: {len(docs)} runs compared"
    headings, rows = table(docs, names)
    runs = [(name, path, (doc.get("device") or {}).get("name") or figures.machine(doc)) for name, path, doc in zip(names, paths, docs)]
    parts = [f"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{html.escape(title)}</title>\n"
             f"<style>\n{pages.STYLE}\n</style>\n</head>\n<body>\n<h1>{html.escape(title)}</h1>",
             pages.html_table(["run", "report", "machine"], runs),
             "<h2>Median times</h2>", pages.html_table(headings, rows)]
    if svg:
        parts += ["<h2>Plot</h2>", f"<figure id=\"{stem}\">\n{pages.inline_svg(svg)}\n</figure>"]
    parts.append("</body>\n</html>\n")
    with open(os.path.join(folder, "compare.html"), "w") as f:
        f.write("\n".join(parts))
    md = [f"# {title}", "", pages.md_table(["run", "report", "machine"], runs), "", "## Median times", "", pages.md_table(headings, rows), ""]
    if svg:
        md += ["## Plot", "", f"![{stem}]({stem}.png)", ""]
    with open(os.path.join(folder, "compare.md"), "w") as f:
        f.write("\n".join(md))


def build(folder, docs, names, paths):
    stem = f"lab{docs[0]['lab']}-compare"
    fig = plot(docs, names)
    svg = save_figure(folder, stem, fig) if fig is not None else None
    write_pages(folder, docs, names, paths, stem, svg)
    return stem if svg else None


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", help="the folder to write (default compare-labN); replaced when it exists")
    parser.add_argument("reports", nargs="+", help="saved --format json reports of one lab")
    args = parser.parse_args()
    if len(args.reports) < 2:
        fail("name two reports or more to compare (make compare REPORTS=\"a.json b.json\")")
    docs = [load(p) for p in args.reports]
    refuse_mixed(args.reports, docs)
    names = run_names(args.reports, docs)
    out = os.path.abspath(args.out or f"compare-lab{docs[0]['lab']}")
    stem = write_folder(out, lambda work: build(work, docs, names, args.reports))
    print(f"convlab compare: wrote {shown_path(out)}/: compare.html, compare.md" + (f", {stem}.png/.svg" if stem else ""), file=sys.stdout)


if __name__ == "__main__":
    main()
