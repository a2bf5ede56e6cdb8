"""The lab's package: imports that run one way, a core that runs anywhere, one set of end names."""

from __future__ import annotations

import ast
from pathlib import Path

from nova.lab.core.game import END_REASONS
from tests.build_helpers import build_site

ROOT = Path(__file__).resolve().parent.parent
LAB = ROOT / "nova" / "lab"
# what the page (Pyodide) has no use for or cannot load: the core must not import them
NOT_IN_THE_CORE = ("dask", "distributed", "matplotlib", "tqdm", "multiprocessing", "argparse")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports at run time (inside functions too), absolute names: the
    build's own reader of imports."""
    return build_site().imported_modules(path, _module_name(path))


def lab_import_graph() -> dict[str, set[str]]:
    """Module -> the lab modules it imports, for every module of nova/lab/."""
    modules = {_module_name(p): p for p in LAB.rglob("*.py")}
    return {name: _imports(path) & set(modules) - {name} for name, path in modules.items()}


def import_circle(graph: dict[str, set[str]]) -> list[str] | None:
    """A circle of imports (its modules, the first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_the_circle_finder_finds_a_circle():
    assert import_circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert import_circle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_the_labs_imports_run_one_way():
    graph = lab_import_graph()
    assert {"nova.lab.cli", "nova.lab.runners", "nova.lab.core.game"} <= set(graph)
    assert "nova.lab.core.game" in graph["nova.lab.runners"]  # the reader sees real edges
    assert import_circle(graph) is None, " -> ".join(import_circle(graph))


def test_the_core_runs_anywhere():
    """The core imports only the core of the lab, and nothing the page cannot load."""
    for path in (LAB / "core").glob("*.py"):
        for target in _imports(path):
            if target.startswith("nova.lab"):
                assert target.startswith("nova.lab.core"), (path.name, target)
            assert target.split(".")[0] not in NOT_IN_THE_CORE, (path.name, target)


def test_the_page_ships_what_its_lab_modules_import():
    """What the page ships of the lab (what the page's imports reach: the core and the
    workbench's model) imports only what it ships and nothing the page cannot load."""
    build = build_site()
    shipped = {name for name in build.page_modules() if name.startswith("nova.lab")}
    assert {"nova.lab.core.game", "nova.lab.core.result", "nova.lab.workbench"} <= shipped
    assert "nova.lab.runners" not in shipped and "nova.lab.cli" not in shipped
    for name in shipped:
        path = ROOT / Path(*name.split(".")).with_suffix(".py")
        if not path.exists():
            path = ROOT / Path(*name.split(".")) / "__init__.py"
        for target in _imports(path):
            if target.startswith("nova.lab"):
                assert target in shipped or target.rpartition(".")[0] in shipped, (name, target)
            assert target.split(".")[0] not in NOT_IN_THE_CORE, (name, target)


def test_the_lab_knows_every_end_the_engine_writes():
    """The reports order and colour the ends by name: every name the engine can write is one
    of the lab's, spelled the same (the report once had "no ships" for "no ships left")."""
    written = set()
    for path in (ROOT / "nova" / "rules").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and ast.unparse(node.func).rpartition(".")[2] in (
                "finish",
                "_finish",
            ):
                written.update(
                    a.value
                    for a in node.args
                    if isinstance(a, ast.Constant) and isinstance(a.value, str)
                )
    assert written and written <= set(END_REASONS), written - set(END_REASONS)
