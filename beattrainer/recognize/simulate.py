"""Synthetic slots for training the class model, tests and the benchmark.

Clips are placed in a slot window, several voices mixed, noise added at a given SNR.

Pure numpy; every random choice comes from the `rng` argument. (The
performance renderer in `beattrainer.synth` renders whole performances; this
only builds single slots.)
"""
from __future__ import annotations

import numpy as np

SAMPLE_RATE = 16_000


def place(clip: np.ndarray, slot_samples: int, start_sample: int) -> np.ndarray:
    """`clip` written into a silent slot at `start_sample` (cut at the slot's end)."""
    out = np.zeros(slot_samples, dtype=np.float32)
    start = max(0, min(start_sample, slot_samples))
    piece = clip[: slot_samples - start]
    out[start:start + len(piece)] = piece
    return out


def pink_noise(n: int, rng: np.random.Generator) -> np.ndarray:
    """Unit-RMS noise with a 1/f spectrum (a room's hum and rumble)."""
    spectrum = np.fft.rfft(rng.standard_normal(n))
    freqs = np.fft.rfftfreq(n, 1.0 / SAMPLE_RATE)
    spectrum /= np.sqrt(np.maximum(freqs, 20.0))
    noise = np.fft.irfft(spectrum, n)
    return (noise / (np.sqrt(np.mean(noise**2)) + 1e-12)).astype(np.float32)


def add_noise(signal: np.ndarray, snr_db: float, rng: np.random.Generator,
              reference_rms: float | None = None) -> np.ndarray:
    """Add half white, half pink noise `snr_db` below the signal's active RMS.

    `reference_rms` is the level the SNR refers to (default: the RMS of the
    loudest 30% of the signal's 10 ms frames), so silent slots can get the
    room noise of the rest of the performance.
    """
    n = len(signal)
    if reference_rms is None:
        reference_rms = active_rms(signal)
    noise = 0.5 * pink_noise(n, rng) + 0.5 * rng.standard_normal(n).astype(np.float32)
    noise /= np.sqrt(np.mean(noise**2)) + 1e-12
    return (signal + noise * reference_rms * 10.0 ** (-snr_db / 20.0)).astype(np.float32)


def babble(n: int, speech: list[np.ndarray], rng: np.random.Generator,
           streams: int = 6) -> np.ndarray:
    """Unit-RMS babble: `streams` people saying random clips of `speech`, summed."""
    out = np.zeros(n, dtype=np.float64)
    for _ in range(streams):
        position = int(rng.integers(0, SAMPLE_RATE // 2))
        gain = 10.0 ** (rng.uniform(-4.0, 0.0) / 20.0)
        while position < n:
            clip = speech[int(rng.integers(len(speech)))][: n - position]
            out[position:position + len(clip)] += gain * clip
            position += len(clip) + int(rng.uniform(0.0, 0.25) * SAMPLE_RATE)
    return (out / (np.sqrt(np.mean(out**2)) + 1e-12)).astype(np.float32)


def add_babble(signal: np.ndarray, snr_db: float, speech: list[np.ndarray],
               rng: np.random.Generator, reference_rms: float | None = None) -> np.ndarray:
    """Add babble `snr_db` below the signal's active RMS (see `add_noise`)."""
    if reference_rms is None:
        reference_rms = active_rms(signal)
    noise = babble(len(signal), speech, rng)
    return (signal + noise * reference_rms * 10.0 ** (-snr_db / 20.0)).astype(np.float32)


def active_rms(signal: np.ndarray) -> float:
    """RMS of the loudest 30% of 10 ms frames (the level of the sound, not of the gaps)."""
    hop = SAMPLE_RATE // 100
    n = len(signal) // hop
    if n == 0:
        return float(np.sqrt(np.mean(signal**2))) if len(signal) else 0.0
    power = np.mean(signal[: n * hop].reshape(n, hop) ** 2, axis=1)
    top = np.sort(power)[-max(1, int(0.3 * n)):]
    return float(np.sqrt(np.mean(top)))


def mix_voices(clips: list[np.ndarray], slot_samples: int, onset_sample: int,
               rng: np.random.Generator, spread_s: float = 0.03) -> np.ndarray:
    """Several people saying their clip together, each a little early or late.

    Each clip is placed so that its start lands within ±`spread_s` of
    `onset_sample`, at a random gain between -3 and 0 dB.
    """
    out = np.zeros(slot_samples, dtype=np.float32)
    spread = int(spread_s * SAMPLE_RATE)
    for clip in clips:
        jitter = int(rng.integers(-spread, spread + 1)) if spread else 0
        gain = 10.0 ** (rng.uniform(-3.0, 0.0) / 20.0)
        out += gain * place(clip, slot_samples, onset_sample + jitter)
    return out


def set_level(signal: np.ndarray, level_dbfs: float) -> np.ndarray:
    """Scale so that the active RMS is `level_dbfs`."""
    rms = active_rms(signal)
    if rms <= 0:
        return signal.astype(np.float32)
    return (signal * (10.0 ** (level_dbfs / 20.0) / rms)).astype(np.float32)
