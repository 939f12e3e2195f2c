"""Feedback sounds: the files, the silent player, scheduling with a fake stream, a real device."""
import json
import subprocess
import sys
import types

import numpy as np
import pytest
import soundfile as sf

from beattrainer.ui import sounds as snd
from tests.conftest import REPO

VIRTUAL_MIC = REPO.parent / "shared" / "tools" / "virtual-mic"


# ----------------------------------------------------------------- the files

@pytest.mark.parametrize("name", snd.NAMES)
def test_sound_file_is_short_small_mono_16k(name):
    path = snd.feedback_dir() / f"{name}.ogg"
    info = sf.info(str(path))
    assert (info.samplerate, info.channels) == (16000, 1)
    samples, _ = sf.read(str(path), dtype="float32")
    assert 0.02 < len(samples) / 16000 < 2.0
    assert path.stat().st_size < 20_000
    peak = np.max(np.abs(samples))
    assert 0.3 < peak <= 1.0


def test_index_matches_the_files():
    index = json.loads((snd.feedback_dir() / snd.INDEX_NAME).read_text())
    sounds = snd.load_sounds()
    for name in snd.NAMES:
        row = index["sounds"][name]
        assert row["duration_s"] == pytest.approx(len(sounds[name].samples) / 16000, abs=0.002)
        assert 0.0 <= sounds[name].onset_s < 0.05


def test_click_keeps_clear_of_the_speech_band():
    click = snd.load_sounds()["click"].samples
    spectrum = np.abs(np.fft.rfft(click, 4096)) ** 2
    freqs = np.fft.rfftfreq(4096, 1 / 16000)
    assert 10 * np.log10(spectrum[freqs < 3500].sum() / spectrum.sum()) < -25


def test_buzzer_is_low_and_cheer_is_bright():
    sounds = snd.load_sounds()

    def centroid(x):
        spectrum = np.abs(np.fft.rfft(x)) ** 2
        return np.sum(np.fft.rfftfreq(len(x), 1 / 16000) * spectrum) / spectrum.sum()

    assert centroid(sounds["buzzer"].samples) < 800 < centroid(sounds["cheer"].samples)


def test_load_sounds_at_another_rate():
    sounds = snd.load_sounds(sr=48000)
    assert len(sounds["cheer"].samples) == pytest.approx(3 * 1.6 * 16000, rel=0.01)


# ----------------------------------------------------------------- pure parts

def test_count_in_buffer_puts_the_second_solo_one_period_later():
    solo = np.ones(100, dtype=np.float32)
    out = snd.count_in_samples(solo, period_s=0.005, sr=16000)      # 80 samples: overlap
    assert len(out) == 180 and out[80:].tolist() == [1.0] * 100
    assert out[79] < 0.2                                             # the first one fades out
    out = snd.count_in_samples(solo, period_s=0.01, sr=16000)
    assert np.all(out[100:160] == 0) and np.all(out[160:] == 1)


def test_mixer_places_a_sound_at_its_device_time():
    mixer = snd.Mixer(1000)
    mixer.add(np.ones(15, np.float32), start_time_s=10.025)
    first = mixer.render(20, dac_time_s=10.0)
    second = mixer.render(20, dac_time_s=10.020)
    out = np.concatenate([first, second])
    assert np.flatnonzero(out).tolist() == list(range(25, 40))
    assert not mixer.busy and mixer.late_s == 0.0


def test_mixer_plays_a_late_sound_at_once_and_says_so():
    mixer = snd.Mixer(1000)
    mixer.add(np.ones(5, np.float32), start_time_s=9.990)
    mixer.add(np.full(5, 0.5, np.float32), start_time_s=None)
    out = mixer.render(10, dac_time_s=10.0)
    assert out[:5].tolist() == [1.0] * 5 and mixer.late_s == pytest.approx(0.010)


def test_mixer_clips_the_sum():
    mixer = snd.Mixer(1000)
    for _ in range(3):
        mixer.add(np.full(4, 0.6, np.float32), None)
    assert np.max(mixer.render(4, 0.0)) == 1.0


