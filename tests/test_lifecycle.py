"""Documents change (issue 22), on both backends (SQLite, PostgreSQL): remove, replace (one paragraph edited) and add back, on the sample
corpus through the LLM engine with the deterministic fake model. After each: `check` clean, no
dangling reference, and the same entities, relationships and communities as a fresh index of the
same documents with the same seed; a removal asks for no extraction, and for summaries and
reports only of what it touched; an edit re-extracts at most 2 units (chunk cuts over real text:
tests/test_chunk_edits.py)."""
from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest

from core.index.lifecycle import remove_documents, replace_document, removal_preview
from core.index.llm_engine import LLMEngine
from core.index.pipeline import run_index
from core.ingest.documents import ingest_paths
from core.llm.client import LLM
from core.store.references import Resolver
from core.text.citations import Ref
from core.verify.reports import verify_reports
from core.settings import Settings
from core.store.check import check_workspace
from core.store.backends import store_at
from core.store.db import Store
from tests.fake_model import respond
from tests.fakes import FakeChat

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = sorted(p for p in (ROOT / "sample_corpus").glob("*.*") if p.name.lower() != "readme.md"
                and not p.name.endswith("_zh.md"))[:8]


def varied(messages):
    """The fake model, with descriptions that depend on the unit (so entities seen in several
    units have several descriptions to summarise)."""
    first = messages[0]["content"]
    out = respond(messages)
    if first.startswith("-Goal-\nRead the text below") and len(messages) == 1:
        text = first.split("-Text-\n", 1)[1]
        tag = " ".join(re.findall(r"[a-z]{5,}", text)[:3])
        out = out.replace(" appears in the text.", f" appears in the text ({tag}).")
    return out


def settings(**kw) -> Settings:
    return Settings(**{"engine": "llm", "chunk_size": 160, "chunk_overlap": 30, "concurrency": 2, "seed": 7, **kw})


def _kind(messages) -> str:
    first = messages[0]["content"]
    if first.startswith("-Goal-\nRead the text below") or "Extract claims" in first \
            or "may have been missed" in messages[-1]["content"]:
        return "extraction"
    if "You are writing one description" in first:
        return "summary"
    if "writing a report about one community" in first:
        return "report"
    return "other"


