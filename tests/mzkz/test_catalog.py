"""The card catalog and user-made blank cards (rulings section 4)."""
import pytest

from beattrainer.mzkz.catalog import CatalogError, load_catalog, load_custom_cards
from beattrainer.mzkz.model import MIEZEKATZE, Modifier, Sound

CATALOG = load_catalog()


def test_all_48_cards_with_titles_and_instructions():
    assert sorted(CATALOG.cards) == [f"{i:02d}" for i in range(1, 49)]
    for spec in CATALOG.cards.values():
        assert spec.title and spec.does and not spec.custom


def test_free_timing_cards_are_exactly_the_ruled_ones():
    free = {c.id for c in CATALOG.cards.values() if c.expected.free_timing}
    assert free == {"09", "10", "13", "22", "34", "41", "44"}


@pytest.mark.parametrize("card_id, label", [
    ("04", "YEAH"), ("07", "MIAU"), ("11", "YO"), ("15", "SHH"), ("17", "WOW"),
    ("25", "BUUUH"), ("32", "DING DONG"), ("37", "BAM"), ("38", "WUIKKIWUIKKI"), ("39", "AAAH"),
])
def test_substitute_words(card_id, label):
    expected = CATALOG.card(card_id).expected
    assert expected.sound is Sound.WORD and expected.text == label


def test_alternatives_and_nonverbal_and_silence():
    assert CATALOG.card("39").expected.labels == ("AAAH", "OOOH")
    assert set(CATALOG.card("43").expected.labels) == {MIEZEKATZE, "WAVING CAT", "WINKEKATZE"}
    assert {c: CATALOG.card(c).expected.text for c in ("29", "40", "47")} == {
        "29": "KISS", "40": "HISS", "47": "ZOMBIE"}
    for card_id in ("26", "34", "41"):
        assert CATALOG.card(card_id).expected.sound is Sound.SILENCE
    assert CATALOG.card("26").expected.free_timing is False  # one silent beat, not free


def test_modifiers():
    mods = {c.id: c.expected.modifier for c in CATALOG.cards.values() if c.expected.modifier}
    assert mods == {"08": Modifier.QUIET, "14": Modifier.LOUD, "10": Modifier.SLOW,
                    "46": Modifier.HIGH}


def test_lead_variants_and_percussion():
    leads = {c.id: c.lead.text for c in CATALOG.cards.values() if c.lead}
    assert leads == {"09": "SQUEAK", "22": "SQUEAK", "44": "SQUEAK"}
    percussive = {c.id for c in CATALOG.cards.values() if c.expected.percussion}
    assert percussive == {"03", "12", "21", "24", "31", "41", "48"}
    assert CATALOG.card("48").expected.percussion == ("clap",) * 4
    assert CATALOG.card("24").expected.percussion == ("dice",) * 2


def test_every_other_card_is_a_plain_miezekatze():
    special = {"04", "07", "08", "09", "10", "11", "13", "14", "15", "17", "22", "25", "26",
               "29", "32", "34", "37", "38", "39", "40", "41", "43", "44", "46", "47"}
    for spec in CATALOG.cards.values():
        if spec.id not in special:
            assert spec.expected.sound is Sound.MZKZ and spec.expected.text == MIEZEKATZE
            assert spec.expected.modifier is None and not spec.expected.free_timing


def test_tutorials_and_challenges():
    assert CATALOG.tutorials[1].cards == ("01", "02", "03", "04")
    assert not CATALOG.tutorials[1].shuffle
    assert CATALOG.tutorials[2].cards == ("05", "08", "10", "11", "13", "14")
    assert CATALOG.tutorials[2].shuffle
    counts = {n: (c.cards, c.performances, c.difficulty) for n, c in CATALOG.challenges.items()}
    assert counts == {1: (6, 6, 2), 2: (6, 6, 3), 3: (7, 7, 2), 4: (8, 8, 4), 5: (6, 6, 4),
                      6: (6, 6, 5), 7: (6, 4, 3), 8: (7, 5, 5), 9: (6, 6, 3)}
    for n in (5, 6, 9):
        assert CATALOG.challenges[n].sorted_out == (
            "01", "02", "09", "21", "22", "33", "36", "44")
    assert CATALOG.challenges[3].sorted_out == ()


GOOD = '''
[[card]]
id = "49"
title = "Purr"
does = "Purr like a happy cat."
hear = "word"
text = "purr"

[[card]]
id = "50"
title = "Tail wag"
does = "Wag an imaginary tail."
hear = "mzkz"
modifier = "loud"
'''


def test_custom_cards_load_and_join_the_catalog():
    custom = load_custom_cards(GOOD, "mine.toml")
    assert [c.id for c in custom] == ["49", "50"]
    assert custom[0].expected.text == "PURR" and custom[0].custom
    assert custom[1].expected.modifier is Modifier.LOUD
    catalog = CATALOG.with_custom(custom)
    assert catalog.card("49").title == "Purr" and len(catalog.cards) == 50


@pytest.mark.parametrize("text, message", [
    ('[[card]]\nid = "12"\ntitle="x"\ndoes="y"\nhear="mzkz"\n', "line 2, field 'id'"),
    ('[[card]]\nid = "49"\ntitle="x"\ndoes="y"\nhear="shout"\n', "line 5, field 'hear'"),
    ('[[card]]\nid = "49"\ntitle="x"\nhear="mzkz"\n', "line 1, field 'does': missing"),
    ('[[card]]\nid = "49"\ntitle="x"\ndoes="y"\nhear="word"\n', "field 'text'"),
    ('[[card]]\nid = "49"\ntitle="x"\ndoes="y"\nhear="mzkz"\ncolour="red"\n',
     "line 6, field 'colour'"),
    ('[[card]]\nid = "49"\ntitle="x"\ndoes="y"\nhear="word"\ntext="YO"\nmodifier="loud"\n',
     "line 7, field 'modifier'"),
    ('[[card]]\nid = "49"\ntitle = "x\n', "line 3"),
    ('title = "x"\n', "unknown table"),
    ('', "no [[card]]"),
    ('[[card]]\nid="49"\ntitle="a"\ndoes="b"\nhear="mzkz"\n[[card]]\nid="49"\ntitle="c"\n'
     'does="d"\nhear="mzkz"\n', "line 7, field 'id': duplicate"),
])
def test_malformed_custom_cards_name_line_and_field(text, message):
    with pytest.raises(CatalogError, match=message.replace("[", r"\[").replace("]", r"\]")) as err:
        load_custom_cards(text, "mine.toml")
    assert "\n" not in str(err.value) and str(err.value).startswith("mine.toml")
