"""grading/grade: the command line."""
import argparse
import collections
import csv
import os
import secrets
import shutil
import sys
import time

from . import batch_state, gpu_pool, local_batch, sandbox, slurm, spec as specs
from .batch_outputs import OUTPUTS, notes_of, write_outputs
from .grader import build_reference_solution, safe_name


def submissions_from(paths, roster, lab_spec):
    """(name, path) pairs: each path is a submission, or a folder of them (a batch)."""
    found = []
    if roster:
        with open(roster, newline="") as f:
            for row in csv.DictReader(f):
                found.append((row["student"], os.path.join(os.path.dirname(os.path.abspath(roster)), row["path"])))
    for path in paths:
        if not os.path.exists(path):
            raise SystemExit(f"grade: error: {path} does not exist")
        if os.path.isdir(path) and is_batch(path, lab_spec):
            for entry in sorted(os.listdir(path)):
                if not entry.startswith("."):
                    found.append((student_name(entry), os.path.join(path, entry)))
        else:
            found.append((student_name(os.path.basename(os.path.normpath(path))), path))
    return found


def student_name(entry):
    """alice.smith.tar.gz -> alice.smith: the entry's name without an archive suffix."""
    for suffix in (".tar.gz", ".tgz", ".tar", ".zip"):
        if entry.endswith(suffix):
            return entry[: -len(suffix)]
    return entry


def is_batch(folder, lab_spec):
    """A folder of submissions, not one submission: none of the lab's files or a labs/ folder at its top."""
    names = set(os.listdir(folder))
    own = {os.path.basename(f) for f in lab_spec["student_files"]}
    return not (names & own) and "labs" not in names and not any(n.startswith("lab") and n[3:].isdigit() for n in names)


def sbatch_options(args):
    """The sbatch options given on the command line (None where not given)."""
    return {"partition": args.partition, "gres": args.gres, "time": args.time, "account": args.account,
            "array_limit": args.array_limit, "extra": args.sbatch_arg or None}


def slurm_batch(args, lab_spec, subs, secret, given_paths, log):
    """grade --slurm: the state folder, one job array, then (unless --no-wait) the wait and the gathering."""
    state = os.path.abspath(args.state or f"lab{args.lab}-slurm-{time.strftime('%Y%m%d-%H%M%S')}")
    given = sbatch_options(args)
    if given["gres"] is None and not lab_spec.get("cpu_only"):
        given["gres"] = "gpu:1"
    outputs = absolute_outputs(args)
    options = {"performance": not args.no_performance, "sanitizer": not args.no_sanitizer, "uid_base": args.uid_base}
    for command in ("sbatch", "squeue"):
        if not shutil.which(command):
            raise slurm.SlurmError(f"{command} not found: --slurm needs Slurm's commands on PATH (on a cluster's login node)")
    # Built here, once, before any task starts: the tasks share this kit and must not build in it.
    log(f"slurm: building lab {args.lab}'s reference solution for the tasks (CUDA_ARCH={os.environ.get('CUDA_ARCH', 'this machine')}"
        "; the nodes' GPUs must run it: CUDA_ARCH=all builds machine code for seven architectures, and without a GPU here "
        "the build is PTX, which every node compiles for its own)")
    try:
        build_reference_solution(args.lab)
    except RuntimeError as why:  # one line: the build's own output follows it
        raise slurm.SlurmError(str(why))
    slurm.create(state, args.lab, subs, secret, options, args.chunk, outputs, {k: v for k, v in given.items() if v is not None},
                 given_paths)
    log(f"slurm: lab {args.lab}, {len(subs)} submission(s); the session is in {state} (grade --resume {state} goes on from it)")
    slurm.submit(state, list(range(len(slurm.chunks(state)))), slurm.sbatch_of(state), log)
    if args.no_wait:
        log(f"slurm: submitted; grade --resume {state} waits for the tasks and gathers their results")
        return 0
    return slurm_finish(state, log)


def slurm_resume(state, given, log):
    """grade --resume STATE: waits for the session's jobs, submits again the chunks left without a result, gathers."""
    slurm.wait(state, log)
    left = slurm.unfinished_chunks(state)
    if left:
        sbatch = dict(slurm.sbatch_of(state), **{k: v for k, v in given.items() if v is not None})
        log(f"slurm: {len(left)} task(s) to run again: " + ", ".join(map(str, left)))
        slurm.submit(state, left, sbatch, log)
    return slurm_finish(state, log)


