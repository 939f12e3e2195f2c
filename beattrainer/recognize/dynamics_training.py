"""Fit the dynamics model on renders of the clip library's train voices.

Run `python -m beattrainer.recognize.dynamics_training [--performances 300] [--seed 1]`;
it writes `models/dynamics.json` and prints the due-aware correct and wrong
accept rates of the model and of the fixed rules it replaces, on held-out test
voices (never used for fitting). Needs scikit-learn (a dependency of librosa)
for fitting only.

Every performance has the quiet, loud and high cards (08, 14, 46) and three
others; every fourth is challenge 9 (one player per slot). Each MIEZEKATZE
slot said normally, quiet, loud or high is an example, with the reference the
recognizer would use at that point: the performer's (else anyone's) last normal
words, and the solos' profile.
"""
from __future__ import annotations

import argparse
import json

import numpy as np

from beattrainer.recognize.acoustic import (
    GroupProfile,
    describe_slot,
    dynamics_scores,
    reference_profile,
)
from beattrainer.recognize.dynamics import (
    DYNAMICS_MODEL_FILE,
    FEATURE_NAMES,
    DynamicsModel,
    dynamics_features,
    load_dynamics_model,
)
from beattrainer.recognize.word_training import CONDITIONS, PLAYER_NAMES, slot_windows

DYNAMIC_CARDS = ("08", "14", "46")
NOT_NORMAL_WORDS = ("SHH", "HISS", "KISS", "ZOMBIE", "SQUEAK")
DUE = ("quiet", "loud", "high")


def performance_examples(perf, samples: np.ndarray, truth: dict):
    """(features, class, rule scores) of the performance's MIEZEKATZE slots."""
    slots = {s.index: s for s in perf.slots}
    normal: list = []        # (performer, acoustics) of plain words, as the recognizer keeps
    solos_and_plain: list = []  # plain MIEZEKATZEs, as the referee's group profile
    out = []
    for slot_truth, a, b in slot_windows(truth, len(samples)):
        placed = slot_truth["placed"]
        if placed is None or placed["kind"] != "voice":
            continue
        acoustics = describe_slot(samples[max(a, 0):b])
        if not acoustics.sounding or acoustics.level_db is None:
            continue
        performer = slots[slot_truth["index"]].performer
        group = GroupProfile.from_acoustics(solos_and_plain[-8:]) if solos_and_plain else None
        reference = reference_profile(normal, performer, group)
        modifier = placed["modifier"]
        if placed["label"] == "MIEZEKATZE" and reference is not None \
                and modifier in (None, *DUE):
            out.append((dynamics_features(acoustics, reference), modifier or "normal",
                        dynamics_scores(acoustics, reference)))
        if modifier is None and placed["label"] not in NOT_NORMAL_WORDS:
            normal.append((performer, acoustics))
            if placed["label"] == "MIEZEKATZE":
                solos_and_plain.append(acoustics)
    return out


def rendered_examples(n_performances: int, split: str, rng: np.random.Generator):
    """Examples from `n_performances` seeded renders of `split` voices."""
    from beattrainer.mzkz.catalog import load_catalog
    from beattrainer.mzkz.sequence import Mode, compile_performance
    from beattrainer.synth.clips import ClipLibrary
    from beattrainer.synth.render import RenderError, RenderOptions, render_performance

    library, catalog = ClipLibrary.load(), load_catalog()
    others = sorted(set(catalog.cards) - set(DYNAMIC_CARDS))
    examples = []
    for p in range(n_performances):
        cards = [*DYNAMIC_CARDS, *(str(c) for c in rng.choice(others, 3, replace=False))]
        cards = [cards[i] for i in rng.permutation(len(cards))]
        mode, number = ("challenge-9", 1) if p % 4 == 3 else ("highscore", None)
        players = PLAYER_NAMES[:int(rng.integers(2, 5))]
        snr_db, noise = CONDITIONS[int(rng.integers(len(CONDITIONS)))]
        options = RenderOptions(period_s=float(rng.uniform(0.9, 2.6)),
                                voices=int(rng.integers(1, 5)), snr_db=snr_db, noise=noise,
                                jitter_ms=10.0, split=split, reverb=bool(rng.random() < 0.15),
                                seed=int(rng.integers(1 << 30)))
        try:
            perf = compile_performance(cards, Mode.parse(mode), number, players=players)
            samples, _, truth = render_performance(perf, library,
                                                   np.random.default_rng(options.seed), options)
        except (RenderError, ValueError):
            continue
        examples.extend(performance_examples(perf, samples, truth))
    return examples


def fit_dynamics_model(features: np.ndarray, classes: np.ndarray) -> DynamicsModel:
    """Multinomial logistic regression (scikit-learn, imported here only)."""
    from sklearn.linear_model import LogisticRegression

    fit = LogisticRegression(C=10.0, max_iter=3000, class_weight="balanced")
    fit.fit(features, classes)
    return DynamicsModel(tuple(str(c) for c in fit.classes_), fit.coef_, fit.intercept_)


def accept_rates(examples, scores_of) -> tuple[float, float]:
    """Correct and wrong accept rates where quiet, loud or high is due (score >= 0.5)."""
    right, wrong = [], []
    for features, said, rules in examples:
        scores = scores_of(features, rules)
        for due in DUE:
            (right if said == due else wrong).append(scores.get(due, 0.0) >= 0.5)
    return float(np.mean(right)), float(np.mean(wrong))


def main() -> None:
    """Fit, write and evaluate the dynamics model."""
    from beattrainer.resources import models_dir

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--performances", type=int, default=300)
    parser.add_argument("--test-performances", type=int, default=80)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--evaluate-only", action="store_true")
    args = parser.parse_args()
    path = models_dir() / DYNAMICS_MODEL_FILE
    if not args.evaluate_only:
        train = rendered_examples(args.performances, "train", np.random.default_rng(args.seed))
        model = fit_dynamics_model(np.array([f for f, _, _ in train]),
                                   np.array([c for _, c, _ in train]))
        path.write_text(json.dumps(model.to_json(), indent=1) + "\n", "utf-8")
        print(f"wrote {path} from {len(train)} MIEZEKATZE slots")
    model = load_dynamics_model(path)
    test = rendered_examples(args.test_performances, "test",
                             np.random.default_rng(args.seed + 1000))

    def model_scores(features, _rules):
        logits = model.coef @ features + model.intercept
        p = np.exp(logits - logits.max())
        return dict(zip(model.classes, p / p.sum()))

    lead_alone = FEATURE_NAMES.index("lead_alone")
    first_words = [e for e in test if e[0][lead_alone]]
    for name, scores_of in (("model", model_scores), ("fixed rules", lambda _f, r: r)):
        for part, examples in (("", test), (" against the lead's solos", first_words)):
            ca, wa = accept_rates(examples, scores_of)
            print(f"test voices, {name:<11}: correct accept {ca:.1%}, wrong accept {wa:.1%} "
                  f"({len(examples)} slots{part}, quiet/loud/high due)")


if __name__ == "__main__":
    main()
