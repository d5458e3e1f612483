"""Runaway repetition: a model that has fallen into a loop and would go on to its output cap.

Small local models decoding greedily fall into loops: "the facility, the facility, ...", the
same JSON object again and again, or endless newlines after the closing brace (a JSON grammar
allows any amount of whitespace). Every looped token costs wall time, so the text is checked
while it streams in and the generation is cut when its tail has become a loop.

The test is exact periodicity of the tail: the last characters of the text are one passage of
`p` characters repeated back to back, at least MIN_REPEATS times (twice for a passage of
LONG_PERIOD characters or more) and over at least MIN_SPAN characters (a short passage has to
repeat more often: "the facility, " about a dozen times, a newline 160 times). Exactness is what keeps it from firing on a JSON list of distinct entities:
its items share their structure, but every item differs from the one before it somewhere, and
three periods of the tail compare every position of an item twice. A check looks only at the
periods where the text's last characters occur again (found with str.rfind), so it costs a
few microseconds and can run on every chunk of a stream.
"""
from __future__ import annotations

from dataclasses import dataclass

MIN_REPEATS = 3    # occurrences of the passage, back to back
MIN_SPAN = 160     # characters the repeated tail covers at least
LONG_PERIOD = 200  # a passage this long or longer needs only two occurrences: 400+ characters
                   # repeated exactly, back to back, are a loop in any answer we ask for
MAX_PERIOD = 4000  # the longest passage looked for: Qwen 1.5B on Operation Dulce cycled through
                   # eight entity objects (850 characters) until its 1,500-token cap
_PROBE = 8         # characters compared first, to drop most candidate periods cheaply
_BOUNDARIES = ("}]", "\n", ".,;:!?\u3002\uff0c\uff1b\uff1a\uff01\uff1f\u3001")  # by preference


@dataclass(frozen=True)
class Runaway:
    start: int    # where the first occurrence of the repeated passage begins
    period: int   # the passage's length in characters
    repeats: int  # whole occurrences in the text from `start`
    keep: int     # text[:keep] is the text worth keeping: up to and including one occurrence

    def describe(self) -> str:
        return f"a {self.period}-character passage repeated {self.repeats} times"


def find_runaway(text: str, *, min_repeats: int = MIN_REPEATS, min_span: int = MIN_SPAN,
                 max_period: int = MAX_PERIOD) -> Runaway | None:
    """The loop the text ends in, or None. The shortest period that qualifies is reported.
    Candidate periods are the distances back to earlier occurrences of the text's last _PROBE
    characters, found with str.rfind (C speed), shortest first; only those are compared."""
    n = len(text)
    if n < max(min_span, _PROBE + 1):
        return None
    probe = text[n - _PROBE:]
    lowest = max(0, n - _PROBE - max_period)
    end = n - 1  # occurrences starting at n - _PROBE - 1 or earlier (period >= 1)
    while True:
        j = text.rfind(probe, lowest, end)
        if j < 0:
            return None
        end = j + _PROBE - 1
        p = n - _PROBE - j
        span = max(min_span, (min_repeats if p < LONG_PERIOD else min(2, min_repeats)) * p)
        if span > n or text[n - span:n - p] != text[n - span + p:]:
            continue
        start = _loop_start(text, p, n - span)
        return Runaway(start, p, (n - start) // p, _keep(text, start, p))


def _loop_start(text: str, p: int, i: int) -> int:
    """The earliest index from which text has period p up to its end (text[i:] has it)."""
    while i >= p and text[i - p:i] == text[i:i + p]:
        i -= p
    while i > 0 and text[i - 1] == text[i - 1 + p]:
        i -= 1
    return i


def _keep(text: str, start: int, p: int) -> int:
    """Where to cut: after one whole occurrence, moved forward (at most one more period) to the
    first natural boundary, so a repeated JSON item is kept whole rather than cut mid-item (the
    periodic stretch may begin a few characters before the item, in the previous one's tail)."""
    lo, hi = start + p, min(len(text), start + 2 * p)
    for chars in _BOUNDARIES:
        for c in range(lo, hi + 1):
            if text[c - 1] in chars:
                return c
    return lo


class RunawayWatch:
    """Checks a growing text every `every` new characters (checking each token is wasteful)."""

    def __init__(self, every: int = 32, **limits: int):
        self.every = every
        self.limits = limits
        self._checked = 0

    def check(self, text: str) -> Runaway | None:
        if len(text) - self._checked < self.every:
            return None
        self._checked = len(text)
        return find_runaway(text, **self.limits)
