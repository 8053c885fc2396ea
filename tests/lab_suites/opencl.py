"""The tests every OpenCL lab (11, 12) has, run through the kit's OpenCL back end
(common/families/filters/cl_device.hpp). They need no GPU: make test installs PoCL (deps.sh), an
OpenCL device on the CPU, and runs them there, so they count as passed, not skipped, on a machine
without one. A lab's suite (lab_suites/labN.py) describes itself with a ClLab and lists these
tests with its own (cli_tests)."""
import json
import os
import re
import shutil
import tempfile
from dataclasses import dataclass

from testkit import ROOT, Skip, lab, lab_json, run
from convlab_grader import reports  # testkit puts grading/ on the path

BORDERS = ["zero", "clamp", "wrap", "mirror"]


@dataclass
class ClLab:
    n: int
    cl: str  # the lab's own .cl file (labs/labN/ and solutions/labN/)
    variants: list  # the GPU variants, in the driver's order
    shapes: list
    masks: list  # a run's masks, cycled over the shapes, borders and channels
    uses: tuple = ()  # .cl files of earlier labs it links, as the manifest's uses ("lab11/conv2d_naive.cl")
    macros: tuple = ()  # the #defines the solution may have (tunables the skeleton gives too)
    driver_chooses: tuple = ()  # the variants launched with no work-group size (the driver picks one)

    @property
    def name(self):
        return f"lab{self.n}"

    def own_variants(self):
        """The variants whose kernels are in the lab's own .cl file (not those of the earlier labs it runs)."""
        return [v for v in self.variants if not any(v.startswith(f"{u.split('/')[0]}-") for u in self.uses)]

    def files(self):
        """The .cl files of a submission, relative to labs/ and solutions/."""
        return [f"{self.name}/{self.cl}", *self.uses]


def solution_passes_everywhere(cl):
    """Every shape, border and channel count (1 and 3), each variant checked against the CPU
    reference with the kit's tolerance, the output poisoned first: all pass, on an OpenCL device.
    A shape's eight runs go through one process (--case-list, as the grader runs hidden cases):
    on NVIDIA's driver a process of its own cost each about 2.6 s (187 s for lab 11's 72 on an
    H200), where PoCL takes 0.2 s; how much of it is the OpenCL start is not yet measured."""
    failures, n = [], 0
    for shape in cl.shapes:
        with tempfile.TemporaryDirectory() as tmp:
            listed = []
            for border in BORDERS:
                for channels in (1, 3):
                    masks = cl.masks[n % len(cl.masks)]
                    n += 1
                    args = ["--size", shape, "--channels", str(channels), "--border", border, "--mask", masks, "--check-only",
                            "--format", "json"]
                    listed.append({"args": args, "log": os.path.join(tmp, f"case{len(listed)}")})
            with open(os.path.join(tmp, "cases.json"), "w") as f:
                json.dump({"cases": listed}, f)
            status, _, err = lab(f"{cl.name}-solution", "--case-list", os.path.join(tmp, "cases.json"))
            for case in listed:  # each case's own status, report and rows first: they say what went wrong
                args, log = case["args"], case["log"]
                if not os.path.exists(log + ".status"):
                    failures.append(f"{' '.join(args)}: not run (the list stopped before it: exit {status}; {err.strip()[-300:]})")
                    continue
                with open(log + ".status") as f, open(log + ".err") as e:
                    case_status, case_err = f.read().strip(), e.read().strip()
                if case_status != "0":
                    failures.append(f"{' '.join(args)}: exit status {case_status}: {case_err[-300:]}")
                if not os.path.getsize(log + ".json"):
                    if case_status == "0":
                        failures.append(f"{' '.join(args)}: no report written")
                    continue
                with open(log + ".json") as f:
                    doc = reports.load(f.read(), f"{cl.name}-solution")
                assert doc["device"] and doc["device"]["api"] == "OpenCL", doc["device"]
                rows = [r for r in doc["results"] if r["kind"] == "gpu"]
                count = len(args[args.index("--mask") + 1].split(","))
                assert sorted({r["variant"] for r in rows}) == sorted(cl.variants) and len(rows) == count * len(cl.variants), rows
                failures += [f"{' '.join(args)}: {r['variant']} {r['status']}: {r['message']}" for r in rows if r["status"] != "pass"]
            assert failures or status == 0, f"--case-list of {shape}: exit {status} with every case passed\n{err[-2000:]}"
    assert not failures, "\n".join(failures[:10])


