"""The referee: judges each slot of a performance as it closes; the first mistake ends it.

It walks the performance's slots in time as audio arrives.

`Referee.feed(block)` takes mono float32 blocks at the pipeline rate from a file
or the microphone alike and returns the verdicts of the slots that closed;
`finish()` closes the stream and returns the judge report. Time is samples
consumed / rate. Nothing here does I/O: the onset detector and the slot
recognizer are passed in.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Iterable, Protocol, Sequence

import numpy as np

from beattrainer.dsp.features import frame_signal
from beattrainer.dsp.tempo import (
    MAX_PERIOD_S,
    MIN_PERIOD_S,
    TempoTracker,
    fit_line,
    refine_solo_onsets,
)
from beattrainer.events import Onset, OnsetKind
from beattrainer.mzkz.model import MIEZEKATZE, Expected, Modifier, Performance, Role, Slot, Sound

# Tolerances of the "normal" strictness (rulings section 5).
OFF_BEAT_MIN_S = 0.120       # a word is off the beat beyond max(120 ms, 10% of T)
OFF_BEAT_FRACTION = 0.10
DRIFT_LIMIT = 0.15           # the group's period may drift 15% from the solos'
TIERS_MS = (25, 50, 100)     # timing feedback, not mistakes
STRICTNESS_SCALE = {"lenient": 1.5, "normal": 1.0, "strict": 0.67}

SEARCH_FRACTION = 0.5        # a slot's word start is looked for within +-T/2
MIN_SYLLABLE_GAP_S = 0.05    # a new word starts at least this long after a syllable
FADING_TAIL_DB = 12.0        # a wordless syllable this much under the normal words is a tail
SILENCE_SEARCH_FRACTION = 0.35  # a voice in a silent slot starts within +-0.35 T
RIGHT_AFTER_PERIODS = 1.5     # a word heard this many periods before a slot is right before it
SOLO_CHECK_S = 1.2           # a solo's last syllable starts within this [s]
SOLO_TAIL_S = 0.3            # ... and lasts this long
SOLO_MAX_GAP_S = 0.6         # a solo's syllables follow each other closer than this
SOLO_CONFIRM_WORDS = 2       # the group's first words that confirm the solos' beat
SOLO_SPARE_WORDS = 1         # ... of this many more: the group's first word may be its mistake
SOLO_BEFORE_SOUNDS = 1       # a solo word a beat before the pair shows this many onsets
MISFIT_MARGIN_S = 0.05       # of two pairs that fit as well, the one whose line the group's
                             # words keep this much closer [s] wins (not the earlier one)
CONFIRM_REACH = 1.5          # ... within 1.5 times the off-beat tolerance
CONFIRM_PRIOR = 0.5          # ... following the group's beat as it settles
LEAD_IN_S = 0.03             # slot audio starts this long before the heard onset
NOISE_ONSET_DB = 20.0        # an onset this much under the loudest one near the beat is noise
ONSET_LEVEL_S = 0.16         # an onset's level: its loudest frame within this long [s]
                             # (a MIEZEKATZE's /m/ may hold 120 ms before its vowel)
LEVEL_FRAME_S = 0.02         # ... of frames this long [s]
WORD_RISE_DB = 3.0           # the next word after a slow one rises this much over the sound
                             # before it; a slow word's own late syllable does not (within
                             # 0.1 dB in a render of three voices out of step)
SILENCE_LABELS = {"SILENCE", "NOISE", "PERCUSSION"}
HIT_LABELS = {"KISS", "SQUEAK"}  # sounds the onset detector reports as percussion
WORD_SPAN_FRACTION = 0.85  # a word's syllables start within this much of a period
HIT_PAUSE_S = 0.6  # [s] squeaks of one squeezing follow each other faster than this
SAME_HIT_DB = 4.0  # ... and lie this close in level [dB]
HIT_LEVEL_S = 0.06  # a hit's level: its loudest frame within this long [s] ...
HIT_FRAME_S = 0.01  # ... of frames this long [s]
HIT_SLOT_S = 0.5  # a kiss's slot audio ends this long after its hit [s]
WORD_MAX_GAP_S = 0.6  # a word's syllables follow each other closer than this [s] (a slow
                      # word excepted): a lone onset and a pause before the next is no
                      # start of a word of several syllables
SLOW_WORD_S = 2.0  # a slow MIEZEKATZE's syllables start within this long [s] (or a
                   # period; the clip library's span 1.05-1.43 s)


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


class SlotRecognizer(Protocol):
    """What the referee needs from a recognizer (see beattrainer.recognize)."""

    def recognize_slot(self, samples: np.ndarray, expected: Expected, slot: Slot,
                       syllable_onsets_s: Sequence[float]) -> HeardSlot: ...

    def probe_slot(self, samples: np.ndarray, expected: Expected,
                   slot: Slot) -> HeardSlot: ...  # recognize_slot without side effects

    def learn_slot(self, samples: np.ndarray, expected: Expected, slot: Slot) -> None: ...


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


@dataclass
class _Pending:
    """An off-beat word whose kind waits for the next heard word.

    One word off the grid is off the beat; the whole group on a new period is tempo drift.
    """

    verdict: SlotVerdict
    beat: int
    onset_s: float


class Referee:
    """Judge one performance from a stream of audio blocks.

    Parameters
    ----------
    performance : the slot list (one voice; canons are judged on voice 0's grid)
    detector : an onset detector with ``feed(block) -> events``, ``flush()``, ``latency_s``
    recognizer : a `SlotRecognizer`
    sr : rate of the blocks [Hz]
    strictness : lenient | normal | strict
    grid : (period_s, first_onset_s) when the tempo is given (challenge 2's silent
        solos, a count-in); otherwise it is taken from the two solos
    judge_solos : False when the trainer speaks the solos itself (count-in)
    """

    def __init__(self, performance: Performance, detector, recognizer: SlotRecognizer,
                 sr: int, strictness: str = "normal",
                 grid: tuple[float, float] | None = None, judge_solos: bool = True) -> None:
        self.performance = performance
        self.judge_solos = judge_solos
        self.slots = [s for s in performance.slots if s.voice == 0]
        self.detector = detector
        self.recognizer = recognizer
        self.sr = sr
        self.tolerances = Tolerances.for_strictness(strictness)
        self.strictness = strictness
        self._chunks: list[np.ndarray] = []
        self._audio = np.zeros(0, dtype=np.float32)
        self._n_samples = 0
        self._word_starts: list[Onset] = []
        self._syllables: list[Onset] = []
        self.percussion: list[Onset] = []
        self._tracker: TempoTracker | None = (
            TempoTracker.from_grid(*grid) if grid else None)
        self._grid_given = grid is not None
        self._solo_onsets_s: list[float] = []
        self._solo_checks: dict[tuple[float, float], bool] = {}
        self._solo_alikes = frozenset(label for s in self.slots if MIEZEKATZE in s.expected.labels
                                      for label in s.expected.labels)
        # solo pair -> (words on its beat, those words as (beat, onset))
        self._kept: dict[tuple[float, float], tuple[int, tuple[tuple[int, float], ...]]] = {}
        self._normal_levels_db: list[float] = []  # levels of plain words heard right
        self._word_start_levels_db: list[float] = []  # starts of words heard right [dB]
        self._onset_levels_db: dict[float, float] = {}
        self._last_heard_s = -1.0     # onset of the last word judged [s]
        self._last_heard_syllables = 0
        self._last_heard_span_s = float("inf")  # where its syllables may lie after its onset
        self._next = 0                 # index into self.slots of the next slot to judge
        self._reanchor_pending = False
        self._after_free_from_s: float | None = None
        self._action_passed = False  # a silent slot with a stamp or clap passed while re-anchoring
        self._action_checks: dict[float, bool] = {}
        self._pending: _Pending | None = None
        self.verdicts: list[SlotVerdict] = []
        self.mistake: SlotVerdict | None = None
        self.finished = False

    # ------------------------------------------------------------------ stream

    @property
    def time_s(self) -> float:
        """Audio consumed so far [s]."""
        return self._n_samples / self.sr

    @property
    def done(self) -> bool:
        """True once every slot is judged or a mistake has ended the performance."""
        return self.mistake is not None or self._next >= len(self.slots)

    def feed(self, block: np.ndarray) -> list[SlotVerdict]:
        """Consume one block; return the verdicts of slots that closed."""
        block = np.asarray(block, dtype=np.float32).reshape(-1)
        self._chunks.append(block)
        self._n_samples += len(block)
        self._take_events(self.detector.feed(block))
        return self._advance(final=False)

    def finish(self) -> list[SlotVerdict]:
        """End of the stream: close what can be closed; the rest stays not judged."""
        self._take_events(self.detector.flush())
        out = self._advance(final=True)
        self.finished = True
        return out

    def run(self, blocks: Iterable[np.ndarray]) -> list[SlotVerdict]:
        """Feed every block, then finish; return all verdicts."""
        for block in blocks:
            self.feed(block)
        self.finish()
        return self.verdicts

    def _take_events(self, events: Sequence) -> None:
        for event in events:
            if not isinstance(event, Onset):
                continue
            if event.kind is OnsetKind.PERCUSSION:
                self.percussion.append(event)
            else:
                self._syllables.append(event)
                if event.starts_word:
                    self._word_starts.append(event)

    def _samples(self, start_s: float, end_s: float) -> np.ndarray:
        """Audio between two stream times (clipped to what has arrived)."""
        if self._chunks:
            self._audio = np.concatenate([self._audio, *self._chunks])
            self._chunks = []
        a = max(0, int(round(start_s * self.sr)))
        b = min(len(self._audio), int(round(end_s * self.sr)))
        return self._audio[a:b] if b > a else np.zeros(0, dtype=np.float32)

    # ------------------------------------------------------------------ walking

    def _advance(self, final: bool) -> list[SlotVerdict]:
        out: list[SlotVerdict] = []
        if self._tracker is None and not self._find_solos(final):
            return out
        while not self.done:
            verdict = self._try_close(self.slots[self._next], final)
            if verdict is None:
                break
            out.extend(self._settle(verdict))
            self._next += 1
        if final:
            out.extend(self._resolve_pending(next_onset=None))
        return out

    def _find_solos(self, final: bool) -> bool:
        """Take the tempo from the lead's two solo words.

        Any syllable onset may start a solo (noise before the lead may glue onto
        the first word, so it need not be flagged as a word start), but only when
        the recognizer hears the solo's word from there: a cough, a chair or the
        room's chatter must not set the beat. Each pair heard that way is scored by
        how the performance around it fits: the group's next
        words on its beat, nothing heard between the two solos, and no solo word a
        beat before the first. The earliest pair that fits fully is taken at once;
        otherwise the best-scoring one (of equals, the earliest, unless the group's
        words keep a later one's line clearly closer), once every pair that could
        compete with it is heard and decided (so a stream decides as the whole
        file would).
        """
        horizon = self.time_s - self.detector.latency_s
        onsets = [s.time_s for s in self._syllables]
        solo_syllables = expected_syllables(self.slots[0].expected)
        best: tuple[int, float, float] | None = None   # (score, first, second)
        waiting = False
        for i, first in enumerate(onsets):
            if best is not None and first > best[1] + MAX_PERIOD_S:
                break
            own = self._solo_syllables(i)
            first_end = self._solo_end(onsets, i, solo_syllables)
            if horizon < first_end and not final:
                waiting = True
                break  # the first solo is still being said
            if self._noise_before_word(i, own) or not self._is_solo_word(first, first_end):
                continue
            said_s = own[min(len(own), solo_syllables) - 1]
            # the recognizer heard the solo over its first syllables: before a second
            # solo they are its own, even where a syllable the detector missed left a
            # gap that looked like a pause between words
            heard = [o for o in onsets[i:i + solo_syllables] if o <= first + SOLO_CHECK_S]
            earliest = max(first + MIN_PERIOD_S, said_s + MIN_SYLLABLE_GAP_S)
            for j in range(i + 1, len(onsets)):
                second = onsets[j]
                if not earliest <= second <= first + MAX_PERIOD_S:
                    continue
                second_end = min(self._solo_end(onsets, j, solo_syllables), 2 * second - first)
                if horizon < second_end and not final:
                    waiting = True
                    break  # the second solo is still being said
                if not self._is_solo_word(second, second_end):
                    continue
                if second < first_end - SOLO_TAIL_S and \
                        not self._is_solo_word(first, second - MIN_SYLLABLE_GAP_S):
                    # the first solo was heard only with the second one's audio (babble
                    # before the lead's first solo)
                    continue
                hits, _, pending = self._beats_kept(first, second, horizon, final)
                if pending:
                    waiting = True
                    continue
                whole = heard if heard[-1] + MIN_SYLLABLE_GAP_S <= second else own
                score = hits - self._sounds_between(first, max(own[-1], whole[-1]), second) \
                    - self._solo_word_a_beat_before(first, second - first)
                if score == SOLO_CONFIRM_WORDS and best is None and not waiting:
                    # the earliest pair that fits fully (no earlier one still undecided:
                    # a longer period is confirmed later)
                    return self._take_solos(first, second)
                if best is None or score > best[0] or (
                        score == best[0] and self._misfit_s(first, second)
                        < self._misfit_s(best[1], best[2]) - MISFIT_MARGIN_S):
                    best = (score, first, second)
            if horizon < first + MAX_PERIOD_S and not final:
                waiting = True  # a later second solo may still come
        else:
            if best is not None and horizon < best[1] + MAX_PERIOD_S and not final:
                waiting = True  # a later first solo may still come
        if best is not None and (final or not waiting):
            return self._take_solos(best[1], best[2])
        return False

    def _noise_before_word(self, i: int, own: list[float]) -> bool:
        """True when the sound at syllable i is the room's noise glued onto the lead's first word.

        Such a sound stops short of a solo, and a pause no solo has follows before more syllables
        without a word start.
        """
        after = i + len(own)
        return len(own) < expected_syllables(self.slots[0].expected) and \
            after < len(self._syllables) and not self._syllables[after].starts_word and \
            self._syllables[after].time_s - own[-1] > SOLO_MAX_GAP_S

    def _sounds_between(self, first_s: float, first_said_s: float, second_s: float) -> int:
        """What is heard between the first solo's own syllables and the second solo.

        One per syllable and one more per word start, and one per percussive hit past the
        first solo's span (a solo's /k/ or /ts/ may sound as one). The lead says one word and
        then nothing until the second, so a pair two words apart (an octave error) or a pair
        starting on noise before the lead shows sound here: in babble at 10 dB the detector
        heard of the solo between such a pair only the hit of its KATZE.
        """
        between = [s for s in self._syllables
                   if first_said_s + MIN_SYLLABLE_GAP_S <= s.time_s < second_s - MIN_SYLLABLE_GAP_S]
        return len(between) + sum(s.starts_word for s in between) + \
            self._hits_between(first_s + SOLO_CHECK_S + SOLO_TAIL_S, second_s - MIN_SYLLABLE_GAP_S)

    def _hits_between(self, start_s: float, end_s: float) -> int:
        """How many percussive hits the detector heard in [start_s, end_s)."""
        return sum(start_s <= p.time_s < end_s for p in self.percussion)

    def _solo_word_a_beat_before(self, first_s: float, period_s: float) -> int:
        """1 when a word heard as the solo's word starts a beat before `first_s`, else 0.

        The beat is on the pair's own grid. Such a word means the pair is a word late (the group's
        first words after the real solos fit it as well), since the room is quiet before the
        lead's first solo (decisions: Beatz'n'Catz 8). Noise there is no such word.
        """
        reach = CONFIRM_REACH * self.tolerances.off_beat_s(period_s)
        due_s = first_s - period_s
        onsets = [s.time_s for s in self._syllables]
        for k, w in enumerate(self._syllables):
            if w.starts_word and abs(w.time_s - due_s) <= reach and \
                    w.time_s < first_s - MIN_PERIOD_S and self._is_solo_word(
                        w.time_s, self._solo_end(onsets, k, expected_syllables(
                            self.slots[0].expected))):
                return 1
        return 0

    def _beats_kept(self, first: float, second: float, horizon: float,
                    final: bool) -> tuple[int, tuple[tuple[int, float], ...], bool]:
        """How many of the group's first voiced words start on the beat the solos set, and which.

        The beat is followed as the tracker would follow it; `SOLO_CONFIRM_WORDS` of one more,
        since the group's first word may be its mistake and a pair two words apart always fits
        fully. Gives the count, those words as (beat, onset [s]), and whether some may still come.
        Cached once decided.
        """
        key = (first, second)
        if key in self._kept:
            return (*self._kept[key], False)
        period = second - first
        # generous: this finds the beat, it does not judge it (the solos' own onsets
        # may be a little off, and the group settles in)
        reach = CONFIRM_REACH * self.tolerances.off_beat_s(period)
        beats, times = [0, 1], [first, second]
        hits, checked = 0, 0
        for slot in self.slots[2:]:
            if hits == SOLO_CONFIRM_WORDS or checked == SOLO_CONFIRM_WORDS + SOLO_SPARE_WORDS \
                    or slot.role is not Role.CARD:
                break
            if slot.expected.free_timing:
                break  # the beat is found anew after it
            if not slot.expected.voiced:
                continue
            a, b = fit_line(beats, times, period, prior_weight=CONFIRM_PRIOR)
            due_s = a + b * slot.beat
            if horizon < due_s + reach and not final:
                return hits, (), True
            checked += 1
            near = [w.time_s for w in self._word_starts if abs(w.time_s - due_s) <= reach]
            if near:
                hits += 1
                beats.append(slot.beat)
                times.append(min(near, key=lambda t: abs(t - due_s)))
        hits += max(0, SOLO_CONFIRM_WORDS - checked)  # nothing more to check against
        confirmed = tuple(zip(beats[2:], times[2:]))
        self._kept[key] = (hits, confirmed)
        return hits, confirmed, False

    def _misfit_s(self, first: float, second: float) -> float:
        """How far the group's words that kept a pair's beat lie from its line, on average [s].

        The line is the one the pair sets; 0 without such words.
        """
        _, confirmed = self._kept[(first, second)]
        if not confirmed:
            return 0.0
        period = second - first
        return float(np.mean([abs(t - (first + beat * period)) for beat, t in confirmed]))

    def _take_solos(self, first: float, second: float) -> bool:
        """Set the grid from the solos, taking a solo onset the detector misheard from the line.

        A misheard onset is one alone off the line of the other solo and the group's first words.
        """
        _, confirmed = self._kept[(first, second)]
        first, second, confirmed = self._solos_before(first, second, confirmed)
        self._tracker = TempoTracker.from_solos(*refine_solo_onsets((first, second), confirmed))
        self._solo_onsets_s = [first, second]
        self._last_heard_s = second
        self._last_heard_syllables = expected_syllables(self.slots[1].expected)
        self._last_heard_span_s = WORD_SPAN_FRACTION * self._tracker.period_s
        return True

    def _solos_before(self, first: float, second: float, confirmed: tuple[tuple[int, float], ...]
                      ) -> tuple[float, float, tuple[tuple[int, float], ...]]:
        """The pair walked back while the solo's word is heard a beat before its first.

        The room is quiet before the lead's first solo (decisions: Beatz'n'Catz 8), so such a
        word means the pair is late: the group's first words after the real solos fit it as
        well, where the detector missed a solo's start (`_solo_word_a_beat_before` sees only
        heard starts). The word a beat before starts at the onset heard nearest its beat
        (within the reach the group's words get), or on the beat where none was heard; the
        detector must have heard `SOLO_BEFORE_SOUNDS` onsets of it, syllables or hits (the
        recognizer alone took the even murmur of babble at 10-20 dB before the lead, where
        the detector heard nothing, for a solo). Gives
        the solos and the words after them as (beat, onset [s]).
        """
        period = second - first
        reach = CONFIRM_REACH * self.tolerances.off_beat_s(period)
        points = [(0, first), (1, second), *confirmed]
        while True:
            due_s = points[0][1] - period
            if due_s < LEAD_IN_S:
                break
            near = [s.time_s for s in self._syllables if abs(s.time_s - due_s) <= reach]
            onset = min(near, key=lambda t: abs(t - due_s), default=due_s)
            end_s = min(onset + SOLO_CHECK_S + SOLO_TAIL_S, points[0][1] - MIN_SYLLABLE_GAP_S)
            said = len(self._syllables_between(due_s - reach, end_s)) + \
                self._hits_between(due_s - reach, end_s)
            if said < SOLO_BEFORE_SOUNDS or not self._is_solo_word(onset, end_s):
                break
            points = [(0, onset), *((beat + 1, t) for beat, t in points)]
        return points[0][1], points[1][1], tuple(points[2:])

    def _solo_syllables(self, i: int) -> list[float]:
        """The syllable onsets [s] of a solo starting at syllable i.

        They run up to the next word start, a pause no solo has (`SOLO_MAX_GAP_S`: what follows is
        another word, the one before was noise) or `SOLO_CHECK_S`.
        """
        own = [self._syllables[i].time_s]
        for s in self._syllables[i + 1:]:
            if s.starts_word or s.time_s - own[-1] > SOLO_MAX_GAP_S or \
                    s.time_s > own[0] + SOLO_CHECK_S:
                break
            own.append(s.time_s)
        return own

    @staticmethod
    def _solo_end(onsets: list[float], i: int, syllables: int) -> float:
        """Where a solo starting at onsets[i] ends.

        After its own syllables (it may be said slowly, or the detector may split it where it
        pauses), at most `SOLO_CHECK_S` plus a tail.
        """
        own = onsets[i:i + syllables]
        last = own[-1] if len(own) == syllables else onsets[i] + SOLO_CHECK_S
        return min(last, onsets[i] + SOLO_CHECK_S) + SOLO_TAIL_S

    def _is_solo_word(self, onset_s: float, end_s: float) -> bool:
        """Whether the audio between `onset_s` and `end_s` sounds like a solo (cached)."""
        key = (onset_s, end_s)
        if key not in self._solo_checks:
            slot = self.slots[0]
            samples = self._samples(onset_s - LEAD_IN_S, end_s)
            heard = self.recognizer.probe_slot(samples, slot.expected, slot)
            # a word a card takes in MIEZEKATZE's place (43: WINKEKATZE) sounds like
            # it: heard as such, it is still where the lead spoke (its verdict is
            # the solo slot's own)
            self._solo_checks[key] = heard.accepted or \
                heard.label.split("/", 1)[0] in self._solo_alikes
        return self._solo_checks[key]

    def _try_close(self, slot: Slot, final: bool) -> SlotVerdict | None:
        """Judge `slot` once the audio it needs has arrived (None: not yet)."""
        tracker = self._tracker
        period = tracker.period_s
        horizon = self.time_s - self.detector.latency_s
        if self._reanchor_pending:
            return self._close_reanchor(slot, final, horizon)
        expected_s = tracker.expected_s(slot.beat)
        if slot.role is Role.SOLO and not self.judge_solos:
            # the trainer spoke the solos itself (count-in): nothing to judge
            if horizon < expected_s + SEARCH_FRACTION * period and not final:
                return None
            return SlotVerdict(slot, expected_s, None, None, verdict="not_judged",
                               message="the trainer gave the solos")
        if slot.role is Role.SOLO and not self._grid_given:
            onset = self._solo_onsets_s[slot.index]
            # (a squeak card right after the solos may come early: its squeak is its own)
            end_s = self._word_end(onset, final, hit_follows=self._hit_follows(slot))
            if end_s is None:
                return None
            return self._judge_voiced(slot, expected_s, onset, end_s, timed=False)
        if self._pending is not None:
            return self._close_after_off_beat(slot, expected_s, horizon, final)
        search_end = expected_s + SEARCH_FRACTION * period
        if horizon < search_end and (not final or self.time_s < search_end):
            return None  # its audio has not (or never) fully arrived: not judged
        onset = self._word_start_near(expected_s, period, slot.expected)
        if _is_hit(slot.expected):
            # a kiss or a squeak is as sharp as a clap: the detector reports it as
            # percussion, which is what this slot may sound like (09: the lead's
            # squeak in place of the others calling the lead's name)
            onset = self._sound_start_near(expected_s, period, onset)
        if slot.role is Role.FINAL:
            return SlotVerdict(slot, expected_s, onset, None, verdict="not_judged",
                               message="the final move is free")
        if slot.expected.sound is Sound.SILENCE:
            return self._judge_silence(slot, expected_s, final)
        end_s = self._word_end(onset if onset is not None else expected_s, final,
                               free=_runs_long(slot.expected),
                               syllables=_free_syllables(slot.expected),
                               hit_follows=self._hit_follows(slot))
        if end_s is None:
            return None
        if set(slot.expected.labels) & HIT_LABELS and not slot.expected.free_timing \
                and onset is not None:
            # a kiss is over in a moment: the rest of the period is the room's, and
            # babble over a whole slow beat outweighed it (a growl lasts longer)
            end_s = min(end_s, onset + HIT_SLOT_S)
        return self._judge_voiced(slot, expected_s, onset, end_s, timed=True)

    def _close_after_off_beat(self, slot: Slot, expected_s: float, horizon: float,
                              final: bool) -> SlotVerdict | None:
        """After an off-beat word, find the next word wherever it comes.

        On the old grid (one word was off) or on a new period after the off word (tempo drift).
        """
        period = self._tracker.period_s
        pending = self._pending
        beats_after = slot.beat - pending.beat
        earliest = (min(expected_s, pending.onset_s + beats_after * period)
                    - SEARCH_FRACTION * period)
        latest = pending.onset_s + beats_after * period * 2.0
        later = self._word_starts_between(earliest, latest, syllable_fallback=False)
        if not later:
            if horizon < latest and not final:
                return None  # syllables stand in for word starts only once all are in
            later = self._word_starts_between(earliest, latest)
        if not slot.expected.voiced:
            return SlotVerdict(slot, expected_s, later[0] if later else None, None)
        return SlotVerdict(slot, expected_s, later[0] if later else None, None,
                           verdict="not_judged")

    def _close_reanchor(self, slot: Slot, final: bool, horizon: float) -> SlotVerdict | None:
        """The slot after a free-timing card starts where the group is heard again."""
        start = self._after_free_from_s or 0.0
        later = [w.time_s for w in self._word_starts if w.time_s > start]
        if slot.expected.sound is Sound.SILENCE:
            # a silent slot cannot anchor: it passes, the next heard slot anchors
            self._action_passed = self._action_passed or bool(slot.expected.percussion)
            return SlotVerdict(slot, None, None, None, verdict="ok")
        if _is_hit(slot.expected):
            later = sorted([*later, *(p.time_s for p in self.percussion if p.time_s > start)])
        if slot.role is Role.FINAL and (later or final):
            self._reanchor_pending = False
            return SlotVerdict(slot, None, later[0] if later else None, None,
                               verdict="not_judged", message="the final move is free")
        words = [t for t in later if not self._is_room_noise(t)]
        if expected_syllables(slot.expected) >= 2 and slot.expected.modifier is not Modifier.SLOW:
            # a babble burst alone before the group's word is no start of it (as in a slot
            # on the beat, `_word_start_near`)
            reach_s = SEARCH_FRACTION * self._tracker.period_s
            words = [t for t in words if not self._is_lone_onset(t, t + reach_s)] or words
        if self._action_passed:
            words = self._past_silent_actions(words, slot, final)
        if not words and not (final and later):
            return None  # not heard yet (at the end of the stream: never)
        onset = (words or later)[0]
        end_s = self._word_end(onset, final, free=_runs_long(slot.expected),
                               syllables=_free_syllables(slot.expected),
                               hit_follows=self._hit_follows(slot))
        if end_s is None:
            return None
        self._tracker.reanchor(slot.beat, onset)
        self._reanchor_pending = False
        self._action_passed = False
        return self._judge_voiced(slot, None, onset, end_s, timed=False)

    def _past_silent_actions(self, starts_s: list[float], slot: Slot,
                             final: bool) -> list[float]:
        """The word starts from the first one that is not a silent slot's stamp or clap.

        A stamp may sound to the detector like a word start; in a silent slot it would be
        judged as such a slot's sound (`_judge_silence`), but while the grid is found anew
        after a free-timing card the silent slot passes unheard and its stamp would anchor
        the next slot a beat early. A start the recognizer hears as no voice is skipped;
        none is left while the audio after the last one is still coming.
        """
        horizon = self.time_s - self.detector.latency_s
        reach_s = SEARCH_FRACTION * self._tracker.period_s
        for k, start_s in enumerate(starts_s):
            if start_s not in self._action_checks:
                if horizon < start_s + reach_s and not final:
                    return []  # not heard out yet
                end_s = min([*starts_s[k + 1:k + 2], start_s + reach_s])
                heard = self.recognizer.probe_slot(self._samples(start_s - LEAD_IN_S, end_s),
                                                   slot.expected, slot)
                self._action_checks[start_s] = heard.label in SILENCE_LABELS
            if not self._action_checks[start_s]:
                return starts_s[k:]
        return []

    def _word_starts_between(self, start_s: float, end_s: float,
                             syllable_fallback: bool = True) -> list[float]:
        """Word starts in [start_s, end_s], past the word heard last [s]."""
        return [o.time_s for o in self._word_onsets_between(start_s, end_s, syllable_fallback)]

    def _past_last_word_s(self) -> float:
        """Where the word heard last is over: just after its own last syllable.

        It is over no later than the next word start the detector heard (after a gap).
        """
        last = self._last_heard_s
        next_start = next((w.time_s for w in self._word_starts
                           if w.time_s > last + MIN_SYLLABLE_GAP_S), float("inf"))
        n = self._last_heard_syllables
        if n == 0:  # a kiss, a squeak: a hit, not syllables
            return last + MIN_SYLLABLE_GAP_S
        # a word's own syllables lie within its beat: one a period on is the next
        # word's (a whisper may show fewer syllables than it has, and words said
        # without a gap between them show no word start)
        own = [s.time_s for s in self._syllables
               if last <= s.time_s < last + self._last_heard_span_s]
        if len(own) >= n:
            # (a whispered or mumbled word may show fewer syllables than it has)
            return min(own[n - 1] + MIN_SYLLABLE_GAP_S, next_start)
        # fewer syllables than the word has (the detector merged some): a word a
        # quarter period early starts 0.75 T after the last one
        return min(last + 0.5 * self._tracker.period_s, next_start)

    def _word_onsets_between(self, start_s: float, end_s: float,
                             syllable_fallback: bool = True) -> list[Onset]:
        """Word-start onsets in [start_s, end_s], past the word heard last.

        The last word's own syllables are skipped (a pause inside a word can look
        like a word start). Where words abut without a gap (a late word running
        into the next), syllable onsets stand in for word starts.
        """
        own = [s for s in self._syllables if s.time_s >= self._last_heard_s]
        start_s = max(start_s, self._past_last_word_s())
        starts = [w for w in self._word_starts if start_s <= w.time_s <= end_s]
        if starts or not syllable_fallback:
            return starts
        return [o for o in own if start_s <= o.time_s <= end_s]

    def _sound_start_near(self, expected_s: float, period_s: float,
                          word_s: float | None) -> float | None:
        """The word start or percussive hit nearest to `expected_s` within +-T/2."""
        lo = max(expected_s - SEARCH_FRACTION * period_s, self._past_last_word_s())
        hits = [p.time_s for p in self.percussion
                if lo <= p.time_s <= expected_s + SEARCH_FRACTION * period_s]
        candidates = [*hits, *([word_s] if word_s is not None else [])]
        # nearest to the beat: a burst inside the word before is no kiss
        nearest = min(candidates, key=lambda t: abs(t - expected_s), default=None)
        if nearest is None or nearest == word_s:
            return nearest
        # one squeezing's squeaks sound alike; a burst inside the word before (its
        # TZE) is softer
        level_db = self._hit_level_db(nearest)
        alike = [t for t in hits if abs(self._hit_level_db(t) - level_db) <= SAME_HIT_DB]
        return _first_of_series(sorted(alike), nearest)

    def _hit_level_db(self, hit_s: float) -> float:
        """How loud a hit is: its loudest `HIT_FRAME_S` frame within `HIT_LEVEL_S` [dB]."""
        return peak_level_db(self._samples(hit_s, hit_s + HIT_LEVEL_S), int(HIT_FRAME_S * self.sr))

    def _word_start_near(self, expected_s: float, period_s: float,
                         expected: Expected) -> float | None:
        """Where the slot's word starts: the first onset within +-T/2 that is loud and not alone.

        The first, not the nearest: a slow or drawn-out word may pause inside and
        show a second "word start" closer to the beat. Loud: an onset more than
        `NOISE_ONSET_DB` under the loudest one from there to the window's end is
        noise before the word (babble filling the pause before a word hides its
        start, so the detector flags the noise as the word start and the word's
        first syllable as a syllable inside it). The audio decides, not the
        detector's strength, which measures the rise over its own floor. Alone: a
        babble burst may stand by itself, a pause longer than any inside a word
        (`WORD_MAX_GAP_S`) before the next word start in the window; a word of several
        syllables does not start there, and a word of one (alone by nature) not where
        that next start lies nearer the beat (the last syllable of the word before,
        flagged as a word start, stood alone 1 s before a SHH on the beat). A slow or
        free word may pause that long inside.
        """
        lo = expected_s - SEARCH_FRACTION * period_s
        hi = expected_s + SEARCH_FRACTION * period_s
        near = self._word_onsets_between(lo, hi)
        if not near:
            return None
        # the syllables from the first start on: where the detector merged a word into
        # the noise before it, only its syllables show where it begins
        onsets = [s.time_s for s in self._syllables if near[0].time_s <= s.time_s <= hi]
        if expected.modifier is not Modifier.SLOW and not expected.free_timing:
            beat_s = expected_s if expected_syllables(expected) < 2 else None
            onsets = [t for t in onsets if not self._is_lone_onset(t, hi, beat_s)] or onsets
        if not any(o.starts_word for o in near):
            # the word follows the one before without a gap: it starts where the sound
            # grows louder, not where the word before fades (an onset in its tail)
            onsets = [t for t in onsets if self._onset_level_db(t) > self._level_before_db(t)] \
                or onsets
        levels_db = [self._onset_level_db(t) for t in onsets]
        loudest_db = max(levels_db)
        return next(t for t, level_db in zip(onsets, levels_db)
                    if level_db >= loudest_db - NOISE_ONSET_DB)

    def _is_lone_onset(self, onset_s: float, end_s: float,
                       beat_s: float | None = None) -> bool:
        """True when the next sound after `onset_s` is a word start after a pause, before `end_s`.

        The pause is longer than `WORD_MAX_GAP_S`. A lone syllable after the pause says nothing:
        the detector may hear a word in noise as its first syllable alone. With `beat_s` (a word
        of one syllable, alone by nature), only when that word start lies nearer the beat.
        """
        later = [e for e in [*self._syllables, *self.percussion]
                 if onset_s < e.time_s <= end_s]
        if not later:
            return False
        after = min(later, key=lambda e: e.time_s)
        nearer = beat_s is None or abs(after.time_s - beat_s) < abs(onset_s - beat_s)
        return after.starts_word and after.time_s - onset_s > WORD_MAX_GAP_S and nearer

    def _is_room_noise(self, onset_s: float) -> bool:
        """A word start far under the group's plain words (`NOISE_ONSET_DB`) is the room's.

        After a free-timing card the group is heard again at its own level, not at babble's.
        """
        if not self._word_start_levels_db or \
                any(abs(p.time_s - onset_s) < MIN_SYLLABLE_GAP_S for p in self.percussion):
            return False  # (a kiss or a squeak may be soft; it is a hit, not a word)
        normal_db = float(np.median(self._word_start_levels_db[-8:]))
        return self._onset_level_db(onset_s) < normal_db - NOISE_ONSET_DB

    def _level_before_db(self, onset_s: float) -> float:
        """How loud the sound just before `onset_s` is: its loudest frame within `ONSET_LEVEL_S`."""
        return peak_level_db(self._samples(onset_s - ONSET_LEVEL_S, onset_s),
                             int(LEVEL_FRAME_S * self.sr))

    def _onset_level_db(self, onset_s: float) -> float:
        """How loud the sound starting at `onset_s` gets [dB] (cached once heard).

        The level of its loudest `LEVEL_FRAME_S` frame within `ONSET_LEVEL_S`.
        """
        if onset_s in self._onset_levels_db:
            return self._onset_levels_db[onset_s]
        level_db = peak_level_db(self._samples(onset_s, onset_s + ONSET_LEVEL_S),
                                 int(LEVEL_FRAME_S * self.sr))
        if self._n_samples >= (onset_s + ONSET_LEVEL_S) * self.sr:
            self._onset_levels_db[onset_s] = level_db
        return level_db

    def _word_end(self, onset_s: float, final: bool, free: bool = False,
                  syllables: int = 0, hit_follows: bool = False) -> float | None:
        """Where the slot's audio ends: at the next word start, or a period later.

        A free-timing slot may run long; a slow MIEZEKATZE (`syllables` = 4) may
        pause between its syllables, so its end is looked for after its last one.
        Where the next slot is a kiss or a squeak (`hit_follows`), a hit after a
        pause (`HIT_PAUSE_S`) also ends the slot: it is the next card's sound,
        not one more of this slot's squeaks. Returns None while that is not
        known yet.
        """
        period = self._tracker.period_s
        earliest = onset_s + (0.8 if free else 0.5) * period
        if syllables:
            # a /ts/ or /k/ of a slowly said word may sound as a hit: it is still one
            # of its syllables, and without it the next word's start is taken as one.
            # Its syllables lie within SLOW_WORD_S: a syllable later is the next
            # word's start, where the detector missed one of the word's own.
            span_s = max(SLOW_WORD_S, period)
            mine = sorted(s.time_s for s in [*self._syllables, *self.percussion]
                          if onset_s <= s.time_s < onset_s + span_s)[:syllables]
            if len(mine) == syllables:
                earliest = max(earliest, mine[-1] + 0.05)
        later = [w.time_s for w in self._word_starts if w.time_s >= earliest]
        if syllables:
            # voices out of step stretch a slow word differently: one voice's last
            # syllable, after a lull, is flagged as a word start while the others still
            # sound. The next word rises out of the pause after the slow one; a start
            # hardly louder than the sound just before it is still the slow word's tail.
            later = [t for t in later if self._rises_out_of_quiet(t)]
        if hit_follows:
            later = sorted([*later, *self._hits_after_pause(onset_s, earliest)])
        limit = onset_s + (3.0 if free else 1.0) * period
        if later and later[0] <= limit:
            return later[0]
        if self.time_s - self.detector.latency_s >= limit or final:
            return min(limit, self.time_s)
        return None

    def _rises_out_of_quiet(self, onset_s: float) -> bool:
        """Whether the sound starting at `onset_s` rises `WORD_RISE_DB` over the sound before it."""
        return self._onset_level_db(onset_s) >= self._level_before_db(onset_s) + WORD_RISE_DB

    def _hit_follows(self, slot: Slot) -> bool:
        """Whether the slot after `slot` is a kiss or a squeak."""
        i = self.slots.index(slot) + 1
        return i < len(self.slots) and _is_hit(self.slots[i].expected)

    def _anchor_is_hit(self, slot: Slot) -> bool:
        """Whether the slot that anchors the grid after free-timing `slot` is a kiss or a squeak.

        Silent slots pass without anchoring (`_close_reanchor`): the first slot after them
        anchors, so its squeak ends the free card, however many silent beats lie between.
        """
        for later in self.slots[self.slots.index(slot) + 1:]:
            if later.expected.sound is not Sound.SILENCE:
                return _is_hit(later.expected)
        return False

    def _hits_after_pause(self, onset_s: float, earliest_s: float) -> list[float]:
        """Percussive hits from `earliest_s` on that follow a pause of `HIT_PAUSE_S`."""
        times = [p.time_s for p in self.percussion if p.time_s > onset_s]
        return [t for prev, t in zip([onset_s, *times], times)
                if t >= earliest_s and t - prev >= HIT_PAUSE_S]

    # ------------------------------------------------------------------ judging

    def _syllables_between(self, start_s: float, end_s: float) -> tuple[float, ...]:
        return tuple(s.time_s for s in self._syllables if start_s <= s.time_s < end_s)

    def _judge_silence(self, slot: Slot, expected_s: float, final: bool) -> SlotVerdict:
        """Silence is due: a word that starts near the beat is a mistake.

        Word starts count within +-`SILENCE_SEARCH_FRACTION` T, past the syllables
        of the word before (a group's voices do not end together: its tail is no
        new sound). A word said right after the one before, without a gap, shows
        no word start: right after a heard word, a syllable onset past it stands in
        for it, as in a voiced slot (at a 0.9 s beat a MIEZEKATZE in a silence went
        unheard). Elsewhere a lone syllable is the room's (heard in challenge 2's
        silent solos, babble moved the room's floor: a later table knock was BAM).
        """
        period = self._tracker.period_s
        reach = SILENCE_SEARCH_FRACTION * period
        right_after_word = self._last_heard_s >= max(0.0, expected_s - RIGHT_AFTER_PERIODS
                                                     * period)  # (-1: none heard yet)
        starts = self._word_starts_between(expected_s - reach, expected_s + reach,
                                           syllable_fallback=right_after_word)
        onset = starts[0] if starts else None
        if onset is None:
            return SlotVerdict(slot, expected_s, None, HeardSlot("SILENCE", True), verdict="ok")
        end = self._word_end(onset, final) or onset + 0.5 * period
        samples = self._samples(onset - LEAD_IN_S, end)
        syllables = self._syllables_between(onset, end)
        heard = self.recognizer.recognize_slot(samples, slot.expected, slot, syllables)
        if heard.accepted or heard.label in SILENCE_LABELS:
            return SlotVerdict(slot, expected_s, None, heard, syllables, verdict="ok")
        return SlotVerdict(slot, expected_s, onset, heard, syllables, verdict="mistake",
                           mistake=MistakeKind.UNEXPECTED_SOUND,
                           message=f"silence was due, {_heard_text(heard.label)} was heard")

    def _judge_voiced(self, slot: Slot, expected_s: float | None, onset: float | None,
                      end_s: float, timed: bool) -> SlotVerdict:
        due = _due_text(slot.expected)
        start_heard = onset is not None
        if onset is None:
            samples = self._samples(expected_s - 0.25 * self._tracker.period_s, end_s)
            heard = self.recognizer.recognize_slot(samples, slot.expected, slot, ())
            if not heard.accepted or heard.label in SILENCE_LABELS:
                return SlotVerdict(slot, expected_s, None, heard, verdict="mistake",
                                   mistake=MistakeKind.MISSING,
                                   message=f"{due} was due, nothing was heard")
            late_s = self._late_word_start_s(expected_s, end_s) if timed else None
            if late_s is None:
                onset = expected_s  # heard, but without a clear start: judge its content
                timed = False
            else:
                # heard, and it starts past the search window: off the beat by the
                # rulings (more than T/2 late), not a word on time without a start
                onset = late_s
        samples = self._samples(onset - LEAD_IN_S, end_s)
        syllables = self._syllables_between(onset, end_s)
        heard = self.recognizer.recognize_slot(samples, slot.expected, slot, syllables)
        if self._is_fading_tail(onset, heard, slot.expected):
            return SlotVerdict(slot, expected_s, None, heard, verdict="mistake",
                               mistake=MistakeKind.MISSING,
                               message=f"{due} was due, nothing was heard")
        offset_ms = (onset - expected_s) * 1000.0 if (timed and expected_s is not None) else None
        base = SlotVerdict(slot, expected_s, onset, heard, syllables, offset_ms)
        if heard.accepted and heard.level_db is not None and _plain(slot.expected):
            self._normal_levels_db.append(heard.level_db)
        if heard.accepted and slot.expected.voiced and start_heard:
            # (quiet and loud words too: the median of the last few stays the group's,
            # and under challenge 1 every word is whispered)
            self._word_start_levels_db.append(self._onset_level_db(onset))
        if not heard.accepted:
            kind = _content_mistake(slot.expected, heard.label)
            return replace(base, verdict="mistake", mistake=kind,
                           message=f"{due} was due, {_heard_text(heard.label)} was heard")
        if offset_ms is not None and abs(offset_ms) > 1000 * self.tolerances.off_beat_s(
                self._tracker.period_s):
            side = "late" if offset_ms > 0 else "early"
            return replace(base, verdict="mistake", mistake=MistakeKind.OFF_BEAT,
                           message=f"{due} came {abs(offset_ms):.0f} ms {side}")
        self.recognizer.learn_slot(samples, slot.expected, slot)
        return base

    def _late_word_start_s(self, expected_s: float, end_s: float) -> float | None:
        """Where a word heard in the slot starts past its search window [s], or None.

        The first word start (else syllable) from `expected_s` + T/2 to before `end_s`.
        """
        after_s = expected_s + SEARCH_FRACTION * self._tracker.period_s
        late = [o.time_s for o in self._word_onsets_between(after_s, end_s) if o.time_s < end_s]
        return late[0] if late else None

    def _is_fading_tail(self, onset_s: float, heard: HeardSlot, expected: Expected) -> bool:
        """True when the syllable at `onset_s` is the fading tail of the word before.

        Such a syllable starts no word and is much softer than the group's normal words (the
        voices of a group do not end together); it is not a word of this slot.
        """
        if any(w.time_s == onset_s for w in self._word_starts) or heard.level_db is None:
            return False
        if not self._normal_levels_db or expected.modifier is not None:
            return False
        normal_db = float(np.median(self._normal_levels_db))
        return heard.level_db < normal_db - FADING_TAIL_DB

    # ------------------------------------------------------------------ settling

    def _settle(self, verdict: SlotVerdict) -> list[SlotVerdict]:
        """Record a verdict; hold an off-beat one until the next heard word tells what it was.

        The next word tells whether one word was off or the whole tempo moved.
        """
        slot = verdict.slot
        out: list[SlotVerdict] = []
        if self._pending is not None:
            # only the next voiced word decides what the off-beat word was
            if slot.expected.voiced or slot.role is Role.FINAL:
                heard = verdict.heard_onset_s
                out.extend(self._resolve_pending(
                    next_onset=(slot.beat, heard) if heard is not None else None))
            return out
        if verdict.mistake is MistakeKind.OFF_BEAT and not slot.expected.free_timing:
            # after a free-timing slot the next word comes when it comes: nothing to wait for
            self._pending = _Pending(verdict, slot.beat, verdict.heard_onset_s)
            self._remember_heard(verdict)
            return out
        self.verdicts.append(verdict)
        out.append(verdict)
        self._remember_heard(verdict)
        if verdict.mistake is not None:
            self.mistake = verdict
            return out
        if slot.expected.free_timing:
            self._reanchor_pending = True
            start = verdict.heard_onset_s if verdict.heard_onset_s is not None \
                else verdict.expected_onset_s
            if start is None:
                pass  # a silent free slot while the grid is lost: keep looking from before
            elif slot.expected.voiced or slot.expected.sound is Sound.NONVERBAL:
                self._after_free_from_s = self._word_end(
                    start, final=True, free=True, syllables=_free_syllables(slot.expected),
                    hit_follows=self._anchor_is_hit(slot)) - 0.01
            else:
                self._after_free_from_s = start + 0.5 * self._tracker.period_s
        elif verdict.heard_onset_s is not None and verdict.offset_ms is not None:
            self._tracker.observe(slot.beat, verdict.heard_onset_s)
            drift = self._tracker.drift
            if abs(drift) > self.tolerances.drift_limit:
                drifted = replace(verdict, verdict="mistake", mistake=MistakeKind.TEMPO_DRIFT,
                                  message=_drift_message(drift))
                self.verdicts[-1] = drifted
                out[-1] = drifted
                self.mistake = drifted
        return out

    def _remember_heard(self, verdict: SlotVerdict) -> None:
        if verdict.heard_onset_s is not None:
            self._last_heard_s = verdict.heard_onset_s
            self._last_heard_syllables = expected_syllables(verdict.slot.expected)
            self._last_heard_span_s = _word_span_s(verdict.slot.expected,
                                                   self._tracker.period_s)

    def _resolve_pending(self, next_onset: tuple[int, float] | None) -> list[SlotVerdict]:
        if self._pending is None:
            return []
        pending, self._pending = self._pending, None
        verdict = pending.verdict
        if next_onset is not None:
            _, onset_s = next_onset
            tracker = self._tracker
            period = tracker.period_s
            # the next word may belong to a later beat (an unheard word in between)
            nearest_beat = round((onset_s - tracker.expected_s(0)) / period)
            back_on_grid = abs(onset_s - tracker.expected_s(nearest_beat)) <= \
                self.tolerances.off_beat_s(period)
            next_beat = pending.beat + max(1, round((onset_s - pending.onset_s) / period))
            # how fast the group goes now: the last words heard, the off one, the next
            local = tracker.local_period_s([(pending.beat, pending.onset_s), (next_beat, onset_s)])
            drift = local / tracker.solo_period_s - 1.0 if local else 0.0
            if not back_on_grid and abs(drift) > self.tolerances.drift_limit:
                verdict = replace(verdict, mistake=MistakeKind.TEMPO_DRIFT,
                                  message=_drift_message(drift))
        self.verdicts.append(verdict)
        self.mistake = verdict
        return [verdict]

    # ------------------------------------------------------------------ report

    def report(self) -> JudgeReport:
        """The judge report so far (complete once `finish` was called)."""
        judged = {v.slot.index: v for v in self.verdicts}
        slots = []
        tracker = self._tracker
        for slot in self.slots:
            if slot.index in judged:
                slots.append(judged[slot.index])
            else:
                expected = tracker.expected_s(slot.beat) if tracker and not self._reanchor_pending \
                    else None
                slots.append(SlotVerdict(slot, expected, None, None, verdict="not_judged"))
        if self.mistake is not None:
            result = "mistake"
        elif self._next >= len(self.slots):
            result = "completed"
        else:
            result = "incomplete"
        return JudgeReport(
            performance=self.performance,
            period_s=tracker.solo_period_s if tracker else None,
            final_period_s=tracker.period_s if tracker else None,
            slots=tuple(slots),
            mistake=self.mistake,
            result=result,
            percussion_s=tuple(p.time_s for p in self.percussion),
            duration_s=self.time_s,
            sample_rate=self.sr,
        )


# syllables of the longer words a card can ask for (every other word and name: one)
_SYLLABLES = {MIEZEKATZE: 4, "WINKEKATZE": 4, "WUIKKIWUIKKI": 4, "WAVING CAT": 3,
              "DING DONG": 2, "MIAU": 2}


def peak_level_db(samples: np.ndarray, frame_samples: int) -> float:
    """The power of the loudest whole frame of `samples` [dB re full scale].

    It is -120 dB when there is not one whole frame.
    """
    frames = frame_signal(np.asarray(samples, dtype=np.float64), frame_samples, frame_samples)
    if len(frames) == 0:
        return -120.0
    return float(10.0 * np.log10(np.max(np.mean(frames ** 2, axis=1)) + 1e-12))


def _first_of_series(hits_s: Sequence[float], hit_s: float) -> float:
    """The first hit of the series `hit_s` belongs to [s].

    Squeaks of one squeezing follow each other faster than `HIT_PAUSE_S`, and the card's sound
    starts at the first of them (the one nearest the beat may be the second or third).
    `hits_s` holds the hits that sound alike, sorted.
    """
    first = hit_s
    for t in reversed([h for h in hits_s if h < hit_s]):
        if first - t >= HIT_PAUSE_S:
            break
        first = t
    return first


def _is_hit(expected: Expected) -> bool:
    """A kiss or a squeak is due (09: the lead may squeak instead of the name)."""
    return expected.sound is Sound.NONVERBAL or bool(set(expected.labels) & HIT_LABELS)


def _word_span_s(expected: Expected, period_s: float) -> float:
    """How long after its onset a word's syllables may start [s].

    Within its beat, but a slow or free-timing word may take longer.
    """
    if expected.free_timing or expected.modifier is Modifier.SLOW:
        return float("inf")
    return WORD_SPAN_FRACTION * period_s


def expected_syllables(expected: Expected) -> int:
    """How many syllables the due word has (1 for short words, 0 for silence).

    Non-verbal sounds count 0 as well: the detector hears them as hits.
    """
    if expected.sound in (Sound.SILENCE, Sound.NONVERBAL):
        return 0
    return _SYLLABLES.get(expected.text or "", 1)


def _plain(expected: Expected) -> bool:
    """A word said the normal way (no quiet, loud, high, slow, whisper)."""
    return expected.voiced and expected.modifier is None


def _runs_long(expected: Expected) -> bool:
    """Whether a slot's own sound may run long (a free-timing card's slow word, squeaks).

    A called name (09, 13) is one word, and the free pause follows it: heard
    over up to three periods, a single voice's short name came with the next
    card's dice roll or the room, and sounded like neither.
    """
    return expected.free_timing and expected.sound is not Sound.WORD


def _free_syllables(expected: Expected) -> int:
    """Syllables that bound a free-timing MIEZEKATZE (slow-mo); 0 when not counted."""
    return 4 if expected.free_timing and expected.sound is Sound.MZKZ else 0


def _due_text(expected: Expected) -> str:
    if expected.sound is Sound.SILENCE:
        return "silence"
    text = " or ".join(expected.labels) or expected.sound.value
    if expected.modifier:
        return f"{text} ({expected.modifier.value})"
    return text


def _heard_text(label: str) -> str:
    if label in SILENCE_LABELS:
        return "nothing" if label == "SILENCE" else label.lower()
    if "/" in label:
        word, modifier = label.split("/", 1)
        return f"{word} ({modifier})"
    return label


def _content_mistake(expected: Expected, label: str) -> MistakeKind:
    """Which mistake a rejected label is: nothing, the wrong dynamics, or a wrong word."""
    if label in SILENCE_LABELS:
        return MistakeKind.MISSING
    word = label.split("/", 1)[0]
    # the right word, yet rejected: only how it was said can be wrong
    return MistakeKind.WRONG_DYNAMICS if word in expected.labels else MistakeKind.WRONG_WORD


def _drift_message(drift: float) -> str:
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


__all__ = ["Referee", "JudgeReport", "SlotVerdict", "HeardSlot", "MistakeKind", "Tolerances",
           "describe_slot"]
