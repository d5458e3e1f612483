"""Lexical tools of the extractive (offline) answers, below the engines that use them: search
terms (lowercased, lightly stemmed; CJK as character bigrams), stopwords, BM25, a sentence
with its reference, sentences joined by language, and whether a sentence is prose worth quoting."""
from __future__ import annotations

import math
import re
from collections import Counter
from typing import Iterable

from core.text.citations import format_citation
from core.textutil import split_sentences

_CJK = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_TOKEN = re.compile(rf"([{_CJK}]+)|([^\W_{_CJK}]+)", re.UNICODE)

STOPWORDS = frozenset("""
a about above after again against all also am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further had
has have having he her here hers herself him himself his how i if in into is it its itself just
me more most my myself no nor not now of off on once only or other our ours ourselves out over own
same she should so some such than that the their theirs them themselves then there these they this
those through to too under until up very was we were what when where which while who whom why will
with would you your yours yourself yourselves tell describe explain give list please role
""".split())
# bigrams and characters that carry no topic in Chinese questions
CJK_STOP_BIGRAMS = frozenset("什么 哪些 这些 那些 怎么 如何 为什么 是否 我们 他们 一个 可以 没有 这个 那个 "
                             "起什 么作 哪个 请问 是什 有哪 些方".split())
CJK_STOP_CHARS = frozenset("的了吗呢吧啊么")

END_PUNCT = re.compile(r"[\s.!?。！？;；:：]+$")


def _stem(word: str) -> str:
    if word.endswith("'s"):
        word = word[:-2]
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def terms(text: str, drop_stopwords: bool = True) -> list[str]:
    """Search terms: lowercased, lightly stemmed words; CJK runs as character bigrams."""
    out: list[str] = []
    for cjk, word in _TOKEN.findall(text or ""):
        if cjk:
            grams = [cjk] if len(cjk) == 1 else [cjk[i:i + 2] for i in range(len(cjk) - 1)]
            for g in grams:
                if drop_stopwords and (g in CJK_STOP_BIGRAMS or any(c in CJK_STOP_CHARS for c in g)
                                       or len(g) == 1):
                    continue
                out.append(g)
        else:
            w = word.lower()
            if drop_stopwords and (w in STOPWORDS or len(w) < 2):
                continue
            out.append(_stem(w))
    return out


# what a question calls the documents themselves: "what does the podcast say about X", "according
# to the book", "during the call". Such a word names where to look, not what to look for.
_KIND = (r"(?:earnings )?(?:books?|novels?|novellas?|stor(?:y|ies)|texts?|documents?|docs|documentation|pages?|"
         r"articles?|papers?|reports?|transcripts?|calls?|podcasts?|episodes?|interviews?|guides?|specs?|"
         r"specifications?|peps?|rfcs?|speech(?:es)?|letters?|chapters?|passages?|sources?|corpus|data|"
         r"conversations?|discussions?|authors?|narrators?|writers?|hosts?|memos?|minutes|manuals?|"
         r"tutorials?|readme|notes|bulletins?|newsletters?|posts?|overview)")

DOCUMENT_WORDS = re.compile(rf"\b{_KIND}\b", re.I)  # "this earnings call", "the podcast"

# one of a numbered series: "PEP 621", "RFC 822", "UTF-8", "GPT-4" (not a year: "FY 2024"; not an amount)
NUMBERED_NAME = re.compile(r"\b[A-Z]{2,6}[ -](?!(?:19|20)\d\d\b)\d{1,5}\b(?![.,]\d|%| ?percent)")
# a name written as code: snake_case ("allow_general_knowledge"), dotted lower case
# ("chunking.size", "pyproject.toml") or a dunder, not an abbreviation ("U.S.", "e.g.") or a call
CODE_NAME = re.compile(r"(?<![\w.])[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?![\w])|"
                       r"(?<![\w.])[a-z][a-z0-9]*(?:\.[a-z][a-z0-9_]*)+(?![\w(])|"
                       r"(?<![\w.])__[A-Za-z][A-Za-z0-9_]*__(?![\w])")  # a dunder: "__match_args__", "__doc__"


def document_word(word: str) -> bool:
    """Does the word name a kind of document ("guide", "episode", "PEP", "memo")?"""
    return bool(re.fullmatch(_KIND, word or "", re.I))
_SAYS = (r"(?:say|says|said|tell|tells|told|mention|mentions|mentioned|describe|describes|described|explain|"
         r"explains|explained|write|writes|wrote|report|reports|reported|discuss|discusses|discussed|cover|"
         r"covers|covered|state|states|stated|suggest|suggests|suggested|claim|claims|claimed|reveal|reveals)")
SOURCE_REFERENCE = re.compile(
    rf"\b(?:(?:according to|in|from|during|throughout|across) (?:the|this|these|that|our) {_KIND}\b"
    rf"|(?:the|this|these|that|our) {_KIND}(?= {_SAYS} (?:about|of|on|regarding)\b))", re.I)


