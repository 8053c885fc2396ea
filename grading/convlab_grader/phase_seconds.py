"""Where a grading phase's time goes (the hidden cases', the sanitizer's), kept in the result as
seconds_within: {phase: {kind: seconds}} and logged with the phase (local_batch.grade_all), so that an
instructor sees what a slow lab costs: the submission's own runs, the trusted checks of their
results, and in a lab graded stage by stage the trusted side's stage inputs."""
import threading
import time

_spent_lock = threading.Lock()


def add_seconds(sub, phase, kind, seconds):
    """Adds `seconds` to the phase's `kind`: summed over the runs that went side by side, so the kinds
    add up to more than the phase's wall time."""
    with _spent_lock:
        spent = sub.result.setdefault("seconds_within", {}).setdefault(phase, {})
        spent[kind] = spent.get(kind, 0) + seconds  # rounded where it is shown (local_batch.within)


def checked(session, sub, phase, out, name, args):
    """session.check, its time counted as the phase's checks'."""
    started = time.monotonic()
    try:
        return session.check(sub, out, name, args)
    finally:
        add_seconds(sub, phase, "checks", time.monotonic() - started)
