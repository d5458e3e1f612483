"""Names written in lower case, the way technical text writes tools, packages and models
("lancedb", "mypy", "gpt-4o", "ollama"). A lower-case word that is no English word is a name
where the text shows it is one:
- it is the whole text of a link ("[ollama](https://ollama.com/)");
- it stands in a list beside another name ("gpt-4o, gpt-4o-mini, and o1", "distutils/setuptools",
  "the built-in lancedb, Azure AI Search, and CosmosDB");
- it is an example after "such as", "like", "including" or "examples include" ("type checkers
  such as mypy");
- written as code, it follows a name's possessive ("Go's ``gorun``");
- a kind of software follows it, or an apposition or a copula naming one ("the tomlkit library",
  "the nogil fork", "mimalloc, a general-purpose thread-safe allocator", "graphml is a standard
  file format"), or comes before it ("a third package, threadpoolctl");
- it is one of a field's values written "a|b|c" ("lancedb|azure_ai_search|cosmosdb"), a type's
  name ("str|None") aside;
- it is named as a mailing list is ("python-dev", "distutils-sig");
- in a code block, it is the value a configuration line gives a key ("model: gpt-4.1",
  "type: lancedb", 'provider = "ollama"'): config_values.
Anywhere else the same word may be a command, a key or a file, and it is left alone. Code
identifiers (with "_", a call's "(", an option's "--") and paths never qualify."""
from __future__ import annotations

import re
from typing import Sequence

from core.text.wordnet import english_word
from core.textutil import ABBREVIATIONS, STOPWORDS

# a lower-case word, maybe with digits and inner "-" or "." ("gpt-4o", "pytest-cov", "settings.yaml"),
# not part of an identifier, a path, an address or an option
_TOKEN = re.compile(r"(?<![\w.@:#$%\\-])[a-z][a-z0-9]*(?:[-.][a-z0-9]+)*(?![\w(@\\]|=(?!=\s*\d)|[-.:][\w])")
# a pinned version right after: "numpy==1.7", "pbr>=1.8": a package, whatever its word
_PIN = re.compile(r"\s*(?:==|>=|<=|~=|!=)\s*\d")
# a name made the head of a compound: "an isolated virtualenv-like environment", "a conda-based setup"
_COMPOUND = re.compile(r"(?P<head>[a-z][a-z0-9]*)-(?:like|specific|based|compatible|powered|managed|"
                       r"or-equivalent|equivalent)")
_PATH = re.compile(r"\S*/\S*/\S*|(?<!\S)\.?/\S+|\S+/(?=\s|$)")  # paths and addresses, masked: "./ragtest", "a/b/c"
_GAP = r"(?:\s*,\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+|\s*/\s*)"
_NEXT = re.compile(_GAP + r"(?P<w>[\w.-]+)")
_PREV = re.compile(r"(?P<w>[\w.-]+)" + _GAP + r"$")
_EXAMPLE_CUE = r"(?:\bsuch as|\blike|\bincluding|\bexamples? includes?|\be\.g\.,?|\bfor (?:example|instance),)\s+$"
_EXAMPLE = re.compile(_EXAMPLE_CUE, re.I)
_ABBREVIATION = re.compile(r"(?:[a-z]\.)+[a-z]?")  # "e.g", "i.e"
_ENUM = re.compile(r"(?<![\w|])[\w.\[\]-]+(?:\|[\w.\[\]-]+)+(?![\w|])")  # "file|memory|blob|cosmosdb"
# the names of value types, which a field's description gives ("**dict[str, Any]**", "str|None")
TYPE_WORDS = frozenset("str int bool dict float bytes tuple list set any none null optional union obj num bigint varchar uuid".split())
# a YAML or TOML line giving a key one plain value: "  model: gpt-4.1", 'backend = "ollama"'
_CONFIG = re.compile(r"^[ \t]*(?:-[ \t]+)?[\"']?[A-Za-z_][\w.-]*[\"']?[ \t]*"
                     r"(?::[ \t]*(?P<q1>[\"']?)(?P<v1>[a-z][a-z0-9]*(?:[-.][a-z0-9]+)*)(?P=q1)"
                     r"|=[ \t]*(?P<q2>[\"'])(?P<v2>[a-z][a-z0-9]*(?:[-.][a-z0-9]+)*)(?P=q2))[ \t]*,?[ \t]*(?:#.*)?$", re.M)
_KINDS = (r"(?:librar(?:y|ies)|packages?|tools?|utilit(?:y|ies)|apps?|applications?|modules?|frameworks?|allocators?|databases?|plugins?|plug-ins?|"
          r"extensions?|clients?|servers?|backends?|compilers?|interpreters?|linters?|formatters?|forks?|"
          r"distributions?|services?|sdks?|runtimes?|engines?|commands?|projects?|models?|providers?|"
          r"formats?|protocols?|languages?|mailing lists?|repos?|repositor(?:y|ies))\b")
_KIND_AFTER = re.compile(r"[\"'\u201d\u2019]?(?:\s+" + _KINDS + r"|(?:,|\s+(?:is|was))\s+an?\s+(?:[\w-]+\s+){0,3}"
                         + _KINDS + ")")
