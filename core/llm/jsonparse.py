"""Getting JSON out of what real models return.

Small local models wrap JSON in ```json fences, put prose around it, leave trailing commas, use
single quotes, stop mid-answer at the output cap, think aloud in <think> blocks, answer with
nothing, or echo their input. `parse_json` repairs what can be repaired; `chat_json` asks the
model once more, showing it what was wrong, and otherwise fails with a message that says why.
"""
from __future__ import annotations

import json
import re
from typing import Any, Callable

from core.errors import UserError

_THINK_BLOCK = re.compile(r"<think(?:ing)?>.*?</think(?:ing)?>", re.DOTALL | re.IGNORECASE)
_THINK_OPEN = re.compile(r"^\s*<think(?:ing)?>", re.IGNORECASE)
_THINK_CLOSE = re.compile(r"</think(?:ing)?>", re.IGNORECASE)
_PAYLOAD_START = re.compile(r"```|^\s*[\[{]", re.MULTILINE)
_FENCE = re.compile(r"```[ \t]*(?:json|JSON|javascript|js)?[ \t]*\n?(.*?)(?:```|\Z)", re.DOTALL)
_BARE = {"True": "true", "False": "false", "None": "null"}
_CLOSER = {"{": "}", "[": "]"}

REPAIR_MESSAGE = ("Your previous answer could not be used: {error}. Answer again with only the "
                  "corrected JSON, nothing before or after it.")
EMPTY_REMINDER = ("(Reminder: your previous answer to this was empty. Answer with the JSON "
                  "described above and nothing else.)")
ECHO_REMINDER = ("(Reminder: your previous answer repeated the input instead of answering. Do not "
                 "copy the text; answer with the JSON described above and nothing else.)")


class JSONParseError(UserError):
    """A model's answer that holds no usable JSON. `raw` is the last answer, `attempts` the calls."""

    def __init__(self, message: str, raw: str = "", attempts: int = 0):
        super().__init__(message)
        self.raw = raw
        self.attempts = attempts


def strip_think(text: str) -> str:
    """Remove reasoning blocks: <think>...</think>, an unclosed leading <think> up to the
    payload, and everything before a stray </think> whose opening tag the server dropped."""
    if not text:
        return ""
    text = _THINK_BLOCK.sub("", text)
    opened = _THINK_OPEN.match(text)
    if opened:
        m = _PAYLOAD_START.search(text, opened.end())
        return text[m.start():].strip() if m else ""
    m = _THINK_CLOSE.search(text)
    if m:
        text = text[m.end():]
    return text.strip()


def parse_json(text: str) -> Any:
    """Parse the JSON in a model's answer, repairing what is easy to repair (see module doc)."""
    text = strip_think(text or "")
    if not text.strip():
        raise JSONParseError("the answer was empty")
    try:
        return json.loads(text, strict=False)
    except ValueError:
        pass
    candidates = [m.group(1) for m in _FENCE.finditer(text) if m.group(1).strip()]
    candidates.append(text)
    first_error = ""
    decoder = json.JSONDecoder(strict=False)
    for candidate in candidates:
        # Of every value that starts at a brace or bracket, keep the one spanning the most text
        # (the payload, not a "[1]" in the prose before it); an exact parse wins a tie.
        best: tuple[int, int, Any] | None = None
        for i in [k for k, c in enumerate(candidate) if c in "{["][:20]:
            try:
                value, end = decoder.raw_decode(candidate, i)
                found = (end - i, 1, value)
            except ValueError:
                try:
                    value, used = _repair(candidate[i:])
                    found = (used, 0, value)
                except ValueError as exc:
                    first_error = first_error or _short(exc)
                    continue
            if best is None or found[:2] > best[:2]:
                best = found
        if best is not None:
            return best[2]
    if not first_error:
        raise JSONParseError("the answer holds no JSON object or array")
    raise JSONParseError(f"the JSON is malformed ({first_error})")


