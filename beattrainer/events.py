"""What the streaming pipeline reports: small frozen value types, stdlib only.

Times are in seconds of audio consumed since the stream started (samples / rate),
never wall-clock time.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class OnsetKind(str, Enum):
    """What started: a spoken syllable or a percussive, non-voiced hit."""

    SYLLABLE = "syllable"
    PERCUSSION = "percussion"


@dataclass(frozen=True)
class Onset:
    """The start of a syllable or of a percussive event.

    Attributes
    ----------
    time_s : float
        Where the sound starts [s] (its first energy, not its loudest point).
    strength : float
        How far the sound rose above the noise floor [dB].
    kind : OnsetKind
    detected_s : float
        Stream time at which the detector knew about it [s]; `detected_s -
        time_s` is the detection latency.
    starts_word : bool
        True for a syllable that follows a gap, i.e. the first syllable of a word.
    """

    time_s: float
    strength: float
    kind: OnsetKind = OnsetKind.SYLLABLE
    detected_s: float = 0.0
    starts_word: bool = False


@dataclass(frozen=True)
class Word:
    """A group of syllables between gaps, reported once the word has ended.

    Attributes
    ----------
    onset_s : float
        Onset of the first syllable [s].
    syllable_onsets_s : tuple of float
        Onsets of all syllables, first one included [s].
    detected_s : float
        Stream time at which the word was closed [s].
    """

    onset_s: float
    syllable_onsets_s: tuple[float, ...]
    detected_s: float = 0.0

    @property
    def n_syllables(self) -> int:
        """Number of syllables heard in the word."""
        return len(self.syllable_onsets_s)
