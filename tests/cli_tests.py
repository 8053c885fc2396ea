"""The labs' behaviour that needs no GPU: the CPU lab end to end, skeletons failing cleanly, the
no-GPU path, every kind of bad input, the report formats and the pictures."""
import csv
import io
import json
import os
import pty
import re
import select
import shutil
import subprocess
import struct
import tempfile
import zlib

import lab_suites
from testkit import ROOT, is_convolution_lab, lab, lab_json, make, run
from convlab_grader import performance, reports  # noqa: E402  (testkit puts grading/ on the path)

BORDERS = ["zero", "clamp", "wrap", "mirror"]
def skeleton_without_gpu_fails_or_skips_cleanly(n):
    status, out, err = lab(f"lab{n}-student", "--check-only", "--size", "40x30")
    assert status in (1, 3), f"exit {status}: the skeleton crashed or passed\n{out}\n{err}"
    assert "Traceback" not in err and "Segmentation" not in err


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png16(path):
    """A valid 1x1 PNG with 16 bits per channel (stb_image_write only writes 8-bit)."""
    header = struct.pack(">IIBBBBB", 1, 1, 16, 0, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header) + png_chunk(b"IDAT", zlib.compress(b"\x00\x12\x34")) +
                png_chunk(b"IEND", b""))


def png_huge(path):
    """A valid 30000x30000 RGB PNG, all black (12 MB): more pixels than stb_image decodes, within
    the kit's 32768 a side. The compressor sees one zero row 30000 times: a few seconds."""
    compressor, row = zlib.compressobj(1), bytes(1 + 30000 * 3)
    data = b"".join(compressor.compress(row) for _ in range(30000)) + compressor.flush()
    header = struct.pack(">IIBBBBB", 30000, 30000, 8, 2, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header) + png_chunk(b"IDAT", data) + png_chunk(b"IEND", b""))


