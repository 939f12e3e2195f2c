"""Benchmark of the slot recognizer on held-out test voices.

    /work/venv/bin/python benchmarks/recognize.py [--performances 30] [--seed 7]
    /work/venv/bin/python benchmarks/recognize.py --mode clips [--groups 12] [--seed 7]

Default mode ("render"): whole performances rendered by
`beattrainer.synth.render.render_performance` with the library's held-out test
voices (`split="test"`), 1-4 voices, SNR 30/20/10 dB pink and babble noise,
periods 1.0-2.0 s. Every card slot and solo is cut as the referee cuts it:
from 30 ms before the true word onset (the nominal slot time for silence) to
the next word's onset (at most one period later; three for free-timing
cards' slow words and squeaks). Each performance has the quiet, loud and high
cards and a silence card plus YEAH, YO and two random others; every seventh one
is challenge 1 (all whispered). The recognizer is made per performance for its
vocabulary, and sees the group profile the referee would give it (the plain
MIEZEKATZE slots accepted so far).

Each slot is judged against its own expected item (correct accept) and, with
the same analysis, against every other item the performance could ask for
(wrong accept when the said item does not fulfil it). Pairs are grouped as the
issue defines the game's main confusions: MIEZEKATZE vs any substitute, voice
vs silence, normal vs quiet/loud/high (normal vs whisper is shown apart).
"With the group-voice layer" uses templates learned from an earlier
performance of the same group with the same cards.

Mode "clips" is the older benchmark: single library clips placed in slots.
"""
from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import collections  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from beattrainer.recognize import (  # noqa: E402
    GroupProfile,
    SlotContext,
    SlotRecognizer,
    describe_slot,
)
from beattrainer.recognize.simulate import SAMPLE_RATE, add_noise, mix_voices, set_level  # noqa: E402
from beattrainer.recognize.vocabulary import CARD_WORDS, Item, acceptable  # noqa: E402
from beattrainer.synth.clips import ClipLibrary  # noqa: E402

LEAD_IN_S = 0.03  # the referee's slot audio starts this long before the heard onset
CONDITIONS = ((30.0, "pink"), (20.0, "babble"), (10.0, "pink"), (30.0, "babble"),
              (20.0, "pink"), (10.0, "babble"))
MAIN_CARDS = ("08", "14", "46", "04", "11")  # quiet, loud, high, YEAH, YO in every performance
SILENCE_CARDS = ("26", "34", "41")
PLAYER_NAMES = ("Anna", "Jörg", "Cem", "Mei", "Ben", "Siobhan")
MAIN_CATEGORIES = ("MIEZEKATZE vs substitute", "voice vs silence", "normal vs quiet/loud/high")
CATEGORIES = (*MAIN_CATEGORIES, "normal vs whisper", "other")


# ------------------------------------------------------------------ render mode

def pair_category(said: Item, due: Item) -> str:
    """Which of the issue's confusion groups a (said, due) pair belongs to."""
    if "SILENCE" in (said.label, due.label):
        return "voice vs silence"
    if said.label == due.label == "MIEZEKATZE":
        mods = {said.modifier, due.modifier} - {None}
        if None in (said.modifier, due.modifier) and mods <= {"quiet", "loud", "high"}:
            return "normal vs quiet/loud/high"
        if None in (said.modifier, due.modifier) and mods == {"whisper"}:
            return "normal vs whisper"
        return "other"
    if "MIEZEKATZE" in (said.label, due.label):
        return "MIEZEKATZE vs substitute"
    return "other"


