"""Maunz Maunz / Crazy Cats: the text-mode shedding card game (rulings §2, engine §4).

Each player tries to get rid of their hand by laying a card that matches the top
of the discard pile in colour or in cat (the Party cat fits on anything). Whoever
lays their last card with a correct "Maunz maunz!" call wins the round and a cat
token; the first player with two cat tokens wins the game.

The module follows the shared engine interface (`beattrainer.games.core`):
`RULES` is a pure `Rules` object over an immutable `MaunzState`; `observe` gives
a leak-free `MaunzObservation` per seat, `render` turns it into text, and every
action has a canonical text form that `parse_action` reads back. Rule and ruling
numbers (R-MM-nn, A-MM-nn) refer to ``shared/rulings/companion-games.md``.

Card ids are ``"<colour>-<motif>"`` such as ``"red-cat3"`` or ``"blue-fairy"``.
Seats are 0-based inside the engine and 1-based wherever a person reads them.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from beattrainer.deck.core import Card, Deck, rng_stream, shuffled
from beattrainer.games.core import (
    ConfigError,
    Event,
    IllegalAction,
    Level,
    RandomBot,
    Result,
)

__all__ = [
    "COLOURS", "CAT_MOTIFS", "SPECIALS", "CONFIG_OPTIONS", "RULES", "RULES_SUMMARY",
    "MaunzConfig", "MaunzState", "MaunzObservation", "PublicMove", "Play", "Draw",
    "MaunzRules", "SimpleBot", "GoodBot", "build_deck", "card_label", "make_bot",
    "CONFORMANCE_VARIANTS",
]

# ------------------------------------------------------------------ components
# Colour and motif names are not printed in any edition (A-MM-01): they are
# display placeholders, replaceable here without touching the rules code.
COLOURS = ("red", "yellow", "green", "blue")
CAT_MOTIFS = tuple(f"cat{i}" for i in range(1, 9))
SPECIALS = ("fairy", "pooper", "pirate", "winking", "party")
MOTIF_LABELS = {
    **{m: m for m in CAT_MOTIFS},
    "fairy": "Fairy", "pooper": "Pooper", "pirate": "Pirate",
    "winking": "Winking", "party": "Party",
}

HAND_SIZE = 5
MIN_PLAYERS, MAX_PLAYERS = 2, 5
CATS_TO_WIN = 2
CAT_TOKENS = 6

MAUNZ = "maunz"                 # one card left after the play
MAUNZ_MAUNZ = "maunz maunz"     # the last card is laid
CALLS = (None, MAUNZ, MAUNZ_MAUNZ)
CALL_SYMBOLS = {MAUNZ: "!", MAUNZ_MAUNZ: "!!"}
CALL_WORDS = {MAUNZ: '"Maunz!"', MAUNZ_MAUNZ: '"Maunz maunz!"'}


def build_deck(excluded_specials: Sequence[str] = ()) -> Deck:
    """The cards in play: 8 cats and the specials not excluded, in each colour.

    Parameters
    ----------
    excluded_specials
        Special types left out of the game (the rulebook's "easier" tip).

    Returns
    -------
    Deck
        52 cards by default, ``52 - 4 * len(excluded_specials)`` otherwise.
    """
    motifs = CAT_MOTIFS + tuple(m for m in SPECIALS if m not in excluded_specials)
    return Deck(tuple(Card.make(f"{c}-{m}", {"colour": c, "motif": m})
                      for c in COLOURS for m in motifs))


FULL_DECK = build_deck()
_COLOUR_OF = {card.id: card.attr("colour") for card in FULL_DECK.cards}
_MOTIF_OF = {card.id: card.attr("motif") for card in FULL_DECK.cards}
_CATALOG_INDEX = {card_id: i for i, card_id in enumerate(FULL_DECK.ids)}


def colour_of(card_id: str) -> str:
    """The printed colour of a card."""
    return _COLOUR_OF[card_id]


def motif_of(card_id: str) -> str:
    """The cat (motif) of a card: ``cat1``..``cat8`` or a special type."""
    return _MOTIF_OF[card_id]


def card_label(card_id: str) -> str:
    """The card as a person reads it, e.g. ``"red cat3"`` or ``"blue Fairy"``."""
    return f"{colour_of(card_id)} {MOTIF_LABELS[motif_of(card_id)]}"


def _sorted_hand(cards: Sequence[str]) -> tuple[str, ...]:
    # Hands are kept in catalog order so hand positions are stable and tidy.
    return tuple(sorted(cards, key=_CATALOG_INDEX.__getitem__))


def is_playable(card_id: str, top_motif: str, active_colour: str) -> bool:
    """R-MM-04: a Party cat, a card of the active colour, or the same cat as on top."""
    motif = motif_of(card_id)
    return motif == "party" or colour_of(card_id) == active_colour or motif == top_motif


def required_call(cards_left: int) -> str | None:
    """R-MM-08 step 2: the call owed after a play that leaves `cards_left` cards."""
    if cards_left == 0:
        return MAUNZ_MAUNZ
    if cards_left == 1:
        return MAUNZ
    return None


# ---------------------------------------------------------------- configuration
CONFIG_OPTIONS: tuple[tuple[str, Any, Any, str], ...] = (
    ("excluded_specials", str, "",
     "special types left out, comma-separated: fairy, pooper, pirate, winking, party"),
    ("call_mode", ("manual", "auto"), "manual",
     "manual: players type ! / !! themselves; auto: the right call is always made"),
    ("start_card", ("redraw", "as_is"), "redraw",
     "a special turned up at the start goes under the pile (redraw) or just counts (as_is)"),
    ("winking_skips_turn", bool, False,
     "2004 edition: the player hit by a Winking cat also loses their turn"),
    ("max_turns_per_round", int, 500, "a round that lasts this many turns is void"),
    ("max_rounds", int, 50, "after this many rounds the game ends; most cat tokens win"),
    ("start_player", int, 0, "seat (1-based) that starts round 1; 0 picks one at random"),
)
_OPTION_DEFAULTS = {key: default for key, _, default, _ in CONFIG_OPTIONS}

# Extra option sets for the generic conformance test (registry contract).
CONFORMANCE_VARIANTS: tuple[dict[str, Any], ...] = (
    {"excluded_specials": "fairy,pooper,pirate,winking,party"},
    {"excluded_specials": "pirate,party"},
    {"max_turns_per_round": 15, "max_rounds": 3},
)

# Words that the action parser reads as calls or keywords, so names may not use them.
_RESERVED_NAME_WORDS = {"maunz", "cats", "crazy"}


@dataclass(frozen=True)
class MaunzConfig:
    """A validated game configuration (see `CONFIG_OPTIONS`)."""

    players: tuple[str, ...]
    excluded_specials: tuple[str, ...] = ()
    call_mode: str = "manual"
    start_card: str = "redraw"
    winking_skips_turn: bool = False
    max_turns_per_round: int = 500
    max_rounds: int = 50
    start_player: int = 0

    @property
    def deck(self) -> Deck:
        """The cards in play under this configuration."""
        return build_deck(self.excluded_specials)


def _as_bool(key: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in {"true", "yes", "on", "1"}:
        return True
    if isinstance(value, str) and value.strip().lower() in {"false", "no", "off", "0"}:
        return False
    raise ConfigError(f"{key} must be true or false, not {value!r}")


def _as_int(key: str, value: Any, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ConfigError(f"{key} must be a whole number, not {value!r}")
    try:
        number = int(value)
    except ValueError:
        raise ConfigError(f"{key} must be a whole number, not {value!r}") from None
    if number < low or (high is not None and number > high):
        allowed = f"at least {low}" if high is None else f"between {low} and {high}"
        raise ConfigError(f"{key} must be {allowed}, not {number}")
    return number


def _as_choice(key: str, value: Any, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise ConfigError(f"{key} must be one of {', '.join(allowed)}, not {value!r}")
    return value


def _as_specials(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        names = [part.strip().lower() for part in value.split(",") if part.strip()]
    elif isinstance(value, (list, tuple, set, frozenset)):
        names = [str(part).strip().lower() for part in value]
    else:
        raise ConfigError(f"excluded_specials must be a list of special types, not {value!r}")
    unknown = sorted(set(names) - set(SPECIALS))
    if unknown:
        raise ConfigError(f"unknown special type {unknown[0]!r}; choose from {', '.join(SPECIALS)}")
    return tuple(m for m in SPECIALS if m in names)


def _check_players(players: Any) -> tuple[str, ...]:
    if isinstance(players, str) or not isinstance(players, (list, tuple)):
        raise ConfigError("players must be a list of names")
    names = tuple(str(p).strip() for p in players)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise ConfigError(f"Maunz Maunz needs {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                          f"not {len(names)}")
    folded = [n.casefold() for n in names]
    for name in names:
        if not name:
            raise ConfigError("player names may not be empty")
        if "!" in name or name.isdigit():
            raise ConfigError(f"player name {name!r} may not contain '!' or be only digits")
        if _RESERVED_NAME_WORDS & set(name.casefold().split()):
            raise ConfigError(f"player name {name!r} may not contain the words maunz, cats, crazy")
    if len(set(folded)) != len(folded):
        raise ConfigError("player names must differ (ignoring case)")
    return names


def parse_config(config: Mapping[str, Any]) -> MaunzConfig:
    """Validate ``{"players": [...], **options}`` into a `MaunzConfig`.

    Raises
    ------
    ConfigError
        With a one-line message for a wrong player count, an unknown option or a
        bad option value.
    """
    if not isinstance(config, Mapping):
        raise ConfigError("the configuration must be a mapping")
    unknown = sorted(set(config) - set(_OPTION_DEFAULTS) - {"players"})
    if unknown:
        raise ConfigError(f"unknown option {unknown[0]!r}; options: {', '.join(_OPTION_DEFAULTS)}")
    if "players" not in config:
        raise ConfigError("the configuration needs a list of players")
    players = _check_players(config["players"])
    opts = {**_OPTION_DEFAULTS, **{k: v for k, v in config.items() if k != "players"}}
    return MaunzConfig(
        players=players,
        excluded_specials=_as_specials(opts["excluded_specials"]),
        call_mode=_as_choice("call_mode", opts["call_mode"], ("manual", "auto")),
        start_card=_as_choice("start_card", opts["start_card"], ("redraw", "as_is")),
        winking_skips_turn=_as_bool("winking_skips_turn", opts["winking_skips_turn"]),
        max_turns_per_round=_as_int("max_turns_per_round", opts["max_turns_per_round"], 1),
        max_rounds=_as_int("max_rounds", opts["max_rounds"], 1),
        start_player=_as_int("start_player", opts["start_player"], 0, len(players)),
    )


# ---------------------------------------------------------------------- actions
@dataclass(frozen=True)
class Play:
    """Lay `card`; one physical act with all its decisions (R-MM-07).

    `wish` is the colour named with a Fairy; `swap_with` the seat whose hand a
    Pirate takes (None: keep); `call` is None, ``"maunz"`` or ``"maunz maunz"``.
    The call is never a legality condition, only judged afterwards (A-MM-10).
    """

    card: str
    wish: str | None = None
    swap_with: int | None = None
    call: str | None = None


@dataclass(frozen=True)
class Draw:
    """Take one card from the draw pile; allowed only with nothing playable (R-MM-06)."""


# ------------------------------------------------------------------------ state
@dataclass(frozen=True)
class PublicMove:
    """One turn as everyone saw it: who acted, what lay on top before, what they did.

    `card` is None for a `Draw`; `drew` tells whether that draw found a card.
    Bots use these for card counting: a seat that drew had nothing that fitted.
    """

    seat: int
    card: str | None
    colour_before: str
    motif_before: str
    swap_with: int | None = None
    drew: bool = False


@dataclass(frozen=True)
class MaunzState:
    """The complete table. Piles and hands are tuples of card ids, index 0 = top."""

    config: MaunzConfig
    seed: str
    round_no: int
    round_start: int
    hands: tuple[tuple[str, ...], ...]
    draw_pile: tuple[str, ...]
    discard: tuple[str, ...]
    active_colour: str
    wished: bool
    to_move: int
    cats: tuple[int, ...]
    turn_in_round: int = 0
    idle_turns: int = 0          # consecutive turns without a play or a drawn card
    reshuffles: int = 0          # counter of the "reshuffle" RNG stream
    void_rounds: int = 0
    history: tuple[PublicMove, ...] = ()   # this round's public moves
    finished: bool = False
    end_reason: str = ""

    @property
    def players(self) -> tuple[str, ...]:
        """Player names by seat."""
        return self.config.players

    @property
    def top_card(self) -> str:
        """The face-up card on the discard pile."""
        return self.discard[0]

    @property
    def top_motif(self) -> str:
        """The cat on the top card."""
        return motif_of(self.discard[0])


@dataclass(frozen=True)
class MaunzObservation:
    """What one seat may know (A-MM-17): own hand plus public table facts.

    `seat` is None for a spectator, whose `hand` is empty.
    """

    seat: int | None
    players: tuple[str, ...]
    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    cats: tuple[int, ...]
    top_card: str
    active_colour: str
    wished: bool
    draw_pile_size: int
    discard_size: int
    to_move: int | None
    round_no: int
    round_start: int
    turn_in_round: int
    history: tuple[PublicMove, ...]
    call_mode: str
    excluded_specials: tuple[str, ...]
    winking_skips_turn: bool
    finished: bool
    end_reason: str

    @property
    def top_motif(self) -> str:
        """The cat on the top card."""
        return motif_of(self.top_card)


# ------------------------------------------------------------------ dealing
def _deal_order(cfg: MaunzConfig, seed: str, round_no: int,
                deck_order: Sequence[str] | None) -> tuple[str, ...]:
    deck_ids = cfg.deck.ids
    if deck_order is None:
        return shuffled(deck_ids, rng_stream(seed, "deal", round_no))
    order = tuple(deck_order)
    in_play = set(deck_ids)
    for card_id in order:
        if card_id not in in_play:
            raise ConfigError(f"deck_order names {card_id!r}, which is not in play")
    if len(set(order)) != len(order):
        raise ConfigError("deck_order names a card twice")
    # A stacked prefix is enough for tests; the rest follows in catalog order.
    listed = set(order)
    return order + tuple(c for c in deck_ids if c not in listed)


def _deal_round(cfg: MaunzConfig, seed: str, round_no: int, start_seat: int,
                deck_order: Sequence[str] | None = None
                ) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...], str, list[Event]]:
    """R-MM-01/02: hands, draw pile and start card of a fresh round, plus events.

    With a stacked `deck_order` (top first), seat k receives cards 5k..5k+4, the
    next card is turned up and the rest forms the draw pile in that order.
    """
    n = len(cfg.players)
    order = _deal_order(cfg, seed, round_no, deck_order)
    hands = tuple(_sorted_hand(order[HAND_SIZE * k: HAND_SIZE * (k + 1)]) for k in range(n))
    pile = list(order[HAND_SIZE * n:])
    events: list[Event] = []
    start = pile.pop(0)
    # A-MM-05: with "redraw", specials go under the pile until a plain cat shows.
    # The deck always holds 32 plain cats, so this ends.
    while cfg.start_card == "redraw" and motif_of(start) in SPECIALS:
        events.append(Event(
            f"Turned up: {card_label(start)}, a special; it goes under the draw pile."))
        pile.append(start)
        start = pile.pop(0)
    events.append(Event(
        f"Round {round_no}: five cards each; {cfg.players[start_seat]} starts. "
        f"Start card: {card_label(start)}.",
        {seat: f"Round {round_no}: your hand is {_hand_text(hands[seat])}. "
               f"Start card: {card_label(start)}; {cfg.players[start_seat]} starts."
         for seat in range(n)},
    ))
    return hands, tuple(pile), start, events


def _hand_text(cards: Sequence[str]) -> str:
    return ", ".join(card_label(c) for c in cards) if cards else "no cards"


# --------------------------------------------------------- apply: working table
class _Table:
    """A mutable working copy of a state for the duration of one `apply`."""

    def __init__(self, s: MaunzState) -> None:
        self.s = s
        self.cfg = s.config
        self.n = len(s.config.players)
        self.hands = [list(h) for h in s.hands]
        self.draw_pile = list(s.draw_pile)
        self.discard = list(s.discard)
        self.active_colour = s.active_colour
        self.wished = s.wished
        self.cats = list(s.cats)
        self.reshuffles = s.reshuffles
        self.history = list(s.history)
        self.events: list[Event] = []

    def name(self, seat: int) -> str:
        return self.cfg.players[seat]

    def next_seat(self, seat: int, steps: int = 1) -> int:
        return (seat + steps) % self.n

    def take(self, seat: int, count: int) -> list[str]:
        """Draw up to `count` cards into `seat`'s hand, reshuffling lazily (R-MM-12)."""
        got: list[str] = []
        for _ in range(count):
            if not self.draw_pile:
                self._reshuffle()
            if not self.draw_pile:
                break          # A-MM-12: nothing left anywhere, the draw yields less
            got.append(self.draw_pile.pop(0))
        self.hands[seat] = list(_sorted_hand(self.hands[seat] + got))
        return got

    def _reshuffle(self) -> None:
        # A-MM-15: the top card (and the active colour) stay; the rest is shuffled.
        if len(self.discard) <= 1:
            return
        rng = rng_stream(self.s.seed, "reshuffle", self.reshuffles)
        self.reshuffles += 1
        self.draw_pile = list(shuffled(self.discard[1:], rng))
        self.discard = self.discard[:1]
        self.events.append(Event(
            "The draw pile is empty: the discard pile, all but its top card, "
            "is shuffled into a new draw pile."))

    def draw_event(self, seat: int, got: list[str], wanted: int, public_lead: str,
                   private_lead: str) -> None:
        count = f"{len(got)} card" + ("" if len(got) == 1 else "s")
        short = "" if len(got) == wanted else " (no more cards to draw)"
        private = (f"{private_lead} {_hand_text(got)}{short}." if got
                   else f"{private_lead} nothing: no cards are left.")
        self.events.append(Event(f"{public_lead} {count}{short}.", {seat: private}))

    def freeze(self, **changes: Any) -> MaunzState:
        return replace(
            self.s,
            hands=tuple(tuple(h) for h in self.hands),
            draw_pile=tuple(self.draw_pile),
            discard=tuple(self.discard),
            active_colour=self.active_colour,
            wished=self.wished,
            cats=tuple(self.cats),
            reshuffles=self.reshuffles,
            history=tuple(self.history),
            **changes,
        )


# ------------------------------------------------------------------ the rules
class MaunzRules:
    """Maunz Maunz / Crazy Cats rules: pure functions over `MaunzState`."""

    name = "maunz"
    rules_version = "1"

    # ------------------------------------------------------------ lifecycle
    def new_game(self, config: Mapping[str, Any], seed: str,
                 *, deck_order: Sequence[str] | None = None) -> MaunzState:
        """Deal round 1; see `new_game_with_events`."""
        return self.new_game_with_events(config, seed, deck_order=deck_order)[0]

    def new_game_with_events(self, config: Mapping[str, Any], seed: str,
                             *, deck_order: Sequence[str] | None = None
                             ) -> tuple[MaunzState, tuple[Event, ...]]:
        """Deal round 1 and say what happened (for a UI's first screen or a log).

        Parameters
        ----------
        config
            ``{"players": [names...], **options}`` (see `CONFIG_OPTIONS`).
        seed
            Seed string for every shuffle and the random start player.
        deck_order
            Optional stacked deck for round 1, top card first: seat k gets cards
            5k..5k+4, the next card is turned up, the rest is the draw pile.
            Cards not listed follow in catalog order.

        Raises
        ------
        ConfigError
            For an invalid configuration or deck order.
        """
        cfg = parse_config(config)
        seed = str(seed)
        n = len(cfg.players)
        if cfg.start_player:
            start_seat = cfg.start_player - 1
        else:
            start_seat = int(rng_stream(seed, "start", 0).random() * n)
        hands, pile, start, events = _deal_round(cfg, seed, 1, start_seat, deck_order)
        state = MaunzState(
            config=cfg, seed=seed, round_no=1, round_start=start_seat,
            hands=hands, draw_pile=pile, discard=(start,),
            active_colour=colour_of(start), wished=False, to_move=start_seat,
            cats=(0,) * n,
        )
        return state, tuple(events)

    def intro(self, s: MaunzState) -> str:
        """The public opening of the current round, shown once when a game starts."""
        hands, _, start, events = _deal_round(s.config, s.seed, s.round_no, s.round_start)
        if (hands, start) == (s.hands, s.discard[-1]):
            lines = [e.public for e in events]
        else:       # a stacked deck: the deal cannot be retold, so summarise it
            lines = [f"Round {s.round_no}: five cards each; "
                     f"{s.players[s.round_start]} starts."]
        return "\n".join(["Maunz Maunz: get rid of your cards; two cat tokens win.", *lines])

    def to_act(self, s: MaunzState) -> tuple[int, ...]:
        """The seat whose turn it is, or () when the game is over."""
        return () if s.finished else (s.to_move,)

    def is_terminal(self, s: MaunzState) -> bool:
        """True once someone holds two cat tokens (or the round limit ended the game)."""
        return s.finished

    def result(self, s: MaunzState) -> Result:
        """Cat tokens as scores; more tokens rank higher, equal tokens share a rank."""
        reason = s.end_reason if s.finished else "game in progress"
        return Result(scores=tuple(float(c) for c in s.cats),
                      ranks=Result.ranks_from_keys(s.cats), reason=reason)

    # -------------------------------------------------------- legal actions
    def playable_cards(self, s: MaunzState, seat: int) -> tuple[str, ...]:
        """The cards in `seat`'s hand that fit on the pile, in hand order."""
        return tuple(c for c in s.hands[seat] if is_playable(c, s.top_motif, s.active_colour))

    def legal_actions(self, s: MaunzState, seat: int) -> tuple[Play | Draw, ...]:
        """Every legal action of `seat`, in hand order, with the correct call filled in.

        A Fairy appears once per wish colour; a Pirate once to keep and once per
        other seat (only "keep" when it is the last card, as no swap can happen).
        `Draw` is the only action when nothing fits (R-MM-05/06).
        """
        if s.finished or seat != s.to_move:
            return ()
        playable = self.playable_cards(s, seat)
        if not playable:
            return (Draw(),)
        call = required_call(len(s.hands[seat]) - 1)
        actions: list[Play | Draw] = []
        for card in playable:
            motif = motif_of(card)
            if motif == "fairy":
                actions.extend(Play(card, wish=c, call=call) for c in COLOURS)
            elif motif == "pirate":
                actions.append(Play(card, call=call))
                if len(s.hands[seat]) > 1:
                    actions.extend(Play(card, swap_with=o, call=call)
                                   for o in range(len(s.players)) if o != seat)
            else:
                actions.append(Play(card, call=call))
        return tuple(actions)

    def _check_play(self, s: MaunzState, seat: int, a: Play) -> None:
        if not isinstance(a.card, str) or a.card not in s.hands[seat]:
            raise IllegalAction(f"{_label_or_id(a.card)} is not in your hand")
        if not is_playable(a.card, s.top_motif, s.active_colour):
            raise IllegalAction(
                f"{card_label(a.card)} does not fit on {card_label(s.top_card)} "
                f"with {s.active_colour} active")
        motif = motif_of(a.card)
        if motif == "fairy" and a.wish not in COLOURS:
            raise IllegalAction(f"a Fairy needs a wish colour: {', '.join(COLOURS)}")
        if motif != "fairy" and a.wish is not None:
            raise IllegalAction("only a Fairy lets you wish a colour")
        if a.swap_with is not None:
            if motif != "pirate":
                raise IllegalAction("only a Pirate lets you swap hands")
            if len(s.hands[seat]) == 1:
                raise IllegalAction("a Pirate that is your last card cannot swap")
            if (not isinstance(a.swap_with, int) or isinstance(a.swap_with, bool)
                    or not 0 <= a.swap_with < len(s.players) or a.swap_with == seat):
                raise IllegalAction("a Pirate swaps with one of the other players")
        if a.call not in CALLS:
            raise IllegalAction(f"unknown call {a.call!r}")

    # ---------------------------------------------------------------- apply
    def apply(self, s: MaunzState, seat: int,
              a: Play | Draw) -> tuple[MaunzState, tuple[Event, ...]]:
        """Validate and perform one action (R-MM-05..12).

        Returns
        -------
        (MaunzState, tuple of Event)
            The new state and what happened, with private text for the seats
            that saw cards.

        Raises
        ------
        IllegalAction
            When the game is over, it is not `seat`'s turn, or the action is not
            legal. The call of a `Play` is never checked here (A-MM-10).
        """
        if s.finished:
            raise IllegalAction("the game is over")
        if seat != s.to_move:
            raise IllegalAction(f"it is {s.players[s.to_move]}'s turn")
        if isinstance(a, Draw):
            if self.playable_cards(s, seat):
                raise IllegalAction("you have a card that fits, so you must play (no drawing)")
            return self._apply_draw(s, seat)
        if isinstance(a, Play):
            self._check_play(s, seat, a)
            return self._apply_play(s, seat, a)
        raise IllegalAction(f"not a Maunz Maunz action: {a!r}")

    def _apply_draw(self, s: MaunzState, seat: int) -> tuple[MaunzState, tuple[Event, ...]]:
        t = _Table(s)
        got = t.take(seat, 1)
        t.draw_event(seat, got, 1, f"{t.name(seat)} draws", "You draw")
        t.history.append(PublicMove(seat, None, s.active_colour, s.top_motif, drew=bool(got)))
        idle = 0 if got else s.idle_turns + 1
        return self._end_turn(t, t.next_seat(seat), idle)

    def _apply_play(self, s: MaunzState, seat: int,
                    a: Play) -> tuple[MaunzState, tuple[Event, ...]]:
        t = _Table(s)
        who = t.name(seat)
        motif = motif_of(a.card)
        # Step 1: the card goes on the pile and sets motif and colour.
        t.hands[seat].remove(a.card)
        t.discard.insert(0, a.card)
        t.active_colour = a.wish if motif == "fairy" else colour_of(a.card)
        t.wished = motif == "fairy"
        t.history.append(PublicMove(seat, a.card, s.active_colour, s.top_motif, a.swap_with))
        # Step 2: the call owed now; "auto" mode always makes it.
        required = required_call(len(t.hands[seat]))
        call = required if t.cfg.call_mode == "auto" else a.call
        said = f" and calls {CALL_WORDS[call]}" if call else ""
        wish = f", wishing {a.wish}" + ("," if call else "") if motif == "fairy" else ""
        t.events.append(Event(f"{who} plays {card_label(a.card)}{wish}{said}."))
        # Step 3: a correct "Maunz maunz!" on the last card wins; no effect resolves.
        if not t.hands[seat] and call == MAUNZ_MAUNZ:
            return self._win_round(t, seat)
        # Step 4: effects.
        skip = False
        if motif == "pirate" and a.swap_with is not None and t.hands[seat]:
            other = a.swap_with
            t.hands[seat], t.hands[other] = t.hands[other], t.hands[seat]
            t.events.append(Event(
                f"{who} swaps hands with {t.name(other)}.",
                {seat: f"You swap hands with {t.name(other)} and now hold "
                       f"{_hand_text(t.hands[seat])}.",
                 other: f"{who} takes your hand; you now hold {_hand_text(t.hands[other])}."}))
        elif motif == "winking":
            target = t.next_seat(seat)
            got = t.take(target, 2)
            t.draw_event(target, got, 2, f"{t.name(target)} is winked at and draws",
                         "You are winked at and draw")
            skip = t.cfg.winking_skips_turn
        elif motif == "pooper":
            skip = True
        # Step 5: a missing or wrong call costs a card, into the hand held now (A-MM-11).
        if required is not None and call != required:
            got = t.take(seat, 1)
            t.events.append(Event(
                f"{who} did not call {CALL_WORDS[required]} and takes a penalty card"
                + ("" if got else ", but none is left") + ".",
                {seat: f"You did not call {CALL_WORDS[required]}: penalty card "
                       + (f"{_hand_text(got)}." if got else "- none is left.")}))
        # Step 6: next player, one further after a Party pooper.
        if skip:
            skipped = t.next_seat(seat)
            t.events.append(Event(f"{t.name(skipped)} is skipped and meows in disappointment."))
        return self._end_turn(t, t.next_seat(seat, 2 if skip else 1), 0)

    def _end_turn(self, t: _Table, next_seat: int,
                  idle_turns: int) -> tuple[MaunzState, tuple[Event, ...]]:
        turn = t.s.turn_in_round + 1
        # A-MM-12: a full lap without plays or drawn cards, or the turn cap, voids the round.
        if idle_turns >= t.n:
            t.events.append(Event("Nobody can play or draw any more: the round is void."))
            return self._next_round(t, void=True)
        if turn >= t.cfg.max_turns_per_round:
            t.events.append(Event(
                f"The round reached {t.cfg.max_turns_per_round} turns and is void."))
            return self._next_round(t, void=True)
        new = t.freeze(to_move=next_seat, turn_in_round=turn, idle_turns=idle_turns)
        return new, tuple(t.events)

    def _win_round(self, t: _Table, seat: int) -> tuple[MaunzState, tuple[Event, ...]]:
        t.cats[seat] += 1
        who = t.name(seat)
        tokens = "a cat token" if t.cats[seat] == 1 else f"cat token number {t.cats[seat]}"
        t.events.append(Event(f"{who} is out of cards and wins the round: {tokens}."))
        if t.cats[seat] >= CATS_TO_WIN:
            reason = f"{who} wins with {t.cats[seat]} cat tokens"
            t.events.append(Event(f"Game over: {reason}."))
            return t.freeze(finished=True, end_reason=reason,
                            turn_in_round=t.s.turn_in_round + 1), tuple(t.events)
        return self._next_round(t, void=False)

    def _next_round(self, t: _Table, *, void: bool) -> tuple[MaunzState, tuple[Event, ...]]:
        s = t.s
        void_rounds = s.void_rounds + (1 if void else 0)
        if s.round_no >= t.cfg.max_rounds:
            best = max(t.cats)
            leaders = [t.name(i) for i, c in enumerate(t.cats) if c == best]
            reason = (f"round limit of {t.cfg.max_rounds} reached; "
                      f"most cat tokens ({best}): {', '.join(leaders)}")
            t.events.append(Event(f"Game over: {reason}."))
            return t.freeze(finished=True, end_reason=reason, void_rounds=void_rounds,
                            turn_in_round=s.turn_in_round + 1), tuple(t.events)
        round_no = s.round_no + 1
        start_seat = t.next_seat(s.round_start)      # A-MM-16
        hands, pile, start, events = _deal_round(t.cfg, s.seed, round_no, start_seat)
        t.events.extend(events)
        new = replace(
            s, round_no=round_no, round_start=start_seat, hands=hands, draw_pile=pile,
            discard=(start,), active_colour=colour_of(start), wished=False,
            to_move=start_seat, cats=tuple(t.cats), turn_in_round=0, idle_turns=0,
            reshuffles=t.reshuffles, void_rounds=void_rounds, history=())
        return new, tuple(t.events)

    # ---------------------------------------------------------- observation
    def observe(self, s: MaunzState, seat: int | None) -> MaunzObservation:
        """The leak-free view of `seat` (None: a spectator)."""
        return MaunzObservation(
            seat=seat,
            players=s.players,
            hand=s.hands[seat] if seat is not None else (),
            hand_sizes=tuple(len(h) for h in s.hands),
            cats=s.cats,
            top_card=s.top_card,
            active_colour=s.active_colour,
            wished=s.wished,
            draw_pile_size=len(s.draw_pile),
            discard_size=len(s.discard),
            to_move=None if s.finished else s.to_move,
            round_no=s.round_no,
            round_start=s.round_start,
            turn_in_round=s.turn_in_round,
            history=s.history,
            call_mode=s.config.call_mode,
            excluded_specials=s.config.excluded_specials,
            winking_skips_turn=s.config.winking_skips_turn,
            finished=s.finished,
            end_reason=s.end_reason,
        )

    def observe_public(self, s: MaunzState) -> MaunzObservation:
        """The spectator's view: no hand at all."""
        return self.observe(s, None)

    def resample_hidden(self, s: MaunzState, seat: int, rng: random.Random) -> MaunzState:
        """Redeal what `seat` cannot see: other hands (sizes kept) and the draw pile.

        The result agrees with ``observe(s, seat)``. It does not condition on
        inferences from the history (e.g. a player who drew had nothing fitting).
        """
        others = [o for o in range(len(s.players)) if o != seat]
        pool = [c for o in others for c in s.hands[o]] + list(s.draw_pile)
        mixed = list(shuffled(pool, rng))
        hands = list(s.hands)
        for o in others:
            size = len(s.hands[o])
            hands[o], mixed = _sorted_hand(mixed[:size]), mixed[size:]
        return replace(s, hands=tuple(hands), draw_pile=tuple(mixed))

    # ------------------------------------------------------------- rendering
    def render(self, obs: MaunzObservation) -> str:
        """The screen of one seat: table line, players, whose turn, own hand.

        In manual call mode nothing hints that a call is due (§2.5).
        """
        wished = " (wished)" if obs.wished else ""
        lines = [
            f"Maunz Maunz - round {obs.round_no}, turn {obs.turn_in_round + 1}",
            f"Top card: {card_label(obs.top_card)} | active colour: {obs.active_colour}"
            f"{wished} | draw pile: {obs.draw_pile_size} cards",
        ]
        width = max(len(p) for p in obs.players)
        for i, name in enumerate(obs.players):
            marker = ">" if obs.to_move == i else " "
            cards = f"{obs.hand_sizes[i]} card" + ("" if obs.hand_sizes[i] == 1 else "s")
            tokens = f"{obs.cats[i]} cat token" + ("" if obs.cats[i] == 1 else "s")
            you = "  (you)" if obs.seat == i else ""
            lines.append(f"{marker} {name:<{width}}  {cards:<9} {tokens}{you}")
        if obs.finished:
            lines.append(f"Game over: {obs.end_reason}.")
        elif obs.to_move == obs.seat:
            lines.append("It is your turn.")
        else:
            lines.append(f"It is {obs.players[obs.to_move]}'s turn.")
        if obs.seat is not None:
            hand = "   ".join(f"{i}) {card_label(c)}" for i, c in enumerate(obs.hand, 1))
            lines.append(f"Your hand: {hand or '(empty)'}")
            if not obs.finished and obs.to_move == obs.seat:
                lines.append("Play: <n> [colour] [swap <player> | keep] [! | !!]    "
                             "Draw: d (only when nothing fits)")
        return "\n".join(lines)

    # ------------------------------------------------------------ action text
    def action_to_text(self, s: MaunzState, a: Play | Draw) -> str:
        """Canonical text: ``draw`` or ``<card-id> [colour] [keep | swap <name>] [! | !!]``."""
        if isinstance(a, Draw):
            return "draw"
        parts = [a.card]
        if a.wish is not None:
            parts.append(a.wish)
        if a.swap_with is not None:
            parts += ["swap", s.players[a.swap_with]]
        elif a.card in _MOTIF_OF and motif_of(a.card) == "pirate":
            parts.append("keep")
        if a.call is not None:
            parts.append(CALL_SYMBOLS[a.call])
        return " ".join(parts)

    def parse_action(self, s: MaunzState, seat: int, text: str) -> Play | Draw:
        """Read an action typed by `seat`; the inverse of `action_to_text`.

        Accepts the canonical form and the short form of §2.5: a hand position
        (1-based), a card id (``red-cat3``) or a card label (``red cat3``), then a
        colour for a Fairy, ``keep`` or ``swap <name or seat number>`` for a
        Pirate, and a call: ``!`` / ``maunz`` / ``cats`` or ``!!`` /
        ``maunz maunz`` / ``crazy cats``. ``d`` or ``draw`` draws.

        Raises
        ------
        IllegalAction
            With a one-line explanation when the text cannot be read.
        """
        words = " ".join(str(text).replace("!", " ! ").split()).casefold()
        if words in {"d", "draw", "zieh", "ziehen"}:
            return Draw()
        if not words:
            raise IllegalAction("type a card number, or d to draw")
        body, call = _split_call(words)
        tokens = body.split()
        if not tokens:
            raise IllegalAction("which card? type its number from your hand")
        card, rest = _parse_card(s, seat, tokens)
        motif = motif_of(card)
        wish = None
        swap_with = None
        keep = False
        while rest:
            word = rest.pop(0)
            if word in COLOURS and wish is None:
                wish = word
            elif word == "keep" and not keep and swap_with is None:
                keep = True
            elif word == "swap" and swap_with is None and not keep:
                swap_with = _parse_seat(s, " ".join(rest))
                rest = []
            else:
                raise IllegalAction(f"cannot read {word!r}; expected "
                                    "<n> [colour] [swap <player> | keep] [! | !!]")
        if motif == "fairy" and wish is None:
            raise IllegalAction(f"a Fairy needs a colour: add one of {', '.join(COLOURS)}")
        if motif != "fairy" and wish is not None:
            raise IllegalAction("only a Fairy takes a colour")
        if motif != "pirate" and (keep or swap_with is not None):
            raise IllegalAction("only a Pirate can swap or keep")
        if (motif == "pirate" and not keep and swap_with is None
                and len(s.hands[seat]) > 1):
            raise IllegalAction("a Pirate needs 'keep' or 'swap <player>'")
        return Play(card, wish=wish, swap_with=swap_with, call=call)


def _label_or_id(card_id: str) -> str:
    known = isinstance(card_id, str) and card_id in _MOTIF_OF
    return card_label(card_id) if known else repr(card_id)


_CALL_PATTERNS = (
    (re.compile(r"(?:^|\s)(?:! !|maunz(?: !)? maunz|crazy cats)(?: !)?$"), MAUNZ_MAUNZ),
    (re.compile(r"(?:^|\s)(?:!|maunz(?: !)?|cats(?: !)?)$"), MAUNZ),
)


def _split_call(words: str) -> tuple[str, str | None]:
    """Strip a trailing call from normalised text ("!" already spaced out)."""
    for pattern, call in _CALL_PATTERNS:
        m = pattern.search(words)
        if m:
            return words[:m.start()].strip(), call
    return words, None


def _parse_card(s: MaunzState, seat: int, tokens: list[str]) -> tuple[str, list[str]]:
    hand = s.hands[seat]
    first = tokens[0]
    if first.isdigit():
        pos = int(first)
        if not 1 <= pos <= len(hand):
            raise IllegalAction(f"no card {pos}: your hand has {len(hand)} cards")
        return hand[pos - 1], tokens[1:]
    if first in _MOTIF_OF:
        return first, tokens[1:]
    if len(tokens) >= 2 and first in COLOURS:
        motif = {label.casefold(): m for m, label in MOTIF_LABELS.items()}.get(tokens[1])
        if motif is not None:
            return f"{first}-{motif}", tokens[2:]
    raise IllegalAction(f"cannot read the card {first!r}: type its number from your hand")


def _parse_seat(s: MaunzState, text: str) -> int:
    text = " ".join(text.split())
    if not text:
        raise IllegalAction("swap with whom? add a player name")
    for seat, name in enumerate(s.players):
        if " ".join(name.split()).casefold() == text:
            return seat
    if text.isdigit() and 1 <= int(text) <= len(s.players):
        return int(text) - 1
    raise IllegalAction(f"no player called {text!r}")


RULES = MaunzRules()


# ------------------------------------------------------------------------- bots
def _best(scored: list[tuple[float, Any]], rng: random.Random) -> Any:
    """The highest-scoring item; ties broken with `rng` (E4: random() only)."""
    top = max(score for score, _ in scored)
    best = [item for score, item in scored if score == top]
    return best[int(rng.random() * len(best))]


def _most_held_colour(cards: Sequence[str]) -> str:
    counts = {c: 0 for c in COLOURS}
    for card in cards:
        counts[colour_of(card)] += 1
    return max(COLOURS, key=lambda c: counts[c])     # ties: first in COLOURS


class SimpleBot:
    """§2.7 "simple": first fitting card in hand order, Party last, never swaps.

    Parameters
    ----------
    forgetfulness
        Chance of leaving out a due call, like a young child (0 by default).
    """

    level = "simple"

    def __init__(self, forgetfulness: float = 0.0) -> None:
        self.forgetfulness = forgetfulness

    def act(self, obs: MaunzObservation, legal: tuple[Play | Draw, ...],
            rng: random.Random) -> Play | Draw:
        """Pick an action (see the class docstring)."""
        plays = [a for a in legal if isinstance(a, Play) and a.swap_with is None]
        if not plays:
            return legal[0]
        non_party = [a for a in plays if motif_of(a.card) != "party"]
        card = (non_party or plays)[0].card
        choices = [a for a in plays if a.card == card]
        if motif_of(card) == "fairy":
            rest = [c for c in obs.hand if c != card]
            wish = _most_held_colour(rest) if rest else colour_of(card)
            choices = [a for a in choices if a.wish == wish]
        action = choices[0]
        if action.call is not None and self.forgetfulness > 0:
            if rng.random() < self.forgetfulness:
                action = replace(action, call=None)
        return action

    def notify(self, event: Event, seat: int) -> None:
        """The simple bot remembers nothing."""


def known_lacks(obs: MaunzObservation) -> list[set[str]]:
    """Per seat, colours it is known not to hold, from this round's public moves.

    A seat that had to draw held nothing of the active colour at that moment; a
    seat that later plays a colour is clearly holding it again; a Pirate swap
    exchanges the knowledge with the hands.
    """
    lacks: list[set[str]] = [set() for _ in obs.players]
    for move in obs.history:
        if move.card is None:
            lacks[move.seat].add(move.colour_before)
            continue
        lacks[move.seat].discard(colour_of(move.card))
        if move.swap_with is not None:
            a, b = move.seat, move.swap_with
            lacks[a], lacks[b] = lacks[b], lacks[a]
    return lacks


class GoodBot:
    """§2.7 "good": scores every legal play and takes the best (seeded ties).

    Keeps Party cats for last, prefers plays after which its remaining cards
    still fit, plays Winking and Party pooper eagerly (most of all against a
    nearly-out next player), swaps with a smaller hand, and wishes colours it
    holds and the next player lacks.
    Card counting reads the public moves in the observation, so `notify` is not
    needed.
    """

    level = "good"

    def act(self, obs: MaunzObservation, legal: tuple[Play | Draw, ...],
            rng: random.Random) -> Play | Draw:
        """Pick the best-scoring legal action."""
        if len(legal) == 1:
            return legal[0]
        lacks = known_lacks(obs)
        return _best([(self.score(obs, a, lacks), a) for a in legal], rng)

    def score(self, obs: MaunzObservation, a: Play | Draw, lacks: list[set[str]]) -> float:
        """Heuristic value of one action for the observing seat."""
        if not isinstance(a, Play):
            return 0.0
        seat = obs.seat
        n = len(obs.players)
        nxt = (seat + 1) % n
        motif = motif_of(a.card)
        rest = [c for c in obs.hand if c != a.card]
        colour_after = a.wish if motif == "fairy" else colour_of(a.card)
        # Keep the colour and leave cards that fit on the new top for the next turn.
        score = 0.5 * sum(1 for c in rest if colour_of(c) == colour_after)
        score += 2.0 * sum(1 for c in rest if is_playable(c, motif, colour_after))
        if motif == "party":
            score -= 5
        # A Winking costs the next player 2 cards; a Pooper between two is an extra turn.
        score += {"winking": 2.0, "pooper": 4.0 if n == 2 else 1.0}.get(motif, 0.0)
        if motif in ("winking", "pooper") and obs.hand_sizes[nxt] <= 2:
            score += 6
        if colour_after in lacks[nxt]:
            score += 2
        if motif == "pirate" and a.swap_with is not None:
            others = [obs.hand_sizes[o] for o in range(n) if o != seat]
            size = obs.hand_sizes[a.swap_with]
            if size == min(others) and (size < len(rest) or size == 1):
                score += 8
            else:
                score -= 8      # a swap that does not shrink the hand only helps others
        return score

    def notify(self, event: Event, seat: int) -> None:
        """Not needed: the observation carries the public moves."""


def make_bot(level: str) -> RandomBot | SimpleBot | GoodBot:
    """A computer player of strength ``"random"``, ``"simple"`` or ``"good"``.

    Raises
    ------
    ConfigError
        For an unknown level.
    """
    try:
        parsed = Level(level)
    except ValueError:
        raise ConfigError(f"unknown bot level {level!r}; choose random, simple or good") from None
    if parsed is Level.RANDOM:
        return RandomBot()
    if parsed is Level.SIMPLE:
        return SimpleBot()
    return GoodBot()


RULES_SUMMARY = """\
Maunz Maunz (Crazy Cats), 2-5 players. 52 cards: cats 1-8 and five special cats in
each of four colours. Everyone gets 5 cards; one card is turned up.
On your turn lay a card of the active colour or with the same cat as the top card;
a Party cat fits on anything. If you can lay a card you must. If nothing fits,
draw one card and your turn ends (you may not lay the drawn card now).
Specials: Fairy - name the colour that goes on. Pooper - the next player is
skipped. Pirate - you may swap your whole hand with another player. Winking - the
next player draws 2 cards, then plays normally. Party - fits anywhere; its own
colour goes on.
Calls: lay your second-to-last card with "!" (Maunz!) and your last one with "!!"
(Maunz maunz!). A missing or wrong call costs one penalty card, and without the
right "!!" you are not out. Going out wins a cat token; two tokens win the game.
Type: <n> [colour] [swap <player> | keep] [! | !!], or d to draw.
"""
