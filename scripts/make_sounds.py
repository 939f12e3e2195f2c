#!/usr/bin/env python
"""Build the voice-clip and effect library in sounds/clips/ (run from the checkout).

    /work/venv/bin/python scripts/make_sounds.py [--out sounds/clips]

Voices come from espeak-ng (German and English, several variants, speeds and
pitches); non-verbal sounds and percussion are synthesised with a seeded numpy
generator. Every clip's true onset and syllable onsets are measured on the
decoded audio with `beattrainer.synth.truth` and written to `index.json`.
Clips of one voice are stored back to back in one Ogg/Vorbis file per voice
(16 kHz mono) so the committed library stays small. Re-running the script
gives the same clips (espeak-ng is deterministic, the effects are seeded).
"""
from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import soundfile as sf
import soxr
from scipy import signal

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from beattrainer.synth.truth import (  # noqa: E402
    ENERGY_WINDOW_S,
    ONSET_THRESHOLD_DB,
    short_time_energy,
    syllable_onsets_s,
    true_onset_index,
)

SR = 16000
SEED = 20240607
GAP_S = 0.25                 # [s] silence between clips inside one voice file
PRE_ROLL_S = 0.03            # [s] silence kept before each clip's onset
TAIL_DB = -45.0              # [dB] a clip ends where its energy stays below this
VOICE_RMS_DBFS = -20.0       # active-level normalisation of voice clips
PERCUSSION_PEAK_DBFS = -3.0  # peak normalisation of percussive effects
DIP_THRESHOLDS_DB = (6.0, 9.0, 12.0, 4.5, 15.0)  # tried in order until the syllable count fits
VORBIS_QUALITY = 0.5


@dataclass(frozen=True)
class Voice:
    """One espeak-ng voice of the library."""

    id: str
    espeak: str        # voice+variant passed to -v
    language: str      # "de" or "en"
    pitch: int         # espeak -p (0-99) of the voice's normal speech
    split: str         # "train" or "test" (held out: no tuning may use it)
    whisper: bool = False


VOICES = (
    Voice("de-m1", "de", "de", 45, "train"),
    Voice("de-m3", "de+m3", "de", 40, "train"),
    Voice("de-f2", "de+f2", "de", 55, "train"),
    Voice("de-klatt", "de+klatt", "de", 50, "train"),
    Voice("de-annie", "de+Annie", "de", 60, "train"),
    Voice("de-grandpa", "de+grandpa", "de", 35, "train"),
    Voice("en-f3", "en+f3", "en", 55, "train"),
    Voice("en-m2", "en-us+m2", "en", 45, "train"),
    Voice("de-whisper", "de+whisper", "de", 50, "train", whisper=True),
    # held out for benchmarks: never used to tune detectors or recognisers
    Voice("de-m7", "de+m7", "de", 42, "test"),
    Voice("de-f4", "de+f4", "de", 58, "test"),
    Voice("en-andy", "en+Andy", "en", 48, "test"),
    Voice("en-whisperf", "en+whisperf", "en", 55, "test", whisper=True),
)

MZKZ_PHONEMES = "[[m'i:tse:k,ats@]]"  # German "Miezekatze" for every voice language


@dataclass(frozen=True)
class Word:
    """A label, its spoken text per language and its syllable count."""

    label: str
    text: dict[str, str]
    syllables: int
    speed_factor: float = 1.0  # drawn-out words are spoken slower


