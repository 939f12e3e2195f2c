"""Whether pocketsphinx's own score tells when its word is wrong (measuring, no tuning).

    python benchmarks/speech_confidence.py [--n 120] [--seed 43] [--split test] [--save FILE]

Runs the judge benchmark's performances (`benchmarks/judge.py`) with the
pocketsphinx backend and records, for every slot decided with a speech answer,
candidate per-utterance confidences pocketsphinx can give with the slot grammar
(bestpath off, so `get_prob()` is always 1.0 and never used):

- `score_per_frame`: the best path's score per frame [natural log];
- `word_ascore_per_frame`: the named word's acoustic score per frame of it;
- `loop_margin_per_frame`: the best path's score less a free phone loop's
  (a garbage model: a second decoder over the same audio) per frame, and the
  CPU time that second decode costs.

Per candidate it prints how well it separates answers naming a due word from
answers naming another (ROC AUC over slots without an injected mistake); then
it replays every fusion decision with the fixed confidence replaced, by one
candidate mapped to no vote..the fixed vote, and by an oracle that knows which
answers are wrong (the bound on what any confidence of this backend can win).
`--load FILE` replays records saved with `--save` without judging again.

Measured 2026-11-30 (test voices; seed 43 --n 240, seed 39 --n 120): pocketsphinx
names a word not due in 925 of 1967 and 464 of 934 named slots said as due, yet
even the oracle turns only 2 of the 7 and 0 of the 6 wrongly rejected ones with
an answer (BUUUH heard as WUIKKIWUIKKI, MIEZEKATZE as OOOH; other layers reject
the rest). score_per_frame (AUC 0.64 / 0.62, free) mapped as below fixed the
first and let AAAH said for MIEZEKATZE pass on 43; on 39 it rejected a
WUIKKIWUIKKI said as due and let a MIEZEKATZE said for MIAU pass. The phone
loop (AUC 0.68 / 0.67) costs 32-34 ms CPU per slot, twice the whole recognizer. A
garbage word in the grammar (pocketsphinx answering none) can at best do what
the oracle does: none is no vote.
"""
from __future__ import annotations

import argparse
import dataclasses
import math
import pickle
import time
from collections import Counter
from pathlib import Path

import numpy as np
from slot_recording import run_judge_benchmark, track_slots

import beattrainer.recognize.recognizer as recognizer
import beattrainer.recognize.speech as speech
from beattrainer.recognize.fusion import decide


@dataclasses.dataclass(frozen=True)
class MeasuredResult(speech.SpeechResult):
    features: dict = dataclasses.field(default_factory=dict)


def log_score(value: float) -> float:
    """A score the Python API gave as logmath.exp(score), as its natural log."""
    return math.log(max(value, 1e-300))


_PHONE_LOOP = {}


def phone_loop_decoder():
    """A second decoder searching a free phone loop: the garbage model's score."""
    if "decoder" not in _PHONE_LOOP:
        import tempfile

        import pocketsphinx
        hmm = Path(pocketsphinx.get_model_path()) / "en-us" / "en-us"
        tmp = tempfile.mkdtemp(prefix="phone-loop-")
        dict_path = Path(tmp) / "one.dict"
        dict_path.write_text("AAAH AA\n", "utf-8")
        config = pocketsphinx.Config(hmm=str(hmm), dict=str(dict_path), lm=None,
                                     loglevel="FATAL", bestpath=False, ds=2, cmn="batch",
                                     samprate=speech.SAMPLE_RATE)
        decoder = pocketsphinx.Decoder(config)
        decoder.add_allphone_file("loop", None)
        decoder.activate_search("loop")
        _PHONE_LOOP["decoder"] = decoder
    return _PHONE_LOOP["decoder"]


def measured_start(self):
    self._measured_audio = []
    ORIGINAL_START(self)


def measured_feed(self, samples):
    self._measured_audio.append(np.asarray(samples, dtype=np.float32))
    ORIGINAL_FEED(self, samples)


def measured_finish(self):
    if not self._running:
        self.start()
    result = ORIGINAL_FINISH(self)
    decoder = self._decoder
    hyp = decoder.hyp()
    n_frames = max(decoder.n_frames(), 1)
    features = {"score": log_score(hyp.score) if hyp else None, "n_frames": n_frames,
                "segs": [(s.word, s.start_frame, s.end_frame, log_score(s.ascore))
                         for s in decoder.seg() or ()]}
    loop = phone_loop_decoder()
    audio = np.concatenate(self._measured_audio) if self._measured_audio else np.zeros(320)
    t0 = time.process_time()
    loop.reinit_feat()
    loop.start_utt()
    loop.process_raw(speech.to_pcm16(audio))
    loop.end_utt()
    features["loop_cpu_s"] = time.process_time() - t0
    loop_hyp = loop.hyp()
    features["loop_score"] = log_score(loop_hyp.score) if loop_hyp else None
    features["loop_text"] = loop_hyp.hypstr if loop_hyp else ""
    features["loop_frames"] = loop.n_frames()
    return MeasuredResult(result.label, result.confidence, result.text, features)


