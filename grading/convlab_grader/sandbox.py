"""Running untrusted code. Each submission gets an identity of its own (a numeric user and group
no other submission shares, when the grader is root) and every run of it goes through jail.py:
new mount, PID and network namespaces, a file tree of the system's programs and libraries, a
private /tmp and /dev/shm and its own folder (the only one it can write), nothing else of the
machine (the kit, the grader's work folder, other submissions, home folders), and nothing of it
alive once the run ends. Time, CPU, file-size and process-count limits apply to every run, and the
output is read with a deadline even after a kill. What this machine does not allow is said once
in Isolation.notes rather than silently skipped."""
import fcntl
import json
import os
import pwd
import resource
import shutil
import signal
import stat
import subprocess
import sys
import threading
import time

from . import gpu_pool, jail, reports

OUTPUT_LIMIT = 64 * 1024           # bytes of stdout/stderr kept per run
UID_BASE = 61000                   # submission i runs as user and group UID_BASE + i (no account needed)
UID_BLOCK = 10000                  # user numbers one session claims (at most this many submissions)
MAX_PROCESSES = 1024               # per submission user: threads count too (OpenMP, CUDA, make -j)
TMP_BYTES = 1 << 30                # each run's private /tmp and /dev/shm
SWEEP_WAIT_S = 60                  # the longest a submission's killed processes are waited for
DRAIN_SECONDS = 10                 # how long the output is read after a kill
JAIL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "jail.py")
NAMESPACES = ["unshare", "--mount", "--pid", "--net", "--fork", "--kill-child", "--mount-proc"]


class Identity:
    """Who one submission's runs are: its user and group, and the one folder it may write."""

    def __init__(self, uid, gid, folder):
        self.uid, self.gid, self.folder = uid, gid, folder
        self.running = 0  # runs in flight (hidden cases run side by side)
        self.lock = threading.Lock()


class Isolation:
    """What this machine lets the grader do, decided once per session. `hidden` names the paths
    no submission may see (the kit, the work folder, the submissions as handed in)."""

    def __init__(self, hidden=(), uid_base=UID_BASE):
        self.notes = []
        self.root = os.geteuid() == 0
        self.uid_base = self._claim_uids(uid_base) if self.root else uid_base
        self.hidden = [os.path.realpath(p) for p in hidden]
        self.prefix = None
        for prefix in ([NAMESPACES] if self.root else []) + [NAMESPACES[:1] + ["--user", "--map-root-user"] + NAMESPACES[1:]]:
            if _probe(prefix + [sys.executable, JAIL, json.dumps(_jail_config(None, "/", [], self.hidden)), "--", "true"]):
                self.prefix = prefix
                break
        if self.prefix is None:
            self.notes.append("cannot create mount, PID and network namespaces (unshare): submissions share /tmp, see "
                              "the kit and other submissions' folders, keep the network, and may leave processes behind")
        if not self.root:
            self.notes.append("the grader is not root: every submission runs as the grader's own user, not one of its own")

    def _claim_uids(self, first):
        """A block of UID_BLOCK user numbers no other grading session on this machine uses (two
        sessions sharing numbers could reach, and sweep, each other's submissions): each block is
        held by a lock for as long as this session lives."""
        for base in range(first, first + 100 * UID_BLOCK, UID_BLOCK):
            handle = open(_uid_lock_path(base), "w")
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                handle.close()
                continue
            self._lock = handle  # released when the session ends
            return base
        raise RuntimeError(f"100 grading sessions already hold user numbers from {first}: pass another --uid-base")

    def identity(self, index, folder):
        """The identity of the index-th submission of the session; its folder becomes its own."""
        os.makedirs(folder, exist_ok=True)
        if not self.root:
            return Identity(None, None, folder)
        if index >= UID_BLOCK:
            raise RuntimeError(f"a session grades at most {UID_BLOCK} submissions: split the batch")
        uid = self.uid_base + index
        if _account_exists(uid):
            raise RuntimeError(f"user number {uid} belongs to an account: pass a --uid-base whose range holds none")
        os.chown(folder, uid, uid)
        os.chmod(folder, 0o700)
        return Identity(uid, uid, folder)

    def hand_over(self, path, identity):
        """Makes a folder (and what is in it) the submission's, so that it can write there."""
        if identity and identity.uid is not None:
            _chown_tree(path, identity.uid, identity.gid)

    def take_back(self, path):
        """After grading: the submission's folder becomes the grader's again, closed to everyone."""
        if self.root:
            _chown_tree(path, 0, 0)
            os.chmod(path, 0o700)


