import json

import numpy as np
import pytest
from click.testing import CliRunner

from beattrainer.audio import read_audio
from beattrainer.cli import cli
from beattrainer.mzkz.model import Expected, Performance, Role, Slot, Sound
from beattrainer.mzkz.sequence import Mode, compile_performance
from beattrainer.synth.clips import ClipLibrary
from beattrainer.synth.render import (
    MIN_FREE_GAP_S,
    SYLLABLE_JITTER_S,
    Mistake,
    RenderError,
    RenderOptions,
    render_performance,
)
from beattrainer.synth.truth import syllable_onsets_s, true_onset_s

PLAYERS = ("Anna", "Ben", "Cem")
# normal words, substitutes, quiet/loud/high, silences, non-verbal, free timing, percussion
CARDS = ("01", "04", "08", "14", "46", "26", "29", "10", "48", "24", "41", "11")


@pytest.fixture(scope="module")
def lib():
    return ClipLibrary.load()


@pytest.fixture(scope="module")
def dip_db(lib):
    index = json.loads((lib.folder / "index.json").read_text(encoding="utf-8"))
    return {row["id"]: row["dip_db"] for row in index["clips"]}


def perf_of(cards=CARDS, mode="highscore", players=PLAYERS):
    return compile_performance(cards, Mode.parse(mode), players=players)


def render(lib, seed=1, perf=None, **options):
    return render_performance(perf or perf_of(), lib, np.random.default_rng(seed),
                              RenderOptions(**options))


def sounding_slots(truth):
    return [s for s in truth["slots"] if s["end_s"] is not None]


def window_before(truth, slot, pad_s=0.25):
    """Start of a window before `slot`'s onset that holds no earlier sound."""
    onset = slot["word_onset_s"]
    earlier_ends = [s["end_s"] for s in sounding_slots(truth) if s["end_s"] < onset]
    return max([onset - pad_s] + earlier_ends)


# ------------------------------------------------------------------ truth vs audio

def test_single_voice_word_onsets_are_where_energy_starts(lib):
    samples, sr, truth = render(lib, voices=1, jitter_ms=20, percussion=False)
    checked = 0
    for slot in truth["slots"]:
        if slot["word_onset_s"] is None or slot["role"] == "final":
            continue
        start_s = window_before(truth, slot)
        overlaps = [s for s in sounding_slots(truth) if s is not slot
                    and start_s < s["end_s"]
                    and s["word_onset_s"] and s["word_onset_s"] < slot["end_s"]]
        if overlaps:
            continue
        start = int(start_s * sr)
        found = true_onset_s(samples[start:int(slot["end_s"] * sr)], sr)
        assert found + start / sr == pytest.approx(slot["word_onset_s"], abs=0.0015), slot["index"]
        checked += 1
    assert checked >= 20


def test_single_voice_syllable_onsets_match_the_rendered_word(lib, dip_db):
    samples, sr, truth = render(lib, voices=1, percussion=False)
    words = [s for s in truth["slots"] if s["placed"] and s["placed"]["label"] == "MIEZEKATZE"]
    assert len(words) > 10
    for slot in words:
        clip = lib.get(slot["placed"]["clip_ids"][0])
        start = int(round((slot["word_onset_s"] - clip.onset_s) * sr))
        segment = samples[start:start + clip.n_samples]
        found = np.array(syllable_onsets_s(segment, sr, dip_db[clip.id])) + start / sr
        assert len(found) == 4
        assert np.allclose(found, slot["syllable_onsets_s"], atol=0.0015), slot["index"]