WORDS = (
    Word("YEAH", {"de": "[[j'E@]]", "en": "yeah"}, 1),
    Word("YO", {"de": "[[j'o:]]", "en": "yo"}, 1),
    Word("BAM", {"de": "Bamm", "en": "bam"}, 1),
    Word("WOW", {"de": "Wau", "en": "wow"}, 1),
    Word("BUUUH", {"de": "[[b'u::]]", "en": "[[b'u::]]"}, 1, 0.7),
    Word("DING DONG", {"de": "Ding Dong", "en": "ding dong"}, 2),
    Word("AAAH", {"de": "[[a::]]", "en": "[[a::]]"}, 1, 0.7),
    Word("OOOH", {"de": "[[o::]]", "en": "[[oU::]]"}, 1, 0.7),
    Word("MIAU", {"de": "[[m'i::aU::]]", "en": "[[m'i::aU::]]"}, 2, 0.6),
    Word("WUIKKIWUIKKI", {"de": "Wicki Wicki", "en": "wicky wicky"}, 4),
    Word("WAVING CAT", {"de": "Weewing Kätt", "en": "waving cat"}, 3),
    Word("WINKEKATZE", {"de": "Winkekatze", "en": "[[v'INk@k,ats@]]"}, 4),
)

NAMES = (
    Word("ANNA", {"de": "Anna", "en": "Anna"}, 2),
    Word("BEN", {"de": "Ben", "en": "Ben"}, 1),
    Word("CEM", {"de": "[[dZ'Em]]", "en": "[[dZ'Em]]"}, 1),
    Word("JÖRG", {"de": "Jörg", "en": "[[j'9rk]]"}, 1),
    Word("SIOBHAN", {"de": "[[S'Ivo:n]]", "en": "Shivawn"}, 2),
    Word("MEI", {"de": "[[m'eI]]", "en": "[[m'eI]]"}, 1),
)

MZKZ_SPEEDS = (125, 155, 185, 215)  # [words per minute] normal MIEZEKATZE variants
WORD_SPEEDS = (150, 190)
SLOW_SPEED = 80
HIGH_PITCH = 99


@dataclass
class Clip:
    """A clip being built: samples plus the index fields known so far."""

    samples: np.ndarray
    meta: dict
    syllables: int
    dip_db: float | None = None


# ---------------------------------------------------------------- espeak voices

def espeak(text: str, voice: Voice, speed: int, pitch: int) -> np.ndarray:
    """Synthesise `text` with espeak-ng; mono float32 at SR."""
    cmd = ["espeak-ng", "-v", voice.espeak, "-s", str(speed), "-p", str(pitch), "--stdout", text]
    wav = subprocess.run(cmd, capture_output=True, check=True).stdout
    data, sr = sf.read(io.BytesIO(wav), dtype="float32")
    return soxr.resample(data, sr, SR, quality="HQ").astype(np.float32)


def voice_items(voice: Voice) -> list[tuple[str, str, int, int, str | None, int]]:
    """(label, text, speed, pitch, modifier, syllables) of everything one voice says."""
    items = []
    mzkz_mod = "whisper" if voice.whisper else None
    for speed in MZKZ_SPEEDS:
        items.append(("MIEZEKATZE", MZKZ_PHONEMES, speed, voice.pitch, mzkz_mod, 4))
    if not voice.whisper:
        items.append(("MIEZEKATZE", MZKZ_PHONEMES, SLOW_SPEED, voice.pitch, "slow", 4))
        items.append(("MIEZEKATZE", MZKZ_PHONEMES, 165, HIGH_PITCH, "high", 4))
    for word in WORDS + NAMES:
        for speed in WORD_SPEEDS:
            items.append((word.label, word.text[voice.language], int(speed * word.speed_factor),
                          voice.pitch, mzkz_mod, word.syllables))
    return items


def build_voice_clips(voice: Voice) -> list[Clip]:
    """Synthesise, trim and normalise every clip of one voice; drop miscounted ones."""
    clips = []
    for label, text, speed, pitch, modifier, syllables in voice_items(voice):
        samples = normalise_rms(trim(espeak(text, voice, speed, pitch)), VOICE_RMS_DBFS)
        dip_db = fitting_dip_threshold(samples, syllables)
        if dip_db is None:
            print(f"  drop {voice.id} {label} speed {speed}: syllable count != {syllables}")
            continue
        meta = {
            "label": label, "text": text, "kind": "voice", "voice": voice.id,
            "language": voice.language, "espeak_voice": voice.espeak, "speed_wpm": speed,
            "pitch": pitch, "modifier": modifier, "split": voice.split,
        }
        clips.append(Clip(samples, meta, syllables, dip_db))
    return clips