def is_complete_json(text: str) -> bool:
    """Does the answer hold a whole JSON value as written (no repair of a cut-off end)? False
    for an answer stopped by its output cap or a loop cut, whose complete part parse_json keeps."""
    text = strip_think(text or "")
    try:
        json.loads(text, strict=False)
        return True
    except ValueError:
        pass
    decoder = json.JSONDecoder(strict=False)
    for candidate in [m.group(1) for m in _FENCE.finditer(text)] + [text]:
        # the outermost value starts at the first brace or bracket (not at an inner object or
        # array, which a cut answer still holds whole)
        starts = [i for i in (candidate.find("{"), candidate.find("[")) if i >= 0]
        if not starts:
            continue
        try:
            decoder.raw_decode(candidate, min(starts))
            return True
        except ValueError:
            continue
    return False


def _short(exc: Exception) -> str:
    msg = str(exc)
    return msg if len(msg) < 160 else msg[:157] + "..."


def _repair(s: str) -> tuple[Any, int]:
    """Rewrite a JSON-ish value that starts at s[0] (a brace or bracket) into valid JSON:
    single quotes to double, raw newlines escaped, trailing commas and Python literals fixed,
    and, when the text stops before the value is closed, the dangling partial element dropped
    (a partial array item entirely; a partial object member) and the open containers closed. Returns (value, characters used)."""
    out: list[str] = []
    stack: list[str] = []
    # Safe points: (length of out, open containers) where everything before is complete.
    safe: list[tuple[int, tuple[str, ...]]] = []
    i, n = 0, len(s)
    quote = ""
    garbage = False  # a bare word that is no JSON literal: the text is not JSON cut short
    while i < n:
        c = s[i]
        if quote:
            if c == "\\" and i + 1 < n:
                nxt = s[i + 1]
                out.append("'" if nxt == "'" else c + nxt)
                i += 2
                continue
            if c == quote:
                out.append('"')
                quote = ""
            elif c == '"':
                out.append('\\"')
            elif c == "\n":
                out.append("\\n")
            else:
                out.append(c)
            i += 1
            continue
        if c in "\"'":
            quote = c
            out.append('"')
        elif c in "{[":
            stack.append(c)
            out.append(c)
            safe.append((len(out), tuple(stack)))
        elif c in "}]":
            if not stack or _CLOSER[stack[-1]] != c:
                raise ValueError(f"unexpected {c!r} at character {i}")
            _drop_trailing_comma(out)
            stack.pop()
            out.append(c)
            if not stack:
                return json.loads("".join(out), strict=False), i + 1
            safe.append((len(out), tuple(stack)))
        elif c == ",":
            safe.append((len(out), tuple(stack)))
            out.append(c)
        elif c.isalpha() or c == "_":
            j = i
            while j < n and (s[j].isalnum() or s[j] == "_"):
                j += 1
            word = s[i:j]
            k = j
            while k < n and s[k] in " \t":
                k += 1
            if k < n and s[k] == ":" and stack and stack[-1] == "{":
                out.append(f'"{word}"')  # an unquoted key
            elif word in _BARE or word in ("true", "false", "null") or (j == n and any(
                    lit.startswith(word) for lit in ("true", "false", "null"))):
                out.append(_BARE.get(word, word))
            elif word[0] in "eE" and out and out[-1][-1:].isdigit():
                out.append(word)  # an exponent: 1e5
            else:
                garbage = True
                out.append(word)
            i = j
            continue
        else:
            out.append(c)
        i += 1
    # The text stopped inside the value: keep the complete elements and close the containers.
    if garbage:
        raise ValueError("the text around the braces is not JSON")
    for length, open_ in reversed(safe):
        if "[" in open_[:-1]:
            continue  # inside an array item: an object or array in an array is kept whole or not at all
        candidate = "".join(out[:length]).rstrip()
        if candidate.endswith(","):
            candidate = candidate[:-1]
        candidate += "".join(_CLOSER[c] for c in reversed(open_))
        try:
            return json.loads(candidate, strict=False), n
        except ValueError:
            continue
    raise ValueError("the JSON stops before it is complete")


def _drop_trailing_comma(out: list[str]) -> None:
    j = len(out) - 1
    while j >= 0 and out[j].isspace():
        j -= 1
    if j >= 0 and out[j] == ",":
        del out[j]


# ---- echo and empty answers ----------------------------------------------------------------



