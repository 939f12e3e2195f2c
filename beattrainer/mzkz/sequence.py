"""The sequence compiler: the exact slot list of one performance.

From the drawn cards, a mode and a performance number it builds the slot list
of that performance (rulings sections 1-4).

Pure functions over the catalog; no audio, no I/O.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Sequence

from beattrainer.mzkz.catalog import CardSpec, Catalog, Challenge, load_catalog
from beattrainer.mzkz.model import (
    MIEZEKATZE,
    NAME,
    Expected,
    Modifier,
    Performance,
    Role,
    Slot,
    Sound,
)

ROUNDS = (1, 2, 3)
SOLO_EXPECTED = Expected(Sound.MZKZ, MIEZEKATZE)
FINAL_EXPECTED = Expected(Sound.FREE)
HEADSTART_CARDS = 3  # challenges 7 and 8 start with three cards face up


class SequenceError(ValueError):
    """Cards or a mode that do not make a performance; the message is one line."""


@dataclass(frozen=True)
class Mode:
    """How a run is played: a tutorial, a challenge, or a highscore run.

    `number` is the tutorial (1, 2) or challenge (1-9) number; for a highscore run
    it is the challenge whose rules apply, or None for plain rules.
    """

    kind: str
    number: int | None = None

    def __post_init__(self) -> None:
        valid = {"tutorial": {1, 2}, "challenge": set(range(1, 10)),
                 "highscore": {None, *range(1, 10)}}
        if self.kind not in valid or self.number not in valid[self.kind]:
            raise SequenceError(f"no such mode: {self.kind} {self.number}")

    @classmethod
    def parse(cls, text: str) -> Mode:
        """Parse 'tutorial-1', 'challenge-8', 'highscore' or 'highscore-rules-8'."""
        m = re.fullmatch(r"(tutorial|challenge)-(\d)|highscore(?:-rules-(\d))?", text.strip())
        if not m:
            raise SequenceError(f"unknown mode {text!r} (tutorial-1, tutorial-2, challenge-N, "
                                "highscore, highscore-rules-N)")
        if m.group(1):
            return cls(m.group(1), int(m.group(2)))
        return cls("highscore", int(m.group(3)) if m.group(3) else None)

    @property
    def name(self) -> str:
        """The mode's text form, as `parse` reads it (and the run report writes it)."""
        if self.kind == "highscore":
            return "highscore" if self.number is None else f"highscore-rules-{self.number}"
        return f"{self.kind}-{self.number}"

    @property
    def challenge(self) -> int | None:
        """The challenge whose rules apply, if any."""
        return self.number if self.kind in ("challenge", "highscore") else None

    def rules(self, catalog: Catalog) -> frozenset[str]:
        """The rule changes in force (empty for tutorials and plain highscore)."""
        number = self.challenge
        return catalog.challenges[number].rules if number else frozenset()


def cards_for_performance(mode: Mode, number: int, catalog: Catalog | None = None) -> int:
    """How many cards are in play in performance `number` (1-based)."""
    rules = mode.rules(catalog or load_catalog())
    return number + (HEADSTART_CARDS - 1 if "back_and_forth" in rules else 0)


def performances_in(mode: Mode, deck_size: int, catalog: Catalog | None = None) -> int:
    """How many performances a run of `mode` has with `deck_size` cards drawn."""
    catalog = catalog or load_catalog()
    if mode.kind == "challenge":
        return catalog.challenges[mode.number].performances
    extra = HEADSTART_CARDS - 1 if "back_and_forth" in mode.rules(catalog) else 0
    return max(0, deck_size - extra)


def validate_cards(cards: Sequence[str], mode: Mode, catalog: Catalog | None = None) -> None:
    """Raise SequenceError unless `cards` (draw order) can be played in `mode`."""
    catalog = catalog or load_catalog()
    if not cards:
        raise SequenceError("no cards given")
    for card_id in cards:
        if card_id not in catalog.cards:
            raise SequenceError(_unknown(card_id, catalog))
    seen = set()
    for card_id in cards:
        if card_id in seen:
            raise SequenceError(f"card {card_id} is drawn twice (each card exists once)")
        seen.add(card_id)
    if mode.kind == "tutorial":
        tutorial = catalog.tutorials[mode.number]
        allowed = tutorial.cards
        if not set(cards) <= set(allowed):
            stray = next(c for c in cards if c not in allowed)
            raise SequenceError(f"card {stray} is not part of tutorial {mode.number} "
                                f"({', '.join(allowed)})")
        if not tutorial.shuffle and tuple(cards) != allowed[:len(cards)]:
            raise SequenceError(f"tutorial {mode.number} lays its cards in the order "
                                f"{', '.join(allowed)}")
        return
    challenge = catalog.challenges.get(mode.challenge) if mode.challenge else None
    if challenge:
        _check_challenge_cards(cards, mode, challenge)


