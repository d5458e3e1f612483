"""Finding entity mentions in one sentence, for the offline engine (core/offline/engine.py).

English: runs of capitalised words with titles, connectors ("Bank of England") and type cues
(speech verbs, head words, "in/at <Name>"); Chinese sentences are read by core/offline/zh_mentions.py. Also the sentence
filters (code, URLs, headings) and the repeated noun phrases. See core/offline/engine.py's docstring
for what the engine makes of the mentions.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from core.text.wordnet import bases_of, common_word, instance_of
from core.textutil import ABBREVIATIONS, STOPWORDS, has_cjk, normalize_title

DEFAULT_TYPES = ("organization", "person", "geo", "event")
SYNONYMS = {"person": ("person", "people", "character", "individual"),
             "organization": ("organization", "organisation", "org", "company", "institution"),
             "geo": ("geo", "location", "place", "gpe", "country", "city"),
             "event": ("event", "occasion")}


def word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


TITLES = word_set("mr mrs ms miss mister madam madame dr doctor sir lady lord dame master mx prof professor "
              "rev reverend capt captain col colonel gen general lt lieutenant sgt sergeant major admiral "
              "president senator governor mayor judge inspector detective officer agent king queen prince "
              "princess duke duchess earl count countess baron uncle aunt father mother brother sister "
              "st saint councillor councilor alderman minister secretary chancellor commissioner director "
              "superintendent constable sheriff")
_PERIOD_TITLES = word_set("mr mrs ms dr prof rev capt col gen lt sgt st")
CONNECTORS = word_set("of the de du da di del della van von der den la le y")
SPEECH = word_set("said says cried replied asked exclaimed returned answered whispered observed added "
              "continued thought muttered rejoined shouted called laughed sighed inquired resumed "
              "told wrote announced explained stated declared")
ROLE_HEADS = word_set("executive supervisor chair chairman chairwoman spokesperson spokeswoman spokesman manager "
                  "founder editor reporter correspondent analyst engineer master leader")
# offices held for a term, written before a full name ("President Joe Biden"); not the forms of
# address a novel names people by ("Mr. Fezziwig", "Agent Mercer", "Uncle Scrooge")
_OFFICES = word_set("president senator governor mayor minister chancellor secretary commissioner judge justice "
                    "chairman chairwoman premier congressman congresswoman representative ambassador")
# the head word of a role, not a name: "Chief Executive", "Terminal Supervisor", "Chief of Staff"
ROLE_NOUNS = ROLE_HEADS | word_set("chief staff head deputy assistant officer director secretary treasurer member "
                               "clerk spirit ghost man woman boy girl gentleman lady")
KIN = word_set("nephew niece wife husband son daughter sister brother father mother clerk partner friend "
           "uncle aunt widow family children child servant master boss colleague spokesperson")
ORG_WORDS = word_set("inc ltd llc plc corp corporation company co bank council department agency ministry "
                 "office committee commission university college school institute foundation "
                 "association society union party group board authority police service services club "
                 "bureau administration trust fund federation league team labs laboratory partners "
                 "holdings industries systems technologies media news times post press army navy force "
                 "government parliament congress senate assembly firm exchange court hospital church "
                 "gazette journal squad corps division brigade regiment coalition estates chemicals "
                 "pharmaceuticals motors airlines energy logistics shipping associates consulting capital "
                 "ventures brothers")
GEO_WORDS = word_set("street road lane avenue square city town county river lake mountain mountains hill "
                 "island islands park bridge churchyard cathedral market station harbour harbor bay "
                 "valley forest place row gardens house hall heath common kingdom republic states province region "
                 "district village castle sea ocean coast north south east west quarter borough port quay "
                 "wharf creek pier dock docks marina beach cove point")
EVENT_WORDS = word_set("festival meeting war battle conference summit election olympics games christmas "
                   "easter day eve revolution crisis strike fire flood earthquake storm hurricane "
                   "ceremony parade fair tournament championship cup incident attack trial hearing "
                   "rally holiday year feast wedding funeral outbreak blackout")
GEO_PREPS = {"in": 1.0, "at": 0.5, "near": 1.0, "from": 0.5, "to": 0.25, "into": 0.5, "across": 0.5,
             "through": 0.5, "towards": 0.5, "toward": 0.5}
FIRST_NAMES = word_set("james john robert michael william david richard joseph thomas charles christopher "
                   "daniel matthew anthony mark paul steven andrew peter george edward henry frank fred "
                   "bob tim tom dick harry jack joe ben sam jacob samuel arthur albert alfred walter "
                   "mary patricia jennifer linda elizabeth barbara susan jessica sarah karen nancy lisa "
                   "margaret betty sandra ashley emily martha anna anne jane alice grace rose ruth helen "
                   "emma olivia sophia charlotte caroline kate catherine ellen laura julia maria clara "
                   "alex sam jordan taylor chris pat jamie morgan casey riley max lee kim tony nick dan jim "
                   "bill will kevin brian jason ryan eric steve scott greg adam josh luke kyle sean ian "
                   "amy lucy sophie hannah chloe megan rachel rebecca amanda nicole michelle diana victoria "
                   "eve claire julie karen ann louise marie paula ella mia zoe leo noah liam ethan oliver "
                   "victor owen julian nora rosa ingrid carlos jose juan luis ahmed omar fatima aisha priya "
                   "ravi ana elena sofia ivan olga")


KNOWN_ORGS = word_set("microsoft google openai meta amazon apple ibm nvidia intel oracle alibaba tencent "
                  "baidu huawei anthropic deepmind samsung bytedance "
                  "微软 谷歌 百度 腾讯 阿里巴巴 阿里 华为 字节跳动 京东 美团 小米 英伟达 亚马逊 网易 "
                  "蚂蚁集团 清华大学 北京大学 中国科学院 苹果公司")

def ly_adverb(word: str) -> bool:
    """A lower-cased word shaped like an adverb in -ly that is no first name ("solemnly", not
    "emily")."""
    return word.endswith("ly") and len(word) > 4 and word not in FIRST_NAMES


# a word of any Latin-script language ("Fernández", "Sébastien", "Ørsted"), with its apostrophes and hyphens
WORD = re.compile(r"[^\W\d_][^\W_]*(?:['\u2019][^\W\d_]+)*(?:-[^\W_]+(?:['\u2019][^\W\d_]+)*)*")
_MASK = re.compile(r"\[Illustration[^\]]*\]|https?://\S+|www\.\S+|`[^`\n]*`|\S+@\S+\.\w+")
_CODE = re.compile(r"[{};]\s*$|=>|==|!=|\bconst |\blet |\bvar |\bdef |\breturn\b|\bimport |\bfunction\b|"
                   r"\basync (?:def|function|fn|with|for)\b|\bawait [\w.]+\(|</|/>|^\s*(?://|#!|\$ )|\w\(\)|\w+\.\w+\(")
_META = re.compile(r"^\s*[a-z_]+:\s")
_HEADER_START = re.compile(r"[A-Z][A-Za-z]*(?: [A-Za-z]+){0,3}:")
_OPENERS = set("\"'\u201c\u2018(:;[\u2014")
_APPOSITIVE = re.compile(r",\s+(?:a|an|the|[A-Z][a-z]+['\u2019]s|[a-z]+)\b")
_PLACE_NOUNS = word_set("base facility compound terminal site camp airport")
_PRONOUNS = word_set("he she him her his hers himself herself")
_POSS = re.compile(r"['\u2019]s$", re.IGNORECASE)

@dataclass
class Mention:
    surface: str
    start: int
    end: int
    initial: bool = False
    strong: bool = False
    lower_check: bool = False  # a capitalised word that is a common word if written lower case here
    votes: dict[str, float] = field(default_factory=dict)


_TERMINAL = re.compile(r"[.!?\u3002\uff01\uff1f\uff1b:;\u2026][\"'\u2019\u201d\u300d\u300f)\]]*$")


def drop_initial_verbs(found: list[list[Mention]]) -> None:
    """"Require Calloway Chemicals to..." at a sentence start: when the name without its first
    word is mentioned elsewhere in the unit, the first word was not part of it."""
    keys = {normalize_title(m.surface) for ms in found for m in ms}
    for ms in found:
        for m in ms:
            first, _, rest = m.surface.partition(" ")
            if m.initial and rest and normalize_title(rest) in keys and first.lower() not in TITLES:
                m.surface, m.start, m.initial = rest, m.start + len(first) + 1, False
            elif m.initial and rest and _IMPERATIVE_REST.match(rest) and imperative(first):
                # "Allow the LLM to discover ...", "Run the indexing": a step's verb and its object
                art = _IMPERATIVE_REST.match(rest)
                m.surface, m.start, m.initial = rest[art.end():], m.start + len(first) + 1 + art.end(), False


_IMPERATIVE_REST = re.compile(r"(?:the|a|an|your|this|that|these|those|its|their) ")


def imperative(word: str) -> bool:
    """A capitalised verb in its base form ("Allow", "Run"; not "Alexander" of "Alexander the
    Great"): what opens a step of instructions."""
    w = word.lower()
    return w.isalpha() and word[:1].isupper() and any(base == w and pos == "v" for base, pos in bases_of(w))


def whole_sentences(text: str, spans: list[tuple[int, int]], char_start: int | None) -> list[tuple[int, int]]:
    """Drop the sentences a chunk boundary cut in half: at the start when the unit starts inside
    its document (or with a lower-case word), up to the first sentence end; at the end when the
    text stops mid-line, back to the last sentence end. Chunks overlap, so the neighbouring unit
    holds those sentences whole."""
    ends = [i for i, (a, b) in enumerate(spans) if _TERMINAL.search(text[a:b])]
    if len(spans) < 3 or not ends:
        return spans
    a = spans[0][0]
    first = 0
    if ((char_start or 0) > 0 and "\n" not in text[:a]) or text[a:a + 1].islower() or text[a:a + 1] in ",;:)":
        first = ends[0] + 1
    last = len(spans)
    if spans[-1][1] == len(text) and not _TERMINAL.search(text[spans[-1][0]:]):
        last = ends[-1] + 1
    return spans[first:last] if last - first >= 1 else spans


# a transcript's speaker label: "ED MAGUIRE, CLSA: ", "AMY HOOD: " (a person, maybe their firm)
SPEAKER_LABEL = re.compile(r"^\s*(?P<name>[A-Z][A-Z.'\u2019-]+(?: [A-Z][A-Z.'\u2019-]+){1,3})"
                           r"(?:, (?P<org>[A-Z][\w&.'\u2019-]*(?: [A-Z&][\w&.'\u2019-]*){0,3}))?:\s")


def skip_sentence(sentence: str) -> bool:
    """Code, metadata lists and all-capital headings hold no names worth a graph node (a
    speaker's label in capitals is no heading: what follows it decides)."""
    label = SPEAKER_LABEL.match(sentence)
    letters = [ch for ch in sentence[label.end() if label else 0:] if ch.isalpha() and ch.isascii()]
    if len(letters) >= 4 and not has_cjk(sentence) and sum(ch.isupper() for ch in letters) > 0.6 * len(letters):
        return True
    for line in sentence.splitlines():
        # a Chinese line may end with a semicolon as prose does ("求婚者盘踞);"): no statement of code
        code = any(not (has_cjk(line) and m.group(0).strip() == ";") for m in _CODE.finditer(line))
        if code or (_META.match(line) and ("[" in line or line.count(",") >= 2)):
            return True
    return False


def masked_sentence(s: str) -> str:
    """The sentence with its illustrations, addresses and code blanked (offsets kept)."""
    return _MASK.sub(lambda m: " " * len(m.group(0)), s)


_ACRONYM = re.compile(r"[A-Z]{2,6}")
_YEAR = re.compile(r"(?:19|20)\d\d")
# a number after an acronym that names one of a series: not a year ("FY 2024"), an amount or a share
_NUMBERED = re.compile(r" (?!(?:19|20)\d\d\b)\d{1,5}\b(?![.,]\d|%| ?percent)"
                       r"(?! (?:times|years?|days?|weeks?|months?|hours?|minutes?|people|points?|basis|"
                       r"million|billion|thousand|hundred|employees|customers|users|countries|cities|markets)\b)"
                       r"(?!(?:,| and| or| to|-)\s*\d)")  # "Berths 4 and 5": several, no one's name


# a number after a capitalised name that says which one of a line of products or standards
# ("Windows 10", "Office 365", "Xbox 360", "Surface Pro 4", "Python 3"); not after a month, a
# weekday or a word that numbers the parts of a text or a series ("Chapter 4", "Step 2", "Q3")
_SERIES = word_set("january february march april may june july august september october november december "
               "jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday "
               "saturday sunday chapter stave part section step table figure fig page level episode ep "
               "version phase room item appendix volume vol book act scene line question slide quarter "
               "week day year number no round stage tier grade class lesson unit module exhibit note rule "
               "article clause paragraph option case example sample test team group building floor gate "
               "platform route highway interstate station verse psalm fy q h pp p")
# a year after a product's name names its release ("Office 2016"); after these it dates them
_RELEASE = re.compile(r" (?:19|20)\d\d\b(?![.,]\d|%|(?:-|,|\s+(?:and|or|to|through|until))\s*\d)")
_DATED = word_set("summer winter spring autumn fall christmas easter olympics games election census "
                  "class season cup festival conference summit war budget report survey review")


# what a speaker says to fill a turn ("Yeah, I think ..."): no name, capitalised or not
_INTERJECTIONS = word_set("yeah yes yep yup nope no okay ok oh ah aha uh um umm hmm wow gosh hey hi hello bye "
                      "thanks please sure right alright absolutely exactly totally")
# a role on either side of an ampersand is a title, not a firm: "CEO & Co-Founder"
_ROLE_AMP = word_set("ceo cto cfo coo cmo cio founder co-founder cofounder president chair chairman partner "
                 "director head owner principal")
# a romanised Chinese or Korean given name, its second syllable in lower case ("Tzu-ping")
_ROMANISED = re.compile(r"[A-Z][a-z]{1,3}-(?:[bcdfghjklmnpqrstwxyz]{0,3}[aeiou]{1,3}(?:ng|n|r)?)")
_DOT_VERSION = re.compile(r"\.\d{1,2}(?:-\d{1,4})?(?![\w-]|\.\w)")
# "U.S.", "U.K.", "D.C.": initials with their stops, one name
_DOTTED = re.compile(r"(?:[A-Z]\.){2,}")
# "AT&T", "H&M", "S&P": one name across its ampersand
_AMPERSAND = re.compile(r"&[A-Z][A-Za-z]*")


def content_word(w: str) -> bool:
    """A lower-case word that may carry a phrase: three letters or more, no stop word, adverb or verb of saying."""
    return len(w) >= 3 and w not in STOPWORDS and not w.endswith("ly") and w not in SPEECH


# ---- English ------------------------------------------------------------------------------
def en_mentions(sentence: str) -> list[Mention]:
    s = masked_sentence(sentence)
    toks = []  # (word, start, end, initial, possessive, stop_after)
    prev_end = 0
    for m in WORD.finditer(s):
        w, a = m.group(0), m.start()
        if a < prev_end:
            continue  # the rest of a name read with the word before ("T" of "AT&T")
        gap = s[prev_end:a]
        initial = not toks or any(ch in _OPENERS for ch in gap) or "--" in gap or bool(re.search(r"[.!?]", gap))
        stop_after = False
        if "-" in w:
            parts = w.split("-")
            keep = 1  # "UTF-8", "GPT-4": a capitalised name and its number are one name
            while keep < len(parts) and (parts[keep][:1].isupper() or (parts[keep].isdigit() and parts[0][:1].isupper()
                                                                 and not _YEAR.fullmatch(parts[keep]))):
                keep += 1
            if len(parts) == 2 and _ROMANISED.fullmatch(w) and not common_word(parts[0].lower()):
                keep = 2  # "Tzu-ping", "Ming-hui": a given name of two syllables, not "Python-based"
            if keep < len(parts):
                w, stop_after = "-".join(parts[:keep]), True
        end = a + len(w)
        dotted = _DOTTED.match(s, a) if len(w) == 1 and w.isupper() else None
        if dotted:  # "U.S.", "U.K.", "D.C.": one name, its letters and stops
            w, end = dotted.group(0), dotted.end()
        amp = _AMPERSAND.match(s, end) if not stop_after and w[:1].isupper() and len(w) <= 3 else None
        if amp:
            w, end = s[a:amp.end()], amp.end()
        version = _DOT_VERSION.match(s, end) if w.isupper() and len(w) >= 2 and not stop_after else None
        if version:  # "POSIX.1-2001", "HTTP.2": an acronym and the part or year of its standard
            w, end = s[a:version.end()], version.end()
        numbered = _NUMBERED.match(s, end) if w[:1].isupper() and not stop_after and "-" not in w \
            and w.lower() not in _SERIES and not (len(w) <= 2 and w[1:].isdigit()) else None
        if numbered:  # "PEP 621", "Windows 10", "Office 365": a name and the number of its version
            w, end = s[a:numbered.end()], numbered.end()
        elif w[:1].isupper() and not stop_after and w.lower() not in _SERIES | _DATED \
                and not instance_of(w, "location"):  # "London 2012": a place and a year
            release = _RELEASE.match(s, end)  # "Office 2016", "SQL Server 2017": the year of a release
            if release:
                w, end = s[a:release.end()], release.end()
        poss = bool(_POSS.search(w))
        if poss:
            w = w[:-2]
        # "Subject:", "Copied to:" starting a line: a header, never the rest of the line above
        # and a line of capitalised words only is a title ("... Earnings Conference Call"): no name
        # runs on from it into the next line ("Michael Spencer, Satya Nadella")
        header = "\n" in gap and (bool(_HEADER_START.match(s, a)) or not re.search(
            r"(?<![\w'])[a-z]{3,}", s[s.rfind("\n", 0, prev_end) + 1:prev_end]))
        toks.append((w, a, a + len(w), initial, poss, stop_after, gap, header))
        prev_end = max(m.end(), end)
    out: list[Mention] = []
    label = SPEAKER_LABEL.match(s)
    i = 0
    n = len(toks)
    while i < n:
        if not _cap(toks[i][0]):
            i += 1
            continue
        j = i
        run = [i]
        while not (toks[j][4] or toks[j][5]):
            k = j + 1
            while k < n and (toks[k][0] in CONNECTORS or (toks[k][0] == "and" and _and_in_org(toks, i, j, k))) \
                    and _adjacent(toks, k):
                k += 1
            if k < n and _cap(toks[k][0]) and all(_adjacent(toks, x) for x in range(j + 1, k + 1)):
                run.extend(range(j + 1, k + 1))
                j = k
            else:
                break
        if toks[j][4] and j + 1 < n and _cap(toks[j + 1][0]) and _adjacent(toks, j + 1) \
                and toks[j + 1][0].lower() in GEO_WORDS | ORG_WORDS:
            run.append(j + 1)  # "St. Paul's Churchyard"
            j += 1
        for part in _split_of(toks, run):
            m = _mention(sentence, toks, part)
            if m:
                out.append(m)
        i = j + 1
    out += _languages(s, out)
    if label:  # the speaker is a person; the firm after their name an organisation
        for m in out:
            if (m.start, m.end) == label.span("name"):
                m.votes["person"] = m.votes.get("person", 0) + 2
            elif label.group("org") and (m.start, m.end) == label.span("org"):
                m.votes["organization"] = m.votes.get("organization", 0) + 3
    return out


def _languages(s: str, found: list[Mention]) -> list[Mention]:
    """"C++" and "C#", and "C" where the text shows it is the language ("written in C or C++",
    "C extensions", "the C API"), not a variable or an appendix: a capital read as a Roman
    numeral otherwise."""
    out = []
    for m in _LANGUAGE.finditer(s):
        if any(f.start <= m.start() < f.end for f in found):
            continue
        if m.group(0) != "C" or _C_AFTER.match(s, m.end()) or (
                _C_BEFORE.search(s, 0, m.start()) and re.match(r"\s*(?:[,.;:)]|and\b|or\b|$)", s[m.end():])):
            out.append(Mention(m.group(0), m.start(), m.end(), strong=True))
    return out


_LANGUAGE = re.compile(r"(?<![\w.+#/-])C(?:\+\+|#)?(?![\w+#-]|\.\w)")
_C_AFTER = re.compile(r"(?: (?:and|or) C(?:\+\+|#)|/C\+\+| (?:code|APIs?|extensions?|implementation|compilers?|"
                      r"librar(?:y|ies)|programmers?|language|source|functions?|structs?|headers?|modules?|"
                      r"types?|standard|runtime)\b)")
_C_BEFORE = re.compile(r"\b(?:in|and|or|than|like|from|to) $")


def _and_in_org(toks, i: int, j: int, k: int) -> bool:
    """Is the "and" at k inside an organisation's name ("Securities and Exchange Commission",
    "Food and Drug Administration")? One capitalised common noun before it, no first name, and
    after it capitalised words ending in an organisation's word."""
    if toks[i][0] == "The" and i < j:
        i += 1  # "The Food and Drug Administration"
    if i != j or toks[i][0].lower() in FIRST_NAMES or not common_word(toks[i][0].lower()):
        return False
    m = k + 1
    while m < len(toks) and _cap(toks[m][0]) and _adjacent(toks, m) and not (toks[m][4] or toks[m][5]):
        m += 1
    return m > k + 2 and toks[m - 1][0].lower() in ORG_WORDS


def _split_of(toks, run: list[int]) -> list[list[int]]:
    """"Rosa Delgado of the Harbour Workers Union" is a person and an organisation; "Bank of
    England" and "Ghost of Christmas Past" (one word before "of") stay whole, unless that word is
    a common word opening the sentence before "of the" ("Sales of the Lumia 950 rose")."""
    lo = [toks[x][0].lower() for x in run]
    if "of" in lo:
        i = lo.index("of")
        if i - (lo[0] == "the") >= 2 and not any(w in ORG_WORDS or w in GEO_WORDS or w in EVENT_WORDS for w in lo[:i]):
            return [run[:i], run[i + 1:]]
        if i == 1 and toks[run[0]][3] and lo[2:3] == ["the"] and common_word(lo[0]) \
                and lo[0] not in ORG_WORDS | GEO_WORDS | EVENT_WORDS | TITLES:
            return [run[2:]]  # "Sales of the Lumia 950 rose": the sentence's first word is no part of it
    return [run]


# a name that opens in lower case by its maker's choice: "iOS", "iPad", "eBay", "macOS"
LOWER_CAMEL = re.compile(r"[a-z][A-Z][A-Za-z]+|[a-z]{2,5}OS")


def _cap(w: str) -> bool:
    return (w[:1].isupper() and not re.fullmatch(r"[IVXLC]+", w)) or bool(LOWER_CAMEL.fullmatch(w))


def _adjacent(toks, k: int) -> bool:
    gap = toks[k][6]
    if toks[k][7]:
        return False
    if not gap.strip():
        return True
    if gap.strip() == "&" and gap.startswith(" ") and gap.endswith(" ") \
            and not {toks[k - 1][0].lower(), toks[k][0].lower()} & (FIRST_NAMES | ROLE_NOUNS | _ROLE_AMP):
        return True  # "Marks & Spencer", "Dun & Bradstreet", "Enterprise Mobility & Security"
    if gap.strip() == "." and len(toks[k - 1][0]) == 1 and toks[k - 1][0].isupper() and k >= 2 \
            and _cap(toks[k - 2][0]) and not toks[k - 1][6].strip() \
            and (toks[k - 2][0].lower() in FIRST_NAMES or not common_word(toks[k - 2][0].lower())):
        return True  # a middle initial after a first name: "Nathaniel J. Smith" (not "Berth A. Ships")
    return gap.strip() == "." and toks[k - 1][0].lower() in ABBREVIATIONS and toks[k - 1][0].lower() in TITLES


def _mention(sentence: str, toks, run: list[int]) -> Mention | None:
    words = [toks[x][0] for x in run]
    lo = [w.lower().replace("\u2019", "'") for w in words]
    start = 0
    # "told The Associated Press": a capital "The" where no sentence starts is the name's own
    first = run[0]
    own_the = words[0] == "The" and not toks[first][3] and len(words) >= 3 and first > 0 \
        and toks[first - 1][0].islower() and not toks[first][6].strip() and not any(w.isupper() for w in words[1:])
    while start < len(words) and not (start == 0 and own_the) and (lo[start] in CONNECTORS or (
            lo[start] in STOPWORDS and not (lo[start] in TITLES and start + 1 < len(words)))):
        start += 1
    end = len(words)
    while end > start and (lo[end - 1] in CONNECTORS or lo[end - 1] in STOPWORDS or lo[end - 1] in TITLES) \
            and not (lo[end - 1] == "one" and end - 1 > start and not common_word(lo[end - 2])):  # "Xbox One"
        end -= 1
    if end <= start:
        return None
    words, lo, run = words[start:end], lo[start:end], run[start:end]
    if len(lo) == 1 and lo[0] in _INTERJECTIONS:
        return None  # "Yeah", "Okay": a turn's filler
    # "Harbour Master Maria Okafor", "Chief Executive Thomas Whitlock": the role is not the name
    # "President Joe Biden", "Governor Kathy Hochul": an office before a full name is not the name
    cut = max((k for k in range(0 if lo[0] in _OFFICES else 1, len(lo) - 2) if lo[k] in TITLES | ROLE_HEADS),
              default=None)
    if cut is not None and all(w[:1].isupper() for w in words[cut + 1:]) and not CONNECTORS & set(lo[cut + 1:]):
        words, lo, run = words[cut + 1:], lo[cut + 1:], run[cut + 1:]
        role_cut = True
    else:
        role_cut = False
    titled = len(words) > 1 and lo[0] in TITLES
    surface = " ".join((w + "." if l in _PERIOD_TITLES and x == 0 and titled else w)
                       for x, (w, l) in enumerate(zip(words, lo)))
    if any(toks[x][6].strip() == "&" for x in run[1:]):
        surface = sentence[toks[run[0]][1]:toks[run[-1]][2]]  # the ampersand kept: "Marks & Spencer"
    # a middle initial keeps its stop, as the text writes it: "Nathaniel J. Smith", "Paul E. McKenney"
    surface = re.sub(r"(?<= [A-Z])(?= )", lambda m: "." if any(
        toks[x][6].strip() == "." and len(toks[x - 1][0]) == 1 for x in run[1:]) else "", surface)
    initial = start == 0 and toks[run[0]][3]
    votes: Counter = Counter()
    head = lo[lo.index("of") - 1] if "of" in lo[1:] else lo[-1]
    if titled and (any(w in CONNECTORS for w in lo) or len(words) > 4):
        titled = False  # "General Terms of Use" is no one's name
    if any(w in ORG_WORDS for w in lo) and (head in ORG_WORDS or lo[-1] in ORG_WORDS):
        votes["organization"] += 3
    elif head in GEO_WORDS:
        votes["geo"] += 3
    elif head in EVENT_WORDS:
        votes["event"] += 3
    elif titled or role_cut:
        votes["geo" if lo[0] in ("st", "saint") and lo[-1] in GEO_WORDS else "person"] += 3
    if any(w in FIRST_NAMES for w in lo):
        votes["person"] += 2 if lo[0] in FIRST_NAMES else 1
    if lo[0] in KNOWN_ORGS:
        votes["organization"] += 3
    first, last = run[0], run[-1]
    before = [toks[x][0].lower() for x in range(max(0, first - 2), first)]
    after = [toks[x][0].lower() for x in range(last + 1, min(len(toks), last + 3))]
    if (before and before[-1] in SPEECH) or (len(before) == 2 and before[0] in SPEECH and before[1] == "the") \
            or (after and after[0] in SPEECH):
        votes["person"] += 2
    if toks[last][4] and after and after[0] in KIN:
        votes["person"] += 2
    if before and before[-1] in GEO_PREPS and not toks[first][6].strip():
        votes["geo"] += GEO_PREPS[before[-1]]
    if after and after[0] in GEO_WORDS | _PLACE_NOUNS and not toks[last][4] and toks[last + 1][0][:1].islower():
        votes["geo"] += 1.0  # "Dulce base", "Kestrel Creek footbridge"
    follow = sentence[toks[last][2]:toks[last][2] + 40]
    appositive = bool(_APPOSITIVE.match(follow)) and bool(after) and (
        after[0] in ("a", "an", "the") or after[0] in KIN or toks[last + 1][4])
    if appositive:
        votes["person"] += 2 if after and after[0] in KIN else 1
    if any(toks[x][0].lower() in _PRONOUNS for x in range(last + 1, len(toks))):
        votes["person"] += 0.75
    if len(set(lo)) == 1 and len(lo) > 1 and "&" not in surface:  # "Scrooge Scrooge" (not "Johnson & Johnson")
        words, lo = words[:1], lo[:1]
        surface = words[0]
    return Mention(surface, toks[first][1], toks[first][1] + len(surface) if len(lo) == 1 else toks[last][2],
                    initial, strong=len(words) > 1 or lo[0] in KNOWN_ORGS or appositive or _shaped_name(words[0]),
                    votes=dict(votes))


def _shaped_name(word: str) -> bool:
    """One token that is a name by its shape: initials with their stops (U.S.), a name across an
    ampersand (AT&T), a name with its version number (Windows 10), a name opening in lower case
    (iOS, eBay)."""
    return bool(_DOTTED.fullmatch(word)) or "&" in word or bool(re.search(r" \d", word)) \
        or bool(LOWER_CAMEL.fullmatch(word))
