"""The safety part of grading: compute-sanitizer's tools on every border mode and channel count
(cases.sanitizer_runs), the runs side by side."""
import concurrent.futures
import shutil

from . import cases, sandbox, spec

SANITIZER_AT_ONCE = 8  # compute-sanitizer runs side by side (one at a time where the spec says gpu_to_itself)


def run_sanitizer(session, sub):
    """compute-sanitizer on every border and channel count (cases.sanitizer_runs), the runs
    side by side. A tool is clean when every one of its runs is."""
    s = session.spec["sanitizer"]
    runs = sub.sanitizer_runs

    def one_run(numbered):
        number, (tool, args) = numbered
        out = session.scratch(sub, f"sanitizer-{number}")
        ran = sandbox.run(session.isolation, ["compute-sanitizer", f"--tool={tool}", "--error-exitcode=99", "--print-limit=5",
                                              sub.binary, "--check-only", *args, "--variant", ",".join(s["variants"])],
                          out, s.get("time_limit_s", 180), identity=sub.identity)
        shutil.rmtree(out, ignore_errors=True)
        text = ran.stdout + ran.stderr
        # --error-exitcode=99 marks the tool's findings; the lab's own exit 1 (its check) is not one.
        clean = not ran.timed_out and not ran.crashed and ran.status != 99
        found = [line.strip() for line in text.splitlines() if line.startswith("========= ") and
                 ("Invalid" in line or "hazard" in line.lower() or "error" in line.lower())][:4]
        return tool, args, clean, ran, found

    with concurrent.futures.ThreadPoolExecutor(max_workers=spec.runs_at_once(session.spec, SANITIZER_AT_ONCE)) as pool:
        done = list(pool.map(one_run, enumerate(runs)))
    for tool in s["tools"]:
        mine = [d for d in done if d[0] == tool]
        dirty = [d for d in mine if not d[2]]
        verdict = {"points": s["tools"][tool], "clean": not dirty, "runs": len(mine)}
        if dirty:
            _, args, _, ran, found = dirty[0]
            verdict["run"] = f"{ran.describe()} with {cases.public_args(args)}"
            verdict["findings"] = found
        else:
            verdict["run"] = f"clean in all {len(mine)} runs"
            verdict["findings"] = []
        sub.result["sanitizer"][tool] = verdict
