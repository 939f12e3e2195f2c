"""Pronunciations: the project dictionary, player names and a letter-to-sound fallback.

The project dictionary is `models/lexicon.dict`; player names come from espeak-ng phonemes
mapped to the CMU phone set of pocketsphinx's en-us model; the letter-to-sound fallback
serves when espeak-ng is missing.

Labels are the game's words in capitals ("MIEZEKATZE", "DING DONG", "JÖRG");
the decoder sees ASCII tokens (`label_token`: "DING_DONG", "JOERG").
"""
from __future__ import annotations

import re
import shutil
import subprocess
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

LEXICON_FILE = "lexicon.dict"
# Phones of pocketsphinx's en-us acoustic model (CMU set without stress marks).
CMU_PHONES = frozenset(
    "AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T TH "
    "UH UW V W Y Z ZH".split())
ESPEAK_VOICES = ("en-us", "de")  # a name is tried the English and the German way
ESPEAK_TIMEOUT_S = 5.0

# Longest match first. Vowel length (ː), stress and syllable marks are dropped.
_IPA_TO_CMU = {
    "tʃ": "CH", "dʒ": "JH", "ts": "T S", "pf": "P F", "aɪ": "AY", "aʊ": "AW", "ɔɪ": "OY",
    "ɔʏ": "OY", "eɪ": "EY", "oʊ": "OW", "əʊ": "OW", "ɪə": "IY AH", "eə": "EH", "ʊə": "UH",
    "aɪə": "AY AH", "i": "IY", "ɪ": "IH", "e": "EY", "ɛ": "EH", "æ": "AE", "a": "AA",
    "ɑ": "AA", "ɒ": "AA", "ɔ": "AO", "o": "OW", "ʊ": "UH", "u": "UW", "ʌ": "AH", "ə": "AH",
    "ɐ": "AH", "ɜ": "ER", "ɚ": "ER", "ɝ": "ER", "œ": "ER", "ø": "ER", "y": "UW", "ʏ": "UH",
    "ɨ": "IH", "ᵻ": "IH", "p": "P", "b": "B", "t": "T", "d": "D", "k": "K", "g": "G",
    "ɡ": "G", "m": "M", "n": "N", "ŋ": "NG", "f": "F", "v": "V", "θ": "TH", "ð": "DH",
    "s": "S", "z": "Z", "ʃ": "SH", "ʒ": "ZH", "h": "HH", "x": "HH", "ç": "HH", "j": "Y",
    "l": "L", "ɫ": "L", "r": "R", "ɹ": "R", "ɾ": "R", "ʁ": "R", "ʀ": "R", "w": "W",
    "ɲ": "N Y", "ʎ": "L Y", "β": "B", "ɣ": "G", "ʋ": "V", "c": "K", "ɟ": "JH", "ɕ": "SH",
    "ʑ": "ZH", "ʂ": "SH", "ʐ": "ZH", "ɭ": "L", "ɳ": "N", "ʈ": "T", "ɖ": "D", "q": "K",
    "χ": "HH", "ħ": "HH", "ʕ": "HH", "ɦ": "HH", "ɬ": "L", "ɯ": "UW", "ɤ": "AH",
}
_IPA_SKIP = set("ˈˌːˑ.‿ʰʲʷ̩̯̃͡ʔ-' ")

