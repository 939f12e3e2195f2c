"""Reading the recognizer's model files (`models/*.json`) with one-line errors."""
from __future__ import annotations

import json
from pathlib import Path


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
