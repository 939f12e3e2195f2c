"""Replayable move logs for the companion games (ruling E7).

A log is the game's name and rules version, its configuration, the seed and the
list of ``[seat, canonical action text]`` pairs. Replaying is a fold of
``rules.apply`` over the parsed actions; every action's text must round-trip
(``action_to_text(parse_action(text)) == text``), so a log that replays is also
a log in canonical form.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping

from beattrainer.games.core import Event, Rules

__all__ = ["GameLog", "LogError", "read_log", "write_log", "replay", "replay_steps",
           "log_to_json", "log_from_json"]


class LogError(ValueError):
    """A move log that cannot be read or does not replay."""


@dataclass(frozen=True)
class GameLog:
    """Everything needed to reproduce a game exactly."""

    game: str
    rules_version: str
    config: Mapping[str, Any]
    seed: str
    actions: tuple[tuple[int, str], ...] = field(default_factory=tuple)

    def with_action(self, seat: int, action_text: str) -> GameLog:
        """The log with one more action appended."""
        return GameLog(self.game, self.rules_version, self.config, self.seed,
                       self.actions + ((seat, action_text),))


def _jsonable(value: Any) -> Any:
    """Tuples become lists so the config survives JSON unchanged in meaning."""
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


def log_to_json(log: GameLog) -> dict[str, Any]:
    """The log as a JSON-ready dict."""
    return {
        "game": log.game,
        "rules_version": log.rules_version,
        "config": _jsonable(log.config),
        "seed": log.seed,
        "actions": [[seat, text] for seat, text in log.actions],
    }


def log_from_json(data: Any) -> GameLog:
    """Parse a dict (as read from JSON) into a GameLog; raises LogError if malformed."""
    if not isinstance(data, dict):
        raise LogError("a game log must be a JSON object")
    missing = [k for k in ("game", "rules_version", "config", "seed", "actions") if k not in data]
    if missing:
        raise LogError(f"game log lacks the field(s) {', '.join(missing)}")
    for key in ("game", "rules_version", "seed"):
        if not isinstance(data[key], str):
            raise LogError(f"game log field {key!r} must be a string")
    if not isinstance(data["config"], dict):
        raise LogError("game log field 'config' must be an object")
    if not isinstance(data["actions"], list):
        raise LogError("game log field 'actions' must be a list")
    actions = []
    for number, item in enumerate(data["actions"], start=1):
        ok = (isinstance(item, list) and len(item) == 2 and isinstance(item[0], int)
              and not isinstance(item[0], bool) and isinstance(item[1], str))
        if not ok:
            raise LogError(f"action {number} must be [seat, text], got {item!r}")
        actions.append((item[0], item[1]))
    return GameLog(data["game"], data["rules_version"], data["config"], data["seed"],
                   tuple(actions))


def write_log(path: str | Path, log: GameLog) -> None:
    """Write `log` as indented JSON to `path`."""
    Path(path).write_text(json.dumps(log_to_json(log), indent=1, ensure_ascii=False) + "\n",
                          encoding="utf-8")


def read_log(path: str | Path) -> GameLog:
    """Read a log written by `write_log`; raises LogError with a one-line reason."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise LogError(f"cannot read game log {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise LogError(f"game log {path} is not UTF-8 text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LogError(f"game log {path} is not valid JSON (line {exc.lineno}: {exc.msg})") \
            from None
    return log_from_json(data)


def replay_steps(rules: Rules, log: GameLog) -> Iterator[tuple[Any, int, Any, tuple[Event, ...]]]:
    """Yield ``(state_after, seat, action, events)`` for every logged action.

    Raises LogError when the log is for another game or version, when an action
    does not parse, is not canonical, or is illegal where it stands.
    """
    if log.game != rules.name:
        raise LogError(f"this log is for the game {log.game!r}, not {rules.name!r}")
    if log.rules_version != rules.rules_version:
        raise LogError(f"this log was written with rules version {log.rules_version}, "
                       f"these rules are version {rules.rules_version}")
    try:
        state = rules.new_game(log.config, log.seed)
    except ValueError as exc:
        raise LogError(f"the log's configuration is not valid: {exc}") from None
    for number, (seat, text) in enumerate(log.actions, start=1):
        if rules.is_terminal(state):
            raise LogError(f"action {number} ({text!r}) comes after the end of the game")
        try:
            action = rules.parse_action(state, seat, text)
            canonical = rules.action_to_text(state, action)
            state, events = rules.apply(state, seat, action)
        except ValueError as exc:  # IllegalAction is a ValueError
            raise LogError(f"action {number} (seat {seat + 1}: {text!r}) does not replay: {exc}") \
                from None
        if canonical != text:
            raise LogError(f"action {number} is not in canonical form: {text!r} "
                           f"(expected {canonical!r})")
        yield state, seat, action, events


def replay(rules: Rules, log: GameLog) -> Any:
    """The state reached by applying every logged action to the logged start."""
    state = None
    for state, _seat, _action, _events in replay_steps(rules, log):
        pass
    if state is None:  # an empty log is the start position
        try:
            state = rules.new_game(log.config, log.seed)
        except ValueError as exc:
            raise LogError(f"the log's configuration is not valid: {exc}") from None
    return state
