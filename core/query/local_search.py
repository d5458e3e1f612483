"""Local search: answer from the neighbourhood of the entities a question names.

Entry entities: embedding similarity where the embeddings table holds entity vectors of the
LLM's embedding model, otherwise full-text search over titles and descriptions; in both cases
entities whose title occurs in the question come first (that is how Chinese questions, which
have no spaces, find their entities). Context, each kind ranked and cut to its token share:
- Sources (text units, 50%): by how many entry entities they mention, then entity order;
- Reports (15%): reports of the communities holding the entities, by how many entry entities
  the community holds, then rank (as Microsoft GraphRAG does);
- Entities, Relationships, Claims share the rest, in that order: entry entities in order,
  relationships with both ends among them first, then by weight and combined degree.
With llm=None the answer is extractive (core/offline/definitions.py): a sentence saying who or
what the main entity is, its strongest ties and the sentences most like the rest of the question,
each quoted from its text unit and cited.
"""
from __future__ import annotations

import dataclasses
import time

import numpy as np

from core.errors import UserError
from core.llm.client import LLM, LLMError
from core.offline.definitions import local_answer
from core.prompts import render
from core.query import offline_answer as offline
from core.query.attribution import attribute_local
from core.query.budget import context_window, fit_budget
from core.query.context import Packed, language_instruction, local_table
from core.query.doc_scope import about_answer, named_documents, scope
from core.query.entity_match import title_matches  # noqa: F401 - callers import it from here too
from core.query.header_fields import authored_documents, header_answer, header_role
from core.query.block_list import block_list
from core.query.list_blocks import introduced_list
from core.query.mention_answer import mention_answer
from core.query.resolve import resolve_answer
from core.query.traces import save_trace, usage_delta, usage_snapshot
from core.text.citations import parse_citations
from core.text.lexical import without_source
from core.query.types import LocalParams, SearchResult
from core.store.db import Store

TABLE_ORDER = ("reports", "entities", "relationships", "claims", "sources")


def local_search(store: Store, question: str, params: LocalParams | None = None,
                 llm: LLM | None = None, record: bool = True) -> SearchResult:
    """Answer a question about specific entities. llm=None: the offline engine."""
    question = (question or "").strip()
    if not question:
        raise UserError("the question is empty")
    params = params or LocalParams()
    if store.count("entities") == 0:
        raise UserError("this workspace has no entities yet: index a corpus first")
    t0 = time.perf_counter()
    before = usage_snapshot(llm)
    result = SearchResult(method="local", question=question,
                          engine="offline" if llm is None else "llm",
                          model=None if llm is None else llm.model,
                          params=dataclasses.asdict(params))
    window = context_window(llm)
    if window is not None:  # the whole context must fit the model's window beside the prompt
        fixed = render("local_search", store.workspace, context_data="", response_type=params.response_type,
                       language_instruction=language_instruction(params.language, question)) + question
        budget, cap = fit_budget(llm, params.max_tokens, fixed, params.answer_tokens)
        asked = {k: v for k, v in (("max_tokens", params.max_tokens), ("answer_tokens", params.answer_tokens))
                 if v != {"max_tokens": budget, "answer_tokens": cap}[k]}
        params = dataclasses.replace(params, max_tokens=budget, answer_tokens=cap)
        result.params.update(context_window=window, max_tokens=budget, answer_tokens=cap, asked=asked)
    topic = without_source(question)  # "what does the podcast say about X" looks for X
    entities, how = entry_entities(store, topic, params, llm)
    named = named_documents(store, question)  # "in the visualization guide": that guide's passages
    t1 = time.perf_counter()
    tables, records = build_context(store, entities, params, named)
    text = "\n\n".join(tables[k].text for k in TABLE_ORDER if tables[k].text)
    result.context = {
        "entry_entities": [e["human_readable_id"] for e in entities], "entry_method": how,
        **{k: [r["human_readable_id"] for r in tables[k].records] for k in TABLE_ORDER},
        "tokens": {k: tables[k].tokens for k in TABLE_ORDER}, "context_text": text,
        "documents": [d["title"] for d in named],
    }
    t2 = time.perf_counter()
    if not entities:
        result.no_data = True
        result.answer = offline.no_data_answer(
            question, "它没有提到索引中的任何实体（局部搜索从一个实体出发；关于整个语料的问题请用全局搜索）"
            if offline.has_cjk(question)
            else "it names no entity found in the index (local search starts from an entity; for a "
                 "question about the corpus as a whole, ask with global search)")
    elif llm is None:
        result.answer = mention_answer(store, question) or about_answer(store, question, named) \
            or header_answer(store, question, named)
        if not result.answer:
            role = header_role(store, question)  # "Who is Sam Gross?": the role a document's header gives
            result.answer = (role + "\n\n" if role else "") + _with_list(store, _offline_answer(
                topic, tables, params, store, entities, named))
    else:
        system = render("local_search", store.workspace, context_data=text,
                        response_type=params.response_type,
                        language_instruction=language_instruction(params.language, question))
        messages = [{"role": "system", "content": system}, {"role": "user", "content": question}]
        try:
            result.answer = (llm.chat(messages, max_tokens=params.answer_tokens,
                                      stage="local").text or "").strip()
            if not result.answer:
                result.error = "the model returned an empty answer"
            else:
                result.answer, added = attribute_local(result.answer, {k: tables[k].records for k in TABLE_ORDER})
                if added:
                    result.context["attributed_markers"] = added
        except LLMError as exc:
            result.error = f"the answer call failed: {exc}"
    t3 = time.perf_counter()
    result.citations = resolve_answer(store, result.answer) if result.answer else []
    t4 = time.perf_counter()
    result.usage = usage_delta(before, llm)
    result.timings = {"entities": round(t1 - t0, 4), "context": round(t2 - t1, 4),
                      "answer": round(t3 - t2, 4), "citations": round(t4 - t3, 4),
                      "total": round(t4 - t0, 4)}
    if record:
        save_trace(store, result)
    return result


