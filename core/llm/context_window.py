"""The model's context window, read from the server where it says.

Servers that say:
- llama.cpp's `llama-server`: GET /props -> default_generation_settings.n_ctx (the window it was
  started with, which is what binds; /v1/models only gives the training length);
- vLLM: GET /v1/models -> data[].max_model_len;
- OpenRouter, LM Studio and others: data[].context_length / max_context_length / context_window;
- Ollama: POST /api/show -> parameters "num_ctx N" (only when the model sets it: otherwise Ollama
  runs a small default window that it does not report, and the setting is used).
OpenAI, Azure and llama-cpp-python's server say nothing; then `Settings.context_window` is used.
Every probe is one short GET/POST that may fail: a failure only means "not said here".
"""
from __future__ import annotations

import re
import threading
from typing import Any, Callable
from urllib.parse import urlsplit, urlunsplit

import httpx

_MODEL_KEYS = ("max_model_len", "context_length", "max_context_length", "context_window", "n_ctx")


def _root(base_url: str) -> str:
    """http://host:port/v1 -> http://host:port (where /props and /api/show live)."""
    parts = urlsplit(base_url.rstrip("/"))
    path = re.sub(r"/v1$", "", parts.path)
    return urlunsplit((parts.scheme, parts.netloc, path, "", "")).rstrip("/")


def _positive_int(value: Any) -> int | None:
    try:
        n = int(value)
    except (TypeError, ValueError):
        return None
    return n if 256 <= n <= 10_000_000 else None


def _from_models(body: Any, model: str) -> int | None:
    data = body.get("data") if isinstance(body, dict) else None
    if not isinstance(data, list):
        return None
    entries = [m for m in data if isinstance(m, dict)]
    mine = [m for m in entries if m.get("id") == model] or (entries if len(entries) == 1 else [])
    for entry in mine:
        for key in _MODEL_KEYS:
            n = _positive_int(entry.get(key))
            if n:
                return n
        meta = entry.get("meta")
        if isinstance(meta, dict) and _positive_int(meta.get("n_ctx")):
            return _positive_int(meta.get("n_ctx"))
    return None


def _from_props(body: Any) -> int | None:
    if not isinstance(body, dict):
        return None
    settings = body.get("default_generation_settings")
    if isinstance(settings, dict) and _positive_int(settings.get("n_ctx")):
        return _positive_int(settings.get("n_ctx"))
    return _positive_int(body.get("n_ctx"))


def _from_ollama(body: Any) -> int | None:
    params = body.get("parameters") if isinstance(body, dict) else None
    m = re.search(r"(?m)^\s*num_ctx\s+(\d+)", params) if isinstance(params, str) else None
    return _positive_int(m.group(1)) if m else None


def server_context_window(base_url: str, model: str, api_key: str | None = None,
                          timeout: float = 5.0) -> tuple[int | None, str]:
    """(the context window the server reports for `model`, where it said so), or (None, "")."""
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    root = _root(base_url)
    probes = [("GET", f"{root}/props", None, _from_props),
              ("GET", f"{base_url.rstrip('/')}/models", None, lambda b: _from_models(b, model)),
              ("POST", f"{root}/api/show", {"model": model}, _from_ollama)]
    with httpx.Client(timeout=timeout, headers=headers, follow_redirects=False) as client:
        for method, url, body, read in probes:
            try:
                r = client.request(method, url, json=body)
                if r.status_code != 200:
                    continue
                n = read(r.json())
            except (httpx.HTTPError, ValueError):
                continue
            if n:
                return n, url.removeprefix(root) or url
    return None, ""


KNOWN_WINDOWS = (  # hosted models that do not say: (name prefix, window); longest prefix wins
    ("gpt-3.5-turbo", 16_385), ("gpt-4-turbo", 128_000), ("gpt-4o", 128_000), ("gpt-4.1", 1_047_576),
    ("gpt-4.5", 128_000), ("gpt-5", 400_000), ("o1", 200_000), ("o3", 200_000), ("o4", 200_000),
    ("gpt-4-32k", 32_768), ("gpt-4", 8_192),
)
DEFAULT_WINDOW = 8_192
"""What is assumed when neither the server, the setting nor the model's name tells: the window of
a small local model started with common defaults, so nothing sent can overflow it."""


def known_window(model: str) -> int | None:
    name = (model or "").lower().rsplit("/", 1)[-1]
    fits = [(len(p), n) for p, n in KNOWN_WINDOWS if name.startswith(p)]
    return max(fits)[1] if fits else None


def resolve_window(setting: int | None, model: str, probe) -> tuple[int, str]:
    """(window, where it came from): the server's report, else the setting, else a known hosted
    model's window, else DEFAULT_WINDOW. `probe()` -> server_context_window's answer."""
    n, where = probe()
    if n:
        return n, f"reported by the server ({where})"
    if setting:
        return setting, "the context_window setting"
    if known_window(model):
        return known_window(model), f"known window of {model}"
    return DEFAULT_WINDOW, "the default (the server does not say; set SENSEMAKER_CONTEXT_WINDOW)"


_found: dict[tuple[str, str], tuple[int | None, str]] = {}
_found_lock = threading.Lock()


def probe_once(base_url: str, model: str, api_key: str | None, timeout: float) -> tuple[int | None, str]:
    """server_context_window, asked once per endpoint and model in this process."""
    key = (base_url.rstrip("/"), model)
    with _found_lock:
        if key in _found:
            return _found[key]
    found = server_context_window(base_url, model, api_key, timeout)
    with _found_lock:
        _found[key] = found
    return found


def window_resolver(setting: int | None, model: str,
                    probe: Callable[[], tuple[int | None, str]]) -> Callable[[], tuple[int, str]]:
    return lambda: resolve_window(setting, model, probe)


MARGIN = 128
"""Tokens kept free for the chat template's role markers and a tokenizer that counts differently."""
MIN_BUDGET = 100
MIN_CAP = 200


def fit_to_window(window: int, wanted: int, fixed_tokens: int, cap: int) -> tuple[int, int]:
    """(budget, output cap) so that fixed_tokens + budget + cap fit the window: the budget is at
    most `wanted`; the cap shrinks too when it would take more than half of what the fixed part
    leaves (a 2,048-token window cannot hold a 2,000-token answer and any context)."""
    free = window - fixed_tokens - MARGIN
    cap = min(cap, max(MIN_CAP, free // 2))
    return max(MIN_BUDGET, min(wanted, free - cap)), cap
