"""How much the speech backend's word tells, per word, on the TRAIN voices.

    python benchmarks/speech_reliability.py [--n 240] [--seed 301] [--save FILE]

Runs the judge benchmark's performances with the library's train voices
(`benchmarks/judge.py --split train`; never the held-out test voices) and
records, for every slot the recognizer decides with the speech backend, the
word the backend named and the labels due. A slot's injected mistake is left
out: there what is due is not what was said. Per word W in play it prints

- P(due | named W): how often W was due where the backend named it. This mixes
  in how often W is due at all (MIEZEKATZE in most slots, AAAH in few), which
  fusion's expected-item prior already counts: as a vote factor it counts it twice;
- the log likelihood ratio log P(named W | W due) / P(named W | W not due)
  (smoothed), how much the answer W speaks for W whatever is due; fusion's flat
  vote (SPEECH_WEIGHT) is compared with it in beattrainer/recognize/fusion.py.

Words only in play where they are due (the players' names, SHH) have no "not
due" slots and no ratio. `--save` pickles every recorded decision (labels,
evidence, due) for offline study.
"""
from __future__ import annotations

import argparse
import math
import pickle
from collections import Counter
from pathlib import Path

from slot_recording import run_judge_benchmark, track_slots

import beattrainer.recognize.recognizer as recognizer

PRIOR_SAID = 0.5       # Jeffreys-like smoothing: a word never named is no proof either way
PRIOR_SLOTS = 1.0
MIN_DUE = 20           # fewer slots with the word due than this: too few to trust


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=240)
    parser.add_argument("--seed", type=int, default=301)
    parser.add_argument("--save", help="pickle the recorded decisions here")
    args = parser.parse_args()
    records: list[dict] = []
    state = {"mistake_slot": None, "slot": None}

    track_slots(state)
    original_decide = recognizer.decide

    def recording_decide(labels, syllables_of, evidence, expected, alternatives=(),
                         *rest, **options):
        decision = original_decide(labels, syllables_of, evidence, expected, alternatives,
                                   *rest, **options)
        if state["slot"] is not None and state["slot"] != state["mistake_slot"]:
            records.append({"labels": tuple(labels), "due": {expected.label, *alternatives},
                            "expected": expected, "alternatives": tuple(alternatives),
                            "rest": rest, "options": options, "evidence": evidence,
                            "syllables": {label: syllables_of(label) for label in labels},
                            "accepted": decision.accepted, "heard": str(decision.heard)})
        state["slot"] = None
        return decision

    recognizer.decide = recording_decide
    run_judge_benchmark(args.n, args.seed, "train")
    if args.save:
        Path(args.save).write_bytes(pickle.dumps(records))
    print_table(records, args)


def print_table(records: list[dict], args) -> None:
    """Per word: how often named where due and where not due, and the log ratio."""
    due_n, due_said, other_n, other_said = Counter(), Counter(), Counter(), Counter()
    for record in records:
        said = record["evidence"].speech_label
        for label in record["labels"]:
            if label in record["due"]:
                due_n[label] += 1
                due_said[label] += said == label
            else:
                other_n[label] += 1
                other_said[label] += said == label
    print(f"\n# measured: benchmarks/speech_reliability.py --n {args.n} --seed {args.seed} "
          f"(train voices, {len(records)} slots)")
    print(f"{'word':<14} {'P(due|named)':>12} {'log LR':>7}  named where due, where not due")
    for word in sorted(due_n | other_n):
        named = due_said[word] + other_said[word]
        if not named:
            continue
        counts = (f"{due_said[word]:4d}/{due_n[word]:<5d} {other_said[word]:4d}/{other_n[word]}")
        if not other_n[word] or due_n[word] < MIN_DUE:
            print(f"{word:<14} {due_said[word] / named:12.2f} {'-':>7}  {counts}  (too few slots)")
            continue
        p_due = (due_said[word] + PRIOR_SAID) / (due_n[word] + PRIOR_SLOTS)
        p_other = (other_said[word] + PRIOR_SAID) / (other_n[word] + PRIOR_SLOTS)
        print(f"{word:<14} {due_said[word] / named:12.2f} {math.log(p_due / p_other):7.1f}  "
              f"{counts}")


if __name__ == "__main__":
    main()