def is_echo(answer: str, messages: list[dict[str, str]], n: int = 8, threshold: float = 0.8,
            samples: int = 24) -> bool:
    """True when the answer mostly repeats the input: at least `threshold` of its word n-grams
    (up to `samples` of them, evenly spaced) occur in the messages. Short answers are never
    judged an echo. Text is folded to words with one C-speed substitution and the n-grams are
    looked up as substrings, so this costs well under a millisecond on a long prompt."""
    words = _NON_WORD.sub(" ", answer.lower()).split()
    if len(words) < 5 * n:
        return False
    source = " " + _NON_WORD.sub(" ", " ".join(m.get("content") or "" for m in messages).lower()) + " "
    starts = range(0, len(words) - n + 1)
    step = max(1, len(starts) // samples)
    picked = list(starts)[::step]
    hits = sum(f" {' '.join(words[k:k + n])} " in source for k in picked)
    return hits / len(picked) >= threshold


_NON_WORD = re.compile(r"[\W_]+")


def _with_reminder(messages: list[dict[str, str]], reminder: str) -> list[dict[str, str]]:
    """The same conversation with a reminder added to its last user message (two user messages
    in a row break the chat templates of some local models)."""
    msgs = [dict(m) for m in messages]
    for m in reversed(msgs):
        if m.get("role") == "user":
            m["content"] = f"{m.get('content') or ''}\n\n{reminder}"
            return msgs
    return msgs + [{"role": "user", "content": reminder}]


def _judge(text: str, messages: list[dict[str, str]],
           validate: Callable[[Any], Any] | None) -> tuple[Any, str | None, str | None]:
    """(obj, problem kind, error message); kind is None when the answer is usable."""
    body = strip_think(text or "")
    if not body.strip():
        return None, "empty", "the answer was empty"
    # An answer that is JSON of the asked shape is used even when its strings copy the input:
    # map points restate report findings and descriptions quote their sentence, word for word
    # with small models. Only prose (a copy of the prompt) or unusable JSON can be an echo.
    payload = body.lstrip().startswith(("{", "[", "```"))
    if not payload and is_echo(body, messages):
        return None, "echo", "the answer repeated the input instead of answering"
    try:
        obj = parse_json(body)
        if validate is not None:
            validate(obj)
    except JSONParseError as exc:
        if payload and is_echo(body, messages):
            return None, "echo", "the answer repeated the input instead of answering"
        return None, "parse", str(exc)
    except ValueError as exc:
        if payload and is_echo(body, messages):
            return None, "echo", "the answer repeated the input instead of answering"
        return None, "parse", f"the JSON does not have the expected shape ({_short(exc)})"
    return obj, None, None


def chat_json(llm: Any, messages: list[dict[str, str]], *, max_tokens: int | None, stage: str,
              validate: Callable[[Any], Any] | None = None) -> tuple[Any, str, int]:
    """Ask for JSON, parse it, and on failure ask once more. Returns (obj, raw_text, attempts).

    `validate(obj)` may raise ValueError to reject a well-formed answer of the wrong shape. A
    parse failure is retried with the model's answer and the error appended; an empty or echoed
    answer is retried with a reminder. Every unusable answer is dropped from the cache so that a
    later run asks again. Raises JSONParseError (with .raw and .attempts) when the retry fails too.
    """
    raw = llm.chat(messages, json_mode=True, max_tokens=max_tokens, stage=stage).text or ""
    obj, kind, error = _judge(raw, messages, validate)
    if kind is None:
        return obj, raw, 1
    llm.forget(messages, json_mode=True, max_tokens=max_tokens)
    if kind == "parse":
        retry = [*messages, {"role": "assistant", "content": raw},
                 {"role": "user", "content": REPAIR_MESSAGE.format(error=error)}]
    else:
        retry = _with_reminder(messages, EMPTY_REMINDER if kind == "empty" else ECHO_REMINDER)
    raw2 = llm.chat(retry, json_mode=True, max_tokens=max_tokens, stage=stage).text or ""
    obj, kind2, error2 = _judge(raw2, messages, validate)
    if kind2 is None:
        return obj, raw2, 2
    llm.forget(retry, json_mode=True, max_tokens=max_tokens)
    where = f"{stage}: " if stage else ""
    raise JSONParseError(f"{where}the model's answer was unusable twice: first {error}; "
                         f"then {error2}", raw=raw2, attempts=2)
