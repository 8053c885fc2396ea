"""The GPUs of one host that a grading session spreads its runs over (grade --gpus). A run takes a
lease on one GPU for as long as it lasts, and every process it starts sees that GPU alone
(CUDA_VISIBLE_DEVICES), the trusted side's (the timer, the checker) as well as the submission's:
- a hidden case or a sanitizer run takes a slot of a GPU, several sharing one as on a single GPU
  (one a GPU where the spec says gpu_to_itself);
- a timed run (the submission's and the reference's runs of one case, as a pair) takes a GPU
  whole: no other run starts there until it ends, so a time is never another run's noise and a
  ratio is always against the reference timed on the same GPU in the same minute.
Without --gpus the pool has one GPU, `None`, which restricts nothing (the machine's own default),
so a session of one GPU runs exactly as before."""
import contextlib
import functools
import os
import shutil
import subprocess
import threading

_held = threading.local()  # the lease of the run this thread is making


class GpuError(Exception):
    pass


class Gpu:
    """One GPU: its index as nvidia-smi numbers it (or as CUDA_VISIBLE_DEVICES gave it), its name,
    its UUID (what a run's CUDA_VISIBLE_DEVICES names: CUDA numbers GPUs fastest first unless told
    otherwise, nvidia-smi by PCI bus, so an index could name another card) and its compute
    capability ("9.0"; the build must have code for it)."""

    def __init__(self, index, name, uuid=None, capability=None):
        self.index, self.name, self.uuid, self.capability = index, name, uuid, capability
        self.used = 0  # slots held
        self.whole = False  # held or awaited by a timed run: no new slot is given here

    def describe(self):
        return f"GPU {self.index} ({self.name})" if self.index is not None else self.name

    def visible(self):
        """What CUDA_VISIBLE_DEVICES names this GPU by."""
        return self.uuid or self.index


def host_gpus():
    """Every GPU this process may use (Gpu): nvidia-smi's list, or, where CUDA_VISIBLE_DEVICES is
    set (a Slurm task's GPUs, say), the GPUs it names, as it names them (an index or a UUID),
    described by nvidia-smi where it lists them; [] when there is none."""
    listed = {}
    if shutil.which("nvidia-smi"):
        try:
            done = subprocess.run(["nvidia-smi", "--query-gpu=index,uuid,name,compute_cap", "--format=csv,noheader"],
                                  capture_output=True, text=True, timeout=60)
            for line in done.stdout.splitlines() if done.returncode == 0 else []:
                fields = [f.strip() for f in line.split(",")]
                if len(fields) >= 4 and fields[0].isdigit():
                    gpu = Gpu(fields[0], ",".join(fields[2:-1]), fields[1], fields[-1])
                    listed[gpu.index] = listed[gpu.uuid] = gpu
        except (OSError, subprocess.TimeoutExpired):
            pass
    allowed = os.environ.get("CUDA_VISIBLE_DEVICES")
    if allowed is not None:  # in CUDA's own terms already: kept as given
        found = []
        for g in (g.strip() for g in allowed.split(",")):
            if g:
                known = listed.get(g)
                found.append(Gpu(g, known.name if known else "GPU", None, known.capability if known else None))
        return found
    return [gpu for key, gpu in listed.items() if key == gpu.index]


def choose(request, listed):
    """The GPUs `--gpus` names (all, a count N for the first N, or a list such as 0,2) among
    `listed` (host_gpus()); GpuError with one line when that cannot be."""
    if not listed:
        raise GpuError("--gpus: no GPU here (nvidia-smi lists none, or CUDA_VISIBLE_DEVICES allows none)")
    by_index = {g.index: g for g in listed}
    if request == "all":
        return listed
    if request.isdigit():  # a count: the first N
        count = int(request)
        if not 1 <= count <= len(listed):
            raise GpuError(f"--gpus {request}: a count is 1 to {len(listed)} here (a list such as 0,2 names GPUs)")
        return listed[:count]
    wanted = [w.strip() for w in request.split(",")]
    if not all(wanted) or len(set(wanted)) != len(wanted):
        raise GpuError(f"--gpus {request}: accepted: all, a count (1 to {len(listed)}), or a list of distinct GPUs such as 0,2")
    unknown = [w for w in wanted if w not in by_index]
    if unknown:
        raise GpuError(f"--gpus {request}: no GPU {', '.join(unknown)} here (the GPUs here: {', '.join(by_index)})")
    return [by_index[w] for w in wanted]


