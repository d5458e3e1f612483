"""Names as the whole corpus writes them: a capitalised word that the corpus writes capitalised
in the middle of sentences more often than in lower case is a name, wherever a unit meets it
(at a sentence start only, it could not tell by itself: "Dulce", "Qdrant", "Milvus").

The offline engine marks such a word of a unit "tentative"; the graph stage, which is rebuilt
from every extraction on each run, counts the corpus's current text units and keeps it when the
corpus writes it as a name (so an index after a removal equals a fresh one). Counted by word,
case-folded:
- mid: the word written with a capital right after a lower-case word, a digit, a comma or a
  closing bracket and a space, where no sentence starts (after a colon or a semicolon one may:
  "Satya Nadella: Excellent question");
- lower: the word written all in lower case.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable

_MID = re.compile(r"(?<=[a-z0-9,)\]] )([A-Z][\w'\u2019-]*[a-z][\w'\u2019-]*)")
_LOWER = re.compile(r"\b([a-z][a-z'\u2019-]+)\b")
MIN_MID = 2  # seen capitalised mid-sentence at least twice in the corpus


@dataclass
class CorpusNames:
    mid: Counter = field(default_factory=Counter)
    lower: Counter = field(default_factory=Counter)

    def named(self, word: str) -> bool:
        """Does the corpus write this word as a name (capitalised mid-sentence, at least twice,
        more often than in lower case)?"""
        w = word.lower()
        return self.mid[w] >= MIN_MID and self.mid[w] > self.lower[w]


def corpus_names(texts: Iterable[str]) -> CorpusNames:
    out = CorpusNames()
    for text in texts:
        if not text:
            continue
        out.mid.update(m.group(1).lower() for m in _MID.finditer(text))
        out.lower.update(_LOWER.findall(text))
    return out
