"""Python's reader of a lab's manifest, labs/labN/manifest (the Makefile and the shell read it
with common/tools/manifest.sh): one "key = value" a line, lists separated by spaces, '#' starts
a comment line. It names the lab's title, its student files, the files of earlier labs it links,
its extra libraries, what its programs take as input (images, the default, or arrays) and the mask
and channel count the Makefile's sanitize target runs (tool_mask, tool_channels) and the figures
`make report` draws (plots); the grader uses none of these three."""
import os

KIT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KEYS = ("title", "student", "uses", "libraries", "input", "tool_mask", "tool_channels", "plots")
INPUTS = ("images", "arrays")


class ManifestError(Exception):
    pass


def path(lab):
    return os.path.join(KIT, "labs", f"lab{lab}", "manifest")


def labs():
    """The numbers of the labs that have a manifest, in order."""
    folder = os.path.join(KIT, "labs")
    return sorted(int(name[3:]) for name in os.listdir(folder)
                  if name.startswith("lab") and name[3:].isdigit() and os.path.exists(path(name[3:])))


def load(lab):
    """{"title": str, "student": [labs/labN/...], "uses": [labs/...], "libraries": [...], "input": "images" or
    "arrays", "plots": [figure kinds]}; ManifestError
    for a missing manifest, an unknown key or a lab without student files."""
    where = path(lab)
    if not os.path.exists(where):
        raise ManifestError(f"no manifest for lab {lab} ({os.path.relpath(where, KIT)})")
    values = {}
    with open(where) as f:
        for number, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            key, equals, value = line.partition("=")
            key = key.strip()
            if not equals or key not in KEYS:
                raise ManifestError(f"{os.path.relpath(where, KIT)}:{number}: not one of {', '.join(KEYS)} = value")
            values[key] = value.strip()
    if not values.get("student"):
        raise ManifestError(f"{os.path.relpath(where, KIT)}: no student files")
    if values.get("input", "images") not in INPUTS:
        raise ManifestError(f"{os.path.relpath(where, KIT)}: input = {values['input']}; accepted: {', '.join(INPUTS)}")
    return {"title": values.get("title", ""),
            "student": [f"labs/lab{lab}/{name}" for name in values["student"].split()],
            "uses": [f"labs/{name}" for name in values.get("uses", "").split()],
            "libraries": values.get("libraries", "").split(),
            "input": values.get("input") or "images",
            "plots": values.get("plots", "").split()}
