"""Club der Tatzen (HABA 305277): a deduction card game for 2-4 players, text mode.

Every player secretly holds 3 of 19 property cards (pose, fur pattern, accessory,
fur colour). Cat cards are played one per turn; everyone whose cat shares a
property with the played card must put a mask on it, so masks are public evidence.
Players guess each other's properties; correct guesses reveal them and win a mask,
wrong ones cost a mask. Rules follow the binding rulings in
``shared/rulings/companion-games.md`` §3 (R-CdT-*, A-CdT-*) and the engine design
of §4 (E1-E12).

Layout: card data (loaded from ``club_der_tatzen.toml``), config, state and
actions, the pure `TatzenRules` (exported as `RULES`), the text rendering, the
deduction helpers (§3.8) and the bots (`make_bot`).
"""
from __future__ import annotations

import importlib.resources
import math
import random
import tomllib
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any, Mapping, Sequence, Union

from beattrainer.deck.core import Card, Deck, Pile, rng_stream, shuffled
from beattrainer.games.core import ConfigError, Event, IllegalAction, Level, Result

__all__ = [
    "RULES", "RULES_SUMMARY", "CONFIG_OPTIONS", "CONFORMANCE_VARIANTS", "CATALOG", "make_bot",
    "TatzenRules", "TatzenState", "TatzenObservation", "TatzenConfig",
    "Play", "Guess", "Pass", "Action", "TableCard", "WrongGuess",
    "Property", "CatCard", "Catalog", "load_catalog", "match_property",
    "hypotheses", "property_probabilities", "action_warnings",
]

NAME = "tatzen"
RULES_VERSION = "1"
MIN_PLAYERS, MAX_PLAYERS = 2, 4
PROPERTIES_PER_PLAYER = 3
HAND_SIZE = 3
MASKS_PER_PLAYER = 16
MASK_COLOURS = ("yellow", "red", "green", "purple")  # by seat, as in the box
CATEGORIES = ("pose", "pattern", "accessory", "colour")

PLAY, GUESS, OVER = "play", "guess", "over"          # phases of the state
FINAL_ROUND_CHOICES = ("finish_round", "all_others")  # A-CdT-06

# Bots enumerate joint hypotheses only below this many combinations (§3.8).
JOINT_ENUMERATION_LIMIT = 200_000
GOOD_GUESS_THRESHOLD = 1 / 3   # break-even of a guess (§3.8)
GOOD_SELF_LEAK_WEIGHT = 1.0    # λ in §3.8
GOOD_CARD_NOISE = 0.1          # keeps the card choice from becoming a tell

CONFIG_OPTIONS: tuple[tuple[str, Any, Any, str], ...] = (
    ("final_round", FINAL_ROUND_CHOICES, "finish_round",
     "after a cat is fully revealed: finish_round = only the players left in this "
     "round get a guess-only turn (rulebook); all_others = every other player gets one"),
)

# Extra option sets for the generic conformance test (registry contract).
CONFORMANCE_VARIANTS: tuple[dict[str, Any], ...] = ({"final_round": "all_others"},)

RULES_SUMMARY = """\
Club der Tatzen - unmask the other cats before they unmask yours (2-4 players).
You secretly hold 3 of 19 properties (5 poses, striped/spotted, 4 accessories,
8 fur colours); nobody holds a property twice. On your turn:
  1. play one of your 3 cat cards to the table (play <number>);
  2. everyone whose secret cat shares at least one property with that card puts
     exactly one mask from their supply on it - the program does this, truthfully;
  3. optionally guess one property of another player (guess <player> <property>)
     or skip (pass). Right: the property is revealed and that player hands you a
     mask. Wrong: you hand them a mask, and everyone learns they lack it;
  4. draw a card.
Once all 3 properties of any player are revealed, the round is finished with
guess-only turns. The game also ends at once when anyone's supply runs empty.
Score: masks received + your properties still hidden. Ties go to the player
with more hidden properties; after that the win is shared."""


# ================================================================ card data

@dataclass(frozen=True)
class Property:
    """One of the 19 property cards; each exists exactly once (A-CdT-02)."""

    id: str
    category: str
    de: str
    en: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class CatCard:
    """A cat card: one pose, one fur colour, at most one pattern and accessory."""

    number: int
    pose: str
    colour: str
    pattern: str | None = None
    accessory: str | None = None

    @property
    def id(self) -> str:
        """The card id used in piles, logs and commands ("13")."""
        return str(self.number)

    @property
    def properties(self) -> tuple[str, ...]:
        """Property ids in display order: pose, colour, pattern, accessory."""
        return tuple(p for p in (self.pose, self.colour, self.pattern, self.accessory) if p)


@dataclass(frozen=True)
class Catalog:
    """All cards of the game, validated, with lookups by id."""

    properties: tuple[Property, ...]
    cats: tuple[CatCard, ...]
    property_deck: Deck = field(init=False, repr=False, compare=False)
    cat_deck: Deck = field(init=False, repr=False, compare=False)
    _props: Mapping[str, Property] = field(init=False, repr=False, compare=False)
    _cats: Mapping[str, CatCard] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        props = {p.id: p for p in self.properties}
        cats = {c.id: c for c in self.cats}
        object.__setattr__(self, "_props", props)
        object.__setattr__(self, "_cats", cats)
        object.__setattr__(self, "property_deck", Deck(tuple(
            Card.make(p.id, {"category": p.category}) for p in self.properties)))
        object.__setattr__(self, "cat_deck", Deck(tuple(
            Card.make(c.id, {"pose": c.pose, "colour": c.colour,
                             "pattern": c.pattern or "", "accessory": c.accessory or ""})
            for c in self.cats)))

    @property
    def property_ids(self) -> tuple[str, ...]:
        """Property ids in catalog order."""
        return tuple(p.id for p in self.properties)

    @property
    def cat_ids(self) -> tuple[str, ...]:
        """Cat card ids in catalog order."""
        return tuple(c.id for c in self.cats)

    def prop(self, prop_id: str) -> Property:
        """The property with id `prop_id`."""
        return self._props[prop_id]

    def cat(self, card_id: str) -> CatCard:
        """The cat card with id `card_id`."""
        return self._cats[card_id]

    def is_property(self, prop_id: str) -> bool:
        """Whether `prop_id` names a property card."""
        return prop_id in self._props

    def is_cat(self, card_id: str) -> bool:
        """Whether `card_id` names a cat card."""
        return card_id in self._cats


