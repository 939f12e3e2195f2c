"""Streaming audio sources: files of any format, rate and width; device choice."""
import numpy as np
import pytest
import soundfile as sf

from beattrainer.audio import (
    PIPELINE_SR,
    AudioError,
    BlockResampler,
    file_blocks,
    find_input_device,
    read_audio,
)


def _tone(sr: int, seconds: float = 0.5, channels: int = 1) -> np.ndarray:
    t = np.arange(int(sr * seconds)) / sr
    mono = 0.5 * np.sin(2 * np.pi * 440.0 * t) * np.minimum(1.0, t * 20)
    return mono if channels == 1 else np.stack([mono] * channels, axis=1)


@pytest.mark.parametrize("sr, channels, suffix", [
    (16000, 1, ".wav"), (8000, 1, ".wav"), (96000, 2, ".flac"), (44100, 2, ".ogg"),
    (22050, 3, ".wav"),
])
def test_file_blocks_give_mono_float32_at_the_pipeline_rate(tmp_path, sr, channels, suffix):
    path = tmp_path / f"tone{suffix}"
    sf.write(str(path), _tone(sr, channels=channels), sr)
    blocks = list(file_blocks(path, 300))
    assert all(b.dtype == np.float32 and b.ndim == 1 for b in blocks)
    assert all(len(b) == 300 for b in blocks[:-1]) and 0 < len(blocks[-1]) <= 300
    joined = np.concatenate(blocks)
    assert abs(len(joined) - PIPELINE_SR * 0.5) <= 2
    batch, _ = read_audio(path)
    assert len(batch) == len(joined)
    np.testing.assert_allclose(joined, batch, atol=2e-3)


@pytest.mark.parametrize("block_a, block_b", [(1, 4096), (37, 512), (160, 1000)])
def test_block_size_does_not_change_the_samples(tmp_path, block_a, block_b):
    path = tmp_path / "tone.wav"
    sf.write(str(path), _tone(44100), 44100)
    a = np.concatenate(list(file_blocks(path, block_a)))
    b = np.concatenate(list(file_blocks(path, block_b)))
    np.testing.assert_array_equal(a, b)


def test_block_resampler_flushes_the_tail():
    resampler = BlockResampler(48000, 16000, 100)
    out = resampler.push(np.ones(4800, np.float32)) + resampler.push(np.zeros(0, np.float32),
                                                                      last=True)
    assert sum(len(b) for b in out) == 1600


@pytest.mark.parametrize("content", [b"", b"this is not audio\n" * 10])
def test_unreadable_files_raise_one_line(tmp_path, content):
    path = tmp_path / "bad.wav"
    path.write_bytes(content)
    with pytest.raises(AudioError) as info:
        file_blocks(path)
    assert "\n" not in str(info.value) and "bad.wav" in str(info.value)


def test_missing_file(tmp_path):
    with pytest.raises(AudioError, match="no such file"):
        file_blocks(tmp_path / "nope.wav")


DEVICES = [
    {"name": "HDA Intel PCH: ALC3246 Analog (hw:0,0)", "max_input_channels": 2},
    {"name": "HDMI 0", "max_input_channels": 0},
    {"name": "USB Headset Mic", "max_input_channels": 1},
    {"name": "default", "max_input_channels": 32},
]


def test_device_by_index_name_or_default():
    assert find_input_device(2, DEVICES) == 2
    assert find_input_device("2", DEVICES) == 2
    assert find_input_device("headset", DEVICES) == 2
    assert find_input_device(None, DEVICES, default_index=0) == 0
    assert find_input_device(None, DEVICES) == 3  # no PortAudio default: the "default" device


@pytest.mark.parametrize("device", [1, "7", "speaker", "a"])
def test_unknown_device_lists_the_inputs(device):
    with pytest.raises(AudioError) as info:
        find_input_device(device, DEVICES)
    message = str(info.value)
    assert "\n" not in message and "USB Headset Mic" in message and "HDMI" not in message


def test_no_inputs_at_all():
    with pytest.raises(AudioError, match="no audio input device"):
        find_input_device(None, [DEVICES[1]])


def test_lost_input_is_marked_where_it_happened():
    """A block dropped on a full queue reaches the consumer as a gap in its place.

    Tests the PortAudio callback's bookkeeping without a device (the real stream
    runs in tests/test_play.py::test_play_virtual_mic): the gap comes at its
    place in the stream, not before.
    """
    import queue
    from types import SimpleNamespace

    from beattrainer.audio import BlockResampler, MicBlocks

    mic = MicBlocks.__new__(MicBlocks)
    mic.sr, mic.block_samples, mic.max_samples = 16000, 4, None
    mic.input_overflows = mic.dropped_blocks = mic.gaps_reached = mic.samples_delivered = 0
    mic._gap_pending, mic._ready, mic._stream = False, [], None
    mic.device_name = "test"
    mic._resampler = BlockResampler(16000, 16000, 4)
    mic._queue = queue.Queue(maxsize=3)
    ok, overflow = SimpleNamespace(input_overflow=False), SimpleNamespace(input_overflow=True)
    block = np.full((4, 1), 1000, dtype=np.int16)
    for _ in range(4):                       # the 4th does not fit: dropped
        mic._callback(block, 4, None, ok)
    assert mic.dropped_blocks == 1 and mic.gaps_reached == 0
    blocks = iter(mic)
    for _ in range(3):                       # the three blocks before the loss
        next(blocks)
    assert mic.gaps_reached == 0
    mic._callback(block, 4, None, ok)        # room again: the gap goes in first
    next(blocks)
    assert mic.gaps_reached == 1             # reached the dropped block's place
    mic._callback(block, 4, None, overflow)  # PortAudio lost data just before this one
    next(blocks)
    assert mic.gaps_reached == 2 and mic.input_overflows == 1
