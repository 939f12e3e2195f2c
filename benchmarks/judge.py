"""The whole referee on rendered performances.

Does it fail the right slot for the right reason, and pass clean performances?

    python benchmarks/judge.py [--n 120] [--seed 5] [--backend pocketsphinx] [--split test]
    python benchmarks/judge.py --seed 68 --cases 136,151 --dump /tmp/d68   # just these cases
    python benchmarks/judge.py --syllables-in-time   # the same cases, syllables in time

Renders a seeded set of performances: about a third clean, the rest with one
injected mistake of every kind (missing, unexpected_sound, wrong_word, off_beat,
wrong_dynamics, tempo_drift) at a random slot where it fits; highscore and every
challenge that changes the order or what is said (1, 2, 3, 4, 7, 8, 9); 1-4
voices; clean and 30/20/10 dB pink or babble noise; periods 0.9-2.6 s; the
library's held-out test voices by default. Each is judged through the same
streaming path as the microphone (512-sample blocks) and the script prints:

- first-mistake recall: the mistake found at its slot (tempo drift: between the
  slot where the drift starts and the one where it passes 15%; a drift that
  never passes 15% is no mistake and is not rendered);
- mistake-kind accuracy among those found at the right slot (a drifting group's
  word judged off the beat before the drift passes 15% counts as right: by the
  rulings it is);
- false fails: clean performances judged as a mistake;
- period error: the solos' period against the rendered solos' interval [%]
  (`--period-over P` lists every case above P%, default 5, and dumps it with `--dump`);
- onset error: heard word onset against the truth [ms];
- realtime factor of the whole judge (recognizer included), one core.
"""
from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import time  # noqa: E402
from collections import Counter, defaultdict  # noqa: E402

import numpy as np  # noqa: E402

from beattrainer.mzkz.model import Sound  # noqa: E402
from beattrainer.mzkz.sequence import Mode, compile_performance  # noqa: E402
from beattrainer.session import judge_stream, make_recognizer  # noqa: E402
from beattrainer.synth.clips import ClipLibrary  # noqa: E402
from beattrainer.synth.render import (  # noqa: E402
    Mistake,
    RenderError,
    RenderOptions,
    render_performance,
)

KINDS = ("missing", "unexpected_sound", "wrong_word", "off_beat", "wrong_dynamics", "tempo_drift")
MODES = ("highscore", "highscore", "highscore", "challenge-1", "challenge-2", "challenge-3",
         "challenge-4", "challenge-7", "challenge-8", "challenge-9")
CONDITIONS = ((None, "pink"), (30.0, "pink"), (20.0, "babble"), (10.0, "pink"), (30.0, "babble"),
              (20.0, "pink"), (10.0, "babble"))
BLOCK = 512


def random_case(rng: np.random.Generator, clips: ClipLibrary, split: str):
    """A performance, its render options and the mistake to inject (or None)."""
    from beattrainer.mzkz.catalog import load_catalog

    catalog = load_catalog()
    mode = Mode.parse(str(rng.choice(MODES)))
    challenge = catalog.challenges.get(mode.challenge) if mode.challenge else None
    pool = sorted(c for c in catalog.cards if not challenge or c not in challenge.sorted_out)
    n_cards = challenge.cards if challenge else int(rng.integers(2, 7))
    cards = [str(c) for c in rng.choice(pool, size=n_cards, replace=False)]
    players = ("Anna", "Ben", "Cem", "Mei")[: int(rng.integers(2, 5))]
    perf = compile_performance(cards, mode, None if not challenge else
                               int(rng.integers(1, challenge.performances + 1)), players=players)
    snr, noise = CONDITIONS[int(rng.integers(len(CONDITIONS)))]
    options = dict(period_s=float(rng.uniform(0.9, 2.6)), voices=int(rng.integers(1, 5)),
                   snr_db=snr, noise=noise, jitter_ms=float(rng.uniform(0, 20)), split=split,
                   reverb=bool(rng.random() < 0.15), seed=int(rng.integers(1 << 30)))
    return mode, perf, options


def mistake_for(kind: str, perf, rng: np.random.Generator) -> Mistake | None:
    """A slot where `kind` can be injected (the renderer refuses impossible ones)."""
    slots = [s.index for s in perf.slots if s.role.value == "card"]
    rng.shuffle(slots)
    for index in slots:
        mistake = Mistake(kind, int(index))
        try:
            from beattrainer.synth.render import check_mistake

            check_mistake(perf.slots, mistake)
            return mistake
        except RenderError:
            continue
    return None


