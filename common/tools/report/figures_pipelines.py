"""The pipelines' figure (lab 8; common/families/pipelines/): each stage's time, a bar a pipeline.

A lab 8 row is one pipeline's (its variant: "openmp-reference", "staged", "fused", ...) and, but for
a whole pipeline's row, one stage's: the row's figure "stage" (common/families/pipelines/canny_lab.cpp,
CannyRun::row). A GPU row's bytes_per_value is its stage's byte model, a pixel's bytes."""
from figures_base import ceilings, finish, floor_ms, log_y, ms, own, plt, timed

WHOLE = "whole pipeline"


def stage_order(rows):
    """The stages in each pipeline's order: a stage one pipeline adds (the fused pipeline's
    "gradients+suppression") goes before the first of its later stages already placed."""
    order, of = [], {}
    for r in rows:
        if own(r).get("stage"):
            of.setdefault(r["variant"], []).append(own(r)["stage"])
    for stages in of.values():
        for i, stage in enumerate(stages):
            if stage not in order:
                later = [order.index(s) for s in stages[i + 1:] if s in order]
                order.insert(min(later, default=len(order)), stage)
    return order


def stages(doc):
    """Lab 8: a group of bars a stage (and last the whole pipeline's time), a bar a pipeline that has
    the stage, on a log scale; on each GPU bar its floor, the stage's bytes at the copy bandwidth."""
    rows = timed(doc)
    groups = stage_order(rows)
    if not groups:
        return "no timed row has a stage (lab 8's figure 'stage')"
    groups += [WHOLE] if any(not own(r).get("stage") for r in rows) else []
    pipelines = list(dict.fromkeys(r["variant"] for r in rows))
    width = 0.8 / len(pipelines)
    fig, ax = plt.subplots(figsize=(min(16, max(8, 0.35 * len(groups) * len(pipelines))), 5))
    bandwidth, _ = ceilings(doc)
    floor_label = f"floor: the stage's bytes at {bandwidth:.0f} GB/s copy" if bandwidth else None
    for n, name in enumerate(pipelines):
        mine = [(groups.index(own(r).get("stage") or WHOLE) + (n - (len(pipelines) - 1) / 2) * width, r)
                for r in rows if r["variant"] == name]
        ax.bar([x for x, _ in mine], [ms(r) for _, r in mine], width=width, color=f"C{n % 10}", label=name)
        for x, r in mine:
            if floor_ms(doc, r):
                ax.hlines(floor_ms(doc, r), x - width / 2, x + width / 2, colors="k", linewidth=2, label=floor_label)
                floor_label = None  # once in the legend
    log_y(ax)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, rotation=15, ha="right")
    return finish(fig, ax, doc, "time of each stage, a bar a pipeline", "stage (each timed alone; the whole pipeline in one timed run)",
                  "median time (ms, log scale)")
