"""Where comparison runs are kept (<workspace>/comparisons/<time>-<question>/), and the judge's
model: the answering endpoint's, or another model or endpoint, sharing the workspace's cache."""
from __future__ import annotations

import re
import time
from pathlib import Path

from core.errors import UserError

RUNS = "comparisons"


def new_run_dir(workspace: str | Path, question: str) -> Path:
    slug = re.sub(r"[^a-z0-9]+", "-", question.lower()).strip("-")[:40] or "run"
    base = Path(workspace) / RUNS / f"{time.strftime('%Y%m%d-%H%M%S')}-{slug}"
    path, n = base, 1
    while path.exists():
        n += 1
        path = base.with_name(f"{base.name}-{n}")
    return path


def list_runs(workspace: str | Path) -> list[Path]:
    """Saved runs, newest first."""
    root = Path(workspace) / RUNS
    if not root.is_dir():
        return []
    return sorted((p for p in root.iterdir() if (p / "summary.json").is_file()), key=lambda p: p.name, reverse=True)


def judge_llm(settings, store, kind: str | None = None, model: str | None = None,
              base_url: str | None = None, api_key: str | None = None):
    """The judge's LLM, or None for the offline judge. kind None: a model when the answering
    engine uses one (or a judge model or endpoint is given), else offline."""
    wants = kind == "llm" or (kind is None and (settings.resolved_engine == "llm" or model or base_url))
    if kind == "offline" or not wants:
        return None
    changes = {"engine": "llm"}
    if model:
        changes["chat_model"] = model
    if base_url:
        changes["llm_base_url"] = base_url
    if api_key:
        changes["api_key"] = api_key
    s = settings.with_changes(**changes)
    if not (s.llm_base_url or s.api_key):
        raise UserError("a model judge needs an endpoint: give its base URL (or set OPENAI_BASE_URL or "
                        "OPENAI_API_KEY), or use the offline judge")
    from core.llm.openai import make_llm
    return make_llm(s, store)