def solution_is_timed_and_checked_again(cl):
    """A timed run: profiling events, warm-ups and a median, every GPU row passing after timing."""
    doc = lab_json(f"{cl.name}-solution", "--size", "67x41", "--mask", "random:5:3", "--border", "mirror", "--reps", "3", "--warmup", "1",
                   "--cpu-reps", "1")
    rows = [r for r in doc["results"] if r["kind"] == "gpu"]
    assert len(rows) == len(cl.variants), rows
    assert all(r["status"] == "pass" and r["time"]["samples"] == 3 and r["time"]["median_ms"] > 0 for r in rows), rows
    assert doc["device"]["platform"] and doc["device"]["driver_release"], doc["device"]
    # % copy against CUDA's basis (CopyBandwidthBasis); a --check-only run measures none (seconds on PoCL)
    assert doc["device"]["copy_bandwidth_gbs"] > 0 and all(r["pct_copy_bandwidth"] > 0 for r in rows), doc["device"]
    doc = lab_json(f"{cl.name}-solution", "--size", "67x41", "--mask", "random:5:3", "--check-only")
    assert doc["device"]["copy_bandwidth_gbs"] is None, doc["device"]


def skeleton_fails_cleanly(cl):
    """The untouched .cl builds, runs and fails the check: every variant's output left unwritten
    (NaN), exit 1, nothing on stderr."""
    status, out, err = lab(f"{cl.name}-student", "--size", "40x30", "--mask", "random:5:3", "--check-only", "--format", "json")
    assert status == 1 and not err.strip(), f"exit {status}\n{err}"
    rows = [r for r in json.loads(out)["results"] if r["kind"] == "gpu"]
    assert [r["variant"] for r in rows] == cl.variants, rows
    assert all(r["status"] == "fail" and r["check"]["unwritten"] == r["check"]["values"] for r in rows), rows


def cl_list_names_the_devices(cl):
    binary = f"{cl.name}-solution"
    status, out, err = lab(binary, "--cl-list")
    # the default is the first GPU, else device 0 (a GPU host lists PoCL's CPU device first)
    assert status == 0 and re.search(r"^  \d+  .+; platform .+; driver .+\[the default\]$", out, re.M), out + err
    status, out, err = lab(binary, "--cl-device", "0", "--size", "9x5", "--mask", "random:3:1", "--check-only")
    assert status == 0 and "GPU      OpenCL: " in out and "driver" in out, out + err
    status, out, err = lab(binary, "--cl-device", "no-such-device", "--size", "9x5", "--check-only")
    assert status == 2 and len(err.strip().splitlines()) == 1 and "--cl-device 'no-such-device'" in err, f"exit {status}: {err}"


def without_an_opencl_device_says_skipped(cl):
    """No OpenCL platform (the ICD loader pointed at an empty folder): one line, exit status 3, the
    CPU part still run, as a CUDA lab without a GPU."""
    with tempfile.TemporaryDirectory() as empty:
        env = dict(os.environ, OCL_ICD_VENDORS=empty)
        status, out, err = lab(f"{cl.name}-solution", "--size", "20x10", "--mask", "random:3:1", "--cpu-reps", "1", env=env)
        assert status == 3, f"exit {status}: {err}"
        lines = [line for line in err.splitlines() if line.strip()]
        assert len(lines) == 1 and "GPU variants skipped: no OpenCL platform found" in lines[0], err
        assert "openmp-reference" in out, out
        status, out, err = lab(f"{cl.name}-solution", "--cl-list", env=env)
        assert status == 3 and len(err.strip().splitlines()) == 1, f"exit {status}: {err}"


