"""Slots built from the clip library's held-out test voices (never used for tuning)."""
from __future__ import annotations

import numpy as np
import pytest

from beattrainer.recognize.simulate import SAMPLE_RATE, add_noise, place, set_level
from beattrainer.synth.clips import ClipLibrary

SLOT_SAMPLES = int(1.5 * SAMPLE_RATE)


@pytest.fixture(scope="session")
def library() -> ClipLibrary:
    """The bundled clip library."""
    return ClipLibrary.load()


@pytest.fixture
def make_slot(library, rng):
    """make_slot(label, voice=None, modifier=None, level_dbfs=-24, snr_db=25, index=0)."""

    def build(label, voice=None, modifier=None, level_dbfs=-24.0, snr_db=25.0, index=0,
              slot_samples=SLOT_SAMPLES):
        if label == "SILENCE":
            return add_noise(np.zeros(slot_samples, np.float32), snr_db, rng,
                             reference_rms=10 ** (level_dbfs / 20))
        query = {"label": label, "split": "test", "modifier": modifier}
        if voice is not None:
            query["voice"] = voice
        clips = library.query(**query)
        clip = clips[index % len(clips)]
        audio = library.audio(clip)[int(clip.onset_s * SAMPLE_RATE):]
        slot = set_level(place(audio, slot_samples, 1600), level_dbfs)
        return add_noise(slot, snr_db, rng, reference_rms=10 ** (-24.0 / 20))

    return build
