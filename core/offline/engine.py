"""The offline engine: a GraphRAG index with no model at all.

Extraction works sentence by sentence (core.textutil.split_sentences):
- English: proper names are runs of capitalised words ("Bank of England", "Ghost of Christmas
  Past", with a title kept: "Mr. Fezziwig"); leading sentence words such as "The", "But", "Old"
  are stripped. A single word must earn its place: seen twice in the unit, once not at a
  sentence start, or once mid-sentence next to a type cue ("said Belle", "in London"),
  or introduced by an apposition ("Belle, a comely matron"); a word more often written lower
  case in the unit is a common word.
- Salient noun phrases, sparingly: a lower-case pair of content words repeated three times in
  the unit ("community reports"), at most three per unit, type "other".
- Chinese: jieba's part-of-speech tagger (loaded once, quietly) for person (nr), place (ns) and
  organisation (nt) words, with guards against its dictionary's everyday words tagged as names;
  "X + 集团/公司/研究院..." merged into one organisation; Latin names in Chinese text (GraphRAG,
  Leiden, DB-GPT, TuGraph) are entities too. Dictionary nz words are not taken: jieba tags
  everyday words nz (论文, 普通).
- Types come from cues: a title or a speech verb (person), the head word (Bank, Council -> org;
  Street, City -> geo; Festival, War, Christmas -> event), "in/at <Name>" (geo). A small list of
  well-known organisations fixes what jieba mis-tags (微软 is an adjective there). With no cue the
  type is "other"; a type outside the settings' entity types becomes "other".
- Descriptions are the sentences that mention the entity, trimmed. Relationships are pairs of
  entities in one sentence: description = the supporting sentences, weight = sentences.
- Claims: none. A claim's status (TRUE/FALSE/SUSPECTED) is a judgement a model makes; the offline
  engine does not invent it, so the claims table stays empty for offline runs.
Lines that look like code, URLs and `inline code` are skipped; so are all-capital headings. In a
structured document (Markdown), the unit's headings and code blocks are blanked before reading:
they title or illustrate what the sentences say and are never entities or descriptions.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Sequence

from core.engine import Extraction, ReportInput
from core.ingest.structure import masked
from core.text import wordnet
from core.text.lexical import NUMBERED_NAME, document_word
from core.text.wordnet import common_word
from core.offline.mentions import (CONNECTORS, DEFAULT_TYPES, FIRST_NAMES, KNOWN_ORGS, ROLE_NOUNS, SYNONYMS,
                                   TITLES, WORD, drop_initial_verbs, en_mentions, imperative, Mention,
                                   ly_adverb, skip_sentence, whole_sentences)
from core.offline.zh_mentions import zh_mentions
from core.offline.lower_names import TYPE_WORDS, config_values, lower_names
from core.offline.phrases import heading_terms, noun_phrases
from core.offline.reports import summarize_descriptions, write_report
from core.textutil import has_cjk, normalize_title, split_sentences, trim_around


@dataclass
class _Cand:
    key: str
    forms: Counter = field(default_factory=Counter)
    count: int = 0
    mid: int = 0            # mentions not at a sentence start
    strong: bool = False    # multi-word, titled, known, or from the Chinese tagger
    lower_check: bool = False
    votes: Counter = field(default_factory=Counter)
    sentences: list[int] = field(default_factory=list)
    phrase: bool = False    # a repeated lower-case noun phrase (noun_phrases), kept on purpose
    after_name: int = 0     # mentions right after another name and a comma ("Ha Trinh, Senior Data Scientist")
    emphasised: int = 0     # mentions that are the whole text of a link or a bold span ("[Global Search](...)")


class OfflineEngine:
    """core.engine.IndexEngine without a model: see the module docstring."""

    name = "offline"

    def __init__(self, settings: Any = None, entity_types: Sequence[str] | None = None):
        types = entity_types or getattr(settings, "entity_types", None) or DEFAULT_TYPES
        self.entity_types = tuple(t.strip() for t in types)
        self._type_map = {}
        for ours, names in SYNONYMS.items():
            match = [t for t in self.entity_types if t.lower() in names]
            self._type_map[ours] = match[0] if match else "other"

    # ---- extraction -----------------------------------------------------------------------
    def extract(self, unit: dict[str, Any]) -> Extraction:
        text = unit.get("text") or ""
        got = unit.get("structure")
        structure: dict[str, Any] = got if isinstance(got, dict) else {}
        # the unit's heading path and the headings inside it: the terms a page is about
        headings = list(dict.fromkeys([str(h) for h in unit.get("headings") or [] if str(h).strip()]
                                      + [text[h[0]:h[1]] for h in structure.get("headings") or []]))
        raw = text
        if structure:  # headings title what follows and code holds no prose
            text = masked(text, 0, (structure.get("headings") or []) + (structure.get("skip") or []))
        code = [(a, b) for a, b in structure.get("code") or []]
        # a bold word right after inline code annotates it ("`name` **str**", "`x`: **dict**"), as
        # a type does ("**str|None**"): no defined term
        marked = [(a, b) for a, b in structure.get("strong") or []
                  if not any(ce <= a and not text[ce:a].strip(" :") for _, ce in code) and not _type_expression(text[a:b])]
        heads = {a: b for a, b in structure.get("items") or []}
        links = [(a, b) for a, b in structure.get("links") or []]
        # a structured document's unit ends at a block's end, and its list items and table rows
        # end without a full stop: none of them is a sentence a chunk boundary cut in half
        spans = split_sentences(text) if structure else whole_sentences(text, split_sentences(text),
                                                                        unit.get("char_start"))
        sentences = [text[a:b] for a, b in spans]
        # inline code marks its identifiers, so they make no sentence a line of code
        coded = masked(text, 0, [[a, b] for a, b in code]) if code else text
        skipped = [skip_sentence(coded[a:b]) for a, b in spans]
        found = [[] if skipped[i] else (zh_mentions(s) if has_cjk(s) else en_mentions(s)) for i, s in enumerate(sentences)]
        drop_initial_verbs(found)
        for i, ms in enumerate(found):  # a word of code ("`True`", "`Default`") is a value, no name;
            # a part of an identifier ("ENV" of "${ENV_VAR}") no word at all
            at = spans[i][0]
            for m in ms:  # "Click `Apply`", "Select `Force Atlas 2`": a step's verb and the control it names
                first, _, rest = m.surface.partition(" ")
                if m.initial and rest and imperative(first) and any(
                        a <= at + m.start + len(first) + 1 and at + m.end <= b for a, b in code):
                    m.surface, m.start, m.initial = rest, m.start + len(first) + 1, False
            ms[:] = [m for m in ms if "_" not in text[at + m.start - 1:at + m.start] + text[at + m.end:at + m.end + 1]
                     and not (" " not in m.surface and common_word(m.surface.lower()) and any(
                         a <= at + m.start and at + m.end <= b for a, b in code))]
        for i, s in enumerate(sentences):  # tools and models written in lower case ("lancedb", "gpt-4o")
            if not skipped[i] and not has_cjk(s):
                taken = [(m.start, m.end) for m in found[i]]
                found[i] += [Mention(w, a, b, strong=True) for w, a, b in lower_names(s, spans[i][0], links, code)
                             if not any(x < b and a < y for x, y in taken)]
        for a, b in structure.get("skip") or []:  # a code block's settings name the models and stores used
            values = config_values(raw[a:b])
            if values:
                sentences.append(raw[a:b])
                spans.append((a, b))
                found.append([Mention(w, x, y, strong=True) for w, x, y in values])
        cands: dict[str, _Cand] = {}
        mentions: list[list[tuple[str, Mention]]] = []
        for i, ms in enumerate(found):
            keyed = []
            for m in ms:
                key = normalize_title(m.surface)
                if len(key) < 2 and not (m.strong and key == "C"):  # a letter, not the language C
                    continue
                c = cands.setdefault(key, _Cand(key))
                c.forms[m.surface] += 1
                c.count += 1
                c.mid += not m.initial
                c.strong |= m.strong or name_shaped(m.surface) or (not m.initial and _acronym(m.surface)) or \
                    _marked_name(text, spans[i][0] + m.start, spans[i][0] + m.end, marked, heads, links)
                c.lower_check |= m.lower_check
                c.emphasised += _emphasised(text, spans[i][0] + m.start, spans[i][0] + m.end, marked + links)
                c.votes.update(m.votes)
                if i not in c.sentences:
                    c.sentences.append(i)
                keyed.append((key, m))
            mentions.append(keyed)
        # where inline code and bold begin and end: no phrase runs across ("`name` **str**")
        bounds = sorted({x for a, b in code + marked for x in (a, b)})
        edges = [[x - a for x in bounds if a <= x <= b] for a, b in spans]
        terms = list(heading_terms(headings, sentences).items()) + \
            [(k, (None, hits)) for k, hits in noun_phrases(sentences, edges).items()]
        for phrase, (title, hits) in terms:
            c = cands.setdefault(phrase, _Cand(phrase, strong=True, phrase=True))
            if title and c.count == 0:  # titled as its heading writes it
                c.forms[title] += len(hits) + 1
            for i, lo, hi in hits:
                c.forms[sentences[i][lo:hi].lower()] += 1
                c.count += 1
                c.mid += 1
                if i not in c.sentences:
                    c.sentences.append(i)
                mentions[i].append((phrase, Mention(sentences[i][lo:hi], lo, hi)))
        for i, keyed in enumerate(mentions):
            keyed.sort(key=lambda km: km[1].start)
            for (_, a), (key, b) in zip(keyed, keyed[1:]):
                if sentences[i][a.end:b.start] == ", ":
                    cands[key].after_name += 1
            _share_list_type(keyed, sentences[i], cands)
        # words written in lower case (an e-mail address or a URL writes names so: "jukka.lehtosalo@")
        # (nor an identifier: "azure_ai_search" writes no word "azure")
        lower = Counter(w for w in WORD.findall(_IDENTIFIER.sub(" ", _ADDRESS.sub(" ", text))) if w.islower())
        out = Extraction()
        accepted: dict[str, str] = {}
        tentative: dict[str, str] = {}
        for key, c in cands.items():
            reason = self._reject_reason(c, lower)
            title = max(c.forms.items(), key=lambda kv: (kv[1], -list(c.forms).index(kv[0])))[0]
            if reason == TOO_RARE and " " not in key:
                # the unit cannot tell; the corpus can (core.index.graph_stage keeps it when the
                # whole corpus writes it as a name: core.offline.corpus_names)
                tentative[key] = title
                out.entities.append({"title": title, "type": self._type(c.votes), "tentative": True,
                                     "description": self._describe(key, c.sentences, sentences, mentions)})
                continue
            if reason:
                if len(out.rejected) < 50:
                    out.rejected.append({"kind": "entity", "name": c.forms.most_common(1)[0][0], "reason": reason})
                continue
            accepted[key] = title
            out.entities.append({"title": title, "type": self._type(c.votes),
                                 "description": self._describe(key, c.sentences, sentences, mentions)})
        out.relationships = self._relationships(accepted, sentences, mentions)
        if tentative:  # their relationships apart: the accepted names' own stay as they are
            out.relationships += [
                {**r, "tentative": True} for r in self._relationships({**accepted, **tentative}, sentences, mentions)
                if normalize_title(r["source"]) in tentative or normalize_title(r["target"]) in tentative]
        return out

    def _reject_reason(self, c: _Cand, lower: Counter) -> str | None:
        word = c.key.lower()
        if c.phrase:
            return None
        generic = _generic(c, lower)
        if generic:
            return generic
        if (not c.strong or c.lower_check) and lower.get(word, 0) > (c.mid if not c.lower_check else 0):
            return "written in lower case more often than capitalised in this text"
        if c.strong or c.lower_check:
            return None
        if c.count >= 2 and c.mid:
            return None
        if c.mid and max(c.votes.values(), default=0) >= 1:  # "said Belle", "in London"
            return None
        return TOO_RARE

    def _type(self, votes: Counter) -> str:
        if not votes:
            return "other"
        order = ["person", "organization", "geo", "event"]
        best = max(order, key=lambda t: (votes.get(t, 0), -order.index(t)))
        return self._type_map[best] if votes.get(best, 0) >= 0.75 else "other"

    def _describe(self, key: str, idx: list[int], sentences: list[str],
                  mentions: list[list[tuple[str, Mention]]], limit: int = 2) -> str:
        parts = []
        for i in idx[:limit]:
            m = next(m for k, m in mentions[i] if k == key)
            parts.append(trim_around(sentences[i], m.start, m.end, 40))
        return " ".join(parts)

    def _relationships(self, accepted: dict[str, str], sentences: list[str],
                       mentions: list[list[tuple[str, Mention]]]) -> list[dict[str, Any]]:
        pairs: dict[tuple[str, str], dict[str, Any]] = {}
        for i, keyed in enumerate(mentions):
            first: dict[str, Mention] = {}
            for k, m in keyed:
                if k in accepted and k not in first:
                    first[k] = m
            keys = list(first)
            # a list of many names links each name to its neighbours, not to every other name
            reach = len(keys) if len(keys) <= 5 else 2
            for a in range(len(keys)):
                for b in range(a + 1, min(len(keys), a + 1 + reach)):
                    ka, kb = keys[a], keys[b]
                    p = pairs.setdefault((ka, kb), {"weight": 0, "sentences": []})
                    p["weight"] += 1
                    if len(p["sentences"]) < 2:
                        ma, mb = first[ka], first[kb]
                        p["sentences"].append(trim_around(sentences[i], min(ma.start, mb.start),
                                                          max(ma.end, mb.end), 50))
        return [{"source": accepted[a], "target": accepted[b], "description": " ".join(p["sentences"]),
                 "weight": float(p["weight"])} for (a, b), p in pairs.items()]

    # ---- summaries and reports ------------------------------------------------------------
    def summarize(self, kind: str, name: str, descriptions: list[str]) -> str:
        return summarize_descriptions(name, descriptions)

    def write_report(self, inp: ReportInput) -> dict[str, Any]:
        return write_report(inp)


_INNER_CAP = re.compile(r"[a-z][A-Z]|[A-Za-z]\d|\d[A-Za-z]|\A[A-Z]{2,}[a-z]{2,}")  # "CPython", "SQLite"


_STANDARD_PART = re.compile(r"[A-Z]{2,6}\.\d{1,2}(?:-\d{1,4})?")  # "POSIX.1-2001"
TOO_RARE = "a single capitalised word seen too rarely to tell it from a sentence start"


def name_shaped(surface: str) -> bool:
    """A word whose shape no sentence start explains: a capital or a digit inside it
    (ChromaDB, GraphRAG, iPhone, Neo4j, Qwen2, CPython), the way products and technologies are named, or
    an acronym with its number ("PEP 621", "UTF-8", "POSIX.1-2001")."""
    return bool(NUMBERED_NAME.fullmatch(surface) or _STANDARD_PART.fullmatch(surface)) or any(len(w) > 2 and w[:1].isalpha() and _INNER_CAP.search(w)
                                                   and not w.isupper() for w in surface.split())




_ITEM_SEPARATOR = re.compile(r"\s*(?:[,:;(\u2013\u2014]|-\s|$)")


_ADDRESS = re.compile(r"\S+@\S+|https?://\S+|www\.\S+")
_IDENTIFIER = re.compile(r"\w*_\w*")
_ACRONYM = re.compile(r"[A-Z][A-Z0-9]{2,5}")


def _type_expression(span: str) -> bool:
    """Bold text naming a value's type: "str", "dict[str, Any]", "int|None"."""
    words = re.findall(r"[A-Za-z]+", span)
    return bool(words) and all(w.lower() in TYPE_WORDS for w in words)


