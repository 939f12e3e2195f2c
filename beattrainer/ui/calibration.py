"""The calibration session: prompts, sounds and one microphone stream, then the maths.

`run_session()` walks through a `calibrate.CalibrationPlan` on a stream of
microphone blocks: it tells the players what to do when the stream reaches
each part, schedules the loopback clicks and the metronome for exact moments
of the microphone's timeline (through a `StreamClock`), keeps the audio and
finally hands each part to the pure functions of `beattrainer.calibrate`.
Everything is decided on samples consumed, so a recording (or the virtual
microphone, which delivers faster than real time) gives the same figures.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Iterable

import numpy as np

from beattrainer import calibrate as cal

NO_SPEAKER = "no loopback: speaker not heard"


@dataclass
class CalibrationResult:
    """What a session measured; None where a part was skipped or failed (see the notes)."""

    noise_floor_dbfs: float | None = None
    speech_level_dbfs: float | None = None
    latency: cal.Estimate | None = None
    latency_note: str | None = None
    offset: cal.Estimate | None = None
    offset_note: str | None = None
    period_s: float = cal.SPEAK_ALONG_PERIOD_S
    seconds_heard: float = 0.0

    def values(self) -> dict:
        """The figures as plain JSON for the store (None where unmeasured)."""
        def r(x):
            return None if x is None else round(float(x), 5)

        lat, off = self.latency, self.offset
        return {
            "noise_floor_dbfs": r(self.noise_floor_dbfs),
            "speech_level_dbfs": r(self.speech_level_dbfs),
            "latency_s": r(lat.value_s) if lat else None,
            "latency_spread_s": r(lat.spread_s) if lat else None,
            "latency_clicks": [lat.n_used, lat.n_total] if lat else None,
            "latency_note": self.latency_note,
            "speak_along_offset_s": r(off.value_s) if off else None,
            "speak_along_spread_s": r(off.spread_s) if off else None,
            "speak_along_words": [off.n_used, off.n_total] if off else None,
            "speak_along_note": self.offset_note,
            "speak_along_period_s": r(self.period_s),
        }

    def lines(self) -> list[str]:
        """The figures as readable lines."""
        out = []
        floor, level = self.noise_floor_dbfs, self.speech_level_dbfs
        out.append(f"noise floor       {floor:6.1f} dBFS" if floor is not None
                   else "noise floor       not measured (no audio)")
        if level is None:
            out.append("speaking level    not measured: nobody was heard speaking")
        else:
            above = f" ({level - floor:.0f} dB above the floor)" if floor is not None else ""
            out.append(f"speaking level    {level:6.1f} dBFS{above}")
        lat = self.latency
        out.append(f"loopback latency  {lat.value_s * 1000:6.1f} ms "
                   f"+- {lat.spread_s * 1000:.1f} ms ({lat.n_used} of {lat.n_total} clicks)"
                   if lat else f"loopback latency  {self.latency_note}")
        off = self.offset
        if off:
            how = "late" if off.value_s > 0 else "early"
            note = f"; {self.offset_note}" if self.offset_note else ""
            out.append(f"speak-along       {abs(off.value_s) * 1000:6.0f} ms {how} +- "
                       f"{off.spread_s * 1000:.0f} ms ({off.n_used} of {off.n_total} words{note})")
        else:
            out.append(f"speak-along       {self.offset_note}")
        return out


def run_session(blocks: Iterable[np.ndarray], sr: int, plan: cal.CalibrationPlan,
                say: Callable[[str], None], player=None, click: np.ndarray | None = None,
                wall_clock: Callable[[], float] = time.perf_counter) -> CalibrationResult:
    """Run a calibration session on `blocks` and measure every part of `plan`.

    Parameters
    ----------
    blocks : iterable of mono float32 blocks at `sr` (the microphone)
    sr : int, rate of the blocks [Hz]
    plan : the session layout (`calibrate.calibration_plan`)
    say : shows a prompt to the players
    player : a `ui.sounds.SoundPlayer` (or None: no loopback, no metronome)
    click : the click as played, mono at `sr` (the matched filter's template)
    wall_clock : seconds of a monotonic clock (the player schedules on it)

    Returns
    -------
    CalibrationResult
    """
    clock = cal.StreamClock()
    sounding = player is not None and getattr(player, "available", False) and click is not None
    cues = _cues(plan, sounding)
    audio = np.zeros(int(np.ceil(plan.total_s * sr)) + len(click if click is not None else []),
                     dtype=np.float32)
    n = 0
    for block in blocks:
        block = np.asarray(block, dtype=np.float32)
        take = min(len(block), len(audio) - n)
        audio[n:n + take] = block[:take]
        n += take
        clock.observe(wall_clock(), n / sr)
        while cues and cues[0][0] <= n / sr:
            _, action = cues.pop(0)
            if isinstance(action, str):
                say(action)
            else:
                _schedule(player, click, sr, action, clock, wall_clock)
        if n / sr >= plan.total_s:
            break
    if n / sr < plan.total_s:
        say(f"The input ended after {n / sr:.1f} s; measuring what was heard.")
    return analyse(audio[:n], sr, plan, click if sounding else None,
                   skipped_sound=None if sounding else _why_silent(player))


def _why_silent(player) -> str:
    note = getattr(player, "note", None)
    return note or "sounds are off"


def _cues(plan: cal.CalibrationPlan, sounding: bool) -> list:
    """(audio time, prompt text or click times to schedule), in time order."""
    cues = [(0.0, f"1. Quiet please: measuring the noise floor "
                  f"({plan.quiet[1] - plan.quiet[0]:g} s)."),
            (plan.speak[0] - cal.PROMPT_LEAD_S,
             f"2. Everyone say MIEZEKATZE a few times, as loud as you play "
             f"({plan.speak[1] - plan.speak[0]:g} s) ..."),
            (plan.speak[0], "   ... now!")]
    if plan.loopback and sounding:
        cues.append((plan.loopback[0] - cal.PROMPT_LEAD_S,
                     "3. Quiet again: the speaker plays a few clicks to measure the delay."))
        cues.append((plan.loopback[0] - cal.PROMPT_LEAD_S, plan.loopback_clicks_s))
    if plan.speak_along and sounding:
        cues.append((plan.speak_along[0] - cal.PROMPT_LEAD_S,
                     f"4. Listen to {cal.COUNT_IN_BEATS} clicks, then say MIEZEKATZE on every "
                     f"click, {cal.SPEAK_BEATS} times."))
        cues.append((plan.speak_along[0] - cal.PROMPT_LEAD_S, plan.beats_s))
        cues.append((plan.speaking_beats_s[0] - plan.period_s / 2, "   ... speak now!"))
    cues.append((plan.total_s - 0.2, "Done: thank you."))
    return sorted(cues, key=lambda cue: cue[0])


def _schedule(player, click: np.ndarray, sr: int, times_s, clock: cal.StreamClock,
              wall_clock: Callable[[], float]) -> None:
    """Play the click at each audio time of `times_s` (as mapped to the wall clock)."""
    for t in times_s:
        delay_s = clock.wall_of(t) - wall_clock()
        player.play_samples(click, sr, delay_s=delay_s)


def analyse(audio: np.ndarray, sr: int, plan: cal.CalibrationPlan,
            click: np.ndarray | None, skipped_sound: str | None = None) -> CalibrationResult:
    """Measure every part of `plan` in the recorded `audio` (pure numpy).

    `click` is the played click (None when no sound was played; then
    `skipped_sound` says why, and loopback and speak-along are not measured).
    """
    def part(span):
        lo, hi = (int(round(t * sr)) for t in span)
        return audio[lo:min(hi, len(audio))]

    result = CalibrationResult(period_s=plan.period_s, seconds_heard=len(audio) / sr)
    result.noise_floor_dbfs = cal.noise_floor_dbfs(part(plan.quiet), sr)
    if result.noise_floor_dbfs is not None:
        result.speech_level_dbfs = cal.speaking_level_dbfs(part(plan.speak), sr,
                                                           result.noise_floor_dbfs)
    if click is None:
        result.latency_note = f"not measured ({skipped_sound})"
        result.offset_note = f"not measured ({skipped_sound})"
        return result
    latency_s = 0.0
    if plan.loopback is None:
        result.latency_note = "not measured (skipped)"
    else:
        start = plan.loopback[0]
        played = np.asarray(plan.loopback_clicks_s) - start
        heard = cal.locate_clicks(part(plan.loopback), sr, click, played)
        result.latency = cal.loopback_latency(played, heard)
        if result.latency is None:
            result.latency_note = NO_SPEAKER
        else:
            latency_s = result.latency.value_s
    if plan.speak_along is not None:
        start = plan.speak_along[0]
        onsets = [start + t for t in cal.word_onsets_s(part(plan.speak_along), sr)]
        beats = np.asarray(plan.speaking_beats_s) + latency_s
        result.offset = cal.speak_along_offset(beats, onsets, plan.period_s)
        if result.offset is None:
            result.offset_note = "not measured: too few words on the beat"
        elif result.latency is None:
            result.offset_note = "relative to the planned beats (loopback latency unknown)"
    else:
        result.offset_note = "not measured (skipped)"
    return result
