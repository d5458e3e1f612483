"""The layout's layers hold: pages -> pages.components -> core, never upwards, and no module
imports another in a circle. An import inside a function counts like one at the top."""
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
