"""grade --gpus without a GPU: the lease pool that spreads a session's runs over the GPUs of one
host (grading/convlab_grader/gpu_pool.py), submissions graded side by side, and lab 0's batch
graded through it on two stand-in GPUs of different models (a stand-in nvidia-smi; lab 0 is a CPU
lab, so its runs ignore which GPU they were given, and its submissions go one at a time), every
verdict as the plain batch's."""
import os
import shutil
import stat
import sys
import tempfile
import threading
import time

import grader_tests
from testkit import ROOT

sys.path.insert(0, os.path.join(ROOT, "grading"))
from convlab_grader import gpu_pool, local_batch, sandbox  # noqa: E402

# A stand-in nvidia-smi: two GPUs of two models (one architecture: the build is the kit's own),
# for the grader's question alone; any other question goes to the real one, if there is one.
TWO_MODELS = """#!/bin/sh
case "$*" in
    *--query-gpu=index,uuid,name,compute_cap*)
        printf '0, GPU-00000000-aaaa, Stand-in GPU A, 8.0\\n1, GPU-11111111-bbbb, Stand-in GPU B, 8.0\\n' ;;
    *) [ -n "REAL" ] && exec REAL "$@"; exit 9 ;;
esac
"""


def until(what, timeout=5):
    deadline = time.time() + timeout
    while not what() and time.time() < deadline:
        time.sleep(0.01)
    return what()


def leases_spread_and_timed_runs_hold_a_gpu():
    """Slots go to the least busy GPU, at most `limit` a GPU; a timed run's lease reserves a GPU
    at once (no new slot there), waits for the runs on it and holds it alone; a run started under
    a lease sees that GPU alone, named by its UUID; --gpus is read as all, a count or a list; GPUs
    of two architectures make the build cover every one."""
    pool = gpu_pool.GpuPool([gpu_pool.Gpu("0", "A", "GPU-a"), gpu_pool.Gpu("1", "A", "GPU-b")])
    assert pool.mixed_note() is None and gpu_pool.GpuPool([gpu_pool.Gpu("0", "A"), gpu_pool.Gpu("1", "B")]).mixed_note()
    seen, release, lock = [], threading.Event(), threading.Lock()

    def hold_slot():
        with pool.slot(2):
            with lock:
                seen.append(gpu_pool.environment()["CUDA_VISIBLE_DEVICES"])
            release.wait(10)

    holders = [threading.Thread(target=hold_slot) for _ in range(3)]
    for t in holders:
        t.start()
    assert until(lambda: len(seen) == 3), seen
    assert sorted(seen) in (["GPU-a", "GPU-a", "GPU-b"], ["GPU-a", "GPU-b", "GPU-b"]), f"three slots on two GPUs: {seen}"
    busier = max(pool.gpus, key=lambda g: g.used)
    quieter = min(pool.gpus, key=lambda g: g.used)
    timed = {}

    def timed_run():
        with pool.whole() as gpu:
            timed["gpu"], timed["others"] = gpu.uuid, gpu.used
            timed["env"] = gpu_pool.environment()

    timer = threading.Thread(target=timed_run)
    timer.start()
    assert until(lambda: quieter.whole), "the timed run did not reserve the quieter GPU"
    assert "gpu" not in timed, "a timed run started beside another run"
    late = threading.Thread(target=hold_slot)
    late.start()  # no room on the busier GPU (2 of 2), none on the reserved one: it waits
    time.sleep(0.2)
    assert len(seen) == 3, f"a slot was given on a full or reserved GPU: {seen}"
    release.set()
    for t in holders + [timer, late]:
        t.join(10)
    assert timed == {"gpu": quieter.uuid, "others": 0, "env": {"CUDA_VISIBLE_DEVICES": quieter.uuid}}, timed
    assert len(seen) == 4 and busier.used == quieter.used == 0 and not quieter.whole
    # A run the grader starts under a lease sees that GPU alone; the lease ends with the run.
    with pool.whole():
        ran = sandbox.run(sandbox.Isolation(), ["sh", "-c", "echo $CUDA_VISIBLE_DEVICES"], tempfile.gettempdir(), 20)
        assert gpu_pool.environment(), "no lease inside the lease"
    assert ran.stdout.strip() in ("GPU-a", "GPU-b"), ran.stdout
    assert gpu_pool.environment() == {}, "a lease outlived its run"
    listed = [gpu_pool.Gpu("0", "A"), gpu_pool.Gpu("1", "B"), gpu_pool.Gpu("2", "A")]
    assert gpu_pool.choose("all", listed) == listed and gpu_pool.choose("2", listed) == listed[:2]
    assert gpu_pool.choose("2,0", listed) == [listed[2], listed[0]]
    for bad in ("0", "4", "1,1", "0,5", "0,", "x"):
        try:
            gpu_pool.choose(bad, listed)
            raise AssertionError(f"--gpus {bad} was accepted")
        except gpu_pool.GpuError:
            pass
    try:
        gpu_pool.choose("all", [])
        raise AssertionError("--gpus all was accepted with no GPU")
    except gpu_pool.GpuError:
        pass
    assert gpu_pool.build_architecture([gpu_pool.Gpu("0", "A", None, "9.0"), gpu_pool.Gpu("1", "B", None, "9.0")]) is None
    assert gpu_pool.build_architecture([gpu_pool.Gpu("0", "A", None, "9.0"), gpu_pool.Gpu("1", "B", None, "8.0")]) == "all"


