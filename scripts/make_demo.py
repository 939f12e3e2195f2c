"""Render the bundled demo session.

A short highscore run of three performances, the second one first failed with a
wrong word, then completed.

    python scripts/make_demo.py      # writes sounds/demo/session.ogg + session.json

Seeded: the same library gives the same demo. Uses the library's train voices.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from beattrainer.audio import write_audio
from beattrainer.mzkz.sequence import Mode
from beattrainer.synth.clips import ClipLibrary
from beattrainer.synth.render import RenderOptions
from beattrainer.synth.session import render_session

SEED = 2026
MODE = "highscore"
DECK = ["04", "11", "37"]
PLAYERS = ["Anna", "Ben", "Cem"]
PLAN = [None, "wrong_word@5", None, None]
OUT = Path(__file__).resolve().parent.parent / "sounds" / "demo"


def main() -> None:
    """Render the demo into sounds/demo/: the audio and the outcome it should get."""
    options = RenderOptions(period_s=1.1, voices=3, jitter_ms=12.0, snr_db=30.0, noise="pink",
                            seed=SEED)
    samples, sr, truth = render_session(Mode.parse(MODE), DECK, PLAYERS, PLAN, ClipLibrary.load(),
                                        np.random.default_rng(SEED), options)
    OUT.mkdir(parents=True, exist_ok=True)
    write_audio(OUT / "session.ogg", samples, sr)
    meta = {
        "audio": "session.ogg",
        "mode": MODE,
        "deck": DECK,
        "players": PLAYERS,
        "lives_start": truth["lives_start"],
        "expected": {
            "result": truth["result"],
            "performances_completed": truth["performances_completed"],
            "lives_left": truth["lives_left"],
            "attempts": [{"performance": a["performance"], "lead": a["lead"],
                          "start_s": a["start_s"], "outcome": a["outcome"],
                          "mistake": a["mistake"]} for a in truth["attempts"]],
        },
    }
    (OUT / "session.json").write_text(json.dumps(meta, indent=2) + "\n")
    print(f"{OUT / 'session.ogg'}: {len(samples) / sr:.1f} s")


if __name__ == "__main__":
    main()
