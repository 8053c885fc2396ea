"""A private single-node Slurm cluster for tests, started and stopped by the test itself.

    with SlurmCluster(folder) as cluster:
        subprocess.run(["sbatch", "-p", cluster.partition, ...], env=cluster.env)

Every file the cluster uses lives under `folder`: its own munge key, munged's socket, pid, log and
seed files, slurm.conf, slurmctld's state, slurmd's spool, logs and pid files. Nothing of the
system's is read or touched (/etc/munge, /etc/slurm, /run/munge), so the test runs beside a real
cluster or a system munged without meeting them. The daemons run in the foreground as this
process's children (munged -F, slurmctld -D, slurmd -D); leaving the `with` block cancels every
job, stops the daemons and munged, and ends any job process still running.

Built against Debian 12's slurm-wlm 22.05 and munge 0.5 (common/tools/deps.sh installs them
for `make test`), on a machine without systemd or cgroups: processes are tracked by
proctrack/linuxproc, tasks are not confined (task/none).

No accounting storage: `sacct` does not work here (it answers "Slurm accounting storage is
disabled" and exits 1). A user of this cluster, such as the grader's --slurm mode, tracks its
tasks through its own result files and `squeue` (which lists a job while it is pending,
running or completing), not through sacct.

If anything cannot start (a package missing, a daemon that refuses its configuration or dies),
entering raises SlurmUnavailable with a one-line reason that ends with that daemon's log tail,
so the test can say why it skips."""
import os
import pwd
import shutil
import signal
import socket
import subprocess
import time

# Where Debian puts the daemons: a user's PATH often lacks the sbin folders.
SEARCH_PATH = os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/sbin", "/usr/local/sbin"])
PROGRAMS = ["munged", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "sinfo"]
# Variables a caller's environment may carry (a test run inside a Slurm job, a user's defaults)
# that would point the clients at another cluster or change what they do.
FOREIGN_PREFIXES = ("SLURM_", "SBATCH_", "SALLOC_", "SRUN_", "SQUEUE_", "SINFO_", "SCANCEL_", "SACCT_")
# Put into the daemons' environment alone: slurmstepd inherits it from slurmd, so on exit the
# step daemons this cluster started, and the job processes under them, can be found by it.
MARKER = "CONVLAB_SLURM_CLUSTER"


class SlurmUnavailable(Exception):
    """The cluster could not start; the message is one line that says why."""


