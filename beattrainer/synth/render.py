"""Render a Beatz'n'Catz performance to audio, with its exact ground truth.

Pure numpy: the slot list (`beattrainer.mzkz.model.Performance`) and the clip
library go in, a mono float32 signal and the truth dictionary come out (format:
`docs/truth-format.md`). All randomness comes from the `rng` argument.

Each slot's clips are placed so that the clip's true onset lands on the slot's
time: the grid of the word period (with linear drift), plus free-timing pauses,
plus per-slot jitter and a small per-voice spread. With `syllables_in_time`
(decision 28) the other voices' clips are also cut at their syllables, so that
every syllable keeps in time with the earliest voice's. Noise and reverb are
applied last, so the same seed gives the same clean placement with or without
them.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Sequence

import numpy as np

from beattrainer.mzkz.model import MIEZEKATZE, NAME, Modifier, Performance, Role, Slot, Sound
from beattrainer.synth.clips import ClipInfo, ClipLibrary

TRUTH_SCHEMA = "beattrainer.truth/1"
MISTAKE_KINDS = ("missing", "unexpected_sound", "wrong_word", "off_beat", "wrong_dynamics",
                 "tempo_drift")
NOISE_KINDS = ("babble", "pink", "hum")

MODIFIER_GAIN_DB = {Modifier.QUIET: -12.0, Modifier.LOUD: 8.0, Modifier.WHISPER: -6.0}
PERCUSSION_GAIN_DB = -10.0      # percussion clips are peak-normalised; keep them below the voices
SOFT_PERCUSSION_DB = -10.0      # extra cut under challenge 1 (whisper mode)
MEMBER_GAIN_SPREAD_DB = 2.0     # each group member's own level: uniform +/- this
SLOT_GAIN_SPREAD_DB = 1.0       # and per slot
PERCUSSION_SPREAD_S = 0.01      # percussion lands within +/- this of its syllable
FIT_FRACTION = 0.85             # prefer clips whose sound after the onset fits in this part of T
FREE_PAUSE_PERIODS = (0.3, 1.0)  # extra pause after a free-timing slot, in periods T
MIN_FREE_GAP_S = 0.15           # and at least this much silence before the next slot
OFF_BEAT_MIN_S = 0.25
OFF_BEAT_PERIODS = 0.25
TEMPO_DRIFT_STEP = 0.05         # tempo_drift mistake: each period 5 % longer than the one before
TEMPO_DRIFT_CAP = 0.30
WRONG_FOR_MZKZ = ("YEAH", "YO", "BAM", "WOW")
CHEER_LABEL = "YEAH"            # the final move: everyone cheers ...
CHEER_CLAPS_S = (0.45, 0.62, 0.79)  # ... then claps at these times after the cheer
BABBLE_STREAMS = 8
PERCUSSION_LABELS = {"clap": "CLAP", "slap": "SLAP", "table": "TABLE", "stamp": "STAMP",
                     "snap": "SNAP", "dice": "DICE", "dice_roll": "DICE_ROLL",
                     "squeak": "SQUEAK"}
DEFAULT_PLAYERS = ("Anna", "Ben", "Cem", "Jörg")
# syllables in time (decision 28): real groups keep each syllable within tens of ms
SYLLABLE_JITTER_S = 0.005  # a voice's later syllable lands within +/- this of the
#                            reference voice's (plus the voice's own spread)
SYLLABLE_FADE_S = 0.004    # linear cross-fade at each syllable cut: no clicks, and an
#                            unmoved cut gives back the clip sample for sample


class RenderError(ValueError):
    """Options or a mistake that cannot be rendered; the message is one line."""


@dataclass(frozen=True)
class Mistake:
    """A mistake to inject: `kind` (one of MISTAKE_KINDS) at slot index `slot`."""

    kind: str
    slot: int

    @classmethod
    def parse(cls, text: str) -> Mistake:
        """Parse 'KIND@SLOT', e.g. 'off_beat@5'."""
        kind, sep, slot = text.strip().partition("@")
        if not sep or kind not in MISTAKE_KINDS or not slot.isdigit():
            raise RenderError(f"bad mistake {text!r}: use KIND@SLOT with KIND one of "
                              + ", ".join(MISTAKE_KINDS))
        return cls(kind, int(slot))


@dataclass(frozen=True)
class RenderOptions:
    """How to render a performance.

    `voices` group members speak together (1-4 is typical); `split` chooses
    their voices from the library's "train" or "test" voices (or "any");
    `voice_ids` names them explicitly instead. `snr_db` None renders clean.
    `jitter_ms` is the standard deviation of each slot's timing error
    (clipped at two of them); `spread_ms` the largest onset spread between the
    voices of one slot; `drift_pct` the tempo change from the first to the last
    beat. `seed` is only recorded in the truth. `syllables_in_time` cuts the
    other voices' clips at their syllables and places each syllable on the
    earliest voice's (plus the voice's spread and `SYLLABLE_JITTER_S`); off, a
    voice says its whole clip at its own rate (decision 28).
    """

    period_s: float = 1.2
    voices: int = 3
    snr_db: float | None = None
    noise: str = "pink"
    reverb: bool = False
    jitter_ms: float = 0.0
    drift_pct: float = 0.0
    spread_ms: float = 15.0
    mistake: Mistake | None = None
    split: str = "train"
    voice_ids: tuple[str, ...] | None = None
    percussion: bool = True
    lead_in_s: float = 1.5  # the room is heard before the lead starts
    tail_s: float = 1.0
    seed: int | None = None
    syllables_in_time: bool = False  # decision 28: keep every voice's syllables in time

    def check(self) -> None:
        """Raise RenderError for options out of range."""
        if not 0.3 <= self.period_s <= 10.0:
            raise RenderError(f"period {self.period_s} s is out of range (0.3-10 s)")
        if not 1 <= self.voices <= 12:
            raise RenderError(f"voices must be 1-12, not {self.voices}")
        if self.noise not in NOISE_KINDS:
            raise RenderError(f"unknown noise {self.noise!r} (use {', '.join(NOISE_KINDS)})")
        if self.snr_db is not None and not -20.0 <= self.snr_db <= 80.0:
            raise RenderError(f"SNR {self.snr_db} dB is out of range (-20 to 80)")
        if self.jitter_ms < 0 or self.spread_ms < 0:
            raise RenderError("jitter and spread must not be negative")
        if not -50.0 <= self.drift_pct <= 50.0:
            raise RenderError(f"drift {self.drift_pct} % is out of range (-50 to 50)")
        if self.split not in ("train", "test", "any"):
            raise RenderError(f"unknown voice split {self.split!r} (train, test, any)")


@dataclass(frozen=True)
class _Segment:
    """A part of a placed clip, moved in time (one syllable, syllables in time)."""

    first: int      # [samples] the part's first sample in the clip
    stop: int       # [samples] one past its last sample in the clip
    shift: int      # [samples] how far it moves from where the whole clip puts it
    fade_in: int    # [samples] linear fade-in at its start (0: none)
    fade_out: int   # [samples] linear fade-out at its end (0: none)


@dataclass
class _Placement:
    """One clip placed in the mixture."""

    start: int                 # [samples] where the clip's first sample goes
    clip: ClipInfo
    gain_db: float
    segments: tuple[_Segment, ...] = ()  # empty: the whole clip as it is

    @property
    def end(self) -> int:
        """One past the last sample it sounds in the mixture [samples]."""
        if not self.segments:
            return self.start + self.clip.n_samples
        return self.start + max(seg.stop + seg.shift for seg in self.segments)

    def syllable_onsets_s(self, sr: int) -> list[float]:
        """Where the clip's syllables start in the mixture [s] (its onset if it has none)."""
        times = self.clip.syllable_onsets_s or (self.clip.onset_s,)
        shifts = [seg.shift for seg in self.segments] or [0] * len(times)
        return [(self.start + shift) / sr + t for t, shift in zip(times, shifts)]


