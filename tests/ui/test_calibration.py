"""The calibration session in a simulated room: a player whose clicks the microphone hears."""
import numpy as np
import pytest

from beattrainer import calibrate as cal
from beattrainer.synth.clips import ClipLibrary
from beattrainer.ui.calibration import NO_SPEAKER, run_session
from beattrainer.ui.sounds import load_sounds

SR = 16000
BLOCK = 512


class Room:
    """A speaker and a microphone in one room, on a fake clock.

    Blocks arrive `input_delay_s` after they were recorded (wall = audio + that);
    a sound the player starts at wall time w reaches the microphone
    `acoustic_latency_s` after the audio time of w. Blocks are made lazily, so
    sounds scheduled while the session runs land in later blocks.
    """

    def __init__(self, base: np.ndarray, acoustic_latency_s: float, input_delay_s: float = 0.021,
                 gain: float = 0.3, speaker: bool = True) -> None:
        self.audio = base.astype(np.float64).copy()
        self.latency_s = acoustic_latency_s
        self.input_delay_s = input_delay_s
        self.gain = gain if speaker else 0.0
        self.wall_s = 500.0
        self.available = True
        self.note = None
        self.scheduled: list[float] = []

    def blocks(self):
        for start in range(0, len(self.audio), BLOCK):
            end = min(start + BLOCK, len(self.audio))
            self.wall_s = 500.0 + end / SR + self.input_delay_s
            yield self.audio[start:end].astype(np.float32)

    def clock(self) -> float:
        return self.wall_s

    def play_samples(self, samples, sr, delay_s=0.0):
        audio_s = self.wall_s + max(delay_s, 0.0) - 500.0 - self.input_delay_s
        self.scheduled.append(audio_s)
        start = int(round((audio_s + self.latency_s) * SR))
        seg = self.audio[start:start + len(samples)]
        seg += self.gain * np.asarray(samples)[:len(seg)]
        return delay_s


@pytest.fixture(scope="module")
def click():
    return load_sounds(sr=SR)["click"].samples


def session_audio(plan, rng, offset_s=0.05):
    """Room noise, a few words in the spoken stretch, the group on the metronome's beats."""
    library = ClipLibrary.load()
    clips = library.query(label="MIEZEKATZE", modifier=None, split="train")
    x = rng.standard_normal(int((plan.total_s + 1) * SR)) * 10 ** (-58 / 20)
    words = [plan.speak[0] + 0.2] + [b + offset_s for b in plan.speaking_beats_s]
    for k, t in enumerate(words):
        clip = clips[(3 * k) % len(clips)]
        start = int(round((t - clip.onset_s) * SR))
        audio = library.audio(clip) * 0.4
        x[start:start + len(audio)] += audio
    return x


def test_session_measures_latency_and_offset_in_a_room(rng, click):
    plan = cal.calibration_plan(2.0)
    room = Room(session_audio(plan, rng, offset_s=0.05), acoustic_latency_s=0.0634)
    prompts = []
    result = run_session(room.blocks(), SR, plan, prompts.append, player=room, click=click,
                         wall_clock=room.clock)
    # every click was scheduled for its planned moment of the microphone's timeline
    planned = list(plan.loopback_clicks_s) + list(plan.beats_s)
    assert np.allclose(sorted(room.scheduled), sorted(planned), atol=1e-6)
    assert abs(result.latency.value_s - 0.0634) < 0.001
    assert result.latency.n_used == len(plan.loopback_clicks_s)
    # the words sit 50 ms after the beats *as heard*: planned beat + latency
    assert abs(result.offset.value_s - (0.05 - 0.0634)) < 0.015
    assert result.noise_floor_dbfs == pytest.approx(-58.0, abs=1.0)
    assert result.speech_level_dbfs > result.noise_floor_dbfs + 20
    assert any("MIEZEKATZE" in p for p in prompts) and prompts[-1].startswith("Done")
    values = result.values()
    assert values["latency_clicks"] == [len(plan.loopback_clicks_s)] * 2
    assert all(line.strip() for line in result.lines())


def test_session_without_a_speaker_says_so(rng, click):
    plan = cal.calibration_plan(2.0)
    room = Room(session_audio(plan, rng), acoustic_latency_s=0.05, speaker=False)
    result = run_session(room.blocks(), SR, plan, lambda text: None, player=room, click=click,
                         wall_clock=room.clock)
    assert result.latency is None and result.latency_note == NO_SPEAKER
    assert abs(result.offset.value_s - 0.05) < 0.015
    assert "latency unknown" in result.offset_note


def test_session_without_sound_measures_levels_only(rng):
    plan = cal.calibration_plan(2.0)
    x = session_audio(plan, rng)
    blocks = (x[i:i + BLOCK].astype(np.float32) for i in range(0, len(x), BLOCK))

    class Silent:
        available = False
        note = "sounds are off: no audio output device"

    prompts = []
    result = run_session(blocks, SR, plan, prompts.append, player=Silent(), click=None)
    assert result.latency is None and result.offset is None
    assert "no audio output device" in result.latency_note
    assert result.speech_level_dbfs is not None
    assert not any("clicks" in p for p in prompts)


def test_session_on_input_that_ends_early(rng):
    plan = cal.calibration_plan(2.0)
    x = session_audio(plan, rng)[: int(3.0 * SR)]
    prompts = []
    result = run_session([x.astype(np.float32)], SR, plan, prompts.append)
    assert result.noise_floor_dbfs is not None and result.speech_level_dbfs is None
    assert "ended" in prompts[-1]
