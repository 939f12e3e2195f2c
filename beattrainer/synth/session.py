"""Render a whole play session as one recording.

Several attempts at consecutive performances, with pauses between them: the
test audio for live play and the bundled demo.

The attempts follow the run state machine: a clean attempt completes its
performance (the next attempt plays the next one with the next lead), an attempt
with a mistake is cut shortly after the mistake (the group stops at the buzzer)
and the same performance is tried again.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

import numpy as np

from beattrainer.mzkz.game import Verdict, new_run, record
from beattrainer.mzkz.sequence import Mode
from beattrainer.synth.clips import ClipLibrary
from beattrainer.synth.render import (
    Mistake,
    RenderOptions,
    make_noise,
    render_performance,
    scale_to_snr,
)

PAUSE_S = 2.5           # quiet between attempts [s]
STOP_AFTER_PERIODS = 1.2  # a failed attempt goes on this long after its mistake


def render_session(mode: Mode, deck: Sequence[str], players: Sequence[str],
                   plan: Sequence[str | None], clips: ClipLibrary, rng: np.random.Generator,
                   options: RenderOptions | None = None, lives: int = 9,
                   pause_s: float = PAUSE_S) -> tuple[np.ndarray, int, dict]:
    """Render attempts one after another.

    Parameters
    ----------
    mode, deck, players, lives : the run (deck in draw order)
    plan : one entry per attempt: None for a clean performance, or "KIND@SLOT"
        for an attempt with that mistake
    clips : the clip library
    rng : the only source of randomness
    options : render options shared by all attempts (the mistake is set per attempt)
    pause_s : quiet before the first and between attempts [s]

    Returns
    -------
    samples, sr, truth : the truth has `attempts`, one per attempt, each with its
        performance number, lead, start time in the session, expected outcome,
        the mistake (or null) and the attempt's own render truth.
    """
    options = options or RenderOptions()
    # the room's noise runs through the whole session, pauses included: it is
    # added once at the end, not per attempt (where it would start abruptly)
    attempt_options = replace(options, snr_db=None)
    run = new_run(mode, players, deck, lives)
    sr = clips.sample_rate
    pieces = [np.zeros(int(pause_s * sr), dtype=np.float32)]
    cursor_s = pause_s
    attempts = []
    for entry in plan:
        if run.is_over:
            raise ValueError("the plan has more attempts than the run allows")
        perf = run.current_performance()
        mistake = Mistake.parse(entry) if entry else None
        samples, _, truth = render_performance(perf, clips, rng,
                                               replace(attempt_options, mistake=mistake))
        if mistake is not None:
            cut_s = truth["slots"][mistake.slot]["expected_onset_s"] + \
                STOP_AFTER_PERIODS * options.period_s
            samples = samples[: int(cut_s * sr)]
        attempts.append({
            "performance": run.performance,
            "lead": run.lead_name,
            "start_s": round(cursor_s, 6),
            "outcome": "mistake" if mistake else "completed",
            "mistake": truth["mistake"],
            "truth": truth,
        })
        pieces += [samples.astype(np.float32), np.zeros(int(pause_s * sr), dtype=np.float32)]
        cursor_s += len(samples) / sr + pause_s
        verdict = Verdict.mistake(mistake.slot, mistake.kind) if mistake else Verdict.completed()
        run = record(run, verdict)
    session = np.concatenate(pieces)
    if options.snr_db is not None:
        attempts_audio = np.concatenate(pieces[1::2])  # as for one performance: no pauses
        noise = make_noise(options.noise, len(session), sr, rng, clips)
        session = session + scale_to_snr(attempts_audio, noise, options.snr_db)
        session = np.clip(session, -1.0, 1.0).astype(np.float32)
    truth = {
        "schema": "beattrainer.session-truth/1",
        "sample_rate": sr,
        "duration_s": round(len(session) / sr, 6),
        "mode": mode.name,
        "deck": list(deck),
        "players": list(players),
        "lives_start": lives,
        "lives_left": run.lives_left,
        "performances_completed": run.completed,
        "result": run.status.value,
        "noise": None if options.snr_db is None else {"kind": options.noise,
                                                      "snr_db": options.snr_db},
        "attempts": attempts,
    }
    return session, sr, truth