@dataclass
class _SlotRender:
    """What was placed for one slot (becomes the slot's truth)."""

    placements: list[_Placement] = field(default_factory=list)
    members: list[int] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    kind: str | None = None
    modifier: str | None = None
    voice_onsets_s: list[float] = field(default_factory=list)
    voice_syllable_onsets_s: list[list[float]] = field(default_factory=list)
    syllable_onsets_s: list[float] = field(default_factory=list)
    squeak_onsets_s: list[float] = field(default_factory=list)
    percussion: list[dict] = field(default_factory=list)
    end_s: float | None = None


# ------------------------------------------------------------------ public API

def render_performance(perf: Performance, clips: ClipLibrary, rng: np.random.Generator,
                       options: RenderOptions | None = None) -> tuple[np.ndarray, int, dict]:
    """Render one performance and its ground truth.

    Parameters
    ----------
    perf : the compiled performance (`compile_performance`)
    clips : the clip library
    rng : the only source of randomness
    options : render options (default `RenderOptions()`)

    Returns
    -------
    samples : np.ndarray, shape (n,), float32 mono in [-1, 1]
    sr : int, sample rate [Hz] (the library's)
    truth : dict, the ground truth (`docs/truth-format.md`)

    Raises
    ------
    RenderError
        For bad options, a mistake that does not fit its slot, or names/voices
        the library lacks.
    """
    options = options or RenderOptions()
    options.check()
    sr = clips.sample_rate
    slots = perf.slots
    mistake = options.mistake
    if mistake is not None:
        check_mistake(slots, mistake)
    players = tuple(perf.players) or DEFAULT_PLAYERS
    voice_ids = choose_voices(clips, options, rng)
    member_gain_db = rng.uniform(-MEMBER_GAIN_SPREAD_DB, MEMBER_GAIN_SPREAD_DB, len(voice_ids))
    whisper_voices = clips.voice_ids(whisper=True)
    renderer = _Renderer(clips, rng, options, voice_ids, member_gain_db, whisper_voices,
                         players, whispered_rules=_whisper_mode(perf))

    period_factors = period_factors_for(slots, options, mistake)
    grid_s = grid_times_s(period_factors, options.period_s, options.lead_in_s)
    nominal_grid_s = grid_times_s(period_factors_for(slots, options, None), options.period_s,
                                  options.lead_in_s)
    # one independent stream per slot: a mistake changes its own slot and nothing else
    slot_seeds = rng.integers(0, 2**63 - 1, size=len(slots))
    pause_s: dict[int, float] = {}  # canon voice -> free-timing pauses so far
    last_voice = _last_slot_is_shared_final(perf)
    slot_truths = []
    for i, slot in enumerate(slots):
        lane = slot.voice
        if last_voice and i == len(slots) - 1:
            offset_s = max(pause_s.values(), default=0.0)  # the shared final waits for all
        else:
            offset_s = pause_s.get(lane, 0.0)
        actual_s = grid_s[slot.beat] + offset_s
        expected_s = nominal_grid_s[slot.beat] + offset_s
        this_mistake = mistake.kind if mistake is not None and mistake.slot == slot.index else None
        slot_rng = np.random.default_rng(int(slot_seeds[i]))
        placed = renderer.render_slot(slot, perf, actual_s, this_mistake, slot_rng)
        free_pause = None
        if slot.expected.free_timing:
            free_pause = free_timing_pause_s(slot, placed, actual_s, grid_s, options, slot_rng)
            pause_s[lane] = pause_s.get(lane, 0.0) + free_pause
        slot_truths.append(_slot_truth(slot, expected_s, placed, this_mistake, free_pause))

    clean = mix(renderer.all_placements(), clips, sr, options.tail_s)
    signal = clean
    reverb_truth = None
    if options.reverb:
        ir, reverb_truth = reverb_impulse_response(rng, sr)
        signal = convolve_fft(clean, ir)[: len(clean)]
    noise_truth = None
    if options.snr_db is not None:
        noise = make_noise(options.noise, len(signal), sr, rng, clips)
        noise = scale_to_snr(signal, noise, options.snr_db)
        noise_truth = {"kind": options.noise, "snr_db": options.snr_db,
                       "snr_db_achieved": round(snr_db(signal, noise), 3)}
        signal = signal + noise
    samples, gain_db = limit_peak(signal)

    truth = {
        "schema": TRUTH_SCHEMA,
        "sample_rate": sr,
        "duration_s": round(len(samples) / sr, 6),
        "period_s": options.period_s,
        "seed": options.seed,
        "options": _options_json(options),
        "mode": perf.mode,
        "challenge": perf.challenge,
        "performance": perf.number,
        "cards": list(perf.cards_in_play),
        "players": list(players),
        "group": [{"member": k, "voice": v, "gain_db": round(float(g), 3)}
                  for k, (v, g) in enumerate(zip(voice_ids, member_gain_db))],
        "mistake": _mistake_json(mistake, slots, period_factors, renderer),
        "noise": noise_truth,
        "reverb": reverb_truth,
        "output_gain_db": round(gain_db, 3),
        "slots": slot_truths,
        "words": _flat_words(slot_truths),
        "percussion": _flat_percussion(slot_truths),
    }
    return samples, sr, truth


