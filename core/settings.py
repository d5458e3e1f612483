"""Settings: one frozen dataclass, loaded from a workspace's settings.json and the environment.

Environment overrides the file. The API key is only ever read from the environment (or passed
in for a session) and is never written back to the workspace.
"""
from __future__ import annotations

import dataclasses
import json
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from core.errors import UserError

SETTINGS_FILE = "settings.json"

# Prices in US dollars per million tokens; a user can override them in settings.json.
DEFAULT_PRICES: dict[str, tuple[float, float]] = {
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4o": (2.50, 10.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1": (2.00, 8.00),
    "text-embedding-3-small": (0.02, 0.0),
    "text-embedding-3-large": (0.13, 0.0),
}


@dataclass(frozen=True)
class Settings:
    # engine: "offline" (no model) or "llm" (an OpenAI-compatible endpoint); "auto" picks llm
    # when a base URL or an API key is present.
    engine: str = "auto"
    llm_base_url: str | None = None
    chat_model: str = "gpt-4o-mini"
    embedding_model: str | None = None
    embedding_base_url: str | None = None
    api_key: str | None = field(default=None, repr=False, compare=False)  # never saved
    azure_api_version: str | None = None
    concurrency: int = 8
    requests_per_minute: int | None = None
    tokens_per_minute: int | None = None
    request_timeout: float = 120.0  # seconds of silence; a steady stream may take 5x (core/llm/stream.py)
    max_retries: int = 8
    # the model's context window in tokens; None: read from the server where it says, else a
    # known hosted model's window, else 8192 (core/llm/context_window.py)
    context_window: int | None = None
    # stream chat answers, so a model that falls into a loop is noticed and cut (core/llm/runaway.py)
    stream: bool = True
    # indexing
    encoding: str = "cl100k_base"
    chunk_size: int = 600
    chunk_overlap: int = 100
    entity_types: tuple[str, ...] = ("organization", "person", "geo", "event")
    max_gleanings: int = 1
    extract_claims: bool = True
    max_cluster_size: int = 10
    seed: int = 0xDEADBEEF
    use_lcc: bool = False
    report_max_tokens: int = 8000
    summary_max_tokens: int = 500
    max_file_mb: float = 50.0
    near_duplicate_threshold: float = 0.9  # share of shared passages; above 1 turns the check off
    language: str = "auto"  # answer/report language: "auto" follows the question/source
    # global search: reports in one map call at most (0: as many as the map budget holds; None,
    # "auto": 1 for a model with a context window of 8,192 tokens or less, else 0)
    map_max_reports: int | None = None
    # who judges cited sentences: "offline" (no model) or "model" (an entailment call each,
    # falling back to the offline verdict where its quote is not in the source; core/verify)
    judge: str = "offline"
    # the offline judge's rules: {"off": [rule ids], "alarm_alone": {rule id: bool}, "thresholds":
    # {name: value}} over core/verify/rules.json (core.verify.rules.Policy)
    verify: dict = field(default_factory=dict)
    # team mode: every member sees every question asked in the workspace (else each sees their
    # own; owners see all), set by an owner (core.query.traces)
    share_questions: bool = False
    prices: dict[str, tuple[float, float]] = field(default_factory=lambda: dict(DEFAULT_PRICES))

    @property
    def resolved_engine(self) -> str:
        if self.engine in ("offline", "llm"):
            return self.engine
        return "llm" if (self.llm_base_url or self.api_key) else "offline"

    def query_engine(self, chosen: str | None = None) -> str:
        """The engine a question is asked with: the one chosen (`query --engine`, the sidebar),
        else the model whenever an endpoint or key is configured (a workspace indexed offline is
        asked with the model too: lazy, basic, DRIFT and global read offline indexes), else the
        engine the workspace was indexed with."""
        if chosen in ("offline", "llm"):
            return chosen
        return "llm" if (self.llm_base_url or self.api_key) else self.resolved_engine

    def with_changes(self, **changes: Any) -> "Settings":
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """The settings as saved to a workspace: never the API key."""
        d = dataclasses.asdict(self)
        d.pop("api_key", None)
        d["entity_types"] = list(self.entity_types)
        d["prices"] = {k: list(v) for k, v in self.prices.items()}
        return d

    def price(self, model: str) -> tuple[float, float]:
        return tuple(self.prices.get(model, (0.0, 0.0)))  # type: ignore[return-value]


_FIELDS = {f.name: f for f in dataclasses.fields(Settings)}

