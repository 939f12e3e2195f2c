"""The causal onset detector: block-size invariance, rendered truth, percussion, contract."""
import subprocess
import sys

import numpy as np
import pytest

from beattrainer.dsp.onsets import OnsetDetector, detect, events_json
from beattrainer.events import Onset, OnsetKind, Word
from tests.conftest import validate_contract

SR = 16000


@pytest.fixture(scope="module")
def library():
    from beattrainer.synth.clips import ClipLibrary

    return ClipLibrary.load()


def render(library, cards, voices=1, snr_db=None, noise="pink", period_s=1.5, seed=5):
    from beattrainer.mzkz.sequence import Mode, compile_performance
    from beattrainer.synth.render import RenderOptions, render_performance

    perf = compile_performance(cards, Mode("highscore"), players=("Anna", "Ben", "Cem")[:voices])
    options = RenderOptions(period_s=period_s, voices=voices, snr_db=snr_db, noise=noise,
                            seed=seed)
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


def test_any_block_split_gives_identical_events(library):
    samples, _ = render(library, ("01", "48", "37"), voices=2, snr_db=20, noise="babble")
    whole = detect(samples, SR)
    assert any(isinstance(e, Word) for e in whole)
    for sizes in ([512], [1], [7, 300, 4093], [33, 1, 2048]):
        if sizes == [1]:
            part = feed_in_blocks(samples[: SR * 2], sizes)
            assert part == detect(samples[: SR * 2], SR)
        else:
            assert feed_in_blocks(samples, sizes) == whole


def test_clean_performance_words_match_truth(library):
    samples, truth = render(library, ("01", "04", "11", "37"))
    events = detect(samples, SR)
    words = [e.onset_s for e in events if isinstance(e, Word)]
    true_words = [w["onset_s"] for w in truth["words"]]
    errors = nearest_errors_s(words, true_words)
    assert max(errors) <= 0.05
    assert np.median(errors) <= 0.01
    assert len(words) == len(true_words)


def test_miezekatze_has_four_syllables_when_clean(library):
    samples, truth = render(library, ("01", "02"))
    words = [e for e in detect(samples, SR) if isinstance(e, Word)]
    counts = [w.n_syllables for w in words]
    assert len(words) == len(truth["words"])
    assert counts.count(4) >= len(counts) - 1
    true_syllables = [s for w in truth["words"] for s in w["syllable_onsets_s"]]
    ours = [s for w in words for s in w.syllable_onsets_s]
    assert np.median(nearest_errors_s(ours, true_syllables)) <= 0.02


def test_noisy_performance_still_finds_most_words(library):
    samples, truth = render(library, ("01", "04", "11", "37"), voices=2, snr_db=20)
    words = [e.onset_s for e in detect(samples, SR) if isinstance(e, Word)]
    errors = nearest_errors_s(words, [w["onset_s"] for w in truth["words"]])
    assert np.mean(np.asarray(errors) <= 0.05) >= 0.85


def test_claps_are_percussion_not_syllables(rng):
    times = [0.5, 0.9, 1.3, 1.7, 2.1]
    events = detect(claps(rng, times), SR)
    hits = [e.time_s for e in events if isinstance(e, Onset) and e.kind is OnsetKind.PERCUSSION]
    assert not [e for e in events if isinstance(e, (Word,)) or
                (isinstance(e, Onset) and e.kind is OnsetKind.SYLLABLE)]
    assert len(hits) == len(times)
    assert max(nearest_errors_s(hits, times)) <= 0.02


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
