"""The LLM engine: extraction, description summaries and community reports through prompts in
prompts/*.txt and any OpenAI-compatible model. Every extracted entity is checked against its
source text (core/index/grounding.py); ungrounded ones are rejected with a reason, not added."""
from __future__ import annotations

import logging
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from core.index.cooccurrence import sentence_edges
from core.engine import Extraction, ReportInput
from core.index.grounding import fold_text, is_grounded
from core.index.name_shape import not_a_name
from core.llm.jsonparse import JSONParseError, chat_json, is_complete_json
from core.llm.client import LLM, ContextOverflowError
from core.llm.context_window import DEFAULT_WINDOW, MARGIN, fit_to_window
from core.tokens import count_tokens, get_encoding
from core.prompts import render
from core.settings import Settings
from core.textutil import is_cjk, names_entity, normalize_title

EXTRACT_MAX_TOKENS = 1500


def extract_cap(unit_tokens: int) -> int:
    """Output cap of an extraction call, fitted to its input: a unit's entities and relationships
    as JSON take about as many tokens as the unit (measured on small models, which otherwise run
    on to the context limit repeating themselves)."""
    return max(400, min(EXTRACT_MAX_TOKENS, unit_tokens + 300))
CLAIMS_MAX_TOKENS = 1000
REPORT_MAX_TOKENS = 2000
SUMMARY_INPUT_TOKENS = 4000
"""Descriptions read by one summary call (GraphRAG's max_input_tokens); more are summarised in
rounds, each round's summary carried into the next."""
NAMED_TOP = 5
"""A report should name at least two of its community's five best-connected entities (or all of
them when there are fewer than two)."""
log = logging.getLogger(__name__)
# claims calls run beside gleaning; the client's semaphore still caps requests in flight
_POOL = ThreadPoolExecutor(max_workers=32, thread_name_prefix="claims")


def _validate_graph(obj: Any) -> None:
    if not isinstance(obj, dict) or not isinstance(obj.get("entities", []), list) \
            or not isinstance(obj.get("relationships", []), list):
        raise ValueError('expected {"entities": [...], "relationships": [...]}')


def _validate_report(obj: Any) -> None:
    if not isinstance(obj, dict) or not obj.get("title") or not isinstance(obj.get("findings"), list):
        raise ValueError('expected {"title", "summary", "rating", "rating_explanation", "findings": [...]}')


def _prose(inp: ReportInput) -> str:
    """The report data's own words (descriptions and sub-report summaries), without the table
    headers and upper-cased Latin titles that would make Chinese data look English."""
    rows = inp.entities + inp.relationships + inp.claims
    text = " ".join(str(r.get("description") or "") for r in rows)
    text += " ".join(str(r.get("summary") or "") for r in inp.sub_reports)
    return text if text.strip() else inp.context_text


def _with_citations(explanation: str, finding: dict[str, Any]) -> str:
    """Small models often put a finding's references in a field of their own ("citations":
    ["Data: Entities (3); Relationships (7)"]) instead of ending the explanation with them; fold
    them back in as [Data: ...] markers so they are parsed, resolved and checked like any other."""
    extra = finding.get("citations") or finding.get("references") or finding.get("sources")
    if not extra:
        return explanation
    markers = []
    for item in extra if isinstance(extra, list) else [extra]:
        text = str(item).strip().strip("[]").strip()
        if not text or not re.search(r"\(\s*[0-9+]", text):
            continue
        marker = f"[{text}]" if re.match(r"Data\s*:", text, re.IGNORECASE) else f"[Data: {text}]"
        if marker not in explanation:
            markers.append(marker)
    return " ".join([explanation.rstrip(), *markers]).strip() if markers else explanation


def _report_text(obj: dict[str, Any]) -> str:
    parts = [str(obj.get("title") or ""), str(obj.get("summary") or "")]
    for f in obj.get("findings") or []:
        parts += [str(f.get("summary") or ""), str(f.get("explanation") or "")] if isinstance(f, dict) else [str(f)]
    return " ".join(parts)