def test_group_voices_start_within_the_spread_and_the_earliest_is_the_word_onset(lib):
    samples, sr, truth = render(lib, voices=3, spread_ms=15, percussion=False)
    for slot in truth["slots"]:
        if slot["placed"] is None or slot["placed"]["kind"] != "voice":
            continue
        onsets = slot["voice_onsets_s"]
        assert min(onsets) == slot["word_onset_s"]
        assert max(onsets) - min(onsets) <= 0.015 + 1e-6
        if slot["performer"] is None and slot["role"] != "solo":
            assert len(set(slot["placed"]["voices"])) == 3
        start = int(window_before(truth, slot) * sr)
        found = true_onset_s(samples[start:int(slot["end_s"] * sr)], sr) + start / sr
        assert found == pytest.approx(slot["word_onset_s"], abs=0.01)


def test_words_and_percussion_lists_mirror_the_slots(lib):
    _, _, truth = render(lib)
    onsets = [w["onset_s"] for w in truth["words"]]
    assert onsets == sorted(onsets)
    assert {w["slot"] for w in truth["words"]} == {
        s["index"] for s in truth["slots"] if s["voice_onsets_s"]}
    assert len(truth["percussion"]) == sum(len(s["percussion"]) for s in truth["slots"])


# ------------------------------------------------------------------ timing

def test_grid_follows_the_period_and_the_solos(lib):
    _, _, truth = render(lib, period_s=1.5, jitter_ms=0, spread_ms=0)
    slots = truth["slots"]
    assert slots[1]["expected_onset_s"] - slots[0]["expected_onset_s"] == pytest.approx(1.5)
    assert slots[0]["word_onset_s"] == pytest.approx(slots[0]["expected_onset_s"], abs=1e-4)


def test_jitter_stays_within_two_deviations(lib):
    _, _, truth = render(lib, jitter_ms=20, spread_ms=0)
    errors = [s["word_onset_s"] - s["expected_onset_s"] for s in truth["slots"]
              if s["word_onset_s"] is not None and s["placed"]["kind"] == "voice"]
    assert max(abs(e) for e in errors) <= 0.040 + 1e-4
    assert np.std(errors) > 0.005


def test_drift_lengthens_the_periods_linearly(lib):
    _, _, truth = render(lib, perf=perf_of(("01", "04", "11")), drift_pct=10)
    times = [s["expected_onset_s"] for s in truth["slots"]]
    periods = np.diff(times)
    assert periods[0] == pytest.approx(1.2, rel=0.02)
    assert periods[-1] == pytest.approx(1.2 * 1.1, rel=0.02)
    assert np.all(np.diff(periods) > 0)


def test_free_timing_adds_a_pause_and_the_next_slot_reanchors(lib):
    _, _, truth = render(lib)
    slots = truth["slots"]
    free = [s for s in slots if s["expected"].get("free_timing")]
    assert free
    for slot in free:
        nxt = slots[slot["index"] + 1]
        gap = nxt["expected_onset_s"] - slot["expected_onset_s"]
        assert gap == pytest.approx(1.2 + slot["free_pause_s"], abs=1e-3)
        if slot["end_s"] is not None:
            assert nxt["expected_onset_s"] >= slot["end_s"] + MIN_FREE_GAP_S - 1e-6


def test_slow_clip_is_longer_than_the_normal_word(lib):
    _, _, truth = render(lib)
    by_card = {s["card"]: s for s in truth["slots"] if s["card"]}
    slow, normal = by_card["10"], by_card["01"]
    assert slow["placed"]["modifier"] == "slow"
    assert (slow["end_s"] - slow["word_onset_s"]) > 1.3 * (normal["end_s"] - normal["word_onset_s"])


# ------------------------------------------------------------------ what is placed

def test_modifiers_set_level_and_clip_kind(lib):
    _, _, truth = render(lib, voices=1)
    by_card = {s["card"]: s for s in truth["slots"] if s["card"]}
    normal = by_card["01"]["placed"]["gain_db"][0]
    assert by_card["08"]["placed"]["gain_db"][0] == pytest.approx(normal - 12, abs=2.1)
    assert by_card["14"]["placed"]["gain_db"][0] == pytest.approx(normal + 8, abs=2.1)
    high = lib.get(by_card["46"]["placed"]["clip_ids"][0])
    assert high.modifier == "high"


