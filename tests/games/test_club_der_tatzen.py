"""Club der Tatzen rules.

The T-CdT cases of the rulings (§3.9), scripted scenarios for each rule and
ruling, and a seeded bot fuzz with invariants (E12).
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from math import comb

import pytest

from beattrainer.deck.core import Pile, rng_stream, shuffled
from beattrainer.games.club_der_tatzen import (
    CATALOG,
    CONFIG_OPTIONS,
    MASKS_PER_PLAYER,
    RULES,
    RULES_SUMMARY,
    Guess,
    Pass,
    Play,
    TableCard,
    WrongGuess,
    action_warnings,
    hypotheses,
    load_catalog,
    make_bot,
    match_property,
    property_probabilities,
)
from beattrainer.games.core import ConfigError, IllegalAction

NAMES = ("Anna", "Ben", "Cem", "Dora")
A, B, C, D = range(4)


def new(n_players: int, props=(), cats=(), *, start: int = 0, seed: str = "t", **options):
    """A new game with stacked decks and a chosen start seat."""
    config = {"players": list(NAMES[:n_players]), **options}
    state = RULES.new_game(config, seed, deck_order=list(props) + list(cats))
    return replace(state, start_seat=start, current=start)


def step(state, text: str):
    """Parse and apply one command of the seat to act."""
    seat = RULES.to_act(state)[0]
    return RULES.apply(state, seat, RULES.parse_action(state, seat, text))


def play_all(state, *texts: str):
    """Apply several commands; return the final state and all events."""
    events = []
    for text in texts:
        state, evs = step(state, text)
        events.extend(evs)
    return state, events


def masks_on_table(state) -> int:
    return sum(len(tc.masks) for tc in state.table)


def table_entry(state, card: str, played_by: int, turn: int = 1) -> TableCard:
    """A table card with the masks the true secrets imply (for hand-built states)."""
    props = set(CATALOG.cat(card).properties)
    masks = tuple(j for j, sec in enumerate(state.secrets) if props & set(sec))
    return TableCard(card, masks, played_by, turn)


# ----------------------------------------------------------------- T-CdT-01 card data

def test_card_data_matches_the_rulings_design():  # T-CdT-01
    cats = CATALOG.cats
    assert len(cats) == 40 and len(CATALOG.properties) == 19
    assert len({(c.pose, c.colour) for c in cats}) == 40
    by_category = Counter(p.category for p in CATALOG.properties)
    assert by_category == {"pose": 5, "pattern": 2, "accessory": 4, "colour": 8}
    for c in cats:
        assert CATALOG.prop(c.pose).category == "pose"
        assert CATALOG.prop(c.colour).category == "colour"
        assert c.pattern is None or CATALOG.prop(c.pattern).category == "pattern"
        assert c.accessory is None or CATALOG.prop(c.accessory).category == "accessory"
        assert len(c.properties) in (3, 4)
    counts = Counter(p for c in cats for p in c.properties)
    for p in CATALOG.properties:
        assert counts[p.id] == (5 if p.category == "colour" else 8), p.id
    assert Counter(len(c.properties) for c in cats) == {3: 32, 4: 8}
    four = [(c.pattern, c.accessory) for c in cats if len(c.properties) == 4]
    assert len(set(four)) == 8


def test_catalog_rejects_a_cat_with_a_colour_in_the_pose_slot():
    text = ('[[property]]\nid = "RED"\ncategory = "colour"\nde = "Rot"\nen = "red fur"\n'
            '[[cat]]\nnumber = 1\npose = "RED"\ncolour = "RED"\n')
    with pytest.raises(ValueError, match="not a pose"):
        load_catalog(text)


def test_deck_core_decks_hold_every_card():
    assert CATALOG.cat_deck.ids == tuple(str(n) for n in range(1, 41))
    assert CATALOG.property_deck["SIT"].attr("category") == "pose"


# ----------------------------------------------------------------- setup

def test_new_game_three_players():  # T-CdT-02
    state = RULES.new_game({"players": ["Anna", "Ben", "Cem"]}, "S")
    dealt = [p for sec in state.secrets for p in sec]
    assert len(dealt) == 9 and len(set(dealt)) == 9
    assert len(state.set_aside) == 10
    assert set(dealt) | set(state.set_aside) == set(CATALOG.property_ids)
    assert [len(h) for h in state.hands] == [3, 3, 3]
    assert len(state.draw_pile) == 31
    assert state.supply == (16, 16, 16) and state.received == (0, 0, 0)
    assert state.current == state.start_seat and state.phase == "play"


def test_start_seat_comes_from_the_seed():  # R-CdT-01
    config = {"players": list(NAMES)}
    starts = {RULES.new_game(config, f"seed{i}").start_seat for i in range(30)}
    assert starts == {0, 1, 2, 3}
    assert RULES.new_game(config, "x") == RULES.new_game(config, "x")


def test_deck_order_stacks_both_decks_and_fills_up_in_seeded_order():
    state = RULES.new_game({"players": ["Anna", "Ben"]}, "s",
                           deck_order=["BLUE", "HAT", "RED", "#13", "15", "2", "7"])
    assert state.secrets[0] == ("BLUE", "HAT", "RED")
    assert state.hands[0] == ("13", "15", "2") and state.hands[1][0] == "7"
    again = RULES.new_game({"players": ["Anna", "Ben"]}, "s",
                           deck_order=["BLUE", "HAT", "RED", "#13", "15", "2", "7"])
    assert again == state


@pytest.mark.parametrize("order", [["NOPE"], ["41"], ["13", "#13"], ["RED", "red"]])
def test_bad_deck_order_is_a_config_error(order):
    with pytest.raises(ConfigError):
        RULES.new_game({"players": ["Anna", "Ben"]}, "s", deck_order=order)


@pytest.mark.parametrize("config, message", [
    ({"players": ["Anna"]}, "2-4 players"),
    ({"players": list(NAMES) + ["Eve"]}, "2-4 players"),
    ({"players": ["Anna", "anna"]}, "different"),
    ({"players": ["Anna", "  "]}, "non-empty"),
    ({"players": "Anna,Ben"}, "list"),
    ({}, "list"),
    ({"players": ["Anna", "Ben"], "final_round": "never"}, "final_round"),
    ({"players": ["Anna", "Ben"], "jokers": True}, "unknown option"),
])
def test_invalid_config_is_a_one_line_config_error(config, message):
    with pytest.raises(ConfigError, match=message) as info:
        RULES.new_game(config, "s")
    assert "\n" not in str(info.value)


def test_config_options_describe_the_final_round_variant():
    (key, choices, default, help_text), = CONFIG_OPTIONS
    assert key == "final_round" and default in choices and help_text
    assert RULES.name == "tatzen" and RULES.rules_version
    assert "mask" in RULES_SUMMARY


# ----------------------------------------------------------------- masks

def three_player_game():
    """A = {BLUE, HAT, RED}, B = {WHITE, SPOTTED, WOOL}, C = {STRIPED, SIT, GREEN}."""
    return new(3, ["BLUE", "HAT", "RED", "WHITE", "SPOTTED", "WOOL", "STRIPED", "SIT", "GREEN"],
               ["13", "15", "33", "32", "24", "26", "34", "9", "6"])


def test_one_mask_per_player_however_many_properties_match():  # T-CdT-03
    state = three_player_game()
    state, events = step(state, "play 13")
    assert state.supply == (15, 16, 15)
    assert state.table[-1].masks == (A, C)
    assert masks_on_table(state) == 2
    assert "You put one mask" in events[1].private[A]
    assert "You put none" in events[1].private[B]


def test_revealed_properties_still_draw_masks():  # T-CdT-04
    state = three_player_game()
    state, _ = play_all(state, "play 13", "pass", "play 32", "guess Anna BLUE", "play 34", "pass")
    assert "BLUE" in state.revealed[A]
    supply_before = state.supply[A]
    state, _ = step(state, "play 15")
    assert state.table[-1].masks == (A,)
    assert state.supply[A] == supply_before - 1


def test_a_card_can_carry_four_masks():  # A-CdT-11
    # #17 is STRUT · BLACK · STRIPED · WOOL: one property for each player
    state = new(4, ["STRUT", "HAT", "RED", "BLACK", "FISH", "BLUE", "STRIPED", "WHITE", "MOUSE",
                    "BROWN", "WOOL", "LIE"], ["17"])
    state, _ = step(state, "play 17")
    assert state.table[-1].masks == (A, B, C, D)
    assert state.supply == (15, 15, 15, 15)


def test_the_active_player_places_too_and_nobody_else_when_nothing_matches():  # R-CdT-06
    state = three_player_game()
    state, events = step(state, "play 33")   # SIT · PURPLE · FISH: only C (SIT)
    assert state.table[-1].masks == (C,)
    state, events = play_all(three_player_game(), "play 33", "pass",
                             "play 26")      # JUMP · YELLOW · SPOTTED: only B
    assert state.table[-1].masks == (B,)
    assert "Masks on #26" in events[-1].public


# ----------------------------------------------------------------- guesses

def guess_phase():
    """Three-player game in A's guess phase after #33."""
    state, _ = step(three_player_game(), "play 33")
    return state


