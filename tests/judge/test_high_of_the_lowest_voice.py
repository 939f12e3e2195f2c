"""A high word is told from a normal one by the lowest voice's pitch (decision 82).

Seeded renders of benchmarks/judge.py (seed and case named) with the held-out test
voices, judged end to end.
"""
from __future__ import annotations

from beattrainer.judge import MistakeKind
from tests.judge.test_referee import caught_right, judge


def test_a_mixed_group_s_plain_word_where_high_is_due_fails(render):
    # Two male voices and a female one (judge --seed 107, case 168): the autocorrelation's
    # median pitch of a plain MIEZEKATZE followed the female voice in some words (158 Hz
    # against 80 Hz), and the group's true high slipped to the males' subharmonics (20th
    # percentile 86-94 Hz): a high card said plain was heard high and passed. The strong
    # frames' octave-checked pitch stays on the male voices (72-79 Hz plain, 137 Hz high).
    perf, samples, sr, truth = render(
        ["07", "09", "46", "21", "17", "05", "42"], "challenge-4", 7, "wrong_dynamics@11",
        224107132, ("Anna", "Ben", "Cem"), split="test", period_s=2.345804484562783,
        voices=3, snr_db=None, noise="pink", reverb=True, jitter_ms=3.7020488539360064)
    report = judge(perf, samples)
    assert report.mistake is not None, report.result
    assert caught_right(report.mistake, MistakeKind.WRONG_DYNAMICS, truth["mistake"]), \
        report.to_json()["mistake"]


def test_one_voice_s_high_word_over_babble_passes(render):
    # One female voice (163 Hz) in babble at 20 dB (judge --seed 107, case 205, a clean
    # performance): the babble's male voices (95 Hz) pulled the 20th percentile of some
    # plain words' pitch down, and against that reference a true high (276 Hz) seemed
    # to fall and was heard plain. Frames far below the word's loudest no longer count.
    perf, samples, sr, truth = render(
        ["16", "46", "30", "26"], "highscore", 4, None, 475217891, ("Anna", "Ben"),
        split="test", period_s=2.1299734758278914, voices=1, snr_db=20.0, noise="babble",
        jitter_ms=2.0713650040487463)
    report = judge(perf, samples)
    assert report.mistake is None, report.to_json()["mistake"]