def test_substitutes_silences_and_nonverbal_sounds(lib):
    _, _, truth = render(lib)
    by_card = {s["card"]: s for s in truth["slots"] if s["card"]}
    assert by_card["04"]["placed"]["labels"] == ["YEAH"] * 3
    assert by_card["26"]["placed"] is None and by_card["26"]["word_onset_s"] is None
    assert by_card["29"]["placed"]["kind"] == "nonverbal"
    assert {lib.get(c).label for c in by_card["29"]["placed"]["clip_ids"]} == {"KISS"}
    assert [p["kind"] for p in by_card["41"]["percussion"]] == ["dice_roll"]


def test_percussion_lands_on_the_syllables(lib):
    _, _, truth = render(lib)
    by_card = {s["card"]: s for s in truth["slots"] if s["card"]}
    claps = [p["time_s"] for p in by_card["48"]["percussion"]]
    assert np.allclose(claps, by_card["48"]["syllable_onsets_s"], atol=0.011)
    dice = [p["time_s"] for p in by_card["24"]["percussion"]]
    syllables = by_card["24"]["syllable_onsets_s"]
    assert np.allclose(dice, [syllables[0], syllables[2]], atol=0.011)
    _, _, quiet = render(lib, percussion=False)
    assert all(not s["percussion"] for s in quiet["slots"] if s["role"] == "card")


def test_names_squeaker_and_own_names(lib):
    _, _, truth = render(lib, perf=perf_of(("13", "09", "22", "44")))
    by_card = {s["card"]: s for s in truth["slots"] if s["card"]}
    assert by_card["13"]["placed"]["labels"] == ["ANNA", "BEN", "CEM"]
    assert by_card["09"]["placed"]["labels"] == ["ANNA", "ANNA"]  # the others call the lead
    assert by_card["09"]["placed"]["kind"] == "mixed"
    assert {p["kind"] for p in by_card["09"]["percussion"]} == {"squeak"}
    assert by_card["22"]["placed"]["kind"] == "squeak"
    assert len(by_card["44"]["percussion"]) == 1


def test_whisper_challenge_uses_whisper_voices(lib):
    perf = perf_of(("01", "04", "11", "08", "14", "48"), mode="challenge-1")
    _, _, truth = render(lib, perf=perf)
    whisper = set(lib.voice_ids(whisper=True))
    for slot in truth["slots"]:
        if slot["placed"] and slot["placed"]["kind"] == "voice":
            assert set(slot["placed"]["voices"]) <= whisper, slot["index"]


def test_players_sharing_a_voice_say_different_clips(lib):
    """Two copies of one clip a few ms apart comb-filter into a tone.

    A whispered MIEZEKATZE sounded voiced (benchmarks/judge.py --seed 12, a false
    fail).
    """
    perf = perf_of(("01", "04", "11", "08", "14", "48"), mode="challenge-1")
    for seed in (1, 2, 3):
        _, _, truth = render(lib, seed=seed, perf=perf, voices=4)
        for slot in truth["slots"]:
            placed = slot["placed"]
            if placed and placed["kind"] == "voice" and placed["label"] == "MIEZEKATZE":
                assert len(set(placed["clip_ids"])) == len(placed["clip_ids"]), slot["index"]


def test_canon_voices_each_keep_their_own_voice(lib):
    perf = compile_performance(("03", "04", "11"), Mode.parse("challenge-6"), players=PLAYERS)
    _, _, truth = render(lib, perf=perf, voices=3)
    member_voice = {g["member"]: g["voice"] for g in truth["group"]}
    for slot in truth["slots"][:-1]:
        if slot["placed"]:
            assert slot["placed"]["voices"] == [member_voice[slot["voice"] % 3]]


