"""make report (common/tools/report/): the folder a lab's report makes, from a run of lab 0 (which
runs whole without a GPU) and from a saved filter-lab report written here, and the one-line
refusals of bad input that leave nothing behind. Each check reads the files themselves: the PNGs
are decoded to their last byte, the SVGs parsed, the HTML searched for anything it would fetch."""
import json
import os
import re
import struct
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib

from testkit import ROOT, run

# The python3 make report runs under (the Makefile's REPORT_PYTHON: the system's, which sees Debian's matplotlib).
REPORT_PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else "python3"
SCHEMA_1_REPORT = os.path.join(ROOT, "handouts", "then-and-now-h100", "lab3-korbes-177.json")


def make_report(*assignments):
    return run(["make", "--no-print-directory", "report", *assignments], timeout=600)


def png_size(path):
    """(width, height) of a PNG, after checking every chunk's CRC and that the image data inflates to
    exactly the rows the header promises: a truncated or garbled file fails here."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path}: no PNG signature"
    pos, chunks, idat = 8, [], b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        assert zlib.crc32(kind + body) == crc, f"{path}: bad CRC in chunk {kind}"
        chunks.append(kind)
        idat += body if kind == b"IDAT" else b""
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
        pos += 12 + length
    assert chunks[0] == b"IHDR" and chunks[-1] == b"IEND", f"{path}: chunks {chunks[:3]}...{chunks[-2:]}"
    samples = {0: 1, 2: 3, 4: 2, 6: 4}[colour]
    assert depth == 8 and len(zlib.decompress(idat)) == height * (1 + width * samples), f"{path}: image data does not fill it"
    return width, height


def svg_texts(svg):
    """The texts an SVG of matplotlib's shows: it draws glyphs as paths and names each text in a comment."""
    return set(t.strip() for t in re.findall(r"<!-- (.*?) -->", svg))


def check_folder(folder, stems, variants, page_name="report"):
    """The folder holds the two pages and each plot as a valid PNG and a parsing SVG whose legend names
    every variant; the HTML page carries each SVG inline and refers to no file or address outside it."""
    expected = {f"{page_name}.html", f"{page_name}.md"} | {s + ext for s in stems for ext in (".png", ".svg")}
    assert set(os.listdir(folder)) == expected, f"{sorted(os.listdir(folder))}, expected {sorted(expected)}"
    for stem in stems:
        width, height = png_size(os.path.join(folder, stem + ".png"))
        assert 400 <= width <= 3000 and 300 <= height <= 2000, f"{stem}.png is {width}x{height}"
        with open(os.path.join(folder, stem + ".svg")) as f:
            svg = f.read()
        ET.fromstring(svg.encode())
        missing = [v for v in variants.get(stem, []) if v not in svg_texts(svg)]
        assert not missing, f"{stem}.svg's legend lacks {missing}"
    with open(os.path.join(folder, f"{page_name}.html")) as f:
        page = f.read()
    assert page.count("<svg") == len(stems), f"{page_name}.html holds {page.count('<svg')} inline SVGs, expected {len(stems)}"
    assert "<!DOCTYPE svg" not in page and "<?xml" not in page, "an SVG's prologue (and its DTD's address) is in the page"
    outside = [ref for ref in re.findall(r"""(?:src|href)\s*=\s*["']([^"']*)""", page) if not ref.startswith("#")]
    outside += re.findall(r"url\(\s*['\"]?(?!#)[^)]*\)|@import", page)
    assert not outside, f"{page_name}.html refers to {outside[:5]}"
    ET.fromstring(re.sub(r"<!DOCTYPE html>", "", page).replace("<meta charset=\"utf-8\">", "<meta charset=\"utf-8\"/>").encode())
    with open(os.path.join(folder, f"{page_name}.md")) as f:
        md = f.read()
    for stem in stems:
        assert f"]({stem}.png)" in md, f"{page_name}.md does not show {stem}.png"


def lab0_report_from_a_run():
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "lab0")
        status, o, err = make_report("LAB=0", "SOLUTION=1", f"OUT={out}", "ARGS=--size 96x64 --cpu-reps 1 --threads 1,2 --mask box:3,box:5")
        assert status == 0, f"exit {status}: {(o + err)[-2000:]}"
        check_folder(out, ["lab0-threads", "lab0-mask-size"],
                     {"lab0-threads": ["box:3", "box:5", "ideal"],
                      "lab0-mask-size": ["sequential", "openmp (1 thread)", "openmp (2 threads)", "openmp-reference"]})
        with open(os.path.join(out, "report.html")) as f:
            page = f.read()
        assert page.count("<textarea") >= 3, "the handout's questions have no room to answer"


