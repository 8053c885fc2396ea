"""Running untrusted code: a wall-clock limit that kills the whole process group, resource limits,
no network, and an unprivileged user when the grader runs as root. What is not available on
this machine is reported once (Isolation.notes) rather than silently skipped."""
import os
import pwd
import resource
import shutil
import signal
import subprocess
import time

OUTPUT_LIMIT = 64 * 1024  # bytes of stdout/stderr kept per run


class Isolation:
    """What this machine lets the grader do, decided once per session."""

    def __init__(self, user="nobody"):
        self.notes = []
        self.root = os.geteuid() == 0
        self.user = None
        self.prefix = []
        if self.root:
            try:
                entry = pwd.getpwnam(user)
                self.user = (entry.pw_uid, entry.pw_gid)
            except KeyError:
                self.notes.append(f"user '{user}' does not exist: submissions run as root")
            if self.user and shutil.which("setpriv"):
                self.prefix = ["setpriv", f"--reuid={self.user[0]}", f"--regid={self.user[1]}", "--clear-groups", "--"]
            elif self.user:
                self.notes.append("setpriv is missing: submissions run as root")
                self.user = None
        else:
            self.notes.append("the grader is not root: submissions run as the grader's own user")
        # A new network namespace has only a loopback device: no network for the submission.
        if shutil.which("unshare") and self._probe(["unshare", "--net", "--", "true"]):
            self.prefix = ["unshare", "--net", "--"] + self.prefix
        elif shutil.which("unshare") and self._probe(["unshare", "--user", "--net", "--", "true"]):
            self.prefix = ["unshare", "--user", "--net", "--"] + self.prefix
        else:
            self.notes.append("cannot create a network namespace (unshare): submissions are not cut off from the network")

    @staticmethod
    def _probe(cmd):
        try:
            return subprocess.run(cmd, capture_output=True, timeout=10).returncode == 0
        except (OSError, subprocess.TimeoutExpired):
            return False

    def hand_over(self, path):
        """Makes a folder the submission's own, so that it can write there and nowhere else of ours."""
        if self.user:
            _chown_tree(path, *self.user)

    def take_back(self, path):
        """After grading: the submission's folder becomes the grader's again, closed to the next one."""
        if self.user:
            _chown_tree(path, 0, 0)
            os.chmod(path, 0o700)


def _chown_tree(path, uid, gid):
    for folder, dirs, files in os.walk(path):
        os.chown(folder, uid, gid)
        for name in files:
            full = os.path.join(folder, name)
            if not os.path.islink(full):
                os.chown(full, uid, gid)


class Outcome:
    def __init__(self, status, stdout, stderr, seconds, timed_out, reason=None):
        self.status = status          # exit status; negative: killed by that signal
        self.stdout = stdout
        self.stderr = stderr
        self.seconds = seconds
        self.timed_out = timed_out
        self.reason = reason          # why it was not run at all, or None

    @classmethod
    def not_run(cls, reason):
        """A run the grader skipped; it counts as a timeout."""
        return cls(-9, "", "", 0.0, True, reason)

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
        return f"exit status {self.status}"


def _limits(cpu_seconds, file_bytes):
    def apply():
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 5))
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_bytes, file_bytes))
        os.setsid()  # its own process group: the time limit kills every process it started
    return apply


def run(isolation, cmd, cwd, time_limit, env=None, file_bytes=1 << 30, contained=True):
    """Runs cmd with the limits; never raises for what the program does."""
    full = (isolation.prefix if contained else []) + list(cmd)
    base = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": cwd, "LANG": "C.UTF-8"}
    for key in ("LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES", "DEPS_INCLUDE", "CUDA_ARCH"):
        if key in os.environ:
            base[key] = os.environ[key]
    base.update(env or {})
    started = time.time()
    proc = subprocess.Popen(full, cwd=cwd, env=base, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=_limits(int(time_limit) * 2 + 10, file_bytes))
    timed_out = False
    try:
        out, err = proc.communicate(timeout=time_limit)
    except subprocess.TimeoutExpired:
        timed_out = True
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = proc.communicate()
    text = lambda b: b[-OUTPUT_LIMIT:].decode(errors="replace")  # noqa: E731
    return Outcome(proc.returncode, text(out), text(err), time.time() - started, timed_out)
