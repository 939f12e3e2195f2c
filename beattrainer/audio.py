"""Audio in and out: the only module that touches soundfile and sounddevice.

Everything downstream takes mono float32 numpy arrays at the pipeline's rate.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

PIPELINE_SR = 16000  # [Hz] every analysis runs at this rate


class AudioError(Exception):
    """Audio that cannot be read or written; the message is one line for the user."""


def to_mono(samples: np.ndarray) -> np.ndarray:
    """Average the channels of a (frames, channels) array; pass mono through."""
    samples = np.asarray(samples, dtype=np.float32)
    return samples.mean(axis=1, dtype=np.float32) if samples.ndim == 2 else samples


def resample(samples: np.ndarray, sr_in: int, sr_out: int) -> np.ndarray:
    """Resample a mono signal with soxr (high quality)."""
    if sr_in == sr_out:
        return np.asarray(samples, dtype=np.float32)
    import soxr

    return soxr.resample(samples, sr_in, sr_out, quality="HQ").astype(np.float32)


def read_audio(path: str | Path, sr: int | None = PIPELINE_SR) -> tuple[np.ndarray, int]:
    """Read a whole file as mono float32 at rate `sr` (None: the file's own rate).

    Returns
    -------
    samples : np.ndarray, shape (n,), float32 in [-1, 1]
    sr : int, the rate of `samples` [Hz]
    """
    import soundfile as sf

    try:
        data, file_sr = sf.read(str(path), dtype="float32", always_2d=True)
    except FileNotFoundError:
        raise AudioError(f"{path}: no such file") from None
    except (sf.LibsndfileError, RuntimeError, TypeError, ValueError) as exc:
        raise AudioError(f"{path}: not a readable audio file ({_first_line(exc)})") from None
    mono = to_mono(data)
    if sr is None:
        return mono, int(file_sr)
    return resample(mono, int(file_sr), sr), sr


def write_audio(path: str | Path, samples: np.ndarray, sr: int) -> None:
    """Write mono float32 samples; the format follows the suffix (.wav 16-bit, .flac, .ogg)."""
    import soundfile as sf

    path = Path(path)
    subtype = {".wav": "PCM_16", ".flac": "PCM_16", ".ogg": "VORBIS"}.get(path.suffix.lower())
    if subtype is None:
        raise AudioError(f"{path}: unsupported output format (use .wav, .flac or .ogg)")
    path.parent.mkdir(parents=True, exist_ok=True)
    clipped = np.clip(np.asarray(samples, dtype=np.float32), -1.0, 1.0)
    sf.write(str(path), clipped, sr, subtype=subtype)


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


# --- streaming sources -------------------------------------------------------
#
# A file and the microphone yield the same thing: mono float32 blocks of
# `block_samples` at the pipeline rate, made by the same streaming resampler,
# so everything downstream (one `feed(block)` pipeline) cannot tell them apart.
# Time is counted in samples consumed, never read from the wall clock.

DEFAULT_BLOCK_SAMPLES = 512  # [samples] 32 ms at 16 kHz


class BlockResampler:
    """Stream mono audio from `sr_in` to `sr_out` and cut it into equal blocks.

    Wraps `soxr.ResampleStream` (high quality); the file and the microphone
    source both push through it, so they resample identically.

    Parameters
    ----------
    sr_in, sr_out : int
        Input and output rates [Hz].
    block_samples : int
        Size of the blocks handed out [samples at `sr_out`].
    """

    def __init__(self, sr_in: int, sr_out: int, block_samples: int) -> None:
        if block_samples < 1:
            raise ValueError("block_samples must be at least 1")
        self.block_samples = int(block_samples)
        self._stream = None
        if int(sr_in) != int(sr_out):
            import soxr

            self._stream = soxr.ResampleStream(
                float(sr_in), float(sr_out), 1, dtype="float32", quality="HQ"
            )
        self._pending = np.zeros(0, dtype=np.float32)

    def push(self, mono: np.ndarray, last: bool = False) -> list[np.ndarray]:
        """Resample `mono` (shape (n,)) and return every complete block.

        With `last=True` the resampler is flushed and a final shorter block
        (if any samples remain) is returned too.
        """
        mono = np.ascontiguousarray(mono, dtype=np.float32)
        out = mono if self._stream is None else self._stream.resample_chunk(mono, last=last)
        buffer = np.concatenate([self._pending, np.asarray(out, dtype=np.float32)])
        n_full = len(buffer) // self.block_samples
        blocks = [
            buffer[i * self.block_samples : (i + 1) * self.block_samples].copy()
            for i in range(n_full)
        ]
        self._pending = buffer[n_full * self.block_samples :]
        if last and len(self._pending):
            blocks.append(self._pending.copy())
            self._pending = np.zeros(0, dtype=np.float32)
        return blocks


def file_blocks(
    path: str | Path, block_samples: int = DEFAULT_BLOCK_SAMPLES, sr: int = PIPELINE_SR
):
    """Open an audio file and return an iterator over its mono blocks at rate `sr`.

    Any format libsndfile reads (wav, flac, ogg, mp3 with libsndfile >= 1.1),
    any rate, any channel count. The file is opened right away, so a missing or
    unreadable file raises `AudioError` here, not at the first block.

    Parameters
    ----------
    path : str or Path
    block_samples : int
        Block size [samples at `sr`]; every block has this size except possibly
        the last, which is shorter.
    sr : int
        Output rate [Hz].

    Returns
    -------
    Iterator[np.ndarray]
        float32 arrays of shape (block_samples,).
    """
    import soundfile as sf

    if block_samples < 1:
        raise ValueError("block_samples must be at least 1")
    if not Path(path).is_file():
        raise AudioError(f"{path}: no such file")
    try:
        handle = sf.SoundFile(str(path))
    except FileNotFoundError:
        raise AudioError(f"{path}: no such file") from None
    except (sf.LibsndfileError, RuntimeError, TypeError, ValueError, OSError) as exc:
        raise AudioError(f"{path}: not a readable audio file ({_first_line(exc)})") from None
    return _file_block_iter(handle, str(path), int(block_samples), int(sr))


def _file_block_iter(handle, name: str, block_samples: int, sr: int):
    import soundfile as sf

    with handle:
        resampler = BlockResampler(handle.samplerate, sr, block_samples)
        read_frames = max(1, round(block_samples * handle.samplerate / sr))
        while True:
            try:
                data = handle.read(read_frames, dtype="float32", always_2d=True)
            except (sf.LibsndfileError, RuntimeError, ValueError) as exc:
                raise AudioError(f"{name}: cannot decode ({_first_line(exc)})") from None
            finished = len(data) == 0
            yield from resampler.push(to_mono(data), last=finished)
            if finished:
                return


_GAP = object()  # marks lost input in the microphone queue


class MicBlocks:
    """The microphone as an iterator of mono float32 blocks at the pipeline rate.

    The PortAudio callback only copies each block into a queue (it runs at
    real-time priority and swallows exceptions); resampling and everything
    else happen in the consuming thread. Overflows are counted, never hidden:
    `input_overflows` (PortAudio could not deliver in time) and
    `dropped_blocks` (the queue was full because the consumer fell behind).

    Parameters
    ----------
    device : int, str or None
        Input device index, or a case-insensitive part of its name; None for
        the default input.
    block_samples : int
        Block size [samples at `sr`].
    sr : int
        Output rate [Hz]; the device is opened at its default rate and
        resampled by the same `BlockResampler` a file goes through.
    max_seconds : float or None
        Stop after this much audio [s]; None runs until `close()`.
    queue_seconds : float
        Capacity of the block queue [s of audio]. Generous, because a
        device without a hardware clock (a virtual microphone) may deliver
        much faster than real time.
    """

    def __init__(
        self,
        device: int | str | None = None,
        block_samples: int = DEFAULT_BLOCK_SAMPLES,
        sr: int = PIPELINE_SR,
        max_seconds: float | None = None,
        queue_seconds: float = 120.0,
    ) -> None:
        import queue

        sd = _import_sounddevice()
        if block_samples < 1:
            raise ValueError("block_samples must be at least 1")
        self.sr = int(sr)
        self.block_samples = int(block_samples)
        self.max_samples = None if max_seconds is None else int(round(max_seconds * sr))
        self.input_overflows = 0
        self.dropped_blocks = 0
        self.gaps_reached = 0  # losses the consumer has come to (see _callback)
        self._gap_pending = False
        self.samples_delivered = 0
        default_index = sd.default.device[0]
        index = find_input_device(device, sd.query_devices(), default_index)
        info = sd.query_devices(index)
        self.device_name = str(info["name"])
        # Capture at the device's own rate and resample here, exactly as a file
        # is resampled: ALSA's plug rate conversion is cruder and, on some
        # chains, loses blocks.
        device_sr = int(info["default_samplerate"]) or self.sr
        self.device_sr = device_sr
        self._resampler = BlockResampler(device_sr, self.sr, self.block_samples)
        device_block = max(1, round(self.block_samples * device_sr / self.sr))
        capacity = max(4, int(queue_seconds * device_sr / device_block))
        self._queue: queue.Queue = queue.Queue(maxsize=capacity)
        self._ready: list[np.ndarray] = []
        try:
            self._stream = sd.InputStream(
                device=index,
                channels=1,
                samplerate=device_sr,
                blocksize=device_block,
                # 16-bit capture: what nearly every microphone delivers, and ALSA's
                # format conversion to float loses blocks on some plug chains.
                dtype="int16",
                callback=self._callback,
            )
            self._stream.start()
        except Exception as exc:  # noqa: BLE001 - PortAudioError and friends
            raise AudioError(
                f"cannot open input device {index} '{self.device_name}': {_first_line(exc)}"
            ) from None

    def _callback(self, indata, frames, time_info, status) -> None:
        # Real-time thread: copy and enqueue, nothing else. A loss (an overflow, or a
        # block dropped because the queue is full) is marked in the queue where it
        # happened, so the consumer learns of it when it reaches that point of the
        # stream, not earlier: with a fast device the queue may hold minutes.
        if status.input_overflow:
            self.input_overflows += 1
            self._gap_pending = True
        try:
            if self._gap_pending:
                self._queue.put_nowait(_GAP)
                self._gap_pending = False
            self._queue.put_nowait(indata[:, 0].copy())
        except Exception:  # noqa: BLE001 - queue.Full; must never raise here
            self.dropped_blocks += 1
            self._gap_pending = True

    def __iter__(self):
        """Yield blocks until `max_seconds` of audio have been delivered."""
        try:
            while self.max_samples is None or self.samples_delivered < self.max_samples:
                if not self._ready:
                    raw = self._queue.get(timeout=5.0)
                    if raw is _GAP:
                        self.gaps_reached += 1
                        continue
                    self._ready = self._resampler.push(raw.astype(np.float32) / 32768.0)
                    continue
                block = self._ready.pop(0)
                if self.max_samples is not None:
                    block = block[: self.max_samples - self.samples_delivered]
                self.samples_delivered += len(block)
                yield block
        except Exception as exc:  # noqa: BLE001 - queue.Empty: the device went quiet
            if type(exc).__name__ == "Empty":
                raise AudioError(
                    f"input device '{self.device_name}' stopped delivering audio") from None
            raise
        finally:
            self.close()

    def close(self) -> None:
        """Stop and close the input stream (idempotent)."""
        stream, self._stream = getattr(self, "_stream", None), None
        if stream is not None:
            stream.stop()
            stream.close()

    def problems(self) -> str | None:
        """A one-line summary of overflows, or None when there were none."""
        if not (self.input_overflows or self.dropped_blocks):
            return None
        return (
            f"input overflowed {self.input_overflows} time(s), "
            f"{self.dropped_blocks} block(s) dropped: audio was lost"
        )


def mic_blocks(
    device: int | str | None = None,
    block_samples: int = DEFAULT_BLOCK_SAMPLES,
    sr: int = PIPELINE_SR,
    max_seconds: float | None = None,
) -> MicBlocks:
    """Open the microphone; iterate the result for mono float32 blocks (see `MicBlocks`)."""
    return MicBlocks(device=device, block_samples=block_samples, sr=sr, max_seconds=max_seconds)


def find_input_device(device: int | str | None, devices, default_index: int = -1) -> int:
    """Pick an input device index from a `sounddevice.query_devices()` list.

    `device` may be an index (int or digit string), a case-insensitive part of
    a name, or None for PortAudio's default input (`default_index`; when that
    is -1, the first default-looking input). Raises `AudioError` with the list
    of inputs when nothing fits.
    """
    inputs = [(i, d) for i, d in enumerate(devices) if d["max_input_channels"] > 0]
    listing = "; ".join(f"{i}: {d['name']}" for i, d in inputs) or "none"
    if not inputs:
        raise AudioError(f"no audio input device found (input devices: {listing})")
    if device is None:
        if any(i == default_index for i, _ in inputs):
            return int(default_index)
        for i, d in inputs:
            if d["name"] in ("default", "sysdefault", "pulse", "pipewire"):
                return i
        return inputs[0][0]
    if isinstance(device, int) or str(device).strip().isdigit():
        index = int(device)
        if any(i == index for i, _ in inputs):
            return index
        raise AudioError(f"no input device with index {index} (input devices: {listing})")
    matches = [i for i, d in inputs if str(device).lower() in str(d["name"]).lower()]
    if len(matches) == 1:
        return matches[0]
    exact = [i for i in matches if str(devices[i]["name"]).lower() == str(device).lower()]
    if len(exact) == 1:
        return exact[0]
    what = "matches" if not matches else "is ambiguous among"
    raise AudioError(f"no single input device {what} '{device}' (input devices: {listing})")


def _import_sounddevice():
    try:
        import sounddevice as sd
    except OSError:
        raise AudioError(
            "no audio input: the PortAudio library is missing (install libportaudio2)"
        ) from None
    except ImportError:
        raise AudioError("no audio input: the sounddevice package is not installed") from None
    return sd


def block_writer(blocks, path: str | Path, sr: int = PIPELINE_SR):
    """Yield `blocks` unchanged while writing them to a 16-bit WAV at `path`.

    The file is flushed block by block, so a recording survives a crash up to
    its last block.
    """
    import soundfile as sf

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        handle = sf.SoundFile(str(path), "w", samplerate=sr, channels=1, subtype="PCM_16")
    except (sf.LibsndfileError, RuntimeError, OSError) as exc:
        raise AudioError(f"{path}: cannot write the recording ({_first_line(exc)})") from None
    with handle:
        for block in blocks:
            handle.write(np.clip(block, -1.0, 1.0))
            handle.flush()
            yield block
