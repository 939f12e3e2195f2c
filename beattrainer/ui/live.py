"""What the players see during live play.

Plain lines (a pipe, a log) or a rich live screen readable from across the
table (a terminal).
"""
from __future__ import annotations

import sys
from typing import TextIO

from beattrainer.judge import JudgeReport, SlotVerdict, describe_slot
from beattrainer.mzkz.catalog import load_catalog
from beattrainer.mzkz.game import Run
from beattrainer.mzkz.model import Performance, Sound


def face_up_positions(run: Run, perf: Performance) -> set[int]:
    """1-based positions of the cards lying face up in this performance.

    Only the newest card is face up, except: the canons play open (challenges 5,
    6), and back and forth (7, 8) lays its first three cards open in the first
    performance.
    """
    rules = run.mode.rules(load_catalog())
    n = len(perf.cards_in_play)
    if rules & {"canon_teams", "canon_solo"}:
        return set(range(1, n + 1))
    if "back_and_forth" in rules and perf.number == 1:
        return set(range(1, n + 1))
    return {n}


def cards_text(run: Run, perf: Performance) -> list[str]:
    """One line per card in play: hidden ones as '??', open ones with their instruction."""
    catalog = load_catalog()
    open_cards = face_up_positions(run, perf)
    lines = []
    for position, card_id in enumerate(perf.cards_in_play, start=1):
        if position in open_cards:
            spec = catalog.card(card_id)
            lines.append(f"{position}. {card_id} {spec.title}: {spec.does}")
        else:
            lines.append(f"{position}. ?? (face down: remember it)")
    return lines


def lives_text(run: Run) -> str:
    """Lives as cats: living ones first."""
    return "cat lives " + "@" * run.lives_left + "." * run.lives_lost + \
        f" ({run.lives_left}/{run.lives_start})"


def timing_meter(offset_ms: float | None, width: int = 21, full_scale_ms: float = 150.0) -> str:
    """A one-line early/late meter: '|....:....#....|' with the beat in the middle."""
    if offset_ms is None:
        return ""
    half = width // 2
    pos = half + round(max(-1.0, min(1.0, offset_ms / full_scale_ms)) * half)
    cells = ["-"] * width
    cells[half] = ":"
    cells[pos] = "#"
    return "early |" + "".join(cells) + "| late"


def verdict_text(verdict: SlotVerdict) -> str:
    """A slot's verdict in words."""
    slot = verdict.slot
    heard = verdict.heard.label if verdict.heard else "-"
    due = "free" if slot.expected.sound is Sound.FREE else slot.expected.item()
    timing = f"{verdict.offset_ms:+.0f} ms" if verdict.offset_ms is not None else ""
    mark = {"ok": "ok", "mistake": "MISTAKE", "not_judged": "--"}[verdict.verdict]
    return f"{mark:<7} {describe_slot(slot):<26} due {due:<20} heard {heard:<20} {timing}"


class PlainUI:
    """Line output for pipes, logs and tests."""

    def __init__(self, out: TextIO | None = None) -> None:
        self.out = out or sys.stdout

    def _say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def note(self, text: str) -> None:
        """A remark for the players."""
        self._say(f"* {text}")

    def attempt_start(self, run: Run, perf: Performance) -> None:
        """A new attempt: who leads, the cards, the lives."""
        self._say("")
        self._say(f"== {run.mode.name}: performance {perf.number} of {run.total_performances}, "
                  f"lead {run.lead_name}, {lives_text(run)}")
        for line in cards_text(run, perf):
            self._say(f"   {line}")

    def listening(self) -> None:
        """Waiting for the lead's solos."""
        self._say("   listening: the lead starts with two solo MIEZEKATZEs")

    def slot(self, verdict: SlotVerdict, run: Run) -> None:
        """One slot judged."""
        meter = timing_meter(verdict.offset_ms)
        self._say(f"   {verdict_text(verdict)}  {meter}".rstrip())

    def attempt_end(self, run: Run, report: JudgeReport, message: str) -> None:
        """The attempt is over."""
        self._say(f"   => {message}")

    def close(self) -> None:
        """Give the terminal back (nothing to do for plain lines)."""

    def run_end(self, run: Run, result: str) -> None:
        """The run is over."""
        self._say("")
        self._say(f"== run over ({result.replace('_', ' ')}): {run.completed} performances "
                  f"completed, {run.lives_lost} lives lost")


class RichUI(PlainUI):
    """A live screen with rich: big status, the cards, the lives, the timing."""

    def __init__(self) -> None:
        from rich.console import Console
        from rich.live import Live

        super().__init__()
        self.console = Console()
        self.live = Live(console=self.console, refresh_per_second=8, transient=False)
        self.header = ""
        self.cards: list[str] = []
        self.slots: list[str] = []
        self.status = ""
        self.live.start()

    def _render(self):
        from rich.panel import Panel
        from rich.table import Table
        from rich.text import Text

        table = Table.grid(padding=(0, 1))
        table.add_row(Text(self.header, style="bold magenta"))
        for line in self.cards:
            table.add_row(Text(line, style="dim" if "??" in line else "bold"))
        table.add_row(Text(""))
        for line in self.slots[-8:]:
            style = "red bold" if line.startswith("MISTAKE") else "green"
            table.add_row(Text(line, style=style))
        table.add_row(Text(self.status, style="bold yellow"))
        return Panel(table, title="beattrainer", border_style="cyan")

    def _refresh(self) -> None:
        self.live.update(self._render(), refresh=True)

    def note(self, text: str) -> None:
        """A remark: shown as the status line."""
        self.status = text
        self._refresh()

    def attempt_start(self, run: Run, perf: Performance) -> None:
        """Show the lead, the lives and the cards."""
        self.header = (f"{run.mode.name} - performance {perf.number}/{run.total_performances} - "
                       f"lead {run.lead_name} - {lives_text(run)}")
        self.cards = cards_text(run, perf)
        self.slots = []
        self._refresh()

    def listening(self) -> None:
        """Waiting for the solos."""
        self.status = "listening: the lead starts with two solo MIEZEKATZEs"
        self._refresh()

    def slot(self, verdict: SlotVerdict, run: Run) -> None:
        """Add a judged slot and the timing meter."""
        self.slots.append(verdict_text(verdict))
        self.status = timing_meter(verdict.offset_ms)
        self._refresh()

    def attempt_end(self, run: Run, report: JudgeReport, message: str) -> None:
        """The verdict, big."""
        self.status = message
        self._refresh()

    def run_end(self, run: Run, result: str) -> None:
        """Stop the live screen and print the summary."""
        self._refresh()
        self.close()
        super().run_end(run, result)

    def close(self) -> None:
        """Stop the live screen (also when the run ends with an error)."""
        if self.live.is_started:
            self.live.stop()
