"""The word model: which word (or sound, or nothing) a slot holds, from its spectrum over time.

Pure numpy at run time. A slot's sounding stretch is cut into a few equal
segments; each segment's mean cepstrum (MFCC without energy), the energy
contour and the cepstral spread make a fixed-length vector that does not
depend on how fast or loud the word was said. A few small neural networks
(one hidden layer each, their posteriors averaged) map it to classes: the
card words, OTHER_WORD (a player's name or a custom card's word), the
non-verbal sounds and SILENCE (the room, or only percussion). It is fitted
on the clip library's train voices by
`python -m beattrainer.recognize.word_training`
and stored in `models/word-classes.json`.

It is one layer of the fusion: it tells words apart that the acoustic class
model cannot (all voiced) and that the speech layer often confuses (short
words, German-accented ones).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from beattrainer.dsp.features import array_percentile, rfft_padded, squared_magnitude
from beattrainer.recognize.modelfile import load_model
from beattrainer.recognize.vocabulary import CARD_WORDS, NONVERBAL, SILENCE

SAMPLE_RATE = 16_000
FRAME_SAMPLES = 400            # 25 ms analysis window
HOP_SAMPLES = 160              # 10 ms
FFT_SAMPLES = 512
MEL_BANDS = 26
CEPSTRA = 13                   # c0 (energy) .. c12; c0 is used only as the energy contour
SEGMENTS = 5                   # equal time segments of the sounding stretch
MIN_SOUNDING_FRAMES = 4
ACTIVE_ABOVE_FLOOR_DB = 6.0
ACTIVE_RANGE_DB = 35.0         # frames this far below the loudest are not the word
MAX_LOG_DURATION = np.log(3.0)
WORD_MODEL_FILE = "word-classes.json"
OTHER_WORD = "OTHER_WORD"      # one class for every other word: names, custom cards' words
WORD_CLASSES = (*CARD_WORDS, OTHER_WORD, *NONVERBAL, SILENCE)


class WordModelError(ValueError):
    """A missing or broken word model file; one-line message."""


def word_class(label: str) -> str:
    """The word model's class for a vocabulary label (names and custom words share one)."""
    return label if label in WORD_CLASSES else OTHER_WORD


def _mel_filterbank() -> np.ndarray:
    """(MEL_BANDS, FFT_SAMPLES // 2 + 1) triangular filters, 60 Hz .. 7.6 kHz."""
    def to_mel(hz):
        return 2595.0 * np.log10(1.0 + np.asarray(hz) / 700.0)

    def to_hz(mel):
        return 700.0 * (10.0 ** (np.asarray(mel) / 2595.0) - 1.0)

    edges_hz = to_hz(np.linspace(to_mel(60.0), to_mel(7600.0), MEL_BANDS + 2))
    freqs = np.fft.rfftfreq(FFT_SAMPLES, 1.0 / SAMPLE_RATE)
    bank = np.zeros((MEL_BANDS, len(freqs)))
    for band in range(MEL_BANDS):
        lo, mid, hi = edges_hz[band:band + 3]
        rising = (freqs - lo) / (mid - lo)
        falling = (hi - freqs) / (hi - mid)
        bank[band] = np.clip(np.minimum(rising, falling), 0.0, None)
    return bank


def _dct_matrix() -> np.ndarray:
    """(CEPSTRA, MEL_BANDS) orthonormal DCT-II."""
    n = np.arange(MEL_BANDS)
    k = np.arange(CEPSTRA)[:, None]
    dct = np.cos(np.pi * k * (2 * n + 1) / (2 * MEL_BANDS)) * np.sqrt(2.0 / MEL_BANDS)
    dct[0] /= np.sqrt(2.0)
    return dct


_MEL = _mel_filterbank()
_DCT = _dct_matrix()
_WINDOW = np.hamming(FRAME_SAMPLES)
FEATURE_COUNT = SEGMENTS * (CEPSTRA - 1) + SEGMENTS + (CEPSTRA - 1) + 2


