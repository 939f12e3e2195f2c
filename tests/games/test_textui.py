"""The generic hot-seat loop, driven through an injected terminal.

A tiny game with private information ("secret picks") exercises the privacy
screen and private event texts; Schwarzer Kater exercises a real game.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace

import pytest

from beattrainer.games import schwarzer_kater
from beattrainer.games.core import ConfigError, Event, IllegalAction, RandomBot, Result
from beattrainer.games.log import read_log, replay
from beattrainer.games.textui import (
    MAX_LISTED_CHOICES,
    PlayerSpec,
    Seat,
    Terminal,
    build_seats,
    parse_players,
    play,
)


# ------------------------------------------------------------- a tiny test game
@dataclass(frozen=True)
class PickState:
    names: tuple[str, ...]
    rounds: int
    round_no: int = 1
    picks: tuple[int, ...] = ()
    totals: tuple[int, ...] = ()


class SecretPicks:
    """Each round every seat secretly picks 1-3 in seat order; totals decide.

    Picking tells the next seat privately whether the pick was odd, so private
    texts arrive for seats that are not at the screen.
    """

    name = "secret_picks"
    rules_version = "1"

    def new_game(self, config, seed, *, deck_order=None):
        names = tuple(config["players"])
        if len(names) < 2:
            raise ConfigError("two or more players")
        return PickState(names, config.get("rounds", 2), totals=(0,) * len(names))

    def to_act(self, s):
        return () if self.is_terminal(s) else (len(s.picks),)

    def legal_actions(self, s, seat):
        return (1, 2, 3) if seat in self.to_act(s) else ()

    def apply(self, s, seat, a):
        if a not in self.legal_actions(s, seat):
            raise IllegalAction(f"cannot pick {a!r} now")
        n = len(s.names)
        nxt = (seat + 1) % n
        events = [Event(f"{s.names[seat]} has picked.",
                        private={seat: f"You picked {a}.",
                                 nxt: f"Psst: {s.names[seat]} picked an "
                                      f"{'odd' if a % 2 else 'even'} number."},
                        kind="pick", hold_s=0.5)]
        picks = s.picks + (a,)
        if len(picks) < n:
            return replace(s, picks=picks), tuple(events)
        totals = tuple(t + p for t, p in zip(s.totals, picks))
        events.append(Event("Reveal: " + ", ".join(map(str, picks)), kind="reveal",
                            wait_enter=True, clear_after=True))
        return replace(s, picks=(), totals=totals, round_no=s.round_no + 1), tuple(events)

    def is_terminal(self, s):
        return s.round_no > s.rounds

    def result(self, s):
        return Result(tuple(float(t) for t in s.totals), Result.ranks_from_keys(s.totals),
                      "highest total wins")

    def observe(self, s, seat):
        mine = s.picks[seat] if seat < len(s.picks) else None
        return (seat, s.round_no, len(s.picks), mine, s.totals)

    def render(self, obs):
        seat, round_no, n_picked, _mine, totals = obs
        return f"[screen of seat {seat + 1}] round {round_no}, totals {totals}"

    def action_to_text(self, s, a):
        return f"pick {a}"

    def parse_action(self, s, seat, text):
        word = text.strip().lower().removeprefix("pick").strip()
        if not word.isdigit():
            raise IllegalAction(f"say 'pick N', not {text!r}")
        return int(word)


GAME = SecretPicks()


class ScriptedTerminal(Terminal):
    """A terminal that answers prompts from a list and records everything."""

    def __init__(self, answers, pace=1.0):
        self.answers = list(answers)
        self.prompts: list[str] = []
        self.lines: list[str] = []
        self.sleeps: list[float] = []
        self.clears = 0
        super().__init__(read=self._read, write=self.lines.append, sleep=self.sleeps.append,
                         clear=self._clear, pace=pace)

    def _read(self, prompt):
        self.prompts.append(prompt)
        self.lines.append(f"<prompt {prompt}>")
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)

    def _clear(self):
        self.clears += 1
        self.lines.append("<clear>")

    @property
    def text(self):
        return "\n".join(self.lines)


class RecordingBot(RandomBot):
    def __init__(self):
        self.seen: list[tuple[str, int]] = []

    def notify(self, event, seat):
        self.seen.append((event.public, seat))


def config(*names, rounds=2):
    return {"players": list(names), "rounds": rounds}


# ------------------------------------------------------------------------ tests
def test_one_human_and_a_bot_play_to_the_end_without_privacy_screens():
    term = ScriptedTerminal(["pick 2", "", "3", ""])
    bot = RecordingBot()
    out = play(GAME, config("Anna", "Bot2"), "s1", [Seat("Anna"), Seat("Bot2", bot)], term)
    assert out.finished and out.result is not None
    assert not any("Pass to" in p for p in term.prompts)
    assert "You picked 2." in term.text and "Anna has picked." not in term.text
    assert "Psst: Bot2 picked" in term.text                  # the only human sees her private text
    assert "[screen of seat 1] round 1" in term.text
    assert "Final standings:" in term.text
    assert [seat for seat, _ in out.log.actions] == [0, 1, 0, 1]
    assert len(bot.seen) == len(out.events) and all(seat == 1 for _, seat in bot.seen)


def test_two_humans_get_a_privacy_screen_and_their_private_texts_later():
    term = ScriptedTerminal(["", "pick 1", "", "pick 2", "", "", "pick 3", "", "pick 1", ""])
    out = play(GAME, config("Anna", "Ben"), "s2", [Seat("Anna"), Seat("Ben")], term)
    assert out.finished
    assert term.prompts.count("Pass to Anna, then press Enter. ") == 2
    assert term.prompts.count("Pass to Ben, then press Enter. ") == 2
    text = term.text
    # Anna's own pick is shown to her at once; Ben's hint about it waits for Ben
    assert text.index("You picked 1.") < text.index("<prompt Pass to Ben")
    hint = "Psst: Anna picked an odd number."
    assert text.index("<prompt Pass to Ben") < text.index(hint)
    assert "For your eyes only" in text
    # the privacy screen clears the screen before asking
    first_pass = term.lines.index("<prompt Pass to Ben, then press Enter. >")
    assert term.lines[first_pass - 1] == "<clear>"


def test_invalid_input_reprompts_listing_choices_with_numbers():
    term = ScriptedTerminal(["hello", "pick 7", "?", "#2", "", "pick 3", ""])
    out = play(GAME, config("Anna", "Ben"), "s3", [Seat("Anna"), Seat("Ben", RandomBot())], term)
    assert "Not understood" in term.text
    assert "Not possible: cannot pick 7 now" in term.text
    assert "  #1 pick 1" in term.text and "  #3 pick 3" in term.text
    assert out.log.actions[0] == (0, "pick 2")
    assert out.log.actions[2] == (0, "pick 3")


def test_auto_lets_the_computer_choose():
    term = ScriptedTerminal(["auto", "", "auto", ""])
    out = play(GAME, config("Anna", "Ben"), "s4", [Seat("Anna"), Seat("Ben", RandomBot())],
               term, auto_bot=RandomBot())
    assert out.finished and len(out.log.actions) == 4


def test_eof_ends_cleanly_and_saves_a_log_that_replays(tmp_path):
    path = tmp_path / "stopped.json"
    term = ScriptedTerminal(["pick 2"])
    out = play(GAME, config("Anna", "Ben"), "s5", [Seat("Anna"), Seat("Ben", RandomBot())], term,
               log_path=path)
    assert not out.finished and out.result is None
    assert "Game stopped before the end." in term.text
    log = read_log(path)
    assert log.actions == out.log.actions and len(log.actions) == 2
    assert replay(GAME, log) == out.state


def test_quit_stops_the_game():
    term = ScriptedTerminal(["", "quit", "pick 1"])
    out = play(GAME, config("Anna", "Ben"), "s6", [Seat("Anna"), Seat("Ben")], term)
    assert not out.finished and out.log.actions == ()


def test_pacing_follows_the_event_hints_and_can_be_switched_off():
    bots = [Seat("A", RandomBot()), Seat("B", RandomBot())]
    term = ScriptedTerminal([], pace=2.0)
    play(GAME, config("A", "B"), "s7", bots, term)
    assert term.sleeps == [1.0] * 4                       # four picks, hold 0.5 s scaled by 2
    assert term.clears == 2                               # after each reveal
    assert term.prompts == []                             # no human, so nobody is asked for Enter
    term = ScriptedTerminal([], pace=0)
    play(GAME, config("A", "B"), "s7", bots, term)
    assert term.sleeps == []


def test_wait_enter_asks_a_human_to_press_enter():
    term = ScriptedTerminal(["1", "", "1", ""])
    play(GAME, config("Anna", "B"), "s8", [Seat("Anna"), Seat("B", RandomBot())], term)
    assert term.prompts.count("Press Enter to go on. ") == 2


def test_bot_games_are_deterministic_even_when_global_random_is_disturbed():
    def run(disturb):
        seats = [Seat("A", RandomBot()), Seat("B", RandomBot()), Seat("C", RandomBot())]
        term = ScriptedTerminal([], pace=0)
        if disturb:
            term.write = lambda text: (random.seed(), random.random(), term.lines.append(text))
        return play(GAME, config("A", "B", "C", rounds=4), "same", seats, term).log

    assert run(False) == run(True)


def test_parse_players():
    assert parse_players("Anna, bot ,bot:simple", "good") == (
        PlayerSpec("Anna"), PlayerSpec("Bot2", "good"), PlayerSpec("Bot3", "simple"))
    for bad in ("Anna,,Ben", "Anna,bot:genius", "Anna,anna", ""):
        with pytest.raises(ConfigError):
            parse_players(bad)


def test_build_seats_appends_the_program_cat():
    cfg = {"players": ["Anna", "Bot2"]}
    seats = build_seats(schwarzer_kater, cfg, parse_players("Anna,bot:simple"))
    assert [s.name for s in seats] == ["Anna", "Bot2", "Cat"]
    assert seats[0].bot is None and seats[1].level == "simple" and seats[2].level == "good"


def test_a_schwarzer_kater_game_at_the_screen(tmp_path):
    rules = schwarzer_kater.RULES
    cfg = {"players": ["Anna", "Bot2"], "three_mistakes": True}
    seats = build_seats(schwarzer_kater, cfg, parse_players("Anna,bot"))
    answers = ["9", "3", "hat 1", "2", "4", "5", "1", "2"]
    term = ScriptedTerminal(answers)
    out = play(rules, cfg, "screen", seats, term, log_path=tmp_path / "k.json")
    text = term.text
    assert "VARIANT ON" in text                                  # the start screen warns
    assert "Mouse Anna, which hat? (1-5)" in text
    assert "choose a hat from 1 to 5" in text                    # '9' re-prompts
    assert term.sleeps and term.clears >= 1                      # memorize pause and hiding
    assert out.finished
    assert replay(rules, read_log(tmp_path / "k.json")) == out.state


def test_long_choice_lists_are_cut_short():
    rules = schwarzer_kater.RULES
    cfg = {"players": ["Anna", "Ben"], "host": "human"}
    term = ScriptedTerminal(["", "?", "layout S,C,K,P,L"])
    play(rules, cfg, "long", [Seat("Anna"), Seat("Ben")], term)
    assert f"  #{MAX_LISTED_CHOICES} " in term.text and "... and 80 more" in term.text


def test_a_bare_number_the_game_cannot_read_is_not_a_choice_index():
    # "#2" would pick choice 2; a bare "02x" is no action and no index: re-prompt.
    term = ScriptedTerminal(["02x", "#2", "", "pick 3", ""])
    out = play(GAME, config("Anna", "Ben"), "s9", [Seat("Anna"), Seat("Ben", RandomBot())], term)
    assert term.text.count("Not understood") == 1
    assert out.log.actions[0] == (0, "pick 2")


class WarnedPicks(SecretPicks):
    """Picking 3 is legal but warned about."""

    def action_warnings(self, s, seat, a):
        return ("3 never wins here",) if a == 3 else ()


def test_warned_moves_need_a_yes():
    term = ScriptedTerminal(["pick 3", "n", "pick 3", "y", "", "pick 1", ""])
    out = play(WarnedPicks(), config("Anna", "Ben"), "s10",
               [Seat("Anna"), Seat("Ben", RandomBot())], term)
    assert term.text.count("Careful: 3 never wins here") == 2
    assert out.log.actions[0] == (0, "pick 3")