def _parse_catalog(data: Mapping[str, Any]) -> Catalog:
    """Build and validate a catalog from parsed TOML; ValueError on bad data."""
    properties = tuple(
        Property(id=str(p["id"]), category=str(p["category"]), de=str(p["de"]),
                 en=str(p["en"]), aliases=tuple(str(a) for a in p.get("aliases", ())))
        for p in data["property"])
    category_of = {p.id: p.category for p in properties}
    if len(category_of) != len(properties):
        raise ValueError("duplicate property id in card data")
    for p in properties:
        if p.category not in CATEGORIES:
            raise ValueError(f"property {p.id}: unknown category {p.category!r}")

    def slot(raw: Mapping[str, Any], category: str, required: bool) -> str | None:
        value = str(raw.get(category, "")) or None
        if value is None:
            if required:
                raise ValueError(f"cat {raw.get('number')}: missing {category}")
            return None
        if category_of.get(value) != category:
            raise ValueError(f"cat {raw.get('number')}: {value!r} is not a {category}")
        return value

    cats = tuple(
        CatCard(number=int(c["number"]), pose=slot(c, "pose", True),
                colour=slot(c, "colour", True), pattern=slot(c, "pattern", False),
                accessory=slot(c, "accessory", False))
        for c in data["cat"])
    if len({c.number for c in cats}) != len(cats):
        raise ValueError("duplicate cat card number in card data")
    return Catalog(properties, cats)


def load_catalog(text: str | None = None) -> Catalog:
    """Load the card data: `text` (TOML) or the bundled ``club_der_tatzen.toml``."""
    if text is None:
        text = (importlib.resources.files("beattrainer.games")
                .joinpath("club_der_tatzen.toml").read_text(encoding="utf-8"))
    return _parse_catalog(tomllib.loads(text))


CATALOG = load_catalog()


def prop_label(prop_id: str) -> str:
    """English display name of a property ("red fur", "top hat")."""
    return CATALOG.prop(prop_id).en


def card_label(card_id: str) -> str:
    """A cat card as "#13 sitting boss · blue fur · striped"."""
    return f"#{card_id} " + " · ".join(prop_label(p) for p in CATALOG.cat(card_id).properties)


def _words(text: str) -> str:
    return " ".join(text.casefold().split())


def _property_names() -> tuple[tuple[str, str], ...]:
    names = []
    for p in CATALOG.properties:
        for name in (p.id, p.en, p.de, *p.aliases):
            names.append((_words(name), p.id))
    return tuple(names)


_PROPERTY_NAMES = _property_names()


def match_property(text: str) -> str:
    """Resolve a property typed by a player to its id.

    Accepts the id, the English or German name, an alias ("red", "hat",
    "stripes"), or a unique prefix of any of these; case-insensitive.

    Raises
    ------
    ValueError
        If nothing or more than one property matches.
    """
    key = _words(text)
    if not key:
        raise ValueError("no property given")
    exact = {pid for name, pid in _PROPERTY_NAMES if name == key}
    if len(exact) == 1:
        return exact.pop()
    prefixed = sorted({pid for name, pid in _PROPERTY_NAMES if name.startswith(key)},
                      key=CATALOG.property_ids.index)
    if len(prefixed) == 1:
        return prefixed[0]
    if not prefixed:
        raise ValueError(f"unknown property {text.strip()!r}")
    raise ValueError(f"{text.strip()!r} could be " + ", ".join(prop_label(p) for p in prefixed))


# ================================================================ config

@dataclass(frozen=True)
class TatzenConfig:
    """Validated configuration: player names by seat and the variant options."""

    players: tuple[str, ...]
    final_round: str = "finish_round"

    @property
    def n_players(self) -> int:
        """Number of seats."""
        return len(self.players)


def parse_config(config: Mapping[str, Any]) -> TatzenConfig:
    """Validate a config dict ``{"players": [...], **options}``; ConfigError if bad."""
    if not isinstance(config, Mapping):
        raise ConfigError("the config must be a mapping with a 'players' list")
    known = {"players"} | {key for key, *_ in CONFIG_OPTIONS}
    unknown = sorted(set(config) - known)
    if unknown:
        raise ConfigError(f"unknown option {unknown[0]!r} for {NAME}; known options: "
                          + ", ".join(key for key, *_ in CONFIG_OPTIONS))
    players = config.get("players")
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise ConfigError(f"'players' must be a list of {MIN_PLAYERS}-{MAX_PLAYERS} names")
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ConfigError(f"Club der Tatzen needs {MIN_PLAYERS}-{MAX_PLAYERS} players, "
                          f"got {len(players)}")
    names = []
    for raw in players:
        if not isinstance(raw, str) or not raw.split():
            raise ConfigError("every player needs a non-empty name")
        names.append(" ".join(raw.split()))
    if len({n.casefold() for n in names}) != len(names):
        raise ConfigError("player names must be different")
    final_round = config.get("final_round", "finish_round")
    if final_round not in FINAL_ROUND_CHOICES:
        raise ConfigError(f"final_round must be one of {', '.join(FINAL_ROUND_CHOICES)}, "
                          f"got {final_round!r}")
    return TatzenConfig(tuple(names), final_round)


# ================================================================ state and actions

@dataclass(frozen=True)
class Play:
    """Play the cat card `card` (an id such as "13") from the hand."""

    card: str


@dataclass(frozen=True)
class Guess:
    """Guess that seat `target` holds property `prop`."""

    target: int
    prop: str


@dataclass(frozen=True)
class Pass:
    """Skip the optional guess."""


Action = Union[Play, Guess, Pass]


@dataclass(frozen=True)
class TableCard:
    """A played cat card, the seats that put a mask on it, who played it and when."""

    card: str
    masks: tuple[int, ...]
    played_by: int
    turn: int


@dataclass(frozen=True)
class WrongGuess:
    """Public fact: `target` does not hold `prop` (A-CdT-05)."""

    target: int
    prop: str
    guesser: int
    turn: int