def _acronym(surface: str) -> bool:
    """An acronym that is no shouted English word: "JSON", "YML", "CSV" (not "NOT", "MUST")."""
    return bool(_ACRONYM.fullmatch(surface)) and not wordnet.english_word(surface.lower())
_LIST_GAP = re.compile(r"\s*(?:<[^<>\n]{1,80}>\s*)?(?:,\s*(?:and\s+)?|and\s+)")


def _share_list_type(keyed: list, sentence: str, cands: dict) -> None:
    """Names listed together ("Geoffrey Thomas <...>, Matthias Klose, Filipe Laíns and Donald
    Stufft") are of one kind: when some of a list are people by their cues and none is anything
    else, the rest are people too."""
    runs: list[list[str]] = []
    for n, (key, m) in enumerate(keyed):
        if n and _LIST_GAP.fullmatch(sentence[keyed[n - 1][1].end:m.start]):
            runs[-1].append(key)
        else:
            runs.append([key])
    for run in runs:
        if len(run) < 3:
            continue
        votes = [cands[k].votes for k in run]
        if any(v.get("person", 0) >= 0.75 for v in votes) and \
                not any(v.get(t, 0) for v in votes for t in ("organization", "geo", "event")):
            for v in votes:
                v["person"] = max(v.get("person", 0), 0.75)


