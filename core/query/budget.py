"""Fitting a query's context budget into the model's context window.

The defaults (an 8,000-token map table, a 12,000-token reduce or local context) suit hosted
models; a small local model served with an 8,192-token window would be sent prompts it cannot
take. The budget shrinks so that prompt + output cap + a margin fit the window the LLM reports
(`LLM.context_window`: read from the server where it says, else the setting); the trace records
both the asked and the fitted budget.
"""
from __future__ import annotations

from typing import Any

from core.llm.context_window import fit_to_window
from core.query.types import SMALL_WINDOW
from core.tokens import count_tokens


def context_window(llm: Any) -> int | None:
    window = getattr(llm, "context_window", None) if llm is not None else None
    return window if isinstance(window, int) and window > 0 else None


def small_window(llm: Any) -> bool:
    """Is the model's context window known and small (a small, usually local, model's)?"""
    window = context_window(llm)
    return window is not None and window <= SMALL_WINDOW


def fit_budget(llm: Any, wanted: int, fixed_text: str, answer_cap: int) -> tuple[int, int]:
    """(budget, output cap) fitted beside fixed_text in the LLM's window (core.llm.context_window.fit_to_window);
    as asked when the window is not known."""
    window = context_window(llm)
    if window is None:
        return wanted, answer_cap
    return fit_to_window(window, wanted, count_tokens(fixed_text), answer_cap)
