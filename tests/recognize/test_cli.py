"""`beattrainer recognize` and `beattrainer enroll` through click's CliRunner."""
from __future__ import annotations

import json

import numpy as np
from click.testing import CliRunner

from beattrainer.audio import write_audio
from beattrainer.cli import cli
from tests.conftest import validate_contract


def write_slot(path, samples):
    write_audio(path, samples, 16000)
    return str(path)


def test_recognize_json_is_valid_against_the_contract(tmp_path, make_slot):
    wav = write_slot(tmp_path / "slot.wav", make_slot("MIEZEKATZE", voice="de-m7"))
    result = CliRunner().invoke(cli, ["recognize", wav, "--expect", "MIEZEKATZE",
                                      "--candidates", "YEAH,BAM", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    validate_contract(out, "recognize")
    assert out["label"] == "MIEZEKATZE" and out["accepted"] is True


def test_recognize_with_a_normal_reference_judges_quiet(tmp_path, make_slot):
    normal = write_slot(tmp_path / "normal.wav", make_slot("MIEZEKATZE", voice="de-m7", index=1))
    quiet = write_slot(tmp_path / "quiet.wav",
                       make_slot("MIEZEKATZE", voice="de-m7", level_dbfs=-40.0))
    result = CliRunner().invoke(cli, ["recognize", quiet, "--expect", "MIEZEKATZE/quiet",
                                      "--normal", normal, "--backend", "none", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["accepted"] is True


def test_recognize_bad_input_gives_one_line_errors(tmp_path):
    runner = CliRunner()
    missing = runner.invoke(cli, ["recognize", str(tmp_path / "none.wav"), "--expect", "YEAH"])
    assert missing.exit_code == 2 and "Traceback" not in missing.output
    bad_item = runner.invoke(cli, ["recognize", str(tmp_path / "none.wav"), "--expect", "YEAH/odd"])
    assert bad_item.exit_code == 2 and "modifier" in bad_item.output
    bad_vosk = runner.invoke(cli, ["recognize", str(tmp_path / "none.wav"), "--expect", "YEAH",
                                   "--vosk-model", str(tmp_path)])
    assert bad_vosk.exit_code == 2 and "am/final.mdl" in bad_vosk.output


def test_recognize_empty_file_is_silence(tmp_path):
    wav = write_slot(tmp_path / "empty.wav", np.zeros(0, np.float32))
    result = CliRunner().invoke(cli, ["recognize", wav, "--expect", "SILENCE", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["label"] == "SILENCE"


def test_enroll_from_files_and_use_the_templates(tmp_path, make_slot):
    folder = tmp_path / "enrol"
    folder.mkdir()
    for label in ("YEAH", "YO", "BAM", "WOW"):
        write_slot(folder / f"{label}-1.wav", make_slot(label, voice="en-andy", index=1))
    out = tmp_path / "group.npz"
    result = CliRunner().invoke(cli, ["enroll", "--words", "YEAH,YO,BAM,WOW", "--from-dir",
                                      str(folder), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "4 template(s)" in result.output
    slot = write_slot(tmp_path / "yo.wav", make_slot("YO", voice="en-andy", index=0))
    heard = CliRunner().invoke(cli, ["recognize", slot, "--expect", "WOW", "--backend", "none",
                                     "--enrolment", str(out), "--json"])
    assert heard.exit_code == 0, heard.output
    assert json.loads(heard.output)["label"] == "YO"


def test_enroll_with_nothing_usable_fails_cleanly(tmp_path):
    folder = tmp_path / "enrol"
    folder.mkdir()
    write_slot(folder / "YEAH.wav", np.zeros(8000, np.float32))
    result = CliRunner().invoke(cli, ["enroll", "--words", "YEAH", "--from-dir", str(folder),
                                      "--out", str(tmp_path / "x.npz")])
    assert result.exit_code == 2 and "nothing was heard" in result.output


def test_recognize_with_a_broken_enrolment_file(tmp_path, make_slot):
    wav = write_slot(tmp_path / "slot.wav", make_slot("YEAH", voice="en-andy"))
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not numpy")
    result = CliRunner().invoke(cli, ["recognize", wav, "--expect", "YEAH", "--enrolment",
                                      str(bad)])
    assert result.exit_code == 2 and "enrolment" in result.output
