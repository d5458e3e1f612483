"""Global search: map-reduce over the community reports of one level (DESIGN.md section 4).

1. reports of the level (its communities and the leaves above it: core/query/levels.py), rated at least the threshold, shuffled with a recorded seed;
2. packed into batches by the map context budget;
3. every batch mapped in parallel (at most `concurrency` calls in flight) to scored points; each
   finished batch goes to `on_batch` at once; a batch whose answer cannot be parsed after one
   repair retry is recorded as failed, never as zero scores;
4. zero-score points dropped, the rest sorted by score and packed into the reduce budget
   (selected / cut);
5. one reduce call writes the answer with the references. No point above 0: the answer says the
   data does not answer the question, and no reduce call is made.
With llm=None the offline engine scores reports lexically and answers with a list of themes, one
per scored community, each quoting its community's central sentences (core/offline/themes.py).
"""
from __future__ import annotations

import dataclasses
import json
import random
import threading
import time
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from typing import Any, Callable, Iterable, Iterator

from core.errors import UserError
from core.llm.jsonparse import JSONParseError, chat_json
from core.llm.client import LLM, FatalLLMError, LLMError
from core.offline.themes import themes_answer
from core.offline.topic import topic_answer
from core.prompts import render
from core.query import offline_answer as offline
from core.query.attribution import attribute_answer, attribute_quotes
from core.query.budget import context_window, fit_budget, small_window
from core.query.coverage import best_points_naming, left_out, point_names
from core.text.citations import parse_citations
from core.query.levels import choose_level, level_reports
from core.query.context import (Packed, iter_report_batches, language_instruction, pack_points,
                                pack_report_batches)
from core.query.resolve import resolve_answer
from core.query.traces import save_trace, usage_delta, usage_snapshot
from core.query.types import SMALL_WINDOW, GlobalParams, MapBatch, Point, SearchResult
from core.store.db import Store


def global_search(store: Store, question: str, params: GlobalParams | None = None,
                  llm: LLM | None = None, on_batch: Callable[[MapBatch], Any] | None = None,
                  record: bool = True) -> SearchResult:
    """Answer a question about the corpus as a whole. llm=None: the offline engine.
    The result is saved as a trace (result.trace_id) unless record=False."""
    question, params = checked_question(question, params)
    if params.map_max_reports is not None and params.map_max_reports < 0:
        raise UserError("reports per map call must be 0 (as many as the budget holds) or more, "
                        "or auto")
    t0 = time.perf_counter()
    level = choose_level(store, params.level)
    seed = params.seed if params.seed is not None else random.SystemRandom().randrange(2 ** 31)
    # ids and ratings first (the rows are large): the shuffle is the same as of the rows, and
    # with a model the reports are read and packed while the first map calls are out
    at_level = level_reports(store, level)
    eligible = [r["id"] for r in at_level if float(r.get("rating") or 0) >= params.rating_threshold]
    random.Random(seed).shuffle(eligible)
    result = SearchResult(
        method="global", question=question, engine="offline" if llm is None else "llm",
        model=None if llm is None else llm.model, level=level,
        params={**dataclasses.asdict(params), "seed": seed, "level": level,
                "reports_at_level": len(at_level), "reports_eligible": len(eligible),
                "reports_from_levels_above": sum(1 for r in at_level if int(r["level"]) < level)})
    before = usage_snapshot(llm)
    t1 = time.perf_counter()
    notify = _serialised(on_batch)
    params = _reports_per_call(llm, params, result)
    if llm is None:
        rows = list(_read_reports(store, eligible))
        packed_rows = pack_report_batches(rows, params.map_max_tokens, params.map_max_reports)
        result.batches = _map_offline(question, rows, packed_rows, notify)
    else:
        params = _fit_to_window(store, llm, question, params, result)
        packed = iter_report_batches(_read_reports(store, eligible), params.map_max_tokens,
                                     params.map_max_reports)
        result.batches = _map_llm(store, llm, question, packed, params, notify)
    t2 = time.perf_counter()
    _reduce(store, llm, result, params, n_reports=len(eligible))
    t3 = time.perf_counter()
    result.citations = resolve_answer(store, result.answer) if result.answer else []
    t4 = time.perf_counter()
    result.usage = usage_delta(before, llm)
    result.timings = {"prepare": round(t1 - t0, 4), "map": round(t2 - t1, 4),
                      "reduce": round(t3 - t2, 4), "citations": round(t4 - t3, 4),
                      "total": round(t4 - t0, 4)}
    if record:
        save_trace(store, result)
    return result


