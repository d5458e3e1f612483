"""The clauses of a claim: where it is cut, and which pieces a reason or inference connective
opens (a fact the cited text must then state too). Used by the offline judge (core/verify/offline.py)."""
from __future__ import annotations

import re

from core.verify import facts as fx
from core.verify import lexicon as lx

# "as" before a plural subject opens a reason clause ("... doubled as companies rebuilt their
# offices"); before "a", "its", "the" it mostly names a role ("chose Microsoft as its partner")
_AS_SUBJECT = (r"(?:companies|customers|businesses|organizations|organisations|enterprises|firms|people|users|consumers|investors"
               r"|shoppers|advertisers|buyers|clients|developers|partners|gamers|players|viewers|readers|students"
               r"|employees|workers|voters|fans)\s")
_CLAUSE_CUT = re.compile(r";|,\s+(?:and|but|while|whereas|with|although|though|yet|so|as|who|which|where|whose)\s+"
                         r"|,\s+(?=[a-z]+ing\s)"  # an appended participle: ", humming a hymn as he worked"
                         r"|,\s+(?=(?:much|most|some|all|half|part|many|none|each)\s+of\s+(?:it|them|this|these|those|which)\s)"  # ", much of it for ..."
                         r"|\s+(?:because|since|so that|in order to|due to|after|before|while)\s+"
                         r"|\s+as\s+(?=" + _AS_SUBJECT + r")"
                         r"|\s+and\s+(?=(?:the|his|her|its|their|he|she|it|they|a|an|also|then|later)\s)|，|；|并且|而且|但")


def clauses(claim: str) -> list[tuple[str, bool]]:
    """(clause, introduced by a reason or inference connective) pieces of a claim."""
    out, last, causal = [], 0, False
    for m in _CLAUSE_CUT.finditer(claim):
        piece = claim[last:m.start()]
        as_cut = re.fullmatch(r",?\s*as\s*", m.group(0)) is not None
        if as_cut and re.match(r"\s*[a-z]+ing\s", piece) and len(fx.content_terms(piece)) < 3:
            continue  # a short participle keeps its complement: ", matching expectations as customers ..."
        if piece.strip():
            out.append((piece, causal))
        causal = any(c in m.group(0).lower() for c in ("because", "since", "so that", "in order", "due to", "so ")) \
            or (as_cut and re.match(_AS_SUBJECT, claim[m.end():]) is not None) \
            or _inferential(m.group(0) + claim[m.end():m.end() + 30])  # ", which makes it ...": the cut's word too
        last = m.end()
    out.append((claim[last:], causal))
    merged: list[tuple[str, bool]] = []
    for piece, c in out:
        # a piece without content (", he said") stays with the one before it
        if merged and len(fx.content_terms(piece)) < 2:
            merged[-1] = (merged[-1][0] + " " + piece, merged[-1][1])
        else:
            merged.append((piece, c or _inferential(piece)))
    return merged or [(claim, False)]


def _inferential(piece: str) -> bool:
    low = f" {piece.lower()} "
    # a Chinese connective stands between characters, with no spaces around it
    return any((f" {c} " in low) if c.isascii() else (c in low) for c in lx.CAUSAL if c not in ("thus", "hence"))
