"""The first process inside a submission's namespaces (run by sandbox.run as root, as
`unshare --mount --pid --net --fork --kill-child --mount-proc -- python3 jail.py CONFIG -- CMD...`).

It is process 1 of a new PID namespace, so when it exits the kernel kills every process the
submission started there, daemons and `setsid` children included. Before it starts the command it
changes what the submission can see, in a mount namespace of its own:
  - a private, empty /tmp and /dev/shm (nothing carries over from one run to the next);
  - every hidden path (the kit with its solutions and grading specs, the grader's work folder with
    the other students' builds, the submissions as handed in, home folders) covered by an empty
    tmpfs owned by root (the submission's user cannot write there);
  - the submission's own scratch folder back in place, at the same path, writable.
Then it drops to the submission's own user and group, with no supplementary groups, and runs the
command. It waits for it (reaping whatever else exits, as process 1 must) and exits with its
status, or 128 + the signal that killed it.

Only the standard library, all imported before anything is hidden."""
import ctypes
import json
import os
import resource
import sys

MS_NOSUID, MS_NODEV, MS_BIND, MS_REC, MS_PRIVATE = 2, 4, 4096, 16384, 1 << 18
_libc = ctypes.CDLL(None, use_errno=True)


def _mount(source, target, fstype, flags, data=None):
    if _libc.mount(source.encode(), target.encode(), fstype.encode() if fstype else None, flags,
                   data.encode() if data else None) != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"mount {fstype or 'bind'} on {target}: {os.strerror(errno)}")


def _covered(path, hidden):
    return any(path == h or path.startswith(h.rstrip("/") + "/") for h in hidden)


def enter(config):
    """Everything before the command: mounts, then the identity. Runs as root, as process 1."""
    _mount("none", "/", None, MS_REC | MS_PRIVATE)
    # Held open across the covering mounts: the scratch is put back from these handles.
    keep = [(path, os.open(path, os.O_PATH | os.O_DIRECTORY)) for path in config["writable"]]
    hidden = sorted({os.path.realpath(p) for p in config["hidden"] if os.path.isdir(p)}, key=len)
    done = []
    for path in hidden:
        if _covered(path, done) or not os.path.isdir(path):
            continue  # already under an earlier (shorter) cover
        _mount("none", path, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=64k")
        done.append(path)
    for path in ("/tmp", "/dev/shm"):
        if os.path.isdir(path):
            _mount("none", path, "tmpfs", MS_NOSUID | MS_NODEV, f"mode=1777,size={config['tmp_bytes']}")
    for path, handle in keep:
        if not os.path.isdir(path):
            os.makedirs(path, mode=0o755)  # inside a cover: a root-owned path to the scratch
        _mount(f"/proc/self/fd/{handle}", path, None, MS_BIND | MS_REC)
        os.close(handle)


def child(config, command):
    if config["uid"] is not None:  # None: a user namespace of the grader's own user (not root)
        os.setgroups([])
        os.setgid(config["gid"])
        os.setuid(config["uid"])
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
            return os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
