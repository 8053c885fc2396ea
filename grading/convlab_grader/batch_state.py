"""A batch's state folder: what lets a long batch go on after it stops, with nothing graded twice
and nothing lost (grade --state, grade --resume). It holds
  session.json   the lab, the secret, the options, the files to write at the end and the
                 submissions (0600: the secret decides every student's hidden cases)
  results/       one file per submission, written whole (write, then rename) when it is graded
and is the instructor's alone (0700). A batch graded on this host (local_batch.py) adds a lock
file, held by the command working on it; one graded as a Slurm job array (slurm.py) adds its job
script, its jobs and its tasks' logs. A result counts only where it reads as the result of that
submission in that lab: a stray or damaged file is graded again, never put in a gradebook."""
import json
import os

from . import report
from .grader import safe_name


class StateError(Exception):
    pass


def read(state, name):
    with open(os.path.join(state, name)) as f:
        return json.load(f)


def write(state, name, doc, mode=0o644):
    """One file of the state, written whole: a reader sees the old file or the new one, never half."""
    path = os.path.join(state, name)
    fd = os.open(path + ".partial", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "w") as f:
        json.dump(doc, f, indent=1)
    report.publish(path)


def create(state, session):
    """A new state folder holding `session` (session.json; "lab", "submissions": [name, path]
    pairs) and an empty results/; refuses a folder that holds a session, or anything at all (an
    old session's results would count as graded), and two submissions whose names make one file
    name. StateError with one line where it cannot be made."""
    if os.path.exists(os.path.join(state, "session.json")):
        raise StateError(f"{state} holds a grading session already: grade --resume {state} goes on with it, or name another --state")
    if os.path.isdir(state) and os.listdir(state):
        raise StateError(f"{state} is not empty: a new session needs a folder of its own (name a new one)")
    names = [name for name, _ in session["submissions"]]
    files = [safe_name(name) for name in names]
    if len(set(files)) != len(files):
        raise StateError("two submissions' names make the same file name: " +
                         ", ".join(sorted({name for name, f in zip(names, files) if files.count(f) > 1})))
    try:
        os.makedirs(os.path.join(state, "results"), exist_ok=True)
        os.chmod(state, 0o700)  # the secret and every student's results: the instructor's alone
        write(state, "session.json", session, 0o600)
    except OSError as why:
        raise StateError(f"--state {state}: {why.strerror or why}")


def session_of(state):
    """The session a state folder holds, or StateError with one line when it holds none that reads."""
    try:
        session = read(state, "session.json")
    except (OSError, ValueError) as why:
        raise StateError(f"{state} holds no grading session that reads ({why.__class__.__name__}: {why})")
    needed = ("lab", "secret", "submissions", "options", "outputs")
    if not isinstance(session, dict) or any(key not in session for key in needed):
        raise StateError(f"{state}/session.json is not a grading session's (it needs {', '.join(needed)})")
    return session


def result_path(state, name):
    return os.path.join(state, "results", f"{safe_name(name)}.json")


def result_of(state, name, lab):
    """The submission's kept result, or None where there is none that reads as its result in this
    lab (a damaged file, or one that is not this submission's, is graded again)."""
    try:
        with open(result_path(state, name)) as f:
            result = json.load(f)
    except (OSError, ValueError):
        return None
    return result if isinstance(result, dict) and result.get("student") == name and result.get("lab") == lab else None


def has_result(state, name):
    """Whether the submission's result is there and reads as its own (the gathering's test too)."""
    return result_of(state, name, read(state, "session.json")["lab"]) is not None


def save_result(state, name, result):
    write(state, os.path.join("results", os.path.basename(result_path(state, name))), result)


def gather(state):
    """(the results there, in the submissions' order; the numbers of the submissions without one)."""
    session = read(state, "session.json")
    results, missing = [], []
    for number, (name, _) in enumerate(session["submissions"]):
        result = result_of(state, name, session["lab"])
        if result is None:
            missing.append(number)
        else:
            results.append(result)
    return results, missing
