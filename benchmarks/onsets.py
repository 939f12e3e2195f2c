"""Onset detection accuracy and speed on rendered performances, against librosa.

    python benchmarks/onsets.py [--n 56] [--seed 7] [--no-librosa] [--per-condition]
    python benchmarks/onsets.py --dev      # the tuning set: seed 101, ours only
    python benchmarks/onsets.py --dev --seed 102   # a second tuning set, to check on
    python benchmarks/onsets.py --syllables-in-time   # the same set, voices' syllables in time

Tune on `--dev` (seed 101, the library's "train" voices only) and quote the
default run (seed 7): its performances are never used for tuning, and about
half of them use only the held-out "test" voices (the second line says how
many).

Renders a seeded set of performances (random cards, periods 0.9-2.6 s, 1-4
voices, clean and 30/20/10 dB pink or babble noise, some with reverb and
timing jitter) through the renderer's Python API (with `--syllables-in-time`
the same set with each voice's syllables kept in time, decision 28), runs the streaming onset
detector on each (fed in 512-sample blocks, like the microphone) and
`librosa.onset.onset_detect` (default settings, and a setting tuned for speech)
on the same audio, and prints, side by side:

- syllable and word F-measure at +/-50 ms and +/-25 ms; syllables against the
  truth's `syllable_onsets_s` (the earliest voice's), and "grp@50" against any
  voice's own onset of that syllable (voices at different speeds disagree by up
  to 0.3 s on a word's later syllables unless `--syllables-in-time`; see
  `group_reference`),
- "hit@50": F-measure of the percussion the detector reports (claps, table
  hits, stamps, snaps, dice, squeaks, kisses; a kiss has no voice, so it is a
  hit, not a word, here and for the referee),
- median and 95th percentile absolute word-onset error [ms] (matched at 50 ms),
- median detection latency [ms]: when the detector reported a word's first
  syllable, minus the true onset (a start corrected later, the stream's
  first word's, counts from its first report and is scored where the
  correction puts it; librosa is offline: its figure is the look-ahead its
  centred frames and peak picking need),
- realtime factor on one core (processing time / audio duration).

Words for librosa: an onset with no other onset in the `WORD_GAP_S` before it
starts a word (the same rule of thumb a caller would need).
"""
from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core: no threaded BLAS/FFT
os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import argparse  # noqa: E402
import dataclasses  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402

import numpy as np  # noqa: E402

from beattrainer.dsp.onsets import DEFAULT_CONFIG, OnsetConfig, OnsetDetector  # noqa: E402
from beattrainer.events import Onset, OnsetKind, Word, final_events, first_reports_s  # noqa: E402

BLOCK_SAMPLES = 512
WORD_GAP_S = 0.3
CONDITIONS = (  # (noise kind, SNR dB or None)
    ("clean", None), ("pink", 30.0), ("babble", 30.0), ("pink", 20.0),
    ("babble", 20.0), ("pink", 10.0), ("babble", 10.0),
)


@dataclass
class Case:
    """One rendered performance."""

    samples: np.ndarray
    sr: int
    truth: dict
    condition: str
    group_syllables: list = field(default_factory=list)  # see `group_reference`


@dataclass
class Tally:
    """Counts and errors of one method over many files."""

    hits: dict = field(default_factory=lambda: {k: 0 for k in ("s50", "s25", "w50", "w25",
                                                                  "g50", "h50")})
    n_est_syl: int = 0
    n_ref_syl: int = 0
    n_ref_group: int = 0
    n_est_word: int = 0
    n_ref_word: int = 0
    n_est_hit: int = 0
    n_ref_hit: int = 0
    word_errors_s: list = field(default_factory=list)
    latencies_s: list = field(default_factory=list)
    seconds: float = 0.0
    audio_s: float = 0.0

    def f(self, key: str) -> float:
        """F-measure for 's50', 's25', 'w50', 'w25', 'g50' or 'h50'."""
        n_est, n_ref = {"s": (self.n_est_syl, self.n_ref_syl),
                        "g": (self.n_est_syl, self.n_ref_group),
                        "w": (self.n_est_word, self.n_ref_word),
                        "h": (self.n_est_hit, self.n_ref_hit)}[key[0]]
        hits = self.hits[key]
        if n_est + n_ref == 0:
            return 1.0
        return 2.0 * hits / (n_est + n_ref)