def frame_powers(samples: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Frame levels [dB] and power spectra (frames x FFT bins) of 16 kHz mono audio."""
    x = np.asarray(samples, dtype=np.float64)
    if len(x) < FRAME_SAMPLES:
        x = np.concatenate([x, np.zeros(FRAME_SAMPLES - len(x))])
    frames = np.lib.stride_tricks.sliding_window_view(x, FRAME_SAMPLES)[::HOP_SAMPLES]
    frames = frames - frames.mean(axis=1, keepdims=True)
    level_db = 10.0 * np.log10(np.mean(frames**2, axis=1) + 1e-10)
    return level_db, squared_magnitude(rfft_padded(frames, FFT_SAMPLES, _WINDOW))


def cepstra(samples: np.ndarray,
            powers: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Frame levels [dB] and MFCCs (frames x CEPSTRA) of 16 kHz mono audio.

    `powers` is `frame_powers(samples)` where the caller has it already.
    """
    level_db, power = frame_powers(samples) if powers is None else powers
    mel = power @ _MEL.T
    return level_db, np.log(mel + 1e-10) @ _DCT.T


def sounding_frames(level_db: np.ndarray, floor_db: float | None = None) -> slice | None:
    """The stretch from the first to the last frame that carries the slot's sound."""
    own_floor = array_percentile(level_db, 10)
    floor = own_floor if floor_db is None else min(floor_db, own_floor + 3.0)
    threshold = max(floor + ACTIVE_ABOVE_FLOOR_DB, float(level_db.max()) - ACTIVE_RANGE_DB)
    active = np.flatnonzero(level_db > threshold)
    if len(active) < MIN_SOUNDING_FRAMES:
        return None
    return slice(int(active[0]), int(active[-1]) + 1)


def word_features(samples: np.ndarray, floor_db: float | None = None,
                  powers: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray | None:
    """The word model's input vector for one slot, or None when nothing sounded.

    Parameters
    ----------
    samples : np.ndarray, shape (n,)
        The slot's audio, 16 kHz mono.
    floor_db : float, optional
        The room's noise floor known from earlier slots [dB, frame level].
    powers : `frame_powers(samples)` where the caller has it already
    """
    level_db, mfcc = cepstra(samples, powers)
    stretch = sounding_frames(level_db, floor_db)
    if stretch is None:
        return None
    level_db, mfcc = level_db[stretch], mfcc[stretch]
    bounds = np.linspace(0, len(level_db), SEGMENTS + 1).round().astype(int)
    shape, contour = [], []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        hi = max(hi, lo + 1)
        shape.append(mfcc[lo:hi, 1:].mean(axis=0))
        contour.append(np.log10(np.mean(10.0 ** (level_db[lo:hi] / 10.0))) * 10.0)
    contour = np.array(contour) - max(contour)
    duration_s = len(level_db) * HOP_SAMPLES / SAMPLE_RATE
    return np.concatenate([
        np.ravel(shape),
        contour / 10.0,
        mfcc[:, 1:].std(axis=0),
        [min(np.log(duration_s), MAX_LOG_DURATION)],
        [len(level_db) / 100.0 if len(level_db) < 300 else 3.0],
    ])


@dataclass(frozen=True)
class WordModel:
    """Standardisation plus a one-hidden-layer network (tanh), softmax over `classes`."""

    classes: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    hidden_w: np.ndarray   # (features, hidden)
    hidden_b: np.ndarray
    out_w: np.ndarray      # (hidden, classes)
    out_b: np.ndarray

    def log_probs(self, features: np.ndarray | None) -> dict[str, float]:
        """Log-posterior of every class (SILENCE certain when nothing sounded)."""
        if features is None:
            return {c: (0.0 if c == SILENCE else -30.0) for c in self.classes}
        z = (np.asarray(features, dtype=float) - self.mean) / self.scale
        hidden = np.tanh(z @ self.hidden_w + self.hidden_b)
        logits = hidden @ self.out_w + self.out_b
        logits = logits - logits.max()
        log_p = logits - np.log(np.exp(logits).sum())
        return dict(zip(self.classes, np.maximum(log_p, -30.0).tolist()))

    def to_json(self) -> dict:
        """Serialisable form."""
        def rows(a):
            return np.round(a, 5).tolist()

        return {"features": FEATURE_COUNT, "classes": list(self.classes),
                "mean": rows(self.mean), "scale": rows(self.scale),
                "hidden_w": rows(self.hidden_w), "hidden_b": rows(self.hidden_b),
                "out_w": rows(self.out_w), "out_b": rows(self.out_b)}

    @classmethod
    def from_json(cls, data: dict, source: str = WORD_MODEL_FILE) -> WordModel:
        """Read the serialised form; WordModelError when it does not fit this code."""
        try:
            if data["features"] != FEATURE_COUNT:
                raise WordModelError(f"{source}: made for other features; retrain it")
            arrays = {k: np.asarray(data[k], dtype=float)
                      for k in ("mean", "scale", "hidden_w", "hidden_b", "out_w", "out_b")}
            classes = tuple(str(c) for c in data["classes"])
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, WordModelError):
                raise
            raise WordModelError(f"{source}: broken word model ({exc.__class__.__name__})") \
                from None
        n_hidden = arrays["hidden_b"].shape[0] if arrays["hidden_b"].ndim == 1 else -1
        if (arrays["mean"].shape != (FEATURE_COUNT,) or arrays["scale"].shape != (FEATURE_COUNT,)
                or arrays["hidden_w"].shape != (FEATURE_COUNT, n_hidden)
                or arrays["out_w"].shape != (n_hidden, len(classes))
                or arrays["out_b"].shape != (len(classes),)):
            raise WordModelError(f"{source}: broken word model (shapes)")
        return cls(classes, **arrays)


@dataclass(frozen=True)
class WordEnsemble:
    """A few `WordModel`s over the same classes whose posteriors are averaged."""

    members: tuple[WordModel, ...]

    @property
    def classes(self) -> tuple[str, ...]:
        """The classes, in the first member's order."""
        return self.members[0].classes

    def log_probs(self, features: np.ndarray | None) -> dict[str, float]:
        """Log of the members' mean posterior of every class."""
        each = [member.log_probs(features) for member in self.members]
        return {c: max(float(np.log(np.mean([np.exp(p[c]) for p in each]))), -30.0)
                for c in self.classes}

    def to_json(self) -> dict:
        """Serialisable form."""
        return {"features": FEATURE_COUNT, "members": [m.to_json() for m in self.members]}

    @classmethod
    def from_json(cls, data: dict, source: str = WORD_MODEL_FILE) -> WordEnsemble:
        """Read the serialised form; WordModelError when it does not fit this code."""
        if data.get("features") != FEATURE_COUNT:
            raise WordModelError(f"{source}: made for other features; retrain it")
        members = data["members"]
        if not isinstance(members, list) or not members:
            raise WordModelError(f"{source}: broken word model (no members)")
        models = tuple(WordModel.from_json(m, source) for m in members)
        if any(set(m.classes) != set(models[0].classes) for m in models):
            raise WordModelError(f"{source}: broken word model (members' classes differ)")
        return cls(models)


def load_word_model(path: Path | None = None) -> WordModel | WordEnsemble:
    """The bundled word model (default `models/word-classes.json`)."""
    return load_model(path, WORD_MODEL_FILE, "word model",
                      "python -m beattrainer.recognize.word_training", WordModelError,
                      _word_model_from_json)


def _word_model_from_json(data: dict, source: str) -> WordModel | WordEnsemble:
    if isinstance(data, dict) and "members" in data:
        return WordEnsemble.from_json(data, source)
    return WordModel.from_json(data, source)
