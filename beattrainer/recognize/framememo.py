"""Frame-wise analyses of recent slots, reused where a slot's audio begins like one of them.

The referee hears the same stretch of a stream more than once: the solo finder tries
windows from one onset to different ends, a slot is recognised from where a try
began, and an accepted slot is described again to learn the group's normal voice and
its templates. Each frame of an analysis depends only on the audio under it, so the
frames a new slot shares with one analysed before (same start, one the other's
prefix) are taken from there and only the rest is computed.

The result is the very same as analysing the slot whole: a frame is the same numbers
whichever batch it was computed in, as long as the batch holds at least two frames
(numpy reduces a lone row along another path, which may differ in the last bit), so
no batch of one frame is ever computed alongside others.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

Rows = tuple[np.ndarray, ...]  # arrays with one row per frame (axis 0)
MIN_BATCH_FRAMES = 2   # see the module's docstring


def frame_count(n_samples: int, frame_samples: int, hop_samples: int) -> int:
    """Frames of an analysis over `n_samples` (one padded frame when shorter than a frame)."""
    return max(1, (n_samples - frame_samples) // hop_samples + 1)


class FrameMemo:
    """Remembers an analysis of the last slots' audio and reuses their frames.

    Parameters
    ----------
    analyse : callable, samples -> Rows, one row for each `hop_samples` whose
        `frame_samples` window lies in the audio (one zero-padded frame for shorter audio)
    frame_samples, hop_samples : the analysis' window and hop [samples]
    capacity_samples : how much audio (with its frames) is kept, at most [samples]: the
        least recently used slots go first (the newest stays, however long)
    """

    def __init__(self, analyse: Callable[[np.ndarray], Rows], frame_samples: int,
                 hop_samples: int, capacity_samples: int) -> None:
        self._analyse = analyse
        self.frame_samples = frame_samples
        self.hop_samples = hop_samples
        self.capacity_samples = capacity_samples
        self._kept: list[_Kept] = []  # newest first

    def __call__(self, samples: np.ndarray) -> Rows:
        """The analysis of `samples`, exactly as `analyse(samples)` gives it (read-only arrays)."""
        x = np.asarray(samples).reshape(-1)
        total = frame_count(len(x), self.frame_samples, self.hop_samples)
        if total < MIN_BATCH_FRAMES:
            return self._analyse(x)
        first_frame = x[:self.frame_samples].tobytes()
        shared, kept = self._most_shared(x, first_frame)
        if shared >= total:
            self._forget(kept)
            self._kept.insert(0, kept)
            return tuple(rows[:total] for rows in kept.rows)
        # (the frames computed anew are never fewer than a batch's minimum)
        start = min(shared, total - MIN_BATCH_FRAMES)
        fresh = self._analyse(x[start * self.hop_samples:])
        rows = fresh if start == 0 else tuple(
            np.concatenate([old[:start], new]) for old, new in zip(kept.rows, fresh))
        for array in rows:
            array.flags.writeable = False
        if kept is not None:
            self._forget(kept)  # (its audio begins this slot's: this one serves both)
        self._kept.insert(0, _Kept(x.copy(), first_frame, rows))
        kept_samples = np.cumsum([len(k.audio) for k in self._kept])
        del self._kept[max(1, int(np.searchsorted(kept_samples, self.capacity_samples,
                                                  side="right"))):]
        return rows

    def _forget(self, kept: _Kept) -> None:
        self._kept = [k for k in self._kept if k is not kept]

    def _most_shared(self, x: np.ndarray, first_frame: bytes) -> tuple[int, _Kept | None]:
        """The remembered slot sharing the most frames with `x`, and how many it shares.

        Only slots beginning with the same frame can share any (most begin elsewhere).
        """
        best, best_kept = 0, None
        for kept in self._kept:
            if kept.first_frame != first_frame:
                continue
            n = min(len(kept.audio), len(x))
            if np.array_equal(kept.audio[:n], x[:n]):
                shared = (n - self.frame_samples) // self.hop_samples + 1
                if shared > best:
                    best, best_kept = shared, kept
        return best, best_kept


@dataclass(frozen=True, eq=False)
class _Kept:
    """A slot's audio, its first frame's bytes and the rows of its analysis."""

    audio: np.ndarray
    first_frame: bytes
    rows: Rows
