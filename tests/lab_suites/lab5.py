"""Lab 5's own tests. Its part of the GPU suite: every variant checked at several array lengths
(odd, prime, smaller than a warp), a full-size run whose sweeps must show the effects the
handout explains, Google Benchmark's JSON, the skeleton failing cleanly, compute-sanitizer; its
command line (--help, bad input, no GPU). Its grading cases: grading/cases/lab5.json and
grading/known-bad/lab5.json."""
import json
import os
import re
import subprocess
import tempfile
import time

from cli_tests import refusal_problems
from testkit import ROOT, Skip, gpu_available, lab, peer_timed, sanitizer_clean

SIZES = ["1", "3", "31", "1000", "1000003"]
EXPERIMENTS = ["memory", "stride", "offset", "neighbours", "direction", "paths", "blocks", "blocksize", "banks"]
# What the untouched skeleton must report as not implemented: every TODO of lab 5.
TODO_FUNCTIONS = ["launch_swap_read_swapped", "launch_swap_read_only", "launch_neighbours_read_only",
                  "launch_neighbours_clamped", "launch_direction_branch_free", "launch_add_one_tuned",
                  "launch_shared_stride_padded"]


def medians(doc):
    """Median time in ms of each benchmark, keyed 'experiment/variant', from Google Benchmark's JSON."""
    found = {}
    for b in doc["benchmarks"]:
        if b.get("aggregate_name") == "median":
            found[b["run_name"].split("/iterations")[0]] = b["real_time"]
    return found


def errors(doc):
    return [f"{b['name']}: {b.get('error_message', '')}" for b in doc["benchmarks"] if b.get("error_occurred")]


def every_variant_passes(elements):
    status, out, err = lab("lab5-solution", "--elements", elements, "--reps", "2", "--warmup", "0", "--benchmark_format=json")
    assert status == 0, f"exit {status}\n{err[-3000:]}"
    doc = json.loads(out)
    assert not errors(doc), errors(doc)
    seen = {name.split("/")[0] for name in medians(doc)}
    assert seen == set(EXPERIMENTS), seen
    assert "FAIL" not in err and "PASS" in err, err[-2000:]


def full_size_run_shows_the_effects():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "lab5.json")
        status, out, err = lab("lab5-solution", "--reps", "5", f"--benchmark_out={path}", "--benchmark_out_format=json",
                               timeout=900)
        assert status == 0, f"exit {status}\n{(out + err)[-3000:]}"
        with open(path) as f:
            doc = json.load(f)
    for title in ("1. Memory access", "1s. Strided copy", "2. Divergence and memory", "3s. Divergence sweep",
                  "4s. Block size sweep", "5. Shared-memory bank conflicts", "% copy", "% shared peak", "% FP32 peak"):
        assert title in out, f"{title!r} missing from the summary\n{out[:3000]}"
    t = medians(doc)
    assert len(t) >= 50, sorted(t)
    # Each sweep must show its effect clearly; the factors are far inside what an H100 measures.
    checks = [
        ("stride 32 moves a sector per float", t["stride/stride 32"] > t["stride/stride 1"] / 8),
        ("32 paths in a warp serialise", t["paths/32 paths in a warp"] > 8 * t["paths/32 paths, by warp"]),
        ("5 threads per block starve the SMs", t["blocks/A 5 threads/block"] > 3 * t["blocks/B yours"]),
        ("stride 32 is a 32-way bank conflict", t["banks/A stride 32"] > 8 * t["banks/B padded stride 32"]),
        ("padding costs nothing at stride 1", t["banks/B padded stride 1"] < 1.3 * t["banks/A stride 1"]),
    ]
    wrong = [name for name, ok in checks if not ok]
    assert not wrong, f"{wrong}: {t}"


def skeleton_fails_cleanly():
    status, out, err = lab("lab5-student", "--elements", "1000", "--reps", "1", "--warmup", "0")
    assert status == 1, f"exit {status}, expected 1\n{err[-2000:]}"
    missing = [f for f in TODO_FUNCTIONS if f"not implemented yet: {f}" not in out]
    assert not missing, f"{missing} not reported\n{out[-3000:]}"
    for given in ("A write-swapped", "A if-else", "A nested-ifs", "A 5 threads/block", "A stride 32"):
        row = [line for line in out.splitlines() if line.startswith(given + " ")]
        assert row and "PASS" in row[0], f"given variant {given}: {row}"


