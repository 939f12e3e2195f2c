"""The run state machine: lives, retries, squeaker passing, failure and redraw, highscores."""
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from beattrainer.mzkz.game import (
    Outcome,
    Status,
    Verdict,
    draw_deck,
    new_run,
    record,
    restart,
)
from beattrainer.mzkz.sequence import Mode, SequenceError

PLAYERS = ("Anna", "Ben", "Cem")


def tutorial_run(lives=9):
    mode = Mode("tutorial", 1)
    return new_run(mode, PLAYERS, draw_deck(mode, random.Random(0)), lives)


def test_completed_performance_adds_a_card_and_passes_the_squeaker():
    run = tutorial_run()
    assert run.performance == 1 and run.lead_name == "Anna"
    assert run.current_performance().cards_in_play == ("01",)
    run = record(run, Verdict.completed())
    assert run.performance == 2 and run.lead_name == "Ben" and run.lives_left == 9
    perf = run.current_performance()
    assert perf.cards_in_play == ("01", "02") and perf.players[0] == "Ben"


def test_mistake_costs_a_life_and_retries_with_the_same_lead():
    run = record(tutorial_run(), Verdict.completed())
    run = record(run, Verdict.mistake(5, "off_beat"))
    assert (run.performance, run.lead_name, run.lives_left) == (2, "Ben", 8)
    assert run.attempts[-1].verdict.kind == "off_beat" and run.attempts[-1].lead == "Ben"


def test_not_judged_costs_nothing():
    run = record(tutorial_run(), Verdict(Outcome.NOT_JUDGED))
    assert run.lives_left == 9 and run.performance == 1 and len(run.attempts) == 1


def test_tutorial_completes_after_four_performances_and_lives_never_return():
    run = tutorial_run()
    run = record(run, Verdict.mistake(2))
    for _ in range(4):
        assert not run.is_over
        run = record(run, Verdict.completed())
    assert run.status is Status.CHALLENGE_COMPLETED and run.lives_left == 8 and run.score == 4
    with pytest.raises(ValueError):
        record(run, Verdict.completed())


def test_losing_the_last_life_fails_a_challenge_and_restart_gives_full_lives():
    mode = Mode("challenge", 3)
    deck = draw_deck(mode, random.Random(5))
    assert len(deck) == 7
    run = new_run(mode, PLAYERS, deck, lives=2)
    run = record(run, Verdict.completed())
    run = record(run, Verdict.mistake(3))
    run = record(run, Verdict.mistake(4))
    assert run.status is Status.CHALLENGE_FAILED and run.lives_left == 0
    redrawn = draw_deck(mode, random.Random(6))
    again = restart(run, redrawn)
    assert again.lives_left == 2 and again.performance == 1 and again.deck == redrawn
    assert again.status is Status.IN_PROGRESS and len(again.attempts) == 3
    same = restart(run)  # replaying the same cards is allowed
    assert same.deck == deck


def test_highscore_run_ends_with_its_score():
    mode = Mode("highscore")
    run = new_run(mode, PLAYERS, draw_deck(mode, random.Random(1)), lives=1)
    assert len(run.deck) == 48 and run.total_performances == 48
    run = record(record(run, Verdict.completed()), Verdict.completed())
    run = record(run, Verdict.mistake(7))
    assert run.status is Status.HIGHSCORE_ENDED and run.score == 2 and run.lives_lost == 1


def test_highscore_deck_exhausted():
    mode = Mode("highscore", 7)
    run = new_run(mode, ("Solo",), ["03", "04", "05", "06"])
    assert run.total_performances == 2
    assert run.current_performance().cards_in_play == ("03", "04", "05")
    run = record(record(run, Verdict.completed()), Verdict.completed())
    assert run.status is Status.DECK_EXHAUSTED and run.lead_name == "Solo"


def test_draw_deck_is_seeded_and_respects_the_mode():
    ch5 = Mode("challenge", 5)
    a = draw_deck(ch5, random.Random(42))
    assert a == draw_deck(ch5, random.Random(42)) and len(a) == 6
    assert not set(a) & {"01", "02", "09", "21", "22", "33", "36", "44"}
    t2 = draw_deck(Mode("tutorial", 2), random.Random(3))
    assert sorted(t2) == ["05", "08", "10", "11", "13", "14"]
    assert draw_deck(Mode("tutorial", 1), random.Random(3)) == ("01", "02", "03", "04")


@pytest.mark.parametrize("players, deck, lives, message", [
    ((), ("01", "02", "03", "04"), 9, "at least one player"),
    (("A", "A"), ("01", "02", "03", "04"), 9, "must differ"),
    (("A",), ("01", "02", "03", "04"), 0, "at least one life"),
    (("A",), ("01", "02"), 9, "needs 4 cards"),
])
def test_bad_runs_are_rejected(players, deck, lives, message):
    with pytest.raises(SequenceError, match=message):
        new_run(Mode("tutorial", 1), players, deck, lives)


verdicts = st.lists(st.sampled_from(["ok", "mistake", "not_judged"]), max_size=80)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["tutorial-2", "challenge-4", "challenge-8", "highscore",
                        "highscore-rules-3"]),
       st.integers(1, 5), verdicts, st.integers(0, 1000))
def test_run_invariants_under_any_verdicts(mode_name, lives, sequence, seed):
    mode = Mode.parse(mode_name)
    run = new_run(mode, PLAYERS, draw_deck(mode, random.Random(seed)), lives)
    for verdict_name in sequence:
        if run.is_over:
            break
        before = run
        verdict = {"ok": Verdict.completed(), "mistake": Verdict.mistake(2),
                   "not_judged": Verdict(Outcome.NOT_JUDGED)}[verdict_name]
        run = record(run, verdict)
        assert run.lives_left <= before.lives_left  # lives never come back
        assert len(run.attempts) == len(before.attempts) + 1
        if verdict_name == "ok" and not run.is_over:
            assert run.performance == before.performance + 1
            assert run.lead == (before.lead + 1) % len(PLAYERS)
        elif verdict_name != "ok":
            assert (run.performance, run.lead) == (before.performance, before.lead)
        if run.lives_left == 0:
            assert run.status in (Status.CHALLENGE_FAILED, Status.HIGHSCORE_ENDED)
        assert run.completed <= run.total_performances