def free_port():
    """A TCP port free now. Another program could take it before the daemon binds it; the
    daemon then refuses to start and the fixture says so, which is rare enough for a test."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_open(port):
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


def tail(path, lines=3):
    """The last lines of a log, joined into one line (empty when the log does not exist)."""
    try:
        with open(path, errors="replace") as f:
            return " | ".join(line.strip() for line in f.read().splitlines()[-lines:] if line.strip())
    except OSError:
        return ""


class SlurmCluster:
    def __init__(self, folder, start_timeout=30):
        self.folder = os.path.abspath(folder)
        self.start_timeout = start_timeout
        self.partition = "grading"
        self.node = socket.gethostname().split(".")[0]
        self.conf = os.path.join(self.folder, "slurm.conf")
        self.munge_socket = os.path.join(self.folder, "munge", "munge.socket")
        self.ctld_port = self.slurmd_port = None  # picked when starting
        self.env = None  # set once the cluster runs
        self.daemons = {}  # name: Popen, in the order they were started
        self.programs = {}

    # ---- starting --------------------------------------------------------------------------

    def __enter__(self):
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def start(self):
        for name in PROGRAMS:
            found = shutil.which(name, path=SEARCH_PATH)
            if not found:
                raise SlurmUnavailable(f"{name} is not installed (Debian: slurm-wlm and munge; "
                                       "bash common/tools/deps.sh check test installs them)")
            self.programs[name] = found
        os.makedirs(self.folder, exist_ok=True)
        self.env = self.client_env()
        self.start_munged()
        self.write_conf()
        daemon_env = dict(self.env, **{MARKER: self.folder})
        self.spawn("slurmctld", [self.programs["slurmctld"], "-D", "-f", self.conf], daemon_env)
        self.spawn("slurmd", [self.programs["slurmd"], "-D", "-f", self.conf, "-N", self.node], daemon_env)
        self.wait_until_idle()

    def client_env(self):
        env = {k: v for k, v in os.environ.items() if not k.startswith(FOREIGN_PREFIXES)}
        env["SLURM_CONF"] = self.conf
        env["PATH"] = SEARCH_PATH
        return env

    def start_munged(self):
        folder = os.path.dirname(self.munge_socket)
        # munged wants its socket's folder open to all (the key in it stays the owner's alone).
        os.makedirs(folder, mode=0o755, exist_ok=True)
        key = os.path.join(folder, "munge.key")
        # munged accepts any random key of 32 bytes or more; it must be readable by its owner alone.
        fd = os.open(key, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o400)
        with os.fdopen(fd, "wb") as f:
            f.write(os.urandom(128))
        # --force: munged refuses a socket that other users cannot reach, which a folder from
        # mkdtemp (mode 0700) above it makes so; here the clients and jobs are this user's.
        self.spawn("munged", [self.programs["munged"], "-F", "--force", "-S", self.munge_socket, f"--key-file={key}",
                              f"--log-file={folder}/munged.log", f"--pid-file={folder}/munged.pid",
                              f"--seed-file={folder}/munged.seed"], self.env)
        self.wait_for(lambda: os.path.exists(self.munge_socket), 10, "munged")

    def write_conf(self):
        for sub in ("state", "spool", "log", "run"):
            os.makedirs(os.path.join(self.folder, sub), exist_ok=True)
        f = self.folder
        self.ctld_port, self.slurmd_port = free_port(), free_port()
        user = pwd.getpwuid(os.getuid()).pw_name
        # 127.0.0.1 for both daemons: no name lookup of this host, which a CI machine may not resolve.
        lines = [
            "ClusterName=convlab",
            f"SlurmctldHost={self.node}(127.0.0.1)",
            f"SlurmctldPort={self.ctld_port}",
            f"SlurmdPort={self.slurmd_port}",
            f"SlurmUser={user}",
            f"SlurmdUser={user}",
            "AuthType=auth/munge",
            "CredType=cred/munge",
            f"AuthInfo=socket={self.munge_socket}",  # read by the clients too: they find slurm.conf by SLURM_CONF
            f"StateSaveLocation={f}/state",
            f"SlurmdSpoolDir={f}/spool",
            f"SlurmctldPidFile={f}/run/slurmctld.pid",
            f"SlurmdPidFile={f}/run/slurmd.pid",
            f"SlurmctldLogFile={f}/log/slurmctld.log",
            f"SlurmdLogFile={f}/log/slurmd.log",
            "SlurmctldDebug=info",
            "SlurmdDebug=info",
            # No cgroups or systemd on the machines this runs on: track processes by parentage,
            # confine nothing.
            "ProctrackType=proctrack/linuxproc",
            "TaskPlugin=task/none",
            "JobAcctGatherType=jobacct_gather/none",
            "AccountingStorageType=accounting_storage/none",
            "JobCompType=jobcomp/none",
            "SelectType=select/cons_tres",
            "SelectTypeParameters=CR_Core",
            "MpiDefault=none",
            "ReturnToService=2",
            "MailProg=/bin/true",  # Debian's slurm names /usr/bin/mail, which a CI machine lacks
            # The node is as configured, whatever slurmd finds (sockets, threads, memory): a
            # difference would otherwise drain it.
            "SlurmdParameters=config_overrides",
            # A batch job is scheduled when submitted rather than up to 3 s later (Slurm's default
            # batch_sched_delay): the smoke test's body takes 5.5 s instead of 8.5.
            "SchedulerParameters=batch_sched_delay=0",
            # Finished jobs leave slurmctld's memory soon; squeue does not list them anyway.
            "MinJobAge=10",
            "KillWait=2",
            f"NodeName={self.node} NodeAddr=127.0.0.1 CPUs={os.cpu_count() or 1} RealMemory=256 State=UNKNOWN",
            f"PartitionName={self.partition} Nodes={self.node} Default=YES MaxTime=INFINITE State=UP",
        ]
        with open(self.conf, "w") as out:
            out.write("# A private test cluster: tests/slurm_cluster.py writes this file.\n" + "\n".join(lines) + "\n")

    def spawn(self, name, argv, env):
        # Each daemon's own stdout/stderr, for errors it prints before it opens its log.
        with open(os.path.join(self.folder, f"{name}.out"), "w") as out:
            self.daemons[name] = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                                  cwd=self.folder, start_new_session=True)

    def log_of(self, name):
        if name == "munged":  # in the foreground munged logs to stderr alone, which munged.out holds
            return ""
        return os.path.join(self.folder, "log", f"{name}.log")

    def why_not(self, name):
        """One line: the daemon's exit status, if it died, and the tail of what it wrote."""
        proc = self.daemons.get(name)
        status = f"exited with status {proc.returncode}" if proc and proc.poll() is not None else "still running"
        # In the foreground the daemons write their log to stderr as well: the log file is the
        # fallback for one that failed before saying anything there.
        said = tail(os.path.join(self.folder, f"{name}.out")) or tail(self.log_of(name))
        return f"{name} {status}: {said or 'no log'}"

    def wait_for(self, ready, timeout, name):
        deadline = time.time() + timeout
        while True:
            # A dead daemon first: sinfo keeps retrying a controller that is gone for seconds.
            for other, proc in self.daemons.items():
                if proc.poll() is not None:
                    raise SlurmUnavailable(f"{other} did not start: {self.why_not(other)}")
            if ready():
                return
            if time.time() > deadline:
                raise SlurmUnavailable(f"{name} not ready after {timeout} s: {self.why_not(name)}")
            time.sleep(0.2)

    def node_state(self):
        try:
            out = subprocess.run([self.programs["sinfo"], "-h", "-N", "-n", self.node, "-o", "%T"], env=self.env,
                                 capture_output=True, text=True, timeout=10).stdout
        except subprocess.TimeoutExpired:
            return ""
        return out.strip()

    def wait_until_idle(self):
        # slurmctld's port first: sinfo retries a controller that does not answer for about 10 s,
        # which would hide a slurmctld that died at once. The node turns idle once slurmd registered.
        deadline = time.time() + self.start_timeout
        self.wait_for(lambda: port_open(self.ctld_port), self.start_timeout, "slurmctld")
        self.wait_for(lambda: self.node_state() == "idle", max(1, deadline - time.time()), "slurmd")

    # ---- stopping --------------------------------------------------------------------------

    def job_ids(self):
        try:
            out = subprocess.run([self.programs["squeue"], "-h", "-o", "%A"], env=self.env, capture_output=True, text=True,
                                 timeout=10).stdout
        except subprocess.TimeoutExpired:
            return []
        return out.split()

    def cancel_all(self, timeout=15):
        """Cancels every job and waits until squeue lists none, so the step daemons end themselves."""
        deadline = time.time() + timeout
        ids = self.job_ids()
        while ids and time.time() < deadline:
            subprocess.run([self.programs["scancel"], *ids], env=self.env, capture_output=True, timeout=10)
            time.sleep(0.3)
            ids = self.job_ids()

    def stop(self):
        running = {n: p for n, p in self.daemons.items() if p.poll() is None}
        if "slurmctld" in running and "slurmd" in running:
            try:
                self.cancel_all()
            except (OSError, subprocess.SubprocessError):
                pass
        # Slurm first, munged last: the Slurm daemons authenticate through it until they end.
        for name in ("slurmd", "slurmctld", "munged"):
            proc = self.daemons.get(name)
            if proc is None or proc.poll() is not None:
                continue
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self.end_strays()

    def end_strays(self):
        """Ends the step daemons this cluster's slurmd started and their job processes, found by
        the marker in the daemons' environment; none remain after a clean cancel_all."""
        pids = set(marked_processes(self.folder))
        if not pids:
            return
        pids |= descendants(pids)
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        deadline = time.time() + 5
        while time.time() < deadline and any(os.path.exists(f"/proc/{pid}") and not zombie(pid) for pid in pids):
            time.sleep(0.1)


def marked_processes(folder):
    """Processes (other than this one) whose environment carries this cluster's marker."""
    marker = f"{MARKER}={folder}".encode()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                if marker in f.read().split(b"\0"):
                    yield int(entry)
        except OSError:
            pass


def parents():
    """pid: parent pid, for every process now."""
    table = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    # The command name, in parentheses, may hold spaces: the fields after its last ')' are fixed.
                    table[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    return table


def descendants(roots):
    table = parents()
    found, grew = set(), True
    while grew:
        grew = False
        for pid, ppid in table.items():
            if pid not in found and (ppid in roots or ppid in found):
                found.add(pid)
                grew = True
    return found


def zombie(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True
