"""Questions a document's header answers ("Who wrote it?", "When was it created?", "What is its
status?"): the header's own field, quoted and cited.

A PEP, an RFC, a memo or a Markdown page with front matter opens with fields ("Author: ...",
"Created: 30-Sep-2015", "Status: Final"). A reader asks for them in words the header never
uses ("who wrote it"), so no sentence matches; the field is the answer. The documents asked
about are those the question names, else every document of the workspace that has the field.
"""
from __future__ import annotations

import re

from core.text.lexical import cite, terms

# what the question asks -> the header fields that answer it
ASKS: list[tuple[re.Pattern, tuple[str, ...], str]] = [
    (re.compile(r"\bwho (?:wrote|writes|authored|created|proposed|made|developed|drafted|is behind)\b|"
                r"\bwho (?:is|are|was|were) the authors?\b|\b(?:what|which) (?:are |were )?(?:the )?authors?\b|"
                r"\bauthors? of\b|\bwritten by\b|\bwho (?:is|are|was|were) (?:it|this|these|they) (?:by|from)\b", re.I),
     ("author", "authors", "by", "written by", "creator", "creators"), "author"),
    (re.compile(r"\bwhen (?:was|were|is|are) (?:[\w.'-]+ ){1,3}?(?:written|created|proposed|published|"
                r"released|posted|dated|filed|drafted)\b|\bwhat(?:'s| is| was) (?:its|the) (?:date|creation date|"
                r"publication date)\b", re.I),
     ("created", "date", "published", "posted", "released"), "date"),
    (re.compile(r"\bwhat(?:'s| is| was) (?:its|their|the) status\b|\bis (?:it|this)(?: \w+)? (?:accepted|final|rejected|approved|"
                r"active|withdrawn|deferred|a draft)\b", re.I), ("status",), "status"),
    (re.compile(r"\b(?:what|which) licen[cs]e\b|\bwhat(?:'s| is) (?:its|the) licen[cs]e\b|\bunder what licen[cs]e\b",
                re.I), ("license", "licence", "copyright"), "licence"),
]
HEADER_CHARS = 1500  # where a header's fields are: the document's opening
MAX_DOCUMENTS = 12
_ADDRESS = re.compile(r"\s*<[^<>]*(?:@| at )[^<>]*>|\s*\([^()\s]+@[^()\s]+\)")


def asked_field(question: str) -> tuple[tuple[str, ...], str] | None:
    """(the field names that answer it, what it asks for) for a question a header answers."""
    for pat, names, what in ASKS:
        if pat.search(question or ""):
            return names, what
    return None


# the words of a question about a document itself ("Who wrote it?", "What is this proposal's status?")
_DOCUMENT_WORDS = frozenset(terms("it its this these they them their document documents paper papers article articles "
                                  "post posts page pages proposal proposals pep peps spec specification report "
                                  "reports memo file files text texts guide one"))


_ASK_WORDS = frozenset(terms("who what when which wrote writes written authored author authors created creation proposed "
                             "made developed drafted behind by from date published publication released posted dated "
                             "filed status accepted final rejected approved active withdrawn deferred draft license "
                             "licence copyright under"))


def about_the_document(question: str) -> bool:
    """Does the question ask about the document itself, naming nothing else?"""
    return not (set(terms(question)) - _DOCUMENT_WORDS - _ASK_WORDS)


_FIELD_LINE = re.compile(r"[ \t*_-]*([A-Za-z][\w -]{0,30}?)[ \t*_]*:[ \t]*(\S.*)$")
_SPEAKER = re.compile(r"[A-Z][A-Z.'-]*(?: [A-Z][A-Z.'-]*)+")  # "KEVIN SCOTT": a transcript's turn, no field


def header_fields(text: str) -> list[tuple[str, str]]:
    """(name, value) of the fields a document opens with ("PEP: 703", "Author: ...", continued on
    indented lines), up to the first line that is no field; [] for a document opening with prose
    or a speaker's turn."""
    out: list[tuple[str, str]] = []
    for line in text[:HEADER_CHARS].split("\n"):
        if not line.strip():
            continue
        if out and line[:1] in " \t":
            out[-1] = (out[-1][0], out[-1][1] + " " + line.strip())
            continue
        m = _FIELD_LINE.fullmatch(line)
        if m is None or _SPEAKER.fullmatch(m.group(1).strip()) or len(m.group(2)) > 300:
            break
        out.append((m.group(1).strip(), m.group(2).strip()))
    return out if len(out) >= 2 else []


def _field(pairs: list[tuple[str, str]], names: tuple[str, ...]) -> tuple[str, str] | None:
    """(field name as written, its value, addresses left out) of the first of names in a header."""
    for name, value in pairs:
        if name.lower() in names:
            value = _ADDRESS.sub("", " ".join(value.split())).strip(" ,")
            return (name, value) if value else None
    return None