# Letter-to-sound fallback: greedy longest match over lower-case ASCII (after
# transliterating umlauts); a rough reading that mixes German and English habits.
_LETTERS_TO_CMU = {
    "tsch": "CH", "sch": "SH", "chs": "K S", "tch": "CH", "ch": "K", "ck": "K", "sh": "SH",
    "th": "T", "ph": "F", "qu": "K W", "ng": "NG", "tz": "T S", "dj": "JH", "zh": "ZH",
    "ee": "IY", "ea": "IY", "oo": "UW", "ou": "AW", "ie": "IY", "ei": "AY", "ai": "AY",
    "ay": "EY", "au": "AW", "eu": "OY", "oe": "ER", "ue": "UW", "ae": "EH", "oi": "OY",
    "a": "AA", "b": "B", "c": "K", "d": "D", "e": "EH", "f": "F", "g": "G", "h": "HH",
    "i": "IH", "j": "Y", "k": "K", "l": "L", "m": "M", "n": "N", "o": "AO", "p": "P",
    "q": "K", "r": "R", "s": "S", "t": "T", "u": "UH", "v": "V", "w": "W", "x": "K S",
    "y": "IY", "z": "Z",
}
_TRANSLIT = {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "æ": "ae", "ø": "oe", "œ": "oe",
             "å": "aa", "ð": "d", "þ": "th", "ł": "l", "đ": "d", "ı": "i"}
_VOWELS = frozenset("AA AE AH AO AW AY EH ER EY IH IY OW OY UH UW".split())


class LexiconError(ValueError):
    """A dictionary file or a word that cannot be pronounced; one-line message."""


@dataclass
class Lexicon:
    """Pronunciations by label, several variants each (CMU phone strings)."""

    entries: dict[str, list[str]] = field(default_factory=dict)

    def add(self, label: str, phones: str) -> None:
        """Add one pronunciation variant (ignored when already known)."""
        phones = " ".join(phones.split())
        unknown = set(phones.split()) - CMU_PHONES
        if unknown or not phones:
            raise LexiconError(f"{label}: unknown phones {sorted(unknown)} in {phones!r}")
        variants = self.entries.setdefault(label, [])
        if phones not in variants:
            variants.append(phones)

    def __contains__(self, label: str) -> bool:
        return label in self.entries

    def variants(self, label: str) -> list[str]:
        """The pronunciations of `label` (KeyError when unknown)."""
        return self.entries[label]

    def syllables(self, label: str) -> int:
        """Vowel count of the first pronunciation: the label's syllable count."""
        return max(1, sum(p in _VOWELS for p in self.entries[label][0].split()))

    def dict_lines(self, labels) -> list[str]:
        """CMU-dictionary lines (TOKEN, TOKEN(2), ...) for the given labels."""
        lines = []
        for label in labels:
            token = label_token(label)
            for i, phones in enumerate(self.entries[label]):
                lines.append(f"{token if i == 0 else f'{token}({i + 1})'} {phones}")
        return lines


def label_token(label: str) -> str:
    """The ASCII decoder token of a label: 'DING DONG' -> 'DING_DONG', 'JÖRG' -> 'JOERG'."""
    text = "".join(_TRANSLIT.get(ch, ch) for ch in label.lower())
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    token = re.sub(r"[^a-z0-9]+", "_", text).strip("_").upper()
    if not token:
        raise LexiconError(f"{label!r} has no letters that can be pronounced")
    return token


def parse_lexicon(text: str, source: str = LEXICON_FILE) -> Lexicon:
    """Read the project dictionary: `LABEL<TAB>PHONES` lines, '#' comments.

    A label may hold spaces ("DING DONG"); it is separated from its phones by a
    tab. Repeating a label adds a pronunciation variant.
    """
    lexicon = Lexicon()
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        if "\t" not in line:
            raise LexiconError(f"{source}:{number}: expected LABEL<tab>PHONES")
        label, phones = line.split("\t", 1)
        try:
            lexicon.add(label.strip(), phones)
        except LexiconError as exc:
            raise LexiconError(f"{source}:{number}: {exc}") from None
    return lexicon


def load_lexicon(path: Path | None = None) -> Lexicon:
    """The project dictionary (default `models/lexicon.dict`)."""
    if path is None:
        from beattrainer.resources import models_dir

        path = models_dir() / LEXICON_FILE
    try:
        text = Path(path).read_text("utf-8")
    except OSError as exc:
        raise LexiconError(f"{path}: cannot read the pronunciation dictionary "
                           f"({exc.__class__.__name__})") from None
    return parse_lexicon(text, str(path))