def test_find_output_device():
    devices = [{"name": "mic", "max_output_channels": 0},
               {"name": "Speakers HDMI", "max_output_channels": 2},
               {"name": "default", "max_output_channels": 2}]
    assert snd.find_output_device(None, devices, -1) == (2, "")
    assert snd.find_output_device("hdmi", devices, 2) == (1, "")
    assert snd.find_output_device("1", devices) == (1, "")
    assert snd.find_output_device(0, devices)[0] is None
    assert snd.find_output_device(None, devices[:1])[1] == "no audio output device"


# ----------------------------------------------------------------- the silent player

def _failing_import(error):
    def import_sounddevice():
        raise error
    return import_sounddevice


@pytest.mark.parametrize("error, words", [(OSError("PortAudio library not found"), "PortAudio"),
                                          (ImportError("no module"), "sounddevice")])
def test_no_portaudio_gives_a_silent_player(monkeypatch, error, words):
    monkeypatch.setattr(snd, "_import_sounddevice", _failing_import(error))
    player = snd.SoundPlayer.open()
    assert not player.available
    assert player.note.startswith("sounds are off:") and words in player.note
    assert "\n" not in player.note
    assert player.play("cheer") is None
    assert player.play_samples(np.ones(10), 16000) is None
    assert player.count_in(1.2, start_delay_s=0.4) == 0.4
    player.close()


def test_the_real_import_blocked_gives_a_silent_player(monkeypatch):
    monkeypatch.setitem(sys.modules, "sounddevice", None)
    player = snd.SoundPlayer.open()
    assert not player.available and "sounddevice" in player.note


def test_unknown_sound_name_is_a_programming_error(monkeypatch):
    monkeypatch.setattr(snd, "_import_sounddevice", _failing_import(OSError("x")))
    with pytest.raises(ValueError):
        snd.SoundPlayer.open().play("trumpet")


# ----------------------------------------------------------------- a fake stream

class FakeStream:
    """Records the callback; `pump()` plays buffers at a fake device clock."""

    instances: list = []

    def __init__(self, *, device, channels, samplerate, dtype, callback, fail=False):
        if samplerate != FakeStream.accepts:
            raise RuntimeError(f"Invalid sample rate {samplerate}")
        self.callback, self.samplerate, self.device = callback, samplerate, device
        self.latency = 0.05
        self.time = 1000.0
        self.played = []
        self.started = self.closed = False
        FakeStream.instances.append(self)

    def start(self):
        self.started = True

    def stop(self):
        self.started = False

    def close(self):
        self.closed = True

    def pump(self, seconds: float, block: int = 256):
        for _ in range(int(seconds * self.samplerate / block)):
            out = np.zeros((block, 1), np.float32)
            info = types.SimpleNamespace(outputBufferDacTime=self.time + self.latency,
                                         currentTime=self.time)
            self.callback(out, block, info, None)
            self.played.append(out[:, 0].copy())
            self.time += block / self.samplerate
        return np.concatenate(self.played)


def fake_sounddevice(rate=16000, outputs=True):
    FakeStream.accepts = rate
    FakeStream.instances = []
    devices = [{"name": "Fake Speaker", "max_output_channels": 2 if outputs else 0,
                "default_samplerate": 48000.0}]
    return types.SimpleNamespace(OutputStream=FakeStream, query_devices=lambda: devices,
                                 default=types.SimpleNamespace(device=[-1, 0]))


@pytest.fixture
def fake_player(monkeypatch):
    module = fake_sounddevice()
    monkeypatch.setattr(snd, "_import_sounddevice", lambda: module)
    monkeypatch.setattr(snd.time, "sleep", lambda s: None)  # the fake device has no clock
    player = snd.SoundPlayer.open()
    yield player, FakeStream.instances[-1]
    player.close()


def test_fake_device_plays_the_buzzer(fake_player):
    player, stream = fake_player
    assert player.available and player.note is None and player.device_name == "Fake Speaker"
    onset_s = player.sounds["buzzer"].onset_s
    assert player.play("buzzer") == pytest.approx(stream.latency + onset_s)
    played = stream.pump(1.0)
    buzzer = player.sounds["buzzer"].samples
    assert np.allclose(played[:len(buzzer)], buzzer, atol=1e-6)
    assert not player.busy