def check_mistake(slots: Sequence[Slot], mistake: Mistake) -> None:
    """Raise RenderError unless `mistake` can be injected at its slot."""
    if not 0 <= mistake.slot < len(slots):
        raise RenderError(f"mistake slot {mistake.slot} is out of range (0-{len(slots) - 1})")
    slot = slots[mistake.slot]
    expected = slot.expected
    kind = mistake.kind
    where = f"{kind}@{mistake.slot}"
    if slot.role is not Role.CARD:
        raise RenderError(f"{where}: mistakes go on card slots, not the {slot.role.value}")
    sounding = expected.sound in (Sound.MZKZ, Sound.WORD, Sound.NONVERBAL)
    if kind in ("missing", "wrong_word", "off_beat") and not sounding:
        raise RenderError(f"{where}: nothing is due in that slot ({expected.item()})")
    if kind == "unexpected_sound" and expected.sound is not Sound.SILENCE:
        raise RenderError(f"{where}: that slot is not a silence ({expected.item()})")
    if kind == "wrong_dynamics" and expected.modifier not in (
            Modifier.QUIET, Modifier.LOUD, Modifier.HIGH, Modifier.WHISPER):
        raise RenderError(f"{where}: no quiet/loud/high/whisper is due there ({expected.item()})")
    if kind == "wrong_dynamics" and expected.modifier is Modifier.WHISPER and \
            (expected.sound is Sound.NONVERBAL or set(expected.labels) == {"SHH"}):
        # SHH, a kiss, a squeak have no voice to drop: said as ever, they fulfil a whisper
        raise RenderError(f"{where}: {expected.item()} sounds the same whispered or not")
    if kind in ("off_beat", "missing", "unexpected_sound") and _follows_free_timing(slots, slot):
        # (a word left out there only makes the free pause longer, a sound in a
        # silence there is the next word said early: the referee sees the mistake
        # at the first later slot whose content differs)
        raise RenderError(f"{where}: the slot after a free-timing card sets the beat anew")


# ------------------------------------------------------------------ timing

def period_factors_for(slots: Sequence[Slot], options: RenderOptions,
                       mistake: Mistake | None) -> np.ndarray:
    """Length of every beat's period as a multiple of T (index = beat).

    The drift option stretches periods linearly from 1 at beat 0 to
    1 + drift_pct/100 at the last beat; a tempo_drift mistake then lengthens
    every period from its slot's beat on by 5 % more than the one before.
    """
    n_beats = max(s.beat for s in slots) + 1
    beats = np.arange(n_beats, dtype=np.float64)
    factors = 1.0 + (options.drift_pct / 100.0) * beats / max(1, n_beats - 1)
    if mistake is not None and mistake.kind == "tempo_drift":
        start = slots[mistake.slot].beat
        steps = np.clip((beats - start + 1) * TEMPO_DRIFT_STEP, 0.0, TEMPO_DRIFT_CAP)
        factors = factors * (1.0 + np.where(beats >= start, steps, 0.0))
    return factors


def grid_times_s(period_factors: np.ndarray, period_s: float, lead_in_s: float) -> np.ndarray:
    """Start time of every beat [s]: beat b starts after the periods of beats 0..b-1."""
    lengths = period_factors * period_s
    return lead_in_s + np.concatenate([[0.0], np.cumsum(lengths)[:-1]])


def free_timing_pause_s(slot: Slot, placed: _SlotRender, expected_s: float, grid_s: np.ndarray,
                        options: RenderOptions, rng: np.random.Generator) -> float:
    """Extra pause after a free-timing slot: enough for its sound to end, plus a random rest."""
    beat = slot.beat
    period_here_s = grid_s[beat + 1] - grid_s[beat] if beat + 1 < len(grid_s) else options.period_s
    next_beat_s = expected_s + period_here_s
    overhang = 0.0
    if placed.end_s is not None:
        overhang = max(0.0, placed.end_s + MIN_FREE_GAP_S - next_beat_s)
    return float(overhang + rng.uniform(*FREE_PAUSE_PERIODS) * options.period_s)


def _follows_free_timing(slots: Sequence[Slot], slot: Slot) -> bool:
    """True when a free-timing card comes before `slot` with only silences between.

    A silence cannot anchor the beat, so the free time lasts until the next sound.
    """
    earlier = [s for s in slots if s.voice == slot.voice and s.beat < slot.beat]
    for before in reversed(earlier):
        if before.expected.free_timing:
            return True
        if before.expected.sound is not Sound.SILENCE:
            return False
    return False


def _last_slot_is_shared_final(perf: Performance) -> bool:
    return perf.voices > 1 and perf.slots[-1].role is Role.FINAL


