"""Persistence of runs, attempts, highscores and calibration in one SQLite file.

Crash safety comes from SQLite itself, used carefully:

* WAL journal with ``synchronous=FULL``: a committed attempt survives a killed
  process and a power cut; a transaction cut short leaves no trace.
* Every write that touches more than one row runs in one ``BEGIN IMMEDIATE``
  transaction, so an attempt is stored with all its slots and the run's
  progress, or not at all.
* The schema version lives in ``PRAGMA user_version``; `MIGRATIONS` upgrades
  older files step by step, and a file from a newer version is refused
  without being touched.
* A file that is not a SQLite database, or one SQLite finds damaged, is set
  aside (renamed to ``<name>.corrupt-<UTC time>``, with its -wal and -shm) and
  reported; it is never overwritten or deleted.

Only the standard library is imported here.
"""
from __future__ import annotations

import json
import os
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import wraps
from pathlib import Path
from typing import Callable, Iterator

SCHEMA_VERSION = 1
#: Marks the file as ours in the SQLite header ("BTdb"), so another program's
#: database given by mistake is refused rather than migrated.
APPLICATION_ID = 0x42546462
DB_ENV_VAR = "BEATTRAINER_DB"
DB_FILE_NAME = "beattrainer.db"
RESULTS = ("stopped", "challenge_completed", "challenge_failed", "highscore_ended",
           "deck_exhausted")
IN_PROGRESS = "in_progress"
RUN_REPORT_SCHEMA = "beattrainer.run-report/1"

_SQLITE_MAGIC = b"SQLite format 3\x00"
_HEADER_BYTES = 100
# SQLite result codes that mean "the file is damaged or not a database"
_CORRUPT_CODES = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB
_BUSY_TIMEOUT_MS = 5000


class StoreError(Exception):
    """The database cannot be used; the message is one line for the user."""


@dataclass(frozen=True)
class Highscore:
    """One finished run in a highscore table."""

    rank: int
    run_id: int
    mode: str
    players: tuple[str, ...]
    performances_completed: int
    lives_start: int
    lives_left: int
    result: str
    started_at: datetime
    ended_at: datetime

    @property
    def lives_lost(self) -> int:
        """Lives the group lost in the run."""
        return self.lives_start - self.lives_left

    def to_json(self) -> dict:
        """A plain JSON object (dates as ISO 8601 UTC)."""
        return {"rank": self.rank, "run_id": self.run_id, "mode": self.mode,
                "players": list(self.players),
                "performances_completed": self.performances_completed,
                "lives_start": self.lives_start, "lives_left": self.lives_left,
                "lives_lost": self.lives_lost, "result": self.result,
                "started_at": self.started_at.isoformat(),
                "ended_at": self.ended_at.isoformat()}


@dataclass(frozen=True)
class RunSummary:
    """One run in the history: its outcome and timing in a few figures."""

    run_id: int
    mode: str
    players: tuple[str, ...]
    result: str
    attempts: int
    performances_completed: int
    lives_start: int
    lives_left: int
    slots_timed: int
    mean_abs_offset_ms: float | None
    started_at: datetime
    ended_at: datetime | None

    @property
    def lives_lost(self) -> int:
        """Lives the group lost in the run."""
        return self.lives_start - self.lives_left

    def to_json(self) -> dict:
        """A plain JSON object (dates as ISO 8601 UTC)."""
        return {"run_id": self.run_id, "mode": self.mode, "players": list(self.players),
                "result": self.result, "attempts": self.attempts,
                "performances_completed": self.performances_completed,
                "lives_start": self.lives_start, "lives_left": self.lives_left,
                "lives_lost": self.lives_lost, "slots_timed": self.slots_timed,
                "mean_abs_offset_ms": self.mean_abs_offset_ms,
                "started_at": self.started_at.isoformat(),
                "ended_at": self.ended_at.isoformat() if self.ended_at else None}


@dataclass(frozen=True)
class CalibrationRecord:
    """The latest calibration of one device and when it was saved."""

    device: str
    values: dict
    saved_at: datetime


