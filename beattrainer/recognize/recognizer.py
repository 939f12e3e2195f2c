"""The slot recognizer: one per performance or session, long-lived.

`start_slot(ctx)`, `feed(block)` while the slot runs (the speech decoder
works in 20 ms chunks meanwhile), `end_slot()` for the answer; the acoustic
layer, the group's templates and the fusion run at the slot's end and cost a
few milliseconds.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from beattrainer.recognize.acoustic import (
    FRAME_SAMPLES,
    HOP_SAMPLES,
    REFERENCE_SLOTS,
    Frames,
    GroupProfile,
    SlotAcoustics,
    describe_slot,
    dynamics_scores,
    frame_rows,
    pitch_rise_semitones,
    reference_profile,
    whisper_score,
)
from beattrainer.recognize.classes import ClassModel, load_class_model
from beattrainer.recognize.dynamics import DynamicsModel, load_dynamics_model
from beattrainer.recognize.framememo import FrameMemo
from beattrainer.recognize.fusion import AAAH as AAAH_LABEL
from beattrainer.recognize.fusion import STRICTNESS, Evidence, decide
from beattrainer.recognize.lexicon import Lexicon, lexicon_for
from beattrainer.recognize.room import RoomLevel, due_word_rise_db, speech_band_levels_db
from beattrainer.recognize.speech import create_backend, feed_in_blocks
from beattrainer.recognize.templates import TemplateStore
from beattrainer.recognize.vocabulary import (
    SILENCE,
    Item,
    full_vocabulary,
    is_speech,
    sound_class,
)
from beattrainer.recognize.words import FFT_SAMPLES as WORD_FFT_SAMPLES
from beattrainer.recognize.words import FRAME_SAMPLES as WORD_FRAME_SAMPLES
from beattrainer.recognize.words import HOP_SAMPLES as WORD_HOP_SAMPLES
from beattrainer.recognize.words import (
    OTHER_WORD,
    WordEnsemble,
    WordModel,
    frame_powers,
    load_word_model,
    word_class,
    word_features,
)

SAMPLE_RATE = 16_000
FLOOR_RISE_DB_PER_SLOT = 1.0  # the room's noise floor may creep up this fast between slots
MODEL_MODIFIERS = ("quiet", "loud", "high")  # judged by the dynamics model, against a reference
LOUD_HIGH_RISE_SEMITONES = 5.0  # a loud word this much higher is high too
MAX_SLOT_S = 30.0             # longer slots are cut (free-timing cards stay far below)
SPEECH_NAME_SLOTS = 2         # the speech backend's other name for a group's word: this often
# Audio whose frames are kept for reuse (`FrameMemo`) [s]: the acoustic frames of all a
# performance analyses (its solo tries, its slots, each described again when accepted and
# once more when learnt as a template at its end; on judge seed 89 about 40 s a performance,
# 8 MB in all here), the word model's spectra of the last few slots (only a try and the slot
# recognised from where it began share them; 2 MB).
ACOUSTIC_MEMO_S = 120.0
WORD_MEMO_S = 8.0


class RecognizeError(ValueError):
    """Bad input to the recognizer; the message is one line."""


@dataclass(frozen=True)
class SlotContext:
    """What the referee knows about a slot before hearing it.

    Attributes
    ----------
    expected : Expected (beattrainer.mzkz.model) or str
        The item due; a string is read as LABEL or LABEL/modifier.
    candidates : tuple of str
        Labels to choose between (default: the recognizer's whole vocabulary).
    group : GroupProfile or None
        The group's normal MIEZEKATZE in this performance (from the solos).
    syllable_onsets_s : tuple of float
        Syllable onsets the onset detector found in the slot [s from the slot
        start]; when given, their count replaces the recognizer's own.
    performer : int or None
        Who performs the slot: a player (0 = the lead) or None for everyone.
        Quiet, loud and high are judged against this performer's own normal
        words where there are any.
    due_from_s : float or None
        Where the due word should start (its beat) [s from the slot start], where
        the referee heard no start of it; a quiet word due there is then also
        heard by how far the room's speech band rises from its beat (decision 78).
    """

    expected: object
    candidates: tuple[str, ...] = ()
    group: GroupProfile | None = None
    syllable_onsets_s: tuple[float, ...] | None = None
    performer: int | None = None
    due_from_s: float | None = None

    def expected_item(self) -> tuple[Item, tuple[str, ...]]:
        """The due item and its alternative labels."""
        if isinstance(self.expected, str):
            return Item.parse(self.expected), ()
        item = Item.parse(self.expected.item())
        alternatives = tuple(a for a in self.expected.labels if a != item.label)
        return item, alternatives


@dataclass(frozen=True)
class SlotAnalysis:
    """What the layers found in a slot, before any expected item is considered.

    Attributes
    ----------
    acoustics : SlotAcoustics
    class_log : dict class -> log-likelihood (the acoustic class model)
    speech : SpeechResult or None (no speech backend)
    template_distance : dict label -> DTW distance, or None without templates
    word_log : dict word-model class -> log-posterior, or None without a word model
    band_levels_db : the speech band's power of each word-model frame [dB] (`room`)
    """

    acoustics: SlotAcoustics
    class_log: dict[str, float]
    speech: object = None
    template_distance: dict[str, float] | None = None
    word_log: dict[str, float] | None = None
    band_levels_db: np.ndarray | None = None


@dataclass(frozen=True)
class Heard:
    """What was heard in one slot (the contract's fields, minus `expected`)."""

    label: str
    confidence: float
    accepted: bool
    level_db: float | None
    pitch_hz: float | None
    duration_s: float | None
    syllables: int | None
    backend: str
    expected: str = ""
    posteriors: dict[str, float] = field(default_factory=dict, compare=False, repr=False)

    def to_json(self) -> dict:
        """The `beattrainer.recognize/1` contract object."""
        def rounded(x, digits):
            return None if x is None else round(float(x), digits)

        return {
            "schema": "beattrainer.recognize/1",
            "expected": self.expected,
            "label": self.label,
            "accepted": self.accepted,
            "confidence": round(float(self.confidence), 4),
            "syllables": self.syllables,
            "level_db": rounded(self.level_db, 2),
            "pitch_hz": rounded(self.pitch_hz, 1),
            "duration_s": rounded(self.duration_s, 3),
            "backend": self.backend,
        }


class SlotRecognizer:
    """Recognises what was said in each slot of a performance.

    Build with `SlotRecognizer.create(...)`. Not thread-safe; one per stream.
    """

    def __init__(self, vocabulary: tuple[str, ...], lexicon: Lexicon, class_model: ClassModel,
                 speech=None, strictness: str = "normal",
                 word_model: WordModel | WordEnsemble | None = None, unlikely=(),
                 dynamics_model: DynamicsModel | None = None, due_only=()) -> None:
        if strictness not in STRICTNESS:
            raise RecognizeError(f"unknown strictness {strictness!r} ({', '.join(STRICTNESS)})")
        self.vocabulary = vocabulary
        self.unlikely = frozenset(unlikely)
        self.due_only = frozenset(due_only)
        self.lexicon = lexicon
        self.class_model = class_model
        self.word_model = word_model
        self.dynamics_model = dynamics_model
        self.speech = speech
        self.strictness = strictness
        self.templates = TemplateStore()
        self._floor_db: float | None = None
        self._room = RoomLevel()  # the speech band's level of the slots heard last
        # (performer, acoustics) of accepted plain words, the last few per performer
        self._normal: list[tuple[int | None, SlotAcoustics]] = []
        # the group's word -> how often the speech backend named what, where it was due
        self._speech_names: dict[str, Counter] = {}
        self._ctx: SlotContext | None = None
        self.last_analysis: SlotAnalysis | None = None  # of the slot recognised last
        self._blocks: list[np.ndarray] = []
        self._n_samples = 0
        self._acoustic_frames = FrameMemo(frame_rows, FRAME_SAMPLES, HOP_SAMPLES,
                                          int(ACOUSTIC_MEMO_S * SAMPLE_RATE))
        self._word_frames = FrameMemo(frame_powers, WORD_FRAME_SAMPLES, WORD_HOP_SAMPLES,
                                      int(WORD_MEMO_S * SAMPLE_RATE))

    @classmethod
    def create(cls, backend: str = "auto", vocabulary=(), strictness: str = "normal",
               vosk_model: str | Path | None = None, use_espeak: bool = True,
               unlikely=(), due_only=()) -> SlotRecognizer:
        """Build a recognizer for a performance's vocabulary.

        Parameters
        ----------
        backend : "auto" (vosk when a model is given or found in models/vosk,
            else pocketsphinx), "pocketsphinx", "vosk" or "none" (acoustic and
            template layers only)
        vocabulary : labels the performance may ask for (names included);
            SILENCE and the non-verbal sounds are always added
        strictness : "lenient", "normal" or "strict"
        vosk_model : path to an unpacked vosk model
        use_espeak : derive name pronunciations with espeak-ng when installed
        unlikely : labels also listened for, but rarely said (the words of cards
            not in play): heard only on clear evidence
        due_only : labels listened for only in the slots where they are due (they
            sound like what is due elsewhere: WINKEKATZE like MIEZEKATZE)

        Raises
        ------
        RecognizeError, BackendError, LexiconError, ClassModelError
            With a one-line message.
        """
        labels = full_vocabulary((*(vocabulary or ("MIEZEKATZE",)), *unlikely))
        lexicon = lexicon_for(labels, use_espeak=use_espeak)
        speech = create_backend(backend, labels, lexicon, vosk_model)
        return cls(labels, lexicon, load_class_model(), speech, strictness, load_word_model(),
                   unlikely=(u for u in unlikely if u not in (vocabulary or ("MIEZEKATZE",))),
                   dynamics_model=load_dynamics_model(), due_only=due_only)

    @property
    def backend_name(self) -> str:
        """The speech backend in use ("none" without one)."""
        return self.speech.name if self.speech is not None else "none"

    # ------------------------------------------------------------ streaming

    def start_slot(self, ctx: SlotContext) -> None:
        """Begin listening to a slot."""
        self._ctx = ctx
        self._blocks = []
        self._n_samples = 0
        if self.speech is not None:
            self.speech.start()

    def feed(self, block: np.ndarray) -> None:
        """Hand over the next mono float32 block (16 kHz) of the running slot."""
        if self._ctx is None:
            raise RecognizeError("feed() before start_slot()")
        block = np.asarray(block, dtype=np.float32).reshape(-1)
        room = int(MAX_SLOT_S * SAMPLE_RATE) - self._n_samples
        if room <= 0:
            return
        block = _finite(block[:room])
        self._blocks.append(block)
        self._n_samples += len(block)
        if self.speech is not None:
            self.speech.feed(block)

    def end_slot(self) -> Heard:
        """Finish the slot and return what was heard."""
        if self._ctx is None:
            raise RecognizeError("end_slot() before start_slot()")
        ctx, self._ctx = self._ctx, None
        samples = np.concatenate(self._blocks) if self._blocks else np.zeros(0, np.float32)
        self._blocks = []
        speech = self.speech.finish() if self.speech is not None else None
        analysis = self._analyse(samples, ctx.group, speech)
        self.last_analysis = analysis
        heard = self.judge(analysis, ctx)
        self._room.add(analysis.band_levels_db)
        self._remember_normal(analysis.acoustics, ctx, heard)
        self._remember_speech_name(speech, ctx, heard)
        return heard

    def recognize(self, samples: np.ndarray, ctx: SlotContext,
                  block_samples: int = 512) -> Heard:
        """Batch form: the same as `start_slot`, `feed` of each block in turn, `end_slot`.

        The slot is taken in one go, not block by block (the speech backend still gets
        it cut as those blocks would cut it: `feed_in_blocks`): the work per block was
        1.5% of the judge's instructions on judge seed 89, the answer is the same.
        """
        self.start_slot(ctx)
        samples = np.asarray(samples, dtype=np.float32).reshape(-1)
        samples = _finite(samples[:int(MAX_SLOT_S * SAMPLE_RATE)])
        self._blocks = [samples]
        self._n_samples = len(samples)
        if self.speech is not None:
            feed_in_blocks(self.speech, samples, block_samples)
        return self.end_slot()

    def probe(self, samples: np.ndarray, ctx: SlotContext) -> Heard:
        """Like `recognize`, but leaves no trace, for trying windows (where do the solos start?).

        The tries do not change later decisions: the room's floor and the group's normal words
        stay what they were. The speech decoder is not asked: on the judge benchmark it changed no
        verdict and cost half the referee's CPU time.
        """
        floor_db, normal = self._floor_db, list(self._normal)
        try:
            samples = np.asarray(samples, dtype=np.float32).reshape(-1)
            samples = _finite(samples[:int(MAX_SLOT_S * SAMPLE_RATE)])
            return self.judge(self._analyse(samples, ctx.group, None), ctx)
        finally:
            self._floor_db, self._normal = floor_db, normal

    # ------------------------------------------------------------ learning

    def learn(self, samples: np.ndarray, label: str) -> bool:
        """Keep a slot as a template of the group saying `label` (an item; a modifier is dropped).

        Call it for every slot of a completed performance and for enrolment
        recordings. Returns False when the audio held no sound to learn from.
        """
        item = Item.parse(label)
        if item.label == SILENCE:
            return False
        samples = np.asarray(samples, dtype=np.float32)
        return self.templates.add(samples, item.label, sounding=self.describe(samples).sounding)

    def describe(self, samples: np.ndarray, floor_db: float | None = None) -> SlotAcoustics:
        """`describe_slot`, with the frames of the slots analysed before reused."""
        return describe_slot(samples, floor_db, Frames(*self._acoustic_frames(samples)))

    # ------------------------------------------------------------ the decision

    def analyse(self, samples: np.ndarray, group: GroupProfile | None = None,
                block_samples: int = 512) -> SlotAnalysis:
        """Everything about a slot that does not depend on what is due.

        `judge(analysis, ctx)` then decides for any expected item at almost no
        cost (the benchmark judges one slot against many items this way).
        """
        samples = np.asarray(samples, dtype=np.float32).reshape(-1)
        samples = _finite(samples[:int(MAX_SLOT_S * SAMPLE_RATE)])
        speech = None
        if self.speech is not None:
            self.speech.start()
            feed_in_blocks(self.speech, samples, block_samples)
            speech = self.speech.finish()
        return self._analyse(samples, group, speech)

    def _analyse(self, samples: np.ndarray, group: GroupProfile | None, speech) -> SlotAnalysis:
        floor = group.floor_db if group and group.floor_db is not None else self._floor_db
        acoustics = self.describe(samples, floor)
        self._track_floor(acoustics)
        distances = self.templates.distances(samples) if len(self.templates) else None
        word_log = None
        powers = self._word_frames(samples)
        if self.word_model is not None:
            # the slot's own floor, as in training: a floor remembered from quieter
            # slots would stretch the word over the room's noise
            word_log = self.word_model.log_probs(word_features(samples, powers=powers))
        return SlotAnalysis(acoustics, self.class_model.log_likelihoods(acoustics),
                            speech, distances, word_log,
                            speech_band_levels_db(powers[1], WORD_FFT_SAMPLES))

    def judge(self, analysis: SlotAnalysis, ctx: SlotContext) -> Heard:
        """The decision for one slot's analysis against what `ctx` says is due."""
        expected, alternatives = ctx.expected_item()
        acoustics, speech = analysis.acoustics, analysis.speech
        syllables = len(ctx.syllable_onsets_s) if ctx.syllable_onsets_s is not None \
            else acoustics.syllables
        labels = self._labels(ctx, expected, alternatives)
        if any(word_class(label) == OTHER_WORD for label in (expected.label, *alternatives)):
            # a name (or a blank card's word) is due: the word model knows it only as
            # the shared OTHER_WORD class, and it may sound like another card's word
            # (ANNA like AAAH), which is not listened for here (decisions: 20)
            labels = tuple(label for label in labels if label not in self.unlikely)
        due = {expected.label, *alternatives}
        labels = tuple(label for label in labels if label not in self.due_only or label in due)
        reference = self.reference(ctx.group, ctx.performer)
        modifier_scores = self._modifier_scores(acoustics, reference)
        level_change = acoustics.level_db - reference.level_db \
            if reference and acoustics.sounding and acoustics.level_db is not None else None
        evidence = Evidence(
            class_log=analysis.class_log,
            syllables=syllables if acoustics.sounding else 0,
            speech_label=speech.label if speech else None,
            speech_confidence=speech.confidence if speech else 0.0,
            template_distance=analysis.template_distance,
            word_log=analysis.word_log,
            modifier_scores=modifier_scores,
            level_change_db=level_change,
            speech_also=self._speech_stands_for(speech.label if speech else None),
            due_rise_db=self._due_rise_db(analysis, ctx, expected),
        )
        decision = decide(labels, self._syllables_of, evidence, expected, alternatives,
                          self.strictness, self.unlikely,
                          percussion_due=bool(getattr(ctx.expected, "percussion", ())))
        return Heard(
            label=str(decision.heard),
            confidence=decision.confidence,
            accepted=decision.accepted,
            level_db=acoustics.level_db,
            pitch_hz=acoustics.pitch_hz,
            duration_s=acoustics.duration_s if acoustics.sounding else 0.0,
            syllables=syllables if acoustics.sounding else 0,
            backend=self.backend_name,
            expected=str(expected),
            posteriors=decision.posteriors,
        )

    def _due_rise_db(self, analysis: SlotAnalysis, ctx: SlotContext,
                     expected: Item) -> float | None:
        """How far a quiet word due without a heard start rises over the room (`room`) [dB].

        None where no quiet word is due, the referee heard its start, or the room's
        level is not known yet.
        """
        room_db = self._room.level_db()
        if expected.modifier != "quiet" or ctx.due_from_s is None or room_db is None \
                or analysis.band_levels_db is None:
            return None
        return due_word_rise_db(analysis.band_levels_db, ctx.due_from_s, room_db)

    def _modifier_scores(self, acoustics: SlotAcoustics,
                         reference: GroupProfile | None) -> dict[str, float]:
        """How surely each modifier was realised.

        Quiet, loud and high come from the dynamics model (the fixed rules without one), slow and
        whisper by rule.
        """
        if reference is None:
            return _whisper_only(acoustics)
        scores = dynamics_scores(acoustics, reference)
        if self.dynamics_model is not None and acoustics.sounding:
            p = self.dynamics_model.probabilities(acoustics, reference)
            scores.update({m: p[m] for m in MODEL_MODIFIERS})
            if p["loud"] >= 0.5 and \
                    pitch_rise_semitones(acoustics, reference) >= LOUD_HIGH_RISE_SEMITONES:
                # a voice that goes high mostly gets louder too; the model never heard
                # that (the renderer's high words come at the normal level)
                scores["high"] = max(scores["high"], p["loud"])
        return scores

    def dynamics_against_other_voices(self, ctx: SlotContext) -> bool:
        """Whether the slot's due quiet, loud or high is judged against other voices than its own.

        So it is until the slot's performers were heard saying a word normally: the
        group's words are judged against the lead's solos (`reference_profile`'s
        `lead_alone`), a player's own slot against the others' words (challenge 9).
        `judge` then tells it again against their own voice (decision 81).
        """
        expected, _ = ctx.expected_item()
        if expected.modifier not in MODEL_MODIFIERS:
            return False
        if ctx.performer is not None:
            return not any(who == ctx.performer for who, _ in self._normal)
        reference = self.reference(ctx.group, ctx.performer)
        return reference is not None and reference.lead_alone

    def reference(self, group: GroupProfile | None,
                  performer: int | None = None) -> GroupProfile | None:
        """The group's normal voice that quiet, loud and high are judged against.

        The referee's profile comes from the plain MIEZEKATZEs, the solos
        included, which only the lead speaks: against one voice, the whole
        group's normal word sounds louder (+6 dB for four voices) and its
        pitch is a mixture. So the level and pitch of the last few words the
        group was due and heard to say normally (any word) take precedence;
        the profile keeps the duration (only MIEZEKATZE is slow) and the floor.
        Where one player performs a slot (`performer`), that player's own
        normal words are the reference once there are any: in a solo round a
        male voice's high word is no higher than a female voice's normal one.
        """
        return reference_profile(self._normal, performer, group)

    def _remember_normal(self, acoustics: SlotAcoustics, ctx: SlotContext, heard: Heard) -> None:
        """Keep a slot as the group's normal voice when a plain word was due and heard so."""
        expected, alternatives = ctx.expected_item()
        item = Item.parse(heard.label)
        # (heard high or loud is still the group's normal word where a plain one is
        # due: a group louder or higher than the lead's solos is what it is to learn;
        # not a slot where a sound may be due beside the word, e.g. card 09's squeak
        # over the lead's name: its pitch is the squeaker's)
        if (heard.accepted and expected.modifier is None
                and all(is_speech(Item.parse(label).label) for label in alternatives)
                and item.modifier not in ("whisper", "quiet")
                and acoustics.sounding and acoustics.level_db is not None
                and sound_class(item.label) == "voice" and is_speech(item.label)
                and item.label != "SHH"):
            self._normal.append((ctx.performer, acoustics))
            mine = [i for i, (who, _) in enumerate(self._normal) if who == ctx.performer]
            if len(mine) > REFERENCE_SLOTS:
                del self._normal[mine[0]]

    def _remember_speech_name(self, speech, ctx: SlotContext, heard: Heard) -> None:
        """Count the speech backend's word in a slot where a word was due and heard plain."""
        expected, _ = ctx.expected_item()
        item = Item.parse(heard.label)
        if (speech is not None and speech.label is not None and heard.accepted
                and item.label == expected.label and expected.modifier is None
                and item.modifier is None and sound_class(item.label) == "voice"
                and is_speech(item.label)):
            self._speech_names.setdefault(item.label, Counter())[speech.label] += 1

    def _speech_stands_for(self, named: str | None) -> frozenset[str]:
        """The group's words the speech backend's `named` stands for (`Evidence.speech_also`).

        A voice its models do not know may sound like another word to it every time
        (en-andy's YO was MIAU in all three slots of one performance): where it named a
        group's word so in at least `SPEECH_NAME_SLOTS` slots and in most of them, that
        name counts for the group's word as well, and no longer against it. (Once is
        not enough: three voices out of step made one MIEZEKATZE a YEAH, and then a YO
        said in its place passed.) Not AAAH, its answer to much besides itself: against a
        long word it is a sign of a short one said (decision 35).
        """
        if named is None or named == AAAH_LABEL or not is_speech(named):
            return frozenset()
        return frozenset(word for word, names in self._speech_names.items()
                         if word != named and names[named] >= SPEECH_NAME_SLOTS
                         and names[named] > sum(names.values()) / 2)

    def _labels(self, ctx: SlotContext, expected: Item, alternatives) -> tuple[str, ...]:
        """Candidates: the context's (plus the expected labels and SILENCE), else the vocabulary."""
        base = tuple(" ".join(c.split()).upper() for c in ctx.candidates) or self.vocabulary
        return full_vocabulary((expected.label, *alternatives, *base)) if not ctx.candidates \
            else tuple(dict.fromkeys((expected.label, *alternatives, *base, SILENCE)))

    def _syllables_of(self, label: str) -> int | None:
        if sound_class(label) != "voice" or not is_speech(label):
            return None
        if label not in self.lexicon:
            return None
        return self.lexicon.syllables(label)

    def _track_floor(self, acoustics: SlotAcoustics) -> None:
        """Follow the room's noise floor across slots: down at once, up slowly."""
        if self._floor_db is None:
            self._floor_db = acoustics.floor_db
        else:
            self._floor_db = min(acoustics.floor_db, self._floor_db + FLOOR_RISE_DB_PER_SLOT)


def _finite(samples: np.ndarray) -> np.ndarray:
    """A copy of `samples` with NaN as 0 and infinities as +-1.

    (As `np.nan_to_num` gives it, which costs almost three times a check and a plain copy on a
    512-sample block: a plain copy where all is finite, as audio nearly always is.)
    """
    if np.isfinite(samples).all():
        return samples.copy()
    return np.nan_to_num(samples, nan=0.0, posinf=1.0, neginf=-1.0)


def _whisper_only(acoustics: SlotAcoustics) -> dict[str, float]:
    """Without the group's profile only whispering can be judged (it is absolute)."""
    if not acoustics.sounding:
        return {}
    return {"whisper": whisper_score(acoustics)}