def _whisper_mode(perf: Performance) -> bool:
    """True under challenge 1 rules: every voiced slot carries the whisper modifier."""
    voiced = [s for s in perf.slots if s.expected.voiced]
    return bool(voiced) and all(s.expected.modifier is Modifier.WHISPER for s in voiced)


# ------------------------------------------------------------------ placing slots

class _Renderer:
    """Places the clips of each slot; holds the group and every placement so far."""

    def __init__(self, clips: ClipLibrary, rng: np.random.Generator, options: RenderOptions,
                 voice_ids: list[str], member_gain_db: np.ndarray, whisper_voices: list[str],
                 players: tuple[str, ...], whispered_rules: bool) -> None:
        self.clips = clips
        self.rng = rng
        self.options = options
        self.voice_ids = voice_ids
        self.member_gain_db = member_gain_db
        self.whisper_voices = whisper_voices or voice_ids
        self.players = players
        self.whispered_rules = whispered_rules
        self.sr = clips.sample_rate
        self.renders: list[_SlotRender] = []
        self.wrong_label: str | None = None
        self.off_beat_shift_s: float | None = None
        self.syllable_rng: np.random.Generator | None = None

    def all_placements(self) -> list[_Placement]:
        """Every clip placed so far."""
        return [p for r in self.renders for p in r.placements]

    # -- which group members perform a slot
    def members_of(self, slot: Slot, perf: Performance) -> list[int]:
        """Group members performing `slot` (member i plays player i)."""
        n = len(self.voice_ids)
        if slot.performer is not None:
            return [slot.performer % n]
        if perf.voices > 1 and not (slot.role is Role.FINAL and slot is perf.slots[-1]):
            return [slot.voice % n]  # one canon voice (a team or a person)
        return list(range(n))

    def render_slot(self, slot: Slot, perf: Performance, expected_s: float,
                    mistake: str | None, rng: np.random.Generator) -> _SlotRender:
        """Place whatever `slot` (with an injected `mistake`) sounds like, drawing from `rng`."""
        self.rng = rng
        # syllables in time draw from a stream of their own, so that everything
        # else in the slot (clips, gains, percussion) is what the option off draws
        self.syllable_rng = rng.spawn(1)[0] if self.options.syllables_in_time else None
        out = _SlotRender()
        self.renders.append(out)
        expected = slot.expected
        members = self.members_of(slot, perf)
        jitter_s = self._jitter_s()
        onset_s = expected_s + jitter_s
        if mistake == "off_beat":
            magnitude = max(OFF_BEAT_MIN_S, OFF_BEAT_PERIODS * self.options.period_s)
            self.off_beat_shift_s = float(magnitude * self.rng.choice((-1.0, 1.0)))
            onset_s += self.off_beat_shift_s
        if mistake == "missing":
            return out
        if slot.role is Role.FINAL:
            self._place_final(out, members, onset_s)
            return out
        if mistake == "unexpected_sound":
            self._place_voices(out, members, [MIEZEKATZE] * len(members), None, onset_s)
            return out
        if mistake == "wrong_word":
            label = self._wrong_label(expected)
            self.wrong_label = label
            self._place_voices(out, members, [label] * len(members), None, onset_s)
            self._place_percussion(out, slot, onset_s)
            return out
        modifier = None if mistake == "wrong_dynamics" else expected.modifier
        if expected.sound is Sound.NONVERBAL:
            self._place_nonverbal(out, slot, members, expected.text, onset_s)
        elif expected.voiced:
            self._place_words(out, slot, members, modifier, onset_s)
        self._place_percussion(out, slot, onset_s)  # silence slots may still hear a dice roll
        return out

    def _jitter_s(self) -> float:
        sd_s = self.options.jitter_ms / 1000.0
        if sd_s <= 0:
            return 0.0
        return float(np.clip(self.rng.normal(0.0, sd_s), -2 * sd_s, 2 * sd_s))

    def _wrong_label(self, expected) -> str:
        labels = set(expected.labels)
        if expected.sound is Sound.MZKZ or MIEZEKATZE in labels:
            return str(self.rng.choice([w for w in WRONG_FOR_MZKZ if w not in labels]))
        return MIEZEKATZE

    # -- words
    def _place_words(self, out: _SlotRender, slot: Slot, members: list[int],
                     modifier: Modifier | None, onset_s: float) -> None:
        expected = slot.expected
        choices = [self._resolve_name(label) for label in expected.labels]
        group_label = str(self.rng.choice(choices))  # 39, 43: the group's choice
        labels = [group_label] * len(members)
        if slot.card == "13" and slot.performer is None:
            labels = [self.players[m % len(self.players)].upper() for m in members]
        if "SQUEAK" in expected.alternatives and len(members) > 1 and 0 in members:
            # 09: the lead squeaks while the others call the lead's name
            callers = [m for m in members if m != 0]
            name = self._resolve_name(expected.text)
            self._place_voices(out, callers, [name] * len(callers), modifier, onset_s)
            self._place_squeaks(out, onset_s + float(self.rng.uniform(0.0, 0.05)),
                                int(self.rng.integers(2, 4)))
            out.kind = "mixed"
            return
        if group_label == "SQUEAK":
            self._place_squeaks(out, onset_s, int(self.rng.integers(2, 4)))
            return
        self._place_voices(out, members, labels, modifier, onset_s)

    def _resolve_name(self, label: str) -> str:
        """The NAME placeholder (no players known to the compiler) becomes the lead's name."""
        return self.players[0].upper() if label == NAME else label

    def _place_voices(self, out: _SlotRender, members: list[int], labels: list[str],
                      modifier: Modifier | None, onset_s: float) -> None:
        """Every member says its label; the earliest voice's onset lands on `onset_s`."""
        spreads_s = self._voice_spreads_s(len(members))
        placed: list[_Placement] = []
        for member, label, spread_s in zip(members, labels, spreads_s):
            taken = {p.clip.id for p in out.placements}
            clip = self._pick_voice_clip(member, label, modifier, taken)
            gain_db = (float(self.member_gain_db[member])
                       + MODIFIER_GAIN_DB.get(modifier, 0.0)
                       + float(self.rng.uniform(-SLOT_GAIN_SPREAD_DB, SLOT_GAIN_SPREAD_DB)))
            placement = self._place(out, clip, onset_s + spread_s, gain_db)
            placed.append(placement)
            out.members.append(member)
            out.labels.append(label)
            onset = self._onset_of(placement)
            out.voice_onsets_s.append(onset)
            if onset == min(out.voice_onsets_s):
                out.syllable_onsets_s = [onset + (s - clip.onset_s)
                                         for s in clip.syllable_onsets_s]
        if self.syllable_rng is not None:
            self._keep_syllables_in_time(out, placed, self.syllable_rng)
        out.voice_syllable_onsets_s.extend(p.syllable_onsets_s(self.sr) for p in placed)
        out.kind = out.kind or ("nonverbal" if all(c.kind == "nonverbal" for c in
                                                   (p.clip for p in out.placements)) else "voice")
        out.modifier = modifier.value if modifier else None

    def _keep_syllables_in_time(self, out: _SlotRender, placed: list[_Placement],
                                rng: np.random.Generator) -> None:
        """Cut the other voices' clips at their syllables and put each on the reference's.

        The reference is the earliest voice. Every other voice saying the same
        word with as many syllables keeps its own onset (the reference's plus
        its spread); each later syllable moves to the reference's syllable plus
        that spread plus a jitter of up to `SYLLABLE_JITTER_S`. The slot's
        syllable onsets become the earliest voice's onset of each syllable.
        """
        onsets_s = [self._onset_of(p) for p in placed]
        reference = placed[int(np.argmin(onsets_s))]
        reference_s = reference.syllable_onsets_s(self.sr)
        kept = [reference]
        for placement, onset_s in zip(placed, onsets_s):
            clip = placement.clip
            if placement is reference or clip.kind != "voice" or \
                    clip.label != reference.clip.label or \
                    len(clip.syllable_onsets_s) != len(reference_s) or len(reference_s) < 2:
                continue
            spread_s = onset_s - reference_s[0]
            jitter_s = rng.uniform(-SYLLABLE_JITTER_S, SYLLABLE_JITTER_S, len(reference_s) - 1)
            targets_s = [onset_s] + [t + spread_s + j for t, j in zip(reference_s[1:], jitter_s)]
            placement.segments = syllable_segments(clip, self.clips.audio(clip),
                                                   placement.start, targets_s, self.sr)
            kept.append(placement)
        if len(kept) > 1:
            per_voice = [p.syllable_onsets_s(self.sr) for p in kept]
            out.syllable_onsets_s = [min(times) for times in zip(*per_voice)]
            out.end_s = max(p.end for p in out.placements) / self.sr

    def _voice_spreads_s(self, n: int) -> np.ndarray:
        spreads = self.rng.uniform(0.0, self.options.spread_ms / 1000.0, n)
        return spreads - spreads.min()

    def _pick_voice_clip(self, member: int, label: str, modifier: Modifier | None,
                         taken=frozenset()) -> ClipInfo:
        """A clip of `label` in the member's voice, preferring ones that fit the period.

        Not one of the clips `taken` in the slot already, where the voice has
        another: two players never say a word with the same waveform, and two
        copies a few milliseconds apart comb-filter into a tone (a whisper's
        noise then sounded voiced, a false fail under challenge 1).
        """
        voice = self.voice_ids[member]
        mod_value = None
        if modifier in (Modifier.SLOW, Modifier.HIGH):
            mod_value = modifier.value
        if modifier is Modifier.WHISPER:
            voice = self.whisper_voices[member % len(self.whisper_voices)]
            mod_value = "whisper"
        candidates = self.clips.query(label=label, voice=voice, modifier=mod_value)
        if not candidates and mod_value == "whisper":
            candidates = self.clips.query(label=label, voice=voice)
        if not candidates:  # e.g. SHH: synthesised, not per voice
            candidates = self.clips.query(label=label, modifier=(None, mod_value))
        if not candidates:
            raise RenderError(f"the clip library has no {label!r}"
                              + (f" ({mod_value})" if mod_value else ""))
        fit_s = FIT_FRACTION * self.options.period_s
        fitting = [c for c in candidates if c.tail_s <= fit_s]
        if mod_value == "slow" or not fitting:
            # slow words are long on purpose; otherwise take the shortest there is
            fitting = [min(candidates, key=lambda c: c.tail_s)] if mod_value != "slow" \
                else candidates
        index = int(self.rng.integers(len(fitting)))
        free = [c for c in fitting[index:] + fitting[:index] if c.id not in taken]
        return free[0] if free else fitting[index]

    # -- non-verbal sounds, squeaker, percussion, final move
    def _place_nonverbal(self, out: _SlotRender, slot: Slot, members: list[int], label: str,
                         onset_s: float) -> None:
        if label == "SQUEAK":  # one squeaker: the lead presses it (once for 44)
            self._place_squeaks(out, onset_s, 1 if slot.card == "44" else
                                int(self.rng.integers(2, 4)))
            return
        variants = self.clips.query(label=label, split=self._effect_split())
        if not variants:
            raise RenderError(f"the clip library has no {label!r}")
        order = self.rng.permutation(len(variants))
        spreads_s = self._voice_spreads_s(len(members))
        gain_mod = MODIFIER_GAIN_DB[Modifier.WHISPER] if self.whispered_rules else 0.0
        for k, (member, spread_s) in enumerate(zip(members, spreads_s)):
            clip = variants[int(order[k % len(order)])]
            gain_db = float(self.member_gain_db[member]) + gain_mod
            placement = self._place(out, clip, onset_s + spread_s, gain_db)
            out.members.append(member)
            out.labels.append(label)
            out.voice_onsets_s.append(self._onset_of(placement))
            out.voice_syllable_onsets_s.append(placement.syllable_onsets_s(self.sr))
        out.kind = "nonverbal"

    def _effect_split(self) -> str | tuple[str, ...]:
        return ("train", "test") if self.options.split == "any" else self.options.split

    def _place_squeaks(self, out: _SlotRender, onset_s: float, count: int) -> None:
        squeaks = self.clips.query(label="SQUEAK", split=self._effect_split())
        time_s = onset_s
        for _ in range(count):
            clip = squeaks[int(self.rng.integers(len(squeaks)))]
            placement = self._place(out, clip, time_s, PERCUSSION_GAIN_DB + 6.0)
            onset = self._onset_of(placement)
            out.squeak_onsets_s.append(onset)
            out.percussion.append({"time_s": onset, "kind": "squeak"})
            time_s = onset + clip.tail_s + float(self.rng.uniform(0.05, 0.12))
        out.kind = out.kind or "squeak"

    def _place_percussion(self, out: _SlotRender, slot: Slot, onset_s: float) -> None:
        """The card's optional percussion: on the syllables (48, 24) or with the word."""
        kinds = slot.expected.percussion
        if not kinds or not self.options.percussion:
            return
        syllables = out.syllable_onsets_s or [onset_s]
        if len(kinds) == 4:
            times = syllables[:4]
        elif len(kinds) == 2:  # 24: on MIE and on KAT
            times = [syllables[0], syllables[2] if len(syllables) > 2 else syllables[-1]]
        else:
            times = [syllables[0]]
        gain_db = PERCUSSION_GAIN_DB + (SOFT_PERCUSSION_DB if self.whispered_rules else 0.0)
        for kind, time_s in zip(kinds, times):
            label = PERCUSSION_LABELS.get(kind, kind.upper())
            variants = self.clips.query(label=label, split=self._effect_split())
            if not variants:
                raise RenderError(f"the clip library has no percussion {kind!r}")
            clip = variants[int(self.rng.integers(len(variants)))]
            if kind == "dice_roll":
                time_s += float(self.rng.uniform(0.0, 0.15))
            else:
                time_s += float(self.rng.uniform(-PERCUSSION_SPREAD_S, PERCUSSION_SPREAD_S))
            placement = self._place(out, clip, time_s, gain_db)
            out.percussion.append({"time_s": self._onset_of(placement), "kind": kind})

    def _place_final(self, out: _SlotRender, members: list[int], onset_s: float) -> None:
        """The final move: everyone cheers (whispering under challenge 1), then claps."""
        modifier = Modifier.WHISPER if self.whispered_rules else None
        self._place_voices(out, members, [CHEER_LABEL] * len(members), modifier, onset_s)
        claps = self.clips.query(label="CLAP", split=self._effect_split())
        for delay_s in CHEER_CLAPS_S:
            clip = claps[int(self.rng.integers(len(claps)))]
            gain_db = PERCUSSION_GAIN_DB + (SOFT_PERCUSSION_DB if self.whispered_rules else 0.0)
            placement = self._place(out, clip, onset_s + delay_s, gain_db)
            out.percussion.append({"time_s": self._onset_of(placement), "kind": "clap"})

    # -- bookkeeping
    def _place(self, out: _SlotRender, clip: ClipInfo, onset_s: float,
               gain_db: float) -> _Placement:
        """Place `clip` so its true onset falls on `onset_s` (to the nearest sample)."""
        start = int(round((onset_s - clip.onset_s) * self.sr))
        if start < 0:
            raise RenderError("a sound would start before the recording; raise the lead-in")
        placement = _Placement(start, clip, gain_db)
        out.placements.append(placement)
        end_s = (start + clip.n_samples) / self.sr
        out.end_s = end_s if out.end_s is None else max(out.end_s, end_s)
        return placement

    def _onset_of(self, placement: _Placement) -> float:
        """The placed clip's true onset in the mixture [s]."""
        return placement.start / self.sr + placement.clip.onset_s


