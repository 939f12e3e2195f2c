"""Move logs: JSON round trip, clear errors on malformed logs, replay as a fold."""
from __future__ import annotations

import json

import pytest

from beattrainer.deck.core import rng_stream
from beattrainer.games.log import (
    GameLog,
    LogError,
    log_from_json,
    log_to_json,
    read_log,
    replay,
    replay_steps,
    write_log,
)
from beattrainer.games.schwarzer_kater import RULES, make_bot

CONFIG = {"players": ["Anna", "Ben"], "moves_per_round": 3}


def played_log(seed: str = "log-seed", steps: int | None = None):
    """A bot game (or its first `steps` actions): final state and log."""
    bots = {}
    s = RULES.new_game(CONFIG, seed)
    log = GameLog(RULES.name, RULES.rules_version, CONFIG, seed)
    n = 0
    while not RULES.is_terminal(s) and (steps is None or n < steps):
        seat = RULES.to_act(s)[0]
        bot = bots.setdefault(seat, make_bot("good"))
        a = bot.act(RULES.observe(s, seat), RULES.legal_actions(s, seat),
                    rng_stream(seed, f"bot-{seat}", n))
        log = log.with_action(seat, RULES.action_to_text(s, a))
        s, _ = RULES.apply(s, seat, a)
        n += 1
    return s, log


def test_write_then_read_gives_the_same_log(tmp_path):
    _, log = played_log()
    path = tmp_path / "game.json"
    write_log(path, log)
    back = read_log(path)
    assert back == log
    data = json.loads(path.read_text())
    assert set(data) == {"game", "rules_version", "config", "seed", "actions"}
    assert all(isinstance(item, list) and len(item) == 2 for item in data["actions"])


def test_replay_reproduces_the_final_state(tmp_path):
    final, log = played_log()
    assert RULES.is_terminal(final)
    assert replay(RULES, log) == final
    path = tmp_path / "game.json"
    write_log(path, log)
    assert replay(RULES, read_log(path)) == final


def test_replay_of_a_partial_log_stops_where_it_ends():
    part, log = played_log(steps=7)
    assert not RULES.is_terminal(part)
    assert replay(RULES, log) == part
    assert len(list(replay_steps(RULES, log))) == 7


def test_empty_log_is_the_start_position():
    log = GameLog(RULES.name, RULES.rules_version, CONFIG, "s")
    assert replay(RULES, log) == RULES.new_game(CONFIG, "s")


def test_config_tuples_survive_json_as_lists():
    log = GameLog("g", "1", {"players": ("A", "B"), "nested": {"x": (1, 2)}}, "s")
    data = log_to_json(log)
    assert data["config"] == {"players": ["A", "B"], "nested": {"x": [1, 2]}}


@pytest.mark.parametrize("text, words", [
    ("not json", "not valid JSON"),
    ("[]", "must be a JSON object"),
    ('{"game": "x"}', "lacks the field"),
    ('{"game": 1, "rules_version": "1", "config": {}, "seed": "s", "actions": []}', "'game'"),
    ('{"game": "x", "rules_version": "1", "config": [], "seed": "s", "actions": []}', "config"),
    ('{"game": "x", "rules_version": "1", "config": {}, "seed": "s", "actions": {}}', "actions"),
    ('{"game": "x", "rules_version": "1", "config": {}, "seed": "s", "actions": [[0]]}',
     "action 1"),
    ('{"game": "x", "rules_version": "1", "config": {}, "seed": "s", "actions": [["0", "a"]]}',
     "action 1"),
])
def test_malformed_logs_give_one_line_errors(tmp_path, text, words):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(LogError) as info:
        read_log(path)
    assert words in str(info.value) and "\n" not in str(info.value)


def test_missing_file_is_a_log_error(tmp_path):
    with pytest.raises(LogError, match="cannot read"):
        read_log(tmp_path / "nope.json")


def _with_actions(log: GameLog, actions) -> GameLog:
    return GameLog(log.game, log.rules_version, log.config, log.seed, tuple(actions))


def test_replay_refuses_other_games_versions_and_bad_actions():
    final, log = played_log()
    with pytest.raises(LogError, match="for the game"):
        replay(RULES, GameLog("maunz_maunz", log.rules_version, log.config, log.seed,
                              log.actions))
    with pytest.raises(LogError, match="rules version"):
        replay(RULES, GameLog(log.game, "0", log.config, log.seed, log.actions))
    with pytest.raises(LogError, match="configuration"):
        replay(RULES, GameLog(log.game, log.rules_version, {"players": []}, log.seed, ()))
    seat, text = log.actions[0]
    with pytest.raises(LogError, match="action 1"):
        replay(RULES, _with_actions(log, [(seat, "move 1 2")]))        # a move before the layout
    with pytest.raises(LogError, match="action 1"):
        replay(RULES, _with_actions(log, [(0, text)]))                 # wrong seat
    relaxed = text.replace("layout ", "").replace(",", "")             # parses, not canonical
    with pytest.raises(LogError, match="canonical"):
        replay(RULES, _with_actions(log, [(seat, relaxed)]))
    with pytest.raises(LogError, match="after the end"):
        replay(RULES, _with_actions(log, list(log.actions) + [log.actions[-1]]))


def test_log_from_json_accepts_what_log_to_json_writes():
    _, log = played_log(steps=5)
    assert log_from_json(json.loads(json.dumps(log_to_json(log)))) == log
