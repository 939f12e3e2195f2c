"""Live play end to end: a rendered session plays the microphone's part.

The same `LivePlay` loop runs on file blocks here and on the real PortAudio
microphone (through virtual-mic) in `test_play_virtual_mic`.
"""
from __future__ import annotations

import io
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from beattrainer.audio import write_audio
from beattrainer.mzkz.game import new_run
from beattrainer.mzkz.sequence import Mode
from beattrainer.play import LivePlay
from beattrainer.session import RecognizerFactory
from beattrainer.store import Store
from beattrainer.synth.clips import ClipLibrary
from beattrainer.synth.render import RenderOptions
from beattrainer.synth.session import render_session
from beattrainer.ui.live import PlainUI
from tests.conftest import REPO, validate_contract

DECK = ["04", "11", "37"]
PLAYERS = ["Anna", "Ben", "Cem"]
PLAN = [None, "wrong_word@5", None, None]
VIRTUAL_MIC = REPO.parent / "shared" / "tools" / "virtual-mic"


@pytest.fixture(scope="module")
def session():
    options = RenderOptions(period_s=1.0, voices=2, jitter_ms=10.0, seed=11)
    samples, sr, truth = render_session(Mode("highscore"), DECK, PLAYERS, PLAN, ClipLibrary.load(),
                                        np.random.default_rng(11), options)
    return samples, sr, truth


def blocks_of(samples, size=512):
    return (samples[i:i + size] for i in range(0, len(samples), size))


class ScriptedKeys:
    """Keys pressed when the stream passes given times."""

    def __init__(self, live_holder, at_s: dict[float, str]):
        self.holder = live_holder
        self.at_s = dict(sorted(at_s.items()))

    def poll(self):
        now = self.holder[0]._stream_s
        due = [t for t in self.at_s if t <= now]
        return [self.at_s.pop(t) for t in due]


def play(samples, tmp_path, keys_at=None, deck=DECK):
    out = io.StringIO()
    run = new_run(Mode("highscore"), PLAYERS, deck, lives=9)
    store = Store.open(tmp_path / "play.db")
    holder = []
    live = LivePlay(run, blocks_of(samples), PlainUI(out), RecognizerFactory("pocketsphinx"),
                    store=store)
    holder.append(live)
    if keys_at:
        live.keys = ScriptedKeys(holder, keys_at)
    report = live.play()
    store.close()
    return report, out.getvalue()


def test_a_session_is_judged_as_it_was_performed(session, tmp_path):
    samples, sr, truth = session
    report, text = play(samples, tmp_path)
    validate_contract(report, "run-report")
    outcomes = [a["report"]["result"] for a in report["attempts"]]
    assert outcomes == [a["outcome"] for a in truth["attempts"]]
    failed = report["attempts"][1]["report"]["mistake"]
    assert failed["slot"] == truth["attempts"][1]["mistake"]["slot"]
    assert failed["kind"] == "wrong_word"
    assert [a["lead"] for a in report["attempts"]] == [a["lead"] for a in truth["attempts"]]
    assert report["result"] == truth["result"] == "deck_exhausted"
    assert report["lives_left"] == truth["lives_left"] == 8
    assert report["performances_completed"] == 3
    # what the players saw
    assert "lead Ben" in text and "one life lost, 8 left" in text
    assert "?? (face down" in text and "Squeaker to Ben" in text
    # what the database kept
    with sqlite3.connect(tmp_path / "play.db") as db:
        (result, completed, lives_left), = db.execute(
            "select result, performances_completed, lives_left from runs").fetchall()
        assert (result, completed, lives_left) == ("deck_exhausted", 3, 8)
        assert db.execute("select count(*) from attempts").fetchone()[0] == 4
    with Store.open(tmp_path / "play.db") as store:
        (best,) = store.highscores(mode="highscore")
        assert best.performances_completed == 3
        validate_contract(store.run_report(best.run_id), "run-report")


def test_quit_key_stops_and_keeps_the_run(session, tmp_path):
    samples, sr, truth = session
    quit_at = truth["attempts"][1]["start_s"] + 1.0
    report, text = play(samples, tmp_path, keys_at={quit_at: "q"})
    assert report["result"] == "stopped"
    assert len(report["attempts"]) == 1 and report["performances_completed"] == 1
    with Store.open(tmp_path / "play.db") as store:
        (summary,) = store.history()
        assert summary.result == "stopped"


