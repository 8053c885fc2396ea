"""The safety part of grading: the sanitizer's tools (compute-sanitizer's, or oclgrind's for an
OpenCL lab: sanitizer_tools.py) on every border mode and channel count,
each run on a case drawn from the secret (cases.sanitizer_runs: wide, tall and block shapes), the
runs side by side. Each run's results are checked by the trusted side like a hidden case's, and
the same case is run and checked without the tool too: a result whose verdict differs under the
sanitizer (code that behaves only when watched, or only when not) makes the tool's verdict dirty."""
import concurrent.futures
import threading

from . import cases, hidden_cases, sanitizer_tools, spec

SANITIZER_AT_ONCE = 8  # compute-sanitizer runs side by side (one at a time where the spec says gpu_to_itself)


def run_sanitizer(session, sub):
    """compute-sanitizer on every border and channel count (cases.sanitizer_runs), the runs
    side by side. A tool is clean when every one of its runs is, so once one of its runs is not,
    its runs not yet started are not made: a program that hangs costs a tool's time limit once a
    wave, not once a run (lab 9's runs go one at a time: twelve limits would be 36 minutes)."""
    s = session.spec["sanitizer"]
    runs = sub.sanitizer_runs
    dirty_tools, lock = set(), threading.Lock()
    graded = {v["raw"] for v in session.spec["variants"] if v["name"] in s["variants"]}

    def one_run(numbered):
        number, (tool, case) = numbered
        with lock:
            if tool in dirty_tools:
                return tool, case, None, None, []  # not run: the tool's verdict is already made
        # the run under the tool and its twin without it, on one GPU; as many to a GPU as on one GPU
        with session.gpus.slot(spec.runs_at_once(session.spec, SANITIZER_AT_ONCE)):
            return compared_run(number, tool, case)

    def compared_run(number, tool, case):
        name = f"sanitizer-{number}"
        # The tool's own folder, where the run may write (oclgrind's log), apart from the raw results.
        log_folder = session.scratch(sub, f"{name}-tool") if sanitizer_tools.writes_a_log(session.spec) else None
        ran, inside = hidden_cases.graded_run(session, sub, case, name, s["variants"], s.get("time_limit_s", 180), tool, log_folder)
        clean, found = sanitizer_tools.findings(session.spec, tool, ran, log_folder)
        if ran.timed_out or ran.crashed:
            clean = False
        if clean:
            # The twin gets the tool's time limit, not a hidden case's: on a loaded host (grade --gpus
            # beside other work) a CUDA start alone took seconds, and a twin cut short would make
            # the tool dirty for the host's sake. How it ended is in the finding.
            twin, outside = hidden_cases.graded_run(session, sub, case, f"sanitizer-{number}-without", s["variants"],
                                                    max(session.spec["time_limit_s"], s.get("time_limit_s", 180)), phase="sanitizer")
            differs = [f"{raw}: {verdict(inside, raw)} under {tool}, {verdict(outside, raw)} without it" for raw in sorted(graded)
                       if verdict(inside, raw) != verdict(outside, raw)]
            if differs:
                clean = False
                found = ["the results' verdicts differ between the run under the tool and the same case's without it (that run: " +
                         f"{twin.describe()}): " + "; ".join(differs)][:4]
        if not clean:
            with lock:
                dirty_tools.add(tool)
        return tool, case, clean, ran, found

    # The tools taken in turn (one run of each, then the next of each), so that the first wave
    # meets every tool and each finds a hang early.
    rank, seen = {}, {}
    for number, (tool, _) in enumerate(runs):
        rank[number] = seen.get(tool, 0)
        seen[tool] = rank[number] + 1
    order = sorted(enumerate(runs), key=lambda numbered: (rank[numbered[0]], numbered[0]))
    at_once = spec.runs_at_once(session.spec, SANITIZER_AT_ONCE) * session.gpus.count  # a slot of a GPU each
    with concurrent.futures.ThreadPoolExecutor(max_workers=at_once) as pool:
        finished = dict(zip((number for number, _ in order), pool.map(one_run, order)))
    done = [finished[number] for number in range(len(runs))]  # back in the drawn order: the first dirty run is reported
    for tool in s["tools"]:
        mine = [d for d in done if d[0] == tool and d[2] is not None]
        dirty = [d for d in mine if not d[2]]
        tally = {"points": s["tools"][tool], "clean": not dirty, "runs": len(mine)}
        if dirty:
            _, case, _, ran, found = dirty[0]
            tally["run"] = f"{ran.describe()} on {cases.describe(case)}"
            tally["findings"] = found
        else:
            tally["run"] = f"clean in all {len(mine)} runs, each with the same verdicts as without the tool"
            tally["findings"] = []
        sub.result["sanitizer"][tool] = tally


def verdict(verdicts, raw):
    """A result's verdict from the trusted check, as the sanitizer compares them."""
    return verdicts.get(raw, {}).get("status", "no result")
