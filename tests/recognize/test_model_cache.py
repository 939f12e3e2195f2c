"""Model files are read once per process, and again once they change."""
from __future__ import annotations

import json
import os

from beattrainer.recognize.classes import load_class_model
from beattrainer.recognize.modelfile import load_model
from beattrainer.recognize.words import load_word_model


def test_the_bundled_models_are_built_once():
    assert load_word_model() is load_word_model()
    assert load_class_model() is load_class_model()


def test_a_model_file_rewritten_is_read_again(tmp_path):
    path = tmp_path / "m.json"
    built = []

    def build(data, source):
        built.append(data)
        return dict(data)

    path.write_text(json.dumps({"v": 1}))
    first = load_model(path, "m.json", "test model", "", ValueError, build)
    assert load_model(path, "m.json", "test model", "", ValueError, build) is first
    path.write_text(json.dumps({"v": 22}))
    os.utime(path, ns=(1, 1))
    assert load_model(path, "m.json", "test model", "", ValueError, build) == {"v": 22}
    assert len(built) == 2


def test_the_cached_model_is_the_one_built_from_the_file():
    from beattrainer.recognize.modelfile import read_model_json
    from beattrainer.recognize.words import WORD_MODEL_FILE, WordModelError, _word_model_from_json

    fresh = _word_model_from_json(*read_model_json(None, WORD_MODEL_FILE, "word model", "",
                                                   WordModelError))
    assert repr(fresh) == repr(load_word_model())