def build_architecture(gpus):
    """The CUDA_ARCH a session on these GPUs must build with: None when one architecture serves
    them all (the kit's own detection), "all" when their compute capabilities differ (the kit
    builds for the first GPU only, and a run on another would find no code for it)."""
    capabilities = {g.capability for g in gpus if g.capability}
    return "all" if len(capabilities) > 1 else None


class GpuPool:
    def __init__(self, gpus):
        """gpus: Gpu objects, or one Gpu(None, name) for the machine's default GPU."""
        self.gpus = list(gpus)
        self._changed = threading.Condition()

    @property
    def count(self):
        return len(self.gpus)

    def models(self):
        """The distinct GPU models, in the pool's order."""
        return list(dict.fromkeys(g.name for g in self.gpus))

    def mixed_note(self):
        """One line for every report when the GPUs differ in model; None when they do not."""
        if len(self.models()) < 2:
            return None
        listed = ", ".join(g.describe() for g in self.gpus)
        return (f"this session's GPUs are not all of one model ({listed}): each timed case names the GPU it ran on, and its "
                "ratio is against the reference timed on that GPU in the same run")

    @contextlib.contextmanager
    def slot(self, limit):
        """A share of the least busy GPU that no timed run holds or awaits and that has fewer than
        `limit` runs (as many as share one GPU in a plain session)."""
        with self._changed:
            while True:
                free = [g for g in self.gpus if not g.whole and g.used < max(1, limit)]
                if free:
                    gpu = min(free, key=lambda g: g.used)
                    gpu.used += 1
                    break
                self._changed.wait()
        with self._holding(gpu, release=lambda: setattr(gpu, "used", gpu.used - 1)):
            yield gpu

    @contextlib.contextmanager
    def whole(self):
        """A GPU to itself: the least busy one no other timed run holds or awaits is reserved at
        once (no new slot is given there), then the runs on it are waited for."""
        with self._changed:
            while True:
                open_ = [g for g in self.gpus if not g.whole]
                if open_:
                    gpu = min(open_, key=lambda g: g.used)
                    gpu.whole = True
                    break
                self._changed.wait()
            while gpu.used:
                self._changed.wait()
        with self._holding(gpu, release=lambda: setattr(gpu, "whole", False)):
            yield gpu

    @contextlib.contextmanager
    def _holding(self, gpu, release):
        """This thread's lease on `gpu` while the run lasts; then `release` (under the pool's lock)
        gives back what the lease took, and the waiting runs are told."""
        before = getattr(_held, "gpu", None)
        _held.gpu = gpu
        try:
            yield
        finally:
            _held.gpu = before
            with self._changed:
                release()
                self._changed.notify_all()


def held():
    """The GPU of the lease this thread holds, or None."""
    return getattr(_held, "gpu", None)


def environment():
    """What a process started under this thread's lease must see: its GPU alone ({} without a
    lease, or on the machine's default GPU)."""
    return environment_of(held())


def environment_of(gpu):
    """What a process on `gpu` must see: that GPU alone ({} for None, or the machine's default GPU)."""
    return {"CUDA_VISIBLE_DEVICES": gpu.visible()} if gpu is not None and gpu.visible() is not None else {}


def device_files_to_cover():
    """The device files of this host's GPUs other than the one this thread's lease holds
    (/dev/nvidiaN, N the driver's minor number of each), which a jailed run under the lease must
    not open; [] without a lease on a GPU known by its UUID, or where the driver does not say
    which file is which GPU (then the other GPUs stay reachable, as the instructor guide says)."""
    gpu = held()
    minors = device_minors()
    if gpu is None or gpu.uuid not in minors:
        return []
    return [f"/dev/nvidia{minor}" for uuid, minor in sorted(minors.items()) if uuid != gpu.uuid]


@functools.lru_cache(maxsize=1)
def device_minors(folder="/proc/driver/nvidia/gpus"):
    """{GPU UUID: device minor number} as the NVIDIA driver lists them (a folder a GPU, each with
    an "information" file: "GPU UUID:" and "Device Minor:" lines); {} where it lists none."""
    found = {}
    try:
        entries = os.listdir(folder)
    except OSError:
        return found
    for entry in entries:
        fields = {}
        try:
            with open(os.path.join(folder, entry, "information")) as f:
                for line in f:
                    key, _, value = line.partition(":")
                    fields[key.strip()] = value.strip()
        except OSError:
            continue
        if fields.get("GPU UUID", "").startswith("GPU-") and fields.get("Device Minor", "").isdigit():
            found[fields["GPU UUID"]] = int(fields["Device Minor"])
    return found


def child_environment():
    """os.environ for a process of the grader's own (the timer, the checker), under this thread's lease."""
    return dict(os.environ, **environment())
