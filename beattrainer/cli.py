"""Command line: the only place where the parts are wired together.

Heavy and optional libraries (librosa, sounddevice, vosk, matplotlib) are imported
inside the commands that need them, so `--help` and the file-based commands work
without them.
"""
from __future__ import annotations

import sys

import click

from beattrainer import __version__


class UserError(click.ClickException):
    """A one-line error for the user; exit code 2 (bad input)."""

    exit_code = 2

    def show(self, file=None) -> None:  # noqa: D102 - one line, no usage dump
        click.echo(f"error: {self.format_message()}", err=True, file=file or sys.stderr)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="beattrainer")
def cli() -> None:
    """Referee and coach for Beatz'n'Catz (Miezekatze), plus three text-mode cat games."""


# ---------------------------------------------------------------- Beatz'n'Catz rules

def _catalog(custom_cards: str | None):
    """The catalog, with the user's blank cards when a file is given."""
    from pathlib import Path

    from beattrainer.mzkz.catalog import CatalogError, load_catalog, load_custom_cards

    catalog = load_catalog()
    if not custom_cards:
        return catalog
    try:
        text = Path(custom_cards).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{custom_cards}: cannot read card file ({exc.__class__.__name__})")
    try:
        return catalog.with_custom(load_custom_cards(text, custom_cards))
    except CatalogError as exc:
        raise UserError(str(exc))


def _card_ids(text: str) -> tuple[str, ...]:
    """Card ids from "1,04, 11": one- or two-digit numbers, zero-padded."""
    ids = []
    for part in text.split(","):
        part = part.strip()
        if not part.isdigit() or len(part) > 2:
            raise UserError(f"card ids are numbers like 04 or 11, got {part!r}")
        ids.append(part.zfill(2))
    return tuple(ids)


def _mode(tutorial: int | None, challenge: int | None, highscore: bool, rules: int | None):
    """The run mode from the mutually exclusive options."""
    from beattrainer.mzkz.sequence import Mode

    chosen = [x for x in (tutorial, challenge) if x is not None] + ([1] if highscore else [])
    if len(chosen) > 1:
        raise UserError("choose one of --tutorial, --challenge and --highscore")
    if rules is not None and not highscore:
        raise UserError("--rules goes with --highscore")
    if tutorial is not None:
        return Mode("tutorial", tutorial)
    if challenge is not None:
        return Mode("challenge", challenge)
    return Mode("highscore", rules)


custom_cards_option = click.option(
    "--custom-cards", type=click.Path(dir_okay=False), envvar="BEATTRAINER_CUSTOM_CARDS",
    help="TOML file with your own blank cards 49 and 50 (see README).")


@cli.command()
@click.argument("card_id", required=False)
@custom_cards_option
def cards(card_id: str | None, custom_cards: str | None) -> None:
    """List the action cards, or show one card in full."""
    catalog = _catalog(custom_cards)
    if card_id is None:
        for spec in sorted(catalog.cards.values(), key=lambda c: c.id):
            click.echo(f"{spec.id}  {spec.title:<28} {_heard_text(spec.expected)}")
        return
    (cid,) = _card_ids(card_id)
    try:
        spec = catalog.card(cid)
    except KeyError as exc:
        raise UserError(exc.args[0])
    click.echo(f"{spec.id} {spec.title}{'  (custom)' if spec.custom else ''}")
    click.echo(f"  what to do:  {spec.does}")
    click.echo(f"  what is due: {_heard_text(spec.expected)}")
    if spec.lead:
        click.echo(f"  the lead:    {_heard_text(spec.lead)}")
    if spec.expected.percussion:
        click.echo(f"  percussion:  {', '.join(spec.expected.percussion)} (optional, never required)")


def _heard_text(expected) -> str:
    """A short description of what a slot should sound like."""
    from beattrainer.mzkz.model import Sound

    words = " or ".join(expected.labels) if expected.sound is not Sound.SILENCE else "silence"
    if expected.sound is Sound.NONVERBAL:
        words = f"a sound: {words.lower()}"
    extras = [expected.modifier.value] if expected.modifier else []
    if expected.free_timing:
        extras.append("free timing, then find the beat again")
    return words + (f" ({'; '.join(extras)})" if extras else "")


