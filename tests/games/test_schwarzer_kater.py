"""Schwarzer Kater rules.

The T-SK table of the rulings, scripted scenarios for each rule and ruling, the
text the renderer shows, and the bots.
"""
from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from beattrainer.deck.core import rng_stream
from beattrainer.games import schwarzer_kater as sk
from beattrainer.games.core import ConfigError, IllegalAction
from beattrainer.games.log import GameLog, replay
from beattrainer.games.schwarzer_kater import (
    CAT,
    RULES,
    Ask,
    Choose,
    KaterBot,
    Layout,
    Move,
    make_bot,
    move_announcement,
    move_row,
)

# Letters of the test table: S sausage, C chocolate, K cat, P cheese piece, L cheese slice.
TOK = {"S": "sausage", "C": "chocolate", "K": "cat", "P": "cheese_piece", "L": "cheese_slice"}
A, B, C, D = 0, 1, 2, 3


def row(letters: str) -> tuple[str, ...]:
    """A row from its letters, e.g. row("SCKPL")."""
    return tuple(TOK[ch] for ch in letters)


def game(n_mice: int = 4, **options):
    """A new program-hosted game with mice Anna, Ben, Cara, ... in seats 0..n-1."""
    names = ["Anna", "Ben", "Cara", "Dan", "Eva", "Finn", "Gus", "Hanna", "Ida", "Jo"]
    return RULES.new_game({"players": names[:n_mice], **options}, "test")


def cat_turns(s, layout: str, moves=((1, 2), (1, 2)), target: str = "S"):
    """The cat lays out `layout`, makes `moves` and asks for `target`; returns (state, events)."""
    events = []
    s, ev = RULES.apply(s, s.cat_seat, Layout(row(layout)))
    events += ev
    for src, dst in moves:
        s, ev = RULES.apply(s, s.cat_seat, Move(src, dst))
        events += ev
    s, ev = RULES.apply(s, s.cat_seat, Ask(TOK[target]))
    return s, events + list(ev)


def mice_choose(s, places_by_seat: dict[int, int]):
    """Every mouse to act names its hat from `places_by_seat`, in the engine's order."""
    events = []
    order = []
    while RULES.to_act(s) and s.phase == "search":
        seat = RULES.to_act(s)[0]
        order.append(seat)
        s, ev = RULES.apply(s, seat, Choose(places_by_seat[seat]))
        events += ev
    return s, events, order


def text_of(events) -> str:
    return "\n".join(e.public for e in events)


# ------------------------------------------------------------------- T-SK table
def test_t_sk_01_new_game_with_four_mice():
    s = game(4)
    assert [s.cubes[m] for m in s.mice] == [3, 3, 3, 3]
    assert s.supply == 28 and s.round_no == 1 and s.n_hats == 5
    assert RULES.to_act(s) == (s.cat_seat,) and s.cat_seat == 4


@pytest.mark.parametrize("move, after, words", [
    ((2, 5), "SKPLC", "slides to the right end"),
    ((5, 1), "LSCKP", "slides to the left end"),
    ((1, 3), "CKSPL", "slides between hats 3 and 4"),
])
def test_t_sk_02_to_04_moves_and_announcements(move, after, words):
    assert move_row(row("SCKPL"), *move) == row(after)
    assert words in move_announcement(*move, 5)
    s = game(1)
    s, _ = RULES.apply(s, s.cat_seat, Layout(row("SCKPL")))
    s, events = RULES.apply(s, s.cat_seat, Move(*move))
    assert s.row == row(after)
    assert words in events[0].public


def test_move_announcement_between_hats_when_moving_left():
    # j < i: the gap is counted in the row before the move: between j-1 and j
    assert "between hats 1 and 2" in move_announcement(4, 2, 5)
    assert move_row(row("SCKPL"), 4, 2) == row("SPCKL")


def test_move_picture_stars_the_moving_hat_before_and_after():
    picture = sk.move_picture(2, 5, 5)
    before, after = picture.splitlines()
    assert before.split()[1:] == ["[1]", "[*]", "[3]", "[4]", "[5]"]
    assert after.split()[1:] == ["[1]", "[2]", "[3]", "[4]", "[*]"]


