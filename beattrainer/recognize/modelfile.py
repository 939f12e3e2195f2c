"""Reading the recognizer's model files (`models/*.json`) with one-line errors."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Callable, TypeVar

Model = TypeVar("Model")
# models built from their files in this process: path -> ((mtime, size), builder, model)
_BUILT: dict[str, tuple[tuple[int, int], Callable, object]] = {}


def read_model_json(path: Path | None, file_name: str, what: str, made_by: str,
                    error: type[ValueError]) -> tuple[dict, str]:
    """The parsed JSON of a model file and the path it came from.

    Parameters
    ----------
    path : the file, or None for `file_name` in the bundled `models/`
    what : the model's name in messages ("word model")
    made_by : the command that makes the file, named when it is missing
    error : the exception raised (with a one-line message) for a missing or
        unreadable file
    """
    if path is None:
        from beattrainer.resources import models_dir

        path = models_dir() / file_name
    try:
        return json.loads(Path(path).read_text("utf-8")), str(path)
    except OSError:
        raise error(f"{path}: no {what} ({made_by})") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise error(f"{path}: broken {what} ({exc.__class__.__name__})") from None


def load_model(path: Path | None, file_name: str, what: str, made_by: str,
               error: type[ValueError], build: Callable[[dict, str], Model]) -> Model:
    """`build(*read_model_json(...))`, done once per process while the file stays the same.

    The judge builds a recognizer for every performance; parsing the word model's JSON
    each time cost about a hundredth of its CPU time. The models are frozen, so one
    object serves every recognizer; a file rewritten since (a retrained model: another
    modification time or size) is read again.
    """
    if path is None:
        from beattrainer.resources import models_dir

        path = models_dir() / file_name
    key = os.path.abspath(path)
    try:
        info = os.stat(key)
        stamp = (info.st_mtime_ns, info.st_size)
    except OSError:
        stamp = None  # (read_model_json raises the one-line error)
    built = _BUILT.get(key)
    if stamp is not None and built is not None and built[0] == stamp and built[1] == build:
        return built[2]
    model = build(*read_model_json(path, file_name, what, made_by, error))
    if stamp is not None:
        _BUILT[key] = (stamp, build, model)
    return model
