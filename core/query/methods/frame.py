"""What a search method is, and the frame every method runs through.

A method declares its name, its labels, its options (each with the CLI flag, the params field it
sets, its help, and how the app shows it), how it runs, and how its answer was made in words (the
CLI's "How it was made" lines). `run_method` is the one entry point: it checks the method and
the question, fills the settings, runs the method and states which engine answered.
"""
from __future__ import annotations

import argparse
import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from core.errors import UserError
from core.query.types import SearchResult
from core.text.lexical import NUMBERED_NAME
from core.textutil import STOPWORDS
from core.store.access import require


@dataclass(frozen=True)
class Control:
    """How the app draws an option: a number box ("int", "float") or a select box ("choice")."""
    kind: str
    label: str
    min: float | None = None
    max: float | None = None
    step: float | None = None
    choices: tuple = ()
    key: str = ""
    """The widget's key on the Ask page is ask_<method>_<key> (default: the option's key)."""
    unset: float | None = None
    """A value that means "not set" (the method's default), e.g. a seed of 0."""


@dataclass(frozen=True)
class Option:
    """One knob of a method: `key` in the options dict (the params field it sets), its CLI flag."""
    key: str
    flag: str
    help: str
    parse: Callable[[str], Any] = str
    metavar: str | None = None
    control: Control | None = None
    default: Any = None
    """The value the app shows first; None: the method's own default."""

    def add_to(self, parser: argparse._ActionsContainer) -> None:
        parser.add_argument(self.flag, dest=self.key, type=self.parse, metavar=self.metavar,
                            default=argparse.SUPPRESS, help=self.help)


Runner = Callable[..., SearchResult]
"""run(store, question, llm, settings, options, on_batch) -> SearchResult"""


@dataclass(frozen=True)
class Method:
    name: str
    label: str
    """Short label for the UI (the Ask page's method switch)."""
    summary: str
    """One line: what the method does, for --help and the UI."""
    needs_reports: bool
    """True when the method cannot answer without community reports."""
    run: Runner
    options: tuple[Option, ...] = ()
    describe: Callable[[SearchResult, str, Any], list[str]] | None = None
    """Lines saying how an answer was made: describe(result, engine words, store or None); None: the
    frame's generic lines."""
    trace: Callable[[SearchResult], Any] | None = None
    """The method's own trace as a typed record, read from a result (stored or fresh); None: the
    method has none beyond the SearchResult."""
    example: str = "What does the text say about ...?"
    """A question shown as the input's placeholder."""
    accepts_any_option: bool = False
    """True for a method that passes its options on to another one (auto)."""
    extra: dict[str, Any] = field(default_factory=dict)

    def option(self, key: str) -> Option | None:
        return next((o for o in self.options if o.key == key), None)


METHODS: dict[str, Method] = {}
"""The registered methods by name, in the order the UI lists them (core/query/methods/__init__.py)."""


def register(method: Method) -> Method:
    METHODS[method.name] = method
    return method


def unregister(name: str) -> None:
    METHODS.pop(name, None)


def pick(options: dict[str, Any], cls, **fixed):
    """A params dataclass from the options that name its fields (None values skipped); `fixed`
    fills fields the options leave out."""
    names = {f.name for f in dataclasses.fields(cls)}
    kw = {k: v for k, v in options.items() if k in names and v is not None}
    kw.update({k: v for k, v in fixed.items() if v is not None and k not in kw})
    return cls(**kw)


MAX_QUESTION_CHARS = 2000
"""A question longer than this is refused: it is a pasted document, not a question, and would
fill the map and answer prompts."""


def check_question(question: str) -> str:
    """The question stripped, or a UserError saying what is wrong with it."""
    q = (question or "").strip()
    if not q:
        raise UserError("give a question")
    if len(q) > MAX_QUESTION_CHARS:
        raise UserError(f"a question has at most {MAX_QUESTION_CHARS:,} characters; this one has {len(q):,}. "
                        "Ask about the documents in a sentence or two (to check a text of your own against "
                        "the sources, use Check a text)")
    return q


