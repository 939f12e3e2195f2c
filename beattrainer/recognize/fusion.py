"""Fusion: the layers' evidence per label combined into one decision.

Pure. Each layer contributes a log-score per label; their sum plus a prior
that the strictness setting moves towards the expected item gives posteriors.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from beattrainer.recognize.vocabulary import (
    MIEZEKATZE, MODIFIERS, PERCUSSION, QUIET, SILENCE, WHISPERED, Item, acceptable, sound_class,
)

# Weights of the layers (log-score units). Tuned on the train voices only.
CLASS_WEIGHT = 1.0
SYLLABLE_WEIGHT = 1.2          # per syllable of difference
SYLLABLE_PENALTY_CAP = 3.0     # [syllables]
LONG_WORD_SYLLABLES = 3        # words this long may be heard one syllable off for free
SPEECH_WEIGHT = 1.5            # bonus for the speech backend's word
TEMPLATE_SCALE = 1.0           # [DTW distance units per log-score unit]
TEMPLATE_CAP = 8.0             # [DTW distance units] beyond this, further is not worse
EXPECTED_PRIOR = {"lenient": 2.5, "normal": 1.0, "strict": 0.0}
ACCEPT_POSTERIOR = {"lenient": 0.2, "normal": 0.0, "strict": 0.0}
STRICT_MIN_CONFIDENCE = 0.6
STRICTNESS = tuple(EXPECTED_PRIOR)
KISS_AS_PERCUSSION = 0.5       # log-score handicap of a percussive impulse heard as a kiss


@dataclass(frozen=True)
class Evidence:
    """What the layers found in one slot.

    Attributes
    ----------
    class_log : dict class -> log-likelihood (acoustic class model)
    syllables : int, syllables heard (0 for silence)
    speech_label : str or None, the speech backend's word
    speech_confidence : float
    template_distance : dict label -> DTW distance to the group's own templates
    modifier_scores : dict modifier -> 0..1 (empty without a group profile)
    """

    class_log: dict[str, float]
    syllables: int
    speech_label: str | None = None
    speech_confidence: float = 0.0
    template_distance: dict[str, float] | None = None
    modifier_scores: dict[str, float] | None = None


@dataclass(frozen=True)
class Decision:
    """The fused answer: heard item, whether the expected one is accepted, confidence."""

    heard: Item
    accepted: bool
    confidence: float
    posteriors: dict[str, float]


def label_class_log(label: str, class_log: dict[str, float]) -> float:
    """Class evidence for a label: words may be voiced or whispered; silence allows percussion."""
    name = sound_class(label)
    if label == SILENCE:
        return float(np.logaddexp(class_log.get(QUIET, -50.0), class_log.get(PERCUSSION, -50.0)))
    if label == "KISS":
        # a kiss and a clap look alike to the class model; an impulse where a kiss
        # is due is most likely the kiss (the expected-item prior decides)
        return float(np.logaddexp(class_log.get(name, -50.0),
                                  class_log.get(PERCUSSION, -50.0) - KISS_AS_PERCUSSION))
    if name == "voice":
        return float(np.logaddexp(class_log.get("voice", -50.0), class_log.get(WHISPERED, -50.0)))
    return class_log.get(name, -50.0)


def label_scores(labels, syllables_of, evidence: Evidence, expected_labels,
                 strictness: str) -> dict[str, float]:
    """Fused log-score of every label.

    Parameters
    ----------
    labels : the labels that may be heard
    syllables_of : callable label -> expected syllable count (None for non-words)
    evidence : Evidence
    expected_labels : labels that fulfil the slot (get the strictness prior)
    strictness : "lenient", "normal" or "strict"
    """
    scores: dict[str, float] = {}
    templates = evidence.template_distance or {}
    finite = sorted(d for d in templates.values() if np.isfinite(d))
    best_template = finite[0] if finite else None
    typical_template = float(np.median(finite)) if finite else None
    for label in labels:
        score = CLASS_WEIGHT * label_class_log(label, evidence.class_log)
        n_syl = syllables_of(label)
        if n_syl is not None and evidence.syllables > 0:
            # a long word's unstressed syllable often merges or splits in the envelope
            free = 1 if n_syl >= LONG_WORD_SYLLABLES else 0
            diff = min(max(abs(evidence.syllables - n_syl) - free, 0), SYLLABLE_PENALTY_CAP)
            score -= SYLLABLE_WEIGHT * diff
        if evidence.speech_label == label:
            score += SPEECH_WEIGHT * (0.5 + evidence.speech_confidence)
        if best_template is not None and np.isfinite(best_template):
            d = templates.get(label)
            if d is None or not np.isfinite(d):
                # no rendition of this label yet: judge it like a typical other label
                d = typical_template
            score -= min(d - best_template, TEMPLATE_CAP) / TEMPLATE_SCALE
        if label in expected_labels:
            score += EXPECTED_PRIOR[strictness]
        scores[label] = score
    return scores


def heard_modifier(due: str | None, scores: dict[str, float] | None) -> str | None:
    """The modifier heard: the due one if realised, else the strongest realised one."""
    if not scores:
        return None
    if due is not None and scores.get(due, 0.0) >= 0.5:
        return due
    best = max(MODIFIERS, key=lambda m: scores.get(m, 0.0))
    return best if scores.get(best, 0.0) >= 0.5 else None


def decide(labels, syllables_of, evidence: Evidence, expected: Item, alternatives=(),
           strictness: str = "normal") -> Decision:
    """One decision for the slot.

    The heard label is the best fused label; it carries a modifier when it is a
    word. The expected item is accepted when the heard item fulfils it
    (`vocabulary.acceptable`); lenient mode also accepts when the expected
    labels keep a posterior above ACCEPT_POSTERIOR, strict mode only with
    confidence of at least STRICT_MIN_CONFIDENCE.
    """
    if strictness not in EXPECTED_PRIOR:
        raise ValueError(f"unknown strictness {strictness!r} ({', '.join(STRICTNESS)})")
    labels = tuple(labels)
    expected_labels = {expected.label, *alternatives}
    scores = label_scores(labels, syllables_of, evidence, expected_labels, strictness)
    values = np.array([scores[label] for label in labels])
    post = np.exp(values - values.max())
    post /= post.sum()
    posteriors = dict(zip(labels, post.tolist()))
    best = labels[int(np.argmax(post))]
    modifier = None
    if best == MIEZEKATZE:
        modifier = heard_modifier(expected.modifier, evidence.modifier_scores)
    elif sound_class(best) == "voice":
        # Only MIEZEKATZE has loudness/pitch/speed cards; any other word can only be
        # whispered (challenge 1). SHH is unvoiced by nature and never "whispered".
        whisper = (evidence.modifier_scores or {}).get("whisper", 0.0) >= 0.5
        modifier = "whisper" if whisper else None
    heard = Item(best, modifier)
    p_expected = sum(posteriors.get(label, 0.0) for label in expected_labels)
    accepted = acceptable(expected, heard, alternatives, strictness)
    if not accepted and strictness == "lenient" and p_expected >= ACCEPT_POSTERIOR["lenient"]:
        modifier_ok = acceptable(expected, Item(expected.label, modifier), (), strictness)
        accepted = modifier_ok
    confidence = p_expected if accepted else posteriors[best]
    if accepted and strictness == "strict" and confidence < STRICT_MIN_CONFIDENCE:
        accepted = False
    return Decision(heard, accepted, float(np.clip(confidence, 0.0, 1.0)), posteriors)
