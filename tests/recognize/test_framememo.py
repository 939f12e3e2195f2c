"""The frame memo gives exactly what analysing each slot whole gives, bit for bit."""
from __future__ import annotations

import numpy as np
import pytest

from beattrainer.recognize.acoustic import FRAME_SAMPLES, HOP_SAMPLES, frame_rows
from beattrainer.recognize.framememo import FrameMemo
from beattrainer.recognize.words import FRAME_SAMPLES as WORD_FRAME
from beattrainer.recognize.words import HOP_SAMPLES as WORD_HOP
from beattrainer.recognize.words import frame_powers


def _stream(make_slot) -> np.ndarray:
    """A few seconds of words and noise, as the referee's stream holds them."""
    return np.concatenate([make_slot(label, index=i, snr_db=20.0)
                           for i, label in enumerate(("MIEZEKATZE", "YEAH", "SILENCE", "BAM"))])


def _spans(rng: np.random.Generator, n_samples: int) -> list[tuple[int, int]]:
    """Tries and slots as the referee asks them.

    Several ends from one start, a longer slot from where a try began, the same slot again,
    and odd lengths (under a frame, one frame more than a try, one frame).
    """
    spans = []
    for _ in range(12):
        start = int(rng.integers(0, n_samples // 2))
        for length in sorted(rng.integers(FRAME_SAMPLES, n_samples // 2, size=3)):
            spans.append((start, start + int(length)))
        spans.append(spans[-1])
    start = int(rng.integers(0, n_samples // 2))
    spans += [(start, start + 300), (start, start + FRAME_SAMPLES),
              (start, start + FRAME_SAMPLES + 3 * HOP_SAMPLES),
              (start, start + FRAME_SAMPLES + 4 * HOP_SAMPLES),  # one frame more
              (start, start + FRAME_SAMPLES + 4 * HOP_SAMPLES + 7),
              (start, start + 20 * HOP_SAMPLES), (start, start + FRAME_SAMPLES + HOP_SAMPLES)]
    return spans


@pytest.mark.parametrize("analyse, frame, hop, capacity_samples", [
    (frame_rows, FRAME_SAMPLES, HOP_SAMPLES, 160_000),  # the acoustic frames
    (frame_powers, WORD_FRAME, WORD_HOP, 40_000),  # the word spectra
])
def test_remembered_frames_are_those_of_the_whole_slot(make_slot, rng, analyse, frame, hop,
                                                       capacity_samples):
    stream = _stream(make_slot)
    memo = FrameMemo(analyse, frame, hop, capacity_samples=capacity_samples)
    for a, b in _spans(rng, len(stream)):
        got, want = memo(stream[a:b]), analyse(stream[a:b])
        assert all(np.array_equal(g, w) for g, w in zip(got, want, strict=True)), (a, b)


def test_frames_handed_out_cannot_be_changed(make_slot):
    slot = make_slot("YEAH")
    memo = FrameMemo(frame_rows, FRAME_SAMPLES, HOP_SAMPLES, capacity_samples=40_000)
    memo(slot)
    level_db = memo(slot[:len(slot) // 2])[0]
    assert not level_db.flags.writeable
