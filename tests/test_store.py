"""The SQLite store.

Runs, attempts with slots, highscores, history, calibration, crash safety (a
writer killed with SIGKILL) and damaged or foreign files.
"""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import numpy as np
import pytest

from beattrainer import store as store_module
from beattrainer.store import SCHEMA_VERSION, Store, StoreError, default_db_path
from tests.conftest import REPO, validate_contract

DAY0 = datetime(2026, 3, 1, 20, 0, tzinfo=timezone.utc)


def judge_report(cards, offsets_ms, lead="Anna", mistake_slot=None, period_s=1.2):
    """A judge report (contract judge-report/1): 2 solos, 3 rounds of `cards`, the final move.

    `offsets_ms` gives the offset of each card slot in order (3 * len(cards) values);
    with `mistake_slot` the performance stops there with a wrong word.
    """
    slots = []

    def add(role, rnd, card, offset_ms):
        index = len(slots)
        expected_s = round(1.0 + index * period_s, 4)
        heard_s = expected_s + (offset_ms or 0.0) / 1000
        wrong = index == mistake_slot
        slots.append({
            "index": index, "round": rnd, "role": role, "card": card,
            "expected": {"sound": "mzkz", "text": None, "modifier": None},
            "expected_onset_s": expected_s,
            "heard": {"onset_s": round(heard_s, 4), "label": "YEAH" if wrong else "MIEZEKATZE",
                      "confidence": 0.9},
            "offset_ms": offset_ms, "verdict": "mistake" if wrong else "ok"})

    add("solo", 0, None, None)
    add("solo", 0, None, None)
    offsets = iter(offsets_ms)
    for rnd in (1, 2, 3):
        for card in cards:
            add("card", rnd, card, float(next(offsets)))
    add("final", 0, None, None)
    mistake = None
    if mistake_slot is not None:
        slots = slots[:mistake_slot + 1]
        mistake = {"slot": mistake_slot, "kind": "wrong_word",
                   "time_s": slots[-1]["heard"]["onset_s"], "message": "YEAH instead of MIEZEKATZE"}
    timed = np.array([s["offset_ms"] for s in slots if s["offset_ms"] is not None])
    return {
        "schema": "beattrainer.judge-report/1",
        "audio": {"path": None, "sample_rate": 16000, "channels": 1,
                  "duration_s": round(3.0 + len(slots) * period_s, 3)},
        "performance": {"cards": list(cards), "challenge": None, "lead": lead},
        "tempo": {"period_s": period_s, "bpm": round(60 / period_s, 2)},
        "slots": slots, "mistake": mistake,
        "result": "mistake" if mistake else "completed",
        "timing": {"slots_timed": int(len(timed)),
                   "mean_offset_ms": float(timed.mean()) if len(timed) else None,
                   "mean_abs_offset_ms": float(np.abs(timed).mean()) if len(timed) else None,
                   "std_offset_ms": float(timed.std()) if len(timed) else None},
    }


def random_report(rng, cards, lead="Anna", mistake=False):
    """A judge report with seeded random offsets, optionally stopped by a mistake."""
    offsets = np.round(rng.normal(0, 40, size=3 * len(cards)), 1)
    stop = int(rng.integers(2, 2 + 3 * len(cards))) if mistake else None
    return judge_report(cards, offsets, lead=lead, mistake_slot=stop)


@pytest.fixture
def db(tmp_path):
    with Store.open(tmp_path / "t.db") as store:
        yield store


def play_run(store, rng, *, mode="highscore", players=("Anna", "Ben"), lives=9,
             outcomes="ok", started_at=DAY0, finish="highscore_ended"):
    """Record a run whose attempts succeed ('o') or fail ('x') as in `outcomes`."""
    deck = [f"{n:02d}" for n in rng.choice(np.arange(1, 49), size=8, replace=False)]
    run_id = store.start_run(mode=mode, players=list(players), deck=deck, lives_start=lives,
                             seed="7", started_at=started_at)
    lives_left, done = lives, 0
    for k, outcome in enumerate(outcomes):
        lead = players[done % len(players)]
        report = random_report(rng, deck[:done + 1], lead=lead, mistake=outcome == "x")
        if outcome == "x":
            lives_left -= 1
        else:
            done += 1
        store.record_attempt(run_id, performance=done + (outcome == "x"), lead=lead,
                             report=report, lives_left=lives_left, performances_completed=done,
                             recorded_at=started_at + timedelta(minutes=k + 1))
    if finish:
        store.finish_run(run_id, result=finish, ended_at=started_at + timedelta(hours=1))
    return run_id


