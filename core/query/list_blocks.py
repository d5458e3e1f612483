"""The lists a text unit writes, and the list a quoted sentence introduces.

A list is a run of at least two list items or table rows of a structured document
(text_units.structure), or of bulleted or numbered lines of plain text, with the block just
before it that introduces it ("Harbourline keeps its schedules in one of these stores:"). An
answer quoting that introducing sentence brings the list after it (introduced_list).
"""
from __future__ import annotations

import re

from core.text.citations import parse_citations
from core.text.lexical import cite
from core.textutil import split_sentences

BULLET = re.compile(r"^[ \t]*(?:[-*\u2022]|\d{1,3}[.)])[ \t]+(.+?)[ \t]*$", re.M)
LIST_MAX = 12  # members a list answer names (a quoted list: twice as many lines)


def lists_of(unit: dict) -> list[tuple[str, list[str]]]:
    """(lead sentence, items) of each run of at least two list items in the unit's text."""
    return [(lead, items) for lead, items, _ in list_runs(unit)]


def list_runs(unit: dict) -> list[tuple[str, list[str], int]]:
    """(lead sentence, items, where the lead's block starts in the text) of each run of at
    least two list items in the unit's text."""
    text = unit.get("text") or ""
    out: list[tuple[str, list[str], int]] = []
    items = sorted((a, b) for a, b in ((unit.get("structure") or {}).get("items") or []) if 0 <= a < b)
    if items:
        def in_row(a: int) -> bool:  # a table row's first cell (after its "Header: ")
            return a > 0 and text[a - 1] != "\n"

        runs: list[list[tuple[int, int]]] = [[items[0]]]
        for a, b in items[1:]:
            last = runs[-1][-1]
            gap = text[_line_end(text, last[1]):_line_start(text, a)]
            if not gap.strip() and in_row(a) == in_row(last[0]):
                runs[-1].append((a, b))
            else:
                runs.append([(a, b)])
        for run in runs:
            if len(run) >= 2:
                lead_at = _line_start(text, run[0][0])
                lead = _lead(text, lead_at)
                if any(lead_at - len(lead) - 4 <= a < lead_at for a, _ in items):
                    lead = ""  # the block before is an item of another list, not what introduces this one
                out.append((lead, [_row(text, a, b) for a, b in run], text.rfind(lead, 0, lead_at) if lead else lead_at))
    else:  # plain text: lines opening with a bullet or a number
        groups: list[list[re.Match]] = []
        for m in BULLET.finditer(text):
            if groups and not text[groups[-1][-1].end():m.start()].strip():
                groups[-1].append(m)
            else:
                groups.append([m])
        for g in groups:
            if len(g) >= 2:
                lead = _lead(text, g[0].start())
                out.append((lead, [m.group(1) for m in g], text.rfind(lead, 0, g[0].start()) if lead else g[0].start()))
    return out


def _line_start(text: str, at: int) -> int:
    return text.rfind("\n", 0, at) + 1


def _line_end(text: str, at: int) -> int:
    end = text.find("\n", at)
    return len(text) if end < 0 else end


def _row(text: str, a: int, b: int) -> str:
    """An item as the answer lists it: a list item or a table row, whole."""
    return text[_line_start(text, a):_line_end(text, max(a, b - 1))].strip()


def _lead(text: str, at: int) -> str:
    """The block just before position `at`: what introduces the list ("...in one of these stores:")."""
    before = text[:at].rstrip()
    start = max(before.rfind("\n\n"), -1) + 1
    lead = before[start:].strip()
    return lead if lead and len(lead) < 400 else ""


def _flat(text: str) -> str:
    return re.sub(r"[^\w]+", " ", text.lower()).strip()