def bad_input_cases(tmp):
    good = os.path.join(tmp, "good.png")
    status, _, err = run([os.path.join(ROOT, "build", "bin", "imagegen"), "--size", "64x64", "--out", good])
    assert status == 0, err
    with open(good, "rb") as f:
        data = f.read()
    with open(os.path.join(tmp, "cut.png"), "wb") as f:
        f.write(data[: len(data) // 2])
    with open(os.path.join(tmp, "text.png"), "w") as f:
        f.write("not an image\n")
    png16(os.path.join(tmp, "deep.png"))
    png_huge(os.path.join(tmp, "huge.png"))
    with open(os.path.join(tmp, "empty.pgm"), "wb") as f:
        f.write(b"P5\n0 0\n255\n")
    with open(os.path.join(tmp, "ragged.txt"), "w") as f:
        f.write("1 2 3\n4 5\n6 7 8\n")
    with open(os.path.join(tmp, "a-file"), "w") as f:
        f.write("x")
    t = lambda name: os.path.join(tmp, name)  # noqa: E731
    return {
        "missing file": (["--image", t("missing.png")], "cannot open image"),
        "not an image": (["--image", t("text.png")], "cannot read image"),
        "truncated PNG": (["--image", t("cut.png")], "corrupt or truncated"),
        "16-bit PNG": (["--image", t("deep.png")], "16 bits"),
        "PNG of more than 1 GiB of pixels": (["--image", t("huge.png")], "is 30000x30000 with 3 channels, more than the 1 GiB"),
        "0-sized image": (["--image", t("empty.pgm")], "accepted"),
        "0-sized --size": (["--size", "0x5"], "1 to 32768"),
        "negative size": (["--size=-4x4"], "1 to 32768"),
        "huge size": (["--size", "40000x40000"], "1 to 32768"),
        "2 channels": (["--channels", "2"], "1 or 3"),
        "fresh input of a synthetic image": (["--fresh-input-each-rep"], "needs --image random"),
        "seed too large": (["--seed", "99999999999999999999"], "is too large"),
        "even mask": (["--mask", "box:4"], "odd size"),
        "zero mask": (["--mask", "gauss:0:1"], "odd size"),
        "mask larger than the lab allows": (["--mask", "box:33"], "1 to 31"),
        "unknown mask": (["--mask", "blurry"], "unknown mask"),
        "unknown border": (["--border", "reflect"], "accepted: zero, clamp, wrap, mirror"),
        "malformed mask file": (["--mask", t("ragged.txt")], "line 2"),
        "row mask without its column": (["--row-mask", "1,2,1"], "--row-mask without --col-mask"),
        "row and column of different lengths": (["--row-mask", "1,2,1", "--col-mask", "1,1,1,1,1"], "the same odd count"),
        "even row mask": (["--row-mask", "1,1", "--col-mask", "1,1"], "an odd count"),
        "a row weight that is no number": (["--row-mask", "1,x,1", "--col-mask", "1,1,1"], "'x' is not a finite number"),
        "--mask and a row and column": (["--mask", "box:3", "--row-mask", "1,1,1", "--col-mask", "1,1,1"], "one or the other"),
        "unknown option": (["--frobnicate"], "unknown option --frobnicate; run ./lab1 --help"),
        "option without its value": (["--mask"], "--mask needs a value"),
        "value for a switch": (["--check-only=yes"], "'yes' is not a value that option takes"),
        "stray word": (["image.png"], "unexpected argument 'image.png'"),
        "unknown variant": (["--variant", "nope"], "unknown variant"),
        "a list ending in a comma": (["--threads", "1,2,"], "--threads '' is not a whole number"),
        "a mask sweep ending in a comma": (["--mask", "box:3,"], "mask ''"),
        "a mask size too large to read": (["--mask", "box:99999999999999999999"], "is too large"),
        "bad format": (["--format", "xml"], "accepted: text, md, csv, json"),
        "unknown preset": (["--preset", "nosuch"], "unknown preset 'nosuch'; accepted: mesa-hidalgo-2015"),
        "peer timing on a descriptor that is no socket": (["--image", "random", "--timed-by", "1"], "--timed-by 1 is not an open socket"),
        "unwritable output folder": (["--out", t("a-file") + "/sub"], "cannot use --out"),
    }


def refusal_problems(binary, args, expected, out_dir=None):
    """What is wrong with a run that must refuse its input: exit 2, one line on stderr naming
    `expected`, nothing on stdout, and nothing written in out_dir (when given)."""
    status, out, err = lab(binary, *args)
    lines = [l for l in err.splitlines() if l.strip()]
    problems = []
    if status != 2:
        problems.append(f"exit {status}, expected 2")
    if len(lines) != 1 or expected not in lines[0]:
        problems.append(f"stderr {err.strip()!r} should be one line containing {expected!r}")
    if out.strip():
        problems.append(f"stdout should be empty, got {out.strip()[:100]!r}")
    if out_dir and os.path.isdir(out_dir) and os.listdir(out_dir):
        problems.append(f"left files behind: {os.listdir(out_dir)}")
    return problems


def bad_input_is_one_line_and_writes_nothing():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, (args, expected) in bad_input_cases(tmp).items():
            out_dir = os.path.join(tmp, "out-" + name.replace(" ", "-"))
            extra = [] if "--out" in args else ["--out", out_dir]
            size = [] if "--size" in " ".join(args) else ["--size", "32x32"]
            # The case's own arguments last: an option may lack its value.
            problems = refusal_problems("lab1-solution", [*extra, *size, *args], expected, out_dir)
            if problems:
                failures.append(f"{name}: " + "; ".join(problems))
    assert not failures, "\n".join(failures)


def presets_of(n):
    """{name: its arguments} from ./labN --help's "Presets" list."""
    status, out, err = lab(f"lab{n}-solution", "--help")
    assert status == 0, err
    presets, name = {}, None
    for line in out.split("Presets", 1)[1].splitlines()[1:] if "Presets" in out else []:
        if not line.strip():
            break
        if line.strip().startswith("= "):
            presets[name] = line.strip()[2:].split()
        else:
            name = line.split()[0]
    return presets


def presets_parse_and_apply():
    """Every lab's presets (the sources' experiments) run at a small size: each one's masks, border
    and channels reach the report, and an option given after it wins (--size here)."""
    found = 0
    for n in range(5):
        for name, args in presets_of(n).items():
            found += 1
            status, out, err = lab(f"lab{n}-solution", "--preset", name, "--size", "40x30", "--check-only", "--format", "json")
            assert status in (0, 3), f"lab{n} --preset {name}: exit {status}\n{err[-1000:]}"
            doc = json.loads(out)
            assert doc["preset"] == name and doc["input"]["width"] == 40, (n, name, doc["preset"], doc["input"])
            assert doc["masks"] == args[args.index("--mask") + 1].split(","), (n, name, doc["masks"])
            assert doc["border"] == args[args.index("--border") + 1], (n, name, doc["border"])
            assert doc["input"]["channels"] == int(args[args.index("--channels") + 1]), (n, name, doc["input"])
    assert found >= 7, f"only {found} presets in labs 0 to 4"


def raw_results_and_trusted_compare():
    """--raw-out writes each variant's result and checks nothing (the kit's own CPU reference,
    lab 0's sequential variant, is not run: a graded run holds none); --compare (the grader's check)
    passes the right one, fails another input's, a truncated file and an oversized one."""
    case = ["--size", "37x23", "--image", "random", "--mask", "random:5:3", "--border", "wrap"]
    with tempfile.TemporaryDirectory() as tmp:
        doc = lab_json("lab0-solution", *case, "--seed", "9", "--check-only", "--threads", "2", "--raw-out", tmp)
        assert sorted(os.listdir(tmp)) == ["openmp.f32"], os.listdir(tmp)
        assert [(r["variant"], r["status"]) for r in doc["results"]] == [("sequential", "skipped"), ("openmp", "written")], doc["results"]
        raw = os.path.join(tmp, "openmp.f32")
        assert os.path.getsize(raw) == 37 * 23 * 3 * 4
        doc = lab_json("lab0-solution", *case, "--seed", "9", "--check-only", "--compare", raw)
        assert [r["status"] for r in doc["results"] if r["kind"] == "submitted"] == ["pass"], doc["results"]
        doc = lab_json("lab0-solution", *case, "--seed", "10", "--check-only", "--compare", raw, expect=1)
        assert doc["results"][-1]["status"] == "fail" and doc["results"][-1]["check"]["bad"] > 0, doc["results"][-1]
        # A folder: one row per result, named by the variant it belongs to, in the lab's order
        shutil.copyfile(raw, os.path.join(tmp, "sequential.f32"))
        doc = lab_json("lab0-solution", *case, "--seed", "9", "--check-only", "--compare", tmp)
        assert [(r["variant"], r["status"]) for r in doc["results"] if r["kind"] == "submitted"] == \
            [("sequential", "pass"), ("openmp", "pass")], doc["results"]
        with open(raw, "rb") as f:
            data = f.read()
        for name, content in (("short.f32", data[:100]), ("long.f32", data + data)):
            path = os.path.join(tmp, name)
            with open(path, "wb") as f:
                f.write(content)
            doc = lab_json("lab0-solution", *case, "--seed", "9", "--check-only", "--compare", path, expect=1)
            assert "floats; the image has" in doc["results"][-1]["message"], doc["results"][-1]
        status, out, err = lab("lab0-solution", *case, "--compare", os.path.join(tmp, "missing.f32"))
        assert status == 2 and "--compare" in err and not out.strip(), (status, out, err)


def variants_listed(binary):
    """The variants a lab program's --help lists, in its order, as the grader reads them."""
    listed = performance.listed_variants(os.path.join(ROOT, "build", "bin", binary))
    assert listed is not None, f"{binary} --help lists no variants"
    return listed


def expert_tier_in_the_reference_alone(n):
    """A lab with an expert tier (solutions/labN/expert/): its variants, NAME-expert, are in the
    reference solution's program alone, after the design's; the student's and the grader's builds
    list none. The reference's trusted compare knows no expert result: a file so named is a stray,
    checked under its file name."""
    listed = variants_listed(f"lab{n}-solution")
    expert = [v for v in listed if v.endswith("-expert")]
    assert expert and listed[-len(expert):] == expert, listed
    for binary in (f"lab{n}-student", f"lab{n}-graded"):
        assert not set(expert) & set(variants_listed(binary)), (binary, variants_listed(binary))
    case = ["--size", "9x7", "--image", "random", "--mask", "gauss:3:1", "--channels", "1", "--check-only"]
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, expert[-1] + ".f32"), "wb") as f:
            f.write(bytes(9 * 7 * 4))
        doc = lab_json(f"lab{n}-solution", *case, "--compare", tmp, expect=1)
        assert [r["variant"] for r in doc["results"] if r["kind"] == "submitted"] == [expert[-1] + ".f32"], doc["results"]


