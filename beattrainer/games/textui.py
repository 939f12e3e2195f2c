"""Generic hot-seat text UI for any companion game (ruling E5/E6, §4.4).

One loop serves every `Rules` object: bot seats act on their observation with
their own seeded random stream, human seats type actions. With several humans
at one screen a privacy screen ("pass to Ben, press Enter") comes between them
and private event texts wait until their owner is at the screen. All I/O goes
through an injectable `Terminal`, so tests drive the loop with lists of lines.
"""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Mapping, Sequence

from beattrainer.games.core import Bot, ConfigError, Event, Level, Result, Rules, rng_stream
from beattrainer.games.log import GameLog, replay_steps, write_log

__all__ = ["PlayerSpec", "Seat", "Terminal", "PlayOutcome", "parse_players", "build_seats",
           "play", "show_replay", "result_text", "MAX_LISTED_CHOICES"]

MAX_LISTED_CHOICES = 40
CLEAR_SCREEN = "\x1b[2J\x1b[H"
BLANK_LINES_FOR_CLEAR = 40


# --------------------------------------------------------------------- players
@dataclass(frozen=True)
class PlayerSpec:
    """A player from the command line: a human name, or a bot with its level."""

    name: str
    bot_level: str | None = None

    @property
    def is_bot(self) -> bool:
        """True for a computer player."""
        return self.bot_level is not None


def parse_players(text: str, default_level: str = Level.GOOD.value) -> tuple[PlayerSpec, ...]:
    """Read ``"Anna,bot,bot:good"``: names are humans, ``bot[:level]`` are bots.

    Bots are named ``Bot2``, ``Bot3``, ... after their 1-based seat. Raises
    ConfigError for empty entries, unknown levels or repeated names.
    """
    levels = tuple(level.value for level in Level)
    specs = []
    for number, raw in enumerate(text.split(","), start=1):
        entry = raw.strip()
        if not entry:
            raise ConfigError(f"player {number} has no name (players are separated by commas)")
        head, _, level = entry.partition(":")
        if head.strip().lower() == "bot":
            level = level.strip().lower() or default_level
            if level not in levels:
                raise ConfigError(f"unknown bot level {level!r}; use one of {', '.join(levels)}")
            specs.append(PlayerSpec(f"Bot{number}", level))
        else:
            specs.append(PlayerSpec(entry))
    names = [spec.name.casefold() for spec in specs]
    if len(set(names)) != len(names):
        raise ConfigError("player names must be different")
    return tuple(specs)


@dataclass
class Seat:
    """Who plays a seat: a human (``bot is None``) or a bot."""

    name: str
    bot: Bot | None = None
    level: str | None = None


def build_seats(module: ModuleType, config: Mapping[str, Any],
                specs: Sequence[PlayerSpec]) -> list[Seat]:
    """Seats for the players plus any seats the program always plays.

    The module's optional ``RULES.extra_seats(config)`` lists ``(name, level)``
    pairs appended after the players (e.g. the Schwarzer Kater program cat).
    """
    seats = [Seat(spec.name, module.make_bot(spec.bot_level), spec.bot_level) if spec.is_bot
             else Seat(spec.name) for spec in specs]
    extra = getattr(module.RULES, "extra_seats", None)
    if extra is not None:
        seats += [Seat(name, module.make_bot(level), level) for name, level in extra(config)]
    return seats


# -------------------------------------------------------------------- terminal
def _default_clear(write: Callable[[str], None]) -> Callable[[], None]:
    def clear() -> None:
        if sys.stdout.isatty():
            write(CLEAR_SCREEN)
        else:
            write("\n" * BLANK_LINES_FOR_CLEAR)
    return clear


@dataclass
class Terminal:
    """The loop's I/O: reading lines, writing text, pausing and clearing the screen.

    `read(prompt)` returns a line (EOFError ends the game), `write(text)` shows
    text, `sleep(seconds)` paces, `clear()` hides the screen.

    `pace` scales every pause an event asks for; 0 switches pacing off.
    """

    read: Callable[[str], str] = input
    write: Callable[[str], None] = print
    sleep: Callable[[float], None] = time.sleep
    clear: Callable[[], None] | None = None
    pace: float = 1.0

    def clear_screen(self) -> None:
        """Clear the screen (ANSI when on a terminal, else blank lines)."""
        (self.clear or _default_clear(self.write))()


