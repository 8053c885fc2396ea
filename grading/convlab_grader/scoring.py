"""The scoring arithmetic, in one place so that the handouts, the instructor guide and the
self-tests can all point at it."""


def performance_fraction(ratio, slack, zero_at):
    """Share of the performance points for a time `ratio` x the reference's: all of them up to
    `slack`, then a straight line down to none at `zero_at` and beyond."""
    if ratio is None:
        return 0.0
    if ratio <= slack:
        return 1.0
    if ratio >= zero_at:
        return 0.0
    return (zero_at - ratio) / (zero_at - slack)


def correctness_points(passed, total, points):
    """Points in proportion to the hidden cases passed."""
    return points * passed / total if total else 0.0


def round_points(value):
    return round(value + 1e-9, 2)
