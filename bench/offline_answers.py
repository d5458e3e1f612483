"""Offline answers against questions with checked answers (bench/data/offline_questions.jsonl).

Per corpus: each corpus is indexed with the offline engine into a temporary workspace, every
question is asked with its method (global or local, no model) and the answer is checked:
- keywords: the answer holds an alternative of every keyword group (case-insensitive);
- first sentence (local questions): the answer's first sentence holds the groups of
  `first_sentence_keywords` (who-is) or of `keywords` (facts);
- themes (global "themes" questions): distinct theme items, each with a title and a citation;
- entity precision/recall of person and place names on the hand-labelled samples in
  tests/data/entity_sample_*.json;
- index seconds and answer seconds (median and max).

    .venv/bin/python bench/offline_answers.py [--corpus christmas_carol ...] [--show]
                                              [--name offline_answers] [--set dev|dev2|dev3|heldout|blind|blind2|...|blind12|all]

Questions asked with method "auto" go through run_method as the app and the CLI ask them; an
"unanswerable" question is right when its answer's first sentence says the documents do not
mention what it asks about. Results are printed per corpus and genre. --set blind also scores
the blind entity samples (persons, places, organisations, products: recall per category,
precision over all extracted entities); measure it once, before and after, as its README says.

--show prints every answer; results go to bench/results/<name>.json.
"""
from __future__ import annotations

import argparse
import fnmatch
import json
import re
import statistics
import tempfile
import time
import zipfile
from pathlib import Path

from _common import CORPORA, ROOT, write_result

from core.index.pipeline import run_index
from core.ingest.documents import ingest_paths
from core.query.global_search import global_search
from core.query.local_search import local_search
from core.query.methods import run_method
from core.query.offline_answer import sentences, split_refs
from core.settings import Settings
from core.store.db import Store
from core.textutil import normalize_title

QUESTIONS = ROOT / "bench" / "data" / "offline_questions.jsonl"
HELDOUT = ROOT / "bench" / "data" / "offline_questions_heldout.jsonl"  # written before any tuning
DEV2 = ROOT / "bench" / "data" / "offline_questions_dev2.jsonl"  # more dev questions, other documents
DEV3 = ROOT / "bench" / "data" / "offline_questions_dev3.jsonl"  # list and unanswerable questions, Markdown pages
BLIND = ROOT / "bench" / "data" / "blind"  # written blind: measured once, before and after (its README)
BLIND2 = ROOT / "bench" / "data" / "blind2"  # the second such set (session 22)
BLIND3 = ROOT / "bench" / "data" / "blind3"  # the third (session 23)
BLIND4 = ROOT / "bench" / "data" / "blind4"  # the fourth (session 23, measured at its end)
BLIND5 = ROOT / "bench" / "data" / "blind5"  # the fifth (session 24)
BLIND6 = ROOT / "bench" / "data" / "blind6"  # the sixth (session 25)
BLIND7 = ROOT / "bench" / "data" / "blind7"  # the seventh (session 26)
BLIND8 = ROOT / "bench" / "data" / "blind8"  # the eighth (session 27)
BLIND9 = ROOT / "bench" / "data" / "blind9"  # the ninth (session 28)
BLIND10 = ROOT / "bench" / "data" / "blind10"  # the tenth (session 29)
BLIND11 = ROOT / "bench" / "data" / "blind11"  # the eleventh (session 30)
BLIND12 = ROOT / "bench" / "data" / "blind12"  # the twelfth (session 31)
BLIND_SETS = {"blind": BLIND, "blind2": BLIND2, "blind3": BLIND3, "blind4": BLIND4, "blind5": BLIND5,
              "blind6": BLIND6, "blind7": BLIND7, "blind8": BLIND8, "blind9": BLIND9,
              "blind10": BLIND10, "blind11": BLIND11, "blind12": BLIND12}