def checked_question(question: str, params: GlobalParams | None) -> tuple[str, GlobalParams]:
    """The question stripped and the params (the defaults for None), as the map-reduce searches
    (global, TS) take them; a UserError for an empty question or a concurrency below 1."""
    question = (question or "").strip()
    if not question:
        raise UserError("the question is empty")
    params = params or GlobalParams()
    if params.concurrency < 1:
        raise UserError("concurrency must be at least 1")
    return question, params


def _fit_to_window(store: Store, llm: LLM, question: str, params: GlobalParams,
                   result: SearchResult) -> GlobalParams:
    """Shrink the map and reduce budgets to the model's context window (see core/query/budget)."""
    window = context_window(llm)
    if window is None:
        return params
    map_fixed = map_template(store, params, question).replace(_SLOT, "") + question
    reduce_fixed = render("global_reduce", store.workspace, report_data="", response_type=params.response_type,
                          language_instruction=language_instruction(params.language, question)) + question
    map_budget, map_cap = fit_budget(llm, params.map_max_tokens, map_fixed, params.map_answer_tokens)
    reduce_budget, reduce_cap = fit_budget(llm, params.reduce_max_tokens, reduce_fixed, params.answer_tokens)
    fitted = dataclasses.replace(params, map_max_tokens=map_budget, map_answer_tokens=map_cap,
                                 reduce_max_tokens=reduce_budget, answer_tokens=reduce_cap)
    changed = {k: v for k, v in dataclasses.asdict(fitted).items() if v != getattr(params, k)}
    result.params.update(context_window=window, **changed,
                         asked={k: getattr(params, k) for k in changed})
    return fitted


def _reports_per_call(llm: LLM | None, params: GlobalParams, result: SearchResult) -> GlobalParams:
    """Resolve map_max_reports=None (auto): one report per map call for a model with a small
    context window, else as many as the budget holds. The trace records the choice."""
    if params.map_max_reports is not None:
        return params
    window = context_window(llm)
    per_call = 1 if small_window(llm) else 0
    why = (f"auto: 1 for a context window of {window:,} tokens (at most {SMALL_WINDOW:,})" if per_call
           else "auto: as many as the budget holds" + (f" (context window {window:,} tokens)" if window else ""))
    result.params.update(map_max_reports=per_call, map_max_reports_why=why)
    return dataclasses.replace(params, map_max_reports=per_call)


def _read_reports(store: Store, ids: list[str], chunk: int = 64) -> Iterator[dict]:
    """The reports with these ids, in this order, read a chunk at a time."""
    for i in range(0, len(ids), chunk):
        part = ids[i:i + chunk]
        by_id = {r["id"]: r for r in store.by_ids("community_reports", part)}
        yield from (by_id[x] for x in part if x in by_id)


def _serialised(on_batch: Callable[[MapBatch], Any] | None) -> Callable[[MapBatch], None]:
    """on_batch called from worker threads, one call at a time."""
    lock = threading.Lock()

    def notify(batch: MapBatch) -> None:
        if on_batch is not None:
            with lock:
                on_batch(batch)
    return notify


# -------------------------------------------------------------------------------- map

def _map_offline(question: str, eligible: list[dict], packed: list[Packed],
                 notify: Callable[[MapBatch], None]) -> list[MapBatch]:
    scores = offline.score_reports(question, eligible)
    batches = []
    for i, p in enumerate(packed):
        t = time.perf_counter()
        points: list[Point] = []
        for r in p.records:
            points += offline.report_points(question, r, scores[int(r["human_readable_id"])])
        points.sort(key=lambda pt: -pt.score)
        for pt in points:
            pt.batch = i
        raw = json.dumps({"points": [{"description": pt.description, "score": pt.score}
                                     for pt in points]}, ensure_ascii=False)
        batch = MapBatch(batch=i, report_ids=[int(r["human_readable_id"]) for r in p.records],
                         context_tokens=p.tokens, raw_output=raw, points=points,
                         seconds=round(time.perf_counter() - t, 4), attempts=0)
        notify(batch)
        batches.append(batch)
    return batches


def _map_llm(store: Store, llm: LLM, question: str, packed: Iterable[Packed], params: GlobalParams,
             notify: Callable[[MapBatch], None]) -> list[MapBatch]:
    """Map every batch; each goes out as soon as it is packed (packing goes on while the first
    calls are in flight)."""
    template = map_template(store, params, question)
    failed = threading.Event()

    def work(i: int, p: Packed) -> MapBatch:
        try:
            batch = map_batch(llm, question, i, p, params, template)
        except BaseException:
            failed.set()
            raise
        notify(batch)
        return batch

    pool = ThreadPoolExecutor(max_workers=params.concurrency, thread_name_prefix="map")
    try:
        futures = []
        for i, p in enumerate(packed):
            if failed.is_set():  # a fatal error: no more calls
                break
            futures.append(pool.submit(work, i, p))
        if not futures:
            return []
        done, _ = wait(futures, return_when=FIRST_EXCEPTION)
        for f in futures:  # a fatal error (bad key, unreachable endpoint) stops the query
            if f.done() and f.exception() is not None:
                raise f.exception()
        return [f.result() for f in futures]
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


