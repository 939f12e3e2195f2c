"""The room's level in the speech band, and how far a due word rises over it at its beat.

Pure numpy. A quiet MIEZEKATZE (card 08, about 12 dB under the group's normal word) in
babble or pink noise at 10 dB SNR lies about at the room's level: the onset detector hears
no start, and over a slot a period long the word model hears the room (SILENCE 0.43-0.59
where the word was said; MIEZEKATZE/quiet 0.68-0.99 over babble where it was left out).
Where the word was said, though, the speech band's power over the stretch it must fill
from its beat rises over the room's usual level: by 2.4-8 dB (most above 4) in quiet
cards said, by at most 3.5 dB (pink: 0.9) where they were left out (quiet-card study
renders, seed 1000, 194 slots heard without a start; decision 78).
"""
from __future__ import annotations

from collections import deque
from functools import lru_cache

import numpy as np

from beattrainer.dsp.features import array_percentile

SAMPLE_RATE = 16_000
SPEECH_BAND_HZ = (300.0, 3400.0)  # where a voice's power lies (and babble's, and pink's least)
FRAME_HOP_S = 0.01                # the word model's frames (`words.HOP_SAMPLES`)
# The room's level: a low percentile of the speech band's frames over the slots heard
# last (words and the gaps between them: the gaps' room stands out as the lower part).
ROOM_HISTORY_S = 4.0
ROOM_PERCENTILE = 20.0
MIN_ROOM_FRAMES = 100             # fewer frames of history tell no level [frames]
# The stretch a due MIEZEKATZE fills from its beat: its four syllables last 0.7-1.0 s
# (the clips' own length, whatever the period) and it may start a little early [s].
WORD_BEFORE_BEAT_S = 0.05
WORD_AFTER_BEAT_S = 0.8


@lru_cache(maxsize=4)
def _speech_band_bins(fft_samples: int) -> tuple[int, int]:
    """The first and one past the last spectrum bin of `SPEECH_BAND_HZ` (asked every slot)."""
    freqs = np.fft.rfftfreq(fft_samples, 1.0 / SAMPLE_RATE)
    return int(np.searchsorted(freqs, SPEECH_BAND_HZ[0])), \
        int(np.searchsorted(freqs, SPEECH_BAND_HZ[1], side="right"))


def speech_band_levels_db(power: np.ndarray, fft_samples: int) -> np.ndarray:
    """The power of each frame's speech band [dB], from its power spectrum (frames x bins)."""
    first, last = _speech_band_bins(fft_samples)
    return 10.0 * np.log10(power[:, first:last].sum(axis=1) + 1e-12)


class RoomLevel:
    """The speech band's frames of the last `ROOM_HISTORY_S` of slots heard, and their level."""

    def __init__(self) -> None:
        self._frames: deque[float] = deque(maxlen=int(round(ROOM_HISTORY_S / FRAME_HOP_S)))

    def add(self, levels_db: np.ndarray) -> None:
        """Keep a slot's speech-band frame levels [dB] as the room's latest."""
        self._frames.extend(np.asarray(levels_db, dtype=float).tolist())

    def level_db(self) -> float | None:
        """The room's level [dB] (`ROOM_PERCENTILE` of the frames kept), None while too few."""
        if len(self._frames) < MIN_ROOM_FRAMES:
            return None
        return array_percentile(np.fromiter(self._frames, float, len(self._frames)),
                                ROOM_PERCENTILE)


def due_word_rise_db(levels_db: np.ndarray, due_from_s: float, room_db: float) -> float | None:
    """How far the speech band's power over the due word's stretch rises over the room [dB].

    `levels_db` are the slot's speech-band frame levels, `due_from_s` where its word is due
    (its beat) in seconds from the slot's start. None where the slot holds no such stretch.
    """
    first = max(0, int(round((due_from_s - WORD_BEFORE_BEAT_S) / FRAME_HOP_S)))
    last = int(round((due_from_s + WORD_AFTER_BEAT_S) / FRAME_HOP_S))
    stretch = np.asarray(levels_db[first:last], dtype=float)
    if len(stretch) == 0:
        return None
    return float(10.0 * np.log10(np.mean(10.0 ** (stretch / 10.0)))) - room_db
