"""Tempo accuracy reports from judge reports: figures, text, CSV and plots (Agg)."""
import csv
import json

import pytest
from click.testing import CliRunner

from beattrainer.cli import cli
from beattrainer.report.stats import OffsetSummary, by_key, period_per_round, timed_slots
from beattrainer.report.text import report_text


def make_report(offsets_ms, period_s=1.0, cards=("01", "04")):
    """A judge report with card slots at the given offsets (3 rounds of `cards`)."""
    slots = [{"index": i, "round": 0, "role": "solo", "card": None,
              "expected": {"sound": "mzkz", "text": "MIEZEKATZE", "modifier": None},
              "expected_onset_s": i * period_s,
              "heard": {"onset_s": i * period_s, "label": "MIEZEKATZE"},
              "offset_ms": None, "verdict": "ok"} for i in range(2)]
    for k, offset in enumerate(offsets_ms):
        index = k + 2
        expected = index * period_s
        slots.append({
            "index": index, "round": 1 + k // len(cards), "role": "card",
            "card": cards[k % len(cards)],
            "expected": {"sound": "mzkz", "text": "MIEZEKATZE", "modifier": None},
            "expected_onset_s": expected,
            "heard": {"onset_s": expected + offset / 1000, "label": "MIEZEKATZE"},
            "offset_ms": offset, "verdict": "ok"})
    return {"schema": "beattrainer.judge-report/1",
            "audio": {"path": None, "sample_rate": 16000, "duration_s": 20.0, "channels": 1},
            "performance": {"cards": list(cards), "challenge": None, "lead": "Anna"},
            "tempo": {"period_s": period_s, "bpm": 60 / period_s},
            "slots": slots, "mistake": None, "result": "completed",
            "timing": {"slots_timed": len(offsets_ms), "mean_offset_ms": None,
                       "mean_abs_offset_ms": None, "std_offset_ms": None,
                       "tempo_drift_pct": 3.0}}


def test_offset_summary_and_tiers():
    summary = OffsetSummary.of([10, -20, 60, 120])
    assert summary.count == 4 and summary.mean_ms == pytest.approx(42.5)
    assert summary.median_ms == pytest.approx(35.0)
    assert summary.tiers == {25: 0.5, 50: 0.5, 100: 0.75}
    assert OffsetSummary.of([]).mean_ms is None


def test_per_card_and_per_round_groups():
    report = make_report([10, 80, 20, 70, 30, 60])
    slots = timed_slots(report)
    cards = by_key(slots, lambda s: s.card)
    assert cards["04"].mean_ms == pytest.approx(70.0) and cards["01"].mean_ms == pytest.approx(20.0)
    rounds = by_key(slots, lambda s: s.round)
    assert set(rounds) == {1, 2, 3}


def test_period_per_round_sees_the_group_slow_down():
    # each word a little later than the one before: the group is slower than the grid
    report = make_report([0, 20, 40, 60, 80, 100])
    periods = period_per_round(report)
    assert all(p == pytest.approx(1.02) for p in periods.values())


def test_text_report_names_the_late_card():
    text = report_text(make_report([5, 90, -5, 85, 0, 95]))
    assert "completed" in text and "furthest off" in text
    line = next(row for row in text.splitlines() if row.startswith("04"))
    assert "+90" in line


def test_report_command_text_csv_and_png(tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(make_report([5, 90, -5, 85, 0, 95])))
    png, table = tmp_path / "r.png", tmp_path / "r.csv"
    result = CliRunner().invoke(cli, ["report", str(path), "--png", str(png), "--csv", str(table)])
    assert result.exit_code == 0, result.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    with table.open() as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 8 and rows[3]["offset_ms"] == "90"


def test_plots_take_and_return_axes():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from beattrainer.report.plots import plot_histogram, plot_offsets, plot_tempo

    report = make_report([5, 90, -5, 85, 0, 95])
    fig, axes = plt.subplots(1, 3)
    assert plot_offsets(axes[0], report) is axes[0]
    assert len(axes[0].collections) == 2  # one scatter per card
    assert plot_histogram(axes[1], report) is axes[1]
    assert plot_tempo(axes[2], report) is axes[2]
    plt.close(fig)


@pytest.mark.parametrize("content, message", [
    ("{not json", "not JSON"),
    ('{"schema": "other"}', "not a judge report"),
])
def test_report_command_bad_files(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = CliRunner().invoke(cli, ["report", str(path)])
    assert result.exit_code == 2 and message in result.output
    missing = CliRunner().invoke(cli, ["report", str(tmp_path / "none.json")])
    assert missing.exit_code == 2 and "cannot read" in missing.output