# ------------------------------------------------------------------------ entry entities

def _embedding_matches(store: Store, question: str, llm: LLM | None, k: int) -> list[str] | None:
    embedder = getattr(llm, "embedder", None)
    if embedder is None:
        return None
    rows = store.rows("embeddings", "owner_table = ? and model = ?", ["entities", embedder.model],
                      select="owner_id, vector")
    if not rows:
        return None
    mat = np.stack([np.frombuffer(r["vector"], dtype=np.float32) for r in rows])
    q = np.asarray(llm.embed([question])[0], dtype=np.float32)
    if q.shape[0] != mat.shape[1]:
        return None
    sims = mat @ q / (np.linalg.norm(mat, axis=1) * (np.linalg.norm(q) or 1.0) + 1e-12)
    order = np.argsort(-sims)[:k]
    return [rows[i]["owner_id"] for i in order]


def _text_matches(store: Store, question: str, k: int) -> list[str]:
    terms = offline.terms(question)
    latin = " ".join(t for t in terms if not offline.has_cjk(t))
    ids = [r["id"] for r in store.search("entities", latin, limit=k)] if latin else []
    if len(ids) < k and offline.has_cjk(question):  # FTS cannot split Chinese: score bigrams
        rows = store.rows("entities", select="id, title, description")
        bm = offline.BM25([offline.terms(f"{r['title']} {r.get('description') or ''}") for r in rows])
        scored = sorted(((bm.score(terms, i), -i) for i in range(len(rows))), reverse=True)
        ids += [rows[-i]["id"] for s, i in scored[:k] if s > 0 and rows[-i]["id"] not in ids]
    return ids


def entry_entities(store: Store, question: str, params: LocalParams,
                   llm: LLM | None = None) -> tuple[list[dict], str]:
    """The entities the question is about, best first, and how they were found: "embedding" or
    "text" (full-text search), prefixed "title+" when titles named in the question came first."""
    k = params.top_k_entities
    ordered = [e["id"] for e in title_matches(store, question)]
    ranked = _embedding_matches(store, question, llm, k)
    how = "embedding"
    if ranked is None:
        ranked, how = _text_matches(store, question, k), "text"
    if ordered:  # entities named in the question came first
        how = f"title+{how}" if ranked else "title"
    ids = list(dict.fromkeys(ordered + ranked))[:k]
    by_id = {e["id"]: e for e in store.by_ids("entities", ids)}
    return [by_id[i] for i in ids if i in by_id], how


# ------------------------------------------------------------------------------- context

def _in(column: str, n: int) -> str:
    return f"{column} in ({','.join('?' * n)})"


def rank_relationships(store: Store, entities: list[dict], limit: int) -> list[dict]:
    keys = list({e["title"] for e in entities} | {e["id"] for e in entities})
    if not keys:
        return []
    rows = store.rows("relationships", f"{_in('source', len(keys))} or {_in('target', len(keys))}",
                      keys + keys)
    inside = set(keys)
    rows.sort(key=lambda r: (-(r["source"] in inside and r["target"] in inside),
                             -float(r.get("weight") or 0), -int(r.get("combined_degree") or 0),
                             r["human_readable_id"]))
    return rows[:limit]