def _marked_name(text: str, start: int, end: int, marked: list[tuple[int, int]], heads: dict[int, int],
                 links: Sequence[tuple[int, int]] = ()) -> bool:
    """A structured document marks a name: written in bold (a defined term), or the whole of
    a list item or a table cell, or its first words before a separator ("ChromaDB, for vector
    lookups"; not "Click Apply to save", an instruction). One English word heading an item
    ("Format: string", "Synonyms") is marked only as a link's text ("Poetry: name", linked):
    else the corpus decides, as for any word a sentence opens with (core.offline.corpus_names).
    A capitalised link text names what it links to, or each of the names it lists ("Mypy and
    Ruff", linked): a common English word only where the list, an item's head or its place in
    the middle of a sentence shows it is one ("libraries like Pillow")."""
    word = text[start:end]
    parts = _link_parts(text, start, end, links)
    if parts and word[:1].isupper() and (start in heads or text[max(0, start - 2):start] in _MID_GAPS or any(
            " " in p or not common_word(p.lower()) for p in parts)):  # "Ruff" beside "Mypy"
        return True
    if start in heads:
        if " " not in word and ly_adverb(word.lower()):
            return False  # "Additionally, ...", "Currently, ...": an item's opening adverb
        if " " not in word and word.isalpha() and common_word(word.lower()) and \
                not any(a <= start and end <= b for a, b in links):
            return False
        return _ITEM_SEPARATOR.match(text, end, heads[start]) is not None or end >= heads[start]
    if " " not in word and word.isalpha() and common_word(word.lower()) and text[end:end + 1] in ",:":
        return False  # "**First**, because ...", "**Note**: ...": a word stressed, no term defined
    return any(a <= start and end <= b for a, b in marked)


