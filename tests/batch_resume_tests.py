"""grade --state without --slurm: a batch graded on this host keeps each result the moment it is
graded. Killed while it grades, it leaves no half-written result and no batch files; grade --resume
grades only the submissions without a result (the others' files untouched), on the hidden cases
the session's secret gave them, and writes the batch's files with every verdict as the plain
batch's. A result file that is not that submission's (planted, or damaged) is graded again, never
put in the gradebook. A second grade command on a session that one is working on is refused in
one line, as are a folder that is not empty for a new session and options a resume cannot change."""
import fcntl
import json
import os
import signal
import subprocess
import sys
import tempfile

import grader_tests
from slurm_grading_tests import until
from testkit import ROOT, Skip

sys.path.insert(0, os.path.join(ROOT, "grading"))
from convlab_grader import batch_state, cases, known_bad, sandbox  # noqa: E402
from convlab_grader import spec as specs  # noqa: E402

# With the solution and the skeleton, five submissions graded in their names' order; the kill
# lands once two results are kept. forges-classmates-results (an attack on other students: it
# searches the machine for a session's state, prints the secret and overwrites the results it
# finds) is graded again in the resume, where the others' results lie in the state folder.
ENTRIES = ["forges-classmates-results", "hard-coded", "one-thread"]
ATTACK = "forges-classmates-results"


def kept_results(state):
    folder = os.path.join(state, "results")
    return sorted(f for f in os.listdir(folder) if f.endswith(".json")) if os.path.isdir(folder) else []


def lab0_batch_killed_and_resumed():
    probe = sandbox.Isolation()
    if not probe.root and probe.prefix is None:  # the grader refuses --state here, and says so (below)
        raise Skip("the runs here would be the grader's own user, with no namespace: --state is refused; " + "; ".join(probe.notes))
    del probe
    entries = [e for e in known_bad.load(0) if e["name"] in ENTRIES]
    with tempfile.TemporaryDirectory() as tmp:
        batch, state, out = (os.path.join(tmp, name) for name in ("batch", "state", "out"))
        grader_tests.make_batch(0, entries, batch, True)
        os.makedirs(out)
        files = ["--json", os.path.join(out, "results.json"), "--gradebook", os.path.join(out, "book.csv")]
        with open(os.path.join(tmp, "first.log"), "w+") as log:
            grading = subprocess.Popen([grader_tests.GRADE, "--lab", "0", batch, "--state", state, *files], stdout=log,
                                       stderr=subprocess.STDOUT, start_new_session=True)
            try:
                first = until(lambda: len(kept_results(state)) >= 2, 900, 0.05)  # the attack's and one more
            finally:
                os.killpg(grading.pid, signal.SIGKILL)  # the command and everything it started
                grading.wait()
            log.seek(0)
            said = log.read()
        assert first, f"no result was kept while the batch ran:\n{said[-2000:]}"
        assert oct(os.stat(state).st_mode & 0o777) == "0o700" and oct(os.stat(os.path.join(state, "session.json")).st_mode & 0o777) == "0o600"
        assert f"grade --resume {state} goes on from it" in said, said[-2000:]
        session = batch_state.session_of(state)
        names = [name for name, _ in session["submissions"]]
        attack = batch_state.result_path(state, ATTACK)
        if os.path.exists(attack):  # its result lost: it runs again beside the kept ones
            os.remove(attack)
        kept = {f: os.stat(os.path.join(state, "results", f)).st_mtime_ns for f in kept_results(state)}
        assert 0 < len(kept) < len(names), f"the kill came too late to test anything: {sorted(kept)} of {names}"
        assert not [f for f in os.listdir(os.path.join(state, "results")) if f.endswith(".partial")], "a half-written result"
        assert not os.listdir(out), f"the batch's files were written before every submission was graded: {os.listdir(out)}"
        # A result planted for one not yet graded (another's, as a submission's stray run might write) counts for nothing.
        planted = next(n for n in names if f"{n}.json" not in kept and n != ATTACK)
        with open(batch_state.result_path(state, planted), "w") as f:
            json.dump({"student": names[0], "lab": 0, "score": 90, "max_score": 90, "scores": {}}, f)

        # Another command on the session while one works on it is refused, and changes nothing.
        with open(os.path.join(state, "lock")) as held:  # the lock the working command holds
            fcntl.flock(held, fcntl.LOCK_EX)
            busy = subprocess.run([grader_tests.GRADE, "--resume", state], capture_output=True, text=True, timeout=120)
        assert busy.returncode != 0 and busy.stderr.strip().splitlines() == [
            f"grade: error: another grade command is working on {state}: let it end (or stop it), then grade --resume {state}"], busy.stderr
        assert kept_results(state) == sorted([*kept, os.path.basename(batch_state.result_path(state, planted))]), \
            "the refused command graded something"

        resumed = subprocess.run([grader_tests.GRADE, "--resume", state], capture_output=True, text=True, timeout=1800)
        assert resumed.returncode == 0, resumed.stderr[-3000:]
        assert (f"{len(kept)} of {len(names)} submissions have their result in {state} already; grading the other "
                f"{len(names) - len(kept)}") in resumed.stderr, resumed.stderr[-2000:]
        assert all(os.stat(os.path.join(state, "results", f)).st_mtime_ns == t for f, t in kept.items()), "a result was graded twice"
        results = grader_tests.results_of(os.path.join(out, "results.json"))
        assert results[planted]["student"] == planted and results[planted]["cases"], f"the planted result counted: {results[planted]}"
        assert sorted(results) == sorted(names), sorted(results)
        assert len(open(os.path.join(out, "book.csv")).read().splitlines()) == len(names) + 1
        # Every submission's hidden cases are those the session's secret draws for it, before and after the kill.
        spec = specs.load(0)
        for name in names:
            drawn = cases.hidden_cases(spec, cases.student_secret(session["secret"], name))
            graded = [(c["size"], c["channels"], c["border"], c["mask"]) for c in results[name]["cases"]]
            assert graded == [(c["size"], c["channels"], c["border"], c["mask"]) for c in drawn], (name, graded[:3], drawn[:3])
        grader_tests.judge_batch(0, results, entries, True)  # the plain batch's verdicts

        # Resumed when nothing is left, it writes the batch's files again and grades nothing.
        with open(os.path.join(state, "session.json")) as f:
            assert json.load(f)["runner"] == "here"
        again = subprocess.run([grader_tests.GRADE, "--resume", state], capture_output=True, text=True, timeout=600)
        assert again.returncode == 0 and "grade: grading " not in again.stderr, again.stderr[-2000:]
        assert all(os.stat(os.path.join(state, "results", f)).st_mtime_ns == t for f, t in kept.items())


