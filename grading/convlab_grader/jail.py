"""The first process inside a submission's namespaces (run by sandbox.run as root, as
`unshare --mount --pid --net --fork --kill-child --mount-proc -- python3 jail.py CONFIG -- CMD...`).

It is process 1 of a new PID namespace, so when it exits the kernel kills every process the
submission started there, daemons and `setsid` children included. Before it starts the command it
builds, in a mount namespace of its own, the only file tree the submission sees, and enters it
(chroot): the system's programs and libraries (SYSTEM below, as they are), a new /proc that shows
the namespace's processes only, a private, empty /tmp and /dev/shm, and the submission's own
folder, writable, at its usual path. Nothing else: no home folder, no other copy of the kit
wherever it lies, no other submission, no grader's folder. Paths named "hidden" that lie inside
the system trees (a kit kept under /opt, say) are covered as well, and so are the files named
"covered" (the device files of the GPUs a run under grade --gpus was not given). Then it drops to the
submission's own user and group, with no supplementary groups and no way to gain privileges
(no_new_privs), and runs the command. It waits
for it (reaping whatever else exits, as process 1 must) and exits with its status, or 128 + the
signal that killed it.

Only the standard library, all imported before the tree changes."""
import ctypes
import json
import os
import resource
import signal
import sys

CPU_MARKER = "convlab-jail: cpu_ms="  # the last line of a jailed run's stderr (report_cpu_time)

MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_BIND, MS_REC, MS_PRIVATE = 2, 4, 8, 4096, 16384, 1 << 18
# What a build and a run need: compilers, the CUDA toolkit and driver libraries, configuration,
# devices (the GPU's among them) and the kernel's view of the hardware.
SYSTEM = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/dev", "/sys"]
STAGING = "/tmp"  # a tmpfs is mounted here; the new root is built inside it
PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS = 24, 38
_libc = ctypes.CDLL(None, use_errno=True)


def _mount(source, target, fstype, flags, data=None):
    if _libc.mount(source.encode(), target.encode(), fstype.encode() if fstype else None, flags,
                   data.encode() if data else None) != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"mount {fstype or 'bind'} on {target}: {os.strerror(errno)}")


def _tmpfs(target, mode, size):
    _mount("none", target, "tmpfs", MS_NOSUID | MS_NODEV, f"mode={mode},size={size}")


def enter(config):
    """Everything before the command: the new file tree, entered. Runs as root, as process 1."""
    _mount("none", "/", None, MS_REC | MS_PRIVATE)
    # Held open while the tree is built: the scratch is put back from these handles.
    keep = [(path, os.open(path, os.O_PATH | os.O_DIRECTORY)) for path in config["writable"]]
    _tmpfs(STAGING, "0755", "16m")
    root = os.path.join(STAGING, "root")
    os.mkdir(root)
    for top in SYSTEM:
        inside = root + top
        if os.path.islink(top):
            os.symlink(os.readlink(top), inside)  # /bin -> usr/bin on a merged-/usr system
        elif os.path.isdir(top):
            os.mkdir(inside)
            _mount(top, inside, None, MS_BIND | MS_REC)
    for path in ("/tmp", "/dev/shm"):
        os.makedirs(root + path, exist_ok=True)
        _tmpfs(root + path, "1777", config["tmp_bytes"])
    os.mkdir(root + "/proc")
    _mount("proc", root + "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    for path in sorted({os.path.realpath(p) for p in config["hidden"]}, key=len):
        if os.path.isdir(root + path) and not os.path.islink(root + path):
            _tmpfs(root + path, "0755", "64k")
    for path, handle in keep:
        os.makedirs(root + path, mode=0o755, exist_ok=True)  # root-owned folders on the way to it
        _mount(f"/proc/self/fd/{handle}", root + path, None, MS_BIND | MS_REC)
        os.close(handle)
    # Files the run must not open (the device files of GPUs other than its own, under grade
    # --gpus): each covered by an empty file that its user may not read, so the device behind it
    # cannot be opened from inside, whatever the run's CUDA_VISIBLE_DEVICES says.
    covered = [p for p in config.get("covered", []) if os.path.lexists(root + p) and not os.path.isdir(root + p)]
    if covered:
        blank = os.path.join(STAGING, "covered")
        os.close(os.open(blank, os.O_CREAT | os.O_WRONLY, 0))
        os.chmod(blank, 0)
        for path in covered:
            _mount(blank, root + path, None, MS_BIND)
    os.chroot(root)
    os.chdir("/")


def _drop_privileges(config):
    """No setuid program may raise the submission's privileges (no_new_privs: `su`, `mount` and
    the like are in /usr), and none of the capabilities the jail needed survive: as its own user
    (the grader is root) setuid clears them; in a user namespace (the grader is not root) the
    submission stays user 0 of that namespace, so the bounding set is emptied before exec."""
    if _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
    if config["uid"] is None:
        for capability in range(64):
            _libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0)  # past the last one: EINVAL, ignored
        return
    os.setgroups([])
    os.setgid(config["gid"])
    os.setuid(config["uid"])


def child(config, command):
    _drop_privileges(config)
    procs = config["max_processes"]
    resource.setrlimit(resource.RLIMIT_NPROC, (procs, procs))
    os.chdir(config["cwd"])
    os.execvpe(command[0], command, config["env"])


def main(argv):
    config = json.loads(argv[1])
    command = argv[argv.index("--") + 1:]
    try:
        enter(config)
    except OSError as why:
        print(f"grader sandbox: {why}", file=sys.stderr)
        return 125
    pid = os.fork()
    if pid == 0:
        try:
            child(config, command)
        except OSError as why:
            print(f"grader sandbox: cannot run {command[0]}: {why}", file=sys.stderr)
        os._exit(127)
    while True:
        try:
            done, status = os.wait()
        except ChildProcessError:
            return 125
        if done == pid:
            code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)
            report_cpu_time()
            return code


def report_cpu_time():
    """Ends every process left in the namespace, reaps them all, and prints the CPU time of every
    process the run started as the last line of stderr (CPU_MARKER), when none of them can write
    after it: the grader compares it with what the program says it used itself, so that work in
    a helper process it never waited for cannot hide from lab 0's CPU-time clock."""
    try:
        os.kill(-1, signal.SIGKILL)  # as process 1: every other process of the namespace
    except ProcessLookupError:
        pass
    while True:
        try:
            os.wait()
        except ChildProcessError:
            break
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"\n{CPU_MARKER}{(used.ru_utime + used.ru_stime) * 1e3:.1f}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
