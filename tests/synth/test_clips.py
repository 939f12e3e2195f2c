import json

import numpy as np
import pytest

from beattrainer.synth.clips import ClipLibrary, ClipLibraryError
from beattrainer.synth.truth import syllable_onsets_s, true_onset_s

# everything the cards can ask for (rulings section 4), plus the effects and percussion
CARD_LABELS = {
    "MIEZEKATZE", "YEAH", "YO", "BAM", "WOW", "BUUUH", "DING DONG", "AAAH", "OOOH", "SHH",
    "MIAU", "WUIKKIWUIKKI", "WAVING CAT", "WINKEKATZE", "HISS", "KISS", "ZOMBIE", "SQUEAK",
}
PERCUSSION_LABELS = {"CLAP", "SLAP", "TABLE", "STAMP", "SNAP", "DICE", "DICE_ROLL"}


@pytest.fixture(scope="module")
def lib():
    return ClipLibrary.load()


def test_library_has_every_card_label_and_percussion(lib):
    assert CARD_LABELS | PERCUSSION_LABELS <= set(lib.labels())


def test_every_word_exists_in_train_and_in_held_out_voices(lib):
    words = {c.label for c in lib.query(kind="voice")}
    for split in ("train", "test"):
        said = {c.label for c in lib.query(kind="voice", split=split)}
        assert said == words, split


def test_held_out_voices_are_flagged_and_disjoint(lib):
    test_voices = set(lib.voice_ids(split="test"))
    train_voices = set(lib.voice_ids(split="train"))
    assert test_voices and train_voices and not test_voices & train_voices
    assert {c.voice for c in lib.query(split="test", kind="voice")} == test_voices


def test_modified_miezekatze_variants_exist(lib):
    for modifier in ("slow", "high", "whisper"):
        assert len(lib.query(label="MIEZEKATZE", modifier=modifier)) >= 2, modifier
    slow = np.median([c.tail_s for c in lib.query(label="MIEZEKATZE", modifier="slow")])
    normal = np.median([c.tail_s for c in lib.query(label="MIEZEKATZE", modifier=None)])
    assert slow > 1.3 * normal


def test_every_miezekatze_has_four_increasing_syllables(lib):
    for clip in lib.query(label="MIEZEKATZE"):
        onsets = clip.syllable_onsets_s
        assert clip.syllables == len(onsets) == 4, clip.id
        assert onsets[0] == clip.onset_s
        assert all(b - a > 0.04 for a, b in zip(onsets, onsets[1:])), clip.id
        assert onsets[-1] < clip.duration_s


def test_stored_onsets_match_the_loaded_audio(lib):
    for clip in lib.clips:
        audio = lib.audio(clip)
        assert audio.shape == (clip.n_samples,)
        onset_s = true_onset_s(audio, lib.sample_rate)
        assert onset_s == pytest.approx(clip.onset_s, abs=1e-3), clip.id


def test_stored_syllable_counts_match_the_loaded_audio(lib):
    index = json.loads((lib.folder / "index.json").read_text(encoding="utf-8"))
    dip_db = {row["id"]: row["dip_db"] for row in index["clips"]}
    for clip in lib.query(kind="voice"):
        found = syllable_onsets_s(lib.audio(clip), lib.sample_rate, dip_db[clip.id])
        assert np.allclose(found, clip.syllable_onsets_s, atol=1e-3), clip.id


def test_query_filters_on_every_given_field(lib):
    got = lib.query(label=("YEAH", "YO"), voice="de-m1", split="train")
    expected = [c for c in lib.clips if c.label in ("YEAH", "YO") and c.voice == "de-m1"]
    assert got == expected and got
    assert lib.query(label="MIEZEKATZE", modifier=None)
    assert all(c.modifier is None for c in lib.query(label="MIEZEKATZE", modifier=None))
    assert lib.get(got[0].id) == got[0]


def test_missing_library_is_a_clear_error(tmp_path):
    with pytest.raises(ClipLibraryError, match="no clip library"):
        ClipLibrary.load(tmp_path)


def test_broken_index_is_a_clear_error(tmp_path):
    (tmp_path / "index.json").write_text("{not json")
    with pytest.raises(ClipLibraryError, match="broken"):
        ClipLibrary.load(tmp_path)
