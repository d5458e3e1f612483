"""Small text utilities shared by the offline engine and the pipeline.

- split_sentences(text): character spans of sentences (English and Chinese) that index the
  original string exactly, so a sentence can be highlighted in its document.
- is_cjk(text): whether a text is mainly Chinese/Japanese/Korean.
- normalize_title(name): the key entities are merged by across text units.
- words(text) / content_words(text): lower-case word lists for overlap scoring (CJK as
  character bigrams), and the English stop-list the offline extractor filters names with.
"""
from __future__ import annotations

import functools
import re

_CJK_RANGES = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af"
_CJK = re.compile(f"[{_CJK_RANGES}]")
_LATIN = re.compile(r"[A-Za-z\u00c0-\u024f]")

# Abbreviations whose final period never ends a sentence (compared lower-case, without the dot).
ABBREVIATIONS = frozenset(
    "mr mrs ms messrs mme mlle dr st sr jr prof rev hon capt col gen lt sgt cmdr gov sen rep pres "
    "mt ft no nos vol vols p pp fig figs approx vs cf e.g i.e a.m p.m u.s u.k inc ltd co corp "
    "jan feb mar apr jun jul aug sep sept oct nov dec".split())

# Sentence enders. English: . ! ? (runs), optional closing quotes/brackets, then whitespace and
# a sentence start. Chinese: 。！？； (full width) split immediately, with closing quotes.
_EN_END = re.compile(r"[.!?]+['\"\u2019\u201d)\]]*(?=\s+['\"\u2018\u201c(\[]*[A-Z0-9\u00c0-\u00de]|\s*$)")
_ZH_END = re.compile(r"(?:[\u3002\uff01\uff1f\uff1b]+|[!?]+(?=[" + _CJK_RANGES + r"]))"
                     r"[\u201d\u2019\u300d\u300f\uff09)\"']*")
_PARA = re.compile(r"\n[ \t]*\n\s*")
_BLOCK_START = re.compile(r"\s*(?:[#>|*+-]|\d{1,3}[.)]\s|```|~~~)")
_WORD_BEFORE = re.compile(r"([A-Za-z][A-Za-z.]*)$")

