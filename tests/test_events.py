from beattrainer.events import Onset, OnsetKind, Word, final_events, first_reports_s
from beattrainer.judge.hearing import Hearing


def reports():
    """A word start reported at 1.000 s, corrected to 1.012 s, between other events."""
    first = Onset(1.000, 30.0, detected_s=1.015, starts_word=True)
    hit = Onset(1.000, 20.0, OnsetKind.PERCUSSION, detected_s=1.02)
    second = Onset(1.200, 25.0, detected_s=1.21)
    corrected = Onset(1.012, 30.0, detected_s=1.14, starts_word=True, replaces_s=1.000)
    word = Word(1.012, (1.012, 1.200), detected_s=1.5)
    return first, hit, second, corrected, word


def test_a_correction_takes_the_place_of_the_onset_it_corrects():
    first, hit, second, corrected, word = reports()
    assert final_events([first, hit, second, corrected, word]) == [corrected, hit, second, word]


def test_a_correction_without_its_earlier_report_is_kept():
    _, _, second, corrected, _ = reports()
    assert final_events([second, corrected]) == [second, corrected]


def test_a_corrected_onset_counts_as_reported_when_first_reported():
    first, _, second, corrected, _ = reports()
    assert first_reports_s([first, second, corrected]) == {1.012: 1.015, 1.200: 1.21}


def test_the_listener_keeps_the_corrected_word_start():
    first, hit, second, corrected, _ = reports()
    hearing = Hearing(16000, latency_s=0.02)
    hearing.take_events([first, hit, second])
    hearing.take_events([corrected])
    assert [o.time_s for o in hearing.word_starts] == [1.012]
    assert [o.time_s for o in hearing.syllables] == [1.012, 1.200]
    assert [o.time_s for o in hearing.percussion] == [1.000]
