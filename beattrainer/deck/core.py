"""The deck core shared by every game.

Cards as frozen data, seeded shuffles, piles with a face, and a compact text
notation that round-trips.

Pure: no I/O, no global randomness. Every shuffle takes its random source as an
argument; anything with a ``random() -> float in [0, 1)`` method will do
(``random.Random`` or ``numpy.random.Generator``).
"""
from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field, replace
from typing import Iterable, Mapping, Protocol, Sequence, TypeVar

T = TypeVar("T")


class UniformSource(Protocol):
    """Anything that draws floats uniformly from [0, 1)."""

    def random(self) -> float:
        """The next float in [0, 1)."""


@dataclass(frozen=True)
class Card:
    """One card: an id unique within its game plus free-form attributes.

    ``attrs`` holds what a game needs to know about the card, e.g.
    ``{"colour": "red", "motif": "cat3"}``; it is a tuple of pairs so the card
    stays hashable.
    """

    id: str
    attrs: tuple[tuple[str, str], ...] = ()

    def attr(self, key: str, default: str | None = None) -> str | None:
        """The value of attribute `key`, or `default`."""
        return dict(self.attrs).get(key, default)

    @classmethod
    def make(cls, id: str, attrs: Mapping[str, str] | None = None) -> Card:
        """Build a card from an id and a mapping of attributes."""
        return cls(id, tuple(sorted((attrs or {}).items())))


def shuffled(items: Iterable[T], rng: UniformSource) -> tuple[T, ...]:
    """Fisher-Yates shuffle on ``rng.random()`` alone.

    Only ``random()`` is guaranteed stable across Python versions (``shuffle`` and
    ``randrange`` are not), so the same seed gives the same order everywhere.
    """
    xs = list(items)
    for i in range(len(xs) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        xs[i], xs[j] = xs[j], xs[i]
    return tuple(xs)


def rng_stream(seed: str | int, stream: str, n: int = 0) -> random.Random:
    """A reproducible random source for one purpose (`stream`) and counter `n`.

    Streams derived from the same seed are independent of each other and of the
    order in which they are used. The seed string is hashed with SHA-512 so the
    result does not depend on Python's salted ``hash()``.
    """
    digest = hashlib.sha512(f"{seed}|{stream}|{n}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


@dataclass(frozen=True)
class Pile:
    """An ordered stack of card ids; index 0 is the top. Face up or down."""

    cards: tuple[str, ...] = ()
    face_up: bool = False

    def __len__(self) -> int:
        return len(self.cards)

    @property
    def top(self) -> str | None:
        """The top card, or None when the pile is empty."""
        return self.cards[0] if self.cards else None

    def draw(self, n: int = 1) -> tuple[tuple[str, ...], Pile]:
        """Take `n` cards from the top; raises ValueError if there are fewer."""
        if n > len(self.cards):
            raise ValueError(f"cannot draw {n} card(s) from a pile of {len(self.cards)}")
        return self.cards[:n], replace(self, cards=self.cards[n:])

    def put_on_top(self, cards: Sequence[str]) -> Pile:
        """Lay `cards` on top, the first of them ending up on top."""
        return replace(self, cards=tuple(cards) + self.cards)

    def put_under(self, cards: Sequence[str]) -> Pile:
        """Slide `cards` under the pile."""
        return replace(self, cards=self.cards + tuple(cards))

    def shuffled(self, rng: UniformSource) -> Pile:
        """The same cards in a random order."""
        return replace(self, cards=shuffled(self.cards, rng))

    def turned(self, face_up: bool) -> Pile:
        """The pile with its face set."""
        return replace(self, face_up=face_up)


# ---------------------------------------------------------------- text notation
# A hand or pile is written as card ids separated by commas; a face-down pile is
# wrapped in brackets: "01,04,11" (face up) or "[01,04,11]" (face down). Ids may
# not contain commas, brackets or spaces.

_FORBIDDEN = set(",[] \t\n")


def validate_card_id(card_id: str) -> str:
    """Return `card_id` if it can be written in the notation, else raise ValueError."""
    if not card_id or _FORBIDDEN & set(card_id):
        raise ValueError(f"invalid card id {card_id!r}")
    return card_id


def format_cards(cards: Sequence[str]) -> str:
    """Write card ids as "a,b,c"."""
    return ",".join(validate_card_id(c) for c in cards)


def parse_cards(text: str) -> tuple[str, ...]:
    """Inverse of `format_cards`; blanks around ids are ignored, "" is no cards."""
    text = text.strip()
    if not text:
        return ()
    return tuple(validate_card_id(part.strip()) for part in text.split(","))


def format_pile(pile: Pile) -> str:
    """Write a pile: face up "a,b", face down "[a,b]"."""
    body = format_cards(pile.cards)
    return body if pile.face_up else f"[{body}]"


def parse_pile(text: str) -> Pile:
    """Inverse of `format_pile`."""
    text = text.strip()
    if text.startswith("[") and text.endswith("]"):
        return Pile(parse_cards(text[1:-1]), face_up=False)
    if "[" in text or "]" in text:
        raise ValueError(f"unbalanced brackets in pile {text!r}")
    return Pile(parse_cards(text), face_up=True)


@dataclass(frozen=True)
class Deck:
    """A game's complete set of cards by id, in catalog order."""

    cards: tuple[Card, ...]
    _by_id: Mapping[str, Card] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_id: dict[str, Card] = {}
        for card in self.cards:
            validate_card_id(card.id)
            if card.id in by_id:
                raise ValueError(f"duplicate card id {card.id!r}")
            by_id[card.id] = card
        object.__setattr__(self, "_by_id", by_id)

    def __getitem__(self, card_id: str) -> Card:
        return self._by_id[card_id]

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._by_id

    def __len__(self) -> int:
        return len(self.cards)

    @property
    def ids(self) -> tuple[str, ...]:
        """All card ids in catalog order."""
        return tuple(c.id for c in self.cards)

    def pile(self, rng: UniformSource | None = None, *, face_up: bool = False) -> Pile:
        """A pile of the whole deck, shuffled when `rng` is given."""
        ids = self.ids if rng is None else shuffled(self.ids, rng)
        return Pile(ids, face_up=face_up)
