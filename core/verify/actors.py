"""Another actor for the same fact: the entity-swap checks of the offline judge.

- Speaker: a sentence saying that someone said, asked, told, joked... ("Amy Hood told Mark that",
  "It was Fred who answered") against the speaker the cited passage gives for the matched words
  ("said Scrooge", "Scrooge replied", "Taylor Cruz's voice", a transcript's "SATYA NADELLA:" label
  governing the sentence). When the passage names its speakers and the sentence's speaker is none
  of them (nor a part of the same full name in the passage), the speaker is contradicted.
- Slot: a name of the sentence that the matched passage does not hold, while another name of the
  passage stands in its place (the same words on either side: "partnership with Oracle" against
  "partnership with SAP", "on Joe Rogan's podcast" against "on Theo Von's podcast").
All word lists are general English; nothing is fitted to a corpus."""
from __future__ import annotations

import functools
import re

from core.text.support import stem
from core.verify import facts as fx
from core.text import wordnet

SPEECH_VERBS = ("said|says|say|told|tells|asked|asks|replied|replies|answered|answers|cried|called|"
                "shouted|exclaimed|remarked|added|noted|joked|jested|quipped|proposed|interjected|"
                "cut in|urged|recalled|explained|declared|announced|admitted|insisted|whispered|"
                "muttered|observed|responded|commented|suggested|argued|warned|praised|thanked|"
                "greeted|wondered|laughed|stated|mentioned|interrupted|demanded|pleaded|begged|mused|murmured|"
                "snapped|retorted|countered|commanded|sighed|mumbled|stammered|yelled|screamed|cautioned|intoned|"
                "growled|hissed|chuckled|grumbled|rejoined|pursued|resumed|continued|inquired|enquired|started|began|went on(?!\\s+to\\b)|"
                "directed|instructed|conceded|assented|acknowledged|reported|confirmed")
# verbs that tag a quotation only when they stand next to it ("...," offered Sam Rivera): before an
# object they say nothing of speech ("MIT offered him more funding")
_TAG_ONLY = "offered|chimed in|piped up"
_VERB = re.compile(rf"(?:{SPEECH_VERBS})\b", re.I)
# "said Scrooge", "cried Mrs. Cratchit": the name right after the verb
_AFTER_VERB = re.compile(rf"\b(?:{SPEECH_VERBS}|{_TAG_ONLY})\s+(?:out\s+|again\s+|the\s+)?(?:old\s+|young\s+|little\s+|poor\s+|dear\s+)?$", re.I)
_VOICE = re.compile(r"^(?:'s|\u2019s)\s+(?:[a-z]+\s+){0,2}voice", re.I)  # "Taylor Cruz's sharp voice"
# a transcript's speaker label at a line's start: "SATYA NADELLA:", "BRENT THILL, Jefferies:"
_LABEL = re.compile(r"(?m)^[ \t]*([A-Z][A-Z.'\u2019\- ]{2,40}?)(?:,[^:\n]{0,40})?:")
LABEL = _LABEL  # a transcript's speaker label ("SATYA NADELLA:", "KARL KEIRSTEAD, UBS:"): group 1 the name
_GAP = re.compile(r"^(?:\s+(?:who|that|then|quickly|quietly|sharply|finally|also|was|is|the|one|of|"
                  r"[A-Z][\w.]*|[a-z]+ly))*\s+$")


def claim_speaker(claim: str, names: list[fx.Name]) -> fx.Name | None:
    """The name the sentence says spoke: followed by a verb of saying, with at most a few
    joining words between ("Karl Keirstead of UBS remarked", "Topper was the one who cried")."""
    for n in names:
        if _speaks(claim, n) or _INVERTED.search(claim[max(0, n.start - 40):n.start]) or _VOICE.match(claim[n.end:]):
            return n
    # the sentence's subject doing one thing and then saying ("Sam Rivera turned on Cruz and
    # insisted", "Taylor Cruz was the one who broke the silence to announce"), within its clause
    for n in names:
        head = re.sub(r"^(?:it\s+was|it\s+is|and|but|then)\s+", "", claim[:n.start].strip().lower())
        if len(head.split()) > 2 or n.initial:
            continue
        m = _SAY.search(claim, n.end, n.end + 70)
        if m and not re.search(r"[,.;:!?\"\u201c\u201d]|\b(?:that|which|because|while|whom)\b", claim[n.end:m.start()]):
            return n
        break
    return None


