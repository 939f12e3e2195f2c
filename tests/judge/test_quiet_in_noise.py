"""A quiet MIEZEKATZE the detector hears no start of is heard by its rise over the room.

Seeded renders of benchmarks/judge.py (seed and case named) with the held-out test
voices, judged end to end (decision 78).
"""
from __future__ import annotations

from beattrainer.mzkz.catalog import load_catalog
from beattrainer.mzkz.sequence import Mode
from tests.judge.test_referee import judge

# judge seed 102, case 007: challenge 8, card 08 (quiet) in babble at 10 dB, four voices
CARDS, MODE, NUMBER, PLAYERS = ["20", "08", "23", "09"], "challenge-8", 2, ("Anna", "Ben", "Cem")
OPTIONS = dict(period_s=2.137693451388294, voices=4, snr_db=10.0, noise="babble",
               jitter_ms=10.466791012752356, split="test")
SEED = 575205368
QUIET_SLOT = 3


def _judged(render, mistake):
    perf, samples, sr, truth = render(CARDS, MODE, NUMBER, mistake, SEED, PLAYERS, **OPTIONS)
    grid = (truth["period_s"], truth["slots"][0]["expected_onset_s"]) \
        if "no_cats" in Mode.parse(MODE).rules(load_catalog()) else None
    return judge(perf, samples, grid=grid), truth


def test_a_quiet_miezekatze_buried_in_babble_is_heard(render):
    # Said about 2 dB under the room's babble: the detector heard no start, and over the
    # slot from a quarter period before its beat the word model heard the room (SILENCE
    # 0.59): "nothing was heard". The speech band rises over the room's level from its beat.
    report, truth = _judged(render, None)
    assert truth["slots"][QUIET_SLOT]["expected"]["modifier"] == "quiet"
    verdict = report.slots[QUIET_SLOT]
    assert verdict.verdict == "ok", verdict.message
    assert verdict.heard.label == "MIEZEKATZE/quiet"


def test_the_same_quiet_miezekatze_left_out_is_missing(render):
    # the same room without the quiet word: the band does not rise, the slot fails
    report, _ = _judged(render, f"missing@{QUIET_SLOT}")
    verdict = report.slots[QUIET_SLOT]
    assert verdict.verdict == "mistake" and verdict.mistake.value == "missing", verdict.message