# ---------------------------------------------------------------- effects (seeded numpy)

def envelope(n: int, attack_s: float, decay_s: float) -> np.ndarray:
    """Linear attack then exponential decay over n samples."""
    t = np.arange(n) / SR
    attack = np.clip(t / max(attack_s, 1e-4), 0.0, 1.0)
    return attack * np.exp(-np.maximum(t - attack_s, 0.0) / decay_s)


def bandpass(x: np.ndarray, low_hz: float, high_hz: float, order: int = 4) -> np.ndarray:
    """Butterworth band-pass (zero-phase would smear the onset backwards, so causal)."""
    sos = signal.butter(order, [low_hz, high_hz], btype="bandpass", fs=SR, output="sos")
    return signal.sosfilt(sos, x)


def lowpass(x: np.ndarray, cutoff_hz: float, order: int = 4) -> np.ndarray:
    """Causal Butterworth low-pass."""
    sos = signal.butter(order, cutoff_hz, btype="lowpass", fs=SR, output="sos")
    return signal.sosfilt(sos, x)


def silence_s(duration_s: float) -> np.ndarray:
    """Zeros of the given duration."""
    return np.zeros(int(round(duration_s * SR)))


def make_hiss(rng: np.random.Generator) -> np.ndarray:
    """A cat's hiss: high-passed noise with a fast swell and a long fade."""
    n = int(rng.uniform(0.45, 0.7) * SR)
    noise = bandpass(rng.standard_normal(n), rng.uniform(2200, 3000), 7000)
    t = np.arange(n) / SR
    shape = np.clip(t / 0.04, 0, 1) * np.clip((t[-1] - t) / 0.15, 0, 1)
    return noise * shape


def make_shh(rng: np.random.Generator) -> np.ndarray:
    """An unvoiced SHH: noise shaped around the /S/ band (2-4.5 kHz)."""
    n = int(rng.uniform(0.4, 0.65) * SR)
    noise = bandpass(rng.standard_normal(n), rng.uniform(1700, 2200), rng.uniform(4000, 5000))
    t = np.arange(n) / SR
    return noise * np.clip(t / 0.06, 0, 1) * np.clip((t[-1] - t) / 0.12, 0, 1)


def make_kiss(rng: np.random.Generator) -> np.ndarray:
    """A kiss: a sharp lip smack (band-passed click) with a short squeaky tail."""
    n = int(0.12 * SR)
    t = np.arange(n) / SR
    smack = bandpass(rng.standard_normal(n), 900, 4500) * envelope(n, 0.001, 0.006)
    tone = np.sin(2 * np.pi * rng.uniform(1800, 2600) * t) * envelope(n, 0.004, 0.02) * 0.4
    return smack + tone


def make_zombie(rng: np.random.Generator) -> np.ndarray:
    """A zombie growl: a rough, low sawtooth voice with wobbling pitch."""
    n = int(rng.uniform(0.6, 0.9) * SR)
    t = np.arange(n) / SR
    f0 = rng.uniform(75, 110) * (1 + 0.08 * np.sin(2 * np.pi * rng.uniform(3, 6) * t))
    f0 = f0 * (1 + 0.03 * lowpass(rng.standard_normal(n), 40) * 10)
    phase = np.cumsum(f0) / SR
    saw = 2 * (phase % 1.0) - 1
    rough = 1 + 0.5 * np.sin(2 * np.pi * rng.uniform(25, 35) * t)
    growl = lowpass(saw * rough, 1800) + 0.05 * bandpass(rng.standard_normal(n), 300, 3000)
    return growl * np.clip(t / 0.05, 0, 1) * np.clip((t[-1] - t) / 0.15, 0, 1)


