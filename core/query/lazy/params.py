"""The knobs of a lazy query."""
from __future__ import annotations

from dataclasses import dataclass

PRESETS = {100: "cheap: about the cost of 8k-context vector RAG",
           500: "the published setting that beat every compared method",
           1500: "more tests, more claims"}
"""Relevance-test budgets offered in the UI and the CLI (any number may be given)."""


@dataclass
class LazyParams:
    budget: int = 500
    """Relevance tests at most, over all subqueries (split evenly among them)."""
    subqueries: int = 3
    """Subqueries at most (the model writes 3-5; it is asked for between 3 and this, or this)."""
    z: int = 3
    """Descend into sub-communities after this many communities in a row gave nothing relevant;
    also the communities tested together in one round of a subquery."""
    chunks_per_community: int = 2
    """Units of a community tested per round (its best untested ones)."""
    passage_tokens: int = 40
    """What one test reads: the unit's passage that best matches the subquery."""
    map_max_tokens: int | None = None
    """Source text read by the claims (map) calls in all, in tokens; None: by the budget
    (2,000 up to 100 tests, 6,000 up to 500, else 12,000: the cheap preset stays in the cost
    class of 8k-context vector RAG, as LazyGraphRAG's budget 100 did)."""
    map_unit_tokens: int = 300
    """What the claims call reads of one relevant unit: its passage that best matches the
    subquery (the whole unit when it is shorter)."""
    map_call_tokens: int = 3000
    """Source text of one claims call at most."""
    claim_answer_tokens: int = 500
    """Output cap of one claims call."""
    reduce_max_tokens: int | None = None
    """Claims handed to the answer, in tokens; None: by the budget (1,500 / 4,000 / 8,000)."""
    answer_tokens: int = 1500
    concurrency: int = 8
    """Model calls in flight at once (tests of all subqueries share them)."""
    relevance_model: str | None = None
    """A cheaper model for the relevance tests (its name on the same endpoint); None: the main one."""
    response_type: str = "multiple paragraphs"
    language: str = "auto"

    def map_budget(self) -> int:
        if self.map_max_tokens:
            return int(self.map_max_tokens)
        return 2000 if self.budget <= 100 else 6000 if self.budget <= 500 else 12000

    def reduce_budget(self) -> int:
        if self.reduce_max_tokens:
            return int(self.reduce_max_tokens)
        return 1500 if self.budget <= 100 else 4000 if self.budget <= 500 else 8000


def budget_value(text: str | int) -> int:
    """A budget from the CLI or a setting: a number of tests (the presets are plain numbers)."""
    try:
        n = int(str(text).replace(",", "").replace("_", "").strip())
    except ValueError:
        raise ValueError(f"a relevance-test budget is a number of tests (presets: "
                         f"{', '.join(map(str, PRESETS))}), not {text!r}") from None
    if n < 1:
        raise ValueError("the relevance-test budget must be at least 1")
    return n
