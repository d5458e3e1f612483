"""Source sentences for offline answers: which are worth quoting, where they are, how they rank.

- `unit_sentences(units)`: the quotable sentences of text units, each with its unit's
  human_readable_id (its citation) and its place. Left out: headers and metadata lines
  ("From:", "Date of report: ... Prepared by: ..."), licence and front matter, file names,
  headings, lists and code (`is_boilerplate`, and offline_answer.is_prose); a speaker label at
  the start of a transcript line ("REID HOFFMAN: (VOICEOVER) ...") is dropped from the quote.
- `name_pattern(names)`: a regex finding an entity under any of its names (case-insensitive,
  whole words, possessive allowed).
- `rank(question, sents)`: BM25 of each sentence against the question's words (minus the words
  of `exclude`, e.g. the entity's own name), plus a bonus when the question asks for a quantity
  ("how much", "how many", "how long", "paid") and the sentence holds one ("fifteen shillings",
  "$38,400", "seven years").
Used by core/offline/themes.py (global) and core/offline/definitions.py (local); meant for any
offline answer that quotes source sentences.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Iterable

from core.text.citations import disarm
from core.text.lexical import BM25, is_prose, terms
from core.offline.mentions import SPEAKER_LABEL, whole_sentences
from core.textutil import has_cjk, is_cjk, split_sentences
from core.ingest.structure import masked

# "Date of report:", "From:", "Prepared by:", "Subject:", "Tags:" ... starting a line
_HEADER_LINE = re.compile(r"^\s*(?:[-*>]\s*)?[A-Z][A-Za-z]*(?: [A-Za-z]+){0,3}\s*:\s*\S", re.MULTILINE)
_HEADER_WORDS = re.compile(
    r"^\s*(?:from|to|cc|bcc|date|sent|subject|re|ref|reference|prepared by|copied to|copy to|"
    r"distribution|date of report|report no|filed|author|authors|title|tags|status|version|"
    r"classification|attendees|present|apologies|location|time|venue|minutes|agenda|contact|"
    r"phone|email|tel|fax|released|embargo|for immediate release|media contact|press contact|notes to editors)\s*:", re.IGNORECASE | re.MULTILINE)
_LICENCE = re.compile(r"project gutenberg|gutenberg|\blicen[cs]e\b|copyright|all rights reserved|\bisbn\b|"
                      r"\bplaced in the public domain\b|"
                      r"\bebook\b|e-book|www\.|https?://|\btranscribed by\b|\bproduced by\b", re.IGNORECASE)
_FILE_NAME = re.compile(r"\.(?:txt|md|pdf|docx?|csv|json|html?)\b", re.IGNORECASE)
# a legal disclaimer, the same in every filing, call or release: "... should not be considered as a
# substitute for ...", "actual results could differ materially", "we undertake no duty to update"
_DISCLAIMER = re.compile(r"\bshould not be considered (?:as )?a substitute for\b|\bforward[- ]looking statements?\b|"
                         r"\bactual results (?:could|may|might) differ materially\b|"
                         r"\bundertakes? (?:no|any) (?:duty|obligation) to update\b|\bfor informational purposes only\b|"
                         r"\bdoes not constitute (?:an offer|investment advice|legal advice)\b", re.IGNORECASE)
_IDENTIFIER = re.compile(r"\w+_\w+")  # a line that is little more than one is a name, not a sentence
_HEADING = re.compile(r"^\s*(?:chapter|stave|part|book|section|episode|act|scene)\s+[\w.]+\s*[.:]?\s*$",
                      re.IGNORECASE)
_LIST_HEAD = re.compile(r"^\s*[A-Z][A-Za-z]*(?: [A-Za-z]+){0,3}\s*:")
_ENDED = re.compile(r"[.!?\u2026][\"'\u201d\u2019)\]`*]*\s*$")
_SPEAKER = re.compile(r"^\s*[A-Z][A-Z .'\u2019-]{1,40}:\s+(?:\([A-Z ]+\)\s*)?")
_QUANTITY_Q = re.compile(r"\bhow (?:much|many|long|old|far|often)\b|\b(?:paid|pay|pays|wage|wages|salary|"
                         r"cost|costs|price|earn|earns|amount|number of|figure)\b|多少|几", re.IGNORECASE)
_NUMBER_WORDS = ("one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
                 "sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety "
                 "hundred thousand million billion dozen half").split()
_AMOUNT = re.compile(r"\d|[$£€¥%]|\b(?:shillings?|pence|pounds?|dollars?|euros?|per cent|percent|litres?|liters?|"
                     r"tonnes?|tons?|miles?|metres?|meters?|years?|months?|weeks?|days?|hours?|minutes?)\b",
                     re.IGNORECASE)
_NUMBER = re.compile(r"\b(?:" + "|".join(_NUMBER_WORDS) + r")\b", re.IGNORECASE)


@dataclass
class Sentence:
    text: str            # on one line, speaker label dropped
    unit: int            # the text unit's human_readable_id (cited as Sources)
    unit_id: str
    order: int           # position in the corpus (document, unit ordinal, offset)


def is_boilerplate(raw: str, row: bool = False) -> bool:
    """Metadata, licence text, legal disclaimers, file names and headings: never quoted as an answer. row: the text
    is a list item or table row of a structured document, whose "Header: cell; Header: cell"
    is a record of the document, not a header's field list."""
    s = raw.strip()
    if not s or (not _ENDED.search(s) and not has_cjk(s) and not (s.endswith(":") and len(s.split()) >= 8)
                 and not _item_line(s)):
        return True  # a heading, a caption or a line cut off: not a sentence (one introducing a
        # quote or a list, "Heinrich Kuttler, author of ..., writes:", is one, and so is a list
        # item or a field's line, "vector_size int: (optional) - Vector size ... Default=3072")
    if s.startswith(":::"):
        return True  # a Markdown extension's directive block ("::: mkdocs-typer :module: graphrag.cli.main")
    if _addresses_only(s):
        return True  # "Tim Peters <tim.peters@gmail.com>, Guido van Rossum <guido@python.org>": a header's line
    if _HEADING.match(s) or _LICENCE.search(s) or _DISCLAIMER.search(s) or _FILE_NAME.search(s) or \
            (_IDENTIFIER.search(s) and len(s.split()) <= 4):
        return True  # (a sentence about a setting, "vector_size int: ... Default=3072", is one)
    if _HEADER_WORDS.search(s) or (_LIST_HEAD.match(s) and not _SPEAKER.match(s) and not row
                                    and (s.count(";") >= 2 or s.count(",") >= 3)):
        return True  # "In attendance: A (X); B (Y); ...", not a speaker's turn ("KEVIN SCOTT: Yeah, like ...")
    label = SPEAKER_LABEL.match(s)  # a speaker's label in capitals is no heading: what follows decides
    letters = [c for c in s[label.end() if label else 0:] if c.isalpha() and c.isascii()]
    if len(letters) >= 6 and sum(c.isupper() for c in letters) > 0.6 * len(letters):
        return True  # an all-capital heading or letterhead
    lines = [l for l in s.splitlines() if l.strip()]
    headers = sum(1 for l in lines if _HEADER_LINE.match(l) and not _SPEAKER.match(l))
    return not row and (headers >= 2 or (headers == 1 and len(lines) == 1 and len(s) < 60
                                         and not s.endswith((".", "!", "?"))))


