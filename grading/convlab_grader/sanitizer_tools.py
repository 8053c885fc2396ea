"""The program a safety run goes under, by the spec's sanitizer "runner", and how its verdict is read.

- compute-sanitizer (the CUDA labs, the default): NVIDIA's tools by name (memcheck, racecheck,
  synccheck, initcheck); --error-exitcode=99 marks a finding.
- oclgrind (the OpenCL labs, Debian's and Ubuntu's package `oclgrind`): an OpenCL device simulated
  on the CPU that checks every access a kernel makes. It runs the lab's own program with its
  runtime in place of every OpenCL platform, so the kernels run on it and nowhere else.
  "memcheck" is its default checks (a read or write outside any buffer or outside local memory, a
  barrier not every work-item of a work-group reaches), "racecheck" adds --data-races (two
  work-items of a launch writing, or one writing and one reading, one address with no barrier
  between). It reports on its log and never through the exit status, so a finding is a log that is
  not empty; and since the program could have run without it (a device the simulator did not
  replace), a run counts as watched only when the program's own report names the simulator as
  its device. A log that is missing, unreadable or a link, or a report that names another device,
  is a run not measured: dirty (fail closed)."""
import json
import os
import stat

RUNNERS = {"compute-sanitizer": ("memcheck", "racecheck", "synccheck", "initcheck"), "oclgrind": ("memcheck", "racecheck")}
OCLGRIND_FLAGS = {"memcheck": [], "racecheck": ["--data-races"]}
OCLGRIND_DEVICE = "Oclgrind Simulator"  # the device name its runtime gives (Oclgrind 21.10)
OCLGRIND_LOG = "oclgrind.log"
# Findings a run's log keeps (--max-errors): enough that a kernel's first invalid accesses do not
# crowd out its races, which racecheck's verdict reads, and a log stays far under LOG_LIMIT.
OCLGRIND_MAX_ERRORS = 50
LOG_LIMIT = 64 * 1024  # what is read of a log: its first findings are all a deduction names


def runner(spec):
    """The spec's sanitizer program: compute-sanitizer unless it says oclgrind."""
    return spec.get("sanitizer", {}).get("runner", "compute-sanitizer")


def writes_a_log(spec):
    """Whether the spec's tool writes a log of its findings in a folder of the run's (oclgrind)."""
    return runner(spec) == "oclgrind"


def command(spec, tool, folder):
    """The words put in front of the graded program to run it under `tool`; `folder` is a folder
    of the run's own where the tool writes a log (writes_a_log), else None."""
    if runner(spec) == "oclgrind":
        return ["oclgrind", *OCLGRIND_FLAGS[tool], "--max-errors", str(OCLGRIND_MAX_ERRORS), "--log", os.path.join(folder, OCLGRIND_LOG)]
    return ["compute-sanitizer", f"--tool={tool}", "--error-exitcode=99", "--print-limit=5"]


def findings(spec, tool, ran, folder):
    """(clean, up to four lines saying what was found) for a run under `tool` that neither hung
    nor crashed, `folder` its tool folder. The lab's own exit 1 (its check) is not a finding."""
    if runner(spec) != "oclgrind":
        text = ran.stdout + ran.stderr
        found = [line.strip() for line in text.splitlines() if line.startswith("========= ") and
                 ("Invalid" in line or "hazard" in line.lower() or "error" in line.lower())][:4]
        return ran.status != 99, found
    device = reported_device(ran.stdout)
    if device != OCLGRIND_DEVICE:
        return False, [f"not measured: the run's report names its device {device!r}, not oclgrind's simulator"]
    log = read_plain(os.path.join(folder, OCLGRIND_LOG))
    if log is None:
        return False, ["not measured: oclgrind left no log that reads as a plain file"]
    # Each finding is a line of its own ("Invalid write of size 4 at global memory address ...",
    # "Read-write data race at local memory address ...") followed by indented detail. Under
    # --data-races oclgrind makes its default checks too; as with compute-sanitizer, racecheck's
    # verdict is its races alone (the memcheck runs judge the rest).
    found = [line.strip() for line in log.splitlines() if line.strip() and not line[0].isspace()]
    if tool == "racecheck":
        found = [line for line in found if "data race" in line.lower()]
        return not found, found[:4]
    return not log.strip(), found[:4] or ([log.strip()[:200]] if log.strip() else [])


def reported_device(stdout):
    """The device name in the program's JSON report, or None."""
    try:
        device = json.loads(stdout).get("device", {})
        return device.get("name") if isinstance(device, dict) else None
    except (ValueError, AttributeError):
        return None


def read_plain(path):
    """A file's text when it is a plain file (not a link, a folder or a pipe), else None."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        return os.read(fd, LOG_LIMIT).decode(errors="replace")
    finally:
        os.close(fd)
