"""grading/grade: the command line."""
import argparse
import concurrent.futures
import csv
import os
import secrets
import shutil
import sys
import tempfile
import time

from . import leaderboard, report, sandbox, spec as specs
from .grader import Session


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


def main(argv=None):
    parser = argparse.ArgumentParser(prog="grading/grade", description="Grade convlab submissions of one lab.")
    parser.add_argument("--lab", type=int, required=True, help="the lab number")
    parser.add_argument("submissions", nargs="*", help="folders or .zip/.tar archives, or folders of them (a batch)")
    parser.add_argument("--roster", help="CSV with columns student,path (paths relative to the CSV)")
    parser.add_argument("--jobs", type=int, default=2, help="parallel builds (runs on the GPU are one at a time)")
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
    args = parser.parse_args(argv)
    try:
        lab_spec = specs.load(args.lab)
    except specs.SpecError as why:
        raise SystemExit(f"grade: error: {why}")
    subs = submissions_from(args.submissions, args.roster, lab_spec)
    if not subs:
        raise SystemExit("grade: error: no submissions given")
    if args.gradescope and len(subs) != 1:
        raise SystemExit("grade: error: --gradescope writes one submission's results.json; give one submission")
    secret = args.seed if args.seed is not None else secrets.randbits(62)
    work = args.work or tempfile.mkdtemp(prefix=f"convlab-grade-lab{args.lab}-")
    os.makedirs(work, exist_ok=True)
    os.chmod(work, 0o755)
    # Hidden from every submission: the kit (solutions, grading specs, the reference binary), the
    # grader's work folder (other students' builds) and the submissions as handed in.
    hidden = [specs.KIT, work] + [p for p in args.submissions if os.path.exists(p)]
    if args.roster:
        hidden.append(os.path.dirname(os.path.abspath(args.roster)))
    isolation = sandbox.Isolation(hidden, args.uid_base)
    log = lambda text: print(f"grade: {text}", file=sys.stderr, flush=True)  # noqa: E731
    session = Session(lab_spec, work, secret, isolation, not args.no_performance, not args.no_sanitizer, log)
    for note in session.notes:
        log(f"note: {note}")
    log(f"lab {args.lab}: {len(subs)} submission(s), {session.case_count} hidden cases each")
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        prepared = list(pool.map(lambda numbered: session.prepare(numbered[0], *numbered[1]), enumerate(subs)))
    results = []
    batch_started = time.monotonic()
    for number, sub in enumerate(prepared, 1):
        so_far = f", {minutes_and_seconds(time.monotonic() - batch_started)} so far" if number > 1 else ""
        log(f"grading {sub.name} ({number} of {len(prepared)}{so_far})")
        started = time.monotonic()
        results.append(session.grade(sub))
        phases = ", ".join(f"{phase} {seconds:.0f} s" for phase, seconds in results[-1]["seconds"].items() if phase != "build")
        log(f"  {sub.name}: {results[-1]['score']:g} / {results[-1]['max_score']:g} "
            f"(graded in {time.monotonic() - started:.0f} s after its build{': ' + phases if phases else ''})")
    for r in results:
        r["session_notes"] = session.notes
    if args.leaderboard:
        names = {r["student"]: r["student"] for r in results} if args.leaderboard_names else leaderboard.aliases(
            [r["student"] for r in results], secret)
        if not args.leaderboard_names:
            for r in results:
                r["leaderboard_alias"] = names[r["student"]]
        leaderboard.write(args.leaderboard, args.lab, results, names, leaderboard.machine())
    if args.reports:
        os.makedirs(args.reports, exist_ok=True)
        for r in results:
            with open(os.path.join(args.reports, f"{r['student']}.txt"), "w") as f:
                f.write(report.text_report(r))
    if args.json:
        report.write_json(args.json, {"lab": args.lab, "notes": session.notes, "results": results})
    if args.gradescope:
        report.write_json(args.gradescope, report.gradescope(results[0]))
    if args.gradebook:
        report.write_gradebook(args.gradebook, results)
    if len(results) == 1 and not args.reports:
        print(report.text_report(results[0]), end="")
    else:
        for r in results:
            print(f"{r['student']:24s} {r['score']:6g} / {r['max_score']:g}")
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    return 0
