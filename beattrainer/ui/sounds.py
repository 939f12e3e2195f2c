"""Feedback sounds through the speaker: squeaker, buzzer, cheer, click and count-in.

`SoundPlayer.open()` never raises. Without PortAudio, without an output device,
or without the sound files it returns a silent player whose `available` is
False and whose `note` says why in one line, so the game goes on without sound.

One output stream stays open; its callback only mixes what is scheduled
(`Mixer`, pure numpy). A sound can be scheduled for a moment in the future:
the callback places it at the sample the device will play at that moment,
using PortAudio's DAC time of each buffer, so a count-in lands on its beat no
matter how the callbacks fall.

Times handed back (`play`, `count_in`) are seconds after the call at which
the sound leaves the device's output (PortAudio's output latency included).
What the speaker-to-microphone path adds on top is the loopback latency that
`beattrainer calibrate` measures.
"""
from __future__ import annotations

import json
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import numpy as np

NAMES = ("squeaker", "buzzer", "cheer", "click", "count_in")
PREFERRED_SR = 16000          # [Hz] the sounds' own rate; used when the device takes it
SAFETY_S = 0.03               # [s] a scheduled sound starts at least this after the next buffer
AHEAD_LIMIT_S = 0.25          # [s] a device running this far ahead of the wall clock has no
                              # clock of its own (a null sink): the callback then paces itself
INDEX_NAME = "index.json"


@dataclass(frozen=True)
class Sound:
    """A decoded feedback sound: mono float32 samples and where its onset lies [s]."""

    name: str
    samples: np.ndarray
    sr: int
    onset_s: float


def feedback_dir() -> Path:
    """The bundled folder of feedback sounds (`sounds/feedback`)."""
    from beattrainer.resources import sounds_dir

    return sounds_dir() / "feedback"


def load_sounds(folder: str | Path | None = None, sr: int = PREFERRED_SR) -> dict[str, Sound]:
    """Read every feedback sound of `folder` at rate `sr` (raises OSError or ValueError)."""
    from beattrainer.audio import AudioError, read_audio

    folder = Path(folder) if folder is not None else feedback_dir()
    index = json.loads((folder / INDEX_NAME).read_text(encoding="utf-8"))
    sounds = {}
    for name in NAMES:
        row = index["sounds"][name]
        try:
            samples, _ = read_audio(folder / row["file"], sr=sr)
        except AudioError as exc:
            raise ValueError(str(exc)) from None
        sounds[name] = Sound(name, samples, sr, float(row["onset_s"]))
    return sounds


def count_in_samples(solo: np.ndarray, period_s: float, sr: int) -> np.ndarray:
    """Two solos one word period apart, as one buffer starting with the first solo.

    A solo longer than the period is cut at the period with a short fade, so
    the second solo starts exactly one period after the first.
    """
    period = int(round(period_s * sr))
    first = np.asarray(solo, dtype=np.float32)[:period].copy()
    fade = min(len(first), int(0.01 * sr))
    if len(solo) > period and fade:
        first[-fade:] *= np.linspace(1.0, 0.0, fade, dtype=np.float32)
    out = np.zeros(period + len(solo), dtype=np.float32)
    out[: len(first)] = first
    out[period:] += solo
    return out


class Mixer:
    """Sums scheduled sounds into output buffers (pure numpy; the callback's only work).

    A sound is added with the device time at which its first sample should
    sound (None: as soon as possible). `render()` is given each buffer's
    device time and places every sound at the right sample of it.
    """

    def __init__(self, sr: int) -> None:
        self.sr = int(sr)
        self._incoming: deque = deque()   # thread-safe hand-over from play()
        self._voices: list[list] = []      # [samples, position or None, start_time]
        self.late_s = 0.0                  # worst lateness of a scheduled start so far

    def add(self, samples: np.ndarray, start_time_s: float | None) -> None:
        """Schedule `samples` (mono float32 at `sr`) for device time `start_time_s`."""
        self._incoming.append((np.asarray(samples, dtype=np.float32), start_time_s))

    @property
    def busy(self) -> bool:
        """True while a sound is scheduled or playing."""
        return bool(self._incoming or self._voices)

    def render(self, n_frames: int, dac_time_s: float) -> np.ndarray:
        """The next `n_frames` output samples; the first one sounds at `dac_time_s`."""
        while self._incoming:
            samples, start = self._incoming.popleft()
            self._voices.append([samples, None, start])
        out = np.zeros(n_frames, dtype=np.float32)
        keep = []
        for voice in self._voices:
            samples, position, start = voice
            offset = 0
            if position is None:
                wait = 0 if start is None else int(round((start - dac_time_s) * self.sr))
                if wait >= n_frames:
                    keep.append(voice)
                    continue
                if wait < 0 and start is not None:
                    self.late_s = max(self.late_s, -wait / self.sr)
                offset, position = max(wait, 0), 0
            chunk = samples[position:position + n_frames - offset]
            out[offset:offset + len(chunk)] += chunk
            voice[1] = position + len(chunk)
            if voice[1] < len(samples):
                keep.append(voice)
        self._voices = keep
        np.clip(out, -1.0, 1.0, out=out)
        return out