def submissions_go_side_by_side():
    """With two GPUs, two submissions of a GPU lab are graded at once; a CPU lab's, or where runs
    cannot be kept apart, one at a time; the results come back in the submissions' order."""
    class Session:
        def __init__(self, cpu_only, prefix):
            self.spec = {"cpu_only": cpu_only}
            self.isolation = type("Isolation", (), {"prefix": prefix})()
            self.gpus = gpu_pool.GpuPool([gpu_pool.Gpu("0", "A"), gpu_pool.Gpu("1", "A")])
            self.running, self.most, self.lock = 0, 0, threading.Lock()

        def grade(self, sub):
            with self.lock:
                self.running += 1
                self.most = max(self.most, self.running)
            time.sleep(0.3 if sub.name == "first" else 0.1)
            with self.lock:
                self.running -= 1
            return {"student": sub.name, "score": 1, "max_score": 1, "seconds": {}}

    class Sub:
        def __init__(self, name):
            self.name = name

    for cpu_only, prefix, expected in ((False, ["unshare"], 2), (True, ["unshare"], 1), (False, None, 1)):
        session = Session(cpu_only, prefix)
        results = local_batch.grade_all(session, [Sub("first"), Sub("second"), Sub("third")], lambda _text: None)
        assert session.most == expected, (cpu_only, prefix, session.most)
        assert [r["student"] for r in results] == ["first", "second", "third"], results


def lab0_batch_on_two_stand_in_gpus():
    """Lab 0's solution, skeleton and a few known-bad submissions graded with --gpus all on two
    stand-in GPUs of different models: every verdict as described (as the plain batch's), each
    report names the mixed models and each timed case its GPU."""
    with tempfile.TemporaryDirectory() as tmp:
        smi = os.path.join(tmp, "nvidia-smi")
        with open(smi, "w") as f:
            f.write(TWO_MODELS.replace("REAL", shutil.which("nvidia-smi") or ""))
        os.chmod(smi, os.stat(smi).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        saved = {k: os.environ.get(k) for k in ("PATH", "CUDA_VISIBLE_DEVICES")}
        os.environ["PATH"] = tmp + os.pathsep + os.environ["PATH"]
        os.environ.pop("CUDA_VISIBLE_DEVICES", None)
        try:
            assert shutil.which("nvidia-smi") == smi
            seen = grader_tests.grade_batch(0, extra_args=("--gpus", "all"),
                                            only=["one-thread", "skips-work-between-checks", "hard-coded", "overwrites-others",
                                                  "tmp-1-stores-answers", "tmp-2-looks-for-answers"])
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
    for name, result in seen.items():
        assert "Stand-in GPU A" in result.get("machine_note", "") and "Stand-in GPU B" in result["machine_note"], (name, result)
        for case in (result.get("performance") or {}).get("cases", []):
            if case["submission_runs_ms"]:
                assert case["gpus"] and all(g in ("GPU 0 (Stand-in GPU A)", "GPU 1 (Stand-in GPU B)") for g in case["gpus"]), case


def register(results):
    results.run("grader --gpus: slots spread over the GPUs, a timed run holds its GPU alone, a run sees its lease's GPU, "
                "--gpus read as all, a count or a list", leases_spread_and_timed_runs_hold_a_gpu)
    results.run("grader --gpus: submissions side by side, one a GPU; a CPU lab's one at a time; results in order",
                submissions_go_side_by_side)
    results.run("grader --gpus all: lab 0's batch on two stand-in GPUs of two models, every verdict as described, the models "
                "named in each report", lab0_batch_on_two_stand_in_gpus)
