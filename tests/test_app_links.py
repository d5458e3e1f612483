"""State that holds (issue 19): deep links (?ws, ?c, ?q) survive a reload, switching the
workspace leaves nothing of the old one on screen, and a re-opened question puts its own method
and text back in the form."""
from __future__ import annotations

import re

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from conftest import build_workspace, sample_files
from test_app_pages import _ask, _html, _open, _plain

from core.store.db import Store

APP = str(Path(__file__).resolve().parent / "app_entry.py")  # AppTest: see tests/app_entry.py
OTHER = ("Lighthouse log.\n"
         "Keeper Ingrid Solberg lit the Skerry Lighthouse at dusk on Friday.\n"
         "Ingrid Solberg wrote to the Northern Lights Board that the Skerry Lighthouse lens was cracked.\n"
         "The Northern Lights Board sent Engineer Pavel Novak to the Skerry Lighthouse.\n"
         "Pavel Novak and Ingrid Solberg replaced the lens for the Northern Lights Board.\n")


@pytest.fixture(scope="module")
def two_homes(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("links-home")
    build_workspace(root, "harbour", sample_files(3))
    build_workspace(root, "lighthouse", [("log.txt", OTHER.encode())])
    return root


def _app(home: Path, monkeypatch, **params: str) -> AppTest:
    monkeypatch.setenv("SENSEMAKER_HOME", str(home))
    monkeypatch.setenv("SENSEMAKER_NO_SAMPLE", "1")
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "SENSEMAKER_ENGINE"):
        monkeypatch.delenv(var, raising=False)
    at = AppTest.from_file(APP, default_timeout=60)
    for k, v in params.items():
        at.query_params[k] = v
    return at


def _params(at: AppTest) -> dict[str, str]:
    return {k: (v[0] if isinstance(v, list) else v) for k, v in at.query_params.items()}


def test_the_workspace_stays_in_the_address_on_every_page(two_homes, monkeypatch):
    at = _open(_app(two_homes, monkeypatch, ws="lighthouse"), "pages/ask.py")
    assert _params(at)["ws"] == "lighthouse"
    at.switch_page("../pages/communities.py").run()
    assert _params(at)["ws"] == "lighthouse"
    assert at.sidebar.selectbox[0].value == "lighthouse"


def test_reload_opens_the_same_community(two_homes, monkeypatch):
    at = _open(_app(two_homes, monkeypatch, ws="harbour"), "pages/communities.py")
    at.selectbox[1].select_index(1).run()  # a sub-community (level 1)
    picked = at.selectbox[1].value
    title = at.subheader[0].value
    link = _params(at)
    assert link["ws"] == "harbour" and "c" in link
    again = _open(_app(two_homes, monkeypatch, **link), "pages/communities.py")  # F5: a new session
    assert again.subheader[0].value == title
    assert again.selectbox[1].value == picked


def test_switching_workspace_leaves_nothing_of_the_old_one(two_homes, monkeypatch):
    at = _open(_app(two_homes, monkeypatch, ws="harbour"), "pages/communities.py")
    at.selectbox[1].select_index(1).run()  # a sub-community
    old_title = at.subheader[0].value
    at.sidebar.selectbox[0].set_value("lighthouse").run()
    assert not at.exception
    report = _plain(at.subheader[0].value)
    box = at.selectbox[0]
    assert _plain(old_title) != report
    # the level box shows a community of the new workspace, the one whose report is shown
    assert box.options[box.index].split(" \u00b7 ")[0] == report
    assert "Lighthouse" in report or "Solberg" in report or "Novak" in report, report
    assert _params(at).get("ws") == "lighthouse"


def test_a_reopened_question_brings_back_its_method_and_text(two_homes, monkeypatch):
    at = _open(_app(two_homes, monkeypatch, ws="harbour"), "pages/ask.py")
    _ask(at, "What are the main themes?")                       # a global question
    at.segmented_control(key="ask_method").set_value("local").run()
    _ask(at, "Who is Maria Okafor?")                            # then a local one
    assert at.segmented_control(key="ask_method").value == "local"
    # each past question says its method: the same question asked twice is told apart
    past = [b for b in at.button if b.key and b.key.startswith("trace_")]
    assert [b.label.rsplit(" \u00b7 ", 1)[0] for b in past] == \
        ["Who is Maria Okafor? \u00b7 local", "What are the main themes? \u00b7 auto: global"]
    assert all(re.fullmatch(r"\d\d:\d\d", b.label.rsplit(" \u00b7 ", 1)[1]) for b in past)  # and when
    next(b for b in past if b.label.startswith("What are the main themes? \u00b7 auto: global")).click().run()
    assert not at.exception
    # asked with Auto, it reopens with Auto (a newcomer's next question went to the routed method)
    assert at.segmented_control(key="ask_method").value == "auto"
    assert at.text_area(key="ask_question").value == "What are the main themes?"
    assert any(_plain(m.value) == "#### What are the main themes?" for m in at.markdown)
    past = [b for b in at.button if b.key and b.key.startswith("trace_")]
    next(b for b in past if b.label.startswith("Who is Maria Okafor? \u00b7 local")).click().run()
    assert at.segmented_control(key="ask_method").value == "local"


