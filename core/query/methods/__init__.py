"""The search methods a question can be asked with, by name: one registry that the CLI
(`query --method`), the Ask page and Compare loop over.

A method is one module here (frame.Method: its options with their CLI flags and app controls,
how it runs, how its answer was made in words) and one `register` line below; `run_method` is
the frame every method runs through.
"""
from __future__ import annotations

from core.query.methods import auto, basic, drift, global_, lazy, local, ts
from core.query.methods.frame import (MAX_QUESTION_CHARS, METHODS, Control, Method, Option, check_question,
                                     engine_words, foreign_options, pick, register, run_method, unregister)

register(global_.METHOD)
register(local.METHOD)
register(lazy.METHOD)
register(basic.METHOD)
register(drift.METHOD)
register(ts.METHOD)
register(auto.METHOD)

__all__ = ["MAX_QUESTION_CHARS", "check_question", "METHODS", "Control", "Method", "Option", "engine_words", "foreign_options", "pick", "register",
           "run_method", "unregister"]
