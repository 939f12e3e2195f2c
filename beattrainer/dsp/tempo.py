"""Tempo: the word period from the lead's two solos, and a tracker for the group's drift.

The tracker follows the group's slow drift (rulings section 5) without being pulled by one
bad word.

Pure numpy/stdlib; the referee feeds it heard word onsets by beat number.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

MIN_PERIOD_S = 0.6   # a MIEZEKATZE takes ~0.5-1 s to say: a faster beat cannot be kept
MAX_PERIOD_S = 3.5   # slower than this is no beat any more
FIT_WINDOW = 8       # heard words the tracker fits a line through
SLOPE_PRIOR = 6.0    # most weight of the previous period in the fit [beats^2] (it weighs
                     # only what words no longer in the fit told of it: `TempoTracker`)
LOCAL_POINTS = 5     # words that tell how fast the group goes right now
AGREE_S = 0.04       # the words that vouch for a solo's onset lie this close to one line
MISHEARD_S = 0.06    # a solo this far off that line was misheard (a solo heard as a word
                     # start: this far off, were the line exact) ...
MISHEARD_FRACTION = 0.05  # ... or 5% of the period, whichever is more
MISHEARD_MAX_FRACTION = 0.15  # further off, the group changed tempo: that is judged
ONSET_SD_S = 0.02    # one word onset's error against the group's beat, one sd [s]: the
                     # players' own timing (renders: 0-20 ms) and the detector's (p95 17 ms)


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


def line_uncertainty_at(beats: Sequence[int], beat: int) -> float:
    """How far an onset at `beat` may lie off the least-squares line through `beats`.

    In units of one onset's jitter: the sd of (onset - line) for onsets of equal,
    independent jitter, divided by that jitter:
    sqrt(1 + 1/n + (beat - mean)^2 / sum (b - mean)^2). Grows as `beat` leaves the points.
    """
    n = len(beats)
    mean = sum(beats) / n
    spread = sum((b - mean) ** 2 for b in beats)
    return (1.0 + 1.0 / n + (beat - mean) ** 2 / spread) ** 0.5


def refine_solo_onsets(solo_onsets_s: tuple[float, float],
                       confirmed: Sequence[tuple[int, float]],
                       word_starts: tuple[bool, bool] = (True, True)) -> tuple[float, float]:
    """The solos' onsets, one of them moved onto the group's line when it alone is off that line.

    The group's line is the one its first words lie on. In noise the detector may glue a noise
    onto the start of a solo or miss its first syllable, putting that one onset 100-300 ms
    off; the two solos then set a wrong period and the group's first word is judged off the
    beat. When the other solo and the group's first words (at least two) agree on one line
    within `AGREE_S` and the solo is more than max(`MISHEARD_S`, `MISHEARD_FRACTION` T, three
    times their spread) from it, the solo's onset is taken from the line. A solo the detector
    heard as a word start must lie further off, by the line's own uncertainty at its beat
    (`line_uncertainty_at`): three points put the line at solo 1's beat, a beat before them
    all, only to about ±1.5 times one onset's jitter (at solo 2's, between them, to ±0.7),
    and a correct solo 1 in pink noise lay 100 ms off it. A word the group
    itself puts off the beat breaks that agreement, so it is never hidden this way; a solo
    more than `MISHEARD_MAX_FRACTION` T off the line is left as heard (the group changed tempo
    right after the solos, which is judged).

    Parameters
    ----------
    solo_onsets_s : onsets of the solos (beats 0 and 1) as heard [s]
    confirmed : (beat, onset [s]) of the group's first words on the solos' beat
    word_starts : whether the detector heard each solo's onset as a word start

    Returns
    -------
    tuple of two floats : the solos' onsets [s]
    """
    if len(confirmed) < 2:
        return solo_onsets_s
    fits = []
    for k in (0, 1):
        other = 1 - k
        beats = [other, *(b for b, _ in confirmed)]
        onsets = [solo_onsets_s[other], *(t for _, t in confirmed)]
        a, b = fit_line(beats, onsets, 0.0, prior_weight=0.0)
        spread_s = max(abs(t - a - b * x) for x, t in zip(beats, onsets))
        off_s = abs(solo_onsets_s[k] - a - b * k)
        # an onset the detector did not hear as a word start may be noise or a later
        # syllable: the line's word outweighs it (seeds 38, 47: a solo 1 a syllable or noise
        # 40-220 ms off its word, not a word start, was set right so)
        off_line_s = MISHEARD_S * line_uncertainty_at(beats, k) if word_starts[k] else MISHEARD_S
        misheard_s = max(off_line_s, MISHEARD_FRACTION * b, 3 * spread_s)
        # (a line steeper or flatter than any beat moves no solo: the solos then
        # give the period, and the group's words are judged against it)
        keeps_a_beat = MIN_PERIOD_S <= abs(a + b * k - solo_onsets_s[other]) <= MAX_PERIOD_S
        if spread_s <= AGREE_S and misheard_s < off_s <= MISHEARD_MAX_FRACTION * b \
                and keeps_a_beat:
            fits.append((spread_s, k, a + b * k))
    if not fits:
        return solo_onsets_s
    # three points leave little room: the solo whose removal leaves the tightest line
    _, k, onset_s = min(fits)
    return (onset_s, solo_onsets_s[1]) if k == 0 else (solo_onsets_s[0], onset_s)


def beat_spread(beats: Sequence[int]) -> float:
    """What words at these beats tell of the period: sum (beat - mean)^2 [beats^2].

    A line's slope through onsets of equal jitter is known to jitter^2 / this.
    """
    if not beats:
        return 0.0
    mean = sum(beats) / len(beats)
    return float(sum((b - mean) ** 2 for b in beats))


@dataclass
class TempoTracker:
    """Expected word times from a line fitted through the recent heard words.

    The line starts at the solos (period and phase) and follows slow drift; after a
    free-timing card `reanchor` restarts the phase where the group is heard again,
    keeping the period.

    The fit pulls the period to the previous one by what words that left the fit told of
    it (their `beat_spread`, at most `SLOPE_PRIOR`): words still in the fit are not
    counted twice. The solos' period rests on two words that jitter like every word (10-40
    ms), so it is known to a few percent only; weighed as if it rested on many more, it
    held the group's first words off their own line (judge seed 86, case 117: solos 5.5%
    slow, the period still 4.4% slow after the group's first word, a squeak on time judged
    120 ms early). Once a word has left the fit (or after a re-anchoring, or on a given
    grid) the previous period carries what the fit no longer sees, and one bad word cannot
    pull it far.
    """

    solo_period_s: float
    window: int = FIT_WINDOW
    _beats: list[int] = field(default_factory=list)
    _onsets_s: list[float] = field(default_factory=list)
    _period_s: float = 0.0
    _intercept_s: float = 0.0
    _run_beats: list[int] = field(default_factory=list)  # beats heard since the (re)anchoring
    _heard: list[bool] = field(default_factory=list)  # per fitted point: a word heard (not
                                                      # a given grid's anchor)
    _earlier_spread: float = 0.0  # what words before the last (re)anchoring told [beats^2]

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
        tracker = cls(period_s, _earlier_spread=SLOPE_PRIOR)  # (the period is given)
        tracker.reanchor(0, first_onset_s, heard=False)
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

    def observe(self, beat: int, onset_s: float, heard: bool = True) -> None:
        """Take a heard, on-beat word into the fit (`heard` False: a given grid's anchor)."""
        self._beats.append(beat)
        self._onsets_s.append(onset_s)
        self._heard.append(heard)
        self._run_beats.append(beat)
        del self._beats[: -self.window], self._onsets_s[: -self.window]
        del self._heard[: -self.window]
        self._intercept_s, self._period_s = fit_line(self._beats, self._onsets_s, self._period_s,
                                                     self._prior_weight())

    def _prior_weight(self) -> float:
        """How much the previous period weighs in the fit [beats^2].

        What the words no longer in the fit told of it, at most `SLOPE_PRIOR`; with a
        single word in the fit the period can only be the previous one.
        """
        if len(set(self._beats)) < 2:
            return SLOPE_PRIOR
        left_fit = self._earlier_spread + beat_spread(self._run_beats) - beat_spread(self._beats)
        return min(SLOPE_PRIOR, left_fit)

    def early_error_s(self, beat: int) -> float:
        """How much less the expected time of `beat` is known than from a full fit [s].

        The sd of the line's own error at `beat` (`line_uncertainty_at`, the word's own
        jitter taken out) beyond that of a line through `window` words in a row, in units of
        `ONSET_SD_S`. Right after the solos the line rests on two words: the group's first
        word, two beats on, is expected to about +-45 ms, where a full fit knows it to 16.
        With one word in the fit (after a re-anchoring) the phase is known to one word's
        jitter, the period from before.
        """
        def own_variance(beats: Sequence[int], at: int) -> float:
            if len(set(beats)) < 2:
                return 1.0
            return line_uncertainty_at(beats, at) ** 2 - 1.0

        full = list(range(self.window))
        extra = own_variance(self._beats, beat) - own_variance(full, self.window)
        return ONSET_SD_S * max(0.0, extra) ** 0.5

    def local_period_s(self, extra: Sequence[tuple[int, float]] = (),
                       points: int = LOCAL_POINTS) -> float | None:
        """The period [s] of the last few heard words plus `extra` (beat, onset) pairs.

        Without the prior: how fast the group goes right now. None with fewer than two words.
        Only words heard count: a given grid's anchor (`from_grid`) is where the group was
        told to start, not where it went. With it in, a group under challenge 2 that slowed
        28% after two words near the grid went "10.6% slower", within the drift limit,
        where its words tell 17.5% (judge seed 85, case 197). Fewer words than `points`:
        all of them.
        """
        keep = max(0, points - len(extra))
        heard = [(b, t) for b, t, h in zip(self._beats, self._onsets_s, self._heard) if h]
        points_now = heard[max(0, len(heard) - keep):] + list(extra)
        beats = [b for b, _ in points_now]
        onsets = [t for _, t in points_now]
        if len(set(beats)) < 2:
            return None
        return fit_line(beats, onsets, self._period_s, prior_weight=0.0)[1]

    def reanchor(self, beat: int, onset_s: float, heard: bool = True) -> None:
        """Restart the phase at a heard word, keeping the period (after free timing)."""
        self._earlier_spread += beat_spread(self._run_beats)
        self._beats, self._onsets_s, self._run_beats, self._heard = [], [], [], []
        self.observe(beat, onset_s, heard)
