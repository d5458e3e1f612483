"""Token chunking that keeps each chunk's character span in its document.

chunk_text: windows of `size` tokens advancing by `size - overlap`. content_chunks (the units of
an index): cuts at sentence ends chosen by local content, so an edit moves no distant cut.
Window spans are computed from the decoded byte lengths of the tokens, so they stay exact for
multi-byte text (Chinese, accents): a token boundary may fall inside a multi-byte character, and
then the span is widened to whole characters.
"""
from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import dataclass
from itertools import accumulate
from typing import Iterable

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
    byte_at = [0, *accumulate(map(_byte_lengths(enc).__getitem__, tokens))]  # token i starts at byte_at[i]
    step = size - overlap
    starts = list(range(0, max(1, len(tokens) - overlap), step)) if len(tokens) > size else [0]
    bounds = sorted({byte_at[i] for i in starts} | {byte_at[min(i + size, len(tokens))] for i in starts})
    leads = _leads_before(data, bounds)  # characters starting before each boundary byte

    def mid(b: int) -> bool:
        return b < len(data) and (data[b] & 0xC0) == 0x80

    chunks: list[Chunk] = []
    for i in starts:
        j = min(i + size, len(tokens))
        b0, b1 = byte_at[i], byte_at[j]
        c0 = leads[b0] - (1 if mid(b0) else 0)  # a split character is included whole
        c1 = leads[b1]
        chunks.append(Chunk(len(chunks), text[c0:c1], j - i, c0, c1))
    return chunks


@functools.lru_cache(maxsize=4)
def _byte_lengths(enc) -> list[int]:
    """Bytes of every token of the encoding, by token id (0 for unused ids): a chunk's spans add
    them up at C speed instead of decoding each token (1M tokens: 0.6 s -> 0.05 s)."""
    out = [0] * enc.n_vocab
    ranks = getattr(enc, "_mergeable_ranks", None)  # token bytes -> id, what the encoding is made of
    if ranks:
        for b, i in ranks.items():
            out[i] = len(b)
        return out
    for i in range(enc.n_vocab):
        try:
            out[i] = len(enc.decode_single_token_bytes(i))
        except KeyError:
            pass
    return out


_CONTINUATION = bytes(range(0x80, 0xC0))


def _leads_before(data: bytes, bounds: list[int]) -> dict[int, int]:
    """For each byte offset, how many UTF-8 characters start before it (counted stretch by
    stretch between consecutive offsets, at C speed)."""
    out, prev_b, n = {}, 0, 0
    for b in bounds:
        n += len(data[prev_b:b].translate(None, _CONTINUATION))
        out[b], prev_b = n, b
    return out


# content-defined chunks ------------------------------------------------------------------------
# Token windows move every later boundary when one paragraph is edited, so every later unit gets a
# new text and is extracted again. content_chunks cuts only at sentence ends, and whether a sentence
# end is a cut depends on local content only: its rank (a paragraph end or not, a hash of the first
# words of the sentence after it) against the ranks of the sentence ends within RADIUS_SHARE of a
# body of it (a local minimum: cuts are at least that far apart). An edit can change the cuts
# within that radius of itself and nowhere else; there is no left-to-right greedy walk whose moved
# cut has to fall back in step. A stretch between cuts longer than a body is split inside itself
# (halved at its best-ranked sentence end, each half alone), so a forced cut cannot cascade. A
# body may take part of the overlap's tokens (BODY_SLACK_SHARE: the chunk then repeats fewer sentences before it), so a
# stretch that an added sentence pushes just past size - overlap is not split: a stretch is split
# only past size - 40% of the overlap, where fewer stretches end. What is left: a cut within the
# radius that an edit moves (its rank changed, or a pair of sentence ends moved across the radius)
# can change a third unit, in about 1 edit in 100, a fourth in 1 of 1900 (bench/chunk_edits.py).

RADIUS_SHARE = 0.4  # a cut is the best-ranked sentence end within 40% of size - overlap tokens
BODY_SLACK_SHARE = 0.6  # a body may hold size - overlap + 60% of the overlap tokens (the chunk's
# overlap shrinks to fit the size), so fewer edits move a cut


