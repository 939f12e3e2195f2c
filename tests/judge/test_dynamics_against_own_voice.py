"""The group's first quiet, loud or high word is judged against the group's own voice.

Until the group says a word normally, the only reference is the lead's solos: one voice
against several, a man's against a woman's. Such a verdict waits until the group's own
normal voice is known (decision 81). Seeded renders of benchmarks/judge.py (seed and
case named) with the held-out test voices, judged end to end.
"""
from __future__ import annotations

import pytest

from beattrainer.judge import MistakeKind
from beattrainer.session import judge_stream, make_recognizer


def judge_collecting(perf, samples, block=512):
    """Judge block by block; (slot index, samples fed so far) of each verdict as told."""
    adapter = make_recognizer(perf, "pocketsphinx", "normal")
    told: list[tuple[int, int]] = []
    fed = [0]

    def blocks():
        for i in range(0, len(samples), block):
            fed[0] = i + block
            yield samples[i:i + block]

    report = judge_stream(perf, blocks(), adapter,
                          on_verdict=lambda v: told.append((v.slot.index, fed[0])))
    return report, told


@pytest.mark.parametrize("cards, mode, number, mistake, options", [
    # a group of three (en-andy leads, de-m7, de-f4) says card 46's high word plain: against
    # en-andy's solos alone its mixed pitch sounded high, and it passed (judge seed 105, case 024)
    (["46", "10", "36", "26", "43"], "highscore", None, "wrong_dynamics@2",
     dict(seed=301839709, period_s=2.21114802645332, voices=3, snr_db=20.0, noise="pink",
          jitter_ms=2.6572736046459577)),
    # four voices say card 14's loud word plain: four voices are louder than the lead alone,
    # and it passed (judge seed 101, case 168)
    (["14", "40", "35", "33", "27"], "challenge-8", 3, "wrong_dynamics@2",
     dict(seed=646362865, period_s=2.2015389031101638, voices=4, snr_db=None, noise="pink",
          jitter_ms=9.83921944309528)),
    # de-f4 leads, en-andy joins; the group's first normal word is a WOW in which the man's
    # pitch rules, the plain MIEZEKATZE said for card 46 has the woman's: against the WOW's
    # median pitch it sounded high (judge seed 101, case 195; decision 82's lowest voice)
    (["41", "46", "17", "24"], "challenge-7", 2, "wrong_dynamics@3",
     dict(seed=500888458, period_s=1.4877442211566936, voices=2, snr_db=30.0, noise="pink",
          reverb=True, jitter_ms=9.510935893685016)),
])
def test_the_groups_first_word_said_plain_fails_against_its_own_voice(
        render, cards, mode, number, mistake, options):
    seed = options.pop("seed")
    players = ("Anna", "Ben", "Cem", "Mei")[:max(options["voices"], 2)]
    perf, samples, sr, truth = render(cards, mode, number, mistake, seed, players,
                                      split="test", **options)
    report, told = judge_collecting(perf, samples)
    slot = int(mistake.split("@")[1])
    assert report.mistake is not None, "the plain word passed"
    assert report.mistake.slot.index == slot
    assert report.mistake.mistake is MistakeKind.WRONG_DYNAMICS
    # told once the group's own normal word was heard, not as its slot closed: the
    # verdicts come out in slot order, the mistake last
    assert [index for index, _ in told] == sorted(index for index, _ in told)
    assert told[-1][0] == slot
    group_word = next(s for s in truth["slots"][slot + 1:] if s["placed"] and
                      s["placed"]["modifier"] is None and s["placed"]["kind"] == "voice")
    assert told[-1][1] / sr > group_word["word_onset_s"]


def test_one_voices_loud_word_passes_against_its_own_voice(render):
    # en-andy alone says card 14's loud word loud. Against the lead's solos, the model
    # allows for a whole group being louder than the lead, and heard it plain: a
    # performance failed at its first card, whose mistake comes at slot 5 (judge seed
    # 106, case 171, clean)
    perf, samples, sr, truth = render(["14", "13"], "highscore", None, "missing@5", 850634575,
                                      ("Anna", "Ben"), split="test",
                                      period_s=2.004208057139778, voices=1, snr_db=None,
                                      noise="pink", jitter_ms=6.8942754251515055)
    report, told = judge_collecting(perf, samples)
    loud = next(v for v in report.slots if v.slot.index == 2)
    assert loud.verdict == "ok", loud.message
    assert loud.heard.label == "MIEZEKATZE/loud"
    assert report.mistake is not None and report.mistake.slot.index == 5
    assert report.mistake.mistake is MistakeKind.MISSING
