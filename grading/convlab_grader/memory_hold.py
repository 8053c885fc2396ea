"""A lab whose runs have the GPU to themselves (lab 9, "gpu_to_itself") is held to its budget from
outside the submission's process in its checked runs too, as its timed runs are from the timer's:
while a hidden case (or a sanitizer run's twin without the tool) runs, the reference build beside
it (--hold-outside) holds each GPU's memory but the case's budget, what the reference's own graded
run had in use when its GPUs opened (grader.Session.measure_reference_start) and the timer's slack.
Memory a submission takes before main, or a figure its own report forges, then gains it nothing:
an allocation past the budget fails whatever call makes it. (Under a sanitizer no hold is placed:
the tool's own device memory would count against the budget.) What cannot be held fails closed:
the case is not run, and the session's pre-flight makes sure the reference passes under the hold
before anything is graded."""
import contextlib
import math
import select
import subprocess

from . import gpu_pool

READY_S = 120  # the holder's CUDA start and one allocation of the device's memory: seconds at most


@contextlib.contextmanager
def held_outside(session, args, tool=None, env=None):
    """While the block runs, the case's budget (args, a case's input arguments) held from the
    reference's process on the GPU of this thread's lease (or `env`'s). Yields None when the hold is
    in place or not needed (another lab, a run under a sanitizer tool), else why it could not be
    placed: the caller does not run the case."""
    if tool or not session.spec.get("gpu_to_itself") or getattr(session, "reference_start_mib", None) is None:
        yield None
        return
    command = [session.reference, "--check-only", *args, "--hold-outside", str(math.ceil(session.reference_start_mib))]
    holder = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=env or gpu_pool.child_environment())
    try:
        ready, _, _ = select.select([holder.stdout], [], [], READY_S)
        said = holder.stdout.readline() if ready else ""
        if not said.startswith("held"):
            holder.kill()
            _, err = holder.communicate()
            why = (err.strip().splitlines() or [said.strip() or f"no word in {READY_S} s"])[-1][:300]
            yield f"not run: the grader could not hold the GPU's memory outside the run ({why})"
            return
        yield None
    finally:
        if holder.poll() is None:
            holder.stdin.close()  # its input ends: it lets go and exits
            try:
                holder.wait(timeout=60)
            except subprocess.TimeoutExpired:
                holder.kill()
                holder.wait()
