"""Hidden cases several to a process, for a lab whose spec says "cases_in_one_process": the
program's --case-list (common/cli/case_list.hpp). A case that is a process of its own pays for
CUDA's start (0.2 to 0.4 s on an H100 host, shared by the runs side by side), which is most of a
small case's time; a chunk of cases pays it once. Each slot of the session's GPUs runs one
chunk, the cases dealt to the chunks in turn so that every chunk has small and large ones.

Nothing the program writes is trusted: each case's raw results go to the trusted check as a
case of its own process would, its report (stdout) and errors are read only as a plain file of
at most sandbox.OUTPUT_LIMIT bytes, never through a link, from the folder the grader opened
before the run. A case counts as ended only when its status file is there. The run is killed
once a case's time limit passes without another case ending, and the case it was in takes that
outcome. A case that crashed the process or ended in anything but a pass or a failed check (a
CUDA error, which sticks to the context: it may be an earlier case's doing) is left to the
caller with the cases after it, and the caller runs them one to a process as before: apart
from a hang, no verdict depends on which cases shared a process."""
import concurrent.futures
import json
import os
import shutil
import stat

from . import sandbox
from .phase_seconds import add_seconds, checked


def run_in_chunks(session, sub, per_gpu, case_args):
    """{index: (outcome, verdicts)} of the cases the chunks concluded, the case a chunk hung in
    included: a chunk for each of `per_gpu` slots of every GPU of the session, `case_args(session,
    case)` a case's input arguments. The cases left out are the caller's to run one a process."""
    indices = list(range(len(sub.cases)))
    slots = per_gpu * session.gpus.count
    chunks = [c for c in (indices[k::slots] for k in range(slots)) if c]
    found = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, len(chunks))) as pool:
        for part in pool.map(lambda chunk: _run_chunk(session, sub, chunk, per_gpu, case_args), chunks):
            found.update(part)
    return found


def _run_chunk(session, sub, chunk, per_gpu, case_args):
    names = sorted({v["name"] for v in session.spec["variants"]})
    each = session.spec["time_limit_s"]
    folder = session.scratch(sub, f"cases-{chunk[0]}")
    handle = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)  # read back through this, whatever the run renames
    try:
        listed = []
        for i in chunk:
            raw = os.path.join(folder, f"case-{i}")  # its --raw-out; case-i.json, .err and .status beside it
            os.mkdir(raw)
            listed.append({"args": case_args(session, sub.cases[i]) + ["--raw-out", raw], "log": raw})
        with open(os.path.join(folder, "cases.json"), "w") as f:
            json.dump({"cases": listed}, f)
        session.isolation.hand_over(folder, sub.identity)
        ended = lambda: sum(_read(handle, f"case-{i}.status", 64) is not None for i in chunk)  # noqa: E731
        with session.gpus.slot(per_gpu):
            ran = sandbox.run(session.isolation, [sub.binary, "--check-only", "--variant", ",".join(names), "--format", "json",
                                                  "--case-list", os.path.join(folder, "cases.json")],
                              folder, each * len(chunk), identity=sub.identity, progress=(ended, each))
        add_seconds(sub, "cases", "its runs", ran.seconds)
        results = {}
        for i in chunk:
            status = _status(_read(handle, f"case-{i}.status", 64))
            if status not in (0, 1):  # no status, or an end that may be an earlier case's doing (a CUDA error sticks)
                if status is None and ran.timed_out:  # the case it was in: a hang costs one limit, not two
                    results[i] = (sandbox.Outcome(ran.status, "", ran.stderr, each, True), {})
                break
            outcome = sandbox.Outcome(status, _read(handle, f"case-{i}.json", sandbox.OUTPUT_LIMIT) or "",
                                      _read(handle, f"case-{i}.err", sandbox.OUTPUT_LIMIT) or "", ran.seconds / len(chunk), False)
            results[i] = (outcome, checked(session, sub, "cases", os.path.join(folder, f"case-{i}"), f"case-{i}",
                                                        case_args(session, sub.cases[i])))
        return results
    finally:
        os.close(handle)
        shutil.rmtree(folder, ignore_errors=True)


def _read(folder_fd, name, limit):
    """The last `limit` bytes of a plain file the run wrote in the folder, as text; None where
    there is none (or it is a link, a device, a folder)."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=folder_fd)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        os.lseek(fd, max(0, info.st_size - limit), os.SEEK_SET)
        return os.read(fd, limit).decode(errors="replace")
    finally:
        os.close(fd)


def _status(text):
    """A case's exit status from its status file, or None."""
    try:
        return int(text.strip()) if text is not None else None
    except ValueError:
        return None
