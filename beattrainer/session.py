"""Wiring of one judged performance: onset detector + slot recognizer + referee.

`judge_stream` serves a file and the live microphone alike: it is fed blocks and
yields slot verdicts. The `RecognizerAdapter` keeps what the group has shown so
far (its normal MIEZEKATZE, and completed performances as templates of its voice).
"""
from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from beattrainer.audio import PIPELINE_SR
from beattrainer.dsp.onsets import OnsetDetector
from beattrainer.judge import HeardSlot, JudgeReport, Referee
from beattrainer.mzkz.model import MIEZEKATZE, NAME, Expected, Performance, Slot, Sound
from beattrainer.recognize.vocabulary import CARD_WORDS

# Card words listened for only where a card asks for them (not in other slots, nor
# when no card in play does): a whispered word sounds much like SHH, and a
# MIEZEKATZE much like WINKEKATZE (both end in -KATZE); hearing these where they
# are not due failed correct words (decision 22).
ONLY_WHERE_DUE = ("SHH", "WINKEKATZE", "WAVING CAT")


def performance_vocabulary(performance: Performance) -> tuple[str, ...]:
    """Every label any slot of the performance can ask for.

    Player names are in it only where a card asks for one (09: the lead's name,
    13: everyone's): a group never calls a name elsewhere, and names allowed
    everywhere were what the speech layer most often imagined.
    """
    labels: list[str] = [MIEZEKATZE]
    for slot in performance.slots:
        labels.extend(label for label in slot.expected.labels
                      if label not in ("SILENCE", NAME))
    return tuple(dict.fromkeys(labels))


def other_card_words(performance: Performance) -> tuple[str, ...]:
    """The substitute words of the cards not in play, which the referee also hears.

    Saying one where MIEZEKATZE is due (a card of an earlier performance, a
    mixed-up substitute) is the commonest mistake: unheard of, such a word was
    taken for the nearest word in play. They are rarely said, so the
    recognizer takes them only on clear evidence.
    """
    in_play = set(performance_vocabulary(performance))
    return tuple(w for w in CARD_WORDS if w not in in_play and w not in ONLY_WHERE_DUE)


def listened_for_only_where_due(performance: Performance) -> tuple[str, ...]:
    """Labels the recognizer hears only in the slots that ask for them.

    SHH, WINKEKATZE and WAVING CAT (decision 22), and the players' names: a
    group calls a name only where card 09 or 13 asks for one (decision 23). A
    name allowed in every slot of such a performance took a DING DONG said
    right for ANNA: the word model knows every name only as its one shared
    class, which also catches voices it was never trained on.
    """
    names = {player.upper() for player in performance.players}
    vocabulary = performance_vocabulary(performance)
    return (*ONLY_WHERE_DUE, *(label for label in vocabulary if label in names))


def _plain_miezekatze(expected: Expected) -> bool:
    return expected.sound is Sound.MZKZ and expected.modifier is None


