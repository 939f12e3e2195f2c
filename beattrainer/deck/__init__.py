"""Deck core shared by all four games."""
from beattrainer.deck.core import (
    Card,
    Deck,
    Pile,
    format_cards,
    format_pile,
    parse_cards,
    parse_pile,
    rng_stream,
    shuffled,
)

__all__ = [
    "Card", "Deck", "Pile", "format_cards", "format_pile", "parse_cards", "parse_pile",
    "rng_stream", "shuffled",
]