def _headers(store, docs: list[dict]) -> list[tuple[dict, dict, list[tuple[str, str]]]]:
    """(document, its opening unit, that unit's header fields) of each document with a header."""
    out = []
    for d in docs:
        first = store.rows("text_units", "document_id = ?", [d["id"]], order_by="ordinal", limit=1,
                           select="human_readable_id, text")
        pairs = header_fields(first[0].get("text") or "") if first else []
        if pairs:
            out.append((d, first[0], pairs))
    return out


def header_answer(store, question: str, named: list[dict]) -> str | None:
    """The header fields that answer the question, one line per document, each cited to the
    unit holding it; None when the question asks for no such field or no document has it."""
    asked = asked_field(question)
    if asked is None:
        return None
    names, what = asked
    if not named and not about_the_document(question):
        return None  # "Who created the match statement?" asks of a thing, not of a document
    docs = named or store.rows("documents", select="id, human_readable_id, title, source_name",
                               order_by="human_readable_id")
    lines = []
    for d, u, pairs in _headers(store, docs):
        found = _field(pairs, names)
        if found is not None:
            label, value = found
            lines.append((str(d.get("title") or ""), cite(f"{label}: {value}",
                                                          {"Sources": [int(u["human_readable_id"])]})))
    if not lines:
        return None
    if len(lines) == 1:
        return lines[0][1]
    shown = lines[:MAX_DOCUMENTS]
    more = f"\n\n{len(lines) - len(shown)} more documents have a {what} field." if len(lines) > len(shown) else ""
    return f"The {what} each document's header gives:\n" + "\n".join(f"- {t}: {line}" for t, line in shown) + more


def _document_label(doc: dict, pairs: list[tuple[str, str]]) -> str:
    """A document as its header's lines name it: its file title, then its header's Title field."""
    title = dict((k.lower(), v) for k, v in pairs).get("title")
    return str(doc.get("title") or "") + (f" ({title})" if title else "")


# "Which PEPs does Guido van Rossum author?", "What did Barry Warsaw write?": the documents a person's name heads
_BY_WHOM = re.compile(r"^\s*(?:which|what)\b[^?]*?\b(?:author|authors|authored|co-?author(?:s|ed)?|write|wrote|"
                      r"written|writes)\b", re.I)
_PERSON = re.compile(r"(?<!^)(?<![\w.'\u2019-])[A-Z][\w.'\u2019-]*(?: (?:[a-z]{2,3} )?[A-Z][\w.'\u2019-]*)+")
_AUTHOR_FIELDS = ("author", "authors", "by", "written by", "creator", "creators", "co-author", "co-authors")


def authored_documents(store, question: str) -> str | None:
    """The documents whose header names the person the question asks about as an author, one line
    each with the document's title and the field, cited; None when the question asks for no one's
    documents or no header names them."""
    if not _BY_WHOM.search(question or ""):
        return None
    names = [m.group(0) for m in _PERSON.finditer(question) if " " in m.group(0)]
    if not names:
        return None
    pats = [re.compile(rf"(?<![\w]){re.escape(n)}(?![\w])", re.I) for n in names]
    docs = store.rows("documents", select="id, human_readable_id, title", order_by="human_readable_id")
    lines = []
    for d, u, pairs in _headers(store, docs):
        found = _field(pairs, _AUTHOR_FIELDS)
        if found is not None and any(p.search(found[1]) for p in pats):
            lines.append(f"- {_document_label(d, pairs)}: " + cite(f"{found[0]}: {found[1]}", {"Sources": [int(u["human_readable_id"])]}))
    if not lines:
        return None
    return f"{len(lines)} document{'s' * (len(lines) != 1)} name{'s' * (len(lines) == 1)} {names[0]} as an author " \
        f"in {'their headers' if len(lines) != 1 else 'its header'}:\n" + "\n".join(lines[:MAX_DOCUMENTS])


_WHO_IS = re.compile(r"^\s*(?i:who (?:is|was|are|were)) (?:the )?([A-Z][\w.'\u2019-]*(?: [A-Z][\w.'\u2019-]*){0,3})\s*\??\s*$")


def header_role(store, question: str) -> str | None:
    """"Who is Sam Gross?" where a document's header names them ("Author: Sam Gross", "BDFL-Delegate:
    Alyssa Coghlan"): the role each header gives them, with the document's title, cited; None
    when the question asks who someone is and no header names them."""
    m = _WHO_IS.match(question or "")
    if m is None:
        return None
    name = m.group(1).strip()
    pat = re.compile(rf"(?<![\w]){re.escape(name)}(?![\w])")
    lines = []
    docs = store.rows("documents", select="id, human_readable_id, title", order_by="human_readable_id")
    for d, u, pairs in _headers(store, docs):
        held = [k for k, v in pairs if pat.search(v) and k.lower() not in ("title", "resolution")]
        if held:
            lines.append(cite(f"{name}: {' and '.join(held)} of {_document_label(d, pairs)}", {"Sources": [int(u["human_readable_id"])]}))
    if not lines:
        return None
    return lines[0] if len(lines) == 1 else "\n".join(f"- {x}" for x in lines[:MAX_DOCUMENTS])