WITHHELD = ["common/core/reference.cpp", "common/families/pipelines/canny.cpp", "common/families/filters/box_filter.cpp", "common/families/strips/banded_check.cpp"]  # the Makefile's WITHHELD_SRC


def stray_raw_results_fail_in_every_family():
    """--compare in the pipelines' and the strips' labs (8, 9; lab 5 compares on a GPU only): an
    .f32 file that no result of the lab is named by fails under its whole file name, never a
    result's; a --compare path that is no folder is one line, exit 2."""
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "serial_pinned-copy.f32"), "wb") as f:
            f.write(b"\0" * 16)
        for n in (8, 9):
            status, out, err = lab(f"lab{n}-solution", "--size", "64x48", "--image", "random", "--compare", tmp, "--format", "json")
            rows = [(r["variant"], r["status"], r["message"]) for r in json.loads(out)["results"]]
            assert status == 1 and rows == [("serial_pinned-copy.f32", "fail", "no result of this lab has this file's name")], \
                (n, status, rows, err)
            status, out, err = lab(f"lab{n}-solution", "--size", "64x48", "--compare", os.path.join(tmp, "serial_pinned-copy.f32"))
            assert status == 2 and "is not a folder" in err and err.count("\n") == 1 and not out.strip(), (n, status, out, err)


