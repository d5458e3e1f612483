"""Untrusted text as literal Markdown (a page module of its own, so the sign-in screen and the
session state both use it)."""
from __future__ import annotations

import re

_PUNCT = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:&\"'=/^%@?;,])")


def md(text: object) -> str:
    """Untrusted text as literal markdown: every ASCII punctuation mark backslash-escaped, so no
    link, image, HTML, directive, emoji shortcode or formula can come from it."""
    return _PUNCT.sub(r"\\\1", str(text if text is not None else ""))
