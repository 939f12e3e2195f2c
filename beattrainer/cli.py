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


def performance_options(command):
    """The options that name a performance: its cards, its mode and its number."""
    options = [
        click.option("--cards", "cards_text", help="Card ids in draw order, e.g. 01,04,11 "
                     "(default for tutorials: the tutorial's cards)."),
        click.option("--tutorial", type=click.IntRange(1, 2), help="Tutorial 1 or 2."),
        click.option("--challenge", type=click.IntRange(1, 9), help="Challenge 1-9."),
        click.option("--highscore", is_flag=True, help="A highscore run (the default)."),
        click.option("--rules", type=click.IntRange(1, 9),
                     help="With --highscore: play with a challenge's rules."),
        click.option("--performance", type=click.IntRange(min=1),
                     help="Performance number (default: the last one the cards allow)."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def _drawn_cards(cards_text: str | None, mode, catalog) -> tuple[str, ...]:
    """The cards of --cards, or the tutorial's own cards."""
    if cards_text:
        return _card_ids(cards_text)
    if mode.kind == "tutorial":
        return catalog.tutorials[mode.number].cards
    raise UserError("give the drawn cards with --cards, e.g. --cards 01,04,11")


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
        click.echo(f"  percussion:  {', '.join(spec.expected.percussion)} "
                   "(optional, never required)")


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
@performance_options
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
    ids = _drawn_cards(cards_text, mode, catalog)
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
    card = (f"card {slot.card} (#{slot.position}) {catalog.card(slot.card).title}: "
            if slot.card else "")
    due = "free (not judged)" if slot.role is Role.FINAL else _heard_text(slot.expected)
    return f"{slot.index:3d} beat {slot.beat:3d}  {voice}{where:<10} {card}{due}" + (
        f"  [{who}]" if who else "")


# ---------------------------------------------------------------- synthetic performances

SYNTH_PLAYERS = ("Anna", "Ben", "Cem", "Jörg", "Siobhan", "Mei")


@cli.command()
@performance_options
@click.option("--period", "period_s", type=float, default=1.2, show_default=True,
              help="Word period T at the solos [s].")
@click.option("--voices", type=click.IntRange(1, 12), default=3, show_default=True,
              help="Group members speaking together.")
@click.option("--snr", "snr_db", type=float, help="Add noise at this SNR [dB] (default: clean).")
@click.option("--noise", type=click.Choice(["babble", "pink", "hum"]), default="pink",
              show_default=True, help="Kind of noise for --snr.")
@click.option("--reverb", is_flag=True, help="Add a simple room reverb.")
@click.option("--jitter-ms", type=click.FloatRange(min=0), default=0.0, show_default=True,
              help="Timing error per slot (standard deviation) [ms].")
@click.option("--spread-ms", type=click.FloatRange(min=0), default=15.0, show_default=True,
              help="Largest onset spread between the voices of one slot [ms].")
@click.option("--drift-pct", type=float, default=0.0, show_default=True,
              help="Tempo change over the performance [% of the period].")
@click.option("--mistake", "mistake_text", help="Inject a mistake: KIND@SLOT, KIND one of "
              "missing, unexpected_sound, wrong_word, off_beat, wrong_dynamics, tempo_drift.")
@click.option("--players", help="Names clockwise from the lead (default: Anna,Ben,Cem,...).")
@click.option("--split", type=click.Choice(["train", "test", "any"]), default="train",
              show_default=True, help="Library voices to use (test = held-out voices).")
@click.option("--no-percussion", is_flag=True, help="Leave out the cards' optional percussion.")
@click.option("--syllables-in-time", is_flag=True,
              help="Keep every voice's syllables in time with the earliest voice's "
              "(default: each voice says its word at its own rate).")
@click.option("--seed", type=int, default=1, show_default=True, help="Random seed.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False), required=True,
              help="Audio file to write (.wav, .flac, .ogg); the truth goes beside it "
              "as NAME.truth.json.")
@custom_cards_option
def synth(cards_text, tutorial, challenge, highscore, rules, performance, period_s, voices,
          snr_db, noise, reverb, jitter_ms, spread_ms, drift_pct, mistake_text, players, split,
          no_percussion, syllables_in_time, seed, out_path, custom_cards) -> None:
    """Render a performance from the library's voice clips, with its ground truth."""
    import json
    from pathlib import Path

    import numpy as np

    from beattrainer.audio import AudioError, write_audio
    from beattrainer.mzkz.sequence import SequenceError, compile_performance
    from beattrainer.synth.clips import ClipLibrary, ClipLibraryError
    from beattrainer.synth.render import Mistake, RenderError, RenderOptions, render_performance

    catalog = _catalog(custom_cards)
    mode = _mode(tutorial, challenge, highscore, rules)
    ids = _drawn_cards(cards_text, mode, catalog)
    names = tuple(n.strip() for n in players.split(",") if n.strip()) if players else \
        SYNTH_PLAYERS[:max(voices, 2)]
    out = Path(out_path)
    if out.suffix.lower() not in (".wav", ".flac", ".ogg"):
        raise UserError(f"{out}: unsupported output format (use .wav, .flac or .ogg)")
    try:
        clips = ClipLibrary.load()
        perf = compile_performance(ids, mode, performance, players=names, catalog=catalog)
        if {"09", "13"} & set(perf.cards_in_play):
            known = set(clips.labels())
            missing = [n for n in names if n.upper() not in known]
            if missing:
                raise UserError(f"no voice clips for the name {missing[0]!r} (available: "
                                + ", ".join(SYNTH_PLAYERS) + ")")
        options = RenderOptions(
            period_s=period_s, voices=voices, snr_db=snr_db, noise=noise, reverb=reverb,
            jitter_ms=jitter_ms, spread_ms=spread_ms, drift_pct=drift_pct,
            mistake=Mistake.parse(mistake_text) if mistake_text else None, split=split,
            percussion=not no_percussion, seed=seed, syllables_in_time=syllables_in_time)
        samples, sr, truth = render_performance(perf, clips, np.random.default_rng(seed), options)
        write_audio(out, samples, sr)
    except (SequenceError, RenderError, ClipLibraryError, AudioError) as exc:
        raise UserError(str(exc))
    truth_path = out.with_name(out.stem + ".truth.json")
    truth_path.write_text(json.dumps(truth, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    click.echo(f"{out}: {truth['duration_s']:.1f} s, {len(truth['slots'])} slots, "
               f"{len(truth['words'])} words; truth in {truth_path}")


# ---------------------------------------------------------------- the referee

def _players(players: str | None, lead: str | None) -> tuple[str, ...]:
    """Names clockwise starting with the lead."""
    names = [n.strip() for n in (players or "").split(",") if n.strip()]
    if lead:
        lead = lead.strip()
        if lead in names:
            i = names.index(lead)
            names = names[i:] + names[:i]
        else:
            names.insert(0, lead)
    if len(set(names)) != len(names):
        raise UserError("player names must differ")
    return tuple(names)


def _verdict_line(verdict) -> str:
    """One line per judged slot: what was due, what was heard, the timing."""
    from beattrainer.judge import describe_slot

    slot = verdict.slot
    heard = verdict.heard.label if verdict.heard else "-"
    timing = f"{verdict.offset_ms:+5.0f} ms" if verdict.offset_ms is not None else "        "
    mark = {"ok": "ok  ", "mistake": "MISS", "not_judged": "    "}[verdict.verdict]
    due = slot.expected.item() if slot.expected.sound.value != "free" else "free"
    return f"{mark} {describe_slot(slot):<26} due {due:<22} heard {heard:<22} {timing}"


strictness_option = click.option(
    "--strictness", type=click.Choice(["lenient", "normal", "strict"]), default="normal",
    show_default=True, help="How strict the referee is about timing and dynamics.")
backend_option = click.option(
    "--backend", type=click.Choice(["auto", "pocketsphinx", "vosk", "none"]), default="auto",
    show_default=True,
    help="Speech recognizer (auto: vosk when a model is there, else pocketsphinx).")
vosk_option = click.option(
    "--vosk-model", type=click.Path(file_okay=False),
    help="Folder of an unpacked vosk model (default: models/vosk when present).")


@cli.command()
@click.argument("audio", type=click.Path(dir_okay=False))
@performance_options
@click.option("--lead", help="Name of the lead player (the Beatzekatze).")
@click.option("--players", help="Names clockwise, e.g. Anna,Ben,Cem (for name cards 09 and 13).")
@click.option("--period", "period_s", type=click.FloatRange(0.35, 4.0),
              help="Word period [s] when the solos are silent (challenge 2).")
@click.option("--start", "start_s", type=click.FloatRange(min=0.0),
              help="With --period: when the first solo's beat is [s].")
@strictness_option
@backend_option
@vosk_option
@click.option("--json", "json_out", type=click.Path(dir_okay=False),
              help="Write the judge report (contract beattrainer.judge-report/1); - for stdout.")
@click.option("--plot", type=click.Path(dir_okay=False), help="Write the timing plots to this PNG.")
@custom_cards_option
def judge(audio, cards_text, tutorial, challenge, highscore, rules, performance, lead, players,
          period_s, start_s, strictness, backend, vosk_model, json_out, plot, custom_cards) -> None:
    """Judge a recorded performance slot by slot, as the live referee would.

    The exit code is 0 whether the performance was completed or failed: the
    verdict is data. Only errors (unreadable audio, bad cards) exit non-zero.
    """
    import json

    from beattrainer.audio import AudioError, file_blocks
    from beattrainer.mzkz.sequence import SequenceError, compile_performance
    from beattrainer.report.text import report_text
    from beattrainer.session import judge_stream, make_recognizer

    catalog = _catalog(custom_cards)
    mode = _mode(tutorial, challenge, highscore, rules)
    ids = _drawn_cards(cards_text, mode, catalog)
    names = _players(players, lead)
    try:
        perf = compile_performance(ids, mode, performance, players=names, catalog=catalog)
    except SequenceError as exc:
        raise UserError(str(exc))
    grid = _grid(perf, mode, catalog, period_s, start_s)
    try:
        blocks = file_blocks(audio)
        adapter = make_recognizer(perf, backend, strictness, vosk_model)
        to_stdout = json_out == "-"
        echo = (lambda v: None) if to_stdout else (lambda v: click.echo(_verdict_line(v)))
        result = judge_stream(perf, blocks, adapter, strictness, grid, on_verdict=echo)
    except AudioError as exc:
        raise UserError(str(exc))
    except ValueError as exc:  # the recognizer's and vosk's one-line errors
        raise UserError(str(exc))
    if result.period_s is None:
        raise UserError(f"{audio}: no beat was heard (the lead's two solo MIEZEKATZEs set the "
                        "tempo; for silent solos give --period and --start)")
    result = _with_audio_info(result, audio, names)
    data = result.to_json()
    if json_out:
        text = json.dumps(data, indent=2)
        if to_stdout:
            click.echo(text)
        else:
            with open(json_out, "w", encoding="utf-8") as handle:
                handle.write(text + "\n")
    if not to_stdout:
        click.echo("")
        click.echo(_summary(data))
        click.echo(report_text(data))
    if plot:
        from beattrainer.report.plots import save_report_png

        save_report_png(data, plot)


def _grid(perf, mode, catalog, period_s, start_s):
    """The tempo grid when the solos are silent (challenge 2), from --period/--start."""
    silent_solos = "no_cats" in mode.rules(catalog)
    if period_s is None and start_s is None:
        if silent_solos:
            raise UserError(
                "challenge 2 has silent solos: give the tempo with --period and --start")
        return None
    if period_s is None or start_s is None:
        raise UserError("--period and --start go together")
    return (period_s, start_s)


def _with_audio_info(result, audio: str, names):
    """Fill in the file's own rate and channels for the report."""
    from dataclasses import replace

    import soundfile as sf

    info = sf.info(audio)
    return replace(result, audio_path=audio, sample_rate=int(info.samplerate),
                   channels=int(info.channels), lead=names[0] if names else None)


def _summary(data: dict) -> str:
    """The verdict in one sentence."""
    if data["result"] == "completed":
        return "Completed: every slot was right. Pass the squeaker!"
    if data["result"] == "incomplete":
        return "Incomplete: the audio ended before the performance did."
    return f"Mistake: {data['mistake']['message']}. One life lost."


# ---------------------------------------------------------------- live play

db_option = click.option(
    "--db", "db", type=click.Path(dir_okay=False), default=None,
    help="SQLite database of runs and highscores (default: beattrainer.db in your user "
         "data folder; the BEATTRAINER_DB environment variable overrides it).")


def _store_from_option(db: str | None):
    """Open the database named by --db (or the default), or UserError in one line."""
    from beattrainer.store import Store, StoreError

    try:
        return Store.open(db)
    except StoreError as exc:
        raise UserError(str(exc))


def _read_store(db: str | None, read):
    """`read(store)` on the database named by --db, closed after; errors in one line."""
    from beattrainer.store import StoreError

    store = _store_from_option(db)
    try:
        return read(store)
    except StoreError as exc:
        raise UserError(str(exc))
    finally:
        store.close()


def _highscore_line(row) -> str:
    """One ranked run: rank, performances, lives lost, date, players."""
    return (f"{row.rank:>3}. {row.performances_completed:>3} performances  "
            f"{row.lives_lost} of {row.lives_start} lives lost  "
            f"{_run_date(row.ended_at)}  {', '.join(row.players)}")


def _run_date(moment) -> str:
    return moment.strftime("%Y-%m-%d %H:%M") if moment else "-"



DEMO_DIR = "demo"


def _play_run(run, blocks, *, ui, store, sounds, keys, strictness, backend, vosk_model,
              source=None, count_in=False, period_s=None, max_seconds=None, json_out=None):
    """The one live code path: the run on a block stream, the report written at the end.

    `source` is the microphone (`MicBlocks`) when there is one: its lost blocks make
    an attempt not judged, its problems are reported, its calibration places a
    count-in on the input's timeline.
    """
    import json

    from beattrainer.calibrate import StreamClock
    from beattrainer.play import LivePlay
    from beattrainer.session import RecognizerFactory

    clock = StreamClock()
    grid_for = None
    if count_in:
        latency_s = _calibrated_latency(store, source)
        grid_for = _count_in_grid(sounds, period_s or 1.2, clock, latency_s)
    losses = (lambda: source.gaps_reached) if source else None
    live = LivePlay(run, _clocked(blocks, clock), ui,
                    RecognizerFactory(backend, strictness, vosk_model),
                    store=store, sounds=sounds, keys=keys, strictness=strictness,
                    grid_for=grid_for, count_in=count_in, max_seconds=max_seconds,
                    input_losses=losses)
    try:
        report = live.play()
    finally:
        if json_out:
            with open(json_out, "w", encoding="utf-8") as handle:
                json.dump(live.run_report(), handle, indent=2)
                handle.write("\n")
        problems = source.problems() if source else None
        if problems:
            click.echo(f"warning: {problems}", err=True)
    if live.input_error:
        raise UserError(f"{live.input_error} (the run so far is saved)")
    return report


def _clocked(blocks, clock, sr: int = 16000):  # PIPELINE_SR
    """Pass blocks on, noting when each arrived (to place a count-in on the input's timeline)."""
    import time

    consumed = 0
    for block in blocks:
        consumed += len(block)
        clock.observe(time.perf_counter(), consumed / sr)
        yield block


def _calibrated_latency(store, source) -> float:
    """Loopback latency [s] measured by `calibrate` for this input device, else 0."""
    if source is None:
        return 0.0
    values = store.calibration(source.device_name) or {}
    latency = values.get("latency_s")
    if latency is None:
        click.echo("note: no loopback latency calibrated for this device "
                   "(run 'beattrainer calibrate'); the count-in may be judged a little off",
                   err=True)
    return float(latency or 0.0)


def _count_in_grid(sounds, period_s: float, clock, latency_s: float):
    """The referee's grid, starting at the first of the two solos the trainer speaks.

    The grid is placed on the input's timeline: wall time of the first solo,
    through the clock that maps input samples to the wall, plus the loopback
    latency.
    """
    import time

    def grid_for(perf, stream_s: float):
        called_wall = time.perf_counter()
        delay_s = sounds.count_in(period_s)
        first_solo_s = clock.audio_of(called_wall + delay_s) if clock.ready else stream_s + delay_s
        return (period_s, first_solo_s + latency_s)
    return grid_for


@cli.command()
@click.option("--tutorial", type=click.IntRange(1, 2), help="Play tutorial 1 or 2.")
@click.option("--challenge", type=click.IntRange(1, 9), help="Play challenge 1-9.")
@click.option("--highscore", is_flag=True, help="A highscore run (the default).")
@click.option("--rules", type=click.IntRange(1, 9), help="With --highscore: a challenge's rules.")
@click.option("--players", default="Player", show_default=True,
              help="Names clockwise, the first one leads first, e.g. Anna,Ben,Cem.")
@click.option("--lives", type=click.IntRange(1, 99), default=9, show_default=True)
@click.option("--deck", "deck_text", help="Fix the draw order, e.g. 04,11,37 (default: shuffled).")
@click.option("--seed", type=int, help="Seed for the shuffle (default: a new one each run).")
@click.option("--device", help="Input device: index or part of its name.")
@click.option("--input", "input_file", type=click.Path(dir_okay=False), hidden=True,
              help="Listen to a recording instead of the microphone (the demo's path).")
@click.option("--count-in", is_flag=True,
              help="The trainer speaks the lead's two solos (needed for challenge 2).")
@click.option("--period", "period_s", type=click.FloatRange(0.35, 4.0),
              help="Word period of the count-in [s] (default 1.2).")
@click.option("--max-seconds", type=click.FloatRange(min=1.0),
              help="Stop after this much input [s].")
@click.option("--record", "record_dir", type=click.Path(file_okay=False),
              help="Save the input as a WAV in this folder (judge it later with 'judge').")
@click.option("--json", "json_out", type=click.Path(dir_okay=False),
              help="Write the run report (contract beattrainer.run-report/1) here.")
@click.option("--no-sounds", is_flag=True, help="Do not play the squeaker, buzzer and cheer.")
@click.option("--plain", is_flag=True, help="Plain line output even in a terminal.")
@strictness_option
@backend_option
@vosk_option
@db_option
@custom_cards_option
def play(tutorial, challenge, highscore, rules, players, lives, deck_text, seed, device,
         input_file, count_in, period_s, max_seconds, record_dir, json_out, no_sounds, plain,
         strictness, backend, vosk_model, db, custom_cards) -> None:
    """Play a tutorial, a challenge or a highscore run on the microphone.

    The trainer shows the cards and the lives, listens, judges every slot as it
    is performed and keeps score. A performance starts when the lead's first
    solo is heard. Keys: r restart, p pause, q quit (the run is saved),
    o overrule a verdict, m flag a mistake the trainer missed.
    """
    import numpy as np

    from beattrainer.audio import AudioError, file_blocks, mic_blocks
    from beattrainer.mzkz.game import draw_deck, new_run
    from beattrainer.mzkz.sequence import SequenceError

    catalog = _catalog(custom_cards)
    mode = _mode(tutorial, challenge, highscore, rules)
    names = _players(players, None)
    if "no_cats" in mode.rules(catalog) and not count_in:
        raise UserError(
            "challenge 2 has silent solos: add --count-in so the trainer gives the beat")
    if count_in and no_sounds:
        raise UserError("--count-in speaks the solos: it needs sounds (drop --no-sounds)")
    try:
        deck = _card_ids(deck_text) if deck_text else draw_deck(
            mode, np.random.default_rng(seed), catalog)
        run = new_run(mode, names, deck, lives, catalog)
    except SequenceError as exc:
        raise UserError(str(exc))
    store = _store_from_option(db)
    sounds = None if no_sounds else _open_sounds(None)
    if count_in and not (sounds and sounds.available):
        store.close()
        raise UserError("--count-in needs a sound output device to speak the solos")
    try:
        source = None if input_file else mic_blocks(device=device)
        blocks = file_blocks(input_file) if input_file else source
        if record_dir:
            blocks = _recorded(blocks, record_dir)
    except AudioError as exc:
        store.close()
        raise UserError(str(exc))
    ui = _play_ui(plain)
    keys = _keys(plain)
    try:
        _play_run(run, blocks, ui=ui, store=store, sounds=sounds, keys=keys,
                  strictness=strictness, backend=backend, vosk_model=vosk_model, source=source,
                  count_in=count_in, period_s=period_s, max_seconds=max_seconds,
                  json_out=json_out)
    except (AudioError, ValueError) as exc:  # the recognizer's and vosk's one-line errors
        raise UserError(str(exc))
    finally:
        ui.close()
        if hasattr(keys, "close"):
            keys.close()
        store.close()


def _open_sounds(device):
    """The sound player, or None with a one-line note when there is no output."""
    try:
        from beattrainer.ui.sounds import SoundPlayer
    except ImportError:
        return None
    player = SoundPlayer.open(device)
    if not player.available:
        click.echo(f"note: {player.note}", err=True)
    return player


def _play_ui(plain: bool):
    """The live screen in a terminal, plain lines otherwise."""
    from beattrainer.ui.live import PlainUI, RichUI

    return RichUI() if (sys.stdout.isatty() and not plain) else PlainUI()


def _keys(plain: bool):
    from beattrainer.play import NoKeys
    from beattrainer.ui.keys import open_keys

    return NoKeys() if plain else open_keys()


def _recorded(blocks, folder: str):
    """Pass blocks through while writing them to a timestamped WAV in `folder`."""
    from datetime import datetime, timezone

    from beattrainer.audio import PIPELINE_SR, block_writer

    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    path = f"{folder}/session-{stamp}.wav"
    click.echo(f"recording the input to {path}", err=True)
    return block_writer(blocks, path, PIPELINE_SR)


@cli.command()
@click.option("--json", "json_out", type=click.Path(dir_okay=False),
              help="Write the run report (contract beattrainer.run-report/1) here.")
@click.option("--db", type=click.Path(dir_okay=False),
              help="Database for the demo's run (default: a temporary one, so your "
                   "highscores stay yours).")
@click.option("--plain", is_flag=True, help="Plain line output even in a terminal.")
def demo(json_out, db, plain) -> None:
    """A short highscore run from bundled audio, through the live code path.

    No microphone needed: a recorded session of three performances (one of them
    with a mistake) plays the part of the microphone.
    """
    import json
    import tempfile
    from pathlib import Path

    from beattrainer.audio import file_blocks
    from beattrainer.mzkz.game import new_run
    from beattrainer.mzkz.sequence import Mode
    from beattrainer.report.text import report_text
    from beattrainer.resources import sounds_dir

    folder = sounds_dir() / DEMO_DIR
    meta = json.loads((folder / "session.json").read_text())
    run = new_run(Mode.parse(meta["mode"]), meta["players"], meta["deck"], meta["lives_start"])
    with tempfile.TemporaryDirectory() as tmp:
        store = _store_from_option(db or str(Path(tmp) / "demo.db"))
        try:
            report = _play_run(run, file_blocks(folder / meta["audio"]), ui=_play_ui(plain),
                               store=store, sounds=None, keys=_keys(True),
                               strictness="normal", backend="auto", vosk_model=None,
                               json_out=json_out)
            click.echo("")
            click.echo("Highscores of the demo run:")
            for row in store.highscores(mode=meta["mode"]):
                click.echo(f"  {_highscore_line(row)}")
        finally:
            store.close()
    judged = [a for a in report["attempts"] if a["report"]["result"] == "completed"]
    if judged:
        click.echo("")
        click.echo("Tempo report of the last completed performance:")
        click.echo(report_text(judged[-1]["report"]))


# ---------------------------------------------------------------- reports

@cli.command()
@click.argument("report_file", type=click.Path(dir_okay=False))
@click.option("--png", type=click.Path(dir_okay=False), help="Write the plots to this PNG.")
@click.option("--csv", "csv_out", type=click.Path(dir_okay=False),
              help="Write one row per slot to this CSV file.")
def report(report_file: str, png: str | None, csv_out: str | None) -> None:
    """Tempo accuracy report of a judged performance (a judge report JSON)."""
    import csv
    import json

    from beattrainer.report.stats import csv_rows
    from beattrainer.report.text import report_text

    try:
        with open(report_file, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{report_file}: cannot read ({exc.__class__.__name__})")
    except json.JSONDecodeError as exc:
        raise UserError(f"{report_file}: not JSON ({exc.msg} at line {exc.lineno})")
    if data.get("schema") == "beattrainer.run-report/1":
        attempts = data.get("attempts") or []
        if not attempts:
            raise UserError(f"{report_file}: the run has no judged attempt")
        data = attempts[-1]["report"]
    if data.get("schema") != "beattrainer.judge-report/1":
        raise UserError(f"{report_file}: not a judge report (schema beattrainer.judge-report/1)")
    click.echo(report_text(data))
    if csv_out:
        rows = csv_rows(data)
        with open(csv_out, "w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]) if rows else ["index"])
            writer.writeheader()
            writer.writerows(rows)
    if png:
        from beattrainer.report.plots import save_report_png

        save_report_png(data, png)
        click.echo(f"plots written to {png}")


# ---------------------------------------------------------------- companion games
# One command per registered game (beattrainer/games/registry.py). A command's
# variant options and rules summary come from the game module, imported only when
# the command runs or shows its help, so `beattrainer --help` imports no game.

GAME_COMMON_OPTIONS = ("players", "seed", "log", "replay", "pace")
GAME_PROMPT_HELP = ("At your prompt: '?' lists your choices (type one, or its #number), "
                    "'auto' lets\nthe computer choose for you, 'quit' stops the game.")


def _game_option(key: str, kind, default, help_text: str) -> click.Option:
    """A click option for one entry of a module's CONFIG_OPTIONS."""
    flag = "--" + key.replace("_", "-")
    if kind is bool:
        return click.Option([f"{flag}/--no-{key.replace('_', '-')}", key], default=default,
                            show_default=True, help=help_text)
    ctype = click.Choice(list(kind)) if isinstance(kind, tuple) else kind
    return click.Option([flag, key], type=ctype, default=default, show_default=True,
                        help=help_text)


def _read_line(prompt: str) -> str:
    """One line from stdin; EOFError at the end (input() keeps line editing on a tty)."""
    if sys.stdin.isatty():
        return input(prompt)
    click.echo(prompt, nl=False)
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    click.echo(line.rstrip("\r\n"))  # piped input is not echoed; keep transcripts readable
    return line.rstrip("\r\n")


def _seat_names(module, config) -> list[str]:
    extra = getattr(module.RULES, "extra_seats", None)
    return list(config.get("players", [])) + [name for name, _ in (extra(config) if extra else ())]


def _replay_game(module, log_file: str) -> None:
    from beattrainer.games.log import LogError, read_log
    from beattrainer.games.textui import show_replay

    try:
        log = read_log(log_file)
        names = _seat_names(module, log.config)
        show_replay(module.RULES, log, click.echo, names)
    except (LogError, ValueError) as exc:
        raise UserError(str(exc))


def _run_game(module, params: dict) -> None:
    """Play one game at this terminal from the parsed command-line options."""
    import random

    from beattrainer.games.core import ConfigError
    from beattrainer.games.textui import Terminal, build_seats, parse_players, play

    if params["replay"]:
        _replay_game(module, params["replay"])
        return
    if not params["players"]:
        raise UserError('say who plays, e.g. --players "Anna,bot,bot:good"')
    default_level = getattr(module, "DEFAULT_BOT_LEVEL", "good")
    seed = params["seed"]
    fresh_seed = seed is None
    if fresh_seed:  # the one place a seed is made up; it is shown so the game can be replayed
        seed = str(random.SystemRandom().randrange(10**9))
    try:
        specs = parse_players(params["players"], default_level)
        config = {"players": [spec.name for spec in specs]}
        config.update({key: params[key] for key, *_ in module.CONFIG_OPTIONS})
        seats = build_seats(module, config, specs)
        module.RULES.new_game(config, seed)  # validates the configuration up front
        auto_bot = module.make_bot(default_level)
    except ConfigError as exc:
        raise UserError(str(exc))
    if fresh_seed:
        click.echo(f"seed: {seed}")
    term = Terminal(read=_read_line, write=click.echo, pace=params["pace"])
    try:
        play(module.RULES, config, seed, seats, term, auto_bot=auto_bot, log_path=params["log"])
    except OSError as exc:
        raise UserError(f"cannot write the move log: {exc.strerror or exc}")


class _GameCommand(click.Command):
    """A companion game; options and epilog are loaded from its module on first use."""

    def __init__(self, entry) -> None:
        common = [
            click.Option(["--players"], help='Seats in order: names are people, "bot" or '
                         '"bot:random|simple|good" are computer players, '
                         'e.g. "Anna,bot,bot:good".'),
            click.Option(["--seed"], help="Seed for a reproducible game (default: a fresh one)."),
            click.Option(["--log"], type=click.Path(dir_okay=False),
                         help="Write the move log (JSON) to this file at the end."),
            click.Option(["--replay"], type=click.Path(exists=True, dir_okay=False),
                         help="Replay a move log instead of playing."),
            click.Option(["--pace"], type=click.FloatRange(min=0), default=1.0,
                         show_default=True, help="Scale of the pauses; 0 = no pauses."),
        ]
        super().__init__(entry.command, params=common, help=entry.title, short_help=entry.title)
        self.entry = entry
        self.module = None
        self.load_error: str | None = None
        self._loaded = False

    def _load(self) -> None:
        from beattrainer.games.registry import GameUnavailable, load_game

        if self._loaded:
            return
        self._loaded = True
        try:
            self.module = load_game(self.entry.command)
        except GameUnavailable as exc:
            self.load_error = str(exc)
            return
        for key, kind, default, help_text in self.module.CONFIG_OPTIONS:
            if key in GAME_COMMON_OPTIONS:
                raise RuntimeError(f"{self.entry.module}: option {key!r} clashes with a "
                                   f"common game option")
            self.params.append(_game_option(key, kind, default, help_text))
        summary = self.module.RULES_SUMMARY.strip() + "\n\n" + GAME_PROMPT_HELP
        self.epilog = "\n\n".join("\b\n" + part for part in summary.split("\n\n"))

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        self._load()
        return super().get_params(ctx)

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        self._load()
        super().format_epilog(ctx, formatter)

    def invoke(self, ctx: click.Context) -> None:
        self._load()
        if self.module is None:
            raise UserError(self.load_error or f"the game {self.entry.command} is not available")
        try:
            _run_game(self.module, dict(ctx.params))
        except KeyboardInterrupt:
            raise UserError("game interrupted")


# ---------------------------------------------------------------- onsets

@cli.command()
@click.argument("audio", required=False, type=click.Path(dir_okay=False))
@click.option("--mic", is_flag=True, help="Listen to the microphone instead of a file.")
@click.option("--device", help="Input device: index or part of its name (default: the "
              "system's default input).")
@click.option("--seconds", type=click.FloatRange(min=0.0, min_open=True),
              help="With --mic: stop after this much audio (default: until Ctrl-C).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (contract beattrainer.onsets/1).")
def onsets(audio: str | None, mic: bool, device: str | None, seconds: float | None,
           as_json: bool) -> None:
    """Find syllable and word onsets (and percussive hits) in AUDIO or live from the mic."""
    import json

    from beattrainer.audio import PIPELINE_SR, AudioError, file_blocks, mic_blocks
    from beattrainer.dsp.onsets import OnsetDetector, events_json

    if mic == (audio is not None):
        raise UserError("give either an AUDIO file or --mic")
    if not mic and (device is not None or seconds is not None):
        raise UserError("--device and --seconds only go with --mic")
    detector = OnsetDetector(PIPELINE_SR)
    events: list = []
    source = None
    samples = 0
    try:
        source = mic_blocks(device=device, max_seconds=seconds) if mic else file_blocks(audio)
        if mic and not as_json:
            click.echo(f"listening on '{source.device_name}'"
                       + (f" for {seconds:g} s" if seconds else " (Ctrl-C stops)"), err=True)
        try:
            for block in source:
                samples += len(block)
                new = detector.feed(block)
                if not as_json:
                    for event in new:
                        click.echo(_onset_line(event))
                events.extend(new)
        except KeyboardInterrupt:
            pass
        tail = detector.flush()
    except AudioError as exc:
        raise UserError(str(exc))
    finally:
        if mic and source is not None:
            source.close()
    if mic and source.problems():
        click.echo(f"warning: {source.problems()}", err=True)
    if not mic and samples == 0:
        raise UserError(f"{audio}: contains no audio samples")
    events.extend(tail)
    if as_json:
        click.echo(json.dumps(events_json(events, PIPELINE_SR, detector.latency_s), indent=1))
        return
    for event in tail:
        click.echo(_onset_line(event))
    n_words = sum(1 for e in events if type(e).__name__ == "Word")
    click.echo(f"{n_words} word(s) in {samples / PIPELINE_SR:.2f} s; detector latency "
               f"{detector.latency_s * 1000:.0f} ms")


def _onset_line(event) -> str:
    """One readable line per detector event."""
    from beattrainer.events import Onset, OnsetKind

    if isinstance(event, Onset):
        if event.kind is OnsetKind.PERCUSSION:
            return f"{event.time_s:9.3f}  hit"
        mark = "word  " if event.starts_word else "      "
        moved = "" if event.replaces_s is None else f"  (corrects {event.replaces_s:.3f})"
        return f"{event.time_s:9.3f}  {mark}syllable  +{event.strength:.0f} dB{moved}"
    times = " ".join(f"{t:.3f}" for t in event.syllable_onsets_s)
    return f"{event.onset_s:9.3f}  WORD of {len(event.syllable_onsets_s)} syllable(s): {times}"


# ---------------------------------------------------------------- slot recognition

def _recognizer(backend: str, vocabulary, strictness: str, vosk_model: str | None):
    """A SlotRecognizer, or UserError with the reason in one line."""
    from beattrainer.recognize import SlotRecognizer
    from beattrainer.recognize.classes import ClassModelError
    from beattrainer.recognize.lexicon import LexiconError
    from beattrainer.recognize.recognizer import RecognizeError
    from beattrainer.recognize.speech import BackendError

    try:
        return SlotRecognizer.create(backend=backend, vocabulary=vocabulary,
                                     strictness=strictness, vosk_model=vosk_model)
    except (BackendError, LexiconError, ClassModelError, RecognizeError) as exc:
        raise UserError(str(exc))


def _read_slot_audio(path: str):
    """Mono float32 at 16 kHz, or UserError."""
    from beattrainer.audio import AudioError, read_audio

    try:
        samples, _ = read_audio(path)
    except AudioError as exc:
        raise UserError(str(exc))
    return samples


def _label_list(text: str | None) -> tuple[str, ...]:
    return tuple(" ".join(x.split()).upper() for x in (text or "").split(",") if x.strip())


backend_option = click.option(
    "--backend", type=click.Choice(["auto", "pocketsphinx", "vosk", "none"]), default="auto",
    show_default=True, help="Speech layer: auto uses vosk when a model is given or in models/vosk.")
vosk_option = click.option("--vosk-model", type=click.Path(), default=None,
                           help="Folder of an unpacked vosk model (never downloaded).")


@cli.command()
@click.argument("audio", type=click.Path(dir_okay=False))
@click.option("--expect", "expect", required=True,
              help="Item due: LABEL or LABEL/modifier, e.g. YEAH or MIEZEKATZE/quiet.")
@click.option("--candidates", default=None, help="Comma-separated labels to choose between.")
@click.option("--normal", "normal_files", multiple=True, type=click.Path(dir_okay=False),
              help="Recording of the group's normal MIEZEKATZE (repeatable): the reference "
                   "for quiet/loud/high/slow.")
@click.option("--enrolment", type=click.Path(dir_okay=False), default=None,
              help="Templates file written by `beattrainer enroll`.")
@click.option("--strictness", type=click.Choice(["lenient", "normal", "strict"]),
              default="normal", show_default=True)
@backend_option
@vosk_option
@click.option("--json", "as_json", is_flag=True, help="Print the recognize/1 JSON object.")
def recognize(audio, expect, candidates, normal_files, enrolment, strictness, backend,
              vosk_model, as_json) -> None:
    """Recognise what was said in one slot's AUDIO and whether EXPECT is accepted."""
    import json

    from beattrainer.recognize import GroupProfile, ItemError, SlotContext, describe_slot
    from beattrainer.recognize.vocabulary import Item

    try:
        item = Item.parse(expect)
    except ItemError as exc:
        raise UserError(str(exc))
    labels = _label_list(candidates)
    rec = _recognizer(backend, (item.label, *labels, *_default_words()), strictness, vosk_model)
    if enrolment:
        _load_enrolment(rec, enrolment)
    group = None
    if normal_files:
        try:
            group = GroupProfile.from_acoustics(
                [describe_slot(_read_slot_audio(f)) for f in normal_files])
        except ValueError as exc:
            raise UserError(f"--normal: {exc}")
    samples = _read_slot_audio(audio)
    heard = rec.recognize(samples, SlotContext(expected=str(item), candidates=labels,
                                               group=group))
    if as_json:
        click.echo(json.dumps(heard.to_json(), ensure_ascii=False))
        return
    verdict = "accepted" if heard.accepted else "NOT accepted"
    click.echo(f"heard {heard.label} (confidence {heard.confidence:.2f}); {item} {verdict}")
    details = [f"syllables {heard.syllables}"]
    if heard.level_db is not None:
        details.append(f"level {heard.level_db:.1f} dBFS")
    if heard.pitch_hz is not None:
        details.append(f"pitch {heard.pitch_hz:.0f} Hz")
    details.append(f"duration {heard.duration_s:.2f} s")
    details.append(f"backend {heard.backend}")
    click.echo(", ".join(details))


def _default_words() -> tuple[str, ...]:
    from beattrainer.recognize.vocabulary import CARD_WORDS

    return CARD_WORDS


def _load_enrolment(rec, path: str) -> None:
    """Templates from an enrolment file into `rec`, or UserError."""
    import numpy as np

    from beattrainer.recognize.templates import store_from_arrays

    try:
        with np.load(path, allow_pickle=False) as data:
            rec.templates = store_from_arrays(data)
    except (OSError, KeyError, ValueError) as exc:
        raise UserError(f"{path}: not an enrolment file ({exc.__class__.__name__})")


@cli.command()
@click.option("--words", default=None,
              help="Comma-separated labels to enrol (default: every card word).")
@click.option("--players", default="", help="Comma-separated player names (each says every name).")
@click.option("--from-dir", type=click.Path(file_okay=False), default=None,
              help="Take LABEL*.wav/.flac/.ogg files from this folder instead of the microphone.")
@click.option("--seconds", type=float, default=2.0, show_default=True,
              help="Recording time per word from the microphone.")
@click.option("--device", default=None, help="Input device (index or name part).")
@click.option("--out", "out_file", required=True, type=click.Path(dir_okay=False),
              help="Where to write the templates (.npz).")
def enroll(words, players, from_dir, seconds, device, out_file) -> None:
    """Record the group saying the session's vocabulary once, as templates for `recognize`."""
    from pathlib import Path

    import numpy as np

    from beattrainer.recognize.lexicon import label_token
    from beattrainer.recognize.templates import TemplateStore, store_to_arrays

    labels = list(_label_list(words) or _default_words()) + list(_label_list(players))
    if not labels:
        raise UserError("nothing to enrol")
    store = TemplateStore()
    if from_dir:
        folder = Path(from_dir)
        if not folder.is_dir():
            raise UserError(f"{folder}: no such folder")
        files = sorted(p for p in folder.iterdir() if p.suffix.lower() in (".wav", ".flac", ".ogg"))
        for label in labels:
            token = label_token(label)
            mine = [p for p in files if label_token(p.stem).startswith(token)]
            for path in mine:
                store.add(_read_slot_audio(str(path)), label)
            click.echo(f"{label}: {len(mine)} recording(s)")
    else:
        if seconds <= 0 or seconds > 10:
            raise UserError("--seconds must be between 0 and 10")
        for label in labels:
            click.prompt(f"Say {label!r} after pressing Enter", default="", show_default=False)
            store.add(_record(seconds, device), label)
    if not len(store):
        raise UserError("no usable recording: nothing was heard")
    out = Path(out_file)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        with out.open("wb") as handle:
            np.savez(handle, **store_to_arrays(store))
    except OSError as exc:
        raise UserError(f"{out}: cannot write ({exc.__class__.__name__})")
    click.echo(f"wrote {len(store)} template(s) for {len(store.labels())} word(s) to {out}")


def _record(seconds: float, device):
    """`seconds` of microphone audio at 16 kHz, or UserError."""
    import numpy as np

    from beattrainer.audio import AudioError, mic_blocks

    try:
        blocks = list(mic_blocks(device=device, max_seconds=seconds))
    except AudioError as exc:
        raise UserError(str(exc))
    return np.concatenate(blocks) if blocks else np.zeros(0, np.float32)


# ---------------------------------------------------------------- highscores and history

@cli.command()
@click.option("--mode", help="Only this mode, e.g. highscore, challenge-3 (default: all).")
@click.option("--limit", type=click.IntRange(min=1), default=10, show_default=True,
              help="Runs per mode.")
@db_option
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON.")
def highscores(mode: str | None, limit: int, db: str | None, as_json: bool) -> None:
    """The best finished runs per mode.

    Ranked by performances completed, then fewer lives lost, then the earlier date.
    """
    import json

    table = _read_store(db, lambda store: store.highscores(mode=mode, limit=limit))
    if as_json:
        click.echo(json.dumps([row.to_json() for row in table], indent=2))
        return
    if not table:
        click.echo("no finished runs yet" + (f" in mode {mode}" if mode else ""))
        return
    shown_mode = None
    for row in table:
        if row.mode != shown_mode:
            click.echo(("" if shown_mode is None else "\n") + row.mode)
            shown_mode = row.mode
        click.echo(_highscore_line(row))


@cli.command()
@click.option("--mode", help="Only this mode, e.g. highscore, challenge-3 (default: all).")
@click.option("--limit", type=click.IntRange(min=1), default=20, show_default=True,
              help="How many of the latest runs.")
@db_option
@click.option("--plot", type=click.Path(dir_okay=False),
              help="Write progress over time (performances and mean |offset| per run) to this PNG.")
def history(mode: str | None, limit: int, db: str | None, plot: str | None) -> None:
    """The latest runs, newest first, with lives lost and timing."""
    runs = _read_store(db, lambda store: store.history(limit=limit, mode=mode))
    if not runs:
        click.echo("no runs yet" + (f" in mode {mode}" if mode else ""))
    for run in runs:
        timing = (f"mean |offset| {run.mean_abs_offset_ms:.0f} ms over {run.slots_timed} words"
                  if run.mean_abs_offset_ms is not None else "no timed words")
        click.echo(f"{_run_date(run.started_at)}  {run.mode:<16} {run.result:<19} "
                   f"{run.performances_completed:>3} performances  {run.attempts:>3} attempts  "
                   f"{run.lives_lost} lives lost  {timing}  {', '.join(run.players)}")
    if plot:
        from beattrainer.report.history import save_history_png

        try:
            save_history_png(runs, plot)
        except OSError as exc:
            raise UserError(f"{plot}: cannot write ({exc.strerror or exc.__class__.__name__})")
        click.echo(f"plot written to {plot}")


# ---------------------------------------------------------------- calibration

@cli.command()
@click.option("--device", help="Input device: index or part of its name (default: the "
              "system's default input).")
@db_option
@click.option("--seconds", type=click.FloatRange(1.0, 30.0), default=4.0, show_default=True,
              help="Length of the quiet and of the spoken stretch [s].")
@click.option("--no-loopback", is_flag=True,
              help="Skip the click loopback (no speaker, or headphones).")
def calibrate(device: str | None, db: str | None, seconds: float, no_loopback: bool) -> None:
    """Measure noise floor, speaking level, latency and the group's timing habit.

    Four short parts, with prompts: stay quiet; say MIEZEKATZE a few times;
    stay quiet while the speaker plays clicks (loopback latency); say
    MIEZEKATZE on every click of a metronome. The figures are stored per
    input device in the database.
    """
    from beattrainer.audio import PIPELINE_SR, AudioError, mic_blocks
    from beattrainer.calibrate import calibration_plan
    from beattrainer.store import StoreError
    from beattrainer.ui.calibration import run_session
    from beattrainer.ui.sounds import SoundPlayer, load_sounds

    def say(text: str) -> None:
        click.echo(text, err=True)

    store = _store_from_option(db)
    player = SoundPlayer.open()
    try:
        if not player.available:
            say(player.note)
        click_samples = load_sounds(sr=PIPELINE_SR)["click"].samples if player.available else None
        plan = calibration_plan(seconds, loopback=not no_loopback)
        if sys.stdin.isatty():
            click.prompt("Press Enter when everyone is ready", default="", show_default=False,
                         err=True)
        try:
            mic = mic_blocks(device=device, max_seconds=plan.total_s)
        except AudioError as exc:
            raise UserError(str(exc))
        say(f"calibrating '{mic.device_name}' ({plan.total_s:.0f} s)")
        try:
            result = run_session(mic, PIPELINE_SR, plan, say, player=player, click=click_samples)
        except AudioError as exc:
            raise UserError(str(exc))
        except KeyboardInterrupt:
            raise UserError("calibration interrupted: nothing stored")
        finally:
            mic.close()
        if mic.problems():
            say(f"warning: {mic.problems()}")
        click.echo(f"calibration of '{mic.device_name}':")
        for line in result.lines():
            click.echo(f"  {line}")
        if result.noise_floor_dbfs is None:
            raise UserError("no audio was heard: nothing stored")
        try:
            store.save_calibration(mic.device_name, result.values())
        except StoreError as exc:
            raise UserError(str(exc))
        click.echo(f"stored for '{mic.device_name}' in {store.path}")
    finally:
        player.close()
        store.close()


def _add_game_commands() -> None:
    from beattrainer.games.registry import GAMES

    for entry in GAMES.values():
        cli.add_command(_GameCommand(entry))


_add_game_commands()


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="beattrainer")