def graded_builds_hold_no_reference():
    """The grader's build of a submission (labN-graded) holds none of the kit's CPU references:
    every function of the withheld objects is the stub there (the build's own check, which also
    finds the reference in a student build, so it can fail); a run of it that reaches for one,
    without --raw-out, stops with one line and exit status 5; with --raw-out a CPU variant of the
    student's runs and writes its result, and the kit's own CPU reference is left out."""
    objects = [os.path.join("build", "obj", os.path.splitext(f)[0] + ".o") for f in WITHHELD]
    script = os.path.join(ROOT, "common", "tools", "withhold-reference.sh")
    for n in (0, 7, 8, 9):
        status, _, err = run([script, "verify", f"build/bin/lab{n}-graded", *objects])
        assert status == 0, (n, err)
    status, _, err = run([script, "verify", "build/bin/lab7-student", *objects])
    assert status == 1 and "box_filter_cpu" in err and "conv2d_cpu_reference" in err, err
    status, out, err = lab("lab7-graded", "--size", "40x30", "--check-only")
    lines = err.strip().splitlines()
    assert status == 5 and len(lines) == 1 and "holds no CPU reference" not in out and "--raw-out" in lines[0], (status, out, err)
    with tempfile.TemporaryDirectory() as tmp:
        doc = lab_json("lab0-graded", "--size", "37x23", "--image", "random", "--check-only", "--threads", "2", "--raw-out", tmp,
                       expect=1)  # the untouched skeleton: not implemented yet
        assert [(r["variant"], r["status"]) for r in doc["results"]] == [("sequential", "skipped"), ("openmp", "not-implemented")], \
            doc["results"]
        doc = lab_json("lab0-solution", "--size", "37x23", "--image", "random", "--check-only", "--threads", "2", "--raw-out", tmp)
        assert [(r["variant"], r["status"]) for r in doc["results"]] == [("sequential", "skipped"), ("openmp", "written")], doc["results"]


def row_and_column_masks():
    """--row-mask and --col-mask give a separable mask by its vectors (column times row, not the
    other way round): the result is the same, bit for bit, as with the two-line mask file of the
    same vectors, passes against the reference, and differs from the mask with the two swapped."""
    case = ["--size", "41x29", "--image", "random", "--seed", "4", "--border", "mirror", "--check-only", "--threads", "2"]
    row, col = "1,2,-3,0.5,1", "0.25,-1,2,1,1"
    with tempfile.TemporaryDirectory() as tmp:
        outputs = {}
        with open(os.path.join(tmp, "two-rows.txt"), "w") as f:
            f.write(row.replace(",", " ") + "\n" + col.replace(",", " ") + "\n")
        for name, mask in (("vectors", ["--row-mask", row, "--col-mask", col]), ("file", ["--mask", os.path.join(tmp, "two-rows.txt")]),
                           ("swapped", ["--row-mask", col, "--col-mask", row])):
            os.makedirs(os.path.join(tmp, name))
            doc = lab_json("lab0-solution", *case, *mask, "--raw-out", os.path.join(tmp, name))
            assert [r["status"] for r in doc["results"]] == ["skipped", "written"], (name, doc["results"])
            checked = lab_json("lab0-solution", *case, *mask, "--compare", os.path.join(tmp, name))
            assert [r["status"] for r in checked["results"] if r["kind"] == "submitted"] == ["pass"], (name, checked["results"])
            with open(os.path.join(tmp, name, "openmp.f32"), "rb") as f:
                outputs[name] = f.read()
        assert doc["masks"] == ["row " + col + " x col " + row], doc["masks"]
    assert outputs["vectors"] == outputs["file"], "the vectors and the two-line file of them differ"
    assert outputs["vectors"] != outputs["swapped"], "swapping row and column changed nothing: the mask is not column x row"


def fresh_input_each_rep():
    """--fresh-input-each-rep (the grader's timed runs): every timed run gets a new input, seed + 1
    + its number, and the raw result is the last one's: it passes against seed + cpu-reps and
    fails against the first input, so a replayed answer cannot pass. The run holds no reference to
    spot-check its runs against: it records each run's drawn values beside the result, and the
    trusted check (--compare with --fresh-input-each-rep) checks them, failing a record that is
    missing, altered, or of other inputs."""
    case = ["--size", "41x29", "--image", "random", "--mask", "random:5:3", "--border", "mirror"]
    with tempfile.TemporaryDirectory() as tmp:
        status, _, err = lab("lab0-solution", *case, "--seed", "20", "--cpu-reps", "3", "--threads", "2", "--variant", "openmp",
                             "--fresh-input-each-rep", "--raw-out", tmp)
        assert status == 0 and sorted(os.listdir(tmp)) == ["openmp.f32", "openmp.f32.spots"], (status, err, os.listdir(tmp))
        raw, spots = os.path.join(tmp, "openmp.f32"), os.path.join(tmp, "openmp.f32.spots")
        assert os.path.getsize(spots) == 3 * 1024 * 24, os.path.getsize(spots)  # three runs of 1024 (seed, index, value)
        doc = lab_json("lab0-solution", *case, "--seed", "23", "--check-only", "--compare", raw)
        assert doc["results"][-1]["status"] == "pass", doc["results"][-1]
        doc = lab_json("lab0-solution", *case, "--seed", "20", "--check-only", "--compare", raw, expect=1)
        assert doc["results"][-1]["status"] == "fail", doc["results"][-1]
        timed = ["--seed", "23", "--cpu-reps", "3", "--check-only", "--fresh-input-each-rep", "--compare", tmp]
        doc = lab_json("lab0-solution", *case, *timed)
        assert [r["status"] for r in doc["results"] if r["kind"] == "submitted"] == ["pass"], doc["results"]
        with open(spots, "rb") as f:
            record = f.read()
        for change, why in (("value", "spot-checked values of the timed runs were wrong"),  # the first value of the first run
                            ("seed", "not one of the run's"),  # the first value's input seed
                            ("last run only", "not the 3 runs")):  # the runs that skipped work left out
            altered = bytearray(record)
            if change == "value":
                altered[16:20] = struct.pack("f", struct.unpack("f", record[16:20])[0] + 7)
            elif change == "seed":
                altered[0:8] = struct.pack("Q", struct.unpack("Q", record[0:8])[0] + 100)
            else:
                altered = altered[2 * 1024 * 24:]
            with open(spots, "wb") as f:
                f.write(altered)
            doc = lab_json("lab0-solution", *case, *timed, expect=1)
            assert why in doc["results"][-1]["message"], (why, doc["results"][-1])
        os.remove(spots)
        doc = lab_json("lab0-solution", *case, *timed, expect=1)
        assert "no spot record" in doc["results"][-1]["message"], doc["results"][-1]



