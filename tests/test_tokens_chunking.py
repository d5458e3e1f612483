"""Token counts work offline from the bundled, hash-verified encoding; chunks keep exact spans."""
from __future__ import annotations

import hashlib
import shutil

import pytest

import core.tokens as tokens
from core.index.chunking import chunk_text
from core.tokens import CL100K_SHA256, bundled_encoding_path, count_tokens, get_encoding


def _clear():
    get_encoding.cache_clear()
    tokens._load.cache_clear()


def test_bundled_encoding_matches_tiktokens_pinned_hash():
    data = bundled_encoding_path().read_bytes()
    assert hashlib.sha256(data).hexdigest() == CL100K_SHA256


def test_counts_are_exact_cl100k_counts():
    assert count_tokens("hello world") == 2
    assert count_tokens("") == 0
    assert get_encoding().decode(get_encoding().encode_ordinary("Scrooge said 'Humbug!'")) == "Scrooge said 'Humbug!'"


def test_no_network_is_needed(monkeypatch):
    # any attempt to download would go through tiktoken.load.read_file with a URL
    import tiktoken.load
    def refuse(path):
        if str(path).startswith("http"):
            raise AssertionError(f"tried to download {path}")
        return open(path, "rb").read()
    monkeypatch.setattr(tiktoken.load, "read_file", refuse)
    _clear()
    try:
        assert count_tokens("offline counting works") > 0
    finally:
        _clear()


def test_a_tampered_encoding_file_is_refused(tmp_path, monkeypatch):
    bad = tmp_path / "data" / "cl100k_base.tiktoken"
    bad.parent.mkdir()
    shutil.copy(bundled_encoding_path(), bad)
    with open(bad, "ab") as f:
        f.write(b"ZZZZ 999999\n")
    monkeypatch.setattr(tokens, "bundled_encoding_path", lambda: bad)
    _clear()
    try:
        with pytest.raises(tokens.TokenizerUnavailable, match="SHA-256"):
            get_encoding()
    finally:
        _clear()


def test_default_chunks_are_600_tokens_with_100_overlap():
    text = " ".join(f"word{i}" for i in range(3000))
    chunks = chunk_text(text)
    assert all(c.n_tokens == 600 for c in chunks[:-1])
    enc = get_encoding()
    a, b = enc.encode_ordinary(chunks[0].text), enc.encode_ordinary(chunks[1].text)
    assert a[-100:] == b[:100]  # the overlap is exactly 100 tokens
    assert chunks[-1].char_end == len(text)


@pytest.mark.parametrize("text", [
    "微软研究院提出的社区摘要方法。GraphRAG 使用 Leiden 算法。" * 40,
    "Café crème, naïve résumé — “quotes” 🎉 emoji. " * 60,
    "line one\r\nline two\n\n" * 50,
])
def test_spans_are_exact_for_multibyte_text(text):
    chunks = chunk_text(text, size=13, overlap=3)
    assert chunks[0].char_start == 0 and chunks[-1].char_end == len(text)
    for c in chunks:
        assert text[c.char_start:c.char_end] == c.text
    for a, b in zip(chunks, chunks[1:]):
        assert b.char_start <= a.char_end  # windows overlap, nothing is skipped


def test_windows_match_a_plain_token_slicing_for_many_lengths():
    enc = get_encoding()
    base = "Scrooge 微软 naïve 🎉 GraphRAG. " * 30
    for n in (1, 5, 59, 60, 61, 119, 120, 121, 250):
        text = enc.decode(enc.encode_ordinary(base)[:n])
        chunks = chunk_text(text, size=60, overlap=10)
        toks = enc.encode_ordinary(text)
        expected = []
        i = 0
        while True:
            expected.append(min(i + 60, len(toks)) - i)
            if i + 60 >= len(toks):
                break
            i += 50
        assert [c.n_tokens for c in chunks] == expected, n
        assert chunks[-1].char_end == len(text)
        for c in chunks:
            assert text[c.char_start:c.char_end] == c.text
