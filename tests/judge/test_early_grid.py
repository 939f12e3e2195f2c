"""The group's first words are judged against a grid that the two solos set only roughly.

Seeded renders of benchmarks/judge.py (seed 86, case named) with the held-out test voices,
judged end to end. The solos jitter like every word, so the grid they set is known to a few
percent only: the group's first words correct its period at once, and while it rests on so
few words its own error adds to the off-beat tolerance.
"""
from __future__ import annotations

import pytest

from tests.judge.test_referee import judge


@pytest.mark.parametrize("cards, mode, number, mistake, players, options", [
    # a clean room: the solos 34 ms early and 26 ms late set a period 5.5% slow; the
    # group's AAAH on its beat, then the SQUEAK (free timing) 33 ms early on it, was judged
    # 120 ms early while the first word still weighed little against the solos' period
    # (case 117)
    (["39", "44", "06", "35", "13"], "highscore", None, "missing@8", ("Anna", "Ben"),
     dict(seed=993963042, period_s=1.085492291936973, voices=3, snr_db=None, noise="pink",
          jitter_ms=16.97402286184628)),
    # babble at 10 dB had solo 2 heard 77 ms late: the first word, 3 ms after its true
    # start, was judged 136 ms early against a grid from two words alone (case 231)
    (["38", "08", "18", "27", "07", "29", "11"], "challenge-4", 7, "wrong_dynamics@6",
     ("Anna", "Ben"),
     dict(seed=149202331, period_s=1.2673831357249632, voices=1, snr_db=10.0, noise="babble",
          jitter_ms=11.686853346676436)),
])
def test_the_first_words_on_the_beat_pass_a_grid_from_jittered_solos(
        render, cards, mode, number, mistake, players, options):
    seed = options.pop("seed")
    perf, samples, sr, truth = render(cards, mode, number, mistake, seed, players,
                                      split="test", **options)
    report = judge(perf, samples)
    assert report.mistake is not None
    # no word before the mistake's own slot was judged off the beat
    assert report.mistake.slot.index == truth["mistake"]["slot"], report.to_json()["mistake"]