def compile_error_is_one_line(cl, todo, broken_variants):
    """A .cl that does not compile: one line on stderr, the file and line of the first error first,
    every variant of the file an error in the table, exit 1. Read from a copy (CONVLAB_CL_DIR), so
    the tree's files stay as they are; the other .cl files the lab reads are copied beside it."""
    with tempfile.TemporaryDirectory() as tmp:
        for f in cl.files():
            shutil.copy(os.path.join(ROOT, "labs", f), tmp)
        path = os.path.join(tmp, cl.cl)
        with open(path) as f:
            lines = f.read().split("\n")
        broken = next(n for n, line in enumerate(lines) if f"TODO({cl.name}) {todo}" in line)
        lines.insert(broken, "    int missing = ;")
        with open(path, "w") as f:
            f.write("\n".join(lines))
        status, out, err = lab(f"{cl.name}-student", "--size", "20x10", "--mask", "random:3:1", "--check-only",
                               env=dict(os.environ, CONVLAB_CL_DIR=tmp))
    assert status == 1, f"exit {status}: {err}"
    said = err.strip().splitlines()
    assert len(said) == 1 and re.search(rf"{re.escape(cl.cl)}:{broken + 1}:\d+: .*expected expression", said[0]), err
    assert sum(f"{v}: error: " in out for v in cl.variants) == len(broken_variants), out
    assert all(f"{v}: error: " in out for v in broken_variants), out


def include_is_refused(cl):
    """A .cl that is one #include of the reference solution's kernel, by its absolute path (which
    the OpenCL compiler would follow and pass every check with): the kit refuses it before the
    compiler sees it (cl_source_rules.hpp), one line naming the file, its line and #include, each
    variant of the file an error that says so, exit 1. Read from a copy (CONVLAB_CL_DIR), the other .cl files
    the lab reads copied beside it."""
    with tempfile.TemporaryDirectory() as tmp:
        for f in cl.files():
            shutil.copy(os.path.join(ROOT, "labs", f), tmp)
        with open(os.path.join(tmp, cl.cl), "w") as f:
            f.write(f"// the solution, by its path in the kit\n#\\\ninclude \"{os.path.join(ROOT, 'solutions', cl.name, cl.cl)}\"\n")
        status, out, err = lab(f"{cl.name}-student", "--size", "20x10", "--mask", "random:3:1", "--check-only",
                               env=dict(os.environ, CONVLAB_CL_DIR=tmp))
    said = err.strip().splitlines()
    assert status == 1, f"exit {status}: {err}"
    assert len(said) == 1 and re.search(rf"error: \S*{re.escape(cl.cl)}:2: #include is not allowed", said[0]), err
    refused = [v for v in cl.variants if re.search(rf"^{re.escape(v)}: error: \S*{re.escape(cl.cl)}:2: #include", out, re.M)]
    assert refused == cl.own_variants(), out


def graded_build_runs_the_submissions_cl(cl):
    """The grader builds a submission in a copy of a template it built first (grading/convlab_grader/
    build.py): the copy's graded program must run the submission's .cl files, not the template's,
    nor whatever CONVLAB_CL_DIR names. Here the template is this tree (its skeletons, which fail),
    the submission the solution's .cl files; its results must pass the trusted compare, with the
    .cl files gone from the copy and CONVLAB_CL_DIR naming the skeletons when the program runs."""
    case = ["--size", "29x17", "--image", "random", "--mask", "random:5:3", "--border", "mirror", "--check-only"]
    with tempfile.TemporaryDirectory() as tmp:
        kit = os.path.join(tmp, "kit")
        os.mkdir(kit)
        for part in ("Makefile", "common", "labs"):  # as make_template copies the kit
            source = os.path.join(ROOT, part)
            (shutil.copytree if os.path.isdir(source) else shutil.copy2)(source, os.path.join(kit, part))
        # and build_submission the template's build, whose objects stay up to date (the programs are relinked)
        shutil.copytree(os.path.join(ROOT, "build"), os.path.join(kit, "build"), ignore=lambda d, _: ["bin"] if d.endswith("build") else [])
        submitted = [os.path.join(kit, "labs", f) for f in cl.files()]
        for f, to in zip(cl.files(), submitted):
            shutil.copyfile(os.path.join(ROOT, "solutions", f), to)
            os.utime(to)
        status, out, err = run(["make", "--no-print-directory", f"build/bin/{cl.name}-graded"], cwd=kit, timeout=900)
        assert status == 0, (out + err)[-3000:]
        skeletons = os.path.join(tmp, "skeletons")
        os.mkdir(skeletons)
        for f in cl.files():
            shutil.copy(os.path.join(ROOT, "labs", f), skeletons)
        for to in submitted:
            os.remove(to)
        raw = os.path.join(tmp, "raw")
        os.mkdir(raw)
        env = dict(os.environ, CONVLAB_CL_DIR=skeletons)
        status, out, err = run([os.path.join(kit, "build", "bin", f"{cl.name}-graded"), *case, "--raw-out", raw, "--format", "json"], env=env)
        assert status == 0, f"exit {status}\n{err}"
        doc = lab_json(f"{cl.name}-solution", *case, "--compare", raw)
        rows = [(r["variant"], r["status"]) for r in doc["results"] if r["kind"] == "submitted"]
        assert rows == [(v, "pass") for v in cl.variants], rows