_FENCED = re.compile(r"(?m)^[ \t]*```[^\n`]*\n(?:.*\n)*?[ \t]*```[ \t]*$")
_SHORT_LINE = 40  # a hard-wrapped line shorter than this ends its sentence (headings, lists, verse)


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Sentence spans (start, end) in text; text[start:end] is the sentence, stripped of whitespace.

    Boundaries: blank lines; a line break before a markdown block (heading, list, quote, table,
    fence) or after a short line; a fenced code block is one span, whole; English . ! ? (not after Mr. Dr. St. e.g. or an initial) before
    whitespace and a capital; Chinese 。！？；."""
    spans: list[tuple[int, int]] = []
    for p0, p1 in paragraph_spans(text):
        pos = p0
        for m in _FENCED.finditer(text, p0, p1):  # a fenced code block is one "sentence", whole
            _split_prose(text, pos, m.start(), spans)
            _add(text, m.start(), m.end(), spans)
            pos = m.end()
        _split_prose(text, pos, p1, spans)
    return spans


def _split_prose(text: str, start: int, end: int, spans: list[tuple[int, int]]) -> None:
    if text[start:end].strip():
        for l0, l1 in _lines(text, start, end):
            _split_block(text, l0, l1, spans)


def paragraph_spans(text: str):
    """(start, end) of each paragraph: the text between blank lines."""
    pos = 0
    for m in _PARA.finditer(text):
        yield pos, m.start()
        pos = m.end()
    yield pos, len(text)


def _lines(text: str, start: int, end: int):
    """Groups of lines inside a paragraph that may hold one sentence across line breaks."""
    seg_start = start
    pos = start
    while True:
        nl = text.find("\n", pos, end)
        if nl < 0:
            yield seg_start, end
            return
        line = text[pos:nl].strip()
        nxt_end = text.find("\n", nl + 1, end)
        nxt = text[nl + 1: end if nxt_end < 0 else nxt_end]
        if len(line) < _SHORT_LINE or _BLOCK_START.match(nxt) or _BLOCK_START.match(line):
            yield seg_start, nl
            seg_start = nl + 1
        pos = nl + 1


def _split_block(text: str, start: int, end: int, spans: list[tuple[int, int]]) -> None:
    block = text[start:end]
    cuts: list[int] = []
    for m in _ZH_END.finditer(block):
        cuts.append(m.end())
    for m in _EN_END.finditer(block):
        if block[m.start()] == "." and _is_abbreviation(block, m.start()):
            continue
        cuts.append(m.end())
    pos = 0
    for cut in sorted(set(cuts)) + [len(block)]:
        _add(text, start + pos, start + cut, spans)
        pos = cut


def _is_abbreviation(block: str, dot: int) -> bool:
    m = _WORD_BEFORE.search(block, 0, dot)
    if not m:
        return False
    word = m.group(1).lower().rstrip(".")
    if word in ABBREVIATIONS:
        return True
    if len(word) == 1 and block[m.start()].isupper():  # an initial: "J. Smith"
        return True
    # dotted initials: "J.B. Hunt", "A.B. Dick" (every part one capital letter)
    parts = m.group(1).rstrip(".").split(".")
    return len(parts) > 1 and all(len(p) == 1 and p.isupper() for p in parts)


def _add(text: str, a: int, b: int, spans: list[tuple[int, int]]) -> None:
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    if b > a:
        spans.append((a, b))


def cjk_share(text: str) -> float:
    """Share of CJK characters among the letters (CJK + Latin) of text."""
    cjk = len(_CJK.findall(text))
    latin = len(_LATIN.findall(text))
    return cjk / (cjk + latin) if cjk + latin else 0.0


def is_cjk(text: str, threshold: float = 0.3) -> bool:
    """True when CJK characters make up at least `threshold` of the letters. A Chinese sentence
    with English names in it counts as CJK: one Chinese character carries a word's meaning, so
    0.3 of the letters is already most of the words."""
    return cjk_share(text) >= threshold


def has_cjk(text: str) -> bool:
    return _CJK.search(text) is not None


_POSSESSIVE = re.compile(r"(?:['\u2019]s|s['\u2019])$", re.IGNORECASE)
_EDGE_PUNCT = "\"'`\u2018\u2019\u201c\u201d()[]{}<>.,;:!?*_-\u3001\u3002\uff0c\uff1b\uff1a\uff01\uff1f\u300a\u300b\u300c\u300d\u300e\u300f\uff08\uff09\u3010\u3011 \t\r\n"

_EDGE_NO_DOT = _EDGE_PUNCT.replace(".", "")


@functools.lru_cache(maxsize=1 << 16)
def normalize_title(name: str) -> str:
    """The merge key of an entity: upper case, whitespace collapsed, a possessive 's and the
    punctuation around the name stripped. "Scrooge's" -> "SCROOGE", "  the  Bank of England."
    -> "THE BANK OF ENGLAND", "《微软研究院》" -> "微软研究院". An abbreviation's final period is kept
    ("MR. FEZZIWIG", "ACME INC."). Remembered for the last 65,536 names: an index run normalises
    every name of every unit several times (280k calls on the podcast corpus)."""
    s = " ".join(name.split())
    prev = None
    while s != prev:
        prev = s
        s = s.strip(_EDGE_NO_DOT).lstrip(".")
        if s.endswith(".") and not _ends_with_abbreviation(s):
            s = s.rstrip(".")
        s = _POSSESSIVE.sub(lambda m: "s" if m.group(0)[0] in "sS" else "", s)
    s = re.sub(r"(?<=[" + _CJK_RANGES + r"])\s+(?=[" + _CJK_RANGES + r"])", "", s)
    return s.upper()


def _ends_with_abbreviation(s: str) -> bool:
    if not s.endswith("."):
        return False
    m = _WORD_BEFORE.search(s, 0, len(s) - 1)
    return m is not None and m.group(1).lower().rstrip(".") in ABBREVIATIONS


_WORD = re.compile(r"[A-Za-z\u00c0-\u024f0-9]+(?:['\u2019][A-Za-z]+)?")


def words(text: str) -> list[str]:
    """Lower-case words of text; CJK runs become overlapping character bigrams."""
    out = [w.lower() for w in _WORD.findall(text)]
    for run in re.findall(f"[{_CJK_RANGES}]+", text):
        out.extend(run[i:i + 2] for i in range(max(1, len(run) - 1)))
    return out


def content_words(text: str) -> list[str]:
    return [w for w in words(text) if w not in STOPWORDS and len(w) > 1]


def text_length(text: str) -> float:
    """Length in English-word equivalents: Latin words + CJK characters / 2."""
    return len(_WORD.findall(text)) + len(_CJK.findall(text)) / 2


# Function words and words that start sentences capitalised without being names. The offline
# extractor strips them from the start and end of a capitalised sequence and rejects a name made
# only of them; overlap scoring ignores them.
STOPWORDS = frozenset("""
a about above across after afterwards again against ah aha ahem alas all almost alone along
already also although always am among an and another any anybody anyhow anyone anything anyway
anywhere are aren't around as aside ask asked at away aye back be became because become been
before beforehand behind being below beside besides best better between beyond both brief but by
call came can cannot can't certainly chapter close come comes could couldn't dear did didn't do
does doesn't doing done don't down during each eh either else elsewhere enough especially even
ever every everybody everyone everything everywhere except far farewell few fie for former
formerly forth forward found four from further furthermore get gets give given go goes going good
goodbye got ha had hadn't half hallo halloo happy hardly has hasn't have haven't having he
he'd he'll hello hence her here here's hers herself hey hi him himself his hither how however
hullo hush i i'd i'll i'm i've if in indeed instead into is isn't it it's its itself just last
later latter least less let let's like likely little long look lo many may maybe me meantime
meanwhile merry might mine miss more moreover most mostly much must my myself namely nay near
nearly neither never nevertheless next nine no nobody none nonetheless noone nor not nothing
now nowhere o of off often oh ok okay old on once one only onto or other others otherwise ought our
ours ourselves out over own part perhaps please poor pray quite rather really said same say says
see seeing seem seemed seeming seems seen several shall she she'd she'll she's should shouldn't
since so some somebody somehow someone something sometime sometimes somewhere soon still such suppose sure
take tell than thank thanks that that's the their theirs them themselves then thence there
there's thereafter thereby therefore therein these they they'd they'll they're they've thing this
those though three through throughout thus till to today together tomorrow too toward towards
truly twice two under unless until up upon us very via was wasn't we we'd we'll we're we've
well went were weren't what what's whatever when whence whenever where where's whereas whereby
wherever whether which while whilst whither who who's whoever whole whom whose why will with
within without won't would wouldn't ye yea yes yet you you'd you'll you're you've your yours
yourself yourselves zero whereat wherefore whereupon thereupon hereupon thankee ay bah humbug hark hurrah huzzah lord heaven heavens god alive stave
monday tuesday wednesday thursday friday saturday sunday january february march april june july
august september october november december note see table figure section step example
""".split())


_TOKEN = re.compile(r"\S+")


def trim_around(text: str, start: int, end: int, max_words: int) -> str:
    """text with whitespace collapsed, cut to about max_words (CJK: 2 characters a word) around
    text[start:end]; an ellipsis marks each cut."""
    if text_length(text) <= max_words:
        return " ".join(text.split())
    if has_cjk(text):
        width = max_words * 2
        a = max(0, min(start - max(0, width - (end - start)) // 2, len(text) - width))
        b = min(len(text), max(a + width, end))
    else:
        toks = [(m.start(), m.end()) for m in _TOKEN.finditer(text)]
        first = next((i for i, (_, e) in enumerate(toks) if e > start), 0)
        last = next((i for i, (s, _) in enumerate(toks) if s >= end), len(toks)) - 1
        extra = max(0, max_words - (last - first + 1))
        lo = max(0, first - extra // 2)
        hi = min(len(toks), max(lo + max_words, last + 1))
        lo = max(0, min(lo, hi - max_words))
        a, b = toks[lo][0], toks[hi - 1][1]
    piece = " ".join(text[a:b].split())
    return ("\u2026" if a > 0 else "") + piece + ("\u2026" if b < len(text.rstrip()) else "")


def names_entity(title: str, text: str) -> bool:
    """Does the text name this entity: its title, or for a name of two or more words its last word
    of 4+ letters (a person's surname), as whole words in any case (CJK titles as they are)?"""
    if is_cjk(title):
        return title in text
    parts = re.findall(r"\w+", title.lower())
    if not parts:
        return False
    folded = " " + " ".join(re.findall(r"\w+", text.lower())) + " "
    if f" {' '.join(parts)} " in folded:
        return True
    return len(parts) >= 2 and len(parts[-1]) >= 4 and f" {parts[-1]} " in folded


def counted(count: int, word: str) -> str:
    """"1 batch", "2 batches", "3 points": a count with its word in the right number."""
    return f"{count} {word}" + ("" if count == 1 else ("es" if word.endswith("ch") else "s"))
