"""Shared fixtures: the JSON contracts, a seeded rng, the repository paths, renders.

The renders are real performances (real clips) for the referee's and the recognizer's tests.
"""
from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urljoin

import numpy as np
import pytest

from beattrainer.mzkz.sequence import Mode, compile_performance
from beattrainer.synth.clips import ClipLibrary
from beattrainer.synth.render import Mistake, RenderOptions, render_performance

REPO = Path(__file__).resolve().parent.parent
VENDORED_CONTRACTS = REPO / "docs" / "contracts"
SHARED_CONTRACTS = REPO.parent / "shared" / "contracts"


def contracts_dir() -> Path:
    """The product owner's contracts when beside the checkout, else our copy of them."""
    return SHARED_CONTRACTS if SHARED_CONTRACTS.is_dir() else VENDORED_CONTRACTS


def load_schema(name: str) -> dict:
    """A contract schema by file stem, e.g. 'sequence' or 'judge-report'."""
    return json.loads((contracts_dir() / f"{name}.schema.json").read_text())


def validate_contract(instance: dict, name: str) -> None:
    """Raise jsonschema.ValidationError unless `instance` satisfies contract `name`."""
    import jsonschema
    from referencing import Registry, Resource

    schema = load_schema(name)
    resources = []
    for path in contracts_dir().glob("*.schema.json"):
        doc = json.loads(path.read_text())
        resource = Resource.from_contents(doc)
        # refs between contracts are relative file names; register them under
        # every base they may be resolved against
        resources += [(doc["$id"], resource), (path.name, resource),
                      (urljoin(schema["$id"], path.name), resource)]
    registry = Registry().with_resources(resources)
    validator_cls = jsonschema.validators.validator_for(schema)
    validator_cls(schema, registry=registry,
                  format_checker=validator_cls.FORMAT_CHECKER).validate(instance)


@pytest.fixture
def rng() -> np.random.Generator:
    """A fixed-seed generator for tests that need randomness."""
    return np.random.default_rng(20261130)


@pytest.fixture(scope="session")
def clips() -> ClipLibrary:
    return ClipLibrary.load()


@pytest.fixture(scope="session")
def render(clips):
    """render(cards, mode="highscore", mistake=None, seed=1, **options), cached.

    Returns (perf, samples, sr, truth).
    """
    cache: dict = {}

    def _render(cards, mode="highscore", number=None, mistake=None, seed=1,
                players=("Anna", "Ben", "Cem"), **options):
        key = (tuple(cards), mode, number, mistake, seed, tuple(players),
               tuple(sorted(options.items())))
        if key not in cache:
            perf = compile_performance(cards, Mode.parse(mode), number, players=players)
            opts = RenderOptions(mistake=Mistake.parse(mistake) if mistake else None, seed=seed,
                                 **options)
            samples, sr, truth = render_performance(perf, clips, np.random.default_rng(seed), opts)
            cache[key] = (perf, samples, sr, truth)
        return cache[key]

    return _render
