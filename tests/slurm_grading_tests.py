"""grade --slurm on a real single-node Slurm cluster that the test starts itself (slurm_cluster.py):
lab 0's solution, skeleton and a few known-bad submissions graded as a job array, every verdict as
the plain batch's; a task killed on purpose while it grades leaves no result and no half-written
file, and grade --resume runs that task alone again (the others' results untouched); and, without a
cluster, a task of a GPU lab on a node with no GPU grades nothing and says so."""
import json
import os
import subprocess
import sys
import tempfile
import time

import grader_tests
from slurm_cluster import SlurmCluster, SlurmUnavailable
from testkit import ROOT, Skip

sys.path.insert(0, os.path.join(ROOT, "grading"))
from convlab_grader import batch_state, known_bad, slurm  # noqa: E402

# With the solution and the skeleton: three tasks of two submissions, then one (each task builds its
# kit copy). forges-classmates-results is in the first task, the one killed and resumed: resumed,
# it runs while the others' results are there, and it looks for the state folder that holds them.
ENTRIES = ["forges-classmates-results", "one-thread", "hard-coded"]


def squeue(cluster, *args):
    done = subprocess.run(["squeue", "-h", *args], env=cluster.env, capture_output=True, text=True, timeout=30)
    return [line.strip() for line in done.stdout.splitlines() if line.strip()]


def until(what, timeout, step=0.5):
    deadline = time.time() + timeout
    while time.time() < deadline:
        found = what()
        if found:
            return found
        time.sleep(step)
    return None


def grade(cluster, *args):
    return subprocess.run([grader_tests.GRADE, *args], env=cluster.env, capture_output=True, text=True, timeout=1800)


def lab0_batch_through_slurm():
    with tempfile.TemporaryDirectory() as tmp:
        try:
            with SlurmCluster(os.path.join(tmp, "cluster")) as cluster:
                graded_through(cluster, tmp)
        except SlurmUnavailable as why:
            raise Skip(f"no Slurm cluster could start here: {why}")


def graded_through(cluster, tmp):
    entries = [e for e in known_bad.load(0) if e["name"] in ENTRIES]
    batch, state = os.path.join(tmp, "batch"), os.path.join(tmp, "state")
    grader_tests.make_batch(0, entries, batch, True)
    outputs = os.path.join(tmp, "out")
    os.makedirs(outputs)
    # One task at a time: the first is killed while it grades, the others wait their turn.
    submitted = grade(cluster, "--lab", "0", batch, "--slurm", "--state", state, "--partition", cluster.partition,
                      "--array-limit", "1", "--chunk", "2", "--no-wait", "--json", os.path.join(outputs, "results.json"),
                      "--gradebook", os.path.join(outputs, "book.csv"), "--reports", os.path.join(outputs, "reports"))
    assert submitted.returncode == 0, submitted.stderr[-2000:]
    assert "slurm: sbatch --parsable --array=0,1,2%1" in submitted.stderr, submitted.stderr  # the line it runs
    assert oct(os.stat(state).st_mode & 0o777) == "0o700" and oct(os.stat(os.path.join(state, "session.json")).st_mode & 0o777) == "0o600"
    job = json.load(open(os.path.join(state, "jobs.json")))[0]
    running = until(lambda: squeue(cluster, "-t", "R", "-o", "%i", "-j", job), 60)
    assert running == [f"{job}_0"], f"task 0 never ran alone: {running}"
    time.sleep(2)  # into its grading
    subprocess.run(["scancel", f"{job}_0"], env=cluster.env, check=True, timeout=30)
    assert until(lambda: not squeue(cluster, "-j", job), 600, 2), "the array did not finish"
    session = json.load(open(os.path.join(state, "session.json")))
    names = [name for name, _ in session["submissions"]]
    killed = names[:2]  # task 0's chunk
    assert not any(os.path.exists(batch_state.result_path(state, n)) for n in killed), "the killed task left a result"
    assert not [f for f in os.listdir(os.path.join(state, "results")) if f.endswith(".partial")], "a half-written result"
    others = {n: os.stat(batch_state.result_path(state, n)).st_mtime_ns for n in names[2:]}
    assert not os.path.exists(os.path.join(outputs, "book.csv")), "a gradebook was written before every task ended"
    # An instructor resumes later, once Slurm has forgotten the job (MinJobAge): squeue then
    # refuses its id ("Invalid job id"), which must read as "done", not as an error.
    def forgotten():
        asked = subprocess.run(["squeue", "-h", "-j", job], env=cluster.env, capture_output=True, text=True, timeout=30)
        return asked.returncode != 0 and "invalid job id" in asked.stderr.lower()
    assert until(forgotten, 120, 2), "Slurm never forgot the job"
    resumed = grade(cluster, "--resume", state)
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert "1 task(s) to run again: 0" in resumed.stderr, resumed.stderr
    assert all(os.stat(batch_state.result_path(state, n)).st_mtime_ns == t for n, t in others.items()), "a result was graded twice"
    results = grader_tests.results_of(os.path.join(outputs, "results.json"))
    assert sorted(results) == sorted(names), sorted(results)
    assert len(open(os.path.join(outputs, "book.csv")).read().splitlines()) == len(names) + 1
    assert sorted(os.listdir(os.path.join(outputs, "reports"))) == sorted(f"{n}.txt" for n in names)
    grader_tests.judge_batch(0, results, entries, True)  # the plain batch's verdicts


