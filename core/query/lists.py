"""List questions ("Which vector databases does it support?", "What are the key metrics?") and
their answers: the list itself, as the documents write it.

A list question asks for the members of a kind of thing; its kind is a plural noun that is no
word of sensemaking (themes, trends, lessons...: those stay global questions). Its answer, offline,
is the best list of the passages found for it: a run of list items or table rows of a structured
document (text_units.structure), or of bulleted lines of plain text, with the sentence that
introduces it, each item cited.
"""
from __future__ import annotations

import re
from typing import Iterable

from core.ingest.structure import stored_structure
from core.offline.mentions import TITLES
from core.query.doc_scope import document_units, named_documents
from core.query.list_blocks import LIST_MAX, lists_of
from core.offline.reports import display_name
from core.offline.sentence_rank import name_pattern
from core.text import wordnet
from core.text.lexical import CODE_NAME, cite, terms
from core.textutil import split_sentences

_KIND = r"((?:[\w-]+ ){0,3}?(?:[\w-]+s|children|people|men|women))\b"
# an opening phrase: "Besides id and title, which columns ...", "PEP 703: what are the three ..."
_LEAD = r"^\s*(?:[^,?:]{1,40}:\s*)?(?:[^,?]{1,60},\s*){0,3}"
# a count of the members asked for ("What three problems ...", "the two new services"): a list
COUNT = (r"(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d{1,2}|several|a few|"
         r"a couple of|a number of|multiple|various)")
_ASKED_PAST = r"(?:\w+ed|made|brought|gave|took|saw|sold|bought|left|kept|held|won|wrote|built|chose|found|grew)"
_DESCRIBE = re.compile(r"\blike\s*\??\s*$", re.I)
LIST_FORMS = [
    re.compile(r"^\s*which of (?:the |these |those |(?:[\w-]+ ){0,3}?[\w-]+['\u2019]s )?" + _KIND, re.I),
    re.compile(_LEAD + r"(?:(?:in|into|on|at|from|for|with|to|by|of|among|between) )?which " + _KIND, re.I),
    # "What three problems with distutils does PEP 517 describe?", "What are the three major
    # factors Amy Hood says drive ...": counted members are a list whatever follows
    re.compile(_LEAD + r"(?:(?:in|into|on|at|from|for|with|to|by|of) )?what (?:(?:are|were) (?:the |its |their |his |her |[\w-]+['\u2019]s )?)?"
               + COUNT + r" " + _KIND, re.I),
    # "What use cases for stub files does PEP 484 list?": the kind with what it is of or for
    re.compile(r"^\s*what (?!(?:kinds|types|sorts|forms) )" + _KIND + r" (?:for|of|in|on|about|from|with|behind) (?:the |a |an )?(?:[\w'-]+ ){0,3}?"
               r"(?:does|do|did|can|could|will|would)\b", re.I),
    # "What goods made the Grocers' shops such a sight?": a plural kind and what it did
    re.compile(r"^\s*what " + _KIND + r" " + _ASKED_PAST + r"\b", re.I),
    # "who are the members of ...": people of a kind (a lower-case kind: "who are the Cratchits" names them)
    re.compile(r"^\s*who (?:are|were) (?:the |all (?:the )?)?(?-i:((?:[a-z-]+ ){0,2}?[a-z-]+s))\b(?! (?:is|was)\b)", re.I),
    re.compile(r"^\s*what (?:are|were) (?:the |all |some )?" + _KIND + r"(?: (?:of|in|for|that|which|does|do|did)\b|\s*\??\s*$)", re.I),
    re.compile(r"^\s*what " + _KIND + r" (?:does|do|did|can|could|will|would|is|are|were)\b", re.I),
    # "what kinds of cache can I use?": the kind is what follows (one "kind of test" is no list)
    re.compile(r"^\s*what ((?:kinds|types|sorts) of (?:[\w-]+ ){0,2}?[\w-]+) (?:does|do|did|can|could|will|would|is|are|"
               r"was|were)\b(?! (?:he|she|it|they|i|you|we)\b\s*\??\s*$)", re.I),
    re.compile(r"^\s*(?:list|name|enumerate) (?:the |all |every )?" + _KIND, re.I),
]
SENSEMAKING = re.compile(
    r"\b(themes?|topics?|trends?|patterns?|ideas?|lessons?|issues?|challenges?|implications?|views?|"
    r"perspectives?|insights?|takeaways?|findings?|arguments?|concerns?|opinions?|messages?|points?|"
    r"conclusions?|questions?|differences?|similarities|risks?|opportunities|strateg(?:y|ies)|"
    r"priorities|goals?|values?|motivations?|reasons?|causes?|effects?|consequences?|conflicts?|"
    r"images?|devices?|stories|anecdotes?|examples?|changes?|qualities|predictions?)\b", re.I)
