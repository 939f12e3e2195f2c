"""The pronunciation dictionary: every card word, names of several languages, odd input."""
from __future__ import annotations

import pytest

from beattrainer.mzkz.catalog import load_catalog
from beattrainer.mzkz.model import NAME, SQUEAK
from beattrainer.recognize.lexicon import (
    CMU_PHONES,
    LexiconError,
    ipa_to_cmu,
    label_token,
    letters_to_cmu,
    lexicon_for,
    load_lexicon,
    name_pronunciations,
    parse_lexicon,
)
from beattrainer.recognize.vocabulary import NONSPEECH_CLASS, is_speech


def card_words() -> set[str]:
    """Every label any card (lead role and challenge 2 included) can ask for."""
    words = set()
    for spec in load_catalog().cards.values():
        for expected in (spec.expected, spec.lead, spec.challenge_2):
            if expected is None:
                continue
            words.update(label for label in expected.labels if label not in (NAME, SQUEAK))
    return words


def test_the_dictionary_covers_every_card_word():
    lexicon = load_lexicon()
    words = card_words()
    assert "MIEZEKATZE" in words and "DING DONG" in words
    missing = [w for w in words if is_speech(w) and w not in lexicon]
    assert missing == []
    non_speech = {w for w in words if not is_speech(w)}
    assert non_speech <= set(NONSPEECH_CLASS)


def test_miezekatze_has_german_accented_variants():
    variants = load_lexicon().variants("MIEZEKATZE")
    assert len(variants) >= 3
    assert any("T S" in v for v in variants)  # the German z


def test_every_phone_is_in_the_model_phone_set():
    for variants in load_lexicon().entries.values():
        for phones in variants:
            assert set(phones.split()) <= CMU_PHONES


@pytest.mark.parametrize("name", ["Anna", "Jörg", "Siobhan", "Zoë", "José", "Łukasz", "Mei",
                                  "Çağla", "O'Brien", "Jean-Luc"])
def test_names_of_several_languages_get_pronunciations(name):
    variants = name_pronunciations(name)
    assert variants
    for phones in variants:
        assert phones and set(phones.split()) <= CMU_PHONES


@pytest.mark.parametrize("name", ["Anna", "Jörg", "Siobhan", "Łukasz"])
def test_names_without_espeak_use_letter_to_sound(name):
    variants = name_pronunciations(name, use_espeak=False)
    assert variants == [letters_to_cmu(name)]


def test_espeak_reading_differs_from_spelling_for_an_irish_name():
    # Siobhan is said "shi-VAWN": espeak's English reading starts with SH
    assert any(v.startswith("SH") for v in name_pronunciations("Siobhan"))


@pytest.mark.parametrize("odd", ["", "   ", "1234", "!!!", "🐈"])
def test_a_name_without_letters_is_a_clear_error(odd):
    with pytest.raises(LexiconError):
        name_pronunciations(odd)


def test_a_name_with_odd_characters_keeps_its_letters():
    assert name_pronunciations("Anna🐈!!", use_espeak=False) == name_pronunciations(
        "Anna", use_espeak=False)


def test_tokens_are_ascii():
    assert label_token("DING DONG") == "DING_DONG"
    assert label_token("JÖRG") == "JOERG"
    assert label_token("ZOË") == "ZOE"
    with pytest.raises(LexiconError):
        label_token("🐈")


def test_ipa_mapping():
    assert ipa_to_cmu("mˈiːtsəkˌatsə") == "M IY T S AH K AA T S AH"
    assert ipa_to_cmu("ʃɪvˈɔːn") == "SH IH V AO N"


def test_lexicon_for_a_performance_adds_names_and_skips_sounds():
    lexicon = lexicon_for(["MIEZEKATZE", "YEAH", "ANNA", "KISS", "SILENCE"], use_espeak=False)
    assert set(lexicon.entries) == {"MIEZEKATZE", "YEAH", "ANNA"}
    assert lexicon.syllables("MIEZEKATZE") == 4


def test_broken_dictionary_lines_name_the_line():
    with pytest.raises(LexiconError, match="x.dict:2"):
        parse_lexicon("YEAH\tY EH\nBAD LINE WITHOUT TAB\n", "x.dict")
    with pytest.raises(LexiconError, match="unknown phones"):
        parse_lexicon("YEAH\tY EH QQ\n", "x.dict")
