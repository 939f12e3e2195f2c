"""Plots of the tempo accuracy report.

The only module that imports matplotlib, and only inside functions; each plot
takes and returns an Axes.
"""
from __future__ import annotations

from beattrainer.report.stats import TIERS_MS, OffsetSummary, period_per_round, timed_slots


def plot_offsets(ax, report: dict):
    """Offset of each timed word over time, early below / late above, coloured by card."""
    import matplotlib.pyplot as plt

    slots = timed_slots(report)
    cards = sorted({s.card or "solo" for s in slots})
    colours = plt.get_cmap("tab20")
    for i, card in enumerate(cards):
        mine = [s for s in slots if (s.card or "solo") == card]
        ax.scatter([s.expected_s for s in mine], [s.offset_ms for s in mine],
                   color=colours(i % 20), label=card, s=22)
    for tier in TIERS_MS:
        ax.axhspan(-tier, tier, color="green", alpha=0.06)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xlabel("time [s]")
    ax.set_ylabel("offset [ms] (late > 0)")
    ax.set_title("timing per word")
    if cards:
        ax.legend(title="card", fontsize="small", ncol=2)
    return ax


def plot_histogram(ax, report: dict):
    """Histogram of offsets with mean, median, spread and the 25/50/100 ms tiers."""
    offsets = [s.offset_ms for s in timed_slots(report)]
    summary = OffsetSummary.of(offsets)
    ax.hist(offsets, bins=20, color="tab:blue", alpha=0.8)
    for tier in TIERS_MS:
        ax.axvline(-tier, color="grey", linestyle=":", linewidth=0.8)
        ax.axvline(tier, color="grey", linestyle=":", linewidth=0.8)
    if summary.count:
        ax.axvline(summary.mean_ms, color="red", label=f"mean {summary.mean_ms:+.0f} ms")
        ax.axvline(summary.median_ms, color="orange", label=f"median {summary.median_ms:+.0f} ms")
        ax.legend(title=f"sd {summary.std_ms:.0f} ms", fontsize="small")
    ax.set_xlabel("offset [ms]")
    ax.set_ylabel("words")
    ax.set_title("offsets")
    return ax


def plot_tempo(ax, report: dict):
    """The group's period per round against the solos' period."""
    periods = period_per_round(report)
    solo = report["tempo"].get("period_s")
    if solo:
        ax.axhline(solo, color="black", linestyle="--", label=f"solos {solo:.3f} s")
        ax.axhspan(solo * 0.85, solo * 1.15, color="red", alpha=0.05)
    if periods:
        ax.plot(list(periods), list(periods.values()), marker="o", label="group")
    ax.set_xticks([1, 2, 3])
    ax.set_xlabel("round")
    ax.set_ylabel("word period [s]")
    ax.set_title("tempo")
    ax.legend(fontsize="small")
    return ax


def save_report_png(report: dict, path: str) -> None:
    """All three plots in one PNG (Agg backend: no screen needed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(16, 4.5))
    plot_offsets(axes[0], report)
    plot_histogram(axes[1], report)
    plot_tempo(axes[2], report)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
