"""Rendered performances for the referee's tests (real clips, real recognizer)."""
from __future__ import annotations

import numpy as np
import pytest

from beattrainer.mzkz.sequence import Mode, compile_performance
from beattrainer.synth.clips import ClipLibrary
from beattrainer.synth.render import Mistake, RenderOptions, render_performance


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
