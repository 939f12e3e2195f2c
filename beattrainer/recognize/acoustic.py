"""Acoustic layer: what kind of sound a slot holds, and how long, loud and high it is.

It also tells how many syllables the slot has and how it compares with the group's normal
MIEZEKATZE.

Pure numpy, no I/O. Every function takes a whole slot (mono float32 at 16 kHz);
the slot recognizer buffers the streamed blocks and calls them once the slot
has ended, which costs a few milliseconds.
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace

import numpy as np

from beattrainer.dsp.features import array_percentile, float_median, rfft_padded, squared_magnitude

SAMPLE_RATE = 16_000        # [Hz] the pipeline rate
HOP_SAMPLES = 160           # [samples] 10 ms between analysis frames
FRAME_SAMPLES = 640         # [samples] 40 ms: two periods of a 50 Hz growl
FFT_SAMPLES = 1024          # zero-padded so the autocorrelation is linear up to the frame length
PITCH_RANGE_HZ = (60.0, 600.0)
VOICED_CORRELATION = 0.45   # normalised autocorrelation peak that counts as voiced
ACTIVE_ABOVE_FLOOR_DB = 6.0  # a frame this far above the noise floor carries sound
MIN_FLOOR_DBFS = -90.0
SYLLABLE_DIP_DB = 3.0       # a syllable boundary is an energy dip at least this deep
SYLLABLE_RANGE_DB = 15.0    # peaks further below the loudest are no syllables of the
                            # word (echo, breath; babble at 10 dB: 20 counted it)
MIN_SYLLABLE_GAP_S = 0.08
MIN_ACTIVE_S = 0.04         # shorter activity is treated as a glitch
TONAL_PEAK_DB = 18.0        # spectral peak over median: a squeaker's pure tone
HARMONIC_BAND_HZ = (100.0, 1500.0)  # where voiced speech shows its harmonics
HARMONIC_FLATNESS_DB = -8.0  # a frame flatter than this in the band has no harmonics
MAX_TONALITY_FEATURE_DB = 50.0
MAX_SNR_FEATURE_DB = 40.0    # the class model sees at most this much level over the floor
HARMONIC_RANGE_DB = 20.0     # frames this far below the loudest do not count for harmonicity
# The lowest voice's pitch (`lowest_voice_hz`): the autocorrelation's pitch of the word's strong
# frames, each moved an octave up while the lag half as long correlates nearly as well.
LOWEST_VOICE_RANGE_DB = 12.0  # frames further below the slot's loudest are left out: the
                              # performer's word stands 10-30 dB over a room's babble
OCTAVE_UP_RATIO = 0.8  # the half lag's correlation over the best's that takes the octave up: a
                       # mixed group's high word correlates best at twice its voices' periods
LOWEST_VOICE_PERCENTILE = 20.0  # of the frames' pitch: the lowest voice, not its slips


@dataclass(frozen=True)
class Frames:
    """Per-frame measurements of a slot, one row per 10 ms hop.

    Attributes
    ----------
    level_db : (n,) frame level [dBFS]
    voicing : (n,) normalised autocorrelation peak in the pitch range (0..1)
    pitch_hz : (n,) pitch candidate of each frame [Hz] (meaningful where voiced)
    centroid_hz : (n,) spectral centroid [Hz]
    high_ratio : (n,) share of power above 4 kHz
    tonality_db : (n,) strongest spectral peak over the median bin [dB]
    flatness_db : (n,) spectral flatness in HARMONIC_BAND_HZ [dB] (0 for white
        noise; harmonic spectra, even of several voices at once, are far lower)
    octave_pitch_hz : (n,) `pitch_hz` moved an octave up (at most twice) while the half
        lag correlates within OCTAVE_UP_RATIO of the best [Hz] (see `lowest_voice_hz`)
    """

    level_db: np.ndarray
    voicing: np.ndarray
    pitch_hz: np.ndarray
    centroid_hz: np.ndarray
    high_ratio: np.ndarray
    tonality_db: np.ndarray
    flatness_db: np.ndarray
    octave_pitch_hz: np.ndarray

    def __len__(self) -> int:
        return len(self.level_db)


@dataclass(frozen=True)
class SlotAcoustics:
    """Summary of one slot.

    Attributes
    ----------
    level_db : float or None
        Loudness of the sounding part [dBFS] (mean power of the active frames);
        None when nothing sounded.
    floor_db : float
        Noise floor used [dBFS].
    pitch_hz : float or None
        Median pitch of the voiced frames [Hz].
    duration_s : float
        From the first to the last active frame [s] (0 for silence).
    active_s, voiced_s : float
        Time with sound, and with voice [s].
    syllables : int
        Syllable count from the energy envelope (0 for silence).
    syllable_onsets_s : tuple of float
        Where each syllable starts, from the slot start [s].
    centroid_hz, high_ratio, tonality_db : float
        Spectral shape of the active frames (means).
    attack_s : float
        Time from the first active frame to the loudest one [s].
    decay_db_per_s : float
        How fast the level falls after the peak [dB/s] (impulses fall fast).
    harmonic_share : float
        Share of the strong sounding frames (within HARMONIC_RANGE_DB of the
        loudest) with harmonics (flatness in the harmonic band below
        HARMONIC_FLATNESS_DB); weak frames are left out so that room noise
        counted as sounding does not dilute it. Unlike the autocorrelation voicing it
        stays high for a mixture of several voices; whispers have almost none.
    flatness_db : float
        Power-weighted mean flatness of the harmonic band over the sounding frames [dB].
    pitch_low_hz : float or None
        The 20th percentile of the voiced frames' pitch [Hz]: in a group, the
        lowest voices' pitch, which the median (any voice's) hides.
    lowest_voice_hz : float or None
        The lowest voice's pitch of the word's strong frames, octave-checked [Hz]
        (`lowest_voice_hz`): in a group the same voices in every word, and not a
        room's babble.
    """

    level_db: float | None
    floor_db: float
    pitch_hz: float | None
    duration_s: float
    active_s: float
    voiced_s: float
    syllables: int
    syllable_onsets_s: tuple[float, ...]
    centroid_hz: float
    high_ratio: float
    tonality_db: float
    attack_s: float
    decay_db_per_s: float
    harmonic_share: float = 0.0
    flatness_db: float = 0.0
    pitch_low_hz: float | None = None
    lowest_voice_hz: float | None = None

    @property
    def sounding(self) -> bool:
        """True when anything above the noise floor was heard."""
        return self.active_s >= MIN_ACTIVE_S

    @property
    def voiced_fraction(self) -> float:
        """Share of the sounding time that was voiced (0 for silence)."""
        return self.voiced_s / self.active_s if self.active_s > 0 else 0.0

    def vector(self) -> np.ndarray:
        """The features the class model looks at (fixed order, see FEATURE_NAMES)."""
        if not self.sounding:
            return np.zeros(len(FEATURE_NAMES))
        pitch = np.log2(self.pitch_hz / 100.0) if self.pitch_hz else -1.0
        return np.array([
            np.log10(self.active_s + 0.01),
            self.voiced_fraction,
            pitch,
            self.centroid_hz / 1000.0,
            self.high_ratio,
            # capped: a pure tone in a quiet room has no measurable noise between
            # its partials; beyond this, more tonal says nothing more
            min(self.tonality_db, MAX_TONALITY_FEATURE_DB) / 10.0,
            min(self.attack_s, 0.5) * 10.0,
            float(np.clip(self.decay_db_per_s / 100.0, 0.0, 5.0)),
            # capped: a floor remembered from quieter slots (or a gain change) must
            # not push a word far outside what the class model was trained on
            min(float((self.level_db or self.floor_db) - self.floor_db), MAX_SNR_FEATURE_DB)
            / 10.0,
            self.harmonic_share,
            self.flatness_db / 10.0,
        ])


FEATURE_NAMES = ("log_active", "voiced_fraction", "log_pitch", "centroid_khz", "high_ratio",
                 "tonality", "attack", "decay", "snr", "harmonic_share", "flatness")


def analyse_frames(samples: np.ndarray) -> Frames:
    """Frame-wise level, voicing, pitch and spectral shape.

    Parameters
    ----------
    samples : np.ndarray, shape (n,)
        Mono audio at 16 kHz, float in [-1, 1].

    Returns
    -------
    Frames with one row per complete 10 ms hop (a 40 ms window ending there).
    """
    x = np.asarray(samples, dtype=np.float64)
    if len(x) < FRAME_SAMPLES:
        x = np.concatenate([x, np.zeros(FRAME_SAMPLES - len(x))])
    frames = np.lib.stride_tricks.sliding_window_view(x, FRAME_SAMPLES)[::HOP_SAMPLES]
    frames = frames - frames.mean(axis=1, keepdims=True)
    power_t = np.mean(frames**2, axis=1)
    level_db = 10.0 * np.log10(power_t + 1e-10)
    power = squared_magnitude(rfft_padded(frames, FFT_SAMPLES, _WINDOW))
    power += 1e-14
    total = power.sum(axis=1)
    centroid = (power * _FREQS_HZ).sum(axis=1) / total
    high_ratio = power[:, _HIGH_BINS].sum(axis=1) / total
    tonality = 10.0 * np.log10(power.max(axis=1) / _median_of_rows(power))
    band = power[:, _HARMONIC_BINS]
    log_band = np.log(band)
    flatness = 10.0 * (log_band.mean(axis=1) - np.log(band.mean(axis=1))) / np.log(10.0)
    # autocorrelation of the un-windowed-at-the-edges frame via the spectrum
    acf = np.fft.irfft(squared_magnitude(rfft_padded(frames, FFT_SAMPLES)), FFT_SAMPLES, axis=1)
    # normalised only where it is read: lag 0 and the pitch range
    region = acf[:, _PITCH_LAGS] / (acf[:, :1] + 1e-12) * FRAME_SAMPLES / _LAG_OVERLAPS
    best = region.argmax(axis=1)
    voicing = np.clip(region[np.arange(len(region)), best], 0.0, 1.0)
    pitch = SAMPLE_RATE / (best + _PITCH_LAGS.start)
    octave_pitch = SAMPLE_RATE / _octave_checked_lags(region, best + _PITCH_LAGS.start)
    return Frames(level_db, voicing, pitch, centroid, high_ratio, tonality, flatness,
                  octave_pitch)


def _octave_checked_lags(region: np.ndarray, lag: np.ndarray) -> np.ndarray:
    """Each frame's best lag halved, at most twice, while the half lag correlates nearly as well.

    `region`: the normalised autocorrelation over `_PITCH_LAGS`, one row per frame.
    """
    rows = np.arange(len(region))
    first, last = _PITCH_LAGS.start, _PITCH_LAGS.stop - 1
    for _ in range(2):  # at most two octaves up
        best = region[rows, lag - first]
        half = np.round(lag / 2.0).astype(int)
        inside = np.clip(half, first + 1, last - 1) - first
        near_half = region[rows[:, None], inside[:, None] + np.array([-1, 0, 1])].max(axis=1)
        lag = np.where((half > first) & (near_half >= OCTAVE_UP_RATIO * best), half, lag)
    return lag.astype(float)


def _median_of_rows(a: np.ndarray) -> np.ndarray:
    """`np.median(a, axis=1)` for rows of odd length without NaN: the middle order statistic.

    (np.median partitions the same way and takes the mean of that one element, which is
    the element; its checks and bookkeeping cost more than the partition on a slot.)
    """
    middle = a.shape[1] // 2
    return np.partition(a, middle, axis=1)[:, middle]


_WINDOW = np.hanning(FRAME_SAMPLES)
_FREQS_HZ = np.fft.rfftfreq(FFT_SAMPLES, 1.0 / SAMPLE_RATE)
# (boolean masks, not slices: a row-wise sum over a strided view adds in another order
# than over the contiguous copy a mask gives, and may differ in the last bit)
_HARMONIC_BINS = (_FREQS_HZ >= HARMONIC_BAND_HZ[0]) & (_FREQS_HZ <= HARMONIC_BAND_HZ[1])
_HIGH_BINS = _FREQS_HZ >= 4000.0
# the autocorrelation's lags of a pitch in PITCH_RANGE_HZ, and how many samples of a frame
# overlap at each (the normalisation makes up for the overlap that shrinks with the lag)
_PITCH_LAGS = slice(int(SAMPLE_RATE / PITCH_RANGE_HZ[1]), int(SAMPLE_RATE / PITCH_RANGE_HZ[0]))
_LAG_OVERLAPS = np.maximum(FRAME_SAMPLES - np.arange(FRAME_SAMPLES), 1)[_PITCH_LAGS]


def estimate_floor_db(level_db: np.ndarray) -> float:
    """Noise floor of a slot: the 10th percentile of frame levels [dBFS]."""
    if len(level_db) == 0:
        return MIN_FLOOR_DBFS
    return max(array_percentile(level_db, 10), MIN_FLOOR_DBFS)


def count_syllables(level_db: np.ndarray, active: np.ndarray) -> list[int]:
    """Frame index where each syllable starts: envelope peaks separated by dips.

    Two neighbouring peaks count as two syllables when the level between them
    dips at least SYLLABLE_DIP_DB below the smaller one (or falls silent) and
    they lie MIN_SYLLABLE_GAP_S apart; peaks more than SYLLABLE_RANGE_DB below
    the loudest are ignored (echo, breath, the room's babble).

    Parameters
    ----------
    level_db : (n,) frame levels [dB]
    active : (n,) bool, frames above the noise floor

    Returns
    -------
    list of int, the frame where every syllable starts (the dip before its peak,
    or its first active frame)
    """
    if not active.any():
        return []
    smooth = np.convolve(level_db, np.ones(5) / 5.0, mode="same")[: len(level_db)]
    smooth = np.where(active, smooth, -200.0)
    inner = smooth[1:-1]
    is_peak = (inner >= smooth[:-2]) & (inner > smooth[2:]) & active[1:-1]
    peaks = [int(i) + 1 for i in np.flatnonzero(is_peak)]
    loudest = smooth.max()
    peaks = [p for p in peaks if smooth[p] >= loudest - SYLLABLE_RANGE_DB]
    min_gap = int(MIN_SYLLABLE_GAP_S * SAMPLE_RATE / HOP_SAMPLES)
    kept: list[int] = []
    for p in peaks:
        if not kept:
            kept.append(p)
            continue
        q = kept[-1]
        dip = smooth[q:p + 1].min()
        separated = dip <= min(smooth[q], smooth[p]) - SYLLABLE_DIP_DB
        if separated and p - q >= min_gap:
            kept.append(p)
        elif smooth[p] > smooth[q]:
            kept[-1] = p  # same syllable, louder peak
    starts = []
    for n, p in enumerate(kept):
        lo = kept[n - 1] if n else int(np.flatnonzero(active)[0])
        segment = smooth[lo:p + 1]
        gap = np.flatnonzero(segment <= -200.0)
        if n == 0:
            starts.append(lo)
        elif len(gap):
            starts.append(lo + int(gap[-1]) + 1)  # first active frame after a silent gap
        else:
            starts.append(lo + int(np.argmin(segment)))
    return starts


def frame_rows(samples: np.ndarray) -> tuple[np.ndarray, ...]:
    """`analyse_frames` as a tuple of its arrays, in the order of `Frames`' fields."""
    frames = analyse_frames(samples)
    return tuple(getattr(frames, field.name) for field in fields(Frames))


def describe_slot(samples: np.ndarray, floor_db: float | None = None,
                  frames: Frames | None = None) -> SlotAcoustics:
    """Summarise one slot's audio.

    Parameters
    ----------
    samples : np.ndarray, shape (n,)
        Mono audio at 16 kHz.
    floor_db : float, optional
        Noise floor known from earlier slots [dBFS]; by default estimated from
        this slot alone (which fails when the sound fills the whole slot).
    frames : Frames, optional
        `analyse_frames(samples)` where the caller has it already.

    Returns
    -------
    SlotAcoustics
    """
    if frames is None:
        frames = analyse_frames(samples)
    own_floor = estimate_floor_db(frames.level_db)
    floor = own_floor if floor_db is None else min(floor_db, own_floor + 3.0)
    active = frames.level_db > floor + ACTIVE_ABOVE_FLOOR_DB
    active = _drop_short_runs(active, int(MIN_ACTIVE_S * SAMPLE_RATE / HOP_SAMPLES))
    hop_s = HOP_SAMPLES / SAMPLE_RATE
    if not active.any():
        return SlotAcoustics(None, floor, None, 0.0, 0.0, 0.0, 0, (), 0.0, 0.0, 0.0, 0.0, 0.0)
    power = 10.0 ** (frames.level_db[active] / 10.0)
    idx = np.flatnonzero(active)
    voiced = active & (frames.voicing >= VOICED_CORRELATION)
    level = float(10.0 * np.log10(np.mean(power)))
    pitch = float_median(frames.pitch_hz[voiced]) if voiced.sum() >= 3 else None
    pitch_low = array_percentile(frames.pitch_hz[voiced], 20) if pitch else None
    starts = count_syllables(frames.level_db, active)
    # frame i covers samples [i*hop, i*hop + frame); report onsets at the window's end
    offset_s = (FRAME_SAMPLES - HOP_SAMPLES) / SAMPLE_RATE
    onsets = tuple(round(i * hop_s + offset_s, 3) for i in starts)
    loud = idx[np.argmax(frames.level_db[idx])]
    after = frames.level_db[loud: idx[-1] + 1]
    decay_frames = np.flatnonzero(after < after[0] - 15.0)
    decay = 15.0 / (max(int(decay_frames[0]), 1) * hop_s) if len(decay_frames) else 0.0
    return SlotAcoustics(
        level_db=level,
        floor_db=float(floor),
        pitch_hz=pitch,
        duration_s=float((idx[-1] - idx[0] + 1) * hop_s),
        active_s=float(active.sum() * hop_s),
        voiced_s=float(voiced.sum() * hop_s),
        syllables=len(starts),
        syllable_onsets_s=onsets,
        centroid_hz=float(np.mean(frames.centroid_hz[active])),
        high_ratio=float(np.mean(frames.high_ratio[active])),
        tonality_db=float(np.mean(frames.tonality_db[active])),
        attack_s=float((loud - idx[0]) * hop_s),
        decay_db_per_s=float(decay),
        harmonic_share=_harmonic_share(frames, active),
        flatness_db=float(np.sum(frames.flatness_db[active] * power) / np.sum(power)),
        pitch_low_hz=pitch_low,
        lowest_voice_hz=lowest_voice_hz(frames, voiced, active) if pitch else None,
    )


def lowest_voice_hz(frames: Frames, voiced: np.ndarray, active: np.ndarray) -> float | None:
    """The lowest voice's pitch [Hz]: a low percentile of the strong frames' octave-checked pitch.

    Unlike `pitch_low_hz` it leaves out voiced frames more than LOWEST_VOICE_RANGE_DB below
    the word's loudest (a room's babble had pulled a female voice's low pitch to its male
    voices) and takes each frame's pitch an octave up while the half lag correlates within
    OCTAVE_UP_RATIO of the best lag (`Frames.octave_pitch_hz`): a mixed group's high word
    (the males at 145 Hz, the female at 275) correlates best near 75 Hz, where its normal
    word's male voices lie (decision 82).
    """
    strong = voiced & (frames.level_db >= frames.level_db[active].max() - LOWEST_VOICE_RANGE_DB)
    if strong.sum() < 3:
        return None
    return array_percentile(frames.octave_pitch_hz[strong], LOWEST_VOICE_PERCENTILE)


def _harmonic_share(frames: Frames, active: np.ndarray) -> float:
    """Share of the strong sounding frames that show harmonics."""
    level = frames.level_db[active]
    strong = level >= level.max() - HARMONIC_RANGE_DB
    return float(np.mean(frames.flatness_db[active][strong] < HARMONIC_FLATNESS_DB))


def _drop_short_runs(mask: np.ndarray, min_frames: int) -> np.ndarray:
    """Clear runs of True shorter than `min_frames` (clicks of one frame, glitches)."""
    out = mask.copy()
    edges = np.flatnonzero(np.diff(np.concatenate([[0], mask.astype(int), [0]])))
    for start, stop in zip(edges[::2], edges[1::2]):
        if stop - start < min_frames:
            out[start:stop] = False
    return out


# ---------------------------------------------------------------- dynamics

QUIET_BELOW_DB = 6.0    # a quiet word is at least this much softer than the normal one
LOUD_ABOVE_DB = 4.0     # a loud word is at least this much louder
HIGH_ABOVE_SEMITONES = 3.0
SLOW_LONGER_RATIO = 1.3
# Whisper: a logistic regression on (harmonic_share, voiced_fraction), fitted on
# rendered train-voice performances (1-4 voices, 10-30 dB pink and babble).
# Voicing (autocorrelation) is what a whisper lacks; harmonic flatness alone
# took whispered vowels (strong formants, no pitch) and short words over pink
# noise for voiced. The harmonic share keeps mixtures of 3-4 normal voices,
# whose autocorrelation voicing drops, from looking whispered. The fusion
# moves the decision threshold with what is due (see fusion.WHISPER_SCORE).
WHISPER_WEIGHTS = (-2.0, -12.0, 3.5)  # per harmonic_share, per voiced_fraction, bias


@dataclass(frozen=True)
class GroupProfile:
    """The group's own normal MIEZEKATZE in this performance (from the solos).

    Attributes
    ----------
    level_db : float [dBFS]
    pitch_hz : float or None [Hz]
    duration_s : float [s]
    floor_db : float or None, the room's noise floor [dBFS]
    pitch_low_hz : float or None, the lowest voices' pitch [Hz]
    lowest_voice_hz : float or None, the lowest voice's octave-checked pitch [Hz]
    lead_alone : bool, the reference is the lead's solos, and the slot judged
        against it is the whole group's (see `reference_profile`)
    """

    level_db: float
    pitch_hz: float | None
    duration_s: float
    floor_db: float | None = None
    pitch_low_hz: float | None = None
    lead_alone: bool = False
    lowest_voice_hz: float | None = None

    @classmethod
    def from_acoustics(cls, solos: list[SlotAcoustics]) -> GroupProfile:
        """Profile from the acoustics of the normal solo MIEZEKATZEs."""
        sounding = [a for a in solos if a.sounding and a.level_db is not None]
        if not sounding:
            raise ValueError("no sounding solo to take the group's normal voice from")
        pitches = [a.pitch_hz for a in sounding if a.pitch_hz]
        lows = [a.pitch_low_hz for a in sounding if a.pitch_low_hz]
        lowest = [a.lowest_voice_hz for a in sounding if a.lowest_voice_hz]
        return cls(
            level_db=float(np.mean([a.level_db for a in sounding])),
            pitch_hz=float_median(pitches) if pitches else None,
            duration_s=float(np.mean([a.duration_s for a in sounding])),
            floor_db=float(min(a.floor_db for a in sounding)),
            pitch_low_hz=float_median(lows) if lows else None,
            lowest_voice_hz=float_median(lowest) if lowest else None,
        )


REFERENCE_SLOTS = 5  # the group's normal voice: its last few normal words


def reference_profile(normal: list[tuple[int | None, SlotAcoustics]], performer: int | None,
                      group: GroupProfile | None) -> GroupProfile | None:
    """The normal voice a slot's quiet, loud and high are judged against.

    `normal` holds (performer, acoustics) of the words heard said normally so
    far, oldest first. The performer's own last few are the reference where
    there are any, else anyone's; the level and pitch come from them, the
    duration and floor from `group` (the solos) when given. Without any normal
    word yet, `group` itself. Where the whole group performs the slot
    (`performer` None) but only single players were heard so far (the lead's
    solos), the profile is marked `lead_alone`: one voice against several,
    whose normal word is up to 6 dB louder (four voices) and whose pitch is a
    mixture.
    """
    mine = [a for who, a in normal if who == performer][-REFERENCE_SLOTS:]
    recent = mine or [a for _, a in normal][-REFERENCE_SLOTS:]
    lead_alone = performer is None and not mine
    if not recent:
        return replace(group, lead_alone=lead_alone) if group else None
    pitches = [a.pitch_hz for a in recent if a.pitch_hz]
    pitch = float_median(pitches) if pitches else (group.pitch_hz if group else None)
    lows = [a.pitch_low_hz for a in recent if a.pitch_low_hz]
    low = float_median(lows) if lows else (group.pitch_low_hz if group else None)
    lowest = [a.lowest_voice_hz for a in recent if a.lowest_voice_hz]
    return GroupProfile(
        level_db=float_median([a.level_db for a in recent]),
        pitch_hz=pitch,
        pitch_low_hz=low,
        duration_s=group.duration_s if group else float(np.median(
            [a.duration_s for a in recent])),
        floor_db=group.floor_db if group else None,
        lead_alone=lead_alone,
        lowest_voice_hz=float_median(lowest) if lowest else (
            group.lowest_voice_hz if group else None),
    )


def dynamics_scores(acoustics: SlotAcoustics, group: GroupProfile) -> dict[str, float]:
    """How strongly each modifier is realised, relative to the group's normal word.

    Returns
    -------
    dict from modifier name ("quiet", "loud", "high", "slow", "whisper") to a
    score in 0..1 (0.5 at the decision threshold).
    """
    if not acoustics.sounding or acoustics.level_db is None:
        return {m: 0.0 for m in ("quiet", "loud", "high", "slow", "whisper")}
    level_change = acoustics.level_db - group.level_db
    scores = {
        "quiet": _logistic((-level_change - QUIET_BELOW_DB) / 1.5),
        "loud": _logistic((level_change - LOUD_ABOVE_DB) / 1.0),
        "slow": _logistic((acoustics.duration_s / max(group.duration_s, 0.05)
                           - SLOW_LONGER_RATIO) / 0.08),
        "whisper": whisper_score(acoustics),
    }
    scores["high"] = _logistic((pitch_rise_semitones(acoustics, group) - HIGH_ABOVE_SEMITONES)
                               / 0.7)
    return scores


def pitch_rise_semitones(acoustics: SlotAcoustics, group: GroupProfile) -> float:
    """How much higher the slot sounds than the group's normal word [semitones].

    The larger of the median's and the lowest voices' rise: a group's pitch
    track jumps between its voices, so when a mixed group (or one of its
    players alone) goes high, the median may even fall while the lowest
    voices rise clearly. (A normal word heard as high costs nothing where a
    plain word is due; only where high is due does the rise decide.)
    """
    rises = []
    if acoustics.pitch_hz and group.pitch_hz:
        rises.append(12.0 * np.log2(acoustics.pitch_hz / group.pitch_hz))
    if acoustics.pitch_low_hz and group.pitch_low_hz:
        rises.append(12.0 * np.log2(acoustics.pitch_low_hz / group.pitch_low_hz))
    return float(max(rises)) if rises else -np.inf


def whisper_score(acoustics: SlotAcoustics) -> float:
    """How surely a sounding slot was whispered (0..1, 0.5 at the decision threshold)."""
    if not acoustics.sounding:
        return 0.0
    w_share, w_voiced, bias = WHISPER_WEIGHTS
    return _logistic(w_share * acoustics.harmonic_share + w_voiced * acoustics.voiced_fraction
                     + bias)


def _logistic(x: float) -> float:
    return float(1.0 / (1.0 + np.exp(-np.clip(x, -50.0, 50.0))))
