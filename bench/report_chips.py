"""Verdicts on our own offline index's reports, as an analyst meets them: each finding judged on all
its sources together (the trust line, `sensemaker verify`) and each of its chips judged on that one
source alone. An offline report quotes its documents, so a finding or chip called contradicted or
fabricated is, nearly always, a false alarm; this prints how many there are, and the first few.

    python bench/report_chips.py                      # sample corpus; Carol + two calls (FY24 Q3, FY23 Q4)
    python bench/report_chips.py --workspace DIR ...  # existing workspaces instead

Workspaces are indexed offline once under --cache (keyed like bench/claim_workspaces.py).
Writes bench/results/report_chips.json.
"""
from __future__ import annotations

import argparse
import collections
import hashlib
import tempfile
import time
import zipfile
from pathlib import Path

from _common import CORPORA, ROOT, write_result
from claim_workspaces import _code_signature

from core.index.pipeline import run_index
from core.ingest.documents import ingest_files
from core.text.citations import sentences_with_citations
from core.store.references import Resolver
from core.settings import Settings
from core.store.db import Store
from core.verify.names import Names
from core.verify.offline import judge
from core.verify.reports import judge_sentence, report_findings

FLAGS = ("contradicted", "fabricated")


def _files(name: str) -> list[tuple[str, bytes]]:
    if name == "sample":
        return [(p.name, p.read_bytes()) for p in sorted((ROOT / "sample_corpus").iterdir()) if p.is_file()]
    carol = CORPORA / "christmas_carol" / "a_christmas_carol_plain_ascii.txt"
    with zipfile.ZipFile(CORPORA / "msft_earnings_calls" / "msft_earnings_transcripts.zip") as z:
        calls = [(Path(m).name, z.read(m)) for m in ("txt/TranscriptFY24Q3.txt", "txt/TranscriptFY23Q4.txt")]
    return [(carol.name, carol.read_bytes()), *calls]


def _workspace(name: str, cache: Path) -> Store:
    files = _files(name)
    key = hashlib.sha256(b"".join(n.encode() + b for n, b in files) + _code_signature().encode()).hexdigest()[:10]
    folder = cache / f"{name}-{key}"
    if (folder / "indexed.ok").is_file():
        return Store(folder)
    folder.mkdir(parents=True, exist_ok=True)
    store = Store(folder)
    ingest_files(store, files, max_bytes=50_000_000)
    run_index(store, Settings(engine="offline"))
    (folder / "indexed.ok").write_text("ok")
    return store


def measure(store: Store, show: int = 8) -> dict:
    resolver, names = Resolver(store), Names(store)
    findings, chips = collections.Counter(), collections.Counter()
    flagged: list[str] = []
    for rep in store.rows("community_reports"):
        for f in report_findings(rep):
            for sentence, _, cites in sentences_with_citations(f.get("explanation") or ""):
                v = judge_sentence(resolver, sentence, cites, judge, names)
                findings[v.verdict] += 1
                for c in cites:
                    for ref in c.refs:
                        if ref.id is None:
                            continue
                        one = type(c)(c.marker, c.start, c.end, [ref])
                        w = judge_sentence(resolver, sentence, [one], judge, names)
                        chips[w.verdict] += 1
                        if w.verdict in FLAGS and len(flagged) < show:
                            flagged.append(f"report {rep['human_readable_id']} {ref.kind} {ref.id} {w.verdict}: "
                                           f"{w.reason[:110]} | {' '.join(sentence.split())[:110]}")
    return {"cited sentences": dict(findings), "chips": dict(chips), "flagged chips, first": flagged}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--workspace", nargs="*", help="existing workspace folders (default: index the two corpora)")
    ap.add_argument("--cache", default=str(Path(tempfile.gettempdir()) / "sensemaker-report-chips"))
    args = ap.parse_args()
    stores = {w: Store(w) for w in args.workspace} if args.workspace else \
        {n: _workspace(n, Path(args.cache)) for n in ("sample", "carol+calls")}
    out = {}
    for name, store in stores.items():
        t = time.perf_counter()
        r = measure(store)
        n_chips = sum(r["chips"].values())
        bad = sum(r["chips"].get(v, 0) for v in FLAGS)
        bad_f = sum(r["cited sentences"].get(v, 0) for v in FLAGS)
        print(f"{name}: {sum(r['cited sentences'].values())} cited sentences of findings, {bad_f} contradicted or "
              f"fabricated; {n_chips} chips, {bad} contradicted or fabricated ({bad / max(n_chips, 1):.1%}) "
              f"[{time.perf_counter() - t:.1f} s]")
        print(f"  sentences {r['cited sentences']}\n  chips     {r['chips']}")
        for line in r["flagged chips, first"]:
            print(f"    {line}")
        out[str(name)] = r
    print(f"-> {write_result('report_chips', out)}")


if __name__ == "__main__":
    main()