# a counted kind is a list the text writes down, unless it is one of these ("three main themes")
_ALWAYS_SENSEMAKING = re.compile(r"\b(themes?|topics?|trends?|lessons?|takeaways?|insights?)\b", re.I)
_COUNTED = re.compile(r"^(?:" + COUNT + r") ", re.I)
# "kinds of input files", "vector store types": the kind is what they are kinds of
_KINDS_OF = re.compile(r"^(?:kinds|types|sorts|forms) of (.+)$", re.I)
_X_TYPES = re.compile(r"^(.+?) (?:types|kinds)$", re.I)


_MORE = re.compile(r"(?:\s+[\w-]+){0,1}?\s+([\w-]+s|children|people|men|women)\b")


def plural(word: str) -> bool:
    """Is the word a plural ("spirits", "llms", "children"), not a word ending in s ("Christmas")?"""
    w = word.lower()
    if w in _IRREGULAR or w in ("people", "children", "men", "women"):
        return True
    if not w.endswith("s") or w.endswith("ss"):
        return False
    return wordnet.common_word(_singular(w)) or not wordnet.common_word(w)


def list_kind(question: str) -> str | None:
    """The kind of thing a list question asks for ("vector databases", "key metrics"), else None."""
    if _DESCRIBE.search(question or ""):
        return None  # "What are the two children ... like?": what they are like, not which they are
    for form in LIST_FORMS:
        m = form.match(question or "")
        if m:
            kind = m.group(1).lower()
            # "Which three Christmas spirits ...": "Christmas" ends in s but is no plural; the kind
            # goes on to the plural after it
            more = _MORE.match(question, m.end(1))
            if more is not None and not plural(kind.split()[-1]) and plural(more.group(1).lower()):
                kind = f"{kind}{question[m.end(1):more.end(1)].lower()}"
            counted = _COUNTED.match(kind)
            if counted is not None:  # "three christmas spirits": the count is no word of the kind
                kind = kind[counted.end():]
            kinds_of = _KINDS_OF.match(kind)
            if kinds_of is not None:  # "two kinds of awareness": of a mass noun too
                kind = kinds_of.group(1)
            elif (k := _X_TYPES.match(kind)) is not None:
                kind = k.group(1) + ("" if k.group(1).endswith("s") else "s")
            sensemaking = _ALWAYS_SENSEMAKING if counted is not None else SENSEMAKING
            if kind in ("kinds", "types", "sorts", "forms") or sensemaking.search(kind) \
                    or kind.split()[-1] in ("is", "was", "has", "does", "this", "us") \
                    or not (kinds_of is not None or plural(kind.split()[-1])):
                return None
            return kind
    return None


def list_answer(question: str, units: list[dict], introduced: bool = False) -> str | None:
    """The best list of the units for a list question, with the sentence that introduces it,
    each line cited to its unit (Sources); None when no unit holds a list about the question.
    introduced: only a list whose introducing sentence names the kind."""
    kind = list_kind(question)
    if kind is None:
        return None
    want = set(terms(question))
    kind_terms = set(terms(kind))
    code = CODE_NAME.findall(question)  # "fields left out of __match_args__": a list about that key
    best: tuple[float, int, str, list[str], int] | None = None
    for rank, u in enumerate(units):
        for lead, items in lists_of(u):
            if code and not any(c in lead or any(c in i for i in items) for c in code):
                continue
            have = set(terms(lead + " " + " ".join(items)))
            score = len(want & have) + 2 * len(kind_terms & set(terms(lead)))
            if score > 0 and (best is None or score > best[0]):
                best = (score, rank, lead, items, int(u["human_readable_id"]))
    if best is None or not (kind_terms & set(terms(best[2] + ("" if introduced else " " + " ".join(best[3]))))):
        return None
    _, _, lead, items, hrid = best
    refs = {"Sources": [hrid]}
    head = cite(lead.rstrip(":").rstrip(), refs).rstrip(".\u3002") + ":" if lead else ""
    return "\n".join(([head] if head else []) + [f"- {cite(i, refs)}" for i in items])


