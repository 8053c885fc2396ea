"""A lab whose runs have the GPU to themselves (lab 9, "gpu_to_itself") is held to its budget from
outside the submission's process in its checked runs too, as its timed runs are from the timer's:
while a hidden case (or a sanitizer run's twin without the tool) runs, the reference build beside
it (--hold-outside) holds each GPU's memory but the case's budget, what the reference's own graded
run had in use when its GPUs opened (grader.Session.measure_reference_start) and the timer's slack.
Memory a submission takes before main, or a figure its own report forges, then gains it nothing:
an allocation past the budget fails whatever call makes it. The holder says what its GPUs had in
use with the hold in place, which the run's own figure of memory at start counts too
(hidden_cases.held_at_start takes it off). Under a sanitizer no hold is placed: the tool's own
device memory would count against the budget. What cannot be held fails closed: a hold that
cannot be placed, or that ends before the run does, fails the case, and the session's pre-flight
makes sure the reference passes under the hold before anything is graded. (A session that
measured no reference start places none: only the tests' stand-in sessions, since the pre-flight
of a gpu_to_itself lab grades nothing without it.)"""
import math
import select
import subprocess

from . import gpu_pool

READY_S = 120  # the holder's CUDA start and one allocation of the device's memory: seconds at most


class OutsideHold:
    """with OutsideHold(session, args, tool) as hold: the case's budget (args, its input arguments)
    held from the reference's process on the GPU of this thread's lease (or `env`'s) while the
    block runs. hold.problem: why it could not be placed (the caller then makes no run); after the
    block, hold.lost: why it did not last the run; hold.in_use_mib: what the GPUs had in use with
    the hold in place (None where none was placed)."""

    def __init__(self, session, args, tool=None, env=None):
        self.session, self.args, self.tool, self.env = session, args, tool, env
        self.problem = self.lost = self.in_use_mib = None
        self.holder = None

    def needed(self):
        return not self.tool and self.session.spec.get("gpu_to_itself") and getattr(self.session, "reference_start_mib", None) is not None

    def __enter__(self):
        if not self.needed():
            return self
        command = [self.session.reference, "--check-only", *self.args, "--hold-outside", str(math.ceil(self.session.reference_start_mib))]
        self.holder = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                       env=self.env or gpu_pool.child_environment())
        ready, _, _ = select.select([self.holder.stdout], [], [], READY_S)
        said = self.holder.stdout.readline() if ready else ""
        try:
            self.in_use_mib = float(said.split()[1]) if said.startswith("held: ") else None
        except (IndexError, ValueError):
            self.in_use_mib = None
        if self.in_use_mib is None:
            self.problem = f"not run: the grader could not hold the GPU's memory outside the run ({self._last_words(said)})"
        return self

    def __exit__(self, *_exc):
        if self.holder is None or self.problem:
            return False
        if self.holder.poll() is not None:  # it ended during the run: the run went unheld for a while
            self.lost = f"the grader's hold on the GPU's memory ended during the run ({self._last_words('')})"
            return False
        self.holder.stdin.close()  # its input ends: it checks its hold lasted, lets go and exits
        try:
            status = self.holder.wait(timeout=60)
        except subprocess.TimeoutExpired:
            status = None
        if status != 0:
            self.lost = f"the grader's hold on the GPU's memory did not last the run ({self._last_words('')})"
        self._close()
        return False

    def _last_words(self, said):
        """The holder's last line, once it has ended (killed here if it has not)."""
        if self.holder.poll() is None:
            self.holder.kill()
            self.holder.wait()
        err = self.holder.stderr.read() if not self.holder.stderr.closed else ""
        self._close()
        return ((err or "").strip().splitlines() or [said.strip() or f"no word in {READY_S} s"])[-1][:300]

    def _close(self):
        for pipe in (self.holder.stdin, self.holder.stdout, self.holder.stderr):
            if pipe and not pipe.closed:
                pipe.close()