GENRE = {"christmas_carol": "fiction", "operation_dulce": "fiction", "behind_the_tech_podcasts": "transcript",
         "msft_earnings_calls": "financial call", "graphrag_docs_md": "technical docs",
         "python_peps": "technical docs", "graphrag_articles_zh": "articles (Chinese)",
         "sample_corpus": "reports and news"}
SAMPLES = ROOT / "tests" / "data"
if not CORPORA.exists():  # a worktree sits one level deeper than the main checkout
    CORPORA = Path("/work/shared/corpora")


def load_questions(which: str = "dev") -> list[dict]:
    files = {"dev": [QUESTIONS], "dev2": [DEV2], "dev3": [DEV3], "heldout": [HELDOUT],
             "blind": [BLIND / "questions_heldout.jsonl"],
             "blind2": [BLIND2 / "questions.jsonl"], "blind3": [BLIND3 / "questions.jsonl"],
             "blind4": [BLIND4 / "questions.jsonl"], "blind5": [BLIND5 / "questions.jsonl"],
             "blind6": [BLIND6 / "questions.jsonl"], "blind7": [BLIND7 / "questions.jsonl"],
             "blind8": [BLIND8 / "questions.jsonl"],
             "blind9": [BLIND9 / "questions.jsonl"],
             "blind10": [BLIND10 / "questions.jsonl"], "blind11": [BLIND11 / "questions.jsonl"],
             "blind12": [BLIND12 / "questions.jsonl"], "all": [QUESTIONS, DEV2, DEV3, HELDOUT]}[which]
    return [json.loads(l) for f in files for l in f.read_text(encoding="utf-8").splitlines() if l.strip()]


def doc_paths(docs: list[str], tmp: Path | None = None) -> list[Path]:
    """Paths of a question's documents; "archive.zip::member" (member may be a glob) is
    extracted into tmp."""
    out = []
    for d in docs:
        if "::" in d:
            arc, pattern = d.split("::", 1)
            with zipfile.ZipFile(CORPORA / arc) as z:
                for name in sorted(z.namelist()):
                    if fnmatch.fnmatchcase(name, pattern):
                        dest = tmp / Path(name).name
                        dest.write_bytes(z.read(name))
                        out.append(dest)
        elif d.rstrip("/") == "sample_corpus":
            out += [p for p in sorted((ROOT / "sample_corpus").iterdir()) if p.is_file() and p.name != "README.md"]
        else:
            out.append(CORPORA / d)
    return out


def has_groups(groups: list[list[str]], text: str) -> bool:
    low = (text or "").lower().replace("\u2019", "'")
    return all(any(a.lower().replace("\u2019", "'") in low for a in g) for g in groups)


def first_sentence(answer: str) -> str:
    """The answer's first sentence, its citation markers left out."""
    for s in sentences(answer or ""):
        body = split_refs(s)[0].strip(" *#-")
        if body:
            return body
    return ""


_ITEM = re.compile(r"^\s*\d+[.)]\s+\*\*(?P<title>[^*]+)\*\*(?P<rest>.*)$")


def theme_items(answer: str) -> list[dict]:
    """Theme items of an answer: list lines "1. **Title** ... [Data: ...]"."""
    items = []
    lines = (answer or "").splitlines()
    for i, line in enumerate(lines):
        m = _ITEM.match(line)
        if not m:
            continue
        body = m.group("rest")
        for nxt in lines[i + 1:]:
            if _ITEM.match(nxt):
                break
            body += " " + nxt
        items.append({"title": m.group("title").strip(), "cited": "[Data:" in body})
    return items