_ADDRESS = re.compile(r"<[^<>\s]+@[^<>\s]+>|\([^()\s]+@[^()\s]+\)|\b[\w.+-]+@[\w-]+\.[\w.]+\b")


def _addresses_only(s: str) -> bool:
    """Names and e-mail addresses, and nothing else to say: an author or contact line."""
    if not _ADDRESS.search(s):
        return False
    rest = _ADDRESS.sub(" ", s)
    return not any(w.islower() and len(w) > 3 for w in re.findall(r"[A-Za-z]+", rest))


def _item_line(s: str) -> bool:
    """One line of six words or more, not in title case: a list item or a field's description,
    which a page writes without a full stop (a heading is short or capitalises its words)."""
    words = re.findall(r"[A-Za-z][\w'-]*", s)
    long_words = [w for w in words if len(w) >= 4]
    return "\n" not in s and len(s.split()) >= 6 and any(c.islower() for c in s) and \
        sum(w[:1].isupper() for w in long_words) < 0.6 * max(1, len(long_words))


_DUNDER = re.compile(r"(?<![\w*])__[A-Za-z][A-Za-z0-9_]*?__(?![\w*])")


def clean(raw: str) -> str:
    """One line; a leading transcript speaker label and markdown emphasis dropped; a citation
    marker written in the document made inert (a quote's only citation is the answer's own)."""
    s = _SPEAKER.sub("", disarm(raw.strip()))
    # a Python dunder ("__match_args__", "__init__()") is a name, not emphasis: its underscores stay
    s = _DUNDER.sub(lambda m: m.group(0).replace("_", "\x00"), s)
    s = re.sub(r"(?<!\w)[_*]{1,2}(?=\S)|(?<=\S)[_*]{1,2}(?!\w)", "", s).replace("\x00", "_")
    s = s.replace("\\*", "")
    return re.sub(r"\s+", " ", s).strip()


