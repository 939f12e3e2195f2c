"""The acoustic class model: the kind of sound a slot holds, from its summary features.

The classes are silence, voiced word, whispered word, shh, hiss, kiss, squeak, growl and
percussion.

A diagonal Gaussian per class (numpy only), fitted by `fit_class_model` on
the clip library's train voices (`python -m beattrainer.recognize.training`)
and stored as JSON in `models/acoustic-classes.json`.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from beattrainer.recognize.acoustic import FEATURE_NAMES, SlotAcoustics
from beattrainer.recognize.modelfile import load_model
from beattrainer.recognize.vocabulary import CLASSES, QUIET

CLASS_MODEL_FILE = "acoustic-classes.json"
MIN_STD = 0.1   # keeps a feature that never varies in training from dominating
SPREAD_WEIGHT = 0.0  # how much a class pays for being broad (1 = a true density)


class ClassModelError(ValueError):
    """A missing or broken class model file; one-line message."""


@dataclass(frozen=True)
class ClassModel:
    """Per-class mean and spread of the features (rows in CLASSES order)."""

    classes: tuple[str, ...]
    means: np.ndarray  # (n_classes, n_features)
    stds: np.ndarray   # (n_classes, n_features)

    @property
    def _log_spread(self) -> np.ndarray:
        return np.sum(np.log(self.stds), axis=1)

    def log_likelihoods(self, acoustics: SlotAcoustics) -> dict[str, float]:
        """Log-likelihood of the slot's features under each class."""
        if not acoustics.sounding:
            return {QUIET: 0.0, **{c: -50.0 for c in self.classes if c != QUIET}}
        x = acoustics.vector()
        z = (x[None, :] - self.means) / self.stds
        # A Student-like tail: one wild feature must not veto a class outright.
        # No log(std) term by default (SPREAD_WEIGHT 0): with it the narrow classes
        # (growl, few examples) swallowed words of held-out voices (YO -> ZOMBIE);
        # the higher MIN_STD keeps the broad percussion class from taking words.
        ll = -np.sum(np.log1p(0.5 * z**2), axis=1) - SPREAD_WEIGHT * self._log_spread

        out = dict(zip(self.classes, ll.tolist()))
        out[QUIET] = -50.0  # something sounded
        return out

    def probabilities(self, acoustics: SlotAcoustics) -> dict[str, float]:
        """Class posteriors with equal priors."""
        ll = self.log_likelihoods(acoustics)
        values = np.array(list(ll.values()))
        p = np.exp(values - values.max())
        p /= p.sum()
        return dict(zip(ll, p.tolist()))

    def to_json(self) -> dict:
        """Serialisable form."""
        return {"features": list(FEATURE_NAMES), "classes": list(self.classes),
                "means": self.means.round(5).tolist(), "stds": self.stds.round(5).tolist()}

    @classmethod
    def from_json(cls, data: dict, source: str = CLASS_MODEL_FILE) -> ClassModel:
        """Read the serialised form; ClassModelError when it does not fit this code."""
        try:
            if tuple(data["features"]) != FEATURE_NAMES:
                raise ClassModelError(f"{source}: made for other features; retrain it")
            means = np.asarray(data["means"], dtype=float)
            stds = np.asarray(data["stds"], dtype=float)
            classes = tuple(data["classes"])
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, ClassModelError):
                raise
            raise ClassModelError(f"{source}: broken class model ({exc.__class__.__name__})") \
                from None
        if means.shape != (len(classes), len(FEATURE_NAMES)) or stds.shape != means.shape:
            raise ClassModelError(f"{source}: broken class model (shapes)")
        return cls(classes, means, np.maximum(stds, MIN_STD))


def fit_class_model(examples: list[tuple[SlotAcoustics, str]]) -> ClassModel:
    """Fit one Gaussian per class from (acoustics, class) examples.

    Silent examples are skipped (silence is decided by `sounding`); every
    class in CLASSES except silence needs at least two sounding examples.
    """
    by_class: dict[str, list[np.ndarray]] = {}
    for acoustics, name in examples:
        if acoustics.sounding and name != QUIET:
            by_class.setdefault(name, []).append(acoustics.vector())
    classes = tuple(c for c in CLASSES if c != QUIET)
    missing = [c for c in classes if len(by_class.get(c, ())) < 2]
    if missing:
        raise ValueError(f"no training examples for classes {missing}")
    means = np.array([np.mean(by_class[c], axis=0) for c in classes])
    stds = np.array([np.std(by_class[c], axis=0) for c in classes])
    return ClassModel(classes, means, np.maximum(stds, MIN_STD))


def load_class_model(path: Path | None = None) -> ClassModel:
    """The bundled class model (default `models/acoustic-classes.json`)."""
    return load_model(path, CLASS_MODEL_FILE, "class model",
                      "python -m beattrainer.recognize.training", ClassModelError,
                      ClassModel.from_json)