def make_squeak(rng: np.random.Generator) -> np.ndarray:
    """A rubber squeaker: a rising tone with harmonics."""
    n = int(rng.uniform(0.15, 0.3) * SR)
    t = np.arange(n) / SR
    f = np.linspace(rng.uniform(1500, 1900), rng.uniform(2300, 2900), n)
    phase = 2 * np.pi * np.cumsum(f) / SR
    tone = np.sin(phase) + 0.4 * np.sin(2 * phase) + 0.2 * np.sin(3 * phase)
    return tone * np.clip(t / 0.008, 0, 1) * np.clip((t[-1] - t) / 0.03, 0, 1)


def make_clap(rng: np.random.Generator) -> np.ndarray:
    """A hand clap: a few micro-bursts of band-passed noise within 10 ms."""
    n = int(0.15 * SR)
    out = np.zeros(n)
    for k, offset_s in enumerate(np.sort(rng.uniform(0, 0.01, 3))):
        start = int(offset_s * SR) if k else 0
        m = n - start
        out[start:] += rng.uniform(0.5, 1.0) * rng.standard_normal(m) * envelope(m, 0.0005, 0.012)
    return bandpass(out, rng.uniform(700, 1100), rng.uniform(2500, 3500))


def make_slap(rng: np.random.Generator) -> np.ndarray:
    """A high-five slap: a broader, slightly longer clap."""
    n = int(0.18 * SR)
    return bandpass(rng.standard_normal(n) * envelope(n, 0.0005, 0.025), 400, 4000)


def make_table(rng: np.random.Generator) -> np.ndarray:
    """A fist on a table: a low wooden thump plus a short knock."""
    n = int(0.25 * SR)
    t = np.arange(n) / SR
    thump = np.sin(2 * np.pi * rng.uniform(90, 150) * t) * envelope(n, 0.001, 0.06)
    knock = bandpass(rng.standard_normal(n), 400, 2500) * envelope(n, 0.0005, 0.008) * 0.6
    return thump + knock


def make_stamp(rng: np.random.Generator) -> np.ndarray:
    """A foot stamp: a deep thud with floor rumble."""
    n = int(0.3 * SR)
    t = np.arange(n) / SR
    thud = np.sin(2 * np.pi * rng.uniform(50, 80) * t) * envelope(n, 0.002, 0.09)
    rumble = lowpass(rng.standard_normal(n), 600) * envelope(n, 0.001, 0.03) * 0.8
    return thud + rumble


def make_snap(rng: np.random.Generator) -> np.ndarray:
    """A finger snap: a very short broadband crack with a bright ring."""
    n = int(0.08 * SR)
    t = np.arange(n) / SR
    crack = rng.standard_normal(n) * envelope(n, 0.0002, 0.002)
    ring = np.sin(2 * np.pi * rng.uniform(2000, 3200) * t) * envelope(n, 0.0005, 0.012) * 0.5
    return bandpass(crack, 1000, 7000) + ring


def dice_click(rng: np.random.Generator, n: int) -> np.ndarray:
    """One hard plastic click of a die (resonant, a few ms)."""
    t = np.arange(n) / SR
    f = rng.uniform(3000, 6000)
    return np.sin(2 * np.pi * f * t) * envelope(n, 0.0002, 0.004) + \
        0.5 * rng.standard_normal(n) * envelope(n, 0.0002, 0.001)


def make_dice(rng: np.random.Generator) -> np.ndarray:
    """Two dice struck together: 2-4 clicks within 60 ms, the first loudest."""
    n = int(0.12 * SR)
    out = np.zeros(n)
    offsets = np.concatenate([[0.0], np.sort(rng.uniform(0.004, 0.06, rng.integers(1, 4)))])
    for k, offset_s in enumerate(offsets):
        start = int(offset_s * SR)
        out[start:] += (0.35 if k else 1.0) * dice_click(rng, n - start)
    return out


