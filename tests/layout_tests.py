"""The placement rule of common/ (common/README.md), checked on the objects make test built: a file
in common/ outside a family folder serves every lab or several of them; what serves one lab lives
in its family's folder or the lab's own."""
import glob
import os
import subprocess

from testkit import ROOT, labs, make

SHARED_EXEMPT = ("common/tools/", "common/bench/", "common/families/")


def symbols(obj):
    """(defined, undefined) global symbols of one object file."""
    out = subprocess.run(["nm", "-P", "-g", obj], capture_output=True, text=True, check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) >= 2:
            (undefined if fields[1] in "Uw" else defined).add(fields[0])
    return defined, undefined


def headers(obj):
    """The kit's files one object was compiled from (its .d file, which the build writes)."""
    dep = obj[:-2] + ".d"
    if not os.path.exists(dep):
        return set()
    text = open(dep).read().replace("\\\n", " ")
    return {os.path.normpath(os.path.relpath(p, ROOT)) if os.path.isabs(p) else os.path.normpath(p)
            for line in text.splitlines() if ":" in line for p in line.split(":", 1)[1].split()}


def library_objects():
    objs = glob.glob(os.path.join(ROOT, "build", "obj", "common", "**", "*.o"), recursive=True)
    return [o for o in objs if not os.path.relpath(o, os.path.join(ROOT, "build", "obj")).startswith(("common/tools/", "common/bench/"))]


def lab_objects(n):
    """The objects of lab n's own programs: its driver and student files, and their solutions."""
    objs = []
    for folder in (f"labs/lab{n}", f"solutions/lab{n}"):
        objs += glob.glob(os.path.join(ROOT, "build", "obj", folder, "*.o"))
    return objs


def users_of_common_files():
    """Each file of common/ -> the labs whose programs need it, as the linker pulls the library's
    members (an object is needed when it defines a symbol still undefined) and the compiler read
    the headers (the .d files of every object a lab's program links)."""
    library = {o: symbols(o) for o in library_objects()}
    users = {}
    for n in labs():
        start = lab_objects(n)
        assert start, f"lab {n} has no built objects: make test builds them first"
        pulled, defined, undefined = set(), set(), set()
        for o in start:
            d, u = symbols(o)
            defined |= d
            undefined |= u
        while True:
            wanted = undefined - defined
            more = [o for o, (d, _) in library.items() if o not in pulled and d & wanted]
            if not more:
                break
            for o in more:
                pulled.add(o)
                defined |= library[o][0]
                undefined |= library[o][1]
        files = set()
        for o in start + sorted(pulled):
            files |= headers(o)
            source = os.path.relpath(o, os.path.join(ROOT, "build", "obj"))[:-2]
            files |= {source + ext for ext in (".cpp", ".cu") if os.path.exists(os.path.join(ROOT, source + ext))}
        for f in files:
            if f.startswith("common/"):
                users.setdefault(f, set()).add(n)
    return users


def shared_files_serve_several_labs():
    make(*[f"build/bin/lab{n}-{flavour}" for n in labs() for flavour in ("student", "solution")])
    users = users_of_common_files()
    tracked = subprocess.run(["git", "ls-files", "common"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    placed_wrong = [f"{f} (lab {next(iter(users[f]))} alone)" for f in tracked
                    if not f.startswith(SHARED_EXEMPT) and len(users.get(f, ())) == 1]
    assert not placed_wrong, ("used by one lab only, so they belong in its family's folder or the lab's own "
                              "(common/README.md): " + ", ".join(sorted(placed_wrong)))


def lab_suites_find_the_kit_through_testkit():
    """A lab's suite sits a folder deeper than the tests that once held it: a path it computed from
    its own file named tests/grading/... and failed only on a GPU (lab 9's, 2026-11-27)."""
    own_paths = [os.path.relpath(f, ROOT) for f in sorted(glob.glob(os.path.join(ROOT, "tests", "lab_suites", "lab*.py")))
                 if "__file__" in open(f).read()]
    assert not own_paths, "find the kit through testkit.ROOT, not their own file's path: " + ", ".join(own_paths)


def register(results):
    results.run("layout: every file of common/ outside a family folder serves more than one lab", shared_files_serve_several_labs)
    results.run("layout: each lab's tests find the kit through testkit.ROOT", lab_suites_find_the_kit_through_testkit)
