"""The same audio gets the same report, whatever was judged before it in the process.

The live microphone and a file share one path, and a benchmark judges hundreds of
performances in one process: a replay must agree with the run it replays. A
guard, not a fix: judged A, B, A, every slot's heard label, confidence, level and
verdict came out the same (checked again over 60 cases of a focused off_beat study,
seed 170, judged forwards then backwards in one process).
"""
from __future__ import annotations

from tests.judge.test_referee import judge

# The focused study's case 091 (seed 170): challenge 4, performance 8, two voices
# in 30 dB babble, card 42 said off the beat.
CASE_A = dict(cards=["43", "01", "29", "27", "42", "44", "21", "18"], mode="challenge-4",
              number=8, mistake="off_beat@4", seed=731020124, players=("Anna", "Ben"),
              period_s=1.5803275852978285, voices=2, snr_db=30.0, noise="babble",
              jitter_ms=9.742290970124214, split="test", syllables_in_time=False)
# A clean highscore the referee passes: a completed performance is where the
# recognizer learns the group's voice, the state most likely to leak.
CASE_B = dict(cards=["01", "04", "08", "26", "14", "11"], mode="highscore")


def _judged(render, case: dict) -> dict:
    perf, samples, sr, truth = render(**case)
    return judge(perf, samples).to_json()


def test_a_performance_is_judged_the_same_after_another(render):
    first = _judged(render, CASE_A)
    other = _judged(render, CASE_B)
    again = _judged(render, CASE_A)
    assert other["result"] == "completed"
    assert again == first