def test_held_out_split_uses_only_test_voices(lib):
    _, _, truth = render(lib, split="test")
    test_voices = set(lib.voice_ids(split="test"))
    assert {g["voice"] for g in truth["group"]} <= test_voices
    for slot in truth["slots"]:
        for clip_id in (slot["placed"] or {}).get("clip_ids", []):
            assert lib.get(clip_id).split == "test"


def test_hand_built_slots_render(lib):
    mz = Expected(Sound.MZKZ, "MIEZEKATZE")
    slots = (Slot(0, 0, Role.SOLO, None, None, mz, 0, beat=0),
             Slot(1, 0, Role.SOLO, None, None, mz, 0, beat=1),
             Slot(2, 1, Role.CARD, "37", 1, Expected(Sound.WORD, "BAM"), beat=2),
             Slot(3, 0, Role.FINAL, None, None, Expected(Sound.FREE), beat=3))
    perf = Performance("highscore", None, 1, ("37",), slots, players=PLAYERS)
    _, _, truth = render(lib, perf=perf, voices=2)
    assert truth["slots"][2]["placed"]["labels"] == ["BAM", "BAM"]
    assert truth["slots"][3]["placed"]["label"] == "YEAH"


# ------------------------------------------------------------------ syllables in time

def syllable_spans_s(truth):
    """Per syllable of every multi-voice word: latest minus earliest voice's onset [s]."""
    spans = []
    for slot in truth["slots"]:
        per_voice = slot["voice_syllable_onsets_s"]
        if slot["placed"] and slot["placed"]["kind"] == "voice" and len(per_voice) > 1 \
                and len(set(slot["placed"]["labels"])) == 1:
            spans.extend(max(times) - min(times) for times in zip(*per_voice))
    return spans


def test_syllables_in_time_keep_every_voice_on_the_earliest_voice_syllables(lib):
    """Decision 28: each syllable within the spread plus jitter, not up to 0.3 s apart."""
    _, _, drifting = render(lib, seed=2, voices=4, spread_ms=15, percussion=False)
    _, _, in_time = render(lib, seed=2, voices=4, spread_ms=15, percussion=False,
                           syllables_in_time=True)
    assert max(syllable_spans_s(drifting)) > 0.05
    spans = syllable_spans_s(in_time)
    assert len(spans) > 40
    assert max(spans) <= 0.015 + 2 * SYLLABLE_JITTER_S + 1e-5
    for slot in in_time["slots"]:
        per_voice = slot["voice_syllable_onsets_s"]
        if per_voice and len(per_voice[0]) > 1 and len(set(slot["placed"]["labels"])) == 1:
            # the truth: each syllable's earliest voice; the word onset is unchanged
            assert slot["syllable_onsets_s"] == [min(t) for t in zip(*per_voice)]
            assert slot["syllable_onsets_s"][0] == slot["word_onset_s"]


def test_syllables_in_time_are_where_the_cut_voice_sounds(lib, dip_db):
    """Take the uncut earliest voice out of the mixture: the other one's syllables are in time."""
    samples, sr, truth = render(lib, seed=4, voices=2, period_s=2.0, percussion=False,
                                syllables_in_time=True)
    mixture = samples.astype(np.float64) / 10 ** (truth["output_gain_db"] / 20)
    checked = 0
    for slot in truth["slots"]:
        placed = slot["placed"]
        if not placed or placed["label"] != "MIEZEKATZE" or len(placed["clip_ids"]) != 2:
            continue
        onsets = slot["voice_onsets_s"]
        first, cut = (0, 1) if onsets[0] <= onsets[1] else (1, 0)
        whole = lib.get(placed["clip_ids"][first])
        start = int(round((onsets[first] - whole.onset_s) * sr))
        residual = mixture.copy()
        residual[start:start + whole.n_samples] -= \
            lib.audio(whole).astype(np.float64) * 10 ** (placed["gain_db"][first] / 20)
        window = int(window_before(truth, slot) * sr)
        found = syllable_onsets_s(residual[window:int(slot["end_s"] * sr)], sr,
                                  dip_db[placed["clip_ids"][cut]])
        expected = slot["voice_syllable_onsets_s"][cut]
        assert np.allclose(np.add(found, window / sr), expected, atol=0.0015), slot["index"]
        reference = slot["voice_syllable_onsets_s"][first]
        spread_s = expected[0] - reference[0]
        assert np.allclose(np.subtract(expected, reference), spread_s,
                           atol=SYLLABLE_JITTER_S + 1e-5), slot["index"]
        checked += 1
    assert checked >= 10


