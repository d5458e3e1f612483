"""A question answered by a list whose section and lead say what the question asks.

"What does the standard indexing method use the language model for?" is answered, in the
documents, by the list under the heading "Standard GraphRAG" that "Standard uses a language model
for all reasoning tasks:" introduces; "what chunking settings can I change?" by the list of
fields under "chunking". The question names no kind of thing, or not the list's own word for
it, so the list is found by where it stands: its context (the headings above it, its lead and
the paragraph before that) holds most of the question's words. Headings count split at their
capitals ("FastGraphRAG": fast) and a question's acronym counts where the context spells it out
("GIL": global interpreter lock).

Every name the question gives must stand in the context. A question that singles out one member (a word of it that only one item holds, "how is the
relationship's weight calculated") asks about that member, not for the list: the sentence
answer serves it better, and no list is given.
"""
from __future__ import annotations

import re

from core.offline.sentence_rank import headings_above
from core.query.list_blocks import LIST_MAX, list_runs
from core.query.lists import list_kind, plural
from core.text.lexical import CODE_NAME, cite, terms
from core.textutil import has_cjk

SHARE = 0.6  # of the question's words the list's context must hold
# the words of asking, not of what is asked about
_ASKING = frozenset(terms("make get thing things way ways need want let know help also exactly really "
                          "one ones possible available"))
# a question for one fact, a yes or no, or a person: no list answers it
_NOT_A_LIST = re.compile(r"^\s*(?:who|whom|whose|when|where|why|how (?:much|many|long|old|far|big|often)|"
                         r"what(?:'s|\u2019s| is| was)|"  # "What is DRIFT search?": one thing
                         r"is|are|was|were|does|did|do|can|could|should|will|would|has|have|had)\b", re.I)
# what the question asks for, when it names it: "which steps", "What build configuration flag"
_ONE = re.compile(r"^\s*(?:what|which)\s+((?:[\w-]+\s+){0,3}?[\w-]+)\s+(?:of|in|for|on|to|from|does|do|did|is|are|"
                  r"was|were|can|could|will|would|should|has|have|had|must|may)\b", re.I)
# "what is the indexing pipeline built to do?": what a thing is for is a list where the documents
# write one ("Our standard pipeline is designed to:"), whichever of these verbs each side uses
_PURPOSE = r"(?:built|designed|meant|intended|supposed|used|made|aims?|aimed)\s+(?:to|for)\b"
_ASKS_PURPOSE = re.compile(r"^\s*what(?:'s|\u2019s| is| are| was| were)\b[^?]*\b" + _PURPOSE, re.I)
_PURPOSE_IN = re.compile(r"\b" + _PURPOSE, re.I)
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_ACRONYM = re.compile(r"\b[A-Z]{2,6}\b")
_NAME = re.compile(r"\b(?!I\b)[\w'-]*[A-Z][\w'-]*")


def _context_terms(text: str, question: str) -> set[str]:
    """The terms of a list's context, headings split at their capitals, with each acronym of the
    question the context spells out word by word."""
    have = set(terms(text)) | set(terms(_CAMEL.sub(" ", text)))
    initials = "".join(w[0] for w in re.findall(r"[A-Za-z][\w'-]*", text)).lower()  # one letter a word
    asked = _PURPOSE_IN.search(question)
    if asked and _PURPOSE_IN.search(text):  # "built to" where the context writes "designed to"
        have |= set(terms(asked.group(0)))
    for acronym in set(_ACRONYM.findall(question)):
        if acronym.lower() in initials:  # "GIL": "... the global interpreter lock ..."
            have |= set(terms(acronym))
    return have


def headings_before(unit: dict, at: int) -> list[str]:
    """The headings the unit's text writes before position `at`, nearest last, after the unit's
    own heading path."""
    return headings_above(unit, at)[-2:]


def _paragraph_before(text: str, at: int) -> str:
    """The block before the lead (the sentence that opens the section), at most 400 characters."""
    before = text[:at].rstrip()
    start = before.rfind("\n\n") + 1
    block = before[start:].strip()
    return block[-400:] if block else ""


def block_list(question: str, units: list[dict]) -> str | None:
    """The list of the units whose context holds most of the question's words, with its lead,
    each item cited; None when no list stands where the question's words are."""
    if not question or has_cjk(question) or (_NOT_A_LIST.match(question) and not _ASKS_PURPOSE.match(question)):
        # one fact, a yes or no, a person; not what a thing is for
        return None
    one = _ONE.match(question)
    if one is not None and not plural(one.group(1).split()[-1]):
        return None  # "What build configuration flag does PEP 703 propose?": one thing
    want = set(terms(question)) - _ASKING
    kind = set(terms(list_kind(question) or ""))
    if len(want) < (2 if kind else 3):
        return None
    # the names the question gives (a capital inside a word or after its first: "spaCy", "CPython";
    # a word written as code: "prune_graph")
    names = {t for w in _NAME.findall(question[1:]) + CODE_NAME.findall(question) for t in terms(w)}
    best: tuple[float, int, int, str, list[str], list[str], int] | None = None
    for rank, u in enumerate(units):
        text = u.get("text") or ""
        for lead, items, at in list_runs(u):
            heads = headings_before(u, at)
            lead_is_heading = bool(heads) and lead.strip() == heads[-1]
            context = " \n ".join([*heads, lead, _paragraph_before(text, at)])
            found = _context_terms(context, question)
            have = found & want
            # three of its words, or two where they are the kind it asks for ("chunking settings")
            if len(have) < (2 if kind and kind <= found else 3) or len(have) < SHARE * len(want) \
                    or not names <= found:
                continue  # too few of its words, or not the names it gives ("spaCy")
            in_items = [set(terms(i)) for i in items]
            if any(sum(t in i for i in in_items) == 1 for t in want - have):
                continue  # a word only one item holds: the question asks about that member
            score = len(have) / len(want)
            if best is None or score > best[0]:
                shown = heads if lead_is_heading or not lead else []
                best = (score, rank, at, lead, items, shown, int(u["human_readable_id"]))
    if best is None:
        return None
    _, _, _, lead, items, heads, hrid = best
    refs = {"Sources": [hrid]}
    if heads:  # the list stands under a heading, with no sentence of its own: the heading says what it is
        head = " \u203a ".join(heads) + ":"
    else:
        head = cite(lead.rstrip(":").rstrip(), refs).rstrip(".\u3002") + ":"
    return "\n".join([head] + [f"- {cite(i, refs)}" for i in items[:2 * LIST_MAX]])