_LEADING_URL = re.compile(r"\s*(?:\.\. _[^:\n]+:\s*)?https?://\S+\s+")


ITEM_WORDS = 60  # a list item up to this long is one sentence ("vector_size int: ... embeddings. Default=3072")


@functools.lru_cache(maxsize=20000)
def _quotable(text: str, inside: bool, items: tuple[tuple[int, int], ...] = ()) -> tuple[tuple[str, int], ...]:
    """(sentence, offset) of the quotable sentences of one unit's text; a sentence a chunk
    boundary cut in half is left out (the overlapping unit holds it whole). items: the unit's
    list items, each of which is one sentence when short (its parts say one thing together)."""
    # a structured document's unit ends at a block's end: no sentence of it is cut in half
    spans = split_sentences(text) if items else whole_sentences(text, split_sentences(text), 1 if inside else 0)
    # an item is its whole line (a table row's item is its first cell: the row is the line)
    items = tuple((text.rfind("\n", 0, a) + 1, e if (e := text.find("\n", max(a, b - 1))) >= 0 else len(text))
                  for a, b in items)
    if items:  # an item's bounds bound its sentences ("Default is False" ends one item, whatever follows)
        edges = sorted({x for a, b in items for x in (a, b)})
        cut = []
        for a, b in spans:
            for x in (x for x in edges if a < x < b and text[a:x].strip() and text[x:b].strip()):
                cut.append((a, x))
                a = x + len(text[x:b]) - len(text[x:b].lstrip())
            cut.append((a, b))
        spans = cut
    for a, b in items:
        inner = [sp for sp in spans if a <= sp[0] and sp[1] <= b + 1]
        if len(inner) > 1 and len(text[a:b].split()) <= ITEM_WORDS:
            spans = sorted([sp for sp in spans if sp not in inner] + [(inner[0][0], inner[-1][1])])
    out = []
    starts = {a for a, _ in items}
    for a, b in spans:
        lead = _LEADING_URL.match(text, a, b)  # a reST link target's address before the sentence
        if lead is not None:
            a = lead.end()
        raw = text[a:b]
        # a sentence opening in lower case is the rest of one cut off, unless a list item opens so
        # ("vector_size int: (optional) - ...", "lancedb: the default store")
        if len(raw) < 20 or (raw.lstrip()[:1].islower() and a not in starts) or is_boilerplate(raw, a in starts):
            continue
        s = clean(raw)
        # (a list item need not end in a full stop: "allow_overwrite: setting this to True ... Default is False")
        if len(s) >= 20 and (is_prose(s) or (a in starts and is_prose(s + "."))):
            out.append((s, a))
    return tuple(out)


def prose_text(unit: dict) -> str:
    """A unit's text with its headings and code blocks blanked (offsets kept), when its structure
    says where they are: a heading titles what follows and is never quoted as an answer."""
    text = unit.get("text") or ""
    structure = unit.get("structure")
    if not isinstance(structure, dict):
        return text
    spans = (structure.get("headings") or []) + (structure.get("skip") or [])
    return masked(text, 0, spans) if spans else text


def headings_above(unit: dict, at: int) -> list[str]:
    """The headings above position `at` of the unit's text: its heading path, then the headings
    its text writes before `at`, nearest last."""
    text = unit.get("text") or ""
    raw = unit.get("structure")
    inside = [text[a:b].strip() for a, b, *_ in ((raw if isinstance(raw, dict) else {}).get("headings") or [])
              if a <= at]
    path = [str(h) for h in unit.get("headings") or []] if isinstance(unit.get("headings"), list) else []
    return path + inside


