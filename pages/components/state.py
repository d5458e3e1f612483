"""Session state shared by the pages (the bottom layer of the UI): the workspace, its store,
the engine settings, the style sheet, error display and escaping of untrusted text for markdown.

The API key typed in the sidebar lives in this browser session only (st.session_state); it is
never written to the workspace. A key from the environment (OPENAI_API_KEY) is used when none
is typed.
"""
from __future__ import annotations

import logging
import os
import re
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import streamlit as st

from core.errors import UserError
from core.settings import Settings, load_settings
from core.store.backends import store_at
from core.store.db import Store

APP_DIR = Path(__file__).resolve().parents[2]
log = logging.getLogger("sensemaker.app")

ENGINES = {"offline": "Offline (no model)", "llm": "LLM (OpenAI-compatible)"}


# -- escaping (pages/components/markup.py) ----------------------------------------------
from pages.components.markup import md  # noqa: E402,F401 - used as ui.md by every page



_LINE_MARK = re.compile(r"^(\s{0,6})(#{1,6} |[-*] |\d{1,3}\. |> )?(.*)$")
_BOLD = re.compile(r"\*\*([^*\n]{1,300}?)\*\*")
_FENCE = re.compile(r"^\s{0,3}```[\w+-]*\s*$")


def safe_markdown(text: str) -> str:
    """Model-written markdown with only its harmless structure kept: headings, list items,
    quotes, **bold** and fenced code blocks (shown as code, never run or rendered). Everything
    else (links, images, HTML, inline code) becomes literal text."""
    out = []
    lines = str(text or "").split("\n")
    fenced = False
    for i, line in enumerate(lines):
        if _FENCE.match(line) and (fenced or any(_FENCE.match(x) for x in lines[i + 1:])):
            fenced = not fenced  # a fence that closes: the lines between are code, kept as they are
            out.append("```" if fenced else "```")
            continue
        if fenced:
            out.append(line)
            continue
        m = _LINE_MARK.match(line)
        indent, mark, rest = m.group(1), m.group(2) or "", m.group(3)
        pieces, last = [], 0
        for b in _BOLD.finditer(rest):
            pieces.append(md(rest[last:b.start()]))
            pieces.append(f"**{md(b.group(1))}**")
            last = b.end()
        pieces.append(md(rest[last:]))
        out.append(indent + mark + "".join(pieces))
    return "\n".join(out)


# -- errors -------------------------------------------------------------------------------
@contextmanager
def guard() -> Iterator[None]:
    """Show errors as messages, never as tracebacks. UserError messages are ours to show as
    they are; anything else is a bug, logged with its traceback on the server."""
    try:
        yield
    except UserError as exc:
        st.error(str(exc), icon=":material/error:")
    except (FileNotFoundError, PermissionError) as exc:
        st.error(f"{exc.strerror or exc}: {exc.filename or ''}", icon=":material/error:")
    except Exception as exc:  # noqa: BLE001 - the last line of defence of a page
        log.exception("unexpected error in the app")
        st.error(f"Something went wrong: {exc.__class__.__name__}: {exc}. The server log has "
                 "the details.", icon=":material/error:")