def test_t_sk_05_illegal_move_and_asking_for_the_cat():
    s = game(1)
    s, _ = RULES.apply(s, s.cat_seat, Layout(row("SCKPL")))
    with pytest.raises(IllegalAction):
        RULES.apply(s, s.cat_seat, Move(2, 2))
    with pytest.raises(IllegalAction):
        RULES.apply(s, s.cat_seat, Move(0, 3))
    s, _ = RULES.apply(s, s.cat_seat, Move(1, 2))
    s, _ = RULES.apply(s, s.cat_seat, Move(1, 2))
    with pytest.raises(IllegalAction):
        RULES.apply(s, s.cat_seat, Ask(CAT))
    assert Ask(CAT) not in RULES.legal_actions(s, s.cat_seat)


def test_t_sk_06_round_one_payouts():
    s, _ = cat_turns(game(4), "CKPSL")          # sausage at 4, cat at 2 after the two moves
    assert s.row.index("sausage") + 1 == 4 and s.row.index(CAT) + 1 == 2
    s, _, order = mice_choose(s, {A: 4, B: 4, C: 1, D: 2})
    assert order == [A, B, C, D]
    assert s.cubes[:4] == (4, 4, 2, 1)


def test_t_sk_07_round_three_first_correct_gains_three():
    s = replace(game(4), round_no=3)
    s, _ = cat_turns(s, "CKPSL")
    s, _, order = mice_choose(s, {A: 4, B: 4, C: 1, D: 2})
    assert order == [C, D, A, B]               # the start rotates to the third mouse
    assert s.cubes[:4] == (6, 4, 2, 1)


def test_t_sk_08_first_means_first_among_the_correct():
    s = replace(game(2), round_no=3)
    s, _ = cat_turns(s, "CKPSL")
    s, _, order = mice_choose(s, {A: 1, B: 4})
    assert order == [A, B]
    assert s.cubes[:2] == (2, 6)


def test_t_sk_09_paying_the_last_cube_gets_you_eaten():
    s = replace(game(3), cubes=(1, 3, 3, 0))
    s, _ = cat_turns(s, "CKPSL")
    s, events, _ = mice_choose(s, {A: 2, B: 4, C: 4})
    assert s.cubes[A] == 0 and s.eaten[A]
    assert "eats Anna" in text_of(events)
    assert A not in sk.choosing_order(s.mice, 4, s.eaten, s.contenders)
    s, _ = cat_turns(s, "CKPSL")
    assert A not in mice_choose(s, {B: 4, C: 4})[2]


def test_t_sk_10_three_mistakes_eats_a_mouse_with_cheese_left():
    s = replace(game(2, three_mistakes=True), round_no=5, cubes=(10, 3, 0), dots=(2, 0, 0))
    s, _ = cat_turns(s, "CKPSL")
    s, events, _ = mice_choose(s, {A: 2, B: 1})
    assert s.cubes[A] == 8 and s.dots[A] == 3 and s.eaten[A]
    assert "left cheek · right cheek · nose" in text_of(events)
    assert RULES.is_terminal(s)
    result = RULES.result(s)
    assert result.winners == (B,) and result.scores[A] == 0


def test_t_sk_11_last_mouse_eaten_ends_the_game_for_the_cat():
    s = replace(game(1), round_no=2, cubes=(1, 0))
    s, _ = cat_turns(s, "CKPSL")
    s, events, _ = mice_choose(s, {A: 1})
    assert RULES.is_terminal(s) and s.round_no == 2
    result = RULES.result(s)
    assert result.winners == (s.cat_seat,)
    assert "cat wins" in result.reason
    assert RULES.to_act(s) == ()


def test_t_sk_12_choosing_order_rotates_and_skips_the_eaten():
    s = replace(game(3), round_no=2)
    s, _ = cat_turns(s, "CKPSL")
    assert mice_choose(s, {A: 1, B: 1, C: 1})[2] == [B, C, A]
    s = replace(game(3), round_no=2, eaten=(False, True, False, False))
    s, _ = cat_turns(s, "CKPSL")
    assert mice_choose(s, {A: 1, C: 1})[2] == [C, A]


def test_t_sk_13_three_tokens():
    s = game(2, tokens=3)
    layouts = RULES.legal_actions(s, s.cat_seat)
    assert {frozenset(a.row) for a in layouts} == {frozenset({"cat", "cheese_piece", "sausage"})}
    assert len(layouts) == 6
    with pytest.raises(IllegalAction):
        RULES.apply(s, s.cat_seat, Layout(row("SCKPL")))
    s, _ = RULES.apply(s, s.cat_seat, Layout(row("KPS")))
    assert all(1 <= m.src <= 3 and 1 <= m.dst <= 3 for m in RULES.legal_actions(s, s.cat_seat))
    with pytest.raises(IllegalAction):
        RULES.apply(s, s.cat_seat, Move(1, 4))
    s = replace(s, phase="ask")
    assert {a.bait for a in RULES.legal_actions(s, s.cat_seat)} == {"cheese_piece", "sausage"}


