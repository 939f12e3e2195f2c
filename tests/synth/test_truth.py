import numpy as np
import pytest

from beattrainer.synth.truth import (
    ENERGY_WINDOW_S,
    short_time_energy,
    syllable_onsets_s,
    true_onset_s,
)

SR = 16000


def tone_burst(start_s, length_s, total_s, freq_hz=220.0, level=0.3):
    """Silence with one vowel-like burst (harmonic tone with a 10 ms attack) at start_s."""
    x = np.zeros(int(total_s * SR))
    n = int(length_s * SR)
    t = np.arange(n) / SR
    burst = level * (np.sin(2 * np.pi * freq_hz * t) + 0.3 * np.sin(4 * np.pi * freq_hz * t))
    burst *= np.clip(t / 0.01, 0, 1) * np.clip((t[-1] - t) / 0.02, 0, 1)
    start = int(start_s * SR)
    x[start:start + n] += burst
    return x


def test_energy_of_a_constant_is_its_square():
    x = np.full(1000, 0.5)
    assert short_time_energy(x, SR)[500] == pytest.approx(0.25)


def test_onset_of_a_step_lies_within_half_a_window_before_it():
    x = np.zeros(SR)
    x[8000:] = 0.4
    onset = true_onset_s(x, SR)
    assert 0.5 - ENERGY_WINDOW_S / 2 <= onset <= 0.5


@pytest.mark.parametrize("start_s", [0.05, 0.3123, 0.7])
def test_onset_of_a_burst_is_where_it_starts(start_s):
    x = tone_burst(start_s, 0.2, 1.2)
    assert true_onset_s(x, SR) == pytest.approx(start_s, abs=0.004)


def test_onset_ignores_a_sound_quieter_than_30_db_below_the_peak():
    x = tone_burst(0.4, 0.2, 1.0) + tone_burst(0.1, 0.1, 1.0, level=0.3 * 10 ** (-40 / 20))
    assert true_onset_s(x, SR) == pytest.approx(0.4, abs=0.004)


def test_silence_has_no_onset():
    assert true_onset_s(np.zeros(SR), SR) is None
    assert syllable_onsets_s(np.zeros(SR), SR) == []


def test_four_bursts_with_dips_give_four_syllables_at_their_starts():
    starts = [0.05, 0.3, 0.52, 0.81]
    x = sum(tone_burst(s, 0.18, 1.2, freq_hz=150 + 20 * k) for k, s in enumerate(starts))
    onsets = syllable_onsets_s(x, SR)
    assert len(onsets) == 4
    assert np.allclose(onsets, starts, atol=0.004)


def test_a_weak_release_burst_is_not_a_syllable():
    x = tone_burst(0.05, 0.3, 1.0) + tone_burst(0.45, 0.05, 1.0, level=0.3 * 0.05)
    assert len(syllable_onsets_s(x, SR)) == 1
