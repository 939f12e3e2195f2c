"""Fitting the word model on renders of the train voices."""
from __future__ import annotations

import numpy as np

from beattrainer.recognize.word_training import (
    balanced,
    fit_word_ensemble,
    fit_word_model,
    rendered_examples,
    slot_class,
)
from beattrainer.recognize.words import FEATURE_COUNT, OTHER_WORD, WORD_CLASSES


def test_slots_are_labelled_with_what_was_placed():
    assert slot_class({"placed": None}) == "SILENCE"
    assert slot_class({"placed": {"kind": "percussion", "label": "CLAP"}}) == "SILENCE"
    assert slot_class({"placed": {"kind": "squeak", "label": "ANNA"}}) == "SQUEAK"
    assert slot_class({"placed": {"kind": "voice", "label": "YEAH"}}) == "YEAH"
    assert slot_class({"placed": {"kind": "voice", "label": "SIOBHAN"}}) == OTHER_WORD


def test_renders_give_the_same_examples_for_the_same_seed():
    first = rendered_examples(2, "train", np.random.default_rng(5), warps=1)
    again = rendered_examples(2, "train", np.random.default_rng(5), warps=1)
    assert first[1] == again[1]
    for a, b in zip(first[0], again[0]):
        assert (a is None and b is None) or np.array_equal(a, b)


def test_a_small_fit_gives_a_working_model():
    features, classes = rendered_examples(6, "train", np.random.default_rng(2), warps=1)
    assert set(classes) <= set(WORD_CLASSES) and "MIEZEKATZE" in classes
    x, y = balanced(features, classes, np.random.default_rng(2))
    assert x.shape == (len(y), FEATURE_COUNT)
    model = fit_word_model(x, y, seed=1)
    assert set(model.classes) == set(y.tolist())
    hits = [max(p := model.log_probs(f), key=p.get) == c for f, c in zip(x, y)]
    assert np.mean(hits) > 0.6  # fits what it was shown


def test_an_ensemble_is_fitted_with_one_seed_per_member():
    features, classes = rendered_examples(3, "train", np.random.default_rng(4))
    x, y = balanced(features, classes, np.random.default_rng(4))
    ensemble = fit_word_ensemble(x, y, seed=1, members=2)
    assert len(ensemble.members) == 2
    assert not np.array_equal(ensemble.members[0].hidden_w, ensemble.members[1].hidden_w)
    assert set(ensemble.classes) == set(y.tolist())