def help_lists_variants_and_exit_statuses(n):
    status, out, _ = lab(f"lab{n}-solution", "--help")
    assert status == 0 and "Exit status" in out and "--mask" in out, out


def formats_parse():
    base = ["--size", "50x40", "--cpu-reps", "1", "--threads", "1,2"]
    doc = lab_json("lab0-solution", *base)
    assert doc["schema"] == "convlab.report/2" and doc["lab"] == 0
    status, out, _ = lab("lab0-solution", *base, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert status == 0 and [r["variant"] for r in rows] == ["openmp-reference", "sequential", "openmp", "openmp"], out
    status, out, _ = lab("lab0-solution", *base, "--format", "md")
    assert status == 0 and "| variant" in out and "| ---" in out, out
    status, out, _ = lab("lab0-solution", *base)
    assert status == 0 and "variant" in out and "PASS" in out, out


def figures_are_columns():
    """Report schema 2: a lab's own figures are its rows' "figures" (name, unit, value), and the
    CSV and text tables have a column for each figure some row carries and no other: lab 8's
    stage and share of its pipeline's time, and no column of lab 8's or lab 9's in lab 3's."""
    base = ["--size", "64x48", "--cpu-reps", "1"]
    status, out, _ = lab("lab3-solution", *base, "--format", "csv")  # 0 with a GPU, 3 without
    header = out.splitlines()[0].split(",")
    assert "median_ms" in header and not {"stage", "share_pct", "rounds", "pco", "host_memory", "strips"} & set(header), header
    assert all(r["figures"] == [] for r in lab_json("lab3-solution", *base, expect=status)["results"])
    status, out, _ = lab("lab8-solution", *base, "--format", "csv")
    reference = [r for r in csv.DictReader(io.StringIO(out)) if r["variant"] == "openmp-reference"]
    stages = ["smoothing", "gradients", "suppression", "thresholds", "hysteresis"]
    assert [r["stage"] for r in reference] == stages + [""], out
    assert abs(sum(float(r["share_pct"]) for r in reference[:5]) - 100) < 1e-3 and reference[5]["share_pct"] == "", out
    doc = lab_json("lab8-solution", *base, expect=status)
    rows = [r for r in doc["results"] if r["variant"] == "openmp-reference"]
    assert rows[0]["figures"][0] == {"name": "stage", "unit": "", "value": "smoothing"}, rows[0]["figures"]
    assert [(f["name"], f["unit"]) for f in rows[0]["figures"][1:]] == [("share_pct", "%")], rows[0]["figures"]
    assert rows[5]["figures"] == [], rows[5]
    _, out, _ = lab("lab8-solution", *base)
    table = next(line for line in out.splitlines() if line.startswith("variant"))
    assert table.split()[:2] == ["variant", "stage"] and "share %" in table and "strips" not in table, table


def pictures_are_written():
    with tempfile.TemporaryDirectory() as tmp:
        status, _, err = lab("lab0-solution", "--size", "33x21", "--check-only", "--threads", "2", "--out", tmp + "/")
        assert status == 0 and f"pictures saved in {tmp}/\n" in err, err
        names = sorted(os.listdir(tmp))
        assert names == ["input.png", "openmp-diff.png", "openmp.png", "reference.png", "report.json", "sequential-diff.png",
                         "sequential.png"], names
        with open(os.path.join(tmp, "openmp.png"), "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n"
        # The run's report beside its pictures, as --format json gives it (make report and the contact sheet read it).
        with open(os.path.join(tmp, "report.json")) as f:
            doc = reports.load(f.read(), "report.json")
        assert doc["lab"] == 0 and sorted(r["variant"] for r in doc["results"]) == ["openmp", "openmp-reference", "sequential"], doc


def demo_takes_the_scene():
    """--demo runs on the lecture scene (--image scene) unless --image names another input, and saves
    its pictures with the run's report. At a lecture's pace: its CPU reference is timed once, by
    the run that computes the check's reference, and a separable mask's is summed in two passes,
    each CPU variant is timed once unless --cpu-reps says otherwise, and its notes say so; without
    --demo, --cpu-reps times, and directly."""
    with tempfile.TemporaryDirectory() as tmp:
        doc = lab_json("lab0-solution", "--demo", "--size", "48x32", "--check-only", "--threads", "2", "--out", tmp)
        assert doc["input"]["source"] == "scene (seed 1)" and doc["input"]["width"] == 48, doc["input"]
        assert "report.json" in os.listdir(tmp) and "input.png" in os.listdir(tmp), os.listdir(tmp)
        doc = lab_json("lab0-solution", "--demo", "--image", "synthetic", "--size", "48x32", "--check-only", "--threads", "2", "--out", tmp)
        assert doc["input"]["source"] == "synthetic (seed 1)", doc["input"]
        for demo, samples in ((["--demo"], 1), ([], 3)):
            doc = lab_json("lab0-solution", *demo, "--size", "48x32", "--threads", "2", "--cpu-reps", "3", "--out", tmp)
            reference = [r for r in doc["results"] if r["variant"] == "openmp-reference"]
            assert reference and all(r["time"]["samples"] == samples for r in reference), reference
            said = any("timed once" in n for n in doc["notes"])
            assert said == bool(demo), doc["notes"]
            # gauss:7:2, lab 0's mask, is separable: summed in two passes in --demo alone
            assert all(("row pass then a column pass" in r["description"]) == bool(demo) for r in reference), reference
            sequential = [r for r in doc["results"] if r["variant"] == "sequential"]
            assert sequential and sequential[0]["time"]["samples"] == 3, "--cpu-reps given: the CPU variants' reps, --demo or not"
        # --demo's own default: each CPU variant timed once, and it says so.
        doc = lab_json("lab0-solution", "--demo", "--size", "48x32", "--threads", "2", "--out", tmp)
        cpu = [r for r in doc["results"] if r["variant"] in ("sequential", "openmp")]
        assert cpu and all(r["time"]["samples"] == 1 for r in cpu), [(r["variant"], r["time"]) for r in cpu]
        assert "--demo: each CPU variant is timed once (--cpu-reps 1)" in doc["notes"], doc["notes"]
        # The demo's scene is 2048x2048 (options.hpp's kDemoSize), as --help says; a lab with GPU variants
        # times each 5 times after one warm-up and says so, a lab with none says nothing of them.
        _, said, _ = lab("lab1-solution", "--help")
        assert "lecture mode: a 2048x2048 scene" in said, [line for line in said.splitlines() if "lecture" in line]
        gpu_note = "--demo: each GPU variant is timed 5 times after 1 warm-up (--reps and --warmup say otherwise)"
        assert not any("GPU variant" in n for n in doc["notes"]), ("lab 0 has no GPU variant", doc["notes"])
        status, out, err = lab("lab3-solution", "--demo", "--size", "48x32", "--mask", "gauss:3:1", "--out", tmp, "--format", "json")
        notes = reports.load(out, "lab3")["notes"] if status in (0, 3) else err
        assert gpu_note in notes and reports.load(out, "lab3")["timing"]["reps"] == 5, notes
        status, out, err = lab("lab3-solution", "--demo", "--size", "48x32", "--mask", "gauss:3:1", "--reps", "7", "--out", tmp,
                               "--format", "json")
        assert status in (0, 3) and gpu_note not in reports.load(out, "lab3")["notes"], "--reps given: the demo's own are not used"
        # A one-thread CPU variant runs on the image's top rows (an eighth, at least 4r + 16), is
        # checked where the cut cannot reach (under the wrap border, not its first rows either) and
        # its time scaled to the whole image, as the note says; without --demo, on the whole image.
        for demo in (["--demo"], []):
            status, out, err = lab("lab6-solution", *demo, "--size", "40x160", "--mask", "gauss:5:1.5", "--border", "wrap", "--cpu-reps",
                                   "1", "--out", tmp, "--format", "json")
            doc6 = reports.load(out, "lab6")
            sequential = [r for r in doc6["results"] if r["variant"].startswith("sequential")]
            assert status in (0, 3) and len(sequential) == 2 and all(r["status"] == "pass" and r["time"] for r in sequential), \
                (status, err[-500:], sequential)
            said = [n for n in doc6["notes"] if "top 24 rows" in n and "(x6.67)" in n]
            assert bool(said) == bool(demo), doc6["notes"]
        # A lab without CPU variants (lab 9) says nothing of them (exit 3 without a GPU).
        status, out, err = lab("lab9-solution", "--demo", "--size", "64x48", "--out", tmp, "--format", "json")
        assert status in (0, 3), err[-2000:]
        assert not any("CPU variant" in n for n in reports.load(out, "lab9")["notes"]), out[-2000:]


def image_file_input_and_tiling():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "in.png")
        status, _, err = run([os.path.join(ROOT, "build", "bin", "imagegen"), "--size", "20x10", "--channels", "1", "--out", path])
        assert status == 0, err
        doc = lab_json("lab0-solution", "--image", path, "--tile-to", "45x31", "--check-only", "--threads", "2")
        assert (doc["input"]["width"], doc["input"]["height"], doc["input"]["channels"]) == (45, 31, 1), doc["input"]
        assert all(r["status"] == "pass" for r in doc["results"]), doc["results"]


def bench_runs():
    make("build/bin/bench_reference")
    status, out, err = run([os.path.join(ROOT, "build", "bin", "bench_reference"), "--benchmark_filter=omp/256/3/.*",
                            "--benchmark_min_time=0.01", "--benchmark_format=json"], timeout=600)
    assert status == 0, err
    doc = json.loads(out)
    assert doc["benchmarks"] and all(b.get("bytes_per_second", 0) > 0 for b in doc["benchmarks"]), out[:500]


def switching_flavour_rebuilds():
    """make lab0 SOLUTION=1 then make lab0 must give the skeleton again, and back; the flavour
    the developer had is restored afterwards."""
    stamp = os.path.join(ROOT, "build", "flavour.stamp")
    before = open(stamp).read().strip() if os.path.exists(stamp) else "student"
    try:
        for solution, expected in (("1", 0), ("", 1), ("1", 0)):
            status, out, err = run(["make", "--no-print-directory", "lab0", f"SOLUTION={solution}"])
            assert status == 0, out + err
            status, out, err = run([os.path.join(ROOT, "lab0"), "--check-only", "--size", "20x10", "--threads", "1"])
            assert status == expected, f"after make lab0 SOLUTION={solution!r}: ./lab0 exit {status}, expected {expected}"
    finally:
        run(["make", "--no-print-directory", "lab0", f"SOLUTION={'1' if before == 'solution' else ''}"])


def missing_header_is_a_clear_message():
    # A header folder that was given and lacks the header: nothing to install, the command is printed
    # (with sudo only for a user who is not root).
    status, out, err = run(["make", "--no-print-directory", "lab0", "STB_INCLUDE=/nonexistent"])
    command = "apt-get install -y libstb-dev" if os.geteuid() == 0 else "sudo apt-get install -y libstb-dev"
    assert status != 0 and command in err and "error:" not in err and "installing" not in err, out + err
    assert os.geteuid() != 0 or "sudo" not in err, err


def doctor_runs():
    status, out, err = run(["make", "--no-print-directory", "doctor"])
    assert "convlab doctor" in out and "CUDA toolkit" in out and "stb_image" in out, out + err
    # NVIDIA's OpenCL library installed without a vendor file (a stand-in ldconfig lists it): the
    # doctor says the labs register it, and how to for every program; listed, it says nothing more.
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "ldconfig"), "w") as f:
            f.write("#!/bin/sh\nprintf '\\tlibOpenCL.so.1 (libc6,x86-64) => /usr/lib/libOpenCL.so.1\\n"
                    "\\tlibOpenCL.so (libc6,x86-64) => /usr/lib/libOpenCL.so\\n"
                    "\\tlibnvidia-opencl.so.1 (libc6,x86-64) => /usr/lib/libnvidia-opencl.so.1\\n'\n")
        os.chmod(os.path.join(tmp, "ldconfig"), 0o755)
        vendors = os.path.join(tmp, "vendors")
        os.makedirs(vendors)
        with open(os.path.join(vendors, "pocl.icd"), "w") as f:
            f.write("libpocl.so.2\n")
        env = {"PATH": tmp + os.pathsep + os.environ["PATH"], "OPENCL_VENDORS_DIR": vendors}
        _, out, err = run(["make", "--no-print-directory", "doctor"], env=env)
        assert "labs 11 and 12 register it for you" in out and f"sudo tee {vendors}/nvidia.icd" in out, out + err
        with open(os.path.join(vendors, "nvidia.icd"), "w") as f:
            f.write("libnvidia-opencl.so.1\n")
        _, out, err = run(["make", "--no-print-directory", "doctor"], env=env)
        assert "NVIDIA OpenCL" not in out and "libnvidia-opencl.so.1" in out, out + err  # listed among the vendor files


