"""Ranking source sentences for a fact question (the offline local answer, no model).

A fact question is rarely phrased like the sentence that answers it ("How big is the security
business?" / "our security business surpassed $20 billion in revenue"; "When did the call take
place?" / "Tuesday, January 24, 2023"). Plain BM25 on the question's words then prefers short
sentences that repeat its names ("Now, on to security."). This module ranks by what a reader
looks for:
- `answer_type(question)`: the kind of answer asked for: "quantity" (how much/many/big/fast,
  what was the revenue/rate/growth ...), "date" (when, what year), "place" (where, which city),
  "name" (who did, which analyst, the names of ...), "reason" (why, what caused), or None. A sentence that holds that kind
  of thing (a figure or amount; a date; "in/at <Place>"; a capitalised name the question does
  not already say; "because", "driven by") is worth more (`type_match`).
- `query_weights(question, names)`: the question's content words, Snowball-stemmed
  ("optimizing" finds "optimize", "advancements" "advanced"); framing words ("say",
  "according to", "mention") dropped; the names the question is about weigh less (the
  candidate sentences are those names' own already, and a list of names is not an answer);
  a period also in its other form ("third quarter" and "Q3").
- `passages(sents)`: each sentence; a short signpost sentence ("Next, the Intelligent Cloud
  segment.") is joined with the sentence after it in the same unit, which it introduces; one
  announcing a count ("We have three demands.") with up to that many.
- `rank_facts(question, sents, names)`: weighted BM25 over the passages (rare words count
  most), times a bonus for covering more of the question's weight; plus part of the best
  neighbour's score (two sentences either way in the same unit: "From the foldings of its robe
  it brought two children ... This boy is Ignorance"); times the answer-type bonus; for "at the
  end" / "at first" questions, times a weight for the sentence's place in the text.
Used by core/offline/definitions.py.
"""
from __future__ import annotations

import functools
import re
import threading
from dataclasses import dataclass
from math import log
from typing import Iterable

import snowballstemmer

from core.offline.sentence_rank import Sentence, has_quantity
from core.text import wordnet
from core.text.lexical import CODE_NAME, terms
from core.textutil import STOPWORDS, has_cjk

FRAMING = frozenset("""say says said saying mention mentions mentioned according per talk talks talked
    discuss discusses discussed describe describes described explain explains explained ask asks asked
    think thinks thought tell tells told give gives given note noted comment comments commented
    key main also thing things about regarding respect call name names named called
    happen happens happened story book novel text document documents transcript episode
    respond responds responded response answer answers answered question questions""".split())
_QUANTITY_WORDS = ("revenue revenues rate rates growth grow grew percentage percent share margin margins "
                   "income expenditure expenditures capex budget price prices cost costs salary wage wages "
                   "total size amount number count value temperature profit profits sales earnings").split()
_QUANTITY = re.compile(r"\bhow (?:much|many|long|old|far|often|big|large|fast|hot|cold|high|low|tall|"
                       r"heavy|quickly|small)\b|\bwhat (?:percentage|share|proportion|fraction)\b|"
                       r"\b(?:paid|pay|pays|figure|figures)\b|多少|几|"
                       # "How is LinkedIn performing?", "How has Azure contributed to growth?": figures
                       r"\bhow (?:is|are|was|were|has|have|did|does|do)\b[^?]*\b(?:perform\w*|grow\w*|grew|"
                       r"contribut\w*)\b", re.IGNORECASE)
_QUANTITY_NOUN = re.compile(r"^\s*(?:what|which)\s+(?:was|were|is|are|will be)\s+(?:the\s+)?[^?]*\b(?:"
                            + "|".join(_QUANTITY_WORDS) + r")\b", re.IGNORECASE)
_DATE = re.compile(r"^\s*when\b|\bwhat (?:year|date|day|month|time)\b|\bin which year\b|\bsince when\b|"
                   r"什么时候|哪一?年|何时", re.IGNORECASE)
_PLACE = re.compile(r"^\s*where\b|\b(?:which|what) (?:city|country|town|place|state|region|university|"
                    r"school|college|island)\b|哪里|在哪", re.IGNORECASE)
_NAME = re.compile(r"^\s*who\b|\b(?:which|what) (?:analysts?|persons?|people|man|woman|men|women|"
                   r"executives?|officers?|investors?|venture capitalists?|compan(?:y|ies)|firms?|"
                   r"banks?|customers?|partners?|children|child|boy|girl)\b|\bnames? of\b|谁", re.IGNORECASE)