def build_performance(p: int, rng: np.random.Generator, catalog, others: list[str]):
    """The p-th performance: mode, cards, players."""
    from beattrainer.mzkz.sequence import Mode, compile_performance

    n_players = 2 + p % 3
    start = int(rng.integers(len(PLAYER_NAMES)))
    players = tuple(PLAYER_NAMES[(start + k) % len(PLAYER_NAMES)] for k in range(n_players))
    if p % 7 == 6:
        challenge = catalog.challenges[1]
        pool = sorted(c for c in catalog.cards if c not in challenge.sorted_out)
        cards = [str(c) for c in rng.choice(pool, size=challenge.cards, replace=False)]
        return compile_performance(cards, Mode.parse("challenge-1"), challenge.performances,
                                   players=players)
    picked = [others.pop() for _ in range(2)]
    cards = [*MAIN_CARDS, SILENCE_CARDS[p % len(SILENCE_CARDS)], *picked]
    order = rng.permutation(len(cards))
    return compile_performance([cards[i] for i in order], Mode.parse("highscore"), None,
                               players=players)


def slot_windows(truth: dict, sr: int, n_samples: int):
    """(slot truth, start sample, end sample) of every judged slot, cut like the referee."""
    period = truth["period_s"]
    onsets = sorted(w["onset_s"] for w in truth["words"])
    for slot in truth["slots"]:
        if slot["role"] == "final":
            continue
        onset = slot["word_onset_s"]
        anchor = onset if onset is not None else slot["expected_onset_s"]
        # (a called name is heard over one period like any word: judge.expected.runs_long)
        free = bool(slot["expected"].get("free_timing")) and slot["expected"]["sound"] != "word"
        later = [t for t in onsets if t >= anchor + 0.5 * period]
        end = min(later[0] if later else n_samples / sr, anchor + (3.0 if free else 1.0) * period)
        yield slot, int(round((anchor - LEAD_IN_S) * sr)), min(n_samples, int(round(end * sr)))


def said_item(slot: dict) -> Item:
    """What the group actually said in a slot (no mistakes are injected)."""
    placed = slot["placed"]
    if placed is None:
        return Item("SILENCE")
    return Item(placed["label"], placed["modifier"])


def due_items(perf) -> dict[str, object]:
    """Every expected item the performance may ask for, plus the MIEZEKATZE variants and silence."""
    from beattrainer.mzkz.model import Expected, Modifier, Sound

    out: dict[str, object] = {}
    for slot in perf.slots:
        if slot.role.value != "final":
            out.setdefault(slot.expected.item(), slot.expected)
    for mod in (None, Modifier.QUIET, Modifier.LOUD, Modifier.HIGH, Modifier.WHISPER):
        e = Expected(Sound.MZKZ, "MIEZEKATZE", modifier=mod)
        out.setdefault(e.item(), e)
    out.setdefault("SILENCE", Expected(Sound.SILENCE))
    return out


def as_item(expected) -> tuple[Item, tuple[str, ...]]:
    item = Item.parse(expected.item())
    return item, tuple(a for a in expected.labels if a != item.label)


class Tally:
    """Accept decisions by (due item, said item, pair category)."""

    def __init__(self) -> None:
        self.ca: dict[str, list[bool]] = collections.defaultdict(list)      # said item -> accepted
        self.wa: dict[tuple[str, str], list[bool]] = collections.defaultdict(list)  # (due, cat)
        self.pairs: dict[str, list[bool]] = collections.defaultdict(list)  # cat -> wrong accepts
        self.ca_by_cat: dict[str, list[bool]] = collections.defaultdict(list)
        self.ca_by_cond: dict[str, list[bool]] = collections.defaultdict(list)
        self.confusion: collections.Counter = collections.Counter()


def _r(x):
    return None if x is None else round(float(x), 1)