def slurm_finish(state, log):
    """Waits for the array, then writes the batch's files when every submission has its result;
    otherwise names those without one and writes nothing (a gradebook missing students is not
    one): grade --resume runs their tasks again."""
    slurm.wait(state, log)
    results, missing, doc = slurm.gather(state)
    for name, why in missing:
        log(f"slurm: {name}: no result: {why}")
    if missing:
        log(f"slurm: {len(missing)} of {len(results) + len(missing)} submissions have no result, so nothing is written yet: "
            f"grade --resume {state} submits their tasks again")
        return 1
    notes = notes_of(results)
    for note in notes:  # every node's, once: a node without compute-sanitizer, say
        log(f"note: {note}")
    write_outputs(doc["outputs"], doc["lab"], results, notes, doc["secret"])
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog="grading/grade", description="Grade convlab submissions of one lab.")
    parser.add_argument("--lab", type=int, help="the lab number (not with --resume: the session knows it)")
    parser.add_argument("submissions", nargs="*", help="folders or .zip/.tar archives, or folders of them (a batch)")
    parser.add_argument("--roster", help="CSV with columns student,path (paths relative to the CSV)")
    parser.add_argument("--jobs", type=int, default=2, help="parallel builds")
    parser.add_argument("--gpus", help="spread the runs over GPUs of this host: all, a count N (the first N), or a list such "
                        "as 0,2; one submission a GPU at a time, a timed run with its GPU to itself and the reference timed "
                        "on the same GPU, hidden cases and sanitizer runs on whichever GPU has room (default: the machine's "
                        "default GPU, one submission at a time)")
    parser.add_argument("--json", help="write every result, in full, to this JSON file")
    parser.add_argument("--gradescope", help="write Gradescope's results.json here (one submission)")
    parser.add_argument("--gradebook", help="write a gradebook CSV here")
    parser.add_argument("--reports", help="write one readable report per student into this folder")
    parser.add_argument("--leaderboard", metavar="FOLDER", help="write the class leaderboard (leaderboard.html and .csv) into this "
                        "folder: each timed case's times, fastest first, of the submissions with full correctness, under aliases "
                        "(each student's report says theirs)")
    parser.add_argument("--leaderboard-names", action="store_true", help="with --leaderboard: students by name, not by alias")
    parser.add_argument("--seed", type=int, help="the hidden cases' seed (default: a fresh secret; give one to reproduce a session)")
    parser.add_argument("--uid-base", type=int, default=sandbox.UID_BASE,
                        help="grading as root, submission i runs as user and group number B + i, where B is the first of "
                             "UID_BASE, UID_BASE + 10000, ... no other grading session holds (default %(default)s); no "
                             "number of the range may belong to an account")
    parser.add_argument("--no-performance", action="store_true", help="skip the timed comparison with the reference")
    parser.add_argument("--no-sanitizer", action="store_true", help="skip compute-sanitizer")
    parser.add_argument("--work", help="keep the work folder here, a new or empty one (default: a temporary one, removed)")
    cluster = parser.add_argument_group("a Slurm cluster (handouts/instructor-guide.md, \"Grading a class\")")
    cluster.add_argument("--slurm", action="store_true", help="grade as one Slurm job array, a task a chunk of submissions on "
                         "one GPU of whatever node it lands on; this command prints the sbatch line, waits and gathers")
    parser.add_argument("--state", help="the session's folder, which holds the secret and each result as it is graded (made "
                         "the instructor's alone): with --slurm, on a file system the nodes share (default: "
                         "./labN-slurm-DATE-TIME); without, a batch graded here that grade --resume STATE goes on with if it "
                         "stops (a crash, a reboot, a job's time limit)")
    parser.add_argument("--resume", metavar="STATE", help="go on with a session: one graded here grades, here, the submissions "
                         "without a result (on the --gpus given now, or else those of its start); a Slurm one waits for its "
                         "jobs and submits again the tasks whose submissions have no result (failed, timed out, cancelled, no "
                         "GPU); then the batch's files are written")
    cluster.add_argument("--partition", help="sbatch --partition")
    cluster.add_argument("--gres", help="sbatch --gres (default gpu:1; none for a CPU lab)")
    cluster.add_argument("--time", help="sbatch --time, a task's limit (e.g. 00:30:00)")
    cluster.add_argument("--account", help="sbatch --account")
    cluster.add_argument("--array-limit", type=int, help="tasks running at once at most (sbatch --array=...%%N)")
    cluster.add_argument("--chunk", type=int, default=1, help="submissions a task (default 1)")
    cluster.add_argument("--sbatch-arg", action="append", default=[], help="one more sbatch argument, as is (repeatable)")
    cluster.add_argument("--no-wait", action="store_true", help="submit and return; grade --resume STATE gathers later")
    cluster.add_argument("--slurm-task", metavar="STATE", help=argparse.SUPPRESS)  # what an array task runs (task.sh)
    args = parser.parse_args(argv)
    log = lambda text: print(f"grade: {text}", file=sys.stderr, flush=True)  # noqa: E731
    try:
        if args.slurm_task:
            return slurm.run_task(os.path.abspath(args.slurm_task), int(os.environ.get("SLURM_ARRAY_TASK_ID", "-1")), log)
        if args.work and os.path.isdir(args.work) and os.listdir(args.work):
            raise SystemExit(f"grade: error: --work {args.work} is not empty: name a new folder (the builds start from nothing)")
        if args.resume:
            if resume_conflicts(args):
                raise SystemExit(f"grade: error: {resume_conflicts(args)}")
            state = os.path.abspath(args.resume)
            session = batch_state.session_of(state)
            if session.get("runner") == "here":  # a batch graded on this host: here again, on the GPUs asked for now or then
                return local_batch.go_on(state, chosen_gpus(args.gpus or session["options"].get("gpus"), log), log, args.work)
            return slurm_resume(state, sbatch_options(args), log)
    except (slurm.SlurmError, batch_state.StateError) as why:
        raise SystemExit(f"grade: error: {why}")
    if args.lab is None:
        parser.error("--lab is required (except with --resume)")
    if args.chunk < 1 or (args.array_limit is not None and args.array_limit < 1):
        parser.error("--chunk and --array-limit take 1 or more")
    try:
        lab_spec = specs.load(args.lab)
    except specs.SpecError as why:
        raise SystemExit(f"grade: error: {why}")
    subs = submissions_from(args.submissions, args.roster, lab_spec)
    if not subs:
        raise SystemExit("grade: error: no submissions given")
    same = sorted(name for name, count in collections.Counter(safe_name(n) for n, _ in subs).items() if count > 1)
    if same:  # each one's folders and results go by its name
        raise SystemExit(f"grade: error: two submissions are named {', '.join(same)} (alice.zip and alice.tar.gz, say): "
                         "rename one")
    if args.gradescope and len(subs) != 1:
        raise SystemExit("grade: error: --gradescope writes one submission's results.json; give one submission")
    if args.slurm and (args.gpus or args.gradescope):
        parser.error("--slurm: each task has one GPU (--gres), and --gradescope is one submission's")
    gpus = chosen_gpus(args.gpus, log)
    secret = args.seed if args.seed is not None else secrets.randbits(62)
    # The paths the command was given (batch folders, a roster's folder): no graded run may see them.
    given = [p for p in args.submissions if os.path.exists(p)] + ([os.path.dirname(os.path.abspath(args.roster))] if args.roster else [])
    if args.slurm:
        try:
            return slurm_batch(args, lab_spec, subs, secret, given, log)
        except slurm.SlurmError as why:
            raise SystemExit(f"grade: error: {why}")
    options = {"performance": not args.no_performance, "sanitizer": not args.no_sanitizer, "uid_base": args.uid_base,
               "jobs": args.jobs, "gpus": args.gpus}
    if args.state:  # each result kept as it is graded, for grade --resume
        try:
            return local_batch.start(os.path.abspath(args.state), args.lab, subs, secret, options, absolute_outputs(args), given, gpus,
                                     log, args.work)
        except batch_state.StateError as why:
            raise SystemExit(f"grade: error: {why}")
    results, notes = local_batch.grade_here(args.lab, lab_spec, [(number, name, path) for number, (name, path) in enumerate(subs)],
                                            secret, options, gpus, local_batch.hidden_from_runs(given, subs), log, args.work)
    write_outputs({k: getattr(args, k) for k in OUTPUTS}, args.lab, results, notes, secret)
    return 0


