"""A lab's grading spec (grading/cases/labN.json): the graded variants and their points, the
hidden-case recipe, the performance and sanitizer cases, the time limit; the student files come
from the lab's manifest (manifest.py)."""
import json
import os

from . import manifest, sanitizer_tools
from .manifest import KIT
CASES = os.path.join(KIT, "grading", "cases")


# The built-in images a case may name (--image; the harness generates each from the seed).
IMAGES = ("random", "bright", "synthetic", "spiral", "lines")


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
    if "student_files" in spec:
        raise SpecError(f"{path}: 'student_files' belongs in labs/lab{lab}/manifest, not here")
    try:
        lab_manifest = manifest.load(lab)
    except manifest.ManifestError as why:
        raise SpecError(str(why)) from None
    spec["student_files"] = lab_manifest["student"]
    if ("elements" in spec) != (lab_manifest["input"] == "arrays"):
        raise SpecError(f"{path}: an array lab's spec lists 'elements', an image lab's does not "
                        f"(labs/lab{lab}/manifest: input = {lab_manifest['input']})")
    # An image lab draws its cases from shapes, borders, channels and masks; lab 5 from array lengths.
    recipe = ("elements",) if "elements" in spec else ("shapes", "borders", "channels", "mask_sizes")
    for key in ("variants", *recipe, "rubric", "time_limit_s"):
        if key not in spec:
            raise SpecError(f"{path}: missing '{key}'")
    if spec.get("random_masks", "random") not in ("random", "outer", "box", "gauss"):
        raise SpecError(f"{path}: random_masks is {spec['random_masks']!r}; accepted: \"random\" (asymmetric, any rank), "
                        "\"outer\" (asymmetric and separable), \"box\" (box:K) or \"gauss\" (gauss:K:SIGMA)")
    for bright in spec.get("bright_cases", []):
        missing = [key for key in ("size", "channels", "border", "mask") if key not in bright]
        if missing:
            raise SpecError(f"{path}: a bright case lacks {missing}: {json.dumps(bright)}")
    rows = spec.get("budget_rows", [1])
    if not isinstance(rows, list) or not rows or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in rows):
        raise SpecError(f"{path}: budget_rows is {rows!r}; accepted: a list of whole numbers of rows, each at least 1")
    for fixed in spec.get("image_cases", []):
        missing = [key for key in ("size", "channels", "border", "mask", "image") if key not in fixed]
        if missing:
            raise SpecError(f"{path}: an image case lacks {missing}: {json.dumps(fixed)}")
        if fixed["image"] not in IMAGES:
            raise SpecError(f"{path}: an image case's image is {fixed['image']!r}; accepted: {', '.join(IMAGES)}")
    # A variant that must refuse a mask (lab 6's separable variants, a mask of rank 2) is graded
    # on it only where the hidden cases draw it: from the named masks.
    for v in spec["variants"]:
        missing = [m for m in v.get("refuses", []) if m not in spec.get("named_masks", [])]
        if missing:
            raise SpecError(f"{path}: variant '{v['name']}' refuses {missing}, which 'named_masks' does not list")
    # The grader names the variants it runs in one comma-separated --variant list.
    listed = [v["name"] for v in spec["variants"]] + spec.get("sanitizer", {}).get("variants", [])
    listed += [name for case in spec.get("performance", {}).get("cases", []) for name in case["variants"]]
    for name in listed:
        if "," in name:
            raise SpecError(f"{path}: variant '{name}' has a comma, which --variant's list cannot carry")
    # Who times a lab: the grader's own process (peer timing, the default), or the program itself,
    # which only a lab whose student writes no host code may trust (performance.timed_by_the_program).
    timer = spec.get("performance", {}).get("timer", "peer")
    if timer not in ("peer", "program") or timer == "program" and "OpenCL" not in lab_manifest["libraries"]:
        raise SpecError(f"{path}: the performance timer is {timer!r}; accepted: \"peer\", or \"program\" in an OpenCL lab "
                        f"(labs/lab{lab}/manifest's libraries name OpenCL), whose host code is the kit's")
    # Performance requires correctness: a timed case names the graded variants (by label) that
    # must pass every hidden case. That list holds every variant it times, and may add graded
    # variants the timed one depends on (lab 1's host function launches the timed kernel: a
    # submission whose host function fails earns no performance, whoever measures the time).
    graded = [v["label"] for v in spec["variants"]]
    for number, case in enumerate(spec.get("performance", {}).get("cases", [])):
        labels, ungraded = timed_labels(spec, case)
        if ungraded:
            raise SpecError(f"{path}: timed case {number} times {ungraded}, which no graded variant checks")
        required = case.get("requires") or []
        if not set(labels) <= set(required):
            raise SpecError(f"{path}: timed case {number} must require the variants it times to be correct: "
                            f"\"requires\" must hold {json.dumps(labels)}")
        unknown = [label for label in required if label not in graded]
        if unknown:
            raise SpecError(f"{path}: timed case {number} requires {unknown}, which no graded variant is labelled; "
                            f"labels: {', '.join(graded)}")
    # An image lab's sanitizer cases are drawn whole from the secret (cases.sanitizer_runs): the
    # spec may bound their pixels and mask sizes, never fix their arguments. Lab 5's are fixed.
    sanitizer = spec.get("sanitizer", {})
    if "args" in sanitizer and "elements" not in spec:
        raise SpecError(f"{path}: the sanitizer's cases are drawn from the secret; accepted: \"pixels\" and \"mask_sizes\" "
                        "to bound them, not \"args\"")
    tool = sanitizer_tools.runner(spec)
    if sanitizer and (tool not in sanitizer_tools.RUNNERS or not sanitizer.get("tools")
                      or any(t not in sanitizer_tools.RUNNERS[tool] for t in sanitizer["tools"])):
        raise SpecError(f"{path}: the sanitizer runs {tool!r} with tools {sorted(sanitizer.get('tools', {}))}; accepted: "
                        + "; ".join(f"{r} with {', '.join(ts)}" for r, ts in sanitizer_tools.RUNNERS.items()))
    if tool == "oclgrind" and spec.get("stages"):
        raise SpecError(f"{path}: oclgrind's log is read a run at a time; a lab graded stage by stage runs several")
    strips = sanitizer.get("max_strips")
    if strips is not None and (not isinstance(strips, int) or isinstance(strips, bool) or strips < 2 or "budget_rows" not in spec):
        raise SpecError(f"{path}: the sanitizer's max_strips is {strips!r}; accepted: a whole number of strips, at least 2, "
                        "in a lab with \"budget_rows\"")
    taps = sanitizer.get("max_taps", {})
    if not isinstance(taps, dict) or any(tool not in sanitizer.get("tools", {}) or not isinstance(most, int) or isinstance(most, bool)
                                         or most < 1 for tool, most in taps.items()):
        raise SpecError(f"{path}: the sanitizer's max_taps is {taps!r}; accepted: {{\"tool\": most taps}}, for tools it runs, "
                        "each a whole number, at least 1")
    if "elements" in spec and sanitizer and "args" not in sanitizer:
        raise SpecError(f"{path}: an array lab's sanitizer runs need \"args\"")
    # Drawn options: each a range [lowest, highest] of numbers (cases.drawn_options).
    for holder in [spec, *spec.get("image_cases", [])]:
        for name, bounds in holder.get("drawn_options", {}).items():
            if (not name.startswith("--") or not isinstance(bounds, list) or len(bounds) != 2
                    or not all(isinstance(b, (int, float)) and not isinstance(b, bool) for b in bounds) or bounds[0] > bounds[1]):
                raise SpecError(f"{path}: drawn option {name!r} is {bounds!r}; accepted: \"--option\": [lowest, highest]")
    # A lab graded stage by stage (lab 8: "stages") names each variant's stage after its pipeline in "raw".
    if spec.get("stages"):
        for v in spec["variants"]:
            if not v["raw"].startswith(v["name"] + " "):
                raise SpecError(f"{path}: variant '{v['name']}' of a lab graded stage by stage needs \"raw\": \"PIPELINE STAGE\", "
                                f"not {v['raw']!r}")
    if not isinstance(spec.get("gpu_to_itself", False), bool):
        raise SpecError(f"{path}: gpu_to_itself is {spec['gpu_to_itself']!r}; accepted: true or false")
    if spec.get("gpu_to_itself") and spec.get("cases_in_one_process"):  # memory_hold.py holds a run a case
        raise SpecError(f"{path}: a lab whose runs have the GPU to themselves runs a case a process, each beside the grader's "
                        "hold; accepted: gpu_to_itself without cases_in_one_process")
    correctness = sum(v["points"] for v in spec["variants"])
    if correctness != spec["rubric"]["correctness"]:
        raise SpecError(f"{path}: the variants' points add to {correctness}, the rubric says {spec['rubric']['correctness']}")
    return spec


