"""The causal onset detector: block-size invariance, rendered truth, percussion, contract."""
import subprocess
import sys

import numpy as np
import pytest

from beattrainer.dsp.onsets import OnsetDetector, detect, events_json, rising_band_start
from beattrainer.events import Onset, OnsetKind, Word, final_events
from tests.conftest import validate_contract

SR = 16000


@pytest.fixture(scope="module")
def library():
    from beattrainer.synth.clips import ClipLibrary

    return ClipLibrary.load()


def render(library, cards, voices=1, snr_db=None, noise="pink", period_s=1.5, seed=5,
           reverb=False):
    from beattrainer.mzkz.sequence import Mode, compile_performance
    from beattrainer.synth.render import RenderOptions, render_performance

    perf = compile_performance(cards, Mode("highscore"), players=("Anna", "Ben", "Cem")[:voices])
    options = RenderOptions(period_s=period_s, voices=voices, snr_db=snr_db, noise=noise,
                            seed=seed, reverb=reverb)
    samples, sr, truth = render_performance(perf, library, np.random.default_rng(seed), options)
    assert sr == SR
    return samples, truth


def claps(rng, times_s, seconds=3.0):
    """Decaying band-limited noise bursts (claps) over faint hiss."""
    from scipy.signal import butter, lfilter

    y = 1e-3 * rng.standard_normal(int(seconds * SR))
    b, a = butter(2, [1000 / 8000, 4000 / 8000], "band")
    n = int(0.08 * SR)
    envelope = np.exp(-np.arange(n) / SR / 0.012)
    for t in times_s:
        burst = lfilter(b, a, rng.standard_normal(n)) * envelope
        i = int(t * SR)
        y[i:i + n] += 0.5 * burst / np.abs(burst).max()
    return y.astype(np.float32)


def feed_in_blocks(samples, sizes):
    """Feed `samples` cutting blocks of the given sizes in turn."""
    detector = OnsetDetector(SR)
    events, start, k = [], 0, 0
    while start < len(samples):
        size = sizes[k % len(sizes)]
        events += detector.feed(samples[start:start + size])
        start += size
        k += 1
    return events + detector.flush()


def nearest_errors_s(estimates, references):
    return [min(abs(e - r) for e in estimates) if estimates else np.inf for r in references]


def f_measure(estimates, references, tolerance_s):
    """F-measure of a greedy one-to-one matching within `tolerance_s` (as the benchmark)."""
    pairs = sorted((abs(e - r), i, j) for i, e in enumerate(estimates)
                   for j, r in enumerate(references) if abs(e - r) <= tolerance_s)
    used_e, used_r = set(), set()
    for _, i, j in pairs:
        if i not in used_e and j not in used_r:
            used_e.add(i)
            used_r.add(j)
    total = len(estimates) + len(references)
    return 1.0 if total == 0 else 2.0 * len(used_e) / total


def scores(samples, truth):
    """(syllable F@50, word F@50, word F@25, words heard, true words) of one render."""
    events = detect(samples, SR)
    syllables = [e.time_s for e in events
                 if isinstance(e, Onset) and e.kind is OnsetKind.SYLLABLE]
    words = [e.onset_s for e in events if isinstance(e, Word)]
    true_words = [w["onset_s"] for w in truth["words"]]
    true_syllables = [s for w in truth["words"] for s in (w["syllable_onsets_s"] or [w["onset_s"]])]
    return (f_measure(syllables, true_syllables, 0.05), f_measure(words, true_words, 0.05),
            f_measure(words, true_words, 0.025), len(words), len(true_words))


def test_any_block_split_gives_identical_events(library):
    samples, _ = render(library, ("01", "48", "37"), voices=2, snr_db=20, noise="babble")
    whole = OnsetDetector(SR).run([samples])
    assert any(isinstance(e, Word) for e in whole)
    for sizes in ([512], [1], [7, 300, 4093], [33, 1, 2048]):
        if sizes == [1]:
            part = feed_in_blocks(samples[: SR * 2], sizes)
            assert part == OnsetDetector(SR).run([samples[: SR * 2]])
        else:
            assert feed_in_blocks(samples, sizes) == whole
    assert final_events(whole) == detect(samples, SR)


def test_clean_performance_words_match_truth(library):
    samples, truth = render(library, ("01", "04", "11", "37"))
    syllable_f, word_f50, word_f25, n_words, n_true = scores(samples, truth)
    assert n_words == n_true
    assert word_f25 == 1.0
    assert syllable_f >= 0.9
    words = [e.onset_s for e in detect(samples, SR) if isinstance(e, Word)]
    errors = nearest_errors_s(words, [w["onset_s"] for w in truth["words"]])
    assert np.median(errors) <= 0.005


def test_miezekatze_has_four_syllables_when_clean(library):
    samples, truth = render(library, ("01", "02"))
    words = [e for e in detect(samples, SR) if isinstance(e, Word)]
    assert len(words) == len(truth["words"])
    wrong = [w for w, t in zip(words, truth["words"])
             if w.n_syllables != len(t["syllable_onsets_s"])]
    assert len(wrong) <= 1
    true_syllables = [s for w in truth["words"] for s in w["syllable_onsets_s"]]
    ours = [s for w in words for s in w.syllable_onsets_s]
    assert f_measure(ours, true_syllables, 0.025) >= 0.95


def test_three_voices_together_are_one_word_each(library):
    samples, truth = render(library, ("01", "48", "37"), voices=3)
    syllable_f, _, word_f25, n_words, n_true = scores(samples, truth)
    assert n_words == n_true
    assert word_f25 == 1.0
    assert syllable_f >= 0.9


@pytest.mark.parametrize("noise, snr_db, voices, seed, min_syllable_f, min_word_f", [
    ("pink", 20, 2, 5, 0.85, 0.95),
    ("pink", 10, 1, 5, 0.88, 0.95),
    ("babble", 10, 1, 5, 0.8, 0.75),  # babble glues onto 2 of its 12 words
    # (was a strict xfail, 6 of 12 words lost: passes since the last speaker level stays
    # once all its peaks are older than level_memory_s; the two solos, one voice each,
    # reach only 6 dB over the babble's own peaks: which of the first four words are
    # lost turns on 1 dB)
    ("babble", 10, 2, 9, 0.65, 0.75),
])
def test_noisy_performance_matches_truth(library, noise, snr_db, voices, seed, min_syllable_f,
                                         min_word_f):
    cards = ("01", "04", "11", "37") if noise == "pink" and snr_db == 20 else ("01", "04", "37")
    samples, truth = render(library, cards, voices=voices, snr_db=snr_db, noise=noise, seed=seed)
    syllable_f, word_f, _, _, _ = scores(samples, truth)
    assert word_f >= min_word_f
    assert syllable_f >= min_syllable_f


def test_the_lead_solos_in_pink_noise_are_heard_from_their_first_syllable(library):
    """The quiet solos before a group in pink noise at 10 dB start on their first syllable.

    Before the first word the ambient learns from everything; the solos' first
    syllables stayed under the first-word gate and lifted its bed and top with
    them, so both solos were heard 0.2 s late, from a later syllable on.
    """
    samples, truth = render(library, ("01", "04", "37"), voices=3, snr_db=10, noise="pink",
                            seed=8)
    words = [e.onset_s for e in detect(samples, SR) if isinstance(e, Word)]
    solos_s = [w["onset_s"] for w in truth["words"][:2]]
    assert max(nearest_errors_s(words, solos_s)) <= 0.025
    assert scores(samples, truth)[1] == 1.0


@pytest.mark.parametrize("seed", [1, 3])
def test_a_later_syllable_rising_through_the_foreground_gate_fires_once(library, seed):
    """A ZE whose /ts/ fires below the babble's gate is not fired again by its vowel.

    The re-arming meant for a background syllable that the group's word rises
    through took the vowel of a speaker's own later syllable for a new onset.
    """
    samples, truth = render(library, ("01", "04", "37"), snr_db=10, noise="babble", seed=seed)
    words = [e for e in detect(samples, SR) if isinstance(e, Word)]
    assert len(words) == len(truth["words"])
    for word, true_word in zip(words, truth["words"]):
        assert word.n_syllables <= len(true_word["syllable_onsets_s"])
    assert scores(samples, truth)[0] >= 0.96


def test_a_word_start_standing_clear_in_a_band_is_not_the_background(library):
    """A soft /m/ under babble at 10 dB is no background a word's start is traced up from.

    Its hops count as silence for the word gap (they stay under the bed + 8 dB), but they
    stand clear of the babble in some band; the background they lifted put the
    start where the vowel rose out of the /m/, up to 80 ms late.
    """
    samples, truth = render(library, ("01", "04", "37"), snr_db=10, noise="babble", seed=8)
    words = [e.onset_s for e in detect(samples, SR) if isinstance(e, Word)]
    assert max(nearest_errors_s(words, [w["onset_s"] for w in truth["words"]])) <= 0.05


