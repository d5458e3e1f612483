"""Every bundled prompt renders with all its placeholders filled, and refuses to render with one
missing (so a renamed placeholder is caught here, not by a model reading a literal {name})."""
from __future__ import annotations

import pytest

from core.prompts import PromptError, all_prompts, load_prompt, placeholders, render


@pytest.mark.parametrize("name", all_prompts())
def test_every_placeholder_is_filled(name):
    names = placeholders(load_prompt(name))
    text = render(name, None, **{n: f"<<{n}>>" for n in names})
    assert all(f"<<{n}>>" in text for n in names)
    if names:
        with pytest.raises(PromptError):
            render(name, None, **{n: "x" for n in sorted(names)[1:]})


def test_lazy_and_basic_prompts_are_bundled():
    assert {"lazy_refine", "lazy_relevance", "lazy_claims", "lazy_reduce", "basic_search"} <= set(all_prompts())