def row(variant, size, ms, kind="gpu"):
    """A result row of schema 2 with what the plots and tables read (common/README.md)."""
    flops, value_bytes, pixels = 2 * size * size, 5.0, 640 * 480
    seconds = ms / 1000
    return {"variant": variant, "description": variant, "kind": kind, "threads": 0,
            "mask": {"spec": f"box:{size}", "size": size}, "bytes_per_value": value_bytes, "flops_per_value": flops,
            "status": "pass", "message": "PASS", "time": {"median_ms": ms, "min_ms": ms, "cv": 0.01, "samples": 5},
            "end_to_end": None, "gb_per_s": pixels * value_bytes / seconds / 1e9, "gflop_per_s": pixels * flops / seconds / 1e9,
            "pct_copy_bandwidth": None, "pct_fp32_peak": None, "speedup_vs_baseline": None, "figures": []}


def filter_report(lab=3, schema="convlab.report/2"):
    return {"schema": schema, "lab": lab, "title": "generic tiling", "preset": None, "border": "zero",
            "device": {"name": "Test GPU 9000", "arch": "sm_90", "multiprocessors": 132, "copy_bandwidth_gbs": 3000.0,
                       "fp32_peak_gflops": 60000.0, "sm_clock_mhz": 1980, "memory_clock_mhz": 2619, "driver_version": 13000,
                       "runtime_version": 13000},
            "input": {"source": "synthetic (seed 1)", "width": 640, "height": 480, "channels": 1}, "masks": ["box:3", "box:15"],
            "timing": {"warmup": 1, "reps": 5, "l2_flush": True, "cpu_cores": 2}, "notes": [],
            "results": [row("openmp-reference", 3, 4.0, "reference"), row("naive", 3, 0.05), row("tiled", 3, 0.04),
                        row("openmp-reference", 15, 40.0, "reference"), row("naive", 15, 0.6), row("tiled", 15, 0.3)]}


def saved_filter_report():
    with tempfile.TemporaryDirectory() as tmp:
        source, out = os.path.join(tmp, "lab3.json"), os.path.join(tmp, "out")
        with open(source, "w") as f:
            json.dump(filter_report(), f)
        os.makedirs(out)
        open(os.path.join(out, "from-an-earlier-report.png"), "w").close()
        status, o, err = make_report("LAB=3", f"FROM={source}", f"OUT={out}")
        assert status == 0, f"exit {status}: {(o + err)[-2000:]}"
        assert sorted(os.listdir(tmp)) == ["lab3.json", "out"], f"left beside the report: {os.listdir(tmp)}"
        # The earlier report at OUT is replaced whole: check_folder finds its file gone.
        check_folder(out, ["lab3-mask-size", "lab3-roofline"],
                     {"lab3-mask-size": ["openmp-reference", "naive", "tiled", "floor of naive, tiled"], "lab3-roofline": ["naive", "tiled"]})
        with open(os.path.join(out, "lab3-roofline.svg")) as f:
            assert "roof: 3000 GB/s copy, 60000 GFLOP/s FP32" in svg_texts(f.read()), "the roofline lacks the measured ceilings"
        with open(os.path.join(out, "report.html")) as f:
            assert "Test GPU 9000" in f.read(), "the page's header does not name the GPU"
        with open(os.path.join(out, "report.md")) as f:
            table = [line for line in f.read().split("## Results")[1].split("##")[0].splitlines() if line.startswith("| ")]
        # Headings and the separator, then one line a result row, its median time as the report has it.
        assert [line.split(" | ")[0][2:] for line in table[2:]] == [r["variant"] for r in filter_report()["results"]], table
        assert " | 0.6 | " in table[6], f"naive at K = 15 should show 0.6 ms: {table[6]}"


def refused(assignments, says, tmp, out):
    """make report with these assignments fails, its last line before make's own says `says`, and the
    folder already at OUT is left as it was, with nothing written beside it."""
    status, o, err = make_report(*assignments, f"OUT={out}")
    lines = [line for line in err.splitlines() if not line.startswith("make")]
    assert status != 0, f"{assignments}: exit 0"
    assert len(lines) == 1 and says in lines[0], f"{assignments}: expected one line saying {says!r}, got {lines}"
    assert os.listdir(out) == ["keep"], f"{assignments}: OUT now holds {os.listdir(out)}"
    assert sorted(os.listdir(tmp)) == ["lab2.json", "lab3-schema-1.json", "out"], f"left behind: {os.listdir(tmp)}"