def test_four_tokens_drop_the_cheese_slice():
    s = game(2, tokens=4)
    assert set(RULES.legal_actions(s, s.cat_seat)[0].row) == {"cheese_piece", "chocolate",
                                                               "sausage", "cat"}


def _tied_after_round_five(**options):
    """A 7, B 7, C 5 after round 5: all three chose a wrong hat from 8, 8, 6."""
    s = replace(game(3, **options), round_no=5, cubes=(8, 8, 6, 0))
    s, _ = cat_turns(s, "CKPSL")
    return mice_choose(s, {A: 1, B: 1, C: 1})[:2]


def test_t_sk_14_tie_plays_one_deciding_round_with_the_tied_only():
    s, events = _tied_after_round_five()
    assert s.cubes[:3] == (7, 7, 5) and not RULES.is_terminal(s)
    assert s.round_no == 6 and s.contenders == (A, B)
    assert "deciding round" in text_of(events)
    s, _ = cat_turns(s, "CKPSL")
    decided, _, order = mice_choose(s, {A: 2, B: 1})       # A finds the cat: -2, B wrong: -1
    assert order == [A, B]
    assert decided.cubes[:2] == (5, 6) and RULES.result(decided).winners == (B,)
    decided, _, _ = mice_choose(s, {A: 4, B: 4})           # both right: first +5, then +1
    assert decided.cubes[:2] == (12, 8) and RULES.result(decided).winners == (A,)
    still_tied, _, _ = mice_choose(s, {A: 1, B: 1})
    assert still_tied.cubes[:2] == (6, 6)
    assert RULES.result(still_tied).winners == (A, B)
    assert "share" in RULES.result(still_tied).reason


def test_deciding_round_where_every_contender_is_eaten_is_a_shared_win():
    s, _ = _tied_after_round_five()
    s = replace(s, cubes=(1, 1, 5, 0))
    s, _ = cat_turns(s, "CKPSL")
    s, _, _ = mice_choose(s, {A: 1, B: 2})
    assert s.eaten[A] and s.eaten[B]
    assert RULES.result(s).winners == (A, B)


def test_tiebreak_shared_skips_the_deciding_round():
    s, _ = _tied_after_round_five(tiebreak="shared")
    assert RULES.is_terminal(s) and RULES.result(s).winners == (A, B)


def test_t_sk_15_supply_may_go_negative():
    s = game(8)
    assert s.supply == 16
    for _round in (1, 2):
        s, _ = cat_turns(s, "CKPSL")
        s, events, _ = mice_choose(s, {m: 4 for m in range(8)})
    assert s.supply == 16 - 8 - (2 + 7) and s.supply < 0
    assert s.cubes[B] == 3 + 1 + 2                # B chose first in round 2
    assert all(s.cubes[m] == 5 for m in range(8) if m != B)
    assert "pantry" in text_of(events)


def test_cube_bookkeeping_supply_plus_cubes_is_constant():
    s = game(4)
    total = s.supply + sum(s.cubes)
    s, _ = cat_turns(s, "CKPSL")
    s, _, _ = mice_choose(s, {A: 4, B: 2, C: 1, D: 5})
    assert s.supply + sum(s.cubes) == total


def test_t_sk_16_same_inputs_replay_to_the_same_game():
    cfg = {"players": ["Anna", "Ben"]}
    cat = make_bot("good")

    def run() -> tuple:
        s = RULES.new_game(cfg, "seed-16")
        log = GameLog(RULES.name, RULES.rules_version, cfg, "seed-16")
        n = 0
        while not RULES.is_terminal(s):
            seat = RULES.to_act(s)[0]
            legal = RULES.legal_actions(s, seat)
            if seat == s.cat_seat:
                a = cat.act(RULES.observe(s, seat), legal, rng_stream("seed-16", "cat", n))
                n += 1
            else:
                a = Choose(1 + (seat + s.round_no) % 5)   # the "human" inputs
            log = log.with_action(seat, RULES.action_to_text(s, a))
            s, _ = RULES.apply(s, seat, a)
        return s, log

    first, log = run()
    second, _ = run()
    assert first == second
    replayed = replay(RULES, log)
    assert replayed == first
    assert RULES.result(replayed) == RULES.result(first)


