"""`beattrainer calibrate`: end to end through the virtual microphone, and its errors."""
import subprocess
import sys

import numpy as np
import pytest
import soundfile as sf
from click.testing import CliRunner

from beattrainer import calibrate as cal
from beattrainer.cli import cli
from beattrainer.store import Store
from beattrainer.synth.clips import ClipLibrary
from tests.conftest import REPO

VIRTUAL_MIC = REPO.parent / "shared" / "tools" / "virtual-mic"
SR = 16000
NOISE_DBFS = -57.0
LATE_S = 0.05


def _portaudio_present() -> bool:
    try:
        import sounddevice  # noqa: F401
    except OSError:
        return False
    return True


def session_wav(path, plan, rng, speech_gain=0.4):
    """What a group at the table gives: room noise, MIEZEKATZE a few times, then on the beats.

    Returns the active level of the spoken stretch's words alone [dBFS].
    """
    library = ClipLibrary.load()
    clips = library.query(label="MIEZEKATZE", modifier=None, split="train")
    x = rng.standard_normal(int((plan.total_s + 1) * SR)) * 10 ** (NOISE_DBFS / 20)
    spoken = [plan.speak[0] + 0.1, plan.speak[0] + 1.05]
    words = spoken + [b + LATE_S for b in plan.speaking_beats_s]
    word_power = []
    for k, t in enumerate(words):
        clip = clips[(7 * k) % len(clips)]
        audio = library.audio(clip) * speech_gain
        start = int(round((t - clip.onset_s) * SR))
        x[start:start + len(audio)] += audio
        if k < len(spoken):
            frames = cal.frame_levels_dbfs(audio, SR)
            word_power += list(10 ** (frames[frames > NOISE_DBFS + 10] / 10))
    sf.write(str(path), x, SR, subtype="PCM_16")
    return 10 * np.log10(np.mean(word_power))


def calibrate_through_virtual_mic(wav, db, *args):
    command = [sys.executable, "-m", "beattrainer", "calibrate", "--db", str(db), *args]
    return subprocess.run([str(VIRTUAL_MIC), str(wav), "--", *command], capture_output=True,
                          text=True, timeout=300, stdin=subprocess.DEVNULL, cwd=REPO)


needs_virtual_mic = pytest.mark.skipif(not VIRTUAL_MIC.exists() or not _portaudio_present(),
                                       reason="needs ../shared/tools/virtual-mic and PortAudio")


@needs_virtual_mic
def test_calibrate_end_to_end_through_the_virtual_mic(tmp_path, rng):
    plan = cal.calibration_plan(2.0)
    wav, db = tmp_path / "table.wav", tmp_path / "runs.db"
    words_dbfs = session_wav(wav, plan, rng)
    result = calibrate_through_virtual_mic(wav, db, "--seconds", "2")
    assert result.returncode == 0, result.stderr[-800:]
    assert "MIEZEKATZE" in result.stderr                      # the prompts
    assert NO_SPEAKER_TEXT in result.stdout                   # a null output is not heard
    with Store.open(db) as store:
        values = store.calibration("default")
    assert values is not None
    assert values["noise_floor_dbfs"] == pytest.approx(NOISE_DBFS, abs=1.0)
    assert values["speech_level_dbfs"] == pytest.approx(words_dbfs, abs=2.0)
    assert values["latency_s"] is None and values["latency_note"] == NO_SPEAKER_TEXT
    assert values["speak_along_offset_s"] == pytest.approx(LATE_S, abs=0.015)
    assert values["speak_along_words"][0] >= 6
    assert values["speak_along_period_s"] == plan.period_s


NO_SPEAKER_TEXT = "no loopback: speaker not heard"


@needs_virtual_mic
def test_calibrate_without_loopback_keeps_the_speak_along(tmp_path, rng):
    plan = cal.calibration_plan(3.0, loopback=False)
    wav, db = tmp_path / "table.wav", tmp_path / "runs.db"
    session_wav(wav, plan, rng)
    result = calibrate_through_virtual_mic(wav, db, "--seconds", "3", "--no-loopback")
    assert result.returncode == 0, result.stderr[-800:]
    assert "clicks to measure the delay" not in result.stderr
    with Store.open(db) as store:
        values = store.calibration("default")
    assert values["latency_note"] == "not measured (skipped)"
    assert values["speak_along_offset_s"] == pytest.approx(LATE_S, abs=0.015)


class FakeMic:
    """A recording posing as the microphone."""

    device_name = "Table Mic"

    def __init__(self, samples):
        self.samples = samples

    def __iter__(self):
        for i in range(0, len(self.samples), 512):
            yield self.samples[i:i + 512].astype(np.float32)

    def close(self):
        pass

    def problems(self):
        return None


def test_calibrate_stores_per_device_without_sound(monkeypatch, tmp_path, rng):
    import beattrainer.audio
    import beattrainer.ui.sounds as snd

    plan = cal.calibration_plan(2.0)
    session_wav(tmp_path / "t.wav", plan, rng)
    samples, _ = sf.read(str(tmp_path / "t.wav"), dtype="float32")
    monkeypatch.setattr(beattrainer.audio, "mic_blocks", lambda **kw: FakeMic(samples))

    def no_portaudio():
        raise OSError("PortAudio library not found")

    monkeypatch.setattr(snd, "_import_sounddevice", no_portaudio)
    db = tmp_path / "runs.db"
    result = CliRunner().invoke(cli, ["calibrate", "--db", str(db), "--seconds", "2"])
    assert result.exit_code == 0, result.output
    assert "sounds are off" in result.output
    with Store.open(db) as store:
        values = store.calibration("Table Mic")
        assert store.calibration("default") is None
    assert values["noise_floor_dbfs"] == pytest.approx(NOISE_DBFS, abs=1.0)
    assert values["latency_s"] is None and values["speak_along_offset_s"] is None


def test_calibrate_without_an_input_device_is_one_line(monkeypatch, tmp_path):
    import beattrainer.audio

    def no_mic(**kw):
        raise beattrainer.audio.AudioError("no audio input device found (input devices: none)")

    monkeypatch.setattr(beattrainer.audio, "mic_blocks", no_mic)
    result = CliRunner().invoke(cli, ["calibrate", "--db", str(tmp_path / "x.db")])
    assert result.exit_code == 2
    assert result.output.strip().splitlines()[-1] == (
        "error: no audio input device found (input devices: none)")
    with Store.open(tmp_path / "x.db") as store:
        assert store.calibration("default") is None


def test_calibrate_rejects_a_silly_duration(tmp_path):
    result = CliRunner().invoke(cli, ["calibrate", "--db", str(tmp_path / "x.db"),
                                      "--seconds", "0"])
    assert result.exit_code == 2