# ------------------------------------------------------------------ schema

_SCHEMA_1 = """
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    mode TEXT NOT NULL,
    players_json TEXT NOT NULL,
    deck_json TEXT NOT NULL,
    lives_start INTEGER NOT NULL CHECK (lives_start >= 1),
    lives_left INTEGER NOT NULL CHECK (lives_left >= 0),
    performances_completed INTEGER NOT NULL DEFAULT 0 CHECK (performances_completed >= 0),
    attempts INTEGER NOT NULL DEFAULT 0,
    seed TEXT,
    device TEXT,
    result TEXT NOT NULL DEFAULT 'in_progress',
    started_at TEXT NOT NULL,
    ended_at TEXT
);
CREATE INDEX runs_by_mode ON runs (mode, result);

CREATE TABLE attempts (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs (id),
    number INTEGER NOT NULL,               -- 1, 2, ... within the run
    performance INTEGER NOT NULL CHECK (performance >= 1),
    lead TEXT,
    overridden INTEGER NOT NULL DEFAULT 0,
    result TEXT,                           -- the judge report's result
    mistake_kind TEXT,
    mistake_slot INTEGER,
    period_s REAL,
    slot_count INTEGER NOT NULL,
    slots_timed INTEGER NOT NULL,
    mean_abs_offset_ms REAL,
    lives_left INTEGER NOT NULL,           -- the run's progress after this attempt
    performances_completed INTEGER NOT NULL,
    recorded_at TEXT NOT NULL,
    report_json TEXT NOT NULL,
    UNIQUE (run_id, number)
);

CREATE TABLE slots (
    attempt_id INTEGER NOT NULL REFERENCES attempts (id),
    idx INTEGER NOT NULL,
    round INTEGER,
    role TEXT,
    card TEXT,
    expected_sound TEXT,
    expected_text TEXT,
    expected_modifier TEXT,
    expected_onset_s REAL,
    heard_label TEXT,
    heard_onset_s REAL,
    offset_ms REAL,
    verdict TEXT,
    PRIMARY KEY (attempt_id, idx)
) WITHOUT ROWID;

CREATE TABLE calibrations (
    id INTEGER PRIMARY KEY,
    device TEXT NOT NULL,
    values_json TEXT NOT NULL,
    saved_at TEXT NOT NULL
);
CREATE INDEX calibrations_by_device ON calibrations (device, saved_at);
"""


def _migrate_to_1(conn: sqlite3.Connection) -> None:
    """Create the first schema in an empty database."""
    for statement in _SCHEMA_1.split(";"):
        if statement.strip():
            conn.execute(statement)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")


#: target version -> step that brings a database from version-1 to it; each step
#: runs in the same transaction as the user_version update.
MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {1: _migrate_to_1}


# ------------------------------------------------------------------ paths and time

def default_db_path() -> Path:
    """Where the database lives unless a path is given.

    ``$BEATTRAINER_DB`` when set, else ``beattrainer.db`` in the user data folder
    (platformdirs ``user_data_dir("beattrainer")``).
    """
    override = os.environ.get(DB_ENV_VAR)
    if override:
        return Path(override).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("beattrainer", appauthor=False)) / DB_FILE_NAME


def _utc_text(moment: datetime | None) -> str:
    """An aware datetime (default: now) as sortable ISO 8601 text in UTC."""
    if moment is None:
        moment = datetime.now(timezone.utc)
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError("give an aware datetime (with a time zone), "
                         "e.g. datetime.now(timezone.utc)")
    # fixed width (microseconds always present) keeps text order = time order
    return moment.astimezone(timezone.utc).isoformat(timespec="microseconds")