class SoundPlayer:
    """Plays the feedback sounds without blocking; silent when there is no output.

    Attributes
    ----------
    available : bool
        False when nothing can be played; every method is then a harmless no-op.
    note : str or None
        Why the sounds are off, one line for the user (None when available).
    device_name : str or None
    sr : int
        Output rate [Hz].
    latency_s : float
        The output latency PortAudio reports [s].
    """

    def __init__(self, note: str | None = None) -> None:
        self.available = False
        self.note = note
        self.device_name: str | None = None
        self.sr = PREFERRED_SR
        self.latency_s = 0.0
        self.sounds: dict[str, Sound] = {}
        self._stream = None
        self._mixer: Mixer | None = None
        self._frames_done = 0
        self._first_wall_s: float | None = None

    # ---------------------------------------------------------------- opening

    @classmethod
    def off(cls, reason: str) -> SoundPlayer:
        """A silent player; `note` reads "sounds are off: <reason>"."""
        return cls(f"sounds are off: {reason}")

    @classmethod
    def open(cls, device: int | str | None = None,
             folder: str | Path | None = None) -> SoundPlayer:
        """Open the output `device` (index, part of a name, or None for the default).

        Never raises: on any problem the returned player is silent and its
        `note` gives the reason.
        """
        try:
            return cls._open(device, folder)
        except Exception as exc:  # noqa: BLE001 - sounds must never stop the game
            return cls.off(f"cannot play sounds ({_first_line(exc)})")

    @classmethod
    def _open(cls, device, folder) -> SoundPlayer:
        try:
            sd = _import_sounddevice()
        except OSError:
            return cls.off("the PortAudio library is missing (install libportaudio2)")
        except ImportError:
            return cls.off("the sounddevice package is not installed")
        try:
            devices = sd.query_devices()
            default_out = sd.default.device[1]
        except Exception as exc:  # noqa: BLE001 - PortAudioError
            return cls.off(f"no audio output device ({_first_line(exc)})")
        index, problem = find_output_device(device, devices, default_out)
        if index is None:
            return cls.off(problem)
        player = cls()
        player.device_name = str(devices[index]["name"])
        rates = [PREFERRED_SR, int(devices[index]["default_samplerate"] or PREFERRED_SR)]
        error = None
        for rate in dict.fromkeys(rates):
            try:
                player._start(sd, index, rate)
                error = None
                break
            except Exception as exc:  # noqa: BLE001 - PortAudioError: rate not supported etc.
                error = exc
        if error is not None:
            return cls.off(f"cannot open output device '{player.device_name}' "
                           f"({_first_line(error)})")
        try:
            player.sounds = load_sounds(folder, sr=player.sr)
        except (OSError, ValueError, KeyError) as exc:
            player.close()
            return cls.off(f"the feedback sounds are missing or broken ({_first_line(exc)}; "
                           "run scripts/make_feedback_sounds.py)")
        player.available = True
        return player

    def _start(self, sd, index: int, rate: int) -> None:
        self.sr = int(rate)
        self._mixer = Mixer(self.sr)
        stream = sd.OutputStream(device=index, channels=1, samplerate=self.sr,
                                 dtype="float32", callback=self._callback)
        stream.start()
        self._stream = stream
        self.latency_s = float(getattr(stream, "latency", 0.0) or 0.0)

    # ---------------------------------------------------------------- the callback

    def _callback(self, outdata, frames, time_info, status) -> None:
        # Real-time thread: mix, note the clock, nothing else may happen here.
        try:
            dac = float(getattr(time_info, "outputBufferDacTime", 0.0) or 0.0)
            if dac <= 0.0:  # a host API without timing: assume the nominal latency
                dac = self._stream_time() + self.latency_s
            outdata[:, 0] = self._mixer.render(frames, dac)
            self._frames_done += frames
            self._pace()
        except Exception:  # noqa: BLE001 - an exception here would be swallowed anyway
            outdata.fill(0)

    def _pace(self) -> None:
        """Sleep when the device consumes faster than real time (no hardware clock)."""
        wall = time.monotonic()
        if self._first_wall_s is None:
            self._first_wall_s = wall
        ahead_s = self._frames_done / self.sr - (wall - self._first_wall_s)
        if ahead_s > self.latency_s + AHEAD_LIMIT_S:
            time.sleep(ahead_s - self.latency_s - AHEAD_LIMIT_S / 2)

    def _stream_time(self) -> float:
        stream = self._stream
        try:
            return float(stream.time) if stream is not None else time.monotonic()
        except Exception:  # noqa: BLE001 - a closed stream
            return time.monotonic()

    # ---------------------------------------------------------------- playing

    def play(self, name: str, delay_s: float = 0.0) -> float | None:
        """Start the sound `name` (see `NAMES`) now, or with its onset `delay_s` after the call.

        Returns when its onset leaves the output, in seconds after the call
        (None when the player is silent). Never blocks.
        """
        if name not in NAMES:
            raise ValueError(f"unknown sound {name!r} (known: {', '.join(NAMES)})")
        if not self.available:
            return None
        sound = self.sounds[name]
        start = self._schedule(sound.samples, max(0.0, delay_s - sound.onset_s)
                               if delay_s > 0 else None)
        return None if start is None else start + sound.onset_s

    def play_samples(self, samples: np.ndarray, sr: int, delay_s: float = 0.0) -> float | None:
        """Play mono `samples` at rate `sr`, now or `delay_s` after the call.

        Returns when the first sample leaves the output, in seconds after the
        call (None when the player is silent).
        """
        if not self.available:
            return None
        samples = np.asarray(samples, dtype=np.float32).reshape(-1)
        if int(sr) != self.sr:
            from beattrainer.audio import resample

            samples = resample(samples, int(sr), self.sr)
        return self._schedule(samples, delay_s if delay_s > 0 else None)

    def count_in(self, period_s: float, start_delay_s: float = 0.3) -> float:
        """Speak the lead's two solo MIEZEKATZEs one word period apart (clicks if need be).

        Parameters
        ----------
        period_s : float
            Word period T [s]: the second solo starts this long after the first.
        start_delay_s : float
            When the first solo should start, after the call [s]; moved later if
            the output cannot make it (its latency).

        Returns
        -------
        float
            When the first solo's onset leaves the output, in seconds after the
            call; `start_delay_s` when the player is silent.
        """
        if period_s <= 0:
            raise ValueError("the word period must be positive")
        if not self.available:
            return float(start_delay_s)
        solo = self.sounds.get("count_in") or self.sounds["click"]
        buffer = count_in_samples(solo.samples, period_s, self.sr)
        earliest_s = self.latency_s + SAFETY_S + solo.onset_s
        first_onset_s = max(float(start_delay_s), earliest_s)
        start = self._schedule(buffer, first_onset_s - solo.onset_s)
        return first_onset_s if start is None else start + solo.onset_s

    def _schedule(self, samples: np.ndarray, delay_s: float | None) -> float | None:
        """Hand `samples` to the mixer; when they will sound [s after the call]."""
        if self._mixer is None:
            return None
        if delay_s is None:
            self._mixer.add(samples, None)
            return self.latency_s
        # Buffers carry their DAC time in the stream's clock: schedule in that clock.
        self._mixer.add(samples, self._stream_time() + delay_s)
        return delay_s

    @property
    def busy(self) -> bool:
        """True while something is scheduled or playing."""
        return self._mixer is not None and self._mixer.busy

    def wait(self, timeout_s: float = 5.0) -> None:
        """Block until everything scheduled has been played (or `timeout_s` passed)."""
        deadline = time.monotonic() + timeout_s
        while self.available and self.busy and time.monotonic() < deadline:
            time.sleep(0.01)

    def close(self) -> None:
        """Stop and close the output (idempotent); the player is silent afterwards."""
        stream, self._stream = self._stream, None
        self.available = False
        if stream is not None:
            try:
                stream.stop()
                stream.close()
            except Exception:  # noqa: BLE001 - a vanished device must not raise here
                pass

    def __enter__(self) -> SoundPlayer:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


