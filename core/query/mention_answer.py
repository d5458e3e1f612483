"""Questions asking whether the documents mention something ("Does PEP 621 mention Poetry?",
"Is GitHub mentioned in the call?"): yes, where, and the first sentences that name it, cited.

A reader asks this to find out whether a thing is there at all; ranked sentences sharing the
question's other words ("PEP", "mention") never say. The thing is the words after the verb (or
before "mentioned"); the documents looked in are those the question names, else all. When no
unit names it the method's answer stays as it is: the frame says first that the documents do not
mention it (core/query/methods/frame.py), when the name reader can tell.
"""
from __future__ import annotations

import re

from core.offline.sentence_rank import unit_sentences
from core.query.doc_scope import named_documents
from core.store.db import Store
from core.text.lexical import cite, document_word

_VERBS = r"(?:mention|mentions|mentioned|discuss|discusses|discussed|talk about|talks about|say anything about|" \
         r"says anything about|refer to|refers to|cover|covers|name|names|cite|cites)"
_DOES = re.compile(r"^\s*(?:does|do|did)\s+(?P<subj>.+?)\s+(?:ever\s+|also\s+)?" + _VERBS + r"\s+(?P<what>.+?)\s*\??\s*$", re.I)
_IS = re.compile(r"^\s*(?:is|are|was|were)\s+(?P<what>.+?)\s+(?:ever\s+|also\s+)?(?:mentioned|discussed|named|cited)"
                 r"(?:\s+(?:in|by|anywhere in)\s+(?P<subj>.+?))?\s*\??\s*$", re.I)
_DOCUMENTS = frozenset("it they this these that the its their".split())
_SERIES_NAME = re.compile(r"[A-Z]{2,6}[ -]?\d+\b")  # "PEP 621", "RFC 822"
_LEAD = re.compile(r"^(?:the|a|an|any)\s+", re.I)
SHOWN = 3  # sentences quoted


def asked_mention(question: str) -> str | None:
    """The thing a "does it mention X?" question asks about, or None. Asked of the documents
    ("it", "the call", "PEP 621", none), not of a person ("Did Satya talk about Azure?" asks what
    he said, which ranked passages answer)."""
    m = _DOES.match(question or "") or _IS.match(question or "")
    if m is None:
        return None
    subj = (m.group("subj") or "").strip()
    first = subj.split()[0].lower() if subj else ""
    if subj and not (first in _DOCUMENTS or document_word(first) or _SERIES_NAME.match(subj)):
        return None
    what = _LEAD.sub("", m.group("what").strip(" \"'\u201c\u201d`"))
    # a thing by its name ("Poetry", "the Global Interpreter Lock", "pip"), not a topic ("trends in funding")
    named = len(what.split()) == 1 or (len(what.split()) <= 5 and any(c.isupper() for c in what))
    return what if 2 <= len(what) <= 60 and named else None


def mention_answer(store: Store, question: str) -> str | None:
    """"Yes: ..." with where the documents name the thing and their first sentences naming it;
    None when the question asks no such thing or no unit names it."""
    what = asked_mention(question)
    if what is None:
        return None
    docs = named_documents(store, question)
    try:
        found = store.units_with(what, 200)
    except Exception:  # no full-text index (an old workspace): the method answers as it would
        return None
    pat = re.compile(r"(?<![\w])" + r"[\s-]+".join(map(re.escape, what.split())) + r"(?![\w])", re.I)
    ids = {d["id"] for d in docs}
    every = [u for u in store.by_ids("text_units", [u["id"] for u in found]) if pat.search(u.get("text") or "")]
    units = [u for u in every if not ids or u.get("document_id") in ids]
    titles = {d["id"]: d.get("title") or "" for d in store.rows("documents", select="id, title")}
    if not units and every:  # the document named does not; others do
        asked = ", ".join(d.get("title") or "" for d in docs)
        others = list(dict.fromkeys(titles.get(u.get("document_id"), "") for u in every))
        first = next(iter(s for s in unit_sentences(every) if pat.search(s.text)), None)
        return (f"No: {asked} does not mention {what}. {', '.join(others[:3])} "
                f"do{'es' if len(others) == 1 else ''}" + (f": {cite(first.text, {'Sources': [first.unit]})}" if first else "."))
    if not units:
        return None
    where = list(dict.fromkeys(titles.get(u.get("document_id"), "") for u in units if titles.get(u.get("document_id"))))
    sents = [s for s in unit_sentences(units) if pat.search(s.text)][:SHOWN]
    times = sum(len(pat.findall(u.get("text") or "")) for u in units)
    head = (f"Yes: {', '.join(where[:3])}{' and others' if len(where) > 3 else ''} "
            f"mention{'s' if len(where) == 1 else ''} {what} ({times} time{'s' * (times != 1)} in "
            f"{len(units)} passage{'s' * (len(units) != 1)}).")
    quotes = [cite(s.text, {"Sources": [s.unit]}) for s in sents]
    return head + ("\n\n" + " ".join(quotes) if quotes else "")