def _unknown(card_id: str, catalog: Catalog) -> str:
    extra = ", or the custom cards 49/50 once defined" if not catalog.has_custom else ", 49/50"
    return f"unknown card id {card_id!r} (cards are 01-48{extra})"


def _check_challenge_cards(cards: Sequence[str], mode: Mode, challenge: Challenge) -> None:
    banned = [c for c in cards if c in challenge.sorted_out]
    if banned:
        raise SequenceError(f"card {banned[0]} is sorted out for challenge {challenge.number} "
                            f"(sorted out: {', '.join(challenge.sorted_out)})")
    minimum = HEADSTART_CARDS if "back_and_forth" in challenge.rules else 1
    if len(cards) < minimum:
        raise SequenceError(f"challenge {challenge.number} needs at least {minimum} cards, "
                            f"got {len(cards)}")
    if mode.kind == "challenge" and len(cards) > challenge.cards:
        raise SequenceError(f"challenge {challenge.number} plays {challenge.cards} cards, "
                            f"got {len(cards)}")


# ------------------------------------------------------------------ card order

def round_positions(n_cards: int, round_no: int, rules: frozenset[str]) -> list[int]:
    """The 1-based card positions performed in one round, before back-and-forth.

    Resolves the switches: challenge 3/8's single switch (card 5 under card 4) and
    challenge 4's pairs (every even card under the one before).
    """
    if "only_switches" in rules:
        positions = []
        for upper in range(1, n_cards + 1, 2):
            lower = upper + 1
            has_partner = lower <= n_cards
            positions.append(lower if has_partner and round_no == 2 else upper)
        return positions
    positions = list(range(1, n_cards + 1))
    if "switch" in rules and n_cards >= 5:
        positions.remove(5 if round_no != 2 else 4)
    return positions


def card_order(n_cards: int, rules: frozenset[str]) -> list[tuple[int, int]]:
    """Every card slot of rounds 1-3 as (round, 1-based position), in order.

    Back and forth (challenges 7, 8): round 2 is reversed, and a round's first card
    is dropped when it is the card just performed (rulings section 3).
    """
    order: list[tuple[int, int]] = []
    for round_no in ROUNDS:
        positions = round_positions(n_cards, round_no, rules)
        if "back_and_forth" in rules:
            if round_no == 2:
                positions.reverse()
            if order and positions and positions[0] == order[-1][1]:
                positions = positions[1:]
        order.extend((round_no, p) for p in positions)
    return order


# ------------------------------------------------------------------ what is heard

def card_expected(spec: CardSpec, rules: frozenset[str], performer: int | None,
                  players: Sequence[str]) -> Expected:
    """What one microphone should hear for card `spec` under `rules`.

    `performer` None means everyone together; 0 is the lead; i the i-th player
    clockwise from the lead (solo challenge).
    """
    expected = spec.lead if (performer == 0 and spec.lead) else spec.expected
    if "no_cats" in rules and expected.sound is Sound.MZKZ:
        expected = spec.challenge_2 or Expected(
            Sound.SILENCE, free_timing=expected.free_timing, percussion=expected.percussion)
    if expected.text == NAME:
        expected = _resolve_name(spec, expected, performer, players)
    if "whisper" in rules and expected.voiced:
        # 08 and 14 become softer and louder whispers: never require voicing.
        expected = replace(expected, modifier=Modifier.WHISPER)
    return expected


def _resolve_name(spec: CardSpec, expected: Expected, performer: int | None,
                  players: Sequence[str]) -> Expected:
    """09 calls the lead's name; 13 has each performer say their own name."""
    if not players:
        return expected
    if spec.lead is not None:  # the others call the lead (09)
        return replace(expected, text=players[0].upper())
    if performer is not None:
        return replace(expected, text=players[performer % len(players)].upper())
    names = tuple(p.upper() for p in players)
    return replace(expected, text=names[0], alternatives=names[1:] + expected.alternatives)


def solo_expected(rules: frozenset[str]) -> Expected:
    """The lead's two solo MIEZEKATZEs after the rule changes."""
    if "no_cats" in rules:
        return Expected(Sound.SILENCE)
    if "whisper" in rules:
        return replace(SOLO_EXPECTED, modifier=Modifier.WHISPER)
    return SOLO_EXPECTED


