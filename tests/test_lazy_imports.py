"""File-based commands and --help work without sounddevice, vosk and matplotlib."""
import subprocess
import sys

BLOCKED = ("sounddevice", "vosk", "matplotlib")

PRELUDE = (
    "import sys\n"
    + "".join(f"sys.modules[{name!r}] = None\n" for name in BLOCKED)
    + "from beattrainer.cli import cli\n"
)


def run_blocked(args):
    code = PRELUDE + f"cli.main(args={args!r}, prog_name='beattrainer', standalone_mode=True)\n"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)


def test_core_and_dsp_import_without_optional_libraries():
    code = PRELUDE + (
        "import beattrainer.dsp.onsets, beattrainer.dsp.tempo, beattrainer.judge, "
        "beattrainer.play\n"
        "import beattrainer.mzkz.game, beattrainer.games.maunz_maunz, beattrainer.report.text\n"
        "for name in " + repr(BLOCKED) + ":\n"
        "    assert sys.modules[name] is None, name\n"
        "print('ok')\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr


def test_help_and_file_commands_without_optional_libraries(tmp_path):
    assert run_blocked(["--help"]).returncode == 0
    assert run_blocked(["play", "--help"]).returncode == 0
    seq = run_blocked(["sequence", "--cards", "01,04", "--json"])
    assert seq.returncode == 0 and '"schema": "beattrainer.sequence/1"' in seq.stdout
    out = tmp_path / "p.wav"
    synth = run_blocked(["synth", "--cards", "04", "--voices", "1", "--seed", "1",
                         "--out", str(out)])
    assert synth.returncode == 0, synth.stderr
    judged = run_blocked(["judge", str(out), "--cards", "04", "--backend", "pocketsphinx"])
    assert judged.returncode == 0, judged.stderr
    assert "Traceback" not in judged.stderr


def test_no_microphone_library_gives_one_line(tmp_path):
    proc = run_blocked(["onsets", "--mic", "--seconds", "1"])
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "sounddevice" in proc.stderr
