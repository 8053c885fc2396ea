"""The grader's GPU self-test spread over the GPUs of one host (make test-grader-gpu GPUS=...): each
lab's batch cut into the solution and the skeleton alone (PART=0/n) and slices of at most SLICE
known-bad submissions (PART=i/n), one worker a GPU taking the next piece as it finishes one, each
piece a run_tests.py --grader-gpu of its own with CUDA_VISIBLE_DEVICES naming its GPU. A piece is
one test: it passes when its grade_batch does. The slowest labs go first, so the last pieces are
short. Whether a batch passes does not depend on how it is cut: each piece holds the reference
solution to full marks (PART=0) or each entry to its own description, as the whole batch does."""
import os
import queue
import subprocess
import sys
import threading
import time

import grader_tests
from convlab_grader import gpu_pool, known_bad
from testkit import ROOT

SLICE = 6  # known-bad submissions a piece: a few minutes of one GPU in the slowest labs
SLOWEST_FIRST = [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]  # by their batches' times on an H100 (instructor guide)


def gpus_of(text):
    """The GPUs --gpus names, as CUDA_VISIBLE_DEVICES values: "all", a count N (the first N) or a
    list "0,2"; within the GPUs CUDA_VISIBLE_DEVICES already allows, if it is set (the grader's
    own reading of --gpus, gpu_pool.choose)."""
    try:
        return [gpu.visible() for gpu in gpu_pool.choose(text, gpu_pool.host_gpus())]
    except gpu_pool.GpuError as why:
        raise ValueError(str(why))


def pieces(labs, slice_size=SLICE):
    """(lab, (i, n)) for every piece of these labs' batches, the slowest labs first: a batch of
    at most slice_size entries whole (1/1), a longer one as 0/n and its n slices."""
    found = []
    for lab in sorted(labs, key=lambda n: SLOWEST_FIRST.index(n) if n in SLOWEST_FIRST else -1):
        n = -(-len(known_bad.load(lab)) // slice_size)
        found += [(lab, (1, 1))] if n <= 1 else [(lab, (i, n)) for i in range(n + 1)]
    return found


def grade_piece(lab, part, gpu):
    """One piece: run_tests.py --grader-gpu --lab LAB --part I/N on GPU `gpu` alone."""
    return subprocess.run([sys.executable, os.path.join(ROOT, "tests", "run_tests.py"), "--grader-gpu", "--lab", str(lab),
                           "--part", f"{part[0]}/{part[1]}"], env=dict(os.environ, CUDA_VISIBLE_DEVICES=gpu), capture_output=True,
                          text=True)


def spread(results, labs, gpus, slice_size=SLICE, grade=grade_piece):
    """Grades every piece of these labs' batches on these GPUs, one worker a GPU; records a result
    a piece, with the lines of its grading (each submission's score and time, how many entries
    were concluded as described) under it. grade(lab, (i, n), gpu) grades one piece."""
    work = queue.Queue()
    for piece in pieces(labs, slice_size):
        work.put(piece)
    lock = threading.Lock()

    def worker(gpu):
        while True:
            try:
                lab, (i, n) = work.get_nowait()
            except queue.Empty:
                return
            started = time.time()
            done = grade(lab, (i, n), gpu)
            lines = [line for line in done.stdout.splitlines() if line.startswith("    ")]
            name = f"grader GPU: lab {lab} batch, part {i} of {n}" + (" (the whole batch)" if n == 1 else "") + f", on GPU {gpu}"
            with lock:
                results.record(name, "pass" if done.returncode == 0 else "fail",
                               "" if done.returncode == 0 else (done.stdout + done.stderr)[-3000:], time.time() - started)
                for line in lines:
                    print(line, flush=True)

    threads = [threading.Thread(target=worker, args=(gpu,)) for gpu in gpus]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def register(results, labs, gpus_text, slice_size=SLICE):
    try:
        gpus = gpus_of(gpus_text)
    except ValueError as why:
        results.record("grader GPU self-test", "fail", str(why))
        return
    spread(results, labs or grader_tests.gpu_labs(), gpus, slice_size)
