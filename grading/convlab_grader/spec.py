"""A lab's grading spec (grading/cases/labN.json): the student files, the graded variants and
their points, the hidden-case recipe, the performance and sanitizer cases, the time limit."""
import json
import os

KIT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CASES = os.path.join(KIT, "grading", "cases")


class SpecError(Exception):
    pass


def read_lab_file(folder, lab):
    """grading/<folder>/labN.json as a dict, or None when the lab has none."""
    path = os.path.join(folder, f"lab{lab}.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def load(lab):
    path = os.path.join(CASES, f"lab{lab}.json")
    spec = read_lab_file(CASES, lab)
    if spec is None:
        have = sorted(f[3:-5] for f in os.listdir(CASES) if f.startswith("lab") and f.endswith(".json"))
        raise SpecError(f"no grading spec for lab {lab}; labs with one: {', '.join(have)}")
    spec["lab"] = lab
    # An image lab draws its cases from shapes, borders, channels and masks; lab 5 from array lengths.
    recipe = ("elements",) if "elements" in spec else ("shapes", "borders", "channels", "mask_sizes")
    for key in ("student_files", "variants", *recipe, "rubric", "time_limit_s"):
        if key not in spec:
            raise SpecError(f"{path}: missing '{key}'")
    # The grader names the variants it runs in one comma-separated --variant list.
    listed = [v["name"] for v in spec["variants"]] + spec.get("sanitizer", {}).get("variants", [])
    listed += [name for case in spec.get("performance", {}).get("cases", []) for name in case["variants"]]
    for name in listed:
        if "," in name:
            raise SpecError(f"{path}: variant '{name}' has a comma, which --variant's list cannot carry")
    correctness = sum(v["points"] for v in spec["variants"])
    if correctness != spec["rubric"]["correctness"]:
        raise SpecError(f"{path}: the variants' points add to {correctness}, the rubric says {spec['rubric']['correctness']}")
    return spec


def max_score(spec):
    return sum(spec["rubric"].values()) - spec["rubric"].get("manual", 0)
