"""The recognizer's labels, their notation, and which acoustic class each label belongs to.

Items are written LABEL or LABEL/modifier. Pure, stdlib only.
"""
from __future__ import annotations

from dataclasses import dataclass

MIEZEKATZE = "MIEZEKATZE"
SILENCE = "SILENCE"
MODIFIERS = ("quiet", "loud", "slow", "high", "whisper")

# Acoustic classes the class model tells apart.
QUIET = "silence"        # nothing but the room
VOICE = "voice"          # a voiced word
WHISPERED = "whispered"  # a word without voicing
SHH_CLASS = "shh"        # one long hushing noise
HISS_CLASS = "hiss"      # one long, higher hissing noise
CLICK = "click"          # a kiss
SQUEAK = "squeak"        # the squeaker's tone
GROWL = "growl"          # a zombie growl
PERCUSSION = "percussion"  # claps, stamps, dice: no voice
CLASSES = (QUIET, VOICE, WHISPERED, SHH_CLASS, HISS_CLASS, CLICK, SQUEAK, GROWL, PERCUSSION)

# Labels that are not words: what class they sound like.
NONSPEECH_CLASS = {"SILENCE": QUIET, "HISS": HISS_CLASS, "SHH": SHH_CLASS, "KISS": CLICK,
                   "SQUEAK": SQUEAK, "ZOMBIE": GROWL}
# Words every performance vocabulary may contain (the cards' substitute words).
CARD_WORDS = ("MIEZEKATZE", "YEAH", "YO", "BAM", "WOW", "BUUUH", "DING DONG", "AAAH", "OOOH",
              "SHH", "MIAU", "WUIKKIWUIKKI", "WAVING CAT", "WINKEKATZE")
NONVERBAL = ("HISS", "KISS", "ZOMBIE", "SQUEAK")


class ItemError(ValueError):
    """An item that is not LABEL or LABEL/modifier; one-line message."""


@dataclass(frozen=True)
class Item:
    """A label with an optional modifier (MIEZEKATZE/quiet)."""

    label: str
    modifier: str | None = None

    @classmethod
    def parse(cls, text: str) -> Item:
        """Read 'LABEL' or 'LABEL/modifier' (label upper-cased, spaces kept)."""
        label, _, modifier = text.strip().partition("/")
        label = " ".join(label.split()).upper()
        modifier = modifier.strip().lower() or None
        if not label:
            raise ItemError(f"empty item {text!r}")
        if modifier is not None and modifier not in MODIFIERS:
            raise ItemError(f"unknown modifier {modifier!r} in {text!r} "
                            f"(use {', '.join(MODIFIERS)})")
        return cls(label, modifier)

    def __str__(self) -> str:
        return f"{self.label}/{self.modifier}" if self.modifier else self.label


def is_speech(label: str) -> bool:
    """True for labels a speech recognizer can hear (words and names; SHH too)."""
    return label not in NONSPEECH_CLASS or label == "SHH"


def whisperable(label: str) -> bool:
    """True for voiced words (a whisper drops their voice); not SHH or non-verbal sounds."""
    return sound_class(label) == VOICE


def sound_class(label: str) -> str:
    """The acoustic class a label belongs to (a voiced word unless listed)."""
    return NONSPEECH_CLASS.get(label, VOICE)


def speech_labels(vocabulary) -> tuple[str, ...]:
    """The labels of `vocabulary` a speech recognizer should listen for, in order."""
    seen: dict[str, None] = {}
    for label in vocabulary:
        if is_speech(label):
            seen.setdefault(label, None)
    return tuple(seen)


def full_vocabulary(vocabulary) -> tuple[str, ...]:
    """`vocabulary` plus SILENCE and the non-verbal labels, without duplicates."""
    seen: dict[str, None] = {}
    for label in (*vocabulary, SILENCE, *NONVERBAL):
        seen.setdefault(" ".join(label.split()).upper(), None)
    return tuple(seen)


def acceptable(expected: Item, heard: Item, alternatives=(), strictness: str = "normal") -> bool:
    """Whether hearing `heard` fulfils `expected` (the labels and modifier rules).

    A modifier that is due must be realised. A plain word is fulfilled by any
    delivery of it (a loud normal MIEZEKATZE is no mistake), except that a
    whisper is only accepted where one is due or in lenient mode. Where a
    whisper is due, a voiced word is accepted only in lenient mode; sounds
    that have no voice to drop (SHH, a kiss, the squeaker of card 09) fulfil a
    whisper as they are.
    """
    labels = {expected.label, *alternatives}
    if heard.label not in labels:
        return False
    due, got = expected.modifier, heard.modifier
    if due is None:
        return got != "whisper" or strictness == "lenient"
    if due == "whisper":
        return got == "whisper" or not whisperable(heard.label) or strictness == "lenient"
    return got == due