def test_syllables_in_time_change_nothing_else(lib):
    """The same clips, gains, word onsets and percussion; one voice renders as without."""
    perf = perf_of(("01", "04", "08", "14", "48", "24", "11"))  # no free timing
    off, _, t_off = render(lib, seed=6, perf=perf, voices=3)
    on, _, t_on = render(lib, seed=6, perf=perf, voices=3, syllables_in_time=True)
    assert not np.array_equal(off[: min(len(off), len(on))], on[: min(len(off), len(on))])
    assert t_on["options"]["syllables_in_time"] and not t_off["options"]["syllables_in_time"]
    for a, b in zip(t_off["slots"], t_on["slots"]):
        assert (a["placed"], a["voice_onsets_s"], a["word_onset_s"]) == \
            (b["placed"], b["voice_onsets_s"], b["word_onset_s"]), a["index"]
        assert [p["kind"] for p in a["percussion"]] == [p["kind"] for p in b["percussion"]]
    solo_off, _, _ = render(lib, seed=6, perf=perf, voices=1, snr_db=20, reverb=True)
    solo_on, _, _ = render(lib, seed=6, perf=perf, voices=1, snr_db=20, reverb=True,
                           syllables_in_time=True)
    assert np.array_equal(solo_off, solo_on)


def test_syllables_in_time_same_seed_same_audio_and_truth(lib):
    a, _, ta = render(lib, seed=7, voices=4, jitter_ms=20, snr_db=15, noise="babble",
                      syllables_in_time=True)
    b, _, tb = render(lib, seed=7, voices=4, jitter_ms=20, snr_db=15, noise="babble",
                      syllables_in_time=True)
    assert np.array_equal(a, b) and ta == tb


# ------------------------------------------------------------------ determinism, noise

def test_same_seed_same_audio_and_truth(lib):
    a, _, ta = render(lib, seed=7, jitter_ms=20, snr_db=15, noise="babble", reverb=True)
    b, _, tb = render(lib, seed=7, jitter_ms=20, snr_db=15, noise="babble", reverb=True)
    c, _, _ = render(lib, seed=8, jitter_ms=20, snr_db=15, noise="babble", reverb=True)
    assert np.array_equal(a, b) and ta == tb
    assert not np.array_equal(a[: min(len(a), len(c))], c[: min(len(a), len(c))])


@pytest.mark.parametrize("noise", ["babble", "pink", "hum"])
@pytest.mark.parametrize("snr", [10.0, 20.0])
def test_snr_is_achieved_within_one_db(lib, noise, snr):
    clean, _, tc = render(lib, seed=3)
    noisy, _, tn = render(lib, seed=3, snr_db=snr, noise=noise)
    signal = clean.astype(np.float64) / 10 ** (tc["output_gain_db"] / 20)
    mixture = noisy.astype(np.float64) / 10 ** (tn["output_gain_db"] / 20)
    residual = mixture - signal
    measured = 10 * np.log10(np.mean(signal**2) / np.mean(residual**2))
    assert measured == pytest.approx(snr, abs=1.0)
    assert tn["noise"]["kind"] == noise
    assert tn["slots"] == tc["slots"]  # noise never moves the truth


