"""`beattrainer onsets`: files of every kind, bad input, and the real microphone path."""
import json
import subprocess
import sys

import numpy as np
import pytest
import soundfile as sf
from click.testing import CliRunner

from beattrainer.cli import cli
from tests.conftest import REPO, validate_contract

VIRTUAL_MIC = REPO.parent / "shared" / "tools" / "virtual-mic"


@pytest.fixture(scope="module")
def performance(tmp_path_factory):
    """A rendered 3-voice performance as 16-bit WAV, with its truth."""
    from beattrainer.mzkz.sequence import Mode, compile_performance
    from beattrainer.synth.clips import ClipLibrary
    from beattrainer.synth.render import RenderOptions, render_performance

    perf = compile_performance(("01", "04", "37"), Mode("highscore"),
                               players=("Anna", "Ben", "Cem"))
    samples, sr, truth = render_performance(perf, ClipLibrary.load(), np.random.default_rng(3),
                                            RenderOptions(period_s=1.3, voices=3, seed=3))
    path = tmp_path_factory.mktemp("perf") / "perf.wav"
    sf.write(str(path), samples, sr, subtype="PCM_16")
    return path, samples, sr, truth


def run(*args):
    return CliRunner().invoke(cli, ["onsets", *map(str, args)])


def words_of(output: str) -> list[float]:
    return [w["onset_s"] for w in json.loads(output)["words"]]


def test_json_is_valid_and_finds_the_words(performance):
    path, _, _, truth = performance
    result = run(path, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    validate_contract(data, "onsets")
    true_words = [w["onset_s"] for w in truth["words"]]
    assert len(data["words"]) == len(true_words)
    assert all(abs(a - b) <= 0.05 for a, b in zip(words_of(result.output), true_words))


def test_readable_listing(performance):
    result = run(performance[0])
    assert result.exit_code == 0
    assert "WORD of 4 syllable(s)" in result.output
    assert result.output.strip().splitlines()[-1].startswith(
        f"{len(performance[3]['words'])} word(s)")


def test_other_rates_widths_and_formats_agree(performance, tmp_path):
    _, samples, sr, _ = performance
    reference = words_of(run(performance[0], "--json").output)
    import soxr

    for rate, channels, suffix in [(96000, 2, ".flac"), (44100, 1, ".ogg"), (8000, 1, ".wav")]:
        data = soxr.resample(samples, sr, rate)
        data = np.stack([data, data], axis=1) if channels == 2 else data
        path = tmp_path / f"perf_{rate}{suffix}"
        sf.write(str(path), data, rate)
        result = run(path, "--json")
        assert result.exit_code == 0, result.output
        words = words_of(result.output)
        # every word is still found (8 kHz loses the top bands, so it may add some)
        assert all(min(abs(w - r) for w in words) <= 0.01 for r in reference), (rate, words)
        if rate != 8000:
            assert len(words) == len(reference)


def test_clipping_still_finds_the_words(performance, tmp_path):
    _, samples, sr, truth = performance
    path = tmp_path / "clipped.wav"
    sf.write(str(path), np.clip(samples * 8.0, -1.0, 1.0), sr, subtype="PCM_16")
    result = run(path, "--json")
    assert result.exit_code == 0
    true_words = [w["onset_s"] for w in truth["words"]]
    words = words_of(result.output)
    assert all(min(abs(w - r) for w in words) <= 0.05 for r in true_words)


def test_silence_only_gives_empty_lists(tmp_path):
    path = tmp_path / "silence.wav"
    sf.write(str(path), np.zeros(32000, np.float32), 16000, subtype="PCM_16")
    result = run(path, "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    validate_contract(data, "onsets")
    assert data["words"] == data["syllables"] == data["percussion"] == []


@pytest.mark.parametrize("content, message", [
    (b"", "not a readable audio file"),
    (b"RIFF but not really a wave file" * 4, "not a readable audio file"),
    (None, "no such file"),
])
def test_bad_files_give_one_line_and_exit_2(tmp_path, content, message):
    path = tmp_path / "bad.wav"
    if content is not None:
        path.write_bytes(content)
    result = run(path)
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_zero_length_wav_is_an_error(tmp_path):
    path = tmp_path / "zero.wav"
    sf.write(str(path), np.zeros(0, np.float32), 16000, subtype="PCM_16")
    result = run(path)
    assert result.exit_code == 2 and "no audio samples" in result.output


@pytest.mark.parametrize("args", [[], ["x.wav", "--mic"], ["x.wav", "--seconds", "3"]])
def test_argument_mistakes(args):
    result = CliRunner().invoke(cli, ["onsets", *args])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def _portaudio_present() -> bool:
    try:
        import sounddevice  # noqa: F401
    except OSError:
        return False
    return True


@pytest.mark.skipif(not VIRTUAL_MIC.exists() or not _portaudio_present(),
                    reason="needs ../shared/tools/virtual-mic and PortAudio")
def test_microphone_path_hears_the_same_words(performance):
    path, samples, sr, _ = performance
    seconds = len(samples) / sr
    command = [sys.executable, "-m", "beattrainer", "onsets", "--mic", "--seconds",
               f"{seconds:.3f}", "--json"]
    result = subprocess.run([str(VIRTUAL_MIC), str(path), "--", *command],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-500:]
    data = json.loads(result.stdout)
    validate_contract(data, "onsets")
    from_file = words_of(run(path, "--json").output)
    assert len(data["words"]) == len(from_file)
    assert all(abs(a["onset_s"] - b) <= 0.002 for a, b in zip(data["words"], from_file))


@pytest.mark.skipif(not _portaudio_present(), reason="needs PortAudio")
def test_unknown_device_lists_inputs():
    result = CliRunner().invoke(cli, ["onsets", "--mic", "--device", "no-such-device-xyz",
                                      "--seconds", "1"])
    assert result.exit_code == 2
    assert "input device" in result.output and len(result.output.strip().splitlines()) == 1


def test_no_portaudio_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "sounddevice", None)
    result = CliRunner().invoke(cli, ["onsets", "--mic", "--seconds", "1"])
    assert result.exit_code == 2
    assert "PortAudio" in result.output or "sounddevice" in result.output