def grading_modes():
    """What the grader runs: --check-only --raw-out writes every variant's bytes, --compare (a
    separate run, no kernel) passes them and fails a stray, a changed, a short or another seed's file;
    the timed run's --format json gives each selected variant's median."""
    args = ["--elements", "1003", "--seed", "77"]
    with tempfile.TemporaryDirectory() as tmp:
        status, out, err = lab("lab5-solution", *args, "--check-only", "--raw-out", tmp, "--format", "json")
        assert status == 0, f"exit {status}\n{err[-2000:]}"
        doc = json.loads(out)
        assert doc["schema"] == "convlab.report/2" and doc["lab"] == 5 and doc["input"]["elements"] == 1003, doc["input"]
        ran = doc["results"]
        assert ran and all(r["status"] == "pass" and r["kind"] == "gpu" for r in ran), ran
        assert len(os.listdir(tmp)) == len(ran), sorted(os.listdir(tmp))
        status, out, err = lab("lab5-solution", *args, "--compare", tmp, "--format", "json")
        checked = json.loads(out)["results"]
        assert status == 0 and len(checked) == len(ran) and all(r["status"] == "pass" and r["kind"] == "submitted" for r in checked), \
            (status, checked, err)
        # A file no result is named by fails under its whole file name, never a result's (add_stray_rows)
        stray = os.path.join(tmp, "memory_B_read-swapped-copy.f32")
        with open(stray, "wb") as f:
            f.write(b"\0" * 16)
        status, out, err = lab("lab5-solution", *args, "--compare", tmp, "--format", "json")
        rows = json.loads(out)["results"]
        strays = [(r["variant"], r["status"], r["message"]) for r in rows if r["variant"].endswith(".f32")]
        assert status == 1 and len(rows) == len(ran) + 1 and \
            strays == [("memory_B_read-swapped-copy.f32", "fail", "no result of this lab has this file's name")], (status, strays, err)
        os.remove(stray)
        swapped = os.path.join(tmp, "memory_B_read-swapped.f32")
        with open(swapped, "r+b") as f:
            f.seek(4 * 500)
            f.write(b"\x00\x00\x80\x3d")  # 0.0625f: the inputs are multiples of 1/8, so no swap gives it
        with open(os.path.join(tmp, "direction_B_branch-free.f32"), "r+b") as f:
            f.truncate(4 * 1000)
        status, out, err = lab("lab5-solution", *args, "--compare", tmp, "--format", "json")
        verdicts = {r["variant"]: r for r in json.loads(out)["results"]}
        assert status == 1, (status, err)
        # Named by the variant each file holds, not by the file (common/grading/raw_check.hpp)
        assert verdicts["memory/B read-swapped"]["status"] == "fail", verdicts
        assert "bytes; expected" in verdicts["direction/B branch-free"]["message"], verdicts["direction/B branch-free"]
        other_seed = ["--elements", "1003", "--seed", "78", "--compare", tmp, "--format", "json"]
        status, out, err = lab("lab5-solution", *other_seed)
        assert status == 1 and json.loads(out)["results"][0]["status"] == "fail", (status, out[:500])
    status, out, err = lab("lab5-solution", "--elements", "100000", "--variant", "memory/B read-swapped,banks/B padded stride 32",
                           "--reps", "3", "--format", "json")
    timed = json.loads(out)["results"]
    assert status == 0 and [r["variant"] for r in timed] == ["memory/B read-swapped", "banks/B padded stride 32"], (status, timed, err)
    assert all(r["status"] == "pass" and r["time"]["median_ms"] > 0 for r in timed), timed


def peer_timing():
    """Peer timing (common/families/arrays/array_peer.hpp): the solution, timed by the reference build in another
    process on the timer's arrays, a fresh input each repetition, passes every repetition's spot
    check (float and int outputs, a sweep that leaves elements unwritten, shared memory) and the
    last one's full check; the timer's clock is never shorter than the program's own events; the
    skeleton's own variants come back not implemented while a given one passes."""
    timed = ["memory/B read-swapped", "direction/B branch-free", "stride/stride 4", "banks/B padded stride 32", "blocks/B yours"]
    args = ["--elements", "100003", "--seed", "9", "--variant", ",".join(timed), "--warmup", "1", "--reps", "5", "--format", "json"]
    doc, worker = peer_timed("lab5-solution", "lab5-solution", args)
    assert worker == 0, f"the timed program exited {worker}"
    results = {r["variant"]: r for r in doc["results"]}
    assert sorted(results) == sorted(timed), sorted(results)
    for name, r in results.items():
        assert r["status"] == "pass", (name, r["status"], r.get("message"))
        assert r["spot_checks"]["runs"] == 6 and r["spot_checks"]["failed_runs"] == 0, (name, r["spot_checks"])
        assert r["peer_time"]["samples"] == 5 and r["peer_time"]["median_ms"] >= r["time"]["median_ms"], (name, r["peer_time"], r["time"])
    doc, _ = peer_timed("lab5-solution", "lab5-student", ["--elements", "4099", "--variant", "memory/A write-swapped,memory/B read-swapped",
                                                          "--warmup", "0", "--reps", "2", "--format", "json"])
    status = {r["variant"]: r["status"] for r in doc["results"]}
    assert status == {"memory/A write-swapped": "pass", "memory/B read-swapped": "not-implemented"}, status