def test_a_short_gap_down_at_the_noise_separates_a_fast_groups_words(library):
    """Two voices at a 1.03 s period: the second voice's tail leaves 138 ms before the next.

    One hop short of `word_gap_s`, the next MIEZEKATZE was glued onto the word
    before; but the gap lay down at the noise's own level, where no closure
    inside a word goes.
    """
    from beattrainer.mzkz.sequence import Mode, compile_performance
    from beattrainer.synth.render import RenderOptions, render_performance

    perf = compile_performance(["01", "18"], Mode.parse("highscore"), None,
                               players=("Anna", "Ben"))
    options = RenderOptions(period_s=1.0343660999755953, voices=2, snr_db=30.0, noise="babble",
                            jitter_ms=20.0, split="train", seed=1012760293)
    samples, _, truth = render_performance(perf, library, np.random.default_rng(1012760293),
                                           options)
    words = [e.onset_s for e in detect(samples, SR) if isinstance(e, Word)]
    assert len(words) == len(truth["words"])
    assert max(nearest_errors_s(words, [w["onset_s"] for w in truth["words"]])) <= 0.025


def test_a_word_start_that_sags_a_little_before_its_vowel_is_not_late(library):
    """Babble at 10 dB: an /m/ rises past the start's level, sags a few dB, then the vowel.

    The start was the last crossing of the level a word start is traced to, the
    vowel's, over 50 ms late; a sag of less than `word_start_sag_db` keeps the /m/'s.
    """
    samples, truth = render(library, ("01", "04", "37"), snr_db=10, noise="babble", seed=1)
    words = [e.onset_s for e in detect(samples, SR) if isinstance(e, Word)]
    assert len(words) == len(truth["words"])
    assert max(nearest_errors_s(words, [w["onset_s"] for w in truth["words"]])) <= 0.025


@pytest.mark.parametrize("seed", [1, 2, 4])
def test_word_starts_in_pink_noise_at_10_db_are_not_early(library, seed):
    """The rise out of noise is not traced back into the noise's own fluctuation."""
    samples, truth = render(library, ("01", "04", "37"), snr_db=10, noise="pink", seed=seed)
    words = [e.onset_s for e in detect(samples, SR) if isinstance(e, Word)]
    true_words = [w["onset_s"] for w in truth["words"]]
    assert np.median(nearest_errors_s(words, true_words)) <= 0.005  # the target


def first_word_starts_error_s(samples, truth, n=2):
    """How far the detector's word starts lie from the first `n` true words [s]."""
    starts = [e.time_s for e in detect(samples, SR) if isinstance(e, Onset) and e.starts_word]
    return [min(starts, key=lambda t: abs(t - w["onset_s"])) - w["onset_s"]
            for w in truth["words"][:n]]


def test_the_first_word_is_reported_at_once_and_its_start_corrected_later(library):
    # the first word's start is known better once its first syllable's peak is in;
    # the listener hears of the word at once all the same (latency), then where it lies
    samples, _ = render(library, ("01", "04"), seed=1)
    events = OnsetDetector(SR).run([samples])
    first = next(e for e in events if isinstance(e, Onset) and e.starts_word)
    correction = next(e for e in events if isinstance(e, Onset) and e.replaces_s is not None)
    assert correction.replaces_s == first.time_s < correction.time_s
    assert first.detected_s < correction.detected_s
    assert first.detected_s - first.time_s < 0.1
    assert sum(1 for e in events if isinstance(e, Onset) and e.replaces_s is not None) == 1
    final_first = next(e for e in detect(samples, SR) if isinstance(e, Onset) and e.starts_word)
    assert final_first == correction
    first_word = next(e for e in events if isinstance(e, Word))
    assert first_word.onset_s == correction.time_s


@pytest.mark.parametrize("seed", [1, 2, 4])
def test_the_streams_first_word_starts_where_the_words_after_it_do(library, seed):
    # before any speaker level the first word was traced back against its own level at
    # firing, low in its rise: 11-19 ms early in clean renders where the words after it
    # lay within 2 ms (the lead's two solos set the tempo: 1-2% too slow)
    samples, truth = render(library, ("01", "04"), seed=seed)
    first_s, second_s = first_word_starts_error_s(samples, truth)
    assert abs(first_s) <= 0.005
    assert abs(first_s - second_s) <= 0.003


def test_the_lead_s_first_solo_in_pink_noise_is_not_early(library):
    # benchmarks/judge.py --seed 47, case 91 (pink 20 dB, three voices): no gap of silence
    # before the first word in the noise, so it was traced by a syllable's rule against
    # its own level at firing: 15.5 ms early, solo 2 on time
    from beattrainer.mzkz.sequence import Mode, compile_performance
    from beattrainer.synth.render import RenderOptions, render_performance

    perf = compile_performance(["32", "31", "13", "41"], Mode.parse("challenge-9"), 4,
                               players=("Anna", "Ben", "Cem", "Mei"))
    options = RenderOptions(period_s=1.096170135368932, voices=3, snr_db=20.0, noise="pink",
                            jitter_ms=2.5848856243685336, split="test", seed=807851905)
    samples, _, truth = render_performance(perf, library, np.random.default_rng(807851905),
                                           options)
    first_s, second_s = first_word_starts_error_s(samples, truth)
    assert abs(first_s) <= 0.005
    assert abs(second_s) <= 0.005


@pytest.mark.parametrize("noise, snr_db, voices, seed", [
    ("pink", 20, 1, 6), ("pink", 10, 2, 1), ("babble", 20, 2, 5)])
def test_word_starts_wait_for_a_band_to_stand_above_the_noise(library, noise, snr_db, voices,
                                                              seed):
    """Noise swelling as a word begins does not pull its start early (p95 target: 20 ms)."""
    samples, truth = render(library, ("01", "04", "37"), voices=voices, snr_db=snr_db,
                            noise=noise, seed=seed)
    words = [e.onset_s for e in detect(samples, SR) if isinstance(e, Word)]
    true_words = [w["onset_s"] for w in truth["words"]]
    assert len(words) == len(true_words)
    assert max(nearest_errors_s(words, true_words)) <= 0.02


def test_group_solo_in_babble_starts_a_word_and_babble_before_it_does_not(library):
    """The referee's case: 3 players, 4 voices, babble at 20 dB heard 1.5 s before the lead."""
    from beattrainer.mzkz.sequence import Mode, compile_performance
    from beattrainer.synth.render import RenderOptions, render_performance

    perf = compile_performance(["05", "17", "40", "24", "48"], Mode.parse("highscore"), None,
                               players=("Anna", "Ben", "Cem"))
    options = RenderOptions(seed=1, jitter_ms=15.0, voices=4, period_s=1.6, snr_db=20.0,
                            noise="babble")
    samples, _, truth = render_performance(perf, library, np.random.default_rng(1), options)
    words = [e for e in detect(samples, SR) if isinstance(e, Word)]
    solos = [w["onset_s"] for w in truth["words"][:2]]
    assert not [w for w in words if w.onset_s < solos[0] - 0.05]   # the babble before the lead
    for solo in solos:
        near = [w for w in words if abs(w.onset_s - solo) <= 0.05]
        assert len(near) == 1
        assert near[0].n_syllables == 4                              # MIEZEKATZE, no tail extras


def test_the_lead_rising_out_of_a_sounding_babble_syllable_starts_a_word(library):
    """Find the solo that rises out of a babble syllable (challenge-9, babble at 30 dB).

    Babble before the lead set the speaker level, and the lead's MIE rose 25 dB out
    of one of its syllables that never dipped: nothing re-armed, and the solo was
    heard 450 ms late, at KAT.
    """
    from beattrainer.mzkz.sequence import Mode, compile_performance
    from beattrainer.synth.render import RenderOptions, render_performance

    perf = compile_performance(["32"], Mode.parse("challenge-9"), 1, players=("Anna", "Ben"))
    options = RenderOptions(period_s=2.275639840613206, voices=3, snr_db=30.0, noise="babble",
                            reverb=True, jitter_ms=8.960499700395344, split="test",
                            seed=982909646)
    samples, _, truth = render_performance(perf, library, np.random.default_rng(982909646),
                                           options)
    words = [e for e in detect(samples, SR) if isinstance(e, Word)]
    solos = [w["onset_s"] for w in truth["words"][:2]]
    for solo in solos:
        assert min(abs(w.onset_s - solo) for w in words) <= 0.05


