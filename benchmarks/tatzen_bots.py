"""Club der Tatzen bot strength.

Seeded games of one "good" bot against "simple" and "random" bots, rotating the
good bot through every seat.

Prints, per player count, the good bot's share of wins (shared wins count as a
fraction), its mean score against the others' mean score, the mean number of
turns and how the games ended. Run:

    python benchmarks/tatzen_bots.py [games per setting, default 60]
"""
from __future__ import annotations

import argparse
from collections import Counter

from beattrainer.deck.core import rng_stream
from beattrainer.games.club_der_tatzen import RULES, make_bot


def play(n_players: int, seed: str, levels: list[str]) -> tuple[object, object]:
    """One game; returns (final state, result)."""
    names = [f"P{i + 1}" for i in range(n_players)]
    state = RULES.new_game({"players": names}, seed)
    bots = [make_bot(level) for level in levels]
    step = 0
    while not RULES.is_terminal(state):
        (seat,) = RULES.to_act(state)
        action = bots[seat].act(RULES.observe(state, seat), RULES.legal_actions(state, seat),
                                rng_stream(seed, f"bot{seat}", step))
        state, _ = RULES.apply(state, seat, action)
        step += 1
    return state, RULES.result(state)


def main(games: int) -> None:
    """Print the table described in the module docstring."""
    for opponent in ("simple", "random"):
        print(f"good vs {opponent}:")
        for n_players in (2, 3, 4):
            wins = score = others = turns = 0.0
            ends: Counter[str] = Counter()
            for g in range(games):
                good_seat = g % n_players
                levels = ["good" if s == good_seat else opponent for s in range(n_players)]
                state, result = play(n_players, f"bench-{opponent}-{n_players}-{g}", levels)
                winners = result.winners
                wins += (good_seat in winners) / len(winners)
                score += result.scores[good_seat]
                others += (sum(result.scores) - result.scores[good_seat]) / (n_players - 1)
                turns += state.turn
                ends["masks" if "masks" in state.end_reason else
                     "cards" if "card" in state.end_reason else "revealed"] += 1
            print(f"  {n_players} players: good wins {wins / games:.0%} "
                  f"(fair share {1 / n_players:.0%}), score {score / games:.2f} vs "
                  f"{others / games:.2f}, {turns / games:.1f} turns, ends {dict(ends)}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=60,
                        help="seeded games per setting (default 60)")
    main(parser.parse_args().games)
