"""The figures `make report` draws from a lab's report (schema convlab.report/2). A lab names the
kinds it wants in its manifest (`plots = mask-size roofline`); each kind is one function, drawn in
the module of its family of labs (figures_filters.py, figures_arrays.py, figures_pipelines.py,
figures_strips.py, on what figures_base.py shares), and named here: a lab declares its plots in
one line, and a new lab of an existing kind writes no plotting code."""
import figures_arrays
import figures_filters
import figures_pipelines
import figures_strips
from figures_base import machine, plt, series, timed  # noqa: F401  (make report, make compare and the contact sheet use them from here)

KINDS = {
    "mask-size": figures_filters.time_vs_mask,  # labs 0-4, 6, 7
    "threads": figures_filters.threads,         # lab 0
    "roofline": figures_filters.roofline,       # labs 1-4, 6, 7
    "granularity": figures_filters.granularity,  # lab 4
    "block-shape": figures_filters.block_shape,  # lab 4
    **figures_arrays.KINDS,                      # lab 5: stride-sweep, offset-sweep, paths-sweep, block-size-sweep, bank-stride-sweep
    "stages": figures_pipelines.stages,          # lab 8
    "strips": figures_strips.strips,             # lab 9
}


def draw(doc, kinds):
    """([(kind, figure)], [(kind, why not)]) for the kinds a lab declares (each one of KINDS): a kind
    the report has nothing for (a check-only run, a run without a GPU, a row lacking its fields) is
    left out, with the one line its function says why, rather than drawn empty."""
    drawn = [(kind, KINDS[kind](doc)) for kind in kinds]
    return [(k, fig) for k, fig in drawn if not isinstance(fig, str)], [(k, why) for k, why in drawn if isinstance(why, str)]