_REASON = re.compile(r"^\s*why\b|\bwhat (?:caused|drove|led to)\b|\bfor what reason\b|\breasons? (?:for|why)\b|"
                     r"为什么|为何|原因", re.IGNORECASE)
_REASON_IN = re.compile(r"\b(?:because|due to|driven by|given (?:the|that|our|its|their)|as a result|owing to|thanks to(?! (?:you|everyone|everybody|all of you|all)\b)|caused|led to|so that|"
                        r"reasons?|since|in order to|for fear)\b|因为|由于|所以", re.IGNORECASE)
_MONTHS = ("january february march april may june july august september october november december "
           "monday tuesday wednesday thursday friday saturday sunday").split()
_MONTH = r"(?:" + "|".join(_MONTHS) + r")"
_DATE_IN = re.compile(r"\b(?:\d{1,2}(?:st|nd|rd|th)?\s+)?" + _MONTH + r"\b(?:\s+\d{1,2}(?:st|nd|rd|th)?\b)?(?:,?\s+\d{4}\b)?|\b(?:1[5-9]|20)\d\d\b|\b\d{1,2}:\d\d\b|"
                      r"\b(?:yesterday|tomorrow|ago|last (?:week|month|year|night)|next (?:week|month|year)|"
                      r"o'clock|midnight|noon|century|decade)\b|\d+\s*年|\d+\s*月", re.IGNORECASE)
_PLACE_IN = re.compile(r"\b(?:in|at|from|near|to|into|across|on)\s+(?:the\s+)?([A-Z][a-z]+)")
_CAP_RUN = re.compile(r"\b[A-Z][a-z]+(?: [A-Z][a-z]+){0,2}")


def _known_place(sentence: str, question: str) -> bool:
    """Does the sentence name a place WordNet knows ("the wind-tossed surface of New Mexico"),
    one the question does not name?"""
    asked = question.lower()
    for m in _CAP_RUN.finditer(sentence):
        words = m.group(0).split()
        for i in range(len(words)):  # "The New Mexico": the name without the sentence's opening word
            name = " ".join(words[i:])
            if len(name) < 3 or name.lower() in STOPWORDS or (m.start() == 0 and i == 0 and len(words) == 1):
                continue  # "In" (WordNet's Indiana), a sentence's opening word
            if name.lower() not in asked and wordnet.instance_of(name, "location"):
                return True
    return False


_CAP = re.compile(r"(?<=[\s(\u201c\"'])[A-Z][A-Za-z'\u2019.-]+")
_LATE = re.compile(r"\b(?:at|by|in|towards?) the (?:very )?end\b|\bfinally\b|\beventually\b|\bin the last\b|"
                   r"\bultimately\b|最后|结尾", re.IGNORECASE)
_EARLY = re.compile(r"\b(?:at|in) the (?:very )?(?:beginning|start|outset)\b|\bat first\b|\binitially\b|"
                    r"\boriginally\b|最初|开头", re.IGNORECASE)
SYNONYM = 0.7           # the weight of a stand-in for a question word the passages never write
_SIGNPOST_WORDS = 9     # a sentence of at most this many words may just introduce the next one


_LOCAL = threading.local()


def _stemmer():
    """One Snowball stemmer per thread: a stemmer keeps the word it works on in itself, so two
    threads sharing one (two sessions asking at once) corrupt each other's word."""
    st = getattr(_LOCAL, "stemmer", None)
    if st is None:
        st = _LOCAL.stemmer = snowballstemmer.stemmer("english")
    return st


@functools.lru_cache(maxsize=200000)
def stem(term: str) -> str:
    return term if has_cjk(term) else _stemmer().stemWord(term)


@functools.lru_cache(maxsize=100000)
def stems(text: str) -> tuple[str, ...]:
    return tuple(stem(t) for t in terms(text))


# a question asking for several of a kind ("Which industries ...", "What goods ...", "What are the
# three ...", "Name the ...") and a sentence naming several ("X, Y and Z"; "from X to Y to Z")
_LIST_QUESTION = re.compile(r"^\s*(?:(?:which|what)\s+(?!(?:did|does|do|is|are|was|were|has|have|had|can|could|will|"
                            r"would|should|may|might|must)\b)(?:\w+\s+){0,2}?\w+s\b(?!\s+(?:is|was)\b)|"
                            r"what\s+(?:are|were)\s+the\s+(?:\w+\s+){0,3}?\w+s\b|name\s+the\b)", re.I)
