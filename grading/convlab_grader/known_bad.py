"""Known-bad submissions: each is a reference solution with one deliberate mistake (or a cheat),
written as edits so that it stays one readable line of intent and follows the solution as it
changes. grading/known-bad/labN.json lists them with what the grader must conclude:
  correctness: "full" | "not-full" | "zero";  performance: "full" | "reduced" | "zero" | "any"
  build: "ok" | "fails";  safety: {tool: "clean" | "dirty"};  runs: "timeouts" | "crashes" (in some case);
  report_excludes: a text that must not appear anywhere in its result (what a cheat tried to smuggle out);
  time_ratio_at_least: in every timed case it was timed in, its median time over the reference's is at
  least this (a timing trick must not make it look faster than it is); with time_ratio_variants
  (labels), only in the cases that time one of those variants (where one variant of several cheats);
  performance_problem: a text that some timed case's problem holds (the grader refused that case's
  time for this reason, e.g. "forged time");
  variants_at_most: {label: share}: the variant so labelled passed at most this share of its hidden
  cases (refused ones weighted as the grader counts them), where the whole correctness is not
  the point (a cheat in one variant of several).
An entry with "launches": "none" must launch no kernel anywhere: its edits leave no `<<<` in the
student files (make test checks it), so that a launch site the reference gains later, which the
edits do not cover, fails on the CPU rather than quietly passes hidden cases on a GPU.
An entry with "needs": "isolation" attacks other submissions or the grader's machine: it is only
graded where the grader runs as root with namespaces (sandbox.Isolation), since elsewhere the
attack succeeds by design, as the grader's notes say.
An attack on other submissions is caught when they keep their grades: the batch's reference
solution, graded after it, must still get full marks (tests/grader_tests.py)."""
import json
import os

from .spec import KIT, read_lab_file
from .spec import load as load_spec

FOLDER = os.path.join(KIT, "grading", "known-bad")


class KnownBadError(Exception):
    pass


def load(lab):
    doc = read_lab_file(FOLDER, lab)
    return doc["submissions"] if doc else []


def materialize(lab, entry, dest):
    """Writes the known-bad submission into dest (a folder, one submission): every student file of
    the lab, from the reference solution (or the skeleton, with "base": "skeleton"), with the
    entry's edits applied to the files it names. A lab of several files needs them all: a file
    left out would be graded as the untouched skeleton's."""
    os.makedirs(dest, exist_ok=True)
    student_files = load_spec(lab)["student_files"]
    unknown = set(entry["files"]) - set(student_files)
    if unknown:
        raise KnownBadError(f"lab {lab} known-bad '{entry['name']}' edits {sorted(unknown)}, which are not student files")
    for path in student_files:
        base = os.path.join(KIT, "labs" if entry.get("base") == "skeleton" else "solutions", os.path.relpath(path, "labs"))
        with open(base) as f:
            text = f.read()
        for old, new in entry["files"].get(path, []):
            if text.count(old) != 1:
                raise KnownBadError(f"lab {lab} known-bad '{entry['name']}': {old!r} occurs {text.count(old)} times in "
                                    f"{os.path.relpath(base, KIT)}, not once: update the edit")
            text = text.replace(old, new)
        with open(os.path.join(dest, os.path.basename(path)), "w") as f:
            f.write(text)


def timing_summary(result):
    """What a wrong performance verdict was made of: each timed case's times, both clocks and its
    problem, and the session's notes (peer timing off, say), so that one failed self-test says why."""
    def median(xs):
        return f"{sorted(xs)[len(xs) // 2]:.4g}" if xs else "-"
    parts = [f"[{c.get('args')}: {c.get('submission_ms')} vs reference {c.get('reference_ms')} ms, grader's clock "
             f"{median(c.get('submission_peer_runs_ms') or [])} vs {median(c.get('reference_peer_runs_ms') or [])} ms, "
             f"problem: {c.get('problem')}]" for c in (result.get("performance") or {}).get("cases", [])]
    notes = result.get("session_notes")
    return " ".join(parts) + (f" session notes: {notes}" if notes else "")


def verdict_problems(entry, result):
    """What differs between the grader's result and what the entry says it must conclude."""
    expect, problems = entry["expect"], []
    scores, rubric = result.get("scores", {}), result.get("rubric", {})
    if expect.get("build", "ok") == "fails" and result["build"]["ok"]:
        problems.append("built, but must fail to build")
    if expect.get("build", "ok") == "ok" and not result["build"]["ok"]:
        problems.append("did not build: " + result["build"]["log"][-300:])
    share = lambda part: scores.get(part, 0) / rubric[part] if rubric.get(part) else None  # noqa: E731
    c = share("correctness")
    want = expect.get("correctness")
    if want == "full" and c != 1 or want == "zero" and c != 0 or want == "not-full" and c == 1:
        problems.append(f"correctness {scores.get('correctness')} of {rubric.get('correctness')}, expected {want}")
    p = share("performance")
    want = expect.get("performance", "any")
    if p is not None and (want == "full" and p != 1 or want == "zero" and p != 0 or want == "reduced" and p == 1):
        problems.append(f"performance {scores.get('performance')} of {rubric.get('performance')}, expected {want}; "
                        + timing_summary(result))
    refused = expect.get("performance_problem")
    if refused and not any(refused in (c.get("problem") or "") for c in (result.get("performance") or {}).get("cases", [])):
        problems.append(f"no timed case was refused for {refused!r}; " + timing_summary(result))
    for tool, state in expect.get("safety", {}).items():
        got = result.get("sanitizer", {}).get(tool)
        if got is None:
            problems.append(f"{tool} did not run")
        elif got["clean"] != (state == "clean"):
            problems.append(f"{tool}: {'clean' if got['clean'] else 'dirty'}, expected {state}")
    least = expect.get("time_ratio_at_least")
    only = set(expect.get("time_ratio_variants", []))
    timed = [c for c in (result.get("performance") or {}).get("cases", []) if c.get("submission_ms") and c.get("reference_ms")
             and (not only or only & set(c.get("variants", [])))]
    if least is not None and not timed:
        problems.append("it was never timed, so its time could not be compared")
    for c in timed if least is not None else []:
        if c["submission_ms"] / c["reference_ms"] < least:
            problems.append(f"timed at {c['submission_ms']:.4g} ms against the reference's {c['reference_ms']:.4g} ms "
                            f"({c['args']}): faster than it can be; its runs: {c.get('submission_runs_ms')} (grader's clock "
                            f"{c.get('submission_peer_runs_ms')}), the reference's: {c.get('reference_runs_ms')} (grader's clock "
                            f"{c.get('reference_peer_runs_ms')}), counted as {c.get('clock') or 'reported'}, problem {c.get('problem')}")
    for label, most in expect.get("variants_at_most", {}).items():
        t = result.get("variants", {}).get(label)
        if t is None or not t.get("total"):
            problems.append(f"variant {label!r} was not graded")
        elif t["passed"] / t["total"] > most:
            problems.append(f"variant {label!r} passed {t['passed']} of {t['total']} hidden cases, more than the {most:.0%} it may")
    smuggled = expect.get("report_excludes")
    if smuggled and smuggled in json.dumps(result):
        problems.append(f"its result contains {smuggled!r}: the attack reached something it must not")
    runs = " ".join(row["run"] for row in result.get("cases", []))
    if expect.get("runs") == "timeouts" and "time limit" not in runs:
        problems.append("no case hit the time limit")
    if expect.get("runs") == "crashes" and "crashed" not in runs:
        problems.append("no case crashed")
    return problems
