"""The tempo accuracy report as text for the terminal."""
from __future__ import annotations

from beattrainer.report.stats import (
    TIERS_MS,
    OffsetSummary,
    by_key,
    period_per_round,
    timed_slots,
)


def _ms(value: float | None) -> str:
    return "   -  " if value is None else f"{value:+6.0f}"


def report_text(report: dict) -> str:
    """A readable summary of one judge report."""
    lines = []
    perf = report["performance"]
    tempo = report["tempo"]
    lines.append(f"cards {', '.join(perf['cards'])}"
                 + (f", challenge {perf['challenge']}" if perf.get("challenge") else "")
                 + f": {report['result']}")
    if tempo.get("period_s"):
        lines.append(f"tempo from the solos: {tempo['period_s']:.3f} s per word "
                     f"({tempo['bpm']:.1f} words per minute)")
    if report.get("mistake"):
        m = report["mistake"]
        lines.append(f"first mistake at {m['time_s']:.2f} s ({m['kind'].replace('_', ' ')}): "
                     f"{m['message']}")
    slots = timed_slots(report)
    overall = OffsetSummary.of([s.offset_ms for s in slots])
    if not overall.count:
        lines.append("no slot was timed")
        return "\n".join(lines)
    tiers = ", ".join(f"{overall.tiers[t] * 100:.0f}% within {t} ms" for t in TIERS_MS)
    lines.append(f"timing over {overall.count} words: mean {overall.mean_ms:+.0f} ms "
                 f"(positive = late), median {overall.median_ms:+.0f} ms, "
                 f"spread {overall.std_ms:.0f} ms; {tiers}")
    drift = report["timing"].get("tempo_drift_pct")
    periods = period_per_round(report)
    if periods and tempo.get("period_s"):
        per_round = ", ".join(f"round {r}: {p:.3f} s ({(p / tempo['period_s'] - 1) * 100:+.1f}%)"
                              for r, p in periods.items())
        lines.append(f"period per round: {per_round}")
    if drift is not None:
        way = "slowed down" if drift > 0 else "rushed"
        lines.append(f"over the performance the group {way} {abs(drift):.1f}%")
    lines.append("")
    lines.append("card   words  mean ms  mean |ms|  within 50 ms")
    for card, summary in by_key(slots, lambda s: s.card or "solo").items():
        lines.append(f"{card:<6} {summary.count:5d}  {_ms(summary.mean_ms)}   "
                     f"{summary.mean_abs_ms:7.0f}   {summary.tiers[50] * 100:5.0f}%")
    lines.append("")
    lines.append("round  words  mean ms  spread ms")
    for round_no, summary in by_key(slots, lambda s: s.round).items():
        name = "solos" if round_no == 0 else str(round_no)
        lines.append(f"{name:<6} {summary.count:5d}  {_ms(summary.mean_ms)}   "
                     f"{summary.std_ms:7.0f}")
    worst = max(slots, key=lambda s: abs(s.offset_ms))
    side = "late" if worst.offset_ms > 0 else "early"
    lines.append("")
    lines.append(f"furthest off: slot {worst.index} (card {worst.card or '-'}, round "
                 f"{worst.round}) {abs(worst.offset_ms):.0f} ms {side}")
    return "\n".join(lines)