def run_with_stderr_on_a_terminal(args, env=None):
    """A program whose stderr is a terminal (a pseudo-terminal this test reads), stdout a pipe:
    (exit status, stdout, what the terminal received)."""
    master, slave = pty.openpty()
    try:
        done = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=slave, env=env)
    finally:
        os.close(slave)
    out = done.stdout.read().decode()
    done.wait(timeout=300)
    received = b""
    while select.select([master], [], [], 0.5)[0]:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the terminal's other end is closed: all of it is read
            break
        if not chunk:
            break
        received += chunk
    os.close(master)
    return done.returncode, out, received.decode()


def progress_only_on_a_terminal():
    """A run of several seconds shows its progress on stderr when stderr is a terminal: each step's
    variant and mask, k of n and the time so far, rewritten in place, the line cleared at the end;
    nothing with CONVLAB_PROGRESS=0, nothing where stderr is a pipe, and the report on stdout the
    same in all three (common/report/progress.hpp)."""
    binary = os.path.join(ROOT, "build", "bin", "lab0-solution")
    args = [binary, "--size", "1024", "--channels", "1", "--mask", "box:15,box:17,box:19", "--threads", "1,2", "--cpu-reps", "1",
            "--format", "csv"]
    status, out, shown = run_with_stderr_on_a_terminal(args)
    assert status == 0, shown
    steps = re.findall(r"\r\x1b\[Klab0: (sequential|openmp), (box:1[579]) \((\d) of 6\), (\d+) s so far", shown)
    assert steps and steps[-1][:3] == ("openmp", "box:19", "6"), repr(shown)
    assert [int(s[2]) for s in steps] == sorted(int(s[2]) for s in steps), repr(shown)
    assert shown.endswith("\r\x1b[K"), f"the progress line is not cleared at the end: {shown[-80:]!r}"
    quiet_status, quiet_out, quiet_shown = run_with_stderr_on_a_terminal(args, env=dict(os.environ, CONVLAB_PROGRESS="0"))
    assert quiet_status == 0 and quiet_shown == "", repr(quiet_shown)
    piped_status, piped_out, piped_err = run(args)
    assert piped_status == 0 and piped_err == "", repr(piped_err)
    rows = lambda text: [line.split(",")[:4] for line in text.splitlines()]  # noqa: E731  (the times differ)
    assert rows(out) == rows(quiet_out) == rows(piped_out), (out, piped_out)


