"""Is an extracted name actually in its source text? Models (small ones especially) invent
entities or copy them from prompt examples; an ungrounded name is rejected with a reason."""
from __future__ import annotations

import re
import unicodedata

_HONORIFICS = {"MR", "MRS", "MS", "MISS", "DR", "PROF", "SIR", "LADY", "LORD", "AGENT",
               "CAPTAIN", "CAPT", "COUNCILLOR", "MAYOR", "SENATOR", "GENERAL", "SGT", "THE"}


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    text = re.sub(r"['’]s\b", "", text)
    return re.sub(r"[\W_]+", " ", text).strip()


def name_variants(name: str) -> list[str]:
    folded = _fold(name)
    words = folded.split()
    out = [folded]
    core = [w for w in words if w.upper() not in _HONORIFICS]
    if core and core != words:
        out.append(" ".join(core))
    return [v for v in out if v]


def is_grounded(name: str, text: str, folded_text: str | None = None) -> bool:
    """True when the name, or the name without titles, occurs in the text (case, punctuation
    and possessives ignored). For names with no word characters, false."""
    hay = f" {folded_text if folded_text is not None else _fold(text)} "
    for v in name_variants(name):
        if any("\u3000" <= ch <= "\u9fff" for ch in v):
            if v.replace(" ", "") in hay.replace(" ", ""):
                return True
        elif _whole_word(v, hay):
            return True
    return False


def _is_cjk(ch: str) -> bool:
    return "\u3000" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af" or "\uf900" <= ch <= "\ufaff"


def _whole_word(v: str, hay: str) -> bool:
    """v occurs in the folded text as whole words: bounded by spaces, or by CJK characters
    (Chinese writes Latin names without spaces: "微软提出了graphrag方法")."""
    i = hay.find(v)
    while i != -1:
        before, after = hay[i - 1:i], hay[i + len(v):i + len(v) + 1]
        if (before in ("", " ") or _is_cjk(before)) and (after in ("", " ") or _is_cjk(after)):
            return True
        i = hay.find(v, i + 1)
    return False


def fold_text(text: str) -> str:
    return _fold(text)
