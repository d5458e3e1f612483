"""The fake model's answers to the prompts of DRIFT, TS and the pairwise judge (issue 21), each
a small function; tests/fake_model.respond asks `respond_methods` first. Deterministic: the same
prompt always gets the same answer, and the judge's verdict does not depend on the order."""
from __future__ import annotations

import hashlib
import json
import re

NAME = re.compile(r"\b([A-Z][a-z]+(?: [A-Z][a-z]+)?)\b")
KINDS = [("Write a short hypothetical answer", "drift_hyde"), ("planning what to ask next", "drift_primer"),
         ("one follow-up question of a larger question", "drift_local"),
         ("intermediate answers of a search", "drift_reduce"), ("---Source passages---", "ts_map"),
         ("---Analyst notes---", "ts_reduce"), ("fair judge comparing two answers", "judge")]


def _h(text: str) -> int:
    return int(hashlib.sha1(text.encode("utf-8")).hexdigest()[:8], 16)


def _ids(text: str) -> list[int]:
    return [int(m) for m in re.findall(r"^(\d+)\|", text, re.M)]


def _between(text: str, start: str, end: str = "---Answer format---") -> str:
    return text.split(start, 1)[-1].split(end, 1)[0]


def hyde(first: str, last: str) -> str:
    q = _between(first, "---Question---", "---Example report---").strip()
    return f"# A hypothetical report\n\nThis report would answer: {q}"


def primer(first: str, last: str) -> str:
    table = _between(first, "---Reports---")
    ids = _ids(table)[:3]
    names = [n for n in dict.fromkeys(NAME.findall(table)) if n not in {"The", "Community", "Report", "Finding"}][:3]
    return json.dumps({"intermediate_answer": "The reports say so" + (f" [Data: Reports ({', '.join(map(str, ids))})]" if ids else "") + ".",
                       "score": 20 + _h(table) % 80,
                       "follow_up_queries": [f"What do we know about {n}?" for n in names]})


def local_action(first: str, last: str) -> str:
    src = re.search(r"-----Sources-----\n(.*?)(?:\n-----|\n---|$)", first, re.S)
    ids = _ids(src.group(1))[:2] if src else []
    ents = re.search(r"-----Entities-----\n(.*?)(?:\n-----|\n---|$)", first, re.S)
    names = [row.split("|")[1].title() for row in (ents.group(1).splitlines()[1:] if ents else []) if "|" in row]
    follow = [f"What do we know about {n}?" for n in names if n.lower() not in last.lower()][:2]
    return json.dumps({"response": f"About {last.strip()}: the sources say so"
                                   + (f" [Data: Sources ({', '.join(map(str, ids))})]" if ids else "") + ".",
                       "score": 10 + _h(last) % 90, "follow_up_queries": follow})


def drift_reduce(first: str, last: str) -> str:
    markers = list(dict.fromkeys(re.findall(r"\[Data: [^\]]+\]", _between(first, "---Intermediate answers---", "\x00"))))[:3]
    return "The search found this. " + " ".join(f"Step {i + 1} says so {m}." for i, m in enumerate(markers))


def ts_map(first: str, last: str) -> str:
    ids = _ids(_between(first, "---Source passages---"))
    return json.dumps({"points": [{"description": f"Passage {i} is relevant [Data: Sources ({i})]",
                                   "score": 10 + (i * 37) % 90} for i in ids][:5]})


def ts_reduce(first: str, last: str) -> str:
    ids = re.findall(r"Sources \((\d+)\)", first)[:3]
    return "The passages answer this. " + " ".join(f"Point from passage {i} [Data: Sources ({i})]." for i in ids)


def judge(first: str, last: str) -> str:
    """Per criterion the answer with more distinct words wins (directness: fewer), 0 when equal."""
    a1 = _between(first, "---Answer 1---", "---Answer 2---")
    a2 = _between(first, "---Answer 2---", "---Answer format---")
    n1, n2 = len(set(a1.lower().split())), len(set(a2.lower().split()))
    crits = re.findall(r"^- (\w+):", _between(first, "---Criteria---", "---Question---"), re.M)
    out = {}
    for c in crits:
        more = 1 if n1 > n2 else (2 if n2 > n1 else 0)
        winner = (3 - more if more else 0) if c == "directness" else more
        out[c] = {"winner": winner, "reason": f"answer 1 has {n1} distinct words, answer 2 {n2}"}
    return json.dumps(out)


HANDLERS = {"drift_hyde": hyde, "drift_primer": primer, "drift_local": local_action,
            "drift_reduce": drift_reduce, "ts_map": ts_map, "ts_reduce": ts_reduce, "judge": judge}


def respond_methods(messages: list[dict]) -> str | None:
    first, last = messages[0]["content"], messages[-1]["content"]
    for marker, kind in KINDS:
        if marker in first:
            return HANDLERS[kind](first, last)
    return None