# what a question says of a section's members that any section could say
_GENERIC_SAID = frozenset(terms("must may can should need needs required optional every each all main key "
                                "default support supports supported use used using"))
def _title_head(words: list[str]) -> str:
    """The noun a name is built on: the word before "of" ("ghost of christmas past"), else its last."""
    return words[words.index("of") - 1] if "of" in words[1:] else (words[-1] if words else "")


_GENERIC_KIND_WORDS = frozenset(terms("new main key major other different various several many few important "
                                      "biggest largest top notable specific particular certain"))
_MUST = re.compile(r"\b(?:must|required|mandatory|need to|needs to|have to|has to)\b", re.I)
_MAY = re.compile(r"\b(?:optional|optionally|may|can)\b", re.I)
_REQUIRED = re.compile(r"\b(?:mandatory|required|must)\b", re.I)
_OPTIONAL = re.compile(r"\b(?:optional)\b", re.I)


def section_list(store, question: str) -> str | None:
    """The subsections of the section a list question's kind names ("Which hooks must every
    backend implement?": the headings under "Mandatory hooks", build_wheel and build_sdist), in
    the document's order, each cited to the unit holding it; None when no heading holds the
    kind's words and has two subsections or more. The section that best shares the question's
    other words wins, a "must" asking for the mandatory or required ones and a "may" for the
    optional ones; the first in the corpus on a tie."""
    kind = list_kind(question)
    if kind is None:
        return None
    kind_terms, want = set(terms(kind)), set(terms(question))
    kind_head = set(terms(kind.split()[-1]))
    about = _said(question, kind) - _GENERIC_SAID
    named = {d["id"] for d in named_documents(store, question)}  # "Which naming conventions does PEP 8 recommend?"
    found = []
    for d, text, structure in structured_documents(store):
        if named and d["id"] not in named:
            continue
        heads = [h for h in structure.get("headings") or [] if len(h) >= 3]
        if len(heads) < 3:
            continue
        units = unit_spans(store, d["id"])
        heads.sort()
        ordered = [(text[h[0]:h[1]].strip(), int(h[2]), unit_at(units, int(h[0]))) for h in heads]
        for i, (title, level, _) in enumerate(ordered):
            # the kind's head word titles the section ("Formats"); its other words may be those of
            # the headings above it ("Inputs") or of its opening ("We support multiple file
            # formats out-of-the-box.")
            opening = text[heads[i][1]:heads[i + 1][0] if i + 1 < len(heads) else len(text)][:600]
            above, lv_at = [], level
            for t, lv, _ in reversed(ordered[:i]):
                if lv < lv_at:
                    above.append(t)
                    lv_at = lv
            context = set(terms(" ".join([title, opening, *above])))
            if not (kind_terms <= set(terms(title)) or (kind_head & set(terms(title)) and kind_terms <= context)):
                continue
            if about and not about & context and not (d["id"] in named and kind_terms <= set(terms(title))):
                continue  # "the phases of a DRIFT search": not the phases of another process (the
                # document the question names, where a heading is the kind, says which already)
            subs: list[tuple[str, int, int, int]] = []  # title, level, unit, heading's index
            for k, (t, lv, unit) in enumerate(ordered[i + 1:], start=i + 1):
                if lv <= level:
                    break
                if (not subs or lv == subs[0][1]) and unit is not None:
                    subs.append((t, lv, unit, k))
            # subsections titled with the kind's own word ("Default Model Support" under "Language
            # Model Selection") are aspects of the topic, not its members
            if len(subs) >= 2 and not any(kind_terms & set(terms(t)) for t, _, _, _ in subs):
                found.append((title, [(_with_opening(text, heads, k), lv, n) for _, lv, n, k in subs]))
    if not found:
        return None
    said = _MUST.search(question) is not None, _MAY.search(question) is not None

    def fits(title: str) -> int:  # RFC 2119's words: "must implement" asks for the required ones
        return len(want & set(terms(title))) + 2 * ((said[0] and bool(_REQUIRED.search(title)))
                                                    or (said[1] and bool(_OPTIONAL.search(title))))
    title, kids = max(enumerate(found), key=lambda x: (fits(x[1][0]), -x[0]))[1]
    return "\n".join([f"{title}:"] + [f"- {cite(t, {'Sources': [n]})}" for t, _, n in kids])