def make_cases(n: int, seed: int, split: str | None = None,
               syllables_in_time: bool = False) -> list[Case]:
    """Render `n` seeded performances over the conditions.

    `split` None draws "train" or "test" voices per performance; "train" keeps
    the held-out voices out (the tuning set). `syllables_in_time` renders the
    same performances with every voice's syllables in time (decision 28).
    """
    from beattrainer.mzkz.catalog import load_catalog
    from beattrainer.mzkz.sequence import Mode, SequenceError, compile_performance
    from beattrainer.synth.clips import ClipLibrary
    from beattrainer.synth.render import RenderError, RenderOptions, render_performance

    rng = np.random.default_rng(seed)
    catalog = load_catalog()
    clips = ClipLibrary.load()
    ids = sorted(catalog.cards)
    players = ("Anna", "Ben", "Cem", "Dora")
    cases: list[Case] = []
    while len(cases) < n:
        noise, snr = CONDITIONS[len(cases) % len(CONDITIONS)]
        n_cards = int(rng.integers(2, 6))
        cards = [str(c) for c in rng.choice(ids, size=n_cards, replace=False)]
        options = RenderOptions(
            period_s=float(rng.uniform(0.9, 2.6)), voices=int(rng.integers(1, 5)),
            snr_db=snr, noise="pink" if noise == "clean" else noise,
            reverb=bool(rng.random() < 0.25), jitter_ms=float(rng.choice([0.0, 10.0, 20.0])),
            split=str(rng.choice(["train", "test"])) if split is None else split,
            seed=int(rng.integers(1 << 30)), syllables_in_time=syllables_in_time)
        try:
            perf = compile_performance(cards, Mode("highscore"), players=players[:options.voices],
                                       catalog=catalog)
            samples, sr, truth = render_performance(
                perf, clips, np.random.default_rng(options.seed), options)
        except (SequenceError, RenderError):
            continue
        label = noise if snr is None else f"{noise} {snr:.0f} dB"
        cases.append(Case(samples, sr, truth, label + (" +reverb" if options.reverb else ""),
                          group_reference(truth)))
    return cases


def group_reference(truth: dict) -> list[tuple[float, ...]]:
    """Every voice's own syllable onsets, syllable by syllable [s].

    The truth's `syllable_onsets_s` are, per syllable, the earliest voice's;
    without syllables in time, voices speaking at different speeds disagree
    by up to 0.3 s on the later syllables of a word, so the mixture has no
    single right time for them. One entry per (word, syllable index): the
    times at which any of the slot's voices starts that syllable (the truth's
    `voice_syllable_onsets_s`); a detected syllable close to any of them
    meets it (the "grp" column).
    """
    slots = {s["index"]: s for s in truth["slots"]}
    out: list[tuple[float, ...]] = []
    for word in truth["words"]:
        if word["label"] in HIT_WORDS:
            continue
        slot = slots.get(word["slot"]) or {}
        own = word["syllable_onsets_s"] or [word["onset_s"]]
        per_voice = slot.get("voice_syllable_onsets_s") or [own]
        for k in range(max(len(v) for v in per_voice)):
            out.append(tuple(sorted(v[k] for v in per_voice if len(v) > k)))
    return out


def match_groups(estimated: list[float], groups: list[tuple[float, ...]],
                 tolerance_s: float) -> int:
    """Greedy one-to-one matching of estimates to groups of acceptable times; hit count."""
    pairs = sorted(
        (min(abs(e - r) for r in group), i, j) for i, e in enumerate(estimated)
        for j, group in enumerate(groups) if min(abs(e - r) for r in group) <= tolerance_s)
    used_e, used_g, hits = set(), set(), 0
    for _, i, j in pairs:
        if i not in used_e and j not in used_g:
            used_e.add(i)
            used_g.add(j)
            hits += 1
    return hits


HIT_WORDS = {"KISS"}  # a kiss has no voice: the detector reports it as percussion


def reference(truth: dict) -> tuple[list[float], list[float]]:
    """True syllable and word onsets [s] of a performance (kisses are hits)."""
    syllables, words = [], []
    for word in truth["words"]:
        if word["label"] in HIT_WORDS:
            continue
        words.append(word["onset_s"])
        syllables.extend(word["syllable_onsets_s"] or [word["onset_s"]])
    return sorted(syllables), sorted(words)


def hit_reference(truth: dict) -> list[float]:
    """Return the true onsets of percussive events [s].

    They are the percussion the renderer placed (claps, table hits, stamps,
    snaps, dice, squeaks) and the kisses.
    """
    hits = [p["time_s"] for p in truth["percussion"]]
    hits.extend(w["onset_s"] for w in truth["words"] if w["label"] in HIT_WORDS)
    return sorted(hits)