@dataclass(frozen=True)
class TatzenState:
    """The complete, immutable game state (including everything hidden).

    `phase` is "play" (the current seat must play a card), "guess" (guess or
    pass; `guess_only` marks a turn without play and draw) or "over".
    `end_trigger` is the seat whose turn triggered the end; `final_queue` holds the
    seats that still get a guess-only turn after the current one.
    """

    config: TatzenConfig
    seed: str
    start_seat: int
    secrets: tuple[tuple[str, ...], ...]
    set_aside: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    draw_pile: Pile
    supply: tuple[int, ...]
    received: tuple[int, ...]
    revealed: tuple[tuple[str, ...], ...]
    current: int
    phase: str
    guess_only: bool = False
    table: tuple[TableCard, ...] = ()
    wrong_guesses: tuple[WrongGuess, ...] = ()
    turn: int = 1
    round: int = 1
    end_trigger: int | None = None
    end_trigger_reason: str = ""
    final_queue: tuple[int, ...] = ()
    end_reason: str = ""

    @property
    def n_players(self) -> int:
        """Number of seats."""
        return self.config.n_players


@dataclass(frozen=True)
class TatzenObservation:
    """What one seat (or, with ``seat=None``, a spectator) may know.

    Own secret properties and hand only for `seat`; everything else is public.
    `all_secrets` is filled only when the game is over (the cats are shown).
    """

    seat: int | None
    players: tuple[str, ...]
    final_round: str
    start_seat: int
    current: int
    phase: str
    guess_only: bool
    turn: int
    round: int
    own_properties: tuple[str, ...]
    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    draw_pile_size: int
    table: tuple[TableCard, ...]
    supply: tuple[int, ...]
    received: tuple[int, ...]
    revealed: tuple[tuple[str, ...], ...]
    wrong_guesses: tuple[WrongGuess, ...]
    end_trigger: int | None
    final_queue: tuple[int, ...]
    end_reason: str
    all_secrets: tuple[tuple[str, ...], ...] | None = None

    @property
    def n_players(self) -> int:
        """Number of seats."""
        return len(self.players)


# ================================================================ helpers

def _player(names: Sequence[str], seat: int) -> str:
    return f"{names[seat]} [{MASK_COLOURS[seat]} masks]"