def _with_opening(text: str, heads: list, k: int) -> str:
    """The k-th heading's subsection as a list line: its title and, when its text opens with a
    short sentence of prose, that sentence ("Comma-delimited: CSV files (typically ending in a
    .csv extension).")."""
    title = text[heads[k][0]:heads[k][1]].strip()
    body = text[heads[k][1]:heads[k + 1][0] if k + 1 < len(heads) else len(text)].strip()
    spans = split_sentences(body[:400])
    if not spans:
        return title
    first = body[spans[0][0]:spans[0][1]].strip()
    if len(first) > 200 or "\n" in first or not re.search(r"[a-z]{3,}", first):
        return title
    return f"{title}: {first}"


def structured_documents(store):
    """(document row, its text, its structure) of each document whose structure has headings."""
    for d in store.rows("documents", "metadata like '%headings%'", select="id, text, metadata"):
        yield d, str(d.get("text") or ""), stored_structure(d.get("metadata"))


def unit_spans(store, document_id: str) -> list[dict]:
    """The document's text units with where each starts and ends in it, in order."""
    return store.rows("text_units", "document_id = ?", [document_id], select="human_readable_id, char_start, char_end",
                      order_by="ordinal")


def unit_at(units: list[dict], at: int) -> int | None:
    """The human_readable_id of the unit holding position `at` of its document."""
    return next((int(u["human_readable_id"]) for u in units
                 if int(u.get("char_start") or 0) <= at < int(u.get("char_end") or 0)), None)


# what a list question says about its list rather than what the members share: "which companies
# does the call name", "list the people mentioned"
_LIST_VERBS = frozenset(terms("name names named mention mentions mentioned list lists listed include includes "
                              "included give gives given document documents text say says said"))
_CAPITAL = re.compile(r"(?<=[\s(\u201c\"])[A-Z][\w&'\u2019.+-]*")


def _said(question: str, kind: str, named: Iterable[str] = ()) -> set[str]:
    """The terms a list question says of its members beyond their kind, the names it gives and
    the words for listing ("which customers chose Microsoft's cloud": chose, cloud...)."""
    proper = [w for w in re.findall(r"[^\W\d_][\w'-]*", question)[1:] if w[:1].isupper()]  # "Scrooge", "Azure"
    return set(terms(question)) - set(terms(kind)) - _LIST_VERBS - {t for n in [*named, *proper] for t in terms(n)}


_TURN = re.compile(r"\s*[A-Z][A-Z.'\u2019 -]+:\s")  # a transcript's speaker label: another turn
NEAR = 4  # sentences after one saying what a list question says of its members, where they are named
RARE = 0.02  # the share of the text units a word may be in and still single out where a list is


def _rare(store, question: str, said: set[str]) -> set[str]:
    """The terms of `said` that few text units hold ("Forbes", not "family" or "dinner")."""
    most = max(2, int(RARE * store.count("text_units")))
    out = set()
    for w in dict.fromkeys(re.findall(r"[^\W_]+", question)):
        t = set(terms(w)) & said
        if t and 0 < len(store.search("text_units", w, limit=most + 1)) <= most:
            out |= t
    return out


