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
    replaces_s : float or None
        Set on a correction: the onset reported before at `replaces_s` lies at
        `time_s` (the stream's first word, whose start is known better once
        its first syllable's peak is in); `detected_s` is when the correction came.
    """

    time_s: float
    strength: float
    kind: OnsetKind = OnsetKind.SYLLABLE
    detected_s: float = 0.0
    starts_word: bool = False
    replaces_s: float | None = None


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


def final_events(events) -> list:
    """The events in order, each correction in the place of the onset it corrects.

    The corrections keep their `replaces_s`; an onset whose earlier report is
    not among `events` is kept as it is.
    """
    final: list = []
    for event in events:
        if isinstance(event, Onset) and event.replaces_s is not None:
            earlier = [k for k, e in enumerate(final) if isinstance(e, Onset)
                       and e.kind is event.kind and e.time_s == event.replaces_s]
            if earlier:
                final[earlier[-1]] = event
                continue
        final.append(event)
    return final


def first_reports_s(events) -> dict:
    """When each final onset was first reported [s], keyed by its final `time_s`.

    A correction counts from the report it corrects: the listener knew of
    the onset then, only not yet exactly where it lies.
    """
    reported_s: dict = {}
    for event in events:
        if not isinstance(event, Onset):
            continue
        first_s = reported_s.pop(event.replaces_s, event.detected_s) \
            if event.replaces_s is not None else event.detected_s
        reported_s[event.time_s] = first_s
    return reported_s
