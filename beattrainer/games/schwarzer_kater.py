"""Schwarzer Kater: a cat-and-mice memory game with hats (rulings §1, R-SK-*, A-SK-*).

The cat (host) lays out four baits and the black cat token in a row, covers
each with an identical hat, slides some hats to new places and asks for one
bait. Every mouse then names a hat. The first mouse on the right hat earns as
many cubes as the round number, later ones on it earn one, a wrong hat costs
one cube and the cat's hat costs two. A mouse without cheese is eaten. After
five rounds the mouse with the most cheese wins.

Seats are people. The host is a real seat (E3): with ``host="program"`` the
program plays it as an extra seat after the players ("Cat", a bot); with
``host="human"`` the first listed player is the cat. In the two-player game
(``two_player=True``) two games are played with roles swapped, or with the
program hosting both, and the players compare the cubes they kept as mice.

Places are 1-based as the players see them. Pure: no I/O, no global randomness.
"""
from __future__ import annotations

import itertools
import random
import re
from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from beattrainer.games.core import ConfigError, Event, IllegalAction, Result

__all__ = [
    "TOKENS", "BAITS", "CAT", "RULES", "RULES_SUMMARY", "CONFIG_OPTIONS", "CONFORMANCE_VARIANTS",
    "DEFAULT_BOT_LEVEL", "KaterConfig", "KaterState", "KaterObs", "Layout", "Move", "Ask",
    "Choose", "KaterRules", "KaterBot", "make_bot", "move_row", "move_announcement",
    "move_picture",
]

# ------------------------------------------------------------------ components
TOKENS = ("cheese_piece", "cheese_slice", "chocolate", "sausage", "cat")
BAITS = ("cheese_piece", "cheese_slice", "chocolate", "sausage")
CAT = "cat"
CODE = {"cheese_piece": "P", "cheese_slice": "L", "chocolate": "C", "sausage": "S", "cat": "K"}
TOKEN_BY_CODE = {code: token for token, code in CODE.items()}
DISPLAY = {"cheese_piece": "cheese piece", "cheese_slice": "cheese slice",
           "chocolate": "chocolate", "sausage": "sausage", "cat": "CAT"}
# A-SK-11: fewer items means fewer tokens in all; the cat always stays.
DROPPED_FOR_FEWER_TOKENS = ("cheese_slice", "chocolate")
CHEESE_CUBES = 40
START_CHEESE = 3
ROUNDS = 5
DECIDING_ROUND = ROUNDS + 1
MAX_MICE = 8
MAX_MICE_HOLIDAY = 16
MISTAKES_TO_BE_EATEN = 3
DOT_NAMES = ("left cheek", "right cheek", "nose")
PROGRAM_CAT_NAME = "Cat"
DEFAULT_BOT_LEVEL = "good"
BOT_LEVELS = ("random", "simple", "good")
# §1.8: memory (a) and move-tracking (t) accuracy of the mouse bots.
MOUSE_ACCURACY = {"simple": 0.75, "good": 0.95}

CONFIG_OPTIONS: tuple[tuple[str, Any, Any, str], ...] = (
    ("moves_per_round", int, 2, "hat moves per round: 1 (small children), 2, or 3 (hard)"),
    ("tokens", int, 5, "tokens in the row incl. the cat: 5, 4 (no cheese slice) or 3 "
                       "(no cheese slice, no chocolate)"),
    ("three_mistakes", bool, False, "variant: a mouse that finds the cat three times is eaten"),
    ("choice_mode", ("open", "sealed"), "open",
     "open: every choice is shown at once; sealed: hidden until the reveal"),
    ("tiebreak", ("deciding_round", "shared"), "deciding_round",
     "a tie for most cheese: one deciding round, or a shared win"),
    ("host", ("program", "human"), "program",
     "who is the cat: the program, or the first listed player"),
    ("cat", BOT_LEVELS, "good", "strength of the program cat"),
    ("holiday", bool, False, "holiday variant: up to 16 mice"),
    ("two_player", bool, False,
     "two-player game: two games with roles swapped (or both hosted by the program)"),
    ("memorize_s", int, 10, "seconds to memorize the row; 0 = until Enter"),
    ("move_delay_s", float, 1.5, "pause after each hat move [s]"),
)

CONFORMANCE_VARIANTS: tuple[Mapping[str, Any], ...] = (
    {"moves_per_round": 1}, {"moves_per_round": 3}, {"tokens": 4},
    {"tokens": 3, "moves_per_round": 3},
    {"three_mistakes": True, "choice_mode": "sealed"}, {"host": "human", "two_player": True},
    {"two_player": True}, {"holiday": True},
)

RULES_SUMMARY = """\
Schwarzer Kater in short: the cat (the program, or a player with --host human)
shows a row of tokens - cheese piece, cheese slice, chocolate, sausage and the
black cat - then hides each under an identical hat and slides hats to new
places, announcing every move. Then it asks for one bait ("Where is the
sausage?"). Each mouse in turn names a hat; the starting mouse rotates every
round. The first mouse on the right hat wins as many cubes as the round number
(1 to 5), later mice on it win 1. A wrong hat costs 1 cube, the cat's hat costs
2. A mouse without cheese is eaten. After five rounds the mouse with the most
cheese wins; a tie plays one deciding round. Variants: 1 or 3 moves, 4 or 3
tokens, up to 16 mice (--holiday), eaten after three cat hats
(--three-mistakes), two-player game (--two-player)."""


# --------------------------------------------------------------------- actions
@dataclass(frozen=True)
class Layout:
    """The cat lays the tokens out in this order (place 1 first)."""

    row: tuple[str, ...]


