"""Building a submission against a clean copy of the kit: the harness, the drivers and the other
labs' skeletons come from the kit; only the lab's student files come from the submission. A
template copy is built once per session, so each submission recompiles only its own files. What
is built is the graded binary (build/bin/labN-graded): the student build without any of the kit's
CPU references (the Makefile's WITHHELD_SRC), so that the submission's process never holds an
answer; its results are checked by the reference build's --compare, in the grader's process."""
import os
import shutil

from . import sandbox
from .spec import KIT

KIT_PARTS = ["Makefile", "common", "labs"]  # never solutions/, grading/ or tests/


def kit_build_jobs():
    """make -jN for the kit's own builds (the template, the reference solution): a compiler a core,
    at most 16 (nvcc takes about a GiB each). With -j4 the template took 40 to 50 s of a 16-core
    H100 host, a GPU idle all the while, once for every grade command."""
    return f"-j{min(16, max(4, os.cpu_count() or 4))}"


def make_template(work, lab, isolation, time_limit=1800):
    """A clean kit with its library and the lab's skeleton build done. Returns its path."""
    template = os.path.join(work, "template")
    os.makedirs(template)
    os.chmod(template, 0o700)  # the grader's: each submission gets a copy of its own
    for part in KIT_PARTS:
        source = os.path.join(KIT, part)
        target = os.path.join(template, part)
        if os.path.isdir(source):
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, target)
    if os.environ.get("DEPS_INCLUDE"):
        deps = os.path.abspath(os.path.join(KIT, os.environ["DEPS_INCLUDE"]))
        if os.path.isdir(deps):
            shutil.copytree(deps, os.path.join(template, ".deps"))
    outcome = sandbox.run(isolation, ["make", "--no-print-directory", kit_build_jobs(), f"build/bin/lab{lab}-graded"] + _make_vars(template),
                          template, time_limit)
    if outcome.status != 0:
        raise RuntimeError(f"the kit's own lab {lab} skeleton does not build:\n{(outcome.stdout + outcome.stderr)[-3000:]}")
    return template


def _make_vars(tree):
    deps = os.path.join(tree, ".deps")
    return [f"DEPS_INCLUDE={deps}"] if os.path.isdir(deps) else []


class Build:
    def __init__(self, ok, log, tree):
        self.ok = ok
        self.log = log      # the compiler's messages (the tail, when long)
        self.tree = tree

    def binary(self, lab):
        return os.path.join(self.tree, "build", "bin", f"lab{lab}-graded")


def build_submission(template, dest, files, tree_of_submission, lab, isolation, identity, time_limit=600):
    """Copies the template, puts the submission's files in, builds in the sandbox as the
    submission's own user: a build can write into its own copy and nowhere else."""
    shutil.copytree(template, dest, symlinks=True)
    for expected, found in files.items():
        target = os.path.join(dest, expected)
        shutil.copyfile(os.path.join(tree_of_submission, found), target)
        os.utime(target)  # newer than the template's objects: make recompiles exactly these
    isolation.hand_over(dest, identity)
    # One compiler per student file: lab 4's three files take minutes one after another.
    jobs = f"-j{max(2, len(files))}"
    outcome = sandbox.run(isolation, ["make", "--no-print-directory", jobs, f"build/bin/lab{lab}-graded"] + _make_vars(dest),
                          dest, time_limit, identity=identity)
    log = (outcome.stdout + outcome.stderr)[-6000:]
    if outcome.timed_out:
        log = f"the build took longer than {time_limit} s\n" + log
    return Build(outcome.status == 0 and not outcome.timed_out, log, dest)
