"""Our copy of the public JSON contracts must equal the product owner's."""
import json

import pytest

from tests.conftest import SHARED_CONTRACTS, VENDORED_CONTRACTS


@pytest.mark.skipif(not SHARED_CONTRACTS.is_dir(), reason="../shared is not beside the checkout")
def test_vendored_contracts_match_shared():
    shared = {p.name: json.loads(p.read_text()) for p in SHARED_CONTRACTS.glob("*.json")}
    ours = {p.name: json.loads(p.read_text()) for p in VENDORED_CONTRACTS.glob("*.json")}
    assert ours == shared
