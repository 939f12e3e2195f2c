"""Speech layer: pocketsphinx offline (network blocked), vosk error paths."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from beattrainer.recognize.speech import (
    BackendError,
    VoskBackend,
    check_vosk_model_dir,
    create_backend,
    find_vosk_model,
    jsgf_grammar,
    vosk_phrases,
)

NO_NETWORK = textwrap.dedent("""
    import socket
    def _blocked(*args, **kwargs):
        raise OSError("network is unreachable in this test")
    socket.socket = _blocked
    socket.create_connection = _blocked
    socket.getaddrinfo = _blocked
""")

RUN_OFFLINE = textwrap.dedent("""
    import json, sys, socket
    try:
        socket.create_connection(("example.org", 80))
        raise SystemExit("network was reachable")
    except OSError:
        pass
    from beattrainer.recognize import SlotRecognizer, SlotContext
    from beattrainer.recognize.simulate import place, add_noise
    from beattrainer.synth.clips import ClipLibrary
    import numpy as np
    lib = ClipLibrary.load()
    rec = SlotRecognizer.create(backend="pocketsphinx",
                                vocabulary=("MIEZEKATZE", "YEAH", "BAM", "ANNA"))
    out = []
    for label in ("MIEZEKATZE", "BAM"):
        clip = lib.query(label=label, voice="de-m7")[0]
        slot = add_noise(place(lib.audio(clip), 24000, 1600), 30.0, np.random.default_rng(1))
        heard = rec.recognize(slot, SlotContext(expected=label))
        out.append([label, heard.label, heard.backend, rec.speech.finish().text is not None])
    print(json.dumps(out))
""")


def test_pocketsphinx_runs_with_the_network_unreachable(tmp_path):
    (tmp_path / "sitecustomize.py").write_text(NO_NETWORK)
    env = {"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", RUN_OFFLINE], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    results = json.loads(done.stdout.strip().splitlines()[-1])
    assert [r[2] for r in results] == ["pocketsphinx", "pocketsphinx"]
    assert [r[0] for r in results] == [r[1] for r in results]


def test_pocketsphinx_hears_a_word_on_its_own(library, make_slot):
    from beattrainer.recognize.lexicon import lexicon_for

    vocabulary = ("MIEZEKATZE", "YEAH", "BAM", "DING DONG")
    backend = create_backend("pocketsphinx", vocabulary, lexicon_for(vocabulary, use_espeak=False))
    backend.start()
    slot = make_slot("MIEZEKATZE", voice="de-m7", snr_db=30.0)
    for i in range(0, len(slot), 500):  # odd block size: the chunker must carry the rest
        backend.feed(slot[i:i + 500])
    assert backend.finish().label == "MIEZEKATZE"


def test_a_slot_is_heard_the_same_whatever_was_decoded_before(make_slot):
    """Pocketsphinx keeps feature state between utterances; the backend renews it."""
    from beattrainer.recognize.lexicon import lexicon_for

    vocabulary = ("MIEZEKATZE", "YEAH", "YO", "BAM", "WOW", "MIAU", "DING DONG")
    backend = create_backend("pocketsphinx", vocabulary, lexicon_for(vocabulary, use_espeak=False))
    slots = [make_slot(label, voice=voice, snr_db=10.0)
             for label in ("YO", "YEAH", "MIAU", "BAM")
             for voice in ("de-m7", "en-andy")]

    def heard(slot):
        backend.start()
        backend.feed(slot)
        return backend.finish().text

    first = [heard(slot) for slot in slots]
    again = [heard(slot) for slot in reversed(slots)][::-1]
    assert first == again


def test_grammar_lists_every_token():
    grammar = jsgf_grammar(["MIEZEKATZE", "DING_DONG"])
    assert "MIEZEKATZE | DING_DONG" in grammar
    with pytest.raises(BackendError):
        jsgf_grammar([])


def test_vosk_missing_model_dir_is_a_one_line_error(tmp_path):
    with pytest.raises(BackendError, match="no such directory"):
        check_vosk_model_dir(tmp_path / "nope")


def test_vosk_model_path_that_is_a_file(tmp_path):
    zipped = tmp_path / "model.zip"
    zipped.write_bytes(b"PK")
    with pytest.raises(BackendError, match="not a directory"):
        check_vosk_model_dir(zipped)


def test_vosk_folder_without_model_files(tmp_path):
    with pytest.raises(BackendError, match="am/final.mdl"):
        check_vosk_model_dir(tmp_path)
    (tmp_path / "am").mkdir()
    (tmp_path / "am" / "final.mdl").write_bytes(b"")
    with pytest.raises(BackendError, match="conf/"):
        check_vosk_model_dir(tmp_path)


def test_vosk_broken_model_fails_cleanly_without_download(tmp_path):
    (tmp_path / "am").mkdir()
    (tmp_path / "am" / "final.mdl").write_bytes(b"not a kaldi model")
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "mfcc.conf").write_text("--sample-frequency=16000\n")
    with pytest.raises(BackendError, match="cannot be loaded") as info:
        VoskBackend(("MIEZEKATZE",), tmp_path)
    assert "\n" not in str(info.value)


def test_backend_vosk_without_any_model(tmp_path, monkeypatch):
    import beattrainer.recognize.speech as speech

    monkeypatch.setattr(speech, "find_vosk_model", lambda: None)
    with pytest.raises(BackendError, match="no vosk model"):
        create_backend("vosk", ("YEAH",), None)


def test_find_vosk_model_looks_in_models_vosk(tmp_path):
    assert find_vosk_model(tmp_path) is None
    model = tmp_path / "vosk" / "vosk-model-small-de"
    (model / "am").mkdir(parents=True)
    (model / "am" / "final.mdl").write_bytes(b"")
    (model / "conf").mkdir()
    assert find_vosk_model(tmp_path) == model


def test_unknown_backend():
    with pytest.raises(BackendError, match="unknown backend"):
        create_backend("whisper", ("YEAH",), None)


def test_vosk_phrases_map_words_the_model_lacks():
    known = {"mieze", "katze", "yeah", "ding", "dong", "anna"}
    phrases = vosk_phrases(["MIEZEKATZE", "YEAH", "DING DONG", "ANNA", "WUIKKIWUIKKI"],
                           known.__contains__)
    assert phrases == {"MIEZEKATZE": "mieze katze", "YEAH": "yeah", "DING DONG": "ding dong",
                       "ANNA": "anna"}