def test_t_sk_17_sealed_choices_are_hidden_from_other_mice():
    s, _ = cat_turns(game(3, choice_mode="sealed"), "CKPSL")
    s, events = RULES.apply(s, A, Choose(4))
    assert "4" not in events[0].public and "4" in events[0].text_for(A)
    obs_b = RULES.observe(s, B)
    assert obs_b.choices == () and obs_b.chosen == (A,)
    resampled = RULES.resample_hidden(s, B, rng_stream("x", "y"))
    for place in range(1, 6):
        other = replace(s, choices=((A, place),))
        assert RULES.observe(other, B) == obs_b
    assert RULES.observe(resampled, B) == obs_b
    assert RULES.observe(s, A).choices == ((A, 4),)


# ----------------------------------------------------------- other rules, rulings
def test_open_mode_tells_who_sits_on_and_who_in_front():
    s, _ = cat_turns(game(3), "CKPSL")
    s, ev1 = RULES.apply(s, A, Choose(3))
    s, ev2 = RULES.apply(s, B, Choose(3))
    assert "Anna sits ON hat 3" in ev1[0].public
    assert "Ben sits in front of hat 3 (agrees with Anna)" in ev2[0].public
    assert RULES.observe(s, C).choices == ((A, 3), (B, 3))


def test_the_treat_goes_to_the_first_on_the_right_hat_or_nobody():
    s, _ = cat_turns(game(2), "CKPSL")
    _, events, _ = mice_choose(s, {A: 1, B: 4})
    assert "Treat for Ben" in text_of(events)
    _, events, _ = mice_choose(s, {A: 1, B: 3})
    assert "no treat" in text_of(events)


def test_reveal_lifts_wrong_hats_then_the_cat_then_the_target():
    s, _ = cat_turns(game(3), "CKPSL")
    _, events, _ = mice_choose(s, {A: 4, B: 2, C: 5})
    text = text_of(events)
    assert text.index("hat 5:") < text.index("hat 2:") < text.index("hat 4:")
    assert "untouched: hat 1" in text


def test_each_round_starts_with_a_new_layout_by_the_cat():
    s, _ = cat_turns(game(1), "CKPSL")
    s, _, _ = mice_choose(s, {A: 4})
    assert s.phase == "layout" and s.round_no == 2 and RULES.to_act(s) == (s.cat_seat,)
    assert s.layout == () and s.moves == ()


@pytest.mark.parametrize("moves_per_round", [1, 2, 3])
def test_the_cat_makes_exactly_moves_per_round_moves(moves_per_round):
    s = game(1, moves_per_round=moves_per_round)
    s, _ = RULES.apply(s, s.cat_seat, Layout(row("SCKPL")))
    for _ in range(moves_per_round):
        assert s.phase == "move"
        s, _ = RULES.apply(s, s.cat_seat, Move(1, 3))
    assert s.phase == "ask"


def test_layout_event_asks_the_ui_to_pause_and_hide():
    s = game(1, memorize_s=7)
    _, events = RULES.apply(s, s.cat_seat, Layout(row("SCKPL")))
    assert events[0].hold_s == 7 and events[0].clear_after and not events[0].wait_enter
    assert "1 sausage · 2 chocolate · 3 CAT" in events[0].public
    s = game(1, memorize_s=0)
    _, events = RULES.apply(s, s.cat_seat, Layout(row("SCKPL")))
    assert events[0].wait_enter


def test_mice_screens_never_show_the_row_after_the_layout():
    s, _ = cat_turns(game(2), "CKPSL", target="L")
    mouse_screen = RULES.render(RULES.observe(s, A))
    for token in ("sausage", "chocolate", "CAT", "cheese piece"):
        assert token not in mouse_screen
    assert "Where is the cheese slice?" in mouse_screen
    assert "Mouse Anna, which hat? (1-5)" in mouse_screen
    assert "slides" not in mouse_screen                      # nor the moves
    assert RULES.observe(s, A).row is None
    cat_obs = RULES.observe(s, s.cat_seat)
    assert cat_obs.row == s.row                              # the cat (bot) knows...
    # ...but a human host's screen is shared
    assert "sausage" not in RULES.render(cat_obs)


def test_three_mistakes_variant_is_announced_at_the_start():
    assert "three mistakes" in RULES.intro(game(2, three_mistakes=True)).lower()
    assert "three mistakes" not in RULES.intro(game(2)).lower()