# an example of a kind of software: "an external tool such as apt", "package managers like conda"
_KIND_EXAMPLE = re.compile(r"\b" + _KINDS + r",?\s+" + _EXAMPLE_CUE, re.I)
# a name's possessive right before: "Go's ``gorun``", "Python's ``venv``"
_OWNER = re.compile(r"(?<![\w.])[A-Z][\w.+#-]*['\u2019]s\s+$")
# the kind before the name: "the package threadpoolctl", "a third package, ``threadpoolctl``"
_KIND_BEFORE = re.compile(r"\b" + _KINDS + r",?\s+[\"'\u201c\u2018]?$")
# a package manager's install line: "pip install graphrag", "npm i -D vitest", "brew install uv"
_INSTALL = re.compile(r"\b(?:pip3?|npm|pnpm|yarn|apt(?:-get)?|brew|conda|mamba|gem|cargo|pipx|poetry|uv(?: pip)?)"
                      r" +(?:install|add|i)\b(?: +-{1,2}[\w-]+(?:=\S+)?)*(?: +[\w.-]+==?[\w.]+)*"
                      r" +(?P<pkg>[a-z][a-z0-9]*(?:[-._][a-z0-9]+)*)(?=[\s\[<>=!~;,\"']|$)", re.M)
# a list of requirements ('dependencies = [', 'requires = ["flit"]') and each one in it: '"httpx"',
# '"gidgethub[httpx]>4.0.0"', "\"django>2.1; os_name != 'nt'\""
_REQUIREMENTS = re.compile(r"[\w-]*(?:requires|dependencies|requirements)[\w-]*[\"']?[ \t]*[=:][ \t]*\["
                           r"(?P<body>(?:[^\]\"']|\"[^\"\n]*\"|'[^'\n]*')*)\]")
_REQUIREMENT = re.compile(r"(?P<q>[\"'])(?P<pkg>[a-z][a-z0-9]*(?:[-._][a-z0-9]+)*)(?:\[[\w,-]+\])?[ \t]*"
                          r"(?:(?:[<>=!~]=?|;)[^\n]*?)?(?P=q)")
# a mailing list, named as open-source projects name theirs: "python-dev", "distutils-sig", "typing-sig"
_MAILING_LIST = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*-(?:sig|dev|devel|ideas|users|announce|committers|discuss)")
_FILE_NAME = re.compile(r".+\.[a-z]{2,5}")  # "settings.yaml", "hatchling.build": a file or a module, no product


_MADE = ("s", "or", "ors", "able", "ables", "ter", "ters", "less")  # "linters", "iterator", "awaitables", "windowless"
_PREFIXES = ("multi", "non", "pre", "post", "anti", "sub", "inter", "cross", "semi", "co", "re", "un", "self")  # "multi-cloud"
_ARCHAIC = ("thy", "thee", "thou", "thine", "hath", "doth", "ye", "amongst", "whilst", "unto", "etc", "al")  # no names, and no words WordNet holds


def _english(part: str) -> bool:
    """An English word, or one made from one by a plural or an agent's or ability's ending."""
    return english_word(part) or part in ABBREVIATIONS or part in _ARCHAIC or any(
        part.endswith(suf) and len(part) - len(suf) >= 3 and (english_word(part[:-len(suf)]) or english_word(part[:-len(suf)] + "e"))
        for suf in _MADE)


def unknown_word(token: str) -> bool:
    """No English word and no stop word: "lancedb", "gpt-4o", "pytest-cov" (a part with a digit
    or one that is no English word), not "built-in" or "e.g"."""
    if len(token) < 2 or token in STOPWORDS or _ABBREVIATION.fullmatch(token):
        return False
    parts = [p for p in re.split(r"[-.]", token) if p]
    if len(parts) > 1 and parts[0] in _PREFIXES and all(_english(p) for p in parts[1:]):
        return False  # "multi-cloud", "non-blocking": an English word with a prefix
    if len(parts) == 1 and any(token.startswith(p) and len(token) - len(p) >= 4 and _english(token[len(p):])
                               for p in _PREFIXES):
        return False  # "unwept", "uncared", "nonblocking": the same, written as one word
    if not any(ch.isalpha() for ch in token):
        return False
    return any(any(ch.isdigit() for ch in p) or (p.isalpha() and not _english(p) and p not in STOPWORDS)
               for p in parts)


def _name_like(word: str, at_start: bool) -> bool:
    """A neighbour in a list that is a name: capitalised where no sentence starts, or a lower-case
    word that is no English word."""
    if word[:1].isupper():
        return not at_start
    return unknown_word(word.lower()) and word.islower()