_SLOT = "\x00context_data\x00"


def map_template(store: Store, params: GlobalParams, question: str = "") -> str:
    """The map prompt filled but for its data table (read and rendered once per query)."""
    return render("global_map", store.workspace, context_data=_SLOT,
                  max_length=max(50, int(params.map_answer_tokens * 0.6)),
                  language_instruction=language_instruction(params.language, question))


def map_batch(llm: LLM, question: str, i: int, packed: Packed, params: GlobalParams,
              template: str, attribute: bool = True) -> MapBatch:
    """One map call: the batch's table -> scored points (or a failed batch: an answer that
    cannot be parsed after the repair retry, or a failed call; a fatal error is raised).
    Shared by global search and TS, each with its own template. attribute: a point that cites
    nothing but copies one of the batch's reports gets that report's reference (TS maps text
    units, not reports, and passes False)."""
    t = time.perf_counter()
    batch = MapBatch(batch=i, report_ids=[int(r["human_readable_id"]) for r in packed.records],
                     context_tokens=packed.tokens)
    system = template.replace(_SLOT, packed.text)
    messages = [{"role": "system", "content": system}, {"role": "user", "content": question}]
    try:
        obj, raw, attempts = chat_json(llm, messages, max_tokens=params.map_answer_tokens,
                                       stage="map", validate=validate_points)
        batch.raw_output, batch.attempts = raw, attempts
        batch.points = parse_points(obj, i)
        if attribute:
            batch.points = attribute_quotes(batch.points, packed.records)
    except JSONParseError as exc:
        batch.error, batch.raw_output, batch.attempts = str(exc), exc.raw, exc.attempts
    except FatalLLMError:
        raise
    except LLMError as exc:
        batch.error = f"map call failed: {exc}"
    batch.seconds = round(time.perf_counter() - t, 4)
    return batch


def _points_list(obj: Any) -> list:
    if isinstance(obj, dict):
        pts = obj.get("points")
        if pts is None and len(obj) == 1:
            pts = next(iter(obj.values()))
    else:
        pts = obj
    if not isinstance(pts, list):
        raise ValueError('expected {"points": [...]}')
    return pts


def _score(value: Any) -> int:
    if isinstance(value, bool):
        raise ValueError("a score must be a number 0-100")
    try:
        s = float(str(value).strip().rstrip("%"))
    except ValueError:
        raise ValueError(f"score {value!r} is not a number 0-100") from None
    return int(round(min(100.0, max(0.0, s))))


def validate_points(obj: Any) -> None:
    """Raise ValueError unless obj is {"points": [{"description": str, "score": 0-100}]}."""
    for p in _points_list(obj):
        if not isinstance(p, dict):
            raise ValueError("every point must be an object with description and score")
        if not isinstance(p.get("description", p.get("answer")), str):
            raise ValueError("a point has no description")
        _score(p.get("score", 0))


def parse_points(obj: Any, batch: int) -> list[Point]:
    """The batch's points; a point repeated word for word (small models loop) is kept once."""
    points, seen = [], set()
    for p in _points_list(obj):
        desc = str(p.get("description", p.get("answer")) or "").strip()
        if not desc or " ".join(desc.lower().split()) in seen:
            continue
        seen.add(" ".join(desc.lower().split()))
        ids: list[int] = []
        for c in parse_citations(desc):
            ids += [r.id for r in c.refs if r.kind == "Reports" and r.id is not None and r.id not in ids]
        points.append(Point(description=desc, score=_score(p.get("score", 0)), report_ids=ids,
                            batch=batch))  # tokens: counted when packed for the reduce
    return points


# ----------------------------------------------------------------------------- reduce

