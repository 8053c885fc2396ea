#!/usr/bin/env python3
"""convlab's test command (make test): unit tests of common/, a build of every lab and solution,
the labs' command-line behaviour, make report's pages and plots, a private Slurm cluster
(tests/slurm_cluster.py), and, on a machine with a GPU, the GPU suite. Ends with one line
'N passed, N failed, N skipped'. With --gpu-only (make test-gpu): the GPU suite alone, which
fails when there is no GPU."""
import argparse
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import batch_resume_tests  # noqa: E402
import cli_tests  # noqa: E402
import dist_tests  # noqa: E402
import gpu_suite  # noqa: E402
import grader_gpus_tests  # noqa: E402
import grader_spread  # noqa: E402
import grader_tests  # noqa: E402
import layout_tests  # noqa: E402
import manifest_tests  # noqa: E402
import report_tests  # noqa: E402
import case_list_tests  # noqa: E402
import sanitizer_tools_tests  # noqa: E402
import slurm_grading_tests  # noqa: E402
import slurm_tests  # noqa: E402
from testkit import ROOT, Results, gpu_available, labs, main_exit, make, run  # noqa: E402


def unit_tests(results):
    """Runs the GoogleTest binary and records each of its tests as one result."""
    try:
        make("build/bin/unit_tests")
    except AssertionError as why:
        results.record("unit tests: build", "fail", str(why))
        return
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "gtest.json")
        status, out, err = run([os.path.join(ROOT, "build", "bin", "unit_tests"), f"--gtest_output=json:{report}"])
        if not os.path.exists(report):
            results.record("unit tests", "fail", f"the test binary died (exit {status}):\n{(out + err)[-3000:]}")
            return
        with open(report) as f:
            doc = json.load(f)
    for suite in doc["testsuites"]:
        for case in suite["testsuite"]:
            name = f"unit: {suite['name']}.{case['name']}"
            if case.get("result") == "SKIPPED":
                results.record(name, "skip", "skipped by the test")
            elif case.get("failures"):
                results.record(name, "fail", "\n".join(f["failure"] for f in case["failures"]))
            else:
                results.record(name, "pass")


def builds(results):
    targets = [f"build/bin/lab{n}-{flavour}" for n in labs() for flavour in ("student", "solution", "graded")]
    try:  # one make for all of them, so every core compiles; a failure is reported per target below
        make(*targets, keep_going=True)
    except AssertionError:
        pass
    for target in targets:
        results.run(f"build: {os.path.basename(target).replace('-', ' ')}", make, target)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--gpu-only", action="store_true", help="the GPU suite alone; fails without a GPU")
    parser.add_argument("--grader-gpu", action="store_true", help="the grader's GPU self-test alone (make test-grader-gpu)")
    parser.add_argument("--lab", type=int, action="append",
                        help="with --grader-gpu: this lab's batch only; with --gpu-only: this lab's GPU tests only (repeatable)")
    parser.add_argument("--part", default="1/1", help="with --grader-gpu: I/N grades the I-th of N slices of each batch's known-bad "
                                                         "set, 0/N the solution and the skeleton alone; with --gpu-only: every N-th GPU test from "
                                                         "the I-th on")
    parser.add_argument("--only", help="with --grader-gpu: these known-bad submissions alone (comma-separated names), with the "
                                       "solution and the skeleton")
    parser.add_argument("--gpus", help="with --grader-gpu: every batch in pieces spread over these GPUs, one worker a GPU: all, "
                                       "a count, or a list such as 0,2 (grader_spread.py); not with --part or --only")
    parser.add_argument("--slice", type=int, default=grader_spread.SLICE,
                        help=f"with --gpus: the most known-bad submissions a piece (default {grader_spread.SLICE}; fewer for machines "
                             "lent in short slots: a lab 9 entry takes minutes)")
    args = parser.parse_args()
    results = Results()
    try:
        part = tuple(int(x) for x in args.part.split("/"))
        assert len(part) == 2 and 0 <= part[0] <= part[1] and (part[0] or part[1] > 1)
    except (ValueError, AssertionError):
        parser.error(f"--part {args.part}: expected I/N with 0 <= I <= N (0: the solution and the skeleton alone, N > 1)")
    if args.grader_gpu:
        if grader_tests.batches_need_a_gpu(args.lab) and not gpu_available():
            results.record("grader GPU self-test", "fail", "no usable CUDA device")
            main_exit(results)
        if args.gpus:
            if args.part != "1/1" or args.only:
                parser.error("--gpus cuts the batches itself: drop --part and --only")
            if args.slice < 1:
                parser.error(f"--slice {args.slice}: accepted: 1 or more known-bad submissions a piece")
            grader_spread.register(results, args.lab, args.gpus, args.slice)
        else:
            grader_tests.register_gpu(results, args.lab, part, args.only.split(",") if args.only else None)
        main_exit(results)
    if args.gpu_only:
        if part[0] == 0:
            parser.error(f"--part {args.part}: with --gpu-only, I/N with 1 <= I <= N")
        builds(results)
        if not gpu_available():
            results.record("GPU suite", "fail", "no usable CUDA device: make test-gpu needs a GPU (make test runs the rest)")
            main_exit(results)
        if not args.lab and part[0] == 1:  # the sweeps once, in the first piece
            cli_tests.register_solution_sweeps(results)
        gpu_suite.register(results, args.lab or labs(), part)
        main_exit(results)

    unit_tests(results)
    builds(results)
    layout_tests.register(results)
    cli_tests.register(results, labs())
    dist_tests.register(results)
    manifest_tests.register(results)
    report_tests.register(results)
    grader_tests.register(results)
    case_list_tests.register(results)
    sanitizer_tools_tests.register(results)
    grader_gpus_tests.register(results)
    slurm_tests.register(results)
    slurm_grading_tests.register(results)
    batch_resume_tests.register(results)
    try:
        has_gpu = gpu_available()
    except AssertionError as why:
        results.record("GPU probe", "fail", str(why))
        has_gpu = False
    if has_gpu:
        gpu_suite.register(results, labs())
    else:
        results.skip_all(gpu_suite.names(labs()), "no GPU on this machine")
    main_exit(results)


if __name__ == "__main__":
    main()
