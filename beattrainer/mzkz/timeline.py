"""Expected slot times: a grid of the word period from the first solo.

The grid is re-anchored after free-timing cards where the next slot is
actually heard.

Pure arithmetic over slots; the referee feeds it the period it measures.
"""
from __future__ import annotations

from typing import Mapping, Sequence

from beattrainer.mzkz.model import Slot


def slot_times_s(slots: Sequence[Slot], period_s: float, first_onset_s: float,
                 anchors_s: Mapping[int, float] | None = None) -> list[float | None]:
    """Expected onset time of every slot [s].

    Parameters
    ----------
    slots : the performance's slots (`Slot.beat` counts word periods from the first solo)
    period_s : word period T [s]
    first_onset_s : when the first solo starts [s]
    anchors_s : heard onset [s] by slot index; used for the slot after a free-timing
        slot, which re-anchors the grid of its voice

    Returns
    -------
    list of float or None, one per slot: None where the grid is not anchored yet
    (after a free-timing slot, until the next slot of that voice has been heard).
    """
    if period_s <= 0:
        raise ValueError("the word period must be positive")
    anchors_s = anchors_s or {}
    times: list[float | None] = [None] * len(slots)
    grid: dict[int, tuple[int, float] | None] = {}  # voice -> (beat, time) reference
    waiting: dict[int, bool] = {}  # voice -> grid lost after a free-timing slot
    for i, slot in enumerate(slots):
        voice = slot.voice
        grid.setdefault(voice, (0, first_onset_s))
        if waiting.get(voice):
            # A silent slot cannot anchor; the grid stays lost until a slot is heard.
            heard = anchors_s.get(slot.index)
            grid[voice] = (slot.beat, heard) if heard is not None else None
            waiting[voice] = heard is None
        ref = grid[voice]
        if ref is not None:
            ref_beat, ref_time = ref
            times[i] = ref_time + (slot.beat - ref_beat) * period_s
        if slot.expected.free_timing:
            waiting[voice] = True
    return times