def _from_utc_text(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def _stamp_now() -> str:
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")


# ------------------------------------------------------------------ opening safely

def _read_header(path: Path) -> bytes | None:
    """The first 100 bytes of the file, or None when it does not exist."""
    try:
        with path.open("rb") as handle:
            return handle.read(_HEADER_BYTES)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StoreError(f"{path}: cannot read the database ({exc.strerror or exc})")


def _header_problem(header: bytes) -> str | None:
    """Why a non-empty file cannot be a SQLite database, or None."""
    if not header.startswith(_SQLITE_MAGIC):
        return "not a SQLite database"
    if len(header) < _HEADER_BYTES:
        return "the file is truncated"
    return None


def _header_int(header: bytes, offset: int) -> int:
    return int.from_bytes(header[offset:offset + 4], "big", signed=True)


def _companions(path: Path) -> list[Path]:
    return [Path(f"{path}-wal"), Path(f"{path}-shm"), Path(f"{path}-journal")]


def set_aside(path: Path) -> Path:
    """Rename a damaged database (and its -wal/-shm/-journal) out of the way.

    Returns the new path, ``<name>.corrupt-<UTC time>``; the companion files keep
    their suffix after it so SQLite can still open the copy for a rescue.
    """
    stamp = _stamp_now()
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    counter = 1
    while target.exists() or any(p.exists() for p in _companions(target)):
        counter += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{counter}")
    try:
        path.rename(target)
        for old, new in zip(_companions(path), _companions(target)):
            if old.exists():
                old.rename(new)
    except OSError as exc:
        raise StoreError(f"{path}: the database is damaged and could not be moved aside "
                         f"({exc.strerror or exc}); move or delete it yourself")
    return target


def _one_line(text: object, limit: int = 120) -> str:
    """SQLite's message squeezed onto one short line."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[:limit - 3] + "..."


def _corrupt(path: Path, why: str) -> StoreError:
    """Set the file aside and build the error that says where it went."""
    moved = set_aside(path)
    return StoreError(f"{path}: {_one_line(why)}; moved it to {moved} "
                      "(a new empty database is created next time)")


def _is_corruption(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return (code & 0xFF) in _CORRUPT_CODES
    text = str(exc).lower()
    return "malformed" in text or "not a database" in text


def _newer_schema_error(path: Path, version: int) -> StoreError:
    return StoreError(f"{path}: written by a newer beattrainer (database schema {version}, this "
                      f"version reads up to {SCHEMA_VERSION}); upgrade beattrainer or use "
                      "another file with --db")


def _connect(path: Path) -> sqlite3.Connection:
    # isolation_level=None: we issue BEGIN/COMMIT ourselves (see Store._transaction)
    conn = sqlite3.connect(str(path), timeout=_BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    conn.row_factory = sqlite3.Row
    return conn


def _check_contents(conn: sqlite3.Connection, path: Path, quick_check: bool = True) -> int:
    """Integrity, ownership and version checks; returns the schema version.

    Raises sqlite3.DatabaseError when SQLite finds damage, StoreError when the
    file is someone else's or from a newer version.
    """
    if quick_check:
        rows = conn.execute("PRAGMA quick_check").fetchall()
        if [tuple(r) for r in rows] != [("ok",)]:
            raise sqlite3.DatabaseError(
                f"database disk image is malformed: {_one_line(rows[0][0])}")
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    tables = conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]
    if app_id != APPLICATION_ID and (app_id != 0 or tables or version):
        raise StoreError(f"{path}: a SQLite database, but not beattrainer's; "
                         "use another file with --db")
    if version > SCHEMA_VERSION:
        raise _newer_schema_error(path, version)
    return version


def _inspect_read_only(path: Path) -> bool:
    """Check an existing file without letting SQLite write to it; True when checked.

    A read-write connection checkpoints the WAL into the main file when it
    closes and deletes the WAL, which would rewrite a damaged file before we
    could set it aside. A read-only connection never does either.
    """
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True,
                               timeout=_BUSY_TIMEOUT_MS / 1000)
    except sqlite3.Error:
        return False
    try:
        _check_contents(conn, path)
    except sqlite3.Error as exc:
        if _is_corruption(exc):
            conn.close()
            raise _corrupt(path, f"the database is damaged ({_one_line(exc)})")
        return False  # e.g. a hot journal only a writer can roll back: the writer checks
    finally:
        conn.close()
    return True


def _configure(conn: sqlite3.Connection, path: Path, checked: bool) -> None:
    """The checks (unless done read-only), the durable settings and the migrations."""
    version = _check_contents(conn, path, quick_check=not checked)
    mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
    if str(mode).lower() != "wal":
        raise StoreError(f"{path}: cannot use a write-ahead log here (journal mode {mode}); "
                         "put the database on a local disk with --db")
    # FULL, not NORMAL: an attempt is written every half minute at most, so the
    # extra fsync costs nothing and a power cut cannot lose a committed attempt.
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA foreign_keys = ON")
    _migrate(conn, version)


def _migrate(conn: sqlite3.Connection, version: int) -> None:
    """Bring the schema from `version` to SCHEMA_VERSION, one transaction per step."""
    for target in range(version + 1, SCHEMA_VERSION + 1):
        conn.execute("BEGIN IMMEDIATE")
        try:
            # another process may have migrated while we waited for the lock
            if conn.execute("PRAGMA user_version").fetchone()[0] >= target:
                conn.execute("COMMIT")
                continue
            MIGRATIONS[target](conn)
            conn.execute(f"PRAGMA user_version = {target}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise


# ------------------------------------------------------------------ the store

def _db_errors(method):
    """Turn SQLite errors met after opening (disk full, damage found late) into StoreError."""
    @wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: database error ({_one_line(exc)})") from exc
    return wrapper


class Store:
    """Runs, attempts with their slots, highscores and calibrations in SQLite.

    Open with `Store.open`; use as a context manager or call `close`.
    """

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self._conn = conn
        self.path = path

    @classmethod
    def open(cls, path: str | os.PathLike | None = None) -> "Store":
        """Open (or create) the database at `path` (default: `default_db_path`).

        Raises
        ------
        StoreError
            The folder cannot be created, the file is not beattrainer's or is
            from a newer version (both left untouched), or it is damaged (then
            it has been set aside and the message says where).
        """
        path = Path(path).expanduser() if path is not None else default_db_path()
        if path.is_dir():
            raise StoreError(f"{path}: is a folder, not a database file")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"{path.parent}: cannot create the folder ({exc.strerror or exc})")
        header = _read_header(path)
        if header:  # an empty file is a valid, empty SQLite database
            problem = _header_problem(header)
            if problem:
                raise _corrupt(path, problem)
            if _header_int(header, 60) > SCHEMA_VERSION:
                # refuse before SQLite opens it: opening may checkpoint or rewrite it
                raise _newer_schema_error(path, _header_int(header, 60))
        checked = bool(header) and _inspect_read_only(path)
        try:
            conn = _connect(path)
        except sqlite3.Error as exc:
            raise StoreError(f"{path}: cannot open the database ({_one_line(exc)})")
        try:
            _configure(conn, path, checked)
        except sqlite3.Error as exc:
            conn.close()
            if _is_corruption(exc):
                raise _corrupt(path, f"the database is damaged ({_one_line(exc)})")
            raise StoreError(f"{path}: cannot use the database ({_one_line(exc)})")
        except BaseException:
            conn.close()
            raise
        return cls(conn, path)

    # ---------------------------------------------------------- lifecycle

    def close(self) -> None:
        """Close the connection (safe to call twice)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    @property
    def conn(self) -> sqlite3.Connection:
        """The open connection (for checks and tests)."""
        if self._conn is None:
            raise StoreError(f"{self.path}: the database is closed")
        return self._conn

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: all of it is committed, or none of it."""
        conn = self.conn
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot write ({_one_line(exc)})")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        try:
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise StoreError(f"{self.path}: cannot write ({_one_line(exc)})")

    def _run_row(self, conn: sqlite3.Connection, run_id: int) -> sqlite3.Row:
        row = conn.execute("SELECT * FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            raise StoreError(f"no run {run_id} in {self.path}")
        return row

    # ---------------------------------------------------------- runs

    @_db_errors
    def start_run(self, mode: str, players, deck, lives_start: int, seed=None,
                  device: str | None = None, started_at: datetime | None = None) -> int:
        """Record a new run in progress and return its id.

        Parameters
        ----------
        mode : str
            As in the run-report contract: tutorial-1, challenge-N, highscore, ...
        players : sequence of str
            Names clockwise from the first lead.
        deck : sequence of str
            Card ids in draw order, e.g. ["04", "11"].
        lives_start : int
            Lives at the start (at least 1).
        seed, device : optional
            Kept for replaying the run; `seed` is stored as text.
        started_at : datetime, optional
            Aware datetime; default now (UTC).
        """
        if not mode:
            raise ValueError("mode must not be empty")
        if int(lives_start) < 1:
            raise ValueError("lives_start must be at least 1")
        started = _utc_text(started_at)
        with self._transaction() as conn:
            cursor = conn.execute(
                "INSERT INTO runs (mode, players_json, deck_json, lives_start, lives_left, seed,"
                " device, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (mode, json.dumps(list(players)), json.dumps(list(deck)), int(lives_start),
                 int(lives_start), None if seed is None else str(seed), device, started))
            return int(cursor.lastrowid)

    @_db_errors
    def record_attempt(self, run_id: int, performance: int, lead: str | None, report: dict,
                       overridden: bool = False, lives_left: int | None = None,
                       performances_completed: int | None = None,
                       recorded_at: datetime | None = None) -> int:
        """Store one judged attempt with all its slots and the run's progress after it.

        Everything is written in one transaction: after a crash the attempt is
        either complete (report, every slot row, the run's lives and
        performances) or absent.

        Parameters
        ----------
        run_id : int
            A run from `start_run` that is not finished.
        performance : int
            Which performance of the run this attempt was (1, 2, ...; repeated
            attempts of the same performance share the number).
        lead : str or None
            The lead player's name.
        report : dict
            The attempt's judge report (contract beattrainer.judge-report/1).
        overridden : bool
            The group overruled the trainer's verdict.
        lives_left, performances_completed : int, optional
            The run's progress after this attempt; unchanged when omitted.
        """
        slots = _report_slots(report)
        timed = [abs(s["offset_ms"]) for s in slots if s.get("offset_ms") is not None]
        mistake = report.get("mistake") or {}
        try:
            report_json = json.dumps(report, allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"the judge report is not plain JSON ({exc})") from None
        recorded = _utc_text(recorded_at)
        with self._transaction() as conn:
            run, lives, done = self._progress(conn, run_id, lives_left, performances_completed)
            number = run["attempts"] + 1
            cursor = conn.execute(
                "INSERT INTO attempts (run_id, number, performance, lead, overridden, result,"
                " mistake_kind, mistake_slot, period_s, slot_count, slots_timed,"
                " mean_abs_offset_ms, lives_left, performances_completed, recorded_at,"
                " report_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (run_id, number, int(performance), lead, int(bool(overridden)),
                 report.get("result"), mistake.get("kind"), mistake.get("slot"),
                 (report.get("tempo") or {}).get("period_s"), len(slots), len(timed),
                 sum(timed) / len(timed) if timed else None, lives, done, recorded,
                 report_json))
            attempt_id = int(cursor.lastrowid)
            conn.executemany(
                "INSERT INTO slots (attempt_id, idx, round, role, card, expected_sound,"
                " expected_text, expected_modifier, expected_onset_s, heard_label,"
                " heard_onset_s, offset_ms, verdict) VALUES"
                " (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(attempt_id, *_slot_row(slot)) for slot in slots])
            conn.execute("UPDATE runs SET attempts = ?, lives_left = ?,"
                         " performances_completed = ? WHERE id = ?",
                         (number, lives, done, run_id))
        return attempt_id

    def _progress(self, conn: sqlite3.Connection, run_id: int, lives_left: int | None,
                  performances_completed: int | None) -> tuple[sqlite3.Row, int, int]:
        """The run (still in progress) and its checked progress, the given or the stored."""
        run = self._run_row(conn, run_id)
        if run["result"] != IN_PROGRESS:
            raise StoreError(f"run {run_id} is already finished ({run['result']})")
        lives = run["lives_left"] if lives_left is None else int(lives_left)
        done = (run["performances_completed"] if performances_completed is None
                else int(performances_completed))
        _check_progress(lives, done, run["lives_start"])
        return run, lives, done

    @_db_errors
    def finish_run(self, run_id: int, result: str, lives_left: int | None = None,
                   performances_completed: int | None = None,
                   ended_at: datetime | None = None) -> None:
        """Mark a run finished with its result (see `RESULTS`) and final progress."""
        if result not in RESULTS:
            raise ValueError(f"result must be one of {', '.join(RESULTS)}, got {result!r}")
        ended = _utc_text(ended_at)
        with self._transaction() as conn:
            _, lives, done = self._progress(conn, run_id, lives_left, performances_completed)
            conn.execute("UPDATE runs SET result = ?, lives_left = ?, performances_completed = ?,"
                         " ended_at = ? WHERE id = ?", (result, lives, done, ended, run_id))

    # ---------------------------------------------------------- reading

    @_db_errors
    def highscores(self, mode: str | None = None, limit: int = 10) -> list[Highscore]:
        """The best finished runs of a mode, or of every mode grouped by mode.

        Ranked by performances completed (more first), then lives lost (fewer
        first), then the date the run ended (earlier first); at most `limit`
        per mode. Only runs that ended by the rules count: a run stopped by the
        players (or by a broken device) is in the history, not in the table.
        """
        where, args = "result NOT IN (?, ?)", [IN_PROGRESS, "stopped"]
        if mode is not None:
            where += " AND mode = ?"
            args.append(mode)
        rows = self.conn.execute(
            f"SELECT * FROM runs WHERE {where} ORDER BY mode, performances_completed DESC,"
            " lives_start - lives_left ASC, ended_at ASC, id ASC", args).fetchall()
        table: list[Highscore] = []
        rank_in_mode: dict[str, int] = {}
        for row in rows:
            rank = rank_in_mode.get(row["mode"], 0) + 1
            if rank > limit:
                continue
            rank_in_mode[row["mode"]] = rank
            table.append(Highscore(
                rank=rank, run_id=row["id"], mode=row["mode"],
                players=tuple(json.loads(row["players_json"])),
                performances_completed=row["performances_completed"],
                lives_start=row["lives_start"], lives_left=row["lives_left"],
                result=row["result"], started_at=_from_utc_text(row["started_at"]),
                ended_at=_from_utc_text(row["ended_at"])))
        return table

    @_db_errors
    def history(self, limit: int = 20, mode: str | None = None) -> list[RunSummary]:
        """The latest runs, newest first, finished or not, with their timing figures."""
        where, args = "", []
        if mode is not None:
            where, args = "WHERE r.mode = ?", [mode]
        rows = self.conn.execute(
            "SELECT r.*, (SELECT count(*) FROM attempts a WHERE a.run_id = r.id) AS n_attempts,"
            " t.n_timed, t.mean_abs FROM runs r LEFT JOIN ("
            "   SELECT a.run_id, count(s.offset_ms) AS n_timed, avg(abs(s.offset_ms)) AS mean_abs"
            "   FROM attempts a JOIN slots s ON s.attempt_id = a.id"
            "   WHERE s.offset_ms IS NOT NULL GROUP BY a.run_id) t ON t.run_id = r.id"
            f" {where} ORDER BY r.started_at DESC, r.id DESC LIMIT ?",
            [*args, int(limit)]).fetchall()
        return [RunSummary(
            run_id=row["id"], mode=row["mode"], players=tuple(json.loads(row["players_json"])),
            result=row["result"], attempts=row["n_attempts"],
            performances_completed=row["performances_completed"],
            lives_start=row["lives_start"], lives_left=row["lives_left"],
            slots_timed=row["n_timed"] or 0, mean_abs_offset_ms=row["mean_abs"],
            started_at=_from_utc_text(row["started_at"]),
            ended_at=_from_utc_text(row["ended_at"])) for row in rows]

    @_db_errors
    def run_report(self, run_id: int) -> dict:
        """The run rebuilt from the database as a run report (beattrainer.run-report/1)."""
        conn = self.conn
        run = self._run_row(conn, run_id)
        attempts = conn.execute(
            "SELECT performance, lead, overridden, report_json FROM attempts"
            " WHERE run_id = ? ORDER BY number", (run_id,)).fetchall()
        return {
            "schema": RUN_REPORT_SCHEMA,
            "mode": run["mode"],
            "deck": json.loads(run["deck_json"]),
            "players": json.loads(run["players_json"]),
            "lives_start": run["lives_start"],
            "lives_left": run["lives_left"],
            "performances_completed": run["performances_completed"],
            "attempts": [{"performance": a["performance"], "lead": a["lead"],
                          "overridden": bool(a["overridden"]),
                          "report": json.loads(a["report_json"])} for a in attempts],
            "result": run["result"],
            "run_id": run["id"],
            "seed": run["seed"],
            "device": run["device"],
            "started_at": run["started_at"],
            "ended_at": run["ended_at"],
        }

    # ---------------------------------------------------------- calibration

    @_db_errors
    def save_calibration(self, device: str, values: dict,
                         saved_at: datetime | None = None) -> None:
        """Store a calibration for `device`; the latest one is the one used."""
        if not isinstance(values, dict):
            raise ValueError("calibration values must be a dict")
        try:
            values_json = json.dumps(values, allow_nan=False, sort_keys=True)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"calibration values are not plain JSON ({exc})") from None
        saved = _utc_text(saved_at)
        with self._transaction() as conn:
            conn.execute("INSERT INTO calibrations (device, values_json, saved_at)"
                         " VALUES (?, ?, ?)", (str(device), values_json, saved))

    @_db_errors
    def calibration_record(self, device: str) -> CalibrationRecord | None:
        """The latest calibration of `device` with its time, or None."""
        row = self.conn.execute(
            "SELECT device, values_json, saved_at FROM calibrations WHERE device = ?"
            " ORDER BY saved_at DESC, id DESC LIMIT 1", (str(device),)).fetchone()
        if row is None:
            return None
        return CalibrationRecord(row["device"], json.loads(row["values_json"]),
                                 _from_utc_text(row["saved_at"]))

    def calibration(self, device: str) -> dict | None:
        """The latest calibration values of `device`, or None."""
        record = self.calibration_record(device)
        return None if record is None else record.values


# ------------------------------------------------------------------ report helpers

def _report_slots(report: dict) -> list[dict]:
    """The slot list of a judge report, checked enough to store it."""
    if not isinstance(report, dict) or not isinstance(report.get("slots"), list):
        raise ValueError("the report must be a judge report (a dict with a 'slots' list)")
    indices = []
    for slot in report["slots"]:
        if not isinstance(slot, dict) or not isinstance(slot.get("index"), int):
            raise ValueError("every slot of the judge report needs an integer 'index'")
        indices.append(slot["index"])
    if len(set(indices)) != len(indices):
        raise ValueError("the judge report has two slots with the same index")
    return report["slots"]


def _slot_row(slot: dict) -> tuple:
    expected = slot.get("expected") or {}
    heard = slot.get("heard") or {}
    return (slot["index"], slot.get("round"), slot.get("role"), slot.get("card"),
            expected.get("sound"), expected.get("text"), expected.get("modifier"),
            slot.get("expected_onset_s"), heard.get("label"), heard.get("onset_s"),
            slot.get("offset_ms"), slot.get("verdict"))


def _check_progress(lives_left: int, performances_completed: int, lives_start: int) -> None:
    if not 0 <= lives_left <= lives_start:
        raise ValueError(f"lives_left must be between 0 and {lives_start}, got {lives_left}")
    if performances_completed < 0:
        raise ValueError("performances_completed must not be negative")
