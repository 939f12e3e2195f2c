"""Audio in and out: the only module that touches soundfile and sounddevice.

Everything downstream takes mono float32 numpy arrays at the pipeline's rate.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

PIPELINE_SR = 16000  # [Hz] every analysis runs at this rate


class AudioError(Exception):
    """Audio that cannot be read or written; the message is one line for the user."""


def to_mono(samples: np.ndarray) -> np.ndarray:
    """Average the channels of a (frames, channels) array; pass mono through."""
    samples = np.asarray(samples, dtype=np.float32)
    return samples.mean(axis=1, dtype=np.float32) if samples.ndim == 2 else samples


def resample(samples: np.ndarray, sr_in: int, sr_out: int) -> np.ndarray:
    """Resample a mono signal with soxr (high quality)."""
    if sr_in == sr_out:
        return np.asarray(samples, dtype=np.float32)
    import soxr

    return soxr.resample(samples, sr_in, sr_out, quality="HQ").astype(np.float32)


def read_audio(path: str | Path, sr: int | None = PIPELINE_SR) -> tuple[np.ndarray, int]:
    """Read a whole file as mono float32 at rate `sr` (None: the file's own rate).

    Returns
    -------
    samples : np.ndarray, shape (n,), float32 in [-1, 1]
    sr : int, the rate of `samples` [Hz]
    """
    import soundfile as sf

    try:
        data, file_sr = sf.read(str(path), dtype="float32", always_2d=True)
    except FileNotFoundError:
        raise AudioError(f"{path}: no such file") from None
    except (sf.LibsndfileError, RuntimeError, TypeError, ValueError) as exc:
        raise AudioError(f"{path}: not a readable audio file ({_first_line(exc)})") from None
    mono = to_mono(data)
    if sr is None:
        return mono, int(file_sr)
    return resample(mono, int(file_sr), sr), sr


def write_audio(path: str | Path, samples: np.ndarray, sr: int) -> None:
    """Write mono float32 samples; the format follows the suffix (.wav 16-bit, .flac, .ogg)."""
    import soundfile as sf

    path = Path(path)
    subtype = {".wav": "PCM_16", ".flac": "PCM_16", ".ogg": "VORBIS"}.get(path.suffix.lower())
    if subtype is None:
        raise AudioError(f"{path}: unsupported output format (use .wav, .flac or .ogg)")
    path.parent.mkdir(parents=True, exist_ok=True)
    clipped = np.clip(np.asarray(samples, dtype=np.float32), -1.0, 1.0)
    sf.write(str(path), clipped, sr, subtype=subtype)


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]