# ------------------------------------------------------------------ opening

def test_store_imports_only_the_standard_library():
    code = ("import sys, beattrainer.store; "
            "print([m for m in ('numpy', 'sounddevice', 'matplotlib', 'soundfile', 'librosa',"
            " 'vosk', 'click', 'rich') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(REPO)}, check=True).stdout
    assert out.strip() == "[]"


def test_env_var_and_platform_default(monkeypatch, tmp_path):
    monkeypatch.delenv("BEATTRAINER_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    if sys.platform.startswith("linux"):
        assert default_db_path() == tmp_path / "xdg" / "beattrainer" / "beattrainer.db"
    assert default_db_path().name == "beattrainer.db"
    target = tmp_path / "deep" / "er" / "x.db"
    monkeypatch.setenv("BEATTRAINER_DB", str(target))
    assert default_db_path() == target
    with Store.open() as store:
        assert store.path == target
    assert target.is_file()


def test_new_database_is_durable_and_versioned(db):
    conn = db.conn
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_empty_file_is_a_new_database_not_a_corrupt_one(tmp_path):
    path = tmp_path / "empty.db"
    path.touch()
    with Store.open(path) as store:
        assert store.history() == []
    assert path.stat().st_size > 0
    assert not any(".corrupt-" in p.name for p in tmp_path.iterdir())


def test_folder_given_as_database_is_refused(tmp_path):
    with pytest.raises(StoreError, match="folder"):
        Store.open(tmp_path)


# ------------------------------------------------------------------ attempts and reports

def test_attempt_stores_every_slot_and_the_progress(db, rng):
    run_id = db.start_run(mode="highscore", players=["Anna", "Ben"], deck=["04", "11", "23"],
                          lives_start=9, seed=1, started_at=DAY0)
    report = random_report(rng, ["04"], lead="Anna")
    attempt_id = db.record_attempt(run_id, performance=1, lead="Anna", report=report,
                                   lives_left=9, performances_completed=1)
    rows = db.conn.execute("SELECT * FROM slots WHERE attempt_id = ? ORDER BY idx",
                           (attempt_id,)).fetchall()
    assert len(rows) == len(report["slots"])
    for row, slot in zip(rows, report["slots"]):
        assert (row["idx"], row["round"], row["role"], row["card"], row["verdict"]) == (
            slot["index"], slot["round"], slot["role"], slot["card"], slot["verdict"])
        assert row["expected_onset_s"] == slot["expected_onset_s"]
        assert row["heard_onset_s"] == slot["heard"]["onset_s"]
        assert row["heard_label"] == slot["heard"]["label"]
        assert row["offset_ms"] == slot["offset_ms"]
    run = db.conn.execute("SELECT * FROM runs WHERE id = ?", (run_id,)).fetchone()
    assert (run["attempts"], run["lives_left"], run["performances_completed"]) == (1, 9, 1)


def test_run_report_rebuilds_the_run_and_meets_the_contract(db, rng):
    run_id = play_run(db, rng, outcomes="oxoox", finish="stopped")
    report = db.run_report(run_id)
    validate_contract(report, "run-report")
    assert report["result"] == "stopped"
    assert report["lives_left"] == 7 and report["performances_completed"] == 3
    assert [a["performance"] for a in report["attempts"]] == [1, 2, 2, 3, 4]
    assert [a["report"]["result"] for a in report["attempts"]] == [
        "completed", "mistake", "completed", "completed", "mistake"]
    for attempt in report["attempts"]:
        validate_contract(attempt["report"], "judge-report")


def test_run_in_progress_reports_in_progress(db, rng):
    run_id = play_run(db, rng, outcomes="o", finish=None)
    report = db.run_report(run_id)
    validate_contract(report, "run-report")
    assert report["result"] == "in_progress" and len(report["attempts"]) == 1


def test_overridden_attempt_is_kept(db, rng):
    run_id = db.start_run(mode="challenge-3", players=["Cem"], deck=["05"], lives_start=3)
    report = random_report(rng, ["05"], lead="Cem", mistake=True)
    db.record_attempt(run_id, 1, "Cem", report, overridden=True, lives_left=3,
                      performances_completed=1)
    attempt = db.run_report(run_id)["attempts"][0]
    assert attempt["overridden"] is True and attempt["report"] == report


def test_attempt_is_all_or_nothing(db, rng):
    run_id = db.start_run(mode="highscore", players=["Anna"], deck=["04"], lives_start=9)
    report = random_report(rng, ["04"])
    # a value SQLite cannot store, in the last slot: the slot rows fail after the
    # attempt row went in, so the whole attempt must be rolled back
    report["slots"][-1]["card"] = ["not", "a", "card"]
    with pytest.raises(StoreError):
        db.record_attempt(run_id, 1, "Anna", report, lives_left=8, performances_completed=1)
    assert db.conn.execute("SELECT count(*) FROM attempts").fetchone()[0] == 0
    assert db.conn.execute("SELECT count(*) FROM slots").fetchone()[0] == 0
    run = db.run_report(run_id)
    assert (run["lives_left"], run["performances_completed"], run["attempts"]) == (9, 0, [])


def test_finished_or_unknown_runs_take_no_more_writes(db, rng):
    run_id = play_run(db, rng, outcomes="o")
    with pytest.raises(StoreError, match="already finished"):
        db.record_attempt(run_id, 2, "Ben", random_report(rng, ["01"]))
    with pytest.raises(StoreError, match="already finished"):
        db.finish_run(run_id, "stopped")
    with pytest.raises(StoreError, match="no run 999"):
        db.finish_run(999, "stopped")
    with pytest.raises(StoreError, match="no run 999"):
        db.run_report(999)


@pytest.mark.parametrize("call", [
    lambda s, r: s.finish_run(r, "won"),
    lambda s, r: s.finish_run(r, "stopped", ended_at=datetime(2026, 1, 1)),  # naive
    lambda s, r: s.record_attempt(r, 1, "A", {"no": "slots"}),
    lambda s, r: s.record_attempt(r, 1, "A", judge_report(["01"], [0, 0, 0]), lives_left=10),
    lambda s, r: s.start_run("highscore", ["A"], ["01"], lives_start=0),
])
def test_bad_arguments_are_value_errors_and_change_nothing(db, call):
    run_id = db.start_run(mode="highscore", players=["A"], deck=["01"], lives_start=9)
    with pytest.raises(ValueError):
        call(db, run_id)
    assert db.run_report(run_id)["attempts"] == []
    assert db.run_report(run_id)["result"] == "in_progress"


# ------------------------------------------------------------------ highscores and history

def test_highscores_rank_by_performances_then_lives_lost_then_date(db, rng):
    # (name, outcomes, days after DAY0); all highscore runs
    runs = [("A", "ooooo" + "xxx", 3), ("B", "ooooo" + "x", 5), ("C", "ooooo" + "x", 2),
            ("D", "ooooooo" + "xxxxxxxxx", 9), ("E", "oo", 1)]
    order = rng.permutation(len(runs))  # insertion order must not matter
    ids = {}
    for i in order:
        name, outcomes, day = runs[i]
        ids[name] = play_run(db, rng, players=(name, "Zoe"), outcomes=outcomes,
                             started_at=DAY0 + timedelta(days=day))
    play_run(db, rng, outcomes="o" * 12, finish=None)          # unfinished: not ranked
    play_run(db, rng, mode="challenge-4", outcomes="oo", lives=3)  # another mode
    table = db.highscores(mode="highscore")
    assert [row.run_id for row in table] == [ids[n] for n in "DCBAE"]
    assert [row.rank for row in table] == [1, 2, 3, 4, 5]
    assert [row.lives_lost for row in table] == [9, 1, 1, 3, 0]
    assert table[0].players == ("D", "Zoe") and table[0].performances_completed == 7
    assert [row.run_id for row in db.highscores(mode="highscore", limit=2)] == [ids["D"], ids["C"]]


def test_highscores_of_all_modes_are_grouped_with_a_limit_per_mode(db, rng):
    for mode, outcomes in [("highscore", "ooo"), ("challenge-4", "o"), ("highscore", "o"),
                           ("challenge-4", "oo"), ("highscore", "oo")]:
        play_run(db, rng, mode=mode, outcomes=outcomes)
    table = db.highscores(limit=2)
    assert [(row.mode, row.rank, row.performances_completed) for row in table] == [
        ("challenge-4", 1, 2), ("challenge-4", 2, 1), ("highscore", 1, 3), ("highscore", 2, 2)]
    assert db.highscores(mode="tutorial-1") == []


def test_history_is_newest_first_with_timing_figures(db, rng):
    ids = [play_run(db, rng, outcomes=outcomes, started_at=DAY0 + timedelta(days=day),
                    mode=mode, finish=finish)
           for outcomes, day, mode, finish in [("oox", 1, "highscore", "highscore_ended"),
                                               ("o", 3, "challenge-1", "challenge_completed"),
                                               ("ox", 2, "highscore", None)]]
    history = db.history()
    assert [run.run_id for run in history] == [ids[1], ids[2], ids[0]]
    by_id = {run.run_id: run for run in history}
    for run_id in ids:
        report = db.run_report(run_id)
        offsets = [s["offset_ms"] for a in report["attempts"] for s in a["report"]["slots"]
                   if s["offset_ms"] is not None]
        summary = by_id[run_id]
        assert summary.attempts == len(report["attempts"])
        assert summary.slots_timed == len(offsets)
        assert summary.mean_abs_offset_ms == pytest.approx(np.mean(np.abs(offsets)))
        assert summary.lives_lost == report["lives_start"] - report["lives_left"]
        assert summary.result == report["result"]
    assert by_id[ids[2]].ended_at is None and by_id[ids[0]].ended_at is not None
    assert [run.run_id for run in db.history(mode="highscore")] == [ids[2], ids[0]]
    assert [run.run_id for run in db.history(limit=1)] == [ids[1]]


def test_history_of_a_run_without_attempts(db):
    db.start_run(mode="tutorial-1", players=["Anna"], deck=["01"], lives_start=9)
    (run,) = db.history()
    assert (run.attempts, run.slots_timed, run.mean_abs_offset_ms) == (0, 0, None)


# ------------------------------------------------------------------ calibration

def test_calibration_round_trip_latest_wins_per_device(db):
    assert db.calibration("USB mic") is None
    first = {"noise_floor_db": -62.5, "speech_level_db": -21.0, "latency_ms": 48.0}
    second = {"noise_floor_db": -60.0, "speech_level_db": -19.5, "latency_ms": 51.5,
              "habitual_offset_ms": {"Anna": 12.0}}
    db.save_calibration("USB mic", first, saved_at=DAY0)
    db.save_calibration("built-in", {"latency_ms": 80.0}, saved_at=DAY0 + timedelta(days=2))
    db.save_calibration("USB mic", second, saved_at=DAY0 + timedelta(days=1))
    assert db.calibration("USB mic") == second
    assert db.calibration("built-in") == {"latency_ms": 80.0}
    record = db.calibration_record("USB mic")
    assert record.saved_at == DAY0 + timedelta(days=1)
    with pytest.raises(ValueError):
        db.save_calibration("USB mic", {"latency_ms": float("nan")})


def test_calibration_survives_reopening(tmp_path):
    with Store.open(tmp_path / "c.db") as store:
        store.save_calibration("default", {"latency_ms": 33.0})
    with Store.open(tmp_path / "c.db") as store:
        assert store.calibration("default") == {"latency_ms": 33.0}
        assert store.calibration_record("default").saved_at.tzinfo is not None


def test_two_connections_see_each_others_writes(tmp_path, rng):
    with Store.open(tmp_path / "s.db") as player, Store.open(tmp_path / "s.db") as viewer:
        run_id = play_run(player, rng, outcomes="oo")
        assert [row.run_id for row in viewer.highscores()] == [run_id]


# ------------------------------------------------------------------ damaged and foreign files

def _valid_database_bytes(tmp_path, rng) -> bytes:
    path = tmp_path / "source.db"
    with Store.open(path) as store:
        for _ in range(3):
            play_run(store, rng, outcomes="ooxoo")
    with sqlite3.connect(path) as conn:  # fold the WAL in so the file holds everything
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return path.read_bytes()


def _damaged(kind: str, valid: bytes, rng) -> bytes:
    if kind == "random":
        return rng.integers(0, 256, size=8192, dtype=np.uint8).tobytes()
    if kind == "text":
        return b"name,score\nAnna,5\n"
    if kind == "truncated":
        return valid[: len(valid) // 3]
    if kind == "short_header":
        return valid[:40]
    # a page in the middle overwritten with noise
    page = 4096
    noise = rng.integers(0, 256, size=page, dtype=np.uint8).tobytes()
    return valid[:2 * page] + noise + valid[3 * page:]


@pytest.mark.parametrize("kind", ["random", "text", "truncated", "short_header", "bad_page"])
def test_damaged_file_is_set_aside_never_overwritten(tmp_path, rng, kind):
    content = _damaged(kind, _valid_database_bytes(tmp_path, rng), rng)
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "beattrainer.db"
    path.write_bytes(content)
    wal_bytes = b"left-over log"
    Path(f"{path}-wal").write_bytes(wal_bytes)
    with pytest.raises(StoreError) as caught:
        Store.open(path)
    message = str(caught.value)
    assert "\n" not in message and str(path) in message
    (moved,) = [p for p in folder.iterdir() if p.name.startswith("beattrainer.db.corrupt-")
                and not p.name.endswith(("-wal", "-shm"))]
    assert str(moved) in message
    assert moved.read_bytes() == content
    assert Path(f"{moved}-wal").read_bytes() == wal_bytes
    assert not path.exists() and not Path(f"{path}-wal").exists()
    # the next start gets a fresh database; the set-aside copy stays
    with Store.open(path) as store:
        assert store.history() == []
    assert moved.read_bytes() == content


def test_setting_aside_twice_keeps_both_copies(tmp_path):
    path = tmp_path / "b.db"
    for content in (b"first junk", b"second junk"):
        path.write_bytes(content)
        with pytest.raises(StoreError):
            Store.open(path)
    kept = sorted(p.read_bytes() for p in tmp_path.iterdir() if ".corrupt-" in p.name)
    assert kept == [b"first junk", b"second junk"]


def _snapshot(folder: Path) -> dict:
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.iterdir())}


def test_newer_schema_is_refused_untouched(tmp_path, rng):
    path = tmp_path / "new.db"
    with Store.open(path) as store:
        play_run(store, rng, outcomes="oo")
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    before = _snapshot(tmp_path)
    with pytest.raises(StoreError, match="newer beattrainer") as caught:
        Store.open(path)
    assert "\n" not in str(caught.value)
    assert _snapshot(tmp_path) == before


def test_another_programs_database_is_refused_untouched(tmp_path):
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
        conn.execute("INSERT INTO photos (name) VALUES ('cat.jpg')")
    conn.close()
    before = _snapshot(tmp_path)
    with pytest.raises(StoreError, match="not beattrainer's"):
        Store.open(path)
    assert _snapshot(tmp_path) == before


def test_migration_hook_upgrades_and_keeps_data(tmp_path, rng, monkeypatch):
    path = tmp_path / "m.db"
    with Store.open(path) as store:
        run_id = play_run(store, rng, outcomes="oo")

    def add_notes(conn):
        conn.execute("ALTER TABLE runs ADD COLUMN notes TEXT")

    monkeypatch.setattr(store_module, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    monkeypatch.setitem(store_module.MIGRATIONS, SCHEMA_VERSION + 1, add_notes)
    with Store.open(path) as store:
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1
        columns = [row[1] for row in store.conn.execute("PRAGMA table_info(runs)")]
        assert "notes" in columns
        assert store.run_report(run_id)["performances_completed"] == 2


def test_failed_migration_changes_nothing(tmp_path, rng, monkeypatch):
    path = tmp_path / "m.db"
    with Store.open(path) as store:
        play_run(store, rng, outcomes="o")

    def half_done(conn):
        conn.execute("CREATE TABLE extra (x)")
        raise RuntimeError("migration bug")

    monkeypatch.setattr(store_module, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    monkeypatch.setitem(store_module.MIGRATIONS, SCHEMA_VERSION + 1, half_done)
    with pytest.raises(RuntimeError, match="migration bug"):
        Store.open(path)
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("SELECT count(*) FROM sqlite_schema WHERE name = 'extra'"
                            ).fetchone()[0] == 0
    finally:
        conn.close()


# ------------------------------------------------------------------ killed mid-write

WRITER = textwrap.dedent("""
    import numpy as np
    from beattrainer.store import Store
    from tests.test_store import random_report

    rng = np.random.default_rng({seed})
    store = Store.open({path!r})
    print("open", flush=True)
    while True:
        deck = ["04", "11", "23", "37", "42", "08", "15", "30"]
        run_id = store.start_run("highscore", ["Anna", "Ben"], deck, lives_start=9)
        lives, done = 9, 0
        while lives > 0 and done < len(deck):
            mistake = bool(rng.random() < 0.3)
            report = random_report(rng, deck[:done + 1], mistake=mistake)
            lives, done = lives - mistake, done + (not mistake)
            attempt_id = store.record_attempt(run_id, done + mistake, "Anna", report,
                                              lives_left=lives, performances_completed=done)
            print("committed", attempt_id, flush=True)
            store.save_calibration("mic", {{"latency_ms": float(attempt_id)}})
        store.finish_run(run_id, "highscore_ended" if lives == 0 else "deck_exhausted")
        print("finished", run_id, flush=True)
""")


def _check_consistent(path: Path) -> int:
    """Assert the database is whole and every attempt complete; return the attempt count."""
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall()[0][0] == "ok"
        attempts = conn.execute("SELECT * FROM attempts ORDER BY id").fetchall()
        for attempt in attempts:
            slots = conn.execute("SELECT idx FROM slots WHERE attempt_id = ? ORDER BY idx",
                                 (attempt["id"],)).fetchall()
            report = json.loads(attempt["report_json"])
            assert [row["idx"] for row in slots] == [s["index"] for s in report["slots"]]
            assert attempt["slot_count"] == len(slots)
        for run in conn.execute("SELECT * FROM runs"):
            mine = [a for a in attempts if a["run_id"] == run["id"]]
            assert run["attempts"] == len(mine)
            assert [a["number"] for a in mine] == list(range(1, len(mine) + 1))
            last = mine[-1] if mine else None
            assert run["lives_left"] == (last["lives_left"] if last else run["lives_start"])
            assert run["performances_completed"] == (last["performances_completed"] if last else 0)
            assert (run["ended_at"] is None) == (run["result"] == "in_progress")
        return len(attempts)
    finally:
        conn.close()


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals")
def test_writer_killed_at_random_moments_leaves_a_consistent_database(tmp_path, rng):
    path = tmp_path / "killed.db"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    committed: list[int] = []
    counts = []
    for round_no in range(12):
        script = WRITER.format(seed=round_no, path=str(path))
        child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, env=env)
        # the first kill lands while the file is being created; the others a seeded
        # random time after opening, i.e. anywhere in the write loop (most of which
        # is spent inside transactions and their fsyncs)
        if round_no > 0:
            assert child.stdout.readline().strip() == "open"
            time.sleep(float(rng.uniform(0.0, 0.25)))
        child.send_signal(signal.SIGKILL)
        out, _ = child.communicate()
        # only whole lines: the kill may cut the last one short ("committ")
        committed += [int(line.split()[1]) for line in out.split("\n")[:-1]
                      if line.startswith("committed ")]
        assert child.returncode == -signal.SIGKILL
        if path.exists():
            counts.append(_check_consistent(path))
    assert counts[-1] > 0 and counts == sorted(counts)
    with Store.open(path) as store:  # reopens cleanly, nothing set aside
        stored = {row[0] for row in store.conn.execute("SELECT id FROM attempts")}
        assert set(committed) <= stored  # what was reported committed survived the kill
        for summary in store.history(limit=1000):
            validate_contract(store.run_report(summary.run_id), "run-report")
    assert not any(".corrupt-" in p.name for p in tmp_path.iterdir())


def test_stopped_runs_are_history_not_highscores(tmp_path):
    with Store.open(tmp_path / "s.db") as db:
        kept = db.start_run(mode="highscore", players=["A"], deck=["04"], lives_start=9)
        db.finish_run(kept, "highscore_ended", lives_left=0, performances_completed=2)
        quitter = db.start_run(mode="highscore", players=["B"], deck=["04"], lives_start=9)
        db.finish_run(quitter, "stopped", lives_left=9, performances_completed=5)
        assert [row.run_id for row in db.highscores()] == [kept]
        assert {r.run_id for r in db.history()} == {kept, quitter}
