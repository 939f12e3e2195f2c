"""Value types of Beatz'n'Catz: what a card asks for, and a performance's slots.

Pure data; the catalog (`catalog.py`) fills `CardSpec`, the sequence compiler
(`sequence.py`) builds `Slot`s and `Performance`s.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Sound(str, Enum):
    """What one microphone should hear in a slot (contract enum `expected.sound`)."""

    MZKZ = "mzkz"            # a MIEZEKATZE, possibly modified
    WORD = "word"            # a substitute word: YEAH, YO, a name, ...
    SILENCE = "silence"      # nothing voiced (a dice roll or a movement may be heard)
    NONVERBAL = "nonverbal"  # kiss, hiss, zombie growl, squeaker
    FREE = "free"            # the final move: content free, never judged


class Modifier(str, Enum):
    """A change to how the word is said, relative to the group's normal one."""

    QUIET = "quiet"
    LOUD = "loud"
    SLOW = "slow"
    HIGH = "high"
    WHISPER = "whisper"


class Role(str, Enum):
    """A slot's place in a performance."""

    SOLO = "solo"
    CARD = "card"
    FINAL = "final"


MIEZEKATZE = "MIEZEKATZE"
NAME = "NAME"      # placeholder label: a player's name, resolved when names are known
SQUEAK = "SQUEAK"  # the cat squeaker


@dataclass(frozen=True)
class Expected:
    """What is due in a slot.

    `text` is the label due (MIEZEKATZE, YEAH, DING DONG, KISS, SQUEAK, a name...);
    `alternatives` are other labels that are accepted just as well (OOOH for
    AAAH, WAVING CAT for 43). `percussion` lists optional percussive events that
    go with the slot (never required to pass). `free_timing` marks the cards
    after which the group finds its beat again.
    """

    sound: Sound
    text: str | None = None
    alternatives: tuple[str, ...] = ()
    modifier: Modifier | None = None
    free_timing: bool = False
    percussion: tuple[str, ...] = ()

    @property
    def labels(self) -> tuple[str, ...]:
        """Every label that counts as right for this slot ("SILENCE" for silence)."""
        if self.sound is Sound.SILENCE:
            return ("SILENCE",) + self.alternatives
        return tuple(x for x in (self.text, *self.alternatives) if x)

    @property
    def voiced(self) -> bool:
        """True when a voice (word or MIEZEKATZE) is due."""
        return self.sound in (Sound.MZKZ, Sound.WORD)

    def item(self) -> str:
        """The recognizer's item notation: LABEL or LABEL/modifier (e.g. MIEZEKATZE/quiet)."""
        label = self.text if self.text else self.sound.value.upper()
        if self.sound is Sound.SILENCE:
            label = "SILENCE"
        return f"{label}/{self.modifier.value}" if self.modifier else label

    def to_json(self) -> dict:
        """The contract's `expected` object (plus our optional extras)."""
        out: dict = {
            "sound": self.sound.value,
            "text": self.text,
            "modifier": self.modifier.value if self.modifier else None,
        }
        if self.alternatives:
            out["alternatives"] = list(self.alternatives)
        if self.free_timing:
            out["free_timing"] = True
        if self.percussion:
            out["percussion"] = list(self.percussion)
        return out


@dataclass(frozen=True)
class Slot:
    """One word period of a performance.

    `performer` is None when everyone performs together, else the player index
    counted clockwise from the lead (0 = the lead). `position` is the card's
    1-based draw position. `voice` is the canon voice (0 outside canons).
    """

    index: int
    round: int
    role: Role
    card: str | None
    position: int | None
    expected: Expected
    performer: int | None = None
    voice: int = 0
    beat: int = 0  # when, in word periods from the first solo, the slot starts

    def to_json(self) -> dict:
        """The contract's slot object (sequence schema, plus extras)."""
        out = {
            "index": self.index,
            "round": self.round,
            "role": self.role.value,
            "card": self.card,
            "position": self.position,
            "expected": self.expected.to_json(),
            "performer": self.performer,
            "beat": self.beat,
        }
        if self.voice:
            out["voice"] = self.voice
        return out


@dataclass(frozen=True)
class Performance:
    """The exact slot list of one performance.

    For canons (challenges 5 and 6) `slots` holds every voice's slots in time
    order (`Slot.voice`, `Slot.beat`), followed by the shared final move.
    """

    mode: str
    challenge: int | None
    number: int
    cards_in_play: tuple[str, ...]
    slots: tuple[Slot, ...]
    voices: int = 1
    players: tuple[str, ...] = field(default=())

    def card_slots(self) -> tuple[Slot, ...]:
        """The card slots only."""
        return tuple(s for s in self.slots if s.role is Role.CARD)
