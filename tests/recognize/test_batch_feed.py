"""The batch form of the recognizer takes a slot in one go and hears it the same as fed in blocks.

pocketsphinx's scores change with where its input is cut (a slot fed whole scored otherwise
than in 512-sample blocks), so `SphinxBackend.feed_blocks` must hand the decoder the very
chunks the blocks' `feed` calls would.
"""
from __future__ import annotations

import numpy as np
import pytest

from beattrainer.recognize import SlotContext, SlotRecognizer
from beattrainer.recognize.speech import CHUNK_SAMPLES, QuietTail, SphinxBackend


class _RecordingDecoder:
    """Stands in for the pocketsphinx decoder: keeps every chunk it is given."""

    def __init__(self) -> None:
        self.chunks: list[bytes] = []

    def process_raw(self, data: bytes) -> None:
        self.chunks.append(bytes(data))


def _backend_recording_chunks() -> SphinxBackend:
    backend = SphinxBackend.__new__(SphinxBackend)
    backend._decoder = _RecordingDecoder()
    backend._pending = np.zeros(0, dtype=np.float32)
    backend._tail = QuietTail()
    return backend


@pytest.mark.parametrize("n_samples", [0, 1, 319, 320, 511, 512, 513, 5000, 24_000, 24_001])
@pytest.mark.parametrize("block_samples", [512, 500, 320, 4096])
@pytest.mark.parametrize("pending_samples", [0, 100])
def test_feed_blocks_hands_over_the_chunks_of_feeding_each_block(n_samples, block_samples,
                                                                 pending_samples):
    rng = np.random.default_rng(n_samples + block_samples)
    before = rng.uniform(-1.2, 1.2, pending_samples).astype(np.float32)  # (clipped too)
    samples = rng.uniform(-1.2, 1.2, n_samples).astype(np.float32)
    one_by_one, in_one_go = _backend_recording_chunks(), _backend_recording_chunks()
    for backend in (one_by_one, in_one_go):
        backend.feed(before)
    for i in range(0, len(samples), block_samples):
        one_by_one.feed(samples[i:i + block_samples])
    in_one_go.feed_blocks(samples, block_samples)
    assert in_one_go._decoder.chunks == one_by_one._decoder.chunks
    assert all(len(chunk) % (2 * CHUNK_SAMPLES) == 0 for chunk in in_one_go._decoder.chunks)
    assert np.array_equal(in_one_go._pending, one_by_one._pending)


def _streamed(recognizer: SlotRecognizer, samples: np.ndarray, ctx: SlotContext,
              block_samples: int = 512):
    """What `recognize` did before it took the slot in one go."""
    recognizer.start_slot(ctx)
    for i in range(0, len(samples), block_samples):
        recognizer.feed(samples[i:i + block_samples])
    return recognizer.end_slot()


def _decoded(recognizer: SlotRecognizer) -> tuple[str, float | None]:
    hyp = recognizer.speech._decoder.hyp()
    return (hyp.hypstr, hyp.best_score) if hyp is not None else ("", None)


def test_a_slot_taken_in_one_go_is_heard_as_fed_in_blocks(render):
    # a rendered performance (held-out test voices in babble), cut into windows as the
    # referee cuts slots: each is heard the same, the decoder's score included
    perf, samples, sr, truth = render(["01", "04", "08"], "highscore", seed=7, split="test",
                                      voices=2, snr_db=15.0, noise="babble")
    starts = [s["expected_onset_s"] for s in truth["slots"]]
    windows = [samples[int((a - 0.08) * sr):int(b * sr)] for a, b in zip(starts, starts[1:])]
    vocabulary = ("MIEZEKATZE", "YEAH", "BAM", "YO")
    in_one_go = SlotRecognizer.create(backend="pocketsphinx", vocabulary=vocabulary)
    in_blocks = SlotRecognizer.create(backend="pocketsphinx", vocabulary=vocabulary)
    words = 0
    for window, slot in zip(windows, perf.slots):
        ctx = SlotContext(expected=slot.expected)
        heard = in_one_go.recognize(window, ctx)
        streamed = _streamed(in_blocks, window, ctx)
        assert heard == streamed and heard.posteriors == streamed.posteriors
        assert _decoded(in_one_go) == _decoded(in_blocks)
        words += heard.accepted and heard.label != "SILENCE"
    assert words >= 10