def test_right_guess_reveals_and_costs_the_suspect_a_mask():  # T-CdT-05
    state = guess_phase()
    before = state
    state, events = step(state, "guess Ben SPOTTED")
    assert state.revealed[B] == ("SPOTTED",)
    assert state.supply[B] == before.supply[B] - 1
    assert state.received[A] == before.received[A] + 1
    assert "right" in events[0].public


def test_wrong_guess_costs_the_guesser_and_becomes_public():  # T-CdT-06
    state = guess_phase()
    before = state
    state, events = step(state, "guess Ben RED")
    assert state.supply[A] == before.supply[A] - 1
    assert state.received[B] == before.received[B] + 1
    assert state.wrong_guesses == (WrongGuess(B, "RED", A, 1),)
    assert state.revealed[B] == ()
    assert "not red fur" in events[0].public
    obs_c = RULES.observe(state, C)
    assert obs_c.wrong_guesses == state.wrong_guesses
    assert "Ben — not red fur" in RULES.render(obs_c)


def test_illegal_guesses():  # T-CdT-07
    state = guess_phase()
    state, _ = step(state, "guess Ben SPOTTED")
    # B's turn: B plays, then A's property guesses by B are fine, but not SPOTTED-on-self
    state, _ = step(state, "play 24")
    with pytest.raises(IllegalAction, match="own cat"):
        RULES.apply(state, B, Guess(B, "WOOL"))
    with pytest.raises(IllegalAction, match="turn"):
        RULES.apply(state, A, Guess(B, "WOOL"))
    state, _ = step(state, "pass")
    state, _ = step(state, "play 34")
    with pytest.raises(IllegalAction, match="already revealed"):
        RULES.apply(state, C, Guess(B, "SPOTTED"))
    assert Guess(B, "SPOTTED") not in RULES.legal_actions(state, C)
    state, _ = step(state, "guess Anna BLUE")
    with pytest.raises(IllegalAction):     # a second guess in the same turn
        RULES.apply(state, C, Guess(A, "HAT"))
    assert RULES.to_act(state) == (A,)