def sanitizer(tool):
    args = ["--elements", "100003", "--reps", "1", "--warmup", "0", "--no-flush"]
    if tool == "racecheck":
        # The kernels with shared memory, at a length that still spans many blocks: racecheck
        # tracks every shared-memory access and took 213 s at 100003 elements on an H100.
        args = ["--elements", "8191", "--reps", "1", "--warmup", "0", "--no-flush", "--experiment", "banks"]
    sanitizer_clean(tool, [os.path.join(ROOT, "build", "bin", "lab5-solution"), *args])


def progress_on_a_terminal():
    """Lab 5 shows its progress like every lab: one line on a terminal, each benchmark k of n (the
    ones --benchmark_filter selects), cleared at the end; nothing on stderr where it is a pipe."""
    from cli_tests import run_with_stderr_on_a_terminal
    # Progress shows only once a run has lasted a second (common/report/progress.cpp), so the run
    # must last a few: on an H100, 1000 repetitions at 4 million elements took 1.66 s once the checks
    # were made faster, so the repetitions grow until a run lasts over 2 s (whatever the GPU).
    for reps in (1000, 4000, 16000):
        args = [os.path.join(ROOT, "build", "bin", "lab5-solution"), "--elements", "4000037", "--reps", str(reps),
                "--benchmark_filter=^(stride|offset)/", "--format", "json"]
        started = time.monotonic()
        status, out, shown = run_with_stderr_on_a_terminal(args)
        took = time.monotonic() - started
        assert status == 0, f"exit status {status}; stdout {out[-1500:]!r}; terminal {shown[-1500:]!r}"
        if took > 2:
            break
    assert took > 2, f"the run took {took:.2f} s with --reps {reps}, too short to show progress: the test must make it longer"
    # names have spaces ("stride/stride 4"); the banks experiment's "A stride 32" is not selected
    steps = re.findall(r"\r\x1b\[Klab5: ([^\r]+?) \((\d+) of (\d+)\), \d+ s so far", shown)
    assert steps and all(re.match(r"(stride|offset)/", name) for name, _, _ in steps), repr(shown[-2000:])
    assert all(int(total) == int(steps[0][2]) for _, _, total in steps), repr(shown[-2000:])
    assert int(steps[-1][1]) == int(steps[-1][2]), f"the last step is not n of n: {steps[-1]}"
    assert shown.endswith("\r\x1b[K"), repr(shown[-80:])
    piped_status, piped_out, piped_err = lab("lab5-solution", *args[1:])
    assert piped_status == 0 and piped_err == "", repr(piped_err[-500:])
    assert json.loads(out)["results"] and json.loads(piped_out)["results"]


def demo_run():
    """--demo: every experiment on arrays a quarter of the default's (the header says so), each
    variant timed 5 times after one warm-up, the report saved in demo-output/lab5/report.json (the
    run's folder), every variant passing; --elements and --reps given are its own."""
    binary = os.path.join(ROOT, "build", "bin", "lab5-solution")
    with tempfile.TemporaryDirectory() as tmp:
        started = time.time()
        done = subprocess.run([binary, "--demo"], cwd=tmp, capture_output=True, text=True, timeout=300)
        seconds = time.time() - started
        assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
        with open(os.path.join(tmp, "demo-output", "lab5", "report.json")) as f:
            doc = json.load(f)
        assert doc["timing"]["reps"] == 5 and doc["timing"]["warmup"] == 1, doc["timing"]
        assert "4x shorter than the default" in done.stdout + done.stderr, (done.stdout + done.stderr)[:2000]
        assert doc["results"] and all(r["status"] == "pass" for r in doc["results"]), \
            [(r["variant"], r["status"]) for r in doc["results"] if r["status"] != "pass"]
        print(f"    lab 5 --demo: {seconds:.1f} s, arrays of {doc['input']['elements']} floats", flush=True)
        done = subprocess.run([binary, "--demo", "--experiment", "banks", "--elements", "100000", "--reps", "3", "--format", "json"],
                              cwd=tmp, capture_output=True, text=True, timeout=300)
        with open(os.path.join(tmp, "demo-output", "lab5", "report.json")) as f:
            doc = json.load(f)
        assert done.returncode == 0 and doc["input"]["elements"] == 100000 and doc["timing"]["reps"] == 3, (done.stderr[-1000:], doc["timing"])