def _account_exists(uid):
    try:
        pwd.getpwuid(uid)
        return True
    except KeyError:
        return False


def _probe(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, timeout=20).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def _jail_config(identity, cwd, writable, hidden, env=None, covered=()):
    return {"uid": identity.uid if identity else None, "gid": identity.gid if identity else None, "cwd": cwd,
            "writable": writable, "hidden": hidden, "env": env or {}, "tmp_bytes": TMP_BYTES,
            "max_processes": MAX_PROCESSES, "covered": list(covered)}


def _chown_tree(path, uid, gid):
    for folder, dirs, files in os.walk(path):
        os.chown(folder, uid, gid)
        for name in files:
            full = os.path.join(folder, name)
            if not os.path.islink(full):
                os.chown(full, uid, gid)


def collect_files(source, dest, max_bytes):
    """Copies the plain files a submission left in `source` into the grader's own `dest`, for the
    trusted checker: links, devices, folders, hard links and oversized files are skipped, so that
    a result file cannot point the checker (which runs as the grader) at anything else."""
    os.makedirs(dest, exist_ok=True)
    os.chmod(dest, 0o700)
    for name in os.listdir(source):
        try:
            fd = os.open(os.path.join(source, name), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError:
            continue
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1 or info.st_size > max_bytes:
                continue
            with os.fdopen(os.dup(fd), "rb") as f, open(os.path.join(dest, name), "wb") as out:
                shutil.copyfileobj(f, out)
        finally:
            os.close(fd)


class Outcome:
    def __init__(self, status, stdout, stderr, seconds, timed_out, reason=None, cpu_ms=None):
        self.status = status          # exit status; negative: killed by that signal
        self.stdout = stdout
        self.stderr = stderr
        self.seconds = seconds
        self.timed_out = timed_out
        self.reason = reason          # why it was not run at all, or None
        self.cpu_ms = cpu_ms          # CPU time of every process of a jailed run (jail.py), or None

    @classmethod
    def not_run(cls, reason):
        """A run the grader skipped; it counts as a timeout."""
        return cls(-9, "", "", 0.0, True, reason)

    @classmethod
    def not_held(cls, reason):
        """A run the grader did not make because it could not hold it to the lab's rules from
        outside (memory_hold.py): it fails its case, and it is no timeout."""
        return cls(1, "", "", 0.0, False, reason)

    @classmethod
    def combined(cls, outcomes):
        """Several runs of one case (lab 8's, a stage each) as one: the status of the run that
        tells most (a time-out, a crash, a sanitizer's finding, another failure, else the first),
        every run's report's results in one report, and every run's error output with the lines
        compute-sanitizer wrote among the report ("========= ..."), which the merged report drops."""
        if not outcomes:
            return cls.not_run("no stage was run")
        rank = lambda o: (not o.timed_out, not o.crashed, o.status != 99, o.status == 0)  # noqa: E731
        telling = min(outcomes, key=rank)
        results = []
        for o in outcomes:
            doc = reports.parse(o.stdout)
            results += doc.get("results", []) if isinstance(doc, dict) else []
        cpu = [o.cpu_ms for o in outcomes]
        tool = lambda text: "".join(line for line in text.splitlines(True) if line.startswith("========="))  # noqa: E731
        return cls(telling.status, json.dumps({"schema": reports.SCHEMA, "results": results}), "".join(tool(o.stdout) + o.stderr for o in outcomes)[-OUTPUT_LIMIT:],
                   sum(o.seconds for o in outcomes), telling.timed_out, telling.reason,
                   sum(cpu) if all(c is not None for c in cpu) else None)

    @property
    def crashed(self):
        return self.status < 0 and not self.timed_out

    def describe(self):
        if self.reason:
            return self.reason
        if self.timed_out:
            return f"killed after the {self.seconds:.0f} s time limit"
        if self.status < 0:
            return f"crashed ({signal.Signals(-self.status).name})"
        # Exit status 4 is the harness's "a CUDA error ended the GPU part": say which error.
        cuda = [line for line in self.stderr.splitlines() if "CUDA error" in line or "cuda" in line.lower()]
        if self.status == 4 and cuda:
            return f"exit status 4: {cuda[-1].strip()[:200]}"
        return f"exit status {self.status}"


def _limits(cpu_seconds, file_bytes):
    def apply():
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 5))
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_bytes, file_bytes))
        os.setsid()  # its own process group: the time limit kills every process it started
    return apply