def test_play_is_mandatory_and_comes_before_the_guess():  # R-CdT-05, E2
    state = three_player_game()
    legal = RULES.legal_actions(state, A)
    assert legal == (Play("13"), Play("15"), Play("33"))
    with pytest.raises(IllegalAction, match="play a cat card"):
        RULES.apply(state, A, Pass())
    with pytest.raises(IllegalAction, match="play a cat card first"):
        RULES.apply(state, A, Guess(B, "RED"))
    with pytest.raises(IllegalAction, match="do not hold"):
        RULES.apply(state, A, Play("32"))
    state, _ = step(state, "play 13")
    with pytest.raises(IllegalAction, match="already played"):
        RULES.apply(state, A, Play("15"))
    legal = RULES.legal_actions(state, A)
    assert legal[0] == Pass() and all(isinstance(a, Guess) for a in legal[1:])
    assert len(legal) == 1 + 2 * 19
    assert RULES.legal_actions(state, B) == ()


def test_guessing_a_property_you_hold_is_legal_but_warned():  # §3.6
    state = guess_phase()
    obs = RULES.observe(state, A)
    assert Guess(B, "RED") in RULES.legal_actions(state, A)
    assert action_warnings(obs, Guess(B, "RED"))
    assert action_warnings(obs, Guess(B, "WHITE")) == ()
    state, _ = step(state, "guess Ben WHITE")
    state, _ = play_all(state, "play 24", "pass", "play 34", "pass", "play 15")
    obs = RULES.observe(state, A)
    assert Guess(B, "WHITE") not in RULES.legal_actions(state, A)
    state, _ = play_all(state, "pass", "play 32", "pass", "play 6",
                        "guess Anna GREEN")       # C's own colour: wrong, now public
    state, _ = play_all(state, "play 13", "pass", "play 26")
    warnings = action_warnings(RULES.observe(state, B), Guess(A, "GREEN"))
    assert any("already known" in w for w in warnings)


def test_received_masks_are_never_spent():  # R-CdT-02
    state = guess_phase()
    state, _ = step(state, "guess Ben SPOTTED")           # A receives one
    state, _ = play_all(state, "play 24", "pass", "play 34", "pass", "play 15")
    before = state
    state, _ = step(state, "guess Cem RED")               # wrong: paid from A's supply
    assert state.received[A] == before.received[A] == 1
    assert state.supply[A] == before.supply[A] - 1


# ----------------------------------------------------------------- draw and turn order

def test_draw_after_the_turn_and_pass_to_the_next_seat():  # R-CdT-08
    state = three_player_game()
    top = state.draw_pile.top
    state, events = play_all(state, "play 13", "pass")
    assert top in state.hands[A] and len(state.hands[A]) == 3
    assert len(state.draw_pile) == 40 - 9 - 1
    draw = events[-1]
    assert top not in draw.public and top in draw.private[A]
    assert RULES.to_act(state) == (B,) and state.turn == 2


