"""Calibration maths (pure numpy): levels, loopback latency, speak-along offset.

What `beattrainer calibrate` measures, per input device:

- noise floor [dBFS]: the median level of 50 ms frames of a quiet stretch;
- speaking level [dBFS]: the power average of the frames of a spoken
  stretch that rise clearly above that floor (an active-speech level);
- loopback latency [s]: clicks are scheduled for known moments of the
  microphone's timeline, played through the speaker and found again in the
  recording by a matched filter; the latency is the median of recorded minus
  intended time over the clicks that agree (outliers rejected). It covers
  everything between "play at t" and "the microphone stream shows it":
  output buffering, the air, input buffering and resampling;
- speak-along offset [s]: the group speaks MIEZEKATZE on a metronome; the
  median of word onset minus beat (positive = late) is the players' habit
  (people put a word's vowel, not its first consonant, on the beat).

Levels are 20 log10(rms) with a full-scale square wave at 0 dBFS. Times are
seconds of microphone audio (samples / rate), never the wall clock, except
in `StreamClock`, which maps between the two for scheduling sounds.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

FRAME_S = 0.05                  # [s] level frames
SILENCE_DBFS = -120.0           # [dBFS] what digital silence reads as
SPEECH_ABOVE_FLOOR_DB = 10.0    # [dB] a frame this far above the floor counts as speech
MIN_SPEECH_FRAMES = 4           # fewer active frames: nobody spoke
CLICK_SEARCH_S = 0.010          # [s] each click is searched this far around the common lag
CLICK_MIN_SNR_DB = 20.0         # [dB] matched-filter peak over its median: the click was heard
MIN_CLICKS = 3                  # fewer agreeing clicks: no latency estimate
OUTLIER_MADS = 4.0              # reject values further than this many robust sigmas
MIN_TOLERANCE_S = 0.0005        # ... but never closer than this to the median [s]
SPEECH_BAND_HZ = 4000.0         # [Hz] speak-along audio is low-passed here: the
                                # metronome click lives above 4.5 kHz, speech onsets below
MATCH_FRACTION = 0.4            # a word belongs to the beat within this share of a period
SPEAK_TOLERANCE_S = 0.03        # [s] a word this close to the median offset is never an outlier
MAD_TO_SIGMA = 1.4826           # MAD of a normal distribution times this is its sigma

# Loopback clicks: irregular gaps so that neither an echo nor a periodic noise
# lines up with the next click [s].
LOOPBACK_GAPS_S = (0.31, 0.37, 0.29, 0.41, 0.33, 0.39, 0.30, 0.36, 0.34)
MAX_LATENCY_S = 0.5             # [s] the loopback search covers this much delay
SPEAK_ALONG_PERIOD_S = 1.2      # [s] metronome period of the speak-along test
COUNT_IN_BEATS = 4              # clicks to listen to before speaking
SPEAK_BEATS = 8                 # clicks to speak along with


# ----------------------------------------------------------------- levels

def frame_levels_dbfs(samples: np.ndarray, sr: int, frame_s: float = FRAME_S) -> np.ndarray:
    """Level of consecutive frames [dBFS]; a trailing partial frame is dropped.

    Parameters
    ----------
    samples : np.ndarray, shape (n,), float in [-1, 1]
    sr : int, sample rate [Hz]
    frame_s : float, frame length [s]

    Returns
    -------
    np.ndarray, shape (n // frame_samples,), 20 log10(rms), at least `SILENCE_DBFS`
    """
    x = np.asarray(samples, dtype=np.float64).reshape(-1)
    frame = max(1, int(round(frame_s * sr)))
    n_frames = len(x) // frame
    if n_frames == 0:
        return np.zeros(0)
    power = np.mean(x[: n_frames * frame].reshape(n_frames, frame) ** 2, axis=1)
    return _power_dbfs(power)


def _power_dbfs(power) -> np.ndarray:
    return np.maximum(10 * np.log10(np.maximum(power, 1e-30)), SILENCE_DBFS)


def noise_floor_dbfs(samples: np.ndarray, sr: int, frame_s: float = FRAME_S) -> float | None:
    """Noise floor of a quiet stretch: the median frame level [dBFS] (None when too short).

    The median ignores a cough or a chair: up to half of the frames may be louder.
    """
    levels = frame_levels_dbfs(samples, sr, frame_s)
    return float(np.median(levels)) if len(levels) else None


def speaking_level_dbfs(samples: np.ndarray, sr: int, floor_dbfs: float,
                        frame_s: float = FRAME_S,
                        above_floor_db: float = SPEECH_ABOVE_FLOOR_DB) -> float | None:
    """Active speech level of a spoken stretch [dBFS], or None when nobody spoke.

    The power average of the frames at least `above_floor_db` over
    `floor_dbfs` (the pauses between words do not pull it down).
    """
    levels = frame_levels_dbfs(samples, sr, frame_s)
    active = levels[levels >= floor_dbfs + above_floor_db]
    if len(active) < MIN_SPEECH_FRAMES:
        return None
    return float(_power_dbfs(np.mean(10 ** (active / 10))))


# ----------------------------------------------------------------- robust statistics

@dataclass(frozen=True)
class Estimate:
    """A robust central value of repeated measurements.

    Attributes
    ----------
    value_s : float, median of the kept measurements [s]
    spread_s : float, their standard deviation [s]
    n_used : int, measurements kept
    n_total : int, measurements offered (unheard ones included)
    """

    value_s: float
    spread_s: float
    n_used: int
    n_total: int


def robust_estimate(values_s, min_used: int = MIN_CLICKS,
                    min_tolerance_s: float = MIN_TOLERANCE_S) -> Estimate | None:
    """Median and spread of `values_s` after rejecting outliers (NaN = missing).

    A value is an outlier when it lies more than `OUTLIER_MADS` robust sigmas
    (and more than `min_tolerance_s`) from the median. Returns None when
    fewer than `min_used` values remain.
    """
    values = np.asarray(values_s, dtype=float).reshape(-1)
    finite = values[np.isfinite(values)]
    if len(finite) < min_used:
        return None
    median = np.median(finite)
    sigma = MAD_TO_SIGMA * np.median(np.abs(finite - median))
    kept = finite[np.abs(finite - median) <= max(OUTLIER_MADS * sigma, min_tolerance_s)]
    if len(kept) < min_used:
        return None
    return Estimate(float(np.median(kept)), float(np.std(kept)), len(kept), len(values))


# ----------------------------------------------------------------- loopback latency

def matched_envelope(recording: np.ndarray, template: np.ndarray) -> np.ndarray:
    """Envelope of the cross-correlation of `recording` with `template`.

    Entry k is large when the template starts at sample k of the recording;
    the envelope (magnitude of the analytic correlation) does not care about
    polarity or the phase shifts of a speaker and a microphone.

    Returns
    -------
    np.ndarray, shape (len(recording),)
    """
    x = np.asarray(recording, dtype=np.float64).reshape(-1)
    t = np.asarray(template, dtype=np.float64).reshape(-1)
    t = t / max(np.sqrt(np.sum(t * t)), 1e-12)
    n_fft = 1 << int(np.ceil(np.log2(len(x) + len(t))))
    spectrum = np.fft.fft(x, n_fft) * np.conj(np.fft.fft(t, n_fft))
    spectrum[n_fft // 2 + 1:] = 0.0        # analytic signal: positive frequencies only
    spectrum[1:n_fft // 2] *= 2.0
    return np.abs(np.fft.ifft(spectrum))[: len(x)]


def _peak_offset(values: np.ndarray, i: int) -> float:
    """Sub-sample position of the peak at `i` by a parabola through its neighbours."""
    if i <= 0 or i >= len(values) - 1:
        return 0.0
    left, centre, right = values[i - 1], values[i], values[i + 1]
    curvature = left - 2 * centre + right
    return 0.0 if curvature >= 0 else float(np.clip(0.5 * (left - right) / curvature, -0.5, 0.5))


def locate_clicks(recording: np.ndarray, sr: int, template: np.ndarray, played_s,
                  max_latency_s: float = MAX_LATENCY_S, search_s: float = CLICK_SEARCH_S,
                  min_snr_db: float = CLICK_MIN_SNR_DB) -> np.ndarray:
    """Where each played click shows up in the recording [s], NaN where it was not heard.

    1. The matched-filter envelope of the recording with the click.
    2. The common lag: the delay in [0, `max_latency_s`] at which the sum of the
       envelope over all clicks is largest (all clicks together stand far above
       the noise, and an echo, which is weaker, loses).
    3. Each click: the envelope maximum within `search_s` of its place at the
       common lag, refined to a fraction of a sample; it counts as heard when
       it stands `min_snr_db` over the envelope's median (the noise).

    Parameters
    ----------
    recording : np.ndarray, shape (n,), the microphone audio
    sr : int, rate of `recording` and `template` [Hz]
    template : np.ndarray, the click as played
    played_s : sequence of float, when each click was played [s of `recording`]
    max_latency_s, search_s : float [s]
    min_snr_db : float [dB]

    Returns
    -------
    np.ndarray, shape (len(played_s),), recorded click times [s] or NaN
    """
    played = np.asarray(played_s, dtype=float).reshape(-1)
    result = np.full(len(played), np.nan)
    envelope = matched_envelope(recording, template)
    if len(played) == 0 or len(envelope) == 0:
        return result
    noise = float(np.median(envelope))
    lags = np.arange(int(round(max_latency_s * sr)) + 1)
    starts = np.round(played * sr).astype(int)
    where = starts[:, None] + lags[None, :]
    inside = (where >= 0) & (where < len(envelope))
    profile = np.where(inside, envelope[np.clip(where, 0, len(envelope) - 1)], 0.0).sum(axis=0)
    common_lag = int(lags[np.argmax(profile)])
    reach = max(1, int(round(search_s * sr)))
    for k, start in enumerate(starts):
        lo = max(0, start + common_lag - reach)
        hi = min(len(envelope), start + common_lag + reach + 1)
        if hi - lo < 3:
            continue
        i = lo + int(np.argmax(envelope[lo:hi]))
        peak = envelope[i]
        if peak <= 1e-9 or 20 * np.log10(peak / max(noise, 1e-12)) < min_snr_db:
            continue
        result[k] = (i + _peak_offset(envelope, i)) / sr
    return result


def loopback_latency(played_s, recorded_s, min_clicks: int = MIN_CLICKS) -> Estimate | None:
    """Latency from intended to recorded click times [s]; None when too few were heard.

    Parameters
    ----------
    played_s : sequence of float, intended click times [s of the recording]
    recorded_s : sequence of float, `locate_clicks` results (NaN = not heard)
    min_clicks : int, agreeing clicks needed

    Returns
    -------
    Estimate or None: median of recorded - played over the clicks that agree,
    their spread, and how many were used of how many played.
    """
    played = np.asarray(played_s, dtype=float).reshape(-1)
    recorded = np.asarray(recorded_s, dtype=float).reshape(-1)
    if played.shape != recorded.shape:
        raise ValueError("played and recorded click times differ in number")
    return robust_estimate(recorded - played, min_used=min_clicks)


# ----------------------------------------------------------------- speak-along offset

def lowpass(samples: np.ndarray, sr: int, cutoff_hz: float = SPEECH_BAND_HZ,
            transition_hz: float = 400.0) -> np.ndarray:
    """Zero-phase low-pass by FFT with a raised-cosine transition ending at `cutoff_hz`.

    Offline only (the whole signal at once). A gentle transition keeps the
    filter's ringing within a few milliseconds, so onsets do not move.
    """
    x = np.asarray(samples, dtype=np.float64).reshape(-1)
    if len(x) == 0:
        return x.astype(np.float32)
    freqs = np.fft.rfftfreq(len(x), 1.0 / sr)
    start = cutoff_hz - transition_hz
    gain = np.clip((cutoff_hz - freqs) / transition_hz, 0.0, 1.0)
    gain = np.where(freqs <= start, 1.0, 0.5 - 0.5 * np.cos(np.pi * gain))
    return np.fft.irfft(np.fft.rfft(x) * gain, len(x)).astype(np.float32)


def word_onsets_s(samples: np.ndarray, sr: int, cutoff_hz: float | None = SPEECH_BAND_HZ,
                  block_samples: int = 512) -> list[float]:
    """Word onsets [s] found by the project's onset detector, after an optional low-pass.

    The low-pass removes the metronome (a tick above 4.5 kHz) that the
    microphone hears along with the players.
    """
    from beattrainer.dsp.onsets import OnsetDetector
    from beattrainer.events import Word

    x = lowpass(samples, sr, cutoff_hz) if cutoff_hz else np.asarray(samples, np.float32)
    detector = OnsetDetector(sr)
    blocks = (x[i:i + block_samples] for i in range(0, len(x), block_samples))
    return [e.onset_s for e in detector.run(blocks) if isinstance(e, Word)]


def beat_offsets_s(beats_s, onsets_s, period_s: float,
                   match_fraction: float = MATCH_FRACTION) -> np.ndarray:
    """Offset of the word nearest to each beat [s] (positive = late), NaN where none is near.

    Each word is used for one beat at most: the nearest one within
    `match_fraction` of a period.
    """
    beats = np.asarray(beats_s, dtype=float).reshape(-1)
    onsets = np.sort(np.asarray(onsets_s, dtype=float).reshape(-1))
    offsets = np.full(len(beats), np.nan)
    used: set[int] = set()
    for k, beat in enumerate(beats):
        if len(onsets) == 0:
            break
        distance = np.abs(onsets - beat)
        for j in np.argsort(distance):
            if distance[j] > match_fraction * period_s:
                break
            if int(j) not in used:
                used.add(int(j))
                offsets[k] = onsets[j] - beat
                break
    return offsets


def speak_along_offset(beats_s, onsets_s, period_s: float,
                       min_words: int = MIN_CLICKS) -> Estimate | None:
    """The players' habitual offset from the beat [s] (positive = late), or None.

    Parameters
    ----------
    beats_s : sequence of float, when each beat sounded [s of the recording]
        (intended time plus the loopback latency, when it is known)
    onsets_s : sequence of float, word onsets heard [s of the recording]
    period_s : float, metronome period [s]
    min_words : int, words on the beat needed

    Returns
    -------
    Estimate or None: median offset over the words that agree (outliers
    rejected), their spread, and how many beats had a word.
    """
    offsets = beat_offsets_s(beats_s, onsets_s, period_s)
    # players spread by tens of ms; only words far off their beat are outliers
    return robust_estimate(offsets, min_used=min_words, min_tolerance_s=SPEAK_TOLERANCE_S)


# ----------------------------------------------------------------- the session plan

@dataclass(frozen=True)
class CalibrationPlan:
    """Where each part of a calibration session lies in the microphone's timeline [s].

    A part is (start_s, end_s); prompts are shown `PROMPT_LEAD_S` before a part.
    `loopback_clicks_s` is empty without a loopback part; `beats_s` holds every
    metronome click, the first `COUNT_IN_BEATS` only to listen to.
    """

    quiet: tuple[float, float]
    speak: tuple[float, float]
    loopback: tuple[float, float] | None
    loopback_clicks_s: tuple[float, ...]
    speak_along: tuple[float, float] | None
    beats_s: tuple[float, ...]
    period_s: float
    total_s: float

    @property
    def speaking_beats_s(self) -> tuple[float, ...]:
        """The beats the group speaks on."""
        return self.beats_s[COUNT_IN_BEATS:]


SETTLE_S = 0.5        # [s] the device settles before anything counts
PROMPT_LEAD_S = 1.5   # [s] time to read a prompt before the part starts


def calibration_plan(seconds: float, loopback: bool = True, speak_along: bool = True,
                     period_s: float = SPEAK_ALONG_PERIOD_S) -> CalibrationPlan:
    """The session layout for quiet and spoken stretches of `seconds` each.

    Parameters
    ----------
    seconds : float, length of the quiet and of the spoken stretch [s]
    loopback : bool, include the loopback clicks
    speak_along : bool, include the metronome speak-along
    period_s : float, metronome period [s]
    """
    if seconds <= 0 or period_s <= 0:
        raise ValueError("durations must be positive")
    t = SETTLE_S
    quiet = (t, t + seconds)
    t = quiet[1] + PROMPT_LEAD_S
    speak = (t, t + seconds)
    t = speak[1]
    loop_part, clicks = None, ()
    if loopback:
        first = t + PROMPT_LEAD_S
        click_offsets_s = np.concatenate([[0.0], np.cumsum(LOOPBACK_GAPS_S)])
        clicks = tuple(float(first + x) for x in click_offsets_s)
        loop_part = (first - 0.2, clicks[-1] + MAX_LATENCY_S + 0.2)
        t = loop_part[1]
    along, beats = None, ()
    if speak_along:
        first = t + PROMPT_LEAD_S
        beats = tuple(float(first + k * period_s) for k in range(COUNT_IN_BEATS + SPEAK_BEATS))
        along = (first - 0.2, beats[-1] + period_s)
        t = along[1]
    return CalibrationPlan(quiet, speak, loop_part, clicks, along, beats, float(period_s),
                           float(t + 0.2))


# ----------------------------------------------------------------- clocks

class StreamClock:
    """Maps microphone time [s of audio] to the wall clock and back.

    Every block pulled from the microphone is observed with the wall time it
    arrived; the block cannot have arrived before it was recorded, so the
    smallest (arrival - audio time) of recent blocks is the best offset. What
    it leaves out (input buffering) is part of the loopback latency.

    Parameters
    ----------
    memory : int, how many recent blocks the offset looks at (the two clocks drift)
    """

    def __init__(self, memory: int = 200) -> None:
        self._offsets: deque = deque(maxlen=memory)

    def observe(self, wall_s: float, audio_end_s: float) -> None:
        """A block ending at `audio_end_s` of audio arrived at wall time `wall_s`."""
        self._offsets.append(wall_s - audio_end_s)

    @property
    def ready(self) -> bool:
        """True once a block has been observed."""
        return bool(self._offsets)

    @property
    def offset_s(self) -> float:
        """Wall time minus audio time [s]."""
        if not self._offsets:
            raise ValueError("no block observed yet")
        return float(min(self._offsets))

    def wall_of(self, audio_s: float) -> float:
        """The wall time at which audio time `audio_s` is (or was) recorded."""
        return audio_s + self.offset_s

    def audio_of(self, wall_s: float) -> float:
        """The audio time recorded at wall time `wall_s`."""
        return wall_s - self.offset_s
