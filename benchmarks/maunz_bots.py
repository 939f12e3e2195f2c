"""Maunz Maunz bot strength and round length.

Plays seeded games with the bot under test in seat 1 (a rotating start player
keeps that fair) against random bots, and prints its win rate against the fair
share, plus turns per round and void rounds. Usage:

    python benchmarks/maunz_bots.py [games_per_count] [level]
"""
from __future__ import annotations

import argparse

from beattrainer.deck.core import rng_stream
from beattrainer.games.maunz_maunz import RULES, make_bot


def play(players: int, level: str, seed: str) -> tuple[int, int, int, int]:
    """One game; returns (winner seat, turns, rounds, void rounds)."""
    s = RULES.new_game({"players": [f"P{i + 1}" for i in range(players)]}, seed)
    bots = [make_bot(level)] + [make_bot("random") for _ in range(players - 1)]
    turns = 0
    while not RULES.is_terminal(s):
        (seat,) = RULES.to_act(s)
        obs = RULES.observe(s, seat)
        rng = rng_stream(seed, f"b{seat}", turns)
        action = bots[seat].act(obs, RULES.legal_actions(s, seat), rng)
        s, _ = RULES.apply(s, seat, action)
        turns += 1
    return RULES.result(s).winners[0], turns, s.round_no, s.void_rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=200,
                        help="seeded games per player count (default 200)")
    parser.add_argument("level", nargs="?", default="good", help="the bot under test")
    args = parser.parse_args()
    games, level = args.games, args.level
    print(f"{level} bot in seat 1 vs random bots, {games} seeded games per player count")
    for players in range(2, 6):
        wins = turns = rounds = voids = 0
        for g in range(games):
            winner, t, r, v = play(players, level, f"bench-{players}-{g}")
            wins += winner == 0
            turns, rounds, voids = turns + t, rounds + r, voids + v
        print(f"{players} players: win rate {wins / games:.0%} (fair {1 / players:.0%}), "
              f"{turns / rounds:.1f} turns per round, {voids} void rounds")


if __name__ == "__main__":
    main()
