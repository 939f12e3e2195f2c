"""Fit the acoustic class model on the clip library's train voices.

Run `python -m beattrainer.recognize.training [--seed N]`; it writes
`models/acoustic-classes.json`. Test voices are never used. Slots are built
like the referee's (1-4 voices, SNR 10-30 dB of white+pink noise or babble
of train voices, random placement and level).
"""
from __future__ import annotations

import argparse
import json

import numpy as np

from beattrainer.recognize.acoustic import describe_slot
from beattrainer.recognize.classes import CLASS_MODEL_FILE, fit_class_model
from beattrainer.recognize.simulate import (
    SAMPLE_RATE,
    add_babble,
    add_noise,
    mix_voices,
    set_level,
)
from beattrainer.recognize.vocabulary import (
    CLICK,
    GROWL,
    HISS_CLASS,
    PERCUSSION,
    SHH_CLASS,
    SQUEAK,
    VOICE,
    WHISPERED,
)

EFFECT_CLASS = {"HISS": HISS_CLASS, "SHH": SHH_CLASS, "KISS": CLICK, "SQUEAK": SQUEAK,
                "ZOMBIE": GROWL}
SLOT_S = 1.6
CLEAN_SHARE = 0.15     # share of slots without any noise
EFFECT_COPIES = 4      # times as many placements per effect clip as per word clip


def clip_class(clip) -> str:
    """The acoustic class a library clip belongs to."""
    if clip.kind == "voice":
        return WHISPERED if clip.modifier == "whisper" else VOICE
    return EFFECT_CLASS.get(clip.label, PERCUSSION)


def squeak_run(library, squeaks, rng: np.random.Generator) -> np.ndarray:
    """One to three squeaks in a row, as a player squeezes the squeaker (cards 09, 22)."""
    parts = []
    for _ in range(int(rng.integers(1, 4))):
        clip = squeaks[int(rng.integers(len(squeaks)))]
        audio = library.audio(clip)[int(clip.onset_s * SAMPLE_RATE):]
        gap = np.zeros(int(rng.uniform(0.05, 0.12) * SAMPLE_RATE), np.float32)
        parts += [audio, gap]
    return np.concatenate(parts[:-1])


def training_examples(library, rng: np.random.Generator, copies: int = 3, split: str = "train"):
    """(acoustics, class) pairs from `split` clips placed in noisy slots."""
    slot = int(SLOT_S * SAMPLE_RATE)
    examples = []
    clips = library.query(split=split)
    speech = [library.audio(c) for c in clips if c.kind == "voice"]
    by_class: dict[str, list] = {}
    for clip in clips:
        by_class.setdefault(clip_class(clip), []).append(clip)
    for name, members in by_class.items():
        for clip in members:
            # the effects have few clips each: more placements of each
            for _ in range(copies if name in (VOICE, WHISPERED) else EFFECT_COPIES * copies):
                n_voices = int(rng.integers(1, 5)) if name in (VOICE, WHISPERED) else 1
                same = [c for c in members if c.label == clip.label]
                group = [clip] + [same[int(rng.integers(len(same)))] for _ in range(n_voices - 1)]
                audio = [library.audio(c)[int(c.onset_s * SAMPLE_RATE):] for c in group]
                if clip.label == "SQUEAK":
                    audio = [squeak_run(library, same, rng)]
                onset = int(rng.uniform(0.05, 0.25) * SAMPLE_RATE)
                mixed = mix_voices(audio, slot, onset, rng)
                mixed = set_level(mixed, float(rng.uniform(-32.0, -12.0)))
                # a silent room too (the renderer's clean condition has no noise at
                # all): a clean squeaker's tone has no noise between its partials
                if rng.random() < CLEAN_SHARE:
                    examples.append((describe_slot(mixed), name))
                    continue
                snr_db = float(rng.uniform(10.0, 30.0))
                # babble only under words: under claps it made percussion look like a voice
                babbling = name in (VOICE, WHISPERED) and rng.random() < 0.5
                noisy = add_babble(mixed, snr_db, speech, rng) if babbling else \
                    add_noise(mixed, snr_db, rng)
                examples.append((describe_slot(noisy), name))
    return examples


def main() -> None:
    """Fit and write the class model."""
    from beattrainer.resources import models_dir
    from beattrainer.synth.clips import ClipLibrary

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--copies", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    examples = training_examples(ClipLibrary.load(), rng, args.copies)
    model = fit_class_model(examples)
    path = models_dir() / CLASS_MODEL_FILE
    path.write_text(json.dumps(model.to_json(), indent=1) + "\n", "utf-8")
    print(f"wrote {path} from {len(examples)} slots")


if __name__ == "__main__":
    main()