def _named_near(store, said: set[str], picked: list[dict], rare: set[str]) -> list[dict]:
    """The picked entities named in a sentence that says what the question says of its members
    (two of those words, or its only one, among them a rare one) or in the NEAR sentences after
    it, in the order the text names them; [] when no sentence says it."""
    if not said or not picked or not rare:
        return []
    need = min(2, len(said))
    first: dict[str, tuple[int, int]] = {}
    pats = {e["title"]: name_pattern([str(e["title"]), display_name(str(e["title"]), e)]) for e in picked}
    for rank, u in enumerate(store.search("text_units", " ".join(sorted(said)), limit=8)):
        text = u.get("text") or ""
        spans = split_sentences(text)
        sents = [text[a:b] for a, b in spans]
        for h, sent in enumerate(sents):
            have = set(terms(sent))
            if len(have & said) < need or not have & rare:
                continue
            end = h + 1  # the sentences after it in its paragraph or speaker's turn
            while end < min(len(sents), h + NEAR + 1) and "\n\n" not in text[spans[end - 1][1]:spans[end][0]] \
                    and not _TURN.match(sents[end]):
                end += 1
            window = " ".join(sents[h:end])
            for title, pat in pats.items():
                m = pat.search(window) if pat is not None else None
                if m is not None and title not in first:
                    first[title] = (rank, h * 10000 + m.start())
    return sorted((e for e in picked if e["title"] in first), key=lambda e: first[e["title"]])