def student_job_through_slurm():
    """make slurm-run LAB=0 on the single-node cluster: the job script written, submitted, run, and
    the report left beside the student's files, whole."""
    with tempfile.TemporaryDirectory() as tmp:
        try:
            with SlurmCluster(os.path.join(tmp, "cluster")) as cluster:
                env = dict(cluster.env, SLURM_PARTITION=cluster.partition)
                done = subprocess.run(["make", "--no-print-directory", "slurm-run", "LAB=0", "ARGS=--size 64x48 --threads 2"],
                                      cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
                assert done.returncode == 0, done.stdout + done.stderr
                job = done.stdout.split("submitted job ")[1].split(":")[0]
                made = [os.path.join(ROOT, f) for f in ("slurm-lab0.sbatch", f"slurm-lab0-{job}.out", f"lab0-slurm-{job}.json")]
                try:
                    assert until(lambda: not squeue(cluster, "-j", job), 300, 1), "the student's job did not end"
                    with open(made[1]) as f:
                        log = f.read()
                    assert os.path.exists(made[2]), f"no report; the job's output:\n{log[-2000:]}"
                    with open(made[2]) as f:
                        doc = json.load(f)
                    # the kit's own labs/ hold the skeleton: its check fails, and the report is kept
                    assert doc["results"] and "exited with status 1" in log and f"the report (--format json) is in lab0-slurm-{job}.json" in log, log
                    assert "--gres" not in open(made[0]).read(), "lab 0 (a CPU lab) asked for a GPU"
                finally:
                    for path in made:
                        if os.path.exists(path):
                            os.remove(path)
        except SlurmUnavailable as why:
            raise Skip(f"no Slurm cluster could start here: {why}")


def gpu_task_without_a_gpu():
    """A task of a GPU lab on a node that gives it no GPU: nothing graded, exit 3, the log line the
    gathering shows, the submission left for grade --resume."""
    with tempfile.TemporaryDirectory() as tmp:
        state = os.path.join(tmp, "state")
        submission = os.path.join(tmp, "alice")
        os.makedirs(submission)
        slurm.create(state, 3, [("alice", submission)], 1234, {"performance": True, "sanitizer": True, "uid_base": 61000}, 1,
                     {}, {"gres": "gpu:1"})
        task = subprocess.run([grader_tests.GRADE, "--slurm-task", state], capture_output=True, text=True, timeout=120,
                              env=dict(os.environ, SLURM_ARRAY_TASK_ID="0", CUDA_VISIBLE_DEVICES=""))
        assert task.returncode == 3 and "has no GPU this task may use" in task.stderr, (task.returncode, task.stderr)
        with open(os.path.join(state, "logs", "task-1_0.out"), "w") as log:
            log.write(task.stderr)  # where Slurm would have put it
        results, missing, _ = slurm.gather(state)
        assert results == [] and missing and missing[0][0] == "alice" and "no GPU" in missing[0][1], missing
        assert slurm.unfinished_chunks(state) == [0]
        line = slurm.sbatch_line(state, [0], {"gres": "gpu:1", "partition": "gpu", "array_limit": 4, "time": "00:30:00"})
        assert line[:3] == ["sbatch", "--parsable", "--array=0%4"] and "--gres" in line and "gpu:1" in line, line
        try:
            slurm.create(state, 3, [("bob", submission)], 1, {}, 1, {}, {})
            raise AssertionError("a second session was written over the first")
        except slurm.SlurmError as why:
            assert "holds a grading session already" in str(why), why


def register(results):
    results.run("grader --slurm: a task of a GPU lab on a node without a GPU grades nothing, says so, and is left for --resume",
                gpu_task_without_a_gpu)
    results.run("grader --slurm: lab 0's batch as a job array on a single-node cluster, a task killed on purpose, --resume runs "
                "it alone; every verdict as the plain batch's", lab0_batch_through_slurm)
    results.run("make slurm-run LAB=0: the job script written and submitted, the report left beside the student's files",
                student_job_through_slurm)
