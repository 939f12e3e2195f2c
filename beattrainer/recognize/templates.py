"""The group's own voice: every completed slot is a template of this group saying that card.

Templates are labelled; later slots are compared with them (MFCC + DTW).

Pure numpy. All templates are matched in one vectorised DTW pass, so the cost
per slot stays around a millisecond for a few dozen templates.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from beattrainer.recognize.acoustic import describe_slot

SAMPLE_RATE = 16_000
FRAME_SAMPLES = 400   # [samples] 25 ms
HOP_SAMPLES = 320     # [samples] 20 ms: coarse, the words are long
N_MELS = 24
N_CEPS = 12           # c1..c12; c0 (loudness) is left out so dynamics do not matter
ACTIVE_ABOVE_PEAK_DB = -35.0  # frames this far below the loudest are trimmed away
MAX_TEMPLATES_PER_LABEL = 4
MIN_FRAMES = 3


def _mel_filterbank(n_fft: int) -> np.ndarray:
    """Triangular mel filters, shape (N_MELS, n_fft // 2 + 1)."""
    def hz_to_mel(f):
        return 2595.0 * np.log10(1.0 + f / 700.0)

    mels = np.linspace(hz_to_mel(80.0), hz_to_mel(7600.0), N_MELS + 2)
    hz = 700.0 * (10.0 ** (mels / 2595.0) - 1.0)
    bins = np.fft.rfftfreq(n_fft, 1.0 / SAMPLE_RATE)
    bank = np.zeros((N_MELS, len(bins)))
    for m in range(N_MELS):
        lo, mid, hi = hz[m], hz[m + 1], hz[m + 2]
        bank[m] = np.clip(np.minimum((bins - lo) / (mid - lo), (hi - bins) / (hi - mid)), 0, None)
    return bank


_N_FFT = 512
_BANK = _mel_filterbank(_N_FFT)
_DCT = np.cos(np.pi / N_MELS * (np.arange(N_MELS) + 0.5)[None, :]
              * np.arange(1, N_CEPS + 1)[:, None])
_WINDOW = np.hamming(FRAME_SAMPLES)


def mfcc_frames(samples: np.ndarray) -> np.ndarray:
    """MFCCs of the sounding part of a slot, mean-normalised.

    Parameters
    ----------
    samples : np.ndarray, shape (n,), mono at 16 kHz

    Returns
    -------
    np.ndarray, shape (n_frames, N_CEPS); empty when nothing sounds
    """
    x = np.asarray(samples, dtype=np.float64)
    if len(x) < FRAME_SAMPLES:
        return np.zeros((0, N_CEPS))
    frames = np.lib.stride_tricks.sliding_window_view(x, FRAME_SAMPLES)[::HOP_SAMPLES]
    spec = np.fft.rfft(frames * _WINDOW, _N_FFT, axis=1)
    power = spec.real**2 + spec.imag**2
    energy_db = 10.0 * np.log10(power.sum(axis=1) + 1e-10)
    keep = np.flatnonzero(energy_db > energy_db.max() + ACTIVE_ABOVE_PEAK_DB)
    if len(keep) < MIN_FRAMES or energy_db.max() < -100.0:
        return np.zeros((0, N_CEPS))
    power = power[keep[0]:keep[-1] + 1]
    logmel = np.log(power @ _BANK.T + 1e-8)
    ceps = logmel @ _DCT.T
    return ceps - ceps.mean(axis=0)


def dtw_distances(query: np.ndarray, templates: list[np.ndarray]) -> np.ndarray:
    """Length-normalised DTW distance from `query` to every template at once.

    Step pattern: each query frame advances the template by 0, 1 or 2 frames,
    which makes every row of the cost table one vectorised update (templates
    up to twice as long as the query can be matched).

    Parameters
    ----------
    query : np.ndarray, shape (n, d)
    templates : list of np.ndarray, shapes (m_k, d)

    Returns
    -------
    np.ndarray, shape (len(templates),), mean frame distance along the best
    path (inf where no path fits)
    """
    if len(query) == 0 or not templates:
        return np.full(len(templates), np.inf)
    lengths = np.array([len(t) for t in templates])
    width = int(lengths.max())
    stacked = np.zeros((len(templates), width, query.shape[1]))
    for k, t in enumerate(templates):
        stacked[k, :len(t)] = t
    valid = np.arange(width)[None, :] < lengths[:, None]
    # cost[i, k, j] = distance of query frame i to frame j of template k
    flat = stacked.reshape(-1, query.shape[1])
    squared = ((query**2).sum(axis=1)[:, None] + (flat**2).sum(axis=1)[None, :]
               - 2.0 * query @ flat.T)
    cost = np.sqrt(np.maximum(squared, 0.0)).reshape(len(query), len(templates), width)
    cost = np.where(valid[None], cost, np.inf)
    total = np.full((len(templates), width), np.inf)
    total[:, 0] = cost[0, :, 0]
    for i in range(1, len(query)):
        best = total.copy()
        best[:, 1:] = np.minimum(best[:, 1:], total[:, :-1])
        best[:, 2:] = np.minimum(best[:, 2:], total[:, :-2])
        total = cost[i] + best
    ends = total[np.arange(len(templates)), lengths - 1]
    return ends / len(query)


@dataclass
class TemplateStore:
    """The group's templates by label (newest `MAX_TEMPLATES_PER_LABEL` kept)."""

    templates: dict[str, list[np.ndarray]] = field(default_factory=dict)

    def add(self, samples: np.ndarray, label: str, sounding: bool | None = None) -> bool:
        """Learn one rendition of `label`; False when it held no sound.

        `sounding` is `describe_slot(samples).sounding` where the caller knows it already.
        """
        if not (describe_slot(samples).sounding if sounding is None else sounding):
            return False
        feats = mfcc_frames(samples)
        if len(feats) < MIN_FRAMES:
            return False
        kept = self.templates.setdefault(label, [])
        kept.append(feats)
        del kept[:-MAX_TEMPLATES_PER_LABEL]
        return True

    def __len__(self) -> int:
        return sum(len(v) for v in self.templates.values())

    def labels(self) -> tuple[str, ...]:
        """Labels with at least one template."""
        return tuple(self.templates)

    def distances(self, samples: np.ndarray) -> dict[str, float]:
        """Smallest DTW distance of the slot to each label's templates."""
        query = mfcc_frames(samples)
        flat = [(label, t) for label, ts in self.templates.items() for t in ts]
        if not flat or len(query) < MIN_FRAMES:
            return {}
        # a template more than twice as long as the query cannot be reached
        dists = dtw_distances(query, [t for _, t in flat])
        out: dict[str, float] = {}
        for (label, _), d in zip(flat, dists):
            out[label] = min(out.get(label, np.inf), float(d))
        return out


def store_to_arrays(store: TemplateStore) -> dict[str, np.ndarray]:
    """Flat arrays for saving (`np.savez`): features, lengths and labels."""
    flat = [(label, t) for label, ts in store.templates.items() for t in ts]
    if not flat:
        return {"features": np.zeros((0, N_CEPS)), "lengths": np.zeros(0, int),
                "labels": np.array([], dtype=str)}
    return {"features": np.concatenate([t for _, t in flat]),
            "lengths": np.array([len(t) for _, t in flat]),
            "labels": np.array([label for label, _ in flat])}


def store_from_arrays(arrays) -> TemplateStore:
    """Inverse of `store_to_arrays`; ValueError when the arrays do not fit together."""
    features = np.asarray(arrays["features"], dtype=float)
    lengths = np.asarray(arrays["lengths"], dtype=int)
    labels = [str(x) for x in arrays["labels"]]
    if features.ndim != 2 or features.shape[1] != N_CEPS or lengths.sum() != len(features) \
            or len(labels) != len(lengths):
        raise ValueError("template arrays do not fit together")
    store = TemplateStore()
    start = 0
    for label, n in zip(labels, lengths):
        store.templates.setdefault(label, []).append(features[start:start + n])
        start += n
    return store
