"""Calibration maths on synthetic signals: levels, loopback latency, speak-along offset."""
import numpy as np
import pytest

from beattrainer import calibrate as cal
from beattrainer.audio import read_audio
from beattrainer.synth.clips import ClipLibrary
from beattrainer.ui.sounds import feedback_dir

SR = 16000


@pytest.fixture(scope="module")
def click():
    """The click exactly as the player plays it."""
    samples, _ = read_audio(feedback_dir() / "click.ogg", sr=SR)
    return samples


@pytest.fixture(scope="module")
def library():
    return ClipLibrary.load()


def delayed(signal: np.ndarray, delay_s: float, length: int) -> np.ndarray:
    """`signal` starting `delay_s` (any fraction of a sample) into a buffer of `length`."""
    n_fft = 1 << int(np.ceil(np.log2(length + len(signal))))
    freqs = np.fft.rfftfreq(n_fft, 1 / SR)
    spectrum = np.fft.rfft(signal, n_fft) * np.exp(-2j * np.pi * freqs * delay_s)
    return np.fft.irfft(spectrum, n_fft)[:length]


def noise_at(rng, dbfs: float, n: int) -> np.ndarray:
    return rng.standard_normal(n) * 10 ** (dbfs / 20)


# ----------------------------------------------------------------- levels

def test_noise_floor_of_white_noise(rng):
    x = noise_at(rng, -55.0, 4 * SR)
    assert cal.noise_floor_dbfs(x, SR) == pytest.approx(-55.0, abs=0.5)