def stage_of(spec, variant):
    """A graded variant's stage in a lab graded stage by stage ("staged gradients": gradients), else None."""
    return variant["raw"][len(variant["name"]) + 1:] if spec.get("stages") else None


def timed_labels(spec, case):
    """The labels of the graded variants a timed case times, and the names it times that no graded
    variant checks. A timed variant is named as its program names it: the graded result's raw name;
    lab 9's variant (its results add the host memory: "serial pinned"); or, in a lab graded stage by
    stage, a pipeline, whose stage the case's --stage names ("fused" with --stage suppression is
    the result "fused suppression")."""
    args = case.get("args", [])
    stage = args[args.index("--stage") + 1] if "--stage" in args[:-1] else None
    def times(v, name):
        return (v["name"] == name and stage_of(spec, v) == stage) if spec.get("stages") else name in (v["raw"], v["name"])
    labels = [v["label"] for v in spec["variants"] if any(times(v, name) for name in case["variants"])]
    ungraded = [name for name in case["variants"] if not any(times(v, name) for v in spec["variants"])]
    return labels, ungraded


def runs_at_once(spec, usually):
    """How many of a submission's runs may share the GPU: `usually`, or one for a lab whose runs
    hold the rest of the device (lab 9's --gpu-memory cap: "gpu_to_itself")."""
    return 1 if spec.get("gpu_to_itself") else usually


def max_score(spec):
    return sum(spec["rubric"].values()) - spec["rubric"].get("manual", 0)