def show_failure(rec, audio, profile, said, heard, cond, block, due=None) -> None:
    """One line per failed decision (--verbose), for tuning on the train voices."""
    from beattrainer.recognize.acoustic import dynamics_scores

    analysis = rec.analyse(audio, profile, block)
    a = analysis.acoustics
    dyn = dynamics_scores(a, profile) if profile else {}
    what = f"WA due {due}" if due else "CA miss"
    best = sorted(analysis.class_log.items(), key=lambda x: -x[1])[:2]
    print(f"  {what}: said {said} heard {heard.label} [{cond}] speech "
          f"{analysis.speech.label if analysis.speech else None} syl {a.syllables} "
          f"lvl {a.level_db if a.level_db is None else round(a.level_db, 1)} "
          f"grp {_r(profile.level_db if profile else None)} pitch {_r(a.pitch_hz)} "
          f"grp {_r(profile.pitch_hz if profile else None)} vf {a.voiced_fraction:.2f} "
          f"classes {[(c, round(v, 1)) for c, v in best]} "
          f"dyn {({k: round(v, 2) for k, v in dyn.items()})}")


def streamed(rec: SlotRecognizer, ctx: SlotContext, audio, block: int):
    """Recognise a slot fed in blocks: (heard, CPU for the whole slot, CPU of end_slot) [s]."""
    t0 = time.process_time()
    rec.start_slot(ctx)
    for i in range(0, len(audio), block):
        rec.feed(audio[i:i + block])
    t1 = time.process_time()
    heard = rec.end_slot()
    t2 = time.process_time()
    return heard, t2 - t0, t2 - t1


def judge_performance(rec: SlotRecognizer, samples, sr, truth, perf, tally: Tally, cond: str,
                      cpu: list, end_cpu: list, block: int, verbose: bool = False) -> None:
    """Run one recognizer over every slot of a rendered performance."""
    from beattrainer.mzkz.model import Sound

    dues = due_items(perf)
    normal: list = []
    slots = {s.index: s for s in perf.slots}
    for slot_truth, a, b in slot_windows(truth, sr, len(samples)):
        audio = samples[a:b]
        slot = slots[slot_truth["index"]]
        profile = GroupProfile.from_acoustics(normal[-8:]) if normal else None
        said = said_item(slot_truth)
        ctx = SlotContext(expected=slot.expected, group=profile)
        heard, slot_cpu_s, end_cpu_s = streamed(rec, ctx, audio, block)
        cpu.append((slot_cpu_s, len(audio) / sr))
        end_cpu.append(end_cpu_s)
        key = str(said)
        if verbose and not heard.accepted:
            show_failure(rec, audio, profile, said, heard, cond, block)
        tally.ca[key].append(heard.accepted)
        tally.ca_by_cond[cond].append(heard.accepted)
        tally.confusion[(key, heard.label)] += 1
        if heard.accepted and slot.expected.sound is Sound.MZKZ and slot.expected.modifier is None:
            acoustics = describe_slot(audio, None)
            if acoustics.sounding and acoustics.level_db is not None:
                normal.append(acoustics)
        analysis = rec.analyse(audio, profile, block)
        categories = set()
        for name, due in dues.items():
            item, alternatives = as_item(due)
            if acceptable(item, said, alternatives):
                continue
            cat = pair_category(said, item)
            categories.add(cat)
            judged = rec.judge(analysis, SlotContext(expected=due, group=profile))
            wrong = judged.accepted
            if verbose and wrong:
                show_failure(rec, audio, profile, said, judged, cond, block, due=name)
            tally.wa[(name, cat)].append(wrong)
            tally.pairs[cat].append(wrong)
        for cat in categories:
            tally.ca_by_cat[cat].append(heard.accepted)