def refusals_in_one_line():
    """A new session in a folder that is not empty, a resume given what its session fixed, a
    --work folder that is not empty, a state folder with no session: one line each, nothing made."""
    with tempfile.TemporaryDirectory() as tmp:
        batch, stray = os.path.join(tmp, "batch"), os.path.join(tmp, "stray")
        grader_tests.make_batch(0, [], batch, True)
        os.makedirs(os.path.join(stray, "results"))
        with open(os.path.join(stray, "results", "reference-solution.json"), "w") as f:
            f.write("{}")
        for args, said in ((["--lab", "0", batch, "--state", stray], f"grade: error: {stray} is not empty: a new session needs a folder "
                                                                     "of its own (name a new one)"),
                           (["--lab", "0", batch, "--work", stray], f"grade: error: --work {stray} is not empty: name a new folder "
                                                                    "(the builds start from nothing)"),
                           (["--resume", stray], f"grade: error: {stray} holds no grading session that reads"),
                           (["--resume", stray, "--json", "x.json", "--seed", "3"], "grade: error: --resume goes on with the session as it "
                                                                                   "started (its lab, submissions, seed, options and files): "
                                                                                   "drop --seed, --json")):
            done = subprocess.run([grader_tests.GRADE, *args], capture_output=True, text=True, timeout=120)
            last = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
            assert done.returncode != 0 and last.startswith(said), (args, done.stderr[-1000:])
        assert sorted(os.listdir(stray)) == ["results"] and not os.path.exists(os.path.join(stray, "session.json"))


def register(results):
    results.run("grader --state (this host): lab 0's batch killed while it grades keeps what was graded, whole; --resume "
                "grades the rest on the session's cases, every verdict as the plain batch's; a second command is refused",
                lab0_batch_killed_and_resumed)
    results.run("grader --state / --resume / --work: a folder not empty, options a resume cannot change, no session: one line each",
                refusals_in_one_line)