_ITEM = r"[\w'.&\u2019-]+(?:\s+[\w'.&\u2019-]+){0,3}"  # "Expedia", "J. Walter Thompson", "H&R Block"
ENUMERATION = re.compile(r"\b" + _ITEM + r",\s+" + _ITEM + r",?\s+(?:and|or)\s+[\w'-]+|"
                         r"\bfrom\s+[\w'-]+(?:\s+[\w'-]+){0,2}\s+to\s+[\w'-]+(?:\s+[\w'-]+){0,2}\s+to\s+[\w'-]+", re.I)


def answer_type(question: str) -> str | None:
    q = question or ""
    if _DATE.search(q):
        return "date"
    if _PLACE.search(q):
        return "place"
    if _QUANTITY.search(q) or _QUANTITY_NOUN.search(q):
        return "quantity"
    if _NAME.search(q):
        return "name"
    if _REASON.search(q):
        return "reason"
    return None


_NAMED_NUMBER = re.compile(r"\b[A-Z][A-Za-z]*\s+\d+[A-Za-z]?\b|\b[A-Z]+\d+[A-Za-z]*\b")


def quantity_match(sentence: str, question: str = "") -> float:
    """has_quantity, with what only looks like an amount left out: dates and times ("3 March
    2024", "23:40"), numbers that name something ("Berth 2", "Windows 11", "Q4") and any figure
    the question already holds."""
    if not has_quantity(sentence):
        return 0.0
    return _quantity_left(sentence, question or "")


@functools.lru_cache(maxsize=50000)
def _quantity_left(sentence: str, question: str) -> float:
    s = _DATE_IN.sub(" ", sentence)
    s = _NAMED_NUMBER.sub(" ", s)
    for n in re.findall(r"\d[\d,.]*", question or ""):
        s = re.sub(rf"(?<![\d,.]){re.escape(n)}(?![\d,.]*\d)", " ", s)
    return has_quantity(s)


def type_match(kind: str | None, sentence: str, question: str = "") -> float:
    """0..1: how plainly the sentence holds the kind of answer asked for."""
    if kind == "quantity":
        return quantity_match(sentence, question)
    if kind == "date":
        return 1.0 if _DATE_IN.search(sentence) else 0.0
    if kind == "reason":
        return 1.0 if _REASON_IN.search(sentence) else 0.0
    if kind == "place":
        asked = {w.lower() for w in re.findall(r"[A-Za-z]+", question)}
        # a place the question does not name itself ("Where is Dulce Base?": not "in Dulce Base")
        named = any(m.group(1).lower() not in asked for m in _PLACE_IN.finditer(sentence))
        return 1.0 if named or _known_place(sentence, question) else 0.0
    if kind == "name":  # a capitalised word the question does not already hold
        asked = {w.lower() for w in re.findall(r"[A-Za-z][\w'\u2019.-]*", question)}
        new = [w for w in _CAP.findall(" " + sentence) if w.lower().strip(".'\u2019") not in asked
               and w.lower().strip(".") not in ("i", "i'm", "i\u2019m", "i've", "i\u2019ve", "i'd", "i\u2019d")]
        return 1.0 if new else 0.0
    return 0.0


_ORDINALS = {"first": "1", "second": "2", "third": "3", "fourth": "4"}
_PERIOD = re.compile(r"\b(first|second|third|fourth)\s+(quarter|half)\b|\b([qh])([1-4])\b", re.IGNORECASE)


def period_forms(question: str) -> list[str]:
    """The other way a period is written: "third quarter" <-> "Q3", "first half" <-> "H1"."""
    out = []
    for m in _PERIOD.finditer(question or ""):
        if m.group(1):
            n = _ORDINALS[m.group(1).lower()]
            out.append(("q" if m.group(2).lower() == "quarter" else "h") + n)
        elif m.group(4) in "1234":
            word = {v: k for k, v in _ORDINALS.items()}[m.group(4)]
            out += [word, "quarter" if m.group(3).lower() == "q" else "half"]
    return out