_MID_GAPS = {c + " " for c in "abcdefghijklmnopqrstuvwxyz,"}  # "libraries like Pillow": no sentence starts here
_VERSION_TAIL = re.compile(r"\s+v?\d+(?:\.[\dx*]+)*(?:\s*[-\u2013+]\s*(?:\d+(?:\.[\dx*]+)*)?)?\s*$")
_LINK_LIST = re.compile(r",\s*(?:and\s+|or\s+)?|\s+(?:and|or|&)\s+")


def _link_parts(text: str, start: int, end: int, links: Sequence[tuple[int, int]]) -> list[str]:
    """The names a link's text lists when text[start:end] is one of them ("Pantsbuild and Pex",
    "Python 3.10-3.12" with its versions): none when it is no whole part of a link's text."""
    for a, b in links:
        if a <= start and end <= b:
            cuts = [a, *(x for m in _LINK_LIST.finditer(text, a, b) for x in m.span()), b]
            spans = list(zip(cuts[::2], cuts[1::2]))
            if any(lo <= start and end <= hi and not text[lo:start].strip(" *_")
                   and not _VERSION_TAIL.sub("", text[end:hi]).strip(" *_.:") for lo, hi in spans):
                return [text[lo:hi].strip(" *_.:") for lo, hi in spans]
    return []


