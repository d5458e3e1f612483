"""A prompt-aware deterministic fake model: answers the extraction, gleaning, claims, summary
and report prompts the way a well-behaved LLM would, from the text it is given."""
from __future__ import annotations

import csv
import io
import json
import re

NAME = re.compile(r"\b([A-Z][a-z]+(?: [A-Z][a-z]+)?)\b")
STOP = {"The", "A", "An", "In", "On", "He", "She", "It", "They", "But", "And", "When", "Then", "This", "That"}


def _section(prompt: str, header: str) -> str:
    return prompt.split(header, 1)[1] if header in prompt else ""


def _table_ids(text: str) -> list[int]:
    return [int(m) for m in re.findall(r"^(\d+)\|", text, re.M)]


def verify_answer(prompt: str) -> str:
    """The entailment judge's answer (prompts/verify_entailment.txt): the passage sentence sharing
    most words with the sentence, quoted exactly; supported when it holds half of them. A sentence
    saying "misquote" gets "partial" (what the offline judge says of it: a close copy with a word the
    passage lacks) with a quote that is in no passage (a model that paraphrases its evidence)."""
    sentence = prompt.split("---Sentence---\n", 1)[1].split("\n\n---Passages---", 1)[0].strip()
    passages = prompt.split("---Passages---\n", 1)[1].split("\n\n---Goal---", 1)[0]
    words = set(re.findall(r"[a-z]{3,}", sentence.lower()))
    best, hits = "", 0
    for piece in re.split(r"(?<=[.!?])\s+|\n+", passages):
        piece = re.sub(r"^\[\d+\] ", "", piece.strip())
        n = len(words & set(re.findall(r"[a-z]{3,}", piece.lower())))
        if n > hits:
            best, hits = piece, n
    if "misquote" in sentence.lower():
        return json.dumps({"verdict": "partial", "quotes": ["A sentence no passage holds."], "failing_fact": "misquote"})
    ok = words and hits / len(words) >= 0.5
    return json.dumps({"verdict": "supported" if ok else "unsupported", "quotes": [best] if best else [],
                       "failing_fact": "" if ok else sentence})


def respond(messages: list[dict]) -> str:
    from tests.fake_lazy import lazy_respond
    lazy = lazy_respond(messages)  # lazy and basic search's prompts
    if lazy is not None:
        return lazy
    from tests.fake_model_methods import respond_methods
    extra = respond_methods(messages)  # DRIFT, TS and the judge (issue 21)
    if extra is not None:
        return extra
    last = messages[-1]["content"]
    first = messages[0]["content"]
    if first.startswith("---Role---\nYou check whether a sentence is supported"):
        return verify_answer(first)
    if "---Data table---" in first and "community" in first.split("---Goal---")[0]:  # global map
        table = first.split("---Data table---", 1)[1].split("---Answer format---", 1)[0]
        return json.dumps({"points": [{"description": f"Report {i} is relevant [Data: Reports ({i})]",
                                       "score": 10 + (i * 37) % 90} for i in _table_ids(table)][:5]})
    if "---Analyst reports---" in first:  # global reduce
        ids = re.findall(r"Reports \((\d+)\)", first)[:3]
        return "The reports answer this. " + " ".join(f"Point from report {i} [Data: Reports ({i})]." for i in ids)
    if "entities the question is about" in first:  # local search
        m = re.search(r"-----Sources-----\n(.*?)(?:\n-----|$)", first, re.S)
        ids = _table_ids(m.group(1))[:2] if m else []
        return ("The sources say so" + (f" [Data: Sources ({', '.join(map(str, ids))})]" if ids else "") + ".")
    if "Some entities or relationships in the text may have been missed" in last:
        return json.dumps({"entities": [], "relationships": []})
    if first.startswith("-Goal-\nRead the text below") and len(messages) == 1:
        text = _section(first, "-Text-\n")
        names = [n for n in dict.fromkeys(NAME.findall(text)) if n.split()[0] not in STOP][:12]
        ents = [{"name": n, "type": "person", "description": f"{n} appears in the text."} for n in names]
        rels = [{"source": a, "target": b, "description": f"{a} and {b} appear together.", "strength": 5}
                for a, b in zip(names, names[1:])]
        return "```json\n" + json.dumps({"entities": ents, "relationships": rels}) + "\n```"
    if "Extract claims" in first:
        return json.dumps({"claims": []})
    if "You are writing one description" in first:
        descs = [l[2:] for l in first.splitlines() if l.startswith("- ")]
        return " ".join(descs)[:400]
    if "writing a report about one community" in first:
        data = _section(first, "-----Entities-----\n").split("-----")[0]
        rows = list(csv.reader(io.StringIO(data)))[1:]
        ids = [r[0] for r in rows if r]
        names = [r[1] for r in rows if len(r) > 1]
        findings = [{"summary": f"{n} is part of the community",
                     "explanation": f"{n} appears in the text. [Data: Entities ({i})]"} for i, n in zip(ids, names)][:6]
        return json.dumps({"title": " and ".join(names[:2]) or "Community", "summary": "A group of names.",
                           "rating": 5, "rating_explanation": "medium", "findings": findings})
    return "{}"
