"""What the referee tells: each slot's verdict, the mistake kinds, and the judge report.

Also what it needs from a recognizer (`SlotRecognizer`, `HeardSlot`) and the words its
messages use.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Callable, Protocol, Sequence

import numpy as np

from beattrainer.mzkz.model import Expected, Performance, Role, Slot, Sound

TIERS_MS = (25, 50, 100)     # timing feedback, not mistakes
SILENCE_LABELS = {"SILENCE", "NOISE", "PERCUSSION"}


class MistakeKind(str, Enum):
    """The mistake kinds of the contract (rulings section 5)."""

    MISSING = "missing"
    UNEXPECTED_SOUND = "unexpected_sound"
    WRONG_WORD = "wrong_word"
    OFF_BEAT = "off_beat"
    WRONG_DYNAMICS = "wrong_dynamics"
    TEMPO_DRIFT = "tempo_drift"


@dataclass(frozen=True)
class HeardSlot:
    """What the recognizer made of one slot's audio."""

    label: str                    # MIEZEKATZE, YEAH, ..., MIEZEKATZE/quiet, SILENCE, NOISE
    accepted: bool                # the expected item was heard
    confidence: float | None = None
    level_db: float | None = None
    # where the slot's quiet, loud or high was judged against other voices than its
    # performers' (the group's first words against the lead's solos): judges the same audio
    # again against their own normal voice, None while that is still unknown (decision 81)
    judge_against_own_voice: Callable[[], HeardSlot | None] | None = field(
        default=None, compare=False, repr=False)


class SlotRecognizer(Protocol):
    """What the referee needs from a recognizer (see beattrainer.recognize)."""

    def recognize_slot(self, samples: np.ndarray, expected: Expected, slot: Slot,
                       syllable_onsets_s: Sequence[float],
                       due_from_s: float | None = None) -> HeardSlot:
        """What the slot's audio was heard as.

        `due_from_s`: where its word is due [s from the audio's start], where no start
        of it was heard.
        """

    def probe_slot(self, samples: np.ndarray, expected: Expected,
                   slot: Slot) -> HeardSlot:
        """`recognize_slot` without side effects."""

    def learn_slot(self, samples: np.ndarray, expected: Expected, slot: Slot) -> None:
        """Adapt to a slot heard right."""


@dataclass(frozen=True)
class SlotVerdict:
    """The judgement of one slot (the contract's slot object)."""

    slot: Slot
    expected_onset_s: float | None
    heard_onset_s: float | None
    heard: HeardSlot | None
    syllable_onsets_s: tuple[float, ...] = ()
    offset_ms: float | None = None
    verdict: str = "ok"           # ok | mistake | not_judged
    mistake: MistakeKind | None = None
    message: str = ""

    def to_json(self) -> dict:
        """The contract's slot object."""
        heard = None
        if self.heard is not None:
            heard = {
                "onset_s": _r(self.heard_onset_s if self.heard_onset_s is not None
                              else self.expected_onset_s or 0.0),
                "label": self.heard.label,
                "syllable_onsets_s": [_r(t) for t in self.syllable_onsets_s],
                "level_db": _r(self.heard.level_db),
                "confidence": _r(self.heard.confidence),
            }
        return {
            "index": self.slot.index,
            "round": self.slot.round,
            "role": self.slot.role.value,
            "card": self.slot.card,
            "expected": self.slot.expected.to_json(),
            "expected_onset_s": _r(self.expected_onset_s),
            "heard": heard,
            "offset_ms": _r(self.offset_ms, 1),
            "verdict": self.verdict,
        }


