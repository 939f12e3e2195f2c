"""A word is timed from its first syllable, where the detector flagged its start later.

Seeded renders of benchmarks/judge.py (seed and case named) with the held-out test
voices, judged end to end.
"""
from __future__ import annotations

from beattrainer.mzkz.model import Modifier
from tests.judge.test_referee import judge


def test_a_quiet_word_right_after_the_word_before_is_timed_from_its_first_syllable(render):
    # Card 08's quiet MIEZEKATZE, 10-14 dB under the group, said on the beat right after a
    # MIAU: no gap before it, and its first syllables below the detector's silence level,
    # which counted them as a gap and flagged its second syllable as the word's start. The
    # clean performance failed: "came 255 ms late" (judge --seed 82, case 127).
    perf, samples, sr, truth = render(
        ["33", "21", "20", "08", "07", "39"], "challenge-7", 4, None, 537610891,
        ("Anna", "Ben", "Cem"), split="test", period_s=1.0505096403056413, voices=4,
        snr_db=30.0, noise="pink", jitter_ms=7.864012832470539)
    report = judge(perf, samples)
    assert report.mistake is None, report.to_json()["mistake"]
    quiet = [(v, st) for v, st in zip(report.slots, truth["slots"])
             if v.slot.card == "08" and v.heard_onset_s is not None]
    assert quiet and all(abs(v.heard_onset_s - st["word_onset_s"]) < 0.03 for v, st in quiet)


def test_the_word_befores_second_syllable_does_not_start_the_next_word(render):
    # en-andy's MIAU pauses between its MI and its AU, 0.53 s apart at a 1.0 s beat, so the
    # detector flagged the AU as a word start; the MIEZEKATZE on the next beat followed the
    # AU without a gap and showed no start of its own. The AU was taken for its start, 452
    # ms early, and the word heard as AAAH: a clean performance failed before its real
    # mistake (judge --seed 97, case 119). The MIAU was heard with one of its two syllables,
    # so the AU, glued to it and within its span, is still the MIAU's.
    perf, samples, sr, truth = render(
        ["07", "28", "32", "39", "08", "34"], "highscore", None, "unexpected_sound@13",
        888827771, ("Anna", "Ben"), split="test", period_s=1.0080004474198654, voices=2,
        snr_db=None, noise="pink", jitter_ms=1.170216410619922)
    report = judge(perf, samples)
    assert report.mistake is not None
    assert report.mistake.slot.index == truth["mistake"]["slot"], report.mistake.message
    after_miau = [(v, st) for v, prev, st in zip(report.slots[1:], report.slots,
                                                 truth["slots"][1:])
                  if "MIAU" in prev.slot.expected.labels and v.heard_onset_s is not None]
    assert after_miau and all(abs(v.heard_onset_s - st["word_onset_s"]) < 0.03
                              for v, st in after_miau)


def test_a_word_glued_after_a_long_high_one_is_heard_from_its_own_start(render):
    # A high MIEZEKATZE is long and loud: at a 0.91 s beat its last ZE ran into the next
    # slot's WUIKKIWUIKKI with no gap. ZE rose and sank again under the loud word's
    # syllable gate without firing; WUI's rise was then measured from the valley before ZE,
    # its start traced back there, 210 ms early, and its own start went unheard. The clean
    # performance failed: "WUIKKIWUIKKI was due, DING DONG was heard" (judge --seed 98,
    # case 082). The dip after the unfired ZE is where WUI's rise starts.
    perf, samples, sr, truth = render(
        ["14", "28", "46", "48", "38"], "challenge-4", 5, None, 543205419,
        ("Anna", "Ben", "Cem", "Mei"), split="test", period_s=0.9058249830613726, voices=2,
        snr_db=20.0, noise="pink", reverb=True, jitter_ms=13.027697614485344)
    report = judge(perf, samples)
    assert report.mistake is None, report.to_json()["mistake"]
    after_high = [(v, st) for v, prev, st in zip(report.slots[1:], report.slots,
                                                 truth["slots"][1:])
                  if prev.slot.expected.modifier is Modifier.HIGH]
    assert after_high and all(v.heard is not None and v.heard.label == st["placed"]["label"]
                              for v, st in after_high)