def index_corpus(store: Store, docs: list[str], tmp: Path, lines: tuple[int, int] | None = None) -> float:
    """Ingest and index the docs offline (lines: only those lines, 1-based and inclusive, of a
    one-document sample); the seconds it took."""
    src = tmp / "docs"
    src.mkdir()
    paths = doc_paths(docs, src)
    if lines is not None:  # a copy holding those lines (the corpora are read, never written)
        cut = []
        for path in paths:
            text = path.read_text(encoding="utf-8").splitlines(keepends=True)
            dest = src / f"lines-{path.name}"
            dest.write_text("".join(text[lines[0] - 1:lines[1]]), encoding="utf-8")
            cut.append(dest)
        paths = cut
    t0 = time.perf_counter()
    report = ingest_paths(store, paths, max_bytes=50_000_000)
    if report.rejected or not report.added:
        raise SystemExit(f"could not read {docs}: {report.rejected}")
    run_index(store, Settings(engine="offline"))
    return time.perf_counter() - t0


def entity_scores(store: Store, sample_path: Path) -> dict:
    """Recall: share of labelled persons/places found as one entity of that type (under any of
    its names); precision: share of extracted person/geo entities that are a labelled name of
    that kind; split: labelled persons written as more than one entity."""
    sample = json.loads(sample_path.read_text(encoding="utf-8"))
    kinds = {"person": sample["persons"], "geo": sample["places"]}
    alias_of: dict[str, tuple[str, str]] = {}
    for kind, names in kinds.items():
        for canon, aliases in names.items():
            for a in [canon, *aliases]:
                alias_of[normalize_title(a)] = (kind, canon)
    neutral = {normalize_title(n) for n in sample.get("neutral", [])}
    ents = store.query("select title, type from entities")
    found: dict[tuple[str, str], list[str]] = {}
    tp = fp = 0
    wrong: list[str] = []
    for e in ents:
        key = normalize_title(e["title"])
        hit = alias_of.get(key)
        if hit and hit[0] == e["type"]:
            found.setdefault(hit, []).append(e["title"])
        if e["type"] not in kinds:
            continue
        if hit and hit[0] == e["type"]:
            tp += 1
        elif key not in neutral:
            fp += 1
            wrong.append(f"{e['title']} ({e['type']})")
    gold = [(k, c) for k, names in kinds.items() for c in names]
    recall = sum(1 for g in gold if g in found) / len(gold)
    split = {c: v for (k, c), v in found.items() if len(v) > 1}
    return {"recall": round(recall, 3), "precision": round(tp / (tp + fp), 3) if tp + fp else 0.0,
            "labelled": len(gold), "found": sum(1 for g in gold if g in found),
            "extracted_person_geo": tp + fp, "false_positives": wrong[:40], "split": split,
            "missed": [c for g, c in [((k, c), c) for k, c in gold] if g not in found]}


_CATEGORIES = {"persons": "person", "places": "geo", "organizations": "organization", "products": None}


def category_scores(store: Store, sample: dict) -> dict:
    """Recall per category of a sample with persons, places, organizations and products (a name
    found under any of its names, of any type: the type is scored apart), and precision: the
    share of extracted entities that are a labelled name or neutral."""
    alias_of: dict[str, tuple[str, str]] = {}
    for cat in _CATEGORIES:
        for canon, aliases in (sample.get(cat) or {}).items():
            for a in [canon, *aliases]:
                alias_of[normalize_title(a)] = (cat, canon)
    neutral = {normalize_title(n) for n in sample.get("neutral", [])}
    found: set[tuple[str, str]] = set()
    typed: set[tuple[str, str]] = set()
    tp = fp = 0
    extra: list[str] = []
    for e in store.query("select title, type from entities"):
        key = normalize_title(e["title"])
        hit = alias_of.get(key)
        if hit:
            found.add(hit)
            if _CATEGORIES[hit[0]] in (None, e["type"]):
                typed.add(hit)
            tp += 1
        elif key not in neutral:
            fp += 1
            extra.append(f"{e['title']} ({e['type']})")
    out: dict = {}
    for cat in _CATEGORIES:
        gold = [(cat, c) for c in (sample.get(cat) or {})]
        if gold:
            out[cat] = {"recall": round(sum(g in found for g in gold) / len(gold), 3),
                        "typed": round(sum(g in typed for g in gold) / len(gold), 3), "labelled": len(gold)}
    gold_all = [(c, n) for c in _CATEGORIES for n in (sample.get(c) or {})]
    out["recall"] = round(sum(g in found for g in gold_all) / len(gold_all), 3) if gold_all else None
    out["precision"] = round(tp / (tp + fp), 3) if tp + fp else 0.0
    out["missed"] = [n for g in gold_all if g not in found for n in [g[1]]]
    out["not_labelled"] = sorted(extra)
    return out


