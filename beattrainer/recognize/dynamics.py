"""The dynamics model: whether a MIEZEKATZE was said normally, quiet, loud or high.

The word is judged against the performer's (or group's) own normal voice.

Pure numpy at run time: a multinomial logistic regression on a few features
relative to the reference profile (level change, pitch rise of the median, of
the lowest voices and of the lowest voice's octave-checked pitch, duration
ratio, voicing). Fitted on renders of the clip
library's train voices by `python -m beattrainer.recognize.dynamics_training`
and stored in `models/dynamics.json`. Slow and whisper are judged by the
acoustic layer's own rules (`acoustic.dynamics_scores`).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from beattrainer.recognize.acoustic import GroupProfile, SlotAcoustics
from beattrainer.recognize.modelfile import load_model

DYNAMICS_MODEL_FILE = "dynamics.json"
DYNAMICS_CLASSES = ("normal", "quiet", "loud", "high")
FEATURE_NAMES = ("level_change", "median_rise", "low_rise", "larger_rise", "has_pitch",
                 "log_duration_ratio", "voiced_fraction", "harmonic_share", "lead_alone",
                 "lead_alone_level_change", "lowest_voice_rise")


class DynamicsModelError(ValueError):
    """A missing or broken dynamics model file; one-line message."""


def _rise_octaves(hz: float | None, reference_hz: float | None) -> float:
    return float(np.log2(hz / reference_hz)) if hz and reference_hz else 0.0


def dynamics_features(acoustics: SlotAcoustics, reference: GroupProfile) -> np.ndarray | None:
    """The model's input for a sounding slot against its reference (None: nothing sounded)."""
    if not acoustics.sounding or acoustics.level_db is None:
        return None
    median_rise = _rise_octaves(acoustics.pitch_hz, reference.pitch_hz)
    low_rise = _rise_octaves(acoustics.pitch_low_hz, reference.pitch_low_hz)
    level_change = (acoustics.level_db - reference.level_db) / 10.0
    return np.array([
        level_change,
        median_rise,
        low_rise,
        # a group's high shows in its lowest voices; one voice's in its median
        # (its lowest frames hold the pitch tracker's octave slips)
        max(median_rise, low_rise),
        float(bool(acoustics.pitch_hz and reference.pitch_hz)),
        float(np.log(max(acoustics.duration_s, 0.01) / max(reference.duration_s, 0.05))),
        acoustics.voiced_fraction,
        acoustics.harmonic_share,
        # against the lead's solos the group's normal word is louder and lower: without
        # this, the model learnt one boundary for both references (decision 38)
        float(reference.lead_alone),
        level_change * reference.lead_alone,
        # the median follows whichever voice of a group is loudest, the 20th percentile
        # slips to subharmonics and to a room's babble; the strong frames' octave-checked
        # pitch stays on the group's lowest voice (decision 82)
        _rise_octaves(acoustics.lowest_voice_hz, reference.lowest_voice_hz),
    ])


@dataclass(frozen=True)
class DynamicsModel:
    """Softmax regression: probabilities of `classes` from `dynamics_features`."""

    classes: tuple[str, ...]
    coef: np.ndarray       # (classes, features)
    intercept: np.ndarray  # (classes,)

    def probabilities(self, acoustics: SlotAcoustics, reference: GroupProfile) -> dict[str, float]:
        """Probability of each class (all 0 when nothing sounded)."""
        x = dynamics_features(acoustics, reference)
        if x is None:
            return {c: 0.0 for c in self.classes}
        logits = self.coef @ x + self.intercept
        p = np.exp(logits - logits.max())
        return dict(zip(self.classes, (p / p.sum()).tolist()))

    def to_json(self) -> dict:
        """Serialisable form."""
        return {"features": list(FEATURE_NAMES), "classes": list(self.classes),
                "coef": np.round(self.coef, 6).tolist(),
                "intercept": np.round(self.intercept, 6).tolist()}

    @classmethod
    def from_json(cls, data: dict, source: str = DYNAMICS_MODEL_FILE) -> DynamicsModel:
        """Read the serialised form; DynamicsModelError when it does not fit this code."""
        try:
            if tuple(data["features"]) != FEATURE_NAMES:
                raise DynamicsModelError(f"{source}: made for other features; retrain it")
            classes = tuple(str(c) for c in data["classes"])
            coef = np.asarray(data["coef"], dtype=float)
            intercept = np.asarray(data["intercept"], dtype=float)
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, DynamicsModelError):
                raise
            raise DynamicsModelError(f"{source}: broken dynamics model "
                                     f"({exc.__class__.__name__})") from None
        if set(classes) != set(DYNAMICS_CLASSES) or coef.shape != (len(classes),
                                                                     len(FEATURE_NAMES)) \
                or intercept.shape != (len(classes),):
            raise DynamicsModelError(f"{source}: broken dynamics model (shapes)")
        return cls(classes, coef, intercept)


def load_dynamics_model(path: Path | None = None) -> DynamicsModel:
    """The bundled dynamics model (default `models/dynamics.json`)."""
    return load_model(path, DYNAMICS_MODEL_FILE, "dynamics model",
                      "python -m beattrainer.recognize.dynamics_training", DynamicsModelError,
                      DynamicsModel.from_json)