def absolute_outputs(args):
    """The batch's files to write at its end (OUTPUTS), paths made absolute: a session kept in a
    state folder writes them from wherever grade --resume runs."""
    return {k: os.path.abspath(getattr(args, k)) if isinstance(getattr(args, k), str) else getattr(args, k) for k in OUTPUTS}


def resume_conflicts(args):
    """What --resume was given that the session fixed at its start (one line's worth), or None."""
    fixed = [flag for flag, given in (("--lab", args.lab is not None), ("submissions", args.submissions), ("--roster", args.roster),
                                      ("--seed", args.seed is not None), ("--state", args.state), ("--slurm", args.slurm),
                                      ("--no-performance", args.no_performance), ("--no-sanitizer", args.no_sanitizer),
                                      *((f"--{k.replace('_', '-')}", getattr(args, k)) for k in OUTPUTS)) if given]
    return f"--resume goes on with the session as it started (its lab, submissions, seed, options and files): drop {', '.join(fixed)}" \
        if fixed else None


def chosen_gpus(request, log):
    """The GPUs --gpus names (None without it); one line and exit where that cannot be. GPUs of
    different compute capabilities make the reference and every submission build for all of them."""
    try:
        gpus = gpu_pool.choose(request, gpu_pool.host_gpus()) if request else None
    except gpu_pool.GpuError as why:
        raise SystemExit(f"grade: error: {why}")
    if gpus and gpu_pool.build_architecture(gpus) and "CUDA_ARCH" not in os.environ:
        # The kit builds for one architecture, the first GPU's: a run on another would find no code.
        os.environ["CUDA_ARCH"] = gpu_pool.build_architecture(gpus)
        log(f"note: the GPUs' compute capabilities differ ({', '.join(sorted({g.capability for g in gpus}))}): the "
            f"reference and every submission are built with CUDA_ARCH={os.environ['CUDA_ARCH']}")
    return gpus
