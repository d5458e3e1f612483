"""Verdicts in the app (AppTest): "Check a text" on the Ask page marks the sentence its source
contradicts and names the failing fact; a report's trust line; the least trusted reports listed
first on the communities page, a click opening the community."""
from __future__ import annotations

import html
import re


from core.store.db import Store
from tests.evidence_marks import assert_panel_marks
from tests.test_app_pages import _app, _html, _open


def _source_with(store: Store, word: str) -> tuple[int, str]:
    """A text unit holding word, and the first sentence of it that does."""
    from core.textutil import split_sentences
    for u in store.rows("text_units"):
        for a, b in split_sentences(u["text"]):
            if word in u["text"][a:b] and a >= max(0, len(u["text"]) - (u["char_end"] - u["char_start"])):
                return u["human_readable_id"], u["text"][a:b]
    raise AssertionError(f"no sentence with {word!r}")


def test_check_a_text_marks_the_contradicted_sentence(indexed_home, monkeypatch):
    store = Store(indexed_home / "test")
    hrid, sentence = _source_with(store, "Berth 2")
    wrong = sentence.replace("Berth 2", "Berth 7")
    text = f"{sentence} [Data: Sources ({hrid})]. {wrong.rstrip('.')} [Data: Sources ({hrid})]."
    at = _open(_app(indexed_home, monkeypatch), "pages/ask.py")
    at.text_area(key="check_text_in").set_value(text)
    next(b for b in at.button if b.label == "Check").click().run()
    assert not at.exception
    body = _html(at)
    lines = re.findall(r'<li class="sm-check (\w+)">', body)
    assert lines[0] == "supported" and lines[1] == "contradicted", lines
    # the paragraph: the contradicted sentence is marked where it stands, with why
    flagged = re.search(r'<span class="sm-flag contradicted"[^>]*>(.*?)</span> <span class="sm-flag-why contradicted">(.*?)</span>',
                        body, re.S)
    assert flagged and html.unescape(flagged.group(1)).startswith(wrong[:20])
    assert "7" in html.unescape(flagged.group(2)) and "contradicted" in flagged.group(2)
    # the chips' highlights are sentences of their source
    assert assert_panel_marks(store, body) >= 1
    # both sentences cite the same source: the contradicted one has a chip of its own, so its
    # evidence and failing fact can be opened too (a newcomer found only the first sentence's)
    chips = [html.unescape(re.sub(r"<[^>]+>", "", m)) for m in re.findall(r"<summary[^>]*>(.*?)</summary>", body, re.S)]
    # a source's chip names its document on hover
    doc = store.rows("documents", "id = ?", [store.by_hrid("text_units", hrid)["document_id"]])[0]["title"]
    assert f'<summary title="{html.escape(doc, quote=True)}">' in body
    assert chips[0] == f"Source {hrid} supported", chips
    # a chip's verdict says what it means before the word match behind it (a newcomer read
    # "contradicted 95%" as confidence)
    assert re.search(r'Verdict for the cited sentence \(offline judge\): <span class="sm-verdict contradicted">'
                     r'contradicted</span> \u2014 the cited text says otherwise \u00b7 word match: \d+% of its terms', body)
    assert chips[1].startswith(f"Source {hrid} \u00b7 \u201c{wrong[:10]}") and "contradicted" in chips[1], chips


def test_reports_carry_a_trust_line_and_the_least_trusted_come_first(indexed_home, monkeypatch):
    at = _open(_app(indexed_home, monkeypatch), "pages/communities.py")
    body = _html(at)
    assert re.search(r'<div class="sm-trust"[^>]*>Trust \(offline judge\): \d+ findings? checked', body)
    # the finding's badge and its chips are two kinds of verdict: the page says which is which
    assert "badge weighs all its sources together" in body and "that source alone" in body
    at.session_state["trust_open"] = True  # the user opens the expander
    at.run()
    assert not at.exception
    table = next(d.value for d in at.dataframe if str(d.key).startswith("trust_tbl_"))
    assert list(table.columns[:4]) == ["report", "trust", "flagged", "title"]  # what is wrong before the title
    first = table.iloc[0]
    assert first["flagged"] == (", ".join(f"{first[v]} {v}" for v in ("fabricated", "contradicted", "unsupported")
                                          if first[v]) or "none")
    # least trusted first: fabricated findings, then contradicted ones (each as a share of the
    # report's findings), then the trust score
    judged = table[["supported", "partial", "unsupported", "contradicted", "fabricated"]].sum(axis=1).clip(lower=1)
    key = list(zip(-table["fabricated"] / judged, -table["contradicted"] / judged, table["trust"]))
    assert key == sorted(key), key
    # a click opens that community
    last = table.iloc[-1]
    key = next(d.key for d in at.dataframe if str(d.key).startswith("trust_tbl_"))
    at.session_state[key] = {"selection": {"rows": [len(table) - 1], "columns": [], "cells": []}}
    at.run()
    assert not at.exception
    assert any(last["title"][:30] in s.value.replace("\\", "") for s in at.subheader)