@dataclass(frozen=True)
class _Segment:
    start: int
    end: int
    n_tokens: int
    rank: tuple[int, int]  # the lower the better a cut after it: paragraph ends, sentence ends,
    # then cuts inside a sentence longer than a body; then by a hash of the next segment's start


EDGE = 4  # the first words (CJK: characters x 2) of a sentence rank the cut before it


def _start_hash(piece: str) -> int:
    """A hash of the first few words of a sentence: the rank of the cut before it. A word changed
    inside a sentence, or a sentence added at a paragraph's end, leaves every rank as it was."""
    from core.textutil import has_cjk
    s = piece.strip()
    key = s[:2 * EDGE] if has_cjk(s[:2 * EDGE]) else " ".join(s.split(None, EDGE)[:EDGE])
    return int.from_bytes(hashlib.blake2b(key.encode("utf-8"), digest_size=4).digest(), "big")


# a sentence longer than a body is cut at line breaks, else clause marks, else into token windows:
# content-defined pieces, so a word inserted in a long table or list shifts no piece but its own
# (not at spaces: a 200 KB line of words made 40k segments and took 40x as long as windows)
_CLAUSE_CUTS = [re.compile(r"\n"), re.compile(r"[,;:\uff0c\u3001\uff1b\uff1a]\s*")]


def _clauses(text: str, a: int, b: int, body_max: int, enc, encoding: str,
             level: int) -> list[tuple[int, int, int, int]]:
    """(start, end, tokens, kind of the cut after it) of pieces covering text[a:b], each at most
    body_max tokens; kinds 2-3 are the cut marks above, 4 a token window."""
    if level == len(_CLAUSE_CUTS):
        windows = chunk_text(text[a:b], body_max, 0, encoding)
        return [(a + w.char_start, a + w.char_end, w.n_tokens, 4) for w in windows]
    ends = sorted({m.end() for m in _CLAUSE_CUTS[level].finditer(text, a, b) if a < m.end() < b})
    out = []
    for x, y in zip([a, *ends], [*ends, b]):
        n = len(enc.encode_ordinary(text[x:y]))
        if n <= body_max:
            out.append((x, y, n, 2 + level))
        else:
            out += _clauses(text, x, y, body_max, enc, encoding, level + 1)
    return out


def _segments(text: str, body_max: int, encoding: str, sections: frozenset[int] = frozenset()) -> list[_Segment]:
    """Sentences covering the text end to end (each runs to the next one's start); a sentence
    longer than body_max tokens is cut into token windows of its own. The cut after a segment
    ranks by its kind (before a section's heading, paragraph end, sentence end, inside a sentence)
    and the next one's start."""
    from core.textutil import split_sentences
    enc = get_encoding(encoding)
    starts = [s for s, _ in split_sentences(text)]
    if not starts or starts[0] != 0:
        starts = [0, *starts]
    parts: list[tuple[int, int, int, int]] = []  # start, end, tokens, kind of the cut after it
    for a, b in zip(starts, [*starts[1:], len(text)]):
        piece = text[a:b]
        n = len(enc.encode_ordinary(piece))
        kind = 0 if piece[len(piece.rstrip()):].count("\n") >= 2 else 1  # a blank line follows
        if n <= body_max:
            parts.append((a, b, n, kind))
            continue
        inner = _clauses(text, a, b, body_max, enc, encoding, 0)
        parts += inner[:-1] + [(*inner[-1][:3], kind)]
    nexts = [_start_hash(text[p[0]:p[1]]) for p in parts[1:]] + [0]
    heads = [p[0] in sections for p in parts[1:]] + [False]
    return [_Segment(a, b, n, (-1 if head else kind, h))
            for (a, b, n, kind), h, head in zip(parts, nexts, heads)]


def _is_anchor(segs: list[_Segment], pos: list[int], i: int, lo: int, hi: int, radius: int) -> bool:
    """Whether the end of segment i ranks better than every other segment end of lo..hi-2 within
    `radius` tokens of it (a tie goes to the earlier one)."""
    p, r = pos[i + 1], segs[i].rank
    j = i - 1
    while j >= lo and p - pos[j + 1] < radius:
        if segs[j].rank <= r:
            return False
        j -= 1
    j = i + 1
    while j < hi - 1 and pos[j + 1] - p < radius:
        if segs[j].rank < r:
            return False
        j += 1
    return True


