"""Fusion of the layers' evidence into one decision (pure: evidence by hand)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from beattrainer.recognize.fusion import Evidence, decide
from beattrainer.recognize.vocabulary import Item

NAMES = ("ANNA", "BEN", "CEM", "MEI")


def _name_slot(word_log: dict[str, float]):
    """Decide a slot where any player's name is due (card 13) from the word model.

    Every label fits the syllables and the class heard.
    """
    evidence = Evidence(class_log={"voice": -3.0, "whispered": -8.0}, syllables=1,
                        word_log={k: float(np.log(p)) for k, p in word_log.items()})
    labels = (*NAMES, "MIEZEKATZE", "YEAH", "SILENCE")
    return decide(labels, lambda label: 1, evidence, Item(NAMES[0]), NAMES[1:])


def test_any_due_name_together_outweighs_a_likelier_single_word():
    """Hear a name where all due names together outweigh a likelier single word.

    The word model knows names only as one class, split evenly between them: each
    name alone scored under MIEZEKATZE, all of them together above it
    (benchmarks/judge.py --seed 14, ANNA in babble at 10 dB).
    """
    decision = _name_slot({"OTHER_WORD": 0.3, "MIEZEKATZE": 0.6, "YEAH": 0.05, "SILENCE": 0.05})
    assert max(decision.posteriors, key=decision.posteriors.get) == "MIEZEKATZE"
    assert decision.accepted and decision.heard.label in NAMES


def test_a_word_likelier_than_all_due_names_is_still_heard():
    """A word likelier than all due names together is what was heard: a wrong word."""
    decision = _name_slot({"OTHER_WORD": 0.01, "MIEZEKATZE": 0.97, "YEAH": 0.01, "SILENCE": 0.01})
    assert not decision.accepted and decision.heard == Item("MIEZEKATZE")


def test_names_that_tie_give_the_cards_own_name_whatever_the_hash_seed():
    """Tied names give the due card's own name, in every process alike.

    The choice once followed a set's order, which Python seeds per process: the same
    performance was reported with ANNA in one run and MEI in the next
    (benchmarks/judge.py --seed 89, case 155).
    """
    script = (
        "from tests.recognize.test_fusion import _name_slot\n"
        "d = _name_slot({'OTHER_WORD': 0.3, 'MIEZEKATZE': 0.6, 'YEAH': 0.05, 'SILENCE': 0.05})\n"
        "print(d.heard.label)\n")
    root = Path(__file__).resolve().parents[2]
    heard = {subprocess.run([sys.executable, "-c", script], cwd=root, check=True, text=True,
                            capture_output=True, env={**os.environ, "PYTHONHASHSEED": str(seed)}
                            ).stdout.strip() for seed in range(1, 6)}
    assert heard == {NAMES[0]}
