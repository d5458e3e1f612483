"""Resolve an answer's citations and judge each cited sentence: one row per (citation,
reference), for the UI, the downloads and the traces. Resolving one reference is
core/store/references.py; judging is core/verify."""
from __future__ import annotations

from core.store.references import Resolver
from core.text.citations import sentences_with_citations
from core.verify.names import Names
from core.verify.judges import make_judge, policy_for


def resolve_answer(store, text: str, resolver: Resolver | None = None,
                   with_support: bool = True, judge=None) -> list[dict]:
    """One row per (citation, reference) in text, in order: the marker and its span, the sentence
    carrying it, kind, id, resolved / dangling / more, title, text_unit_ids, sources (their
    human_readable_ids), document_ids, members (for reports) and support (the sentence judged
    against this reference's text units by core.verify (offline unless a judge is given): verdict,
    key facts, best sentence and its spans; None for "+more" and dangling references)."""
    resolver = resolver or Resolver(store)
    sentences = sentences_with_citations(text)
    resolver.prefetch(r for _, _, cites in sentences for c in cites for r in c.refs)
    names = Names(store)
    judge = judge or make_judge("offline", policy=policy_for(store))
    out: list[dict] = []
    for sentence, (s, e), cites in sentences:
        for c in cites:
            for ref in c.refs:
                res = resolver.resolve(ref)
                support = None
                if with_support and res.record is not None:
                    support = judge(sentence, res.text_units, res.record_texts(), names=names).to_dict()
                out.append({
                    "marker": c.marker, "start": c.start, "end": c.end,
                    "sentence": sentence, "sentence_start": s, "sentence_end": e,
                    "kind": ref.kind, "id": ref.id, "more": res.more,
                    "resolved": res.record is not None, "dangling": res.dangling,
                    "title": res.title if res.record is not None else "",
                    "text_unit_ids": res.text_unit_ids,
                    "sources": [u["human_readable_id"] for u in res.text_units],
                    "document_ids": res.document_ids,
                    "members": res.members,
                    "support": support,
                })
    return out
