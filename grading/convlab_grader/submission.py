"""Finding a lab's student files in what a student handed in: a folder, or a .zip / .tar(.gz)
archive. Only those files are used; everything else is listed as ignored. Archives are unpacked
with limits: no absolute paths or '..', no links, at most MAX_FILES files and MAX_BYTES bytes."""
import os
import shutil
import tarfile
import zipfile

MAX_FILES = 2000
MAX_BYTES = 64 << 20
MAX_STUDENT_FILE = 1 << 20


class SubmissionError(Exception):
    pass


def _safe_member(name):
    parts = name.replace("\\", "/").split("/")
    return not name.startswith("/") and ".." not in parts


def unpack(path, dest):
    """Copies or unpacks the submission into dest; returns dest."""
    if os.path.isdir(path):
        count = 0
        for folder, dirs, files in os.walk(path):
            dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(folder, d))]
            count += len(files)
            if count > MAX_FILES:
                raise SubmissionError(f"more than {MAX_FILES} files")
        shutil.copytree(path, dest, symlinks=True, ignore=shutil.ignore_patterns(".git"))
        return dest
    os.makedirs(dest)
    total = 0
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as z:
            members = [m for m in z.infolist() if not m.is_dir()]
            if len(members) > MAX_FILES:
                raise SubmissionError(f"more than {MAX_FILES} files in the archive")
            for m in members:
                total += m.file_size
                if total > MAX_BYTES or not _safe_member(m.filename):
                    raise SubmissionError(f"archive member {m.filename!r} is unsafe or the archive is too large")
                z.extract(m, dest)
        return dest
    if tarfile.is_tarfile(path):
        with tarfile.open(path) as t:
            members = t.getmembers()
            if len(members) > MAX_FILES:
                raise SubmissionError(f"more than {MAX_FILES} files in the archive")
            for m in members:
                if not (m.isfile() or m.isdir()):
                    continue  # links and devices are never followed
                total += m.size
                if total > MAX_BYTES or not _safe_member(m.name):
                    raise SubmissionError(f"archive member {m.name!r} is unsafe or the archive is too large")
                t.extract(m, dest, set_attrs=False)
        return dest
    raise SubmissionError(f"{path} is neither a folder nor a .zip or .tar archive")


def find_student_files(tree, student_files):
    """Maps each expected path (e.g. labs/lab3/conv2d_tiled.cu) to a file in the tree, by its
    path or, failing that, its name. Returns (found, missing, ignored)."""
    everything = []
    for folder, dirs, files in os.walk(tree):
        for name in files:
            full = os.path.join(folder, name)
            if not os.path.islink(full):
                everything.append(os.path.relpath(full, tree))
    found, missing = {}, []
    for expected in student_files:
        base = os.path.basename(expected)
        candidates = [p for p in everything if p == expected or p.endswith("/" + expected)]
        candidates = candidates or [p for p in everything if os.path.basename(p) == base]
        if not candidates:
            missing.append(expected)
            continue
        chosen = min(candidates, key=lambda p: (len(p), p))
        if os.path.getsize(os.path.join(tree, chosen)) > MAX_STUDENT_FILE:
            raise SubmissionError(f"{chosen} is larger than {MAX_STUDENT_FILE} bytes")
        found[expected] = chosen
    used = set(found.values())
    ignored = sorted(p for p in everything if p not in used)
    return found, missing, ignored