def test_reverb_keeps_the_truth_and_adds_a_tail(lib):
    dry, sr, td = render(lib, seed=4)
    wet, _, tw = render(lib, seed=4, reverb=True)
    assert tw["slots"] == td["slots"]
    assert 0.2 <= tw["reverb"]["rt60_s"] <= 0.7
    assert not np.allclose(dry, wet)


# ------------------------------------------------------------------ mistakes

def slot_of(truth, card):
    return next(s for s in truth["slots"] if s["card"] == card)


def mistaken(lib, kind, card, **options):
    base_perf = perf_of()
    index = next(s.index for s in base_perf.slots if s.card == card)
    _, _, base = render(lib, seed=5, jitter_ms=15, **options)
    _, _, bad = render(lib, seed=5, jitter_ms=15, mistake=Mistake(kind, index), **options)
    return base, bad, index


def assert_only_slot_changed(base, bad, index):
    for a, b in zip(base["slots"], bad["slots"]):
        if a["index"] != index:
            assert a == b, a["index"]
    assert base["slots"][index] != bad["slots"][index]


def test_missing_leaves_the_slot_empty(lib):
    base, bad, i = mistaken(lib, "missing", "24")  # 48 follows the free-timing 10
    assert bad["slots"][i]["placed"] is None and bad["slots"][i]["percussion"] == []
    assert bad["slots"][i]["word_onset_s"] is None and bad["slots"][i]["mistake"] == "missing"
    assert bad["mistake"] == {"kind": "missing", "slot": i}
    assert_only_slot_changed(base, bad, i)


def test_unexpected_sound_voices_a_silence(lib):
    base, bad, i = mistaken(lib, "unexpected_sound", "26")
    assert base["slots"][i]["placed"] is None
    assert bad["slots"][i]["placed"]["label"] == "MIEZEKATZE"
    assert bad["slots"][i]["word_onset_s"] == pytest.approx(bad["slots"][i]["expected_onset_s"],
                                                            abs=0.06)
    assert_only_slot_changed(base, bad, i)


@pytest.mark.parametrize("card", ["01", "04", "29"])
def test_wrong_word_places_another_label(lib, card):
    base, bad, i = mistaken(lib, "wrong_word", card)
    placed = bad["slots"][i]["placed"]["label"]
    assert placed not in [base["slots"][i]["expected"]["text"]]
    assert placed == bad["mistake"]["placed_label"]
    assert_only_slot_changed(base, bad, i)


def test_off_beat_shifts_the_word_by_at_least_250_ms(lib):
    base, bad, i = mistaken(lib, "off_beat", "04", period_s=1.6)
    shift = bad["slots"][i]["word_onset_s"] - base["slots"][i]["word_onset_s"]
    assert abs(shift) >= max(0.25, 0.25 * 1.6) - 1e-6
    assert shift == pytest.approx(bad["mistake"]["shift_s"], abs=1e-4)
    assert bad["slots"][i]["expected_onset_s"] == base["slots"][i]["expected_onset_s"]
    assert_only_slot_changed(base, bad, i)


@pytest.mark.parametrize("card,modifier", [("08", "quiet"), ("14", "loud"), ("46", "high")])
def test_wrong_dynamics_renders_the_normal_word(lib, card, modifier):
    base, bad, i = mistaken(lib, "wrong_dynamics", card)
    assert base["slots"][i]["placed"]["modifier"] == modifier
    assert bad["slots"][i]["placed"]["modifier"] is None
    for clip_id in bad["slots"][i]["placed"]["clip_ids"]:
        assert lib.get(clip_id).modifier is None
    if modifier in ("quiet", "loud"):
        delta = {"quiet": 12.0, "loud": -8.0}[modifier]
        assert np.allclose(np.subtract(bad["slots"][i]["placed"]["gain_db"],
                                       base["slots"][i]["placed"]["gain_db"]), delta, atol=1e-3)
    assert_only_slot_changed(base, bad, i)


