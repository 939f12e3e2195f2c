"""Shared fixtures: the JSON contracts, a seeded rng, the repository paths."""
from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urljoin

import numpy as np
import pytest

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
