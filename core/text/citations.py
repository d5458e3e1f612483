"""Citation markers in answers and reports: parse, strip, format.

The canonical form (GraphRAG's) is `[Data: Reports (1, 3); Entities (5, 7, +more); Sources (2)]`.
Models write many variants; the parser accepts:

- any spacing and case: `[data:reports(1,3)]`, `[DATA: REPORTS (1, 3)]`;
- singular kinds and aliases: Report, Entity, Relationship / Relation, Claim / Covariate,
  Source / Text Unit, Community Report; Chinese kind names (报告 实体 关系 声明 来源, 数据 for Data);
- a missing `Data:` (`[Reports (1, 2)]`) or a repeated one (`[Data: Reports (1); Data: Entities (2)]`);
- several groups in one bracket separated by `;`, `,` or nothing, and several brackets per sentence;
- ids without parentheses (`(Data: Entities 5, 7)`), with `#` (`#12`), ranges (see below);
- `+more`, `+ more`, `more`, `...`, `etc.` for "more not listed" (kept as Ref(kind, None, more=True));
- round outer brackets `( ... )` and full-width punctuation from Chinese models
  (`【Data: Reports (1，2)】`, `（1、2）`, `；`, `：`);
- an unclosed bracket or parenthesis: `Data: Reports (1, 2` still yields Reports 1 and 2 (a bare
  `Data:` prefix is enough to start a marker).

Ranges: `3-5` is expanded to 3, 4, 5 when it lists at most MAX_RANGE ids (models write
`Reports (3-5)` for three reports). A longer or reversed range keeps its two ends plus a
"+more" reference: we never invent hundreds of references the model did not list.

Not citations: bracket contents that are not made only of kinds and ids (`[see Reports (1)]`,
`(1, 2)`, `[1]`), and ids given as names (`Entities (SCROOGE)`).

Sentences: core.textutil.split_sentences (English and Chinese; "Mr." and initials do not end a
sentence, a blank line does). Markers are masked while splitting, so "etc." or "+more)." inside
a marker never ends a sentence. A marker placed after the full stop (`... is mean. [Data: Reports (1)]`) belongs to the
sentence before it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from core.textutil import ABBREVIATIONS, split_sentences

KINDS = ("Reports", "Entities", "Relationships", "Claims", "Sources")
MAX_RANGE = 20

# Single-character replacements only, so positions in the normalised text equal positions in
# the original.
_NORMALISE = str.maketrans({
    "【": "[", "】": "]", "［": "[", "］": "]", "〔": "[", "〕": "]", "〖": "[", "〗": "]",
    "（": "(", "）": ")", "，": ",", "、": ",", "；": ";", "：": ":", "＃": "#", "＋": "+",
    "–": "-", "—": "-", "－": "-", "～": "-", "\u3000": " ",
    **{chr(0xFF10 + d): str(d) for d in range(10)},
})

_KIND_ALIASES = [
    (re.compile(r"community\s*reports?|reports?|报告", re.I), "Reports"),
    (re.compile(r"entit(?:y|ies)|实体", re.I), "Entities"),
    (re.compile(r"relation(?:ship)?s?|关系", re.I), "Relationships"),
    (re.compile(r"claims?|covariates?|声明", re.I), "Claims"),
    (re.compile(r"sources?|text[\s_]*units?|来源", re.I), "Sources"),
]

_TOKEN = re.compile(r"""
  (?P<ws>\s+)
| (?P<data>(?:data|数据)(?![a-z]))
| (?P<kind>(?:community\s*reports?|reports?|entit(?:y|ies)|relation(?:ship)?s?|claims?
            |covariates?|sources?|text[\s_]*units?)(?![a-z])|报告|实体|关系|声明|来源)
