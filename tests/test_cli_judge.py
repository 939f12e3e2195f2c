"""`beattrainer judge` as a command: the report, the plot, and the errors."""
import json

import numpy as np
import pytest
import soundfile as sf
from click.testing import CliRunner

from beattrainer.cli import cli
from tests.conftest import validate_contract


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture(scope="module")
def performance(tmp_path_factory):
    out = tmp_path_factory.mktemp("judge") / "perf.wav"
    result = invoke("synth", "--cards", "01,04,37", "--voices", "2", "--seed", "3",
                    "--jitter-ms", "10", "--out", out)
    assert result.exit_code == 0, result.output
    return out


def test_judge_writes_a_valid_report_and_plot(performance, tmp_path):
    report_path, plot = tmp_path / "r.json", tmp_path / "t.png"
    result = invoke("judge", performance, "--cards", "01,04,37", "--players", "Anna,Ben,Cem",
                    "--backend", "pocketsphinx", "--json", report_path, "--plot", plot)
    assert result.exit_code == 0, result.output
    data = json.loads(report_path.read_text())
    validate_contract(data, "judge-report")
    truth = json.loads(performance.with_name("perf.truth.json").read_text())
    assert data["tempo"]["period_s"] == pytest.approx(truth["period_s"], rel=0.05)
    assert data["audio"]["sample_rate"] == 16000 and data["performance"]["lead"] == "Anna"
    assert plot.read_bytes()[:4] == b"\x89PNG"
    assert ("Completed" in result.output) == (data["result"] == "completed")
    stdout = invoke("judge", performance, "--cards", "01,04,37", "--players", "Anna,Ben,Cem",
                    "--backend", "pocketsphinx", "--json", "-")
    assert json.loads(stdout.output)["slots"] == data["slots"]


@pytest.mark.parametrize("make, args, message", [
    (lambda p: p.write_bytes(b"not audio at all"), ["--cards", "01"], "not a readable audio file"),
    (lambda p: sf.write(p, np.zeros(16000 * 4, np.float32), 16000), ["--cards", "01"],
     "no beat was heard"),
    (lambda p: sf.write(p, np.zeros(1600, np.float32), 16000), ["--cards", "01,77"],
     "unknown card id '77'"),
    (lambda p: sf.write(p, np.zeros(1600, np.float32), 16000),
     ["--cards", "01", "--challenge", "2"],
     "give the tempo with --period and --start"),
])
def test_judge_errors_are_one_line(tmp_path, make, args, message):
    path = tmp_path / "in.wav"
    make(path)
    result = invoke("judge", path, "--backend", "pocketsphinx", *args)
    assert result.exit_code == 2 and message in result.output
    assert "Traceback" not in result.output


def test_missing_file(tmp_path):
    result = invoke("judge", tmp_path / "nothing.wav", "--cards", "01")
    assert result.exit_code == 2 and "no such file" in result.output
