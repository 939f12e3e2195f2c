"""A word whose first syllable's attack the detector heard as a hit starts at that hit.

Seeded renders of benchmarks/judge.py (seed and case named) with the held-out test
voices, judged end to end.
"""
from __future__ import annotations

import pytest

from beattrainer.mzkz.catalog import load_catalog
from beattrainer.mzkz.sequence import Mode
from tests.judge.test_referee import judge


@pytest.mark.parametrize("cards, mode, number, options", [
    # en-andy's ANNA (card 13) in a clean room after a MIEZEKATZE (case 160)
    (["13", "01", "33"], "highscore", None,
     dict(seed=938260427, period_s=1.1195201841610884, voices=1, snr_db=None, noise="pink",
          jitter_ms=12.47710166769755)),
    # ... and after challenge 2's silence, where the slot re-anchors the beat (case 019)
    (["13", "08"], "challenge-2", 2,
     dict(seed=474606034, period_s=1.783375343235404, voices=1, snr_db=20.0, noise="babble",
          jitter_ms=10.133332468738844)),
])
def test_a_name_whose_first_vowel_sounds_like_a_hit_is_heard(render, cards, mode, number,
                                                             options):
    # The detector reported ANNA's AN as a hit and the word start on NA, 215 ms later;
    # the recognizer, given NA alone (quiet, one syllable, percussive), heard nothing,
    # and a clean performance failed (judge seed 79). The hit, as loud as the word and
    # joined to it without a fall to the room's level, starts the word.
    seed = options.pop("seed")
    perf, samples, sr, truth = render(cards, mode, number, None, seed, ("Anna", "Ben"),
                                      split="test", **options)
    grid = (truth["period_s"], truth["slots"][0]["expected_onset_s"]) \
        if "no_cats" in Mode.parse(mode).rules(load_catalog()) else None
    report = judge(perf, samples, grid=grid)
    assert report.mistake is None, report.to_json()["mistake"]
    names = [(v, st) for v, st in zip(report.slots, truth["slots"])
             if "ANNA" in v.slot.expected.labels]
    assert names and all(v.heard is not None and v.heard.label == "ANNA" for v, _ in names)
    # each starts where its sound starts
    assert all(abs(v.heard_onset_s - st["word_onset_s"]) < 0.03 for v, st in names)
