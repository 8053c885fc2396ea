"""Each lab is described once, in labs/labN/manifest: the Python and the shell readers agree on
every manifest, README's lab table names the same student files, and a new lab needs nothing but
its own files: a throw-away lab added to a copy of the kit builds, runs, ships in the student
release and is known to the grader, with no change to the Makefile, the grader or dist-student."""
import csv
import io
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile

import lab_suites
from testkit import ROOT, labs, run

sys.path.insert(0, os.path.join(ROOT, "grading"))
from convlab_grader import cases, manifest, performance  # noqa: E402
from convlab_grader import spec as specs  # noqa: E402

MANIFEST_SH = os.path.join(ROOT, "common", "tools", "manifest.sh")


def shell_value(lab, key, root=ROOT):
    status, out, err = run([os.path.join(root, "common", "tools", "manifest.sh"), "value", str(lab), key], cwd=root)
    assert status == 0, err
    return out.strip()


def readers_agree():
    labs = manifest.labs()
    assert labs == sorted(int(p[3:]) for p in os.listdir(os.path.join(ROOT, "labs")) if p[3:].isdigit()), labs
    for lab in labs:
        m = manifest.load(lab)
        assert shell_value(lab, "title") == m["title"] and m["title"], lab
        assert shell_value(lab, "student").split() == [os.path.basename(f) for f in m["student"]], lab
        assert ["labs/" + f for f in shell_value(lab, "uses").split()] == m["uses"], lab
        assert shell_value(lab, "libraries").split() == m["libraries"], lab
        assert (shell_value(lab, "input") or "images") == m["input"], lab
        assert shell_value(lab, "plots").split() == m["plots"], lab
        for f in m["student"] + m["uses"]:
            assert os.path.isfile(os.path.join(ROOT, f)), f"labs/lab{lab}/manifest names {f}, which does not exist"
            assert os.path.isfile(os.path.join(ROOT, "solutions", os.path.relpath(f, "labs"))), f"{f} has no solution"


def readme_table_matches_manifests():
    """A ready lab's "you write" cell names exactly its manifest's student files (the first with
    its folder, the others by name), and every lab with a manifest is ready in the table."""
    with open(os.path.join(ROOT, "README.md")) as f:
        text = f.read()
    table = text[text.index("| lab | topic | status |"):].split("\n\n")[0]
    rows = [line.split("|")[1:-1] for line in table.splitlines() if re.match(r"\| \d+ \|", line)]
    ready = {}
    for cells in rows:
        lab, status, you_write = cells[0].strip(), cells[2].strip(), cells[3]
        if status == "ready":
            ready[int(lab)] = [os.path.basename(name) for name in re.findall(r"`([^`]+\.(?:cu|cpp|cl))`", you_write.split(":")[0])]
    assert sorted(ready) == manifest.labs(), f"ready in README: {sorted(ready)}, manifests: {manifest.labs()}"
    for lab, names in ready.items():
        expected = [os.path.basename(f) for f in manifest.load(lab)["student"]]
        assert names == expected, f"README's lab {lab} names {names}; labs/lab{lab}/manifest: {expected}"


def grading_specs_name_the_drivers_variants():
    """The variant names a grading spec runs (graded, timed, sanitized) are the driver's own: each is
    accepted by the lab's --variant (an image lab checks the name at once; lab 5 before it looks for
    a GPU), and a made-up name is refused, so the check can fail."""
    for lab in manifest.labs():
        spec = specs.load(lab)
        names = {v["name"] for v in spec["variants"]} | set(spec.get("sanitizer", {}).get("variants", []))
        names |= {name for case in spec.get("performance", {}).get("cases", []) for name in case["variants"]}
        binary = os.path.join(ROOT, "build", "bin", f"lab{lab}-solution")
        small = (["--elements", "64"] if "elements" in spec else ["--size", "8x8"]) + ["--check-only"]
        for name in sorted(names) + ["no-such-variant"]:
            status, out, err = run([binary, "--variant", name, *small])
            accepted = status in (0, 3)  # 3: no GPU here, the name was fine
            assert accepted == (name != "no-such-variant"), f"lab {lab} --variant {name!r}: exit {status}: {err.strip()[-300:]}"


