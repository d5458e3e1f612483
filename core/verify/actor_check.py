"""The offline judge's actor checks (core.verify.offline): another person for the same fact.
Two of the sentence's names trading places; a speaker the passage does not give (its own
attribution, the sentence leading into its quotation, a pronoun's antecedent); a role the cited
text gives someone else by apposition; a first-person passage under another speaker's transcript
label. Each returns the name facts it finds; one marked `replaces` stands for an earlier finding on
the same name. `c` and `a` are the judge's claim and alignment records."""
from __future__ import annotations

import re

from core.verify import actors
from core.verify import align as al
from core.verify import facts as fx
from core.verify import roles
from core.verify.align import Source
from core.verify.verdict import Fact, Span

_WORDS = re.compile(r"[a-z0-9\u00c0-\u024f]+")


def check_reversal(c, a, prior: tuple[Fact, ...], aligned: float) -> list[Fact]:
    """Two names of the sentence that trade places in the matched sentence -> contradicted
    (core.verify.actors.role_reversal)."""
    if not (a.strong or a.score >= aligned) or any(f.kind == "name" and f.status != "found" for f in prior):
        return []
    text = a.src.text[a.best.start:a.best.end]
    named = [n for n in c.found_names if not n.initial and all(w in a.best.words for w in n.words)]
    for x, y in zip(named, named[1:]):
        if x.words == y.words:
            continue
        hit = actors.role_reversal(c.claim, x, y, text)
        if hit is not None:
            return [Fact("name", x.surface, "contradicted", f"the source puts {y.surface} in its place",
                         evidence=a.src.span(a.best.start + hit[0].start, a.best.start + hit[0].end))]
    return []


def check_speaker(c, a, prior: tuple[Fact, ...], absent: set[str]) -> list[Fact]:
    """The sentence says someone said it, the passage gives another speaker -> contradicted."""
    speaker = actors.claim_speaker(c.claim, [n for n in c.found_names if n.surface not in absent])
    if speaker is None or not a.strong or any(f.text == speaker.surface and f.status == "contradicted"
                                              and not f.note.startswith("the source names ") for f in prior):
        return []  # (the passage's speaker says better who it is than another name of the passage)
    src, i = a.src, a.i
    # the matched sentence's own attribution; else the one before it ("'Mr. Scrooge!' said
    # Bob; 'I'll give you...'" goes on with Bob's words); else the one after it
    given = actors.passage_speakers(src.text, a.best.start, a.best.end)
    if not given and actors.unnamed_speaker(src.text[a.best.start:a.best.end]):
        # '"Status report, Dr. Hayes?" he inquired': he is who the sentences before open with
        # ("Alex Mercer approached ..."), the nearest of the two before it that opens with a name
        given = _antecedent(src, i)
    if not given:
        # a quotation the matched sentence opens or continues: who leads into it speaks it, not
        # the speaker of the sentence before ("Taylor Cruz asked ... Alex flickered a strained
        # smile. \"Of course not, Agent Cruz.\"")
        given = _quote_antecedent(src, i)
        lead = actors.opening_name(src.text, a.best.start, a.best.end)
        if not given and lead is not None and i + 1 < len(src.sents) and not _QUOTE.search(src.text[a.best.start:a.best.end]) \
                and _QUOTE.match(src.text[src.sents[i + 1].start:src.sents[i + 1].end].lstrip()):
            given = [lead]  # the matched sentence leads into the quotation after it
    for j in (i - 1, i + 1):
        if not given and 0 <= j < len(src.sents) and src.sents[j].start >= src.lead:
            if j == i - 1 and actors.unnamed_speaker(src.text[src.sents[j].start:src.sents[j].end]):
                # "At last she said: 'I have known him walk ...'": a speaker, named (if at all)
                # by the sentence before that one
                given = _antecedent(src, j)
                break
            # (the next sentence's transcript label opens the next turn: another speaker's words)
            given = actors.passage_speakers(src.text, src.sents[j].start, src.sents[j].end, labels=j < i)
    label = None
    if not given and not actors.LABEL.search(src.text, 0, a.best.start) and any(
            actors.same_person(speaker.words, _words(s), s, speaker.surface)
            for s in c.names.speakers_of(src.unit.get("document_id"))):
        # a transcript unit that opens mid-turn: the turn's label is in a unit before it. Only
        # for a sentence whose speaker speaks in this transcript ("Microsoft said", "Atrium
        # Health says" name whom the speakers speak for or of)
        label = c.names.speaker_before(src.unit)
    if label is not None:
        name, where = label
        if actors.same_person(speaker.words, _words(name), where.text, speaker.surface):
            return [Fact("name", speaker.surface, "found", f"the speaker: the transcript's label {where.text} "
                         "before the cited passage", evidence=where, replaces=True)]
        given = [(name, -1, -1)]
    if given and not any(actors.same_person(speaker.words, _words(g), src.text,
                                            speaker.surface) for g, _, _ in given):
        g, lo, hi = given[0]
        return [Fact("name", speaker.surface, "contradicted", f"the source gives {g} as the speaker",
                     evidence=label[1] if label is not None else src.span(lo, hi), replaces=True)]
    return []