def introduced_list(answer: str, units: list[dict], sentences: int = 4) -> str:
    """The answer with the list one of its first sentences introduces ("After running auto
    tuning, you should modify the following config variables:" and the items after it in its
    unit), each item cited, put right after that sentence; the answer as it is when none of them
    introduces a list. Only the first such list is brought: one list answers one question."""
    by_id = {int(u["human_readable_id"]): u for u in units}
    pos = 0
    for n, c in enumerate(parse_citations(answer)):
        if n >= sentences:
            break
        sentence_at, pos = pos, c.end
        hrids = c.ids("Sources")
        unit = by_id.get(hrids[0]) if hrids else None
        said = answer[sentence_at:c.start].strip()
        sentence = _flat(said)
        if unit is None or len(sentence) < 8:
            continue
        items = next((items for lead, items in lists_of(unit) if lead and sentence in _flat(lead)), None) \
            or _lines_after(unit.get("text") or "", said) \
            or enumeration_after(unit.get("text") or "", said)  # prose: "First, ... Second, ..."
        listed = [_flat(x) for x in re.findall(r"(?m)^\s*- (.+)$", answer[c.end:])]
        if not items or any(_flat(i) and any(_flat(i)[:60] in x for x in listed) for i in items[:2]):
            continue  # no list, or one the answer already lists
        refs = {"Sources": [hrids[0]]}
        bullets = "\n".join(f"- {cite(i, refs)}" for i in items[:2 * LIST_MAX])
        end = c.end + (1 if answer[c.end:c.end + 1] in ".\u3002" else 0)
        members = {_flat(i) for i in items}  # members quoted apart, before or after it, move into the list
        at = sentence_at + (1 if answer[sentence_at:sentence_at + 1] in ".\u3002" else 0)
        before, rest = _without(answer[:at], members), _without(answer[end:], members)
        return (before + " " if before else "") + answer[at:end].strip() + "\n" + bullets + \
            ("\n\n" + rest if rest else "")
    return answer


_CITED = re.compile(r"\S.*?\[Data:[^\]]*\][.\u3002]?", re.S)


def _without(text: str, members: set[str]) -> str:
    """text without its cited sentences that say a member of the list (as they were, or one of the
    sentences of a member), stripped."""
    quoted = _CITED.findall(text)

    def said(q: str) -> bool:
        flat = _flat(re.sub(r"\[Data:[^\]]*\]", "", q))
        return flat in members or (len(flat) >= 20 and any(flat in m for m in members))
    kept = [q for q in quoted if not said(q)]
    return " ".join(kept) if len(kept) < len(quoted) else text.strip()


_COUNTED = re.compile(r"\b(?:following|these|two|three|four|five|six|seven|several|number of|\d+)\s+(?:[\w-]+\s+){0,2}?"
                      r"(?:things|principles|reasons|techniques|ways|steps|parts|areas|factors|priorities|"
                      r"changes|goals|points|pillars|questions|options|approaches|ideas|problems|lessons|"
                      r"elements|components|phases|stages|strategies|benefits|challenges|aspects|kinds|types)\b", re.I)
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "finally", "lastly")
_ORDINAL = re.compile(r"^\W*(?:(?:and|so|now)\s*,?\s+)?(?:the\s+)?(first|second|third|fourth|fifth|sixth|seventh|"
                      r"finally|lastly|other|remaining)\b", re.I)  # "The other two techniques are ...": the last


def enumeration_after(text: str, sentence: str) -> list[str]:
    """The sentences that enumerate, in prose, what the sentence announces ("we used the following
    three principles ..." then "First, focus ...", "Second, consolidate ...", "Third, ..."; "a
    combination of three techniques" then "The first is ...", "The second ..."): those opening
    with an ordinal, in order, starting with the first, up to the next paragraph gap of more than
    two other sentences; [] when the sentence announces none or no "first" follows."""
    if not _COUNTED.search(sentence):
        return []
    at = _found_at(text, sentence)
    if at < 0:
        return []
    after = text[at + len(sentence):]
    out: list[str] = []
    gap = 0
    for a, b in split_sentences(after):
        s = " ".join(after[a:b].split())
        m = _ORDINAL.match(s)
        want = _ORDINALS[len(out)] if len(out) < len(_ORDINALS) else None
        last = m is not None and m.group(1).lower() in ("finally", "lastly", "other", "remaining")
        if m and (m.group(1).lower() == want or (out and last)):
            out.append(s)
            gap = 0
            if last:
                break
        elif not out and gap > 1:
            return []
        else:
            gap += 1
            if gap > 2 and out:
                break
    return out if len(out) >= 2 else []


def _found_at(text: str, sentence: str) -> int:
    """Where a quoted sentence stands in its unit's text, by its first 30 characters (the quote's
    spacing may differ after them); -1 when not found or too short to tell."""
    head = sentence[:30]
    return text.find(head) if len(head) >= 8 else -1


def _lines_after(text: str, sentence: str) -> list[str]:
    """The block of short lines (two or more, none a sentence of prose) right after the sentence
    in the text, when the text ends the sentence with a colon; [] otherwise."""
    at = _found_at(text, sentence)
    if at < 0:
        return []
    colon = re.compile(r"[:\uff1a]\s*\n").search(text, at, at + len(sentence) + 40)
    if colon is None:
        return []
    block = text[colon.end():].lstrip("\n").split("\n\n", 1)[0]
    lines = [x.strip() for x in block.split("\n") if x.strip()]
    if len(lines) < 2 or any(len(x) > 120 or x.endswith((".", "\u3002")) for x in lines):
        return []
    return lines