def four_player_trigger_state(trigger_seat: int, start: int = 0, **options):
    """Seat `trigger_seat` will reveal the third property of the next seat."""
    props = ["BLUE", "HAT", "RED", "WHITE", "SPOTTED", "WOOL",
             "STRIPED", "SIT", "GREEN", "BROWN", "LIE", "FISH"]
    state = new(4, props, start=start, **options)
    target = (trigger_seat + 1) % 4
    revealed = list(state.revealed)
    revealed[target] = state.secrets[target][:2]
    return replace(state, current=trigger_seat, revealed=tuple(revealed)), target


def test_final_round_gives_guess_only_turns_to_the_rest_of_the_round():  # T-CdT-08
    state, target = four_player_trigger_state(B)
    card = state.hands[B][0]
    state, _ = step(state, f"play {card}")
    state, events = step(state, f"guess {NAMES[target]} {state.secrets[target][2]}")
    assert state.end_trigger == B
    assert any("guess-only turn for Cem and Dora" in e.public for e in events)
    for seat in (C, D):
        assert RULES.to_act(state) == (seat,)
        assert state.guess_only and state.phase == "guess"
        legal = RULES.legal_actions(state, seat)
        assert legal[0] == Pass() and not any(isinstance(a, Play) for a in legal)
        with pytest.raises(IllegalAction, match="guess-only"):
            RULES.apply(state, seat, Play(state.hands[seat][0]))
        hands, pile, table = state.hands, state.draw_pile, state.table
        state, _ = step(state, "pass")
        assert state.hands == hands and state.draw_pile == pile and state.table == table
    assert RULES.is_terminal(state) and RULES.to_act(state) == ()
    assert "all three properties of Cem" in state.end_reason


def test_the_fully_revealed_player_may_still_guess_in_the_final_round():  # A-CdT-06
    state, target = four_player_trigger_state(B)
    state, _ = play_all(state, f"play {state.hands[B][0]}",
                        f"guess Cem {state.secrets[C][2]}")
    assert RULES.to_act(state) == (C,)
    state, events = step(state, f"guess Anna {state.secrets[A][0]}")
    assert state.revealed[A] == (state.secrets[A][0],)
    assert state.end_trigger == B and RULES.to_act(state) == (D,)   # first trigger only


def test_trigger_in_the_last_seat_ends_the_game_at_once():  # T-CdT-09
    state, target = four_player_trigger_state(D)
    state, events = play_all(state, f"play {state.hands[D][0]}",
                             f"guess Anna {state.secrets[A][2]}")
    assert RULES.is_terminal(state)
    assert state.hands[D] and len(state.hands[D]) == 3   # the trigger turn still draws
    assert events[-1].public.startswith("Game over")


def test_all_others_variant_lets_everyone_else_guess_once():  # A-CdT-06 variant
    state, target = four_player_trigger_state(B, final_round="all_others")
    state, _ = play_all(state, f"play {state.hands[B][0]}",
                        f"guess Cem {state.secrets[C][2]}")
    order = []
    while not RULES.is_terminal(state):
        order.append(RULES.to_act(state)[0])
        assert state.guess_only
        state, _ = step(state, "pass")
    assert order == [C, D, A]


# ----------------------------------------------------------------- masks run out

def test_empty_supply_ends_the_game_before_the_guess():  # T-CdT-10
    state = three_player_game()
    state = replace(state, supply=(16, 16, 1))
    state, events = step(state, "play 13")                # matches C (SIT, STRIPED)
    assert state.supply[C] == 0
    assert RULES.is_terminal(state)
    assert len(state.hands[A]) == 2                       # no draw either
    assert "Cem has no masks left" in state.end_reason
    result = RULES.result(state)
    assert result.scores == (3, 3, 3)


def test_empty_supply_after_a_guess_ends_the_game():  # R-CdT-10, A-CdT-07
    state = guess_phase()
    state = replace(state, supply=(1,) + state.supply[1:])
    state, _ = step(state, "guess Ben RED")               # wrong: A pays the last mask
    assert RULES.is_terminal(state) and state.supply[A] == 0
    assert len(state.hands[A]) == 2
    assert RULES.result(state).scores == (3, 4, 3)
    state = replace(guess_phase(), supply=(16, 1, 16))
    state, _ = step(state, "guess Ben WOOL")              # right: B pays the last mask
    assert RULES.is_terminal(state) and state.supply[B] == 0
    assert RULES.result(state).scores == (4, 2, 3)


# ----------------------------------------------------------------- scoring

