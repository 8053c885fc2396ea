#!/usr/bin/env python3
"""make report LAB=n [FROM=report.json] [OUT=folder]: one folder with report.html (self-contained),
report.md, and each plot the lab declares (its manifest's `plots`) as PNG and SVG. The report is
read from FROM, or from a run of the lab's program with --format json. Bad input is one line on
stderr and exit 1, and nothing is left half-written: the folder is built beside its final place
and renamed into it only when complete."""
import argparse
import io
import os
import shutil
import subprocess
import sys
import tempfile

KIT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(KIT, "grading"))


def fail(line):
    sys.exit(f"convlab report: {line}")


try:
    import matplotlib  # noqa: F401  (checked before anything else, so its absence is the one line said)
except ImportError:
    fail(f"matplotlib is missing for {sys.executable}: install Debian's package python3-matplotlib "
         "(apt-get install python3-matplotlib, or make deps)")

# The one reader of a report (schema check included) and of a manifest are the grader's.
from convlab_grader import manifest, reports  # noqa: E402

import figures  # noqa: E402
import pages  # noqa: E402
import questions  # noqa: E402


def report_text(args):
    """The report's JSON text, from --from or from running the program."""
    if args.source:
        try:
            with open(args.source) as f:
                return f.read(), args.source
        except OSError as why:
            fail(f"cannot read {args.source}: {why.strerror}")
    # A lab without a GPU here exits 3 and still reports its CPU part: that report is drawn.
    proc = subprocess.run([args.program, *args.args, "--format", "json"], capture_output=True, text=True)
    if proc.returncode not in (0, 3) and not proc.stdout.strip():
        last = (proc.stderr.strip().splitlines() or [f"exit {proc.returncode}"])[-1]
        fail(f"{args.program} wrote no report: {last}")
    return proc.stdout, args.program


def load(args):
    text, source = report_text(args)
    try:
        doc = reports.load(text, source)
    except reports.ReportError as why:
        fail(str(why))
    if doc.get("lab") != args.lab:
        fail(f"{source} is a report of lab {doc.get('lab')}, not of lab {args.lab}")
    return doc


def svg_and_png(fig):
    svg = io.StringIO()
    fig.savefig(svg, format="svg", bbox_inches="tight")
    png = io.BytesIO()
    fig.savefig(png, format="png", dpi=120, bbox_inches="tight")
    return svg.getvalue(), png.getvalue()


def save_figure(folder, stem, fig):
    """The figure as stem.svg and stem.png in folder, then closed; returns the SVG's text."""
    svg, png = svg_and_png(fig)
    figures.plt.close(fig)
    with open(os.path.join(folder, stem + ".svg"), "w") as f:
        f.write(svg)
    with open(os.path.join(folder, stem + ".png"), "wb") as f:
        f.write(png)
    return svg


def build(folder, doc, kinds):
    drawn = []
    made, missing = figures.draw(doc, kinds)
    for kind, fig in made:
        stem = f"lab{doc['lab']}-{kind}"
        drawn.append((stem, save_figure(folder, stem, fig)))
    for kind, why in missing:  # the report and the other plots are still written
        print(f"convlab report: no lab{doc['lab']}-{kind} plot: {why}", file=sys.stderr)
    asked = questions.from_handout(KIT, doc["lab"])
    pages.write_html(os.path.join(folder, "report.html"), doc, drawn, asked)
    pages.write_markdown(os.path.join(folder, "report.md"), doc, [stem + ".png" for stem, _ in drawn], asked)
    return [stem for stem, _ in drawn]


def write_folder(out, fill):
    """Makes the folder `out` whole or not at all: fill(work) writes it beside its place (same file
    system, so the rename is atomic), and an earlier folder at `out` is moved aside first, so `out`
    holds one whole folder at every moment. Returns what fill returned."""
    parent = os.path.dirname(out)
    os.makedirs(parent, exist_ok=True)
    work = tempfile.mkdtemp(prefix=".report-", dir=parent)
    try:
        made = fill(work)
        os.chmod(work, 0o755)  # mkdtemp makes it private; the folder is for sharing
        old = work + ".old"
        if os.path.isdir(out):
            os.rename(out, old)
        os.rename(work, out)
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return made


def shown_path(out):
    """The folder as the closing line names it: relative where it lies under this folder."""
    return os.path.relpath(out) if not os.path.relpath(out).startswith("..") else out


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lab", type=int, required=True)
    parser.add_argument("--from", dest="source", help="a saved --format json report")
    parser.add_argument("--program", help="the lab's program to run when there is no --from")
    parser.add_argument("--out", help="the folder to write (default report-labN); replaced when it exists")
    parser.add_argument("args", nargs="*", help="options for the program (after --)")
    args = parser.parse_args()
    if not args.source and not args.program:
        parser.error("name a report (--from) or the program to run (--program)")
    try:
        kinds = manifest.load(args.lab)["plots"]
    except manifest.ManifestError as why:
        fail(str(why))
    unknown = [k for k in kinds if k not in figures.KINDS]
    if unknown:
        fail(f"labs/lab{args.lab}/manifest: plots = {' '.join(unknown)} is no kind of figure; known: {', '.join(figures.KINDS)}")
    doc = load(args)
    out = os.path.abspath(args.out or f"report-lab{args.lab}")
    drawn = write_folder(out, lambda work: build(work, doc, kinds))
    print(f"convlab report: wrote {shown_path(out)}/: report.html, report.md"
          + "".join(f", {stem}.png/.svg" for stem in drawn))


if __name__ == "__main__":
    main()