def run_method(name: str, store, question: str, llm=None, settings=None,
               options: dict[str, Any] | None = None, on_batch=None) -> SearchResult:
    """Ask `question` with the method `name`. Options a method does not know are left out, so a
    comparison can give several methods one options dict (the CLI refuses them before this)."""
    require(store, 'ask')
    if name not in METHODS:
        raise UserError(f"unknown method {name!r}: choose one of {', '.join(METHODS)}")
    check_question(question)
    if settings is None:
        from core.settings import Settings
        settings = Settings()
    result = METHODS[name].run(store, question, llm, settings, dict(options or {}), on_batch)
    result.engine = "offline" if llm is None else "llm"
    say_what_is_absent(store, result)
    return result


def say_what_is_absent(store, result: SearchResult) -> None:
    """A question about what the documents never name is answered with that first ("The
    documents do not mention Cedar Grove Clinic."), then with what the method found near it."""
    from core.verify.absent import absent_names
    from core.verify.names import Names
    if result.absent:  # said already (auto runs the method it picks through this frame)
        return
    named = absent_names(question_claim(result.question), Names(store))
    absent = named + [n for n in absent_series(store, result.question) if n not in named]
    # a word of a longer absent name is said with it ("Tower of London", not "Tower, London or ...")
    result.absent = [n for n in absent if not any(n != m and re.search(rf"(?<!\w){re.escape(n)}(?!\w)", m)
                                                  for m in absent)]
    if result.absent and result.answer:
        names = " or ".join(result.absent) if len(result.absent) < 3 else \
            ", ".join(result.absent[:-1]) + " or " + result.absent[-1]
        near = "" if result.no_data else " What they hold nearest to the question follows."
        result.answer = f"The documents do not mention {names}.{near}\n\n{result.answer}"
    if result.absent and result.trace_id:  # the method stored its trace before this line was written
        from core.query.traces import save_trace
        save_trace(store, result)


def absent_series(store, question: str) -> list[str]:
    """The numbered names of the question ("PEP 810", "Windows 10") no text unit holds, though
    the documents may name the series ("PEP 621", "Windows 8"): the name reader sees "PEP" or
    "Windows", which they hold. A name of capitalised words ("Second Life", "Tower of London") no
    text unit writes whole, though each word is common. The words written as a tool's name
    ("isort": lower case, no English word) that no text unit holds. The one word a yes-or-no
    question ends on after the verb asking for it ("does it support milvus?") when no text unit
    holds it or a word of its family. And a name typed in lower case as what the question
    ends on ("did anyone talk about stable diffusion?", "connected to groom lake?", "run it on a
    raspberry pi?"), two words of which one no text unit holds, or one word after an article ("what
    does Scrooge do at the opera?") that no text unit holds."""
    from core.offline.lower_names import unknown_word
    from core.offline.mentions import en_mentions
    q = question or ""
    wanted = [m.group(0) for m in NUMBERED_NAME.finditer(q)]
    mentions = [m.surface for m in en_mentions(question_claim(q))]
    wanted += [m for m in mentions if re.search(r"[A-Za-z] \d", m)]
    out = [w for w in dict.fromkeys(wanted) if not store.units_with(w, 1)]
    for name in mentions:  # "Second Life", or in the singular or plural, or by its initials ("PEP")
        held = [name, name[:-1] if name.endswith("s") else name + "s"] + \
            ([re.sub(r"[a-z]+ ?", "", name)] if name.count(" ") >= 2 else [])
        if _PLAIN_NAME.fullmatch(name) and f" {name}" in q and name not in out \
                and not any(store.units_with(v, 1) for v in held):
            out.append(name)
    from core.query.route import WHOLE_WORK
    for tail in (_LOWER_NAME_END.search(q), _LOWER_THING_END.search(q)):
        if tail is not None and not any(w in STOPWORDS for w in tail.group(1).split()) \
                and not WHOLE_WORK.fullmatch(f"the {tail.group(1)}"):  # "in the story?": the work itself
            words = tail.group(1).split()
            # after an article, the words are a thing's ("the abandoned room"): its noun must be
            # what no unit holds; with none, a name's ("stable diffusion"): any long word of it
            if (not _held(store, words[-1])) if tail.group(0).split()[1] in _ARTICLES \
                    else any(len(w) >= 4 and not _held(store, w) for w in words):
                out.append(tail.group(1))
            break
    yes_no = _YES_NO_END.search(q)
    if yes_no is not None and yes_no.group(1) not in STOPWORDS and yes_no.group(1) not in out \
            and not _held(store, yes_no.group(1)) and not _stem_held(store, yes_no.group(1)):
        out.append(yes_no.group(1))  # "does it support milvus?", "... on a schedule with airflow?"
    for m in _TOOL_WORD.finditer(q):
        w = m.group(0)
        if len(w) >= 4 and unknown_word(w) and w not in out and not store.unit_texts_with(w, 1):
            out.append(w)
    return out


