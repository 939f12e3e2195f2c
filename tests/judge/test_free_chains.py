"""Free-timing cards following each other: the grid stays lost until a slot is heard."""
from tests.judge.test_referee import judge


def test_silent_free_card_after_a_free_card(render):
    # 10 (slow-mo, free) then 34 (statue: silent and free) then 04, three rounds
    perf, samples, sr, truth = render(["10", "34", "04"], jitter_ms=5.0, seed=12, voices=2)
    report = judge(perf, samples)
    data = report.to_json()
    assert report.result == "completed", data["mistake"]
    by_card = {}
    for s in data["slots"]:
        by_card.setdefault(s["card"], []).append(s)
    # the statue's time is free and YEAH re-anchors the grid: neither is timed
    assert all(s["offset_ms"] is None for s in by_card["34"] + by_card["04"])
    # slow-mo in rounds 2 and 3 is timed on the grid YEAH set
    assert all(abs(s["offset_ms"]) < 60 for s in by_card["10"][1:])