def oversized_work_groups_are_skipped_rows(cl, limits):
    """A work-group larger than the device or the kernel takes is a skipped row that names the
    limit, not an error out of clEnqueueNDRangeKernel. PoCL lowers its limits to 128 work-items
    on request: a 16x16 group passes CL_DEVICE_MAX_WORK_ITEM_SIZES (16 <= 128) and exceeds the
    kernel's CL_KERNEL_WORK_GROUP_SIZE; a 1-D group of 256 exceeds the widest dimension.
    A variant given no work-group size runs: the driver picks one it takes.
    limits: each variant -> the limit its message names."""
    env = dict(os.environ, POCL_MAX_WORK_GROUP_SIZE="128")
    listed = lab(f"{cl.name}-solution", "--cl-list", env=env)[1]
    if not re.search(r"platform Portable Computing Language.*\[the default\]$", listed, re.M):
        raise Skip("the default OpenCL device is not PoCL's, which alone takes POCL_MAX_WORK_GROUP_SIZE")
    doc = lab_json(f"{cl.name}-solution", "--size", "40x30", "--mask", "random:3:1", "--check-only", env=env)
    rows = {r["variant"]: r for r in doc["results"] if r["kind"] == "gpu"}
    assert sorted(rows) == sorted(cl.variants), rows
    assert all(r["status"] == "skipped" for v, r in rows.items() if v not in cl.driver_chooses), rows
    assert all(rows[v]["status"] == "pass" for v in cl.driver_chooses), rows  # the driver picks a shape within the limits
    for variant, limit in limits.items():
        assert limit in rows[variant]["message"], rows[variant]
    assert all("\n" not in r["message"] for r in rows.values()), rows


def skeleton_and_solution_have_one_shape(cl):
    """The skeleton's TODOs are numbered 1, 2, ... in file order, and the solution defines every
    function the skeleton does, written out by name as the TODOs describe (no macro that makes
    them, only the tunables the skeleton gives too), in the same order."""
    def read(*parts):
        with open(os.path.join(ROOT, *parts)) as f:
            return f.read()
    skeleton, solution = read("labs", cl.name, cl.cl), read("solutions", cl.name, cl.cl)
    numbers = [int(n) for n in re.findall(rf"TODO\({cl.name}\) (\d+):", skeleton)]
    assert numbers and numbers == list(range(1, len(numbers) + 1)), f"TODO numbers in file order: {numbers}"
    defined = re.compile(r"^(?:kernel )?void (\w+)\(", re.M)
    assert defined.findall(solution) == defined.findall(skeleton), (defined.findall(solution), defined.findall(skeleton))
    macros = re.findall(r"^#define (\w+)", solution, re.M)
    assert sorted(macros) == sorted(cl.macros), f"the solution's macros {macros}; allowed: {list(cl.macros)}"