# the quotation inversion: "'What do you call this?' said Joe", "..., replied the Spirit"
_INVERTED = re.compile(r"['\"\u2019\u201d,!?]\s*(?:said|replied|answered|cried|exclaimed|returned|remarked|"
                       r"added|observed|muttered|whispered|asked|pursued|resumed|rejoined)\s+$", re.I)


def _speaks(text: str, n: fx.Name) -> bool:
    """Is n followed by a verb of saying, a few joining words apart, and not itself the
    affiliation of a name before it ("Thomas Whitlock of Calloway Chemicals said")?"""
    if re.search(r"\b(?:of|from|at|for|with|to)\s+$", text[max(0, n.start - 6):n.start]):
        return False
    rest = text[n.end:]
    aside = _ASIDE.match(rest)  # one aside between commas: "Sam Rivera, surrounded by screens, added"
    if aside and _VERB.match(rest, aside.end()):
        return True
    m = _VERB.search(rest)
    if not m or m.start() > 40:
        return False
    gap = rest[:m.start()]
    if gap.strip() == "" or _GAP.match(gap) or re.fullmatch(r"(?:'s|\u2019s)?\s+\w+\s+\w+\s+", gap) \
            or _THEN.fullmatch(gap):
        return not ("," in gap or "." in gap.replace("Mr.", "").replace("Mrs.", "").replace("Dr.", ""))
    return False


# verbs of saying in any form, for a subject's later verb ("broke the silence to announce")
_SAY = re.compile(r"\b(?:say|says|said|tell|tells|told|ask|asks|asked|repl(?:y|ies|ied)|answer(?:s|ed)?|"
                  r"announc(?:e|es|ed)|insist(?:s|ed)?|declar(?:e|es|ed)|explain(?:s|ed)?|suggest(?:s|ed)?|"
                  r"warn(?:s|ed)?|admit(?:s|ted)?|argu(?:e|es|ed)|remark(?:s|ed)?|recall(?:s|ed)?|"
                  r"propos(?:e|es|ed)|urg(?:e|es|ed)|respond(?:s|ed)?|exclaim(?:s|ed)?|cr(?:y|ies|ied)|"
                  r"shout(?:s|ed)?|whisper(?:s|ed)?|mutter(?:s|ed)?|snap(?:s|ped)|point(?:s|ed)? out|"
                  r"saying|telling|asking|replying|answering|announcing|insisting|declaring|explaining|"
                  r"suggesting|warning|crying|shouting|whispering|calling out|direct(?:s|ed)|order(?:s|ed))\b", re.I)
_ASIDE = re.compile(r",\s+(?!and\b|or\b|but\b)[^,.;:!?\"\u201c\u201d'\n]{3,80},\s+")


# "Taylor Cruz walked over and quietly asked": one act, then the saying
_THEN = re.compile(r"\s+[a-z]+ed(?:\s+(?:over|up|in|out|back|forward|closer|away|around|down))?\s+and\s+(?:[a-z]+ly\s+)?")

_PRONOUN_SPEAKER = re.compile(rf"\b(?:he|she|they|I|we)\s+(?:\w+ly\s+)?(?:{SPEECH_VERBS})\b"
                              rf"|\b(?:{SPEECH_VERBS})\s+(?:he|she|they)\b", re.I)


def opening_name(text: str, lo: int, hi: int) -> tuple[str, int, int] | None:
    """(name, start, end) of the name a sentence opens with (its subject: among its first three
    words, "Alex Mercer approached ...", "Then Sam said"), or None."""
    piece = text[lo:hi]
    for n in fx.names(piece):
        if len(piece[:n.start].split()) > 2:
            return None
        if not n.initial or len(n.words) > 1 or _speaks(piece, n) or re.match(r"\s*(?:,|\w+(?:ed|s)\b)", piece[n.end:]):
            return (n.surface, lo + n.start, lo + n.end)
    return None


def unnamed_speaker(sentence: str) -> bool:
    """Does the sentence give a speaker by a pronoun only ("At last she said", "cried he")?"""
    return bool(_PRONOUN_SPEAKER.search(sentence))


