"""Engine interface shared by the text-mode companion games (rulings E1-E11).

A game is a `Rules` object with pure functions over an immutable state: legal
actions in a stable order, an `apply` that validates and returns events with
public and per-seat private text, per-seat observations that leak nothing, and a
text form for every action that round-trips. Randomness lives in the state as a
seed plus per-purpose counters (`rng_stream`), so a game replays exactly from its
move log. Bots see only observations.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Generic, Mapping, Protocol, Sequence, TypeVar

from beattrainer.deck.core import rng_stream, shuffled

__all__ = [
    "IllegalAction", "ConfigError", "Level", "Event", "Result", "Rules", "Bot", "RandomBot",
    "rng_stream", "shuffled", "S", "A", "Obs",
]

S = TypeVar("S")
A = TypeVar("A")
Obs = TypeVar("Obs")


class IllegalAction(ValueError):
    """An action that is not among the legal actions of that seat in that state."""


class ConfigError(ValueError):
    """A game configuration (player count, variant) that the rules do not allow."""


@dataclass(frozen=True)
class Event:
    """Something that happened: `public` text for everyone, `private` per seat.

    The optional pacing hints are for text UIs and change no rule: `kind` is a
    short tag ("move", "reveal", ...), `hold_s` how long the UI should leave the
    event on screen before going on [seconds], `wait_enter` asks it to wait for
    Enter, and `clear_after` to clear the screen afterwards (to hide what was
    shown, e.g. a layout to memorize).
    """

    public: str
    private: Mapping[int, str] = field(default_factory=dict)
    kind: str = ""
    hold_s: float = 0.0
    wait_enter: bool = False
    clear_after: bool = False

    def text_for(self, seat: int | None) -> str:
        """What `seat` (None: a spectator) is told about this event."""
        if seat is not None and seat in self.private:
            return self.private[seat]
        return self.public


@dataclass(frozen=True)
class Result:
    """The end of a game: scores per seat, a ranking (1 = best; ties share a rank)."""

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    reason: str = ""

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats ranked first (several when tied)."""
        return tuple(seat for seat, rank in enumerate(self.ranks) if rank == 1)

    @staticmethod
    def ranks_from_keys(keys: Sequence[Any]) -> tuple[int, ...]:
        """Competition ranks (1, 1, 3, ...) where a larger key is better."""
        return tuple(1 + sum(1 for other in keys if other > k) for k in keys)


class Rules(Protocol, Generic[S, A, Obs]):
    """What every companion game implements. All methods are pure."""

    name: str
    rules_version: str

    def new_game(self, config: Mapping[str, Any], seed: str,
                 *, deck_order: Sequence[str] | None = None) -> S:
        """The opening state for `config`, dealt from `seed` (or a stacked `deck_order`)."""

    def to_act(self, s: S) -> tuple[int, ...]:
        """The seats that may act now; () when terminal."""

    def legal_actions(self, s: S, seat: int) -> tuple[A, ...]:
        """The actions `seat` may take, in a stable order."""

    def apply(self, s: S, seat: int, a: A) -> tuple[S, tuple[Event, ...]]:
        """The state after `seat` plays `a`, and what happened; raises IllegalAction."""

    def is_terminal(self, s: S) -> bool:
        """True when the game is over."""

    def result(self, s: S) -> Result:
        """Scores and ranks of a finished game."""

    def observe(self, s: S, seat: int) -> Obs:
        """What `seat` may see of the state: frozen, and leaking nothing hidden."""

    def render(self, obs: Obs) -> str:
        """The text one seat sees for its observation."""

    def action_to_text(self, s: S, a: A) -> str:
        """The text form of action `a`; `parse_action` reads it back."""

    def parse_action(self, s: S, seat: int, text: str) -> A:
        """The action `text` names for `seat`: the inverse of `action_to_text`."""


class Bot(Protocol[Obs, A]):
    """A computer player. It sees an observation and the legal actions only."""

    def act(self, obs: Obs, legal: tuple[A, ...], rng: random.Random) -> A:
        """The bot's choice among `legal`, drawing only on `rng`."""

    def notify(self, event: Event, seat: int) -> None:
        """Memory hook: `event` as `seat` sees it; a bot may ignore it."""


class RandomBot:
    """Picks uniformly among the legal actions (on ``rng.random()`` only)."""

    level = "random"

    def act(self, obs: Any, legal: tuple[Any, ...], rng: random.Random) -> Any:
        """Pick one legal action at random."""
        return legal[int(rng.random() * len(legal))]

    def notify(self, event: Event, seat: int) -> None:
        """Random bots remember nothing."""


class Level(str, Enum):
    """Bot strength as named on the command line (`bot`, `bot:good`)."""

    RANDOM = "random"
    SIMPLE = "simple"
    GOOD = "good"