def scored(received, revealed_counts):
    state = three_player_game() if len(received) == 3 else new(len(received))
    revealed = tuple(sec[:n] for sec, n in zip(state.secrets, revealed_counts))
    state = replace(state, received=tuple(received), revealed=revealed, phase="over",
                    end_reason="test")
    return RULES.result(state)


def test_tie_goes_to_more_hidden_properties():  # T-CdT-11
    result = scored([4, 3], [2, 1])
    assert result.scores == (5, 5)
    assert result.ranks == (2, 1) and result.winners == (B,)


def test_full_tie_shares_the_win_and_ranks_skip():  # R-CdT-12
    result = scored([2, 2, 0], [1, 1, 0])
    assert result.scores == (4, 4, 3) and result.ranks == (1, 1, 3)
    assert result.winners == (A, B)


def test_supply_and_table_masks_do_not_score():
    result = scored([0, 0, 0], [0, 0, 0])
    assert result.scores == (3, 3, 3)


def test_result_before_the_end_is_an_error():
    with pytest.raises(ValueError):
        RULES.result(three_player_game())


# ----------------------------------------------------------------- deck exhaustion

def test_empty_hand_with_empty_pile_is_a_guess_only_turn():  # T-CdT-12, R-CdT-11
    state = new(2, cats=["5"])
    state = replace(state, hands=((), ("5", "6")), draw_pile=Pile(()), current=B, start_seat=A)
    state, _ = play_all(state, "play 5", "pass")
    assert RULES.to_act(state) == (A,) and state.guess_only
    assert RULES.legal_actions(state, A)[0] == Pass()
    state, _ = step(state, "pass")
    assert RULES.to_act(state) == (B,) and state.phase == "play"
    state, events = play_all(state, "play 6", "pass")
    assert any("last cat card" in e.public for e in events)
    assert RULES.is_terminal(state)        # B sat last in the round (A starts)


def test_last_card_trigger_finishes_the_round():  # R-CdT-11 with R-CdT-09
    state = new(2)
    state = replace(state, hands=((), ("6",)), draw_pile=Pile(()), current=B, start_seat=B)
    state, _ = play_all(state, "play 6", "pass")
    assert not RULES.is_terminal(state) and RULES.to_act(state) == (A,) and state.guess_only
    state, _ = step(state, "pass")
    assert RULES.is_terminal(state)
    assert state.end_reason == "the last cat card has been played"


# ----------------------------------------------------------------- deduction (§3.8)

def deduction_state():
    """Two players: A = {BLUE, HAT, RED}, B = {SIT, WOOL, GREEN}; A to guess."""
    state = new(2, ["BLUE", "HAT", "RED", "SIT", "WOOL", "GREEN"])
    return replace(state, phase="guess")


def with_table(state, *cards):
    return replace(state, table=state.table + tuple(table_entry(state, c, B) for c in cards))


def test_hypotheses_after_a_mask():  # T-CdT-13
    state = deduction_state()
    obs = RULES.observe(state, A)
    assert len(hypotheses(obs, B)) == comb(16, 3) == 560
    state = with_table(state, "13")
    assert len(hypotheses(RULES.observe(state, A), B)) == 196


def test_hypotheses_after_a_missing_mask():  # T-CdT-14
    state = with_table(deduction_state(), "13", "5")
    obs = RULES.observe(state, A)
    assert len(hypotheses(obs, B)) == 121
    probs = property_probabilities(obs)[B]
    assert probs["SIT"] == probs["STRIPED"] == pytest.approx(66 / 121)
    assert probs["MOUSE"] == 0 and probs["BLUE"] == 0


def test_hypotheses_narrow_to_a_certain_guess():  # T-CdT-15
    state = with_table(deduction_state(), "13", "5")
    state = replace(state, wrong_guesses=(WrongGuess(B, "SPOTTED", A, 1),))
    sizes = [len(hypotheses(RULES.observe(state, A), B))]
    state = with_table(state, "17")
    sizes.append(len(hypotheses(RULES.observe(state, A), B)))
    state = with_table(state, "38")
    obs = RULES.observe(state, A)
    sizes.append(len(hypotheses(obs, B)))
    assert sizes == [100, 79, 34]
    assert property_probabilities(obs)[B]["SIT"] == 1
    legal = RULES.legal_actions(state, A)
    assert make_bot("simple").act(obs, legal, random.Random(1)) == Guess(B, "SIT")
    assert make_bot("good").act(obs, legal, random.Random(1)) == Guess(B, "SIT")


