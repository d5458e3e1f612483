"""Resolving and checking an answer with 50 references. Target (issue 3): under 200 ms.

    .venv/bin/python bench/citations.py [--repeat 5]

A store is built in a temporary folder from A Christmas Carol (plain ASCII edition): the book is
cut into ~40 text units with their spans, characters become entities (with the units that name
them), co-occurring characters relationships, a few claims, four communities with one report
each. The answer is ten real sentences of the book, each followed by a marker with five
references (the report of a character it names, two entities, a relationship, and the text unit
it comes from; once a dangling claim id and once "+more" instead of the unit), 50 in all. Measured: resolve_answer (parse, batched resolution, a support verdict per
reference), cold (fresh Resolver, empty sentence cache) and warm (median of --repeat runs).
"""
from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import tempfile
import time

from _common import CORPORA, peak_rss_mb, write_result

from core.index.chunking import chunk_text
from core.store.references import Resolver
from core.query.resolve import resolve_answer
from core.text import support
from core.store.db import Store
from core.textutil import split_sentences

BOOK = CORPORA / "christmas_carol" / "a_christmas_carol_plain_ascii.txt"
TARGET_MS = 200.0
NAMES = ["Scrooge", "Marley", "Bob Cratchit", "Tiny Tim", "Fred", "Fezziwig", "Belle", "Fan",
         "Topper", "Joe", "Mrs. Cratchit", "Martha", "Peter", "Dick Wilkins", "Caroline",
         "Ghost of Christmas Past", "Ghost of Christmas Present", "Ghost of Christmas Yet to Come"]


def build(store: Store, text: str) -> list[dict]:
    store.insert("documents", [{"id": "carol", "title": BOOK.name, "text": text}])
    chunks = chunk_text(text, size=1000, overlap=100)
    units = [{"id": f"u{c.ordinal}", "document_id": "carol", "ordinal": c.ordinal, "text": c.text,
              "n_tokens": c.n_tokens, "char_start": c.char_start, "char_end": c.char_end}
             for c in chunks]
    store.insert("text_units", units)
    ents = []
    for i, name in enumerate(NAMES):
        ids = [u["id"] for u in units if name in u["text"]]
        ents.append({"id": f"e{i}", "title": name.upper(), "description": f"{name}, a character.",
                     "text_unit_ids": ids})
    store.insert("entities", ents)
    rels = []
    for a, b in itertools.combinations(ents, 2):
        both = sorted(set(a["text_unit_ids"]) & set(b["text_unit_ids"]))
        if both:
            rels.append({"id": f"r{len(rels)}", "source": a["title"], "target": b["title"],
                         "description": f"{a['title']} and {b['title']} meet.", "text_unit_ids": both,
                         "weight": len(both)})
    store.insert("relationships", rels)
    store.insert("claims", [{"id": f"c{i}", "subject": e["title"], "type": "APPEARS",
                             "description": f"{e['title']} appears.", "text_unit_id": e["text_unit_ids"][0]}
                            for i, e in enumerate(ents) if e["text_unit_ids"]])
    groups = [ents[0:5], ents[5:9], ents[9:14], ents[14:]]
    coms, reports = [], []
    for n, group in enumerate(groups):
        titles = {e["title"] for e in group}
        coms.append({"id": f"k{n}", "community": n, "level": 0, "entity_ids": [e["id"] for e in group],
                     "relationship_ids": [r["id"] for r in rels if r["source"] in titles],
                     "text_unit_ids": []})
        reports.append({"id": f"rep{n}", "human_readable_id": n, "community": n, "level": 0,
                        "title": " and ".join(sorted(titles)), "summary": "A group of characters.",
                        "findings": [{"summary": t, "explanation": f"{t} appears."} for t in titles]})
    store.insert("communities", coms)
    store.insert("community_reports", reports)
    return units


def make_answer(text: str, units: list[dict], n_rels: int) -> str:
    """Ten real sentences, each citing the unit that holds it, the characters it names, the
    report of the first one's community, a relationship, and (once each) a dangling claim and a
    "+more": 50 references."""
    spans = [(a, b) for a, b in split_sentences(text) if 60 < b - a < 220]
    picked = []
    for a, b in spans[20::20]:
        s = text[a:b]
        named = [i for i, n in enumerate(NAMES) if n in s]
        if named and len(picked) < 10:
            picked.append((s, named, next(u for u in units if u["char_start"] <= a < u["char_end"])))
    out = []
    for k, (s, named, unit) in enumerate(picked):
        ents = (named + [0, 1])[:2] if named[0] != 0 else (named + [1, 2])[:2]
        refs = [f"Reports ({[0, 1, 2, 3][min(3, ents[0] // 5)]})",
                f"Entities ({ents[0]}, {ents[1]})", f"Relationships ({(k * 7) % n_rels})"]
        refs.append("Claims (999)" if k == 0 else "Claims (+more)" if k == 1
                    else f"Sources ({unit['ordinal']})")
        out.append(f"{' '.join(s.split()).rstrip('.')} [Data: {'; '.join(refs)}].")
    return " ".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    if not BOOK.is_file():
        print(f"corpus not found: {BOOK}", file=sys.stderr)
        return 1
    text = BOOK.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(tmp)
        units = build(store, text)
        answer = make_answer(text, units, store.count("relationships"))
        support._unit_sentences.cache_clear()
        t0 = time.perf_counter()
        rows = resolve_answer(store, answer, resolver=Resolver(store))
        cold_ms = (time.perf_counter() - t0) * 1000
        warm = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            resolve_answer(store, answer, resolver=Resolver(store))
            warm.append((time.perf_counter() - t0) * 1000)
        verdicts = {}
        for r in rows:
            v = (r["support"] or {}).get("verdict", "not judged")
            verdicts[v] = verdicts.get(v, 0) + 1
        result = {
            "text_units": len(units), "references": len(rows),
            "dangling": sum(r["dangling"] for r in rows), "more": sum(r["more"] for r in rows),
            "verdicts": verdicts, "cold_ms": round(cold_ms, 1),
            "warm_median_ms": round(statistics.median(warm), 1), "target_ms": TARGET_MS,
            "ratio_to_target": round(cold_ms / TARGET_MS, 3), "peak_rss_mb": round(peak_rss_mb(), 1),
        }
        store.close()
    print(f"{result['references']} references over {result['text_units']} text units "
          f"({result['dangling']} dangling, {result['more']} +more); verdicts {verdicts}")
    print(f"resolve + support: cold {result['cold_ms']} ms, warm median {result['warm_median_ms']} ms; "
          f"cold / target = {result['ratio_to_target']} (target {TARGET_MS:.0f} ms)")
    print(f"wrote {write_result('citations', result)}")
    return 0 if cold_ms < TARGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
