"""One-paragraph edits against content-defined chunks (issue 22): how many units an edit changes.

For documents of five shared corpora (A Christmas Carol, Operation Dulce, podcast episodes (the
parts of an episode joined in order), an earnings call, Chinese articles) apply many edits of six
kinds to one paragraph each: a word inserted, a word deleted, a sentence appended, a sentence
deleted, the paragraph rewritten (every sentence reworded) and the paragraph split in two. For
each edit count the units whose text is new (the units an index run extracts again) under the
current rule (core.index.chunking.content_chunks) and the rule of an older commit (--old, loaded
from git), and print per corpus and kind the share of edits changing <= 2 units and the max;
also units per corpus and their mean size under both rules and under plain token windows.

    .venv/bin/python bench/chunk_edits.py [--edits 30] [--size 600] [--overlap 100] [--old 51abfd3]
        [--wide] [--rules before,after]

--wide: the 20 kinds of WIDE_KINDS (a word changed / inserted / deleted, a sentence added /
deleted / rewritten, each at the paragraph's start, middle and end; the paragraph rewritten; split).
--rules after: the current rule only (two processes can run the two rules side by side).
--corpora christmas_carol,podcasts: only those; --heldout: documents the default set does not
hold (the last 3 podcast episodes, two earnings calls), never used to choose the rule.
"""
from __future__ import annotations

import argparse
import functools
import random
import re
import subprocess
import sys
import time
import types
import zipfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from _common import CORPORA, write_result  # noqa: E402

import core.index.chunking as current  # noqa: E402
from core.textutil import is_cjk, split_sentences  # noqa: E402
from core.tokens import get_encoding  # noqa: E402

KINDS = ["word_inserted", "word_deleted", "sentence_appended", "sentence_deleted", "paragraph_rewritten",
         "paragraph_split"]
# the wide set (--wide): a word changed / inserted / deleted, a sentence added / deleted /
# rewritten, each at the paragraph's start, middle and end; then the whole paragraph rewritten, split
WHERE = ["start", "middle", "end"]
WIDE_KINDS = [f"{k}@{w}" for k in ["word_changed", "word_inserted", "word_deleted", "sentence_added",
                                   "sentence_deleted", "sentence_rewritten"] for w in WHERE] + [
    "paragraph_rewritten", "paragraph_split"]
PARA = re.compile(r"\r?\n[ \t]*\r?\n\s*")


def episodes_text(c: Path) -> list[str]:
    """Every podcast episode's text (its parts joined in order), episodes in name order."""
    with zipfile.ZipFile(c / "behind_the_tech_podcasts" / "kevin_scott_podcast_transcripts.zip") as z:
        by_ep: dict[str, list[tuple[int, str]]] = {}
        for n in z.namelist():
            m = re.search(r"([^/]+)-part(\d+)\.txt$", n)
            if m:
                by_ep.setdefault(m.group(1), []).append((int(m.group(2)), n))
        return ["\r\n\r\n".join(z.read(n).decode("utf-8") for _, n in sorted(by_ep[e])) for e in sorted(by_ep)]


def corpora(episodes: int, calls: int) -> dict[str, list[str]]:
    c = CORPORA if CORPORA.exists() else Path("/work/shared/corpora")
    out = {"christmas_carol": [(c / "christmas_carol" / "a_christmas_carol_pg24022.txt").read_text(encoding="utf-8-sig")],
           "operation_dulce": [(c / "operation_dulce" / "operation_dulce_v2_1_1.md").read_text(encoding="utf-8")]}
    out["podcasts"] = episodes_text(c)[:episodes]
    with zipfile.ZipFile(c / "msft_earnings_calls" / "msft_earnings_transcripts.zip") as z:
        names = sorted(n for n in z.namelist() if n.endswith(".txt"))[:calls]
        out["earnings_calls"] = [z.read(n).decode("utf-8", "replace") for n in names]
    out["chinese_articles"] = [p.read_text(encoding="utf-8") for p in sorted((c / "graphrag_articles_zh").glob("*.txt"))]
    return out


HELDOUT_CALLS = ["txt/TranscriptFY19Q2.txt", "txt/TranscriptFY21Q3.txt"]


