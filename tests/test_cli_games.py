"""The companion-game commands end to end.

Stdin through CliRunner, and a real terminal (pty) for Schwarzer Kater.
"""
from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys

from click.testing import CliRunner

from beattrainer.cli import cli

PTY_READ_LIMIT_S = 120  # a safety net against a hung child, not a timing assertion


def test_kater_game_driven_through_stdin(tmp_path):
    log = tmp_path / "kater.json"
    answers = "\n".join(["4", "2", "5", "1", "3", "2"]) + "\n"
    out = CliRunner().invoke(cli, ["kater", "--players", "Anna,bot", "--seed", "stdin",
                                   "--pace", "0", "--log", str(log)], input=answers)
    assert out.exit_code == 0, out.output
    assert "Mouse Anna, which hat? (1-5)" in out.output
    assert "Final standings:" in out.output
    data = json.loads(log.read_text())
    assert data["game"] == "schwarzer_kater" and data["seed"] == "stdin"
    assert data["config"]["players"] == ["Anna", "Bot2"]
    assert [seat for seat, _ in data["actions"]].count(0) >= 1
    replayed = CliRunner().invoke(cli, ["kater", "--replay", str(log)])
    assert replayed.exit_code == 0 and "Final standings:" in replayed.output


def test_kater_eof_midway_saves_the_log(tmp_path):
    log = tmp_path / "stopped.json"
    out = CliRunner().invoke(cli, ["kater", "--players", "Anna", "--seed", "eof", "--pace", "0",
                                   "--log", str(log)], input="2\n")
    assert out.exit_code == 0, out.output
    assert "Game stopped before the end." in out.output
    assert len(json.loads(log.read_text())["actions"]) > 1


def test_kater_two_player_game_with_a_human_cat_through_stdin():
    lines = []
    for _game in (1, 2):
        for _round in range(5):
            lines += ["", "auto", "auto", "auto", "auto", "", "auto"]
    out = CliRunner().invoke(cli, ["kater", "--players", "Anna,Ben", "--host", "human",
                                   "--two-player", "--seed", "2p", "--pace", "0"],
                             input="\n".join(lines) + "\n" * 40)
    assert out.exit_code == 0, out.output
    assert "Pass to Ben, then press Enter." in out.output
    assert "Game 2: Ben is the cat, Anna the mouse." in out.output
    assert "Final standings:" in out.output


def test_game_command_errors_are_one_line():
    runner = CliRunner()
    for args, words in [
        (["kater", "--seed", "1"], "--players"),
        (["kater", "--players", "Anna", "--tokens", "9"], "tokens must be 3, 4 or 5"),
        (["kater", "--players", "A,B,C,D,E,F,G,H,I"], "at most 8 mice"),
        (["kater", "--players", "Anna,bot:wizard"], "unknown bot level"),
    ]:
        out = runner.invoke(cli, args)
        assert out.exit_code == 2, out.output
        assert words in out.output and out.output.count("\n") == 1


def test_replay_of_a_malformed_log_is_a_one_line_error(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    out = CliRunner().invoke(cli, ["kater", "--replay", str(bad)])
    assert out.exit_code == 2 and "not valid JSON" in out.output


def test_kater_in_a_real_terminal(tmp_path):
    master, slave = pty.openpty()
    env = dict(os.environ, COLUMNS="80", LINES="24")
    proc = subprocess.Popen(
        [sys.executable, "-m", "beattrainer", "kater", "--players", "Anna", "--seed", "pty",
         "--pace", "0"], stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
    os.close(slave)
    output = b""
    answered = 0
    try:
        while True:
            ready, _, _ = select.select([master], [], [], PTY_READ_LIMIT_S)
            assert ready, "the game stopped talking:\n" + output.decode(errors="replace")
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            output += chunk
            if output.count(b"Anna> ") > answered:
                answered += 1
                os.write(master, b"%d\n" % (1 + answered % 5))
    finally:
        os.close(master)
        code = proc.wait(timeout=PTY_READ_LIMIT_S)
    text = output.decode(errors="replace")
    assert code == 0, text
    assert "\x1b[2J" in text                      # the layout is hidden by clearing the screen
    assert "Mouse Anna, which hat? (1-5)" in text
    assert "Final standings:" in text
    assert answered >= 1