def run(isolation, cmd, cwd, time_limit, identity=None, env=None, file_bytes=1 << 30, pass_fds=(), progress=None):
    """Runs cmd with the limits; never raises for what the program does. With an identity the
    run is the submission's (jailed, as its own user); without one it is the grader's own.
    pass_fds: descriptors the program inherits under the same numbers (a peer timer's socket).
    progress: (count, each) for a run of several cases (case_lists.py): count() says how many
    have ended, and the run is killed once `each` seconds pass without one ending, as well as at
    time_limit in all."""
    base = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": cwd, "LANG": "C.UTF-8"}
    for key in ("LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES", "DEPS_INCLUDE", "CUDA_ARCH"):
        if key in os.environ:
            base[key] = os.environ[key]
    base.update(gpu_pool.environment())  # the GPU this run's lease holds (grade --gpus)
    base.update(env or {})
    full = list(cmd)
    if identity and isolation.prefix:
        # Under a lease on one GPU of several (grade --gpus), the others' device files are
        # covered: CUDA_VISIBLE_DEVICES is the run's to change, so it alone would not keep a run
        # off the GPU where another submission is being timed.
        config = _jail_config(identity, cwd, [identity.folder], isolation.hidden, base, gpu_pool.device_files_to_cover())
        full = isolation.prefix + [sys.executable, JAIL, json.dumps(config), "--"] + full
    started = time.time()
    if identity:
        with identity.lock:
            identity.running += 1
    try:
        proc = subprocess.Popen(full, cwd=cwd, env=base, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                preexec_fn=_limits(int(time_limit) * 2 + 10, file_bytes), pass_fds=pass_fds)
        timed_out = False
        try:
            out, err = _communicate(proc, time_limit, progress)
        except subprocess.TimeoutExpired:
            timed_out = True
            out, err = _kill_and_drain(proc)
    finally:
        if identity:
            with identity.lock:
                identity.running -= 1
                # Once none of its runs is in flight, nothing of the submission may be left.
                if identity.running == 0 and identity.uid is not None:
                    sweep(identity.uid)
    status = proc.returncode
    if identity and isolation.prefix and 128 < status <= 128 + 64:
        status = -(status - 128)  # jail.py reports a fatal signal as 128 + its number
    text = lambda b: b[-OUTPUT_LIMIT:].decode(errors="replace")  # noqa: E731
    err, cpu_ms = _jail_cpu_time(text(err)) if identity and isolation.prefix else (text(err), None)
    return Outcome(status, text(out), err, time.time() - started, timed_out, cpu_ms=cpu_ms)


