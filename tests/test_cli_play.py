"""`beattrainer play` and `demo` as commands; the count-in placed on the input timeline."""
import json

import pytest
from click.testing import CliRunner

from beattrainer import cli as cli_module
from beattrainer.calibrate import StreamClock
from beattrainer.cli import cli
from tests.conftest import validate_contract


def test_count_in_grid_is_placed_on_the_input_timeline(monkeypatch):
    class Sounds:
        available = True

        def count_in(self, period_s):
            return 0.5  # the first solo sounds half a second after the call

    clock = StreamClock()
    clock.observe(100.0, 10.0)  # a block ending at 10 s of input arrived at wall time 100 s
    monkeypatch.setattr("time.perf_counter", lambda: 104.0)
    grid_for = cli_module._count_in_grid(Sounds(), 1.1, clock, latency_s=0.06)
    period_s, first_s = grid_for(None, 13.0)
    assert period_s == 1.1
    assert first_s == pytest.approx(14.0 + 0.5 + 0.06)


@pytest.mark.parametrize("args, message", [
    (["--challenge", "2"], "add --count-in"),
    (["--count-in", "--no-sounds"], "needs sounds"),
    (["--deck", "04,99"], "unknown card id '99'"),
    (["--tutorial", "1", "--players", "Anna,Anna"], "must differ"),
])
def test_play_bad_options(args, message, tmp_path):
    result = CliRunner().invoke(cli, ["play", "--db", str(tmp_path / "x.db"), "--plain", *args])
    assert result.exit_code == 2 and message in result.output


def test_play_a_recording_writes_the_run_report(tmp_path):
    from beattrainer.resources import sounds_dir

    demo = sounds_dir() / "demo"
    meta = json.loads((demo / "session.json").read_text())
    out = tmp_path / "run.json"
    result = CliRunner().invoke(cli, [
        "play", "--input", str(demo / meta["audio"]), "--deck", ",".join(meta["deck"]),
        "--players", ",".join(meta["players"]), "--plain", "--no-sounds",
        "--backend", "pocketsphinx", "--db", str(tmp_path / "p.db"), "--json", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text())
    validate_contract(report, "run-report")
    expected = meta["expected"]
    assert [a["report"]["result"] for a in report["attempts"]] == \
        [a["outcome"] for a in expected["attempts"]]
    assert report["result"] == expected["result"]
    assert "lead Ben" in result.output


def test_demo_exits_0_with_a_final_report(tmp_path):
    out = tmp_path / "demo.json"
    result = CliRunner().invoke(cli, ["demo", "--plain", "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "Highscores of the demo run" in result.output
    assert "Tempo report of the last completed performance" in result.output
    validate_contract(json.loads(out.read_text()), "run-report")