def dump(folder, name, samples, sr, truth, report, perf) -> None:
    """Keep a failed case for a closer look (`beattrainer judge` runs on it again)."""
    if not folder:
        return
    import json
    from pathlib import Path

    from beattrainer.audio import write_audio

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    write_audio(out / f"{name}.wav", samples, sr)
    (out / f"{name}.truth.json").write_text(json.dumps(truth, indent=1))
    (out / f"{name}.report.json").write_text(json.dumps(report, indent=1))
    (out / f"{name}.cmd").write_text(
        f"beattrainer judge {out / name}.wav --cards {','.join(perf.cards_in_play)} "
        f"--players {','.join(perf.players)} "
        + (f"--challenge {perf.challenge} " if perf.challenge and perf.mode.startswith('challenge')
           else f"--highscore --rules {perf.challenge} " if perf.challenge else "")
        + f"--performance {perf.number}\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=120)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--backend", default="pocketsphinx")
    parser.add_argument("--split", default="test", choices=("train", "test", "any"))
    parser.add_argument("--strictness", default="normal", choices=("lenient", "normal", "strict"))
    parser.add_argument("--syllables-in-time", action="store_true",
                        help="render every voice's syllables in time (decision 28); the "
                             "same cases otherwise")
    parser.add_argument("--dump",
                        help="write each missed or false case (audio, truth, report) here")
    parser.add_argument("--cases",
                        help="judge only these case numbers (e.g. 136,151: the same cases the "
                             "whole run renders) and dump each of them")
    parser.add_argument("--period-over", type=float, default=5.0,
                        help="list (and dump) each case whose period error exceeds this [%%]")
    args = parser.parse_args()
    only = {int(c) for c in args.cases.split(",")} if args.cases else None
    if only:
        args.n = max(only)
    rng = np.random.default_rng(args.seed)
    clips = ClipLibrary.load()
    tally = Counter()
    kinds_found = defaultdict(Counter)
    period_err, onset_err, failures, period_cases = [], [], [], []
    audio_s = cpu_s = 0.0
    done = 0
    while done < args.n:
        mode, perf, options = random_case(rng, clips, args.split)
        options["syllables_in_time"] = args.syllables_in_time
        kind = None if done % 3 == 0 else KINDS[(done // 3 * 2 + done % 3) % len(KINDS)]
        mistake = mistake_for(kind, perf, rng) if kind else None
        if kind and mistake is None:
            continue
        try:
            samples, sr, truth = render_performance(
                perf, clips, np.random.default_rng(options["seed"]),
                RenderOptions(mistake=mistake, **options))
        except RenderError:
            continue
        if mistake is not None and mistake.kind == "tempo_drift" and \
                truth["mistake"].get("drift_exceeds_15pct_from_slot") is None:
            continue  # the drift never passes 15% before the end: no mistake by the rules
        if only and done + 1 not in only:
            done += 1  # rendered only to keep the cases' order: not judged
            continue
        grid = None
        catalog = __import__("beattrainer.mzkz.catalog", fromlist=["x"]).load_catalog()
        if "no_cats" in mode.rules(catalog):
            grid = (truth["period_s"], truth["slots"][0]["expected_onset_s"])
        start = time.process_time()
        adapter = make_recognizer(perf, args.backend, args.strictness)
        report = judge_stream(perf, (samples[i:i + BLOCK] for i in range(0, len(samples), BLOCK)),
                              adapter, strictness=args.strictness, grid=grid, sr=sr)
        cpu_s += time.process_time() - start
        audio_s += len(samples) / sr
        done += 1
        data = report.to_json()
        case_name = f"case{done:03d}"
        if only:
            dump(args.dump, case_name, samples, sr, truth, data, perf)
        noise_name = options["noise"] if options["snr_db"] else "clean"
        condition = f"{noise_name} {options['snr_db'] or ''}"
        by_noise = "clean/30 dB" if not options["snr_db"] or options["snr_db"] >= 30 else \
            f"{options['snr_db']:.0f} dB"
        if mistake is None:
            tally["clean"] += 1
            tally[f"clean {by_noise}"] += 1
            if report.result == "mistake":
                tally["false_fail"] += 1
                tally[f"false_fail {by_noise}"] += 1
                failures.append(f"{case_name} clean {mode.name} {condition} "
                                f"v{options['voices']}: {data['mistake']['message']}")
                dump(args.dump, case_name, samples, sr, truth, data, perf)
        else:
            tally["mistakes"] += 1
            tally[f"n_{kind}"] += 1
            found = report.mistake
            lo = truth["mistake"]["slot"]
            hi = truth["mistake"].get("drift_exceeds_15pct_from_slot", lo)
            if found is not None and lo <= found.slot.index <= hi:
                tally["recalled"] += 1
                tally[f"recalled_{kind}"] += 1
                judged = found.mistake.value
                if kind == "tempo_drift" and judged == "off_beat" and found.slot.index < hi:
                    # before the drift passes 15% a word beyond the tolerance is off the beat
                    judged = "tempo_drift"
                kinds_found[kind][judged] += 1
                if judged != kind:
                    failures.append(f"{case_name} {kind}@{lo} {mode.name} {condition} "
                                    f"v{options['voices']}: right slot, judged as "
                                    f"{found.mistake.value}: {data['mistake']['message']}")
                    dump(args.dump, case_name, samples, sr, truth, data, perf)
            else:
                what = data["mistake"]["message"] if found is not None else report.result
                if report.period_s is None and grid is None:
                    what += ": the lead's two solos were not heard (no beat)"
                failures.append(f"{case_name} {kind}@{lo} {mode.name} {condition} "
                                f"v{options['voices']}: {what}")
                dump(args.dump, case_name, samples, sr, truth, data, perf)
        if report.period_s and grid is None:
            words = [s["word_onset_s"] for s in truth["slots"][:2]]
            if None not in words:
                true_period = words[1] - words[0]
                period_err.append(abs(report.period_s - true_period) / true_period * 100)
                if period_err[-1] > args.period_over:
                    period_cases.append(f"{case_name} period {report.period_s:.3f} s, the "
                                        f"solos' {true_period:.3f} s, {period_err[-1]:.2f}% "
                                        f"({mode.name} {condition} v{options['voices']})")
                    dump(args.dump, case_name, samples, sr, truth, data, perf)
        for slot_json, slot_truth in zip(data["slots"], truth["slots"]):
            heard = slot_json["heard"]
            if slot_json["offset_ms"] is not None and slot_truth["word_onset_s"] is not None \
                    and slot_json["expected"]["sound"] != Sound.SILENCE.value:
                onset_err.append(abs(heard["onset_s"] - slot_truth["word_onset_s"]) * 1000)

    right_kind = sum(found[kind] for kind, found in kinds_found.items())
    judged = tally["clean"] + tally["mistakes"]
    print(f"performances judged: {judged} ({tally['clean']} clean, {tally['mistakes']} with a "
          f"mistake), {args.split} voices, backend {args.backend}, {args.strictness}")
    print(f"first-mistake recall (right slot): {tally['recalled'] / max(1, tally['mistakes']):.1%}")
    for kind in KINDS:
        n = tally[f"n_{kind}"]
        if n:
            print(f"  {kind:<17} recall {tally[f'recalled_{kind}'] / n:6.1%} of {n:3d}; "
                  f"judged as {dict(kinds_found[kind])}")
    print(f"mistake-kind accuracy (at the right slot): "
          f"{right_kind / max(1, tally['recalled']):.1%}")
    print(f"false fails on clean performances: {tally['false_fail'] / max(1, tally['clean']):.1%}")
    for noise in ("clean/30 dB", "20 dB", "10 dB"):
        n = tally[f"clean {noise}"]
        if n:
            print(f"  noise {noise:<12} {tally[f'false_fail {noise}'] / n:6.1%} of {n}")
    if period_err:
        print(f"period error: median {np.median(period_err):.2f}%, p95 "
              f"{np.percentile(period_err, 95):.2f}%")
    if onset_err:
        print(f"word onset error: median {np.median(onset_err):.1f} ms, p95 "
              f"{np.percentile(onset_err, 95):.1f} ms over {len(onset_err)} timed words")
    print(f"realtime factor (whole judge, one core): {cpu_s / audio_s:.4f}")
    if failures:
        print("\nmissed or false verdicts:")
        for line in failures[:40]:
            print(f"  {line}")
    if period_cases:
        print(f"\nperiod errors over {args.period_over}%:")
        for line in period_cases:
            print(f"  {line}")


if __name__ == "__main__":
    main()