ORIGINAL_START = speech.SphinxBackend.start
ORIGINAL_FEED = speech.SphinxBackend.feed
ORIGINAL_FINISH = speech.SphinxBackend.finish


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=120)
    parser.add_argument("--seed", type=int, default=43)
    parser.add_argument("--split", default="test")
    parser.add_argument("--save", help="pickle the recorded decisions here")
    parser.add_argument("--load", help="replay decisions pickled by --save (no judge run)")
    args = parser.parse_args()
    if args.load:
        print_summary(pickle.loads(Path(args.load).read_bytes()))
        return
    records: list[dict] = []
    state = {"mistake_slot": None, "slot": None, "speech": None}

    track_slots(state)
    original_judge = recognizer.SlotRecognizer.judge

    def recording_judge(self, analysis, ctx):
        state["speech"] = analysis.speech
        return original_judge(self, analysis, ctx)

    original_decide = recognizer.decide

    def recording_decide(labels, syllables_of, evidence, expected, alternatives=(),
                         *rest, **options):
        decision = original_decide(labels, syllables_of, evidence, expected, alternatives,
                                   *rest, **options)
        if state["slot"] is not None:
            result = state["speech"]
            records.append({"labels": tuple(labels), "due": {expected.label, *alternatives},
                            "expected": expected, "alternatives": tuple(alternatives),
                            "rest": rest, "options": options, "evidence": evidence,
                            "syllables": {label: syllables_of(label) for label in labels},
                            "mistake": state["slot"] == state["mistake_slot"],
                            "features": getattr(result, "features", None),
                            "accepted": decision.accepted, "heard": str(decision.heard)})
        state["slot"] = None
        return decision

    recognizer.SlotRecognizer.judge = recording_judge
    recognizer.decide = recording_decide
    speech.SphinxBackend.finish = measured_finish
    speech.SphinxBackend.start = measured_start
    speech.SphinxBackend.feed = measured_feed
    run_judge_benchmark(args.n, args.seed, args.split)
    if args.save:
        Path(args.save).write_bytes(pickle.dumps(records))
    print_summary(records)


def word_ascore_per_frame(features: dict) -> float:
    """The named word's acoustic score per frame of its segment."""
    words = [(e - b + 1, a) for w, b, e, a in features["segs"]
             if not w.startswith(("<", "(", "["))]
    frames = sum(n for n, _ in words)
    return sum(a for _, a in words) / frames if frames else float("nan")


CANDIDATES = {
    "score_per_frame": lambda f: f["score"] / f["n_frames"],
    "word_ascore_per_frame": word_ascore_per_frame,
    "loop_margin_per_frame": lambda f: (f["score"] - f["loop_score"]) / f["n_frames"],
}


def auc(positive: list[float], negative: list[float]) -> float:
    """P(a random positive scores above a random negative), ties half."""
    if not positive or not negative:
        return float("nan")
    pos, neg = np.asarray(positive), np.asarray(negative)
    return float(((pos[:, None] > neg[None, :]).mean()
                  + 0.5 * (pos[:, None] == neg[None, :]).mean()))


# The mapping tried: a score per frame [natural log] at or below NONE gives the
# answer no vote (confidence -0.5 cancels fusion's SPEECH_WEIGHT * (0.5 + c)),
# at or above FULL the fixed confidence; the bounds are seed 43's medians for
# answers naming another word and a due one, widened.
REPLAY_CANDIDATE = "score_per_frame"
REPLAY_NONE, REPLAY_FULL = -0.005, -0.002
NO_VOTE_CONFIDENCE = -0.5


def mapped_confidence(record: dict) -> float:
    value = CANDIDATES[REPLAY_CANDIDATE](record["features"])
    share = np.clip((value - REPLAY_NONE) / (REPLAY_FULL - REPLAY_NONE), 0.0, 1.0)
    return NO_VOTE_CONFIDENCE \
        + (speech.SPHINX_HYP_CONFIDENCE - NO_VOTE_CONFIDENCE) * float(share)


def oracle_confidence(record: dict) -> float:
    """No vote for a wrong answer in a slot said as due, the full one otherwise."""
    wrong = record["evidence"].speech_label not in record["due"]
    return NO_VOTE_CONFIDENCE if wrong and not record["mistake"] else 1.0


def replay(records: list[dict], confidence_of) -> Counter:
    """How the decisions change with the speech answer's confidence replaced.

    Keys: (slot kind, accepted before, accepted after); a slot without an
    injected mistake should be accepted, a mistake's slot mostly not.
    """
    changes: Counter = Counter()
    for r in records:
        if not r["features"] or not r["evidence"].speech_label:
            continue
        evidence = dataclasses.replace(r["evidence"], speech_confidence=confidence_of(r))
        decision = decide(r["labels"], r["syllables"].get, evidence, r["expected"],
                          r["alternatives"], *r["rest"], **r["options"])
        changes["mistake" if r["mistake"] else "said as due", r["accepted"],
                decision.accepted] += 1
    return changes


def print_summary(records: list[dict]) -> None:
    named = [r for r in records if r["features"] and r["evidence"].speech_label
             and not r["mistake"]]
    right = [r for r in named if r["evidence"].speech_label in r["due"]]
    wrong = [r for r in named if r["evidence"].speech_label not in r["due"]]
    print(f"\n# slots named (no mistake): {len(named)}, naming a due word {len(right)}, "
          f"another {len(wrong)}")
    for name, fn in CANDIDATES.items():
        pos = [fn(r["features"]) for r in right]
        neg = [fn(r["features"]) for r in wrong]
        print(f"{name:<22} AUC {auc(pos, neg):.3f}  median right {np.median(pos):.4f} "
              f"wrong {np.median(neg):.4f}")
    for name, confidence_of in (("mapped " + REPLAY_CANDIDATE, mapped_confidence),
                                ("oracle", oracle_confidence)):
        changes = replay(records, confidence_of)
        print(f"replayed with the {name} confidence: "
              + ", ".join(f"{kind} {'acc' if before else 'rej'}->{'acc' if after else 'rej'} "
                          f"{n}" for (kind, before, after), n in sorted(changes.items())))
    cpu = [r["features"]["loop_cpu_s"] for r in records if r["features"]]
    if cpu:
        print(f"phone loop CPU per slot: mean {1000 * np.mean(cpu):.2f} ms, "
              f"p95 {1000 * np.percentile(cpu, 95):.2f} ms")


if __name__ == "__main__":
    main()
