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
    data = text.encode("utf-8")
    # byte offset where each token starts
    byte_starts = [0] * (len(tokens) + 1)
    pos = 0
    for i, tok in enumerate(tokens):
        byte_starts[i] = pos
        pos += len(enc.decode_single_token_bytes(tok))
    byte_starts[len(tokens)] = pos
    # char offset of each byte offset at a character boundary
    char_of_byte = _char_index(data)

    chunks: list[Chunk] = []
    step = size - overlap
    start = 0
    while start < len(tokens):
        end = min(start + size, len(tokens))
        b0, b1 = byte_starts[start], byte_starts[end]
        c0 = char_of_byte(b0, round_up=False)
        c1 = char_of_byte(b1, round_up=True)
        piece = text[c0:c1]
        chunks.append(Chunk(len(chunks), piece, end - start, c0, c1))
        if end == len(tokens):
            break
        start += step
    return chunks


def _char_index(data: bytes):
    """Map byte offsets to character offsets (UTF-8), rounding to a character boundary."""
    starts = [i for i, b in enumerate(data) if (b & 0xC0) != 0x80]  # byte offset of each char
    import bisect

    def char_of_byte(b: int, round_up: bool) -> int:
        if b >= len(data):
            return len(starts)
        i = bisect.bisect_left(starts, b)
        if i < len(starts) and starts[i] == b:
            return i
        return i if round_up else i - 1

    return char_of_byte