# ------------------------------------------------------------------ compiler

def canon_voices(rules: frozenset[str], players: Sequence[str], voices: int | None) -> int:
    """How many canon voices: given, else teams of two (5) or one per player (6)."""
    if not rules & {"canon_teams", "canon_solo"}:
        return 1
    if voices is not None:
        if voices < 2:
            raise SequenceError("a canon needs at least 2 voices")
        return voices
    if "canon_solo" in rules:
        return max(2, len(players)) if players else 3
    return max(2, len(players) // 2) if players else 2


def compile_performance(cards: Sequence[str], mode: Mode, number: int | None = None, *,
                        players: Sequence[str] = (), voices: int | None = None,
                        catalog: Catalog | None = None) -> Performance:
    """The exact slot list of performance `number` of a run.

    Parameters
    ----------
    cards : card ids in draw order (at least as many as the performance needs)
    mode : the run's mode
    number : 1-based performance number; default: the last one `cards` allows
    players : names in seating order starting with this performance's lead
    voices : canon voices (challenges 5/6); default from the players
    catalog : the catalog (with custom cards, if any)

    Raises
    ------
    SequenceError
        For unknown, duplicate or sorted-out cards and too few cards.
    """
    catalog = catalog or load_catalog()
    cards = tuple(cards)
    validate_cards(cards, mode, catalog)
    rules = mode.rules(catalog)
    extra = HEADSTART_CARDS - 1 if "back_and_forth" in rules else 0
    last = len(cards) - extra
    number = last if number is None else number
    if not 1 <= number <= last:
        raise SequenceError(f"performance {number} needs {number + extra} cards, "
                            f"{len(cards)} given (performances 1-{last})")
    in_play = cards[: number + extra]
    pattern = _voice_pattern(in_play, rules, tuple(players), catalog)
    n_voices = canon_voices(rules, players, voices)
    slots = _canon(pattern, n_voices, rules) if n_voices > 1 else pattern
    return Performance(mode.name, mode.challenge, number, in_play, tuple(slots), n_voices,
                       tuple(players))


def _voice_pattern(in_play: tuple[str, ...], rules: frozenset[str], players: tuple[str, ...],
                   catalog: Catalog) -> list[Slot]:
    """One voice's slots: 2 solos, the card slots of rounds 1-3, the final move."""
    solo_rule = "solo" in rules
    n_players = len(players) or None

    def performer_at(index: int, default: int | None) -> int | None:
        if solo_rule:
            return index % n_players if n_players else index
        return default

    slots = [Slot(i, 0, Role.SOLO, None, None, solo_expected(rules), performer_at(i, 0), beat=i)
             for i in range(2)]
    for round_no, position in card_order(len(in_play), rules):
        index = len(slots)
        card_id = in_play[position - 1]
        performer = performer_at(index, None)
        expected = card_expected(catalog.card(card_id), rules, performer, players)
        slots.append(Slot(index, round_no, Role.CARD, card_id, position, expected, performer,
                          beat=index))
    index = len(slots)
    slots.append(Slot(index, 0, Role.FINAL, None, None, FINAL_EXPECTED,
                      performer_at(index, None), beat=index))
    return slots


def _canon(pattern: list[Slot], n_voices: int, rules: frozenset[str]) -> list[Slot]:
    """Voice v performs the whole pattern v beats after voice 0; one shared final move closes.

    Slots come in time order (beat, then voice). In a solo canon each voice is one
    player (performer = v); in team canons performer stays None (a team).
    """
    per_person = "canon_solo" in rules
    staggered = [
        replace(slot, voice=v, beat=slot.beat + v, performer=v if per_person else slot.performer)
        for v in range(n_voices) for slot in pattern
    ]
    staggered.sort(key=lambda s: (s.beat, s.voice))
    shared_beat = staggered[-1].beat + 1
    staggered.append(Slot(0, 0, Role.FINAL, None, None, FINAL_EXPECTED, None, beat=shared_beat))
    return [replace(slot, index=i) for i, slot in enumerate(staggered)]


def sequence_json(perf: Performance) -> dict:
    """The performance as the `sequence` contract's JSON object."""
    out = {
        "schema": "beattrainer.sequence/1",
        "mode": perf.mode,
        "challenge": perf.challenge,
        "performance": perf.number,
        "cards_in_play": list(perf.cards_in_play),
        "players": list(perf.players),
        "voices": perf.voices,
        "slots": [slot.to_json() for slot in perf.slots],
    }
    return out
