"""A role held by another person: the sentence gives a person a role ("Christina Warren is the
host", "His dad, Kevin, is an engineer") that the cited text gives someone else by apposition
("I'm your host, Kevin Scott", "My dad, Perch, who is a chemical engineer").

A binding is a name and a role phrase next to it: "NAME is/was (the|a|an|...) ROLE", "NAME, the
ROLE" and "(the|a|my|your|...) ROLE, NAME". The role phrase runs to the first "of", "at", "for",
comma... Two roles are the same when their last word is and the shorter's words are all in the
longer ("host" and "your host"; "chief financial officer" is not "chief executive officer").
General English patterns; nothing fitted to a corpus."""
from __future__ import annotations

import re
from dataclasses import dataclass

from core.verify import facts as fx
from core.verify.actors import same_person
from core.text.wordnet import english_word

_DET = r"(?:[Tt]he|[Aa]n?|[Oo]ur|[Yy]our|[Hh]is|[Hh]er|[Tt]heir|[Mm]y|[Ii]ts|[Tt]his)"
_END = r"(?=\s+(?:of|at|for|in|on|to|from|by|and|who|which|that|with)\b|\s*[,.;:!?)\u2014]|\s*$)"
_AFTER = re.compile(rf"^(?:\s+(?:is|was|'s|\u2019s|is\s+now|remains|became)\s+{_DET}?\s*|,\s+{_DET}\s+"
                    rf"|,\s+(?=[a-z][a-z\- ]{{1,40}}?(?:\s+and\s+[a-z][a-z\- ]{{1,40}}?)?,\s+[A-Z])"
                    rf"|,\s+who(?:'s|\u2019s|\s+is|\s+was)\s+(?:known\s+as\s+|called\s+)?{_DET}\s+)"
                    rf"([a-z][a-z\- ]{{1,40}}?){_END}")
_BEFORE = re.compile(rf"\b{_DET}\s+([a-z][a-z\- ]{{1,40}}?),\s*$")


# what a role is of ("the father of packet switching", not "the father of the Internet")
_OF = re.compile(r"^\s+of\s+((?:the\s+)?[\w\- ]{2,40}?)(?=\s*[,.;:!?)\u2014]|\s+(?:and|who|which|that|was|is)\b|\s*$)")


@dataclass
class Binding:
    name: fx.Name
    role: tuple[str, ...]  # content terms, in order
    start: int  # the role phrase's span
    end: int
    of: tuple[str, ...] = ()  # the content terms of what the role is of, where the text says it


def bindings(text: str) -> list[Binding]:
    out = []
    for n in fx.names(text):
        if n.initial and len(n.words) == 1 and english_word(n.words[0]):
            continue  # "Interestingly, the father was a biologist": a sentence's opening word, no one's name
        m = _AFTER.match(text[n.end:n.end + 80])
        if m:
            role = _terms(m.group(1))
            if role:
                of = _OF.match(text[n.end + m.end(1):n.end + m.end(1) + 60])
                out.append(Binding(n, role, n.end + m.start(1), n.end + m.end(1), _terms(of.group(1)) if of else ()))
        lo = max(0, n.start - 60)
        m = _BEFORE.search(text[lo:n.start])
        if m:
            role = _terms(m.group(1))
            if role:
                out.append(Binding(n, role, lo + m.start(1), lo + m.end(1)))
    return out


def _terms(phrase: str) -> tuple[str, ...]:
    return tuple(t for t, _, _ in fx.content_terms(phrase))


def same_role(a: tuple[str, ...], b: tuple[str, ...], a_of: tuple[str, ...] = (), b_of: tuple[str, ...] = ()) -> bool:
    if not a or not b or a[-1] != b[-1]:
        return False
    if a_of and b_of and not set(a_of) & set(b_of):
        return False  # the father of packet switching is not the father of the Internet
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    return set(short) <= set(long_)


def other_holder(claim: str, text: str) -> tuple[fx.Name, Binding] | None:
    """(the sentence's name, the cited text's binding of its role to another person), when the
    cited text gives that role only to others."""
    mine = bindings(claim)
    if not mine:
        return None
    theirs = bindings(text)
    for b in mine:
        same = [t for t in theirs if same_role(b.role, t.role, b.of, t.of)]
        if not same or any(same_person(b.name.words, t.name.words, text) for t in same):
            continue
        return b.name, same[0]
    return None