@st.cache_resource(show_spinner=False)
def page_icon():
    """The tab icon, drawn here (a material icon name would make the browser fetch the icon
    from the internet, and nothing the app serves may)."""
    from PIL import Image, ImageDraw
    img = Image.new("RGBA", (64, 64), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    nodes = [(32, 32), (12, 14), (52, 12), (10, 50), (54, 50)]
    for x, y in nodes[1:]:
        d.line([nodes[0], (x, y)], fill=(37, 99, 235, 255), width=5)
    for i, (x, y) in enumerate(nodes):
        r = 11 if i == 0 else 8
        d.ellipse([x - r, y - r, x + r, y + r], fill=(37, 99, 235, 255) if i == 0 else (245, 133, 24, 255))
    return img


def selected_row(df, key: str, **options) -> int | None:
    """A table whose rows can be clicked: returns the clicked row's position, once. The key
    changes after a click, so the next run shows a fresh table (the same row can be clicked
    again) and nothing stays selected behind a closed dialog."""
    key = f"{key}_{st.session_state.get('tbl_round', 0)}"
    event = st.dataframe(df, key=key, on_select="rerun", selection_mode="single-row",
                         hide_index=True, width="stretch", **options)
    rows = list(event.selection.rows) if event is not None else []
    if not rows:
        return None
    st.session_state["tbl_round"] = st.session_state.get("tbl_round", 0) + 1
    return rows[0]


def load_css() -> None:
    css = (APP_DIR / "assets" / "style.css").read_text(encoding="utf-8")
    st.html(f"<style>{css}</style>")


# -- workspace ----------------------------------------------------------------------------
def root() -> Path:
    from core.store.workspace import workspaces_root
    return workspaces_root()


@st.cache_resource(show_spinner=False)
def _sample_workspace(root_dir: str) -> str:
    """Index the sample corpus offline on the first start (once per server process)."""
    from core.index.background import ensure_sample_workspace
    return str(ensure_sample_workspace(Path(root_dir)))


def workspace_name() -> str | None:
    return st.session_state.get("workspace")


def workspace_dir() -> Path | None:
    name = workspace_name()
    if not name:
        return None
    from core.store.workspace import workspace_path
    return workspace_path(name)


@st.cache_resource(show_spinner=False)
def _access(root_dir: str):
    from core.store.access import Access
    return Access.for_root(root_dir)


def access():
    """Roles per workspace (core.store.access) when a login is configured; None without one: the
    local user owns every workspace."""
    from pages.components import auth
    return _access(str(root())) if auth.configured() else None


def principal():
    from core.access import LOCAL
    from pages.components import auth
    return auth.principal() or LOCAL


def store() -> Store | None:
    """The Store of the selected workspace (one per session; each thread opens its own
    connection inside it), opened for the signed-in user with their role (read again each run),
    or None when they may not see the workspace."""
    path = workspace_dir()
    if path is None:
        return None
    acc = access()
    cached = st.session_state.get("_store")
    if cached is None or cached.workspace != path:
        if acc is None:
            cached = store_at(path)
        else:
            from core.store.access import Forbidden
            try:
                cached = acc.open_for(principal(), path.name, path)
            except Forbidden:
                return None
        st.session_state["_store"] = cached
    elif acc is not None:
        acc.refresh(cached, path.name)
        if cached.role is None:
            return None
    return cached


def may(action: str) -> bool:
    """May the user do this in the selected workspace (what the screen offers; core checks it
    again)?"""
    acc, name = access(), workspace_name()
    return acc is None or (name is not None and acc.may(principal(), name, action))


def audit(action: str, detail: str = "") -> None:
    """Note what the signed-in user did in the selected workspace, for its owners."""
    acc = access()
    if acc is not None:
        acc.log(principal(), workspace_name(), action, detail)


def visible_workspaces() -> list[str]:
    from core.store.workspace import list_workspaces
    names = list_workspaces()
    acc = access()
    return names if acc is None else acc.visible(principal(), names)


def require_store() -> Store:
    s = store()
    if s is None:
        st.info("Create or pick a workspace in the sidebar to begin.", icon=":material/folder_open:")
        st.stop()
    return s


# -- engine settings ----------------------------------------------------------------------
def api_key() -> str | None:
    return st.session_state.get("api_key_typed") or os.environ.get("OPENAI_API_KEY") or None


def settings() -> Settings:
    """The workspace's settings with this session's engine choices (and key) applied."""
    path = workspace_dir()
    engine = st.session_state.get("engine", "offline")
    overrides = {"engine": engine}
    if engine == "llm":
        overrides.update(llm_base_url=st.session_state.get("llm_base_url") or None,
                         chat_model=st.session_state.get("chat_model") or None,
                         embedding_model=st.session_state.get("embedding_model") or None)
    s = load_settings(path, **overrides)
    key = api_key()
    if engine == "llm" and key:
        s = s.with_changes(api_key=key)
    if engine == "llm":  # an empty embedding box means no embedding model
        s = s.with_changes(embedding_model=st.session_state.get("embedding_model") or None)
    return s


def check_engine(cfg: Settings) -> None:
    """Refuse the LLM engine without an endpoint, with a message that says what to set."""
    if cfg.resolved_engine == "llm" and not (cfg.llm_base_url or cfg.api_key):
        raise UserError("The LLM engine needs an endpoint: type a base URL (a local server) or an "
                        "API key (OpenAI) in the sidebar, or switch to the offline engine.")


def query_llm(s: Store):
    """The LLM for queries, or None for the offline engine."""
    cfg = settings()
    if cfg.resolved_engine != "llm":
        return None
    check_engine(cfg)
    from core.llm.openai import make_llm
    return make_llm(cfg, s)


def _load_engine_fields(path: Path | None) -> None:
    """Fill the engine fields from the workspace's saved settings (once per workspace)."""
    if st.session_state.get("_engine_loaded_for") == str(path):
        return
    try:
        saved = load_settings(path) if path else Settings()
    except UserError:
        saved = Settings()
    st.session_state["engine"] = saved.query_engine()  # the model whenever an endpoint is set
    st.session_state["llm_base_url"] = saved.llm_base_url or ""
    st.session_state["chat_model"] = saved.chat_model or ""
    st.session_state["embedding_model"] = saved.embedding_model or ""
    st.session_state["_engine_loaded_for"] = str(path)


# session keys that belong to one workspace's view (the community picked, the question typed,
# the open record); they are dropped when the workspace changes
WORKSPACE_KEYS = ("drill", "ask_", "nav_", "tbl_", "kids_", "refs_", "ans_", "community_tab",
                  "last_ingest", "_reindex", "_conn", "check_text_in")


def select_workspace(name: str) -> None:
    from pages.components import links
    old = st.session_state.get("workspace")
    changed = old not in (None, name)
    if changed:  # the question open in the old workspace opens again when the user comes back
        open_q = (st.session_state.get("ask_result") or {}).get("trace_id")
        if open_q:
            st.session_state[f"last_q::{old}"] = open_q
    st.session_state["workspace"] = name
    links.keep_workspace(name)
    if changed:
        links.forget_page_params()
        back = st.session_state.get(f"last_q::{name}")
        if back:
            st.query_params[links.QUESTION] = back
    st.session_state.pop("_store", None)
    for k in [k for k in st.session_state if str(k).startswith(WORKSPACE_KEYS)]:
        del st.session_state[k]
    st.session_state["ws_round"] = st.session_state.get("ws_round", 0) + 1


def ws_key(key: str) -> str:
    """A widget key that is new for each workspace opened, so no widget keeps (and shows) a
    value picked in the workspace before."""
    return f"{key}~{st.session_state.get('ws_round', 0)}"


def engine_label() -> str:
    cfg = settings()
    if cfg.resolved_engine == "offline":
        return "offline engine"
    return f"LLM engine, {cfg.chat_model}"
