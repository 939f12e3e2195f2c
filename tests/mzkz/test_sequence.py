"""The sequence compiler against every ruling and the rulebook's spelled-out examples."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from beattrainer.mzkz.catalog import load_catalog
from beattrainer.mzkz.model import MIEZEKATZE, Modifier, Role, Sound
from beattrainer.mzkz.sequence import (
    Mode,
    SequenceError,
    card_order,
    compile_performance,
    sequence_json,
)
from tests.conftest import validate_contract

CATALOG = load_catalog()
ALL = [f"{i:02d}" for i in range(1, 49)]
CH = {n: Mode("challenge", n) for n in range(1, 10)}


def positions(perf):
    return [s.position for s in perf.slots if s.role is Role.CARD]


def card_ids(perf):
    return [s.card for s in perf.slots if s.role is Role.CARD]


def test_tutorial_two_cards_as_spelled_out():
    perf = compile_performance(["01", "02", "03", "04"], Mode("tutorial", 1), 2)
    assert [s.role for s in perf.slots[:2]] == [Role.SOLO, Role.SOLO]
    assert card_ids(perf) == ["01", "02"] * 3
    assert [s.round for s in perf.slots if s.card] == [1, 1, 2, 2, 3, 3]
    assert perf.slots[-1].role is Role.FINAL and len(perf.slots) == 9


def test_tutorial_four_cards_says_yeah_last():
    perf = compile_performance(["01", "02", "03", "04"], Mode("tutorial", 1), 4)
    said = [s.expected.text for s in perf.slots if s.card]
    assert said == [MIEZEKATZE, MIEZEKATZE, MIEZEKATZE, "YEAH"] * 3
    assert all(s.expected.text == MIEZEKATZE for s in perf.slots[:2])


def test_one_card_repeats_three_times():
    perf = compile_performance(["26"], Mode("highscore"), 1)
    assert card_ids(perf) == ["26", "26", "26"]
    assert all(s.expected.sound is Sound.SILENCE for s in perf.slots if s.card)


def test_challenge_7_example():
    perf = compile_performance(["03", "04", "05", "06", "07", "08"], CH[7], 1)
    assert positions(perf) == [1, 2, 3, 2, 1, 2, 3]
    assert perf.cards_in_play == ("03", "04", "05")


def test_challenge_7_four_cards():
    perf = compile_performance(["03", "04", "05", "06", "07", "08"], CH[7], 2)
    assert positions(perf) == [1, 2, 3, 4, 3, 2, 1, 2, 3, 4]


def test_challenge_8_rulebook_example():
    perf = compile_performance(["01", "02", "03", "04", "05", "06", "07"], CH[8])
    assert perf.number == 5
    assert positions(perf) == [1, 2, 3, 4, 6, 7, 6, 5, 3, 2, 1, 2, 3, 4, 6, 7]


def test_challenge_8_five_cards():
    perf = compile_performance(["01", "02", "03", "04", "05", "06", "07"], CH[8], 3)
    assert positions(perf) == [1, 2, 3, 4, 5, 3, 2, 1, 2, 3, 4]


def test_challenge_3_switch():
    cards = ["03", "04", "05", "06", "07", "08", "11"]
    four = compile_performance(cards, CH[3], 4)
    assert positions(four) == [1, 2, 3, 4] * 3  # no switch until card 5 exists
    seven = compile_performance(cards, CH[3], 7)
    assert positions(seven) == [1, 2, 3, 4, 6, 7, 1, 2, 3, 5, 6, 7, 1, 2, 3, 4, 6, 7]


@pytest.mark.parametrize("n, expected", [
    (1, [1, 1, 1]), (2, [1, 2, 1]), (3, [1, 3, 2, 3, 1, 3]), (4, [1, 3, 2, 4, 1, 3]),
    (5, [1, 3, 5, 2, 4, 5, 1, 3, 5]),
])
def test_challenge_4_only_switches(n, expected):
    cards = ["03", "04", "05", "06", "07", "08", "11", "12"]
    assert positions(compile_performance(cards, CH[4], n)) == expected


def test_challenge_4_pairs_continue_in_highscore():
    perf = compile_performance(ALL[:10], Mode("highscore", 4), 10)
    assert positions(perf)[:5] == [1, 3, 5, 7, 9]
    assert positions(perf)[5:10] == [2, 4, 6, 8, 10]


def test_highscore_back_and_forth_from_three_cards():
    perf = compile_performance(ALL[:12], Mode("highscore", 8), 10)
    assert len(perf.cards_in_play) == 12
    order = positions(perf)
    assert order[:11] == [1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12]
    assert all(a != b for a, b in zip(order, order[1:]))


def test_challenge_1_whispers_everything_voiced():
    perf = compile_performance(["08", "14", "29", "04", "26", "10"], CH[1])
    for slot in perf.slots:
        if slot.expected.voiced:
            assert slot.expected.modifier is Modifier.WHISPER
    kiss = next(s for s in perf.slots if s.card == "29")
    assert kiss.expected.sound is Sound.NONVERBAL and kiss.expected.modifier is None


def test_challenge_2_no_cats():
    perf = compile_performance(["08", "10", "14", "46", "45", "04"], CH[2])
    assert all(s.expected.sound is Sound.SILENCE for s in perf.slots[:2])
    for slot in perf.slots:
        if slot.card in ("08", "10", "14", "46", "45"):
            assert slot.expected.sound is Sound.SILENCE and slot.expected.modifier is None
        if slot.card == "04":
            assert slot.expected.text == "YEAH"
    ten = next(s for s in perf.slots if s.card == "10")
    assert ten.expected.free_timing  # slow-mo still lets the group find its beat again
    wave = compile_performance(["43"], CH[2]).slots[2].expected
    assert wave.sound is Sound.SILENCE and "WAVING CAT" in wave.labels


def test_challenge_9_solo_rotates_performers():
    perf = compile_performance(["03", "04", "13"], CH[9], players=["Ann", "Bo", "Cy", "Di"])
    assert [s.performer for s in perf.slots] == [i % 4 for i in range(len(perf.slots))]
    names = [s.expected.text for s in perf.slots if s.card == "13"]
    assert names == [["ANN", "BO", "CY", "DI"][s.performer] for s in perf.slots if s.card == "13"]
    assert sum(1 for s in perf.slots if s.role is Role.FINAL) == 1


@pytest.mark.parametrize("challenge, players, voices",
                         [(6, ["A", "B", "C"], 3), (5, ["A", "B", "C", "D"], 2)])
def test_canons(challenge, players, voices):
    perf = compile_performance(["03", "04"], CH[challenge], players=players)
    assert perf.voices == voices
    pattern_len = 2 + 6 + 1
    assert len(perf.slots) == voices * pattern_len + 1
    for v in range(voices):
        mine = [s for s in perf.slots if s.voice == v and s is not perf.slots[-1]]
        assert [s.beat for s in mine] == list(range(v, v + pattern_len))
        assert [s.role for s in mine][:2] == [Role.SOLO, Role.SOLO]
        if challenge == 6:
            assert {s.performer for s in mine} == {v}
    shared = perf.slots[-1]
    assert shared.role is Role.FINAL and shared.beat == voices - 1 + pattern_len
    assert [s.beat for s in perf.slots] == sorted(s.beat for s in perf.slots)


def test_names_for_card_09_and_13():
    perf = compile_performance(["09", "13"], Mode("highscore"), players=["Mia", "Tom"])
    nine = next(s for s in perf.slots if s.card == "09").expected
    assert nine.text == "MIA" and "SQUEAK" in nine.labels
    thirteen = next(s for s in perf.slots if s.card == "13").expected
    assert set(thirteen.labels) == {"MIA", "TOM"}


@pytest.mark.parametrize("cards, mode, number, message", [
    (["01", "77"], Mode("highscore"), None, "unknown card id '77'"),
    (["01", "01"], Mode("highscore"), None, "drawn twice"),
    (["01", "03"], CH[5], None, "sorted out for challenge 5"),
    (["44"], CH[9], None, "sorted out for challenge 9"),
    (["03", "04"], CH[7], None, "needs at least 3 cards"),
    (["03"] and ALL[2:10], CH[3], None, "plays 7 cards"),
    (["01", "02"], Mode("highscore"), 3, "performance 3 needs 3 cards"),
    (["02", "01"], Mode("tutorial", 1), None, "in the order"),
    (["01"], Mode("tutorial", 2), None, "not part of tutorial 2"),
])
def test_bad_cards_are_rejected(cards, mode, number, message):
    with pytest.raises(SequenceError, match=message):
        compile_performance(cards, mode, number)


def test_mode_names_round_trip():
    names = (["tutorial-1", "tutorial-2", "highscore"]
             + [f"challenge-{n}" for n in range(1, 10)]
             + [f"highscore-rules-{n}" for n in range(1, 10)])
    for name in names:
        assert Mode.parse(name).name == name
    with pytest.raises(SequenceError):
        Mode.parse("challenge-10")


# ----------------------------------------------------------------- properties

MODES = [Mode("highscore")] + [Mode("highscore", n) for n in range(1, 10)] + list(CH.values())


@st.composite
def performances(draw):
    mode = draw(st.sampled_from(MODES))
    challenge = CATALOG.challenges.get(mode.challenge) if mode.challenge else None
    pool = [c for c in ALL if not challenge or c not in challenge.sorted_out]
    limit = challenge.cards if mode.kind == "challenge" else 14
    minimum = 3 if challenge and "back_and_forth" in challenge.rules else 1
    cards = draw(st.lists(st.sampled_from(pool), min_size=minimum, max_size=limit, unique=True))
    players = draw(st.lists(st.sampled_from(["Ann", "Bo", "Cy", "Di", "Ed"]), unique=True,
                            min_size=1, max_size=5))
    extra = minimum - 1
    number = draw(st.integers(1, len(cards) - extra))
    return cards, mode, number, players


@settings(max_examples=300, deadline=None)
@given(performances())
def test_invariants_over_all_modes(case):
    cards, mode, number, players = case
    perf = compile_performance(cards, mode, number, players=players)
    rules = mode.rules(CATALOG)
    voice0 = [s for s in perf.slots if s.voice == 0]
    if perf.voices > 1:
        voice0 = voice0[:-1]  # the shared final move closes the canon
    assert [s.role for s in voice0[:2]] == [Role.SOLO, Role.SOLO]
    assert voice0[-1].role is Role.FINAL
    assert sum(1 for s in voice0 if s.role is Role.FINAL) == 1
    card_slots = [s for s in voice0 if s.role is Role.CARD]
    rounds = [s.round for s in card_slots]
    assert rounds == sorted(rounds) and set(rounds) == {1, 2, 3}
    assert {s.card for s in card_slots} == set(perf.cards_in_play)  # every card performed
    if "back_and_forth" in rules:
        assert all(a.card != b.card for a, b in zip(card_slots, card_slots[1:]))
    assert [s.index for s in perf.slots] == list(range(len(perf.slots)))
    assert [s.beat for s in voice0] == list(range(len(voice0)))
    if "no_cats" in rules:
        assert not any(s.expected.text == MIEZEKATZE and s.expected.sound is Sound.MZKZ
                       for s in perf.slots)
    validate_contract(sequence_json(perf), "sequence")


def test_card_order_rounds_are_in_order():
    order = card_order(6, frozenset({"back_and_forth", "switch"}))
    assert [r for r, _ in order] == sorted(r for r, _ in order)
