"""The referee: judges each slot of a performance as it closes; the first mistake ends it.

The modules follow the data flow: `hearing` keeps what was heard so far (audio, onsets,
their levels); `solos` finds the lead's two solos in it and the first tempo they set;
`referee` finds each slot's word, judges it and settles the verdicts that `verdicts`
defines, down to the judge report. `expected` says what a slot asks for in the referee's
terms, `tolerances` how strict it is.
"""
from beattrainer.judge.referee import (
    HIT_PAUSE_S,
    Referee,
    _first_of_series,  # noqa: F401 (tests import it from here)
)
from beattrainer.judge.tolerances import Tolerances
from beattrainer.judge.verdicts import (
    HeardSlot,
    JudgeReport,
    MistakeKind,
    SlotRecognizer,
    SlotVerdict,
    describe_slot,
)

__all__ = ["Referee", "JudgeReport", "SlotVerdict", "HeardSlot", "MistakeKind", "Tolerances",
           "SlotRecognizer", "describe_slot", "HIT_PAUSE_S"]