def without_source(question: str) -> str:
    """The question without the words that name the documents it asks ("What does the podcast
    say about GitHub Copilot?" is about GitHub Copilot, not podcasts)."""
    out = re.sub(r"[ \t]{2,}", " ", SOURCE_REFERENCE.sub(" ", question or "")).strip()
    return out if terms(out) else (question or "")  # a question about the documents as such


def query_words(text: str) -> dict[str, str]:
    """The words of a query worth looking up in a full-text index, lowercased as written, each
    with its term (as terms() makes it); CJK runs are left to the CJK search."""
    out: dict[str, str] = {}
    for cjk, word in _TOKEN.findall(text or ""):
        w = word.lower()
        if not cjk and len(w) >= 2 and w not in STOPWORDS:
            out.setdefault(w, _stem(w))
    return out


def term_counter(wanted: Iterable[str]):
    """A function counting, in a text, the words whose term (as terms() makes it) is one of the
    wanted Latin-script terms: Counter(terms(text)) kept to those, without splitting the whole text."""
    wanted = frozenset(t for t in wanted if not _CJK_RUN.search(t))
    if not wanted:
        return lambda text: Counter()
    heads = sorted({t[:-1] if t.endswith("y") else t for t in wanted}, key=len, reverse=True)
    pattern = re.compile(rf"(?<![^\W_])(?:{'|'.join(map(re.escape, heads))})[^\W_{_CJK}]*", re.I)

    def count(text: str) -> Counter:
        found: Counter[str] = Counter()
        for m in pattern.finditer(text or ""):
            w = m.group(0).lower()
            if w not in STOPWORDS and (t := _stem(w)) in wanted:
                found[t] += 1
        return found
    return count


_CJK_RUN = re.compile(f"[{_CJK}]")


class BM25:
    """Okapi BM25 over a fixed list of documents (each a list of terms)."""

    def __init__(self, docs: list[list[str]], k1: float = 1.2, b: float = 0.75):
        self.k1, self.b = k1, b
        self.tf = [Counter(d) for d in docs]
        self.len = [len(d) for d in docs]
        self.avg = (sum(self.len) / len(docs)) if docs else 0.0
        df: Counter = Counter()
        for c in self.tf:
            df.update(c.keys())
        n = len(docs)
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}

    def score(self, query: Iterable[str], i: int) -> float:
        tf, dl, s = self.tf[i], self.len[i], 0.0
        for t in set(query):
            f = tf.get(t, 0)
            if f:
                s += self.idf[t] * f * (self.k1 + 1) / (f + self.k1 * (1 - self.b + self.b * dl / (self.avg or 1)))
        return s

    def coverage(self, query: Iterable[str], i: int) -> float:
        """Share of the query's idf weight present in document i (0-1)."""
        q = set(query)
        total = sum(self.idf.get(t, math.log(1 + len(self.tf) + 0.5)) for t in q)
        hit = sum(self.idf[t] for t in q if t in self.tf[i])
        return hit / total if total else 0.0


_CJK_END = re.compile(rf"[{_CJK}。！？；：，、）」』]$")
_CLOSERS = "\"'”’）」』)]"


def cite(text: str, refs: dict[str, list[int]]) -> str:
    """text followed by its reference, before the sentence's final punctuation."""
    text = text.strip()
    refs = {k: v for k, v in refs.items() if v}
    if not refs:
        return text
    m = END_PUNCT.search(text)
    end = m.group(0).strip() if m else ""
    body = text[:m.start()] if m else text
    # a closing quote says nothing of the language: look at what it closes ("...thoughts?”" is English)
    cjk = any(c in end for c in "。！？；：") or bool(_CJK_END.search(body.rstrip(_CLOSERS)))
    return f"{body} {format_citation(refs)}{'。' if cjk else '.'}"


def join_sentences(parts: list[str]) -> str:
    """Sentences into one paragraph: a space after Latin punctuation, none after Chinese."""
    out = ""
    for p in parts:
        out += p if (not out or out.endswith(("。", "！", "？"))) else " " + p
    return out


def sentences(text: str) -> list[str]:
    """The sentences of text, each on one line (hard line wraps joined)."""
    text = text or ""
    return [_one_line(text[a:b]) for a, b in split_sentences(text) if b - a > 1]


def _one_line(s: str) -> str:
    s = re.sub(rf"(?<=[{_CJK}])\s*\n\s*(?=[{_CJK}])", "", s)
    return re.sub(r"\s+", " ", s).strip()


_FRONT_MATTER = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]{0,20}\s*[:：]\s")
ENDS = re.compile(r"[.!?。！？…][\"'”’」』）)\]]*$")
_CODE = re.compile(r"-->|\||```|^\s*[#>*•-]|^\s*\d+[.)]\s")


def is_prose(sentence: str) -> bool:
    """A sentence worth quoting: not front matter ("tags: ..."), a diagram, table, list or
    heading line, and mostly letters."""
    s = sentence.strip()
    ended = bool(ENDS.search(s))
    if _CODE.search(s) or (not ended and (_FRONT_MATTER.match(s) or len(s) < 25)):
        return False
    chars = [c for c in s if not c.isspace()]
    return bool(chars) and sum(c.isalnum() for c in chars) / len(chars) >= 0.6
