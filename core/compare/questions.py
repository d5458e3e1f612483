"""Question and assertion files for comparisons.

Questions: a text file with one question a line (blank lines and lines starting with # are
skipped), or a CSV with a `question` or `question_text` column (as the podcast corpus's questions file is), or
JSONL with a `question` field.
Assertions: JSONL, one object a line {"question": "...", "assertions": ["...", ...]}, or a CSV
with `question` and `assertion` columns (one assertion a row).
"""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from core.errors import UserError


def _read(path: str | Path) -> str:
    p = Path(path)
    if not p.is_file():
        raise UserError(f"no such file: {p}")
    try:
        return p.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise UserError(f"{p} is not UTF-8 text") from None


def load_questions(path: str | Path, limit: int | None = None) -> list[str]:
    text, name = _read(path), str(path).lower()
    if name.endswith(".csv"):
        rows = list(csv.DictReader(io.StringIO(text)))
        cols = [c for c in (rows[0].keys() if rows else []) if c]
        col = next((c for c in cols if c.strip().lower() == "question"), None) or \
            next((c for c in cols if c.strip().lower() in ("question_text", "questions", "query")), None)
        if col is None:
            raise UserError(f"{path}: a CSV of questions needs a 'question' (or 'question_text') column")
        qs = [(r.get(col) or "").strip() for r in rows]
    elif name.endswith(".jsonl"):
        qs = []
        for i, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    qs.append(str(json.loads(line).get("question") or "").strip())
                except (ValueError, AttributeError):
                    raise UserError(f"{path}, line {i}: not a JSON object with a question") from None
    else:
        qs = [l.strip() for l in text.splitlines() if l.strip() and not l.lstrip().startswith("#")]
    qs = list(dict.fromkeys(q for q in qs if q))
    if not qs:
        raise UserError(f"{path} holds no questions")
    return qs[:limit] if limit else qs


def load_assertions(path: str | Path) -> dict[str, list[str]]:
    """question (as written, stripped) -> the facts a good answer states."""
    text, name = _read(path), str(path).lower()
    out: dict[str, list[str]] = {}
    if name.endswith(".csv"):
        for r in csv.DictReader(io.StringIO(text)):
            q, a = (r.get("question") or "").strip(), (r.get("assertion") or "").strip()
            if not q or not a:
                continue
            out.setdefault(q, []).append(a)
    else:
        for i, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
                q, items = str(obj["question"]).strip(), obj["assertions"]
            except (ValueError, KeyError, TypeError):
                raise UserError(f"{path}, line {i}: expected {{\"question\": ..., \"assertions\": [...]}}") from None
            out.setdefault(q, []).extend(str(a).strip() for a in items if str(a).strip())
    if not out:
        raise UserError(f"{path} holds no assertions")
    return out