@dataclass(frozen=True)
class Move:
    """The cat slides the hat at place `src` so that it ends at place `dst`."""

    src: int
    dst: int


@dataclass(frozen=True)
class Ask:
    """The cat asks for `bait`."""

    bait: str


@dataclass(frozen=True)
class Choose:
    """A mouse names the hat at `place`."""

    place: int


Action = Layout | Move | Ask | Choose


# ---------------------------------------------------------------------- config
@dataclass(frozen=True)
class KaterConfig:
    """A validated configuration; `players` are the people, not the program cat."""

    players: tuple[str, ...]
    moves_per_round: int = 2
    tokens: int = 5
    three_mistakes: bool = False
    choice_mode: str = "open"
    tiebreak: str = "deciding_round"
    host: str = "program"
    cat: str = "good"
    holiday: bool = False
    two_player: bool = False
    memorize_s: int = 10
    move_delay_s: float = 1.5

    @property
    def seat_names(self) -> tuple[str, ...]:
        """Names of all seats; the program cat sits after the players."""
        if self.host == "program":
            return self.players + (PROGRAM_CAT_NAME,)
        return self.players

    @property
    def tokens_in_play(self) -> tuple[str, ...]:
        """The tokens of the row, in catalogue order (A-SK-11)."""
        dropped = DROPPED_FOR_FEWER_TOKENS[:len(TOKENS) - self.tokens]
        return tuple(t for t in TOKENS if t not in dropped)

    @property
    def baits_in_play(self) -> tuple[str, ...]:
        """What the cat may ask for."""
        return tuple(t for t in self.tokens_in_play if t != CAT)

    def roles(self, game_no: int) -> tuple[int, tuple[int, ...]]:
        """``(cat seat, mouse seats)`` in game `game_no` (1, or 2 in the two-player game)."""
        n_players = len(self.players)
        if self.two_player:
            if self.host == "program":
                return n_players, (game_no - 1,)
            return game_no - 1, (2 - game_no,)
        if self.host == "program":
            return n_players, tuple(range(n_players))
        return 0, tuple(range(1, n_players))


def _option_value(key: str, kind: Any, value: Any) -> Any:
    """Check one option's type; raise ConfigError with a one-line reason."""
    if isinstance(kind, tuple):
        if value not in kind:
            raise ConfigError(f"{key} must be one of {', '.join(kind)}, not {value!r}")
        return value
    if kind is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"{key} must be true or false, not {value!r}")
        return value
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{key} must be a whole number, not {value!r}")
        return value
    if kind is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"{key} must be a number, not {value!r}")
        return float(value)
    return value


def parse_config(config: Mapping[str, Any]) -> KaterConfig:
    """Validate a config dict ``{"players": [...], **options}`` (E11)."""
    if not isinstance(config, Mapping):
        raise ConfigError("the configuration must be a mapping")
    known = {key for key, *_ in CONFIG_OPTIONS} | {"players"}
    unknown = sorted(set(config) - known)
    if unknown:
        raise ConfigError(f"unknown option(s) for Schwarzer Kater: {', '.join(unknown)}")
    players = config.get("players")
    if (not isinstance(players, (list, tuple)) or not players
            or not all(isinstance(p, str) and p.strip() for p in players)):
        raise ConfigError("players must be a non-empty list of names")
    values = {key: _option_value(key, kind, config.get(key, default))
              for key, kind, default, _help in CONFIG_OPTIONS}
    cfg = KaterConfig(players=tuple(p.strip() for p in players), **values)
    _check_config(cfg)
    return cfg


def _check_config(cfg: KaterConfig) -> None:
    names = [n.casefold() for n in cfg.seat_names]
    if len(set(names)) != len(names):
        raise ConfigError("player names must be different"
                          + (f" (and {PROGRAM_CAT_NAME!r} is the program cat)"
                             if cfg.host == "program" else ""))
    if cfg.moves_per_round not in (1, 2, 3):
        raise ConfigError(f"moves_per_round must be 1, 2 or 3, not {cfg.moves_per_round}")
    if cfg.tokens not in (3, 4, 5):
        raise ConfigError(f"tokens must be 3, 4 or 5, not {cfg.tokens}")
    if cfg.memorize_s < 0 or cfg.move_delay_s < 0:
        raise ConfigError("memorize_s and move_delay_s cannot be negative")
    if cfg.two_player:
        if len(cfg.players) != 2:
            raise ConfigError(f"the two-player game needs exactly 2 players, "
                              f"got {len(cfg.players)}")
        return
    if cfg.host == "human" and len(cfg.players) < 2:
        raise ConfigError("a human cat needs at least one mouse: list the cat first, "
                          "then the mice")
    n_mice = len(cfg.roles(1)[1])
    limit = MAX_MICE_HOLIDAY if cfg.holiday else MAX_MICE
    if n_mice > limit:
        hint = "" if cfg.holiday else " (the holiday variant allows 16)"
        raise ConfigError(f"at most {limit} mice can play, got {n_mice}{hint}")


