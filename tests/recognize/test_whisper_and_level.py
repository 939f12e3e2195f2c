"""Fixes for clean performances the referee failed.

The fixes: whisper judged against what is due, unvoiced sounds under challenge 1, room
babble far below the group, high against loud. Slots come from the held-out test voices (conftest).
"""
from __future__ import annotations

import numpy as np
import pytest

from beattrainer.mzkz.model import Expected, Modifier, Sound
from beattrainer.recognize import GroupProfile, SlotContext, SlotRecognizer, describe_slot
from beattrainer.recognize.acoustic import whisper_score
from beattrainer.recognize.fusion import (
    WHISPER_SCORE,
    Evidence,
    decide,
    heard_modifier,
    level_evidence,
)
from beattrainer.recognize.simulate import add_babble
from beattrainer.recognize.vocabulary import Item, acceptable

VOCABULARY = ("MIEZEKATZE", "YEAH", "YO", "AAAH", "OOOH", "SHH", "ANNA", "CEM", "MEI",
              "WAVING CAT", "WINKEKATZE")
VOICE = "de-m7"
GROUP_LEVEL_DBFS = -24.0


@pytest.fixture(scope="module")
def recognizer():
    return SlotRecognizer.create(backend="pocketsphinx", vocabulary=VOCABULARY)


@pytest.fixture
def group(make_slot):
    return GroupProfile.from_acoustics(
        [describe_slot(make_slot("MIEZEKATZE", voice=VOICE, index=i,
                                 level_dbfs=GROUP_LEVEL_DBFS)) for i in (0, 1)])


# ------------------------------------------------------------ challenge 1

@pytest.mark.parametrize("label", ["SHH", "SQUEAK", "KISS"])
def test_sounds_without_a_voice_fulfil_a_due_whisper(label):
    assert acceptable(Item(label, "whisper"), Item(label))
    assert not acceptable(Item("YO", "whisper"), Item("YO"))  # a voiced word must be whispered


def test_a_rendered_shh_is_accepted_where_a_whispered_shh_is_due(recognizer, make_slot):
    heard = recognizer.recognize(make_slot("SHH", level_dbfs=-30.0),
                                 SlotContext(expected="SHH/whisper"))
    assert heard.label == "SHH" and heard.accepted


def test_the_squeaker_fulfils_card_09_under_challenge_1(recognizer, make_slot):
    due = Expected(Sound.WORD, "ANNA", ("SQUEAK",), modifier=Modifier.WHISPER)
    heard = recognizer.recognize(make_slot("SQUEAK"), SlotContext(expected=due))
    assert heard.label == "SQUEAK" and heard.accepted


@pytest.mark.parametrize("label", ["AAAH", "OOOH", "YO", "MIEZEKATZE"])
def test_held_out_whispered_words_count_as_whispered_where_due(recognizer, make_slot, label):
    slot = make_slot(label, modifier="whisper", level_dbfs=-30.0, snr_db=25.0)
    assert whisper_score(describe_slot(slot)) >= WHISPER_SCORE["due"]
    # card 39 asks for AAAH or OOOH; the others stand alone
    alternatives = {"AAAH": ("OOOH",), "OOOH": ("AAAH",)}.get(label, ())
    due = Expected(Sound.MZKZ if label == "MIEZEKATZE" else Sound.WORD, label, alternatives,
                   modifier=Modifier.WHISPER)
    heard = recognizer.recognize(slot, SlotContext(expected=due))
    assert heard.accepted, heard


@pytest.mark.parametrize("voices", [1, 3])
def test_normal_words_are_not_called_whispered_where_plain_is_due(library, rng, voices):
    from beattrainer.recognize.simulate import add_noise, mix_voices, set_level

    for label in ("ANNA", "YEAH", "MIEZEKATZE"):
        clips = [library.query(label=label, voice=v)[0] for v in ("de-m7", "de-f4", "en-andy")]
        audio = [library.audio(c)[int(c.onset_s * 16_000):] for c in clips[:voices]]
        slot = add_noise(set_level(mix_voices(audio, 24_000, 1_600, rng), -24.0), 20.0, rng)
        score = whisper_score(describe_slot(slot))
        assert score < WHISPER_SCORE["not due"], (label, score)


