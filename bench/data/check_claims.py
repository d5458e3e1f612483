"""Check bench/data/claims.jsonl against the corpora it cites.

    python3 bench/data/check_claims.py            # exit 1 on any failure
    python3 bench/data/check_claims.py bench/data/claims_fresh6.jsonl   # another set

Another file gets the same per-claim checks; of the whole-file checks only the 140-claim floor
is for claims.jsonl alone (the smaller fresh sets are checks, not the development set).

Checks, per line: the fields and their values; the id is unique; the label is the one the kind
implies; the evidence is an exact substring of the document (`evidence in text`); for
`fabricated` at least one proper name of the claim occurs nowhere in the document (case-insensitive
substring, as `grep -i`); for every other kind every proper name of the claim occurs in the
document (case-insensitive, whole word); a `verbatim` claim is a contiguous piece of its evidence
(case, quote marks and whitespace ignored); a `number` claim holds a number its evidence lacks;
a `paraphrase` claim shares at most 50% of its content words (Chinese: character bigrams) with
its evidence. Over the file: at least 140 claims, at least 4 corpora, no corpus above 40%, at most
10 Chinese claims. Evidence longer than 3 sentences is reported as a warning.
"""
from __future__ import annotations

import collections
import json
import re
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPORA = HERE.parents[2] / "shared" / "corpora"
CLAIMS = HERE / "claims.jsonl"

FIELDS = ["id", "corpus", "doc", "evidence", "claim", "kind", "label", "note"]
LABEL = {"verbatim": "supported", "paraphrase": "supported", "number": "contradicted",
         "negation": "contradicted", "entity_swap": "contradicted", "fabricated": "fabricated",
         "overreach": "unsupported", "partial": "partial"}
# capitalised words that start a claim sentence but are not names
NOT_NAMES = {"A", "An", "The", "In", "On", "After", "When", "It", "He", "She", "They", "His", "Her",
             "Its", "Of", "During", "This", "Along", "Thanks", "Shaking", "Sales", "Quarterly",
             "Operating", "Full-year", "Fourth-quarter", "Foreign", "Headcount", "Devices",
             "Capital", "Conducting", "About", "Physics", "So", "I", "I'm", "I'd", "Our", "We",
             "Over", "Double-locking", "Mr", "Mrs", "Dr", "Miss", "Master", "Agent", "Colonel",
             "Madame", "Uncle", "Old", "Bah", "Humbug", "Yo", "God", "Alas", "Full", "Commercial",
             "Office", "Dynamics", "Windows", "Teams", "Premium", "Azure", "Microsoft's", "Cloud"}
NUMBER_WORDS = {"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
                "eighteen", "nineteen", "twenty", "thirty", "forty", "fifty", "sixty", "seventy",
                "eighty", "ninety", "hundred", "thousand", "million", "billion", "dozen", "half"}
STOP = {"that", "this", "with", "from", "have", "had", "were", "was", "which", "their", "there",
        "would", "could", "they", "them", "than", "then", "into", "about", "been", "when", "what",
        "your", "will", "said", "also", "only", "more", "most", "such", "very", "just", "like",
        "some", "over", "after", "before", "while", "where", "because", "being", "does", "each",
        "even", "every", "once", "these", "those", "through", "upon", "well", "again", "other"}
QUOTES = "'\"\u2018\u2019\u201c\u201d"


def read_doc(doc: str) -> str:
    if "::" in doc:
        zpath, member = doc.split("::", 1)
        with zipfile.ZipFile(CORPORA / zpath) as z:
            return z.read(member).decode("utf-8")
    return (CORPORA / doc).read_text(encoding="utf-8")


def names(claim: str) -> list[str]:
    out = []
    for tok in re.findall(r"[A-Z][A-Za-z0-9&.\-'\u2019]*", claim):
        tok = re.sub(r"(['\u2019]s|['\u2019])$", "", tok).rstrip(".-")
        if tok and tok not in NOT_NAMES and not tok.isdigit():
            out.append(tok)
    return out


def norm(s: str) -> str:
    s = s.lower()
    for q in QUOTES:
        s = s.replace(q, "")
    return re.sub(r"\s+", " ", s).strip()


def numbers(s: str) -> set[str]:
    s = s.lower().replace(",", "")
    found = set(re.findall(r"\d+(?:\.\d+)?", s))
    found |= {w for w in re.findall(r"[a-z]+", s) if w in NUMBER_WORDS}
    return found


def is_cjk(s: str) -> bool:
    return bool(re.search(r"[\u4e00-\u9fff]", s))


