"""Look closer at one case `benchmarks/judge.py --dump` kept.

Judge it again and print, per slot, the rendered truth beside what the referee
heard and decided.

    python benchmarks/judge_case.py /tmp/jd11/case013 [--onsets]

Each line: slot index, beat, what was due; the truth (label, kind, modifier, word
onset, placed mistake); the heard onset, label, confidence, level, offset and the
verdict. `--onsets` also lists the detector's events (w = starts a word,
p = percussion) with their strength.
"""
from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
from pathlib import Path  # noqa: E402

from beattrainer.audio import read_audio  # noqa: E402
from beattrainer.dsp.onsets import OnsetDetector  # noqa: E402
from beattrainer.events import Onset, OnsetKind  # noqa: E402
from beattrainer.judge import Referee  # noqa: E402
from beattrainer.mzkz.sequence import Mode, compile_performance  # noqa: E402
from beattrainer.session import make_recognizer  # noqa: E402

BLOCK = 512


def performance_of(truth: dict):
    """Compile the mode and performance that `truth` was rendered from."""
    mode = Mode.parse(truth["mode"])
    players = tuple(truth["players"])
    return mode, compile_performance(truth["cards"], mode, truth["performance"] if
                                     mode.challenge else None, players=players)


def main() -> None:
    """Judge the case again and print it slot by slot."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("case", help="path without extension, e.g. /tmp/jd11/case013")
    parser.add_argument("--onsets", action="store_true")
    parser.add_argument("--layers", action="store_true",
                        help="print each recognised slot's evidence per layer")
    parser.add_argument("--solos", action="store_true",
                        help="list the solo words the recognizer heard and the pairs scored")
    args = parser.parse_args()
    base = Path(args.case)
    truth = json.loads(base.with_suffix(".truth.json").read_text())
    samples, sr = read_audio(base.with_suffix(".wav"))
    mode, perf = performance_of(truth)
    grid = None
    from beattrainer.mzkz.catalog import load_catalog

    if "no_cats" in mode.rules(load_catalog()):
        grid = (truth["period_s"], truth["slots"][0]["expected_onset_s"])
    adapter = make_recognizer(perf, "pocketsphinx")
    adapter.start_performance()
    layers = _record_layers(adapter) if args.layers else {}
    referee = Referee(perf, OnsetDetector(sr), adapter, sr, "normal", grid)
    referee.run(samples[i:i + BLOCK] for i in range(0, len(samples), BLOCK))
    report = referee.report()
    opts = truth["options"]
    print(f"{truth['mode']} cards {truth['cards']} v{opts['voices']} "
          f"{opts['noise']} {opts['snr_db']} period {truth['period_s']:.3f} "
          f"heard {report.period_s and round(report.period_s, 3)} "
          f"mistake {truth['mistake']}")
    print(f"group {[g['voice'] for g in truth['group']]}")
    for verdict, st in zip(report.slots, truth["slots"]):
        placed = st.get("placed") or {}
        due = verdict.slot.expected
        true_on = st["word_onset_s"]
        heard = verdict.heard
        print(f"{verdict.slot.index:2d} b{verdict.slot.beat:<3} "
              f"due {'/'.join(due.labels) or due.sound.value}"
              f"{'/' + due.modifier.value if due.modifier else ''}"
              f"{' FREE' if due.free_timing else ''}\n"
              f"     truth {placed.get('label')} {placed.get('kind')} "
              f"{placed.get('modifier') or ''} at {true_on and round(true_on, 3)} "
              f"(exp {round(st['expected_onset_s'], 3)}) {st.get('mistake') or ''}\n"
              f"     heard {heard and heard.label} "
              f"c={heard and heard.confidence and round(heard.confidence, 2)} "
              f"lvl={heard and heard.level_db and round(heard.level_db, 1)} "
              f"at {verdict.heard_onset_s and round(verdict.heard_onset_s, 3)} "
              f"(exp {verdict.expected_onset_s and round(verdict.expected_onset_s, 3)}) "
              f"off={verdict.offset_ms and round(verdict.offset_ms)} -> {verdict.verdict} "
              f"{verdict.mistake.value if verdict.mistake else ''} {verdict.message}")
        for line in layers.get(verdict.slot.index, ()):
            print("       ", line)
    if args.solos:
        accepted = sorted(k for k, ok in referee.solo_finder.solo_words.items() if ok)
        print("solo words heard at", [(round(a, 3), round(b, 3)) for a, b in accepted])
        for (first, second), (hits, _) in sorted(referee.solo_finder.beats_kept.items()):
            print(f"  pair {first:.3f} {second:.3f} kept {hits}")
    if args.onsets:
        hearing = referee.hearing
        events = sorted([*hearing.syllables, *hearing.percussion], key=lambda o: o.time_s)
        for o in events:
            assert isinstance(o, Onset)
            tag = "p" if o.kind is OnsetKind.PERCUSSION else ("w" if o.starts_word else " ")
            print(f"  {o.time_s:7.3f} {tag} {o.strength:5.1f}")


def _top(scores: dict | None, n: int = 3) -> str:
    if not scores:
        return "-"
    best = sorted(scores.items(), key=lambda kv: -kv[1])[:n]
    return " ".join(f"{k}:{v:.2f}" for k, v in best)


def _record_layers(adapter) -> dict[int, list[str]]:
    """Wrap the adapter so every slot it recognises keeps a line of evidence.

    One line per layer's answer: class model, speech, word model, templates,
    modifiers, and the fused posteriors.
    """
    recognizer = adapter.recognizer
    lines: dict[int, list[str]] = {}
    last: list = []
    judge, recognize_slot = recognizer.judge, adapter.recognize_slot

    def judging(analysis, ctx):
        heard = judge(analysis, ctx)
        last[:] = [analysis, ctx, heard]
        return heard

    def recognizing(samples, expected, slot, syllable_onsets_s, **options):
        heard_slot = recognize_slot(samples, expected, slot, syllable_onsets_s, **options)
        analysis, ctx, heard = last
        speech = analysis.speech
        templates = {k: -v for k, v in (analysis.template_distance or {}).items()}
        reference = recognizer.reference(ctx.group, ctx.performer)
        modifiers = recognizer._modifier_scores(analysis.acoustics, reference)
        a = analysis.acoustics
        change = a.level_db - reference.level_db \
            if reference and a.sounding and a.level_db is not None else None
        lines.setdefault(slot.index, []).append(
            f"[{len(samples) / 16000:.2f}s syl={heard.syllables} "
            f"dB {change and round(change, 1)}] class {_top(analysis.class_log)}"
            f" | speech {speech and speech.label}:{speech and round(speech.confidence, 2)}"
            f" | word {_top(analysis.word_log)} | tmpl {_top(templates, 2)}"
            f" | mod {_top(modifiers, 2)} | post {_top(heard.posteriors)}")
        return heard_slot

    recognizer.judge = judging
    adapter.recognize_slot = recognizing
    return lines


if __name__ == "__main__":
    main()