def cli_tests(cl, compile_error, work_group_limits):
    """The tests above, named for lab cl.n; compile_error: (the TODO the error goes in front of, the
    variants it breaks)."""
    name = cl.name
    return [
        (f"{name} (OpenCL, PoCL): the solution passes at awkward shapes, every border, 1 and 3 channels", solution_passes_everywhere, cl),
        (f"{name} (OpenCL, PoCL): a timed run by profiling events, checked again after timing", solution_is_timed_and_checked_again, cl),
        (f"{name} (OpenCL, PoCL): the untouched skeleton builds, runs and fails the check", skeleton_fails_cleanly, cl),
        (f"{name} (OpenCL): --cl-list and --cl-device", cl_list_names_the_devices, cl),
        (f"{name} (OpenCL): without an OpenCL device, one line and exit status 3", without_an_opencl_device_says_skipped, cl),
        (f"{name} (OpenCL): a compile error in the .cl is one line with its file and line", compile_error_is_one_line, cl, *compile_error),
        (f"{name} (OpenCL): a .cl that #includes the solution is refused in one line, before the compiler", include_is_refused, cl),
        (f"{name} (OpenCL, PoCL): the graded build of a submission runs the submission's .cl", graded_build_runs_the_submissions_cl, cl),
        (f"{name}: the skeleton's TODOs in order; the solution defines its functions by name, as they describe",
         skeleton_and_solution_have_one_shape, cl),
        (f"{name} (OpenCL, PoCL): a work-group larger than the device or kernel takes is a skipped row",
         oversized_work_groups_are_skipped_rows, cl, work_group_limits),
    ]


def default_device_is_a_gpu(cl):
    """Whether the lab's default OpenCL device is a GPU (--cl-list marks it "[the default]")."""
    status, out, _ = lab(f"{cl.name}-solution", "--cl-list")
    return status == 0 and any("(GPU)" in line and "[the default]" in line for line in out.splitlines())


def on_the_gpus_driver(cl, fn):
    """fn, run only where lab cl's default OpenCL device is a GPU (make test-gpu on an NVIDIA host
    runs the OpenCL labs' tests on NVIDIA's driver; make test runs them on PoCL). fn takes the
    test's own arguments (a lab's own tests may take none)."""
    def run_on_gpu(*args):
        if not default_device_is_a_gpu(cl):
            raise Skip("the default OpenCL device is not a GPU (--cl-list); make test runs this on PoCL")
        return fn(*args)
    return run_on_gpu


def reference_graded_on_the_gpu(cl):
    """The reference solution graded as a submission (grading/grade, jailed as any submission, its
    hidden cases several to a process) on the GPU's OpenCL driver: every hidden case passes. The
    safety runs need oclgrind, which a GPU host may lack: not made here (make test's batch runs them)."""
    import grader_tests
    from convlab_grader import spec as specs
    with tempfile.TemporaryDirectory() as tmp:
        batch = os.path.join(tmp, "batch")
        grader_tests.make_batch(cl.n, [], batch, True)
        results = grader_tests.grade_folder(cl.n, batch, os.path.join(tmp, "grading"), ["--no-sanitizer"])
    reference, rubric = results["reference-solution"], specs.load(cl.n)["rubric"]
    assert reference["scores"]["correctness"] == rubric["correctness"], json.dumps(reference["variants"])[:3000]
    assert results["untouched-skeleton"]["scores"]["correctness"] == 0, results["untouched-skeleton"]["scores"]


def gpu_tests(cl, cli):
    """The OpenCL lab's tests (cli: its cli_tests) again under make test-gpu, on the GPU's OpenCL
    driver when it is the default device (skipped otherwise), and its reference graded there."""
    found = [(f"{cl.name} GPU (OpenCL, the GPU's driver): {name.split(': ', 1)[1]}", on_the_gpus_driver(cl, fn), *args, False)
             for name, fn, *args in cli if "(OpenCL" in name]  # not the tests of the files' text alone
    found.append((f"{cl.name} GPU (OpenCL, the GPU's driver): the reference solution graded, every hidden case passes",
                  on_the_gpus_driver(cl, reference_graded_on_the_gpu), cl, True))
    return found