def query_weights(question: str, names: Iterable[str] = ()) -> dict[str, float]:
    """Stemmed content words of the question -> weight (framing words and "at the end"-like
    cues dropped, names 0.35)."""
    name_terms = {stem(t) for n in names for t in terms(n)}
    out: dict[str, float] = {}
    for t in terms(_EARLY.sub(" ", _LATE.sub(" ", question or ""))):
        if t in FRAMING:
            continue
        s = stem(t)
        out[s] = min(out.get(s, 1.0), 0.35 if s in name_terms else 1.0)
    for t in period_forms(question):  # "third quarter" finds "in Q3, revenue was $35 billion"
        out.setdefault(stem(t), 1.0)
    if re.match(r"\s*(?:who|whom)\b", question or "", re.I):
        # "Who founded Bitwise?": the text says "cofounder of Bitwise"; "who runs it": "CEO"
        for verb, roles in _ROLES.items():
            if verb in out:
                out[verb] = min(out[verb], 0.2)  # "founded" is also "found" (of find): the role says it
                for r in roles:
                    out.setdefault(r, 1.0)
    if out and all(w < 1 for w in out.values()):  # only names asked: they are the question
        out = {k: 1.0 for k in out}
    if answer_type(question) == "place":  # "where is it located", "in which state": the place says so, not these words
        for w in ("locat", "situat", "set", "base", "state", "citi", "countri", "town", "region", "place"):
            if w in out and w not in name_terms:
                out[w] = min(out[w], 0.2)
    return out


# the role nouns that say who did what a "who" question's verb asks (stems)
_ROLES = {"found": ("founder", "cofound", "co-found"), "cofound": ("founder", "cofound", "co-found"),
          "start": ("founder", "cofound", "co-found"), "run": ("ceo", "chief", "execut", "head", "presid"),
          "lead": ("leader", "head", "ceo", "chief", "director"), "head": ("head", "ceo", "chief", "director"),
          "manag": ("manag", "director", "head"), "invent": ("inventor",), "creat": ("creator", "author"),
          "own": ("owner",), "wrote": ("author", "writer"), "write": ("author", "writer"),
          "host": ("host",), "chair": ("chairman", "chair", "chairwoman")}


@dataclass
class Passage(Sentence):
    """A sentence, or a signpost sentence joined with the one it introduces (parts: both)."""
    parts: tuple[Sentence, ...] = ()


_COUNTS = {"two": 2, "three": 3, "four": 4, "2": 2, "3": 3, "4": 4}
_ANNOUNCES = re.compile(r"\b(two|three|four|[234])\s+(?:[a-z-]+\s+)?[a-z-]+s\b\s*[:.]?\s*$|:\s*$", re.IGNORECASE)


# a question put in the text: one ending in "?", or an interviewer's "I want to ask you what ...",
# "I'm curious about ...", "tell us about ..." (transcripts rarely write the question mark)
_ASKS = re.compile(r"\?['\"\u2019\u201d)]*\s*$|\b(?:ask(?:ing)? you|tell (?:us|me)|(?:I'm|I am) (?:curious|wondering)|"
                   r"I (?:was )?wonder(?:ed)?|I'd love to (?:know|hear)|I would love to (?:know|hear)|"
                   r"can you (?:talk|say|share|explain|walk))\b", re.I)
_REPLY = 3  # sentences after a question put in the text, read as its reply
_PRONOUN = re.compile(r"(?:He|She|They|His|Her|Their|Him|Them)\b")


def _adjacent(prev: Sentence, s: Sentence) -> bool:
    """Is s the sentence right after prev in the same unit (whitespace between)?"""
    return s.unit_id == prev.unit_id and 0 <= s.order - prev.order - len(prev.text) <= 6


def passages(sents: list[Sentence]) -> list[Passage]:
    """A short signpost sentence is joined with the sentence it introduces; one announcing a
    count ("We have three demands.", "... two fundamental things:") with up to that many; a
    question put in the text ("I want to ask you what you do outside of work, for fun?") with
    the reply after it (up to _REPLY sentences, at least twelve words of it); one opening with a
    personal pronoun ("He was the inventor of the laser printer.") with the sentence before it,
    which says who that is."""
    out = []
    for i, s in enumerate(sents):
        group = [s]
        if _ASKS.search(s.text):  # a question put in the text: the reply after it answers it
            for nxt in sents[i + 1:i + 1 + _REPLY]:
                prev = group[-1]
                if nxt.unit_id != prev.unit_id or not 0 <= nxt.order - prev.order - len(prev.text) <= 40:
                    break
                group.append(nxt)
                if not _ASKS.search(nxt.text) and len(" ".join(g.text for g in group[1:]).split()) >= 12:
                    break
        elif _PRONOUN.match(s.text) and i and _adjacent(sents[i - 1], s) and not _ASKS.search(sents[i - 1].text):
            group = [sents[i - 1], s]  # "He was the inventor of the laser printer": who "he" is
        elif len(s.text.split()) <= _SIGNPOST_WORDS or _ANNOUNCES.search(s.text):
            m = _ANNOUNCES.search(s.text)
            want = _COUNTS.get(m.group(1).lower(), 1) if m and m.group(1) else 1
            for nxt in sents[i + 1:i + 1 + want]:
                prev = group[-1]
                if nxt.unit_id != prev.unit_id or not 0 <= nxt.order - prev.order - len(prev.text) <= 6:
                    break
                group.append(nxt)
            if sum(len(g.text.split()) for g in group) > 120:
                group = group[:2]
        out.append(Passage(" ".join(g.text for g in group), s.unit, s.unit_id, s.order, tuple(group)))
    return out


