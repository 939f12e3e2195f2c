"""Deck core: seeded shuffles, piles, the text notation."""
import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from beattrainer.deck.core import (
    Card,
    Deck,
    Pile,
    format_cards,
    format_pile,
    parse_cards,
    parse_pile,
    rng_stream,
    shuffled,
)

ids = st.lists(st.text(alphabet="abcxyz0123456789-_:", min_size=1, max_size=5),
               unique=True, max_size=20)


@given(ids, st.integers(0, 2**32))
def test_shuffle_is_a_permutation_and_reproducible(cards, seed):
    a = shuffled(cards, random.Random(seed))
    b = shuffled(cards, random.Random(seed))
    assert a == b
    assert sorted(a) == sorted(cards)


def test_shuffle_accepts_numpy_generators_and_moves_cards():
    cards = [f"{i:02d}" for i in range(48)]
    a = shuffled(cards, np.random.default_rng(1))
    assert a == shuffled(cards, np.random.default_rng(1))
    assert a != tuple(cards)
    assert a != shuffled(cards, np.random.default_rng(2))


def test_shuffle_is_uniform_enough():
    # every card of 4 should land in first place about a quarter of the time
    rng = random.Random(7)
    firsts = [shuffled("abcd", rng)[0] for _ in range(4000)]
    for card in "abcd":
        assert 850 < firsts.count(card) < 1150


def test_rng_streams_are_independent_and_stable():
    a1 = rng_stream("seed", "deal").random()
    assert a1 == rng_stream("seed", "deal").random()
    assert a1 != rng_stream("seed", "bots").random()
    assert a1 != rng_stream("seed", "deal", 1).random()
    random.seed(99)  # the global generator has no say
    assert a1 == rng_stream("seed", "deal").random()


def test_pile_draw_put_and_face():
    pile = Pile(("01", "02", "03"))
    drawn, rest = pile.draw(2)
    assert drawn == ("01", "02") and rest.cards == ("03",)
    assert rest.put_on_top(drawn).cards == pile.cards
    assert rest.put_under(("09",)).cards == ("03", "09")
    assert pile.top == "01" and Pile().top is None
    assert pile.turned(True).face_up and not pile.face_up
    with pytest.raises(ValueError, match="cannot draw 4"):
        pile.draw(4)


@given(ids, st.booleans())
def test_pile_notation_round_trips(cards, face_up):
    pile = Pile(tuple(cards), face_up=face_up)
    assert parse_pile(format_pile(pile)) == pile
    assert parse_cards(format_cards(cards)) == tuple(cards)


@pytest.mark.parametrize("bad", ["01,,02", "[01", "0 1", "01]"])
def test_bad_notation_is_rejected(bad):
    with pytest.raises(ValueError):
        parse_pile(bad)


def test_deck_lookup_and_duplicates():
    deck = Deck((Card.make("a", {"colour": "red"}), Card.make("b")))
    assert deck["a"].attr("colour") == "red" and "b" in deck and len(deck) == 2
    assert deck.pile().cards == ("a", "b")
    assert sorted(deck.pile(random.Random(3)).cards) == ["a", "b"]
    with pytest.raises(ValueError, match="duplicate"):
        Deck((Card("a"), Card("a")))
