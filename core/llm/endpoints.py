"""The endpoint registry: per-endpoint state shared by every client built from the same
settings, for the life of the process.

- One Endpoint per endpoint settings (base URL, model, key, timeout, limits): the `openai`
  client, the adaptive concurrency limit (core/llm/concurrency.py: it starts from the setting or
  the server's slots) and the rate limits (core/llm/ratelimit.py).
- What a model at a URL is known to refuse (quirks: "max_completion_tokens", "no_temperature",
  "no_stream_options", "no_stream") and whether it accepts response_format json_object: learnt
  by core/llm/openai.py from the endpoint's answers, remembered per (url, model).
"""
from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass
from typing import Any

import openai

from core.llm.client import FatalLLMError
from core.llm.concurrency import AdaptiveLimit, server_slots
from core.llm.ratelimit import RateLimits
from core.settings import Settings

OPENAI_URL = "https://api.openai.com/v1"
NO_KEY = "sensemaker-no-key"  # local servers need no key, but the openai package wants one


@dataclass
class Endpoint:
    url: str
    client: Any  # openai.OpenAI or openai.AzureOpenAI
    limiter: AdaptiveLimit
    limits: RateLimits
    azure: bool


_ENDPOINTS: dict[tuple, Endpoint] = {}
_JSON_OBJECT: dict[tuple[str, str], bool] = {}  # (url, model) -> response_format accepted?
_QUIRKS: dict[tuple[str, str], frozenset[str]] = {}  # (url, model) -> parameters it refuses
_LOCK = threading.Lock()


def _key_id(api_key: str | None) -> str:
    return hashlib.sha256(api_key.encode("utf-8")).hexdigest()[:16] if api_key else ""


def endpoint(settings: Settings, base_url: str | None, model: str) -> Endpoint:
    """The shared client, semaphore and limits for these settings (created on first use)."""
    azure = bool(settings.azure_api_version)
    key = (base_url or "", model, settings.azure_api_version or "", _key_id(settings.api_key),
           float(settings.request_timeout), settings.concurrency, settings.requests_per_minute,
           settings.tokens_per_minute)
    with _LOCK:
        ep = _ENDPOINTS.get(key)
        if ep is not None:
            return ep
        url = (base_url or OPENAI_URL).rstrip("/")
        api_key = settings.api_key
        if not api_key:
            if base_url is None or azure:
                raise FatalLLMError(f"no API key is set for {url}: set OPENAI_API_KEY")
            api_key = NO_KEY
        client: openai.OpenAI
        if azure:
            if not base_url:
                raise FatalLLMError("Azure OpenAI needs its endpoint URL as the base URL")
            client = openai.AzureOpenAI(azure_endpoint=base_url, api_version=settings.azure_api_version,
                                        api_key=api_key, timeout=settings.request_timeout,
                                        max_retries=0)
        else:
            client = openai.OpenAI(base_url=url, api_key=api_key, timeout=settings.request_timeout,
                                   max_retries=0)
        probe = None
        if base_url and not azure:  # OpenAI and Azure never say; local servers may
            probe = lambda: server_slots(url, settings.api_key, min(10.0, float(settings.request_timeout)))
        ep = Endpoint(url, client, AdaptiveLimit(settings.concurrency, url, probe),
                      RateLimits(settings.requests_per_minute, settings.tokens_per_minute, _team_limits(url, settings)),
                      azure)
        _ENDPOINTS[key] = ep
        return ep


def _team_limits(url: str, settings: Settings):
    """Team mode (SENSEMAKER_DATABASE_URL names PostgreSQL): the endpoint's concurrency and rate
    limits held by every process of the team together, in that database."""
    from core.store.backends import database_url
    team = database_url()
    if not team:
        return None
    from core.store.shared_limits import SharedLimits
    return SharedLimits(team, url, settings.concurrency, settings.requests_per_minute, settings.tokens_per_minute)


def quirks(key: tuple[str, str]) -> frozenset[str]:
    """The parameters the model at this (url, model) is known to refuse."""
    return _QUIRKS.get(key, frozenset())


def add_quirk(key: tuple[str, str], quirk: str) -> None:
    with _LOCK:
        _QUIRKS[key] = frozenset(_QUIRKS.get(key, frozenset()) | {quirk})


def json_object_accepted(key: tuple[str, str]) -> bool | None:
    """Whether the model at this (url, model) accepts response_format json_object (None: not
    sent to it yet)."""
    return _JSON_OBJECT.get(key)


def remember_json_object(key: tuple[str, str], accepted: bool) -> None:
    _JSON_OBJECT[key] = accepted
