"""Live play: the run state machine (`mzkz.game`) driven by the streaming referee.

One stream of blocks (the microphone, or a recording for the demo and tests)
carries the whole run: each attempt waits for the room to go quiet, starts when
the lead's first solo is heard, and ends at the first mistake or after the last
slot. The group stays in charge through keys: restart, pause, quit, overrule a
verdict, flag a mistake the trainer missed. Nothing here touches a device: the
blocks, the UI, the sounds, the keys and the store are passed in.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable, Iterator, Protocol

import numpy as np

from beattrainer.audio import PIPELINE_SR, AudioError
from beattrainer.dsp.onsets import OnsetDetector
from beattrainer.events import Onset, OnsetKind
from beattrainer.judge import JudgeReport, Referee, SlotVerdict, describe_slot
from beattrainer.mzkz.game import Outcome, Run, Status, Verdict, record
from beattrainer.mzkz.model import Performance

QUIET_BEFORE_ATTEMPT_S = 1.2   # the room must be this quiet before the next attempt,
QUIET_PERIODS = 1.5            # and at least this many word periods of the last attempt
FLAGGED_KIND = "wrong_word"    # a mistake the group flags: "the wrong thing was done"

KEY_HELP = "keys: r restart  p pause  q quit  o overrule the verdict  m flag a missed mistake"


class PlayUI(Protocol):
    """What the play loop tells the players."""

    def note(self, text: str) -> None:
        """Show a free-form message."""

    def attempt_start(self, run: Run, perf: Performance) -> None:
        """Announce a new attempt at `perf`."""

    def listening(self) -> None:
        """Say the referee is listening now."""

    def slot(self, verdict: SlotVerdict, run: Run) -> None:
        """Show the verdict on one slot as it comes in."""

    def attempt_end(self, run: Run, report: JudgeReport, message: str) -> None:
        """Show how the attempt ended, with its report."""

    def run_end(self, run: Run, result: str) -> None:
        """Show how the whole run ended."""


class Sounds(Protocol):
    """Feedback sounds (`beattrainer.ui.sounds.SoundPlayer`)."""

    available: bool

    def play(self, name: str) -> None:
        """Play the feedback sound called `name`."""


class Keys(Protocol):
    """Key presses since the last poll."""

    def poll(self) -> list[str]:
        """The keys pressed since the last call."""


class NoKeys:
    """No keyboard (a pipe, a test): never a key."""

    def poll(self) -> list[str]:
        """Nothing pressed."""
        return []


class Quit(Exception):
    """The players asked to stop."""


@dataclass
class AttemptRecord:
    """One attempt as the run report keeps it."""

    performance: int
    lead: str
    report: dict
    overridden: bool = False

    def to_json(self) -> dict:
        """The run report's attempt object."""
        return {"performance": self.performance, "lead": self.lead,
                "overridden": self.overridden, "report": self.report}


