"""Opening a Microsoft GraphRAG index from the app (issue 6), and the app command's --no-sample.

AppTest runs the real app on graphrag's own index of A Christmas Carol: a folder on the server
or its uploaded parquet files become a new workspace; the corpus page says what came in and
offers no indexing; the communities and ask pages work on it."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.store.db import Store
from core.store.workspace import create_workspace

APP = str(Path(__file__).resolve().parent / "app_entry.py")  # AppTest: see tests/app_entry.py
CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"
REFERENCE = CORPORA / "christmas_carol_graphrag_reference" / "parquet"
needs_reference = pytest.mark.skipif(not REFERENCE.is_dir(),
                                     reason=f"graphrag reference index absent: {REFERENCE}")


def _app(home: Path, monkeypatch) -> AppTest:
    monkeypatch.setenv("SENSEMAKER_HOME", str(home))
    monkeypatch.setenv("SENSEMAKER_NO_SAMPLE", "1")
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "SENSEMAKER_ENGINE"):
        monkeypatch.delenv(var, raising=False)
    return AppTest.from_file(APP, default_timeout=60)


def _plain(markdown: str) -> str:
    return re.sub(r"\\(.)", r"\1", markdown)


def _import(at: AppTest, name: str, folder: str = "", files=None) -> AppTest:
    next(t for t in at.sidebar.text_input if t.label == "New workspace").input(name)
    next(t for t in at.sidebar.text_input if t.label.startswith("GraphRAG output folder")).input(folder)
    if files is not None:
        at.get("file_uploader")[-1].set_value(files)
    next(b for b in at.sidebar.button if b.label == "Import").click().run()
    assert not at.exception, at.exception
    return at


def _start(home: Path, monkeypatch, page: str = "pages/ask.py") -> AppTest:
    create_workspace("first", home)
    at = _app(home, monkeypatch)
    at.run()
    at.switch_page("../" + page).run()
    assert not at.exception and not at.error
    return at


@needs_reference
def test_import_a_server_folder_then_browse_and_ask(tmp_path, monkeypatch):
    at = _import(_start(tmp_path, monkeypatch), "carol graphrag", folder=str(REFERENCE))
    assert not at.error, [e.value for e in at.error]
    # switched to the new workspace, on the corpus page, which says what came in
    assert at.sidebar.selectbox[0].value == "carol-graphrag"
    assert at.title[0].value == "Corpus"
    assert next(m.value for m in at.metric if m.label == "Communities") == "122"
    assert next(m.value for m in at.metric if m.label == "Reports") == "122"
    assert any("Imported 1 document, 42 text units, 529 entities" in _plain(s.value) for s in at.success)
    assert any("endpoint names are not entity titles" in _plain(w.value) for w in at.warning)
    assert any("Indexing is off here" in i.value for i in at.info)
    assert not any(b.label.startswith("Index") for b in at.button), "an imported index offers indexing"
    assert set(at.dataframe[0].value["status"]) == {"imported from GraphRAG"}
    assert at.session_state["import_pop"] is False  # the popover closed after Import

    # communities: the imported hierarchy with its reports and graph
    at.switch_page("../pages/communities.py").run()
    assert not at.exception and not at.error
    at.session_state["overview_open"] = True  # the hierarchy overview, opened
    assert at.run().subheader and at.get("plotly_chart")
    assert any("vis.Network" in f.proto.srcdoc for f in at.get("iframe"))

    # ask, global, offline: map rows with scores, chips, and a citation that resolves
    at.switch_page("../pages/ask.py").run()
    at.text_area(key="ask_question").input("What are the main themes of the story?")
    next(b for b in at.button if b.label == "Ask").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    batches = next(d.value for d in at.dataframe if "best score" in d.value.columns)
    assert len(batches) >= 1 and batches["best score"].max() > 0
    body = "\n".join(h.proto.body for h in at.get("html"))
    assert '<details class="sm-ev' in body and "<mark>" in body  # the chips' evidence, in the page
    from core.store.db import Store
    from tests.evidence_marks import assert_panel_marks
    store = Store(tmp_path / "carol-graphrag")
    assert assert_panel_marks(store, body) >= 1  # each highlight exactly a sentence of its unit
    chips = [b for b in at.selectbox if str(b.key).startswith("ans_")]  # the evidence viewer
    labels = [o for c in chips for o in c.options]
    assert labels and not any("missing" in l for l in labels)
    report_chip = next(c for c in chips if any(o.startswith("Report ") for o in c.options))
    report_chip.set_value(next(o for o in report_chip.options if o.startswith("Report "))).run()
    body = "\n".join(h.proto.body for h in at.get("html"))
    assert "<mark>" in body  # graphrag's text unit, the supporting sentence highlighted
    assert assert_panel_marks(store, body) >= 1


@needs_reference
def test_upload_parquet_files_and_local_question(tmp_path, monkeypatch):
    files = [(p.name, p.read_bytes(), "application/octet-stream") for p in sorted(REFERENCE.glob("*.parquet"))]
    at = _import(_start(tmp_path, monkeypatch, "pages/communities.py"), "uploaded", files=files)
    assert not at.error, [e.value for e in at.error]
    assert at.title[0].value == "Corpus" and at.sidebar.selectbox[0].value == "uploaded"
    assert any("the uploaded files" in _plain(i.value) and "entities.parquet" in _plain(i.value)
               for i in at.info)
    store = Store(tmp_path / "uploaded")
    assert store.count("entities") == 529 and store.count("claims") == 406
    at.switch_page("../pages/ask.py").run()
    at.get("button_group")[0].set_value("local").run()
    at.text_area(key="ask_question").input("Who is Bob Cratchit?")
    next(b for b in at.button if b.label == "Ask").click().run()
    assert not at.exception and not at.error
    assert [b for b in at.selectbox if str(b.key).startswith("ans_")]


def test_import_refuses_a_bad_source_and_creates_nothing(tmp_path, monkeypatch):
    at = _start(tmp_path, monkeypatch)
    _import(at, "nothing", folder=str(tmp_path / "no-such-folder"))
    assert any("is not a directory" in _plain(e.value) for e in at.sidebar.error)
    not_index = tmp_path / "not-an-index"
    not_index.mkdir()
    (not_index / "entities.parquet").write_bytes(b"PAR1")
    _import(at, "nothing", folder=str(not_index))
    assert any("is not a GraphRAG index: missing relationships" in _plain(e.value) for e in at.sidebar.error)
    _import(at, "nothing", files=[("entities.parquet", b"PAR1", "application/octet-stream")])
    assert any("are not a whole GraphRAG index: add relationships.parquet" in _plain(e.value)
               for e in at.sidebar.error)
    _import(at, "nothing", folder="", files=[])
    assert any("Give either the folder" in _plain(e.value) for e in at.sidebar.error)
    broken = tmp_path / "broken"
    broken.mkdir()
    for stem in ("entities", "relationships", "communities", "community_reports", "text_units"):
        (broken / f"{stem}.parquet").write_bytes(b"not parquet at all")
    _import(at, "nothing", folder=str(broken))
    assert any(_plain(e.value).startswith("The GraphRAG index could not be read: ") and
               "Nothing was imported" in _plain(e.value) for e in at.sidebar.error)
    _import(at, "first", folder=str(not_index))
    assert any("exists already" in _plain(e.value) for e in at.sidebar.error)
    assert not (tmp_path / "nothing").exists() and at.sidebar.selectbox[0].value == "first"


def test_uploaded_names_cannot_leave_the_folder(tmp_path):
    from core.errors import UserError
    from pages.components.import_panel import save_uploads
    assert save_uploads([("../../entities.parquet", b"x"), ("C:\\x\\text_units.parquet", b"y")],
                        tmp_path) == ["entities.parquet", "text_units.parquet"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["entities.parquet", "text_units.parquet"]
    with pytest.raises(UserError, match="'notes.txt' is not a GraphRAG table"):
        save_uploads([("notes.txt", b"hello")], tmp_path)


def test_index_is_refused_on_an_imported_workspace_by_name(tmp_path):
    """The pipeline itself refuses, whatever the app shows (the CLI path)."""
    from core.errors import UserError
    from core.index.pipeline import run_index
    from core.settings import Settings
    store = Store(create_workspace("imp", tmp_path))
    store.set_meta("imported_from", "/somewhere/output")
    with pytest.raises(UserError, match="imported Microsoft GraphRAG index"):
        run_index(store, Settings(engine="offline"))


def test_new_workspace_popover_closes_after_create(tmp_path, monkeypatch):
    at = _start(tmp_path, monkeypatch, "pages/corpus.py")
    at.session_state["new_ws_pop"] = True
    at.sidebar.text_input[0].input("second")
    at.sidebar.button[0].click().run()
    assert not at.exception
    assert at.sidebar.selectbox[0].value == "second"
    assert at.session_state["new_ws_pop"] is False


def test_app_command_no_sample_reaches_the_app(tmp_path, monkeypatch):
    import core.cli.index as cli_index
    from core.cli.main import main
    calls = []
    monkeypatch.setenv("SENSEMAKER_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("SENSEMAKER_NO_SAMPLE", raising=False)
    # _serve runs Streamlit in this process's place (exec): stand in for it
    monkeypatch.setattr(cli_index, "_serve", lambda cmd, **kw: calls.append((cmd, kw)) or 0)
    assert main(["app", "--no-sample", "--port", "8765"]) == 0
    (cmd, kw), = calls
    assert cmd[cmd.index("--server.port") + 1] == "8765"
    app = Path(cmd[cmd.index("run") + 1])
    assert app.name == "app.py" and app.is_file() and kw["cwd"] == app.parent  # the real app
    assert kw["env"]["SENSEMAKER_NO_SAMPLE"] == "1"
    assert kw["env"]["SENSEMAKER_HOME"] == str((tmp_path / "home").resolve())
    assert not (tmp_path / "home" / "sample").exists()
