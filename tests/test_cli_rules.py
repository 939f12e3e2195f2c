"""`beattrainer cards`, `challenges` and `sequence` through click and as a real process."""
import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from beattrainer.cli import cli
from tests.conftest import validate_contract


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_sequence_json_for_challenge_8_gives_the_rulebook_order():
    result = run("sequence", "--cards", "01,02,03,04,05,06,07", "--challenge", "8", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    validate_contract(data, "sequence")
    cards = [s["card"] for s in data["slots"] if s["role"] == "card"]
    assert [int(c) for c in cards] == [1, 2, 3, 4, 6, 7, 6, 5, 3, 2, 1, 2, 3, 4, 6, 7]
    assert data["performance"] == 5 and data["challenge"] == 8


def test_sequence_readable_listing():
    result = run("sequence", "--tutorial", "1", "--performance", "4", "--players", "Anna,Ben")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].startswith("tutorial-1, performance 4")
    assert "YEAH" in lines[6] and "[Anna]" in lines[1] and "final move" in lines[-1]


@pytest.mark.parametrize("args, message", [
    (["sequence", "--cards", "01,99"], "unknown card id '99'"),
    (["sequence", "--cards", "01,01"], "drawn twice"),
    (["sequence", "--cards", "01,03", "--challenge", "6"], "sorted out for challenge 6"),
    (["sequence", "--cards", "03,04", "--challenge", "7"], "at least 3 cards"),
    (["sequence", "--cards", "x1"], "card ids are numbers"),
    (["sequence"], "give the drawn cards"),
    (["sequence", "--cards", "01", "--tutorial", "1", "--challenge", "2"], "choose one of"),
    (["cards", "77"], "unknown card id '77'"),
])
def test_bad_input_is_one_line_and_exit_2(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_cards_and_challenges_listings():
    listing = run("cards")
    assert listing.exit_code == 0 and len(listing.output.splitlines()) == 48
    one = run("cards", "39")
    assert "AAAH or OOOH" in one.output
    ch = run("challenges")
    assert ch.exit_code == 0 and "challenge 9" in ch.output and "44" in ch.output


def test_custom_cards_file(tmp_path):
    good = tmp_path / "mine.toml"
    good.write_text('[[card]]\nid = "49"\ntitle = "Purr"\ndoes = "Purr."\nhear = "word"\n'
                    'text = "PURR"\n')
    result = run("sequence", "--cards", "04,49", "--custom-cards", str(good), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["slots"][3]["expected"]["text"] == "PURR"
    bad = tmp_path / "bad.toml"
    bad.write_text('[[card]]\nid = "49"\ntitle = "Purr"\ndoes = "Purr."\nhear = "meow"\n')
    result = run("cards", "--custom-cards", str(bad))
    assert result.exit_code == 2 and "line 5, field 'hear'" in result.output


def test_real_subprocess():
    proc = subprocess.run(
        [sys.executable, "-m", "beattrainer", "sequence", "--cards", "01,02,03", "--challenge",
         "7", "--json"], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    slots = json.loads(proc.stdout)["slots"]
    assert [s["position"] for s in slots if s["role"] == "card"] == [1, 2, 3, 2, 1, 2, 3]
    bad = subprocess.run([sys.executable, "-m", "beattrainer", "sequence", "--cards", "01,99"],
                         capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and bad.stderr.strip().count("\n") == 0
    assert bad.stderr.startswith("error: unknown card id")