def heading_of(unit: dict, sentence: str) -> str:
    """The heading the sentence stands under (the nearest above it in its unit); "" when it has none."""
    text = unit.get("text") or ""
    at = text.find(sentence[:40])
    heads = headings_above(unit, at if at >= 0 else len(text))
    return heads[-1] if heads else ""


def unit_sentences(units: Iterable[dict]) -> list[Sentence]:
    """The quotable sentences of text units, in corpus order; a sentence repeated in the
    overlap of two units is kept once (in the first)."""
    out: list[Sentence] = []
    seen: set[str] = set()
    ordered = sorted(units, key=lambda u: (u.get("document_id") or "", u.get("ordinal") or 0,
                                           u.get("human_readable_id") or 0))
    for n, u in enumerate(ordered):
        structure = u.get("structure")
        items = tuple((int(a), int(b)) for a, b in structure.get("items") or []) if isinstance(structure, dict) else ()
        for s, a in _quotable(prose_text(u), bool(u.get("char_start")), items):
            key = _key(s)
            if key in seen:
                continue
            seen.add(key)
            out.append(Sentence(s, int(u["human_readable_id"]), u["id"], n * 1_000_000 + a))
    return out


@functools.lru_cache(maxsize=100000)
def _key(s: str) -> str:
    return re.sub(r"\W+", "", s.lower())


@functools.lru_cache(maxsize=100000)
def sentence_terms(s: str) -> tuple[str, ...]:
    return tuple(terms(s))


def in_language_of(question: str, sents: list[Sentence]) -> list[Sentence]:
    """The sentences written in the question's language (Chinese or not), when there are any: an
    English answer quotes no Chinese sentence of a mixed corpus, and the other way round."""
    zh = has_cjk(question)
    same = [s for s in sents if is_cjk(s.text) == zh]
    return same or sents


def name_pattern(names: Iterable[str]) -> re.Pattern | None:
    forms = sorted({n.strip() for n in names if n and len(n.strip()) >= 2}, key=len, reverse=True)
    if not forms:
        return None
    latin = [r"[\s\-]+".join(re.escape(w) for w in f.split()) for f in forms if not has_cjk(f)]
    cjk = [re.escape(f) for f in forms if has_cjk(f)]  # Chinese has no spaces: no word boundary
    parts = ([r"(?<![\w])(?:" + "|".join(latin) + r")(?:['\u2019]s?)?(?![\w])"] if latin else []) \
        + (["(?:" + "|".join(cjk) + ")"] if cjk else [])
    return re.compile("|".join(parts), re.IGNORECASE)


def asks_quantity(question: str) -> bool:
    return bool(_QUANTITY_Q.search(question or ""))


def has_quantity(sentence: str) -> float:
    """1 for an amount (a figure, a currency, a unit: "fifteen shillings a week", "$38,400"), 0.5
    for a bare number word ("two"), else 0."""
    number = bool(_NUMBER.search(sentence)) or bool(re.search(r"\d", sentence))
    return 1.0 if number and _AMOUNT.search(sentence) else (0.5 if number else 0.0)


def rank(question: str, sents: list[Sentence], exclude: Iterable[str] = (),
         broad: Iterable[str] = ()) -> list[tuple[float, Sentence]]:
    """(score, sentence), best first; score 0 for a sentence sharing nothing with the question.
    exclude: words not to match on (the entity's own name: every candidate holds it)."""
    drop = {t for w in exclude for t in terms(w)} | {t for w in broad for t in terms(w)}
    q = [t for t in terms(question) if t not in drop]
    if not sents:
        return []
    bm = BM25([list(sentence_terms(s.text)) for s in sents])
    quantity = asks_quantity(question)
    scored = []
    for i, s in enumerate(sents):
        score = bm.score(q, i) if q else 0.0
        if quantity and score > 0:
            score *= 1 + 0.8 * has_quantity(s.text)
        scored.append((score, -i, s))
    scored.sort(key=lambda x: (x[0], x[1]), reverse=True)
    return [(sc, s) for sc, _, s in scored]
