"""The dynamics model: quiet, loud and high against the group's own normal voice."""
from __future__ import annotations

import json

import numpy as np
import pytest

from beattrainer.recognize.acoustic import GroupProfile, describe_slot
from beattrainer.recognize.dynamics import (
    FEATURE_NAMES,
    DynamicsModel,
    DynamicsModelError,
    dynamics_features,
    load_dynamics_model,
)
from beattrainer.recognize.dynamics_training import accept_rates, performance_examples

VOICES = ("de-m7", "de-f4", "en-andy")  # the held-out voices


@pytest.fixture(scope="module")
def model() -> DynamicsModel:
    return load_dynamics_model()


def profile(make_slot, voice):
    return GroupProfile.from_acoustics([describe_slot(make_slot("MIEZEKATZE", voice=voice,
                                                                index=i)) for i in (0, 1)])


@pytest.mark.parametrize("voice", VOICES)
@pytest.mark.parametrize("said, level_dbfs, clip_modifier", [
    ("normal", -24.0, None), ("quiet", -36.0, None), ("loud", -16.0, None),
    ("high", -24.0, "high"),
])
def test_each_delivery_is_told_apart(model, make_slot, voice, said, level_dbfs, clip_modifier):
    slot = make_slot("MIEZEKATZE", voice=voice, modifier=clip_modifier, level_dbfs=level_dbfs,
                     index=2 if clip_modifier is None else 0)
    p = model.probabilities(describe_slot(slot), profile(make_slot, voice))
    assert max(p, key=p.get) == said, p


def test_silence_has_no_delivery(model, make_slot):
    quiet_room = describe_slot(np.zeros(24_000, np.float32))
    assert dynamics_features(quiet_room, profile(make_slot, "de-m7")) is None
    assert not any(model.probabilities(quiet_room, profile(make_slot, "de-m7")).values())


def test_the_model_survives_its_file_format(model, tmp_path, make_slot):
    path = tmp_path / "dynamics.json"
    path.write_text(json.dumps(model.to_json()))
    again = load_dynamics_model(path)
    acoustics = describe_slot(make_slot("MIEZEKATZE", voice="de-f4", modifier="high"))
    group = profile(make_slot, "de-f4")
    for name, value in model.probabilities(acoustics, group).items():
        assert again.probabilities(acoustics, group)[name] == pytest.approx(value, abs=1e-4)


@pytest.mark.parametrize("content, message", [
    ("[", "broken dynamics model"), ('{"features": ["x"]}', "other features"),
])
def test_a_broken_model_file_is_a_one_line_error(tmp_path, content, message):
    path = tmp_path / "dynamics.json"
    path.write_text(content)
    with pytest.raises(DynamicsModelError, match=message):
        load_dynamics_model(path)


def test_training_examples_come_with_the_recognizers_reference(render_dynamics):
    examples = performance_examples(*render_dynamics)
    said = {c for _, c, _ in examples}
    assert {"normal", "quiet", "loud", "high"} <= said
    level = FEATURE_NAMES.index("level_change")
    mean_level = {c: np.mean([f[level] for f, s, _ in examples if s == c]) for c in said}
    assert mean_level["quiet"] < mean_level["normal"] < mean_level["loud"]


def test_accept_rates_count_each_due_modifier():
    features = np.zeros(len(FEATURE_NAMES))
    examples = [(features, "high", {}), (features, "normal", {})]
    # a scorer that calls everything high: the high word is rightly accepted where
    # high is due; of the five wrong pairs (high said, quiet or loud due; normal
    # said, any of three due) only the normal word where high is due is accepted
    ca, wa = accept_rates(examples, lambda _f, _r: {"high": 1.0})
    assert ca == 1.0 and wa == pytest.approx(1 / 5)


@pytest.fixture(scope="module")
def render_dynamics():
    from beattrainer.mzkz.sequence import Mode, compile_performance
    from beattrainer.synth.clips import ClipLibrary
    from beattrainer.synth.render import RenderOptions, render_performance

    perf = compile_performance(["08", "01", "14", "46"], Mode.parse("highscore"), None,
                               players=("Anna", "Ben"))
    samples, _, truth = render_performance(perf, ClipLibrary.load(), np.random.default_rng(3),
                                           RenderOptions(voices=2, split="train", seed=3))
    return perf, samples, truth