def test_tempo_drift_slows_everything_from_its_slot_on(lib):
    base, bad, i = mistaken(lib, "tempo_drift", "04")
    for a, b in zip(base["slots"][:i + 1], bad["slots"][:i + 1]):
        assert a == {**b, "mistake": a["mistake"]}
    lateness = [b["word_onset_s"] - a["word_onset_s"]
                for a, b in zip(base["slots"][i + 1:], bad["slots"][i + 1:])
                if a["word_onset_s"] is not None and b["word_onset_s"] is not None]
    assert lateness[0] > 0.04 and lateness[-1] > 1.0
    first = bad["mistake"]["drift_exceeds_15pct_from_slot"]
    assert first is not None and first > i


@pytest.mark.parametrize("text,message", [
    ("missing@0", "card slots"), ("missing@7", "nothing is due"),
    ("unexpected_sound@2", "not a silence"), ("wrong_dynamics@2", "quiet/loud"),
    ("off_beat@999", "out of range"),
])
def test_mistakes_that_do_not_fit_are_refused(lib, text, message):
    perf = perf_of()
    assert perf.slots[7].card == "26"  # slot 7 is the silence card
    with pytest.raises(RenderError, match=message):
        render(lib, perf=perf, mistake=Mistake.parse(text))


@pytest.mark.parametrize("text", ["oops@3", "missing", "missing@x", "@3"])
def test_bad_mistake_text_is_refused(text):
    with pytest.raises(RenderError, match="KIND@SLOT"):
        Mistake.parse(text)


# ------------------------------------------------------------------ CLI

def test_cli_writes_audio_and_truth(tmp_path):
    out = tmp_path / "perf.wav"
    result = CliRunner().invoke(cli, [
        "synth", "--cards", "01,04,11", "--period", "1.1", "--voices", "2", "--snr", "15",
        "--noise", "pink", "--jitter-ms", "20", "--mistake", "wrong_word@3", "--seed", "3",
        "--out", str(out)])
    assert result.exit_code == 0, result.output
    truth = json.loads((tmp_path / "perf.truth.json").read_text(encoding="utf-8"))
    samples, sr = read_audio(out, sr=None)
    assert sr == truth["sample_rate"] == 16000
    assert len(samples) / sr == pytest.approx(truth["duration_s"], abs=1e-3)
    assert truth["mistake"]["kind"] == "wrong_word" and truth["seed"] == 3
    assert truth["cards"] == ["01", "04", "11"] and truth["period_s"] == 1.1
    assert truth["options"]["syllables_in_time"] is False


def test_cli_keeps_syllables_in_time(tmp_path):
    out = tmp_path / "perf.wav"
    result = CliRunner().invoke(cli, ["synth", "--cards", "01,04", "--voices", "3",
                                      "--syllables-in-time", "--out", str(out)])
    assert result.exit_code == 0, result.output
    truth = json.loads((tmp_path / "perf.truth.json").read_text(encoding="utf-8"))
    assert truth["options"]["syllables_in_time"] is True


@pytest.mark.parametrize("args,message", [
    (["--cards", "01", "--mistake", "missing@0"], "card slots"),
    (["--cards", "01,13", "--players", "Zoe,Ben"], "no voice clips for the name"),
    (["--cards", "01", "--mistake", "nonsense"], "KIND@SLOT"),
    (["--cards", "99"], ""),
])
def test_cli_bad_input_is_one_line_error(tmp_path, args, message):
    result = CliRunner().invoke(cli, ["synth", *args, "--out", str(tmp_path / "x.wav")])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "x.wav").exists()


