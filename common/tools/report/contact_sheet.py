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


def rows_of(folder, doc):
    """[(row title, [(picture title, file)])]: a row a mask size, the pictures in the report's order."""
    stems = sorted(f[:-4] for f in os.listdir(folder) if f.endswith(".png") and f != "contact-sheet.png")
    order = ["input", "reference"] + list(dict.fromkeys(slug(r["variant"]) for r in doc.get("results", [])))

    def rank(stem):
        base = MASK_SUFFIX.sub("", stem[:-5] if stem.endswith("-diff") else stem)
        head = next((i for i, name in enumerate(order) if base == name or base.startswith(name + "-")), len(order))
        return head, base, stem.endswith("-diff")

    masks = sorted({int(m.group(1)) for s in stems for m in [MASK_SUFFIX.search(s[:-5] if s.endswith("-diff") else s)] if m})
    rows = []
    for k in masks or [None]:
        def in_row(stem):
            m = MASK_SUFFIX.search(stem[:-5] if stem.endswith("-diff") else stem)
            return (m is None) if k is None else (m is None and stem == "input") or (m is not None and int(m.group(1)) == k)
        chosen = sorted((s for s in stems if in_row(s)), key=rank)
        titled = [(MASK_SUFFIX.sub("", s[:-5]) + " - reference, x32" if s.endswith("-diff") else MASK_SUFFIX.sub("", s), s + ".png")
                  for s in chosen]
        rows.append((f"{k}x{k} mask" if k else "", titled))
    return [(title, pictures) for title, pictures in rows if pictures]


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
