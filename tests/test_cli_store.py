"""`beattrainer highscores` and `beattrainer history` through CliRunner."""
from __future__ import annotations

import json
import sqlite3
from datetime import timedelta

import pytest
from click.testing import CliRunner

from beattrainer.cli import cli
from beattrainer.store import SCHEMA_VERSION, Store
from tests.test_store import DAY0, play_run


@pytest.fixture
def filled_db(tmp_path, rng):
    """A database with highscore and challenge runs; returns (path, {name: run_id})."""
    path = tmp_path / "scores.db"
    ids = {}
    with Store.open(path) as store:
        for name, mode, outcomes, day, finish in [
                ("Anna", "highscore", "oooxo", 1, "highscore_ended"),
                ("Ben", "highscore", "oooooxx", 2, "deck_exhausted"),
                ("Cem", "highscore", "oooo", 3, "highscore_ended"),
                ("Finn", "highscore", "oooooooo", 0, "stopped"),
                ("Dora", "challenge-3", "oo", 4, "challenge_completed"),
                ("Emil", "highscore", "oooooooo", 5, None)]:
            ids[name] = play_run(store, rng, mode=mode, players=(name, "Zoe"), outcomes=outcomes,
                                 started_at=DAY0 + timedelta(days=day), finish=finish)
    return path, ids


def invoke(*args, env=None):
    return CliRunner().invoke(cli, list(args), env=env)


def test_highscores_table_is_ranked_and_grouped(filled_db):
    path, _ = filled_db
    result = invoke("highscores", "--db", str(path))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines.index("challenge-3") < lines.index("highscore")
    ranked = [line for line in lines[lines.index("highscore") + 1:] if line.strip()]
    # Ben 5 performances; Cem and Anna 4 each, Cem lost no life; Emil unfinished
    assert [line.split()[-2].rstrip(",") for line in ranked] == ["Ben", "Cem", "Anna"]
    assert ranked[0].split()[:2] == ["1.", "5"]
    assert not any("Emil" in line or "Finn" in line for line in lines)  # unfinished, stopped


def test_highscores_json_matches_the_store(filled_db):
    path, ids = filled_db
    result = invoke("highscores", "--db", str(path), "--mode", "highscore", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert [row["run_id"] for row in rows] == [ids["Ben"], ids["Cem"], ids["Anna"]]
    with Store.open(path) as store:
        assert rows == [row.to_json() for row in store.highscores(mode="highscore")]


def test_highscores_of_an_empty_or_unknown_mode(tmp_path, filled_db):
    result = invoke("highscores", "--db", str(tmp_path / "new.db"))
    assert result.exit_code == 0 and "no finished runs yet" in result.output
    result = invoke("highscores", "--db", str(filled_db[0]), "--mode", "tutorial-2")
    assert result.exit_code == 0 and "tutorial-2" in result.output


def test_history_lists_newest_first_with_limit_and_mode(filled_db):
    path, _ = filled_db
    result = invoke("history", "--db", str(path))
    assert result.exit_code == 0, result.output
    names = [line.split()[-2].rstrip(",") for line in result.output.splitlines()]
    assert names == ["Emil", "Dora", "Cem", "Ben", "Anna", "Finn"]
    assert "in_progress" in result.output.splitlines()[0]
    result = invoke("history", "--db", str(path), "--mode", "highscore", "--limit", "2")
    assert [line.split()[-2].rstrip(",") for line in result.output.splitlines()] == [
        "Emil", "Cem"]


def test_history_plot_is_a_png(filled_db, tmp_path):
    out = tmp_path / "progress.png"
    result = invoke("history", "--db", str(filled_db[0]), "--plot", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 5_000


def test_history_plot_into_a_missing_folder_is_a_one_line_error(filled_db, tmp_path):
    result = invoke("history", "--db", str(filled_db[0]), "--plot",
                    str(tmp_path / "no" / "such" / "p.png"))
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.output.splitlines()[-1].startswith("error:")


def test_environment_variable_names_the_database(filled_db):
    path, ids = filled_db
    result = invoke("highscores", "--json", env={"BEATTRAINER_DB": str(path)})
    assert result.exit_code == 0, result.output
    assert ids["Ben"] in [row["run_id"] for row in json.loads(result.output)]


def test_corrupt_database_is_a_one_line_error_and_set_aside(tmp_path, rng):
    path = tmp_path / "scores.db"
    junk = rng.integers(0, 256, size=3000, dtype="uint8").tobytes()
    path.write_bytes(junk)
    result = invoke("history", "--db", str(path))
    assert result.exit_code == 2
    assert result.output.startswith("error:") and result.output.count("\n") == 1
    assert "Traceback" not in result.output
    (moved,) = [p for p in tmp_path.iterdir() if ".corrupt-" in p.name]
    assert moved.read_bytes() == junk and str(moved) in result.output
    # the next command starts from a fresh database
    result = invoke("highscores", "--db", str(path))
    assert result.exit_code == 0 and "no finished runs yet" in result.output


def test_newer_database_is_a_one_line_error(filled_db):
    path, _ = filled_db
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    conn.close()
    result = invoke("highscores", "--db", str(path))
    assert result.exit_code == 2 and "newer beattrainer" in result.output
    assert result.output.count("\n") == 1


def test_db_that_is_a_folder_is_a_one_line_error(tmp_path):
    result = invoke("history", "--db", str(tmp_path))
    assert result.exit_code == 2 and "folder" in result.output