def test_reload_keeps_the_open_question(two_homes, monkeypatch):
    at = _ask(_open(_app(two_homes, monkeypatch, ws="harbour"), "pages/ask.py"),
              "Who met at Lantern Wharf?")
    link = _params(at)
    assert link.get("q")
    again = _open(_app(two_homes, monkeypatch, **link), "pages/ask.py")
    assert any(_plain(m.value) == "#### Who met at Lantern Wharf?" for m in again.markdown)
    assert again.text_area(key="ask_question").value == "Who met at Lantern Wharf?"
    # a link to a question of another workspace says so instead of failing
    other = _open(_app(two_homes, monkeypatch, ws="lighthouse", q=link["q"]), "pages/ask.py")
    assert any("not in workspace lighthouse" in _plain(w.value) for w in other.warning)


def test_a_link_to_a_community_that_is_gone_says_so(two_homes, monkeypatch):
    """A link from before the corpus changed names a community no longer there: the page says
    so instead of silently showing another one."""
    at = _open(_app(two_homes, monkeypatch, ws="harbour", c="99999"), "pages/communities.py")
    assert any("Community 99999 is not in this workspace" in i.value for i in at.info), [i.value for i in at.info]
    assert at.subheader  # and it shows a community all the same


def test_a_checked_text_is_there_again_after_another_workspace(two_homes, monkeypatch):
    """Check a text's result belongs to its workspace: another workspace does not show it, and
    coming back shows the text and its verdicts again (a newcomer found the box empty)."""
    store = Store(two_homes / "harbour")
    unit = store.rows("text_units", order_by="human_readable_id")[0]
    sentence = " ".join(unit["text"].split(". ")[0].split())
    text = f"{sentence} [Data: Sources ({unit['human_readable_id']})]."
    at = _open(_app(two_homes, monkeypatch, ws="harbour"), "pages/ask.py")
    at.text_area(key="check_text_in").set_value(text)
    next(b for b in at.button if b.label == "Check").click().run()
    assert not at.exception
    checked = re.findall(r'<li class="sm-check (\w+)">', _html(at))
    assert checked, "no verdict shown"
    at.sidebar.selectbox[0].set_value("lighthouse").run()
    assert not at.exception
    assert at.text_area(key="check_text_in").value in ("", None)
    assert not re.findall(r'<li class="sm-check (\w+)">', _html(at))
    at.sidebar.selectbox[0].set_value("harbour").run()
    assert at.text_area(key="check_text_in").value == text
    assert re.findall(r'<li class="sm-check (\w+)">', _html(at)) == checked


def test_coming_back_to_a_workspace_opens_its_last_question(two_homes, monkeypatch):
    at = _open(_app(two_homes, monkeypatch, ws="harbour"), "pages/ask.py")
    _ask(at, "Who is Maria Okafor?")
    assert any(_plain(m.value) == "#### Who is Maria Okafor?" for m in at.markdown)
    at.sidebar.selectbox[0].set_value("lighthouse").run()
    assert not any(_plain(m.value) == "#### Who is Maria Okafor?" for m in at.markdown)
    at.sidebar.selectbox[0].set_value("harbour").run()
    assert not at.exception
    assert any(_plain(m.value) == "#### Who is Maria Okafor?" for m in at.markdown)


def test_a_link_to_a_workspace_that_is_not_here_says_so_and_opens_none(two_homes, monkeypatch):
    """?ws=nope&c=99 used to open another workspace with no word of it."""
    at = _app(two_homes, monkeypatch, ws="nope", c="99")
    at.run()
    assert not at.exception
    said = " ".join(e.value for e in at.error)
    assert 'workspace \\"nope\\"' in said or 'workspace "nope"' in said, said
    assert at.sidebar.selectbox[0].value is None
    assert not at.subheader and not at.dataframe  # nothing of harbour or lighthouse is shown
    for page in ("pages/communities.py", "pages/ask.py"):
        at.switch_page("../" + page).run()
        assert any("nope" in e.value for e in at.error) and not at.subheader
    at.sidebar.selectbox[0].set_value("harbour").run()
    assert not at.error and at.session_state["workspace"] == "harbour"
    assert "c" not in _params(at)  # the link's community 99 belonged to the missing workspace


def test_opening_communities_adds_no_community_to_the_address_until_one_is_chosen(two_homes, monkeypatch):
    """Writing the first community into the address added a browser history entry: Back from
    Communities to Ask took two presses. The default view keeps the address as it is; a chosen
    community goes into it (so reload and links keep it)."""
    at = _open(_app(two_homes, monkeypatch, ws="harbour"), "pages/communities.py")
    assert at.subheader and "c" not in _params(at)
    at.selectbox[0].select_index(len(at.selectbox[0].options) - 1).run()
    assert "c" in _params(at)
