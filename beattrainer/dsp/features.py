"""Short-time features for onset detection (numpy only, causal).

Every frame ends at its hop's last sample: nothing here looks ahead. The
functions are pure and work on whole arrays of hops, so a streaming shell can
call them once per block and get exactly what one call on the whole signal
would give.
"""
from __future__ import annotations

import bisect
import math
from collections import deque

import numpy as np

# Band edges [Hz]: narrow at the bottom where voicing lives, wide at the top
# where fricatives and clicks live. The top band stops below 8 kHz (16 kHz rate).
BAND_EDGES_HZ = (100.0, 300.0, 600.0, 1000.0, 1600.0, 2500.0, 3600.0, 5000.0, 7800.0)
POWER_FLOOR = 1e-12  # [power] keeps log() finite on digital silence (about -120 dBFS)


def bands_below(frequency_hz: float, edges_hz=BAND_EDGES_HZ) -> int:
    """How many bands of `edges_hz` end at or below `frequency_hz` (at least one)."""
    return max(1, sum(1 for top in edges_hz[1:] if top <= frequency_hz))


def frame_signal(samples: np.ndarray, frame_samples: int, hop_samples: int) -> np.ndarray:
    """Cut a signal into overlapping frames, one per complete hop.

    Parameters
    ----------
    samples : np.ndarray, shape (n,)
        Signal; the first `frame_samples - hop_samples` samples are history
        that only completes the first frame.
    frame_samples, hop_samples : int
        Frame length and hop [samples].

    Returns
    -------
    np.ndarray, shape (n_hops, frame_samples)
        A read-only view; frame i ends at sample `frame_samples + i*hop_samples`.
    """
    n_hops = (0 if len(samples) < frame_samples
              else 1 + (len(samples) - frame_samples) // hop_samples)
    if n_hops == 0:
        return np.zeros((0, frame_samples), dtype=samples.dtype)
    samples = np.ascontiguousarray(samples)
    # (the strided view built directly: sliding_window_view and as_strided cost more
    # than copying a 512-sample block's frames, and a streaming caller frames every block)
    frames = np.ndarray((n_hops, frame_samples), samples.dtype, buffer=samples,
                        strides=(hop_samples * samples.itemsize, samples.itemsize))
    frames.flags.writeable = False
    return frames


def band_bin_edges(sr: int, frame_samples: int, edges_hz=BAND_EDGES_HZ) -> np.ndarray:
    """FFT bin index where each band starts, plus the end of the last band.

    Returns
    -------
    np.ndarray of int, shape (n_bands + 1,)
    """
    bins = np.round(np.asarray(edges_hz) * frame_samples / sr).astype(int)
    bins = np.clip(bins, 1, frame_samples // 2)
    return bins


def band_powers(frames: np.ndarray, window: np.ndarray, bin_edges: np.ndarray) -> np.ndarray:
    """Total power per band of each windowed frame.

    Parameters
    ----------
    frames : np.ndarray, shape (n_hops, frame_samples)
    window : np.ndarray, shape (frame_samples,)
    bin_edges : np.ndarray of int, shape (n_bands + 1,), from `band_bin_edges`

    Returns
    -------
    np.ndarray, shape (n_hops, n_bands), float64 power summed over each band's bins
    """
    return band_sums(power_spectrum(frames, window), bin_edges)


def power_spectrum(frames: np.ndarray, window: np.ndarray,
                   spectrum: np.ndarray | None = None) -> np.ndarray:
    """Power per FFT bin of each windowed frame, shape (n_hops, frame_samples // 2 + 1).

    `spectrum`, a complex array of that shape, takes the FFT in between (a streaming
    caller's buffer: rfft's own allocation costs a tenth of a block's transform).
    """
    if len(frames) == 0:
        return np.zeros((0, frames.shape[1] // 2 + 1))
    spectrum = np.fft.rfft(frames * window, axis=1, out=spectrum)
    return spectrum.real**2 + spectrum.imag**2


def rfft_padded(frames: np.ndarray, fft_samples: int,
                window: np.ndarray | None = None) -> np.ndarray:
    """`np.fft.rfft(frames * window, fft_samples, axis=1)` (window optional), faster.

    The same numbers: given rows shorter than the transform, numpy pads and transforms
    them one at a time; the rows padded here (the windowed frame written straight into
    the zeros) go through its batched transform, a quarter cheaper for the recognizer's
    1024-point spectra of 640-sample frames.
    """
    width = frames.shape[1]
    padded = np.empty((len(frames), fft_samples))
    padded[:, width:] = 0.0  # (only the padding: zeroing it all cost a tenth of the transform)
    head = padded[:, :width]
    if window is None:
        head[...] = frames
    else:
        np.multiply(frames, window, out=head)
    return np.fft.rfft(padded, axis=1)


def squared_magnitude(spectrum: np.ndarray) -> np.ndarray:
    """|spectrum|^2, as `spectrum.real**2 + spectrum.imag**2` gives it, with one temporary less."""
    power = np.square(spectrum.real)
    power += np.square(spectrum.imag)
    return power


def band_sums(power: np.ndarray, bin_edges: np.ndarray) -> np.ndarray:
    """Sum a power spectrum over the bands of `band_bin_edges`, shape (n_hops, n_bands)."""
    if len(power) == 0:
        return np.zeros((0, len(bin_edges) - 1))
    sums = np.add.reduceat(power[:, : bin_edges[-1]], bin_edges[:-1], axis=1)
    return sums + POWER_FLOOR


def peak_bin_share(power: np.ndarray, bin_edges: np.ndarray) -> np.ndarray:
    """Share of the power in the strongest bin and its two neighbours, per hop.

    A whistle or a squeaker puts most of its power into one spectral line
    (about 0.5 and more); noise, a clap or a hiss spreads it (below 0.2).

    Parameters
    ----------
    power : np.ndarray, shape (n_hops, n_bins), from `power_spectrum`
    bin_edges : np.ndarray of int, the analysed range (`band_bin_edges`)

    Returns
    -------
    np.ndarray, shape (n_hops,)
    """
    return strongest_line(power, bin_edges)[0]


def strongest_line(power: np.ndarray, bin_edges: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Find the strongest spectral line of each hop: its power share and its FFT bin.

    The share is that of `peak_bin_share` (the bin and its two neighbours).

    Returns
    -------
    share : np.ndarray, shape (n_hops,)
    bin : np.ndarray of int, shape (n_hops,), FFT bin index of the line's centre
    """
    if len(power) == 0:
        return np.zeros(0), np.zeros(0, dtype=int)
    inside = power[:, bin_edges[0]: bin_edges[-1]]
    return _strongest_of(_line_triples(inside), inside, bin_edges[0])


def strongest_lines(power: np.ndarray, bin_edges: np.ndarray,
                    split_bin: int) -> tuple[tuple[np.ndarray, np.ndarray],
                                             tuple[np.ndarray, np.ndarray]]:
    """`strongest_line` over the whole range, and over its bins from `split_bin` on.

    One pass for both (the second as if the range began at `split_bin`: no neighbour
    below it counts): ((share, bin), (share, bin)).
    """
    if len(power) == 0:
        empty = (np.zeros(0), np.zeros(0, dtype=int))
        return empty, empty
    inside = power[:, bin_edges[0]: bin_edges[-1]]
    triple = _line_triples(inside)
    k = split_bin - bin_edges[0]
    high_triple = triple[:, k:].copy()
    high_triple[:, 0] -= inside[:, k - 1]
    return (_strongest_of(triple, inside, bin_edges[0]),
            _strongest_of(high_triple, inside[:, k:], split_bin))


def _line_triples(inside: np.ndarray) -> np.ndarray:
    """Each bin's power plus its two neighbours' (none beyond the range's edges)."""
    triple = inside.copy()
    triple[:, 1:] += inside[:, :-1]      # (np.pad cost a tenth of the detector's time)
    triple[:, :-1] += inside[:, 1:]
    return triple


def _strongest_of(triple: np.ndarray, inside: np.ndarray,
                  first_bin: int) -> tuple[np.ndarray, np.ndarray]:
    """The strongest triple's share of the range's power, and its FFT bin, per hop."""
    best = triple.argmax(axis=1)
    # (the maximum is the value at the argmax: cheaper than indexing it out)
    share = triple.max(axis=1) / (inside.sum(axis=1) + POWER_FLOOR)
    return share, best + first_bin


def rise_low_share(power: np.ndarray, before: np.ndarray, low_bands: int) -> float:
    """Share of the low bands in what rose: `power - before` per band, negatives dropped.

    Judging what came in rather than the whole spectrum keeps a clap on top of a
    vowel (or of babble) unvoiced and a vowel rising under a burst voiced.

    Parameters
    ----------
    power, before : np.ndarray, shape (n_bands,)
        Band powers now and before the onset.
    low_bands : int
        How many of the lowest bands count as "low".

    Returns
    -------
    float in [0, 1] (0 when nothing rose)
    """
    rise = np.maximum(np.asarray(power) - np.asarray(before), 0.0)
    total = float(rise.sum())
    return float(rise[:low_bands].sum()) / total if total > 0.0 else 0.0


def window_minima(rows: np.ndarray, width: int) -> np.ndarray:
    """Minimum of each `width` consecutive rows, shape (len(rows) - width + 1, n_columns).

    By doubling: minima over 2, 4, 8, ... rows, then two overlapping spans cover
    `width` (a minimum is exact whatever the overlap). A few whole-array calls: a
    sliding window view cost four times as much, to build and to reduce.
    """
    n = len(rows) - width + 1
    span, minima = 1, rows
    while 2 * span <= width:
        minima = np.minimum(minima[:-span], minima[span:])
        span *= 2
    return np.minimum(minima[:n], minima[width - span: width - span + n])


def power_db(power: np.ndarray) -> np.ndarray:
    """10 log10 of a power array [dB]."""
    return 10.0 * np.log10(power)


class MovingAverage:
    """Causal moving average over `len(history) + 1` hops, fed a block of hops at a time.

    The last hops before a block stay in front of it in one buffer: a block's
    hops are written behind them, the average is a sum of shifted slices of
    the buffer, and the hops the next block needs move to the front (no array
    is joined or cut anew each block: numpy's call overhead is the cost here;
    the slices are views kept while blocks keep their size).

    Parameters
    ----------
    history : np.ndarray, shape (k, n_columns)
        The k hops before the first block (a stream's assumed past).
    """

    def __init__(self, history: np.ndarray) -> None:
        self._k = len(history)
        self._buffer = np.array(history, dtype=float)  # the k hops before, then the block
        self._layout: tuple | None = None  # (block hops, column widths) the views are for
        self._views: tuple = ()

    def update(self, *columns: np.ndarray) -> np.ndarray:
        """The average at each hop of a block, given as arrays side by side.

        Parameters
        ----------
        *columns : np.ndarray, shape (n_hops, n_i)
            The block's values, their columns in this order (sum of n_i: n_columns).

        Returns
        -------
        np.ndarray, shape (n_hops, n_columns)
        """
        k = self._k
        layout = (len(columns[0]), tuple(values.shape[1] for values in columns))
        if layout != self._layout:  # (a block of another size)
            self._lay_out(layout)
        block, lagged, front, back = self._views
        if len(columns) == 1:
            block[...] = columns[0]
        else:
            np.concatenate(columns, axis=1, out=block)
        # fixed summation order, newest to oldest: identical for any block split
        total = block + lagged[0] if k else block.copy()
        for values in lagged[1:]:
            total += values
        front[...] = back  # the last k hops (overlapping: numpy copies safely)
        total /= k + 1
        return total

    def _lay_out(self, layout: tuple) -> None:
        """Size the buffer for blocks of `layout[0]` hops, and take the views on it."""
        k, n = self._k, layout[0]
        if len(self._buffer) != k + n:
            buffer = np.empty((k + n, self._buffer.shape[1]))
            buffer[:k] = self._buffer[:k]
            self._buffer = buffer
        buffer = self._buffer
        self._views = (buffer[k:], [buffer[k - lag: k + n - lag] for lag in range(1, k + 1)],
                       buffer[:k], buffer[n:])
        self._layout = layout


class MinimumFloor:
    """Running noise floor per band: the lowest chunk-average level of the last chunks.

    Averaging over a chunk (50 ms) first makes the minimum stable: the
    minimum of single noisy frames would sink ever lower the longer it looks.
    Chunk boundaries sit at fixed absolute hop indices, so any split of a
    stream into blocks gives the same floor. Until the first chunk is
    complete the floor is the running mean of what was seen.

    Parameters
    ----------
    n_bands : int
    chunk_hops : int
        Hops per chunk.
    n_chunks : int
        Completed chunks the minimum is taken over.
    ignore_below_db : float
        Chunks at the start of a stream whose every band averages below this
        (digital silence: zero padding before a recording, a muted input) are
        forgotten as soon as `STEADY_CHUNKS` louder chunks in a row have kept
        within `STEADY_DB` of each other (steady noise, not speech), so that
        noise starting after the stream does sets the floor at once instead of
        after a whole window.
    """

    def __init__(self, n_bands: int, chunk_hops: int, n_chunks: int,
                 ignore_below_db: float = float("-inf")) -> None:
        self.chunk_hops = int(chunk_hops)
        self._ignore_below_db = float(ignore_below_db)
        self._heard = False  # has a chunk above digital silence been seen?
        self._n_chunks = int(n_chunks)
        # the completed chunks' means, oldest first, one row each (an array, not a list
        # of rows: numpy's min over a list converts it first, a tenth of the floor's cost)
        self._chunk_means = np.zeros((0, n_bands))
        # the current chunk's hops, behind a row of zeros the running sum starts from
        self._rows = np.zeros((self.chunk_hops + 1, n_bands))
        self._done_min: np.ndarray | None = None
        self._position = 0  # hops already seen in the current chunk

    STEADY_CHUNKS = 4
    STEADY_DB = 6.0

    def _forget_leading_silence(self) -> None:
        """Drop the stream's leading digital silence once steady noise is heard."""
        recent = self._chunk_means[-self.STEADY_CHUNKS:]
        if len(recent) < self.STEADY_CHUNKS:
            return
        if np.all(recent < self._ignore_below_db, axis=1).any():
            return
        # (asked at every chunk while only silence was heard: one call for the chunks)
        broadband = np.mean(recent, axis=1).tolist()
        if max(broadband) - min(broadband) <= self.STEADY_DB:
            self._heard = True
            self._chunk_means = self._chunk_means[
                np.any(self._chunk_means >= self._ignore_below_db, axis=1)]
            self._done_min = self._chunk_means.min(axis=0)

    def update(self, levels_db: np.ndarray) -> np.ndarray:
        """Floor at each of the given hops.

        Parameters
        ----------
        levels_db : np.ndarray, shape (n_hops, n_bands)

        Returns
        -------
        np.ndarray, shape (n_hops, n_bands) [dB]
        """
        out = np.empty_like(levels_db)
        start = 0
        while start < len(levels_db):
            stop, first_row = self._take_hops(levels_db, start)
            if self._done_min is not None:
                out[start:stop] = self._done_min
            else:
                out[start:stop] = self._running_means(first_row)
            self._complete_chunk()
            start = stop
        return out

    def update_segments(self, levels_db: np.ndarray) -> list:
        """`update`'s floor as stretches of hops with the same floor: [(row, n_hops), ...].

        The floor changes only as a chunk completes (before the first one, at every
        hop), so a block's floor is one or two rows: a caller converting it (to power,
        `noise_power`) need convert only those. `row` has shape (n_bands,); while the
        floor stays the same it is the same array object, from one call to the next
        and across completed chunks that left every band's minimum as it was (then a
        block is one stretch; a caller may keep what it made of the row). Stacked, each
        row repeated for its hops, they are `update(levels_db)`, the same numbers.
        """
        segments = []
        start = 0
        while start < len(levels_db):
            stop, first_row = self._take_hops(levels_db, start)
            if self._done_min is not None:
                if segments and segments[-1][0] is self._done_min:
                    # (a chunk completed under the floor it kept: one stretch goes on)
                    segments[-1] = (self._done_min, segments[-1][1] + stop - start)
                else:
                    segments.append((self._done_min, stop - start))
            else:
                segments.extend((row, 1) for row in self._running_means(first_row))
            self._complete_chunk()
            start = stop
        return segments

    def _take_hops(self, levels_db: np.ndarray, start: int) -> tuple[int, int]:
        """Take in the hops from `start` up to the chunk's end (or the block's).

        Returns (stop, first_row): the block's hop after them, and the chunk row of
        the first (row 0 is the running sum's zero).
        """
        stop = min(len(levels_db), start + self.chunk_hops - self._position)
        first_row = 1 + self._position
        self._position += stop - start
        self._rows[first_row:1 + self._position] = levels_db[start:stop]
        return stop, first_row

    def _running_means(self, first_row: int) -> np.ndarray:
        """Before the first chunk completes: the mean of the hops so far, at each hop taken in.

        Running sums row after row (add.accumulate adds in order: the same sums for any
        split of the stream).
        """
        sums = np.add.accumulate(self._rows[:1 + self._position])[first_row:]
        return sums / np.arange(first_row, 1 + self._position)[:, None]

    def _complete_chunk(self) -> None:
        """If the chunk is complete: its mean joins the window, and the floor is their minimum."""
        if self._position < self.chunk_hops:
            return
        mean = np.add.accumulate(self._rows)[-1] / self.chunk_hops
        self._chunk_means = np.concatenate((self._chunk_means, mean[None, :]))[-self._n_chunks:]
        if not self._heard:
            self._forget_leading_silence()
        floor = self._chunk_means.min(axis=0)
        # a new array only where the floor changed (see update_segments): most chunks
        # leave every band's minimum as it was (7 of 10 in the onset benchmark's renders),
        # and a caller keeping what it made of the row finds it made already
        if self._done_min is None or floor.tolist() != self._done_min.tolist():
            self._done_min = floor
        self._position = 0


def excess_db(level_db: np.ndarray, floor_db: np.ndarray) -> np.ndarray:
    """How far each band is above its noise floor, never below zero [dB]."""
    return np.maximum(level_db - floor_db, 0.0)


def noise_power(floor_db: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The noise floor as power per band, and summed over bands, per hop.

    Parameters
    ----------
    floor_db : np.ndarray, shape (n_hops, n_bands)

    Returns
    -------
    noise : np.ndarray, shape (n_hops, n_bands)
    total_noise : np.ndarray, shape (n_hops,)
    """
    noise = 10.0 ** (floor_db / 10.0)
    return noise, noise.sum(axis=1)


def clean_level_db(power: np.ndarray, floor_db: np.ndarray, over_subtraction: float,
                   residue: float) -> np.ndarray:
    """Broadband level of what stands above the noise, relative to the noise [dB].

    Spectral subtraction per band, summed over bands: the estimate of the
    clean sound's energy, so its dips and peaks follow the clean sound's own
    short-time energy, the quantity the ground truth is defined on.

    Parameters
    ----------
    power : np.ndarray, shape (n_hops, n_bands)
        Band powers.
    floor_db : np.ndarray, shape (n_hops, n_bands)
        Noise floor per band [dB].
    over_subtraction : float
        Multiple of the floor subtracted (noise fluctuates above its floor).
    residue : float
        Fraction of the noise power kept so that silence has a finite level.

    Returns
    -------
    np.ndarray, shape (n_hops,), level [dB re the total noise floor power]
    """
    return clean_level_over_noise_db(power, *noise_power(floor_db), over_subtraction, residue)


def clean_level_over_noise_db(power: np.ndarray, noise: np.ndarray, total_noise: np.ndarray,
                              over_subtraction: float, residue: float) -> np.ndarray:
    """`clean_level_db` with the floor given as power (see `noise_power`).

    One conversion of the floor serves several levels over it; `power` may hold
    several of them, shape (n_levels, n_hops, n_bands): then shape (n_levels, n_hops).
    """
    return clean_level_over_parts_db(power, over_subtraction * noise, residue * total_noise,
                                     total_noise)


def clean_level_over_parts_db(power: np.ndarray, subtracted: np.ndarray, kept: np.ndarray,
                              total_noise: np.ndarray) -> np.ndarray:
    """`clean_level_over_noise_db` with the floor's products worked out already.

    `subtracted` is `over_subtraction * noise`, `kept` is `residue * total_noise`: the
    same products give the same numbers, and a floor that holds for a chunk of hops is
    multiplied once, not at every block. Each may be one row for all hops (shape
    (1, n_bands) and (1,)): numpy repeats it, the numbers stay those of a row per hop.
    """
    clean = np.maximum(power - subtracted, 0.0).sum(axis=-1)
    return 10.0 * np.log10((clean + kept) / total_noise)


def spectral_flatness(power: np.ndarray) -> np.ndarray:
    """Geometric over arithmetic mean of band powers, per hop (1 = flat, 0 = peaky).

    Parameters
    ----------
    power : np.ndarray, shape (n_hops, n_bands)
        Power per bin (band sums divided by band widths).

    Returns
    -------
    np.ndarray, shape (n_hops,)
    """
    return np.exp(np.mean(np.log(power), axis=1)) / np.mean(power, axis=1)


def percentile(values, q: float):
    """`np.percentile(values, q, axis=0)` (linear interpolation), for few rows, fast.

    np.percentile costs some 40 us a call, a tenth of the real-time budget of
    the 25 hops between two ambient updates; sorting a few dozen values does
    the same for less. The interpolation is numpy's own, so results are equal.

    Parameters
    ----------
    values : sequence of float, or of np.ndarray of shape (n_bands,), or
        np.ndarray of shape (n_rows, n_bands)
    q : float
        0-100.

    Returns
    -------
    float, or np.ndarray of shape (n_bands,)
    """
    if isinstance(values, np.ndarray) and values.ndim == 2:
        ordered = values.copy()
        ordered.sort(axis=0)  # (np.sort's wrapper costs a third more)
    elif isinstance(values[0], np.ndarray):
        ordered = np.sort(np.array(values), axis=0)
    else:
        ordered = sorted(values)
    return sorted_percentile(ordered, q)


def array_percentile(values: np.ndarray, q: float) -> float:
    """`np.percentile(values, q)` of a 1-D float array without NaN, as a float, fast.

    np.percentile's wrapper costs some 40 us a call, more than partitioning a slot's
    few hundred frame levels: the two order statistics around the position are
    partitioned into place and interpolated as numpy does (`sorted_percentile`),
    so the result is the same to the bit.
    """
    position = q / 100.0 * (len(values) - 1)
    below = math.floor(position)
    above = min(below + 1, len(values) - 1)
    return float(sorted_percentile(np.partition(values, (below, above)), q))


def float_median(values) -> float:
    """`float(np.median(values))` of a sequence (or 1-D array) of floats without NaN, fast.

    np.median's wrapper costs some 25 us a call, many times what the middle one or two
    values of a few take to find; their mean is taken as numpy takes it ((a + b) / 2).
    Values of another dtype than float64 (numpy would average two float32 in float32)
    go to np.median itself.
    """
    a = np.asarray(values)
    if a.dtype != np.float64 or a.ndim != 1 or len(a) == 0:
        return float(np.median(a))
    half = len(a) // 2
    if len(a) % 2:
        return float(np.partition(a, half)[half])
    middle = np.partition(a, (half - 1, half))
    return float((middle[half - 1] + middle[half]) / 2.0)


def sorted_percentile(ordered, q: float):
    """`percentile` of values sorted already (a list of floats, or rows sorted along axis 0)."""
    position = q / 100.0 * (len(ordered) - 1)
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    t = position - below
    a, b = ordered[below], ordered[above]
    difference = b - a
    return b - difference * (1.0 - t) if t >= 0.5 else a + difference * t


class AmbientLevel:
    """The steady bed under the foreground, and how high its own events reach.

    A level is followed in chunks of `chunk_hops` hops at fixed absolute hop
    indices (so any block split gives the same result). A completed chunk is
    kept only if its average lies below the limit given with its last hop (the
    caller passes its foreground level minus a margin, or -inf while a word of
    the foreground sounds, so the loud events the bed lies under do not lift
    it). Of the last `n_chunks` kept chunks, `bed_db` is the `bed_percentile`
    of their averages and `top_db` the `top_percentile` of their maxima:
    for babble, where its level sits between syllables and where its own
    syllables reach. Before the first chunk both follow the running mean and
    maximum.

    Given band levels with each hop, it also follows `band_top_db`, the
    `top_percentile` of the kept chunks' maxima per band: babble is many
    voices smeared together, so in each band its own peaks stay lower than a
    near speaker's, even where its broadband level reaches as high.

    Parameters
    ----------
    chunk_hops, n_chunks : int
    bed_percentile, top_percentile : float
        0-100.
    """

    def __init__(self, chunk_hops: int, n_chunks: int, bed_percentile: float,
                 top_percentile: float) -> None:
        self.chunk_hops = int(chunk_hops)
        self._means: deque = deque(maxlen=int(n_chunks))
        self._maxima: deque = deque(maxlen=int(n_chunks))
        # ... the same values kept sorted (one insertion a chunk, not a sort)
        self._sorted_means: list = []
        self._sorted_maxima: list = []
        self._bed_percentile = float(bed_percentile)
        self._top_percentile = float(top_percentile)
        self._n_chunks = int(n_chunks)
        # the kept chunks' band maxima, one row each, in a ring (only their percentile is
        # asked, which is the same in any order): an array, as numpy converts a list of
        # rows first, which cost more than the percentile itself
        self._band_maxima = np.zeros((0, 0))
        self._band_chunks = 0  # band maxima written so far
        self._values: list = []     # this chunk's hops so far (`push`)
        self._band_rows: list = []
        self.bed_db = float("nan")
        self.top_db = float("nan")
        self.band_top_db: np.ndarray | None = None

    def push(self, value_db: float, keep_below_db: float = float("inf"),
             bands_db: np.ndarray | None = None,
             keep_peak_below_db: float = float("inf")) -> tuple[float, float]:
        """Add one hop's level [dB] (and its band levels [dB]); return (bed_db, top_db).

        The hop-by-hop form of `add_chunk` and `follow_first_chunk` (a caller that
        has the chunk's hops at hand calls those once a chunk instead).
        """
        self._values.append(value_db)
        if bands_db is not None:
            self._band_rows.append(bands_db)
        if len(self._values) == self.chunk_hops:
            self.add_chunk(self._values, self._band_rows or None, keep_below_db,
                           keep_peak_below_db)
            self._values, self._band_rows = [], []
        elif not self._means:
            self.follow_first_chunk(self._values, self._band_rows or None)
        return self.bed_db, self.top_db

    def add_chunk(self, values_db: list, bands_db=None, keep_below_db: float = float("inf"),
                  keep_peak_below_db: float = float("inf")) -> None:
        """Add a completed chunk: its hops' levels [dB] and band levels [dB] (rows, or None).

        It is kept only where its average lies below `keep_below_db` and its
        loudest hop below `keep_peak_below_db` (both as given with its last hop).
        """
        mean = _sum_in_order(values_db) / self.chunk_hops
        peak = max(values_db)
        if (mean < keep_below_db and peak < keep_peak_below_db) or not self._means:
            _keep_sorted(self._means, self._sorted_means, mean)
            _keep_sorted(self._maxima, self._sorted_maxima, peak)
            if bands_db is not None:
                band_max = np.asarray(bands_db).max(axis=0)
                if not self._band_chunks:
                    self._band_maxima = np.empty((self._n_chunks, len(band_max)))
                self._band_maxima[self._band_chunks % self._n_chunks] = band_max
                self._band_chunks += 1
            # (a chunk not kept leaves the percentiles as they were: not worked out again)
            self.bed_db = float(sorted_percentile(self._sorted_means, self._bed_percentile))
            self.top_db = float(sorted_percentile(self._sorted_maxima, self._top_percentile))
            if self._band_chunks:
                self.band_top_db = percentile(self._band_maxima[:self._band_chunks],
                                              self._top_percentile)

    def follow_first_chunk(self, values_db: list, bands_db=None) -> None:
        """Before the first chunk is kept: the running mean and maximum of its hops so far."""
        self.bed_db, self.top_db = _sum_in_order(values_db) / len(values_db), max(values_db)
        if bands_db is not None:
            self.band_top_db = np.asarray(bands_db).max(axis=0)


def _keep_sorted(kept: deque, ordered: list, value: float) -> None:
    """Append `value` to `kept` (its oldest value drops out when full) and to its sorted copy."""
    if len(kept) == kept.maxlen:
        del ordered[bisect.bisect_left(ordered, kept[0])]  # (equal values are alike)
    kept.append(value)
    bisect.insort(ordered, value)


def _sum_in_order(values: list) -> float:
    """The sum of a few floats added one by one, first to last (as a running sum adds them).

    (Python's `sum` compensates rounding from 3.12 on: other numbers.)
    """
    total = 0.0
    for value in values:
        total += value
    return total