def test_simple_bot_passes_without_certainty_and_good_bot_uses_the_threshold():  # §3.8
    state = with_table(deduction_state(), "13", "5")
    obs = RULES.observe(state, A)
    legal = RULES.legal_actions(state, A)
    assert make_bot("simple").act(obs, legal, random.Random(3)) == Pass()
    choice = make_bot("good").act(obs, legal, random.Random(3))
    assert choice in (Guess(B, "SIT"), Guess(B, "STRIPED"))   # P = 0.545 >= 1/3
    early = RULES.observe(deduction_state(), A)               # P = 3/16 < 1/3
    assert make_bot("good").act(early, legal, random.Random(3)) == Pass()


def test_joint_probabilities_use_disjoint_cats():  # §3.8 joint consistency
    state = new(3, ["BLUE", "HAT", "RED", "SIT", "WOOL", "GREEN", "STRIPED", "LIE", "BROWN"])
    state = replace(state, revealed=((), ("SIT", "WOOL"), ("STRIPED", "LIE")), phase="guess")
    state = replace(state, table=(table_entry(state, "13", A),))     # B and C both mask #13
    obs = RULES.observe(state, A)
    joint, alone = property_probabilities(obs), property_probabilities(obs, joint=False)
    assert sum(joint[B].values()) == pytest.approx(3)
    assert joint[B]["STRIPED"] == alone[B]["STRIPED"] == 0        # revealed for C
    hyp_b = hypotheses(obs, B)
    assert all({"SIT", "WOOL"} <= h for h in hyp_b)


def test_good_bot_prefers_an_informative_card():  # §3.8 card choice
    state = new(2, ["BLUE", "HAT", "RED", "SIT", "WOOL", "GREEN"], ["13", "31", "15"])
    obs = RULES.observe(state, A)
    legal = RULES.legal_actions(state, A)
    # #15 (BACK·BLUE·HAT) tells B little and marks A; #31 (JUMP·PURPLE·HAT) also marks A
    # (HAT); #13 (SIT·BLUE·STRIPED) marks A too, but asks B about two properties.
    picks = Counter(make_bot("good").act(obs, legal, rng_stream("p", "bot", i)).card
                    for i in range(20))
    assert picks.most_common(1)[0][0] in ("13", "31")
    assert picks["15"] == 0


def test_unknown_bot_level_is_a_config_error():
    for level in ("random", "simple", "good"):
        assert make_bot(level).level == level
    with pytest.raises(ConfigError, match="bot level"):
        make_bot("grandmaster")


# ----------------------------------------------------------------- text

@pytest.mark.parametrize("text, action", [
    ("play 13", Play("13")),
    ("PLAY #13", Play("13")),
    ("pass", Pass()),
    ("guess Ben SPOTTED", Guess(B, "SPOTTED")),
    ("guess ben spotted", Guess(B, "SPOTTED")),
    ("guess 2 spot", Guess(B, "SPOTTED")),
    ("guess Be gepunktet", Guess(B, "SPOTTED")),
    ("guess Cem red fur", Guess(C, "RED")),
    ("guess Cem Rot", Guess(C, "RED")),
    ("guess Cem weiß", Guess(C, "WHITE")),
    ("guess Cem weiss", Guess(C, "WHITE")),
    ("guess Cem sitting boss", Guess(C, "SIT")),
    ("guess Cem top hat", Guess(C, "HAT")),
    ("guess Cem on its back", Guess(C, "BACK")),
])
def test_parse_action_accepts_ids_words_and_prefixes(text, action):
    state = three_player_game()
    assert RULES.parse_action(state, A, text) == action


@pytest.mark.parametrize("text, message", [
    ("", "play"),
    ("dance", "unknown command"),
    ("pass Ben", "nothing after"),
    ("play", "usage"),
    ("play 99", "no cat card"),
    ("guess Ben", "usage"),
    ("guess Zoe red", "no player"),
    ("guess Ben bl", "could be"),
    ("guess Ben xyz", "unknown property"),
])
def test_parse_action_errors_are_one_line(text, message):
    with pytest.raises(IllegalAction, match=message) as info:
        RULES.parse_action(three_player_game(), A, text)
    assert "\n" not in str(info.value)


def test_player_names_with_spaces_round_trip():
    state = RULES.new_game({"players": ["Anna Lena", "Anna", "Red"]}, "s")
    for target, prop in ((0, "RED"), (1, "RED"), (2, "STRIPED"), (0, "BACK")):
        action = Guess(target, prop)
        text = RULES.action_to_text(state, action)
        assert RULES.parse_action(state, 1 if target != 1 else 0, text) == action


def test_match_property_prefixes():
    assert match_property("stri") == "STRIPED"
    assert match_property("stru") == "STRUT"
    with pytest.raises(ValueError, match="could be"):
        match_property("s")