# ----------------------------------------------------------------------- state
@dataclass(frozen=True)
class KaterState:
    """One moment of a game. Per-seat tuples are indexed by seat."""

    cfg: KaterConfig
    seed: str
    game_no: int
    round_no: int
    phase: str                                   # layout, move, ask, search, over
    layout: tuple[str, ...]                      # this round's row as laid out
    row: tuple[str, ...]                         # tokens under the hats now
    moves: tuple[tuple[int, int], ...]           # this round's moves
    target: str | None
    choices: tuple[tuple[int, int], ...]         # (seat, place) in choosing order
    cubes: tuple[int, ...]
    dots: tuple[int, ...]
    eaten: tuple[bool, ...]
    supply: int                                  # the cat's displayed supply (A-SK-07)
    contenders: tuple[int, ...]                  # mice taking part in this round
    tied_before: tuple[int, ...]                 # contenders before the deciding round
    past_targets: tuple[str, ...]
    last_reveal: str
    match_scores: tuple[int | None, ...]         # two-player game: cubes kept as mouse
    winners: tuple[int, ...]
    reason: str

    @property
    def cat_seat(self) -> int:
        """The seat playing the cat in the current game."""
        return self.cfg.roles(self.game_no)[0]

    @property
    def mice(self) -> tuple[int, ...]:
        """The seats playing mice in the current game."""
        return self.cfg.roles(self.game_no)[1]

    @property
    def n_hats(self) -> int:
        """Hats in the row."""
        return self.cfg.tokens


@dataclass(frozen=True)
class KaterObs:
    """What one seat has witnessed (E5). `row` is set for the cat only.

    Mice witnessed the layout and every move, so those are here too; the text UI
    decides not to reprint them (§1.6) and memory bots degrade them themselves.
    """

    seat: int
    role: str                                    # cat, mouse or watcher
    names: tuple[str, ...]
    cat_seat: int
    mice: tuple[int, ...]
    game_no: int
    round_no: int
    phase: str
    tokens: tuple[str, ...]
    moves_per_round: int
    layout: tuple[str, ...]
    moves: tuple[tuple[int, int], ...]
    target: str | None
    choices: tuple[tuple[int, int], ...]         # those this seat may see
    chosen: tuple[int, ...]                      # who has chosen (always public)
    order: tuple[int, ...]                       # this round's choosing order
    cubes: tuple[int, ...]
    dots: tuple[int, ...]
    eaten: tuple[bool, ...]
    supply: int
    contenders: tuple[int, ...]
    past_targets: tuple[str, ...]
    row: tuple[str, ...] | None
    three_mistakes: bool
    choice_mode: str
    two_player: bool
    match_scores: tuple[int | None, ...]
    last_reveal: str
    your_turn: bool
    over: bool
    reason: str


# ---------------------------------------------------------------- pure helpers
def move_row(row: Sequence[Any], src: int, dst: int) -> tuple[Any, ...]:
    """The row after sliding the hat at place `src` to place `dst` (R-SK-07)."""
    items = list(row)
    hat = items.pop(src - 1)
    items.insert(dst - 1, hat)
    return tuple(items)


def move_announcement(src: int, dst: int, n_hats: int) -> str:
    """How a move is told (§1.6); places as they stand before the move."""
    if dst == 1:
        where = "to the left end"
    elif dst == n_hats:
        where = "to the right end"
    else:
        gap = dst if dst > src else dst - 1
        where = f"between hats {gap} and {gap + 1}"
    return f"The hat at place {src} slides {where}."


def move_picture(src: int, dst: int, n_hats: int) -> str:
    """Two lines: the row before with the moving hat starred, and after, renumbered."""
    before = " ".join("[*]" if p == src else f"[{p}]" for p in range(1, n_hats + 1))
    after = " ".join("[*]" if p == dst else f"[{p}]" for p in range(1, n_hats + 1))
    return f"  before:  {before}\n  after:   {after}"


def hats_line(n_hats: int) -> str:
    """A row of identical numbered hats."""
    return " ".join(f"[{p}]" for p in range(1, n_hats + 1))


def row_text(row: Sequence[str]) -> str:
    """``1 sausage · 2 CAT · ...``."""
    return " · ".join(f"{p} {DISPLAY[t]}" for p, t in enumerate(row, start=1))


def choosing_order(mice: Sequence[int], round_no: int, eaten: Sequence[bool],
                   contenders: Sequence[int]) -> tuple[int, ...]:
    """R-SK-09: seat order from mouse ((r-1) mod m)+1, skipping eaten and non-contenders."""
    start = (round_no - 1) % len(mice)
    rotated = tuple(mice[start:]) + tuple(mice[:start])
    return tuple(seat for seat in rotated if not eaten[seat] and seat in contenders)


def _names(seats: Sequence[int], names: Sequence[str]) -> str:
    listed = [names[s] for s in seats]
    if len(listed) <= 1:
        return "".join(listed)
    return ", ".join(listed[:-1]) + " and " + listed[-1]


def _dots_text(dots: int) -> str:
    return " · ".join(DOT_NAMES[:dots])


