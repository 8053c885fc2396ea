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

# The python3 make report runs under (the Makefile's REPORT_PYTHON, as common/tools/report-python.sh picks it).
REPORT_PYTHON = run([os.path.join(ROOT, "common", "tools", "report-python.sh")])[1].strip()
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


def row(variant, size, ms, kind="gpu", spec=None):
    """A result row of schema 2 with what the plots and tables read (common/README.md)."""
    flops, value_bytes, pixels = 2 * size * size, 5.0, 640 * 480
    seconds = ms / 1000
    return {"variant": variant, "description": variant, "kind": kind, "threads": 0,
            "mask": {"spec": spec or f"box:{size}", "size": size}, "bytes_per_value": value_bytes, "flops_per_value": flops,
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


# Reports of labs 4, 5, 8 and 9 as their programs write them (field names as in the C++ that writes
# them: labs/lab4/main.cpp's variant names, lab 5's "experiment/variant" rows, lab 8's and lab 9's
# figures), on the made-up "Test GPU 9000": the times are invented for the test, no measurement.
def lab_report(lab, title, results, masks=(), **fields):
    doc = dict(filter_report(lab), title=title, masks=list(masks), results=results)
    doc.update(fields)
    return doc


def lab4_report():
    results = []
    for k, scale in ((7, 1.0), (15, 3.0)):
        spec = f"gauss:{k}:2"
        results += [row("openmp-reference", k, 40 * scale, "reference", spec), row("lab3-tiled", k, 0.5 * scale, spec=spec)]
        results += [row(f"coarse-{g}x{g}-b16x8", k, t * scale, spec=spec) for g, t in ((1, 0.45), (2, 0.3), (4, 0.32))]
        results += [row(f"coarse-{g}x1-b32x8", k, t * scale, spec=spec) for g, t in ((2, 0.25), (4, 0.2))]
        results += [row(f"coarse-4x4-b{b}", k, t * scale, spec=spec) for b, t in (("8x8", 0.4), ("32x8", 0.3))]
        results += [row(f"window-8x{g}", k, t * scale, spec=spec) for g, t in ((1, 0.12), (2, 0.1))]
    results += [row("register-4x1", 7, 0.08, spec="gauss:7:2"),
                dict(row("register-4x1", 15, 1, spec="gauss:15:2"), status="skipped", time=None)]  # K > 9: the register kernel refuses
    return lab_report(4, "granularity", results, ["gauss:7:2", "gauss:15:2"], baseline="lab3-tiled")


LAB5_ELEMENTS = 1 << 20


def array_row(name, ms):
    """A lab 5 row (array_row, common/families/arrays/array_checks.cpp): a name and a time, no mask, no rates."""
    return dict(row(name, 0, ms), mask={"spec": "", "size": 0}, flops_per_value=0, gb_per_s=None, gflop_per_s=None)


def lab5_report(sweeps=True):
    names = ["memory/A write-swapped", "blocks/B yours"]
    if sweeps:
        names += [f"stride/stride {s}" for s in (1, 2, 4, 8, 16, 32)] + [f"offset/offset {o}" for o in (0, 1, 2, 4, 8, 16, 32)]
        names += ["paths/1 path"] + [f"paths/{p} paths{how}" for p in (2, 4, 8, 16, 32) for how in (" in a warp", ", by warp")]
        names += [f"blocksize/{b} threads/block" for b in (32, 64, 128, 256, 512, 1024)]
        names += [f"banks/{ab}stride {s}" for s in (1, 2, 4, 8, 16, 32) for ab in ("A ", "B padded ")]
    doc = lab_report(5, "microbenchmarks", [array_row(name, 0.01 * (1 + i)) for i, name in enumerate(names)])
    doc["input"] = {"source": "arrays (seed 5)", "width": 0, "height": 0, "channels": 0, "elements": LAB5_ELEMENTS, "seed": 5}
    return doc


def figured(r, **own):
    """r with its lab's own figures (report.cpp's figures_json): a string a label, a number a figure."""
    return dict(r, flops_per_value=0, gflop_per_s=None, figures=[{"name": k, "unit": "", "value": v} for k, v in own.items()])


LAB8_STAGES = {"smoothing": 5, "gradients": 9, "suppression": 9, "gradients+suppression": 8, "thresholds": 5, "hysteresis": 2}


def lab8_report():
    """Lab 8's rows as canny_lab.cpp writes them: a row a pipeline's stage (figure "stage") and one for the whole."""
    results, five = [], ["smoothing", "gradients", "suppression", "thresholds", "hysteresis"]
    for name, kind, stages, scale in (("openmp-reference", "reference", five, 20), ("sequential", "cpu", [], 60), ("staged", "gpu", five, 0.1),
                                      ("fused", "gpu", ["smoothing", "gradients+suppression", "thresholds", "hysteresis"], 0.08)):
        results += [dict(figured(row(name, 5, scale * (i + 1), kind, "gauss:5:1.4"), stage=stage), bytes_per_value=LAB8_STAGES[stage])
                    for i, stage in enumerate(stages)]
        whole = figured(row(name, 5, scale * 10, kind, "gauss:5:1.4"), rounds=3)
        results.append(dict(whole, bytes_per_value=sum(LAB8_STAGES[s] for s in stages)))
    return lab_report(8, "Canny", results, ["gauss:5:1.4"])


def lab9_report(figures=True):
    """Lab 9's rows as strip_lab.cpp writes them: a variant from a host memory, its median run's figures."""
    results = []
    for name, memory, gpus, strips, ms in (("whole", "pinned", 1, 1, 30.0), ("serial", "pageable", 1, 3, 90.0),
                                           ("serial", "pinned", 1, 3, 30.0), ("overlapped", "pageable", 1, 8, 120.0),
                                           ("overlapped", "pinned", 1, 8, 20.0), ("multi-gpu", "pinned", 2, 16, 11.0)):
        r = row(name, 7, ms, spec="gauss:7:2")
        own = {"host_memory": memory, "gpus": gpus}
        if figures:
            own.update(strips=strips, peak_device_mib=256, h2d_gbs=50.0, d2h_gbs=50.0, kernel_ms=5.0, overlap_efficiency=0.9)
        results.append(figured(r, **own))
    results.append(figured(dict(row("overlapped", 7, 1, spec="gauss:7:2"), status="not-implemented", time=None), host_memory="pinned", gpus=1))
    doc = lab_report(9, "strips", results, ["gauss:7:2"], baseline="serial")
    doc["input"] = dict(doc["input"], width=4096, height=4096)
    doc["transfer_bandwidth"] = {"h2d_pageable_gbs": 9.0, "d2h_pageable_gbs": 17.0, "h2d_pinned_gbs": 50.0, "d2h_pinned_gbs": 40.0}
    return doc


def draw_report(lab, doc, tmp):
    """make report LAB=lab from doc saved in tmp: (the folder, the lines its stderr says of plots left out)."""
    source, out = saved(tmp, f"lab{lab}.json", doc), os.path.join(tmp, f"out{lab}")
    status, o, err = make_report(f"LAB={lab}", f"FROM={source}", f"OUT={out}")
    assert status == 0, f"lab {lab}: exit {status}: {(o + err)[-2000:]}"
    return out, [line for line in err.splitlines() if line.startswith("convlab report: no ")]


IN_A_WARP, BY_WARP = "P paths in a warp (lane % P)", "P paths across warps (warp % P)"


def more_labs_plots_from_saved_reports():
    """Labs 4, 5, 8 and 9: each plot their manifests declare, from a saved report, in the folder
    (PNG, SVG, pages), every line, bar or sweep of the rows named in its legend and none left out."""
    granularity = ["coarse G x G, 16x8 threads", "coarse G x 1, 32x8 threads", "coarse G x G, 8x8 threads", "coarse G x G, 32x8 threads",
                   "window 8 x G rows", "register 4 x G rows", "lab3-tiled, the baseline",
                   "floor: its bytes at the copy bandwidth or flops at the FP32 peak"]
    block_shape = [f"coarse 4x4 outputs per thread, {m}" for m in ("gauss:7:2", "gauss:15:2")] + ["floor at gauss:7:2"]
    sweeps = {"lab5-stride-sweep": ["strided copy", "floor: 8 B per element copied at 3000 GB/s copy"],
              "lab5-offset-sweep": ["misaligned copy"],
              "lab5-paths-sweep": [IN_A_WARP, BY_WARP, "floor: 2 x 64 flops per element at 60000 GFLOP/s FP32"],
              "lab5-block-size-sweep": ["out[i] = in[i] + 1"], "lab5-bank-stride-sweep": ["A: rows of 32 words", "B: rows padded to 33 words"]}
    strips = ["whole (pinned)", "serial (pageable)", "serial (pinned)", "overlapped (pageable)", "overlapped (pinned)",
              "multi-gpu (pinned, 2 GPUs)", "the longer copy alone: the most overlap hides, one GPU"]
    cases = [(4, lab4_report(), {"lab4-granularity": granularity, "lab4-block-shape": block_shape,
                                 "lab4-mask-size": ["lab3-tiled", "coarse-1x1-b16x8", "window-8x2", "register-4x1"], "lab4-roofline": ["window-8x1"]}),
             (5, lab5_report(), sweeps),
             (8, lab8_report(), {"lab8-stages": ["openmp-reference", "sequential", "staged", "fused", "floor: the stage's bytes at 3000 GB/s copy"]}),
             (9, lab9_report(), {"lab9-strips": strips})]
    sys.path.insert(0, os.path.join(ROOT, "grading"))
    from convlab_grader import manifest
    with tempfile.TemporaryDirectory() as tmp:
        for lab, doc, legends in cases:
            stems = [f"lab{lab}-{kind}" for kind in manifest.load(lab)["plots"]]
            assert sorted(stems) == sorted(legends), f"lab {lab} declares {stems}, the test checks {sorted(legends)}"
            out, left_out = draw_report(lab, doc, tmp)
            assert not left_out, f"lab {lab}: {left_out}"
            check_folder(out, stems, legends)


# Draws one kind from a saved report and prints what its axes hold: each line's label and points, each bar.
INSPECT = r"""
import json, sys
import figures
fig = figures.KINDS[sys.argv[2]](json.load(open(sys.argv[1])))
if isinstance(fig, str):
    sys.exit(print(json.dumps({"why": fig})))
axes = [{"title": ax.get_title(), "xlabel": ax.get_xlabel(), "ylabel": ax.get_ylabel(), "xticks": [t.get_text() for t in ax.get_xticklabels()],
         "lines": {l.get_label(): [list(map(float, l.get_xdata())), list(map(float, l.get_ydata()))] for l in ax.get_lines()},
         "bars": {c.get_label(): [[float(p.get_x() + p.get_width() / 2), float(p.get_height())] for p in c] for c in ax.containers},
         "floors": [[float(y) for (_, y), _ in c.get_segments()] for c in ax.collections]} for ax in fig.axes if ax.get_visible()]
print(json.dumps({"title": fig._suptitle.get_text() if fig._suptitle else axes[0]["title"], "axes": axes}))
"""


def inspect(doc, kind, tmp):
    source = saved(tmp, f"{kind}.json", doc)
    status, out, err = run([REPORT_PYTHON, "-c", INSPECT, source, kind], cwd=os.path.join(ROOT, "common", "tools", "report"))
    assert status == 0, f"{kind}: exit {status}: {err[-2000:]}"
    return json.loads(out)


def times(doc, names):
    by_name = {(r["variant"], r["mask"]["spec"]): r["time"]["median_ms"] for r in doc["results"] if r.get("time")}
    return [by_name[n] for n in names]


def more_labs_plots_hold_the_rows():
    """What each new kind draws is the report's rows: lab 4's lines at G (the side of the outputs per
    thread that grows), a panel a mask, and its block shapes in order of threads; lab 5's sweeps at
    the values in the variants' names, "1 path" on both paths lines, with the model's floor; lab 8's
    bars a pipeline, a bar a stage it has (the fused stage between suppression and thresholds), a
    floor a GPU bar; lab 9's points at their strips, under the copies' floors."""
    with tempfile.TemporaryDirectory() as tmp:
        doc = lab4_report()
        got = inspect(doc, "granularity", tmp)
        assert "Test GPU 9000" in got["title"] and [a["title"] for a in got["axes"]] == ["gauss:7:2", "gauss:15:2"], got["title"]
        k7, k15 = got["axes"][0]["lines"], got["axes"][1]["lines"]
        assert k7["coarse G x G, 16x8 threads"] == [[1, 2, 4], times(doc, [(f"coarse-{g}x{g}-b16x8", "gauss:7:2") for g in (1, 2, 4)])], k7
        assert k15["coarse G x 1, 32x8 threads"][0] == [2, 4] and k15["window 8 x G rows"][0] == [1, 2], k15
        assert k7["coarse G x G, 8x8 threads"][0] == [4] and k7["register 4 x G rows"][0] == [1], k7
        assert "register 4 x G rows" in k7 and "register 4 x G rows" not in k15, "the register row skipped at K = 15 is drawn"
        assert all(a["xlabel"] and "ms" in a["ylabel"] for a in got["axes"]), got["axes"]
        got = inspect(doc, "block-shape", tmp)["axes"][0]
        assert got["xticks"] == ["8x8\n(64)", "16x8\n(128)", "32x8\n(256)"], got["xticks"]
        blocks = [(f"coarse-4x4-b{b}", "gauss:15:2") for b in ("8x8", "16x8", "32x8")]
        assert got["lines"]["coarse 4x4 outputs per thread, gauss:15:2"] == [[0, 1, 2], times(doc, blocks)], got["lines"]

        doc = lab5_report()
        got = inspect(doc, "paths-sweep", tmp)["axes"][0]["lines"]
        assert got[IN_A_WARP][0] == got[BY_WARP][0] == [1, 2, 4, 8, 16, 32], got
        assert got[IN_A_WARP][1][0] == got[BY_WARP][1][0] == times(doc, [("paths/1 path", "")])[0], got
        floor = got["floor: 2 x 64 flops per element at 60000 GFLOP/s FP32"][1]
        assert all(abs(y - 1e3 * 2 * 64 * LAB5_ELEMENTS / 60000e9) < 1e-12 for y in floor), floor
        got = inspect(doc, "stride-sweep", tmp)["axes"][0]["lines"]
        assert got["floor: 8 B per element copied at 3000 GB/s copy"][1][-1] == 1e3 * 8 * (LAB5_ELEMENTS // 32) / 3000e9, got
        got = inspect(doc, "offset-sweep", tmp)["axes"][0]["lines"]["misaligned copy"]
        assert got == [[0, 1, 2, 4, 8, 16, 32], times(doc, [(f"offset/offset {o}", "") for o in (0, 1, 2, 4, 8, 16, 32)])], got

        doc = lab8_report()
        got = inspect(doc, "stages", tmp)["axes"][0]
        assert got["xticks"] == ["smoothing", "gradients", "suppression", "gradients+suppression", "thresholds", "hysteresis",
                                 "whole pipeline"], got["xticks"]
        bars = {name: len(bars) for name, bars in got["bars"].items()}
        assert bars == {"openmp-reference": 6, "sequential": 1, "staged": 6, "fused": 5}, got["bars"]
        assert sorted(round(x) for x, _ in got["bars"]["fused"]) == [0, 3, 4, 5, 6], got["bars"]["fused"]
        floors = sorted(y for c in got["floors"] for y in c)
        pixels = 640 * 480
        expected = sorted(1e3 * pixels * r["bytes_per_value"] / 3000e9 for r in doc["results"] if r["kind"] == "gpu")
        assert len(floors) == 11 and all(abs(a - b) < 1e-12 for a, b in zip(floors, expected)), floors

        got = inspect(lab9_report(), "strips", tmp)["axes"][0]["lines"]
        assert got["overlapped (pinned)"] == [[8], [20.0]] and got["multi-gpu (pinned, 2 GPUs)"] == [[16], [11.0]], got
        copies = [v[1][0] for k, v in got.items() if k.startswith("copies in then out")]
        assert copies and abs(copies[0] - 1e3 * 4096 * 4096 * (1 / 50e9 + 4 / 40e9)) < 1e-9, got


def lab4_names_are_shapes():
    """The granularity and block-shape plots read a lab 4 row's shape from its variant's name: every
    name lab 4's program writes (its rows, skipped or not) is lab3-tiled, the reference, or a shape."""
    status, out, err = run([os.path.join(ROOT, "build", "bin", "lab4-solution"), "--size", "64x48", "--mask", "box:3", "--check-only",
                            "--format", "json"])
    assert status in (0, 3), f"exit {status}: {err[-2000:]}"
    names = sorted({r["variant"] for r in json.loads(out)["results"]})
    script = "import sys, figures_filters as f; print([n for n in sys.argv[1:] if not f.lab4_shape({'variant': n})])"
    status, out, err = run([REPORT_PYTHON, "-c", script, *names], cwd=os.path.join(ROOT, "common", "tools", "report"))
    assert status == 0 and out.strip() == "['lab3-tiled', 'openmp-reference']", f"{names}: not shapes: {out or err}"
    assert len(names) > 20, names


def more_labs_plots_without_their_fields():
    """A report whose rows lack what a kind reads (lab 9's without the figure strips, lab 5's without
    a sweep's rows, lab 8's without stages, lab 4's without a shaped variant) gets the pages and one
    line a plot left out, naming it; nothing is drawn empty, nothing crashes."""
    lab8 = lab8_report()
    lab8["results"] = [dict(r, figures=[]) for r in lab8["results"]]
    lab4 = lab4_report()
    lab4["results"] = [r for r in lab4["results"] if r["variant"] in ("openmp-reference", "lab3-tiled")]
    with tempfile.TemporaryDirectory() as tmp:
        sweeps = [f"lab5-{s}-sweep" for s in ("stride", "offset", "paths", "block-size", "bank-stride")]
        for lab, doc, stems, missing in [(9, lab9_report(figures=False), [], ["lab9-strips"]), (5, lab5_report(sweeps=False), [], sweeps),
                                         (8, lab8, [], ["lab8-stages"]),
                                         (4, lab4, ["lab4-mask-size", "lab4-roofline"], ["lab4-granularity", "lab4-block-shape"])]:
            out, left_out = draw_report(lab, doc, tmp)
            check_folder(out, stems, {})
            assert [line.split()[3] for line in left_out] == missing, f"lab {lab}: {left_out}"


SAMPLES = os.path.join(ROOT, "tests", "report_samples")


def plots_from_real_h100_reports():
    """Every lab with plots, from a report of a real run (tests/report_samples/labN-h100.json: the
    reference solution's default run on an H100, as its README says): each plot its manifest
    declares is drawn, as a valid PNG of sensible size and a parsing SVG; the pages hold every
    plot and refer to nothing outside; every variant that passed is named in a plot's legend (lab
    9's with its host memory: "serial (pinned)"); the header names the GPU."""
    sys.path.insert(0, os.path.join(ROOT, "grading"))
    from convlab_grader import manifest
    with_plots = [lab for lab in manifest.labs() if manifest.load(lab)["plots"]]
    stored = sorted(int(f[3:-len("-h100.json")]) for f in os.listdir(SAMPLES) if re.fullmatch(r"lab\d+-h100\.json", f))
    assert stored == sorted(with_plots), f"stored samples of labs {stored}, labs with plots {sorted(with_plots)}"
    with tempfile.TemporaryDirectory() as tmp:
        for lab in with_plots:
            with open(os.path.join(SAMPLES, f"lab{lab}-h100.json")) as f:
                doc = json.load(f)
            out, left_out = draw_report(lab, doc, tmp)
            assert not left_out, f"lab {lab}: {left_out}"
            stems = [f"lab{lab}-{kind}" for kind in manifest.load(lab)["plots"]]
            check_folder(out, stems, {})
            named = set().union(*(svg_texts(open(os.path.join(out, s + ".svg")).read()) for s in stems))
            # Lab 5's rows are the points of its sweeps (and experiments no plot shows), each
            # sweep a few series: the others' rows are variants, a series each.
            unnamed = sorted({r["variant"] for r in doc["results"] if r["status"] == "pass" and lab != 5
                              and not any(t == r["variant"] or t.startswith(r["variant"] + " ") for t in named)})
            assert not unnamed, f"lab {lab}: no legend names {unnamed}"
            with open(os.path.join(out, "report.html")) as f:
                page = f.read()
            assert lab == 0 or "NVIDIA H100 80GB HBM3" in page, f"lab {lab}: the page's header does not name the GPU"


def lab8_report_from_a_run():
    """Lab 8's run (its CPU part here; with a GPU its pipelines too): the stages plot of the real
    report, its legend naming the CPU reference's pipeline."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "lab8")
        status, o, err = make_report("LAB=8", "SOLUTION=1", f"OUT={out}", "ARGS=--size 160x120 --cpu-reps 1 --reps 3 --warmup 1")
        assert status == 0, f"exit {status}: {(o + err)[-2000:]}"
        check_folder(out, ["lab8-stages"], {"lab8-stages": ["openmp-reference", "sequential"]})


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


def report_python_is_one_with_matplotlib():
    """common/tools/report-python.sh (the Makefile's REPORT_PYTHON): the system's python3 when it
    has matplotlib; else the python3 first on PATH when that one has it (a GPU server's pip
    install); else the system's, which make deps gives matplotlib. Stand-ins: a "system" python3
    that sees no matplotlib (-S: no site packages) and a PATH python3 with a matplotlib of its own."""
    script = os.path.join(ROOT, "common", "tools", "report-python.sh")
    with tempfile.TemporaryDirectory() as tmp:
        bare, with_it, path_dir = os.path.join(tmp, "bare-python3"), os.path.join(tmp, "full"), os.path.join(tmp, "bin")
        os.makedirs(os.path.join(with_it, "matplotlib"))
        open(os.path.join(with_it, "matplotlib", "__init__.py"), "w").close()
        os.makedirs(path_dir)
        real = sys.executable
        for path, text in ((bare, f'#!/bin/sh\nexec {real} -S "$@"\n'),
                           (os.path.join(path_dir, "python3"), f'#!/bin/sh\nPYTHONPATH={with_it} exec {real} -S "$@"\n')):
            with open(path, "w") as f:
                f.write(text)
            os.chmod(path, 0o755)
        path_python = os.path.join(path_dir, "python3")
        picked = lambda system, path: run([script], env={"SYSTEM_PYTHON": system, "PATH": f"{path}:/usr/bin:/bin"})[1].strip()  # noqa: E731
        assert picked(path_python, "/nowhere") == path_python  # the "system" one has it: it
        assert picked(bare, path_dir) == path_python, picked(bare, path_dir)  # only the PATH one has it
        picked_alone = run([script], env={"SYSTEM_PYTHON": bare, "PATH": tmp})[1].strip()  # no python3 on PATH at all
        assert picked_alone == bare, picked_alone  # neither has it: the system's


def register(results):
    results.run("report: every plot a manifest declares is a kind make report draws", declared_plots_are_drawn)
    results.run("report: lab 0's run makes the folder (pages, PNG and SVG plots, nothing outside)", lab0_report_from_a_run)
    results.run("report: a saved filter-lab report makes time-vs-mask and roofline plots", saved_filter_report)
    results.run("report: labs 4, 5, 8, 9 draw the plots their manifests declare from saved reports", more_labs_plots_from_saved_reports)
    results.run("report: lab 4's, 5's, 8's and 9's plots hold the rows' values, lines, bars and floors", more_labs_plots_hold_the_rows)
    results.run("report: every lab 4 variant's name gives its shape (GX x GY, block) to the plots", lab4_names_are_shapes)
    results.run("report: rows without what a plot reads: the pages, and one line a plot left out", more_labs_plots_without_their_fields)
    results.run("report: lab 8's run makes its stages plot", lab8_report_from_a_run)
    results.run("report: every lab's declared plots from a stored report of a real H100 run", plots_from_real_h100_reports)
    results.run("report: a missing file, a schema 1 report, another lab's report: one line, nothing written", bad_inputs_refused)
    results.run("contact sheet: a run's pictures on one PNG, a row a mask; without the run's report one line", contact_sheet_of_a_run)
    results.run("compare: runs of one lab side by side, a column and a series a run (lines over masks, bars for one)", compare_side_by_side)
    results.run("compare: two labs, other masks, another size, one report: one line, nothing written", compare_refuses_what_does_not_compare)
    results.run("report: without matplotlib, one line naming python3-matplotlib", missing_matplotlib_is_one_line)
    results.run("report: make report's python3 is the system's, or the PATH one where only it has matplotlib",
                report_python_is_one_with_matplotlib)
