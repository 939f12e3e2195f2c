"""Benchmark of the slot recognizer on slots built from held-out test voices.

    /work/venv/bin/python benchmarks/recognize.py [--groups 12] [--seed 7] [--backend pocketsphinx]

Each "group" is 1-4 test voices (never used for tuning); each said item is
placed in a slot at SNR 30, 20 or 10 dB. Every slot is judged against the
item said (correct accept) and against other items (wrong accept): the game's
main confusions (MIEZEKATZE vs every substitute, voice vs silence, normal vs
quiet/loud/high) and a few random others. Runs without and with the
group-voice layer (templates from another rendition of the same group).
Prints the confusion of heard labels, per-item rates, CPU per slot, and the
time from the slot's end to the answer.
"""
from __future__ import annotations

import argparse
import collections
import time

import numpy as np

from beattrainer.recognize import GroupProfile, SlotContext, SlotRecognizer, describe_slot
from beattrainer.recognize.simulate import SAMPLE_RATE, add_noise, mix_voices, set_level
from beattrainer.recognize.vocabulary import CARD_WORDS, Item, acceptable
from beattrainer.synth.clips import ClipLibrary

SLOT_S = 1.5
BASE_LEVEL_DBFS = -24.0
GAIN_DB = {"quiet": -10.0, "loud": 8.0}  # the cards ask for clearly softer and louder
NONVERBAL = ("HISS", "KISS", "SHH", "SQUEAK", "ZOMBIE")
MODIFIED = ("MIEZEKATZE/quiet", "MIEZEKATZE/loud", "MIEZEKATZE/high", "MIEZEKATZE/slow")
BLOCK = 512


def renditions(lib, voices, label, modifier, index):
    """Clips of `label` for each voice (rendition `index` where several exist)."""
    out = []
    for voice in voices:
        clips = lib.query(label=label, voice=voice, modifier=modifier, split="test")
        if not clips:
            clips = lib.query(label=label, split="test", modifier=modifier)
        out.append(clips[index % len(clips)])
    return out


def make_slot(lib, item: Item, voices, index, snr_db, rng):
    """One slot's audio for a said item."""
    # slow is a free-timing card: its slot lasts as long as the group takes
    slot = int((SLOT_S + (0.6 if item.modifier == "slow" else 0.0)) * SAMPLE_RATE)
    onset = int(rng.uniform(0.08, 0.2) * SAMPLE_RATE)
    if item.label == "SILENCE":
        clean = np.zeros(slot, np.float32)
        if rng.random() < 0.3:  # a dice roll may be heard in a silent slot
            roll = lib.query(label="DICE_ROLL", split="test")[0]
            clean = mix_voices([lib.audio(roll)], slot, onset, rng, 0.0)
            clean = set_level(clean, BASE_LEVEL_DBFS - 6.0)
        ref = 10.0 ** (BASE_LEVEL_DBFS / 20.0)
        return add_noise(clean, snr_db, rng, reference_rms=ref)
    if item.label in NONVERBAL:
        clips = lib.query(label=item.label, split="test")[:1]
    else:
        mod = item.modifier if item.modifier in ("high", "slow") else None
        clips = renditions(lib, voices, item.label, mod, index)
    audio = [lib.audio(c)[int(c.onset_s * SAMPLE_RATE):] for c in clips]
    clean = mix_voices(audio, slot, onset, rng)
    level = BASE_LEVEL_DBFS + GAIN_DB.get(item.modifier, 0.0)
    clean = set_level(clean, level)
    ref = 10.0 ** (BASE_LEVEL_DBFS / 20.0)  # the room noise is fixed, not relative to a quiet word
    return add_noise(clean, snr_db, rng, reference_rms=ref)


def group_profile(lib, voices, rng, snr_db):
    """The group's normal MIEZEKATZE from two solo renditions."""
    solos = [make_slot(lib, Item("MIEZEKATZE"), voices, i, snr_db, rng) for i in (0, 1)]
    return GroupProfile.from_acoustics([describe_slot(s) for s in solos])


def wrong_targets(said: Item, items, rng) -> list[Item]:
    """Expected items to test a said item against (main confusions plus random ones)."""
    main: list[Item] = []
    if said.label == "MIEZEKATZE" and said.modifier is None:
        main += [Item(w) for w in CARD_WORDS if w not in ("MIEZEKATZE",)]
        main += [Item.parse(m) for m in MODIFIED if m != "MIEZEKATZE/slow"]
        main.append(Item("SILENCE"))
    elif said.label == "MIEZEKATZE":
        main.append(Item.parse(MODIFIED[0]) if said.modifier != "quiet" else Item("MIEZEKATZE/loud"))
    elif said.label in CARD_WORDS:
        main += [Item("MIEZEKATZE"), Item("SILENCE")]
    elif said.label == "SILENCE":
        main += [Item("MIEZEKATZE"), Item("YEAH"), Item("BAM")]
    others = [i for i in items if str(i) != str(said) and i.label != said.label]
    extra = [others[int(k)] for k in rng.choice(len(others), size=3, replace=False)]
    seen = {}
    for item in main + extra:
        if not acceptable(item, said):
            seen.setdefault(str(item), (item, item in main))
    return list(seen.values())


