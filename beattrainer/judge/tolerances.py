"""How strict the referee is: how far a word may be from its beat, how far the tempo may drift."""
from __future__ import annotations

from dataclasses import dataclass

# Tolerances of the "normal" strictness (rulings section 5).
OFF_BEAT_MIN_S = 0.120       # a word is off the beat beyond max(120 ms, 10% of T)
OFF_BEAT_FRACTION = 0.10
DRIFT_LIMIT = 0.15           # the group's period may drift 15% from the solos'
STRICTNESS_SCALE = {"lenient": 1.5, "normal": 1.0, "strict": 0.67}


@dataclass(frozen=True)
class Tolerances:
    """Timing tolerances of one strictness."""

    off_beat_min_s: float
    off_beat_fraction: float
    drift_limit: float

    @classmethod
    def for_strictness(cls, strictness: str) -> Tolerances:
        """Scale the normal tolerances: lenient x1.5, strict x0.67."""
        if strictness not in STRICTNESS_SCALE:
            raise ValueError(f"strictness is one of {', '.join(STRICTNESS_SCALE)}")
        k = STRICTNESS_SCALE[strictness]
        return cls(OFF_BEAT_MIN_S * k, OFF_BEAT_FRACTION * k, DRIFT_LIMIT * k)

    def off_beat_s(self, period_s: float) -> float:
        """How far a word may be from its beat [s]."""
        return max(self.off_beat_min_s, self.off_beat_fraction * period_s)
