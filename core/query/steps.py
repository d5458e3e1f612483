"""A how-to question answered by the steps the documents number under a heading that names the task.

Documentation writes a procedure as a numbered list under a heading saying what it does ("6. Color
the Graph by Clusters" over "1. Go to the Appearance pane ... 6. Click Apply to color the graph").
The reader's question rarely repeats the heading ("how do I color the communities in gephi?"),
but it names the task by its verb, and the rest of its words stand in the heading or the steps.
So a how-to question is answered by the list, in order, under the heading that holds the
question's task (its first content word after "how do I"), where the heading and the steps hold
at least half of what the question asks about. A how-to the documents answer with a command is
core/query/howto.code_answer's: no steps are given where a code block fits better.
"""
from __future__ import annotations

import re

from core.offline.fact_rank import stems
from core.query.block_list import headings_before
from core.query.howto import HOWTO, code_answer
from core.query.list_blocks import LIST_MAX, list_runs
from core.text.lexical import cite

# words after "how do I" that say nothing of the task ("how do I actually get ...", "how can I best use")
_VAGUE = frozenset(stems("actually best properly correctly quickly easily really just first then also go get "
                         "make use do have set up it this that them these those my the a an"))
_FRAME = frozenset(stems("how do does can should would could i we you one to what which are is the steps step "
                         "procedure process need"))


def _task(question: str) -> str | None:
    """The stem of what the question asks how to do: "color" in "how do I color the communities"."""
    m = HOWTO.search(question or "")
    if m is None:
        return None
    for s in stems(question[m.end():]):
        if s not in _VAGUE:
            return s
    return None


def steps_list(question: str, units: list[dict]) -> str | None:
    """The numbered steps under the heading that names the question's task, in order, cited;
    None when the question is no how-to, a code block answers it, or no heading names the task."""
    task = _task(question)
    if task is None or code_answer(question, units):
        return None
    want = set(stems(question)) - _FRAME
    best: tuple[float, int, str, list[str], int] | None = None
    for rank, u in enumerate(units):
        for lead, items, at in list_runs(u):
            heads = headings_before(u, at)
            if not heads or lead.strip() != heads[-1]:
                continue  # steps stand under a heading of their own
            heading = set(stems(re.sub(r"^\s*\d+[.)]?\s*", "", heads[-1])))
            if task not in heading:
                continue
            have = want & (heading | set(stems(" ".join(heads[:-1]))) | {s for i in items for s in stems(i)})
            if 2 * len(have) < len(want):
                continue
            score = len(have) + len(want & heading)
            if best is None or score > best[0]:
                best = (score, rank, heads[-1], items, int(u["human_readable_id"]))
    if best is None:
        return None
    _, _, above, items, hrid = best
    refs = {"Sources": [hrid]}
    shown = [re.sub(r"^\s*\d+[.)]\s*", "", i) for i in items[:2 * LIST_MAX]]
    title = re.sub(r"^\s*\d+[.)]?\s*", "", above).strip().rstrip(":")
    return "\n".join([f"**{title}**:"] + [f"{n}. {cite(i, refs)}" for n, i in enumerate(shown, 1)])