def passage_speakers(text: str, lo: int, hi: int, labels: bool = True) -> list[tuple[str, int, int]]:
    """(name, start, end) of the speakers the passage gives between lo and hi, and (labels) the
    transcript label that governs lo (the last one before it)."""
    out = []
    piece = text[lo:hi]
    for n in fx.names(piece):
        before, after = piece[:n.start], piece[n.end:]
        if re.search(r"\b(?:of|from|at|for|with|to)\s+$", before[-6:]):
            continue  # an affiliation, not the speaker: "Thomas Whitlock of Calloway Chemicals said"
        if _AFTER_VERB.search(before[-30:]) or _speaks(piece, n) or _VOICE.match(after):
            out.append((n.surface, lo + n.start, lo + n.end))
    # the last label at the sentence's start or before it; a label inside the sentence only when
    # none comes before (a sentence run on past an interruption, "... a little 13-inch --\nSAM
    # ALTMAN: Totally.", was said by the one before the label)
    label = None
    for m in _LABEL.finditer(text, 0, hi) if labels else ():
        if m.start() <= max(lo, 0) + 2:
            label = m
        elif label is None:
            label = m
            break
    if label is not None and any(c.islower() for c in label.group(1)) is False:
        out.append((label.group(1).strip().title(), label.start(1), label.start(1) + len(label.group(1).strip())))
    return out


_TITLES = frozenset("mr mrs ms miss dr sir madam lady lord old young mister master st".split())


_WIFE = re.compile(r"(?:Mrs|Miss|Ms)\b\.?", re.I)


def same_person(a: tuple[str, ...], b: tuple[str, ...], text: str, a_surface: str = "") -> bool:
    """Do two names denote one person: a shared word, or one full name of the text holding a word
    of each ("Alex" and "Mercer" in "Alex Mercer"; but "Mrs. Cratchit", a_surface, is not the
    "Bob" of "Bob Cratchit")?"""
    if set(a) & set(b):
        # two full names that differ in their last word are two people ("Kevin Scott" and
        # "Kevin Roose"), unless one is a title and a name ("Mr. Fezziwig")
        full = [x for x in (a, b) if len([w for w in x if w not in _TITLES]) >= 2]
        return not (len(full) == 2 and a[-1] != b[-1])
    wife = bool(_WIFE.match(a_surface))
    for n in fx.names(text):
        w = set(n.words)
        if w & set(a) and w & set(b) and not (wife and not _WIFE.match(n.surface)):
            return True
    return False


def _words(text: str) -> list[tuple[str, int, int]]:
    return [(_norm(m.group(0).lower()), m.start(), m.end())
            for m in re.finditer(r"[A-Za-z0-9\u00c0-\u024f]+|[\u3400-\u9fff]", text)]  # a CJK character is a word


@functools.lru_cache(maxsize=65536)
def _norm(word: str) -> str:
    """A word as a slot compares it: its base form ("chose": choose, "using": use), stemmed, in
    its synonym group's term ("picked" and "chose" are one)."""
    bases = wordnet.bases_of(word) if word.isalpha() else ()
    base = next((b for b, pos in bases if pos == "v"), bases[0][0] if bases else word)
    return fx.canon(stem(base))


# a short aside after a name says nothing of its slot ("Mercedes-Benz, for example, is
# bringing"), nor does the "who" of a cleft or a relative ("It was Jordan who stepped back")
_SHORT_ASIDE = re.compile(r"\s*,\s*(?:[a-z]+\s+){0,2}[a-z]+\s*,|\s+who\b", re.I)


# a sentence's end: its stop before a line break or a capital ("Mr." and the like are none)
_STOP = re.compile(r"(?<!\bMr)(?<!\bMrs)(?<!\bMs)(?<!\bDr)(?<!\bSt)[.!?][\"'\u201d\u2019)]*(?:[ \t]*\n|\s+(?=[A-Z]))")


def context(text: str, start: int, end: int, k: int = 2) -> tuple[list[str], list[str]]:
    """k words before start and after end within the name's sentence (a possessive 's dropped, a
    short aside skipped): "Ben Harrow.\nAlso present:" puts no name before "also present"."""
    lo = max(0, start - 60)
    last = None
    for last in _STOP.finditer(text, lo, start):  # noqa: B007 (the last match is what is kept)
        pass
    before = [w for w, _, e in _words(text[last.end() if last else lo:start])][-k:]
    aside = _SHORT_ASIDE.match(text, end, end + 40)
    end = aside.end() if aside else end
    stop = _STOP.search(text, end, end + 60)
    after = [w for w, _, _ in _words(text[end:stop.start() + 1 if stop else end + 60]) if w not in ("s",)][:k]
    return before, after


