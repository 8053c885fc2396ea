"""grading/grade: the command line."""
import argparse
import collections
import concurrent.futures
import csv
import os
import secrets
import shutil
import sys
import tempfile
import threading
import time

from . import gpu_pool, leaderboard, report, sandbox, slurm, spec as specs
from .grader import Session, build_reference_solution, safe_name


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


def minutes_and_seconds(seconds):
    """A batch's time so far as a person reads it: "48 s", "3 min 05 s"."""
    whole = int(seconds)
    return f"{whole} s" if whole < 60 else f"{whole // 60} min {whole % 60:02d} s"


def grade_all(session, prepared, log):
    """Every prepared submission's grade, in their order. With several GPUs, as many submissions
    as GPUs are graded at once (their runs take GPUs from the session's pool), unless the runs
    cannot be kept apart (no namespaces): then one at a time, as a run could reach another's folder."""
    side_by_side = session.gpus.count
    if session.spec.get("cpu_only") and side_by_side > 1:  # its timed runs need the CPU to themselves
        side_by_side = 1
        log("note: a CPU lab's submissions are graded one at a time (their timed runs need the CPU to themselves); each "
            "one's hidden cases still spread")
    elif session.isolation.prefix is None and side_by_side > 1:
        side_by_side = 1
        log("note: submissions are graded one at a time (their runs cannot be kept apart here); each one's runs still "
            "spread over the GPUs")
    batch_started = time.monotonic()
    started_so_far, lock = [0], threading.Lock()

    def one(sub):
        with lock:  # numbered in the order grading starts, and logged in that order
            started_so_far[0] += 1
            number = started_so_far[0]
            so_far = f", {minutes_and_seconds(time.monotonic() - batch_started)} so far" if number > 1 else ""
            log(f"grading {sub.name} ({number} of {len(prepared)}{so_far})")
        started = time.monotonic()
        result = session.grade(sub)
        phases = ", ".join(f"{phase} {seconds:.0f} s{within(result, phase)}" for phase, seconds in result["seconds"].items()
                           if phase != "build")
        log(f"  {sub.name}: {result['score']:g} / {result['max_score']:g} "
            f"(graded in {time.monotonic() - started:.0f} s after its build{': ' + phases if phases else ''})")
        why = why_nothing_passed(result)
        if why:
            log(f"    {why}")
        return result

    with concurrent.futures.ThreadPoolExecutor(max_workers=side_by_side) as pool:
        return list(pool.map(one, prepared))


def within(result, phase):
    """Where a phase's time went (phase_seconds.py), as " (summed over runs side by side: ...)", or nothing."""
    spent = result.get("seconds_within", {}).get(phase)
    if not spent:
        return ""
    return " (summed over runs side by side: " + ", ".join(f"{kind} {seconds:.0f} s" for kind, seconds in spent.items()) + ")"


def why_nothing_passed(result, limit=300):
    """For a submission that passed no hidden case, the first reason its report gives (its build's,
    or a variant's first failure), as one line; None when some case passed. A batch where every
    submission, the reference's included, scores nothing (a grading machine that cannot run the
    lab) then says why in its log, not only in each report."""
    if any(t.get("passed") for t in result.get("variants", {}).values()):
        return None
    if not result.get("build", {}).get("ok", True):
        return "no case passed: " + ((result.get("deductions") or ["the submission does not build"])[0])[:limit]
    for label, t in result.get("variants", {}).items():
        if t.get("first_failure"):
            return f"no case passed; {label}'s first failure: {t['first_failure']}"[:limit]
    return None


OUTPUTS = ("json", "gradescope", "gradebook", "reports", "leaderboard", "leaderboard_names")


def write_outputs(outputs, lab, results, notes, secret):
    """The batch's files (the options in OUTPUTS), and its scores on stdout."""
    if outputs.get("leaderboard"):
        names = {r["student"]: r["student"] for r in results} if outputs.get("leaderboard_names") else leaderboard.aliases(
            [r["student"] for r in results], secret)
        if not outputs.get("leaderboard_names"):
            for r in results:
                r["leaderboard_alias"] = names[r["student"]]
        leaderboard.write(outputs["leaderboard"], lab, results, names, leaderboard.machine())
    if outputs.get("reports"):
        os.makedirs(outputs["reports"], exist_ok=True)
        for r in results:
            with open(os.path.join(outputs["reports"], f"{r['student']}.txt"), "w") as f:
                f.write(report.text_report(r))
    if outputs.get("json"):
        report.write_json(outputs["json"], {"lab": lab, "notes": notes, "results": results})
    if outputs.get("gradescope"):
        report.write_json(outputs["gradescope"], report.gradescope(results[0]))
    if outputs.get("gradebook"):
        report.write_gradebook(outputs["gradebook"], results)
    if len(results) == 1 and not outputs.get("reports"):
        print(report.text_report(results[0]), end="")
    else:
        for r in results:
            print(f"{r['student']:24s} {r['score']:6g} / {r['max_score']:g}")