@pytest.mark.parametrize("cards, mode, number, players, options", [
    # babble filled the whole 250 ms before the lead's first solo
    (["13", "17", "03"], "challenge-9", 3, ("Anna", "Ben"),
     dict(period_s=1.1764133053096193, voices=4, snr_db=20.0, noise="babble",
          jitter_ms=8.978499145335794, split="test", seed=817692966)),
    # a babble syllable, then a dip to silence, right before it
    (["13", "04", "01", "29", "28", "48"], "highscore", None, ("Anna", "Ben", "Cem", "Mei"),
     dict(period_s=1.264002849613386, voices=1, snr_db=10.0, noise="babble",
          jitter_ms=0.5057255831314467, split="test", seed=128857986)),
])
def test_a_word_start_is_not_traced_back_into_the_babble_before_it(library, cards, mode,
                                                                  number, players, options):
    """The lead's first solo came after babble, and its start was traced back into the babble.

    The babble passed the start's level rule but stood clear of its top in no band
    (benchmarks/judge.py --seed 14): the start was found 170-240 ms early and set a wrong
    period.
    """
    from beattrainer.mzkz.sequence import Mode, compile_performance
    from beattrainer.synth.render import RenderOptions, render_performance

    perf = compile_performance(cards, Mode.parse(mode), number, players=players)
    samples, _, truth = render_performance(perf, library,
                                           np.random.default_rng(options["seed"]),
                                           RenderOptions(**options))
    words = [e for e in detect(samples, SR) if isinstance(e, Word)]
    solo_s = truth["words"][0]["onset_s"]
    assert min(abs(w.onset_s - solo_s) for w in words) <= 0.03


def test_babble_at_the_streams_start_starts_no_word_that_hides_the_solos(library):
    """A babble syllable 0.1 s into the stream started a word before the room was heard.

    It ran on over the lead's first solo for 2 s, and the ambient learned nothing of the
    room meanwhile: then it learned the babble at once, its top rose over solo 2's first
    syllable, and solo 2 went unheard (one voice, babble at 10 dB; benchmarks/judge.py
    --seed 110, case 235). Nothing fires in the stream's first 0.3 s.
    """
    from beattrainer.mzkz.sequence import Mode, compile_performance
    from beattrainer.synth.render import RenderOptions, render_performance

    perf = compile_performance(["39", "35", "11", "28"], Mode.parse("highscore"), None,
                               players=("Anna", "Ben"))
    options = dict(period_s=1.142379743093042, voices=1, snr_db=10.0, noise="babble",
                   jitter_ms=18.299105059263145, split="test", seed=815551040)
    samples, _, truth = render_performance(perf, library,
                                           np.random.default_rng(options["seed"]),
                                           RenderOptions(**options))
    words = [e for e in detect(samples, SR) if isinstance(e, Word)]
    assert all(w.onset_s >= 0.3 for w in words)
    for solo in truth["words"][:3]:
        assert min(abs(w.onset_s - solo["onset_s"]) for w in words) <= 0.03


def test_ambient_level_follows_babble_bed_and_top_for_any_split():
    from beattrainer.dsp.features import AmbientLevel

    rng = np.random.default_rng(3)
    levels = rng.normal(0.0, 4.0, 2000)       # babble-like level around 0 dB
    levels[1000:1100] += 30.0                 # a loud word the caller keeps out
    limits = np.where((np.arange(2000) >= 1000) & (np.arange(2000) < 1100), -np.inf, np.inf)

    def run(split):
        ambient, out = AmbientLevel(25, 40, 30.0, 90.0), []
        for start in range(0, 2000, split):
            out += [ambient.push(v, k) for v, k in zip(levels[start:start + split],
                                                       limits[start:start + split])]
        return out

    whole = run(2000)
    assert whole == run(7)
    bed, top = whole[-1]
    assert -4.0 < bed < 0.0               # the chunk averages' 30th percentile
    assert 4.0 < top < 14.0               # where the chunks' peaks reach, not the word
    assert whole[1099][1] < 15.0           # the word kept out did not lift the top


@pytest.mark.parametrize("noise, snr_db, seed, tolerance_s", [
    ("pink", 10, 3, 0.06), ("babble", 20, 2, 0.05)])
def test_noise_just_over_its_top_does_not_glue_onto_a_word(library, noise, snr_db, seed,
                                                           tolerance_s):
    """Noise a little above its own top before a word is silence unless a band stands clear.

    Both renders lost a word start (placed 90-110 ms early) to noise 2-4 dB above the top.
    (In pink noise the start at 15 s is traced back to a level the noise hovers at for
    50 ms before it: 0.1 dB of the background decides between 16 and 52 ms early.)
    """
    samples, truth = render(library, ("01", "04", "37"), snr_db=snr_db, noise=noise, seed=seed)
    words = [e.onset_s for e in detect(samples, SR) if isinstance(e, Word)]
    true_words = [w["onset_s"] for w in truth["words"]]
    assert len(words) == len(true_words)
    assert f_measure(words, true_words, tolerance_s) == 1.0


@pytest.mark.parametrize("snr_db, voices, seed", [(20, 4, 5), (10, 2, 1)])
def test_a_babble_syllable_clear_of_no_band_starts_no_word(library, snr_db, voices, seed):
    """Babble loud enough for the broadband gate, but in no band above its own top."""
    samples, truth = render(library, ("01", "04", "37"), voices=voices, snr_db=snr_db,
                            noise="babble", seed=seed)
    words = [e.onset_s for e in detect(samples, SR) if isinstance(e, Word)]
    true_words = [w["onset_s"] for w in truth["words"]]
    assert len(words) == len(true_words)           # one babble "word" more before
    assert f_measure(words, true_words, 0.05) == 1.0


def test_ambient_band_top_is_per_band_and_leaves_out_what_the_caller_keeps_out():
    from beattrainer.dsp.features import AmbientLevel

    rng = np.random.default_rng(4)
    bands = rng.normal(0.0, 3.0, (2000, 3)) + np.array([0.0, -20.0, -40.0])
    bands[1000:1100, 2] += 50.0               # a /ts/ the caller keeps out
    level = bands.max(axis=1)
    limits = np.where((np.arange(2000) >= 1000) & (np.arange(2000) < 1100), -np.inf, np.inf)
    ambient = AmbientLevel(25, 40, 30.0, 90.0)
    tops = []
    for v, k, b in zip(level, limits, bands):
        ambient.push(v, k, b)
        tops.append(ambient.band_top_db.copy())
    for top in (tops[1099], tops[-1]):
        assert np.all(top > np.array([0.0, -20.0, -40.0]))      # above each band's own level
        assert np.all(top < np.array([12.0, -8.0, -28.0]))      # ... not lifted by the /ts/


def test_percentile_equals_numpys():
    from beattrainer.dsp.features import percentile

    rng = np.random.default_rng(5)
    for n in (1, 2, 7, 40):
        values = rng.normal(0.0, 10.0, (n, 8))
        for q in (0.0, 30.0, 50.0, 90.0, 100.0):
            assert percentile(list(values[:, 0]), q) == np.percentile(values[:, 0], q)
            assert np.array_equal(percentile(list(values), q), np.percentile(values, q, axis=0))
            assert np.array_equal(percentile(values, q), np.percentile(values, q, axis=0))


def test_array_percentile_equals_numpys():
    from beattrainer.dsp.features import array_percentile

    rng = np.random.default_rng(6)
    for n in (1, 2, 3, 10, 11, 126, 401):
        for values in (rng.normal(-40.0, 15.0, n), rng.integers(-5, 5, n).astype(float),
                       np.full(n, -90.0)):
            values.flags.writeable = False  # (the frames' arrays are read-only)
            for q in (0.0, 10.0, 20.0, 37.5, 50.0, 90.0, 100.0, *rng.uniform(0, 100, 5)):
                want = np.percentile(values, q)
                got = array_percentile(values, q)
                assert type(got) is float and np.float64(got).tobytes() == want.tobytes()


def test_float_median_equals_numpys():
    from beattrainer.dsp.features import float_median

    rng = np.random.default_rng(7)
    for n in (1, 2, 3, 4, 5, 8, 9, 126, 127):
        for values in (rng.normal(-40.0, 15.0, n), rng.integers(-3, 3, n).astype(float),
                       rng.normal(0.0, 1.0, n).astype(np.float32)):
            for given in (values, list(values), [float(v) for v in values]):
                want = float(np.median(given))
                got = float_median(given)
                assert type(got) is float
                assert np.float64(got).tobytes() == np.float64(want).tobytes()


