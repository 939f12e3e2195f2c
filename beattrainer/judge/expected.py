"""What a slot asks for, in the terms the referee measures: syllables, hits, word spans.

Pure functions of the slot's `Expected`.
"""
from __future__ import annotations

from beattrainer.mzkz.model import MIEZEKATZE, Expected, Modifier, Sound

HIT_LABELS = {"KISS", "SQUEAK"}  # sounds the onset detector reports as percussion
WORD_SPAN_FRACTION = 0.85  # a word's syllables start within this much of a period
# words whose last syllable follows the third closely (kat-ZE): in every clip of the
# library, slow ones left out, 0.10-0.22 s after it, while the first gap took 0.18-0.44 s
_CLOSE_LAST_SYLLABLE = {MIEZEKATZE, "WINKEKATZE"}

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


def last_syllable_follows_close(expected: Expected) -> bool:
    """Whether the due word's fourth syllable comes right after its third (mie-ze-kat-ZE).

    Not so for a slow or free-timing word: its syllables may pause.
    """
    return expected.text in _CLOSE_LAST_SYLLABLE and expected.modifier is not Modifier.SLOW \
        and not expected.free_timing


def onset_syllables(expected: Expected) -> int:
    """How many syllable onsets the detector hears of the due sound (0 for silence and hits).

    A word's syllables; a growl or a hiss sounds as one syllable (a kiss or a squeak is a
    percussive hit, and silence has none).
    """
    if expected.sound is Sound.NONVERBAL:
        return 0 if set(expected.labels) & HIT_LABELS else 1
    return expected_syllables(expected)


def is_hit(expected: Expected) -> bool:
    """A kiss or a squeak is due (09: the lead may squeak instead of the name)."""
    return expected.sound is Sound.NONVERBAL or bool(set(expected.labels) & HIT_LABELS)


def word_span_s(expected: Expected, period_s: float) -> float:
    """How long after its onset a word's syllables may start [s].

    Within its beat, but a slow or free-timing word may take longer.
    """
    if expected.free_timing or expected.modifier is Modifier.SLOW:
        return float("inf")
    return WORD_SPAN_FRACTION * period_s


def is_plain(expected: Expected) -> bool:
    """A word said the normal way (no quiet, loud, high, slow, whisper)."""
    return expected.voiced and expected.modifier is None


def runs_long(expected: Expected) -> bool:
    """Whether a slot's own sound may run long (a free-timing card's slow word, squeaks).

    A called name (09, 13) is one word, and the free pause follows it: heard
    over up to three periods, a single voice's short name came with the next
    card's dice roll or the room, and sounded like neither.
    """
    return expected.free_timing and expected.sound is not Sound.WORD


def free_syllables(expected: Expected) -> int:
    """Syllables that bound a free-timing MIEZEKATZE (slow-mo); 0 when not counted."""
    return 4 if expected.free_timing and expected.sound is Sound.MZKZ else 0