def _communicate(proc, time_limit, progress):
    """The run's output once it ends; TimeoutExpired at time_limit, or, with progress, once its
    `each` seconds pass without another case ending (communicate can be called again after a
    timeout without losing output)."""
    if progress is None:
        return proc.communicate(timeout=time_limit)
    count, each = progress
    start = time.monotonic()
    last, seen = start, count()
    while True:
        now = time.monotonic()
        wait = min(1.0, start + time_limit - now, last + each - now)
        if wait <= 0:
            raise subprocess.TimeoutExpired(proc.args, time_limit)
        try:
            return proc.communicate(timeout=wait)
        except subprocess.TimeoutExpired:
            ended = count()
            if ended != seen:
                seen, last = ended, time.monotonic()


def _jail_cpu_time(stderr):
    """The jail's CPU total from the last line of stderr (nothing of the run can print after it;
    a line the program printed itself earlier is not the last), and stderr without it."""
    head, _, last = stderr.rstrip("\n").rpartition("\n")
    if not last.startswith(jail.CPU_MARKER):
        return stderr, None
    try:
        return head, float(last[len(jail.CPU_MARKER):])
    except ValueError:
        return stderr, None


def _kill_and_drain(proc):
    """Kills the run's process group (with the namespaces, everything in them dies too) and reads
    what is left of its output, giving up after DRAIN_SECONDS: a process that escaped and holds
    the pipe open must not hang the grader."""
    def kill_group():
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    kill_group()
    try:
        return proc.communicate(timeout=DRAIN_SECONDS)
    except subprocess.TimeoutExpired:
        for pipe in (proc.stdout, proc.stderr):
            pipe.close()
        proc.wait()
        return b"", b"(output abandoned: a process kept it open after the kill)"
    finally:
        # A child whose fork was under way when the group was killed can join the group too late
        # for that signal (the likely cause of a `sleep 60 &` that once outlived its shell in the
        # self-test on a loaded 2-core machine); the group keeps its id once its leader is gone,
        # so a second signal reaches it.
        kill_group()


def sweep(uid, wait_s=None):
    """Kills every process still running as `uid` (the namespaces already ended the jailed ones;
    this covers a machine without them, and the ones still dying) and waits until none is left, up
    to wait_s (SWEEP_WAIT_S): a process killed inside a GPU call is gone only once the driver has
    torn its context down, which took long enough on an H100 (a lab 9 program killed at its time
    limit) for the batch to end with it still listed. Returns how many there were."""
    deadline = time.monotonic() + (SWEEP_WAIT_S if wait_s is None else wait_s)
    killed = set()
    while True:
        pids = [pid for pid in pids_of(uid) if pid != os.getpid()]
        if not pids or time.monotonic() > deadline:
            return len(killed)
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
                killed.add(pid)
            except ProcessLookupError:
                pass
        time.sleep(0.05)


def _uid_lock_path(base):
    return os.path.join("/tmp", f"convlab-grader-uids-{base}.lock")


def uid_block_held(uid):
    """True while a grading session holds the block of user numbers uid belongs to: its
    submissions may still run. Two sessions at once (a CI run beside a test run) each see the
    other's processes; only a free block must be empty."""
    base = UID_BASE + (uid - UID_BASE) // UID_BLOCK * UID_BLOCK
    if not os.path.exists(_uid_lock_path(base)):
        return False
    with open(_uid_lock_path(base)) as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return True
        fcntl.flock(handle, fcntl.LOCK_UN)
        return False


def processes():
    """(pid, uid) of every process on the machine but the zombies: a process that has ended and
    waits for its parent to read its status holds no memory, no GPU and no file, and cannot run;
    one whose parent is gone is the machine's init's to reap, which in a container may never
    happen, so it would otherwise be waited for, and reported, forever."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    state = f.read().rpartition(")")[2].split()[0]  # after the command's name, which may hold spaces
                if state != "Z":
                    found.append((int(entry), os.stat(f"/proc/{entry}").st_uid))
            except (OSError, IndexError):
                pass  # ended while we looked
    return found


def pids_of(uid):
    return [pid for pid, owner in processes() if owner == uid]