def lower_names(sentence: str, offset: int, links: Sequence[tuple[int, int]] = (),
                code: Sequence[tuple[int, int]] = ()) -> list[tuple[str, int, int]]:
    """(word, start, end) in the sentence of each lower-case name it shows as one; offset is the
    sentence's start in the text the link and inline code spans are of. An English word written
    as code or a link's text is a name where the text gives it as an example, a kind of software
    or one of a list of names ("installation tools like ``pip``", "the ``wheel`` package", "see
    flit or bento")."""
    out = []
    masked = _PATH.sub(lambda m: " " * len(m.group(0)), sentence)
    enums = [(m.start(), m.end()) for m in _ENUM.finditer(masked)]
    held: list[tuple[str, int, int, tuple[int, int] | None, tuple[int, int] | None]] = []  # code words a list's other name may vouch for
    for m in _TOKEN.finditer(masked):
        word, s, e = m.group(0), m.start(), m.end()
        if word in TYPE_WORDS:
            continue
        compound = _COMPOUND.fullmatch(word)
        if compound is not None and unknown_word(compound.group("head")):
            out.append((compound.group("head"), s, s + len(compound.group("head"))))
            continue
        pinned = _PIN.match(sentence, e) is not None
        if pinned and word not in STOPWORDS and len(word) >= 2:
            out.append((word, s, e))
            continue
        unknown = unknown_word(word)
        mailing = _MAILING_LIST.fullmatch(word) is not None  # "python-dev", "distutils-sig"
        linked = _whole(links, offset, sentence, s, e)
        head = sentence[max(0, s - 60):s]  # the cues before a word sit right before it
        as_code = _whole(code, offset, sentence, s, e)
        english = not unknown and word.replace("-", "").isalpha() and len(word) >= 3 and word not in STOPWORDS
        # an English word names software where it is written as code or linked, and the text
        # gives it as an example, a kind of software or one of a list of names ("see flit or
        # bento", "``apt``, ``dpkg``, ``dnf``"), or where it is given as an example of a kind of
        # software, written as it may be ("an external tool such as apt")
        shown = english and (linked or as_code or _KIND_EXAMPLE.search(head) is not None)
        if not (unknown or shown or mailing):
            continue  # an English word written as prose: no cue makes it a name
        example = _EXAMPLE.search(head) is not None
        kind = _KIND_AFTER.match(sentence, e) is not None or _KIND_BEFORE.search(head) is not None \
            or (as_code and _OWNER.search(head) is not None)  # "Go's ``gorun``": a name's own tool
        after = _NEXT.match(sentence, e)
        before = _PREV.search(head)
        listed = (after is not None and _name_like(after.group("w"), False)) or \
            (before is not None and _name_like(before.group("w"), not sentence[:s - len(head) + before.start("w")].strip()))
        # "``pip``, ``setuptools``, etc.": a word no dictionary holds, written as code beside another
        # written as code (an English word so written is a field or a key as often: ``name``, ``email``)
        listed = listed or (unknown and as_code and (
            (after is not None and _whole(code, offset, sentence, after.start("w"), after.end("w")))
            or (before is not None and _whole(code, offset, sentence, s - len(head) + before.start("w"),
                                              s - len(head) + before.end("w")))))
        if shown and not (example or kind or listed):
            if as_code:  # "e.g. ``pip`` and ``flit``": one of a list of code names vouches for the next
                held.append((word, s, e, (after.start("w"), after.end("w")) if after else None,
                             (s - len(head) + before.start("w"), s - len(head) + before.end("w")) if before else None))
            continue
        enum = any(a <= s and e <= b for a, b in enums)
        if linked or listed or enum or kind or example or mailing:
            out.append((word, s, e))
    found = {(a, b) for _, a, b in out}
    out += [(w, s, e) for w, s, e, nxt, prev in held
            if any(sp is not None and sp in found and _whole(code, offset, sentence, *sp) for sp in (nxt, prev))]
    return sorted(out, key=lambda x: x[1])


def _whole(spans: Sequence[tuple[int, int]], offset: int, sentence: str, s: int, e: int) -> bool:
    """Is sentence[s:e] the whole text of one of the spans (a link's, inline code's), spaces aside?
    The spans are of the text the sentence starts at `offset` of."""
    return any(a <= offset + s and offset + e <= b and not sentence[a - offset:s].strip()
               and not sentence[e:b - offset].strip() for a, b in spans)


def config_values(code: str) -> list[tuple[str, int, int]]:
    """(word, start, end) in a code block of each value a configuration line gives a key that is
    no English word, file or module name ("gpt-4.1", "lancedb"; not "file", "settings.yaml"),
    and of each package a line installs or requires ("pip install graphrag", a pyproject's
    "httpx", "django>2.1; os_name != 'nt'")."""
    out = []
    for m in _CONFIG.finditer(code):
        key = "v1" if m.group("v1") else "v2"
        word = m.group(key)
        if unknown_word(word) and word not in TYPE_WORDS and not _FILE_NAME.fullmatch(word):
            out.append((word, m.start(key), m.end(key)))
    found = [m for m in _INSTALL.finditer(code)]
    for req in _REQUIREMENTS.finditer(code):
        found += _REQUIREMENT.finditer(code, req.start("body"), req.end("body"))
    out += [(m.group("pkg"), m.start("pkg"), m.end("pkg")) for m in found
            if m.group("pkg") not in STOPWORDS and not _FILE_NAME.fullmatch(m.group("pkg"))]
    return sorted(set(out), key=lambda x: x[1])