def run_samples(folder: Path) -> list[dict]:
    """Index each entity sample's documents offline and score its names (category_scores)."""
    out = []
    for path in sorted(folder.glob("entity_sample_*.json")):
        sample = json.loads(path.read_text(encoding="utf-8"))
        docs = sample.get("docs") or [sample["doc"]]
        with tempfile.TemporaryDirectory() as tmp:
            store = Store(Path(tmp) / "ws")
            span = (sample.get("span") or {}).get("lines")
            secs = index_corpus(store, docs, Path(tmp), tuple(span) if span else None)
            scores = category_scores(store, sample)
        name = path.stem.split("entity_sample_", 1)[1]  # two samples of one corpus: "python_peps_a", "_b"
        corpus = sample.get("corpus") or name
        out.append({"corpus": corpus, "sample": name, "genre": GENRE.get(corpus, "other"),
                    "index_seconds": round(secs, 2), **scores})
        cats = "  ".join(f"{c} R {v['recall']:.2f}" for c, v in scores.items() if isinstance(v, dict))
        print(f"entities {name:28} ({GENRE.get(corpus, 'other')}): P {scores['precision']:.2f} "
              f"R {scores['recall']}  {cats}  index {secs:.2f} s")
    return out


def run_corpus(corpus: str, qs: list[dict], show: bool, blind: bool = False) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "ws")
        index_s = index_corpus(store, qs[0]["docs"], Path(tmp))
        counts = {t: store.count(t) for t in ("entities", "relationships", "communities", "community_reports")}
        rows = []
        for q in qs:
            t = time.perf_counter()
            if q["method"] == "global":
                res = global_search(store, q["question"], llm=None, record=False)
            elif q["method"] == "auto":  # what the app and the CLI do: route, run, say what is absent
                res = run_method("auto", store, q["question"])
            else:
                res = local_search(store, q["question"], llm=None, record=False)
            secs = time.perf_counter() - t
            ans = res.answer or ""
            row = {"id": q["id"], "kind": q["kind"], "method": q["method"], "question": q["question"],
                   "keywords": has_groups(q["keywords"], ans), "seconds": round(secs, 4), "answer": ans}
            if q["kind"] == "unanswerable":  # right when it says so first
                row["keywords"] = "do not mention" in first_sentence(ans) or bool(res.no_data)
                row["absent_said"] = row["keywords"]
                row["routed"] = res.method
            elif q["method"] == "local" or q["kind"] in ("who_is", "fact"):
                groups = q.get("first_sentence_keywords") or q["keywords"]
                row["first_sentence"] = has_groups(groups, first_sentence(ans))
            if q["method"] == "auto":
                row["routed"] = res.method
            if q["kind"] == "themes":
                items = theme_items(ans)
                row["themes"] = len({i["title"].lower() for i in items if i["cited"]})
            rows.append(row)
            if show:
                mark = "OK " if row["keywords"] else "-- "
                print(f"\n{mark}{q['id']} [{q['method']}] {q['question']}\n{ans[:1500]}")
        sample = SAMPLES / f"entity_sample_{corpus.replace('christmas_carol', 'carol').replace('operation_dulce', 'dulce')}.json"
        ents = entity_scores(store, sample) if sample.exists() and not blind else None
    local = [r for r in rows if "first_sentence" in r]
    who = [r for r in local if r["kind"] == "who_is"]
    times = [r["seconds"] for r in rows]
    themes = [r["themes"] for r in rows if "themes" in r]
    absent = [r for r in rows if "absent_said" in r]
    return {"corpus": corpus, "genre": GENRE.get(corpus, "other"), "label": qs[0]["id"].rsplit("-q", 1)[0],
            "docs": qs[0]["docs"], "questions": len(rows), "index_seconds": round(index_s, 2), "counts": counts,
            "not_in_documents": f"{sum(r['absent_said'] for r in absent)}/{len(absent)}",
            "keywords": round(sum(r["keywords"] for r in rows) / len(rows), 3),
            "keywords_n": sum(r["keywords"] for r in rows),
            "first_sentence_local": round(sum(r["first_sentence"] for r in local) / len(local), 3) if local else None,
            "first_sentence_who_is": f"{sum(r['first_sentence'] for r in who)}/{len(who)}",
            "themes_per_themes_question": themes,
            "answer_seconds_median": round(statistics.median(times), 4), "answer_seconds_max": round(max(times), 4),
            "entities": ents, "rows": rows}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", nargs="*")
    ap.add_argument("--show", action="store_true")
    ap.add_argument("--name", default="offline_answers")
    ap.add_argument("--set", default="dev", choices=["dev", "dev2", "dev3", "heldout", *BLIND_SETS, "all"],
                    help="dev: offline_questions.jsonl; dev2: offline_questions_dev2.jsonl; dev3: list and "
                         "unanswerable questions; heldout: offline_questions_heldout.jsonl; blind: "
                         "bench/data/blind (questions and entity samples: measure once, see its README); blind2-12: bench/data/blind2 to blind12, the same")
    args = ap.parse_args()
    qs = load_questions(args.set)
    # one index per corpus and document list (the held-out set uses other documents of a corpus)
    groups: dict[tuple, list[dict]] = {}
    for q in qs:
        groups.setdefault((q["corpus"], tuple(q["docs"])), []).append(q)
    out = []
    for (c, _), group in groups.items():
        if args.corpus and c not in args.corpus:
            continue
        r = run_corpus(c, group, args.show, blind=args.set in BLIND_SETS)
        out.append(r)
        e = r["entities"]
        ent = (f"; persons/places P {e['precision']:.2f} R {e['recall']:.2f} ({e['found']}/{e['labelled']}), "
               f"split {len(e['split'])}" if e else "")
        print(f"{c + ' (' + r['label'] + ', ' + r['genre'] + ')':34} {r['questions']:3} q  keywords {r['keywords_n']}/{r['questions']} ({r['keywords']:.0%})  "
              f"not in the documents {r['not_in_documents']}  "
              f"first sentence (local) {r['first_sentence_local'] if r['first_sentence_local'] is not None else '-'}"
              f" who-is {r['first_sentence_who_is']}  themes {r['themes_per_themes_question']}  index "
              f"{r['index_seconds']} s  answer median {r['answer_seconds_median']} s max "
              f"{r['answer_seconds_max']} s{ent}")
    total = sum(r["questions"] for r in out)
    hits = sum(r["keywords_n"] for r in out)
    genres: dict[str, list[int]] = {}
    for r in out:
        g = genres.setdefault(r["genre"], [0, 0])
        g[0] += r["keywords_n"]
        g[1] += r["questions"]
    print("by genre: " + "; ".join(f"{g} {h}/{n}" for g, (h, n) in sorted(genres.items())))
    print(f"all: keywords {hits}/{total} ({hits / total:.0%})")
    samples = run_samples(BLIND_SETS[args.set]) if args.set in BLIND_SETS else []
    print(f"  -> {write_result(args.name, {'corpora': out, 'keywords_all': round(hits / total, 3), 'entity_samples': samples})}")


if __name__ == "__main__":
    main()
