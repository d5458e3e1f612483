"""Check bench/data/blind5/questions.jsonl against the corpora (and the entity samples' doc paths).

    python3 bench/data/blind5/check.py [questions.jsonl]     # exit 1 on any failure
    python3 bench/data/blind5/check.py /tmp/copy/questions.jsonl   # a copy elsewhere, its samples beside it

Per question: fields present, id unique, method "auto", method_hint in local/global/basic, kind allowed;
docs resolve (a `zip::member` entry may be a glob over members; a plain path may be a glob too);
- kinds with evidence (fact, list, who_is, local about): evidence is an exact substring of one doc,
  every keyword group has at least one alternative in the evidence (case-insensitive), and so has
  every first_sentence_keywords group (who_is must have them);
- themes / global about: evidence "" and 1-3 keyword groups;
- unanswerable: keywords [] and evidence "", `absent` given and occurring in none of the docs
  (case-insensitive substring, as grep -i).
Also checks the entity samples: every doc exists, canonical names are upper case, and every alias
occurs in the docs (whitespace-normalised; limited to `span` lines when given).
"""
from __future__ import annotations

import collections
import fnmatch
import glob
import json
import re
import sys
import zipfile
from pathlib import Path

# ../shared/corpora beside the checkout (a git worktree sits deeper: look further up)
CORPORA = next((d / "shared" / "corpora" for d in Path(__file__).resolve().parents
                if (d / "shared" / "corpora").is_dir()), Path("../shared/corpora"))
HERE = Path(__file__).resolve().parent
KINDS = {"who_is", "fact", "about", "themes", "list", "unanswerable"}
HINTS = {"local", "global", "basic"}
FIELDS = ["id", "corpus", "docs", "method", "method_hint", "kind", "question", "keywords", "evidence"]


def expand(doc: str) -> dict[str, str]:
    """Path (maybe a glob, maybe zip::member glob) -> {name: text}."""
    out = {}
    if "::" in doc:
        zpath, pat = doc.split("::", 1)
        with zipfile.ZipFile(CORPORA / zpath) as z:
            for m in z.namelist():
                if fnmatch.fnmatchcase(m, pat):
                    out[f"{zpath}::{m}"] = z.read(m).decode("utf-8")
    else:
        for p in sorted(glob.glob(str(CORPORA / doc))):
            out[p] = Path(p).read_text(encoding="utf-8")
    return out


def main(argv: list[str]) -> int:
    path = Path(argv[0]) if argv else HERE / "questions.jsonl"
    rows = [json.loads(l) for l in path.read_text(encoding="utf-8").splitlines() if l.strip()]
    errors: list[str] = []
    seen = set()
    cache: dict[str, dict[str, str]] = {}
    for r in rows:
        rid = r.get("id", "?")
        missing = [f for f in FIELDS if f not in r]
        if missing:
            errors.append(f"{rid}: missing fields {missing}")
            continue
        if rid in seen:
            errors.append(f"{rid}: duplicate id")
        seen.add(rid)
        if r["method"] != "auto":
            errors.append(f"{rid}: method {r['method']!r} (want 'auto')")
        if r["method_hint"] not in HINTS:
            errors.append(f"{rid}: method_hint {r['method_hint']!r}")
        kind = r["kind"]
        if kind not in KINDS:
            errors.append(f"{rid}: kind {kind!r}")
            continue
        texts: dict[str, str] = {}
        for d in r["docs"]:
            if d not in cache:
                cache[d] = expand(d)
            if not cache[d]:
                errors.append(f"{rid}: doc {d} resolves to nothing")
            texts.update(cache[d])
        ev, kw = r["evidence"], r["keywords"]
        if kind == "unanswerable":
            if kw != [] or ev != "":
                errors.append(f"{rid}: unanswerable must have keywords [] and evidence ''")
            absent = r.get("absent")
            if not absent:
                errors.append(f"{rid}: unanswerable without 'absent'")
            else:
                hits = [n for n, t in texts.items() if absent.lower() in t.lower()]
                if hits:
                    errors.append(f"{rid}: absent {absent!r} occurs in {hits[:3]}")
            continue
        if not kw or any(not g for g in kw):
            errors.append(f"{rid}: empty keywords or keyword group")
        if kind != "list" and len(kw) > 3:
            errors.append(f"{rid}: {len(kw)} keyword groups (max 3 unless list)")
        if ev == "":
            if kind not in {"themes", "about"} or r["method_hint"] != "global":
                errors.append(f"{rid}: {kind} with hint {r['method_hint']} needs evidence")
            continue
        if kind == "themes":
            errors.append(f"{rid}: themes should have evidence ''")
        if not any(ev in t for t in texts.values()):
            errors.append(f"{rid}: evidence is not an exact substring of any doc")
        low = ev.lower()
        for g in kw:
            if not any(a.lower() in low for a in g):
                errors.append(f"{rid}: keyword group {g} not in evidence")
        if kind == "who_is":
            fsk = r.get("first_sentence_keywords")
            if not fsk:
                errors.append(f"{rid}: who_is without first_sentence_keywords")
            for g in fsk or []:
                if not any(a.lower() in low for a in g):
                    errors.append(f"{rid}: first-sentence group {g} not in evidence")
        if kind == "list" and len(kw) < 2:
            errors.append(f"{rid}: list with fewer than 2 items")

    # entity samples: docs exist
    for f in sorted(path.parent.glob("entity_sample_*.json")):  # the samples beside the questions
        s = json.loads(f.read_text(encoding="utf-8"))
        text = ""
        for d in s.get("docs", []):
            got = expand(d)
            if not got:
                errors.append(f"{f.name}: doc {d} not found")
            text += "\n".join(got.values()) + "\n"
        if "span" in s:  # a line range of the (single) document
            a, b = s["span"]["lines"]
            text = "\n".join(text.splitlines()[a - 1:b])
        flat = re.sub(r"\s+", " ", text)
        for cat in ("persons", "places", "organizations", "products"):
            for canon, aliases in s.get(cat, {}).items():
                if canon != canon.upper():
                    errors.append(f"{f.name}: {canon!r} not upper case")
                for a in aliases:
                    if a not in flat:
                        errors.append(f"{f.name}: alias {a!r} of {canon} not in the docs")
                if not any(x.lower() in flat.lower() for x in [canon] + aliases):
                    errors.append(f"{f.name}: {canon} never written in the docs")

    table = collections.Counter((r["corpus"], r["kind"]) for r in rows)
    corpora = sorted({r["corpus"] for r in rows})
    kinds = ["list", "unanswerable", "fact", "who_is", "about", "themes"]
    print(f"{'corpus':28}" + "".join(f"{k:>13}" for k in kinds) + f"{'total':>7}")
    for c in corpora:
        print(f"{c:28}" + "".join(f"{table[(c, k)]:>13}" for k in kinds) + f"{sum(table[(c, k)] for k in kinds):>7}")
    print(f"{len(rows)} questions, {len(errors)} errors")
    for e in errors:
        print("FAIL:", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
