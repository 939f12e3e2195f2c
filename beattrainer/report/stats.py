"""Tempo accuracy figures from a judge report (the contract's JSON).

Per slot, per card, per round; pure, no plotting.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np

TIERS_MS = (25, 50, 100)


@dataclass(frozen=True)
class TimedSlot:
    """One slot that was judged for timing."""

    index: int
    round: int
    card: str | None
    expected_s: float
    offset_ms: float


@dataclass(frozen=True)
class OffsetSummary:
    """Statistics of a set of offsets [ms] (positive = late)."""

    count: int
    mean_ms: float | None
    median_ms: float | None
    std_ms: float | None
    mean_abs_ms: float | None
    tiers: dict[int, float]  # tier [ms] -> fraction of slots within it

    @classmethod
    def of(cls, offsets_ms: list[float]) -> OffsetSummary:
        """Summarise offsets; empty input gives None figures."""
        x = np.asarray(offsets_ms, dtype=float)
        if len(x) == 0:
            return cls(0, None, None, None, None, {t: 0.0 for t in TIERS_MS})
        return cls(len(x), float(x.mean()), float(np.median(x)), float(x.std()),
                   float(np.abs(x).mean()),
                   {t: float((np.abs(x) <= t).mean()) for t in TIERS_MS})


def timed_slots(report: dict) -> list[TimedSlot]:
    """The slots of a judge report that carry an offset."""
    return [TimedSlot(s["index"], s["round"], s["card"], s["expected_onset_s"], s["offset_ms"])
            for s in report["slots"]
            if s.get("offset_ms") is not None and s.get("expected_onset_s") is not None]


def by_key(slots: list[TimedSlot], key) -> dict:
    """Offset summaries grouped by `key(slot)`, in key order."""
    groups: dict = defaultdict(list)
    for slot in slots:
        groups[key(slot)].append(slot.offset_ms)
    return {k: OffsetSummary.of(v) for k, v in sorted(groups.items(), key=lambda kv: str(kv[0]))}


def period_per_round(report: dict) -> dict[int, float]:
    """The group's word period in each round [s], from heard onsets (slope of a line fit)."""
    points: dict[int, list[tuple[int, float]]] = defaultdict(list)
    for s in report["slots"]:
        heard = s.get("heard")
        if s["role"] == "card" and heard and s.get("offset_ms") is not None:
            points[s["round"]].append((s["index"], heard["onset_s"]))
    periods = {}
    for round_no, pts in sorted(points.items()):
        if len(pts) >= 2:
            beats, times = zip(*pts)
            periods[round_no] = float(np.polyfit(beats, times, 1)[0])
    return periods


def csv_rows(report: dict) -> list[dict]:
    """One row per slot for a spreadsheet."""
    rows = []
    for s in report["slots"]:
        heard = s.get("heard") or {}
        rows.append({
            "index": s["index"], "round": s["round"], "role": s["role"], "card": s["card"] or "",
            "expected": s["expected"].get("text") or s["expected"]["sound"],
            "expected_onset_s": s["expected_onset_s"], "heard": heard.get("label", ""),
            "heard_onset_s": heard.get("onset_s", ""), "offset_ms": s["offset_ms"],
            "verdict": s["verdict"],
        })
    return rows
