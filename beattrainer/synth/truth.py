"""Ground-truth onsets of clean sounds (pure numpy).

The project's definition of an onset: the first sample where the clean sound's
short-time energy reaches `ONSET_THRESHOLD_DB` below its own peak. Short-time
energy is the mean square over a centred window of `ENERGY_WINDOW_S`, so an
abrupt onset is found at most half a window (2.5 ms) early.

Syllables are the segments between energy dips of the clean sound; each
syllable's onset is the same rule applied within its own segment, searched from
the dip on (a syllable whose dip is shallower than 30 dB starts at the dip).
"""
from __future__ import annotations

import numpy as np

ENERGY_WINDOW_S = 0.005       # [s] centred window of the short-time energy
ONSET_THRESHOLD_DB = -30.0    # [dB] relative to the sound's own energy peak
ENVELOPE_WINDOW_S = 0.025     # [s] smoother envelope used only to find syllable dips
MIN_DIP_DB = 6.0              # [dB] a dip must lie this far below both neighbouring peaks
WEAK_SEGMENT_DB = -15.0      # [dB] quieter segments are release bursts, not syllables
MIN_SYLLABLE_S = 0.06         # [s] dips closer than this to each other are one dip


def short_time_energy(samples: np.ndarray, sr: int,
                      window_s: float = ENERGY_WINDOW_S) -> np.ndarray:
    """Mean square of `samples` in a centred window around every sample.

    Parameters
    ----------
    samples : np.ndarray, shape (n,)
    sr : int, sample rate [Hz]
    window_s : float, window length [s]

    Returns
    -------
    np.ndarray, shape (n,), float64 energy per sample
    """
    x = np.asarray(samples, dtype=np.float64)
    width = max(1, int(round(window_s * sr)))
    kernel = np.full(width, 1.0 / width)
    return np.convolve(x * x, kernel, mode="same")


def true_onset_index(energy: np.ndarray, start: int = 0, stop: int | None = None,
                     threshold_db: float = ONSET_THRESHOLD_DB) -> int | None:
    """First index in energy[start:stop] reaching `threshold_db` below that range's peak.

    Returns None for an all-zero range.
    """
    segment = energy[start:stop]
    if segment.size == 0:
        return None
    peak = float(segment.max())
    if peak <= 0.0:
        return None
    level = peak * 10.0 ** (threshold_db / 10.0)
    return start + int(np.argmax(segment >= level))


def true_onset_s(samples: np.ndarray, sr: int) -> float | None:
    """The true onset of a clean sound [s from its first sample], None when silent."""
    index = true_onset_index(short_time_energy(samples, sr))
    return None if index is None else index / sr


def energy_envelope_db(samples: np.ndarray, sr: int, hop_s: float = 0.0025,
                       window_s: float = ENVELOPE_WINDOW_S) -> tuple[np.ndarray, int]:
    """Smooth energy envelope in dB, one value per hop.

    Returns
    -------
    env_db : np.ndarray, shape (frames,), dB relative to the loudest frame
    hop : int, hop [samples]
    """
    hop = max(1, int(round(hop_s * sr)))
    energy = short_time_energy(samples, sr, window_s)[::hop]
    peak = max(float(energy.max()), 1e-20)
    return 10.0 * np.log10(np.maximum(energy, peak * 1e-8) / peak), hop


def syllable_dips(samples: np.ndarray, sr: int, min_dip_db: float = MIN_DIP_DB) -> list[int]:
    """Sample indices of the energy dips that separate syllables.

    A dip is a local minimum of the smooth envelope whose prominence (depth
    below the lower of the two neighbouring maxima) is at least `min_dip_db`;
    of two dips closer than `MIN_SYLLABLE_S` the deeper one is kept. Leading
    and trailing silence produce no dip.
    """
    from scipy.signal import find_peaks

    env, hop = energy_envelope_db(samples, sr)
    min_gap = max(1, int(round(MIN_SYLLABLE_S * sr / hop)))
    dips, _ = find_peaks(-env, prominence=min_dip_db, distance=min_gap)
    return [int(i) * hop for i in dips]


def syllable_onsets_s(samples: np.ndarray, sr: int, min_dip_db: float = MIN_DIP_DB) -> list[float]:
    """True onset of every syllable of a clean sound [s from its first sample].

    The first syllable's onset is the sound's true onset; each later one is the
    first point after its dip where the energy reaches 30 dB below the peak of
    its own segment (dip to next dip). A segment whose smooth-envelope peak
    stays more than `WEAK_SEGMENT_DB` below the loudest one (a stop's release
    burst, a breathy tail) is no syllable: it joins the segment before it.
    """
    energy = short_time_energy(samples, sr)
    first = true_onset_index(energy)
    if first is None:
        return []
    dips = [d for d in syllable_dips(samples, sr, min_dip_db) if d > first]
    envelope = short_time_energy(samples, sr, ENVELOPE_WINDOW_S)
    edges = [first] + dips + [len(samples)]
    peaks = [float(envelope[a:b].max()) for a, b in zip(edges[:-1], edges[1:])]
    weak_level = max(peaks) * 10.0 ** (WEAK_SEGMENT_DB / 10.0)
    onsets = [first]
    for start, stop, peak in zip(edges[1:-1], edges[2:], peaks[1:]):
        if peak < weak_level:
            continue
        index = true_onset_index(energy, start, stop)
        if index is not None:
            onsets.append(index)
    return [i / sr for i in onsets]
