"""The room's speech-band level and a due word's rise over it (decision 78)."""
from __future__ import annotations

import numpy as np

from beattrainer.recognize.fusion import rise_evidence
from beattrainer.recognize.room import RoomLevel, due_word_rise_db


def test_the_room_level_needs_a_second_of_history_and_forgets_after_four():
    room = RoomLevel()
    room.add(np.full(50, 10.0))
    assert room.level_db() is None
    room.add(np.full(400, 20.0))  # the older frames drop out
    assert room.level_db() == 20.0


def test_a_word_rises_over_the_room_only_from_its_beat():
    levels_db = np.full(200, 10.0)
    levels_db[50:130] = 16.0  # a word from 0.5 s to 1.3 s
    assert due_word_rise_db(levels_db, 0.5, 10.0) > 5.0
    assert abs(due_word_rise_db(levels_db, 1.4, 10.0)) < 0.5
    assert due_word_rise_db(levels_db, 5.0, 10.0) is None


def test_a_clear_rise_speaks_for_the_due_word_and_none_against_it():
    assert rise_evidence(True, 6.0) > -0.1 > rise_evidence(False, 6.0)
    assert rise_evidence(True, 0.0) < -3.0 < -0.1 < rise_evidence(False, 0.0)
