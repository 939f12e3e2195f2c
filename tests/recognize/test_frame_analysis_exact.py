"""The acoustic frames' faster building blocks give the very numbers of the plain computation.

The judge's reports must not change by a bit when the frame analysis gets faster, so each
shortcut is compared with the computation it replaces, bytes for bytes.
"""
from __future__ import annotations

import numpy as np
import pytest

from beattrainer.dsp.features import squared_magnitude
from beattrainer.recognize import acoustic
from beattrainer.recognize.acoustic import (
    FFT_SAMPLES,
    FRAME_SAMPLES,
    HARMONIC_BAND_HZ,
    HOP_SAMPLES,
    PITCH_RANGE_HZ,
    SAMPLE_RATE,
    frame_rows,
)
from beattrainer.recognize.words import frame_powers


def plain_frame_rows(samples: np.ndarray) -> tuple[np.ndarray, ...]:
    """`analyse_frames` as it was written before it was made faster (decision-free reference)."""
    x = np.asarray(samples, dtype=np.float64)
    if len(x) < FRAME_SAMPLES:
        x = np.concatenate([x, np.zeros(FRAME_SAMPLES - len(x))])
    frames = np.lib.stride_tricks.sliding_window_view(x, FRAME_SAMPLES)[::HOP_SAMPLES]
    frames = frames - frames.mean(axis=1, keepdims=True)
    window = np.hanning(FRAME_SAMPLES)
    power_t = np.mean(frames**2, axis=1)
    level_db = 10.0 * np.log10(power_t + 1e-10)
    spec = np.fft.rfft(frames * window, FFT_SAMPLES, axis=1)
    power = spec.real**2 + spec.imag**2 + 1e-14
    freqs = np.fft.rfftfreq(FFT_SAMPLES, 1.0 / SAMPLE_RATE)
    total = power.sum(axis=1)
    centroid = (power * freqs).sum(axis=1) / total
    high_ratio = power[:, freqs >= 4000.0].sum(axis=1) / total
    tonality = 10.0 * np.log10(power.max(axis=1) / np.median(power, axis=1))
    band = power[:, (freqs >= HARMONIC_BAND_HZ[0]) & (freqs <= HARMONIC_BAND_HZ[1])]
    log_band = np.log(band)
    flatness = 10.0 * (log_band.mean(axis=1) - np.log(band.mean(axis=1))) / np.log(10.0)
    plain = np.fft.rfft(frames, FFT_SAMPLES, axis=1)
    acf = np.fft.irfft(plain.real**2 + plain.imag**2, FFT_SAMPLES, axis=1)[:, :FRAME_SAMPLES]
    lags = np.arange(FRAME_SAMPLES)
    acf = acf / (acf[:, :1] + 1e-12) * FRAME_SAMPLES / np.maximum(FRAME_SAMPLES - lags, 1)
    lo = int(SAMPLE_RATE / PITCH_RANGE_HZ[1])
    hi = int(SAMPLE_RATE / PITCH_RANGE_HZ[0])
    region = acf[:, lo:hi]
    best = region.argmax(axis=1)
    voicing = np.clip(region[np.arange(len(region)), best], 0.0, 1.0)
    pitch = SAMPLE_RATE / (best + lo)
    octave_pitch = np.array([SAMPLE_RATE / plain_octave_checked_lag(row, lag, lo)
                             for row, lag in zip(region, best + lo)])
    return level_db, voicing, pitch, centroid, high_ratio, tonality, flatness, octave_pitch


def plain_octave_checked_lag(row: np.ndarray, lag: int, lo: int) -> float:
    """One frame's lag halved, at most twice, while the half (+-1) correlates >= 0.8 as well."""
    for _ in range(2):
        half = round(lag / 2)
        centre = min(max(half, lo + 1), lo + len(row) - 2)
        if half > lo and row[centre - 1 - lo:centre + 2 - lo].max() >= 0.8 * row[lag - lo]:
            lag = half
    return float(lag)


def plain_frame_powers(samples: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`words.frame_powers` as it was written before."""
    from beattrainer.recognize.words import _WINDOW
    from beattrainer.recognize.words import FFT_SAMPLES as WORD_FFT
    from beattrainer.recognize.words import FRAME_SAMPLES as WORD_FRAME
    from beattrainer.recognize.words import HOP_SAMPLES as WORD_HOP

    x = np.asarray(samples, dtype=np.float64)
    if len(x) < WORD_FRAME:
        x = np.concatenate([x, np.zeros(WORD_FRAME - len(x))])
    frames = np.lib.stride_tricks.sliding_window_view(x, WORD_FRAME)[::WORD_HOP]
    frames = frames - frames.mean(axis=1, keepdims=True)
    level_db = 10.0 * np.log10(np.mean(frames**2, axis=1) + 1e-10)
    spec = np.fft.rfft(frames * _WINDOW, WORD_FFT, axis=1)
    return level_db, spec.real**2 + spec.imag**2


def slots(make_slot):
    """Real slots (voices, noises, silence) and odd lengths (shorter than a frame, 2 frames)."""
    rng = np.random.default_rng(17)
    out = [make_slot(label, voice=voice) for label, voice in (
        ("MIEZEKATZE", "de-m7"), ("YEAH", "de-m7"), ("SHH", None), ("SQUEAK", None),
        ("ZOMBIE", None), ("SILENCE", None), ("KISS", None))]
    out += [(0.1 * rng.standard_normal(n)).astype(np.float32)
            for n in (100, FRAME_SAMPLES, FRAME_SAMPLES + HOP_SAMPLES, 4321)]
    return out


def assert_same_bytes(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        assert g.tobytes() == w.tobytes()


def test_acoustic_frames_are_those_of_the_plain_computation(make_slot):
    for samples in slots(make_slot):
        assert_same_bytes(frame_rows(samples), plain_frame_rows(samples))


def test_word_spectra_are_those_of_the_plain_computation(make_slot):
    for samples in slots(make_slot):
        assert_same_bytes(frame_powers(samples), plain_frame_powers(samples))


@pytest.mark.parametrize("shape", [(1, 513), (2, 513), (37, 513), (5, 7)])
def test_middle_of_rows_is_the_median(shape):
    a = np.random.default_rng(3).exponential(size=shape)
    assert acoustic._median_of_rows(a).tobytes() == np.median(a, axis=1).tobytes()


def test_power_spectrum_is_the_sum_of_squares():
    spec = np.fft.rfft(np.random.default_rng(4).standard_normal((9, 640)), FFT_SAMPLES, axis=1)
    want = spec.real**2 + spec.imag**2
    assert squared_magnitude(spec).tobytes() == want.tobytes()


@pytest.mark.parametrize("window", [None, np.hanning(640)])
def test_padded_transform_is_numpys_own(window):
    from beattrainer.dsp.features import rfft_padded

    frames = np.random.default_rng(5).standard_normal((33, 640))
    want = np.fft.rfft(frames if window is None else frames * window, FFT_SAMPLES, axis=1)
    assert rfft_padded(frames, FFT_SAMPLES, window).tobytes() == want.tobytes()
