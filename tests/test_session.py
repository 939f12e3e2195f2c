"""The wiring of a judged performance: what the recognizer is told to listen for."""
from __future__ import annotations

import pytest

from beattrainer.mzkz.sequence import Mode, compile_performance
from beattrainer.session import (
    listened_for_only_where_due,
    other_card_words,
    performance_vocabulary,
)

PLAYERS = ("Anna", "Ben", "Cem")


def vocabulary(cards, mode="highscore"):
    return performance_vocabulary(compile_performance(cards, Mode.parse(mode), None,
                                                      players=PLAYERS))


def test_every_word_a_card_asks_for_is_in_the_vocabulary():
    words = vocabulary(["04", "11", "15", "28"])
    assert {"MIEZEKATZE", "YEAH", "YO", "SHH"} <= set(words)


def test_card_words_not_in_play_are_listened_for_too():
    """Saying another card's word where MIEZEKATZE is due must be heard as that word."""
    perf = compile_performance(["04", "15"], Mode.parse("highscore"), None, players=PLAYERS)
    others = set(other_card_words(perf))
    assert {"WOW", "BAM", "DING DONG", "MIAU"} <= others
    assert not {"YEAH", "SHH", "MIEZEKATZE"} & others  # in play
    # except those that sound like MIEZEKATZE or a whisper
    assert not {"WINKEKATZE", "WAVING CAT"} & others
    perf = compile_performance(["04", "11"], Mode.parse("highscore"), None, players=PLAYERS)
    assert "SHH" not in other_card_words(perf)


def test_names_are_not_listened_for_when_no_card_asks_for_one():
    words = vocabulary(["04", "15", "28", "12"])
    assert not {"ANNA", "BEN", "CEM"} & set(words)


@pytest.mark.parametrize("card, names", [("09", {"ANNA"}), ("13", {"ANNA", "BEN", "CEM"})])
def test_names_are_listened_for_where_a_card_asks_for_them(card, names):
    words = set(vocabulary([card, "04"]))
    assert names <= words
    assert not ({"ANNA", "BEN", "CEM"} - names) & words


@pytest.mark.parametrize("card, names", [("09", {"ANNA"}), ("13", {"ANNA", "BEN", "CEM"})])
def test_names_are_listened_for_only_in_the_slots_that_ask_for_them(card, names):
    perf = compile_performance([card, "04"], Mode.parse("highscore"), None, players=PLAYERS)
    due_only = set(listened_for_only_where_due(perf))
    assert names <= due_only
    assert {"SHH", "WINKEKATZE", "WAVING CAT"} <= due_only
    assert "YEAH" not in due_only