def test_render_shows_own_secrets_only_to_their_owner():
    state = three_player_game()
    text_a = RULES.render(RULES.observe(state, A))
    text_b = RULES.render(RULES.observe(state, B))
    assert "Your cat (Anna): top hat, blue fur, red fur" in text_a
    assert "Anna" in text_b and "Your cat (Anna)" not in text_b
    for card in state.hands[B]:
        assert f"#{card} " not in text_a
    assert "play <number> (13, 15, 33)" in text_a
    assert "Anna's turn" in text_b
    public = RULES.render(RULES.observe_public(state))
    assert "Your cat" not in public


def test_guess_prompt_lists_every_property_word():
    text = RULES.render(RULES.observe(guess_phase(), A))
    for prop in CATALOG.property_ids:
        assert f" {prop.lower()}" in text
        assert match_property(prop.lower()) == prop
    assert "Properties:" not in RULES.render(RULES.observe(guess_phase(), B))


def test_intro_and_warning_hook():
    state = three_player_game()
    assert "Anna starts" in RULES.intro(state) and "Cem [green masks]" in RULES.intro(state)
    state = guess_phase()
    assert RULES.action_warnings(state, A, Guess(C, "HAT"))
    assert RULES.action_warnings(state, A, Guess(C, "SIT")) == ()


def test_render_at_the_end_shows_every_cat_and_the_ranking():
    state = replace(guess_phase(), supply=(1, 16, 16))
    state, _ = step(state, "guess Ben RED")
    text = RULES.render(RULES.observe(state, B))
    assert "Game over" in text and "1. Ben" in text
    assert "cat: top hat, blue fur, red fur" in text


# ----------------------------------------------------------------- invariants and fuzz

def check_invariants(state):
    p = state.n_players
    on_table = [tc.card for tc in state.table]
    cards = [c for h in state.hands for c in h] + list(state.draw_pile.cards) + on_table
    assert sorted(cards, key=int) == list(CATALOG.cat_ids)
    props = [x for sec in state.secrets for x in sec] + list(state.set_aside)
    assert sorted(props) == sorted(CATALOG.property_ids)
    assert sum(state.supply) + masks_on_table(state) + sum(state.received) == MASKS_PER_PLAYER * p
    assert min(state.supply) >= 0
    for j in range(p):
        assert set(state.revealed[j]) <= set(state.secrets[j])
    for tc in state.table:
        assert tc == replace(table_entry(state, tc.card, tc.played_by, tc.turn))
    for w in state.wrong_guesses:
        assert w.prop not in state.secrets[w.target]


def check_resample(state, seat, rng):
    other = RULES.resample_hidden(state, seat, rng)
    assert RULES.observe(other, seat) == RULES.observe(state, seat)   # T-CdT-16
    check_invariants(other)   # consistent: masks, reveals and wrong guesses still hold
    return other


def test_resample_hidden_redraws_only_what_the_seat_cannot_see():  # T-CdT-16
    state, _ = play_all(three_player_game(), "play 13", "guess Ben SPOTTED", "play 24", "pass")
    seen_secrets, seen_hands = set(), set()
    for i in range(12):
        other = check_resample(state, A, rng_stream("resample", "t16", i))
        assert other.secrets[A] == state.secrets[A] and other.hands[A] == state.hands[A]
        assert "SPOTTED" in other.secrets[B]
        seen_secrets.add((other.secrets[B], other.secrets[C]))
        seen_hands.add((other.hands[B], other.hands[C], other.draw_pile.cards))
    assert len(seen_secrets) > 1 and len(seen_hands) > 1


def check_truth_is_a_hypothesis(state, viewer):
    """The deduction never rules out the real cat of anyone (§3.8)."""
    obs = RULES.observe(state, viewer)
    probs = property_probabilities(obs)
    for j in range(state.n_players):
        if j != viewer:
            assert frozenset(state.secrets[j]) in hypotheses(obs, j)
            assert all(probs[j][prop] > 0 for prop in state.secrets[j])


class PassiveBot:
    """Plays its lowest card and never guesses (drives games to the deck's end)."""

    level = "passive"

    def act(self, obs, legal, rng):
        return legal[0]

    def notify(self, event, seat):
        pass


def make_test_bot(level):
    return PassiveBot() if level == "passive" else make_bot(level)


