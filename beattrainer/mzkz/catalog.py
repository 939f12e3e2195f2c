"""The Beatz'n'Catz catalog, loaded from TOML into frozen data.

It holds the 48 action cards, up to 2 user-made blank cards, the two tutorials
and the nine challenges.

Pure: files are read through `importlib.resources` (bundled data) or given as
text (custom cards), never through paths built here.
"""
from __future__ import annotations

import importlib.resources
import re
import tomllib
from dataclasses import dataclass
from functools import cache
from typing import Any, Iterable, Mapping

from beattrainer.mzkz.model import MIEZEKATZE, Expected, Modifier, Sound

BLANK_CARD_IDS = ("49", "50")  # the two blank cards of the box, defined by the user
_HEARABLE = {"mzkz", "word", "silence", "nonverbal"}
_CARD_KEYS = {
    "id", "title", "does", "hear", "text", "alternatives", "modifier", "free_timing",
    "percussion", "lead_hear", "lead_text", "challenge_2",
}
_LABEL = re.compile(r"^[A-Z][A-Z' ]*$")


class CatalogError(ValueError):
    """A card file that does not describe valid cards; the message is one line."""


@dataclass(frozen=True)
class CardSpec:
    """One action card and what its slot should sound like."""

    id: str
    title: str
    does: str
    expected: Expected                 # what everyone together makes heard
    lead: Expected | None = None       # what the lead does instead, where it differs
    challenge_2: Expected | None = None  # override under challenge 2 (No Cats)
    custom: bool = False


@dataclass(frozen=True)
class Tutorial:
    """A tutorial: fixed cards, shuffled or in order; one performance per card."""

    number: int
    title: str
    cards: tuple[str, ...]
    shuffle: bool
    summary: str


@dataclass(frozen=True)
class Challenge:
    """A challenge card: how many cards and performances, and which rule changes."""

    number: int
    title: str
    cards: int
    performances: int
    difficulty: int
    rules: frozenset[str]
    summary: str
    sorted_out: tuple[str, ...] = ()


@dataclass(frozen=True)
class Catalog:
    """Every card (built-in plus custom), the tutorials and the challenges."""

    cards: Mapping[str, CardSpec]
    tutorials: Mapping[int, Tutorial]
    challenges: Mapping[int, Challenge]

    def card(self, card_id: str) -> CardSpec:
        """The card with id `card_id`; KeyError names the id when unknown."""
        try:
            return self.cards[card_id]
        except KeyError:
            raise KeyError(f"unknown card id {card_id!r} (cards are 01-48"
                           f"{', plus custom 49/50' if self.has_custom else ''})") from None

    @property
    def has_custom(self) -> bool:
        """True when user-made blank cards are loaded."""
        return any(c.custom for c in self.cards.values())

    def with_custom(self, custom: Iterable[CardSpec]) -> Catalog:
        """A new catalog: these cards plus the user-made ones."""
        cards = dict(self.cards)
        for spec in custom:
            cards[spec.id] = spec
        return Catalog(cards, self.tutorials, self.challenges)


def _read_resource(name: str) -> str:
    return importlib.resources.files("beattrainer.mzkz").joinpath(name).read_text("utf-8")


@cache
def load_catalog() -> Catalog:
    """The built-in catalog (48 cards, tutorials, challenges)."""
    cards = parse_cards_toml(_read_resource("cards.toml"), "cards.toml", custom=False)
    data = tomllib.loads(_read_resource("challenges.toml"))
    sorted_out_for = set(data["sorted_out"]["challenges"])
    sorted_out = tuple(data["sorted_out"]["cards"])
    tutorials = {
        t["number"]: Tutorial(t["number"], t["title"], tuple(t["cards"]), t["shuffle"],
                              t["summary"])
        for t in data["tutorial"]
    }
    challenges = {
        c["number"]: Challenge(
            c["number"], c["title"], c["cards"], c["performances"], c["difficulty"],
            frozenset(c["rules"]), c["summary"],
            sorted_out if c["number"] in sorted_out_for else (),
        )
        for c in data["challenge"]
    }
    return Catalog({c.id: c for c in cards}, tutorials, challenges)


def load_custom_cards(text: str, source: str = "custom cards") -> tuple[CardSpec, ...]:
    """Parse user-made blank cards (ids 49 and 50) from TOML text.

    Raises
    ------
    CatalogError
        With the file, line and field of the first problem.
    """
    return parse_cards_toml(text, source, custom=True)