def test_the_whisper_threshold_follows_what_is_due():
    evidence = Evidence(class_log={"voice": -3.0, "whispered": -3.0}, syllables=1,
                        modifier_scores={"whisper": 0.5})
    plain = decide(("YO", "YEAH"), lambda label: 1, evidence, Item("YO"))
    whispered = decide(("YO", "YEAH"), lambda label: 1, evidence, Item("YO", "whisper"))
    assert plain.heard == Item("YO") and plain.accepted
    assert whispered.heard == Item("YO", "whisper") and whispered.accepted


# ------------------------------------------------------------ room babble

def _babble_slot(library, rng, snr_db: float) -> np.ndarray:
    """Room babble of held-out voices `snr_db` below the group's normal level, no word."""
    speech = [library.audio(c) for c in library.query(kind="voice", split="test")]
    return add_babble(np.zeros(24_000, np.float32), snr_db, speech, rng,
                      reference_rms=10.0 ** (GROUP_LEVEL_DBFS / 20.0))


@pytest.mark.parametrize("snr_db", [20.0, 30.0])
def test_babble_far_below_the_group_is_not_a_word(recognizer, library, rng, group, snr_db):
    slot = _babble_slot(library, rng, snr_db)
    silence = recognizer.recognize(slot, SlotContext(expected="SILENCE", group=group))
    assert silence.accepted, silence
    for word in ("YEAH", "ANNA", "CEM"):
        heard = recognizer.recognize(slot, SlotContext(expected=word, group=group))
        assert not heard.accepted, (word, heard)


def test_a_word_at_the_groups_level_is_not_taken_for_the_room(recognizer, make_slot, group):
    heard = recognizer.recognize(make_slot("YEAH", voice=VOICE, index=1,
                                           level_dbfs=GROUP_LEVEL_DBFS),
                                 SlotContext(expected="SILENCE", group=group))
    assert not heard.accepted


def test_level_evidence_spares_the_quiet_card():
    quiet = -12.0  # the quiet card's level against the normal word [dB]
    assert level_evidence("MIEZEKATZE", quiet) > -0.1
    assert level_evidence("MIEZEKATZE", -24.0) < -2.5
    assert level_evidence("SILENCE", quiet, quiet_due=True) == 0.0
    assert level_evidence("YEAH", quiet) < -2.5
    assert level_evidence("SILENCE", quiet) > 1.5
    assert level_evidence("SILENCE", 0.0) < 0.1 and level_evidence("YEAH", 0.0) > -0.1
    assert level_evidence("KISS", quiet) == 0.0
    assert level_evidence("YEAH", None) == 0.0


# ------------------------------------------------------------ high vs loud

def test_a_clear_pitch_rise_makes_a_louder_word_high():
    scores = {"loud": 0.9, "high": 0.95, "quiet": 0.0, "slow": 0.0, "whisper": 0.0}
    assert heard_modifier(None, scores) == "high"
    assert heard_modifier("high", scores) == "high"
    assert heard_modifier(None, {**scores, "high": 0.6}) == "loud"  # rise not clear


def test_a_rendered_high_word_is_high_even_when_louder(recognizer, make_slot, group):
    due = Expected(Sound.MZKZ, "MIEZEKATZE", modifier=Modifier.HIGH)
    slot = make_slot("MIEZEKATZE", voice=VOICE, modifier="high", level_dbfs=-17.0)
    heard = recognizer.recognize(slot, SlotContext(expected=due, group=group))
    assert heard.label == "MIEZEKATZE/high" and heard.accepted
    # where a plain word is due the delivery is only shown: a word both clearly
    # higher and 7 dB louder may show as either
    plain = recognizer.recognize(slot, SlotContext(expected="MIEZEKATZE", group=group))
    assert plain.accepted and plain.label in ("MIEZEKATZE/high", "MIEZEKATZE/loud")
