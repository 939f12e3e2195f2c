"""Command names of the companion games and where their modules live.

Modules are imported only when a game is actually played or its help is shown,
so ``beattrainer --help`` stays fast and works while a game module is missing.

Every game module follows the same contract:

- ``RULES``: an object implementing `beattrainer.games.core.Rules`
  (with ``name`` and ``rules_version``);
- ``make_bot(level) -> Bot`` for level "random", "simple" or "good"
  (anything else raises ConfigError);
- ``CONFIG_OPTIONS``: tuple of ``(key, type, default, help)``; type is int, float,
  bool, str, or a tuple of allowed strings. A config is
  ``{"players": [names...], **options}``;
- ``RULES_SUMMARY``: the rules in short, in our own words.

Optional hooks, looked up with ``getattr``:

- ``DEFAULT_BOT_LEVEL`` (module): what a plain "bot" means; "good" if absent;
- ``RULES.extra_seats(config) -> tuple[(name, bot_level), ...]``: seats the
  program always plays, appended after the players' seats (the Schwarzer Kater
  program cat);
- ``RULES.intro(state) -> str``: shown once when a game starts;
- ``RULES.resample_hidden(state, seat, rng) -> state``: redraws what `seat`
  cannot see, consistently with what it can (observation-invariance tests);
- ``CONFORMANCE_VARIANTS`` (module): extra option dicts for the conformance test.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

__all__ = ["GameEntry", "GAMES", "load_game", "GameUnavailable"]


@dataclass(frozen=True)
class GameEntry:
    """One companion game: command name, module path, one-line description."""

    command: str
    module: str
    title: str


GAMES: dict[str, GameEntry] = {
    entry.command: entry
    for entry in (
        GameEntry("kater", "beattrainer.games.schwarzer_kater",
                  "Schwarzer Kater: follow the hats, find the bait, dodge the cat."),
        GameEntry("maunz", "beattrainer.games.maunz_maunz",
                  "Maunz Maunz: shed your cards by colour or cat, call 'maunz' in time."),
        GameEntry("tatzen", "beattrainer.games.club_der_tatzen",
                  "Club der Tatzen: deduce the other players' secret cats."),
    )
}


class GameUnavailable(LookupError):
    """A registered game whose module cannot be imported (yet)."""


def load_game(command: str) -> ModuleType:
    """Import and return the module of game `command`.

    Raises KeyError for an unknown command and GameUnavailable when the module
    is missing or fails to import.
    """
    entry = GAMES[command]
    try:
        return importlib.import_module(entry.module)
    except ImportError as exc:
        raise GameUnavailable(f"the game {command!r} is not available: {exc}") from None