def _words(name: str) -> tuple[str, ...]:
    """A speaker's name as the words same_person compares ("Dr. Hayes": dr, hayes)."""
    return tuple(name.lower().replace(".", " ").split())


_QUOTE = re.compile(r"[\"\u201c\u201d]")


def _quote_antecedent(src, i: int) -> list[tuple[str, int, int]]:
    """The speaker of a quotation the matched sentence is part of: the name opening the sentence
    of the same paragraph that leads into the quotation ("Alex pivoted on his heel ... \"This
    isn't mysticism, Cruz. It's a hypothesis ...\""), at most three sentences before it."""
    para = src.text.rfind("\n\n", 0, src.sents[i].start)
    for j in (i - 1, i - 2, i - 3):
        if j < 0 or src.sents[j].start < max(src.lead, para):
            break
        got = actors.opening_name(src.text, src.sents[j].start, src.sents[j].end)
        quoted = _QUOTE.search(src.text[src.sents[j].start:src.sents[j].end]) is not None
        if got is None and not quoted and _QUOTE.search(src.text[src.sents[j].end:src.sents[j + 1].end]):
            # the sentence leading into the quotation names one person ("A hint of a smile
            # touched Jordan's face ... \"Understood. I'm balancing ...\"")
            named = [n for n in fx.names(src.text[src.sents[j].start:src.sents[j].end]) if not n.initial]
            if len(named) == 1:
                got = (named[0].surface, src.sents[j].start + named[0].start, src.sents[j].start + named[0].end)
        if got is not None:
            between = src.text[src.sents[j].end:src.sents[i].end]
            return [got] if _QUOTE.search(between) and not quoted else []
    return []


def _antecedent(src, i: int) -> list[tuple[str, int, int]]:
    """The speaker a pronoun of sentence i stands for: the name one of the two sentences before
    it opens with (the nearer first), within the cited text; [] when neither opens with one."""
    for j in (i - 1, i - 2):
        if 0 <= j and src.sents[j].start >= src.lead:
            got = actors.opening_name(src.text, src.sents[j].start, src.sents[j].end) \
                or next(iter(actors.passage_speakers(src.text, src.sents[j].start, src.sents[j].end)), None)
            if got is not None:  # (or one who speaks there: "Taylor Cruz's sharp voice cut through")
                return [got]
    return []


_FIRST_PERSON = re.compile(r"\bI(?:['\u2019](?:m|ve|d|ll))?\b(?!['\u2019]\w)|\bI(?=['\u2019](?:m|ve|d|ll)\b)")  # "I" as the one who acts


def check_first_person(c, a, prior: tuple[Fact, ...], absent: set[str]) -> list[Fact]:
    """The sentence's actor is a person the transcript's speaker label does not name, where the
    matched sentence says what it says in the first person ("Kevin Scott bought a Tandy clone"
    against "CHRIS URMSON: ... I bought some kind of Tandy x86 clone") -> contradicted."""
    if not a.strong or any(f.kind == "name" and f.status in ("contradicted", "absent") for f in prior):
        return []
    actor = next((n for n in c.found_names if not n.initial and n.surface not in absent
                  and al.is_actor(c.claim, n)), None)
    piece = a.src.text[a.best.start:a.best.end]
    if actor is None or not _FIRST_PERSON.search(piece) or any(w in a.best.words for w in actor.words):
        return []
    label = None
    for m in actors.LABEL.finditer(a.src.text, 0, a.best.start + 1):
        label = m
    if label is None or a.src.text[label.start(1):a.best.start].count("\n\n") > 3:
        return []
    given = label.group(1).strip()
    words = tuple(_WORDS.findall(given.lower()))
    if not words or actors.same_person(actor.words, words, a.src.text):
        return []
    return [Fact("name", actor.surface, "contradicted", f"the source gives {given.title()} as the one who says it",
                 evidence=a.src.span(label.start(1), label.start(1) + len(given)), replaces=True)]


def check_role(c, prior: tuple[Fact, ...]) -> list[Fact]:
    """A role the cited text gives another person by apposition ("I'm your host, Kevin Scott")."""
    role = _role_holder(c.claim, c.sources)
    if role is not None and not any(f.text == role[0] and f.status in ("contradicted", "absent") for f in prior):
        return [Fact("name", role[0], "contradicted", role[1], evidence=role[2], replaces=True)]
    return []


def _role_holder(claim: str, sources: list[Source]) -> tuple[str, str, Span] | None:
    """(the sentence's name, the reason, the source's role-and-name span) when the cited text
    gives the sentence's role for that name only to someone else (core.verify.roles)."""
    texts = [s.text for s in sources]
    hit = roles.other_holder(claim, "\n".join(texts))
    if hit is None:
        return None
    name, b = hit
    at = 0
    for src, text in zip(sources, texts):
        if at <= b.start < at + len(text):
            lo, hi = min(b.start, b.name.start) - at, max(b.end, b.name.end) - at
            return name.surface, f"the source gives {b.name.surface} as the {src.text[b.start - at:b.end - at]}", src.span(lo, hi)
        at += len(text) + 1
    return None