def _held(store, word: str) -> bool:
    """Does a text unit hold the word, in the singular or the plural ("hoses": "hose")?"""
    forms = [word, word + "s"] + ([word[:-1]] if word.endswith("s") else []) + \
        ([word[:-2]] if word.endswith("es") else [])
    return any(store.unit_texts_with(f, 1) for f in forms)


def _stem_held(store, word: str) -> bool:
    """Does a text unit hold a word of its family ("streaming": "stream", "streamed")?"""
    from core.offline.fact_rank import stem
    root = stem(word)
    return len(root) >= 4 and any(re.search(rf"(?<![a-z]){re.escape(root)}", t.lower())
                                  for t in store.unit_texts_with(root, 5, substring=True))


# a yes-or-no question ending on the one thing it asks about, typed in lower case, after the verb or
# preposition that asks for it ("does it support milvus?", "can I run it with airflow?")
_YES_NO_END = re.compile(r"^\s*(?:can|could|does|do|is|are|will|should)\b[^?]*\b(?:support|supports|use|uses|"
                         r"using|with|on|run|runs|integrate|integrates|work|works)\s+([a-z]{4,})\s*\?*\s*$", re.I)
# two lower-case words a question ends on after a preposition (and an article): a name typed in
# lower case ("stable diffusion", "a raspberry pi", "a railway station")
_ARTICLES = ("a", "an", "the", "his", "her", "their", "its", "my", "your", "our")
_DETERMINER = r"(?:(?:" + "|".join(_ARTICLES) + r")\s+)?"
_LOWER_NAME_END = re.compile(r"\b(?:about|with|to|from|in|on|at|into|use|using)\s+" + _DETERMINER
                             + r"([a-z]{3,} [a-z]{2,})\s*\?*\s*$")
# or the one thing it ends on after a preposition and an article ("at the opera", "for his birthday")
_LOWER_THING_END = re.compile(r"\b(?:about|with|to|from|in|on|at|into|for)\s+(?:a|an|the|his|her|their|its)\s+"
                              r"([a-z]{4,})\s*\?*\s*$")
# a name of two or three capitalised words, maybe joined by "of" ("Second Life", "Tower of London")
_PLAIN_NAME = re.compile(r"[A-Z][a-z]+(?:(?: (?:of|of the|de|van|von|du|del|da))? [A-Z][a-z]+){1,2}")
_TOOL_WORD = re.compile(r"(?<![\w.@/-])[a-z][a-z0-9]*(?:[-.][a-z0-9]+)*(?![\w@/-]|\.\w)")


def question_claim(question: str) -> str:
    """The question as a sentence for the name reader: its question word lower-cased, so an
    opening "What", "Which" or "Who" is no name."""
    q = question.strip()
    return q[:1].lower() + q[1:] if q else q


def engine_words(result: SearchResult) -> str:
    return "offline engine, no language model" if result.engine == "offline" else f"model {result.model}"


def foreign_options(method: Method, given: dict[str, Any], methods: dict[str, Method]) -> list[str]:
    """Messages for the given options that `method` does not take, naming the methods that do."""
    if method.accepts_any_option:
        return []
    out = []
    for key in given:
        if method.option(key) is not None:
            continue
        owners = [m.name for m in methods.values() if not m.accepts_any_option and m.option(key) is not None]
        flag = next((o.flag for m in methods.values() for o in m.options if o.key == key), key)
        out.append(f"{flag} is an option of --method {' or '.join(owners) or '?'}, not {method.name}"
                   f" (see: sensemaker query --method {method.name} --help)")
    return out
