"""What the grader writes: a readable report per student, the whole session as JSON, Gradescope's
results.json, and a gradebook CSV."""
import csv
import json
import os


def text_report(r):
    lines = [f"convlab grader: lab {r['lab']}, {r['student']}",
             f"score {r['score']:g} / {r['max_score']:g}" + (f" (+ {r['manual']} points graded by hand)" if r.get("manual") else ""),
             "  " + ", ".join(f"{k} {v:g}" for k, v in r.get("scores", {}).items()), ""]
    if r.get("machine_note"):
        lines[-1:-1] = [f"note: {r['machine_note']}"]
    if r.get("leaderboard_alias"):
        lines[-1:-1] = [f"your name on the class leaderboard: {r['leaderboard_alias']}"]
    if r["missing"]:
        lines.append("missing (the skeleton was used): " + ", ".join(r["missing"]))
    if r["ignored"]:
        shown = r["ignored"][:10]
        lines.append("ignored (only the lab's student files are used): " + ", ".join(shown) +
                     (f" and {len(r['ignored']) - 10} more" if len(r["ignored"]) > 10 else ""))
    if not r["build"]["ok"]:
        lines += ["", "BUILD FAILED:", r["build"]["log"].rstrip()]
    for label, t in r.get("variants", {}).items():
        weighted = " (refused cases weighted by the share of the others passed)" if t["passed"] != int(t["passed"]) else ""
        lines.append(f"correctness  {label}: {t['passed']} of {t['total']} hidden cases{weighted}")
        if t["first_failure"]:
            lines.append(f"    first failure: {t['first_failure']}")
    perf = r.get("performance")
    if perf:
        for c in perf["cases"]:
            what = f"{timed_what(c)}: "
            if c["problem"]:
                lines.append(f"performance  {what}{c['problem']}")
            else:
                lines.append(f"performance  {what}{c['submission_ms']:.4g} ms against the reference's "
                             f"{c['reference_ms']:.4g} ms ({c['ratio']:.2f}x): {100 * c['fraction']:.0f}% of the points")
                if c.get("clock"):
                    lines.append(f"    {c['clock']}")
                if c.get("gpus"):
                    lines.append(f"    timed on {' and '.join(c['gpus'])}")
            if c.get("expert_ms"):
                lines.append(f"    the kit's expert tier (tuned beyond the handout's design) took {c['expert_ms']:.4g} ms in the "
                             "reference's first run: for information, not scored")
    for tool, t in r.get("sanitizer", {}).items():
        lines.append(f"sanitizer    {tool}: " + ("clean" if t["clean"] else f"NOT clean ({t['run']})"))
        lines += [f"    {f}" for f in t["findings"]]
    if r.get("seconds"):
        lines.append("graded in " + ", ".join(f"{k} {v:g} s" for k, v in r["seconds"].items()))
    if r.get("deductions"):
        lines += ["", "deductions:"] + [f"  - {d}" for d in r["deductions"]]
    return "\n".join(lines) + "\n"


def timed_what(case):
    """A performance case as the report names it: the variants it times (the best counts), at its arguments."""
    return f"{' or '.join(case.get('variants', []))} at {case['args']}" if case.get("variants") else case["args"]


def gradescope(r):
    """Gradescope's results.json for one submission."""
    tests = []
    for label, t in r.get("variants", {}).items():
        points = t.get("points", 0)
        tests.append({"name": f"correctness: {label}", "score": t.get("score", 0), "max_score": points,
                      "output": f"{t['passed']} of {t['total']} hidden cases" + (f"\nfirst failure: {t['first_failure']}" if t["first_failure"] else ""),
                      "visibility": "visible"})
    if "performance" in r.get("scores", {}):
        perf = r.get("performance") or {"cases": []}
        output = "\n".join(f"{timed_what(c)}: " + (c["problem"] or f"{c['ratio']:.2f}x the reference's time" +
                                                     (f" ({c['clock']})" if c.get("clock") else ""))
                           for c in perf["cases"]) or "not graded"
        tests.append({"name": "performance", "score": r["scores"]["performance"], "max_score": r["rubric"]["performance"],
                      "output": output, "visibility": "visible"})
    if "safety" in r.get("scores", {}):
        output = "\n".join(f"{tool}: {'clean' if t['clean'] else 'not clean: ' + '; '.join(t['findings'])}"
                           for tool, t in r.get("sanitizer", {}).items()) or "not graded"
        tests.append({"name": "memory and race safety", "score": r["scores"]["safety"], "max_score": r["rubric"]["safety"],
                      "output": output, "visibility": "visible"})
    if not r["build"]["ok"]:
        tests.insert(0, {"name": "build", "score": 0, "max_score": 0, "output": r["build"]["log"][-4000:], "visibility": "visible"})
    return {"score": r["score"], "output": text_report(r), "tests": tests, "visibility": "visible"}


def write_gradebook(path, results):
    with open(path + ".partial", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["student", "lab", "score", "max_score", "correctness", "performance", "safety", "built", "manual_points"])
        for r in results:
            s = r.get("scores", {})
            w.writerow([r["student"], r["lab"], r["score"], r["max_score"], s.get("correctness", 0), s.get("performance", ""),
                        s.get("safety", ""), "yes" if r["build"]["ok"] else "no", r.get("manual", 0)])
    publish(path)


def write_json(path, doc):
    with open(path + ".partial", "w") as f:
        json.dump(doc, f, indent=1)
    publish(path)


def publish(path):
    os.replace(path + ".partial", path)  # a half-written file is never seen