def _join_names(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _in_catalog_order(prop_ids: Sequence[str]) -> tuple[str, ...]:
    order = CATALOG.property_ids
    return tuple(sorted(prop_ids, key=order.index))


def _by_number(card_ids: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted(card_ids, key=int))


def _normalise_card_id(text: str) -> str:
    text = str(text).strip()
    return text[1:] if text.startswith("#") else text


def _set_at(values: tuple, seat: int, value: Any) -> tuple:
    return values[:seat] + (value,) + values[seat + 1:]


def _scores(received: Sequence[int], revealed: Sequence[Sequence[str]]
            ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Scores (received + hidden properties) and hidden-property counts (R-CdT-12)."""
    hidden = tuple(PROPERTIES_PER_PLAYER - len(r) for r in revealed)
    return tuple(m + h for m, h in zip(received, hidden)), hidden


def _final_queue(config: TatzenConfig, trigger_seat: int, start_seat: int) -> tuple[int, ...]:
    """Seats that get a guess-only turn after the trigger (R-CdT-09, A-CdT-06)."""
    p = config.n_players
    after = tuple((trigger_seat + k) % p for k in range(1, p))
    if config.final_round == "all_others":
        return after
    queue = []
    for seat in after:
        if seat == start_seat:
            break
        queue.append(seat)
    return tuple(queue)


def _ordered_deck(deck: Deck, given: Sequence[str], rng: random.Random) -> tuple[str, ...]:
    """`given` on top, then the other cards in the seeded shuffle order."""
    rest = deck.pile(rng).cards
    chosen = set(given)
    return tuple(given) + tuple(c for c in rest if c not in chosen)


def _split_deck_order(deck_order: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    props, cats = [], []
    for raw in deck_order:
        key = _normalise_card_id(str(raw))
        if CATALOG.is_property(key.upper()):
            props.append(key.upper())
        elif CATALOG.is_cat(key):
            cats.append(key)
        else:
            raise ConfigError(f"deck_order: unknown card {raw!r}")
    for kind, ids in (("property", props), ("cat", cats)):
        if len(set(ids)) != len(ids):
            raise ConfigError(f"deck_order: a {kind} card appears twice")
    return tuple(props), tuple(cats)


# ================================================================ rules

class TatzenRules:
    """The rules of Club der Tatzen as pure functions over `TatzenState`."""

    name = NAME
    rules_version = RULES_VERSION
    config_options = CONFIG_OPTIONS
    summary = RULES_SUMMARY

    # ---------------------------------------------------------------- setup
    def new_game(self, config: Mapping[str, Any], seed: str,
                 *, deck_order: Sequence[str] | None = None) -> TatzenState:
        """Deal a new game (R-CdT-01..04).

        `deck_order` stacks the decks for tests: property ids ("BLUE") and cat
        ids ("13" or "#13") in any mix. Given property cards go on top of the
        property deck in that order (seat 1 gets the first three, seat 2 the
        next three, ...); the same holds for cat cards (hands first, then the
        draw pile from the top). Cards not named follow in seeded order.
        """
        cfg = parse_config(config)
        seed = str(seed)
        p = cfg.n_players
        given_props, given_cats = _split_deck_order(deck_order or ())
        props = _ordered_deck(CATALOG.property_deck, given_props,
                              rng_stream(seed, "properties"))
        cats = _ordered_deck(CATALOG.cat_deck, given_cats, rng_stream(seed, "cats"))
        start = int(rng_stream(seed, "start").random() * p)
        k, h = PROPERTIES_PER_PLAYER, HAND_SIZE
        return TatzenState(
            config=cfg, seed=seed, start_seat=start,
            secrets=tuple(props[k * i:k * (i + 1)] for i in range(p)),
            set_aside=props[k * p:],
            hands=tuple(cats[h * i:h * (i + 1)] for i in range(p)),
            draw_pile=Pile(cats[h * p:]),
            supply=(MASKS_PER_PLAYER,) * p, received=(0,) * p,
            revealed=((),) * p, current=start, phase=PLAY,
        )

    # ---------------------------------------------------------------- queries
    def to_act(self, s: TatzenState) -> tuple[int, ...]:
        """The seat to decide, or () when the game is over."""
        return () if s.phase == OVER else (s.current,)

    def is_terminal(self, s: TatzenState) -> bool:
        """Whether the game is over."""
        return s.phase == OVER

    def legal_actions(self, s: TatzenState, seat: int) -> tuple[Action, ...]:
        """Legal actions of `seat`: cards by number, or pass then guesses by seat/property."""
        if s.phase == OVER or seat != s.current:
            return ()
        if s.phase == PLAY:
            return tuple(Play(c) for c in _by_number(s.hands[seat]))
        guesses = tuple(
            Guess(target, prop)
            for target in range(s.n_players) if target != seat
            for prop in CATALOG.property_ids if prop not in s.revealed[target])
        return (Pass(),) + guesses

    def result(self, s: TatzenState) -> Result:
        """Scores and ranks (R-CdT-12): more hidden properties break ties."""
        if s.phase != OVER:
            raise ValueError("the game is not over yet")
        scores, hidden = _scores(s.received, s.revealed)
        return Result(scores=scores, ranks=Result.ranks_from_keys(list(zip(scores, hidden))),
                      reason=s.end_reason)

    # ---------------------------------------------------------------- apply
    def apply(self, s: TatzenState, seat: int, a: Action) -> tuple[TatzenState, tuple[Event, ...]]:
        """Apply `a` by `seat`; returns the new state and what happened.

        Raises
        ------
        IllegalAction
            If `a` is not a legal action of `seat` in `s`.
        """
        self._check_legal(s, seat, a)
        if isinstance(a, Play):
            return _apply_play(s, seat, a.card)
        if isinstance(a, Guess):
            return _apply_guess(s, seat, a.target, a.prop)
        return _finish_turn(s, [Event(f"{s.config.players[seat]} does not guess.", kind="pass")])

    def _check_legal(self, s: TatzenState, seat: int, a: Action) -> None:
        names = s.config.players
        if s.phase == OVER:
            raise IllegalAction("the game is over")
        if not isinstance(seat, int) or not 0 <= seat < s.n_players:
            raise IllegalAction(f"there is no seat {seat!r}")
        if seat != s.current:
            raise IllegalAction(f"it is {names[s.current]}'s turn, not {names[seat]}'s")
        if isinstance(a, Play):
            if s.phase != PLAY:
                raise IllegalAction("you have already played a card this turn"
                                    if not s.guess_only else
                                    "this is a guess-only turn: guess or pass")
            if a.card not in s.hands[seat]:
                held = ", ".join(_by_number(s.hands[seat]))
                raise IllegalAction(f"you do not hold cat #{a.card}; your hand: {held}")
        elif isinstance(a, Guess):
            if s.phase != GUESS:
                raise IllegalAction("play a cat card first, then guess")
            if not isinstance(a.target, int) or not 0 <= a.target < s.n_players:
                raise IllegalAction(f"there is no player {a.target!r}")
            if a.target == seat:
                raise IllegalAction("you cannot guess your own cat")
            if not CATALOG.is_property(a.prop):
                raise IllegalAction(f"unknown property {a.prop!r}")
            if a.prop in s.revealed[a.target]:
                raise IllegalAction(f"{prop_label(a.prop)} is already revealed for "
                                    f"{names[a.target]}")
        elif isinstance(a, Pass):
            if s.phase != GUESS:
                raise IllegalAction("you must play a cat card before you can pass")
        else:
            raise IllegalAction(f"not a Club der Tatzen action: {a!r}")

    # ---------------------------------------------------------------- views
    def observe(self, s: TatzenState, seat: int) -> TatzenObservation:
        """What `seat` may see: its own cat and hand plus all public facts."""
        if not isinstance(seat, int) or not 0 <= seat < s.n_players:
            raise ValueError(f"there is no seat {seat!r}")
        return _observation(s, seat)

    def observe_public(self, s: TatzenState) -> TatzenObservation:
        """What a spectator may see (for logs and shared screens)."""
        return _observation(s, None)

    def render(self, obs: TatzenObservation) -> str:
        """The text screen for the observation's seat."""
        return render_observation(obs)

    def intro(self, s: TatzenState) -> str:
        """Shown once when a game starts: who plays which masks and who starts."""
        names = s.config.players
        return ("Club der Tatzen with " + ", ".join(_player(names, j) for j in range(s.n_players))
                + f". {names[s.start_seat]} starts. Everyone holds 3 secret properties and "
                f"{MASKS_PER_PLAYER} masks.\nCommands: play <card number>, "
                "guess <player> <property>, pass.")

    def action_warnings(self, s: TatzenState, seat: int, a: Action) -> tuple[str, ...]:
        """Warnings for a legal guess that cannot be right (§3.6); the UI still allows it."""
        return action_warnings(self.observe(s, seat), a)

    # ---------------------------------------------------------------- text
    def action_to_text(self, s: TatzenState, a: Action) -> str:
        """Canonical command text: "play 13", "guess Ben SPOTTED", "pass"."""
        if isinstance(a, Play):
            return f"play {a.card}"
        if isinstance(a, Guess):
            return f"guess {s.config.players[a.target]} {a.prop}"
        if isinstance(a, Pass):
            return "pass"
        raise ValueError(f"not a Club der Tatzen action: {a!r}")

    def parse_action(self, s: TatzenState, seat: int, text: str) -> Action:
        """Parse a command typed by `seat`; inverse of `action_to_text`.

        Also accepts "#13", player seat numbers or name prefixes and property
        names or prefixes in English or German. Raises IllegalAction (with a
        one-line message) on text that names no action.
        """
        words = text.split()
        if not words:
            raise IllegalAction("type play <card number>, guess <player> <property> or pass")
        verb, args = words[0].casefold(), words[1:]
        if verb == "pass":
            if args:
                raise IllegalAction("pass takes nothing after it")
            return Pass()
        if verb == "play":
            if len(args) != 1:
                raise IllegalAction("usage: play <card number>, e.g. play 13")
            card = _normalise_card_id(args[0])
            if not CATALOG.is_cat(card):
                raise IllegalAction(f"there is no cat card {args[0]!r}")
            return Play(card)
        if verb == "guess":
            return _parse_guess(s.config.players, args)
        raise IllegalAction(f"unknown command {words[0]!r}; "
                            "type play <card number>, guess <player> <property> or pass")

    # ---------------------------------------------------------------- hidden data
    def resample_hidden(self, s: TatzenState, seat: int, rng: random.Random) -> TatzenState:
        """A state that `seat` cannot tell apart from `s`, hidden data redrawn.

        The other players' secret properties are drawn so that they agree with
        every public fact (masks, reveals, wrong guesses) and are disjoint; the
        other hands and the draw pile are reshuffled together (sizes kept); the
        set-aside properties are what is left over.
        """
        obs = self.observe(s, seat)
        others = [j for j in range(s.n_players) if j != seat]
        if s.phase == OVER:   # the cats are shown at the end
            secrets = s.secrets
        else:
            sampled = _sample_joint_secrets(obs, others, rng)
            secrets = tuple(s.secrets[j] if j == seat else sampled[j]
                            for j in range(s.n_players))
        used = {p for sec in secrets for p in sec}
        set_aside = shuffled([p for p in CATALOG.property_ids if p not in used], rng)
        pool = shuffled([c for j in others for c in s.hands[j]] + list(s.draw_pile.cards), rng)
        hands, pos = list(s.hands), 0
        for j in others:
            n = len(s.hands[j])
            hands[j] = pool[pos:pos + n]
            pos += n
        return replace(s, secrets=secrets, set_aside=set_aside, hands=tuple(hands),
                       draw_pile=replace(s.draw_pile, cards=pool[pos:]))


def _parse_guess(names: Sequence[str], args: Sequence[str]) -> Guess:
    """Split "guess <player> <property>" where both parts may contain spaces."""
    if len(args) < 2:
        raise IllegalAction("usage: guess <player> <property>, e.g. guess Ben striped")
    found: list[tuple[bool, Guess]] = []
    errors: list[str] = []
    for k in range(1, len(args)):
        player_text, prop_text = " ".join(args[:k]), " ".join(args[k:])
        target, exact_player = _match_player(names, player_text)
        if target is None:
            continue
        try:
            prop = match_property(prop_text)
        except ValueError as exc:
            errors.append(str(exc))
            continue
        exact_prop = _words(prop_text) in {n for n, pid in _PROPERTY_NAMES if pid == prop}
        found.append((exact_player and exact_prop, Guess(target, prop)))
    candidates = {g for _, g in found}
    if len(candidates) == 1:
        return candidates.pop()
    exact = {g for is_exact, g in found if is_exact}
    if len(exact) == 1:
        return exact.pop()
    if not found:
        if errors:
            raise IllegalAction(errors[0])
        raise IllegalAction(f"no player called {args[0]!r}; players: {', '.join(names)}")
    raise IllegalAction("ambiguous guess; write the full player name and property")


def _match_player(names: Sequence[str], text: str) -> tuple[int | None, bool]:
    """Seat named by `text` (name, 1-based seat number or unique prefix), and exactness."""
    key = _words(text)
    for seat, name in enumerate(names):
        if name.casefold() == key:
            return seat, True
    if key.isdigit() and 1 <= int(key) <= len(names):
        return int(key) - 1, True
    prefixed = [seat for seat, name in enumerate(names) if name.casefold().startswith(key)]
    if len(prefixed) == 1:
        return prefixed[0], False
    return None, False


# ================================================================ turn steps

def _apply_play(s: TatzenState, seat: int, card: str) -> tuple[TatzenState, tuple[Event, ...]]:
    """R-CdT-05 play, then R-CdT-06 masks (forced, one per matching player)."""
    names = s.config.players
    cat_props = set(CATALOG.cat(card).properties)
    hand = list(s.hands[seat])
    hand.remove(card)
    maskers = tuple(j for j in range(s.n_players) if cat_props & set(s.secrets[j]))
    supply = tuple(n - (j in maskers) for j, n in enumerate(s.supply))
    s = replace(s, hands=_set_at(s.hands, seat, tuple(hand)), supply=supply,
                table=s.table + (TableCard(card, maskers, seat, s.turn),))
    events = [Event(f"{names[seat]} plays {card_label(card)}.", kind="play"),
              _mask_event(s, card, maskers, cat_props)]
    if min(supply) == 0:
        return _end_by_masks(s, events)
    return replace(s, phase=GUESS), tuple(events)


def _mask_event(s: TatzenState, card: str, maskers: tuple[int, ...],
                cat_props: set[str]) -> Event:
    names = s.config.players
    if maskers:
        public = f"Masks on #{card}: " + ", ".join(_player(names, j) for j in maskers) + "."
    else:
        public = f"Nobody puts a mask on #{card}."
    private = {}
    for j in range(s.n_players):
        shared = _in_catalog_order(cat_props & set(s.secrets[j]))
        if shared:
            private[j] = (public + " You put one mask on it (your cat: "
                          + ", ".join(prop_label(p) for p in shared) + ").")
        else:
            private[j] = public + " You put none (no property in common)."
    return Event(public, private, kind="masks")


def _apply_guess(s: TatzenState, seat: int, target: int, prop: str
                 ) -> tuple[TatzenState, tuple[Event, ...]]:
    """R-CdT-07: a truthful answer; the loser of the guess pays one mask."""
    names = s.config.players
    label = prop_label(prop)
    if prop in s.secrets[target]:
        s = replace(s, revealed=_set_at(s.revealed, target, s.revealed[target] + (prop,)),
                    supply=_set_at(s.supply, target, s.supply[target] - 1),
                    received=_set_at(s.received, seat, s.received[seat] + 1))
        events = [Event(f"{names[seat]} guesses {names[target]} has {label}: right! "
                        f"{label.capitalize()} is revealed, and {names[target]} gives "
                        f"{names[seat]} a mask.", kind="guess")]
    else:
        s = replace(s, supply=_set_at(s.supply, seat, s.supply[seat] - 1),
                    received=_set_at(s.received, target, s.received[target] + 1),
                    wrong_guesses=s.wrong_guesses + (WrongGuess(target, prop, seat, s.turn),))
        events = [Event(f"{names[seat]} guesses {names[target]} has {label}: wrong. "
                        f"{names[target]} is not {label}; {names[seat]} gives "
                        f"{names[target]} a mask.", kind="guess")]
    if min(s.supply) == 0:
        return _end_by_masks(s, events)
    if len(s.revealed[target]) == PROPERTIES_PER_PLAYER and s.end_trigger is None:
        s, event = _trigger_end(s, f"all three properties of {names[target]} are revealed")
        events.append(event)
    return _finish_turn(s, events)


def _trigger_end(s: TatzenState, why: str) -> tuple[TatzenState, Event]:
    """R-CdT-09: remember the first trigger and who still gets a guess-only turn."""
    queue = _final_queue(s.config, s.current, s.start_seat)
    s = replace(s, end_trigger=s.current, end_trigger_reason=why, final_queue=queue)
    if queue:
        rest = _join_names([s.config.players[j] for j in queue])
        text = f"The end is near: {why}. Still to come: one guess-only turn for {rest}."
    else:
        text = f"The end is reached: {why}."
    return s, Event(text, kind="end")


def _finish_turn(s: TatzenState, events: list[Event]) -> tuple[TatzenState, tuple[Event, ...]]:
    """R-CdT-08 draw (not in guess-only turns), R-CdT-11 deck end, next turn."""
    names, seat = s.config.players, s.current
    if not s.guess_only:
        if s.draw_pile.cards:
            (card,), pile = s.draw_pile.draw(1)
            s = replace(s, draw_pile=pile, hands=_set_at(s.hands, seat, s.hands[seat] + (card,)))
            events.append(Event(f"{names[seat]} draws a cat card.",
                                {seat: f"You draw {card_label(card)}."}, kind="draw"))
        if s.end_trigger is None and not s.draw_pile.cards and not any(s.hands):
            s, event = _trigger_end(s, "the last cat card has been played")
            events.append(event)
    if s.end_trigger is not None:
        if not s.final_queue:
            return _game_over(s, s.end_trigger_reason, events)
        nxt, queue, guess_only = s.final_queue[0], s.final_queue[1:], True
        why = "final round"
    else:
        nxt, queue = (seat + 1) % s.n_players, ()
        guess_only = not s.hands[nxt]
        why = "no cat cards left in hand"
    s = replace(s, current=nxt, final_queue=queue, guess_only=guess_only,
                phase=GUESS if guess_only else PLAY, turn=s.turn + 1,
                round=s.round + (nxt == s.start_seat))
    if guess_only:
        events.append(Event(f"{names[nxt]} has a guess-only turn ({why}).", kind="turn"))
    return s, tuple(events)


def _end_by_masks(s: TatzenState, events: list[Event]) -> tuple[TatzenState, tuple[Event, ...]]:
    """R-CdT-10: an empty supply ends the game at once."""
    empty = [s.config.players[j] for j in range(s.n_players) if s.supply[j] == 0]
    verb = "has" if len(empty) == 1 else "have"
    return _game_over(s, f"{_join_names(empty)} {verb} no masks left", events)


def _game_over(s: TatzenState, reason: str, events: list[Event]
               ) -> tuple[TatzenState, tuple[Event, ...]]:
    s = replace(s, phase=OVER, end_reason=reason, final_queue=(), guess_only=False)
    scores, hidden = _scores(s.received, s.revealed)
    ranks = Result.ranks_from_keys(list(zip(scores, hidden)))
    winners = [s.config.players[j] for j in range(s.n_players) if ranks[j] == 1]
    lines = ", ".join(f"{s.config.players[j]} {scores[j]} ({_count(s.received[j], 'mask')} "
                      f"+ {hidden[j]} hidden)" for j in range(s.n_players))
    verdict = (f"{winners[0]} wins" if len(winners) == 1
               else f"{_join_names(winners)} share the win")
    events.append(Event(f"Game over: {reason}. Scores: {lines}. {verdict}.", kind="over",
                        wait_enter=True))
    return s, tuple(events)


def _observation(s: TatzenState, seat: int | None) -> TatzenObservation:
    mine = seat is not None
    return TatzenObservation(
        seat=seat, players=s.config.players, final_round=s.config.final_round,
        start_seat=s.start_seat, current=s.current, phase=s.phase,
        guess_only=s.guess_only, turn=s.turn, round=s.round,
        own_properties=_in_catalog_order(s.secrets[seat]) if mine else (),
        hand=s.hands[seat] if mine else (),
        hand_sizes=tuple(len(h) for h in s.hands), draw_pile_size=len(s.draw_pile),
        table=s.table, supply=s.supply, received=s.received, revealed=s.revealed,
        wrong_guesses=s.wrong_guesses, end_trigger=s.end_trigger,
        final_queue=s.final_queue, end_reason=s.end_reason,
        all_secrets=(tuple(_in_catalog_order(x) for x in s.secrets)
                     if s.phase == OVER else None),
    )


# ================================================================ text rendering

def render_observation(obs: TatzenObservation) -> str:
    """The screen text for one seat (§3.6): table, facts, masks, own cat and hand."""
    names = obs.players
    tag = [f"{n}[{MASK_COLOURS[j]}]" for j, n in enumerate(names)]
    lines = [f"Club der Tatzen · round {obs.round} · turn {obs.turn} · "
             f"start player {names[obs.start_seat]}"]
    lines.append("Players: " + ", ".join(_player(names, j) for j in range(obs.n_players)))
    lines.append("Table")
    if obs.table:
        labels = [card_label(tc.card) for tc in obs.table]
        width = max(len(label) for label in labels)
        for tc, label in zip(obs.table, labels):
            masks = " ".join(tag[j] for j in tc.masks) or "-"
            lines.append(f" {label.ljust(width)}   masks: {masks}")
    else:
        lines.append(" (no cat card played yet)")
    revealed = [f"{names[j]} — " + ", ".join(prop_label(p) for p in obs.revealed[j])
                for j in range(obs.n_players) if obs.revealed[j]]
    lines.append("Revealed:  " + ("; ".join(revealed) or "-"))
    ruled = [f"{names[w.target]} — not {prop_label(w.prop)} "
             f"({names[w.guesser]} guessed wrong, turn {w.turn})" for w in obs.wrong_guesses]
    lines.append("Ruled out: " + ("\n           ".join(ruled) or "-"))
    lines.append("Masks: " + " | ".join(
        f"{names[j]} supply {obs.supply[j]}, received {obs.received[j]}"
        for j in range(obs.n_players)))
    lines.append(f"Cards: draw pile {obs.draw_pile_size} | hands "
                 + ", ".join(f"{names[j]} {obs.hand_sizes[j]}" for j in range(obs.n_players)))
    if obs.end_trigger is not None and obs.phase != OVER:
        rest = [names[j] for j in obs.final_queue]
        lines.append("Final round: " + (f"{_join_names(rest)} still get a guess-only turn "
                                        "after this one." if rest else "this is the last turn."))
    if obs.seat is not None:
        lines.extend(_render_own(obs))
    lines.append(_render_prompt(obs))
    return "\n".join(lines)


def _render_own(obs: TatzenObservation) -> list[str]:
    seat = obs.seat
    cat = ", ".join(prop_label(p) for p in obs.own_properties)
    shown = [prop_label(p) for p in obs.own_properties if p in obs.revealed[seat]]
    lines = [f"Your cat ({obs.players[seat]}): {cat}"
             + (f"   (revealed: {', '.join(shown)})" if shown else "")]
    if obs.hand:
        lines.append("Your hand: " + "\n           ".join(card_label(c)
                                                          for c in _by_number(obs.hand)))
    else:
        lines.append("Your hand: (empty)")
    return lines


def _render_prompt(obs: TatzenObservation) -> str:
    names = obs.players
    if obs.phase == OVER:
        scores, hidden = _scores(obs.received, obs.revealed)
        ranks = Result.ranks_from_keys(list(zip(scores, hidden)))
        out = [f"Game over: {obs.end_reason}."]
        for j in sorted(range(obs.n_players), key=lambda j: (ranks[j], j)):
            cat = ", ".join(prop_label(p) for p in (obs.all_secrets or ((),) * 4)[j])
            out.append(f" {ranks[j]}. {names[j]}: {_count(scores[j], 'point')} "
                       f"({obs.received[j]} received + {hidden[j]} hidden) — cat: {cat}")
        return "\n".join(out)
    who = "Your" if obs.seat == obs.current else f"{names[obs.current]}'s"
    if obs.phase == PLAY:
        what = "play a cat card"
        if obs.seat == obs.current:
            what += " — play <number> (" + ", ".join(_by_number(obs.hand)) + ")"
    else:
        what = "guess-only turn" if obs.guess_only else "guess or pass"
        if obs.seat == obs.current:
            what += (" — guess <player> <property>, or pass\n"
                     + PROPERTY_HINT)
    return f"{who} turn: {what}"


def _property_hint() -> str:
    """The words to type for every property, by category, on two lines."""
    groups = [f"{category} " + " ".join(p.id.lower() for p in CATALOG.properties
                                        if p.category == category)
              for category in CATEGORIES]
    fur_words = groups[3].split(" ", 1)[1]
    return "Properties: " + " | ".join(groups[:3]) + "\n            fur " + fur_words


PROPERTY_HINT = _property_hint()


def action_warnings(obs: TatzenObservation, a: Action) -> tuple[str, ...]:
    """Warnings the UI shows before a legal but certainly wrong guess (§3.6)."""
    if not isinstance(a, Guess) or obs.seat is None:
        return ()
    out = []
    if a.prop in obs.own_properties:
        out.append(f"you hold {prop_label(a.prop)} yourself, so "
                   f"{obs.players[a.target]} cannot have it")
    if any(w.target == a.target and w.prop == a.prop for w in obs.wrong_guesses):
        out.append(f"{obs.players[a.target]} is already known not to be {prop_label(a.prop)}")
    if a.prop in {p for j, r in enumerate(obs.revealed) if j != a.target for p in r}:
        out.append(f"{prop_label(a.prop)} is already revealed for another player")
    return tuple(out)


# ================================================================ deduction (§3.8)

_BIT = {pid: 1 << i for i, pid in enumerate(CATALOG.property_ids)}
_TRIPLES = tuple(a | b | c for a, b, c in combinations(_BIT.values(), PROPERTIES_PER_PLAYER))
_CARD_BITS = {c.id: sum(_BIT[p] for p in c.properties) for c in CATALOG.cats}


def _bits(prop_ids: Sequence[str]) -> int:
    return sum(_BIT[p] for p in set(prop_ids))


def _hypothesis_bits(obs: TatzenObservation, target: int, viewer_bits: int) -> tuple[int, ...]:
    """3-property sets for `target` consistent with public facts and `viewer_bits`."""
    excluded = viewer_bits | _bits([w.prop for w in obs.wrong_guesses if w.target == target])
    excluded |= _bits([p for j, r in enumerate(obs.revealed) if j != target for p in r])
    required = _bits(obs.revealed[target])
    evidence = tuple((_CARD_BITS[tc.card], target in tc.masks) for tc in obs.table)
    return tuple(t for t in _TRIPLES
                 if not t & excluded and t & required == required
                 and all(bool(t & card) == masked for card, masked in evidence))


def _own_bits(obs: TatzenObservation, target: int) -> int:
    """What the viewer knows to exclude for `target`: its own cat (if not the target)."""
    return _bits(obs.own_properties) if obs.seat is not None and obs.seat != target else 0


def hypotheses(obs: TatzenObservation, target: int) -> tuple[frozenset[str], ...]:
    """All secret cats `target` may have, as seen by the observer (§3.8 H_j)."""
    ids = CATALOG.property_ids
    return tuple(frozenset(ids[i] for i in range(len(ids)) if t >> i & 1)
                 for t in _hypothesis_bits(obs, target, _own_bits(obs, target)))


def _marginals(hset: Sequence[int], weights: Sequence[int] | None = None) -> dict[str, float]:
    if weights is None:
        weights = [1] * len(hset)
    total = sum(weights)
    if not total:
        return {p: 0.0 for p in _BIT}
    return {p: sum(w for t, w in zip(hset, weights) if t & bit) / total
            for p, bit in _BIT.items()}


def _joint_weights(hsets: Sequence[Sequence[int]]) -> list[list[int]] | None:
    """How many pairwise-disjoint joint assignments use each hypothesis; None if too many."""
    if math.prod(len(h) for h in hsets) > JOINT_ENUMERATION_LIMIT:
        return None
    weights = [[0] * len(h) for h in hsets]
    chosen: list[int] = []

    def visit(k: int, used: int) -> None:
        if k == len(hsets):
            for level, index in enumerate(chosen):
                weights[level][index] += 1
            return
        for index, t in enumerate(hsets[k]):
            if not t & used:
                chosen.append(index)
                visit(k + 1, used | t)
                chosen.pop()

    visit(0, 0)
    return weights if any(weights[0]) else None


def property_probabilities(obs: TatzenObservation, *, joint: bool = True
                           ) -> dict[int, dict[str, float]]:
    """P(property in opponent's cat) for every opponent of the observer (§3.8).

    With `joint`, opponents' cats are enumerated together (they are disjoint)
    when at most `JOINT_ENUMERATION_LIMIT` combinations exist; otherwise, and
    without `joint`, each opponent is treated on its own.
    """
    opponents = [j for j in range(obs.n_players) if j != obs.seat]
    hsets = [_hypothesis_bits(obs, j, _own_bits(obs, j)) for j in opponents]
    weights = _joint_weights(hsets) if joint and len(hsets) > 1 else None
    return {j: _marginals(h, weights[k] if weights else None)
            for k, (j, h) in enumerate(zip(opponents, hsets))}


def _sample_joint_secrets(obs: TatzenObservation, others: Sequence[int],
                          rng: random.Random) -> dict[int, tuple[str, ...]]:
    """Disjoint secret cats for `others`, consistent with what `obs` knows."""
    hsets = [_hypothesis_bits(obs, j, _own_bits(obs, j)) for j in others]
    ids = CATALOG.property_ids

    def as_ids(t: int) -> tuple[str, ...]:
        return tuple(ids[i] for i in range(len(ids)) if t >> i & 1)

    for _ in range(2000):   # rejection sampling is uniform over joint assignments
        picks = [h[int(rng.random() * len(h))] for h in hsets]
        used = 0
        for t in picks:
            if t & used:
                break
            used |= t
        else:
            return {j: as_ids(t) for j, t in zip(others, picks)}
    # Rare fallback: a depth-first search in random order (consistent, not uniform).
    order = [shuffled(h, rng) for h in hsets]

    def search(k: int, used: int) -> list[int] | None:
        if k == len(order):
            return []
        for t in order[k]:
            if not t & used:
                rest = search(k + 1, used | t)
                if rest is not None:
                    return [t] + rest
        return None

    found = search(0, 0)
    if found is None:
        raise ValueError("no secret cats agree with the public facts")
    return {j: as_ids(t) for j, t in zip(others, found)}


# ================================================================ bots

class TatzenRandomBot:
    """Fuzzing bot (§3.8): a random card; guesses a random legal guess half the time."""

    level = "random"

    def act(self, obs: TatzenObservation, legal: tuple[Action, ...],
            rng: random.Random) -> Action:
        """Pick a random card, or pass/guess with even odds."""
        guesses = [a for a in legal if isinstance(a, Guess)]
        if any(isinstance(a, Pass) for a in legal):
            if not guesses or rng.random() < 0.5:
                return Pass()
            return guesses[int(rng.random() * len(guesses))]
        return legal[int(rng.random() * len(legal))]

    def notify(self, event: Event, seat: int) -> None:
        """Remembers nothing."""


class TatzenSimpleBot(TatzenRandomBot):
    """The careful child (§3.8): random card; guesses only what is certain."""

    level = "simple"

    def act(self, obs: TatzenObservation, legal: tuple[Action, ...],
            rng: random.Random) -> Action:
        """Play at random; guess a property only when every hypothesis has it."""
        if not any(isinstance(a, Pass) for a in legal):
            return legal[int(rng.random() * len(legal))]
        probs = property_probabilities(obs, joint=False)
        certain = [a for a in legal if isinstance(a, Guess) and probs[a.target][a.prop] == 1.0]
        return certain[0] if certain else Pass()


class TatzenGoodBot(TatzenRandomBot):
    """Deducing bot (§3.8): informative, discreet cards; guesses when P >= 1/3."""

    level = "good"

    def act(self, obs: TatzenObservation, legal: tuple[Action, ...],
            rng: random.Random) -> Action:
        """Choose the card or guess by expected value (see the class docstring)."""
        if any(isinstance(a, Pass) for a in legal):
            return self._guess(obs, legal, rng)
        return self._card(obs, legal, rng)

    @staticmethod
    def _guess(obs: TatzenObservation, legal: tuple[Action, ...], rng: random.Random) -> Action:
        probs = property_probabilities(obs, joint=True)
        scored = [(probs[a.target][a.prop], rng.random(), a)
                  for a in legal if isinstance(a, Guess)]
        if not scored:
            return Pass()
        best_p, _, best = max(scored, key=lambda x: (x[0], x[1]))
        return best if best_p >= GOOD_GUESS_THRESHOLD else Pass()

    @staticmethod
    def _card(obs: TatzenObservation, legal: tuple[Action, ...], rng: random.Random) -> Action:
        seat = obs.seat
        opponents = [j for j in range(obs.n_players) if j != seat]
        hsets = [_hypothesis_bits(obs, j, _own_bits(obs, j)) for j in opponents]
        public_me = _hypothesis_bits(obs, seat, 0) if seat is not None else ()
        my_bits = _bits(obs.own_properties)
        best, best_score = legal[0], -math.inf
        for a in legal:
            card = _CARD_BITS[a.card]
            gain = sum(_binary_entropy(sum(1 for t in h if t & card) / len(h))
                       for h in hsets if h)
            leak = 0.0
            if public_me:
                mine = bool(my_bits & card)
                kept = sum(1 for t in public_me if bool(t & card) == mine)
                leak = math.log2(len(public_me) / kept) if kept else 0.0
            score = gain - GOOD_SELF_LEAK_WEIGHT * leak + GOOD_CARD_NOISE * rng.random()
            if score > best_score:
                best, best_score = a, score
        return best


def _binary_entropy(p: float) -> float:
    """Expected information (bits) of a yes/no outcome with probability `p`."""
    if p <= 0.0 or p >= 1.0:
        return 0.0
    return -(p * math.log2(p) + (1 - p) * math.log2(1 - p))


_BOTS = {Level.RANDOM: TatzenRandomBot, Level.SIMPLE: TatzenSimpleBot, Level.GOOD: TatzenGoodBot}


def make_bot(level: str) -> TatzenRandomBot:
    """A computer player: "random", "simple" or "good"; ConfigError otherwise."""
    try:
        return _BOTS[Level(level)]()
    except ValueError:
        raise ConfigError(f"unknown bot level {level!r}; choose random, simple or good") from None


RULES = TatzenRules()