def make_dice_roll(rng: np.random.Generator) -> np.ndarray:
    """A die rolling on a table: clicks thinning out and fading over ~0.6 s."""
    duration_s = rng.uniform(0.5, 0.8)
    n = int(duration_s * SR)
    out = np.zeros(n)
    time_s = 0.0
    gap_s = 0.02
    level = 1.0
    while time_s < duration_s - 0.01:
        start = int(time_s * SR)
        out[start:] += level * dice_click(rng, n - start)
        time_s += gap_s * rng.uniform(0.6, 1.4)
        gap_s *= 1.15
        level *= 0.88
    return out


EFFECTS = {
    # label: (maker, kind, variants)
    "HISS": (make_hiss, "nonverbal", 4),
    "KISS": (make_kiss, "nonverbal", 4),
    "ZOMBIE": (make_zombie, "nonverbal", 4),
    "SHH": (make_shh, "nonverbal", 4),
    "SQUEAK": (make_squeak, "percussion", 4),
    "CLAP": (make_clap, "percussion", 6),
    "SLAP": (make_slap, "percussion", 4),
    "TABLE": (make_table, "percussion", 4),
    "STAMP": (make_stamp, "percussion", 4),
    "SNAP": (make_snap, "percussion", 4),
    "DICE": (make_dice, "percussion", 4),
    "DICE_ROLL": (make_dice_roll, "percussion", 3),
}


def build_effect_clips(rng: np.random.Generator) -> list[Clip]:
    """All synthesised effects; the last variant of each is held out as test-only."""
    clips = []
    for label, (maker, kind, variants) in EFFECTS.items():
        for variant in range(variants):
            raw = np.concatenate([silence_s(PRE_ROLL_S), maker(rng)])
            if kind == "percussion":
                samples = normalise_peak(raw, PERCUSSION_PEAK_DBFS)
            else:
                samples = normalise_rms(raw, VOICE_RMS_DBFS)
            meta = {
                "label": label, "text": None, "kind": kind, "voice": "synth",
                "language": None, "variant": variant, "modifier": None,
                "split": "test" if variant == variants - 1 else "train",
            }
            clips.append(Clip(samples.astype(np.float32), meta, 1, None))
    return clips


# ---------------------------------------------------------------- measuring and storing

def trim(samples: np.ndarray) -> np.ndarray:
    """Keep PRE_ROLL_S before the true onset and cut the silence after the sound."""
    energy = short_time_energy(samples, SR)
    onset = true_onset_index(energy)
    if onset is None:
        raise RuntimeError("espeak-ng produced silence")
    loud = np.flatnonzero(energy >= energy.max() * 10 ** (TAIL_DB / 10))
    end = min(len(samples), int(loud[-1]) + int(0.03 * SR))
    start = onset - int(PRE_ROLL_S * SR)
    clip = samples[max(start, 0):end]
    if start < 0:
        clip = np.concatenate([np.zeros(-start, dtype=np.float32), clip])
    return clip


def normalise_rms(samples: np.ndarray, target_dbfs: float) -> np.ndarray:
    """Scale so the RMS of the frames within 30 dB of the peak is `target_dbfs`."""
    energy = short_time_energy(samples, SR, 0.02)
    active = energy >= energy.max() * 1e-3
    rms = np.sqrt(np.mean(np.asarray(samples, dtype=np.float64)[active] ** 2))
    scaled = samples * (10 ** (target_dbfs / 20) / rms)
    peak = np.abs(scaled).max()
    return scaled * (0.9 / peak) if peak > 0.9 else scaled  # headroom for the Vorbis codec


def normalise_peak(samples: np.ndarray, target_dbfs: float) -> np.ndarray:
    """Scale so the absolute peak is `target_dbfs`."""
    return samples * (10 ** (target_dbfs / 20) / np.abs(samples).max())


def fitting_dip_threshold(samples: np.ndarray, syllables: int) -> float | None:
    """The first dip threshold that finds exactly `syllables` syllables, or None."""
    for dip_db in DIP_THRESHOLDS_DB:
        if len(syllable_onsets_s(samples, SR, dip_db)) == syllables:
            return dip_db
    return None


