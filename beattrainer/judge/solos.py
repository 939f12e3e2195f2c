"""The lead's two solos: where they are heard, and the first tempo they set.

The lead says MIEZEKATZE twice alone; the group joins on the beat they set. `SoloFinder`
looks for that pair in what was heard so far (`Hearing`) as the audio arrives, asking the
recognizer whether a stretch of audio sounds like the solo's word, and gives the solos'
onsets and a `TempoTracker` on their grid.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Sequence

import numpy as np

from beattrainer.dsp.tempo import (
    AGREE_S,
    MAX_PERIOD_S,
    MIN_PERIOD_S,
    TempoTracker,
    fit_line,
    refine_solo_onsets,
)
from beattrainer.judge.expected import expected_syllables
from beattrainer.judge.hearing import LEAD_IN_S, MIN_SYLLABLE_GAP_S, Hearing
from beattrainer.judge.tolerances import Tolerances
from beattrainer.judge.verdicts import SlotRecognizer
from beattrainer.mzkz.model import MIEZEKATZE, Role, Slot

SOLO_CHECK_S = 1.2           # a solo's last syllable starts within this [s]
SOLO_TAIL_S = 0.3            # ... and lasts this long: solo 2 starts no earlier after it
                             # (renders: 0.34 s or more after solo 1's last syllable; of 817
                             # pairs heard right, none with a syllable of solo 1 closer)
SOLO_MAX_GAP_S = 0.6         # a solo's syllables follow each other closer than this
NEW_WORD_RISE_DB = 12.0      # ... and none rises this far over the sound just before it
SOLO_CONFIRM_WORDS = 2       # the group's first words that confirm the solos' beat
SOLO_SPARE_WORDS = 1         # ... of this many more: the group's first word may be its mistake
CONFIRM_REACH = 1.5          # ... each within 1.5 times the off-beat tolerance of it
CONFIRM_PRIOR = 0.5          # ... following the group's beat as it settles
SOLO_BEFORE_SOUNDS = 1       # a solo word a beat before the pair shows this many onsets
UNHEARD_OVER_ROOM_DB = 4.0   # ... or its louder frames stand this far over the room's [dB]
                             # (babble alone, a beat against the second before it: 99% within
                             # 3.1 dB, at most 5.6 of 2160 stretches; the lead under babble at
                             # 10 dB, heard by no onset: 4.5-10 dB, judge seed 86)
GROUP_LINE_SPAN = 4          # where no solo was heard, the group's first this many voiced
GROUP_LINE_WORDS = 3         # ... words, this many of them heard on one line, set the grid
GROUP_LINE_AGREE_S = 0.06    # ... lying this close to it [s] (a word heard 45 ms late: seed
                             # 86; a solo heard a syllable late and two group words: 80 ms)
GROUP_LINE_FIRSTS = 4        # ... the first of them among the first this many word starts
LOUD_PERCENTILE = 90.0       # ... the louder frames: this percentile of them
ROOM_S = 1.0                 # ... the room: at most this long before the first solo [s]
ROOM_MIN_S = 0.3             # ... and at least this long
MISFIT_MARGIN_S = 0.05       # of two pairs that fit as well, the one whose line the group's
                             # words keep this much closer [s] wins (not the earlier one)
BETWEEN_WORD_UNDER_DB = 4.0  # a solo's word heard between a pair is the lead's within this
                             # much under solo 1's level [dB] (a solo 2 the detector missed:
                             # 2 dB; babble at 10 dB heard as the word: 6-12 dB)
BETWEEN_SOUND_UNDER_DB = 12.0  # a syllable heard between a pair is the lead's within this much
                              # under solo 1's onset level [dB] (the real solo 2 of a pair
                              # two words apart: about as loud; babble at 20 dB heard between
                              # the real solos: 18-24 dB under)
BEFORE_WORD_UNDER_DB = 12.0  # a solo's word heard a beat before a pair is the lead's within
                             # this much under the pair's first [dB] (a group of four voices
                             # over the lead: about 6 dB louder; babble at 20 dB before the
                             # lead heard as the word: 15 dB under, judge seed 64)
NOISE_UNDER_DB = 20.0        # a sound this much under the next syllable it glues onto [dB] is
                             # the room's before the lead's word (babble at 20 dB: 30 dB under;
                             # a solo's own /m/ reaches its vowel within the onset's level window)
LINE_WORDS = 2               # the group's first words that may set solo 2 on the line from solo 1
LINE_SPARE_WORDS = 1         # ... of this many more (a word may go unheard)
LINE_AGREE_S = AGREE_S       # ... lying this close to one line with it [s]
FAR_LINE_S = AGREE_S          # solo 1 heard this much [s] before the line through solo 2 and
FAR_LINE_WORDS = 2            # ... this many of the group's first words on its beat ...
FAR_RISE_FROM_ROOM_DB = 6.0   # ... starts at the last rise out of the room's sound up to that
                              # much past the line, whose dip lies within this of the room's
                              # level [dB] (a noise bump glued before the word leaves its dip
                              # 5-6 dB over the room: judge seed 77; solo 1 60-120 ms early)
LATE_MIN_S = 0.15            # both solos heard this much [s] after the beats of the line of
LATE_MAX_S = 0.5             # ... the group's first words (`_group_lines`), at most this much,
LATE_AGREE_S = 0.08          # ... within this of each other [s], are heard late inside their
                             # words: the lead says both alike, the detector loses as much of
                             # each (pink or babble at 10 dB hid their first syllables: 250-410
                             # ms late, the two within 30 ms; judge seeds 89, 94)
LATE_OVER_ROOM_DB = 3.0      # ... the sound before where each was heard this far over the
                             # room's [dB] (measured as `_unheard_solos_stand_out` does: the
                             # lead's /m/ and first vowel in pink at 10 dB, 4-5 dB over it)
LATE_WAIT_PERIODS = 2.0      # ... such a line awaited at most until the group's last word it
                             # is fitted to would be due at this many times the pair's period
                             # (a pair through a solo's later syllable: 0.6 times the solos')
SOLO_2_AS_HEARD_S = 0.003    # solo 1 is timed by its last rise out of the room's sound only
                             # where solo 2's lies at most this after its heard onset [s]
                             # (one 2 ms hop: the detector timed solo 2 by that rise)


@dataclass(frozen=True)
class Solos:
    """The lead's two solos as taken: their onsets [s] and the tempo tracker on their grid."""

    onsets_s: tuple[float, float]
    tracker: TempoTracker
    audio_from_s: tuple[float, float]  # where the recognizer heard each solo's word from [s]
    # ... and up to where, for a solo placed on a line (None: a heard one's, to the next word)
    audio_to_s: tuple[float | None, float | None] = (None, None)