def run(args) -> None:
    lib = ClipLibrary.load()
    rng = np.random.default_rng(args.seed)
    names = ("ANNA", "BEN", "CEM", "JÖRG", "MEI", "SIOBHAN")
    voiced = [v for v in lib.voice_ids(split="test", whisper=False)]
    items = ([Item(w) for w in CARD_WORDS if w != "SHH"] + [Item.parse(m) for m in MODIFIED]
             + [Item(n) for n in names] + [Item(x) for x in NONVERBAL] + [Item("SILENCE")])
    vocabulary = (*CARD_WORDS, *names)
    results = {False: collections.defaultdict(list), True: collections.defaultdict(list)}
    confusion = {False: collections.Counter(), True: collections.Counter()}
    cpu_slot, cpu_end = [], []
    for g in range(args.groups):
        n_voices = 1 + g % 4
        voices = [voiced[int(k)] for k in rng.integers(0, len(voiced), n_voices)]
        snr = (30.0, 20.0, 10.0)[g % 3]
        group = group_profile(lib, voices, rng, snr)
        for with_templates in (False, True):
            rec = SlotRecognizer.create(backend=args.backend, vocabulary=vocabulary)
            if with_templates:  # an earlier performance of this group: rendition 1
                for item in items:
                    if item.label != "SILENCE" and item.modifier is None:
                        rec.learn(make_slot(lib, item, voices, 1, 30.0, rng), item.label)
            for item in items:
                audio = make_slot(lib, item, voices, 0, snr, rng)
                targets = [(item, True)] + [(t, m) for t, m in wrong_targets(item, items, rng)]
                for expected, main in targets:
                    ctx = SlotContext(expected=str(expected), group=group)
                    t0 = time.process_time()
                    rec.start_slot(ctx)
                    for i in range(0, len(audio), BLOCK):
                        rec.feed(audio[i:i + BLOCK])
                    t1 = time.process_time()
                    heard = rec.end_slot()
                    t2 = time.process_time()
                    cpu_slot.append(t2 - t0)
                    cpu_end.append(t2 - t1)
                    right = expected is item
                    results[with_templates][(str(expected), right, main)].append(heard.accepted)
                    if right:
                        confusion[with_templates][(str(item), heard.label)] += 1
    report(results, confusion, cpu_slot, cpu_end, args)


def rate(values) -> str:
    return f"{100.0 * np.mean(values):5.1f}% ({len(values)})" if values else "   -"


def report(results, confusion, cpu_slot, cpu_end, args) -> None:
    print(f"# slot recognizer benchmark: {args.groups} groups of 1-4 held-out voices, "
          f"SNR 30/20/10 dB, backend {args.backend}, seed {args.seed}")
    for with_templates in (False, True):
        res = results[with_templates]
        title = "with" if with_templates else "without"
        print(f"\n## {title} the group-voice layer")
        print(f"{'expected item':20s} {'correct accept':>16s} {'wrong accept (main)':>22s} "
              f"{'wrong accept (all)':>20s}")
        items = sorted({k[0] for k in res})
        for name in items:
            ca = res.get((name, True, True), [])
            wa_main = res.get((name, False, True), [])
            wa_all = wa_main + res.get((name, False, False), [])
            print(f"{name:20s} {rate(ca):>16s} {rate(wa_main):>22s} {rate(wa_all):>20s}")
        all_ca = [v for k, vs in res.items() if k[1] for v in vs]
        main_wa = [v for k, vs in res.items() if not k[1] and k[2] for v in vs]
        all_wa = [v for k, vs in res.items() if not k[1] for v in vs]
        print(f"{'TOTAL':20s} {rate(all_ca):>16s} {rate(main_wa):>22s} {rate(all_wa):>20s}")
        wrong = {k: v for k, v in confusion[with_templates].items() if k[0] != k[1]}
        print("most frequent confusions (said -> heard):",
              ", ".join(f"{s}->{h} x{n}" for (s, h), n in
                        sorted(wrong.items(), key=lambda x: -x[1])[:12]) or "none")
    ms = 1000.0 * np.asarray(cpu_slot)
    end_ms = 1000.0 * np.asarray(cpu_end)
    print(f"\nCPU per slot: median {np.median(ms):.1f} ms, 95th pct {np.percentile(ms, 95):.1f} ms "
          f"({len(ms)} slots of {SLOT_S} s)")
    print(f"slot end -> answer (CPU of end_slot): median {np.median(end_ms):.1f} ms, "
          f"95th pct {np.percentile(end_ms, 95):.1f} ms, max {end_ms.max():.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description="slot recognizer benchmark")
    parser.add_argument("--groups", type=int, default=12)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--backend", default="pocketsphinx",
                        choices=["pocketsphinx", "vosk", "none", "auto"])
    run(parser.parse_args())


if __name__ == "__main__":
    main()