def _with_synonyms(question: str, weights: dict[str, float], docs: list[tuple[str, ...]]) -> dict[str, float]:
    """The question with wordnet.stand_ins for its words the passages never write, at SYNONYM,
    in place of the word where the passages hold any."""
    have = {t for d in docs for t in d}
    out = dict(weights)
    for t in terms(question or ""):
        if weights.get(stem(t), 0) >= 1:
            held = {stem(r) for r in wordnet.stand_ins(t, lambda w: stem(w) in have)} & have
            for r in held:
                out.setdefault(r, SYNONYM)
            if held:  # the word itself, which no passage holds, no longer dilutes the ones that do
                out.pop(stem(t), None)
    return out


# "how does alex react when sam shouts that they've got something?", "what does fred say back when
# scrooge calls him poor?", "When Jordan announces ..., how does Taylor answer?": one person's
# reaction to an event the question describes
_WHEN = re.compile(r"\bwhen\s+(?P<clause>[^,?]+)", re.I)
_REACTS = re.compile(r"\b(?:how|what)\s+(?:does|did|do|is|was|would)\s+(?P<who>[A-Za-z][\w'-]+)(?:\s+[A-Z][\w'-]+)?\s+"
                     r"(?:react|respond|reply|answer|feel|say|think|do|make of)\b", re.I)
ANCHOR = 0.5  # the share of the event's words a sentence holds for it to be the event
FOLLOW = 3    # sentences after the event where the reaction stands


def _after_the_event(question: str, cands: list[Passage], docs: list[tuple[str, ...]], own: list[float]) -> list[float]:
    """A reaction asked for is in the sentences right after the event that name the person
    reacting: they rank above the event itself, which only the question's own words tie to it."""
    who, when = _REACTS.search(question or ""), _WHEN.search(question or "")
    if who is None or when is None or who.group("who").lower() in STOPWORDS:
        return own
    person = re.compile(r"(?<!\w)" + re.escape(who.group("who").lower()) + r"(?!\w)")
    event = {t for t in stems(when.group("clause")) if t not in STOPWORDS} - set(stems(who.group("who")))
    if len(event) < 2:
        return own
    held = [len(event & set(d)) / len(event) for d in docs]
    top = max(own, default=0.0) or 1.0
    out = list(own)
    for j, h in enumerate(held):
        if h < ANCHOR:
            continue
        lift = 2.0
        for i in range(j + 1, min(len(cands), j + 1 + FOLLOW)):  # the first two after it naming the person
            if cands[i].unit_id != cands[j].unit_id or held[i] >= ANCHOR or lift < 1.5:
                break
            if person.search(cands[i].text.lower()):
                out[i] = max(out[i], own[i] + lift * top * h)
                if _open_quote(cands[i].text) and i + 1 < len(cands) and cands[i + 1].unit_id == cands[i].unit_id:
                    out[i + 1] = max(out[i + 1], own[i + 1] + (lift - 0.25) * top * h)  # the speech goes on
                lift -= 0.5
    return out


def _open_quote(text: str) -> bool:
    """Does a quotation the sentence opens go on after it ('"If that's the case," Taylor said, "we
    must tread carefully.')?"""
    return (text.count("\u201c") > text.count("\u201d")) or text.count('"') % 2 == 1