def test_holiday_allows_sixteen_mice():
    names = [f"M{i}" for i in range(16)]
    assert len(RULES.new_game({"players": names, "holiday": True}, "h").mice) == 16
    with pytest.raises(ConfigError):
        RULES.new_game({"players": names[:9]}, "h")


@pytest.mark.parametrize("config", [
    {"players": []},
    {"players": ["Anna"], "moves_per_round": 4},
    {"players": ["Anna"], "tokens": 2},
    {"players": ["Anna"], "choice_mode": "secret"},
    {"players": ["Anna"], "colour": "red"},
    {"players": ["Anna", "anna"]},
    {"players": ["Anna", "Cat"]},
    {"players": ["Anna"], "host": "human"},
    {"players": ["Anna", "Ben", "Cara"], "two_player": True},
    {"players": ["Anna"], "three_mistakes": "yes"},
])
def test_bad_configs_are_refused(config):
    with pytest.raises(ConfigError):
        RULES.new_game(config, "bad")


def test_human_host_is_the_first_player_and_no_program_seat():
    s = RULES.new_game({"players": ["Hosta", "Anna", "Ben"], "host": "human"}, "h")
    assert s.cat_seat == 0 and s.mice == (1, 2)
    assert RULES.extra_seats({"players": ["Hosta", "Anna"], "host": "human"}) == ()
    assert RULES.extra_seats({"players": ["Anna"]}) == (("Cat", "good"),)


def _finish_game(s, place_by_seat):
    """Play the current game to its end with a fixed layout and fixed choices."""
    game_no = s.game_no
    while s.phase != "over" and s.game_no == game_no:
        s, _ = cat_turns(s, "CKPSL")
        s, _, _ = mice_choose(s, place_by_seat)
    return s


def test_two_player_game_swaps_roles_and_compares_kept_cubes():
    s = RULES.new_game({"players": ["Anna", "Ben"], "host": "human", "two_player": True}, "2p")
    assert (s.cat_seat, s.mice) == (A, (B,))
    s = _finish_game(s, {B: 4})                          # Ben always right: 3+1+2+3+4+5
    assert s.game_no == 2 and (s.cat_seat, s.mice) == (B, (A,))
    assert s.match_scores[B] == 18 and s.cubes[A] == 3
    s = _finish_game(s, {A: 1})                          # Anna always wrong: eaten in round 3
    assert RULES.is_terminal(s)
    result = RULES.result(s)
    assert result.scores == (0.0, 18.0) and result.winners == (B,)


def test_two_player_game_hosted_by_the_program_and_a_shared_win():
    s = RULES.new_game({"players": ["Anna", "Ben"], "two_player": True}, "2p")
    assert (s.cat_seat, s.mice) == (2, (A,))
    s = _finish_game(s, {A: 4})
    assert (s.cat_seat, s.mice) == (2, (B,))
    s = _finish_game(s, {B: 4})
    result = RULES.result(s)
    assert result.scores[:2] == (18.0, 18.0) and result.winners == (A, B)
    assert "share" in result.reason


# ------------------------------------------------------------------ action text
def test_action_text_round_trips_for_every_legal_action():
    s = game(2)
    for phase_action in (None, (1, 2), (1, 2), "S"):
        seat = RULES.to_act(s)[0]
        for a in RULES.legal_actions(s, seat):
            assert RULES.parse_action(s, seat, RULES.action_to_text(s, a)) == a
        if phase_action is None:
            s, _ = RULES.apply(s, seat, Layout(row("CKPSL")))
        elif isinstance(phase_action, tuple):
            s, _ = RULES.apply(s, seat, Move(*phase_action))
        else:
            s, _ = RULES.apply(s, seat, Ask("sausage"))
    for a in RULES.legal_actions(s, A):
        assert RULES.parse_action(s, A, RULES.action_to_text(s, a)) == a