def register_solution_sweeps(results):
    """The CPU labs' shape sweeps, which make test-gpu runs too: every solution on many shapes."""
    for name, fn, *args in lab_suites.of(0).solution_sweeps():
        results.run(name, fn, *args)


def register(results, labs):
    make("build/bin/imagegen")
    register_solution_sweeps(results)
    for n in filter(is_convolution_lab, labs):
        if n != 0:
            results.run(f"lab{n}: untouched skeleton does not crash", skeleton_without_gpu_fails_or_skips_cleanly, n)
        results.run(f"lab{n}: --help lists variants and exit statuses", help_lists_variants_and_exit_statuses, n)
    for n in labs:
        if os.path.isdir(os.path.join(ROOT, "solutions", f"lab{n}", "expert")):
            results.run(f"lab{n}: the expert tier is in the reference's program alone, and no result a submission writes",
                        expert_tier_in_the_reference_alone, n)
    for n in labs:  # each lab's own (lab_suites/labN.py)
        for name, fn, *args in getattr(lab_suites.of(n), "cli_tests", list)():
            results.run(name, fn, *args)
    results.run("presets: every lab's sources' experiments parse, apply and give way to the options after them", presets_parse_and_apply)
    results.run("bad input: one line, exit 2, nothing written (every case of bad_input_cases)", bad_input_is_one_line_and_writes_nothing)
    results.run("report formats: text, md, csv, json", formats_parse)
    results.run("progress on stderr only where it is a terminal, cleared at the end; the report the same", progress_only_on_a_terminal)
    results.run("report schema 2: a lab's own figures are its columns, no other lab's", figures_are_columns)
    results.run("--raw-out and --compare: the grader's raw results and trusted check", raw_results_and_trusted_compare)
    results.run("--compare: a stray raw result fails under its own file name in labs 8 and 9", stray_raw_results_fail_in_every_family)
    results.run("the grader's build (labN-graded) holds no CPU reference; reaching for one stops with exit 5",
                graded_builds_hold_no_reference)
    results.run("--row-mask and --col-mask: a separable mask by its vectors, as its two-line file gives it", row_and_column_masks)
    results.run("--fresh-input-each-rep: a new input every timed run, the last one's result kept", fresh_input_each_rep)
    results.run("--out writes input, reference, results and differences", pictures_are_written)
    results.run("image files and --tile-to", image_file_input_and_tiling)
    results.run("--demo runs on the lecture scene unless --image names another", demo_takes_the_scene)
    results.run("make bench: Google Benchmark of the CPU references", bench_runs)
    results.run("make doctor", doctor_runs)
    results.run("switching SOLUTION=1 and back always rebuilds ./labN", switching_flavour_rebuilds)
    results.run("a header missing from a given folder stops the build with the apt-get line", missing_header_is_a_clear_message)