def slot_swap(claim: str, n: fx.Name, window_text: str, claim_words: set[str], known=None) -> fx.Name | None:
    """Another name of the window standing where the sentence puts n: at least two of the two
    words on either side the same, one of them next to the name. A one-word name opening a
    sentence counts only when known(words) says the text writes it as a name elsewhere."""
    cb, ca = context(claim, n.start, n.end)
    for m in fx.names(window_text):
        capitals = sum(ch.isupper() for ch in m.surface) >= 2  # "AT&T", "IBM": a name even first
        if set(m.words) & claim_words or (m.initial and len(m.words) == 1 and not capitals
                                          and not (known and known(m.words))):
            continue
        if same_slot((cb, ca), context(window_text, m.start, m.end)):
            return m
    return None


def same_slot(here: tuple[list[str], list[str]], there: tuple[list[str], list[str]]) -> bool:
    """Two (before, after) word contexts are one slot: at least two of the words the same, one of
    them next to the name."""
    (cb, ca), (wb, wa) = here, there
    shared = len(set(cb) & set(wb)) + len(set(ca) & set(wa))
    return shared >= 2 and bool((cb and wb and cb[-1] == wb[-1]) or (ca and wa and ca[0] == wa[0]))


_SYMMETRIC = re.compile(r"^[\s,\u3001\uff0c]*(?:and|or|&|with|vs\.?|versus|\u548c|\u4e0e|\u53ca|\u540c|\u8ddf)?[\s,\u3001\uff0c]*$", re.I)


def role_reversal(claim: str, a: fx.Name, b: fx.Name, text: str) -> tuple[fx.Name, fx.Name] | None:
    """Two names of the sentence that trade places in the passage ("X 于 2016 年被 Y 收购" against
    "Y ... 被 X 收购"; "Nuance acquired Microsoft"): each stands in the other's slot (two of the
    two words either side the same, one next to it). Names joined by "and", "or", "with" or a
    comma alone say nothing by their order. Returns the passage's names in a's and b's slots."""
    if a.start > b.start:
        a, b = b, a
    if _SYMMETRIC.match(claim[a.end:b.start]):
        return None
    found = fx.names(text)
    def slot(n: fx.Name, words: tuple[str, ...]) -> fx.Name | None:
        cb, ca = context(claim, n.start, n.end)
        for m in found:
            if m.words != words:
                continue
            if same_slot((cb, ca), context(text, m.start, m.end)):
                return m
        return None
    in_a, in_b = slot(a, b.words), slot(b, a.words)
    if in_a is None or in_b is None:
        return None
    if slot(a, a.words) is not None and slot(b, b.words) is not None:
        return None  # each also stands in its own place ("Mrs. Cratchit kissed him, ... the two
        # young Cratchits kissed him"): a parallel, not a reversal
    return in_a, in_b


_PRED_STOP = re.compile(r"[;:!?.]|,\s*(?:and|but|while|whereas|which|who)\b|\s(?:while|whereas)\s")


def _predicate(text: str, start: int, k: int = 4) -> list[tuple[str, int]]:
    """(slot word, position) of the first k content words from start to the clause's end: what a
    sentence says its name does ("will use Azure to take its autonomous driving platform")."""
    stop = _PRED_STOP.search(text, start, start + 160)
    piece_end = stop.start() if stop else min(len(text), start + 160)
    out = []
    for m in re.finditer(r"[A-Za-z\u00c0-\u024f]+", text[start:piece_end]):
        raw = m.group(0).lower()
        if len(raw) > 2 and raw not in _PRED_SKIP:
            out.append((_norm(raw), start + m.start()))
            if len(out) == k:
                break
    return out


_PRED_SKIP = frozenset(w for w in (
    "the a an and or of to in on at for with by from is was are were be been being has have had "
    "will would can could may might shall should do does did not its his her their our your my "
    "this that these those it they he she we you i one who whom which then also just only "
    "went go going come came get got make made take took too very").split())


