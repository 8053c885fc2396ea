"""A batch graded on this host: the reference solution built and timed here, the submissions built
--jobs at a time and graded in their order, one at a time or, with --gpus, as many at once as there
are GPUs (gpu_pool.py). With a state folder (grade --state, batch_state.py) each result is kept the
moment it is graded, so a batch that stops (a crash, a reboot, a job's time limit) goes on with
grade --resume STATE: the same secret, so every student's hidden cases are the ones they would
have had, and nothing graded twice."""
import concurrent.futures
import fcntl
import os
import shutil
import tempfile
import threading
import time

from . import batch_outputs, batch_state, sandbox
from . import spec as specs
from .grader import Session


def hidden_from_runs(given, submissions):
    """What no graded run may see besides the kit and the work folder: the paths the command was
    given (batch folders, a roster's folder) and every submission as handed in (one inside a
    given folder is hidden with it, so the jail's list stays short)."""
    given = [os.path.abspath(p) for p in given]
    return given + [os.path.abspath(path) for _, path in submissions
                    if not any(os.path.abspath(path).startswith(g.rstrip("/") + "/") for g in given)]


def grade_here(lab, lab_spec, numbered, secret, options, gpus, hidden, log, work=None, graded=None, state=None):
    """Grades `numbered` ((number in the whole batch, name, path): the number is its user's) on this
    host; (their results in that order, the session's notes). options: performance, sanitizer,
    uid_base and jobs (parallel builds); hidden: what no run may see besides the kit and the work
    folder; work: the work folder (kept when given, else a temporary one); graded(sub, result) as
    each is graded; state: the session's folder, which no run may reach (StateError where the
    runs would, before anything is graded)."""
    kept = work is not None
    work = work or tempfile.mkdtemp(prefix=f"convlab-grade-lab{lab}-")
    os.makedirs(work, exist_ok=True)
    os.chmod(work, 0o755)
    try:
        # Hidden from every submission: the kit (solutions, grading specs, the reference binary),
        # the grader's work folder (other students' builds) and what `hidden` names.
        isolation = sandbox.Isolation([specs.KIT, work, *hidden], options["uid_base"])
        if state:
            refuse_unkept(isolation, state)
        try:
            session = Session(lab_spec, work, secret, isolation, options["performance"], options["sanitizer"], log, gpus)
        except RuntimeError as why:  # the reference does not build, say: its message, not a traceback
            raise SystemExit(f"grade: error: {why}")
        for note in session.notes:
            log(f"note: {note}")
        log(f"lab {lab}: {len(numbered)} submission(s), {session.case_count} hidden cases each" +
            (f", on {session.gpus.count} GPUs ({', '.join(g.describe() for g in session.gpus.gpus)})" if gpus else ""))
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, options["jobs"])) as pool:
            prepared = list(pool.map(lambda one: session.prepare(*one), numbered))

        def noted(sub, result):
            result["session_notes"] = session.notes
            if graded:
                graded(sub, result)
        return grade_all(session, prepared, log, noted), session.notes
    finally:
        if not kept:
            shutil.rmtree(work, ignore_errors=True)


def refuse_unkept(isolation, state):
    """StateError where the submissions' runs could reach the state folder (the secret, every
    result): not root, so they run as the grader's own user, and no namespace hides it. Fails closed."""
    if not isolation.root and isolation.prefix is None:
        raise batch_state.StateError(
            f"the submissions' runs here would read and write {state} (the secret, every result): this machine runs them "
            "as the grader's own user, with no namespace to hide it (" + "; ".join(isolation.notes) + "); grade as root, "
            "or without --state")


def start(state, lab, submissions, secret, options, outputs, given, gpus, log, work=None):
    """grade --state STATE without --slurm: the state folder (the secret, the options with the
    --gpus asked for, the files to write at the end), then the batch graded as go_on does. Nothing
    is made where the runs could reach the folder."""
    probe = sandbox.Isolation()
    try:
        refuse_unkept(probe, state)
    finally:
        del probe  # its block of user numbers goes back before the session claims one
    if os.environ.get("CUDA_ARCH"):  # what the start built for, so that a resume builds the same
        options = dict(options, cuda_arch=os.environ["CUDA_ARCH"])
    batch_state.create(state, {"runner": "here", "lab": lab, "secret": secret, "options": options, "outputs": outputs,
                               "hidden": [os.path.abspath(p) for p in given],
                               "submissions": [[name, os.path.abspath(path)] for name, path in submissions]})
    log(f"lab {lab}: the session is kept in {state}; if grading stops, grade --resume {state} goes on from it")
    return go_on(state, gpus, log, work)


def go_on(state, gpus, log, work=None):
    """Grades the session's submissions that have no result yet, each result kept as it is graded,
    then writes the batch's files once every submission has one. Returns the exit status. The
    session's lock file is held throughout (released by the system however this process ends)."""
    with open(os.path.join(state, "lock"), "a") as held:
        try:
            fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise batch_state.StateError(f"another grade command is working on {state}: let it end (or stop it), then "
                                         f"grade --resume {state}")
        doc = batch_state.session_of(state)  # read under the lock: the session every command here grades
        if doc["options"].get("cuda_arch") and "CUDA_ARCH" not in os.environ:
            os.environ["CUDA_ARCH"] = doc["options"]["cuda_arch"]
        todo = [(number, name, path) for number, (name, path) in enumerate(doc["submissions"])
                if not batch_state.has_result(state, name)]
        if todo:
            if len(todo) < len(doc["submissions"]):
                log(f"lab {doc['lab']}: {len(doc['submissions']) - len(todo)} of {len(doc['submissions'])} submissions have "
                    f"their result in {state} already; grading the other {len(todo)}")
            grade_here(doc["lab"], specs.load(doc["lab"]), todo, doc["secret"], doc["options"], gpus,
                       [state, *hidden_from_runs(doc["hidden"], doc["submissions"])], log, work,
                       lambda sub, result: batch_state.save_result(state, sub.name, result), state)
        results, missing = batch_state.gather(state)
        if missing:  # a result that does not read: graded again next time
            log(f"{len(missing)} submission(s) have no result that reads in {state}: grade --resume {state} grades them again")
            return 1
        batch_outputs.write_outputs(doc["outputs"], doc["lab"], results, batch_outputs.notes_of(results), doc["secret"])
    return 0


def minutes_and_seconds(seconds):
    """A batch's time so far as a person reads it: "48 s", "3 min 05 s"."""
    whole = int(seconds)
    return f"{whole} s" if whole < 60 else f"{whole // 60} min {whole % 60:02d} s"


def grade_all(session, prepared, log, graded=None):
    """Every prepared submission's grade, in their order. With several GPUs, as many submissions
    as GPUs are graded at once (their runs take GPUs from the session's pool), unless the runs
    cannot be kept apart (no namespaces): then one at a time, as a run could reach another's folder.
    graded(sub, result), where given, is called as each one is graded (from its worker thread)."""
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
        if graded:
            graded(sub, result)
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
