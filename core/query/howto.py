"""How-to questions ("How do I install it?", "What command runs a query?") and their answers: the
command or snippet the documents give for it, with what introduces it.

Documentation answers such a question with a code block under a heading ("Install GraphRAG"
over `python -m pip install graphrag`) or after a sentence ("Run the indexer with:"). Prose
answers quote sentences and never code, so offline, a how-to question first looks for the code
block whose heading and introducing sentence share most of the question's words, and quotes it
whole, cited, before the sentences.
"""
from __future__ import annotations

import re

from core.offline.fact_rank import stems
from core.text.lexical import cite
from core.textutil import split_sentences

HOWTO = re.compile(r"^\s*(?:how (?:do|can|should|would|could) (?:i|we|you|one)\b|how to\b|"
                   r"what(?:'s| is| are)? (?:the )?(?:commands?|syntax|snippet)\b|which commands?\b|"
                   r"what (?:do|should) (?:i|we|you) (?:run|type|write|use) to\b|"
                   r"what(?:'s| is| are)? (?:the )?(?:steps?|procedure|process) (?:to|for)\b)", re.I)
# words of the question that say it is a how-to, not what it is about
_FRAME = frozenset(stems("how do does can should would could i we you one to what which command commands "
                         "syntax snippet run type write use it this that the a an"))
CODE_LINES = 12  # lines of a block quoted at most
_DIAGRAM = re.compile(r"\s*(?:---\s*\n\s*title:|(?:flowchart|graph|sequenceDiagram|classDiagram|stateDiagram|erDiagram|"
                      r"gantt|pie|mindmap)\b)")


def is_howto(question: str) -> bool:
    return bool(HOWTO.search(question or ""))


def _blocks(unit: dict) -> list[tuple[str, str, str]]:
    """(heading, lead, code) of each code block of a structured unit: the block's own lines, the
    nearest heading above it in the unit (or the unit's last heading path entry) and the
    paragraph right before it."""
    text = unit.get("text") or ""
    raw = unit.get("structure")
    structure: dict = raw if isinstance(raw, dict) else {}
    heads = sorted((h[0], h[1]) for h in (structure.get("headings") or []) if 0 <= h[0] < h[1])
    path = unit.get("headings") or []
    out = []
    for a, b in sorted((k[0], k[1]) for k in (structure.get("skip") or []) if 0 <= k[0] < k[1]):
        whole_lines = (a == 0 or text[a - 1] == "\n") and (b >= len(text) or text[b:b + 1] == "\n")
        if not whole_lines or not text[a:b].strip():
            continue  # inline code inside a sentence: the sentence quotes it already
        above = [text[h0:h1].strip() for h0, h1 in heads if h1 <= a]
        heading = above[-1] if above else (str(path[-1]) if path else "")
        code = text[a:b].strip("\n")
        if _DIAGRAM.match(code):
            continue  # a diagram draws the steps; it is nothing to run
        before = text[:a].rstrip()
        para = before[before.rfind("\n\n") + 1:].strip() if before else ""
        spans = split_sentences(para)
        lead = "" if para == heading or not spans else para[spans[-1][0]:spans[-1][1]]
        out.append((heading, lead, code))
    return out


def code_answer(question: str, units: list[dict]) -> str | None:
    """The code block that answers a how-to question, with its heading and the sentence that
    introduces it, cited; None when the question is no how-to or no block's heading or lead
    shares a word of what it asks about."""
    if not is_howto(question):
        return None
    want = set(stems(question)) - _FRAME
    if not want:
        return None
    found: list[tuple[float, int, tuple[str, str, str], int]] = []
    for rank, u in enumerate(units):
        for heading, lead, code in _blocks(u):
            said = want & set(stems(heading + " " + lead))
            if 2 * len(said) < len(want):
                continue  # its heading and lead say too little of what the question is about
            score = 2 * len(want & set(stems(heading))) + len(said) + 0.5 * len(want & set(stems(code)))
            found.append((score, rank, (heading, lead, code), int(u["human_readable_id"])))
    found.sort(key=lambda f: (-f[0], f[1]))
    if not found or found[0][0] < min(2, len(want)):
        return None
    # a section whose heading says more of the question than the block's, with no block of its own
    # ("Multi-line Docstrings" for "how do I write a multi-line docstring?", over the block under
    # "One-line Docstrings"): its sentences answer, not another section's code
    best = found[0][2]
    if _most_said(want, units) > len(want & set(stems(best[0] + " " + best[1]))):
        return None
    # blocks as good as the best under other headings ("Install GraphRAG", "Install Dependencies"):
    # which one the reader means, the reader knows
    chosen = [f for f in found if f[0] == found[0][0]]
    chosen = [f for i, f in enumerate(chosen) if f[2][0] not in {g[2][0] for g in chosen[:i]}][:MAX_BLOCKS]
    return "\n\n".join(_shown(heading, lead, code, hrid) for _, _, (heading, lead, code), hrid in chosen)


MAX_BLOCKS = 2


def _most_said(want: set[str], units: list[dict]) -> int:
    """The most of the question's words any heading of the units holds."""
    most = 0
    for u in units:
        text = u.get("text") or ""
        raw = u.get("structure")
        heads = [text[h[0]:h[1]] for h in ((raw if isinstance(raw, dict) else {}).get("headings") or [])
                 if 0 <= h[0] < h[1]]
        for h in heads + [str(x) for x in (u.get("headings") or []) if isinstance(u.get("headings"), list)]:
            most = max(most, len(want & set(stems(h))))
    return most


def _shown(heading: str, lead: str, code: str, hrid: int) -> str:
    """A block as the answer quotes it: its heading in bold (a title, no claim), the sentence
    introducing it (cited), then its lines fenced, cited after the fence."""
    refs = {"Sources": [hrid]}
    lines = [x for x in code.splitlines() if x.strip()]  # a blank line would end the answer's paragraph
    shown = "\n".join(lines[:CODE_LINES]) + ("\n..." if len(lines) > CODE_LINES else "")
    parts = [f"**{heading}**"] if heading else []
    if lead:
        parts.append(cite(lead.rstrip(":").rstrip(), refs).rstrip(".") + ":")
    parts.append(f"```\n{shown.replace('```', '` ` `')}\n```\n[Data: Sources ({hrid})]")
    return "\n\n".join(parts)