def render_run(args) -> None:
    from beattrainer.mzkz.catalog import load_catalog
    from beattrainer.session import (
        listened_for_only_where_due,
        other_card_words,
        performance_vocabulary,
    )
    from beattrainer.synth.render import RenderOptions, render_performance

    lib = ClipLibrary.load()
    catalog = load_catalog()
    rng = np.random.default_rng(args.seed)
    test_voices = lib.voice_ids(split=args.split, whisper=False)
    excluded = {*MAIN_CARDS, *SILENCE_CARDS}
    others: list[str] = []
    tallies = {False: Tally(), True: Tally()}
    cpu: list = []
    end_cpu: list = []
    for p in range(args.performances):
        if len(others) < 2:
            others = [str(c) for c in rng.permutation(sorted(set(catalog.cards) - excluded))]
        perf = build_performance(p, rng, catalog, others)
        n_voices = 1 + p % 4
        voice_ids = tuple(str(v) for v in rng.choice(test_voices, n_voices,
                                                     replace=n_voices > len(test_voices)))
        snr, noise = CONDITIONS[p % len(CONDITIONS)]
        period = float(rng.uniform(1.0, 2.0))
        cond = f"{noise} {snr:.0f} dB, {n_voices} voice{'s' if n_voices > 1 else ''}"

        def render(seed):
            options = RenderOptions(period_s=period, voices=n_voices, snr_db=snr, noise=noise,
                                    jitter_ms=10.0, split=args.split, voice_ids=voice_ids,
                                    seed=seed)
            return render_performance(perf, lib, np.random.default_rng(seed), options)

        samples, sr, truth = render(int(rng.integers(1 << 30)))
        vocabulary = performance_vocabulary(perf)
        for with_templates in (False, True):
            rec = SlotRecognizer.create(backend=args.backend, vocabulary=vocabulary,
                                        unlikely=other_card_words(perf),
                                        due_only=listened_for_only_where_due(perf))
            if with_templates:  # an earlier performance of the same group and cards
                old, old_sr, old_truth = render(int(rng.integers(1 << 30)))
                slots = {s.index: s for s in perf.slots}
                for slot_truth, a, b in slot_windows(old_truth, old_sr, len(old)):
                    expected = slots[slot_truth["index"]].expected
                    if expected.text and expected.sound.value != "silence":
                        rec.learn(old[a:b], expected.item())
            judge_performance(rec, samples, sr, truth, perf, tallies[with_templates],
                              f"{snr:.0f} dB", cpu if not with_templates else [],
                              end_cpu if not with_templates else [], args.block,
                              args.verbose and not with_templates)
        print(f"performance {p + 1}/{args.performances}: {perf.mode} {len(perf.slots)} slots, "
              f"{cond}, period {period:.2f} s", flush=True)
    render_report(tallies, cpu, end_cpu, args)


def pct(values) -> str:
    return f"{100.0 * np.mean(values):5.1f}% ({len(values)})" if values else "      -"


