"""Check bench/data/offline_questions.jsonl against the source texts.

For every question: the schema (fields, method/kind values, who_is has
first_sentence_keywords), ids unique; for local questions, "evidence" is an
exact substring of one of its documents and every keyword group (and every
first-sentence group) has at least one alternative in the evidence
(case-insensitive). "sample_corpus" in docs means /work/main/sample_corpus
(its README.md is not a source document).

Run from the project root:  python bench/data/check_offline_questions.py [offline_questions_heldout.jsonl]
(a doc "archive.zip::member" is read from the zip; the member may be a glob)
"""
import collections
import fnmatch
import json
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
CORPORA = next((p / "shared" / "corpora" for p in ROOT.parents if (p / "shared" / "corpora").is_dir()),
               ROOT.parent / "shared" / "corpora")
QUESTIONS = HERE / (sys.argv[1] if len(sys.argv) > 1 else "offline_questions.jsonl")
KINDS = {"who_is", "fact", "themes", "about"}


def doc_texts(docs):
    out = {}
    for d in docs:
        if d.rstrip("/") == "sample_corpus":
            for p in sorted((ROOT / "sample_corpus").iterdir()):
                if p.is_file() and p.name != "README.md":
                    out[f"sample_corpus/{p.name}"] = p.read_text(encoding="utf-8")
        elif "::" in d:  # "archive.zip::member" (a member may be a glob: the parts of one episode)
            arc, pattern = d.split("::", 1)
            with zipfile.ZipFile(CORPORA / arc) as z:
                for name in z.namelist():
                    if fnmatch.fnmatchcase(name, pattern):
                        out[f"{arc}::{name}"] = z.read(name).decode("utf-8")
        else:
            out[d] = (CORPORA / d).read_text(encoding="utf-8")
    return out


def groups_ok(groups, text):
    low = text.lower()
    return [g for g in groups if not any(a.lower() in low for a in g)]


def main():
    errors, seen = [], set()
    counts = collections.Counter()
    rows = [json.loads(l) for l in QUESTIONS.read_text(encoding="utf-8").splitlines() if l.strip()]
    for q in rows:
        qid = q.get("id")
        err = lambda m: errors.append(f"{qid}: {m}")  # noqa: B023 (called within this iteration)
        for k in ("id", "corpus", "docs", "method", "kind", "question", "keywords"):
            if k not in q:
                err(f"missing {k}")
        if qid in seen:
            err("duplicate id")
        seen.add(qid)
        if q["method"] not in ("local", "global"):
            err(f"bad method {q['method']}")
        if q["kind"] not in KINDS:
            err(f"bad kind {q['kind']}")
        if q["kind"] == "themes" and q["method"] != "global":
            err("themes must be global")
        if not (1 <= len(q["keywords"]) <= 3) or not all(q["keywords"]):
            err("keywords must be 1-3 non-empty groups")
        if q["kind"] == "who_is" and not q.get("first_sentence_keywords"):
            err("who_is needs first_sentence_keywords")
        counts[(q["corpus"], q["kind"])] += 1
        ev = q.get("evidence", "")
        if q["method"] == "global" and not ev:
            continue
        if not ev:
            err("local question without evidence")
            continue
        texts = doc_texts(q["docs"])
        hits = [name for name, t in texts.items() if ev in t]
        if not hits:
            err("evidence is not an exact substring of its documents")
        missing = groups_ok(q["keywords"], ev)
        if missing:
            err(f"keyword groups not in evidence: {missing}")
        missing = groups_ok(q.get("first_sentence_keywords", []), ev)
        if missing:
            err(f"first-sentence groups not in evidence: {missing}")
    for e in errors:
        print("FAIL", e)
    corpora = sorted({c for c, _ in counts})
    kinds = ["who_is", "fact", "about", "themes"]
    print(f"{'corpus':22}" + "".join(f"{k:>8}" for k in kinds) + f"{'total':>8}")
    for c in corpora:
        row = [counts[(c, k)] for k in kinds]
        print(f"{c:22}" + "".join(f"{n:>8}" for n in row) + f"{sum(row):>8}")
    tot = [sum(counts[(c, k)] for c in corpora) for k in kinds]
    print(f"{'all':22}" + "".join(f"{n:>8}" for n in tot) + f"{sum(tot):>8}")
    print(f"{len(rows)} questions, {len(errors)} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