def _anchors(segs: list[_Segment], pos: list[int], radius: int) -> list[int]:
    """Indexes i of the segments after which a cut falls: the end of segment i (at token pos[i+1])
    ranks better than every other segment end within `radius` tokens of it, and the text's start
    and end (which rank best) are farther than `radius`."""
    total = pos[-1]
    return [i for i in range(len(segs) - 1)
            if radius <= pos[i + 1] <= total - radius and _is_anchor(segs, pos, i, 0, len(segs), radius)]


def _split(segs: list[_Segment], pos: list[int], lo: int, hi: int, fit: int,
           guard: int) -> list[tuple[int, int]]:
    """Bodies (segment ranges) of the stretch lo..hi-1: itself when it holds at most `fit`
    tokens, else cut at its best-ranked segment end that leaves `guard` tokens on either side
    (without one: the end nearest its middle) and each side split the same way. A side's bodies
    depend on that side's content only, so an edit reshapes only the bodies on its own side down
    the halvings. (Cutting a stretch into the fewest bodies that fit would reshape every body of
    the stretch whenever an edit changed their number.)"""
    if pos[hi] - pos[lo] <= fit or hi - lo == 1:
        return [(lo, hi)]
    cands = range(lo, hi - 1)
    pool = [j for j in cands if min(pos[j + 1] - pos[lo], pos[hi] - pos[j + 1]) >= guard]
    if pool:
        j = min(pool, key=lambda j: (segs[j].rank, j))
    else:  # segments too long for the guard: the end nearest the middle
        mid = (pos[hi] - pos[lo]) / 2
        j = min(cands, key=lambda j: (abs(pos[j + 1] - pos[lo] - mid), j))
    return _split(segs, pos, lo, j + 1, fit, guard) + _split(segs, pos, j + 1, hi, fit, guard)


def content_chunks(text: str, size: int = 600, overlap: int = 100,
                   encoding: str = "cl100k_base", sections: Iterable[int] = ()) -> list[Chunk]:
    """Chunks of at most `size` tokens that end at sentence (preferably paragraph) ends chosen by
    local content, and best before a section's heading (`sections`: where the headings of a
    structured document start); each chunk after the first opens with the whole sentences before its body, up
    to `overlap` tokens (the overlap of token windows, in sentences). A body is the text between
    two cuts (`_anchors`), split inside itself when longer than size - overlap plus the slack
    (`_split`); the overlap repeats sentences of the previous body only, so an edited sentence is
    in its own chunk and at most the next one's."""
    if size <= 0 or not 0 <= overlap < size:
        raise ValueError("chunk size must be positive and overlap smaller than size")
    if not text:
        return []
    body_max = size - overlap
    radius = max(overlap, int(body_max * RADIUS_SHARE), 1)
    fit = body_max + int(overlap * BODY_SLACK_SHARE)  # the longest stretch left whole
    segs = _segments(text, body_max, encoding, frozenset(sections))
    pos = [0, *accumulate(s.n_tokens for s in segs)]
    cuts = [-1, *_anchors(segs, pos, radius), len(segs) - 1]
    guard = body_max // 4  # a stretch is split at least a quarter of a body from its ends
    bodies = [b for a, z in zip(cuts, cuts[1:]) for b in _split(segs, pos, a + 1, z + 1, fit, guard)]
    enc = get_encoding(encoding)
    chunks: list[Chunk] = []
    prev_lo = 0
    for lo, hi in bodies:
        first = lo  # the overlap: whole segments of the previous body, up to `overlap` tokens
        while first > prev_lo and pos[lo] - pos[first - 1] <= overlap:
            first -= 1
        while True:
            c0, c1 = segs[first].start, segs[hi - 1].end
            piece = text[c0:c1]
            n = len(enc.encode_ordinary(piece))
            if n <= size or first == lo:
                break
            first += 1  # over the size (a body using the slack): drop a sentence of overlap
        chunks.append(Chunk(len(chunks), piece, n, c0, c1))
        prev_lo = lo
    return chunks