def ipa_to_cmu(ipa: str) -> str:
    """Map an IPA string (as espeak-ng writes it) to CMU phones; unknown symbols dropped."""
    ipa = unicodedata.normalize("NFC", ipa)
    phones: list[str] = []
    i = 0
    while i < len(ipa):
        for size in (3, 2, 1):
            chunk = ipa[i:i + size]
            if chunk in _IPA_TO_CMU:
                phones.extend(_IPA_TO_CMU[chunk].split())
                i += size
                break
        else:
            i += 1  # stress marks, length marks, ties, symbols we do not know
    return " ".join(_merge_repeats(phones))


def letters_to_cmu(word: str) -> str:
    """A rough pronunciation from spelling alone (the fallback without espeak-ng)."""
    text = "".join(_TRANSLIT.get(ch, ch) for ch in word.lower())
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = re.sub(r"[^a-z]+", " ", text)
    phones: list[str] = []
    for part in text.split():
        i = 0
        while i < len(part):
            for size in (4, 3, 2, 1):
                chunk = part[i:i + size]
                if chunk in _LETTERS_TO_CMU:
                    phones.extend(_LETTERS_TO_CMU[chunk].split())
                    i += size
                    break
            else:  # pragma: no cover - every ASCII letter has a rule
                i += 1
    return " ".join(_merge_repeats(phones))


def _merge_repeats(phones: list[str]) -> list[str]:
    """Drop a phone that repeats the one before (double letters, long vowels)."""
    out: list[str] = []
    for p in phones:
        if not out or out[-1] != p:
            out.append(p)
    return out


def espeak_ipa(text: str, voice: str) -> str | None:
    """IPA for `text` from espeak-ng, or None when espeak-ng is missing or fails."""
    exe = shutil.which("espeak-ng")
    if exe is None:
        return None
    try:
        done = subprocess.run([exe, "-q", "--ipa", "-v", voice, text], capture_output=True,
                              text=True, timeout=ESPEAK_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    out = done.stdout.strip()
    return out if done.returncode == 0 and out else None


def name_pronunciations(name: str, use_espeak: bool = True) -> list[str]:
    """Pronunciation variants for a player's name.

    espeak-ng reads the name as English and as German; the letter-to-sound
    rules add a spelling-based variant (and are all there is without espeak-ng).

    Raises
    ------
    LexiconError
        When the name has no letters at all.
    """
    spoken = re.sub(r"[^\w' -]+", " ", name, flags=re.UNICODE)
    spoken = re.sub(r"[\d_]+", " ", spoken).strip()
    if not re.search(r"[^\W\d_]", spoken):
        raise LexiconError(f"name {name!r} has no letters that can be pronounced")
    variants: list[str] = []
    if use_espeak:
        for voice in ESPEAK_VOICES:
            ipa = espeak_ipa(spoken, voice)
            phones = ipa_to_cmu(ipa) if ipa else ""
            if phones and phones not in variants:
                variants.append(phones)
    fallback = letters_to_cmu(spoken)
    if fallback and fallback not in variants:
        variants.append(fallback)
    if not variants:
        raise LexiconError(f"name {name!r} cannot be pronounced")
    return variants


def lexicon_for(vocabulary, base: Lexicon | None = None, use_espeak: bool = True) -> Lexicon:
    """A lexicon holding every label of `vocabulary` that can be spoken.

    Labels in the project dictionary keep their entries; any other label is
    taken for a player's name and pronounced by `name_pronunciations`.
    Non-speech labels (SILENCE, KISS, ...) are skipped.
    """
    from beattrainer.recognize.vocabulary import is_speech

    base = base if base is not None else load_lexicon()
    out = Lexicon()
    for label in vocabulary:
        if not is_speech(label):
            continue
        phones_list = base.entries.get(label) or name_pronunciations(label, use_espeak)
        for phones in phones_list:
            out.add(label, phones)
    return out