def test_the_detectors_shortcuts_equal_numpys():
    """The plain-Python stand-ins for numpy calls on a few values give numpy's results."""
    import itertools

    from beattrainer.dsp.onsets import first_argmin, median_level, median_of_three, middle_of_three

    rng = np.random.default_rng(6)
    for n in range(1, 14):
        values = list(rng.normal(0.0, 10.0, n).round(1))  # (rounded: ties occur)
        assert median_level(values) == float(np.median(values))
        assert first_argmin(values) == int(np.argmin(values))
        rows = rng.normal(0.0, 10.0, (3, 8)).round(0)
        assert np.array_equal(median_of_three(*rows), np.median(rows, axis=0))
    assert median_level([]) == float("-inf")
    for three in itertools.product((-1.5, 0.0, 2.0), repeat=3):  # (every order, ties too)
        assert middle_of_three(*three) == sorted(three)[1]
    for three in rng.normal(0.0, 10.0, (200, 3)).round(0).tolist():
        assert middle_of_three(*three) == sorted(three)[1]


def test_the_analysis_building_blocks_equal_their_plain_forms():
    """Window minima, the moving average and the ambient's chunks: the plain numbers, exactly."""
    from beattrainer.dsp.features import AmbientLevel, MovingAverage, window_minima

    rng = np.random.default_rng(7)
    for n in (1, 2, 5, 21, 36):
        rows = rng.normal(0.0, 10.0, (n, 5))
        for width in range(1, n + 1):
            expected = np.lib.stride_tricks.sliding_window_view(rows, width, axis=0).min(axis=2)
            assert np.array_equal(window_minima(rows, width), expected)

    values = rng.normal(0.0, 10.0, (300, 4))
    history = rng.normal(0.0, 10.0, (7, 4))
    joined = np.concatenate([history, values])
    plain = np.array([sum(joined[t - lag] for lag in range(8)) / 8 for t in range(7, 307)])
    average, out, start = MovingAverage(history), [], 0
    for size in (1, 16, 3, 40, 16, 7, 200, 17):        # (blocks of any size)
        out.append(average.update(values[start:start + size, :1], values[start:start + size, 1:]))
        start += size
    assert np.array_equal(np.concatenate(out), plain)

    levels = rng.normal(0.0, 4.0, 1000)
    bands = rng.normal(0.0, 3.0, (1000, 3))
    limits = rng.choice([np.inf, 2.0, -np.inf], 1000)
    by_hop, by_chunk = AmbientLevel(25, 8, 30.0, 90.0), AmbientLevel(25, 8, 30.0, 90.0)
    for hop in range(1000):
        by_hop.push(levels[hop], limits[hop], bands[hop], limits[hop] + 5.0)
        first = hop - hop % 25
        if hop % 25 == 24:
            by_chunk.add_chunk(levels[first:hop + 1].tolist(), bands[first:hop + 1],
                               limits[hop], limits[hop] + 5.0)
        elif hop < 25:
            by_chunk.follow_first_chunk(levels[:hop + 1].tolist(), bands[:hop + 1])
        assert (by_chunk.bed_db, by_chunk.top_db) == (by_hop.bed_db, by_hop.top_db)
        assert np.array_equal(by_chunk.band_top_db, by_hop.band_top_db)


def test_the_floor_by_stretches_is_the_floor_hop_by_hop():
    """`MinimumFloor.update_segments`, each row repeated for its hops, is `update`, exactly.

    Over the running mean before the first chunk, leading digital silence forgotten, and
    blocks of any size; a row that holds is the same array object from block to block.
    """
    from beattrainer.dsp.features import MinimumFloor

    rng = np.random.default_rng(8)
    levels = np.concatenate([np.full((130, 4), -130.0),               # digital silence
                             rng.normal(-40.0, 3.0, (900, 4))])
    for sizes in ([16], [1], [37, 5, 100], [1000]):
        plain, by_stretch = (MinimumFloor(4, 25, 12, ignore_below_db=-70.0) for _ in range(2))
        start, k = 0, 0
        while start < len(levels):
            block = levels[start:start + sizes[k % len(sizes)]]
            held = by_stretch._done_min  # (the floor as the block begins, once a chunk is done)
            segments = by_stretch.update_segments(block)
            rows = np.array([row for row, n in segments for _ in range(n)])
            assert np.array_equal(rows, plain.update(block))
            assert held is None or segments[0][0] is held
            start, k = start + len(block), k + 1


def test_a_floor_a_chunk_leaves_as_it_was_goes_on_as_one_stretch():
    """A chunk completing without a new minimum keeps the floor's row: one stretch, no new row.

    Most chunks leave every band's minimum as it was; the detector converts a row to power
    once and finds a block under an unchanged row converted already (decision 67).
    """
    from beattrainer.dsp.features import MinimumFloor

    pattern = [[-40.0, -35.0], [-38.0, -30.0], [-42.0, -33.0], [-41.0, -31.0], [-39.0, -36.0]]
    levels = np.tile(pattern, (100, 1))  # (every 25-hop chunk alike)
    tracker = MinimumFloor(2, 25, 12)
    tracker.update_segments(levels[:110])  # (steady noise heard: the floor holds from here)
    held = tracker._done_min
    for start in range(110, 500, 16):  # (blocks in which chunks complete)
        segments = tracker.update_segments(levels[start:start + 16])
        assert len(segments) == 1 and segments[0][0] is held
    assert np.allclose(held, np.mean(pattern, axis=0))


def test_the_floors_power_by_rows_is_the_floors_power_hop_by_hop():
    """The detector's floor parts (`_floor_noise`) and clean levels equal the per-hop forms."""
    from beattrainer.dsp import features
    from beattrainer.dsp.features import MinimumFloor

    rng = np.random.default_rng(9)
    config = OnsetDetector(SR).config
    levels = rng.normal(-45.0, 8.0, (700, 8))
    power = 10.0 ** (rng.normal(-40.0, 10.0, (2, 700, 8)) / 10.0)
    for sizes in ([16], [1], [37, 5, 100], [700]):
        detector, plain = OnsetDetector(SR), MinimumFloor(8, 25, 30, -70.0)
        tracker = detector._floor_tracker
        start, k = 0, 0
        while start < len(levels):
            stop = min(start + sizes[k % len(sizes)], len(levels))
            (subtracted, kept, total), floor_db = detector._floor_noise(
                tracker.update_segments(levels[start:stop]))
            noise, total_noise = features.noise_power(
                np.maximum(plain.update(levels[start:stop]), config.floor_min_db))
            assert np.array_equal(subtracted, config.over_subtraction * noise)
            assert np.array_equal(kept, config.residue * total_noise)
            assert np.array_equal(total, total_noise)
            assert floor_db == features.power_db(total_noise).tolist()
            block_power = power[:, start:stop]
            assert np.array_equal(
                features.clean_level_over_parts_db(block_power, subtracted, kept, total),
                features.clean_level_over_noise_db(block_power, noise, total_noise,
                                                   config.over_subtraction, config.residue))
            start, k = stop, k + 1
    one_row = levels[:1]  # (a floor row for all hops: numpy repeats it, the same numbers)
    noise, total_noise = features.noise_power(one_row)
    assert np.array_equal(
        features.clean_level_over_parts_db(power, 2.0 * noise, 0.1 * total_noise, total_noise),
        features.clean_level_db(power, np.repeat(one_row, 700, axis=0), 2.0, 0.1))