def render_report(tallies, cpu, end_cpu, args) -> None:
    print(f"\n# slot recognizer benchmark on rendered performances: {args.performances} "
          f"performances, held-out test voices, 1-4 voices, SNR 30/20/10 dB pink+babble, "
          f"backend {args.backend}, seed {args.seed}")
    for with_templates in (False, True):
        t = tallies[with_templates]
        print(f"\n## {'with' if with_templates else 'without'} the group-voice layer")
        print(f"{'pair group':28s} {'correct accept':>16s} {'wrong accept':>16s}")
        for cat in CATEGORIES:
            correct = pct(t.ca_by_cat.get(cat, []))
            wrong = pct(t.pairs.get(cat, []))
            print(f"{cat:28s} {correct:>16s} {wrong:>16s}")
        main_wa = [v for c in MAIN_CATEGORIES for v in t.pairs.get(c, [])]
        main_ca = [v for k, vs in t.ca.items() if Item.parse(k).modifier not in ("slow", "whisper")
                   for v in vs]
        all_ca = [v for vs in t.ca.values() for v in vs]
        all_wa = [v for vs in t.pairs.values() for v in vs]
        print(f"{'MAIN (issue targets)':28s} {pct(main_ca):>16s} {pct(main_wa):>16s}")
        print(f"{'ALL PAIRS':28s} {pct(all_ca):>16s} {pct(all_wa):>16s}")
        print(f"\n{'said item':22s} {'correct accept':>16s}   {'due item':22s} "
              f"{'wrong accept (main)':>20s} {'wrong accept (all)':>19s}")
        said = sorted(t.ca)
        dues = sorted({k[0] for k in t.wa})
        for i in range(max(len(said), len(dues))):
            left = f"{said[i]:22s} {pct(t.ca[said[i]]):>16s}" if i < len(said) else " " * 39
            right = ""
            if i < len(dues):
                d = dues[i]
                wa_main = [v for c in MAIN_CATEGORIES for v in t.wa.get((d, c), [])]
                wa_all = [v for (dd, _), vs in t.wa.items() if dd == d for v in vs]
                right = f"   {d:22s} {pct(wa_main):>20s} {pct(wa_all):>19s}"
            print(left + right)
        print("correct accept by SNR:", ", ".join(f"{k} {pct(v)}" for k, v in
                                                  sorted(t.ca_by_cond.items()) if v))
        wrong = {k: v for k, v in t.confusion.items() if k[0] != k[1]}
        print("most frequent confusions (said -> heard):",
              ", ".join(f"{s}->{h} x{n}" for (s, h), n in
                        sorted(wrong.items(), key=lambda x: -x[1])[:14]) or "none")
    ms = np.array([c for c, _ in cpu]) * 1000.0
    per15 = np.array([c / max(d, 1e-3) * 1.5 for c, d in cpu]) * 1000.0
    durations = np.array([d for _, d in cpu])
    end_ms = 1000.0 * np.asarray(end_cpu)
    print(f"\nCPU per slot (one core, streaming 512-sample blocks, without templates): median "
          f"{np.median(ms):.1f} ms, 95th pct {np.percentile(ms, 95):.1f} ms over {len(ms)} "
          f"slots of median {np.median(durations):.2f} s; per 1.5 s of slot: median "
          f"{np.median(per15):.1f} ms, 95th pct {np.percentile(per15, 95):.1f} ms")
    print(f"slot end -> answer (CPU of end_slot): median {np.median(end_ms):.1f} ms, "
          f"95th pct {np.percentile(end_ms, 95):.1f} ms, max {end_ms.max():.1f} ms "
          f"(the referee calls recognize() after the slot: whole CPU per slot above)")


# ------------------------------------------------------------------ clips mode (older)

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
        main.append(Item.parse(MODIFIED[0]) if said.modifier != "quiet"
                    else Item("MIEZEKATZE/loud"))
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


def clips_run(args) -> None:
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
    for g in range(args.groups):  # noqa: B007
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
                    heard, slot_cpu_s, end_cpu_s = streamed(rec, ctx, audio, BLOCK)
                    cpu_slot.append(slot_cpu_s)
                    cpu_end.append(end_cpu_s)
                    right = expected is item
                    results[with_templates][(str(expected), right, main)].append(heard.accepted)
                    if right:
                        confusion[with_templates][(str(item), heard.label)] += 1
    clips_report(results, confusion, cpu_slot, cpu_end, args)


def rate(values) -> str:
    return f"{100.0 * np.mean(values):5.1f}% ({len(values)})" if values else "   -"


def clips_report(results, confusion, cpu_slot, cpu_end, args) -> None:
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
    parser.add_argument("--mode", default="render", choices=["render", "clips"])
    parser.add_argument("--performances", type=int, default=30, help="render mode")
    parser.add_argument("--groups", type=int, default=12, help="clips mode")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--block", type=int, default=512)
    parser.add_argument("--split", default="test", choices=["test", "train"],
                        help="render mode: voices (train only for tuning)")
    parser.add_argument("--verbose", action="store_true", help="print every failed decision")
    parser.add_argument("--backend", default="pocketsphinx",
                        choices=["pocketsphinx", "vosk", "none", "auto"])
    args = parser.parse_args()
    (render_run if args.mode == "render" else clips_run)(args)


if __name__ == "__main__":
    main()
