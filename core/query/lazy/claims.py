"""Map: the claims of the relevant units that bear on their subquery, and the packing of the
claims into the reduce context.

The relevant units (each subquery's in the order found, the subqueries taken in turn; of each,
its passage best matching the subquery, `map_unit_tokens`) are read until the map budget is spent; those read go to one claims call per subquery (more when they
exceed one call's budget), grouped in it by the community they were found in. A claim keeps the references of the units it came from; a claim citing none of its
call's units gets the unit of the call it shares most words with, and is dropped when it shares
none, so every reference that reaches the answer resolves to a unit that was read.
Offline, the claims are the unit sentences sharing most terms with the subquery.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from core.llm.client import LLM, FatalLLMError, LLMError
from core.llm.jsonparse import JSONParseError, chat_json
from core.prompts import render
from core.query import offline_answer as offline
from core.text import lexical
from core.text.citations import disarm, parse_citations
from core.query.context import Packed, language_instruction, pack_rows, source_row
from core.query.lazy.params import LazyParams
from core.query.lazy.trace import Claim, Subquery
from core.query.unit_rank import passage
from core.store.db import Store
from core.tokens import count_tokens

MAX_CLAIMS = 8
HEADER_TOKENS = count_tokens("-----Sources-----\nid|text\n")
"""The table header of a claims call, counted in the map budget with the subquery's first unit."""


@dataclass
class Group:
    subquery: Subquery
    packed: Packed
    community_of: dict[int, int]
    """unit human_readable_id -> the community it was found in (the units come grouped by it)."""

    @property
    def communities(self) -> list[int]:
        return list(dict.fromkeys(self.community_of[int(u["human_readable_id"])] for u in self.packed.records))


def plan_map(subs: list[Subquery], relevant: dict[int, list[tuple[dict, int]]], params: LazyParams
             ) -> tuple[list[Group], int]:
    """The claims calls: relevant[sub index] = [(unit row, community)] in the order found.
    Returns (groups, units left unread by the map budget)."""
    budget, used, skipped = params.map_budget(), 0, 0
    queues = {s.index: list(relevant.get(s.index, [])) for s in subs}
    taken: dict[int, dict[int, list[dict]]] = {}
    while any(queues.values()):
        for s in subs:
            if not queues[s.index]:
                continue
            unit, community = queues[s.index].pop(0)
            unit = {**unit, "text": passage(unit.get("text") or "", s.text, params.map_unit_tokens)}
            n = count_tokens(source_row(unit) + "\n") + (0 if s.index in taken else HEADER_TOKENS)
            if used + n > budget:
                skipped += 1
                continue
            used += n
            taken.setdefault(s.index, {}).setdefault(community, []).append(unit)
    by_index = {s.index: s for s in subs}
    groups: list[Group] = []
    for si, by_community in taken.items():
        # one call reads a subquery's units, grouped by community, as far as one call's budget goes
        rest = [u for units in by_community.values() for u in units]
        where = {int(u["human_readable_id"]): c for c, units in by_community.items() for u in units}
        while rest:
            packed, rest = pack_rows("id|text", rest, source_row, params.map_call_tokens, title="Sources")
            if not packed.records:
                break
            groups.append(Group(by_index[si], packed, where))
    return groups, skipped


def validate_claims(obj: Any) -> None:
    claims = obj.get("claims") if isinstance(obj, dict) else obj
    if not isinstance(claims, list):
        raise ValueError('expected {"claims": [{"claim": "...", "score": 0-100}]}')
    for c in claims:
        if not isinstance(c, (dict, str)):
            raise ValueError("every claim must be an object with claim and score")


def _score(value: Any) -> int:
    try:
        return int(round(min(100.0, max(0.0, float(str(value).strip().rstrip("%"))))))
    except (TypeError, ValueError):
        return 50


def claims_call(store: Store, llm: LLM, group: Group, params: LazyParams) -> tuple[list[Claim], dict]:
    """One claims call; (claims, the call's record for the trace)."""
    sub = group.subquery
    system = render("lazy_claims", store.workspace, question=sub.text, context_data=group.packed.text,
                    max_claims=MAX_CLAIMS, language_instruction=language_instruction(params.language, sub.text))
    messages = [{"role": "system", "content": system}, {"role": "user", "content": sub.text}]
    record = _record(group)
    try:
        obj, _, _ = chat_json(llm, messages, max_tokens=params.claim_answer_tokens, stage="lazy_claims",
                              validate=validate_claims)
    except FatalLLMError:
        raise
    except (JSONParseError, LLMError) as exc:
        record["error"] = str(exc)
        return [], record
    raw = obj.get("claims") if isinstance(obj, dict) else obj
    claims = []
    for c in raw or []:
        text = c if isinstance(c, str) else str(c.get("claim") or c.get("description") or "")
        claim = _anchored(text.strip(), group, sub.index, _score(50 if isinstance(c, str) else c.get("score", 50)))
        if claim is not None:
            claims.append(claim)
    record["claims"] = len(claims)
    return claims, record


