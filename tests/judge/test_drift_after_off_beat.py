"""A word off the beat is told from tempo drift by the group's next sound, a kiss's or squeak's too.

Seeded renders of benchmarks/judge.py (seed and case named) with the held-out test
voices, judged end to end.
"""
from __future__ import annotations

from beattrainer.judge import MistakeKind
from tests.judge.test_referee import judge


def assert_drift_caught(report, truth) -> None:
    """The performance failed as tempo drift, from the drift's start to where it passed 15%."""
    assert report.mistake is not None
    assert report.mistake.mistake is MistakeKind.TEMPO_DRIFT, report.mistake.message
    first, last = truth["mistake"]["slot"], truth["mistake"]["drift_exceeds_15pct_from_slot"]
    assert first <= report.mistake.slot.index <= last


def test_a_squeak_after_the_late_word_tells_the_group_slowed(render):
    # The group slowed 30% (challenge 7, babble at 20 dB; judge seed 85, case 098): its
    # MIEZEKATZE came 436 ms late, and the free-timing squeak card after it, on the group's
    # new beat, was its only sound before that card's end. Only a voiced word could settle
    # the late word's kind, and none after a free-timing card can: it stayed "off the beat".
    perf, samples, sr, truth = render(
        ["44", "24", "25", "26", "41", "27"], "challenge-7", 4, "tempo_drift@2", 143894437,
        ("Anna", "Ben", "Cem"), period_s=1.7107967791954515, voices=2, snr_db=20.0,
        noise="babble", jitter_ms=2.635619704483547, split="test")
    report = judge(perf, samples)
    assert_drift_caught(report, truth)


def test_a_given_grid_is_no_word_of_the_group(render):
    # Challenge 2's given grid (judge seed 85, case 197): the group's first two words lay
    # near it, then it slowed 28%; its WUIKKIWUIKKI came 764 ms late and the kiss after it
    # on the new beat. The group's local period, fitted with the grid's anchor at beat 0
    # as if a word had been heard there, came out 10.6% slow, under the drift limit.
    perf, samples, sr, truth = render(
        ["48", "38", "29"], "challenge-2", 3, "tempo_drift@2", 419977939, ("Anna", "Ben"),
        period_s=2.1565382584801096, voices=1, snr_db=30.0, noise="babble",
        jitter_ms=5.428937598845964, split="test")
    grid = (truth["period_s"], truth["slots"][0]["expected_onset_s"])
    report = judge(perf, samples, grid=grid)
    assert_drift_caught(report, truth)


def test_beats_after_a_silent_slot_count_at_the_drifting_groups_pace(render):
    # The group slowed (challenge 8, pink noise at 10 dB; judge seed 98, case 188): its
    # MIEZEKATZE came 318 ms late, a silent slot followed, and its next word came 4.01 s
    # later: two beats at its new pace, 2.5 at the solos'. Counted as three, the group
    # seemed 9% faster, and the late word stayed "off the beat".
    perf, samples, sr, truth = render(
        ["26", "18", "32", "22"], "challenge-8", 2, "tempo_drift@3", 291715391,
        ("Anna", "Ben", "Cem"), period_s=1.5781908779202283, voices=1, snr_db=10.0,
        noise="pink", jitter_ms=4.619060470823824, split="test")
    report = judge(perf, samples)
    assert_drift_caught(report, truth)


def test_a_babble_burst_after_an_early_word_does_not_tell_the_tempo(render):
    # Four voices said one MIEZEKATZE 483 ms early in babble at 10 dB (judge seed 100,
    # case 113). A babble burst 1.08 s later, alone until the group's next word back on
    # the old grid, was taken for that word: the group "rushed 17%". A lone burst is no
    # word of the group's (decision 70).
    perf, samples, sr, truth = render(
        ["33", "20"], "highscore", 2, "off_beat@4", 710041591, ("Anna", "Ben", "Cem", "Mei"),
        period_s=1.9183292662115754, voices=4, snr_db=10.0, noise="babble",
        jitter_ms=9.822324471701588, split="test")
    report = judge(perf, samples)
    assert report.mistake is not None
    assert report.mistake.slot.index == truth["mistake"]["slot"]
    assert report.mistake.mistake is MistakeKind.OFF_BEAT, report.mistake.message
