#!/usr/bin/env python
"""Build the feedback sounds in sounds/feedback/ (run from the checkout).

    /work/venv/bin/python scripts/make_feedback_sounds.py [--out sounds/feedback]

Writes squeaker, buzzer, cheer, click and count_in as 16 kHz mono Ogg/Vorbis
files plus `index.json` (duration and true onset of every sound, measured
with `beattrainer.synth.truth`, so the player can put a
sound's onset exactly on a beat). Everything but `count_in` is synthesised
with a seeded numpy generator; `count_in` is one spoken MIEZEKATZE from the
clip library (`sounds/clips/`), the lead's solo the trainer can speak itself.
Re-running the script gives the same sounds (the same decoded samples; the
Ogg container's stream serial number is random, so the bytes differ).

The click keeps its energy above `CLICK_LOW_HZ`: speech below that band stays
untouched, so calibration (and a referee listening during a metronome) can
low-pass the microphone and not hear the metronome at all.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import soundfile as sf
from scipy import signal

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from beattrainer.synth.clips import ClipLibrary  # noqa: E402
from beattrainer.synth.truth import true_onset_s  # noqa: E402

SR = 16000
SEED = 20240611
VORBIS_QUALITY = 0.3
PEAK_DBFS = -3.0             # every sound is peak-normalised to this
CLICK_LOW_HZ = 4500.0        # [Hz] the click has (almost) no energy below this
COUNT_IN_CLIP = "c0000"      # de-m1, normal speed: a clear MIEZEKATZE
NAMES = ("squeaker", "buzzer", "cheer", "click", "count_in")


def _time(duration_s: float) -> np.ndarray:
    return np.arange(int(round(duration_s * SR))) / SR


def _fade(x: np.ndarray, in_s: float, out_s: float) -> np.ndarray:
    """Raised-cosine fades at both ends (no clicks at the edges)."""
    x = x.copy()
    n_in, n_out = int(in_s * SR), int(out_s * SR)
    if n_in:
        x[:n_in] *= 0.5 - 0.5 * np.cos(np.linspace(0, np.pi, n_in))
    if n_out:
        x[-n_out:] *= 0.5 + 0.5 * np.cos(np.linspace(0, np.pi, n_out))
    return x


def _normalise(x: np.ndarray, peak_dbfs: float = PEAK_DBFS) -> np.ndarray:
    return (x / np.max(np.abs(x)) * 10 ** (peak_dbfs / 20)).astype(np.float32)


def _bandlimited_saw(f0_hz: np.ndarray, max_hz: float = 4000.0) -> np.ndarray:
    """Sawtooth with a time-varying pitch, summed from harmonics below `max_hz` (no aliasing)."""
    phase = 2 * np.pi * np.cumsum(f0_hz) / SR
    out = np.zeros_like(phase)
    for k in range(1, int(max_hz / np.min(f0_hz)) + 1):
        audible = (k * f0_hz < max_hz).astype(float)
        out += audible * np.sin(k * phase) / k
    return out


def squeaker(rng: np.random.Generator) -> np.ndarray:
    """A rubber squeak toy squeezed and released: two short gliding squeaks."""
    parts = []
    for start_hz, peak_hz, dur_s in ((1150.0, 1650.0, 0.16), (1050.0, 1400.0, 0.13)):
        t = _time(dur_s)
        shape = np.sin(np.pi * t / dur_s) ** 0.7            # up then down
        f0 = start_hz + (peak_hz - start_hz) * shape
        f0 *= 1 + 0.015 * np.sin(2 * np.pi * 38 * t)        # air flutter
        phase = 2 * np.pi * np.cumsum(f0) / SR
        tone = np.sin(phase) + 0.35 * np.sin(2 * phase) + 0.12 * np.sin(3 * phase)
        b, a = signal.butter(2, [900 / (SR / 2), 3500 / (SR / 2)], btype="band")
        breath = signal.lfilter(b, a, rng.standard_normal(len(t))) * 0.25
        env = np.minimum(1.0, t / 0.012) * np.exp(-t / (dur_s * 0.9))
        parts += [_fade((tone + breath) * env, 0.002, 0.02), np.zeros(int(0.07 * SR))]
    return _normalise(np.concatenate([np.zeros(int(0.01 * SR))] + parts[:-1]))


def buzzer(rng: np.random.Generator) -> np.ndarray:
    """A clearly wrong game-show buzzer: two rough, low, slightly falling buzzes."""
    parts = []
    for f0_hz, dur_s in ((116.0, 0.22), (104.0, 0.48)):
        t = _time(dur_s)
        f0 = f0_hz * (1 - 0.04 * t / dur_s)
        # two detuned saws beat against each other: the rasp of a real buzzer
        tone = _bandlimited_saw(f0) + 0.8 * _bandlimited_saw(f0 * 1.03)
        tone = np.tanh(1.8 * tone / np.max(np.abs(tone)))  # a little overdrive
        b, a = signal.butter(2, [150 / (SR / 2), 2500 / (SR / 2)], btype="band")
        tone = signal.lfilter(b, a, tone) + 0.02 * rng.standard_normal(len(t))
        parts += [_fade(tone, 0.006, 0.03), np.zeros(int(0.06 * SR))]
    return _normalise(np.concatenate([np.zeros(int(0.01 * SR))] + parts[:-1]))


def _clap(rng: np.random.Generator) -> np.ndarray:
    """One hand clap: a noise burst through a random resonance, decaying in ~10 ms."""
    t = _time(0.06)
    centre_hz = rng.uniform(800, 2600)
    q = rng.uniform(1.5, 3.5)
    b, a = signal.iirpeak(centre_hz / (SR / 2), q)
    burst = signal.lfilter(b, a, rng.standard_normal(len(t)))
    return burst * np.exp(-t / rng.uniform(0.005, 0.013))


def _yay(rng: np.random.Generator, f0_start_hz: float, onset_s: float,
         total_s: float) -> np.ndarray:
    """A distant "yay!": a glottal buzz gliding up through /e/-like formants."""
    out = np.zeros(int(total_s * SR))
    dur_s = rng.uniform(0.45, 0.65)
    t = _time(dur_s)
    f0 = f0_start_hz * (1 + 0.35 * np.sin(np.pi * t / dur_s * 0.7))
    f0 *= 1 + 0.01 * np.sin(2 * np.pi * 5.5 * t)             # vibrato
    source = _bandlimited_saw(f0) + 0.3 * rng.standard_normal(len(t))
    voice = np.zeros_like(source)
    for formant_hz, gain in ((650, 1.0), (1900, 0.6), (2700, 0.3)):
        b, a = signal.iirpeak(formant_hz / (SR / 2), 6.0)
        voice += gain * signal.lfilter(b, a, source)
    voice = _fade(voice, 0.05, 0.2)
    start = int(onset_s * SR)
    end = min(len(out), start + len(voice))
    out[start:end] = voice[: end - start]
    return out / np.max(np.abs(out))


def cheer(rng: np.random.Generator) -> np.ndarray:
    """A small crowd's applause burst with a couple of distant cheers."""
    total_s = 1.6
    out = np.zeros(int(total_s * SR))
    for _ in range(9):                                       # nine clappers
        rate_hz = rng.uniform(3.5, 5.5)
        when_s = rng.uniform(0.0, 0.15)
        loudness = rng.uniform(0.5, 1.0)
        while when_s < total_s - 0.1:
            clap = _clap(rng) * loudness * rng.uniform(0.7, 1.0)
            start = int(when_s * SR)
            out[start:start + len(clap)] += clap[: len(out) - start]
            when_s += rng.normal(1 / rate_hz, 0.02 / rate_hz)
    t = _time(total_s)
    swell = np.minimum(1.0, t / 0.12) * np.where(t > 0.8, np.exp(-(t - 0.8) / 0.3), 1.0)
    out = out / np.max(np.abs(out)) * swell
    cheers = _yay(rng, 260.0, 0.08, total_s) + 0.8 * _yay(rng, 190.0, 0.2, total_s)
    return _normalise(_fade(out + 0.22 * cheers, 0.003, 0.25))