def peer_timers_accept_the_graders_cases():
    """The grader's peer timer (the reference build run with --timer-of) accepts the arguments of
    the probe that decides whether peer timing works and of every timed case: an argument it
    refuses would turn peer timing off for the whole session, silently but for a note (lab 3's
    probe once lacked a mask and met the default sweep). The other end of the socket is closed,
    so a timer that gets past its options stops at once."""
    for lab in manifest.labs():
        spec = specs.load(lab)
        if not performance.peer_timed(spec):
            continue
        binary = os.path.join(ROOT, "build", "bin", f"lab{lab}-solution")
        probe = performance.peer_probe_case(spec)
        for perf in [probe] + cases.timed_cases(spec, 1):
            ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            theirs.close()
            with ours:
                done = subprocess.run([binary, *performance.peer_args(perf), "--timer-of", str(ours.fileno())],
                                      pass_fds=[ours.fileno()], capture_output=True, text=True, timeout=120)
            assert done.returncode != 2, f"lab {lab}: the timer refused {performance.peer_args(perf)}: {done.stderr.strip()[-300:]}"
    # the check can fail: a sweep of masks is refused
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    theirs.close()
    with ours:
        done = subprocess.run([os.path.join(ROOT, "build", "bin", "lab3-solution"), "--image", "random", "--mask", "box:3,box:5",
                               "--timer-of", str(ours.fileno())], pass_fds=[ours.fileno()], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "not a sweep" in done.stderr, f"a sweep under --timer-of: exit {done.returncode}: {done.stderr}"


THROWAWAY_MAIN = """// A throw-away lab for the manifest test.
#include "build/gen/lab{n}/manifest.hpp"
#include "common/families/filters/filter_lab.hpp"
#include "labs/lab{n}/lab{n}.hpp"

#include <algorithm>

int main(int argc, char** argv) {{
    using namespace convlab;
    LabSpec spec = spec_of(kManifest);
    spec.cpu = {{{{"mine", "the student's copy", [](const Problem& p, float* out, int) {{ copy_convolution(p, out); }}}}}};
    // A figure of this lab's own, which no other lab reports: the share of the pixels whose
    // window crosses the image's edge.
    spec.own_figures = [](VariantResult& r, const Problem& p) {{
        const int halo = p.mask.k / 2;
        const double inner = double(std::max(0, p.image.width - 2 * halo)) * std::max(0, p.image.height - 2 * halo);
        r.set_figure("edge_pixels_pct", "edge %", "%", 100.0 * (1.0 - inner / (double(p.image.width) * p.image.height)), 1);
    }};
    return run_lab(argc, argv, spec);
}}
"""
THROWAWAY_HEADER = """#pragma once
#include "common/runner/lab.hpp"
void copy_convolution(const convlab::Problem& p, float* out);
"""
THROWAWAY_STUDENT = """#include "labs/lab{n}/lab{n}.hpp"
#include "common/core/errors.hpp"
void copy_convolution(const convlab::Problem&, float*) {{ convlab::todo("copy_convolution"); }}
"""
THROWAWAY_SOLUTION = """#include "labs/lab{n}/lab{n}.hpp"
#include "common/core/reference.hpp"
void copy_convolution(const convlab::Problem& p, float* out) {{ convlab::conv2d_cpu(p.image, p.mask, p.border, out); }}
"""


def a_new_lab_needs_only_its_own_files():
    n = next(n for n in range(100) if not os.path.exists(os.path.join(ROOT, "labs", f"lab{n}")))  # the next lab's number
    with tempfile.TemporaryDirectory() as tmp:
        kit = os.path.join(tmp, "kit")
        listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                                capture_output=True, text=True, check=True).stdout.split()
        for f in listed:
            if os.path.isfile(os.path.join(ROOT, f)):
                os.makedirs(os.path.dirname(os.path.join(kit, f)), exist_ok=True)
                shutil.copy2(os.path.join(ROOT, f), os.path.join(kit, f))
        shutil.copytree(os.path.join(ROOT, "build"), os.path.join(kit, "build"), symlinks=True)  # the harness is built already
        if os.path.isdir(os.path.join(ROOT, ".deps")):
            shutil.copytree(os.path.join(ROOT, ".deps"), os.path.join(kit, ".deps"))
        files = {
            f"labs/lab{n}/manifest": "title = a throw-away lab\nstudent = copy.cpp\nuses =\nlibraries =\n",
            f"labs/lab{n}/main.cpp": THROWAWAY_MAIN.format(n=n),
            f"labs/lab{n}/lab{n}.hpp": THROWAWAY_HEADER,
            f"labs/lab{n}/copy.cpp": THROWAWAY_STUDENT.format(n=n),
            f"solutions/lab{n}/copy.cpp": THROWAWAY_SOLUTION.format(n=n),
        }
        for rel, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(kit, rel)), exist_ok=True)
            with open(os.path.join(kit, rel), "w") as f:
                f.write(text)
        subprocess.run(["git", "init", "-q"], cwd=kit, check=True)  # dist-student ships what git tracks
        subprocess.run(["git", "add", "-A"], cwd=kit, check=True)
        env = dict(os.environ)
        if os.path.isdir(os.path.join(kit, ".deps")):
            env["DEPS_INCLUDE"] = os.path.join(kit, ".deps", "include")
        done = subprocess.run(["make", "--no-print-directory", "-j2", f"build/bin/lab{n}-student", f"build/bin/lab{n}-solution"],
                              cwd=kit, env=env, capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
        solved = subprocess.run([f"build/bin/lab{n}-solution", "--size", "40x30", "--check-only"], cwd=kit, capture_output=True, text=True)
        assert solved.returncode == 0 and "a throw-away lab" in solved.stdout, solved.stdout + solved.stderr
        # Its own figure, with no file of common/ changed: a column of its tables and no other lab's
        # (40x30 under the default 7x7 mask: (40 x 30 - 34 x 24) / (40 x 30) = 32% of the pixels).
        table = subprocess.run([f"build/bin/lab{n}-solution", "--size", "40x30", "--check-only", "--format", "csv"], cwd=kit,
                               capture_output=True, text=True)
        rows = list(csv.DictReader(io.StringIO(table.stdout)))
        assert table.returncode == 0 and rows and all(r["edge_pixels_pct"] == "32.000000" for r in rows), table.stdout + table.stderr
        assert "edge %" in solved.stdout, solved.stdout
        other = subprocess.run([os.path.join(ROOT, "build", "bin", "lab3-solution"), "--size", "40x30", "--check-only", "--format",
                                "csv"], capture_output=True, text=True)
        assert "edge_pixels_pct" not in other.stdout.splitlines()[0], other.stdout
        skeleton = subprocess.run([f"build/bin/lab{n}-student", "--size", "40x30", "--check-only"], cwd=kit, capture_output=True, text=True)
        assert skeleton.returncode == 1 and f"labs/lab{n}/copy.cpp" in skeleton.stdout, skeleton.stdout + skeleton.stderr
        status, out, err = run([os.path.join(kit, "common", "tools", "dist-student.sh"), os.path.join(tmp, "dist")], cwd=kit)
        assert status == 0, out + err
        listing = subprocess.run(["tar", "-tzf", os.path.join(tmp, "dist", "convlab-student.tar.gz")], capture_output=True, text=True).stdout
        assert f"convlab-student/labs/lab{n}/copy.cpp" in listing and f"solutions/lab{n}" not in listing, listing[-500:]
        known = subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, 'grading'); from convlab_grader import manifest; "
                                f"print(manifest.load({n})['student'], {n} in manifest.labs())"], cwd=kit, capture_output=True, text=True)
        assert known.stdout.strip() == f"['labs/lab{n}/copy.cpp'] True", known.stdout + known.stderr


def every_lab_has_its_tests():
    """Each lab's own tests are in one file, tests/lab_suites/labN.py (lab_suites/__init__.py)."""
    missing = [n for n in labs() if not lab_suites.has_own(n)]
    assert not missing, f"labs without tests/lab_suites/labN.py: {missing}"


def register(results):
    results.run("manifest: the Python and shell readers agree on every lab; each student file has its solution", readers_agree)
    results.run("manifest: README's lab table names each lab's student files", readme_table_matches_manifests)
    results.run("every lab has its own tests' file, tests/lab_suites/labN.py", every_lab_has_its_tests)
    results.run("manifest: each grading spec's variant names are the driver's", grading_specs_name_the_drivers_variants)
    results.run("manifest: the peer timer accepts the grader's probe and every timed case of each peer-timed lab",
                peer_timers_accept_the_graders_cases)
    results.run("manifest: a throw-away lab builds, runs, ships and is known to the grader with only its own files",
                a_new_lab_needs_only_its_own_files)