def test_noise_floor_ignores_a_short_loud_sound(rng):
    x = noise_at(rng, -60.0, 4 * SR)
    x[SR:SR + SR // 2] += noise_at(rng, -20.0, SR // 2)   # a cough, an eighth of the stretch
    assert cal.noise_floor_dbfs(x, SR) == pytest.approx(-60.0, abs=1.0)


def test_noise_floor_of_digital_silence_is_the_bottom():
    assert cal.noise_floor_dbfs(np.zeros(SR), SR) == cal.SILENCE_DBFS
    assert cal.noise_floor_dbfs(np.zeros(10), SR) is None


def test_speaking_level_is_the_level_of_the_active_part(rng):
    x = noise_at(rng, -60.0, 4 * SR)
    t = np.arange(SR // 2) / SR
    burst = np.sin(2 * np.pi * 220 * t) * np.sqrt(2) * 10 ** (-24 / 20)   # rms -24 dBFS
    for start in (0.3, 1.3, 2.3, 3.3):
        i = int(start * SR)
        x[i:i + len(burst)] += burst
    floor = cal.noise_floor_dbfs(x, SR)
    assert cal.speaking_level_dbfs(x, SR, floor) == pytest.approx(-24.0, abs=1.0)


def test_no_speaking_level_without_speech(rng):
    x = noise_at(rng, -50.0, 3 * SR)
    assert cal.speaking_level_dbfs(x, SR, cal.noise_floor_dbfs(x, SR)) is None


def test_spoken_clips_level_follows_their_gain(rng, library):
    clip = library.query(label="MIEZEKATZE", modifier=None, split="train")[0]
    levels = []
    for gain_db in (-6.0, -18.0):
        x = noise_at(rng, -65.0, 3 * SR)
        audio = library.audio(clip) * 10 ** (gain_db / 20)
        x[SR:SR + len(audio)] += audio
        levels.append(cal.speaking_level_dbfs(x, SR, cal.noise_floor_dbfs(x[:SR // 2], SR)))
    assert levels[0] - levels[1] == pytest.approx(12.0, abs=1.0)


# ----------------------------------------------------------------- loopback latency

def loopback_recording(click, rng, latency_s, played_s, *, snr_db=20.0, echo=(0.006, 0.5),
                       glitch=None, missing=None, length_s=5.0):
    """What the microphone hears: every click delayed, with an echo and room noise."""
    n = int(length_s * SR)
    x = np.zeros(n)
    for k, t in enumerate(played_s):
        if k == missing:
            continue
        t_heard = t + latency_s + (0.008 if k == glitch else 0.0) + rng.normal(0, 0.0001)
        x += 0.3 * delayed(click, t_heard, n)
        x += 0.3 * echo[1] * delayed(click, t_heard + echo[0], n)
    click_rms = 0.3 * np.sqrt(np.mean(click ** 2))
    return x + noise_at(rng, 20 * np.log10(click_rms) - snr_db, n)


def played_times():
    return 0.4 + np.concatenate([[0.0], np.cumsum(cal.LOOPBACK_GAPS_S)])


@pytest.mark.parametrize("latency_s", [0.0123, 0.0873, 0.2417])
def test_loopback_latency_within_a_millisecond(click, rng, latency_s):
    played = played_times()
    x = loopback_recording(click, rng, latency_s, played)
    heard = cal.locate_clicks(x, SR, click, played)
    estimate = cal.loopback_latency(played, heard)
    assert estimate is not None
    assert abs(estimate.value_s - latency_s) < 0.001
    assert estimate.n_used == len(played) and estimate.spread_s < 0.001


def test_loopback_rejects_a_glitched_click_and_a_missing_one(click, rng):
    played = played_times()
    x = loopback_recording(click, rng, 0.1031, played, glitch=3, missing=6)
    heard = cal.locate_clicks(x, SR, click, played)
    assert np.isnan(heard[6]) and np.isfinite(heard[3])
    estimate = cal.loopback_latency(played, heard)
    assert abs(estimate.value_s - 0.1031) < 0.001
    assert (estimate.n_used, estimate.n_total) == (len(played) - 2, len(played))


def test_loopback_in_strong_noise_still_finds_the_clicks(click, rng):
    played = played_times()
    x = loopback_recording(click, rng, 0.0555, played, snr_db=0.0)
    estimate = cal.loopback_latency(played, cal.locate_clicks(x, SR, click, played))
    assert estimate is not None and abs(estimate.value_s - 0.0555) < 0.001


def test_loopback_echo_louder_than_nothing_does_not_win(click, rng):
    played = played_times()
    x = loopback_recording(click, rng, 0.07, played, echo=(0.004, 0.8))
    estimate = cal.loopback_latency(played, cal.locate_clicks(x, SR, click, played))
    assert abs(estimate.value_s - 0.07) < 0.001


def test_no_speaker_no_latency(click, rng):
    played = played_times()
    for silence in (noise_at(rng, -60.0, 5 * SR), np.zeros(5 * SR)):
        heard = cal.locate_clicks(silence, SR, click, played)
        assert np.isnan(heard).all()
        assert cal.loopback_latency(played, heard) is None


def test_loopback_needs_matching_lengths():
    with pytest.raises(ValueError):
        cal.loopback_latency([0.1, 0.2], [0.3])


def test_robust_estimate_drops_outliers():
    values = [0.100, 0.1002, 0.0999, 0.1001, 0.150, np.nan, 0.0998]
    estimate = cal.robust_estimate(values)
    assert estimate.value_s == pytest.approx(0.1, abs=0.0002)
    assert (estimate.n_used, estimate.n_total) == (5, 7)
    assert cal.robust_estimate([0.1, np.nan, np.nan]) is None


# ----------------------------------------------------------------- speak-along offset

def spoken_on_beats(library, rng, beats_s, offsets_s, click=None, length_s=None):
    """MIEZEKATZEs whose true onsets lie at beat + offset, and the clicks on the beats."""
    clips = library.query(label="MIEZEKATZE", modifier=None, split="train")
    n = int((length_s or beats_s[-1] + 2.0) * SR)
    x = noise_at(rng, -60.0, n)
    for k, (beat, offset) in enumerate(zip(beats_s, offsets_s)):
        clip = clips[(5 * k) % len(clips)]
        start = int(round((beat + offset - clip.onset_s) * SR))
        audio = library.audio(clip) * 0.5
        x[start:start + len(audio)] += audio
        if click is not None:
            x += 0.5 * delayed(click, beat, n)
    return x.astype(np.float32)


@pytest.mark.parametrize("offset_s", [0.06, -0.03, 0.0])
def test_speak_along_offset_of_rendered_speech(library, rng, click, offset_s):
    beats = 2.0 + cal.SPEAK_ALONG_PERIOD_S * np.arange(8)
    jitter = rng.normal(0.0, 0.01, len(beats))
    x = spoken_on_beats(library, rng, beats, offset_s + jitter, click=click)
    onsets = cal.word_onsets_s(x, SR)
    estimate = cal.speak_along_offset(beats, onsets, cal.SPEAK_ALONG_PERIOD_S)
    assert estimate is not None and estimate.n_used >= 6
    assert abs(estimate.value_s - offset_s) < 0.015


def test_speak_along_ignores_a_stray_word(library, rng):
    period_s = 1.6                          # room for a late word before the next one
    beats = 2.0 + period_s * np.arange(6)
    offsets = np.full(len(beats), 0.04)
    offsets[2] = 0.35                       # someone far behind: an outlier
    x = spoken_on_beats(library, rng, beats, offsets)
    estimate = cal.speak_along_offset(beats, cal.word_onsets_s(x, SR), period_s)
    assert abs(estimate.value_s - 0.04) < 0.015
    assert len(beats) - 2 <= estimate.n_used <= len(beats) - 1     # the late one is out


def test_beat_offsets_use_each_word_once():
    offsets = cal.beat_offsets_s([1.0, 2.0, 3.0], [1.05, 1.1, 3.5], period_s=1.0)
    assert offsets[0] == pytest.approx(0.05)
    assert np.isnan(offsets[1]) and np.isnan(offsets[2])


def test_nobody_speaking_gives_no_offset(rng):
    beats = 1.0 + np.arange(6)
    assert cal.speak_along_offset(beats, cal.word_onsets_s(noise_at(rng, -60, 8 * SR), SR),
                                  1.0) is None


def test_lowpass_removes_the_click_and_keeps_speech(click, library):
    clip = library.query(label="MIEZEKATZE", modifier=None, split="train")[0]
    speech = library.audio(clip)
    kept = cal.lowpass(speech, SR)
    assert np.sum(kept ** 2) > 0.8 * np.sum(speech ** 2)
    assert 10 * np.log10(np.sum(cal.lowpass(click, SR) ** 2) / np.sum(click ** 2)) < -25


# ----------------------------------------------------------------- plan and clock

@pytest.mark.parametrize("loopback", [True, False])
def test_plan_parts_follow_each_other(loopback):
    plan = cal.calibration_plan(3.0, loopback=loopback)
    parts = [plan.quiet, plan.speak] + ([plan.loopback] if loopback else []) + [plan.speak_along]
    assert all(a[1] <= b[0] for a, b in zip(parts, parts[1:]))
    assert plan.quiet[1] - plan.quiet[0] == pytest.approx(3.0)
    assert bool(plan.loopback_clicks_s) == loopback
    assert all(plan.loopback[0] < t < plan.loopback[1] - cal.MAX_LATENCY_S
               for t in plan.loopback_clicks_s) if loopback else plan.loopback is None
    assert len(plan.speaking_beats_s) == cal.SPEAK_BEATS
    assert np.allclose(np.diff(plan.beats_s), plan.period_s)
    assert plan.total_s >= plan.speak_along[1]


def test_plan_rejects_bad_durations():
    with pytest.raises(ValueError):
        cal.calibration_plan(0.0)


def test_stream_clock_takes_the_earliest_arrival():
    clock = cal.StreamClock()
    with pytest.raises(ValueError):
        _ = clock.offset_s
    for k, lateness in enumerate([0.030, 0.002, 0.050, 0.004]):
        clock.observe(100.0 + 0.032 * (k + 1) + lateness, 0.032 * (k + 1))
    assert clock.offset_s == pytest.approx(100.002)
    assert clock.audio_of(clock.wall_of(3.5)) == pytest.approx(3.5)