def choose_voices(clips: ClipLibrary, options: RenderOptions,
                  rng: np.random.Generator) -> list[str]:
    """The group's voices: the given ones, else distinct random non-whisper voices of the split."""
    if options.voice_ids:
        known = set(clips.voice_ids())
        unknown = [v for v in options.voice_ids if v not in known]
        if unknown:
            raise RenderError(f"unknown voice {unknown[0]!r} (known: {', '.join(sorted(known))})")
        return [options.voice_ids[k % len(options.voice_ids)] for k in range(options.voices)]
    split = ("train", "test") if options.split == "any" else options.split
    pool = clips.voice_ids(split=split, whisper=False)
    if not pool:
        raise RenderError(f"the clip library has no {options.split} voices")
    order = [pool[int(i)] for i in rng.permutation(len(pool))]
    return [order[k % len(order)] for k in range(options.voices)]


# ------------------------------------------------------------------ mixing, noise, reverb

def syllable_segments(clip: ClipInfo, audio: np.ndarray, start: int,
                      targets_s: Sequence[float], sr: int) -> tuple[_Segment, ...]:
    """Cut `clip` (placed at sample `start`) at its syllables so syllable k starts at targets_s[k].

    Each cut lies in the dip before a syllable's onset (the quietest point of
    the smooth envelope in the second half of the way from the syllable
    before); the part before fades out and the part after fades in over the
    `SYLLABLE_FADE_S` before the cut, complementary, so an unmoved cut gives
    back the clip. A part moved later leaves a gap; one moved earlier cuts
    the end of the syllable before short (one voice says one syllable at a
    time), so the new dip still comes before the onset.

    Parameters
    ----------
    clip : a clip with as many syllable onsets as `targets_s`
    audio : np.ndarray, shape (clip.n_samples,), the clip's samples
    start : [samples] where the whole clip's first sample is placed
    targets_s : [s] where each syllable's onset goes in the mixture
    sr : sample rate [Hz]

    Returns
    -------
    One `_Segment` per syllable, in order.
    """
    from beattrainer.synth.truth import ENVELOPE_WINDOW_S, short_time_energy

    onsets = [int(round(t * sr)) for t in clip.syllable_onsets_s[:len(targets_s)]]
    envelope = short_time_energy(audio, sr, ENVELOPE_WINDOW_S)
    cuts = []
    for before, onset in zip(onsets[:-1], onsets[1:]):
        low = (before + onset) // 2
        cuts.append(low + int(np.argmin(envelope[low:onset + 1])))
    fade = min(int(round(SYLLABLE_FADE_S * sr)),
               int(min(np.diff([0, *cuts, clip.n_samples]))) // 2)
    shifts = [int(round((target_s - (start + onset) / sr) * sr))
              for target_s, onset in zip(targets_s, onsets)]
    firsts = [0] + [cut - fade for cut in cuts]
    segments = []
    for k, first in enumerate(firsts):
        fade_in = fade if k > 0 else 0
        if k + 1 < len(firsts):
            # moved earlier than the syllable before would end: that one ends there
            stop = cuts[k] + min(0, shifts[k + 1] - shifts[k])
            stop = max(stop, first + fade_in + fade)
            fade_out = fade
        else:
            stop, fade_out = clip.n_samples, 0
        if start + first + shifts[k] < 0:
            raise RenderError("a syllable would start before the recording; raise the lead-in")
        segments.append(_Segment(first, stop, shifts[k], fade_in, fade_out))
    return tuple(segments)


def mix(placements: Sequence[_Placement], clips: ClipLibrary, sr: int,
        tail_s: float) -> np.ndarray:
    """Sum every placed clip (with its gain) into one float64 signal."""
    end = max((p.end for p in placements), default=0)
    out = np.zeros(end + int(tail_s * sr))
    for p in placements:
        audio = clips.audio(p.clip).astype(np.float64)
        if not p.segments:
            out[p.start:p.start + len(audio)] += audio * 10.0 ** (p.gain_db / 20.0)
            continue
        for seg in p.segments:
            part = audio[seg.first:seg.stop] * _fade_envelope(seg)
            at = p.start + seg.first + seg.shift
            out[at:at + len(part)] += part * 10.0 ** (p.gain_db / 20.0)
    return out


def _fade_envelope(segment: _Segment) -> np.ndarray:
    """Gain per sample of a segment: linear ramps whose fade-in and fade-out sum to one."""
    envelope = np.ones(segment.stop - segment.first)
    if segment.fade_in:
        envelope[:segment.fade_in] = (np.arange(segment.fade_in) + 0.5) / segment.fade_in
    if segment.fade_out:
        envelope[-segment.fade_out:] = 1.0 - (np.arange(segment.fade_out) + 0.5) / segment.fade_out
    return envelope


def make_noise(kind: str, n: int, sr: int, rng: np.random.Generator,
               clips: ClipLibrary | None = None) -> np.ndarray:
    """Noise of `kind` ("babble", "pink" or "hum"), n samples, unit-free level."""
    if kind == "pink":
        return pink_noise(n, rng)
    if kind == "hum":
        return hum_noise(n, sr, rng)
    if kind == "babble":
        if clips is None:
            raise RenderError("babble noise needs the clip library")
        return babble_noise(n, clips, rng)
    raise RenderError(f"unknown noise {kind!r}")


def pink_noise(n: int, rng: np.random.Generator) -> np.ndarray:
    """1/f noise: white noise shaped by 1/sqrt(f) in the frequency domain."""
    spectrum = np.fft.rfft(rng.standard_normal(n))
    freqs = np.arange(len(spectrum), dtype=np.float64)
    freqs[0] = 1.0
    return np.fft.irfft(spectrum / np.sqrt(freqs), n)


def hum_noise(n: int, sr: int, rng: np.random.Generator) -> np.ndarray:
    """Mains hum: 50 Hz and its harmonics with a slow wobble, plus a little hiss."""
    t = np.arange(n) / sr
    hum = np.zeros(n)
    for harmonic in range(1, 9):
        amplitude = 1.0 / harmonic ** 1.2
        hum += amplitude * np.sin(2 * np.pi * 50.0 * harmonic * t + rng.uniform(0, 2 * np.pi))
    wobble = 1.0 + 0.1 * np.sin(2 * np.pi * rng.uniform(0.1, 0.5) * t)
    return hum * wobble + 0.02 * rng.standard_normal(n)


def babble_noise(n: int, clips: ClipLibrary, rng: np.random.Generator) -> np.ndarray:
    """Many people talking: streams of random speech clips, time-shifted and summed.

    Every stream is already talking when the recording starts (it begins inside
    a clip), as the room is before a performance: no fade-in at the start.
    """
    speech = clips.query(kind="voice")
    out = np.zeros(n)
    for _ in range(BABBLE_STREAMS):
        position = -int(rng.integers(0, clips.sample_rate))  # inside its first clip
        gain = 10.0 ** (rng.uniform(-4.0, 0.0) / 20.0)
        while position < n:
            audio = clips.audio(speech[int(rng.integers(len(speech)))])
            a, b = max(0, -position), min(len(audio), n - position)  # the part inside [0, n)
            if b > a:
                out[position + a:position + b] += gain * audio[a:b]
            position += len(audio) + int(rng.uniform(0.0, 0.25) * clips.sample_rate)
    return out


def scale_to_snr(signal: np.ndarray, noise: np.ndarray, target_snr_db: float) -> np.ndarray:
    """Scale `noise` so that power(signal) / power(noise) is `target_snr_db` over the file."""
    signal_power = float(np.mean(np.square(signal)))
    noise_power = float(np.mean(np.square(noise)))
    if signal_power <= 0 or noise_power <= 0:
        raise RenderError("cannot set an SNR on silence")
    return noise * np.sqrt(signal_power / (noise_power * 10.0 ** (target_snr_db / 10.0)))


def snr_db(signal: np.ndarray, noise: np.ndarray) -> float:
    """10 log10 of the power ratio of `signal` to `noise` [dB]."""
    return float(10.0 * np.log10(np.mean(np.square(signal)) / np.mean(np.square(noise))))


def reverb_impulse_response(rng: np.random.Generator, sr: int) -> tuple[np.ndarray, dict]:
    """A simple room: the direct sound, then exponentially decaying noise.

    The tail starts 3 ms after the direct sound, so the dry onsets stay where
    they are. Returns the impulse response and its parameters for the truth.
    """
    rt60_s = float(rng.uniform(0.25, 0.6))
    drr_db = float(rng.uniform(0.0, 6.0))
    n = int(rt60_s * sr)
    t = np.arange(n) / sr
    tail = rng.standard_normal(n) * np.exp(-6.9078 * t / rt60_s)  # -60 dB at rt60
    tail[: int(0.003 * sr)] = 0.0
    tail *= np.sqrt(10.0 ** (-drr_db / 10.0) / np.sum(np.square(tail)))
    ir = tail
    ir[0] = 1.0
    return ir, {"rt60_s": round(rt60_s, 4), "direct_to_reverb_db": round(drr_db, 3)}


def convolve_fft(x: np.ndarray, h: np.ndarray) -> np.ndarray:
    """Full linear convolution via the FFT (numpy only)."""
    n = len(x) + len(h) - 1
    size = 1 << (n - 1).bit_length()
    return np.fft.irfft(np.fft.rfft(x, size) * np.fft.rfft(h, size), size)[:n]


def limit_peak(signal: np.ndarray, ceiling: float = 0.98) -> tuple[np.ndarray, float]:
    """Scale the whole signal down if it would clip; returns (float32 samples, gain [dB])."""
    peak = float(np.max(np.abs(signal), initial=0.0))
    gain = ceiling / peak if peak > ceiling else 1.0
    return (signal * gain).astype(np.float32), 20.0 * np.log10(gain)


# ------------------------------------------------------------------ truth

def _r(x: float) -> float:
    return round(float(x), 6)


def _slot_truth(slot: Slot, expected_s: float, placed: _SlotRender, mistake: str | None,
                free_pause_s: float | None) -> dict:
    voice_onsets = placed.voice_onsets_s
    sound_onsets = voice_onsets or placed.squeak_onsets_s
    has_due_sound = bool(voice_onsets or placed.squeak_onsets_s)
    return {
        "index": slot.index,
        "round": slot.round,
        "role": slot.role.value,
        "card": slot.card,
        "position": slot.position,
        "performer": slot.performer,
        "voice": slot.voice,
        "beat": slot.beat,
        "expected": slot.expected.to_json(),
        "expected_onset_s": _r(expected_s),
        "word_onset_s": _r(min(sound_onsets)) if has_due_sound else None,
        "voice_onsets_s": [_r(t) for t in voice_onsets],
        "voice_syllable_onsets_s": [[_r(t) for t in times]
                                    for times in placed.voice_syllable_onsets_s],
        "syllable_onsets_s": [_r(t) for t in placed.syllable_onsets_s],
        "end_s": _r(placed.end_s) if placed.end_s is not None else None,
        "placed": _placed_json(placed),
        "percussion": [{"time_s": _r(p["time_s"]), "kind": p["kind"]} for p in placed.percussion],
        "mistake": mistake,
        "free_pause_s": _r(free_pause_s) if free_pause_s is not None else None,
    }


def _placed_json(placed: _SlotRender) -> dict | None:
    if not placed.placements or placed.kind is None:
        return None
    vocal = [p for p in placed.placements if p.clip.kind in ("voice", "nonverbal")]
    vocal = vocal[: len(placed.members)]
    return {
        "label": placed.labels[0] if placed.labels else "SQUEAK",
        "kind": placed.kind,
        "labels": list(placed.labels),
        "clip_ids": [p.clip.id for p in vocal],
        "voices": [p.clip.voice for p in vocal],
        "members": list(placed.members),
        "gain_db": [round(p.gain_db, 3) for p in vocal],
        "modifier": placed.modifier,
    }


def _flat_words(slot_truths: list[dict]) -> list[dict]:
    words = []
    for s in slot_truths:
        if not s["voice_onsets_s"]:
            continue
        kind = "nonverbal" if s["placed"]["kind"] == "nonverbal" else "voice"
        words.append({"slot": s["index"], "label": s["placed"]["label"], "kind": kind,
                      "onset_s": min(s["voice_onsets_s"]),
                      "syllable_onsets_s": s["syllable_onsets_s"], "end_s": s["end_s"]})
    return sorted(words, key=lambda w: w["onset_s"])


def _flat_percussion(slot_truths: list[dict]) -> list[dict]:
    events = [{"slot": s["index"], **p} for s in slot_truths for p in s["percussion"]]
    return sorted(events, key=lambda e: e["time_s"])


def _options_json(options: RenderOptions) -> dict:
    out = asdict(options)
    out["mistake"] = f"{options.mistake.kind}@{options.mistake.slot}" if options.mistake else None
    out["voice_ids"] = list(options.voice_ids) if options.voice_ids else None
    return out


def _mistake_json(mistake: Mistake | None, slots: Sequence[Slot], period_factors: np.ndarray,
                  renderer: _Renderer) -> dict | None:
    if mistake is None:
        return None
    out: dict = {"kind": mistake.kind, "slot": mistake.slot}
    if mistake.kind == "wrong_word":
        out["placed_label"] = renderer.wrong_label
    if mistake.kind == "off_beat":
        out["shift_s"] = _r(renderer.off_beat_shift_s)
    if mistake.kind == "tempo_drift":
        # slot i's preceding period is the one of beat i-1; only a word the referee
        # times can show the drift (not a silence, the free final move, or the word
        # that sets the beat anew after a free-timing card)
        later = [s.index for s in slots
                 if s.beat >= 1 and period_factors[s.beat - 1] > 1.15 + 1e-9
                 and s.role is Role.CARD and s.expected.sound is not Sound.SILENCE
                 and not _follows_free_timing(slots, s)]
        out["drift_exceeds_15pct_from_slot"] = later[0] if later else None
    return out