class Counting(FakeChat):
    def kinds(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for m in self.calls:
            out[_kind(m)] = out.get(_kind(m), 0) + 1
        return out


def index(store: Store, chat: FakeChat, s: Settings | None = None, **kw) -> dict:
    s = s or settings()
    llm = LLM(chat, store)
    return run_index(store, s, engine=LLMEngine(llm, s, store.workspace), llm=llm, **kw)


def graph_of(store: Store) -> dict:
    # descriptions aside: one kept because its set of descriptions is unchanged may list them in
    # another order than a fresh summary would
    ents = {e["title"]: (e["type"], sorted(e["text_unit_ids"]), bool(e["description"]))
            for e in store.rows("entities")}
    rels = {(r["source"], r["target"]): (sorted(r["text_unit_ids"]), r["weight"], bool(r["description"]))
            for r in store.rows("relationships")}
    title = {e["id"]: e["title"] for e in store.rows("entities", select="id, title")}
    coms = sorted((c["level"], tuple(sorted(title[i] for i in c["entity_ids"]))) for c in store.rows("communities"))
    return {"entities": ents, "relationships": rels, "communities": coms}


def fresh(tmp: Path, docs: list[dict]) -> dict:
    """A fresh index of exactly these document rows (same ids, texts, order)."""
    store = store_at(tmp)
    store.insert("documents", [{k: d[k] for k in ("id", "title", "source_name", "mime", "sha256", "n_tokens",
                                                  "text", "metadata", "created_at")} | {"status": "new"} for d in docs])
    index(store, Counting(varied))
    return graph_of(store)


def assert_clean(store: Store) -> None:
    res = check_workspace(store)
    assert res.ok, res.problems[:5]
    assert verify_reports(store).dangling == []


@pytest.fixture()
def indexed(tmp_path, backend):
    store = store_at(tmp_path / "ws")
    ingest_paths(store, SAMPLE, max_bytes=10_000_000)
    chat = Counting(varied)
    index(store, chat)
    assert store.count("text_units") > 3 * len(SAMPLE) and chat.kinds()["summary"] > 5
    return store


def touched(store: Store, doc_ids: list[str]) -> tuple[int, int]:
    """Entities that lost a unit, and communities holding one of them (before the change)."""
    marks = ",".join("?" * len(doc_ids))
    units = {r[0] for r in store.db.conn.execute(f"select id from text_units where document_id in ({marks})", doc_ids)}
    ents = {e["id"] for e in store.rows("entities") if set(e["text_unit_ids"]) & units}
    coms = sum(1 for c in store.rows("communities") if set(c["entity_ids"]) & ents)
    return len(ents), coms


def test_remove_asks_only_for_what_it_touched_and_equals_a_fresh_index(indexed, tmp_path):
    store = indexed
    doc = store.rows("documents", order_by="human_readable_id")[2]
    preview = removal_preview(store, [doc["id"]])
    assert preview["text_units"] >= 3 and preview["entities"] >= 1
    n_ents, n_coms = touched(store, [doc["id"]])
    before_reports = {r["id"]: r for r in store.rows("community_reports")}
    out = remove_documents(store, [doc["title"]])
    assert out["titles"] == [doc["title"]]
    assert check_workspace(store).ok  # consistent the moment the first step commits
    stale = verify_reports(store).dangling  # until the run rewrites them, reports of touched
    assert all(Resolver(store).resolve(Ref(d["kind"], d["id"])).removed for d in stale)  # say so
    chat = Counting(varied)
    summary = index(store, chat)
    kinds = chat.kinds()
    assert kinds.get("extraction", 0) == 0
    ch = summary["changes"]
    # Leiden runs again on the whole graph (the same seed, so the result is a fresh index's):
    # communities touched by no removed unit may change members too. Every report written is one
    # of a community with new members or holding an entity that lost a unit, and no more
    assert kinds.get("summary", 0) <= n_ents
    assert kinds.get("report", 0) <= ch["communities"]["added"] + n_coms
    assert summary["operation"] == "remove" and ch["operation"] == "remove"
    assert ch["documents"] == {"added": 0, "removed": 1}
    assert ch["text_units"]["removed"] == preview["text_units"]
    assert ch["entities"]["removed"] == preview["entities"]
    assert ch["llm_calls"]["extraction"] == 0 and ch["llm_calls"]["report"] == kinds.get("report", 0)
    assert ch["reports"]["kept"] > 0 and ch["reports"]["rewritten"] == kinds.get("report", 0)
    # a community whose members did not change keeps its report: the same row
    after = {r["id"]: r for r in store.rows("community_reports")}
    kept = [i for i in after if i in before_reports and after[i]["input_key"] == before_reports[i]["input_key"]]
    assert len(kept) == ch["reports"]["kept"]
    assert all(after[i] == before_reports[i] for i in kept)
    assert_clean(store)
    docs = store.rows("documents", order_by="human_readable_id")
    assert graph_of(store) == fresh(tmp_path / "fresh", docs)


def test_replace_with_one_paragraph_edited_reextracts_at_most_two_units(indexed, tmp_path):
    store = indexed
    doc = max(store.rows("documents"), key=lambda d: d["n_tokens"])
    paras = doc["text"].split("\n\n")
    k = max(range(len(paras)), key=lambda i: len(paras[i]))
    paras[k] = paras[k].replace(" the ", " the revised ", 1)
    text = "\n\n".join(paras)
    import hashlib
    n_units = store.count("text_units", "document_id = ?", [doc["id"]])
    assert n_units >= 4
    out = replace_document(store, doc["id"], {"text": text, "sha256": hashlib.sha256(text.encode()).hexdigest(),
                                              "n_tokens": doc["n_tokens"]}, settings())
    assert out["units_added"] <= 2 and out["units_kept"] >= n_units - 2
    assert check_workspace(store).ok
    chat = Counting(varied)
    summary = index(store, chat)
    first_calls = [m for m in chat.calls if m[0]["content"].startswith("-Goal-\nRead the text below") and len(m) == 1]
    assert 1 <= len(first_calls) <= 2
    assert summary["changes"]["operation"] == "replace" and summary["changes"]["units_extracted"] <= 2
    assert_clean(store)
    assert graph_of(store) == fresh(tmp_path / "fresh", store.rows("documents", order_by="human_readable_id"))
    # added back after a removal: the same graph again, its units extracted anew
    remove_documents(store, [doc["title"]])
    index(store, Counting(varied))
    ingest_paths(store, [p for p in SAMPLE if doc["source_name"] in p.name], max_bytes=10_000_000)
    chat = Counting(varied)
    summary = index(store, chat)
    assert summary["changes"]["documents"]["added"] == 1 and summary["operation"] == "index"
    assert summary["changes"]["text_units"]["added"] == summary["changes"]["units_extracted"] > 0
    assert_clean(store)
    assert graph_of(store) == fresh(tmp_path / "fresh2", store.rows("documents", order_by="human_readable_id"))


def test_stored_citations_of_removed_units_say_source_removed(indexed):
    store = indexed
    doc = store.rows("documents", order_by="human_readable_id")[0]
    unit = store.rows("text_units", "document_id = ?", [doc["id"]])[0]
    remove_documents(store, [doc["source_name"]])
    index(store, Counting(varied))
    res = Resolver(store).resolve(Ref("Sources", unit["human_readable_id"]))
    assert res.dangling and res.removed == doc["title"]
    assert Resolver(store).resolve(Ref("Sources", 99999)).removed is None
    from pages.components.chips import chips_html
    page = chips_html(Resolver(store), [("Sources", unit["human_readable_id"], "A cited sentence.", False),
                                        ("Sources", 99999, "Another.", False)])
    assert "(source removed)" in page and "(missing)" in page and doc["title"] in page
    # the evidence viewer offers the same labels as the chips (it said "(missing)" for both)
    from pages.components.chips import _labels
    labels = [label for label, _, _ in _labels([("Sources", unit["human_readable_id"], "A cited sentence.", False),
                                                ("Sources", 99999, "Another.", False)], Resolver(store))]
    assert labels == [f"Source {unit['human_readable_id']} (source removed)", "Source 99999 (missing)"]
    # the sentence's verdict says why it has no source, not "nothing it cites exists"
    from core.text.citations import parse_citations
    from core.verify.names import Names
    from core.verify.offline import judge
    from core.verify.reports import judge_sentence
    sentence = f"A cited sentence [Data: Sources ({unit['human_readable_id']})]."
    v = judge_sentence(Resolver(store), sentence, parse_citations(sentence), judge, Names(store))
    assert v.verdict == "unsupported" and v.reason == f"its sources were removed with {doc['title']}"
    # the answer marks it "source removed" where it stands, not "unsupported" (nothing was checked)
    from pages.components.verdicts import flag_close
    assert "\u26a0 source removed: its sources were removed with" in flag_close(v)


def test_remove_refuses_an_unknown_document_and_changes_nothing(indexed):
    from core.errors import UserError
    before = indexed.counts()
    with pytest.raises(UserError, match="no document named 'nope'"):
        remove_documents(indexed, ["nope"])
    assert indexed.counts() == before


def _unit_of(messages, units: dict[str, str]) -> str | None:
    if messages[0]["content"].startswith("-Goal-\nRead the text below"):
        text = messages[0]["content"].split("-Text-\n", 1)[1]
        for uid, t in units.items():
            if t.strip() and t.strip()[:200] in text:
                return uid
    return None


def test_resumed_run_with_the_cache_emptied_asks_nothing_for_a_finished_unit(tmp_path, backend):
    """The per-item state itself (extractions rows), not the LLM cache, makes a resumed run skip
    finished units."""
    store = store_at(tmp_path)
    ingest_paths(store, SAMPLE[:4], max_bytes=10_000_000)
    cancel = threading.Event()
    seen = []

    def stop_after_five(messages):
        if messages[0]["content"].startswith("-Goal-\nRead the text below") and len(messages) == 1:
            seen.append(1)
            if len(seen) == 5:
                cancel.set()
        return varied(messages)

    s = settings(concurrency=1)
    first = index(store, Counting(stop_after_five), s, cancel=cancel)
    assert first["status"] == "cancelled"
    done = {r["text_unit_id"] for r in store.rows("extractions", "status = 'ok'")}
    assert 0 < len(done) < store.count("text_units")
    store.delete_where("llm_cache", "1 = 1", [])
    units = {u["id"]: u["text"] for u in store.rows("text_units")}
    chat = Counting(varied)
    second = index(store, chat, s)
    assert second["status"] == "finished"
    asked = {_unit_of(m, units) for m in chat.calls} - {None}
    assert asked and not asked & done


def test_removal_killed_after_its_first_step_resumes_without_calls_for_finished_work(indexed, tmp_path):
    store = indexed
    doc = store.rows("documents", order_by="human_readable_id")[1]
    n_ents, n_coms = touched(store, [doc["id"]])
    remove_documents(store, [doc["title"]])
    cancel = threading.Event()

    def stop_in_reports(messages):
        if "writing a report about one community" in messages[0]["content"]:
            cancel.set()
        return varied(messages)

    killed = index(store, Counting(stop_in_reports), cancel=cancel)
    assert killed["status"] == "cancelled"
    assert_clean_check = check_workspace(store)
    assert assert_clean_check.ok
    store.delete_where("llm_cache", "1 = 1", [])
    chat = Counting(varied)
    done = index(store, chat)
    assert done["status"] == "finished" and done["operation"] == "remove"
    assert chat.kinds().get("extraction", 0) == 0
    assert chat.kinds().get("summary", 0) <= n_ents
    assert chat.kinds().get("report", 0) <= done["changes"]["communities"]["added"] + n_coms
    assert done["changes"]["documents"]["removed"] == 1  # the whole change, from its baseline
    assert_clean(store)
    assert graph_of(store) == fresh(tmp_path / "fresh", store.rows("documents", order_by="human_readable_id"))


def test_an_unchanged_run_keeps_every_report_and_an_edited_prompt_rewrites_them(indexed):
    store = indexed
    chat = Counting(varied)
    store.delete_where("llm_cache", "1 = 1", [])  # the kept rows, not the cache, spare the calls
    again = index(store, chat)
    assert chat.kinds().get("report", 0) == 0 and chat.kinds().get("summary", 0) == 0
    assert again["changes"]["reports"]["rewritten"] == 0 and again["changes"]["reports"]["kept"] > 0
    prompts = Path(store.workspace) / "prompts"
    prompts.mkdir(exist_ok=True)
    template = (ROOT / "prompts" / "community_report.txt").read_text(encoding="utf-8")
    (prompts / "community_report.txt").write_text(template + "\nWrite plainly.\n", encoding="utf-8")
    chat = Counting(varied)
    edited = index(store, chat)
    assert edited["changes"]["reports"]["kept"] == 0
    assert chat.kinds()["report"] >= edited["changes"]["reports"]["rewritten"] == store.count("community_reports")
    assert chat.kinds().get("summary", 0) == 0  # the summaries' prompt did not change


def test_a_citation_of_a_replaced_passage_is_checked_against_the_new_version(indexed):
    """A past answer cites a unit whose text an edit replaced: its sentence, still in the new
    version, is judged there ("checked against the new version of ..."), not called removed."""
    import hashlib
    from core.text.citations import parse_citations
    from core.textutil import split_sentences
    from core.verify.names import Names
    from core.verify.offline import judge
    from core.verify.reports import judge_sentence
    store = indexed
    doc = max(store.rows("documents"), key=lambda d: d["n_tokens"])
    unit = store.rows("text_units", "document_id = ?", [doc["id"]], order_by="ordinal")[1]
    a, b = next((a, b) for a, b in split_sentences(unit["text"]) if b - a > 60 and a > 0)
    quoted = " ".join(unit["text"][a:b].split())
    # an edit inside the cited unit, away from the quoted sentence
    start = unit["char_start"] + (b if b < len(unit["text"]) - 20 else 0)
    text = doc["text"][:start] + " An added remark." + doc["text"][start:]
    replace_document(store, doc["id"], {"text": text, "sha256": hashlib.sha256(text.encode()).hexdigest(),
                                        "n_tokens": doc["n_tokens"]}, settings())
    index(store, Counting(varied))
    assert Resolver(store).resolve(Ref("Sources", unit["human_readable_id"])).dangling
    sentence = f"{quoted.rstrip('.')} [Data: Sources ({unit['human_readable_id']})]."
    v = judge_sentence(Resolver(store), sentence, parse_citations(sentence), judge, Names(store))
    assert v.verdict == "supported", (v.verdict, v.reason)
    assert v.reason.startswith(f"checked against the new version of {doc['title']}")
    from pages.components.chips import chips_html
    page = chips_html(Resolver(store), [("Sources", unit["human_readable_id"], sentence, False)])
    assert "(source replaced)" in page and "has a new version" in page, page
    from pages.components.chips import _labels
    assert [x[0] for x in _labels([("Sources", unit["human_readable_id"], sentence, False)], Resolver(store))] \
        == [f"Source {unit['human_readable_id']} (source replaced)"]
    assert "does not exist" not in page  # one message: where it went, not also "unverified"
    # the chip shows the new version's evidence: its verdict, badge and the quoted sentence
    # highlighted in the new version's unit, exactly
    import re as _re
    assert "In the new version: Source" in page and 'sm-chip-verdict">supported' in page, page
    marked = _re.search(r"<mark[^>]*>(.*?)</mark>", page, _re.S)
    assert marked and " ".join(__import__("html").unescape(marked.group(1)).split()) == quoted, page
    # and the evidence dialog (the viewer) says the same: replaced, judged against the new
    # version, its sentence highlighted; not "does not exist in this workspace"
    from streamlit.testing.v1 import AppTest

    def dialog(path: str, hrid: int, cited: str) -> None:
        import streamlit as st
        from core.store.backends import store_at
        from pages.components import drilldown
        st.session_state["drill"] = {"kind": "Sources", "id": hrid, "sentence": cited}
        drilldown.render(store_at(path))

    at = AppTest.from_function(dialog, args=(str(store.path), unit["human_readable_id"], sentence)).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert any("went with the old version of" in i.value for i in at.info), [i.value for i in at.info]
    shown = " ".join(h.proto.body for h in at.get("html"))
    assert "In the new version: Source" in shown
    marked = _re.search(r"<mark[^>]*>(.*?)</mark>", shown, _re.S)
    assert marked and " ".join(__import__("html").unescape(marked.group(1)).split()) == quoted
    assert any(b.label == "Open the new version" for b in at.button)


def test_a_stored_citation_of_a_report_gone_after_a_removal_says_rewritten(indexed):
    """After documents are removed the communities are recomputed: a report number a past answer
    cites may be gone. Its chip says "(rewritten since)" and the sentence's verdict says why,
    instead of "(missing)" and "nothing it cites exists"."""
    from core.text.citations import parse_citations
    from core.verify.names import Names
    from core.verify.offline import judge
    from core.verify.reports import judge_sentence
    from pages.components.chips import chips_html
    store = indexed
    gone = 10_000  # a report number no index holds, as a renumbered community's old one
    assert "(missing)" in chips_html(Resolver(store), [("Reports", gone, "A sentence.", False)])
    doc = store.rows("documents", order_by="human_readable_id")[0]
    remove_documents(store, [doc["source_name"]])
    index(store, Counting(varied))
    res = Resolver(store).resolve(Ref("Reports", gone))
    assert res.dangling and res.rewritten and not res.removed
    page = chips_html(Resolver(store), [("Reports", gone, "A sentence.", False)])
    assert "(rewritten since)" in page and "Report rewritten" in page, page
    sentence = f"A sentence [Data: Reports ({gone})]."
    v = judge_sentence(Resolver(store), sentence, parse_citations(sentence), judge, Names(store))
    assert v.verdict == "unsupported" and v.reason.startswith("the report it cites was rewritten")
    # a source number no document ever held stays "missing": only reports are rewritten
    assert "(missing)" in chips_html(Resolver(store), [("Sources", 99999, "A sentence.", False)])


def test_a_stored_citation_of_a_renumbered_report_is_led_to_the_report_standing_for_it(indexed):
    """A removal recomputes communities; a past answer's "Reports (N)" whose community changed
    is led to the new community of its level that took most of its entities: the chip says
    "(rewritten: now Report M)", shows M's evidence, and the sentence is judged against M. A
    second removal follows the chain."""
    from core.text.citations import parse_citations
    from core.textutil import split_sentences
    from core.verify.names import Names
    from core.verify.offline import judge
    from core.verify.reports import judge_sentence
    from pages.components.chips import chips_html
    store = indexed
    before = {c["community"]: (c["level"], set(c["entity_ids"])) for c in store.rows("communities")}
    docs = store.rows("documents", order_by="human_readable_id")
    remove_documents(store, [docs[0]["source_name"]])
    index(store, Counting(varied))
    after = {c["community"]: (c["level"], set(c["entity_ids"])) for c in store.rows("communities")}
    gone = [n for n in before if n not in after]
    assert gone, "a removal that renumbers no community tests nothing"
    led = 0
    for n in gone:
        level, members = before[n]
        shared = {m: len(members & e) for m, (lv, e) in after.items() if lv == level}
        res = Resolver(store).resolve(Ref("Reports", n))
        assert res.dangling and res.rewritten
        if not shared or max(shared.values()) == 0:
            assert res.successor is None and res.record is None
            continue
        assert res.successor in after and shared[res.successor] == max(shared.values())
        assert res.record["community"] == res.successor
        led += 1
    assert led
    n = next(n for n in gone if Resolver(store).resolve(Ref("Reports", n)).successor is not None)
    res = Resolver(store).resolve(Ref("Reports", n))
    now = res.successor
    unit = res.text_units[0]
    a, b = next((a, b) for a, b in split_sentences(unit["text"]) if b - a > 40)
    quoted = " ".join(unit["text"][a:b].split()).rstrip(".")
    sentence = f"{quoted} [Data: Reports ({n})]."
    page = chips_html(Resolver(store), [("Reports", n, sentence, False)])
    assert f"Report {n} (rewritten: now Report {now})" in page, page
    assert "now stands for it" in page and "(missing)" not in page and "does not exist" not in page
    assert 'class="sm-chip-verdict' in page  # judged against the report standing for it now
    v = judge_sentence(Resolver(store), sentence, parse_citations(sentence), judge, Names(store))
    assert v.verdict == "supported", (v.verdict, v.reason)
    assert v.reason.startswith(f"checked against Report {now} for Report {n}"), v.reason
    # a second removal: the old number still finds the report standing for its community now
    remove_documents(store, [docs[1]["source_name"]])
    index(store, Counting(varied))
    res2 = Resolver(store).resolve(Ref("Reports", n))
    assert res2.successor is None or store.count("community_reports", "community = ?", [res2.successor]) == 1
    assert_clean(store)
