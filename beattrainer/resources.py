"""Where the bundled data (`models/` and `sounds/`) lives.

Beside the package in a source checkout, or inside the installed package
(`beattrainer/models`, `beattrainer/sounds`: setup.py maps them there for a
regular install).
"""
from __future__ import annotations

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """Return the folder of bundled data `name` ("models" or "sounds")."""
    for candidate in (_PACKAGE_DIR.parent / name, _PACKAGE_DIR / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"bundled data folder {name!r} is missing; reinstall beattrainer")


def models_dir() -> Path:
    """Folder of speech models and dictionaries."""
    return data_dir("models")


def sounds_dir() -> Path:
    """Folder of voice clips, effects and bundled performances."""
    return data_dir("sounds")
