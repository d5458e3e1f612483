"""The corpus page shows what grounding rejected and which names were merged, and undoes a merge."""
from __future__ import annotations

import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.index.background import current_run
from core.store.db import Store

from conftest import build_workspace

APP = str(Path(__file__).resolve().parent / "app_entry.py")  # AppTest: see tests/app_entry.py
SAMPLE = Path(__file__).resolve().parents[1] / "sample_corpus"


def _corpus(home: Path, monkeypatch, ws: str) -> AppTest:
    monkeypatch.setenv("SENSEMAKER_HOME", str(home))
    monkeypatch.setenv("SENSEMAKER_NO_SAMPLE", "1")
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "SENSEMAKER_ENGINE"):
        monkeypatch.delenv(var, raising=False)
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["ws"] = ws
    at.run()
    at.switch_page("../pages/corpus.py").run()
    assert not at.exception, at.exception
    return at


def test_merges_are_listed_and_one_can_be_undone(tmp_path, monkeypatch):
    files = [(p.name, p.read_bytes()) for p in sorted(SAMPLE.glob("2024-0[34]*"))][:8]
    path = build_workspace(tmp_path, "q", files)
    store = Store(path)
    merged = store.rows("entity_merges", "merged = 'DELGADO'")
    assert merged, "the sample corpus names Rosa Delgado, then Delgado"
    at = _corpus(tmp_path, monkeypatch, "q")
    exp = next(e for e in at.expander if "Extraction quality" in e.label)
    assert "merges" in exp.label
    frames = [df.value for df in at.dataframe if "merged" in df.value.columns]
    assert frames and "DELGADO" in set(frames[0]["merged"])
    pick = at.selectbox(key="undo_merge_pick")
    pick.select(merged[0]["id"]).run()
    at.button(key="undo_merge").click().run()
    assert not at.exception, at.exception
    assert store.rows("entity_merges", "merged = 'DELGADO'")[0]["status"] == "undone"
    deadline = time.time() + 60
    while current_run(store) is not None and time.time() < deadline:
        time.sleep(0.3)
    assert store.count("entities", "title = 'DELGADO'") == 1  # the graph was rebuilt without the merge
