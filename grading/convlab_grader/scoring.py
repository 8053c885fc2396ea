"""The scoring arithmetic, in one place so that the handouts, the instructor guide and the
self-tests can all point at it."""
from . import sanitizer_tools
from .spec import max_score


def performance_fraction(ratio, slack, zero_at):
    """Share of the performance points for a time `ratio` x the reference's: all of them up to
    `slack`, then a straight line down to none at `zero_at` and beyond."""
    if ratio is None:
        return 0.0
    if ratio <= slack:
        return 1.0
    if ratio >= zero_at:
        return 0.0
    return (zero_at - ratio) / (zero_at - slack)


def correctness_points(passed, total, points):
    """Points in proportion to the hidden cases passed."""
    return points * passed / total if total else 0.0


def round_points(value):
    return round(value + 1e-9, 2)


def score(spec, result, case_count):
    """The result's points from its parts (the rubric's correctness, performance and safety), its
    deductions and its total. A variant never graded (the build failed) counts its case_count
    hidden cases as failed."""
    rubric = spec["rubric"]
    parts = {}
    correctness = 0.0
    for v in spec["variants"]:
        t = result["variants"].setdefault(v["label"], {"passed": 0, "total": case_count, "first_failure": "not built"})
        t["points"] = v["points"]
        t["score"] = round_points(correctness_points(t["passed"], t["total"], v["points"]))
        correctness += t["score"]
    parts["correctness"] = correctness
    perf = result["performance"]
    parts["performance"] = rubric.get("performance", 0) * (perf["fraction"] if perf else 0.0)
    if "safety" in rubric:
        # A kernel that computes nothing is trivially clean: safety counts only with some correctness.
        if result["sanitizer"] and correctness > 0:
            parts["safety"] = sum(t["points"] for t in result["sanitizer"].values() if t["clean"])
            parts["safety"] *= rubric["safety"] / sum(spec["sanitizer"]["tools"].values())
        else:
            parts["safety"] = 0.0
    result["deductions"] = []
    if not result["build"]["ok"]:
        result["deductions"].append("the submission does not build: no points")
    for tool, t in result["sanitizer"].items():
        if not t["clean"]:
            result["deductions"].append(f"{sanitizer_tools.runner(spec)} {tool}: {t['run']}; {'; '.join(t['findings']) or 'errors reported'}")
    result["scores"] = {k: round_points(v) for k, v in parts.items()}
    result["score"] = round_points(sum(parts.values()))
    result["max_score"] = max_score(spec)
    result["manual"] = rubric.get("manual", 0)
    result["rubric"] = rubric
