"""Word lists of the offline judge: general English (and a few Chinese) words, not tuned to any
corpus. Negation cues, antonym pairs (polarity), synonym groups (the meaning match), titles that
are not part of a name, written-out numbers, and connectives that introduce a reason or an
inference (a claim that adds one the source does not give is unsupported, not partial). The
word lists are data: core/verify/words/*.txt, one file per list."""
from __future__ import annotations

from pathlib import Path

_WORDS = Path(__file__).parent / "words"


def _lines(name: str) -> list[list[str]]:
    """The lines of words/<name>.txt as lists of words, comments (#) and blank lines left out."""
    text = (_WORDS / f"{name}.txt").read_text(encoding="utf-8")
    return [line.split() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def _words(name: str) -> frozenset[str]:
    return frozenset(w for line in _lines(name) for w in line)


def _phrases(name: str) -> tuple[str, ...]:
    return tuple(" ".join(line) for line in _lines(name))


NEGATIONS = _words("negations")
# Chinese negation characters and words, matched as substrings of a CJK run.
ZH_NEGATIONS = tuple(w for line in _lines("negations_zh") for w in line)
# Characters after a number that join it to another rather than count something ("1 到 10").
ZH_NOT_UNITS = frozenset("到至和或与及的、—–-~～")
# A negation cue with the word after it that negates nothing ("not only", "no doubt", "no
# different than" says "the same", "nothing but"); Chinese words that hold a negation character
# without negating anything (the line opening with "zh").
NOT_NEGATING = {line[0]: frozenset(line[1:]) for line in _lines("not_negating") if line[0] != "zh"}
ZH_NOT_NEGATIONS = tuple(w for line in _lines("not_negating") if line[0] == "zh" for w in line[1:])


def _antonyms() -> dict[str, frozenset[str]]:
    """Each word of antonyms.txt -> its opposites (stems compared after core.text.support.stem)."""
    out: dict[str, set[str]] = {}
    for words in _lines("antonyms"):
        if len(words) != 2:
            continue
        a, b = words
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)
    return {k: frozenset(v) for k, v in out.items()}


ANTONYMS = _antonyms()


def _synonyms() -> dict[str, str]:
    """Each word of synonyms.txt -> its group's head: words of a group count as the same term."""
    from core.text.support import stem
    out: dict[str, str] = {}
    for words in _lines("synonyms"):
        head = stem(words[0]) if words[0].isascii() else words[0]
        for w in words:
            key = stem(w) if w.isascii() else w
            out.setdefault(key, head)
    return out


SYNONYMS = _synonyms()

# Words before a name that are not part of it.
TITLES = _words("titles")
# Capitalised words that start sentences or headings without being names (besides the stop
# words of core.textutil).
NOT_NAMES = _words("not_names")
# Words of a time frame ("this quarter"): context a passage leaves to its surroundings.
TIME_FRAME = _words("time_frame")

# Written-out numbers.
UNITS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
         "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
         "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
         "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
         "seventy": 70, "eighty": 80, "ninety": 90, "dozen": 12, "score": 20}
SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000,
          "trillion": 1_000_000_000_000, "k": 1_000, "m": 1_000_000, "bn": 1_000_000_000}
FRACTIONS = {"half": 0.5, "quarter": 0.25, "third": 1 / 3}
# the denominators of "three-fourths", "two thirds", "three quarters" (a share, like "75%")
DENOMINATORS = {"halves": 2, "thirds": 3, "quarters": 4, "fourths": 4, "fifths": 5, "sixths": 6,
                "eighths": 8, "tenths": 10}
# plurals a stemmer leaves apart from their singular ("two children" counts what "one child" does)
IRREGULAR_PLURALS = {"children": "child", "people": "person", "men": "man", "women": "woman",
                     "feet": "foot", "teeth": "tooth", "mice": "mouse", "geese": "goose"}
# what a duration counts, in days: "twelve months" is "a year", "18 months" is not "two years"
DURATIONS = {"minut": 1 / 1440, "hour": 1 / 24, "day": 1.0, "week": 7.0, "month": 30.4375, "year": 365.25,
             "decad": 3652.5, "centuri": 36525.0}
# words between a count and what it counts ("two other women", "three more calls")
COUNT_ADJECTIVES = frozenset({"other", "more", "fewer", "less", "additional", "extra", "further", "separate", "different",
                              "new", "whole", "full", "entire"})
# Collective numerals: the noun is the group it counts ("the trio moved deeper": three).
COLLECTIVES = {"duo": 2, "trio": 3, "threesome": 3, "quartet": 4, "foursome": 4, "quintet": 5, "sextet": 6}
ZH_DIGITS = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
             "八": 8, "九": 9, "十": 10, "百": 100, "千": 1000, "万": 10_000, "亿": 100_000_000}

# Connectives that introduce a reason, purpose, inference or consequence.
# Words by which a text says one thing follows from another (a claim's reason or inference needs one).
CAUSE_CUE = __import__("re").compile(
    r"\b(?:because|since|so|thus|therefore|hence|consequently|driven|drive|drives|due|thanks|owing|courtesy|"
    r"result|results|resulted|resulting|lead|leads|led|cause|causes|caused|reason|reasons|why|how|made|make|"
    r"makes|means|meant|mean|shows|showed|show|proves|proved|prove|indicates|suggests|given|enabled|enables|"
    r"helped|helps|fueled|fuelled|reflecting|reflects|behind|order)\b|[;,]\s*for\b|因为|由于|所以|因此|导致|使得|从而",
    __import__("re").I)
# Phrases by which a sentence draws an inference.
INFERENCE = _phrases("inference")
CAUSAL: tuple[str, ...] = _phrases("causal")
CAUSAL = CAUSAL + tuple(c for c in INFERENCE if c not in CAUSAL)  # every inference is a reason clause too
