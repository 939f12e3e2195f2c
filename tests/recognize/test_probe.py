"""Probing a window leaves the recognizer as it was (the referee's solo search)."""
from beattrainer.recognize import SlotContext, SlotRecognizer


def test_probe_leaves_no_trace(make_slot):
    rec = SlotRecognizer.create(backend="pocketsphinx", vocabulary=("MIEZEKATZE", "YEAH", "YO"))
    word, quiet_room = make_slot("MIEZEKATZE"), make_slot("SILENCE", snr_db=5.0)
    fresh = rec.recognize(word, SlotContext(expected="MIEZEKATZE"))
    twin = SlotRecognizer.create(backend="pocketsphinx", vocabulary=("MIEZEKATZE", "YEAH", "YO"))
    for _ in range(3):
        twin.probe(quiet_room, SlotContext(expected="YEAH"))
        twin.probe(word, SlotContext(expected="MIEZEKATZE"))
    after = twin.recognize(word, SlotContext(expected="MIEZEKATZE"))
    assert after == fresh and after.confidence == fresh.confidence
