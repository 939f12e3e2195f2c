"""The referee: judges each slot of a performance as it closes; the first mistake ends it."""
from beattrainer.judge.referee import *  # noqa: F403
from beattrainer.judge.referee import HIT_PAUSE_S, _first_of_series  # noqa: F401