_ENV = {
    "OPENAI_API_KEY": "api_key",
    "OPENAI_BASE_URL": "llm_base_url",
    "SENSEMAKER_ENGINE": "engine",
    "SENSEMAKER_CHAT_MODEL": "chat_model",
    "SENSEMAKER_EMBEDDING_MODEL": "embedding_model",
    "SENSEMAKER_EMBEDDING_BASE_URL": "embedding_base_url",
    "SENSEMAKER_CONCURRENCY": "concurrency",
    "SENSEMAKER_TIMEOUT": "request_timeout",
    "SENSEMAKER_CONTEXT_WINDOW": "context_window",
    "SENSEMAKER_STREAM": "stream",
    "SENSEMAKER_MAP_REPORTS": "map_max_reports",
    "SENSEMAKER_JUDGE": "judge",
    "OPENAI_API_VERSION": "azure_api_version",
}


class SettingsError(UserError, ValueError):
    """A settings file or environment value that cannot be used."""


def _coerce(name: str, value: Any) -> Any:
    f = _FIELDS[name]
    default = f.default if f.default is not dataclasses.MISSING else None
    if value is None:
        return None
    try:
        if name == "entity_types":
            if isinstance(value, str):
                value = [v.strip() for v in value.split(",") if v.strip()]
            return tuple(str(v) for v in value)
        if name == "verify":
            value = json.loads(value) if isinstance(value, str) else value
            if not isinstance(value, dict):
                raise TypeError("a JSON object with off, alarm_alone and thresholds")
            return dict(value)
        if name == "prices":
            return {str(k): (float(v[0]), float(v[1])) for k, v in dict(value).items()}
        if isinstance(default, bool):
            if isinstance(value, str):
                return value.strip().lower() in ("1", "true", "yes", "on")
            return bool(value)
        if isinstance(default, int) and not isinstance(default, bool):
            return int(value)
        if isinstance(default, float):
            return float(value)
        if name == "map_max_reports" and str(value).strip().lower() in ("", "auto"):
            return None
        if name in ("requests_per_minute", "tokens_per_minute", "context_window", "map_max_reports"):
            return int(value) if value != "" else None
        return str(value) if value != "" else None
    except (TypeError, ValueError) as exc:
        raise SettingsError(f"setting {name!r} has an unusable value {value!r}: {exc}") from exc


def from_mapping(data: Mapping[str, Any], base: Settings | None = None) -> Settings:
    base = base or Settings()
    unknown = sorted(set(data) - set(_FIELDS))
    if unknown:
        raise SettingsError(f"unknown settings: {', '.join(unknown)}")
    changes = {k: _coerce(k, v) for k, v in data.items() if k != "api_key"}
    s = dataclasses.replace(base, **changes)
    _validate(s)
    return s


def _validate(s: Settings) -> None:
    if s.engine not in ("auto", "offline", "llm"):
        raise SettingsError(f"engine must be auto, offline or llm, not {s.engine!r}")
    if s.chunk_size < 20:
        raise SettingsError("chunk_size must be at least 20 tokens")
    if not 0 <= s.chunk_overlap < s.chunk_size:
        raise SettingsError("chunk_overlap must be at least 0 and smaller than chunk_size")
    if s.concurrency < 1:
        raise SettingsError("concurrency must be at least 1")
    if s.context_window is not None and s.context_window < 512:
        raise SettingsError("context_window must be at least 512 tokens")
    if s.max_cluster_size < 2:
        raise SettingsError("max_cluster_size must be at least 2")
    unknown = sorted(set(s.verify) - {"off", "alarm_alone", "thresholds"})
    if unknown:  # (the rule ids are core.verify's to check: core.verify.judges.policy_for)
        raise SettingsError(f"setting 'verify' takes off, alarm_alone and thresholds, not {', '.join(unknown)}")


def load_settings(workspace: str | Path | None = None, env: Mapping[str, str] | None = None,
                  **overrides: Any) -> Settings:
    """Settings for a workspace: defaults < settings.json < environment < explicit overrides."""
    env = os.environ if env is None else env
    data: dict[str, Any] = {}
    if workspace is not None:
        path = Path(workspace) / SETTINGS_FILE
        if path.exists():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except json.JSONDecodeError as exc:
                raise SettingsError(f"{path} is not valid JSON: {exc}") from exc
            data.pop("api_key", None)
    s = from_mapping(data)
    env_changes = {field_name: env[name] for name, field_name in _ENV.items() if env.get(name)}
    key = env_changes.pop("api_key", None)
    s = from_mapping(env_changes, s)
    if key:
        s = dataclasses.replace(s, api_key=key)
    if overrides:
        key = overrides.pop("api_key", None)
        s = from_mapping({k: v for k, v in overrides.items() if v is not None}, s)
        if key:
            s = dataclasses.replace(s, api_key=key)
    return s


def save_settings(workspace: str | Path, settings: Settings) -> Path:
    """Write the settings whole or not at all: a session reading them meanwhile (another analyst's
    page, a run starting) sees the old file or the new one, never half of one."""
    path = Path(workspace) / SETTINGS_FILE
    tmp = path.with_name(f".{SETTINGS_FILE}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_text(json.dumps(settings.to_dict(), indent=2), encoding="utf-8")
    os.replace(tmp, path)
    return path
