"""Workspaces for the labelled claim set (bench/data/claims.jsonl): each claim's document indexed
with the offline engine, one workspace per corpus, and each claim turned into a checkable
sentence cited to the text unit that holds its evidence (`... [Data: Sources (n)]`).

Workspaces are kept under --cache (default /tmp/sensemaker-claims) keyed by the corpus, its
documents and the code that makes the workspace (chunking, ingest, offline engine, store), so a
second run reuses them and a changed chunker does not (session 7 found figures measured on
workspaces an older cut rule had made: claims 0.89 there, 0.85 on fresh ones)."""
from __future__ import annotations

import functools
import hashlib
import json
import re
import zipfile
from pathlib import Path

from _common import CORPORA, ROOT

if not CORPORA.is_dir():  # a worktree beside the main checkout
    CORPORA = Path("/work/shared/corpora")

from core.index.pipeline import run_index
from core.ingest.documents import ingest_files
from core.settings import Settings
from core.store.db import Store

CLAIMS = ROOT / "bench" / "data" / "claims.jsonl"


def load_claims(path: Path = CLAIMS) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def read_doc(doc: str) -> tuple[str, bytes]:
    """(file name, bytes) of a claim's document: a path under corpora, or "x.zip::member"."""
    if "::" in doc:
        archive, member = doc.split("::", 1)
        with zipfile.ZipFile(CORPORA / archive) as z:
            return Path(member).name, z.read(member)
    return Path(doc).name, (CORPORA / doc).read_bytes()


@functools.lru_cache(maxsize=1)
def _code_signature() -> str:
    root = ROOT / "core"
    files = sorted([*root.glob("index/*.py"), *root.glob("ingest/*.py"), *root.glob("offline/*.py"),
                    *root.glob("store/*.py"), root / "textutil.py", root / "tokens.py"])
    return hashlib.sha256(b"".join(f.read_bytes() for f in files)).hexdigest()[:10]


def workspace(corpus: str, docs: list[str], cache: Path) -> Store:
    key = hashlib.sha256(("\n".join(sorted(docs)) + "\n" + _code_signature()).encode()).hexdigest()[:10]
    folder = cache / f"{corpus}-{key}"
    done = folder / "indexed.ok"
    if done.is_file():
        return Store(folder)
    if folder.exists():
        import shutil
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    store = Store(folder)
    ingest_files(store, [read_doc(d) for d in sorted(docs)], max_bytes=50_000_000)
    run_index(store, Settings(engine="offline"))
    done.write_text("ok")
    return store


def _words_find(text: str, evidence: str) -> tuple[int, int]:
    """(start, end) in text of the evidence read as its words and characters alone (no
    whitespace, no Markdown marks: #, *, _, `, |, >, brackets, link targets), else (-1, -1)."""
    evidence = re.sub(r"\]\([^)]*\)", "]", evidence)  # [text](url) -> [text]
    keep = [i for i, ch in enumerate(text) if ch.isalnum()]
    flat = "".join(text[i] for i in keep)
    want = "".join(ch for ch in evidence if ch.isalnum())
    at = flat.find(want) if want else -1
    if at < 0:
        return -1, -1
    return keep[at], keep[at + len(want) - 1] + 1


def cite(store: Store, claim: dict) -> tuple[str, dict] | None:
    """The claim as a sentence citing the text unit that holds the start of its evidence, and
    that unit; None when no unit holds it."""
    name = read_doc(claim["doc"])[0]
    docs = [d for d in store.query("SELECT id, title, source_name, text FROM documents")
            if name in (d.get("source_name") or "") or name == d.get("title")]
    for d in docs:
        evidence = claim["evidence"]
        at = d["text"].find(evidence)
        if at < 0:  # the ingest keeps "\n" for a transcript's "\r\n"
            evidence = evidence.replace("\r\n", "\n").replace("\r", "\n")
            at = d["text"].find(evidence)
        end = at + len(evidence)
        if at < 0:  # a Markdown document is stored without its markup: match on the words alone
            at, end = _words_find(d["text"], evidence)
        if at < 0:
            continue
        units = store.query("SELECT id, human_readable_id, char_start, char_end FROM text_units "
                            "WHERE document_id = ? ORDER BY ordinal", [d["id"]])
        # the unit holding the whole evidence, else the one holding most of it
        best = max(units, key=lambda u: (min(end, u["char_end"]) - max(at, u["char_start"]),
                                         -(u["char_end"] - u["char_start"])))
        text = claim["claim"].rstrip()
        zh = any("\u4e00" <= ch <= "\u9fff" for ch in text)
        stop = text[-1] if text[-1] in ".!?。！？" else ""
        body = text[:-1] if stop else text
        marker = f"[Data: Sources ({best['human_readable_id']})]"
        return f"{body} {marker}{stop or ('。' if zh else '.')}", best
    return None


def build_all(claims: list[dict], cache: Path) -> dict[str, Store]:
    by_corpus: dict[str, set[str]] = {}
    for c in claims:
        by_corpus.setdefault(c["corpus"], set()).add(c["doc"])
    return {corpus: workspace(corpus, sorted(docs), cache) for corpus, docs in by_corpus.items()}


if __name__ == "__main__":
    import sys
    import time
    t0 = time.perf_counter()
    stores = build_all(load_claims(), Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/sensemaker-claims"))
    for corpus, store in stores.items():
        print(corpus, store.counts())
    print(f"{time.perf_counter() - t0:.1f} s")
