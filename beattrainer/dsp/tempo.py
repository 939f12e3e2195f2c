"""Tempo: the word period from the lead's two solos, and a tracker that follows
the group's slow drift (rulings section 5) without being pulled by one bad word.

Pure numpy/stdlib; the referee feeds it heard word onsets by beat number.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

MIN_PERIOD_S = 0.35  # faster than ~170 words per minute nobody can say MIEZEKATZE
MAX_PERIOD_S = 4.0   # slower than this is no beat any more
FIT_WINDOW = 8       # heard words the tracker fits a line through
SLOPE_PRIOR = 6.0    # weight of the previous period in the fit [beats^2]
LOCAL_POINTS = 5     # words that tell how fast the group goes right now


class TempoError(ValueError):
    """The solos do not give a usable tempo."""


def period_from_solos(solo1_onset_s: float, solo2_onset_s: float) -> float:
    """The word period T [s] set by the two solos (time between their word starts)."""
    period_s = solo2_onset_s - solo1_onset_s
    if not MIN_PERIOD_S <= period_s <= MAX_PERIOD_S:
        raise TempoError(f"the solos are {period_s:.2f} s apart; a beat needs "
                         f"{MIN_PERIOD_S}-{MAX_PERIOD_S} s between word starts")
    return period_s


def fit_line(beats: list[int], onsets_s: list[float], prior_period_s: float,
             prior_weight: float = SLOPE_PRIOR) -> tuple[float, float]:
    """Least-squares line onset = a + b*beat with a prior pulling b to `prior_period_s`.

    Minimises sum (onset - a - b*beat)^2 + prior_weight * (b - prior_period_s)^2,
    so one point already gives a line (through it, with the prior slope).

    Returns
    -------
    a : float, onset at beat 0 [s]
    b : float, period [s per beat]
    """
    n = len(beats)
    if n == 0:
        raise ValueError("need at least one point")
    sx = float(sum(beats))
    sy = float(sum(onsets_s))
    sxx = float(sum(x * x for x in beats)) + prior_weight
    sxy = float(sum(x * y for x, y in zip(beats, onsets_s))) + prior_weight * prior_period_s
    det = n * sxx - sx * sx
    b = (n * sxy - sx * sy) / det
    a = (sy - b * sx) / n
    return a, b


@dataclass
class TempoTracker:
    """Expected word times from a line fitted through the recent heard words.

    The line starts at the solos (period and phase) and follows slow drift; after a
    free-timing card `reanchor` restarts the phase where the group is heard again,
    keeping the period.
    """

    solo_period_s: float
    window: int = FIT_WINDOW
    _beats: list[int] = field(default_factory=list)
    _onsets_s: list[float] = field(default_factory=list)
    _period_s: float = 0.0
    _intercept_s: float = 0.0

    def __post_init__(self) -> None:
        self._period_s = self.solo_period_s

    @classmethod
    def from_solos(cls, solo1_onset_s: float, solo2_onset_s: float) -> TempoTracker:
        """A tracker anchored on the two solos (beats 0 and 1)."""
        tracker = cls(period_from_solos(solo1_onset_s, solo2_onset_s))
        tracker.observe(0, solo1_onset_s)
        tracker.observe(1, solo2_onset_s)
        return tracker

    @classmethod
    def from_grid(cls, period_s: float, first_onset_s: float) -> TempoTracker:
        """A tracker on a given grid (challenge 2's silent solos: a count-in or --period)."""
        tracker = cls(period_s)
        tracker.reanchor(0, first_onset_s)
        return tracker

    @property
    def period_s(self) -> float:
        """The group's current word period [s]."""
        return self._period_s

    @property
    def drift(self) -> float:
        """Relative change of the period since the solos (0.1 = 10% slower)."""
        return self._period_s / self.solo_period_s - 1.0

    def expected_s(self, beat: int) -> float:
        """When the word of `beat` is due [s]."""
        return self._intercept_s + self._period_s * beat

    def observe(self, beat: int, onset_s: float) -> None:
        """Take a heard, on-beat word into the fit."""
        self._beats.append(beat)
        self._onsets_s.append(onset_s)
        del self._beats[: -self.window], self._onsets_s[: -self.window]
        self._intercept_s, self._period_s = fit_line(self._beats, self._onsets_s, self._period_s)

    def local_period_s(self, extra: Sequence[tuple[int, float]] = (),
                       points: int = LOCAL_POINTS) -> float | None:
        """The period of the last few heard words plus `extra` (beat, onset) pairs,
        without the prior: how fast the group goes right now [s], None with fewer
        than two words."""
        keep = max(0, points - len(extra))
        beats = self._beats[len(self._beats) - keep:] + [b for b, _ in extra]
        onsets = self._onsets_s[len(self._onsets_s) - keep:] + [t for _, t in extra]
        if len(set(beats)) < 2:
            return None
        return fit_line(beats, onsets, self._period_s, prior_weight=0.0)[1]

    def reanchor(self, beat: int, onset_s: float) -> None:
        """Restart the phase at a heard word, keeping the period (after free timing)."""
        self._beats, self._onsets_s = [], []
        self.observe(beat, onset_s)
