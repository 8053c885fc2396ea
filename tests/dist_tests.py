"""make dist-student: the student release holds no solution, hidden case, known-bad submission or
test, not even a line of a solution, and its Makefile still builds and runs a lab."""
import glob
import os
import subprocess
import tarfile
import tempfile

from testkit import ROOT, run

FORBIDDEN_FOLDERS = ("solutions/", "grading/", "tests/", "measurements/", ".ci/")


def release(tmp):
    status, out, err = run([os.path.join(ROOT, "common", "tools", "dist-student.sh"), tmp])
    assert status == 0, out + err
    path = os.path.join(tmp, "convlab-student.tar.gz")
    with tarfile.open(path) as tar:
        tar.extractall(tmp)
        names = [m.name.split("/", 1)[1] for m in tar.getmembers() if "/" in m.name]
    return os.path.join(tmp, "convlab-student"), names


def solution_only_lines(solution):
    """The code lines of a solution file that its skeleton does not have."""
    skeleton = os.path.join(ROOT, "labs", os.path.relpath(solution, os.path.join(ROOT, "solutions")))
    with open(skeleton) as f:
        given = {l.strip() for l in f}
    with open(solution) as f:
        return {l.strip() for l in f if len(l.strip()) >= 20 and not l.strip().startswith("//")} - given


def nothing_of_the_instructor_leaks():
    with tempfile.TemporaryDirectory() as tmp:
        tree, names = release(tmp)
        assert "Makefile" in names and "labs/lab3/conv2d_tiled.cu" in names and "common/runner/lab.hpp" in names, names[:20]
        bad = [n for n in names if n.startswith(FORBIDDEN_FOLDERS) or n.endswith("instructor-guide.md")]
        assert not bad, bad
        released = {}
        for name in names:
            path = os.path.join(tree, name)
            if os.path.isfile(path):
                with open(path, "rb") as f:
                    released[name] = f.read()
        problems = []
        # The expert tier (solutions/labN/expert/) has no skeleton: none of its files may ship.
        for expert in sorted(glob.glob(os.path.join(ROOT, "solutions", "lab*", "expert", "*"))):
            with open(expert, "rb") as f:
                content = f.read()
            problems += [f"{n} is a copy of {os.path.relpath(expert, ROOT)}" for n, data in released.items() if data == content]
        for solution in sorted(glob.glob(os.path.join(ROOT, "solutions", "lab*", "*"))):
            if os.path.isdir(solution):
                continue
            rel = os.path.relpath(solution, os.path.join(ROOT, "solutions"))
            with open(solution, "rb") as f:
                content = f.read()
            problems += [f"{n} is a copy of solutions/{rel}" for n, data in released.items() if data == content]
            shipped = released.get("labs/" + rel)
            if shipped is None:
                problems.append(f"labs/{rel} (the skeleton) is missing")
                continue
            with open(os.path.join(ROOT, "labs", rel), "rb") as f:
                if shipped != f.read():
                    problems.append(f"labs/{rel} in the release is not the skeleton")
            lines = {l.strip() for l in shipped.decode(errors="replace").splitlines()}
            problems += [f"labs/{rel} holds solution line: {l}" for l in sorted(solution_only_lines(solution) & lines)]
        assert not problems, "\n".join(problems[:20])


def release_readme_is_for_students():
    """The release's README is handouts/README-student.md: what to edit, build, run, read and hand
    in, naming only files the release has and commands it can run."""
    import re
    with tempfile.TemporaryDirectory() as tmp:
        tree, names = release(tmp)
        with open(os.path.join(tree, "README.md")) as f:
            readme = f.read()
        with open(os.path.join(ROOT, "handouts", "README-student.md")) as f:
            assert readme == f.read(), "the release's README is not handouts/README-student.md"
        assert "handouts/README-student.md" not in names, "the student README ships twice"
        leaks = [w for w in ("SOLUTION=1", "make demo", "make test", "solutions/", "known-bad", "grading/", "make grade")
                 if w in readme]
        assert not leaks, f"the student README names what the release lacks: {leaks}"
        named = set(re.findall(r"labs/lab\d/[\w.]+\.(?:cu|cpp)", readme))
        missing = sorted(n for n in named if n not in names)
        assert named and not missing, f"the README names files the release lacks: {missing}"
        targets = set(re.findall(r"^make (\w+)", readme, re.M))
        with open(os.path.join(tree, "Makefile")) as f:
            makefile = f.read()
        unknown = sorted(t for t in targets if not re.search(rf"^{t}\b.*:", makefile, re.M) and not t.startswith("lab"))
        assert not unknown, f"the README's make targets the release's Makefile lacks: {unknown}"


def release_builds_and_runs_a_lab():
    with tempfile.TemporaryDirectory() as tmp:
        tree, _ = release(tmp)
        env = dict(os.environ, CUDA_ARCH=os.environ.get("CUDA_ARCH", "sm_90"))
        make = ["make", "--no-print-directory", "-j2"]
        done = subprocess.run(make + ["lab3"], cwd=tree, env=env, capture_output=True, text=True, timeout=1800)
        assert done.returncode == 0 and os.path.exists(os.path.join(tree, "lab3")), (done.stdout + done.stderr)[-3000:]
        done = subprocess.run(["./lab3", "--help"], cwd=tree, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0 and "--mask" in done.stdout, done.stdout + done.stderr
        done = subprocess.run(["./lab3", "--check-only", "--size", "40x30"], cwd=tree, capture_output=True, text=True, timeout=120)
        assert done.returncode in (1, 3), f"the skeleton must fail its check (1) or find no GPU (3): {done.returncode}"
        done = subprocess.run(make + ["lab3", "SOLUTION=1"], cwd=tree, env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode != 0 and "student release" in done.stdout + done.stderr, done.stdout + done.stderr
        done = subprocess.run(make + ["test"], cwd=tree, env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode != 0 and "student release" in done.stdout + done.stderr, done.stdout + done.stderr


def register(results):
    results.run("dist-student: no solution, hidden case, known-bad submission or test in the release", nothing_of_the_instructor_leaks)
    results.run("dist-student: the release's README is the student one, naming only what the release has", release_readme_is_for_students)
    results.run("dist-student: the release builds lab 3 and runs it; SOLUTION=1 and make test say why not", release_builds_and_runs_a_lab)