def _r(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(float(value), digits)


def due_text(expected: Expected) -> str:
    """What was due, as a message says it."""
    if expected.sound is Sound.SILENCE:
        return "silence"
    text = " or ".join(expected.labels) or expected.sound.value
    if expected.modifier:
        return f"{text} ({expected.modifier.value})"
    return text


def heard_text(label: str) -> str:
    """What was heard (a recognizer label), as a message says it."""
    if label in SILENCE_LABELS:
        return "nothing" if label == "SILENCE" else label.lower()
    if "/" in label:
        word, modifier = label.split("/", 1)
        return f"{word} ({modifier})"
    return label


def content_mistake(expected: Expected, label: str) -> MistakeKind:
    """Which mistake a rejected label is: nothing, the wrong dynamics, or a wrong word."""
    if label in SILENCE_LABELS:
        return MistakeKind.MISSING
    word = label.split("/", 1)[0]
    # the right word, yet rejected: only how it was said can be wrong
    return MistakeKind.WRONG_DYNAMICS if word in expected.labels else MistakeKind.WRONG_WORD


def drift_message(drift: float) -> str:
    """How far the group moved from the solos' tempo, as a message says it."""
    way = "slowed down" if drift > 0 else "rushed"
    return f"the group {way} {abs(drift) * 100:.0f}% from the solos' tempo"


@dataclass(frozen=True)
class JudgeReport:
    """Everything the referee found in one performance."""

    performance: Performance
    period_s: float | None
    final_period_s: float | None
    slots: tuple[SlotVerdict, ...]
    mistake: SlotVerdict | None
    result: str
    percussion_s: tuple[float, ...]
    duration_s: float
    sample_rate: int
    audio_path: str | None = None
    channels: int = 1
    lead: str | None = None
    extra: dict = field(default_factory=dict)

    def timed_offsets_ms(self) -> list[float]:
        """Offsets of the slots judged for timing [ms]."""
        return [v.offset_ms for v in self.slots if v.offset_ms is not None]

    def to_json(self) -> dict:
        """The `beattrainer.judge-report/1` contract object."""
        offsets = np.array(self.timed_offsets_ms(), dtype=float)
        drift_pct = None
        if self.period_s and self.final_period_s:
            drift_pct = round((self.final_period_s / self.period_s - 1.0) * 100.0, 2)
        timing = {
            "slots_timed": int(len(offsets)),
            "mean_offset_ms": _r(offsets.mean(), 1) if len(offsets) else None,
            "mean_abs_offset_ms": _r(np.abs(offsets).mean(), 1) if len(offsets) else None,
            "std_offset_ms": _r(offsets.std(), 1) if len(offsets) else None,
            "max_abs_offset_ms": _r(np.abs(offsets).max(), 1) if len(offsets) else None,
            "tempo_drift_pct": drift_pct,
            "tiers": {f"within_{t}ms": int((np.abs(offsets) <= t).sum()) for t in TIERS_MS},
        }
        mistake = None
        if self.mistake is not None:
            m = self.mistake
            mistake = {
                "slot": m.slot.index,
                "kind": m.mistake.value,
                "time_s": _r(m.heard_onset_s if m.heard_onset_s is not None
                             else (m.expected_onset_s or 0.0)),
                "message": describe_slot(m.slot) + ": " + m.message,
            }
        perf = self.performance
        return {
            "schema": "beattrainer.judge-report/1",
            "audio": {"path": self.audio_path, "sample_rate": self.sample_rate,
                      "duration_s": _r(self.duration_s), "channels": self.channels},
            "performance": {"cards": list(perf.cards_in_play), "challenge": perf.challenge,
                            "lead": self.lead, "mode": perf.mode, "number": perf.number},
            "tempo": {"period_s": _r(self.period_s), "bpm": _r(60.0 / self.period_s, 2)
                      if self.period_s else None,
                      "final_period_s": _r(self.final_period_s)},
            "slots": [v.to_json() for v in self.slots],
            "mistake": mistake,
            "result": self.result,
            "timing": timing,
            "percussion": [{"time_s": _r(t)} for t in self.percussion_s],
            **self.extra,
        }


def describe_slot(slot: Slot) -> str:
    """'round 2, card 3 (04)' / 'solo 1' / 'final move'."""
    if slot.role is Role.SOLO:
        return f"solo {slot.index + 1}"
    if slot.role is Role.FINAL:
        return "final move"
    return f"round {slot.round}, card {slot.position} ({slot.card})"
