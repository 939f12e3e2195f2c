"""What a slot asks for, in the terms the referee measures: syllables, hits, word spans.

Pure functions of the slot's `Expected`.
"""
from __future__ import annotations

from beattrainer.mzkz.model import MIEZEKATZE, Expected, Sound

# syllables of the longer words a card can ask for (every other word and name: one)
_SYLLABLES = {MIEZEKATZE: 4, "WINKEKATZE": 4, "WUIKKIWUIKKI": 4, "WAVING CAT": 3,
              "DING DONG": 2, "MIAU": 2}


def expected_syllables(expected: Expected) -> int:
    """How many syllables the due word has (1 for short words, 0 for silence).

    Non-verbal sounds count 0 as well: the detector hears them as hits.
    """
    if expected.sound in (Sound.SILENCE, Sound.NONVERBAL):
        return 0
    return _SYLLABLES.get(expected.text or "", 1)
