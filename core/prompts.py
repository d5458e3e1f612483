"""Prompt templates from prompts/*.txt with named {placeholders}; a workspace may override one by
putting a file of the same name in <workspace>/prompts/."""
from __future__ import annotations

import functools
import os
import string
from pathlib import Path

PROMPTS_DIR = Path(__file__).resolve().parent.parent / "prompts"


class PromptError(KeyError):
    pass


def load_prompt(name: str, workspace: str | Path | None = None) -> str:
    """A workspace's own prompt file (read every time: a user may add or edit one at any time),
    else the bundled one (read once per process: an index run renders thousands of prompts)."""
    if workspace is not None:
        override = os.path.join(workspace, "prompts", f"{name}.txt")
        if os.path.exists(override):
            return Path(override).read_text(encoding="utf-8")
    path = PROMPTS_DIR / f"{name}.txt"
    text = _BUNDLED.get(path)
    if text is None:
        if not path.exists():
            raise PromptError(f"no prompt named {name!r} in {PROMPTS_DIR}")
        text = _BUNDLED[path] = path.read_text(encoding="utf-8")
    return text


_BUNDLED: dict[Path, str] = {}


@functools.lru_cache(maxsize=64)
def placeholders(template: str) -> frozenset[str]:
    return frozenset(f for _, f, _, _ in string.Formatter().parse(template) if f)


def render(prompt_name: str, workspace: str | Path | None = None, /, **values: object) -> str:
    """Fill a prompt. Every placeholder must be given; literal braces are written {{ }}."""
    template = load_prompt(prompt_name, workspace)
    missing = placeholders(template) - set(values)
    if missing:
        raise PromptError(f"prompt {prompt_name!r} needs {', '.join(sorted(missing))}")
    return template.format(**values)


def overrides(workspace: str | Path) -> dict[str, str]:
    """The workspace's own prompt files, name -> text (a queued run carries them to its worker)."""
    folder = Path(workspace) / "prompts"
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.txt"))} if folder.is_dir() else {}


def write_overrides(workspace: str | Path, texts: dict[str, str]) -> None:
    """Put prompt files in a workspace folder, as overrides() read them."""
    if texts:
        folder = Path(workspace) / "prompts"
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in texts.items():
            (folder / f"{Path(name).name}.txt").write_text(text, encoding="utf-8")


def all_prompts() -> list[str]:
    return sorted(p.stem for p in PROMPTS_DIR.glob("*.txt"))
