"""Hooks the speech measuring scripts share: which slot is being recognized, and the judge run.

`speech_reliability.py` and `speech_confidence.py` wrap the recognizer to record its
decisions while `judge.py` runs unchanged; these hooks tell them, per decision, the
slot being recognized and the slot of the render's injected mistake.
"""
from __future__ import annotations

import runpy
import sys
from pathlib import Path

import beattrainer.session as session
import beattrainer.synth.render as render


def track_slots(state: dict) -> None:
    """Keep `state["slot"]` (slot being recognized) and `state["mistake_slot"]` current."""
    original_render = render.render_performance

    def recording_render(*a, **k):
        samples, sr, truth = original_render(*a, **k)
        state["mistake_slot"] = (truth.get("mistake") or {}).get("slot")
        return samples, sr, truth

    original_slot = session.RecognizerAdapter.recognize_slot

    def recording_slot(self, samples, expected, slot, syllable_onsets_s, **options):
        state["slot"] = slot.index
        return original_slot(self, samples, expected, slot, syllable_onsets_s, **options)

    render.render_performance = recording_render
    session.RecognizerAdapter.recognize_slot = recording_slot


def run_judge_benchmark(n: int, seed: int, split: str) -> None:
    """Run `benchmarks/judge.py --n N --seed S --split SPLIT` in this process (hooks in place)."""
    sys.argv = [sys.argv[0], "--n", str(n), "--seed", str(seed), "--split", split]
    runpy.run_path(str(Path(__file__).with_name("judge.py")), run_name="__main__")