def test_an_answer_sentence_its_source_contradicts_is_marked_in_place(indexed_home, tmp_path, monkeypatch):
    import shutil
    from core.query.traces import save_trace
    from core.query.types import SearchResult
    shutil.copytree(indexed_home / "test", tmp_path / "copy")
    store = Store(tmp_path / "copy")
    hrid, sentence = _source_with(store, "Berth 2")
    wrong = sentence.replace("Berth 2", "Berth 7").rstrip(".")
    save_trace(store, SearchResult(method="local", question="What happened at the berth?",
                                   answer=f"{sentence.rstrip('.')} [Data: Sources ({hrid})]. "
                                          f"{wrong} [Data: Sources ({hrid})]."))
    at = _open(_app(tmp_path, monkeypatch), "pages/ask.py")
    next(b for b in at.button if b.label.startswith("What happened at the berth? \u00b7 local")).click().run()
    assert not at.exception
    answer = next(m.value for m in at.markdown if "Berth 7" in m.value.replace("\\", ""))
    plain = answer.replace("\\", "")
    # the right sentence stays as it is; the wrong one is marked where it stands, with why
    assert plain.count(":red-background[") == 1
    marked = plain.split(":red-background[", 1)[1]
    assert marked.startswith(wrong[:25]) and ":red-badge[⚠ contradicted: number “7" in marked
    # the chip (one per reference, judged for its first citing sentence) highlights exactly a
    # sentence of the source
    body = _html(at)
    assert 'sm-chip-verdict">supported' in body
    assert assert_panel_marks(store, body) >= 1


def test_check_a_text_shows_a_true_example_of_this_workspace(indexed_home, monkeypatch):
    """The placeholder is a sentence of this workspace cited to its own text unit (not another
    corpus's example), and checking it as written gives supported."""
    store = Store(indexed_home / "test")
    at = _open(_app(indexed_home, monkeypatch), "pages/ask.py")
    box = at.text_area(key="check_text_in")
    m = re.fullmatch(r"(.+) \[Data: Sources \((\d+)\)\]\.", box.placeholder)
    assert m, box.placeholder
    unit = store.query("SELECT text FROM text_units WHERE human_readable_id = ?", [int(m.group(2))])[0]
    assert m.group(1) in " ".join(unit["text"].split())
    assert "Sources (N) is text unit N" in (box.help or "")
    box.set_value(box.placeholder)
    next(b for b in at.button if b.label == "Check").click().run()
    assert re.findall(r'<li class="sm-check (\w+)">', _html(at)) == ["supported"]


def test_check_a_text_without_markers_says_nothing_is_cited(indexed_home, monkeypatch):
    """A pasted page with no marker gets one warning, not a verdict per sentence (a newcomer's
    160 KB paste drew a 164,000-px page of 'fabricated' capitalised words)."""
    at = _open(_app(indexed_home, monkeypatch), "pages/ask.py")
    at.text_area(key="check_text_in").set_value("The harbour was quiet. Port Aldermere slept. " * 50)
    next(b for b in at.button if b.label == "Check").click().run()
    assert any("Nothing in this text cites a source" in w.value for w in at.warning)
    assert not re.findall(r'<li class="sm-check', _html(at))