def rank_text_units(store: Store, entities: list[dict]) -> list[dict]:
    mentions: dict[str, int] = {}
    first: dict[str, int] = {}
    for idx, e in enumerate(entities):
        for tu in e.get("text_unit_ids") or []:
            mentions[tu] = mentions.get(tu, 0) + 1
            first.setdefault(tu, idx)
    units = store.by_ids("text_units", list(mentions))
    units.sort(key=lambda u: (-mentions[u["id"]], first[u["id"]], u["human_readable_id"]))
    return units


def rank_reports(store: Store, entities: list[dict]) -> list[dict]:
    wanted = {e["id"] for e in entities}
    matches: dict[int, int] = {}
    for c in store.rows("communities", select="community, entity_ids"):
        n = len(wanted & set(c.get("entity_ids") or []))
        if n:
            matches[int(c["community"])] = n
    if not matches:
        return []
    keys = list(matches)
    reports = store.rows("community_reports", _in("community", len(keys)), keys)
    reports.sort(key=lambda r: (-matches[int(r["community"])], -float(r.get("rank") or 0),
                                r["human_readable_id"]))
    return reports


def rank_claims(store: Store, entities: list[dict]) -> list[dict]:
    keys = list({e["title"] for e in entities})
    if not keys:
        return []
    return store.rows("claims", f"{_in('subject', len(keys))} or {_in('object', len(keys))}",
                      keys + keys)


def build_context(store: Store, entities: list[dict], params: LocalParams,
                  documents: list[dict] | None = None) -> tuple[dict[str, Packed], dict[str, list[dict]]]:
    """Each kind's table packed to its share of params.max_tokens (see module doc); documents:
    those the question names, whose passages are the only sources when the entities have any there."""
    ranked = rank_text_units(store, entities)
    records = {
        "sources": scope(ranked, documents or []) or ranked,
        "reports": rank_reports(store, entities),
        "entities": list(entities),
        "relationships": rank_relationships(store, entities, params.top_k_relationships),
        "claims": rank_claims(store, entities) if params.include_claims else [],
    }
    total = params.max_tokens
    tables = {"sources": local_table("sources", records["sources"], int(total * params.text_unit_prop)),
              "reports": local_table("reports", records["reports"], int(total * params.community_prop))}
    rest = int(total * max(0.0, 1 - params.text_unit_prop - params.community_prop))
    for kind in ("entities", "relationships", "claims"):
        tables[kind] = local_table(kind, records[kind], rest)
        rest -= tables[kind].tokens
    return tables, records


def _with_list(store: Store, answer: str) -> str:
    """The answer with the list one of its first quoted sentences introduces (core/query/list_blocks)."""
    ids = sorted({i for c in parse_citations(answer)[:4] for i in c.ids("Sources")})
    if not ids:
        return answer
    units = store.rows("text_units", _in("human_readable_id", len(ids)), ids,
                       select="human_readable_id, text, structure")
    return introduced_list(answer, units)


def _offline_answer(question: str, tables: dict[str, Packed], params: LocalParams,
                    store: Store | None = None, entities: list[dict] | None = None,
                    documents: list[dict] | None = None) -> str:
    # the documents a person's name heads as author; the list standing where the question's words are
    listed = (authored_documents(store, question) if store is not None else None) \
        or block_list(question, tables["sources"].records)
    if listed:
        return listed
    if store is not None and entities:  # who or what it is, its ties, the rest (core/offline/definitions)
        answer = local_answer(store, question, entities, tables["sources"].records, params.answer_tokens,
                              documents={d["id"] for d in documents or []})
        if answer:
            return answer
    candidates: list[tuple[str, int, str]] = []
    for u in tables["sources"].records:
        candidates.append(("Sources", u["human_readable_id"], u.get("text") or ""))
    for kind, key, field in (("Entities", "entities", "description"),
                             ("Relationships", "relationships", "description"),
                             ("Claims", "claims", "description")):
        for r in tables[key].records:
            candidates.append((kind, r["human_readable_id"], r.get(field) or ""))
    answer = offline.extractive_local_answer(question, candidates, params.answer_tokens)
    if answer:
        return answer
    # nothing shares a word with the question beyond the names: say what is known of them
    lines = []
    for e in tables["entities"].records[:3]:
        first = offline.sentences(e.get("description") or "")
        if first:
            lines.append(offline.cite(first[0], {"Entities": [e["human_readable_id"]]}))
    return " ".join(lines) if lines else offline.no_data_answer(
        question, "上下文中没有与之相关的句子" if offline.has_cjk(question)
        else "nothing in the context of its entities relates to it")
