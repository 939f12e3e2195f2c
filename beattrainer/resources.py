"""Where the bundled data lives: `models/` and `sounds/` beside the package in a
source checkout, or the data packages `beattrainer.models` / `beattrainer.sounds`
in a regular install (see setup.py)."""
from __future__ import annotations

import importlib.resources
from pathlib import Path

_CHECKOUT_ROOT = Path(__file__).resolve().parent.parent


def data_dir(name: str) -> Path:
    """Return the folder of bundled data `name` ("models" or "sounds")."""
    checkout = _CHECKOUT_ROOT / name
    if checkout.is_dir():
        return checkout
    try:
        return Path(str(importlib.resources.files(f"beattrainer.{name}")))
    except ModuleNotFoundError as exc:  # pragma: no cover - broken install
        raise FileNotFoundError(f"bundled data folder {name!r} is missing") from exc


def models_dir() -> Path:
    """Folder of speech models and dictionaries."""
    return data_dir("models")


def sounds_dir() -> Path:
    """Folder of voice clips, effects and bundled performances."""
    return data_dir("sounds")
