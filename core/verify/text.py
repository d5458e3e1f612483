"""Check a text of one's own: every sentence of a paragraph (a draft memo with `[Data: ...]`
markers) judged against what it cites, or every line of a claims file
(`{"id": ..., "text": "One sentence [Data: Sources (12)]."}`).

A sentence without a marker is judged too, against nothing: it is unsupported, unless it names
what no document holds (fabricated). Each result: id, sentence, verdict, facts (each with the
source span that confirms or contradicts it), evidence (the best source sentence and its spans),
judge, the references that do not exist (`dangling`) and the markers that cite no record as
written (`malformed`: "[Data: Sources (abc)]")."""
from __future__ import annotations

import json
import re
from dataclasses import asdict
from typing import Iterable

from core.errors import UserError
from core.text.citations import parse_citations, sentences_with_citations, strip_citations, uncited_spans
from core.store.references import Resolver
from core.verify.names import Names
from core.verify.reports import judge_sentence
from core.store.access import require


def _evidence(store, v) -> dict | None:
    """The best source sentence, its unit (by id and by the number markers cite: "source") and
    its spans in the unit and the document."""
    if not v.best_sentence:
        return None
    unit = store.get("text_units", v.text_unit_id) if v.text_unit_id else None
    return {"text": v.best_sentence, "source": unit["human_readable_id"] if unit else None, "text_unit_id": v.text_unit_id,
            "char_start": v.char_start, "char_end": v.char_end, "unit_start": v.unit_start, "unit_end": v.unit_end}


# a "[Data: ...]" marker as written; one the citation parser does not read whole is malformed
_DATA_BRACKET = re.compile(r"\[\s*(?:data|\u6570\u636e)\s*[:\uff1a][^\[\]\n]*\]", re.I)


def _malformed(sentence: str) -> list[re.Match]:
    read = {(c.start, c.end) for c in parse_citations(sentence)}
    return [m for m in _DATA_BRACKET.finditer(sentence) if (m.start(), m.end()) not in read]


def _shown(sentence: str, bad: list[re.Match]) -> str:
    """The sentence as it reads: its markers, well formed or not, left out."""
    for m in reversed(bad):
        sentence = sentence[:m.start()].rstrip() + sentence[m.end():]
    return strip_citations(sentence).strip()


_QUOTES = ('"', "\u201c", "\u201d")


def _whole_quotes(text: str, pieces: list) -> list:
    """A sentence that ends inside an open quotation joins the one after it: 'Taylor told the team:
    "Focus, people. We have protocols for a reason." [Data: ...]' is one claim, not an uncited
    sentence and a cited one."""
    out: list = []
    for piece in pieces:
        if out and not out[-1][2] and sum(text[:out[-1][1][1]].count(q) for q in _QUOTES) % 2 \
                and "\n\n" not in text[out[-1][1][1]:piece[1][0]]:  # (a quote mark left open ends with its paragraph)
            (s, _), (_, e) = out[-1][1], piece[1]
            out[-1] = (text[s:e], (s, e), piece[2])
            continue
        out.append(piece)
    return out


def check_text(store, text: str, judge=None, resolver: Resolver | None = None,
               names: Names | None = None, id: object = None) -> list[dict]:
    """One result per sentence of text (see the module docstring)."""
    require(store, 'verify')
    if judge is None:
        from core.verify.offline import judge
    resolver = resolver or Resolver(store)
    names = names or Names(store)
    out = []
    sents = sentences_with_citations(text)
    resolver.prefetch(r for _, _, cites in sents for c in cites for r in c.refs)
    pieces = [(text[s:e], (s, e), cites) for (_, (s, e), cites) in sents]
    # sentences that cite nothing are judged as well
    pieces += [(text[s:e], (s, e), []) for s, e in uncited_spans(text, sents)]
    pieces = _whole_quotes(text, sorted(pieces, key=lambda p: p[1][0]))
    for n, (sentence, (s, e), cites) in enumerate(pieces, start=1):
        missing: list[str] = []
        v = judge_sentence(resolver, sentence, cites, judge, names,
                           lambda c, ref: missing.append(f"{ref.kind} ({ref.id})"))  # noqa: B023 (called within this iteration)
        bad = _malformed(sentence)
        if not cites:
            from core.verify.offline import judge as offline
            v = offline(sentence, [], names=names)
            if v.verdict != "fabricated":
                v.verdict, v.reason = "unsupported", "it cites nothing"
                if bad:
                    v.reason = (f"its marker {bad[0].group()} cites no record: a marker names a kind and "
                                f"numbers, as in [Data: Sources (12); Reports (3)]")
        d = v.to_dict()
        out.append({"id": id if id is not None else n, "sentence": _shown(sentence, bad),
                    "start": s, "end": e, "verdict": v.verdict, "judge": v.judge,
                    "failing": d["failing"] or v.reason, "fabricated": v.fabricated,
                    "facts": [asdict(f) for f in v.facts], "evidence": _evidence(store, v),
                    "dangling": missing, "malformed": [m.group() for m in bad]})
    return out


def read_claims(lines: Iterable[str]) -> list[tuple[object, str]]:
    """(id, text) of every line of a claims file; a bad line is a UserError naming it."""
    out = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise UserError(f"claims line {number} is not JSON: {exc.msg}") from None
        if not isinstance(obj, dict) or not isinstance(obj.get("text"), str):
            raise UserError(f'claims line {number} needs a "text" field holding the sentence')
        out.append((obj.get("id", number), obj["text"]))
    return out


def check_claims(store, claims: list[tuple[object, str]], judge=None) -> list[dict]:
    """One result per claim: the worst verdict of its sentences, with their facts and evidence."""
    from core.verify.verdict import RANK
    resolver, names = Resolver(store), Names(store)
    out = []
    for cid, text in claims:
        results = check_text(store, text, judge, resolver, names, id=cid)
        if not results:
            out.append({"id": cid, "sentence": "", "verdict": "unsupported", "failing": "no sentence",
                        "facts": [], "evidence": None, "fabricated": [], "dangling": [], "judge": "offline"})
            continue
        worst = min(results, key=lambda r: RANK[r["verdict"]])
        if len(results) > 1:
            worst = dict(worst, sentences=results)
        out.append(worst)
    return out