def sentence_list(question: str, units: list[dict], named: tuple[str, ...] = ()) -> str | None:
    """A list the documents write in a sentence ("organizations like Bank of Montreal, Chevron,
    General Motors and LVMH"): for a list question that says more about its members than their
    kind ("which customers chose Microsoft's cloud as their preferred provider"), the sentence of
    the units with a run of names (two commas and an "and" or "or", three capitalised words inside
    it) that holds most of the question's words, among them one of those that say more; cited.
    named: the words of the names the question gives (they say which, not what more)."""
    kind = list_kind(question)
    if kind is None:
        return None
    want = set(terms(question))
    said = _said(question, kind, named)
    if not said:
        return None  # nothing but the kind: the graph's entities of that kind answer it
    best: tuple[int, int, str, int] | None = None
    led_by = _led_by(kind)
    for rank, u in enumerate(units):
        text = u.get("text") or ""
        for a, b in split_sentences(text):
            sent = " ".join(text[a:b].split())
            have = set(terms(sent))
            # "the builtin decorators @property, @staticmethod and @classmethod": the kind's own
            # word leads the list, whatever case its members are written in
            led = led_by.search(sent) is not None and bool(have & said)
            if not led:
                if sent.count(",") < 2 or not re.search(r"\b(?:and|or)\b", sent) or len(_CAPITAL.findall(sent)) < 3:
                    continue
                if len(have & said) < max(min(2, len(said)), (len(said) + 1) // 2) \
                        or not (have & set(terms(kind)) or len(have & said) >= 2):
                    continue  # most of what the question says of its members, not one common word of it
            score = len(have & want) + len(have & said) + 2 * led
            if best is None or score > best[0]:
                best = (score, rank, sent, int(u["human_readable_id"]))
    if best is None:
        return None
    return cite(best[2].rstrip(), {"Sources": [best[3]]})


_ITEM = r"[^\s,;.:]+(?: [^\s,;.:]+){0,5}"


def _led_by(kind: str) -> re.Pattern:
    """A list of three or more that the kind's head word leads: "decorators ``@property``,
    ``@staticmethod`` and ``@classmethod``", "formats such as CSV, JSON, or Parquet"."""
    head = re.escape(_singular(kind.split()[-1]))
    return re.compile(rf"\b{head}(?:s|es)?\b(?: (?:such as|like|including|are|is|include))?:? "
                      rf"(?:{_ITEM}, )+(?:{_ITEM},? )?(?:and|or) {_ITEM}", re.I)


# the kinds of thing a question asks for that are entity types of the graph
KIND_TYPES = {
    "organization": {"company", "companies", "organization", "organisation", "firm", "business", "bank",
                     "customer", "partner", "vendor", "competitor", "institution", "agency", "group"},
    "person": {"person", "people", "character", "speaker", "guest", "executive", "analyst", "leader",
               "member", "author", "researcher", "engineer", "scientist", "official"},
    "geo": {"place", "city", "country", "location", "region", "town", "state", "site"},
    "event": {"event", "meeting", "conference", "festival", "war", "incident"},
}
_IRREGULAR = {"children": "child", "men": "man", "women": "woman", "wives": "wife", "feet": "foot"}


def _singular(word: str) -> str:
    w = word.lower()
    if w == "people":
        return "person"
    if w in _IRREGULAR:
        return _IRREGULAR[w]
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    if w.endswith(("sses", "shes", "ches", "xes")):
        return w[:-2]
    return w[:-1] if w.endswith("s") and not w.endswith("ss") else w


def _asked_titles(store, question: str) -> list[str]:
    """The titles of the graph's entities the question names."""
    from core.query.entity_match import title_matches
    return [e["title"] for e in title_matches(store, question)]


def _ties(store, named: list[str]) -> dict[str, float]:
    """Entity title -> the weight of its relationships to the entities the question names."""
    if not named:
        return {}
    marks = ",".join("?" * len(named))
    out: dict[str, float] = {}
    for r in store.rows("relationships", f"source in ({marks}) or target in ({marks})", named + named,
                        select="source, target, weight"):
        other = r["target"] if r["source"] in named else r["source"]
        if other not in named:
            out[other] = out.get(other, 0.0) + float(r.get("weight") or 1.0)
    return out


def field_list(store, question: str, named: list[dict]) -> str | None:
    """A list question about a named document (named: core.query.doc_scope.named_documents) whose
    header has a field of that kind ("Who are the authors of PEP 517?": its "Author:" line): the
    field's entries, addresses left out, cited."""
    kind = list_kind(question)
    if kind is None or not named:
        return None
    head = _singular(kind.split()[-1])
    field = re.compile(rf"(?mi)^{re.escape(head)}s?: (.+)$")
    lines = []
    for d in named:
        for u in document_units(store, [d])[:2]:
            m = field.search(u.get("text") or "")
            if m:
                entries = [e.strip() for e in re.split(r",|\band\b", re.sub(r"<[^<>]*>|\([^()]*@[^()]*\)", "", m.group(1)))]
                lines += [f"- {cite(e, {'Sources': [int(u['human_readable_id'])]})}" for e in entries if e]
                break
    if not lines:
        return None
    return f"The {kind} of {', '.join(d['title'] for d in named)}, as its header gives them:\n" + "\n".join(lines)


def kind_list(store, question: str, units: list[dict], named: list[dict] | None = None) -> str | None:
    """A list question's answer: a list of the units that a sentence naming the kind introduces
    (list_answer), else the sentence that names its members (sentence_list), else any list of
    the units about the question, else the graph's entities of its kind (entity_list); None for
    a question that asks for no list."""
    if list_kind(question) is None:
        return None
    asked = _asked_titles(store, question)
    return list_answer(question, units, introduced=True) or sentence_list(question, units, tuple(asked)) \
        or list_answer(question, units) or entity_list(store, question, named, asked)


def entity_list(store, question: str, named: list[dict] | None = None,
                asked_titles: list[str] | None = None) -> str | None:
    """The entities of the graph of the kind a list question asks for: those WordNet knows as
    ones of the kind ("countries": Brazil, Japan), else those whose name has the kind's head word
    ("ghosts": the Ghost of Christmas Past...) or whose type is the kind ("companies":
    organisations), the best connected first, each with the first sentence of its
    description, cited; the names the question itself gives are left out. None under two."""
    kind = list_kind(question)
    if kind is None:
        return None
    head = _singular(kind.split()[-1])
    wanted_type = next((t for t, words in KIND_TYPES.items() if head in words), None)
    if wanted_type is None and (head in TITLES or wordnet.kind_of(head, senses=1) == "person"):
        wanted_type = "person"  # "agents" (a title: "Agent Cruz"), "children", "maintainers" (WordNet)
    asked = {w.lower() for w in re.findall(r"[\w'-]+", question)}
    # what the kind says of its members beyond its head word ("gaming services": gaming)
    modifiers = set(terms(kind)) - set(terms(kind.split()[-1])) - set(terms(head)) - _GENERIC_KIND_WORDS
    rows = store.rows("entities", select="human_readable_id, title, type, description, degree, aliases, text_unit_ids",
                      order_by="degree desc")
    if named:  # the documents the question names ("the authors of PEP 668"): those their text names
        inside = {u["id"] for u in document_units(store, named)}
        rows = [e for e in rows if inside & set(e.get("text_unit_ids") or [])]
    picked, untyped = [], []
    for e in rows:
        raw = re.findall(r"[\w'-]+", str(e["title"]).lower())
        words = [_singular(w) for w in raw]
        if all(w in asked or s in asked for w, s in zip(raw, words)):
            continue  # the question names it: not one of what it asks for
        if head in words and modifiers and not modifiers & set(terms(f"{e['title']} {e.get('description') or ''}"[:300])):
            continue  # "Cognitive Services" is no gaming service: the kind's other words are not its
        # "Christmas spirits": the Ghost of Christmas Past, a ghost being a kind of spirit, with the
        # kind's other words in its name
        kind_of = bool(modifiers) and modifiers <= set(terms(str(e["title"]))) and \
            wordnet.kind_is(_title_head(raw), head)
        if head in words or kind_of or (wanted_type is not None and str(e.get("type") or "").lower() == wanted_type):
            picked.append(e)
        elif str(e.get("type") or "other").lower() == "other" and not (len(raw) == 1 and wordnet.common_word(raw[0])):
            untyped.append(e)  # a name the engine could not type ("Oprah"), not a word ("Tech")
    # "Which countries ...": the names WordNet knows as ones of that kind (Brazil, Japan), where
    # the engine's types are a guess from the words around a name ("in Azure": a place)
    heads = [head] + [_singular(m.group(1)) for m in re.finditer(rf"\b{re.escape(kind)}\s+(?:and|or)\s+([a-z]+)",
                                                                  question.lower()) if plural(m.group(1))]
    unasked = [e for e in rows if not all(w in asked for w in re.findall(r"[\w'-]+", str(e["title"]).lower()))]
    # (not people: WordNet's famous authors are not the authors of a blog post)
    known = [e for e in unasked if wanted_type != "person"
             and any(wordnet.instance_of(str(e["title"]), h) for h in heads)]  # "countries and cities"
    if len(known) >= 2:  # then the other places WordNet knows ("Texas" for "countries and cities")
        picked = known + ([e for e in unasked if e not in known and wordnet.instance_of(str(e["title"]), "location")]
                          if wanted_type == "geo" else [])
    # "the women on the Forbes list of self-made women": those named where the text says that (a
    # name the engine could not type counts there too), in the order the text names them
    asked_titles = _asked_titles(store, question) if asked_titles is None else asked_titles
    said = _said(question, kind, asked_titles)
    near = _named_near(store, said, picked + untyped if wanted_type is not None else picked,
                       _rare(store, question, said))
    order = "the best connected first"
    if len(near) >= 2:
        picked, order = near, "in the order the text names them"
    # "Bob Cratchit's children", "the members of the squad": those tied to what the question names
    ties = _ties(store, asked_titles)
    tied = [e for e in picked if ties.get(e["title"])]
    if len(tied) >= 2 and len(near) < 2:
        picked = sorted(tied, key=lambda e: -ties[e["title"]])
    picked = picked[:LIST_MAX]
    if len(picked) < 2:
        return None
    said_by: dict[str, list[dict]] = {}  # names one sentence names together share its line
    for e in picked:
        desc = (e.get("description") or "").strip()
        spans = split_sentences(desc)  # "Mrs. Cratchit, wife of ...": no sentence ends at "Mrs."
        first = (desc[spans[0][0]:spans[0][1]] if spans else desc)[:200]
        said_by.setdefault(first or str(e["title"]), []).append(e)
    lines = []
    for first, group in said_by.items():
        names = ", ".join(display_name(str(e["title"]), e) for e in group)
        text = f"{names}: {first}" if first != str(group[0]["title"]) else names
        lines.append(f"- {cite(text, {'Entities': [int(e['human_readable_id']) for e in group]})}")
    as_asked = re.search(re.escape(kind), question, re.I)  # "Christmas spirits", as the question writes it
    return f"The {as_asked.group(0) if as_asked else kind} the documents name, {order}:\n" + "\n".join(lines)