def gpu_tests():
    """As gpu_suite.tests: (name, fn, *args, alone)."""
    found = [(f"lab5 GPU: every variant passes at --elements {n}", every_variant_passes, n, False) for n in SIZES]
    found += [
        ("lab5 GPU: full-size run, Google Benchmark JSON, every sweep shows its effect", full_size_run_shows_the_effects, True),
        ("lab5 GPU: untouched skeleton reports every TODO not implemented, the given variants pass", skeleton_fails_cleanly, False),
        ("lab5 GPU: the grader's modes: raw results, the trusted compare, the timed JSON", grading_modes, False),
        ("lab5 GPU: peer timing: timed by the reference build in another process, fresh inputs, checked there", peer_timing, True),
        ("lab5 GPU: progress on a terminal, k of n of the benchmarks selected; nothing on a piped stderr", progress_on_a_terminal,
         True),
        ("lab5 GPU: compute-sanitizer memcheck finds nothing", sanitizer, "memcheck", False),
        ("lab5 GPU: compute-sanitizer racecheck finds nothing", sanitizer, "racecheck", False),
        ("lab5 GPU: --demo: every experiment on shorter arrays, 5 timed runs a variant, its report saved", demo_run, True),
    ]
    return found


def lab5_help():
    status, out, _ = lab("lab5-solution", "--help")
    assert status == 0 and "Exit status" in out and "--experiment" in out and "--benchmark_format" in out and "--demo" in out, out


def lab5_help_wraps_between_words():
    """cxxopts wraps long descriptions at spaces only: a list without them was cut inside a word."""
    status, out, _ = lab("lab5-solution", "--help")
    assert status == 0, status
    words = set(out.replace(",", " ").split())
    keys = ["memory", "stride", "offset", "neighbours", "direction", "paths", "blocks", "blocksize", "banks"]
    cut = [k for k in keys if k not in words]
    assert not cut, f"experiments cut or missing in --help: {cut}\n{out}"


LAB5_BAD_INPUT = {
    "zero elements": (["--elements", "0"], "1 to 2000000000"),
    "elements not a number": (["--elements", "lots"], "not a whole number"),
    "unknown experiment": (["--experiment", "memory,warp-drive"], "accepted: memory,"),
    "unknown option": (["--frobnicate"], "unknown option --frobnicate; run ./lab5 --help"),
    "option without its value": (["--elements"], "--elements needs a value"),
    "bad summary format": (["--format", "xml"], "accepted: text, md, json"),
    "negative seed": (["--seed", "-3"], "is negative"),
    "compare writing raw results": (["--compare", "/tmp", "--raw-out", "/tmp"], "drop --raw-out"),
    "bad Google Benchmark format": (["--benchmark_format=xml"], "accepted: console, json, csv"),
    "zero reps": (["--reps", "0"], "1 to 100000"),
    "unknown variant": (["--variant", "memory/nosuch"], "--variant 'memory/nosuch' is not a variant"),
    "a variant of an experiment not run": (["--experiment", "banks", "--variant", "memory/B read-swapped"], "is not a variant"),
}


def lab5_bad_input_is_one_line():
    failures = [f"{name}: " + "; ".join(problems) for name, (args, expected) in LAB5_BAD_INPUT.items()
                if (problems := refusal_problems("lab5-solution", args, expected))]
    assert not failures, "\n".join(failures)


def lab5_without_gpu_says_skipped():
    if gpu_available():
        raise Skip("this machine has a GPU")
    for flavour in ("solution", "student"):
        status, out, err = lab(f"lab5-{flavour}", "--elements", "1000")
        lines = [l for l in err.splitlines() if l.strip()]
        assert status == 3 and len(lines) == 1 and "skipped" in lines[0] and not out.strip(), (flavour, status, out, err)


def cli_tests():
    """As cli_tests.register runs them: (name, fn, *args)."""
    return [
        ("lab5: --help lists the experiments, Google Benchmark's flags and exit statuses", lab5_help),
        (f"lab5: bad input: one line, exit 2 ({len(LAB5_BAD_INPUT)} cases)", lab5_bad_input_is_one_line),
        ("lab5: --help wraps between words", lab5_help_wraps_between_words),
        ("lab5: without a GPU, one line and exit status 3", lab5_without_gpu_says_skipped),
    ]