def test_overrule_gives_the_life_back(session, tmp_path):
    samples, sr, truth = session
    # press o in the pause after the failed attempt
    overrule_at = truth["attempts"][2]["start_s"] - 1.0
    report, text = play(samples, tmp_path, keys_at={overrule_at: "o"})
    assert "overruled" in text
    overridden = [a for a in report["attempts"] if a["overridden"]]
    assert len(overridden) == 1 and overridden[0]["report"]["result"] == "completed"
    # the trainer's word stays on record
    assert report["attempts"][1]["report"]["result"] == "mistake"
    # the group's ruling moved the run on: the retry of performance 2 is heard as performance 3
    assert report["lives_left"] == 9


def test_input_ending_mid_run_is_not_a_mistake(session, tmp_path):
    samples, sr, truth = session
    cut = int((truth["attempts"][1]["start_s"] + 4.0) * sr)
    report, text = play(samples[:cut], tmp_path)
    assert report["result"] == "stopped"
    assert report["lives_left"] == 9
    assert report["attempts"][-1]["report"]["result"] == "incomplete"


@pytest.mark.skipif(not VIRTUAL_MIC.exists(),
                    reason="../shared/tools/virtual-mic is not beside the checkout")
def test_play_virtual_mic(session, tmp_path):
    """The real microphone path: PortAudio -> ALSA -> a WAV file as the capture device."""
    samples, sr, truth = session
    wav = tmp_path / "session.wav"
    write_audio(wav, samples, sr)
    out_json, db = tmp_path / "run.json", tmp_path / "mic.db"
    beattrainer = shutil.which("beattrainer") or str(Path(sys.executable).parent / "beattrainer")
    cmd = [sys.executable, str(VIRTUAL_MIC), str(wav), "--", beattrainer, "play", "--highscore",
           "--deck", ",".join(DECK), "--players", ",".join(PLAYERS), "--plain", "--no-sounds",
           "--backend", "pocketsphinx", "--db", str(db), "--json", str(out_json),
           "--max-seconds", f"{len(samples) / sr:.1f}"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600,
                          env=dict(os.environ, BEATTRAINER_DB=str(db)), check=False)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(out_json.read_text())
    validate_contract(report, "run-report")
    assert [a["report"]["result"] for a in report["attempts"]] == \
        [a["outcome"] for a in truth["attempts"]]
    assert report["result"] == "deck_exhausted" and report["lives_left"] == 8
    with sqlite3.connect(db) as conn:
        assert conn.execute("select count(*) from attempts").fetchone()[0] == 4


def test_a_device_that_fails_mid_run_ends_the_attempt_not_judged(session, tmp_path):
    from beattrainer.audio import AudioError

    samples, sr, truth = session
    fail_at = int((truth["attempts"][0]["start_s"] + 1.8) * sr)  # during the solos

    def failing_blocks():
        for i in range(0, fail_at, 512):
            yield samples[i:i + 512]
        raise AudioError("input device 'USB mic' stopped delivering audio")

    run = new_run(Mode("highscore"), PLAYERS, DECK)
    live = LivePlay(run, failing_blocks(), PlainUI(io.StringIO()),
                    RecognizerFactory("pocketsphinx"))
    report = live.play()
    assert live.input_error and "USB mic" in live.input_error
    assert report["result"] == "stopped"
    assert report["attempts"][-1]["report"]["result"] == "incomplete"
    mistakes = sum(a["report"]["result"] == "mistake" for a in report["attempts"])
    assert report["lives_left"] == 9 - mistakes  # the broken attempt cost nothing


def test_lost_input_blocks_make_the_attempt_not_judged(session, tmp_path):
    samples, sr, truth = session
    lost = {"n": 0}

    def blocks():
        for i in range(0, len(samples), 512):
            if i == 10 * 512:
                lost["n"] += 3  # an overflow during the first attempt
            yield samples[i:i + 512]

    run = new_run(Mode("highscore"), PLAYERS, DECK)
    out = io.StringIO()
    live = LivePlay(run, blocks(), PlainUI(out), RecognizerFactory("pocketsphinx"),
                    input_losses=lambda: lost["n"])
    report = live.play()
    first = report["attempts"][0]
    assert first["report"]["result"] == "incomplete"
    assert "3 block(s) of input were lost" in out.getvalue()