def test_parse_accepts_friendly_forms_and_refuses_nonsense():
    s = game(1)
    cat = s.cat_seat
    assert RULES.parse_action(s, cat, "SCKPL") == Layout(row("SCKPL"))
    assert RULES.parse_action(s, cat, "layout s, c, k, p, l") == Layout(row("SCKPL"))
    with pytest.raises(IllegalAction):
        RULES.parse_action(s, cat, "layout S,S,K,P,L")
    with pytest.raises(IllegalAction):
        RULES.parse_action(s, A, "hat 1")                       # not Anna's turn
    s, _ = RULES.apply(s, cat, Layout(row("SCKPL")))
    assert RULES.parse_action(s, cat, "2>5") == Move(2, 5)
    assert RULES.parse_action(s, cat, "2 to 5") == Move(2, 5)
    with pytest.raises(IllegalAction):
        RULES.parse_action(s, cat, "move 2")
    s = replace(s, phase="ask", moves=((1, 2), (1, 2)))
    assert RULES.parse_action(s, cat, "cheese piece") == Ask("cheese_piece")
    assert RULES.parse_action(s, cat, "S") == Ask("sausage")
    with pytest.raises(IllegalAction):
        RULES.parse_action(s, cat, "ask cat")
    s, _ = RULES.apply(s, cat, Ask("sausage"))
    assert RULES.parse_action(s, A, "3") == Choose(3)
    for nonsense in ("", "hat 6", "hat zero", "banana"):
        with pytest.raises(IllegalAction):
            RULES.parse_action(s, A, nonsense)


# ------------------------------------------------------------------------- bots
def test_make_bot_levels():
    assert {make_bot(level).level for level in ("random", "simple", "good")} == \
        {"random", "simple", "good"}
    with pytest.raises(ConfigError):
        make_bot("genius")


def test_sly_cat_never_undoes_prefers_long_moves_and_touches_a_bait():
    bot = KaterBot("good")
    for n in range(60):
        s = game(1)
        s, _ = RULES.apply(s, s.cat_seat, Layout(row("KSCPL")))
        rows = [s.row]
        moves = []
        while s.phase == "move":
            rng = rng_stream("sly", "cat", n * 10 + len(moves))
            m = bot.act(RULES.observe(s, s.cat_seat), RULES.legal_actions(s, s.cat_seat), rng)
            moves.append((m, s.row[m.src - 1]))
            s, _ = RULES.apply(s, s.cat_seat, m)
            rows.append(s.row)
        assert rows[2] != rows[0]                           # no undo
        assert all(abs(m.src - m.dst) >= 2 for m, _ in moves)
        assert any(token != CAT for _, token in moves)


def test_sly_cat_asks_for_the_farthest_travelled_bait_but_not_last_rounds_target():
    bot = KaterBot("good")
    s = game(1)
    s, _ = cat_turns(s, "SCKPL", moves=((1, 5), (1, 3)), target="L")
    # sausage travelled 4 places, chocolate 2
    s = replace(s, phase="ask", target=None, past_targets=())
    legal = RULES.legal_actions(s, s.cat_seat)
    assert bot.act(RULES.observe(s, s.cat_seat), legal, rng_stream("a", "b")) == Ask("sausage")
    s = replace(s, past_targets=("sausage",))
    assert bot.act(RULES.observe(s, s.cat_seat), legal, rng_stream("a", "b")) == Ask("chocolate")


def _mouse_hits(level: str, trials: int = 200) -> int:
    """How often a mouse bot of `level` names the right hat after three moves."""
    bot = make_bot(level)
    cat = make_bot("simple")
    hits = 0
    for n in range(trials):
        s = game(1, moves_per_round=3)
        k = 0
        while s.phase != "search":
            seat = s.cat_seat
            a = cat.act(RULES.observe(s, seat), RULES.legal_actions(s, seat),
                        rng_stream("mice", "cat", n * 10 + k))
            k += 1
            s, _ = RULES.apply(s, seat, a)
        choice = bot.act(RULES.observe(s, A), RULES.legal_actions(s, A),
                         rng_stream("mice", level, n))
        hits += choice.place == s.row.index(s.target) + 1
    return hits


def test_memory_bots_find_the_bait_more_often_than_random_and_good_beats_simple():
    random_hits, simple_hits, good_hits = (_mouse_hits(level)
                                           for level in ("random", "simple", "good"))
    assert random_hits < simple_hits < good_hits
    assert good_hits < 200          # memory is imperfect


def test_bots_use_only_the_observation_and_their_rng():
    s, _ = cat_turns(game(2), "CKPSL")
    obs = RULES.observe(s, A)
    legal = RULES.legal_actions(s, A)
    picks = {make_bot("good").act(obs, legal, rng_stream("same", "rng")) for _ in range(5)}
    assert len(picks) == 1


def test_every_permutation_is_a_legal_layout():
    s = game(1)
    layouts = {a.row for a in RULES.legal_actions(s, s.cat_seat)}
    assert layouts == set(itertools.permutations(sk.TOKENS))
