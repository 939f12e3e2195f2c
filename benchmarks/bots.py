"""Win rates of the companion games' bots.

Seat 1 plays a bot of one level, every other player's seat a random bot (seats
the program always plays keep their own level, e.g. the Schwarzer Kater cat).
Seeded, single core.

Run:  /work/venv/bin/python benchmarks/bots.py [--games 300] [--players 3]

A shared win counts as 1/k for each of the k winners, so with p equal players
the fair share is 1/p.
"""
from __future__ import annotations

import argparse
import time

from beattrainer.deck.core import rng_stream
from beattrainer.games.core import ConfigError
from beattrainer.games.registry import GAMES, GameUnavailable, load_game

NAMES = ("Ann", "Ben", "Cleo", "Dan", "Eva", "Finn", "Gus", "Hanna")
MAX_ACTIONS = 100_000


def seat_levels(module, config, hero_level: str) -> list[str]:
    """Bot level per seat: the hero at seat 0, random players, program seats as given."""
    levels = [hero_level] + ["random"] * (len(config["players"]) - 1)
    extra = getattr(module.RULES, "extra_seats", None)
    return levels + [level for _name, level in (extra(config) if extra else ())]


def hero_share(module, config, hero_level: str, seed: str) -> float:
    """Seat 0's share of the win in one seeded game."""
    rules = module.RULES
    state = rules.new_game(config, seed)
    bots = [module.make_bot(level) for level in seat_levels(module, config, hero_level)]
    for step in range(MAX_ACTIONS):
        if rules.is_terminal(state):
            break
        seat = rules.to_act(state)[0]
        action = bots[seat].act(rules.observe(state, seat), rules.legal_actions(state, seat),
                                rng_stream(seed, f"bot-{seat}", step))
        state, events = rules.apply(state, seat, action)
        for event in events:
            for who, bot in enumerate(bots):
                bot.notify(event, who)
    winners = rules.result(state).winners
    return 1 / len(winners) if 0 in winners else 0.0


def player_count(module, wanted: int) -> int | None:
    """`wanted` players if the game accepts them, else the nearest count it does."""
    defaults = {key: default for key, _kind, default, _help in module.CONFIG_OPTIONS}
    accepted = []
    for n in range(1, len(NAMES) + 1):
        try:
            module.RULES.new_game({"players": list(NAMES[:n]), **defaults}, "probe")
            accepted.append(n)
        except ConfigError:
            pass
    return min(accepted, key=lambda n: (abs(n - wanted), n)) if accepted else None


def main() -> None:
    """Print one line per game and bot level."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per line")
    parser.add_argument("--players", type=int, default=3, help="players (not program seats)")
    args = parser.parse_args()
    print(f"{'game':8} {'players':>7} {'seat-1 bot':>10} {'win share':>9} {'fair':>6} "
          f"{'s/game':>7}")
    for command, entry in GAMES.items():
        try:
            module = load_game(command)
        except GameUnavailable as exc:
            print(f"{command:8} skipped: {exc}")
            continue
        n = player_count(module, args.players)
        if n is None:
            print(f"{command:8} skipped: no player count accepted")
            continue
        defaults = {key: default for key, _kind, default, _help in module.CONFIG_OPTIONS}
        config = {"players": list(NAMES[:n]), **defaults}
        for level in ("random", "simple", "good"):
            start = time.perf_counter()
            total = sum(hero_share(module, config, level, f"bench-{command}-{k}")
                        for k in range(args.games))
            per_game_s = (time.perf_counter() - start) / args.games
            print(f"{command:8} {n:7d} {level:>10} {total / args.games:9.3f} {1 / n:6.3f} "
                  f"{per_game_s:7.4f}")


if __name__ == "__main__":
    main()