def bad_inputs_refused():
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        os.makedirs(out)
        open(os.path.join(out, "keep"), "w").close()
        other = os.path.join(tmp, "lab2.json")
        with open(other, "w") as f:
            json.dump(filter_report(lab=2), f)
        schema_1 = os.path.join(tmp, "lab3-schema-1.json")
        with open(SCHEMA_1_REPORT) as f, open(schema_1, "w") as g:
            g.write(f.read())
        refused(["LAB=3", f"FROM={os.path.join(tmp, 'missing.json')}"], "cannot read", tmp, out)
        refused(["LAB=3", f"FROM={schema_1}"], "schema 'convlab.report/1'", tmp, out)
        refused(["LAB=3", f"FROM={other}"], "a report of lab 2, not of lab 3", tmp, out)


def missing_matplotlib_is_one_line():
    """A python3 without matplotlib (here: an import of it that fails, put first on the path) gets one
    line naming Debian's package, and no folder."""
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "matplotlib.py"), "w") as f:
            f.write("raise ImportError('matplotlib hidden by the test')\n")
        out = os.path.join(tmp, "out")
        status, o, err = run([REPORT_PYTHON, os.path.join(ROOT, "common", "tools", "report", "make_report.py"), "--lab", "3",
                              "--from", SCHEMA_1_REPORT, "--out", out], env={"PYTHONPATH": tmp})
        assert status != 0 and err.count("\n") == 1 and "python3-matplotlib" in err, f"exit {status}: {err!r}"
        assert not os.path.exists(out), "a folder was written"


def declared_plots_are_drawn():
    """Every kind of figure a manifest names is one make report draws, and each filter lab (a time per
    mask size) declares the time-vs-mask plot."""
    sys.path.insert(0, os.path.join(ROOT, "grading"))
    from convlab_grader import manifest
    status, out, err = run([REPORT_PYTHON, "-c", "import figures; print(' '.join(figures.KINDS))"],
                           cwd=os.path.join(ROOT, "common", "tools", "report"))
    assert status == 0, err
    kinds = out.split()
    for lab in manifest.labs():
        declared = manifest.load(lab)["plots"]
        unknown = [k for k in declared if k not in kinds]
        assert not unknown, f"labs/lab{lab}/manifest: plots = {unknown} are not kinds of figures.py: {kinds}"
        if lab in (1, 2, 3, 4, 6, 7):
            assert "mask-size" in declared and "roofline" in declared, f"lab {lab} declares {declared}"


def make_compare(*assignments):
    return run(["make", "--no-print-directory", "compare", *assignments], timeout=600)


def saved(tmp, name, doc):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def on_gpu(name, scale, masks=("box:3", "box:15")):
    """filter_report's run as another GPU would give it: its name, its times `scale` times as long."""
    doc = filter_report()
    doc["device"]["name"] = name
    doc["masks"] = list(masks)
    doc["results"] = [dict(r, time=dict(r["time"], median_ms=r["time"]["median_ms"] * scale)) for r in doc["results"]
                      if r["mask"]["spec"] in masks]
    return doc