@dataclass
class PlayOutcome:
    """How a session ended: the last state, the move log, and whether it finished."""

    state: Any
    log: GameLog
    finished: bool
    result: Result | None = None
    events: list[Event] = field(default_factory=list)


class _Quit(Exception):
    """The human left (EOF or 'quit')."""


# ------------------------------------------------------------------------ loop
def result_text(result: Result, names: Sequence[str]) -> str:
    """Final standings, best first."""
    lines = ["Final standings:"]
    for seat in sorted(range(len(names)), key=lambda s: (result.ranks[s], s)):
        score = result.scores[seat]
        shown = int(score) if float(score).is_integer() else score
        lines.append(f"  {result.ranks[seat]}. {names[seat]}  {shown}")
    return "\n".join(lines)


class _Session:
    """The state of one hot-seat session; `run` drives it to the end or to EOF."""

    def __init__(self, rules: Rules, config: Mapping[str, Any], seed: str,
                 seats: Sequence[Seat], term: Terminal, auto_bot: Bot | None) -> None:
        self.rules, self.config, self.seed = rules, config, str(seed)
        self.seats, self.term, self.auto_bot = list(seats), term, auto_bot
        self.state = rules.new_game(config, self.seed)
        self.log = GameLog(rules.name, rules.rules_version, dict(config), self.seed)
        self.humans = [i for i, seat in enumerate(self.seats) if seat.bot is None]
        # whose eyes are on the screen: the only human, or the last one who played
        self.viewer: int | None = self.humans[0] if len(self.humans) == 1 else None
        self.pending: dict[int, list[str]] = {h: [] for h in self.humans}
        self.decisions: dict[int, int] = {}
        self.events: list[Event] = []

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    def _rng(self, purpose: str, seat: int) -> Any:
        key = f"{purpose}-{seat}"
        count = self.decisions.get(key, 0)
        self.decisions[key] = count + 1
        return rng_stream(self.seed, key, count)

    def run(self) -> bool:
        intro = getattr(self.rules, "intro", None)
        if intro is not None:
            self.term.write(intro(self.state))
        try:
            while not self.rules.is_terminal(self.state):
                to_act = self.rules.to_act(self.state)
                if not to_act:
                    raise RuntimeError("a non-terminal state has nobody to act (rules bug)")
                self._turn(to_act[0])
        except _Quit:
            return False
        return True

    def _turn(self, seat: int) -> None:
        bot = self.seats[seat].bot
        if bot is not None:
            legal = self.rules.legal_actions(self.state, seat)
            action = bot.act(self.rules.observe(self.state, seat), legal, self._rng("bot", seat))
            self._apply(seat, action)
            return
        self._take_screen(seat)
        self.term.write(self.rules.render(self.rules.observe(self.state, seat)))
        while True:
            action = self._ask(seat)
            if not self._confirmed(seat, action):
                continue
            try:
                self._apply(seat, action)
                return
            except ValueError as exc:  # IllegalAction
                self.term.write(f"Not possible: {exc}")
                self._list_choices(seat)

    def _confirmed(self, seat: int, action: Any) -> bool:
        """Show a game's warnings for a legal but surely bad move and ask first."""
        warn = getattr(self.rules, "action_warnings", None)
        try:
            warnings = warn(self.state, seat, action) if warn else ()
        except ValueError:
            warnings = ()  # an illegal action: apply() will say why
        if not warnings:
            return True
        self.term.write("\n".join(f"Careful: {w}" for w in warnings))
        return self._read("Do it anyway? [y/N] ").strip().lower() in ("y", "yes", "j", "ja")

    def _take_screen(self, seat: int) -> None:
        """Privacy screen between different humans; then show what they missed."""
        if len(self.humans) > 1 and self.viewer != seat:
            self.term.clear_screen()
            self._read(f"Pass to {self.names[seat]}, then press Enter. ")
            self.viewer = seat
        missed = self.pending.get(seat, [])
        if missed:
            self.term.write("For your eyes only:\n" + "\n".join(missed))
            missed.clear()

    def _read(self, prompt: str) -> str:
        try:
            return self.term.read(prompt)
        except (EOFError, KeyboardInterrupt):  # end of input or Ctrl-C: stop, keep the log
            self.term.write("")
            raise _Quit from None

    def _choices(self, seat: int) -> list[str]:
        legal = self.rules.legal_actions(self.state, seat)
        return [self.rules.action_to_text(self.state, a) for a in legal]

    def _list_choices(self, seat: int) -> None:
        texts = self._choices(seat)
        shown = [f"  #{i} {t}" for i, t in enumerate(texts[:MAX_LISTED_CHOICES], start=1)]
        more = len(texts) - MAX_LISTED_CHOICES
        if more > 0:
            shown.append(f"  ... and {more} more")
        self.term.write("Your choices (type the text or #number; 'auto' lets the computer "
                        "choose, 'quit' ends):\n" + "\n".join(shown))

    def _ask(self, seat: int) -> Any:
        """Read until the input names an action; apply() still validates it."""
        while True:
            line = self._read(f"{self.names[seat]}> ").strip()
            if not line:
                continue
            lowered = line.lower()
            if lowered in ("?", "help"):
                self._list_choices(seat)
                continue
            if lowered == "quit":
                raise _Quit
            legal = self.rules.legal_actions(self.state, seat)
            if lowered == "auto" and self.auto_bot is not None:
                return self.auto_bot.act(self.rules.observe(self.state, seat), legal,
                                         self._rng("auto", seat))
            try:
                return self.rules.parse_action(self.state, seat, line)
            except ValueError as exc:
                # "#n" picks the n-th listed choice, but only when the game itself
                # does not read the text (Club der Tatzen writes cards as "#13");
                # a bare number is never a choice index: in Maunz it is a hand position.
                index = lowered[1:] if lowered.startswith("#") else ""
                if index.isdigit() and 1 <= int(index) <= len(legal):
                    return legal[int(index) - 1]
                self.term.write(f"Not understood: {exc}")
                self._list_choices(seat)

    def _apply(self, seat: int, action: Any) -> None:
        text = self.rules.action_to_text(self.state, action)
        self.state, events = self.rules.apply(self.state, seat, action)
        self.log = self.log.with_action(seat, text)
        for event in events:
            self._show(event)

    def _show(self, event: Event) -> None:
        self.events.append(event)
        for seat, player in enumerate(self.seats):
            if player.bot is not None:
                player.bot.notify(event, seat)
        self.term.write(event.text_for(self.viewer))
        for human in self.humans:
            if human != self.viewer and human in event.private:
                self.pending[human].append(event.private[human])
        if event.hold_s > 0 and self.term.pace > 0:
            self.term.sleep(event.hold_s * self.term.pace)
        if event.wait_enter and self.humans:
            self._read("Press Enter to go on. ")
        if event.clear_after:
            self.term.clear_screen()


