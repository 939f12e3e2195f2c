"""Expected slot times with re-anchoring after free-timing cards."""
import pytest

from beattrainer.mzkz.sequence import Mode, compile_performance
from beattrainer.mzkz.timeline import slot_times_s


def test_plain_grid_from_the_first_solo():
    perf = compile_performance(["01", "04"], Mode("highscore"))
    times = slot_times_s(perf.slots, 1.5, 2.0)
    assert times == pytest.approx([2.0 + 1.5 * i for i in range(len(perf.slots))])


def test_free_timing_card_reanchors_the_next_slot():
    perf = compile_performance(["10", "04"], Mode("highscore"))  # slow-mo is free timing
    slot_after = 3  # solos 0, 1; card 10 at 2; card 04 at 3
    assert perf.slots[2].card == "10" and perf.slots[2].expected.free_timing
    unanchored = slot_times_s(perf.slots, 1.0, 0.0)
    assert unanchored[2] == pytest.approx(2.0)  # the free slot starts on the beat
    assert all(t is None for t in unanchored[slot_after:])
    anchored = slot_times_s(perf.slots, 1.0, 0.0, {slot_after: 4.7})
    assert anchored[slot_after] == pytest.approx(4.7)
    assert anchored[slot_after + 1] == pytest.approx(5.7)  # the next free card starts on the grid
    assert anchored[slot_after + 2] is None  # and after it the grid is lost again


def test_silent_slot_after_free_card_waits_for_a_heard_one():
    perf = compile_performance(["34", "26", "04"], Mode("highscore"))
    # solos 0-1, then 34 (free), 26 (silent), 04
    times = slot_times_s(perf.slots, 1.0, 0.0, {4: 6.3})
    assert times[3] is None and times[4] == pytest.approx(6.3)
    assert times[5] == pytest.approx(7.3)


def test_canon_voices_follow_their_own_grid():
    perf = compile_performance(["03", "04"], Mode("challenge", 6), players=["A", "B"])
    times = slot_times_s(perf.slots, 0.8, 1.0)
    for slot, t in zip(perf.slots, times):
        assert t == pytest.approx(1.0 + 0.8 * slot.beat)


def test_period_must_be_positive():
    with pytest.raises(ValueError):
        slot_times_s([], 0.0, 0.0)