def _reduce(store: Store, llm: LLM | None, result: SearchResult, params: GlobalParams,
            n_reports: int) -> None:
    ranked = sorted((p for b in result.batches for p in b.points if p.score > 0),
                    key=lambda p: -p.score)
    selected, cut, text, tokens = pack_points(ranked, params.reduce_max_tokens)
    result.reduce = {"selected": selected, "cut": cut, "context_text": text, "tokens": tokens,
                     "budget": params.reduce_max_tokens}
    topic = topic_answer(store, result.question, params.answer_tokens, result.level) if llm is None else None
    if topic is not None:  # one topic of the corpus: the sentences naming it, where they stand (core/offline/topic.py)
        result.answer, result.reduce["topic"] = topic
        return
    if not ranked:
        result.no_data = True
        result.answer = _no_answer(result, params, n_reports)
        return
    if llm is None:  # a list of themes (core/offline/themes.py); the points as paragraphs if none
        result.answer = (themes_answer(store, result.question, ranked, params.answer_tokens, result.level)
                         or offline.extractive_reduce(selected, params.answer_tokens))
        return
    system = render("global_reduce", store.workspace, report_data=text,
                    response_type=params.response_type,
                    language_instruction=language_instruction(params.language, result.question))
    messages = [{"role": "system", "content": system}, {"role": "user", "content": result.question}]
    if not reduce_answer(llm, messages, params.answer_tokens, result):
        return
    if small_window(llm):
        _cover_best_points(store, llm, result, params, messages, selected)
    result.answer, added = attribute_answer(result.answer, selected)
    if added:
        result.reduce["attributed_markers"] = added


def reduce_answer(llm: LLM, messages: list[dict], answer_tokens: int, result: SearchResult) -> bool:
    """The one reduce call of a map-reduce search (global, TS, DRIFT): its text into
    result.answer, or what went wrong into result.error. True when there is an answer."""
    try:
        result.answer = (llm.chat(messages, max_tokens=answer_tokens, stage="reduce").text or "").strip()
    except LLMError as exc:
        result.error = f"the reduce call failed: {exc}"
        return False
    if not result.answer:
        result.error = "the reduce call returned an empty answer"
        return False
    return True


def _cover_best_points(store: Store, llm: LLM, result: SearchResult, params: GlobalParams,
                       messages: list[dict[str, str]], selected: list[Point]) -> None:
    """A small model's answer that leaves out names the best points give is asked for once more,
    with those names; the answer naming more of them is kept (see core/query/coverage.py)."""
    names = point_names(store, selected)
    missing = left_out(names, result.answer)
    if not missing:
        return
    listed = ", ".join(t.title() if t.isascii() else t for t in missing[:8])
    reminder = render("global_reduce_names", store.workspace, names=listed).strip()
    retry = [messages[0], {"role": "user", "content": f"{messages[1]['content']}\n\n{reminder}"}]
    try:
        again = (llm.chat(retry, max_tokens=params.answer_tokens, stage="reduce").text or "").strip()
    except LLMError:
        again = ""
    still = left_out(missing, again) if again else missing
    kept = "second" if again and len(still) < len(missing) else "first"
    if kept == "second":
        result.answer = again
    else:
        still = missing
    result.reduce["left_out"] = {"names": missing, "still_left_out": still, "kept": kept}
    added = best_points_naming(selected, still)
    if added:  # what the map scored highest stays in the answer, marked as the points' own words
        head = ("评分最高的要点中还有（模型的回答遗漏了，此处原文照录）：" if offline.has_cjk(result.question)
                else "**Also among the best-scored points** (left out of the model's answer; their own words):")
        result.answer += "\n\n" + head + "\n\n" + "\n".join(f"- {p.description.strip()}" for p in added)
        result.reduce["left_out"]["points_added"] = len(added)


def _no_answer(result: SearchResult, params: GlobalParams, n_reports: int) -> str:
    q, level = result.question, result.level
    failed = len(result.failed_batches)
    if n_reports == 0:
        detail = (f"no community report at level {level} is rated {params.rating_threshold:g} or more"
                  if not offline.has_cjk(q) else
                  f"第 {level} 层没有评分不低于 {params.rating_threshold:g} 的社区报告")
        return offline.no_data_answer(q, detail)
    if failed == len(result.batches):
        result.error = f"all {failed} map batches failed"
        if offline.has_cjk(q):
            return f"无法作答：全部 {failed} 个 map 批次都失败了（详见查询记录），没有读取到任何报告。"
        return (f"No answer: all {failed} map batches failed (see the trace), so no report was read. "
                "Nothing has been made up.")
    detail = (f"none of the {n_reports} community reports at level {level} is relevant to it"
              if not offline.has_cjk(q) else f"第 {level} 层的 {n_reports} 份社区报告都与它无关")
    if failed:
        detail += (f" ({failed} map batches failed and were not read)" if not offline.has_cjk(q)
                   else f"（另有 {failed} 个批次失败，未能读取）")
    return offline.no_data_answer(q, detail)