def parse_cards_toml(text: str, source: str, *, custom: bool) -> tuple[CardSpec, ...]:
    """Parse a `[[card]]` TOML document into card specs, validating every field."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CatalogError(f"{source}: {exc}") from None
    unknown_tables = set(data) - {"card"}
    if unknown_tables:
        raise CatalogError(f"{source}: unknown table {sorted(unknown_tables)[0]!r} "
                           "(card files hold [[card]] tables only)")
    entries = data.get("card", [])
    if not isinstance(entries, list) or not entries:
        raise CatalogError(f"{source}: no [[card]] tables found")
    card_lines = _table_lines(text)
    specs, seen = [], set()
    for n, entry in enumerate(entries):
        where = _Where(source, text, card_lines[n] if n < len(card_lines) else 1)
        spec = _card_from_entry(entry, where, custom)
        if spec.id in seen:
            raise CatalogError(where.at("id", f"duplicate card id {spec.id!r}"))
        seen.add(spec.id)
        specs.append(spec)
    return tuple(specs)


@dataclass(frozen=True)
class _Where:
    """Locates a field of the n-th [[card]] table for error messages."""

    source: str
    text: str
    table_line: int

    def at(self, field: str, problem: str) -> str:
        line = self.table_line
        for offset, raw in enumerate(self.text.splitlines()[self.table_line:], start=1):
            stripped = raw.strip()
            if stripped.startswith("["):
                break
            if re.match(rf"{re.escape(field)}\s*=", stripped):
                line = self.table_line + offset
                break
        return f"{self.source}, line {line}, field '{field}': {problem}"


def _table_lines(text: str) -> list[int]:
    """1-based line numbers of each [[card]] header."""
    return [i for i, raw in enumerate(text.splitlines(), start=1)
            if re.match(r"\s*\[\[\s*card\s*\]\]", raw)]


def _card_from_entry(entry: Mapping[str, Any], where: _Where, custom: bool) -> CardSpec:
    extra = set(entry) - _CARD_KEYS
    if extra:
        field = sorted(extra)[0]
        known = ", ".join(sorted(_CARD_KEYS))
        raise CatalogError(where.at(field, f"unknown field (known: {known})"))
    card_id = _string(entry, "id", where)
    if custom and card_id not in BLANK_CARD_IDS:
        blank_ids = " or ".join(BLANK_CARD_IDS)
        raise CatalogError(where.at("id", f"custom cards take the blank ids {blank_ids}"))
    if not custom and not re.fullmatch(r"[0-9]{2}", card_id):
        raise CatalogError(where.at("id", "card ids are two digits"))
    title = _string(entry, "title", where)
    does = _string(entry, "does", where)
    expected = _expected(entry, "hear", "text", where)
    lead = None
    if "lead_hear" in entry:
        lead_entry = {"lead_hear": entry["lead_hear"], "free_timing": expected.free_timing}
        if "lead_text" in entry:
            lead_entry["lead_text"] = entry["lead_text"]
        lead = _expected(lead_entry, "lead_hear", "lead_text", where)
    challenge_2 = None
    if "challenge_2" in entry:
        if entry["challenge_2"] != "silence":
            raise CatalogError(where.at("challenge_2", "only 'silence' is supported"))
        challenge_2 = Expected(Sound.SILENCE, alternatives=expected.alternatives,
                               free_timing=expected.free_timing, percussion=expected.percussion)
    return CardSpec(card_id, title, does, expected, lead, challenge_2, custom)


def _expected(entry: Mapping[str, Any], hear_key: str, text_key: str, where: _Where) -> Expected:
    hear = _string(entry, hear_key, where)
    if hear not in _HEARABLE:
        raise CatalogError(where.at(hear_key, f"must be one of {', '.join(sorted(_HEARABLE))}"))
    sound = Sound(hear)
    text = entry.get(text_key)
    if sound is Sound.MZKZ:
        text = text or MIEZEKATZE
    if sound in (Sound.WORD, Sound.NONVERBAL) and not text:
        raise CatalogError(where.at(text_key, f"a '{hear}' card needs the label that is due"))
    if sound is Sound.SILENCE and text:
        raise CatalogError(where.at(text_key, "a silent card has no text"))
    if text is not None:
        text = _label(text, text_key, where)
    alternatives = tuple(_label(a, "alternatives", where)
                         for a in _list(entry, "alternatives", where))
    modifier = entry.get("modifier")
    if modifier is not None:
        allowed = {m.value for m in Modifier} - {"whisper"}
        if modifier not in allowed:
            raise CatalogError(where.at("modifier", f"must be one of {', '.join(sorted(allowed))}"))
        if sound is not Sound.MZKZ:
            raise CatalogError(
                where.at("modifier", "only a MIEZEKATZE card can change how it is said"))
        modifier = Modifier(modifier)
    free = entry.get("free_timing", False)
    if not isinstance(free, bool):
        raise CatalogError(where.at("free_timing", "must be true or false"))
    percussion = tuple(_list(entry, "percussion", where))
    return Expected(sound, text, alternatives, modifier, free, percussion)


def _string(entry: Mapping[str, Any], key: str, where: _Where) -> str:
    if key not in entry:
        raise CatalogError(f"{where.source}, line {where.table_line}, field '{key}': missing")
    value = entry[key]
    if not isinstance(value, str) or not value.strip():
        raise CatalogError(where.at(key, "must be a non-empty string"))
    return value.strip()


def _list(entry: Mapping[str, Any], key: str, where: _Where) -> list[str]:
    value = entry.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise CatalogError(where.at(key, "must be a list of non-empty strings"))
    return value


def _label(value: Any, key: str, where: _Where) -> str:
    if not isinstance(value, str) or not _LABEL.match(value.strip().upper()):
        raise CatalogError(where.at(key, "labels are words of letters and spaces"))
    return value.strip().upper()
