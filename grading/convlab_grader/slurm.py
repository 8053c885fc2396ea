"""grade --slurm: a batch graded as one Slurm job array, with Slurm's own commands (sbatch, squeue,
scancel), no scheduler of the kit's. The grading command draws the session's secret and writes a
state folder (batch_state.py), which must be on a file system the GPU nodes share; besides its
session.json (here also the tasks' chunks and the sbatch options) and results/, it holds
  task.sh        the job script: one array task grades one chunk (grade --slurm-task STATE)
  logs/          each task's output (Slurm's -o)
  jobs.json      the job ids submitted, for squeue
A task grades on whichever node it lands on, with the GPU Slurm gives it, the reference timed in
the same runs on that GPU; it skips a submission whose result is already there, and on a node
without a GPU (a GPU lab) it grades nothing and says so. The grading command waits for the array
(squeue), then gathers the results into the gradebook and reports as a plain batch does. A task
that failed, timed out or found no GPU leaves its submissions without a result: they are named,
and grade --resume STATE submits those alone (nothing graded twice, nothing lost).
Slurm's accounting (sacct) is not needed: the result files say what is done."""
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

from . import batch_state, gpu_pool, local_batch, sandbox
from . import spec as specs
from .batch_state import has_result
from .grader import Session

POLL_SECONDS = 5


class SlurmError(Exception):
    pass


