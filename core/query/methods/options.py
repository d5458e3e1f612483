"""Option parsers and the options several methods share (one definition, each method lists it)."""
from __future__ import annotations

import argparse

from core.query.methods.frame import Control, Option


def positive(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {value!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return n


def per_map(value: str) -> int | None:
    """--reports-per-map: a number of reports, or auto (None: the method decides)."""
    if value.strip().lower() == "auto":
        return None
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of reports or 'auto', not {value!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError("reports per map call must be 0 or more (0: as many as fit)")
    return n


SEED = Option("seed", "--seed", "shuffle seed of the map batches (default: random, recorded)", int, "N",
              control=Control("int", "Shuffle seed (0: a new one)", 0, 2 ** 31 - 1, unset=0), default=0)
CONCURRENCY = Option("concurrency", "--concurrency", "model calls in flight (default: the setting)", positive, "N")
RESPONSE_TYPE = Option("response_type", "--response-type",
                       "the answer's form, as told to the model (default: multiple paragraphs)", metavar="TEXT")
