"""Progress reports and cancellation shared by the stages."""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Callable, Optional


@dataclass(frozen=True)
class Progress:
    stage: str
    done: int
    total: int
    message: str = ""


ProgressFn = Callable[[Progress], None]


class Cancelled(Exception):
    """The run was cancelled by the user; finished work is kept."""


def noop(_: Progress) -> None:
    return None


def check(cancel: Optional[threading.Event]) -> None:
    if cancel is not None and cancel.is_set():
        raise Cancelled("the run was cancelled")