_CLEFT = re.compile(r"(?:,[^,.;]{3,90},)?\s+(?:is|was)\s+the\s+one\s+who\s|\s+who\s(?=\s*[a-z]+ed\b)")
_AUX = frozenset("is was are were has had have will would can could may might shall should does did "
                 "also then later".split())


def opens_predicate(word: str) -> bool:
    """Does the word after a name open its predicate: an auxiliary or a verb form?"""
    return word in _AUX or any(pos == "v" for _, pos in wordnet.bases_of(word)) and (
        word.endswith(("ed", "s")) or word in ("ran", "went", "took", "made", "led", "sang", "got", "left", "came", "saw"))


def _doer(names: list[fx.Name], at: int) -> fx.Name | None:
    """The last of the passage's names ending before at (an initial alone is none)."""
    before = [m for m in names if m.end <= at and not (m.initial and len(m.words) == 1)]
    return before[-1] if before else None


def predicate_holder(claim: str, n: fx.Name, text: str, claim_words: set[str]) -> fx.Name | None:
    """Another name of the passage that does what the sentence says n does: the sentence's
    first content words after n (two or more of them, within eight words of each other) found
    in the passage right after that other name, n nowhere before them in the passage's clause
    ("Box will use Azure to take its autonomous driving platform worldwide" against "And Baidu
    will use Azure to take its autonomous driving platform worldwide")."""
    if re.search(r"[A-Z][\w.&'\u2019-]*\s*(?:,|\band|\bor|&)\s*$", claim[max(0, n.start - 40):n.start]):
        return None  # one of a list ("Bayer, KPMG and Unilever are using"): the list does it
    cleft = _CLEFT.match(claim, n.end)  # "X is the one who discovered", "It was X who declared"
    aside = _SHORT_ASIDE.match(claim, n.end, n.end + 40)
    start = cleft.end() - 1 if cleft else aside.end() if aside else n.end
    first = re.match(r"\s+([a-z]+)", claim[start:start + 30])
    if first is None or not opens_predicate(first.group(1)):
        return None  # n is no subject here ("using HoloLens to ...")
    pred = _predicate(claim, start)
    if len(pred) < 2:
        return None
    want = [w for w, _ in pred]
    toks = _words(text)
    found = []  # (words of the predicate met, where)
    for i, (w, a, _) in enumerate(toks):
        span = {x for x, _, _ in toks[i:i + 8]}
        if w != want[0] and not (w == want[1] and want[0] not in span):
            continue  # from the predicate's first word (its second where the first is not said)
        got = span & set(want)
        if len(got) >= min(3, len(want)):
            found.append((len(got), a))
    if not found:
        return None
    most = max(k for k, _ in found)
    names = fx.names(text)
    doers = [_doer(names, a) for k, a in found if k == most]
    if any(d is not None and set(d.words) == set(n.words) for d in doers):
        return None  # the passage says it of n too ("Mrs. Cratchit kissed him, ..., the two young
        # Cratchits kissed him"): others doing it as well is no swap
    at = next(a for k, a in found if k == most)
    m = doers[0]
    if m is None:
        return None
    between = text[m.end:at]
    relative = re.fullmatch(r",\s+who\s+", between) is not None  # "Bruno Olshausen, who discovered"
    if at - m.end > 60 or not relative and (re.search(r"[.;:!?,]", between) or len(between.split()) > 4):
        return None
    titled = bool(_WIFE.match(m.surface)) != bool(_WIFE.match(n.surface))  # "Mrs. Cratchit", "Bob Cratchit"
    if set(m.words) & set(n.words) and not titled:
        return None
    if set(m.words) & claim_words and not titled:
        # a name the sentence gives too does this only if the sentence does not say so of it
        # ("Box will use ..., while Baidu plans to bring ...": the passage's two, traded)
        other = next((x for x in fx.names(claim) if set(x.words) & set(m.words)), None)
        if other is None or len({w for w, _ in _predicate(claim, other.end)} & set(want)) >= 2:
            return None
    # n nowhere in the passage's clause before the predicate (a relative clause's is its own name's)
    lo = m.start if relative else max([text.rfind(ch, 0, m.start) for ch in (".", "!", "?", ";", "\n\n")] + [0])
    own = [w for w in n.words if w not in m.words] or list(n.words)
    if any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text[lo:at], re.I) for w in own):
        return None
    return m
