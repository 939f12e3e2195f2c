"""The referee: judges each slot of a performance as it closes; the first mistake ends it.

It walks the performance's slots in time as audio arrives.

`Referee.feed(block)` takes mono float32 blocks at the pipeline rate from a file
or the microphone alike and returns the verdicts of the slots that closed;
`finish()` closes the stream and returns the judge report. Time is samples
consumed / rate. Nothing here does I/O: the onset detector and the slot
recognizer are passed in.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, Sequence

import numpy as np

from beattrainer.dsp.features import float_median
from beattrainer.dsp.tempo import TempoTracker
from beattrainer.events import Onset, OnsetKind
from beattrainer.judge.expected import (
    HIT_LABELS,
    WORD_SPAN_FRACTION,
    expected_syllables,
    free_syllables,
    is_hit,
    is_plain,
    last_syllable_follows_close,
    onset_syllables,
    runs_long,
    word_span_s,
)
from beattrainer.judge.hearing import LEAD_IN_S, MIN_SYLLABLE_GAP_S, Hearing
from beattrainer.judge.solos import SoloFinder
from beattrainer.judge.tolerances import Tolerances
from beattrainer.judge.verdicts import (
    SILENCE_LABELS,
    HeardSlot,
    JudgeReport,
    MistakeKind,
    SlotRecognizer,
    SlotVerdict,
    content_mistake,
    drift_message,
    due_text,
    heard_text,
)
from beattrainer.mzkz.model import Expected, Modifier, Performance, Role, Slot, Sound

SEARCH_FRACTION = 0.5        # a slot's word start is looked for within +-T/2
FADING_TAIL_DB = 12.0        # a wordless syllable this much under the normal words is a tail
SILENCE_SEARCH_FRACTION = 0.35  # a voice in a silent slot starts within +-0.35 T
RIGHT_AFTER_PERIODS = 1.5     # a word heard this many periods before a slot is right before it
NOISE_ONSET_DB = 20.0        # an onset this much under the loudest one near the beat is noise
WORD_RISE_DB = 3.0           # a word start rises this much over the sound before it
SLOW_NEXT_RISE_DB = 7.0      # the next word after a slow one rises this much over the sound
                             # before it; a slow word's own late syllable, said by voices out
                             # of step, does not: over 80 renders with a slow card, the next
                             # words rose 8.0-43 dB (pink at 10 dB the least), the late
                             # syllables flagged as word starts up to 6.3 dB
GLUED_WORD_RISE_DB = 12.0  # a syllable rising this much over the sound before it starts a
                          # word (of 3151 syllables inside words in 120 renders, 99% rose
                          # under 9.3 dB, 5 by 12 dB or more, all a word's second syllable;
                          # a word said 65 ms after the one before rose 19 dB)
HIT_PAUSE_S = 0.6  # [s] squeaks of one squeezing follow each other faster than this
SAME_HIT_DB = 4.0  # ... and lie this close in level [dB]
HIT_SLOT_S = 0.5  # a kiss's slot audio ends this long after its hit [s]
ATTACK_HIT_S = 0.3  # a hit this long before a word start may be its first syllable's attack
ATTACK_ABOVE_ROOM_DB = 6.0  # ... where the sound stays this far above the room's between them
WORD_MAX_GAP_S = 0.6  # a word's syllables follow each other closer than this [s] (a slow
                      # word excepted): a lone onset and a pause before the next is no
                      # start of a word of several syllables
LAST_SYLLABLE_GAP_S = 0.35  # a MIEZEKATZE's last syllable follows its third within this [s]
                           # (every clip of the library: 0.10-0.22 s; voices out of step
                           # and the detector's timing added): a syllable later is the
                           # next word's start, said early under the end of this one
LAST_SYLLABLE_GAP_RATIO = 1.25  # ... and closer than the longest gap before it (clips:
                                # at most 0.72 of it)
SLOW_WORD_S = 2.0  # a slow MIEZEKATZE's syllables start within this long [s] (or a
                   # period; the clip library's span 1.05-1.43 s)


@dataclass
class _Pending:
    """An off-beat word whose kind waits for the next heard word.

    One word off the grid is off the beat; the whole group on a new period is tempo drift.
    """

    verdict: SlotVerdict
    beat: int
    onset_s: float


@dataclass(frozen=True)
class _Held:
    """A slot whose quiet, loud or high was judged against other voices than its own.

    The group's first words are judged against the lead's solos: one voice against
    several, a woman's against men's. Its verdict, and every one after it, waits until
    its performers were heard saying a word normally, and is then told against their
    own voice (decision 81).
    """

    position: int          # in the referee's settled verdicts
    verdict: SlotVerdict   # as judged against the other voices


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
        self.hearing = Hearing(sr, detector.latency_s)
        self.solo_finder = SoloFinder(self.hearing, self.slots, recognizer,
                                       self.tolerances)
        self._tracker: TempoTracker | None = (
            TempoTracker.from_grid(*grid) if grid else None)
        self._grid_given = grid is not None
        self._solo_onsets_s: list[float] = []
        self._solo_audio_from_s: list[float] = []  # ... and where each one's audio starts
        self._solo_audio_to_s: list[float | None] = []  # ... and ends, where it was placed
        self._normal_levels_db: list[float] = []  # levels of plain words heard right
        self._word_start_levels_db: list[float] = []  # starts of words heard right [dB]
        self._last_heard_s = -1.0     # onset of the last word judged [s]
        self._last_heard_syllables = 0
        self._last_heard_span_s = float("inf")  # where its syllables may lie after its onset
        self._last_heard_closes_fast = False  # its last syllable follows the third closely
        self._next = 0                 # index into self.slots of the next slot to judge
        self._reanchor_pending = False
        self._after_free_from_s: float | None = None
        self._action_passed = False  # a silent slot with a stamp or clap passed while re-anchoring
        # a start after a free-timing card from which nothing was heard -> the next word start
        self._heard_nothing_until: dict[float, float] = {}
        self._action_checks: dict[float, bool] = {}
        self._pending: _Pending | None = None
        self._held: list[_Held] = []
        self._settled: list[SlotVerdict] = []  # every slot closed so far, some of them held
        self.verdicts: list[SlotVerdict] = []  # ... and those told (none after a held one)
        self.mistake: SlotVerdict | None = None
        self.finished = False

    # ------------------------------------------------------------------ stream

    @property
    def time_s(self) -> float:
        """Audio consumed so far [s]."""
        return self.hearing.time_s

    @property
    def slots_closed(self) -> int:
        """How many slots were closed so far (their verdicts told or held)."""
        return len(self._settled)

    @property
    def done(self) -> bool:
        """True once every slot is judged or a mistake has ended the performance."""
        return self.mistake is not None or self._next >= len(self.slots)

    def feed(self, block: np.ndarray) -> list[SlotVerdict]:
        """Consume one block; return the verdicts of slots that closed."""
        block = np.asarray(block, dtype=np.float32).reshape(-1)
        self.hearing.take_block(block)
        self.hearing.take_events(self.detector.feed(block))
        return self._advance(final=False)

    def finish(self) -> list[SlotVerdict]:
        """End of the stream: close what can be closed; the rest stays not judged."""
        self.hearing.take_events(self.detector.flush())
        out = self._advance(final=True)
        self.finished = True
        return out

    def run(self, blocks: Iterable[np.ndarray]) -> list[SlotVerdict]:
        """Feed every block, then finish; return all verdicts."""
        for block in blocks:
            self.feed(block)
        self.finish()
        return self.verdicts

    # ------------------------------------------------------------------ walking

    def _advance(self, final: bool) -> list[SlotVerdict]:
        if self._tracker is None and not self._find_solos(final):
            return []
        while not self.done:
            verdict = self._try_close(self.slots[self._next], final)
            if verdict is None:
                break
            self._settle(verdict)
            self._next += 1
            self._tell_held(final=False)
        if final:
            self._resolve_pending(next_onset=None)
        self._tell_held(final=final or self.done)
        return self._tell()

    def _tell(self) -> list[SlotVerdict]:
        """The settled verdicts not told yet, up to the first one held."""
        upto = self._held[0].position if self._held else len(self._settled)
        new = self._settled[len(self.verdicts):upto]
        self.verdicts.extend(new)
        return new

    def _tell_held(self, final: bool) -> None:
        """Judge the held slots against their performers' own voice once known (decision 81).

        At the end (`final`: the stream ended, a mistake ended the performance, or every
        slot closed) they are told as judged against the other voices where their own
        was never heard saying a word normally. The first held slot found wrong is the
        performance's first mistake: the verdicts after it are dropped.
        """
        while self._held:
            held = self._held[0]
            if self._settled[held.position].mistake is not None:
                self._held.pop(0)  # it failed for its timing (drift) while held
                continue
            heard = held.verdict.heard.judge_against_own_voice()
            if heard is None and not final:
                return
            self._held.pop(0)
            verdict = held.verdict if heard is None else self._content_verdict(held.verdict, heard)
            self._settled[held.position] = verdict
            if verdict.mistake is not None:
                del self._settled[held.position + 1:]
                self._held = []
                self._pending = None
                self.mistake = verdict

    def _holds(self, verdict: SlotVerdict) -> bool:
        """Whether `verdict` waits for its performers' own voice to be told (`_Held`).

        Only where its quiet, loud or high was all that could be wrong: right, or wrong
        in its dynamics alone and on the beat.
        """
        heard = verdict.heard
        if heard is None or heard.judge_against_own_voice is None:
            return False
        if verdict.mistake is None:
            return verdict.verdict == "ok"
        return verdict.mistake is MistakeKind.WRONG_DYNAMICS and not self._off_beat(verdict)

    def _off_beat(self, verdict: SlotVerdict) -> bool:
        return verdict.offset_ms is not None and \
            abs(verdict.offset_ms) > 1000 * self._off_beat_tolerance_s(verdict.slot.beat)

    def _find_solos(self, final: bool) -> bool:
        """Take the tempo from the lead's two solo words, once `SoloFinder` has found them."""
        solos = self.solo_finder.find(self.hearing.settled_s, final)
        if solos is None:
            return False
        self._tracker = solos.tracker
        self._solo_onsets_s = list(solos.onsets_s)
        self._solo_audio_from_s = list(solos.audio_from_s)
        self._solo_audio_to_s = list(solos.audio_to_s)
        self._last_heard_s = solos.onsets_s[1]
        self._last_heard_syllables = expected_syllables(self.slots[1].expected)
        self._last_heard_span_s = WORD_SPAN_FRACTION * self._tracker.period_s
        self._last_heard_closes_fast = last_syllable_follows_close(self.slots[1].expected)
        return True

    def _try_close(self, slot: Slot, final: bool) -> SlotVerdict | None:
        """Judge `slot` once the audio it needs has arrived (None: not yet)."""
        tracker = self._tracker
        period = tracker.period_s
        horizon = self.hearing.settled_s
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
            end_s = self._solo_audio_to_s[slot.index] or \
                self._word_end(onset, final, hit_follows=self._hit_follows(slot))
            if end_s is None:
                return None
            return self._judge_voiced(slot, expected_s, onset, end_s, timed=False,
                                      audio_from_s=self._solo_audio_from_s[slot.index])
        if self._pending is not None:
            return self._close_after_off_beat(slot, expected_s, horizon, final)
        search_end = expected_s + SEARCH_FRACTION * period
        if horizon < search_end and (not final or self.time_s < search_end):
            return None  # its audio has not (or never) fully arrived: not judged
        onset = self._word_start_near(expected_s, period, slot.expected)
        if onset is not None and slot.expected.voiced and not is_hit(slot.expected) \
                and not slot.expected.percussion:
            onset = self._percussive_attack_before(onset, expected_s - SEARCH_FRACTION * period)
        if is_hit(slot.expected):
            # a kiss or a squeak is as sharp as a clap: the detector reports it as
            # percussion, which is what this slot may sound like (09: the lead's
            # squeak in place of the others calling the lead's name)
            onset = self._sound_start_near(expected_s, period, onset,
                                           name_called=slot.expected.voiced)
        if slot.role is Role.FINAL:
            return SlotVerdict(slot, expected_s, onset, None, verdict="not_judged",
                               message="the final move is free")
        if slot.expected.sound is Sound.SILENCE:
            return self._judge_silence(slot, expected_s, final)
        end_s = self._word_end(onset if onset is not None else expected_s, final,
                               free=runs_long(slot.expected),
                               syllables=free_syllables(slot.expected),
                               hit_follows=self._hit_follows(slot))
        if end_s is None:
            return None
        if onset is not None:
            end_s = self._hit_slot_end_s(slot, onset, end_s)
        from_beat_end_s = None
        if onset is not None and onset - expected_s > self._off_beat_tolerance_s(slot.beat):
            # a start heard late may be a later syllable of the word said on time, its first
            # ones unheard: where the word is not heard from there, it is judged from its
            # beat (decision 69), in the slot that beat's word would have (known first, so
            # that a stream judges the slot once, as the whole file would)
            from_beat_end_s = self._word_end(expected_s, final, free=runs_long(slot.expected),
                                             syllables=free_syllables(slot.expected),
                                             hit_follows=self._hit_follows(slot))
            if from_beat_end_s is None:
                return None
        verdict = self._judge_voiced(slot, expected_s, onset, end_s, timed=True)
        if from_beat_end_s is not None and verdict.verdict == "mistake" and \
                verdict.mistake is not MistakeKind.OFF_BEAT:
            # (not heard from the late start: a word said late is heard from its start and
            # fails as off the beat; in babble at 10 dB a quiet MIEZEKATZE's start was found
            # at its third syllable, 567 ms late, and from there heard as silence, judge seed
            # 101, case 063)
            from_beat = self._judge_voiced(slot, expected_s, None, from_beat_end_s, timed=True)
            if from_beat.verdict == "ok":
                return from_beat
        return verdict

    def _hit_slot_end_s(self, slot: Slot, onset_s: float, end_s: float) -> float:
        """Where the audio of a slot whose card asks for a kiss or a squeak ends [s].

        A kiss is over in a moment: the rest of the period is the room's, and babble over
        a whole slow beat outweighed it (a growl lasts longer). A free-timing squeak's slot
        runs to the next word, seconds of the room's sound after the squeaks: it ends after
        the last squeak of its series (babble at 20 dB over 6.5 s after one squeak made it
        a KISS); a word heard there instead keeps its slot to the next word. Other slots
        end at `end_s`.
        """
        if not set(slot.expected.labels) & HIT_LABELS:
            return end_s
        if not slot.expected.free_timing:
            return min(end_s, onset_s + HIT_SLOT_S)
        if any(p.time_s == onset_s for p in self.hearing.percussion):
            hits_s = sorted(p.time_s for p in self.hearing.percussion)
            return min(end_s, _last_of_series(hits_s, onset_s) + HIT_SLOT_S)
        return end_s

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
        if is_hit(slot.expected):
            # a kiss or a squeak is heard as percussion (as in `_try_close`); no syllable
            # stands in for it: a late word's own tail is no hit
            hits_from_s = max(earliest, self._past_last_word_s())
            return self._hit_after_off_beat(slot, expected_s, sorted(
                [*later, *(p.time_s for p in self.hearing.percussion
                           if hits_from_s <= p.time_s <= latest)]), horizon, latest, final)
        if later and expected_syllables(slot.expected) >= 2 and \
                slot.expected.modifier is not Modifier.SLOW:
            # a babble burst alone is no start of the group's next word (as after a
            # free-timing card, `_close_reanchor`)
            later = self._past_lone_bursts(later, latest, horizon, final)
            if later is None:
                return None  # not heard out yet
        if not later:
            if horizon < latest and not final:
                return None  # syllables stand in for word starts only once all are in
            later = self._word_starts_between(earliest, latest)
        if not slot.expected.voiced:
            return SlotVerdict(slot, expected_s, later[0] if later else None, None)
        return SlotVerdict(slot, expected_s, later[0] if later else None, None,
                           verdict="not_judged")

    def _past_lone_bursts(self, starts_s: list[float], latest_s: float, horizon: float,
                          final: bool) -> list[float] | None:
        """The word starts from the first that is no lone burst (`_is_lone_onset`) up to `latest_s`.

        All of them where each is one (a word may be heard as its first syllable alone);
        None while that is not known yet. In babble at 10 dB a burst 1.08 s after a word
        said 483 ms early, alone until the group's next word on the old grid, was taken for
        that word: the group "rushed 17%" (judge seed 100, case 113; decision 70).
        """
        for k, start_s in enumerate(starts_s):
            heard_after = [e for e in [*self.hearing.syllables, *self.hearing.percussion]
                           if start_s < e.time_s <= horizon]
            if not heard_after and horizon < latest_s and not final:
                return None  # what follows it is not heard yet
            if not self._is_lone_onset(start_s, latest_s):
                return starts_s[k:]
        return starts_s

    def _hit_after_off_beat(self, slot: Slot, expected_s: float, sounds_s: list[float],
                            horizon: float, latest_s: float,
                            final: bool) -> SlotVerdict | None:
        """A kiss's or squeak's slot after an off-beat word: its first sound, once heard out.

        Its sound is due on its beat as a word's is, and tells the group's tempo as well
        (`_settle`).
        """
        if not sounds_s and horizon < latest_s and not final:
            return None
        return SlotVerdict(slot, expected_s, sounds_s[0] if sounds_s else None, None,
                           verdict="not_judged")

    def _close_reanchor(self, slot: Slot, final: bool, horizon: float) -> SlotVerdict | None:
        """The slot after a free-timing card starts where the group is heard again."""
        start = self._after_free_from_s or 0.0
        later = [w.time_s for w in self.hearing.word_starts if w.time_s > start]
        if slot.expected.sound is Sound.SILENCE:
            # a silent slot cannot anchor: it passes, the next heard slot anchors
            self._action_passed = self._action_passed or bool(slot.expected.percussion)
            return SlotVerdict(slot, None, None, None, verdict="ok")
        if is_hit(slot.expected):
            later = sorted([*later, *(p.time_s for p in self.hearing.percussion
                                      if p.time_s > start)])
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
        start_s = (words or later)[0]
        while True:
            while start_s in self._heard_nothing_until:
                start_s = self._heard_nothing_until[start_s]  # (decided at an earlier block)
            onset = start_s
            if slot.expected.voiced and not is_hit(slot.expected) and \
                    not slot.expected.percussion:
                onset = self._percussive_attack_before(onset, start)
            end_s = self._word_end(onset, final, free=runs_long(slot.expected),
                                   syllables=free_syllables(slot.expected),
                                   hit_follows=self._hit_follows(slot))
            if end_s is None:
                return None
            # (a kiss where the beat is found anew as well: 2.5 s of babble at 10 dB after
            # one made it silence, judge seed 102, case 218)
            end_s = self._hit_slot_end_s(slot, onset, end_s)
            verdict = self._judge_voiced(slot, None, onset, end_s, timed=False)
            if not (verdict.mistake is MistakeKind.MISSING and end_s in words):
                break
            # nothing was heard from that start up to the next word's: it was the room's
            # (pink noise at 10 dB, a burst 0.9 s before the group's word anchored there
            # and failed as "nothing was heard", judge seed 110, case 034); the group is
            # heard again from that next word
            self._heard_nothing_until[start_s] = end_s
            start_s = end_s
        self._tracker.reanchor(slot.beat, onset)
        self._reanchor_pending = False
        self._action_passed = False
        return verdict

    def _past_silent_actions(self, starts_s: list[float], slot: Slot,
                             final: bool) -> list[float]:
        """The word starts from the first one that is not a silent slot's stamp or clap.

        A stamp may sound to the detector like a word start; in a silent slot it would be
        judged as such a slot's sound (`_judge_silence`), but while the grid is found anew
        after a free-timing card the silent slot passes unheard and its stamp would anchor
        the next slot a beat early. A start the recognizer hears as no voice is skipped,
        and so is one it hears as a kiss or a squeak where that is not the slot's sound:
        to the recognizer a slap on the table may sound like a kiss (challenge 2 in babble
        at 20 dB: a squeak card that anchored there failed as "KISS was heard", judge seed
        99, case 160). Where the slot's own sound is a kiss or a squeak, a hit followed a
        beat later by another hit is the silent slot's action too (`_hit_a_beat_before_hit`).
        None is left while the audio after the last one is still coming.
        """
        horizon = self.hearing.settled_s
        reach_s = SEARCH_FRACTION * self._tracker.period_s
        hit_due = is_hit(slot.expected)
        for k, start_s in enumerate(starts_s):
            if hit_due and self._is_percussion(start_s):
                if horizon < start_s + self._tracker.period_s + reach_s and not final:
                    return []  # the hit a beat later may still come
                if self._hit_a_beat_before_hit(start_s):
                    continue
            if start_s not in self._action_checks:
                if horizon < start_s + reach_s and not final:
                    return []  # not heard out yet
                end_s = min([*starts_s[k + 1:k + 2], start_s + reach_s])
                heard = self.recognizer.probe_slot(self.hearing.samples(start_s - LEAD_IN_S, end_s),
                                                   slot.expected, slot)
                self._action_checks[start_s] = heard.label in SILENCE_LABELS or (
                    heard.label in HIT_LABELS and not heard.accepted)
            if not self._action_checks[start_s]:
                return starts_s[k:]
        return []

    def _is_percussion(self, time_s: float) -> bool:
        """Whether the detector heard a percussive hit (no word start) at `time_s` [s]."""
        return any(p.time_s == time_s for p in self.hearing.percussion)

    def _hit_a_beat_before_hit(self, hit_s: float) -> bool:
        """Whether another hit, alone (no word start near it), follows `hit_s` a beat later.

        Then `hit_s` is a silent slot's snap or clap and the later hit the kiss or squeak
        due after it: to the recognizer a snap sounds like a kiss, and a kiss card after a
        silent slot, where the beat is found anew, anchored at the snap a beat early
        (challenge 2 in babble at 30 dB, judge seed 105, case 169). A hit with a word start
        near it is an action said with a word, not the slot's hit.
        """
        period_s = self._tracker.period_s
        tolerance_s = self.tolerances.off_beat_s(period_s)
        return any(abs(p.time_s - hit_s - period_s) <= tolerance_s and not any(
                       abs(w.time_s - p.time_s) <= tolerance_s for w in self.hearing.word_starts)
                   for p in self.hearing.percussion)

    def _word_starts_between(self, start_s: float, end_s: float,
                             syllable_fallback: bool = True) -> list[float]:
        """Word starts in [start_s, end_s], past the word heard last [s]."""
        return [o.time_s for o in self._word_onsets_between(start_s, end_s, syllable_fallback)]

    def _past_last_word_s(self) -> float:
        """Where the word heard last is over: just after its own last syllable.

        It is over no later than the next word start the detector heard (after a gap).
        """
        last = self._last_heard_s
        next_start = next((w.time_s for w in self.hearing.word_starts
                           if w.time_s > last + MIN_SYLLABLE_GAP_S), float("inf"))
        n = self._last_heard_syllables
        if n == 0:  # a kiss, a squeak: a hit, not syllables
            return last + MIN_SYLLABLE_GAP_S
        # a word's own syllables lie within its beat: one a period on is the next
        # word's (a whisper may show fewer syllables than it has, and words said
        # without a gap between them show no word start)
        own = [s.time_s for s in self.hearing.syllables
               if last <= s.time_s < last + self._last_heard_span_s]
        if len(own) >= n:
            if n >= 2 and (self._rises_out_of_quiet(own[n - 1], GLUED_WORD_RISE_DB)
                           or self._comes_too_late_to_end(own[:n])):
                # the syllable that completes the count rises far out of quiet, or comes
                # too late to end a MIEZEKATZE: it is the next word's start, said right
                # after this one (a gap too short for the detector's word gap), and the
                # detector missed one of this word's syllables
                return min(own[n - 1], next_start)
            # (a whispered or mumbled word may show fewer syllables than it has)
            return min(own[n - 1] + MIN_SYLLABLE_GAP_S, next_start)
        # fewer syllables than the word has (the detector merged some): a word a
        # quarter period early starts 0.75 T after the last one
        return min(last + 0.5 * self._tracker.period_s, next_start)

    def _comes_too_late_to_end(self, own_s: list[float]) -> bool:
        """Whether the last of a MIEZEKATZE's counted syllables `own_s` is too late to be its own.

        Its ZE follows KAT closely (`LAST_SYLLABLE_GAP_S`); where the detector missed it
        (a whisper in noise), the next word said early under the end of this one took its
        place in the count, and its start passed as this word's last syllable (judge seed
        59: 318 ms early, 0.50 s after the third syllable).
        """
        if not self._last_heard_closes_fast or len(own_s) != 4:
            return False
        gaps_s = np.diff(own_s)
        return gaps_s[-1] > max(LAST_SYLLABLE_GAP_S, LAST_SYLLABLE_GAP_RATIO * max(gaps_s[:-1]))

    def _word_onsets_between(self, start_s: float, end_s: float,
                             syllable_fallback: bool = True) -> list[Onset]:
        """Word-start onsets in [start_s, end_s], past the word heard last.

        The last word's own syllables are skipped (a pause inside a word can look
        like a word start). Where words abut without a gap (a late word running
        into the next), syllable onsets stand in for word starts.
        """
        own = [s for s in self.hearing.syllables if s.time_s >= self._last_heard_s]
        start_s = max(start_s, self._past_last_word_s())
        starts = [w for w in self.hearing.word_starts if start_s <= w.time_s <= end_s]
        if starts or not syllable_fallback:
            return starts
        return [o for o in own if start_s <= o.time_s <= end_s]

    def _sound_start_near(self, expected_s: float, period_s: float, word_s: float | None,
                          name_called: bool = False) -> float | None:
        """The word start or percussive hit nearest to `expected_s` within +-T/2.

        With `name_called` (09: the others call the name while the lead squeaks), a squeak
        series that follows the word start, each sound closer than `HIT_PAUSE_S` to the one
        before, went with the name, whose start is the slot's: the series' first squeak sounds
        with the name and hides under it (an early name was judged by its third squeak, on
        the beat).
        """
        lo = max(expected_s - SEARCH_FRACTION * period_s, self._past_last_word_s())
        hits = [p.time_s for p in self.hearing.percussion
                if lo <= p.time_s <= expected_s + SEARCH_FRACTION * period_s]
        candidates = [*hits, *([word_s] if word_s is not None else [])]
        # nearest to the beat: a burst inside the word before is no kiss
        nearest = min(candidates, key=lambda t: abs(t - expected_s), default=None)
        if nearest is None or nearest == word_s:
            return nearest
        # one squeezing's squeaks sound alike; a burst inside the word before (its
        # TZE) is softer
        level_db = self.hearing.hit_level_db(nearest)
        alike = [t for t in hits if abs(self.hearing.hit_level_db(t) - level_db) <= SAME_HIT_DB]
        first = _first_of_series(sorted(alike), nearest)
        # (the name and the squeaks do not sound alike: every hit counts in its series)
        if name_called and word_s is not None and word_s < first and \
                _first_of_series([word_s, *(t for t in hits if word_s < t < first)], first) \
                == word_s:
            return word_s
        return first

    def _percussive_attack_before(self, onset_s: float, earliest_s: float) -> float:
        """The word's start where its first syllable's attack was heard as a hit.

        A hard vowel onset may sound percussive to the detector (en-andy's ANNA: its
        AN reported as a hit, the word start on NA 215 ms later, and the recognizer,
        given NA alone, heard nothing; judge seed 79, cases 019 and 160). A hit less
        than `ATTACK_HIT_S` before the word start, past the word before and not before
        `earliest_s`, at least as loud, after which the sound stays `ATTACK_ABOVE_ROOM_DB`
        over the room's level up to the word start, starts it (decision 40). Not for a
        card that asks for percussion: its hit may come right before its word.
        """
        lo = max(earliest_s, self._past_last_word_s(), onset_s - ATTACK_HIT_S)
        hits = [p.time_s for p in self.hearing.percussion if lo <= p.time_s < onset_s]
        if not hits:
            return onset_s
        hit_s = hits[0]
        if self.hearing.onset_level_db(hit_s) < self.hearing.onset_level_db(onset_s):
            return onset_s
        lowest_db = self.hearing.lowest_level_db(hit_s, onset_s)
        if lowest_db is None or \
                lowest_db < self.hearing.room_level_db(hit_s) + ATTACK_ABOVE_ROOM_DB:
            return onset_s  # (a pause between them: the hit is a sound of its own)
        return hit_s

    def _word_start_near(self, expected_s: float, period_s: float,
                         expected: Expected) -> float | None:
        """Where the slot's word starts: the first onset within +-T/2 loud, not alone, rising.

        The first, not the nearest: a slow or drawn-out word may pause inside and
        show a second "word start" closer to the beat. Loud: an onset more than
        `NOISE_ONSET_DB` under the loudest one from there to the window's end is
        noise before the word (babble filling the pause before a word hides its
        start, so the detector flags the noise as the word start and the word's
        first syllable as a syllable inside it). The audio decides, not the
        detector's strength, which measures the rise over its own floor. Alone: a
        babble burst may stand by itself, a pause longer than any inside a word
        (`WORD_MAX_GAP_S`) before the next word start in the window; a word does not
        start there where that next start lies nearer the beat (a burst 0.8 s before a
        MIEZEKATZE; the last syllable of the word before, flagged as a word start, stood
        alone 1 s before a SHH on the beat). The onset on the beat stays: four voices
        out of step may blur a word's inner syllables, and one voice's late syllable,
        flagged as a word start 0.9 s later, was heard as the word (--seed 56). A slow or
        free word may pause that long inside. Rising: an onset softer than the sound just
        before it is the word before's, fading (unless no onset rises).
        """
        lo = expected_s - SEARCH_FRACTION * period_s
        hi = expected_s + SEARCH_FRACTION * period_s
        near = self._word_onsets_between(lo, hi)
        if not near:
            return None
        # the syllables from the first start on: where the detector merged a word into
        # the noise before it, only its syllables show where it begins
        onsets = [s.time_s for s in self.hearing.syllables if near[0].time_s <= s.time_s <= hi]
        onsets = [t for t in onsets if not self._ends_word_before(t, period_s)] or onsets
        if expected.modifier is not Modifier.SLOW and not expected.free_timing:
            onsets = [t for t in onsets if not self._is_lone_onset(t, hi, expected_s)] or onsets
        # a word starts where the sound grows louder, not where the word before fades: an
        # onset in its tail where the word follows without a gap, or one voice's late
        # syllable the detector took for a word start, 0.5 s before the group's next word
        # (none of 1370 word starts in 120 renders of every noise, judge --seed 38, was
        # softer than the sound before it)
        rising = [t for t in onsets
                  if self.hearing.onset_level_db(t) > self.hearing.level_before_db(t)]
        if not rising and not any(o.starts_word for o in near):
            # syllables stood in for the missing word start and none rises: they are the
            # word before's, and the slot's word, glued onto it, shows no start of its own
            # (judged by what is heard, `_judge_voiced`); the first of them was taken for a
            # start 230-680 ms early (--seeds 52, 53)
            return None
        onsets = rising or onsets
        levels_db = [self.hearing.onset_level_db(t) for t in onsets]
        loudest_db = max(levels_db)
        first_s = next(t for t, level_db in zip(onsets, levels_db)
                       if level_db >= loudest_db - NOISE_ONSET_DB)
        first_s = self._word_after_sound_before(first_s, expected_s, hi)
        return self._first_syllable_before(first_s, expected_s, lo, expected)

    def _ends_word_before(self, onset_s: float, period_s: float) -> bool:
        """Whether the onset is a syllable still due of the word heard just before.

        The word before was heard with fewer syllables than it has up to `onset_s`, which
        lies within that word's span and does not rise out of quiet (`GLUED_WORD_RISE_DB`):
        a pause inside the word made the detector flag its next syllable as a word start.
        MIAU's AU, 0.53 s after its MI, was taken for the next MIEZEKATZE's start, 452 ms
        early, and that word, glued onto the AU, heard as AAAH (judge seed 97, clean).
        """
        before = self._settled[-1] if self._settled else None
        if before is None or before.heard_onset_s is None:
            return False
        expected = before.slot.expected
        if expected.modifier is Modifier.SLOW or expected.free_timing:
            return False
        start_s = before.heard_onset_s
        return onset_s - start_s <= word_span_s(expected, period_s) and \
            len(self.hearing.syllables_between(start_s, onset_s)) < expected_syllables(expected) \
            and not self._rises_out_of_quiet(onset_s, GLUED_WORD_RISE_DB)

    def _first_syllable_before(self, start_s: float, expected_s: float, lo_s: float,
                               expected: Expected) -> float:
        """The word's first syllable, where the detector flagged its start a syllable late [s].

        A quiet word right after the word before shows no gap there, and its first
        syllables lie below the detector's silence level, so it counted them as a gap
        and flagged a later syllable as the word's start (a quiet MIEZEKATZE on the
        beat, flagged at its second syllable: 255 ms late, judge --seed 82). Where the
        start at `start_s` would fail the word as late, a syllable before it starts the
        word: one no earlier than the tolerance before the beat, past the word before,
        rising out of the sound before it, not the room's, no more than `WORD_MAX_GAP_S`
        before `start_s`, and from which the word's syllables count no more than it has
        (more, and it is the word before's tail before a word that really came late).
        """
        tolerance_s = self.tolerances.off_beat_s(self._tracker.period_s)
        n_syllables = expected_syllables(expected)
        if start_s - expected_s <= tolerance_s or n_syllables < 2 or \
                expected.modifier is Modifier.SLOW or expected.free_timing:
            return start_s
        earliest_s = max(lo_s, expected_s - tolerance_s, self._past_last_word_s())
        span_s = WORD_SPAN_FRACTION * self._tracker.period_s
        for syllable in self.hearing.syllables:
            t = syllable.time_s
            if t < earliest_s or start_s - t > WORD_MAX_GAP_S:
                continue
            if t >= start_s:
                break
            if self.hearing.onset_level_db(t) > self.hearing.level_before_db(t) and \
                    not self._is_room_noise(t) and \
                    len(self.hearing.syllables_between(t, t + span_s)) <= n_syllables:
                return t
        return start_s

    def _word_after_sound_before(self, onset_s: float, expected_s: float, end_s: float) -> float:
        """The word's start where the sound at `onset_s` only came before it [s].

        The next sound after `onset_s`, before `end_s`, starts the word instead where it
        lies nearer the beat, rises `GLUED_WORD_RISE_DB` out of the quiet before it and is
        `WORD_RISE_DB` louder than the sound at `onset_s`: that sound ended before the word
        began (a babble burst flagged as a word start 0.37-0.39 s before the loud word, or
        the word before's last syllable 0.39 s before a whisper, the word's start 16-17 dB
        out of the quiet: 359-446 ms early, judge --seeds 82, 83). A word's own second
        syllable rarely rises so far out of quiet (`GLUED_WORD_RISE_DB`), and then seldom
        louder than the first.
        """
        # (the first sound after it: one pass, not a sort of the whole stream per slot)
        after = min((e for e in [*self.hearing.syllables, *self.hearing.percussion]
                     if onset_s < e.time_s <= end_s), key=lambda e: e.time_s, default=None)
        if after is None or after.kind is OnsetKind.PERCUSSION:
            return onset_s
        after_s = after.time_s
        if abs(after_s - expected_s) < abs(onset_s - expected_s) and \
                self._rises_out_of_quiet(after_s, GLUED_WORD_RISE_DB) and \
                self.hearing.onset_level_db(after_s) >= \
                self.hearing.onset_level_db(onset_s) + WORD_RISE_DB:
            return after_s
        return onset_s

    def _is_lone_onset(self, onset_s: float, end_s: float,
                       beat_s: float | None = None) -> bool:
        """True when the next sound after `onset_s` is a word start after a pause, before `end_s`.

        The pause is longer than `WORD_MAX_GAP_S`. A lone syllable after the pause says nothing:
        the detector may hear a word in noise as its first syllable alone. With `beat_s`, only
        when that word start lies nearer the beat, and the next word start counts even where
        syllables without a start of their own come first: the pause is then the one before
        that word start (decision 49).
        """
        later = sorted((e for e in [*self.hearing.syllables, *self.hearing.percussion]
                        if onset_s < e.time_s <= end_s), key=lambda e: e.time_s)
        if beat_s is not None:
            # a burst of a few syllables stands alone too: the tail of a slow voice's word
            # and a babble syllable after it, 0.6 s before a WOW on the beat (judge seed 89)
            k = next((i for i, e in enumerate(later) if e.starts_word), None)
            if k is None:
                return False
            before_s = later[k - 1].time_s if k > 0 else onset_s
            after = later[k]
            nearer = abs(after.time_s - beat_s) < abs(onset_s - beat_s)
            return after.time_s - before_s > WORD_MAX_GAP_S and nearer
        if not later:
            return False
        after = later[0]
        return after.starts_word and after.time_s - onset_s > WORD_MAX_GAP_S

    def _is_room_noise(self, onset_s: float) -> bool:
        """A word start far under the group's plain words (`NOISE_ONSET_DB`) is the room's.

        After a free-timing card the group is heard again at its own level, not at babble's.
        """
        if not self._word_start_levels_db or \
                any(abs(p.time_s - onset_s) < MIN_SYLLABLE_GAP_S for p in self.hearing.percussion):
            return False  # (a kiss or a squeak may be soft; it is a hit, not a word)
        normal_db = float_median(self._word_start_levels_db[-8:])
        return self.hearing.onset_level_db(onset_s) < normal_db - NOISE_ONSET_DB

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
            mine = sorted(s.time_s for s in [*self.hearing.syllables, *self.hearing.percussion]
                          if onset_s <= s.time_s < onset_s + span_s)[:syllables]
            if len(mine) == syllables:
                earliest = max(earliest, mine[-1] + 0.05)
        later = [w.time_s for w in self.hearing.word_starts if w.time_s >= earliest]
        if syllables:
            # voices out of step stretch a slow word differently: one voice's last
            # syllable, after a lull, is flagged as a word start while the others still
            # sound. The next word rises out of the pause after the slow one; a start
            # a little louder than the sound just before it is still the slow word's tail
            # (two voices: the second one's ZE, 6.1 dB over the lull, re-anchored the grid
            # 1.27 s early, judge seed 97)
            later = [t for t in later if self._rises_out_of_quiet(t, SLOW_NEXT_RISE_DB)]
        if hit_follows:
            later = sorted([*later, *self._hits_after_pause(onset_s, earliest)])
        limit = onset_s + (3.0 if free else 1.0) * period
        if later and later[0] <= limit:
            return later[0]
        if self.hearing.settled_s >= limit or final:
            return min(limit, self.time_s)
        return None

    def _rises_out_of_quiet(self, onset_s: float, rise_db: float = WORD_RISE_DB) -> bool:
        """Whether the sound starting at `onset_s` rises `rise_db` over the sound before it."""
        return self.hearing.rises_over_before(onset_s, rise_db)

    def _hit_follows(self, slot: Slot) -> bool:
        """Whether the slot after `slot` is a kiss or a squeak."""
        i = self.slots.index(slot) + 1
        return i < len(self.slots) and is_hit(self.slots[i].expected)

    def _anchor_is_hit(self, slot: Slot) -> bool:
        """Whether the slot that anchors the grid after free-timing `slot` is a kiss or a squeak.

        Silent slots pass without anchoring (`_close_reanchor`): the first slot after them
        anchors, so its squeak ends the free card, however many silent beats lie between.
        """
        for later in self.slots[self.slots.index(slot) + 1:]:
            if later.expected.sound is not Sound.SILENCE:
                return is_hit(later.expected)
        return False

    def _hits_after_pause(self, onset_s: float, earliest_s: float) -> list[float]:
        """Percussive hits from `earliest_s` on that follow a pause of `HIT_PAUSE_S`."""
        times = [p.time_s for p in self.hearing.percussion if p.time_s > onset_s]
        return [t for prev, t in zip([onset_s, *times], times)
                if t >= earliest_s and t - prev >= HIT_PAUSE_S]

    # ------------------------------------------------------------------ judging

    def _judge_silence(self, slot: Slot, expected_s: float, final: bool) -> SlotVerdict | None:
        """Silence is due: a word that starts near the beat is a mistake.

        Word starts count within +-`SILENCE_SEARCH_FRACTION` T, past the syllables
        of the word before (a group's voices do not end together: its tail is no
        new sound). A word said right after the one before, without a gap, shows
        no word start: right after a heard word, a syllable onset past it stands in
        for it, as in a voiced slot (at a 0.9 s beat a MIEZEKATZE in a silence went
        unheard). Elsewhere a lone syllable is the room's (heard in challenge 2's
        silent solos, babble moved the room's floor: a later table knock was BAM).
        A sound heard there is recognised over the whole word, to the next word start or a
        period on: None until that audio has arrived.
        """
        period = self._tracker.period_s
        reach = SILENCE_SEARCH_FRACTION * period
        right_after_word = self._last_heard_s >= max(0.0, expected_s - RIGHT_AFTER_PERIODS
                                                     * period)  # (-1: none heard yet)
        starts = self._word_starts_between(expected_s - reach, expected_s + reach,
                                           syllable_fallback=False)
        if not starts and right_after_word:
            # a syllable standing in for a word start rises out of the word before it; one
            # no louder is that word's tail (a whisper's fifth onset). Over 600 renders the
            # syllables heard so in clean silent slots rose -8.3 to -0.6 dB over the sound
            # before them, 3 of 4 words said into the silence 4.6 to 7.6 dB.
            starts = [t for t in self._word_starts_between(expected_s - reach, expected_s + reach)
                      if self._rises_out_of_quiet(t)]
        onset = starts[0] if starts else None
        if onset is None:
            return SlotVerdict(slot, expected_s, None, HeardSlot("SILENCE", True), verdict="ok")
        end = self._word_end(onset, final)
        if end is None:
            # the word's audio is not all in: the slot closed half a period after its
            # beat, and a MIEZEKATZE said there at a 0.9-1.0 s beat was heard by its first
            # two syllables, as silence or as the card's WAVING CAT (decision 52)
            return None
        samples = self.hearing.samples(onset - LEAD_IN_S, end)
        syllables = self.hearing.syllables_between(onset, end)
        heard = self.recognizer.recognize_slot(samples, slot.expected, slot, syllables)
        if heard.accepted or heard.label in SILENCE_LABELS:
            return SlotVerdict(slot, expected_s, None, heard, syllables, verdict="ok")
        return SlotVerdict(slot, expected_s, onset, heard, syllables, verdict="mistake",
                           mistake=MistakeKind.UNEXPECTED_SOUND,
                           message=f"silence was due, {heard_text(heard.label)} was heard")

    def _judge_voiced(self, slot: Slot, expected_s: float | None, onset: float | None,
                      end_s: float, timed: bool, audio_from_s: float | None = None
                      ) -> SlotVerdict:
        due = due_text(slot.expected)
        start_heard = onset is not None
        from_beat = False  # heard from its beat, its start unheard
        late_s = None
        if onset is None:
            before_beat_s = 0.25 * self._tracker.period_s
            samples = self.hearing.samples(expected_s - before_beat_s, end_s)
            # (where the word is due in that audio: a quiet word is heard by its rise over
            # the room from there, decision 78)
            heard = self.recognizer.recognize_slot(samples, slot.expected, slot, (),
                                                   due_from_s=before_beat_s)
            if not heard.accepted or heard.label in SILENCE_LABELS:
                return SlotVerdict(slot, expected_s, None, heard, verdict="mistake",
                                   mistake=MistakeKind.MISSING,
                                   message=f"{due} was due, nothing was heard")
            # (an early start glued onto the word before comes first: a slow MIEZEKATZE said
            # 276 ms early right after the word before showed a word start only at its third
            # syllable, after a pause inside it, 1 s late, and passed on its content)
            glued_s = self._glued_word_start_s(slot.expected, expected_s, slot.beat, end_s) \
                if timed else None
            late_s = self._late_word_start_s(expected_s, end_s, hit=is_hit(slot.expected)) \
                if timed and glued_s is None else None
            if glued_s is not None:
                onset = glued_s  # run into the word before, early: timed by its first syllable
            elif late_s is None:
                onset = expected_s  # heard, but without a clear start: judge its content
                timed, from_beat = False, True
            else:
                # heard, and it starts past the search window: off the beat by the
                # rulings (more than T/2 late), not a word on time without a start
                onset = late_s
        samples, syllables, heard = self._hear_from(slot, onset, end_s, audio_from_s,
                                                    from_beat=from_beat)
        if late_s is not None and not heard.accepted:
            # the word was heard from its beat, but not from the late start: that start is
            # a later syllable of the word said on time, its start unheard (a quiet
            # MIEZEKATZE in pink noise at 10 dB, heard from its last ZE 540 ms late as
            # silence, judge seed 102, case 202): judged by its content (decision 73)
            onset, timed = expected_s, False
            samples, syllables, heard = self._hear_from(slot, onset, end_s, audio_from_s,
                                                        from_beat=True)
        if slot.role is Role.SOLO and not heard.accepted and heard.label not in SILENCE_LABELS:
            heard = self._solo_as_found(samples, slot, heard)
        if self._is_fading_tail(onset, heard, slot.expected):
            return SlotVerdict(slot, expected_s, None, heard, verdict="mistake",
                               mistake=MistakeKind.MISSING,
                               message=f"{due} was due, nothing was heard")
        offset_ms = (onset - expected_s) * 1000.0 if (timed and expected_s is not None) else None
        base = SlotVerdict(slot, expected_s, onset, heard, syllables, offset_ms)
        if heard.accepted and heard.level_db is not None and is_plain(slot.expected):
            self._normal_levels_db.append(heard.level_db)
        if heard.accepted and slot.expected.voiced and start_heard:
            # (quiet and loud words too: the median of the last few stays the group's,
            # and under challenge 1 every word is whispered)
            self._word_start_levels_db.append(self.hearing.onset_level_db(onset))
        if not heard.accepted:
            return self._content_verdict(base, heard)
        if self._off_beat(base):
            side = "late" if offset_ms > 0 else "early"
            return replace(base, verdict="mistake", mistake=MistakeKind.OFF_BEAT,
                           message=f"{due} came {abs(offset_ms):.0f} ms {side}")
        self.recognizer.learn_slot(samples, slot.expected, slot)
        return base

    @staticmethod
    def _content_verdict(verdict: SlotVerdict, heard: HeardSlot) -> SlotVerdict:
        """`verdict` (on the beat) with what was `heard` in its slot."""
        if heard.accepted:
            return replace(verdict, heard=heard, verdict="ok", mistake=None, message="")
        expected = verdict.slot.expected
        return replace(verdict, heard=heard, verdict="mistake",
                       mistake=content_mistake(expected, heard.label),
                       message=f"{due_text(expected)} was due, {heard_text(heard.label)} was heard")

    def _hear_from(self, slot: Slot, onset_s: float, end_s: float,
                   audio_from_s: float | None,
                   from_beat: bool = False) -> tuple[np.ndarray, tuple, HeardSlot]:
        """What the recognizer hears from `onset_s` to `end_s`: (samples, syllables, heard).

        The audio starts a little before the onset (`LEAD_IN_S`) or at `audio_from_s`.
        `from_beat`: `onset_s` is the word's beat, its start unheard (the recognizer then
        hears a quiet word by its rise over the room from there, decision 78).
        """
        from_s = onset_s - LEAD_IN_S if audio_from_s is None else audio_from_s
        samples = self.hearing.samples(from_s, end_s)
        syllables = self.hearing.syllables_between(onset_s, end_s)
        return samples, syllables, self.recognizer.recognize_slot(
            samples, slot.expected, slot, syllables,
            due_from_s=onset_s - from_s if from_beat else None)

    def _solo_as_found(self, samples: np.ndarray, slot: Slot, heard: HeardSlot) -> HeardSlot:
        """A solo heard as another word, where the solo finder's hearing of it stands.

        The finder takes a solo only where the recognizer, without the speech backend,
        hears the solo's word (`SoloFinder._is_solo_word`). Where the speech backend alone
        names another word over the same audio, the solo's word stands: the lead alone in
        noise at 10 dB (pink, babble) was WUIKKIWUIKKI to it, a word no card in play asked
        for, and the performance failed at solo 1 (judge seed 99, cases 132 and 205).
        """
        found = self.recognizer.probe_slot(samples, slot.expected, slot)
        return found if found.accepted else heard

    def _off_beat_tolerance_s(self, beat: int) -> float:
        """How far the word of `beat` may lie from its expected time [s].

        The rulings' tolerance from a settled grid, plus what the grid itself is less sure
        of while it rests on fewer words than a full fit (`TempoTracker.early_error_s`):
        the solos are heard with the jitter of every word, and the group's first word, two
        beats on, was judged 136 ms early where babble had solo 2 heard 77 ms late (judge
        seed 86, case 231; the word lay 3 ms from the group's own beat).
        """
        return self.tolerances.off_beat_s(self._tracker.period_s) + \
            self._tracker.early_error_s(beat)

    def _glued_word_start_s(self, expected: Expected, expected_s: float, beat: int,
                            end_s: float) -> float | None:
        """Where a word heard without a word start begins, when that is early [s], or None.

        A word said early right after the one before runs into it: the detector hears no
        start, only its first syllable past the word before's own (`_word_onsets_between`),
        and the word passed on its content alone (WUIKKIWUIKKI and MIAU 320 ms early,
        right after a MIEZEKATZE). A syllable heard from T/2 before the beat to the
        off-beat tolerance before it times the word (decision 34) where the syllables from
        it to the slot's end fit the word (a growl or a hiss sounds as one syllable: a growl
        286 ms early passed as on time, decision 68): no more than it has (more, and the
        first is the word before's tail, one voice's last syllable out of step: an AAAH said
        on time after it, heard as a syllable of its own), and at least half of them (fewer, and
        the detector did not hear the word: a quiet MIEZEKATZE in babble showed no onset,
        and the syllable before it was the word before's). A syllable far under the
        group's words is the room's (`_is_room_noise`). Nearer the beat the word is still
        judged by its content: such a syllable may be the word before's tail, or the
        word's own second one (a late word's start follows a gap: it is heard).
        """
        period = self._tracker.period_s
        tolerance_s = self._off_beat_tolerance_s(beat)
        n_syllables = onset_syllables(expected)
        if n_syllables == 0:
            return None  # a kiss or a squeak: the detector hears a hit, no syllables
        early = [o.time_s for o in self._word_onsets_between(
            expected_s - SEARCH_FRACTION * period, expected_s - tolerance_s)]
        for start_s in early:
            if start_s >= expected_s - tolerance_s or self._is_room_noise(start_s):
                continue
            heard = len(self.hearing.syllables_between(start_s, end_s))
            if heard > n_syllables:
                continue  # the word before's tail in front of the word
            return start_s if 2 * heard >= n_syllables else None
        return None

    def _late_word_start_s(self, expected_s: float, end_s: float,
                           hit: bool = False) -> float | None:
        """Where a word heard in the slot starts past its search window [s], or None.

        The first word start (else syllable) from `expected_s` + T/2 to before `end_s`;
        for a kiss or a squeak (`hit`) a percussive hit there counts too: the detector
        reports those as percussion, not words (a squeak 1.2 s late, its group drifting
        20% slower, passed as heard on time).
        """
        after_s = expected_s + SEARCH_FRACTION * self._tracker.period_s
        late = [o.time_s for o in self._word_onsets_between(after_s, end_s) if o.time_s < end_s]
        if hit:
            after_s = max(after_s, self._past_last_word_s())
            late = sorted([*late, *(p.time_s for p in self.hearing.percussion
                                    if after_s <= p.time_s < end_s)])
        return late[0] if late else None

    def _is_fading_tail(self, onset_s: float, heard: HeardSlot, expected: Expected) -> bool:
        """True when the syllable at `onset_s` is the fading tail of the word before.

        Such a syllable starts no word and is much softer than the group's normal words (the
        voices of a group do not end together); it is not a word of this slot.
        """
        if any(w.time_s == onset_s for w in self.hearing.word_starts) or heard.level_db is None:
            return False
        if not self._normal_levels_db or expected.modifier is not None:
            return False
        normal_db = float(np.median(self._normal_levels_db))
        return heard.level_db < normal_db - FADING_TAIL_DB

    # ------------------------------------------------------------------ settling

    def _settle(self, verdict: SlotVerdict) -> None:
        """Record a verdict; hold an off-beat one until the next heard word tells what it was.

        The next word tells whether one word was off or the whole tempo moved. A verdict
        on dynamics judged against other voices than its own is held too (`_Held`); the walk
        goes on as if it were right.
        """
        slot = verdict.slot
        if self._pending is not None:
            # the next voiced word decides what the off-beat word was; a kiss's or a
            # squeak's hit before it does where it can tell the tempo (due on its beat as
            # a word is), else it passes (judge seed 85, case 098: a free-timing squeak
            # after the late word was the group's last sound before the free card's end,
            # after which no word can tell the tempo)
            heard = verdict.heard_onset_s
            hit_tells = is_hit(slot.expected) and heard is not None and \
                self._tells_tempo(slot, heard)
            if slot.expected.voiced or slot.role is Role.FINAL or hit_tells:
                tells_tempo = heard is not None and self._tells_tempo(slot, heard)
                self._resolve_pending(next_onset=(slot.beat, heard) if tells_tempo else None)
            return
        if verdict.mistake is MistakeKind.OFF_BEAT and not slot.expected.free_timing:
            # after a free-timing slot the next word comes when it comes: nothing to wait for
            self._pending = _Pending(verdict, slot.beat, verdict.heard_onset_s)
            self._remember_heard(verdict)
            return
        if self._holds(verdict):
            self._held.append(_Held(len(self._settled), verdict))
            verdict = replace(verdict, verdict="ok", mistake=None, message="")
        self._settled.append(verdict)
        self._remember_heard(verdict)
        if verdict.mistake is not None:
            self.mistake = verdict
            return
        if slot.expected.free_timing:
            self._reanchor_pending = True
            start = verdict.heard_onset_s if verdict.heard_onset_s is not None \
                else verdict.expected_onset_s
            if start is None:
                pass  # a silent free slot while the grid is lost: keep looking from before
            elif slot.expected.voiced or slot.expected.sound is Sound.NONVERBAL:
                self._after_free_from_s = self._word_end(
                    start, final=True, free=True, syllables=free_syllables(slot.expected),
                    hit_follows=self._anchor_is_hit(slot)) - 0.01
            else:
                self._after_free_from_s = start + 0.5 * self._tracker.period_s
        elif verdict.heard_onset_s is not None and verdict.offset_ms is not None:
            self._tracker.observe(slot.beat, verdict.heard_onset_s)
            drift = self._tracker.drift
            if abs(drift) > self.tolerances.drift_limit:
                drifted = replace(verdict, verdict="mistake", mistake=MistakeKind.TEMPO_DRIFT,
                                  message=drift_message(drift))
                self._settled[-1] = drifted
                self.mistake = drifted

    def _remember_heard(self, verdict: SlotVerdict) -> None:
        if verdict.heard_onset_s is not None:
            self._last_heard_s = verdict.heard_onset_s
            self._last_heard_syllables = expected_syllables(verdict.slot.expected)
            self._last_heard_closes_fast = last_syllable_follows_close(verdict.slot.expected)
            self._last_heard_span_s = word_span_s(verdict.slot.expected,
                                                   self._tracker.period_s)

    def _tells_tempo(self, slot: Slot, onset_s: float) -> bool:
        """Whether `slot`'s word, heard at `onset_s`, tells how fast the group goes now.

        Not after a free-timing card between it and the off-beat word (the word after
        one comes when it comes), nor when it came less than half a period after the
        off-beat word: a group that rushed 20% says its next word 0.8 periods later,
        and a sound sooner is the late word's own tail (three voices out of step) or
        a mistake of its own.
        """
        pending = self._pending
        first = self.slots.index(pending.verdict.slot) + 1
        between = self.slots[first:self.slots.index(slot)]
        if any(s.expected.free_timing for s in between):
            return False
        return onset_s - pending.onset_s >= 0.5 * self._tracker.period_s

    def _resolve_pending(self, next_onset: tuple[int, float] | None) -> None:
        if self._pending is None:
            return
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
            # off the grid, the beats between count at the pace the group went into the
            # off word, not the solos': a group 25% slower said its word after a silent
            # slot 2.5 solo periods on, and counted as three beats, it had sped up 9%
            pace = tracker.local_period_s([(pending.beat, pending.onset_s)]) or period
            next_beat = pending.beat + max(1, round((onset_s - pending.onset_s) / pace))
            # how fast the group goes now: the last words heard, the off one, the next
            local = tracker.local_period_s([(pending.beat, pending.onset_s), (next_beat, onset_s)])
            drift = local / tracker.solo_period_s - 1.0 if local else 0.0
            if not back_on_grid and abs(drift) > self.tolerances.drift_limit:
                verdict = replace(verdict, mistake=MistakeKind.TEMPO_DRIFT,
                                  message=drift_message(drift))
        self._settled.append(verdict)
        self.mistake = verdict

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
            percussion_s=tuple(p.time_s for p in self.hearing.percussion),
            duration_s=self.time_s,
            sample_rate=self.sr,
        )


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


def _last_of_series(hits_s: Sequence[float], hit_s: float) -> float:
    """The last hit of the series `hit_s` starts [s]: each within `HIT_PAUSE_S` of the one before.

    `hits_s` holds the hits, sorted (see `_first_of_series`).
    """
    last = hit_s
    for t in (h for h in hits_s if h > hit_s):
        if t - last >= HIT_PAUSE_S:
            break
        last = t
    return last