def write_group(clips: list[Clip], path: Path) -> list[tuple[Clip, int]]:
    """Write clips back to back with gaps into one Ogg file; return (clip, start_sample)."""
    gap = np.zeros(int(GAP_S * SR), dtype=np.float32)
    parts, starts, position = [gap], [], len(gap)
    for clip in clips:
        starts.append(position)
        parts += [clip.samples.astype(np.float32), gap]
        position += len(clip.samples) + len(gap)
    sf.write(str(path), np.concatenate(parts), SR, format="OGG", subtype="VORBIS")
    return list(zip(clips, starts))


def measure_decoded(clips_at: list[tuple[Clip, int]], path: Path, file_name: str,
                    next_id: int) -> list[dict]:
    """Measure onsets on the decoded file (what the renderer will load) and build index rows."""
    decoded, sr = sf.read(str(path), dtype="float32")
    assert sr == SR
    rows = []
    for clip, start in clips_at:
        samples = decoded[start:start + len(clip.samples)]
        dip_db = clip.dip_db if clip.dip_db is not None else DIP_THRESHOLDS_DB[0]
        syllable_onsets = syllable_onsets_s(samples, SR, dip_db) if clip.meta["kind"] == "voice" \
            else syllable_onsets_s(samples, SR, 1e9)[:1]
        if len(syllable_onsets) != clip.syllables:
            print(f"  drop after decoding: {clip.meta['voice']} {clip.meta['label']}")
            continue
        rows.append({
            "id": f"c{next_id + len(rows):04d}",
            **clip.meta,
            "file": file_name,
            "start_sample": start,
            "n_samples": len(clip.samples),
            "duration_s": round(len(clip.samples) / SR, 5),
            "onset_s": round(syllable_onsets[0], 5),
            "syllables": clip.syllables,
            "syllable_onsets_s": [round(x, 5) for x in syllable_onsets],
            "dip_db": clip.dip_db,
        })
    return rows


def compact_json(index: dict) -> str:
    """The index as JSON with one clip per line (small, yet diffable)."""
    head = {k: v for k, v in index.items() if k != "clips"}
    text = json.dumps(head, indent=1, ensure_ascii=False)[:-2]
    rows = ",\n  ".join(json.dumps(row, ensure_ascii=False) for row in index["clips"])
    return text + ',\n "clips": [\n  ' + rows + "\n ]\n}\n"


def main() -> None:
    """Build every group file and the index."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default_out = Path(__file__).resolve().parent.parent / "sounds" / "clips"
    parser.add_argument("--out", default=str(default_out))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows: list[dict] = []
    for voice in VOICES:
        print(f"voice {voice.id}")
        file_name = f"{voice.id}.ogg"
        clips_at = write_group(build_voice_clips(voice), out / file_name)
        rows += measure_decoded(clips_at, out / file_name, file_name, len(rows))
    print("effects")
    clips_at = write_group(build_effect_clips(np.random.default_rng(SEED)), out / "effects.ogg")
    rows += measure_decoded(clips_at, out / "effects.ogg", "effects.ogg", len(rows))
    index = {
        "schema": "beattrainer.clips/1",
        "sample_rate": SR,
        "onset_rule": {
            "energy_window_s": ENERGY_WINDOW_S,
            "threshold_db": ONSET_THRESHOLD_DB,
            "description": "first sample where the centred short-time energy reaches "
                           "threshold_db below the clip's (or syllable segment's) own peak",
        },
        "voices": [{"id": v.id, "espeak": v.espeak, "language": v.language,
                    "pitch": v.pitch, "split": v.split, "whisper": v.whisper} for v in VOICES],
        "clips": rows,
    }
    (out / "index.json").write_text(compact_json(index))
    print(f"{len(rows)} clips written to {out}")


if __name__ == "__main__":
    main()