def overlap(claim: str, evidence: str) -> float:
    if is_cjk(claim):
        c = re.sub(r"[^\u4e00-\u9fff]", "", claim)
        e = re.sub(r"[^\u4e00-\u9fff]", "", evidence)
        cb = {c[i:i + 2] for i in range(len(c) - 1)}
        eb = {e[i:i + 2] for i in range(len(e) - 1)}
        return len(cb & eb) / max(1, len(cb))
    skip = {n.lower() for n in names(claim)}
    words = [w for w in re.findall(r"[a-z]+", claim.lower())
             if len(w) >= 4 and w not in STOP and w not in skip and w not in NUMBER_WORDS]
    ev = set(re.findall(r"[a-z]+", evidence.lower()))
    return sum(w in ev for w in words) / max(1, len(words))


ABBREV = re.compile(r"(?:\b(?:Mr|Mrs|Dr|St|Ms)\.|\.\.\.|\u2026)$")


def sentences(s: str) -> int:
    """Rough sentence count: a break is . ! ? (or the Chinese ones), maybe a closing quote, then
    space and a capital letter or opening quote; abbreviations such as Mr. and ellipses do not
    count. Chinese full stops count without the space."""
    n = 1
    for m in re.finditer(r"[.!?]['\"\u2019\u201d]?(?=\s+['\"\u2018\u201c]?[A-Z])|[\u3002\uff01\uff1f](?=.)", s.strip()):
        if not ABBREV.search(s[:m.start() + 1]):
            n += 1
    return n


def main(argv: list[str]) -> int:
    path = Path(argv[0]) if argv else CLAIMS
    errors, warnings = [], []
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    docs: dict[str, str] = {}
    seen = set()
    for r in rows:
        rid = r.get("id", "?")
        if list(r) != FIELDS:
            errors.append(f"{rid}: fields {list(r)}")
            continue
        if rid in seen:
            errors.append(f"{rid}: duplicate id")
        seen.add(rid)
        if r["kind"] not in LABEL or LABEL[r["kind"]] != r["label"]:
            errors.append(f"{rid}: kind {r['kind']} with label {r['label']}")
        if r["doc"].split("/", 1)[0] != r["corpus"]:
            errors.append(f"{rid}: corpus {r['corpus']} vs doc {r['doc']}")
        if r["doc"] not in docs:
            try:
                docs[r["doc"]] = read_doc(r["doc"])
            except (OSError, KeyError) as e:
                errors.append(f"{rid}: cannot read {r['doc']}: {e}")
                continue
        text = docs[r["doc"]]
        low = text.lower()
        if r["evidence"] not in text:
            errors.append(f"{rid}: evidence is not an exact substring of {r['doc']}")
        if sentences(r["evidence"]) > 3:
            warnings.append(f"{rid}: evidence has {sentences(r['evidence'])} sentences")
        ns = names(r["claim"])
        if r["kind"] == "fabricated":
            absent = [n for n in ns if n.lower() not in low]
            if not absent:
                errors.append(f"{rid}: fabricated claim names nothing absent from the doc ({ns})")
        else:
            missing = [n for n in ns if not re.search(r"(?<![A-Za-z])" + re.escape(n.lower()) + r"(?![A-Za-z])", low)]
            if missing:
                errors.append(f"{rid}: names not in the doc: {missing}")
        if r["kind"] == "verbatim" and norm(r["claim"]).rstrip(".!?。") not in norm(r["evidence"]):
            errors.append(f"{rid}: verbatim claim is not a piece of its evidence")
        if r["kind"] == "number":
            cn, en = numbers(r["claim"]), numbers(r["evidence"])
            if not cn - en:
                errors.append(f"{rid}: number claim has no number absent from the evidence")
        if r["kind"] == "paraphrase" and overlap(r["claim"], r["evidence"]) > 0.5:
            errors.append(f"{rid}: paraphrase shares {overlap(r['claim'], r['evidence']):.0%} of its words with the evidence")

    n = len(rows)
    by_corpus = collections.Counter(r["corpus"] for r in rows)
    if n < 140 and path.resolve() == CLAIMS:
        errors.append(f"only {n} claims")
    if len(by_corpus) < 4:
        errors.append(f"only {len(by_corpus)} corpora")
    for c, k in by_corpus.items():
        if k > 0.4 * n:
            errors.append(f"corpus {c} has {k} of {n} claims (> 40%)")
    if by_corpus.get("graphrag_articles_zh", 0) > 10:
        errors.append("more than 10 Chinese claims")

    print(f"{n} claims")
    for title, key in (("kind", "kind"), ("label", "label"), ("corpus", "corpus")):
        counts = collections.Counter(r[key] for r in rows)
        print(f"  {title}: " + ", ".join(f"{k} {v}" for k, v in counts.most_common()))
    for w in warnings:
        print("warning:", w)
    for e in errors:
        print("FAIL:", e)
    print("OK" if not errors else f"{len(errors)} failures")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