def heldout_corpora(episodes: int = 3) -> dict[str, list[str]]:
    """Documents the default set does not hold, never used to choose the cut rule: the last
    `episodes` podcast episodes and two earnings calls from the middle of the archive."""
    c = CORPORA if CORPORA.exists() else Path("/work/shared/corpora")
    pods = episodes_text(c)[-episodes:]
    with zipfile.ZipFile(c / "msft_earnings_calls" / "msft_earnings_transcripts.zip") as z:
        calls = [z.read(n).decode("utf-8", "replace") for n in HELDOUT_CALLS]
    return {"podcasts_heldout": pods, "earnings_calls_heldout": calls}


def paragraphs(text: str) -> list[tuple[int, int]]:
    spans, pos = [], 0
    for m in PARA.finditer(text):
        spans.append((pos, m.start()))
        pos = m.end()
    spans.append((pos, len(text)))
    return [(a, b) for a, b in spans if b > a]


def _pick(n: int, where: str, rnd: random.Random, edge: int = 1) -> int:
    """An index of 0..n-1 at the start (the first `edge`), the end (the last `edge`) or the middle."""
    if where == "start":
        return rnd.randrange(min(edge, n))
    if where == "end":
        return n - 1 - rnd.randrange(min(edge, n))
    return rnd.randrange(min(edge, n - 1), max(min(edge, n - 1) + 1, n - edge))


def _new_sentence(text: str, zh: bool, rnd: random.Random) -> str:
    w = rnd.choice(re.findall(r"[A-Za-z]{4,}", text) or ["that"])
    return (rnd.choice(["这一点后来也没有人再提起。", "他们随后又讨论了很久。", "此外还有一个问题。"]) if zh else
            f"{rnd.choice(['Nobody', 'Everyone', 'Later', 'Then'])} {rnd.choice(['said', 'noted', 'recalled'])} "
            f"the {w.lower()} again afterwards.")


def _wide_edit(text: str, p: str, kind: str, where: str, zh: bool, sents: list, rnd: random.Random) -> str | None:
    """One paragraph `p` edited by a wide kind at `where` (start / middle / end of the paragraph)."""
    if kind.startswith("word_"):
        if zh:
            i = _pick(len(p) - 2, where, rnd, 4)
            return (p[:i] + "确实" + p[i:] if kind == "word_inserted" else p[:i] + p[i + 2:]
                    if kind == "word_deleted" else p[:i] + "也" + p[i + 1:])
        w = p.split(" ")
        if len(w) < 4:
            return None
        j = _pick(len(w), where, rnd, 3)
        if kind == "word_inserted":
            return " ".join(w[:j] + ["indeed"] + w[j:])
        if kind == "word_deleted":
            return " ".join(w[:j] + w[j + 1:]) if j else " ".join(w[1:])
        trail = w[j][len(w[j].rstrip(".,;:!?'\"")):]  # keep the punctuation after the word
        return " ".join(w[:j] + ["something" + trail] + w[j + 1:])
    if kind == "sentence_added":
        new = _new_sentence(text, zh, rnd)
        k = _pick(len(sents) + 1, where, rnd)
        at = sents[k][0] if k < len(sents) else len(p)
        return p[:at] + (new if zh else (new + " " if k < len(sents) else " " + new)) + p[at:]
    if len(sents) < 2:
        return None
    k = _pick(len(sents), where, rnd)
    s0, s1 = sents[k]
    if kind == "sentence_deleted":
        nxt = sents[k + 1][0] if k + 1 < len(sents) else len(p)
        return (p[:s0].rstrip() + p[s1:]) if k + 1 == len(sents) else p[:s0] + p[nxt:]
    s = p[s0:s1]  # sentence_rewritten: three words of it replaced, one inserted
    if zh:
        for _ in range(3):
            i = rnd.randrange(max(1, len(s) - 1))
            s = s[:i] + "也" + s[i + 1:]
        s = s[:-1] + "的说法" + s[-1:]
    else:
        w = s.split(" ")
        for _ in range(min(3, len(w))):
            w[rnd.randrange(len(w))] = "something"
        w.insert(rnd.randrange(len(w) + 1), "quite")
        s = " ".join(w)
    return p[:s0] + s + p[s1:]


