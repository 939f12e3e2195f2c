"""The bundled clip library (`sounds/clips/`): voice clips and effects with true onsets.

`scripts/make_sounds.py` builds it; `index.json` lists every clip with its
label, voice, variant and the onsets measured on the clean clip (see
`beattrainer.synth.truth` for the onset rule). Clips of one voice share one
Ogg file; a clip is a slice of it.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

INDEX_NAME = "index.json"
ANY = object()  # query sentinel: do not filter on this field


class ClipLibraryError(Exception):
    """The library is missing or broken; the message is one line for the user."""


@dataclass(frozen=True)
class ClipInfo:
    """One clip of the library (an index row).

    Times are in seconds from the clip's first sample. `kind` is "voice",
    "nonverbal" (hiss, kiss, zombie, shh) or "percussion"; `split` is "train" or
    "test" (held out from all tuning); `modifier` is None for normal speech or
    "slow", "high", "whisper".
    """

    id: str
    label: str
    kind: str
    voice: str
    language: str | None
    modifier: str | None
    split: str
    file: str
    start_sample: int
    n_samples: int
    duration_s: float
    onset_s: float
    syllables: int
    syllable_onsets_s: tuple[float, ...]
    text: str | None = None
    speed_wpm: int | None = None
    pitch: int | None = None
    variant: int | None = None

    @classmethod
    def from_json(cls, row: dict) -> ClipInfo:
        """Build from an index row (unknown keys are ignored)."""
        names = cls.__dataclass_fields__
        values = {k: v for k, v in row.items() if k in names}
        values["syllable_onsets_s"] = tuple(row["syllable_onsets_s"])
        return cls(**values)

    @property
    def tail_s(self) -> float:
        """How long the clip sounds after its true onset [s]."""
        return self.duration_s - self.onset_s


@dataclass
class ClipLibrary:
    """The clip index plus lazily loaded audio of its files."""

    folder: Path
    sample_rate: int
    clips: tuple[ClipInfo, ...]
    voices: tuple[dict, ...] = ()
    _audio: dict[str, np.ndarray] = field(default_factory=dict, repr=False)

    @classmethod
    def load(cls, folder: str | Path | None = None) -> ClipLibrary:
        """Read the index of the library in `folder` (default: the bundled `sounds/clips`)."""
        if folder is None:
            from beattrainer.resources import sounds_dir

            folder = sounds_dir() / "clips"
        folder = Path(folder)
        path = folder / INDEX_NAME
        try:
            index = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ClipLibraryError(
                f"{path}: no clip library (run scripts/make_sounds.py)") from None
        except json.JSONDecodeError as exc:
            raise ClipLibraryError(f"{path}: broken clip index ({exc.msg})") from None
        clips = tuple(ClipInfo.from_json(row) for row in index["clips"])
        return cls(folder, int(index["sample_rate"]), clips, tuple(index.get("voices", ())))

    def query(self, label=ANY, voice=ANY, split=ANY, modifier=ANY, kind=ANY) -> list[ClipInfo]:
        """Clips matching every given field (a tuple/list/set means any of those values)."""
        wanted = {"label": label, "voice": voice, "split": split, "modifier": modifier,
                  "kind": kind}
        out = []
        for clip in self.clips:
            if all(_matches(getattr(clip, name), value) for name, value in wanted.items()):
                out.append(clip)
        return out

    def get(self, clip_id: str) -> ClipInfo:
        """The clip with this id."""
        for clip in self.clips:
            if clip.id == clip_id:
                return clip
        raise KeyError(clip_id)

    def labels(self) -> list[str]:
        """Every label in the library, sorted."""
        return sorted({c.label for c in self.clips})

    def voice_ids(self, split=ANY, whisper: bool | None = None) -> list[str]:
        """Ids of the espeak voices (not "synth"), in index order; filter by split/whisper."""
        out = []
        for voice in self.voices:
            if split is not ANY and not _matches(voice["split"], split):
                continue
            if whisper is not None and bool(voice.get("whisper")) != whisper:
                continue
            out.append(voice["id"])
        return out

    def audio(self, clip: ClipInfo) -> np.ndarray:
        """The clip's samples (float32 mono at `sample_rate`)."""
        if clip.file not in self._audio:
            from beattrainer.audio import read_audio

            samples, _ = read_audio(self.folder / clip.file, sr=self.sample_rate)
            self._audio[clip.file] = samples
        data = self._audio[clip.file]
        return data[clip.start_sample:clip.start_sample + clip.n_samples]


def _matches(actual, wanted) -> bool:
    if wanted is ANY:
        return True
    if isinstance(wanted, (tuple, list, set, frozenset)):
        return actual in wanted
    return actual == wanted