def match(estimated: list[float], reference_s: list[float], tolerance_s: float) -> list[tuple]:
    """Greedy one-to-one matching by closeness; returns (estimate, reference) pairs."""
    pairs = sorted(
        ((abs(e - r), i, j) for i, e in enumerate(estimated) for j, r in enumerate(reference_s)
         if abs(e - r) <= tolerance_s))
    used_e, used_r, out = set(), set(), []
    for _, i, j in pairs:
        if i not in used_e and j not in used_r:
            used_e.add(i)
            used_r.add(j)
            out.append((estimated[i], reference_s[j]))
    return out


def score(tally: Tally, syllables: list[float], words: list[float], case: Case,
          detected_s: dict | None = None, hits: list[float] | None = None) -> None:
    """Add one file's result to a tally.

    `hits` is None when the method reports no percussion of its own.
    """
    ref_syl, ref_word = reference(case.truth)
    tally.n_ref_group += len(case.group_syllables)
    tally.hits["g50"] += match_groups(syllables, case.group_syllables, 0.05)
    tally.n_est_syl += len(syllables)
    tally.n_ref_syl += len(ref_syl)
    tally.n_est_word += len(words)
    tally.n_ref_word += len(ref_word)
    tally.hits["s50"] += len(match(syllables, ref_syl, 0.05))
    tally.hits["s25"] += len(match(syllables, ref_syl, 0.025))
    pairs = match(words, ref_word, 0.05)
    tally.hits["w50"] += len(pairs)
    tally.hits["w25"] += len(match(words, ref_word, 0.025))
    tally.word_errors_s.extend(abs(e - r) for e, r in pairs)
    if detected_s is not None:
        tally.latencies_s.extend(detected_s[e] - r for e, r in pairs)
    if hits is not None:
        ref_hit = hit_reference(case.truth)
        tally.n_est_hit += len(hits)
        tally.n_ref_hit += len(ref_hit)
        tally.hits["h50"] += len(match(hits, ref_hit, 0.05))


def run_ours(case: Case, tally: Tally, config: OnsetConfig = DEFAULT_CONFIG) -> None:
    """The streaming detector, fed like the microphone."""
    samples = case.samples
    start = time.perf_counter()
    detector = OnsetDetector(case.sr, config)
    events = []
    for i in range(0, len(samples), BLOCK_SAMPLES):
        events.extend(detector.feed(samples[i:i + BLOCK_SAMPLES]))
    events.extend(detector.flush())
    tally.seconds += time.perf_counter() - start
    tally.audio_s += len(samples) / case.sr
    reported = [e for e in events if isinstance(e, Onset) and e.kind is OnsetKind.SYLLABLE]
    detected = first_reports_s(reported)
    events = final_events(events)
    syllables = [e.time_s for e in events if isinstance(e, Onset) and e.kind is OnsetKind.SYLLABLE]
    words = [e.onset_s for e in events if isinstance(e, Word)]
    hits = [e.time_s for e in events if isinstance(e, Onset) and e.kind is OnsetKind.PERCUSSION]
    score(tally, syllables, words, case, detected, hits)


LIBROSA_SETTINGS = {
    "default": {},
    # short hops, backtracking to the energy minimum before each peak, and a
    # minimum distance of ~70 ms between peaks (one syllable)
    "speech": {"hop_length": 64, "backtrack": True, "pre_max": 20, "post_max": 5,
               "pre_avg": 50, "post_avg": 5, "wait": 17, "delta": 0.2},
}


