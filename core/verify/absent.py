"""Names a sentence gives that no document of the workspace holds: what makes a verdict
fabricated. Used by the offline judge and the report trust lines (core/verify/reports.py)."""
from __future__ import annotations

from core.text.citations import sentence_spans
from core.text.support import claim_text
from core.verify import facts as fx
from core.verify.names import Names
from core.text.wordnet import english_word


def fabricated_names(text: str, names: Names) -> list[str]:
    """The names in text (any sentence, cited or not) that occur nowhere in the workspace."""
    out: list[str] = []
    for a, b in sentence_spans(text):
        for name in absent_names(text[a:b], names):
            if name not in out:
                out.append(name)
    return out


def absent_names(sentence: str, names: Names, cited: str = "") -> list[str]:
    """Names of one sentence that no document holds; none from a heading in title case ("The
    Clinic's Role in Community Health"), where capitals mark no names. A word the cited text
    (lower case) holds is known without asking the workspace."""
    out: list[str] = []
    sentence = claim_text(sentence)
    if fx.title_case(sentence):
        return out
    cited = cited.replace("\u2019", "'")  # the names' words are read with straight apostrophes
    for n in fx.names(sentence):
        if not n.initial and len(n.surface.split()) == 2 and names.blended(n.words):  # a two-word name that mixes two people's is no one's
            if n.surface not in out:
                out.append(n.surface)
            continue
        words = tuple(w for w in n.words if not (cited and _bounded_in(w, cited)))
        if not words:
            continue
        if n.initial and not (len(words) == 1 and len(words[0]) > 3 and not english_word(words[0])):
            continue  # a capital at a sentence's start says nothing, unless the word is no English word
        if all(fx.PERIOD.match(w) for w in words) and names.titled(words):
            continue  # "FY17 Q3" of a call whose file is TranscriptFY17Q3.txt: its text never writes it
        if names.absent(words) and n.surface not in out:
            out.append(n.surface)
    return out


def _bounded_in(word: str, text: str) -> bool:
    at = text.find(word)
    while at >= 0:
        before = text[at - 1] if at else " "
        after = text[at + len(word)] if at + len(word) < len(text) else " "
        if not (before.isascii() and before.isalnum()) and not (after.isascii() and after.isalnum()):
            return True
        at = text.find(word, at + 1)
    return False