def find_output_device(device: int | str | None, devices,
                       default_index: int = -1) -> tuple[int | None, str]:
    """Pick an output device index from a `sounddevice.query_devices()` list.

    Returns (index, "") or (None, reason) where reason is one line for the user.
    """
    outputs = [(i, d) for i, d in enumerate(devices) if d["max_output_channels"] > 0]
    if not outputs:
        return None, "no audio output device"
    if device is None:
        if any(i == default_index for i, _ in outputs):
            return int(default_index), ""
        for i, d in outputs:
            if d["name"] in ("default", "sysdefault", "pulse", "pipewire"):
                return i, ""
        return outputs[0][0], ""
    if isinstance(device, int) or str(device).strip().isdigit():
        index = int(device)
        if any(i == index for i, _ in outputs):
            return index, ""
        return None, f"no output device with index {index}"
    matches = [i for i, d in outputs if str(device).lower() in str(d["name"]).lower()]
    if len(matches) == 1:
        return matches[0], ""
    exact = [i for i in matches if str(devices[i]["name"]).lower() == str(device).lower()]
    if len(exact) == 1:
        return exact[0], ""
    return None, f"no single output device matches '{device}'"


def _import_sounddevice():
    """Import sounddevice (OSError without PortAudio, ImportError without the package)."""
    import sounddevice

    return sounddevice


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]