@pytest.mark.parametrize("args", [
    ["--tutorial", "2", "--performance", "3"],
    ["--challenge", "5", "--cards", "03,04,11,48,24,08", "--performance", "2"],
    ["--challenge", "2", "--cards", "01,04,11,48,24,08"],
    ["--highscore", "--rules", "8", "--cards", "01,04,11,48,24"],
])
def test_cli_renders_every_mode(tmp_path, args):
    out = tmp_path / "p.flac"
    result = CliRunner().invoke(cli, ["synth", *args, "--split", "test", "--reverb",
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output
    truth = json.loads((tmp_path / "p.truth.json").read_text(encoding="utf-8"))
    assert truth["words"] and out.stat().st_size > 0


def test_a_whisper_cannot_be_missed_on_a_sound_without_voice(lib):
    """Challenge 1: SHH is the same whispered or not, so no wrong dynamics goes there."""
    from beattrainer.mzkz.sequence import Mode, compile_performance

    perf = compile_performance(["15", "04", "37"], Mode.parse("challenge-1"), 3,
                               players=("Anna", "Ben"))
    shh = next(s.index for s in perf.slots if s.card == "15")
    yeah = next(s.index for s in perf.slots if s.card == "04")
    with pytest.raises(RenderError, match="same whispered or not"):
        render(lib, perf=perf, mistake=Mistake.parse(f"wrong_dynamics@{shh}"))
    render(lib, perf=perf, mistake=Mistake.parse(f"wrong_dynamics@{yeah}"))


def test_no_word_is_left_out_right_after_a_free_timing_card(lib):
    """A word missing there only makes the free pause longer (decision 19)."""
    from beattrainer.mzkz.sequence import Mode, compile_performance

    perf = compile_performance(["41", "27", "16"], Mode.parse("highscore"), None,
                               players=("Anna", "Ben"))
    after_free = next(s.index for s in perf.slots if s.card == "27")
    assert perf.slots[after_free - 1].expected.free_timing
    for kind in ("missing", "off_beat"):
        with pytest.raises(RenderError, match="sets the beat anew"):
            render(lib, perf=perf, mistake=Mistake.parse(f"{kind}@{after_free}"))
    render(lib, perf=perf, mistake=Mistake.parse(f"missing@{after_free + 1}"))


def test_the_free_time_lasts_through_silences_until_the_next_sound(lib):
    """A silence cannot anchor the beat after a free-timing card; the next sound does.

    So no word is left out or put off the beat there, and no sound is made in
    the silence between (decision 19).
    """
    from beattrainer.mzkz.sequence import Mode, compile_performance

    perf = compile_performance(["44", "26", "04"], Mode.parse("highscore"), None,
                               players=("Anna", "Ben"))
    silence = next(s.index for s in perf.slots if s.card == "26")
    yeah = next(s.index for s in perf.slots if s.card == "04")
    assert perf.slots[silence - 1].expected.free_timing
    assert yeah == silence + 1
    for kind, index in (("unexpected_sound", silence), ("missing", yeah), ("off_beat", yeah)):
        with pytest.raises(RenderError, match="sets the beat anew"):
            render(lib, perf=perf, mistake=Mistake.parse(f"{kind}@{index}"))
    render(lib, perf=perf, mistake=Mistake.parse(f"missing@{yeah + 1}"))


def test_a_drift_counts_from_a_word_the_referee_times(lib):
    """The drift passes 15% where a timed word shows it.

    Not at a silence, the free final move or the word that sets the beat anew
    after a free-timing card; a drift that shows nowhere is none
    (benchmarks/judge.py does not count it).
    """
    from beattrainer.mzkz.model import Role, Sound
    from beattrainer.synth.render import _follows_free_timing

    perf = perf_of(["06", "41", "23"])
    for index in (s.index for s in perf.slots if s.role is Role.CARD):
        try:
            _, _, truth = render(lib, perf=perf, mistake=Mistake("tempo_drift", index))
        except RenderError:
            continue
        first = truth["mistake"]["drift_exceeds_15pct_from_slot"]
        if first is not None:
            slot = perf.slots[first]
            assert slot.role is Role.CARD and slot.expected.sound is not Sound.SILENCE
            assert not _follows_free_timing(perf.slots, slot)