def test_recent_blocks_give_the_rows_recent_rows_give():
    from beattrainer.dsp.onsets import RecentBlocks, RecentRows

    rng = np.random.default_rng(10)
    rows = rng.normal(0.0, 1.0, (600, 5))
    for sizes in ([16], [1], [7, 30, 2], [64]):
        copied, kept = RecentRows(5, 22), RecentBlocks(22)
        start, k = 0, 0
        while start < len(rows):
            stop = min(start + sizes[k % len(sizes)], len(rows))
            copied.add_block(rows[start:stop], start)
            kept.add_block(rows[start:stop], start)
            for hop in range(start, stop):  # (any stretch of the last 22 hops, as asked)
                first = max(0, hop - 21)
                for a in (first, (first + hop) // 2, hop):
                    assert np.array_equal(kept.span(a, hop + 1), copied.span(a, hop + 1))
            start, k = stop, k + 1


def test_a_weak_syllable_under_the_babbles_top_does_not_split_the_word(library):
    """A /ts/ under babble's broadband top stands clear of it in the high bands.

    3 voices in babble at 10 dB: the word stays open (it was split in two).
    """
    samples, truth = render(library, ("01", "04", "37"), voices=3, snr_db=10, noise="babble",
                            seed=2)
    words = [e.onset_s for e in detect(samples, SR) if isinstance(e, Word)]
    true_words = [w["onset_s"] for w in truth["words"]]
    assert len(words) == len(true_words)
    assert f_measure(words, true_words, 0.05) == 1.0


def test_floor_forgets_leading_digital_silence_once_noise_is_steady():
    from beattrainer.dsp.features import MinimumFloor

    chunk, n_bands = 25, 3
    floor = MinimumFloor(n_bands, chunk, n_chunks=30, ignore_below_db=-70.0)
    silence = np.full((4 * chunk, n_bands), -120.0)
    noise = np.full((8 * chunk, n_bands), -30.0) + np.tile([[0.0], [1.0]], (4 * chunk, 1))
    out = floor.update(np.concatenate([silence, noise]))
    assert np.all(out[4 * chunk + 2 * chunk] < -100)      # still the silence
    assert np.all(np.abs(out[-1] + 29.5) < 1.0)             # the noise, long before 30 chunks


def test_floor_keeps_leading_silence_under_speech_like_jumps():
    from beattrainer.dsp.features import MinimumFloor

    chunk = 25
    floor = MinimumFloor(1, chunk, n_chunks=30, ignore_below_db=-70.0)
    levels = [-120.0] * 4 + [-20.0, -40.0, -15.0, -35.0, -18.0, -45.0, -20.0, -38.0]
    out = floor.update(np.repeat(np.asarray(levels)[:, None], chunk, axis=0))
    assert out[-1, 0] < -100


def test_claps_are_percussion_not_syllables(rng):
    times = [0.5, 0.9, 1.3, 1.7, 2.1]
    events = detect(claps(rng, times), SR)
    hits = [e.time_s for e in events if isinstance(e, Onset) and e.kind is OnsetKind.PERCUSSION]
    assert not [e for e in events if isinstance(e, (Word,)) or
                (isinstance(e, Onset) and e.kind is OnsetKind.SYLLABLE)]
    assert len(hits) == len(times)
    assert max(nearest_errors_s(hits, times)) <= 0.02


@pytest.mark.parametrize("noise, snr_db, seed", [("pink", None, 1), ("pink", 20, 2),
                                                 ("babble", 20, 3)])
def test_a_dice_roll_is_percussion_not_a_word(library, noise, snr_db, seed):
    """Card 41: a rattle of clicks whose level sinks between hits but never decays for good."""
    samples, truth = render(library, ("01", "41"), snr_db=snr_db, noise=noise, seed=seed)
    rolls = [p["time_s"] for p in truth["percussion"] if p["kind"] == "dice_roll"]
    assert rolls
    events = detect(samples, SR)
    during_roll = [e for e in events if isinstance(e, Onset)
                   and any(-0.05 < e.time_s - t < 0.5 for t in rolls)]
    assert during_roll
    assert all(e.kind is OnsetKind.PERCUSSION for e in during_roll)


def test_a_dice_roll_falling_into_babble_is_no_voice(library):
    """Babble at 20 dB: once a click has fallen away, babble's own low bands look voiced.

    Three such hops ended the wait for the roll's decay early and made it a word;
    a voice coming in under a burst holds the level up as well.
    """
    from beattrainer.mzkz.sequence import Mode, compile_performance
    from beattrainer.synth.render import RenderOptions, render_performance

    perf = compile_performance(["33", "09", "05", "43", "41"], Mode.parse("highscore"), None,
                               players=("Anna",))
    options = RenderOptions(period_s=2.0005290524436337, voices=1, snr_db=20.0, noise="babble",
                            split="train", seed=615317267)
    samples, _, truth = render_performance(perf, library, np.random.default_rng(615317267),
                                           options)
    rolls = [p["time_s"] for p in truth["percussion"] if p["kind"] == "dice_roll"]
    assert rolls
    words = [e.onset_s for e in detect(samples, SR) if isinstance(e, Word)]
    assert not [w for w in words if any(-0.05 < w - t < 0.5 for t in rolls)]


def assert_claps_heard_as_percussion(samples, claps_s):
    """Every clap is a hit within 20 ms, and no syllable lies within 30 ms of one."""
    events = detect(samples, SR)
    hits = [e.time_s for e in events if isinstance(e, Onset) and e.kind is OnsetKind.PERCUSSION]
    syllables = [e.time_s for e in events
                 if isinstance(e, Onset) and e.kind is OnsetKind.SYLLABLE]
    assert max(nearest_errors_s(hits, claps_s)) <= 0.02
    assert min(nearest_errors_s(syllables, claps_s)) > 0.03


@pytest.mark.parametrize("noise, snr_db", [("pink", 20), ("babble", 30)])
def test_claps_after_the_final_word_are_percussion(library, noise, snr_db):
    """Card 33: three claps follow the final word after a short pause, before it closes."""
    samples, truth = render(library, ("33", "06"), snr_db=snr_db, noise=noise, seed=3)
    claps = [p["time_s"] for p in truth["percussion"] if p["kind"] == "clap"]
    assert claps
    assert_claps_heard_as_percussion(samples, claps)


@pytest.mark.parametrize("noise, snr_db, seed", [("pink", 30, 2), ("babble", 30, 2)])
def test_claps_in_a_reverberant_room_are_percussion(library, noise, snr_db, seed):
    """Card 33's claps with reverb: the tail holds them up, but they still fall away."""
    samples, truth = render(library, ("33", "06"), snr_db=snr_db, noise=noise, seed=seed,
                            reverb=True)
    claps = [p["time_s"] for p in truth["percussion"] if p["kind"] == "clap"]
    assert claps
    events = detect(samples, SR)
    hits = [e.time_s for e in events if isinstance(e, Onset) and e.kind is OnsetKind.PERCUSSION]
    assert max(nearest_errors_s(hits, claps)) <= 0.02


def test_a_snap_on_a_word_start_is_a_hit_and_the_word_stays(library):
    """Card 31: a snap with the word's first syllable gives a hit and the word's start."""
    samples, truth = render(library, ("31", "06"), seed=2)
    snaps = [p["time_s"] for p in truth["percussion"] if p["kind"] == "snap"]
    events = detect(samples, SR)
    hits = [e.time_s for e in events if isinstance(e, Onset) and e.kind is OnsetKind.PERCUSSION]
    words = [e.onset_s for e in events if isinstance(e, Word)]
    assert len(words) == len(truth["words"])
    assert max(nearest_errors_s(words, snaps)) <= 0.05                 # every snap's word
    assert sum(e <= 0.02 for e in nearest_errors_s(hits, snaps)) >= 2  # and most snaps


def test_names_called_after_long_silences_are_words_not_hits(library):
    """Card 13 under challenge 2 (silent MIEZEKATZEs) calls names after long silences.

    There is no speaker level to go by there. Waiting for such a word's peak
    before firing once turned the abrupt start of ANNA + BEN into a percussion
    hit, and the referee lost the word (benchmarks/judge.py --seed 12).
    """
    from beattrainer.mzkz.sequence import Mode, compile_performance
    from beattrainer.synth.render import Mistake, RenderOptions, render_performance

    perf = compile_performance(["19", "13", "23", "48", "17"], Mode.parse("challenge-2"), 5,
                               players=("Anna", "Ben", "Cem", "Mei"))
    options = RenderOptions(mistake=Mistake.parse("tempo_drift@2"), seed=87160646,
                            period_s=2.3, voices=2, jitter_ms=19.7, split="test")
    samples, sr, truth = render_performance(perf, library, np.random.default_rng(87160646),
                                            options)
    names = [w["onset_s"] for w in truth["words"] if w["label"] in ("ANNA", "BEN")]
    events = detect(samples, sr)
    words = [e.onset_s for e in events if isinstance(e, Word)]
    hits = [e.time_s for e in events if isinstance(e, Onset) and e.kind is OnsetKind.PERCUSSION]
    assert len(names) == 3
    assert max(nearest_errors_s(words, names)) <= 0.025
    assert not hits or min(nearest_errors_s(names, hits)) > 0.05


def test_squeaker_is_percussion_and_a_hiss_is_a_syllable(rng):
    t = np.arange(int(0.25 * SR)) / SR
    phase = 2 * np.pi * np.cumsum(np.linspace(1700, 2600, len(t))) / SR
    squeak = (np.sin(phase) + 0.4 * np.sin(2 * phase)) * np.clip(t / 0.008, 0, 1) \
        * np.clip((t[-1] - t) / 0.03, 0, 1)
    hiss = rng.standard_normal(len(t)) * np.clip(t / 0.04, 0, 1) * np.clip((t[-1] - t) / 0.1, 0, 1)
    from scipy.signal import butter, lfilter

    b, a = butter(4, [2500 / 8000, 7000 / 8000], "band")
    hiss = lfilter(b, a, hiss)
    for sound, kind in ((squeak, OnsetKind.PERCUSSION), (hiss, OnsetKind.SYLLABLE)):
        y = 1e-3 * rng.standard_normal(SR * 2)
        y[SR // 2:SR // 2 + len(t)] += 0.3 * sound / np.abs(sound).max()
        onsets = [e for e in detect(y.astype(np.float32), SR) if isinstance(e, Onset)]
        assert [e.kind for e in onsets] == [kind]
        assert abs(onsets[0].time_s - 0.5) <= 0.02


def test_silence_and_faint_hiss_give_nothing(rng):
    assert detect(np.zeros(SR * 2, np.float32), SR) == []
    hiss = (1e-3 * rng.standard_normal(SR * 3)).astype(np.float32)
    assert detect(hiss, SR) == []


def test_onsets_come_before_their_detection_and_latency_is_reported(library):
    samples, _ = render(library, ("01", "04"))
    detector = OnsetDetector(SR)
    events = detector.run([samples])
    onsets = [e for e in events if isinstance(e, Onset)]
    assert onsets and all(e.detected_s >= e.time_s for e in onsets)
    assert 0 < detector.latency_s < 0.05
    # stream time, not wall-clock time: a word's first syllable is known within ~10 ms
    starts = [e for e in onsets if e.starts_word]
    assert np.median([e.detected_s - e.time_s for e in starts]) <= 0.015
    first = [e for e in onsets if e.starts_word]
    assert first and all(isinstance(e.strength, float) for e in first)


def test_json_follows_the_contract(library, rng):
    samples, _ = render(library, ("01", "04"))
    both = np.concatenate([samples, claps(rng, [0.5, 1.0], seconds=1.5)])
    detector = OnsetDetector(SR)
    data = events_json(detector.run([both]), SR, detector.latency_s)
    validate_contract(data, "onsets")
    assert data["words"] and data["percussion"]
    assert all(w["onset_s"] == w["syllable_onsets_s"][0] for w in data["words"])


def test_dsp_imports_without_sounddevice_or_matplotlib():
    code = ("import sys; sys.modules['sounddevice'] = None; sys.modules['matplotlib'] = None\n"
            "import beattrainer.events, beattrainer.dsp.onsets, beattrainer.dsp.features\n"
            "import numpy as np\n"
            "print(beattrainer.dsp.onsets.detect(np.zeros(1600, np.float32), 16000))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_a_kiss_right_after_a_word_is_heard(library):
    # two of the kisses start while the word's last vowel still sounds (no dip
    # re-arms the detector): their abrupt, unvoiced jump is a hit; the third follows
    # a short pause inside what the detector holds for one word and is heard as one
    # more syllable of it
    from beattrainer.mzkz.sequence import Mode, compile_performance
    from beattrainer.synth.render import RenderOptions, render_performance

    perf = compile_performance(["03", "37", "46", "29", "32"], Mode("highscore"),
                               players=("Anna", "Ben", "Cem"))
    options = RenderOptions(period_s=0.9, voices=1, jitter_ms=15.0, seed=2)
    samples, _, truth = render_performance(perf, library, np.random.default_rng(2), options)
    kisses = [w["onset_s"] for w in truth["words"] if w["label"] == "KISS"]
    events = detect(samples, SR)
    hits = [e.time_s for e in events if isinstance(e, Onset) and e.kind is OnsetKind.PERCUSSION]
    heard = [e.time_s for e in events if isinstance(e, Onset)]
    assert len(kisses) == 3
    assert max(nearest_errors_s(heard, kisses)) <= 0.01
    assert max(nearest_errors_s(hits, kisses[:2])) <= 0.01


def test_a_word_starting_on_an_open_vowel_is_a_syllable(library, rng):
    # AAAH and ANNA put almost nothing below 600 Hz at their start, and a low voice's
    # /a/ can hold one strong harmonic near 1 kHz: neither makes it a hit or a squeak
    for clip_id in ("c0018", "c0030", "c0485"):  # de-m1 AAAH and ANNA, en-andy ANNA
        clip = library.get(clip_id)
        y = 1e-3 * rng.standard_normal(SR * 2)
        audio = library.audio(clip)
        y[SR // 2:SR // 2 + len(audio)] += audio
        onsets = [e for e in detect(y.astype(np.float32), SR) if isinstance(e, Onset)]
        assert onsets[0].kind is OnsetKind.SYLLABLE and onsets[0].starts_word
        syllables = [e.time_s - 0.5 for e in onsets if e.kind is OnsetKind.SYLLABLE]
        # (30 ms: a stream's very first onset has no speaker level to backtrack to yet)
        assert max(nearest_errors_s(syllables, clip.syllable_onsets_s)) <= 0.03


def test_rise_low_share_judges_what_came_in():
    from beattrainer.dsp.features import rise_low_share

    vowel = np.array([4.0, 4.0, 1.0, 1.0])
    clap = np.array([0.0, 0.0, 5.0, 5.0])
    assert rise_low_share(vowel + clap, vowel, 2) == 0.0   # a clap on a vowel: unvoiced
    assert rise_low_share(vowel + clap, clap, 2) == pytest.approx(0.8)  # a vowel under a burst
    assert rise_low_share(vowel, vowel, 2) == 0.0           # nothing rose


def test_strongest_line_finds_a_tone_and_its_frequency():
    from beattrainer.dsp.features import band_bin_edges, power_spectrum, strongest_line

    frame = 128
    t = np.arange(frame) / SR
    noise = np.random.default_rng(1).standard_normal(frame)
    frames = np.stack([np.sin(2 * np.pi * 2000 * t), noise])
    power = power_spectrum(frames, np.hanning(frame))
    share, bins = strongest_line(power, band_bin_edges(SR, frame))
    assert share[0] > 0.8 > 0.3 > share[1]
    assert bins[0] * SR / frame == pytest.approx(2000, abs=SR / frame)


def test_strongest_lines_are_the_strongest_line_of_each_range():
    from beattrainer.dsp.features import band_bin_edges, strongest_line, strongest_lines

    power = np.random.default_rng(2).random((16, 129)) ** 4  # (a few bins stand out)
    edges = band_bin_edges(SR, 256)
    split = int(edges[len(edges) // 2])
    (share, bins), (high_share, high_bins) = strongest_lines(power, edges, split)
    expected_share, expected_bins = strongest_line(power, edges)
    expected_high_share, expected_high_bins = strongest_line(
        power, np.asarray([split, edges[-1]]))
    assert np.allclose(share, expected_share) and np.array_equal(bins, expected_bins)
    assert np.allclose(high_share, expected_high_share)
    assert np.array_equal(high_bins, expected_high_bins) and np.all(high_bins >= split)


def test_an_open_vowel_word_start_is_reported_without_the_percussion_wait(library, rng):
    # ANNA's /a/ puts its first formant near 1 kHz: judged by the share of the rise
    # below 600 Hz it looked unvoiced, waited decay_wait_s as a possible hit (and two
    # of these were reported as hits); it is a syllable at once
    detector_hop = OnsetDetector(SR).hop_samples
    speaker = library.query(label="MIEZEKATZE", voice="de-m1", modifier=None)[:2]
    for clip_id in ("c0030", "c0031", "c0073", "c0236"):  # ANNA: de-m1, de-m3, de-grandpa
        clip = library.get(clip_id)
        y = 1e-3 * rng.standard_normal(SR * 4)
        for start_s, lead in zip((0.5, 1.3), speaker):  # the speaker level first
            audio = library.audio(lead)
            y[int(start_s * SR):int(start_s * SR) + len(audio)] += audio
        audio = library.audio(clip)
        y[int(2.4 * SR):int(2.4 * SR) + len(audio)] += audio
        truth_s = 2.4 + clip.onset_s
        onsets = [e for e in detect(y.astype(np.float32), SR)
                  if isinstance(e, Onset) and e.time_s > 2.3]
        first = min(onsets, key=lambda e: abs(e.time_s - truth_s))
        assert first.kind is OnsetKind.SYLLABLE and first.starts_word
        assert abs(first.time_s - truth_s) <= 0.01
        # reported within 10 hops of the word's start (stream time, counted in samples)
        assert round((first.detected_s - truth_s) * SR) <= 10 * detector_hop


def test_words_in_babble_are_reported_once_the_fast_level_clears_the_gate(library):
    # the slow level (22 ms of power) trails a rising word by a few hops; in babble the
    # foreground gate held most words of this render 6 hops (12 ms) after their start
    from beattrainer.mzkz.sequence import Mode, compile_performance
    from beattrainer.synth.render import RenderOptions, render_performance

    perf = compile_performance(["03", "37", "46"], Mode("highscore"),
                               players=("Anna", "Ben", "Cem"))
    options = RenderOptions(period_s=1.2, voices=2, snr_db=20.0, noise="babble",
                            split="train", seed=2)
    samples, _, truth = render_performance(perf, library, np.random.default_rng(2), options)
    detector = OnsetDetector(SR)
    events = detector.run([samples])
    starts = [e for e in events if isinstance(e, Onset) and e.starts_word]
    delays_hops = []
    for word in truth["words"]:
        start = min(starts, key=lambda e: abs(e.time_s - word["onset_s"]))
        assert abs(start.time_s - word["onset_s"]) <= 0.025
        delay_samples = round((start.detected_s - word["onset_s"]) * SR)
        delays_hops.append(delay_samples / detector.hop_samples)
    assert len(delays_hops) == 12
    assert sum(d >= 6 for d in delays_hops) <= len(delays_hops) / 2  # not most of them


def render_in_a_room(library, cards, voices, period_s, seed, reverb=True):
    """A performance with each voice's syllables in time, as the benchmark renders it."""
    from beattrainer.mzkz.sequence import Mode, compile_performance
    from beattrainer.synth.render import RenderOptions, render_performance

    perf = compile_performance(cards, Mode("highscore"),
                               players=("Anna", "Ben", "Cem", "Dora")[:voices])
    options = RenderOptions(period_s=period_s, voices=voices, snr_db=None, noise="pink",
                            reverb=reverb, jitter_ms=20.0, split="train", seed=seed,
                            syllables_in_time=True)
    samples, _, truth = render_performance(perf, library, np.random.default_rng(seed), options)
    return samples, truth


def test_a_kat_in_a_rooms_tail_is_heard_at_its_burst(library):
    """MIEZEKATZE in a room (RT60 0.38 s): the tail of ZE fills the closure before KAT.

    The level dipped only 6-9 dB (under `dip_db`), and the vowel after the /k/'s
    aspiration rises 60 ms after the burst: 5 of 11 KATs went unheard. Once the
    words' tails tell the room, the burst rising in a band above the voice counts.
    """
    samples, truth = render_in_a_room(library, ["24", "05", "07", "45"], 1, 2.080205162437799,
                                      43347656)
    detector = OnsetDetector(SR)
    events = detector.run([samples])
    assert detector.reverberant()
    syllables = [e.time_s for e in events
                 if isinstance(e, Onset) and e.kind is OnsetKind.SYLLABLE]
    kats = [w["syllable_onsets_s"][2] for w in truth["words"] if w["label"] == "MIEZEKATZE"]
    assert len(kats) == 11
    # (the first word ends before the room is known)
    assert max(nearest_errors_s(syllables, kats[1:])) <= 0.05
    assert feed_in_blocks(samples, [7, 300, 4093]) == events


def test_a_dry_performance_is_not_taken_for_a_room(library):
    samples, _ = render_in_a_room(library, ["24", "05", "07", "45"], 1, 2.080205162437799,
                                  43347656, reverb=False)
    detector = OnsetDetector(SR)
    detector.run([samples])
    assert not detector.reverberant()


def test_claps_on_a_yeah_in_a_room_are_percussion(library):
    """Card 05's three claps after YEAH, in a room (RT60 0.4 s).

    The tail held a clap up: it fell less than `percussion_decay_db` within
    `decay_wait_s`, and one of the three was heard as a syllable. Once the
    words' tails tell the room, a smaller fall is enough.
    """
    samples, truth = render_in_a_room(library, ["01", "05"], 1, 1.6, 2)
    claps = [p["time_s"] for p in truth["percussion"] if p["kind"] == "clap"]
    assert len(claps) == 3
    assert_claps_heard_as_percussion(samples, claps)


def test_yeah_in_a_room_stays_one_syllable(library):
    """YEAH in a room stays one syllable.

    Its vowel moves from /e/ to /a/: one band above the voice rises while the
    high part as a whole falls. Taken for a consonant's burst, it split the word.
    """
    samples, truth = render_in_a_room(library, ["01", "04"], 2, 1.6, 5)
    events = detect(samples, SR)
    syllables = [e.time_s for e in events
                 if isinstance(e, Onset) and e.kind is OnsetKind.SYLLABLE]
    for word in truth["words"]:
        if word["label"] == "YEAH":
            # (the split came 0.14 s in; the last word's reverberant tail ends later)
            inside = [t for t in syllables if abs(t - word["onset_s"] - 0.1) <= 0.15]
            assert len(inside) == 1, word


def test_a_ze_in_a_rooms_tail_is_placed_at_its_burst_not_its_vowel(library):
    """ZE in a room is placed at its /ts/, not at its vowel.

    MIEZEKATZE in a room (RT60 about 0.4 s, pink noise at 30 dB): ZE's /ts/ rises
    out of KAT's tail 40-60 ms before its vowel lifts the level. The dip before the
    vowel re-armed, so the vowel fired the syllable and placed it 52 ms late; the
    burst rule waited `min_ioi_s` from KAT's firing (itself 40 ms after KAT began),
    and the /ts/ rose only 8 dB within 20 ms. The burst before the vowel now places
    the syllable (and KAT's, where the rise of its vowel placed it 40 ms late).
    """
    samples, truth = render_case(
        library, ["03", "24", "19", "41", "39"], ("Anna",), period_s=1.9836606404110078,
        voices=1, snr_db=30.0, noise="pink", reverb=True, jitter_ms=0.0, spread_ms=15.0,
        split="train", seed=582443224, syllables_in_time=True)
    detector = OnsetDetector(SR)
    events = detector.run([samples])
    assert detector.reverberant()
    syllables = [e.time_s for e in events
                 if isinstance(e, Onset) and e.kind is OnsetKind.SYLLABLE]
    words = [w for w in truth["words"] if w["label"] == "MIEZEKATZE"]
    assert len(words) == 11
    # (the first words' tails tell the room)
    kats = [w["syllable_onsets_s"][2] for w in words[3:]]
    zes = [w["syllable_onsets_s"][3] for w in words[3:]]
    assert max(nearest_errors_s(syllables, zes)) <= 0.05
    assert np.median(nearest_errors_s(syllables, kats)) <= 0.025
    assert feed_in_blocks(samples, [7, 300, 4093]) == events


def test_rising_band_start_finds_where_the_band_above_the_voice_rose():
    quiet, loud = -20.0, 0.0
    bands = [np.array([10.0, 10.0, quiet, quiet]) for _ in range(6)]
    bands += [np.array([9.0, 9.0, quiet + 4.0 * k, quiet]) for k in range(1, 6)]
    assert bands[-1][2] == loud
    assert rising_band_start(bands, None, 2, 10.0, 6.0) == 5      # left its low point
    assert rising_band_start(bands, None, 0, 30.0, 6.0) is None   # never rose that far
    top = np.full(4, -3.0)  # the ambient's own top: the band ends only 3 dB over it
    assert rising_band_start(bands, top, 2, 10.0, 6.0) is None


def render_case(library, cards, players, **options):
    """A seeded highscore performance like the onset benchmark's (its options by name)."""
    from beattrainer.mzkz.sequence import Mode, compile_performance
    from beattrainer.synth.render import RenderOptions, render_performance

    perf = compile_performance(cards, Mode("highscore"), players=players)
    options = RenderOptions(**options)
    samples, _, truth = render_performance(perf, library, np.random.default_rng(options.seed),
                                           options)
    return samples, truth


def test_the_lead_rising_through_a_babble_word_is_compared_with_what_came_before(library):
    """Find the first solo that rose out of babble glued into a "word" (babble at 20 dB).

    The babble before the lead had started a word of its own; the lead's MIE re-armed
    rising through it, but its rise had lifted the word's running peak on the way up,
    so it did not stand `word_over_word_db` above the "word" and was glued onto it
    (benchmarks/onsets.py --dev --seed 102, performance 39).
    """
    samples, truth = render_case(
        library, ["27", "04"], ("Anna", "Ben"), period_s=2.512734413480704, voices=2,
        snr_db=20.0, noise="babble", split="train", seed=524620534)
    words = [e.onset_s for e in detect(samples, SR) if isinstance(e, Word)]
    first_solo_s = truth["words"][0]["onset_s"]
    assert min(abs(w - first_solo_s) for w in words) <= 0.05


def test_words_after_a_long_pause_in_babble_are_heard(library):
    """After a free-timing silence longer than the speaker level's memory, the level stays.

    With no level the ambient learned from the group's own words, the first word's gate
    rose with them and 8 of 12 words went unheard (babble at 10 dB; so in judge seed 51).
    """
    samples, truth = render(library, ("01", "04", "41", "09", "07"), snr_db=10,
                            noise="babble", seed=3)
    _, word_f, _, heard, true_words = scores(samples, truth)
    assert word_f >= 0.9, (heard, true_words)


@pytest.mark.parametrize("cards, performance, players, period_s, jitter_ms, seed, n_words", [
    (["31", "45", "39", "37"], 4, ("Anna", "Ben"), 1.2435579345024765, 16.927883999053684,
     191739784, 4),
    (["29", "22", "39", "03", "17", "42"], 6, ("Anna", "Ben", "Cem"), 1.81888535196163,
     7.133700742467301, 1004682607, 2)])
def test_words_after_a_lull_in_babble_are_not_gated_as_babble(library, cards, performance,
                                                             players, period_s, jitter_ms,
                                                             seed, n_words):
    """Babble at 10 dB falls quiet for 150 ms just before the lead's first solo.

    Judge seeds 65 and 64 (record 76 each): the floor (quietest chunk of 1.5 s)
    sank 8-12 dB with the lull, so the level above it of solo 1 and of the babble
    after it read that much higher; the ambient top learned those readings and kept
    them for 2 s after the floor came back up: solo 2 (as loud as solo 1) and the
    group's first words stayed under the top + 6 dB gate, nothing fired for 2-7 s.
    The ambient is now kept in absolute dB and follows the floor back at once.
    """
    from beattrainer.mzkz.sequence import Mode, compile_performance
    from beattrainer.synth.render import RenderOptions, render_performance

    perf = compile_performance(cards, Mode.parse("highscore"), None, players=players)
    options = RenderOptions(period_s=period_s, voices=3, snr_db=10.0, noise="babble",
                            jitter_ms=jitter_ms, split="test", percussion=True, seed=seed)
    samples, _, truth = render_performance(perf, library, np.random.default_rng(seed),
                                           options)
    words = [e.onset_s for e in detect(samples, SR) if isinstance(e, Word)]
    true_words = [w["onset_s"] for w in truth["words"][:n_words]]
    assert max(nearest_errors_s(words, true_words)) <= 0.05


def test_squeaks_before_the_first_word_are_all_heard(library):
    """Challenge 2 opens with squeak cards: three series of squeaks before any word.

    Before the speakers are heard, every chunk of the room told the ambient level,
    so the first series lifted the bands' top to its own level and the squeaks
    after it stood clear of nothing: unheard (judge --seed 86, pink noise at 10 dB).
    """
    from beattrainer.mzkz.sequence import Mode, compile_performance
    from beattrainer.synth.render import RenderOptions, render_performance

    perf = compile_performance(["22"], Mode.parse("challenge-2"), 1,
                               players=("Anna", "Ben", "Cem"))
    options = RenderOptions(period_s=0.983318857667526, voices=3, snr_db=10.0, noise="pink",
                            jitter_ms=10.695505443739862, split="test", seed=449060482)
    samples, _, truth = render_performance(perf, library, np.random.default_rng(449060482),
                                           options)
    squeaks = [p["time_s"] for p in truth["percussion"] if p["kind"] == "squeak"]
    assert len(squeaks) >= 6
    hits_s = [e.time_s for e in detect(samples, SR)
              if isinstance(e, Onset) and e.kind is OnsetKind.PERCUSSION]
    assert max(nearest_errors_s(hits_s, squeaks)) <= 0.02


def test_a_squeak_under_a_word_s_tail_is_a_hit(library):
    """A squeak said while the word before it still sounds is percussion, not a syllable.

    The MIAU's vowel under it held a third of the power, so the squeak's line held 68% of
    it, under the 70% a squeak needs, and the squeak was reported as the word's syllable
    (judge --seed 90, a free-timing squeak card 285 ms early). Above the voice's own range
    the squeak's line holds most.
    """
    from beattrainer.mzkz.sequence import Mode, compile_performance
    from beattrainer.synth.render import Mistake, RenderOptions, render_performance

    perf = compile_performance(["36", "23", "07", "22", "33", "08"], Mode.parse("highscore"),
                               6, players=("Anna", "Ben", "Cem"))
    options = RenderOptions(period_s=1.141546419573523, voices=4, snr_db=30.0, noise="babble",
                            jitter_ms=16.196261503260992, split="test", seed=828573107,
                            mistake=Mistake.parse("off_beat@5"))
    samples, _, truth = render_performance(perf, library, np.random.default_rng(828573107),
                                           options)
    slot = truth["slots"][5]
    first_squeak_s = min(p["time_s"] for p in slot["percussion"])
    word_before = next(w for w in truth["words"] if w["slot"] == 4)
    assert word_before["onset_s"] < first_squeak_s < word_before["end_s"]  # under its tail
    events = detect(samples, SR)
    hits_s = [e.time_s for e in events if isinstance(e, Onset) and e.kind is OnsetKind.PERCUSSION]
    assert min(abs(t - first_squeak_s) for t in hits_s) <= 0.02
    # ... and the word's own syllables stay syllables
    syllables_s = [e.time_s for e in events
                   if isinstance(e, Onset) and e.kind is OnsetKind.SYLLABLE]
    assert all(min(abs(t - s) for t in syllables_s) <= 0.05
               for s in word_before["syllable_onsets_s"][:1])


def test_a_word_rising_while_the_gate_sinks_starts_a_word(library):
    """The group's word rising out of babble that never dipped is a word start.

    A babble syllable under the foreground gate still sounded when the group's first word
    rose 10 dB within 20 ms. Just under the gate, the gate sank 1 dB below the word's running
    peak (the room's level moved), so the word never crossed it and went unheard: the next
    word start came 290 ms later, and a clean performance failed as "383 ms late" (judge
    --seed 94, case 031, babble at 10 dB).
    """
    from beattrainer.mzkz.sequence import Mode, compile_performance
    from beattrainer.synth.render import RenderOptions, render_performance

    perf = compile_performance(["36", "29", "35"], Mode.parse("highscore"), None,
                               players=("Anna", "Ben", "Cem", "Mei"))
    options = RenderOptions(period_s=1.2140862148243259, voices=3, snr_db=10.0,
                            noise="babble", jitter_ms=11.063947520816669, split="test",
                            seed=908784160)
    samples, _, truth = render_performance(perf, library, np.random.default_rng(908784160),
                                           options)
    group_first_s = truth["slots"][2]["word_onset_s"]
    starts_s = [e.time_s for e in detect(samples, SR)
                if isinstance(e, Onset) and e.starts_word]
    assert min(abs(t - group_first_s) for t in starts_s) <= 0.02


def test_a_quiet_word_in_a_quiet_room_starts_a_word(library):
    """A quiet word far over the room's top is heard, though no band stands over the band tops.

    In a clean room with reverb the ambient's band tops kept the loud words' tails (the
    broadband top is held near the bed, the band tops are not); a quiet MIEZEKATZE (-13 dB)
    after a pause stood 35 dB over the broadband top but in no band over its top, was taken
    for babble and heard only at its third syllable, 0.86 s late (judge --seed 90, case 145).
    """
    from beattrainer.mzkz.sequence import Mode, compile_performance
    from beattrainer.synth.render import RenderOptions, render_performance

    perf = compile_performance(["34", "17", "36", "43", "05", "10", "01", "08"],
                               Mode.parse("challenge-4"), 8, players=("Anna", "Ben"))
    options = RenderOptions(period_s=1.851537767151666, voices=4, snr_db=None, noise="pink",
                            reverb=True, jitter_ms=15.287376126732994, split="test",
                            seed=446702366)
    samples, _, truth = render_performance(perf, library, np.random.default_rng(446702366),
                                           options)
    quiet = truth["slots"][9]
    assert quiet["expected"]["modifier"] == "quiet"
    starts_s = [e.time_s for e in detect(samples, SR)
                if isinstance(e, Onset) and e.starts_word]
    assert min(abs(t - quiet["word_onset_s"]) for t in starts_s) <= 0.02


def test_a_word_after_a_dice_roll_and_a_close_word_starts_a_word(library):
    """A dice roll's hits do not teach the speaker level: a word 0.11 s after a tail starts a word.

    A dice roll in a silent slot fired ten hits (decision 54 let those far over the room's
    top fire); their peaks, 20-30 dB under the words, taught the speaker level as syllables'
    would and sank it by 18 dB, and with it the silence threshold. A WUIKKIWUIKKI's tail then
    no longer counted as silence, and the early SHH right after it was taken for a fifth
    syllable of the word (judge --seed 94, case 113).
    """
    from beattrainer.mzkz.sequence import Mode, compile_performance
    from beattrainer.synth.render import Mistake, RenderOptions, render_performance

    perf = compile_performance(["38", "15", "03", "41"], Mode.parse("highscore"),
                               players=("Anna", "Ben", "Cem", "Mei"))
    options = RenderOptions(period_s=1.254527248394449, voices=2, snr_db=None, noise="pink",
                            jitter_ms=2.0759153081205506, split="test",
                            mistake=Mistake("off_beat", 11), seed=238651439)
    samples, _, truth = render_performance(perf, library, np.random.default_rng(238651439),
                                           options)
    shh = truth["slots"][11]
    assert shh["placed"]["label"] == "SHH" and truth["mistake"]["kind"] == "off_beat"
    starts_s = [e.time_s for e in detect(samples, SR)
                if isinstance(e, Onset) and e.starts_word]
    assert min(abs(t - shh["word_onset_s"]) for t in starts_s) <= 0.02
