"""The layout's layers hold: pages -> pages.components -> core, never upwards; inside core, each
package imports only packages below it in CORE_LAYERS (no package-level back edge, even when no
module circle closes); and no module imports another in a circle. An import inside a function,
or under `if TYPE_CHECKING:`, counts like one at the top."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    files = [ROOT / "app.py", *ROOT.glob("core/**/*.py"), *ROOT.glob("pages/**/*.py")]
    return {_module_name(p): p for p in files}


def _imports(path: Path, known: set[str]) -> set[str]:
    """Project modules this file imports (`from pkg import mod` counts as pkg.mod)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{a.name}" for a in node.names] + [node.module]
        for name in names:
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name:
                out.add(name)
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                if (a.name if isinstance(node, ast.Import) else node.module or "").split(".")[0] == "streamlit":
                    out.add("streamlit")
    return out


def _graph() -> dict[str, set[str]]:
    mods = _modules()
    known = set(mods)
    return {m: {i for i in _imports(p, known) if i != m} for m, p in mods.items()}


# core's packages from the bottom up; packages on one line are peers and may not import each other.
# The shared top-level modules (core/errors.py, settings.py, textutil.py ...) are the floor.
CORE_LAYERS = [
    ["text"],                       # citation markers, lexical support score, lexical tools
    ["store"],                      # the workspace database, references -> records
    ["llm"],                        # the model client (its cache lives in the store)
    ["ingest"],                     # documents in
    ["offline"],                    # the model-free engine: extraction, reports, extractive answers
    ["index"],                      # the pipeline that runs an engine
    ["verify"],                     # verdicts on cited sentences
    ["query"],                      # search methods
    ["compare", "interop", "viz"],  # what uses answers: comparisons, import/export, charts
    ["cli"],
]


def _core_package(module: str) -> str | None:
    """The core package a module belongs to; None for core's shared top-level modules."""
    parts = module.split(".")
    if parts[0] != "core" or len(parts) < 2:
        return None
    return parts[1] if (ROOT / "core" / parts[1]).is_dir() else None


def _rank(package: str) -> int:
    for i, line in enumerate(CORE_LAYERS):
        if package in line:
            return i
    raise AssertionError(f"core/{package} is in no layer of CORE_LAYERS: give it one")


def core_back_edges(graph: dict[str, set[str]]) -> list[str]:
    """Imports from a core package to one at its own rank (a peer) or above it."""
    bad = []
    for mod, deps in graph.items():
        a = _core_package(mod)
        for dep in deps:
            b = _core_package(dep)
            if a is None or b is None or a == b:
                if a is None and b is not None and mod.startswith("core"):
                    bad.append(f"{mod} (shared top-level module) imports core.{b}")
                continue
            if _rank(b) >= _rank(a):
                bad.append(f"{mod} imports {dep} (core.{a} may not import core.{b})")
    return sorted(bad)


def test_core_packages_import_only_layers_below():
    bad = core_back_edges(_graph())
    assert not bad, "package-level back edges in core:\n" + "\n".join(bad)


def test_a_back_edge_is_caught():
    # a function-local import from a lower package to a higher one is a back edge
    graph = {"core.store.db": {"core.query.citations_like"}, "core.query.citations_like": set()}
    assert core_back_edges(graph) == [
        "core.store.db imports core.query.citations_like (core.store may not import core.query)"]
    peers = {"core.viz.graph": {"core.interop.export"}, "core.interop.export": set()}
    assert core_back_edges(peers)


def test_every_core_package_has_a_layer():
    for d in (ROOT / "core").iterdir():
        if d.is_dir() and (d / "__init__.py").exists():
            _rank(d.name)


def _layer(module: str) -> int:
    if module.startswith("core"):
        return 0
    if module.startswith("pages.components"):
        return 1
    return 2  # pages and app.py


def test_no_module_imports_a_layer_above_it():
    bad = []
    for mod, deps in _graph().items():
        for dep in deps:
            if dep == "streamlit":
                if mod.startswith("core"):
                    bad.append(f"{mod} imports streamlit")
            elif _layer(dep) > _layer(mod):
                bad.append(f"{mod} imports {dep}")
            elif _layer(mod) == 2 and _layer(dep) == 2 and mod != "app":
                bad.append(f"page {mod} imports page {dep}")
    assert not bad, "imports against the layers:\n" + "\n".join(sorted(bad))


def test_no_import_circle():
    graph = {m: {d for d in deps if d != "streamlit" and not d.endswith("__init__")}
             for m, deps in _graph().items()}
    # a package's __init__ is not a dependency of its modules: drop edges to bare packages
    packages = {m for m, p in _modules().items() if p.name == "__init__.py"}
    graph = {m: {d for d in deps if d not in packages} for m, deps in graph.items()}
    cycles, state, stack = [], {}, []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for d in sorted(graph.get(m, ())):
            if state.get(d) == 1:
                cycles.append(" -> ".join(stack[stack.index(d):] + [d]))
            elif d not in state:
                visit(d)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)
    assert not cycles, "import circles:\n" + "\n".join(cycles)


def test_core_top_level_holds_only_shared_modules():
    top = sorted(p.name for p in (ROOT / "core").glob("*.py"))
    assert len(top) <= 8, top
    pages = sorted(p.name for p in (ROOT / "pages").glob("*.py"))
    assert pages == ["ask.py", "communities.py", "compare.py", "corpus.py"], pages


def test_the_app_uses_only_streamlits_public_api():
    """pages/ and app.py import `streamlit` itself (and its documented components module), never
    its runtime internals (PagesManager, script run contexts), which change between releases."""
    bad = []
    for path in [ROOT / "app.py", *ROOT.glob("pages/**/*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                if name.startswith("streamlit.") and not name.startswith("streamlit.components.v1"):
                    bad.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not bad, "\n".join(bad)


def test_sql_is_written_only_in_core_store():
    """The two store backends (SQLite, PostgreSQL) run the same SQL only if they hold all of it:
    nothing outside core/store calls a connection's execute, the store's raw query(), or its
    connection (store.db)."""
    bad = []
    for path in [ROOT / "app.py", *ROOT.glob("core/**/*.py"), *ROOT.glob("pages/**/*.py")]:
        if path.is_relative_to(ROOT / "core" / "store"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Attribute):
                continue
            on_store = ast.unparse(node.value).endswith("store")
            if node.attr in ("execute", "executemany", "executescript") or (node.attr in ("query", "db") and on_store):
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno} {ast.unparse(node)}")
    assert not bad, "\n".join(bad)
