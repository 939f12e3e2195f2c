"""The group's own voice: templates from earlier renditions, DTW matching."""
from __future__ import annotations

import numpy as np

from beattrainer.recognize.templates import (
    TemplateStore,
    dtw_distances,
    mfcc_frames,
    store_from_arrays,
    store_to_arrays,
)

LABELS = ("MIEZEKATZE", "YEAH", "BAM", "DING DONG", "WINKEKATZE", "ANNA", "SIOBHAN")


def test_later_renditions_match_the_groups_own_templates(make_slot):
    store = TemplateStore()
    for label in LABELS:
        assert store.add(make_slot(label, voice="en-andy", index=0), label)
    for label in LABELS:  # another speed, fresh noise
        distances = store.distances(make_slot(label, voice="en-andy", index=1, snr_db=15.0))
        assert min(distances, key=distances.get) == label


def test_dtw_of_a_sequence_with_itself_is_zero_and_order_matters(rng):
    a = rng.standard_normal((20, 12))
    stretched = a[(np.arange(30) * 2) // 3]  # the same sequence said 1.5 times slower
    d = dtw_distances(a, [a, a[::-1], stretched])
    assert d[0] < 1e-6 and d[1] > 0.5 and d[2] < d[1]


def test_silence_is_not_learned(make_slot):
    store = TemplateStore()
    assert not store.add(np.zeros(16000, np.float32), "YEAH")
    assert len(store) == 0 and mfcc_frames(np.zeros(10, np.float32)).shape == (0, 12)


def test_store_keeps_the_newest_templates_and_round_trips(make_slot):
    store = TemplateStore()
    for i in range(6):
        store.add(make_slot("YEAH", voice="de-f4", index=i % 2), "YEAH")
    store.add(make_slot("BAM", voice="de-f4"), "BAM")
    assert len(store.templates["YEAH"]) == 4
    again = store_from_arrays(store_to_arrays(store))
    assert again.labels() == store.labels()
    for label in store.labels():
        for a, b in zip(store.templates[label], again.templates[label]):
            np.testing.assert_array_equal(a, b)


def test_the_new_word_due_is_not_pulled_to_one_with_templates():
    """YO, due and new in this performance, must not lose to YEAH.

    YEAH must not win just because the group has said it before.
    """
    from beattrainer.recognize.fusion import Evidence, label_scores

    base = dict(class_log={"voice": 0.0, "silence": -20.0}, syllables=1,
                speech_label=None, speech_confidence=0.0, modifier_scores={})
    without = label_scores(("YO", "YEAH"), lambda label: 1,
                           Evidence(**base, template_distance=None), ("YO",), "normal")
    known = label_scores(("YO", "YEAH"), lambda label: 1,
                         Evidence(**base, template_distance={"YEAH": 3.0, "MIEZEKATZE": 9.0}),
                         ("YO",), "normal")
    assert known["YO"] - known["YEAH"] == without["YO"] - without["YEAH"]
    # a word that is neither due nor known is judged like a typical known one
    other = label_scores(("YO", "YEAH", "BAM"), lambda label: 1,
                         Evidence(**base, template_distance={"YEAH": 3.0, "MIEZEKATZE": 9.0}),
                         ("YO",), "normal")
    assert other["BAM"] < other["YO"]