class RecognizerAdapter:
    """Presents a `beattrainer.recognize.SlotRecognizer` to the referee.

    Keeps the group's normal MIEZEKATZE of this performance (solos and plain
    MIEZEKATZE cards heard so far) as the reference for quiet/loud/high, and the
    accepted slots, which become templates of the group's voice once the
    performance is completed.
    """

    def __init__(self, recognizer) -> None:
        from beattrainer.recognize import GroupProfile

        self.recognizer = recognizer
        self._profile_cls = GroupProfile
        self._normal: list = []          # acoustics of plain MIEZEKATZEs heard
        self._accepted: list[tuple[np.ndarray, str]] = []

    def recognize_slot(self, samples: np.ndarray, expected: Expected, slot: Slot,
                       syllable_onsets_s: Sequence[float],
                       due_from_s: float | None = None) -> HeardSlot:
        """Recognise one slot's audio against what is due.

        The detector's syllable onsets are not passed on: the recognizer counts the
        syllables of the slot's own audio. `due_from_s`: where the word is due [s from
        the audio's start] where no start of it was heard.
        """
        from beattrainer.recognize import SlotContext

        ctx = SlotContext(expected=expected, group=self._profile(), performer=slot.performer,
                          due_from_s=due_from_s)
        recognizer = self.recognizer
        heard = recognizer.recognize(samples, ctx)
        again = None
        if recognizer.dynamics_against_other_voices(ctx):
            again = self._judge_against_own_voice(recognizer.last_analysis, ctx)
        return HeardSlot(heard.label, heard.accepted, heard.confidence, heard.level_db,
                         judge_against_own_voice=again)

    def _judge_against_own_voice(self, analysis, ctx):
        """`HeardSlot.judge_against_own_voice` of a slot analysed as `analysis` (decision 81)."""
        def again() -> HeardSlot | None:
            if self.recognizer.dynamics_against_other_voices(ctx):
                return None  # its performers were not heard saying a word normally yet
            heard = self.recognizer.judge(analysis, ctx)
            return HeardSlot(heard.label, heard.accepted, heard.confidence, heard.level_db)
        return again

    def probe_slot(self, samples: np.ndarray, expected: Expected, slot: Slot) -> HeardSlot:
        """Try a window without leaving a trace in the recognizer's state."""
        from beattrainer.recognize import SlotContext

        heard = self.recognizer.probe(samples, SlotContext(expected=expected, group=self._profile(),
                                                           performer=slot.performer))
        return HeardSlot(heard.label, heard.accepted, heard.confidence, heard.level_db)

    def learn_slot(self, samples: np.ndarray, expected: Expected, slot: Slot) -> None:
        """An accepted slot: remember it (and the group's normal level from it)."""
        if _plain_miezekatze(expected):
            acoustics = self.recognizer.describe(samples)
            if acoustics.sounding and acoustics.level_db is not None:
                self._normal.append(acoustics)
        if expected.sound is not Sound.SILENCE and expected.text:
            self._accepted.append((samples, expected.item()))

    def performance_completed(self) -> None:
        """A completed performance is by the rules correct: learn the group's voice."""
        for samples, label in self._accepted:
            self.recognizer.learn(samples, label)
        self._accepted = []

    def start_performance(self) -> None:
        """Each performance has its own normal MIEZEKATZE."""
        self._normal = []
        self._accepted = []

    def _profile(self):
        if not self._normal:
            return None
        return self._profile_cls.from_acoustics(self._normal[-8:])


def make_recognizer(performance: Performance, backend: str = "auto",
                    strictness: str = "normal", vosk_model=None):
    """A slot recognizer for the performance's vocabulary, wrapped for the referee."""
    from beattrainer.recognize import SlotRecognizer

    recognizer = SlotRecognizer.create(backend=backend,
                                       vocabulary=performance_vocabulary(performance),
                                       unlikely=other_card_words(performance),
                                       due_only=listened_for_only_where_due(performance),
                                       strictness=strictness, vosk_model=vosk_model)
    return RecognizerAdapter(recognizer)


def judge_stream(performance: Performance, blocks: Iterable[np.ndarray], adapter,
                 strictness: str = "normal", grid: tuple[float, float] | None = None,
                 sr: int = PIPELINE_SR, on_verdict=None) -> JudgeReport:
    """Judge one performance from any block stream (file or microphone)."""
    adapter.start_performance()
    referee = Referee(performance, OnsetDetector(sr), adapter, sr, strictness, grid)
    for block in blocks:
        for verdict in referee.feed(block):
            if on_verdict:
                on_verdict(verdict)
        if referee.done:
            break
    for verdict in referee.finish():
        if on_verdict:
            on_verdict(verdict)
    report = referee.report()
    if report.result == "completed":
        adapter.performance_completed()
    return report




class RecognizerFactory:
    """One recognizer per performance, carrying the group's voice templates to the next one.

    Its grammar is the performance's vocabulary.
    """

    def __init__(self, backend: str = "auto", strictness: str = "normal", vosk_model=None):
        self.backend = backend
        self.strictness = strictness
        self.vosk_model = vosk_model
        self._last: RecognizerAdapter | None = None

    def __call__(self, performance: Performance) -> RecognizerAdapter:
        """The adapter for `performance`."""
        adapter = make_recognizer(performance, self.backend, self.strictness, self.vosk_model)
        if self._last is not None:
            adapter.recognizer.templates = self._last.recognizer.templates
        self._last = adapter
        return adapter