class SoloFinder:
    """Find the lead's two solo words in what was heard so far.

    Parameters
    ----------
    hearing : what was heard so far (shared with the referee)
    slots : the performance's slots of voice 0; the first two are the solos
    recognizer : a `SlotRecognizer`; its ``probe_slot`` tells whether audio sounds like a solo
    tolerances : the strictness's timing tolerances
    """

    def __init__(self, hearing: Hearing, slots: Sequence[Slot], recognizer: SlotRecognizer,
                 tolerances: Tolerances) -> None:
        self.hearing = hearing
        self.slots = slots
        self.recognizer = recognizer
        self.tolerances = tolerances
        # (onset, end) [s] -> whether that audio sounds like a solo
        self.solo_words: dict[tuple[float, float], bool] = {}
        self.solo_levels_db: dict[tuple[float, float], float] = {}  # ... and how loud it is
        self._solo_alikes = frozenset(label for s in self.slots if MIEZEKATZE in s.expected.labels
                                      for label in s.expected.labels)
        # solo pair -> (words on its beat, those words as (beat, onset))
        self.beats_kept: dict[tuple[float, float], tuple[int, tuple[tuple[int, float], ...]]] = {}

    def find(self, horizon: float, final: bool) -> Solos | None:
        """The lead's two solo words and the tempo they set; None while not found (yet).

        `horizon` is the stream time up to which the detector has reported onsets [s];
        `final` is True at the end of the stream.

        Any syllable onset may start a solo (noise before the lead may glue onto
        the first word, so it need not be flagged as a word start), but only when
        the recognizer hears the solo's word from there: a cough, a chair or the
        room's chatter must not set the beat. Each pair heard that way is scored by
        how the performance around it fits: the group's next words on its beat,
        nothing heard between the two solos, no solo word a beat before the first,
        and two whole words (neither solo a syllable of the other or of an earlier
        solo word; solo 2 starts once solo 1's last syllable has sounded, at least
        `SOLO_TAIL_S` after it). The earliest pair that fits fully is taken at once;
        otherwise the best-scoring one (of equals, the earliest, unless the group's words
        keep a later one's line clearly closer), once every pair that could compete with
        it is heard and decided (so a stream decides as the whole file would).
        """
        onsets = [s.time_s for s in self.hearing.syllables]
        solo_syllables = expected_syllables(self.slots[0].expected)
        best: tuple[int, float, float] | None = None   # (score, first, second)
        firsts: list[tuple[float, float]] = []  # solo 1 candidates: (onset, its last syllable) [s]
        waiting = False
        for i, first in enumerate(onsets):
            if best is not None and first > best[1] + MAX_PERIOD_S:
                break
            own = self._solo_syllables(i)
            first = own[0] = self._start_past_faint_noise(own)
            first_end = self._solo_end(onsets, i, solo_syllables)
            if horizon < first_end and not final:
                waiting = True
                break  # the first solo is still being said
            if self._noise_before_word(i, own) or not self._is_solo_word(first, first_end):
                continue
            inside_a_word = self._inside_earlier_solo(i, onsets, solo_syllables)
            said_s = own[min(len(own), solo_syllables) - 1]
            # the recognizer heard the solo over its first syllables: before a second
            # solo they are its own, even where a syllable the detector missed left a
            # gap that looked like a pause between words
            heard = [o for o in onsets[i:i + solo_syllables] if o <= first + SOLO_CHECK_S]
            firsts.append((first, max(own[-1], *heard)))
            earliest = max(first + MIN_PERIOD_S, said_s + SOLO_TAIL_S)  # (see below)
            for j in range(i + 1, len(onsets)):
                second = onsets[j]
                if not earliest <= second <= first + MAX_PERIOD_S:
                    continue
                second_end = min(self._solo_end(onsets, j, solo_syllables), 2 * second - first)
                if horizon < second_end and not final:
                    waiting = True
                    break  # the second solo is still being said
                if not self._is_solo_word(second, second_end) or \
                        not self._alike_loud(first, second):
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
                # (of those, the ones before this solo 2: where the detector missed one of
                # solo 1's syllables, its count ran into solo 2's start)
                before_second = [o for o in heard if o + MIN_SYLLABLE_GAP_S <= second]
                said_s = max(own[-1], *before_second)
                if second < said_s + SOLO_TAIL_S:
                    # solo 1's last syllable still sounds: a solo 2 this close after it is
                    # a syllable inside a word (pink noise at 10 dB: the real solo 2, counted
                    # as solo 1's from a syllable of solo 1 heard late, 0.28 s before one)
                    continue
                score = hits - self._sounds_between(first, said_s, second) \
                    - self._solo_word_a_beat_before(first, second - first) \
                    - self._solo_word_between(said_s, first, second) \
                    - inside_a_word - self._continues_solo_1(own, j, solo_syllables) \
                    - self._past_solo_1_syllables(own, j, solo_syllables) \
                    - self._inside_earlier_solo(j, onsets, solo_syllables, after=i)
                if score == SOLO_CONFIRM_WORDS and best is None and not waiting:
                    # the earliest pair that fits fully (no earlier one still undecided:
                    # a longer period is confirmed later)
                    return self._taken(first, second, horizon, final)
                if best is None or score > best[0] or (
                        score == best[0] and self._misfit_s(first, second)
                        < self._misfit_s(best[1], best[2]) - MISFIT_MARGIN_S):
                    best = (score, first, second)
            if horizon < first + MAX_PERIOD_S and not final:
                waiting = True  # a later second solo may still come
        else:
            if best is not None and horizon < best[1] + MAX_PERIOD_S and not final:
                waiting = True  # a later first solo may still come
        if final or (best is not None and not waiting):
            line_best, pending = self._best_line_pair(firsts, horizon, final)
            if pending:
                return None
            if line_best is not None and (best is None or line_best[0] > best[0] or (
                    line_best[0] == best[0] and line_best[1] < best[1] - MIN_PERIOD_S)):
                best = line_best
        if best is not None and (final or not waiting):
            return self._taken(best[1], best[2], horizon, final)
        if final:
            return self._solos_on_group_line()
        return None

    def _taken(self, first: float, second: float, horizon: float, final: bool) -> Solos | None:
        """The pair taken, or the group's line's solos where the pair is not the lead's solos.

        The group speaks after the solos: where the line of the group's first words starts
        at or before the pair's solo 1, the lead's solos went unheard and the pair is the
        group's (babble at 10 dB over four voices: the lead alone stood 5-7 dB over it, the
        group's first words were taken for the solos, a period of 0.78 s for 1.58 s, or four
        beats late; judge seed 97). The solos are then taken from that line where they are
        heard there (`_solos_on_group_line`). So too where the line starts at or before the
        pair's solo 2 and the pair did not keep the group's beat fully (decision 80): its
        solo 2 is then likely the group's word (both solos heard 0.3 s late in babble at 10
        dB kept none of the group's words, and the pair from solo 1 to the group's first
        word, at twice the period, kept one and was taken; judge seed 99, case 060). A pair
        that kept the beat fully stands: solo 1, its own third syllable and solo 2 lie on a
        line of half the solos' period too (seed 102, case 084), and in babble at 10 dB a
        line through a late-heard solo 1 and the group's words two beats apart fitted as
        well (seed 102, case 176).
        In pink or babble at 10 dB the detector may miss the first syllables of both solos
        (the lead speaks alone, quieter than the group) and hear each a syllable or two late;
        a pair of such onsets sets a grid as far late, which the group's first words may
        still keep (a short period fitting them half-way: judge seed 89, case 140), or no
        pair of them fits and one through a solo's later syllable does (seed 94, case 142).
        Where the detector heard neither of the pair's solos whole (each short of a solo's
        syllables, or not heard at all), the line of the group's first words is looked at
        (`_late_heard_line`); where it shows both solos heard late inside their words, its
        beats 0 and 1 are the solos. The group's words late or early against solos heard
        right are its mistake, judged against the solos: that line is not taken, since
        only the room sounds before solos heard right. Gives None while such a line may
        still come.
        """
        on_line = self._solos_on_group_line(before_s=first + GROUP_LINE_AGREE_S)
        if on_line is None and self.beats_kept[(first, second)][0] < SOLO_CONFIRM_WORDS:
            on_line = self._solos_on_group_line(before_s=second + GROUP_LINE_AGREE_S)
        if on_line is not None:
            return on_line
        if self._heard_whole(first) or self._heard_whole(second):
            return self._take_solos(first, second)
        line, pending = self._late_heard_line(first, second, horizon, final)
        if pending:
            return None
        if line is None:
            return self._take_solos(first, second)
        a, b, group = line
        solos = (a, a + b)
        self.beats_kept[solos] = (len(group), tuple(group))
        return self._take_solos(*solos)

    def _heard_whole(self, onset_s: float) -> bool:
        """Whether the detector heard a solo's syllables from `onset_s` on (not one short)."""
        starts = [k for k, s in enumerate(self.hearing.syllables) if s.time_s == onset_s]
        return bool(starts) and len(self._solo_syllables(starts[0])) >= \
            expected_syllables(self.slots[0].expected)

    def _late_heard_line(self, first: float, second: float, horizon: float, final: bool
                         ) -> tuple[tuple[float, float, list[tuple[int, float]]] | None, bool]:
        """The line of the group's first words, where both solos were heard late on it.

        Of the lines `_group_lines` gives, the first at whose beats 0 and 1 the solos were
        heard late by as much (`_heard_late_s`), once the group's words it was fitted to are
        all due, where the sound between each beat and where the solo was heard stands out of
        the room's (`_late_solos_stand_out`) and the recognizer hears the solo's word from
        the beat (`_is_unheard_solo`): where the solos were heard right and the group's words
        drift or keep late, only the room sounds before the heard solos. The pair (`first`,
        `second` [s]) must lie off that line (else it is the line's already). Gives (line at
        beat 0 [s], period [s], the group's words on it as (beat, onset [s])) or None, and
        whether such a line may still come: while one is not yet due whole, or no line was
        heard yet, up to the group's last such word's beat at `LATE_WAIT_PERIODS` times the
        pair's period (in the benchmark's renders no solos waited for it: the pairs it looks
        at are taken once the group's first words have been heard).
        """
        beats = self._group_beats(GROUP_LINE_SPAN)
        if len(beats) < GROUP_LINE_WORDS:
            return None, False
        waiting = False
        lines = 0
        for group in self._group_lines():
            lines += 1
            a, b = fit_line([beat for beat, _ in group], [t for _, t in group], 0.0,
                            prior_weight=0.0)
            reach = CONFIRM_REACH * self.tolerances.off_beat_s(b)
            if self._heard_late_s(a, b, reach) is None:
                continue
            if horizon < a + b * beats[-1] + reach and not final:
                waiting = True  # (the line's last word may still be heard)
                continue
            if max(abs(first - a), abs(second - a - b)) <= GROUP_LINE_AGREE_S:
                return None, False  # the pair lies on the group's line
            if self._solos_heard_late(a, b, group, reach):
                return (a, b, group), False
        last_due_s = first + LATE_WAIT_PERIODS * (second - first) * beats[-1]
        return None, (waiting or not lines) and horizon < last_due_s and not final

    def _heard_late_s(self, a: float, b: float, reach_s: float) -> tuple[float, float] | None:
        """How late the solos, due at `a` and `a` + `b` [s], were heard: where both were late alike.

        At each beat the detector heard nothing from the group's reach (`reach_s`) before it to
        `LATE_MIN_S` after it, and a syllable within `LATE_MAX_S` after it; the two as late
        within `LATE_AGREE_S` (the lead says both solos alike). Gives the two [s] or None.
        """
        lates_s = []
        for beat_s in (a, a + b):
            heard = [s.time_s for s in self.hearing.syllables
                     if beat_s - reach_s <= s.time_s < beat_s + LATE_MAX_S]
            if not heard or heard[0] - beat_s < LATE_MIN_S:
                return None
            lates_s.append(heard[0] - beat_s)
        if abs(lates_s[0] - lates_s[1]) > LATE_AGREE_S:
            return None
        return lates_s[0], lates_s[1]

    def _solos_heard_late(self, a: float, b: float, group: list[tuple[int, float]],
                          reach_s: float) -> bool:
        """Whether both solos, due at `a` and `a` + `b` [s], were heard late inside their words."""
        lates_s = self._heard_late_s(a, b, reach_s)
        points = [(0, a), (1, a + b), *group]
        return lates_s is not None and \
            self._late_solos_stand_out((a, a + b), lates_s, reach_s) and \
            all(self._is_unheard_solo(onset_s, next_s, reach_s)
                for (_, onset_s), (_, next_s) in zip(points[:2], points[1:]))

    def _late_solos_stand_out(self, solos_s: tuple[float, float], lates_s: tuple[float, float],
                              reach_s: float) -> bool:
        """Whether the sound from each solo's beat to where it was heard stands out of the room.

        The room is what sounded before solo 1's beat (as `_unheard_solos_stand_out` measures
        it); each stretch's louder frames must reach `LATE_OVER_ROOM_DB` over the room's.
        """
        room_end_s = solos_s[0] - reach_s
        room_start_s = max(0.0, room_end_s - ROOM_S)
        if room_end_s - room_start_s < ROOM_MIN_S:
            return False  # (the room before the lead is unknown)
        room_db = self.hearing.loud_level_db(room_start_s, room_end_s, LOUD_PERCENTILE)
        for beat_s, late_s in zip(solos_s, lates_s):
            word_db = self.hearing.loud_level_db(beat_s, beat_s + late_s, LOUD_PERCENTILE)
            if room_db is None or word_db is None or word_db < room_db + LATE_OVER_ROOM_DB:
                return False
        return True

    def _best_line_pair(self, firsts: list[tuple[float, float]], horizon: float, final: bool
                        ) -> tuple[tuple[int, float, float] | None, bool]:
        """The best pair whose solo 2 lies where the line from solo 1 and the group's words puts it.

        Where no heard pair fits fully at once: the lead speaks alone, so in babble at 10 dB
        the detector may miss solo 2's start or place it a syllable off, while the group's
        louder words are heard. Solo 1 (the first word heard as the solo's) and the group's
        first `LINE_WORDS` words (before any free-timing card; a `LINE_SPARE_WORDS` more
        may go unheard) lying within `LINE_AGREE_S` of one line make a pair of that line's
        beats 0 and 1, if the recognizer hears the solo's word at beat 1. Such a pair is
        scored as a heard one that kept the group's beat; it wins over a heard pair that
        scores as well and starts a beat or more later (the room is quiet before the lead).
        Of two lines that score alike, the one more of the group's words lie on wins (not the
        shorter period): a word start the detector heard inside solo 2 (taken for beat 2)
        and the group's first word (for beat 3) made a line of two thirds the period, on
        which the word due next went unheard (judge seed 85).
        A line may also start at solo 2 (a word start heard after solo 1, at beat 1) where
        solo 1 was heard only late inside its word (`_heard_inside_solo_1`): solo 1 is then
        the line's beat 0, its own syllables those heard within its span.
        Gives (score, first, second) or None, and whether some such pair may still come.
        """
        beats = self._group_beats()
        if len(beats) < LINE_WORDS:
            return None, False
        starts = [w.time_s for w in self.hearing.word_starts]
        best: tuple[int, float, float] | None = None
        best_points = 0  # ... and how many words lie on its line (solo 1 and the group's)
        # the room is quiet before the lead: solo 1 is the first word heard as the solo's
        # (or starts among its syllables: noise may glue onto it); a line from a later word
        # through the group's words a few beats apart kept a multiple of the period
        earliest = [(t, said_s) for t, said_s in firsts if t <= firsts[0][1]] if firsts else []
        for heard_first, said_s in earliest:
            if horizon < heard_first + beats[-1] * MAX_PERIOD_S + MAX_PERIOD_S and not final:
                return None, True
            for anchor_beat, anchor_s, heard_s in self._line_anchors(heard_first, starts, beats):
                period = (heard_s - anchor_s) / (beats[0] - anchor_beat)
                if not MIN_PERIOD_S <= period <= MAX_PERIOD_S:
                    continue
                points = [(anchor_beat, anchor_s), (beats[0], heard_s)]
                reach = CONFIRM_REACH * self.tolerances.off_beat_s(period)
                for k, beat in enumerate(beats[1:], start=1):
                    due_s = anchor_s + (beat - anchor_beat) * period
                    near = [t for t in starts if abs(t - due_s) <= reach]
                    if near:
                        points.append((beat, min(near, key=lambda t: abs(t - due_s))))
                    elif k < LINE_WORDS:
                        break  # only a spare word may go unheard: on a grid twice as fine
                               # the real solo 2 and the group's first word leave a gap
                if len(points) < LINE_WORDS + 1:
                    continue
                a, b = fit_line([x for x, _ in points], [t for _, t in points], period,
                                prior_weight=0.0)
                if max(abs(t - a - b * x) for x, t in points) > LINE_AGREE_S or \
                        not MIN_PERIOD_S <= b <= MAX_PERIOD_S:
                    continue
                # the pair is the line's: solo 1 heard a little late (babble at 10 dB hides
                # its /m/) would otherwise shorten the period by as much
                first, second = a, a + b
                if anchor_beat == 1:
                    if not self._heard_inside_solo_1(heard_first, first, second, b):
                        continue
                    # (solo 1's own syllables lie within its span)
                    said_s = max(self.hearing.syllables_between(heard_first, min(
                        first + SOLO_CHECK_S, anchor_s - MIN_SYLLABLE_GAP_S)), default=heard_first)
                # (solo 2 starts once solo 1's last syllable has sounded: a line from solo 1's
                # KAT put solo 2 0.2 s after the real one, counted as solo 1's, judge seed 98)
                if second < said_s + SOLO_TAIL_S or not self._is_solo_word(
                        second, min(second + SOLO_CHECK_S + SOLO_TAIL_S,
                                    a + 2 * b - MIN_SYLLABLE_GAP_S)):
                    continue
                score = LINE_WORDS - self._sounds_between(first, said_s, second) \
                    - self._solo_word_a_beat_before(first, second - first, heard_first) \
                    - self._solo_word_between(said_s, first, second, heard_first)
                if best is None or (score, len(points)) > (best[0], best_points):
                    best, best_points = (score, first, second), len(points)
                    self.beats_kept[(first, second)] = (
                        LINE_WORDS, tuple(point for point in points if point[0] > 1))
        return best, False

    @staticmethod
    def _line_anchors(heard_first: float, starts: list[float], beats: list[int]
                      ) -> Iterator[tuple[int, float, float]]:
        """Where a line from the solos through the group's first word may start.

        Gives (beat, onset [s]) of its start and the onset [s] of the word taken as the
        group's first (at beats[0]): solo 1 heard at `heard_first` (beat 0), and each word
        start heard within a period after it as solo 2 (beat 1), for a solo 1 heard only late
        inside its word (`_heard_inside_solo_1`).
        """
        for heard_s in starts:
            yield 0, heard_first, heard_s
        if beats[0] < 2:
            return
        for anchor_s in starts:
            if heard_first < anchor_s <= heard_first + MAX_PERIOD_S:
                for heard_s in starts:
                    if heard_s > anchor_s:
                        yield 1, anchor_s, heard_s

    def _heard_inside_solo_1(self, heard_first: float, first_s: float, second_s: float,
                             period_s: float) -> bool:
        """Whether solo 1, due at `first_s` on a line through solo 2, was heard only late in it.

        The first word heard as the solo's (at `heard_first` [s]) starts more than
        `LINE_AGREE_S` after the line's beat 0 and within the solo's span (`SOLO_CHECK_S`),
        and the recognizer hears the solo's word from the reach before that beat up to solo
        2: in babble at 10 dB the detector missed the start of the lead's first solo and
        heard a word start at its KAT, 290 ms late; that onset and the solo 2 after it
        set a period a third short, which the group's babble-glued words kept half-way
        (judge seed 89).
        """
        reach_s = CONFIRM_REACH * self.tolerances.off_beat_s(period_s)
        return first_s + LINE_AGREE_S < heard_first <= first_s + SOLO_CHECK_S and \
            heard_first < second_s - MIN_SYLLABLE_GAP_S and \
            self._is_unheard_solo(first_s, second_s, reach_s)

    def _group_beats(self, words: int = LINE_WORDS + LINE_SPARE_WORDS) -> list[int]:
        """Beats of the group's first `words` voiced words before free timing."""
        beats: list[int] = []
        for slot in self.slots[2:]:
            if len(beats) == words or slot.role is not Role.CARD or \
                    slot.expected.free_timing:
                break
            if slot.expected.voiced:
                beats.append(slot.beat)
        return beats

    def _noise_before_word(self, i: int, own: list[float]) -> bool:
        """True when the sound at syllable i is the room's noise glued onto the lead's first word.

        Such a sound stops short of a solo, and a pause no solo has follows before more syllables
        without a word start.
        """
        after = i + len(own)
        syllables = self.hearing.syllables
        return len(own) < expected_syllables(self.slots[0].expected) and \
            after < len(syllables) and not syllables[after].starts_word and \
            syllables[after].time_s - own[-1] > SOLO_MAX_GAP_S

    def _start_past_faint_noise(self, own: list[float]) -> float:
        """Where a solo starting with syllables `own` [s] begins, past noise glued onto it.

        A first sound `NOISE_UNDER_DB` fainter than the next syllable is the room's
        (babble at 20 dB before the lead, 28-30 dB under): the word starts where the level
        first rises to within that of the next syllable's. Otherwise at own[0].
        """
        if len(own) < 2:
            return own[0]
        loud_db = self.hearing.onset_level_db(own[1]) - NOISE_UNDER_DB
        if self.hearing.onset_level_db(own[0]) >= loud_db:
            return own[0]
        return self.hearing.rise_s(own[0], own[1], loud_db)

    def _inside_earlier_solo(self, i: int, onsets: list[float], solo_syllables: int,
                             after: int = -1) -> int:
        """1 when syllable i (of `onsets` [s]) is one of an earlier solo word's own syllables.

        The lead's solo is one word of `solo_syllables` syllables; a syllable the
        detector did not hear as a word start, among the first `solo_syllables` own
        syllables of an earlier word start heard as the solo's word, is that word's (solo
        1 taken at its own second syllable set a period 20% short, where the group's first
        word was an early mistake that fitted it). However many syllables ran on after
        them (decision 80): the group's first word run on into the word after it, six
        syllables without a word start, and a pair from its ZE (or its third syllable) to
        the group's next word, said late, set a period twice the solos' (pink noise at 10
        dB, judge seed 103, case 176; babble at 20 dB, seed 105, case 239). Only word
        starts after syllable `after` count: for solo 2, pass solo 1's (solo 2 among solo 1's own
        syllables is `_continues_solo_1`'s). Solo 2 taken at the group's first word's ZE,
        paired with solo 2's KAT (the detector missed solo 2's start), kept the
        group's beat and won over the solos with a period 10% short (judge seed 86).
        """
        syllables = self.hearing.syllables
        if syllables[i].starts_word:
            return 0
        for k in range(i - 1, after, -1):
            if onsets[i] - onsets[k] > SOLO_CHECK_S:
                break
            if not syllables[k].starts_word:
                continue
            own = self._solo_syllables(k)
            if onsets[i] in own[:solo_syllables] and \
                    self._is_solo_word(onsets[k], self._solo_end(onsets, k, solo_syllables)):
                return 1
            break  # the nearest word start before is the one the syllable could belong to
        return 0

    def _past_solo_1_syllables(self, first_own: list[float], j: int, solo_syllables: int) -> int:
        """1 when a solo 2 at syllable j is a lone syllable of solo 1 past a whole solo's count.

        Solo 1's own syllables (`first_own` [s]) run on without a pause or a word start to
        it, after `solo_syllables` of them, and no syllable of its own follows it before the
        next word start or pause: the detector split one of solo 1's syllables, or heard its
        tail as one more, and that "solo 2" set a period half the solos' which the real solo
        2, taken for the group's first word, kept (pink at 10 dB, judge seed 94). A solo 2
        said right after solo 1 at a short beat, whose start the reverb hid, runs on with
        its own syllables (judge seed 13: 0.35 s after solo 1's fourth, at a 0.9 s beat).
        """
        syllable = self.hearing.syllables[j]
        return int(not syllable.starts_word and syllable.time_s in first_own[solo_syllables:]
                   and len(self._solo_syllables(j)) == 1)

    def _continues_solo_1(self, first_own: list[float], j: int, solo_syllables: int) -> int:
        """1 when a solo 2 at syllable j is the rest of solo 1 (own syllables `first_own` [s]).

        Solo 1's own syllables and solo 2's together hold no more than one solo's, with no
        pause between them longer than one within a solo (`SOLO_MAX_GAP_S`): the detector
        heard a late syllable of solo 1 (its ZE) as a word start, and the group's first word
        then fitted a period half the solos' (babble at 30 dB).
        """
        second_own = self._solo_syllables(j)
        return int(len(first_own) + len(second_own) <= solo_syllables
                   and second_own[0] - first_own[-1] <= SOLO_MAX_GAP_S)

    def _alike_loud(self, first_s: float, second_s: float) -> bool:
        """Whether two solo onsets are about as loud: the lead says both, the same way.

        A pair `NOISE_UNDER_DB` apart has one in the room's noise (babble before the lead).
        """
        return abs(self.hearing.onset_level_db(first_s) -
                   self.hearing.onset_level_db(second_s)) <= NOISE_UNDER_DB

    def _sounds_between(self, first_s: float, first_said_s: float, second_s: float) -> int:
        """What is heard between the first solo's own syllables and the second solo.

        One per syllable and one more per word start, and one per percussive hit past the
        first solo's span (a solo's /k/ or /ts/ may sound as one). The lead says one word and
        then nothing until the second, so a pair two words apart (an octave error) or a pair
        starting on noise before the lead shows sound here: in babble at 10 dB the detector
        heard of the solo between such a pair only the hit of its KATZE.
        """
        floor_db = self.hearing.onset_level_db(first_s) - BETWEEN_SOUND_UNDER_DB
        between = [s for s in self.hearing.syllables
                   if first_said_s + MIN_SYLLABLE_GAP_S <= s.time_s < second_s - MIN_SYLLABLE_GAP_S
                   and self.hearing.onset_level_db(s.time_s) >= floor_db]
        return len(between) + sum(s.starts_word for s in between) + \
            self.hearing.hits_between(first_s + SOLO_CHECK_S + SOLO_TAIL_S,
                                      second_s - MIN_SYLLABLE_GAP_S)

    def _solo_word_between(self, said_s: float, first_s: float, second_s: float,
                           heard_first_s: float | None = None) -> int:
        """1 when the solo's word is heard on a beat between the pair, on a grid finer than its own.

        The grid is the pair's divided a whole number of times (with a beat no shorter than
        `MIN_PERIOD_S`); the word is looked for from `CONFIRM_REACH` off-beat tolerances
        before such a beat, past the first solo's own syllables (the last starting at
        `said_s` and lasting `SOLO_TAIL_S`: its tail was heard as the solo's word). The
        lead says nothing between the two solos, so such a word means the pair is two or
        more words apart: in babble at 10 dB the detector may hear no onset of the real solo
        2 between them, while the recognizer still hears its word. It must be about as loud
        as solo 1 (heard at `heard_first_s`, else at `first_s`): the recognizer hears the
        babble's murmur as the solo's word too.
        """
        period_s = second_s - first_s
        heard_first_s = first_s if heard_first_s is None else heard_first_s
        first_db = max((level for (onset_s, _), level in self.solo_levels_db.items()
                        if onset_s == heard_first_s), default=0.0)
        for divisor in range(2, int(period_s / MIN_PERIOD_S) + 1):
            beat_s = period_s / divisor
            reach = CONFIRM_REACH * self.tolerances.off_beat_s(beat_s)
            for k in range(1, divisor):
                start_s = max(first_s + k * beat_s - reach, said_s + SOLO_TAIL_S)
                end_s = min(start_s + SOLO_CHECK_S + SOLO_TAIL_S, second_s - MIN_SYLLABLE_GAP_S)
                if end_s - start_s >= SOLO_TAIL_S and self._is_solo_word(start_s, end_s) and \
                        self.solo_levels_db[(start_s, end_s)] >= first_db - BETWEEN_WORD_UNDER_DB:
                    return 1
        return 0

    def _solo_word_a_beat_before(self, first_s: float, period_s: float,
                                 heard_first_s: float | None = None) -> int:
        """1 when a word heard as the solo's word starts a beat before `first_s`, else 0.

        The beat is on the pair's own grid or on one a whole number of times finer (with a
        beat no shorter than `MIN_PERIOD_S`). Such a word means the pair is a word late (the
        group's first words after the real solos fit it as well), or its period a multiple of
        the solos' (in babble at 10 dB quiet words between went unheard, and a pair three words
        apart kept the group's beat), since the room is quiet before the lead's first solo
        (decisions: Beatz'n'Catz 8). Noise there is no such word: the word must be at most
        `BEFORE_WORD_UNDER_DB` under the pair's first (heard at `heard_first_s`, else at
        `first_s`; its level unknown, any loudness counts).
        """
        onsets = [s.time_s for s in self.hearing.syllables]
        heard_first_s = first_s if heard_first_s is None else heard_first_s
        floor_db = max((level for (onset_s, _), level in self.solo_levels_db.items()
                        if onset_s == heard_first_s), default=-np.inf) - BEFORE_WORD_UNDER_DB
        for divisor in range(1, int(period_s / MIN_PERIOD_S) + 1):
            beat_s = period_s / divisor
            reach = CONFIRM_REACH * self.tolerances.off_beat_s(beat_s)
            due_s = first_s - beat_s
            for k, w in enumerate(self.hearing.syllables):
                if not (w.starts_word and abs(w.time_s - due_s) <= reach and
                        w.time_s < first_s - MIN_PERIOD_S):
                    continue
                end_s = self._solo_end(onsets, k, expected_syllables(self.slots[0].expected))
                if self._is_solo_word(w.time_s, end_s) and \
                        self.solo_levels_db[(w.time_s, end_s)] >= floor_db:
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
        if key in self.beats_kept:
            return (*self.beats_kept[key], False)
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
            near = [w.time_s for w in self.hearing.word_starts if abs(w.time_s - due_s) <= reach]
            if near:
                hits += 1
                beats.append(slot.beat)
                times.append(min(near, key=lambda t: abs(t - due_s)))
        hits += max(0, SOLO_CONFIRM_WORDS - checked)  # nothing more to check against
        confirmed = tuple(zip(beats[2:], times[2:]))
        self.beats_kept[key] = (hits, confirmed)
        return hits, confirmed, False

    def _misfit_s(self, first: float, second: float) -> float:
        """How far the group's words that kept a pair's beat lie from its line, on average [s].

        The line is the one the pair sets; 0 without such words.
        """
        _, confirmed = self.beats_kept[(first, second)]
        if not confirmed:
            return 0.0
        period = second - first
        return float(np.mean([abs(t - (first + beat * period)) for beat, t in confirmed]))

    def _take_solos(self, first: float, second: float) -> Solos:
        """The grid from the solos, taking a solo onset the detector misheard from the line.

        Heard onsets are timed by the truth's rule (`Hearing.rule_onset_s`). A misheard
        onset is one alone off the line of the other solo and the group's first words.
        """
        _, confirmed = self.beats_kept[(first, second)]
        first, second, confirmed = self._solos_before(first, second, confirmed)
        # both solos timed by the truth's rule: the stream's first word lacks the speaker
        # level the detector times later words by (it traces it again once its peak is
        # known; before, it came 10-30 ms early, the period 1-2% long); a solo placed on a
        # line rather than at a heard onset stays where it is (their audio is still judged
        # from the heard onsets)
        heard = {s.time_s for s in self.hearing.syllables}
        timed = tuple(self.hearing.rule_onset_s(t) if t in heard else t for t in (first, second))
        if first in heard and second in heard:
            timed = (self._timed_as_solo_2(*timed, confirmed), timed[1])
        starts = {w.time_s for w in self.hearing.word_starts}
        tracker = TempoTracker.from_solos(*refine_solo_onsets(
            timed, confirmed, (first in starts, second in starts)))
        # a solo placed on a line, not at a heard onset, is listened to from the reach the
        # group's words get before it, as unheard solos are found (`_is_unheard_solo`):
        # placed 50 ms late, a whispered solo in babble was silence from 30 ms before it
        reach = CONFIRM_REACH * self.tolerances.off_beat_s(second - first)
        audio_from_s = tuple(t - LEAD_IN_S if t in heard else t - reach for t in (first, second))
        # ... and up to where its word was looked for: the rest of the beat under babble is
        # babble's (an unheard solo 2 heard as YEAH from a whole period of 2.4 s, seed 97)
        audio_to_s = tuple(None if t in heard else min(
            t + SOLO_CHECK_S + SOLO_TAIL_S, t + (second - first) - MIN_SYLLABLE_GAP_S)
            for t in (first, second))
        return Solos((first, second), tracker, audio_from_s, audio_to_s)

    def _timed_as_solo_2(self, first_s: float, second_s: float,
                          confirmed: tuple[tuple[int, float], ...]) -> float:
        """Solo 1's onset moved on past the room's sound before it, where solo 2 shows it was.

        The stream's first word comes before any level of the room's: in noise the detector
        may start it on a noise rise or a soft lead-in before the word, which lies within
        30 dB of the word's peak, so the rule (`Hearing.rule_onset_s`) keeps it (10-40 ms
        early, the period 1-4% long, judge seeds 63 and 64). Solo 1 then starts where the
        word last rises out of the room's sound (`Hearing.last_rise_s`, at most 50 ms on),
        where that rise times solo 2 as the detector heard it (within `SOLO_2_AS_HEARD_S`:
        the lead says both words alike, in the same room), and where the line through solo 2
        and the group's first words on its beat (`confirmed`, as (beat, onset [s])) puts
        solo 1 nearer the rise than the heard onset: in babble at 10 dB a solo 1 heard
        inside its word shows such a rise too (seed 63: 55 ms late, moved 14 ms further).
        Where that line (through at least `FAR_LINE_WORDS` of the group's words) puts solo 1
        more than `FAR_LINE_S` after the heard onset, the rise is looked for up to as far
        past the line, its dip within `FAR_RISE_FROM_ROOM_DB` of the room's level, whatever
        the rule's level: the detector may start the word 50-120 ms early on a bump of the
        room's sound glued before it (judge seeds 76, 77), further than the rule moves it
        (`RULE_MAX_SHIFT_S`) and than the rise is looked for otherwise, and the bump's tail
        leaves the dip before the word a few dB over the room.
        """
        if not confirmed:
            return first_s
        second_rise_s = self.hearing.last_rise_s(second_s)
        if second_rise_s is None or second_rise_s > second_s + SOLO_2_AS_HEARD_S:
            return first_s  # (the detector timed solo 2 otherwise)
        beats = [1, *(beat for beat, _ in confirmed)]
        onsets_s = [second_s, *(t for _, t in confirmed)]
        line_s, _ = fit_line(beats, onsets_s, second_s - first_s, prior_weight=0.0)  # (at beat 0)
        if line_s - first_s > FAR_LINE_S and len(confirmed) >= FAR_LINE_WORDS:
            # the word's rise lies further on than the rule looks (`RULE_MAX_SHIFT_S`)
            rise_s = self.hearing.last_rise_s(first_s, line_s + FAR_LINE_S - first_s,
                                              FAR_RISE_FROM_ROOM_DB)
        elif self.hearing.room_level_db(first_s) < self.hearing.rule_level_db(first_s):
            return first_s  # (the room lies under the rule's level: the rule timed it)
        else:
            rise_s = self.hearing.last_rise_s(first_s)
        if rise_s is None or rise_s <= first_s:
            return first_s
        return rise_s if abs(rise_s - line_s) < abs(first_s - line_s) else first_s

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
        the detector heard nothing, for a solo), unless the word stands out of the room
        (`_unheard_solos_stand_out`). Gives the solos and the words after them as
        (beat, onset [s]).
        """
        period = second - first
        reach = CONFIRM_REACH * self.tolerances.off_beat_s(period)
        points = [(0, first), (1, second), *confirmed]
        unheard: set[float] = set()  # onsets [s] of solo words the detector heard nothing of
        while True:
            due_s = points[0][1] - period
            if due_s < LEAD_IN_S:
                break
            # (within the beats a tempo can have: the reach of a long period is wide, and
            # the onset nearest its beat a pair of 3.28 s walks back to lay 3.66 s before)
            near = [s.time_s for s in self.hearing.syllables if abs(s.time_s - due_s) <= reach
                    and MIN_PERIOD_S <= points[0][1] - s.time_s <= MAX_PERIOD_S]
            onset = min(near, key=lambda t: abs(t - due_s), default=due_s)
            end_s = min(onset + SOLO_CHECK_S + SOLO_TAIL_S, points[0][1] - MIN_SYLLABLE_GAP_S)
            said = len(self.hearing.syllables_between(due_s - reach, end_s)) + \
                self.hearing.hits_between(due_s - reach, end_s)
            if said < SOLO_BEFORE_SOUNDS:
                # the lead alone under babble at 10 dB may stay under every gate of the
                # detector: its word lies a beat before on the heard words' line, and is
                # listened for from `reach` before it (the recognizer missed a solo 1 whose
                # /m/ began 40 ms before the audio it was given)
                onset = self._line_before(points, unheard)
                if not self._is_unheard_solo(onset, points[0][1], reach):
                    break
                unheard.add(onset)
            elif not self._is_solo_word(onset, end_s) or \
                    not self._alike_loud(onset, points[0][1]):
                break
            points = [(0, onset), *((beat + 1, t) for beat, t in points)]
        while unheard.intersection(t for _, t in points) and \
                not self._unheard_solos_stand_out(points, unheard, reach):
            points = [(beat - 1, t) for beat, t in points[1:]]  # (that one was the room's)
        if unheard.intersection(t for _, t in points[:2]):
            points = self._placed_on_group_line(points, unheard, reach)
        return points[0][1], points[1][1], tuple(points[2:])

    def _placed_on_group_line(self, points: list[tuple[int, float]], unheard: set[float],
                              reach_s: float) -> list[tuple[int, float]]:
        """Solo words the detector heard nothing of, placed on the group's line.

        `points` are (beat, onset [s]) from solo 1 on. The line through a pair of the group's
        words a beat or more late was 6% long where one of them was heard 70 ms late; the
        group's first words (`_group_lines`) give the period to a percent or two. Only where
        that line's first word is the one heard at its beat (within `reach_s`).
        """
        heard = dict(points)
        group = next((line for line in self._group_lines()
                      if abs(heard.get(line[0][0], -np.inf) - line[0][1]) <= reach_s), None)
        if group is None:
            return points
        a, b = fit_line([beat for beat, _ in group], [t for _, t in group], 0.0,
                        prior_weight=0.0)
        return [(beat, a + b * beat if t in unheard else t) for beat, t in points]

    def _group_lines(self) -> Iterator[list[tuple[int, float]]]:
        """Lines the group's first voiced words were heard on, as (beat, onset [s]) each.

        Of the group's first `GROUP_LINE_SPAN` voiced words (before any free-timing card), the
        first and at least `GROUP_LINE_WORDS` in all must be heard as word starts, each within
        `GROUP_LINE_AGREE_S` of the line fitted through them. One of the first
        `GROUP_LINE_FIRSTS` heard word starts is the first word (the earliest first: later
        the performance keeps that beat too); the last is any later one.
        """
        beats = self._group_beats(GROUP_LINE_SPAN)
        if len(beats) < GROUP_LINE_WORDS:
            return
        starts = [w.time_s for w in self.hearing.word_starts]
        for i, first_s in enumerate(starts[:GROUP_LINE_FIRSTS]):
            for last_s in starts[i + 1:]:
                if last_s - first_s > MAX_PERIOD_S * (beats[-1] - beats[0]):
                    break
                line = self._line_from(beats, starts, first_s, last_s)
                if line is not None:
                    yield line

    def _line_from(self, beats: list[int], starts: list[float], first_s: float,
                   last_s: float) -> list[tuple[int, float]] | None:
        """The group's words on the line from `first_s` (at beats[0]) to `last_s` (at a later beat).

        Gives (beat, onset [s]) of the `GROUP_LINE_WORDS` or more words on it, else None.
        """
        for k in range(GROUP_LINE_WORDS - 1, len(beats)):
            period = (last_s - first_s) / (beats[k] - beats[0])
            if not MIN_PERIOD_S <= period <= MAX_PERIOD_S:
                continue
            points = [(beats[0], first_s)]
            for beat in beats[1:k]:
                due_s = first_s + (beat - beats[0]) * period
                near_s = min(starts, key=lambda t: abs(t - due_s))
                if abs(near_s - due_s) <= self.tolerances.off_beat_s(period):
                    points.append((beat, near_s))
            points.append((beats[k], last_s))
            if len(points) < GROUP_LINE_WORDS:
                continue
            a, b = fit_line([beat for beat, _ in points], [t for _, t in points], 0.0,
                            prior_weight=0.0)
            if max(abs(t - a - b * beat) for beat, t in points) <= GROUP_LINE_AGREE_S:
                return points
        return None

    def _solos_on_group_line(self, before_s: float = np.inf) -> Solos | None:
        """The solos on the line of the group's first words, where no pair of heard ones was found.

        The lead alone under babble at 10 dB may stay under every gate of the detector, while
        the group's louder words are heard. Solos at the line's beats 0 and 1 are taken where
        the recognizer hears the solo's word at each (from the reach the group's words get
        before it) and both stand out of the room (`_unheard_solos_stand_out`). Only lines
        whose first group word lies at or before `before_s` [s] count.
        """
        for group in self._group_lines():
            if group[0][1] > before_s:
                continue
            a, b = fit_line([beat for beat, _ in group], [t for _, t in group], 0.0,
                            prior_weight=0.0)
            reach = CONFIRM_REACH * self.tolerances.off_beat_s(b)
            solos = (a, a + b)
            points = [(0, a), (1, a + b), *group]
            if self._unheard_solos_stand_out(points, set(solos), reach) and \
                    all(self._is_unheard_solo(onset_s, next_s, reach)
                        for (_, onset_s), (_, next_s) in zip(points[:2], points[1:])):
                self.beats_kept[solos] = (len(group), tuple(group))
                return self._take_solos(*solos)
        return None

    def _is_unheard_solo(self, onset_s: float, next_s: float, reach_s: float) -> bool:
        """Whether the recognizer hears the solo's word from `reach_s` before `onset_s` [s].

        Up to `SOLO_CHECK_S` and a tail after it, or the next word (at `next_s`).
        """
        end_s = min(onset_s + SOLO_CHECK_S + SOLO_TAIL_S, next_s - MIN_SYLLABLE_GAP_S)
        return onset_s - reach_s >= LEAD_IN_S and self._is_solo_word(onset_s - reach_s, end_s)

    @staticmethod
    def _line_before(points: list[tuple[int, float]], unheard: set[float]) -> float:
        """Where the line through the heard words (beat, onset [s]) puts the beat before [s]."""
        heard = [(beat, t) for beat, t in points if t not in unheard]
        a, b = fit_line([beat for beat, _ in heard], [t for _, t in heard],
                        points[1][1] - points[0][1], prior_weight=0.0)
        return a - b

    def _unheard_solos_stand_out(self, points: list[tuple[int, float]], unheard: set[float],
                                 reach_s: float) -> bool:
        """Whether every solo word the detector heard nothing of stands out of the room's sound.

        The room is what sounded before the first solo (up to `ROOM_S` of it, at least
        `ROOM_MIN_S`); a solo word's stretch runs from `reach_s` before its onset for at most
        `SOLO_CHECK_S` after it, up to the next word. Each must reach `UNHEARD_OVER_ROOM_DB`
        over the room, both measured by their louder frames (`LOUD_PERCENTILE`): babble alone
        does so hardly ever, the lead's word under babble at 10 dB by 4.5-10 dB.
        """
        room_end_s = points[0][1] - reach_s
        room_start_s = max(0.0, room_end_s - ROOM_S)
        if room_end_s - room_start_s < ROOM_MIN_S:
            return False  # (the room before the lead is unknown)
        room_db = self.hearing.loud_level_db(room_start_s, room_end_s, LOUD_PERCENTILE)
        for (_, onset_s), (_, next_s) in zip(points, points[1:]):
            if onset_s not in unheard:
                continue
            end_s = min(onset_s + SOLO_CHECK_S, next_s - MIN_SYLLABLE_GAP_S)
            word_db = self.hearing.loud_level_db(onset_s - reach_s, end_s, LOUD_PERCENTILE)
            if room_db is None or word_db is None or word_db < room_db + UNHEARD_OVER_ROOM_DB:
                return False
        return True

    def _solo_syllables(self, i: int) -> list[float]:
        """The syllable onsets [s] of a solo starting at syllable i.

        They run up to the next word start, a pause no solo has (`SOLO_MAX_GAP_S`: what follows is
        another word, the one before was noise) or `SOLO_CHECK_S`.
        """
        own = [self.hearing.syllables[i].time_s]
        for s in self.hearing.syllables[i + 1:]:
            if s.starts_word or s.time_s - own[-1] > SOLO_MAX_GAP_S or \
                    s.time_s > own[0] + SOLO_CHECK_S or \
                    self.hearing.rises_over_before(s.time_s, NEW_WORD_RISE_DB):
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
        if key not in self.solo_words:
            slot = self.slots[0]
            samples = self.hearing.samples(onset_s - LEAD_IN_S, end_s)
            heard = self.recognizer.probe_slot(samples, slot.expected, slot)
            # a word a card takes in MIEZEKATZE's place (43: WINKEKATZE) sounds like
            # it: heard as such, it is still where the lead spoke (its verdict is
            # the solo slot's own)
            self.solo_words[key] = heard.accepted or \
                heard.label.split("/", 1)[0] in self._solo_alikes
            self.solo_levels_db[key] = heard.level_db if heard.level_db is not None else -120.0
        return self.solo_words[key]