def edit(text: str, kind: str, rnd: random.Random) -> str | None:
    """The text with one paragraph edited by `kind`, or None when the chosen paragraph does not
    allow it (too short, one sentence). A kind "x@where" is one of WIDE_KINDS."""
    a, b = rnd.choice([s for s in paragraphs(text) if s[1] - s[0] >= 60])
    p = text[a:b]
    zh = is_cjk(p)
    sents = split_sentences(p)
    if "@" in kind:
        base, where = kind.split("@")
        q = _wide_edit(text, p, base, where, zh, sents, rnd)
        return text[:a] + q + text[b:] if q is not None and q != p else None
    if kind == "word_inserted":
        if zh:
            i = rnd.randrange(1, len(p))
            q = p[:i] + "确实" + p[i:]
        else:
            w = p.split(" ")
            j = rnd.randrange(1, len(w))
            q = " ".join(w[:j] + ["indeed"] + w[j:])
    elif kind == "word_deleted":
        if zh:
            i = rnd.randrange(1, len(p) - 2)
            q = p[:i] + p[i + 2:]
        else:
            w = p.split(" ")
            if len(w) < 3:
                return None
            j = rnd.randrange(1, len(w))
            q = " ".join(w[:j] + w[j + 1:])
    elif kind == "sentence_appended":
        w = rnd.choice(re.findall(r"[A-Za-z]{4,}", text) or ["that"])
        q = p + (rnd.choice(["这一点后来也没有人再提起。", "他们随后又讨论了很久。", "此外还有一个问题。"]) if zh else
                 f" {rnd.choice(['Nobody', 'Everyone', 'Later', 'Then'])} {rnd.choice(['said', 'noted', 'recalled'])} "
                 f"the {w.lower()} again afterwards.")
    elif kind == "sentence_deleted":
        if len(sents) < 2:
            return None
        k = rnd.randrange(len(sents))
        s0 = sents[k][0]
        s1 = sents[k + 1][0] if k + 1 < len(sents) else len(p)
        q = (p[:s0] + p[s1:]).rstrip() if k + 1 == len(sents) else p[:s0] + p[s1:]
    elif kind == "paragraph_rewritten":
        q = p
        for s0, s1 in reversed(sents):
            s = q[s0:s1]
            if zh:
                i = rnd.randrange(0, max(1, len(s) - 1))
                s = s[:i] + "也" + s[i + 1:]
            else:
                w = s.split(" ")
                j = rnd.randrange(len(w))
                w[j] = "something" if len(w) > 1 else w[j] + " too"
                w.insert(rnd.randrange(len(w) + 1), "quite")
                s = " ".join(w)
            q = q[:s0] + s + q[s1:]
    elif kind == "paragraph_split":
        if len(sents) < 2:
            return None
        k = rnd.randrange(1, len(sents))
        e, s = sents[k - 1][1], sents[k][0]
        sep = "\r\n\r\n" if "\r\n" in text else "\n\n"
        q = p[:e] + sep + p[s:]
    else:
        raise ValueError(kind)
    return text[:a] + q + text[b:] if q != p else None


def edits_of(corpus: str, texts: list[str], kind: str, per: int):
    """(document index, edited text) of up to `per` edits of one kind on a corpus's documents
    (a document drawn by length): seeded by corpus and kind, so every bench that compares cut
    rules (cut_rule_variants, cut_rule_keys) measures the same edits in the same order."""
    rnd = random.Random(f"{corpus}/{kind}")
    got = tries = 0
    while got < per and tries < per * 20:
        tries += 1
        d = rnd.choices(range(len(texts)), weights=[len(t) for t in texts])[0]
        new = edit(texts[d], kind, rnd)
        if new is not None:
            got += 1
            yield d, new


def make_edits(docs: dict[str, list[str]], per: int, kinds: list[str] = WIDE_KINDS) -> list[tuple[str, str, int, str]]:
    """(corpus, kind, document index, edited text) of every edit of `kinds` (the wide set)."""
    return [(corpus, kind, d, new) for corpus, texts in docs.items() for kind in kinds
            for d, new in edits_of(corpus, texts, kind, per)]


def changed(before: list, after: list) -> int:
    return sum((Counter(c.text for c in after) - Counter(c.text for c in before)).values())


class _CachedEncoding:
    """The encoding with its token counts of repeated pieces remembered (the bench chunks the same
    sentences hundreds of times); everything else goes to the real one."""

    def __init__(self, enc):
        self._enc = enc
        self.encode_ordinary = functools.lru_cache(maxsize=1 << 18)(lambda s: enc.encode_ordinary(s))

    def __getattr__(self, name):
        return getattr(self._enc, name)