def _emphasised(text: str, start: int, end: int, spans: Sequence[tuple[int, int]]) -> bool:
    """Is the mention the whole text of a link or a bold span (its spaces and stops aside)?"""
    return any(a <= start and end <= b and not text[a:start].strip(" *_[") and not text[end:b].strip(" *_].:")
               for a, b in spans)


def _generic(c: _Cand, lower: Counter) -> str | None:
    """Why a capitalised candidate is a common phrase, not a name (None when it may be a name):
    - an adverb ("Unexpectedly", "Solemnly" at a sentence start);
    - several common English words ending in a kind of person, written after a name and a comma
      ("Ha Trinh, Senior Data Scientist"): the person's role;
    - several words, each also written in lower case in the unit, with no name-like part (no
      first name, known organisation, or organisation, place or event head word), and either a
      role as head ("Chief Executive", "Terminal Supervisor") or capitalised at most once
      mid-sentence ("Press Release", "Replacement of the Berth", "Blind Man"), unless the document
      writes it as a term (a link's whole text, a bold span: "[Global Search](...)")."""
    ws = [w for w in c.key.lower().replace("'", " ").split() if w not in CONNECTORS]
    if len(ws) == 1:
        w = ws[0]
        if document_word(w):
            return "a kind of document ('this PEP', 'the memo'), not a name"
        if ly_adverb(w) and (not c.strong or not c.mid):  # "Additionally, a log ...": no apposition
            return "an adverb, not a name"
        return None
    if not ws or c.votes.get("organization", 0) >= 3 or c.votes.get("geo", 0) >= 3 or c.votes.get("event", 0) >= 3:
        return None
    if all(w in ROLE_NOUNS for w in ws):
        return "a role, not a name"  # "Chief Executive", "Chief of Staff"
    if any(w in FIRST_NAMES or w in KNOWN_ORGS or w in TITLES for w in ws):
        return None
    if c.after_name and wordnet.kind_of(ws[-1], senses=1) == "person" and \
            all(w.isalpha() and wordnet.common_word(w) for w in ws):
        return "a role or title, not a name"  # "Ha Trinh, Senior Data Scientist"
    if not all(lower.get(w.rstrip("."), 0) or lower.get(w.rstrip(".") + "s", 0) for w in ws):
        return None
    head = ws[ws.index("of") - 1] if "of" in ws[1:] else ws[-1]
    if c.emphasised and head not in ROLE_NOUNS and ws[0] not in ROLE_NOUNS:
        return None  # the document writes it as a term: a link's whole text, a bold term ("Global Search")
    if head in ROLE_NOUNS or ws[0] in ROLE_NOUNS or c.mid <= 1:
        return "a common phrase written in lower case in this text, not a name"
    return None