def test_a_checked_text_is_still_there_after_a_reload(indexed_home, monkeypatch):
    """The last check is kept with the workspace: a reload (a new session) finds the text and its
    verdicts again, and the closed expander says what it found."""
    store = Store(indexed_home / "test")
    hrid, sentence = _source_with(store, "Berth 2")
    wrong = sentence.replace("Berth 2", "Berth 7")
    text = f"{sentence} [Data: Sources ({hrid})]. {wrong.rstrip('.')} [Data: Sources ({hrid})]."
    try:
        at = _open(_app(indexed_home, monkeypatch), "pages/ask.py")
        at.text_area(key="check_text_in").set_value(text)
        next(b for b in at.button if b.label == "Check").click().run()
        assert re.findall(r'<li class="sm-check (\w+)">', _html(at)) == ["supported", "contradicted"]
        # the label says what this check found at once, not what the one before it had
        assert next(e.label for e in at.expander if e.label.startswith("Check a text")) == \
            "Check a text \u00b7 last check: 2 sentences, 1 contradicted"
        checked = next(c.value for c in at.caption if c.value.startswith("Verdicts for the text as checked at"))
        when = re.search(r"checked at (\d{4}-\d\d-\d\d \d\d:\d\d)", checked).group(1)
        again = _open(_app(indexed_home, monkeypatch), "pages/ask.py")  # the reload
        assert again.text_area(key="check_text_in").value == text
        # it says when the analyst checked it, and that the verdicts were judged again now
        said = next(c.value for c in again.caption if c.value.startswith("Verdicts for the text as checked at"))
        assert f"checked at {when}, judged again against the index as it is now" in said, said
        assert re.findall(r'<li class="sm-check (\w+)">', _html(again)) == ["supported", "contradicted"]
        label = next(e.label for e in again.expander if e.label.startswith("Check a text"))
        assert label == "Check a text · last check: 2 sentences, 1 contradicted", label
    finally:
        store.db.execute("DELETE FROM meta WHERE id = 'last_text_check'")
        store.db.conn.commit()


def test_check_a_text_says_what_is_wrong_with_a_marker(indexed_home, monkeypatch):
    """A newcomer's bad markers: an id no record has is named, a marker not read whole is said to
    be, a sentence with no marker is marked in the paragraph too, and a chip's label quotes its
    sentence without the marker."""
    store = Store(indexed_home / "test")
    hrid, sentence = _source_with(store, "Berth 2")
    text = (f"{sentence.rstrip('.')} [Data: Sources ({hrid}, 9998)]. The harbour closes at night. "
            f"The pilots went on strike [Data: Sources (abc)]. The tug sank [Data: Sources ({hrid}, 9999)]. "
            f"{sentence.rstrip('.')} [Data: Sources ({hrid})].")
    try:
        at = _open(_app(indexed_home, monkeypatch), "pages/ask.py")
        at.text_area(key="check_text_in").set_value(text)
        next(b for b in at.button if b.label == "Check").click().run()
        body = html.unescape(_html(at))
        lines = re.findall(r'<li class="sm-check (\w+)">(.*?)</li>', body, re.S)
        assert [v for v, _ in lines] == ["supported", "unsupported", "unsupported", "unsupported", "supported"], lines
        plain = [re.sub(r"<[^>]+>", " ", t) for _, t in lines]
        assert "Sources (9998) is not in this workspace" in plain[0]
        assert "it cites nothing" in plain[1]
        assert "its marker [Data: Sources (abc)] cites no record" in plain[2] and "[Data" not in plain[2].split("its marker")[0]
        assert "Sources (9999) is not in this workspace" in plain[3]
        # the uncited sentence is marked where it stands in the paragraph, with why
        assert re.search(r'<span class="sm-flag unsupported"[^>]*>The harbour closes at night\.</span> '
                         r'<span class="sm-flag-why unsupported">\u26a0 unsupported: it cites nothing</span>', body), body
        chips = [re.sub(r"<[^>]+>", "", m) for m in re.findall(r"<summary[^>]*>(.*?)</summary>", body, re.S)]
        assert any(c.startswith(f"Source {hrid} \u00b7 \u201cThe tug sank.\u201d") for c in chips), chips
        assert not any("[Data" in c for c in chips), chips
    finally:
        store.db.execute("DELETE FROM meta WHERE id = 'last_text_check'")
        store.db.conn.commit()