def librosa_lookahead_s(setting: dict, sr: int) -> float:
    """Look-ahead of librosa's centred frames plus its peak picking [s]."""
    hop = setting.get("hop_length", 512)
    frames = max(setting.get("post_max", 1), setting.get("post_avg", 1))
    return (2048 // 2 + frames * hop) / sr


def run_librosa(case: Case, tally: Tally, setting: dict) -> None:
    """librosa.onset.onset_detect on the whole file (offline)."""
    import librosa

    start = time.perf_counter()
    onsets = librosa.onset.onset_detect(y=case.samples, sr=case.sr, units="time", **setting)
    tally.seconds += time.perf_counter() - start
    tally.audio_s += len(case.samples) / case.sr
    onsets = sorted(float(t) for t in onsets)
    words = [t for k, t in enumerate(onsets) if k == 0 or t - onsets[k - 1] >= WORD_GAP_S]
    score(tally, onsets, words, case)
    tally.latencies_s.append(librosa_lookahead_s(setting, case.sr))


def row(name: str, tally: Tally) -> str:
    """One line of the table."""
    errors = np.asarray(tally.word_errors_s) * 1000.0
    med, p95 = (np.median(errors), np.percentile(errors, 95)) if len(errors) else (np.nan,) * 2
    latency = np.median(tally.latencies_s) * 1000.0 if tally.latencies_s else np.nan
    rtf = tally.seconds / max(tally.audio_s, 1e-9)
    hit = f"{tally.f('h50'):7.3f}" if tally.n_est_hit + tally.n_ref_hit else f"{'-':>7}"
    return (f"{name:<22} {tally.f('s50'):7.3f} {tally.f('s25'):7.3f} {tally.f('g50'):7.3f} "
            f"{tally.f('w50'):7.3f} "
            f"{tally.f('w25'):7.3f} {hit} {med:8.1f} {p95:8.1f} {latency:8.1f} {rtf:8.4f}")


HEADER = (f"{'method':<22} {'syl@50':>7} {'syl@25':>7} {'grp@50':>7} {'word@50':>7} "
          f"{'word@25':>7} {'hit@50':>7} "
          f"{'med ms':>8} {'p95 ms':>8} {'lat ms':>8} {'RTF':>8}")


def main() -> None:
    """Render, detect, score, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=56, help="performances to render")
    parser.add_argument("--seed", type=int, default=None,
                        help="7 (the held-out set), or 101 with --dev")
    parser.add_argument("--no-librosa", action="store_true")
    parser.add_argument("--per-condition", action="store_true",
                        help="also print our figures per noise condition")
    parser.add_argument("--dev", action="store_true",
                        help="the tuning set (train voices only, no librosa, per "
                             "condition; seed 101 unless --seed is given, e.g. 102)")
    parser.add_argument("--syllables-in-time", action="store_true",
                        help="render every voice's syllables in time (decision 28)")
    parser.add_argument("--set", nargs="*", default=[], metavar="NAME=VALUE",
                        help="override detector settings (OnsetConfig fields), for tuning")
    args = parser.parse_args()
    if args.dev:
        args.no_librosa, args.per_condition = True, True
    if args.seed is None:
        args.seed = 101 if args.dev else 7
    overrides = {}
    for item in args.set:
        name, _, value = item.partition("=")
        overrides[name] = type(getattr(DEFAULT_CONFIG, name))(value)
    config = dataclasses.replace(DEFAULT_CONFIG, **overrides)

    t0 = time.perf_counter()
    cases = make_cases(args.n, args.seed, "train" if args.dev else None,
                       args.syllables_in_time)
    audio_s = sum(len(c.samples) / c.sr for c in cases)
    print(f"{len(cases)} performances, {audio_s / 60:.1f} min of audio, "
          f"rendered in {time.perf_counter() - t0:.0f} s (seed {args.seed}"
          + (", syllables in time)" if args.syllables_in_time else ")"))
    held_out = sum(c.truth["options"]["split"] == "test" for c in cases)
    print(f"{held_out} of them with held-out test voices only; "
          f"{sum(c.truth['options']['voices'] > 1 for c in cases)} with 2-4 voices")
    ours = Tally()
    per_condition: dict[str, Tally] = {}
    for case in cases:
        run_ours(case, ours, config)
        if args.per_condition:
            key = case.condition.replace(" +reverb", "")
            run_ours(case, per_condition.setdefault(key, Tally()), config)
            if "+reverb" in case.condition:
                run_ours(case, per_condition.setdefault("any +reverb", Tally()), config)
            voices = case.truth["options"]["voices"]
            run_ours(case, per_condition.setdefault(
                "1 voice" if voices == 1 else "2-4 voices", Tally()), config)
    print()
    print(HEADER)
    print(row("beattrainer (causal)", ours))
    if not args.no_librosa:
        for name, setting in LIBROSA_SETTINGS.items():
            tally = Tally()
            for case in cases:
                run_librosa(case, tally, setting)
            print(row(f"librosa {name}", tally))
    print("(librosa is offline: its 'lat' is the look-ahead of its centred frames and "
          "peak picking)")
    if args.per_condition:
        print()
        print(HEADER)
        for key in sorted(per_condition):
            print(row(key, per_condition[key]))


if __name__ == "__main__":
    main()
