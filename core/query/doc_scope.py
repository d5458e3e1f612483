"""A question that names one of the corpus's documents by its name ("the visualization guide",
"PEP 750", "episode 35") asks about that document: the offline answer reads its passages, not
the whole corpus's. A document's name is its title or file name, read as words and numbers
("visualization_guide.md": visualization guide; "pep-0750.rst": pep 750;
"TranscriptFY24Q4.txt": transcript fy 24 q 4). Two of its words in a row in the question name
it when one of them is a number or a kind of document, or the word after them is ("the config init
page" names config_init.md), unless they name half the corpus or more
("episode 35" of a corpus of that one episode names none)."""
from __future__ import annotations

import re

from core.offline.sentence_rank import unit_sentences
from core.store.db import Store
from core.text.lexical import cite, document_word, join_sentences

_PIECE = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
# words of a file name that name no document: extensions, and what every file name may hold
_NOT_NAMING = frozenset("md markdown txt text rst rest html htm pdf docx csv tsv jsonl json the a an of and "
                        "in on for to part".split())


def name_words(name: str) -> list[str]:
    """A document name as lower-case words and numbers without leading zeros."""
    return [p.lstrip("0") or "0" if p.isdigit() else p.lower() for p in _PIECE.findall(name or "")]


def _pairs(words: list[str]) -> set[tuple[str, str]]:
    """Two words of a name in a row that could name a document: one of them a number or a kind of
    document ("pep 750", "visualization guide", "episode 35"); "lantern wharf" in
    "gazette_lantern_wharf_unveiled.md" is what the document is about, and other documents too."""
    return {(a, b) for a, b in _all_pairs(words)
            if a.isdigit() or b.isdigit() or document_word(a) or document_word(b)}


def _all_pairs(words: list[str]) -> set[tuple[str, str]]:
    kept = [w for w in words if w not in _NOT_NAMING]
    return set(zip(kept, kept[1:]))


def _asked(question: str) -> set[tuple[str, str]]:
    """The pairs of the question that may name a document: those _pairs keeps, and any two words
    the question calls a document by the word after them ("the config init page")."""
    words = [w for w in name_words(question) if w not in _NOT_NAMING]
    return _pairs(words) | {(a, b) for a, b, c in zip(words, words[1:], words[2:]) if document_word(c)}


def named_documents(store: Store, question: str) -> list[dict]:
    """The documents (id, title) the question names, in the corpus's order; [] when it names none."""
    asked = _asked(question)
    if not asked:
        return []
    docs = store.rows("documents", select="id, human_readable_id, title, source_name")
    hits = [d for d in docs if asked & (_all_pairs(name_words(d.get("title") or "")) |
                                        _all_pairs(name_words(d.get("source_name") or "")))]
    return hits if hits and len(hits) * 2 <= len(docs) else []


def scope(units: list[dict], documents: list[dict]) -> list[dict]:
    """The units of those documents (all units when there are none)."""
    if not documents:
        return units
    ids = {d["id"] for d in documents}
    return [u for u in units if u.get("document_id") in ids]


def _of_documents(documents: list[dict]) -> tuple[str, list[str]]:
    ids = [d["id"] for d in documents]
    return f"document_id in ({','.join('?' * len(ids))})", ids


def document_units(store: Store, documents: list[dict]) -> list[dict]:
    """The text units of the documents, in reading order."""
    where, ids = _of_documents(documents)
    return store.rows("text_units", where, ids, order_by="human_readable_id") if ids else []


def document_unit_count(store: Store, documents: list[dict]) -> int:
    """How many text units the documents hold."""
    where, ids = _of_documents(documents)
    return store.count("text_units", where, ids) if ids else 0


# "What is PEP 668 about?", "What does the visualization guide cover?": what the document is about
ABOUT = re.compile(r"^\s*what(?:'s| is| are| was| were) (?:the )?.{1,80}? about\W*$|"
                   r"^\s*what does (?:the )?.{1,80}? (?:propose|cover|describe|introduce|specify|define)\W*$", re.I)
_FIELD = re.compile(r"([A-Z][\w-]*): (.+)")
_TITLE = re.compile(r"(?m)^Title: (.{3,200})$")


def about_answer(store: Store, question: str, documents: list[dict], sentences: int = 4) -> str | None:
    """What a named document is about, for a question asking just that: its title (a "Title:"
    field of its header, else its name) and its opening sentences, cited. None otherwise."""
    if not documents or len(documents) > 2 or not ABOUT.match(question or ""):
        return None
    parts = []
    for d in documents:
        units = document_units(store, [d])[:6]
        field = _TITLE.search(units[0].get("text") or "") if units else None  # a header's "Title: ..."
        title, said = (field.group(1).strip() if field else d.get("title") or ""), []
        for s in unit_sentences(units):
            if _FIELD.fullmatch(s.text.rstrip(".")):
                continue  # the header's other fields: metadata, no answer
            said.append(cite(s.text, {"Sources": [s.unit]}))
            if len(said) >= sentences:
                break
        if said:
            parts.append(f"**{title}**: " + join_sentences(said))
    return "\n\n".join(parts) or None