def _anchored(text: str, group: Group, sub: int, score: int) -> Claim | None:
    """The claim with references to units of its call only (see the module docstring)."""
    if not text or score <= 0:
        return None
    read = {int(u["human_readable_id"]): u for u in group.packed.records}
    cited = [r.id for c in parse_citations(text) for r in c.refs if r.kind == "Sources" and r.id in read]
    body, _ = offline.split_refs(text)
    if not body:
        return None
    if not cited:
        words = set(offline.terms(body))
        best = max(read, key=lambda h: (len(words & set(offline.terms(read[h].get("text") or ""))), -h))
        if not words & set(offline.terms(read[best].get("text") or "")):
            return None
        cited = [best]
    cited = list(dict.fromkeys(cited))
    return Claim(subquery=sub, community=group.community_of.get(cited[0], -1),
                 text=offline.cite(body, {"Sources": cited[:5]}),
                 score=score, sources=cited)


def offline_claims(group: Group, weigh, per_unit: int = 2) -> tuple[list[Claim], dict]:
    """The sentences of each unit holding most of the subquery's weight (weigh(terms, text):
    0-1, the share of the terms' idf present), as claims scored by that share."""
    sub = group.subquery
    q = offline.terms(sub.text)
    claims: list[Claim] = []
    for u in group.packed.records:
        hrid = int(u["human_readable_id"])
        scored = []
        for i, s in enumerate(offline.sentences(u.get("text") or "")):
            if not offline.is_prose(s) or not lexical.ENDS.search(s):  # a sentence, not a heading
                continue
            share = weigh(q, s)
            if share > 0:
                scored.append((share, -i, s))
        for share, _, s in sorted(scored, reverse=True)[:per_unit]:
            score = max(1, round(100 * share))
            claims.append(Claim(subquery=sub.index, community=group.community_of.get(hrid, -1),
                                text=offline.cite(disarm(s), {"Sources": [hrid]}), score=score, sources=[hrid]))
    record = _record(group)
    record["claims"] = len(claims)
    return claims, record


def _record(group: Group) -> dict:
    return {"subquery": group.subquery.index, "communities": group.communities, "tokens": group.packed.tokens,
            "units": [int(u["human_readable_id"]) for u in group.packed.records], "claims": 0, "error": None}


# ------------------------------------------------------------------------------- packing

def claim_block(i: int, claim: Claim) -> str:
    """Claim i of the reduce context, ending with a blank line."""
    return f"----Claim {i}----\nImportance Score: {claim.score}\n{claim.text.strip()}\n\n"


def rank_claims(claims: list[Claim]) -> list[Claim]:
    """Best score first; the first of claims saying the same words is kept."""
    seen, out = set(), []
    for c in sorted(claims, key=lambda c: (-c.score, c.subquery)):
        key = re.sub(r"\W+", "", offline.split_refs(c.text)[0].lower())
        if key and key not in seen:
            seen.add(key)
            out.append(c)
    return out


def pack_claims(claims: list[Claim], budget: int) -> tuple[list[Claim], list[Claim], str, int]:
    """Claims (best first) into the reduce context: the leading claims that fit the budget are
    selected, the rest cut. Sets every claim's tokens and selected. Returns (selected, cut,
    context_text, tokens); the tokens are those of the whole text as sent."""
    blocks = [claim_block(i + 1, c) for i, c in enumerate(claims)]
    for c, b in zip(claims, blocks):
        c.tokens = count_tokens(b)
        c.selected = False
    used, n = 0, 0
    while n < len(claims) and used + claims[n].tokens <= budget:
        used += claims[n].tokens
        n += 1
    text = "".join(blocks[:n])
    while n and count_tokens(text) > budget:  # never more than the budget, whatever the tokenizer joins
        n -= 1
        text = "".join(blocks[:n])
    for c in claims[:n]:
        c.selected = True
    return claims[:n], claims[n:], text, count_tokens(text) if n else 0