@dataclass
class LivePlay:
    """Plays a run on a block stream.

    Parameters
    ----------
    run : the run to play (from `mzkz.game.new_run`)
    blocks : mono float32 blocks at `sr`
    ui : a `PlayUI`
    recognizer_for : builds the referee's recognizer adapter for a performance
    store : a `beattrainer.store.Store` or None
    sounds : a `Sounds` or None
    keys : a `Keys` source
    strictness : lenient | normal | strict
    grid_for : for silent solos (challenge 2) or a count-in: returns (period_s,
        first solo onset in stream seconds) when an attempt starts, else None
    max_seconds : stop after this much input [s]
    """

    run: Run
    blocks: Iterator[np.ndarray]
    ui: PlayUI
    recognizer_for: Callable[[Performance], object]
    store: object | None = None
    sounds: Sounds | None = None
    keys: Keys = field(default_factory=NoKeys)
    strictness: str = "normal"
    grid_for: Callable[[Performance, float], tuple[float, float] | None] | None = None
    count_in: bool = False
    max_seconds: float | None = None
    sr: int = PIPELINE_SR
    run_id: int | None = None
    attempts: list[AttemptRecord] = field(default_factory=list)
    result: str = "in_progress"
    _stream_s: float = 0.0
    _paused: bool = False
    _previous: Run | None = None  # the run before the last attempt (for overrules)
    _input_ended: bool = False
    input_error: str | None = None
    input_losses: Callable[[], int] | None = None  # blocks lost so far (overflows)
    _last_period_s: float = 0.0

    # ------------------------------------------------------------------ the run

    def play(self) -> dict:
        """Play until the run ends, the input ends or the players quit; the run report."""
        if self.store is not None:
            self.run_id = self.store.start_run(
                mode=self.run.mode.name, players=list(self.run.players), deck=list(self.run.deck),
                lives_start=self.run.lives_start)
        self.ui.note(KEY_HELP)
        try:
            first = True
            while not self.run.is_over:
                if not first and not self._wait_for_quiet():
                    break
                first = False
                if not self._attempt():
                    break
            self.result = self.run.status.value if self.run.is_over else "stopped"
        except Quit:
            self.result = "stopped"
        finally:
            if self.result == "in_progress":
                self.result = "stopped"  # an error on the way out: keep what was played
            if self.store is not None and self.run_id is not None:
                self.store.finish_run(self.run_id, result=self.result,
                                      lives_left=self.run.lives_left,
                                      performances_completed=self.run.completed)
        self.ui.run_end(self.run, self.result)
        return self.run_report()

    def run_report(self) -> dict:
        """The run as the `beattrainer.run-report/1` contract object."""
        return {
            "schema": "beattrainer.run-report/1",
            "mode": self.run.mode.name,
            "deck": list(self.run.deck),
            "players": list(self.run.players),
            "lives_start": self.run.lives_start,
            "lives_left": self.run.lives_left,
            "performances_completed": self.run.completed,
            "attempts": [a.to_json() for a in self.attempts],
            "result": self.result,
        }

    # ------------------------------------------------------------------ input

    def _next_block(self) -> np.ndarray | None:
        """The next block, honouring pause and the input limit; None at the end."""
        while True:
            if self.max_seconds is not None and self._stream_s >= self.max_seconds:
                self._input_ended = True
                return None
            try:
                block = next(self.blocks)
            except StopIteration:
                self._input_ended = True
                return None
            except AudioError as exc:  # the device failed or disappeared
                self.input_error = str(exc)
                self._input_ended = True
                return None
            self._stream_s += len(block) / self.sr
            self._handle_keys()
            if not self._paused:
                return block

    def _handle_keys(self) -> None:
        for key in self.keys.poll():
            if key == "q":
                raise Quit
            if key == "p":
                self._paused = not self._paused
                self.ui.note("paused: press p to go on" if self._paused else "listening again")
            elif key == "r":
                raise _Restart
            elif key == "o":
                self._overrule()
            elif key == "m":
                raise _Flag

    # ------------------------------------------------------------------ attempts

    def _wait_for_quiet(self) -> bool:
        """Skip audio until the room has been quiet for a moment; False at the end."""
        detector = OnsetDetector(self.sr)
        start_s = self._stream_s
        last_sound_s = 0.0
        while True:
            try:
                block = self._next_block()
            except (_Restart, _Flag):
                continue
            if block is None:
                return False
            for event in detector.feed(block):
                if isinstance(event, Onset) and event.kind is OnsetKind.SYLLABLE:
                    last_sound_s = event.time_s
            quiet_s = max(QUIET_BEFORE_ATTEMPT_S, QUIET_PERIODS * self._last_period_s)
            if self._stream_s - start_s - last_sound_s >= quiet_s:
                return True

    def _attempt(self) -> bool:
        """One attempt at the current performance; False when the input ended."""
        perf = self.run.current_performance()
        adapter = self.recognizer_for(perf)
        self.ui.attempt_start(self.run, perf)
        offset_s = self._stream_s
        grid = None
        if self.grid_for is not None:
            found = self.grid_for(perf, offset_s)
            if found is not None:
                grid = (found[0], found[1] - offset_s)
        referee = Referee(perf, OnsetDetector(self.sr), adapter, self.sr, self.strictness, grid,
                          judge_solos=not self.count_in)
        if hasattr(adapter, "start_performance"):
            adapter.start_performance()
        self.ui.listening()
        losses_before = self.input_losses() if self.input_losses else 0
        flagged = False
        try:
            while not referee.done:
                block = self._next_block()
                if block is None:
                    break
                for verdict in referee.feed(block):
                    self.ui.slot(verdict, self.run)
        except _Restart:
            self.ui.note("restart: this attempt is not judged")
            self._record(perf, referee, offset_s, Verdict(Outcome.NOT_JUDGED), overridden=False)
            return True
        except _Flag:
            flagged = True
        if not flagged:
            for verdict in referee.finish():
                self.ui.slot(verdict, self.run)
        report = referee.report()
        lost = (self.input_losses() if self.input_losses else 0) - losses_before
        if lost or self.input_error:
            why = self.input_error or f"{lost} block(s) of input were lost"
            self.ui.note(f"{why}: this attempt is not judged, no life lost")
            self._record(perf, referee, offset_s, Verdict(Outcome.NOT_JUDGED), overridden=False)
            return not self._input_ended
        if flagged:
            verdict = Verdict.mistake(_current_slot(referee), FLAGGED_KIND)
            self._record(perf, referee, offset_s, verdict, overridden=True, flagged=True)
        elif report.result == "completed":
            self._record(perf, referee, offset_s, Verdict.completed(), overridden=False)
            if hasattr(adapter, "performance_completed"):
                adapter.performance_completed()
        elif report.result == "mistake":
            m = report.mistake
            self._record(perf, referee, offset_s, Verdict.mistake(m.slot.index, m.mistake.value),
                         overridden=False)
        else:  # the input ended or never gave a beat
            if report.period_s is not None or self._input_ended:
                self._record(perf, referee, offset_s, Verdict(Outcome.NOT_JUDGED),
                             overridden=False)
            return False
        return not self._input_ended

    def _record(self, perf: Performance, referee: Referee, offset_s: float, verdict: Verdict,
                overridden: bool, flagged: bool = False) -> None:
        """Apply a verdict to the run, keep the attempt, tell the players."""
        report = replace(referee.report(), lead=self.run.lead_name,
                         extra={"stream_offset_s": round(offset_s, 4)})
        self._last_period_s = report.period_s or self._last_period_s
        data = report.to_json()
        if flagged:
            data = _flagged(data, verdict.slot, referee)
        elif verdict.outcome is Outcome.NOT_JUDGED:
            data["result"] = "incomplete"
        before = self.run
        self._previous = before
        self.run = record(self.run, verdict)
        self._keep(before, data, overridden)
        self.ui.attempt_end(self.run, report, _message(verdict, data, before, self.run))
        self._play_feedback(verdict)

    def _keep(self, before: Run, data: dict, overridden: bool) -> None:
        self.attempts.append(AttemptRecord(before.performance, before.lead_name, data, overridden))
        if self.store is not None and self.run_id is not None:
            self.store.record_attempt(self.run_id, performance=before.performance,
                                      lead=before.lead_name, report=data, overridden=overridden,
                                      lives_left=self.run.lives_left,
                                      performances_completed=self.run.completed)

    def _overrule(self) -> None:
        """Turn a blind eye: the last mistake counts as a completed performance."""
        last = self.attempts[-1] if self.attempts else None
        if last is None or self._previous is None or last.report.get("result") != "mistake":
            self.ui.note("nothing to overrule")
            return
        before = self._previous
        self.run = record(before, Verdict.completed())
        self._previous = None
        data = dict(last.report, result="completed", mistake=None)
        self._keep(before, data, overridden=True)
        self.ui.note(f"overruled: performance {before.performance} counts as completed, "
                     f"{self.run.lives_left} lives left")

    def _play_feedback(self, verdict: Verdict) -> None:
        if self.sounds is None or not self.sounds.available:
            return
        if verdict.outcome is Outcome.MISTAKE:
            self.sounds.play("buzzer")
        elif verdict.outcome is Outcome.COMPLETED:
            self.sounds.play("cheer")
            if not self.run.is_over:
                self.sounds.play("squeaker")


