"""Token chunking that keeps each chunk's character span in its document.

Chunks are windows of `size` tokens advancing by `size - overlap`. Spans are computed from the
decoded byte lengths of the tokens, so they stay exact for multi-byte text (Chinese, accents):
a token boundary may fall inside a multi-byte character, and then the span is widened to whole
characters.
"""
from __future__ import annotations

from dataclasses import dataclass

from core.tokens import get_encoding


@dataclass(frozen=True)
class Chunk:
    ordinal: int
    text: str
    n_tokens: int
    char_start: int
    char_end: int


def chunk_text(text: str, size: int = 600, overlap: int = 100,
               encoding: str = "cl100k_base") -> list[Chunk]:
    if size <= 0 or not 0 <= overlap < size:
        raise ValueError("chunk size must be positive and overlap smaller than size")
    if not text:
        return []
    enc = get_encoding(encoding)
    tokens = enc.encode_ordinary(text)
    # char offset of each token's first byte, rounded down to the character containing it
    _, offsets = enc.decode_with_offsets(tokens)

    def end_char(j: int) -> int:
        """Character end of a window ending before token j (a split character is included)."""
        if j >= len(tokens):
            return len(text)
        first = enc.decode_single_token_bytes(tokens[j])[0]
        return offsets[j] + (1 if (first & 0xC0) == 0x80 else 0)

    chunks: list[Chunk] = []
    step = size - overlap
    start = 0
    while start < len(tokens):
        end = min(start + size, len(tokens))
        c0, c1 = offsets[start], end_char(end)
        chunks.append(Chunk(len(chunks), text[c0:c1], end - start, c0, c1))
        if end == len(tokens):
            break
        start += step
    return chunks