def sbatch_options(args):
    """The sbatch options given on the command line (None where not given)."""
    return {"partition": args.partition, "gres": args.gres, "time": args.time, "account": args.account,
            "array_limit": args.array_limit, "extra": args.sbatch_arg or None}


def slurm_batch(args, lab_spec, subs, secret, log):
    """grade --slurm: the state folder, one job array, then (unless --no-wait) the wait and the gathering."""
    state = os.path.abspath(args.state or f"lab{args.lab}-slurm-{time.strftime('%Y%m%d-%H%M%S')}")
    given = sbatch_options(args)
    if given["gres"] is None and not lab_spec.get("cpu_only"):
        given["gres"] = "gpu:1"
    outputs = {k: os.path.abspath(getattr(args, k)) if isinstance(getattr(args, k), str) else getattr(args, k) for k in OUTPUTS}
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
    given_paths = [p for p in args.submissions if os.path.exists(p)] + ([os.path.dirname(os.path.abspath(args.roster))]
                                                                        if args.roster else [])
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
    notes = list(dict.fromkeys(note for r in results for note in r.get("session_notes", [])))
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
    parser.add_argument("--work", help="keep the work folder here (default: a temporary one, removed)")
    cluster = parser.add_argument_group("a Slurm cluster (handouts/instructor-guide.md, \"Grading a class\")")
    cluster.add_argument("--slurm", action="store_true", help="grade as one Slurm job array, a task a chunk of submissions on "
                         "one GPU of whatever node it lands on; this command prints the sbatch line, waits and gathers")
    cluster.add_argument("--state", help="with --slurm: the session's folder, on a file system the nodes share (default: "
                         "./labN-slurm-DATE-TIME); it holds the secret, so it is made the instructor's alone")
    cluster.add_argument("--resume", metavar="STATE", help="go on with a Slurm session: wait for its jobs, submit again the "
                         "tasks whose submissions have no result (failed, timed out, cancelled, no GPU), gather")
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
        if args.resume:
            return slurm_resume(os.path.abspath(args.resume), sbatch_options(args), log)
    except slurm.SlurmError as why:
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
    try:
        gpus = gpu_pool.choose(args.gpus, gpu_pool.host_gpus()) if args.gpus else None
    except gpu_pool.GpuError as why:
        raise SystemExit(f"grade: error: {why}")
    if gpus and gpu_pool.build_architecture(gpus) and "CUDA_ARCH" not in os.environ:
        # The kit builds for one architecture, the first GPU's: a run on another would find no code.
        os.environ["CUDA_ARCH"] = gpu_pool.build_architecture(gpus)
        log(f"note: the GPUs' compute capabilities differ ({', '.join(sorted({g.capability for g in gpus}))}): the "
            f"reference and every submission are built with CUDA_ARCH={os.environ['CUDA_ARCH']}")
    secret = args.seed if args.seed is not None else secrets.randbits(62)
    if args.slurm:
        if args.gpus or args.gradescope:
            parser.error("--slurm: each task has one GPU (--gres), and --gradescope is one submission's")
        try:
            return slurm_batch(args, lab_spec, subs, secret, log)
        except slurm.SlurmError as why:
            raise SystemExit(f"grade: error: {why}")
    work = args.work or tempfile.mkdtemp(prefix=f"convlab-grade-lab{args.lab}-")
    os.makedirs(work, exist_ok=True)
    os.chmod(work, 0o755)
    # Hidden from every submission: the kit (solutions, grading specs, the reference binary), the
    # grader's work folder (other students' builds) and the submissions as handed in.
    hidden = [specs.KIT, work] + [p for p in args.submissions if os.path.exists(p)]
    if args.roster:
        hidden.append(os.path.dirname(os.path.abspath(args.roster)))
    isolation = sandbox.Isolation(hidden, args.uid_base)
    try:
        session = Session(lab_spec, work, secret, isolation, not args.no_performance, not args.no_sanitizer, log, gpus)
    except RuntimeError as why:  # the reference does not build, say: its message, not a traceback
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)
        raise SystemExit(f"grade: error: {why}")
    for note in session.notes:
        log(f"note: {note}")
    log(f"lab {args.lab}: {len(subs)} submission(s), {session.case_count} hidden cases each" +
        (f", on {session.gpus.count} GPUs ({', '.join(g.describe() for g in session.gpus.gpus)})" if gpus else ""))
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        prepared = list(pool.map(lambda numbered: session.prepare(numbered[0], *numbered[1]), enumerate(subs)))
    results = grade_all(session, prepared, log)
    for r in results:
        r["session_notes"] = session.notes
    write_outputs({k: getattr(args, k) for k in OUTPUTS}, args.lab, results, session.notes, secret)
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    return 0