@cli.command()
def challenges() -> None:
    """List the tutorials and the nine challenges."""
    from beattrainer.mzkz.catalog import load_catalog

    catalog = load_catalog()
    for t in catalog.tutorials.values():
        click.echo(f"tutorial {t.number}  {t.title:<30} cards {', '.join(t.cards)}")
        click.echo(f"             {t.summary}")
    for c in catalog.challenges.values():
        stars = "*" * c.difficulty + "." * (5 - c.difficulty)
        click.echo(f"challenge {c.number} {c.title:<30} {c.cards} cards, "
                   f"{c.performances} performances, difficulty {stars}")
        click.echo(f"             {c.summary}")
        if c.sorted_out:
            click.echo(f"             cards sorted out: {', '.join(c.sorted_out)}")


@cli.command()
@click.option("--cards", "cards_text", help="Card ids in draw order, e.g. 01,04,11 "
              "(default for tutorials: the tutorial's cards).")
@click.option("--tutorial", type=click.IntRange(1, 2), help="Tutorial 1 or 2.")
@click.option("--challenge", type=click.IntRange(1, 9), help="Challenge 1-9.")
@click.option("--highscore", is_flag=True, help="A highscore run (the default).")
@click.option("--rules", type=click.IntRange(1, 9), help="With --highscore: play with a challenge's rules.")
@click.option("--performance", type=click.IntRange(min=1),
              help="Performance number (default: the last one the cards allow).")
@click.option("--players", help="Names clockwise from the lead, e.g. Anna,Ben,Cem.")
@click.option("--voices", type=click.IntRange(min=2), help="Canon voices for challenges 5 and 6.")
@click.option("--json", "as_json", is_flag=True, help="Print the sequence contract's JSON.")
@custom_cards_option
def sequence(cards_text, tutorial, challenge, highscore, rules, performance, players, voices,
             as_json, custom_cards) -> None:
    """Show exactly what a performance sounds like, slot by slot."""
    import json

    from beattrainer.mzkz.sequence import SequenceError, compile_performance, sequence_json

    catalog = _catalog(custom_cards)
    mode = _mode(tutorial, challenge, highscore, rules)
    if cards_text:
        ids = _card_ids(cards_text)
    elif mode.kind == "tutorial":
        ids = catalog.tutorials[mode.number].cards
    else:
        raise UserError("give the drawn cards with --cards, e.g. --cards 01,04,11")
    names = tuple(n.strip() for n in players.split(",") if n.strip()) if players else ()
    try:
        perf = compile_performance(ids, mode, performance, players=names, voices=voices,
                                   catalog=catalog)
    except SequenceError as exc:
        raise UserError(str(exc))
    if as_json:
        click.echo(json.dumps(sequence_json(perf), indent=2))
        return
    click.echo(f"{mode.name}, performance {perf.number}: cards {', '.join(perf.cards_in_play)}"
               + (f", {perf.voices} canon voices" if perf.voices > 1 else ""))
    for slot in perf.slots:
        click.echo(_slot_line(slot, catalog, names))


def _slot_line(slot, catalog, names) -> str:
    """One readable line per slot."""
    from beattrainer.mzkz.model import Role

    where = {Role.SOLO: "solo", Role.FINAL: "final move"}.get(slot.role, f"round {slot.round}")
    who = ""
    if slot.performer is not None:
        who = (names[slot.performer % len(names)] if names
               else "lead" if slot.performer == 0 else f"player {slot.performer + 1}")
    voice = f"voice {slot.voice + 1} " if slot.voice else ""
    card = f"card {slot.card} (#{slot.position}) {catalog.card(slot.card).title}: " if slot.card else ""
    due = "free (not judged)" if slot.role is Role.FINAL else _heard_text(slot.expected)
    return f"{slot.index:3d} beat {slot.beat:3d}  {voice}{where:<10} {card}{due}" + (
        f"  [{who}]" if who else "")


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="beattrainer")