class _Restart(Exception):
    """The players restart the attempt."""


class _Flag(Exception):
    """The players flag a mistake the trainer missed."""


def _current_slot(referee: Referee) -> int:
    """The slot being performed when the group flagged a mistake."""
    return referee.slots[min(len(referee.slots) - 1, referee.slots_closed)].index


def _flagged(data: dict, slot: int, referee: Referee) -> dict:
    """The report of an attempt the group failed itself."""
    where = describe_slot(next(s for s in referee.slots if s.index == slot))
    data = dict(data, result="mistake")
    data["mistake"] = {"slot": slot, "kind": FLAGGED_KIND, "time_s": round(referee.time_s, 4),
                       "message": f"{where}: the group flagged a mistake"}
    return data


def _message(verdict: Verdict, data: dict, before: Run, after: Run) -> str:
    """What the players are told after an attempt."""
    if verdict.outcome is Outcome.NOT_JUDGED:
        return "not judged: no life lost"
    if verdict.outcome is Outcome.MISTAKE:
        text = f"{data['mistake']['message']}: one life lost, {after.lives_left} left"
        if after.status is Status.CHALLENGE_FAILED:
            text += ". The last life is gone: the challenge failed"
        elif after.status is Status.HIGHSCORE_ENDED:
            text += f". The run ends with {after.score} performances"
        return text
    if after.is_over:
        status = after.status.value.replace("_", " ")
        return f"performance {before.performance} completed. {status}!"
    return (f"performance {before.performance} completed! Squeaker to {after.lead_name}; "
            f"next card: {after.current_performance().cards_in_play[-1]}")