def test_fake_device_count_in_lands_on_the_returned_time(fake_player):
    player, stream = fake_player
    first_onset_s = player.count_in(0.9, start_delay_s=0.5)
    assert first_onset_s == pytest.approx(0.5)
    played = stream.pump(2.5)
    solo = player.sounds["count_in"]
    # the stream clock started at 1000.0 at the call; a buffer's first sample sounds
    # `latency` after its callback, so output sample k sounds at latency + k / sr
    first_sample = int(np.flatnonzero(np.abs(played) > 0)[0])
    heard_onset_s = stream.latency + first_sample / 16000 + solo.onset_s
    assert heard_onset_s == pytest.approx(first_onset_s, abs=1.5 / 16000)
    second = first_sample + int(round(0.9 * 16000))
    n = len(solo.samples)
    assert np.allclose(played[second + 200:second + n], solo.samples[200:], atol=1e-6)


def test_fake_device_without_16k_opens_at_its_own_rate(monkeypatch):
    module = fake_sounddevice(rate=48000)
    monkeypatch.setattr(snd, "_import_sounddevice", lambda: module)
    player = snd.SoundPlayer.open()
    assert player.available and player.sr == 48000
    player.close()
    assert FakeStream.instances[-1].closed and not player.available


def test_fake_system_without_outputs(monkeypatch):
    module = fake_sounddevice(outputs=False)
    monkeypatch.setattr(snd, "_import_sounddevice", lambda: module)
    player = snd.SoundPlayer.open()
    assert not player.available and player.note == "sounds are off: no audio output device"


def test_missing_sound_files_make_a_silent_player(monkeypatch, tmp_path):
    module = fake_sounddevice()
    monkeypatch.setattr(snd, "_import_sounddevice", lambda: module)
    player = snd.SoundPlayer.open(folder=tmp_path)
    assert not player.available and "make_feedback_sounds" in player.note
    assert FakeStream.instances[-1].closed


# ----------------------------------------------------------------- real PortAudio

def _output_devices():
    try:
        import sounddevice as sd
    except OSError:
        return None
    return [d for d in sd.query_devices() if d["max_output_channels"] > 0]


def test_real_portaudio_on_this_machine():
    """Plays for real where an output exists; otherwise the note says why."""
    outputs = _output_devices()
    player = snd.SoundPlayer.open()
    try:
        if not outputs:
            assert not player.available
            assert player.note in ("sounds are off: no audio output device",
                                   "sounds are off: the PortAudio library is missing "
                                   "(install libportaudio2)")
            return
        assert player.available, player.note
        assert player.play("click") is not None
        player.wait(timeout_s=5.0)
    finally:
        player.close()


PLAY_SCRIPT = """
import json, time
from beattrainer.ui.sounds import SoundPlayer
p = SoundPlayer.open()
t = time.monotonic()
info = {"available": p.available, "note": p.note, "sr": p.sr,
        "click": p.play("click"), "count_in": p.count_in(0.6, start_delay_s=0.2)}
p.wait(timeout_s=10.0)
info["busy"] = p.busy
info["frames"] = p._frames_done
info["seconds"] = time.monotonic() - t
p.close()
print(json.dumps(info))
"""


@pytest.mark.skipif(not VIRTUAL_MIC.exists() or _output_devices() is None,
                    reason="needs ../shared/tools/virtual-mic and PortAudio")
def test_real_stream_on_a_null_output(tmp_path):
    """The virtual microphone's null output: a real PortAudio stream without a clock."""
    wav = tmp_path / "quiet.wav"
    sf.write(str(wav), np.zeros(1600, np.float32), 16000, subtype="PCM_16")
    result = subprocess.run([str(VIRTUAL_MIC), str(wav), "--", sys.executable, "-c", PLAY_SCRIPT],
                            capture_output=True, text=True, timeout=60, cwd=REPO)
    assert result.returncode == 0, result.stderr[-500:]
    info = json.loads(result.stdout.strip().splitlines()[-1])
    assert info["available"] and info["note"] is None
    assert info["count_in"] >= 0.2 and not info["busy"]
    # the callback paces itself: a clock-less sink is not fed minutes of audio
    assert info["frames"] / info["sr"] < info["seconds"] + 2.0