def click(rng: np.random.Generator) -> np.ndarray:
    """A crisp metronome tick with its energy above `CLICK_LOW_HZ`.

    Mostly a very short noise burst: broadband, so its autocorrelation has one
    narrow peak and the loopback calibration can time it to a fraction of a
    millisecond; a faint ring gives it a wooden colour.
    """
    t = _time(0.03)
    ring = (np.sin(2 * np.pi * 5200 * t) + 0.7 * np.sin(2 * np.pi * 6300 * t + 1.0)) \
        * np.exp(-t / 0.003)
    tick = rng.standard_normal(len(t)) * np.exp(-t / 0.0015)
    x = 0.25 * ring + tick
    b, a = signal.butter(6, CLICK_LOW_HZ / (SR / 2), btype="high")
    x = signal.lfilter(b, a, np.concatenate([np.zeros(int(0.005 * SR)), x, np.zeros(160)]))
    return _normalise(_fade(x, 0.0, 0.005))


def count_in(library: ClipLibrary) -> np.ndarray:
    """One spoken MIEZEKATZE (the lead's solo), trimmed to a short pre-roll."""
    clip = library.get(COUNT_IN_CLIP)
    x = np.asarray(library.audio(clip), dtype=np.float64)
    start = max(0, int((clip.onset_s - 0.02) * SR))
    return _normalise(_fade(x[start:], 0.0, 0.03))


def build(out_dir: Path) -> dict:
    """Write every sound and the index; return the index."""
    rng = np.random.default_rng(SEED)
    library = ClipLibrary.load()
    makers = {"squeaker": squeaker, "buzzer": buzzer, "cheer": cheer, "click": click}
    out_dir.mkdir(parents=True, exist_ok=True)
    index = {"schema": "beattrainer.feedback-sounds/1", "sample_rate": SR, "sounds": {}}
    for name in NAMES:
        samples = count_in(library) if name == "count_in" else makers[name](rng)
        path = out_dir / f"{name}.ogg"
        sf.write(str(path), np.clip(samples, -1, 1), SR, subtype="VORBIS",
                 compression_level=1 - VORBIS_QUALITY)
        # The onset is measured before encoding: Vorbis keeps the timing to the
        # sample but smears a little pre-echo ahead of sharp attacks.
        index["sounds"][name] = {
            "file": path.name,
            "duration_s": round(sf.info(str(path)).frames / SR, 5),
            "onset_s": round(true_onset_s(samples, SR) or 0.0, 5),
        }
    (out_dir / "index.json").write_text(json.dumps(index, indent=1) + "\n", encoding="utf-8")
    return index


def main() -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    root = Path(__file__).resolve().parent.parent
    parser.add_argument("--out", type=Path, default=root / "sounds" / "feedback")
    args = parser.parse_args()
    index = build(args.out)
    for name, row in index["sounds"].items():
        size_kb = (args.out / row["file"]).stat().st_size / 1024
        print(f"{name:9s} {row['duration_s']:.2f} s  onset {row['onset_s'] * 1000:5.1f} ms  "
              f"{size_kb:.1f} KB")


if __name__ == "__main__":
    main()
