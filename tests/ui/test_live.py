"""What players see: cards face down but the newest, lives, the timing meter."""
import io

from beattrainer.mzkz.game import Verdict, new_run, record
from beattrainer.mzkz.sequence import Mode
from beattrainer.ui.live import PlainUI, cards_text, face_up_positions, lives_text, timing_meter


def test_only_the_newest_card_is_face_up():
    run = record(new_run(Mode("highscore"), ["A", "B"], ["04", "11", "37"]), Verdict.completed())
    perf = run.current_performance()
    assert face_up_positions(run, perf) == {2}
    lines = cards_text(run, perf)
    assert "??" in lines[0] and "04" not in lines[0]
    assert "11 Yo" in lines[1]


def test_canons_and_back_and_forth_lie_open():
    canon = new_run(Mode("challenge", 6), ["A", "B"], ["03", "04", "05", "06", "07", "08"])
    canon = record(canon, Verdict.completed())
    assert face_up_positions(canon, canon.current_performance()) == {1, 2}
    back = new_run(Mode("challenge", 7), ["A"], ["03", "04", "05", "06", "07", "08"])
    assert face_up_positions(back, back.current_performance()) == {1, 2, 3}
    back = record(back, Verdict.completed())
    assert face_up_positions(back, back.current_performance()) == {4}


def test_lives_and_meter():
    run = record(new_run(Mode("highscore"), ["A"], ["04", "11"], lives=3), Verdict.mistake(2))
    assert lives_text(run) == "cat lives @@. (2/3)"
    assert timing_meter(None) == ""
    centre = timing_meter(0.0)
    late = timing_meter(150.0)
    assert centre.index("#") < late.index("#") and late.endswith("#| late")
    assert timing_meter(-500.0).startswith("early |#")


def test_plain_ui_lines():
    out = io.StringIO()
    ui = PlainUI(out)
    run = new_run(Mode("tutorial", 1), ["Anna", "Ben"], ["01", "02", "03", "04"])
    ui.attempt_start(run, run.current_performance())
    ui.note("hello")
    ui.run_end(run, "stopped")
    text = out.getvalue()
    assert "tutorial-1: performance 1 of 4, lead Anna" in text
    assert "01 Double fistbump" in text and "* hello" in text and "run over (stopped)" in text