def compare_side_by_side():
    """make compare: three saved runs of lab 3 (two on one GPU, named by their files, one on another)
    give one table, a column a run with its median times, and one plot whose legend names every
    variant of every run; one mask each gives grouped bars, a bar a run."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = [saved(tmp, "alice.json", on_gpu("Test GPU 9000", 1)), saved(tmp, "bob.json", on_gpu("Test GPU 9000", 2)),
                 saved(tmp, "t4.json", on_gpu("Tesla T4", 10))]
        out = os.path.join(tmp, "out")
        status, o, err = make_compare(f"REPORTS={' '.join(paths)}", f"OUT={out}")
        assert status == 0, f"exit {status}: {(o + err)[-2000:]}"
        runs = ["Test GPU 9000 (alice.json)", "Test GPU 9000 (bob.json)", "Tesla T4"]
        check_folder(out, ["lab3-compare"], {"lab3-compare": [f"{v}, {r}" for v in ("naive", "tiled") for r in runs]}, "compare")
        with open(os.path.join(out, "compare.md")) as f:
            table = [line for line in f.read().split("## Median times")[1].split("##")[0].splitlines() if line.startswith("| ")]
        assert table[0] == "| variant | mask | " + " | ".join(f"{r}: median ms" for r in runs) + " |", table[0]
        assert "| naive | box:15 | 0.6 | 1.2 | 6 |" in table, table
        single = [saved(tmp, f"one-{n}.json", on_gpu(name, scale, ("box:3",))) for n, (name, scale) in enumerate([("A100", 1), ("H100", 0.5)])]
        status, o, err = make_compare(f"REPORTS={' '.join(single)}", f"OUT={out}")
        assert status == 0, f"exit {status}: {(o + err)[-2000:]}"
        check_folder(out, ["lab3-compare"], {"lab3-compare": ["A100", "H100", "naive", "tiled"]}, "compare")


def compare_refuses_what_does_not_compare():
    """Reports of two labs, of other masks or another image size, or one report alone: one line that
    says which, and nothing written."""
    with tempfile.TemporaryDirectory() as tmp:
        base = saved(tmp, "base.json", on_gpu("Test GPU 9000", 1))
        other_lab = saved(tmp, "lab1.json", dict(filter_report(lab=1)))
        other_masks = saved(tmp, "masks.json", on_gpu("Tesla T4", 2, ("box:3",)))
        bigger = on_gpu("Tesla T4", 2)
        bigger["input"] = dict(bigger["input"], width=1280)
        bigger = saved(tmp, "bigger.json", bigger)
        out = os.path.join(tmp, "out")
        for reports, says in [([base, other_lab], "is a report of lab 1 and"), ([base, other_masks], "ran the masks box:3 and"),
                              ([base, bigger], "ran a 1280x480, 1-channel input and"), ([base], "name two reports or more"),
                              ([base, os.path.join(tmp, "missing.json")], "cannot read")]:
            status, o, err = make_compare(f"REPORTS={' '.join(reports)}", f"OUT={out}")
            said = [line for line in err.splitlines() if line.startswith("convlab compare:")]
            assert status != 0 and len(said) == 1 and says in said[0], f"exit {status}: {err}"
            assert not os.path.exists(out) and sorted(os.listdir(tmp)) == sorted(os.path.basename(p) for p in
                                                                                  [base, other_lab, other_masks, bigger]), os.listdir(tmp)


def contact_sheet_of_a_run():
    """A run's --out folder (lab 0, two masks) drawn on one PNG: the picture decodes and is a grid's
    size (two rows of six: input, reference, two results and their differences); a folder without
    the run's report.json is one line, exit 1, and nothing written."""
    sheet = os.path.join(ROOT, "common", "tools", "report", "contact_sheet.py")
    with tempfile.TemporaryDirectory() as tmp:
        status, _, err = run([os.path.join(ROOT, "build", "bin", "lab0-solution"), "--size", "64x48", "--mask", "box:3,box:5",
                              "--threads", "2", "--check-only", "--out", tmp])
        assert status == 0, err
        status, out, err = run([REPORT_PYTHON, sheet, tmp])
        assert status == 0 and "contact-sheet.png" in out, f"exit {status}: {err}"
        width, height = png_size(os.path.join(tmp, "contact-sheet.png"))
        assert width > 1.5 * height and 800 <= width <= 3000, f"contact-sheet.png is {width}x{height}"
        os.remove(os.path.join(tmp, "report.json"))
        os.remove(os.path.join(tmp, "contact-sheet.png"))
        status, out, err = run([REPORT_PYTHON, sheet, tmp])
        assert status == 1 and len(err.strip().splitlines()) == 1 and "report.json" in err, f"exit {status}: {err}"
        assert "contact-sheet.png" not in os.listdir(tmp), os.listdir(tmp)


def register(results):
    results.run("report: every plot a manifest declares is a kind make report draws", declared_plots_are_drawn)
    results.run("report: lab 0's run makes the folder (pages, PNG and SVG plots, nothing outside)", lab0_report_from_a_run)
    results.run("report: a saved filter-lab report makes time-vs-mask and roofline plots", saved_filter_report)
    results.run("report: a missing file, a schema 1 report, another lab's report: one line, nothing written", bad_inputs_refused)
    results.run("contact sheet: a run's pictures on one PNG, a row a mask; without the run's report one line", contact_sheet_of_a_run)
    results.run("compare: runs of one lab side by side, a column and a series a run (lines over masks, bars for one)", compare_side_by_side)
    results.run("compare: two labs, other masks, another size, one report: one line, nothing written", compare_refuses_what_does_not_compare)
    results.run("report: without matplotlib, one line naming python3-matplotlib", missing_matplotlib_is_one_line)