def unnamed_entities(obj: dict[str, Any], inp: ReportInput) -> list[str]:
    """The community's key entities, when the report names too few of them ([] when it names
    enough). Small models write reports about "a group of related entities, including its key
    agents" that name nobody, and such a report gives the global search nothing to answer with."""
    top = [str(e.get("title") or "") for e in sorted(inp.entities, key=lambda e: -(e.get("degree") or 0))]
    top = [t for t in top if t][:NAMED_TOP]
    if not top:
        return []
    text = _report_text(obj)
    named = sum(names_entity(t, text) for t in top)
    return top if named < min(2, len(top)) else []


def section_line(unit: dict[str, Any]) -> str:
    """The unit's heading path as the extraction prompt gives it ("(none)" for plain text)."""
    headings = [str(h) for h in unit.get("headings") or [] if str(h).strip()]
    return " > ".join(headings) if headings else "(none)"

class LLMEngine:
    def __init__(self, llm: LLM, settings: Settings, workspace: str | Path | None = None):
        self.llm = llm
        self.settings = settings
        self.workspace = workspace
        self.name = llm.model

    @property
    def window(self) -> int:
        """The model's context window: the LLM's (server, setting or known model), else the setting."""
        return self.llm.context_window or self.settings.context_window or DEFAULT_WINDOW

    # extraction ------------------------------------------------------------------------
    def extract(self, unit: dict[str, Any]) -> Extraction:
        """Entities and relationships of one unit, then gleaning rounds, with claims asked for
        beside them. A unit too long for the model's context is split in halves rather than
        lost (the server's context-overflow error, or our own estimate before sending)."""
        text = unit["text"]
        prompt = render("extract_graph", self.workspace, entity_types=", ".join(self.settings.entity_types),
                        section=section_line(unit), input_text=text)
        cap = extract_cap(count_tokens(text))
        if count_tokens(prompt) + cap > self.window and count_tokens(text) > 50:
            return self._split(unit)
        messages = [{"role": "user", "content": prompt}]
        try:
            obj, raw, attempts = chat_json(self.llm, messages, max_tokens=cap,
                                           stage="extract", validate=_validate_graph)
        except ContextOverflowError:
            if count_tokens(text) <= 50:
                raise
            return self._split(unit)
        out = Extraction(llm_calls=attempts)
        folded = fold_text(text)
        self._add(out, obj, text, folded)
        if not is_complete_json(raw):  # said, not silent: the gleaning round may add the rest
            out.rejected.append({"kind": "note", "name": unit.get("id", ""),
                                 "reason": f"the model's answer was cut off before its end (its output cap is "
                                           f"{cap} tokens, or it was looping); what it listed before the cut "
                                           f"was kept"})
        # claims about the entities found so far are asked for while gleaning runs, so a unit's
        # calls form a chain of two rather than three
        claims = None
        if self.settings.extract_claims and out.entities:
            claims = _POOL.submit(self._claims, unit, [e["title"] for e in out.entities])
        for _ in range(self.settings.max_gleanings):
            messages = messages + [{"role": "assistant", "content": raw},
                                   {"role": "user", "content": render("extract_continue", self.workspace)}]
            if sum(count_tokens(m["content"]) for m in messages) + cap > self.window:
                break  # one more round would overflow the context: keep what we have
            try:
                more, raw, attempts = chat_json(self.llm, messages, max_tokens=cap,
                                                stage="extract", validate=_validate_graph)
            except (JSONParseError, ContextOverflowError):
                break  # a failed gleaning round loses nothing already extracted
            out.llm_calls += attempts
            before = len(out.entities) + len(out.relationships)
            self._add(out, more, text, folded)
            if len(out.entities) + len(out.relationships) == before:
                break  # the model says nothing was missed
        if not out.relationships and len(out.entities) > 1:  # always a graph to ask
            out.relationships = sentence_edges(out.entities, text)
            if out.relationships:
                out.rejected.append({"kind": "note", "name": unit.get("id", ""),
                                     "reason": f"the model stated no relationships: {len(out.relationships)} "
                                               f"inferred from entities named in the same sentence"})
        if claims is not None:
            found, calls, rejected = claims.result()
            grounded = {normalize_title(e["title"]) for e in out.entities}
            out.claims = [c for c in found if normalize_title(c["subject"]) in grounded]
            out.llm_calls += calls
            out.rejected += rejected
        return out

    def _split(self, unit: dict[str, Any]) -> Extraction:
        """Extract the two halves of a unit separately and combine them."""
        enc = get_encoding()
        text = unit["text"]
        toks = enc.encode_ordinary(text)
        # cut at the middle token, moved back to a whole character: a token boundary may fall
        # inside a multi-byte character (Chinese), and decoding each half would garble it
        cut = len(enc.decode_bytes(toks[:len(toks) // 2]).decode("utf-8", errors="ignore"))
        out = Extraction()
        for part in (text[:cut], text[cut:]):
            sub = self.extract({**unit, "text": part})
            have = {normalize_title(e["title"]) for e in out.entities}
            out.entities += [e for e in sub.entities if normalize_title(e["title"]) not in have]
            out.relationships += sub.relationships
            out.claims += sub.claims
            out.rejected += sub.rejected
            out.llm_calls += sub.llm_calls
        out.rejected.append({"kind": "note", "name": unit.get("id", ""),
                             "reason": "the unit did not fit the model's context and was extracted in halves"})
        return out

    def _add(self, out: Extraction, obj: dict, text: str, folded: str) -> None:
        seen = {normalize_title(e["title"]) for e in out.entities}
        for e in obj.get("entities") or []:
            if not isinstance(e, dict):
                continue
            name = str(e.get("name") or e.get("title") or "").strip()
            if not name or normalize_title(name) in seen:
                continue
            if not is_grounded(name, text, folded):
                out.rejected.append({"kind": "entity", "name": name,
                                     "reason": "the name does not occur in its source text"})
                continue
            shape = not_a_name(name, text)
            if shape:
                out.rejected.append({"kind": "entity", "name": name, "reason": shape})
                continue
            seen.add(normalize_title(name))
            etype = str(e.get("type") or "other").strip().lower()
            out.entities.append({"title": name, "type": etype,
                                 "description": str(e.get("description") or "").strip()})
        grounded = {normalize_title(e["title"]) for e in out.entities}
        have = {(normalize_title(r["source"]), normalize_title(r["target"])) for r in out.relationships}
        for r in obj.get("relationships") or []:
            if not isinstance(r, dict):
                continue
            s, t = str(r.get("source") or "").strip(), str(r.get("target") or "").strip()
            ns, nt = normalize_title(s), normalize_title(t)
            if not s or not t or ns == nt or (ns, nt) in have:
                continue
            if ns not in grounded or nt not in grounded:
                out.rejected.append({"kind": "relationship", "name": f"{s} -> {t}",
                                     "reason": "an end of the relationship is not a grounded entity"})
                continue
            have.add((ns, nt))
            try:
                weight = float(r.get("strength") or r.get("weight") or 1.0)
            except (TypeError, ValueError):
                weight = 1.0
            out.relationships.append({"source": s, "target": t, "weight": 1.0, "strength": weight,
                                      "description": str(r.get("description") or "").strip()})

    def _claims(self, unit: dict, names: list[str]) -> tuple[list[dict], int, list[dict]]:
        prompt = render("extract_claims", self.workspace, entity_names=", ".join(names[:30]),
                        input_text=unit["text"])
        cap = min(CLAIMS_MAX_TOKENS, max(200, self.window - count_tokens(prompt) - MARGIN))
        try:
            obj, _, attempts = chat_json(self.llm, [{"role": "user", "content": prompt}],
                                         max_tokens=cap, stage="claims")
        except JSONParseError as exc:
            return [], 0, [{"kind": "claims", "name": unit.get("id", ""), "reason": str(exc)}]
        found = []
        for c in (obj.get("claims") if isinstance(obj, dict) else None) or []:
            if not isinstance(c, dict) or not c.get("subject"):
                continue
            found.append({
                "subject": str(c["subject"]), "object": (str(c["object"]) if c.get("object") else None),
                "type": str(c.get("type") or "OTHER").upper(), "status": str(c.get("status") or "SUSPECTED").upper(),
                "description": str(c.get("description") or ""), "source_text": str(c.get("source_text") or ""),
                "start_date": c.get("start_date"), "end_date": c.get("end_date")})
        return found, attempts, []

    # summaries and reports ---------------------------------------------------------------
    def summarize(self, kind: str, name: str, descriptions: list[str]) -> str:
        """One summary of an entity's or relationship's descriptions. Descriptions beyond what
        one call reads (SUMMARY_INPUT_TOKENS, and the model's window) are summarised in rounds:
        each round reads the previous summary and the next descriptions that fit."""
        words = max(40, self.settings.summary_max_tokens * 3 // 4)
        fixed = count_tokens(render("summarize_descriptions", self.workspace, kind=kind, name=name,
                                    max_words=words, descriptions=""))
        budget, cap = fit_to_window(self.window, SUMMARY_INPUT_TOKENS, fixed, self.settings.summary_max_tokens)
        summary, pending = "", list(descriptions)
        while pending:
            batch, used = ([summary] if summary else []), count_tokens(summary) + 3
            while pending and (used + count_tokens(pending[0]) + 3 <= budget or len(batch) < 2):
                used += count_tokens(pending[0]) + 3
                batch.append(pending.pop(0))
            summary = self._summarize_once(kind, name, batch, words, cap)
        return summary

    def _summarize_once(self, kind: str, name: str, descriptions: list[str], words: int, cap: int) -> str:
        listed = "\n".join(f"- {d}" for d in descriptions)
        prompt = render("summarize_descriptions", self.workspace, kind=kind, name=name,
                        max_words=words, descriptions=listed)
        res = self.llm.chat([{"role": "user", "content": prompt}], max_tokens=cap, stage="summarize")
        from core.llm.jsonparse import strip_think
        return strip_think(res.text).strip() or " ".join(descriptions)

    def report_budget(self, wanted: int) -> int:
        """The report context budget (settings.report_max_tokens) fitted to the model's window
        beside the report prompt and its output cap."""
        return fit_to_window(self.window, wanted, self._report_fixed(), REPORT_MAX_TOKENS)[0]

    def _report_fixed(self) -> int:
        return count_tokens(render("community_report", self.workspace, input_text="",
                                   language_instruction="Write the report in the language of the data (Chinese)."))

    def write_report(self, inp: ReportInput) -> dict[str, Any]:
        if self.settings.language not in ("", "auto"):
            lang = f"Write the report in {self.settings.language}."
        elif is_cjk(_prose(inp)):
            lang = "Write the report in the language of the data (Chinese)."
        else:
            lang = "Write the report in the language of the data."
        prompt = render("community_report", self.workspace, input_text=inp.context_text,
                        language_instruction=lang)
        cap = fit_to_window(self.window, count_tokens(inp.context_text), self._report_fixed(), REPORT_MAX_TOKENS)[1]
        messages = [{"role": "user", "content": prompt}]
        obj, _, _ = chat_json(self.llm, messages, max_tokens=cap, stage="reports", validate=_validate_report)
        missing = unnamed_entities(obj, inp)
        if missing:
            obj = self._name_entities(messages, obj, missing, cap, inp)
        findings = []
        for f in obj.get("findings") or []:
            if isinstance(f, dict):
                findings.append({"summary": str(f.get("summary") or ""),
                                 "explanation": _with_citations(str(f.get("explanation") or ""), f)})
            elif isinstance(f, str):
                findings.append({"summary": f, "explanation": f})
        try:
            rating = max(0.0, min(10.0, float(obj.get("rating") or 0)))
        except (TypeError, ValueError):
            rating = 0.0
        return {"title": str(obj.get("title")), "summary": str(obj.get("summary") or ""), "rating": rating,
                "rating_explanation": str(obj.get("rating_explanation") or ""), "findings": findings}

    def _name_entities(self, messages: list[dict[str, str]], obj: dict[str, Any], missing: list[str],
                       cap: int, inp: ReportInput) -> dict[str, Any]:
        """Ask once more, naming the entities the report left out; keep the answer that names more."""
        names = ", ".join(t.title() if not is_cjk(t) else t for t in missing)
        # the prompt again with a reminder (not the first answer as well: prompt and output cap
        # are fitted to the window, and a second copy of the answer would not fit)
        reminder = render("community_report_names", self.workspace, names=names).strip()
        retry = [{"role": "user", "content": f"{messages[0]['content']}\n\n{reminder}"}]
        try:
            again, _, _ = chat_json(self.llm, retry, max_tokens=cap, stage="reports", validate=_validate_report)
        except (JSONParseError, ContextOverflowError):
            again = None
        before = sum(names_entity(t, _report_text(obj)) for t in missing)
        after = -1 if again is None else sum(names_entity(t, _report_text(again)) for t in missing)
        log.info("report of community %s named %d of %s; asked again: %s", inp.community, before, names,
                 "unusable answer" if again is None else f"names {after}")
        return again if again is not None and after > before else obj
