"""A slot's quiet tail after its word is not decoded (decision 72).

A slot runs on to the next word's start; pocketsphinx spent a third of its work on the
quiet audio after the word. `QuietTail` holds those chunks back, and drops them unless
a loud chunk follows.
"""
from __future__ import annotations

import numpy as np
import pytest

from beattrainer.recognize import SlotRecognizer
from beattrainer.recognize.speech import CHUNK_SAMPLES, QuietTail
from beattrainer.recognize.vocabulary import Item

LOUD, QUIET = 10_000, 100  # PCM amplitudes 40 dB apart


def _chunks(*amplitudes: int) -> np.ndarray:
    """One CHUNK_SAMPLES chunk of a square wave of each amplitude, in turn."""
    wave = np.tile([1, -1], CHUNK_SAMPLES // 2)
    return np.concatenate([a * wave for a in amplitudes]).astype("<i2")


def test_the_quiet_tail_past_the_kept_chunks_is_held_back():
    tail = QuietTail(keep_chunks=2)
    decoded = tail.take(_chunks(LOUD, LOUD, QUIET, QUIET, QUIET, QUIET))
    assert len(decoded) == 4 * CHUNK_SAMPLES
    assert tail.holding and len(tail.held) == 2 * CHUNK_SAMPLES


def test_a_pause_inside_the_slot_is_decoded_once_sound_follows():
    tail = QuietTail(keep_chunks=1)
    audio = _chunks(LOUD, QUIET, QUIET, QUIET, LOUD, QUIET)
    decoded = np.concatenate([tail.take(audio[:3 * CHUNK_SAMPLES]),
                              tail.take(audio[3 * CHUNK_SAMPLES:])])
    assert np.array_equal(decoded, audio) and not tail.holding


def test_a_steady_sound_is_all_decoded():
    tail = QuietTail(keep_chunks=0)
    audio = _chunks(*[QUIET] * 7)  # (silence or steady noise: the first chunk sets the peak)
    assert np.array_equal(tail.take(audio), audio) and not tail.holding


@pytest.mark.parametrize("piece_chunks", [1, 2, 3, 7])
def test_what_is_decoded_does_not_depend_on_where_the_input_is_cut(piece_chunks):
    rng = np.random.default_rng(piece_chunks)
    audio = _chunks(*rng.choice([LOUD, 3000, 600, QUIET], 40))
    whole, pieces = QuietTail(), QuietTail()
    in_pieces = [pieces.take(audio[i:i + piece_chunks * CHUNK_SAMPLES])
                 for i in range(0, len(audio), piece_chunks * CHUNK_SAMPLES)]
    assert np.array_equal(np.concatenate(in_pieces), whole.take(audio))
    assert np.array_equal(pieces.held, whole.held)


class _CountingDecoder:
    """The pocketsphinx decoder, counting the samples it is given."""

    def __init__(self, decoder) -> None:
        self._decoder = decoder
        self.samples = 0

    def process_raw(self, data: bytes) -> None:
        self.samples += len(data) // 2
        self._decoder.process_raw(data)

    def __getattr__(self, name):
        return getattr(self._decoder, name)


def test_a_slots_quiet_tail_is_not_decoded_and_its_word_is_still_heard(render):
    # one voice, 30 dB pink noise, a slow beat: each word is followed by a second or more
    # of noise up to the next word's start, as in a slot the referee cuts
    perf, samples, sr, truth = render(["01", "04", "08"], "highscore", seed=7, split="test",
                                      voices=1, snr_db=30.0, noise="pink", period_s=2.0)
    starts = [s["expected_onset_s"] for s in truth["slots"]]
    windows = [samples[int((a - 0.03) * sr):int(b * sr)] for a, b in zip(starts, starts[1:])]
    recognizer = SlotRecognizer.create(backend="pocketsphinx",
                                       vocabulary=("MIEZEKATZE", "YEAH", "BAM", "YO"))
    decoder = recognizer.speech._decoder = _CountingDecoder(recognizer.speech._decoder)
    said = heard_right = 0
    for window, slot in zip(windows, perf.slots):
        speech = recognizer.analyse(window, None).speech
        if slot.expected.text and slot.expected.sound.value != "silence":
            said += 1
            heard_right += speech.label == Item.parse(slot.expected.item()).label
    assert decoder.samples < 0.6 * sum(len(w) for w in windows)  # (0.42; all of it before)
    assert said >= 10 and heard_right >= 0.9 * said
