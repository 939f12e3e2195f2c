"""Where a whisper is due the word model is asked chiefly whether anything was said.

This is decision 24: its silence counts fully, its word for the slot only a little
(decision 27).
"""
from __future__ import annotations

import numpy as np
import pytest

from beattrainer.recognize.fusion import WORD_FLOOR, Evidence, decide, said_evidence
from beattrainer.recognize.vocabulary import Item

LABELS = ("MIEZEKATZE", "WOW", "SILENCE")
# the class model cannot tell the room's babble from a whisper
BABBLE_CLASSES = {"whispered": -8.0, "voice": -9.0, "percussion": -10.0}


def syllables_of(label: str) -> int | None:
    return {"MIEZEKATZE": 4, "WOW": 1}.get(label)


def word_log(p_silence: float, word: str = "WOW") -> dict[str, float]:
    return {"SILENCE": float(np.log(p_silence)), word: float(np.log(1.0 - p_silence))}


def test_said_evidence_is_silence_or_not():
    log = word_log(0.9)
    assert said_evidence("SILENCE", log) == pytest.approx(np.log(0.9))
    assert said_evidence("WOW", log) == said_evidence("MIEZEKATZE", log) == \
        pytest.approx(np.log(0.1))
    assert said_evidence("WOW", word_log(1.0 - 1e-9)) == WORD_FLOOR


def decision(p_silence: float, word: str = "WOW", speech_label: str | None = None):
    evidence = Evidence(class_log=BABBLE_CLASSES, syllables=0,
                        word_log=word_log(p_silence, word), modifier_scores={"whisper": 0.9},
                        speech_label=speech_label, speech_confidence=0.5)
    return decide(LABELS, syllables_of, evidence, Item("WOW", "whisper"))


def test_a_whisper_left_out_is_missing_where_the_word_model_hears_silence():
    assert decision(0.95).heard.label == "SILENCE"
    assert decision(0.2).accepted


def test_the_word_model_names_a_whisper_only_a_little_where_one_is_due():
    # it takes some held-out whispers for other words: naming one costs the due word
    # at most WHISPER_WORD_WEIGHT * -WHISPER_WORD_FLOOR, which the speech layer's
    # word and the due word's prior outweigh ...
    assert decision(0.05, word="MIEZEKATZE", speech_label="WOW").accepted
    # ... while on its own it decides between two words the other layers cannot tell
    assert not decision(0.05, word="MIEZEKATZE").accepted
    assert decision(0.05, word="WOW").accepted
