"""Progress over time from the stored runs: one point per run, oldest left.

Takes `beattrainer.store.RunSummary` objects (anything with the same fields);
matplotlib is imported only inside functions, and each plot takes and returns
an Axes.
"""
from __future__ import annotations


def _oldest_first(runs) -> list:
    return sorted(runs, key=lambda r: (r.started_at, r.run_id))


def _run_axis(ax, ordered) -> None:
    """One tick per run, labelled with its start date."""
    x = list(range(1, len(ordered) + 1))
    ax.set_xticks(x, [r.started_at.strftime("%m-%d") for r in ordered], rotation=45,
                  fontsize="small")
    ax.set_xlim(0.5, max(len(ordered), 1) + 0.5)
    ax.set_xlabel("run (date started, UTC)")


def plot_performances(ax, runs):
    """Performances completed per run, with the lives lost as labels."""
    ordered = _oldest_first(runs)
    x = list(range(1, len(ordered) + 1))
    ax.plot(x, [r.performances_completed for r in ordered], marker="o", color="tab:blue")
    for xi, run in zip(x, ordered):
        ax.annotate(f"-{run.lives_lost}", (xi, run.performances_completed),
                    textcoords="offset points", xytext=(0, 6), ha="center", fontsize="small",
                    color="tab:red")
    _run_axis(ax, ordered)
    ax.set_ylabel("performances completed")
    ax.set_title("performances per run (red: lives lost)")
    top = max((r.performances_completed for r in ordered), default=0)
    ax.set_ylim(0, top * 1.15 + 1)  # room for the labels above the highest point
    return ax


def plot_mean_offsets(ax, runs):
    """Mean |offset| of the timed slots per run; runs without timed slots are left out."""
    ordered = _oldest_first(runs)
    points = [(i, r.mean_abs_offset_ms) for i, r in enumerate(ordered, 1)
              if r.mean_abs_offset_ms is not None]
    if points:
        ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", color="tab:green")
    _run_axis(ax, ordered)
    ax.set_ylabel("mean |offset| [ms]")
    ax.set_title("timing per run (lower is tighter)")
    ax.set_ylim(bottom=0)
    return ax


def save_history_png(runs, path: str) -> None:
    """Both plots in one PNG (Agg backend: no screen needed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    plot_performances(axes[0], runs)
    plot_mean_offsets(axes[1], runs)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
