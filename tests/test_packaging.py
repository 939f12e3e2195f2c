"""The bundled data is found from a checkout and from a regular install."""
import subprocess
import sys

import pytest

from beattrainer.resources import data_dir, models_dir, sounds_dir
from tests.conftest import REPO


def test_data_folders_in_the_checkout():
    assert (sounds_dir() / "clips" / "index.json").is_file()
    assert (sounds_dir() / "demo" / "session.json").is_file()
    assert (models_dir() / "lexicon.dict").is_file()
    with pytest.raises(FileNotFoundError, match="nothing"):
        data_dir("nothing")


@pytest.mark.slow
def test_a_regular_install_carries_the_data(tmp_path):
    """Build a wheel (no editable install) and find models/ and sounds/ inside it."""
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                           "--no-build-isolation", "-w", str(tmp_path), str(REPO)],
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0 and "No module named" in proc.stderr:
        pytest.skip("pip wheel is not available")
    assert proc.returncode == 0, proc.stderr[-2000:]
    (wheel,) = tmp_path.glob("beattrainer-*.whl")
    import zipfile

    names = set(zipfile.ZipFile(wheel).namelist())
    assert "beattrainer/sounds/clips/index.json" in names
    assert "beattrainer/sounds/demo/session.ogg" in names
    assert "beattrainer/models/lexicon.dict" in names
    assert "beattrainer/mzkz/cards.toml" in names
