"""`sensemaker remove` and `sensemaker index --replace` (offline engine), with the change summary
they print (issue 22)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from core.cli.main import main
from core.store.db import Store

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted(p for p in (ROOT / "sample_corpus").glob("*.txt"))[:4]


def _ws(tmp_path) -> tuple[Path, Path]:
    src = tmp_path / "docs"
    src.mkdir()
    for p in DOCS:
        shutil.copy(p, src / p.name)
    ws = tmp_path / "ws"
    assert main(["index", str(src), "--workspace", str(ws), "--engine", "offline", "--quiet"]) == 0
    return src, ws


def test_remove_says_what_goes_then_removes_and_prints_the_changes(tmp_path, capsys):
    src, ws = _ws(tmp_path)
    capsys.readouterr()
    name = DOCS[1].name
    assert main(["remove", name, "--workspace", str(ws), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("would remove 1 documents:") and "entities they mention stay" in out
    assert Store(ws).count("documents") == 4
    assert main(["remove", name, "--workspace", str(ws), "--json", "--quiet"]) == 0
    summary = json.loads(capsys.readouterr().out)
    ch = summary["changes"]
    assert summary["operation"] == "remove" and ch["documents"] == {"added": 0, "removed": 1}
    assert ch["text_units"]["removed"] >= 1 and ch["llm_calls"]["extraction"] == 0
    assert main(["check", "--workspace", str(ws)]) == 0
    assert main(["remove", "no such memo", "--workspace", str(ws)]) == 2
    assert "no document named 'no such memo'" in capsys.readouterr().err


def test_index_replace_replaces_a_document_of_the_same_title(tmp_path, capsys):
    src, ws = _ws(tmp_path)
    target = src / DOCS[0].name
    text = target.read_text(encoding="utf-8")
    target.write_text(text.replace(" the ", " the amended ", 1), encoding="utf-8")
    capsys.readouterr()
    # without --replace the new version is skipped, and said so
    assert main(["index", str(target), "--workspace", str(ws), "--engine", "offline", "--quiet"]) == 0
    assert "add --replace to replace it" in capsys.readouterr().err
    assert Store(ws).count("documents") == 4
    assert main(["index", str(target), "--workspace", str(ws), "--engine", "offline", "--quiet", "--replace"]) == 0
    cap = capsys.readouterr()
    assert f"replaced {DOCS[0].name}: paragraphs changed: 1 edited;" in cap.err and "changes: replace" in cap.out
    store = Store(ws)
    assert store.count("documents") == 4
    doc = store.rows("documents", "title = ?", [DOCS[0].name])[0]
    assert "the amended" in doc["text"]
    assert any("the amended" in u["text"] for u in store.rows("text_units", "document_id = ?", [doc["id"]]))
    assert main(["check", "--workspace", str(ws)]) == 0
