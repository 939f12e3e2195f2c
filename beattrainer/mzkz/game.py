"""The run state machine: tutorials, challenges and highscore runs with lives.

Pure: verdicts come in as plain values, so the audio referee and a human referee
drive it alike. Every transition returns a new `Run`.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import Sequence

from beattrainer.deck.core import UniformSource, shuffled
from beattrainer.mzkz.catalog import Catalog, load_catalog
from beattrainer.mzkz.model import Performance
from beattrainer.mzkz.sequence import (
    Mode,
    SequenceError,
    compile_performance,
    performances_in,
    validate_cards,
)

DEFAULT_LIVES = 9


class Status(str, Enum):
    """Where a run stands (the run report's `result`, less `stopped`)."""

    IN_PROGRESS = "in_progress"
    CHALLENGE_COMPLETED = "challenge_completed"
    CHALLENGE_FAILED = "challenge_failed"
    HIGHSCORE_ENDED = "highscore_ended"
    DECK_EXHAUSTED = "deck_exhausted"


class Outcome(str, Enum):
    """How one attempt at a performance ended."""

    COMPLETED = "completed"
    MISTAKE = "mistake"
    NOT_JUDGED = "not_judged"  # device trouble, a stopped attempt: no life is lost


@dataclass(frozen=True)
class Verdict:
    """The result of one attempt, from the referee or the group."""

    outcome: Outcome
    slot: int | None = None   # the first mistake's slot
    kind: str | None = None   # the mistake kind (rulings section 5)

    @classmethod
    def completed(cls) -> Verdict:
        """A performance without mistakes."""
        return cls(Outcome.COMPLETED)

    @classmethod
    def mistake(cls, slot: int, kind: str = "wrong_word") -> Verdict:
        """A mistake at `slot`."""
        return cls(Outcome.MISTAKE, slot, kind)


@dataclass(frozen=True)
class Attempt:
    """One attempt as recorded in the run."""

    performance: int
    lead: str
    verdict: Verdict


@dataclass(frozen=True)
class Run:
    """A tutorial, challenge or highscore run in progress or ended."""

    mode: Mode
    deck: tuple[str, ...]        # draw order
    players: tuple[str, ...]     # seating order, clockwise
    lives_start: int
    lives_left: int
    performance: int = 1         # the performance being played (1-based)
    lead: int = 0                # index of the squeaker holder in `players`
    completed: int = 0           # performances completed in this attempt at the run
    status: Status = Status.IN_PROGRESS
    attempts: tuple[Attempt, ...] = ()

    @property
    def total_performances(self) -> int:
        """Performances needed to finish (a highscore run: until the deck runs out)."""
        return performances_in(self.mode, len(self.deck))

    @property
    def lead_name(self) -> str:
        """The current lead player's name."""
        return self.players[self.lead]

    @property
    def seating_from_lead(self) -> tuple[str, ...]:
        """Players clockwise starting with the lead."""
        return self.players[self.lead:] + self.players[: self.lead]

    @property
    def is_over(self) -> bool:
        """True once the run has ended one way or another."""
        return self.status is not Status.IN_PROGRESS

    @property
    def score(self) -> int:
        """Performances completed (a highscore run's score)."""
        return self.completed

    @property
    def lives_lost(self) -> int:
        """Lives lost so far."""
        return self.lives_start - self.lives_left

    def current_performance(self, catalog: Catalog | None = None, *,
                            voices: int | None = None) -> Performance:
        """The slot list of the performance being played."""
        return compile_performance(self.deck, self.mode, self.performance,
                                   players=self.seating_from_lead, voices=voices,
                                   catalog=catalog)


def draw_deck(mode: Mode, rng: UniformSource, catalog: Catalog | None = None) -> tuple[str, ...]:
    """Shuffle and draw the cards a run of `mode` plays, in draw order.

    Tutorial I keeps its fixed order; tutorial II shuffles its six cards; a
    challenge draws its count from all cards less the sorted-out ones; a highscore
    run uses every card (custom blank cards included).
    """
    catalog = catalog or load_catalog()
    if mode.kind == "tutorial":
        tutorial = catalog.tutorials[mode.number]
        return shuffled(tutorial.cards, rng) if tutorial.shuffle else tutorial.cards
    challenge = catalog.challenges[mode.challenge] if mode.challenge else None
    pool = sorted(c for c in catalog.cards if not challenge or c not in challenge.sorted_out)
    deck = shuffled(pool, rng)
    return deck[: challenge.cards] if mode.kind == "challenge" else deck


def new_run(mode: Mode, players: Sequence[str], deck: Sequence[str],
            lives: int = DEFAULT_LIVES, catalog: Catalog | None = None) -> Run:
    """Start a run with `deck` in draw order.

    Raises
    ------
    SequenceError
        For an unusable deck, no players, or fewer than one life.
    """
    catalog = catalog or load_catalog()
    players = tuple(p.strip() for p in players if p.strip())
    if not players:
        raise SequenceError("a run needs at least one player")
    if len(set(players)) != len(players):
        raise SequenceError("player names must differ")
    if lives < 1:
        raise SequenceError("a run needs at least one life")
    deck = tuple(deck)
    validate_cards(deck, mode, catalog)
    needed = _cards_needed(mode, catalog)
    if needed and len(deck) < needed:
        raise SequenceError(f"{mode.name} needs {needed} cards, the deck has {len(deck)}")
    return Run(mode, deck, players, lives, lives)


def _cards_needed(mode: Mode, catalog: Catalog) -> int:
    if mode.kind == "tutorial":
        return len(catalog.tutorials[mode.number].cards)
    if mode.kind == "challenge":
        return catalog.challenges[mode.number].cards
    return 0


def record(run: Run, verdict: Verdict) -> Run:
    """Apply the verdict of one attempt at the current performance.

    A completed performance passes the squeaker clockwise and adds a card (or ends
    the run when none is left); a mistake costs a life and the same performance is
    retried with the same lead; losing the last life fails a challenge or ends a
    highscore run. A not-judged attempt changes nothing but the record.
    """
    if run.is_over:
        raise ValueError("the run is over")
    run = replace(run, attempts=run.attempts + (Attempt(run.performance, run.lead_name, verdict),))
    if verdict.outcome is Outcome.NOT_JUDGED:
        return run
    if verdict.outcome is Outcome.MISTAKE:
        lives_left = run.lives_left - 1
        if lives_left > 0:
            return replace(run, lives_left=lives_left)
        ended = Status.HIGHSCORE_ENDED if run.mode.kind == "highscore" else Status.CHALLENGE_FAILED
        return replace(run, lives_left=0, status=ended)
    completed = run.completed + 1
    if completed >= run.total_performances:
        done = Status.DECK_EXHAUSTED if run.mode.kind == "highscore" else Status.CHALLENGE_COMPLETED
        return replace(run, completed=completed, status=done)
    return replace(run, completed=completed, performance=run.performance + 1,
                   lead=(run.lead + 1) % len(run.players))


def restart(run: Run, deck: Sequence[str] | None = None,
            catalog: Catalog | None = None) -> Run:
    """Start a failed (or any) run again with full lives, the same or a new deck.

    The attempt history is kept; the squeaker stays with whoever holds it.
    """
    fresh = new_run(run.mode, run.players, deck if deck is not None else run.deck,
                    run.lives_start, catalog)
    return replace(fresh, lead=run.lead, attempts=run.attempts)