def load_rule(commit: str) -> types.ModuleType:
    src = subprocess.run(["git", "show", f"{commit}:core/index/chunking.py"], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    mod = types.ModuleType(f"chunking_{commit}")
    sys.modules[mod.__name__] = mod  # dataclasses look their module up
    exec(compile(src, f"chunking@{commit}", "exec"), mod.__dict__)
    return mod


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--edits", type=int, default=30, help="edits per corpus and kind")
    ap.add_argument("--size", type=int, default=600)
    ap.add_argument("--overlap", type=int, default=100)
    ap.add_argument("--old", default="51abfd3", help="commit whose content_chunks is the 'before' rule")
    ap.add_argument("--wide", action="store_true", help="the 20 kinds of WIDE_KINDS instead of the 6 of KINDS")
    ap.add_argument("--rules", default="before,after")
    ap.add_argument("--episodes", type=int, default=6)
    ap.add_argument("--calls", type=int, default=3)
    ap.add_argument("--name", default="chunk_edits")
    ap.add_argument("--corpora", default="", help="only these corpora (comma-separated names)")
    ap.add_argument("--heldout", action="store_true", help="the held-out documents (heldout_corpora) instead")
    args = ap.parse_args()
    enc = _CachedEncoding(get_encoding())
    rules = {r: m for r, m in {"before": load_rule(args.old), "after": current}.items() if r in args.rules.split(",")}
    kinds = WIDE_KINDS if args.wide else KINDS
    for m in rules.values():
        m.get_encoding = lambda *_a, **_k: enc
    docs = heldout_corpora() if args.heldout else corpora(args.episodes, args.calls)
    if args.corpora:
        docs = {k: v for k, v in docs.items() if k in args.corpora.split(",")}
    t0 = time.perf_counter()
    sizes, rows = {}, []
    for corpus, texts in docs.items():
        base = {r: [m.content_chunks(t, args.size, args.overlap) for t in texts] for r, m in rules.items()}
        windows = sum(len(current.chunk_text(t, args.size, args.overlap)) for t in texts)
        sizes[corpus] = {"documents": len(texts), "token_windows": windows, **{
            r: {"units": sum(map(len, b)), "mean_tokens": round(sum(c.n_tokens for x in b for c in x) / max(1, sum(map(len, b))), 1),
                "max_tokens": max(c.n_tokens for x in b for c in x)} for r, b in base.items()}}
        for r in rules:
            for x in base[r]:
                sizes[corpus][r].setdefault("all_tokens", []).extend(c.n_tokens for c in x)
        s = sizes[corpus]
        print(f"{corpus:<17} {len(texts)} docs, token windows {windows}: " + "; ".join(
            f"units {r} {s[r]['units']} (mean {s[r]['mean_tokens']}, max {s[r]['max_tokens']})" for r in rules), flush=True)
        for kind in kinds:
            counts: dict[str, list[int]] = {r: [] for r in rules}
            first = next(iter(rules))
            for d, new in edits_of(corpus, texts, kind, args.edits):
                for r, m in rules.items():
                    counts[r].append(changed(base[r][d], m.content_chunks(new, args.size, args.overlap)))
            row = {"corpus": corpus, "kind": kind, "edits": len(counts[first]), **{
                r: {"le2": sum(n <= 2 for n in v), "max": max(v, default=0), "hist": dict(sorted(Counter(v).items()))}
                for r, v in counts.items()}}
            rows.append(row)
            n = row["edits"]
            print(f"  {kind:<25} {n:>3} edits  <=2 units: " + "  ".join(
                f"{r} {row[r]['le2']:>3}/{n} (max {row[r]['max']}, hist {row[r]['hist']})" for r in rules), flush=True)
    tot = {r: (sum(x[r]["le2"] for x in rows), sum(x["edits"] for x in rows), max(x[r]["max"] for x in rows)) for r in rules}
    for r, (k, n, mx) in tot.items():
        print(f"all {r:<7} {k}/{n} edits change <= 2 units ({100 * k / n:.1f}%), max {mx}")
    for s in sizes.values():  # the size distribution: deciles of chunk tokens, then drop the list
        for r in rules:
            t = sorted(s[r].pop("all_tokens"))
            s[r]["deciles"] = [t[min(len(t) - 1, len(t) * q // 10)] for q in range(11)]
    res = {"size": args.size, "wide": args.wide, "overlap": args.overlap, "old_rule": args.old, "seconds": round(time.perf_counter() - t0, 1),
           "units": sizes, "edits": rows, "total": {r: {"le2": k, "edits": n, "max": mx} for r, (k, n, mx) in tot.items()}}
    print(f"  -> {write_result(args.name, res)}")


if __name__ == "__main__":
    main()
