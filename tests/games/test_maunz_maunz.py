"""Maunz Maunz rules.

The T-MM table of the rulings, scripted scenarios for each rule and ruling
(stacked decks and hand-built tables), and a seeded bot fuzz.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from beattrainer.deck.core import rng_stream
from beattrainer.games import maunz_maunz as mm
from beattrainer.games.core import ConfigError, IllegalAction
from beattrainer.games.maunz_maunz import (
    COLOURS,
    MAUNZ,
    MAUNZ_MAUNZ,
    RULES,
    SPECIALS,
    Draw,
    Play,
    build_deck,
    colour_of,
    make_bot,
    motif_of,
)

NAMES = ("Ann", "Ben", "Cleo", "Dan", "Eva")


def hand_order(cards):
    """Cards in catalog order, as the engine keeps hands."""
    ids = mm.FULL_DECK.ids
    return tuple(sorted(cards, key=ids.index))


def table(hands, top, draw=(), *, active=None, wished=False, to_move=0,
          discard_under=(), rest="draw", **options):
    """A hand-built table: `hands` per seat, `top` face up, `draw` on top of the draw pile.

    Every other card in play goes to the bottom of the draw pile (rest="draw"), to
    the discard pile under the top card (rest="discard"), into one seat's hand
    (rest=<seat>), or out of the game (rest="out": breaks card conservation, used
    only to reach a stalemate that a full deck cannot produce).
    """
    players = list(NAMES[:len(hands)])
    s = RULES.new_game({"players": players, "start_player": to_move + 1, **options}, "table")
    hands = [list(h) for h in hands]
    used = [c for h in hands for c in h] + [top, *discard_under, *draw]
    assert len(set(used)) == len(used), "a card is listed twice"
    leftover = [c for c in s.config.deck.ids if c not in set(used)]
    discard = (top, *discard_under)
    pile = tuple(draw)
    if rest == "draw":
        pile += tuple(leftover)
    elif rest == "discard":
        discard += tuple(leftover)
    elif isinstance(rest, int):
        hands[rest] += leftover
    else:
        assert rest == "out"
    return replace(
        s, hands=tuple(hand_order(h) for h in hands), discard=discard, draw_pile=pile,
        active_colour=active or colour_of(top), wished=wished, to_move=to_move,
        round_start=to_move)


def all_cards(s):
    return sorted([c for h in s.hands for c in h] + list(s.draw_pile) + list(s.discard))


def playable_cards(s, seat):
    return {a.card for a in RULES.legal_actions(s, seat) if isinstance(a, Play)}


def texts(events):
    return " ".join(e.public for e in events)


# ------------------------------------------------------------------ T-MM table
def test_t_mm_01_default_deck_has_52_unique_cards():
    deck = build_deck()
    assert len(deck) == 52 and len(set(deck.ids)) == 52
    assert Counter(colour_of(c) for c in deck.ids) == {c: 13 for c in COLOURS}
    specials = Counter(motif_of(c) for c in deck.ids if motif_of(c) in SPECIALS)
    assert specials == {m: 4 for m in SPECIALS}
    s = RULES.new_game({"players": ["Ann", "Ben"]}, "seed")
    assert all_cards(s) == sorted(deck.ids)
    assert [len(h) for h in s.hands] == [5, 5] and len(s.discard) == 1


def test_t_mm_02_excluded_specials_leave_44_cards():
    deck = build_deck(("pirate", "party"))
    assert len(deck) == 44
    assert not {motif_of(c) for c in deck.ids} & {"pirate", "party"}
    s = RULES.new_game({"players": ["Ann", "Ben"], "excluded_specials": "pirate, party"}, "x")
    assert s.config.excluded_specials == ("pirate", "party")
    assert all_cards(s) == sorted(deck.ids)


def test_t_mm_03_colour_or_motif_or_party_is_playable():
    s = table([["red-cat7", "blue-cat3", "blue-cat5", "green-party"], ["red-cat1"]], "red-cat3")
    assert playable_cards(s, 0) == {"red-cat7", "blue-cat3", "green-party"}


def test_t_mm_04_fairy_wish_sets_colour_only():
    s = table([["red-fairy", "red-cat1", "red-cat2"],
               ["green-cat1", "blue-fairy", "yellow-party", "red-cat7", "blue-cat2"]], "red-cat3")
    s, _ = RULES.apply(s, 0, Play("red-fairy", wish="green"))
    assert (s.active_colour, s.wished, s.top_motif) == ("green", True, "fairy")
    assert playable_cards(s, 1) == {"green-cat1", "blue-fairy", "yellow-party"}


def test_t_mm_05_party_sets_its_own_colour():
    s = table([["blue-party", "red-cat1", "red-cat2"],
               ["blue-cat5", "green-party", "red-cat7", "yellow-cat3"]], "red-cat3")
    s, _ = RULES.apply(s, 0, Play("blue-party"))
    assert s.active_colour == "blue" and not s.wished
    assert playable_cards(s, 1) == {"blue-cat5", "green-party"}


def test_t_mm_06_draw_is_illegal_with_a_fitting_card():
    s = table([["red-cat7", "blue-cat5"], ["green-cat1"]], "red-cat3")
    assert Draw() not in RULES.legal_actions(s, 0)
    with pytest.raises(IllegalAction):
        RULES.apply(s, 0, Draw())


def test_t_mm_07_drawn_card_is_not_played_even_if_it_fits():
    s = table([["blue-cat5", "green-cat1"], ["green-cat2"]], "red-cat3", draw=["red-cat7"])
    assert RULES.legal_actions(s, 0) == (Draw(),)
    after, events = RULES.apply(s, 0, Draw())
    assert after.hands[0] == hand_order(["blue-cat5", "green-cat1", "red-cat7"])
    assert after.discard == s.discard and after.to_move == 1
    assert events[0].private[0].endswith("red cat7.") and "red cat7" not in events[0].public


def test_t_mm_08_pooper_skips_the_next_of_three():
    s = table([["red-pooper", "red-cat1", "red-cat2"], ["green-cat1"],
               ["yellow-cat1"]], "red-cat3")
    after, events = RULES.apply(s, 0, Play("red-pooper"))
    assert after.to_move == 2
    assert after.hands[1] == s.hands[1]
    assert "Ben is skipped" in texts(events)


def test_t_mm_09_pooper_with_two_players_gives_the_turn_back():
    s = table([["red-pooper", "red-cat1", "red-cat2"], ["green-cat1", "green-cat2"]], "red-cat3")
    after, _ = RULES.apply(s, 0, Play("red-pooper"))
    assert after.to_move == 0
    assert after.hands[1] == s.hands[1] and len(after.draw_pile) == len(s.draw_pile)


def test_t_mm_10_winked_player_draws_two_and_may_play_them():
    s = table([["red-winking", "blue-cat1", "blue-cat2"], ["green-cat1"], ["yellow-cat1"]],
              "red-cat3", draw=["red-cat2", "red-cat4"])
    after, _ = RULES.apply(s, 0, Play("red-winking"))
    assert after.to_move == 1 and after.active_colour == "red"
    assert after.hands[1] == hand_order(["green-cat1", "red-cat2", "red-cat4"])
    assert Play("red-cat2") in RULES.legal_actions(after, 1)


def test_t_mm_11_pirate_swaps_whole_hands():
    p2 = ["green-cat1", "green-cat2", "yellow-cat5", "blue-cat8"]
    s = table([["red-pirate", "red-cat1", "blue-cat6"], ["yellow-cat1"], p2], "red-cat3")
    after, events = RULES.apply(s, 0, Play("red-pirate", swap_with=2))
    assert after.hands[0] == hand_order(p2)
    assert after.hands[2] == hand_order(["red-cat1", "blue-cat6"])
    assert after.hands[1] == s.hands[1]
    assert "Ann swaps hands with Cleo" in texts(events)


def test_t_mm_12_penalty_goes_into_the_hand_held_after_the_swap():
    p1 = ["green-cat1", "green-cat2", "yellow-cat5"]
    s = table([["red-pirate", "blue-cat6"], p1], "red-cat3", draw=["yellow-cat8"])
    after, _ = RULES.apply(s, 0, Play("red-pirate", swap_with=1, call=None))
    assert after.hands[0] == hand_order(p1 + ["yellow-cat8"])
    assert after.hands[1] == ("blue-cat6",)


def test_t_mm_13_missing_maunz_costs_a_card():
    s = table([["red-cat1", "blue-cat6"], ["green-cat1"]], "red-cat3", draw=["yellow-cat8"])
    after, events = RULES.apply(s, 0, Play("red-cat1", call=None))
    assert after.hands[0] == hand_order(["blue-cat6", "yellow-cat8"])
    assert "penalty" in texts(events)


def test_t_mm_14_correct_maunz_has_no_penalty():
    s = table([["red-cat1", "blue-cat6"], ["green-cat1"]], "red-cat3")
    after, _ = RULES.apply(s, 0, Play("red-cat1", call=MAUNZ))
    assert after.hands[0] == ("blue-cat6",)
    assert len(after.draw_pile) == len(s.draw_pile)


def test_t_mm_15_last_card_with_maunz_maunz_wins_and_no_effect_resolves():
    s = table([["red-winking"], ["green-cat1", "green-cat2"], ["yellow-cat1"]], "red-cat3")
    after, events = RULES.apply(s, 0, Play("red-winking", call=MAUNZ_MAUNZ))
    assert after.cats == (1, 0, 0)
    assert after.round_no == 2 and not after.finished
    assert "winked" not in texts(events)
    assert [len(h) for h in after.hands] == [5, 5, 5]
    assert all_cards(after) == sorted(build_deck().ids)


def test_t_mm_16_missed_maunz_maunz_keeps_the_round_going_with_effect():
    s = table([["red-winking"], ["green-cat1"], ["yellow-cat1"]], "red-cat3",
              draw=["blue-cat1", "blue-cat2", "blue-cat3"])
    after, _ = RULES.apply(s, 0, Play("red-winking", call=MAUNZ))
    assert after.round_no == 1 and after.cats == (0, 0, 0)
    assert after.hands[1] == hand_order(["green-cat1", "blue-cat1", "blue-cat2"])
    assert after.hands[0] == ("blue-cat3",)
    assert after.to_move == 1


def test_t_mm_17_superfluous_call_is_ignored():
    s = table([["red-cat1", "blue-cat6", "green-cat2"], ["green-cat1"]], "red-cat3")
    after, _ = RULES.apply(s, 0, Play("red-cat1", call=MAUNZ_MAUNZ))
    assert after.hands[0] == hand_order(["blue-cat6", "green-cat2"])
    assert len(after.draw_pile) == len(s.draw_pile)


def test_t_mm_18_second_cat_token_ends_the_game():
    s = replace(table([["red-cat1"], ["green-cat1", "green-cat2"]], "red-cat3"), cats=(1, 1))
    after, events = RULES.apply(s, 0, Play("red-cat1", call=MAUNZ_MAUNZ))
    assert after.cats == (2, 1)
    assert RULES.is_terminal(after) and RULES.to_act(after) == ()
    result = RULES.result(after)
    assert result.winners == (0,) and result.scores == (2.0, 1.0)
    assert "Game over" in texts(events)
    with pytest.raises(IllegalAction):
        RULES.apply(after, 1, Draw())


def test_t_mm_19_reshuffle_keeps_the_top_card_and_the_wish():
    under = ("red-cat5", "yellow-cat6", "green-cat7")
    p0 = [c for c in build_deck().ids
          if colour_of(c) != "blue" and motif_of(c) not in ("fairy", "party")
          and c not in under][:20]
    s = table([p0, []], "red-fairy", active="blue", wished=True, discard_under=under, rest=1)
    assert s.draw_pile == ()
    after, events = RULES.apply(s, 0, Draw())
    assert after.discard == ("red-fairy",)
    assert after.active_colour == "blue" and after.wished
    drawn = set(after.hands[0]) - set(s.hands[0])
    assert len(drawn) == 1 and drawn | set(after.draw_pile) == set(under)
    assert after.reshuffles == 1
    assert "shuffled into a new draw pile" in texts(events)
    assert all_cards(after) == all_cards(s)


def test_t_mm_20_stalemate_voids_the_round():
    # With every card in play a lap without plays is impossible (the active
    # colour's other cards sit in some hand), so cards are taken out of the game.
    s = table([["green-cat1", "green-cat2"], ["yellow-cat1", "yellow-cat2"]], "red-cat3",
              rest="out")
    mid, events = RULES.apply(s, 0, Draw())
    assert mid.hands == s.hands and mid.round_no == 1
    assert "nothing" in events[0].private[0]
    after, events = RULES.apply(mid, 1, Draw())
    assert after.round_no == 2 and after.cats == (0, 0) and after.void_rounds == 1
    assert "void" in texts(events)
    assert [len(h) for h in after.hands] == [5, 5]
    assert all_cards(after) == sorted(build_deck().ids)
    assert after.to_move == 1           # the start player rotates as usual (A-MM-16)


def test_t_mm_21_special_start_cards_go_under_the_pile():
    hands = ["red-cat1", "red-cat2", "red-cat4", "red-cat5", "red-cat6",
             "blue-cat1", "blue-cat2", "blue-cat4", "blue-cat5", "blue-cat6"]
    order = hands + ["green-winking", "yellow-pirate", "red-cat3"]
    s, events = RULES.new_game_with_events({"players": ["Ann", "Ben"]}, "x", deck_order=order)
    assert s.discard == ("red-cat3",) and s.active_colour == "red"
    assert s.draw_pile[-2:] == ("green-winking", "yellow-pirate")
    assert s.hands == (hand_order(hands[:5]), hand_order(hands[5:]))
    assert "Turned up: green Winking, a special; it goes under" in texts(events)


def play_out(seed, players, actions=None, steps=60):
    """Play a seeded game with mixed bots; or replay `actions`. Returns states, actions, events."""
    s = RULES.new_game({"players": list(NAMES[:players])}, seed)
    bots = [make_bot(level) for level in ("good", "random", "simple", "good", "random")]
    states, taken, log = [s], [], []
    for i in range(steps if actions is None else len(actions)):
        if RULES.is_terminal(s):
            break
        seat = RULES.to_act(s)[0]
        if actions is None:
            rng = rng_stream(seed, f"bot{seat}", i)
            action = bots[seat].act(RULES.observe(s, seat), RULES.legal_actions(s, seat), rng)
        else:
            action = RULES.parse_action(s, seat, actions[i][1])
        taken.append((seat, RULES.action_to_text(s, action)))
        s, events = RULES.apply(s, seat, action)
        states.append(s)
        log.append(tuple((e.public, tuple(sorted(e.private.items()))) for e in events))
    return states, taken, log


def test_t_mm_22_same_seed_same_actions_same_game():
    states, actions, log = play_out("S", 3)
    again, actions2, log2 = play_out("S", 3, actions=actions)
    assert states == again and log == log2 and actions == actions2
    other, _, _ = play_out("T", 3)
    assert other[0] != states[0]


def test_t_mm_23_observation_ignores_other_hidden_cards():
    s = RULES.new_game({"players": ["Ann", "Ben", "Cleo"]}, "leak")
    # Move one of Cleo's cards into the draw pile and back in another place.
    card = s.hands[2][0]
    cleo = hand_order(s.hands[2][1:] + (s.draw_pile[0],))
    changed = replace(s, hands=(s.hands[0], s.hands[1], cleo),
                      draw_pile=(card,) + s.draw_pile[1:])
    assert changed.hands[2] != s.hands[2]
    assert RULES.observe(changed, 1) == RULES.observe(s, 1)
    assert RULES.observe(changed, 2) != RULES.observe(s, 2)
    resampled = RULES.resample_hidden(s, 1, random.Random(5))
    assert RULES.observe(resampled, 1) == RULES.observe(s, 1)
    assert resampled != s and all_cards(resampled) == all_cards(s)


# ------------------------------------------------------- rules and rulings
def test_r_mm_04_fairy_is_not_wild_but_fits_on_any_fairy():
    s = table([["blue-fairy", "green-cat1"], ["red-cat1"]], "red-cat3")
    assert "blue-fairy" not in playable_cards(s, 0)
    s = table([["blue-fairy", "green-cat1"], ["red-cat1"]], "red-fairy", active="green",
              wished=True)
    assert playable_cards(s, 0) == {"blue-fairy", "green-cat1"}
    after, _ = RULES.apply(s, 0, Play("blue-fairy", wish="yellow"))   # re-wish (A-MM-03)
    assert after.active_colour == "yellow"


def test_a_mm_02_specials_match_by_colour_and_by_type():
    s = table([["red-pirate", "green-pirate", "blue-cat1"], ["red-cat1"]], "red-cat3")
    assert playable_cards(s, 0) == {"red-pirate"}
    s = table([["red-pirate", "green-pirate", "blue-cat1"], ["red-cat1"]], "yellow-pirate")
    assert playable_cards(s, 0) == {"red-pirate", "green-pirate"}


def test_a_mm_03_fairy_needs_a_wish_and_may_keep_its_own_colour():
    s = table([["red-fairy", "blue-cat1", "blue-cat2"], ["red-cat1"]], "red-cat3")
    wishes = [a.wish for a in RULES.legal_actions(s, 0) if a.card == "red-fairy"]
    assert wishes == list(COLOURS)
    with pytest.raises(IllegalAction):
        RULES.apply(s, 0, Play("red-fairy"))
    with pytest.raises(IllegalAction):
        RULES.apply(s, 0, Play("red-fairy", wish="purple"))
    after, _ = RULES.apply(s, 0, Play("red-fairy", wish="red"))
    assert after.active_colour == "red" and after.wished


def test_a_mm_04_party_fits_on_a_wish_and_takes_no_wish():
    s = table([["yellow-party", "blue-cat1", "blue-cat2"], ["red-cat1"]], "red-fairy",
              active="green", wished=True)
    assert playable_cards(s, 0) == {"yellow-party"}
    with pytest.raises(IllegalAction):
        RULES.apply(s, 0, Play("yellow-party", wish="blue"))
    after, _ = RULES.apply(s, 0, Play("yellow-party"))
    assert after.active_colour == "yellow" and not after.wished


def test_r_mm_05_must_play_when_able_and_only_fitting_cards():
    s = table([["red-cat7", "blue-cat5"], ["green-cat1"]], "red-cat3")
    assert RULES.legal_actions(s, 0) == (Play("red-cat7", call=MAUNZ),)
    with pytest.raises(IllegalAction):
        RULES.apply(s, 0, Play("blue-cat5", call=MAUNZ))
    with pytest.raises(IllegalAction):
        RULES.apply(s, 0, Play("green-cat1"))            # not in the hand
    with pytest.raises(IllegalAction):
        RULES.apply(s, 1, Play("green-cat1"))            # not Ben's turn
    with pytest.raises(IllegalAction):
        RULES.apply(s, 0, "red-cat7")                    # not an action at all
    assert RULES.legal_actions(s, 1) == ()


def test_a_mm_05_as_is_start_card_only_sets_colour_and_motif():
    hands = ["red-cat1", "red-cat2", "red-cat4", "red-cat5", "red-cat6",
             "blue-cat1", "blue-cat2", "blue-cat4", "blue-cat5", "blue-cat6"]
    cfg = {"players": ["Ann", "Ben"], "start_card": "as_is", "start_player": 2}
    s = RULES.new_game(cfg, "x", deck_order=hands + ["green-winking"])
    assert s.discard == ("green-winking",) and s.active_colour == "green" and not s.wished
    assert [len(h) for h in s.hands] == [5, 5] and s.to_move == 1
    s = RULES.new_game(cfg, "x", deck_order=hands + ["yellow-fairy"])
    assert s.active_colour == "yellow" and not s.wished


def test_a_mm_06_winked_player_can_pass_it_on():
    s = table([["red-winking", "blue-cat1", "blue-cat2"], ["green-winking", "green-cat1"],
               ["yellow-cat1"]], "red-cat3", draw=["yellow-cat2", "yellow-cat3",
                                                   "yellow-cat4", "yellow-cat5"])
    s, _ = RULES.apply(s, 0, Play("red-winking"))
    assert len(s.hands[1]) == 4
    s, _ = RULES.apply(s, 1, Play("green-winking"))
    assert s.hands[2] == hand_order(["yellow-cat1", "yellow-cat4", "yellow-cat5"])
    assert s.to_move == 2


def test_a_mm_06_older_edition_winked_player_also_loses_the_turn():
    s = table([["red-winking", "blue-cat1", "blue-cat2"], ["green-cat1"], ["yellow-cat1"]],
              "red-cat3", winking_skips_turn=True)
    after, events = RULES.apply(s, 0, Play("red-winking"))
    assert len(after.hands[1]) == 3 and after.to_move == 2
    assert "Ben is skipped" in texts(events)


def test_a_mm_08_pirate_swap_is_optional():
    s = table([["red-pirate", "red-cat1", "blue-cat6"], ["yellow-cat1"], ["green-cat1"]],
              "red-cat3")
    options = [a.swap_with for a in RULES.legal_actions(s, 0) if a.card == "red-pirate"]
    assert options == [None, 1, 2]
    after, _ = RULES.apply(s, 0, Play("red-pirate"))
    assert after.hands[0] == hand_order(["red-cat1", "blue-cat6"])
    assert after.hands[1:] == s.hands[1:]
    with pytest.raises(IllegalAction):
        RULES.apply(s, 0, Play("red-pirate", swap_with=0))
    with pytest.raises(IllegalAction):
        RULES.apply(s, 0, Play("red-pirate", swap_with=3))
    with pytest.raises(IllegalAction):
        RULES.apply(s, 0, Play("red-cat1", swap_with=1))


def test_a_mm_08_last_card_pirate_never_swaps():
    s = table([["red-pirate"], ["yellow-cat1", "yellow-cat2"]], "red-cat3",
              draw=["blue-cat7"])
    assert [a for a in RULES.legal_actions(s, 0)] == [Play("red-pirate", call=MAUNZ_MAUNZ)]
    with pytest.raises(IllegalAction):
        RULES.apply(s, 0, Play("red-pirate", swap_with=1, call=MAUNZ_MAUNZ))
    missed, _ = RULES.apply(s, 0, Play("red-pirate", call=None))
    assert missed.hands == (("blue-cat7",), s.hands[1]) and missed.round_no == 1
    won, _ = RULES.apply(s, 0, Play("red-pirate", call=MAUNZ_MAUNZ))
    assert won.cats == (1, 0) and won.round_no == 2


def test_a_mm_10_legal_actions_carry_the_correct_call():
    for size, call in ((1, MAUNZ_MAUNZ), (2, MAUNZ), (3, None), (5, None)):
        hand = ["red-cat1", "red-cat2", "red-cat4", "red-cat5", "red-cat6"][:size]
        s = table([hand, ["green-cat1"]], "red-cat3")
        assert {a.call for a in RULES.legal_actions(s, 0)} == {call}


def test_a_mm_10_wrong_call_on_the_second_last_card_is_penalised():
    s = table([["red-cat1", "blue-cat6"], ["green-cat1"]], "red-cat3", draw=["yellow-cat8"])
    after, _ = RULES.apply(s, 0, Play("red-cat1", call=MAUNZ_MAUNZ))
    assert len(after.hands[0]) == 2


def test_a_mm_10_a_hand_shrunk_by_someone_elses_swap_owes_nothing():
    p1 = ["yellow-cat1", "yellow-cat2", "yellow-cat4"]
    s = table([["red-pirate", "red-cat1"], p1, ["green-cat1"]], "red-cat3")
    after, events = RULES.apply(s, 0, Play("red-pirate", swap_with=1, call=MAUNZ))
    assert after.hands[1] == ("red-cat1",)
    assert after.hands[0] == hand_order(p1)
    assert "penalty" not in texts(events)


def test_call_mode_auto_always_makes_the_right_call():
    s = table([["red-cat1"], ["green-cat1", "green-cat2"]], "red-cat3", call_mode="auto")
    after, events = RULES.apply(s, 0, Play("red-cat1", call=None))
    assert after.cats == (1, 0)
    assert "Maunz maunz!" in texts(events)


def test_a_mm_12_forced_draws_take_what_is_left():
    # The draw pile is empty; the reshuffle finds only the card under the Winking.
    s = table([["red-winking", "blue-cat1", "blue-cat2"], ["green-cat1"]], "red-cat3",
              rest="out")
    after, events = RULES.apply(s, 0, Play("red-winking"))
    assert after.hands[1] == hand_order(["green-cat1", "red-cat3"])
    assert after.discard == ("red-winking",) and after.draw_pile == ()
    assert "no more cards" in texts(events)


def test_a_mm_12_turn_cap_voids_the_round():
    s = RULES.new_game({"players": ["Ann", "Ben", "Cleo"], "max_turns_per_round": 3,
                        "start_player": 2}, "cap")
    for _ in range(3):
        seat = RULES.to_act(s)[0]
        s, events = RULES.apply(s, seat, RULES.legal_actions(s, seat)[0])
    assert s.round_no == 2 and s.void_rounds == 1 and s.cats == (0, 0, 0)
    assert s.round_start == 2 and s.to_move == 2
    assert "void" in texts(events)


def test_a_mm_16_r_mm_03_start_player_random_then_rotating():
    starts = {RULES.new_game({"players": list(NAMES)}, f"seed{i}").to_move for i in range(12)}
    assert len(starts) > 1
    again = RULES.new_game({"players": list(NAMES)}, "seed3")
    assert again == RULES.new_game({"players": list(NAMES)}, "seed3")
    s = table([["red-cat1"], ["green-cat1", "green-cat2"], ["yellow-cat1"]], "red-cat3",
              to_move=0)
    s = replace(s, round_start=2)
    after, _ = RULES.apply(s, 0, Play("red-cat1", call=MAUNZ_MAUNZ))
    assert after.round_start == 0 and after.to_move == 0


def test_max_rounds_ends_the_game_by_cat_tokens():
    s = table([["red-cat1"], ["green-cat1", "green-cat2"]], "red-cat3", max_rounds=1)
    after, _ = RULES.apply(s, 0, Play("red-cat1", call=MAUNZ_MAUNZ))
    assert RULES.is_terminal(after)
    assert RULES.result(after).ranks == (1, 2)


# ------------------------------------------------------------- configuration
@pytest.mark.parametrize("config", [
    {"players": ["Ann"]},
    {"players": list(NAMES) + ["Finn"]},
    {"players": ["Ann", "ann"]},
    {"players": ["Ann", ""]},
    {"players": ["Ann", "Ben!"]},
    {"players": "Ann,Ben"},
    {},
    {"players": ["Ann", "Ben"], "colour": "red"},
    {"players": ["Ann", "Ben"], "call_mode": "loud"},
    {"players": ["Ann", "Ben"], "excluded_specials": "pirate,unicorn"},
    {"players": ["Ann", "Ben"], "winking_skips_turn": "maybe"},
    {"players": ["Ann", "Ben"], "max_turns_per_round": 0},
    {"players": ["Ann", "Ben"], "start_player": 3},
])
def test_invalid_configs_raise_one_line_config_errors(config):
    with pytest.raises(ConfigError) as info:
        RULES.new_game(config, "x")
    assert "\n" not in str(info.value) and str(info.value)


def test_config_options_describe_every_option_with_a_valid_default():
    keys = [key for key, *_ in mm.CONFIG_OPTIONS]
    assert keys == [f for f in mm.MaunzConfig.__dataclass_fields__ if f != "players"]
    for key, kind, default, help_text in mm.CONFIG_OPTIONS:
        assert help_text
        assert default in kind if isinstance(kind, tuple) else isinstance(default, kind)
    cfg = mm.parse_config({"players": ["Ann", "Ben"], "winking_skips_turn": "yes",
                           "max_turns_per_round": "40", "excluded_specials": ["party"]})
    assert cfg.winking_skips_turn is True and cfg.max_turns_per_round == 40
    assert cfg.excluded_specials == ("party",)


def test_deck_order_must_name_cards_in_play_once():
    with pytest.raises(ConfigError):
        RULES.new_game({"players": ["Ann", "Ben"]}, "x", deck_order=["red-cat1", "red-cat1"])
    with pytest.raises(ConfigError):
        RULES.new_game({"players": ["Ann", "Ben"], "excluded_specials": "party"}, "x",
                       deck_order=["red-party"])


# -------------------------------------------------------------- action text
@pytest.fixture
def text_table():
    return table([["red-cat1", "red-fairy", "red-pirate", "blue-cat3"],
                  ["green-cat1"], ["yellow-cat1"]], "red-cat3")


@pytest.mark.parametrize("text, action", [
    ("1", Play("red-cat1")),
    ("1 !", Play("red-cat1", call=MAUNZ)),
    ("1!", Play("red-cat1", call=MAUNZ)),
    ("1 !!", Play("red-cat1", call=MAUNZ_MAUNZ)),
    ("1 maunz maunz", Play("red-cat1", call=MAUNZ_MAUNZ)),
    ("1 Maunz! Maunz!", Play("red-cat1", call=MAUNZ_MAUNZ)),
    ("1 crazy cats!", Play("red-cat1", call=MAUNZ_MAUNZ)),
    ("1 Cats!", Play("red-cat1", call=MAUNZ)),
    ("1 maunz", Play("red-cat1", call=MAUNZ)),
    ("2 green", Play("red-fairy", wish="green")),
    ("red fairy green !", Play("red-fairy", wish="green", call=MAUNZ)),
    ("red-fairy blue", Play("red-fairy", wish="blue")),
    ("3 swap Cleo !!", Play("red-pirate", swap_with=2, call=MAUNZ_MAUNZ)),
    ("3 swap 2", Play("red-pirate", swap_with=1)),
    ("3 keep", Play("red-pirate")),
    ("blue cat3", Play("blue-cat3")),
    ("D", Draw()),
    ("draw", Draw()),
])
def test_parse_action_reads_the_short_grammar(text_table, text, action):
    assert RULES.parse_action(text_table, 0, text) == action


@pytest.mark.parametrize("text", [
    "", "9", "0", "2", "1 green", "3", "3 swap", "3 swap Zoe", "1 keep", "purple cat1",
    "1 sideways", "!!",
])
def test_parse_action_explains_unreadable_text(text_table, text):
    with pytest.raises(IllegalAction) as info:
        RULES.parse_action(text_table, 0, text)
    assert str(info.value) and "\n" not in str(info.value)


def test_last_card_pirate_may_be_typed_without_keep():
    s = table([["red-pirate"], ["yellow-cat1"]], "red-cat3")
    assert RULES.parse_action(s, 0, "1 !!") == Play("red-pirate", call=MAUNZ_MAUNZ)
    text = RULES.action_to_text(s, Play("red-pirate", call=MAUNZ_MAUNZ))
    assert RULES.parse_action(s, 0, text) == Play("red-pirate", call=MAUNZ_MAUNZ)


def test_action_text_round_trips_for_every_variant(text_table):
    actions = [Play("red-cat1", call=c) for c in mm.CALLS]
    actions += [Play("red-fairy", wish=w) for w in COLOURS]
    actions += [Play("red-pirate", swap_with=o, call=MAUNZ) for o in (None, 1, 2)]
    actions += [Draw()]
    for action in actions:
        text = RULES.action_to_text(text_table, action)
        assert RULES.parse_action(text_table, 0, text) == action, text


# ---------------------------------------------------------------- rendering
def test_render_shows_own_hand_table_and_turn_but_not_others_cards():
    s = table([["red-cat1", "blue-fairy"], ["green-cat1", "yellow-party", "red-cat8"]],
              "red-fairy", active="green", wished=True)
    text = RULES.render(RULES.observe(s, 0))
    assert "1) red cat1" in text and "2) blue Fairy" in text
    assert "green (wished)" in text and "red Fairy" in text
    assert "It is your turn." in text and "3 cards" in text
    assert "green cat1" not in text and "yellow Party" not in text
    spectator = RULES.render(RULES.observe_public(s))
    assert "Your hand" not in spectator and "It is Ann's turn." in spectator


def test_render_never_hints_that_a_call_is_due():
    due = table([["red-cat1", "blue-cat6"], ["green-cat1"]], "red-cat3")
    not_due = table([["red-cat1", "blue-cat6", "blue-cat7"], ["green-cat1"]], "red-cat3")
    lines_due = RULES.render(RULES.observe(due, 0)).splitlines()
    lines_not = RULES.render(RULES.observe(not_due, 0)).splitlines()
    assert lines_due[-1] == lines_not[-1]
    assert not any("maunz" in line.lower() for line in lines_due[1:])


# --------------------------------------------------------------------- bots
def test_make_bot_levels():
    for level in ("random", "simple", "good"):
        bot = make_bot(level)
        assert bot.level == level
        bot.notify(mm.Event("x"), 0)
    with pytest.raises(ConfigError):
        make_bot("grandmaster")


def test_simple_bot_keeps_party_back_wishes_its_colour_and_never_swaps():
    bot = make_bot("simple")
    s = table([["red-cat1", "green-party", "blue-cat1"], ["green-cat1"]], "red-cat3")
    assert bot.act(RULES.observe(s, 0), RULES.legal_actions(s, 0), random.Random(0)).card \
        == "red-cat1"
    s = table([["red-fairy", "blue-cat1", "blue-cat2", "green-cat5"], ["green-cat1"]],
              "red-cat3")
    assert bot.act(RULES.observe(s, 0), RULES.legal_actions(s, 0), random.Random(0)) \
        == Play("red-fairy", wish="blue")
    s = table([["red-pirate", "blue-cat1", "blue-cat2"], ["green-cat1"]], "red-cat3")
    assert bot.act(RULES.observe(s, 0), RULES.legal_actions(s, 0), random.Random(0)) \
        == Play("red-pirate")


def test_forgetful_simple_bot_drops_due_calls():
    s = table([["red-cat1", "blue-cat1"], ["green-cat1"]], "red-cat3")
    action = mm.SimpleBot(forgetfulness=1.0).act(RULES.observe(s, 0),
                                                  RULES.legal_actions(s, 0), random.Random(0))
    assert action == Play("red-cat1", call=None)


def test_good_bot_swaps_with_a_one_card_hand_and_holds_party():
    bot = make_bot("good")
    s = table([["red-pirate", "red-cat1", "blue-cat1", "blue-cat2"], ["green-cat1"],
               ["yellow-cat1", "yellow-cat2", "yellow-cat4"]], "red-cat3")
    assert bot.act(RULES.observe(s, 0), RULES.legal_actions(s, 0), random.Random(0)) \
        == Play("red-pirate", swap_with=1)
    s = table([["green-party", "red-cat1", "blue-cat1"], ["green-cat1", "green-cat2"]],
              "red-cat3")
    assert bot.act(RULES.observe(s, 0), RULES.legal_actions(s, 0), random.Random(0)).card \
        == "red-cat1"


def test_good_bot_hits_a_nearly_out_next_player():
    bot = make_bot("good")
    s = table([["red-winking", "red-cat1", "red-cat2", "blue-cat1"], ["green-cat1"],
               ["yellow-cat1", "yellow-cat2", "yellow-cat4"]], "red-cat3")
    assert bot.act(RULES.observe(s, 0), RULES.legal_actions(s, 0), random.Random(0)) \
        == Play("red-winking")


def test_good_bot_wishes_a_colour_the_next_player_lacks():
    s = table([["red-fairy", "blue-cat1", "green-cat2"], ["yellow-cat1"], ["red-cat8"]],
              "red-cat3")
    history = (mm.PublicMove(1, None, "green", "cat6", drew=True),)
    obs = RULES.observe(replace(s, history=history), 0)
    assert mm.known_lacks(obs)[1] == {"green"}
    assert make_bot("good").act(obs, RULES.legal_actions(s, 0), random.Random(0)) \
        == Play("red-fairy", wish="green")


# --------------------------------------------------------------------- fuzz
FUZZ_VARIANTS = [
    {},
    {"excluded_specials": "fairy,pooper,pirate,winking,party"},
    {"excluded_specials": "pirate,party", "start_card": "as_is"},
    {"call_mode": "auto", "winking_skips_turn": True},
    {"max_turns_per_round": 12, "max_rounds": 4},      # forces void rounds and the round cap
]


def fuzz_game(players, variant, seed):
    """Play one seeded game with mixed bots that sometimes miscall; check invariants."""
    config = {"players": list(NAMES[:players]), **variant}
    s = RULES.new_game(config, seed)
    deck = sorted(s.config.deck.ids)
    levels = ("random", "simple", "good")
    offset = int(rng_stream(seed, "fuzz-levels").random() * 3)
    bots = [make_bot(levels[(i + offset) % 3]) for i in range(players)]
    bound = s.config.max_rounds * s.config.max_turns_per_round
    check_rng = rng_stream(seed, "fuzz-checks")
    trace, resampled_differs = [], False
    for step in range(bound + 1):
        assert all_cards(s) == deck                       # card conservation
        assert sum(s.cats) <= s.round_no - s.void_rounds
        if RULES.is_terminal(s):
            break
        (seat,) = RULES.to_act(s)
        legal = RULES.legal_actions(s, seat)
        assert legal, "a player to act always has an action"
        assert legal == RULES.legal_actions(s, seat)       # stable, no randomness
        for action in legal:
            assert RULES.parse_action(s, seat, RULES.action_to_text(s, action)) == action
        viewer = int(check_rng.random() * players)
        other = RULES.resample_hidden(s, viewer, check_rng)
        assert RULES.observe(other, viewer) == RULES.observe(s, viewer)
        assert all_cards(other) == deck
        resampled_differs |= other != s
        obs = RULES.observe(s, seat)
        assert obs.hand_sizes == tuple(len(h) for h in s.hands)
        action = bots[seat].act(obs, legal, rng_stream(seed, f"bot{seat}", step))
        if isinstance(action, Play) and check_rng.random() < 0.15:
            action = replace(action, call=mm.CALLS[int(check_rng.random() * 3)])
        s, events = RULES.apply(s, seat, action)
        assert all(e.public for e in events)
        trace.append((seat, action))
    else:
        pytest.fail(f"game did not end within {bound} turns")
    assert resampled_differs or step < 3
    result = RULES.result(s)
    assert len(result.scores) == players and 1 in result.ranks
    return s, trace


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("variant", FUZZ_VARIANTS, ids=lambda v: ",".join(v) or "default")
def test_fuzz_random_games_keep_the_invariants(players, variant):
    for game in range(4):
        seed = f"fuzz-{players}-{game}"
        final, trace = fuzz_game(players, variant, seed)
        if "max_rounds" not in variant:
            assert max(final.cats) == mm.CATS_TO_WIN
        again, trace_again = fuzz_game(players, variant, seed)
        assert again == final and trace_again == trace        # same seed, same game


def test_fuzz_reaches_void_rounds_and_the_round_cap():
    final, _ = fuzz_game(3, FUZZ_VARIANTS[-1], "cap")
    assert final.void_rounds > 0 and final.finished


def test_good_bot_beats_its_fair_share_against_random_bots():
    # Seeded, so deterministic; benchmarks/maunz_bots.py prints the full figures.
    wins = 0
    for g in range(60):
        s = RULES.new_game({"players": ["Ann", "Ben", "Cleo"]}, f"strength-{g}")
        bots = [make_bot("good"), make_bot("random"), make_bot("random")]
        for step in range(5000):
            if RULES.is_terminal(s):
                break
            (seat,) = RULES.to_act(s)
            rng = rng_stream(f"strength-{g}", f"bot{seat}", step)
            s, _ = RULES.apply(s, seat, bots[seat].act(RULES.observe(s, seat),
                                                       RULES.legal_actions(s, seat), rng))
        wins += RULES.result(s).winners == (0,)
    assert wins > 60 / 3 * 1.2


def test_opening_events_tell_each_seat_only_its_own_hand():
    s, events = RULES.new_game_with_events({"players": ["Ann", "Ben", "Cleo"]}, "open")
    deal = events[-1]
    for seat, hand in enumerate(s.hands):
        assert all(mm.card_label(c) in deal.private[seat] for c in hand)
        assert not any(mm.card_label(c) in deal.public for c in hand)
    assert mm.card_label(s.top_card) in deal.public


def test_apply_rejects_malformed_plays():
    s = table([["red-cat1", "blue-cat6"], ["green-cat1"]], "red-cat3")
    for bad in (Play(["red-cat1"]), Play("red-cat1", call="meow"), Play("nonsense")):
        with pytest.raises(IllegalAction):
            RULES.apply(s, 0, bad)


def test_intro_retells_the_public_deal_only():
    s = RULES.new_game({"players": ["Ann", "Ben"]}, "intro")
    text = RULES.intro(s)
    assert f"Start card: {mm.card_label(s.top_card)}" in text
    assert not any(mm.card_label(c) in text for h in s.hands for c in h)
