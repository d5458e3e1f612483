"""Is a name anywhere in the workspace's documents? The full-text index of the text units (every
document is cut into them), one query per distinct word, remembered for the Names object's life.
The entity table says which words are names (is_entity), never that a name exists: a model can
extract an entity from nothing (GraphRAG's Carol index holds a "Cedar Grove Clinic")."""
from __future__ import annotations

import re

from core.verify.actors import LABEL  # a transcript's speaker label


class Names:
    """known(words) -> the words of a name that occur nowhere in the workspace (empty: known)."""

    def __init__(self, store=None, texts: list[str] | None = None):
        self.store = store
        self._cache: dict[str, bool] = {}
        self._shares: dict[str, float] = {}
        self._blends: dict[tuple[str, ...], tuple[str, str] | None] = {}  # asked by the judge and the trust lines alike
        self._speakers: dict = {}  # document -> its units' ordinals and speaker labels (_labels)
        self._titles: set[str] | None = None
        self._doc_titles: dict[str, str] = {}
        self._raw = " ".join(texts or [])
        self._texts = self._raw.lower()

    def _entity_words(self) -> set[str]:
        if self._titles is None:
            self._titles = set()
            if self.store is not None:
                for title in self.store.column("entities", "title"):
                    self._titles.update(re.findall(r"\w+", str(title or "").lower()))
        return self._titles

    def in_title(self, unit: dict, words: tuple[str, ...]) -> str | None:
        """The title of the unit's document when it holds every word ("FY22" in
        "TranscriptFY22Q1.txt": a period the text itself never writes out), else None."""
        title = self.doc_title(unit) if words else ""
        return title if title and all(w.lower() in title.lower() for w in words) else None

    def titled(self, words: tuple[str, ...]) -> bool:
        """Does some document's title hold every word ("FY17" and "Q3" in "TranscriptFY17Q3.txt")?"""
        if self.store is None or not words:
            return False
        if not hasattr(self, "_all_titles"):
            self._all_titles = [str(t or "").lower() for t in self.store.column("documents", "title")]
        return any(all(w.lower() in t for w in words) for t in self._all_titles)

    def doc_title(self, unit: dict) -> str:
        """The title of the unit's document ("" without a store or a document)."""
        doc = unit.get("document_id")
        if self.store is None or not doc:
            return ""
        if doc not in self._doc_titles:
            self._doc_titles[doc] = str((self.store.get("documents", doc) or {}).get("title") or "")
        return self._doc_titles[doc]

    def is_entity(self, word: str) -> bool:
        return word in self._entity_words()

    def word_known(self, word: str) -> bool:
        if word in self._cache:
            return self._cache[word]
        if "'" in word:  # "o'lakes": the documents may write it with a curly apostrophe, "O’Lakes"
            curly = word.replace("'", "\u2019")
            found = self._known(word) or self._known(curly)
            self._cache[word] = found
            return found
        found = self._known(word)
        self._cache[word] = found
        return found

    def _known(self, word: str) -> bool:
        found = bool(_bounded(word).search(self._texts)) if self._texts else False
        if not found and self.store is not None:
            found = self._in_units(word)
        if not found and len(word) > 3 and word.endswith("s"):  # "Sundays": the book says "Sunday"
            found = self.word_known(word[:-1])
        return found

    def _in_units(self, word: str) -> bool:
        if self.store.unit_texts_with(word, limit=1):
            return True
        # a Latin word written against Chinese text ("GraphRAG使用") is no word to the word index:
        # look for it as a substring, as a word of its own
        pattern = _bounded(word)
        return any(pattern.search(t.lower()) for t in self.store.unit_texts_with(word, limit=50, substring=True))

    def written_as_name(self, word: str) -> bool:
        """Does a text unit write the word capitalised after a lower-case word or a comma (a name,
        not a capital opening a sentence)? With texts only, those texts are read."""
        key = "\0cap:" + word
        if key not in self._cache:
            pattern = re.compile(rf"(?:[a-z,;]\s+|[\u3001\uff0c\u3400-\u9fff]\s*){re.escape(word.capitalize())}(?![\w])")
            texts = [self._raw] if self._raw else []
            if self.store is not None:
                try:
                    texts = [t.get("text") or "" for t in self.store.units_with(word, 50)]
                except Exception:
                    texts = []
            # a common word that a product or heading also capitalises ("Dynamics 365 Sales") is
            # still a word where the documents mostly write it in lower case ("sales rose")
            caps = sum(len(pattern.findall(t)) for t in texts)
            lower = sum(len(re.findall(rf"(?<![\w-]){re.escape(word.lower())}(?![\w-])", t)) for t in texts)
            self._cache[key] = caps > 0 and 3 * caps >= lower
        return self._cache[key]

    def speaker_before(self, unit: dict):
        """(the speaker's name, the label's Span) of the transcript turn a unit opens in: the last
        speaker label ("AMY HOOD:" opening a line) of the units before it in its document, at
        most 40 back; None without a store, a document, or a label."""
        ordinal = unit.get("ordinal")
        if ordinal is None:
            return None
        ordinals, labelled = self._labels(unit.get("document_id"))
        for o in reversed([o for o in ordinals if o < ordinal][-40:]):
            if o in labelled:
                from core.verify.align import Source
                row, m = labelled[o]
                return m.group(1).strip().title(), Source(row).span(m.start(1), m.start(1) + len(m.group(1).strip()))
        return None

    def speakers_of(self, document_id: str | None) -> tuple[str, ...]:
        """The names a document's speaker labels give ("AMY HOOD:" -> "Amy Hood"): who speaks
        in a transcript, as against the companies and people they speak of."""
        _, labelled = self._labels(document_id)
        return tuple(dict.fromkeys(m.group(1).strip().title() for row, _ in labelled.values()
                                   for m in LABEL.finditer(row.get("text") or "")))

    def _labels(self, document_id: str | None):
        """(the ordinals of the document's units, {ordinal: (unit, its last speaker label)} for
        the units that hold one), read once per document."""
        if document_id not in self._speakers:
            ordinals: list[int] = []
            labelled: dict[int, tuple[dict, re.Match]] = {}
            if self.store is not None and document_id:
                for row in self.store.rows("text_units", "document_id = ?", [document_id], order_by="ordinal"):
                    ordinals.append(row["ordinal"])
                    found = list(LABEL.finditer(row.get("text") or ""))
                    if found:
                        labelled[row["ordinal"]] = (row, found[-1])
            self._speakers[document_id] = (ordinals, labelled)
        return self._speakers[document_id]

    def doc_share(self, word: str, document_id: str | None) -> float:
        """The share of one document's text units that hold the word: a company its own call
        names in a third of its units is what that call is about, whatever else the workspace
        holds (a novel beside it halves the workspace's share)."""
        if self.store is None or not document_id:
            return 0.0
        key = f"{word}\0{document_id}"
        if key not in self._shares:
            self._shares[key] = self.store.unit_share(word, document_id)
        return self._shares[key]

    def share(self, word: str) -> float:
        """The share of the workspace's text units that hold the word (the full-text index; with
        texts only, 0: no units to count): a name in most units is what the documents are about
        ("Microsoft" in its own earnings call, where a passage says "we")."""
        if word not in self._shares:
            self._shares[word] = self.store.unit_share(word) if self.store is not None else 0.0
        return self._shares[word]

    def blended(self, words: tuple[str, ...]) -> tuple[str, str] | None:
        """(the two people a two-word name mixes up) when no document writes the name while one
        names a person with its first word and another a person with its last ("Amy Nadella":
        Amy Hood and Satya Nadella), else None."""
        if words not in self._blends:
            self._blends[words] = self._blend(words)
        return self._blends[words]

    def _blend(self, words: tuple[str, ...]) -> tuple[str, str] | None:
        if len(words) != 2 or any(len(w) < 2 or not w.isalpha() for w in words) or self.phrase_known(words):
            return None
        first, last = words
        a = self._partner(rf"\b{first.capitalize()}\s+([A-Z][a-z]+)\b", first, last, common=True)
        b = self._partner(rf"\b([A-Z][a-z]+)\s+(?:{last.capitalize()}|{last.upper()})\b", last, first)
        if a is None or b is None:
            return None
        return f"{first.capitalize()} {a}", f"{b} {last.capitalize()}"

    def phrase_known(self, words: tuple[str, ...]) -> bool:
        phrase = " ".join(words)
        if self._texts and re.search(r"\s+".join(re.escape(w) for w in words), self._texts):
            return True
        if self.store is None:
            return False
        try:
            return bool(self.store.units_with(phrase, 1))
        except Exception:
            return True  # no word index to ask: nothing proves the name unwritten

    def _partner(self, pattern: str, word: str, other: str, common: bool = False) -> str | None:
        """The capitalised word the documents write next to word in a name (pattern's group),
        other than `other`: a person's other name; before a surname a common English word is
        none ("Thank Nadella"), after a first name it may be one ("Amy Hood")."""
        from core.text.wordnet import english_word
        texts = [self._raw] if self._raw else []
        if self.store is not None:
            try:
                texts += [t.get("text") or "" for t in self.store.units_with(word, 50)]
            except Exception:
                return None
        for t in texts:
            for m in re.finditer(pattern, t):
                w = m.group(1)
                if w.lower() != other and w not in _TITLES and (common or not english_word(w.lower())):
                    return w
        return None

    def absent(self, words: tuple[str, ...]) -> list[str]:
        return [w for w in words if len(w) > 1 and not w.isdigit() and not self.word_known(w)
                and not any(self.word_known(b) for b in _place_of(w))]


_TITLES = {"Mr", "Mrs", "Ms", "Miss", "Dr", "Master", "Professor", "Prof", "Sir", "Lady", "Lord", "Dame",
           "Saint", "St", "Agent", "Captain", "General", "President", "Senator", "Judge", "Uncle", "Aunt"}


def _place_of(word: str) -> list[str]:
    """The place a demonym may name ("australian": australia; "canadian": canada; "chinese":
    china; "japanese": japan): a text naming the place holds the adjective's name too."""
    w = word.lower()
    out = []
    if w.endswith("ian") and len(w) > 6:
        out += [w[:-1], w[:-3] + "a"]
    elif w.endswith("an") and len(w) > 5:
        out += [w[:-1]]
    elif w.endswith("ese") and len(w) > 6:
        out += [w[:-3], w[:-3] + "a"]
    return out


def _bounded(word: str) -> re.Pattern:
    """word as a whole word among Latin letters and digits (CJK characters around it are fine)."""
    return re.compile(rf"(?<![a-z0-9\u00c0-\u024f]){re.escape(word)}(?![a-z0-9\u00c0-\u024f])")
