#!/usr/bin/env python3
"""contact_sheet.py FOLDER: the pictures a run saved with --out (or --demo) on one PNG a lecturer
opens with one click, FOLDER/contact-sheet.png: a row a mask, and in each row the input, the
reference, then every variant's result and its difference from the reference (x 32; white where
nothing was written), each titled, in the order of the run's report (FOLDER/report.json, which the
run writes beside its pictures). Large pictures are shown shrunk: a sheet is for seeing, the PNGs
beside it for looking closely. Bad input is one line on stderr and exit 1."""
import os
import re
import sys

import make_report  # noqa: F401  (first: says in one line when matplotlib is missing)
from convlab_grader import reports

import figures

SIDE = 480  # the most pixels a picture keeps across or down on the sheet
MASK_SUFFIX = re.compile(r"-k(\d+)$")


def fail(line):
    sys.exit(f"convlab contact sheet: {line}")


def slug(name):
    """A name as the run's pictures spell it (common/report/output_folder.hpp, shell_safe_file_name)."""
    return re.sub(r"-+", "-", re.sub(r"[^A-Za-z0-9._]", "-", name)).strip("-") or "picture"


def parse(stem):
    """A picture's file stem as the run names it: (base name, mask size or None, a difference?).
    "tiled-k15-diff" -> ("tiled", 15, True); "input" -> ("input", None, False)."""
    difference = stem.endswith("-diff")
    name = stem[:-len("-diff")] if difference else stem
    found = MASK_SUFFIX.search(name)
    return MASK_SUFFIX.sub("", name), int(found.group(1)) if found else None, difference


def rows_of(folder, doc):
    """[(row title, [(picture title, file)])]: a row a mask size (the input in each), the pictures in
    the report's order: input, reference, then each variant's result and its difference."""
    pictures = [(parse(f[:-4]), f) for f in sorted(os.listdir(folder)) if f.endswith(".png") and f != "contact-sheet.png"]
    order = ["input", "reference"] + list(dict.fromkeys(slug(r["variant"]) for r in doc.get("results", [])))

    def rank(entry):
        (base, _, difference), _ = entry
        first = next((i for i, name in enumerate(order) if base == name or base.startswith(name + "-")), len(order))
        return first, base, difference

    sizes = sorted({k for (_, k, _), _ in pictures if k is not None}) or [None]
    rows = []
    for size in sizes:
        chosen = sorted((p for p in pictures if p[0][1] == size or p[0][0] == "input"), key=rank)
        titled = [(f"{base} - reference, x32" if difference else base, file) for (base, _, difference), file in chosen]
        rows.append((f"{size}x{size} mask" if size else "", titled))
    return [(title, titled) for title, titled in rows if titled]


def shrunk(path):
    image = figures.plt.imread(path)
    step = max(1, -(-max(image.shape[0], image.shape[1]) // SIDE))
    return image[::step, ::step]


def draw(folder, doc):
    rows = rows_of(folder, doc)
    if not rows:
        fail(f"{folder} holds no pictures (run the lab with --out {folder} or --demo)")
    columns = max(len(pictures) for _, pictures in rows)
    first = figures.plt.imread(os.path.join(folder, rows[0][1][0][1]))
    aspect = first.shape[0] / first.shape[1]  # each cell the pictures' shape, and room for its title
    fig, axes = figures.plt.subplots(len(rows), columns, figsize=(2.6 * columns, (2.6 * aspect + 0.5) * len(rows) + 0.5), squeeze=False)
    for r, (row_title, pictures) in enumerate(rows):
        for c in range(columns):
            ax = axes[r][c]
            ax.axis("off")
            if c < len(pictures):
                title, name = pictures[c]
                image = shrunk(os.path.join(folder, name))
                ax.imshow(image, cmap="gray" if image.ndim == 2 else None, vmin=0, vmax=1, interpolation="nearest")
                ax.set_title(title, fontsize="small")
        axes[r][0].text(-0.08, 0.5, row_title, transform=axes[r][0].transAxes, rotation=90, ha="right", va="center")
    fig.suptitle(f"lab {doc['lab']}: {doc.get('title', '')}, {figures.machine(doc)}")
    fig.tight_layout(h_pad=2.0)
    return fig


def main():
    if len(sys.argv) != 2:
        fail("usage: contact_sheet.py FOLDER (a run's --out folder)")
    folder = sys.argv[1]
    try:
        with open(os.path.join(folder, "report.json")) as f:
            doc = reports.load(f.read(), os.path.join(folder, "report.json"))
    except OSError as why:
        fail(f"cannot read {folder}/report.json: {why.strerror} (the run writes it beside its pictures)")
    except reports.ReportError as why:
        fail(str(why))
    fig = draw(folder, doc)
    path = os.path.join(folder, "contact-sheet.png")
    partial = path + ".partial"
    fig.savefig(partial, format="png", dpi=100)
    figures.plt.close(fig)
    os.replace(partial, path)
    print(f"convlab contact sheet: wrote {path}")


if __name__ == "__main__":
    main()