| (?P<range>\#?\d+\s*-\s*\#?\d+)
| (?P<num>\#?\d+)
| (?P<more>\+\s*more(?![a-z])|more(?![a-z])|\.\.\.|…|etc(?![a-z])\.?)
| (?P<open>\()
| (?P<close>\))
| (?P<sep>[,;&]|and(?![a-z])|和|及)
| (?P<colon>:)
""", re.I | re.X)

# What may follow an opening bracket for it to be worth parsing.
_START = re.compile(r"\s*(?:data|数据|community\s*report|report|entit|relation|claim|covariate"
                    r"|source|text[\s_]*unit|报告|实体|关系|声明|来源)", re.I)
_BARE = re.compile(r"(?<![a-z])(?:data|数据)\s*:", re.I)
_CLOSER = {"[": "]", "(": ")"}
_MAX_MARKER = 2000


@dataclass(frozen=True)
class Ref:
    """One reference: a kind and a human_readable_id, or id=None with more=True for "+more"."""
    kind: str
    id: int | None
    more: bool = False


@dataclass
class Citation:
    """One marker as written: its exact text, its span in the text, its references in order."""
    marker: str
    start: int
    end: int
    refs: list[Ref] = field(default_factory=list)

    def ids(self, kind: str) -> list[int]:
        return [r.id for r in self.refs if r.kind == kind and r.id is not None]


def kind_name(word: str) -> str | None:
    """Canonical kind (`Reports`, ...) for a word such as `report`, `ENTITY`, `text units`."""
    word = word.strip()
    for pattern, kind in _KIND_ALIASES:
        if pattern.fullmatch(word):
            return kind
    return None


def _int(token: str) -> int:
    return int(token.strip().lstrip("#"))


def _parse_body(norm: str, pos: int, end: int, full: bool) -> tuple[list[Ref], int] | None:
    """Parse groups from norm[pos:end]. full=True: the whole range must be groups (a bracket's
    content). full=False: take the longest valid prefix. Returns (refs, end of the marker)."""
    refs: list[Ref] = []
    kind: str | None = None
    in_paren = False
    good_end, good_count = pos, 0
    while pos < end:
        m = _TOKEN.match(norm, pos, end)
        if not m:
            break
        t, tok = m.lastgroup, m.group()
        if t == "ws" or t == "sep":
            pass
        elif t == "colon":
            if in_paren:
                break
        elif t == "data":
            if in_paren:
                break
        elif t == "kind":
            if in_paren:
                break
            kind = kind_name(tok)
        elif t == "open":
            if in_paren or kind is None:
                break
            in_paren = True
        elif t == "close":
            if not in_paren:
                break
            in_paren = False
            good_end, good_count = m.end(), len(refs)
        elif kind is None:  # an id before any kind
            break
        elif t == "num":
            refs.append(Ref(kind, _int(tok)))
        elif t == "range":
            lo, hi = (_int(x) for x in tok.split("-"))
            if lo <= hi and hi - lo < MAX_RANGE:
                refs.extend(Ref(kind, i) for i in range(lo, hi + 1))
            else:
                refs.extend([Ref(kind, lo), Ref(kind, hi), Ref(kind, None, True)])
        elif t == "more":
            refs.append(Ref(kind, None, True))
        if t in ("num", "range", "more") and not in_paren:
            good_end, good_count = m.end(), len(refs)
        pos = m.end()
    if full:
        if not refs or norm[pos:end].strip(" \t\r\n.") != "":
            return None
        return _dedupe(refs), end
    refs = refs[:good_count]
    return (_dedupe(refs), good_end) if refs else None


def _dedupe(refs: list[Ref]) -> list[Ref]:
    return list(dict.fromkeys(refs))


def _matching(norm: str, i: int) -> int | None:
    """Index of the bracket closing norm[i], or None."""
    opener = norm[i]
    closer = _CLOSER[opener]
    depth = 0
    for j in range(i, min(len(norm), i + _MAX_MARKER)):
        c = norm[j]
        if c == opener:
            depth += 1
        elif c == closer:
            depth -= 1
            if depth == 0:
                return j
        elif c == "\n" and norm.startswith("\n", j + 1):
            return None
    return None


def parse_citations(text: str) -> list[Citation]:
    """Every citation marker in text, in order of position."""
    if not text:
        return []
    norm = text.translate(_NORMALISE)
    found: list[Citation] = []
    i, n = 0, len(norm)
    while i < n:
        c = norm[i]
        if c in "[(" and _START.match(norm, i + 1):
            j = _matching(norm, i)
            if j is not None:
                parsed = _parse_body(norm, i + 1, j, full=True)
                if parsed is not None:
                    found.append(Citation(text[i:j + 1], i, j + 1, parsed[0]))
                    i = j + 1
                    continue
        i += 1
    # bare "Data: Reports (1, 2)" (no bracket, or an unclosed one)
    for m in _BARE.finditer(norm):
        s = m.start()
        if any(c.start <= s < c.end for c in found):
            continue
        parsed = _parse_body(norm, s, min(n, s + _MAX_MARKER), full=False)
        if parsed is None:
            continue
        refs, e = parsed
        k = s
        while k > 0 and norm[k - 1] in " \t":
            k -= 1
        if k > 0 and norm[k - 1] in "[(":
            s = k - 1
        found.append(Citation(text[s:e], s, e, refs))
    found.sort(key=lambda c: c.start)
    return found


def strip_citations(text: str, citations: list[Citation] | None = None) -> str:
    """The text without its markers, without the space left before them."""
    cites = parse_citations(text) if citations is None else citations
    if not cites:
        return text
    out: list[str] = []
    last = 0
    for c in cites:
        out.append(text[last:c.start])
        last = c.end
        rest = text[last:last + 1]
        joined = "".join(out).rstrip(" \t")
        out = [joined]
        if rest.isalnum() and joined and not joined[-1].isspace():
            out.append(" ")
    out.append(text[last:])
    return "".join(out)


_DATA_COLON = re.compile(r"(data|数据)\s*[:：]", re.IGNORECASE)
_OPENERS, _CLOSERS = "[(【［〔〖（", "])】］〕〗）"


def disarm(text: str) -> str:
    """Text with every citation marker written in it made inert ("[Data: Reports (9)]" becomes
    "‹Data - Reports (9)›"): the parser also reads round brackets and a bare "Data:", so only a
    marker it no longer parses is harmless. One that survives three passes is removed."""
    for _ in range(3):
        cites = parse_citations(text)
        if not cites:
            return text
        for c in reversed(cites):
            m = _DATA_COLON.sub(r"\1 -", c.marker)
            if m[:1] in _OPENERS:
                m = "\u2039" + m[1:-1] + ("\u203a" if m[-1:] in _CLOSERS else m[-1:])
            text = text[:c.start] + m + text[c.end:]
    return strip_citations(text)


def format_citation(refs: dict[str, list[int]], max_ids: int = 5, more: bool = False) -> str:
    """`[Data: Reports (1, 3); Entities (5, 7, +more)]` in GraphRAG's style: kinds in canonical
    order, at most max_ids ids per kind then "+more". Keys may be any alias ("entity"). more=True
    adds "+more" to every kind even when the ids fit."""
    by_kind: dict[str, list[int]] = {}
    for key, ids in refs.items():
        kind = kind_name(key)
        if kind is None:
            raise ValueError(f"unknown citation kind: {key!r}")
        by_kind.setdefault(kind, []).extend(int(i) for i in ids if i is not None)
    groups = []
    for kind in KINDS:
        ids = list(dict.fromkeys(by_kind.get(kind, [])))
        if not ids:
            continue
        shown = [str(i) for i in ids[:max_ids]]
        if len(ids) > max_ids or more:
            shown.append("+more")
        groups.append(f"{kind} ({', '.join(shown)})")
    return f"[Data: {'; '.join(groups)}]" if groups else ""


# sentences -------------------------------------------------------------------------------

_MASK = "X"  # markers are masked as a capitalised word while splitting sentences


# an English sentence's end before a Chinese one ("... on Azure. 微软的收入增长了"): the shared
# splitter wants a capital after the stop, and a Chinese character has none. Cut here only, for
# the sentences a reader cites and checks: the chunker's units (and their ids) stay as they are.
_EN_BEFORE_ZH = re.compile(r"(?<=[A-Za-z0-9)\]'\u2019\u201d][.!?])\s+(?=[\u3400-\u4dbf\u4e00-\u9fff])")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of every sentence, whitespace trimmed (the project's shared splitter, and an
    English full stop before a Chinese sentence)."""
    out = []
    for a, b in split_sentences(text):
        pos = a
        for m in _EN_BEFORE_ZH.finditer(text, a, b):
            word = re.search(r"(\w+)\W*$", text[pos:m.start()])
            if word and word.group(1).lower() in ABBREVIATIONS:
                continue  # "Dr. 陈"
            out.append((pos, m.start()))
            pos = m.end()
        out.append((pos, b))
    return out


def sentences_with_citations(text: str) -> list[tuple[str, tuple[int, int], list[Citation]]]:
    """Every sentence that carries at least one marker: (sentence text, (start, end), markers).
    The sentence text includes its markers. A marker after the full stop joins the sentence
    before it."""
    cites = parse_citations(text)
    if not cites:
        return []
    masked = list(text)
    for c in cites:
        masked[c.start:c.end] = _MASK * (c.end - c.start)
    spans = [list(s) for s in sentence_spans("".join(masked))]
    # a sentence that starts with markers hands them to the sentence before it
    k = 1
    while k < len(spans):
        s, e = spans[k]
        lead = [c for c in cites if s <= c.start < e]
        if "\n\n" in text[spans[k - 1][1]:s].replace("\r", "").replace(" ", ""):
            lead = []  # a new paragraph starts with the marker: it stays there
        moved_end = None
        pos = s
        for c in lead:
            if text[pos:c.start].strip(" \t\r\n.;,") == "" and c.start >= pos:
                moved_end, pos = c.end, c.end
            else:
                break
        if moved_end is not None:
            rest_start = moved_end
            while rest_start < e and (text[rest_start].isspace() or text[rest_start] in ".;,"):
                rest_start += 1
            spans[k - 1][1] = rest_start if rest_start >= e else moved_end
            if rest_start >= e:
                del spans[k]
                continue
            spans[k][0] = rest_start
        k += 1
    # a marker followed by a dash ends a claim of its own: "4. LinkedIn: growth, skills
    # [Data: Reports (12)] — LinkedIn revenue increased 17 percent ... [Data: Sources (15)]." is a
    # heading citing a report, then a sentence citing a source, each judged on its own
    split: list[list[int]] = []
    for s, e in spans:
        cut = s
        for c in cites:
            if s <= c.start and c.end < e:
                m = _DASH_AFTER.match(text, c.end)
                if m and m.end() < e and any(x.start >= m.end() for x in cites if x.start < e):
                    split.append([cut, c.end])
                    cut = m.end()
        split.append([cut, e])
    out = []
    for s, e in split:
        mine = [c for c in cites if s <= c.start < e]
        if mine:
            out.append((text[s:e], (s, e), mine))
    return out


def uncited_spans(text: str, cited: list[tuple[str, tuple[int, int], list[Citation]]] | None = None
                  ) -> list[tuple[int, int]]:
    """(start, end) of the sentences of text that carry no marker (cited: text's
    sentences_with_citations, when the caller has them)."""
    spans = [se for _, se, _ in (sentences_with_citations(text) if cited is None else cited)]
    return [(s, e) for s, e in sentence_spans(text) if not any(a <= s < b for a, b in spans)]


_DASH_AFTER = re.compile(r"[ \t]+[\u2014\u2013][ \t]+|[ \t]+--?[ \t]+")