def play_game(n_players, seed, levels, *, deck_order=None, **options):
    """Play one seeded game; check invariants at every step; return the log and state."""
    config = {"players": list(NAMES[:n_players]), **options}
    state = RULES.new_game(config, seed, deck_order=deck_order)
    bots = [make_test_bot(levels[j % len(levels)]) for j in range(n_players)]
    log, n = [], 0
    check_rng = rng_stream(seed, "checks")
    bound = 2 * (40 + 3 * n_players * n_players + n_players)
    while not RULES.is_terminal(state):
        check_invariants(state)
        (seat,) = RULES.to_act(state)
        legal = RULES.legal_actions(state, seat)
        assert legal and legal == RULES.legal_actions(state, seat)
        assert all(RULES.legal_actions(state, j) == () for j in range(n_players) if j != seat)
        for action in legal:
            text = RULES.action_to_text(state, action)
            assert RULES.parse_action(state, seat, text) == action, text
        check_resample(state, (seat + 1 + n) % n_players, check_rng)
        if n % 5 == 0:
            check_truth_is_a_hypothesis(state, seat)
        action = bots[seat].act(RULES.observe(state, seat), legal,
                                rng_stream(seed, f"bot{seat}", n))
        assert action in legal
        with pytest.raises(IllegalAction):
            RULES.apply(state, (seat + 1) % n_players, action)
        log.append((seat, RULES.action_to_text(state, action)))
        state, events = RULES.apply(state, seat, action)
        assert events and all(e.public for e in events)
        n += 1
        assert n <= bound
    check_invariants(state)
    check_resample(state, 0, check_rng)
    result = RULES.result(state)
    assert len(result.scores) == n_players and 1 in result.ranks
    return log, state


def end_kind(state) -> str:
    for kind, marker in (("masks", "no masks left"), ("revealed", "are revealed"),
                         ("cards", "last cat card")):
        if marker in state.end_reason:
            return kind
    raise AssertionError(f"unexpected end reason {state.end_reason!r}")


@pytest.mark.parametrize("n_players", [2, 3, 4])
@pytest.mark.parametrize("final_round", ["finish_round", "all_others"])
def test_random_bot_fuzz(n_players, final_round):
    kinds = Counter()
    for i in range(12):
        levels = ["random"] if i % 2 else ["random", "simple"]
        _, state = play_game(n_players, f"fuzz{n_players}{final_round}{i}", levels,
                             final_round=final_round)
        kinds[end_kind(state)] += 1
    assert kinds["masks"] and kinds["revealed"]     # both end paths were exercised


@pytest.mark.parametrize("n_players", [2, 3])
def test_passive_fuzz_reaches_the_end_of_the_deck(n_players):  # R-CdT-11, A-CdT-08
    """Cats of fur colours only (5 cards each) cannot run out of masks in 2-player games.

    Empty-hand turns before the last card cannot happen in play (hands empty in
    seat order right up to the last card); T-CdT-12 covers them on a built state.
    """
    colours = [p.id for p in CATALOG.properties if p.category == "colour"]
    kinds = Counter()
    for i in range(4):
        secret = list(shuffled(colours, rng_stream("colours", str(n_players), i)))
        if n_players == 3:
            secret.append("HAT")
        _, state = play_game(n_players, f"deck-end{n_players}-{i}", ["passive"],
                             deck_order=secret)
        kinds[end_kind(state)] += 1
        assert not state.draw_pile.cards or end_kind(state) == "masks"
    if n_players == 2:
        assert kinds == {"cards": 4}


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_mixed_bot_fuzz_and_replay(n_players):
    for i in range(4):
        seed = f"mixed{n_players}-{i}"
        log, state = play_game(n_players, seed, ["good", "simple", "random"])
        replayed = RULES.new_game({"players": list(NAMES[:n_players])}, seed)
        for seat, text in log:
            replayed, _ = RULES.apply(replayed, seat, RULES.parse_action(replayed, seat, text))
        assert replayed == state
        again, state_again = play_game(n_players, seed, ["good", "simple", "random"])
        assert again == log and state_again == state


def test_passive_games_end_by_masks_or_cards():  # A-CdT-07, A-CdT-08
    class Passive:
        def act(self, obs, legal, rng):
            return legal[0]        # first card by number, never guesses

    for p in (2, 3):
        state = RULES.new_game({"players": list(NAMES[:p])}, f"passive{p}")
        while not RULES.is_terminal(state):
            (seat,) = RULES.to_act(state)
            action = Passive().act(None, RULES.legal_actions(state, seat), None)
            state, _ = RULES.apply(state, seat, action)
            check_invariants(state)
        assert "no masks left" in state.end_reason or "last cat card" in state.end_reason
        assert 0 in state.supply or not any(state.hands)


def test_good_bot_beats_the_simple_bot():  # §3.8 levels
    wins = 0.0
    for g in range(16):
        good_seat = g % 2
        levels = ["good" if s == good_seat else "simple" for s in range(2)]
        _, state = play_game(2, f"strength{g}", levels)
        winners = RULES.result(state).winners
        wins += (good_seat in winners) / len(winners)
    assert wins / 16 > 0.6