def rank_facts(question: str, sents: list[Sentence], names: Iterable[str] = (),
               k1: float = 1.2, b: float = 0.75) -> list[tuple[float, Passage]]:
    """(score, passage), best first; 0 for a passage sharing no question word."""
    weights = query_weights(question, names)
    cands = passages(sents)
    if not cands or not weights:
        return [(0.0, p) for p in cands]
    # a word of the same family the stemmer keeps apart ("acquired" / "acquisition": acquir,
    # acquisit) counts half: the stems share their first five letters, both six or longer
    docs = [stems(p.text) for p in cands]
    weights = _with_synonyms(question, weights, docs)
    family = {q[:5]: q for q in weights if len(q) >= 6 and q.isalpha()}
    # each passage's question terms with their count: 1 as written, 0.5 as a word of the family
    found: list[dict[str, float]] = []
    for d in docs:
        tf: dict[str, float] = {}
        for t in d:
            q = t if t in weights else family.get(t[:5]) if len(t) >= 6 else None
            if q is not None:
                tf[q] = tf.get(q, 0) + (1 if q == t else 0.5)
        found.append(tf)
    n = len(docs)
    avg = sum(len(d) for d in docs) / n or 1.0
    df: dict[str, int] = {}
    for tf in found:
        for t in tf:
            df[t] = df.get(t, 0) + 1
    idf = {t: log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}
    total = sum(weights[t] * idf.get(t, log(1 + (n + 0.5) / 0.5)) for t in weights)
    kind = answer_type(question)
    own = []
    for d, tf in zip(docs, found):
        if not tf:
            own.append(0.0)
            continue
        norm = k1 * (1 - b + b * len(d) / avg)
        score = sum(weights[t] * idf[t] * f * (k1 + 1) / (f + norm) for t, f in tf.items())
        covered = sum(weights[t] * idf[t] for t in tf) / (total or 1.0)
        own.append(score * (0.5 + covered))  # holding more of the question, its rare words above all
    # a word the question writes as code ("allow_general_knowledge", "easy_install") names one
    # thing; a passage holding it verbatim is about that thing (its parts alone are common words)
    codes = [c.lower() for c in CODE_NAME.findall(question)]
    if codes:
        own = [x * (1 + 2 * any(c in p.text.lower() for c in codes)) for x, p in zip(own, cands)]
    # a numbered name the question asks about, whole ("Dynamics 365", not "Dynamics" or "365"): a passage
    # holding it is about that thing, while one holding only the question's other words (its
    # period, "revenue") is about the whole call
    # (a name most passages hold, a host's or the company's, sets none of them apart)
    # "who's using HoloLens?": who answers is someone else, and the sentence naming them names
    # what they did it with ("customers like Audi and Volvo are all embracing HoloLens")
    who = re.match(r"\s*(?:who|whom)\b", question or "", re.I) is not None
    for x in names:
        if not (who or re.search(r"\w \d", x)):  # a numbered name; a person is often "he" where the fact is
            continue
        w = re.compile(r"(?<!\w)" + re.escape(x.lower()) + r"(?!\w)")
        held = [bool(w.search(p.text.lower())) for p in cands]
        if 0 < sum(held) <= 0.1 * len(cands) or (who and 0 < sum(held) < len(cands)):
            own = [o * (1 + 1.5 * h) for o, h in zip(own, held)]
    own = _after_the_event(question, cands, docs, own)
    late, early = bool(_LATE.search(question)), bool(_EARLY.search(question))
    place = {id(p): r / max(1, len(cands) - 1) for r, p in enumerate(sorted(cands, key=lambda p: p.order))}
    listy = bool(_LIST_QUESTION.search(question or ""))
    scored = []
    for i, p in enumerate(cands):
        near = [own[j] * (0.5 if abs(i - j) == 1 else 0.3) for j in range(max(0, i - 2), min(len(cands), i + 3))
                if j != i and cands[j].unit_id == p.unit_id]
        score = own[i] + max(near, default=0.0)
        if score and kind:  # a sentence without the kind of thing asked for rarely answers it
            score *= 0.6 + 1.3 * type_match(kind, p.text, question)
        if score and late != early:  # "at the end of the story": the text's own order counts
            score *= 0.6 + 0.8 * (place[id(p)] if late else 1 - place[id(p)])
        if score and listy and ENUMERATION.search(p.text) and not _ASKS.search(p.text):  # one naming several, not asking
            score *= 1.5
        scored.append((score, -i, p))
    scored.sort(key=lambda x: (x[0], x[1]), reverse=True)
    return [(sc, p) for sc, _, p in scored]