def play(rules: Rules, config: Mapping[str, Any], seed: str, seats: Sequence[Seat],
         term: Terminal | None = None, *, auto_bot: Bot | None = None,
         log_path: str | Path | None = None) -> PlayOutcome:
    """Play one game at one screen until it ends or input runs out.

    Parameters
    ----------
    rules : the game's RULES object.
    config : the game configuration, ``{"players": [...], **options}``.
    seed : the game seed; bots draw from ``rng_stream(seed, "bot-<seat>", n)``.
    seats : one `Seat` per seat, in seat order (see `build_seats`).
    term : the I/O; defaults to stdin/stdout with real pauses.
    auto_bot : the bot that answers when a human types 'auto'.
    log_path : where to write the move log at the end (also after EOF or 'quit').

    Returns
    -------
    PlayOutcome with the last state, the log and whether the game finished.
    """
    term = term or Terminal()
    session = _Session(rules, config, seed, seats, term, auto_bot)
    finished = session.run()
    result = rules.result(session.state) if finished else None
    if result is not None:
        term.write(result_text(result, session.names))
    else:
        term.write("Game stopped before the end.")
    if log_path is not None:
        write_log(log_path, session.log)
        term.write(f"Move log written to {log_path}.")
    return PlayOutcome(session.state, session.log, finished, result, session.events)


def show_replay(rules: Rules, log: GameLog, write: Callable[[str], None],
                names: Sequence[str] | None = None) -> Any:
    """Replay a log, writing every event's public text and the final result.

    Raises LogError (from `replay_steps`) when the log does not replay.
    """
    intro = getattr(rules, "intro", None)
    state = rules.new_game(log.config, log.seed)
    if intro is not None:
        write(intro(state))
    for state, _seat, _action, events in replay_steps(rules, log):
        for event in events:
            write(event.public)
    if rules.is_terminal(state):
        seat_names = list(names) if names is not None else [
            f"seat {i + 1}" for i in range(len(rules.result(state).scores))]
        write(result_text(rules.result(state), seat_names))
    else:
        write("The log ends before the game does.")
    return state
