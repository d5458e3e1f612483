"""Names as the whole corpus writes them: a capitalised word that the corpus writes capitalised
in the middle of sentences more often than in lower case is a name, wherever a unit meets it
(at a sentence start only, it could not tell by itself: "Dulce", "Qdrant", "Milvus").

The offline engine marks such a word of a unit "tentative"; the graph stage, which is rebuilt
from every extraction on each run, counts the corpus's current documents (not its overlapping
units, which would count a sentence twice) and keeps it when the
corpus writes it as a name (so an index after a removal equals a fresh one). Counted by word,
case-folded:
- mid: the word written with a capital right after a lower-case word, a digit, a comma or a
  closing bracket and a space, where no sentence starts (after a colon or a semicolon one may:
  "Satya Nadella: Excellent question");
- listed: the word capitalised as one of a list of names ("Accenture, Adobe and BlackRock",
  "Debian/Fedora/Conda");
- solo: a mid-sentence capital naming the kind of a lower-case noun after it ("a Docker container",
  "the Go team"), outside any run of capitalised words a title would write, and not the subject of
  a verb ("the Ghost turned": old prose capitalises nouns);
- bare: a mid-sentence capital standing alone (no capitalised word next to it) after a
  preposition or a verb, with no article or determiner before it ("runs on Windows", "the
  discussion on Discourse", "written in Rust"): a common noun capitalised for weight is "the
  Ghost", "a Spirit";
- lower: the word written all in lower case as a word of prose, not as part of an identifier, a
  path, a module or a reference ("dask.array", "[#jython]", "pep-0008.rst").
A possessive counts for its name ("Dropbox's"), and a capital after a prefix's hyphen is
mid-sentence ("non-Windows systems").
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable

from core.text.wordnet import common_noun, common_word, place_first
from core.textutil import STOPWORDS

_MID = re.compile(r"(?:(?<=[a-z0-9,)\]`] )|(?<=\bnon-)|(?<=\bpre-)|(?<=\bpost-)|(?<=\banti-))"
                  r"([A-Z][\w'\u2019-]*[a-z][\w'\u2019-]*|[A-Z]{2,}\d*\b)")
_POSSESSIVE = re.compile(r"['\u2019]s$")
_WORD = r"[A-Z][\w'\u2019-]*[a-z][\w'\u2019-]*"
# one of a list of names: "Accenture, Adobe and BlackRock", "with Kroger, Siemens, ..."
_LISTED = re.compile(r"(?:(?<=, )(" + _WORD + r")(?=,| and | or )|(?<=[a-z] )(" + _WORD + r")(?=, [A-Z])|"
                     r"(?<=, and )(" + _WORD + r")\b|(?<=[a-z,] and )(" + _WORD + r")(?=[,.;]))")
# or one of three or more joined by slashes: "Debian/Fedora/Conda", "Windows/Linux/macOS"
_SLASHED = re.compile(r"(?<![\w/])" + _WORD + r"(?:/" + _WORD + r"){2,}(?!\w)")
_LOWER = re.compile(r"(?<![\w.#@/\\`-])([a-z][a-z'\u2019-]+)(?![\w/#@(`\\-]|\.\w)")
_SOLO = re.compile(r" ([a-z]{2,})\b")  # the lower-case word after a mid-sentence capital
# the words a bare name follows: prepositions and the verbs that take a product ("runs on", "use")
_LEADS = frozenset("""on in for with via using from to into onto under over than like about
    use uses used supports support supported requires require required""".split())
_LITERALS = frozenset("true false none null nil".split())  # "set it to True": a value
_ACRONYMS = re.compile(r"[A-Z]{2,}s")  # "using LLMs": a kind of thing, in its plural
_BEFORE = re.compile(r"\b([a-z]+) $")
_RUN_AFTER = re.compile(r"['\u2019]?s? ?[A-Z0-9]|[-/.]\w")  # "Windows 10", "Rust RFC", "Go's ...", "Node.js": not alone
MIN_MID = 2  # seen capitalised mid-sentence at least twice in the corpus, or once in a list of names


@dataclass
class CorpusNames:
    mid: Counter = field(default_factory=Counter)
    lower: Counter = field(default_factory=Counter)
    listed: Counter = field(default_factory=Counter)
    solo: Counter = field(default_factory=Counter)
    acronym: Counter = field(default_factory=Counter)
    bare: Counter = field(default_factory=Counter)

    def named(self, word: str) -> bool:
        """Does the corpus write this word as a name: capitalised mid-sentence more often than in
        lower case, at least twice, or once among other names of a list, or once when it is no
        common English word?"""
        w = word.lower()
        # once mid-sentence is enough for a word that is no common English word ("Pakistan",
        # "MIT": WordNet holds them only as names, or not at all) or whose first sense is a name
        # ("Japan" before "japan", the lacquer); "Windows" must show it twice, or once alone
        # among lower-case words ("a Docker container"), where no title capitalises a run, or
        # once in capitals ("a python-xyz RPM": "rpm" is a word too)
        return (self.mid[w] >= MIN_MID or self.listed[w] > 0
                or (self.mid[w] >= 1 and (not common_word(w) or place_first(w) or self.solo[w] >= 1
                                          or self.acronym[w] >= 1 or self.bare[w] >= 1))) \
            and max(self.mid[w], self.listed[w]) > self.lower[w]


def corpus_names(texts: Iterable[str]) -> CorpusNames:
    out = CorpusNames()
    for text in texts:
        if not text:
            continue
        for m in _MID.finditer(text):
            word = _POSSESSIVE.sub("", m.group(1)).lower()
            out.mid[word] += 1
            out.acronym[word] += m.group(1).isupper()
            after = _SOLO.match(text, m.end())
            out.solo[word] += bool(after and after.group(1) not in STOPWORDS and common_noun(after.group(1)))
            before = _BEFORE.search(text, max(0, m.start() - 60), m.start())  # the word right before it, not the whole text
            out.bare[word] += bool(before and before.group(1).lower() in _LEADS and not _RUN_AFTER.match(text, m.end())
                                   and word not in _LITERALS and not _ACRONYMS.fullmatch(m.group(1)))
        out.listed.update(next(g for g in m.groups() if g).lower() for m in _LISTED.finditer(text))
        out.listed.update(w.lower() for m in _SLASHED.finditer(text) for w in m.group(0).split("/"))
        out.lower.update(_LOWER.findall(text))
    return out