def _slurm(command, *args):
    """Runs a Slurm command; SlurmError with its message when it fails or is not installed."""
    if not shutil.which(command):
        raise SlurmError(f"{command} not found: --slurm needs Slurm's commands on PATH (on a cluster's login node)")
    done = subprocess.run([command, *args], capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise SlurmError(f"{command} failed: {(done.stderr or done.stdout).strip()[-400:]}")
    return done.stdout


_read, _write = batch_state.read, batch_state.write


def create(state, lab, submissions, secret, options, chunk, outputs, sbatch, hidden=()):
    """A new state folder for `submissions` ((name, path) pairs, paths made absolute), with the
    grading options, the files to write at the end (`outputs`, cli.OUTPUTS), the sbatch options and
    the paths the command was given (the batch folders, a roster's folder), which every task hides
    from the runs as the plain command does; refuses one that holds a session already (grade
    --resume goes on with it)."""
    chunks = [list(range(i, min(i + chunk, len(submissions)))) for i in range(0, len(submissions), chunk)]
    try:
        batch_state.create(state, {"runner": "slurm", "lab": lab, "secret": secret, "options": options, "chunks": chunks,
                                   "outputs": outputs, "sbatch": sbatch, "hidden": [os.path.abspath(p) for p in hidden],
                                   "submissions": [[name, os.path.abspath(path)] for name, path in submissions]})
    except batch_state.StateError as why:
        raise SlurmError(str(why))
    os.makedirs(os.path.join(state, "logs"), exist_ok=True)
    _write(state, "jobs.json", [])
    with open(os.path.join(state, "task.sh"), "w") as f:
        f.write("#!/bin/sh\n# One task of a convlab grading array: the chunk SLURM_ARRAY_TASK_ID of the session here.\n"
                f"exec {shlex.quote(sys.executable)} {shlex.quote(os.path.join(specs.KIT, 'grading', 'grade'))} "
                f"--slurm-task {shlex.quote(os.path.abspath(state))}\n")
    os.chmod(os.path.join(state, "task.sh"), 0o700)


def chunks(state):
    return _read(state, "session.json")["chunks"]


def sbatch_of(state):
    """The sbatch options the session was submitted with."""
    return _read(state, "session.json")["sbatch"]


def unfinished_chunks(state):
    """The chunks with a submission that has no result yet."""
    session = _read(state, "session.json")
    return [i for i, chunk in enumerate(session["chunks"]) if any(not has_result(state, session["submissions"][s][0]) for s in chunk)]


def sbatch_line(state, chunks, sbatch):
    """The sbatch command for these chunks; `sbatch`: the options given (partition, gres, ...)."""
    array = ",".join(str(c) for c in chunks)
    if sbatch.get("array_limit"):
        array += f"%{sbatch['array_limit']}"
    line = ["sbatch", "--parsable", f"--array={array}", "--job-name", f"convlab-grade-lab{_read(state, 'session.json')['lab']}",
            "--output", os.path.join(os.path.abspath(state), "logs", "task-%A_%a.out")]
    for option in ("partition", "gres", "time", "account"):
        if sbatch.get(option):
            line += [f"--{option}", str(sbatch[option])]
    line += sbatch.get("extra", [])
    return line + [os.path.join(os.path.abspath(state), "task.sh")]


def submit(state, chunks, sbatch, log):
    """Submits the chunks as one array; prints the sbatch line; returns the job id."""
    line = sbatch_line(state, chunks, sbatch)
    log("slurm: " + " ".join(shlex.quote(a) for a in line))
    job = _slurm(*line).strip().split(";")[0]
    if not job.isdigit():
        raise SlurmError(f"sbatch answered {job!r}, not a job id")
    jobs = _read(state, "jobs.json")
    _write(state, "jobs.json", jobs + [job])
    return job


def queued(state):
    """The session's jobs that squeue still lists (pending or running). A job Slurm has forgotten
    (some minutes after it ended, MinJobAge) is not queued: asked about alone, squeue answers
    "Invalid job id" and fails, which here means it is done."""
    jobs = _read(state, "jobs.json")
    if not jobs:
        return []
    if not shutil.which("squeue"):
        raise SlurmError("squeue not found: --slurm needs Slurm's commands on PATH (on a cluster's login node)")
    done = subprocess.run(["squeue", "-h", "-o", "%F", "-j", ",".join(jobs)], capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        if "invalid job id" in (done.stderr + done.stdout).lower():
            return []
        raise SlurmError(f"squeue failed: {(done.stderr or done.stdout).strip()[-400:]}")
    return sorted({line.strip() for line in done.stdout.splitlines() if line.strip()})


def wait(state, log):
    """Until squeue lists none of the session's jobs, saying how many submissions are graded."""
    session = _read(state, "session.json")
    total, said = len(session["submissions"]), None
    while True:
        waiting = queued(state)
        done = sum(has_result(state, name) for name, _ in session["submissions"])
        if (done, bool(waiting)) != said:
            log(f"slurm: {done} of {total} submissions graded" + (f"; job(s) {', '.join(waiting)} still queued or running"
                                                                  if waiting else ""))
            said = (done, bool(waiting))
        if not waiting:
            return
        time.sleep(POLL_SECONDS)


def gather(state):
    """(results in the submissions' order, (name, why) of each without a result, the session)."""
    session = _read(state, "session.json")
    results, missing = batch_state.gather(state)
    chunk_of = {s: number for number, chunk in enumerate(session["chunks"]) for s in chunk}
    return results, [(session["submissions"][s][0], last_log_line(state, chunk_of[s])) for s in missing], session


def last_log_line(state, chunk):
    """What the chunk's latest task said last (its log), or that it left none."""
    logs = [os.path.join(state, "logs", f) for f in os.listdir(os.path.join(state, "logs")) if f.endswith(f"_{chunk}.out")]
    if not logs:
        return "its task left no log (never started, or cancelled before it ran)"
    with open(max(logs, key=os.path.getmtime), errors="replace") as f:
        lines = [line.strip() for line in f if line.strip()]
    return lines[-1][:300] if lines else "its task's log is empty (killed, cancelled or out of time)"


def run_task(state, task, log):
    """One array task: grades its chunk's submissions that have no result yet, each result
    written whole as soon as it is graded. Returns the exit status."""
    session_doc = _read(state, "session.json")
    if not 0 <= task < len(session_doc["chunks"]):
        log(f"error: task {task}: the session has chunks 0 to {len(session_doc['chunks']) - 1}")
        return 2
    lab_spec = specs.load(session_doc["lab"])
    host = os.uname().nodename
    if not lab_spec.get("cpu_only") and not gpu_pool.host_gpus():
        log(f"error: node {host} has no GPU this task may use (nvidia-smi lists none, or CUDA_VISIBLE_DEVICES allows none): "
            f"nothing graded; grade --resume {state} submits this chunk again")
        return 3
    options = session_doc["options"]
    todo = [s for s in session_doc["chunks"][task] if not has_result(state, session_doc["submissions"][s][0])]
    log(f"task {task} on {host}: {len(todo)} submission(s) to grade")
    if not todo:
        return 0
    work = tempfile.mkdtemp(prefix=f"convlab-grade-lab{session_doc['lab']}-")
    os.chmod(work, 0o755)
    try:
        # Hidden from every run, as in a plain batch: the kit, the work folder, the state (the
        # secret, the others' results), every submission as handed in, and the batch folders.
        hidden = [specs.KIT, work, state] + local_batch.hidden_from_runs(session_doc.get("hidden", []), session_doc["submissions"])
        isolation = sandbox.Isolation(hidden, options["uid_base"])
        if isolation.prefix is None:  # fail closed: the runs would see the state folder (the secret, every result)
            log(f"error: node {host} cannot keep the submissions' runs apart (no mount namespaces): nothing graded; grade "
                f"--resume {state} submits this chunk again (on a node where unshare works, e.g. with --sbatch-arg=--exclude={host})")
            return 4
        # The reference was built by the submitting command: a build here would rewrite the shared kit under the other tasks.
        try:
            session = Session(lab_spec, work, session_doc["secret"], isolation, options["performance"], options["sanitizer"], log,
                              build_reference=False)
        except RuntimeError as why:  # a GPU the reference fails on (listed, not usable): as a node without one
            log(f"error: node {host}: {why}; grade --resume {state} submits this chunk again")
            return 3
        for note in session.notes:
            log(f"note ({host}): {note}")
        for s in todo:
            name, path = session_doc["submissions"][s]
            started = time.monotonic()
            result = session.grade(session.prepare(s, name, path))  # s: its number in the whole batch, its user's
            result["session_notes"] = session.notes
            result["graded_on"] = host
            batch_state.save_result(state, name, result)
            log(f"  {name}: {result['score']:g} / {result['max_score']:g} (graded in {time.monotonic() - started:.0f} s)")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0