# ----------------------------------------------------------------------- rules
class KaterRules:
    """The Schwarzer Kater rules over immutable `KaterState`s (E1)."""

    name = "schwarzer_kater"
    rules_version = "1"

    # -- setup -------------------------------------------------------------
    def new_game(self, config: Mapping[str, Any], seed: str,
                 *, deck_order: Sequence[str] | None = None) -> KaterState:
        """A new game. `deck_order` is not used: the cat's layout is a seat's action."""
        if deck_order is not None:
            raise ConfigError("Schwarzer Kater has no deck; the cat's layout is an action")
        cfg = parse_config(config)
        n_seats = len(cfg.seat_names)
        empty = KaterState(
            cfg=cfg, seed=str(seed), game_no=1, round_no=1, phase="layout", layout=(), row=(),
            moves=(), target=None, choices=(), cubes=(0,) * n_seats, dots=(0,) * n_seats,
            eaten=(False,) * n_seats, supply=0, contenders=(), tied_before=(),
            past_targets=(), last_reveal="", match_scores=(None,) * n_seats, winners=(),
            reason="")
        return self._start_game(empty, 1)

    def _start_game(self, s: KaterState, game_no: int) -> KaterState:
        mice = s.cfg.roles(game_no)[1]
        cubes = tuple(START_CHEESE if seat in mice else 0 for seat in range(len(s.cubes)))
        return replace(s, game_no=game_no, round_no=1, phase="layout", layout=(), row=(),
                       moves=(), target=None, choices=(), cubes=cubes,
                       dots=(0,) * len(s.cubes), eaten=(False,) * len(s.cubes),
                       supply=CHEESE_CUBES - START_CHEESE * len(mice), contenders=mice,
                       tied_before=(), past_targets=())

    def intro(self, s: KaterState) -> str:
        """The start screen: who is who and which variants are on (§1.5)."""
        cfg, names = s.cfg, s.cfg.seat_names
        lines = ["Schwarzer Kater - the cat hides the baits under hats. Watch closely!"]
        if cfg.two_player:
            lines.append("Two-player game: two games of five rounds; "
                         "you compare the cheese you kept as a mouse.")
        lines.append(f"Cat: {names[s.cat_seat]}.  Mice: {_names(s.mice, names)}, "
                     f"{START_CHEESE} cubes each.")
        lines.append(f"Hats: {cfg.tokens}, moves per round: {cfg.moves_per_round}, "
                     f"choices are {cfg.choice_mode}.")
        if cfg.three_mistakes:
            lines.append("VARIANT ON - up to three mistakes: each time you find the cat you "
                         "get a dot (left cheek, right cheek, nose); three dots and the cat "
                         "eats you, cheese or not.")
        if cfg.holiday:
            lines.append("Holiday variant: up to 16 mice.")
        return "\n".join(lines)

    # -- turn control --------------------------------------------------------
    def _order(self, s: KaterState) -> tuple[int, ...]:
        return choosing_order(s.mice, s.round_no, s.eaten, s.contenders)

    def to_act(self, s: KaterState) -> tuple[int, ...]:
        """The cat in the layout/move/ask phases, the next mouse while searching."""
        if s.phase == "over":
            return ()
        if s.phase == "search":
            done = {seat for seat, _ in s.choices}
            return tuple(seat for seat in self._order(s) if seat not in done)[:1]
        return (s.cat_seat,)

    def legal_actions(self, s: KaterState, seat: int) -> tuple[Action, ...]:
        """All legal actions of `seat`, in a stable order."""
        if seat not in self.to_act(s):
            return ()
        n = s.n_hats
        if s.phase == "layout":
            return tuple(Layout(p) for p in itertools.permutations(s.cfg.tokens_in_play))
        if s.phase == "move":
            return tuple(Move(i, j) for i in range(1, n + 1) for j in range(1, n + 1) if i != j)
        if s.phase == "ask":
            return tuple(Ask(b) for b in s.cfg.baits_in_play)
        return tuple(Choose(p) for p in range(1, n + 1))

    def _why_illegal(self, s: KaterState, seat: int, a: Any) -> str | None:
        """None when `a` is legal for `seat`, else a one-line reason."""
        if s.phase == "over":
            return "the game is over"
        if seat not in self.to_act(s):
            names = s.cfg.seat_names
            who = _names(self.to_act(s), names)
            return f"it is {who}'s turn, not seat {seat + 1}'s"
        n = s.n_hats
        expected = {"layout": Layout, "move": Move, "ask": Ask, "search": Choose}[s.phase]
        if not isinstance(a, expected):
            return f"now is the time to {s.phase}, not {type(a).__name__.lower()}"
        if isinstance(a, Layout):
            if sorted(a.row) != sorted(s.cfg.tokens_in_play):
                return "a layout must use each token in play exactly once"
        elif isinstance(a, Move):
            if not (1 <= a.src <= n and 1 <= a.dst <= n):
                return f"hat places run from 1 to {n}"
            if a.src == a.dst:
                return "a hat must move to another place"
        elif isinstance(a, Ask):
            if a.bait == CAT:
                return "the cat never asks for the cat"
            if a.bait not in s.cfg.baits_in_play:
                return f"{a.bait!r} is not a bait in play"
        elif not (isinstance(a.place, int) and 1 <= a.place <= n):
            return f"choose a hat from 1 to {n}"
        return None

    # -- apply ---------------------------------------------------------------
    def apply(self, s: KaterState, seat: int, a: Action) -> tuple[KaterState, tuple[Event, ...]]:
        """Apply `a` by `seat`; raises IllegalAction if it is not legal there."""
        reason = self._why_illegal(s, seat, a)
        if reason is not None:
            raise IllegalAction(reason)
        if isinstance(a, Layout):
            return self._lay_out(s, a)
        if isinstance(a, Move):
            return self._move(s, a)
        if isinstance(a, Ask):
            return self._ask(s, a)
        return self._choose(s, seat, a)

    def _lay_out(self, s: KaterState, a: Layout) -> tuple[KaterState, tuple[Event, ...]]:
        cfg = s.cfg
        title = ("Deciding round" if s.round_no == DECIDING_ROUND
                 else f"Round {s.round_no} of {ROUNDS}")
        if cfg.two_player:
            title += f" (game {s.game_no} of 2)"
        memorize = Event(
            f"{title}. The cat lays out the tokens - remember them!\n  {row_text(a.row)}",
            kind="layout", hold_s=float(cfg.memorize_s), wait_enter=cfg.memorize_s == 0,
            clear_after=True)
        cover = Event(f"The cat covers every token with a hat:\n  {hats_line(s.n_hats)}",
                      kind="cover")
        return replace(s, phase="move", layout=a.row, row=a.row), (memorize, cover)

    def _move(self, s: KaterState, a: Move) -> tuple[KaterState, tuple[Event, ...]]:
        n = s.n_hats
        number = len(s.moves) + 1
        text = (f"Move {number} of {s.cfg.moves_per_round}: "
                f"{move_announcement(a.src, a.dst, n)}\n{move_picture(a.src, a.dst, n)}")
        moves = s.moves + ((a.src, a.dst),)
        phase = "ask" if len(moves) == s.cfg.moves_per_round else "move"
        event = Event(text, kind="move", hold_s=s.cfg.move_delay_s)
        return replace(s, row=move_row(s.row, a.src, a.dst), moves=moves, phase=phase), (event,)

    def _ask(self, s: KaterState, a: Ask) -> tuple[KaterState, tuple[Event, ...]]:
        event = Event(f"The cat asks: Where is the {DISPLAY[a.bait]}?", kind="ask")
        return replace(s, target=a.bait, phase="search"), (event,)

    def _choose(self, s: KaterState, seat: int, a: Choose) -> tuple[KaterState, tuple[Event, ...]]:
        names = s.cfg.seat_names
        earlier = [other for other, place in s.choices if place == a.place]
        if earlier:
            text = (f"{names[seat]} sits in front of hat {a.place} "
                    f"(agrees with {names[earlier[0]]}).")
        else:
            text = f"{names[seat]} sits ON hat {a.place}."
        if s.cfg.choice_mode == "sealed":
            event = Event(f"{names[seat]} has chosen a hat.",
                          private={seat: f"You chose hat {a.place} "
                                         "(kept secret until the reveal)."},
                          kind="choice")
        else:
            event = Event(text, kind="choice")
        s = replace(s, choices=s.choices + ((seat, a.place),))
        if self.to_act(s):
            return s, (event,)
        s, more = self._reveal(s)
        return s, (event,) + more

    # -- reveal, payment, round and game end ------------------------------------
    def _reveal(self, s: KaterState) -> tuple[KaterState, tuple[Event, ...]]:
        cfg, names = s.cfg, s.cfg.seat_names
        assert s.target is not None
        target_place = s.row.index(s.target) + 1
        cat_place = s.row.index(CAT) + 1
        first = next((seat for seat, place in s.choices if place == target_place), None)
        prize = min(s.round_no, ROUNDS)
        cubes, dots, eaten = list(s.cubes), list(s.dots), list(s.eaten)
        supply = s.supply
        pay_lines = []
        for seat, place in s.choices:
            if place == target_place:
                gain = prize if seat == first else 1
                cubes[seat] += gain
                supply -= gain
                why = "first on the right hat" if seat == first else "right hat"
                pay_lines.append(f"{names[seat]} +{gain} ({why}) -> {cubes[seat]}")
                continue
            owed = 2 if place == cat_place else 1
            paid = min(owed, cubes[seat])  # A-SK-06: no debts
            cubes[seat] -= paid
            supply += paid
            line = f"{names[seat]} pays {paid}" + (" (found the cat!)" if owed == 2 else "")
            line += f" -> {cubes[seat]}"
            if owed == 2 and cfg.three_mistakes:
                dots[seat] += 1
                line += f"  [dots: {_dots_text(dots[seat])}]"
            pay_lines.append(line)
        for seat, _place in s.choices:
            too_many_dots = cfg.three_mistakes and dots[seat] >= MISTAKES_TO_BE_EATEN
            if cubes[seat] == 0 or too_many_dots:
                eaten[seat] = True
                pay_lines.append(f"The cat eats {names[seat]}!")
        lines = [f"The cat lifts the hats. The {DISPLAY[s.target]} was under hat {target_place}."]
        lines += self._reveal_order_lines(s, target_place, cat_place)
        lines += pay_lines
        if first is None:
            lines.append(f"Nobody found the {DISPLAY[s.target]}: no treat this round.")
        else:
            lines.append(f"Treat for {names[first]}, first on the right hat!")
        lines.append(self._supply_text(supply))
        text = "\n".join(lines)
        s = replace(s, cubes=tuple(cubes), dots=tuple(dots), eaten=tuple(eaten), supply=supply,
                    past_targets=s.past_targets + (s.target,), last_reveal=text)
        event = Event(text, kind="reveal", hold_s=cfg.move_delay_s)
        s, more = self._after_round(s)
        return s, (event,) + more

    def _reveal_order_lines(self, s: KaterState, target_place: int, cat_place: int) -> list[str]:
        """Flavour (§1.6): wrong hats first, then the cat's, then the target's, then the rest."""
        names = s.cfg.seat_names
        by_place: dict[int, list[int]] = {}
        for seat, place in s.choices:
            by_place.setdefault(place, []).append(seat)
        wrong = sorted(p for p in by_place if p not in (target_place, cat_place))
        ordered = wrong + [p for p in (cat_place, target_place) if p in by_place]
        lines = [f"  hat {p}: {DISPLAY[s.row[p - 1]]} ({_names(by_place[p], names)})"
                 for p in ordered]
        untouched = [p for p in range(1, s.n_hats + 1) if p not in by_place]
        if untouched:
            lines.append("  untouched: " + ", ".join(
                f"hat {p} {DISPLAY[s.row[p - 1]]}" for p in untouched))
        return lines

    @staticmethod
    def _supply_text(supply: int) -> str:
        if supply < 0:
            return f"Cat's supply: {supply} - the cat fetches more from the pantry."
        return f"Cat's supply: {supply}."

    def _next_round(self, s: KaterState, round_no: int, contenders: tuple[int, ...]
                    ) -> KaterState:
        return replace(s, round_no=round_no, phase="layout", layout=(), row=(), moves=(),
                       target=None, choices=(), contenders=contenders)

    def _after_round(self, s: KaterState) -> tuple[KaterState, tuple[Event, ...]]:
        names = s.cfg.seat_names
        alive = tuple(seat for seat in s.mice if not s.eaten[seat])
        if s.round_no == DECIDING_ROUND:
            playing = tuple(seat for seat in s.contenders if not s.eaten[seat])
            best = max((s.cubes[seat] for seat in playing), default=None)
            top = tuple(seat for seat in playing if s.cubes[seat] == best)
            if len(top) == 1:
                return self._end_game(s, top, f"{names[top[0]]} wins the deciding round "
                                              f"with {best} cubes")
            return self._end_game(s, s.tied_before,
                                  f"{_names(s.tied_before, names)} share the win")
        if not alive:
            return self._end_game(s, (), "the cat wins: every mouse was eaten")
        if s.round_no < ROUNDS:
            return self._next_round(s, s.round_no + 1, s.contenders), ()
        best = max(s.cubes[seat] for seat in alive)
        top = tuple(seat for seat in alive if s.cubes[seat] == best)
        if len(top) == 1:
            return self._end_game(s, top, f"{names[top[0]]} wins with {best} cubes")
        if s.cfg.tiebreak == "shared":
            return self._end_game(s, top, f"{_names(top, names)} share the win with {best} cubes")
        event = Event(f"{_names(top, names)} are tied with {best} cubes: "
                      f"one deciding round for them!", kind="tie")
        s = replace(self._next_round(s, DECIDING_ROUND, top), tied_before=top)
        return s, (event,)

    def _end_game(self, s: KaterState, winners: tuple[int, ...], reason: str
                  ) -> tuple[KaterState, tuple[Event, ...]]:
        names = s.cfg.seat_names
        if not s.cfg.two_player:
            s = replace(s, phase="over", winners=winners, reason=reason)
            return s, (Event(f"Game over: {reason}.", kind="over"),)
        mouse = s.mice[0]
        kept = 0 if s.eaten[mouse] else s.cubes[mouse]
        scores = list(s.match_scores)
        scores[mouse] = kept
        s = replace(s, match_scores=tuple(scores))
        if s.game_no == 1:
            s = self._start_game(s, 2)
            text = (f"Game 1 over: {names[mouse]} kept {kept} cubes as a mouse. "
                    f"Game 2: {names[s.cat_seat]} is the cat, {names[s.mice[0]]} the mouse.")
            return s, (Event(text, kind="game"),)
        people = tuple(range(len(s.cfg.players)))
        best = max(scores[p] or 0 for p in people)
        top = tuple(p for p in people if (scores[p] or 0) == best)
        summary = ", ".join(f"{names[p]} {scores[p]}" for p in people)
        verdict = (f"{names[top[0]]} took more cheese from the cat" if len(top) == 1
                   else "equal cheese: you share the win")
        reason = f"{verdict} ({summary})"
        s = replace(s, phase="over", winners=top, reason=reason)
        return s, (Event(f"Game over: {reason}.", kind="over"),)

    # -- end -------------------------------------------------------------------
    def is_terminal(self, s: KaterState) -> bool:
        """True when the game (both games in the two-player game) is over."""
        return s.phase == "over"

    def result(self, s: KaterState) -> Result:
        """Scores are the cubes a mouse kept (0 if eaten); the host scores 0."""
        n_seats = len(s.cfg.seat_names)
        cat_wins = not s.cfg.two_player and s.phase == "over" and not s.winners
        scores, keys = [], []
        for seat in range(n_seats):
            if s.cfg.two_player:
                score = s.match_scores[seat] or 0
                is_person = seat < len(s.cfg.players)
            else:
                score = 0 if s.eaten[seat] or seat not in s.mice else s.cubes[seat]
                is_person = seat in s.mice
            scores.append(float(score))
            if not is_person:
                keys.append((2, 0) if cat_wins else (-1, 0))
            else:
                keys.append((1 if seat in s.winners else 0, score))
        return Result(tuple(scores), Result.ranks_from_keys(keys), s.reason)

    # -- observation and text -----------------------------------------------------
    def observe(self, s: KaterState, seat: int) -> KaterObs:
        """What `seat` has witnessed; sealed choices of others stay hidden."""
        if seat == s.cat_seat:
            role = "cat"
        elif seat in s.mice:
            role = "mouse"
        else:
            role = "watcher"
        if s.cfg.choice_mode == "open":
            choices = s.choices
        else:
            choices = tuple((who, place) for who, place in s.choices if who == seat)
        return KaterObs(
            seat=seat, role=role, names=s.cfg.seat_names, cat_seat=s.cat_seat, mice=s.mice,
            game_no=s.game_no, round_no=s.round_no, phase=s.phase,
            tokens=s.cfg.tokens_in_play, moves_per_round=s.cfg.moves_per_round,
            layout=s.layout, moves=s.moves, target=s.target, choices=choices,
            chosen=tuple(who for who, _ in s.choices),
            order=self._order(s) if s.phase != "over" else (),
            cubes=s.cubes, dots=s.dots, eaten=s.eaten, supply=s.supply,
            contenders=s.contenders, past_targets=s.past_targets,
            row=s.row if role == "cat" else None, three_mistakes=s.cfg.three_mistakes,
            choice_mode=s.cfg.choice_mode, two_player=s.cfg.two_player,
            match_scores=s.match_scores, last_reveal=s.last_reveal,
            your_turn=seat in self.to_act(s), over=s.phase == "over", reason=s.reason)

    def resample_hidden(self, s: KaterState, seat: int, rng: random.Random) -> KaterState:
        """Redraw what `seat` cannot see: other mice's sealed choices (E5 test hook)."""
        if s.cfg.choice_mode != "sealed" or s.phase != "search":
            return s
        choices = tuple((who, place if who == seat else 1 + int(rng.random() * s.n_hats))
                        for who, place in s.choices)
        return replace(s, choices=choices)

    def render(self, obs: KaterObs) -> str:
        """The screen for one seat; never reprints the layout, row or moves (§1.6)."""
        names = obs.names
        n = len(obs.tokens)
        title = ("deciding round" if obs.round_no == DECIDING_ROUND
                 else f"round {obs.round_no} of {ROUNDS}")
        if obs.two_player:
            title += f", game {obs.game_no} of 2"
        lines = [f"Schwarzer Kater - {title}. Cat: {names[obs.cat_seat]}. "
                 f"Moves per round: {obs.moves_per_round}."]
        if obs.three_mistakes:
            lines.append("Variant on: three times the cat's hat and you are eaten.")
        mice = []
        for m in obs.mice:
            if obs.eaten[m]:
                mice.append(f"{names[m]} eaten")
                continue
            text = f"{names[m]} {obs.cubes[m]}"
            if obs.dots[m]:
                text += f" [{_dots_text(obs.dots[m])}]"
            mice.append(text)
        lines.append("Mice: " + " · ".join(mice) + f"    cat's supply: {obs.supply}")
        if obs.two_player and any(v is not None for v in obs.match_scores):
            kept = ", ".join(f"{names[p]} kept {v}" for p, v in enumerate(obs.match_scores)
                             if v is not None)
            lines.append(f"Earlier game: {kept}.")
        if obs.over:
            lines.append(f"Game over: {obs.reason}.")
            return "\n".join(lines)
        lines += self._render_phase(obs, n)
        return "\n".join(lines)

    def _render_phase(self, obs: KaterObs, n: int) -> list[str]:
        names = obs.names
        lines: list[str] = []
        is_cat = obs.role == "cat"
        if obs.phase == "layout":
            if is_cat and obs.your_turn:
                codes = ", ".join(f"{CODE[t]} {DISPLAY[t]}" for t in obs.tokens)
                lines.append(f"Lay out the tokens, e.g. 'layout "
                             f"{','.join(CODE[t] for t in obs.tokens)}' ({codes}).")
            else:
                lines.append("The cat is laying out the tokens...")
            return lines
        # The row under the hats is not shown even to the cat: with a human host,
        # the mice watch the moves on the same screen (§1.5 "one screen works").
        lines.append("Hats:  " + hats_line(n))
        if obs.phase == "move":
            lines.append(f"The cat moves hats: {len(obs.moves)} of {obs.moves_per_round} done.")
            if is_cat and obs.your_turn:
                lines.append("Your move, e.g. 'move 2 5' slides the hat at place 2 to place 5.")
            return lines
        if obs.phase == "ask":
            if is_cat and obs.your_turn:
                baits = ", ".join(DISPLAY[t] for t in obs.tokens if t != CAT)
                lines.append(f"Ask for one bait, e.g. 'ask sausage' ({baits}).")
            return lines
        assert obs.target is not None
        lines.append(f"Where is the {DISPLAY[obs.target]}?")
        by_place: dict[int, list[int]] = {}
        for who, place in obs.choices:
            by_place.setdefault(place, []).append(who)
        for place, seats in sorted(by_place.items()):
            sitters = names[seats[0]] + " on it"
            if len(seats) > 1:
                sitters += ", " + ", ".join(names[w] for w in seats[1:]) + " in front"
            lines.append(f"  hat {place}: {sitters}")
        hidden = [w for w in obs.chosen if w not in {who for who, _ in obs.choices}]
        if hidden:
            lines.append(f"  chosen in secret: {_names(hidden, names)}")
        if obs.your_turn:
            lines.append(f"Mouse {names[obs.seat]}, which hat? (1-{n})")
        return lines

    def action_to_text(self, s: KaterState, a: Action) -> str:
        """Canonical text: 'layout S,C,K,P,L', 'move 2 5', 'ask sausage', 'hat 3'."""
        if isinstance(a, Layout):
            return "layout " + ",".join(CODE[t] for t in a.row)
        if isinstance(a, Move):
            return f"move {a.src} {a.dst}"
        if isinstance(a, Ask):
            return f"ask {a.bait}"
        if isinstance(a, Choose):
            return f"hat {a.place}"
        raise IllegalAction(f"not a Schwarzer Kater action: {a!r}")

    def parse_action(self, s: KaterState, seat: int, text: str) -> Action:
        """Read an action typed by `seat`; raises IllegalAction if unreadable or illegal.

        Besides the canonical forms it accepts a bare hat number while searching,
        'i j', 'i>j' or 'i to j' for moves, bait names or letters when asking, and
        token letters or names for a layout.
        """
        action = self._read(s, text)
        reason = self._why_illegal(s, seat, action)
        if reason is not None:
            raise IllegalAction(reason)
        return action

    def _read(self, s: KaterState, text: str) -> Action:
        # words of letters, digits and underscores; "2>5", "2->5", "2 to 5" all read as 2 5
        parts = [w for w in re.findall(r"[a-z0-9_]+", text.lower()) if w != "to"]
        if not parts:
            raise IllegalAction("empty input")
        head, rest = parts[0], parts[1:]
        if head == "layout" or (s.phase == "layout" and head not in ("move", "ask", "hat")):
            items = rest if head == "layout" else parts
            if len(items) == 1 and all(ch.upper() in TOKEN_BY_CODE for ch in items[0]):
                items = list(items[0])  # "SCKPL"
            return Layout(tuple(self._token(w) for w in items))
        if head == "move" or (s.phase == "move" and head not in ("ask", "hat")):
            items = rest if head == "move" else parts
            if len(items) != 2 or not all(w.isdigit() for w in items):
                raise IllegalAction("a move is two hat places, e.g. 'move 2 5'")
            return Move(int(items[0]), int(items[1]))
        if head == "ask" or (s.phase == "ask" and head != "hat"):
            items = rest if head == "ask" else parts
            return Ask(self._token(" ".join(items)))
        items = rest if head == "hat" else parts
        if len(items) != 1 or not items[0].isdigit():
            raise IllegalAction("name one hat by its number, e.g. 'hat 3' or just '3'")
        return Choose(int(items[0]))

    @staticmethod
    def _token(word: str) -> str:
        key = word.strip().lower().replace(" ", "_")
        if key.upper() in TOKEN_BY_CODE:
            return TOKEN_BY_CODE[key.upper()]
        aliases = {"piece": "cheese_piece", "slice": "cheese_slice", "choc": "chocolate",
                   "black_cat": "cat"}
        key = aliases.get(key, key)
        if key in TOKENS:
            return key
        raise IllegalAction(f"unknown token {word!r}; use "
                            + ", ".join(f"{CODE[t]} ({DISPLAY[t]})" for t in TOKENS))

    def extra_seats(self, config: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
        """The program cat's seat and bot level, when the program hosts."""
        cfg = parse_config(config)
        return ((PROGRAM_CAT_NAME, cfg.cat),) if cfg.host == "program" else ()


RULES = KaterRules()


# ------------------------------------------------------------------------ bots
def _pick(items: Sequence[Any], rng: random.Random) -> Any:
    return items[int(rng.random() * len(items))]


class KaterBot:
    """Plays either role. As the cat: plain (random/simple) or sly (good).

    As a mouse: random picks any hat; simple and good rebuild the row from a
    noisy memory of the layout and the moves (§1.8) and name the target's place.
    """

    def __init__(self, level: str) -> None:
        if level not in BOT_LEVELS:
            raise ConfigError(f"unknown bot level {level!r}; use one of {', '.join(BOT_LEVELS)}")
        self.level = level

    def notify(self, event: Event, seat: int) -> None:
        """Memory comes from the observation; nothing to keep here."""

    def act(self, obs: KaterObs, legal: tuple[Action, ...], rng: random.Random) -> Action:
        """Choose one of `legal` from what `obs` shows."""
        if obs.role == "cat" and self.level == "good":
            return self._sly_cat(obs, legal, rng)
        if obs.role == "mouse" and self.level != "random" and obs.phase == "search":
            return self._remembering_mouse(obs, legal, rng)
        return _pick(legal, rng)

    # -- mouse -------------------------------------------------------------------
    def _remembering_mouse(self, obs: KaterObs, legal: tuple[Action, ...],
                           rng: random.Random) -> Action:
        accuracy = MOUSE_ACCURACY[self.level]
        n = len(obs.layout)
        belief = list(obs.layout)
        target_index = belief.index(obs.target)
        if rng.random() >= accuracy:  # the target's place is remembered wrongly
            other = _pick([k for k in range(n) if k != target_index], rng)
            belief[target_index], belief[other] = belief[other], belief[target_index]
        for src, dst in obs.moves:
            if rng.random() >= accuracy:  # lost track: one place off
                options = sorted({max(1, dst - 1), min(n, dst + 1)} - {src, dst})
                dst = _pick(options, rng) if options else dst
            belief = list(move_row(belief, src, dst))
        guess = Choose(belief.index(obs.target) + 1)
        return guess if guess in legal else _pick(legal, rng)

    # -- cat ---------------------------------------------------------------------
    def _sly_cat(self, obs: KaterObs, legal: tuple[Action, ...], rng: random.Random) -> Action:
        if obs.phase == "move":
            return self._sly_move(obs, legal, rng)
        if obs.phase == "ask":
            return self._sly_ask(obs, legal, rng)
        return _pick(legal, rng)

    def _sly_move(self, obs: KaterObs, legal: tuple[Action, ...], rng: random.Random) -> Action:
        assert obs.row is not None
        rows = [obs.layout]
        for src, dst in obs.moves:
            rows.append(move_row(rows[-1], src, dst))
        moves = [a for a in legal if isinstance(a, Move)]
        if len(rows) >= 2:  # never undo the previous move
            moves = [m for m in moves if move_row(obs.row, m.src, m.dst) != rows[-2]] or moves
        moves = [m for m in moves if abs(m.src - m.dst) >= 2] or moves
        is_last = len(obs.moves) + 1 == obs.moves_per_round
        touched_bait = any(rows[k][src - 1] != CAT for k, (src, _) in enumerate(obs.moves))
        if is_last and not touched_bait:
            moves = [m for m in moves if obs.row[m.src - 1] != CAT] or moves
        return _pick(moves, rng)

    def _sly_ask(self, obs: KaterObs, legal: tuple[Action, ...], rng: random.Random) -> Action:
        travel = {token: 0 for token in obs.layout}
        row = obs.layout
        for src, dst in obs.moves:
            travel[row[src - 1]] += abs(src - dst)
            row = move_row(row, src, dst)
        asks = [a for a in legal if isinstance(a, Ask)]
        if obs.past_targets:
            asks = [a for a in asks if a.bait != obs.past_targets[-1]] or asks
        farthest = max(travel[a.bait] for a in asks)
        return _pick([a for a in asks if travel[a.bait] == farthest], rng)


def make_bot(level: str) -> KaterBot:
    """A bot of `level` ("random", "simple" or "good") for any seat."""
    return KaterBot(level)
